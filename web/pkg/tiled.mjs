// Tiled JSON maps (.tmj/.json) decoded in JavaScript with the C loader's conventions
// (src/io/tiled.c, src/io/raster.c, docs/formats.md "Tiled JSON"): terrain from tile
// properties, tiles' collision shapes, collision object layers, the cover rules, groups,
// infinite maps, external tilesets and templates. The result is each cell's passability and
// cost, exactly as tn_map_load() computes them (web/test/tiled.test.mjs checks that cell by cell
// against the C loader on every map of the bench set). Used by TileMap.fromTiled().
//
// Not read here (the C loader reads them): Tiled XML files (.tsx tilesets, .tx templates),
// which throw "unsupported"; and zstd-compressed layers where the platform has no zstd
// decompressor (Node.js before 22.15 and browsers), unless options.decompress provides one.

const FLAGS = 0xf0000000, FLIP_H = 0x80000000, FLIP_V = 0x40000000, FLIP_D = 0x20000000;
const MAX_TERRAIN_GID = 1 << 22;
export const COLLISION_GID = MAX_TERRAIN_GID - 1;
const COLLIDE_PROPERTIES = 1, COLLIDE_TILE_SHAPES = 2, COLLIDE_OBJECT_LAYERS = 4;
const COVER = { center: 0, any: 1, half: 2 };
const MK_PROPS = 1, MK_SHAPES = 2, MK_OBJECTS = 4, MK_LAYER = 8;
const DEFAULT_MARKERS = "collision,collisions,collider,colliders,walls,wall,solid,obstacles,blocked";
const MAX_DIM = 65536, MAX_CELLS = 2 ** 28; // tilenav's largest map (TN_MAX_DIM, TN_MAX_CELLS)
const MAX_LAYERS = 1024; // TN_MAX_LAYERS
const OPTION_NAMES = ["url", "files", "load", "collision", "cover", "collisionLayers", "decompress"];
const inNode = () => typeof process !== "undefined" && !!process.versions?.node;

/** A load error: `status` is the C status code (-6 parse, -7 io, -8 unsupported, -3 too large). */
export class TiledError extends Error {
  constructor(status, where, message) {
    super(`${where ? `${where}: ` : ""}${message}`);
    this.status = status;
    this.where = where;
    this.detail = message;
  }
}
const parseErr = (where, msg) => new TiledError(-6, where, msg);

// Text to JSON, or a parse error that says what the text is (Tiled XML: export as JSON).
// A UTF-8 byte order mark at the start (U+FEFF once decoded) is skipped, as the C loader does.
function parseJson(text, where, what) {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (e) {
    if (/^\s*</.test(text))
      throw new TiledError(-8, where, `${what} is Tiled XML (.tmx/.tsx/.tx), which the JavaScript loader does not read: save it as JSON in Tiled (File > Export As..., .tmj/.tsj/.tj)`);
    throw parseErr(where, `${what} is not JSON (${e.message}); Tiled maps are read as JSON: .tmj/.json, from Tiled's File > Export As...`);
  }
}

// The C loader's nesting limit (TN_MAX_JSON_DEPTH): objects and arrays inside each other, the
// outermost counting 1. Checked without recursion, so that a deeper file (thousands of nested
// groups) is refused as the C loader refuses it rather than overflowing the call stack.
const MAX_JSON_DEPTH = 64;
function checkDepth(root, where) {
  const stack = [root], depth = [1];
  while (stack.length) {
    const v = stack.pop(), d = depth.pop();
    if (d > MAX_JSON_DEPTH) throw parseErr(where, `nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (the C loader's limit)`);
    for (const c of Array.isArray(v) ? v : Object.values(v))
      if (c !== null && typeof c === "object") { stack.push(c); depth.push(d + 1); }
  }
}

// The options, checked as the rest of the API checks them (unknown names: TypeError).
function checkOptions(o) {
  if (o === null || typeof o !== "object") throw new TypeError(`tilenav: fromTiled: options must be an object, got ${String(o)}`);
  for (const k of Object.keys(o))
    if (!OPTION_NAMES.includes(k) && o[k] !== undefined) throw new TypeError(`tilenav: fromTiled: unknown option ${JSON.stringify(k)} (${OPTION_NAMES.join(", ")})`);
  if (o.collision !== undefined && !Array.isArray(o.collision)) throw new TypeError(`tilenav: fromTiled: collision must be an array of convention names, got ${JSON.stringify(o.collision)}`);
  if (o.files !== undefined && (o.files === null || typeof o.files !== "object")) throw new TypeError("tilenav: fromTiled: files must be an object {path: contents}");
  for (const k of ["load", "decompress"]) if (o[k] !== undefined && typeof o[k] !== "function") throw new TypeError(`tilenav: fromTiled: ${k} must be a function`);
  if (o.collisionLayers !== undefined && typeof o.collisionLayers !== "string") throw new TypeError("tilenav: fromTiled: collisionLayers must be a comma-separated string");
}

// options.url as a URL: a URL, or a string holding an absolute URL; in Node.js also a file path
// (absolute, or relative to the working directory); in a browser also a URL relative to the page.
async function baseUrl(u) {
  if (u instanceof URL) return u;
  if (typeof u !== "string") throw new TiledError(-7, "url", `options.url must be a URL or a string, got ${typeof u}`);
  const windowsPath = /^[a-z]:[\\/]/i.test(u);
  if (!windowsPath) try { return new URL(u); } catch { /* not an absolute URL */ }
  if (inNode()) {
    const urlName = "node:url"; // a name in a variable: browser bundlers leave it alone
    const { pathToFileURL } = await import(/* @vite-ignore */ /* webpackIgnore: true */ urlName);
    return pathToFileURL(u);
  }
  if (globalThis.location?.href) return new URL(u, globalThis.location.href);
  throw new TiledError(-7, "url", `options.url ${JSON.stringify(u)} is not a URL: pass an absolute URL ("https://...", "file:///...", new URL(...))`);
}

// A map of w x h cells must be one tilenav can hold: checked before anything is allocated.
function checkSize(w, h, where, maxCells) {
  if (!(Number.isInteger(w) && Number.isInteger(h))) throw parseErr(where, `the map's size must be whole numbers of cells, got ${w} x ${h}`);
  if (w > MAX_DIM || h > MAX_DIM || w * h > MAX_CELLS)
    throw new TiledError(-3, where, `a ${w} x ${h} map is larger than tilenav maps go (${MAX_DIM} cells a side, ${MAX_CELLS} cells)`);
  if (w * h > maxCells)
    throw new TiledError(-3, where, `a ${w} x ${h} map (${w * h} cells) does not fit the WebAssembly module's 4 GiB memory (at most ${maxCells} cells)`);
}

// ---- affine transforms (raster.c) -------------------------------------------------------

const identity = () => ({ a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 });
const translate = (x, y) => ({ a: 1, b: 0, c: 0, d: 1, e: x, f: y });
function rotateAbout(deg, x, y) {
  let r = deg % 360, s, c;
  if (r < 0) r += 360;
  if (r === 0) { c = 1; s = 0; } else if (r === 90) { c = 0; s = 1; } else if (r === 180) { c = -1; s = 0; } else if (r === 270) { c = 0; s = -1; } else {
    const t = r * (3.14159265358979323846 / 180.0);
    c = Math.cos(t); s = Math.sin(t);
  }
  return { a: c, b: -s, c: s, d: c, e: x - c * x + s * y, f: y - s * x - c * y };
}
function then(p, q) { // p first, then q
  return {
    a: q.a * p.a + q.b * p.c, b: q.a * p.b + q.b * p.d,
    c: q.c * p.a + q.d * p.c, d: q.c * p.b + q.d * p.d,
    e: q.a * p.e + q.b * p.f + q.e, f: q.c * p.e + q.d * p.f + q.f,
  };
}
const applyX = (m, x, y) => m.a * x + m.b * y + m.e;
const applyY = (m, x, y) => m.c * x + m.d * y + m.f;
function invert(m) {
  const det = m.a * m.d - m.b * m.c;
  if (det === 0 || !Number.isFinite(det)) return null;
  const ia = m.d / det, ib = -m.b / det, ic = -m.c / det, id = m.a / det;
  return { a: ia, b: ib, c: ic, d: id, e: -(ia * m.e + ib * m.f), f: -(ic * m.e + id * m.f) };
}

