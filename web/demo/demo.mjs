// The scenes of the reference documents on one canvas, driven by the tilenav JavaScript API.
// window.tilenavDemo exposes the current scene's state for the browser test (web/test/).
import { init, version, TileMap, PathFinder, FlowField, Crowd, Marbles, AngleCar, GridWanderer } from "../pkg/tilenav.mjs";

const TILE = 32, COLS = 21, ROWS = 15;
const canvas = document.getElementById("view");
const ctx = canvas.getContext("2d");
const info = document.getElementById("info");
const help = document.getElementById("help");

// Seeded random numbers (mulberry32), so every visit shows the same maps.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A maze (recursive backtracker on the odd cells) with some walls knocked out so that several
// routes exist and the shortest one matters. 0 = floor, 1 = wall.
function makeMaze(w, h, seed) {
  const r = rng(seed), cells = new Array(w * h).fill(1);
  const stack = [[1, 1]];
  cells[w + 1] = 0;
  while (stack.length) {
    const [x, y] = stack.at(-1);
    const next = [[2, 0], [-2, 0], [0, 2], [0, -2]]
      .map(([dx, dy]) => [x + dx, y + dy, dx, dy])
      .filter(([nx, ny]) => nx > 0 && ny > 0 && nx < w - 1 && ny < h - 1 && cells[ny * w + nx] === 1);
    if (!next.length) { stack.pop(); continue; }
    const [nx, ny, dx, dy] = next[Math.floor(r() * next.length)];
    cells[(y + dy / 2) * w + x + dx / 2] = 0;
    cells[ny * w + nx] = 0;
    stack.push([nx, ny]);
  }
  for (let i = 0; i < (w * h) / 12; i++) {
    const x = 1 + Math.floor(r() * (w - 2)), y = 1 + Math.floor(r() * (h - 2));
    if ((x + y) % 2 === 1) cells[y * w + x] = 0;
  }
  return cells;
}

function drawGrid(map, colors = { 0: "#2b2f33" }, wall = "#6b5b45") {
  for (let y = 0; y < map.height; y++)
    for (let x = 0; x < map.width; x++) {
      const v = map.get(x, y);
      ctx.fillStyle = map.passable(x, y) ? colors[v] ?? colors[0] : wall;
      ctx.fillRect(x * TILE, y * TILE, TILE, TILE);
    }
  ctx.strokeStyle = "rgba(0,0,0,0.35)";
  ctx.lineWidth = 1;
  for (let x = 0; x <= map.width; x++) { ctx.beginPath(); ctx.moveTo(x * TILE + 0.5, 0); ctx.lineTo(x * TILE + 0.5, map.height * TILE); ctx.stroke(); }
  for (let y = 0; y <= map.height; y++) { ctx.beginPath(); ctx.moveTo(0, y * TILE + 0.5); ctx.lineTo(map.width * TILE, y * TILE + 0.5); ctx.stroke(); }
}

function drawPath(path, color, width = 6, ox = 0, oy = 0, tile = TILE) {
  if (path.length < 2) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineJoin = "round";
  ctx.beginPath();
  path.forEach((c, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ox + (c.x + 0.5) * tile, oy + (c.y + 0.5) * tile));
  ctx.stroke();
}

function dot(x, y, r, color) {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
}

// Timers in microseconds. Browsers coarsen performance.now() (to 0.1 ms without cross-origin
// isolation), below the time of most calls here, so a single reading would say "0.000 ms".
// timed() repeats a call that can be repeated (a query, a rebuild) until 2 ms have passed and
// returns the mean; Avg keeps the mean over the last frames of a per-frame cost (a crowd step).
const timed = (fn, minMs = 2) => {
  const t0 = performance.now();
  let v, n = 0, t;
  do { v = fn(); n++; t = performance.now(); } while (t - t0 < minMs);
  return [v, ((t - t0) * 1000) / n, n];
};
class Avg {
  constructor(n = 120) { this.n = n; this.sum = 0; this.list = []; }
  add(us) { this.list.push(us); this.sum += us; if (this.list.length > this.n) this.sum -= this.list.shift(); }
  get us() { return this.list.length ? this.sum / this.list.length : 0; }
  get count() { return this.list.length; }
}
const fmtUs = (us) => (us < 1000 ? `${us.toFixed(1)} µs` : `${(us / 1000).toFixed(2)} ms`);
// One call that cannot be repeated (an incremental update): one reading, or "below the clock"
const once = (fn) => { const t0 = performance.now(); const v = fn(); return [v, (performance.now() - t0) * 1000]; };
const fmtOnce = (us) => (us === 0 ? "< 100 µs (below the browser clock's 0.1 ms grain)" : `${fmtUs(us)} (one reading, 0.1 ms grain)`);

