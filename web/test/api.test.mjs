// Unit tests of the JavaScript API (node --test): paths and fields against an independent
// Dijkstra written here, on handmade and seeded random grids, plus bad input.
import { test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { init, TileMap, PathFinder, FlowField, Hierarchy, Crowd, Marbles, AngleCar, GridWanderer, TilenavError, memoryBytes, MAX_CELL_VALUE } from "../pkg/tilenav.mjs";

await init();

// tests/test_crowd.c TUNED_HASH: a crowd with every tuning knob away from its default
const TUNED_HASH = 0x40e76f866a1256bfn;

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

// A walled n x n room with a wall across part of it (as python/tests/test_arrive.py).
function room(n = 24, innerWall = true) {
  const rows = [];
  for (let y = 0; y < n; y++) {
    let r = "";
    for (let x = 0; x < n; x++)
      r += x === 0 || y === 0 || x === n - 1 || y === n - 1 || (innerWall && y === 6 && x >= 6 && x < 18) ? "#" : ".";
    rows.push(r);
  }
  return TileMap.fromText(rows);
}

// `count` distinct open cells' centres of `map`, drawn with `rand`.
function spread(map, count, rand) {
  const open = [];
  for (let y = 0; y < map.height; y++) for (let x = 0; x < map.width; x++) if (map.passable(x, y)) open.push(map.center(x, y));
  for (let i = open.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [open[i], open[j]] = [open[j], open[i]]; }
  return open.slice(0, count);
}

test("crowd: arrived within arriveRadius, cleared by setTarget", () => {
  const map = room(24, false), goal = map.center(12, 12);
  const crowd = new Crowd(map, { capacity: 16, seed: 1 });
  const quiet = { separation: 0, cohesion: 0, alignment: 0, avoidAgents: 0 };
  const ids = spread(map, 6, rng(2)).map((p) => crowd.add({ ...p, target: "seek", goal, arriveRadius: 20, weights: quiet }));
  const ever = new Map(ids.map((id) => [id, false]));
  for (let s = 0; s < 600; s++) {
    crowd.step();
    for (const a of crowd.agents()) {
      const d = Math.hypot(a.x - goal.x, a.y - goal.y);
      if (d <= 20 - 1e-3) assert.ok(a.arrived, `agent ${a.id} at ${d} px not arrived`);
      if (!ever.get(a.id) && a.arrived) assert.ok(d <= 20 + 1e-3, `agent ${a.id} arrived at ${d} px`);
      if (a.arrived) ever.set(a.id, true);
      assert.equal(a.held, false);
    }
  }
  assert.ok(crowd.agents().every((a) => a.arrived));
  crowd.setTarget(ids[0], "seek", map.center(3, 20));
  assert.deepEqual(crowd.agents().filter((a) => !a.arrived).map((a) => a.id), [ids[0]]);
  crowd.free();
  map.free();
});

test("crowd: a goal area lets a crowd that stays arrive (held)", () => {
  const run = (area) => {
    const map = room(), field = new FlowField(map, { lineOfSight: "off" }).build({ x: 12, y: 12 });
    const crowd = new Crowd(map, { capacity: 80, seed: 7, pushApart: true });
    crowd.setFlow(0, field);
    for (const p of spread(map, 80, rng(9))) crowd.add({ ...p, target: "flow", flow: 0, arriveArea: area });
    crowd.step(1500);
    assert.equal(crowd.maxWallOverlap(), 0);
    const agents = crowd.agents(), v = crowd.view(), goal = map.center(12, 12);
    for (let i = 0; i < v.count; i++) // the view's arrived column: 0, 1, or 2 when held
      assert.equal(v.data[i * v.stride + 6], agents[i].held ? 2 : agents[i].arrived ? 1 : 0);
    const out = { arrived: agents.filter((a) => a.arrived).length, held: agents.filter((a) => a.held).length,
      heldMax: Math.max(0, ...agents.filter((a) => a.held).map((a) => Math.hypot(a.x - goal.x, a.y - goal.y))) };
    crowd.free(); field.free(); map.free();
    return out;
  };
  const withArea = run(160);
  assert.equal(withArea.arrived, 80);
  assert.ok(withArea.held > 40 && withArea.held < 80, JSON.stringify(withArea));
  assert.ok(withArea.heldMax <= 160 + 8);
  const without = run(0);
  assert.equal(without.held, 0);
  assert.ok(without.arrived < 70, JSON.stringify(without));
});

test("crowd: a FlowField's later build() or update() is followed at the next step without setFlow; another map's field is refused", () => {
  // a corridor with the goal at its east end; the agent starts in the middle
  const map = TileMap.fromText(["################", "#..............#", "################"]);
  const field = new FlowField(map).build({ x: 14, y: 1 }), crowd = new Crowd(map, { seed: 3 });
  crowd.setFlow(0, field);
  const id = crowd.add({ x: 8 * 32 + 16, y: 48, target: "flow", flow: 0, maxSpeed: 60 });
  crowd.step(30);
  const east = crowd.agents().find((a) => a.id === id);
  assert.ok(east.vx > 10, `vx ${east.vx}`);
  field.build({ x: 1, y: 1 }); // the goal moves to the west end
  crowd.step(60);
  const west = crowd.agents().find((a) => a.id === id);
  assert.ok(west.vx < -10 && west.x < east.x, JSON.stringify({ east, west }));
  // an edit and update(): a wall west of the agent, the goal beyond it unreachable
  map.set(3, 1, 1);
  assert.equal(field.current, false);
  field.update();
  crowd.step(120);
  const stopped = crowd.agents().find((a) => a.id === id);
  assert.ok(Math.abs(stopped.vx) < 1 && stopped.x > 4 * 32, JSON.stringify(stopped));
  // freed after setFlow: followed as it was, and step() goes on
  field.free();
  assert.doesNotThrow(() => crowd.step(5));
  // a field of another map of the same size is refused, naming both maps
  const twin = TileMap.fromText(["################", "#..............#", "################"]);
  const other = new FlowField(twin).build({ x: 14, y: 1 });
  assert.throws(() => crowd.setFlow(1, other), (e) => e instanceof TilenavError && e.status === -1 && /Crowd.setFlow: the FlowField was made on another map \(16x3\) than the crowd's \(16x3\): make it with the crowd's map/.test(e.message));
  other.free(); twin.free(); crowd.free(); map.free();
});

test("a time-sliced query of a big unit keeps its clearance while a bigger size is asked (it was destroyed under the query)", () => {
  const rows = [];
  for (let y = 0; y < 24; y++) rows.push(Array.from({ length: 40 }, (_, x) => (x === 20 && y > 3 && y < 22 ? "#" : ".")).join(""));
  const map = TileMap.fromText(rows), finder = new PathFinder(map), ref = new PathFinder(map);
  const start = { x: 2, y: 12 }, goal = { x: 36, y: 12 };
  const want = ref.find(map, start, goal, { size: 2 });
  assert.equal(want.found, true);
  for (const bigger of [
    () => new FlowField(map, { size: 3 }).build({ x: 30, y: 2 }),
    () => map.hierarchy({ sectorSize: 8, size: 3 }),
    () => ref.find(map, start, goal, { size: 4 }),
  ]) {
    assert.equal(finder.begin(map, start, goal, { size: 2 }), "in progress");
    assert.equal(finder.step(5), "in progress");
    const made = bigger(); // a new clearance for the bigger size: the old one is replaced
    let st = "in progress";
    for (let k = 0; k < 10000 && st === "in progress"; k++) st = finder.step(50);
    assert.equal(st, "ok");
    const r = finder.result();
    assert.ok(Math.abs(r.cost - want.cost) < 1e-9, `${r.cost} vs ${want.cost}`);
    made?.free?.();
    // the held clearance goes back with the next query (or cancel(), free())
    assert.equal(finder.find(map, start, goal).found, true);
  }
  finder.free(); ref.free(); map.free();
});

test("FlowField: a build() or update() that throws leaves the field not current, with no goals", () => {
  const map = TileMap.fromText(["........", "........"]), field = new FlowField(map).build({ x: 7, y: 1 });
  map.set(0, 0, 1);
  assert.throws(() => field.build({ x: 0, y: 0 }), /goal blocked/);
  assert.equal(field.current, false);
  assert.deepEqual(field.goals, []);
  assert.throws(() => field.pathFrom({ x: 3, y: 1 }), /state|map changed/);
  field.build({ x: 7, y: 1 });
  assert.equal(field.current, true);
  map.set(7, 1, 1);
  assert.throws(() => field.update(), /goal blocked/);
  assert.equal(field.current, false);
  assert.deepEqual(field.goals, []);
  map.set(7, 1, 0);
  field.build({ x: 7, y: 1 });
  const fresh = new FlowField(map).build({ x: 7, y: 1 });
  assert.deepEqual(field.pathFrom({ x: 0, y: 1 }), fresh.pathFrom({ x: 0, y: 1 }));
  assert.equal(fresh.pathFrom({ x: 0, y: 1 }).found, true);
  fresh.free(); field.free(); map.free();
});

test("flags are true or false; use after free() and calls before init() are TilenavError 'state'", () => {
  const map = TileMap.fromText(["....", "...."]), finder = new PathFinder(map);
  for (const [k, v] of [["closest", "yes"], ["closest", 1], ["regions", "no"]])
    assert.throws(() => finder.find(map, { x: 0, y: 0 }, { x: 3, y: 1 }, { [k]: v }), (e) => e instanceof TilenavError && e.status === -1 && e.message === `PathFinder.find: ${k} must be true or false, got ${JSON.stringify(v)}: invalid argument`, `${k}: ${v}`);
  assert.equal(finder.find(map, { x: 0, y: 0 }, { x: 3, y: 1 }, { closest: false, regions: undefined }).found, true);
  assert.throws(() => new Crowd(map, { pushApart: 1 }), /Crowd: pushApart must be true or false, got 1/);
  finder.free();
  map.free();
  const state = (re) => (e) => e instanceof TilenavError && e.status === -15 && re.test(e.message);
  assert.throws(() => map.get(0, 0), state(/^tilenav: TileMap used after free\(\): state$/));
  assert.throws(() => finder.find(map, { x: 0, y: 0 }, { x: 1, y: 0 }), state(/used after free/));
});

test("crowd: wanderers give the C library's bits (its sine and cosine are tilenav's own, not libm's)", () => {
  // tests/test_crowd.c test_wanderers_hash and python/tests/test_arrive.py run the same crowd
  const rows = [];
  for (let y = 0; y < 12; y++) rows.push(y === 0 || y === 11 ? "#".repeat(16) : "#" + ".".repeat(14) + "#");
  const map = TileMap.fromText(rows), crowd = new Crowd(map, { capacity: 16, seed: 7 });
  for (let i = 0; i < 12; i++)
    crowd.add({ x: (2 + (i % 6) * 2) * 32 + 16, y: (2 + Math.floor(i / 6) * 4) * 32 + 16, weights: { wander: 1 } });
  crowd.step(600);
  assert.equal(crowd.hash, 0xdfb80f110b34faa0n);
  crowd.free();
  map.free();
});

test("crowd: the tuning knobs reach the library by name (the C and Python pinned hash)", () => {
  // tests/test_crowd.c test_tuned_crowd_hash and python/tests/test_crowd_options.py run this
  // crowd with every knob away from its default, each to its own value
  const rows = [];
  for (let y = 0; y < 12; y++) rows.push(y === 0 || y === 11 ? "#".repeat(16) : "#" + ".".repeat(14) + "#");
  const map = TileMap.fromText(rows);
  const crowd = new Crowd(map, {
    capacity: 16, seed: 9, maxNeighbours: 4, maxScan: 7, denseNeighbours: 3, similarGoalDistance: 40,
    avoidLookAhead: 0.75, wallLookAhead: 48, wanderDistance: 30, wanderRadius: 20, wanderJitter: 0.25,
    periods: { separation: 2, cohesion: 3, wander: 5 }, combine: "prioritized", flockBrake: 0.5, maxFlows: 3,
  });
  assert.equal(crowd.maxFlows, 3);
  for (let i = 0; i < 12; i++)
    crowd.add({ x: (2 + (i % 6) * 2) * 32 + 16, y: (2 + Math.floor(i / 6) * 4) * 32 + 16, weights: { wander: 1 },
      target: "seek", goal: { x: i % 2 ? 400 : 100, y: 200 } });
  crowd.step(600);
  assert.equal(crowd.hash, TUNED_HASH);
  assert.throws(() => crowd.setFlow(3, null), /flow slot must be an integer from 0 to 2/);
  crowd.free();
  // the defaults given by name are the defaults
  const hashOf = (o) => {
    const c = new Crowd(map, { capacity: 16, seed: 9, ...o });
    for (let i = 0; i < 12; i++)
      c.add({ x: (2 + (i % 6) * 2) * 32 + 16, y: (2 + Math.floor(i / 6) * 4) * 32 + 16, weights: { wander: 1 } });
    c.step(200);
    const h = c.hash;
    c.free();
    return h;
  };
  const base = hashOf({});
  assert.equal(hashOf({ maxNeighbours: 16, maxScan: 64, denseNeighbours: 10, similarGoalDistance: 64, avoidLookAhead: 0.5,
    wallLookAhead: 0, wanderDistance: 24, wanderRadius: 12, wanderJitter: 0.5, combine: "weighted", flockBrake: 0,
    periods: { target: 1, separation: 1, cohesion: 1, alignment: 1, avoidAgents: 1, avoidWalls: 1, wander: 1 }, maxFlows: 8 }), base);
  for (const o of [{ wanderRadius: 0 }, { wanderJitter: 2 }, { periods: { wander: 3 } }, { combine: "prioritized" }])
    assert.notEqual(hashOf(o), base, JSON.stringify(o));
  const bad = [
    [{ maxNeighbours: 0 }, TilenavError, /maxNeighbours/], [{ maxNeighbours: 65 }, TilenavError, /maxNeighbours/],
    [{ maxScan: -1 }, TilenavError, /maxScan/], [{ denseNeighbours: 1.5 }, TilenavError, /denseNeighbours/],
    [{ similarGoalDistance: -1 }, TilenavError, /similarGoalDistance/], [{ avoidLookAhead: 0 }, TilenavError, /avoidLookAhead/],
    [{ wallLookAhead: NaN }, TilenavError, /wallLookAhead/], [{ wanderRadius: Infinity }, TilenavError, /wanderRadius/],
    [{ wanderJitter: 1e39 }, TilenavError, /wanderJitter/], [{ flockBrake: 1.5 }, TilenavError, /flockBrake/],
    [{ periods: { separation: 0 } }, TilenavError, /periods.separation/], [{ periods: { wander: 1025 } }, TilenavError, /periods.wander/],
    [{ periods: { flying: 2 } }, TypeError, /flying/], [{ periods: new globalThis.Map() }, TypeError, /periods/],
    [{ combine: "sum" }, TypeError, /combine/], [{ maxFlows: 0 }, TilenavError, /maxFlows/], [{ maxFlows: 257 }, TilenavError, /maxFlows/],
  ];
  for (const [o, type, message] of bad)
    assert.throws(() => new Crowd(map, o), (e) => e instanceof type && message.test(e.message), JSON.stringify(o));
  map.free();
});

test("crowd: behaviour weights at add() and setWeight(), and their errors", () => {
  const map = room();
  const wanderer = (o = {}) => {
    const crowd = new Crowd(map, { capacity: 4, seed: 5 });
    const id = crowd.add({ ...map.center(12, 16), ...o });
    return { crowd, id };
  };
  const still = wanderer(); // no target, wander 0 by default: nothing moves
  still.crowd.step(60);
  assert.deepEqual([still.crowd.agents()[0].vx, still.crowd.agents()[0].vy], [0, 0]);
  const moving = wanderer({ weights: { wander: 1 } });
  moving.crowd.step(60);
  const m = moving.crowd.agents()[0];
  assert.ok(Math.hypot(m.vx, m.vy) > 1);
  const later = wanderer();
  later.crowd.setWeight(later.id, "wander", 1);
  later.crowd.step(60);
  assert.deepEqual(later.crowd.agents()[0], m); // the same weight set after add: the same run
  const c = still.crowd, p = map.center(3, 3);
  assert.throws(() => c.add({ ...p, weights: { flocking: 1 } }), (e) => e instanceof TypeError && e.message.includes("flocking"));
  assert.throws(() => c.add({ ...p, weights: { wander: NaN } }), (e) => e instanceof TilenavError && e.message.includes("weights.wander"));
  assert.throws(() => c.add({ ...p, weights: { target: 1e39 } }), (e) => e instanceof TilenavError && e.message.includes("weights.target"));
  assert.throws(() => c.add({ ...p, weights: 3 }), TypeError);
  for (const w of [new Map([["wander", 5]]), [5], Object.create({ wander: 5 })]) // entries that are not own properties
    assert.throws(() => c.add({ ...p, weights: w }), (e) => e instanceof TypeError && e.message.includes("plain object"));
  assert.throws(() => c.add({ ...p, weights: { target: 1e36 } }), (e) => e instanceof TilenavError && e.message.includes("from -1000000 to 1000000")); // NaN forces past it
  assert.throws(() => c.add({ ...p, maxSpeed: 2e9 }), (e) => e instanceof TilenavError && e.message.includes("maxSpeed"));
  assert.throws(() => c.add({ ...p, maxForce: 2e12 }), (e) => e instanceof TilenavError && e.message.includes("maxForce"));
  c.remove(c.add({ ...p, maxSpeed: 1e9, maxForce: 1e12, weights: { target: 1e6, cohesion: -1e6 } })); // the limits themselves
  for (const k of ["slowRadius", "arriveRadius", "arriveArea"])
    for (const v of [-1, Infinity, "8"])
      assert.throws(() => c.add({ ...p, [k]: v }), (e) => e instanceof TilenavError && e.message.includes(k), `${k} = ${v}`);
  assert.equal(c.count, 1); // nothing refused was added
  assert.throws(() => c.setWeight(still.id, "Wander", 1), TypeError);
  assert.throws(() => c.setWeight(still.id, "wander", Infinity), TilenavError);
  c.remove(still.id);
  assert.throws(() => c.setWeight(still.id, "wander", 1), (e) => e instanceof TilenavError && e.message.includes("stale id"));
  for (const o of [still, moving, later]) o.crowd.free();
  map.free();
});

test("a PathFinder reused after one map is freed and another made in its place: JPS answers for the new map", () => {
  // A stranger's repro: the cost hash lost the costs' bits with wasm32's 32-bit size_t, so two
  // maps whose one costly cell differs collided; the new map took the freed map's address, and
  // JPS reused the old map's weighted cache (cost 1428.6 for an optimum of 15.83).
  const W = 16, H = 3;
  const mk = (cell, cost) => { const cells = new Array(W * H).fill(0); cells[cell] = 2; return new TileMap({ width: W, height: H, cells, costs: { 2: cost } }); };
  const pf = new PathFinder({ maxCells: 4096 }), q = (m, p, algo) => p.find(m, { x: 0, y: 1 }, { x: 15, y: 1 }, { algo });
  for (let round = 0; round < 4; round++) {
    const a = mk(W + 6, 1000);
    assert.equal(q(a, pf, "jps").cost, q(a, pf, "astar").cost);
    a.free();
    const b = mk(W + 7, new Float32Array(new Uint32Array([0x447a0010 + round]).buffer)[0]);
    const fresh = new PathFinder({ maxCells: 4096 }), want = q(b, fresh, "astar");
    assert.equal(q(b, pf, "jps").cost, want.cost, `round ${round}`);
    assert.equal(q(b, fresh, "jps").cost, want.cost);
    fresh.free();
    b.free();
  }
  pf.free();
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

test("fromText with costs or blocked keeps its walls; costs past a float throw", () => {
  const rows = ["..#..", "..#..", "..#.."];
  for (const o of [{ costs: { 0: 2 } }, { blocked: [] }, { costs: new Map([[0, 3]]) }, { blocked: [7] }]) {
    const m = TileMap.fromText(rows, o);
    assert.equal(m.passable(2, 1), false, JSON.stringify(o));
    const pf = new PathFinder(m);
    assert.equal(pf.find(m, { x: 0, y: 1 }, { x: 4, y: 1 }).status, "no path", JSON.stringify(o));
    pf.free();
    m.free();
  }
  const floor2 = TileMap.fromText(rows, { costs: { 0: 2 } });
  assert.equal(floor2.cost(0, 0), 2);
  floor2.free();
  const mud = TileMap.fromText(rows, { costs: { 1: 5 } }); // naming value 1 gives the walls a terrain
  assert.equal(mud.cost(2, 1), 5);
  mud.free();
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [0, 1], costs: { 1: 1e39 } }),
    (e) => e instanceof TypeError && /value 1 is 1e\+39, past the largest finite cost/.test(e.message));
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [0, 1], costs: { 1: 2e28 } }), /TN_MAX_COST/);
  const ok = new TileMap({ width: 2, height: 1, cells: [0, 1], costs: { 1: 1e28, 2: Infinity } });
  assert.equal(ok.cost(1, 0), Math.fround(1e28));
  assert.throws(() => ok.setTerrain(1, 3e38), /past the largest finite cost/);
  ok.free();
});