// ---- rasterising shapes into cells (raster.c) --------------------------------------------

function cellRange(lo, hi, size, n) {
  if (!(lo <= hi) || !Number.isFinite(lo) || !Number.isFinite(hi)) return null;
  const a = Math.floor(lo / size) - 1, b = Math.floor(hi / size) + 1;
  if (b < 0 || a > n - 1) return null;
  return [a < 0 ? 0 : a, b > n - 1 ? n - 1 : b];
}

function mark(g, x, y) { g.cells[y * g.w + x] |= g.bit; }

function centerBox(s, g) {
  const inv = invert(s.m);
  if (!(s.w > 0) || !(s.h > 0) || !inv) return;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < 4; k++) {
    const qx = s.x + (k & 1 ? s.w : 0), qy = s.y + (k & 2 ? s.h : 0);
    const px = applyX(s.m, qx, qy), py = applyY(s.m, qx, qy);
    x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
  }
  const rx_ = cellRange(x0, x1, g.tw, g.w), ry_ = cellRange(y0, y1, g.th, g.h);
  if (!rx_ || !ry_) return;
  const ecx = s.x + s.w / 2, ecy = s.y + s.h / 2, rx = s.w / 2, ry = s.h / 2;
  for (let cy = ry_[0]; cy <= ry_[1]; cy++)
    for (let cx = rx_[0]; cx <= rx_[1]; cx++) {
      const X = (cx + 0.5) * g.tw, Y = (cy + 0.5) * g.th;
      const qx = applyX(inv, X, Y), qy = applyY(inv, X, Y);
      let inside;
      if (s.kind === "rect") inside = qx >= s.x && qx < s.x + s.w && qy >= s.y && qy < s.y + s.h;
      else { const u = (qx - ecx) / rx, v = (qy - ecy) / ry; inside = u * u + v * v <= 1.0; }
      if (inside) mark(g, cx, cy);
    }
}

function pointsCells(p, g) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]); y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
  }
  const rx = cellRange(x0, x1, g.tw, g.w), ry = cellRange(y0, y1, g.th, g.h);
  return rx && ry ? [rx[0], rx[1], ry[0], ry[1]] : null;
}

function centerPolygon(p, g) {
  const r = pointsCells(p, g);
  if (!r) return;
  const n = p.length / 2;
  for (let cy = r[2]; cy <= r[3]; cy++) {
    const py = (cy + 0.5) * g.th, xs = [];
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = p[2 * i], yi = p[2 * i + 1], xj = p[2 * j], yj = p[2 * j + 1];
      if ((yi > py) !== (yj > py)) xs.push((xj - xi) * (py - yi) / (yj - yi) + xi);
    }
    if (!xs.length) continue;
    xs.sort((a, b) => (a > b) - (a < b));
    let right = 0;
    for (let cx = r[0]; cx <= r[1]; cx++) {
      const px = (cx + 0.5) * g.tw;
      while (right < xs.length && !(px < xs[right])) right++;
      if ((xs.length - right) & 1) mark(g, cx, cy);
    }
  }
}

function clip(inp, axis, v, sgn) {
  const out = [], n = inp.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const c0 = inp[2 * i], c1 = inp[2 * i + 1], p0 = inp[2 * j], p1 = inp[2 * j + 1];
    const cur = axis ? c1 : c0, prev = axis ? p1 : p0;
    const dc = sgn * (cur - v), dp = sgn * (prev - v);
    if ((dc >= 0) !== (dp >= 0)) {
      const t = dp / (dp - dc);
      const other = axis ? p0 + t * (c0 - p0) : p1 + t * (c1 - p1);
      if (axis) out.push(other, v); else out.push(v, other);
    }
    if (dc >= 0) out.push(c0, c1);
  }
  return out;
}

function area(p) {
  let s = 0;
  const n = p.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) s += p[2 * j] * p[2 * i + 1] - p[2 * i] * p[2 * j + 1];
  return Math.abs(s) / 2;
}

function areaPolygon(p, rule, g) {
  const r = pointsCells(p, g);
  if (!r) return;
  const cell = g.tw * g.th, need = rule === COVER.half ? 0.5 * cell : 1e-9 * cell;
  for (let cy = r[2]; cy <= r[3]; cy++) {
    const top = cy * g.th, bottom = (cy + 1) * g.th;
    const b1 = clip(p, 1, top, 1);
    if (b1.length < 6) continue;
    const b2 = clip(b1, 1, bottom, -1);
    if (b2.length < 6) continue;
    let sx0 = Infinity, sx1 = -Infinity;
    for (let i = 0; i < b2.length; i += 2) { sx0 = Math.min(sx0, b2[i]); sx1 = Math.max(sx1, b2[i]); }
    const cr = cellRange(sx0, sx1, g.tw, g.w);
    if (!cr) continue;
    for (let cx = cr[0]; cx <= cr[1]; cx++) {
      let q = clip(b2, 0, cx * g.tw, 1);
      if (q.length >= 6) q = clip(q, 0, (cx + 1) * g.tw, -1);
      if (q.length >= 6 && area(q) > need) mark(g, cx, cy);
    }
  }
}

function segmentMeets(x0, y0, x1, y1, bx0, by0, bx1, by1) {
  let t0 = 0, t1 = 1;
  const dx = x1 - x0, dy = y1 - y0;
  const ps = [-dx, dx, -dy, dy], qs = [x0 - bx0, bx1 - x0, y0 - by0, by1 - y0];
  for (let i = 0; i < 4; i++) {
    if (ps[i] === 0) { if (qs[i] < 0) return false; continue; }
    const t = qs[i] / ps[i];
    if (ps[i] < 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function polyline(p, g) {
  for (let i = 0; i + 3 < p.length; i += 2) {
    const ax = p[i], ay = p[i + 1], bx = p[i + 2], by = p[i + 3];
    const rx = cellRange(Math.min(ax, bx), Math.max(ax, bx), g.tw, g.w), ry = cellRange(Math.min(ay, by), Math.max(ay, by), g.th, g.h);
    if (!rx || !ry) continue;
    for (let cy = ry[0]; cy <= ry[1]; cy++)
      for (let cx = rx[0]; cx <= rx[1]; cx++)
        if (segmentMeets(ax, ay, bx, by, cx * g.tw, cy * g.th, (cx + 1) * g.tw, (cy + 1) * g.th)) mark(g, cx, cy);
  }
}

function raster(s, rule, g) {
  if (s.kind === "rect" || s.kind === "ellipse") {
    if (!(s.w > 0) || !(s.h > 0)) return;
    if (rule === COVER.center) return centerBox(s, g);
    if (!invert(s.m)) return;
    const pts = [];
    if (s.kind === "rect") {
      const cx = [s.x, s.x + s.w, s.x + s.w, s.x], cy = [s.y, s.y, s.y + s.h, s.y + s.h];
      for (let n = 0; n < 4; n++) pts.push(applyX(s.m, cx[n], cy[n]), applyY(s.m, cx[n], cy[n]));
    } else {
      for (let n = 0; n < 64; n++) {
        const t = 2.0 * 3.14159265358979323846 * n / 64;
        const x = s.x + s.w / 2 * (1.0 + Math.cos(t)), y = s.y + s.h / 2 * (1.0 + Math.sin(t));
        pts.push(applyX(s.m, x, y), applyY(s.m, x, y));
      }
    }
    return areaPolygon(pts, rule, g);
  }
  const n = s.pts.length / 2;
  if (n < (s.kind === "polygon" ? 3 : 2)) return;
  const p = new Array(2 * n);
  for (let i = 0; i < n; i++) { p[2 * i] = applyX(s.m, s.pts[2 * i], s.pts[2 * i + 1]); p[2 * i + 1] = applyY(s.m, s.pts[2 * i], s.pts[2 * i + 1]); }
  if (s.kind === "polyline") polyline(p, g);
  else if (rule === COVER.center) centerPolygon(p, g);
  else areaPolygon(p, rule, g);
}

// ---- JSON helpers -----------------------------------------------------------------------

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The field readers of the C loader (get_int, get_num, get_str, get_bool): each field checked
// for type, range and integer-ness, a failure naming its JSON path ("layers[1].objects[0].x").
// A field that is not there (undefined) takes its default; null is a value (of the wrong type).
function jsonType(v) {
  if (v === undefined) return "nothing";
  if (typeof v === "boolean") return "a boolean";
  if (v === null) return "null";
  if (typeof v === "number") return "a number";
  if (typeof v === "string") return "a string";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return "an unknown value";
}
// printf's %.{p}g
function fmtG(d, p) {
  if (!Number.isFinite(d)) return Number.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
  if (d === 0) return Object.is(d, -0) ? "-0" : "0";
  const [m, e] = d.toExponential(p - 1).split("e"), x = Number(e);
  const strip = (t) => (t.includes(".") ? t.replace(/\.?0+$/, "") : t);
  if (x < -4 || x >= p) return `${strip(m)}e${x < 0 ? "-" : "+"}${String(Math.abs(x)).padStart(2, "0")}`;
  return strip(d.toFixed(Math.max(0, p - 1 - x)));
}
const pathKey = (base, key) => (base ? `${base}.${key}` : key);
function checkInt(v, where, lo, hi) {
  if (typeof v !== "number") throw parseErr(where, `expected a whole number, found ${jsonType(v)}`);
  if (!Number.isFinite(v) || v !== Math.floor(v) || Math.abs(v) > 2 ** 53) throw parseErr(where, `expected a whole number, found ${fmtG(v, 17)}`);
  if (v < lo || v > hi) throw parseErr(where, `${fmtG(v, 17)} is outside [${lo}, ${hi}]`);
  return v;
}
function getInt(o, base, key, required, dflt, lo, hi) {
  const v = o[key];
  if (v === undefined) {
    if (required) throw parseErr(pathKey(base, key), "missing field");
    return dflt;
  }
  return checkInt(v, pathKey(base, key), lo, hi);
}
function getNum(o, base, key, dflt, lo, hi) {
  const v = o[key];
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isFinite(v)) throw parseErr(pathKey(base, key), `expected a number, found ${jsonType(v)}`);
  if (v < lo || v > hi) throw parseErr(pathKey(base, key), `${fmtG(v, 17)} is outside [${fmtG(lo, 6)}, ${fmtG(hi, 6)}]`);
  return v;
}
function getStr(o, base, key) { // null when missing
  const v = o[key];
  if (v === undefined) return null;
  if (typeof v !== "string") throw parseErr(pathKey(base, key), `expected a string, found ${jsonType(v)}`);
  return v;
}
function getBool(o, base, key, dflt) {
  const v = o[key];
  if (v === undefined) return dflt;
  if (typeof v !== "boolean") throw parseErr(pathKey(base, key), `expected true or false, found ${jsonType(v)}`);
  return v;
}
// Errors of a file the map names (external tileset, template): their path names the file too.
function inFile(file, fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TiledError) throw new TiledError(e.status, e.where ? `${file}: ${e.where}` : file, e.detail);
    throw e;
  }
}
const sameCi = (a, b) => a.toLowerCase() === b.toLowerCase();

