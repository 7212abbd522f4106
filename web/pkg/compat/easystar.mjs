// tilenav/compat/easystar: EasyStar.js's (npm "easystarjs" 0.4.x) asynchronous A* API over
// tilenav's time-sliced queries. Switch by changing the import:
//
//   import EasyStar from "tilenav/compat/easystar";   // was: import EasyStar from "easystarjs"
//   const easystar = new EasyStar.js();
//   easystar.setGrid(grid);                  // grid[y][x] = tile id
//   easystar.setAcceptableTiles([0]);
//   easystar.findPath(0, 0, 4, 0, (path) => { /* [{x, y}, ...] or null */ });
//   easystar.setIterationsPerCalculation(1000);
//   // each frame:
//   easystar.calculate();
//
// Costs as in EasyStar.js: a straight step costs the entered tile's cost, a diagonal one 1.4
// times it. Paths are the shortest under those costs: EasyStar.js's own heuristic overestimates
// with diagonals (1.4 dx + dy), so with diagonals its paths can be longer than these; without
// diagonals both are shortest (ties may be broken differently). An "iteration" is one node
// expansion, as in EasyStar.js. Not supported: setDirectionalCondition, setAdditionalPointCost
// (they throw). The module loads tilenav.wasm itself (top-level await).
// The grid array is read as EasyStar.js reads it: live. Before each search begins, the array
// (and the acceptable tiles' array) is compared with what the tilenav map was last given, and
// only the cells that changed are written to the map, so its regions and clearance update
// incrementally; avoided points are written the same way.
// Added: setUnitSize(n) for units of n x n tiles: the paths are those of the unit's top-left
// tile, every step keeps the whole footprint on acceptable tiles (without corner cutting a
// diagonal step needs the (n+1)-square it sweeps), entering a position costs the largest tile
// cost under the footprint, and a start or end where the unit does not fit gives null.
import { init, TileMap, PathFinder, TilenavError } from "../tilenav.mjs";

await init();

export const TOP = "TOP", TOP_RIGHT = "TOP_RIGHT", RIGHT = "RIGHT", BOTTOM_RIGHT = "BOTTOM_RIGHT",
  BOTTOM = "BOTTOM", BOTTOM_LEFT = "BOTTOM_LEFT", LEFT = "LEFT", TOP_LEFT = "TOP_LEFT";

// The tilenav map's cell values are internal ids: one per distinct tile value of the grid (any
// value EasyStar.js takes: numbers, -1, strings...; compared with ===, as EasyStar.js does),
// from FIRST_TILE on, plus two reserved ones.
// An avoided point on an acceptable tile: EasyStar.js never enters it, but checks corners
// against the tiles alone, so a diagonal past it may cut its corner. It is passable at a cost
// past any path that avoids every such point (AVOID_COST), and a path found through one means
// none avoids them all (null, as EasyStar.js).
const AVOID = 0;
const START = 1; // a start tile that is not acceptable, for the search that starts there
const AVOID_WALL = 2; // an avoided point on a tile that is not acceptable: blocked either way
const FIRST_TILE = 3;
const AVOID_COST = 1e20;
const MAX_ID = 4194302; // tilenav's largest cell value
const MAX_SIDE = 65536, MAX_CELLS = 2 ** 28; // tilenav's largest map

const fail = (status, msg) => new TilenavError(status, `tilenav/compat/easystar: ${msg}`);
const shown = (v) => (typeof v === "string" ? JSON.stringify(v) : String(v));
const isRow = (r) => r !== null && (typeof r === "object" || typeof r === "string") && Number.isInteger(r.length);

