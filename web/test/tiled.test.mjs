// TileMap.fromTiled against the C loader, cell by cell, on every map of ../shared/bench/tiled
// (its MANIFEST.md): passability and cost of each cell from the JavaScript decoder
// (pkg/tiled.mjs), and from the TileMap it builds in the WebAssembly module, must equal
// tn_map_load()'s (web/test/tiled_dump.c, built by run.sh; its path in TILENAV_TILED_DUMP).
// Also the other cover rules and collision switches on the maps where they change something.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { decompress as zstdDecompress } from "fzstd";
import { init, TileMap, TilenavError } from "../pkg/tilenav.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BENCH = process.env.TILENAV_TILED_DIR ?? `${ROOT}../shared/bench/tiled`;
const DUMP = process.env.TILENAV_TILED_DUMP;

const maps = existsSync(`${BENCH}/MANIFEST.md`)
  ? [...readFileSync(`${BENCH}/MANIFEST.md`, "utf8").matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1])
  : [];

// the C loader's reading: per map, {w, h, rows: [[cost or "x"]]}
function cDump(files, cover) {
  const env = { ...process.env, TILENAV_DUMP_COVER: cover };
  const out = execFileSync(DUMP, files, { maxBuffer: 1 << 28, encoding: "utf8", env }).split("\n");
  const res = [];
  let i = 0;
  for (const f of files) {
    const head = out[i++];
    if (head.startsWith("error")) { res.push({ file: f, error: head }); continue; }
    const [w, h] = head.split(" ").map(Number);
    res.push({ file: f, w, h, rows: out.slice(i, i + h) });
    i += h;
  }
  return res;
}

// zstd for Node.js without zlib.zstdDecompressSync: fzstd (npm), as the README suggests
const decompress = async (bytes, kind) => {
  if (kind === "zstd") return zstdDecompress(bytes);
  const zlib = await import("node:zlib");
  return new Uint8Array(kind === "gzip" ? zlib.gunzipSync(bytes) : zlib.inflateSync(bytes));
};

for (const cover of ["center", "any", "half"])
test(`every bench Tiled map, cover rule ${cover}: the JavaScript loader and the C loader agree on every cell`, { skip: !DUMP || !maps.length ? "TILENAV_TILED_DUMP or the bench maps missing" : false }, async () => {
  await init();
  const files = maps.map((m) => `${BENCH}/${m}`);
  const ref = cDump(files, cover);
  let total = 0, blockedTotal = 0;
  const lines = [];
  for (const r of ref) {
    assert.ok(!r.error, `${r.file}: the C loader failed: ${r.error}`);
    const json = readFileSync(r.file, "utf8");
    const d = await TileMap.decodeTiled(json, { url: pathToFileURL(r.file), decompress, cover });
    assert.equal(d.width, r.w, r.file);
    assert.equal(d.height, r.h, r.file);
    const map = TileMap.fromDecodedTiled(d);
    let blocked = 0, costed = 0;
    for (let y = 0; y < r.h; y++) {
      const row = r.rows[y].split(" ");
      for (let x = 0; x < r.w; x++) {
        const c = row[x], i = y * r.w + x;
        if (c === "x") {
          assert.equal(d.passable[i], 0, `${r.file} (${x}, ${y}): C blocked, JS passable`);
          assert.equal(map.passable(x, y), false, `${r.file} (${x}, ${y}): the wasm map is passable`);
          blocked++;
        } else {
          const cost = Math.fround(Number(c));
          assert.equal(d.passable[i], 1, `${r.file} (${x}, ${y}): C passable (cost ${c}), JS blocked`);
          assert.equal(d.cost[i], cost, `${r.file} (${x}, ${y}): cost`);
          assert.equal(map.passable(x, y), true, `${r.file} (${x}, ${y}): the wasm map is blocked`);
          assert.equal(map.cost(x, y), cost, `${r.file} (${x}, ${y}): the wasm map's cost`);
          if (cost !== 1) costed++;
        }
      }
    }
    map.free();
    total += r.w * r.h;
    blockedTotal += blocked;
    lines.push(`  ${r.file.slice(BENCH.length + 1)}: ${r.w}x${r.h}, ${blocked} blocked, ${costed} with a cost other than 1: identical`);
  }
  console.log(`cover ${cover}: ${ref.length} maps, ${total} cells (${blockedTotal} blocked), every cell identical:\n${lines.join("\n")}`);
});

test("zstd without a decompressor: a clear 'unsupported' error where the platform has none", { skip: !maps.includes("pytiled/b64_zstd/map.json") }, async () => {
  const f = `${BENCH}/pytiled/b64_zstd/map.json`;
  const zlib = await import("node:zlib");
  if (zlib.zstdDecompressSync) return; // Node.js 22.15+: it just works
  await assert.rejects(TileMap.decodeTiled(readFileSync(f, "utf8"), { url: pathToFileURL(f) }),
    (e) => e instanceof TilenavError && e.status === -8 && /zstd/.test(e.message));
});

test("missing external tileset: an io error naming it", { skip: !maps.length }, async () => {
  const f = `${BENCH}/pytiled/b64/map.json`;
  await assert.rejects(TileMap.decodeTiled(readFileSync(f, "utf8")), (e) => e instanceof TilenavError && e.status === -7);
});