function truth(v) {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v)) return v !== 0 ? 1 : 0;
  if (typeof v === "string") {
    if (sameCi(v, "true") || v === "1" || sameCi(v, "yes")) return 1;
    if (sameCi(v, "false") || v === "0" || sameCi(v, "no") || v === "") return 0;
  }
  return -1;
}

const BLOCK_NAMES = ["collides", "collision", "collide", "solid", "blocked", "blocks", "blocking", "wall", "obstacle", "impassable"];
const PASS_NAMES = ["passable", "walkable"];
const COST_NAMES = ["cost", "movementCost", "movement_cost", "moveCost", "move_cost", "terrainCost", "terrain_cost"];
const nameIn = (name, list) => list.some((n) => sameCi(name, n));

function strtodWhole(s) { // C's strtod over the whole string (leading blanks allowed), else NaN
  if (s === "" || /\s$/.test(s)) return NaN;
  const t = s.replace(/^\s+/, "");
  if (/^[+-]?0[bo]/i.test(t)) return NaN; // Number() reads these, strtod does not
  return Number(t);
}

function applyProp(name, v, where, p) {
  if (name === "c") { p.hasBlock = p.block = true; return; }
  if (nameIn(name, BLOCK_NAMES) || nameIn(name, PASS_NAMES)) {
    const t = truth(v);
    if (t < 0) return;
    const block = nameIn(name, BLOCK_NAMES) ? t === 1 : t === 0;
    p.hasBlock = true;
    p.block = p.block || block;
    return;
  }
  if (nameIn(name, COST_NAMES)) {
    let d = NaN;
    if (typeof v === "number") d = v;
    else if (typeof v === "string") d = strtodWhole(v);
    if (!Number.isFinite(d) || !(d > 0) || d > 1e9) throw parseErr(where, `terrain cost '${name}' must be a number > 0 and <= 1e9, found ${typeof v === "number" ? "a number out of range" : jsonType(v)}`);
    p.hasCost = true;
    p.cost = d;
  }
}

// ---- the loader ---------------------------------------------------------------------------

function normalise(path) {
  const abs = path.startsWith("/"), out = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length && out[out.length - 1] !== "..") out.pop();
    else if (part === ".." && abs) continue;
    else out.push(part);
  }
  return (abs ? "/" : "") + out.join("/");
}
const dirOf = (p) => { const i = p.lastIndexOf("/"); return i < 0 ? "" : p.slice(0, i + 1); };
// Inside map files `\` separates folders too, as in the C loader (files written by hand or by
// other tools on Windows): rel's separators become '/'.
const joinPath = (dir, rel) => {
  rel = rel.replace(/\\/g, "/");
  return rel.startsWith("/") || /^[a-z]+:/i.test(rel) ? rel : dir + rel;
};
const isXml = (p) => /\.(tsx|tx|xml)$/i.test(p);

// Decompression, bounded as the C loader's: output stops at `want` bytes (W x H x 4) and a
// stream that holds more is refused without inflating the rest, so a zip bomb never reaches
// memory. zlib and gzip are told apart by their header, as zlib's inflate does for the C loader
// (either name reads either). Node.js: node:zlib with maxOutputLength; browsers:
// DecompressionStream, fed in small slices and read until past `want`.
const tooMuch = (kind, want) => `${kind} data decompresses to more than the expected ${want} bytes`;
async function defaultDecompress(bytes, kind, want) {
  const zlibName = "node:zlib"; // a name in a variable: browser bundlers leave it alone
  let zlib = null;
  if (inNode()) zlib = await import(/* @vite-ignore */ /* webpackIgnore: true */ zlibName);
  if (kind === "zstd" && !zlib?.zstdDecompressSync)
    throw new TiledError(-8, null, "zstd-compressed layer data: this platform has no zstd decompressor (Node.js 22.15+ has one; elsewhere pass options.decompress)");
  if (!zlib) return streamDecompress(bytes, kind, want);
  try {
    const opts = { maxOutputLength: Math.max(1, want) };
    return new Uint8Array(kind === "zstd" ? zlib.zstdDecompressSync(bytes, opts) : zlib.unzipSync(bytes, opts));
  } catch (e) {
    if (e?.code === "ERR_BUFFER_TOO_LARGE") throw parseErr(null, tooMuch(kind, want));
    if (e?.code === "Z_BUF_ERROR") throw parseErr(null, `${kind} data is truncated (expected ${want} bytes)`);
    throw e;
  }
}

/** zlib/gzip through DecompressionStream (browsers), at most `want` bytes read: exported for tests. */
export async function streamDecompress(bytes, kind, want) {
  const gzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  const ds = new DecompressionStream(gzip ? "gzip" : "deflate");
  const writer = ds.writable.getWriter(), reader = ds.readable.getReader();
  const SLICE = 4096; // at most ~4 MiB of output per slice (deflate's best ratio is 1032:1)
  const feed = (async () => {
    for (let i = 0; i < bytes.length; i += SLICE) await writer.write(bytes.subarray(i, i + SLICE));
    await writer.close();
  })();
  feed.catch(() => {}); // its errors reach the reader too
  const out = new Uint8Array(want);
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (n + value.length > want) {
      reader.cancel().catch(() => {});
      writer.abort().catch(() => {});
      throw parseErr(null, tooMuch(kind, want));
    }
    out.set(value, n);
    n += value.length;
  }
  return out.subarray(0, n);
}

