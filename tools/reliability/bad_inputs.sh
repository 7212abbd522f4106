#!/bin/sh
# Feed the tilenav CLI bad inputs and check each gives its documented exit status and a clear
# message. Prints a Markdown table (input, command, exit status, message) for
# docs/RELIABILITY.md and exits 1 if any case differs from the expected status or crashes.
#   tools/reliability/bad_inputs.sh path/to/tilenav [--table]
set -u
TN=$1
TABLE=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mai="$root/../shared/bench/movingai/dao/arena.map"
[ -f "$mai" ] || mai="$t/ok.map"
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n.@.\n...\n' >"$t/ok.map"
printf 'version 1\n0\tm\t3\t3\t0\t0\t2\t2\t2.82843\n' >"$t/ok.scen"

# bad files
printf '' >"$t/empty.map"
printf 'type hex\nheight 3\nwidth 3\nmap\n' >"$t/hex.map"
printf 'type octile\nheight 3\nwidth 2147483648\nmap\n' >"$t/wide.map"
printf 'type octile\nheight 70000\nwidth 70000\nmap\n' >"$t/huge.map"
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n..\n...\n' >"$t/shortrow.map"
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n.x.\n...\n' >"$t/letter.map"
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n' >"$t/truncated.map"
printf 'version 2\n' >"$t/v2.scen"
printf 'version 1\n0\tm\t3\t3\t0\t0\t2\n' >"$t/fields.scen"
printf 'version 1\n0\tm\t3\t3\t0\t0\t9\t2\t2.5\n' >"$t/outside.scen"
printf '{"width":3,"height":2,' >"$t/trunc.tmj"
printf '{"width":3,"height":2,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":3,"height":2,"data":[1,2,3]}],"tilesets":[]}' >"$t/len.tmj"
printf '{"width":2147483648,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[],"tilesets":[]}' >"$t/wide.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"encoding":"base64","data":"!!!!"}],"tilesets":[]}' >"$t/b64.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"encoding":"base64","compression":"zlib","data":"AAAAAAAAAAA="}],"tilesets":[]}' >"$t/zlib.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"encoding":"base64","compression":"lz4","data":"AAAAAAAAAAA="}],"tilesets":[]}' >"$t/lz4.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"encoding":"base85","data":"AAAA"}],"tilesets":[]}' >"$t/enc.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[],"tilesets":[{"firstgid":1,"source":"missing.tsj"}]}' >"$t/ts.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"isometric","layers":[],"tilesets":[]}' >"$t/iso.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"data":[1,2.5]}],"tilesets":[]}' >"$t/float.tmj"
printf '{"width":-2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[],"tilesets":[]}' >"$t/neg.tmj"
python3 -c "print('['*100000)" >"$t/nest.tmj" 2>/dev/null || printf '[[[[' >"$t/nest.tmj"
printf '{"width":2,"height":1,"tilewidth":8,"tileheight":8,"orientation":"orthogonal","layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"data":[1,0]}],"tilesets":[{"firstgid":1,"name":"art","image":"missing.png","imagewidth":8,"imageheight":8,"tilewidth":8,"tileheight":8,"tilecount":1,"columns":1}]}' >"$t/art.tmj"
printf 'tilenav-ascii 1\nsize 2 1\ntile 8 8\nlegend . 1\nlayer g\n.?\n' >"$t/legend.txt"
printf 'tilenav-ascii 1\nsize 2 2\ntile 8 8\nlegend . 1\nlayer g\n..\n' >"$t/rows.txt"
printf 'tilenav-ascii 2\n' >"$t/version.txt"
printf 'just some text\n' >"$t/unknown.dat"
mkdir -p "$t/dir.map"
printf 'type octile\nheight 3\nwidth 3\nmap\n.@.\n@@@\n.@.\n' >"$t/alone.map"

