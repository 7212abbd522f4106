#!/bin/sh
# A peer for ../shared/bench/peers/collide/run_table.sh: `tilenav collide --kinematic` with the
# peers' flags. BP selects the broad phase (grid, hash, sap, brute; default grid); TILENAV the
# binary (default build/release/tilenav next to this script's repository).
#   EXTRA_PEER=bench/collide_peer.sh ../shared/bench/peers/collide/run_table.sh
#   BP=sap EXTRA_PEER=bench/collide_peer.sh ../shared/bench/peers/collide/run_table.sh
here=$(cd "$(dirname "$0")" && pwd)
exec "${TILENAV:-$here/../build/release/tilenav}" collide --kinematic --broadphase "${BP:-grid}" "$@"
