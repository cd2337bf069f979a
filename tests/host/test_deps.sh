#!/bin/sh
# plots/deps.sh, which `make run` and `make test` call first: on a machine without gnuplot
# (or with one that lacks the cairo terminals) it installs it when it may, and otherwise
# prints the exact command and exits 0 so that the job carries on without charts.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for t in sh id tail rm cat; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done

out=$(PATH=$tmp/bin sh plots/deps.sh 2>&1); rc=$?
case "$out" in
*"gnuplot is not installed"*"apt-get install gnuplot-nox"*"carrying on without charts"*) [ $rc = 0 ] && ok=1 || ok= ;;
*) ok= ;;
esac
[ -n "$ok" ] && echo "ok - no gnuplot, no apt-get: names the package for each system and exits 0" ||
    echo "FAIL - no gnuplot, no apt-get: rc=$rc, said: $out"

# apt-get present but installing not allowed: the exact command, and exit 0
printf '#!/bin/sh\necho "apt-get must not run" >&2; exit 1\n' >"$tmp/bin/apt-get"
chmod +x "$tmp/bin/apt-get"
out=$(PATH=$tmp/bin GEMMPROF_NO_INSTALL=1 sh plots/deps.sh 2>&1); rc=$?
case "$out" in
*"run '"*"apt-get install -y gnuplot-nox'"*) [ $rc = 0 ] && ok=1 || ok= ;;
*) ok= ;;
esac
[ -n "$ok" ] && echo "ok - apt-get but no install: prints the exact command, exits 0: $out" ||
    echo "FAIL - apt-get but no install: rc=$rc, said: $out"

# a gnuplot without the cairo terminals counts as missing
printf '#!/bin/sh\necho "Available terminal types: dumb, x11"\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
out=$(PATH=$tmp/bin GEMMPROF_NO_INSTALL=1 sh plots/deps.sh 2>&1)
case "$out" in
*"no pngcairo or svg terminal"*) echo "ok - a gnuplot without pngcairo and svg is reported as such" ;;
*) echo "FAIL - a gnuplot without cairo terminals passed: $out" ;;
esac

# an installer that "succeeds" without delivering the terminals is not believed (root only:
# the script installs only as root or with password-free sudo)
if [ "$(id -u)" = 0 ]; then
    printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/apt-get"
    out=$(PATH=$tmp/bin sh plots/deps.sh 2>&1); rc=$?
    case "$out" in
    *"installing gnuplot-nox failed"*"carrying on without charts"*) [ $rc = 0 ] && echo "ok - an install that leaves gnuplot unusable is reported, exit 0" ||
        echo "FAIL - exit $rc after a failed install" ;;
    *) echo "FAIL - a fake install was believed: $out" ;;
    esac
else
    echo "skip - a failed install: the script installs only as root"
fi

# the README's two commands go through it
for t in run test; do
    if make -n "$t" 2>/dev/null | grep -q 'plots/deps.sh'; then
        echo "ok - make $t checks the chart dependencies first"
    else
        echo "FAIL - make $t does not run plots/deps.sh"
    fi
done
