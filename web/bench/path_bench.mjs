// One path benchmark for Node.js and the browser alike: a Moving AI map and its scenarios,
// PathFinder.find() (A*, 8 neighbours, no corner cutting: the benchmark's rule) timed over the
// same scenario selection as `tilenav bench --spread N`. Browsers coarsen performance.now()
// (to 0.1 ms without cross-origin isolation), so queries are timed in whole passes over the
// selection and the figure is the mean per query; `tilenav bench` prints its mean too.

// The Moving AI terrain letters: '.', 'G' ground and 'S' swamp pass; '@', 'O', 'T', 'W' block.
export function parseMovingAiMap(text) {
  const lines = text.split(/\r?\n/);
  const h = Number(lines.find((l) => l.startsWith("height")).split(/\s+/)[1]);
  const w = Number(lines.find((l) => l.startsWith("width")).split(/\s+/)[1]);
  const first = lines.indexOf("map") + 1, cells = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) cells[y * w + x] = ".GS".includes(lines[first + y][x]) ? 0 : 1;
  return { width: w, height: h, cells };
}

export function parseScenarios(text) {
  return text.split(/\r?\n/).slice(1).filter((l) => l.trim()).map((l) => {
    const f = l.trim().split(/\s+/); // tabs in most .scen files, spaces in some (bg512)
    const decimals = (f[8].split(".")[1] ?? "").length; // bg512 files print 2 decimals
    return { start: { x: +f[4], y: +f[5] }, goal: { x: +f[6], y: +f[7] }, optimal: +f[8], decimals };
  });
}

// The scenarios `tilenav bench --spread n` picks: n indices spread evenly over the file.
export function spreadSelection(count, n) {
  if (!(n > 0 && n < count)) return [...Array(count).keys()];
  const step = n > 1 ? (count - 1) / (n - 1) : 0, sel = [];
  for (let i = 0; i < n; i++) { const k = Math.floor(i * step + 0.5); if (k !== sel.at(-1)) sel.push(k); }
  return sel;
}

export async function benchPaths(tn, mapText, scenText, { spread = 300, warmup = 20, passes = 5 } = {}) {
  await tn.init();
  const m = parseMovingAiMap(mapText), all = parseScenarios(scenText);
  const sel = spreadSelection(all.length, spread).map((i) => all[i]);
  const map = new tn.TileMap({ width: m.width, height: m.height, cells: m.cells });
  const finder = new tn.PathFinder(map);
  let mismatches = 0;
  for (const s of sel) { // check every answer once (and warm up)
    const r = finder.find(map, s.start, s.goal);
    if (!r.found || Math.abs(r.cost - s.optimal) > 1e-4 * Math.max(1, s.optimal)) mismatches++;
  }
  for (let k = 0; k < warmup; k++) finder.find(map, sel[k % sel.length].start, sel[k % sel.length].goal);
  const perPass = [];
  for (let p = 0; p < passes; p++) {
    const t0 = performance.now();
    for (const s of sel) finder.find(map, s.start, s.goal);
    perPass.push(((performance.now() - t0) * 1000) / sel.length);
  }
  perPass.sort((a, b) => a - b);
  finder.free();
  map.free();
  return { scenarios: sel.length, mismatches, mean_us: perPass[passes >> 1], passes: perPass };
}
