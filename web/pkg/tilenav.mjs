// tilenav for JavaScript: tile maps, shortest paths, flow fields and crowds, running the C
// library compiled to WebAssembly (tilenav.wasm, next to this file). No dependencies; works in
// browsers (ES modules) and in Node.js 18+.
//
//   import { init, TileMap, PathFinder, FlowField, Hierarchy, SectorField, Crowd, ... } from "tilenav";
//   await init();                                  // once, before anything else
//   const map = TileMap.fromArray([0, 0, 1, 0], 2); // 2x2 cells, value 1 = wall
//   const pf = new PathFinder(map);
//   pf.find({ x: 0, y: 0 }, { x: 0, y: 1 }).path;    // [{x: 0, y: 0}, {x: 0, y: 1}]
//
// Every object made here holds memory inside the WebAssembly instance: call free() when done.
// An object garbage-collected without free() has that memory released too (a
// FinalizationRegistry), but when is up to the engine. See README.md for the whole API.

import { decodeTiled, TiledError } from "./tiled.mjs";

let wasm = null; // the instance's exports once init() has run
let initPromise = null;

const STATUS = {
  0: "ok", 1: "partial", 2: "no path", 3: "in progress", 4: "closest",
  [-1]: "invalid argument", [-2]: "out of memory", [-3]: "too large",
  [-4]: "buffer too small", [-5]: "stale id", [-6]: "parse error", [-7]: "io error",
  [-8]: "unsupported", [-9]: "out of map", [-10]: "start blocked", [-11]: "goal blocked",
  [-12]: "map changed", [-13]: "full", [-14]: "not found", [-15]: "state",
};

/** An error from the library: `status` is the C status code (negative), `message` its name. */
export class TilenavError extends Error {
  constructor(status, what) {
    super(`${what}: ${STATUS[status] ?? `status ${status}`}`);
    this.name = "TilenavError";
    this.status = status;
  }
}

function check(status, what) {
  if (status < 0) throw new TilenavError(status, what);
  return status;
}

function api() {
  if (!wasm) throw new TilenavError(-15, "tilenav: call `await init()` first");
  return wasm;
}

// WASI imports: the library makes no system calls in its release build, but a module built
// with asserts on would print and abort through these.
function wasiImports(getMemory) {
  const enosys = () => 52;
  return new Proxy({
    fd_write(fd, iovs, iovsLen, nwritten) {
      const mem = new DataView(getMemory().buffer);
      let text = "", total = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = mem.getUint32(iovs + 8 * i, true), len = mem.getUint32(iovs + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(getMemory().buffer, ptr, len));
        total += len;
      }
      (fd === 2 ? console.error : console.log)(text.replace(/\n$/, ""));
      mem.setUint32(nwritten, total, true);
      return 0;
    },
    proc_exit(code) { throw new Error(`tilenav: aborted (exit ${code})`); },
    environ_sizes_get(count, size) {
      const mem = new DataView(getMemory().buffer);
      mem.setUint32(count, 0, true); mem.setUint32(size, 0, true);
      return 0;
    },
    environ_get: () => 0,
  }, { get: (t, k) => (k in t ? t[k] : enosys) });
}

async function loadBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source instanceof URL ? source : new URL(source, import.meta.url);
  if (url.protocol === "file:") { // Node.js: fetch() cannot read files
    // a name in a variable: bundlers for the browser leave this import alone
    const fsModule = "node:fs/promises";
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`tilenav: cannot load ${url} (HTTP ${res.status})`);
  return res.arrayBuffer();
}

/**
 * Load and start the WebAssembly module. Call once (later calls return the same promise).
 * @param {string|URL|ArrayBuffer|Uint8Array|WebAssembly.Module} [source] where tilenav.wasm is;
 *        default: next to this file.
 * @returns {Promise<{version: string}>}
 */
export function init(source) {
  if (!(source == null || typeof source === "string" || source instanceof URL || source instanceof ArrayBuffer ||
    ArrayBuffer.isView(source) || source instanceof WebAssembly.Module))
    return Promise.reject(new TypeError(`tilenav: init: source must be where tilenav.wasm is (a URL or a string of one, an ArrayBuffer, a Uint8Array or a WebAssembly.Module), got ${shown(source)}`));
  if (!initPromise) {
    initPromise = (async () => {
      let memory = null;
      const imports = { wasi_snapshot_preview1: wasiImports(() => memory) };
      let instance;
      if (source instanceof WebAssembly.Module) {
        instance = await WebAssembly.instantiate(source, imports);
      } else {
        const bytes = await loadBytes(source ?? new URL("./tilenav.wasm", import.meta.url));
        ({ instance } = await WebAssembly.instantiate(bytes, imports));
      }
      memory = instance.exports.memory;
      instance.exports._initialize?.();
      wasm = instance.exports;
      return { version: version() };
    })();
    initPromise.catch(() => { initPromise = null; }); // a failed load may be retried
  }
  return initPromise;
}

/** The C library's version string, e.g. "0.1.0". */
export function version() {
  return cString(api().tnw_version());
}

function cString(ptr) {
  const bytes = new Uint8Array(api().memory.buffer, ptr);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
}

// A scratch block in the module's memory, freed by the caller. Views into memory.buffer must be
// made after every call that may grow memory, so helpers below always make fresh ones.
function alloc(bytes) {
  const p = api().tnw_alloc(bytes);
  if (!p) throw new TilenavError(-2, "alloc");
  return p;
}
const i32 = () => new Int32Array(api().memory.buffer);
const f32 = () => new Float32Array(api().memory.buffer);
const f64 = () => new Float64Array(api().memory.buffer);
const u8 = () => new Uint8Array(api().memory.buffer);

function withScratch(bytes, fn) {
  const p = alloc(bytes);
  try { return fn(p); } finally { api().tnw_free(p); }
}

function cellsToArray(ptr, n) {
  const v = i32(), out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = { x: v[(ptr >> 2) + 2 * i], y: v[(ptr >> 2) + 2 * i + 1] };
  return out;
}

function writeCells(ptr, cells) {
  const v = i32();
  cells.forEach((c, i) => { v[(ptr >> 2) + 2 * i] = c.x; v[(ptr >> 2) + 2 * i + 1] = c.y; });
}

const POINTS = { center: 0, some: 1, every: 2, "any-cell": 3, "all-cells": 4 };

// A sprite box argument, checked as the C library checks it (tn_tile_box: every field finite as
// a float, w and h > 0, the collision area none (areaW = areaH = 0) or both sides > 0), each
// rule named with the field and its value (the module only says "invalid argument").
function boxArg(b, what) {
  if (b === null || typeof b !== "object" || Array.isArray(b))
    throw new TilenavError(-1, `${what}: box must be {x, y, w, h, areaX?, areaY?, areaW?, areaH?} in pixels, got ${shown(b)}`);
  for (const k of ["x", "y", "w", "h", "areaX", "areaY", "areaW", "areaH"]) {
    const v = b[k];
    if (v === undefined && k.startsWith("area")) continue;
    if (typeof v !== "number" || !Number.isFinite(Math.fround(v)))
      throw new TilenavError(-1, `${what}: box.${k} must be a finite number of pixels, got ${shown(v)}`);
  }
  const F = Math.fround; // the module's floats
  for (const k of ["w", "h"])
    if (!(F(b[k]) > 0)) throw new TilenavError(-1, `${what}: box.${k} must be > 0 (the sprite's ${k === "w" ? "width" : "height"} in pixels), got ${b[k]}`);
  const aw = b.areaW ?? 0, ah = b.areaH ?? 0;
  if (!(F(aw) === 0 && F(ah) === 0) && !(F(aw) > 0 && F(ah) > 0))
    throw new TilenavError(-1, `${what}: box.areaW and box.areaH must both be > 0 (a collision area inside the sprite) or both 0 (none), got ${aw} and ${ah}`);
  return b;
}

function writeBox(p, b) {
  const v = f32(), o = p >> 2;
  [b.x, b.y, b.w, b.h, b.areaX ?? 0, b.areaY ?? 0, b.areaW ?? 0, b.areaH ?? 0].forEach((x, i) => { v[o + i] = x; });
}

const DIAGONAL = { "no-cut": 0, never: 1, "4": 1, one: 2, "corner-cut": 2, always: 3 };
const ALGO = { astar: 0, "a*": 0, dijkstra: 1, jps: 2 };
const HEURISTIC = { auto: 0, manhattan: 1, euclidean: 2, octile: 3, diagonal: 3, chebyshev: 4, zero: 5 };
const FLOW = { optimal: 0, steepest: 1 };
const LOS = { off: 0, exact: 1, simple: 2 };
const TARGET = { none: 0, seek: 1, arrive: 2, flee: 3, flow: 4 };
// The crowd's behaviours, in the order of the library's weight arrays (tn_behaviour).
const BEHAVIOUR = { target: 0, separation: 1, cohesion: 2, alignment: 3, avoidAgents: 4, avoidWalls: 5, wander: 6 };
// The largest finite float32: an agent's weights and distances are float32 in the library.
const F32_MAX = 3.4028234663852886e38;
// The crowd's limits (crowd.h): TN_CROWD_MAX_WEIGHT, _SPEED and _FORCE. Past them a step's
// forces could overflow a float and turn positions into NaN.
const CROWD_MAX_WEIGHT = 1e6, CROWD_MAX_SPEED = 1e9, CROWD_MAX_FORCE = 1e12;

// A behaviour's number from its name (exactly as in BEHAVIOUR; TypeError otherwise).
function behaviourOf(name, what) {
  if (typeof name !== "string" || !Object.hasOwn(BEHAVIOUR, name))
    throw new TypeError(`tilenav: ${what}: unknown behaviour ${shown(name)} (${Object.keys(BEHAVIOUR).join(", ")})`);
  return BEHAVIOUR[name];
}

// An agent's `weights` option: {values, mask}, values[b] for each behaviour b named (bit b of
// mask), the others left to the library's defaults.
function agentWeights(w, what) {
  const values = [0, 0, 0, 0, 0, 0, 0];
  let mask = 0;
  if (w === undefined) return { values, mask };
  const proto = w !== null && typeof w === "object" ? Object.getPrototypeOf(w) : undefined;
  if (proto !== Object.prototype && proto !== null) // a Map, an array, a class instance: its entries are not own properties
    throw new TypeError(`tilenav: ${what}: weights must be a plain object {behaviour: weight}, got ${shown(w)}`);
  knownOptions(w, "weights", `${what}: weights`);
  for (const [name, v] of Object.entries(w)) {
    if (v === undefined) continue;
    const b = BEHAVIOUR[name];
    values[b] = numArg(v, what, `weights.${name}`, { min: -CROWD_MAX_WEIGHT, max: CROWD_MAX_WEIGHT });
    mask |= 1 << b;
  }
  return { values, mask };
}

const CROWD_MAX_FLOWS = 256, CROWD_MAX_NEIGHBOURS = 64, INT32_MIN = -0x80000000;

// A crowd's tuning knobs (tn_crowd_def), as the glue's tnw_crowd_create() takes them: `ints`
// = maxNeighbours, maxScan, denseNeighbours, combine, maxFlows, periods[7]; `floats` =
// similarGoalDistance, avoidLookAhead, wallLookAhead, wanderDistance, wanderRadius,
// wanderJitter, flockBrake. Unset: INT32_MIN and NaN (the library's defaults).
function crowdKnobs(o, what) {
  const int = (k, min, max) => numArg(o[k], what, k, { min, max, int: true }, INT32_MIN);
  const ints = [int("maxNeighbours", 1, CROWD_MAX_NEIGHBOURS), int("maxScan", 0, INT32_MAX),
    int("denseNeighbours", 0, INT32_MAX), pick({ weighted: 0, prioritized: 1 }, o.combine, `${what}: combine`, INT32_MIN),
    INT32_MIN, ...new Array(7).fill(INT32_MIN)];
  if (o.periods !== undefined) {
    const p = o.periods, proto = p !== null && typeof p === "object" ? Object.getPrototypeOf(p) : undefined;
    if (proto !== Object.prototype && proto !== null)
      throw new TypeError(`tilenav: ${what}: periods must be a plain object {behaviour: steps}, got ${shown(p)}`);
    knownOptions(p, "periods", `${what}: periods`);
    for (const [name, v] of Object.entries(p))
      if (v !== undefined) ints[5 + BEHAVIOUR[name]] = numArg(v, what, `periods.${name}`, { min: 1, max: 1024, int: true });
  }
  const real = (k, opts) => numArg(o[k], what, k, { max: F32_MAX, ...opts }, NaN);
  const floats = [real("similarGoalDistance", { min: 0 }), real("avoidLookAhead", { min: 0, gt: true }),
    real("wallLookAhead", { min: 0 }), real("wanderDistance", { min: -F32_MAX }), real("wanderRadius", { min: -F32_MAX }),
    real("wanderJitter", { min: -F32_MAX }), real("flockBrake", { min: 0, max: 1 })];
  return { ints, floats };
}

function pick(table, value, what, dflt) {
  if (value === undefined) return dflt;
  const k = table[String(value).toLowerCase()];
  if (k === undefined) throw new TypeError(`tilenav: unknown ${what} "${value}" (${Object.keys(table).join(", ")})`);
  return k;
}

// A number argument or option `name`: a finite number (`int`: an integer) from `min` to `max`
// (`gt`: above `min`); undefined gives `dflt` when there is one. Anything else (NaN, a string,
// out of range) throws a TilenavError (invalid argument) naming it, the rule and the value.
function numArg(v, what, name, { min = -Infinity, max = Infinity, gt = false, int = false }, dflt) {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v === "number" && (int ? Number.isInteger(v) : Number.isFinite(v)) && (gt ? v > min : v >= min) && v <= max) return v;
  const range = max < Infinity ? (gt ? ` > ${min} and <= ${max}` : ` from ${min} to ${max}`) : gt ? ` > ${min}` : min > -Infinity ? ` >= ${min}` : "";
  throw new TilenavError(-1, `${what}: ${name} must be ${int ? "an integer" : "a finite number"}${range}, got ${shown(v)}`);
}

const INT32_MAX = 0x7fffffff;
// A count of steps to run (default 1; 0 runs none): the module takes an int32.
const stepCount = (steps, what) => numArg(steps, what, "steps", { min: 0, max: INT32_MAX, int: true }, 1);

// A unit's size: an n x n square of cells, 1..255 (default 1).
const unitSize = (size, what) => numArg(size, what, "size", { min: 1, max: 255, int: true }, 1);

// A cell coordinate argument `name` (x, y, width, ...): an integer, else a TilenavError (invalid
// argument) naming it. Never handed to the module unchecked: its int32 parameters would read
// NaN, "1" or 0.5 as 0 or 1, and 2^32 + 1 as 1 (another cell).
function cellCoord(v, what, name) {
  if (!Number.isInteger(v)) throw new TilenavError(-1, `${what}: a cell coordinate must be an integer, got ${name} = ${shown(v)}`);
  return v;
}

// Is the cell (x, y) inside `m` (a map, or anything with its width and height)?
const inside = (m, x, y) => x >= 0 && y >= 0 && x < m.width && y < m.height;

// The arguments x and y of a method reading one cell: integers (cellCoord()); returns whether
// the cell is inside `m`. Every such method checks here before the module is called.
function xyIn(m, x, y, what) {
  cellCoord(x, what, "x");
  cellCoord(y, what, "y");
  return inside(m, x, y);
}

// The TilenavError "out of map" for cell (x, y), `name` in `what`, naming the map's size.
const outOfMap = (m, x, y, what, name) =>
  new TilenavError(-9, `${what}: ${name} {x: ${x}, y: ${y}} is outside the ${m.width}x${m.height} map`);

// A true/false option `name` of `what` (undefined: `dflt`): anything else throws, so that
// "no" or 0 is not read as a flag.
function flagOption(v, what, name, dflt) {
  if (v === undefined) return dflt;
  if (typeof v !== "boolean") throw new TilenavError(-1, `${what}: ${name} must be true or false, got ${shown(v)}`);
  return v;
}

// A map argument: a TileMap (TypeError otherwise, e.g. a cell or a string given for it), live;
// returns its handle.
function mapArg(map, what) {
  if (!(map instanceof TileMap)) throw new TypeError(`tilenav: ${what}: map must be a TileMap, got ${shown(map)}`);
  return liveHandle(map, "TileMap");
}

