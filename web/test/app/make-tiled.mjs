// Writes a small Tiled map for the bundled browser app (web/test/package.sh): base64 + zlib and
// base64 + gzip layer data and an external tileset, so that the browser's path through
// TileMap.fromTiled (fetch of the tileset, DecompressionStream) is exercised.
//   node make-tiled.mjs DIR
import { writeFileSync } from "node:fs";
import { deflateSync, gzipSync } from "node:zlib";

const dir = process.argv[2], w = 6, h = 4;
const gids = (f) => { const b = Buffer.alloc(4 * w * h); for (let i = 0; i < w * h; i++) b.writeUInt32LE(f(i % w, Math.floor(i / w)), 4 * i); return b; };
const ground = gids(() => 1), walls = gids((x, y) => (x === 2 && y < 3 ? 2 : x === 4 && y === 3 ? 3 : 0));
writeFileSync(`${dir}/map.tmj`, JSON.stringify({
  type: "map", orientation: "orthogonal", width: w, height: h, tilewidth: 16, tileheight: 16, infinite: false,
  tilesets: [{ firstgid: 1, source: "tiles/set.tsj" }],
  layers: [
    { type: "tilelayer", name: "ground", width: w, height: h, encoding: "base64", compression: "zlib", data: deflateSync(ground).toString("base64") },
    { type: "tilelayer", name: "walls", width: w, height: h, encoding: "base64", compression: "gzip", data: gzipSync(walls).toString("base64") },
  ],
}));
import { mkdirSync } from "node:fs";
mkdirSync(`${dir}/tiles`, { recursive: true });
writeFileSync(`${dir}/tiles/set.tsj`, JSON.stringify({
  type: "tileset", name: "set", tilewidth: 16, tileheight: 16, tilecount: 3, columns: 3,
  tiles: [{ id: 1, properties: [{ name: "collides", type: "bool", value: true }] }, { id: 2, properties: [{ name: "cost", type: "float", value: 4 }] }],
}));
