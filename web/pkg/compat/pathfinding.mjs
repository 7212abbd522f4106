// tilenav/compat/pathfinding: the PathFinding.js (npm "pathfinding" 0.4.x) API over tilenav.
// Switch by changing the import:
//
//   import PF from "tilenav/compat/pathfinding";   // was: import PF from "pathfinding"
//   const grid = new PF.Grid(matrix);               // matrix[y][x], truthy = blocked
//   const path = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles })
//     .findPath(0, 0, 4, 4, grid);                  // [[0, 0], [1, 1], ...]
//
// The module loads tilenav.wasm itself (top-level await on init()), so no other call is needed.
// Differences from PathFinding.js (see README "PathFinding.js compatibility"):
// - findPath does not mark the grid's nodes: no grid.clone() between searches;
// - the grid's cells live in WebAssembly memory: call grid.free() when done with a grid;
// - ties between equally short paths may be broken differently (same length, other cells);
// - BestFirstFinder runs an optimal A* here (PathFinding.js's is greedy): never longer;
// - JumpPointFinder defaults to the octile heuristic with diagonal moves (PathFinding.js: manhattan,
//   which overestimates and makes its JPS miss the shortest path at times): never longer;
// - finders given a weight > 1 or an overestimating heuristic are not optimal in either library
//   and their paths can differ in length.
// Path-finding code follows PathFinding.js (MIT, (c) 2011-2012 Xueqiao Xu) in its Util helpers.
import { init, TileMap, PathFinder } from "../tilenav.mjs";

await init();

/** PathFinding.js's DiagonalMovement values (the same numbers). */
export const DiagonalMovement = Object.freeze({ Always: 1, Never: 2, IfAtMostOneObstacle: 3, OnlyWhenNoObstacles: 4 });
const DIAG_RULE = { 1: "always", 2: "never", 3: "one", 4: "no-cut" };

/** PathFinding.js's heuristics; passing one of these picks tilenav's built-in equivalent. */
export const Heuristic = Object.freeze({
  manhattan: (dx, dy) => dx + dy,
  euclidean: (dx, dy) => Math.sqrt(dx * dx + dy * dy),
  octile: (dx, dy) => { const F = Math.SQRT2 - 1; return dx < dy ? F * dx + dy : F * dy + dx; },
  chebyshev: (dx, dy) => Math.max(dx, dy),
});
const HEUR_NAME = new Map(Object.entries(Heuristic).map(([k, f]) => [f, k]));

function heuristicName(fn, dflt) {
  if (fn === undefined || fn === null) return dflt;
  if (typeof fn === "string" && fn in Heuristic) return fn;
  const name = HEUR_NAME.get(fn) ?? (typeof fn === "function" && fn.name in Heuristic ? fn.name : undefined);
  if (!name) throw new TypeError("tilenav/compat/pathfinding: heuristic must be one of PF.Heuristic's functions (manhattan, euclidean, octile, chebyshev); custom functions cannot run inside the WebAssembly search");
  return name;
}

/** A cell of a Grid: x, y and a live `walkable`. */
export class Node {
  constructor(grid, x, y) {
    Object.defineProperty(this, "grid", { value: grid, enumerable: false });
    this.x = x;
    this.y = y;
  }

  get walkable() { return this.grid.isWalkableAt(this.x, this.y); }

  set walkable(v) { this.grid.setWalkableAt(this.x, this.y, v); }
}

/** A walkable/blocked grid, PathFinding.js's Grid (cells held in a tilenav TileMap). */
export class Grid {
  /**
   * new Grid(matrix) or new Grid(width, height[, matrix]); matrix[y][x] truthy = blocked.
   */
  constructor(widthOrMatrix, height, matrix) {
    let width = widthOrMatrix;
    if (typeof widthOrMatrix === "object") {
      matrix = widthOrMatrix;
      height = matrix.length;
      width = matrix[0].length;
    }
    if (matrix !== undefined && (matrix.length !== height || matrix[0].length !== width))
      throw new Error("Matrix size does not fit");
    this.width = width;
    this.height = height;
    const cells = new Uint8Array(width * height);
    if (matrix) for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) cells[y * width + x] = matrix[y][x] ? 1 : 0;
    /** The tilenav map behind the grid (value 0 walkable, 1 blocked): usable with tilenav's own API. */
    this.map = new TileMap({ width, height, cells, blocked: [1] });
  }

  /**
   * PathFinding.js's `nodes[y][x]`: one object per cell, made on first use, whose `walkable`
   * reads and writes the tilenav map (so `grid.nodes[y][x].walkable = false` works). They hold
   * no search state (g, f, opened, closed, parent): searches never touch them.
   */
  get nodes() {
    if (!this._nodes) {
      this._nodes = new Array(this.height);
      for (let y = 0; y < this.height; y++) {
        const row = (this._nodes[y] = new Array(this.width));
        for (let x = 0; x < this.width; x++) row[x] = new Node(this, x, y);
      }
    }
    return this._nodes;
  }

  /** The node of a cell (undefined outside the grid, as in PathFinding.js). */
  getNodeAt(x, y) { return this.nodes[y]?.[x]; }

  isWalkableAt(x, y) { return this.map.passable(x, y); }

  isInside(x, y) { return x >= 0 && x < this.width && y >= 0 && y < this.height; }

  setWalkableAt(x, y, walkable) { this.map.set(x, y, walkable ? 0 : 1); }

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

  /** A copy (not needed between searches with tilenav; kept for code that calls it). */
  clone() {
    const g = new Grid(this.width, this.height);
    const src = this.map.passableGrid();
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) if (!src[y * this.width + x]) g.setWalkableAt(x, y, false);
    return g;
  }

  /** Release the WebAssembly memory of the grid. */
  free() { this.map.free(); this._nodes = null; }
}

