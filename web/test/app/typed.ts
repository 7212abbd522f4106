// A typed example of the package, checked by `tsc --strict` in web/test/package.sh (installed
// from the packed tarball into a fresh project) and then run by Node.
import { init, version, TileMap, PathFinder, FlowField, Crowd, Hierarchy, SectorField, TilenavError } from "tilenav";
import type { Cell, PathResult, CrowdView, Behaviour, RegionOptions, HierarchyResult, SectorFieldStats } from "tilenav";
import PF from "tilenav/compat/pathfinding";
import EasyStar from "tilenav/compat/easystar";

const { version: v } = await init();
if (v !== version()) throw new Error("version");

const map: TileMap = TileMap.fromText(["..#....", "..#.##.", "......."], { tileSize: 16 });
const finder = new PathFinder(map);
const r: PathResult = finder.find(map, { x: 0, y: 0 }, { x: 6, y: 0 }, { algo: "jps", diagonal: "no-cut" });
const cells: Cell[] = r.path;

// time-sliced: a few expansions per "frame"
let status: string = finder.begin(map, { x: 0, y: 0 }, { x: 6, y: 0 });
let frames = 0;
while (status === "in progress") { status = finder.step(2); frames++; }
const sliced = finder.result();

const batch = finder.findMany(map, [{ start: { x: 0, y: 0 }, goal: { x: 6, y: 2 } }, { start: { x: 0, y: 2 }, goal: { x: 3, y: 0 } }]);
const costs: Float64Array = batch.costs;

const field = new FlowField(map, { lineOfSight: "exact" }).build({ x: 6, y: 0 });
// views over the module's memory: take them right before use (an allocation may detach them)
const vecLength = field.vectorsView().length;
const dist: Float32Array = field.distancesView();
const distLength = dist.length;
const crowd = new Crowd(map, { capacity: 8 });
crowd.setFlow(0, field);
const staying = crowd.add({ x: 8, y: 8, target: "flow", flow: 0, arriveArea: 64, arriveRadius: 8, slowRadius: 32, weights: { wander: 0.5, avoidAgents: 2 } });
const weight: Behaviour = "cohesion";
crowd.setWeight(staying, weight, 0);
crowd.step(10);
const held: boolean = crowd.agents().some((a) => a.held);
const view: CrowdView = crowd.view();

// a 2x2 unit: a path of its top-left cell, a field for it, and where it fits
const big = TileMap.fromText(["......", "......", "..#...", "......", "......"]);
const bigFinder = new PathFinder(big);
const bigPath: PathResult = bigFinder.find(big, { x: 0, y: 0 }, { x: 4, y: 3 }, { size: 2, algo: "jps" });
const bigField = new FlowField(big, { size: 2 }).build({ x: 4, y: 3 });
const bigOk = new PF.AStarFinder({ unitSize: 2 }).unitSize === 2 && bigPath.found && Math.abs(bigPath.cost - bigField.distance(0, 0)) < 1e-4 && big.clearance(0, 0) === 2 && !big.fits(1, 1, 2);
bigField.free(); bigFinder.free(); big.free();

// regions: "is it reachable at all?" in O(1); an unreachable goal costs no search
const islands = TileMap.fromText(["..#..", "..#..", "..#.."]);
const islandsFinder = new PathFinder(islands);
const o: RegionOptions = { size: 1, diagonal: "always" };
const unreachable: PathResult = islandsFinder.find(islands, { x: 0, y: 0 }, { x: 4, y: 2 }, { regions: true });
const regionsOk = !islands.sameRegion({ x: 0, y: 0 }, { x: 4, y: 2 }, o) && islands.sameRegion({ x: 0, y: 0 }, { x: 1, y: 2 }) &&
  islands.regionCount(o) === 2 && islands.regionId(2, 0) === -1 && islands.regionGrid().length === 15 &&
  !unreachable.found && unreachable.expanded === 0;
islandsFinder.free(); islands.free();

// a hierarchy (HPA*) and a sector field; a crowd follows the field
const wide = TileMap.fromText(["................", "......####......", "................", "................"], { tileSize: 16 });
const hier: Hierarchy = wide.hierarchy({ sectorSize: 4, diagonal: "no-cut" });
const hp: HierarchyResult = hier.find({ x: 0, y: 0 }, { x: 15, y: 3 });
const he: HierarchyResult = hier.find({ x: 0, y: 0 }, { x: 15, y: 3 }, { exact: true, weight: 1 });
const sf: SectorField = hier.sectorField({ x: 15, y: 3 }, { budget: 1 << 16 });
const wideCrowd = new Crowd(wide);
wideCrowd.setFlow(0, sf);
wideCrowd.add({ x: 8, y: 8, target: "flow", flow: 0 });
wideCrowd.step(5);
const sfStats: SectorFieldStats = sf.stats; // the step built the sectors under the agent
const hierOk = hp.found && hp.algo === "hpa" && he.cost <= hp.cost && hp.cost <= he.cost + 4 * hier.crossingBound &&
  sf.direction(0, 0).dir >= 0 && Math.abs(sf.path({ x: 0, y: 0 }).cost - sf.direction(0, 0).cost) < 1e-4 &&
  sfStats.tilesBuilt > 0 && hier.stats.nodes > 0;
