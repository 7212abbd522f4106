// tilenav/compat/pathfinding against PathFinding.js (npm "pathfinding", pinned in web/package.json):
// PathFinding.js's own tests (test/PathTestScenarios.js, Grid.js, Util.js, written out here), then 1,000
// seeded random grids for every finder and every DiagonalMovement option, comparing path
// lengths (geometric, Util.pathLength; all must agree) and cells (the finders that run
// PathFinding.js's search in JavaScript must give its very path), and checking every tilenav
// path is legal.
// Also the EasyStar-style wrapper against EasyStar.js (npm "easystarjs").
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import PF from "../pkg/compat/pathfinding.mjs";
import EasyStar from "../pkg/compat/easystar.mjs";
import { memoryBytes, TilenavError } from "../pkg/tilenav.mjs";

const require = createRequire(import.meta.url);
const RefPF = require("pathfinding");
const RefEasyStar = require("easystarjs");

const GRIDS = Number(process.env.TILENAV_COMPAT_GRIDS ?? 1000);

function rng(seed) { // mulberry32
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// PathFinding.js test/PathTestScenarios.js (0.4.18): start, end, matrix, expected path.length
const SCENARIOS = [
  { s: [0, 0], e: [1, 1], m: ["00", "10"], len: 3 },
  { s: [1, 1], e: [4, 4], m: ["00000", "10110", "10100", "01000", "10110", "00100"], len: 9 },
  { s: [0, 3], e: [3, 3], m: ["00000", "00110", "00100", "00100", "10110", "00000"], len: 10 },
  { s: [4, 4], e: [19, 19], m: Array(20).fill("0".repeat(20)), len: 31 },
];
const toMatrix = (rows) => rows.map((r) => [...r].map(Number));

test("PathFinding.js's own scenarios: its expected lengths, and its own paths from the faithful finders", () => {
  for (const sc of SCENARIOS) {
    const grid = new PF.Grid(toMatrix(sc.m));
    for (const f of [new PF.AStarFinder(), new PF.DijkstraFinder(), new PF.BestFirstFinder({ optimal: true }),
      new PF.JumpPointFinder({ optimal: true, diagonalMovement: PF.DiagonalMovement.Never })]) {
      const p = f.findPath(sc.s[0], sc.s[1], sc.e[0], sc.e[1], grid);
      assert.equal(p.length, sc.len);
      assert.deepEqual(p[0], sc.s);
      assert.deepEqual(p.at(-1), sc.e);
    }
    // the finders PathFinding.js's test calls not optimal (it checks their start and end):
    // here the very path PathFinding.js returns
    for (const [name, opt] of [["BestFirstFinder", {}], ["JumpPointFinder", { diagonalMovement: PF.DiagonalMovement.IfAtMostOneObstacle }],
      ["JumpPointFinder", { diagonalMovement: PF.DiagonalMovement.Never }]]) {
      const p = new PF[name](opt).findPath(sc.s[0], sc.s[1], sc.e[0], sc.e[1], grid);
      assert.deepEqual(p[0], sc.s);
      assert.deepEqual(p.at(-1), sc.e);
      assert.deepEqual(p, new RefPF[name](opt).findPath(sc.s[0], sc.s[1], sc.e[0], sc.e[1], new RefPF.Grid(toMatrix(sc.m))));
    }
    grid.free();
  }
});

test("Grid, Util and DiagonalMovement behave as PathFinding.js's", () => {
  const m = toMatrix(["010", "000", "110"]);
  const g = new PF.Grid(m), r = new RefPF.Grid(m);
  for (const d of Object.values(PF.DiagonalMovement))
    for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) {
      if (!r.isWalkableAt(x, y)) continue;
      const a = g.getNeighbors({ x, y }, d).map((n) => [n.x, n.y]);
      const b = r.getNeighbors(r.getNodeAt(x, y), d).map((n) => [n.x, n.y]);
      assert.deepEqual(a, b);
    }
  assert.equal(new PF.Grid(3, 2).width, 3);
  assert.throws(() => new PF.Grid(3, 2, [[0, 0, 0]]), /Matrix size does not fit/);
  g.setWalkableAt(1, 0, true);
  assert.equal(g.isWalkableAt(1, 0), true);
  assert.equal(g.isWalkableAt(-1, 0), false);
  assert.equal(g.isWalkableAt(2 ** 32, 0), false); // read cell (0, 0) before (the module's int32)
  assert.equal(g.isWalkableAt(0, 2 ** 32 + 2), false);
  // sizes tilenav maps cannot take: TileMap's errors, not a typed array's RangeError
  assert.throws(() => new PF.Grid(1e6, 1e6), (e) => e instanceof TilenavError && e.status === -3 && /1000000 x 1000000 map is larger than tilenav maps go/.test(e.message));
  assert.throws(() => new PF.Grid(-1, 2), (e) => e instanceof TypeError && /^tilenav: width and height must be positive integers/.test(e.message));
  const path = [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [3, 3], [4, 4]];
  assert.deepEqual(PF.Util.compressPath(path), RefPF.Util.compressPath(path));
  assert.deepEqual(PF.Util.expandPath([[0, 0], [3, 1]]), RefPF.Util.expandPath([[0, 0], [3, 1]]));
  assert.equal(PF.Util.pathLength(path), RefPF.Util.pathLength(path));
  const big = Array.from({ length: 8 }, (_, y) => Array.from({ length: 8 }, (_, x) => (x === 4 && y < 6 ? 1 : 0)));
  const gp = new PF.AStarFinder().findPath(0, 0, 7, 0, new PF.Grid(big));
  assert.deepEqual(PF.Util.smoothenPath(new PF.Grid(big), gp), RefPF.Util.smoothenPath(new RefPF.Grid(big), gp));
  g.free();
});

// PathFinding.js test/Grid.js and test/Util.js (0.4.18), written out with node:test
test("PathFinding.js's Grid tests", () => {
  let grid = new PF.Grid(10, 20);
  assert.equal(grid.width, 10);
  assert.equal(grid.height, 20);
  assert.equal(grid.nodes.length, 20);
  for (const row of grid.nodes) assert.equal(row.length, 10);
  for (let y = 0; y < 20; y++) for (let x = 0; x < 10; x++) assert.equal(grid.isWalkableAt(x, y), true);
  grid.free();
  const matrix = [[1, 0, 0, 1], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1]];
  const height = matrix.length, width = matrix[0].length;
  for (grid of [new PF.Grid(width, height, matrix), new PF.Grid(matrix)]) {
    assert.equal(grid.width, width);
    assert.equal(grid.height, height);
    assert.equal(grid.nodes.length, height);
    for (const row of grid.nodes) assert.equal(row.length, width);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) assert.equal(grid.isWalkableAt(x, y), !matrix[y][x]);
    for (const [x, y, inside] of [[0, 0, true], [0, height - 1, true], [width - 1, 0, true], [width - 1, height - 1, true],
      [-1, -1, false], [0, -1, false], [-1, 0, false], [0, height, false], [width, 0, false], [width, height, false]])
      assert.equal(grid.isInside(x, y), inside);
    assert.deepEqual(grid.getNeighbors(grid.nodes[1][0], PF.DiagonalMovement.Never), [grid.nodes[2][0]]);
    const cmp = (a, b) => a.x * 100 + a.y - b.x * 100 - b.y;
    assert.deepEqual(grid.getNeighbors(grid.nodes[0][2], PF.DiagonalMovement.IfAtMostOneObstacle).sort(cmp),
      [grid.nodes[0][1], grid.nodes[1][2], grid.nodes[1][3]].sort(cmp));
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grid.setWalkableAt(x, y, false);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) assert.equal(grid.isWalkableAt(x, y), false);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grid.setWalkableAt(x, y, true);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) assert.equal(grid.isWalkableAt(x, y), true);
    // and the node objects are live: writing walkable edits the map the searches read
    grid.nodes[2][1].walkable = false;
    assert.equal(grid.map.passable(1, 2), false);
    assert.equal(grid.getNodeAt(1, 2).walkable, false);
    grid.free();
  }
});

test("PathFinding.js's Util tests", () => {
  assert.deepEqual(PF.Util.interpolate(0, 1, 0, 4), [[0, 1], [0, 2], [0, 3], [0, 4]]);
  assert.deepEqual(PF.Util.expandPath([]), []);
  assert.deepEqual(PF.Util.expandPath([[0, 1], [0, 4]]), [[0, 1], [0, 2], [0, 3], [0, 4]]);
  assert.deepEqual(PF.Util.expandPath([[0, 1], [0, 4], [2, 6]]), [[0, 1], [0, 2], [0, 3], [0, 4], [1, 5], [2, 6]]);
  assert.deepEqual(PF.Util.compressPath([]), []);
  assert.deepEqual(PF.Util.compressPath([[0, 1], [0, 2], [0, 3], [0, 4]]), [[0, 1], [0, 4]]);
  assert.deepEqual(PF.Util.compressPath([[0, 1], [0, 2], [0, 3], [0, 4], [1, 5], [2, 6]]), [[0, 1], [0, 4], [2, 6]]);
});

