#!/bin/sh
# The npm package as a user gets it: `npm pack` web/pkg, install the tarball into a fresh
# project (offline: it has no dependencies), then there:
#   1. the README's first example, importing "tilenav" by name, in Node;
#   2. require("tilenav") where Node has require(esm) (20.19+, 22.12+): the ESM-only package
#      still loads from CommonJS there;
#   3. a strict TypeScript example (tsc --strict, typescript from web/node_modules) type-checked
#      against the package's .d.ts, compiled and run; again as .mts in a "type": "commonjs"
#      project; the compat entries from CommonJS (import(), not require());
#   4. a browser app bundled by esbuild (from web/node_modules) run in headless Chromium, which
#      also fetches a Tiled map with an external tileset and zlib/gzip layers (test/app/make-tiled.mjs).
# Also that prepack rebuilds a stale module (build.sh --if-stale, its --stale test).
# Needs web/pkg/tilenav.wasm (web/build.sh) and web/'s dev packages. Set TILENAV_PACK_KEEP=DIR to
# copy the tarball to DIR.
set -eu
cd "$(dirname "$0")/.."
WEB=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# prepack rebuilds the module when a source is newer (never ships a stale one): check the test
# build.sh --stale makes, on a copy dated 1970 and on the module run.sh just built
grep -q '"prepack": "sh ../build.sh --if-stale"' pkg/package.json || { echo "web: prepack does not rebuild a stale tilenav.wasm"; exit 1; }
cp pkg/tilenav.wasm "$tmp/old.wasm"
touch -d @0 "$tmp/old.wasm"
TILENAV_WASM_OUT="$tmp/old.wasm" sh build.sh --stale >/dev/null || { echo "web: build.sh --stale took a module older than its sources for current"; exit 1; }
if sh build.sh --stale >/dev/null; then echo "web: build.sh --stale: $(sh build.sh --stale)"; exit 1; fi
rm "$tmp/old.wasm"
(cd pkg && npm pack --silent --pack-destination "$tmp" >/dev/null 2>&1)
tarball=$(ls "$tmp"/tilenav-*.tgz)
version=$(node -p 'require("./pkg/package.json").version')
[ "$(basename "$tarball")" = "tilenav-$version.tgz" ] || { echo "web: tarball name $(basename "$tarball")"; exit 1; }
contents=$(tar -tzf "$tarball" | sort | tr '\n' ' ')
want="package/README.md package/adapters/phaser.d.ts package/adapters/phaser.mjs package/compat/easystar.d.ts package/compat/easystar.mjs package/compat/pathfinding.d.ts package/compat/pathfinding.mjs package/package.json package/tiled.mjs package/tilenav.d.ts package/tilenav.mjs package/tilenav.wasm "
[ "$contents" = "$want" ] || { echo "web: package contents wrong: $contents"; exit 1; }
# every file 0644 (wasm-ld makes tilenav.wasm executable; build.sh sets it), and the package
# private (npm publish refuses it) until a licence is chosen (README)
modes=$(tar -tvzf "$tarball" | awk '$1 != "-rw-r--r--" { print $1, $NF }')
[ -z "$modes" ] || { echo "web: package files not -rw-r--r--: $modes"; exit 1; }
[ "$(node -p 'require("./pkg/package.json").private')" = true ] || { echo "web: package.json lacks \"private\": true"; exit 1; }
[ -n "${TILENAV_PACK_KEEP:-}" ] && cp "$tarball" "$TILENAV_PACK_KEEP/"

app="$tmp/app"
mkdir "$app"
printf '{"name":"app","private":true,"type":"module"}\n' >"$app/package.json"
(cd "$app" && npm install --offline --no-audit --no-fund --silent "$tarball" >/dev/null 2>&1)

# 1. the README's first example
awk '/^```js/{f=1;next} f&&/^```/{exit} f' pkg/README.md >"$app/readme.mjs"
out=$(cd "$app" && node readme.mjs)
[ "$out" = "true 10 9.414213562373096" ] || { echo "web: README example printed '$out'"; exit 1; }
# the library's version (tn_version() in the wasm) is the package's
v=$(cd "$app" && node --input-type=module -e 'import { init } from "tilenav"; console.log((await init()).version)')
[ "$v" = "$version" ] || { echo "web: the wasm says version $v, package.json $version"; exit 1; }
echo "web: npm pack ($(wc -c <"$tarball") bytes) + install + the README's first example: ok (version $v)"

# 2. CommonJS: require(esm)
if node -e 'process.exit(process.features.require_module ? 0 : 1)' 2>/dev/null; then
    out=$(cd "$app" && node -e 'const t = require("tilenav"); t.init().then((r) => console.log(typeof t.TileMap, r.version))' 2>&1 | grep -v ExperimentalWarning)
    [ "$out" = "function $version" ] || { echo "web: require(\"tilenav\") printed '$out'"; exit 1; }
    echo "web: require(\"tilenav\") from CommonJS (Node $(node --version), require(esm)): ok"