test("small maps written here: properties, shapes, collision layers, cover rules, flips, groups, infinite", async () => {
  await init();
  const ts = {
    firstgid: 1, tilewidth: 16, tileheight: 16, tilecount: 8, columns: 4,
    tiles: [
      { id: 0, properties: [{ name: "Collides", type: "bool", value: true }] },
      { id: 1, properties: [{ name: "cost", type: "float", value: 2.5 }] },
      { id: 2, properties: [{ name: "walkable", type: "string", value: "no" }, { name: "cost", type: "string", value: "3" }] },
      { id: 3, objectgroup: { objects: [{ x: 0, y: 8, width: 16, height: 8 }] } }, // bottom half: holds the centre? no (y 8..16, centre 8 is in)
      { id: 4, objectgroup: { objects: [{ x: 0, y: 0, width: 16, height: 6 }] } }, // top strip: not the centre
      { id: 5, objectgroup: { objects: [{ x: 0, y: 0, width: 32, height: 16 }] }, imagewidth: 32, imageheight: 16 },
      { id: 6, properties: { c: "" } },
    ],
  };
  const g = (id, flags = 0) => ((id + 1) | flags) >>> 0;
  const data = [
    g(0), 0, g(1), g(2), 0, 0,
    g(3), g(4), 0, g(5), 0, 0,
    0, 0, 0, 0, 0, g(5, 0x80000000),
  ];
  const map = {
    type: "map", orientation: "orthogonal", width: 6, height: 3, tilewidth: 16, tileheight: 16, infinite: false,
    tilesets: [ts],
    layers: [
      { type: "group", name: "g", visible: false, layers: [{ type: "tilelayer", name: "ground", width: 6, height: 3, data }] },
      { type: "objectgroup", name: "Walls", objects: [{ id: 1, x: 80, y: 0, width: 16, height: 16 }, { id: 2, x: 0, y: 32, polyline: [{ x: 0, y: 0 }, { x: 8, y: 0 }] }] },
    ],
  };
  const d = await TileMap.decodeTiled(map);
  const P = (x, y) => d.passable[y * 6 + x];
  assert.equal(P(0, 0), 0); // collides
  assert.equal(d.cost[2], 2.5);
  assert.equal(P(3, 0), 0); // walkable: no
  assert.equal(P(0, 1), 0); // shape over the centre
  assert.equal(P(1, 1), 1); // shape not over the centre
  assert.equal(P(3, 1), 0); // a 32x16 tile at (3, 1) covers (3, 1) and (4, 1)
  assert.equal(P(4, 1), 0);
  assert.equal(P(5, 0), 0); // the "Walls" rectangle
  assert.equal(P(0, 2), 0); // the polyline touches (0, 2)
  assert.equal(P(5, 2), 0); // a flipped wide tile: its right half goes off the map, its left half (5, 2)
  const any = await TileMap.decodeTiled(map, { cover: "any" });
  assert.equal(any.passable[1 * 6 + 1], 0); // the top strip overlaps the cell
  const noLayers = await TileMap.decodeTiled(map, { collision: ["properties", "tile-shapes"] });
  assert.equal(noLayers.passable[5], 1);
  // the CLI's and Python's names mean the same; others are refused, naming the valid ones
  const cliNames = await TileMap.decodeTiled(map, { collision: ["properties", "shapes"] });
  assert.deepEqual(Array.from(cliNames.passable), Array.from(noLayers.passable));
  const all = await TileMap.decodeTiled(map);
  assert.deepEqual(Array.from((await TileMap.decodeTiled(map, { collision: ["properties", "shapes", "objects"] })).passable), Array.from(all.passable));
  await assert.rejects(TileMap.decodeTiled(map, { collision: ["walls"] }), (e) => e instanceof TypeError && /"walls" \(properties, tile-shapes, object-layers, shapes, objects\)/.test(e.message));
  await assert.rejects(TileMap.decodeTiled(map, { collision: "properties" }), (e) => e instanceof TypeError && /must be an array/.test(e.message));
  // infinite: two chunks, the origin at their top-left
  const inf = {
    type: "map", orientation: "orthogonal", width: 4, height: 4, tilewidth: 16, tileheight: 16, infinite: true, tilesets: [ts],
    layers: [{ type: "tilelayer", name: "t", chunks: [{ x: -2, y: -1, width: 2, height: 1, data: [g(0), 0] }, { x: 0, y: 0, width: 2, height: 2, data: [0, 0, 0, g(0)] }] }],
  };
  const di = await TileMap.decodeTiled(inf);
  assert.deepEqual([di.width, di.height, di.origin.x, di.origin.y], [4, 3, -2, -1]);
  assert.deepEqual(Array.from(di.passable), [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
  const tm = await TileMap.fromTiled(JSON.stringify(map));
  assert.equal(tm.passable(0, 0), false);
  assert.equal(tm.cost(2, 0), 2.5);
  tm.free();
  // and the C loader reads these two maps the same, under every cover rule
  if (!DUMP) return;
  const dir = mkdtempSync(`${tmpdir()}/tilenav-tiled-`);
  try {
    // rotated and elliptic shapes too
    map.layers[1].objects.push({ id: 3, x: 40, y: 20, width: 30, height: 12, rotation: 30 },
      { id: 4, x: 10, y: 10, width: 20, height: 14, ellipse: true, rotation: 45 },
      { id: 5, x: 60, y: 30, polygon: [{ x: 0, y: 0 }, { x: 25, y: 5 }, { x: 5, y: 17 }] },
      { id: 6, x: 20, y: 48, width: 16, height: 16, gid: g(5, 0x20000000), rotation: 90 });
    writeFileSync(`${dir}/a.json`, JSON.stringify(map));
    writeFileSync(`${dir}/b.json`, JSON.stringify(inf));
    for (const cover of ["center", "any", "half"]) {
      const ref = cDump([`${dir}/a.json`, `${dir}/b.json`], cover);
      for (const [k, m] of [map, inf].entries()) {
        const d2 = await TileMap.decodeTiled(m, { cover });
        const got = [];
        for (let y = 0; y < d2.height; y++) got.push(Array.from({ length: d2.width }, (_, x) => (d2.passable[y * d2.width + x] ? String(d2.cost[y * d2.width + x]) : "x")).join(" "));
        assert.deepEqual(got, ref[k].rows, `${cover}, map ${k}`);
      }
    }
  } finally { rmSync(dir, { recursive: true }); }
});

test("refused at once with a TilenavError that says why: sizes before allocating, not JSON, XML, corrupt data, bad options", async () => {
  await init();
  const header = (w, h, extra = {}) => ({ type: "map", orientation: "orthogonal", width: w, height: h, tilewidth: 32, tileheight: 32, tilesets: [], layers: [], ...extra });
  const rejects = (p, status, re) => assert.rejects(p, (e) => e instanceof TilenavError && e.status === status && re.test(e.message));
  for (const [w, h] of [[16385, 16385], [1e9, 1e9], [65537, 1], [16384, 16384]]) {
    const t = performance.now();
    await rejects(TileMap.fromTiled(JSON.stringify(header(w, h))), -3, /too large/);
    assert.ok(performance.now() - t < 1000, `${w} x ${h}: ${performance.now() - t} ms`);
  }
  await rejects(TileMap.fromTiled(header(16384, 16384)), -3, /does not fit the WebAssembly module's 4 GiB memory/);
  await rejects(TileMap.decodeTiled(header(16385, 16385)), -3, /16385 x 16385 map is larger than tilenav maps go \(65536 cells a side, 268435456 cells\)/);
  await rejects(TileMap.fromTiled(header(2.5, 3)), -6, /width: expected a whole number, found 2\.5/);
  const chunk = (x, y, w, h) => ({ x, y, width: w, height: h, data: new Array(Math.max(0, w * h)).fill(0) });
  const far = header(0, 0, { infinite: true, layers: [{ type: "tilelayer", name: "g", chunks: [chunk(0, 0, 2, 2), chunk(2e6, 0, 2, 2)] }] });
  await rejects(TileMap.fromTiled(far), -3, /chunks: a 2000002 x 2 map is larger/);
  await rejects(TileMap.fromTiled(header(0, 0, { infinite: true, layers: [{ type: "tilelayer", name: "g", chunks: [chunk(0.5, 0, 2, 2)] }] })), -6, /layers\[0\]\.chunks\[0\]\.x: expected a whole number, found 0\.5/);
  new TileMap({ width: 4, height: 4 }).free(); // the module still works
  // not JSON, Tiled XML: the hint to export JSON
  await rejects(TileMap.fromTiled("this is not json"), -6, /the map is not JSON .*Export As/);
  await rejects(TileMap.fromTiled('<?xml version="1.0"?><map width="2" height="2"></map>'), -8, /Tiled XML .*save it as JSON/);
  await rejects(TileMap.fromTiled(header(2, 1, { tilesets: [{ firstgid: 1, source: "t.tsj" }] }), { files: { "t.tsj": "<tileset/>" } }), -8, /'t.tsj' is Tiled XML/);
  // corrupt compressed data names the layer
  const zlibLayer = { type: "tilelayer", name: "ground", width: 2, height: 2, encoding: "base64", compression: "zlib", data: "AAAAAAAAAAAAAAAAAAAAAA==" };
  await rejects(TileMap.fromTiled(header(2, 2, { layers: [{ type: "group", layers: [zlibLayer] }] })), -6, /layers\[0\]\.layers\[0\]\.data: zlib-compressed data does not decompress/);
  await rejects(TileMap.fromTiled(header(2, 2, { layers: [{ ...zlibLayer, compression: "gzip" }] })), -6, /layers\[0\]\.data: gzip-compressed data does not decompress/);
  // option names and types, as the rest of the API
  await assert.rejects(TileMap.fromTiled(header(2, 1), { colision: ["properties"] }), (e) => e instanceof TypeError && /unknown option "colision" \(url, files, load, collision, cover, collisionLayers, decompress\)/.test(e.message));
  await assert.rejects(TileMap.fromTiled(header(2, 1), { collision: "properties" }), TypeError);
  await assert.rejects(TileMap.fromTiled(header(2, 1), { load: "x" }), TypeError);
  await rejects(TileMap.fromTiled(header(2, 1), { url: 42 }), -7, /options.url must be a URL or a string/);
});

test("options.url: a URL, or in Node.js a plain file path (absolute or relative) for external tilesets", async () => {
  await init();
  const dir = mkdtempSync(`${tmpdir()}/tilenav-tiled-`);
  try {
    writeFileSync(`${dir}/walls.tsj`, JSON.stringify({ type: "tileset", tilewidth: 16, tileheight: 16, tilecount: 2, tiles: [{ id: 1, properties: [{ name: "collides", type: "bool", value: true }] }] }));
    const json = JSON.stringify({ type: "map", orientation: "orthogonal", width: 3, height: 1, tilewidth: 16, tileheight: 16, tilesets: [{ firstgid: 1, source: "walls.tsj" }], layers: [{ type: "tilelayer", name: "g", width: 3, height: 1, data: [1, 2, 1] }] });
    writeFileSync(`${dir}/map.json`, json);
    const rel = (await import("node:path")).relative(process.cwd(), `${dir}/map.json`);
    for (const url of [`${dir}/map.json`, rel, pathToFileURL(`${dir}/map.json`), pathToFileURL(`${dir}/map.json`).href]) {
      const m = await TileMap.fromTiled(json, { url });
      assert.deepEqual(Array.from(m.passableGrid()), [1, 0, 1], String(url));
      m.free();
    }
    await assert.rejects(TileMap.fromTiled(json, { url: `${dir}/nowhere/map.json` }), (e) => e instanceof TilenavError && e.status === -7 && /walls.tsj/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("placing a tower on a Tiled map: terrainValue() blocks on any map, defined where the map has no wall", async () => {
  await init();
  const { FlowField, PathFinder } = await import("../pkg/tilenav.mjs");
  const load = async (f) => TileMap.fromTiled(readFileSync(f, "utf8"), { url: f });
  const files = [`${ROOT}data/maps/td.tmj`];
  if (maps.includes("pytiled/b64/map.json")) files.push(`${BENCH}/pytiled/b64/map.json`); // no blocked cell at all
  if (maps.includes("melonjs/island-1.json")) files.push(`${BENCH}/melonjs/island-1.json`);
  let sawOpen = false;
  for (const f of files) {
    const map = await load(f), n = map.width * map.height, pass = map.passableGrid();
    const values = new Set(); // the values in use and their terrain, before
    for (let y = 0; y < map.height; y++) for (let x = 0; x < map.width; x++) values.add(map.get(x, y));
    const hadWall = pass.some((p) => p === 0);
    sawOpen ||= !hadWall;
    const TOWER = map.terrainValue(), rev = map.revision;
    assert.equal(map.terrainValue(), TOWER, f); // the same value every time
    if (hadWall) { // a value the map already blocks with
      assert.ok(values.has(TOWER), f);
    } else { // a new value, above every value in use, that blocks; nothing else changed
      assert.equal(TOWER, Math.max(...values) + 1, f);
      assert.deepEqual(map.passableGrid(), pass, f);
    }
    assert.ok(map.freeValue() > Math.max(...values, TOWER), f);
    // place one on a passable cell that has a passable neighbour: it blocks, paths go round,
    // the field follows; removing it restores the cell
    let at = -1;
    for (let i = 0; i < n && at < 0; i++) if (pass[i] && ((i % map.width) + 1 < map.width && pass[i + 1])) at = i;
    const x = at % map.width, y = (at / map.width) | 0, under = map.get(x, y), cost = map.cost(x, y);
    const field = new FlowField(map).build({ x: x + 1, y });
    map.set(x, y, TOWER);
    assert.equal(map.passable(x, y), false, f);
    assert.equal(map.cost(x, y), Infinity, f);
    assert.equal(map.revision > rev, true);
    field.update();
    assert.equal(field.distance(x, y), Infinity, f);
    assert.equal(new PathFinder(map).find(map, { x: x + 1, y }, { x, y }).found, false, f);
    map.set(x, y, under);
    assert.equal(map.passable(x, y), true, f);
    assert.equal(map.cost(x, y), cost, f);
    // a cost: an existing value of that cost, else a new one
    const MUD = map.terrainValue(3);
    map.set(x, y, MUD);
    assert.equal(map.cost(x, y), 3, f);
    assert.equal(map.terrainValue(3), MUD);
    map.set(x, y, map.terrainValue(1));
    assert.equal(map.cost(x, y), 1, f);
    assert.equal(map.terrainValue(cost), under, f); // the cell's own value is the one of its cost
    map.fill(x, y, 1, 1, TOWER); // with fill() too
    assert.equal(map.passable(x, y), false, f);
    field.free(); map.free();
  }
  assert.ok(sawOpen || !maps.length, "a map with no wall value was among them");
  // setTerrain: every cell of the value changes at once; freeValue() after it is above it
  const m = TileMap.fromArray([0, 0, 5, 5], 2, { costs: { 5: 2 } });
  m.setTerrain(5, Infinity);
  assert.deepEqual(Array.from(m.passableGrid()), [1, 1, 0, 0]);
  assert.equal(m.terrainValue(), 5);
  m.setTerrain(9, 4);
  assert.equal(m.freeValue(), 10);
  assert.equal(m.terrainValue(4), 9);
  assert.throws(() => m.setTerrain(1, "2"), (e) => e instanceof TypeError && /setTerrain\(1, cost\): cost must be a number >= 0 .*got "2"/.test(e.message));
  assert.throws(() => m.terrainValue(-1), (e) => e instanceof TypeError && /terrainValue: cost must be a number >= 0/.test(e.message));
  assert.throws(() => m.setTerrain(-1, 1), TypeError);
  // default walls (no costs, no blocked): 0 is floor, anything else blocks
  const d = TileMap.fromArray([0, 0, 0, 0], 2);
  assert.equal(d.terrainValue(), 1);
  assert.equal(d.terrainValue(1), 0);
  m.free(); d.free();
});

test("an external tileset or template that is not a JSON object: a TilenavError naming the file, as the C loader", async () => {
  await init();
  const json = JSON.stringify({ type: "map", orientation: "orthogonal", width: 3, height: 1, tilewidth: 16, tileheight: 16, tilesets: [{ firstgid: 1, source: "ts/walls.tsj" }], layers: [{ type: "tilelayer", name: "g", width: 3, height: 1, data: [1, 2, 1] }] });
  const good = { type: "tileset", tilewidth: 16, tileheight: 16, tilecount: 2, tiles: [{ id: 1, properties: [{ name: "collides", type: "bool", value: true }] }] };
  assert.equal((await TileMap.fromTiled(json, { files: { "ts/walls.tsj": good } })).tiled.report.cellsBlocked, 1);
  const refused = (e) => e instanceof TilenavError && e.status === -6 && /ts\/walls\.tsj: expected a JSON object at the top level/.test(e.message);
  for (const text of ["42", "[]", "null", "\"tileset\"", "true"]) // the file's text (options.files, fetched or read from disk)
    await assert.rejects(TileMap.fromTiled(json, { files: { "ts/walls.tsj": text } }), refused, text);
  for (const v of [42, [], null, true]) // what options.load or options.files gives, parsed already
    for (const o of [{ load: async () => v }, { files: { "ts/walls.tsj": v } }])
      await assert.rejects(TileMap.fromTiled(json, o), (e) => refused(e) && /from options\.files or options\.load/.test(e.message), `${JSON.stringify(v)} ${Object.keys(o)}`);
  // a template too
  const withTemplate = JSON.stringify({ type: "map", orientation: "orthogonal", width: 2, height: 2, tilewidth: 16, tileheight: 16, tilesets: [], layers: [{ type: "objectgroup", name: "walls", objects: [{ id: 1, template: "box.tj", x: 0, y: 0 }] }] });
  await assert.rejects(TileMap.fromTiled(withTemplate, { files: { "box.tj": "[1]" } }), (e) => e instanceof TilenavError && e.status === -6 && /box\.tj: expected a JSON object at the top level/.test(e.message));
});

test("nesting past the C loader's 64 levels is refused as a parse error, never a RangeError", async () => {
  const nested = (levels) => {
    let layers = [{ type: "tilelayer", name: "ground", width: 2, height: 1, data: [0, 0] }];
    for (let k = 0; k < levels; k++) layers = [{ type: "group", name: `g${k}`, layers }];
    return { width: 2, height: 1, tilewidth: 16, tileheight: 16, orientation: "orthogonal", infinite: false, layers, tilesets: [] };
  };
  const nestedText = (levels) => { // by hand: JSON.stringify itself overflows at 3,000 groups
    let layers = '[{"type":"tilelayer","name":"ground","width":2,"height":1,"data":[0,0]}]';
    for (let k = 0; k < levels; k++) layers = `[{"type":"group","name":"g${k}","layers":${layers}}]`;
    return `{"width":2,"height":1,"tilewidth":16,"tileheight":16,"orientation":"orthogonal","infinite":false,"layers":${layers},"tilesets":[]}`;
  };
  const ok = await TileMap.decodeTiled(nested(20)); // 20 groups: 42 levels
  assert.equal(ok.width, 2);
  assert.equal((await TileMap.decodeTiled(nestedText(20))).width, 2);
  for (const levels of [40, 3000]) {
    for (const input of [nested(levels), nestedText(levels)]) {
      await assert.rejects(TileMap.decodeTiled(input), (e) => e instanceof TilenavError && e.status === -6 && /nested deeper than 64/.test(e.message), `${levels} groups`);
    }
  }
});

// ---- files the C loader refuses or accepts, and the JavaScript loader must agree ----------

const tinyMap = (layers, extra = {}) => ({ type: "map", orientation: "orthogonal", width: 2, height: 2, tilewidth: 16, tileheight: 16, tilesets: [], layers, ...extra });
const tileLayer = (extra) => ({ type: "tilelayer", name: "g", width: 2, height: 2, ...extra });
const refusedWith = (status, re) => (e) => e instanceof TilenavError && e.status === status && re.test(e.message);

test("a zip bomb is refused once past the expected W x H x 4 bytes, never inflated in full (as the C loader)", async () => {
  await init();
  const zlib = await import("node:zlib");
  const bomb = (kind) => { // 4 MiB of zeros for a 2 x 2 map (16 bytes)
    const b = Buffer.alloc(4 << 20);
    return (kind === "gzip" ? zlib.gzipSync(b) : kind === "zstd" ? zlib.zstdCompressSync(b) : zlib.deflateSync(b)).toString("base64");
  };
  const kinds = ["zlib", "gzip", ...(zlib.zstdDecompressSync ? ["zstd"] : [])];
  for (const kind of kinds) {
    const map = tinyMap([tileLayer({ encoding: "base64", compression: kind, data: bomb(kind) })]);
    await assert.rejects(TileMap.decodeTiled(map), refusedWith(-6, new RegExp(`layers\\[0\\]\\.data: ${kind} data decompresses to more than the expected 16 bytes`)), kind);
  }
  // zlib data labelled gzip (and the reverse) is read, as zlib's inflate reads it for the C loader
  const cells = Buffer.from(new Uint32Array([0, 1, 0, 1]).buffer);
  for (const [kind, data] of [["gzip", zlib.deflateSync(cells)], ["zlib", zlib.gzipSync(cells)]])
    assert.deepEqual(Array.from((await TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "base64", compression: kind, data: data.toString("base64") })]))).passable), [1, 1, 1, 1]);
  // the browsers' path (DecompressionStream): it stops reading once past the limit
  const { streamDecompress } = await import("../pkg/tiled.mjs");
  assert.equal(typeof streamDecompress, "function");
  const big = new Uint8Array(zlib.deflateSync(Buffer.alloc(256 << 20))); // 256 MiB inflated
  const t = performance.now();
  await assert.rejects(streamDecompress(big, "zlib", 16), (e) => /zlib data decompresses to more than the expected 16 bytes/.test(e.message));
  assert.ok(performance.now() - t < 2000, `${performance.now() - t} ms: inflated past the limit`);
  for (const [kind, data] of [["zlib", zlib.deflateSync(cells)], ["gzip", zlib.gzipSync(cells)], ["zlib", zlib.gzipSync(cells)]])
    assert.deepEqual(Array.from(await streamDecompress(new Uint8Array(data), kind, 16)), Array.from(cells), kind);
  // options.decompress gets the expected size; what it gives is checked against it
  let got = null;
  const over = async (b, kind, max) => { got = max; return new Uint8Array(1 << 20); };
  await assert.rejects(TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "base64", compression: "zlib", data: bomb("zlib") })]), { decompress: over }),
    refusedWith(-6, /layers\[0\]\.data: zlib data decompresses to more than the expected 16 bytes/));
  assert.equal(got, 16);
  await assert.rejects(TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "base64", compression: "zlib", data: bomb("zlib") })]), { decompress: async () => new Uint8Array(8) }),
    refusedWith(-6, /layers\[0\]\.data: zlib data decompresses to 8 bytes, expected 16 \(4 per cell\)/));
});

