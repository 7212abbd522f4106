// Unit tests of the JavaScript API (node --test): paths and fields against an independent
// Dijkstra written here, on handmade and seeded random grids, plus bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { init, TileMap, PathFinder, FlowField, Crowd, TilenavError } from "../pkg/tilenav.mjs";

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

const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];

// Reference: Dijkstra with an O(n) scan for the minimum (simple on purpose). cost(x, y) gives
// the cell's multiplier (Infinity = blocked); rule: "no-cut", "never", "one", "always".
// reverse: distances from every cell TO `start` (a step costs the multiplier of the cell it
// enters, so the two directions differ).
function dijkstra(w, h, cost, start, rule, reverse = false) {
  const n = w * h, dist = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  dist[start.y * w + start.x] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) return dist;
    done[best] = 1;
    const x = best % w, y = (best / w) | 0;
    for (const [dx, dy] of NEIGHBOURS) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || cost(nx, ny) === Infinity) continue;
      if (dx && dy) {
        if (rule === "never") continue;
        const a = cost(nx, y) !== Infinity, b = cost(x, ny) !== Infinity;
        if (rule === "no-cut" && !(a && b)) continue;
        if (rule === "one" && !(a || b)) continue;
      }
      const d = dist[best] + (dx && dy ? Math.SQRT2 : 1) * (reverse ? cost(x, y) : cost(nx, ny));
      if (d < dist[ny * w + nx]) dist[ny * w + nx] = d;
    }
  }
}

function legalSteps(path, cost, rule) {
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i], dx = b.x - a.x, dy = b.y - a.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1 || cost(b.x, b.y) === Infinity) return false;
    if (dx && dy) {
      const f1 = cost(b.x, a.y) !== Infinity, f2 = cost(a.x, b.y) !== Infinity;
      if (rule === "never" || (rule === "no-cut" && !(f1 && f2)) || (rule === "one" && !(f1 || f2))) return false;
    }
  }
  return true;
}

function pathCost(path, cost) {
  let c = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i];
    c += (a.x !== b.x && a.y !== b.y ? Math.SQRT2 : 1) * cost(b.x, b.y);
  }
  return c;
}

function randomMap(r, w, h, withCosts) {
  const cells = [];
  for (let i = 0; i < w * h; i++) {
    const u = r();
    cells.push(u < 0.25 ? 1 : withCosts && u < 0.45 ? 2 : withCosts && u < 0.55 ? 3 : 0);
  }
  const costs = withCosts ? { 0: 1, 1: Infinity, 2: 2.5, 3: 0.5 } : undefined;
  const table = withCosts ? costs : { 0: 1, 1: Infinity };
  return { map: new TileMap({ width: w, height: h, cells, costs }), cost: (x, y) => table[cells[y * w + x]] };
}

test("handmade maze: path, cost, blocked goal, unreachable goal", () => {
  const map = TileMap.fromText(["..#....", "..#.##.", "..#..#.", "....#..", "###.#.#"]);
  const pf = new PathFinder(map);
  const r = pf.find(map, { x: 0, y: 0 }, { x: 6, y: 0 });
  assert.equal(r.found, true);
  assert.deepEqual(r.path[0], { x: 0, y: 0 });
  assert.deepEqual(r.path.at(-1), { x: 6, y: 0 });
  const cost = (x, y) => (map.passable(x, y) ? 1 : Infinity);
  const ref = dijkstra(map.width, map.height, cost, { x: 0, y: 0 }, "no-cut");
  assert.ok(Math.abs(r.cost - ref[6]) < 1e-9, `${r.cost} vs ${ref[6]}`);
  assert.ok(legalSteps(r.path, cost, "no-cut"));
  assert.equal(pf.find(map, { x: 0, y: 0 }, { x: 2, y: 0 }).status, "goal blocked");
  const split = TileMap.fromText(["..#.", "..#.", "..#."]); // the right column is cut off
  const none = pf.find(split, { x: 0, y: 0 }, { x: 3, y: 1 });
  assert.equal(none.found, false);
  assert.equal(none.status, "no path");
  const closest = pf.find(split, { x: 0, y: 0 }, { x: 3, y: 1 }, { closest: true });
  assert.equal(closest.status, "closest");
  assert.deepEqual(closest.path.at(-1), { x: 1, y: 1 }); // nearest reachable cell to the goal
  split.free();
  pf.free();
  map.free();
});

for (const rule of ["no-cut", "never", "one", "always"]) {
  test(`random grids, rule ${rule}: A*, Dijkstra, JPS costs equal the reference Dijkstra`, () => {
    const r = rng(1234 + rule.length);
    const pf = new PathFinder({ maxCells: 64 });
    for (let round = 0; round < 40; round++) {
      const w = 5 + Math.floor(r() * 30), h = 5 + Math.floor(r() * 30), withCosts = round % 2 === 1;
      const { map, cost } = randomMap(r, w, h, withCosts);
      const open = [];
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (cost(x, y) !== Infinity) open.push({ x, y });
      if (open.length < 2) { map.free(); continue; }
      const s = open[Math.floor(r() * open.length)];
      const ref = dijkstra(w, h, cost, s, rule);
      for (let q = 0; q < 8; q++) {
        const g = open[Math.floor(r() * open.length)];
        const want = ref[g.y * w + g.x];
        for (const algo of ["astar", "dijkstra", "jps"]) {
          const res = pf.find(map, s, g, { algo, diagonal: rule });
          if (want === Infinity) {
            assert.equal(res.found, false, `${algo} found a path the reference says is impossible`);
            assert.equal(res.status, "no path");
            continue;
          }
          assert.equal(res.found, true, `${algo} round ${round}`);
          assert.deepEqual(res.path[0], s);
          assert.deepEqual(res.path.at(-1), g);
          assert.ok(legalSteps(res.path, cost, rule), `${algo} illegal step (${rule})`);
          const c = pathCost(res.path, cost);
          assert.ok(Math.abs(c - want) < 1e-6 * Math.max(1, want), `${algo} ${rule}: ${c} vs ${want}`);
          assert.ok(Math.abs(res.cost - want) < 1e-6 * Math.max(1, want));
        }
      }
      map.free();
    }
    pf.free();
  });
}

