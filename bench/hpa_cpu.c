/* CPU time (CLOCK_THREAD_CPUTIME_ID, less sensitive than wall time to other processes on a
 * shared machine) of JPS and of the hierarchy's fast mode on the same Moving AI scenarios,
 * alternating query by query, medians and their ratio. Not built by CMake; from the
 * repository root, after a Release build:
 *
 *   cc -O2 -Iinclude bench/hpa_cpu.c -o build/hpa_cpu build/release/libtilenav_io.a \
 *      build/release/libtilenav.a -lm $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/hpa_cpu MAP SCEN [WEIGHT [LANDMARKS]]
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: hpa_cpu MAP SCEN [WEIGHT [LANDMARKS]]\n");
        return 2;
    }
    tn_map *m = load_map(argv[1]);
    tn_scenarios *sc = load_scenarios(argv[2]);
    float w = argc > 3 ? (float)atof(argv[3]) : 1.0f;
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.landmarks = argc > 4 ? atoi(argv[4]) : 0;
    hd.map = m;
    tn_hierarchy *h = NULL;
    double t0 = now();
    if (tn_hierarchy_build(&hd, &h))
        return 5;
    double tb = now() - t0;
    tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
    cd.weight = w;
    tn_hierarchy_ctx *c = NULL;
    if (tn_hierarchy_ctx_create(&cd, &c) || tn_hierarchy_ctx_reserve(c, h, false))
        return 5;
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    if (tn_search_create(&sd, &s))
        return 5;
    size_t n = (size_t)tn_map_width(m) * (size_t)tn_map_height(m);
    tn_cell *p = malloc(n * sizeof *p);
    int N = tn_scenarios_count(sc);
    double *a = malloc((size_t)N * sizeof *a), *b = malloc((size_t)N * sizeof *b);
    if (!p || !a || !b || N == 0)
        return 5;
    double sum = 0;
    long long exp = 0;
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = TN_ALGO_JPS;
    for (int i = 0; i < N; i++) {
        const tn_scenario *x = tn_scenarios_at(sc, i);
        tn_search_result sr;
        tn_hierarchy_result r;
        t0 = now();
        if (tn_search_path(s, m, x->start, x->goal, &q, p, (int32_t)n, &sr))
            return 1;
        a[i] = now() - t0;
        t0 = now();
        if (tn_hierarchy_path(c, h, x->start, x->goal, TN_HIERARCHY_FAST, p, (int32_t)n, &r))
            return 1;
        b[i] = now() - t0;
        sum += x->optimal > 0 ? r.cost / x->optimal - 1 : 0;
        exp += r.expanded;
    }
    qsort(a, (size_t)N, sizeof *a, cmp);
    qsort(b, (size_t)N, sizeof *b, cmp);
    printf("cpu: build %.2f s; %d queries; JPS median %.3f ms; hpa (weight %g, %d landmarks) "
           "median %.3f ms; "
           "ratio %.2fx; subopt mean %.4f; abstract nodes expanded %.0f per query\n",
           tb, N, a[N / 2] * 1e3, (double)w, (int)hd.landmarks, b[N / 2] * 1e3, a[N / 2] / b[N / 2],
           sum / N, (double)exp / N);
    free(p);
    free(a);
    free(b);
    tn_search_destroy(s);
    tn_hierarchy_ctx_destroy(c);
    tn_hierarchy_destroy(h);
    tn_scenarios_destroy(sc);
    tn_map_destroy(m);
    return 0;
}