// ---- scene 1: the book's walkPath maze ------------------------------------------------------
// Click anywhere: the character walks the A* path cell by cell, grid-aligned (4 neighbours,
// manhattan heuristic, as in the book). A click while walking is taken at the next cell centre.
function mazeScene() {
  const map = TileMap.fromArray(makeMaze(COLS, ROWS, 7), COLS, { tileSize: TILE });
  const pf = new PathFinder(map);
  const SPEED = Number(new URLSearchParams(location.search).get("speed")) || 8; // cells per second
  let cell = { x: 1, y: 1 }, pos = { x: 1, y: 1 }, path = [], next = 0, pending = null;
  let walked = [{ ...cell }], last = null, walks = 0;
  const rule = { diagonal: "never", heuristic: "manhattan" };

  function plan(goal) {
    const [r, us, runs] = timed(() => pf.find(map, cell, goal, rule));
    last = { goal, ...r, us };
    if (!r.found) { info.textContent = `no path to (${goal.x}, ${goal.y}): ${r.status}`; return; }
    path = r.path;
    next = 1;
    walked = [{ ...cell }];
    walks++;
    info.textContent = `A* (manhattan, 4 neighbours) to (${goal.x}, ${goal.y}): ${r.path.length - 1} steps, ` +
      `${r.expanded} cells expanded, ${fmtUs(us)} per query in WebAssembly (mean of ${runs})`;
  }

  return {
    help: "Click a floor cell: the character walks the shortest path there, one cell at a time (the book's walkPath).",
    click(c) { if (next > 0 && next < path.length) pending = c; else plan(c); },
    update(dt) {
      if (next <= 0 || next >= path.length) return;
      let budget = SPEED * dt;
      while (budget > 0 && next < path.length) {
        const t = path[next], dx = t.x - pos.x, dy = t.y - pos.y, d = Math.abs(dx) + Math.abs(dy);
        if (d <= budget) {
          pos = { x: t.x, y: t.y };
          budget -= d;
          cell = { ...t };
          walked.push({ ...t });
          next++;
          if (pending) { const g = pending; pending = null; plan(g); }
        } else {
          pos = { x: pos.x + Math.sign(dx) * budget, y: pos.y + Math.sign(dy) * budget };
          budget = 0;
        }
      }
    },
    draw() {
      drawGrid(map);
      if (next > 0) drawPath(path, "#e8b33a", 8);
      if (last?.found) {
        const g = last.goal;
        ctx.strokeStyle = "#e8b33a"; ctx.lineWidth = 3;
        ctx.strokeRect(g.x * TILE + 4, g.y * TILE + 4, TILE - 8, TILE - 8);
      }
      dot((pos.x + 0.5) * TILE, (pos.y + 0.5) * TILE, TILE * 0.36, "#4fd18b");
      dot((pos.x + 0.5) * TILE, (pos.y + 0.45) * TILE, TILE * 0.12, "#16341f");
    },
    state() {
      return {
        scene: "maze", width: map.width, height: map.height, tile: TILE,
        passable: Array.from(map.passableGrid()), rule: { ...rule },
        character: { ...cell }, moving: next > 0 && next < path.length,
        path: path.map((c) => ({ ...c })), walked: walked.map((c) => ({ ...c })), walks,
        goal: last?.goal ?? null, expanded: last?.expanded ?? 0,
      };
    },
    free() { pf.free(); map.free(); },
  };
}