test("base64 layer data: the C loader's rules, whatever the platform's decoder (no '!', no URL-safe alphabet, padding required)", async () => {
  await init();
  const cells = Buffer.from(new Uint32Array([0, 0, 0, 0]).buffer).toString("base64"); // "AAAAAAAAAAAAAAAAAAAAAA=="
  const load = (data) => TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "base64", data })]));
  for (const [data, re] of [
    [`!${cells.slice(1)}`, /layers\[0\]\.data: bad base64 character '!' at offset 0/],
    [`${cells.slice(0, 5)}_${cells.slice(6)}`, /bad base64 character '_' at offset 5/],
    [`${cells.slice(0, 5)}-${cells.slice(6)}`, /bad base64 character '-' at offset 5/],
    [`${cells.slice(0, 3)}\u00e9${cells.slice(4)}`, /bad base64 byte 0xc3 at offset 3/],
    [cells.replace(/=+$/, ""), /bad base64: 22 characters and 0 '=' is not a whole number of 4-character groups/],
    [`AAAA=AAA${cells.slice(8)}`, /bad base64: data after '=' padding at offset 5/],
    [`${cells}====`, /bad base64: 22 characters and 6 '=' is not a whole number/],
    ["AAAAAAAAAAAAAAAAAAAAAAAAA", /bad base64: 25 characters/],
    ["AAAAAAAAAAAAAAAA", /base64 data decodes to 12 bytes, expected 2 x 2 cells x 4 = 16/],
  ]) await assert.rejects(load(data), refusedWith(-6, re), data);
  // blanks (space, tab, CR, LF) anywhere are skipped, as the C loader skips them
  const d = await load(` ${cells.slice(0, 8)}\n\t${cells.slice(8, 16)}\r\n${cells.slice(16)} `);
  assert.deepEqual(Array.from(d.passable), [1, 1, 1, 1]);
  const gid = Buffer.from(new Uint32Array([0, 7, 0xffffffff, 2]).buffer).toString("base64");
  const ts = [{ firstgid: 1, tilewidth: 16, tileheight: 16, tiles: [{ id: 6, properties: [{ name: "solid", value: true }] }, { id: 1, properties: [{ name: "cost", value: 3 }] }] }];
  const dd = await TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "base64", data: gid })], { tilesets: ts }));
  assert.deepEqual(Array.from(dd.passable), [1, 0, 1, 1]);
  assert.deepEqual(Array.from(dd.cost), [1, Infinity, 1, 3]);
});

