// Unit tests of tilenav/phaser in Node (node --test), on plain objects shaped like Phaser's
// tilemaps and sprites (the adapter never imports Phaser): followers on random maps, the
// wrapped edits. The Phaser example in Chromium is web/test/phaser.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { init, TileMap, FlowField, TilenavError } from "../pkg/tilenav.mjs";
import { PhaserNav, PathFollower, FieldFollower, tileProperties, collidesProperty } from "../pkg/adapters/phaser.mjs";

await init();

// A small seeded generator (mulberry32) so failures reproduce.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Does a box of side `b` centred at (x, y) overlap a blocked cell (or leave the map)? Boxes
// touching a wall's edge do not overlap it.
function overlapsWall(map, x, y, b) {
  const e = 1e-3, tw = map.tileWidth, th = map.tileHeight;
  for (let j = Math.floor((y - b / 2 + e) / th); j <= Math.floor((y + b / 2 - e) / th); j++)
    for (let i = Math.floor((x - b / 2 + e) / tw); i <= Math.floor((x + b / 2 - e) / tw); i++)
      if (!map.passable(i, j)) return true;
  return false;
}

const inCell = (map, p, c) => { const k = map.cellAt(p.x, p.y); return k !== null && k.x === c.x && k.y === c.y; };

test("FieldFollower: a box slides round the corner a point would pass (the report's map)", () => {
  const map = TileMap.fromText([
    "....................",
    "....................",
    "######.....#########",
    "......#............#",
    "......#..######....#",
    "...........#.......#",
    "...........#.......#",
    "####..######.......#",
    "....................",
    "....................",
  ], { tileSize: 32 });
  const goal = { x: 17, y: 8 }, field = new FlowField(map).build(goal);
  for (const box of [16, 24]) {
    const s = { x: 16, y: 16 }, f = new FieldFollower(s, field, { speed: 100, box });
    let n = 0;
    for (; n < 3000 && !inCell(map, s, goal); n++) {
      f.update(16);
      assert.ok(!overlapsWall(map, s.x, s.y, box), `box ${box}: inside a wall at (${s.x}, ${s.y})`);
    }
    // the path is 22.07 cells: about 450 frames of 1.6 px
    assert.ok(n < 600, `box ${box}: not at the goal after ${n} frames, at (${s.x.toFixed(1)}, ${s.y.toFixed(1)})`);
  }
  field.free();
  map.free();
});

test("FieldFollower: from random starts on random maps, units of sizes 1 to 3 reach the goal and stop, never overlapping a wall", () => {
  const R = rng(7), T = 32;
  let runs = 0;
  for (let k = 0; k < 90; k++) {
    const n = 1 + (k % 3); // the unit's size: the field's
    const W = 12 + Math.floor(R() * 20), H = 8 + Math.floor(R() * 14), dens = (0.1 + R() * 0.3) / n;
    const cells = Array.from({ length: W * H }, () => { const r = R(); return r < dens ? 1 : r < dens + 0.1 ? 2 : 0; });
    const map = new TileMap({ width: W, height: H, tileSize: T, cells, costs: { 0: 1, 1: Infinity, 2: 3 } });
    const cell = () => ({ x: Math.floor(R() * W), y: Math.floor(R() * H) });
    let goal, tries = 0;
    do goal = cell(); while (!map.fits(goal.x, goal.y, n) && ++tries < 1000);
    if (tries >= 1000) { map.free(); continue; }
    // the corner rules FieldFollower promises to handle, line of sight, steepest flow, more goals
    const o = { size: n, diagonal: R() < 0.5 ? "no-cut" : "never", flow: R() < 0.3 ? "steepest" : "optimal", lineOfSight: R() < 0.3 ? "exact" : "off" };
    const goals = [goal];
    if (o.lineOfSight === "off" && R() < 0.3) for (let q = 0; q < 3; q++) { const g = cell(); if (map.fits(g.x, g.y, n)) goals.push(g); }
    const field = new FlowField(map, o).build(goals);
    const where = `map ${k} (${W} x ${H}, ${JSON.stringify(o)}, goals ${JSON.stringify(goals)})`;
    for (let s = 0; s < 15; s++) {
      let c;
      tries = 0;
      do c = cell(); while (field.distance(c.x, c.y) === Infinity && ++tries < 1000);
      if (tries >= 1000) break;
      // boxes from (n - 1) to n tiles: the smallest, the default, the largest, any between
      const box = [(n - 1) * T || 4, (n - 0.5) * T, n * T, (n - 1 + R()) * T][s % 4], speed = 40 + R() * 200;
      const p = { x: (c.x + n / 2) * T, y: (c.y + n / 2) * T }, f = new FieldFollower(p, field, { speed, box });
      assert.equal(f.size, n);
      // frames of 1/60 s, one in ten a hitch of 5..100 ms; at most twice the path's frames
      const limit = Math.ceil((2 * field.pathFrom(c).path.length * 1.5 * T) / (speed / 60)) + 60;
      let i = 0, moving = true;
      for (; i < limit && moving; i++) {
        moving = f.update(R() < 0.1 ? 5 + R() * 95 : 1000 / 60);
        if (overlapsWall(map, p.x, p.y, box)) assert.fail(`${where}, start (${c.x}, ${c.y}), box ${box}: inside a wall at (${p.x}, ${p.y})`);
      }
      // stopped within 1 px of a goal's centre (the unit's centre: its top-left cell's centre
      // plus (n - 1) / 2 tiles)
      const at = { x: Math.round(p.x / T - n / 2), y: Math.round(p.y / T - n / 2) };
      const off = Math.hypot(p.x - (at.x + n / 2) * T, p.y - (at.y + n / 2) * T);
      assert.ok(!moving && f.arrived && off <= 1 && goals.some((g) => g.x === at.x && g.y === at.y),
        `${where}, start (${c.x}, ${c.y}), box ${box}, speed ${speed.toFixed(0)}: at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}) after ${i} frames, update() ${moving}, arrived ${f.arrived}`);
      runs++;
    }
    field.free();
    map.free();
  }
  assert.ok(runs > 1000, `only ${runs} runs`);
});

