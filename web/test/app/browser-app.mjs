// A browser app bundled by esbuild from the installed package (web/test/package.sh), run in
// headless Chromium by web/test/bundle-browser.mjs: it sets window.result.
import { init, TileMap, PathFinder, version } from "tilenav";
import PF from "tilenav/compat/pathfinding";

(async () => {
  try {
    await init(); // tilenav.wasm next to the bundle (import.meta.url)
    const map = TileMap.fromText(["..#....", "..#.##.", "......."]);
    const r = new PathFinder(map).find(map, { x: 0, y: 0 }, { x: 6, y: 0 });
    const grid = new PF.Grid([[0, 0, 0], [1, 1, 0], [0, 0, 0]]);
    const p = new PF.AStarFinder().findPath(0, 0, 0, 2, grid);
    window.result = { ok: true, version: version(), found: r.found, length: r.path.length, cost: r.cost, compat: p.length };
  } catch (e) {
    window.result = { ok: false, error: String(e && e.stack || e) };
  }
  document.body.textContent = JSON.stringify(window.result);
})();
