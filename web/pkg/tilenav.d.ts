// Types for tilenav's JavaScript API (tilenav.mjs). The documentation is README.md.

/** A cell of the grid: integer x (column) and y (row); anything else throws a TilenavError.
 *  The same holds for the `x, y` arguments of every method taking them (get, passable, cost,
 *  set, fits, clearance, center, regionId, fill, setRect, FlowField.direction/distance,
 *  Hierarchy.sectorOf, SectorField.direction/window): NaN, 0.5, "1" or a missing one throws a
 *  TilenavError (invalid argument) naming it; any integer outside the map, however large, gets
 *  the method's outside answer or "out of map" (never another cell).
 *  Option objects accept only their documented names (another throws a TypeError); a map
 *  argument that is not a TileMap throws a TypeError; a bad number (option or argument) throws
 *  a TilenavError naming it. */
export interface Cell { x: number; y: number; }
/** A point in pixels. */
export interface Point { x: number; y: number; }

export type Status =
  | "ok" | "partial" | "no path" | "in progress" | "closest" | "invalid argument" | "out of memory"
  | "too large" | "buffer too small" | "stale id" | "parse error" | "io error" | "unsupported"
  | "out of map" | "start blocked" | "goal blocked" | "map changed" | "full" | "not found" | "state";

/** An error from the library: `status` is the C status code (negative). */
export class TilenavError extends Error {
  constructor(status: number, what: string);
  readonly name: "TilenavError";
  readonly status: number;
}

/** Load and start tilenav.wasm (default: next to tilenav.mjs). Call once; later calls return the same promise.
 *  Another kind of source rejects with a TypeError. */
export function init(source?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module): Promise<{ version: string }>;
/** The C library's version, e.g. "0.1.0". */
export function version(): string;
/** The largest cell value, 4194302 (the C terrain table's limit). */
export const MAX_CELL_VALUE: 4194302;
/** Bytes of the WebAssembly instance's memory (it grows when needed and never shrinks). */
export function memoryBytes(): number;

export type Diagonal = "no-cut" | "never" | "4" | "one" | "corner-cut" | "always";
export type Algo = "astar" | "a*" | "dijkstra" | "jps";
export type HeuristicName = "auto" | "manhattan" | "euclidean" | "octile" | "diagonal" | "chebyshev" | "zero";

export interface TileMapOptions {
  width: number;
  height: number;
  /** width*height integer values from 0 to MAX_CELL_VALUE (4194302), row-major (default all 0). */
  cells?: ArrayLike<number>;
  tileSize?: number;
  tileWidth?: number;
  tileHeight?: number;
  /** value -> cost of entering such a cell, a number >= 0 and at most 1e28 (TN_MAX_COST;
   *  Infinity or 0 = blocked); at run time a Map works too (not typed here: the .d.ts needs
   *  no ES2015 lib). */
  costs?: Record<number, number>;
  /** values that block (a value may not be in `costs` too: TypeError). */
  blocked?: readonly number[];
}

export interface Box {
  x: number; y: number; w: number; h: number;
  areaX?: number; areaY?: number; areaW?: number; areaH?: number;
}

export type HitPoints = "center" | "some" | "every" | "any-cell" | "all-cells";

export interface TiledOptions {
  /** Where the map is: external tilesets and templates are read relative to it (fetch, or the file system for file: URLs in Node.js). */
  url?: string | URL;
  /** Contents (text or parsed) of external tilesets and templates by their path relative to the map. */
  files?: Record<string, string | object>;
  /** Reads an external file by its path relative to the map. */
  load?: (path: string) => Promise<string | object>;
  /** Which collision conventions block cells (default all three, as the C loader). */
  collision?: ("properties" | "tile-shapes" | "object-layers" | "shapes" | "objects")[];
  /** When a collision shape blocks a cell (default "center"). */
  cover?: "center" | "any" | "half";
  /** Comma-separated collision layer markers (default "collision,collisions,collider,colliders,walls,wall,solid,obstacles,blocked"). */
  collisionLayers?: string;
  /** Decompresses layer data (default: node:zlib in Node.js, DecompressionStream in browsers; zstd only where node:zlib has it). `maxLength` is the layer's W x H x 4 bytes: a result of another length is refused, so stop soon past it (a zip bomb is otherwise inflated in full). */
  decompress?: (bytes: Uint8Array, kind: "zlib" | "gzip" | "zstd", maxLength: number) => Uint8Array | Promise<Uint8Array>;
}

