// Path query time of the WebAssembly build in Node.js and in Chromium, next to the native
// figure: run `tilenav bench MAP SCEN --algo astar --spread N` on the same map for that.
//
//   node web/bench/run.mjs MAP SCEN [N=300]      (CHROMIUM=/path overrides /usr/bin/chromium)
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import * as tn from "../pkg/tilenav.mjs";
import { benchPaths } from "./path_bench.mjs";
import { serve } from "../test/serve.mjs";

const [mapPath, scenPath, n = "300"] = process.argv.slice(2);
if (!mapPath || !scenPath) { console.error("usage: node web/bench/run.mjs MAP SCEN [N]"); process.exit(2); }
const mapText = await readFile(mapPath, "utf8"), scenText = await readFile(scenPath, "utf8");
const opts = { spread: Number(n) };
const fmt = (where, r) => `where=${where} scenarios=${r.scenarios} mismatches=${r.mismatches} mean_us=${r.mean_us.toFixed(2)} min_us=${r.passes[0].toFixed(2)} passes_us=${r.passes.map((v) => v.toFixed(1)).join(",")}`;

console.log(fmt(`node-${process.versions.node}`, await benchPaths(tn, mapText, scenText, opts)));

const exe = process.env.CHROMIUM ?? "/usr/bin/chromium";
if (existsSync(exe)) {
  const { chromium } = await import("playwright-core");
  const { server, url } = await serve(0);
  const browser = await chromium.launch({ executablePath: exe, args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"] });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/bench/`);
    const r = await page.evaluate(async ([m, s, o]) => {
      const tnm = await import("/pkg/tilenav.mjs"), b = await import("/bench/path_bench.mjs");
      return b.benchPaths(tnm, m, s, o);
    }, [mapText, scenText, opts]);
    console.log(fmt(`chromium-${browser.version()}`, r));
  } finally {
    await browser.close();
    server.close();
  }
} else console.log(`(no chromium at ${exe}: browser figure skipped)`);
