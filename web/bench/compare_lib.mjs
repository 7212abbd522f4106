// One comparison for Node.js and the browser alike: on a Moving AI map, the same scenario
// selection answered by tilenav's own API, its PathFinding.js-compatible entry, its
// EasyStar-style wrapper, PathFinding.js and EasyStar.js (the npm packages). The rule is the
// benchmark's: 8 neighbours, no corner cutting, costs 1 and √2 (EasyStar.js: 1 and 1.4, its
// only choice, so its optimum differs from the file's at times). Every answer is checked against
// the scenario's optimum with tn_scenario_matches()'s tolerance (mismatches). Times: whole passes
// over the selection, repeated for at least 60 ms (browsers coarsen performance.now()); the best
// of 5 such samples (2 for PathFinding.js and EasyStar.js, whose passes take seconds), in mean µs
// per query. PathFinding.js needs a fresh grid per search: its grid.clone() is timed with it.
import { parseMovingAiMap, parseScenarios, spreadSelection } from "./path_bench.mjs";

const SQRT2 = Math.SQRT2;
const lengthOf = (path) => { // octile length of a [[x, y]] or [{x, y}] path
  let s = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i];
    const dx = Math.abs((a.x ?? a[0]) - (b.x ?? b[0])), dy = Math.abs((a.y ?? a[1]) - (b.y ?? b[1]));
    s += dx && dy ? SQRT2 : 1;
  }
  return s;
};

// The best of `samples` samples of the mean µs per query (the least disturbed by other load on
// the machine); a sample repeats whole passes over the selection until it has run for at least
// minMs (coarse browser clocks).
function timePasses(sel, samples, run, minMs = 60) {
  const out = [];
  for (let p = 0; p < samples; p++) {
    let queries = 0;
    const t0 = performance.now();
    let t = t0;
    do { for (const s of sel) run(s); queries += sel.length; t = performance.now(); } while (t - t0 < minMs);
    out.push(((t - t0) * 1000) / queries);
  }
  return Math.min(...out);
}

/**
 * @param {object} libs {tn, PF (compat), ES (compat), RefPF, RefES}
 * @returns {Promise<object[]>} one row per library
 */
export async function compare(libs, mapText, scenText, { spread = 100, passes = 5, slowPasses = 2 } = {}) {
  const { tn, PF, ES, RefPF, RefES } = libs;
  await tn.init();
  const m = parseMovingAiMap(mapText), all = parseScenarios(scenText);
  const sel = spreadSelection(all.length, spread).map((i) => all[i]);
  const matrix = [];
  for (let y = 0; y < m.height; y++) matrix.push(Array.from(m.cells.subarray(y * m.width, (y + 1) * m.width)));
  // tn_scenario_matches()'s tolerance: the file's printed decimals count
  const ok = (len, s) => Math.abs(len - s.optimal) <= 1e-4 * s.optimal + 1e-3 + 0.5 * 10 ** -s.decimals;
  const rows = [];
  const row = (name, check, run, p) => {
    let mismatches = 0;
    for (const s of sel) if (!check(s)) mismatches++; // also a warm-up pass
    rows.push({ name, queries: sel.length, mismatches, mean_us: timePasses(sel, p, run) });
  };

  // tilenav, its own API
  const map = new tn.TileMap({ width: m.width, height: m.height, cells: m.cells });
  const finder = new tn.PathFinder(map);
  row("tilenav PathFinder.find (A*)", (s) => ok(finder.find(map, s.start, s.goal).cost, s), (s) => finder.find(map, s.start, s.goal), passes);
  row("tilenav PathFinder.find (JPS)", (s) => ok(finder.find(map, s.start, s.goal, { algo: "jps" }).cost, s), (s) => finder.find(map, s.start, s.goal, { algo: "jps" }), passes);
  const flat = new Int32Array(sel.flatMap((s) => [s.start.x, s.start.y, s.goal.x, s.goal.y]));
  { // batch: one call for the whole selection
    const b = finder.findMany(map, flat);
    let mismatches = 0;
    sel.forEach((s, i) => { if (!ok(b.costs[i], s)) mismatches++; });
    rows.push({ name: "tilenav PathFinder.findMany (A*, batch)", queries: sel.length, mismatches, mean_us: timePasses([flat], passes, () => finder.findMany(map, flat)) / sel.length });
  }
  finder.free();
  map.free();

  // tilenav's PathFinding.js-compatible entry: one grid, no clone
  const grid = new PF.Grid(matrix);
  const astar = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles });
  const pfRun = (s) => astar.findPath(s.start.x, s.start.y, s.goal.x, s.goal.y, grid);
  row("tilenav/compat/pathfinding AStarFinder", (s) => ok(lengthOf(pfRun(s)), s), pfRun, passes);
  grid.free();

  // PathFinding.js: a fresh grid.clone() per search, as it requires
  const rgrid = new RefPF.Grid(matrix);
  const rastar = new RefPF.AStarFinder({ diagonalMovement: RefPF.DiagonalMovement.OnlyWhenNoObstacles });
  const rRun = (s) => rastar.findPath(s.start.x, s.start.y, s.goal.x, s.goal.y, rgrid.clone());
  row("PathFinding.js AStarFinder (+ grid.clone())", (s) => ok(lengthOf(rRun(s)), s), rRun, slowPasses);
  const rjps = new RefPF.JumpPointFinder({ diagonalMovement: RefPF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: RefPF.Heuristic.octile });
  const rjRun = (s) => rjps.findPath(s.start.x, s.start.y, s.goal.x, s.goal.y, rgrid.clone());
  row("PathFinding.js JumpPointFinder (+ grid.clone())", (s) => ok(lengthOf(rjRun(s)), s), rjRun, slowPasses);

  // EasyStar.js and tilenav's EasyStar-style wrapper, sync mode, whole search in one calculate()
  const easy = (E) => {
    const es = new E.js();
    es.setGrid(matrix.map((r) => r.slice()));
    es.setAcceptableTiles([0]);
    es.enableDiagonals();
    es.disableCornerCutting();
    es.enableSync();
    return (s) => { let out; es.findPath(s.start.x, s.start.y, s.goal.x, s.goal.y, (p) => { out = p; }); es.calculate(); return out; };
  };
  const esOurs = easy(ES), esRef = easy(RefES);
  row("tilenav/compat/easystar (sync)", (s) => ok(lengthOf(esOurs(s) ?? []), s), esOurs, passes);
  row("EasyStar.js (sync)", (s) => ok(lengthOf(esRef(s) ?? []), s), esRef, slowPasses);
  return rows;
}
