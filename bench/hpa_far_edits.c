/* CPU time of tn_hierarchy_update(), tn_regions_update() and a crowd's next tn_crowd_step()
 * (1,000 agents standing in the middle of the map: the step reads the map's edits) after edits
 * made far apart before one update: 2x2 towers in opposite corners of a map (a game placing two
 * buildings in one frame), next to one tower per update. Public API only, so the same file builds
 * against an older library to compare. Not built by CMake; from the repository root, after a
 * Release build and `python3 bench/gen_huge.py` (build/huge/huge4096.map):
 *
 *   cc -O2 -Iinclude bench/hpa_far_edits.c -o build/hpa_far_edits build/release/libtilenav_io.a \
 *      build/release/libtilenav.a -lm $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/hpa_far_edits build/huge/huge4096.map [ROUNDS]
 *
 * Prints one line per case: the median and the largest CPU time over ROUNDS (default 5) seeded
 * placements, each undone before the next.
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"

static int fill(tn_map *m, int32_t layer, tn_cell c, uint32_t gid)
{
    return tn_map_fill(m, layer, (tn_rect){c.x, c.y, c.x + 2, c.y + 2}, gid) != TN_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: hpa_far_edits MAP [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (rounds < 1 || rounds > 1000)
        rounds = 5;
    tn_map *m = load_map(argv[1]);
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    int32_t layer = -1;
    const uint32_t tower = tn_map_free_gid(m);
    if (w < 8 || h < 8 || !tower || tn_map_add_layer(m, "towers", TN_LAYER_TILES, &layer) ||
        tn_map_set_terrain(m, tower, (tn_terrain){false, 1.0f})) {
        fprintf(stderr, "hpa_far_edits: cannot add a tower layer to %s\n", argv[1]);
        return 3;
    }
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.map = m;
    tn_hierarchy *hy = NULL;
    tn_regions_def rd = tn_regions_def_default();
    rd.map = m;
    tn_regions *rg = NULL;
    if (tn_hierarchy_build(&hd, &hy) != TN_OK || tn_regions_create(&rd, &rg) != TN_OK) {
        fprintf(stderr, "hpa_far_edits: cannot build the hierarchy or the regions\n");
        return 5;
    }
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    tn_crowd *crowd = NULL;
    if (tn_crowd_create(&cd, &crowd) != TN_OK) {
        fprintf(stderr, "hpa_far_edits: cannot create the crowd\n");
        return 5;
    }
    uint64_t aseed = 7;
    for (int k = 0; k < 1000; k++) {
        tn_agent_def ad = tn_agent_def_default();
        tn_cell c = open_square(m, &aseed, w / 2 - 64, h / 2 - 64, w / 2 + 64, h / 2 + 64);
        if (c.x < 0) {
            fprintf(stderr, "hpa_far_edits: no open 2x2 square near the centre\n");
            return 5;
        }
        ad.pos = (tn_vec2){(float)(c.x + 1) * tn_map_tile_width(m),
                           (float)(c.y + 1) * tn_map_tile_height(m)};
        tn_agent_id id;
        if (tn_crowd_add(crowd, &ad, &id) != TN_OK)
            return 5;
    }
    if (tn_crowd_step(crowd) != TN_OK)
        return 5;
    double *th = malloc(sizeof(double) * (size_t)rounds * 2);
    double *tr = malloc(sizeof(double) * (size_t)rounds * 2);
    double *tc = malloc(sizeof(double) * (size_t)rounds * 2);
    if (!th || !tr || !tc)
        return 5;
    uint64_t seed = 1;
    const int32_t qw = w / 4, qh = h / 4;
    for (int kind = 0; kind < 2; kind++) {
        int n = 0;
        for (int r = 0; r < rounds; r++) {
            /* kind 0: one tower per update; kind 1: towers in the top-left and bottom-right
             * quarters, then one update; each placed and then sold */
            tn_cell a = open_square(m, &seed, 0, 0, qw, qh);
            tn_cell b = open_square(m, &seed, w - qw, h - qh, w, h);
            if (a.x < 0 || b.x < 0) {
                fprintf(stderr, "hpa_far_edits: no open 2x2 square in a corner quarter\n");
                return 5;
            }
            for (int undo = 0; undo < 2; undo++) {
                uint32_t gid = undo ? 0u : tower;
                if (fill(m, layer, a, gid) || (kind == 1 && fill(m, layer, b, gid)))
                    return 6;
                double t0 = now();
                if (tn_hierarchy_update(hy, NULL) != TN_OK)
                    return 6;
                double t1 = now();
                if (tn_regions_update(rg, NULL) != TN_OK)
                    return 6;
                double t2 = now();
                if (tn_crowd_step(crowd) != TN_OK)
                    return 6;
                th[n] = (t1 - t0) * 1e3;
                tr[n] = (t2 - t1) * 1e3;
                tc[n++] = (now() - t2) * 1e3;
            }
        }
        qsort(th, (size_t)n, sizeof *th, cmp);
        qsort(tr, (size_t)n, sizeof *tr, cmp);
        qsort(tc, (size_t)n, sizeof *tc, cmp);
        printf("%s: hierarchy update median %.3f ms max %.3f ms; regions update median %.3f ms "
               "max %.3f ms; crowd step median %.3f ms max %.3f ms (%d updates)\n",
               kind ? "two towers in opposite corners, one update" : "one tower per update",
               th[n / 2], th[n - 1], tr[n / 2], tr[n - 1], tc[n / 2], tc[n - 1], n);
    }
    free(th);
    free(tr);
    free(tc);
    tn_crowd_destroy(crowd);
    tn_regions_destroy(rg);
    tn_hierarchy_destroy(hy);
    tn_map_destroy(m);
    return 0;
}
