// tilenav/phaser: what the wrapped Phaser edits cost on a 512 x 512 layer (one wall in 29 cells),
// each call timed with the tilenav sync included, and what the next field.update() recomputes.
// Run in Chromium by `node web/bench/phaser_edits_run.mjs` (docs/bench/web.md), or open
// /bench/phaser_edits.html from `node web/test/serve.mjs 8080`.
import * as Phaser from "phaser";
import { init } from "tilenav";
import { PhaserNav } from "tilenav/phaser";

const N = 512, T = 32, REPS = 60;
const out = { done: false, rows: [], error: null };
window.bench = out;

class S extends Phaser.Scene {
  create() {
    try {
      const g = this.add.graphics();
      g.fillStyle(0x888888).fillRect(0, 0, 2 * T, T);
      g.generateTexture("tiles", 2 * T, T);
      g.destroy();
      const data = [];
      for (let y = 0; y < N; y++) { const r = []; for (let x = 0; x < N; x++) r.push((x * 7 + y * 13) % 29 === 0 ? 1 : 0); data.push(r); }
      const map = this.make.tilemap({ data, tileWidth: T, tileHeight: T });
      const layer = map.createLayer(0, map.addTilesetImage("tiles", "tiles", T, T, 0, 0), 0, 0);
      layer.setCollision([1]);
      // Phaser's own cost of the calls, before tilenav wraps them
      const X = (i) => 40 + 12 * (i % 30), Y = (i) => 40 + 12 * Math.floor(i / 30);
      const time = (what, f, g) => {
        // REPS calls f(0..REPS-1) at distinct places timed together (browsers coarsen
        // performance.now()), then g(i) undoes them, untimed
        const t = performance.now();
        for (let i = 0; i < REPS; i++) f(i);
        out.rows.push({ what, ms: (performance.now() - t) / REPS });
        if (g) for (let i = 0; i < REPS; i++) g(i);
      };
      time("Phaser alone: layer.putTileAtWorldXY", (i) => layer.putTileAtWorldXY(1, X(i) * T + 5, Y(i) * T + 5), (i) => layer.putTileAt(0, X(i), Y(i)));
      time("Phaser alone: layer.fill 10 x 10", (i) => layer.fill(1, X(i), Y(i), 10, 10), (i) => layer.fill(0, X(i), Y(i), 10, 10));
      time("Phaser alone: layer.setCollision([1])", () => layer.setCollision([1]));
      let t0 = performance.now();
      const nav = new PhaserNav(map);
      out.rows.push({ what: "new PhaserNav (512 x 512)", ms: performance.now() - t0 });
      const field = nav.flowField({ x: 500, y: 500 });
      time("layer.putTileAt", (i) => layer.putTileAt(1, X(i), Y(i)), (i) => layer.putTileAt(0, X(i), Y(i)));
      time("map.putTileAt", (i) => map.putTileAt(1, X(i), Y(i)), (i) => map.putTileAt(0, X(i), Y(i)));
      time("layer.putTileAtWorldXY", (i) => layer.putTileAtWorldXY(1, X(i) * T + 5, Y(i) * T + 5), (i) => layer.putTileAt(0, X(i), Y(i)));
      time("layer.removeTileAtWorldXY", (i) => layer.removeTileAtWorldXY(X(i) * T + 5, Y(i) * T + 5), (i) => layer.putTileAt(0, X(i), Y(i)));
      time("layer.fill 2 x 2", (i) => layer.fill(1, X(i), Y(i), 2, 2), (i) => layer.fill(0, X(i), Y(i), 2, 2));
      time("layer.putTilesAt 2 x 2", (i) => layer.putTilesAt([[1, 1], [1, 1]], X(i), Y(i)), (i) => layer.fill(0, X(i), Y(i), 2, 2));
      time("layer.fill 10 x 10", (i) => layer.fill(1, X(i), Y(i), 10, 10), (i) => layer.fill(0, X(i), Y(i), 10, 10));
      time("layer.randomize 10 x 10", (i) => layer.randomize(X(i), Y(i), 10, 10, [0, 1]), (i) => layer.fill(0, X(i), Y(i), 10, 10));
      time("layer.setCollision([1])", () => layer.setCollision([1]));
      time("nav.syncAll() (nothing changed)", () => nav.syncAll());
      // the field after edits: a 2 x 2 tower, then a 10 x 10 block
      field.update();
      layer.fill(1, 200, 200, 2, 2);
      t0 = performance.now();
      let n = field.update();
      out.rows.push({ what: "field.update() after a 2 x 2 fill", ms: performance.now() - t0, cells: n });
      layer.fill(1, 300, 300, 10, 10);
      t0 = performance.now();
      n = field.update();
      out.rows.push({ what: "field.update() after a 10 x 10 fill", ms: performance.now() - t0, cells: n });
      field.free();
      nav.destroy();
    } catch (e) { out.error = String(e.stack ?? e); }
    out.done = true;
    document.getElementById("out").textContent = JSON.stringify(out, null, 1);
  }
}

await init();
new Phaser.Game({ type: Phaser.CANVAS, parent: "game", width: 320, height: 240, scene: S, banner: false });
