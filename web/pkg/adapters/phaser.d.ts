// Types for tilenav/phaser (structural: Phaser's own types are not required).
import type { TileMap, PathFinder, FlowField, FlowFieldOptions, FindOptions, Cell, Point } from "../tilenav.js";

/** The parts of a Phaser.Tilemaps.Tile the adapter reads. */
export interface PhaserTileLike { index: number; collides: boolean; properties?: Record<string, unknown>; }
/** The parts of a Phaser.Tilemaps.LayerData the adapter reads. */
export interface PhaserLayerDataLike { name: string; data: (PhaserTileLike | null)[][]; tilemapLayer?: object | null; }
/** The parts of a Phaser.Tilemaps.Tilemap the adapter reads. */
export interface PhaserTilemapLike { width: number; height: number; tileWidth: number; tileHeight: number; layers: PhaserLayerDataLike[]; }
export interface SpriteLike { x: number; y: number; }

export interface PhaserNavOptions {
  layers?: (string | { layer: PhaserLayerDataLike } | PhaserLayerDataLike)[];
  blocked?: (tile: PhaserTileLike) => boolean;
  cost?: (tile: PhaserTileLike) => number;
  autoSync?: boolean;
}

export declare class PhaserNav {
  constructor(tilemap: PhaserTilemapLike, o?: PhaserNavOptions);
  readonly tilemap: PhaserTilemapLike;
  readonly map: TileMap;
  readonly width: number;
  readonly height: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
  /** The layers' top-left corner in the world (the first chosen layer's position, read at
   *  each call; (0, 0) without a TilemapLayer). */
  readonly origin: Point;
  readonly revision: number;
  /** Re-read cells from the Phaser layers (one map change); each returns how many changed. */
  sync(x: number, y: number): number;
  syncRect(x: number, y: number, w: number, h: number): number;
  syncAll(): number;
  passable(x: number, y: number): boolean;
  /** The cell under a world position (`origin` taken off), or null outside; with `size` n, the
   *  top-left cell of an n x n unit centred there. */
  worldToCell(px: number, py: number, size?: number): Cell | null;
  /** A cell's centre in world pixels; with `size` n, the centre of the n x n unit whose top-left
   *  cell it is. */
  cellToWorld(x: number, y: number, size?: number): Point;
  /** PathFinder.find's options; with `size` (an n x n unit) the cells are its top-left cells. */
  findPath(from: Cell, to: Cell, o?: FindOptions): Cell[];
  flowField(goals: Cell | Cell[], o?: FlowFieldOptions): FlowField;
  destroy(): void;
}

export declare class PathFollower {
  /** `size`: the unit's size in cells (n x n, default 1); the sprite is the unit's centre.
   *  `speed`: pixels per second, > 0 (default 100; else a TilenavError naming it). */
  constructor(sprite: SpriteLike, nav: PhaserNav, o?: { speed?: number; diagonal?: FindOptions["diagonal"]; size?: number });
  readonly sprite: SpriteLike;
  readonly size: number;
  speed: number;
  readonly path: Cell[];
  readonly goal: Cell | null;
  readonly cell: Cell | null;
  /** "idle" (no goal yet), "moving", "arrived" (on the goal's centre) or "failed" (no path: at
   *  moveTo(), or at a re-plan after a map change, as when a wall is dropped on the sprite; it
   *  stays put and tries again at the map's next change). */
  readonly status: "idle" | "moving" | "arrived" | "failed";
  readonly arrived: boolean;
  readonly failed: boolean;
  /** Not moving: arrived, failed or idle (`status` tells which). */
  readonly done: boolean;
  moveTo(goal: Cell): boolean;
  update(deltaMs: number): void;
}

export interface FieldFollowerOptions {
  /** Pixels per second, > 0 (default 80). */
  speed?: number;
  /** The side of the collision box in pixels, centred on the sprite: from size - 1 to size
   *  tiles (default size - 1/2 tiles). */
  box?: number;
  /** The unit's size in cells: must be the field's (it comes from the field). Until 0.3 a
   *  value other than the field's is read as `box`, the option's 0.1 name, with a warning. */
  size?: number;
  /** update() returns false once this close to a goal's centre (pixels, > 0, default 1). */
  arriveRadius?: number;
}

export declare class FieldFollower {
  constructor(sprite: SpriteLike, field: FlowField, o?: FieldFollowerOptions);
  readonly sprite: SpriteLike;
  field: FlowField;
  speed: number;
  /** The collision box's side in pixels. */
  box: number;
  /** The unit's size in cells (the field's). */
  readonly size: number;
  /** update() returns false once the sprite is this close to a goal cell's centre (pixels, default 1). */
  arriveRadius: number;
  /** True when the last update() found the sprite at a goal. */
  readonly arrived: boolean;
  /** False (without moving) at a goal (`arrived`) or on a cell with no way to one; true while on its way. */
  update(deltaMs: number): boolean;
}

export type { PathFinder };
