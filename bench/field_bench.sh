#!/bin/sh
# Side-by-side benchmark of tilenav's fields against the tutorial's JavaScript pipeline
# (bench/tutorial_flowfield.js), in one run. Usage:
#   bench/field_bench.sh [TILENAV] [ROUNDS]
# TILENAV defaults to build/release/tilenav (configure with -DCMAKE_BUILD_TYPE=Release).
# Every configuration runs ROUNDS times (default 3), interleaved with the others; a figure is
# the best (lowest) per-build median over the rounds. Times are CPU time (tilenav: the thread's;
# node: the process's, so garbage collection on helper threads counts), because on a shared
# machine wall time mostly measures waiting for a core; the open-map row also gives wall time.
set -eu
cd "$(dirname "$0")/.."
T=${1:-build/release/tilenav}
ROUNDS=${2:-3}
MAI=../shared/bench/movingai
TMP=${TMPDIR:-/tmp}/tn_field_bench
mkdir -p "$TMP"

open_map() { # size file
    awk -v n="$1" 'BEGIN{print "type octile\nheight " n "\nwidth " n "\nmap"; s="";
        for(i=0;i<n;i++) s=s "."; for(i=0;i<n;i++) print s}' > "$2"
}
[ -f "$TMP/open1024.map" ] || open_map 1024 "$TMP/open1024.map"
[ -f "$TMP/open512.map" ] || open_map 512 "$TMP/open512.map"

KEY=${KEY:-cpu_median_ms}
field() { # map gx gy args... -> median ms of --bench 11
    m=$1; x=$2; y=$3; shift 3
    "$T" field "$m" "$x" "$y" "$@" --bench 11 | awk -v k="$KEY" '/^bench/{for(i=1;i<=NF;i++){split($i,a,"="); if(a[1]==k) print a[2]}}'
}
js() { # map gx gy -> median ms of 3 reps
    node bench/tutorial_flowfield.js "$1" "$2" "$3" 3 | awk -v k="$KEY" '{for(i=1;i<=NF;i++){split($i,a,"="); if(a[1]==k) print a[2]}}'
}
best() { sort -g | head -1; }

echo "machine: $(lscpu | awk -F: '/Model name/{gsub(/^ +/,"",$2); print $2}') ($(nproc) cores)"
echo "tilenav: $T"
echo "node: $(node --version)"
echo

run_map() { # label map gx gy
    label=$1; m=$2; gx=$3; gy=$4
    : > "$TMP/js"; : > "$TMP/u"; : > "$TMP/us"; : > "$TMP/w"; : > "$TMP/wl"
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        js "$m" "$gx" "$gy" >> "$TMP/js"
        field "$m" "$gx" "$gy" --moves 4 --flow steepest --los >> "$TMP/u"
        field "$m" "$gx" "$gy" --moves 4 --flow steepest >> "$TMP/us"
        field "$m" "$gx" "$gy" --moves 8 --diagonal nocut --flow optimal >> "$TMP/w"
        field "$m" "$gx" "$gy" --moves 8 --diagonal nocut --flow optimal --los >> "$TMP/wl"
        r=$((r + 1))
    done
    J=$(best < "$TMP/js"); U=$(best < "$TMP/u"); US=$(best < "$TMP/us")
    W=$(best < "$TMP/w"); WL=$(best < "$TMP/wl")
    awk -v l="$label" -v j="$J" -v u="$U" -v us="$US" -v w="$W" -v wl="$WL" 'BEGIN{
        printf "| %s | %.1f | %.2f | %.0fx | %.2f | %.2f | %.2f | %.1fx | %.1fx |\n",
            l, j, u, j/u, us, w, wl, w/u, w/us }'
}

echo "| map | JS tutorial | unit 4-conn + flow + LOS | speed-up | unit, no LOS | octile no-cut + flow | octile + LOS | octile / unit+LOS | octile / unit |"
echo "|---|---|---|---|---|---|---|---|---|"
KEY=median_ms run_map "open 1024x1024 (wall ms)" "$TMP/open1024.map" 512 512
run_map "open 1024x1024" "$TMP/open1024.map" 512 512
for f in dao/arena.map dao/den520d.map mazes/maze512-1-0.map random/random512-10-0.map rooms/8room_000.map bg512/AR0011SR.map sc1/Aftershock.map cities/Berlin_0_256.map; do
    [ -f "$MAI/$f" ] || continue
    # the goal of the file's first scenario
    set -- $(awk 'NR==2{print $7, $8}' "$MAI/$f.scen")
    run_map "$f" "$MAI/$f" "$1" "$2"
done
echo
echo "(CPU ms per build, median; speed-up = JS / unit 4-conn + flow + LOS)"
echo
echo "Incremental update after placing / selling a 2x2 tower (CPU ms, medians over 200 towers):"
echo "open 512, goal 100,100, octile + LOS:  $("$T" field "$TMP/open512.map" 100 100 --los --bench-towers 200 | tail -1)"
echo "open 512, goal 100,100, 4-conn + LOS:  $("$T" field "$TMP/open512.map" 100 100 --moves 4 --flow steepest --los --bench-towers 200 | tail -1)"
echo "open 512, goal 100,100, octile:        $("$T" field "$TMP/open512.map" 100 100 --bench-towers 200 | tail -1)"
set -- $(awk 'NR==2{print $7, $8}' "$MAI/random/random512-10-0.map.scen")
echo "random512-10-0, goal $1,$2, octile + LOS: $("$T" field "$MAI/random/random512-10-0.map" "$1" "$2" --los --bench-towers 200 | tail -1)"