test("FieldFollower: update() returns false at the goal's centre and stays there (no jitter)", () => {
  const map = TileMap.fromText(["........", "........", "........"], { tileSize: 32 });
  const field = new FlowField(map).build({ x: 6, y: 1 });
  for (const speed of [70, 80, 100, 160, 1000]) {
    const s = { x: 16, y: 16 }, f = new FieldFollower(s, field, { speed, box: 12 });
    let n = 0;
    while (n < 600 && f.update(1000 / 60)) n++;
    assert.ok(n < 600 && f.arrived, `speed ${speed}: still moving after ${n} frames, at (${s.x}, ${s.y})`);
    assert.ok(Math.hypot(s.x - 208, s.y - 48) <= 1, `speed ${speed}: stopped at (${s.x}, ${s.y})`);
    const at = { x: s.x, y: s.y };
    for (let i = 0; i < 60; i++) assert.equal(f.update(1000 / 60), false);
    assert.deepEqual({ x: s.x, y: s.y }, at, `speed ${speed}: moved after arriving`);
    assert.ok(f.arrived);
  }
  // a wider arrive radius stops earlier; a follower on a cell with no way to a goal is not
  // "arrived"
  const s = { x: 16, y: 16 }, f = new FieldFollower(s, field, { speed: 100, box: 12, arriveRadius: 12 });
  while (f.update(1000 / 60));
  assert.ok(Math.hypot(s.x - 208, s.y - 48) <= 12 && Math.hypot(s.x - 208, s.y - 48) > 6, `arriveRadius 12: at (${s.x}, ${s.y})`);
  map.set(0, 0, 1);
  field.update();
  const w = { x: 16, y: 16 }, g = new FieldFollower(w, field);
  assert.equal(g.update(16), false);
  assert.equal(g.arrived, false);
  field.free();
  map.free();
});

// A tilemap shaped like Phaser's (the parts PhaserNav reads): rows of text, "#" a colliding
// tile (index 1), "." floor (index 0).
function fakeTilemap(rows, T = 32) {
  const data = rows.map((r, y) => [...r].map((ch, x) => ({ index: ch === "#" ? 1 : 0, collides: ch === "#", properties: {}, x, y })));
  return { width: rows[0].length, height: rows.length, tileWidth: T, tileHeight: T, layers: [{ name: "ground", data, tilemapLayer: null }] };
}

const REVIEW_MAP = [
  "....................",
  "....................",
  "######.....#########",
  "......#............#",
  "......#..######....#",
  "...........#.......#",
  "...........#.......#",
  "####..######.......#",
  "....................",
  "....................",
];

test("FieldFollower on a size-2 field (nav.flowField(goal, {size: 2})): 2 x 2 units read it at their top-left cell and arrive", () => {
  const nav = new PhaserNav(fakeTilemap(REVIEW_MAP)), goal = { x: 17, y: 8 };
  const field = nav.flowField(goal, { size: 2 });
  for (const s of [{ x: 0, y: 0 }, { x: 0, y: 8 }, { x: 8, y: 5 }, { x: 3, y: 3 }]) {
    if (!nav.map.fits(s.x, s.y, 2)) continue;
    const p = nav.cellToWorld(s.x, s.y, 2);
    assert.deepEqual(p, { x: (s.x + 1) * 32, y: (s.y + 1) * 32 });
    assert.deepEqual(nav.worldToCell(p.x, p.y, 2), s);
    const f = new FieldFollower(p, field, { speed: 100, box: 56 });
    let n = 0;
    while (n < 3000 && f.update(16)) {
      n++;
      assert.ok(!overlapsWall(nav.map, p.x, p.y, 56), `from (${s.x}, ${s.y}): inside a wall at (${p.x}, ${p.y})`);
    }
    assert.ok(f.arrived, `from (${s.x}, ${s.y}): not arrived after ${n} frames, at (${p.x}, ${p.y})`);
    assert.deepEqual({ x: Math.round(p.x), y: Math.round(p.y) }, nav.cellToWorld(goal.x, goal.y, 2));
  }
  field.free();
  nav.destroy();
});