// ---- scene 2: manhattan, euclidean and diagonal (octile) heuristics -------------------------
function heuristicsScene() {
  const r = rng(11), W = 21, H = 15, cells = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) cells.push(r() < 0.22 && !(x < 2 && y < 2) ? 1 : 0);
  const map = TileMap.fromArray(cells, W, { tileSize: TILE });
  const pf = new PathFinder(map);
  const kinds = [["manhattan", "#e8b33a"], ["euclidean", "#5fb0ff"], ["octile", "#ff6f91"]];
  const start = { x: 0, y: 0 };
  let goal = { x: 19, y: 13 }, results = [];
  const S = 224 / W; // three maps side by side, 224 px each
  function run() {
    if (!map.passable(goal.x, goal.y)) return;
    results = kinds.map(([h, color]) => {
      const [res, us] = timed(() => pf.find(map, start, goal, { heuristic: h, diagonal: "no-cut" }));
      return { h, color, res, us };
    });
    info.textContent = results.map(({ h, res, us }) =>
      `${h.padEnd(10)} cost ${res.cost.toFixed(2).padStart(6)}  expanded ${String(res.expanded).padStart(4)}  ${fmtUs(us).padStart(9)} per query`).join("\n");
  }
  run();
  return {
    help: "Three A* searches on one map (8 neighbours, no corner cutting): click a goal in any panel. Manhattan overestimates with diagonals (fewer cells expanded, sometimes a longer path).",
    click(_c, px, py) {
      const x = Math.floor((px % 224) / S), y = Math.floor(py / S);
      if (x < W && y < H) { goal = { x, y }; run(); }
    },
    update() {},
    draw() {
      ctx.fillStyle = "#000"; ctx.fillRect(0, 0, canvas.width, canvas.height);
      results.forEach(({ h, color, res }, i) => {
        const ox = i * 224;
        for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
          ctx.fillStyle = map.passable(x, y) ? "#2b2f33" : "#6b5b45";
          ctx.fillRect(ox + x * S, y * S, S - 0.5, S - 0.5);
        }
        drawPath(res.path, color, 3, ox, 0, S);
        dot(ox + (start.x + 0.5) * S, (start.y + 0.5) * S, 4, "#4fd18b");
        dot(ox + (goal.x + 0.5) * S, (goal.y + 0.5) * S, 4, "#fff");
        ctx.fillStyle = color; ctx.font = "14px system-ui";
        ctx.fillText(h, ox + 4, H * S + 20);
        ctx.fillText(`cost ${res.cost.toFixed(2)}, ${res.expanded} expanded`, ox + 4, H * S + 38);
      });
    },
    state() { return { scene: "heuristics", goal, results: results.map(({ h, res }) => ({ h, cost: res.cost, expanded: res.expanded, length: res.path.length })) }; },
    free() { pf.free(); map.free(); },
  };
}

// ---- scene 3: a flow field with line of sight, and a crowd following it ---------------------
function arrow(x, y, vx, vy, len, color) {
  ctx.strokeStyle = color; ctx.lineWidth = 1.5;
  const ex = x + vx * len, ey = y + vy * len;
  ctx.beginPath(); ctx.moveTo(x - vx * len, y - vy * len); ctx.lineTo(ex, ey);
  ctx.lineTo(ex - vx * 4 - vy * 3, ey - vy * 4 + vx * 3); ctx.moveTo(ex, ey);
  ctx.lineTo(ex - vx * 4 + vy * 3, ey - vy * 4 - vx * 3); ctx.stroke();
}

function drawField(map, field) {
  const d = field.distances(), dirs = field.directions(), los = field.lineOfSight();
  let max = 0;
  for (const v of d) if (v < Infinity && v > max) max = v;
  for (let y = 0; y < map.height; y++) for (let x = 0; x < map.width; x++) {
    const i = y * map.width + x;
    if (!map.passable(x, y)) continue;
    if (d[i] < Infinity) {
      const t = d[i] / (max || 1);
      ctx.fillStyle = `rgb(${40 + 60 * (1 - t)}, ${50 + 80 * (1 - t)}, ${70 + 90 * (1 - t)})`;
      ctx.fillRect(x * TILE, y * TILE, TILE, TILE);
    }
    if (los[i]) { ctx.fillStyle = "rgba(255,255,160,0.10)"; ctx.fillRect(x * TILE, y * TILE, TILE, TILE); }
    if (dirs[i] >= 0) {
      const a = (dirs[i] * Math.PI) / 4;
      arrow((x + 0.5) * TILE, (y + 0.5) * TILE, Math.cos(a), Math.sin(a), 8, los[i] ? "rgba(255,255,160,0.6)" : "rgba(255,255,255,0.35)");
    }
  }
}

// Read through Crowd.view(): the agents' state as a Float32Array over the module's memory
// (x, y, vx, vy, heading, radius, arrived per agent), no object per agent per frame.
function drawAgents(crowd, color) {
  const { count, stride, data } = crowd.view();
  for (let i = 0, o = 0; i < count; i++, o += stride) {
    const x = data[o], y = data[o + 1], heading = data[o + 4], r = data[o + 5];
    dot(x, y, r, color);
    ctx.strokeStyle = "#000"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(x, y);
    ctx.lineTo(x + Math.cos(heading) * r, y + Math.sin(heading) * r); ctx.stroke();
  }
}

