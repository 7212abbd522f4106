// tilenav/compat/pathfinding: the PathFinding.js (npm "pathfinding" 0.4.x) API over tilenav.
// Switch by changing the import:
//
//   import PF from "tilenav/compat/pathfinding";   // was: import PF from "pathfinding"
//   const grid = new PF.Grid(matrix);               // matrix[y][x], truthy = blocked
//   const path = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles })
//     .findPath(0, 0, 4, 4, grid);                  // [[0, 0], [1, 1], ...]
//
// The module loads tilenav.wasm itself (top-level await on init()), so no other call is needed.
// Same paths as PathFinding.js, by two routes (see README "PathFinding.js compatibility"):
// - the finders PathFinding.js runs optimally (AStarFinder with weight 1 and a heuristic that
//   never overestimates, the default; DijkstraFinder; JumpPointFinder given such a heuristic)
//   run tilenav's search in the wasm: the same path lengths (the shortest); where several
//   shortest paths tie, the cells may differ;
// - the others (BestFirstFinder, greedy; JumpPointFinder with its default manhattan heuristic,
//   which overestimates with diagonal moves; AStarFinder with a weight other than 1, manhattan
//   with diagonal moves, or a custom heuristic function) have paths that depend on the order
//   PathFinding.js expands cells in: their search runs here in JavaScript, reproducing
//   PathFinding.js 0.4.18's step for step (neighbour order, arithmetic, and the binary heap of
//   npm "heap" 0.2.5, including its tie order): the very same paths.
// `{ optimal: true }` on any finder asks for tilenav's shortest path instead.
// Other differences:
// - findPath does not mark the grid's nodes: no grid.clone() between searches; clone() costs
//   nothing anyway (a clone shares its cells until it or the original is changed);
// - a grid's cells are bytes in JavaScript; the wasm searches copy them into a few tilenav maps
//   they reuse (see the pool below), so grids need no free(), edited clones included.
// Added (PathFinding.js's unmerged PR #148, issues #130/#138): `unitSize` on every finder, for
// units of unitSize x unitSize cells. The path is that of the unit's top-left cell; every step
// keeps its whole footprint on walkable cells (a diagonal step without corner cutting needs the
// (unitSize+1)-square it sweeps); a start or end where the unit does not fit gives []. The
// faithful finders run PathFinding.js's search on the grid of cells where the unit fits, which
// is the same rule. finder.getClearanceGrid(grid) gives each cell's clearance, as in the PR.
// The search semantics reproduced here and the Util helpers are PathFinding.js's (MIT,
// (c) 2011-2012 Xueqiao Xu); the code is tilenav's own.
import { init, TileMap, PathFinder, TilenavError } from "../tilenav.mjs";

await init();

/** PathFinding.js's DiagonalMovement values (the same numbers). */
export const DiagonalMovement = Object.freeze({ Always: 1, Never: 2, IfAtMostOneObstacle: 3, OnlyWhenNoObstacles: 4 });
const DIAG_RULE = { 1: "always", 2: "never", 3: "one", 4: "no-cut" };

/**
 * PathFinding.js's heuristics (the same arithmetic). Passed to a finder that runs in the wasm,
 * one of these picks tilenav's built-in equivalent; any other function runs PathFinding.js's
 * search in JavaScript.
 */
export const Heuristic = Object.freeze({
  manhattan: (dx, dy) => dx + dy,
  euclidean: (dx, dy) => Math.sqrt(dx * dx + dy * dy),
  octile: (dx, dy) => { const F = Math.SQRT2 - 1; return dx < dy ? F * dx + dy : F * dy + dx; },
  chebyshev: (dx, dy) => Math.max(dx, dy),
});
const HEUR_NAME = new Map(Object.entries(Heuristic).map(([k, f]) => [f, k]));

// The PF.Heuristic a function is: ours by identity, or a function of the same name that gives
// the same numbers (PathFinding.js's own Heuristic.octile, say); else undefined.
function builtinName(fn) {
  const known = HEUR_NAME.get(fn);
  if (known !== undefined) return known;
  if (typeof fn !== "function" || !Object.hasOwn(Heuristic, fn.name)) return undefined;
  for (const [a, b] of [[0, 0], [1, 0], [3, 7], [7, 3], [12, 5]]) if (fn(a, b) !== Heuristic[fn.name](a, b)) return undefined;
  return fn.name;
}

/**
 * PathFinding.js's Node: `new Node(x, y, walkable)` is a standalone node whose `walkable` is a
 * plain property (default true), as in PathFinding.js. A grid's nodes (`grid.nodes`,
 * `getNodeAt`, `getNeighbors`) are Nodes too, whose `walkable` reads and writes the grid.
 */
export class Node {
  constructor(x, y, walkable) {
    this.x = x;
    this.y = y;
    this.walkable = walkable === undefined ? true : walkable;
  }
}

// The prototype of a grid's nodes: Node's, with a live `walkable` over the grid.
const GridNode = Object.create(Node.prototype, {
  walkable: {
    get() { return this.grid.isWalkableAt(this.x, this.y); },
    set(v) { this.grid.setWalkableAt(this.x, this.y, v); },
    configurable: true,
  },
  // JSON.stringify(node) gives {x, y, walkable} as PathFinding.js's plain nodes do (the getter
  // lives on the prototype, which JSON would not read)
  toJSON: { value() { return { x: this.x, y: this.y, walkable: this.walkable }; } },
});

function gridNode(grid, x, y) {
  const n = Object.create(GridNode);
  Object.defineProperty(n, "grid", { value: grid, enumerable: false });
  n.x = x;
  n.y = y;
  return n;
}

// A coordinate as PathFinding.js takes it: an integer, or a string naming one the way an array
// index is written ("3", not "03" or "3.0": PathFinding.js reads nodes[y][x], so it finds a
// node only for those). Anything else: a TypeError naming the argument.
function coord(v, what, name) {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^(0|[1-9][0-9]*)$/.test(v)) return Number(v);
  throw new TypeError(`tilenav/compat/pathfinding: ${what}: ${name} must be an integer cell coordinate (or a string of one, as PathFinding.js takes), got ${typeof v === "string" ? JSON.stringify(v) : String(v)}`);
}

// The grids tilenav maps can hold (TileMap's checks and messages, before any memory is taken).
function checkSize(width, height) {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0))
    throw new TypeError("tilenav: width and height must be positive integers");
  if (width > 65536 || height > 65536 || width * height > 2 ** 28)
    throw new TilenavError(-3, `tilenav/compat/pathfinding: Grid: a ${width} x ${height} map is larger than tilenav maps go (65536 cells a side, ${2 ** 28} cells)`);
}