function liveHandle(obj, name) {
  if (!obj._h) throw new TilenavError(-15, `tilenav: ${name} used after free()`);
  return obj._h;
}

// liveHandle() of an object that reads a map (obj.map): the map must be live too, or the object
// would read freed memory, or another map made there since.
function liveOn(obj, name) {
  const h = liveHandle(obj, name);
  if (obj.map) liveHandle(obj.map, "TileMap");
  return h;
}

// ---- memory the objects own in the module ---------------------------------------------------
// Each class that owns module memory keeps its handles in a plain record, `this._o` (the fields
// named in owning() read and write it), and a release function frees what a record holds. free()
// releases at once. An object garbage-collected without free() is released by this registry,
// which keeps the record (never the object) and hands it to the release function: a safety net
// for code that drops objects (the PathFinding.js habit of a grid.clone() per search), run when
// the engine decides, so free() stays the way to give memory back promptly. Objects that read
// another's memory (a field its map, a sector field its hierarchy) hold that object, so it is
// never collected before them; the release functions read only their own record.
const collector = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry(({ release, o }) => { try { if (wasm) release(o); } catch { /* nothing to report to */ } })
  : null;

function owning(cls, keys) {
  for (const k of keys)
    Object.defineProperty(cls.prototype, k, { get() { return this._o[k]; }, set(v) { this._o[k] = v; }, configurable: true });
}

// Register a made object: release(obj._o) runs if it is collected without free().
function track(obj, release) { collector?.register(obj, { release, o: obj._o }, obj._o); }

// free(): release now, and no more at collection.
function untrack(obj, release) {
  collector?.unregister(obj._o);
  release(obj._o);
}

/** Bytes of the WebAssembly instance's memory (it grows when needed and never shrinks; freed
 *  objects' blocks are reused). */
export function memoryBytes() { return api().memory.buffer.byteLength; }

// A value in an error message: strings, arrays and plain objects as JSON, the rest as String().
function shown(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (v !== null && typeof v === "object") {
    try { return JSON.stringify(v) ?? String(v); } catch { return String(v); }
  }
  return String(v);
}

// Every option object's known names, listed once: a name not listed (a typo such as `sise`)
// throws a TypeError (README, Errors). Undefined values count as absent, as everywhere.
const OPTIONS = {
  TileMap: ["width", "height", "cells", "tileWidth", "tileHeight", "tileSize", "costs", "blocked"],
  PathFinder: ["maxCells"],
  fromText: ["wall", "tileWidth", "tileHeight", "tileSize", "costs", "blocked"],
  find: ["algo", "diagonal", "heuristic", "weight", "stepCosts", "closest", "size", "regions"],
  region: ["size", "diagonal"],
  FlowField: ["diagonal", "flow", "lineOfSight", "size"],
  Hierarchy: ["sectorSize", "diagonal", "stepCosts", "landmarks", "portalGap", "size"],
  hierarchyFind: ["exact", "weight"],
  SectorField: ["budget"],
  Crowd: ["capacity", "dt", "seed", "pushApart", "neighbourRadius", "maxNeighbours", "maxScan", "denseNeighbours",
    "similarGoalDistance", "avoidLookAhead", "wallLookAhead", "wanderDistance", "wanderRadius", "wanderJitter",
    "periods", "combine", "flockBrake", "maxFlows"],
  periods: ["target", "separation", "cohesion", "alignment", "avoidAgents", "avoidWalls", "wander"],
  agent: ["x", "y", "radius", "maxSpeed", "maxForce", "target", "goal", "flow", "size", "slowRadius", "arriveRadius", "arriveArea", "weights"],
  weights: ["target", "separation", "cohesion", "alignment", "avoidAgents", "avoidWalls", "wander"],
  Marbles: ["map", "width", "height", "capacity", "restitution"],
  AngleCar: ["width", "height", "tileWidth", "tileHeight", "tileSize", "angles", "friction", "x", "y", "rotation", "jitter", "seed"],
  GridWanderer: ["speed", "seed"],
};
const OPTION_SETS = Object.fromEntries(Object.entries(OPTIONS).map(([k, v]) => [k, new Set(v)]));

// Check that `o` (an options object; undefined = none) names only known options of `kind`.
function knownOptions(o, kind, what) {
  if (o === undefined) return;
  if (o === null || typeof o !== "object") throw new TypeError(`tilenav: ${what}: options must be an object, got ${shown(o)}`);
  const known = OPTION_SETS[kind];
  for (const k of Object.keys(o))
    if (!known.has(k)) throw new TypeError(`tilenav: ${what}: unknown option ${JSON.stringify(k)} (${OPTIONS[kind].join(", ")})`);
}

// A cell argument: an object with integer x and y (TilenavError "invalid argument" otherwise:
// an array, {col, row}, "1" or 1.5 would be read as another cell). Returns it unchanged.
function cellOf(c, what, name) {
  if (c === null || typeof c !== "object" || Array.isArray(c) || !("x" in c) || !("y" in c))
    throw new TilenavError(-1, `${what}: ${name} must be a cell {x, y}, got ${shown(c)}`);
  cellCoord(c.x, `${what}: ${name}`, "x");
  cellCoord(c.y, `${what}: ${name}`, "y");
  return c;
}

// cellOf() and inside the map (TilenavError "out of map" naming the cell and the map's size).
function cellIn(map, c, what, name) {
  cellOf(c, what, name);
  if (!inside(map, c.x, c.y)) throw outOfMap(map, c.x, c.y, what, name);
  return c;
}

// An array of cells, each checked (`name i` in messages).
function cellList(cells, what, name) {
  if (!Array.isArray(cells)) throw new TilenavError(-1, `${what}: ${name}s must be an array of cells {x, y}, got ${shown(cells)}`);
  cells.forEach((c, i) => cellOf(c, what, `${name} ${i}`));
  return cells;
}

const MAX_DIM = 65536, MAX_CELLS = 2 ** 28; // the C library's largest map (TN_MAX_DIM, TN_MAX_CELLS)
// What a TileMap costs in the module while it is made: 17 bytes a cell (measured: the map's
// layer, passability and costs, and the cell values passed in). The module's memory is at most
// 4 GiB, so a bigger map cannot be made at all: refused before anything is allocated.
const MAP_BYTES_PER_CELL = 17, MODULE_MAX_CELLS = Math.floor(2 ** 32 / MAP_BYTES_PER_CELL);

/** The largest cell value: the C terrain table describes gids below 2^22 (TN_MAX_TERRAIN_GID),
 *  gid 0 is "empty", and the glue stores value v as gid v + 1. */
export const MAX_CELL_VALUE = 4194302;

// A cell value (a cell's, a `costs` key's, a `blocked` entry's, set()'s): an integer from 0 to
// MAX_CELL_VALUE. Not an integer: TypeError; out of range: TilenavError "too large" (never
// stored modulo 2^32, as a Uint32Array would). Both name the range. Returns the number.
function cellValue(v, what) {
  const range = `a cell value is an integer from 0 to ${MAX_CELL_VALUE}`;
  if (typeof v !== "number" || !Number.isInteger(v)) throw new TypeError(`tilenav: ${what} is ${shown(v)}: ${range}`);
  if (v < 0) throw new TypeError(`tilenav: ${what} is ${v}: ${range}`);
  if (v > MAX_CELL_VALUE) {
    const id = v <= 0xffffffff && v >= 2 ** 28 ? v % 2 ** 28 : -1; // Tiled's flip flags are the top 4 bits
    const hint = id >= 0 && id <= MAX_CELL_VALUE
      ? ` (a Tiled gid with flip flags? TileMap.fromTiled() reads Tiled maps; or strip them: gid & 0x0fffffff = ${id})` : "";
    throw new TilenavError(-3, `${what} is ${v}, above the largest cell value, ${MAX_CELL_VALUE}${hint}`);
  }
  return v;
}

// TileMap's `costs` option: {value: cost} (or a Map value -> cost), each cost a number >= 0
// (0 or Infinity: blocked). Returns a Map of checked entries.
// The largest finite cost of a cell (the C library's TN_MAX_COST: a path over a whole map stays
// finite in the 32-bit sums of fields and the hierarchy).
const MAX_COST = 1e28;
// The largest finite 32-bit float: the largest speed of a marble (the map's circle mover works
// in floats).
const MAX_SPEED = 3.4028234663852886e38;

function costsArg(costs) {
  const out = new globalThis.Map();
  if (costs === undefined) return out;
  if (costs === null || typeof costs !== "object")
    throw new TypeError(`tilenav: TileMap: costs must be an object {value: cost}, got ${shown(costs)}`);
  const entries = costs instanceof globalThis.Map ? [...costs].map(([k, v]) => [k, v, k]) : Object.entries(costs).map(([k, v]) => [/^-?\d+$/.test(k) ? Number(k) : k, v, k]);
  for (const [k, v, key] of entries) {
    const value = cellValue(k, `TileMap: costs key ${shown(key)}`);
    if (typeof v !== "number" || Number.isNaN(v) || v < 0)
      throw new TypeError(`tilenav: TileMap: the cost of value ${value} must be a number >= 0 (0 or Infinity = blocked), got ${typeof v === "number" ? v : `${v === null ? "null" : typeof v} ${shown(v)}`}`);
    if (v > MAX_COST && v !== Infinity)
      throw new TypeError(`tilenav: TileMap: the cost of value ${value} is ${v}, past the largest finite cost a cell can have (1e28, the C library's TN_MAX_COST; Infinity blocks)`);
    out.set(value, v);
  }
  return out;
}

// TileMap's `blocked` option: the values that block, an array (or any iterable of numbers but a
// string). Returns a Set of checked values.
function blockedArg(blocked) {
  if (blocked === undefined) return new Set();
  if (blocked === null || typeof blocked !== "object" || typeof blocked[Symbol.iterator] !== "function")
    throw new TypeError(`tilenav: TileMap: blocked must be an array of cell values (the values that block), got ${shown(blocked)}`);
  const out = new Set(blocked);
  for (const b of out) cellValue(b, "TileMap: a blocked value");
  return out;
}

/**
 * A grid of width x height cells, each holding an integer value (a tile id). Each value has a
 * terrain entry: blocked, or passable with a cost multiplier for entering the cell.
 */