wideCrowd.free(); sf.free(); hier.free(); wide.free();

try { map.set(-1, 0, 0); } catch (e) { if (!(e instanceof TilenavError)) throw e; }

// PF.Grid, PF.FinderOptions, EasyStar.js as type names, as PathFinding.js and EasyStar.js users
// write them (a stranger's switch of the import broke these)
const grid: PF.Grid = new PF.Grid([[0, 0, 0], [1, 1, 0], [0, 0, 0]]);
const pfOptions: PF.FinderOptions = { diagonalMovement: PF.DiagonalMovement.Never };
const pfFinder: PF.AStarFinder = new PF.AStarFinder(pfOptions);
const pfNode: PF.Node | undefined = grid.getNodeAt(0, 0);
void pfFinder; void pfNode;
const pfPath: number[][] = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.Never }).findPath(0, 0, 0, 2, grid);
const smooth = PF.Util.smoothenPath(grid, pfPath);
// PathFinding.js's greedy best-first with a custom heuristic (run in JavaScript), and the wasm's
const bfPath = new PF.BestFirstFinder({ heuristic: (dx: number, dy: number) => dx + dy }).findPath(0, 0, 0, 2, grid);
const jpsWasm = new PF.JumpPointFinder({ optimal: true }).usesWasm && !new PF.JumpPointFinder().usesWasm;

const es: EasyStar.js = new EasyStar.js();
es.setGrid([[0, 0, 0], [1, 1, 0], [0, 0, 0]]);
es.setAcceptableTiles([0]);
es.enableSync();
let esLen = -1;
es.findPath(0, 0, 0, 2, (p) => { esLen = p ? p.length : -1; });
es.calculate();

console.log(r.found, cells.length, sliced.cost === r.cost, frames > 1, costs.length, distLength, vecLength,
  view.count, view.stride, held, pfPath.length, smooth.length <= pfPath.length, esLen, bfPath.length, jpsWasm, bigOk, regionsOk, hierOk);
crowd.free(); field.free(); finder.free(); map.free(); grid.free(); es.free();

// a Tiled map from JSON (here a tiny one written inline)
const tiled = await TileMap.fromTiled({
  type: "map", orientation: "orthogonal", width: 2, height: 1, tilewidth: 16, tileheight: 16, infinite: false,
  tilesets: [{ firstgid: 1, tiles: [{ id: 0, properties: [{ name: "collides", type: "bool", value: true }] }] }],
  layers: [{ type: "tilelayer", name: "t", width: 2, height: 1, data: [1, 0] }],
}, { cover: "center" });
console.log(tiled.passable(0, 0), tiled.passable(1, 0), tiled.tiled.report.cellsBlocked);
tiled.free();

// the Phaser adapter over anything shaped like a Phaser tilemap (here a stand-in object)
import { PhaserNav, PathFollower, FieldFollower } from "tilenav/phaser";
import type { FieldFollowerOptions } from "tilenav/phaser";
const tile = (index: number) => ({ index, collides: index === 1 });
const fakeTilemap = { width: 3, height: 2, tileWidth: 16, tileHeight: 16, layers: [{ name: "ground", data: [[tile(0), tile(1), tile(0)], [tile(0), tile(0), tile(0)]] }] };
const nav = new PhaserNav(fakeTilemap, { autoSync: false });
const hero = { x: 8, y: 8 };
const walker = new PathFollower(hero, nav, { speed: 1000 });
walker.moveTo({ x: 2, y: 0 });
for (let i = 0; i < 10; i++) walker.update(16);
console.log(nav.passable(1, 0), walker.done, hero.x, hero.y);
const walkerStatus: "idle" | "moving" | "arrived" | "failed" | "destroyed" = walker.status;
const creep = nav.cellToWorld(0, 1), fo: FieldFollowerOptions = { speed: 1000, box: 12 };
const flow = nav.flowField({ x: 2, y: 1 }), follower = new FieldFollower(creep, flow, fo);
let creepFrames = 0;
while (follower.update(16) && creepFrames < 100) creepFrames++;
console.log(walkerStatus, walker.arrived, walker.failed, follower.arrived, follower.box, JSON.stringify(nav.worldToCell(creep.x, creep.y)), nav.origin.x);
flow.free();
nav.destroy();
