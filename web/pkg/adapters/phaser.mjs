// tilenav/phaser: a tilenav map kept in step with a Phaser 3 tilemap, and sprites that follow
// paths and flow fields. Phaser is not imported here: pass your Phaser objects in.
//
//   import { init } from "tilenav";
//   import { PhaserNav, PathFollower } from "tilenav/phaser";
//   await init();
//   layer.setCollision([1, 2]);                       // Phaser's own collision settings
//   const nav = new PhaserNav(tilemap);               // blocked where a tile collides
//   const walker = new PathFollower(sprite, nav, { speed: 120 });
//   walker.moveTo({ x: 18, y: 13 });
//   // in update(time, delta): walker.update(delta);
//   layer.putTileAt(1, 5, 5);                          // nav sees it at once; walker re-plans
//
// A cell is blocked when a tile of one of the chosen layers there collides (Phaser's
// setCollision, setCollisionBetween, setCollisionByProperty, setCollisionByExclusion: the
// tile's `collides`), or when options.blocked(tile) says so (default: its tileset gives the
// tile's index the Tiled property `collides: true`, which Phaser's putTileAt does not apply);
// its cost is the largest options.cost(tile) among its tiles (default: the tile property
// `cost`, else 1). Fields made by nav.flowField() are updated at each synced edit.
import { TileMap, PathFinder, FlowField, TilenavError } from "../tilenav.mjs";

// The wrapped editing methods of a Tilemap and its TilemapLayers, each with the rectangle of
// cells it may change, from its arguments `a` (a TilemapLayer's, which a Tilemap's share before
// its trailing `layer`) and its result `r`: [x, y, width, height] (clipped later; undefined x
// and y default to 0, width and height to the whole map, as in Phaser), null for nothing, or
// "all" for the whole map (collision settings: they change tiles anywhere on a layer).
const tileRect = (r) => (r && Number.isInteger(r.x) && Number.isInteger(r.y) ? [r.x, r.y, 1, 1] : null);
const EDITS = {
  putTileAt: (a, r) => tileRect(r) ?? [a[1], a[2], 1, 1],
  putTileAtWorldXY: (a, r) => tileRect(r),
  removeTileAt: (a, r) => tileRect(r) ?? [a[0], a[1], 1, 1],
  removeTileAtWorldXY: (a, r) => tileRect(r),
  putTilesAt: (a) => {
    if (!Array.isArray(a[0])) return "all";
    const rows = Array.isArray(a[0][0]) ? a[0] : [a[0]];
    return [a[1], a[2], Math.max(0, ...rows.map((row) => row.length)), rows.length];
  },
  fill: (a) => [a[1], a[2], a[3], a[4]],
  randomize: (a) => [a[0], a[1], a[2], a[3]],
  weightedRandomize: (a) => [a[1], a[2], a[3], a[4]],
  replaceByIndex: (a) => [a[2], a[3], a[4], a[5]],
  swapByIndex: (a) => [a[2], a[3], a[4], a[5]],
  shuffle: (a) => [a[0], a[1], a[2], a[3]],
  copy: (a) => [a[4], a[5], a[2], a[3]], // the destination
  destroyLayer: () => "all", // and the layer is no longer read (removeLayer, removeAllLayers too)
  removeLayer: () => "all",
  removeAllLayers: () => "all",
  setCollision: () => "all",
  setCollisionBetween: () => "all",
  setCollisionByProperty: () => "all",
  setCollisionByExclusion: () => "all",
  setCollisionFromCollisionGroup: () => "all",
};

// A unit size: an integer 1..255 (n x n cells), as everywhere in tilenav.
function unitSizeOf(size, what) {
  if (!(Number.isInteger(size) && size >= 1 && size <= 255))
    throw new TilenavError(-1, `${what}: size must be an integer from 1 to 255 (a unit of size x size cells), got ${typeof size === "string" ? JSON.stringify(size) : String(size)}`);
  return size;
}

// A value in a message: strings and plain objects as JSON, the rest as String().
const shown = (v) => {
  try { return typeof v === "string" || (v && typeof v === "object") ? JSON.stringify(v) ?? String(v) : String(v); } catch { return String(v); }
};

// A positive, finite number option o[key] (speed, arriveRadius), default `dflt`.
function positiveOption(o, key, dflt, what, unit) {
  const v = o[key] ?? dflt;
  if (!(typeof v === "number" && v > 0 && Number.isFinite(v)))
    throw new TilenavError(-1, `${what}: ${key} must be a finite number > 0 (${unit}), got ${shown(v)}`);
  return v;
}

