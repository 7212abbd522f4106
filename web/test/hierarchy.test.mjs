// Tests of Hierarchy (HPA*) and SectorField in the JavaScript API (node --test): on seeded random
// maps with walls and weighted tiles, against a Dijkstra written here (a binary heap; both step
// cost sets, 8 neighbours without corner cutting or 4), before and after map edits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { init, TileMap, PathFinder, Hierarchy, SectorField, Crowd, TilenavError } from "../pkg/tilenav.mjs";

await init();

function rng(seed) { // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
const COSTS = { 0: 1, 1: Infinity, 2: 2.5, 3: 0.5, 4: 3 };

// A random map: walls (value 1) at `walls`, weighted tiles at `weighted`; cost(x, y) reads the
// cells array the test keeps in step with map.set().
function randomMap(r, w, h, walls = 0.22, weighted = 0.25) {
  const cells = new Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const u = r();
    cells[i] = u < walls ? 1 : u < walls + weighted ? 2 + Math.floor(r() * 3) : 0;
  }
  const map = new TileMap({ width: w, height: h, cells, costs: COSTS });
  const cost = (x, y) => (x < 0 || y < 0 || x >= w || y >= h ? Infinity : COSTS[cells[y * w + x]]);
  const set = (x, y, v) => { cells[y * w + x] = v; map.set(x, y, v); };
  return { map, cost, set, w, h };
}

// The step from a to b: legal under the rule? Its base cost (exact: 1/√2, "10/14": 10/14).
function stepOk(cost, a, b, rule) {
  const dx = b.x - a.x, dy = b.y - a.y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1 || cost(b.x, b.y) === Infinity) return false;
  if (dx && dy) return rule === "no-cut" && cost(b.x, a.y) !== Infinity && cost(a.x, b.y) !== Infinity;
  return true;
}
const base = (diag, steps) => (steps === "10/14" ? (diag ? 14 : 10) : diag ? Math.SQRT2 : 1);

// Dijkstra from `src` over the grid (reverse: costs TO src, entering cells on the way to it).
function dijkstra(m, src, rule, steps, reverse = false) {
  const { w, h, cost } = m, dist = new Float64Array(w * h).fill(Infinity);
  const heap = []; // [d, i]
  const push = (d, i) => {
    heap.push([d, i]);
    for (let k = heap.length - 1; k > 0;) {
      const p = (k - 1) >> 1;
      if (heap[p][0] <= heap[k][0]) break;
      [heap[p], heap[k]] = [heap[k], heap[p]]; k = p;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let k = 0; ;) {
        const l = 2 * k + 1, r = l + 1;
        let s = k;
        if (l < heap.length && heap[l][0] < heap[s][0]) s = l;
        if (r < heap.length && heap[r][0] < heap[s][0]) s = r;
        if (s === k) break;
        [heap[s], heap[k]] = [heap[k], heap[s]]; k = s;
      }
    }
    return top;
  };
  for (const g of Array.isArray(src) ? src : [src]) { dist[g.y * w + g.x] = 0; push(0, g.y * w + g.x); }
  while (heap.length) {
    const [d, i] = pop();
    if (d > dist[i]) continue;
    const x = i % w, y = (i / w) | 0;
    for (const [dx, dy] of STEPS) {
      if (rule === "never" && dx && dy) continue;
      const a = { x, y }, b = { x: x + dx, y: y + dy };
      if (!stepOk(cost, a, b, rule)) continue;
      const nd = d + base(dx && dy, steps) * (reverse ? cost(x, y) : cost(b.x, b.y));
      const j = b.y * w + b.x;
      if (nd < dist[j]) { dist[j] = nd; push(nd, j); }
    }
  }
  return dist;
}

function pathCost(m, path, rule, steps) {
  let c = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i];
    assert.ok(stepOk(m.cost, a, b, rule), `illegal step (${a.x},${a.y}) -> (${b.x},${b.y}) under ${rule}`);
    c += base(a.x !== b.x && a.y !== b.y, steps) * m.cost(b.x, b.y);
  }
  return c;
}

