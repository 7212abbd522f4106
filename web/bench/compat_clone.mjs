// PathFinding.js code searches a fresh grid.clone() each time; with tilenav/compat/pathfinding a
// clone shares the grid's cells copy-on-write. This times findPath(..., grid.clone()) on a
// 512 x 512 grid with 30 % walls and reports the module's memory and the process's RSS.
//
//   node web/bench/compat_clone.mjs [COUNT]      (default 100000)
import PF from "../pkg/compat/pathfinding.mjs";
import { memoryBytes } from "../pkg/tilenav.mjs";

const count = Number(process.argv[2] ?? 100000), N = 512, m = [];
let s = 7;
const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
for (let y = 0; y < N; y++) { m.push([]); for (let x = 0; x < N; x++) m[y].push(rnd() < 0.3 ? 1 : 0); }
m[0][0] = m[3][3] = 0;
const G = new PF.Grid(m), f = new PF.AStarFinder({ allowDiagonal: true });
for (let i = 0; i < 2; i++) f.findPath(0, 0, 3, 3, G.clone()); // the second search builds the regions
const before = memoryBytes(), t = performance.now();
for (let i = 0; i < count; i++) f.findPath(0, 0, 3, 3, G.clone());
const ms = performance.now() - t;
console.log(`${count} x findPath(0, 0, 3, 3, grid.clone()) on 512 x 512: ${(1000 * ms / count).toFixed(1)} µs each; ` +
  `module memory ${(before / 2 ** 20).toFixed(1)} -> ${(memoryBytes() / 2 ** 20).toFixed(1)} MiB, RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
