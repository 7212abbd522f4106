// Unit tests of tilenav/phaser in Node (node --test), on plain objects shaped like Phaser's
// tilemaps and sprites (the adapter never imports Phaser): followers on random maps, the
// wrapped edits. The Phaser example in Chromium is web/test/phaser.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { init, TileMap, FlowField } from "../pkg/tilenav.mjs";
import { FieldFollower } from "../pkg/adapters/phaser.mjs";

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
    const s = { x: 16, y: 16 }, f = new FieldFollower(s, field, { speed: 100, size: box });
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

test("FieldFollower: from random starts on random maps, boxes reach the goal and stop, never overlapping a wall", () => {
  const R = rng(7);
  let runs = 0;
  for (let k = 0; k < 80; k++) {
    const W = 12 + Math.floor(R() * 20), H = 8 + Math.floor(R() * 14), dens = 0.1 + R() * 0.3, T = 32;
    const cells = Array.from({ length: W * H }, () => (R() < dens ? 1 : 0));
    const map = new TileMap({ width: W, height: H, tileSize: T, cells });
    let goal;
    do goal = { x: Math.floor(R() * W), y: Math.floor(R() * H) }; while (!map.passable(goal.x, goal.y));
    const diagonal = R() < 0.5 ? "no-cut" : "never";
    const field = new FlowField(map, { diagonal }).build(goal);
    for (let s = 0; s < 15; s++) {
      let c, tries = 0;
      do c = { x: Math.floor(R() * W), y: Math.floor(R() * H) }; while (field.distance(c.x, c.y) === Infinity && ++tries < 1000);
      if (tries >= 1000) break;
      const box = [4, 12, 16, 24, 30][Math.floor(R() * 5)], speed = 40 + R() * 200;
      const p = map.center(c.x, c.y), f = new FieldFollower(p, field, { speed, size: box });
      // frames of 1/60 s, one in ten a hitch of 5..100 ms; at most twice the path's frames
      const d = field.distance(c.x, c.y), limit = Math.ceil((2 * d * T) / (speed / 60)) + 60;
      let n = 0, moving = true;
      for (; n < limit && moving; n++) {
        moving = f.update(R() < 0.1 ? 5 + R() * 95 : 1000 / 60);
        if (overlapsWall(map, p.x, p.y, box))
          assert.fail(`map ${k} (${W} x ${H}, ${diagonal}), start (${c.x}, ${c.y}), box ${box}: inside a wall at (${p.x}, ${p.y})`);
      }
      const g = map.center(goal.x, goal.y), off = Math.hypot(p.x - g.x, p.y - g.y);
      assert.ok(!moving && f.arrived && off <= 1, `map ${k} (${W} x ${H}, ${diagonal}), start (${c.x}, ${c.y}) -> goal (${goal.x}, ${goal.y}), box ${box}, speed ${speed.toFixed(0)}: at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}) after ${n} frames, update() ${moving}, arrived ${f.arrived}`);
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
    const s = { x: 16, y: 16 }, f = new FieldFollower(s, field, { speed, size: 12 });
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
  const s = { x: 16, y: 16 }, f = new FieldFollower(s, field, { speed: 100, size: 12, arriveRadius: 12 });
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