const close = (a, b, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

// Steps of a path whose two cells lie in different sectors (K of hierarchy.h's bound).
function crossings(path, s) {
  let k = 0;
  for (let i = 1; i < path.length; i++)
    if (Math.floor(path[i].x / s) !== Math.floor(path[i - 1].x / s) || Math.floor(path[i].y / s) !== Math.floor(path[i - 1].y / s)) k++;
  return k;
}

function randomOpen(r, m) {
  for (;;) {
    const x = Math.floor(r() * m.w), y = Math.floor(r() * m.h);
    if (m.cost(x, y) !== Infinity) return { x, y };
  }
}

// Check every query of `pairs` on hierarchy `hi` against the reference: exact mode optimal,
// fast mode legal, cost = its steps' sum, optimum <= cost <= weight * (optimum + K * bound).
function checkQueries(hi, m, pairs, o, tag) {
  const bound = hi.crossingBound;
  const exactParts = hi.stats.parts >= 0; // then no unreachable goal is searched for
  let found = 0;
  for (const [s, g] of pairs) {
    const ref = dijkstra(m, s, o.diagonal, o.stepCosts)[g.y * m.w + g.x];
    const ex = hi.find(s, g, { exact: true });
    const fast = hi.find(s, g);
    const heavy = hi.find(s, g, { weight: 1.5 });
    const t = `${tag} (${s.x},${s.y})->(${g.x},${g.y})`;
    assert.equal(ex.algo, "hpa-exact"); assert.equal(fast.algo, "hpa");
    if (ref === Infinity) {
      for (const r of [ex, fast, heavy]) { assert.equal(r.found, false, t); assert.equal(r.status, "no path", t); assert.deepEqual(r.path, []); }
      if (exactParts) assert.equal(fast.expanded, 0, `${t}: an unreachable goal was searched for`);
      continue;
    }
    found++;
    assert.ok(ex.found && close(ex.cost, ref), `${t}: exact ${ex.cost} vs reference ${ref}`);
    assert.ok(close(pathCost(m, ex.path, o.diagonal, o.stepCosts), ex.cost), t);
    assert.deepEqual(ex.path[0], s); assert.deepEqual(ex.path.at(-1), g); assert.deepEqual(ex.end, g);
    const k = crossings(ex.path, hi.sectorSize);
    for (const [r, wgt] of [[fast, 1], [heavy, 1.5]]) {
      assert.ok(r.found, t);
      assert.deepEqual(r.path[0], s); assert.deepEqual(r.path.at(-1), g);
      assert.ok(close(pathCost(m, r.path, o.diagonal, o.stepCosts), r.cost), `${t}: cost ${r.cost} is not its steps' sum`);
      assert.ok(r.cost >= ref - 1e-9 * ref, `${t}: ${r.cost} below the optimum ${ref}`);
      assert.ok(r.cost <= wgt * (ref + k * bound) + 1e-9 * ref, `${t}: weight ${wgt} cost ${r.cost} > bound ${wgt} * (${ref} + ${k} * ${bound})`);
    }
  }
  return found;
}

const CONFIGS = [
  { diagonal: "no-cut", stepCosts: "exact", sectorSize: 8 },
  { diagonal: "never", stepCosts: "exact", sectorSize: 6, portalGap: 3 },
  { diagonal: "no-cut", stepCosts: "10/14", sectorSize: 5, landmarks: 4 },
  { diagonal: "no-cut", stepCosts: "exact", sectorSize: 16, portalGap: 4 },
  { diagonal: "never", stepCosts: "10/14", sectorSize: 4 },
];

test("find: exact mode equals the reference; fast mode legal and within its bound", () => {
  const r = rng(11);
  let found = 0;
  for (let round = 0; round < 10; round++) {
    const o = CONFIGS[round % CONFIGS.length];
    const m = randomMap(r, 24 + Math.floor(r() * 30), 20 + Math.floor(r() * 30));
    const hi = new Hierarchy(m.map, o);
    const pairs = Array.from({ length: 25 }, () => [randomOpen(r, m), randomOpen(r, m)]);
    found += checkQueries(hi, m, pairs, o, `round ${round} ${JSON.stringify(o)}`);
    // a blocked start or goal: found false with the status, as PathFinder.find
    const wall = { x: 0, y: 0 };
    m.set(0, 0, 1);
    const open = randomOpen(r, m);
    assert.equal(hi.find(wall, open).status, "start blocked");
    assert.equal(hi.find(open, wall, { exact: true }).status, "goal blocked");
    const st = hi.stats;
    assert.equal(st.sectorsX, Math.ceil(m.w / o.sectorSize)); assert.equal(st.sectorsY, Math.ceil(m.h / o.sectorSize));
    assert.ok(st.nodes > 0 && hi.memoryBytes > 0);
    assert.equal(hi.sectorOf(m.w - 1, m.h - 1), st.sectorsX * st.sectorsY - 1);
    assert.equal(hi.sectorOf(-1, 0), -1);
    hi.free(); hi.free(); // twice is a no-op
    m.map.free();
  }
  assert.ok(found > 150, `only ${found} reachable pairs`);
});

test("map edits: queries follow them (by themselves or after update()) and equal a fresh build", () => {
  const r = rng(23);
  for (let round = 0; round < 6; round++) {
    const o = CONFIGS[round % CONFIGS.length];
    const m = randomMap(r, 40, 36);
    const hi = m.map.hierarchy(o);
    for (let e = 0; e < 12; e++) {
      // a block of 1..4 x 1..4 cells set to one value (walls, floor, weights)
      const x0 = Math.floor(r() * m.w), y0 = Math.floor(r() * m.h), v = Math.floor(r() * 5);
      for (let y = y0; y < Math.min(m.h, y0 + 1 + Math.floor(r() * 4)); y++)
        for (let x = x0; x < Math.min(m.w, x0 + 1 + Math.floor(r() * 4)); x++) m.set(x, y, v);
      if (e % 3 === 0) assert.ok(hi.update() >= 0); // explicit; otherwise the next query updates
      if (e % 3 === 1) { assert.equal(hi.update() >= 0, true); assert.equal(hi.update(), 0); } // nothing left to do
      const pairs = Array.from({ length: 6 }, () => [randomOpen(r, m), randomOpen(r, m)]);
      checkQueries(hi, m, pairs, o, `round ${round} edit ${e}`);
      // an updated hierarchy answers like a fresh one, bit for bit (with landmarks, once they
      // are refreshed: stale ones leave the octile heuristic, which may break ties otherwise)
      const fresh = new Hierarchy(m.map, o);
      if (o.landmarks && !hi.stats.landmarksCurrent) hi.refreshLandmarks();
      for (const [s, g] of pairs) {
        const a = hi.find(s, g), b = fresh.find(s, g);
        assert.deepEqual(a.path, b.path); assert.equal(a.cost, b.cost);
      }
      const sa = hi.stats, sb = fresh.stats;
      for (const k of ["nodes", "intraEdges", "interEdges"]) assert.equal(sa[k], sb[k], k);
      fresh.free();
    }
    assert.ok(hi.stats.sectorsRebuilt > 0);
    hi.free();
    m.map.free();
  }
});

test("landmarks: stale after an update, refreshLandmarks() makes them current; same paths", () => {
  const r = rng(5);
  const m = randomMap(r, 48, 48, 0.2, 0);
  const hi = new Hierarchy(m.map, { sectorSize: 8, landmarks: 6 }), plain = new Hierarchy(m.map, { sectorSize: 8 });
  assert.equal(hi.stats.landmarksCurrent, true);
  for (let y = 10; y < 30; y++) m.set(20, y, 1);
  const pairs = Array.from({ length: 10 }, () => [randomOpen(r, m), randomOpen(r, m)]);
  for (const [s, g] of pairs) assert.equal(hi.find(s, g).cost, plain.find(s, g).cost);
  assert.equal(hi.stats.landmarksCurrent, false);
  assert.equal(hi.stats.parts, -1); // the wall may have split a part: unknown until a refresh
  hi.refreshLandmarks();
  assert.equal(hi.stats.landmarksCurrent, true);
  assert.ok(hi.stats.parts >= 1);
  checkQueries(hi, m, pairs, { diagonal: "no-cut", stepCosts: "exact" }, "landmarks");
  hi.free(); plain.free(); m.map.free();
});

test("size: a 2x2 unit's hierarchy agrees with PathFinder.find({size: 2})", () => {
  const r = rng(31);
  const m = randomMap(r, 40, 40, 0.12, 0.2);
  const hi = new Hierarchy(m.map, { sectorSize: 8, size: 2 }), pf = new PathFinder(m.map);
  const check = () => {
    for (let i = 0; i < 30; i++) {
      const s = randomOpen(r, m), g = randomOpen(r, m);
      const ref = pf.find(m.map, s, g, { size: 2, algo: "dijkstra" });
      const ex = hi.find(s, g, { exact: true }), fast = hi.find(s, g);
      assert.equal(ex.found, ref.found); assert.equal(ex.status, ref.status);
      assert.equal(fast.found, ref.found);
      if (ref.found) { assert.ok(close(ex.cost, ref.cost)); assert.ok(fast.cost >= ref.cost - 1e-9); }
    }
  };
  check();
  for (let i = 0; i < 8; i++) m.set(Math.floor(r() * 40), Math.floor(r() * 40), 1);
  check();
  hi.free(); pf.free(); m.map.free();
});

// Walk a sector field's directions from (x, y): the cells, the walk's cost.
function walk(f, m, x, y, rule, steps) {
  const path = [{ x, y }];
  let c = 0;
  for (let n = 0; ; n++) {
    assert.ok(n <= m.w * m.h, "the walk loops");
    const { dir } = f.direction(x, y);
    if (dir < 0) break;
    const [dx, dy] = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]][dir];
    const a = { x, y }, b = { x: x + dx, y: y + dy };
    assert.ok(stepOk(m.cost, a, b, rule), `illegal field step (${x},${y}) dir ${dir}`);
    c += base(dx && dy, steps) * m.cost(b.x, b.y);
    x = b.x; y = b.y;
    path.push(b);
  }
  return { path, cost: c, end: { x, y } };
}

