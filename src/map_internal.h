/* Private facts about a map that other parts of the library key their caches on. */
#ifndef TILENAV_MAP_INTERNAL_H
#define TILENAV_MAP_INTERNAL_H

#include "tilenav/map.h"

/* A 64-bit hash of which cells are passable: the XOR of a fixed 64-bit mix of the index of
 * every blocked cell (0 for a new map, where every cell is passable), kept up to date on every
 * edit (O(1) per changed cell). Two maps with
 * the same passability have the same hash; any difference changes it except with probability
 * about 2^-64 per comparison. */
uint64_t tn__map_passable_hash(const tn_map *map);

#endif
