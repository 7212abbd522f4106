/* CPU time (CLOCK_THREAD_CPUTIME_ID) of whole-map distance maps (tn_search_distances(): the
 * "Dijkstra maps" of roguelikes, Python's Map.distances) from seeded single sources, with 8
 * neighbours without corner cutting and with 4, on the map as it is and with seeded mud (cost 3
 * discs as `tilenav bench --terrain mud:1` lays them). Public API only, so the same file builds
 * against an older library to compare. Not built by CMake; from the repository root, after a
 * Release build:
 *
 *   cc -O2 -Iinclude bench/distances.c -o build/distances build/release/libtilenav_io.a \
 *      build/release/libtilenav.a -lm $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/distances MAP [SOURCES]
 *
 * Prints the median over SOURCES (default 30) maps per case, and a checksum of the finite
 * distances (equal across versions when every distance is).
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *label, tn_search *s, const tn_map *m, int sources, tn_diagonal diag,
               double *dist, double *t)
{
    const int32_t w = tn_map_width(m), h = tn_map_height(m), n = w * h;
    tn_moves mv;
    memset(&mv, 0, sizeof mv);
    mv.diagonal = diag;
    uint64_t seed = 7;
    double sum = 0.0;
    for (int k = 0; k < sources; k++) {
        tn_cell c;
        do
            c = (tn_cell){below(&seed, w), below(&seed, h)};
        while (!tn_map_passable(m, c.x, c.y));
        double t0 = now();
        if (tn_search_distances(s, m, &c, 1, &mv, NULL, false, dist, n) != TN_OK)
            return 1;
        t[k] = now() - t0;
        for (int32_t i = 0; i < n; i++)
            sum += isfinite(dist[i]) ? dist[i] : 0.0;
    }
    qsort(t, (size_t)sources, sizeof *t, cmp);
    printf("%-22s median %.3f ms, distance sum %.6f\n", label, t[sources / 2] * 1e3, sum);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: distances MAP [SOURCES]\n");
        return 2;
    }
    tn_map *m = load_map(argv[1]);
    int sources = argc > 2 ? atoi(argv[2]) : 30;
    sources = sources < 1 ? 1 : sources;
    size_t n = (size_t)tn_map_width(m) * (size_t)tn_map_height(m);
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    double *dist = malloc(n * sizeof *dist), *t = malloc((size_t)sources * sizeof *t);
    if (tn_search_create(&sd, &s) || !dist || !t)
        return 5;
    if (run("8 neighbours", s, m, sources, TN_DIAGONAL_NO_CUT, dist, t) ||
        run("4 neighbours", s, m, sources, TN_DIAGONAL_NEVER, dist, t) || lay_mud(m, 1) ||
        run("8 neighbours, mud", s, m, sources, TN_DIAGONAL_NO_CUT, dist, t) ||
        run("4 neighbours, mud", s, m, sources, TN_DIAGONAL_NEVER, dist, t))
        return 1;
    free(dist);
    free(t);
    tn_search_destroy(s);
    tn_map_destroy(m);
    return 0;
}
