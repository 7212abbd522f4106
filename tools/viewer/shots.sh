#!/bin/sh
# Regenerate docs/images/viewer-<mode>.png: each mode run headless (no window) for a fixed number
# of lockstep frames with scripted input, deterministic for a given build.
#   tools/viewer/shots.sh [path/to/tilenav-view]   (default build/debug/tilenav-view)
set -eu
cd "$(dirname "$0")/../.."
VIEW=${1:-build/debug/tilenav-view}
OUT=docs/images
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cell_px() { # mode cx cy -> "x y" of the centre of cell (cx, cy) on screen
    "$VIEW" --mode "$1" --layout | awk -v cx="$2" -v cy="$3" \
        '$1 == "view" { printf "%d %d", $2 + cx * $4 + $4 / 2, $3 + cy * $4 + $4 / 2 }'
}
shot() { # mode frames script-text
    printf '%s\n' "$3" >"$TMP/$1.script"
    "$VIEW" --headless --lockstep --mode "$1" --frames "$2" --script "$TMP/$1.script" \
        --screenshot-on-exit "$OUT/viewer-$1.png" >/dev/null
    echo "wrote $OUT/viewer-$1.png"
}
shot maze 170 "5 click $(cell_px maze 23 13)"
shot heuristics 2 ""
shot car 200 "1 keydown Up
80 keydown Right
100 keyup Right
140 keydown Right
152 keyup Right"
set -- $("$VIEW" --mode marbles --layout | awk '$1 == "cue" { print $2, $3 }')
shot marbles 75 "2 down $1 $2
3 move $(($1 - 100)) $(($2 + 14))
4 up $(($1 - 100)) $(($2 + 14))"
shot bombs 200 "1 keydown Right
60 keyup Right
60 keydown Down
110 keyup Down
110 keydown Right
150 keyup Right"
shot td 1500 "20 click $(cell_px td 33 12)
40 click $(cell_px td 35 17)
60 click $(cell_px td 29 21)
80 click $(cell_px td 20 9)
100 click $(cell_px td 12 5)"