// Every cell of a field against the reverse reference: finite exactly where reachable, the walk
// reaches a goal and costs direction()'s cost, which lies between the optimum and the bound.
function checkField(f, hi, m, goals, o, tag) {
  const ref = dijkstra(m, goals, o.diagonal, o.stepCosts, true), bound = hi.crossingBound;
  const isGoal = (c) => goals.some((g) => g.x === c.x && g.y === c.y);
  const win = f.window(0, 0, m.w, m.h);
  let reached = 0;
  for (let y = 0; y < m.h; y++) for (let x = 0; x < m.w; x++) {
    const d = f.direction(x, y), t = `${tag} (${x},${y})`, i = y * m.w + x;
    assert.equal(win.directions[i], d.dir, t); assert.equal(win.costs[i], d.cost, t);
    if (ref[i] === Infinity) { assert.equal(d.dir, -1, t); assert.equal(d.cost, Infinity, t); continue; }
    assert.ok(Number.isFinite(d.cost), `${t}: reachable (reference ${ref[i]}) but cost ${d.cost}`);
    reached++;
    const wk = walk(f, m, x, y, o.diagonal, o.stepCosts);
    assert.ok(isGoal(wk.end), `${t}: the walk ends at (${wk.end.x},${wk.end.y})`);
    assert.ok(Math.abs(wk.cost - d.cost) <= 1e-5 * Math.max(1, d.cost), `${t}: walk ${wk.cost} vs direction cost ${d.cost}`);
    assert.ok(d.cost >= ref[i] * (1 - 1e-6) - 1e-6, `${t}: ${d.cost} below the optimum ${ref[i]}`);
    // the walk's crossings bound nothing by themselves; the optimum's do: the exact path's K
    if ((x * 7 + y * 3) % 11 === 0) {
      const g = goals.length === 1 ? goals[0] : null;
      if (g) {
        const ex = hi.find({ x, y }, g, { exact: true });
        const k = crossings(ex.path, hi.sectorSize);
        assert.ok(d.cost <= ref[i] + k * bound + 1e-4 * ref[i], `${t}: ${d.cost} > ${ref[i]} + ${k} * ${bound}`);
        const fast = hi.find({ x, y }, g); // docs/sector_field.md: the field's cost is the fast path's
        assert.ok(Math.abs(fast.cost - d.cost) <= 1e-5 * Math.max(1, d.cost), `${t}: fast ${fast.cost} vs field ${d.cost}`);
      }
      const p = f.path({ x, y });
      assert.ok(p.found); assert.deepEqual(p.path, wk.path);
      assert.ok(Math.abs(p.cost - wk.cost) <= 1e-9 * Math.max(1, wk.cost));
    }
  }
  return reached;
}

