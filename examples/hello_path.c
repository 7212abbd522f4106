/* The smallest tilenav program: make a map, wall off some cells and ask about them.
 * Built by CI against the installed package (CMake and pkg-config). */
#include <stdio.h>
#include <tilenav/tilenav.h>

int main(void)
{
    tn_map_def def = tn_map_def_default();
    def.width = 8;
    def.height = 4;
    tn_map *map = NULL;
    tn_status st = tn_map_create(&def, &map);
    if (st < 0) {
        fprintf(stderr, "tn_map_create: %s\n", tn_status_str(st));
        return 1;
    }
    int32_t ground = -1;
    if (tn_map_add_layer(map, "ground", TN_LAYER_TILES, &ground) < 0 ||
        tn_map_set_terrain(map, 1, (tn_terrain){false, 1.0f}) < 0 ||
        tn_map_fill(map, ground, (tn_rect){3, 0, 4, 3}, 1) < 0) {
        tn_map_destroy(map);
        return 1;
    }
    printf("tilenav %s: %dx%d map, %d passable cells\n", tn_version(), tn_map_width(map),
           tn_map_height(map), tn_map_passable_count(map));
    tn_map_destroy(map);
    return 0;
}