// The options object of a constructor (undefined: none), holding only the names in `known`
// (a misspelt one, as `autosync` for `autoSync`, would otherwise be ignored in silence).
function optionsOf(o, what, known) {
  if (o === null || typeof o !== "object") throw new TypeError(`tilenav/phaser: ${what}: options must be an object, got ${shown(o)}`);
  for (const k of Object.keys(o))
    if (o[k] !== undefined && !known.includes(k)) throw new TypeError(`tilenav/phaser: ${what}: unknown option "${k}" (known: ${known.join(", ")})`);
  return o;
}

// A sprite: an object with finite numbers x and y (world pixels).
function spriteOf(sprite, what) {
  if (!(sprite && typeof sprite === "object" && Number.isFinite(sprite.x) && Number.isFinite(sprite.y)))
    throw new TypeError(`tilenav/phaser: ${what}: sprite must be an object with finite numbers x and y (world pixels), got ${shown(sprite)}`);
  return sprite;
}

// update()'s deltaMs: a finite number >= 0 of milliseconds.
function deltaOf(deltaMs, what) {
  if (!(typeof deltaMs === "number" && Number.isFinite(deltaMs) && deltaMs >= 0))
    throw new TypeError(`tilenav/phaser: ${what}: deltaMs must be a finite number of milliseconds >= 0, got ${shown(deltaMs)}`);
  return deltaMs;
}

/** The Tiled properties of a tile's kind: what its tileset gives its current index
 *  (Tileset.getTileProperties), else {} when it has a tileset (a TilemapLayer) that gives none;
 *  a tile with no tileset: its own `properties`. Phaser copies these into `tile.properties`
 *  when it parses a map, but putTileAt only changes a tile's index: a tile placed there keeps
 *  the properties of the tile it replaced (or {}), while this reads its new index's. */
export function tileProperties(tile) {
  const set = tile?.tileset;
  if (set && typeof set.getTileProperties === "function") {
    const p = set.getTileProperties(tile.index);
    return p && typeof p === "object" ? p : {};
  }
  const p = tile?.properties;
  return p && typeof p === "object" ? p : {};
}

/** The default `blocked` test: the tile's kind has the Tiled property `collides: true` (see
 *  tileProperties), the convention of setCollisionByProperty({ collides: true }). */
export const collidesProperty = (tile) => tileProperties(tile).collides === true;

const destroyedError = (what) => new TilenavError(-15, `tilenav/phaser: PhaserNav used after destroy()${what ? ` (${what})` : ""}`);

// A cost() that returns no number at all (NaN, undefined, a string) is a bug in it more often
// than a way to say "blocked": the cell is blocked all the same (an edit inside Phaser never
// throws), with one warning per PhaserNav module.
let warnedCost = false;
function badCost(c, tile) {
  if (warnedCost) return;
  warnedCost = true;
  console.warn(`tilenav/phaser: PhaserNav: cost(tile) returned ${shown(c)} for the tile of index ${tile.index} at (${tile.x}, ${tile.y}), not a number: the cell is blocked (return a finite number > 0, or Infinity to block on purpose)`);
}

const defaultCost = (tile) => {
  const c = tile.properties?.cost;
  return typeof c === "number" && c > 0 ? c : 1;
};

// The PhaserNav of a tilenav map (FieldFollower finds the layer's position through its field's map).
const navOfMap = new WeakMap();