function legal(path, matrix, diag) {
  for (let i = 1; i < path.length; i++) {
    const [ax, ay] = path[i - 1], [bx, by] = path[i];
    const w = (x, y) => y >= 0 && y < matrix.length && x >= 0 && x < matrix[0].length && !matrix[y][x];
    if (!w(bx, by)) return false;
    const dx = bx - ax, dy = by - ay;
    if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1) return false;
    if (dx && dy) {
      const o = (w(ax + dx, ay) ? 1 : 0) + (w(ax, ay + dy) ? 1 : 0);
      if (diag === 2 || (diag === 4 && o < 2) || (diag === 3 && o < 1)) return false;
    }
  }
  return true;
}

// [label, finder, options for both libraries (heuristic by name), compared with PathFinding.js's finder]
const FINDERS = [
  ["AStarFinder", "AStarFinder", {}],
  ["DijkstraFinder", "DijkstraFinder", {}],
  // PathFinding.js's defaults: greedy best-first, and JPS with manhattan (which overestimates
  // with diagonal moves): neither is optimal; tilenav runs their searches step for step
  ["BestFirstFinder", "BestFirstFinder", {}],
  ["JumpPointFinder", "JumpPointFinder", {}],
  // JPS with an admissible heuristic (tilenav's JPS in the wasm)
  ["JumpPointFinder (octile; manhattan for Never)", "JumpPointFinder", { heuristic: "admissible" }],
  // the other non-optimal A*s: a weight, manhattan with diagonal moves
  ["AStarFinder (weight 3)", "AStarFinder", { weight: 3 }],
  ["AStarFinder (manhattan)", "AStarFinder", { heuristic: "manhattan" }],
  // tilenav's shortest paths on request, against PathFinding.js's optimal finders
  ["BestFirstFinder (optimal: true) vs PF A*", "BestFirstFinder", { optimal: true }, "AStarFinder"],
  ["JumpPointFinder (optimal: true) vs PF JPS octile", "JumpPointFinder", { optimal: true, ref: { heuristic: "admissible" } }],
];
const DIAGS = Object.entries(PF.DiagonalMovement);

function options(lib, o, d) {
  const out = { diagonalMovement: d };
  if (o.weight) out.weight = o.weight;
  if (o.optimal && lib === PF) out.optimal = true;
  const h = lib === RefPF && o.ref ? o.ref.heuristic : o.heuristic;
  if (h) out.heuristic = lib.Heuristic[h === "admissible" ? (d === PF.DiagonalMovement.Never ? "manhattan" : "octile") : h];
  return out;
}

test(`random grids: ${GRIDS} grids x ${FINDERS.length} finders x ${DIAGS.length} diagonal options against PathFinding.js`, () => {
  const rand = rng(18);
  const stats = {};
  for (let g = 0; g < GRIDS; g++) {
    const w = 4 + Math.floor(rand() * 37), h = 4 + Math.floor(rand() * 37), density = 0.1 + rand() * 0.3;
    const matrix = Array.from({ length: h }, () => Array.from({ length: w }, () => (rand() < density ? 1 : 0)));
    const sx = Math.floor(rand() * w), sy = Math.floor(rand() * h), ex = Math.floor(rand() * w), ey = Math.floor(rand() * h);
    matrix[ey][ex] = 0;
    if (g % 10) matrix[sy][sx] = 0; // every tenth grid keeps a blocked start (PathFinding.js searches from it)
    const grid = new PF.Grid(matrix); // one grid for every search: no clone
    const refGrid = new RefPF.Grid(matrix);
    for (const [label, name, o, refName] of FINDERS) for (const [dname, d] of DIAGS) {
      const key = `${label} ${dname}`;
      const ours = new PF[name](options(PF, o, d));
      const st = (stats[key] ??= { queries: 0, same: 0, shorter: 0, longer: 0, foundDiff: 0, samePath: 0, wasm: ours.usesWasm });
      const a = ours.findPath(sx, sy, ex, ey, grid);
      const b = new RefPF[refName ?? name](options(RefPF, o, d)).findPath(sx, sy, ex, ey, refGrid.clone());
      st.queries++;
      if ((a.length > 0) !== (b.length > 0)) { st.foundDiff++; continue; }
      if (a.length) assert.ok(legal(a, matrix, d), `${key}: illegal step on grid ${g}`);
      const la = PF.Util.pathLength(a), lb = RefPF.Util.pathLength(b);
      if (Math.abs(la - lb) < 1e-9) st.same++;
      else if (la < lb) st.shorter++;
      else st.longer++;
      if (JSON.stringify(a) === JSON.stringify(b)) st.samePath++;
    }
    grid.free();
  }
  console.log("finder DiagonalMovement: queries, same length, tilenav shorter, tilenav longer, found/not-found differs, identical path; engine");
  for (const [k, s] of Object.entries(stats)) console.log(`  ${k}: ${s.queries} ${s.same} ${s.shorter} ${s.longer} ${s.foundDiff} ${s.samePath}; ${s.wasm ? "wasm" : "js"}`);
  for (const [k, s] of Object.entries(stats)) {
    assert.equal(s.foundDiff, 0, `${k}: found/not found differs`);
    assert.equal(s.same, s.queries, `${k}: length mismatch (${s.shorter} shorter, ${s.longer} longer)`);
    // PathFinding.js's own search, run in JavaScript: the very same cells
    if (!s.wasm) assert.equal(s.samePath, s.queries, `${k}: other cells`);
  }
  globalThis.compatStats = stats;
});

// ---- unitSize (PathFinding.js's unmerged PR #148) ------------------------------------------
// Brute force, from the rules: an n x n unit stands at (x, y) (top-left) when every cell of its
// footprint is inside the grid and walkable. A diagonal step under OnlyWhenNoObstacles needs the
// whole (n+1) x (n+1) square it sweeps walkable; IfAtMostOneObstacle one of the two side
// positions to fit; Always nothing more; Never forbids it.
function fitsAt(matrix, n, x, y) {
  if (x < 0 || y < 0 || y + n > matrix.length || x + n > matrix[0].length) return false;
  for (let j = y; j < y + n; j++) for (let i = x; i < x + n; i++) if (matrix[j][i]) return false;
  return true;
}

function unitStepLegal(matrix, n, [ax, ay], [bx, by], d) {
  const dx = bx - ax, dy = by - ay;
  if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1 || !fitsAt(matrix, n, ax, ay) || !fitsAt(matrix, n, bx, by)) return false;
  if (!dx || !dy) return true;
  const D = PF.DiagonalMovement;
  if (d === D.Never) return false;
  if (d === D.OnlyWhenNoObstacles) {
    const x0 = Math.min(ax, bx), y0 = Math.min(ay, by);
    for (let j = y0; j <= y0 + n; j++) for (let i = x0; i <= x0 + n; i++) if (j >= matrix.length || i >= matrix[0].length || matrix[j][i]) return false;
    return true;
  }
  return d === D.Always || fitsAt(matrix, n, bx, ay) || fitsAt(matrix, n, ax, by);
}

// The grid of positions where the unit fits (1 = it does not), for PathFinding.js itself.
const erode = (matrix, n) => matrix.map((row, y) => row.map((_, x) => (fitsAt(matrix, n, x, y) ? 0 : 1)));

test("unitSize 1..4: every finder and DiagonalMovement against PathFinding.js on the grid where the unit fits", () => {
  const rand = rng(148), stats = {};
  for (let g = 0; g < 80; g++) {
    const w = 6 + Math.floor(rand() * 18), h = 6 + Math.floor(rand() * 14), density = 0.04 + rand() * 0.14;
    const matrix = Array.from({ length: h }, () => Array.from({ length: w }, () => (rand() < density ? 1 : 0)));
    const grid = new PF.Grid(matrix);
    for (let edit = 0; edit < 2; edit++) {
      for (let n = 1; n <= 4; n++) {
        const ero = erode(matrix, n), fit = [];
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (!ero[y][x]) fit.push([x, y]);
        const any = () => [Math.floor(rand() * w), Math.floor(rand() * h)];
        const [sx, sy] = fit.length && g % 5 ? fit[Math.floor(rand() * fit.length)] : any();
        const [ex, ey] = fit.length && g % 7 ? fit[Math.floor(rand() * fit.length)] : any();
        const fits = fitsAt(matrix, n, sx, sy) && fitsAt(matrix, n, ex, ey);
        if (n === 1 && !fits) continue; // one cell: PathFinding.js's blocked-start rule, tested above
        const refGrid = new RefPF.Grid(ero);
        for (const [label, name, o, refName] of FINDERS) for (const [dname, d] of DIAGS) {
          const key = `${label} ${dname}`, tag = `${key} grid ${g} edit ${edit} size ${n}`;
          const ours = new PF[name]({ ...options(PF, o, d), unitSize: n });
          assert.equal(ours.unitSize, n);
          const st = (stats[key] ??= { queries: 0, wasm: ours.usesWasm });
          const a = ours.findPath(sx, sy, ex, ey, grid);
          st.queries++;
          if (!fits) { assert.deepEqual(a, [], `${tag}: the unit does not fit at an end`); continue; }
          const b = new RefPF[refName ?? name](options(RefPF, o, d)).findPath(sx, sy, ex, ey, refGrid.clone());
          assert.equal(a.length > 0, b.length > 0, `${tag}: found differs`);
          if (a.length > 1) st.found = (st.found ?? 0) + 1;
          for (let i = 1; i < a.length; i++) assert.ok(unitStepLegal(matrix, n, a[i - 1], a[i], d), `${tag}: illegal step ${i}`);
          assert.ok(Math.abs(PF.Util.pathLength(a) - RefPF.Util.pathLength(b)) < 1e-9, `${tag}: length differs`);
          if (!ours.usesWasm) assert.deepEqual(a, b, `${tag}: PathFinding.js's search gives other cells`);
        }
      }
      // edit the grid (walls added and removed) through both of its APIs: the next searches see it
      for (let k = 0; k < 5; k++) {
        const x = Math.floor(rand() * w), y = Math.floor(rand() * h), v = rand() < 0.5 ? 1 : 0;
        matrix[y][x] = v;
        if (k % 2) grid.setWalkableAt(x, y, !v); else grid.getNodeAt(x, y).walkable = !v;
      }
    }
    grid.free();
  }
  for (const [k, s] of Object.entries(stats)) assert.ok(s.found > 150, `${k}: ${s.found} of ${s.queries} found a path`);
});

