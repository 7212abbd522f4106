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
fuzz_tiled)
    find "$shared/tiled" -name '*.json' -size -200k -o -name '*.tmj' -size -200k | while read -r f; do
        n=$((n + 1)); cp "$f" "$out/seed$n"; done
    cp "$root"/data/maps/td.tmj "$out/" 2>/dev/null || true
    ;;
fuzz_tmx)
    # the XML documents of the TMX tests: maps, a tileset, a template, the malformed corpus
    for f in "$root"/tests/data/tmx/*.tmx "$root"/tests/data/tmx/*.tsx "$root"/tests/data/tmx/*.tx \
        "$root"/tests/data/tmx-bad/*.tmx; do
        [ -s "$f" ] && cp "$f" "$out/$(basename "$f")"
    done
    ;;
fuzz_ascii)
    cp "$root"/data/maps/td.txt "$out/" 2>/dev/null || true
    for f in "$root"/tests/data/*.txt; do [ -f "$f" ] && cp "$f" "$out/"; done
    ;;
fuzz_path)
    # w h rules sx sy gx gy, then cells: a few open, walled and muddy maps
    printf '\017\017\000\000\000\016\016' >"$out/open"
    printf '\011\011\004\000\000\010\010\125\000\252\020\104' >"$out/mixed"
    printf '\007\005\021\001\001\005\003\001\004\020\100\001' >"$out/los"
    ;;
fuzz_regions)
    # w h rules, one bit per cell (1: wall), then edits of 5 bytes (x y width height wall|batch)
    printf '\017\013\004\000\041\000\204\020\000\000\377\000\000\000\003\004\000\001\001\005\002\003\003\000\011\011\001\001\003' >"$out/open"
    printf '\020\020\013\125\252\125\252\021\104\021\104\000\000\000\000\000\000\000\000\002\002\003\003\000\014\001\000\017\001' >"$out/walls"
    printf '\027\027\003\377\000\377' >"$out/rows"
    ;;
fuzz_shapes)
    # map w h, tile w h, tileset tile size choices, tiles, cover, conventions, then shapes
    i=0
    for seed in 1 2 3 4 5 6; do
        i=$((i + 1))
        LC_ALL=C awk -v s="$seed" 'BEGIN { x = s * 7919; for (k = 0; k < 400; k++) {
            x = (x * 1103515245 + 12345) % 2147483648; printf "%c", int(x / 65536) % 256 } }' \
            >"$out/gen$i"
    done
    printf '\012\010\037\037\000\000\002\000\007\002\010\020\020\050\050\000\003\040\040\060\060' >"$out/rects"
    ;;
fuzz_crowd)
    # w h gx gy agents steps, cells, then 8 bytes per agent
    printf '\012\010\011\007\010\036\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\100\100\100\200\200\000\003\200' >"$out/open"
    printf '\010\010\006\006\220\047\125\000\000\024\000\020\000\000\000\000\000\000\000\000\000\000\377\377\377\377\377\377\001\377' >"$out/walls"
    ;;
*)
    for f in "$root"/fuzz/corpus/"$name"/*; do [ -f "$f" ] && cp "$f" "$out/"; done
    ;;
esac
exit 0