// The cells of one or more Grids, in JavaScript: `data` is one byte per cell, row-major, 1
// walkable, 0 blocked. A grid and its clones share them until one of them changes a cell (copy
// on write); `grids` counts the grids holding them (clone() adds one, free() and a copy on
// write take one away; a grid dropped without free() is not counted down, which costs at most
// one needless copy at the next change). They are written into a tilenav map only for what
// needs one (the wasm searches, clearance, `grid.map`): a map of the pool below, or the map
// `grid.map` handed out (`pinned`, then theirs until released).
class Cells {
  constructor(w, h, data) {
    this.w = w;
    this.h = h;
    this.data = data;
    this.grids = 1;
    this.rev = 0; // grows with every change of data (walkableOf's cache)
    this.searched = false; // a wasm search has run on them (regions from the second on; see run())
    this.slot = null; // the pool's entry whose map holds them, while it does
    this.pinned = null; // the TileMap grid.map handed out
    this.pinnedRev = -1; // its revision when it last agreed with data
    this.walk = undefined; // walkableOf()'s grid for units of walkSize, at rev walkRev
    this.walkRev = -1;
    this.walkSize = 0;
  }
}

// The tilenav maps the searches run on: at most POOL_MAPS of them holding at most POOL_CELLS
// cells in all (or one map, whatever its size), least recently used first. Cells that need a
// map take a spare one of their size (whose cells were released), else a new one while the
// pool has room, else the least recently used one of their size, else the least recently used
// one's place (it is freed). A map taken over gets only the cells that differ written (single
// cells, or their bounding rectangle as one edit), so PathFinding.js's clone-and-edit habit
// (g = grid.clone(); g.setWalkableAt(...); finder.findPath(..., g); g dropped) writes a cell or
// two per search into a map it reuses: the module allocates nothing, whatever the number of
// clones, and no garbage collection is needed to get anything back.
const POOL_MAPS = 4, POOL_CELLS = 1 << 22;
const pool = []; // {map, w, h, data (the bytes the map holds: its owner's data), owner: Cells | null}

// The map of cells `c` (theirs when pinned; else one of the pool's, loaded with them).
function mapOf(c) {
  if (c.pinned) return c.pinned;
  let e = c.slot;
  if (e) { // most recently used: to the end
    if (pool[pool.length - 1] !== e) { pool.splice(pool.indexOf(e), 1); pool.push(e); }
    return e.map;
  }
  const n = c.w * c.h, same = (x) => x.w === c.w && x.h === c.h;
  const full = () => pool.length >= POOL_MAPS || pool.reduce((s, x) => s + x.w * x.h, 0) + n > POOL_CELLS;
  let k = pool.findIndex((x) => x.owner === null && same(x));
  if (k < 0 && full()) {
    k = pool.findIndex(same);
    // no map of this size: free the least recently used ones until there is room
    while (k < 0 && pool.length && full()) {
      const old = pool.shift();
      if (old.owner) old.owner.slot = null;
      old.map.free();
    }
  }
  if (k >= 0) {
    e = pool.splice(k, 1)[0];
    if (e.owner) e.owner.slot = null;
    load(e.map, e.data, c.data, c.w, c.h);
  } else {
    const blocked = new Uint8Array(n);
    for (let i = 0; i < n; i++) blocked[i] = 1 - c.data[i];
    e = { map: new TileMap({ width: c.w, height: c.h, cells: blocked, blocked: [1] }), w: c.w, h: c.h };
  }
  e.data = c.data;
  e.owner = c;
  c.slot = e;
  pool.push(e);
  return e.map;
}

// Write into `map`, which holds the cells `from`, the cells `to` (same size): the cells that
// differ one by one when there are a few, else the rectangle bounding them as one edit.
function load(map, from, to, w, h) {
  const n = w * h, few = [];
  let lo = -1, hi = -1;
  const differ = (i0, i1) => { // note the cells of [i0, i1) that differ
    for (let i = i0; i < i1; i++) {
      if (from[i] === to[i]) continue;
      if (lo < 0) lo = i;
      hi = i;
      if (few.length <= 16) few.push(i);
    }
  };
  // four cells at a time where they agree (both arrays start their buffers: made here)
  const words = from.byteOffset === 0 && to.byteOffset === 0 ? n >> 2 : 0;
  const a = new Uint32Array(from.buffer, 0, words), b = new Uint32Array(to.buffer, 0, words);
  for (let k = 0; k < words; k++) if (a[k] !== b[k]) differ(4 * k, 4 * k + 4);
  differ(4 * words, n);
  if (lo < 0) return;
  if (few.length <= 16) {
    for (const i of few) map.set(i % w, (i / w) | 0, 1 - to[i]);
    return;
  }
  const y0 = (lo / w) | 0, y1 = (hi / w) | 0;
  let x0 = w, x1 = -1;
  for (let y = y0; y <= y1; y++)
    for (let x = 0, b = y * w; x < w; x++) if (from[b + x] !== to[b + x]) { if (x < x0) x0 = x; if (x > x1) x1 = x; }
  const bw = x1 - x0 + 1, bh = y1 - y0 + 1, values = new Uint8Array(bw * bh);
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) values[y * bw + x] = 1 - to[(y0 + y) * w + x0 + x];
  map.setRect(x0, y0, bw, bh, values);
}

// Cells whose last grid is freed: their own map is freed, a pooled one is left spare (still
// holding them, so the next cells of that size write only what differs).
function release(c) {
  if (c.pinned) { c.pinned.free(); c.pinned = null; }
  if (c.slot) { c.slot.owner = null; c.slot = null; }
}

// A map handed out by grid.map may have been changed through it (map.set(), fill()): take
// its passability when its revision moved.
function syncPinned(c) {
  const rev = c.pinned.revision;
  if (rev === c.pinnedRev) return;
  c.data.set(c.pinned.passableGrid());
  c.rev++;
  c.pinnedRev = rev;
}

/** A walkable/blocked grid, PathFinding.js's Grid (cells held in JavaScript; searches copy them
 *  into tilenav maps they reuse). */
