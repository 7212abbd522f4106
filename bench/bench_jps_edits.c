#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Micro-benchmark of the JPS cache under map edits: one cell's cost changed at a seeded random
 * place, then a short JPS query on the same context (which brings its cache up to date from the
 * map's change log), against the same query on a fresh context (which builds the cache from
 * scratch, as every edit did before the log was used).
 *
 * Built by CMake in Release trees (build/release/tn_bench_jps_edits):
 *   tn_bench_jps_edits [side] [noise|blocks] [edits]
 * A side x side map (default 1024) of terrain costs 1, 2 and 3: per cell at random (noise:
 * every cell a cost boundary) or in 40 x 40 blocks. Defaults: 1024, noise, 50 edits. Prints:
 *   jps_edits side=N terrain=T edits=E update_median_ms=X rebuild_median_ms=Y */
#include "tilenav/tilenav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) /* process CPU time: other processes on the machine do not count */
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    int32_t side = argc > 1 ? atoi(argv[1]) : 1024;
    const char *terrain = argc > 2 ? argv[2] : "noise";
    int edits = argc > 3 ? atoi(argv[3]) : 50;
    bool noise = strcmp(terrain, "noise") == 0;
    if (side < 16 || side > 8192 || edits < 1 || edits > 100000 ||
        (!noise && strcmp(terrain, "blocks") != 0)) {
        fprintf(stderr, "usage: tn_bench_jps_edits [side 16..8192] [noise|blocks] [edits]\n");
        return 2;
    }
    tn_map_def d = tn_map_def_default();
    d.width = side;
    d.height = side;
    tn_map *m = NULL;
    int32_t layer = -1;
    if (tn_map_create(&d, &m) != TN_OK || tn_map_add_layer(m, "cost", TN_LAYER_TILES, &layer))
        return 1;
    for (uint32_t k = 0; k < 3; k++)
        if (tn_map_set_terrain(m, 100 + k, (tn_terrain){true, (float)(1 + k)}) != TN_OK)
            return 1;
    size_t n = (size_t)side * (size_t)side;
    uint32_t *gids = malloc(n * sizeof *gids);
    tn_rng rng = tn_rng_seed(1);
    for (size_t i = 0; i < n && gids; i++) {
        size_t x = i % (size_t)side, y = i / (size_t)side;
        gids[i] = noise ? 100 + tn_rng_below(&rng, 3) : ((x / 40 + y / 40) % 2 ? 100u : 102u);
    }
    tn_search_def sd = tn_search_def_default();
    tn_search *kept = NULL;
    tn_cell *path = malloc(n * sizeof *path);
    double *upd = malloc((size_t)edits * sizeof *upd), *reb = malloc((size_t)edits * sizeof *reb);
    if (!gids || !path || !upd || !reb || tn_map_set_layer_data(m, layer, gids, (int32_t)n) ||
        tn_search_create(&sd, &kept) != TN_OK)
        return 1;
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = TN_ALGO_JPS;
    tn_cell a = {side / 2, side / 2}, b = {side / 2 + 3, side / 2 + 2};
    tn_search_result r;
    if (tn_search_path(kept, m, a, b, &q, path, (int32_t)n, &r) != TN_OK) /* builds the cache */
        return 1;
    for (int e = 0; e < edits; e++) {
        int32_t x = (int32_t)tn_rng_below(&rng, (uint32_t)side);
        int32_t y = (int32_t)tn_rng_below(&rng, (uint32_t)side);
        if (tn_map_set(m, layer, x, y, 100 + tn_rng_below(&rng, 3)) != TN_OK)
            return 1;
        double t0 = now();
        tn_status st = tn_search_path(kept, m, a, b, &q, path, (int32_t)n, &r);
        upd[e] = (now() - t0) * 1e3;
        tn_search *fresh = NULL;
        if (st != TN_OK || tn_search_create(&sd, &fresh) != TN_OK)
            return 1;
        t0 = now();
        st = tn_search_path(fresh, m, a, b, &q, path, (int32_t)n, &r);
        reb[e] = (now() - t0) * 1e3;
        tn_search_destroy(fresh);
        if (st != TN_OK)
            return 1;
    }
    printf("jps_edits side=%d terrain=%s edits=%d update_median_ms=%.4f rebuild_median_ms=%.3f\n",
           (int)side, terrain, edits, median(upd, edits), median(reb, edits));
    free(gids);
    free(path);
    free(upd);
    free(reb);
    tn_search_destroy(kept);
    tn_map_destroy(m);
    return 0;
}
