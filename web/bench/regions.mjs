// What the JavaScript API's regions cost and save, in Node.js, on a Moving AI map (default
// ../shared/bench/movingai/bg512/AR0011SR.map): the build (first region query on a fresh map),
// the update after a 2x2 tower placed and then sold, the memory, an unreachable goal answered
// with and without regions, and the scenario file's (reachable) queries with and without them.
// Medians of repeated runs, in ms.
//
//   node web/bench/regions.mjs [MAP]
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { init, TileMap, PathFinder } from "../pkg/tilenav.mjs";
import { parseMovingAiMap, parseScenarios } from "./path_bench.mjs";

await init();
const file = process.argv[2] ??
  fileURLToPath(new URL("../../../shared/bench/movingai/bg512/AR0011SR.map", import.meta.url));
const m = parseMovingAiMap(await readFile(file, "utf8"));
const scen = parseScenarios(await readFile(`${file}.scen`, "utf8"));
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const time = (fn) => { const t = performance.now(); fn(); return performance.now() - t; };
const fresh = () => new TileMap({ width: m.width, height: m.height, cells: m.cells, blocked: [1] });
const out = (k, v) => console.log(`${k}\t${typeof v === "number" ? v.toFixed(4) : v}`);
out("map", `${file.split("/").slice(-1)[0]} ${m.width}x${m.height}`);

// build: the first region query on a fresh map (side-connected rules; "always"; sizes 1..4)
for (const [label, o] of [["build size 1 no-cut", {}], ["build size 1 always", { diagonal: "always" }],
  ["build sizes 1..4 no-cut", { size: 4 }]]) {
  const ts = [];
  let bytes = 0;
  for (let i = 0; i < 15; i++) {
    const map = fresh();
    ts.push(time(() => map.regionCount(o)));
    bytes = map.regionsMemory();
    map.free();
  }
  out(`${label} ms`, median(ts));
  out(`${label} bytes/cell`, bytes / (m.width * m.height));
}

// update: a 2x2 tower placed on open floor then sold, each followed by a region query
for (const size of [1, 4]) {
  const map = fresh(), ts = [];
  map.regionCount({ size });
  let k = 0;
  for (let i = 0; i < 400 && k < 400; i++) {
    const x = 1 + ((i * 97) % (m.width - 3)), y = 1 + ((i * 131) % (m.height - 3));
    if (![0, 1].every((dy) => [0, 1].every((dx) => map.passable(x + dx, y + dy)))) continue;
    for (const v of [1, 0]) {
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) map.set(x + dx, y + dy, v);
      ts.push(time(() => map.regionCount({ size })));
      k++;
    }
  }
  out(`update after a 2x2 tower (placed or sold), sizes 1..${size} ms`, median(ts));
  out(`  (${ts.length} updates)`, "");
  map.free();
}

// an unreachable goal: start in the largest region, goal in another one
{
  const map = fresh(), ids = map.regionGrid(), count = map.regionCount(), pop = new Int32Array(count);
  for (const id of ids) if (id >= 0) pop[id]++;
  const big = pop.indexOf(Math.max(...pop));
  const si = ids.indexOf(big), gi = ids.findIndex((id) => id >= 0 && id !== big);
  const start = { x: si % m.width, y: Math.floor(si / m.width) }, goal = { x: gi % m.width, y: Math.floor(gi / m.width) };
  out("regions", `${count} (largest ${pop[big]} cells)`);
  const pf = new PathFinder(map);
  for (const regions of [false, true]) {
    const ts = [];
    let r;
    for (let i = 0; i < 9; i++) ts.push(time(() => { r = pf.find(map, start, goal, { regions }); }));
    out(`unreachable goal, regions ${regions}: ms`, median(ts));
    out(`  expanded`, r.expanded);
  }
  pf.free();
  map.free();
}

// the scenario file's queries (all reachable): a pass with and without regions, and a first
// query on a fresh map (which builds them)
{
  const map = fresh(), pf = new PathFinder(map);
  for (const regions of [false, true]) {
    const ts = [];
    for (let p = 0; p < 5; p++) ts.push(time(() => { for (const s of scen) pf.find(map, s.start, s.goal, { regions }); }));
    out(`${scen.length} scenario queries, regions ${regions}: ms per query`, median(ts) / scen.length);
  }
  for (const regions of [false, true]) {
    const ts = [];
    for (let i = 0; i < 9; i++) {
      const f = fresh();
      const s = scen[(i * 37) % scen.length];
      ts.push(time(() => pf.find(f, s.start, s.goal, { regions })));
      f.free();
    }
    out(`first query on a fresh map, regions ${regions}: ms`, median(ts));
  }
  pf.free();
  map.free();
}