// What the wrapper cannot search: a grid that is not rows of tiles (arrays, typed arrays or
// strings, indexed as EasyStar.js does), or too big for a tilenav map. Rows shorter than the
// first are read as EasyStar.js reads them: the missing tiles are `undefined`.
function checkGrid(grid) {
  if (!Array.isArray(grid) || grid.length === 0)
    throw fail(-1, `setGrid: the grid must be a non-empty array of rows, grid[y][x] (got ${Array.isArray(grid) ? "[]" : shown(grid)})`);
  grid.forEach((row, y) => {
    if (!isRow(row)) throw fail(-1, `setGrid: row ${y} must be an array of tiles, got ${shown(row)}`);
  });
  const w = grid[0].length, h = grid.length;
  if (w === 0) throw fail(-1, "setGrid: row 0 is empty (the grid's width is its first row's length)");
  if (w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_CELLS)
    throw fail(-3, `setGrid: a ${w} x ${h} grid is larger than tilenav maps go (${MAX_SIDE} tiles a side, ${MAX_CELLS} tiles)`);
}

// Module memory without free(). Code that makes a `new EasyStar.js()` per path and drops it
// would leave each instance's map and search context to the garbage collector's finalizers,
// which never run inside a synchronous loop (2,500 such instances: +13 MB). So the search
// contexts are shared (an instance takes an idle one while its search runs, and gives it back
// when the search ends), and the maps of at most MAX_MAPS instances, MAX_MAP_CELLS cells in
// all, are kept, least recently searched first to go: an instance whose map went (never while
// its search runs) builds it again at its next search, from its grid array.
const MAX_MAPS = 64, MAX_MAP_CELLS = 1 << 22, MAX_IDLE_FINDERS = 4;
const idleFinders = [];
const holders = []; // the instances holding a map, least recently searched first

function takeFinder() { return idleFinders.pop() ?? new PathFinder({ maxCells: 1024 }); }

function giveFinder(f) {
  if (idleFinders.length < MAX_IDLE_FINDERS) idleFinders.push(f);
  else f.free();
}

// `es` holds a map from now on, the most recently searched: the least recently searched other
// instances not running a search lose theirs while there are too many.
function holding(es) {
  const i = holders.indexOf(es);
  if (i >= 0) holders.splice(i, 1);
  holders.push(es);
  let cells = holders.reduce((n, h) => n + h._w * h._h, 0);
  for (let k = 0; k < holders.length - 1 && (holders.length > MAX_MAPS || cells > MAX_MAP_CELLS);) {
    const h = holders[k];
    if (h._running) { k++; continue; }
    holders.splice(k, 1);
    cells -= h._w * h._h;
    h._dropMap();
  }
}

function notHolding(es) {
  const i = holders.indexOf(es);
  if (i >= 0) holders.splice(i, 1);
}

function checkCoords(what, coords) {
  for (const [k, v] of Object.entries(coords))
    if (!Number.isInteger(v)) throw fail(-1, `${what}: ${k} must be an integer tile coordinate, got ${shown(v)}`);
}

export class js {
  constructor() {
    this._grid = undefined;
    this._acceptable = undefined; // the caller's array, read live as EasyStar.js does
    this._accSeen = null; // its contents when the map's terrain was last set
    this._costs = new Map(); // String(tile) -> cost (EasyStar.js's costMap is an object)
    this._avoid = new Map(); // "x,y" -> [x, y]
    this._diagonals = false;
    this._cornerCutting = true;
    this._sync = false;
    this._budget = Number.MAX_VALUE;
    this._unitSize = 1;
    this._queue = [];
    this._nextId = 1;
    this._map = null;
    this._w = 0;
    this._h = 0;
    this._ids = new Map(); // tile value -> id
    this._tiles = []; // id -> tile value
    this._seen = null; // the grid's value per cell (row-major) as last written to the map
    this._pending = new Set(); // cells whose avoided state changed since
    this._terrain = false; // the acceptable tiles or a cost changed since
    this._fresh = false; // the map was compared with the grid since user code last ran
    this._finder = null; // a shared search context, while a search runs
    this._running = null; // the instance whose tilenav query is begun
    this._freed = false; // free() ran: every method throws (see the end of the class)
  }

