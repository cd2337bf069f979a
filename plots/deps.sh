#!/bin/sh
# What the charts need on a fresh machine: gnuplot with the cairo terminals (PNG and SVG).
# Installed when we can (root, or password-free sudo, and apt-get); otherwise the exact
# command is printed and the caller carries on: runs and tests work without charts, and
# say so. Exit status 0 either way; GEMMPROF_NO_INSTALL=1 only checks.
has_terminals() {
    command -v gnuplot >/dev/null 2>&1 || return 1
    t=$(gnuplot -e 'set terminal' 2>&1)
    case "$t" in *pngcairo*) ;; *) return 1 ;; esac
    case "$t" in *svg*) return 0 ;; esac
    return 1
}
has_terminals && exit 0
pkg=gnuplot-nox
if command -v gnuplot >/dev/null 2>&1; then
    why="gnuplot has no pngcairo or svg terminal"
else
    why="gnuplot is not installed"
fi
if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
how="${sudo:+sudo }apt-get install -y $pkg"
if [ "${GEMMPROF_NO_INSTALL:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1 &&
   { [ -z "$sudo" ] || sudo -n true 2>/dev/null; }; then
    echo "gemmprof: $why; installing it: $how"
    if { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $pkg; } >/tmp/gemmprof-deps.$$.log 2>&1 &&
       has_terminals; then
        rm -f /tmp/gemmprof-deps.$$.log
        echo "gemmprof: $(gnuplot --version) installed"
        exit 0
    fi
    echo "gemmprof: installing $pkg failed ($(tail -1 /tmp/gemmprof-deps.$$.log 2>/dev/null)); carrying on without charts"
    rm -f /tmp/gemmprof-deps.$$.log
    exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
    if [ "${GEMMPROF_NO_INSTALL:-0}" = 1 ]; then because="GEMMPROF_NO_INSTALL=1"; else because="it needs root"; fi
    echo "gemmprof: $why: run '$how' (not installed here: $because); carrying on without charts"
else
    echo "gemmprof: $why: install gnuplot with its cairo terminals (Debian/Ubuntu: apt-get install $pkg, Fedora: dnf install gnuplot, macOS: brew install gnuplot); carrying on without charts"
fi
exit 0
