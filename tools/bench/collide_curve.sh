#!/bin/sh
# Cost per object of `tilenav collide --kinematic` from 1,000 to 100,000 circles (the scaling
# curve of docs/bench/collide.md): median ms_per_step of REPS runs, and ns per object per step.
#   tools/bench/collide_curve.sh                 # grid, equal and mixed radii
#   BP=sap REPS=5 tools/bench/collide_curve.sh
here=$(cd "$(dirname "$0")" && pwd)
T=${TILENAV:-$here/../../build/release/tilenav}
REPS=${REPS:-3}
BP=${BP:-grid}
SIZES=${SIZES:-"1000 2000 5000 10000 20000 50000 100000"}
echo "| N | radii | steps | broadphase | ms_per_step (median of $REPS) | ns per object per step |"
echo "|---|---|---|---|---|---|"
for mode in equal mixed; do
    for n in $SIZES; do
        steps=$((2000000 / n))
        [ "$steps" -lt 10 ] && steps=10
        [ "$steps" -gt 500 ] && steps=500
        flags=""
        [ "$mode" = mixed ] && flags="--mixed"
        ms=$(for r in $(seq "$REPS"); do
            "$T" collide --kinematic --broadphase "$BP" --objects "$n" --steps "$steps" $flags |
                sed 's/.*ms_per_step=\([0-9.]*\).*/\1/'
        done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        ns=$(awk -v ms="$ms" -v n="$n" 'BEGIN {printf "%.1f", ms * 1e6 / n}')
        echo "| $n | $mode | $steps | $BP | $ms | $ns |"
    done
done
