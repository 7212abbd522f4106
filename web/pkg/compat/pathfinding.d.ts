// Types for tilenav/compat/pathfinding (PathFinding.js's API over tilenav).
import type { TileMap } from "../tilenav.js";

export type Path = number[][];

export declare const DiagonalMovement: {
  readonly Always: 1;
  readonly Never: 2;
  readonly IfAtMostOneObstacle: 3;
  readonly OnlyWhenNoObstacles: 4;
};
export type DiagonalMovement = 1 | 2 | 3 | 4;

export type HeuristicFn = (dx: number, dy: number) => number;
export declare const Heuristic: {
  readonly manhattan: HeuristicFn;
  readonly euclidean: HeuristicFn;
  readonly octile: HeuristicFn;
  readonly chebyshev: HeuristicFn;
};

/**
 * PathFinding.js's Node. `new Node(x, y, walkable?)` is a standalone node whose `walkable` is a
 * plain property (default true), as in PathFinding.js. A grid's nodes (`grid.nodes`,
 * `getNodeAt`, `getNeighbors`) are Nodes whose `walkable` reads and writes the grid.
 */
export declare class Node {
  constructor(x: number, y: number, walkable?: boolean);
  x: number;
  y: number;
  walkable: boolean;
}

export declare class Grid {
  constructor(matrix: (number | boolean)[][]);
  constructor(width: number, height: number, matrix?: (number | boolean)[][]);
  readonly width: number;
  readonly height: number;
  /** A tilenav map of the grid (0 walkable, 1 blocked), made on first use and the grid's alone
   *  from then on (never shared with a clone); changes through it (map.set()) are seen by the
   *  grid. Searches do not need it: grids hold their cells in JavaScript. */
  readonly map: TileMap;
  /** nodes[y][x], made on first use. */
  readonly nodes: Node[][];
  getNodeAt(x: number, y: number): Node;
  isWalkableAt(x: number, y: number): boolean;
  isInside(x: number, y: number): boolean;
  setWalkableAt(x: number, y: number, walkable: boolean): void;
  getNeighbors(node: { x: number; y: number }, diagonalMovement: DiagonalMovement): Node[];
  /** A copy that shares the cells until either grid is changed (then it copies them, in
   *  JavaScript): no free() needed, even for clones that are edited. */
  clone(): Grid;
  /** Release the grid (with the last grid sharing its cells: the map `map` made). Optional:
   *  grids hold their cells in JavaScript. */
  free(): void;
}

export interface FinderOptions {
  allowDiagonal?: boolean;
  dontCrossCorners?: boolean;
  diagonalMovement?: DiagonalMovement;
  /**
   * Any (dx, dy) => number, as in PathFinding.js, or a PF.Heuristic name. A PF.Heuristic that
   * never overestimates (the default) keeps the search in the wasm; manhattan with diagonal
   * moves or a custom function runs PathFinding.js's search in JavaScript (its very paths).
   */
  heuristic?: HeuristicFn | "manhattan" | "euclidean" | "octile" | "chebyshev";
  /** Other than 1: PathFinding.js's weighted A*, run in JavaScript (its very paths). */
  weight?: number;
  /**
   * tilenav's shortest path (in the wasm) instead of PathFinding.js's search: octile heuristic
   * (manhattan without diagonals), weight 1; `heuristic` and `weight` are ignored. Default false.
   */
  optimal?: boolean;
  /**
   * Units of unitSize x unitSize cells (PathFinding.js PR #148), an integer 1..255 (default 1):
   * the path of the unit's top-left cell, every step keeping its whole footprint on walkable
   * cells; [] where the unit does not fit at the start or end.
   */
  unitSize?: number;
}

export interface Finder {
  findPath(startX: number, startY: number, endX: number, endY: number, grid: Grid): Path;
}

/**
 * PathFinding.js's A*. With weight 1 and an admissible PF.Heuristic (the default): tilenav's A*
 * in the wasm, the same path lengths as PathFinding.js's. Otherwise PathFinding.js's search, in
 * JavaScript: the same paths.
 */