function flowScene() {
  const rows = [
    ".....................",
    ".....................",
    "...#####.......#.....",
    ".......#.......#.....",
    ".......#...#####.....",
    ".......#.............",
    "...........##........",
    "...####....##....###.",
    "......#..............",
    "......#.......#......",
    "..#...#.......#......",
    "..#...#####...#####..",
    "..#..................",
    ".....................",
    ".....................",
  ];
  const map = TileMap.fromText(rows, { tileSize: TILE });
  const field = new FlowField(map, { lineOfSight: "exact" });
  const crowd = new Crowd(map, { capacity: 64, seed: 5, pushApart: true });
  let goal = { x: 18, y: 12 };
  let [, buildUs] = timed(() => field.build(goal));
  crowd.setFlow(0, field);
  const r = rng(3);
  while (crowd.count < 48) {
    const x = Math.floor(r() * COLS), y = Math.floor(r() * 4);
    if (map.passable(x, y)) crowd.add({ x: (x + 0.5) * TILE, y: (y + 0.5) * TILE, radius: 7, target: "flow", flow: 0, maxSpeed: 90 });
  }
  const step = new Avg(120);
  let acc = 0;
  return {
    help: "Click to move the goal: the field is rebuilt (distances, 8-way arrows, the cells that see the goal in yellow) and 48 agents flock along it.",
    click(c) {
      if (!map.passable(c.x, c.y)) return;
      goal = c;
      [, buildUs] = timed(() => field.build(goal));
      crowd.setFlow(0, field);
      for (const a of crowd.agents()) crowd.setTarget(a.id, "flow", 0);
    },
    update(dt) {
      acc = Math.min(acc + dt, 0.1);
      while (acc >= 1 / 60) { step.add(once(() => crowd.step())[1]); acc -= 1 / 60; }
      info.textContent = `field build ${fmtUs(buildUs)} (${field.reachableCount} cells), crowd step ${fmtUs(step.us)} (mean of ${step.count} steps), ` +
        `${crowd.agents().filter((a) => a.arrived).length}/${crowd.count} arrived, wall overlap ${crowd.maxWallOverlap()}`;
    },
    draw() {
      drawGrid(map);
      drawField(map, field);
      ctx.strokeStyle = "#fff"; ctx.lineWidth = 3;
      ctx.strokeRect(goal.x * TILE + 3, goal.y * TILE + 3, TILE - 6, TILE - 6);
      drawAgents(crowd, "#ff9b54");
    },
    state() { return { scene: "flow", goal, agents: crowd.count, overlap: crowd.maxWallOverlap() }; },
    free() { crowd.free(); field.free(); map.free(); },
  };
}

