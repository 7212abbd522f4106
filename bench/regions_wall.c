/* The regions' worst case: a wall across the whole height of a 512 x 512 map (WALLS% random
 * walls, a clear lane at x = X), sizes 1..4, placed and erased six times, each followed by
 * tn_regions_update(), against tn_regions_create() on the same map. The wall cuts the map into
 * two large pieces, which the update's floods give up on (past 1/32 of the map) and relabel.
 * Uses the public API only, so the same file builds against older versions to compare. Not
 * built by CMake; from the repository root, after a Release build:
 *   cc -O2 -Iinclude bench/regions_wall.c build/release/libtilenav.a -lm -o build/regions_wall
 *   build/regions_wall [WALLS=0] [X=256]
 * Prints: walls W% wall at x=X: update mean U ms, create mean C ms (full F local L) */
#define _POSIX_C_SOURCE 200809L
#include "tilenav/tilenav.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static uint64_t rs = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs % n);
}
int main(int argc, char **argv)
{
    int side = 512, walls = argc > 1 ? atoi(argv[1]) : 0, wx = argc > 2 ? atoi(argv[2]) : 256;
    tn_map_def md = tn_map_def_default();
    md.width = md.height = side;
    tn_map *m;
    int32_t l;
    if (tn_map_create(&md, &m) || tn_map_add_layer(m, "g", TN_LAYER_TILES, &l) ||
        tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}))
        return 1;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            if ((int)rnd(100) < walls && tn_map_set(m, l, x, y, 1))
                return 1;
    for (int y = 0; y < side; y++)
        if (tn_map_set(m, l, wx, y, 0) || tn_map_set(m, l, wx + 1, y, 0) ||
            tn_map_set(m, l, wx - 1, y, 0))
            return 1; /* a clear lane */
    tn_regions_def rd = tn_regions_def_default();
    rd.map = m;
    rd.max_size = 4;
    tn_regions *r;
    if (tn_regions_create(&rd, &r))
        return 1;
    double tu = 0, tc = 0;
    int reps = 6;
    for (int k = 0; k < reps; k++) {
        if (tn_map_fill(m, l, (tn_rect){wx - 1, 0, wx + 2, side}, 1))
            return 1;
        double t = now();
        int32_t rl;
        if (tn_regions_update(r, &rl))
            return 1;
        tu += now() - t;
        t = now();
        tn_regions *f;
        if (tn_regions_create(&rd, &f))
            return 1;
        tc += now() - t;
        tn_regions_destroy(f);
        if (tn_map_fill(m, l, (tn_rect){wx - 1, 0, wx + 2, side}, 0))
            return 1;
        t = now();
        if (tn_regions_update(r, &rl))
            return 1;
        tu += now() - t;
        t = now();
        if (tn_regions_create(&rd, &f))
            return 1;
        tc += now() - t;
        tn_regions_destroy(f);
    }
    int64_t full, local;
    tn_regions_stats(r, &full, &local);
    printf("walls %d%% wall at x=%d: update mean %.2f ms, create mean %.2f ms (full %lld local "
           "%lld)\n",
           walls, wx, tu / (2 * reps) * 1e3, tc / (2 * reps) * 1e3, (long long)full,
           (long long)local);
}