  setAcceptableTiles(tiles) { this._acceptable = Array.isArray(tiles) ? tiles : [tiles]; this._terrain = true; }
  enableSync() { this._sync = true; }
  disableSync() { this._sync = false; }
  enableDiagonals() { this._diagonals = true; }
  disableDiagonals() { this._diagonals = false; }
  enableCornerCutting() { this._cornerCutting = true; }
  disableCornerCutting() { this._cornerCutting = false; }
  /** grid[y][x]: tile values (any: numbers, -1, strings; compared with ===). Read live:
   *  changes to the array are seen by later searches. */
  setGrid(grid) { checkGrid(grid); this._grid = grid; this._fresh = false; }
  /** The cost of entering a tile of this type: a finite number > 0 (default 1). */
  setTileCost(tileType, cost) {
    if (!(typeof cost === "number" && cost > 0 && Number.isFinite(cost)))
      throw fail(-1, `setTileCost(${shown(tileType)}, ${shown(cost)}): a cost must be a finite number > 0 (make a tile impassable by leaving it out of setAcceptableTiles)`);
    this._costs.set(String(tileType), cost);
    this._terrain = true;
  }
  setIterationsPerCalculation(iterations) { this._budget = iterations; }
  /** Units of n x n tiles (default 1): paths of the unit's top-left tile. For searches begun after the call. */
  setUnitSize(n) {
    if (!(Number.isInteger(n) && n >= 1 && n <= 255))
      throw new TilenavError(-1, `tilenav/compat/easystar: setUnitSize needs an integer from 1 to 255, got ${String(n)}`);
    this._unitSize = n;
  }
  avoidAdditionalPoint(x, y) { this._avoid.set(`${x},${y}`, [x, y]); this._touch(x, y); }
  stopAvoidingAdditionalPoint(x, y) { if (this._avoid.delete(`${x},${y}`)) this._touch(x, y); }
  stopAvoidingAllAdditionalPoints() { for (const [x, y] of this._avoid.values()) this._touch(x, y); this._avoid.clear(); }
  setAdditionalPointCost() { throw new Error("tilenav/compat/easystar: setAdditionalPointCost is not supported"); }
  removeAdditionalPointCost() {}
  removeAllAdditionalPointCosts() {}
  setDirectionalCondition() { throw new Error("tilenav/compat/easystar: setDirectionalCondition is not supported"); }
  removeAllDirectionalConditions() {}

  _touch(x, y) {
    if (Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this._w && y < this._h) this._pending.add(y * this._w + x);
    this._fresh = false;
  }

  /** The tilenav map of the grid and settings, brought up to date with the grid array first
   *  (between searches; while one runs, as it was when it began). */
  get map() { this._fresh = false; this._update(); return this._map; }

  // The cost of a tile value's cells: Infinity unless acceptable (===, as EasyStar.js).
  _costOf(v) {
    if (!this._acceptable.includes(v) && !(v !== v && this._acceptable.some((a) => a !== a))) return Infinity;
    return this._costs.get(String(v)) ?? 1;
  }

  // The map's value for cell (x, y) holding tile v: its tile's id, or an avoided point's.
  _cellId(x, y, v) {
    if (!this._avoid.has(`${x},${y}`)) return this._idOf(v);
    return this._costOf(v) === Infinity ? AVOID_WALL : AVOID;
  }

  // Does a path found by the search step on an avoided point (past its start, the whole
  // footprint of a unit of setUnitSize())? Then no path avoids them all.
  _throughAvoided(path) {
    const m = this._map, n = this._unitSize;
    for (let i = 1; i < path.length; i++)
      for (let dy = 0; dy < n; dy++)
        for (let dx = 0; dx < n; dx++)
          if (m.get(path[i].x + dx, path[i].y + dy) === AVOID) return true;
    return false;
  }

  _idOf(v) {
    let id = this._ids.get(v);
    if (id === undefined) {
      id = FIRST_TILE + this._tiles.length;
      if (id > MAX_ID) throw fail(-3, `more than ${MAX_ID - FIRST_TILE + 1} distinct tile values`);
      this._ids.set(v, id);
      this._tiles.push(v);
      this._map?._setCost(id, this._costOf(v));
    }
    return id;
  }