test("sector field: every cell against the reference, evicting or not, after edits, several goals", () => {
  const r = rng(47);
  for (let round = 0; round < 6; round++) {
    const o = CONFIGS[round % CONFIGS.length];
    const m = randomMap(r, 20 + Math.floor(r() * 20), 18 + Math.floor(r() * 20));
    const hi = new Hierarchy(m.map, o);
    const goal = randomOpen(r, m);
    const big = hi.sectorField(goal), tiny = new SectorField(hi, [goal], { budget: 1 });
    assert.ok(checkField(big, hi, m, [goal], o, `round ${round}`) > 0);
    assert.ok(checkField(tiny, hi, m, [goal], o, `round ${round} tiny`) > 0);
    const ts = tiny.stats;
    assert.equal(ts.tilesMax, 1); assert.ok(ts.tilesEvicted > 0); assert.equal(ts.goals, 1);
    assert.ok(big.stats.tilesBuilt >= big.stats.tilesKept && big.memoryBytes > 0);
    // edits: the hierarchy updates and the fields re-aim by themselves at their next use
    for (let e = 0; e < 3; e++) {
      for (let k = 0; k < 6; k++) {
        const x = Math.floor(r() * m.w), y = Math.floor(r() * m.h);
        if (x !== goal.x || y !== goal.y) m.set(x, y, Math.floor(r() * 5));
      }
      checkField(e === 1 ? tiny : big, hi, m, [goal], o, `round ${round} edit ${e}`);
    }
    // several goals: the cheapest wins; setGoal re-aims
    const goals = [randomOpen(r, m), randomOpen(r, m), randomOpen(r, m)];
    big.setGoal(goals);
    assert.deepEqual(big.goals, goals);
    checkField(big, hi, m, goals, o, `round ${round} goals`);
    big.free(); tiny.free(); hi.free(); m.map.free();
  }
});