export declare class AStarFinder implements Finder {
  constructor(opt?: FinderOptions);
  /** The options as PathFinding.js keeps them on the finder. */
  readonly diagonalMovement: DiagonalMovement;
  readonly weight: number;
  readonly heuristic: HeuristicFn;
  readonly optimal: boolean;
  /** True when findPath runs tilenav's optimal search in the wasm, false when PathFinding.js's in JavaScript. */
  readonly usesWasm: boolean;
  readonly unitSize: number;
  findPath(startX: number, startY: number, endX: number, endY: number, grid: Grid): Path;
  /** clearance[y][x]: the side of the largest square unit that fits with its top-left cell there (PR #148). */
  getClearanceGrid(grid: Grid): number[][];
}
/** PathFinding.js's greedy best-first, in JavaScript (its very paths); `optimal: true`: tilenav's A*. */
export declare class BestFirstFinder extends AStarFinder {}
/** Dijkstra, tilenav's in the wasm (PathFinding.js's is optimal too: the same lengths). */
export declare class DijkstraFinder extends AStarFinder {}
/**
 * PathFinding.js's Jump Point Search. Default heuristic manhattan (as PathFinding.js): its JPS
 * runs in JavaScript (its very paths, not always the shortest with diagonal moves). An
 * admissible PF.Heuristic, or `optimal: true`: tilenav's JPS in the wasm, the shortest paths.
 * Default diagonalMovement: IfAtMostOneObstacle.
 */
export declare class JumpPointFinder implements Finder {
  constructor(opt?: { diagonalMovement?: DiagonalMovement; heuristic?: FinderOptions["heuristic"]; optimal?: boolean; unitSize?: number });
  readonly diagonalMovement: DiagonalMovement;
  readonly heuristic: HeuristicFn;
  readonly optimal: boolean;
  readonly usesWasm: boolean;
  readonly unitSize: number;
  findPath(startX: number, startY: number, endX: number, endY: number, grid: Grid): Path;
  getClearanceGrid(grid: Grid): number[][];
}

export declare function pathLength(path: Path): number;
export declare function interpolate(x0: number, y0: number, x1: number, y1: number): Path;
export declare function expandPath(path: Path): Path;
export declare function smoothenPath(grid: Grid, path: Path): Path;
export declare function compressPath(path: Path): Path;

export declare const Util: {
  readonly pathLength: typeof pathLength;
  readonly interpolate: typeof interpolate;
  readonly expandPath: typeof expandPath;
  readonly smoothenPath: typeof smoothenPath;
  readonly compressPath: typeof compressPath;
};

// Aliases for the namespace below (inside it, `Grid` would name its own member).
type Grid_ = Grid;
type Node_ = Node;
type AStarFinder_ = AStarFinder;
type BestFirstFinder_ = BestFirstFinder;
type DijkstraFinder_ = DijkstraFinder;
type JumpPointFinder_ = JumpPointFinder;
type DiagonalMovement_ = DiagonalMovement;
type FinderOptions_ = FinderOptions;
type Finder_ = Finder;
type HeuristicFn_ = HeuristicFn;
type Path_ = Path;

declare const PF: {
  Grid: typeof Grid;
  Node: typeof Node;
  AStarFinder: typeof AStarFinder;
  BestFirstFinder: typeof BestFirstFinder;
  DijkstraFinder: typeof DijkstraFinder;
  JumpPointFinder: typeof JumpPointFinder;
  DiagonalMovement: typeof DiagonalMovement;
  Heuristic: typeof Heuristic;
  Util: typeof Util;
};
/** PF.Grid, PF.AStarFinder, PF.FinderOptions... as type names too, as with @types/pathfinding. */
declare namespace PF {
  type Grid = Grid_;
  type Node = Node_;
  type AStarFinder = AStarFinder_;
  type BestFirstFinder = BestFirstFinder_;
  type DijkstraFinder = DijkstraFinder_;
  type JumpPointFinder = JumpPointFinder_;
  type DiagonalMovement = DiagonalMovement_;
  type FinderOptions = FinderOptions_;
  type Finder = Finder_;
  type Heuristic = HeuristicFn_;
  type Path = Path_;
}
export default PF;
