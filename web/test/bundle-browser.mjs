// Open a bundled app (a folder with index.html) in headless Chromium and print window.result.
//   node web/test/bundle-browser.mjs DIR     (CHROMIUM overrides /usr/bin/chromium)
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const dir = process.argv[2];
const { server, url } = await serve(0, "127.0.0.1", dir);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
let code = 1;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${url}/index.html`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.result);
  console.log(JSON.stringify(result));
  if (result.ok && errors.length === 0) code = 0;
  else console.log("page errors:", errors);
} finally {
  await browser.close();
  server.close();
}
process.exit(code);
