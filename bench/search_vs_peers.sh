#!/usr/bin/env bash
# search_vs_peers.sh [TILENAV] — the five maps of issue 3's performance table, tilenav's A*,
# JPS and Dijkstra side by side with libtcod (no corner cutting) on the same scenario
# selection, in one run. Needs libtcod-dev for ../shared/bench/peers/c (built on demand).
#   PEERS="tcod-nocut pf-astar pf-jps" adds PathFinding.js when node is available.
#   ROUNDS=N repeats each measurement N times (default 1), alternating tilenav and peers.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH=$(cd "$ROOT/../shared/bench" && pwd)
TN=${1:-$ROOT/build/rel/tilenav}
PEERS=${PEERS:-tcod-nocut}
ROUNDS=${ROUNDS:-1}
M=$BENCH/movingai
# map, selection (spread N or all), as in the issue's table
CASES="dao/arena:0 dao/den520d:0 bg512/AR0011SR:300 mazes/maze512-1-0:200 random/random512-10-0:300"
for c in $CASES; do
  map=${c%%:*}; n=${c##*:}
  sel=(); [ "$n" -gt 0 ] && sel=(--spread "$n")
  for r in $(seq "$ROUNDS"); do
    echo "## $map select=$([ "$n" -gt 0 ] && echo "spread $n" || echo all) round=$r"
    SELECT=spread PEERS="$PEERS" "$BENCH/peers/run_all.sh" "$M/$map.map" "$M/$map.map.scen" "$n" \
      | grep -v '^#'
    "$TN" bench "$M/$map.map" "$M/$map.map.scen" --algo all "${sel[@]}"
    "$TN" bench "$M/$map.map" "$M/$map.map.scen" --algo jps+ "${sel[@]}" 2>&1
  done
done
