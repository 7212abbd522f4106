// tilenav in a Phaser 3 game: the map comes from a Phaser tilemap and its collision settings,
// edits with putTileAt reach tilenav at once, a hero follows shortest paths (click a cell to
// send it there; shift-click toggles a wall), and a crowd of creeps follows a flow field.
// window.phaserDemo is the test hook (web/test/phaser.mjs).
import * as Phaser from "phaser";
import { init, version } from "tilenav";
import { PhaserNav, PathFollower, FieldFollower } from "tilenav/phaser";

const T = 32, W = 24, H = 16, FLOOR = 0, WALL = 1, MUD = 2;

// a fixed map: walls around, some inner walls, a patch of mud (cost 3 by a tile property)
function level() {
  const rows = [];
  for (let y = 0; y < H; y++) {
    const r = [];
    for (let x = 0; x < W; x++) {
      let v = x === 0 || y === 0 || x === W - 1 || y === H - 1 ? WALL : FLOOR;
      if (x === 8 && y < 11) v = WALL;
      if (x === 16 && y > 4) v = WALL;
      if (y === 7 && x > 10 && x < 14) v = WALL;
      if (x >= 11 && x <= 14 && y >= 10 && y <= 13) v = MUD;
      r.push(v);
    }
    rows.push(r);
  }
  return rows;
}

const state = { ready: false, frames: 0, heroTrail: [], creepsInWall: 0, arrivals: 0, errors: [], timing: { navUs: 0, frames: 0 } };
window.phaserDemo = { state: () => state };

class Demo extends Phaser.Scene {
  create() {
    // the tileset texture: floor, wall, mud
    const g = this.add.graphics();
    g.fillStyle(0x2b3038).fillRect(0, 0, T, T);
    g.fillStyle(0x6b717d).fillRect(T, 0, T, T);
    g.fillStyle(0x5a4326).fillRect(2 * T, 0, T, T);
    g.generateTexture("tiles", 3 * T, T);
    g.clear().fillStyle(0xffd23f).fillCircle(10, 10, 10).generateTexture("hero", 20, 20);
    g.clear().fillStyle(0xe4572e).fillCircle(6, 6, 6).generateTexture("creep", 12, 12);
    g.destroy();

    const map = this.make.tilemap({ data: level(), tileWidth: T, tileHeight: T });
    const tiles = map.addTilesetImage("tiles", "tiles", T, T, 0, 0);
    const layer = map.createLayer(0, tiles, 0, 0);
    layer.setCollision([WALL]); // Phaser's own collision setting: tilenav reads tile.collides
    layer.forEachTile((t) => { if (t.index === MUD) t.properties = { cost: 3 }; });

    const nav = new PhaserNav(map); // blocked where a tile collides; cost from the `cost` property
    const hero = this.add.image(0, 0, "hero");
    const start = nav.cellToWorld(2, 2);
    hero.setPosition(start.x, start.y);
    const walker = new PathFollower(hero, nav, { speed: 160 });
    walker.moveTo({ x: 21, y: 13 });

    const goal = { x: 21, y: 2 };
    let field = nav.flowField(goal);
    const creeps = [];
    for (let i = 0; i < 24; i++) {
      const c = nav.cellToWorld(1 + (i % 6), 8 + Math.floor(i / 6));
      const s = this.add.image(c.x, c.y, "creep");
      creeps.push(new FieldFollower(s, field, { speed: 70 + (i % 5) * 8, box: 12 }));
    }
    let fieldRev = nav.revision;

    const pathGfx = this.add.graphics();
    const info = document.getElementById("info");
    this.input.on("pointerdown", (p) => {
      const cell = nav.worldToCell(p.worldX, p.worldY);
      if (!cell) return;
      if (p.event.shiftKey) toggle(cell.x, cell.y);
      else walker.moveTo(cell);
    });
    const toggle = (x, y) => {
      const t = layer.getTileAt(x, y);
      layer.putTileAt(t && t.index === WALL ? FLOOR : WALL, x, y); // tilenav follows at once
    };

    window.phaserDemo = {
      state: () => state,
      version: version(),
      nav, walker, tilemap: map, layer, // the test edits the tilemap through Phaser's own methods
      // the test's handles
      putTileAt: (index, x, y) => layer.putTileAt(index, x, y),
      moveTo: (x, y) => walker.moveTo({ x, y }),
      heroCell: () => walker.cell,
      path: () => walker.path.map((c) => ({ x: c.x, y: c.y })),
      navGrid: () => Array.from(nav.map.passableGrid()),
      phaserGrid: () => { const out = []; for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out.push(layer.getTileAt(x, y)?.collides ? 0 : 1); return out; },
      creeps: () => creeps.map((c) => ({ x: c.sprite.x, y: c.sprite.y })),
      goal,
    };
    this.events.on("update", (time, delta) => {
      const t0 = performance.now();
      if (nav.revision !== fieldRev) { field.update(); fieldRev = nav.revision; }
      walker.update(delta);
      for (const c of creeps) {
        if (!c.update(delta)) { // at the goal (or walled in): back to the spawn area
          if (c.arrived) state.arrivals++;
          const s = nav.cellToWorld(1 + Math.floor(Math.random() * 6), 8 + Math.floor(Math.random() * 4));
          c.sprite.setPosition(s.x, s.y);
        }
        if (nav.map.hitTestWalls({ x: c.sprite.x - 5, y: c.sprite.y - 5, w: 10, h: 10 }, "some")) state.creepsInWall++;
      }
      state.timing.navUs += (performance.now() - t0) * 1000;
      state.timing.frames++;
      const hc = walker.cell;
      if (hc) state.heroTrail.push({ x: hc.x, y: hc.y, passable: nav.passable(hc.x, hc.y) });
      pathGfx.clear().lineStyle(3, 0xffd23f, 0.7);
      const pts = walker.path.map((c) => nav.cellToWorld(c.x, c.y));
      if (pts.length > 1) pathGfx.strokePoints(pts);
      state.frames++;
      if (state.frames % 30 === 0) {
        info.textContent = `tilenav ${version()} + Phaser ${Phaser.VERSION}: navigation ${(state.timing.navUs / state.timing.frames).toFixed(0)} µs per frame (mean of ${state.timing.frames}); click: send the hero, shift-click: wall`;
      }
    });
    state.ready = true;
  }
}

try {
  await init();
  new Phaser.Game({
    type: Phaser.CANVAS, parent: "game", backgroundColor: "#1d2026", width: W * T, height: H * T,
    scale: { mode: Phaser.Scale.FIT, autoCenter: Phaser.Scale.CENTER_BOTH },
    scene: Demo, banner: false, fps: { target: 60 },
  });
} catch (e) {
  state.errors.push(String(e.stack ?? e));
  document.getElementById("info").textContent = `error: ${e}`;
}
