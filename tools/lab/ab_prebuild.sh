#!/bin/bash
# The binaries of tools/lab/patch_ab.sh built on this machine (no GPU needed: nvcc only), so
# that the device call spends its time measuring: A from HEAD, B, C, ... from HEAD with each
# PATCH applied (one each, not stacked), in a scratch worktree, compressed into DIR
# (default .abx, ignored by git: carry it to the device, about 8 MB a binary).
#   tools/lab/ab_prebuild.sh PATCH [PATCH ...]
#   device: AB_PREBUILT=.abx tools/lab/patch_ab.sh PATCH [PATCH ...]   (carry .abx; the
#   binaries already hold HEAD's revision)
set -u
[ $# -ge 1 ] && [ $# -le 6 ] || { echo "usage: tools/lab/ab_prebuild.sh PATCH [PATCH ...] (1 to 6 patches)" >&2; exit 2; }
top=$(git rev-parse --show-toplevel) || exit 1
dir=${AB_PREBUILT:-$top/.abx}
wt=$(mktemp -d /tmp/ab-prebuild.XXXXXX)
trap 'git -C "$top" worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt"' EXIT
git -C "$top" worktree add -q --detach "$wt" HEAD || exit 1
mkdir -p "$dir"
rev=$(git -C "$top" rev-parse --short HEAD)
jobs=$(nproc)
build() { # LETTER
    make -C "$wt" -j"$jobs" GIT_REV="$rev" build/gemmprof >"$dir/build-$1.log" 2>&1 ||
        { tail -20 "$dir/build-$1.log"; echo "ab_prebuild: build $1 failed" >&2; exit 1; }
    xz -T0 -6 -c "$wt/build/gemmprof" >"$dir/gemmprof-$1.xz" || exit 1
    echo "$1: $dir/gemmprof-$1.xz ($(du -h "$dir/gemmprof-$1.xz" | cut -f1))"
}
build a
letters=(b c d e f g)
i=0
for patch in "$@"; do
    v=${letters[$i]}; i=$((i + 1))
    git -C "$wt" apply "$(realpath "$patch")" || { echo "ab_prebuild: $patch does not apply to HEAD" >&2; exit 1; }
    build "$v"
    git -C "$wt" apply -R "$(realpath "$patch")" || exit 1
done
