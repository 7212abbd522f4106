#!/usr/bin/env python3
"""Writes tiny.map and tiny.map.scen: a handmade 48x36 Moving AI map (rooms, doors, a maze
corner, trees 'T' and swamp 'S' as Moving AI spells them) and 120 scenarios whose optimal
lengths come from this file's own Dijkstra (octile moves, no corner cutting: the benchmark's
rule). Deterministic; run it again to regenerate the same bytes."""
import heapq, math, os, random

W, H = 48, 36
rng = random.Random(20261125)
g = [['.'] * W for _ in range(H)]
for x in range(W):
    g[0][x] = g[H - 1][x] = '@'
for y in range(H):
    g[y][0] = g[y][W - 1] = '@'
for x in range(1, 30):           # a wall with two doors
    g[12][x] = '@'
g[12][6] = g[12][21] = '.'
for y in range(1, 26):           # a second wall with one door
    g[y][30] = 'T'
g[18][30] = '.'
for y in range(20, 34, 2):       # a comb in the bottom-left corner
    for x in range(2, 24):
        if (y // 2 + x) % 11 != 0:
            g[y][x] = '@'
for _ in range(90):              # scattered obstacles on the right
    g[rng.randrange(1, H - 1)][rng.randrange(32, W - 1)] = rng.choice('@TO')
for y in range(3, 9):            # a swamp: passable in the benchmark's rule
    for x in range(8, 16):
        g[y][x] = 'S'

def free(x, y):
    return 0 <= x < W and 0 <= y < H and g[y][x] in '.GS'

def dijkstra(sx, sy):
    d = {(sx, sy): 0.0}
    pq = [(0.0, sx, sy)]
    while pq:
        c, x, y = heapq.heappop(pq)
        if c > d[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and free(x + dx, y + dy):
                    if dx and dy and not (free(x + dx, y) and free(x, y + dy)):
                        continue
                    n = c + (math.sqrt(2) if dx and dy else 1.0)
                    if n < d.get((x + dx, y + dy), math.inf):
                        d[(x + dx, y + dy)] = n
                        heapq.heappush(pq, (n, x + dx, y + dy))
    return d

cells = [(x, y) for y in range(H) for x in range(W) if free(x, y)]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'tiny.map'), 'w') as f:
    f.write('type octile\nheight %d\nwidth %d\nmap\n' % (H, W))
    for row in g:
        f.write(''.join(row) + '\n')
lines = ['version 1']
while len(lines) < 121:
    s = rng.choice(cells)
    d = dijkstra(*s)
    t = rng.choice(cells)
    if t not in d or t == s:
        continue
    lines.append('%d\ttiny.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f' %
                 (int(d[t] // 4), W, H, s[0], s[1], t[0], t[1], d[t]))
with open(os.path.join(here, 'tiny.map.scen'), 'w') as f:
    f.write('\n'.join(lines) + '\n')