test("FieldFollower options: box, size (the field's, or the old name of box with a warning), arriveRadius", () => {
  const map = TileMap.fromText(["........", "........", "........"], { tileSize: 32 });
  const f1 = new FlowField(map).build({ x: 6, y: 1 }), f2 = new FlowField(map, { size: 2 }).build({ x: 6, y: 0 });
  const p = { x: 16, y: 16 };
  assert.equal(new FieldFollower(p, f1).box, 16); // half a tile
  assert.equal(new FieldFollower(p, f2).box, 48); // 1.5 tiles
  assert.equal(new FieldFollower(p, f2).size, 2);
  assert.equal(new FieldFollower(p, f2, { size: 2 }).box, 48); // size: the unit's, = the field's
  assert.equal(new FieldFollower(p, f1, { size: 1, box: 20 }).box, 20);
  // the old meaning of size (a box in pixels), one warning
  const warnings = [], warn = console.warn;
  console.warn = (m) => warnings.push(String(m));
  try {
    assert.equal(new FieldFollower(p, f1, { size: 12 }).box, 12);
    assert.equal(new FieldFollower(p, f1, { size: 24 }).box, 24);
  } finally { console.warn = warn; }
  assert.ok(warnings.length <= 1 && (warnings.length === 0 || /use \{ box: 12 \}/.test(warnings[0])), JSON.stringify(warnings));
  for (const [o, re] of [
    [{ box: 0 }, /box must be more than 0 and at most 32 pixels for a size 1 unit on 32 x 32 tiles \(at most a tile\), got 0/],
    [{ box: 33 }, /box must be more than 0 and at most 32 pixels/], [{ box: "20" }, /box must be .*got "20"/],
    [{ size: 2, box: 12 }, /size is the unit's size in cells and must be the field's \(1\)/],
    [{ size: "2" }, /must be the field's/],
  ]) assert.throws(() => new FieldFollower(p, f1, o), re, JSON.stringify(o));
  assert.throws(() => new FieldFollower(p, f2, { box: 31 }), /box must be from 32 to 64 pixels for a size 2 unit/);
  f1.free(); f2.free(); map.free();
});

test("PathFollower with size: a 2 x 2 unit walks PhaserNav.findPath's path, its footprint never on a wall", () => {
  const R = rng(11), T = 32;
  let runs = 0;
  for (let k = 0; k < 30; k++) {
    const n = 1 + (k % 3), W = 14 + Math.floor(R() * 14), H = 10 + Math.floor(R() * 10);
    const rows = Array.from({ length: H }, () => Array.from({ length: W }, () => (R() < 0.15 / n ? "#" : ".")).join(""));
    const nav = new PhaserNav(fakeTilemap(rows, T));
    const cell = () => ({ x: Math.floor(R() * W), y: Math.floor(R() * H) });
    for (let q = 0; q < 6; q++) {
      const a = cell(), b = cell();
      if (!nav.map.fits(a.x, a.y, n)) continue;
      const sprite = nav.cellToWorld(a.x, a.y, n), w = new PathFollower(sprite, nav, { size: n, speed: 300 });
      assert.deepEqual(w.cell, a);
      const path = nav.findPath(a, b, { size: n });
      assert.equal(w.moveTo(b), path.length > 0);
      assert.deepEqual(w.path, path);
      if (!path.length) continue;
      let i = 0;
      for (; i < 5000 && !w.done; i++) {
        w.update(1000 / 60);
        // the n x n footprint, a hair smaller
        assert.ok(!overlapsWall(nav.map, sprite.x, sprite.y, n * T - 0.01), `size ${n}: footprint on a wall at (${sprite.x}, ${sprite.y})`);
      }
      assert.deepEqual(w.cell, b);
      assert.deepEqual({ x: sprite.x, y: sprite.y }, nav.cellToWorld(b.x, b.y, n));
      runs++;
    }
    nav.destroy();
  }
  assert.ok(runs > 40, `only ${runs} runs`);
  const nav = new PhaserNav(fakeTilemap(["...."]));
  assert.throws(() => new PathFollower({ x: 0, y: 0 }, nav, { size: 0 }), /PathFollower: size must be an integer from 1 to 255/);
  assert.throws(() => nav.worldToCell(0, 0, 1.5), /PhaserNav.worldToCell: size must be/);
  nav.destroy();
});

test("bad arguments: a TypeError or TilenavError naming them, not a raw JavaScript error or a follower that never moves", () => {
  const typeErr = (re) => (e) => e instanceof TypeError && e.message.startsWith("tilenav/phaser: ") && re.test(e.message);
  const says = (re) => (e) => e instanceof TilenavError && e.status === -1 && re.test(e.message);
  for (const tm of [{}, null, "map", { width: 4, height: 1, tileWidth: 32, tileHeight: 32 }])
    assert.throws(() => new PhaserNav(tm), typeErr(/PhaserNav: tilemap must be a Phaser Tilemap \(integer width, height, tileWidth, tileHeight and an array of layers\), got/), String(tm));
  const tilemap = fakeTilemap(["....", "...."]);
  assert.throws(() => new PhaserNav(tilemap, { layers: "ground" }), typeErr(/PhaserNav: layers must be an array/));
  assert.throws(() => new PhaserNav(tilemap, { cost: 2 }), typeErr(/PhaserNav: cost must be a function/));
  assert.throws(() => new PhaserNav(tilemap, null), typeErr(/PhaserNav: options must be an object, got null/));
  const nav = new PhaserNav(tilemap), s = { x: 16, y: 16 };
  for (const speed of [-5, 0, NaN, "fast", Infinity])
    assert.throws(() => new PathFollower(s, nav, { speed }), says(/PathFollower: speed must be a finite number > 0 \(pixels per second\), got/), String(speed));
  assert.throws(() => new PathFollower(s, {}), typeErr(/PathFollower: nav must be a PhaserNav, got \{\}/));
  const field = nav.flowField({ x: 3, y: 1 });
  assert.throws(() => new FieldFollower(s, {}), typeErr(/FieldFollower: field must be a FlowField, got \{\}/));
  assert.throws(() => new FieldFollower(s, field, { speed: -1 }), says(/FieldFollower: speed must be a finite number > 0/));
  assert.throws(() => new FieldFollower(s, field, { arriveRadius: 0 }), says(/FieldFollower: arriveRadius must be a finite number > 0 \(pixels\), got 0/));
  // the cells' checks are the map's: a PhaserNav reads no cell 2^32 + 1 as cell 1
  assert.equal(nav.passable(2 ** 32 + 1, 0), false);
  assert.throws(() => nav.passable(0.5, 0), says(/TileMap.passable: a cell coordinate must be an integer, got x = 0.5/));
  const w = new PathFollower(s, nav, { speed: 1000 });
  assert.equal(w.moveTo({ x: 3, y: 1 }), true);
  w.update(1000);
  assert.equal(w.status, "arrived");
  // misspelt options are named, not ignored (an option set to undefined counts as absent)
  assert.throws(() => new PhaserNav(tilemap, { autosync: false }), typeErr(/PhaserNav: unknown option "autosync" \(known: layers, blocked, cost, autoSync\)/));
  assert.throws(() => new PhaserNav(tilemap, { autoSync: "no" }), typeErr(/PhaserNav: autoSync must be true or false, got "no"/));
  assert.throws(() => new PathFollower(s, nav, { sped: 5 }), typeErr(/PathFollower: unknown option "sped"/));
  assert.throws(() => new PathFollower(s, nav, { diagonal: "nocut" }), says(/PathFollower: diagonal must be "no-cut", "never", "one" or "always", got "nocut"/));
  assert.throws(() => new FieldFollower(s, field, { sped: 5 }), typeErr(/FieldFollower: unknown option "sped" \(known: speed, box, size, arriveRadius\)/));
  assert.doesNotThrow(() => new PathFollower(s, nav, { speed: undefined, diagonal: undefined }));
  // the sprite: finite x and y, checked when the follower is made (not at its first update)
  for (const bad of [null, undefined, {}, { x: 1 }, { x: NaN, y: 0 }, { x: "1", y: 2 }]) {
    assert.throws(() => new PathFollower(bad, nav), typeErr(/PathFollower: sprite must be an object with finite numbers x and y \(world pixels\), got/), String(bad));
    assert.throws(() => new FieldFollower(bad, field), typeErr(/FieldFollower: sprite must be an object with finite numbers x and y/), String(bad));
  }
  // update()'s deltaMs: a finite number >= 0; a negative one moved the sprite backwards
  const back = nav.cellToWorld(0, 1), ff = new FieldFollower(back, field), pf = new PathFollower({ ...back }, nav);
  pf.moveTo({ x: 3, y: 1 });
  for (const d of [-100, NaN, Infinity, "16", undefined]) {
    assert.throws(() => ff.update(d), typeErr(/FieldFollower.update: deltaMs must be a finite number of milliseconds >= 0, got/), String(d));
    assert.throws(() => pf.update(d), typeErr(/PathFollower.update: deltaMs must be a finite number of milliseconds >= 0/), String(d));
  }
  assert.deepEqual(back, nav.cellToWorld(0, 1));
  assert.equal(ff.update(0), true);
  field.free(); nav.destroy();
});

test("PhaserNav cost(): Infinity, 0 or negative blocks the cell in silence; NaN or a non-number blocks it with one warning", () => {
  const { tilemap } = fakePhaser(4, 1, 32, { indexAt: (x) => x });
  const warnings = [], warn = console.warn;
  console.warn = (m) => warnings.push(String(m));
  let nav;
  try {
    nav = new PhaserNav(tilemap, { blocked: () => false, cost: (t) => [1, Infinity, -1, 0][t.index] });
    assert.deepEqual([0, 1, 2, 3].map((x) => nav.passable(x, 0)), [true, false, false, false]);
    assert.equal(warnings.length, 0, JSON.stringify(warnings));
    nav.destroy();
    nav = new PhaserNav(tilemap, { blocked: () => false, cost: (t) => [2, NaN, undefined, "3"][t.index] });
    assert.deepEqual([0, 1, 2, 3].map((x) => nav.passable(x, 0)), [true, false, false, false]);
    assert.equal(nav.map.cost(0, 0), 2);
  } finally { console.warn = warn; nav?.destroy(); }
  // one warning per module (no other test here returns a non-number)
  assert.equal(warnings.length, 1, JSON.stringify(warnings));
  assert.match(warnings[0], /cost\(tile\) returned NaN for the tile of index 1 at \(1, 0\), not a number: the cell is blocked/);
});

// A stand-in for a Phaser Tilemap with one TilemapLayer, whose editing methods follow Phaser's
// signatures and clip as Phaser does (the real ones run in web/test/phaser.mjs); createLayer,
// createBlankLayer and destroyLayer as Phaser's (a LayerData per layer in tilemap.layers, its
// TilemapLayer made by createLayer). Collision as in Phaser 3.90's src/tilemaps/components:
// setCollision registers indexes (layer.collideIndexes) and sets the tiles of those indexes;
// setCollisionByProperty sets the tiles whose own `properties` match and registers nothing;
// putTileAt changes an existing tile's index only (its `properties` stay the replaced tile's; a
// new Tile has {}), and its `collides` is whether the new index is registered. `tileProps`:
// the tileset's Tiled properties per tile index (Tileset.tileProperties, firstgid 0), copied
// into the tiles of the initial layer as Phaser's parser does (AssignTileProperties); `indexAt`
// (x, y) the initial layer's indexes (default 0).
function fakePhaser(W, H, T = 32, { tileProps = {}, indexAt = () => 0 } = {}) {
  const tileset = { name: "tiles", firstgid: 0, tileProperties: tileProps, getTileProperties(i) { return this.tileProperties[i - this.firstgid]; } };
  const tile = (d, x, y, index) => ({
    index, collides: false, properties: {}, x, y, layer: d,
    get tileset() { return this.layer.tilemapLayer?.gidMap[this.index] ?? null; }, // as Phaser's Tile
  });
  const layers = [];
  const newData = (name, index) => {
    const d = { name, width: W, height: H, tilemapLayer: null, collideIndexes: [] };
    d.data = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => tile(d, x, y, index)));
    return d;
  };
  const makeLayer = (d) => {
    const data = d.data;
    const put = (index, x, y) => {
      if (!(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < W && y < H)) return null;
      if (data[y][x] === null) data[y][x] = tile(d, x, y, index);
      else data[y][x].index = index; // Phaser's PutTileAt: the index only
      data[y][x].collides = d.collideIndexes.includes(index);
      return data[y][x];
    };
    const within = (x = 0, y = 0, w = W, h = H, f) => {
      for (let j = Math.max(0, y); j < Math.min(H, y + h); j++) for (let i = Math.max(0, x); i < Math.min(W, x + w); i++) f(i, j);
    };
    const layer = {
      layer: d, x: 0, y: 0, gidMap: new Proxy({}, { get: (_, k) => (Number(k) >= 0 ? tileset : undefined) }),
      putTileAt: (index, x, y) => put(index, x, y),
      putTileAtWorldXY: (index, wx, wy) => put(index, Math.floor(wx / T), Math.floor(wy / T)),
      removeTileAt: (x, y) => { const old = data[y]?.[x] ?? null; if (old) data[y][x] = null; return old; }, // replaceWithNull
      putTilesAt: (rows, x, y) => { rows.forEach((r, j) => r.forEach((index, i) => put(index, x + i, y + j))); },
      fill: (index, x, y, w, h) => within(x, y, w, h, (i, j) => put(index, i, j)),
      setCollision: (indexes, on = true) => {
        for (const k of [indexes].flat()) {
          const at = d.collideIndexes.indexOf(k);
          if (on && at < 0) d.collideIndexes.push(k); else if (!on && at >= 0) d.collideIndexes.splice(at, 1);
        }
        within(0, 0, W, H, (i, j) => { const t = data[j][i]; if (t && [indexes].flat().includes(t.index)) t.collides = on; });
      },
      setCollisionByProperty: (props, on = true) => {
        within(0, 0, W, H, (i, j) => {
          const t = data[j][i];
          if (t) for (const [k, v] of Object.entries(props)) if (k in t.properties && [v].flat().includes(t.properties[k])) t.collides = on;
        });
      },
    };
    d.tilemapLayer = layer;
    return layer;
  };
  layers.push(newData("ground", 0));
  for (const row of layers[0].data) for (const t of row) {
    t.index = indexAt(t.x, t.y);
    if (tileProps[t.index]) t.properties = { ...t.properties, ...tileProps[t.index] }; // AssignTileProperties
  }
  const layer = makeLayer(layers[0]);
  const tilemap = {
    width: W, height: H, tileWidth: T, tileHeight: T, layers,
    fill: (index, x, y, w, h) => layer.fill(index, x, y, w, h),
    createLayer: (name) => { const d = layers.find((l) => l.name === name); return d ? makeLayer(d) : null; },
    createBlankLayer: (name) => { const d = newData(name, -1); layers.push(d); return makeLayer(d); },
    destroyLayer: (name) => { const k = layers.findIndex((l) => l.name === name); if (k >= 0) layers.splice(k, 1); },
  };
  return { tilemap, layer, data: layers[0].data, newData };
}