export class PhaserNav {
  /**
   * @param {object} tilemap a Phaser.Tilemaps.Tilemap
   * @param {object} [o]
   * @param {(string|object)[]} [o.layers] layer names, TilemapLayers or LayerData (default:
   *        every tile layer of the tilemap)
   * @param {(tile: object) => boolean} [o.blocked] also block these tiles (besides those whose
   *        `collides` is true; default collidesProperty: the Tiled property `collides: true`
   *        of the tile's kind, so that tiles put later by putTileAt block too)
   * @param {(tile: object) => number} [o.cost] cost of entering a tile's cell (a finite number
   *        > 0; default the tile property `cost`, else 1). Any other answer blocks the cell:
   *        Infinity (or 0, or a negative number) on purpose, and NaN or a non-number with a
   *        warning (once), as a likely bug in the function
   * @param {boolean} [o.autoSync=true] wrap the tilemap's and layers' editing and collision
   *        methods so that every edit updates the tilenav map at once
   */
  constructor(tilemap, o = {}) {
    const dims = ["width", "height", "tileWidth", "tileHeight"];
    if (!(tilemap && typeof tilemap === "object" && Array.isArray(tilemap.layers) && dims.every((k) => Number.isInteger(tilemap[k]))))
      throw new TypeError(`tilenav/phaser: PhaserNav: tilemap must be a Phaser Tilemap (integer ${dims.join(", ")} and an array of layers), got ${shown(tilemap)}`);
    optionsOf(o, "PhaserNav", ["layers", "blocked", "cost", "autoSync"]);
    if (o.autoSync !== undefined && typeof o.autoSync !== "boolean")
      throw new TypeError(`tilenav/phaser: PhaserNav: autoSync must be true or false, got ${shown(o.autoSync)}`);
    if (o.layers !== undefined && !Array.isArray(o.layers))
      throw new TypeError(`tilenav/phaser: PhaserNav: layers must be an array of layer names, TilemapLayers or LayerData, got ${shown(o.layers)}`);
    for (const k of ["blocked", "cost"])
      if (o[k] !== undefined && typeof o[k] !== "function") throw new TypeError(`tilenav/phaser: PhaserNav: ${k} must be a function (tile) => ..., got ${shown(o[k])}`);
    this.tilemap = tilemap;
    this.width = tilemap.width;
    this.height = tilemap.height;
    this.tileWidth = tilemap.tileWidth;
    this.tileHeight = tilemap.tileHeight;
    this._blocked = o.blocked ?? collidesProperty;
    this._cost = o.cost ?? defaultCost;
    const all = tilemap.layers;
    this._layers = (o.layers ?? all).map((l) => {
      if (typeof l === "string") {
        const d = all.find((x) => x.name === l);
        if (!d) throw new TypeError(`tilenav/phaser: no tile layer named "${l}"`);
        return d;
      }
      return l.layer ?? l; // a TilemapLayer has .layer (its LayerData)
    });
    this._allLayers = o.layers === undefined; // layers made later are read too
    this._inMap = new Set(this._layers.filter((L) => all.includes(L))); // dropped when the tilemap drops them
    this._values = new Map([[1, 0]]); // cost -> cell value; 1 is blocked
    this._nextValue = 2;
    this.map = null;
    const cells = this._read(0, 0, this.width, this.height), costs = { 0: 1, 1: Infinity };
    for (const [cost, v] of this._values) costs[v] = cost;
    this.map = new TileMap({ width: this.width, height: this.height, tileWidth: this.tileWidth, tileHeight: this.tileHeight, cells, costs });
    navOfMap.set(this.map, this);
    this._finder = new PathFinder(this.map);
    this._fields = new Set(); // WeakRefs of the fields of flowField(), updated at each change
    this._destroyed = false;
    this._wrapped = [];
    if (o.autoSync ?? true) this._wrap();
  }

  // The cell values of a rectangle (inside the map) from the Phaser layers, row-major: 1 blocked,
  // 0 cost 1, 2... one per other cost.
  _read(x0, y0, w, h) {
    const out = new Uint32Array(w * h), layers = this._layers, blockedBy = this._blocked, costOf = this._cost;
    for (let j = 0; j < h; j++) {
      const y = y0 + j, rows = layers.map((L) => L.data?.[y]);
      for (let i = 0; i < w; i++) {
        const x = x0 + i;
        let blocked = false, cost = -Infinity;
        for (const row of rows) {
          const tile = row?.[x];
          if (!tile || tile.index < 0) continue;
          if (tile.collides || blockedBy(tile)) { blocked = true; break; }
          const c = costOf(tile);
          if (!(c > 0 && Number.isFinite(c))) { // Infinity, 0, negative: blocked, as documented
            if (typeof c !== "number" || Number.isNaN(c)) badCost(c, tile);
            blocked = true;
            break;
          }
          if (c > cost) cost = c;
        }
        out[j * w + i] = blocked ? 1 : cost === -Infinity || cost === 1 ? 0 : this._valueOf(cost);
      }
    }
    return out;
  }

  // The cell value of a cost other than 1 (a new one gets the map's terrain entry).
  _valueOf(cost) {
    let v = this._values.get(cost);
    if (v === undefined) {
      v = this._nextValue++;
      this._values.set(cost, v);
      if (this.map) this.map._costs.set(v, cost); // the map's terrain entry for the new value
    }
    return v;
  }

  /** Re-read one cell from the Phaser layers; returns 1 when it changed, else 0. */
  sync(x, y) { return this.syncRect(x, y, 1, 1); }

