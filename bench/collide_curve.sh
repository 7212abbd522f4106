#!/bin/sh
# Cost per object of `tilenav collide --kinematic` from 1,000 to 100,000 circles (the scaling
# curve of docs/bench/collide.md): median ms_per_step of REPS runs, ns per object per step, and
# ns per (object + reported pair) per step. Two scenes:
#   fixed  the peers' 4096 x 4096 world, so the density (and the pairs per object) grows with N;
#   dense  the world scaled with sqrt(N) to the peers' density at 100,000 (constant density).
#   bench/collide_curve.sh                 # grid, equal and mixed radii, both scenes
#   BP=sap REPS=5 SCENES=dense bench/collide_curve.sh
here=$(cd "$(dirname "$0")" && pwd)
T=${TILENAV:-$here/../build/release/tilenav}
REPS=${REPS:-3}
BP=${BP:-grid}
SIZES=${SIZES:-"1000 2000 5000 10000 20000 50000 100000"}
SCENES=${SCENES:-"fixed dense"}
echo "| scene | N | world | radii | steps | broadphase | ms_per_step (median of $REPS) | pairs per object per step | ns per object | ns per (object + pair) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for scene in $SCENES; do
    for mode in equal mixed; do
        for n in $SIZES; do
            steps=$((2000000 / n))
            [ "$steps" -lt 10 ] && steps=10
            [ "$steps" -gt 500 ] && steps=500
            w=4096
            [ "$scene" = dense ] && w=$(awk -v n="$n" 'BEGIN {printf "%.0f", 4096 * sqrt(n / 100000)}')
            flags="--world $w $w"
            [ "$mode" = mixed ] && flags="$flags --mixed"
            out=$(for r in $(seq "$REPS"); do
                # shellcheck disable=SC2086
                "$T" collide --kinematic --broadphase "$BP" --objects "$n" --steps "$steps" $flags |
                    sed 's/.* pairs=\([0-9]*\) .*ms_per_step=\([0-9.]*\).*/\2 \1/'
            done | sort -g | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
            ms=${out% *}
            pairs=${out#* }
            awk -v ms="$ms" -v n="$n" -v p="$pairs" -v s="$steps" -v sc="$scene" -v w="$w" \
                -v m="$mode" -v bp="$BP" 'BEGIN {
                    pp = p / s / n;
                    printf "| %s | %d | %d | %s | %d | %s | %s | %.3f | %.1f | %.1f |\n",
                        sc, n, w, m, s, bp, ms, pp, ms * 1e6 / n, ms * 1e6 / (n + p / s) }'
        done
    done
done