  // Bring the map up to date with the grid array, the acceptable tiles, the costs and the
  // avoided points: only what changed is written (a full build the first time and when the
  // grid's size changed). Never while a query runs (the map must not change under it).
  _update() {
    if (this._running || this._fresh) return;
    const g = this._grid, h = g.length, w = g[0].length;
    if (!this._map || w !== this._w || h !== this._h) { this._build(); this._fresh = true; return; }
    const acc = this._acceptable;
    if (!this._terrain && (acc.length !== this._accSeen.length || acc.some((a, i) => a !== this._accSeen[i] && !(a !== a && this._accSeen[i] !== this._accSeen[i]))))
      this._terrain = true;
    const m = this._map;
    if (this._terrain) {
      this._terrain = false;
      this._accSeen = acc.slice();
      // an avoided point's id follows its tile's acceptability
      for (const [x, y] of this._avoid.values())
        if (Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < w && y < h) this._pending.add(y * w + x);
      this._tiles.forEach((v, i) => {
        const want = this._costOf(v), id = FIRST_TILE + i;
        if (m._costs.get(id) !== want) m._setCost(id, want);
      });
    }
    const seen = this._seen, pending = this._pending;
    for (let y = 0; y < h; y++) {
      const row = g[y] ?? [], base = y * w;
      for (let x = 0; x < w; x++) {
        const v = row[x], i = base + x;
        if (v === seen[i] || (v !== v && seen[i] !== seen[i])) continue;
        seen[i] = v;
        pending.add(i);
      }
    }
    for (const i of pending) {
      const x = i % w, y = (i - x) / w, want = this._cellId(x, y, seen[i]);
      if (m.get(x, y) !== want) m.set(x, y, want);
    }
    pending.clear();
    this._fresh = true;
  }

  _build() {
    const g = this._grid, h = g.length, w = g[0].length, n = w * h;
    const cells = new Uint32Array(n), seen = new Array(n);
    for (let y = 0; y < h; y++) {
      const row = g[y] ?? [];
      for (let x = 0; x < w; x++) { const v = row[x]; seen[y * w + x] = v; cells[y * w + x] = this._idOf(v); }
    }
    for (const [x, y] of this._avoid.values())
      if (Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < w && y < h) cells[y * w + x] = this._cellId(x, y, seen[y * w + x]);
    const costs = { [AVOID]: AVOID_COST, [START]: 1, [AVOID_WALL]: Infinity };
    this._tiles.forEach((v, i) => { costs[FIRST_TILE + i] = this._costOf(v); });
    const map = new TileMap({ width: w, height: h, cells, costs });
    this._map?.free();
    this._map = map;
    this._w = w;
    this._h = h;
    this._seen = seen;
    this._pending.clear();
    this._accSeen = this._acceptable.slice();
    this._terrain = false;
    holding(this);
  }

  // The map goes (see holding()): the next search builds it again.
  _dropMap() {
    this._map?.free();
    this._map = null;
    this._w = this._h = 0;
    this._seen = null;
    this._fresh = false;
  }

  /** Queue a search; `callback(path)` gets [{x, y}, ...] (start to end) or null. Returns an id for cancelPath. */
  findPath(startX, startY, endX, endY, callback) {
    // async: the callback runs after this call returns, unless free() ran meanwhile
    const done = (result) => (this._sync ? callback(result) : setTimeout(() => { if (!this._freed) callback(result); }));
    if (this._acceptable === undefined) throw new Error("You can't set a path without first calling setAcceptableTiles() on EasyStar.");
    if (this._grid === undefined) throw new Error("You can't set a path without first calling setGrid() on EasyStar.");
    checkCoords("findPath", { startX, startY, endX, endY });
    const g = this._grid;
    if (startX < 0 || startY < 0 || endX < 0 || endY < 0 || startX > g[0].length - 1 || startY > g.length - 1 || endX > g[0].length - 1 || endY > g.length - 1)
      throw new Error("Your start or end point is outside the scope of your grid.");
    if (startX === endX && startY === endY) { done([]); return; }
    if (!this._acceptable.includes(g[endY][endX])) { done(null); return; }
    const id = this._nextId++;
    this._queue.push({ id, start: { x: startX, y: startY }, goal: { x: endX, y: endY }, done, cancelled: false });
    return id;
  }