  // Throw "PhaserNav used after destroy()" (naming the call) once destroyed.
  _live(what) {
    if (this._destroyed) throw destroyedError(what);
  }

  /** Re-read a rectangle of cells (clipped to the map), written to the tilenav map as one
   *  change (TileMap.setRect); returns how many cells changed. */
  syncRect(x, y, w, h) {
    this._live("PhaserNav.syncRect");
    const x0 = Math.max(0, Math.floor(x)), y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(this.width, Math.ceil(x + w)), y1 = Math.min(this.height, Math.ceil(y + h));
    if (!(x1 > x0 && y1 > y0)) return 0; // also NaN
    const n = this.map.setRect(x0, y0, x1 - x0, y1 - y0, this._read(x0, y0, x1 - x0, y1 - y0));
    if (n) this._updateFields();
    return n;
  }

  // Bring the live fields of flowField() up to date (incremental: only what the change affects).
  // A field keeps the goals given to flowField() that are open (the unit fits there): a wall
  // dropped on one of several exits leaves it out (rebuilt towards the others) until it opens
  // again. With every goal covered the field is left as it was, not `current`, and its
  // followers stop, until one opens. An edit never throws out of Phaser for it.
  _updateFields() {
    for (const ref of this._fields) {
      const f = ref.deref();
      if (!f || !f._h) { this._fields.delete(ref); continue; } // collected or freed
      const wanted = f._navGoals, open = wanted.filter((g) => this.map.fits(g.x, g.y, f.size));
      f._navNoGoal = open.length === 0;
      if (f._navNoGoal) continue;
      const same = open.length === f._goals.length && open.every((g, i) => g.x === f._goals[i].x && g.y === f._goals[i].y);
      if (!same) f.build(open);
      else if (!f.current) f.update();
    }
  }

  /** Re-read every cell (after edits the wrapping does not see); returns how many changed. */
  syncAll() { return this.syncRect(0, 0, this.width, this.height); }

  _wrap() {
    this._targets = new Set();
    for (const t of [this.tilemap, ...this.tilemap.layers.map((d) => d.tilemapLayer).filter(Boolean)]) this._wrapEdits(t);
    // layers made after this PhaserNav: their TilemapLayer's edits are wrapped too, and (when
    // no `layers` were named) a new layer's tiles are read
    for (const name of ["createLayer", "createBlankLayer"]) {
      const orig = this.tilemap[name];
      if (typeof orig !== "function") continue;
      const nav = this;
      this.tilemap[name] = function (...args) {
        const layer = orig.apply(this, args);
        if (layer) nav._adopt(layer);
        return layer;
      };
      this._wrapped.push([this.tilemap, name, orig]);
    }
  }

  // Wrap the editing methods of a Tilemap or TilemapLayer: each re-reads what it touched.
  _wrapEdits(t) {
    if (this._targets.has(t)) return;
    this._targets.add(t);
    for (const [name, rect] of Object.entries(EDITS)) {
      const orig = t[name];
      if (typeof orig !== "function") continue;
      const nav = this;
      t[name] = function (...args) {
        const r = orig.apply(this, args);
        const box = rect(args, r);
        if (box === "all") {
          const now = nav.tilemap.layers; // a destroyed or removed layer is no longer read
          nav._layers = nav._layers.filter((L) => !nav._inMap.has(L) || now.includes(L));
          nav.syncAll();
        } else if (box) nav.syncRect(box[0] ?? 0, box[1] ?? 0, box[2] ?? nav.width, box[3] ?? nav.height);
        return r;
      };
      this._wrapped.push([t, name, orig]);
    }
  }

  // A TilemapLayer made after this PhaserNav (Tilemap.createLayer, createBlankLayer).
  _adopt(layer) {
    const d = layer.layer ?? null;
    this._wrapEdits(layer);
    if (d && this._allLayers && !this._layers.includes(d)) {
      this._layers.push(d);
      this._inMap.add(d);
      this.syncAll();
    }
  }

  /** Map edits so far (grows on every change; followers re-plan when it moves). */
  get revision() { this._live("PhaserNav.revision"); return this.map.revision; }

  /** Is the cell walkable? */
  passable(x, y) { this._live("PhaserNav.passable"); return this.map.passable(x, y); }

  /** destroy() was called. */
  get destroyed() { return this._destroyed; }

