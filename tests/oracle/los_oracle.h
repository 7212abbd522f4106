/* Brute-force line of sight, straight from the definition in field.h: the segment between the
 * two cell centres must not meet the open interior of any blocked cell, and at every grid
 * corner it passes exactly through, the two cells beside the corner must allow a diagonal step
 * under `corner` (NEVER counts as NO_CUT). Exact integer geometry; O(W*H) per pair. */
#ifndef TN_LOS_ORACLE_H
#define TN_LOS_ORACLE_H

#include "tilenav/map.h"
#include "tilenav/moves.h"

bool tn_oracle_los(const tn_map *map, tn_cell a, tn_cell b, tn_diagonal corner);

#endif
