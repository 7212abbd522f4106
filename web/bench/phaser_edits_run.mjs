// Run web/bench/phaser_edits.mjs in headless Chromium and print its table:
//   node web/bench/phaser_edits_run.mjs [runs]      (CHROMIUM overrides /usr/bin/chromium)
import { chromium } from "playwright-core";
import { serve } from "../test/serve.mjs";

const runs = Number(process.argv[2] ?? 1);
const { server, url } = await serve(0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  for (let r = 0; r < runs; r++) {
    const page = await browser.newPage();
    page.on("pageerror", (e) => console.log("page error:", String(e)));
    await page.goto(`${url}/bench/phaser_edits.html`);
    await page.waitForFunction(() => window.bench?.done, null, { timeout: 300000 });
    const b = await page.evaluate(() => window.bench);
    if (b.error) throw new Error(b.error);
    console.log(`run ${r + 1}: ${await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0])}`);
    for (const row of b.rows)
      console.log(`  ${row.what.padEnd(40)} ${row.ms.toFixed(3).padStart(9)} ms${row.cells !== undefined ? `, ${row.cells} cells recomputed` : ""}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