export class TileMap {
  /**
   * @param {object} o
   * @param {number} o.width cells
   * @param {number} o.height cells
   * @param {ArrayLike<number>} [o.cells] width*height values, row-major (default all 0)
   * @param {number} [o.tileWidth=32] pixels per cell (also tileSize for both)
   * @param {number} [o.tileHeight=32]
   * @param {Object<number, number>} [o.costs] value -> cost of entering such a cell
   *        (Infinity or 0 = blocked)
   * @param {number[]} [o.blocked] values that block. Values in neither list are passable at
   *        cost 1 — except when neither `costs` nor `blocked` is given: then 0 is floor and
   *        every other value is a wall.
   */
  constructor(o) {
    knownOptions(o ?? null, "TileMap", "TileMap");
    const { width, height } = o;
    // tile sides: whole pixels (the C map's are integers), the option given named when bad
    const side = (key) => (o[key] !== undefined ? key : "tileSize");
    const tileSide = (key) => numArg(o[key] ?? o.tileSize, "TileMap", side(key), { min: 1, max: INT32_MAX, int: true }, 32);
    const tw = tileSide("tileWidth"), th = tileSide("tileHeight");
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0))
      throw new TypeError("tilenav: width and height must be positive integers");
    const n = width * height;
    if (width > MAX_DIM || height > MAX_DIM || n > MAX_CELLS)
      throw new TilenavError(-3, `TileMap: a ${width} x ${height} map is larger than tilenav maps go (${MAX_DIM} cells a side, ${MAX_CELLS} cells)`);
    if (n > MODULE_MAX_CELLS)
      throw new TilenavError(-3, `TileMap: a ${width} x ${height} map needs about ${(n * MAP_BYTES_PER_CELL / 2 ** 30).toFixed(1)} GiB of the WebAssembly module's 4 GiB memory (${MAP_BYTES_PER_CELL} bytes a cell)`);
    if (o.cells && o.cells.length !== n)
      throw new TypeError(`tilenav: cells has ${o.cells.length} values, expected ${n}`);
    this.width = width;
    this.height = height;
    this.tileWidth = tw;
    this.tileHeight = th;
    this._costs = costsArg(o.costs);
    this._blocked = blockedArg(o.blocked);
    for (const [value, cost] of this._costs) // one terrain per value
      if (this._blocked.has(value))
        throw new TypeError(`tilenav: TileMap: value ${value} is in both costs (cost ${shown(cost)}) and blocked: give it one terrain (in costs, Infinity or 0 blocks)`);
    this._defaultWalls = !o.costs && !o.blocked;
    this._known = new Set();
    this._o = {
      _h: 0,
      _cl: null, // the clearance and size maps for units bigger than a cell (see _sizeMaps)
      _clOld: [], // replaced ones still read by flow fields
      _clInfo: null, // the clearance for clearance() and fits(), capped at 255
      _rg: [null, null], // regions for side-connected rules, for "always" (see _regions)
    };
    const w = api();
    const cellsPtr = alloc(4 * n), st = alloc(4);
    try {
      const v = new Uint32Array(w.memory.buffer, cellsPtr, n), seen = new Set([0]), cells = o.cells;
      if (!cells) v.fill(0);
      else {
        seen.clear();
        let last = NaN; // never === a cell
        for (let i = 0; i < n; i++) {
          const c = cells[i];
          if (c === last) { v[i] = c; continue; } // runs of one value: checked and seen once
          if (!(Number.isInteger(c) && c >= 0 && c <= MAX_CELL_VALUE)) cellValue(c, `TileMap: cell ${i} (x ${i % width}, y ${Math.floor(i / width)})`);
          v[i] = c;
          seen.add(c);
          last = c;
        }
      }
      this._h = w.tnw_map_create(width, height, tw, th, cellsPtr, st);
      check(i32()[st >> 2], "TileMap");
      track(this, releaseMap);
      for (const value of this._costs.keys()) seen.add(value);
      for (const value of this._blocked) seen.add(value);
      for (const value of seen) this._terrain(value);
    } catch (e) {
      if (this._h) { w.tnw_map_destroy(this._h); this._h = 0; } // no half-made map left behind
      throw e;
    } finally {
      w.tnw_free(cellsPtr);
      w.tnw_free(st);
    }
  }

  /** Shorthand: `TileMap.fromArray(cells, width, options)` (height = cells.length / width). */
  static fromArray(cells, width, options = {}) {
    knownOptions(options, "TileMap", "TileMap.fromArray");
    if (cells === null || typeof cells !== "object" || !Number.isInteger(cells.length))
      throw new TypeError(`tilenav: TileMap.fromArray: cells must be an array of cell values, got ${shown(cells)}`);
    if (!(Number.isInteger(width) && width > 0))
      throw new TypeError(`tilenav: TileMap.fromArray: width must be a positive integer, got ${shown(width)}`);
    if (cells.length === 0) throw new TypeError("tilenav: TileMap.fromArray: cells is empty (a map has at least one cell)");
    if (cells.length % width !== 0)
      throw new TypeError(`tilenav: TileMap.fromArray: cells has ${cells.length} values, not a multiple of the width ${width} (height = cells.length / width)`);
    return new TileMap({ ...options, cells, width, height: cells.length / width });
  }

  /** A map from rows of text: `wall` characters (default "#") block, anything else is floor.
   *  The cells hold 0 (floor) and 1 (wall). `costs` and `blocked` may give value 0 a cost or
   *  value 1 another terrain; a wall they do not name still blocks. */
  static fromText(rows, options = {}) {
    knownOptions(options, "fromText", "TileMap.fromText");
    const { wall, ...mapOptions } = options;
    if (mapOptions.costs !== undefined || mapOptions.blocked !== undefined) {
      // unlisted values cost 1 once costs or blocked is given: keep the walls walls
      const costs = costsArg(mapOptions.costs), blocked = blockedArg(mapOptions.blocked);
      if (!costs.has(1) && !blocked.has(1)) mapOptions.blocked = [...blocked, 1];
    }
    if (!(typeof rows === "string" || (Array.isArray(rows) && rows.every((r) => typeof r === "string"))))
      throw new TypeError(`tilenav: TileMap.fromText: rows must be a string or an array of strings, got ${shown(rows)}`);
    if (wall !== undefined && !(typeof wall === "string" && wall.length))
      throw new TypeError(`tilenav: TileMap.fromText: wall must be a string of the wall characters, got ${shown(wall)}`);
    const lines = (Array.isArray(rows) ? rows : rows.split("\n")).filter((r) => r.length);
    if (!lines.length)
      throw new TypeError(`tilenav: TileMap.fromText: the text is empty (${Array.isArray(rows) ? `${rows.length} rows, none with a character` : "no line with a character"}): a map needs at least one row of cells`);
    const width = Math.max(...lines.map((r) => r.length)), walls = wall ?? "#";
    lines.forEach((r, y) => {
      if (r.length !== width)
        throw new TypeError(`tilenav: TileMap.fromText: row ${y} has ${r.length} characters, row ${lines.findIndex((l) => l.length === width)} has ${width} (every row must be as wide; spell out the walls)`);
    });
    const cells = [];
    for (const r of lines) for (let x = 0; x < width; x++) cells.push(walls.includes(r[x] ?? walls[0]) ? 1 : 0);
    return new TileMap({ ...mapOptions, width, height: lines.length, cells });
  }

  /**
   * A map from a Tiled JSON map (.tmj/.json; text or parsed), read with the C loader's
   * conventions (tile properties, tile collision shapes, collision object layers, groups,
   * infinite maps, external tilesets and templates): the same passability and cost in every
   * cell as tn_map_load(). The cells hold one value per distinct (passable, cost) pair; the
   * decoded Tiled facts are on `map.tiled` ({origin, report}).
   * @param {string|object} json
   * @param {object} [options] see decodeTiled(): url, files, load, collision, cover,
   *        collisionLayers, decompress
   * @returns {Promise<TileMap>}
   */
  static async fromTiled(json, options = {}) {
    return TileMap.fromDecodedTiled(await TileMap.decodeTiled(json, options, MODULE_MAX_CELLS));
  }

  /** The passability and costs of a Tiled map as the C loader computes them, without making a
   *  map: {width, height, tileWidth, tileHeight, passable, cost, origin, report}. */
  static async decodeTiled(json, options = {}, maxCells = MAX_CELLS) {
    try {
      return await decodeTiled(json, options, maxCells);
    } catch (e) {
      if (e instanceof TiledError) throw Object.assign(new TilenavError(e.status, `Tiled map: ${e.message}`), { where: e.where });
      throw e;
    }
  }

  /** A TileMap from decodeTiled()'s result. */
  static fromDecodedTiled(d) {
    const n = d.width * d.height, cells = new Uint32Array(n), values = new globalThis.Map(), costs = {};
    let lastCost = NaN, lastValue = 0;
    for (let i = 0; i < n; i++) {
      const c = d.passable[i] ? d.cost[i] : Infinity;
      if (c === lastCost) { cells[i] = lastValue; continue; }
      let v = values.get(c);
      if (v === undefined) { v = values.size; values.set(c, v); costs[v] = c; }
      cells[i] = lastValue = v;
      lastCost = c;
    }
    const map = new TileMap({ width: d.width, height: d.height, tileWidth: d.tileWidth, tileHeight: d.tileHeight, cells, costs });
    map.tiled = { origin: d.origin, report: d.report };
    return map;
  }

  _terrain(value) {
    if (this._known.has(value)) return;
    let cost = 1;
    if (this._costs.has(value)) cost = this._costs.get(value);
    else if (this._blocked.has(value) || (this._defaultWalls && value !== 0)) cost = Infinity;
    if (typeof cost !== "number" || Number.isNaN(cost) || cost < 0)
      throw new TypeError(`tilenav: the cost of value ${value} must be a number >= 0 (0 or Infinity = blocked), got ${shown(cost)}`);
    const blocked = !(cost > 0 && Number.isFinite(cost));
    check(api().tnw_map_set_terrain(liveHandle(this, "TileMap"), value, blocked ? 0 : 1, blocked ? 1 : cost),
      `terrain of value ${value}`);
    this._known.add(value);
  }

  // Give `value` the terrain of `cost` (0 or Infinity: blocked) from now on: a change of the
  // whole map's passability, as a first set() of a new value is (for the compat wrappers).
  _setCost(value, cost) {
    this._costs.set(value, cost);
    this._known.delete(value);
    this._terrain(value);
  }

  // The cost the map gives cells of `value` (Infinity: blocked), as _terrain() defines it.
  _costOf(value) {
    if (this._costs.has(value)) {
      const c = this._costs.get(value);
      return c > 0 && Number.isFinite(c) ? c : Infinity;
    }
    return this._blocked.has(value) || (this._defaultWalls && value !== 0) ? Infinity : 1;
  }

  /**
   * A cell value that no cell, `costs` key, `blocked` entry or setTerrain() of the map has used:
   * the one above the largest in use (tn_map_free_gid()), and at least 2 on a map with the
   * default walls (no `costs` or `blocked`: every value but 0 a wall), where 1 stays a wall. For a game's own tiles on a map made
   * elsewhere (a Tiled map): give it a terrain with setTerrain(), or let terrainValue() do both.
   * TilenavError "full" when the largest cell value, MAX_CELL_VALUE, is in use.
   */
  freeValue() {
    liveHandle(this, "TileMap");
    // with the default walls (no costs, no blocked) every value but 0 is a wall, and 1 is the
    // customary one: it is never handed out, so a later set(x, y, 1) still builds a wall
    let max = this._defaultWalls ? 1 : -1;
    for (const v of this._known) if (v > max) max = v;
    if (max >= MAX_CELL_VALUE)
      throw new TilenavError(-13, `TileMap.freeValue: the map uses the largest cell value, ${MAX_CELL_VALUE} (a free value is the one above the largest in use)`);
    return max + 1;
  }

  /**
   * Give every cell of `value`, now and later, the terrain of `cost`: Infinity or 0 blocks, a
   * number > 0 is passable at that cost (tn_map_set_terrain()). The cells of that value change
   * at once (paths see it; call FlowField.update() for fields).
   */
  setTerrain(value, cost) {
    const what = "TileMap.setTerrain";
    liveHandle(this, "TileMap");
    cellValue(value, `${what}: value`);
    if (typeof cost !== "number" || Number.isNaN(cost) || cost < 0)
      throw new TypeError(`tilenav: ${what}(${value}, cost): cost must be a number >= 0 (0 or Infinity = blocked), got ${shown(cost)}`);
    if (cost > MAX_COST && cost !== Infinity)
      throw new TypeError(`tilenav: ${what}(${value}, cost): cost ${cost} is past the largest finite cost a cell can have (1e28, the C library's TN_MAX_COST; Infinity blocks)`);
    this._blocked.delete(value);
    this._setCost(value, cost);
  }

  /**
   * A cell value whose cells have the terrain of `cost` (default Infinity: they block; a
   * number > 0: passable at that cost), for set(), fill() and setRect(): the smallest value
   * the map gives that terrain already, else freeValue() given it (setTerrain()). The way to
   * place a wall (a tower) on a map from fromTiled(), whose values are numbered per
   * (passable, cost) pair in scan order: which value blocks differs per map, and a map with
   * no blocked cell has none.
   */
  terrainValue(cost = Infinity) {
    const what = "TileMap.terrainValue";
    liveHandle(this, "TileMap");
    if (typeof cost !== "number" || Number.isNaN(cost) || cost < 0)
      throw new TypeError(`tilenav: ${what}: cost must be a number >= 0 (0 or Infinity = blocked), got ${shown(cost)}`);
    const want = cost > 0 && Number.isFinite(cost) ? cost : Infinity;
    let best = -1;
    for (const v of this._known) if ((best < 0 || v < best) && this._costOf(v) === want) best = v;
    // with the default walls, 1 is a wall already (see freeValue)
    if (best < 0 && want === Infinity && this._defaultWalls && this._costOf(1) === Infinity) {
      this._terrain(1);
      best = 1;
    }
    if (best >= 0) return best;
    const v = this.freeValue();
    this.setTerrain(v, want);
    return v;
  }

  /** The value of a cell, or -1 outside the map. */
  get(x, y) {
    const h = liveHandle(this, "TileMap");
    return xyIn(this, x, y, "TileMap.get") ? api().tnw_map_get(h, x, y) : -1;
  }

  /** Change a cell's value (paths see it at once; call FlowField.update() for fields). */
  set(x, y, value) {
    const what = "TileMap.set";
    if (!xyIn(this, x, y, what)) throw outOfMap(this, x, y, what, "cell");
    cellValue(value, `TileMap.set(${x}, ${y}, value): value`);
    this._terrain(value);
    check(api().tnw_map_set(liveHandle(this, "TileMap"), x, y, value), `set(${x}, ${y})`);
  }

  /**
   * Write a rectangle of values (row-major, width * height of them) as one edit: paths see it at
   * once, and the next FlowField.update() sees one changed rectangle (the bounding box of the
   * cells that changed) instead of one per cell, so a 10 x 10 block does not overflow the
   * map's log of its last 64 changes (which makes update() recompute every cell), whatever
   * the values (tn_map_set_rect). The rectangle must lie inside the map; nothing is written
   * when a value is bad.
   * @returns {number} how many cells changed (0: the map, and its revision, are untouched)
   */
  setRect(x, y, width, height, values) { return this._setRect("TileMap.setRect", x, y, width, height, values); }

  _setRect(what, x, y, width, height, values) {
    for (const [v, name] of [[x, "x"], [y, "y"], [width, "width"], [height, "height"]]) cellCoord(v, what, name);
    if (width < 0 || height < 0) throw new TilenavError(-1, `${what}: width and height must be >= 0, got ${width} x ${height}`);
    const n = width * height;
    if (!values || values.length !== n) throw new TypeError(`tilenav: ${what}: values has ${values?.length} entries, expected ${width} x ${height} = ${n}`);
    if (n === 0) return 0;
    if (x < 0 || y < 0 || x + width > this.width || y + height > this.height)
      throw new TilenavError(-9, `${what}(${x}, ${y}, ${width}, ${height}): the rectangle must lie inside the ${this.width} x ${this.height} map`);
    let last = NaN;
    for (let i = 0; i < n; i++) { // check every value first, each distinct one given its terrain
      const v = values[i];
      if (v === last) continue;
      if (!(Number.isInteger(v) && v >= 0 && v <= MAX_CELL_VALUE)) cellValue(v, `${what}: value ${i} (x ${x + (i % width)}, y ${y + Math.floor(i / width)})`);
      this._terrain(v);
      last = v;
    }
    return withScratch(4 * n, (p) => {
      new Uint32Array(api().memory.buffer, p, n).set(values);
      return check(api().tnw_map_set_rect(liveHandle(this, "TileMap"), x, y, width, height, p), `${what}(${x}, ${y}, ${width}, ${height})`);
    });
  }

  /** Set every cell of a rectangle to `value` as one edit (see setRect()); returns how many
   *  cells changed. */
  fill(x, y, width, height, value) {
    const what = "TileMap.fill";
    for (const [v, name] of [[x, "x"], [y, "y"], [width, "width"], [height, "height"]]) cellCoord(v, what, name);
    if (width < 0 || height < 0) throw new TilenavError(-1, `${what}: width and height must be >= 0, got ${width} x ${height}`);
    cellValue(value, `${what}: value`);
    return this._setRect(what, x, y, width, height, new Uint32Array(width * height).fill(value));
  }

  /** Can the cell be entered? False outside the map. */
  passable(x, y) {
    const h = liveHandle(this, "TileMap");
    return xyIn(this, x, y, "TileMap.passable") && api().tnw_map_passable(h, x, y) !== 0;
  }

  /** Cost multiplier of entering the cell (Infinity when blocked or outside). */
  cost(x, y) {
    const h = liveHandle(this, "TileMap");
    return xyIn(this, x, y, "TileMap.cost") ? api().tnw_map_cost(h, x, y) : Infinity;
  }

  /** A copy of the per-cell passability, row-major: 1 passable, 0 blocked. */
  passableGrid() {
    const p = api().tnw_map_passable_data(liveHandle(this, "TileMap"));
    return u8().slice(p, p + this.width * this.height);
  }

  /** Grows by one on every edit. */
  get revision() { return api().tnw_map_revision(liveHandle(this, "TileMap")); }

  /** The cell under a pixel position, or null outside the map. */
  cellAt(px, py) {
    const x = Math.floor(px / this.tileWidth), y = Math.floor(py / this.tileHeight);
    return x >= 0 && y >= 0 && x < this.width && y < this.height ? { x, y } : null;
  }

  /** The centre of a cell in pixels. */
  center(x, y) {
    xyIn(this, x, y, "TileMap.center"); // any integers (a cell outside the map has a centre too)
    return { x: (x + 0.5) * this.tileWidth, y: (y + 0.5) * this.tileHeight };
  }

  /**
   * Move a sprite box by (dx, dy) pixels without entering a blocked cell (the map's edges
   * block too): along x, then y, each as far as it goes, sliding along walls, no tunnelling.
   * @param {{x:number,y:number,w:number,h:number,areaX?:number,areaY?:number,areaW?:number,areaH?:number}} box
   *        the sprite's top-left and size, and an optional collision area inside it (the book's
   *        elf feet: areaX 22, areaY 44, areaW 20, areaH 20 on a 64 x 64 sprite)
   * @returns {{x:number, y:number, blockedX:boolean, blockedY:boolean}} the new top-left
   */
  moveBox(box, dx, dy) {
    const what = "TileMap.moveBox";
    liveHandle(this, "TileMap");
    boxArg(box, what);
    for (const [v, name] of [[dx, "dx"], [dy, "dy"]])
      if (typeof v !== "number" || !Number.isFinite(Math.fround(v)))
        throw new TilenavError(-1, `${what}: ${name} must be a finite number of pixels, got ${shown(v)}`);
    return withScratch(36, (p) => {
      writeBox(p, box);
      check(api().tnw_tile_move_box(liveHandle(this, "TileMap"), p, dx, dy, p + 32), "TileMap.moveBox");
      const v = f32(), flags = new Uint32Array(api().memory.buffer, p + 32, 1)[0];
      return { x: v[p >> 2], y: v[(p >> 2) + 1], blockedX: (flags & 1) !== 0, blockedY: (flags & 2) !== 0 };
    });
  }

  /**
   * The book's hitTestTile against walls: is the box's point set in a blocked cell (or outside)?
   * @param box as in moveBox()
   * @param {"center"|"some"|"every"|"any-cell"|"all-cells"} [points="some"]
   */
  hitTestWalls(box, points = "some") {
    liveHandle(this, "TileMap");
    boxArg(box, "TileMap.hitTestWalls");
    return withScratch(36, (p) => {
      writeBox(p, box);
      check(api().tnw_tile_hit_blocked(liveHandle(this, "TileMap"), p, pick(POINTS, points, "points", 1), p + 32),
        "TileMap.hitTestWalls");
      return i32()[(p + 32) >> 2] !== 0;
    });
  }

  /**
   * The clearance of a cell: the side of the largest square unit that fits with its top-left
   * cell there (every cell of the square inside the map and passable), capped at 255; 0 on a
   * blocked cell or outside the map. Kept up to date with set() (1 byte per cell, made on the
   * first call).
   */
  clearance(x, y) {
    liveHandle(this, "TileMap");
    if (!xyIn(this, x, y, "TileMap.clearance")) return 0;
    const p = api().tnw_clearance_data(this._infoClearance().h);
    return u8()[p + y * this.width + x];
  }

  /** A copy of every cell's clearance (see clearance()), row-major Uint8Array. */
  clearanceGrid() {
    const p = api().tnw_clearance_data(this._infoClearance().h);
    return u8().slice(p, p + this.width * this.height);
  }

  /** Does a size x size unit fit with its top-left cell at (x, y)? */
  fits(x, y, size = 1) {
    size = unitSize(size, "TileMap.fits");
    liveHandle(this, "TileMap");
    if (!xyIn(this, x, y, "TileMap.fits")) return false;
    return size === 1 ? this.passable(x, y) : this.clearance(x, y) >= size;
  }

  _newClearance(maxSize, sizeMaps) {
    return withScratch(4, (st) => {
      const h = api().tnw_clearance_create(liveHandle(this, "TileMap"), maxSize, sizeMaps ? 1 : 0, st);
      check(i32()[st >> 2], "TileMap clearance");
      return { h, max: maxSize, rev: this.revision, refs: 0 };
    });
  }

  _infoClearance() {
    this._clInfo ??= this._newClearance(255, false);
    this._syncClearance();
    return this._clInfo;
  }

  // The clearance whose size maps serve units up to `size` (>= 2), current with the map: made
  // on first use with max_size = size, made anew when a larger size is asked (the old one is
  // kept while flow fields read its size maps).
  _sizeMaps(size) {
    let c = this._cl;
    if (!c || c.max < size) {
      const made = this._newClearance(size, true);
      if (c) { if (c.refs > 0) this._clOld.push(c); else api().tnw_clearance_destroy(c.h); }
      c = this._cl = made;
    }
    this._syncClearance();
    return c;
  }

  // Bring every clearance up to date with the edits since it was last updated (incremental:
  // only the cells the edits can reach; the size maps log what changed, for FlowField.update).
  _syncClearance() {
    if (!this._cl && !this._clInfo) return;
    const rev = this.revision;
    for (const c of [this._cl, this._clInfo, ...this._clOld]) {
      if (!c || c.rev === rev) continue;
      check(api().tnw_clearance_update(c.h), "TileMap clearance update");
      c.rev = rev;
    }
  }

  // The map a unit of `size` moves on, for an object that keeps reading it (a flow field, a
  // hierarchy): { on: its handle, cl: the clearance held for it (null for size 1), to give back
  // with _releaseSizeMaps() }.
  _holdSizeMap(size) {
    if (size === 1) return { on: liveHandle(this, "TileMap"), cl: null };
    const cl = this._sizeMaps(size);
    cl.refs++;
    return { on: api().tnw_clearance_map(cl.h, size), cl };
  }

  _releaseSizeMaps(c) { releaseSizeMaps(this._o, c); }

  /**
   * The region of the unit's position (x, y) (its top-left cell): an id 0..regionCount()-1
   * shared by exactly the positions a unit of `size` can walk to from there under `diagonal`,
   * or -1 where the unit does not fit (blocked, outside the map). Ids are renumbered by edits
   * that split or join regions: compare them within one map revision only.
   * @param {{size?: number, diagonal?: "no-cut"|"never"|"one"|"always"}} [o]
   */
  regionId(x, y, o = {}) {
    const what = "TileMap.regionId", { rg, size } = this._regionsFor(o, what);
    return xyIn(this, x, y, what) ? api().tnw_regions_id(rg.h, size, x, y) : -1;
  }

  /** Can a unit of `size` walk from cell a to cell b (top-left cells) under `diagonal`? False
   *  when it does not fit at either (or either is outside the map). O(1). */
  sameRegion(a, b, o = {}) {
    const what = "TileMap.sameRegion", { rg, size } = this._regionsFor(o, what);
    cellOf(a, what, "a"); cellOf(b, what, "b");
    return inside(this, a.x, a.y) && inside(this, b.x, b.y) && api().tnw_regions_connected(rg.h, size, a.x, a.y, b.x, b.y) !== 0;
  }

  /** Number of regions for units of `size` under `diagonal`. */
  regionCount(o = {}) {
    const { rg, size } = this._regionsFor(o, "TileMap.regionCount");
    return api().tnw_regions_count(rg.h, size);
  }

  /** Every position's region id (see regionId()), row-major Int32Array (a copy). */
  regionGrid(o = {}) {
    const { rg, size } = this._regionsFor(o, "TileMap.regionGrid"), n = this.width * this.height;
    return withScratch(4 * n, (p) => {
      check(api().tnw_regions_grid(rg.h, size, p, n), "TileMap.regionGrid");
      return new Int32Array(api().memory.buffer, p, n).slice();
    });
  }

  // The options of the region queries: {size, diagonal}, both checked (TilenavError).
  _regionsFor(o, what) {
    if (o === null || typeof o !== "object") throw new TilenavError(-1, `${what}: options must be an object`);
    knownOptions(o, "region", what);
    const size = unitSize(o.size, what);
    const diagonal = o.diagonal === undefined ? 0 : DIAGONAL[String(o.diagonal).toLowerCase()];
    if (diagonal === undefined)
      throw new TilenavError(-1, `${what}: unknown diagonal ${JSON.stringify(String(o.diagonal))} (${Object.keys(DIAGONAL).join(", ")})`);
    return { rg: this._regions(diagonal, size), size };
  }

  // The regions serving a query under `diagonal` (a tn_diagonal) for `size`, current with the
  // map. Two per map, made on first use: one built for "no-cut", exact for "never", "no-cut" and
  // "one" (the same side-connected components), and one for "always". Made with max_size = the
  // size asked, anew when a larger size is asked; tn_regions_update() when the revision moved.
  _regions(diagonal, size) {
    const k = diagonal === 3 ? 1 : 0, w = api();
    let r = this._rg[k];
    if (!r || r.max < size) {
      const made = withScratch(4, (st) => {
        const h = w.tnw_regions_create(liveHandle(this, "TileMap"), k ? 3 : 0, size, st);
        check(i32()[st >> 2], "TileMap regions");
        return { h, max: size, rev: this.revision };
      });
      if (r) w.tnw_regions_destroy(r.h);
      r = this._rg[k] = made;
    } else {
      const rev = this.revision;
      if (r.rev !== rev) {
        check(w.tnw_regions_update(r.h), "TileMap regions update");
        r.rev = rev;
      }
    }
    return r;
  }

  /** Bytes held by the map's regions (0 before the first region query or search that used them). */
  regionsMemory() {
    let n = 0;
    for (const r of this._rg) if (r) n += api().tnw_regions_memory(r.h);
    return n;
  }

  /** A Hierarchy (HPA*) on this map: `map.hierarchy(o)` is `new Hierarchy(map, o)`. */
  hierarchy(o = {}) { return new Hierarchy(this, o); }

  /** Release the map's memory. Fields, hierarchies and crowds made on it must be freed first
   *  (using them afterwards throws). */
  free() { untrack(this, releaseMap); }
}
owning(TileMap, ["_h", "_cl", "_clOld", "_clInfo", "_rg"]);

