#!/usr/bin/env bash
# choose_search.sh [TILENAV] — the figures behind docs/search.md's "Choosing a search": A*, JPS
# and JPS+ side by side on one map of each kind among the shipped Moving AI maps, without and
# with seeded mud (`--terrain mud:1`), every path checked by `tilenav bench`. One table row per
# map: the medians (µs/query, each scenario's fastest of BEST_OF passes), the JPS+ table's
# build time and size (from bench's stderr) and the fastest of the three.
#   SPREAD=N   scenarios per map, spread evenly over the file (default 200)
#   BEST_OF=R  `tilenav bench --rounds R` (default 3)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
M=$(cd "$ROOT/../shared/bench/movingai" && pwd)
TN=${1:-$ROOT/build/release/tilenav}
SPREAD=${SPREAD:-200}
BEST_OF=${BEST_OF:-3}
MAPS="dao/arena dao/den520d bg512/AR0011SR cities/Berlin_0_256 sc1/Aftershock rooms/8room_000
  mazes/maze512-1-0 random/random512-10-0"
echo "| map | terrain | mismatches | A* µs | JPS µs | JPS+ µs | JPS+ table ms | JPS+ table MB | fastest |"
echo "|---|---|---|---|---|---|---|---|---|"
for map in $MAPS; do
  for terrain in none mud:1; do
    args=(--algo astar,jps,jps+ --spread "$SPREAD" --rounds "$BEST_OF")
    [ "$terrain" != none ] && args+=(--terrain "$terrain")
    err=$(mktemp)
    out=$("$TN" bench "$M/$map.map" "$M/$map.map.scen" "${args[@]}" 2>"$err")
    # stderr: "jps+ table: 19.039 ms, 4456528 bytes"
    table=$(sed -n 's/^jps+ table: \([0-9.]*\) ms, \([0-9]*\) bytes.*/\1 \2/p' "$err")
    rm -f "$err"
    printf '%s\n' "$out" | awk -v map="$map" -v terrain="$terrain" -v table="$table" '
      { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        med[v["algo"]] = v["median_us"]; bad += v["mismatches"] }
      END { split(table, t, " ")
            best = "A*"; b = med["astar"]
            if (med["jps"] < b) { best = "JPS"; b = med["jps"] }
            if (med["jps+"] < b) { best = "JPS+"; b = med["jps+"] }
            printf "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %s |\n", map, terrain, bad,
                   med["astar"], med["jps"], med["jps+"], t[1], t[2] / 1e6, best }'
  done
done