test("PhaserNav: the README's setCollisionByProperty({ collides: true }) then putTileAt(WALL): the new wall blocks (Phaser leaves its collides false)", () => {
  const FLOOR = 0, WALL = 1, MUD = 2;
  const { tilemap, layer, data } = fakePhaser(12, 8, 32, {
    tileProps: { [WALL]: { collides: true }, [MUD]: { cost: 3 } },
    indexAt: (x, y) => (x === 6 && y < 6 ? WALL : FLOOR),
  });
  layer.setCollisionByProperty({ collides: true });
  assert.equal(data[0][6].collides, true);
  const nav = new PhaserNav(tilemap);
  assert.equal(nav.passable(6, 0), false);
  assert.equal(nav.passable(5, 5), true);
  layer.putTileAt(WALL, 5, 5);
  assert.equal(data[5][5].collides, false); // Phaser's putTileAt: WALL is no registered index
  assert.equal(nav.passable(5, 5), false, "the wall put by putTileAt blocks in tilenav");
  // a wall of the map replaced by floor: its tile keeps properties.collides (Phaser changes
  // only the index) but no longer collides, and no longer blocks
  layer.putTileAt(FLOOR, 6, 2);
  assert.deepEqual([data[2][6].collides, data[2][6].properties.collides], [false, true]);
  assert.equal(nav.passable(6, 2), true);
  // removeTileAt, fill: the same rule
  layer.fill(WALL, 0, 7, 3, 1);
  assert.deepEqual([0, 1, 2].map((x) => nav.passable(x, 7)), [false, false, false]);
  layer.removeTileAt(1, 7);
  assert.equal(nav.passable(1, 7), true);
  // the rule is tileProperties(tile).collides === true: the kind's Tiled properties
  assert.deepEqual(tileProperties(data[2][6]), {});
  assert.deepEqual(tileProperties(data[5][5]), { collides: true });
  assert.equal(collidesProperty(data[5][5]), true);
  // a tile with no tileset (a LayerData with no TilemapLayer): its own properties
  assert.deepEqual(tileProperties({ index: 1, collides: false, properties: { collides: true } }), { collides: true });
  // the whole map agrees with a fresh read
  const fresh = new PhaserNav(tilemap, { autoSync: false });
  for (let y = 0; y < 8; y++) for (let x = 0; x < 12; x++) assert.equal(nav.passable(x, y), fresh.passable(x, y), `(${x}, ${y})`);
  fresh.destroy();
  // `blocked` replaces the property rule (tile.collides always blocks): Phaser's view only
  const phaserOnly = new PhaserNav(tilemap, { autoSync: false, blocked: () => false });
  assert.equal(phaserOnly.passable(5, 5), true);
  assert.equal(phaserOnly.passable(6, 0), false);
  phaserOnly.destroy();
  nav.destroy();
});