else
    echo "web: Node $(node --version) has no require(esm): the CommonJS check is not run"
fi
# the compat entries from CommonJS: require() cannot load them (top-level await), import() can,
# as the README says
out=$(cd "$app" && node -e 'try { require("tilenav/compat/pathfinding"); console.log("required?!"); } catch (e) { console.log(e.code); }
import("tilenav/compat/pathfinding").then(({ default: PF }) => console.log(new PF.AStarFinder().findPath(0, 0, 2, 0, new PF.Grid([[0, 0, 0]])).length))' 2>&1 | grep -v ExperimentalWarning)
[ "$out" = "$(printf 'ERR_REQUIRE_ASYNC_MODULE\n3')" ] || [ "$out" = "$(printf 'ERR_REQUIRE_ESM\n3')" ] ||
    { echo "web: the compat entry from CommonJS printed '$out'"; exit 1; }
echo "web: compat/pathfinding from CommonJS: require() refused ($(echo "$out" | head -1)), import() works"

# 3. strict TypeScript
cp test/app/typed.ts test/app/tsconfig.json "$app/"
(cd "$app" && node "$WEB/node_modules/typescript/bin/tsc" -p tsconfig.json) ||
    { echo "web: tsc --strict failed on the typed example"; exit 1; }
out=$(cd "$app" && node out/typed.js)
[ "$out" = "$(printf 'true 10 true true 2 21 42 1 7 false 7 true 7 7 true true true true\nfalse true 1\nfalse true 40 8\narrived true false true 12 {"x":2,"y":1} 0')" ] || { echo "web: the typed example printed '$out'"; exit 1; }
echo "web: tsc --strict on the typed example against the package's .d.ts, then run: ok"
# the same as .mts in a "type": "commonjs" project (npm init -y's default), as the README says
cjs="$tmp/cjs-app"
mkdir "$cjs"
printf '{"name":"cjs-app","private":true,"type":"commonjs"}\n' >"$cjs/package.json"
(cd "$cjs" && npm install --offline --no-audit --no-fund --silent "$tarball" >/dev/null 2>&1)
cp test/app/typed.ts "$cjs/typed.mts"
sed 's/"typed.ts"/"typed.mts"/' test/app/tsconfig.json >"$cjs/tsconfig.json"
(cd "$cjs" && node "$WEB/node_modules/typescript/bin/tsc" -p tsconfig.json) ||
    { echo "web: tsc --strict failed on typed.mts in a CommonJS project"; exit 1; }
[ "$(cd "$cjs" && node out/typed.mjs)" = "$(cd "$app" && node out/typed.js)" ] ||
    { echo "web: typed.mts in a CommonJS project printed something else"; exit 1; }
echo "web: the typed example as .mts in a \"type\": \"commonjs\" project: ok"
# TypeScript's old node10 resolution (--module commonjs's default) reads no "exports": every
# entry's types must resolve by path (tilenav/phaser's through package.json's typesVersions)
printf '%s\n' 'import type { TileMap } from "tilenav";' 'import type { PhaserNav } from "tilenav/phaser";' \
    'import type PF from "tilenav/compat/pathfinding";' 'import type EasyStar from "tilenav/compat/easystar";' \
    'export type T = [TileMap, PhaserNav, typeof PF, typeof EasyStar];' >"$cjs/node10.ts"
(cd "$cjs" && node "$WEB/node_modules/typescript/bin/tsc" --noEmit --strict --module commonjs node10.ts) ||
    { echo "web: tsc --module commonjs (node10 resolution) cannot resolve the entries' types"; exit 1; }
echo "web: tsc --module commonjs (node10 resolution) finds every entry's types: ok"

# 4. a browser app bundled by esbuild
mkdir "$app/dist"
cp test/app/browser-app.mjs "$app/"
cp test/app/index.html "$app/dist/"
(cd "$app" && "$WEB/node_modules/.bin/esbuild" browser-app.mjs --bundle --format=esm \
    --platform=browser --target=es2022 --outfile=dist/app.js --log-level=warning)
cp "$app/node_modules/tilenav/tilenav.wasm" "$app/dist/"
node test/app/make-tiled.mjs "$app/dist"
out=$(node test/bundle-browser.mjs "$app/dist") || { echo "web: bundled app in Chromium: $out"; exit 1; }
echo "$out" | grep -q '"tiled":{"wall":true,"open":true,"cost":4,"path":12}' ||
    { echo "web: the bundled app read the Tiled map wrong: $out"; exit 1; }
echo "web: esbuild bundle ($(wc -c <"$app/dist/app.js") bytes) in headless Chromium: $out"
