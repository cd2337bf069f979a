#!/bin/sh
# The example plugin (examples/example_plugin.cu) beside built-in variants: verified, timed
# and counted like them; a plugin whose kernel is wrong fails verification and one whose
# launch fails gives a cuda_error row, while the rest of the sweep carries on.
. tests/gpu/lib.sh
need_gpu "plugins on the GPU" || exit 0
SO=$BUILD/examples/libgemmprof_example.so
if $GEMMPROF -k tiled,plugin:$SO -s 1024,1000x1500x700 -r 3 --no-ceilings --no-report \
        -o "$TMP/plug" >"$TMP/plug.log" 2>&1 &&
   python3 tests/gpu/csvcheck.py all-ok "$TMP/plug/results.csv" 4 >>"$TMP/plug.log" &&
   python3 - "$TMP/plug/results.csv" <<'PY' >>"$TMP/plug.log"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["variant"] == "example_tiled16"]
ok = len(rows) == 2 and all(r["dram__bytes_read.sum"] and r["registers_per_thread"] for r in rows)
print("  example_tiled16 rows with counters and launch facts:", len(rows), ok)
sys.exit(0 if ok else 1)
PY
then
    ok "example plugin verified, timed and counted beside tiled at 1024 and 1000x1500x700"
else
    cat "$TMP/plug.log"; fail "example plugin"
fi
# broken plugins: a wrong result and a failing launch; tiled still runs after both
$GEMMPROF -k plugin:$SO:gemmprof_plugin_wrong,plugin:$SO:gemmprof_plugin_error,tiled -s 256 -r 2 \
    --no-counters --no-ceilings --no-report -o "$TMP/broken" >"$TMP/broken.log" 2>&1
rc=$?
st=$(python3 -c "import csv,sys; print(' '.join(r['variant']+'='+r['status'] for r in csv.DictReader(open(sys.argv[1]))))" \
    "$TMP/broken/results.csv" 2>/dev/null)
case "$st" in
*example_wrong=verify_failed*example_error=cuda_error*tiled=ok*)
    [ $rc -eq 1 ] && ok "broken plugins: $st, exit 1" || { cat "$TMP/broken.log"; fail "broken plugins: exit $rc (want 1)"; } ;;
*) cat "$TMP/broken.log"; fail "broken plugins: rows '$st'" ;;
esac
