#!/bin/bash
# wgmma_rs on the H200 in one call: build, wgmma_rs beside wgmma_ss and cuBLAS TF32 at
# 2048^3-8192^3, 1000x1500x700 and odd shapes, compute-sanitizer memcheck and racecheck,
# ncu's view at 4096^3, then the full default run (its wall time is the "under 30 s"
# check; RS_NO_RUN=1 skips it). Logs and results under $OUT (default /tmp/gemmprof-out).
# (At edc9ca7 it also ran the 8-wide B boxes through GEMMPROF_WGMMA_RS_B=8, since removed.)
set -u
OUT=${OUT:-/tmp/gemmprof-out}
mkdir -p "$OUT"
rev=(); [ -f .gitrev ] && rev=(GIT_REV="$(cat .gitrev)")
stamp() { echo "[$(date +%T)] $*"; }
stamp build
make -j16 "${rev[@]}" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; echo BUILD FAILED; exit 1; }
S=${RS_SHAPES:-2048,4096,8192,1000x1500x700,67x45x33,513x257x129}
for bw in 32; do
    stamp "b=$bw"
    timeout 120 build/gemmprof -k wgmma_ss,wgmma_rs,cublas_tf32 -s "$S" \
        --no-report -o "$OUT/rs$bw" >"$OUT/rs$bw.log" 2>&1
    echo "exit $?"
    grep -E 'wgmma|cublas' "$OUT/rs$bw.log" | head -30
    for tool in memcheck racecheck; do
        timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 \
            build/gemmprof -k wgmma_rs -s 300x200x100,67x45x33 --no-counters --no-report -r 1 -w 0 \
            -o "$OUT/san$bw$tool" >"$OUT/san$bw-$tool.log" 2>&1
        echo "$tool b=$bw exit $?"; tail -2 "$OUT/san$bw-$tool.log"
    done
done
if [ -z "${RS_NO_RUN:-}" ]; then
    stamp "default run"
    t0=$SECONDS
    timeout 200 build/gemmprof --out "$OUT/run1" >"$OUT/run1.log" 2>&1
    echo "default run exit $? after $((SECONDS - t0)) s"
    tail -8 "$OUT/run1.log"
fi
tar czf "$OUT/probe.tgz" -C "$OUT" --exclude=probe.tgz . 2>/dev/null
stamp done
if command -v ncu >/dev/null 2>&1 && [ -z "${RS_NO_NCU:-}" ]; then
    stamp "ncu: wgmma_rs and wgmma_ss at 4096^3"
    for v in wgmma_rs wgmma_ss; do
        timeout 120 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics \
            sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,dram__bytes_read.sum \
            -k regex:gemm_ -c 1 -s 2 build/gemmprof -k $v -s 4096 --no-counters --no-report -r 1 -w 2 \
            -o "$OUT/ncu$v" >"$OUT/ncu-$v.txt" 2>&1
        grep -E 'Throughput|tensor_cycles|lts__t_bytes|dram__bytes_read|Duration' "$OUT/ncu-$v.txt" | head -12
    done
fi