test("PhaserNav: wrapped edits re-read only the rectangle they touch, written as one map change", () => {
  const { tilemap, layer, data } = fakePhaser(64, 64);
  layer.setCollision([1]);
  const nav = new PhaserNav(tilemap), field = nav.flowField({ x: 63, y: 63 });
  const agree = () => {
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++)
      assert.equal(nav.passable(x, y), !(data[y][x]?.index >= 0 && data[y][x].collides), `cell (${x}, ${y})`);
  };
  const changes = (f) => { const r = nav.revision; f(); return nav.revision - r; };
  assert.equal(changes(() => layer.fill(1, 10, 10, 10, 10)), 1); // 100 cells, one change
  agree();
  // nav.flowField()'s field was updated by the edit; a field of nav.map made directly is not
  assert.equal(field.current, true);
  assert.equal(field.update(), 0);
  const own = new FlowField(nav.map).build({ x: 63, y: 63 });
  layer.fill(0, 10, 10, 10, 10);
  assert.equal(own.current, false);
  const touched = own.update();
  assert.ok(touched > 0 && touched < 64 * 64 / 4, `a 10 x 10 fill: ${touched} cells recomputed`);
  assert.deepEqual(Array.from(field.distances()), Array.from(own.distances()));
  own.free();
  layer.fill(1, 10, 10, 10, 10);
  assert.equal(changes(() => tilemap.fill(0, 8, 8, 6, 6)), 1);
  assert.equal(changes(() => layer.fill(1, -3, -3, 5, 5)), 1); // clipped to the map, as Phaser
  assert.equal(changes(() => layer.putTileAt(1, 40, 40)), 1);
  assert.equal(changes(() => layer.putTileAtWorldXY(1, 41 * 32 + 3, 40 * 32 + 3)), 1);
  assert.equal(changes(() => layer.removeTileAt(40, 40)), 1);
  assert.equal(changes(() => layer.putTilesAt([[1, 0], [0, 1]], 50, 50)), 1); // mixed values: one change too (tn_map_set_rect)
  assert.equal(changes(() => layer.putTilesAt([[1, 1], [1, 1]], 50, 50)), 1);
  assert.equal(changes(() => layer.putTileAt(1, 40.5, 2)), 0); // nothing placed, nothing changed
  assert.equal(changes(() => layer.fill(1, 14, 14, 6, 6)), 0); // nothing new
  agree();
  // the whole map only for collision settings, which change tiles anywhere
  assert.equal(changes(() => layer.setCollision([1], false)), 1);
  agree();
  layer.setCollision([1]);
  agree();
  // the wrapping reads only the touched rectangle: an edit behind its back elsewhere stays
  // unseen until sync()/syncAll()
  data[0][60] = { index: 1, collides: true, properties: {}, x: 60, y: 0 };
  layer.fill(1, 30, 30, 2, 2);
  assert.equal(nav.passable(60, 0), true);
  assert.equal(nav.sync(60, 0), 1);
  assert.equal(nav.passable(60, 0), false);
  assert.equal(nav.syncAll(), 0);
  field.update();
  const fresh = nav.flowField({ x: 63, y: 63 });
  assert.deepEqual(Array.from(field.distances()), Array.from(fresh.distances()));
  fresh.free(); field.free();
  nav.destroy();
});

