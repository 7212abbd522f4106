/* CPU time (CLOCK_THREAD_CPUTIME_ID) of A* and Dijkstra with 4 neighbours (TN_DIAGONAL_NEVER,
 * the manhattan heuristic: roguelikes, tactics games) on a Moving AI map's scenarios, with and
 * without seeded mud (cost 3 discs as `tilenav bench --terrain mud:1` lays them). Public API
 * only, so the same file builds against an older library to compare. Not built by CMake; from
 * the repository root, after a Release build:
 *
 *   cc -O2 -Iinclude bench/astar_four.c -o build/astar_four build/release/libtilenav_io.a \
 *      build/release/libtilenav.a -lm $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/astar_four MAP SCEN [SPREAD [ROUNDS]]
 *
 * Prints one line per case: the median of each scenario's fastest of ROUNDS runs (default 3),
 * over SPREAD scenarios spread evenly over the file (default 300), the mean expansions, and a
 * checksum of the costs (equal across versions when the paths' costs are).
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *label, tn_search *s, const tn_map *m, const tn_scenarios *sc, int n,
               int spread, int rounds, tn_algo algo, tn_cell *buf, double *t)
{
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = algo;
    q.moves.diagonal = TN_DIAGONAL_NEVER;
    const int32_t cap = tn_map_width(m) * tn_map_height(m);
    double sum = 0.0;
    long long expanded = 0;
    for (int k = 0; k < spread; k++)
        t[k] = 1e30;
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < spread; k++) {
            const tn_scenario *x = tn_scenarios_at(sc, (int)((long long)k * n / spread));
            tn_search_result res;
            double t0 = now();
            tn_status st = tn_search_path(s, m, x->start, x->goal, &q, buf, cap, &res);
            double dt = now() - t0;
            if (st != TN_OK && st != TN_NO_PATH)
                return 1;
            t[k] = dt < t[k] ? dt : t[k];
            if (r == 0) {
                sum += st == TN_OK ? res.cost : 0.0;
                expanded += res.expanded;
            }
        }
    qsort(t, (size_t)spread, sizeof *t, cmp);
    printf("%-14s median %.1f us, expanded %.0f per query, cost sum %.6f\n", label,
           t[spread / 2] * 1e6, (double)expanded / spread, sum);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: astar_four MAP SCEN [SPREAD [ROUNDS]]\n");
        return 2;
    }
    tn_map *m = load_map(argv[1]);
    tn_scenarios *sc = load_scenarios(argv[2]);
    int n = tn_scenarios_count(sc);
    int spread = argc > 3 ? atoi(argv[3]) : 300;
    int rounds = argc > 4 ? atoi(argv[4]) : 3;
    spread = spread < 1 || spread > n ? n : spread;
    rounds = rounds < 1 ? 1 : rounds;
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    tn_cell *buf = malloc((size_t)tn_map_width(m) * (size_t)tn_map_height(m) * sizeof *buf);
    double *t = malloc((size_t)spread * sizeof *t);
    if (tn_search_create(&sd, &s) || !buf || !t)
        return 5;
    if (run("astar", s, m, sc, n, spread, rounds, TN_ALGO_ASTAR, buf, t) ||
        run("dijkstra", s, m, sc, n, spread < 50 ? spread : 50, 1, TN_ALGO_DIJKSTRA, buf, t) ||
        lay_mud(m, 1) || run("astar mud", s, m, sc, n, spread, rounds, TN_ALGO_ASTAR, buf, t) ||
        run("dijkstra mud", s, m, sc, n, spread < 50 ? spread : 50, 1, TN_ALGO_DIJKSTRA, buf, t))
        return 1;
    free(buf);
    free(t);
    tn_search_destroy(s);
    tn_scenarios_destroy(sc);
    tn_map_destroy(m);
    return 0;
}
