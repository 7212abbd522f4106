#!/usr/bin/env python3
"""Independent reading of Tiled maps (TMX and JSON): which cells block.

Written from the rules in /work/notes/common.md ("Tiled's collision conventions") and the
"Terrain from tile properties" section of docs/formats.md, without looking at the C loader.
Python 3 standard library only (json, xml.etree.ElementTree, base64, zlib, gzip). A map whose
tile data is zstd-compressed raises Unsupported (the standard library has no zstd before 3.14).

Conventions, each evaluated on its own (a cell may be blocked by several):
  props   a tile layer (hidden too) holds a gid whose tile has a blocking property;
  shapes  a tile layer holds a gid whose tile's collision shapes block by the CENTER rule
          (tiles of the map's cell size: on their own cell; other sizes: placed with their
          bottom-left corner on the cell's bottom-left corner, flips applied);
  objects a shape of a collision object layer (name, class/type or a true bool property
          matching a marker name) contains the cell's centre, or a polyline meets the cell's
          closed square.
`blocked` is the union.

Usage: reference.py MAP [--explain X Y]   prints the same text as dump_passable.c
"""

import array
import base64
import gzip
import json
import math
import os
import sys
import xml.etree.ElementTree as ET
import zlib

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
FLIP_HEX = 0x10000000
GID_MASK = 0x0FFFFFFF

# docs/formats.md, "Terrain from tile properties"
BLOCK_WHEN_TRUE = {"collides", "collision", "collide", "solid", "blocked", "blocks", "blocking",
                   "wall", "obstacle", "impassable"}
BLOCK_WHEN_FALSE = {"passable", "walkable"}
DEFAULT_MARKERS = "collision,collisions,collider,colliders,walls,wall,solid,obstacles,blocked"

COLLISION_LAYER_NAME = "tilenav:collision"


class Unsupported(Exception):
    """Valid input the reference does not read (zstd, non-orthogonal maps)."""


# ---------------------------------------------------------------------------------------------
# properties


def prop_blocks(name, value):
    """True when one property makes its tile block (docs/formats.md)."""
    if name == "c":
        return True
    low = name.lower()
    if low in BLOCK_WHEN_TRUE:
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            return value != 0
        if isinstance(value, str):
            return value in ("true", "yes", "1")
        return False
    if low in BLOCK_WHEN_FALSE:
        if isinstance(value, bool):
            return not value
        if isinstance(value, (int, float)):
            return value == 0
        if isinstance(value, str):
            return value in ("false", "no", "0", "")
        return False
    return False


def xml_props(elem):
    """<properties> of an element as a list of (name, value) with typed values."""
    out = []
    props = elem.find("properties") if elem is not None else None
    if props is None:
        return out
    for p in props.findall("property"):
        name = p.get("name", "")
        ptype = p.get("type", "string")
        raw = p.get("value")
        if raw is None:
            raw = p.text or ""
        if ptype == "bool":
            value = raw == "true"
        elif ptype in ("int", "float"):
            try:
                value = float(raw)
            except ValueError:
                value = raw
        elif ptype == "class":
            value = None
        else:
            value = raw
        out.append((name, value))
    return out


def json_props(props):
    """A JSON `properties` (array of {name, type, value}, or the pre-1.2 object form)."""
    out = []
    if isinstance(props, list):
        for p in props:
            if isinstance(p, dict) and "name" in p:
                out.append((p["name"], p.get("value")))
    elif isinstance(props, dict):
        for k, v in props.items():
            out.append((k, v))
    return out


# ---------------------------------------------------------------------------------------------
# shapes: dicts {kind, x, y, w, h, rot, points, gid}