  cancelPath(instanceId) {
    const inst = this._queue.find((q) => q.id === instanceId && !q.cancelled);
    if (!inst) return false;
    inst.cancelled = true;
    return true;
  }

  // The running search ends: with `result` for its callback, or none (cancelled: EasyStar.js
  // never calls a cancelled search's callback).
  _finish(inst, result, call = true) {
    const m = this._map;
    if (inst.restore !== undefined) m.set(inst.start.x, inst.start.y, inst.restore);
    if (this._finder) { giveFinder(this._finder); this._finder = null; }
    this._running = null;
    this._queue.shift();
    if (!call) return;
    if (this._sync) this._fresh = false; // the callback runs now and may change the grid
    inst.done(result);
  }

  /** Run up to setIterationsPerCalculation() expansions over the queued searches (all of them in sync mode). */
  calculate() {
    if (this._grid === undefined || this._acceptable === undefined) return;
    this._fresh = false; // user code ran since the last call
    let budget = this._sync ? Infinity : this._budget;
    while (this._queue.length && budget > 0) {
      const inst = this._queue[0];
      if (inst.cancelled) {
        if (this._running === inst) { this._finder.cancel(); this._finish(inst, undefined, false); } else this._queue.shift();
        continue;
      }
      if (this._running !== inst) {
        this._update();
        holding(this);
        const m = this._map, f = (this._finder = takeFinder()), s = inst.start;
        // EasyStar.js does not check the start tile: search from it even when it is not acceptable
        // (a unit bigger than a tile must fit there: "start blocked", so null)
        if (this._unitSize === 1 && !m.passable(s.x, s.y)) { inst.restore = m.get(s.x, s.y); m.set(s.x, s.y, START); }
        const st = f.begin(m, s, inst.goal, {
          diagonal: !this._diagonals ? "never" : this._cornerCutting ? "always" : "no-cut",
          stepCosts: "10/14", heuristic: "auto", size: this._unitSize,
        });
        this._running = inst;
        inst.expanded = 0;
        if (st !== "in progress") { this._finish(inst, null); continue; }
      }
      const f = this._finder;
      const step = budget === Infinity ? 0x7fffffff : Math.max(1, Math.floor(Math.min(budget, 0x7fffffff))); // step() takes integers
      const st = f.step(step);
      if (st === "in progress") { budget -= step; inst.expanded += step; continue; } // ran all `step`
      const r = f.result();
      budget -= Math.max(1, r.expanded - inst.expanded);
      this._finish(inst, r.found && !this._throughAvoided(r.path) ? r.path : null);
    }
  }

  /** Release tilenav's memory (the map and the search context). The searches still queued are
   *  cancelled (their callbacks are not called, as after cancelPath), and every later call
   *  throws "used after free()". A second free() does nothing. */
  free() {
    if (this._freed) return;
    this._freed = true;
    notHolding(this);
    if (this._running) this._finder.cancel();
    if (this._finder) giveFinder(this._finder);
    this._finder = this._running = null;
    this._queue = [];
    this._dropMap();
  }
}

// After free() every method and `map` throw, as the other tilenav objects do (free() itself
// does nothing again): each is wrapped with the check.
for (const name of Object.getOwnPropertyNames(js.prototype)) {
  if (name === "constructor" || name === "free" || name.startsWith("_")) continue;
  const d = Object.getOwnPropertyDescriptor(js.prototype, name);
  const live = (es) => { if (es._freed) throw new Error(`tilenav/compat/easystar: ${name}: EasyStar instance used after free()`); };
  if (typeof d.value === "function") {
    const f = d.value;
    d.value = { [name](...args) { live(this); return f.apply(this, args); } }[name];
  } else if (d.get) {
    const g = d.get;
    d.get = function () { live(this); return g.call(this); };
  }
  Object.defineProperty(js.prototype, name, d);
}

export default { js, TOP, TOP_RIGHT, RIGHT, BOTTOM_RIGHT, BOTTOM, BOTTOM_LEFT, LEFT, TOP_LEFT };