export class Grid {
  /**
   * new Grid(matrix) or new Grid(width, height[, matrix]); matrix[y][x] truthy = blocked.
   */
  constructor(widthOrMatrix, height, matrix) {
    let width = widthOrMatrix;
    // sizes written as strings ("3", from JSON or a config): PathFinding.js's loops take them
    const size = (v) => (typeof v === "string" && /^(0|[1-9][0-9]*)$/.test(v) ? Number(v) : v);
    width = size(width);
    height = size(height);
    if (typeof widthOrMatrix === "object") {
      matrix = widthOrMatrix;
      height = matrix.length;
      width = matrix[0].length;
    }
    if (matrix !== undefined && (matrix.length !== height || matrix[0].length !== width))
      throw new Error("Matrix size does not fit");
    checkSize(width, height); // TileMap's TypeError or TilenavError "too large", never a typed array's
    this.width = width;
    this.height = height;
    const data = new Uint8Array(width * height);
    if (matrix) for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = matrix[y][x] ? 0 : 1;
    else data.fill(1);
    this._cells = new Cells(width, height, data);
  }

  // The grid's cells (throws after free()), brought up to date with edits made through grid.map.
  _live() {
    const c = this._cells;
    if (!c) throw new Error("tilenav/compat/pathfinding: Grid used after free()");
    if (c.pinned) syncPinned(c);
    return c;
  }

  /**
   * A tilenav map of the grid (value 0 walkable, 1 blocked), usable with tilenav's own API. Made
   * on first use; from then on it is this grid's alone: setWalkableAt writes into it, and
   * changes made through it (`map.set()`) are seen by the grid. Taking it gives a grid that
   * shares its cells with clones its own copy first, and a clone of a grid with a map gets its
   * own copy at once, so no other grid ever edits it. Freed with the grid's cells.
   */
  get map() {
    let c = this._live();
    if (!c.pinned)
      c = this._own(); // cells shared with clones: this grid's own copy first
    if (!c.pinned) {
      const m = mapOf(c), e = c.slot;
      pool.splice(pool.indexOf(e), 1); // the pool's map becomes the cells' own
      c.slot = null;
      c.pinned = m;
      c.pinnedRev = m.revision;
    }
    return c.pinned;
  }

  // Before a change: a grid sharing its cells takes its own copy of them.
  _own() {
    const c = this._live();
    if (c.grids <= 1) return c;
    c.grids--;
    return (this._cells = new Cells(c.w, c.h, c.data.slice()));
  }

  /**
   * PathFinding.js's `nodes[y][x]`: one Node per cell, made on first use, whose `walkable` reads
   * and writes the grid (so `grid.nodes[y][x].walkable = false` works). They hold no search
   * state (g, f, opened, closed, parent): searches never touch them.
   */
  get nodes() {
    if (!this._nodes) {
      this._nodes = new Array(this.height);
      for (let y = 0; y < this.height; y++) {
        const row = (this._nodes[y] = new Array(this.width));
        for (let x = 0; x < this.width; x++) row[x] = gridNode(this, x, y);
      }
    }
    return this._nodes;
  }

  /** The node of a cell (undefined outside the grid, as in PathFinding.js). */
  getNodeAt(x, y) { return this.nodes[y]?.[x]; }

  isWalkableAt(x, y) {
    const c = this._live();
    // outside (NaN, Infinity, -1, past the edge): false, as PathFinding.js's isInside() test
    if (!(x >= 0 && x < c.w && y >= 0 && y < c.h)) return false;
    x = coord(x, "Grid.isWalkableAt", "x");
    y = coord(y, "Grid.isWalkableAt", "y");
    return x >= 0 && y >= 0 && x < c.w && y < c.h && c.data[y * c.w + x] === 1;
  }

  isInside(x, y) { return x >= 0 && x < this.width && y >= 0 && y < this.height; }

  setWalkableAt(x, y, walkable) {
    const what = "Grid.setWalkableAt", c0 = this._live();
    x = coord(x, what, "x");
    y = coord(y, what, "y");
    if (!(x >= 0 && y >= 0 && x < c0.w && y < c0.h))
      throw new TilenavError(-9, `tilenav/compat/pathfinding: ${what}: cell {x: ${x}, y: ${y}} is outside the ${c0.w}x${c0.h} grid`);
    const i = y * c0.w + x, v = walkable ? 1 : 0;
    if (c0.data[i] === v) return; // no change: no copy
    const c = this._own();
    c.data[i] = v;
    c.rev++;
    const m = c.pinned ?? c.slot?.map; // a map holding the cells gets the change too
    if (m) {
      m.set(x, y, 1 - v);
      if (c.pinned) c.pinnedRev = m.revision;
    }
  }

  /** The walkable neighbours of a node under a DiagonalMovement rule, in PathFinding.js's order. */
  getNeighbors(node, diagonalMovement) {
    const { x, y } = node, w = (a, b) => this.isWalkableAt(a, b), out = [];
    const s0 = w(x, y - 1), s1 = w(x + 1, y), s2 = w(x, y + 1), s3 = w(x - 1, y);
    if (s0) out.push(this.getNodeAt(x, y - 1));
    if (s1) out.push(this.getNodeAt(x + 1, y));
    if (s2) out.push(this.getNodeAt(x, y + 1));
    if (s3) out.push(this.getNodeAt(x - 1, y));
    if (diagonalMovement === DiagonalMovement.Never) return out;
    let d0, d1, d2, d3;
    if (diagonalMovement === DiagonalMovement.OnlyWhenNoObstacles) { d0 = s3 && s0; d1 = s0 && s1; d2 = s1 && s2; d3 = s2 && s3; }
    else if (diagonalMovement === DiagonalMovement.IfAtMostOneObstacle) { d0 = s3 || s0; d1 = s0 || s1; d2 = s1 || s2; d3 = s2 || s3; }
    else if (diagonalMovement === DiagonalMovement.Always) { d0 = d1 = d2 = d3 = true; }
    else throw new Error("Incorrect value of diagonalMovement");
    if (d0 && w(x - 1, y - 1)) out.push(this.getNodeAt(x - 1, y - 1));
    if (d1 && w(x + 1, y - 1)) out.push(this.getNodeAt(x + 1, y - 1));
    if (d2 && w(x + 1, y + 1)) out.push(this.getNodeAt(x + 1, y + 1));
    if (d3 && w(x - 1, y + 1)) out.push(this.getNodeAt(x - 1, y + 1));
    return out;
  }

  /**
   * A copy (not needed between searches with tilenav; kept for code that calls it). It costs
   * nothing: the clone shares the grid's cells until one of the two is changed, which then
   * takes its own copy, in JavaScript (copy on write).
   */
  clone() {
    const c = this._live(), g = Object.create(Grid.prototype);
    g.width = this.width;
    g.height = this.height;
    if (c.pinned) { // the map is this grid's alone (see map): the clone copies the cells now
      g._cells = new Cells(c.w, c.h, c.data.slice());
      return g;
    }
    c.grids++;
    g._cells = c;
    return g;
  }

