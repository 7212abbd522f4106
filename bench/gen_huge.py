#!/usr/bin/env python3
"""Build a huge Moving AI map by tiling real ones, plus a .scen of long random queries.

The map is TILES x TILES tiles of 512 x 512 cells (default 8 x 8: 4096 x 4096). Each tile is a
real map of ../shared/bench/movingai (the 512 x 512 ones as they are; smaller ones repeated to
fill 512 x 512, larger ones cropped), chosen in turn from the sorted list and turned by one of
the eight symmetries of the square (seeded). Passable letters become '.', the others '@'.
Openings are cut between tiles so that their areas join: across every seam, every 64 cells, a
4-cell-wide passage 16 cells long (8 on each side of the seam).

Queries: pairs of cells of the largest connected area (4-neighbour flood fill) at least
--min-dist apart (octile distance), seeded. Their optimal lengths come from the tilenav
CLI itself (`tilenav bench MAP CAND --algo hpa --write-optimal SCEN`: JPS, which keeps only
the pairs that have a path), so the .scen is a regular Moving AI scenario file.

usage: bench/gen_huge.py [--tiles 8] [--out build/huge] [--queries 100] [--min-dist 2048]
                         [--seed 1] [--tilenav build/release/tilenav] [--movingai DIR]
Writes OUT/huge<N>.map, OUT/huge<N>.cand.scen and (with a tilenav binary) OUT/huge<N>.map.scen.
"""
import argparse
import glob
import os
import random
import subprocess
import sys
from collections import deque

TILE = 512
PASSABLE = set(".GS")


def read_map(path):
    with open(path) as f:
        lines = f.read().split("\n")
    h = int(lines[1].split()[1])
    w = int(lines[2].split()[1])
    rows = lines[4:4 + h]
    return [[c in PASSABLE for c in r[:w]] for r in rows]


def to_tile(grid):
    """Repeat (or crop) a map to TILE x TILE."""
    h, w = len(grid), len(grid[0])
    return [[grid[y % h][x % w] for x in range(TILE)] for y in range(TILE)]


def turn(tile, k):
    """One of the eight symmetries of the square."""
    t = tile
    if k & 4:
        t = [list(r) for r in zip(*t)]  # transpose
    if k & 1:
        t = [r[::-1] for r in t]
    if k & 2:
        t = t[::-1]
    return t


def largest_area(grid, w, h, rng):
    """The cells (y * w + x) of the largest 4-connected area of grid (rows of truthy = passable
    cells; with no corner cutting, also the 8-neighbour areas), from up to six random seeds
    (stops early at one over a quarter of the map), and its size."""
    area = None
    best = 0
    for _ in range(6):
        while True:
            x, y = rng.randrange(w), rng.randrange(h)
            if grid[y][x] and (area is None or not area[y * w + x]):
                break
        mark = bytearray(w * h)
        mark[y * w + x] = 1
        dq = deque([y * w + x])
        cnt = 0
        while dq:
            i = dq.popleft()
            cnt += 1
            cy, cx = divmod(i, w)
            for j, ok in ((i - 1, cx > 0), (i + 1, cx < w - 1), (i - w, cy > 0),
                          (i + w, cy < h - 1)):
                if ok and not mark[j] and grid[j // w][j % w]:
                    mark[j] = 1
                    dq.append(j)
        if cnt > best:
            best, area = cnt, mark
        if best > w * h // 4:
            break
    return [i for i in range(w * h) if area[i]], best


def write_candidates(path, map_name, w, h, cells, rng, queries, min_dist):
    """A Moving AI .scen of `queries` random pairs of `cells` at octile distance >= min_dist
    (optimal lengths 0: write_optimal fills them in)."""
    with open(path, "w") as f:
        f.write("version 1\n")
        made = 0
        while made < queries:
            s, g = rng.choice(cells), rng.choice(cells)
            sy, sx = divmod(s, w)
            gy, gx = divmod(g, w)
            dx, dy = abs(sx - gx), abs(sy - gy)
            if max(dx, dy) + (2 ** 0.5 - 1) * min(dx, dy) < min_dist:
                continue
            f.write(f"0\t{map_name}\t{w}\t{h}\t{sx}\t{sy}\t{gx}\t{gy}\t0\n")
            made += 1


def write_optimal(tilenav, mpath, cand, scen):
    """The candidates that have a path, with their optimal lengths (JPS), by the CLI."""
    subprocess.run([tilenav, "bench", mpath, cand, "--algo", "hpa", "--write-optimal", scen],
                   check=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tiles", type=int, default=8)
    ap.add_argument("--out", default=os.path.join(here, "..", "build", "huge"))
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--min-dist", type=float, default=2048.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tilenav", default=None, help="tilenav binary for the optimal lengths")
    # the tests' rule (python/tests/conftest.py): $TILENAV_SHARED_DIR, else ../shared
    shared = os.environ.get("TILENAV_SHARED_DIR") or os.path.join(here, "..", "..", "shared")
    ap.add_argument("--movingai", default=os.path.join(shared, "bench", "movingai"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    maps = sorted(glob.glob(os.path.join(a.movingai, "*", "*.map")))
    if not maps:
        sys.exit(f"gen_huge: no Moving AI maps under {a.movingai}: give --movingai DIR (the "
                 f"folder of dao/, bg512/, ...) or set TILENAV_SHARED_DIR")
    tiles = [to_tile(read_map(m)) for m in maps]
    n = a.tiles * TILE
    grid = [bytearray(n) for _ in range(n)]
    for ty in range(a.tiles):
        for tx in range(a.tiles):
            k = (ty * a.tiles + tx) % len(tiles)
            t = turn(tiles[k], rng.randrange(8))
            for y in range(TILE):
                row = grid[ty * TILE + y]
                row[tx * TILE:(tx + 1) * TILE] = bytes(1 if c else 0 for c in t[y])
    # openings across the seams
    for s in range(1, a.tiles):
        seam = s * TILE
        for p in range(32, n, 64):
            for d in range(-8, 8):
                for q in range(p - 2, p + 2):
                    grid[q][seam + d] = 1  # vertical seam
                    grid[seam + d][q] = 1  # horizontal seam
    os.makedirs(a.out, exist_ok=True)
    name = f"huge{n}"
    mpath = os.path.join(a.out, name + ".map")
    with open(mpath, "w") as f:
        f.write(f"type octile\nheight {n}\nwidth {n}\nmap\n")
        for row in grid:
            f.write(row.translate(bytes.maketrans(b"\x00\x01", b"@.")).decode() + "\n")
    cells, best = largest_area(grid, n, n, rng)
    print(f"gen_huge: {mpath}: {n}x{n}, largest area {best} cells", file=sys.stderr)
    cand = os.path.join(a.out, name + ".cand.scen")
    write_candidates(cand, name + ".map", n, n, cells, rng, a.queries, a.min_dist)
    if a.tilenav:
        scen = os.path.join(a.out, name + ".map.scen")
        write_optimal(a.tilenav, mpath, cand, scen)
        print(f"gen_huge: {scen}", file=sys.stderr)


if __name__ == "__main__":
    main()
