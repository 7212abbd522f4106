#!/bin/sh
# Build web/pkg/tilenav.wasm: the core library (src/*.c, libc + libm only) and the flat export
# layer web/glue/tilenav_wasm.c, compiled by clang for wasm32-wasi against Debian's wasi-libc
# and linked by wasm-ld as a WASI "reactor" (no main; _initialize runs the C constructors).
#
#   web/build.sh            build (or rebuild) web/pkg/tilenav.wasm
#   web/build.sh --check    exit 0 when the toolchain is present, 77 (with the reason) when not
#   web/build.sh --stale    exit 0 (naming a newer source) when tilenav.wasm is missing or older
#                           than a source it is built from (src/, include/, web/glue/, this
#                           script, CMakeLists.txt's version), 1 when it is current
#   web/build.sh --if-stale build only then (npm pack's prepack: never ship a stale module)
#
# Needs: clang (14+), wasm-ld (lld-14), wasi-libc, libclang-rt-14-dev-wasm32 (compiler builtins).
# CC overrides the compiler. Output is not committed: CI and `npm run build` make it.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${TILENAV_WASM_OUT:-$ROOT/web/pkg/tilenav.wasm}

find_cc() {
    for c in ${CC:-} clang clang-14; do
        [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { echo "$c"; return 0; }
    done
    return 1
}

# Compile and link a one-line program to see that the whole toolchain is there.
check() {
    cc=$(find_cc) || { echo "web: clang not found (apt-get install clang)"; return 77; }
    tmp=$(mktemp -d)
    printf '#include <stdlib.h>\n#include <math.h>\n__attribute__((export_name("f"))) double f(double x){void*p=malloc(8);free(p);return sqrt(x);}\n' >"$tmp/t.c"
    if ! "$cc" --target=wasm32-wasi -O2 -mexec-model=reactor -o "$tmp/t.wasm" "$tmp/t.c" -lm >"$tmp/log" 2>&1; then
        echo "web: $cc cannot build for wasm32-wasi (apt-get install wasi-libc lld-14 libclang-rt-14-dev-wasm32):"
        sed 's/^/  /' "$tmp/log" | head -5
        rm -rf "$tmp"
        return 77
    fi
    rm -rf "$tmp"
    return 0
}

if [ "${1:-}" = "--check" ]; then
    check
    exit $?
fi

# A source of the module newer than it (or "missing"); nothing when the module is current.
stale() {
    [ -f "$OUT" ] || { echo "$OUT is missing"; return; }
    f=$(find "$ROOT/src" "$ROOT/include" "$ROOT/web/glue" "$ROOT/web/build.sh" "$ROOT/CMakeLists.txt" \
        -type f -newer "$OUT" | head -1)
    [ -z "$f" ] || echo "$f is newer than $OUT"
}
case "${1:-}" in
--stale)
    why=$(stale)
    [ -n "$why" ] || { echo "web: $OUT is current"; exit 1; }
    echo "web: $why"
    exit 0
    ;;
--if-stale)
    why=$(stale)
    [ -n "$why" ] || { echo "web: $OUT is current"; exit 0; }
    echo "web: $why: rebuilding"
    ;;
esac
check || exit $?
cc=$(find_cc)
# the npm package's version is the C library's (CMakeLists.txt's project VERSION)
ver=$(sed -n 's/^project(tilenav VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
[ -n "$ver" ] || { echo "web: no version in CMakeLists.txt's project()"; exit 1; }
if ! grep -q "^  \"version\": \"$ver\",\$" "$ROOT/web/pkg/package.json"; then
    sed -i "s/^  \"version\": \"[^\"]*\",\$/  \"version\": \"$ver\",/" "$ROOT/web/pkg/package.json"
    echo "web: web/pkg/package.json version set to $ver (CMakeLists.txt)"
fi
mkdir -p "$(dirname "$OUT")"
# -DNDEBUG: internal asserts (fprintf + abort) stay out of the web build, as in Release builds.
# -ffp-contract=off: the same floating-point results as the native library.
# The glue is held to -Werror -Wconversion; the core gets its native flags' -Wall -Wextra only,
# since wasm32 has a 32-bit size_t and some 64-bit size arithmetic narrows there (only the
# broad phase, which the web API does not expose, has such a line; see docs/web.md).
flags="--target=wasm32-wasi -std=c11 -O2 -DNDEBUG -DTN_BUILDING -ffp-contract=off -fvisibility=hidden -I$ROOT/include -I$ROOT/src"
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
for f in "$ROOT"/src/*.c; do
    # shellcheck disable=SC2086
    "$cc" $flags -Wall -Wextra -Wno-shorten-64-to-32 -c "$f" -o "$objs/$(basename "$f" .c).o"
done
# shellcheck disable=SC2086
"$cc" $flags -Wall -Wextra -Wconversion -Werror -c "$ROOT/web/glue/tilenav_wasm.c" -o "$objs/glue.o"
"$cc" --target=wasm32-wasi -mexec-model=reactor -Wl,--export=malloc -Wl,--export=free \
    -Wl,-z,stack-size=1048576 -Wl,--strip-debug -o "$objs/tilenav.wasm" "$objs"/*.o -lm
# wasm-ld makes the module executable: a data file ships as 0644 (npm pack keeps the mode)
chmod 0644 "$objs/tilenav.wasm"
mv -f "$objs/tilenav.wasm" "$OUT.tmp$$" && mv -f "$OUT.tmp$$" "$OUT" # never half a file
echo "web: built $OUT ($(wc -c <"$OUT") bytes)"
