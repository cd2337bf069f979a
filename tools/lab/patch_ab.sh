#!/bin/bash
# A/B on one GPU: the SIMT variants as built from this tree (A) against the same tree with
# each PATCH applied (B, then C, ...: one patch each, not stacked), two rounds of A, B, ...
# on the same machine: simt_auto, dbuf and cuBLAS SGEMM at issue 28's shapes and the
# hold-outs where simt_auto trailed (AB_SHAPES), and the tuner restricted to AB_TILES at
# AB_TUNE. A patch from a branch, untracked so that it travels with the tree:
# git diff main BRANCH -- kernels tests > ab.patch
#   tools/lab/patch_ab.sh ab.patch [more.patch ...]
# Summary in $OUT/patch-ab.txt (each variant's time, B/A, and % of cuBLAS; per tile, the
# tuner plans' B/A), for each patch against A; the runs under $W (default /tmp/patch-ab),
# packed into $OUT/patch-ab.tgz.
set -u
[ $# -ge 1 ] && [ $# -le 6 ] || { echo "usage: tools/lab/patch_ab.sh PATCH [PATCH ...] (1 to 6 patches)" >&2; exit 2; }
OUT=${OUT:-/tmp/patch-ab-out}; W=${WORK:-/tmp/patch-ab}
mkdir -p "$OUT" "$W"
rev=(); [ -f .gitrev ] && rev=(GIT_REV="$(cat .gitrev)")
stamp() { echo "[$(date +%T)] $*"; }
# AB_PREBUILT=DIR: the binaries were built on another machine (tools/lab/ab_prebuild.sh, same
# nvcc): DIR/gemmprof-a.xz, -b.xz, ... are unpacked instead of building here, which saves the
# device about 150 s of compiling per patch
: >"$W/patches.txt"
builds=(a)
letters=(b c d e f g)
unpack() { # LETTER
    xz -dc "$AB_PREBUILT/gemmprof-$1.xz" >"$W/gemmprof-$1" && chmod +x "$W/gemmprof-$1" ||
        { echo "patch_ab: cannot unpack $AB_PREBUILT/gemmprof-$1.xz" >&2; exit 1; }
}
if [ -n "${AB_PREBUILT:-}" ]; then
    stamp "A: $AB_PREBUILT/gemmprof-a.xz"
    unpack a
else
    stamp "build A"
    make -j16 "${rev[@]}" >"$W/build-a.log" 2>&1 || { tail -30 "$W/build-a.log"; exit 1; }
    cp build/gemmprof "$W/gemmprof-a"
fi
i=0
for patch in "$@"; do
    v=${letters[$i]}; i=$((i + 1))
    if [ -n "${AB_PREBUILT:-}" ]; then
        unpack "$v"
    else
        git apply "$patch" 2>"$W/apply-$v.log" || patch -p1 <"$patch" >>"$W/apply-$v.log" 2>&1 ||
            { cat "$W/apply-$v.log"; exit 1; }
        stamp "build $v: A + $patch"
        make -j16 "${rev[@]}" >"$W/build-$v.log" 2>&1 || { tail -30 "$W/build-$v.log"; exit 1; }
        cp build/gemmprof "$W/gemmprof-$v"
        git apply -R "$patch" 2>>"$W/apply-$v.log" || patch -R -p1 <"$patch" >>"$W/apply-$v.log" 2>&1 ||
            { cat "$W/apply-$v.log"; exit 1; }
        cmp -s "$W/gemmprof-a" "$W/gemmprof-$v" && { echo "A and $v ($patch) are the same binary"; exit 1; }
    fi
    echo "$v: $patch" >>"$W/patches.txt"
    builds+=("$v")
done
S=${AB_SHAPES:-1024,2048,4096,8192,1000x1500x700,8192x64x4096,64x8192x4096,3000x3000x512,257x513x4099,3333x333x3333,5000x800x1200,1000x1000x20000,3700x1900x2800,600x600x6000,3000x1000x3000,7000x1000x2000,800x800x8000,127x4096x4096,2047}
T=${AB_TUNE:-7000x1000x2000 3333x333x3333}
# runs stop starting after AB_DEADLINE seconds (default 420), so that the summary is written
# inside a device command's 10 minutes
deadline=${AB_DEADLINE:-420}
for round in 1 2; do
    for v in "${builds[@]}"; do
        [ "$SECONDS" -lt "$deadline" ] || { echo "round $round, $v: skipped, $SECONDS s gone"; continue; }
        stamp "round $round, $v: simt_auto, dbuf, cublas"
        timeout 150 "$W/gemmprof-$v" -k simt_auto,dbuf,cublas -s "$S" --no-counters --no-ceilings --no-report \
            -o "$W/$v$round" >"$W/$v$round.log" 2>&1
        echo "exit $?"
        for s in $T; do
            GEMMPROF_TUNE_ONLY=${AB_TILES:-t128x128,t128x64,t64x128,t128x256} timeout 120 "$W/gemmprof-$v" --tune "$s" \
                --no-counters -o "$W/tune-$v$round-$s" >"$W/tune-$v$round-$s.log" 2>&1
            echo "tune $s: exit $?"
        done
    done
done
python3 - "$W" "${builds[*]}" $T <<'PY' | tee "$OUT/patch-ab.txt"
import csv, sys, os, statistics as st
w, builds, tune = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
def rows(p):
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []
names = dict(l.rstrip("\n").split(": ", 1) for l in open(f"{w}/patches.txt"))
t = {}
for v in builds:
    for r in (1, 2):
        for x in rows(f"{w}/{v}{r}/results.csv"):
            if x["status"] == "ok" and x["time_median_s"]:
                t.setdefault((x["variant"], f'{x["m"]}x{x["n"]}x{x["k"]}'), {}).setdefault(v, []).append(float(x["time_median_s"]))
for b in builds[1:]:
    print(f"== {b.upper()} = A + {names[b]}")
    print(f"variant     shape              A ms (2 runs)         {b.upper()} ms (2 runs)         {b.upper()}/A    % of cuBLAS A -> {b.upper()}")
    for (var, shape), d in t.items():
        if var == "cublas" or "a" not in d or b not in d:
            continue
        ta, tb = st.mean(d["a"]), st.mean(d[b])
        c = t.get(("cublas", shape), {})
        cb = st.mean([x for v in ("a", b) for x in c.get(v, [])]) if c else float("nan")
        print(f"{var:10s}  {shape:17s}  {' '.join(f'{x*1e3:.4f}' for x in d['a']):20s}  {' '.join(f'{x*1e3:.4f}' for x in d[b]):20s}  {tb/ta:.3f}  {100*cb/ta:5.1f}% -> {100*cb/tb:5.1f}%")
    for s in tune:
        plans = {}
        for v in ("a", b):
            for r in (1, 2):
                for x in rows(f"{w}/tune-{v}{r}-{s}/tune.csv"):
                    if x.get("time_median_s"):
                        plans.setdefault((x["config_name"], x["config"]), {}).setdefault(v, []).append(float(x["time_median_s"]))
        by_tile = {}
        for cfg, d in plans.items():
            if "a" in d and b in d:
                by_tile.setdefault(cfg[0], []).append(st.mean(d[b]) / st.mean(d["a"]))
        best = {v: min((st.mean(d[v]) for d in plans.values() if v in d), default=float("nan")) for v in ("a", b)}
        print(f"tuner {s}: best plan A {best['a']*1e3:.4f} ms, {b.upper()} {best[b]*1e3:.4f} ms")
        for tile, r in sorted(by_tile.items()):
            print(f"  {tile:22s} {len(r):3d} plans, {b.upper()}/A median {st.median(r):.3f} (min {min(r):.3f}, max {max(r):.3f})")
PY
tar czf "$OUT/patch-ab.tgz" -C "$W" --exclude='gemmprof-?' . 2>/dev/null
