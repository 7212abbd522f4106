#!/bin/sh
# ctest `cli_data_dir`: where `tilenav demo` finds its bundled map (tools/cli/datadir.h):
# $TILENAV_DATA_DIR first, then ../share/tilenav beside the executable, then the source tree;
# run from an empty folder, it writes its pictures there and nowhere else.
#
# usage: cli_data_dir.sh TILENAV_EXE SOURCE_DATA_DIR
set -eu
exe=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "cli_data_dir: FAIL: $*"
    exit 1
}
# map_used DIR [env...]: run the demo from DIR, print the map path it reports
map_used() {
    dir=$1
    shift
    (cd "$dir" && env "$@" "$run_exe" demo --steps 60 --quiet >out.txt 2>err.txt) ||
        fail "demo failed in $dir: $(cat "$dir/err.txt")"
    sed -n 's/^tilenav .* demo: tower defense on \(.*\) ([0-9]* x [0-9]* cells.*/\1/p' "$dir/out.txt"
}

# an installed layout: <p>/bin/tilenav and <p>/share/tilenav/maps
mkdir -p "$tmp/p/bin" "$tmp/p/share/tilenav" "$tmp/env/maps" "$tmp/nothing" "$tmp/run1" "$tmp/run2" "$tmp/run3"
cp "$exe" "$tmp/p/bin/tilenav"
cp -R "$data/maps" "$tmp/p/share/tilenav/"
cp "$data/maps/td.tmj" "$data/maps/td_tiles.png" "$tmp/env/maps/"
run_exe="$tmp/p/bin/tilenav"

got=$(map_used "$tmp/run1" -u TILENAV_DATA_DIR)
[ "$got" = "$tmp/p/bin/../share/tilenav/maps/td.tmj" ] || fail "installed layout: used '$got'"
[ -s "$tmp/run1/demo-out/demo.gif" ] && [ -s "$tmp/run1/demo-out/demo-sheet.png" ] ||
    fail "the pictures are not in the working folder"
[ ! -e "$tmp/p/demo-out" ] && [ ! -e "$tmp/p/bin/demo-out" ] && [ ! -e "$tmp/p/share/tilenav/demo-out" ] ||
    fail "the demo wrote into the install prefix"
echo "installed layout, no TILENAV_DATA_DIR: $got"

got=$(map_used "$tmp/run2" TILENAV_DATA_DIR="$tmp/env")
[ "$got" = "$tmp/env/maps/td.tmj" ] || fail "TILENAV_DATA_DIR=$tmp/env: used '$got'"
echo "TILENAV_DATA_DIR first: $got"

got=$(map_used "$tmp/run3" TILENAV_DATA_DIR="$tmp/nothing")
[ "$got" = "$tmp/p/bin/../share/tilenav/maps/td.tmj" ] || fail "TILENAV_DATA_DIR without maps: used '$got'"
echo "TILENAV_DATA_DIR without the map: falls back to $got"

# the build tree's executable: no share/ beside it, so the source tree's data
run_exe=$exe
rm -rf "$tmp/run1"/*
got=$(map_used "$tmp/run1" TILENAV_DATA_DIR="$tmp/nothing")
[ "$got" = "$data/maps/td.tmj" ] || fail "build tree: used '$got'"
grep -q '' "$tmp/run1/err.txt" && fail "unexpected message: $(cat "$tmp/run1/err.txt")"
echo "build tree: $got"
echo "cli_data_dir: ok"
