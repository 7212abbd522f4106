/* What searches ask of a clearance (clearance.c). */
#ifndef TILENAV_CLEARANCE_INTERNAL_H
#define TILENAV_CLEARANCE_INTERNAL_H

#include "tilenav/clearance.h"

/* The map a query for units of `size` reads: `map` itself for size 0 or 1, else the size's
 * view in `cl`. TN_E_INVALID_ARG when size > 1 and `cl` is NULL, built for another map,
 * without size maps, or for smaller units; TN_E_MAP_CHANGED when `cl` is behind the map's
 * revision (tn_clearance_update()). */
tn_status tn__clearance_resolve(const tn_clearance *cl, const tn_map *map, int32_t size,
                                const tn_map **out);
/* Why tn__clearance_resolve refused (a sentence for tn_search_error_detail), or "". */
const char *tn__clearance_problem(const tn_clearance *cl, const tn_map *map, int32_t size);

/* The map revision the clearance describes (the last build or tn_clearance_update()). */
uint64_t tn__clearance_revision(const tn_clearance *cl);

#endif
