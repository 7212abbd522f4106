// tilenav/phaser's types against Phaser's own (web/node_modules/phaser), checked by
// tsc --strict in web/test/phaser-adapter.test.mjs (tsconfig.phaser.json maps "tilenav/phaser"
// to web/pkg/adapters/phaser.d.ts). Never run: type checks only.
import Phaser from "phaser";
import { PhaserNav, PathFollower, FieldFollower, tileProperties, collidesProperty } from "tilenav/phaser";
import type { PhaserNavOptions } from "tilenav/phaser";

export function typed(scene: Phaser.Scene, map: Phaser.Tilemaps.Tilemap, layer: Phaser.Tilemaps.TilemapLayer, sprite: Phaser.GameObjects.Sprite): void {
  // callbacks annotated with Phaser's Tile type, as a Phaser user writes them
  const nav = new PhaserNav(map, {
    layers: [layer, "walls", layer.layer],
    blocked: (tile: Phaser.Tilemaps.Tile) => tile.properties.solid === true,
    cost: (tile: Phaser.Tilemaps.Tile) => (tile.properties.cost as number | undefined) ?? 1,
  });
  // unannotated callbacks: the tile is Phaser's Tile, with x, y, layer, tileset
  new PhaserNav(map, {
    blocked: (tile) => tile.x === 0 || tile.y === 0 || tile.layer.name === "walls" || collidesProperty(tile),
    cost: (tile) => (tile.tileset?.name === "mud" ? 3 : (tileProperties(tile).cost as number | undefined) ?? 1),
  });
  // option objects typed by the user
  const opts: PhaserNavOptions = { layers: map.layers };
  new PhaserNav(map, opts);
  const typedOpts: PhaserNavOptions<Phaser.Tilemaps.Tile> = { blocked(tile) { return tile.canCollide; } };
  new PhaserNav(map, typedOpts);
  // sprites, images, containers
  const img: Phaser.GameObjects.Image = scene.add.image(0, 0, "x");
  const cont: Phaser.GameObjects.Container = scene.add.container(0, 0);
  const walker = new PathFollower(sprite, nav, { speed: 100, size: 2 });
  new PathFollower(img, nav);
  new PathFollower(cont, nav);
  const status: "idle" | "moving" | "arrived" | "failed" | "destroyed" = walker.status;
  const f = nav.flowField({ x: 1, y: 1 });
  const current: boolean = f.current;
  const creep = new FieldFollower(sprite, f, { box: 16 });
  const gone: boolean = creep.destroyed || nav.destroyed;
  scene.input.on("pointerdown", (p: Phaser.Input.Pointer) => { const c = nav.worldToCell(p.worldX, p.worldY); if (c) nav.findPath(c, c); });
  void status; void current; void gone;
}

// a stand-in tilemap (tiles with index and collides only) still type-checks
const tile = (index: number) => ({ index, collides: index === 1 });
export const standIn = new PhaserNav({ width: 2, height: 1, tileWidth: 16, tileHeight: 16, layers: [{ name: "g", data: [[tile(0), tile(1)]] }] },
  { blocked: (t) => t.index === 2, cost: (t) => (t.index === 3 ? 2 : 1) });
