"""Shard rows against every other full run of the same GPU (issue 14): for each row a rank of
a --shard run measured, the range of the median times the other runs on that GPU measured,
widened by 1% each side; prints the rows outside and a count. The GPU of a run is its
rank directory's name (HOST-GPU_UUID).
  python3 tools/lab/shard_vs_runs.py SHARD_RANKS_DIR RUN_DIR_OR_RANKS_DIR...
A RUN_DIR holding results.csv directly counts for the GPU named by --gpu-of-plain
(default: the shard's rank 0 directory name), as a single run on `-d 0` does."""
import csv
import os
import sys


def load(path):
    with open(path, newline="") as f:
        return {(r["variant"], r["m"], r["n"], r["k"]): float(r["time_median_s"])
                for r in csv.DictReader(f) if r.get("status") == "ok" and r.get("time_median_s")}


def main(argv):
    args = argv[1:]
    plain_gpu = None
    if args[:1] == ["--gpu-of-plain"]:
        plain_gpu, args = args[1], args[2:]
    if len(args) < 2:
        print(__doc__.strip())
        return 2
    shard = {d: load(os.path.join(args[0], d, "results.csv")) for d in sorted(os.listdir(args[0]))
             if os.path.isfile(os.path.join(args[0], d, "results.csv"))}
    if plain_gpu is None:
        plain_gpu = min(shard)
    refs = {g: [] for g in shard}
    for d in args[1:]:
        if os.path.isfile(os.path.join(d, "results.csv")):
            refs.setdefault(plain_gpu, []).append((d, load(os.path.join(d, "results.csv"))))
        else:
            for g in sorted(os.listdir(d)):
                p = os.path.join(d, g, "results.csv")
                if os.path.isfile(p):
                    refs.setdefault(g, []).append((os.path.join(d, g), load(p)))
    out = total = 0
    for g, rows in shard.items():
        n_in = 0
        for key, t in sorted(rows.items()):
            vals = [r[key] for _, r in refs.get(g, []) if key in r]
            if not vals:
                continue
            total += 1
            lo, hi = min(vals), max(vals)
            if lo * 0.99 <= t <= hi * 1.01:
                n_in += 1
            else:
                out += 1
                print(f"  outside: {g} {key[0]} {key[1]}x{key[2]}x{key[3]}: shard {t * 1e3:.4f} ms, "
                      f"{len(vals)} other runs {lo * 1e3:.4f}-{hi * 1e3:.4f} ms")
        print(f"{g}: {len(refs.get(g, []))} other runs; {n_in} of {len(rows)} shard rows inside their range +-1%")
    print(f"{total - out} of {total} shard rows inside the range of the same GPU's other runs, widened by 1%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
