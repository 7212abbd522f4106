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
    // a Tiled map fetched with its external tileset, layers in base64 + zlib and + gzip
    // (DecompressionStream in the browser): walls at x = 2 (y < 3), cost 4 at (4, 3)
    const url = new URL("./map.tmj", location.href);
    const tiled = await TileMap.fromTiled(await (await fetch(url)).text(), { url });
    const tp = new PathFinder(tiled).find(tiled, { x: 0, y: 0 }, { x: 5, y: 0 }, { diagonal: "never" });
    const t = { wall: !tiled.passable(2, 0), open: tiled.passable(2, 3), cost: tiled.cost(4, 3), path: tp.path.length };
    window.result = { ok: true, version: version(), found: r.found, length: r.path.length, cost: r.cost, compat: p.length, tiled: t };
  } catch (e) {
    window.result = { ok: false, error: String(e && e.stack || e) };
  }
  document.body.textContent = JSON.stringify(window.result);
})();