// ---- scene 4: tower defense -----------------------------------------------------------------
// Creeps spawn on the left and follow the flow field to the exit on the right. Click to place a
// tower: a placement that would wall the exit off is refused; an accepted one updates the field
// incrementally. Towers shoot the nearest creep in range.
function tdScene() {
  const W = COLS, H = ROWS, TOWER = 2;
  const cells = new Array(W * H).fill(0);
  for (const [x, y] of [[6, 3], [6, 4], [12, 10], [12, 11], [15, 5]]) cells[y * W + x] = 1;
  const map = new TileMap({ width: W, height: H, cells, tileWidth: TILE, tileHeight: TILE, costs: { 0: 1, 1: Infinity, [TOWER]: Infinity } });
  const exit = { x: W - 1, y: 7 }, spawns = [{ x: 0, y: 6 }, { x: 0, y: 7 }, { x: 0, y: 8 }];
  const field = new FlowField(map, { lineOfSight: "exact" }).build(exit);
  const crowd = new Crowd(map, { capacity: 256, seed: 9 });
  crowd.setFlow(0, field);
  const towers = [];
  let t = 0, nextSpawn = 0, spawned = 0, arrived = 0, killed = 0, msg = "", shots = [], updateUs = 0;
  const r = rng(21);
  return {
    help: "Click an empty cell to build a tower. Placements that would cut the creeps off from the exit are refused; the field updates incrementally.",
    click(c) {
      if (map.get(c.x, c.y) !== 0 || spawns.some((s) => s.x === c.x && s.y === c.y) || (c.x === exit.x && c.y === exit.y)) return;
      const x0 = c.x * TILE, y0 = c.y * TILE;
      if (crowd.agents().some((a) => a.x + a.radius > x0 && a.x - a.radius < x0 + TILE && a.y + a.radius > y0 && a.y - a.radius < y0 + TILE)) {
        msg = `(${c.x}, ${c.y}): a creep is there`; return;
      }
      // guard the spawns and every creep's cell: a creep must never be stranded in a pocket
      const guard = spawns.concat(crowd.agents().map((a) => ({ x: Math.floor(a.x / TILE), y: Math.floor(a.y / TILE) }))
        .filter((g) => g.x >= 0 && g.y >= 0 && g.x < W && g.y < H && map.get(g.x, g.y) === 0));
      if (field.wouldWallOff([c], guard)) { msg = `(${c.x}, ${c.y}) refused: it would cut a spawn or a creep off from the exit`; return; }
      map.set(c.x, c.y, TOWER);
      let touched;
      [touched, updateUs] = once(() => field.update());
      crowd.setFlow(0, field);
      towers.push({ x: c.x, y: c.y, cool: 0 });
      msg = `tower at (${c.x}, ${c.y}): field update ${fmtOnce(updateUs)}, ${touched} cells recomputed`;
    },
    update(dt) {
      t += dt;
      if (t >= nextSpawn) {
        const s = spawns[Math.floor(r() * spawns.length)];
        try { crowd.add({ x: (s.x + 0.5) * TILE, y: (s.y + 0.5) * TILE, radius: 6, target: "flow", flow: 0, maxSpeed: 70 }); spawned++; } catch { /* full */ }
        nextSpawn = t + 0.6;
      }
      const steps = Math.min(6, Math.round(dt * 60));
      crowd.step(steps);
      let agents = crowd.agents();
      for (const a of agents) if (a.arrived) { crowd.remove(a.id); arrived++; }
      agents = crowd.agents();
      shots = shots.filter((s) => (s.ttl -= dt) > 0);
      for (const tw of towers) {
        tw.cool -= dt;
        if (tw.cool > 0) continue;
        const cx = (tw.x + 0.5) * TILE, cy = (tw.y + 0.5) * TILE;
        let best = null, bd = 96 * 96;
        for (const a of agents) { const d = (a.x - cx) ** 2 + (a.y - cy) ** 2; if (d < bd && !a.dead) { bd = d; best = a; } }
        if (best) { best.dead = true; crowd.remove(best.id); killed++; tw.cool = 1.2; shots.push({ x0: cx, y0: cy, x1: best.x, y1: best.y, ttl: 0.15 }); }
      }
      info.textContent = `creeps spawned ${spawned}, arrived ${arrived}, killed ${killed}; towers ${towers.length}\n${msg}`;
    },
    draw() {
      drawGrid(map, { 0: "#2b2f33" });
      drawField(map, field);
      for (const tw of towers) {
        ctx.fillStyle = "#7d8bd6"; ctx.fillRect(tw.x * TILE + 3, tw.y * TILE + 3, TILE - 6, TILE - 6);
        ctx.strokeStyle = "rgba(125,139,214,0.25)"; ctx.lineWidth = 1;
        ctx.beginPath(); ctx.arc((tw.x + 0.5) * TILE, (tw.y + 0.5) * TILE, 96, 0, 2 * Math.PI); ctx.stroke();
      }
      for (const s of spawns) { ctx.fillStyle = "rgba(80,200,120,0.5)"; ctx.fillRect(s.x * TILE, s.y * TILE, TILE, TILE); }
      ctx.fillStyle = "rgba(230,80,80,0.6)"; ctx.fillRect(exit.x * TILE, exit.y * TILE, TILE, TILE);
      drawAgents(crowd, "#ff6f91");
      ctx.strokeStyle = "#ffe08a"; ctx.lineWidth = 2;
      for (const s of shots) { ctx.beginPath(); ctx.moveTo(s.x0, s.y0); ctx.lineTo(s.x1, s.y1); ctx.stroke(); }
    },
    state() { return { scene: "td", towers: towers.map(({ x, y }) => ({ x, y })), spawned, arrived, killed, message: msg }; },
    free() { crowd.free(); field.free(); map.free(); },
  };
}