fail=0
n=0
stdout=/dev/null # where case_ sends the command's standard output
[ -n "$TABLE" ] && printf '| # | input | command | exit | message |\n|---|---|---|---|---|\n'
case_() { # expected-exit description command...
    want=$1
    what=$2
    shift 2
    n=$((n + 1))
    out=$("$@" 2>&1 >"$stdout" </dev/null)
    got=$?
    # the error line (progress lines such as bench's "map: ... loaded" come first)
    msg=$(printf '%s\n' "$out" | grep -m1 -E '^(tilenav|usage)' || printf '%s' "$out" | head -1)
    msg=$(printf '%s' "$msg" | sed "s|$t/||g; s|$root/||g; s/|/\\\\|/g")
    shown=$(printf '%s' "$*" | sed "s|$t/||g; s|$root/||g; s|$TN|tilenav|")
    [ -n "$TABLE" ] && printf '| %d | %s | `%s` | %d | %s |\n' "$n" "$what" "$shown" "$got" "$msg"
    if [ "$got" -ne "$want" ] || [ "$got" -ge 128 ] || [ -z "$msg" ]; then
        echo "MISMATCH case $n ($what): exit $got, expected $want: $msg" >&2
        fail=1
    fi
}
case_ 2 "no command" "$TN"
case_ 2 "unknown command" "$TN" frobnicate
case_ 2 "info without a map" "$TN" info
case_ 3 "missing file" "$TN" info "$t/nope.map"
case_ 3 "a folder instead of a file" "$TN" info "$t/dir.map"
case_ 3 "empty Moving AI map" "$TN" info "$t/empty.map"
case_ 3 "Moving AI type other than octile" "$TN" info "$t/hex.map"
case_ 5 "Moving AI width 2^31" "$TN" info "$t/wide.map"
case_ 5 "Moving AI 70000 x 70000" "$TN" info "$t/huge.map"
case_ 3 "Moving AI short row" "$TN" info "$t/shortrow.map"
case_ 3 "Moving AI unknown terrain letter" "$TN" info "$t/letter.map"
case_ 3 "Moving AI truncated rows" "$TN" info "$t/truncated.map"
case_ 3 "unknown format" "$TN" info "$t/unknown.dat"
case_ 3 "truncated JSON" "$TN" info "$t/trunc.tmj"
case_ 3 "Tiled data length != width*height" "$TN" info "$t/len.tmj"
case_ 5 "Tiled width 2^31" "$TN" info "$t/wide.tmj"
case_ 3 "Tiled bad base64" "$TN" info "$t/b64.tmj"
case_ 3 "Tiled bad zlib stream" "$TN" info "$t/zlib.tmj"
case_ 3 "Tiled unknown compression" "$TN" info "$t/lz4.tmj"
case_ 3 "Tiled unknown encoding" "$TN" info "$t/enc.tmj"
case_ 3 "Tiled missing external tileset" "$TN" info "$t/ts.tmj"
case_ 3 "Tiled isometric map" "$TN" info "$t/iso.tmj"
case_ 3 "Tiled non-integer gid" "$TN" info "$t/float.tmj"
case_ 3 "Tiled negative width" "$TN" info "$t/neg.tmj"
case_ 5 "JSON nested 100000 deep" "$TN" info "$t/nest.tmj"
case_ 3 "ASCII unknown legend character" "$TN" info "$t/legend.txt"
case_ 3 "ASCII missing rows" "$TN" info "$t/rows.txt"
case_ 3 "ASCII unknown version" "$TN" info "$t/version.txt"
case_ 2 "path: start outside the map" "$TN" path "$t/ok.map" 5 0 2 2
case_ 2 "path: goal is a wall" "$TN" path "$t/ok.map" 0 0 1 1
case_ 2 "path: coordinate not a number" "$TN" path "$t/ok.map" 0 x 2 2
case_ 2 "path: unknown --heuristic" "$TN" path "$t/ok.map" 0 0 2 2 --heuristic fast
case_ 2 "path: --weight below 1" "$TN" path "$t/ok.map" 0 0 2 2 --weight 0.5
case_ 2 "path: unknown --diagonal" "$TN" path "$t/ok.map" 0 0 2 2 --diagonal sideways
case_ 2 "path: missing arguments" "$TN" path "$t/ok.map" 0 0
case_ 3 "bench: scenario version 2" "$TN" bench "$t/ok.map" "$t/v2.scen"
case_ 3 "bench: scenario line with 7 fields" "$TN" bench "$t/ok.map" "$t/fields.scen"
case_ 3 "bench: scenario outside its map" "$TN" bench "$t/ok.map" "$t/outside.scen"
case_ 2 "bench: unknown --algo" "$TN" bench "$t/ok.map" "$t/ok.scen" --algo bfs
case_ 2 "bench: --size 0" "$TN" bench "$t/ok.map" "$t/ok.scen" --size 0
case_ 2 "bench: --size 9" "$TN" bench "$t/ok.map" "$t/ok.scen" --size 9
case_ 2 "bench: --threads 0" "$TN" bench "$t/ok.map" "$t/ok.scen" --threads 0
case_ 2 "bench: random:0 queries" "$TN" bench "$t/ok.map" random:0
case_ 3 "bench: random queries, no two open cells connected" "$TN" bench "$t/alone.map" random:5
case_ 2 "field: goal outside" "$TN" field "$t/ok.map" 3 3
case_ 2 "field: goal is a wall" "$TN" field "$t/ok.map" 1 1
case_ 2 "field: --sectors 0" "$TN" field "$t/ok.map" 0 0 --sectors 0
case_ 2 "field: --sector-size without --sectors" "$TN" field "$t/ok.map" 0 0 --sector-size 8
case_ 2 "field: --sectors with corner cutting" "$TN" field "$t/ok.map" 0 0 --sectors 5 --diagonal one
case_ 4 "field: CSV into a missing folder" "$TN" field "$t/ok.map" 0 0 --out "$t/no/such/dir.csv"
case_ 2 "sim: no --agents" "$TN" sim "$t/ok.map" 0 0 --steps 5
case_ 2 "sim: negative agents" "$TN" sim "$t/ok.map" 0 0 --agents -3 --steps 5
case_ 2 "sim: blocked goal" "$TN" sim "$t/ok.map" 1 1 --agents 3 --steps 5
case_ 2 "collide: zero objects" "$TN" collide --objects 0 --steps 1
case_ 2 "collide: world too small for the speed" "$TN" collide --objects 10 --steps 1 --world 10 10 --speed 50
case_ 2 "collide: unknown broad phase" "$TN" collide --objects 10 --steps 1 --broadphase octree
case_ 2 "demo: --steps not a number" "$TN" demo --steps many
case_ 4 "demo: output folder cannot be created" "$TN" demo --out /proc/tilenav-demo --steps 60 --quiet
case_ 3 "demo: map without spawn or exit" "$TN" demo --map "$t/ok.map" --steps 60 --quiet
case_ 4 "path: PNG into a missing folder" "$TN" path "$t/ok.map" 0 0 2 2 --png "$t/no/such/dir.png"
case_ 2 "path: --scale 0" "$TN" path "$t/ok.map" 0 0 2 2 --png "$t/p.png" --scale 0
case_ 4 "collide: PNG into a missing folder" "$TN" collide --objects 10 --steps 1 --png "$t/no/such/dir.png"
case_ 0 "field --png: tileset image missing (drawn with the palette)" "$TN" field "$t/art.tmj" 1 0 --png "$t/art.png"
# an output over a file the command reads: refused before any work, the file kept byte for byte
cp "$t/ok.map" "$t/mine.map"
ln -s mine.map "$t/link.png"
ln "$t/mine.map" "$t/hard.csv"
mkdir "$t/tiled"
printf 'not really a picture\n' >"$t/tiled/tiles.png"
sed 's/missing.png/tiles.png/' "$t/art.tmj" >"$t/tiled/m.tmj"
cp "$t/ok.scen" "$t/mine.scen"
kept=$(cat "$t/mine.map" "$t/tiled/tiles.png" "$t/mine.scen" | cksum)
case_ 2 "path: --png over its own map" "$TN" path "$t/mine.map" 0 0 2 2 --png "$t/mine.map"
case_ 2 "path: --png over a symbolic link to its map" "$TN" path "$t/mine.map" 0 0 2 2 --png "$t/link.png"
case_ 2 "field: --out over a hard link to its map" "$TN" field "$t/mine.map" 0 0 --out "$t/hard.csv"
case_ 2 "sim: --png over the map's tileset image" "$TN" sim "$t/tiled/m.tmj" 1 0 --agents 1 --steps 1 --png "$t/tiled/tiles.png"
case_ 2 "bench: --write-optimal over its .scen" "$TN" bench "$t/mine.map" "$t/mine.scen" --algo hpa --write-optimal "$t/mine.scen"
if [ "$(cat "$t/mine.map" "$t/tiled/tiles.png" "$t/mine.scen" | cksum)" != "$kept" ]; then
    echo "MISMATCH: an input file was overwritten by an output" >&2
    fail=1
