/* Micro-benchmark of region updates: 2x2 towers placed and sold at seeded random places on a
 * map, each followed by tn_regions_update (local relabelling when the edit cannot split, join
 * or empty a region), against relabelling from scratch (a fresh build of the same regions).
 *
 * Build and run (from the repository root, no CMake needed):
 *   cc -O2 -std=c11 -ffp-contract=off -Iinclude bench/bench_regions.c src/[a-z]*.c -lm \
 *      -o /tmp/bench_regions && /tmp/bench_regions [side] [wall%] [sizes] [towers]
 * Defaults: a 512x512 map, 20% random walls, unit sizes 1..4, 500 towers. */
#include "tilenav/tilenav.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) /* process CPU time: other processes on the machine do not count */
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t below(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % n;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int32_t side = argc > 1 ? atoi(argv[1]) : 512, walls = argc > 2 ? atoi(argv[2]) : 20;
    int32_t sizes = argc > 3 ? atoi(argv[3]) : 4, towers = argc > 4 ? atoi(argv[4]) : 500;
    tn_map_def md = tn_map_def_default();
    md.width = md.height = side;
    tn_map *m = NULL;
    int32_t l = -1;
    if (tn_map_create(&md, &m) != TN_OK || tn_map_add_layer(m, "g", TN_LAYER_TILES, &l) != TN_OK ||
        tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}) != TN_OK)
        return 1;
    for (int32_t y = 0; y < side; y++)
        for (int32_t x = 0; x < side; x++)
            if ((int32_t)below(100) < walls && tn_map_set(m, l, x, y, 1) != TN_OK)
                return 1;
    tn_regions_def rd = tn_regions_def_default();
    rd.map = m;
    rd.max_size = sizes;
    tn_regions *rg = NULL;
    if (tn_regions_create(&rd, &rg) != TN_OK)
        return 1;
    double *tu = malloc(sizeof(double) * (size_t)towers * 2),
           *tf = malloc(sizeof(double) * (size_t)towers);
    if (!tu || !tf)
        return 1;
    int32_t nu = 0;
    for (int32_t t = 0; t < towers; t++) {
        int32_t x = (int32_t)below((uint32_t)side - 1), y = (int32_t)below((uint32_t)side - 1);
        uint32_t old[4];
        for (int k = 0; k < 4; k++)
            old[k] = tn_map_get(m, l, x + k % 2, y + k / 2);
        for (int pass = 0; pass < 2; pass++) { /* place, then sell */
            for (int k = 0; k < 4; k++)
                if (tn_map_set(m, l, x + k % 2, y + k / 2, pass ? old[k] : 1u) != TN_OK)
                    return 1;
            double t0 = now();
            if (tn_regions_update(rg, NULL) != TN_OK)
                return 1;
            tu[nu++] = now() - t0;
        }
        double t0 = now(); /* from scratch, on the map as it is */
        tn_regions *fresh = NULL;
        if (tn_regions_create(&rd, &fresh) != TN_OK)
            return 1;
        tf[t] = now() - t0;
        tn_regions_destroy(fresh);
    }
    int64_t full = 0, local = 0;
    tn_regions_stats(rg, &full, &local);
    qsort(tu, (size_t)nu, sizeof *tu, cmp);
    qsort(tf, (size_t)towers, sizeof *tf, cmp);
    double mu = tu[nu / 2] * 1e3, mf = tf[towers / 2] * 1e3;
    printf("regions side=%d walls=%d%% sizes=%d updates=%d local=%lld full=%lld "
           "update_median_ms=%.4f rebuild_median_ms=%.4f speedup=%.1f\n",
           (int)side, (int)walls, (int)sizes, (int)nu, (long long)local, (long long)full, mu, mf,
           mf / (mu > 0 ? mu : 1e-9));
    tn_regions_destroy(rg);
    tn_map_destroy(m);
    free(tu);
    free(tf);
    return 0;
}
