/* CPU time (CLOCK_THREAD_CPUTIME_ID) of tn_hierarchy_update() after 2 x 2 walls on open cells,
 * the same edits as `tilenav bench --algo hpa --edits N` (each wall updated, then undone and
 * updated again), median / p99 / max of the wall's update and of the undo's. With --check,
 * the hierarchy is compared with a fresh build (tn_hierarchy_hash) after the walls and at the
 * end. Not built by CMake; from the repository root, after a Release build:
 *
 *   cc -O2 -Iinclude bench/hpa_update.c -o build/hpa_update build/release/libtilenav_io.a \
 *      build/release/libtilenav.a -lm $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/hpa_update MAP [EDITS [--check]]
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report(const char *what, double *us, int n)
{
    qsort(us, (size_t)n, sizeof *us, cmp);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += us[i];
    printf("%s: median %.1f us, mean %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us\n", what,
           us[n / 2], sum / n, us[(int)ceil(0.9 * n) - 1], us[(int)ceil(0.99 * n) - 1], us[n - 1]);
}

static int check(tn_map *m, const tn_hierarchy *h, const char *when)
{
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.map = m;
    tn_hierarchy *f = NULL;
    if (tn_hierarchy_build(&hd, &f))
        return 5;
    int bad = tn_hierarchy_hash(f) != tn_hierarchy_hash(h);
    printf("check %s: %s\n", when, bad ? "DIFFERENT from a fresh build" : "same as a fresh build");
    tn_hierarchy_destroy(f);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: hpa_update MAP [EDITS [--check]]\n");
        return 2;
    }
    tn_map *m = load_map(argv[1]);
    int n = argc > 2 ? atoi(argv[2]) : 1000;
    int chk = argc > 3 && strcmp(argv[3], "--check") == 0;
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.map = m;
    tn_hierarchy *h = NULL;
    double t0 = now();
    if (tn_hierarchy_build(&hd, &h))
        return 5;
    printf("build %.3f s CPU\n", now() - t0);
    const int32_t w = tn_map_width(m), hh = tn_map_height(m);
    const uint32_t *data = tn_map_layer_data(m, 0);
    uint32_t wall = 0;
    for (int32_t i = 0; i < w * hh && !wall; i++)
        if (!tn_map_passable(m, i % w, i / w))
            wall = data[i];
    double *us = malloc((size_t)n * sizeof *us), *un = malloc((size_t)n * sizeof *un);
    int32_t *xy = malloc((size_t)n * 2 * sizeof *xy);
    uint32_t *olds = malloc((size_t)n * 4 * sizeof *olds);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int done = 0;
    long sectors = 0;
    while (done < n) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        int32_t x = (int32_t)(rng % (uint64_t)(w - 1)),
                y = (int32_t)((rng >> 32) % (uint64_t)(hh - 1));
        if (!tn_map_passable(m, x, y))
            continue;
        uint32_t *old = olds + 4 * done;
        for (int k = 0; k < 4; k++)
            old[k] = tn_map_layer_data(m, 0)[(y + k / 2) * w + x + k % 2];
        if (tn_map_fill(m, 0, (tn_rect){x, y, x + 2, y + 2}, wall))
            return 6;
        int32_t rebuilt = 0;
        double a = now();
        if (tn_hierarchy_update(h, &rebuilt))
            return 6;
        us[done] = (now() - a) * 1e6;
        sectors += rebuilt;
        xy[2 * done] = x, xy[2 * done + 1] = y;
        if (chk && done == n - 1 && check(m, h, "after the last wall"))
            return 1;
        for (int k = 0; k < 4; k++)
            if (tn_map_set(m, 0, x + k % 2, y + k / 2, old[k]))
                return 6;
        a = now();
        if (tn_hierarchy_update(h, NULL))
            return 6;
        un[done] = (now() - a) * 1e6;
        done++;
    }
    printf("%d edits, %.2f sectors rebuilt on average\n", n, (double)sectors / n);
    report("update after a 2x2 wall (CPU)", us, n);
    report("update after undoing it (CPU)", un, n);
    if (chk && check(m, h, "at the end"))
        return 1;
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
    free(us), free(un), free(xy), free(olds);
    return 0;
}
