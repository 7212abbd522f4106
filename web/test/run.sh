#!/bin/sh
# The ctest test "web": build tilenav.wasm, run the JavaScript API's unit tests (node --test),
# check the npm package folder (pack, install, run its README example), then the browser test
# (playwright-core driving Debian's chromium) and the Phaser example's test.
#
#   sh web/test/run.sh [OUTDIR]      OUTDIR receives the screenshots (default build/web-test)
#
# Exit 77 (ctest SKIP_RETURN_CODE) with a message when a tool is missing: clang for wasm32-wasi,
# node >= 18, chromium, or playwright-core (web/node_modules; `cd web && npm ci` installs it).
# With TILENAV_REQUIRE_WEB=1 (set by .ci/run) a missing tool is a failure instead.
# CHROMIUM overrides /usr/bin/chromium.
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-build/web-test}

skip() {
    echo "web: SKIPPED: $*"
    if [ "${TILENAV_REQUIRE_WEB:-0}" = 1 ]; then
        echo "web: TILENAV_REQUIRE_WEB=1, so a missing tool is a failure"
        exit 1
    fi
    exit 77
}

command -v node >/dev/null 2>&1 || skip "node not found (apt-get install nodejs npm, or ./build.sh deps)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' ||
    skip "node $(node --version) is older than 18"
why=$(sh web/build.sh --check) || skip "$why"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || skip "no chromium at $CHROMIUM (apt-get install chromium, or set CHROMIUM)"
export CHROMIUM
# web/package.json's dev packages (pinned by package-lock.json): playwright-core, typescript,
# esbuild, PathFinding.js + EasyStar.js (the compat entries' references), fzstd (zstd in tests),
# phaser (the Phaser example, web/examples/phaser)
devdeps_ok() {
    for m in playwright-core typescript esbuild pathfinding easystarjs fzstd phaser; do
        [ -f "web/node_modules/$m/package.json" ] || return 1
    done
}
if ! devdeps_ok; then
    command -v npm >/dev/null 2>&1 || skip "web/'s dev packages are not installed and npm is missing"
    echo "web: installing web/'s dev packages (npm ci in web/)"
    (cd web && npm ci --no-audit --no-fund >/dev/null 2>&1) ||
        skip "web/'s dev packages are not installed and 'npm ci' in web/ failed (offline?)"
fi

sh web/build.sh
echo "web: node --test web/test/api.test.mjs"
node --test web/test/api.test.mjs
echo "web: node --test web/test/hierarchy.test.mjs"
node --test web/test/hierarchy.test.mjs
echo "web: node --test web/test/phaser-adapter.test.mjs (tilenav/phaser on Phaser-shaped objects)"
node --test web/test/phaser-adapter.test.mjs
# TileMap.fromTiled against the C loader: a small dump program over src/ (the native loaders'
# libraries: cJSON, zlib, zstd, expat, as for the CLI)
mkdir -p "$OUT"
${CC_NATIVE:-cc} -std=c11 -O1 -w -DTN_BUILDING -Iinclude -Isrc -o "$OUT/tiled_dump" web/test/tiled_dump.c \
    src/*.c src/io/*.c -lcjson -lz -lzstd -lexpat -lm
echo "web: node --test web/test/tiled.test.mjs (every map of ../shared/bench/tiled against the C loader)"
TILENAV_TILED_DUMP=$(cd "$OUT" && pwd)/tiled_dump node --test web/test/tiled.test.mjs
echo "web: node --test web/test/compat.test.mjs (against PathFinding.js and EasyStar.js)"
node --test web/test/compat.test.mjs
if command -v npm >/dev/null 2>&1; then
    sh web/test/package.sh
else
    echo "web: npm missing: the package check (web/test/package.sh) is not run"
fi
node web/test/browser.mjs "$OUT"
node web/test/phaser.mjs "$OUT"
