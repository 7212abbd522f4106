// What the JavaScript API's Hierarchy (HPA*) and SectorField cost and save, in Node.js, on a
// Moving AI map (default ../shared/bench/movingai/bg512/AR0011SR.map and its .scen; a map made by
// bench/gen_huge.py comes with OUT/hugeN.cand.scen, found next to it). One run measures, on the
// same scenario selection: the hierarchy's build (median of 5), fast and exact queries against
// PathFinder.find with A* and JPS (median per query, and the fast paths' suboptimality against
// JPS's optimal cost), the update after a 2x2 tower, and a sector field's first use (setGoal,
// the first direction(), the first path() across the map, then the same path() again).
//
//   node web/bench/hierarchy.mjs [MAP] [--spread N] [--sector S]
//   python3 bench/gen_huge.py --tiles 4 --min-dist 1024 --out build/huge   # a 2048x2048 map
//   node web/bench/hierarchy.mjs build/huge/huge2048.map --spread 100
import { readFile, access } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { init, TileMap, PathFinder, Hierarchy } from "../pkg/tilenav.mjs";
import { parseMovingAiMap, parseScenarios, spreadSelection } from "./path_bench.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); if (i < 0) return dflt; const v = Number(args[i + 1]); args.splice(i, 2); return v; };
const spread = opt("--spread", 200), sectorSize = opt("--sector", 32);
const file = args[0] ?? fileURLToPath(new URL("../../../shared/bench/movingai/bg512/AR0011SR.map", import.meta.url));
let scenFile = `${file}.scen`;
try { await access(scenFile); } catch { scenFile = file.replace(/\.map$/, ".cand.scen"); }

await init();
const m = parseMovingAiMap(await readFile(file, "utf8"));
const all = parseScenarios(await readFile(scenFile, "utf8"));
const sel = spreadSelection(all.length, spread).map((i) => all[i]);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const time = (fn) => { const t = performance.now(); const r = fn(); return [performance.now() - t, r]; };
const out = (k, v) => console.log(`${k}\t${typeof v === "number" ? (Number.isInteger(v) ? v : v.toFixed(4)) : v}`);
const map = new TileMap({ width: m.width, height: m.height, cells: m.cells, blocked: [1] });
out("map", `${file.split("/").slice(-1)[0]} ${m.width}x${m.height}, ${sel.length} scenarios, sectors ${sectorSize}`);

// build: a fresh hierarchy on the map, median of 5
const builds = [];
for (let i = 0; i < 5; i++) {
  const [t, h] = time(() => new Hierarchy(map, { sectorSize }));
  builds.push(t);
  if (i < 4) h.free(); else globalThis.hier = h;
}
const hier = globalThis.hier;
out("hierarchy build ms (median of 5)", median(builds));
const st = hier.stats;
out("hierarchy nodes", st.nodes);
out("hierarchy MB", hier.memoryBytes / 1e6);

// queries: each scenario once per method (after one untimed pass), same selection, one run
const pf = new PathFinder(map);
const methods = {
  "PathFinder A*": (s) => pf.find(map, s.start, s.goal, { algo: "astar", regions: false }),
  "PathFinder JPS": (s) => pf.find(map, s.start, s.goal, { algo: "jps", regions: false }),
  "Hierarchy fast": (s) => hier.find(s.start, s.goal),
  "Hierarchy exact": (s) => hier.find(s.start, s.goal, { exact: true }),
};
const costs = {};
for (const [name, fn] of Object.entries(methods)) costs[name] = sel.map((s) => fn(s).cost); // warm-up + answers
// the longest quarter of the selection by optimal cost: where a hierarchy is meant to help
const longCut = [...costs["PathFinder JPS"]].sort((a, b) => a - b)[Math.floor(0.75 * sel.length)];
for (const [name, fn] of Object.entries(methods)) {
  const ts = sel.map((s) => time(() => fn(s))[0]);
  const long = ts.filter((_, i) => costs["PathFinder JPS"][i] >= longCut);
  out(`${name} ms/query median | mean | median of the longest quarter`,
    `${median(ts).toFixed(4)} | ${(ts.reduce((a, b) => a + b, 0) / ts.length).toFixed(4)} | ${median(long).toFixed(4)}`);
}
let worst = 0, sum = 0, mism = 0;
sel.forEach((s, i) => {
  const opt = costs["PathFinder JPS"][i], fast = costs["Hierarchy fast"][i];
  if (Math.abs(costs["Hierarchy exact"][i] - opt) > 1e-6 * opt || Math.abs(costs["PathFinder A*"][i] - opt) > 1e-6 * opt) mism++;
  const sub = fast / opt - 1;
  sum += sub; worst = Math.max(worst, sub);
});
out("exact/A* cost mismatches vs JPS", mism);
out("fast suboptimality mean %", (100 * sum) / sel.length);
out("fast suboptimality max %", 100 * worst);

// update: a 2x2 tower on open floor, then the next query (automatic update), median of 50
const ups = [];
for (let i = 0, k = 0; k < 50 && i < 5000; i++) {
  const x = 1 + ((i * 97) % (m.width - 3)), y = 1 + ((i * 131) % (m.height - 3));
  if (![0, 1].every((dy) => [0, 1].every((dx) => map.passable(x + dx, y + dy)))) continue;
  for (const v of [1, 0]) {
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) map.set(x + dx, y + dy, v);
    ups.push(time(() => hier.update())[0]);
  }
  k++;
}
out("update after a 2x2 tower ms (median)", median(ups));

// sector field: the first scenario's goal; its start is far away
const far = sel.reduce((a, s) => (Math.hypot(s.start.x - s.goal.x, s.start.y - s.goal.y) > Math.hypot(a.start.x - a.goal.x, a.start.y - a.goal.y) ? s : a), sel[0]);
const [tGoal, field] = time(() => hier.sectorField(far.goal));
out("sector field setGoal ms (first)", tGoal);
const [tGoal2] = time(() => field.setGoal(far.goal));
out("sector field setGoal ms (again)", tGoal2);
const [tDir, d] = time(() => field.direction(far.start.x, far.start.y));
out("sector field first direction() ms (one sector built)", tDir);
const [tPath, p] = time(() => field.path(far.start));
out(`sector field first path() ms (${p.path.length} cells)`, tPath);
out("sector field sectors built", field.stats.tilesBuilt);
const [tAgain] = time(() => field.path(far.start));
out("sector field same path() again ms", tAgain);
out("sector field KB", field.memoryBytes / 1e3);
out("sector field cost vs fast path", `${d.cost.toFixed(3)} vs ${hier.find(far.start, far.goal).cost.toFixed(3)} (optimal ${pf.find(map, far.start, far.goal, { algo: "jps" }).cost.toFixed(3)})`);
field.free(); hier.free(); pf.free(); map.free();