test("unitSize: getClearanceGrid, validation, a 2x2 unit that cannot take a one-cell gap", () => {
  const matrix = [
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [1, 1, 0, 1, 1, 1],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
  ];
  const grid = new PF.Grid(matrix);
  const c = new PF.AStarFinder({ unitSize: 2 }).getClearanceGrid(grid);
  for (let y = 0; y < 5; y++) for (let x = 0; x < 6; x++) {
    let k = 0;
    while (fitsAt(matrix, k + 1, x, y)) k++;
    assert.equal(c[y][x], k, `clearance (${x}, ${y})`);
  }
  assert.equal(new PF.AStarFinder().findPath(0, 0, 0, 3, grid).length > 0, true);
  for (const F of [PF.AStarFinder, PF.BestFirstFinder, PF.DijkstraFinder, PF.JumpPointFinder]) {
    assert.deepEqual(new F({ unitSize: 2 }).findPath(0, 0, 0, 3, grid), [], F.name);
    assert.deepEqual(new F({ unitSize: 2 }).findPath(0, 0, 4, 4, grid), [], `${F.name}: no fit at the end`);
    for (const bad of [0, -2, 1.5, 256, "2", NaN])
      assert.throws(() => new F({ unitSize: bad }), (e) => e.name === "TilenavError" && /unitSize must be an integer from 1 to 255/.test(e.message));
  }
  grid.setWalkableAt(3, 2, true); // a two-cell gap now
  const p = new PF.AStarFinder({ unitSize: 2, diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles }).findPath(0, 0, 0, 3, grid);
  assert.ok(p.length > 0 && p.some(([x, y]) => x === 2 && y === 2));
  assert.deepEqual(new PF.BestFirstFinder({ unitSize: 2 }).findPath(0, 0, 0, 3, grid).at(-1), [0, 3]);
  grid.free();
});

test("which finders run where; custom heuristics; optimal: true; the grid is left as it was", () => {
  const D = PF.DiagonalMovement;
  assert.equal(new PF.AStarFinder().usesWasm, true);
  assert.equal(new PF.AStarFinder({ heuristic: RefPF.Heuristic.octile, diagonalMovement: D.Always }).usesWasm, true); // PathFinding.js's own octile
  assert.equal(new PF.AStarFinder({ heuristic: PF.Heuristic.manhattan, diagonalMovement: D.Always }).usesWasm, false);
  assert.equal(new PF.AStarFinder({ heuristic: "manhattan" }).usesWasm, true); // no diagonals: admissible
  assert.equal(new PF.AStarFinder({ weight: 2 }).usesWasm, false);
  assert.equal(new PF.AStarFinder({ weight: 2, optimal: true }).usesWasm, true);
  assert.equal(new PF.DijkstraFinder({ heuristic: (dx, dy) => dx * dy }).usesWasm, true);
  assert.equal(new PF.BestFirstFinder().usesWasm, false);
  assert.equal(new PF.BestFirstFinder({ optimal: true }).usesWasm, true);
  assert.equal(new PF.JumpPointFinder().usesWasm, false);
  assert.equal(new PF.JumpPointFinder({ diagonalMovement: D.Never }).usesWasm, true);
  assert.equal(new PF.JumpPointFinder({ heuristic: PF.Heuristic.euclidean }).usesWasm, true);
  assert.equal(new PF.JumpPointFinder({ optimal: true }).usesWasm, true);
  assert.throws(() => new PF.AStarFinder({ heuristic: "nope" }), TypeError);
  // a custom heuristic, and a function named like a PF.Heuristic that is not one: PathFinding.js's search
  const octile = (dx, dy) => 3 * (dx + dy);
  assert.equal(new PF.AStarFinder({ heuristic: octile, diagonalMovement: D.Always }).usesWasm, false);
  const rand = rng(77);
  for (let g = 0; g < 100; g++) {
    const w = 6 + Math.floor(rand() * 20), h = 6 + Math.floor(rand() * 20);
    const m = Array.from({ length: h }, () => Array.from({ length: w }, () => (rand() < 0.3 ? 1 : 0)));
    m[0][0] = 0; m[h - 1][w - 1] = 0;
    const grid = new PF.Grid(m), before = grid.map.passableGrid(), rev = grid.map.revision;
    for (const [name, opt] of [["AStarFinder", { heuristic: (dx, dy) => dx * dx + dy, diagonalMovement: D.IfAtMostOneObstacle }],
      ["BestFirstFinder", { heuristic: octile, weight: 0.5, diagonalMovement: D.Always }],
      ["JumpPointFinder", { heuristic: (dx, dy) => Math.max(dx, dy) * 2, diagonalMovement: D.OnlyWhenNoObstacles }]]) {
      const a = new PF[name](opt).findPath(0, 0, w - 1, h - 1, grid);
      const b = new RefPF[name](opt).findPath(0, 0, w - 1, h - 1, new RefPF.Grid(m));
      assert.deepEqual(a, b, `${name} on grid ${g}`);
    }
    assert.deepEqual(grid.map.passableGrid(), before);
    assert.equal(grid.map.revision, rev);
    // an edit between searches is seen by the next one
    grid.setWalkableAt(w - 1, h - 1, false);
    assert.deepEqual(new PF.BestFirstFinder().findPath(0, 0, w - 1, h - 1, grid), []);
    grid.setWalkableAt(w - 1, h - 1, true);
    grid.nodes[h - 2][w - 1].walkable = false;
    const m2 = m.map((r) => r.slice()); m2[h - 2][w - 1] = 1;
    assert.deepEqual(new PF.JumpPointFinder().findPath(0, 0, w - 1, h - 1, grid),
      new RefPF.JumpPointFinder().findPath(0, 0, w - 1, h - 1, new RefPF.Grid(m2)));
    grid.free();
  }
});

// EasyStar.js's cost of a path: each step costs the entered tile's cost (x 1.4 diagonally)
function easyCost(path, grid, costs) {
  let c = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i], t = costs[grid[b.y][b.x]] ?? 1;
    c += (a.x !== b.x && a.y !== b.y ? 1.4 : 1) * t;
  }
  return c;
}

// One search from s to e with the wrapper (`ours`) and EasyStar.js (`ref`), both in sync mode
// on `grid` (tile 1 a wall, tile 2 of cost 3) avoiding the cells of `avoided` ("x,y"): both find
// a path or neither; ours costs the same (`equal`: no diagonals, both shortest) or no more (with
// diagonals EasyStar.js's heuristic overestimates), and never enters a wall or an avoided point.
// Returns 1 when a path was found, else 0.
function sameAsEasyStar(ours, ref, grid, avoided, s, e, what, equal) {
  let a, b;
  ours.findPath(s.x, s.y, e.x, e.y, (p) => { a = p; }); ours.calculate();
  ref.findPath(s.x, s.y, e.x, e.y, (p) => { b = p; }); ref.calculate();
  const tag = `${what} from ${s.x},${s.y} to ${e.x},${e.y}`;
  assert.equal(a === null, b === null, tag);
  if (!a) return 0;
  const ca = easyCost(a, grid, { 0: 1, 2: 3 }), cb = easyCost(b, grid, { 0: 1, 2: 3 });
  assert.ok(equal ? Math.abs(ca - cb) < 1e-9 : ca <= cb + 1e-9, tag);
  for (const c of a.slice(1)) {
    assert.ok(grid[c.y][c.x] !== 1, `${tag}: through a wall at ${c.x},${c.y}`);
    assert.ok(!avoided.has(`${c.x},${c.y}`), `${tag}: through an avoided point at ${c.x},${c.y}`);
  }
  return 1;
}

