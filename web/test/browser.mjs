// Browser test: serve web/ on 127.0.0.1 (random port), open the demo in Debian's chromium via
// playwright-core, click in the maze and check that the character walked a shortest path:
// its walked cells start at its cell, end at the clicked cell, make only legal moves, and their
// count equals a breadth-first search computed here on the grid read from the page. Then a
// screenshot must show the path's colour along the walked cells. The other scenes must run
// without page errors (tower defense: a placement is accepted and one that would wall off the
// exit is refused; the race track's cars move; marbles keep their energy and can be thrown;
// the player walks between walls without entering one).
//
//   node web/test/browser.mjs [outdir]     (CHROMIUM=/path overrides /usr/bin/chromium)
import { chromium } from "playwright-core";
import { mkdir, writeFile } from "node:fs/promises";
import { inflateSync } from "node:zlib";
import assert from "node:assert/strict";
import { serve } from "./serve.mjs";

const outDir = process.argv[2] ?? "build/web-test";
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

// Minimal PNG decoder for the screenshot (8-bit RGB/RGBA, non-interlaced: what Chromium writes).
function decodePng(buf) {
  assert.equal(buf.readUInt32BE(0), 0x89504e47, "not a PNG");
  let off = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString("ascii", off + 4, off + 8), data = buf.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      assert.equal(data[8], 8, "PNG bit depth"); assert.equal(data[12], 0, "interlaced PNG");
      channels = { 2: 3, 6: 4 }[data[9]];
      assert.ok(channels, `PNG colour type ${data[9]}`);
    } else if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat)), stride = width * channels, px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[y * stride + x - channels] : 0, b = y ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? px[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      px[y * stride + x] = (line[x] + pred) & 255;
    }
  }
  return { width, height, at: (x, y) => Array.from(px.subarray(y * stride + x * channels, y * stride + x * channels + 3)) };
}

// Breadth-first distances from `s` (unit steps) under the page's movement rule.
function bfs(st, s) {
  const { width: w, height: h, passable } = st, diag = st.rule.diagonal !== "never";
  assert.equal(diag, false, "the maze walks on 4 neighbours (BFS counts unit steps)");
  const dist = new Array(w * h).fill(-1), queue = [s.y * w + s.x];
  dist[queue[0]] = 0;
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q], x = i % w, y = (i / w) | 0;
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy, j = ny * w + nx;
      if (nx >= 0 && ny >= 0 && nx < w && ny < h && passable[j] && dist[j] < 0) { dist[j] = dist[i] + 1; queue.push(j); }
    }
  }
  return dist;
}