test("PhaserNav: a layer placed away from (0, 0): worldToCell, cellToWorld and the followers take its position off", () => {
  const tm = fakeTilemap(REVIEW_MAP);
  const shown = { x: 100, y: 50, scaleX: 1, scaleY: 1, scrollFactorX: 1, scrollFactorY: 1 };
  tm.layers[0].tilemapLayer = shown; // createLayer(0, tiles, 100, 50)
  const nav = new PhaserNav(tm, { autoSync: false });
  assert.deepEqual(nav.origin, { x: 100, y: 50 });
  assert.deepEqual(nav.worldToCell(100 + 40, 50 + 40), { x: 1, y: 1 }); // Phaser's worldToTileXY
  assert.equal(nav.worldToCell(90, 60), null);
  assert.deepEqual(nav.cellToWorld(1, 1), { x: 148, y: 98 });
  assert.deepEqual(nav.cellToWorld(1, 1, 2), { x: 164, y: 114 });
  assert.deepEqual(nav.worldToCell(164, 114, 2), { x: 1, y: 1 });
  // a path follower walks between world centres
  const hero = nav.cellToWorld(0, 0), walker = new PathFollower(hero, nav, { speed: 500 });
  assert.ok(walker.moveTo({ x: 17, y: 8 }));
  for (let i = 0; i < 2000 && !walker.done; i++) {
    walker.update(16);
    assert.ok(!overlapsWall(nav.map, hero.x - 100, hero.y - 50, 31.99), `hero on a wall at (${hero.x}, ${hero.y})`);
  }
  assert.deepEqual(hero, nav.cellToWorld(17, 8));
  // a field follower on a field of the nav's map: the box is checked in map pixels
  for (const size of [1, 2]) {
    const field = nav.flowField({ x: 17, y: 8 }, { size }), creep = nav.cellToWorld(0, 0, size);
    const f = new FieldFollower(creep, field, { speed: 120 });
    let n = 0;
    while (n++ < 3000 && f.update(16))
      assert.ok(!overlapsWall(nav.map, creep.x - 100, creep.y - 50, f.box), `size ${size}: creep on a wall at (${creep.x}, ${creep.y})`);
    assert.ok(f.arrived, `size ${size}: not arrived, at (${creep.x}, ${creep.y})`);
    const goal = nav.cellToWorld(17, 8, size);
    assert.ok(Math.hypot(creep.x - goal.x, creep.y - goal.y) <= 1);
    field.free();
  }
  // the layer moves: followed
  shown.x = 0;
  assert.deepEqual(nav.worldToCell(40, 90), { x: 1, y: 1 });
  nav.destroy();
  // layers at different positions, or scaled: a warning, once
  const two = fakeTilemap(REVIEW_MAP);
  two.layers.push({ name: "top", data: two.layers[0].data, tilemapLayer: { x: 32, y: 0 } });
  two.layers[0].tilemapLayer = { x: 0, y: 0 };
  const warnings = [], warn = console.warn;
  console.warn = (m) => warnings.push(String(m));
  try {
    const nav2 = new PhaserNav(two, { autoSync: false });
    nav2.worldToCell(5, 5); nav2.cellToWorld(1, 1);
    nav2.destroy();
  } finally { console.warn = warn; }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /layers at different positions/);
});