test("flow field distances equal the reference; following it costs the distance", () => {
  const r = rng(77);
  for (let round = 0; round < 20; round++) {
    const w = 6 + Math.floor(r() * 25), h = 6 + Math.floor(r() * 25);
    const { map, cost } = randomMap(r, w, h, round % 2 === 0);
    let goal = null;
    while (!goal) { const x = Math.floor(r() * w), y = Math.floor(r() * h); if (cost(x, y) !== Infinity) goal = { x, y }; }
    const field = new FlowField(map).build(goal);
    // distances TO the goal: entering costs depend on the cell entered, so compare per path
    const d = field.distances(), toGoal = dijkstra(w, h, cost, goal, "no-cut", true);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      if (cost(x, y) === Infinity) { assert.equal(d[y * w + x], Infinity); continue; }
      const ref = toGoal[y * w + x];
      if (x === goal.x + 1 && y === goal.y) // the reverse search agrees with a forward one
        assert.equal(ref, dijkstra(w, h, cost, { x, y }, "no-cut")[goal.y * w + goal.x]);
      if (ref === Infinity) { assert.equal(d[y * w + x], Infinity); continue; }
      assert.ok(Math.abs(d[y * w + x] - ref) < 1e-3 * Math.max(1, ref), `(${x},${y}) ${d[y * w + x]} vs ${ref}`);
      const p = field.pathFrom({ x, y });
      assert.ok(p.found && legalSteps(p.path, cost, "no-cut"));
      assert.ok(Math.abs(pathCost(p.path, cost) - ref) < 1e-3 * Math.max(1, ref));
    }
    field.free();
    map.free();
  }
});

test("incremental field update equals a fresh build; wall-off query", () => {
  const map = TileMap.fromText(["........", "........", "........", "........"]);
  const field = new FlowField(map).build({ x: 7, y: 0 });
  const spawn = [{ x: 0, y: 3 }];
  assert.equal(field.wouldWallOff([{ x: 3, y: 1 }, { x: 3, y: 2 }, { x: 3, y: 3 }], spawn), false);
  assert.equal(field.wouldWallOff([0, 1, 2, 3].map((y) => ({ x: 3, y })), spawn), true);
  for (const y of [0, 1, 2]) map.set(3, y, 1);
  assert.ok(field.update() > 0);
  const fresh = new FlowField(map).build({ x: 7, y: 0 });
  assert.deepEqual(field.distances(), fresh.distances());
  assert.deepEqual(field.directions(), fresh.directions());
  fresh.free();
  field.free();
  map.free();
});

test("crowd follows a field to the goal and never overlaps a wall", () => {
  const map = TileMap.fromText(["..........", ".########.", "..........", "#########.", ".........."]);
  const field = new FlowField(map, { lineOfSight: "exact" }).build({ x: 0, y: 4 });
  const crowd = new Crowd(map, { capacity: 16, seed: 3 });
  crowd.setFlow(0, field);
  for (let i = 0; i < 6; i++) crowd.add({ x: 16 + 40 * i, y: 16, target: "flow", flow: 0, radius: 5 });
  let worst = 0;
  for (let s = 0; s < 1200; s++) { crowd.step(); worst = Math.max(worst, crowd.maxWallOverlap()); }
  assert.equal(worst, 0);
  const goal = map.center(0, 4);
  for (const a of crowd.agents()) assert.ok(Math.hypot(a.x - goal.x, a.y - goal.y) < 64, `agent ${a.id} at ${a.x},${a.y}`);
  const id = crowd.agents()[0].id;
  crowd.remove(id);
  assert.throws(() => crowd.remove(id), (e) => e instanceof TilenavError && e.message.includes("stale id"));
  crowd.free();
  field.free();
  map.free();
});

test("bad input throws defined errors", () => {
  assert.throws(() => new TileMap({ width: 0, height: 3 }), TypeError);
  assert.throws(() => TileMap.fromArray([0, 0, 0], 2), TypeError);
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [0, -1] }), TypeError);
  const map = TileMap.fromArray([0, 0, 0, 0], 2);
  const pf = new PathFinder(map);
  assert.throws(() => pf.find(map, { x: 0, y: 0 }, { x: 5, y: 0 }), (e) => e.status === -9);
  assert.throws(() => pf.find(map, { x: 0, y: 0 }, { x: 1, y: 1 }, { heuristic: "nope" }), TypeError);
  assert.throws(() => new TileMap({ width: 2, height: 1, costs: { 0: -1 } }), TypeError);
  assert.throws(() => map.set(9, 9, 0), (e) => e.status === -9);
  const field = new FlowField(map);
  assert.throws(() => field.distances(), TilenavError);
  assert.throws(() => field.build({ x: 4, y: 4 }), (e) => e.status === -9);
  const crowd = new Crowd(map, { capacity: 1 });
  crowd.add({ x: 16, y: 16 });
  assert.throws(() => crowd.add({ x: 48, y: 48 }), (e) => e.message.includes("full"));
  crowd.free();
  field.free();
  pf.free();
  map.free();
  assert.throws(() => map.get(0, 0), /after free/);
});
