#!/usr/bin/env python3
"""Stand-ins for gemmprof and ncu (by the name it runs under), for test_ncu_compare_batch.sh:
gemmprof writes one results.csv row per -k variant; ncu runs the command and writes the raw
CSV of every call (verify, -w warm-ups, -r timed) of each variant its --nvtx-include
names, in -k order, with the counts gemmprof wrote. FAKE_LOG: one line per invocation;
FAKE_NCU_DROP=V: V's second call loses its last kernel; FAKE_NO_FALLBACK=1: no timing-only
message."""
import csv
import os
import subprocess
import sys

METRICS = ["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "dram__bytes_read.sum",
           "dram__bytes_write.sum", "lts__t_bytes.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__t_bytes.sum"]


def opt(args, flag, default=None):
    return args[args.index(flag) + 1] if flag in args else default


def shape_of(s):
    return s if "x" in s else f"{s}x{s}x{s}"


def kernels(v, shape):
    """A call's kernels: cuBLAS TF32 at 64x64x16384 splits K (two kernels), the rest one."""
    if v == "cublas_tf32" and shape == "64x64x16384":
        return ["cutlass::Kernel2<tf32>", "cublasLt::splitKreduce_kernel<32, 16, int>"]
    return [f"gemm_{v}_kernel"]


def counts(v, shape):
    base = 1000 * len(v) + int(shape.split("x")[0])
    return [base * f for f in (64, 4096, 128, 8192, 2, 16384)]


def log(line):
    if os.environ.get("FAKE_LOG"):
        with open(os.environ["FAKE_LOG"], "a") as f:
            f.write(line + "\n")


def gemmprof(args):
    if "--list-metrics" in args:
        print("metric (ncu name) default combine unit what")
        for m in METRICS:
            print(f"{m} yes sum 1 fake")
        return 0
    ks, shape, out = opt(args, "-k").split(","), shape_of(opt(args, "-s")), opt(args, "-o")
    log(f"gemmprof -k {','.join(ks)} -s {shape} pad {os.environ.get('GEMMPROF_TEST_PAD_MB', '')}"
        f"{' under ncu' if os.environ.get('FAKE_UNDER_NCU') else ''}")
    if os.environ.get("FAKE_UNDER_NCU") and not os.environ.get("FAKE_NO_FALLBACK"):
        print("gemmprof: warning: no hardware counters: held by ncu\ngemmprof: carrying on with timing only",
              file=sys.stderr)
    os.makedirs(out, exist_ok=True)
    m, n, k = shape.split("x")
    with open(f"{out}/results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["variant", "m", "n", "k", "kernels"] + METRICS)
        for v in ks:
            w.writerow([v, m, n, k, ";".join(kernels(v, shape))] + counts(v, shape))
    return 0


def ncu(args):
    app = next(i for i, a in enumerate(args) if a.endswith("/gemmprof"))
    mine, cmd = args[:app], args[app:]
    ranges = [mine[i + 1] for i, a in enumerate(mine) if a == "--nvtx-include"]
    ks, shape = opt(cmd, "-k").split(","), shape_of(opt(cmd, "-s"))
    log(f"ncu -k {','.join(ks)} -s {shape} pad {os.environ.get('GEMMPROF_TEST_PAD_MB', '')} ranges {len(ranges)}")
    rc = subprocess.call(cmd, env=dict(os.environ, FAKE_UNDER_NCU="1"))
    ncalls = 1 + int(opt(cmd, "-w", "1")) + int(opt(cmd, "-r", "1"))
    with open(opt(mine, "--log-file"), "w", newline="") as f:
        f.write("==PROF== Connected to process\n")
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        w.writerow(["ID", "Kernel Name"] + METRICS)
        w.writerow(["", ""] + ["" for _ in METRICS])
        i = 0
        for v in ks:
            if f"gemmprof@{v} {shape}/" not in ranges:
                continue
            names, c = kernels(v, shape), counts(v, shape)
            for call in range(ncalls):
                todo = names[:-1] if v == os.environ.get("FAKE_NCU_DROP") and call == 1 else names
                for j, name in enumerate(todo):
                    # two kernels: the first reads 90% of the call's DRAM bytes, the rest split
                    share = [x / len(names) for x in c]
                    if len(names) > 1:
                        share[1] = c[1] * (0.9 if j == 0 else 0.1)
                    w.writerow([i, f"void {name}(float *)"] + share)
                    i += 1
    return rc


if __name__ == "__main__":
    sys.exit(ncu(sys.argv[1:]) if os.path.basename(sys.argv[0]) == "ncu" else gemmprof(sys.argv[1:]))
