/* The C loader's reading of Tiled maps, cell by cell, for web/test/tiled.test.mjs: for each
 * file argument, "W H" then one line per row: each cell's cost ("x" when blocked), as %.9g of
 * the map's float cost. Built by web/test/run.sh from src/ (with cJSON, zlib, zstd, expat).
 * The environment variable TILENAV_DUMP_COVER (center, any, half) sets the cover rule. */
#include "tilenav/io.h"
#include "tilenav/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    tn_load_def def = tn_load_def_default();
    const char *cover = getenv("TILENAV_DUMP_COVER");
    if (cover && strcmp(cover, "any") == 0)
        def.cover = TN_COVER_ANY;
    else if (cover && strcmp(cover, "half") == 0)
        def.cover = TN_COVER_HALF;
    for (int i = 1; i < argc; i++) {
        tn_map *m = NULL;
        tn_diag d;
        tn_status st = tn_map_load(argv[i], &def, &m, &d);
        if (st != TN_OK) {
            char buf[1024];
            tn_diag_format(&d, buf, sizeof buf);
            printf("error %d %s\n", (int)st, buf);
            continue;
        }
        int32_t w = tn_map_width(m), h = tn_map_height(m);
        printf("%d %d\n", (int)w, (int)h);
        for (int32_t y = 0; y < h; y++) {
            for (int32_t x = 0; x < w; x++) {
                if (x)
                    putchar(' ');
                if (tn_map_passable(m, x, y))
                    printf("%.9g", (double)tn_map_cost(m, x, y));
                else
                    putchar('x');
            }
            putchar('\n');
        }
        tn_map_destroy(m);
    }
    return 0;
}