function releaseMap(o) {
  if (!o._h) return;
  const w = api();
  for (const c of [o._cl, o._clInfo, ...o._clOld]) if (c) { w.tnw_clearance_destroy(c.h); c.h = 0; }
  for (const r of o._rg) if (r) w.tnw_regions_destroy(r.h);
  o._rg = [null, null];
  o._cl = o._clInfo = null;
  o._clOld = [];
  w.tnw_map_destroy(o._h);
  o._h = 0;
}

// A field or hierarchy gives back the clearance it read (`c`, of the map whose record is `mo`):
// a replaced one is destroyed when its last reader is gone.
function releaseSizeMaps(mo, c) {
  if (--c.refs > 0 || c === mo._cl || !mo._h) return;
  const i = mo._clOld.indexOf(c);
  if (i >= 0) { mo._clOld.splice(i, 1); api().tnw_clearance_destroy(c.h); c.h = 0; }
}

// The options of find(), begin() and findMany(), checked (a bad one names itself) and turned
// into the glue's arguments; cl() and rg() make the clearance and regions the query needs.
function queryOptions(map, o, what) {
  knownOptions(o, "find", what);
  const weight = numArg(o.weight, what, "weight", { min: 1 }, 1);
  if (o.stepCosts !== undefined && o.stepCosts !== "exact" && o.stepCosts !== "10/14")
    throw new TilenavError(-1, `${what}: stepCosts must be "exact" or "10/14", got ${shown(o.stepCosts)}`);
  const size = unitSize(o.size, what), diagonal = pick(DIAGONAL, o.diagonal, "diagonal", 0);
  const regions = flagOption(o.regions, what, "regions", true);
  const closest = flagOption(o.closest, what, "closest", false);
  return {
    algo: pick(ALGO, o.algo, "algo", 0), diagonal, heuristic: pick(HEURISTIC, o.heuristic, "heuristic", 0),
    weight, size, flags: (o.stepCosts === "10/14" ? 1 : 0) | (closest ? 2 : 0) | 4,
    cl: () => (size > 1 ? map._sizeMaps(size).h : 0),
    rg: () => (regions ? map._regions(diagonal, size).h : 0),
  };
}

/** A reusable path search context; it allocates nothing per query. */
export class PathFinder {
  /**
   * @param {TileMap|{maxCells: number}} [sizeFor] the largest map it will search (it grows on
   *        demand anyway)
   */
  constructor(sizeFor = {}) {
    let cells;
    if (sizeFor instanceof TileMap) cells = sizeFor.width * sizeFor.height;
    else {
      if (sizeFor === null || typeof sizeFor !== "object")
        throw new TypeError(`tilenav: PathFinder: sizeFor must be a TileMap or {maxCells}, got ${shown(sizeFor)}`);
      knownOptions(sizeFor, "PathFinder", "PathFinder");
      cells = numArg(sizeFor.maxCells, "PathFinder", "maxCells", { min: 1, max: MAX_CELLS, int: true }, 65536);
    }
    // _cl, _mo: the clearance a time-sliced query of a unit bigger than a cell reads (held, so
    // that a larger size asked meanwhile does not destroy it under the query) and its map's record
    this._o = { _h: 0, _out: 0, _res: 0, _cl: null, _mo: null };
    this._cap = 0;
    this._res = alloc(32);
    track(this, releaseFinder);
    this._ensure(cells);
  }

  _ensure(cells) {
    if (this._h && cells <= this._cap) return;
    if (!this._res) throw new TilenavError(-15, "tilenav: PathFinder used after free()");
    const w = api();
    if (this._h) { w.tnw_search_destroy(this._h); w.tnw_free(this._out); this._h = 0; this._out = 0; }
    withScratch(4, (st) => {
      this._h = w.tnw_search_create(cells, st);
      check(i32()[st >> 2], "PathFinder");
    });
    this._cap = cells;
    this._out = alloc(8 * cells);
  }

  /**
   * Shortest path from `start` to `goal` (cells {x, y}).
   * @param {TileMap} map
   * @param {{x:number,y:number}} start
   * @param {{x:number,y:number}} goal
   * @param {object} [o]
   * @param {"astar"|"dijkstra"|"jps"} [o.algo="astar"] jps falls back to A* where it does not
   *        apply (terrain costs, corner rules other than no-cut)
   * @param {"no-cut"|"never"|"one"|"always"} [o.diagonal="no-cut"] diagonal steps: not past a
   *        blocked corner (default), never (4 neighbours), past one, always
   * @param {"auto"|"manhattan"|"euclidean"|"octile"|"chebyshev"|"zero"} [o.heuristic="auto"]
   * @param {number} [o.weight=1] heuristic weight (> 1: faster, maybe longer paths)
   * @param {"exact"|"10/14"} [o.stepCosts="exact"] straight/diagonal base costs 1/√2 or 10/14
   * @param {boolean} [o.closest=false] unreachable goal: walk to the closest reachable cell
   * @param {number} [o.size=1] the unit is a size x size square of cells (1..255): start, goal
   *        and path are its top-left cells, every step keeps its whole footprint on passable
   *        cells under the diagonal rule, and entering a position costs the largest cost under
   *        the footprint. A start or goal where it does not fit: found false, status "start
   *        blocked" / "goal blocked".
   * @param {boolean} [o.regions=true] use the map's regions (TileMap.regionId()), made on the
   *        first query that needs them for this rule and size (about 3 ms and 14 bytes per cell
   *        on a 512 x 512 map) and updated after edits (microseconds): a goal outside the
   *        start's region gives found false, status "no path", expanded 0 at once; with
   *        `closest`, only the start's region is searched. Otherwise the same results as
   *        `regions: false`, which skips them (e.g. for a map searched once).
   * @returns {{found: boolean, status: string, path: {x:number,y:number}[], cost: number,
   *            expanded: number, algo: string, end: {x:number,y:number}}}
   *          found is false (and path empty) when there is no path or start/goal is blocked;
   *          other errors (outside the map, bad options) throw a TilenavError.
   */
  find(map, start, goal, o = {}) {
    const what = "PathFinder.find";
    mapArg(map, what);
    const q = queryOptions(map, o, what);
    cellIn(map, start, what, "start"); cellIn(map, goal, what, "goal");
    const w = api();
    this._ensure(map.width * map.height);
    this._sliced = undefined; // step()/result() are for begin()'s queries
    this._map = null;
    releaseHeld(this._o);
    const st = w.tnw_search_path(liveHandle(this, "PathFinder"), liveHandle(map, "TileMap"),
      start.x, start.y, goal.x, goal.y, q.algo, q.diagonal, q.heuristic, q.weight, q.flags, q.size,
      q.cl(), q.rg(), this._out, this._cap, this._res);
    const r = this._res >> 2, iv = i32(), fv = f64();
    const result = this._result(st, iv, fv);
    if (st === 2 || st === -10 || st === -11) return result;
    check(st, what);
    result.path = cellsToArray(this._out, iv[r]);
    return result;
  }

  // The result record's fields; not found: cost Infinity, end {x: -1, y: -1} (every query says
  // the same for no path and for a blocked start or goal).
  _result(st, iv, fv) {
    const r = this._res >> 2, found = st === 0 || st === 4;
    return {
      found, status: STATUS[st] ?? String(st), path: [],
      cost: found ? fv[(this._res + 16) >> 3] : Infinity, expanded: fv[(this._res + 24) >> 3],
      algo: ["astar", "dijkstra", "jps", "jps+"][iv[r + 3]] ?? "astar",
      end: found ? { x: iv[r + 1], y: iv[r + 2] } : { x: -1, y: -1 },
    };
  }

  /**
   * Start a time-sliced query (same arguments as find(), `size` included); advance it with
   * step(). The map must not change until the query ends (a change makes step() report "map
   * changed"). One query at
   * a time per PathFinder: begin() abandons a running one.
   * @returns {"in progress"|"no path"} or throws a TilenavError (outside the map, bad options);
   *          "no path" when the regions tell the goal is unreachable (no search: step() and
   *          result() report it); a blocked start or goal gives "start blocked" / "goal
   *          blocked" (then result() is not found)
   */
  begin(map, start, goal, o = {}) {
    const what = "PathFinder.begin";
    mapArg(map, what);
    const q = queryOptions(map, o, what);
    cellIn(map, start, what, "start"); cellIn(map, goal, what, "goal");
    const w = api();
    this._ensure(map.width * map.height);
    this._sliced = undefined;
    this._map = null;
    releaseHeld(this._o);
    // held until the next query, cancel() or free(): step() reads it
    const held = map._holdSizeMap(q.size);
    if (held.cl) { this._o._cl = held.cl; this._o._mo = map._o; }
    const st = w.tnw_search_begin(liveHandle(this, "PathFinder"), liveHandle(map, "TileMap"),
      start.x, start.y, goal.x, goal.y, q.algo, q.diagonal, q.heuristic, q.weight, q.flags, q.size,
      held.cl?.h ?? 0, q.rg());
    this._sliced = st;
    this._map = map; // read by step() and result(): it must stay live
    if (st === -10 || st === -11) return STATUS[st];
    check(st, "PathFinder.begin");
    return STATUS[st];
  }

  /**
   * Run at most `maxExpansions` expansions of the query begun with begin().
   * @returns {"in progress"|"ok"|"no path"|"closest"|"start blocked"|"goal blocked"} the
   *          status; "map changed" and other errors throw a TilenavError
   */
  step(maxExpansions = 1000) {
    liveHandle(this, "PathFinder");
    numArg(maxExpansions, "PathFinder.step", "maxExpansions", { min: 1, max: INT32_MAX, int: true });
    if (this._sliced === undefined) throw new TilenavError(-15, "PathFinder.step (no query begun: begin() one; find() runs to the end by itself)");
    if (this._map) liveHandle(this._map, "TileMap");
    if (this._sliced === -10 || this._sliced === -11) return STATUS[this._sliced];
    const st = api().tnw_search_step(liveHandle(this, "PathFinder"), maxExpansions);
    this._sliced = st;
    check(st, "PathFinder.step");
    return STATUS[st];
  }

  /** The result of the time-sliced query (the shape of find()'s); while it runs: found false,
   *  status "in progress", and the best partial path so far. */
  result() {
    liveHandle(this, "PathFinder");
    if (this._sliced === undefined) throw new TilenavError(-15, "PathFinder.result (no query begun: begin() one)");
    if (this._map) liveHandle(this._map, "TileMap");
    if (this._sliced === -10 || this._sliced === -11)
      return { found: false, status: STATUS[this._sliced], path: [], cost: Infinity, expanded: 0, algo: "astar", end: { x: -1, y: -1 } };
    const st = api().tnw_search_get_path(liveHandle(this, "PathFinder"), this._out, this._cap, this._res);
    const iv = i32(), fv = f64(), result = this._result(st, iv, fv);
    if (st === 2) return result;
    check(st, "PathFinder.result");
    result.path = cellsToArray(this._out, iv[this._res >> 2]);
    return result;
  }

