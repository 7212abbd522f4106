#!/usr/bin/env bash
# jps_weighted.sh [TILENAV] — weighted A*, JPS and JPS+ side by side on the ten shipped Moving AI
# maps with seeded mud (`tilenav bench --terrain mud:SEED`: round(W*H/1000) discs of radius
# 3..12 of cost 3 over the ground's cost 1, walls unchanged), every path checked against a
# Dijkstra reference computed in the same run. One table row per map and round: the medians
# (µs/query) and the ratios A*/JPS and A*/JPS+ of those medians, measured in one process.
#   SPREAD=N   scenarios per map, spread evenly over the file (default 500; 0 = all)
#   SEED=S     the mud's seed (default 1)
#   MIX=roads  lay `--terrain roads:SEED` instead (all ground mud, crossed by roads of cost 1
#              every 16..31 cells): where weighted JPS does not pay
#   ROUNDS=N   repeat each map N times (default 1)
#   BEST_OF=R  time every scenario R times over and keep its fastest (`tilenav bench --rounds`,
#              default 1): the spikes of a shared machine drop out of the medians
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
M=$(cd "$ROOT/../shared/bench/movingai" && pwd)
TN=${1:-$ROOT/build/release/tilenav}
SPREAD=${SPREAD:-500}
SEED=${SEED:-1}
MIX=${MIX:-mud}
ROUNDS=${ROUNDS:-1}
BEST_OF=${BEST_OF:-1}
MAPS="dao/arena dao/den520d dao/brc202d dao/lak303d bg512/AR0011SR cities/Berlin_0_256
  mazes/maze512-1-0 random/random512-10-0 rooms/8room_000 sc1/Aftershock"
sel=(--rounds "$BEST_OF")
[ "$SPREAD" -gt 0 ] && sel+=(--spread "$SPREAD")
# The last column: the same map without mud, A*/JPS, from a run right after (for scale: where
# plain JPS gains little over A*, weighted JPS cannot gain more).
echo "| map | scenarios | mismatches | A* median µs | JPS | JPS+ | A*/JPS | A*/JPS+ | no mud: A*/JPS |"
echo "|---|---|---|---|---|---|---|---|---|"
for map in $MAPS; do
  for r in $(seq "$ROUNDS"); do
    out=$("$TN" bench "$M/$map.map" "$M/$map.map.scen" --algo astar,jps,jps+ \
      --terrain "$MIX:$SEED" "${sel[@]}" 2>/dev/null)
    plain=$("$TN" bench "$M/$map.map" "$M/$map.map.scen" --algo astar,jps "${sel[@]}" 2>/dev/null |
      sed 's/algo=/algo=plain-/')
    printf '%s\n%s\n' "$out" "$plain" | awk -v map="$map" '
      { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        med[v["algo"]] = v["median_us"]; bad += v["mismatches"]
        if (v["algo"] == "astar") n = v["scenarios"] }
      END { printf "| %s | %d | %d | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f |\n", map, n, bad,
            med["astar"], med["jps"], med["jps+"], med["astar"] / med["jps"],
            med["astar"] / med["jps+"], med["plain-astar"] / med["plain-jps"] }'
  done
done
