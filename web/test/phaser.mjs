// The Phaser 3 example (web/examples/phaser/) in headless Chromium: the tilenav map equals
// Phaser's collision settings cell by cell; a wall put with putTileAt on the hero's path
// reaches tilenav at once and the hero re-plans around it, never stands on a blocked cell and
// arrives; the creeps following the flow field are never seen inside a wall, reach the goal
// (update() returns false there) and are sent back, never piling up on the goal.
//   node web/test/phaser.mjs [OUTDIR]     (CHROMIUM overrides /usr/bin/chromium)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { serve } from "./serve.mjs";

const out = process.argv[2] ?? "build/web-test";
mkdirSync(out, { recursive: true });
const { server, url } = await serve(0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const fail = (msg) => { throw new Error(`phaser: ${msg}`); };
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 620 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(`${url}/examples/phaser/index.html`);
  await page.waitForFunction(() => window.phaserDemo?.state().ready && window.phaserDemo.state().frames > 5, null, { timeout: 30000 });
  const same = await page.evaluate(() => JSON.stringify(phaserDemo.navGrid()) === JSON.stringify(phaserDemo.phaserGrid()));
  if (!same) fail("the tilenav map differs from Phaser's collision settings");
  const mud = await page.evaluate(() => phaserDemo.nav.map.cost(12, 11));
  if (mud !== 3) fail(`mud costs ${mud}, expected 3 (tile property)`);
  // a wall on the hero's path, a few cells ahead
  const { cell, before } = await page.evaluate(() => {
    const p = phaserDemo.path(), here = phaserDemo.heroCell();
    const i = p.findIndex((c) => c.x === here.x && c.y === here.y);
    return { cell: p[Math.min(p.length - 2, Math.max(i, 0) + 4)], before: p.length };
  });
  const after = await page.evaluate(({ x, y }) => {
    phaserDemo.putTileAt(1, x, y);
    const grid = phaserDemo.navGrid();
    return { blocked: grid[y * 24 + x] === 0, same: JSON.stringify(grid) === JSON.stringify(phaserDemo.phaserGrid()) };
  }, cell);
  if (!after.blocked || !after.same) fail(`putTileAt(1, ${cell.x}, ${cell.y}) did not reach tilenav`);
  await page.waitForFunction(() => phaserDemo.walker.done, null, { timeout: 30000 });
  const s = await page.evaluate(() => ({ st: phaserDemo.state(), hero: phaserDemo.heroCell(), path: phaserDemo.path() }));
  if (s.path.some((c) => c.x === cell.x && c.y === cell.y)) fail("the new path goes through the new wall");
  const bad = s.st.heroTrail.filter((c) => !c.passable);
  if (bad.length) fail(`the hero stood on blocked cells: ${JSON.stringify(bad.slice(0, 3))}`);
  if (s.hero.x !== 21 || s.hero.y !== 13) fail(`the hero ended at (${s.hero.x}, ${s.hero.y})`);
  const status = await page.evaluate(() => phaserDemo.walker.status);
  if (status !== "arrived") fail(`the hero's status is "${status}", not "arrived"`);
  // the creeps reach the goal, update() says so and the example sends them back to the spawn
  // area: they never pile up on the goal
  await page.waitForFunction(() => phaserDemo.state().arrivals >= 24, null, { timeout: 90000 });
  const c = await page.evaluate(() => ({ st: phaserDemo.state(), creeps: phaserDemo.creeps(), goal: phaserDemo.nav.cellToWorld(phaserDemo.goal.x, phaserDemo.goal.y) }));
  const atGoal = c.creeps.filter((p) => Math.hypot(p.x - c.goal.x, p.y - c.goal.y) <= 16).length;
  if (atGoal > 4) fail(`${atGoal} of 24 creeps within 16 px of the goal after ${c.st.arrivals} arrivals`);
  if (c.st.creepsInWall) fail(`creeps seen inside walls ${c.st.creepsInWall} times`);
  // Phaser's other editing methods, on the layer and on the tilemap: tilenav follows each at
  // once, and a rectangle reaches it as one change (a block of 70 cells does not overflow the
  // map's 64-entry change log)
  const edits = await page.evaluate(() => {
    const { nav, layer, tilemap } = phaserDemo, WALL = 1, FLOOR = 0, MUD = 2, T = 32;
    const same = () => JSON.stringify(phaserDemo.navGrid()) === JSON.stringify(phaserDemo.phaserGrid());
    const out = [];
    const step = (what, f) => { const r0 = nav.revision; f(); out.push({ what, changes: nav.revision - r0, same: same() }); };
    step("layer.fill 7 x 10", () => layer.fill(WALL, 1, 1, 7, 10));
    step("tilemap.fill 7 x 10 back", () => tilemap.fill(FLOOR, 1, 1, 7, 10));
    step("layer.fill 3 x 3", () => layer.fill(WALL, 18, 8, 3, 3));
    step("layer.putTilesAt 2 x 2 mixed", () => layer.putTilesAt([[WALL, FLOOR], [FLOOR, WALL]], 18, 12));
    step("layer.putTileAtWorldXY", () => layer.putTileAtWorldXY(WALL, 20 * T + 5, 12 * T + 30));
    step("layer.removeTileAtWorldXY", () => layer.removeTileAtWorldXY(20 * T + 5, 12 * T + 30));
    step("layer.randomize 5 x 5", () => layer.randomize(2, 2, 5, 5, [FLOOR, WALL]));
    step("layer.copy 4 x 4", () => layer.copy(2, 2, 4, 4, 17, 1));
    step("layer.replaceByIndex", () => layer.replaceByIndex(WALL, FLOOR, 17, 1, 4, 4));
    step("layer.setCollision mud", () => layer.setCollision([WALL, MUD]));
    step("layer.setCollision mud off", () => layer.setCollision(MUD, false));
    step("tilemap.putTileAt", () => tilemap.putTileAt(WALL, 19, 14));
    step("layer.fill floor back", () => { layer.fill(FLOOR, 17, 1, 6, 14); layer.fill(FLOOR, 2, 2, 5, 5); });
    // a layer made after the PhaserNav: read and followed; destroyed: no longer read
    const late = tilemap.createBlankLayer("late", tilemap.tilesets[0]);
    late.setCollision([WALL]);
    late.putTileAt(WALL, 19, 3);
    const lateBlocks = !nav.passable(19, 3);
    tilemap.destroyLayer("late");
    out.push({ what: "createBlankLayer + putTileAt, destroyLayer", changes: 2, same: lateBlocks && nav.passable(19, 3) && same() });
    return { out };
  });
  for (const e of edits.out) if (!e.same) fail(`${e.what}: the tilenav map differs from Phaser's collision afterwards`);
  const changes = Object.fromEntries(edits.out.map((e) => [e.what, e.changes]));
  for (const what of ["layer.fill 7 x 10", "tilemap.fill 7 x 10 back", "layer.fill 3 x 3", "layer.putTileAtWorldXY", "layer.removeTileAtWorldXY"])
    if (changes[what] !== 1) fail(`${what}: ${changes[what]} map changes, expected 1`);
  if (!(changes["layer.putTilesAt 2 x 2 mixed"] >= 1 && changes["layer.putTilesAt 2 x 2 mixed"] <= 2)) fail(`putTilesAt: ${changes["layer.putTilesAt 2 x 2 mixed"]} map changes`);
  // a layer created at (100, 50): PhaserNav's cells and centres are Phaser's own
  const offset = await page.evaluate(async () => {
    const { PhaserNav } = await import("tilenav/phaser");
    const scene = phaserDemo.tilemap.scene;
    const m = scene.make.tilemap({ data: [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]], tileWidth: 32, tileHeight: 32 });
    const l = m.createLayer(0, m.addTilesetImage("tiles", "tiles", 32, 32, 0, 0), 100, 50);
    l.setCollision([1]);
    const nav = new PhaserNav(m), bad = [];
    for (let py = 30; py < 170; py += 7) for (let px = 80; px < 250; px += 7) {
      const c = nav.worldToCell(px, py), t = l.worldToTileXY(px, py);
      const inside = t.x >= 0 && t.y >= 0 && t.x < 4 && t.y < 3;
      if (inside ? !c || c.x !== t.x || c.y !== t.y : c !== null) bad.push({ px, py, nav: c, phaser: { x: t.x, y: t.y } });
    }
    for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) {
      const c = nav.cellToWorld(x, y), w = l.tileToWorldXY(x, y);
      if (c.x !== w.x + 16 || c.y !== w.y + 16) bad.push({ cell: { x, y }, nav: c, phaser: { x: w.x + 16, y: w.y + 16 } });
    }
    const blocked = !nav.passable(1, 1) && !!l.getTileAtWorldXY(nav.cellToWorld(1, 1).x, nav.cellToWorld(1, 1).y).collides;
    nav.destroy();
    m.destroy();
    return { bad: bad.slice(0, 3), count: bad.length, blocked };
  });
  if (offset.count || !offset.blocked) fail(`a layer at (100, 50): ${offset.count} positions differ from Phaser's: ${JSON.stringify(offset.bad)}`);
  // the page follows the window's size (Phaser's FIT scale mode)
  const w1 = await page.evaluate(() => document.querySelector("canvas").getBoundingClientRect().width);
  await page.setViewportSize({ width: 1300, height: 900 });
  await page.waitForTimeout(300);
  const w2 = await page.evaluate(() => document.querySelector("canvas").getBoundingClientRect().width);
  if (!(w2 > w1 + 100)) fail(`the canvas did not grow with the window (${w1} -> ${w2} px)`);
  await page.screenshot({ path: `${out}/phaser.png` });
  if (errors.length) fail(`page errors: ${errors.join("; ")}`);
  const t = s.st.timing;
  console.log(`web: phaser: the map equals Phaser's collision (mud cost 3); putTileAt(1, ${cell.x}, ${cell.y}) reached tilenav at once; the hero re-planned (path of ${before} cells before) and arrived at (21, 13) over ${s.st.heroTrail.length} frames, never on a blocked cell; 24 creeps never inside a wall, ${c.st.arrivals} arrivals at the goal (update() false, respawned; ${atGoal} near the goal at the end); fill, putTilesAt, putTileAtWorldXY, removeTileAtWorldXY, randomize, copy, replaceByIndex, setCollision and the tilemap's fill and putTileAt followed at once, so was a layer made later with createBlankLayer (and its destroyLayer), a rectangle as one change; a layer at (100, 50): worldToCell and cellToWorld equal Phaser's worldToTileXY and tileToWorldXY; navigation ${(t.navUs / t.frames).toFixed(0)} us per frame; canvas ${w1.toFixed(0)} -> ${w2.toFixed(0)} px with the window`);
} finally {
  await browser.close();
  server.close();
}