/** A Tiled map's cells as the C loader computes them (TileMap.decodeTiled). */
export interface DecodedTiled {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  /** 1 passable, 0 blocked, row-major. */
  passable: Uint8Array;
  /** Cost of entering each cell (Infinity where blocked), row-major. */
  cost: Float32Array;
  /** Infinite maps: Tiled's cell of the map's cell (0, 0). */
  origin: { x: number; y: number };
  report: { cellsBlocked: number; collisionLayers: number; collisionObjects: number };
}

/** What fromTiled() and fromDecodedTiled() record on a map: Tiled's cell of the map's (0, 0) (infinite maps), and the loader's report. */
export interface TiledInfo { origin: { x: number; y: number }; report: DecodedTiled["report"] }

/** A map made from a Tiled map: `tiled` is always there. */
export type TiledTileMap = TileMap & { tiled: TiledInfo };

export class TileMap {
  constructor(o: TileMapOptions);
  static fromArray(cells: ArrayLike<number>, width: number, options?: Omit<TileMapOptions, "width" | "height" | "cells">): TileMap;
  /** Cells 0 (floor) and 1 (a `wall` character, default "#"); a wall stays a wall unless
   *  `costs` or `blocked` names value 1. */
  static fromText(rows: string | readonly string[], options?: Omit<TileMapOptions, "width" | "height" | "cells"> & { wall?: string }): TileMap;
  /** A map from a Tiled JSON map (.tmj/.json, text or parsed), read with the C loader's conventions. */
  static fromTiled(json: string | object, options?: TiledOptions): Promise<TiledTileMap>;
  /** The passability and costs fromTiled uses, without making a map. */
  static decodeTiled(json: string | object, options?: TiledOptions): Promise<DecodedTiled>;
  /** A TileMap from decodeTiled()'s result. */
  static fromDecodedTiled(d: DecodedTiled): TiledTileMap;
  /** Set by fromTiled / fromDecodedTiled (whose maps' type says so: TiledTileMap). */
  tiled?: TiledInfo;
  readonly width: number;
  readonly height: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
  /** The cell's value; -1 outside the map. Non-integer x or y: TilenavError. */
  get(x: number, y: number): number;
  /** Outside the map: TilenavError "out of map". */
  set(x: number, y: number, value: number): void;
  /** A rectangle (inside the map) of `width * height` values, row-major, as one edit (one
   *  changed rectangle for FlowField.update(); 8 or fewer changed cells of different values
   *  are logged one by one). Returns how many cells changed. */
  setRect(x: number, y: number, width: number, height: number, values: ArrayLike<number>): number;
  /** Every cell of a rectangle (inside the map) set to `value` as one edit; returns how many
   *  cells changed. */
  fill(x: number, y: number, width: number, height: number, value: number): number;
  /** A cell value no cell, `costs` key, `blocked` entry or setTerrain() of the map has used: the
   *  one above the largest in use (tn_map_free_gid()). TilenavError "full" when none is left. */
  freeValue(): number;
  /** Every cell of `value`, now and later, gets the terrain of `cost` (Infinity or 0: blocked;
   *  > 0: passable at that cost), at once (tn_map_set_terrain()). */
  setTerrain(value: number, cost: number): void;
  /** A value whose cells have the terrain of `cost` (default Infinity: blocked), for set(),
   *  fill(), setRect(): the smallest the map has, else freeValue() given that terrain. The way
   *  to place a wall (a tower) on a map from fromTiled(), whose values differ per map. */
  terrainValue(cost?: number): number;
  /** False for walls and outside the map. */
  passable(x: number, y: number): boolean;
  /** Infinity for walls and outside the map. */
  cost(x: number, y: number): number;
  passableGrid(): Uint8Array;
  readonly revision: number;
  cellAt(px: number, py: number): Cell | null;
  center(x: number, y: number): Point;
  moveBox(box: Box, dx: number, dy: number): { x: number; y: number; blockedX: boolean; blockedY: boolean };
  hitTestWalls(box: Box, points?: HitPoints): boolean;
  /** Side of the largest square unit that fits with its top-left cell at (x, y), capped at 255 (0: blocked or outside). */
  clearance(x: number, y: number): number;
  /** Every cell's clearance, row-major (a copy). */
  clearanceGrid(): Uint8Array;
  /** Does a size x size unit (default 1) fit with its top-left cell at (x, y)? False outside. */
  fits(x: number, y: number, size?: number): boolean;
  /**
   * Region of the unit's position (x, y) (its top-left cell): an id 0..regionCount()-1 shared by
   * exactly the positions a size x size unit can walk to from there under `diagonal`, or -1 where
   * it does not fit (blocked, outside the map). Edits that split or join regions renumber them.
   * Bad options or non-integer coordinates throw a TilenavError; outside the map: -1.
   */
  regionId(x: number, y: number, o?: RegionOptions): number;
  /** Can the unit walk from a to b (top-left cells)? O(1); false where it does not fit at either. */
  sameRegion(a: Cell, b: Cell, o?: RegionOptions): boolean;
  /** Number of regions for the unit under `diagonal`. */
  regionCount(o?: RegionOptions): number;
  /** Every position's region id (-1: the unit does not fit), row-major (a copy). */
  regionGrid(o?: RegionOptions): Int32Array;
  /** Bytes held by the map's regions (0 before their first use). */
  regionsMemory(): number;
  /** A Hierarchy (HPA*) on this map: new Hierarchy(map, o). */
  hierarchy(o?: HierarchyOptions): Hierarchy;
  free(): void;
}

