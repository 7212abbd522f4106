/* CPU time of tn_field_update() after 2x2 towers placed far apart before one update (two
 * quarters of the map: a game placing two towers in one frame), next to one tower per update.
 * The field's goal is an open cell near the map's centre. Public API only, so the same file
 * builds against an older library to compare. Not built by CMake; from the repository root,
 * after a Release build:
 *
 *   cc -O2 -Iinclude bench/field_far_edits.c -o build/field_far_edits \
 *      build/release/libtilenav_io.a build/release/libtilenav.a -lm \
 *      $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/field_far_edits ../shared/bench/movingai/random/random512-10-0.map [ROUNDS] [los]
 *
 * `los` gives the field exact line of sight (TN_LOS_EXACT); without it, none.
 * Prints one line per case: the median and the largest CPU time over 2 x ROUNDS (default 10)
 * updates (each tower placed, then sold).
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"

#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: field_far_edits MAP [ROUNDS] [los]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 10;
    if (rounds < 1 || rounds > 1000)
        rounds = 10;
    tn_map *m = load_map(argv[1]);
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    int32_t layer = -1;
    const uint32_t tower = tn_map_free_gid(m);
    if (w < 16 || h < 16 || !tower || tn_map_add_layer(m, "towers", TN_LAYER_TILES, &layer) ||
        tn_map_set_terrain(m, tower, (tn_terrain){false, 1.0f})) {
        fprintf(stderr, "field_far_edits: cannot add a tower layer to %s\n", argv[1]);
        return 3;
    }
    uint64_t seed = 3;
    tn_cell goal =
        open_square(m, &seed, w / 2 - w / 8, h / 2 - h / 8, w / 2 + w / 8, h / 2 + h / 8);
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    if (argc > 3 && strcmp(argv[3], "los") == 0)
        fd.los = TN_LOS_EXACT;
    tn_field *f = NULL;
    if (goal.x < 0 || tn_field_create(&fd, &f) != TN_OK || tn_field_build(f, &goal, 1) != TN_OK) {
        fprintf(stderr, "field_far_edits: cannot build a field to an open cell near the centre\n");
        return 5;
    }
    double *t = malloc(sizeof(double) * (size_t)rounds * 2);
    if (!t)
        return 5;
    const int32_t qw = w / 4, qh = h / 4;
    for (int kind = 0; kind < 2; kind++) {
        int n = 0;
        for (int r = 0; r < rounds; r++) {
            /* kind 0: one tower per update; kind 1: towers in the top-left and bottom-right
             * quarters, then one update; each placed and then sold */
            tn_cell a = open_square(m, &seed, 0, 0, qw, qh);
            tn_cell b = open_square(m, &seed, w - qw, h - qh, w, h);
            if (a.x < 0 || b.x < 0) {
                fprintf(stderr, "field_far_edits: no open 2x2 square in a corner quarter\n");
                return 5;
            }
            for (int undo = 0; undo < 2; undo++) {
                uint32_t gid = undo ? 0u : tower;
                if (tn_map_fill(m, layer, (tn_rect){a.x, a.y, a.x + 2, a.y + 2}, gid) != TN_OK ||
                    (kind == 1 &&
                     tn_map_fill(m, layer, (tn_rect){b.x, b.y, b.x + 2, b.y + 2}, gid) != TN_OK))
                    return 6;
                double t0 = now();
                if (tn_field_update(f, NULL, NULL) != TN_OK)
                    return 6;
                t[n++] = (now() - t0) * 1e3;
            }
        }
        qsort(t, (size_t)n, sizeof *t, cmp);
        printf("%s: field update median %.3f ms max %.3f ms (%d updates)\n",
               kind ? "two towers in opposite corners, one update" : "one tower per update",
               t[n / 2], t[n - 1], n);
    }
    free(t);
    tn_field_destroy(f);
    tn_map_destroy(m);
    return 0;
}
