#!/bin/sh
# The npm package folder as a user gets it: `npm pack` web/pkg, install the tarball into an
# empty project (offline: it has no dependencies), and run the first example of its README
# there, importing "tilenav" by name. Needs web/pkg/tilenav.wasm (web/build.sh).
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd pkg && npm pack --silent --pack-destination "$tmp" >/dev/null 2>&1)
tarball=$(ls "$tmp"/tilenav-*.tgz)
tar -tzf "$tarball" | sort | tr '\n' ' ' | grep -q "package/README.md package/package.json package/tilenav.mjs package/tilenav.wasm" ||
    { echo "web: package contents wrong: $(tar -tzf "$tarball" | tr '\n' ' ')"; exit 1; }
mkdir "$tmp/app"
printf '{"name":"app","private":true,"type":"module"}\n' >"$tmp/app/package.json"
(cd "$tmp/app" && npm install --offline --no-audit --no-fund --silent "$tarball" >/dev/null 2>&1)
awk '/^```js/{f=1;next} f&&/^```/{exit} f' pkg/README.md >"$tmp/app/readme.mjs"
out=$(cd "$tmp/app" && node readme.mjs)
[ "$out" = "true 10 9.414213562373096" ] || { echo "web: README example printed '$out'"; exit 1; }
echo "web: npm pack + install + the README's first example: ok ($(wc -c <"$tarball") bytes packed)"