test("result.algo names what ran, or would have when nothing ran", () => {
  const m = TileMap.fromText(["..#..", "..#..", "..#.."]);
  const pf = new PathFinder(m);
  for (const regions of [true, false]) {
    // JPS does not apply with "never": A* runs (or would, when the regions answer)
    const r = pf.find(m, { x: 0, y: 0 }, { x: 4, y: 0 }, { algo: "jps", diagonal: "never", regions });
    assert.equal(r.status, "no path");
    assert.equal(r.algo, "astar", `regions ${regions}`);
    const j = pf.find(m, { x: 0, y: 0 }, { x: 4, y: 0 }, { algo: "jps", regions });
    assert.equal(j.algo, "jps", `regions ${regions}`);
  }
  assert.equal(pf.find(m, { x: 2, y: 0 }, { x: 0, y: 0 }, { algo: "jps" }).algo, "jps"); // start blocked
  assert.equal(pf.find(m, { x: 2, y: 0 }, { x: 0, y: 0 }, { algo: "dijkstra" }).algo, "dijkstra");
  pf.free();
  m.free();
});

// Distance from a point to the nearest point of a cell's square (0 inside).
function distToCell(px, py, cx, cy, t) {
  const dx = Math.max(cx * t - px, 0, px - (cx + 1) * t), dy = Math.max(cy * t - py, 0, py - (cy + 1) * t);
  return Math.hypot(dx, dy);
}

test("marbles: elastic energy kept, they collide, never inside a wall or outside the world", () => {
  const map = TileMap.fromText(["..........", "...##.....", "..........", "......#...", "#........."], { tileSize: 32 });
  const r = rng(5);
  for (const restitution of [1, 0.5]) {
    const world = new Marbles({ map, restitution, capacity: 40 });
    while (world.count < 40) {
      const rad = 3 + r() * 5;
      try { world.add(rad + r() * (320 - 2 * rad), rad + r() * (160 - 2 * rad), (r() - 0.5) * 12, (r() - 0.5) * 12, rad); } catch (e) {
        assert.ok(e instanceof TilenavError); // on a wall: placed again
      }
    }
    const e0 = world.energy();
    let contacts = 0;
    for (let step = 0; step < 400; step++) {
      world.step();
      contacts += world.lastContacts;
      for (const m of world.marbles()) {
        assert.ok(m.x >= m.r - 1e-6 && m.x <= 320 - m.r + 1e-6 && m.y >= m.r - 1e-6 && m.y <= 160 - m.r + 1e-6, "outside the world");
        for (let cy = 0; cy < map.height; cy++) for (let cx = 0; cx < map.width; cx++)
          if (!map.passable(cx, cy)) assert.ok(distToCell(m.x, m.y, cx, cy, 32) >= m.r - 1e-3, `marble in wall (${cx},${cy})`);
      }
    }
    assert.ok(contacts > 50, `only ${contacts} contacts`);
    if (restitution === 1) assert.ok(Math.abs(world.energy() - e0) <= 1e-6 * e0, `energy ${e0} -> ${world.energy()}`);
    else assert.ok(world.energy() < 0.9 * e0);
    world.free();
  }
  const small = new Marbles({ map, capacity: 1 });
  assert.throws(() => small.add(4 * 32 + 16, 1 * 32 + 16, 0, 0, 5), TilenavError); // on a wall
  assert.throws(() => small.add(2, 50, 0, 0, 5), (e) => e.status === -9); // crosses the edge
  assert.equal(small.add(16, 16, 1, 0, 5), 0);
  assert.throws(() => small.add(80, 16, 0, 0, 5), (e) => e.message.includes("full"));
  assert.throws(() => small.setVelocity(3, 0, 0), TilenavError);
  small.free();
  map.free();
});

// The book's 10 x 8 track (1 grass, 2 track) and its angle layer.
const TRACK = [1,1,1,1,1,1,1,1,1,1, 1,2,2,2,2,2,2,2,2,1, 1,2,2,2,2,2,2,2,2,1, 1,2,2,1,1,1,1,2,2,1,
  1,2,2,1,1,1,1,2,2,1, 1,2,2,2,2,2,2,2,2,1, 1,2,2,2,2,2,2,2,2,1, 1,1,1,1,1,1,1,1,1,1];
const ANGLES = [45,45,45,45,45,45,45,45,135,135, 315,0,0,0,0,0,0,90,135,135, 315,0,0,0,0,0,0,90,135,135,
  315,315,270,315,315,315,315,90,90,135, 315,315,270,135,135,135,135,90,90,135, 315,315,270,180,180,180,180,180,180,135,
  315,315,270,180,180,180,180,180,180,135, 315,270,270,225,225,225,225,225,225,225];

test("AI car: one step by hand, then ten laps of the book's track with jitter, never off the map", () => {
  const friction = TRACK.map((t) => (t === 1 ? 0.25 : 0.96));
  const first = new AngleCar({ width: 10, height: 8, angles: new Array(80).fill(0), friction, x: 2.5 * 64, y: 2.5 * 64, jitter: 0 });
  first.step();
  const s = first.state(); // at rest on a 0-degree track cell: speed 0.08, vel = 0.08 * 0.96
  assert.ok(Math.abs(s.speed - 0.08) < 1e-6 && Math.abs(s.vx - 0.0768) < 1e-6 && s.vy === 0, JSON.stringify(s));
  first.free();
  for (const seed of [1, 2, 3]) {
    const car = new AngleCar({ width: 10, height: 8, angles: ANGLES, friction, x: 2.5 * 64, y: 2.5 * 64, seed });
    const quadrant = (p) => { const cx = Math.floor(p.x / 64), cy = Math.floor(p.y / 64); return cy < 4 ? (cx < 5 ? 0 : 1) : (cx < 5 ? 3 : 2); };
    let q = quadrant(car.state()), laps = 0;
    for (let step = 0; step < 20000 && laps < 10; step++) {
      car.step();
      const p = car.state();
      assert.ok(p.x >= 0 && p.x < 640 && p.y >= 0 && p.y < 512, "left the map");
      const nq = quadrant(p);
      if (nq === (q + 1) % 4) { if (nq === 0) laps++; q = nq; }
    }
    assert.equal(laps, 10, `seed ${seed}`);
    car.free();
  }
  assert.throws(() => new AngleCar({ width: 2, height: 2, angles: [0], friction: [1, 1, 1, 1], x: 0, y: 0 }), TypeError);
});

// Does the box [x, x+w) x [y, y+h) overlap a blocked cell or leave the map? (interiors only)
function boxInWall(map, x, y, w, h) {
  const t = map.tileWidth;
  if (x < -1e-3 || y < -1e-3 || x + w > map.width * t + 1e-3 || y + h > map.height * t + 1e-3) return true;
  for (let cy = Math.floor(y / t); cy * t < y + h - 1e-3; cy++)
    for (let cx = Math.floor(x / t); cx * t < x + w - 1e-3; cx++)
      if (!map.passable(cx, cy)) return true;
  return false;
}

test("moveBox: random moves never end in a wall, slide along walls; hitTestWalls agrees", () => {
  const map = TileMap.fromText(["........", ".##..#..", ".#......", "....##..", "..#....."], { tileSize: 32 });
  const r = rng(9);
  let box = { x: 0, y: 0, w: 20, h: 20 }, blocked = 0, moved = 0;
  for (let i = 0; i < 3000; i++) {
    const dx = (r() - 0.5) * 40, dy = (r() - 0.5) * 40, res = map.moveBox(box, dx, dy);
    assert.ok(!boxInWall(map, res.x, res.y, box.w, box.h), `step ${i}: box at ${res.x},${res.y} in a wall`);
    if (res.blockedX || res.blockedY) blocked++;
    // an unblocked axis moves the full amount
    if (!res.blockedX) assert.ok(Math.abs(res.x - box.x - dx) < 1e-3);
    if (!res.blockedY) assert.ok(Math.abs(res.y - box.y - dy) < 1e-3);
    moved += Math.hypot(res.x - box.x, res.y - box.y);
    box = { ...box, x: res.x, y: res.y };
    assert.equal(map.hitTestWalls(box, "any-cell"), false);
  }
  assert.ok(blocked > 100 && moved > 1000, `blocked ${blocked}, moved ${moved}`);
  // hit tests by hand: a box over (1, 1) (a wall) and one on open floor
  assert.equal(map.hitTestWalls({ x: 36, y: 36, w: 8, h: 8 }, "center"), true);
  assert.equal(map.hitTestWalls({ x: 100, y: 4, w: 8, h: 8 }, "every"), false);
  // a collision area: the sprite overlaps the wall at (1, 1) but its feet do not
  assert.equal(map.hitTestWalls({ x: 28, y: 4, w: 32, h: 32, areaX: 0, areaY: 0, areaW: 4, areaH: 4 }, "some"), false);
  assert.throws(() => map.moveBox({ x: 0, y: 0, w: 0, h: 4 }, 1, 1), TilenavError);
  map.free();
});