async function solve(E, grid, costs, diag, cut, s, e, budget, sync) {
  const es = new E.js();
  es.setGrid(grid);
  es.setAcceptableTiles([0, 2]);
  for (const [t, c] of Object.entries(costs)) es.setTileCost(Number(t), c);
  if (diag) es.enableDiagonals();
  if (!cut) es.disableCornerCutting();
  es.setIterationsPerCalculation(budget);
  if (sync) es.enableSync();
  let out, calls = 0;
  es.findPath(s.x, s.y, e.x, e.y, (p) => { out = p; });
  if (es._queue) while (es._queue.length) { es.calculate(); calls++; } // ours, budget-limited
  else while (out === undefined && calls < 1e6) { es.calculate(); calls++; }
  if (out === undefined) await new Promise((r) => setTimeout(r, 0)); // the async callback
  es.free?.();
  return { path: out, calls };
}

test("EasyStar-style wrapper against EasyStar.js: 300 random grids with tile costs, 3 movement rules", async () => {
  const rand = rng(1818), stats = {};
  for (let g = 0; g < 300; g++) {
    const w = 5 + Math.floor(rand() * 26), h = 5 + Math.floor(rand() * 26);
    const grid = Array.from({ length: h }, () => Array.from({ length: w }, () => { const r = rand(); return r < 0.2 ? 1 : r < 0.35 ? 2 : 0; }));
    const costs = { 0: 1, 2: 3 };
    const s = { x: Math.floor(rand() * w), y: Math.floor(rand() * h) }, e = { x: Math.floor(rand() * w), y: Math.floor(rand() * h) };
    grid[s.y][s.x] = 0; grid[e.y][e.x] = 0;
    for (const [label, diag, cut] of [["4 neighbours", false, true], ["diagonals", true, true], ["diagonals, no corner cutting", true, false]]) {
      const st = (stats[label] ??= { queries: 0, same: 0, cheaper: 0, costlier: 0, foundDiff: 0 });
      const ours = await solve(EasyStar, grid, costs, diag, cut, s, e, 50, g % 2 === 0);
      const theirs = await solve(RefEasyStar, grid, costs, diag, cut, s, e, 1e9, true);
      st.queries++;
      if ((ours.path === null) !== (theirs.path === null)) { st.foundDiff++; continue; }
      if (!ours.path) continue;
      const a = easyCost(ours.path, grid, costs), b = easyCost(theirs.path, grid, costs);
      if (Math.abs(a - b) < 1e-6) st.same++; else if (a < b) st.cheaper++; else st.costlier++;
      if (s.x !== e.x || s.y !== e.y) { assert.deepEqual(ours.path[0], s); assert.deepEqual(ours.path.at(-1), e); }
    }
  }
  console.log("EasyStar rule: queries, same cost, tilenav cheaper, tilenav costlier, found/not-found differs");
  for (const [k, s] of Object.entries(stats)) console.log(`  ${k}: ${s.queries} ${s.same} ${s.cheaper} ${s.costlier} ${s.foundDiff}`);
  for (const [k, s] of Object.entries(stats)) {
    assert.equal(s.foundDiff, 0, k);
    assert.equal(s.costlier, 0, k);
    if (k === "4 neighbours") assert.equal(s.cheaper, 0, k);
  }
});

test("EasyStar-style wrapper: the iteration budget spreads a search over calls; async callback; cancel", async () => {
  const grid = Array.from({ length: 60 }, (_, y) => Array.from({ length: 60 }, (_, x) => (x === 30 && y < 55 ? 1 : 0)));
  const es = new EasyStar.js();
  es.setGrid(grid);
  es.setAcceptableTiles([0]);
  es.setIterationsPerCalculation(100);
  let path, sawCall = false;
  es.findPath(0, 0, 59, 0, (p) => { path = p; });
  const id = es.findPath(0, 0, 59, 59, () => { sawCall = true; });
  assert.equal(es.cancelPath(id), true);
  let calls = 0;
  while (path === undefined && calls < 1000) { es.calculate(); calls++; await new Promise((r) => setTimeout(r, 0)); }
  assert.ok(calls > 10, `one search over ${calls} calls of 100 expansions`);
  assert.equal(path[0].x, 0);
  assert.equal(path.at(-1).x, 59);
  assert.equal(path.length, 59 + 2 * 55 + 1);
  es.calculate();
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(sawCall, false);
  // blocked end: null; same cell: []
  grid[5][5] = 1;
  es.setGrid(grid);
  const r = await new Promise((res) => { es.findPath(0, 0, 5, 5, res); es.calculate(); });
  assert.equal(r, null);
  const r2 = await new Promise((res) => { es.findPath(3, 3, 3, 3, res); es.calculate(); });
  assert.deepEqual(r2, []);
  // a fractional budget runs whole expansions (PathFinder.step() takes integers only)
  es.setIterationsPerCalculation(2.5);
  let p3;
  es.findPath(0, 0, 4, 0, (p) => { p3 = p; });
  for (let i = 0; p3 === undefined && i < 100; i++) { es.calculate(); await new Promise((r) => setTimeout(r, 0)); }
  assert.equal(p3.length, 5);
  es.free();
});

// Footprint Dijkstra for EasyStar's costs: a straight step costs the largest tile cost under the
// footprint entered, a diagonal one 1.4 times it (tilenav's 10/14, scaled).
function easyUnitCost(grid, costs, n, s, e, rule) {
  const h = grid.length, w = grid[0].length, blocked = grid.map((row) => row.map((v) => (costs[v] === undefined ? 1 : 0)));
  const foot = (x, y) => { let c = 0; for (let j = y; j < y + n; j++) for (let i = x; i < x + n; i++) c = Math.max(c, costs[grid[j][i]]); return c; };
  const dist = new Float64Array(w * h).fill(Infinity), done = new Uint8Array(w * h);
  if (!fitsAt(blocked, n, s.x, s.y)) return Infinity;
  dist[s.y * w + s.x] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < w * h; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) return Infinity;
    if (best === e.y * w + e.x) return dist[best];
    done[best] = 1;
    const x = best % w, y = (best / w) | 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      if (!unitStepLegal(blocked, n, [x, y], [x + dx, y + dy], rule)) continue;
      const d = dist[best] + (dx && dy ? 1.4 : 1) * foot(x + dx, y + dy);
      if (d < dist[(y + dy) * w + x + dx]) dist[(y + dy) * w + x + dx] = d;
    }
  }
}

test("EasyStar-style wrapper: setUnitSize(1..3) against a footprint Dijkstra, tile costs, 3 movement rules", () => {
  const rand = rng(1138), D = PF.DiagonalMovement;
  let found = 0;
  for (let g = 0; g < 40; g++) {
    const w = 6 + Math.floor(rand() * 12), h = 6 + Math.floor(rand() * 10);
    const grid = Array.from({ length: h }, () => Array.from({ length: w }, () => { const r = rand(); return r < 0.1 ? 1 : r < 0.3 ? 2 : 0; }));
    const costs = { 0: 1, 2: 3 };
    for (const n of [1, 2, 3]) for (const [diag, cut, rule] of [[false, true, D.Never], [true, true, D.Always], [true, false, D.OnlyWhenNoObstacles]]) {
      const s = { x: Math.floor(rand() * (w - n + 1)), y: Math.floor(rand() * (h - n + 1)) };
      const e = { x: Math.floor(rand() * (w - n + 1)), y: Math.floor(rand() * (h - n + 1)) };
      if ((s.x === e.x && s.y === e.y) || (n === 1 && grid[s.y][s.x] === 1)) continue; // one tile: EasyStar.js's unchecked start, tested above
      const es = new EasyStar.js();
      es.setGrid(grid);
      es.setAcceptableTiles([0, 2]);
      es.setTileCost(2, 3);
      es.setUnitSize(n);
      es.enableSync();
      if (diag) es.enableDiagonals();
      if (!cut) es.disableCornerCutting();
      let path;
      es.findPath(s.x, s.y, e.x, e.y, (p) => { path = p; });
      es.calculate();
      es.free();
      const want = easyUnitCost(grid, costs, n, s, e, rule), tag = `grid ${g} size ${n} rule ${rule}`;
      if (want === Infinity) { assert.equal(path, null, tag); continue; }
      assert.ok(path, tag);
      assert.deepEqual(path[0], s);
      assert.deepEqual(path.at(-1), e);
      const blocked = grid.map((row) => row.map((v) => (v === 1 ? 1 : 0)));
      let c = 0;
      for (let i = 1; i < path.length; i++) {
        const a = path[i - 1], b = path[i];
        assert.ok(unitStepLegal(blocked, n, [a.x, a.y], [b.x, b.y], rule), `${tag}: illegal step ${i}`);
        let f = 0;
        for (let j = b.y; j < b.y + n; j++) for (let k = b.x; k < b.x + n; k++) f = Math.max(f, costs[grid[j][k]]);
        c += (a.x !== b.x && a.y !== b.y ? 1.4 : 1) * f;
      }
      assert.ok(Math.abs(c - want) < 1e-9 * Math.max(1, want), `${tag}: cost ${c}, reference ${want}`);
      found++;
    }
  }
  assert.ok(found > 100, `only ${found} paths`);
  const es = new EasyStar.js();
  for (const bad of [0, 1.5, 256, "2"]) assert.throws(() => es.setUnitSize(bad), (e) => e.name === "TilenavError" && /setUnitSize needs an integer/.test(e.message));
});

