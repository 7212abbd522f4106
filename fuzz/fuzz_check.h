/* Checks shared by the loader fuzzers (header-only: each fuzzer is one executable). */
#ifndef TN_FUZZ_CHECK_H
#define TN_FUZZ_CHECK_H

#include "tilenav/map.h"

#include <stdlib.h>

/* A loaded map's passability must equal a recount from its terrain layers and terrain table,
 * cell by cell and in total; abort() otherwise. Returns the passable cells. */
static inline int32_t fuzz_recount(const tn_map *m)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), pass = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            bool ok = true;
            for (int32_t l = 0; l < tn_map_layer_count(m) && ok; l++) {
                if (tn_map_layer_kind(m, l) != TN_LAYER_TILES ||
                    !(tn_map_layer_flags(m, l) & TN_LAYER_TERRAIN))
                    continue;
                uint32_t g = tn_map_get(m, l, x, y);
                if (tn_gid_id(g) && !tn_map_terrain(m, g).passable)
                    ok = false;
            }
            if (ok != tn_map_passable(m, x, y))
                abort();
            pass += ok;
        }
    if (pass != tn_map_passable_count(m))
        abort();
    return pass;
}

#endif
