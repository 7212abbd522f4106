#!/bin/sh
# Memcheck over the Python package: leak_loop.py with N and 4N creations and destructions
# (default N = 700). Fails on any memory error, on a definite leak in a stack through tilenav's
# library or helpers that is not the cffi module's one-time initialisation, and when the
# definitely lost bytes grow with the number of loops (a per-object leak would add at least a
# byte per loop: 3N bytes over the 3N extra loops; CPython's own definite losses wander by a
# few hundred bytes between runs, which is not growth).
#   python/tests/valgrind.sh [PYTHON] [N]      (PYTHON: a venv's python with tilenav installed)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
py=${1:-python3}
n=${2:-700}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for loops in "$n" "$((4 * n))"; do
    PYTHONMALLOC=malloc valgrind --leak-check=full --show-leak-kinds=definite \
        "$py" "$here/leak_loop.py" "$loops" >"$out/$loops.log" 2>&1 || true
    grep -q "leak_loop: $loops " "$out/$loops.log" || { tail -30 "$out/$loops.log"; exit 1; }
done
lost() { sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$1" | tr -d ,; }
small=$(lost "$out/$n.log")
big=$(lost "$out/$((4 * n)).log")
errors=$(grep -c "Invalid \|uninitialised\|Conditional jump\|Mismatched free" "$out/$((4 * n)).log" || true)
ours=$(awk '/definitely lost in loss record/ { rec = 1; init = 0; hit = 0; next }
    rec && /_cffi_init|PyInit__tilenav/ { init = 1 }
    rec && / (tn_|tnpy_)[a-z_]* / { hit = 1 }
    rec && /^==[0-9]+== $/ { if (hit && !init) n++; rec = 0 }
    END { print n + 0 }' "$out/$((4 * n)).log")
echo "valgrind: definitely lost ${small:-0} bytes after $n loops, ${big:-0} after $((4 * n));" \
    "memory errors: $errors; leaks through tilenav: $ours"
[ "$errors" -eq 0 ] && [ "$ours" -eq 0 ] && [ "$((${big:-0} - ${small:-0}))" -lt "$((3 * n))" ]