/**
 * Options of the region queries. The map keeps one set of regions for "never"/"no-cut"/"one"
 * (the same side-connected components) and one for "always", made on first use for the sizes up
 * to the one asked (anew for a larger size) and brought up to date with the map's edits.
 */
export interface RegionOptions {
  /** The unit is a size x size square of cells, 1..255 (default 1). */
  size?: number;
  diagonal?: Diagonal;
}

export interface FindOptions {
  algo?: Algo;
  diagonal?: Diagonal;
  heuristic?: HeuristicName;
  weight?: number;
  stepCosts?: "exact" | "10/14";
  closest?: boolean;
  /**
   * The unit is a size x size square of cells, an integer 1..255 (default 1; others throw a
   * TilenavError): start, goal and path are its top-left cells, every step keeps the whole
   * footprint on passable cells, entering a position costs the largest cost under it. Where the
   * unit does not fit at the start or goal: found false, status "start blocked" / "goal blocked".
   */
  size?: number;
  /**
   * Use the map's regions (default true; made on the first query that uses them, about 3 ms and
   * 14 bytes per cell on a 512 x 512 map, then updated per edit): a goal outside the start's
   * region gives found false, status "no path", expanded 0 without a search (begin() returns
   * "no path"); `closest` searches only the start's region. Results are otherwise the same as
   * with `regions: false`. Not a boolean: TilenavError.
   */
  regions?: boolean;
}

export interface PathResult {
  found: boolean;
  status: Status;
  path: Cell[];
  cost: number;
  expanded: number;
  algo: "astar" | "dijkstra" | "jps" | "jps+";
  end: Cell;
}

export interface BatchResult {
  /** Cost of each query (Infinity: no path). */
  costs: Float64Array;
  /** Cells of each path (0: no path). */
  lengths: Int32Array;
  /** How many found a path. */
  found: number;
}

