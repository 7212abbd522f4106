#!/usr/bin/env python3
"""Generate data/maps/maze64.map: tilenav's small bundled Moving AI map (64 x 64, handmade by this
script, no third-party data, same licence as tilenav).

A maze of 21 x 21 rooms, 2 x 2 floor cells each, walls ('@') one cell thick, carved by a
depth-first backtracker from a fixed seed; then 40 extra openings so that there are loops (more
than one way round), and a few trees ('T', impassable) in the corridors. Deterministic: running
it again gives the same bytes."""
import sys

N = 21            # rooms per side
SIZE = 3 * N + 1  # 64 cells
seed = 20250114


def rnd(n):
    """A small LCG (Numerical Recipes constants): the same numbers on every Python."""
    global seed
    seed = (seed * 1664525 + 1013904223) & 0xFFFFFFFF
    return (seed >> 8) % n


grid = [["@"] * SIZE for _ in range(SIZE)]


def room(rx, ry, ch="."):
    for dy in range(2):
        for dx in range(2):
            grid[3 * ry + 1 + dy][3 * rx + 1 + dx] = ch


def opening(rx, ry, nx, ny):
    """Open the wall between room (rx, ry) and its neighbour (nx, ny)."""
    if nx != rx:
        x = 3 * max(rx, nx)
        for dy in range(2):
            grid[3 * ry + 1 + dy][x] = "."
    else:
        y = 3 * max(ry, ny)
        for dx in range(2):
            grid[y][3 * rx + 1 + dx] = "."


seen = [[False] * N for _ in range(N)]
stack = [(0, 0)]
seen[0][0] = True
room(0, 0)
while stack:
    rx, ry = stack[-1]
    nbrs = [(rx + dx, ry + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= rx + dx < N and 0 <= ry + dy < N and not seen[ry + dy][rx + dx]]
    if not nbrs:
        stack.pop()
        continue
    nx, ny = nbrs[rnd(len(nbrs))]
    seen[ny][nx] = True
    room(nx, ny)
    opening(rx, ry, nx, ny)
    stack.append((nx, ny))

for _ in range(40):  # loops
    rx, ry = rnd(N - 1), rnd(N - 1)
    if rnd(2):
        opening(rx, ry, rx + 1, ry)
    else:
        opening(rx, ry, rx, ry + 1)

for _ in range(12):  # a tree in one cell of a room (the other three keep the room passable)
    rx, ry = rnd(N), rnd(N)
    if (rx, ry) not in ((0, 0), (N - 1, N - 1)):
        grid[3 * ry + 1 + rnd(2)][3 * rx + 1 + rnd(2)] = "T"

out = sys.argv[1] if len(sys.argv) > 1 else "data/maps/maze64.map"
with open(out, "w") as f:
    f.write("type octile\nheight %d\nwidth %d\nmap\n" % (SIZE, SIZE))
    for row in grid:
        f.write("".join(row) + "\n")
print("wrote", out, sum(r.count(".") for r in grid), "passable cells")