  /** Release the grid's cells now (with the last grid sharing them: the map grid.map made). */
  free() {
    const c = this._cells;
    if (!c) return;
    this._cells = null;
    this._nodes = null;
    if (--c.grids <= 0) release(c);
  }
}

let shared = null; // one search context for every finder (searches allocate nothing)
function finder() { return (shared ??= new PathFinder({ maxCells: 65536 })); }

function diagonalOf(opt) {
  if (opt.diagonalMovement) return opt.diagonalMovement;
  if (!opt.allowDiagonal) return DiagonalMovement.Never;
  return opt.dontCrossCorners ? DiagonalMovement.OnlyWhenNoObstacles : DiagonalMovement.IfAtMostOneObstacle;
}

// The `unitSize` option: an integer 1..255 (default 1).
function unitSizeOf(opt) {
  const n = opt.unitSize ?? 1;
  if (!(Number.isInteger(n) && n >= 1 && n <= 255))
    throw new TilenavError(-1, `tilenav/compat/pathfinding: unitSize must be an integer from 1 to 255, got ${typeof n === "string" ? JSON.stringify(n) : String(n)}`);
  return n;
}

// PR #148's getClearanceGrid: clearance[y][x] = the side of the largest square unit that fits
// with its top-left cell at (x, y) (0 on a blocked cell; capped at 255).
function clearanceMatrix(grid) {
  const c = mapOf(grid._live()).clearanceGrid(), out = new Array(grid.height);
  for (let y = 0; y < grid.height; y++) out[y] = Array.from(c.subarray(y * grid.width, (y + 1) * grid.width));
  return out;
}

// findPath's coordinates as numbers (coord(): integers, or strings of them as PathFinding.js
// takes), checked inside the grid as PathFinding.js checks them: a start outside, or an end on
// no row, throws its error for a node it cannot find; an end past the row's ends is a node
// no search meets, so A*, best-first and Dijkstra return [] (null here: the callers' []), and
// only JPS (`jps`), which reads the end node's fields, throws.
function ends(grid, sx, sy, ex, ey, jps = false) {
  const e = [coord(sx, "findPath", "startX"), coord(sy, "findPath", "startY"), coord(ex, "findPath", "endX"), coord(ey, "findPath", "endY")];
  grid._live(); // (throws after free())
  const endOnRow = e[3] >= 0 && e[3] < grid.height;
  if (!grid.isInside(e[0], e[1]) || !endOnRow || (jps && !grid.isInside(e[2], e[3])))
    throw new TypeError(`Cannot read properties of undefined (start or end outside the ${grid.width}x${grid.height} grid)`);
  return grid.isInside(e[2], e[3]) ? e : null;
}

// Does a unit of n x n cells fit at (x, y)? (n > 1: the clearance of a map of the cells)
const fitsAt = (grid, x, y, n) => mapOf(grid._live()).fits(x, y, n);

// tilenav's own (optimal) search in the wasm. Regions (tilenav's O(1) "no path" answer) only on
// cells searched before: PathFinding.js code often searches a fresh grid.clone() each time,
// which would pay the regions' build (about 3 ms on 512 x 512) for one search. The results are
// the same either way.
function run(grid, sx, sy, ex, ey, o) {
  const e = ends(grid, sx, sy, ex, ey);
  if (!e) return [];
  [sx, sy, ex, ey] = e;
  const c = grid._live(), map = mapOf(c);
  o = { ...o, regions: c.searched };
  c.searched = true;
  if (o.size > 1) { // a unit bigger than a cell must fit at both ends
    if (!map.fits(sx, sy, o.size) || !map.fits(ex, ey, o.size)) return [];
    if (sx === ex && sy === ey) return [[sx, sy]];
    const r = finder().find(map, { x: sx, y: sy }, { x: ex, y: ey }, o);
    return r.found ? r.path.map((p) => [p.x, p.y]) : [];
  }
  // PathFinding.js pops the start first and returns it when it is the end, blocked or not
  if (sx === ex && sy === ey) return [[sx, sy]];
  if (!c.data[ey * c.w + ex]) return [];
  // PathFinding.js searches from a blocked start as if it were walkable: do the same.
  const startBlocked = !c.data[sy * c.w + sx];
  if (startBlocked) map.set(sx, sy, 0);
  try {
    const r = finder().find(map, { x: sx, y: sy }, { x: ex, y: ey }, o);
    return r.found ? r.path.map((p) => [p.x, p.y]) : [];
  } finally {
    if (startBlocked) {
      map.set(sx, sy, 1);
      if (c.pinned) c.pinnedRev = map.revision;
    }
  }
}
// ---------------------------------------------------------------------------------------------
// The PathFinding.js-faithful searches, in JavaScript, for the finders whose PathFinding.js
// counterparts do not always return a shortest path (greedy best-first, JPS with manhattan, A*
// with a weight or an overestimating or custom heuristic). Their path depends on the exact order
// PathFinding.js expands cells in, so these follow its search step for step: the same neighbour
// order (Grid.getNeighbors; the JPS variants' pruning and jump rules), the same floating-point
// arithmetic for g, h and f (h computed once per cell, `h || ...`), and the same open list: the
// npm "heap" package's binary heap (Python heapq's algorithm: push sifts toward the root; pop
// moves the last item to the root, sinks it to a leaf along the smaller child, the right one on
// equal keys, then sifts it back up; updateItem sifts the item up from its index, then runs the
// sink on whatever item is at that index afterwards). Search state lives in typed arrays, not
// in the grid's nodes, so the grid is not modified.

/** Per-search state, grown to the largest grid seen and reused. */
const S = { n: 0, g: null, h: null, f: null, parent: null, state: null, heap: null, pos: null, size: 0 };
const OPENED = 1, CLOSED = 2, HSET = 4;

function reset(n) {
  if (S.n < n) {
    S.n = n;
    S.g = new Float64Array(n); S.h = new Float64Array(n); S.f = new Float64Array(n);
    S.parent = new Int32Array(n); S.state = new Uint8Array(n); S.heap = new Int32Array(n); S.pos = new Int32Array(n);
  }
  S.state.fill(0, 0, n);
  S.parent.fill(-1, 0, n);
  S.size = 0;
}

