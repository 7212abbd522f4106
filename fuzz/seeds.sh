#!/bin/sh
# Build the seed corpus of one fuzzer: fuzz/seeds.sh NAME OUTDIR
# Seeds come from ../shared/bench (real maps) and tests/data, shaped as each target expects.
set -eu
name=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared/bench"
mkdir -p "$out"
n=0
seed() { # prefix-byte file
    n=$((n + 1))
    { printf "\\$(printf '%03o' "$1")"; cat "$2"; } >"$out/seed$n"
}
case "$name" in
fuzz_movingai)
    for f in "$shared"/movingai/*/*.map; do seed 0 "$f"; done
    for f in "$shared"/movingai/*/*.scen; do seed 1 "$f"; done
    for f in "$root"/tests/data/*.map; do [ -f "$f" ] && seed 0 "$f"; done
    ;;
*)
    for f in "$root"/fuzz/corpus/"$name"/*; do [ -f "$f" ] && cp "$f" "$out/"; done
    ;;
esac
exit 0
