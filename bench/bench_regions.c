#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Micro-benchmark of regions: 2x2 towers placed (on four free cells) and sold at seeded random
 * places, each followed by tn_regions_update (local relabelling when the edit cannot split,
 * join or empty a region), against relabelling from scratch (a fresh build of the same
 * regions); then queries between cells of different regions, answered by the regions
 * (tn_query.regions) against A* without them, which must empty the start's region first.
 *
 * Built by CMake in Release trees (build/release/tn_bench_regions):
 *   tn_bench_regions [MAP | side] [wall%] [sizes] [towers]
 * MAP is any map tilenav loads (a Moving AI .map, Tiled .tmj/.tmx); a number instead makes a
 * side x side map with wall% random walls. Defaults: 512, 20%, unit sizes 1..4, 500 towers.
 * Prints three lines:
 *   regions map=... sizes=N updates=U local=L full=F update_median_ms=X rebuild_median_ms=Y
 *     speedup=S update_mean_ms=M update_p99_ms=P update_max_ms=Z
 *   unreachable queries=Q regions_median_us=X astar_median_ms=Y expanded_astar=E
 *   closest queries=Q regions_median_ms=X astar_median_ms=Y same_cost=yes
 * (the same pairs with tn_query.closest, through the regions and without). */
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) /* process CPU time: other processes on the machine do not count */
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
    const char *src = argc > 1 ? argv[1] : "512";
    int32_t walls = argc > 2 ? atoi(argv[2]) : 20;
    int32_t sizes = argc > 3 ? atoi(argv[3]) : 4, towers = argc > 4 ? atoi(argv[4]) : 500;
    tn_map *m = NULL;
    int32_t l = -1;
    const uint32_t tower = 65000; /* a gid no map uses, made blocking */
    char *end = NULL;
    long side_l = strtol(src, &end, 10);
    if (end && *end == 0) { /* a generated map */
        int32_t side = (int32_t)side_l;
        tn_map_def md = tn_map_def_default();
        md.width = md.height = side;
        if (tn_map_create(&md, &m) != TN_OK ||
            tn_map_add_layer(m, "g", TN_LAYER_TILES, &l) != TN_OK ||
            tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}) != TN_OK)
            return 1;
        for (int32_t y = 0; y < side; y++)
            for (int32_t x = 0; x < side; x++)
                if ((int32_t)below(100) < walls && tn_map_set(m, l, x, y, 1) != TN_OK)
                    return 1;
    } else {
        tn_diag diag;
        if (tn_map_load(src, NULL, &m, &diag) != TN_OK) {
            fprintf(stderr, "bench_regions: cannot load %s\n", src);
            return 1;
        }
        for (int32_t k = 0; k < tn_map_layer_count(m) && l < 0; k++)
            if (tn_map_layer_kind(m, k) == TN_LAYER_TILES &&
                (tn_map_layer_flags(m, k) & TN_LAYER_TERRAIN))
                l = k;
        if (l < 0)
            return 1;
    }
    if (tn_map_set_terrain(m, tower, (tn_terrain){false, 1.0f}) != TN_OK)
        return 1;
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
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
        int32_t x, y;
        do { /* four free cells */
            x = (int32_t)below((uint32_t)w - 1);
            y = (int32_t)below((uint32_t)h - 1);
        } while (!tn_map_passable(m, x, y) || !tn_map_passable(m, x + 1, y) ||
                 !tn_map_passable(m, x, y + 1) || !tn_map_passable(m, x + 1, y + 1));
        uint32_t old[4];
        for (int k = 0; k < 4; k++)
            old[k] = tn_map_get(m, l, x + k % 2, y + k / 2);
        for (int pass = 0; pass < 2; pass++) { /* place, then sell */
            for (int k = 0; k < 4; k++)
                if (tn_map_set(m, l, x + k % 2, y + k / 2, pass ? old[k] : tower) != TN_OK)
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
    double mu = tu[nu / 2] * 1e3, mf = tf[towers / 2] * 1e3, sum = 0.0;
    for (int32_t k = 0; k < nu; k++)
        sum += tu[k];
    printf("regions map=%s walls=%d%% sizes=%d updates=%d local=%lld full=%lld "
           "update_median_ms=%.4f rebuild_median_ms=%.4f speedup=%.1f update_mean_ms=%.4f "
           "update_p99_ms=%.4f update_max_ms=%.4f\n",
           src, (int)walls, (int)sizes, (int)nu, (long long)local, (long long)full, mu, mf,
           mf / (mu > 0 ? mu : 1e-9), sum / nu * 1e3, tu[nu - 1 - nu / 100] * 1e3,
           tu[nu - 1] * 1e3);

    /* unreachable queries: start and goal in different regions of the largest ones */
    enum { PAIRS = 200, REPEAT = 1000 };
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    tn_cell *path = malloc((size_t)w * (size_t)h * sizeof *path);
    double *tr = malloc(sizeof(double) * PAIRS), *ta = malloc(sizeof(double) * PAIRS);
    double *cr = malloc(sizeof(double) * PAIRS), *ca = malloc(sizeof(double) * PAIRS);
    if (tn_search_create(&sd, &s) != TN_OK || !path || !tr || !ta || !cr || !ca)
        return 1;
    int32_t np = 0;
    double expanded = 0.0;
    for (int tries = 0; np < PAIRS && tries < 1000000; tries++) {
        tn_cell a = {(int32_t)below((uint32_t)w), (int32_t)below((uint32_t)h)};
        tn_cell b = {(int32_t)below((uint32_t)w), (int32_t)below((uint32_t)h)};
        int32_t ra = tn_regions_id(rg, 1, a.x, a.y), rb = tn_regions_id(rg, 1, b.x, b.y);
        if (ra < 0 || rb < 0 || ra == rb)
            continue;
        tn_query q = {0};
        q.regions = rg;
        tn_search_result res;
        double t0 = now();
        for (int k = 0; k < REPEAT; k++)
            if (tn_search_path(s, m, a, b, &q, path, w * h, &res) != TN_NO_PATH)
                return 1;
        tr[np] = (now() - t0) / REPEAT;
        q.regions = NULL;
        t0 = now();
        if (tn_search_path(s, m, a, b, &q, path, w * h, &res) != TN_NO_PATH)
            return 1;
        ta[np] = now() - t0;
        expanded += (double)res.expanded;
        /* the same pair with `closest`: through the regions, and without them */
        q.closest = true;
        tn_search_result rc0, rc1;
        t0 = now();
        tn_status c0 = tn_search_path(s, m, a, b, &q, path, w * h, &rc0);
        ca[np] = now() - t0;
        q.regions = rg;
        t0 = now();
        tn_status c1 = tn_search_path(s, m, a, b, &q, path, w * h, &rc1);
        cr[np] = now() - t0;
        if (c0 != c1 || rc0.cost != rc1.cost) {
            fprintf(stderr, "bench_regions: closest differs: %d %d, %g %g\n", c0, c1, rc0.cost,
                    rc1.cost);
            return 1;
        }
        np++;
    }
    if (np > 0) {
        qsort(tr, (size_t)np, sizeof *tr, cmp);
        qsort(ta, (size_t)np, sizeof *ta, cmp);
        printf("unreachable queries=%d regions_median_us=%.4f astar_median_ms=%.3f "
               "expanded_astar=%.0f\n",
               (int)np, tr[np / 2] * 1e6, ta[np / 2] * 1e3, expanded / np);
        qsort(cr, (size_t)np, sizeof *cr, cmp);
        qsort(ca, (size_t)np, sizeof *ca, cmp);
        printf("closest queries=%d regions_median_ms=%.4f astar_median_ms=%.3f same_cost=yes\n",
               (int)np, cr[np / 2] * 1e3, ca[np / 2] * 1e3);
    } else {
        printf("unreachable queries=0 (one region)\n");
    }
    free(path);
    free(tr);
    free(ta);
    free(cr);
    free(ca);
    tn_search_destroy(s);
    tn_regions_destroy(rg);
    tn_map_destroy(m);
    free(tu);
    free(tf);
    return 0;
}