  /** Where the layers' top-left corner is in the world: the position of the first chosen layer
   *  that has a TilemapLayer (createLayer(id, tileset, x, y)), read at each call so that a
   *  moved layer is followed; (0, 0) without one. World positions are map pixels plus this.
   *  Layers at different positions, scaled layers and scroll factors other than 1 are not
   *  supported (a warning, once). */
  get origin() {
    const shown = this._layers.map((L) => L.tilemapLayer).filter(Boolean);
    const l = shown[0];
    if (!l) return { x: 0, y: 0 };
    if (!this._warned) {
      const odd = shown.find((o) => o.x !== l.x || o.y !== l.y) ? "layers at different positions"
        : shown.find((o) => (o.scaleX ?? 1) !== 1 || (o.scaleY ?? 1) !== 1) ? "a scaled layer"
          : shown.find((o) => (o.scrollFactorX ?? 1) !== 1 || (o.scrollFactorY ?? 1) !== 1) ? "a layer whose scroll factor is not 1" : "";
      if (odd) {
        this._warned = true;
        console.warn(`tilenav/phaser: PhaserNav takes its layers as one grid at (${l.x}, ${l.y}), unscaled, scrolling with the camera; it has ${odd}: its world positions will not match Phaser's`);
      }
    }
    return { x: l.x ?? 0, y: l.y ?? 0 };
  }

  /** The cell under a world position (the layer's position, `origin`, taken off), or null
   *  outside. With `size` n: the top-left cell of an n x n unit centred there (the cell under
   *  the position moved back by (n - 1) / 2 tiles). */
  worldToCell(px, py, size = 1) {
    this._live("PhaserNav.worldToCell");
    const n = unitSizeOf(size, "PhaserNav.worldToCell"), o = this.origin;
    return this.map.cellAt(px - o.x - ((n - 1) / 2) * this.tileWidth, py - o.y - ((n - 1) / 2) * this.tileHeight);
  }

  /** The centre of a cell in world pixels; with `size` n, the centre of the n x n unit whose
   *  top-left cell it is. */
  cellToWorld(x, y, size = 1) {
    this._live("PhaserNav.cellToWorld");
    const n = unitSizeOf(size, "PhaserNav.cellToWorld"), c = this.map.center(x, y), o = this.origin;
    return { x: o.x + c.x + ((n - 1) / 2) * this.tileWidth, y: o.y + c.y + ((n - 1) / 2) * this.tileHeight };
  }

  /** Shortest path between cells (PathFinder.find's options, `size` for units of size x size
   *  cells included): an array of {x, y} (top-left cells), [] when none. */
  findPath(from, to, o = {}) {
    this._live("PhaserNav.findPath");
    const r = this._finder.find(this.map, from, to, o);
    return r.found ? r.path : [];
  }

  /** A flow field towards goal cell(s) on this map (FlowField options, `size` included; free()
   *  it when done, or destroy() frees it). The PhaserNav keeps it current: every change it
   *  syncs (the wrapped edits, sync*) update()s it, recomputing only what the change affects.
   *  A goal a wall covers is left out (the field is rebuilt towards the others) until it opens
   *  again; with every goal covered the field stays as it was, not `current`, and
   *  FieldFollowers on it stop (update() returns false) until one opens. */
  flowField(goals, o = {}) {
    this._live("PhaserNav.flowField");
    const f = new FlowField(this.map, o).build(goals);
    f._navGoals = f.goals; // the goals it keeps towards (see _updateFields)
    f._navNoGoal = false;
    this._fields.add(new WeakRef(f));
    return f;
  }

  /** Undo the wrapping and free the tilenav map and the fields of flowField(). Afterwards the
   *  PhaserNav's calls throw "PhaserNav used after destroy()", PathFollowers' status is
   *  "destroyed" and followers' update() does nothing. A second destroy() does nothing. */
  destroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    for (const [t, name, orig] of this._wrapped.reverse()) t[name] = orig;
    this._wrapped = [];
    for (const ref of this._fields) ref.deref()?.free();
    this._fields.clear();
    this._finder.free();
    this.map.free();
  }
}

/** Moves a sprite (anything with x, y) along shortest paths, cell centre to cell centre;
 *  re-plans from its next cell when the map changes under it. With `size` n the sprite is the
 *  centre of an n x n unit: its cells are the unit's top-left cells (as PhaserNav.findPath's). */
