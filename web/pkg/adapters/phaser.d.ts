// Types for tilenav/phaser (structural: Phaser's own types are not required).
import type { TileMap, PathFinder, FlowField, FlowFieldOptions, FindOptions, Cell, Point } from "../tilenav.js";

/** The parts of a Phaser.Tilemaps.Tile the adapter reads (a Phaser Tile has them all). The
 *  callbacks `blocked` and `cost` get the tilemap's own tiles: with a Phaser Tilemap they are
 *  typed as Phaser.Tilemaps.Tile (PhaserNav's type parameter T), so tile.x, tile.layer,
 *  tile.properties... are Phaser's. */
export interface PhaserTileLike {
  index: number;
  collides: boolean;
  /** The tile's own properties (Tiled's, copied by Phaser when it parsed the map). */
  properties?: any;
  /** The tile's cell (Phaser: tile.x, tile.y). */
  x?: number;
  y?: number;
  /** Its LayerData (Phaser: tile.layer). */
  layer?: object;
  /** Its tileset (Phaser: null without a TilemapLayer); tileProperties() reads its index's. */
  tileset?: { getTileProperties(tileIndex: number): object | undefined | null } | null;
}
/** The parts of a Phaser.Tilemaps.LayerData the adapter reads. */
export interface PhaserLayerDataLike<T extends PhaserTileLike = PhaserTileLike> { name: string; data: (T | null)[][]; tilemapLayer?: object | null; }
/** The parts of a Phaser.Tilemaps.Tilemap the adapter reads. */
export interface PhaserTilemapLike<T extends PhaserTileLike = PhaserTileLike> { width: number; height: number; tileWidth: number; tileHeight: number; layers: PhaserLayerDataLike<T>[]; }
export interface SpriteLike { x: number; y: number; }

/** The Tiled properties of a tile's kind: what its tileset gives its current index
 *  (Tileset.getTileProperties), {} when its tileset gives none; a tile with no tileset (a
 *  LayerData with no TilemapLayer): its own `properties`. Unlike tile.properties, this follows
 *  putTileAt, which changes only a tile's index. */
export declare function tileProperties(tile: PhaserTileLike): Record<string, any>;
/** The default `blocked` test: tileProperties(tile).collides === true. */
export declare function collidesProperty(tile: PhaserTileLike): boolean;

export interface PhaserNavOptions<T extends PhaserTileLike = PhaserTileLike> {
  layers?: (string | { layer: PhaserLayerDataLike<T> } | PhaserLayerDataLike<T>)[];
  /** Also block these tiles, besides those whose `collides` is true (default collidesProperty:
   *  the Tiled property `collides: true` of the tile's kind). A method signature, so that a
   *  callback annotated with Phaser's own Tile type is accepted. */
  blocked?(tile: T): boolean;
  /** The cost of entering a tile's cell, a finite number > 0 (default: tile.properties.cost,
   *  else 1). Any other answer blocks the cell: Infinity (0, a negative number) on purpose;
   *  NaN or a non-number with a warning (once per page). */
  cost?(tile: T): number;
  /** Wrap the tilemap's and layers' editing methods so that each edit updates the map
   *  (default true). Options other than these four throw a TypeError naming them. */
  autoSync?: boolean;
}

export declare class PhaserNav<T extends PhaserTileLike = PhaserTileLike> {
  constructor(tilemap: PhaserTilemapLike<T>, o?: PhaserNavOptions<T>);
  readonly tilemap: PhaserTilemapLike<T>;
  readonly map: TileMap;
  readonly width: number;
  readonly height: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
  /** The layers' top-left corner in the world (the first chosen layer's position, read at
   *  each call; (0, 0) without a TilemapLayer). */
  readonly origin: Point;
  readonly revision: number;
  /** destroy() was called: the PhaserNav's calls throw "PhaserNav used after destroy()". */
  readonly destroyed: boolean;
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
  /** The PhaserNav keeps the field current: each change it syncs update()s it. A goal a wall
   *  covers is left out (rebuilt towards the others) until it opens again; with every goal
   *  covered the field stays as it was (not `current`) and its FieldFollowers stop. */
  flowField(goals: Cell | Cell[], o?: FlowFieldOptions): FlowField;
  /** Unwraps, frees the map and the fields of flowField(); a second call does nothing. */
  destroy(): void;
}

export declare class PathFollower {
  /** `size`: the unit's size in cells (n x n, default 1); the sprite is the unit's centre.
   *  `speed`: pixels per second, > 0 (default 100; else a TilenavError naming it). The sprite
   *  must have finite x and y (a TypeError otherwise); an unknown option is a TypeError. */
  constructor(sprite: SpriteLike, nav: PhaserNav<any>, o?: { speed?: number; diagonal?: FindOptions["diagonal"]; size?: number });
  readonly sprite: SpriteLike;
  readonly size: number;
  speed: number;
  /** The planned cells, start first. After a map change it is re-planned at the next update()
   *  (before the sprite moves), from the cell being entered; until then it is the old plan. */
  readonly path: Cell[];
  readonly goal: Cell | null;
  readonly cell: Cell | null;
  /** "idle" (no goal yet), "moving", "arrived" (on the goal's centre) or "failed" (no path: at
   *  moveTo(), or at a re-plan after a map change, as when a wall is dropped on the sprite; it
   *  stays put and tries again at the map's next change); "destroyed" once its PhaserNav is
   *  destroyed (update() then does nothing, moveTo() throws "PhaserNav used after destroy()"). */
  readonly status: "idle" | "moving" | "arrived" | "failed" | "destroyed";
  readonly arrived: boolean;
  readonly failed: boolean;
  /** Not moving: arrived, failed, idle or destroyed (`status` tells which). */
  readonly done: boolean;
  moveTo(goal: Cell): boolean;
  /** deltaMs: a finite number >= 0 (a TypeError otherwise, as for NaN). */
  update(deltaMs: number): void;
}

export interface FieldFollowerOptions {
  /** Pixels per second, > 0 (default 80). */
  speed?: number;
  /** The side of the collision box in pixels, centred on the sprite: from size - 1 to size
   *  tiles, more than 0 for size 1 (default size - 1/2 tiles). */
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
  /** The PhaserNav of the field's map was destroyed (update() returns false). */
  readonly destroyed: boolean;
  /** False (without moving) at a goal (`arrived`), on a cell with no way to one, or once the
   *  field's PhaserNav is destroyed; true while on its way. A field that is not `current` (the
   *  map changed since its last build or update) is update()d first. deltaMs: a finite number
   *  >= 0 (a TypeError otherwise). */
  update(deltaMs: number): boolean;
}

export type { PathFinder };