test("regions: EasyStar answers an unreachable end in its first calculate(); PathFinding.js results unchanged", async () => {
  // a 200 x 200 field whose right column of rooms is walled off (x = 150 wall, full height)
  const n = 200, grid = Array.from({ length: n }, (_, y) => Array.from({ length: n }, (_, x) => (x === 150 ? 1 : 0)));
  const es = new EasyStar.js();
  es.setGrid(grid);
  es.setAcceptableTiles([0]);
  es.enableDiagonals();
  es.setIterationsPerCalculation(50); // far fewer than the ~30,000 cells left of the wall
  for (const [ex, ey, want] of [[199, 199, null], [149, 199, "path"], [180, 3, null]]) {
    let out;
    const done = new Promise((res) => es.findPath(0, 0, ex, ey, (p) => { out = p; res(); }));
    let calls = 0;
    while (out === undefined && calls < 5000) { es.calculate(); calls++; await new Promise((r) => setTimeout(r, 0)); }
    await done;
    if (want === null) { assert.equal(out, null); assert.equal(calls, 1, `unreachable end answered after ${calls} calls`); }
    else { assert.ok(out.length > 1); assert.ok(calls > 1); }
  }
  es.free();
  // PathFinding.js's API: the same (empty) answer whether the grid is fresh or searched before
  const matrix = grid.map((row) => row.slice()), g = new PF.Grid(matrix), ref = new RefPF.Grid(matrix);
  for (const Finder of [PF.AStarFinder, PF.DijkstraFinder, PF.JumpPointFinder]) {
    for (let k = 0; k < 2; k++) { // first search: no regions; second: regions
      const f = new Finder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles });
      assert.deepEqual(f.findPath(0, 0, 199, 199, g), []);
      assert.deepEqual(f.findPath(0, 0, 149, 0, g).length,
        new RefPF.AStarFinder({ diagonalMovement: RefPF.DiagonalMovement.OnlyWhenNoObstacles }).findPath(0, 0, 149, 0, ref.clone()).length);
    }
  }
  assert.equal(g.map.regionsMemory() > 0, true);
  g.free();
});

test("grid.clone() per search (PathFinding.js's habit) keeps no memory; a clone copies on write", () => {
  const G = new PF.Grid(512, 512);
  const astar = new PF.AStarFinder({ allowDiagonal: true }), best = new PF.BestFirstFinder();
  for (let i = 0; i < 20; i++) { astar.findPath(0, 0, 3, 3, G.clone()); best.findPath(0, 0, 3, 3, G.clone()); } // warm up
  const before = memoryBytes();
  for (let i = 0; i < 3000; i++) assert.equal(astar.findPath(0, 0, 3, 3, G.clone()).length, 4);
  for (let i = 0; i < 300; i++) assert.equal(best.findPath(0, 0, 9, 9, G.clone()).length, 19);
  assert.equal(memoryBytes(), before, "the module's memory grew with clones");
  // copy on write: a change to either side is not seen by the other
  const a = new PF.Grid([[0, 0, 0], [0, 1, 0], [0, 0, 0]]), b = a.clone(), c = a.clone();
  b.setWalkableAt(0, 1, false);
  assert.equal(a.isWalkableAt(0, 1), true);
  assert.equal(c.isWalkableAt(0, 1), true);
  assert.equal(b.isWalkableAt(0, 1), false);
  assert.equal(b.isWalkableAt(1, 1), false); // the copy keeps the original's walls
  a.nodes[0][1].walkable = false; // through a node, on the original
  assert.equal(c.isWalkableAt(1, 0), true);
  assert.equal(a.isWalkableAt(1, 0), false);
  assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 2, 0, c), [[0, 0], [1, 0], [2, 0]]);
  assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 2, 0, a).length, 7);
  b.setWalkableAt(2, 2, true); // no change: no copy needed
  // free(): the cells go with the last grid holding them; a freed grid throws; a grid's map
  // (its own: see "grid.map is the grid's alone") goes with it
  const d = c.clone();
  c.free();
  assert.throws(() => c.isWalkableAt(0, 0), /used after free/);
  assert.equal(d.isWalkableAt(1, 0), true);
  const own = d.map;
  assert.equal(own._h !== 0, true);
  assert.notEqual(own, b.map);
  d.free();
  assert.equal(own._h, 0);
  c.free(); // twice: nothing
  for (const g of [a, b, G]) g.free();
});

test("clone, edit, search, drop (no free()): the module's memory stays flat, the paths stay PathFinding.js's", () => {
  // the stranger's pf_clone_edit_leak.mjs: before, each edited clone copied its cells into a new
  // wasm map that only the garbage collector's finalizers freed (never, in a loop): 41 -> 233 MB
  const grid = new PF.Grid(64, 64), finder = new PF.AStarFinder();
  for (let i = 0; i < 10; i++) { const g = grid.clone(); g.setWalkableAt(5, 5, false); finder.findPath(0, 0, 63, 63, g); } // warm up
  const before = memoryBytes(), want = new RefPF.AStarFinder().findPath(0, 0, 63, 63, (() => { const r = new RefPF.Grid(64, 64); r.setWalkableAt(5, 5, false); return r; })()).length;
  for (let i = 0; i < 3000; i++) {
    const g = grid.clone();
    g.setWalkableAt(5, 5, false);
    g.setWalkableAt(i % 64, 40, false); // another unit, somewhere else each time
    assert.equal(finder.findPath(0, 0, 63, 63, g).length, want);
  }
  assert.equal(memoryBytes(), before, "the module's memory grew with edited clones");
  assert.equal(grid.isWalkableAt(5, 5), true); // the original is untouched
  // new grids of several sizes, dropped: still flat (the searches' maps are reused, at most a few)
  const sizes = [[64, 64], [30, 20], [100, 7], [8, 90], [50, 50], [64, 64]];
  for (let i = 0; i < 60; i++) { const [w, h] = sizes[i % sizes.length]; finder.findPath(0, 0, w - 1, h - 1, new PF.Grid(w, h)); }
  const mid = memoryBytes();
  for (let i = 0; i < 600; i++) { const [w, h] = sizes[i % sizes.length]; assert.equal(finder.findPath(0, 0, w - 1, h - 1, new PF.Grid(w, h)).length, w + h - 1); }
  assert.equal(memoryBytes(), mid, "the module's memory grew with new grids");
  // a map taken over by other cells gets exactly their walls: random clones with 0..80 edits
  // (a few cells written one by one, many as a rectangle), searched by the wasm and JS finders
  const rand = rng(606), base = Array.from({ length: 40 }, () => Array.from({ length: 40 }, () => (rand() < 0.25 ? 1 : 0)));
  base[0][0] = base[39][39] = 0;
  const G = new PF.Grid(base);
  for (let k = 0; k < 150; k++) {
    const g = G.clone(), m = base.map((r) => r.slice()), edits = Math.floor(rand() * 81);
    for (let e = 0; e < edits; e++) {
      const x = Math.floor(rand() * 40), y = Math.floor(rand() * 40), v = rand() < 0.7 ? 1 : 0;
      g.setWalkableAt(x, y, !v); m[y][x] = v;
    }
    for (const [name, opt] of [["AStarFinder", {}], ["DijkstraFinder", { allowDiagonal: true }], ["BestFirstFinder", {}]]) {
      const a = new PF[name](opt).findPath(0, 0, 39, 39, g), b = new RefPF[name](opt).findPath(0, 0, 39, 39, new RefPF.Grid(m));
      assert.equal(a.length, b.length, `${name}, clone ${k}`);
      if (name === "BestFirstFinder") assert.deepEqual(a, b);
    }
    if (k % 10 === 0) assert.deepEqual(g.map.passableGrid(), Uint8Array.from(m.flat(), (v) => 1 - v)); // its own map, made from its cells
  }
  G.free();
  grid.free();
});

test("grid.map is the grid's alone: edits through it are seen by the grid and its searches, never by a clone", () => {
  const g = new PF.Grid(5, 3), c = g.clone(), f = new PF.AStarFinder();
  assert.equal(f.findPath(0, 1, 4, 1, g).length, 5);
  g.map.fill(2, 0, 1, 3, 1); // a wall across the middle, through tilenav's API
  assert.equal(g.isWalkableAt(2, 1), false);
  assert.equal(c.isWalkableAt(2, 1), true); // c kept the cells as they were (g took its own copy)
  assert.equal(g.nodes[1][2].walkable, false);
  assert.deepEqual(f.findPath(0, 1, 4, 1, g), []);
  assert.equal(new PF.BestFirstFinder().findPath(0, 1, 4, 1, c).length, 5);
  // a stranger's cases: the map stays g's after a clone of g and an edit of g (it went to the
  // clone), and a clone's map never edits g
  const m = g.map, d = g.clone();
  g.setWalkableAt(0, 0, false);
  m.set(4, 0, 1);
  assert.equal(g.map, m);
  assert.equal(g.isWalkableAt(4, 0), false);
  assert.equal(d.isWalkableAt(4, 0), true);
  assert.equal(d.isWalkableAt(2, 1), false); // the clone copied the cells as they were then
  d.map.set(0, 2, 1);
  assert.equal(g.isWalkableAt(0, 2), true);
  assert.equal(d.isWalkableAt(0, 2), false);
  c.setWalkableAt(2, 2, false);
  assert.equal(g.map.passable(2, 2), false); // g's wall, not c's edit
  assert.equal(g.isWalkableAt(3, 2), true);
  g.free(); c.free(); d.free();
  assert.throws(() => g.map, /used after free/);
});

