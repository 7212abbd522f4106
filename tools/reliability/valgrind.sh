#!/bin/sh
# valgrind memcheck over the CLI's commands on shipped maps: fails on any memory error or any
# definitely/indirectly lost block.   tools/reliability/valgrind.sh path/to/tilenav
set -u
TN=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
s=../shared/bench
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
arena=$s/movingai/dao/arena.map
fail=0
run() {
    out=$(valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$TN" "$@" 2>&1 >/dev/null)
    rc=$?
    summary=$(printf '%s\n' "$out" | grep -E "ERROR SUMMARY" | sed 's/^==[0-9]*== //')
    printf '| `tilenav %s` | %s |\n' "$*" "$summary"
    [ "$rc" -eq 99 ] && fail=1
}
printf '| command | memcheck |\n|---|---|\n'
run info data/maps/td.tmj
run info data/maps/td.txt
run info "$s/tiled/pytiled/b64_zstd/map.json"
run info "$s/tiled/excalibur/test-gzip.json"
run info "$s/tiled/pytiled/infinite_map/map.json"
run info "$s/tiled/melonjs/island-1.json"
run info "$arena"
run path "$arena" 1 11 40 40 --smooth --json
run path data/maps/td.tmj 1 1 37 22 --algo jps
run bench "$arena" "$arena.scen" --algo all --limit 20
run field data/maps/td.tmj 37 22 --los --png "$t/f.png" --out "$t/f.csv"
run sim data/maps/td.tmj 37 22 --agents 50 --steps 30
run collide --objects 300 --steps 5
run collide --objects 300 --steps 5 --kinematic --mixed --broadphase sap
run demo --steps 60 --quiet --out "$t/demo"
run info "$t/missing.map"
exit $fail