test("GridWanderer: stays on open rows and columns, never in a wall, wanders over many cells", () => {
  const map = TileMap.fromText(["........", ".##..#..", ".#......", "....##..", "..#....."], { tileSize: 32 });
  const w = new GridWanderer(map, { x: 0, y: 0 }, { speed: 3, seed: 4 });
  let prev = w.state(), turns = 0;
  const seen = new Set();
  for (let i = 0; i < 4000; i++) {
    w.step();
    const s = w.state(), cx = (s.x - 16) / 32, cy = (s.y - 16) / 32;
    assert.ok(Number.isInteger(cx) || Number.isInteger(cy), `off the grid lines at ${s.x},${s.y}`);
    assert.ok(map.passable(Math.floor(s.x / 32), Math.floor(s.y / 32)), "inside a wall");
    assert.ok(map.passable(s.cell.x, s.cell.y));
    if (s.dir.x !== prev.dir.x || s.dir.y !== prev.dir.y) turns++;
    seen.add(`${Math.floor(s.x / 32)},${Math.floor(s.y / 32)}`);
    prev = s;
  }
  assert.ok(turns > 20 && seen.size > 15, `turns ${turns}, cells ${seen.size}`);
  assert.throws(() => new GridWanderer(map, { x: 1, y: 1 }), TilenavError); // a wall
  w.free();
  map.free();
});

test("init: a failed load rejects with a message and may be retried", async () => {
  const { spawnSync } = await import("node:child_process");
  const url = new URL("../pkg/tilenav.mjs", import.meta.url).href;
  const script = `
    const tn = await import(${JSON.stringify(url)});
    try { tn.version(); console.log("no-throw"); } catch (e) { console.log("before:", e.message); }
    try { await tn.init(new URL("./missing.wasm", ${JSON.stringify(url)})); } catch (e) { console.log("failed:", e.code); }
    for (const bad of [123, {}]) try { await tn.init(bad); } catch (e) { console.log("bad source:", e.name, e.message); }
    const v = await tn.init();
    console.log("retry:", v.version);`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /before: tilenav: call `await init\(\)` first/);
  assert.match(r.stdout, /failed: ENOENT/);
  assert.match(r.stdout, /bad source: TypeError tilenav: init: source must be where tilenav.wasm is .* got 123\nbad source: TypeError .* got \{\}\n/);
  assert.match(r.stdout, /retry: \d+\.\d+\.\d+/);
});

test("time-sliced queries equal the one-shot query; batch queries; map changed mid-query", () => {
  const rand = rng(2018);
  for (let k = 0; k < 40; k++) {
    const w = 20 + Math.floor(rand() * 30), h = 20 + Math.floor(rand() * 30);
    const cells = Array.from({ length: w * h }, () => (rand() < 0.25 ? 1 : rand() < 0.2 ? 2 : 0));
    cells[0] = 0; cells[w * h - 1] = 0;
    const map = TileMap.fromArray(cells, w, { costs: { 0: 1, 1: Infinity, 2: 3 } });
    const pf = new PathFinder(map), start = { x: 0, y: 0 }, goal = { x: w - 1, y: h - 1 };
    for (const algo of ["astar", "dijkstra", "jps"]) {
      const one = pf.find(map, start, goal, { algo });
      // regions answer an unreachable goal in begin() itself (without them: a search)
      assert.equal(pf.begin(map, start, goal, { algo, regions: false }), "in progress");
      pf.cancel();
      assert.equal(pf.begin(map, start, goal, { algo }), one.found ? "in progress" : "no path");
      let st, slices = 0;
      do { st = pf.step(7); slices++; } while (st === "in progress");
      const r = pf.result();
      assert.equal(r.found, one.found);
      assert.equal(r.cost, one.cost);
      assert.equal(r.expanded, one.expanded);
      assert.deepEqual(r.path, one.path);
      if (one.expanded > 7) assert.ok(slices > 1);
    }
    // batch: the same costs as one query at a time
    const qs = [];
    for (let i = 0; i < 20; i++) qs.push({ start: { x: Math.floor(rand() * w), y: Math.floor(rand() * h) }, goal: { x: Math.floor(rand() * w), y: Math.floor(rand() * h) } });
    const b = pf.findMany(map, qs, { diagonal: "never" });
    let found = 0;
    qs.forEach((q, i) => {
      const r = pf.find(map, q.start, q.goal, { diagonal: "never" });
      assert.equal(b.costs[i], r.found ? r.cost : Infinity);
      assert.equal(b.lengths[i], r.found ? r.path.length : 0);
      found += r.found;
    });
    assert.equal(b.found, found);
    const flat = new Int32Array(qs.flatMap((q) => [q.start.x, q.start.y, q.goal.x, q.goal.y]));
    assert.deepEqual(pf.findMany(map, flat, { diagonal: "never" }).costs, b.costs);
    pf.free(); map.free();
  }
  const map = TileMap.fromText(["....", "....", "...."]);
  const pf = new PathFinder(map);
  pf.begin(map, { x: 0, y: 0 }, { x: 3, y: 2 });
  map.set(1, 1, 1);
  assert.throws(() => pf.step(1), (e) => e instanceof TilenavError && e.status === -12);
  assert.equal(pf.begin(map, { x: 1, y: 1 }, { x: 3, y: 2 }), "start blocked");
  assert.equal(pf.step(5), "start blocked");
  assert.equal(pf.result().found, false);
  pf.free(); map.free();
});

test("typed-array views: distances, flow vectors and crowd state over the module's memory", () => {
  const map = TileMap.fromText(["........", "..###...", "........"], { tileSize: 16 });
  const field = new FlowField(map).build({ x: 7, y: 2 });
  const vec = field.vectorsView();
  assert.equal(vec.length, 2 * 24);
  const dirs = field.directions();
  for (let i = 0; i < 24; i++) assert.equal(field.direction(i % 8, Math.floor(i / 8)), dirs[i], `direction() of cell ${i}`);
  assert.equal(field.direction(-1, 0), -1);
  assert.equal(field.direction(8, 0), -1);
  for (let i = 0; i < 24; i++) {
    const len = Math.hypot(vec[2 * i], vec[2 * i + 1]);
    if (dirs[i] < 0) assert.equal(len, 0); else assert.ok(Math.abs(len - 1) < 1e-5, `cell ${i}: |v| = ${len}`);
  }
  const view = field.distancesView();
  assert.deepEqual(Array.from(view), Array.from(field.distances()));
  assert.equal(view.buffer, vec.buffer); // both over the module's memory, no copies
  const crowd = new Crowd(map, { capacity: 4 });
  crowd.setFlow(0, field);
  const a = crowd.add({ x: 8, y: 8, target: "flow", flow: 0 }), b = crowd.add({ x: 24, y: 40, target: "flow", flow: 0 });
  crowd.step(5);
  const v = crowd.view(), list = crowd.agents();
  assert.equal(v.count, 2);
  assert.equal(v.stride, 7);
  assert.deepEqual(Array.from(v.ids), [a, b]);
  list.forEach((ag, i) => { assert.equal(v.data[7 * i], ag.x); assert.equal(v.data[7 * i + 1], ag.y); assert.equal(v.data[7 * i + 5], ag.radius); });
  crowd.free(); field.free(); map.free();
});

// ---- units of n x n cells (option `size`) --------------------------------------------------
// The reference, from the rules and nothing of the library: a unit of size n stands at (x, y)
// (its top-left cell) when all n x n cells of [x, x+n) x [y, y+n) are inside the map and
// passable. A straight step needs the destination footprint free. A diagonal step: "no-cut"
// needs the whole (n+1) x (n+1) square the unit sweeps free; "one" needs one of the two side
// positions, "always" neither, "never" forbids it. Entering a position costs the step (1 or √2)
// times the largest cost under the footprint entered.
function footprintCost(w, h, cost, n, x, y) {
  if (x < 0 || y < 0 || x + n > w || y + n > h) return Infinity;
  let c = 0;
  for (let j = y; j < y + n; j++) for (let i = x; i < x + n; i++) c = Math.max(c, cost(i, j));
  return c;
}

function unitStepOk(w, h, cost, n, a, b, rule) {
  const dx = b.x - a.x, dy = b.y - a.y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1) return false;
  if (footprintCost(w, h, cost, n, a.x, a.y) === Infinity || footprintCost(w, h, cost, n, b.x, b.y) === Infinity) return false;
  if (!dx || !dy) return true;
  if (rule === "never") return false;
  if (rule === "no-cut") { // the swept square, cell by cell
    const x0 = Math.min(a.x, b.x), y0 = Math.min(a.y, b.y);
    for (let j = y0; j <= y0 + n; j++) for (let i = x0; i <= x0 + n; i++)
      if (i >= w || j >= h || cost(i, j) === Infinity) return false;
    return true;
  }
  const s1 = footprintCost(w, h, cost, n, b.x, a.y) !== Infinity, s2 = footprintCost(w, h, cost, n, a.x, b.y) !== Infinity;
  return rule === "always" || s1 || s2;
}

// Dijkstra over the unit's positions (O(n) minimum scan); reverse: distances TO `start`.
function unitDijkstra(w, h, cost, n, start, rule, reverse = false) {
  const N = w * h, dist = new Float64Array(N).fill(Infinity), done = new Uint8Array(N);
  if (footprintCost(w, h, cost, n, start.x, start.y) === Infinity) return dist;
  dist[start.y * w + start.x] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < N; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) return dist;
    done[best] = 1;
    const a = { x: best % w, y: (best / w) | 0 };
    for (const [dx, dy] of NEIGHBOURS) {
      const b = { x: a.x + dx, y: a.y + dy };
      if (!unitStepOk(w, h, cost, n, a, b, rule)) continue;
      const entered = reverse ? a : b;
      const d = dist[best] + (dx && dy ? Math.SQRT2 : 1) * footprintCost(w, h, cost, n, entered.x, entered.y);
      if (d < dist[b.y * w + b.x]) dist[b.y * w + b.x] = d;
    }
  }
}

function unitPathCost(w, h, cost, n, path) {
  let c = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i];
    c += (a.x !== b.x && a.y !== b.y ? Math.SQRT2 : 1) * footprintCost(w, h, cost, n, b.x, b.y);
  }
  return c;
}

// A random map with walls and weighted tiles whose cells can be edited (cells stays current).
function editableMap(r, w, h, wallRate) {
  const cells = [];
  for (let i = 0; i < w * h; i++) {
    const u = r();
    cells.push(u < wallRate ? 1 : u < wallRate + 0.15 ? 2 : u < wallRate + 0.22 ? 3 : 0);
  }
  const table = { 0: 1, 1: Infinity, 2: 2.5, 3: 0.5 };
  const map = new TileMap({ width: w, height: h, cells, costs: table });
  return { map, cells, cost: (x, y) => table[cells[y * w + x]], set(x, y, v) { cells[y * w + x] = v; map.set(x, y, v); } };
}

// Every query of `pairs` for every algorithm against the reference; returns how many found a path.
function checkUnitQueries(pf, m, w, h, n, rule, pairs, what) {
  let found = 0;
  for (const [s, g] of pairs) {
    const ref = unitDijkstra(w, h, m.cost, n, s, rule), want = ref[g.y * w + g.x];
    const sFits = footprintCost(w, h, m.cost, n, s.x, s.y) !== Infinity, gFits = footprintCost(w, h, m.cost, n, g.x, g.y) !== Infinity;
    for (const algo of ["astar", "dijkstra", "jps"]) {
      const res = pf.find(m.map, s, g, { algo, diagonal: rule, size: n });
      const tag = `${what} size ${n} ${rule} ${algo} ${s.x},${s.y} -> ${g.x},${g.y}`;
      if (!sFits) { assert.equal(res.status, "start blocked", tag); assert.equal(res.found, false); continue; }
      if (!gFits) { assert.equal(res.status, "goal blocked", tag); assert.equal(res.found, false); continue; }
      if (want === Infinity) { assert.equal(res.found, false, tag); assert.equal(res.status, "no path", tag); continue; }
      assert.equal(res.found, true, tag);
      assert.deepEqual(res.path[0], s, tag);
      assert.deepEqual(res.path.at(-1), g, tag);
      for (let i = 1; i < res.path.length; i++)
        assert.ok(unitStepOk(w, h, m.cost, n, res.path[i - 1], res.path[i], rule), `${tag}: illegal step ${i}`);
      const c = unitPathCost(w, h, m.cost, n, res.path);
      assert.ok(Math.abs(c - want) < 1e-6 * Math.max(1, want), `${tag}: path costs ${c}, reference ${want}`);
      assert.ok(Math.abs(res.cost - want) < 1e-6 * Math.max(1, want), `${tag}: cost ${res.cost}, reference ${want}`);
      found++;
    }
  }
  return found;
}

function fitCells(w, h, cost, n) {
  const out = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (footprintCost(w, h, cost, n, x, y) !== Infinity) out.push({ x, y });
  return out;
}

for (const rule of ["no-cut", "never", "one", "always"]) {
  test(`unit size 1..4, rule ${rule}: A*, Dijkstra, JPS against the footprint reference, before and after edits`, () => {
    const r = rng(4242 + 7 * rule.length), pf = new PathFinder({ maxCells: 64 });
    let found = 0;
    for (let round = 0; round < 12; round++) {
      const w = 8 + Math.floor(r() * 12), h = 8 + Math.floor(r() * 10);
      const m = editableMap(r, w, h, 0.08 + 0.1 * r());
      const pick = (list) => list[Math.floor(r() * list.length)];
      const cell = () => ({ x: Math.floor(r() * w), y: Math.floor(r() * h) });
      for (let edit = 0; edit < 3; edit++) {
        for (let n = 1; n <= 4; n++) {
          const fit = fitCells(w, h, m.cost, n), pairs = [];
          for (let q = 0; q < 4 && fit.length; q++) pairs.push([pick(fit), pick(fit)]);
          pairs.push([cell(), cell()]); // may not fit: start/goal blocked
          found += checkUnitQueries(pf, m, w, h, n, rule, pairs, `round ${round} edit ${edit}`);
        }
        // edit a few cells: walls added and removed, costs changed
        for (let k = 0; k < 4; k++) { const c = cell(); m.set(c.x, c.y, Math.floor(r() * 4)); }
      }
      m.map.free();
    }
    assert.ok(found > 200, `only ${found} paths found`);
    pf.free();
  });
}

test("unit size: clearance(), fits(), begin/step/result and findMany agree with find()", () => {
  const r = rng(99), w = 16, h = 12, pf = new PathFinder({ maxCells: 16 });
  const m = editableMap(r, w, h, 0.12);
  for (let round = 0; round < 3; round++) {
    const grid = m.map.clearanceGrid();
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      let c = 0;
      while (footprintCost(w, h, m.cost, c + 1, x, y) !== Infinity) c++;
      assert.equal(m.map.clearance(x, y), c, `clearance(${x}, ${y})`);
      assert.equal(grid[y * w + x], c);
      for (let n = 1; n <= 5; n++) assert.equal(m.map.fits(x, y, n), c >= n);
    }
    assert.equal(m.map.clearance(-1, 0), 0);
    assert.equal(m.map.clearance(w, 0), 0);
    for (const size of [2, 3]) {
      const qs = [];
      for (let i = 0; i < 12; i++) qs.push({ start: { x: Math.floor(r() * w), y: Math.floor(r() * h) }, goal: { x: Math.floor(r() * w), y: Math.floor(r() * h) } });
      const b = pf.findMany(m.map, qs, { size });
      qs.forEach((q, i) => {
        const one = pf.find(m.map, q.start, q.goal, { size });
        assert.equal(b.costs[i], one.found ? one.cost : Infinity);
        assert.equal(b.lengths[i], one.found ? one.path.length : 0);
        const st = pf.begin(m.map, q.start, q.goal, { size });
        if (one.status === "start blocked" || one.status === "goal blocked") { assert.equal(st, one.status); return; }
        let s;
        do s = pf.step(5); while (s === "in progress");
        const sliced = pf.result();
        assert.equal(sliced.found, one.found);
        assert.equal(sliced.cost, one.cost);
        assert.deepEqual(sliced.path, one.path);
      });
    }
    for (let k = 0; k < 6; k++) m.set(Math.floor(r() * w), Math.floor(r() * h), r() < 0.5 ? 1 : 0);
  }
  // an edit between slices of a size-2 query is noticed
  const open = TileMap.fromText(["......", "......", "......", "......"]);
  assert.equal(pf.begin(open, { x: 0, y: 0 }, { x: 4, y: 2 }, { size: 2 }), "in progress");
  open.set(3, 3, 1);
  assert.throws(() => pf.step(100), (e) => e instanceof TilenavError && e.status === -12);
  open.set(3, 3, 0);
  // sizes above the first one asked rebuild the size maps
  assert.equal(pf.find(open, { x: 0, y: 0 }, { x: 2, y: 0 }, { size: 4 }).found, true);
  assert.equal(pf.find(open, { x: 0, y: 0 }, { x: 2, y: 0 }, { size: 5 }).status, "start blocked");
  open.free();
  m.map.free();
  pf.free();
});