test("EasyStar-style wrapper reads the grid array live, as EasyStar.js: edits and avoided points between searches", () => {
  const rand = rng(4242), pick = (n) => Math.floor(rand() * n);
  let searches = 0, found = 0;
  for (let g = 0; g < 40; g++) {
    const w = 6 + pick(15), h = 6 + pick(15), tile = () => { const r = rand(); return r < 0.25 ? 1 : r < 0.4 ? 2 : 0; };
    const grid = Array.from({ length: h }, () => Array.from({ length: w }, tile));
    const ours = new EasyStar.js(), ref = new RefEasyStar.js(), avoided = new Set();
    for (const es of [ours, ref]) { es.enableSync(); es.setGrid(grid); es.setAcceptableTiles([0, 2]); es.setTileCost(2, 3); }
    for (let q = 0; q < 15; q++) {
      for (let k = pick(6); k >= 0; k--) grid[pick(h)][pick(w)] = tile(); // edits to the live array only
      const r = rand(), x = pick(w), y = pick(h);
      if (r < 0.3) { avoided.add(`${x},${y}`); for (const es of [ours, ref]) es.avoidAdditionalPoint(x, y); }
      else if (r < 0.45 && avoided.size) {
        const [ax, ay] = [...avoided][pick(avoided.size)].split(",").map(Number);
        avoided.delete(`${ax},${ay}`);
        for (const es of [ours, ref]) es.stopAvoidingAdditionalPoint(ax, ay);
      } else if (r < 0.5) { avoided.clear(); for (const es of [ours, ref]) es.stopAvoidingAllAdditionalPoints(); }
      if (r > 0.9) for (const es of [ours, ref]) es.setGrid(grid); // the same array again: no rebuild needed
      searches++;
      found += sameAsEasyStar(ours, ref, grid, avoided, { x: pick(w), y: pick(h) }, { x: pick(w), y: pick(h) }, `grid ${g} search ${q}`, true);
    }
    ours.free();
  }
  assert.ok(found > 150 && found < searches, `${found} paths of ${searches} searches`);
  // the stranger's case: a wall added to the array after the first search
  const es = new EasyStar.js(), g3 = [[0, 0, 0], [0, 0, 0]];
  es.enableSync(); es.setGrid(g3); es.setAcceptableTiles([0]);
  let out;
  es.findPath(0, 0, 2, 0, (p) => { out = p; }); es.calculate();
  assert.equal(out.length, 3);
  g3[0][1] = g3[1][1] = 1;
  es.findPath(0, 0, 2, 0, (p) => { out = p; }); es.calculate();
  assert.equal(out, null);
  es.free();
});

test("EasyStar-style wrapper: a diagonal may pass an avoided point's corner, as in EasyStar.js (never costlier, found/not found agree)", () => {
  // a stranger's case: corners are checked against the tiles only, never the avoided points
  const tiny = (avoid) => {
    const es = new EasyStar.js();
    es.enableSync(); es.setGrid([[0, 0], [0, 0]]); es.setAcceptableTiles([0]); es.enableDiagonals(); es.disableCornerCutting();
    for (const [x, y] of avoid) es.avoidAdditionalPoint(x, y);
    let out;
    es.findPath(0, 0, 1, 1, (p) => { out = p; }); es.calculate();
    es.free();
    return out;
  };
  assert.deepEqual(tiny([[1, 0]]), [{ x: 0, y: 0 }, { x: 1, y: 1 }]);
  assert.deepEqual(tiny([[1, 0], [0, 1]]), [{ x: 0, y: 0 }, { x: 1, y: 1 }]);
  assert.equal(tiny([[1, 1]]), null); // the goal itself avoided
  // an avoided point on a wall tile still blocks the corner
  {
    const es = new EasyStar.js();
    es.enableSync(); es.setGrid([[0, 1], [0, 0]]); es.setAcceptableTiles([0]); es.enableDiagonals(); es.disableCornerCutting();
    es.avoidAdditionalPoint(1, 0);
    let out;
    es.findPath(0, 0, 1, 1, (p) => { out = p; }); es.calculate();
    assert.equal(out.length, 3);
    es.setAcceptableTiles([0, 1]); // the tile under the avoided point becomes acceptable: the corner opens
    es.findPath(0, 0, 1, 1, (p) => { out = p; }); es.calculate();
    assert.equal(out.length, 2);
    es.free();
  }
  // random grids against EasyStar.js itself, diagonals on, corner cutting off and on
  const rand = rng(977), pick = (n) => Math.floor(rand() * n);
  let searches = 0, found = 0;
  for (let g = 0; g < 60; g++) {
    const w = 4 + pick(12), h = 4 + pick(12), tile = () => { const r = rand(); return r < 0.2 ? 1 : r < 0.35 ? 2 : 0; };
    const grid = Array.from({ length: h }, () => Array.from({ length: w }, tile));
    const ours = new EasyStar.js(), ref = new RefEasyStar.js(), avoided = new Set();
    for (const es of [ours, ref]) {
      es.enableSync(); es.setGrid(grid); es.setAcceptableTiles([0, 2]); es.setTileCost(2, 3); es.enableDiagonals();
      if (g % 2) es.disableCornerCutting();
    }
    for (let k = 2 + pick(w * h / 4); k > 0; k--) {
      const x = pick(w), y = pick(h);
      avoided.add(`${x},${y}`);
      for (const es of [ours, ref]) es.avoidAdditionalPoint(x, y);
    }
    for (let q = 0; q < 12; q++) {
      searches++;
      found += sameAsEasyStar(ours, ref, grid, avoided, { x: pick(w), y: pick(h) }, { x: pick(w), y: pick(h) }, `grid ${g} search ${q}`, false);
    }
    ours.free();
  }
  assert.ok(found > 200 && found < searches, `${found} paths of ${searches} searches`);
});

test("EasyStar-style wrapper: avoided points and grid edits change single cells of the map, not a rebuild", () => {
  const n = 512, grid = Array.from({ length: n }, () => new Array(n).fill(0)), es = new EasyStar.js();
  grid[n - 1][n - 1] = 1; // a value met at the start (a new one changes the terrain table: the whole map)
  es.enableSync(); es.setGrid(grid); es.setAcceptableTiles([0]); es.enableDiagonals();
  const find = () => { let out; es.findPath(0, 0, 10, 10, (p) => { out = p; }); es.calculate(); return out; };
  find();
  const m = es.map, rev = m.revision;
  for (let i = 0; i < 20; i++) {
    es.avoidAdditionalPoint(i, 5);
    assert.ok(find().every((c) => c.y !== 5 || c.x > i));
  }
  assert.equal(es.map, m, "the map was rebuilt");
  assert.equal(m.revision, rev + 20); // one cell each
  es.stopAvoidingAdditionalPoint(3, 5);
  es.stopAvoidingAdditionalPoint(3, 5); // twice: nothing more
  es.avoidAdditionalPoint(600, 600); // outside the grid: kept (as EasyStar.js does), no cell
  find();
  assert.equal(m.revision, rev + 21);
  es.stopAvoidingAllAdditionalPoints();
  assert.equal(find().length, 11);
  assert.equal(m.revision, rev + 40);
  grid[7][7] = 1; grid[8][8] = 1;
  assert.ok(find().every((c) => !(c.x === 7 && c.y === 7) && !(c.x === 8 && c.y === 8)));
  assert.equal(m.revision, rev + 42);
  assert.equal(es.map, m);
  const copy = grid.map((row) => row.slice()); // setGrid with an equal array of the same size: no change
  es.setGrid(copy);
  find();
  assert.equal(es.map, m);
  assert.equal(m.revision, rev + 42);
  es.free();
});

