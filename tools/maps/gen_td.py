#!/usr/bin/env python3
"""Generate tilenav's bundled tower-defense demo map: data/maps/td.tmj (Tiled JSON),
data/maps/td.txt (tilenav ASCII, same content) and data/maps/td_tiles.png (3 tiles: grass, mud, stone wall).
Authored by the tilenav project. Run from the repository root: python3 tools/maps/gen_td.py"""
import json, struct, zlib
from collections import deque

ROWS = [
    "########################################",
    "#..........#.........#.................#",
    "#..........#.........#.................#",
    "#..~~~.....#....#....#....#######......#",
    "#..~~~.....#....#....#....#.....#......#",
    "#..........#....#.........#.....#......#",
    "#####.######....#.........#..~..#......#",
    "#...............#######...#..~..###.####",
    "#...............#.........#.....#......#",
    "#....~~~~.......#.........#.....#......#",
    "#....~~~~.......#....######.....#......#",
    "#######.........#....#..........#......#",
    "#.....#.........#....#..........#......#",
    "#.....#....##########....~~~~~..#......#",
    "#.....#..............#...~~~~~..#......#",
    "#.....#..............#..........#......#",
    "#.....########.......#######.####......#",
    "#....................#.................#",
    "#....................#.................#",
    "#..~~~~~~.....#......#.....#######.....#",
    "#..~~~~~~.....#......#.....#...........#",
    "#.............#.............#..........#",
    "#.............#.............#..........#",
    "########################################",
]
W, H, T = 40, 24, 32
GRASS, MUD, WALL = 1, 2, 3
POINTS = [("spawn1", 1, 1), ("spawn2", 38, 1), ("exit", 38, 22)]
SLOTS = [(12, 2), (9, 8), (18, 8), (24, 5), (33, 11), (9, 14), (28, 17)]  # 2x2 cells each

assert len(ROWS) == H and all(len(r) == W for r in ROWS), [len(r) for r in ROWS]
free = lambda x, y: 0 <= x < W and 0 <= y < H and ROWS[y][x] != "#"
for _, x, y in POINTS:
    assert free(x, y)
for x, y in SLOTS:
    assert all(ROWS[y + j][x + i] == "." for i in range(2) for j in range(2)), (x, y)
# every spawn reaches the exit (4-connected)
seen, q = {POINTS[2][1:]}, deque([POINTS[2][1:]])
while q:
    x, y = q.popleft()
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        n = (x + dx, y + dy)
        if free(*n) and n not in seen:
            seen.add(n)
            q.append(n)
assert POINTS[0][1:] in seen and POINTS[1][1:] in seen
assert len(seen) == sum(r.count(".") + r.count("~") for r in ROWS), "a room is sealed off"

ground = [MUD if c == "~" else GRASS for r in ROWS for c in r]
walls = [WALL if c == "#" else 0 for r in ROWS for c in r]