export class PathFinder {
  /** maxCells: an integer from 1 to 2^28 (default 65536); another kind of sizeFor: TypeError. */
  constructor(sizeFor?: TileMap | { maxCells?: number });
  find(map: TileMap, start: Cell, goal: Cell, o?: FindOptions): PathResult;
  /** Start a time-sliced query; advance it with step(). */
  begin(map: TileMap, start: Cell, goal: Cell, o?: FindOptions): "in progress" | "no path" | "start blocked" | "goal blocked";
  /** Run at most maxExpansions (default 1000; an integer from 1) expansions of the begun query. */
  step(maxExpansions?: number): "in progress" | "ok" | "no path" | "closest" | "start blocked" | "goal blocked";
  /** The result of the time-sliced query (found false and status "in progress" while it runs). */
  result(): PathResult;
  cancel(): void;
  /** Many queries: flat [sx, sy, gx, gy, ...] or {start, goal} objects; costs and lengths only. */
  findMany(map: TileMap, queries: Int32Array | readonly number[] | readonly { start: Cell; goal: Cell }[], o?: FindOptions): BatchResult;
  free(): void;
}

export interface FlowFieldOptions {
  diagonal?: Diagonal;
  flow?: "optimal" | "steepest";
  lineOfSight?: "off" | "exact" | "simple";
  /** For size x size units (1..255, default 1): goals, distances, directions are top-left cells. */
  size?: number;
}

export class FlowField {
  constructor(map: TileMap, o?: FlowFieldOptions);
  readonly map: TileMap;
  /** The unit size the field is built for. */
  readonly size: number;
  readonly width: number;
  readonly height: number;
  /** Builds towards the goal(s); a blocked goal throws TilenavError "goal blocked" and leaves
   *  the field empty: not `current`, `goals` [], until a build() that succeeds. Crowds
   *  following the field take the new build at their next step; when its first goal moved,
   *  their agents are no longer `arrived`. */
  build(goals: Cell | Cell[]): this;
  /** The goals of the last build() ([] after one that threw, or an update() that found a goal
   *  blocked). */
  readonly goals: Cell[];
  /** Brings the field up to date after map edits (recomputing only what they affect); returns
   *  how many cells were recomputed. A goal now blocked throws TilenavError "goal blocked"
   *  and leaves the field empty (not `current`, `goals` []) until a build() that succeeds
   *  (other goals, or the same once open). */
  update(): number;
  /** Built, and the map unchanged since the last build() or update(). After a map change,
   *  until update(): the readers (distance, distances, direction(s), sample, lineOfSight,
   *  reachableCount, the views) answer from the field as it was before the change, while
   *  pathFrom() and wouldWallOff() throw TilenavError "map changed" (status -12). */
  readonly current: boolean;
  distances(): Float32Array;
  /** The distances over the module's memory (no copy); detached when the memory grows. */
  distancesView(): Float32Array;
  /** x, y flow vectors per cell over the module's memory (no allocation after the first call). */
  vectorsView(): Float32Array;
  /** Infinity outside the map, blocked, unreachable. */
  distance(x: number, y: number): number;
  directions(): Int8Array;
  /** One cell's direction as in directions(): 0..7, -1 = none (goal, blocked, unreachable, outside). */
  direction(x: number, y: number): number;
  lineOfSight(): Uint8Array;
  /** Smooth unit direction at a pixel position ({0, 0} outside the map). px, py: finite
   *  numbers (TypeError otherwise). Before build(), this and every other reading throws
   *  TilenavError "state". */
  sample(px: number, py: number): Point;
  pathFrom(start: Cell): { found: boolean; path: Cell[]; cost: number };
  /** True when blocking `cells` would cut some spawn off from every goal, and when a goal or
   *  a spawn is among `cells`. A cell or spawn outside the map throws TilenavError "out of map". */
  wouldWallOff(cells: readonly Cell[], spawns: readonly Cell[]): boolean;
  readonly reachableCount: number;
  free(): void;
}