  /** Abandon the time-sliced query (no-op when none runs). */
  cancel() {
    if (this._h) api().tnw_search_cancel(this._h);
    this._sliced = undefined;
    this._map = null;
    releaseHeld(this._o);
  }

  /**
   * Many queries in one call into the module, with one set of options (as find()'s, `size`
   * included; a start or goal where the unit does not fit counts as no path): only the
   * costs and lengths come back (no paths), with no per-query allocation.
   * @param {TileMap} map
   * @param {Int32Array|number[]|{start:{x:number,y:number},goal:{x:number,y:number}}[]} queries
   *        flat [sx, sy, gx, gy, ...] or an array of {start, goal}
   * @returns {{costs: Float64Array, lengths: Int32Array, found: number}} cost Infinity and
   *          length 0 where there is no path
   */
  findMany(map, queries, o = {}) {
    const what = "PathFinder.findMany";
    mapArg(map, what);
    const q = queryOptions(map, o, what);
    if (queries === null || typeof queries !== "object" || !Number.isInteger(queries.length))
      throw new TilenavError(-1, `${what}: queries must be an array of {start, goal} or flat numbers [sx, sy, gx, gy, ...], got ${shown(queries)}`);
    let flat = queries;
    if (queries.length && typeof queries[0] === "object" && queries[0] !== null) {
      flat = new Int32Array(4 * queries.length);
      queries.forEach((q, i) => {
        if (q === null || typeof q !== "object") throw new TilenavError(-1, `${what}: query ${i} must be {start, goal}, got ${shown(q)}`);
        const s = cellOf(q.start, what, `query ${i}: start`), g = cellOf(q.goal, what, `query ${i}: goal`);
        flat.set([s.x, s.y, g.x, g.y], 4 * i);
      });
    } else { // flat numbers: [sx, sy, gx, gy, ...]
      if (queries.length % 4 !== 0)
        throw new TilenavError(-1, `${what}: flat queries are 4 numbers each (sx, sy, gx, gy), got ${queries.length} numbers`);
      if (!(queries instanceof Int32Array))
        for (let i = 0; i < queries.length; i++)
          if (!Number.isInteger(queries[i]))
            throw new TilenavError(-1, `${what}: query ${i >> 2}: a cell coordinate must be an integer, got ${shown(queries[i])}`);
    }
    const n = flat.length / 4, w = api();
    for (let i = 0; i < n; i++) {
      const sx = flat[4 * i], sy = flat[4 * i + 1], gx = flat[4 * i + 2], gy = flat[4 * i + 3];
      cellIn(map, { x: sx, y: sy }, what, `query ${i}: start`);
      cellIn(map, { x: gx, y: gy }, what, `query ${i}: goal`);
    }
    this._ensure(map.width * map.height);
    this._sliced = undefined;
    this._map = null;
    releaseHeld(this._o);
    return withScratch(16 * n + 12 * n + 8, (p) => {
      const costs = (p + 16 * n + 7) & ~7, lengths = costs + 8 * n;
      new Int32Array(w.memory.buffer, p, 4 * n).set(flat);
      const found = check(w.tnw_search_batch(liveHandle(this, "PathFinder"), liveHandle(map, "TileMap"), p, n,
        q.algo, q.diagonal, q.heuristic, q.weight, q.flags, q.size, q.cl(), q.rg(), this._out, this._cap, costs, lengths),
      what);
      return {
        costs: new Float64Array(w.memory.buffer, costs, n).slice(),
        lengths: new Int32Array(w.memory.buffer, lengths, n).slice(), found,
      };
    });
  }

  /** Release the context. */
  free() { untrack(this, releaseFinder); }
}
owning(PathFinder, ["_h", "_out", "_res"]);

// Give back the clearance a finder's time-sliced query held.
function releaseHeld(o) {
  if (o._cl) { releaseSizeMaps(o._mo, o._cl); o._cl = null; o._mo = null; }
}

function releaseFinder(o) {
  releaseHeld(o);
  const w = api();
  if (o._h) w.tnw_search_destroy(o._h);
  if (o._out) w.tnw_free(o._out);
  if (o._res) w.tnw_free(o._res);
  o._h = o._out = o._res = 0;
}

/**
 * A flow field on a map: for every cell the cost to the nearest goal and the direction to
 * step, built once per goal and shared by any number of units.
 */
export class FlowField {
  /**
   * @param {TileMap} map (must outlive the field)
   * @param {object} [o]
   * @param {"no-cut"|"never"|"one"|"always"} [o.diagonal="no-cut"]
   * @param {"optimal"|"steepest"} [o.flow="optimal"] per-cell direction rule
   * @param {"off"|"exact"|"simple"} [o.lineOfSight="off"] mark cells that see the (single)
   *        goal; their vectors point straight at it
   * @param {number} [o.size=1] for size x size units (1..255): the field is built on the map
   *        of that size (a cell is open where the unit fits with its top-left cell there;
   *        entering it costs the largest cost under the footprint), so goals, distances,
   *        directions and paths are the unit's top-left cells. build() and update() bring it
   *        up to date with the map's edits.
   */
  constructor(map, o = {}) {
    mapArg(map, "FlowField");
    knownOptions(o, "FlowField", "FlowField");
    this.map = map;
    this.width = map.width;
    this.height = map.height;
    this.size = unitSize(o.size, "FlowField");
    this._los = pick(LOS, o.lineOfSight, "lineOfSight", 0);
    this._goals = [];
    this._rev = -1; // the map's revision at the last build() or update() (-1: not built)
    this._gen = 0; // counts build() and update() (a Crowd copies the vectors again when it moves)
    this._o = { _h: 0, _vec: 0, _cl: null, _mo: map._o };
    const held = map._holdSizeMap(this.size), on = held.on;
    this._cl = held.cl;
    try {
      withScratch(4, (st) => {
        this._h = api().tnw_field_create(on, pick(DIAGONAL, o.diagonal, "diagonal", 0),
          pick(FLOW, o.flow, "flow", 0), this._los, st);
        check(i32()[st >> 2], "FlowField");
      });
    } catch (e) {
      if (this._cl) { map._releaseSizeMaps(this._cl); this._cl = null; }
      throw e;
    }
    track(this, releaseField);
  }

  /** Build towards one goal cell or an array of them (the nearest wins). */
  build(goals) {
    liveOn(this, "FlowField");
    const what = "FlowField.build", list = cellList(Array.isArray(goals) ? goals : [goals], what, "goal");
    if (!list.length) throw new TilenavError(-1, `${what}: goals is [], needs a cell or an array of at least one`);
    list.forEach((g, i) => cellIn(this.map, g, what, list.length > 1 ? `goal ${i}` : "goal"));
    if (this._los && list.length > 1)
      throw new TilenavError(-8, `${what}: lineOfSight needs a single goal, got ${list.length} (a cell that sees the goal gets a vector straight at it; with several goals the one a cell sees need not be its nearest by path, so the vectors would not follow the distances): build towards one goal, or make the field with lineOfSight "off"`);
    if (this._cl) this.map._syncClearance();
    withScratch(8 * Math.max(1, list.length), (p) => {
      writeCells(p, list);
      const st = api().tnw_field_build(liveOn(this, "FlowField"), p, list.length);
      if (st < 0) { this._rev = -1; this._goals = []; } // the field is empty: not current
      check(st, "FlowField.build");
    });
    this._goals = list.map((g) => ({ x: g.x, y: g.y }));
    this._rev = this.map.revision;
    this._gen++;
    return this;
  }

  /** Built, and the map unchanged since the last build() or update(). After a map change the
   *  readers (distance, direction(s), distances, sample, lineOfSight, reachableCount) still
   *  answer from the field as it was, while pathFrom() and wouldWallOff() throw TilenavError
   *  "map changed": check `current` (or call update()) before them. */
  get current() {
    liveOn(this, "FlowField");
    return this._rev >= 0 && this._rev === this.map.revision;
  }

  /** The goals of the last build ([] after a build() that threw, or an update() that found a
   *  goal blocked: the field is empty then, and not `current`). */
  get goals() { return this._goals.slice(); }

  /** Bring the field up to date after map edits; recomputes only the changed region.
   *  @returns {number} how many cells were recomputed */
  update() {
    liveOn(this, "FlowField");
    if (this._cl) this.map._syncClearance();
    return withScratch(4, (p) => {
      const st = api().tnw_field_update(liveOn(this, "FlowField"), p);
      if (st === -11) { this._rev = -1; this._goals = []; } // goal blocked: the field is empty
      check(st, "FlowField.update");
      this._rev = this.map.revision;
      this._gen++;
      return i32()[p >> 2];
    });
  }

  /** Copy of the distances, row-major Float32Array (Infinity = unreachable or blocked). */
  distances() {
    const p = api().tnw_field_distances(liveOn(this, "FlowField"));
    if (!p) throw new TilenavError(-15, "FlowField.distances (build first)");
    return f32().slice(p >> 2, (p >> 2) + this.width * this.height);
  }

  /**
   * The distances with no copy: a Float32Array over the module's memory, row-major. It shows
   * the field's current values after build()/update(), but becomes detached (length 0) when the
   * module's memory grows (any allocation may do it): take a new view each frame, or check
   * `view.length`.
   */
  distancesView() {
    const p = api().tnw_field_distances(liveOn(this, "FlowField"));
    if (!p) throw new TilenavError(-15, "FlowField.distancesView (build first)");
    return new Float32Array(api().memory.buffer, p, this.width * this.height);
  }

  /**
   * Every cell's flow vector (unit length; 0, 0 where there is none) as x, y pairs: a
   * Float32Array of 2 * width * height over the module's memory, filled by this call and owned
   * by the field (the same block every call; no allocation after the first). Detached when the
   * memory grows, like distancesView().
   */
  vectorsView() {
    const n = 2 * this.width * this.height;
    liveOn(this, "FlowField");
    if (!this._vec) this._vec = alloc(4 * n);
    check(api().tnw_field_vectors(liveOn(this, "FlowField"), this._vec, n), "FlowField.vectorsView");
    return new Float32Array(api().memory.buffer, this._vec, n);
  }

  /** Distance of one cell to the nearest goal (Infinity outside, blocked, unreachable). */
  distance(x, y) {
    const p = api().tnw_field_distances(liveOn(this, "FlowField"));
    if (!p) throw new TilenavError(-15, "FlowField.distance (build first)");
    return xyIn(this, x, y, "FlowField.distance") ? f32()[(p >> 2) + y * this.width + x] : Infinity;
  }

  /** Copy of the 8-way directions, Int8Array: 0 = +x, then clockwise on screen in 45° steps
   *  (1 = +x+y, 2 = +y ... 7 = +x-y); -1 = none (goal, blocked, unreachable). */
  directions() {
    const n = this.width * this.height;
    return withScratch(n, (p) => {
      check(api().tnw_field_dirs(liveOn(this, "FlowField"), p, n), "FlowField.directions");
      return new Int8Array(api().memory.buffer, p, n).slice();
    });
  }

  /** The 8-way direction of one cell, as in directions(): 0..7, -1 = none (a goal, blocked,
   *  unreachable or outside). */
  direction(x, y) {
    const h = this._built("FlowField.direction");
    return xyIn(this, x, y, "FlowField.direction") ? api().tnw_field_dir(h, x, y) : -1;
  }

  // The field's handle, once built (else TilenavError "state", as distance()'s).
  _built(what) {
    const h = liveOn(this, "FlowField");
    if (!api().tnw_field_distances(h)) throw new TilenavError(-15, `${what} (build first)`);
    return h;
  }

  /** Copy of the line-of-sight flags, Uint8Array (1 = the cell sees the goal). */
  lineOfSight() {
    const n = this.width * this.height;
    return withScratch(n, (p) => {
      check(api().tnw_field_los(liveOn(this, "FlowField"), p, n), "FlowField.lineOfSight");
      return u8().slice(p, p + n);
    });
  }

  /** Smooth unit direction at a pixel position ({x: 0, y: 0} where there is none: outside the
   *  map, blocked, unreachable). px and py: finite numbers (TypeError otherwise). */
  sample(px, py) {
    const h = this._built("FlowField.sample");
    for (const [v, name] of [[px, "px"], [py, "py"]])
      if (typeof v !== "number" || !Number.isFinite(v))
        throw new TypeError(`tilenav: FlowField.sample: ${name} must be a finite number of pixels, got ${shown(v)}`);
    return withScratch(8, (p) => {
      api().tnw_field_sample(h, px, py, p);
      const v = f32();
      return { x: v[p >> 2], y: v[(p >> 2) + 1] };
    });
  }

  /** Follow the directions from a cell to a goal: {found, path, cost}. */
  pathFrom(start) {
    liveOn(this, "FlowField");
    cellIn(this.map, start, "FlowField.pathFrom", "start");
    const w = api(), cap = this.width * this.height;
    return withScratch(8 * cap + 16, (p) => {
      const len = p + 8 * cap, cost = len + 8;
      const st = w.tnw_field_path(liveOn(this, "FlowField"), start.x, start.y, p, cap, len, cost);
      if (st === 2) return { found: false, path: [], cost: Infinity };
      check(st, "FlowField.pathFrom");
      return { found: true, path: cellsToArray(p, i32()[len >> 2]), cost: f64()[cost >> 3] };
    });
  }

  /** Would blocking `cells` cut any of `spawns` off from every goal? (The map is not changed.)
   *  With `size` > 1: `cells` are map cells (a tower's), `spawns` top-left cells of the unit.
   *  A cell or spawn outside the map throws TilenavError "out of map" naming it. */
  wouldWallOff(cells, spawns) {
    const what = "FlowField.wouldWallOff";
    liveOn(this, "FlowField");
    cellList(cells, what, "cell").forEach((c, i) => cellIn(this.map, c, what, `cell ${i}`));
    cellList(spawns, what, "spawn").forEach((c, i) => cellIn(this.map, c, what, `spawn ${i}`));
    if (this._cl) {
      this.map._syncClearance();
      cells = this._anchorsOver(cells);
    }
    return withScratch(8 * (cells.length + spawns.length) + 8, (p) => {
      const sp = p + 8 * cells.length, cut = sp + 8 * spawns.length;
      writeCells(p, cells);
      writeCells(sp, spawns);
      check(api().tnw_field_would_wall_off(liveOn(this, "FlowField"), p, cells.length, sp,
        spawns.length, cut), "FlowField.wouldWallOff");
      return i32()[cut >> 2] !== 0;
    });
  }

  // The top-left cells of the unit's positions that cover any of `cells` (what it loses when
  // they are blocked).
  _anchorsOver(cells) {
    const cap = Math.max(1, cells.length * this.size * this.size);
    return withScratch(8 * cells.length + 8 * cap + 8, (p) => {
      const out = p + 8 * cells.length, n = out + 8 * cap;
      writeCells(p, cells);
      check(api().tnw_clearance_anchors_over(this._cl.h, this.size, p, cells.length, out, cap, n), "FlowField.wouldWallOff");
      return cellsToArray(out, i32()[n >> 2]);
    });
  }

  /** Number of cells that can reach a goal. */
  get reachableCount() { return api().tnw_field_reachable_count(this._built("FlowField.reachableCount")); }

  free() { untrack(this, releaseField); }
}
owning(FlowField, ["_h", "_vec", "_cl"]);

function releaseField(o) {
  if (!o._h) return;
  const w = api();
  w.tnw_field_destroy(o._h);
  if (o._vec) w.tnw_free(o._vec);
  o._h = 0; o._vec = 0;
  if (o._cl) { releaseSizeMaps(o._mo, o._cl); o._cl = null; }
}

// An integer option o[key] from lo to hi (numArg()).
const intOption = (o, key, lo, hi, dflt, what) => numArg(o[key], what, key, { min: lo, max: hi, int: true }, dflt);

// cellIn() returning a copy (kept by the caller).
function cellArg(map, c, what, name) {
  cellIn(map, c, what, name);
  return { x: c.x, y: c.y };
}

const HIER_RES = 32; // tnw_hier_result: length, refined, proven, pad, cost (f64), expanded (f64)