def tile_pixel(t, x, y):
    """Pixel (x, y) of tile t (0 grass, 1 mud, 2 stone wall): a few shades each, from a fixed
    hash, so the art is deterministic and keeps few colours (GIF palettes stay exact)."""
    h = ((x * 73856093) ^ (y * 19349663) ^ (t * 83492791)) & 0xFFFFFFFF
    h = (h * 2654435761) & 0xFFFFFFFF
    if t == 0:  # grass: short darker blades and a few light tips
        hb = (((x * 73856093) ^ ((y // 3) * 19349663)) * 2654435761) & 0xFFFFFFFF
        if hb % 11 == 0:
            return (66, 132, 48) if y % 3 else (112, 184, 82)
        return (88, 160, 64)
    if t == 1:  # mud: darker puddles and light specks
        px, py = x % 16 - 8, y % 16 - 8
        if px * px + 2 * py * py < 14 + (h % 5):
            return (100, 72, 40)
        return (142, 110, 66) if h % 17 == 0 else (120, 90, 50)
    # stone: bricks of 16 x 8 with mortar lines and a lit top edge, offset every other row
    row = y // 8
    bx = (x + (8 if row % 2 else 0)) % 16
    if y % 8 == 7 or bx == 15:
        return (50, 50, 58)
    if y % 8 == 0:
        return (92, 92, 104)
    return (76, 76, 88) if h % 13 else (66, 66, 78)

def png(path, ntiles):
    w, h = T * ntiles, T
    raw = b"".join(b"\0" + b"".join(bytes(tile_pixel(x // T, x % T, y)) for x in range(w))
                   for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

png("data/maps/td_tiles.png", 3)

objects, oid = [], 1
for name, x, y in POINTS:
    objects.append({"id": oid, "name": name, "type": "", "point": True, "x": x * T + T / 2,
                    "y": y * T + T / 2, "width": 0, "height": 0, "rotation": 0, "visible": True})
    oid += 1
for x, y in SLOTS:
    objects.append({"id": oid, "name": "tower_slot", "type": "", "x": x * T, "y": y * T,
                    "width": 2 * T, "height": 2 * T, "rotation": 0, "visible": True})
    oid += 1

def layer(i, name, data):
    return {"id": i, "name": name, "type": "tilelayer", "x": 0, "y": 0, "width": W, "height": H,
            "opacity": 1, "visible": True, "data": data}

m = {
    "compressionlevel": -1, "height": H, "infinite": False,
    "layers": [layer(1, "ground", ground), layer(2, "walls", walls),
               {"id": 3, "name": "spawns", "type": "objectgroup", "draworder": "topdown",
                "x": 0, "y": 0, "opacity": 1, "visible": True, "objects": objects}],
    "nextlayerid": 4, "nextobjectid": oid, "orientation": "orthogonal",
    "renderorder": "right-down", "tiledversion": "1.10.2", "tileheight": T,
    "tilesets": [{"firstgid": 1, "name": "td", "image": "td_tiles.png", "imagewidth": 3 * T,
                  "imageheight": T, "columns": 3, "tilecount": 3, "tilewidth": T, "tileheight": T,
                  "margin": 0, "spacing": 0,
                  "tiles": [{"id": 0, "type": "grass"},
                            {"id": 1, "type": "mud",
                             "properties": [{"name": "cost", "type": "float", "value": 3}]},
                            {"id": 2, "type": "wall",
                             "properties": [{"name": "collides", "type": "bool", "value": True}]}]}],
    "tilewidth": T, "type": "map", "version": "1.10", "width": W,
}
# one map row per line in the data arrays, as a person would want to read them
shown = json.loads(json.dumps(m))
shown["layers"][0]["data"], shown["layers"][1]["data"] = "@GROUND@", "@WALLS@"
text = json.dumps(shown, indent=1)
for key, data in (("@GROUND@", ground), ("@WALLS@", walls)):
    rows = ",\n".join("    " + ", ".join(str(v) for v in data[y * W:(y + 1) * W]) for y in range(H))
    text = text.replace('"' + key + '"', "[\n" + rows + "\n   ]")
assert json.loads(text) == m
open("data/maps/td.tmj", "w").write(text + "\n")

with open("data/maps/td.txt", "w") as f:
    f.write("tilenav-ascii 1\n# tilenav's tower-defense demo map: the same map as td.tmj\n")
    f.write(f"size {W} {H}\ntile {T} {T}\n")
    f.write("legend . 1\nlegend ~ 2 cost 3\nlegend # 3 block\nlegend _ 0\n")
    f.write("layer ground\n")
    for r in ROWS:
        f.write(r.replace("#", ".") + "\n")
    f.write("layer walls\n")
    for r in ROWS:
        f.write("".join("#" if c == "#" else "_" for c in r) + "\n")
    f.write("objects spawns\n")
    for name, x, y in POINTS:
        f.write(f"point {name} {x} {y}\n")
    for x, y in SLOTS:
        f.write(f"rect tower_slot {x} {y} 2 2\n")
print("wrote data/maps/td.tmj, td.txt, td_tiles.png;", len(seen), "open cells")