def xml_object(o, base_dir, template_cache):
    obj = {"kind": "rect", "x": 0.0, "y": 0.0, "w": 0.0, "h": 0.0, "rot": 0.0,
           "points": None, "gid": None, "name": "", "type": "", "has_size": False,
           "tileset": None}
    tpl = o.get("template")
    if tpl:
        path = os.path.normpath(os.path.join(base_dir, tpl))
        if path not in template_cache:
            troot = ET.parse(path).getroot()
            tobj = troot.find("object")
            tts = troot.find("tileset")
            t = xml_object(tobj, os.path.dirname(path), template_cache)
            if tts is not None and tts.get("source"):
                t["tileset"] = (int(tts.get("firstgid", "1")),
                                os.path.normpath(os.path.join(os.path.dirname(path),
                                                              tts.get("source"))))
            template_cache[path] = t
        obj.update({k: (list(v) if isinstance(v, list) else v)
                    for k, v in template_cache[path].items()})
    for key, attr in (("x", "x"), ("y", "y"), ("w", "width"), ("h", "height"),
                      ("rot", "rotation")):
        if o.get(attr) is not None:
            obj[key] = float(o.get(attr))
            if key in ("w", "h"):
                obj["has_size"] = True
    if o.get("gid") is not None:
        obj["gid"] = int(o.get("gid"))
        obj["tileset"] = None
    obj["name"] = o.get("name", obj["name"])
    obj["type"] = o.get("type", o.get("class", obj["type"]))
    for child in o:
        tag = child.tag
        if tag == "ellipse":
            obj["kind"] = "ellipse"
        elif tag == "point":
            obj["kind"] = "point"
        elif tag in ("polygon", "polyline"):
            obj["kind"] = tag
            pts = []
            for pair in child.get("points", "").split():
                px, py = pair.split(",")
                pts.append((float(px), float(py)))
            obj["points"] = pts
        elif tag == "text":
            obj["kind"] = "text"
    if obj["gid"] is not None:
        obj["kind"] = "tile"
    return obj


def json_object(o, base_dir, template_cache):
    obj = {"kind": "rect", "x": 0.0, "y": 0.0, "w": 0.0, "h": 0.0, "rot": 0.0,
           "points": None, "gid": None, "name": "", "type": "", "has_size": False,
           "tileset": None}
    tpl = o.get("template")
    if tpl:
        path = os.path.normpath(os.path.join(base_dir, tpl))
        if path not in template_cache:
            with open(path, encoding="utf-8") as f:
                troot = json.load(f)
            t = json_object(troot.get("object", {}), os.path.dirname(path), template_cache)
            ts = troot.get("tileset")
            if isinstance(ts, dict) and ts.get("source"):
                t["tileset"] = (int(ts.get("firstgid", 1)),
                                os.path.normpath(os.path.join(os.path.dirname(path),
                                                              ts["source"])))
            template_cache[path] = t
        obj.update({k: (list(v) if isinstance(v, list) else v)
                    for k, v in template_cache[path].items()})
    for key, attr in (("x", "x"), ("y", "y"), ("w", "width"), ("h", "height"),
                      ("rot", "rotation")):
        if attr in o:
            obj[key] = float(o[attr])
            if key in ("w", "h"):
                obj["has_size"] = True
    if "gid" in o:
        obj["gid"] = int(o["gid"])
        obj["tileset"] = None
    obj["name"] = o.get("name", obj["name"])
    t = o.get("type") or o.get("class")
    if t:
        obj["type"] = t
    if o.get("ellipse"):
        obj["kind"] = "ellipse"
    if o.get("point"):
        obj["kind"] = "point"
    for tag in ("polygon", "polyline"):
        if isinstance(o.get(tag), list):
            obj["kind"] = tag
            obj["points"] = [(float(p["x"]), float(p["y"])) for p in o[tag]]
    if "text" in o:
        obj["kind"] = "text"
    if obj["gid"] is not None:
        obj["kind"] = "tile"
    return obj


def unrotate(px, py, ox, oy, deg):
    """Rotate p by -deg (degrees, clockwise positive, y down) about (ox, oy)."""
    if deg == 0:
        return px, py
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    dx, dy = px - ox, py - oy
    return ox + dx * c + dy * s, oy - dx * s + dy * c


