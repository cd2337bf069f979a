#!/bin/sh
# Open MPI 4.1 for a GPU machine that has no mpirun and no network: Debian's packages,
# downloaded here and unpacked (not installed) into a prefix that git ignores, by default
# .mpi/ in the repository root, which the device call then carries (carry [".mpi"]).
# tests/gpu/mpi_env.sh points PATH, LD_LIBRARY_PATH and Open MPI's relocation variables at it.
#   tests/gpu/mpi_prefix.sh [PREFIX]
# Needs apt-get and Debian's package registry (run on a Debian machine, as root; it runs
# apt-get update for a second, separate package list). Downloads about 6 MB; the prefix is
# about 20 MB.
#
# The packages are bookworm's (Debian 12) except libevent: bookworm's libevent_core asks
# for glibc 2.36 (arc4random) while every other library here needs at most 2.34, so the
# same libevent 2.1.12 is taken from bullseye (same exported symbols, checked below),
# and the prefix runs on glibc 2.34 and newer (Ubuntu 22.04 and 24.04, Debian 12).
# Left out on purpose: ssh (a one-node launch needs none: mpi_env.sh sets plm=isolated),
# libhwloc-plugins (X11, libxml2, ICU), ibverbs-providers (no network hardware there),
# libopenmpi-dev (gemmprof links no MPI).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=${1:-$root/.mpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pkgs="openmpi-bin openmpi-common libopenmpi3 libevent-core-2.1-7 libevent-pthreads-2.1-7
      libfabric1 libhwloc15 libibverbs1 libnl-3-200 libnl-route-3-200 libpmix2
      libpsm-infinipath1 libpsm2-2 libucx0 librdmacm1 libnuma1 libmunge2 libudev1
      libatomic1 libuuid1 zlib1g"
mkdir -p "$tmp/debs" "$tmp/old/debs" "$tmp/old/lists/partial" "$tmp/old/cache/archives/partial"
(cd "$tmp/debs" && apt-get download $pkgs)

# libevent from bullseye, through a package list of its own (the system's is untouched),
# from the mirror the system's own apt configuration uses for its main archive (the one
# serving a suite without "-security"/"-updates"); no host is named here
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
    awk '$2 !~ /-/ {print $1; exit}')
[ -n "$mirror" ] || { echo "mpi_prefix: no Debian archive in this machine's apt configuration" >&2; exit 1; }
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bullseye main" \
    >"$tmp/old/sources.list"
o="-oDir::Etc::SourceList=$tmp/old/sources.list -oDir::Etc::SourceParts=/nonexistent
   -oDir::State::Lists=$tmp/old/lists -oDir::Cache=$tmp/old/cache"
apt-get $o update >/dev/null
(cd "$tmp/old/debs" && apt-get $o download libevent-core-2.1-7=2.1.12-stable-1 libevent-pthreads-2.1-7=2.1.12-stable-1)

rm -rf "$prefix"
mkdir -p "$prefix"
for f in "$tmp"/debs/*.deb; do dpkg-deb -x "$f" "$prefix"; done
mkdir -p "$tmp/old/x"
for f in "$tmp"/old/debs/*.deb; do dpkg-deb -x "$f" "$tmp/old/x"; done
lib=usr/lib/x86_64-linux-gnu
for so in libevent_core-2.1.so.7.0.1 libevent_pthreads-2.1.so.7.0.1; do
    nm -D --defined-only "$prefix/$lib/$so" | awk '{print $3}' | sort >"$tmp/new.sym"
    nm -D --defined-only "$tmp/old/x/$lib/$so" | awk '{print $3}' | sort >"$tmp/old.sym"
    cmp -s "$tmp/new.sym" "$tmp/old.sym" || { echo "mpi_prefix: $so: bullseye's exports differ from bookworm's" >&2; exit 1; }
    cp "$tmp/old/x/$lib/$so" "$prefix/$lib/$so"
done
# Debian names them through its alternatives system, which an unpacked prefix lacks
ln -s mpirun.openmpi "$prefix/usr/bin/mpirun"
ln -s mpiexec.openmpi "$prefix/usr/bin/mpiexec"
rm -rf "$prefix/usr/share/doc" "$prefix/usr/share/man" "$prefix/usr/share/lintian"
# libraries nearly every system has: kept aside in fallback/, which mpi_env.sh puts on the
# library path only for those the system lacks, so that programs under mpirun keep the
# system's own zlib, libudev, libuuid, libatomic and libnuma
mkdir -p "$prefix/fallback"
find "$prefix/lib" "$prefix/usr/lib" -maxdepth 2 \( -name 'libz.so.*' -o -name 'libudev.so.*' -o -name 'libuuid.so.*' \
    -o -name 'libatomic.so.*' -o -name 'libnuma.so.*' \) -exec mv {} "$prefix/fallback/" \;

need=$(find "$prefix" -type f \( -name '*.so*' -o -path '*/bin/*' \) -exec objdump -T {} + 2>/dev/null |
       grep -o 'GLIBC_2\.[0-9.]*' | sort -uV | tail -1)
ver=$(ls "$tmp"/debs/openmpi-bin_* | sed 's/.*openmpi-bin_\([^_]*\)_.*/\1/')
echo "mpi_prefix: $(du -sh "$prefix" | cut -f1) in $prefix: Open MPI $ver; its libraries need $need or newer"
