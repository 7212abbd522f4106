/* Shared by the standalone benchmarks that are built by hand against a library's public API
 * (hpa_cpu.c, hpa_update.c, hpa_unreachable.c, hpa_far_edits.c, field_far_edits.c, astar_four.c,
 * distances.c, regions_memory.c: each says how), so that one file compares two versions of the
 * library. Header-only: each is one executable. */
#ifndef TN_BENCH_STANDALONE_H
#define TN_BENCH_STANDALONE_H

#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* This thread's CPU time in seconds: other processes on a shared machine do not count. */
static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* qsort order of doubles. */
static inline int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0), by the high bits. */
static inline int32_t below(uint64_t *s, int32_t n)
{
    return (int32_t)((splitmix64(s) >> 32) * (uint64_t)n >> 32);
}

/* A loader failed: its message (or the status's name) on stderr, exit status 3. */
static inline void load_failed(tn_status st, const tn_diag *d)
{
    char msg[1024];
    tn_diag_format(d, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg[0] ? msg : tn_status_str(st));
    exit(3);
}

/* The map at `path`, or its loader's message on stderr and exit status 3. */
static inline tn_map *load_map(const char *path)
{
    tn_map *m = NULL;
    tn_diag d;
    tn_status st = tn_map_load(path, NULL, &m, &d);
    if (st != TN_OK)
        load_failed(st, &d);
    return m;
}

/* The Moving AI scenarios at `path`, or the loader's message and exit status 3. */
static inline tn_scenarios *load_scenarios(const char *path)
{
    tn_scenarios *sc = NULL;
    tn_diag d;
    tn_status st = tn_scenarios_load(path, NULL, &sc, &d);
    if (st != TN_OK)
        load_failed(st, &d);
    return sc;
}

/* The mud of `tilenav bench --terrain mud:SEED` (tools/cli/cmd_bench.c, lay_mud(), the same
 * draws): round(W*H/1000) discs of radius 3..12 of cost 3 on a new terrain layer. Non-zero on
 * failure. */
static inline int lay_mud(tn_map *map, uint64_t seed)
{
    int32_t w = tn_map_width(map), h = tn_map_height(map), layer = -1;
    const uint32_t gid = 1000000u;
    if (tn_map_add_layer(map, "mud", TN_LAYER_TILES, &layer) ||
        tn_map_set_terrain(map, gid, (tn_terrain){true, 3.0f}))
        return 1;
    uint32_t *g = calloc((size_t)w * (size_t)h, sizeof *g);
    if (!g)
        return 1;
    int64_t count = ((int64_t)w * h + 500) / 1000;
    for (int64_t b = 0; b < (count > 0 ? count : 1); b++) {
        int32_t cx = below(&seed, w), cy = below(&seed, h), r = 3 + below(&seed, 10);
        for (int32_t y = cy - r; y <= cy + r; y++)
            for (int32_t x = cx - r; x <= cx + r; x++)
                if (x >= 0 && y >= 0 && x < w && y < h &&
                    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                    g[(size_t)y * (size_t)w + (size_t)x] = gid;
    }
    int bad = tn_map_set_layer_data(map, layer, g, w * h) != TN_OK;
    free(g);
    return bad;
}

/* A top-left cell in [x0, x1) x [y0, y1) of a 2x2 square whose four cells are open, drawn from
 * splitmix64(*seed); (-1, -1) after a million misses (no such square there). */
static inline tn_cell open_square(const tn_map *m, uint64_t *seed, int32_t x0, int32_t y0,
                                  int32_t x1, int32_t y1)
{
    for (int tries = 0; tries < 1000000; tries++) {
        int32_t x = x0 + below(seed, x1 - x0 - 1), y = y0 + below(seed, y1 - y0 - 1);
        if (tn_map_passable(m, x, y) && tn_map_passable(m, x + 1, y) &&
            tn_map_passable(m, x, y + 1) && tn_map_passable(m, x + 1, y + 1))
            return (tn_cell){x, y};
    }
    return (tn_cell){-1, -1};
}

#endif