/**
 * Hierarchical paths (HPA*) for big maps: the map cut into square sectors, the cells facing each
 * other across sector borders joined into an abstract graph, so that a long path searches a few
 * thousand border cells instead of the whole grid and is refined only in the sectors on its
 * route (C: hierarchy.h, docs/hierarchy.md). Kept current with the map by itself: a query after
 * TileMap.set() first brings it up to date (only the sectors the edits touch are recomputed).
 */
export class Hierarchy {
  /**
   * @param {TileMap} map (must outlive the hierarchy)
   * @param {object} [o]
   * @param {number} [o.sectorSize=32] sector side in cells, 4..256
   * @param {"no-cut"|"never"} [o.diagonal="no-cut"] 8 neighbours without corner cutting, or 4
   *        ("one" and "always" are not supported: TilenavError "unsupported")
   * @param {"exact"|"10/14"} [o.stepCosts="exact"]
   * @param {number} [o.landmarks=0] landmarks of the abstract search's heuristic, 0..16
   * @param {number} [o.portalGap=0] largest gap between transition cells of an entrance, 0 = its
   *        two ends only, else 1..sectorSize (smaller gaps: shorter fast paths, more nodes)
   * @param {number} [o.size=1] for size x size units (1..255), built on the map of that size
   *        (cells are the unit's top-left cells), as FlowField's `size`
   */
  constructor(map, o = {}) {
    const what = "Hierarchy";
    mapArg(map, what);
    if (o === null || typeof o !== "object") throw new TilenavError(-1, `${what}: options must be an object`);
    knownOptions(o, "Hierarchy", what);
    this.map = map;
    this.size = unitSize(o.size, what);
    this.sectorSize = intOption(o, "sectorSize", 4, 256, 32, what);
    this.portalGap = intOption(o, "portalGap", 0, this.sectorSize, 0, what);
    this.landmarks = intOption(o, "landmarks", 0, 16, 0, what);
    const diagonal = o.diagonal === undefined ? 0 : DIAGONAL[String(o.diagonal).toLowerCase()];
    if (diagonal === undefined)
      throw new TilenavError(-1, `${what}: unknown diagonal ${JSON.stringify(String(o.diagonal))} (${Object.keys(DIAGONAL).join(", ")})`);
    if (diagonal > 1)
      throw new TilenavError(-8, `${what}: diagonal "${o.diagonal}" (only "no-cut" and "never": a corner-cutting step across a sector border has no side step to stand for it)`);
    if (o.stepCosts !== undefined && o.stepCosts !== "exact" && o.stepCosts !== "10/14")
      throw new TilenavError(-1, `${what}: stepCosts must be "exact" or "10/14", got ${String(o.stepCosts)}`);
    this.diagonal = diagonal === 0 ? "no-cut" : "never";
    this.stepCosts = o.stepCosts ?? "exact";
    // _ctxs: heuristic weight -> query context
    this._o = { _h: 0, _cl: null, _ctxs: new globalThis.Map(), _out: 0, _res: 0, _mo: map._o };
    this._cap = 0;
    const held = map._holdSizeMap(this.size), on = held.on;
    this._cl = held.cl;
    try {
      withScratch(4, (st) => {
        this._h = api().tnw_hier_create(on, diagonal, this.stepCosts === "10/14" ? 1 : 0,
          this.sectorSize, this.portalGap, this.landmarks, st);
        check(i32()[st >> 2], what);
      });
      this._res = alloc(HIER_RES);
    } catch (e) {
      if (this._h) { api().tnw_hier_destroy(this._h); this._h = 0; }
      if (this._cl) { map._releaseSizeMaps(this._cl); this._cl = null; }
      throw e;
    }
    track(this, releaseHierarchy);
    this._rev = map.revision; // the map's revision the graph describes
    this.lastUpdate = 0;
  }

  // Bring the graph up to date when the map's revision moved (queries and fields call it).
  _sync() {
    const h = liveOn(this, "Hierarchy"), rev = this.map.revision;
    if (rev === this._rev) return false;
    if (this._cl) this.map._syncClearance();
    this.lastUpdate = check(api().tnw_hier_update(h), "Hierarchy.update");
    this._rev = rev;
    return true;
  }

  /**
   * Bring the hierarchy up to date with the map's edits now (queries do it by themselves; call
   * this to choose when the work happens). Only the sectors the edits touch are recomputed; the
   * result equals a fresh build. Sector fields on it re-aim at their goals at their next use.
   * @returns {number} sectors whose nodes or costs changed (0 when the map did not change)
   */
  update() { return this._sync() ? this.lastUpdate : 0; }

  /** Recompute the landmarks (with `landmarks` > 0) after updates made them stale: until then
   *  queries use the octile heuristic alone (the same paths, more nodes expanded). Also labels
   *  the graph's connected parts exactly again (`stats.parts`): after an edit that split one,
   *  a goal across the split is answered without a search only after this. */
  refreshLandmarks() {
    this._sync();
    check(api().tnw_hier_refresh_landmarks(this._h), "Hierarchy.refreshLandmarks");
  }

  _ctx(weight) {
    let ctx = this._ctxs.get(weight);
    if (!ctx) {
      ctx = withScratch(4, (st) => {
        const c = api().tnw_hier_ctx_create(weight, st);
        check(i32()[st >> 2], "Hierarchy.find");
        return c;
      });
      this._ctxs.set(weight, ctx);
    }
    return ctx;
  }

  /**
   * A path from `start` to `goal` (cells; with `size`, the unit's top-left cells).
   * @param {{x:number,y:number}} start
   * @param {{x:number,y:number}} goal
   * @param {object} [o]
   * @param {boolean} [o.exact=false] false: the abstract route refined (cost at most
   *        optimum + K * crossingBound for an optimal path with K sector-border crossings);
   *        true: an optimal path (the fast one when it is provably optimal, else a JPS/A* search
   *        of the whole grid: never faster than PathFinder.find)
   * @param {number} [o.weight=1] heuristic weight of the abstract search, >= 1 (above 1: fewer
   *        nodes expanded, the fast bound times weight)
   * @returns the shape of PathFinder.find's result ({found, status, path, cost, expanded, algo
   *          "hpa" or "hpa-exact", end}) plus `refined` (sector searches run) and `proven`
   *          (exact mode: no grid search was needed). A blocked start or goal, or no path:
   *          found false; outside the map or bad options: TilenavError.
   */
  find(start, goal, o = {}) {
    const what = "Hierarchy.find";
    if (o === null || typeof o !== "object") throw new TilenavError(-1, `${what}: options must be an object`);
    knownOptions(o, "hierarchyFind", what);
    const s = cellArg(this.map, start, what, "start"), g = cellArg(this.map, goal, what, "goal");
    if (o.exact !== undefined && typeof o.exact !== "boolean")
      throw new TilenavError(-1, `${what}: exact must be true or false, got ${String(o.exact)}`);
    const weight = numArg(o.weight, what, "weight", { min: 1 }, 1);
    this._sync();
    const w = api(), ctx = this._ctx(weight), exact = o.exact ? 1 : 0;
    if (!this._out) { this._cap = Math.min(1024, this.map.width * this.map.height); this._out = alloc(8 * this._cap); }
    let st;
    for (;;) {
      st = w.tnw_hier_path(ctx, this._h, s.x, s.y, g.x, g.y, exact, this._out, this._cap, this._res);
      if (st !== -4) break;
      const need = i32()[this._res >> 2];
      w.tnw_free(this._out);
      this._out = 0;
      this._cap = Math.max(need, 2 * this._cap);
      this._out = alloc(8 * this._cap);
    }
    const iv = i32(), fv = f64(), r = this._res >> 2;
    const found = st === 0;
    const result = {
      found, status: STATUS[st] ?? String(st), path: [], cost: found ? fv[(this._res + 16) >> 3] : Infinity,
      expanded: fv[(this._res + 24) >> 3], algo: exact ? "hpa-exact" : "hpa",
      end: found ? { x: g.x, y: g.y } : { x: -1, y: -1 }, refined: iv[r + 1], proven: iv[r + 2] !== 0,
    };
    if (st === 2 || st === -10 || st === -11) return result;
    check(st, `${what} from (${s.x}, ${s.y}) to (${g.x}, ${g.y})`);
    result.path = cellsToArray(this._out, iv[r]);
    return result;
  }

  /** The fast mode's additive bound per sector-border crossing of an optimal path:
   *  (1 + 4 * D) * straight step * largest cell cost (hierarchy.h), for the map as it is now. */
  get crossingBound() {
    this._sync();
    return api().tnw_hier_crossing_bound(this._h);
  }

  /** The sector (row-major index) of a cell, -1 outside the map. */
  sectorOf(x, y) {
    const h = liveOn(this, "Hierarchy");
    return xyIn(this.map, x, y, "Hierarchy.sectorOf") ? api().tnw_hier_sector_of(h, x, y) : -1;
  }

  /** The abstract graph: {sectorsX, sectorsY, nodes, intraEdges, interEdges, sectorsRebuilt,
   *  landmarks, landmarksCurrent, parts} (brought up to date with the map first). */
  get stats() {
    this._sync();
    return withScratch(72, (p) => {
      api().tnw_hier_stats(this._h, p);
      const v = f64().slice(p >> 3, (p >> 3) + 9);
      return { sectorsX: v[0], sectorsY: v[1], nodes: v[2], intraEdges: v[3], interEdges: v[4],
        sectorsRebuilt: v[5], landmarks: v[6], landmarksCurrent: v[7] !== 0, parts: v[8] };
    });
  }

  /** Bytes held: the graph, the query contexts (one per weight used) and the path buffer. */
  get memoryBytes() {
    const w = api();
    let n = w.tnw_hier_memory(liveOn(this, "Hierarchy")) + 8 * this._cap + HIER_RES;
    for (const c of this._ctxs.values()) n += w.tnw_hier_ctx_memory(c);
    return n;
  }

  /** A sector flow field towards `goals` on this hierarchy (see SectorField). */
  sectorField(goals, o = {}) { return new SectorField(this, goals, o); }

  /** Release the hierarchy. Sector fields made on it must be freed first. */
  free() { untrack(this, releaseHierarchy); this._cap = 0; }
}
owning(Hierarchy, ["_h", "_cl", "_ctxs", "_out", "_res"]);

function releaseHierarchy(o) {
  if (!o._h) return;
  const w = api();
  for (const c of o._ctxs.values()) w.tnw_hier_ctx_destroy(c);
  o._ctxs.clear();
  w.tnw_hier_destroy(o._h);
  if (o._out) w.tnw_free(o._out);
  w.tnw_free(o._res);
  o._h = 0; o._out = 0; o._res = 0;
  if (o._cl) { releaseSizeMaps(o._mo, o._cl); o._cl = null; }
}

const SECTOR_FIELD_MAX_GOALS = 64;

/**
 * A flow field towards a goal on a huge map, built lazily one sector at a time from a
 * Hierarchy (C: sector_field.h, docs/sector_field.md): direction() and path() build the sectors
 * they touch (a Dijkstra over one sector's cells), and the least recently used sectors are
 * dropped past the memory budget (and rebuilt, identical, when needed again). Following the
 * directions from any cell that can reach a goal reaches one; the cost at a cell is what that
 * walk costs, the hierarchy's fast-path cost. After map edits the field re-aims at its goals by
 * itself at its next use (the hierarchy updates first).
 */
export class SectorField {
  /**
   * @param {Hierarchy} hierarchy (must outlive the field)
   * @param {{x:number,y:number}|{x:number,y:number}[]} goals one cell or 1..64 (the nearest wins)
   * @param {{budget?: number}} [o] bytes of sector tiles to keep (default 4 MiB = 4194304; at
   *        least one tile is always kept; a tile is 5 bytes per cell of a sector)
   */
  constructor(hierarchy, goals, o = {}) {
    const what = "SectorField";
    if (!(hierarchy instanceof Hierarchy)) throw new TilenavError(-1, `${what}: needs a Hierarchy`);
    if (o === null || typeof o !== "object") throw new TilenavError(-1, `${what}: options must be an object`);
    knownOptions(o, "SectorField", what);
    const budget = o.budget ?? 4 * 1024 * 1024;
    if (!(Number.isInteger(budget) && budget >= 1 && budget <= 0xffffffff))
      throw new TilenavError(-1, `${what}: budget must be an integer number of bytes from 1 to 4294967295, got ${String(budget)}`);
    this.hierarchy = hierarchy;
    this.map = hierarchy.map;
    this.width = hierarchy.map.width;
    this.height = hierarchy.map.height;
    this.budget = budget;
    this._goals = [];
    this._cap = 0;
    this._o = { _h: 0, _out: 0 };
    withScratch(4, (st) => {
      this._h = api().tnw_sfield_create(liveHandle(hierarchy, "Hierarchy"), budget, st);
      check(i32()[st >> 2], what);
    });
    track(this, releaseSectorField);
    try {
      this.setGoal(goals);
    } catch (e) {
      this.free();
      throw e;
    }
  }

  /** Aim the field at `goals` (one cell or 1..64): one Dijkstra on the abstract graph; every
   *  sector built before is dropped. A blocked goal: TilenavError "goal blocked". */
  setGoal(goals) {
    const what = "SectorField.setGoal";
    const list = (Array.isArray(goals) ? goals : [goals]).map((g, i) => cellArg(this.map, g, what, `goal ${i}`));
    if (list.length < 1 || list.length > SECTOR_FIELD_MAX_GOALS)
      throw new TilenavError(-1, `${what}: 1 to ${SECTOR_FIELD_MAX_GOALS} goals, got ${list.length}`);
    this.hierarchy._sync();
    try {
      this._aim(list, what);
    } catch (e) {
      this._goals = []; // the field has no goal now (the C field's rule)
      throw e;
    }
    this._goals = list;
  }

  _aim(list, what) {
    withScratch(8 * list.length, (p) => {
      writeCells(p, list);
      const st = api().tnw_sfield_set_goal(liveHandle(this, "SectorField"), p, list.length);
      this._rev = -1;
      const g = list.length === 1 ? ` (${list[0].x}, ${list[0].y})` : "";
      check(st, `${what}${g}`);
    });
    this._rev = this.hierarchy._rev;
  }

  // Follow the map: update the hierarchy, re-aim when it changed since the goal was set.
  _sync(what) {
    liveHandle(this, "SectorField");
    this.hierarchy._sync();
    if (!this._goals.length) throw new TilenavError(-15, `${what}: no goal (the last setGoal failed)`);
    if (this._rev !== this.hierarchy._rev) this._aim(this._goals, what);
  }

  /** The goals set. */
  get goals() { return this._goals.map((g) => ({ x: g.x, y: g.y })); }

  /**
   * The step to take at cell (x, y) towards a goal and the cost of the route the directions
   * take from there: {dir, cost}. dir 0..7 numbers the neighbours as FlowField.directions()
   * (0 = +x, then clockwise on screen); {dir: -1, cost: 0} on a goal, {dir: -1, cost: Infinity}
   * on a blocked cell or one with no route. Builds the cell's sector if it is not kept. Outside
   * the map: TilenavError "out of map".
   */
  direction(x, y) {
    const what = "SectorField.direction";
    if (!xyIn(this, x, y, what)) throw outOfMap(this, x, y, what, "cell");
    this._sync(what);
    return withScratch(8, (p) => {
      const st = api().tnw_sfield_dir(this._h, x, y, p, p + 4);
      if (st === 2) return { dir: -1, cost: Infinity };
      check(st, `${what}(${x}, ${y})`);
      return { dir: i32()[p >> 2], cost: f32()[(p + 4) >> 2] };
    });
  }

  /** direction() for every cell of a width x height window from (x, y) (inside the map), in
   *  one call: {directions: Int8Array, costs: Float32Array}, row-major. Builds its sectors. */
  window(x, y, width, height) {
    const what = "SectorField.window";
    for (const [v, name] of [[x, "x"], [y, "y"], [width, "width"], [height, "height"]]) cellCoord(v, what, name);
    if (x < 0 || y < 0 || width < 0 || height < 0 || x + width > this.width || y + height > this.height)
      throw new TilenavError(-9, `${what}(${x}, ${y}, ${width}, ${height})`);
    this._sync(what);
    const n = width * height;
    return withScratch(5 * n + 8, (p) => {
      const costs = p, dirs = p + 4 * n;
      check(api().tnw_sfield_dirs(this._h, x, y, width, height, dirs, costs), what);
      return { directions: new Int8Array(api().memory.buffer, dirs, n).slice(), costs: f32().slice(costs >> 2, (costs >> 2) + n) };
    });
  }