test("unit size: bad sizes throw a TilenavError naming the size", () => {
  const map = TileMap.fromText(["....", "...."]), pf = new PathFinder(map);
  const s = { x: 0, y: 0 }, g = { x: 2, y: 0 };
  const bad = (e) => e instanceof TilenavError && e.status === -1 && /size must be an integer from 1 to 255/.test(e.message);
  for (const size of [0, -1, 1.5, 256, 1000, NaN, Infinity, "2", null, true]) {
    assert.throws(() => pf.find(map, s, g, { size }), bad, `find size ${String(size)}`);
    assert.throws(() => pf.begin(map, s, g, { size }), bad);
    assert.throws(() => pf.findMany(map, [{ start: s, goal: g }], { size }), bad);
    assert.throws(() => new FlowField(map, { size }), bad);
    assert.throws(() => map.fits(0, 0, size), bad);
  }
  const crowd = new Crowd(map, { capacity: 2 });
  assert.throws(() => crowd.add({ x: 16, y: 16, size: 0 }), bad);
  assert.equal(pf.find(map, s, g, { size: undefined }).found, true);
  assert.equal(pf.find(map, s, g, { size: 2 }).found, true);
  assert.equal(pf.find(map, s, g, { size: 3 }).status, "start blocked");
  assert.equal(pf.find(map, s, { x: 3, y: 0 }, { size: 2 }).status, "goal blocked");
  crowd.free(); pf.free(); map.free();
});

test("unit size: flow fields equal the reference, following them costs it, updates after edits", () => {
  const r = rng(515);
  for (let round = 0; round < 8; round++) {
    const w = 9 + Math.floor(r() * 10), h = 8 + Math.floor(r() * 8);
    const m = editableMap(r, w, h, 0.1);
    for (let n = 2; n <= 4; n++) {
      const fit = fitCells(w, h, m.cost, n);
      if (fit.length < 2) continue;
      const goal = fit[Math.floor(r() * fit.length)];
      const field = new FlowField(m.map, { size: n }).build(goal);
      assert.equal(field.size, n);
      for (let edit = 0; edit < 2; edit++) {
        const toGoal = unitDijkstra(w, h, m.cost, n, goal, "no-cut", true), d = field.distances(), dirs = field.directions();
        const STEP = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
          const ref = toGoal[y * w + x], tag = `round ${round} size ${n} edit ${edit} (${x},${y})`;
          if (ref === Infinity) { assert.equal(d[y * w + x], Infinity, tag); continue; }
          assert.ok(Math.abs(d[y * w + x] - ref) < 1e-3 * Math.max(1, ref), `${tag}: ${d[y * w + x]} vs ${ref}`);
          // follow the directions cell by cell with the reference's rules and costs
          let at = { x, y }, c = 0, steps = 0;
          while (at.x !== goal.x || at.y !== goal.y) {
            const k = dirs[at.y * w + at.x];
            assert.ok(k >= 0 && steps++ < w * h, `${tag}: no direction at ${at.x},${at.y}`);
            const next = { x: at.x + STEP[k][0], y: at.y + STEP[k][1] };
            assert.ok(unitStepOk(w, h, m.cost, n, at, next, "no-cut"), `${tag}: illegal step`);
            c += (STEP[k][0] && STEP[k][1] ? Math.SQRT2 : 1) * footprintCost(w, h, m.cost, n, next.x, next.y);
            at = next;
          }
          assert.ok(Math.abs(c - ref) < 1e-3 * Math.max(1, ref), `${tag}: following costs ${c}, reference ${ref}`);
          const p = field.pathFrom({ x, y });
          assert.ok(p.found && Math.abs(unitPathCost(w, h, m.cost, n, p.path) - ref) < 1e-3 * Math.max(1, ref), tag);
        }
        // edit the map away from the goal's footprint, then update the field incrementally
        for (let k = 0; k < 3; k++) {
          const x = Math.floor(r() * w), y = Math.floor(r() * h);
          if (x >= goal.x && x < goal.x + n && y >= goal.y && y < goal.y + n) continue;
          m.set(x, y, Math.floor(r() * 4));
        }
        field.update();
        const fresh = new FlowField(m.map, { size: n }).build(goal);
        assert.deepEqual(field.distances(), fresh.distances());
        fresh.free();
      }
      field.free();
    }
    m.map.free();
  }
});

test("unit size: wall-off query with map cells, and 2x2 agents through a two-cell door", () => {
  const map = TileMap.fromText([
    "..........",
    "..........",
    "#####..###",
    "..........",
    "..........",
    "..........",
  ]);
  const f2 = new FlowField(map, { size: 2 }).build({ x: 8, y: 3 });
  const spawn = [{ x: 0, y: 0 }];
  assert.ok(f2.distance(0, 0) < Infinity);
  assert.equal(f2.wouldWallOff([{ x: 5, y: 2 }], spawn), true); // one cell of the door stops a 2x2 unit
  assert.equal(f2.wouldWallOff([{ x: 0, y: 4 }], spawn), false);
  const f1 = new FlowField(map).build({ x: 8, y: 3 });
  assert.equal(f1.wouldWallOff([{ x: 5, y: 2 }], spawn), false);
  // a size-3 field next to it: the size maps are rebuilt bigger, the size-2 field still updates
  const f3 = new FlowField(map, { size: 3 }).build({ x: 7, y: 3 });
  map.set(6, 2, 1);
  f2.update();
  f3.update();
  assert.equal(f2.distance(0, 0), Infinity);
  map.set(6, 2, 0);
  f2.update();
  assert.ok(f2.distance(0, 0) < Infinity);
  const crowd = new Crowd(map, { capacity: 8, seed: 5 });
  crowd.setFlow(0, f2);
  for (let i = 0; i < 3; i++) crowd.add({ x: 32 + 96 * i, y: 32, radius: 12, target: "flow", flow: 0, size: 2 });
  let worst = 0;
  for (let s = 0; s < 1500; s++) { crowd.step(); worst = Math.max(worst, crowd.maxWallOverlap()); }
  assert.equal(worst, 0);
  const goal = { x: 9 * 32, y: 4 * 32 }; // the centre of the 2x2 footprint at (8, 3)
  for (const a of crowd.agents()) assert.ok(Math.hypot(a.x - goal.x, a.y - goal.y) < 80, `agent ${a.id} at ${a.x},${a.y}`);
  crowd.free(); f1.free(); f2.free(); f3.free(); map.free();
});

// ---- regions ----------------------------------------------------------------------------
// The reference: a flood fill over the positions where an n x n unit fits (footprintCost
// above), from the rules alone. A straight step joins two fitting side neighbours; a diagonal
// one joins two fitting diagonal neighbours under "always", under "no-cut" when both side
// positions fit, under "one" when either does, never under "never". Labels: -1 where the unit
// does not fit, else the component's index.
function refRegions(w, h, cost, n, rule) {
  const fits = new Uint8Array(w * h), label = new Int32Array(w * h).fill(-1);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) fits[y * w + x] = footprintCost(w, h, cost, n, x, y) !== Infinity ? 1 : 0;
  const fit = (x, y) => x >= 0 && y >= 0 && x < w && y < h && fits[y * w + x] === 1;
  let count = 0;
  for (let i = 0; i < w * h; i++) {
    if (!fits[i] || label[i] >= 0) continue;
    const stack = [i];
    label[i] = count;
    while (stack.length) {
      const c = stack.pop(), x = c % w, y = (c / w) | 0;
      for (const [dx, dy] of NEIGHBOURS) {
        const nx = x + dx, ny = y + dy;
        if (!fit(nx, ny) || label[ny * w + nx] >= 0) continue;
        if (dx && dy) {
          const a = fit(nx, y), b = fit(x, ny);
          if (rule === "never" || (rule === "no-cut" && !(a && b)) || (rule === "one" && !(a || b))) continue;
        }
        label[ny * w + nx] = count;
        stack.push(ny * w + nx);
      }
    }
    count++;
  }
  return { label, count };
}

// The library's ids against the reference's labels: -1 at the same cells, and the same
// partition up to relabelling (a bijection between the two sets of labels).
function assertSamePartition(got, want, tag) {
  const fwd = new Map(), back = new Map();
  for (let i = 0; i < want.length; i++) {
    if (want[i] < 0 || got[i] < 0) { assert.equal(got[i], want[i], `${tag}: cell ${i} id ${got[i]}, reference ${want[i]}`); continue; }
    if (!fwd.has(want[i])) fwd.set(want[i], got[i]);
    if (!back.has(got[i])) back.set(got[i], want[i]);
    assert.equal(fwd.get(want[i]), got[i], `${tag}: cell ${i} splits reference region ${want[i]}`);
    assert.equal(back.get(got[i]), want[i], `${tag}: cell ${i} joins two reference regions into ${got[i]}`);
  }
}

// find() with regions against find() without: the same result, and expanded 0 when the
// reference puts start and goal (both fitting) in different regions.
function checkRegionQueries(pf, m, w, h, n, rule, ref, pairs, tag) {
  let answered = 0;
  for (const [s, g] of pairs) {
    for (const closest of [false, true]) {
      const o = { diagonal: rule, size: n, closest };
      const without = pf.find(m.map, s, g, { ...o, regions: false }), withR = pf.find(m.map, s, g, o);
      const t = `${tag} ${s.x},${s.y} -> ${g.x},${g.y} closest ${closest}`;
      assert.equal(withR.found, without.found, t);
      assert.equal(withR.status, without.status, t);
      assert.ok(withR.cost === without.cost || Math.abs(withR.cost - without.cost) < 1e-9 * Math.max(1, without.cost), `${t}: cost ${withR.cost} vs ${without.cost}`);
      const ls = ref.label[s.y * w + s.x], lg = ref.label[g.y * w + g.x];
      if (ls >= 0 && lg >= 0 && ls !== lg) {
        assert.equal(without.found, closest, t); // unreachable: found only as the closest cell
        if (!closest) { assert.equal(withR.expanded, 0, t); answered++; }
        else {
          assert.equal(withR.status, "closest", t);
          assert.equal(ref.label[withR.end.y * w + withR.end.x], ls, `${t}: closest cell outside the start's region`);
        }
      } else if (ls >= 0 && lg >= 0) {
        assert.equal(withR.found, true, t);
        assert.deepEqual(withR.path, without.path, t);
        assert.equal(withR.expanded, without.expanded, t);
      }
    }
  }
  return answered;
}

for (const rule of ["no-cut", "never", "one", "always"]) {
  test(`regions, rule ${rule}, sizes 1..3: partition and count equal a flood fill after every edit; find() agrees`, () => {
    const r = rng(777 + 13 * rule.length), pf = new PathFinder({ maxCells: 64 });
    let answered = 0, checked = 0;
    for (let round = 0; round < 8; round++) {
      const w = 6 + Math.floor(r() * 14), h = 6 + Math.floor(r() * 12);
      const m = editableMap(r, w, h, 0.15 + 0.25 * r());
      const cell = () => ({ x: Math.floor(r() * w), y: Math.floor(r() * h) });
      for (let edit = 0; edit <= 24; edit++) {
        for (let n = 1; n <= 3; n++) {
          const o = { size: n, diagonal: rule }, ref = refRegions(w, h, m.cost, n, rule);
          const tag = `round ${round} edit ${edit} size ${n} ${rule}`;
          const grid = m.map.regionGrid(o);
          assertSamePartition(grid, ref.label, tag);
          assert.equal(m.map.regionCount(o), ref.count, `${tag}: count`);
          for (let k = 0; k < 6; k++) {
            const a = cell(), b = cell(), la = ref.label[a.y * w + a.x], lb = ref.label[b.y * w + b.x];
            assert.equal(m.map.regionId(a.x, a.y, o), grid[a.y * w + a.x], tag);
            assert.equal(m.map.sameRegion(a, b, o), la >= 0 && la === lb, `${tag}: sameRegion ${a.x},${a.y} ${b.x},${b.y}`);
          }
          if (edit % 4 === 0) {
            const fit = [];
            for (let i = 0; i < w * h; i++) if (ref.label[i] >= 0) fit.push({ x: i % w, y: (i / w) | 0 });
            const pairs = [[cell(), cell()]];
            for (let q = 0; q < 4 && fit.length; q++) pairs.push([fit[Math.floor(r() * fit.length)], fit[Math.floor(r() * fit.length)]]);
            answered += checkRegionQueries(pf, m, w, h, n, rule, ref, pairs, tag);
          }
          checked++;
        }
        // one edit at a time: a wall placed or removed, or a cost changed (the map's edit API)
        const c = cell();
        m.set(c.x, c.y, r() < 0.5 ? 1 : Math.floor(r() * 4));
      }
      assert.equal(m.map.regionId(-1, 0), -1);
      assert.equal(m.map.regionId(w, 0), -1);
      m.map.free();
    }
    assert.ok(checked > 500 && answered > 10, `${checked} checks, ${answered} answered by regions`);
    pf.free();
  });
}

test("regions: begin/step/result and findMany answer unreachable goals at once; larger sizes rebuild", () => {
  // two rooms split by a wall; the right one has a 1-wide door into a pocket
  const map = TileMap.fromText([
    "....#.....",
    "....#.....",
    "....#.##.#",
    "....#.#..#",
    "....#.#..#",
  ]);
  const pf = new PathFinder(map), a = { x: 0, y: 0 }, b = { x: 9, y: 0 };
  assert.equal(map.sameRegion(a, b), false);
  assert.equal(map.sameRegion(a, { x: 3, y: 4 }), true);
  assert.equal(map.regionCount(), 2);
  assert.equal(pf.begin(map, a, b), "no path");
  assert.equal(pf.step(), "no path");
  const r = pf.result();
  assert.equal(r.found, false);
  assert.equal(r.expanded, 0);
  const many = pf.findMany(map, [{ start: a, goal: b }, { start: a, goal: { x: 3, y: 4 } }]);
  assert.equal(many.found, 1);
  assert.equal(many.costs[0], Infinity);
  // size 2: the pocket at (7..8, 3..4) is its own region (the door at y = 2 is one cell wide)
  assert.equal(map.regionCount({ size: 2 }), 3);
  assert.equal(map.sameRegion({ x: 5, y: 0 }, { x: 7, y: 3 }, { size: 2 }), false);
  assert.equal(map.sameRegion({ x: 5, y: 0 }, { x: 7, y: 3 }), true);
  const r2 = pf.find(map, { x: 5, y: 0 }, { x: 7, y: 3 }, { size: 2 });
  assert.equal(r2.found, false);
  assert.equal(r2.expanded, 0);
  // size 3 asked later: the regions are made anew with the larger size
  assert.equal(map.regionCount({ size: 3 }), 1);
  assert.equal(map.regionId(0, 0, { size: 3 }), 0);
  assert.equal(map.regionId(5, 0, { size: 3 }), -1);
  // an edit that opens the wall joins the rooms
  map.set(4, 0, 0);
  assert.equal(map.sameRegion(a, b), true);
  assert.equal(pf.find(map, a, b).found, true);
  assert.ok(map.regionsMemory() > 0);
  pf.free();
  map.free();
});