export interface HierarchyOptions {
  /** Sector side in cells, 4..256 (default 32). */
  sectorSize?: number;
  /** "no-cut" (default) or "never"/"4"; "one" and "always" throw TilenavError "unsupported". */
  diagonal?: "no-cut" | "never" | "4";
  stepCosts?: "exact" | "10/14";
  /** Landmarks of the abstract search's heuristic, 0..16 (default 0). */
  landmarks?: number;
  /** Largest gap between transition cells of a border entrance: 0 (default) = its two ends only, else 1..sectorSize. */
  portalGap?: number;
  /** For size x size units (1..255, default 1): cells are the unit's top-left cells. */
  size?: number;
}

export interface HierarchyFindOptions {
  /** false (default): fast, cost <= optimum + K * crossingBound; true: optimal. */
  exact?: boolean;
  /** Heuristic weight of the abstract search, >= 1 (default 1); multiplies the fast bound. */
  weight?: number;
}

export interface HierarchyResult extends Omit<PathResult, "algo"> {
  algo: "hpa" | "hpa-exact";
  /** Sector searches run to refine the route. */
  refined: number;
  /** Exact mode: the fast path was proven optimal (no grid search ran). */
  proven: boolean;
}

export interface HierarchyStats {
  sectorsX: number;
  sectorsY: number;
  /** Transition cells (abstract nodes). */
  nodes: number;
  intraEdges: number;
  interEdges: number;
  /** Sectors changed by updates since the build. */
  sectorsRebuilt: number;
  landmarks: number;
  landmarksCurrent: boolean;
  /** Connected parts of the abstract graph (an unreachable goal answers at once, without a
   *  search), or -1 after an edit that may have split one, until `refreshLandmarks()`. */
  parts: number;
}

/** Hierarchical paths (HPA*) for big maps; brings itself up to date with the map's edits before each query. */
export class Hierarchy {
  constructor(map: TileMap, o?: HierarchyOptions);
  readonly map: TileMap;
  readonly size: number;
  readonly sectorSize: number;
  readonly portalGap: number;
  readonly landmarks: number;
  readonly diagonal: "no-cut" | "never";
  readonly stepCosts: "exact" | "10/14";
  /** Sectors changed by the last update (automatic or update()). */
  readonly lastUpdate: number;
  find(start: Cell, goal: Cell, o?: HierarchyFindOptions): HierarchyResult;
  /** Update now (queries do it by themselves); returns the sectors changed. */
  update(): number;
  /** Recompute stale landmarks and label the connected parts exactly again (`stats.parts`). */
  refreshLandmarks(): void;
  /** The fast mode's additive bound per sector-border crossing of an optimal path. */
  readonly crossingBound: number;
  /** The cell's sector (row-major index), -1 outside the map. */
  sectorOf(x: number, y: number): number;
  readonly stats: HierarchyStats;
  /** Graph, query contexts and path buffer. */
  readonly memoryBytes: number;
  sectorField(goals: Cell | Cell[], o?: SectorFieldOptions): SectorField;
  free(): void;
}

export interface SectorFieldOptions {
  /** Bytes of sector tiles to keep (default 4 MiB; at least one tile is kept). */
  budget?: number;
}

export interface SectorFieldStats {
  goals: number;
  nodesReached: number;
  tilesKept: number;
  tilesMax: number;
  tilesBuilt: number;
  tilesEvicted: number;
  tileBytes: number;
}

/** A flow field on a huge map, built one sector at a time where it is read, under a memory budget. */
export class SectorField {
  constructor(hierarchy: Hierarchy, goals: Cell | Cell[], o?: SectorFieldOptions);
  readonly hierarchy: Hierarchy;
  readonly map: TileMap;
  readonly width: number;
  readonly height: number;
  readonly budget: number;
  readonly goals: Cell[];
  /** Aim at 1..64 goals (the cheapest wins). */
  setGoal(goals: Cell | Cell[]): void;
  /** dir 0..7 (0 = +x, clockwise on screen), -1 on a goal (cost 0) or with no route (cost Infinity); outside the map: TilenavError "out of map". */
  direction(x: number, y: number): { dir: number; cost: number };
  /** direction() for a window of cells, row-major. */
  window(x: number, y: number, width: number, height: number): { directions: Int8Array; costs: Float32Array };
  path(start: Cell): { found: boolean; path: Cell[]; cost: number };
  readonly stats: SectorFieldStats;
  readonly memoryBytes: number;
  free(): void;
}