test("csv strings of gids: whole numbers in [0, 4294967295] with blanks around them, as the C loader", async () => {
  await init();
  const load = (data) => TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "csv", data })]));
  for (const [data, re] of [
    ["1,2,abc,0", /layers\[0\]\.data\[2\]: gid must be a whole number in \[0, 4294967295\], found 'abc'/],
    ["-1,0,0,0", /data\[0\]: gid must be a whole number in \[0, 4294967295\], found '-1'/],
    ["0,1.5,0,0", /data\[1\]: gid must be a whole number in \[0, 4294967295\], found '1.5'/],
    ["0,0,4294967296,0", /data\[2\]: .*found '4294967296'/],
    ["0,0,,0", /data\[2\]: .*found ''/],
    ["0,0,0,0,", /data\[4\]: .*found ''/],
    ["0 1,0,0,0", /data\[0\]: .*found '0 1'/],
    ["0,0,0", /layers\[0\]\.data: has 3 gids, expected 2 x 2 = 4/],
    ["0,0,0,0,0,0", /layers\[0\]\.data: has 6 gids, expected 2 x 2 = 4/],
    ["", /has 0 gids/],
  ]) await assert.rejects(load(data), refusedWith(-6, re), data);
  const ts = [{ firstgid: 1, tilewidth: 16, tileheight: 16, tiles: [{ id: 0, properties: [{ name: "solid", value: true }] }] }];
  const d = await TileMap.decodeTiled(tinyMap([tileLayer({ encoding: "csv", data: " 0 ,\n1,\r\n\t0,   4294967295 \n" })], { tilesets: ts }));
  assert.deepEqual(Array.from(d.passable), [1, 0, 1, 1]);
  // JSON arrays: the C loader's messages too
  await assert.rejects(TileMap.decodeTiled(tinyMap([tileLayer({ data: [0, "1", 0, 0] })])), refusedWith(-6, /layers\[0\]\.data\[1\]: gid must be a whole number, found a string/));
  await assert.rejects(TileMap.decodeTiled(tinyMap([tileLayer({ data: [0, 0, -1, 0] })])), refusedWith(-6, /layers\[0\]\.data\[2\]: gid must be a whole number in \[0, 4294967295\], found -1/));
});

