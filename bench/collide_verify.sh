#!/bin/sh
# `tilenav collide --kinematic` against the peers' brute_bench: pairs and contacts must be equal
# for every broad phase, seed, size and flag set. Exit 1 on the first difference.
#   bench/collide_verify.sh [path/to/brute_bench]
here=$(cd "$(dirname "$0")" && pwd)
T=${TILENAV:-$here/../build/release/tilenav}
BRUTE=${1:-$here/../../shared/bench/peers/collide/brute_bench}
[ -x "$BRUTE" ] || { echo "collide_verify: build brute_bench first (make in its directory)" >&2; exit 2; }
fail=0 runs=0
for n in 500 3000; do
    for seed in 1 2 3 4; do
        for flags in "" "--mixed" "--speed 7" "--mixed --speed 0.3" "--radius 16" "--world 1000 700 --mixed"; do
            # shellcheck disable=SC2086
            want=$("$BRUTE" --objects $n --steps 5 --seed $seed $flags | sed 's/.* pairs=\([0-9]*\) contacts=\([0-9]*\).*/\1 \2/')
            for bp in grid hash sap brute; do
                # shellcheck disable=SC2086
                got=$("$T" collide --kinematic --broadphase $bp --objects $n --steps 5 --seed $seed $flags | sed 's/.* pairs=\([0-9]*\) contacts=\([0-9]*\).*/\1 \2/')
                runs=$((runs + 1))
                if [ "$got" != "$want" ]; then
                    echo "DIFFERENT: n=$n seed=$seed $flags $bp: got '$got' want '$want'"
                    fail=1
                fi
            done
        done
    done
done
echo "collide_verify: $runs runs, pairs and contacts equal to brute_bench: $([ $fail = 0 ] && echo yes || echo NO)"
exit $fail
