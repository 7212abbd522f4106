#!/usr/bin/env python3
"""Write one random map as Tiled XML (CSV layers) and as Tiled JSON (array layers): the same
W x H cells, LAYERS tile layers, a tileset whose tile 1 blocks by a `collides` property.
Usage: python3 bench/gen_tiled_pair.py W LAYERS SEED OUT_PREFIX   (writes OUT.tmx, OUT.tmj)"""
import json
import random
import sys

w, layers, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
cells = [rng.choice([0, 0, 0, 1, 2]) for _ in range(w * w)]
csv = ",".join(map(str, cells))
tileset = ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="2" '
           'columns="2"><tile id="0"><properties><property name="collides" type="bool" '
           'value="true"/></properties></tile></tileset>')
with open(out + ".tmx", "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
            f'renderorder="right-down" width="{w}" height="{w}" tilewidth="16" tileheight="16" '
            f'infinite="0">\n {tileset}\n')
    for k in range(layers):
        f.write(f' <layer id="{k + 1}" name="l{k}" width="{w}" height="{w}">'
                f'<data encoding="csv">{csv}</data></layer>\n')
    f.write("</map>\n")
doc = {"width": w, "height": w, "tilewidth": 16, "tileheight": 16, "orientation": "orthogonal",
       "infinite": False,
       "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16,
                     "tilecount": 2, "columns": 2,
                     "tiles": [{"id": 0, "properties": [
                         {"name": "collides", "type": "bool", "value": True}]}]}],
       "layers": [{"type": "tilelayer", "name": f"l{k}", "width": w, "height": w,
                   "data": cells} for k in range(layers)]}
with open(out + ".tmj", "w") as f:
    json.dump(doc, f)