// ---- scene 5: the book's race track: an AI car on an angle map, and yours -------------------
// The track is the book's 10 x 8 map (1 grass, 2 track) with its angle layer. The AI car reads
// its heading from the angle map (with +-20 degrees of variation); the player's car is the
// book's keyboard car (arrows: turn, forward), written here in JavaScript. Grass slows both.
const TRACK = [
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2, 1,
  1, 2, 2, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
];
const TRACK_ANGLES = [
  45, 45, 45, 45, 45, 45, 45, 45, 135, 135, 315, 0, 0, 0, 0, 0, 0, 90, 135, 135, 315, 0, 0, 0, 0, 0, 0, 90, 135, 135,
  315, 315, 270, 315, 315, 315, 315, 90, 90, 135, 315, 315, 270, 135, 135, 135, 135, 90, 90, 135, 315, 315, 270, 180,
  180, 180, 180, 180, 180, 135, 315, 315, 270, 180, 180, 180, 180, 180, 180, 135, 315, 270, 270, 225, 225, 225, 225,
  225, 225, 225,
];
function carScene() {
  const T = 48, W = 10, H = 8, friction = TRACK.map((t) => (t === 1 ? 0.25 : 0.96));
  const ai = new AngleCar({ width: W, height: H, tileSize: T, angles: TRACK_ANGLES, friction, x: 2.5 * T, y: 2.5 * T, seed: 4 });
  const player = { x: 2.5 * T, y: 1.5 * T, rotation: 0, speed: 0, friction: 0.96, turn: 0, forward: false };
  const keys = new Set();
  const onKey = (e) => {
    if (!e.key.startsWith("Arrow")) return;
    e.preventDefault();
    if (e.type === "keydown") keys.add(e.key); else keys.delete(e.key);
  };
  window.addEventListener("keydown", onKey);
  window.addEventListener("keyup", onKey);
  let acc = 0, steps = 0;
  const cellFriction = (x, y) => {
    const cx = Math.min(W - 1, Math.max(0, Math.floor(x / T))), cy = Math.min(H - 1, Math.max(0, Math.floor(y / T)));
    return friction[cy * W + cx];
  };
  function drawCar(x, y, rot, color) {
    ctx.save(); ctx.translate(x, y); ctx.rotate(rot);
    ctx.fillStyle = color; ctx.fillRect(-14, -8, 28, 16);
    ctx.fillStyle = "#111"; ctx.fillRect(6, -6, 6, 12);
    ctx.restore();
  }
  return {
    help: "The AI car (red) steers by the angle map under it (arrows) with ±20° of variation; drive the blue car with the arrow keys. Grass slows both.",
    click() { canvas.focus?.(); },
    update(dt) {
      acc = Math.min(acc + dt, 0.1);
      while (acc >= 1 / 60) { // the book's per-frame steps at 60 steps per second
        acc -= 1 / 60;
        ai.step();
        steps++;
        player.rotation += keys.has("ArrowLeft") ? -0.05 : keys.has("ArrowRight") ? 0.05 : 0;
        if (keys.has("ArrowUp")) player.speed = Math.min(player.speed + 0.05, 3); else player.speed *= player.friction;
        player.x = Math.min(W * T, Math.max(0, player.x + player.speed * Math.cos(player.rotation) * player.friction));
        player.y = Math.min(H * T, Math.max(0, player.y + player.speed * Math.sin(player.rotation) * player.friction));
        player.friction = cellFriction(player.x, player.y);
      }
      const c = ai.state();
      info.textContent = `AI car: speed ${(c.speed * 60).toFixed(0)} px/s, ${c.friction < 0.5 ? "on grass" : "on the track"}; ` +
        `you: ${(player.speed * 60).toFixed(0)} px/s`;
    },
    draw() {
      ctx.fillStyle = "#000"; ctx.fillRect(0, 0, canvas.width, canvas.height);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
        ctx.fillStyle = TRACK[y * W + x] === 1 ? "#3f7d3a" : "#5a5f66";
        ctx.fillRect(x * T, y * T, T, T);
        const a = (TRACK_ANGLES[y * W + x] * Math.PI) / 180;
        arrow((x + 0.5) * T, (y + 0.5) * T, Math.cos(a), Math.sin(a), 10, "rgba(255,255,255,0.35)");
      }
      const c = ai.state();
      drawCar(c.x, c.y, c.rotation, "#e05a5a");
      drawCar(player.x, player.y, player.rotation, "#5a8ae0");
    },
    state() { const c = ai.state(); return { scene: "car", ai: c, player: { x: player.x, y: player.y }, steps }; },
    free() { window.removeEventListener("keydown", onKey); window.removeEventListener("keyup", onKey); ai.free(); },
  };
}