export class PathFollower {
  /**
   * @param {object} sprite has x and y (world pixels)
   * @param {PhaserNav} nav
   * @param {{speed?: number, diagonal?: string, size?: number}} [o] pixels per second (default
   *        100); the diagonal rule of the searches (default "no-cut"); the unit's size in cells
   *        (default 1: a unit of size x size cells)
   */
  constructor(sprite, nav, o = {}) {
    if (!(nav instanceof PhaserNav)) throw new TypeError(`tilenav/phaser: PathFollower: nav must be a PhaserNav, got ${shown(nav)}`);
    optionsOf(o, "PathFollower", ["speed", "diagonal", "size"]);
    if (o.diagonal !== undefined && !["no-cut", "never", "one", "always"].includes(o.diagonal))
      throw new TilenavError(-1, `PathFollower: diagonal must be "no-cut", "never", "one" or "always", got ${shown(o.diagonal)}`);
    this.sprite = spriteOf(sprite, "PathFollower");
    this.nav = nav;
    this.speed = positiveOption(o, "speed", 100, "PathFollower", "pixels per second");
    this.diagonal = o.diagonal ?? "no-cut";
    this.size = unitSizeOf(o.size ?? 1, "PathFollower");
    this.path = [];
    this.goal = null;
    this._i = 0;
    this._rev = -1;
    this._failed = false;
  }

  /** The cell under the sprite (with `size` n: the unit's top-left cell). */
  get cell() { return this.nav.worldToCell(this.sprite.x, this.sprite.y, this.size); }

  /** Plan a path to a goal cell; returns false when there is none. */
  moveTo(goal) {
    this.nav._live("PathFollower.moveTo");
    this.goal = { x: goal.x, y: goal.y };
    return this._plan(this.cell);
  }

  _plan(from) {
    this._rev = this.nav.revision;
    this.path = from ? this.nav.findPath(from, this.goal, { diagonal: this.diagonal, size: this.size }) : [];
    this._i = this.path.length > 1 ? 1 : 0; // a one-cell path: to its centre
    this._failed = this.path.length === 0;
    return !this._failed;
  }

  /** "idle" (no goal yet), "moving", "arrived" (on the goal's centre) or "failed" (no path: at
   *  moveTo(), or when the map changed and the re-plan found none, as when a wall is dropped
   *  on the sprite; it stays put, and tries again at the map's next change); "destroyed" once
   *  its PhaserNav is destroyed (update() then does nothing). */
  get status() {
    if (this.nav._destroyed) return "destroyed";
    if (!this.goal) return "idle";
    if (this._failed) return "failed";
    return this._i >= this.path.length ? "arrived" : "moving";
  }

  /** On the goal's centre. */
  get arrived() { return this.status === "arrived"; }

  /** No path to the goal (see status). */
  get failed() { return this.status === "failed"; }

  /** Not moving: arrived, failed, idle or destroyed (`status` tells which). */
  get done() { return this.status !== "moving"; }

  /** Advance by `deltaMs` milliseconds (nothing once the PhaserNav is destroyed). */
  update(deltaMs) {
    deltaOf(deltaMs, "PathFollower.update");
    if (!this.goal || this.nav._destroyed) return;
    const n = this.size;
    // (a failed follower re-plans too when the map changes: a removed wall may open a way)
    if (this.nav.revision !== this._rev) { // the map changed: re-plan from the cell being entered
      const next = this.path[this._i] ?? this.cell;
      const here = this.cell;
      const from = next && this.nav.map.fits(next.x, next.y, n) ? next : here;
      const prefix = from === next && here && (here.x !== next.x || here.y !== next.y) ? [here] : [];
      if (this._plan(from) && prefix.length) { this.path = prefix.concat(this.path); this._i = 1; }
    }
    let left = (this.speed * deltaMs) / 1000;
    while (left > 0 && this._i < this.path.length) {
      const c = this.nav.cellToWorld(this.path[this._i].x, this.path[this._i].y, n);
      const dx = c.x - this.sprite.x, dy = c.y - this.sprite.y, d = Math.hypot(dx, dy);
      if (d <= left) { this.sprite.x = c.x; this.sprite.y = c.y; left -= d; this._i++; } else {
        this.sprite.x += (dx / d) * left; this.sprite.y += (dy / d) * left; left = 0;
      }
    }
  }
}

// The 8 directions of FlowField.direction(): 0 = +x, then clockwise on screen.
const DX = [1, 1, 0, -1, -1, -1, 0, 1], DY = [0, 1, 1, 1, 0, -1, -1, -1];

let warnedSize = false;

