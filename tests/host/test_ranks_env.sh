#!/bin/sh
# gemmprof under a launcher's environment, end to end without a GPU: malformed or
# inconsistent rank variables and several ranks without --shard/--fleet are one line and
# exit 2, before any GPU work or directory; well-formed ones get as far as the GPU.
root=$(cd "$(dirname "$0")/../.." && pwd)
gp=$root/${BUILD:-build}/gemmprof
[ -x "$gp" ] || { echo "skip - rank environment: $gp not built"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { if [ "$1" = 0 ]; then echo "ok - $2"; else echo "FAIL - $2"; fi; }

# expect RC TEXT ENV... -- ARGS...: exit RC, one line on stderr containing TEXT, no --out
expect() {
    want=$1 text=$2; shift 2
    vars=""
    while [ "$1" != "--" ]; do vars="$vars $1"; shift; done
    shift
    env -u SLURM_PROCID -u OMPI_COMM_WORLD_RANK -u RANK $vars "$gp" --out "$T/out" "$@" >/dev/null 2>"$T/err"; rc=$?
    [ $rc = "$want" ] && grep -q -- "$text" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] && [ ! -e "$T/out" ]
    ok $? "$vars $*: exit $rc ($(cat "$T/err"))"
}

expect 2 "RANK='x1'" RANK=x1 WORLD_SIZE=2 LOCAL_RANK=0 -- --shard
expect 2 "below the world size" OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_LOCAL_RANK=0 -- --fleet
expect 2 "SLURM_LOCALID" SLURM_PROCID=0 SLURM_NTASKS=2 -- --fleet
expect 2 "give --shard" SLURM_PROCID=1 SLURM_NTASKS=2 SLURM_LOCALID=1 --
expect 2 "exclude each other" RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 -- --shard --fleet
# --shard-costs: the file is read before any GPU work; a missing or foreign file is one line
expect 2 "cannot open" RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 -- --shard --shard-costs "$T/none/results.csv"
printf 'a,b\n1,2\n' >"$T/foreign.csv"
expect 2 "no column 'variant'" RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 -- --shard --shard-costs "$T/foreign.csv"
expect 2 "give --shard too" -- --shard-costs "$root/results/h200/results.csv"
if command -v nvidia-smi >/dev/null 2>&1; then
    echo "skip - rank environment: well-formed ranks reach the GPU: a GPU is here (the run would be real)"
else
    expect 3 "rank 1 of 2: " RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 -- --shard
    expect 3 "" -- --fleet
fi
