#!/usr/bin/env bash
# choose_search.sh [TILENAV] — the figures behind docs/search.md's "Choosing a search": A*, JPS
# and JPS+ side by side on one map of each kind among the shipped Moving AI maps (and a Tiled
# world, with 200 seeded queries: `tilenav bench MAP random`), without and
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
# and a real Tiled world, which has no .scen: 200 seeded queries (`tilenav bench MAP random`)
T=$(cd "$ROOT/../shared/bench/tiled" && pwd)
TILED="kaetram/map-old.json"
echo "| map | terrain | mismatches | A* µs | JPS µs | JPS+ µs | JPS+ table ms | JPS+ table MB | fastest |"
echo "|---|---|---|---|---|---|---|---|---|"
for map in $MAPS $TILED; do
  for terrain in none mud:1; do
    args=(--algo astar,jps,jps+ --rounds "$BEST_OF")
    [ "$terrain" != none ] && args+=(--terrain "$terrain")
    if [ -f "$T/$map" ]; then
      files=("$T/$map" random)
    else
      files=("$M/$map.map" "$M/$map.map.scen")
      args+=(--spread "$SPREAD")
    fi
    err=$(mktemp)
    out=$("$TN" bench "${files[@]}" "${args[@]}" 2>"$err")
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

# JPS+ against JPS as the table outgrows the caches: maps of 10% random walls (seeded), 128^2
# to 1024^2, 200 random queries each (`tilenav bench MAP random`, no .scen needed)
echo
echo "| random 10% map | JPS µs | JPS+ µs | JPS+/JPS | JPS+ table MB |"
echo "|---|---|---|---|---|"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 128 256 512 1024; do
  python3 - "$tmp/r$n.map" "$n" <<'PY'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(n)
rows = ["".join("@" if rng.random() < 0.10 else "." for _ in range(n)) for _ in range(n)]
open(path, "w").write(f"type octile\nheight {n}\nwidth {n}\nmap\n" + "\n".join(rows) + "\n")
PY
  err=$(mktemp)
  out=$("$TN" bench "$tmp/r$n.map" random --algo jps,jps+ --rounds "$BEST_OF" 2>"$err")
  bytes=$(sed -n 's/^jps+ table: [0-9.]* ms, \([0-9]*\) bytes.*/\1/p' "$err")
  rm -f "$err"
  printf '%s\n' "$out" | awk -v n="$n" -v bytes="$bytes" '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      med[v["algo"]] = v["median_us"] }
    END { printf "| %dx%d | %.1f | %.1f | %.2f | %.1f |\n", n, n, med["jps"], med["jps+"],
          med["jps+"] / med["jps"], bytes / 1e6 }'
done
