#!/bin/sh
# README figures cannot drift: every block between "<!-- summary:begin DIR -->" and
# "<!-- summary:end -->" must equal `gemmprof report DIR --summary` byte for byte, and every
# "N MB L2" in the README must equal the L2 of the first block. Then, so that the check is
# known to fail, it is run on a temporary copy with one table figure edited (and on one with
# the L2 edited) and must report a failure each time.
#   tests/host/test_readme_summary.sh [README]    (or README=FILE; default README.md)
# BUILD defaults to build/.
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
readme=${1:-${README:-README.md}}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

[ -x "$build/gemmprof" ] || { echo "FAIL - $build/gemmprof not built"; exit 1; }
[ -f "$readme" ] || { echo "FAIL - $readme: no such file"; exit 1; }

# against_data BLOCK DIR: the block's TFLOP/s cells against 2mnk / time_median_s of DIR's
# results.csv (verified square rows), and its L2 against results.json: a second reading of
# the data, independent of the generator.
against_data() {
    msg=$(awk -F, -v block="$1" '
        FNR == 1 && FILENAME != block { for (i = 1; i <= NF; i++) col[$i] = i; next }
        FILENAME != block {
            if ($col["status"] == "ok" && $col["m"] == $col["n"] && $col["n"] == $col["k"] && $col["time_median_s"] > 0)
                want[$col["variant"] "@" $col["m"]] = sprintf("%.2f", 2 * $col["m"] * $col["n"] * $col["k"] / $col["time_median_s"] / 1e12)
            next
        }
        /^\| variant \|/ { n = split($0, h, "|"); for (i = 3; i < n; i++) { s = h[i]; gsub(/[ N=]/, "", s); size[i] = s } }
        /^\| `/ {
            n = split($0, c, "|"); v = c[2]; gsub(/[ `]/, "", v)
            for (i = 3; i < n; i++) if (size[i] ~ /^[0-9]+$/) {
                got = c[i]; gsub(/ /, "", got)
                if ((v "@" size[i]) in want) { cells++; if (got != want[v "@" size[i]]) { print v " at " size[i] ": " got " against " want[v "@" size[i]]; bad = 1; exit 1 } }
            }
        }
        END { if (bad) exit 1; if (!cells) { print "no TFLOP/s cell matched a row"; exit 1 } print cells }' "$2/results.csv" "$1")
    if [ $? -ne 0 ]; then
        echo "FAIL - the summary of $2 against $2/results.csv: $msg"
        return 1
    fi
    echo "ok - the summary's $msg TFLOP/s figures of $2 equal 2mnk / median time in $2/results.csv"
    json=$(sed -n 's/^ *"l2_bytes": *\([0-9][0-9]*\),*$/\1/p' "$2/results.json" 2>/dev/null | head -n 1)
    [ -n "$json" ] || return 0
    want=$(awk -v b="$json" 'BEGIN { printf "%.3g", b / 1e6 }')
    if grep -q "L2 $want MB" "$1"; then
        echo "ok - the summary's L2 of $2 is results.json's $json bytes ($want MB)"
    else
        echo "FAIL - the summary of $2 does not say L2 $want MB (results.json: $json bytes)"
        return 1
    fi
}

# check FILE: ok/FAIL lines for FILE's blocks; exit status 1 when any failed.
check() {
    file=$1
    rm -f "$tmp"/block.*
    # each block, markers included, into block.N; its directory into block.N.dir
    awk -v d="$tmp" '
        /^<!-- summary:begin .* -->$/ { n++; dir = $0; sub(/^<!-- summary:begin /, "", dir); sub(/ -->$/, "", dir)
                                        print dir > (d "/block." n ".dir"); close(d "/block." n ".dir"); inb = 1 }
        inb { print > (d "/block." n) }
        /^<!-- summary:end -->$/ { if (inb) close(d "/block." n); inb = 0 }
        END { if (inb) print "unterminated" > (d "/block.unterminated") }' "$file"
    bad=0
    if [ -f "$tmp/block.unterminated" ]; then
        echo "FAIL - $file: a summary block has no <!-- summary:end --> marker"
        bad=1
    fi
    n=0
    for b in "$tmp"/block.[0-9]*; do
        case "$b" in *.dir|*.gen|*.diff) continue ;; esac
        [ -f "$b" ] || continue
        n=$((n + 1))
        dir=$(cat "$b.dir")
        if ! "$build/gemmprof" report "$dir" --summary >"$b.gen" 2>"$b.diff"; then
            echo "FAIL - $file: gemmprof report $dir --summary failed: $(head -n 1 "$b.diff")"
            bad=1
        elif diff "$b" "$b.gen" >"$b.diff"; then
            echo "ok - $file: the summary block of $dir equals gemmprof report $dir --summary"
            against_data "$b" "$dir" || bad=1
        else
            echo "FAIL - $file: the summary block of $dir differs from gemmprof report $dir --summary:" \
                "README has '$(grep '^<' "$b.diff" | head -n 1 | cut -c3-)'," \
                "the data gives '$(grep '^>' "$b.diff" | head -n 1 | cut -c3-)'"
            bad=1
        fi
    done
    if [ "$n" -eq 0 ]; then
        echo "FAIL - $file: no <!-- summary:begin DIR --> block"
        return 1
    fi
    # the L2 size said elsewhere in the README: the first block's
    l2=$(grep -o 'L2 [0-9.]* MB' "$tmp/block.1" | head -n 1 | cut -d' ' -f2)
    others=$(grep -o '[0-9.]* MB L2' "$file" | cut -d' ' -f1 | sort -u)
    for v in $others; do
        if [ "$v" = "$l2" ]; then
            echo "ok - $file: its L2 figure $v MB is the recorded run's"
        else
            echo "FAIL - $file: says a $v MB L2; $(cat "$tmp/block.1.dir")/results.json gives $l2 MB"
            bad=1
        fi
    done
    return $bad
}

check "$readme"
status=$?

# The check can fail: a copy with the first table figure of the first block moved by 0.01.
edited="$tmp/README.edited.md"
awk 'BEGIN { done = 0 }
     /^<!-- summary:begin / { inb = 1 }
     inb && !done && /^\| `/ {
         n = split($0, c, "|"); v = c[3]; gsub(/ /, "", v)
         if (v ~ /^[0-9]+\.[0-9][0-9]$/) {
             w = sprintf("%.2f", v + 0.01); sub(" " v " ", " " w " "); done = 1
             print "edited: " v " -> " w " in " $0 > "/dev/stderr"
         }
     }
     { print }' "$readme" >"$edited" 2>"$tmp/what"
selfcheck() {
    what=$1
    out=$(check "$edited" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | grep '^FAIL - ' | head -n 1)
    if [ "$rc" -ne 0 ] && [ -n "$line" ]; then
        echo "ok - the check fails on a copy with $what: $(printf %s "${line#FAIL - }" | sed "s|^$edited:|copy:|")"
    else
        echo "FAIL - the check passed a copy with $what: it cannot catch drift"
        status=1
    fi
}
if [ -s "$tmp/what" ]; then
    selfcheck "$(sed 's/^edited: //; s/ in .*//' "$tmp/what") edited in the table"
else
    echo "FAIL - no table figure found to edit in $readme's first summary block"
    status=1
fi

# ... and on a copy that says a 50 MB L2 outside the block.
sed 's/\([^0-9.]\)[0-9][0-9.]* MB L2/\150 MB L2/' "$readme" >"$edited"
if grep -q '50 MB L2' "$edited" && ! grep -q '50 MB L2' "$readme"; then
    selfcheck "a 50 MB L2 outside the block"
fi
exit $status