// the heap's comparator is `a.f - b.f`, and the heap only asks whether it is < 0
const less = (a, b) => S.f[a] - S.f[b] < 0;

function siftTowardRoot(start, pos) {
  const { heap, pos: at } = S, item = heap[pos];
  while (pos > start) {
    const pp = (pos - 1) >> 1, parent = heap[pp];
    if (!less(item, parent)) break;
    heap[pos] = parent; at[parent] = pos;
    pos = pp;
  }
  heap[pos] = item; at[item] = pos;
}

function sinkThenRise(pos) {
  const { heap, pos: at } = S, end = S.size, start = pos, item = heap[pos];
  let child = 2 * pos + 1;
  while (child < end) {
    const right = child + 1;
    if (right < end && !less(heap[child], heap[right])) child = right;
    heap[pos] = heap[child]; at[heap[pos]] = pos;
    pos = child;
    child = 2 * pos + 1;
  }
  heap[pos] = item; at[item] = pos;
  siftTowardRoot(start, pos);
}

function heapPush(i) { S.heap[S.size] = i; S.pos[i] = S.size; S.size++; siftTowardRoot(0, S.size - 1); }

function heapPop() {
  const last = S.heap[--S.size];
  if (S.size === 0) return last;
  const top = S.heap[0];
  S.heap[0] = last; S.pos[last] = 0;
  sinkThenRise(0);
  return top;
}

function heapUpdate(i) { const p = S.pos[i]; siftTowardRoot(0, p); sinkThenRise(p); }

function backtrace(i, w) {
  const path = [];
  for (; i >= 0; i = S.parent[i]) path.push([i % w, (i / w) | 0]);
  return path.reverse();
}

const SQRT2 = Math.SQRT2;
const octileDistance = Heuristic.octile; // PathFinding.js's JPS measures a jump with it

// PathFinding.js's AStarFinder.findPath (and so BestFirstFinder's: h = weight * heuristic).
function faithfulAStar(walk, w, ht, sx, sy, ex, ey, diag, heuristic, weight) {
  reset(w * ht);
  const { g, h, f, parent, state } = S, end = ey * w + ex, start = sy * w + sx, abs = Math.abs;
  const W = (x, y) => x >= 0 && x < w && y >= 0 && y < ht && walk[y * w + x] !== 0;
  g[start] = 0; f[start] = 0;
  heapPush(start); state[start] = OPENED;
  const nb = new Int32Array(8);
  while (S.size > 0) {
    const node = heapPop();
    state[node] |= CLOSED;
    if (node === end) return backtrace(end, w);
    const x = node % w, y = (node / w) | 0;
    // Grid.getNeighbors: up, right, down, left, then up-left, up-right, down-right, down-left
    let k = 0;
    const s0 = W(x, y - 1), s1 = W(x + 1, y), s2 = W(x, y + 1), s3 = W(x - 1, y);
    if (s0) nb[k++] = node - w;
    if (s1) nb[k++] = node + 1;
    if (s2) nb[k++] = node + w;
    if (s3) nb[k++] = node - 1;
    if (diag !== DiagonalMovement.Never) {
      let d0, d1, d2, d3;
      if (diag === DiagonalMovement.OnlyWhenNoObstacles) { d0 = s3 && s0; d1 = s0 && s1; d2 = s1 && s2; d3 = s2 && s3; }
      else if (diag === DiagonalMovement.IfAtMostOneObstacle) { d0 = s3 || s0; d1 = s0 || s1; d2 = s1 || s2; d3 = s2 || s3; }
      else { d0 = d1 = d2 = d3 = true; }
      if (d0 && W(x - 1, y - 1)) nb[k++] = node - w - 1;
      if (d1 && W(x + 1, y - 1)) nb[k++] = node - w + 1;
      if (d2 && W(x + 1, y + 1)) nb[k++] = node + w + 1;
      if (d3 && W(x - 1, y + 1)) nb[k++] = node + w - 1;
    }
    for (let i = 0; i < k; i++) {
      const m = nb[i];
      if (state[m] & CLOSED) continue;
      const mx = m % w, my = (m / w) | 0;
      const ng = g[node] + (mx === x || my === y ? 1 : SQRT2);
      if (!(state[m] & OPENED) || ng < g[m]) {
        g[m] = ng;
        if (!(state[m] & HSET) || !h[m]) { h[m] = weight * heuristic(abs(mx - ex), abs(my - ey)); state[m] |= HSET; }
        f[m] = g[m] + h[m];
        parent[m] = node;
        if (!(state[m] & OPENED)) { heapPush(m); state[m] |= OPENED; } else heapUpdate(m);
      }
    }
  }
  return [];
}