test("PathFollower: status, arrived and failed tell arrival from a failed re-plan", () => {
  const { tilemap, layer } = fakePhaser(12, 6);
  layer.setCollision([1]);
  const nav = new PhaserNav(tilemap), hero = nav.cellToWorld(1, 1), w = new PathFollower(hero, nav, { speed: 200 });
  assert.deepEqual([w.status, w.done, w.arrived, w.failed], ["idle", true, false, false]);
  assert.equal(w.moveTo({ x: 10, y: 4 }), true);
  assert.deepEqual([w.status, w.done], ["moving", false]);
  for (let i = 0; i < 500 && !w.done; i++) w.update(16);
  assert.deepEqual([w.status, w.arrived, w.failed, w.done], ["arrived", true, false, true]);
  assert.deepEqual(hero, nav.cellToWorld(10, 4));
  // no way: moveTo() false, failed
  layer.fill(1, 5, 0, 1, 6);
  assert.equal(w.moveTo({ x: 1, y: 1 }), false);
  assert.deepEqual([w.status, w.arrived, w.failed, w.done], ["failed", false, true, true]);
  // the wall opens: it re-plans at the map's change and goes on
  layer.fill(0, 5, 0, 1, 6);
  w.update(16);
  assert.equal(w.status, "moving");
  // a wall dropped on the hero on its way: failed (not arrived), it stays put
  for (let i = 0; i < 20; i++) w.update(16);
  const c = w.cell;
  layer.fill(1, c.x - 1, c.y - 1, 3, 3);
  const at = { ...hero };
  w.update(16);
  assert.deepEqual([w.status, w.arrived, w.failed, w.done], ["failed", false, true, true]);
  for (let i = 0; i < 10; i++) w.update(16);
  assert.deepEqual(hero, at);
  // moveTo its own cell, off its centre: goes to the centre, then arrived
  layer.fill(0, 0, 0, 12, 6);
  const own = nav.cellToWorld(2, 2);
  hero.x = own.x + 7; hero.y = own.y - 5;
  assert.equal(w.moveTo(w.cell), true);
  assert.equal(w.status, "moving");
  for (let i = 0; i < 50 && !w.done; i++) w.update(16);
  assert.equal(w.status, "arrived");
  assert.deepEqual(hero, own);
  nav.destroy();
});

test("PhaserNav: layers made after it are followed (createLayer, createBlankLayer); destroyed ones are no longer read", () => {
  const { tilemap, layer, newData } = fakePhaser(10, 4);
  layer.setCollision([1]);
  const late = newData("late", -1); // a LayerData of the map with no TilemapLayer yet
  tilemap.layers.push(late);
  const nav = new PhaserNav(tilemap), named = new PhaserNav(tilemap, { layers: ["ground"], autoSync: false });
  // createLayer: the new TilemapLayer's edits are wrapped
  const l2 = tilemap.createLayer("late");
  l2.setCollision([1]);
  l2.putTileAt(1, 3, 1);
  assert.equal(nav.passable(3, 1), false);
  // createBlankLayer: a new LayerData, read (no `layers` named) and wrapped
  const l3 = tilemap.createBlankLayer("blank");
  l3.setCollision([1]);
  assert.equal(nav.passable(6, 2), true);
  l3.fill(1, 6, 2, 2, 1);
  assert.equal(nav.passable(6, 2), false);
  assert.equal(nav.passable(7, 2), false);
  // a PhaserNav with named layers does not read the new one
  assert.equal(named.syncAll(), 0);
  assert.equal(named.passable(6, 2), true);
  // destroyLayer: its tiles no longer block
  tilemap.destroyLayer("blank");
  assert.equal(nav.passable(6, 2), true);
  nav.destroy(); named.destroy();
  assert.ok(!String(tilemap.createLayer).includes("_adopt"), "destroy() unwraps createLayer");
});

test("PhaserNav keeps nav.flowField()'s fields current at each synced edit; a FieldFollower updates a stale field itself", () => {
  // a wall across the map at x = 8 with a gap at (8, 1); the goal on the right
  const { tilemap, layer } = fakePhaser(16, 10, 32, { indexAt: (x, y) => (x === 8 && y !== 1 && y !== 9 ? 1 : 0) });
  layer.setCollision([1]);
  const nav = new PhaserNav(tilemap), goal = { x: 14, y: 1 };
  const field = nav.flowField(goal); // kept current by the nav
  const own = new FlowField(nav.map).build(goal); // made directly: its FieldFollower updates it
  const creeps = [field, own].map((f) => {
    const s = nav.cellToWorld(2, 1);
    return { s, f: new FieldFollower(s, f, { speed: 200 }) };
  });
  for (let i = 0; i < 10; i++) for (const c of creeps) c.f.update(16);
  layer.putTileAt(1, 8, 1); // close the gap: the way round is by (8, 9)
  assert.equal(field.current, true, "the nav updated its field at the edit");
  assert.doesNotThrow(() => field.pathFrom({ x: 2, y: 1 }));
  assert.equal(field.pathFrom({ x: 2, y: 1 }).path.some((c) => c.y === 9), true);
  assert.equal(own.current, false);
  for (const [k, c] of creeps.entries()) {
    let n = 0;
    while (n < 3000 && c.f.update(16)) n++;
    assert.ok(c.f.arrived, `creep ${k}: stuck at (${c.s.x.toFixed(1)}, ${c.s.y.toFixed(1)}) after ${n} frames`);
  }
  assert.equal(own.current, true);
  // a freed field is dropped, not updated
  field.free();
  assert.doesNotThrow(() => layer.putTileAt(0, 8, 1));
  own.free();
  nav.destroy();
});