test("regions: bad options throw a TilenavError", () => {
  const map = TileMap.fromText(["...", "..."]), pf = new PathFinder(map);
  const bad = [
    () => map.regionId(0, 0, { size: 0 }), () => map.regionId(0, 0, { size: 1.5 }),
    () => map.regionCount({ size: 256 }), () => map.regionCount({ size: "2" }),
    () => map.regionGrid({ diagonal: "sideways" }), () => map.sameRegion({ x: 0, y: 0 }, { x: 1, y: 0 }, { diagonal: 7 }),
    () => map.sameRegion({ x: 0, y: 0 }, { x: 0.5, y: 0 }), () => map.sameRegion({ x: 0, y: 0 }, null),
    () => map.regionId("1", 0), () => map.regionCount(null),
    () => pf.find(map, { x: 0, y: 0 }, { x: 1, y: 0 }, { regions: "yes" }),
    () => pf.begin(map, { x: 0, y: 0 }, { x: 1, y: 0 }, { regions: 1 }),
    () => pf.findMany(map, [0, 0, 1, 0], { regions: null }),
  ];
  for (const f of bad) assert.throws(f, (e) => e instanceof TilenavError && e.status === -1, String(f));
  assert.equal(map.regionId(0, 0, { diagonal: "4" }), 0);
  pf.free();
  map.free();
});

// ---- argument checks: cells, option names, crowd agents -----------------------------------

test("cells are checked everywhere: {x, y} with integer coordinates, else a TilenavError", () => {
  const map = TileMap.fromText(["......", "......", "......", "......", "......"]);
  const pf = new PathFinder(map), field = new FlowField(map).build({ x: 5, y: 4 });
  const cell = (re) => (e) => e instanceof TilenavError && e.status === -1 && re.test(e.message);
  const s = { x: 0, y: 0 }, g = { x: 5, y: 4 };
  const badCells = [
    [[0, 0], /start must be a cell \{x, y\}, got \[0,0\]/],
    [{ col: 0, row: 0 }, /start must be a cell \{x, y\}, got \{"col":0,"row":0\}/],
    [{ x: "1", y: 0 }, /start: a cell coordinate must be an integer, got x = "1"/],
    [{ x: 1.5, y: 0 }, /start: a cell coordinate must be an integer, got x = 1.5/],
    [{ x: 1, y: NaN }, /got y = NaN/],
    [null, /start must be a cell/],
    [undefined, /start must be a cell/],
  ];
  for (const [c, re] of badCells) {
    assert.throws(() => pf.find(map, c, g), cell(re), `find ${JSON.stringify(c)}`);
    assert.throws(() => pf.begin(map, c, g), cell(re), `begin ${JSON.stringify(c)}`);
    assert.throws(() => pf.findMany(map, [{ start: c, goal: g }]), cell(re), `findMany ${JSON.stringify(c)}`);
    assert.throws(() => field.pathFrom(c), cell(re), `pathFrom ${JSON.stringify(c)}`);
    assert.throws(() => pf.find(map, s, c), cell(/goal/), `find goal ${JSON.stringify(c)}`);
  }
  // the stranger's case: arrays used to read as (0, 0) and give found true, length 1, cost 0
  assert.throws(() => pf.find(map, [0, 0], [5, 4]), TilenavError);
  assert.throws(() => pf.findMany(map, [0, 0, 1.5, 0]), cell(/findMany: query 0: a cell coordinate must be an integer, got 1.5/));
  assert.throws(() => pf.findMany(map, [0, 0, "1", 0]), cell(/got "1"/));
  assert.throws(() => field.build([{ x: 5, y: 4 }, [1, 1]]), cell(/FlowField.build: goal 1 must be a cell/));
  assert.throws(() => field.build({ x: 5.5, y: 4 }), cell(/FlowField.build: goal 0/));
  assert.throws(() => field.wouldWallOff([{ x: 1, y: "1" }], [s]), cell(/wouldWallOff: cell 0/));
  assert.throws(() => field.wouldWallOff([{ x: 1, y: 1 }], [[0, 0]]), cell(/wouldWallOff: spawn 0/));
  // outside the map: a cell and a spawn alike throw "out of map", naming the one
  assert.throws(() => field.wouldWallOff([{ x: 1, y: 1 }, { x: -1, y: 0 }], [s]), (e) => e instanceof TilenavError && e.status === -9 && /wouldWallOff: cell 1 \{x: -1, y: 0\} is outside the/.test(e.message));
  assert.throws(() => field.wouldWallOff([{ x: 1, y: 1 }], [s, { x: 0, y: 99 }]), (e) => e instanceof TilenavError && e.status === -9 && /wouldWallOff: spawn 1 \{x: 0, y: 99\} is outside the/.test(e.message));
  assert.throws(() => new GridWanderer(map, [0, 0]), cell(/GridWanderer: cell must be a cell/));
  assert.throws(() => new GridWanderer(map, { x: 0.5, y: 0 }), cell(/GridWanderer: cell/));
  assert.throws(() => map.set(1.5, 0, 1), cell(/TileMap.set/));
  assert.throws(() => map.set("1", 0, 1), cell(/TileMap.set/));
  // good cells still work, an Int32Array batch too; the field and map are unchanged
  assert.equal(pf.find(map, s, g).path.length, 6);
  assert.equal(pf.findMany(map, new Int32Array([0, 0, 5, 4])).found, 1);
  assert.equal(pf.findMany(map, [0, 0, 5, 4]).found, 1);
  assert.equal(field.pathFrom(s).found, true);
  assert.equal(map.get(1, 0), 0);
  field.free(); pf.free(); map.free();
});

test("x, y arguments of 2^32 and beyond never wrap to another cell (the module's int32): outside answers, or 'out of map'", () => {
  const map = TileMap.fromText([".#..", "....", "...."]); // (1, 0) is a wall: 2^32 + 1 read x = 1, 2^32 read 0
  const field = new FlowField(map).build({ x: 3, y: 2 }), hier = new Hierarchy(map, { sectorSize: 4 });
  const sf = hier.sectorField({ x: 3, y: 2 }), rev = map.revision;
  const out = (re) => (e) => e instanceof TilenavError && e.status === -9 && re.test(e.message);
  for (const v of [2 ** 32, 2 ** 32 + 1, 1 - 2 ** 32, 2 ** 53, 2 ** 40 + 2, -1, 4])
    for (const [x, y] of [[v, 0], [0, v]]) {
      const tag = `(${x}, ${y})`;
      assert.equal(map.get(x, y), -1, tag);
      assert.equal(map.passable(x, y), false, tag);
      assert.equal(map.cost(x, y), Infinity, tag);
      assert.equal(map.fits(x, y), false, tag);
      assert.equal(map.fits(x, y, 2), false, tag);
      assert.equal(map.clearance(x, y), 0, tag);
      assert.equal(map.regionId(x, y), -1, tag);
      assert.equal(map.regionId(x, y, { diagonal: "always" }), -1, tag);
      assert.equal(map.sameRegion({ x, y }, { x: 0, y: 0 }), false, tag);
      assert.equal(map.sameRegion({ x: 0, y: 0 }, { x, y }), false, tag);
      assert.equal(field.direction(x, y), -1, tag);
      assert.equal(field.distance(x, y), Infinity, tag);
      assert.equal(hier.sectorOf(x, y), -1, tag);
      assert.throws(() => map.set(x, y, 1), out(new RegExp(`TileMap.set: cell \\{x: ${x}, y: ${y}\\} is outside the 4x3 map`)), tag);
      assert.throws(() => hier.find({ x, y }, { x: 0, y: 0 }), out(/Hierarchy.find: start .* is outside the 4x3 map/), tag);
      assert.throws(() => hier.find({ x: 0, y: 0 }, { x, y }), out(/Hierarchy.find: goal/), tag);
      assert.throws(() => sf.direction(x, y), out(/SectorField.direction: cell/), tag);
      assert.throws(() => sf.path({ x, y }), out(/SectorField.path: start/), tag);
      assert.throws(() => sf.setGoal({ x, y }), out(/SectorField.setGoal: goal 0/), tag);
      assert.throws(() => new GridWanderer(map, { x, y }), out(/GridWanderer: cell/), tag);
    }
  // nothing was written, and the cells the wrapped coordinates named read as before
  assert.deepEqual([map.get(0, 0), map.get(1, 0), map.revision], [0, 1, rev]);
  assert.deepEqual(sf.goals, [{ x: 3, y: 2 }]);
  assert.equal(hier.sectorOf(3, 2), 0);
  assert.equal(field.direction(0, 0), field.directions()[0]);
  sf.free(); hier.free(); field.free(); map.free();
});

test("x, y arguments that are not integers (NaN, 0.5, \"1\", undefined) throw a TilenavError naming the argument, everywhere", () => {
  const map = TileMap.fromText(["....", "....", "...."]);
  const field = new FlowField(map).build({ x: 3, y: 2 }), hier = new Hierarchy(map, { sectorSize: 4 });
  const sf = hier.sectorField({ x: 3, y: 2 }), c = { x: 0, y: 0 }, rev = map.revision;
  const methods = {
    "TileMap.get": (x, y) => map.get(x, y), "TileMap.passable": (x, y) => map.passable(x, y),
    "TileMap.cost": (x, y) => map.cost(x, y), "TileMap.set": (x, y) => map.set(x, y, 1),
    "TileMap.fits": (x, y) => map.fits(x, y), "TileMap.clearance": (x, y) => map.clearance(x, y),
    "TileMap.center": (x, y) => map.center(x, y), "TileMap.regionId": (x, y) => map.regionId(x, y),
    "TileMap.sameRegion: a": (x, y) => map.sameRegion({ x, y }, c), "TileMap.sameRegion: b": (x, y) => map.sameRegion(c, { x, y }),
    "TileMap.fill": (x, y) => map.fill(x, y, 1, 1, 1), "TileMap.setRect": (x, y) => map.setRect(x, y, 1, 1, [1]),
    "FlowField.direction": (x, y) => field.direction(x, y), "FlowField.distance": (x, y) => field.distance(x, y),
    "Hierarchy.sectorOf": (x, y) => hier.sectorOf(x, y), "Hierarchy.find: start": (x, y) => hier.find({ x, y }, c),
    "SectorField.direction": (x, y) => sf.direction(x, y), "SectorField.window": (x, y) => sf.window(x, y, 1, 1),
    "SectorField.path: start": (x, y) => sf.path({ x, y }),
  };
  for (const v of [NaN, 0.5, 0.9, -0.5, "1", "abc", undefined, null, Infinity, true])
    for (const [what, f] of Object.entries(methods))
      for (const [x, y, name] of [[v, 0, "x"], [0, v, "y"]]) {
        const shown = typeof v === "string" ? JSON.stringify(v) : String(v);
        assert.throws(() => f(x, y), (e) => e instanceof TilenavError && e.status === -1 &&
          e.message.startsWith(`${what}: a cell coordinate must be an integer, got ${name} = ${shown}`), `${what}(${shown}) as ${name}`);
      }
  assert.throws(() => map.get(), /TileMap.get: a cell coordinate must be an integer, got x = undefined/); // read (0, 0) before
  assert.throws(() => map.fill(0, 0, 1.5, 1, 1), /TileMap.fill: a cell coordinate must be an integer, got width = 1.5/);
  assert.throws(() => sf.window(0, 0, 1, "2"), /SectorField.window: .* got height = "2"/);
  assert.equal(map.revision, rev);
  sf.free(); hier.free(); field.free(); map.free();
});

test("map arguments: anything but a TileMap is a TypeError saying so (not 'TileMap used after free()')", () => {
  const map = TileMap.fromText(["....", "...."]), pf = new PathFinder(map), s = { x: 0, y: 0 }, g = { x: 3, y: 1 };
  const notMap = (what, got) => (e) => e instanceof TypeError && e.message === `tilenav: ${what}: map must be a TileMap, got ${got}`;
  assert.throws(() => pf.find(s, g), notMap("PathFinder.find", '{"x":0,"y":0}')); // the map left out
  assert.throws(() => pf.find("map", s, g), notMap("PathFinder.find", '"map"'));
  assert.throws(() => pf.begin(undefined, s, g), notMap("PathFinder.begin", "undefined"));
  assert.throws(() => pf.findMany([0, 0, 3, 1]), notMap("PathFinder.findMany", "[0,0,3,1]"));
  assert.throws(() => new FlowField(null), notMap("FlowField", "null"));
  assert.throws(() => new Hierarchy({}), notMap("Hierarchy", "{}"));
  assert.throws(() => new Crowd("map"), notMap("Crowd", '"map"'));
  assert.throws(() => new GridWanderer(s, s), notMap("GridWanderer", '{"x":0,"y":0}'));
  assert.throws(() => new Marbles({ map: { width: 4, height: 2 } }), notMap("Marbles", '{"width":4,"height":2}'));
  assert.throws(() => new PathFinder("x"), (e) => e instanceof TypeError && /PathFinder: sizeFor must be a TileMap or \{maxCells\}, got "x"/.test(e.message));
  assert.throws(() => new PathFinder(null), TypeError);
  assert.throws(() => new PathFinder({ maxCels: 64 }), /unknown option "maxCels" \(maxCells\)/);
  for (const maxCells of [0, -5, 1.5, "64", NaN, 2 ** 28 + 1])
    assert.throws(() => new PathFinder({ maxCells }), (e) => e instanceof TilenavError && e.status === -1 && /PathFinder: maxCells must be an integer from 1 to 268435456, got/.test(e.message));
  new PathFinder({ maxCells: 16 }).free();
  new PathFinder({}).free();
  assert.equal(pf.find(map, s, g).found, true);
  pf.free(); map.free();
});