def pnpoly(pts, px, py):
    inside = False
    n = len(pts)
    j = n - 1
    for i in range(n):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > py) != (yj > py) and px < (xj - xi) * (py - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def area_contains(obj, px, py):
    """CENTER test for an area shape (rect, ellipse, polygon); other kinds: False."""
    kind = obj["kind"]
    x, y, w, h = obj["x"], obj["y"], obj["w"], obj["h"]
    qx, qy = unrotate(px, py, x, y, obj["rot"])
    if kind == "rect":
        if w <= 0 or h <= 0:
            return False
        return x <= qx < x + w and y <= qy < y + h
    if kind == "ellipse":
        if w <= 0 or h <= 0:
            return False
        cx, cy = x + w / 2, y + h / 2
        ex, ey = (qx - cx) / (w / 2), (qy - cy) / (h / 2)
        return ex * ex + ey * ey <= 1
    if kind == "polygon":
        pts = [(x + ax, y + ay) for ax, ay in obj["points"]]
        return pnpoly(pts, qx, qy)
    return False


def is_area(obj):
    if obj["kind"] in ("rect", "ellipse"):
        return obj["w"] > 0 and obj["h"] > 0
    return obj["kind"] == "polygon"


def area_bbox(obj):
    """Axis-aligned bounds (in the frame of the object's parent) of an area shape."""
    x, y = obj["x"], obj["y"]
    if obj["kind"] == "polygon" or obj["kind"] == "polyline":
        local = obj["points"]
    else:
        local = [(0, 0), (obj["w"], 0), (0, obj["h"]), (obj["w"], obj["h"])]
    a = math.radians(obj["rot"])
    c, s = math.cos(a), math.sin(a)
    xs, ys = [], []
    for lx, ly in local:
        xs.append(x + lx * c - ly * s)
        ys.append(y + lx * s + ly * c)
    return min(xs), min(ys), max(xs), max(ys)


def segment_meets_box(x0, y0, x1, y1, bx0, by0, bx1, by1):
    """Does the segment meet the closed box [bx0,bx1] x [by0,by1]? (Liang-Barsky)"""
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q < 0:
                return False
        else:
            r = q / p
            if p < 0:
                if r > t1:
                    return False
                t0 = max(t0, r)
            else:
                if r < t0:
                    return False
                t1 = min(t1, r)
    return t0 <= t1


# ---------------------------------------------------------------------------------------------
# the map model


class Tile:
    def __init__(self):
        self.props = []
        self.shapes = []
        self.w = None
        self.h = None


class Tileset:
    def __init__(self, firstgid, source):
        self.firstgid = firstgid
        self.source = source
        self.tw = 0
        self.th = 0
        self.tiles = {}

    def tile(self, tid):
        return self.tiles.get(tid)

    def tile_size(self, tid):
        t = self.tiles.get(tid)
        if t is not None and t.w:
            return t.w, t.h
        return self.tw, self.th


class TileLayer:
    def __init__(self, name):
        self.name = name
        self.gids = None  # flat list for finite maps
        self.chunks = []  # (x, y, w, h, gids) for infinite maps


class ObjectLayer:
    def __init__(self, name, cls, props):
        self.name = name
        self.cls = cls
        self.props = props
        self.objects = []


class Map:
    def __init__(self):
        self.path = ""
        self.width = self.height = 0
        self.tw = self.th = 0
        self.infinite = False
        self.tilesets = []
        self.layers = []
        self.ox = self.oy = 0

    def tileset_of(self, gid):
        best = None
        for ts in self.tilesets:
            if ts.firstgid <= gid and (best is None or ts.firstgid > best.firstgid):
                best = ts
        return best


def decode_data(text, encoding, compression, count, where):
    """Tile data (csv / base64 with optional compression) to a list of `count` uint32 gids."""
    if encoding == "csv":
        vals = [int(v) for v in text.replace("\n", "").replace("\r", "").split(",") if v.strip()]
    elif encoding == "base64":
        raw = base64.b64decode("".join(text.split()))
        if compression == "zlib":
            raw = zlib.decompress(raw)
        elif compression == "gzip":
            raw = gzip.decompress(raw)
        elif compression == "zstd":
            raise Unsupported(f"{where}: zstd-compressed data (no zstd in this Python)")
        elif compression not in (None, ""):
            raise ValueError(f"{where}: unknown compression {compression!r}")
        if len(raw) != 4 * count:
            raise ValueError(f"{where}: {len(raw)} bytes for {count} gids")
        arr = array.array("I")
        arr.frombytes(raw)
        if sys.byteorder == "big":
            arr.byteswap()
        vals = arr.tolist()
    else:
        raise ValueError(f"{where}: unknown encoding {encoding!r}")
    if len(vals) != count:
        raise ValueError(f"{where}: {len(vals)} gids for {count} cells")
    return vals


# ---- TMX ------------------------------------------------------------------------------------


def read_tsx_into(ts, root, base_dir):
    ts.tw = int(root.get("tilewidth", "0"))
    ts.th = int(root.get("tileheight", "0"))
    for t in root.findall("tile"):
        tile = Tile()
        tile.props = xml_props(t)
        img = t.find("image")
        if img is not None and img.get("width"):
            tile.w, tile.h = int(img.get("width")), int(img.get("height"))
        og = t.find("objectgroup")
        if og is not None:
            tile.shapes = [xml_object(o, base_dir, {}) for o in og.findall("object")]
        ts.tiles[int(t.get("id"))] = tile


def read_tsj_into(ts, root, base_dir):
    ts.tw = int(root.get("tilewidth", 0))
    ts.th = int(root.get("tileheight", 0))
    tiles = root.get("tiles")
    items = []
    if isinstance(tiles, list):
        items = [(int(t["id"]), t) for t in tiles]
    elif isinstance(tiles, dict):  # Tiled < 1.2: object keyed by tile id
        items = [(int(k), v) for k, v in tiles.items()]
    for tid, t in items:
        tile = ts.tiles.setdefault(tid, Tile())
        tile.props += json_props(t.get("properties"))
        if t.get("imagewidth"):
            tile.w, tile.h = int(t["imagewidth"]), int(t["imageheight"])
        og = t.get("objectgroup")
        if isinstance(og, dict):
            tile.shapes = [json_object(o, base_dir, {}) for o in og.get("objects", [])]
    for k, v in (root.get("tileproperties") or {}).items():
        ts.tiles.setdefault(int(k), Tile()).props += json_props(v)


def load_external_tileset(ts, path):
    base = os.path.dirname(path)
    if path.lower().endswith(".tsx"):
        read_tsx_into(ts, ET.parse(path).getroot(), base)
    else:
        with open(path, encoding="utf-8") as f:
            read_tsj_into(ts, json.load(f), base)


def tmx_layers(m, parent, prefix, base_dir, tcache):
    for el in parent:
        name = el.get("name", "")
        full = prefix + name
        if el.tag == "layer":
            layer = TileLayer(full)
            data = el.find("data")
            enc = data.get("encoding")
            comp = data.get("compression")
            chunks = data.findall("chunk")
            if chunks:
                for c in chunks:
                    cx, cy = int(c.get("x")), int(c.get("y"))
                    cw, ch = int(c.get("width")), int(c.get("height"))
                    if enc is None:
                        gids = [int(t.get("gid", "0")) for t in c.findall("tile")]
                    else:
                        gids = decode_data(c.text or "", enc, comp, cw * ch, full)
                    layer.chunks.append((cx, cy, cw, ch, gids))
            elif m.infinite:
                pass
            else:
                count = m.width * m.height
                if enc is None:
                    layer.gids = [int(t.get("gid", "0")) for t in data.findall("tile")]
                    if len(layer.gids) != count:
                        raise ValueError(f"{full}: {len(layer.gids)} <tile> for {count} cells")
                else:
                    layer.gids = decode_data(data.text or "", enc, comp, count, full)
            m.layers.append(layer)
        elif el.tag == "objectgroup":
            layer = ObjectLayer(full, el.get("class") or el.get("type") or "", xml_props(el))
            layer.objects = [xml_object(o, base_dir, tcache) for o in el.findall("object")]
            m.layers.append(layer)
        elif el.tag == "group":
            tmx_layers(m, el, full + "/", base_dir, tcache)


def load_tmx(path):
    m = Map()
    m.path = path
    root = ET.parse(path).getroot()
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise Unsupported(f"{root.get('orientation')} map")
    base = os.path.dirname(path)
    m.width, m.height = int(root.get("width")), int(root.get("height"))
    m.tw, m.th = int(root.get("tilewidth")), int(root.get("tileheight"))
    m.infinite = root.get("infinite") == "1"
    for t in root.findall("tileset"):
        src = t.get("source")
        ts = Tileset(int(t.get("firstgid", "1")),
                     os.path.normpath(os.path.join(base, src)) if src else None)
        if src:
            load_external_tileset(ts, ts.source)
        else:
            read_tsx_into(ts, t, base)
        m.tilesets.append(ts)
    tmx_layers(m, root, "", base, {})
    return m


# ---- JSON -----------------------------------------------------------------------------------


def json_layers(m, layers, prefix, base_dir, tcache):
    for el in layers:
        name = el.get("name", "")
        full = prefix + name
        kind = el.get("type")
        if kind == "tilelayer":
            layer = TileLayer(full)
            enc = el.get("encoding", "csv")
            comp = el.get("compression", "")
            if "chunks" in el:
                for c in el["chunks"]:
                    cw, ch = int(c["width"]), int(c["height"])
                    gids = (list(map(int, c["data"])) if isinstance(c["data"], list)
                            else decode_data(c["data"], enc, comp, cw * ch, full))
                    layer.chunks.append((int(c["x"]), int(c["y"]), cw, ch, gids))
            elif not m.infinite:
                count = m.width * m.height
                d = el["data"]
                layer.gids = (list(map(int, d)) if isinstance(d, list)
                              else decode_data(d, enc, comp, count, full))
                if len(layer.gids) != count:
                    raise ValueError(f"{full}: {len(layer.gids)} gids for {count} cells")
            m.layers.append(layer)
        elif kind == "objectgroup":
            # JSON layers have `class` since Tiled 1.9 (their `type` is the layer kind)
            layer = ObjectLayer(full, el.get("class", ""), json_props(el.get("properties")))
            layer.objects = [json_object(o, base_dir, tcache) for o in el.get("objects", [])]
            m.layers.append(layer)
        elif kind == "group":
            json_layers(m, el.get("layers", []), full + "/", base_dir, tcache)


def load_json(path):
    m = Map()
    m.path = path
    with open(path, encoding="utf-8") as f:
        root = json.load(f)
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise Unsupported(f"{root.get('orientation')} map")
    base = os.path.dirname(path)
    m.width, m.height = int(root["width"]), int(root["height"])
    m.tw, m.th = int(root["tilewidth"]), int(root["tileheight"])
    m.infinite = bool(root.get("infinite", False))
    for t in root.get("tilesets", []):
        src = t.get("source")
        ts = Tileset(int(t.get("firstgid", 1)),
                     os.path.normpath(os.path.join(base, src)) if src else None)
        if src:
            load_external_tileset(ts, ts.source)
        else:
            read_tsj_into(ts, t, base)
        m.tilesets.append(ts)
    json_layers(m, root.get("layers", []), "", base, {})
    return m


def load(path):
    with open(path, "rb") as f:
        head = f.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    m = load_tmx(path) if head.startswith(b"<") else load_json(path)
    finish(m)
    return m


def finish(m):
    """Infinite maps: span the chunks' bounding box, cell (0, 0) = Tiled's (ox, oy)."""
    if not m.infinite:
        return
    boxes = [(c[0], c[1], c[0] + c[2], c[1] + c[3])
             for l in m.layers if isinstance(l, TileLayer) for c in l.chunks]
    if boxes:
        m.ox = min(b[0] for b in boxes)
        m.oy = min(b[1] for b in boxes)
        m.width = max(b[2] for b in boxes) - m.ox
        m.height = max(b[3] for b in boxes) - m.oy
    for l in m.layers:
        if isinstance(l, TileLayer):
            g = [0] * (m.width * m.height)
            for cx, cy, cw, ch, gids in l.chunks:
                for j in range(ch):
                    for i in range(cw):
                        g[(cy + j - m.oy) * m.width + (cx + i - m.ox)] = gids[j * cw + i]
            l.gids = g


# ---------------------------------------------------------------------------------------------
# passability


def tile_blocks_by_props(tile):
    return tile is not None and any(prop_blocks(n, v) for n, v in tile.props)


def tile_frame_blocks(tile, u, v):
    """Does a point of the tile's own pixel frame lie in one of its area shapes?"""
    return any(is_area(s) and area_contains(s, u, v) for s in tile.shapes)


def flip_inverse(u, v, gid, w, h):
    """Point of the placed (flipped) tile -> point of the tile's own frame (size w x h)."""
    d = bool(gid & FLIP_D)
    fw, fh = (h, w) if d else (w, h)
    if gid & FLIP_V:
        v = fh - v
    if gid & FLIP_H:
        u = fw - u
    if d:
        u, v = v, u
    return u, v


def flip_forward(u, v, gid, w, h):
    """Point of the tile's own frame (size w x h) -> point of the placed (flipped) tile."""
    d = bool(gid & FLIP_D)
    fw, fh = (h, w) if d else (w, h)
    if d:
        u, v = v, u
    if gid & FLIP_H:
        u = fw - u
    if gid & FLIP_V:
        v = fh - v
    return u, v


def placed_size(gid, w, h):
    return (h, w) if gid & FLIP_D else (w, h)


def collision_layer(layer, markers):
    names = {n.strip().lower() for n in markers.split(",") if n.strip()}
    if not names:
        return False
    if layer.name.split("/")[-1].lower() in names:
        return True
    if layer.cls and layer.cls.lower() in names:
        return True
    return any(v is True and n.lower() in names for n, v in layer.props)


class Result:
    def __init__(self, m):
        self.w, self.h = m.width, m.height
        self.props = set()
        self.shapes = set()
        self.objects = set()
        self.collision_layers = 0
        self.collision_objects = 0
        self.tiles_with_shapes = 0
        self.layer_hashes = []

    def blocked(self):
        return self.props | self.shapes | self.objects

    def why(self, x, y):
        return [n for n, s in (("props", self.props), ("shapes", self.shapes),
                               ("objects", self.objects)) if (x, y) in s]


def layer_hash(name, gids):
    """CRC-32 (zlib's) of the name (at most 127 bytes), a NUL and the gids, little endian."""
    data = array.array("I", gids)
    if sys.byteorder == "big":
        data.byteswap()
    return zlib.crc32(data.tobytes(), zlib.crc32(name.encode("utf-8")[:127] + b"\0"))


def cells_in(m, x0, y0, x1, y1):
    """Cells whose centres may lie in the pixel box [x0,x1] x [y0,y1], clipped to the map."""
    cx0 = max(0, int(math.floor(x0 / m.tw - 0.5)))
    cy0 = max(0, int(math.floor(y0 / m.th - 0.5)))
    cx1 = min(m.width - 1, int(math.ceil(x1 / m.tw - 0.5)))
    cy1 = min(m.height - 1, int(math.ceil(y1 / m.th - 0.5)))
    for cy in range(cy0, cy1 + 1):
        for cx in range(cx0, cx1 + 1):
            yield cx, cy


def evaluate(m, markers=DEFAULT_MARKERS):
    r = Result(m)
    W, H, tw, th = m.width, m.height, m.tw, m.th
    # per-gid answers, computed once for every gid met on a tile layer
    prop_cache, same_cache = {}, {}

    def tile_of(gid):
        ts = m.tileset_of(gid & GID_MASK)
        if ts is None:
            return None, None, 0, 0
        tid = (gid & GID_MASK) - ts.firstgid
        w, hh = ts.tile_size(tid)
        return ts, ts.tile(tid), w, hh

    for ts in m.tilesets:
        r.tiles_with_shapes += sum(1 for t in ts.tiles.values() if any(is_area(s) for s in t.shapes))

    for layer in m.layers:
        if not isinstance(layer, TileLayer):
            continue
        r.layer_hashes.append((layer_hash(layer.name, layer.gids), layer.name))
        for i, gid in enumerate(layer.gids):
            if gid == 0 or (gid & GID_MASK) == 0:
                continue
            x, y = i % W, i // W
            base = gid & GID_MASK
            if base not in prop_cache:
                _, tile, _, _ = tile_of(gid)
                prop_cache[base] = tile_blocks_by_props(tile)
            if prop_cache[base]:
                r.props.add((x, y))
            ts, tile, w, hh = tile_of(gid)
            if tile is None or not any(is_area(s) for s in tile.shapes):
                continue
            if (w, hh) == (tw, th):
                if base not in same_cache:
                    same_cache[base] = tile_frame_blocks(tile, tw / 2, th / 2)
                if same_cache[base]:
                    r.shapes.add((x, y))
                continue
            # another size: bottom-left of the image on the bottom-left of the cell
            pw, ph = placed_size(gid, w, hh)
            left, top = x * tw, (y + 1) * th - ph
            xs, ys = [], []
            for s in tile.shapes:
                if is_area(s):
                    bx0, by0, bx1, by1 = area_bbox(s)
                    for u, v in ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1)):
                        fu, fv = flip_forward(u, v, gid, w, hh)
                        xs.append(left + fu)
                        ys.append(top + fv)
            for cx, cy in cells_in(m, min(xs), min(ys), max(xs), max(ys)):
                u, v = flip_inverse((cx + 0.5) * tw - left, (cy + 0.5) * th - top, gid, w, hh)
                if tile_frame_blocks(tile, u, v):
                    r.shapes.add((cx, cy))

    sx, sy = m.ox * tw, m.oy * th
    for layer in m.layers:
        if not isinstance(layer, ObjectLayer) or not collision_layer(layer, markers):
            continue
        r.collision_layers += 1
        for o in layer.objects:
            o = dict(o)
            o["x"] -= sx
            o["y"] -= sy
            kind = o["kind"]
            if kind in ("point", "text"):
                continue
            if kind == "polyline":
                pts = o["points"] or []
                if len(pts) < 2:
                    continue
                r.collision_objects += 1
                a = math.radians(o["rot"])
                c, s = math.cos(a), math.sin(a)
                world = [(o["x"] + px * c - py * s, o["y"] + px * s + py * c) if o["rot"]
                         else (o["x"] + px, o["y"] + py) for px, py in pts]
                for (x0, y0), (x1, y1) in zip(world, world[1:]):
                    gx0 = max(0, int(math.floor(min(x0, x1) / tw)) - 1)
                    gy0 = max(0, int(math.floor(min(y0, y1) / th)) - 1)
                    gx1 = min(W - 1, int(math.floor(max(x0, x1) / tw)) + 1)
                    gy1 = min(H - 1, int(math.floor(max(y0, y1) / th)) + 1)
                    for cy in range(gy0, gy1 + 1):
                        for cx in range(gx0, gx1 + 1):
                            if segment_meets_box(x0, y0, x1, y1, cx * tw, cy * th,
                                                 (cx + 1) * tw, (cy + 1) * th):
                                r.objects.add((cx, cy))
                continue
            if kind == "tile":
                gid = o["gid"]
                if o.get("tileset"):  # a template's own tileset: map it to the map's
                    tfirst, tsrc = o["tileset"]
                    for ts in m.tilesets:
                        if ts.source == tsrc:
                            gid = (gid & ~GID_MASK) | (ts.firstgid + (gid & GID_MASK) - tfirst)
                ts, tile, w, hh = tile_of(gid)
                if tile is None or not any(is_area(s) for s in tile.shapes) or w == 0 or hh == 0:
                    continue
                ow = o["w"] if o["has_size"] and o["w"] else w
                oh = o["h"] if o["has_size"] and o["h"] else hh
                if ow <= 0 or oh <= 0:
                    continue
                r.collision_objects += 1
                fx, fy = ow / w, oh / hh
                ax, ay = o["x"], o["y"]  # bottom-left, the rotation centre
                a = math.radians(o["rot"])
                c, s = math.cos(a), math.sin(a)
                corners = []
                for px, py in ((0, -oh), (ow, -oh), (0, 0), (ow, 0)):
                    corners.append((ax + px * c - py * s, ay + px * s + py * c))
                # shapes may reach outside the tile: widen by the shapes' own bounds
                bxs, bys = [], []
                for sh in tile.shapes:
                    if is_area(sh):
                        b = area_bbox(sh)
                        bxs += [b[0], b[2]]
                        bys += [b[1], b[3]]
                pad = max(0.0, -min(bxs), max(bxs) - w, -min(bys), max(bys) - hh)
                pad *= max(fx, fy)
                x0 = min(p[0] for p in corners) - pad
                x1 = max(p[0] for p in corners) + pad
                y0 = min(p[1] for p in corners) - pad
                y1 = max(p[1] for p in corners) + pad
                for cx, cy in cells_in(m, x0, y0, x1, y1):
                    qx, qy = unrotate((cx + 0.5) * tw, (cy + 0.5) * th, ax, ay, o["rot"])
                    u, v = (qx - ax) / fx, (qy - (ay - oh)) / fy
                    u, v = flip_inverse(u, v, gid, w, hh)
                    if tile_frame_blocks(tile, u, v):
                        r.objects.add((cx, cy))
                continue
            if not is_area(o):
                continue
            r.collision_objects += 1
            x0, y0, x1, y1 = area_bbox(o)
            for cx, cy in cells_in(m, x0, y0, x1, y1):
                if area_contains(o, (cx + 0.5) * tw, (cy + 0.5) * th):
                    r.objects.add((cx, cy))
    return r