  /** Follow the directions from `start` to a goal: {found, path, cost} (as FlowField.pathFrom). */
  path(start) {
    const what = "SectorField.path", s = cellArg(this.map, start, what, "start");
    this._sync(what);
    const w = api();
    if (!this._out) { this._cap = Math.min(1024, this.width * this.height); this._out = alloc(8 * this._cap + 16); }
    for (;;) {
      const len = this._out + 8 * this._cap, cost = len + 8;
      const st = w.tnw_sfield_path(this._h, s.x, s.y, this._out, this._cap, len, cost);
      if (st === 2) return { found: false, path: [], cost: Infinity };
      if (st === -4) {
        const need = i32()[len >> 2];
        w.tnw_free(this._out);
        this._out = 0;
        this._cap = Math.max(need, 2 * this._cap);
        this._out = alloc(8 * this._cap + 16);
        continue;
      }
      check(st, `${what} from (${s.x}, ${s.y})`);
      return { found: true, path: cellsToArray(this._out, i32()[len >> 2]), cost: f64()[cost >> 3] };
    }
  }

  /** What the field has done since its goal was last set: {goals, nodesReached, tilesKept,
   *  tilesMax (what the budget holds), tilesBuilt (rebuilds included), tilesEvicted, tileBytes}. */
  get stats() {
    return withScratch(64, (p) => {
      api().tnw_sfield_stats(liveHandle(this, "SectorField"), p);
      const v = f64().slice(p >> 3, (p >> 3) + 8);
      return { goals: v[0], nodesReached: v[1], tilesKept: v[2], tilesMax: v[3], tilesBuilt: v[4],
        tilesEvicted: v[5], tileBytes: v[6] };
    });
  }

  /** Bytes held now: the border cells' costs and the sectors kept (plus the path buffer). */
  get memoryBytes() { return api().tnw_sfield_memory(liveHandle(this, "SectorField")) + (this._out ? 8 * this._cap + 16 : 0); }

  free() { untrack(this, releaseSectorField); this._cap = 0; }
}
owning(SectorField, ["_h", "_out"]);

function releaseSectorField(o) {
  if (!o._h) return;
  api().tnw_sfield_destroy(o._h);
  if (o._out) api().tnw_free(o._out);
  o._h = 0; o._out = 0;
}

const AGENT_FLOATS = 7, CROWD_MAX_AGENTS = 2 ** 20 - 2; // TN_CROWD_MAX_AGENTS

// A seek/arrive/flee goal: a point {x, y} of finite numbers (pixels).
function goalPoint(g, what) {
  if (!(g !== null && typeof g === "object" && Number.isFinite(g.x) && Number.isFinite(g.y)))
    throw new TilenavError(-1, `${what}: goal must be a point {x, y} of finite numbers (pixels), got ${shown(g)}`);
  return g;
}

// The goal of a "seek", "arrive" or "flee" target: required (without one the agent would head
// for pixel (0, 0)), and a point.
function seekGoal(g, target, what) {
  if (g === undefined)
    throw new TilenavError(-1, `${what}: target ${JSON.stringify(String(target).toLowerCase())} needs a goal {x, y} in pixels, none given`);
  return goalPoint(g, what);
}

// An agent id (Crowd.add's): a positive integer below 2^32 (the module's uint32).
const agentId = (id, what) => numArg(id, what, "id", { min: 1, max: 0xffffffff, int: true });

// A random seed (default 1): an integer from 0 (the module takes up to 2^64; past 2^53 a
// Number is not exact).
const seedArg = (seed, what) => numArg(seed, what, "seed", { min: 0, max: Number.MAX_SAFE_INTEGER, int: true }, 1);

/** Many steering agents advanced together in fixed steps (separation, alignment, cohesion,
 *  avoidance, walls, flow following). Positions are pixels. */
export class Crowd {
  /**
   * @param {TileMap} map (must outlive the crowd)
   * @param {object} [o]
   * @param {number} [o.capacity=1024] most agents
   * @param {number} [o.dt=1/60] seconds per step
   * @param {number} [o.seed=1] random seed (wander)
   * @param {boolean} [o.pushApart=false] separate overlapping agents after each step
   * @param {number} [o.neighbourRadius=32] pixels
   */
  constructor(map, o = {}) {
    const what = "Crowd", h = mapArg(map, what);
    knownOptions(o, "Crowd", what);
    this.map = map;
    this.capacity = numArg(o.capacity, what, "capacity", { min: 1, max: CROWD_MAX_AGENTS, int: true }, 1024);
    const dt = numArg(o.dt, what, "dt", { min: 0, gt: true }, 1 / 60); // seconds per step
    const seed = seedArg(o.seed, what), radius = numArg(o.neighbourRadius, what, "neighbourRadius", { min: 0, gt: true }, 0);
    const pushApart = flagOption(o.pushApart, what, "pushApart", false);
    // flow slots 0..maxFlows-1 (default 8, tn_crowd_def_default()'s max_flows)
    this.maxFlows = numArg(o.maxFlows, what, "maxFlows", { min: 1, max: CROWD_MAX_FLOWS, int: true }, 8);
    const { ints, floats } = crowdKnobs(o, what);
    ints[4] = this.maxFlows;
    this._o = { _h: 0, _ids: 0, _state: 0 };
    withScratch(4 + 4 * ints.length + 4 * floats.length, (st) => {
      const ip = st + 4, fp = ip + 4 * ints.length;
      i32().set(ints, ip >> 2);
      f32().set(floats, fp >> 2);
      this._h = api().tnw_crowd_create(h, this.capacity, dt, seed, pushApart ? 1 : 0, radius, ip, fp, st);
      check(i32()[st >> 2], "Crowd");
    });
    track(this, releaseCrowd);
    this._ids = alloc(4 * this.capacity);
    this._state = alloc(4 * AGENT_FLOATS * this.capacity);
    this._sectors = new globalThis.Map(); // flow slot -> SectorField
    // {kind, size} of each slot's field; a FlowField's also {field, gen}: the build copied
    this._slotField = new Array(this.maxFlows).fill(null);
    this._agentInfo = new globalThis.Map(); // id -> {size, slot} (slot -1: not following a flow)
    this._followers = Array.from({ length: this.maxFlows }, () => new globalThis.Map()); // slot -> size -> agents
  }

  // A flow slot: an integer 0..maxFlows-1 (TilenavError naming the range otherwise).
  _slot(slot, what) {
    if (!(Number.isInteger(slot) && slot >= 0 && slot < this.maxFlows))
      throw new TilenavError(-1, `${what}: flow slot must be an integer from 0 to ${this.maxFlows - 1}, got ${shown(slot)}`);
    return slot;
  }

  // An agent of `size` may follow `slot` only when the slot holds a field of its size (set
  // with setFlow() first: an agent following an empty slot would stand still, silently).
  _checkFollow(slot, size, what) {
    const f = this._slotField[slot];
    if (!f)
      throw new TilenavError(-15, `${what}: target "flow" follows flow slot ${slot}, which holds no field: call setFlow(${slot}, field) first${slot === 0 ? " (or give the agent's flow slot: flow: 0..7)" : ""}`);
    if (f.size !== size)
      throw new TilenavError(-1, `${what}: flow slot ${slot} holds a ${f.kind} for size ${f.size} units, the agent's size is ${size} (agents follow fields made with their size)`);
  }

  // Keep count of who follows which slot (so that setFlow can refuse a field of another size).
  _follow(id, size, slot) {
    const old = this._agentInfo.get(id);
    if (old && old.slot >= 0) {
      const m = this._followers[old.slot], n = m.get(old.size) - 1;
      if (n > 0) m.set(old.size, n); else m.delete(old.size);
    }
    if (size === 0) { this._agentInfo.delete(id); return; }
    this._agentInfo.set(id, { size, slot });
    if (slot >= 0) { const m = this._followers[slot]; m.set(size, (m.get(size) ?? 0) + 1); }
  }

  /**
   * Let agents with target "flow" and this `slot` (0..7) follow `field` (null clears the slot);
   * the field must be on the crowd's map. A FlowField: it must be built; the crowd reads a copy
   * of its vectors, which step() takes again after each build() or update() of the field (the
   * PhaserNav's fields are updated at each edit), so the agents follow its latest state; a
   * field freed after setFlow is followed as it was. Agents of size n follow slots set from
   * fields with `size: n`.
   * A SectorField (huge maps): the crowd reads it in place; before each step, step() brings it
   * up to date with the map and builds the sectors under the agents following the slot (their
   * four cells around each), and aims at its first goal (no line of sight). When those sectors
   * do not fit the field's budget, step() throws a TilenavError ("full") saying so.
   */
  setFlow(slot, field) {
    const h = liveOn(this, "Crowd");
    this._slot(slot, "Crowd.setFlow");
    if (!(field == null || field instanceof FlowField || field instanceof SectorField))
      throw new TypeError(`tilenav: Crowd.setFlow: field must be a FlowField, a SectorField or null, got ${shown(field)}`);
    if (field === null || field === undefined) {
      check(api().tnw_crowd_set_flow(h, slot, 0, 0, 0), "Crowd.setFlow");
      this._sectors.delete(slot);
      this._slotField[slot] = null;
      return;
    }
    const kind = field instanceof SectorField ? "SectorField" : "FlowField";
    const size = field instanceof SectorField ? field.hierarchy.size : field.size;
    const on = field instanceof SectorField ? field.hierarchy.map : field.map;
    if (on !== this.map)
      throw new TilenavError(-1, `Crowd.setFlow: the ${kind} was made on another map (${on.width}x${on.height}) than the crowd's (${this.map.width}x${this.map.height}): make it with the crowd's map`);
    for (const [other, n] of this._followers[slot])
      if (n > 0 && other !== size)
        throw new TilenavError(-1, `Crowd.setFlow: flow slot ${slot} is followed by agents of size ${other}, the ${kind} is for size ${size} (agents follow fields made with their size)`);
    if (field instanceof SectorField) {
      if (field.width !== this.map.width || field.height !== this.map.height)
        throw new TilenavError(-1, `Crowd.setFlow: the SectorField's map is ${field.width}x${field.height}, the crowd's ${this.map.width}x${this.map.height}`);
      field._sync("Crowd.setFlow");
      const g = field._goals[0];
      check(api().tnw_crowd_set_sector_flow(h, slot, field._h, g.x, g.y), "Crowd.setFlow");
      this._sectors.set(slot, field);
      this._slotField[slot] = { kind, size };
      return;
    }
    const g = field.goals[0];
    if (!g) throw new TilenavError(-15, "Crowd.setFlow (build the field first)");
    check(api().tnw_crowd_set_flow(h, slot, liveOn(field, "FlowField"), g.x, g.y), "Crowd.setFlow");
    this._sectors.delete(slot);
    this._slotField[slot] = { kind, size, field, gen: field._gen };
  }

  /**
   * Add an agent; returns its id (a positive integer).
   * @param {object} a
   * @param {number} a.x pixels (the circle must not overlap a wall)
   * @param {number} a.y
   * @param {number} [a.radius=6] pixels, below size x half the smaller tile side
   * @param {number} [a.maxSpeed=120] pixels per second, at most 1e9
   * @param {number} [a.maxForce=480] at most 1e12
   * @param {"none"|"seek"|"arrive"|"flee"|"flow"} [a.target="none"]
   * @param {{x:number,y:number}} [a.goal] pixels, for seek/arrive/flee
   * @param {number} [a.flow=0] flow slot, for "flow"
   * @param {number} [a.size=1] size class in cells (1..255): an agent of size n follows flow
   *        slots set from a FlowField with `size: n`, reading it at its top-left cell (the cell
   *        of its centre minus (n - 1) / 2 tiles); radius below n half tiles; walls stop it
   *        as a circle of at least (n - 1/2) half tiles, so it passes no gap narrower than n
   * @param {number} [a.slowRadius=32] pixels >= 0: "arrive" and "flow" agents slow down
   *        within it of their goal
   * @param {number} [a.arriveRadius=8] pixels >= 0: within it of its goal an agent has arrived
   * @param {number} [a.arriveArea=0] pixels >= 0, the goal area of a crowd that stays (0:
   *        none): inside it an agent touching an arrived agent with the same goal arrives too,
   *        `held`, and holds its place instead of pushing into the packed goal
   * @param {object} [a.weights] behaviour weights to change (-1e6..1e6; 0 turns one off):
   *        target 1, separation 2, cohesion 0.2, alignment 0.5, avoidAgents 1, avoidWalls 1,
   *        wander 0 by default
   */
  add(a) {
    const what = "Crowd.add", h = liveOn(this, "Crowd");
    if (a === null || typeof a !== "object") throw new TilenavError(-1, `${what}: the agent must be an object {x, y, ...}, got ${shown(a)}`);
    knownOptions(a, "agent", what);
    const size = unitSize(a.size, what), target = pick(TARGET, a.target, "target", 0);
    if (!(Number.isFinite(a.x) && Number.isFinite(a.y)))
      throw new TilenavError(-1, `${what}: x and y must be finite numbers (pixels), got x = ${shown(a.x)}, y = ${shown(a.y)}`);
    if (a.radius !== undefined && !(typeof a.radius === "number" && a.radius > 0 && Number.isFinite(a.radius)))
      throw new TilenavError(-1, `${what}: radius must be a positive number of pixels, got ${shown(a.radius)}`);
    // 0 asks the glue for the library's defaults (120 pixels per second, 480)
    const maxSpeed = numArg(a.maxSpeed, what, "maxSpeed", { min: 0, gt: true, max: CROWD_MAX_SPEED }, 0), maxForce = numArg(a.maxForce, what, "maxForce", { min: 0, gt: true, max: CROWD_MAX_FORCE }, 0);
    // -1 asks the glue for the library's defaults (32, 8 and 0 pixels)
    const arriving = ["slowRadius", "arriveRadius", "arriveArea"].map((k) => numArg(a[k], what, k, { min: 0, max: F32_MAX }, -1));
    const weights = agentWeights(a.weights, what);
    // the library's rule, in its float arithmetic: radius < 0.5 * smaller tile side * size
    const r = a.radius ?? 6, tmin = Math.min(this.map.tileWidth, this.map.tileHeight);
    if (!(Math.fround(r) < Math.fround(Math.fround(0.5 * Math.fround(tmin)) * size)))
      throw new TilenavError(-1, `${what}: radius ${r}${a.radius === undefined ? " (the default)" : ""} must be below size x half the smaller tile side: ${size} x ${tmin} / 2 = ${size * tmin / 2} pixels`);
    if (target >= 1 && target <= 3) seekGoal(a.goal, a.target, what);
    const slot = a.flow !== undefined || target === 4 ? this._slot(a.flow ?? 0, what) : 0;
    if (target === 4) this._checkFollow(slot, size, what);
    const id = withScratch(4 + 4 * 3 + 4 * 7, (st) => {
      const ap = st + 4, wp = ap + 4 * 3, fv = f32();
      arriving.forEach((v, k) => { fv[(ap >> 2) + k] = v; });
      weights.values.forEach((v, k) => { fv[(wp >> 2) + k] = v; });
      const id = api().tnw_crowd_add(h, a.x, a.y, r, maxSpeed, maxForce, target,
        a.goal?.x ?? 0, a.goal?.y ?? 0, slot, size, ap, wp, weights.mask, st);
      const status = i32()[st >> 2];
      if (status === -1) // what is left for the library to refuse: the circle's place
      {
        // walls stop a unit of size n >= 2 as a circle of at least (n - 1/2) half tiles
        const wall = size > 1 ? Math.max(r, (size - 0.5) * tmin / 2) : r;
        throw new TilenavError(-1, `${what}: the agent's circle (centre ${a.x}, ${a.y}, radius ${wall} pixels${wall !== r ? `, the least for size ${size}` : ""}) must be inside the map and clear of blocked cells`);
      }
      check(status, what);
      return id >>> 0;
    });
    this._follow(id, size, target === 4 ? slot : -1);
    return id;
  }

  /** Remove an agent (TilenavError "stale id" when it is gone already). */
  remove(id) {
    check(api().tnw_crowd_remove(liveOn(this, "Crowd"), agentId(id, "Crowd.remove")), "Crowd.remove");
    this._follow(id, 0, -1);
  }

