#!/bin/sh
# The layers, read from the #include lines of src/, analysis/, kernels/, cupti/ and include/:
# - no include circle: a module (a .c, .cu or .cpp with its .h or .cuh: the path without the
#   extension; a .def is a module of its own) reaches itself through no chain of includes,
#   so every function is declared in its own module's header and a circle of calls shows;
# - the folders include downwards only: analysis/ itself (it builds without CUDA; and
#   plots/charts.def, the chart registry), kernels/ itself (device code), cupti/ itself
#   and analysis/, include/ nothing; src/ anything;
# - no argc outside src/: the commands parse their arguments in src/cmd_*.c and call
#   library functions (an exec's argument vector, as plots.c builds for gnuplot, is no
#   command line, so the word argv alone is not looked for);
# - no circle of calls either, where the objects of BUILD (default build/) are there: a
#   header shared by several modules can hide one from the includes, the linker cannot
#   (module A uses a symbol that module B defines, read with nm).
# Then, so that each check is known to fail, it runs on a temporary tree with a circle, an
# include from analysis/ into kernels/, an argc and a circle of calls planted, and must
# fail on each.
#   tests/host/test_include_graph.sh
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# sources ROOT: the files checked, relative to ROOT, one a line.
sources() {
    (cd "$1" && find src analysis kernels cupti include -type f \( -name '*.c' -o -name '*.h' \
        -o -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' -o -name '*.def' \) 2>/dev/null | sort)
}

# edges ROOT: "FILE INCLUDED" for every #include "..." line (paths are from the root).
edges() {
    for f in $(sources "$1"); do
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1/$f" |
            while read -r inc; do echo "$f $inc"; done
    done
}

# circles: reads edges, prints one line per circle (a strongly connected set of modules),
# its modules and the includes that close it.
circles() {
    awk '
    function mod(p) { sub(/\.[A-Za-z]+$/, "", p); sub(/_internal$/, "", p); return p }
    function visit(v,    i, j, t, w) {
        idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
        for (i = 1; i <= deg[v]; i++) {
            w = adj[v, i]
            if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
        }
        if (low[v] == idx[v]) {
            n = 0; members = ""
            do { w = stack[sp--]; on[w] = 0; comp[w] = v; list[++n] = w } while (w != v)
            # sorted, so that a circle always reads the same
            for (i = 2; i <= n; i++)
                for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
            members = list[1]
            for (i = 2; i <= n; i++) members = members " " list[i]
            if (n > 1) { ncirc++; cmembers[ncirc] = members; croot[ncirc] = v }
        }
    }
    {
        a = mod($1); b = mod($2)
        if (a == b) next
        nodes[a] = 1; nodes[b] = 1
        if (!((a, b) in seen)) { seen[a, b] = 1; adj[a, ++deg[a]] = b }
        if (!((a, b) in why)) why[a, b] = $1 " -> " $2
    }
    END {
        for (v in nodes) if (!(v in idx)) visit(v)
        for (c = 1; c <= ncirc; c++) {
            text = ""
            for (k in seen) {
                split(k, ab, SUBSEP)
                if (comp[ab[1]] == croot[c] && comp[ab[2]] == croot[c]) text = text "; " why[ab[1], ab[2]]
            }
            print cmembers[c] ":" substr(text, 2)
        }
    }'
}

# layers: reads edges, prints each include that goes against the folders' order.
layers() {
    awk '
    function top(p) { sub(/\/.*/, "", p); return p }
    BEGIN {
        ok["analysis", "analysis"] = 1; ok["analysis", "plots"] = 1   # plots/: the chart registry, data
        ok["kernels", "kernels"] = 1
        ok["cupti", "cupti"] = 1; ok["cupti", "analysis"] = 1
        ok["include", "include"] = 1
    }
    {
        a = top($1); b = top($2)
        if (a != "src" && !((a, b) in ok)) print $1 " includes " $2
    }'
}

# argcs ROOT: "FILE:LINE: text" for each argc outside src/ (comments included: a front end
# described outside src/ is a front end planned there).
argcs() {
    for f in $(sources "$1"); do
        case "$f" in src/*) continue ;; esac
        grep -n -w argc "$1/$f" | sed "s|^|$f:|"
    done
}

# calls ROOT BUILD: "A.o B.o" for each object of BUILD whose source is in ROOT that uses a
# symbol another such object defines.
calls() {
    for o in $(cd "$2" && find src analysis cupti kernels -name '*.o' 2>/dev/null | sort); do
        stem=${o%.o}
        [ -f "$1/$stem.c" ] || [ -f "$1/$stem.cpp" ] || [ -f "$1/$stem.cu" ] || continue   # a stale object
        nm -g "$2/$o" | awk -v o="$o" '$1 == "U" { print "U", o, $2 } NF == 3 && $2 ~ /^[TDBRVW]$/ { print "D", o, $3 }'
    done | awk '$1 == "D" && !($3 in def) { def[$3] = $2 }
                $1 == "U" { use[++n] = $2 " " $3 }
                END { for (i = 1; i <= n; i++) { split(use[i], u, " ")
                          if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]] } }' | sort -u
}

# verdict FOUND OK FAIL: "ok - OK" when FOUND is empty, else "FAIL - FAIL:" and FOUND
# indented, and bad=1.
verdict() {
    if [ -z "$1" ]; then
        echo "ok - $2"
    else
        echo "FAIL - $3:"
        printf '%s\n' "$1" | sed 's/^/    /'
        bad=1
    fi
}

# check ROOT [BUILD]: ok/FAIL lines; exit status 1 when a rule is broken.
check() {
    bad=0
    edges "$1" >"$tmp/edges"
    nfiles=$(sources "$1" | wc -l)
    nedges=$(wc -l <"$tmp/edges")
    found=$(circles <"$tmp/edges") || found="(the circle search failed)"
    verdict "$found" "no include circle among the modules of $(echo $nfiles) files ($(echo $nedges) includes)" \
        "include circles (split what both sides need into a module of its own; declare functions in their own module's header)"
    found=$(layers <"$tmp/edges") || found="(the layer check failed)"
    verdict "$found" "analysis/ and kernels/ include only themselves, cupti/ itself and analysis/, include/ nothing" \
        "includes against the layers (analysis/ and kernels/ only themselves, cupti/ itself and analysis/)"
    verdict "$(argcs "$1")" "no argc outside src/" "argc outside src/ (a command's parsing belongs in src/cmd_*.c)"
    [ -n "$2" ] || return $bad
    calls "$1" "$2" >"$tmp/calls"
    nobj=$(awk '{ print $1; print $2 }' "$tmp/calls" | sort -u | wc -l)
    found=$(circles <"$tmp/calls") || found="(the circle search failed)"
    [ "$nobj" -gt 0 ] || found="no calls between the objects of $2 were read: the check proves nothing"
    verdict "$found" "no circle of calls among the $(echo $nobj) modules of $2 that call each other" \
        "circles of calls between modules (the symbols each side uses of the other)"
    return $bad
}

if ls "$build"/src/*.o >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
    check . "$build"
else
    echo "skip - circles of calls: no objects in $build/ (make builds them) or no nm"
    check .
fi
status=$?

# The checks can fail: a copy with each rule broken once must be reported.
# selfcheck WHAT WANT: the check on $tmp/t must fail and print WANT.
selfcheck() {
    out=$(check "$tmp/t" 2>&1)
    if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q "$2"; then
        echo "ok - the check fails on $1: $(printf '%s\n' "$out" | grep "$2" | head -1 | sed 's/^ *//')"
    else
        echo "FAIL - the check passed $1: it cannot catch one"
        status=1
    fi
}
plant() {
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t/src" "$tmp/t/analysis" "$tmp/t/kernels"
    printf '#include "analysis/a.h"\n' >"$tmp/t/src/main.c"
    printf 'int a(void);\n' >"$tmp/t/analysis/a.h"
    printf '#include "analysis/a.h"\n#include "analysis/b.h"\n' >"$tmp/t/analysis/a.c"
    printf 'int b(void);\n' >"$tmp/t/analysis/b.h"
    printf '#include "analysis/b.h"\n' >"$tmp/t/analysis/b.c"
    printf '__global__ void k(void) {}\n' >"$tmp/t/kernels/k.cu"
}
plant
printf '#include "analysis/c.h"\n' >>"$tmp/t/analysis/b.c"
printf 'int c(void);\n' >"$tmp/t/analysis/c.h"
printf '#include "analysis/a.h"\n' >"$tmp/t/analysis/c.c"
selfcheck "a circle a -> b -> c -> a" "analysis/a analysis/b analysis/c:"
plant
printf '#include "kernels/k.cu"\n' >>"$tmp/t/analysis/b.c"
selfcheck "analysis/ including kernels/" "analysis/b.c includes kernels/k.cu"
plant
printf '#include "analysis/a.h"\n' >>"$tmp/t/kernels/k.cu"
selfcheck "kernels/ including analysis/" "kernels/k.cu includes analysis/a.h"
plant
printf 'int b_main(int argc, char **argv) { return argc; }\n' >>"$tmp/t/analysis/b.c"
selfcheck "an argc in analysis/" "analysis/b.c:2:"
if command -v cc >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
    # two modules that call each other through one shared header: the includes show no circle
    plant
    printf 'int a(void);\nint b(void);\n' >"$tmp/t/src/both.h"
    printf '#include "src/both.h"\nint a(void) { return b(); }\n' >"$tmp/t/src/x.c"
    printf '#include "src/both.h"\nint b(void) { return a() + 1; }\n' >"$tmp/t/src/y.c"
    mkdir -p "$tmp/b/src"
    cc -c -I"$tmp/t" -o "$tmp/b/src/x.o" "$tmp/t/src/x.c" && cc -c -I"$tmp/t" -o "$tmp/b/src/y.o" "$tmp/t/src/y.c"
    out=$(check "$tmp/t" "$tmp/b" 2>&1)
    if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q "src/x src/y:"; then
        echo "ok - the check fails on a circle of calls behind a shared header: $(printf '%s\n' "$out" | grep "src/x src/y:" | sed 's/^ *//')"
    else
        echo "FAIL - the check passed a circle of calls behind a shared header"
        status=1
    fi
fi
exit $status