test("numbers of options and counts are checked, naming the option: dt, maxSpeed, step counts, ids, seeds", () => {
  const map = TileMap.fromText(["......", "......", "......"]), pf = new PathFinder(map);
  const says = (re) => (e) => e instanceof TilenavError && e.status === -1 && re.test(e.message);
  for (const dt of [NaN, -1, 0, "x", Infinity])
    assert.throws(() => new Crowd(map, { dt }), says(/^Crowd: dt must be a finite number > 0, got/), String(dt));
  assert.throws(() => new Crowd(map, { capacity: 0 }), says(/Crowd: capacity must be an integer from 1 to 1048574, got 0/));
  assert.throws(() => new Crowd(map, { capacity: "8" }), says(/capacity .* got "8"/));
  assert.throws(() => new Crowd(map, { seed: -1 }), says(/Crowd: seed must be an integer from 0/));
  assert.throws(() => new Crowd(map, { neighbourRadius: -3 }), says(/Crowd: neighbourRadius must be a finite number > 0, got -3/));
  const crowd = new Crowd(map, { capacity: 4, dt: 1 / 30 });
  for (const maxSpeed of [NaN, -1, 0, "fast"])
    assert.throws(() => crowd.add({ x: 16, y: 16, maxSpeed }), says(/Crowd.add: maxSpeed must be a finite number > 0 and <= 1000000000, got/), String(maxSpeed));
  assert.throws(() => crowd.add({ x: 16, y: 16, maxForce: Infinity }), says(/Crowd.add: maxForce must be/));
  const id = crowd.add({ x: 16, y: 16, maxSpeed: 50 });
  assert.throws(() => crowd.setTarget(id, "seek", { x: NaN, y: 0 }), says(/Crowd.setTarget: goal must be a point/));
  assert.throws(() => crowd.setTarget(id, "arrive", { x: 1, y: "2" }), says(/Crowd.setTarget: goal must be a point .* got \{"x":1,"y":"2"\}/));
  assert.throws(() => crowd.remove(id + 2 ** 32), says(/Crowd.remove: id must be an integer from 1 to 4294967295/)); // removed agent `id` before
  assert.throws(() => crowd.setTarget(id + 2 ** 32, "none"), says(/Crowd.setTarget: id must be/));
  assert.equal(crowd.count, 1);
  for (const steps of [-1, 1.5, "2", NaN]) {
    assert.throws(() => crowd.step(steps), says(/Crowd.step: steps must be an integer from 0 to 2147483647/), String(steps));
    assert.throws(() => new Marbles({ width: 100, height: 100 }).step(steps), says(/Marbles.step: steps/));
  }
  crowd.step(0);
  crowd.step(2);
  // PathFinder.step: at least one expansion (-1, 0 and "x" answered "in progress" doing nothing)
  pf.begin(map, { x: 0, y: 0 }, { x: 5, y: 2 });
  for (const n of [-1, 0, "x", 1.5, NaN, 2 ** 31])
    assert.throws(() => pf.step(n), says(/PathFinder.step: maxExpansions must be an integer from 1 to 2147483647, got/), String(n));
  let st;
  while ((st = pf.step(1)) === "in progress");
  assert.equal(st, "ok");
  const w = new GridWanderer(map, { x: 0, y: 0 });
  assert.throws(() => w.step(-2), says(/GridWanderer.step: steps/));
  assert.throws(() => new GridWanderer(map, { x: 0, y: 0 }, { speed: 0 }), says(/GridWanderer: speed must be a finite number > 0, got 0/));
  assert.throws(() => new GridWanderer(map, { x: 0, y: 0 }, { seed: 0.5 }), says(/GridWanderer: seed must be an integer/));
  w.free(); crowd.free(); pf.free(); map.free();
});