test("malformed maps the C loader refuses are refused, with its message and JSON path", async () => {
  await init();
  const ts = { firstgid: 1, tilewidth: 16, tileheight: 16, tilecount: 1 };
  const walls = (objects) => ({ type: "objectgroup", name: "walls", objects });
  const decor = (objects) => ({ type: "objectgroup", name: "decor", objects });
  const ground = tileLayer({ data: [0, 0, 0, 0] });
  const many = Array.from({ length: 1025 }, () => ground);
  const cases = [
    [tinyMap([ground], { tilesets: [{ ...ts, firstgid: undefined }] }), -6, /tilesets\[0\]\.firstgid: missing field/],
    [tinyMap([ground], { tilesets: [{ ...ts, firstgid: 0 }] }), -6, /tilesets\[0\]\.firstgid: 0 is outside \[1, 268435455\]/],
    [tinyMap([ground], { tilesets: [{ ...ts, firstgid: 1.5 }] }), -6, /tilesets\[0\]\.firstgid: expected a whole number, found 1\.5/],
    [tinyMap([ground], { tilesets: [{ ...ts, tilecount: "8" }] }), -6, /tilesets\[0\]\.tilecount: expected a whole number, found a string/],
    [tinyMap([ground], { tilesets: [{ ...ts, tiles: [{ id: -1 }] }] }), -6, /tilesets\[0\]\.tiles\[0\]\.id: -1 is outside \[0, 268435454\]/],
    [tinyMap([ground], { tilesets: [{ ...ts, tiles: [{ id: 0, properties: [{ value: true }] }] }] }), -6, /tilesets\[0\]\.tiles\[0\]\.properties\[0\]: property without a name/],
    [tinyMap([ground], { tilesets: [{ ...ts, tiles: [{ id: 0, objectgroup: { objects: [{ x: "1", width: 4, height: 4 }] } }] }] }), -6, /tilesets\[0\]\.tiles\[0\]\.objectgroup\.objects\[0\]\.x: expected a number, found a string/],
    [tinyMap([{ type: "tilelayer", name: "g", chunks: [{ x: 0, y: 0, width: 0, height: 2, data: [] }] }], { infinite: true }), -6, /layers\[0\]\.chunks\[0\]\.width: 0 is outside \[1, 65536\]/],
    [tinyMap([ground, walls([{ x: 0, y: 0, polygon: [{ x: 0, y: 0 }, { x: 1e300, y: 0 }, { x: 0, y: 8 }] }])]), -6, /layers\[1\]\.objects\[0\]\.polygon\[1\]\.x: 1\.0000000000000001e\+300 is outside \[-1e\+09, 1e\+09\]/],
    [tinyMap([ground, walls([{ x: 0, y: 0, polygon: [{ x: 0, y: 0 }, { x: 8 }, { x: 0, y: 8 }] }])]), -6, /layers\[1\]\.objects\[0\]\.polygon\[1\]: point without x or y/],
    [tinyMap([ground, decor([{ x: 0, y: 0, width: -64, height: 8 }])]), -6, /layers\[1\]\.objects\[0\]\.width: -64 is outside \[0, 1e\+09\]/], // not a collision layer: checked all the same
    [tinyMap([ground, walls([{ x: "3", y: 0, width: 8, height: 8 }])]), -6, /layers\[1\]\.objects\[0\]\.x: expected a number, found a string/],
    [tinyMap([ground, walls([{ x: 0, y: 0, width: 8, height: 8, rotation: "45" }])]), -6, /layers\[1\]\.objects\[0\]\.rotation: expected a number, found a string/],
    [tinyMap([ground, walls([{ x: 0, y: 0, width: 8, height: 8, ellipse: "yes" }])]), -6, /layers\[1\]\.objects\[0\]\.ellipse: expected true or false, found a string/],
    [tinyMap([ground], { tilewidth: 32.5 }), -6, /tilewidth: expected a whole number, found 32\.5/],
    [tinyMap([ground], { tileheight: 0 }), -6, /tileheight: 0 is outside \[1, 65536\]/],
    [tinyMap([ground], { infinite: "false" }), -6, /infinite: expected true or false, found a string/],
    [tinyMap([{ ...ground, visible: "yes" }]), -6, /layers\[0\]\.visible: expected true or false, found a string/],
    [tinyMap([{ ...ground, name: 3 }]), -6, /layers\[0\]\.name: expected a string, found a number/],
    [tinyMap([{ ...ground, encoding: "" }]), -6, /layers\[0\]\.data: unknown encoding ''/],
    [tinyMap(many), -3, /layers\[1024\]: more than 1024 layers/],
  ];
  for (const [map, status, re] of cases)
    await assert.rejects(TileMap.decodeTiled(map), refusedWith(status, re), re.source);
  // 1024 layers are fine, and groups and image layers do not count
  const d = await TileMap.decodeTiled(tinyMap([...many.slice(1), { type: "group", name: "x", layers: [{ type: "imagelayer", name: "i" }] }]));
  assert.equal(d.width, 2);
});