test("after nav.destroy(): PathFollower status \"destroyed\", followers' update() does nothing, calls throw \"PhaserNav used after destroy()\"", () => {
  const { tilemap, layer } = fakePhaser(8, 6);
  layer.setCollision([1]);
  const nav = new PhaserNav(tilemap), field = nav.flowField({ x: 7, y: 0 });
  const hero = nav.cellToWorld(0, 0), creep = nav.cellToWorld(0, 5);
  const walker = new PathFollower(hero, nav), follower = new FieldFollower(creep, field);
  assert.equal(walker.moveTo({ x: 7, y: 5 }), true);
  walker.update(16); follower.update(16);
  assert.equal(walker.status, "moving");
  const at = { ...hero }, cat = { ...creep };
  nav.destroy();
  assert.equal(nav.destroyed, true);
  assert.deepEqual([walker.status, walker.done, walker.arrived, walker.failed], ["destroyed", true, false, false]);
  walker.update(16);
  assert.deepEqual(hero, at);
  assert.equal(follower.destroyed, true);
  assert.equal(follower.update(16), false);
  assert.deepEqual(creep, cat);
  const gone = (what) => (e) => e instanceof TilenavError && e.status === -15 && e.message === `tilenav/phaser: PhaserNav used after destroy() (${what}): state`;
  assert.throws(() => walker.moveTo({ x: 1, y: 1 }), gone("PathFollower.moveTo"));
  assert.throws(() => nav.findPath({ x: 0, y: 0 }, { x: 1, y: 1 }), gone("PhaserNav.findPath"));
  assert.throws(() => nav.flowField({ x: 1, y: 1 }), gone("PhaserNav.flowField"));
  assert.throws(() => nav.passable(0, 0), gone("PhaserNav.passable"));
  assert.throws(() => nav.worldToCell(0, 0), gone("PhaserNav.worldToCell"));
  assert.throws(() => nav.syncAll(), gone("PhaserNav.syncRect"));
  assert.throws(() => walker.cell, /PhaserNav used after destroy\(\)/);
  // the nav's fields were freed with it (before its map); freeing again, destroying again: no-ops
  assert.throws(() => field.distance(0, 0), /FlowField used after free\(\)/);
  field.free();
  nav.destroy();
  // the wrapping is undone: Phaser's edits go on without the nav
  assert.doesNotThrow(() => layer.putTileAt(1, 3, 3));
});

test("types: tsc --strict accepts blocked/cost callbacks annotated with Phaser's Tile, and unannotated ones see tile.x, tile.layer (test/app/phaser-typed.ts)", (t) => {
  const web = new URL("..", import.meta.url).pathname, tsc = `${web}node_modules/typescript/bin/tsc`;
  if (!existsSync(tsc) || !existsSync(`${web}node_modules/phaser/types/phaser.d.ts`)) return t.skip("typescript or phaser not in web/node_modules (npm ci in web/)");
  try {
    execFileSync(process.execPath, [tsc, "-p", `${web}test/app/tsconfig.phaser.json`], { encoding: "utf8" });
  } catch (e) { assert.fail(`tsc --strict on test/app/phaser-typed.ts:\n${e.stdout}${e.stderr}`); }
});

test("nav fields: a wall on a goal never throws out of the edit; the field keeps the open goals", () => {
  const rows = Array.from({ length: 10 }, () => ".".repeat(12));
  const tm = fakeTilemap(rows), nav = new PhaserNav(tm);
  const a = { x: 0, y: 9 }, b = { x: 11, y: 0 };
  const f1 = nav.flowField([a, b]), f2 = nav.flowField(b);
  const put = (c, wall) => {
    Object.assign(tm.layers[0].data[c.y][c.x], { index: wall ? 1 : 0, collides: wall });
    nav.sync(c.x, c.y); // the edit a wrapped putTileAt makes
  };
  const sameAsFresh = (f, goals) => {
    const ref = new FlowField(nav.map).build(goals);
    assert.deepEqual(f.distances(), ref.distances());
    ref.free();
  };
  put(a, true); // a tower on one of f1's exits
  assert.deepEqual(f1.goals, [b]);
  assert.ok(f1.current && f2.current);
  sameAsFresh(f1, [b]);
  put({ x: 5, y: 5 }, true); // later edits go on as usual
  assert.ok(f1.current && f2.current);
  put(b, true); // every exit covered: no throw; the fields stay as they were, followers stop
  assert.equal(f2.current, false);
  const follower = new FieldFollower(nav.cellToWorld(6, 6), f2, { speed: 100 });
  assert.equal(follower.update(16), false);
  put(a, false); // an exit opens again: f1 goes to it
  assert.deepEqual(f1.goals, [a]);
  sameAsFresh(f1, [a]);
  put(b, false);
  assert.deepEqual(f1.goals, [a, b]);
  sameAsFresh(f1, [a, b]);
  assert.ok(f2.current);
  assert.equal(follower.update(16), true);
  nav.destroy();
});