/** Moves a sprite along a flow field's smooth directions, sliding along walls (TileMap.moveBox
 *  with a square box of `box` pixels centred on the sprite). Where the smooth direction pushes
 *  the box into a wall (a corner that a point would pass but the box does not), it makes for
 *  the centre of the next cell on the field's 8-way path instead, which the box always reaches,
 *  and then goes on along the smooth directions. In a goal's cell it goes straight to the
 *  cell's centre (never past it) and stops there.
 *  The unit's size is the field's: on a field made with `size` n the sprite is the centre of an
 *  n x n unit, which reads the field at its top-left cell (its centre moved back by (n - 1) / 2
 *  tiles), as Crowd agents do. */
export class FieldFollower {
  /**
   * @param {object} sprite has x and y (world pixels)
   * @param {FlowField} field a built field (its `size` is the unit's)
   * @param {{speed?: number, box?: number, size?: number, arriveRadius?: number}} [o]
   *        speed: pixels per second (default 80); box: the side of the collision box in pixels,
   *        from (n - 1) tiles to n tiles for a field of size n, more than 0 for size 1 (default
   *        n - 1/2 tiles: half a tile for size 1); size: the unit's size in cells, which must be the field's (it may
   *        be left out) — until 0.3 a `size` that differs from the field's is read as the old
   *        name of `box`, with a warning; arriveRadius: update() returns false once the unit
   *        is this close to a goal's centre (pixels, default 1)
   */
  constructor(sprite, field, o = {}) {
    const what = "FieldFollower";
    if (!(field instanceof FlowField)) throw new TypeError(`tilenav/phaser: ${what}: field must be a FlowField, got ${shown(field)}`);
    optionsOf(o, what, ["speed", "box", "size", "arriveRadius"]);
    spriteOf(sprite, what);
    const n = field.size ?? 1, m = field.map;
    const tw = m.tileWidth, th = m.tileHeight, tmin = Math.min(tw, th);
    let box = o.box;
    if (o.size !== undefined && o.size !== n) {
      if (box !== undefined || !(typeof o.size === "number" && o.size > 0))
        throw new TilenavError(-1, `${what}: size is the unit's size in cells and must be the field's (${n}), got ${String(o.size)}; the box in pixels is \`box\``);
      if (!warnedSize) {
        warnedSize = true;
        console.warn(`tilenav/phaser: FieldFollower's { size: ${o.size} } is read as a box of ${o.size} pixels, its old meaning: use { box: ${o.size} } (size is now the unit's size in cells, as everywhere in tilenav, and comes from the field; the old meaning goes in 0.3)`);
      }
      box = o.size;
    }
    box ??= (n - 0.5) * tmin;
    if (!(typeof box === "number" && box >= (n - 1) * tmin && box <= n * tmin && box > 0))
      throw new TilenavError(-1, `${what}: box must be ${n === 1 ? `more than 0 and at most ${tmin}` : `from ${(n - 1) * tmin} to ${n * tmin}`} pixels for a size ${n} unit on ${tw} x ${th} tiles (${n === 1 ? "at most a tile" : "size - 1 to size tiles"}), got ${shown(box)}`);
    this.sprite = sprite;
    this.field = field;
    this.speed = positiveOption(o, "speed", 80, what, "pixels per second");
    this.box = box;
    this.arriveRadius = positiveOption(o, "arriveRadius", 1, what, "pixels");
    /** True when the last update() found the sprite at a goal (false: still on its way, or on
     *  a cell with no way to a goal). */
    this.arrived = false;
    // Going by cells: the cell being made for (null: none), and the field's distance to get
    // below before going back to the smooth directions (null: not going by cells)
    this._to = null;
    this._until = null;
    this._best = Infinity; // the smallest distance of a cell reached
    this._travel = 0; // pixels moved by the smooth directions since then
    this._rev = field.map.revision;
  }

  /** The unit's size in cells (the field's). */
  get size() { return this.field.size ?? 1; }

  /** The PhaserNav of the field's map was destroyed (update() returns false). */
  get destroyed() { return navOfMap.get(this.field.map)?._destroyed === true; }

  // The offset from the unit's top-left cell's point (where the field is read) to the sprite.
  _off() {
    const m = this.field.map, k = (this.size - 1) / 2;
    return { x: k * m.tileWidth, y: k * m.tileHeight };
  }

  // Move the box by (dx, dy) pixels (sliding along walls); returns moveBox's result. The
  // followers work on this._p, the sprite's position in map pixels.
  _move(dx, dy) {
    const h = this.box / 2, s = this._p;
    const r = this.field.map.moveBox({ x: s.x - h, y: s.y - h, w: this.box, h: this.box }, dx, dy);
    s.x = r.x + h;
    s.y = r.y + h;
    return r;
  }

