#!/bin/sh
# `gemmprof -s 1024 --format csv|json` on a GPU: stdout holds the results table in that
# format and nothing else (progress and warnings go to stderr), one row per variant.
. tests/gpu/lib.sh
need_gpu "--format csv/json on the GPU" || exit 0
n=$($GEMMPROF --list | awk 'NR > 1' | wc -l)
for f in csv json; do
    $GEMMPROF -s 1024 --format $f -r 3 --no-report -o "$TMP/$f" >"$TMP/$f.out" 2>"$TMP/$f.err"
    rc=$?
    if python3 - "$TMP/$f.out" $f "$n" <<'PY'
import csv, json, sys
path, fmt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(path).read()
if fmt == "csv":
    rows = list(csv.DictReader(text.splitlines()))
    ok = len(rows) == n and all(r["status"] == "ok" and r["m"] == "1024" for r in rows)
else:
    doc = json.loads(text)   # the whole of stdout must be one JSON document
    rows = doc["rows"] if isinstance(doc, dict) and "rows" in doc else doc
    ok = len(rows) == n and all(r["status"] == "ok" for r in rows)
print(f"  --format {fmt}: {len(rows)} rows on stdout ({len(text)} bytes), {n} expected")
sys.exit(0 if ok else 1)
PY
    then
        [ $rc -eq 0 ] && ok "--format $f: stdout is $f only, one ok row per variant at 1024" ||
            fail "--format $f: exit $rc"
    else
        head -5 "$TMP/$f.out"; tail -3 "$TMP/$f.err"; fail "--format $f: stdout is not $f only"
    fi
done