  /** Change an agent's target: setTarget(id, "arrive", {x, y}) or setTarget(id, "flow", slot)
   *  (slot 0..maxFlows-1, default 0; the slot's field must be of the agent's size). */
  setTarget(id, kind, goalOrSlot) {
    const what = "Crowd.setTarget", h = liveOn(this, "Crowd"), k = pick(TARGET, kind, "target", 0);
    agentId(id, what);
    const flow = k === 4 ? this._slot(goalOrSlot ?? 0, what) : 0;
    const info = this._agentInfo.get(id);
    if (k === 4 && info) this._checkFollow(flow, info.size, what);
    const g = k >= 1 && k <= 3 ? seekGoal(goalOrSlot, kind, what) : { x: 0, y: 0 }; // as add()'s goal
    check(api().tnw_crowd_set_target(h, id, k, g.x, g.y, flow), what);
    if (info) this._follow(id, info.size, k === 4 ? flow : -1);
  }

  /** Set one behaviour weight of an agent: "target", "separation", "cohesion", "alignment",
   *  "avoidAgents", "avoidWalls" or "wander" (a number from -1e6 to 1e6; 0 turns it off). */
  setWeight(id, behaviour, weight) {
    const what = "Crowd.setWeight", h = liveOn(this, "Crowd");
    agentId(id, what);
    const b = behaviourOf(behaviour, what);
    const w = numArg(weight, what, "weight", { min: -CROWD_MAX_WEIGHT, max: CROWD_MAX_WEIGHT });
    check(api().tnw_crowd_set_weight(h, id, b, w), what);
  }

  /** Advance every agent by `steps` fixed steps (default 1). Slots following a FlowField built
   *  or updated since they copied it copy it again first; slots following a SectorField get
   *  their sectors built before each step (see setFlow). */
  step(steps = 1) {
    const h = liveOn(this, "Crowd");
    stepCount(steps, "Crowd.step");
    this._slotField.forEach((s, slot) => {
      const f = s?.field; // freed since setFlow: followed as it was
      if (!f?._h || f._gen === s.gen) return;
      const g = f._goals[0];
      check(api().tnw_crowd_set_flow(h, slot, f._h, g.x, g.y), "Crowd.step");
      s.gen = f._gen;
    });
    if (!this._sectors.size) { check(api().tnw_crowd_step(h, steps), "Crowd.step"); return; }
    const w = api(), slots = [...this._sectors.keys()], fields = slots.map((s) => this._sectors.get(s));
    for (let k = 0; k < slots.length; k++) { // follow map edits and setGoal: the view aims at goal 0
      const f = fields[k], g = (f._sync("Crowd.step"), f._goals[0]);
      check(w.tnw_crowd_set_sector_flow(h, slots[k], f._h, g.x, g.y), "Crowd.step");
    }
    withScratch(8 * slots.length + 4, (p) => {
      const sp = p + 4 * slots.length, failed = sp + 4 * slots.length, v = i32();
      fields.forEach((f, k) => { v[(p >> 2) + k] = f._h; v[(sp >> 2) + k] = slots[k]; });
      const st = w.tnw_crowd_step_sectors(h, steps, p, sp, slots.length, failed);
      if (st === -13) {
        const k = i32()[failed >> 2], f = fields[k], s = f.stats;
        throw new TilenavError(st, `Crowd.step: the SectorField of flow slot ${slots[k]} has a budget of ${f.budget} bytes (${s.tilesMax} sector${s.tilesMax === 1 ? "" : "s"} of ${s.tileBytes} bytes), too small for the sectors its agents stand on: raise its budget`);
      }
      check(st, "Crowd.step");
    });
  }

  /** Number of live agents. */
  get count() { return api().tnw_crowd_count(liveOn(this, "Crowd")); }

  /** Every live agent: [{id, x, y, vx, vy, heading, radius, arrived, held}], in no fixed order
   *  (each step sorts the agents by place; remove() moves them): go by `id`, not by index.
   *  `arrived`: within its arriveRadius of its goal, or held in its arriveArea (`held`). */
  agents() {
    const n = check(api().tnw_crowd_read(liveOn(this, "Crowd"), this._ids, this._state, this.capacity), "Crowd.agents");
    const ids = new Uint32Array(api().memory.buffer, this._ids, n), s = f32(), b = this._state >> 2;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const o = b + AGENT_FLOATS * i;
      out[i] = { id: ids[i], x: s[o], y: s[o + 1], vx: s[o + 2], vy: s[o + 3], heading: s[o + 4], radius: s[o + 5], arrived: s[o + 6] !== 0, held: s[o + 6] === 2 };
    }
    return out;
  }

  /**
   * Every live agent's state with no per-agent objects: `data` is a Float32Array over the
   * module's memory with `stride` (7) floats per agent: x, y, vx, vy, heading, radius,
   * arrived (0 no, 1 within its arriveRadius, 2 held in its arriveArea); `ids` a Uint32Array:
   * row i is agent ids[i]. The rows' order changes between
   * steps (each step sorts the agents by place) and on remove(): match rows to sprites through
   * `ids`, never by index. Refreshed by this call (no allocation); detached when the module's
   * memory grows, so call it once per frame after step().
   * @returns {{count: number, stride: number, ids: Uint32Array, data: Float32Array}}
   */
  view() {
    const n = check(api().tnw_crowd_read(liveOn(this, "Crowd"), this._ids, this._state, this.capacity), "Crowd.view");
    const buf = api().memory.buffer;
    return { count: n, stride: AGENT_FLOATS, ids: new Uint32Array(buf, this._ids, n), data: new Float32Array(buf, this._state, AGENT_FLOATS * n) };
  }

  /** A 64-bit hash of the whole state (positions, velocities, flags, the random state): the
   *  same inputs and seed give the same hash here, in C and in Python, on every system. Lockstep
   *  games compare it to find a desync. */
  get hash() {
    const h = liveOn(this, "Crowd");
    return withScratch(8, (p) => {
      check(api().tnw_crowd_hash(h, p), "Crowd.hash");
      const v = new Uint32Array(api().memory.buffer, p, 2);
      return (BigInt(v[1]) << 32n) | BigInt(v[0]);
    });
  }

  /** Largest overlap of any agent with a wall, in pixels: 0 while the map does not change under
   *  the agents (agents never move into walls, but a cell blocked where one stands overlaps it,
   *  and an agent walled in there stays). */
  maxWallOverlap() { return api().tnw_crowd_max_wall_overlap(liveOn(this, "Crowd")); }

  free() { untrack(this, releaseCrowd); this._agentInfo.clear(); }
}
owning(Crowd, ["_h", "_ids", "_state"]);

function releaseCrowd(o) {
  if (!o._h) return;
  const w = api();
  w.tnw_crowd_destroy(o._h);
  if (o._ids) w.tnw_free(o._ids);
  if (o._state) w.tnw_free(o._state);
  o._h = o._ids = o._state = 0;
}

/**
 * Marbles (the book's spatial-grid example): circles that bounce off each other and off the
 * walls of a map, found by a broad phase, swept so fast marbles never pass through each other
 * or through a wall. Velocities are pixels per step.
 */
export class Marbles {
  /**
   * @param {object} o
   * @param {TileMap} [o.map] its blocked cells are walls (must outlive the marbles)
   * @param {number} [o.width] world width in pixels (default: the map's)
   * @param {number} [o.height] world height in pixels (default: the map's)
   * @param {number} [o.capacity=1024]
   * @param {number} [o.restitution=1] bounce, 0..1 (1 keeps the energy)
   */
  constructor(o = {}) {
    const what = "Marbles";
    knownOptions(o, "Marbles", what);
    const map = o.map ?? null, mh = map ? mapArg(map, what) : 0;
    this.map = map; // its walls are read in place: it must outlive the marbles
    const w = o.width ?? (map ? map.width * map.tileWidth : undefined), h = o.height ?? (map ? map.height * map.tileHeight : undefined);
    if (w === undefined || h === undefined) throw new TypeError("tilenav: Marbles needs a map or a width and height");
    this._world = { w: numArg(w, what, "width", { min: 0, gt: true }), h: numArg(h, what, "height", { min: 0, gt: true }) };
    this.capacity = numArg(o.capacity, what, "capacity", { min: 1, max: 65536, int: true }, 1024);
    const restitution = numArg(o.restitution, what, "restitution", { min: 0, max: 1 }, 1);
    this._o = { _h: 0 };
    withScratch(4, (st) => {
      this._h = api().tnw_marbles_create(mh, w, h, this.capacity, restitution, st);
      check(i32()[st >> 2], "Marbles");
    });
    track(this, releaseMarbles);
  }

  /** Add a marble at (x, y) with velocity (vx, vy) per step and radius r; returns its index. */
  add(x, y, vx, vy, r) {
    const what = "Marbles.add", h = liveOn(this, "Marbles");
    for (const [v, name] of [[x, "x"], [y, "y"]]) numArg(v, what, name, {});
    // the map's circle mover works in 32-bit floats: a speed past one is lost there
    for (const [v, name] of [[vx, "vx"], [vy, "vy"]]) numArg(v, what, name, { min: -MAX_SPEED, max: MAX_SPEED });
    numArg(r, what, "r", { min: 0, gt: true });
    const i = api().tnw_marbles_add(h, x, y, vx, vy, r), at = `the marble at (${x}, ${y}) of radius ${r}`;
    if (i === -9) throw new TilenavError(i, `${what}: ${at} must lie inside the ${this._world.w} x ${this._world.h} pixel world`);
    if (i === -1) throw new TilenavError(i, `${what}: ${at} must be clear of the map's blocked cells`);
    return check(i, what);
  }

  /** Set a marble's velocity (pixels per step). */
  setVelocity(i, vx, vy) {
    const what = "Marbles.setVelocity", h = liveOn(this, "Marbles");
    if (!(Number.isInteger(i) && i >= 0 && i < this.count))
      throw new TilenavError(-1, `${what}: i must be the index of a marble (0 to count - 1; ${this.count} marbles), got ${shown(i)}`);
    numArg(vx, what, "vx", { min: -MAX_SPEED, max: MAX_SPEED }); numArg(vy, what, "vy", { min: -MAX_SPEED, max: MAX_SPEED });
    check(api().tnw_marbles_set_velocity(h, i, vx, vy), what);
  }

  /** Advance `steps` steps (default 1). */
  step(steps = 1) { check(api().tnw_marbles_step(liveOn(this, "Marbles"), stepCount(steps, "Marbles.step")), "Marbles.step"); }

  /** Number of marbles. */
  get count() { return api().tnw_marbles_count(liveOn(this, "Marbles")); }

  /** Every marble: [{x, y, vx, vy, r}], by index. */
  marbles() {
    const n = this.count, p = api().tnw_marbles_data(liveOn(this, "Marbles")) >> 3, v = f64(), out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = { x: v[p + 5 * i], y: v[p + 5 * i + 1], vx: v[p + 5 * i + 2], vy: v[p + 5 * i + 3], r: v[p + 5 * i + 4] };
    return out;
  }

  /** Kinetic energy (sum of r² v² / 2): constant with restitution 1. */
  energy() { return api().tnw_marbles_energy(liveOn(this, "Marbles")); }

  /** Contacts resolved during the last step. */
  get lastContacts() { return api().tnw_marbles_contacts(liveOn(this, "Marbles")); }

  free() { untrack(this, releaseMarbles); }
}
owning(Marbles, ["_h"]);
function releaseMarbles(o) { if (o._h) { api().tnw_marbles_destroy(o._h); o._h = 0; } }

/**
 * The book's AI race car: it reads a target heading (degrees) from an angle map under it,
 * turns towards it (plus a random variation when the angle changes), accelerates to its top
 * speed and is slowed by the friction of the cell it is on (grass). Units are per step.
 */
export class AngleCar {
  /**
   * @param {object} o
   * @param {number} o.width cells of the angle map
   * @param {number} o.height
   * @param {number} [o.tileWidth=64] pixels (also tileSize)
   * @param {number} [o.tileHeight=64]
   * @param {ArrayLike<number>} o.angles width*height headings in degrees (0 = +x, 90 = down)
   * @param {ArrayLike<number>} o.friction width*height velocity multipliers per step
   *        (the book: 0.96 on the track, 0.25 on grass)
   * @param {number} o.x start centre, pixels
   * @param {number} o.y
   * @param {number} [o.rotation=0] radians
   * @param {number} [o.jitter=20] degrees of random variation at each new map angle (0 = off)
   * @param {number} [o.seed=1]
   */
  constructor(o) {
    knownOptions(o ?? null, "AngleCar", "AngleCar");
    const { width: w, height: h } = o, n = w * h;
    if (!(Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0) || o.angles?.length !== n || o.friction?.length !== n)
      throw new TypeError("tilenav: AngleCar needs width, height and width*height angles and friction");
    this._o = { _h: 0 };
    const a = alloc(4 * n), f = alloc(4 * n), st = alloc(4);
    try {
      const v = f32();
      for (let i = 0; i < n; i++) { v[(a >> 2) + i] = o.angles[i]; v[(f >> 2) + i] = o.friction[i]; }
      const tw = o.tileWidth ?? o.tileSize ?? 64, th = o.tileHeight ?? o.tileSize ?? 64;
      this._h = api().tnw_car_create(w, h, tw, th, a, f, o.x, o.y, o.rotation ?? 0, o.jitter ?? 20, o.seed ?? 1, st);
      check(i32()[st >> 2], "AngleCar");
      track(this, releaseCar);
    } finally {
      api().tnw_free(a); api().tnw_free(f); api().tnw_free(st);
    }
  }

  /** Advance `steps` steps (default 1). */
  step(steps = 1) { check(api().tnw_car_step(liveHandle(this, "AngleCar"), stepCount(steps, "AngleCar.step")), "AngleCar.step"); }

  /** {x, y, vx, vy, rotation, speed, friction}: pixels, pixels per step, radians. */
  state() {
    const p = api().tnw_car_state(liveHandle(this, "AngleCar")) >> 2, v = f32();
    return { x: v[p], y: v[p + 1], vx: v[p + 2], vy: v[p + 3], rotation: v[p + 4], speed: v[p + 5], friction: v[p + 6] };
  }

  free() { untrack(this, releaseCar); }
}
owning(AngleCar, ["_h"]);
function releaseCar(o) { if (o._h) { api().tnw_car_destroy(o._h); o._h = 0; } }

/**
 * A sprite that wanders the rows and columns of a map (the book's moving bombs): it moves
 * `speed` pixels per step and, on each cell centre, takes a random open direction among the
 * four neighbours (reversing at the map's edge).
 */
export class GridWanderer {
  /**
   * @param {TileMap} map (must outlive the wanderer)
   * @param {{x:number,y:number}} cell the start cell (passable)
   * @param {{speed?: number, seed?: number}} [o] pixels per step (default 1), random seed
   */
  constructor(map, cell, o = {}) {
    const what = "GridWanderer", mh = mapArg(map, what);
    knownOptions(o, "GridWanderer", what);
    cellIn(map, cell, what, "cell");
    if (!map.passable(cell.x, cell.y))
      throw new TilenavError(-1, `${what}: cell {x: ${cell.x}, y: ${cell.y}} is blocked (a wanderer starts on a passable cell)`);
    const speed = numArg(o.speed, what, "speed", { min: 0, gt: true }, 1), seed = seedArg(o.seed, what);
    this.map = map;
    this._o = { _h: 0 };
    withScratch(4, (st) => {
      this._h = api().tnw_wanderer_create(mh, cell.x, cell.y, speed, seed, st);
      check(i32()[st >> 2], "GridWanderer");
    });
    track(this, releaseWanderer);
  }

  /** Advance `steps` steps (default 1). */
  step(steps = 1) { check(api().tnw_wanderer_step(liveOn(this, "GridWanderer"), stepCount(steps, "GridWanderer.step")), "GridWanderer.step"); }

  /** {x, y, cell: {x, y}, dir: {x, y}}: centre in pixels, last cell centre reached, direction. */
  state() {
    const p = api().tnw_wanderer_state(liveOn(this, "GridWanderer")), v = f32(), iv = i32(), o = p >> 2;
    return { x: v[o], y: v[o + 1], cell: { x: iv[o + 2], y: iv[o + 3] }, dir: { x: iv[o + 4], y: iv[o + 5] } };
  }

  free() { untrack(this, releaseWanderer); }
}
owning(GridWanderer, ["_h"]);
function releaseWanderer(o) { if (o._h) { api().tnw_wanderer_destroy(o._h); o._h = 0; } }