// ---- scene 6: marbles in the spatial grid ----------------------------------------------------
// Circles bounce off each other (broad phase + swept contacts) and off wall blocks. Drag from a
// marble and release to throw it.
function marblesScene() {
  const rows = [
    ".....................",
    ".....................",
    "....###.........##...",
    "....###.........##...",
    ".....................",
    "..........#..........",
    "..........#..........",
    "..........#..........",
    ".....................",
    "..##...........###...",
    "..##.................",
    ".....................",
    ".......##............",
    ".....................",
    ".....................",
  ];
  const map = TileMap.fromText(rows, { tileSize: TILE });
  const world = new Marbles({ map, capacity: 128, restitution: 1 });
  const r = rng(17), colors = [];
  while (world.count < 60) {
    const rad = 6 + Math.floor(r() * 10);
    try {
      world.add(rad + r() * (COLS * TILE - 2 * rad), rad + r() * (ROWS * TILE - 2 * rad), (r() - 0.5) * 4, (r() - 0.5) * 4, rad);
      colors.push(`hsl(${Math.floor(r() * 360)}, 70%, 60%)`);
    } catch { /* on a wall: draw again */ }
  }
  let drag = null, acc = 0, contacts = 0, throws = 0;
  return {
    help: "Marbles bounce off each other and the walls (elastic: the energy stays put). Drag from a marble and release to throw it.",
    click() {},
    down(px, py) {
      const ms = world.marbles();
      const i = ms.findIndex((m) => Math.hypot(m.x - px, m.y - py) <= m.r + 4);
      drag = i >= 0 ? { i, x: px, y: py, px, py } : null;
    },
    move(px, py) { if (drag) { drag.px = px; drag.py = py; } },
    up(px, py) {
      if (!drag) return;
      world.setVelocity(drag.i, (px - drag.x) / 8, (py - drag.y) / 8);
      throws++;
      drag = null;
    },
    update(dt) {
      acc = Math.min(acc + dt, 0.1);
      while (acc >= 1 / 60) { acc -= 1 / 60; world.step(); contacts += world.lastContacts; }
      info.textContent = `${world.count} marbles, kinetic energy ${world.energy().toFixed(1)}, contacts so far ${contacts}`;
    },
    draw() {
      drawGrid(map);
      world.marbles().forEach((m, i) => dot(m.x, m.y, m.r, colors[i]));
      if (drag) {
        ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(drag.x, drag.y); ctx.lineTo(drag.px, drag.py); ctx.stroke();
      }
    },
    state() { return { scene: "marbles", count: world.count, energy: world.energy(), contacts, throws, marbles: world.marbles() }; },
    free() { world.free(); map.free(); },
  };
}

