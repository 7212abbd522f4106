// A tiny static file server for web/ (no dependencies): `node web/test/serve.mjs [port]`
// serves the demo at http://127.0.0.1:PORT/demo/. Imported by the browser test, which starts it
// on a random port. Only files under web/ are served; .wasm gets application/wasm (needed by
// WebAssembly.instantiateStreaming-style loaders) and .mjs text/javascript.
import http from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const TYPES = {
  ".html": "text/html; charset=utf-8", ".mjs": "text/javascript", ".js": "text/javascript",
  ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css", ".png": "image/png",
  ".md": "text/markdown; charset=utf-8",
};

export function serve(port = 0, host = "127.0.0.1", root = ROOT) {
  const ROOT_ = resolve(root);
  const server = http.createServer(async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      if (path.endsWith("/")) path += "index.html";
      const file = normalize(join(ROOT_, path));
      if (file !== ROOT_ && !file.startsWith(ROOT_ + sep)) throw Object.assign(new Error("outside"), { code: "ENOENT" });
      if ((await stat(file)).isDirectory()) { res.writeHead(301, { Location: `${path}/` }); res.end(); return; }
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream", "Cache-Control": "no-store" });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === "ENOENT" || e.code === "ENOTDIR" ? 404 : 500, { "Content-Type": "text/plain" });
      res.end(`${e.code ?? e.message}\n`);
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}` }));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.argv[2] ?? 8080));
  console.log(`serving ${ROOT} at ${url}/demo/`);
}
