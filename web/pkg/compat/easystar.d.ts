// Types for tilenav/compat/easystar (EasyStar.js's API over tilenav's time-sliced queries).
import type { TileMap } from "../tilenav.js";

export declare const TOP: "TOP";
export declare const TOP_RIGHT: "TOP_RIGHT";
export declare const RIGHT: "RIGHT";
export declare const BOTTOM_RIGHT: "BOTTOM_RIGHT";
export declare const BOTTOM: "BOTTOM";
export declare const BOTTOM_LEFT: "BOTTOM_LEFT";
export declare const LEFT: "LEFT";
export declare const TOP_LEFT: "TOP_LEFT";

export interface Point { x: number; y: number; }

export declare class js {
  constructor();
  /** Tile values compared with ===, as EasyStar.js (numbers, -1, strings...). */
  setAcceptableTiles(tiles: unknown[] | number | string): void;
  enableSync(): void;
  disableSync(): void;
  enableDiagonals(): void;
  disableDiagonals(): void;
  enableCornerCutting(): void;
  disableCornerCutting(): void;
  /** grid[y][x]: tile values, read live (changes are seen by later searches). */
  setGrid(grid: ArrayLike<unknown>[]): void;
  /** cost: a finite number > 0 (else a TilenavError at once). */
  setTileCost(tileType: unknown, cost: number): void;
  setIterationsPerCalculation(iterations: number): void;
  /** Units of n x n tiles (integer 1..255, default 1): paths of the unit's top-left tile; null where it does not fit. */
  setUnitSize(n: number): void;
  avoidAdditionalPoint(x: number, y: number): void;
  stopAvoidingAdditionalPoint(x: number, y: number): void;
  stopAvoidingAllAdditionalPoints(): void;
  /** Not supported: throws. */
  setAdditionalPointCost(x: number, y: number, cost: number): void;
  removeAdditionalPointCost(x: number, y: number): void;
  removeAllAdditionalPointCosts(): void;
  /** Not supported: throws. */
  setDirectionalCondition(x: number, y: number, allowedDirections: string[]): void;
  removeAllDirectionalConditions(): void;
  /** The tilenav map built from the grid and the settings (built again after it was let go:
   *  see README, "Memory"). */
  readonly map: TileMap;
  findPath(startX: number, startY: number, endX: number, endY: number, callback: (path: Point[] | null) => void): number | undefined;
  cancelPath(instanceId: number): boolean;
  calculate(): void;
  /** Release tilenav's memory; searches still queued or running are cancelled (no callback).
   *  Every later call (and `map`) throws "used after free()"; a second free() does nothing. */
  free(): void;
}

type js_ = js; // for the namespace below

declare const EasyStar: {
  js: typeof js;
  TOP: typeof TOP; TOP_RIGHT: typeof TOP_RIGHT; RIGHT: typeof RIGHT; BOTTOM_RIGHT: typeof BOTTOM_RIGHT;
  BOTTOM: typeof BOTTOM; BOTTOM_LEFT: typeof BOTTOM_LEFT; LEFT: typeof LEFT; TOP_LEFT: typeof TOP_LEFT;
};
/** EasyStar.js as a type name too (`let es: EasyStar.js`), as with easystarjs's own types. */
declare namespace EasyStar {
  type js = js_;
}
export default EasyStar;