  // Move the unit's read point straight towards point t by at most `step` pixels; when a wall
  // stops one axis, the rest of the step goes along the other. Returns the distance left.
  _toward(t, step, off) {
    const s = this._p, tx = t.x + off.x, ty = t.y + off.y;
    const dx = tx - s.x, dy = ty - s.y, dist = Math.hypot(dx, dy);
    if (dist === 0) return 0;
    const k = dist <= step ? 1 : step / dist, x0 = s.x, y0 = s.y;
    const r = this._move(dx * k, dy * k);
    const rest = step - Math.hypot(s.x - x0, s.y - y0);
    if (rest > 0 && r.blockedX !== r.blockedY) {
      const ry = ty - s.y, rx = tx - s.x;
      if (r.blockedX) this._move(0, Math.sign(ry) * Math.min(rest, Math.abs(ry)));
      else this._move(Math.sign(rx) * Math.min(rest, Math.abs(rx)), 0);
    }
    return Math.hypot(tx - s.x, ty - s.y);
  }

  /** Advance by `deltaMs` milliseconds. Returns false, without moving, once the unit is at a
   *  goal (`arrived` true) or on a cell with no way to one (a wall dropped on it, an unreachable
   *  cell, outside the map), or once the field's PhaserNav is destroyed; true while it is on
   *  its way. A field the map changed under (not `current`) is update()d first. */
  update(deltaMs) {
    // in map pixels: the sprite's world position less the layer's (a field made on a
    // PhaserNav's map follows its layer's position)
    deltaOf(deltaMs, "FieldFollower.update");
    const nav = navOfMap.get(this.field.map);
    if (nav?._destroyed) { this.arrived = false; return false; }
    if (this.field._navNoGoal) { this.arrived = false; return false; } // every goal covered
    if (!this.field.current) this.field.update(); // edits since: never follow a stale field
    const o = nav?.origin ?? { x: 0, y: 0 }, sp = this.sprite;
    const p = (this._p = { x: sp.x - o.x, y: sp.y - o.y }), x0 = p.x, y0 = p.y;
    const r = this._update(deltaMs);
    if (p.x !== x0 || p.y !== y0) { sp.x = p.x + o.x; sp.y = p.y + o.y; }
    return r;
  }

  _update(deltaMs) {
    const f = this.field, m = f.map, s = this._p, off = this._off();
    const step = (this.speed * deltaMs) / 1000;
    const px = s.x - off.x, py = s.y - off.y; // the unit's top-left cell's point
    const c = m.cellAt(px, py), d = c ? f.distance(c.x, c.y) : Infinity;
    this.arrived = false;
    if (m.revision !== this._rev) { // the map changed (and the field may have): start afresh
      this._rev = m.revision;
      this._to = this._until = null;
      this._best = Infinity;
      this._travel = 0;
    }
    if (d === Infinity) { this._to = this._until = null; return false; }
    if (d === 0) { // a goal's cell: straight to its centre, never past it
      this._to = this._until = null;
      const t = m.center(c.x, c.y);
      let left = Math.hypot(t.x - px, t.y - py);
      if (left > this.arriveRadius) left = this._toward(t, step, off);
      this.arrived = left <= this.arriveRadius;
      return !this.arrived;
    }
    if (d < this._best) { this._best = d; this._travel = 0; }
    if (!this._to) {
      if (this._until !== null && d < this._until) this._until = null; // below the mark: done
      if (this._until === null) {
        const v = f.sample(px, py);
        const x = s.x, y = s.y, r = this._move(v.x * step, v.y * step);
        this._travel += step;
        if (!r.blockedX && !r.blockedY && (v.x !== 0 || v.y !== 0)) {
          // the smooth directions can circle where they meet at odd angles (between cells
          // that point at each other, line of sight): after 3 tiles without coming nearer
          // than ever, go by cells until nearer than ever
          if (this._travel > 3 * Math.max(m.tileWidth, m.tileHeight)) { this._until = this._best; this._travel = 0; }
          return true;
        }
        s.x = x; s.y = y; // the box met a wall: go by cells until a nearer cell is reached
        this._until = d;
      }
      const k = f.direction(c.x, c.y);
      if (k < 0) return true;
      this._to = { x: c.x + DX[k], y: c.y + DY[k] };
    }
    const left = this._toward(m.center(this._to.x, this._to.y), step, off);
    if (left <= 0.01 || f.distance(this._to.x, this._to.y) === Infinity) this._to = null;
    return true;
  }
}