// ---- scene 7: tile collision: walk between walls and collect the moving bombs --------------
// The book's chapter 3: the player's box moves with the arrow keys and slides along walls
// (TileMap.moveBox: never inside a wall at any speed); bombs wander the rows and columns
// (GridWanderer) and are collected when their centre is inside the player's box.
function bombsScene() {
  const rows = [
    ".....................",
    ".###.#####.###.####..",
    ".#.......#...#....#..",
    ".#.###.#.###.#.##.#..",
    "...#...#.....#..#....",
    ".###.#####.#.##.####.",
    ".....#.....#.........",
    "####.#.#######.#####.",
    ".....#.......#.......",
    ".#####.#####.#.#####.",
    ".......#.....#.....#.",
    ".#####.#.#######.#.#.",
    ".#.....#.........#...",
    ".#.#########.#######.",
    ".....................",
  ];
  const map = TileMap.fromText(rows, { tileSize: TILE });
  const SIZE = 22, SPEED = 3;
  let player = { x: 5, y: 5, w: SIZE, h: SIZE };
  const r = rng(8), bombs = [];
  while (bombs.length < 8) {
    const x = Math.floor(r() * COLS), y = Math.floor(r() * ROWS);
    if (map.passable(x, y) && x + y > 6 && !bombs.some((b) => b.start.x === x && b.start.y === y))
      bombs.push({ start: { x, y }, w: new GridWanderer(map, { x, y }, { speed: 1.2, seed: 100 + bombs.length }), alive: true });
  }
  const keys = new Set();
  const onKey = (e) => {
    if (!e.key.startsWith("Arrow")) return;
    e.preventDefault();
    if (e.type === "keydown") keys.add(e.key); else keys.delete(e.key);
  };
  window.addEventListener("keydown", onKey);
  window.addEventListener("keyup", onKey);
  let acc = 0, collected = 0, blocked = 0;
  return {
    help: "Arrow keys: walk between the walls (the box slides along them and never enters one) and collect the wandering bombs.",
    click() {},
    update(dt) {
      acc = Math.min(acc + dt, 0.1);
      while (acc >= 1 / 60) {
        acc -= 1 / 60;
        const dx = (keys.has("ArrowRight") ? SPEED : 0) - (keys.has("ArrowLeft") ? SPEED : 0);
        const dy = (keys.has("ArrowDown") ? SPEED : 0) - (keys.has("ArrowUp") ? SPEED : 0);
        if (dx || dy) {
          const m = map.moveBox(player, dx, dy);
          if (m.blockedX || m.blockedY) blocked++;
          player = { ...player, x: m.x, y: m.y };
        }
        for (const b of bombs) {
          if (!b.alive) continue;
          b.w.step();
          const s = b.w.state();
          if (s.x >= player.x && s.x < player.x + SIZE && s.y >= player.y && s.y < player.y + SIZE) { b.alive = false; collected++; }
        }
      }
      info.textContent = `bombs collected ${collected} of ${bombs.length}` + (collected === bombs.length ? " — all of them!" : "");
    },
    draw() {
      drawGrid(map, { 0: "#34403a" }, "#8a6d4a");
      for (const b of bombs) if (b.alive) {
        const s = b.w.state();
        dot(s.x, s.y, 9, "#222"); dot(s.x - 3, s.y - 3, 3, "#777");
        ctx.strokeStyle = "#f5a623"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(s.x + 5, s.y - 7); ctx.lineTo(s.x + 9, s.y - 12); ctx.stroke();
      }
      ctx.fillStyle = "#6fd3ff"; ctx.fillRect(player.x, player.y, SIZE, SIZE);
      ctx.fillStyle = "#0b2a3a"; ctx.fillRect(player.x + 5, player.y + 6, 4, 4); ctx.fillRect(player.x + 13, player.y + 6, 4, 4);
    },
    state() {
      return {
        scene: "bombs", width: map.width, height: map.height, tile: TILE, passable: Array.from(map.passableGrid()),
        player: { ...player }, collected, blocked, bombs: bombs.map((b) => ({ alive: b.alive, ...b.w.state() })),
      };
    },
    free() {
      window.removeEventListener("keydown", onKey); window.removeEventListener("keyup", onKey);
      for (const b of bombs) b.w.free();
      map.free();
    },
  };
}

// ---- page ------------------------------------------------------------------------------------
const SCENES = { maze: mazeScene, heuristics: heuristicsScene, flow: flowScene, td: tdScene, car: carScene, marbles: marblesScene, bombs: bombsScene };
let scene = null, sceneName = "";

function show(name) {
  if (!SCENES[name]) name = "maze";
  scene?.free();
  sceneName = name;
  scene = SCENES[name]();
  help.textContent = scene.help;
  info.textContent = "";
  for (const b of document.querySelectorAll("#scenes button")) b.classList.toggle("on", b.dataset.scene === name);
  if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
}

function canvasPoint(e) {
  const rect = canvas.getBoundingClientRect();
  return [((e.clientX - rect.left) * canvas.width) / rect.width, ((e.clientY - rect.top) * canvas.height) / rect.height];
}
canvas.addEventListener("click", (e) => {
  const [px, py] = canvasPoint(e);
  scene.click({ x: Math.floor(px / TILE), y: Math.floor(py / TILE) }, px, py);
});
canvas.addEventListener("pointerdown", (e) => scene.down?.(...canvasPoint(e)));
canvas.addEventListener("pointermove", (e) => scene.move?.(...canvasPoint(e)));
canvas.addEventListener("pointerup", (e) => scene.up?.(...canvasPoint(e)));
for (const b of document.querySelectorAll("#scenes button")) b.addEventListener("click", () => show(b.dataset.scene));

await init();
show(location.hash.slice(1));
let lastT = performance.now(), frames = 0;
function frame(now) {
  const dt = Math.min((now - lastT) / 1000, 0.1);
  lastT = now;
  scene.update(dt);
  scene.draw();
  frames++;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// The test hook: the scene's state, the tile size and canvas geometry, and a scene switch.
window.tilenavDemo = {
  version: version(),
  ready: true,
  tile: TILE,
  scene: () => sceneName,
  show,
  frames: () => frames,
  state: () => scene.state(),
};