let shared = null; // one search context for every finder (searches allocate nothing)
function finder() { return (shared ??= new PathFinder({ maxCells: 65536 })); }

function diagonalOf(opt) {
  if (opt.diagonalMovement) return opt.diagonalMovement;
  if (!opt.allowDiagonal) return DiagonalMovement.Never;
  return opt.dontCrossCorners ? DiagonalMovement.OnlyWhenNoObstacles : DiagonalMovement.IfAtMostOneObstacle;
}

function run(grid, sx, sy, ex, ey, o) {
  if (!grid.isInside(sx, sy) || !grid.isInside(ex, ey)) throw new TypeError(`Cannot read properties of undefined (start or end outside the ${grid.width}x${grid.height} grid)`);
  if (!grid.isWalkableAt(ex, ey)) return [];
  if (sx === ex && sy === ey) return [[sx, sy]];
  // PathFinding.js searches from a blocked start as if it were walkable: do the same.
  const startBlocked = !grid.isWalkableAt(sx, sy);
  if (startBlocked) grid.map.set(sx, sy, 0);
  try {
    const r = finder().find(grid.map, { x: sx, y: sy }, { x: ex, y: ey }, o);
    return r.found ? r.path.map((c) => [c.x, c.y]) : [];
  } finally {
    if (startBlocked) grid.map.set(sx, sy, 1);
  }
}

/** A* (PathFinding.js's options: allowDiagonal, dontCrossCorners, diagonalMovement, heuristic, weight). */
export class AStarFinder {
  constructor(opt = {}) {
    this.diagonalMovement = diagonalOf(opt);
    this.weight = opt.weight || 1;
    this.heuristic = heuristicName(opt.heuristic, this.diagonalMovement === DiagonalMovement.Never ? "manhattan" : "octile");
  }

  /** The path as [[x, y], ...] from start to end inclusive, or [] when there is none. */
  findPath(startX, startY, endX, endY, grid) {
    return run(grid, startX, startY, endX, endY, { algo: "astar", diagonal: DIAG_RULE[this.diagonalMovement], heuristic: this.heuristic, weight: this.weight });
  }
}

/**
 * Best-first. PathFinding.js's is greedy (its heuristic times 1,000,000) and often returns long
 * detours; this one runs tilenav's A* (weight 1), so its paths are never longer than
 * PathFinding.js's and usually shorter (see README: what is and is not identical).
 */
export class BestFirstFinder extends AStarFinder {}

/** Dijkstra (uniform-cost search). */
export class DijkstraFinder extends AStarFinder {
  findPath(startX, startY, endX, endY, grid) {
    return run(grid, startX, startY, endX, endY, { algo: "dijkstra", diagonal: DIAG_RULE[this.diagonalMovement] });
  }
}

/**
 * Jump Point Search (tilenav's JPS under the no-corner-cutting rule, its A* under the others).
 * Default diagonal option as in PathFinding.js: IfAtMostOneObstacle. Like PathFinding.js it
 * returns every cell of the path, and [] when start and end are the same cell. Default
 * heuristic: octile (manhattan without diagonals); PathFinding.js defaults to manhattan, which
 * overestimates with diagonal moves and makes its JPS miss the shortest path at times.
 */
export class JumpPointFinder {
  constructor(opt = {}) {
    this.diagonalMovement = opt.diagonalMovement ?? DiagonalMovement.IfAtMostOneObstacle;
    this.heuristic = heuristicName(opt.heuristic, this.diagonalMovement === DiagonalMovement.Never ? "manhattan" : "octile");
  }

  findPath(startX, startY, endX, endY, grid) {
    if (startX === endX && startY === endY) return [];
    return run(grid, startX, startY, endX, endY, { algo: "jps", diagonal: DIAG_RULE[this.diagonalMovement], heuristic: this.heuristic });
  }
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