def render(r):
    blocked = r.blocked()
    out = [f"{r.w} {r.h}",
           f"counts {len(blocked)} {len(r.props)} {len(r.shapes)} {len(r.objects)} "
           f"{r.tiles_with_shapes} {r.collision_layers} {r.collision_objects}",
           f"layers {len(r.layer_hashes)}"]
    out += [f"layer {h:08x} {n}" for h, n in r.layer_hashes]
    for y in range(r.h):
        out.append("".join("#" if (x, y) in blocked else "." for x in range(r.w)))
    return "\n".join(out) + "\n"


def self_test(seed=14, rounds=1000):
    """The geometry above on handmade cases, then against a second formulation on random
    shapes (a rotated rectangle as a polygon, an ellipse as a fine polygon, a segment against
    a box by dense sampling). Raises AssertionError naming the case."""
    import random

    def rect(x, y, w, h, rot=0.0):
        return {"kind": "rect", "x": x, "y": y, "w": w, "h": h, "rot": rot, "points": None}

    # half-open box, degenerate sizes
    r = rect(10, 20, 30, 40)
    assert area_contains(r, 10, 20) and not area_contains(r, 40, 30)
    assert not area_contains(r, 25, 60) and area_contains(r, 39.999, 59.999)
    assert not area_contains(rect(0, 0, 0, 5), 0, 1) and not is_area(rect(0, 0, 5, -1))
    # 90 degrees clockwise about (0, 0) with y down: +x goes to +y
    r90 = rect(0, 0, 10, 2, 90)
    assert area_contains(r90, -1, 5) and not area_contains(r90, 1, 5)
    e = {"kind": "ellipse", "x": 0, "y": 0, "w": 20, "h": 10, "rot": 0.0, "points": None}
    assert area_contains(e, 20, 5) and area_contains(e, 10, 0) and not area_contains(e, 19, 1)
    tri = {"kind": "polygon", "x": 0, "y": 16, "w": 0, "h": 0, "rot": 0.0,
           "points": [(0, 0), (16, -16), (16, 0)]}
    assert area_contains(tri, 12, 12) and not area_contains(tri, 4, 4)
    assert segment_meets_box(0, 0, 10, 0, 10, -5, 20, 5)          # touches the closed edge
    assert segment_meets_box(0, 10, 10, 0, 10, -5, 20, 0)         # touches a corner
    assert not segment_meets_box(0, 0, 9.99, 0, 10, -5, 20, 5)
    assert prop_blocks("Collides", True) and prop_blocks("solid", "yes")
    assert prop_blocks("walkable", 0) and prop_blocks("c", "") and not prop_blocks("C", "")
    assert not prop_blocks("collides", "maybe") and not prop_blocks("passable", True)

    rng = random.Random(seed)
    for i in range(rounds):
        x, y = rng.uniform(-50, 50), rng.uniform(-50, 50)
        w, h = rng.uniform(1, 40), rng.uniform(1, 40)
        rot = rng.choice([0.0, rng.uniform(-360, 360)])
        px, py = rng.uniform(-100, 100), rng.uniform(-100, 100)
        r = rect(x, y, w, h, rot)
        a = math.radians(rot)
        c, s = math.cos(a), math.sin(a)
        corners = [(x + u * c - v * s, y + u * s + v * c) for u, v in
                   ((0, 0), (w, 0), (w, h), (0, h))]
        poly = {"kind": "polygon", "x": 0, "y": 0, "w": 0, "h": 0, "rot": 0.0, "points": corners}
        qx, qy = unrotate(px, py, x, y, rot)
        margin = min(abs(qx - x), abs(qx - x - w), abs(qy - y), abs(qy - y - h))
        if margin > 1e-6:
            assert area_contains(r, px, py) == area_contains(poly, px, py), ("rect", i)
        bx0, by0, bx1, by1 = area_bbox(r)
        if area_contains(r, px, py):
            assert bx0 - 1e-9 <= px <= bx1 + 1e-9 and by0 - 1e-9 <= py <= by1 + 1e-9, ("bbox", i)
        el = dict(r, kind="ellipse")
        n = 720
        ring = [(x + w / 2 + w / 2 * math.cos(2 * math.pi * k / n),
                 y + h / 2 + h / 2 * math.sin(2 * math.pi * k / n)) for k in range(n)]
        ring = [(x + (u - x) * c - (v - y) * s, y + (u - x) * s + (v - y) * c) for u, v in ring]
        ep = {"kind": "polygon", "x": 0, "y": 0, "w": 0, "h": 0, "rot": 0.0, "points": ring}
        ex, ey = (qx - x - w / 2) / (w / 2), (qy - y - h / 2) / (h / 2)
        if abs(ex * ex + ey * ey - 1) > 1e-2:
            assert area_contains(el, px, py) == area_contains(ep, px, py), ("ellipse", i)
        sx0, sy0, sx1, sy1 = (rng.uniform(-20, 20) for _ in range(4))
        hit = any(x <= sx0 + (sx1 - sx0) * t / 400 <= x + w and
                  y <= sy0 + (sy1 - sy0) * t / 400 <= y + h for t in range(401))
        meets = segment_meets_box(sx0, sy0, sx1, sy1, x, y, x + w, y + h)
        if hit:
            assert meets, ("segment", i)
        elif meets:  # sampling may miss a graze: the segment must then pass within a step
            step = math.hypot(sx1 - sx0, sy1 - sy0) / 400
            near = any(x - step <= sx0 + (sx1 - sx0) * t / 400 <= x + w + step and
                       y - step <= sy0 + (sy1 - sy0) * t / 400 <= y + h + step
                       for t in range(401))
            assert near, ("segment", i)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        m = load(argv[1])
    except Unsupported as e:
        print(f"{argv[1]}: not read: {e}", file=sys.stderr)
        return 77
    r = evaluate(m)
    if len(argv) >= 5 and argv[2] == "--explain":
        x, y = int(argv[3]), int(argv[4])
        print(f"({x}, {y}): {', '.join(r.why(x, y)) or 'passable'}")
        return 0
    sys.stdout.write(render(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