// base64 with the C loader's rules (src/io/decode.c): the 64 standard characters, blanks
// (space, tab, CR, LF) anywhere, '=' padding only at the end and only to whole 4-character
// groups; anything else is refused (no URL-safe '-' '_', no missing padding), alike in Node.js
// and in browsers.
const B64 = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
const b64Blank = (c) => c === 32 || c === 9 || c === 13 || c === 10;
function base64Size(s, where) {
  let chars = 0, pad = 0;
  const plain = /^[A-Za-z0-9+/]*(={0,2})$/.exec(s); // the usual case, without the loop
  if (plain) { pad = plain[1].length; chars = s.length - pad; }
  else for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (b64Blank(c)) continue;
    if (c === 61) { pad++; continue; }
    if (c >= 128 || B64[c] < 0) { // offsets count bytes: all before it are ASCII
      if (c >= 32 && c < 127) throw parseErr(where, `bad base64 character '${s[i]}' at offset ${i}`);
      const byte = c < 128 ? c : new TextEncoder().encode(String.fromCodePoint(s.codePointAt(i)))[0];
      throw parseErr(where, `bad base64 byte 0x${byte.toString(16).padStart(2, "0")} at offset ${i}`);
    }
    if (pad) throw parseErr(where, `bad base64: data after '=' padding at offset ${i}`);
    chars++;
  }
  if (pad > 2 || (chars + pad) % 4 !== 0 || (pad && chars + pad < 4))
    throw parseErr(where, `bad base64: ${chars} characters and ${pad} '=' is not a whole number of 4-character groups`);
  if (chars % 4 === 1) throw parseErr(where, "bad base64: truncated final group");
  return Math.floor(chars / 4) * 3 + (chars % 4 === 0 ? 0 : (chars % 4) - 1);
}
function base64Decode(s, size) {
  const out = new Uint8Array(size);
  let acc = 0, bits = 0, o = 0, i = 0;
  if (!/[\t\n\r ]/.test(s)) // no blanks (checked: '=' only at the end): whole groups first
    for (const n = s.length - (s.length % 4) - (s.endsWith("=") ? 4 : 0); i < n; i += 4) {
      const v = (B64[s.charCodeAt(i)] << 18) | (B64[s.charCodeAt(i + 1)] << 12) | (B64[s.charCodeAt(i + 2)] << 6) | B64[s.charCodeAt(i + 3)];
      out[o] = v >> 16; out[o + 1] = (v >> 8) & 255; out[o + 2] = v & 255;
      o += 3;
    }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i), v = c < 128 ? B64[c] : -1;
    if (v < 0) continue; // blanks and padding: checked by base64Size
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = acc >> bits;
      acc &= (1 << bits) - 1;
    }
  }
  return out;
}

// A string of comma-separated gids ("encoding": "csv"), as decode_csv_string: whole numbers in
// [0, 4294967295], blanks (space, tab, CR, LF) around each. out null: only checked.
const csvBlank = (c) => c === 32 || c === 9 || c === 10 || c === 13;
const isDigit = (c) => c >= 48 && c <= 57;
function decodeCsvString(s, out, count, where, dw, dh) {
  const L = s.length, at = (i) => (i < L ? s.charCodeAt(i) : 0);
  let n = 0, i = 0;
  while (csvBlank(at(i))) i++;
  while (i < L) {
    while (csvBlank(at(i))) i++;
    const start = i;
    let v = 0, ok = isDigit(at(i));
    for (; isDigit(at(i)); i++) {
      v = v * 10 + (at(i) - 48);
      ok = ok && v <= 0xffffffff;
    }
    let end = i;
    while (csvBlank(at(i))) i++;
    if (!ok || (i < L && at(i) !== 44)) {
      while (end < L && at(end) !== 44 && end - start < 20) end++;
      throw parseErr(`${where}[${n}]`, `gid must be a whole number in [0, 4294967295], found '${s.slice(start, end)}'`);
    }
    if (n === count) { // one gid too many: count the rest for the message
      let more = 1;
      for (; i < L; i++) more += at(i) === 44;
      throw parseErr(where, `has ${count + more} gids, expected ${dw} x ${dh} = ${count}`);
    }
    if (out) out[n] = v;
    n++;
    if (at(i) === 44 && ++i === L) // a trailing comma: an empty last gid
      throw parseErr(`${where}[${n}]`, "gid must be a whole number in [0, 4294967295], found ''");
  }
  if (n !== count) throw parseErr(where, `has ${n} gids, expected ${dw} x ${dh} = ${count}`);
  return out;
}