test("EasyStar-style wrapper takes the tile values EasyStar.js takes; refuses what cannot work at once", () => {
  const rand = rng(77), pick = (n) => Math.floor(rand() * n);
  const kinds = [[-1, 0, 7], ["grass", "rock", "mud"], [-1, "mud", 2.5], [null, undefined, "x"]];
  let found = 0;
  for (let g = 0; g < 60; g++) {
    const [floor, wall, mud] = kinds[g % kinds.length];
    const w = 5 + pick(12), h = 5 + pick(12), tile = () => { const r = rand(); return r < 0.25 ? wall : r < 0.45 ? mud : floor; };
    const grid = Array.from({ length: h }, () => Array.from({ length: w }, tile));
    const s = { x: pick(w), y: pick(h) }, e = { x: pick(w), y: pick(h) };
    const run = (E) => {
      const es = new E.js();
      es.enableSync(); es.setGrid(grid); es.setAcceptableTiles([floor, mud]); es.setTileCost(mud, 3);
      let out;
      es.findPath(s.x, s.y, e.x, e.y, (p) => { out = p; }); es.calculate();
      es.free?.();
      return out;
    };
    const a = run(EasyStar), b = run(RefEasyStar), cost = (p) => easyCost(p, grid.map((r) => r.map((v) => (v === mud ? 1 : 0))), { 0: 1, 1: 3 });
    assert.equal(a === null, b === null, `grid ${g}`);
    if (a && a.length) { found++; assert.ok(Math.abs(cost(a) - cost(b)) < 1e-9, `grid ${g}`); }
  }
  assert.ok(found > 20, `${found} paths`);
  // the report's cases: Phaser's -1, strings, string rows; 1 and "1" are different tiles (===)
  const path = (grid, acceptable, s, e, setup) => {
    const es = new EasyStar.js();
    es.enableSync(); es.setGrid(grid); es.setAcceptableTiles(acceptable); setup?.(es);
    let out;
    es.findPath(s[0], s[1], e[0], e[1], (p) => { out = p; }); es.calculate();
    es.free();
    return out && out.map((c) => [c.x, c.y]);
  };
  assert.deepEqual(path([[-1, 0]], [0, -1], [0, 0], [1, 0]), [[0, 0], [1, 0]]);
  assert.deepEqual(path([["g", "w", "g"], ["g", "g", "g"]], ["g"], [0, 0], [2, 0]), [[0, 0], [0, 1], [1, 1], [2, 1], [2, 0]]);
  assert.equal(path(["..#", "..."], ["."], [0, 0], [2, 1]).length, 4); // rows as strings
  assert.equal(path(["..#", "..."], ["."], [0, 0], [2, 0]), null);
  assert.equal(path([[1, "1", 1]], [1], [0, 0], [2, 0]), null);
  assert.equal(path([[0, 0, 0]], [0], [0, 0], [2, 0], (es) => es.setTileCost("0", 5)).length, 3); // costs by String(tile), as EasyStar.js
  // refused at once, saying why
  const es = new EasyStar.js();
  for (const bad of [5, [], [[]], [[0], 5], "..."])
    assert.throws(() => es.setGrid(bad), (e) => e.name === "TilenavError" && /setGrid: /.test(e.message), shown(bad));
  assert.throws(() => es.setGrid([new Array(70000).fill(0)]), (e) => e.status === -3 && /larger than tilenav maps go/.test(e.message));
  for (const c of [-1, 0, NaN, Infinity, "2"])
    assert.throws(() => es.setTileCost(0, c), (e) => e.name === "TilenavError" && /setTileCost\(0, .*\): a cost must be a finite number > 0/.test(e.message));
  es.setGrid([[0, 0, 0], [0, 0, 0], [0, 0, 0]]); es.setAcceptableTiles([0]);
  assert.throws(() => es.findPath(0, 0, 1.5, 2, () => {}), /findPath: endX must be an integer tile coordinate, got 1.5/);
  assert.throws(() => es.findPath("0", 0, 1, 2, () => {}), /findPath: startX must be an integer/);
  es.free();
});

function shown(v) { return JSON.stringify(v) ?? String(v); }

test("EasyStar-style wrapper: a new instance per path, never freed, keeps the module's memory flat", async () => {
  // the stranger's mem.mjs: before, each instance's map and search context stayed until the
  // garbage collector's finalizers ran (never, in a loop): +13 MB per 2,500 instances
  const once = () => {
    const es = new EasyStar.js();
    let out;
    es.setGrid([[0, 0, 0], [0, 1, 0], [0, 0, 0]]); es.setAcceptableTiles([0]); es.enableSync();
    es.findPath(0, 0, 2, 2, (p) => { out = p; }); es.calculate();
    return out;
  };
  for (let i = 0; i < 100; i++) once(); // warm up: the kept maps
  const before = memoryBytes();
  for (let i = 0; i < 3000; i++) assert.equal(once().length, 5);
  assert.equal(memoryBytes(), before, "the module's memory grew with EasyStar instances");
  // 90 live instances on their own grids (more than the maps kept), searching at once over many
  // calculate() calls, then again (some build their map anew): the same paths as one instance each
  const rand = rng(9090), grids = [], all = [];
  for (let k = 0; k < 90; k++) {
    const w = 8 + Math.floor(rand() * 20), h = 8 + Math.floor(rand() * 20);
    const g = Array.from({ length: h }, () => Array.from({ length: w }, () => (rand() < 0.25 ? 1 : 0)));
    g[0][0] = 0; g[h - 1][w - 1] = 0;
    grids.push(g);
    const es = new EasyStar.js();
    es.setGrid(g); es.setAcceptableTiles([0]); es.enableDiagonals(); es.setIterationsPerCalculation(7);
    all.push(es);
  }
  const want = grids.map((g) => {
    const es = new EasyStar.js();
    let out;
    es.setGrid(g); es.setAcceptableTiles([0]); es.enableDiagonals(); es.enableSync();
    es.findPath(0, 0, g[0].length - 1, g.length - 1, (p) => { out = p; }); es.calculate(); es.free();
    return out;
  });
  for (let round = 0; round < 2; round++) {
    const got = new Array(all.length);
    all.forEach((es, k) => es.findPath(0, 0, grids[k][0].length - 1, grids[k].length - 1, (p) => { got[k] = p; }));
    for (let calls = 0; got.filter((p) => p !== undefined).length < all.length && calls < 500; calls++) {
      for (const es of all) es.calculate();
      await new Promise((r) => setTimeout(r, 0));
    }
    assert.deepEqual(got, want, `round ${round}`);
    grids.forEach((g) => { g[1][1] = 1 - g[1][1]; }); // read live: an edit for the second round
    want.forEach((_, k) => {
      const es = new EasyStar.js();
      let out;
      es.setGrid(grids[k]); es.setAcceptableTiles([0]); es.enableDiagonals(); es.enableSync();
      es.findPath(0, 0, grids[k][0].length - 1, grids[k].length - 1, (p) => { out = p; }); es.calculate(); es.free();
      want[k] = out;
    });
  }
  assert.equal(all[0].map.width, grids[0][0].length); // a map that went is built again on use
  for (const es of all) es.free();
});

test("blocked start or end, and start = end, as PathFinding.js: every pair of cells of a small grid, every finder", () => {
  // the stranger's pf_start_end_blocked.mjs: from a blocked cell to itself PathFinding.js returns
  // [[x, y]] (it pops the start first); tilenav's AStar/Dijkstra/BestFirst returned []
  const m = [[0, 1, 0], [0, 0, 0], [1, 0, 1]], D = PF.DiagonalMovement;
  const grid = new PF.Grid(m);
  for (const [name, opt] of [["AStarFinder", {}], ["AStarFinder", { weight: 3 }], ["BestFirstFinder", {}], ["DijkstraFinder", {}],
    ["JumpPointFinder", {}], ["JumpPointFinder", { heuristic: PF.Heuristic.octile }]])
    for (const diagonalMovement of Object.values(D))
      for (let s = 0; s < 9; s++) for (let e = 0; e < 9; e++) {
        const [sx, sy, ex, ey] = [s % 3, (s / 3) | 0, e % 3, (e / 3) | 0], o = { ...opt, diagonalMovement };
        const a = new PF[name](o).findPath(sx, sy, ex, ey, grid);
        const b = new RefPF[name]({ ...o, heuristic: opt.heuristic && RefPF.Heuristic.octile }).findPath(sx, sy, ex, ey, new RefPF.Grid(m));
        const label = `${name} ${JSON.stringify(opt)} diagonal ${diagonalMovement}: (${sx}, ${sy}) -> (${ex}, ${ey})`;
        assert.equal(a.length, b.length, label);
        if (s === e || b.length <= 2) assert.deepEqual(a, b, label);
      }
  for (const F of [PF.AStarFinder, PF.DijkstraFinder, PF.BestFirstFinder]) // the repro's grid
    assert.deepEqual(new F().findPath(1, 0, 1, 0, new PF.Grid([[0, 1, 0], [0, 0, 0]])), [[1, 0]]);
  grid.free();
});

test("new PF.Node(x, y, walkable) as PathFinding.js's; a grid's nodes are Nodes with a live walkable", () => {
  // the stranger's pf_node_ctor.mjs: ours was Node(grid, x, y), so this threw
  for (const args of [[1, 2, true], [1, 2, false], [1, 2], [0, 0, 0]]) {
    const a = new PF.Node(...args), b = new RefPF.Node(...args);
    assert.deepEqual({ ...a }, { ...b }, JSON.stringify(args));
    assert.deepEqual(Object.keys(a), Object.keys(b));
  }
  const n = new PF.Node(3, 4);
  n.walkable = false; // a plain property
  assert.equal(n.walkable, false);
  assert.ok(n instanceof PF.Node);
  const g = new PF.Grid(3, 3), node = g.getNodeAt(1, 1);
  assert.ok(node instanceof PF.Node);
  assert.equal(node.walkable, true);
  node.walkable = false;
  assert.equal(g.isWalkableAt(1, 1), false);
  g.setWalkableAt(1, 1, true);
  assert.equal(node.walkable, true);
  assert.deepEqual(g.getNeighbors(g.nodes[0][0], PF.DiagonalMovement.Never), [g.nodes[0][1], g.nodes[1][0]]);
  g.free();
});