// PathFinding.js's JumpPointFinderBase.findPath with the JPF* variant of each DiagonalMovement.
function faithfulJPS(walk, w, ht, sx, sy, ex, ey, diag, heuristic) {
  reset(w * ht);
  const { g, h, f, parent, state } = S, end = ey * w + ex, start = sy * w + sx, abs = Math.abs;
  const W = (x, y) => x >= 0 && x < w && y >= 0 && y < ht && walk[y * w + x] !== 0;
  const { Always, Never, OnlyWhenNoObstacles } = DiagonalMovement;
  // diag is 3 (IfAtMostOneObstacle) for any value other than 1, 2, 4, as in PathFinding.js
  const rule = diag === Always || diag === Never || diag === OnlyWhenNoObstacles ? diag : DiagonalMovement.IfAtMostOneObstacle;

  // The first jump point met stepping from (px, py) through (x, y) onward, or -1.
  function jump(x, y, px, py) {
    const dx = x - px, dy = y - py;
    for (;;) {
      if (!W(x, y)) return -1;
      if (x === ex && y === ey) return y * w + x;
      if (rule === Never) {
        if (dx !== 0) {
          if ((W(x, y - 1) && !W(x - dx, y - 1)) || (W(x, y + 1) && !W(x - dx, y + 1))) return y * w + x;
        } else {
          if ((W(x - 1, y) && !W(x - 1, y - dy)) || (W(x + 1, y) && !W(x + 1, y - dy))) return y * w + x;
          if (jump(x + 1, y, x, y) >= 0 || jump(x - 1, y, x, y) >= 0) return y * w + x;
        }
      } else if (rule === OnlyWhenNoObstacles) {
        if (dx !== 0 && dy !== 0) {
          if (jump(x + dx, y, x, y) >= 0 || jump(x, y + dy, x, y) >= 0) return y * w + x;
        } else if (dx !== 0) {
          if ((W(x, y - 1) && !W(x - dx, y - 1)) || (W(x, y + 1) && !W(x - dx, y + 1))) return y * w + x;
        } else if ((W(x - 1, y) && !W(x - 1, y - dy)) || (W(x + 1, y) && !W(x + 1, y - dy))) return y * w + x;
        if (!(W(x + dx, y) && W(x, y + dy))) return -1;
      } else { // Always and IfAtMostOneObstacle: the same forced-neighbour tests
        if (dx !== 0 && dy !== 0) {
          if ((W(x - dx, y + dy) && !W(x - dx, y)) || (W(x + dx, y - dy) && !W(x, y - dy))) return y * w + x;
          if (jump(x + dx, y, x, y) >= 0 || jump(x, y + dy, x, y) >= 0) return y * w + x;
        } else if (dx !== 0) {
          if ((W(x + dx, y + 1) && !W(x, y + 1)) || (W(x + dx, y - 1) && !W(x, y - 1))) return y * w + x;
        } else if ((W(x + 1, y + dy) && !W(x + 1, y)) || (W(x - 1, y + dy) && !W(x - 1, y))) return y * w + x;
        if (rule !== Always && !(W(x + dx, y) || W(x, y + dy))) return -1;
      }
      px = x; py = y; x += dx; y += dy;
    }
  }

  // The cells to jump toward from a node: pruned by the direction it was reached in.
  function neighbours(node, out) {
    const x = node % w, y = (node / w) | 0, p = parent[node];
    let k = 0;
    const add = (a, b) => { out[k++] = a; out[k++] = b; };
    if (p < 0) { // the start: every neighbour, in Grid.getNeighbors' order
      const s0 = W(x, y - 1), s1 = W(x + 1, y), s2 = W(x, y + 1), s3 = W(x - 1, y);
      if (s0) add(x, y - 1);
      if (s1) add(x + 1, y);
      if (s2) add(x, y + 1);
      if (s3) add(x - 1, y);
      if (rule === Never) return k;
      let d0, d1, d2, d3;
      if (rule === OnlyWhenNoObstacles) { d0 = s3 && s0; d1 = s0 && s1; d2 = s1 && s2; d3 = s2 && s3; }
      else if (rule === Always) { d0 = d1 = d2 = d3 = true; }
      else { d0 = s3 || s0; d1 = s0 || s1; d2 = s1 || s2; d3 = s2 || s3; }
      if (d0 && W(x - 1, y - 1)) add(x - 1, y - 1);
      if (d1 && W(x + 1, y - 1)) add(x + 1, y - 1);
      if (d2 && W(x + 1, y + 1)) add(x + 1, y + 1);
      if (d3 && W(x - 1, y + 1)) add(x - 1, y + 1);
      return k;
    }
    const px = p % w, py = (p / w) | 0;
    const dx = Math.sign(x - px), dy = Math.sign(y - py);
    if (rule === Never) {
      if (dx !== 0) {
        if (W(x, y - 1)) add(x, y - 1);
        if (W(x, y + 1)) add(x, y + 1);
        if (W(x + dx, y)) add(x + dx, y);
      } else if (dy !== 0) {
        if (W(x - 1, y)) add(x - 1, y);
        if (W(x + 1, y)) add(x + 1, y);
        if (W(x, y + dy)) add(x, y + dy);
      }
    } else if (dx !== 0 && dy !== 0) { // arrived diagonally
      const v = W(x, y + dy), hz = W(x + dx, y);
      if (v) add(x, y + dy);
      if (hz) add(x + dx, y);
      if (rule === Always) {
        if (W(x + dx, y + dy)) add(x + dx, y + dy);
        if (!W(x - dx, y)) add(x - dx, y + dy);
        if (!W(x, y - dy)) add(x + dx, y - dy);
      } else if (rule === OnlyWhenNoObstacles) {
        if (v && hz) add(x + dx, y + dy);
      } else {
        if (v || hz) add(x + dx, y + dy);
        if (!W(x - dx, y) && v) add(x - dx, y + dy);
        if (!W(x, y - dy) && hz) add(x + dx, y - dy);
      }
    } else if (rule === OnlyWhenNoObstacles) { // arrived straight, no corner cutting
      if (dx !== 0) {
        const next = W(x + dx, y), lo = W(x, y + 1), hi = W(x, y - 1);
        if (next) { add(x + dx, y); if (lo) add(x + dx, y + 1); if (hi) add(x + dx, y - 1); }
        if (lo) add(x, y + 1);
        if (hi) add(x, y - 1);
      } else {
        const next = W(x, y + dy), r = W(x + 1, y), l = W(x - 1, y);
        if (next) { add(x, y + dy); if (r) add(x + 1, y + dy); if (l) add(x - 1, y + dy); }
        if (r) add(x + 1, y);
        if (l) add(x - 1, y);
      }
    } else if (rule === Always) { // arrived straight
      if (dx === 0) {
        if (W(x, y + dy)) add(x, y + dy);
        if (!W(x + 1, y)) add(x + 1, y + dy);
        if (!W(x - 1, y)) add(x - 1, y + dy);
      } else {
        if (W(x + dx, y)) add(x + dx, y);
        if (!W(x, y + 1)) add(x + dx, y + 1);
        if (!W(x, y - 1)) add(x + dx, y - 1);
      }
    } else { // IfAtMostOneObstacle, arrived straight: the diagonals only past an open next cell
      if (dx === 0) {
        if (W(x, y + dy)) {
          add(x, y + dy);
          if (!W(x + 1, y)) add(x + 1, y + dy);
          if (!W(x - 1, y)) add(x - 1, y + dy);
        }
      } else if (W(x + dx, y)) {
        add(x + dx, y);
        if (!W(x, y + 1)) add(x + dx, y + 1);
        if (!W(x, y - 1)) add(x + dx, y - 1);
      }
    }
    return k;
  }

  g[start] = 0; f[start] = 0;
  heapPush(start); state[start] = OPENED;
  const nb = new Int32Array(16);
  while (S.size > 0) {
    const node = heapPop();
    state[node] |= CLOSED;
    if (node === end) return expandPath(backtrace(end, w));
    const x = node % w, y = (node / w) | 0, k = neighbours(node, nb);
    for (let i = 0; i < k; i += 2) {
      const j = jump(nb[i], nb[i + 1], x, y);
      if (j < 0 || state[j] & CLOSED) continue;
      const jx = j % w, jy = (j / w) | 0;
      const ng = g[node] + octileDistance(abs(jx - x), abs(jy - y));
      if (!(state[j] & OPENED) || ng < g[j]) {
        g[j] = ng;
        if (!(state[j] & HSET) || !h[j]) { h[j] = heuristic(abs(jx - ex), abs(jy - ey)); state[j] |= HSET; }
        f[j] = g[j] + h[j];
        parent[j] = node;
        if (!(state[j] & OPENED)) { heapPush(j); state[j] |= OPENED; } else heapUpdate(j);
      }
    }
  }
  return [];
}