export type Target = "none" | "seek" | "arrive" | "flee" | "flow";

/** The steering behaviours an agent combines, each with a weight. */
export type Behaviour = "target" | "separation" | "cohesion" | "alignment" | "avoidAgents" | "avoidWalls" | "wander";

export interface CrowdOptions {
  /** 1..1048574 (default 1024). */
  capacity?: number;
  /** Seconds per step, > 0 (default 1/60). */
  dt?: number;
  /** An integer >= 0 (default 1). */
  seed?: number;
  pushApart?: boolean;
  /** Pixels, > 0 (default 32). */
  neighbourRadius?: number;
  /** Flow slots, 1..256 (default 8). */
  maxFlows?: number;
  /** Nearest neighbours kept, 1..64 (default 16). */
  maxNeighbours?: number;
  /** Neighbour candidates examined per agent, own grid row first; 0 = all (default 64). */
  maxScan?: number;
  /** Agents in the 2 x 2 nearest grid cells from which an agent looks at half the neighbour radius only; 0 = never (default 10). */
  denseNeighbours?: number;
  /** Pixels >= 0 (default 64): agents whose goals are closer than this flock together. */
  similarGoalDistance?: number;
  /** Seconds of travel looked ahead for agents, > 0 (default 0.5). */
  avoidLookAhead?: number;
  /** Feeler length in pixels, >= 0 (default 0 = one tile). */
  wallLookAhead?: number;
  /** The wander circle: pixels ahead of the agent (default 24). */
  wanderDistance?: number;
  /** The wander circle's radius in pixels (default 12). */
  wanderRadius?: number;
  /** Radians the wander angle may move per step (default 0.5). */
  wanderJitter?: number;
  /** Steps between two runs of a behaviour, 1..1024 (default 1 each). */
  periods?: Partial<Record<Behaviour, number>>;
  /** "weighted" (the weighted sum, default) or "prioritized" (a running sum in priority order, truncated at the agent's maxForce). */
  combine?: "weighted" | "prioritized";
  /** 0..1 (default 0): how much of cohesion's and alignment's pull against an agent's own target is kept. */
  flockBrake?: number;
}

export interface AgentDef {
  x: number;
  y: number;
  radius?: number;
  /** Pixels per second, > 0 and at most 1e9 (default 120). */
  maxSpeed?: number;
  /** > 0 and at most 1e12 (default 480). */
  maxForce?: number;
  target?: Target;
  /** Pixels; required by "seek", "arrive" and "flee" (TilenavError otherwise). */
  goal?: Point;
  /** The flow slot (default 0) followed by "flow": setFlow() must have given it a field first
   *  (TilenavError "state" otherwise). */
  flow?: number;
  /** Size class in cells (1..255, default 1): follows slots set from a FlowField of that size (another size throws); radius below size x half the smaller tile side; walls stop a unit of size n >= 2 as a circle of at least (n - 1/2) half tiles, so it passes no gap narrower than n cells. */
  size?: number;
  /** Pixels >= 0 (default 32): "arrive" and "flow" agents slow down within it of their goal. */
  slowRadius?: number;
  /** Pixels >= 0 (default 8): within it of its goal an agent has arrived. */
  arriveRadius?: number;
  /** Pixels >= 0 (default 0, none): the goal area of a crowd that stays. Inside it an agent that touches an arrived agent with the same goal arrives too (`held`) and holds its place instead of pushing into the packed goal, so the crowd fills the area from the goal outwards. */
  arriveArea?: number;
  /** Behaviour weights to change, a plain object (numbers from -1e6 to 1e6, 0 turns one off); defaults: target 1, separation 2, cohesion 0.2, alignment 0.5, avoidAgents 1, avoidWalls 1, wander 0. */
  weights?: Partial<Record<Behaviour, number>>;
}