fi
# options that cannot go together, lists read whole before any work, pictures past the limits
case_ 2 "path: --json with --ascii" "$TN" path "$t/ok.map" 0 0 2 2 --json --ascii
case_ 2 "sim: --bench with --json" "$TN" sim "$t/ok.map" 0 0 --bench --json
case_ 2 "sim: a bad count after a good one" "$TN" sim "$t/ok.map" 0 0 --bench --counts 10,abc
case_ 2 "field: --los with --los-simple" "$TN" field "$t/ok.map" 0 0 --los --los-simple
awk 'BEGIN { printf "type octile\nheight 1\nwidth 60000\nmap\n"; for (i = 0; i < 60000; i++) printf "."; printf "\n" }' >"$t/long.map"
case_ 5 "path: a picture past 65535 pixels a side" "$TN" path "$t/long.map" 0 0 9 0 --png "$t/long.png" --scale 2
# a standard output that cannot be written (a full disk) is a failed run
stdout=/dev/full
case_ 4 "info: standard output on a full disk" "$TN" info "$t/ok.map"
case_ 4 "path: standard output on a full disk" "$TN" path "$t/ok.map" 0 0 2 2
stdout=/dev/null
[ -z "$TABLE" ] && echo "bad inputs: $n cases, $([ $fail -eq 0 ] && echo 'all as documented' || echo 'MISMATCHES')"
exit $fail
