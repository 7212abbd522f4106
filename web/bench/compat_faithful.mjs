// tilenav/compat/pathfinding's JavaScript-run finders (PathFinding.js's own search, reproduced)
// against PathFinding.js from npm on Moving AI maps, in Node.js: whether the paths are the same
// cells, and the mean time of a query (PathFinding.js's includes the grid.clone() it needs).
//
//   node web/bench/compat_faithful.mjs [N=50] MAP...   (default: den520d, AR0011SR, maze512-1-0)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import PF from "../pkg/compat/pathfinding.mjs";
import { parseMovingAiMap, parseScenarios, spreadSelection } from "./path_bench.mjs";

const RefPF = createRequire(import.meta.url)("pathfinding");
const args = process.argv.slice(2);
const n = args[0] && /^\d+$/.test(args[0]) ? Number(args.shift()) : 50;
const root = fileURLToPath(new URL("../../../shared/bench/movingai/", import.meta.url));
const maps = args.length ? args : ["dao/den520d.map", "bg512/AR0011SR.map", "mazes/maze512-1-0.map"].map((m) => root + m);
const D = PF.DiagonalMovement.OnlyWhenNoObstacles;
const FINDERS = [["BestFirstFinder", { diagonalMovement: D }], ["JumpPointFinder", {}],
  ["JumpPointFinder", { diagonalMovement: D }], ["AStarFinder", { diagonalMovement: D, weight: 3 }]];

function meanUs(sel, f) {
  const t = performance.now();
  for (let r = 0; r < 3; r++) for (const s of sel) f(s);
  return ((performance.now() - t) * 1000) / (3 * sel.length);
}

for (const file of maps) {
  const m = parseMovingAiMap(readFileSync(file, "utf8"));
  const all = parseScenarios(readFileSync(file + ".scen", "utf8"));
  const sel = spreadSelection(all.length, n).map((i) => all[i]);
  const matrix = Array.from({ length: m.height }, (_, y) => Array.from({ length: m.width }, (_, x) => m.cells[y * m.width + x]));
  const grid = new PF.Grid(matrix), ref = new RefPF.Grid(matrix);
  console.log(`${file.split("/").pop()} (${m.width}x${m.height}, ${sel.length} scenarios)`);
  for (const [name, opt] of FINDERS) {
    const ours = new PF[name](opt), theirs = new RefPF[name](opt);
    const run = (f, g) => (s) => f.findPath(s.start.x, s.start.y, s.goal.x, s.goal.y, g === ref ? ref.clone() : g);
    let same = 0;
    for (const s of sel) if (JSON.stringify(run(ours, grid)(s)) === JSON.stringify(run(theirs, ref)(s))) same++;
    const a = meanUs(sel, run(ours, grid)), b = meanUs(sel, run(theirs, ref));
    console.log(`  ${name} ${JSON.stringify(opt)}: same cells ${same}/${sel.length}, ${ours.usesWasm ? "wasm" : "JavaScript"}; ` +
      `tilenav ${a.toFixed(0)} µs, PathFinding.js + clone ${b.toFixed(0)} µs (${(b / a).toFixed(1)}x)`);
  }
  grid.free();
}