test("bad arguments get tilenav's messages, not raw JavaScript errors, and name the bad value", async () => {
  const map = TileMap.fromText([".#..", "...."]), pf = new PathFinder(map);
  const typeErr = (re) => (e) => e instanceof TypeError && e.message.startsWith("tilenav: ") && re.test(e.message);
  const says = (status, re) => (e) => e instanceof TilenavError && e.status === status && re.test(e.message);
  assert.throws(() => TileMap.fromArray(null, 4), typeErr(/TileMap.fromArray: cells must be an array of cell values, got null/));
  assert.throws(() => TileMap.fromArray("0000", 2), typeErr(/cells must be an array .* got "0000"/));
  assert.throws(() => TileMap.fromText(42), typeErr(/TileMap.fromText: rows must be a string or an array of strings, got 42/));
  assert.throws(() => TileMap.fromText(["..", 12]), typeErr(/rows must be a string or an array of strings, got \["..",12\]/));
  assert.throws(() => TileMap.fromText([".."], { wall: 1 }), typeErr(/TileMap.fromText: wall must be a string/));
  // the stranger's messages.mjs: each says what is wrong (before: "number 1 is not iterable",
  // "cost of value 1 is 2", "cells has 3 values, expected 2", "width and height must be positive
  // integers", "TileMap.moveBox: invalid argument")
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [0, 1], blocked: 1 }), typeErr(/^tilenav: TileMap: blocked must be an array of cell values \(the values that block\), got 1$/));
  assert.throws(() => new TileMap({ width: 2, height: 1, blocked: "1" }), typeErr(/blocked must be an array .* got "1"/));
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [0, 1], costs: { 1: "2" } }), typeErr(/^tilenav: TileMap: the cost of value 1 must be a number >= 0 \(0 or Infinity = blocked\), got string "2"$/));
  assert.throws(() => new TileMap({ width: 2, height: 1, costs: { 3: -1 } }), typeErr(/the cost of value 3 must be a number >= 0 .* got -1$/));
  assert.throws(() => new TileMap({ width: 2, height: 1, costs: { 3: null } }), typeErr(/the cost of value 3 .* got null null$/));
  assert.throws(() => new TileMap({ width: 2, height: 1, costs: 5 }), typeErr(/TileMap: costs must be an object \{value: cost\}, got 5/));
  // a value in both costs and blocked (it was passable at its cost, silently): which terrain?
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [0, 1], costs: { 1: 2 }, blocked: [1] }),
    typeErr(/^tilenav: TileMap: value 1 is in both costs \(cost 2\) and blocked: give it one terrain/));
  assert.throws(() => TileMap.fromText(["#."], { costs: { 0: 1, 7: Infinity }, blocked: [3, 7] }), typeErr(/value 7 is in both costs \(cost Infinity\) and blocked/));
  assert.throws(() => TileMap.fromArray([0, 5], 2, { costs: new globalThis.Map([[5, 0]]), blocked: new Set([5]) }), typeErr(/value 5 is in both/));
  const viaMap = new TileMap({ width: 2, height: 1, cells: [0, 1], costs: new globalThis.Map([[1, 2.5]]) }); // a Map works too
  assert.equal(viaMap.cost(1, 0), 2.5);
  viaMap.free();
  assert.throws(() => TileMap.fromArray([0, 0, 0], 2), typeErr(/^tilenav: TileMap.fromArray: cells has 3 values, not a multiple of the width 2/));
  assert.throws(() => TileMap.fromArray([], 2), typeErr(/TileMap.fromArray: cells is empty/));
  for (const w of [0, -2, 1.5, "2", undefined]) assert.throws(() => TileMap.fromArray([0, 0], w), typeErr(/TileMap.fromArray: width must be a positive integer, got/), String(w));
  assert.throws(() => TileMap.fromText(""), typeErr(/^tilenav: TileMap.fromText: the text is empty \(no line with a character\)/));
  assert.throws(() => TileMap.fromText("\n\n"), typeErr(/TileMap.fromText: the text is empty/));
  assert.throws(() => TileMap.fromText(["", ""]), typeErr(/TileMap.fromText: the text is empty \(2 rows, none with a character\)/));
  const box = { x: 0, y: 0, w: 10, h: 10 };
  for (const [f, re] of [
    [() => map.moveBox(box, NaN, 0), /^TileMap.moveBox: dx must be a finite number of pixels, got NaN/],
    [() => map.moveBox(box, 0, "3"), /TileMap.moveBox: dy must be a finite number of pixels, got "3"/],
    [() => map.moveBox(box, 1e39, 0), /dx must be a finite number of pixels, got 1e\+39/], // no 32-bit float
    [() => map.moveBox({ ...box, w: -10 }, 5, 0), /^TileMap.moveBox: box.w must be > 0 \(the sprite's width in pixels\), got -10/],
    [() => map.moveBox({ ...box, h: 0 }, 5, 0), /box.h must be > 0 \(the sprite's height in pixels\), got 0/],
    [() => map.moveBox({ x: 0, y: 0, w: 10 }, 5, 0), /box.h must be a finite number of pixels, got undefined/],
    [() => map.moveBox({ ...box, areaY: NaN }, 5, 0), /box.areaY must be a finite number of pixels, got NaN/],
    [() => map.moveBox({ ...box, areaW: 4 }, 5, 0), /box.areaW and box.areaH must both be > 0 \(a collision area inside the sprite\) or both 0 \(none\), got 4 and 0/],
    [() => map.moveBox(null, 5, 0), /TileMap.moveBox: box must be \{x, y, w, h, areaX\?, areaY\?, areaW\?, areaH\?\} in pixels, got null/],
    [() => map.hitTestWalls({ ...box, w: -1 }), /^TileMap.hitTestWalls: box.w must be > 0/],
  ]) assert.throws(f, says(-1, re), String(re));
  assert.deepEqual(map.moveBox({ ...box, areaX: 2, areaY: 2, areaW: 4, areaH: 4 }, 3, 0), { x: 3, y: 0, blockedX: false, blockedY: false });
  assert.throws(() => pf.findMany(map, null), says(-1, /PathFinder.findMany: queries must be an array .* got null/));
  assert.throws(() => pf.findMany(map, 7), says(-1, /queries must be .* got 7/));
  const crowd = new Crowd(map);
  assert.throws(() => crowd.setFlow(0, {}), typeErr(/Crowd.setFlow: field must be a FlowField, a SectorField or null, got \{\}/));
  assert.throws(() => crowd.setFlow(0, map), typeErr(/Crowd.setFlow: field must be/));
  for (const source of [123, {}, [1, 2], true])
    await assert.rejects(init(source), typeErr(/init: source must be where tilenav.wasm is .* got/), String(source));
  // tile sizes: whole pixels from 1 (the C map's), named
  assert.throws(() => TileMap.fromArray([0, 0, 0, 0], 2, { tileSize: -3 }), says(-1, /^TileMap: tileSize must be an integer from 1 to 2147483647, got -3/));
  assert.throws(() => TileMap.fromArray([0, 0], 2, { tileWidth: 0, tileSize: 16 }), says(-1, /TileMap: tileWidth must be an integer .* got 0/));
  assert.throws(() => new TileMap({ width: 2, height: 2, tileHeight: 16.5 }), says(-1, /TileMap: tileHeight .* got 16.5/));
  assert.throws(() => new TileMap({ width: 2, height: 2, tileSize: "32" }), says(-1, /tileSize .* got "32"/));
  const t = TileMap.fromArray([0, 0], 2, { tileWidth: 16, tileSize: 8 });
  assert.deepEqual([t.tileWidth, t.tileHeight], [16, 8]);
  t.free();
  // FlowField.build([]), Marbles.add, GridWanderer on a wall: say what is wrong
  const field = new FlowField(map);
  assert.throws(() => field.build([]), says(-1, /FlowField.build: goals is \[\], needs a cell or an array of at least one/));
  const marbles = new Marbles({ map });
  for (const [args, re] of [[[NaN, 16, 1, 0, 4], /Marbles.add: x must be a finite number, got NaN/], [[16, 16, 1, "1", 4], /vy must be a finite number from -3.4028234663852886e\+38 to 3.4028234663852886e\+38, got "1"/],
    [[16, 16, 1, 0, 0], /r must be a finite number > 0, got 0/], [[48, 16, 0, 0, 4], /the marble at \(48, 16\) of radius 4 must be clear of the map's blocked cells/]])
    assert.throws(() => marbles.add(...args), says(-1, re), String(args));
  assert.throws(() => marbles.add(2, 16, 0, 0, 4), says(-9, /Marbles.add: the marble at \(2, 16\) of radius 4 must lie inside the 128 x 64 pixel world/));
  assert.equal(marbles.add(16, 16, 1, 0, 4), 0);
  assert.throws(() => marbles.setVelocity(1, 0, 0), says(-1, /Marbles.setVelocity: i must be the index of a marble .* got 1/));
  assert.throws(() => marbles.setVelocity(0, NaN, 0), says(-1, /Marbles.setVelocity: vx must be a finite number from -3.4028234663852886e\+38 to 3.4028234663852886e\+38, got NaN/));
  assert.throws(() => new Marbles({ width: 100, height: 100, capacity: 0 }), says(-1, /Marbles: capacity must be an integer from 1 to 65536, got 0/));
  assert.throws(() => new Marbles({ width: 100, height: 100, restitution: 2 }), says(-1, /Marbles: restitution must be a finite number from 0 to 1, got 2/));
  assert.throws(() => new GridWanderer(map, { x: 1, y: 0 }), says(-1, /GridWanderer: cell \{x: 1, y: 0\} is blocked \(a wanderer starts on a passable cell\)/));
  marbles.free(); field.free(); crowd.free(); pf.free(); map.free();
});

test("unknown option names throw a TypeError naming the option and the known ones", () => {
  const map = TileMap.fromText(["....", "...."]), pf = new PathFinder(map);
  const s = { x: 0, y: 0 }, g = { x: 3, y: 1 };
  const unknown = (key) => (e) => e instanceof TypeError && e.message.includes(`unknown option "${key}"`) && /\(.*size.*\)/.test(e.message);
  assert.throws(() => pf.find(map, s, g, { sise: 2 }), unknown("sise"));
  assert.throws(() => pf.find(map, s, g, { unitSize: 2 }), unknown("unitSize"));
  assert.throws(() => pf.begin(map, s, g, { sise: 2 }), unknown("sise"));
  assert.throws(() => pf.findMany(map, [0, 0, 3, 1], { sise: 2 }), unknown("sise"));
  assert.throws(() => new FlowField(map, { sise: 2 }), unknown("sise"));
  assert.throws(() => map.regionId(0, 0, { sise: 2 }), unknown("sise"));
  assert.throws(() => new Hierarchy(map, { sise: 2 }), unknown("sise"));
  assert.throws(() => new Hierarchy(map, { sectorSize: 4 }).sectorField(s, { budjet: 1 }), (e) => e instanceof TypeError && /unknown option "budjet" \(budget\)/.test(e.message));
  assert.throws(() => new Hierarchy(map, { sectorSize: 4 }).find(s, g, { exakt: true }), (e) => e instanceof TypeError && /unknown option "exakt"/.test(e.message));
  assert.throws(() => new TileMap({ width: 2, height: 2, tilesize: 16 }), (e) => e instanceof TypeError && /unknown option "tilesize"/.test(e.message));
  assert.throws(() => TileMap.fromText(["..", ".."], { walls: "x" }), (e) => e instanceof TypeError && /unknown option "walls"/.test(e.message));
  assert.throws(() => TileMap.fromArray([0, 0], 2, { blocks: [1] }), (e) => e instanceof TypeError && /unknown option "blocks"/.test(e.message));
  const crowd = new Crowd(map);
  assert.throws(() => crowd.add({ x: 16, y: 16, sise: 2 }), unknown("sise"));
  assert.throws(() => new Crowd(map, { capacty: 4 }), (e) => e instanceof TypeError && /unknown option "capacty"/.test(e.message));
  assert.throws(() => new GridWanderer(map, s, { sped: 2 }), (e) => e instanceof TypeError && /unknown option "sped"/.test(e.message));
  // the known ones pass, and so do undefined values and a map's fromText `wall`
  assert.equal(pf.find(map, s, g, { algo: "jps", diagonal: "no-cut", heuristic: "octile", weight: 1, stepCosts: "exact", closest: false, size: 1, regions: true }).found, true);
  assert.equal(pf.find(map, s, g, { size: undefined }).found, true);
  TileMap.fromText(["xx", ".."], { wall: "x", tileSize: 16 }).free();
  new FlowField(map, { diagonal: "never", flow: "steepest", lineOfSight: "simple", size: 1 }).free();
  crowd.free(); pf.free(); map.free();
});

test("Crowd.add and setFlow say what is wrong before the library refuses", () => {
  const map = TileMap.fromText(["......", "......", "...#..", "......"], { tileWidth: 32, tileHeight: 20 });
  const crowd = new Crowd(map, { capacity: 8 });
  const says = (re) => (e) => e instanceof TilenavError && e.status === -1 && re.test(e.message);
  assert.equal(crowd.maxFlows, 8);
  // radius below size x half the smaller tile side (20 / 2 = 10 pixels per size)
  assert.throws(() => crowd.add({ x: 16, y: 10, radius: 10 }), says(/radius 10 must be below size x half the smaller tile side: 1 x 20 \/ 2 = 10 pixels/));
  assert.throws(() => crowd.add({ x: 32, y: 20, radius: 25, size: 2 }), says(/radius 25 must be below .* 2 x 20 \/ 2 = 20 pixels/));
  assert.throws(() => crowd.add({ x: 16, y: 10, radius: -1 }), says(/radius must be a positive number/));
  assert.throws(() => crowd.add({ x: NaN, y: 10 }), says(/x and y must be finite numbers/));
  // flow slots 0..maxFlows-1
  assert.throws(() => crowd.add({ x: 16, y: 10, target: "flow", flow: 8 }), says(/flow slot must be an integer from 0 to 7, got 8/));
  assert.throws(() => crowd.add({ x: 16, y: 10, target: "flow", flow: 1.5 }), says(/flow slot .* got 1.5/));
  assert.throws(() => crowd.setFlow(-1, null), says(/slot must be an integer from 0 to 7, got -1/));
  const id = crowd.add({ x: 16, y: 10 });
  assert.throws(() => crowd.setTarget(id, "flow", 9), says(/flow slot must be an integer from 0 to 7, got 9/));
  // what a target needs: a goal for seek/arrive/flee, a slot holding a field for flow (both were
  // taken: the agent headed for pixel (0, 0), or stood still; the stranger's messages.mjs)
  for (const target of ["seek", "arrive", "flee", "SEEK"]) {
    assert.throws(() => crowd.add({ x: 16, y: 10, target }), says(new RegExp(`Crowd.add: target "${target.toLowerCase()}" needs a goal \\{x, y\\} in pixels, none given`)));
    assert.throws(() => crowd.setTarget(id, target), says(/Crowd.setTarget: target .* needs a goal \{x, y\} in pixels, none given/));
  }
  assert.throws(() => crowd.add({ x: 16, y: 10, target: "flow" }),
    (e) => e instanceof TilenavError && e.status === -15 && /Crowd.add: target "flow" follows flow slot 0, which holds no field: call setFlow\(0, field\) first/.test(e.message));
  assert.throws(() => crowd.add({ x: 16, y: 10, target: "flow", flow: 3 }), (e) => e.status === -15 && /flow slot 3, which holds no field: call setFlow\(3, field\) first$/.test(e.message.replace(/: state$/, "")));
  assert.throws(() => crowd.setTarget(id, "flow", 2), (e) => e.status === -15 && /Crowd.setTarget: target "flow" follows flow slot 2, which holds no field/.test(e.message));
  assert.equal(crowd.count, 1); // none of them was added
  // a slot holding a field of another size than the agent's
  const f1 = new FlowField(map).build({ x: 5, y: 3 }), f2 = new FlowField(map, { size: 2 }).build({ x: 4, y: 2 });
  crowd.setFlow(0, f2);
  crowd.setFlow(1, f1);
  assert.throws(() => crowd.add({ x: 16, y: 10, radius: 5, target: "flow", flow: 0 }),
    says(/flow slot 0 holds a FlowField for size 2 units, the agent's size is 1/));
  assert.throws(() => crowd.add({ x: 32, y: 20, radius: 12, size: 2, target: "flow", flow: 1 }),
    says(/flow slot 1 holds a FlowField for size 1 units, the agent's size is 2/));
  assert.throws(() => crowd.setTarget(id, "flow", 0), says(/flow slot 0 holds a FlowField for size 2 units, the agent's size is 1/));
  const a1 = crowd.add({ x: 16, y: 10, radius: 5, target: "flow", flow: 1 });
  const a2 = crowd.add({ x: 32, y: 20, radius: 12, size: 2, target: "flow", flow: 0 });
  assert.throws(() => crowd.setFlow(1, f2), says(/flow slot 1 is followed by agents of size 1, the FlowField is for size 2/));
  crowd.remove(a1);
  crowd.setFlow(1, f2); // nobody of size 1 follows it any more
  crowd.setTarget(a2, "arrive", { x: 100, y: 40 });
  crowd.setFlow(0, f1);
  crowd.step();
  // what the library still refuses: a circle over a wall or the map's edge
  assert.throws(() => crowd.add({ x: 3 * 32 + 16, y: 2 * 20 + 10, radius: 4 }), says(/inside the map and clear of blocked cells/));
  assert.throws(() => crowd.add({ x: 2, y: 10, radius: 4 }), says(/inside the map and clear of blocked cells/));
  crowd.free(); f1.free(); f2.free(); map.free();
});

test("objects dropped without free() give their module memory back when collected", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc"), settle = () => new Promise((r) => setTimeout(r, 0));
  const round = () => { // a map with everything that holds module memory on it, then dropped
    const m = new TileMap({ width: 300, height: 300 });
    new FlowField(m, { size: 2 }).build({ x: 5, y: 5 });
    new PathFinder(m).find(m, { x: 0, y: 0 }, { x: 9, y: 9 });
    m.hierarchy({ sectorSize: 16 }).find({ x: 0, y: 0 }, { x: 200, y: 200 });
    new Crowd(m).add({ x: 16, y: 16 });
    m.regionCount();
  };
  for (let i = 0; i < 3; i++) round();
  gc(); await settle(); gc(); await settle();
  const before = memoryBytes();
  for (let i = 0; i < 60; i++) { round(); if (i % 5 === 4) { gc(); await settle(); } }
  assert.ok(memoryBytes() <= before + 64 * 1024 * 1024, `memory grew from ${before} to ${memoryBytes()} bytes`);
  // free() still frees at once, and twice is harmless
  const m = new TileMap({ width: 4, height: 4 }), f = new FlowField(m).build({ x: 0, y: 0 });
  f.free(); f.free(); m.free(); m.free();
  assert.throws(() => m.get(0, 0), /TileMap used after free/);
});

test("objects made on a map throw 'TileMap used after free()' once it is freed, never read another map", () => {
  const m = TileMap.fromText(["........", "........", "........"]);
  const field = new FlowField(m).build({ x: 7, y: 1 }), big = new FlowField(m, { size: 2 }).build({ x: 6, y: 1 });
  const crowd = new Crowd(m);
  crowd.setFlow(0, field);
  crowd.add({ x: 16, y: 16, target: "flow", flow: 0 });
  const wanderer = new GridWanderer(m, { x: 0, y: 0 }), marbles = new Marbles({ map: m });
  marbles.add(40, 40, 1, 0, 4);
  const hier = m.hierarchy({ sectorSize: 4 }), finder = new PathFinder(m);
  assert.equal(finder.begin(m, { x: 0, y: 0 }, { x: 7, y: 2 }), "in progress");
  m.free();
  const other = TileMap.fromText(["########", "########", "########"]); // may reuse the freed memory
  other.set(0, 0, 0);
  const uaf = /tilenav: TileMap used after free\(\)/;
  for (const [what, f] of [
    ["field.update", () => field.update()], ["field.build", () => field.build({ x: 7, y: 1 })],
    ["field.distance", () => field.distance(0, 0)], ["field.distances", () => field.distances()],
    ["field.distancesView", () => field.distancesView()], ["field.vectorsView", () => field.vectorsView()],
    ["field.directions", () => field.directions()], ["field.direction", () => field.direction(0, 0)], ["field.lineOfSight", () => field.lineOfSight()],
    ["field.sample", () => field.sample(16, 16)], ["field.pathFrom", () => field.pathFrom({ x: 0, y: 0 })],
    ["field.wouldWallOff", () => field.wouldWallOff([{ x: 3, y: 1 }], [{ x: 0, y: 1 }])],
    ["field.reachableCount", () => field.reachableCount], ["size-2 field.update", () => big.update()],
    ["size-2 field.wouldWallOff", () => big.wouldWallOff([{ x: 3, y: 1 }], [{ x: 0, y: 0 }])],
    ["crowd.step", () => crowd.step(10)], ["crowd.agents", () => crowd.agents()], ["crowd.view", () => crowd.view()],
    ["crowd.add", () => crowd.add({ x: 16, y: 16 })], ["crowd.setFlow", () => crowd.setFlow(1, field)],
    ["crowd.count", () => crowd.count], ["crowd.maxWallOverlap", () => crowd.maxWallOverlap()],
    ["wanderer.step", () => wanderer.step()], ["wanderer.state", () => wanderer.state()],
    ["marbles.step", () => marbles.step()], ["marbles.marbles", () => marbles.marbles()],
    ["hier.find", () => hier.find({ x: 0, y: 0 }, { x: 7, y: 2 })], ["hier.sectorOf", () => hier.sectorOf(0, 0)],
    ["finder.step", () => finder.step()], ["finder.result", () => finder.result()],
  ]) assert.throws(f, uaf, what);
  for (const o of [field, big, crowd, wanderer, marbles, hier, finder]) o.free(); // freeing them still works
  assert.equal(other.passable(0, 0), true);
  other.free();
});

test("cell values: integers from 0 to MAX_CELL_VALUE everywhere, never wrapped modulo 2^32; Tiled flip flags", async () => {
  assert.equal(MAX_CELL_VALUE, 4194302);
  const m = new TileMap({ width: 3, height: 1, cells: [0, 5, 5], costs: { 0: 1, 5: Infinity, [MAX_CELL_VALUE]: 2 } });
  m.set(0, 0, MAX_CELL_VALUE);
  assert.equal(m.get(0, 0), MAX_CELL_VALUE);
  assert.equal(m.cost(0, 0), 2);
  const tooLarge = (e) => e instanceof TilenavError && e.status === -3 && e.message.includes("above the largest cell value, 4194302");
  const notInteger = (e) => e instanceof TypeError && e.message.includes("a cell value is an integer from 0 to 4194302");
  for (const v of [MAX_CELL_VALUE + 1, 2 ** 32 + 5, 2 ** 32, 2 ** 40]) assert.throws(() => m.set(1, 0, v), tooLarge, String(v));
  for (const v of [-1, 1.5, NaN, Infinity, "1", null]) assert.throws(() => m.set(1, 0, v), notInteger, String(v));
  assert.equal(m.get(1, 0), 5); // untouched, and so is the other 5
  assert.equal(m.passable(2, 0), false);
  assert.throws(() => TileMap.fromArray([0, 2 ** 32, 0], 3), (e) => tooLarge(e) && /cell 1 \(x 1, y 0\) is 4294967296/.test(e.message));
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: new Uint32Array([0, 0xffffffff]) }), tooLarge);
  assert.throws(() => new TileMap({ width: 3, height: 1, costs: { 0: 1, 4294967296: Infinity } }), (e) => tooLarge(e) && /costs key "4294967296"/.test(e.message));
  for (const k of ["-1", "1.5", "abc"]) assert.throws(() => new TileMap({ width: 3, height: 1, costs: { [k]: 1 } }), notInteger, k);
  assert.throws(() => new TileMap({ width: 3, height: 1, blocked: [2 ** 32] }), tooLarge);
  // a raw Tiled gid with flip flags says what it is
  assert.throws(() => new TileMap({ width: 2, height: 1, cells: [1, 0x80000001] }), (e) => tooLarge(e) && /flip flags\? .*gid & 0x0fffffff = 1\)/.test(e.message));
  m.free();
  // the Tiled loader strips the flags: tile 1 blocks however it is flipped
  const F = [0x80000000, 0x40000000, 0x20000000, 0xa0000000, 0xe0000000];
  const tiled = {
    type: "map", orientation: "orthogonal", width: 7, height: 1, tilewidth: 16, tileheight: 16, infinite: false,
    tilesets: [{ firstgid: 1, tilewidth: 16, tileheight: 16, tilecount: 2, tiles: [{ id: 0, properties: [{ name: "collides", type: "bool", value: true }] }] }],
    layers: [{ type: "tilelayer", name: "ground", width: 7, height: 1, data: [1, ...F.map((f) => f + 1), 2] }],
  };
  const t = await TileMap.fromTiled(tiled);
  assert.deepEqual(Array.from(t.passableGrid()), [0, 0, 0, 0, 0, 0, 1]);
  t.free();
  // a map without `cells` is all 0, also in memory a freed map of walls held
  for (let i = 0; i < 3; i++) {
    TileMap.fromArray(new Array(4096).fill(9), 64).free();
    const fresh = new TileMap({ width: 64, height: 64 });
    assert.ok(fresh.passableGrid().every((p) => p === 1));
    fresh.free();
  }
});

test("small checks: short text rows, flat findMany length, step() without begin(), distance() before build(), not-found results, messages", () => {
  const isErr = (status, re) => (e) => e instanceof TilenavError && e.status === status && re.test(e.message);
  // fromText: every row as wide (a short row was padded with walls)
  assert.throws(() => TileMap.fromText(["..#", "."]), (e) => e instanceof TypeError && /row 1 has 1 characters, row 0 has 3/.test(e.message));
  assert.throws(() => TileMap.fromText("..\n...\n.."), /row 0 has 2 characters, row 1 has 3/);
  const m = TileMap.fromText("....\n.##.\n....\n", { wall: "#" }); // a trailing newline is no row
  assert.equal(m.height, 3);
  const pf = new PathFinder(m);
  // findMany: flat numbers come in fours
  for (const flat of [[0, 0, 3], [0, 0, 3, 0, 1], new Int32Array(5)])
    assert.throws(() => pf.findMany(m, flat), isErr(-1, new RegExp(`flat queries are 4 numbers each \\(sx, sy, gx, gy\\), got ${flat.length} numbers`)));
  assert.throws(() => pf.findMany(m, [0, 0, 9, 0]), isErr(-9, /query 0: goal \{x: 9, y: 0\} is outside the 4x3 map/));
  assert.equal(pf.findMany(m, [0, 0, 3, 0, 0, 0, 3, 2]).found, 2);
  // step()/result() belong to begin(): "state" before any, and after a plain find() or findMany()
  assert.throws(() => pf.step(), isErr(-15, /PathFinder.step/));
  pf.find(m, { x: 0, y: 0 }, { x: 3, y: 0 });
  assert.throws(() => pf.step(), isErr(-15, /no query begun/));
  assert.throws(() => pf.result(), isErr(-15, /PathFinder.result/));
  assert.equal(pf.begin(m, { x: 0, y: 0 }, { x: 3, y: 2 }), "in progress");
  while (pf.step(1) === "in progress");
  assert.equal(pf.result().found, true);
  pf.findMany(m, [0, 0, 3, 0]);
  assert.throws(() => pf.step(), isErr(-15, /no query begun/));
  pf.begin(m, { x: 0, y: 0 }, { x: 3, y: 2 });
  pf.cancel();
  assert.throws(() => pf.step(), isErr(-15, /PathFinder.step/));
  // FlowField.distance() before build(): "state", as distances()
  const f = new FlowField(m);
  assert.throws(() => f.distance(0, 0), isErr(-15, /FlowField.distance \(build first\)/));
  assert.throws(() => f.distances(), isErr(-15, /build first/));
  // and sample(), direction(), reachableCount (they answered {0, 0}, -1 and 0: the stranger's messages.mjs)
  assert.throws(() => f.sample(40, 40), isErr(-15, /FlowField.sample \(build first\)/));
  assert.throws(() => f.direction(0, 0), isErr(-15, /FlowField.direction \(build first\)/));
  assert.throws(() => f.reachableCount, isErr(-15, /FlowField.reachableCount \(build first\)/));
  f.build({ x: 3, y: 0 });
  assert.equal(f.distance(3, 0), 0);
  assert.equal(f.distance(-1, 0), Infinity);
  assert.throws(() => f.distance(0.5, 0), isErr(-1, /integer/));
  assert.equal(f.direction(-1, 0), -1);
  assert.ok(f.reachableCount > 0);
  assert.deepEqual(f.sample(-100, 5), { x: 0, y: 0 }); // outside the map: no direction
  // sample() of a built field: px and py finite numbers (NaN answered {0, 0}, "5" was read as 5)
  for (const [px, py, name, shownV] of [[NaN, 5, "px", "NaN"], [5, Infinity, "py", "Infinity"], ["5", 5, "px", '"5"'], [5, undefined, "py", "undefined"]])
    assert.throws(() => f.sample(px, py), (e) => e instanceof TypeError && e.message === `tilenav: FlowField.sample: ${name} must be a finite number of pixels, got ${shownV}`);
  // not found: cost Infinity and end {x: -1, y: -1}, from find(), begin()/result() alike
  const blocked = { x: 1, y: 1 }, walled = TileMap.fromText(["..#.", "..#."]);
  for (const [map, s, g, status] of [[m, { x: 0, y: 0 }, blocked, "goal blocked"], [m, blocked, { x: 0, y: 0 }, "start blocked"],
    [walled, { x: 0, y: 0 }, { x: 3, y: 0 }, "no path"]])
    for (const regions of [true, false]) {
      const one = pf.find(map, s, g, { regions });
      pf.begin(map, s, g, { regions });
      let st;
      while ((st = pf.step(1)) === "in progress");
      const sliced = pf.result();
      for (const r of [one, sliced]) {
        assert.equal(r.found, false);
        assert.equal(r.status, status);
        assert.equal(r.cost, Infinity, `${status}, regions ${regions}`);
        assert.deepEqual(r.end, { x: -1, y: -1 });
      }
      assert.equal(st, status);
    }
  walled.free();
  // messages name the cell and the map, the option, the reason
  assert.throws(() => pf.find(m, { x: 0, y: 0 }, { x: 600, y: 3 }), isErr(-9, /PathFinder.find: goal \{x: 600, y: 3\} is outside the 4x3 map/));
  assert.throws(() => pf.begin(m, { x: -1, y: 0 }, { x: 0, y: 0 }), isErr(-9, /PathFinder.begin: start \{x: -1, y: 0\} is outside the 4x3 map/));
  for (const weight of [0.5, 0, NaN, Infinity, "2"])
    assert.throws(() => pf.find(m, { x: 0, y: 0 }, { x: 3, y: 0 }, { weight }), isErr(-1, /PathFinder.find: weight must be a finite number >= 1, got/));
  assert.throws(() => pf.findMany(m, [0, 0, 3, 0], { weight: 0.9 }), isErr(-1, /findMany: weight must be/));
  assert.throws(() => pf.find(m, { x: 0, y: 0 }, { x: 3, y: 0 }, { stepCosts: "10-14" }), isErr(-1, /stepCosts must be "exact" or "10\/14"/));
  assert.throws(() => f.build({ x: 9, y: 0 }), isErr(-9, /FlowField.build: goal \{x: 9, y: 0\} is outside the 4x3 map/));
  assert.throws(() => f.pathFrom({ x: 0, y: 7 }), isErr(-9, /FlowField.pathFrom: start \{x: 0, y: 7\} is outside the 4x3 map/));
  const los = new FlowField(m, { lineOfSight: "exact" });
  assert.throws(() => los.build([{ x: 0, y: 0 }, { x: 3, y: 2 }]), isErr(-8, /lineOfSight needs a single goal, got 2 \(.*nearest by path/));
  los.build({ x: 3, y: 2 });
  for (const o of [f, los, pf, m]) o.free();
});

test("TileMap.fill and setRect: a rectangle is one edit, so FlowField.update() stays local", () => {
  const R = rng(23), W = 48, H = 40;
  const map = new TileMap({ width: W, height: H, costs: { 0: 1, 1: Infinity, 2: 3, 3: 0.5 } });
  const mirror = new Uint32Array(W * H), goal = { x: W - 1, y: H - 1 };
  const field = new FlowField(map).build(goal);
  for (let k = 0; k < 150; k++) {
    const w = 1 + Math.floor(R() * 12), h = 1 + Math.floor(R() * 12);
    const x = Math.floor(R() * (W - w + 1)), y = Math.floor(R() * (H - h + 1));
    const mixed = R() < 0.4, one = Math.floor(R() * 4);
    const values = Array.from({ length: w * h }, () => (mixed ? Math.floor(R() * 4) : one));
    let changed = 0;
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) {
      const at = (y + j) * W + x + i;
      if (mirror[at] !== values[j * w + i]) changed++;
      mirror[at] = values[j * w + i];
    }
    const rev = map.revision;
    const n = mixed ? map.setRect(x, y, w, h, values) : map.fill(x, y, w, h, one);
    const logged = map.revision - rev;
    assert.equal(n, changed, `edit ${k}: cells changed`);
    // one logged change, except 8 or fewer changed cells of mixed values (one each); none when
    // nothing changes
    if (changed === 0) assert.equal(logged, 0, `edit ${k}`);
    else if (changed > 8 || new Set(values).size === 1) assert.equal(logged, 1, `edit ${k}: ${logged} changes logged for ${changed} cells`);
    else assert.ok(logged >= 1 && logged <= changed, `edit ${k}: ${logged} changes logged for ${changed} cells`);
    map.set(goal.x, goal.y, 0); // the goal stays open
    mirror[goal.y * W + goal.x] = 0;
    for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) assert.equal(map.get(i, j), mirror[j * W + i], `edit ${k}: cell (${i}, ${j})`);
    if (k % 10 === 9) {
      field.update();
      const fresh = new FlowField(map).build(goal);
      assert.deepEqual(Array.from(field.distances()), Array.from(fresh.distances()), `edit ${k}: update() = a fresh build`);
      fresh.free();
    }
  }
  // a 10 x 10 block on an open map: one change, a local update (not every cell)
  const open = new TileMap({ width: 64, height: 64, blocked: [1] }), f = new FlowField(open).build({ x: 63, y: 63 });
  const rev = open.revision;
  assert.equal(open.fill(10, 10, 10, 10, 1), 100);
  assert.equal(open.revision, rev + 1);
  const touched = f.update();
  assert.ok(touched > 0 && touched < 64 * 64 / 4, `a 10 x 10 fill recomputed ${touched} cells`);
  assert.equal(open.fill(10, 10, 10, 10, 1), 0); // nothing changes: nothing written
  assert.equal(open.revision, rev + 1);
  assert.equal(open.fill(0, 0, 0, 5, 1), 0);
  assert.throws(() => open.fill(60, 60, 5, 5, 1), /TileMap.fill\(60, 60, 5, 5\): the rectangle must lie inside the 64 x 64 map: out of map/);
  assert.throws(() => open.setRect(0, 0, 2, 1, [1]), /values has 1 entries, expected 2 x 1 = 2/);
  assert.throws(() => open.setRect(0, 0, 2, 1, [1, -1]), /value 1 \(x 1, y 0\) is -1/);
  assert.throws(() => open.fill(0.5, 0, 1, 1, 1), TilenavError);
  assert.equal(open.get(1, 0), 0); // nothing written by the refused calls
  f.free(); open.free(); field.free(); map.free();
});

test("Crowd rows are in no fixed order: view() and agents() are read through the ids (the README's way)", () => {
  const map = TileMap.fromText(["................", "................", "................", "................"], { tileSize: 32 });
  const crowd = new Crowd(map, { capacity: 16 });
  const sprites = new Map(); // id -> the sprite the README's loop moves
  const ids = [];
  for (let i = 0; i < 10; i++) {
    const id = crowd.add({ x: 20 + i * 45, y: 20 + (i % 3) * 40, target: "seek", goal: { x: 500 - i * 40, y: 100 } });
    ids.push(id);
    sprites.set(id, { x: NaN, y: NaN });
  }
  crowd.remove(ids[2]); sprites.delete(ids[2]);
  let reordered = false;
  for (let k = 0; k < 30; k++) {
    crowd.step(2);
    const { count, stride, ids: rowIds, data } = crowd.view();
    for (let i = 0; i < count; i++) sprites.get(rowIds[i]).x = data[i * stride], sprites.get(rowIds[i]).y = data[i * stride + 1];
    const byId = new Map(crowd.agents().map((a) => [a.id, a]));
    assert.equal(byId.size, sprites.size);
    for (const [id, s] of sprites) assert.deepEqual([s.x, s.y], [byId.get(id).x, byId.get(id).y], `agent ${id}`);
    const order = Array.from(crowd.view().ids);
    if (order.some((id, i) => id !== ids.filter((x) => x !== ids[2])[i])) reordered = true;
  }
  assert.ok(reordered, "the rows kept the order of add(): the docs say it changes");
  crowd.free(); map.free();
});

test("every public property an object has is declared in the .d.ts (or private: _name)", async () => {
  // the stranger found Marbles.map at run time but not in tilenav.d.ts
  const { readFileSync } = await import("node:fs");
  const PF = (await import("../pkg/compat/pathfinding.mjs")).default;
  const body = (file, cls) => { // the declaration of class `cls` in a .d.ts
    const dts = readFileSync(new URL(`../pkg/${file}`, import.meta.url), "utf8");
    const i = dts.search(new RegExp(`export (declare )?class ${cls}\\b`));
    assert.ok(i >= 0, `${cls} in ${file}`);
    let depth = 0, k = dts.indexOf("{", i);
    const j = k;
    for (; k < dts.length; k++) if (dts[k] === "{") depth++; else if (dts[k] === "}" && !--depth) break;
    const own = dts.slice(j, k), base = /extends (\w+)/.exec(dts.slice(i, j));
    return base ? own + body(file, base[1]) : own;
  };
  const map = TileMap.fromText(["....", "....", "...."]), field = new FlowField(map).build({ x: 0, y: 0 });
  const hier = new Hierarchy(map, { sectorSize: 4 }), crowd = new Crowd(map), sf = hier.sectorField({ x: 1, y: 1 });
  const grid = new PF.Grid(3, 3);
  const objects = [["tilenav.d.ts", "TileMap", map], ["tilenav.d.ts", "PathFinder", new PathFinder(map)], ["tilenav.d.ts", "FlowField", field],
    ["tilenav.d.ts", "Hierarchy", hier], ["tilenav.d.ts", "SectorField", sf], ["tilenav.d.ts", "Crowd", crowd],
    ["tilenav.d.ts", "Marbles", new Marbles({ map })], ["tilenav.d.ts", "Marbles", new Marbles({ width: 10, height: 10 })],
    ["tilenav.d.ts", "AngleCar", new AngleCar({ width: 1, height: 1, angles: [0], friction: [1], x: 1, y: 1 })],
    ["tilenav.d.ts", "GridWanderer", new GridWanderer(map, { x: 0, y: 0 })],
    ["compat/pathfinding.d.ts", "Grid", grid], ["compat/pathfinding.d.ts", "Grid", grid.clone()], ["compat/pathfinding.d.ts", "Node", grid.nodes[0][0]],
    ["compat/pathfinding.d.ts", "Node", new PF.Node(1, 2)],
    ...["AStarFinder", "BestFirstFinder", "DijkstraFinder", "JumpPointFinder"].map((f) => ["compat/pathfinding.d.ts", f, new PF[f]()])];
  for (const [file, cls, o] of objects) {
    const decl = body(file, cls);
    for (const k of Object.keys(o))
      if (!k.startsWith("_")) assert.match(decl, new RegExp(`\\b${k}\\??\\s*[:(]`), `${cls}.${k} is not declared in ${file}`);
  }
  grid.free(); sf.free(); crowd.free(); hier.free(); field.free(); map.free();
});

test("FlowField.current: false after a map change until update(); readers answer from the old field, pathFrom and wouldWallOff throw \"map changed\"", () => {
  const map = TileMap.fromArray(new Array(10 * 5).fill(0), 10, { tileSize: 32, costs: { 0: 1, 1: Infinity } });
  const field = new FlowField(map);
  assert.equal(field.current, false); // not built
  field.build({ x: 9, y: 2 });
  assert.equal(field.current, true);
  assert.equal(map.setRect(5, 2, 1, 1, [0]), 0); // no change, no new revision: still current
  assert.equal(field.current, true);
  map.set(5, 2, 1); // a wall on the straight route
  assert.equal(field.current, false);
  // the C library's rule: readers see the previous field...
  assert.equal(field.distance(5, 2), 4);
  assert.equal(field.direction(4, 2), 0);
  assert.equal(field.reachableCount, 50);
  // ...while path and wall-off refuse
  const changed = (e) => e instanceof TilenavError && e.status === -12 && /map changed/.test(e.message);
  assert.throws(() => field.pathFrom({ x: 0, y: 2 }), changed);
  assert.throws(() => field.wouldWallOff([{ x: 5, y: 1 }], [{ x: 0, y: 2 }]), changed);
  assert.ok(field.update() > 0);
  assert.equal(field.current, true);
  assert.equal(field.distance(5, 2), Infinity);
  assert.equal(field.pathFrom({ x: 0, y: 2 }).found, true);
  // a size-2 field (built on the map of 2 x 2 units) follows the map's revision too
  const big = new FlowField(map, { size: 2 }).build({ x: 8, y: 3 });
  assert.equal(big.current, true);
  map.set(2, 0, 1);
  assert.equal(big.current, false);
  big.update();
  assert.equal(big.current, true);
  big.free();
  field.free();
  assert.throws(() => field.current, /FlowField used after free\(\)/);
  map.free();
});

test("terrainValue on a map with the default walls keeps 1 a wall and fields current", () => {
  const m = TileMap.fromArray([0, 0, 0, 0], 2), f = new FlowField(m).build({ x: 1, y: 1 });
  const mud = m.terrainValue(3);
  assert.ok(mud >= 2, `got ${mud}`);
  assert.ok(f.current); // no cell holds the new value: nothing changed
  m.set(0, 0, 1);
  assert.equal(m.passable(0, 0), false);
  m.set(1, 0, mud);
  assert.equal(m.cost(1, 0), 3);
  const room = TileMap.fromText(["...", "..."]);
  assert.ok(room.freeValue() >= 2);
  f.free(); m.free(); room.free();
});

test("Marbles: a speed past a 32-bit float is refused, not lost", () => {
  const w = new Marbles({ width: 100, height: 100 });
  assert.throws(() => w.add(50, 50, 1e300, 0, 3), (e) => e instanceof TilenavError && /vx must be a finite number from/.test(e.message));
  const i = w.add(50, 50, 1, 0, 3);
  assert.throws(() => w.setVelocity(i, 0, -1e39), /vy must be a finite number from/);
  w.free();
});