// The grid's walkable cells (1 walkable): its own bytes; for a unit of n x n cells, where it
// fits (clearance >= n), from a map of the cells, once per change: PathFinding.js's neighbour
// rules on that grid are the footprint's rules.
function walkableOf(grid, n = 1) {
  const c = grid._live(); // (kept with the cells clones share)
  if (n === 1) return c.data;
  if (c.walk === undefined || c.walkRev !== c.rev || c.walkSize !== n) {
    const cl = mapOf(c).clearanceGrid();
    c.walk = cl.map((v) => (v >= n ? 1 : 0));
    c.walkRev = c.rev;
    c.walkSize = n;
  }
  return c.walk;
}

/** The heuristic as a function: PF.Heuristic's for a name, else the caller's own. */
function heuristicFn(h, diag) {
  if (h === undefined || h === null) return diag === DiagonalMovement.Never ? Heuristic.manhattan : Heuristic.octile;
  if (typeof h === "string") return Heuristic[h];
  return h;
}

// The name of a heuristic tilenav's optimal search can run in place of `fn` (a PF.Heuristic)
// that never overestimates under the movement rule: any without diagonals, all but manhattan
// with them; else undefined.
function admissibleName(fn, diag) {
  const name = builtinName(fn);
  return name !== undefined && (diag === DiagonalMovement.Never || name !== "manhattan") ? name : undefined;
}

function optimalHeuristic(diag) { return diag === DiagonalMovement.Never ? "manhattan" : "octile"; }

/**
 * A* (PathFinding.js's options: allowDiagonal, dontCrossCorners, diagonalMovement, heuristic,
 * weight; plus `optimal`). With weight 1 and a heuristic that never overestimates (the default)
 * it runs tilenav's A* in the wasm: the same path lengths as PathFinding.js's, which are then the
 * shortest. With a weight other than 1, manhattan with diagonal moves, or a custom heuristic
 * function, PathFinding.js's A* is not always optimal and its path depends on its expansion
 * order: then PathFinding.js's search runs here step for step, in JavaScript (same path).
 * `optimal: true`: always tilenav's shortest-path search (octile; manhattan without diagonals;
 * weight 1; `heuristic` and `weight` are ignored).
 */
export class AStarFinder {
  constructor(opt = {}) {
    this.diagonalMovement = diagonalOf(opt);
    this.weight = opt.weight || 1;
    this.optimal = !!opt.optimal;
    /** Units of unitSize x unitSize cells (PathFinding.js PR #148); default 1. */
    this.unitSize = unitSizeOf(opt);
    this.heuristic = heuristicFn(opt.heuristic, this.diagonalMovement);
    if (typeof this.heuristic !== "function") throw new TypeError("tilenav/compat/pathfinding: heuristic must be a function (dx, dy) => number or a PF.Heuristic name");
    this._wasmHeuristic = this.optimal ? optimalHeuristic(this.diagonalMovement)
      : this.weight === 1 ? admissibleName(this.heuristic, this.diagonalMovement) : undefined;
  }

  /** True when findPath runs tilenav's optimal search in the wasm (false: PathFinding.js's, in JS). */
  get usesWasm() { return this._wasmHeuristic !== undefined; }

  /** The path as [[x, y], ...] from start to end inclusive, or [] when there is none. With
   *  unitSize > 1: the path of the unit's top-left cell ([] where the unit does not fit). */
  findPath(startX, startY, endX, endY, grid) {
    // an unknown diagonalMovement goes to the JavaScript search, which throws PathFinding.js's
    // "Incorrect value of diagonalMovement" where PathFinding.js does
    if (this.usesWasm && DIAG_RULE[this.diagonalMovement])
      return run(grid, startX, startY, endX, endY, { algo: "astar", diagonal: DIAG_RULE[this.diagonalMovement], heuristic: this._wasmHeuristic, weight: 1, size: this.unitSize });
    return this._faithful(startX, startY, endX, endY, grid, this.heuristic);
  }

  /** PR #148's clearance grid: clearance[y][x] = the largest square unit (top-left at x, y) that fits. */
  getClearanceGrid(grid) { return clearanceMatrix(grid); }

  _faithful(sx, sy, ex, ey, grid, heuristic) {
    const e = ends(grid, sx, sy, ex, ey);
    if (!e) return [];
    [sx, sy, ex, ey] = e;
    const n = this.unitSize;
    if (n === 1 && sx === ex && sy === ey) return [[sx, sy]]; // blocked or not, as PathFinding.js
    if (n > 1 ? !fitsAt(grid, sx, sy, n) || !fitsAt(grid, ex, ey, n) : !grid.isWalkableAt(ex, ey)) return [];
    if (sx === ex && sy === ey) return [[sx, sy]];
    if (!DIAG_RULE[this.diagonalMovement]) throw new Error("Incorrect value of diagonalMovement");
    return faithfulAStar(walkableOf(grid, n), grid.width, grid.height, sx, sy, ex, ey, this.diagonalMovement, heuristic, this.weight);
  }
}

/**
 * Best-first: PathFinding.js's greedy search (its A* with the heuristic times 1,000,000), run
 * step for step in JavaScript, so the same paths as PathFinding.js's (often long detours).
 * `optimal: true`: tilenav's A* instead (shortest paths, never longer than PathFinding.js's).
 */
export class BestFirstFinder extends AStarFinder {
  constructor(opt = {}) {
    super(opt);
    if (!this.optimal) this._wasmHeuristic = undefined;
    const orig = this.heuristic;
    this._greedy = (dx, dy) => orig(dx, dy) * 1000000;
  }

  findPath(startX, startY, endX, endY, grid) {
    if (this.usesWasm) return super.findPath(startX, startY, endX, endY, grid);
    return this._faithful(startX, startY, endX, endY, grid, this._greedy);
  }
}

/** Dijkstra (uniform-cost search; tilenav's, in the wasm: PathFinding.js's is optimal too). */
export class DijkstraFinder extends AStarFinder {
  get usesWasm() { return true; }

