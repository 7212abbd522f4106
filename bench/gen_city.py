#!/usr/bin/env python3
"""Write a W x W Moving AI map for the agent benchmarks: city blocks (4..10-cell buildings on a
16-cell lattice, streets between them), seeded, with an open 13x13 square around the centre cell (the goal). Used to run the
crowd at a constant density (map area growing with the agent count).
Usage: python3 bench/gen_city.py W SEED OUT.map"""
import random
import sys

w, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
grid = [["."] * w for _ in range(w)]
for by in range(0, w, 16):
    for bx in range(0, w, 16):
        bw, bh = rng.randint(4, 10), rng.randint(4, 10)
        ox, oy = bx + rng.randint(2, 4), by + rng.randint(2, 4)
        for y in range(oy, min(oy + bh, w)):
            for x in range(ox, min(ox + bw, w)):
                grid[y][x] = "@"
c = w // 2
for y in range(c - 6, c + 7):
    for x in range(c - 6, c + 7):
        grid[y][x] = "."
with open(out, "w") as f:
    f.write(f"type octile\nheight {w}\nwidth {w}\nmap\n")
    for row in grid:
        f.write("".join(row) + "\n")