export interface Agent {
  id: number; x: number; y: number; vx: number; vy: number; heading: number; radius: number;
  /** Within its arriveRadius of its goal, or held in its arriveArea; cleared by setTarget(). */
  arrived: boolean;
  /** Arrived by being held up in its arriveArea. */
  held: boolean;
}

export interface CrowdView {
  count: number;
  /** Floats per agent in `data` (7): x, y, vx, vy, heading, radius, arrived (0 no, 1 within its arriveRadius, 2 held in its arriveArea). */
  stride: number;
  /** Row i of `data` is agent ids[i]; the rows' order changes between steps and on remove(). */
  ids: Uint32Array;
  data: Float32Array;
}

export class Crowd {
  constructor(map: TileMap, o?: CrowdOptions);
  readonly map: TileMap;
  readonly capacity: number;
  /** Flow slots: 0..maxFlows-1 (8). */
  readonly maxFlows: number;
  /** A FlowField (built; the crowd follows a copy of its vectors, which step() takes again after each build() or update() of the field), a SectorField (its sectors under the agents are built before each step), or null to clear; anything else: TypeError. The field must be on the crowd's map (TilenavError otherwise). */
  setFlow(slot: number, field: FlowField | SectorField | null): void;
  add(a: AgentDef): number;
  remove(id: number): void;
  /** As add()'s target: a goal for "seek", "arrive", "flee"; for "flow" a slot (default 0) holding a field. */
  setTarget(id: number, kind: Target, goalOrSlot?: Point | number): void;
  /** Set one behaviour weight of an agent (a number from -1e6 to 1e6; 0 turns it off); an unknown behaviour: TypeError. */
  setWeight(id: number, behaviour: Behaviour, weight: number): void;
  /** steps: an integer >= 0 (default 1), as every step(). */
  step(steps?: number): void;
  readonly count: number;
  /** Every live agent, in no fixed order (each step sorts them by place): go by `id`. */
  agents(): Agent[];
  /** Every agent's state over the module's memory (no per-agent objects); rows in no fixed
   *  order: row i is agent ids[i]. */
  view(): CrowdView;
  /** 0 while the map does not change under the agents; a cell blocked where an agent stands
   *  overlaps it. */
  maxWallOverlap(): number;
  /** A 64-bit hash of the whole state: the same inputs and seed give the same hash here, in C and in Python (compare it across peers to find a desync). */
  readonly hash: bigint;
  free(): void;
}

export interface MarblesOptions {
  map?: TileMap;
  width?: number;
  height?: number;
  capacity?: number;
  restitution?: number;
}

export interface Marble { x: number; y: number; vx: number; vy: number; r: number; }

export class Marbles {
  constructor(o?: MarblesOptions);
  /** The map whose blocked cells are walls (read in place: it must outlive the marbles), or
   *  null for a world without walls. */
  readonly map: TileMap | null;
  readonly capacity: number;
  add(x: number, y: number, vx: number, vy: number, r: number): number;
  setVelocity(i: number, vx: number, vy: number): void;
  step(steps?: number): void;
  readonly count: number;
  marbles(): Marble[];
  energy(): number;
  readonly lastContacts: number;
  free(): void;
}

export interface AngleCarOptions {
  width: number;
  height: number;
  tileSize?: number;
  tileWidth?: number;
  tileHeight?: number;
  angles: ArrayLike<number>;
  friction: ArrayLike<number>;
  x: number;
  y: number;
  rotation?: number;
  jitter?: number;
  seed?: number;
}

export interface CarState { x: number; y: number; vx: number; vy: number; rotation: number; speed: number; friction: number; }

export class AngleCar {
  constructor(o: AngleCarOptions);
  step(steps?: number): void;
  state(): CarState;
  free(): void;
}

export interface WandererState { x: number; y: number; cell: Cell; dir: Cell; }

export class GridWanderer {
  constructor(map: TileMap, cell: Cell, o?: { speed?: number; seed?: number });
  readonly map: TileMap;
  step(steps?: number): void;
  state(): WandererState;
  free(): void;
}