test("crowd: agents follow a sector field to the goal; a too-small budget is a clear error", () => {
  const rows = [];
  for (let y = 0; y < 40; y++) {
    let row = "";
    for (let x = 0; x < 40; x++) row += (x === 13 && y < 30) || (x === 26 && y > 9) ? "#" : ".";
    rows.push(row);
  }
  const map = TileMap.fromText(rows, { tileSize: 16 });
  const hi = map.hierarchy({ sectorSize: 8 });
  const goal = { x: 36, y: 4 };
  const f = hi.sectorField(goal, { budget: 16 * 8 * 8 * 5 });
  const crowd = new Crowd(map, { capacity: 64 });
  crowd.setFlow(0, f);
  for (let i = 0; i < 12; i++) crowd.add({ x: 16 * (2 + (i % 4)) + 8, y: 16 * (30 + Math.floor(i / 4)) + 8, target: "flow", flow: 0, radius: 5 });
  const gp = map.center(goal.x, goal.y);
  let near = 0;
  for (let s = 0; s < 3000 && near < 12; s += 20) {
    crowd.step(20);
    assert.equal(crowd.maxWallOverlap(), 0);
    near = crowd.agents().filter((a) => Math.hypot(a.x - gp.x, a.y - gp.y) < 48).length;
  }
  assert.equal(near, 12, "every agent reaches the goal");
  assert.ok(f.stats.tilesBuilt > 0);
  // a wall edit: the field follows the map before the next step
  for (let y = 0; y < 10; y++) map.set(30, y, 1);
  crowd.step(5);
  assert.ok(f.direction(31, 20).cost > 0);
  // one tile cannot hold the sectors under agents spread over two sectors
  const small = hi.sectorField(goal, { budget: 1 }), c2 = new Crowd(map);
  c2.setFlow(1, small);
  c2.add({ x: 16 * 2 + 8, y: 16 * 2 + 8, target: "flow", flow: 1 });
  c2.add({ x: 16 * 20 + 8, y: 16 * 35 + 8, target: "flow", flow: 1 });
  assert.throws(() => c2.step(), (e) => e instanceof TilenavError && e.status === -13 &&
    /flow slot 1 has a budget of 1 bytes \(1 sector of 320 bytes\), too small .*raise its budget/.test(e.message));
  c2.setFlow(1, null);
  c2.step(); // the slot no longer follows the field
  // another map's size is refused
  const other = new TileMap({ width: 8, height: 8 }), oh = other.hierarchy({ sectorSize: 4 });
  const of = oh.sectorField({ x: 1, y: 1 });
  assert.throws(() => crowd.setFlow(2, of), TilenavError);
  for (const o of [of, oh, other, c2, small, crowd, f, hi, map]) o.free();
});