  findPath(startX, startY, endX, endY, grid) {
    if (!DIAG_RULE[this.diagonalMovement]) return this._faithful(startX, startY, endX, endY, grid, () => 0); // throws as PathFinding.js
    return run(grid, startX, startY, endX, endY, { algo: "dijkstra", diagonal: DIAG_RULE[this.diagonalMovement], size: this.unitSize });
  }
}

/**
 * Jump Point Search. Default diagonal option as in PathFinding.js: IfAtMostOneObstacle; default
 * heuristic as in PathFinding.js: manhattan, which overestimates with diagonal moves, so that
 * PathFinding.js's JPS misses the shortest path at times. With that default (or any heuristic
 * that overestimates, or a custom function) PathFinding.js's JPS runs here step for step, in
 * JavaScript (same paths). With a heuristic that never overestimates (octile, euclidean,
 * chebyshev; any without diagonals) it runs tilenav's JPS in the wasm (A* under the rules
 * other than no-corner-cutting): the same lengths, the shortest. `optimal: true`: tilenav's
 * search with octile (manhattan without diagonals) whatever `heuristic` says. Like
 * PathFinding.js it returns every cell of the path, and [] when start and end are the same cell.
 */
export class JumpPointFinder {
  constructor(opt = {}) {
    this.diagonalMovement = opt.diagonalMovement ?? DiagonalMovement.IfAtMostOneObstacle;
    this.optimal = !!opt.optimal;
    /** Units of unitSize x unitSize cells (PathFinding.js PR #148); default 1. */
    this.unitSize = unitSizeOf(opt);
    this.heuristic = opt.heuristic === undefined || opt.heuristic === null ? Heuristic.manhattan : heuristicFn(opt.heuristic, this.diagonalMovement);
    if (typeof this.heuristic !== "function") throw new TypeError("tilenav/compat/pathfinding: heuristic must be a function (dx, dy) => number or a PF.Heuristic name");
    const rule = DIAG_RULE[this.diagonalMovement] ? this.diagonalMovement : DiagonalMovement.IfAtMostOneObstacle;
    this._rule = rule;
    this._wasmHeuristic = this.optimal ? optimalHeuristic(rule) : admissibleName(this.heuristic, rule);
  }

  /** True when findPath runs tilenav's optimal search in the wasm (false: PathFinding.js's, in JS). */
  get usesWasm() { return this._wasmHeuristic !== undefined; }

  findPath(startX, startY, endX, endY, grid) {
    [startX, startY, endX, endY] = ends(grid, startX, startY, endX, endY, true);
    if (startX === endX && startY === endY) return [];
    const n = this.unitSize;
    if (this.usesWasm)
      return run(grid, startX, startY, endX, endY, { algo: "jps", diagonal: DIAG_RULE[this._rule], heuristic: this._wasmHeuristic, size: n });
    if (n > 1 ? !fitsAt(grid, startX, startY, n) || !fitsAt(grid, endX, endY, n) : !grid.isWalkableAt(endX, endY)) return [];
    return faithfulJPS(walkableOf(grid, n), grid.width, grid.height, startX, startY, endX, endY, this._rule, this.heuristic);
  }

  /** PR #148's clearance grid: clearance[y][x] = the largest square unit (top-left at x, y) that fits. */
  getClearanceGrid(grid) { return clearanceMatrix(grid); }
}

/** PathFinding.js's Util: backtrace-free helpers on [[x, y], ...] paths. */
export function pathLength(path) {
  let sum = 0;
  for (let i = 1; i < path.length; ++i) {
    const dx = path[i - 1][0] - path[i][0], dy = path[i - 1][1] - path[i][1];
    sum += Math.sqrt(dx * dx + dy * dy);
  }
  return sum;
}

/** Bresenham's line from (x0, y0) to (x1, y1), both included. */
export function interpolate(x0, y0, x1, y1) {
  const line = [], dx = Math.abs(x1 - x0), dy = Math.abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  let err = dx - dy;
  for (;;) {
    line.push([x0, y0]);
    if (x0 === x1 && y0 === y1) break;
    const e2 = 2 * err;
    if (e2 > -dy) { err -= dy; x0 += sx; }
    if (e2 < dx) { err += dx; y0 += sy; }
  }
  return line;
}

/** Every cell along a compressed path. */
export function expandPath(path) {
  const out = [];
  if (path.length < 2) return out;
  for (let i = 0; i < path.length - 1; ++i) {
    const seg = interpolate(path[i][0], path[i][1], path[i + 1][0], path[i + 1][1]);
    for (let j = 0; j < seg.length - 1; ++j) out.push(seg[j]);
  }
  out.push(path[path.length - 1]);
  return out;
}

/** Drop the points that a straight (Bresenham) line over walkable cells can skip. */
export function smoothenPath(grid, path) {
  const len = path.length, x1 = path[len - 1][0], y1 = path[len - 1][1];
  let sx = path[0][0], sy = path[0][1];
  const out = [[sx, sy]];
  for (let i = 2; i < len; ++i) {
    const line = interpolate(sx, sy, path[i][0], path[i][1]);
    let blocked = false;
    for (let j = 1; j < line.length; ++j) if (!grid.isWalkableAt(line[j][0], line[j][1])) { blocked = true; break; }
    if (blocked) { const last = path[i - 1]; out.push(last); sx = last[0]; sy = last[1]; }
  }
  out.push([x1, y1]);
  return out;
}

/** Keep only the start, the points where the direction changes, and the end. */
export function compressPath(path) {
  if (path.length < 3) return path;
  const out = [[path[0][0], path[0][1]]];
  let px = path[1][0], py = path[1][1], dx = px - path[0][0], dy = py - path[0][1];
  let sq = Math.sqrt(dx * dx + dy * dy); dx /= sq; dy /= sq;
  for (let i = 2; i < path.length; i++) {
    const lx = px, ly = py, ldx = dx, ldy = dy;
    px = path[i][0]; py = path[i][1];
    dx = px - lx; dy = py - ly;
    sq = Math.sqrt(dx * dx + dy * dy); dx /= sq; dy /= sq;
    if (dx !== ldx || dy !== ldy) out.push([lx, ly]);
  }
  out.push([px, py]);
  return out;
}

export const Util = Object.freeze({ pathLength, interpolate, expandPath, smoothenPath, compressPath });

const PF = { Grid, Node, AStarFinder, BestFirstFinder, DijkstraFinder, JumpPointFinder, DiagonalMovement, Heuristic, Util };
export default PF;
