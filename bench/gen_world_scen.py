#!/usr/bin/env python3
"""Long random queries on any map tilenav loads (a Tiled world, say): a Moving AI .scen.

The map's passable cells come from the tilenav CLI (`tilenav field MAP X Y --ascii`, whose
picture marks blocked cells '#', from the first passable cell a seeded draw finds); the
queries are drawn as for bench/gen_huge.py, with its code: pairs of cells of the largest
connected area at octile distance >= --min-dist, seeded, their optimal lengths from
`tilenav bench MAP CAND --algo hpa --write-optimal SCEN` (JPS).

usage: bench/gen_world_scen.py MAP [--out build/world] [--queries 200] [--min-dist 200]
                               [--seed 1] [--tilenav build/release/tilenav]
Writes OUT/<map file name>.cand.scen and OUT/<map file name>.scen.
"""
import argparse
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_huge import largest_area, write_candidates, write_optimal  # noqa: E402


def passable_grid(tilenav, mpath, rng):
    """Rows of booleans (True = passable), from a field picture at a passable cell."""
    info = subprocess.run([tilenav, "info", mpath], check=True, capture_output=True,
                          text=True).stdout
    w = int(info.split("\nwidth: ")[1].split()[0])
    h = int(info.split("\nheight: ")[1].split()[0])
    for _ in range(10000):
        x, y = rng.randrange(w), rng.randrange(h)
        r = subprocess.run([tilenav, "field", mpath, str(x), str(y), "--ascii"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            rows = r.stdout.split("\n")[1:1 + h]
            return w, h, [[c != "#" for c in row[:w]] for row in rows]
    sys.exit(f"gen_world_scen: no passable cell found in {mpath}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("map")
    ap.add_argument("--out", default=os.path.join(here, "..", "build", "world"))
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--min-dist", type=float, default=200.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tilenav", default=os.path.join(here, "..", "build", "release", "tilenav"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    w, h, grid = passable_grid(a.tilenav, a.map, rng)
    cells, best = largest_area(grid, w, h, rng)
    name = os.path.basename(a.map)
    print(f"gen_world_scen: {a.map}: {w}x{h}, {sum(map(sum, grid))} passable, largest area "
          f"{best} cells", file=sys.stderr)
    os.makedirs(a.out, exist_ok=True)
    cand = os.path.join(a.out, name + ".cand.scen")
    write_candidates(cand, name, w, h, cells, rng, a.queries, a.min_dist)
    scen = os.path.join(a.out, name + ".scen")
    write_optimal(a.tilenav, a.map, cand, scen)
    print(f"gen_world_scen: {scen}", file=sys.stderr)


if __name__ == "__main__":
    main()