test("bad arguments throw a TilenavError", () => {
  const m = randomMap(rng(3), 16, 16);
  const bad = (fn, status, re) => assert.throws(fn, (e) => e instanceof TilenavError && e.status === status && (!re || re.test(e.message)));
  bad(() => new Hierarchy(m.map, { sectorSize: 3 }), -1, /sectorSize must be an integer from 4 to 256, got 3/);
  bad(() => new Hierarchy(m.map, { sectorSize: 257 }), -1, /sectorSize/);
  bad(() => new Hierarchy(m.map, { sectorSize: "8" }), -1, /sectorSize .*"8"/);
  bad(() => new Hierarchy(m.map, { landmarks: 17 }), -1, /landmarks/);
  bad(() => new Hierarchy(m.map, { portalGap: -1 }), -1, /portalGap/);
  bad(() => new Hierarchy(m.map, { sectorSize: 8, portalGap: 9 }), -1, /portalGap/);
  bad(() => new Hierarchy(m.map, { diagonal: "always" }), -8, /no-cut/);
  bad(() => new Hierarchy(m.map, { diagonal: "one" }), -8);
  bad(() => new Hierarchy(m.map, { diagonal: "sideways" }), -1, /unknown diagonal/);
  bad(() => new Hierarchy(m.map, { stepCosts: "10/15" }), -1, /stepCosts/);
  bad(() => new Hierarchy(m.map, { size: 0 }), -1, /size/);
  bad(() => new Hierarchy(m.map, null), -1);
  const hi = new Hierarchy(m.map, { sectorSize: 4 }), open = randomOpen(rng(4), m);
  bad(() => hi.find({ x: -1, y: 0 }, open), -9);
  bad(() => hi.find(open, { x: 16, y: 0 }, { exact: true }), -9);
  bad(() => hi.find(open, open, { weight: 0.5 }), -1, /weight/);
  bad(() => hi.find(open, open, { weight: NaN }), -1, /weight/);
  bad(() => hi.find(open, open, { exact: "yes" }), -1, /exact/);
  bad(() => hi.find({ x: 1.5, y: 0 }, open), -1, /cell coordinate/);
  bad(() => hi.find(null, open), -1, /start/);
  bad(() => hi.sectorOf(0.5, 0), -1);
  assert.deepEqual(hi.find(open, open).path, [open]);
  bad(() => hi.sectorField(open, { budget: 0 }), -1, /budget/);
  bad(() => hi.sectorField(open, { budget: 1.5 }), -1, /budget/);
  bad(() => hi.sectorField([]), -1, /1 to 64 goals, got 0/);
  bad(() => hi.sectorField(Array.from({ length: 65 }, () => open)), -1, /got 65/);
  bad(() => hi.sectorField({ x: 99, y: 0 }), -9);
  m.set(0, 0, 1);
  bad(() => hi.sectorField({ x: 0, y: 0 }), -11, /goal blocked/);
  bad(() => new SectorField({}, open), -1, /Hierarchy/);
  const f = hi.sectorField(open);
  bad(() => f.direction(16, 0), -9);
  bad(() => f.direction(0.5, 0), -1);
  bad(() => f.window(0, 0, 17, 1), -9);
  bad(() => f.path({ x: 0, y: -1 }), -9);
  bad(() => f.setGoal({ x: 0, y: 0 }), -11);
  bad(() => f.direction(1, 1), -15, /no goal/); // a failed setGoal leaves no goal
  f.setGoal(open);
  assert.equal(f.direction(open.x, open.y).cost, 0);
  // a goal walled in by an edit: the field's re-aim reports it; clearing it recovers
  const save = m.cost(open.x, open.y);
  m.set(open.x, open.y, 1);
  bad(() => f.direction(open.x, open.y), -11);
  m.set(open.x, open.y, save === 1 ? 0 : 2);
  assert.equal(f.direction(open.x, open.y).dir, -1);
  const crowd = new Crowd(m.map);
  bad(() => crowd.setFlow(8, f), -1, /slot/);
  f.free();
  assert.throws(() => f.direction(0, 0), /used after free/);
  hi.free();
  assert.throws(() => hi.find(open, open), /used after free/);
  crowd.free(); m.map.free();
});