test("a UTF-8 byte order mark at the start of a map, external tileset or template is skipped, as the C loader skips it", async () => {
  await init();
  const BOM = "\ufeff";
  const tsj = { type: "tileset", tilewidth: 16, tileheight: 16, tilecount: 2, tiles: [{ id: 1, properties: [{ name: "collides", value: true }] }] };
  const map = tinyMap([tileLayer({ data: [1, 2, 2, 1] }), { type: "objectgroup", name: "walls", objects: [{ template: "box.tj", x: 0, y: 0 }] }], { tilesets: [{ firstgid: 1, source: "ts.tsj" }] });
  const files = { "ts.tsj": BOM + JSON.stringify(tsj), "box.tj": BOM + JSON.stringify({ type: "template", object: { width: 16, height: 16 } }) };
  const d = await TileMap.decodeTiled(BOM + JSON.stringify(map), { files });
  assert.deepEqual(Array.from(d.passable), [0, 0, 0, 1]);
  assert.equal(d.report.collisionObjects, 1);
  await assert.rejects(TileMap.decodeTiled(`${BOM}${BOM}{}`), refusedWith(-6, /not JSON/)); // only one
});

test("template and tileset paths written with '\\' are read as folders, as the C loader reads them", async () => {
  await init();
  const dir = mkdtempSync(`${tmpdir()}/tilenav-tiled-`);
  try {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(`${dir}/tpl`); mkdirSync(`${dir}/sub`);
    writeFileSync(`${dir}/sub/big.tsj`, JSON.stringify({ type: "tileset", tilewidth: 16, tileheight: 16, tilecount: 1, tiles: [{ id: 0, objectgroup: { objects: [{ x: 0, y: 0, width: 32, height: 16 }] } }], imagewidth: 32, imageheight: 16 }));
    // the template's tileset is relative to the template's folder (tpl\ -> tpl/)
    writeFileSync(`${dir}/tpl/bigtile.tj`, JSON.stringify({ type: "template", tileset: { firstgid: 1, source: "..\\sub\\big.tsj" }, object: { gid: 1, width: 32, height: 16 } }));
    const map = { type: "map", orientation: "orthogonal", width: 4, height: 2, tilewidth: 16, tileheight: 16,
      tilesets: [{ firstgid: 5, source: "sub\\big.tsj" }],
      layers: [tileLayer({ width: 4, height: 2, data: new Array(8).fill(0) }), { type: "objectgroup", name: "walls", objects: [{ template: "tpl\\bigtile.tj", x: 32, y: 32 }] }] };
    writeFileSync(`${dir}/map.tmj`, JSON.stringify(map));
    const d = await TileMap.decodeTiled(JSON.stringify(map), { url: `${dir}/map.tmj` });
    assert.deepEqual(Array.from(d.passable), [1, 1, 1, 1, 1, 1, 0, 0]);
    if (DUMP) { // and the C loader says the same
      const [c] = cDump([`${dir}/map.tmj`], "center");
      assert.equal(c.rows.join(" ").split(" ").map((v) => (v === "x" ? 0 : 1)).join(""), "11111100");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("tiles drawn at the grid's size (tilerendersize \"grid\"): scaled onto their cell, stretched or fitted, as the C loader", async () => {
  // a 4 x 3 map of 32 px cells with gid g in cell (1, 1); its tileset's tiles are iw x 64 with
  // one shape of sw x sh at the top-left (tests/test_tiled_collision.c test_render_size_by_hand)
  const sized = (g, iw, extra, sw, sh) => ({
    width: 4, height: 3, tilewidth: 32, tileheight: 32,
    tilesets: [{ firstgid: g, tilewidth: iw, tileheight: 64, ...extra,
      tiles: [{ id: 0, objectgroup: { objects: [{ x: 0, y: 0, width: sw, height: sh }] } }] }],
    layers: [{ type: "tilelayer", name: "t", width: 4, height: 3, data: [0, 0, 0, 0, 0, g, 0, 0, 0, 0, 0, 0] }],
  });
  const blocked = async (m, o) => { const d = await TileMap.decodeTiled(m, o); return Array.from(d.passable, (p) => 1 - p); };
  for (const g of [1, (1 << 22) + 5]) { // a gid past the terrain table goes through the collision layer: the same cells
    assert.deepEqual(await blocked(sized(g, 64, {}, 64, 64)), [0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0]);
    assert.deepEqual(await blocked(sized(g, 64, { tilerendersize: "grid" }, 64, 64)), [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    // 32 x 64 with its top three quarters a shape: 32 x 24 px of the cell stretched, 16 x 24 fitted
    assert.equal((await blocked(sized(g, 32, { tilerendersize: "grid", fillmode: "stretch" }, 32, 48), { cover: "half" }))[5], 1);
    assert.equal((await blocked(sized(g, 32, { tilerendersize: "grid", fillmode: "preserve-aspect-fit" }, 32, 48), { cover: "half" }))[5], 0);
    assert.equal((await blocked(sized(g, 64, { fillmode: "preserve-aspect-fit" }, 64, 64)))[2], 1); // fillmode alone scales nothing
  }
  await assert.rejects(TileMap.decodeTiled(sized(1, 64, { tilerendersize: "map" }, 64, 64)), (e) => e instanceof TilenavError && /tilesets\[0\]\.tilerendersize: expected "tile" or "grid"/.test(e.message));
  await assert.rejects(TileMap.decodeTiled(sized(1, 64, { fillmode: "cover" }, 64, 64)), (e) => e instanceof TilenavError && /tilesets\[0\]\.fillmode/.test(e.message));
  // random grid-size tiles, flipped, on random cells: cell by cell as the C loader reads them
  if (!DUMP) return;
  const dir = mkdtempSync(`${tmpdir()}/tilenav-grid-`);
  try {
    let seed = 99;
    const rnd = (n) => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; };
    const maps = [];
    for (let k = 0; k < 24; k++) {
      const tw = 8 + rnd(25), th = 8 + rnd(25), iw = 8 + rnd(3 * tw), ih = 8 + rnd(3 * th), W = 6, H = 5;
      const objects = [{ id: 1, x: rnd(iw), y: rnd(ih), width: 1 + rnd(iw), height: 1 + rnd(ih), rotation: rnd(2) ? 0 : rnd(90) },
        { id: 2, x: rnd(iw), y: rnd(ih), width: 1 + rnd(iw), height: 1 + rnd(ih), ellipse: true }];
      const data = Array.from({ length: W * H }, () => (rnd(3) ? 0 : (1 + rnd(2) * ((1 << 22) + 4)) + rnd(8) * 0x20000000) >>> 0);
      const tileset = (firstgid) => ({ firstgid, tilewidth: iw, tileheight: ih, tilerendersize: "grid", fillmode: rnd(2) ? "stretch" : "preserve-aspect-fit", tiles: [{ id: 0, objectgroup: { objects } }] });
      maps.push({ width: W, height: H, tilewidth: tw, tileheight: th, tilesets: [tileset(1), tileset((1 << 22) + 5)],
        layers: [{ type: "tilelayer", name: "t", width: W, height: H, data }] });
      writeFileSync(`${dir}/${k}.json`, JSON.stringify(maps[k]));
    }
    for (const cover of ["center", "any", "half"]) {
      const ref = cDump(maps.map((_, k) => `${dir}/${k}.json`), cover);
      for (const [k, m] of maps.entries()) {
        assert.equal(ref[k].error, undefined, ref[k].error);
        const d = await TileMap.decodeTiled(m, { cover });
        const got = [];
        for (let y = 0; y < d.height; y++) got.push(Array.from({ length: d.width }, (_, x) => (d.passable[y * d.width + x] ? String(d.cost[y * d.width + x]) : "x")).join(" "));
        assert.deepEqual(got, ref[k].rows, `${cover}, map ${k}: ${JSON.stringify(m)}`);
      }
    }
  } finally { rmSync(dir, { recursive: true }); }
});
