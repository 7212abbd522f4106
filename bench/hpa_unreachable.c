/* CPU time (CLOCK_THREAD_CPUTIME_ID) of the hierarchy's fast queries whose goal the start
 * cannot reach, and, for scale, of reachable ones on the same map. Pairs are seeded: the start
 * in the map's largest area (4-neighbour flood fill, which joins what 8 neighbours without
 * corner cutting join), the goal in any other area (most are small pockets) or, for the
 * reachable pairs, in the largest area too. Uses the public API only, so the same file builds
 * against older versions of the library to compare. Not built by CMake; from the repository
 * root, after a Release build:
 *
 *   cc -O2 -Iinclude bench/hpa_unreachable.c -o build/hpa_unreachable \
 *      build/release/libtilenav_io.a build/release/libtilenav.a -lm \
 *      $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/hpa_unreachable MAP [PAIRS [SEED]]
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: hpa_unreachable MAP [PAIRS [SEED]]\n");
        return 2;
    }
    int pairs = argc > 2 ? atoi(argv[2]) : 50;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    seed = seed ? seed : 1;
    tn_map *m = load_map(argv[1]);
    const int32_t W = tn_map_width(m), H = tn_map_height(m);
    const size_t n = (size_t)W * (size_t)H;
    /* areas: a label per passable cell, by flood fill */
    int32_t *area = malloc(n * sizeof *area), *stack = malloc(n * sizeof *stack);
    int64_t *size = calloc(n + 1, sizeof *size);
    if (!area || !stack || !size || pairs < 1)
        return 5;
    int32_t areas = 0;
    for (size_t i = 0; i < n; i++)
        area[i] = tn_map_passable(m, (int32_t)(i % (size_t)W), (int32_t)(i / (size_t)W)) ? -1 : -2;
    for (size_t i = 0; i < n; i++) {
        if (area[i] != -1)
            continue;
        int32_t top = 0;
        stack[top++] = (int32_t)i;
        area[i] = areas;
        while (top) {
            int32_t c = stack[--top], x = c % W, y = c / W;
            size[areas]++;
            const int32_t nb[4] = {x > 0 ? c - 1 : -1, x + 1 < W ? c + 1 : -1, y > 0 ? c - W : -1,
                                   y + 1 < H ? c + W : -1};
            for (int k = 0; k < 4; k++)
                if (nb[k] >= 0 && area[nb[k]] == -1) {
                    area[nb[k]] = areas;
                    stack[top++] = nb[k];
                }
        }
        areas++;
    }
    int32_t big = 0;
    for (int32_t a = 1; a < areas; a++)
        if (size[a] > size[big])
            big = a;
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.map = m;
    tn_hierarchy *h = NULL;
    double t0 = now();
    if (tn_hierarchy_build(&hd, &h))
        return 5;
    double tb = now() - t0;
    tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
    tn_hierarchy_ctx *c = NULL;
    if (tn_hierarchy_ctx_create(&cd, &c) || tn_hierarchy_ctx_reserve(c, h, false))
        return 5;
    tn_cell *p = malloc(n * sizeof *p);
    double *tu = malloc((size_t)pairs * sizeof *tu), *tr = malloc((size_t)pairs * sizeof *tr);
    if (!p || !tu || !tr)
        return 5;
    long long exp_u = 0, exp_r = 0;
    for (int k = 0; k < 2 * pairs; k++) {
        const bool reach = k % 2;
        size_t a, b;
        do
            a = next(&seed) % n;
        while (area[a] != big);
        do
            b = next(&seed) % n;
        while (area[b] < 0 || (area[b] == big) != reach);
        tn_cell s = {(int32_t)(a % (size_t)W), (int32_t)(a / (size_t)W)};
        tn_cell g = {(int32_t)(b % (size_t)W), (int32_t)(b / (size_t)W)};
        tn_hierarchy_result r;
        t0 = now();
        tn_status st = tn_hierarchy_path(c, h, s, g, TN_HIERARCHY_FAST, p, (int32_t)n, &r);
        double t = now() - t0;
        if (st != (reach ? TN_OK : TN_NO_PATH)) {
            fprintf(stderr, "pair %d: status %d\n", k, (int)st);
            return 1;
        }
        if (reach) {
            tr[k / 2] = t;
            exp_r += r.expanded;
        } else {
            tu[k / 2] = t;
            exp_u += r.expanded;
        }
    }
    qsort(tu, (size_t)pairs, sizeof *tu, cmp);
    qsort(tr, (size_t)pairs, sizeof *tr, cmp);
    printf("cpu: %dx%d, %d areas (largest %lld cells); build %.2f s; %d pairs each: "
           "unreachable median %.4f ms max %.4f ms (%.0f abstract nodes expanded per query); "
           "reachable median %.3f ms (%.0f)\n",
           W, H, areas, (long long)size[big], tb, pairs, tu[pairs / 2] * 1e3, tu[pairs - 1] * 1e3,
           (double)exp_u / pairs, tr[pairs / 2] * 1e3, (double)exp_r / pairs);
    free(p);
    free(tu);
    free(tr);
    free(area);
    free(stack);
    free(size);
    tn_hierarchy_ctx_destroy(c);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
    return 0;
}