const { server, url } = await serve(0);
const browser = await chromium.launch({
  executablePath,
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const errors = [];
let failed = false;
try {
  await mkdir(outDir, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 900, height: 760 } });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  await page.goto(`${url}/demo/?speed=30#maze`); // 30 cells per second instead of 8
  await page.waitForFunction(() => window.tilenavDemo?.ready === true, null, { timeout: 20000 });
  console.log(`web: page up, tilenav ${await page.evaluate(() => window.tilenavDemo.version)}`);

  const st0 = await page.evaluate(() => window.tilenavDemo.state());
  assert.equal(st0.scene, "maze");
  assert.equal(st0.passable.length, st0.width * st0.height);
  const start = st0.character;
  const dist = bfs(st0, start);
  // the target: the reachable cell farthest from the character (first in row order on ties)
  let target = null, best = -1;
  for (let i = 0; i < dist.length; i++) if (dist[i] > best) { best = dist[i]; target = { x: i % st0.width, y: (i / st0.width) | 0 }; }
  assert.ok(best >= 10, `maze too small for the test (farthest cell ${best} steps away)`);

  // A click on a wall does nothing.
  const canvas = page.locator("#view");
  const clickCell = async (c) => { // the canvas moves when the help text changes: measure each time
    const box = await canvas.boundingBox(), scale = box.width / (st0.width * st0.tile);
    await page.mouse.click(box.x + (c.x + 0.5) * st0.tile * scale, box.y + (c.y + 0.5) * st0.tile * scale);
  };
  const wall = st0.passable.indexOf(0);
  await clickCell({ x: wall % st0.width, y: (wall / st0.width) | 0 });
  await page.waitForTimeout(200);
  const stWall = await page.evaluate(() => window.tilenavDemo.state());
  assert.equal(stWall.walks, 0, "clicking a wall started a walk");
  assert.deepEqual(stWall.character, start);

  // Click the target and wait for the character to arrive.
  const t0 = Date.now();
  await clickCell(target);
  await page.waitForFunction((t) => { const s = window.tilenavDemo.state(); return !s.moving && s.character.x === t.x && s.character.y === t.y; },
    target, { timeout: 60000, polling: 50 });
  const st = await page.evaluate(() => window.tilenavDemo.state());
  const walked = st.walked;
  assert.equal(st.walks, 1);
  assert.deepEqual(walked[0], start, "the walk starts at the character's cell");
  assert.deepEqual(walked.at(-1), target, "the walk ends at the clicked cell");
  for (let i = 1; i < walked.length; i++) {
    const a = walked[i - 1], b = walked[i];
    assert.equal(Math.abs(a.x - b.x) + Math.abs(a.y - b.y), 1, `step ${i} (${a.x},${a.y})->(${b.x},${b.y}) is not one grid step`);
    assert.equal(st.passable[b.y * st.width + b.x], 1, `step ${i} enters a wall`);
  }
  assert.equal(walked.length - 1, dist[target.y * st.width + target.x], "the walk is longer than the shortest path");
  assert.deepEqual(walked, st.path, "the character walked the planned path");
  console.log(`web: walked (${start.x},${start.y}) -> (${target.x},${target.y}) in ${walked.length - 1} steps = BFS distance, ` +
    `${st.expanded} cells expanded, ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // Screenshot: the path colour (#e8b33a) must be on the walked cells (not under the character).
  const png = await canvas.screenshot();
  await writeFile(`${outDir}/maze.png`, png);
  const img = decodePng(png), k = img.width / (st.width * st.tile);
  let onPath = 0, checked = 0;
  for (let i = 1; i < walked.length - 1; i++) { // midpoints between consecutive cells
    const a = walked[i - 1], b = walked[i];
    const x = Math.round(((a.x + b.x) / 2 + 0.5) * st.tile * k), y = Math.round(((a.y + b.y) / 2 + 0.5) * st.tile * k);
    const [r, g, bl] = img.at(x, y);
    checked++;
    if (Math.abs(r - 0xe8) < 24 && Math.abs(g - 0xb3) < 24 && Math.abs(bl - 0x3a) < 24) onPath++;
  }
  assert.equal(onPath, checked, `path colour on ${onPath} of ${checked} path segments`);
  // and not everywhere: a floor cell away from the path keeps the floor colour
  const pathSet = new Set(walked.map((c) => `${c.x},${c.y}`));
  const floor = st.passable.findIndex((p, i) => p && !pathSet.has(`${i % st.width},${(i / st.width) | 0}`) &&
    ![[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dx, dy]) => pathSet.has(`${(i % st.width) + dx},${((i / st.width) | 0) + dy}`)));
  const [fr, fg, fb] = img.at(Math.round(((floor % st.width) + 0.5) * st.tile * k), Math.round((((floor / st.width) | 0) + 0.5) * st.tile * k));
  assert.ok(!(Math.abs(fr - 0xe8) < 24 && Math.abs(fg - 0xb3) < 24 && Math.abs(fb - 0x3a) < 24), "path colour off the path");
  console.log(`web: screenshot ${outDir}/maze.png: path colour on all ${checked} segments, floor elsewhere`);

  // The other scenes run; tower defense accepts a tower and refuses a wall-off.
  for (const name of ["heuristics", "flow", "td", "car", "marbles", "bombs"]) {
    await page.click(`button[data-scene=${name}]`);
    const f0 = await page.evaluate(() => window.tilenavDemo.frames());
    await page.waitForFunction((f) => window.tilenavDemo.frames() > f + 30, f0, { timeout: 20000 });
    const s = await page.evaluate(() => window.tilenavDemo.state());
    assert.equal(s.scene, name);
    if (name === "heuristics") {
      assert.equal(s.results.length, 3);
      const oct = s.results.find((r) => r.h === "octile"), man = s.results.find((r) => r.h === "manhattan");
      assert.ok(oct.cost <= man.cost + 1e-9, "octile (admissible) is never costlier than manhattan");
    }
    if (name === "flow") {
      assert.equal(s.overlap, 0, "an agent overlaps a wall");
      // timers in microseconds, averaged, never the browser clock's "0.000 ms"
      const text = await page.textContent("#info");
      assert.match(text, /field build \d+\.\d{1,2} (µs|ms) .*crowd step \d+\.\d{1,2} (µs|ms) \(mean of \d+ steps\)/, text); // fmtUs: "x.y µs", "x.yy ms"
      assert.ok(!/0\.000 ms/.test(text), text);
      // the canvas follows the window's size
      const w1 = (await canvas.boundingBox()).width;
      await page.setViewportSize({ width: 1400, height: 1100 });
      await page.waitForTimeout(100);
      const w2 = (await canvas.boundingBox()).width;
      await page.setViewportSize({ width: 900, height: 760 });
      await page.waitForTimeout(100);
      assert.ok(w2 > w1 + 100, `the canvas did not grow with the window (${w1} -> ${w2} px)`);
      console.log(`web: flow scene: "${text.split(", ").slice(0, 2).join(", ")}"; canvas ${w1.toFixed(0)} -> ${w2.toFixed(0)} px with the window`);
    }
    if (name === "td") {
      // Around the exit (20, 7): (20, 6) and (20, 8) are accepted; then (19, 7) would close it
      // (diagonal steps may not pass a blocked corner) and must be refused. A creep standing
      // in the cell delays a placement: retry then.
      const place = async (c, want) => {
        for (let tries = 0; tries < 50; tries++) {
          await clickCell(c);
          const s2 = await page.evaluate(() => window.tilenavDemo.state());
          if (!s2.message.includes("a creep is there")) return s2;
          await page.waitForTimeout(150);
        }
        throw new Error(`cell (${c.x}, ${c.y}) never free of creeps (${want})`);
      };
      await place({ x: 20, y: 6 }, "accept");
      let s2 = await place({ x: 20, y: 8 }, "accept");
      assert.deepEqual(s2.towers, [{ x: 20, y: 6 }, { x: 20, y: 8 }], `towers not placed: ${s2.message}`);
      s2 = await place({ x: 19, y: 7 }, "refuse");
      assert.match(s2.message, /refused/);
      assert.equal(s2.towers.length, 2, "a wall-off placement was accepted");
      await page.waitForTimeout(1500);
      s2 = await page.evaluate(() => window.tilenavDemo.state());
      assert.ok(s2.spawned > 0, "no creeps spawned");
      console.log(`web: tower defense: 2 towers placed, the wall-off refused ("${s2.message}"); ${s2.spawned} creeps spawned`);
    }
    if (name === "car") {
      assert.ok(s.steps > 0 && Math.hypot(s.ai.x - 120, s.ai.y - 120) > 1, "the AI car did not move");
      const p0 = s.player;
      await page.keyboard.down("ArrowUp");
      await page.waitForTimeout(500);
      await page.keyboard.up("ArrowUp");
      const p1 = (await page.evaluate(() => window.tilenavDemo.state())).player;
      assert.ok(p1.x - p0.x > 5, `the player's car did not drive forward (${p0.x} -> ${p1.x})`);
      console.log(`web: race track: AI car at (${s.ai.x.toFixed(0)}, ${s.ai.y.toFixed(0)}) after ${s.steps} steps; the arrow key drove the player ${(p1.x - p0.x).toFixed(0)} px`);
    }
    if (name === "marbles") {
      // elastic: the energy stays put from frame to frame (to float rounding)
      const e0 = s.energy;
      await page.waitForFunction((f) => window.tilenavDemo.frames() > f + 20, await page.evaluate(() => window.tilenavDemo.frames()));
      const s1 = await page.evaluate(() => window.tilenavDemo.state());
      assert.ok(Math.abs(s1.energy - e0) <= 1e-6 * e0, `energy ${e0} -> ${s1.energy}`);
      assert.ok(s1.contacts > 0, "no marble touched another");
      // drag from the biggest marble and release: it is thrown
      const big = s1.marbles.reduce((b, m, i) => (m.r > s1.marbles[b].r ? i : b), 0);
      const box = await canvas.boundingBox(), k = box.width / (st.width * st.tile);
      const m = (await page.evaluate(() => window.tilenavDemo.state())).marbles[big];
      await page.mouse.move(box.x + m.x * k, box.y + m.y * k);
      await page.mouse.down();
      await page.mouse.move(box.x + m.x * k + 60, box.y + m.y * k + 30, { steps: 4 });
      await page.mouse.up();
      const s2 = await page.evaluate(() => window.tilenavDemo.state());
      assert.equal(s2.throws, 1, "the drag did not throw a marble");
      assert.ok(Math.abs(s2.energy - s1.energy) > 1e-3 * s1.energy, "throwing did not change the energy");
      console.log(`web: marbles: energy ${e0.toFixed(3)} kept over 20 frames, ${s1.contacts} contacts; a drag threw marble ${big}`);
    }
    if (name === "bombs") {
      // walk right, down into a wall, right: the box moves, is blocked, and never overlaps a wall
      const inWall = (b, g) => {
        for (let cy = Math.floor(b.y / g.tile); cy * g.tile < b.y + b.h; cy++)
          for (let cx = Math.floor(b.x / g.tile); cx * g.tile < b.x + b.w; cx++)
            if (cx < 0 || cy < 0 || cx >= g.width || cy >= g.height || !g.passable[cy * g.width + cx]) return true;
        return false;
      };
      const p0 = s.player;
      let worst = false;
      for (const key of ["ArrowRight", "ArrowDown", "ArrowRight"]) {
        await page.keyboard.down(key);
        for (let k = 0; k < 6; k++) {
          await page.waitForTimeout(100);
          const g = await page.evaluate(() => window.tilenavDemo.state());
          if (inWall(g.player, g)) worst = true;
          for (const b of g.bombs) if (b.alive && !g.passable[Math.floor(b.y / g.tile) * g.width + Math.floor(b.x / g.tile)]) worst = true;
        }
        await page.keyboard.up(key);
      }
      const g = await page.evaluate(() => window.tilenavDemo.state());
      assert.equal(worst, false, "the player or a bomb overlapped a wall");
      assert.ok(Math.hypot(g.player.x - p0.x, g.player.y - p0.y) > 10, "the player did not move");
      assert.ok(g.blocked > 0, "the walls never blocked the player");
      console.log(`web: walls and bombs: the player moved to (${g.player.x.toFixed(0)}, ${g.player.y.toFixed(0)}), blocked ${g.blocked} times, never inside a wall`);
    }
    await canvas.screenshot({ path: `${outDir}/${name}.png` });
  }
  assert.deepEqual(errors, [], "page errors");
  console.log("web: heuristics, flow, tower-defense, race-track, marbles and bombs scenes ran without page errors");
  console.log("web: browser test passed");
} catch (e) {
  failed = true;
  console.error(`web: FAILED: ${e.stack ?? e}`);
  if (errors.length) console.error(errors.join("\n"));
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