test("EasyStar-style wrapper after free(): every call throws; queued and running searches are cancelled, no callback", async () => {
  // the stranger's easystar_after_free.mjs: findPath/calculate still delivered, es.map still read
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const es = new EasyStar.js();
  es.setGrid([[0, 0], [0, 0]]); es.setAcceptableTiles([0]); es.enableSync();
  es.free();
  es.free(); // twice: nothing
  const used = /used after free\(\)/;
  assert.throws(() => es.findPath(0, 0, 1, 1, () => assert.fail("called")), used);
  assert.throws(() => es.calculate(), used);
  assert.throws(() => es.map, used);
  for (const call of [() => es.setGrid([[0]]), () => es.setAcceptableTiles([0]), () => es.enableDiagonals(), () => es.setTileCost(0, 2),
    () => es.cancelPath(1), () => es.avoidAdditionalPoint(0, 0), () => es.setIterationsPerCalculation(5), () => es.setUnitSize(1)])
    assert.throws(call, used);
  // async: a queued search, a running one (over several calculate() calls) and one whose answer
  // waits for its setTimeout: free() cancels all three (EasyStar.js never calls a cancelled
  // search's callback)
  const grid = Array.from({ length: 40 }, (_, y) => Array.from({ length: 40 }, (_, x) => (x === 20 && y < 38 ? 1 : 0)));
  const calls = [];
  const a = new EasyStar.js();
  a.setGrid(grid); a.setAcceptableTiles([0]); a.setIterationsPerCalculation(20);
  a.findPath(0, 0, 39, 0, (p) => calls.push(["running", p]));
  a.findPath(0, 0, 5, 5, (p) => calls.push(["queued", p]));
  a.calculate(); a.calculate();
  a.free();
  await tick();
  const b = new EasyStar.js();
  b.setGrid(grid); b.setAcceptableTiles([0]);
  b.findPath(0, 0, 1, 0, (p) => calls.push(["answered", p]));
  b.calculate(); // found: the callback waits for a setTimeout
  b.free();
  await tick();
  assert.deepEqual(calls, []);
  // cancelPath of a running search: no callback either (it was called with undefined)
  const c = new EasyStar.js();
  c.setGrid(grid); c.setAcceptableTiles([0]); c.setIterationsPerCalculation(20);
  const id = c.findPath(0, 0, 39, 0, (p) => calls.push(["cancelled", p]));
  c.calculate();
  assert.equal(c.cancelPath(id), true);
  c.calculate(); c.calculate();
  let after;
  c.findPath(0, 0, 3, 0, (p) => { after = p; });
  for (let i = 0; i < 10 && !after; i++) { c.calculate(); await tick(); }
  assert.deepEqual(calls, []);
  assert.equal(after.length, 4); // the searches after it run as before
  c.free();
});

test("findPath's coordinates: numeric strings as PathFinding.js takes them, anything else a TypeError naming the argument", () => {
  // the stranger's messages.mjs: findPath("0", "0", "3", "2", grid) named an internal method;
  // PathFinding.js 0.4.18 reads nodes[y][x], so it takes strings written as array indices
  const m = [[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]];
  const grid = new PF.Grid(m);
  for (const [name, opt] of [["AStarFinder", {}], ["AStarFinder", { allowDiagonal: true }], ["BestFirstFinder", {}], ["DijkstraFinder", {}], ["JumpPointFinder", {}]]) {
    const a = new PF[name](opt).findPath("0", "0", "3", "2", grid), b = new RefPF[name](opt).findPath("0", "0", "3", "2", new RefPF.Grid(m));
    assert.equal(a.length, b.length, name);
    assert.deepEqual(a, new PF[name](opt).findPath(0, 0, 3, 2, grid), name);
    if (!new PF[name](opt).usesWasm) assert.deepEqual(a, b, name); // the JavaScript engine: PathFinding.js's very path
    for (const p of a) assert.ok(typeof p[0] === "number" && typeof p[1] === "number");
  }
  assert.deepEqual(new PF.AStarFinder().findPath("2", "0", "2", "0", grid), [[2, 0]]);
  assert.equal(grid.isWalkableAt("1", "1"), false); // PathFinding.js's isWalkableAt takes them too
  // what PathFinding.js cannot find a node for ("01", "1.0", " 1", 0.5, NaN...): a TypeError naming
  // the argument (PathFinding.js: "Cannot set properties of undefined (setting 'g')")
  for (const [args, name] of [[[0.5, 0, 3, 2], "startX"], [[0, "abc", 3, 2], "startY"], [[0, 0, "01", 2], "endX"], [[0, 0, 3, "1.0"], "endY"],
    [[0, 0, 3, " 2"], "endY"], [[NaN, 0, 3, 2], "startX"], [[undefined, 0, 3, 2], "startX"], [[0, 0, 3, null], "endY"]])
    for (const F of [PF.AStarFinder, PF.BestFirstFinder, PF.DijkstraFinder, PF.JumpPointFinder])
      assert.throws(() => new F().findPath(...args, grid),
        (e) => e instanceof TypeError && e.message.startsWith(`tilenav/compat/pathfinding: findPath: ${name} must be an integer cell coordinate`), `${F.name} ${String(args)}`);
  assert.throws(() => new PF.AStarFinder().findPath(9, 0, 3, 2, grid), /outside the 4x3 grid/);
  // an end past a row's ends, on a row of the grid: PathFinding.js's A*, best-first and Dijkstra
  // search on and return [] (the node is undefined, never met); its JPS and every start outside,
  // or an end on no row, throw (a stranger's comparison: tilenav threw for all)
  for (const [args, name] of [[[0, 0, 4, 1], "end right"], [[0, 0, -1, 2], "end left"], [[0, 0, 1, 3], "end below"], [[-1, 0, 1, 1], "start left"]]) {
    for (const F of ["AStarFinder", "BestFirstFinder", "DijkstraFinder", "JumpPointFinder"]) {
      const refGrid = new RefPF.Grid(4, 3);
      let want;
      try { want = { path: new RefPF[F]().findPath(...args, refGrid) }; } catch { want = { threw: true }; }
      if (want.threw) assert.throws(() => new PF[F]().findPath(...args, grid), /outside the 4x3 grid/, `${F} ${name}`);
      else assert.deepEqual(new PF[F]().findPath(...args, grid), want.path, `${F} ${name}`);
    }
  }
  assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 4, 1, grid), []); // not vacuous: one case returns []
  assert.throws(() => grid.isWalkableAt(0.5, 0), /Grid.isWalkableAt: x must be an integer cell coordinate/);
  grid.free();
});

test("an unknown diagonalMovement throws PathFinding.js's error, as PathFinding.js does", () => {
  for (const bad of [5, 7, "always"]) {
    for (const name of ["AStarFinder", "BestFirstFinder", "DijkstraFinder"]) {
      for (const optimal of [false, true]) {
        const ref = new RefPF[name]({ diagonalMovement: bad });
        assert.throws(() => ref.findPath(0, 0, 1, 1, new RefPF.Grid([[0, 0], [0, 0]])), /Incorrect value of diagonalMovement/);
        const grid = new PF.Grid([[0, 0], [0, 0]]);
        const ours = new PF[name]({ diagonalMovement: bad, optimal });
        assert.throws(() => ours.findPath(0, 0, 1, 1, grid), /Incorrect value of diagonalMovement/, `${name} ${bad} optimal ${optimal}`);
        grid.free();
      }
    }
  }
});

test("Grid edges as PathFinding.js: sizes as strings, isWalkableAt outside (NaN too) is false, nodes serialise walkable", () => {
  // a stranger's comparison: these threw or lost `walkable` where PathFinding.js does not
  const g = new PF.Grid("3", "2"), r = new RefPF.Grid("3", "2");
  assert.deepEqual([g.width, g.height], [3, 2]);
  assert.equal(new PF.AStarFinder().findPath(0, 0, 2, 1, g).length, new RefPF.AStarFinder().findPath(0, 0, 2, 1, r).length);
  g.setWalkableAt(1, 0, false); r.setWalkableAt(1, 0, false);
  for (const a of [[NaN, 0], [0, NaN], [-1, 0], [3, 0], [0, 2], [Infinity, 1], ["1", "1"], [1, 0], [2, 1]])
    assert.equal(g.isWalkableAt(...a), r.isWalkableAt(...a), String(a));
  assert.throws(() => g.isWalkableAt(0.5, 0), /must be an integer cell coordinate/); // PathFinding.js: a TypeError too
  assert.deepEqual(JSON.parse(JSON.stringify(g.nodes[0][1])), { x: 1, y: 0, walkable: false });
  assert.deepEqual(JSON.parse(JSON.stringify(g.getNodeAt(2, 1))), { x: 2, y: 1, walkable: true });
  g.free();
});
