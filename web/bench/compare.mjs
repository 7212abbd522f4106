// Side by side in one run, in Node.js and then in headless Chromium: tilenav (its API, its
// PathFinding.js-compatible entry, its EasyStar-style wrapper) against PathFinding.js and
// EasyStar.js from npm, on Moving AI maps (web/bench/compare_lib.mjs says what is timed).
//
//   node web/bench/compare.mjs [N=100] MAP...     (default: every map of ../shared/bench/movingai)
import { readFile } from "node:fs/promises";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as tn from "../pkg/tilenav.mjs";
import PF from "../pkg/compat/pathfinding.mjs";
import ES from "../pkg/compat/easystar.mjs";
import { compare } from "./compare_lib.mjs";
import { serve } from "../test/serve.mjs";

const require = createRequire(import.meta.url);
const RefPF = require("pathfinding"), RefES = require("easystarjs");
const args = process.argv.slice(2);
const n = args[0] && /^\d+$/.test(args[0]) ? Number(args.shift()) : 100;
let maps = args;
if (!maps.length) {
  const root = fileURLToPath(new URL("../../../shared/bench/movingai/", import.meta.url));
  maps = readdirSync(root).sort().flatMap((d) => (statSync(`${root}${d}`).isDirectory() ? readdirSync(`${root}${d}`).filter((f) => f.endsWith(".map")).map((f) => `${root}${d}/${f}`) : []));
}
const print = (where, map, rows) => {
  for (const r of rows) console.log(`${where}\t${map.split("/").slice(-1)[0]}\t${r.name}\t${r.queries}\t${r.mismatches}\t${r.mean_us.toFixed(1)}`);
};
console.log("where\tmap\tlibrary\tqueries\tmismatches\tmean_us");
const inputs = [];
for (const m of maps) inputs.push({ m, map: await readFile(m, "utf8"), scen: await readFile(`${m}.scen`, "utf8") });
for (const i of inputs) print(`node-${process.versions.node}`, i.m, await compare({ tn, PF, ES, RefPF, RefES }, i.map, i.scen, { spread: n }));

const exe = process.env.CHROMIUM ?? "/usr/bin/chromium";
if (existsSync(exe)) {
  // PathFinding.js for the page: its npm package (CommonJS) bundled by esbuild into a global PF
  const { execFileSync } = await import("node:child_process");
  const here = fileURLToPath(new URL(".", import.meta.url));
  execFileSync(`${here}../node_modules/.bin/esbuild`, [`${here}../node_modules/pathfinding/index.js`, "--bundle",
    "--format=iife", "--global-name=PF", `--outfile=${here}out/pathfinding.js`, "--log-level=warning"]);
  const { chromium } = await import("playwright-core");
  const { server, url } = await serve(0);
  const browser = await chromium.launch({ executablePath: exe, args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"] });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/bench/compare.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
    for (const i of inputs) {
      const rows = await page.evaluate(([m, s, k]) => window.runCompare(m, s, k), [i.map, i.scen, n]);
      print(`chromium-${browser.version()}`, i.m, rows);
    }
  } finally {
    await browser.close();
    server.close();
  }
} else console.log(`(no chromium at ${exe}: browser figures skipped)`);
