/* Shared by the fuzz targets that build their maps cell by cell (fuzz_path, fuzz_regions,
 * fuzz_crowd): a blank map and its terrain. Header-only: each target is one executable. */
#ifndef TN_FUZZ_MAP_H
#define TN_FUZZ_MAP_H

#include "tilenav/map.h"

#include <stdlib.h>

/* A W x H map of `tile`-pixel tiles with one tile layer, "g" (its index in *layer), where
 * gid 0 is open ground (cost 1), 1 a wall and 2 mud (cost 2.5). Aborts when it cannot. */
static inline tn_map *fuzz_map(int32_t w, int32_t h, int32_t tile, int32_t *layer)
{
    tn_map_def def = tn_map_def_default();
    def.width = w;
    def.height = h;
    def.tile_width = def.tile_height = tile;
    tn_map *m = NULL;
    if (tn_map_create(&def, &m) != TN_OK ||
        tn_map_add_layer(m, "g", TN_LAYER_TILES, layer) != TN_OK ||
        tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}) != TN_OK ||
        tn_map_set_terrain(m, 2, (tn_terrain){true, 2.5f}) != TN_OK)
        abort();
    return m;
}

#endif