// One `data` (array, csv string or base64 string) of count = dw x dh gids, as decode_data.
// check: only check that it can hold its cells (the C loader's first pass over every tile
// layer, before anything is decoded).
async function decodeData(data, enc, comp, count, where, o, dw, dh, check) {
  if (data === undefined) throw parseErr(where, "missing field");
  if (enc === null || enc === "csv") {
    if (comp) throw parseErr(where, `compression '${comp}' needs base64 encoding`);
    if (enc && typeof data === "string") return decodeCsvString(data, check ? null : new Uint32Array(count), count, where, dw, dh);
    if (!Array.isArray(data)) throw parseErr(where, `expected an array of gids, found ${jsonType(data)}`);
    if (data.length !== count) throw parseErr(where, `has ${data.length} gids, expected ${dw} x ${dh} = ${count}`);
    if (check) return null;
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      const d = data[i];
      if (!(typeof d === "number" && d >= 0 && d <= 4294967295 && d === Math.floor(d))) {
        if (typeof d !== "number") throw parseErr(`${where}[${i}]`, `gid must be a whole number, found ${jsonType(d)}`);
        throw parseErr(`${where}[${i}]`, `gid must be a whole number in [0, 4294967295], found ${fmtG(d, 17)}`);
      }
      out[i] = d;
    }
    return out;
  }
  if (enc !== "base64") throw parseErr(where, `unknown encoding '${enc}' (expected csv or base64)`);
  if (comp && !["zlib", "gzip", "zstd"].includes(comp)) throw parseErr(where, `unknown compression '${comp}' (expected zlib, gzip, zstd or none)`);
  if (typeof data !== "string") throw parseErr(where, `expected a base64 string, found ${jsonType(data)}`);
  const raw = base64Size(data, where), want = 4 * count;
  if (!comp && raw !== want) throw parseErr(where, `base64 data decodes to ${raw} bytes, expected ${dw} x ${dh} cells x 4 = ${want}`);
  // compressed data cannot expand past its format's best ratio (deflate 1032:1, zstd ~43700:1)
  if (comp && want > (comp === "zstd" ? raw * 65536 + 4096 : raw * 1032 + 64))
    throw parseErr(where, `${raw} bytes of ${comp} data cannot hold ${dw} x ${dh} cells (${want} bytes)`);
  if (check) return null;
  let bytes = base64Decode(data, raw);
  if (comp) {
    const f = o.decompress ?? defaultDecompress;
    try {
      bytes = await f(bytes, comp, want);
    } catch (e) {
      if (e instanceof TiledError) throw new TiledError(e.status, where, e.detail);
      if (e?.code === "ERR_BUFFER_TOO_LARGE") throw parseErr(where, tooMuch(comp, want)); // node:zlib's maxOutputLength
      throw parseErr(where, `${comp}-compressed data does not decompress (${e?.message ?? e})`);
    }
    if (!(bytes instanceof Uint8Array)) {
      if (!(bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes))) throw new TypeError(`tilenav: fromTiled: options.decompress must give a Uint8Array, got ${Object.prototype.toString.call(bytes)}`);
      bytes = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    // options.decompress gives it all at once: checked here (it gets `want` to stop early)
    if (bytes.length > want) throw parseErr(where, tooMuch(comp, want));
    if (bytes.length < want) throw parseErr(where, `${comp} data decompresses to ${bytes.length} bytes, expected ${want} (4 per cell)`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = dv.getUint32(4 * i, true);
  return out;
}

function flipAffine(raw, iw, ih) {
  let m = identity(), w = iw, h = ih;
  if (raw & FLIP_D) { m = { a: 0, b: 1, c: 1, d: 0, e: 0, f: 0 }; w = ih; h = iw; }
  if (raw & FLIP_H) m = then(m, { a: -1, b: 0, c: 0, d: 1, e: w, f: 0 });
  if (raw & FLIP_V) m = then(m, { a: 1, b: 0, c: 0, d: -1, e: 0, f: h });
  return { m, fw: w, fh: h };
}

// How a tileset's tiles are drawn on tile layers (tilerendersize, fillmode; tl_render in C).
const RENDER_TILE = 0, RENDER_STRETCH = 1, RENDER_FIT = 2;

// tile_place: tile t's pixels to the map's in cell (cx, cy) with the flips of `raw`: at its own
// size on the cell's bottom-left corner, or scaled onto the cell (stretched, or fitted with its
// aspect kept and centred).
function tilePlace(t, raw, cx, cy, tw, th) {
  const { m, fw, fh } = flipAffine(raw, t.iw, t.ih), x0 = cx * tw, y0 = cy * th;
  if (t.render === RENDER_TILE) return then(m, translate(x0, y0 + th - fh));
  let sx = tw / fw, sy = th / fh, ox = 0, oy = 0;
  if (t.render === RENDER_FIT) {
    const k = sx < sy ? sx : sy;
    ox = (tw - fw * k) / 2;
    oy = (th - fh * k) / 2;
    sx = sy = k;
  }
  return then(m, { a: sx, b: 0, c: 0, d: sy, e: x0 + ox, f: y0 + oy });
}

const COORD = 1e9; // the C loader's bound on object coordinates and sizes

// The points of a polygon/polyline (read_points): a non-empty array of {x, y} in [-1e9, 1e9].
function readPoints(arr, pw) {
  if (!Array.isArray(arr) || !arr.length) throw parseErr(pw, `expected a non-empty array of points, found ${jsonType(arr)}`);
  const pts = [];
  arr.forEach((p, i) => {
    const eb = `${pw}[${i}]`;
    if (!isObj(p)) throw parseErr(eb, `expected a point {x, y}, found ${jsonType(p)}`);
    const x = getNum(p, eb, "x", NaN, -COORD, COORD), y = getNum(p, eb, "y", NaN, -COORD, COORD);
    if (Number.isNaN(x) || Number.isNaN(y)) throw parseErr(eb, "point without x or y");
    pts.push(x, y);
  });
  return pts;
}

// The fields of every object of an object layer, checked as read_object checks them (whether
// or not the layer is a collision layer).
function checkObject(o, base) {
  getInt(o, base, "id", false, 0, 0, 0x7fffffff);
  getInt(o, base, "gid", false, 0, 0, 0xffffffff);
  getNum(o, base, "x", 0, -COORD, COORD);
  getNum(o, base, "y", 0, -COORD, COORD);
  getNum(o, base, "width", 0, 0, COORD);
  getNum(o, base, "height", 0, 0, COORD);
  for (const k of ["name", "type", "class"]) getStr(o, base, k);
  const point = getBool(o, base, "point", false), ellipse = getBool(o, base, "ellipse", false);
  let poly = o.polygon, key = "polygon";
  if (poly === undefined) { poly = o.polyline; key = "polyline"; }
  if (!point && !ellipse && poly !== undefined) readPoints(poly, pathKey(base, key));
}

// One collision object as a shape (read_shape), or null when it blocks nothing: points, text,
// tile objects (handled by the caller), boxes without area, polygons of < 3 points, and
// polylines when `lines` is false (tile shapes).
function readShape(o, base, lines) {
  const s = {
    x: getNum(o, base, "x", 0, -COORD, COORD), y: getNum(o, base, "y", 0, -COORD, COORD),
    w: getNum(o, base, "width", 0, 0, COORD), h: getNum(o, base, "height", 0, 0, COORD),
    rot: getNum(o, base, "rotation", 0, -COORD, COORD),
  };
  const point = getBool(o, base, "point", false), ellipse = getBool(o, base, "ellipse", false);
  if (point || o.text !== undefined || o.gid !== undefined) return null;
  const poly = o.polygon, line = poly === undefined ? o.polyline : undefined;
  if (ellipse) { s.kind = "ellipse"; return s.w > 0 && s.h > 0 ? s : null; }
  if (poly !== undefined || line !== undefined) {
    if (line !== undefined && !lines) return null;
    s.kind = poly !== undefined ? "polygon" : "polyline";
    s.pts = readPoints(poly ?? line, pathKey(base, s.kind));
    return s.pts.length / 2 >= (poly !== undefined ? 3 : 2) ? s : null;
  }
  s.kind = "rect";
  return s.w > 0 && s.h > 0 ? s : null;
}

function toRaster(s, place) {
  const rot = rotateAbout(s.rot, s.x, s.y);
  let m = then(rot, place);
  if (s.kind === "rect" || s.kind === "ellipse") return { kind: s.kind, x: s.x, y: s.y, w: s.w, h: s.h, m };
  m = then(translate(s.x, s.y), m);
  return { kind: s.kind, pts: s.pts, m };
}

/**
 * Decode a Tiled JSON map as tn_map_load() does: {width, height, tileWidth, tileHeight,
 * passable (Uint8Array), cost (Float32Array, Infinity where blocked), origin ({x, y} cells, for
 * infinite maps), report}.
 * @param {string|object} json the map (text or parsed)
 * @param {object} [o]
 * @param {string|URL} [o.url] where the map is: external tilesets and templates are read
 *        relative to it (fetch(), or the file system for file: URLs in Node.js)
 * @param {Object<string, string|object>} [o.files] contents of external tilesets/templates by
 *        their path relative to the map (as the map writes it), used before o.url / o.load
 * @param {(path: string) => Promise<string|object>} [o.load] reads a file by that path
 * @param {("properties"|"tile-shapes"|"object-layers"|"shapes"|"objects")[]} [o.collision] conventions (default all; "shapes" and "objects" as in the CLI and Python)
 * @param {"center"|"any"|"half"} [o.cover="center"]
 * @param {string} [o.collisionLayers] comma-separated collision layer markers (default as C)
 * @param {(bytes: Uint8Array, kind: "zlib"|"gzip"|"zstd", maxLength: number) => Promise<Uint8Array>} [o.decompress]
 *        maxLength: the layer's W x H x 4 bytes; a longer result is refused (stop soon past it)
 */
export async function decodeTiled(json, o = {}, maxCells = MAX_CELLS) {
  checkOptions(o);
  const root = typeof json === "string" ? parseJson(json, "", "the map") : json;
  if (!isObj(root)) throw parseErr("", "expected a Tiled map object");
  checkDepth(root, "");
  const base = o.url === undefined ? undefined : await baseUrl(o.url);
  // the conventions by name: this package's, and the CLI's and Python's ("shapes", "objects")
  const CONVENTIONS = { properties: COLLIDE_PROPERTIES, "tile-shapes": COLLIDE_TILE_SHAPES, "object-layers": COLLIDE_OBJECT_LAYERS,
    shapes: COLLIDE_TILE_SHAPES, objects: COLLIDE_OBJECT_LAYERS };
  if (o.collision !== undefined && !Array.isArray(o.collision))
    throw new TypeError(`tilenav: collision must be an array of convention names (${Object.keys(CONVENTIONS).join(", ")}), got ${typeof o.collision}`);
  const collision = o.collision === undefined ? 7 : o.collision.reduce((m, k) => m | ((Object.hasOwn(CONVENTIONS, k) ? CONVENTIONS[k] : undefined) ?? (() => {
    throw new TypeError(`tilenav: unknown collision convention "${k}" (${Object.keys(CONVENTIONS).join(", ")})`);
  })()), 0);
  const cover = COVER[o.cover ?? "center"];
  if (cover === undefined) throw new TypeError(`tilenav: unknown cover rule "${o.cover}" (center, any, half)`);
  const markers = (o.collisionLayers ?? DEFAULT_MARKERS).split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const mapDir = "";
  const cache = new Map();
  async function readFile(rel) {
    const key = normalise(rel);
    if (cache.has(key)) return cache.get(key);
    let v = o.files?.[rel] ?? o.files?.[key];
    if (v === undefined && o.load) v = await o.load(rel);
    if (v === undefined && base) {
      const url = new URL(rel, base);
      if (url.protocol === "file:") {
        const fsName = "node:fs/promises";
        const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
        v = await readFile(url, "utf8").catch((e) => { throw new TiledError(-7, rel, `cannot read ${url}: ${e.message}`); });
      } else {
        const res = await fetch(url).catch((e) => { throw new TiledError(-7, rel, `cannot fetch ${url}: ${e.message}`); });
        if (!res.ok) throw new TiledError(-7, rel, `cannot fetch ${url} (HTTP ${res.status})`);
        v = await res.text();
      }
    }
    if (v === undefined) throw new TiledError(-7, rel, `external file '${rel}': give it in options.files, options.load or options.url`);
    const parsed = typeof v === "string" ? parseJson(v, rel, `'${rel}'`) : v;
    if (parsed !== null && typeof parsed === "object") checkDepth(parsed, rel);
    // as the C loader: a file the map names must be a JSON object (a tileset, a template);
    // 42, [] or null would otherwise be read as a tileset without tiles (its collisions lost)
    if (!isObj(parsed)) {
      const got = parsed === null ? "null" : Array.isArray(parsed) ? "an array" : typeof parsed === "string" ? "a string" : `${typeof parsed} ${String(parsed)}`;
      throw parseErr(rel, `expected a JSON object at the top level (a Tiled tileset or template), got ${got}${typeof v === "string" ? "" : " from options.files or options.load"}`);
    }
    cache.set(key, parsed);
    return parsed;
  }

  // header (read_header)
  const type = getStr(root, "", "type");
  if (type !== null && type !== "map") throw parseErr("type", `expected a Tiled map, found type '${type}'`);
  const orient = getStr(root, "", "orientation");
  if (orient !== null && orient !== "orthogonal") throw new TiledError(-8, "orientation", `'${orient}' maps are not supported (only orthogonal)`);
  const infinite = getBool(root, "", "infinite", false);
  let W = getInt(root, "", "width", true, 0, -(2 ** 53), 2 ** 53), H = getInt(root, "", "height", true, 0, -(2 ** 53), 2 ** 53);
  const tw = getInt(root, "", "tilewidth", true, 0, 1, 1 << 16), th = getInt(root, "", "tileheight", true, 0, 1, 1 << 16);
  if (!infinite && (W < 1 || H < 1)) throw parseErr(W < 1 ? "width" : "height", `must be >= 1, found ${W < 1 ? W : H}`);
  if (!infinite) checkSize(W, H, "width", maxCells);

  // tilesets: terrain entries (in order; the last of equal gids wins) and shaped tiles
  const tgid = [], tter = [], tiles = [], sources = [];
  const pushTerrain = (gid, p, where) => {
    if (!p.hasBlock && !p.hasCost) return;
    if (gid >= MAX_TERRAIN_GID) throw new TiledError(-3, where, `tile gid ${gid} is past the terrain table limit ${MAX_TERRAIN_GID}`);
    tgid.push(gid);
    tter.push({ passable: !p.block, cost: p.hasCost ? Math.fround(p.cost) : 1 });
  };
  const tileProps = (props, where, gid) => {
    if (props === undefined) return;
    const p = { hasBlock: false, block: false, hasCost: false, cost: 1 };
    if (Array.isArray(props)) { // Tiled >= 1.2: [{name, type, value}]
      props.forEach((e, i) => {
        const pw = `${where}[${i}]`;
        if (!isObj(e)) throw parseErr(pw, `expected a property object, found ${jsonType(e)}`);
        const name = getStr(e, pw, "name");
        if (name === null) throw parseErr(pw, "property without a name");
        applyProp(name, e.value, `${pw}.value`, p);
      });
    } else if (isObj(props)) { // Tiled < 1.2: {name: value}
      for (const [k, v] of Object.entries(props)) applyProp(k, v, `${where}.${k}`, p);
    } else throw parseErr(where, `expected an array of properties, found ${jsonType(props)}`);
    pushTerrain(gid, p, where);
  };
  const readTile = (e, where, gid, tsw, tsh) => {
    if (collision & COLLIDE_PROPERTIES) tileProps(e.properties, `${where}.properties`, gid);
    const og = e.objectgroup;
    if (og === undefined || !(collision & (COLLIDE_TILE_SHAPES | COLLIDE_OBJECT_LAYERS))) return;
    // image-collection tilesets: each tile has its own image size
    let iw = getInt(e, where, "imagewidth", false, tsw, 0, 1 << 16), ih = getInt(e, where, "imageheight", false, tsh, 0, 1 << 16);
    if (iw < 1 || ih < 1) { iw = tw; ih = th; } // no size anywhere: the map's
    const ogw = `${where}.objectgroup`;
    if (!isObj(og)) throw parseErr(ogw, `expected an object layer, found ${jsonType(og)}`);
    const objs = og.objects;
    if (objs === undefined) return;
    if (!Array.isArray(objs)) throw parseErr(`${ogw}.objects`, `expected an array, found ${jsonType(objs)}`);
    const shapes = [];
    objs.forEach((ob, i) => {
      const ow = `${ogw}.objects[${i}]`;
      if (!isObj(ob)) throw parseErr(ow, `expected an object, found ${jsonType(ob)}`);
      const s = readShape(ob, ow, false);
      if (s) shapes.push(s);
    });
    if (shapes.length) tiles.push({ gid, iw, ih, shapes, cell: false, blocks: false, render });
  };
  const keyId = (k, where, maxId) => { // a tile id written as an object key (C's strtoll)
    const v = /^[\t\n\v\f\r ]*[+-]?\d+$/.test(k) ? parseInt(k, 10) : NaN;
    if (!(v >= 0 && v <= maxId)) throw parseErr(where, `tile id must be a whole number in [0, ${maxId}]`);
    return Object.is(v, -0) ? 0 : v;
  };
  let render = RENDER_TILE; // of the tileset being read
  const readTileset = (ts, base, firstgid) => {
    getInt(ts, base, "tilecount", false, 0, 0, 1 << 28);
    getInt(ts, base, "columns", false, 0, 0, 1 << 28);
    const tsw = getInt(ts, base, "tilewidth", false, 0, 0, 1 << 16), tsh = getInt(ts, base, "tileheight", false, 0, 0, 1 << 16);
    getInt(ts, base, "margin", false, 0, 0, 1 << 16);
    getInt(ts, base, "spacing", false, 0, 0, 1 << 16);
    getStr(ts, base, "name");
    getStr(ts, base, "image");
    // how the tiles are drawn on tile layers (Tiled 1.9): own size, or scaled onto the cell
    const trs = getStr(ts, base, "tilerendersize"), fill = getStr(ts, base, "fillmode");
    if (trs !== null && trs !== "tile" && trs !== "grid")
      throw parseErr(pathKey(base, "tilerendersize"), `expected "tile" or "grid", found "${trs.slice(0, 40)}"`);
    if (fill !== null && fill !== "stretch" && fill !== "preserve-aspect-fit")
      throw parseErr(pathKey(base, "fillmode"), `expected "stretch" or "preserve-aspect-fit", found "${fill.slice(0, 40)}"`);
    render = trs === "grid" ? (fill === "preserve-aspect-fit" ? RENDER_FIT : RENDER_STRETCH) : RENDER_TILE;
    const maxId = 0x0fffffff - firstgid;
    const t = ts.tiles;
    if (t !== undefined && !Array.isArray(t) && !isObj(t))
      throw parseErr(pathKey(base, "tiles"), `expected an array (or, before Tiled 1.2, an object keyed by tile id), found ${jsonType(t)}`);
    if (Array.isArray(t)) t.forEach((e, i) => { // Tiled >= 1.2: [{id, ...}]
      const tb = `${pathKey(base, "tiles")}[${i}]`;
      if (!isObj(e)) throw parseErr(tb, `expected a tile object, found ${jsonType(e)}`);
      readTile(e, tb, firstgid + getInt(e, tb, "id", true, 0, 0, maxId), tsw, tsh);
    });
    else if (isObj(t)) for (const [k, e] of Object.entries(t)) { // Tiled < 1.2: {"id": {...}}
      const tb = `${pathKey(base, "tiles")}.${k}`, id = keyId(k, tb, maxId);
      if (!isObj(e)) throw parseErr(tb, `expected a tile object, found ${jsonType(e)}`);
      readTile(e, tb, firstgid + id, tsw, tsh);
    }
    const legacy = ts.tileproperties;
    if (legacy !== undefined && (collision & COLLIDE_PROPERTIES)) {
      if (!isObj(legacy)) throw parseErr(pathKey(base, "tileproperties"), `expected an object, found ${jsonType(legacy)}`);
      for (const [k, e] of Object.entries(legacy)) {
        const tb = `${pathKey(base, "tileproperties")}.${k}`, id = keyId(k, tb, maxId);
        if (!isObj(e)) throw parseErr(tb, `expected an object, found ${jsonType(e)}`);
        tileProps(e, tb, firstgid + id);
      }
    }
  };
  const tsArr = root.tilesets;
  if (tsArr !== undefined && !Array.isArray(tsArr)) throw parseErr("tilesets", `expected an array, found ${jsonType(tsArr)}`);
  for (let i = 0; i < (tsArr?.length ?? 0); i++) {
    const ts = tsArr[i], where = `tilesets[${i}]`;
    if (!isObj(ts)) throw parseErr(where, `expected a tileset object, found ${jsonType(ts)}`);
    const firstgid = getInt(ts, where, "firstgid", true, 0, 1, 0x0fffffff);
    const src = getStr(ts, where, "source");
    if (src === null) { readTileset(ts, where, firstgid); continue; }
    const path = joinPath(mapDir, src);
    sources.push({ path: normalise(path), firstgid });
    if (isXml(src)) throw new TiledError(-8, `${where}.source`, `external tileset '${src}' is Tiled XML, which the JavaScript loader does not read (export it as JSON, .tsj)`);
    const tj = await readFile(path);
    inFile(path, () => {
      if (typeof tj.type === "string" && tj.type !== "tileset") throw parseErr("type", `expected a tileset, found type '${tj.type}'`);
      readTileset(tj, "", firstgid);
    });
  }

  // finish_tiles: one-cell tiles whose shapes block get a blocking entry keeping the property cost
  const nprops = tgid.length, shapesOn = (collision & COLLIDE_TILE_SHAPES) !== 0;
  tiles.sort((a, b) => a.gid - b.gid);
  let oversize = false;
  for (const t of tiles) {
    t.cell = (t.render !== RENDER_TILE || (t.iw === tw && t.ih === th)) && t.gid < MAX_TERRAIN_GID;
    if (!t.cell) { oversize = oversize || shapesOn; continue; }
    const g = { w: 1, h: 1, tw, th, cells: new Uint8Array(1), bit: 1 };
    const place = tilePlace(t, t.gid, 0, 0, tw, th); // per gid: without flips, as C
    for (const s of t.shapes) { if (g.cells[0]) break; raster(toRaster(s, place), cover, g); }
    t.blocks = g.cells[0] !== 0;
  }
  if (shapesOn) {
    const lastProp = new Map();
    for (let i = 0; i < nprops; i++) lastProp.set(tgid[i], i);
    for (const t of tiles) {
      if (!t.cell || !t.blocks) continue;
      const p = { hasBlock: true, block: true, hasCost: false, cost: 1 };
      if (lastProp.has(t.gid)) { p.hasCost = true; p.cost = tter[lastProp.get(t.gid)].cost; }
      pushTerrain(t.gid, p, "tilesets");
    }
  }
  const findTile = (id) => { // the first of equal gids, as the C binary search
    let lo = 0, hi = tiles.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (tiles[mid].gid < id) lo = mid + 1; else hi = mid; }
    return lo < tiles.length && tiles[lo].gid === id ? tiles[lo] : null;
  };

  // layers, groups flattened in file order (flatten)
  const layers = [];
  const flatten = (arr, where) => {
    if (!Array.isArray(arr)) throw parseErr(where, `expected an array of layers, found ${jsonType(arr)}`);
    arr.forEach((l, i) => {
      const path = `${where}[${i}]`;
      if (!isObj(l)) throw parseErr(path, `expected a layer object, found ${jsonType(l)}`);
      const t = getStr(l, path, "type");
      getStr(l, path, "name");
      getBool(l, path, "visible", true);
      if (t === null) throw parseErr(`${path}.type`, "missing field");
      if (t === "group") { if (l.layers !== undefined) flatten(l.layers, `${path}.layers`); return; }
      if (t === "imagelayer") return;
      if (t !== "tilelayer" && t !== "objectgroup") throw parseErr(`${path}.type`, `unknown layer type '${t}' (expected tilelayer, objectgroup, group or imagelayer)`);
      if (layers.length >= MAX_LAYERS) throw new TiledError(-3, path, `more than ${MAX_LAYERS} layers`);
      layers.push({ node: l, path, tiles: t === "tilelayer" });
    });
  };
  if (root.layers === undefined) throw parseErr("layers", "missing field");
  flatten(root.layers, "layers");

  let ox = 0, oy = 0;
  if (infinite) { // chunk_bounds
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const L of layers) {
      if (!L.tiles) continue;
      const chunks = L.node.chunks;
      if (chunks === undefined) throw parseErr(`${L.path}.chunks`, "missing field (the map is infinite)");
      if (!Array.isArray(chunks)) throw parseErr(`${L.path}.chunks`, `expected an array, found ${jsonType(chunks)}`);
      for (const [i, ch] of chunks.entries()) {
        const base = `${L.path}.chunks[${i}]`;
        if (!isObj(ch)) throw parseErr(base, `expected a chunk object, found ${jsonType(ch)}`);
        const x = getInt(ch, base, "x", true, 0, -(2 ** 31), 2 ** 31 - 1), y = getInt(ch, base, "y", true, 0, -(2 ** 31), 2 ** 31 - 1);
        const w = getInt(ch, base, "width", true, 0, 1, MAX_DIM), h = getInt(ch, base, "height", true, 0, 1, MAX_DIM);
        x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + w); y1 = Math.max(y1, y + h);
      }
    }
    if (x0 === Infinity) { // no chunk at all: the declared size
      W = getInt(root, "", "width", true, 0, 1, MAX_DIM); H = getInt(root, "", "height", true, 0, 1, MAX_DIM);
    } else { W = x1 - x0; H = y1 - y0; ox = x0; oy = y0; }
    checkSize(W, H, "chunks", maxCells);
  }
  const cells = W * H;
  const ntile = layers.reduce((n, L) => n + L.tiles, 0);
  if (cells * (ntile || 1) > MAX_CELLS) // the C loader's max_layer_cells (2^28 by default)
    throw new TiledError(-3, "layers", ntile ? `${ntile} tile layers of ${W} x ${H} cells are past max_layer_cells (${MAX_CELLS})` : `a map of ${W} x ${H} cells is past max_layer_cells (${MAX_CELLS})`);

  // one tile layer's gids (read_tile_layer); check: only check that each data item can hold
  // its cells, as the C loader does for every tile layer before decoding any
  let decodedCells = 0;
  const layerData = async (data, enc, comp, count, where, dw, dh, check) => {
    if (count > MAX_CELLS || decodedCells > MAX_CELLS - count) throw new TiledError(-3, where, `the layers hold more than ${MAX_CELLS} cells in all (max_layer_cells)`);
    decodedCells += count;
    return decodeData(data, enc, comp, count, where, o, dw, dh, check);
  };
  const readTileLayer = async (L, check) => {
    const enc = getStr(L.node, L.path, "encoding"), comp = getStr(L.node, L.path, "compression");
    if (!infinite) {
      const lw = getInt(L.node, L.path, "width", false, W, 0, 2 ** 31 - 1), lh = getInt(L.node, L.path, "height", false, H, 0, 2 ** 31 - 1);
      if (lw !== W || lh !== H) throw parseErr(L.path, `layer is ${lw} x ${lh} cells, the map ${W} x ${H}`);
      return layerData(L.node.data, enc, comp, cells, `${L.path}.data`, W, H, check);
    }
    const gids = check ? null : new Uint32Array(cells);
    for (const [i, ch] of L.node.chunks.entries()) { // chunk_bounds checked x, y, width, height
      const x = ch.x - ox, y = ch.y - oy, w = ch.width, h = ch.height;
      const part = await layerData(ch.data, enc, comp, w * h, `${L.path}.chunks[${i}].data`, w, h, check);
      if (!check) for (let r = 0; r < h; r++) gids.set(part.subarray(r * w, (r + 1) * w), (y + r) * W + x);
    }
    return gids;
  };
  for (const L of layers) if (L.tiles) await readTileLayer(L, true);
  decodedCells = 0;

  // every tile layer's gids; the marks of oversize tiles and collision objects
  let marks = oversize ? new Uint8Array(cells) : null;
  const ensureMarks = () => (marks ??= new Uint8Array(cells));
  const tileLayers = [];
  const shift = translate(-ox * tw, -oy * th);
  const templates = new Map();
  const loadTemplate = async (rel, where) => { // load_template
    const path = normalise(joinPath(mapDir, rel));
    if (templates.has(path)) return templates.get(path);
    if (isXml(rel)) throw new TiledError(-8, where, `template '${rel}' is Tiled XML, which the JavaScript loader does not read (save it as .tj)`);
    const tj = await readFile(path);
    const t = inFile(path, () => {
      if (typeof tj.type === "string" && tj.type !== "template") throw parseErr("type", `expected a template, found type '${tj.type}'`);
      if (!isObj(tj.object)) throw parseErr("object", `expected the template's object, found ${jsonType(tj.object)}`);
      if (tj.object.template !== undefined) throw new TiledError(-8, "object.template", "a template cannot use another template");
      let tileset = null;
      if (tj.tileset !== undefined) {
        if (!isObj(tj.tileset)) throw parseErr("tileset", `expected {firstgid, source}, found ${jsonType(tj.tileset)}`);
        const firstgid = getInt(tj.tileset, "tileset", "firstgid", true, 0, 1, 0x0fffffff), src = getStr(tj.tileset, "tileset", "source");
        if (src === null) throw parseErr("tileset.source", "missing field");
        tileset = { firstgid, path: normalise(joinPath(dirOf(path), src)) }; // its folder: the template's
      }
      return { object: tj.object, tileset, path };
    });
    templates.set(path, t);
    return t;
  };
  const applyTemplate = async (ob, where) => { // apply_template
    const rel = getStr(ob, where, "template");
    if (rel === null) return ob;
    const t = await loadTemplate(rel, `${where}.template`);
    const m = structuredClone(t.object);
    for (const [k, v] of Object.entries(ob)) if (k !== "template") { delete m[k]; m[k] = structuredClone(v); }
    if (m.gid !== undefined && ob.gid === undefined && t.tileset) {
      const raw = inFile(t.path, () => checkInt(m.gid, "object.gid", 0, 0xffffffff)), id = (raw & ~FLAGS) >>> 0;
      if (id) {
        const src = sources.find((s) => s.path === t.tileset.path);
        if (id < t.tileset.firstgid) throw parseErr(`${where}.template`, `template '${t.path}': gid ${id} is below its tileset's firstgid ${t.tileset.firstgid}`);
        if (!src) throw parseErr(`${where}.template`, `template '${t.path}' uses tileset '${t.tileset.path}', which the map does not load`);
        if (src.firstgid + (id - t.tileset.firstgid) > 0x0fffffff) throw parseErr(`${where}.gid`, `template gid ${id} maps past the largest gid`);
        m.gid = ((src.firstgid + (id - t.tileset.firstgid)) | (raw & FLAGS)) >>> 0;
      }
    }
    return m;
  };
  const isMarker = (name) => typeof name === "string" && name !== "" && markers.includes(name.toLowerCase());
  const isCollisionLayer = (l) => {
    if (!(collision & COLLIDE_OBJECT_LAYERS)) return false;
    if (isMarker(l.name) || isMarker(l.class) || (typeof l.type === "string" && l.type !== "objectgroup" && isMarker(l.type))) return true;
    if (Array.isArray(l.properties)) return l.properties.some((p) => isObj(p) && p.value === true && isMarker(p.name));
    if (isObj(l.properties)) return Object.entries(l.properties).some(([k, v]) => v === true && isMarker(k));
    return false;
  };
  const rasterTile = (t, place, bit) => {
    const g = { w: W, h: H, tw, th, cells: marks, bit };
    for (const s of t.shapes) raster(toRaster(s, place), cover, g);
  };
  let collisionLayers = 0, collisionObjects = 0;
  for (const L of layers) {
    if (L.tiles) {
      const gids = await readTileLayer(L, false);
      if (marks && oversize) { // tiles of another size: their shapes from the cell's bottom-left
        let last = null, lastId = 0;
        for (let cy = 0; cy < H; cy++) for (let cx = 0; cx < W; cx++) {
          const raw = gids[cy * W + cx], id = (raw & ~FLAGS) >>> 0;
          if (!id) continue;
          if (!last || id !== lastId) { last = findTile(id); lastId = id; }
          if (!last || last.cell) continue;
          rasterTile(last, tilePlace(last, raw, cx, cy, tw, th), MK_SHAPES | MK_LAYER);
        }
      }
      tileLayers.push(gids);
    } else {
      const objs = L.node.objects;
      if (objs === undefined) continue;
      if (!Array.isArray(objs)) throw parseErr(`${L.path}.objects`, `expected an array, found ${jsonType(objs)}`);
      const collide = isCollisionLayer(L.node);
      collisionLayers += collide;
      for (const [i, raw0] of objs.entries()) {
        const where = `${L.path}.objects[${i}]`;
        if (!isObj(raw0)) throw parseErr(where, `expected an object, found ${jsonType(raw0)}`);
        const ob = await applyTemplate(raw0, where);
        checkObject(ob, where);
        if (!collide) continue;
        ensureMarks();
        const rawGid = typeof ob.gid === "number" ? ob.gid >>> 0 : 0;
        if ((rawGid & ~FLAGS) >>> 0) {
          const t = findTile((rawGid & ~FLAGS) >>> 0);
          if (!t) continue;
          const x = getNum(ob, where, "x", 0, -COORD, COORD), y = getNum(ob, where, "y", 0, -COORD, COORD);
          let w = getNum(ob, where, "width", 0, 0, COORD), h = getNum(ob, where, "height", 0, 0, COORD);
          const rot = getNum(ob, where, "rotation", 0, -COORD, COORD);
          let { m, fw, fh } = flipAffine(rawGid, t.iw, t.ih);
          if (!(w > 0)) w = fw;
          if (!(h > 0)) h = fh;
          m = then(m, { a: w / fw, b: 0, c: 0, d: h / fh, e: x, f: y - h });
          m = then(m, rotateAbout(rot, x, y));
          m = then(m, shift);
          collisionObjects++;
          rasterTile(t, m, MK_OBJECTS | MK_LAYER);
          continue;
        }
        const s = readShape(ob, where, true);
        if (!s) continue;
        collisionObjects++;
        raster(toRaster(s, shift), cover, { w: W, h: H, tw, th, cells: marks, bit: MK_OBJECTS | MK_LAYER });
      }
    }
  }

  // the generated collision layer and its blocking entry (replacing any a tileset gave)
  if (marks && marks.some((m) => m & MK_LAYER)) {
    const gids = new Uint32Array(cells);
    for (let i = 0; i < cells; i++) if (marks[i] & MK_LAYER) gids[i] = COLLISION_GID;
    tileLayers.push(gids);
    tgid.push(COLLISION_GID);
    tter.push({ passable: false, cost: 1 });
  }

  // the map's terrain: blocked when any layer holds a blocking gid, else the largest cost
  const entry = new Map();
  for (let i = 0; i < tgid.length; i++) entry.set(tgid[i], tter[i]);
  const maxGid = Math.min(MAX_TERRAIN_GID, tgid.reduce((m, g) => Math.max(m, g + 1), 1));
  const ePass = new Int8Array(maxGid).fill(-1), eCost = new Float32Array(maxGid);
  for (const [g, t] of entry) { ePass[g] = t.passable ? 1 : 0; eCost[g] = t.cost; }
  const passable = new Uint8Array(cells).fill(1), cost = new Float32Array(cells).fill(-Infinity);
  for (const gids of tileLayers)
    for (let i = 0; i < cells; i++) {
      const id = (gids[i] & ~FLAGS) >>> 0;
      if (!id || id >= maxGid) continue;
      const p = ePass[id];
      if (p === 0) passable[i] = 0;
      else if (p === 1 && eCost[id] > cost[i]) cost[i] = eCost[id];
    }
  for (let i = 0; i < cells; i++) cost[i] = passable[i] ? (cost[i] === -Infinity ? 1 : cost[i]) : Infinity;
  let blocked = 0;
  for (let i = 0; i < cells; i++) blocked += passable[i] ? 0 : 1;
  return {
    width: W, height: H, tileWidth: tw, tileHeight: th, passable, cost,
    origin: { x: ox, y: oy },
    report: { cellsBlocked: blocked, collisionLayers, collisionObjects },
  };
}
