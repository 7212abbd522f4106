#!/bin/sh
# ctest `tiled_real`: run check.py (the loader through DUMPER against reference.py) on the
# real Tiled maps of tests/data/tiled-real and, when present, the shared bench maps.
# Usage: run.sh DUMPER DIR...   Exits 77 (skipped) when python3 is missing.
if ! command -v python3 >/dev/null 2>&1; then
    echo "tiled_real: skipped: python3 is not installed (the reference reader is Python)"
    exit 77
fi
here=$(dirname "$0")
dumper=$1
shift
exec python3 "$here/check.py" "$dumper" --xfail "$here/xfail.txt" "$@"
