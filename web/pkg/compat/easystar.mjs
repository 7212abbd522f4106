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
// Added: setUnitSize(n) for units of n x n tiles: the paths are those of the unit's top-left
// tile, every step keeps the whole footprint on acceptable tiles (without corner cutting a
// diagonal step needs the (n+1)-square it sweeps), entering a position costs the largest tile
// cost under the footprint, and a start or end where the unit does not fit gives null.
import { init, TileMap, PathFinder, TilenavError } from "../tilenav.mjs";

await init();

export const TOP = "TOP", TOP_RIGHT = "TOP_RIGHT", RIGHT = "RIGHT", BOTTOM_RIGHT = "BOTTOM_RIGHT",
  BOTTOM = "BOTTOM", BOTTOM_LEFT = "BOTTOM_LEFT", LEFT = "LEFT", TOP_LEFT = "TOP_LEFT";

const AVOID = 0x7fff0; // the cell value standing for an avoided point (blocked)

export class js {
  constructor() {
    this._grid = undefined;
    this._acceptable = undefined;
    this._costs = new Map();
    this._avoid = new Map(); // "x,y" -> [x, y]
    this._diagonals = false;
    this._cornerCutting = true;
    this._sync = false;
    this._budget = Number.MAX_VALUE;
    this._unitSize = 1;
    this._queue = [];
    this._nextId = 1;
    this._map = null;
    this._dirty = true;
    this._finder = null;
    this._running = null; // the instance whose tilenav query is begun
  }

  setAcceptableTiles(tiles) { this._acceptable = Array.isArray(tiles) ? tiles.slice() : [tiles]; this._dirty = true; }
  enableSync() { this._sync = true; }
  disableSync() { this._sync = false; }
  enableDiagonals() { this._diagonals = true; }
  disableDiagonals() { this._diagonals = false; }
  enableCornerCutting() { this._cornerCutting = true; }
  disableCornerCutting() { this._cornerCutting = false; }
  /** grid[y][x]: tile ids (non-negative integers). */
  setGrid(grid) { this._grid = grid; this._dirty = true; }
  setTileCost(tileType, cost) { this._costs.set(tileType, cost); this._dirty = true; }
  setIterationsPerCalculation(iterations) { this._budget = iterations; }
  /** Units of n x n tiles (default 1): paths of the unit's top-left tile. For searches begun after the call. */
  setUnitSize(n) {
    if (!(Number.isInteger(n) && n >= 1 && n <= 255))
      throw new TilenavError(-1, `tilenav/compat/easystar: setUnitSize needs an integer from 1 to 255, got ${String(n)}`);
    this._unitSize = n;
  }
  avoidAdditionalPoint(x, y) { this._avoid.set(`${x},${y}`, [x, y]); this._dirty = true; }
  stopAvoidingAdditionalPoint(x, y) { this._avoid.delete(`${x},${y}`); this._dirty = true; }
  stopAvoidingAllAdditionalPoints() { this._avoid.clear(); this._dirty = true; }
  setAdditionalPointCost() { throw new Error("tilenav/compat/easystar: setAdditionalPointCost is not supported"); }
  removeAdditionalPointCost() {}
  removeAllAdditionalPointCosts() {}
  setDirectionalCondition() { throw new Error("tilenav/compat/easystar: setDirectionalCondition is not supported"); }
  removeAllDirectionalConditions() {}

  /** The tilenav map built from the grid and settings (rebuilt after a change, between queries). */
  get map() { this._rebuild(); return this._map; }

  _rebuild() {
    if (!this._dirty || this._running) return;
    const g = this._grid, h = g.length, w = g[0].length, cells = new Uint32Array(w * h), seen = new Set();
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { const v = g[y][x]; cells[y * w + x] = v; seen.add(v); }
    for (const [x, y] of this._avoid.values()) if (x >= 0 && y >= 0 && x < w && y < h) cells[y * w + x] = AVOID;
    const ok = new Set(this._acceptable), costs = {}, blocked = [AVOID];
    for (const v of seen) if (ok.has(v)) costs[v] = this._costs.get(v) ?? 1; else blocked.push(v);
    if (this._map) this._map.free();
    this._map = new TileMap({ width: w, height: h, cells, costs, blocked });
    this._finder ??= new PathFinder(this._map);
    this._dirty = false;
  }

  /** Queue a search; `callback(path)` gets [{x, y}, ...] (start to end) or null. Returns an id for cancelPath. */
  findPath(startX, startY, endX, endY, callback) {
    const done = (result) => (this._sync ? callback(result) : setTimeout(() => callback(result)));
    if (this._acceptable === undefined) throw new Error("You can't set a path without first calling setAcceptableTiles() on EasyStar.");
    if (this._grid === undefined) throw new Error("You can't set a path without first calling setGrid() on EasyStar.");
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

  _finish(inst, result) {
    const m = this._map;
    if (inst.restore !== undefined) m.set(inst.start.x, inst.start.y, inst.restore);
    this._running = null;
    this._queue.shift();
    inst.done(result);
  }

  /** Run up to setIterationsPerCalculation() expansions over the queued searches (all of them in sync mode). */
  calculate() {
    if (this._grid === undefined || this._acceptable === undefined) return;
    let budget = this._sync ? Infinity : this._budget;
    while (this._queue.length && budget > 0) {
      const inst = this._queue[0];
      if (inst.cancelled) {
        if (this._running === inst) { this._finder.cancel(); this._finish(inst, undefined); } else this._queue.shift();
        continue;
      }
      if (this._running !== inst) {
        this._rebuild();
        const m = this._map, f = this._finder, s = inst.start;
        // EasyStar.js does not check the start tile: search from it even when it is not acceptable
        // (a unit bigger than a tile must fit there: "start blocked", so null)
        if (this._unitSize === 1 && !m.passable(s.x, s.y)) { inst.restore = m.get(s.x, s.y); m.set(s.x, s.y, this._acceptable[0]); }
        const st = f.begin(m, s, inst.goal, {
          diagonal: !this._diagonals ? "never" : this._cornerCutting ? "always" : "no-cut",
          stepCosts: "10/14", heuristic: "auto", size: this._unitSize,
        });
        this._running = inst;
        inst.expanded = 0;
        if (st !== "in progress") { this._finish(inst, null); continue; }
      }
      const f = this._finder;
      const step = budget === Infinity ? 0x7fffffff : Math.max(1, Math.min(budget, 0x7fffffff));
      const st = f.step(step);
      if (st === "in progress") { budget -= step; inst.expanded += step; continue; } // ran all `step`
      const r = f.result();
      budget -= Math.max(1, r.expanded - inst.expanded);
      this._finish(inst, r.found ? r.path : null);
    }
  }

  /** Release tilenav's memory (the map and the search context). */
  free() { this._map?.free(); this._finder?.free(); this._map = this._finder = null; this._dirty = true; }
}

export default { js, TOP, TOP_RIGHT, RIGHT, BOTTOM_RIGHT, BOTTOM, BOTTOM_LEFT, LEFT, TOP_LEFT };
