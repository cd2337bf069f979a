#!/bin/sh
# No commit hashes in the manual or in source comments: measurement history, dated by commit,
# belongs in results/h200/NOTES.md (or docs/). Fails when README.md, or a comment of a file
# under src/, kernels/, analysis/ or cupti/, holds a word of 7-40 hex digits that is a commit
# of this repository (`git rev-parse --verify --quiet WORD^{commit}`). The generated summary
# block of README.md counts too: `gemmprof report DIR --summary` names no revision. Then, so
# that the check is known to fail, it
# is run on temporary copies with a commit of this repository planted, and must fail each time.
#   tests/host/test_no_hashes.sh
# Outside a git checkout it prints a skip line and passes.
cd "$(dirname "$0")/../.." || exit 1
if ! git rev-parse --git-dir >/dev/null 2>&1 || ! git rev-parse --verify --quiet 'HEAD^{commit}' >/dev/null; then
    echo "skip - test_no_hashes.sh: not in a git checkout (no commits to look hashes up in)"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# prose FILE: README.md, lines numbered "N:text".
prose() {
    awk '{ print FNR ":" $0 }' "$1"
}

# comments FILE: the text of FILE's C comments (// to the end of the line, /* ... */ over
# lines), lines numbered "N:text". Over-inclusive on purpose: a "//" inside a string counts.
comments() {
    awk '{
        line = $0; out = ""
        while (line != "") {
            if (inc) {
                e = index(line, "*/")
                if (e == 0) { out = out " " line; line = "" }
                else { out = out " " substr(line, 1, e - 1); line = substr(line, e + 2); inc = 0 }
            } else {
                s = index(line, "/*"); d = index(line, "//")
                if (d > 0 && (s == 0 || d < s)) { out = out " " substr(line, d + 2); line = "" }
                else if (s > 0) { line = substr(line, s + 2); inc = 1 }
                else line = ""
            }
        }
        if (out != "") print FNR ":" out
    }' "$1"
}

# hits LABEL: reads "N:text" lines, prints "LABEL:N: WORD" for each word that is a commit.
hits() {
    awk '{ n = $0; sub(/:.*/, "", n); t = substr($0, length(n) + 2)
           while (match(t, /[0-9A-Za-z_]+/)) {
               w = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
               if (w ~ /^[0-9a-fA-F]+$/ && length(w) >= 7 && length(w) <= 40) print n, w
           } }' | while read -r n w; do
        if git rev-parse --verify --quiet "$w^{commit}" >/dev/null 2>&1; then
            echo "$1:$n: $w"
        fi
    done
}

# check README SRCDIR: ok/FAIL lines; exit status 1 when a hash was found.
check() {
    readme=$1 root=$2 bad=0
    found=$(prose "$readme" | hits "$readme")
    if [ -n "$found" ]; then
        echo "FAIL - $readme names commits (move what they date to results/h200/NOTES.md):"
        printf '%s\n' "$found" | sed 's/^/    /'
        bad=1
    else
        echo "ok - $readme names no commit, its generated summary block included"
    fi
    found=$(for f in $(find "$root/src" "$root/kernels" "$root/analysis" "$root/cupti" -type f \
                       \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \
                          -o -name '*.cpp' -o -name '*.def' \) 2>/dev/null | sort); do
                comments "$f" | hits "${f#./}"
            done)
    nfiles=$(find "$root/src" "$root/kernels" "$root/analysis" "$root/cupti" -type f 2>/dev/null | wc -l)
    if [ -n "$found" ]; then
        echo "FAIL - source comments name commits (move the measurements to results/h200/NOTES.md):"
        printf '%s\n' "$found" | sed 's/^/    /'
        bad=1
    else
        echo "ok - the comments of $(echo $nfiles) files under src/ kernels/ analysis/ cupti/ name no commit"
    fi
    return $bad
}

check README.md .
status=$?

# The check can fail: copies with HEAD's abbreviated hash planted in the README's prose and
# in a kernel's comment must each be reported, at the line planted.
plant=$(git rev-parse --short=7 HEAD)
# selfcheck WHAT README ROOT WANT: the check on README and ROOT must fail and print WANT.
selfcheck() {
    out=$(check "$2" "$3" 2>&1)
    if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q "$4"; then
        echo "ok - the check fails on $1 with $plant planted: $(printf '%s\n' "$out" | grep "$4" | sed 's/^ *//')"
    else
        echo "FAIL - the check passed $1 with $plant planted: it cannot catch a hash"
        status=1
    fi
}
mkdir -p "$tmp/src" "$tmp/kernels" "$tmp/analysis" "$tmp/cupti"
sed "1a\\
Measured on the H200 at $plant." README.md >"$tmp/README.md"
selfcheck "a README copy" "$tmp/README.md" "$tmp" ":2: $plant\$"
printf '/* a kernel */\nint x; // measured at %s on the H200\n' "$plant" >"$tmp/kernels/planted.cu"
selfcheck "a kernel comment" README.md "$tmp" "planted.cu:2: $plant\$"
exit $status
