/* libFuzzer target: path and field queries on small fuzzed maps, each result checked against
 * the brute-force Dijkstra of tests/oracle: A*, Dijkstra and JPS (with fallback), and where they
 * apply JPS and JPS+ with goal bounds, return a legal path of the optimal cost or TN_NO_PATH
 * exactly when the oracle finds none; a flow field's
 * distances equal the oracle's reverse distances; units of 2 and 3 cells (tn_query::size) get
 * the oracle's cost on the map eroded here by brute force (a cell open when the unit's square
 * is, at the square's largest cost); no query changes the map.
 * Input: w, h, rules byte, start/goal bytes, then 2 bits per cell (0 open, 1 wall, 2 mud). */
#include "fuzz_map.h"
#include "oracle.h"
#include "tilenav/clearance.h"
#include "tilenav/field.h"
#include "tilenav/goal_bounds.h"
#include "tilenav/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool close_enough(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (1.0 + fabs(b));
}

/* A query's status `st` and result against the oracle's cost `want` from s to g on `ref` (the
 * map, or its erosion for a unit's size): blocked start or goal, TN_NO_PATH exactly when the
 * oracle finds none, else the optimal cost and a path that costs it when walked on `ref`. */
static void check_answer(const tn_map *ref, const tn_moves *mv, tn_status st,
                         const tn_search_result *r, const tn_cell *cells, tn_cell s, tn_cell g,
                         double want)
{
    if (!tn_map_passable(ref, s.x, s.y)) {
        if (st != TN_E_START_BLOCKED)
            abort();
    } else if (!tn_map_passable(ref, g.x, g.y)) {
        if (st != TN_E_GOAL_BLOCKED)
            abort();
    } else if (isinf(want)) {
        if (st != TN_NO_PATH)
            abort();
    } else {
        if (st != TN_OK || !close_enough(r->cost, want))
            abort();
        double c = tn_oracle_path_cost(ref, mv, NULL, cells, r->length, s, g);
        if (c < 0.0 || !close_enough(c, want))
            abort();
    }
}

/* The map eroded for an n x n unit, by brute force: a cell open where the unit's square is
 * (its top-left cell there), at the square's largest cost; gids as the fuzzed map's. */
static tn_map *eroded(const tn_map *m, int32_t n)
{
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    int32_t layer = 0;
    tn_map *e = fuzz_map(w, h, 32, &layer);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint32_t gid = x + n <= w && y + n <= h ? 0u : 1u;
            for (int32_t dy = 0; dy < n && gid != 1u; dy++)
                for (int32_t dx = 0; dx < n && gid != 1u; dx++)
                    if (!tn_map_passable(m, x + dx, y + dy))
                        gid = 1u;
                    else if (tn_map_cost(m, x + dx, y + dy) > 1.0f)
                        gid = 2u;
            if (tn_map_set(e, layer, x, y, gid) != TN_OK)
                abort();
        }
    return e;
}

/* Units of size 2 and 3 from s to g: A*, Dijkstra and JPS (with fallback) through a clearance,
 * against the oracle on the eroded map. */
static void check_sizes(const tn_map *m, const tn_moves *mv, tn_search *se, tn_cell s, tn_cell g,
                        tn_cell *cells, double *dist)
{
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_clearance_def cd = tn_clearance_def_default();
    cd.map = m;
    cd.max_size = 3;
    tn_clearance *cl = NULL;
    if (tn_clearance_create(&cd, &cl) != TN_OK)
        abort();
    for (int32_t n = 2; n <= 3; n++) {
        tn_map *e = eroded(m, n);
        tn_oracle_dijkstra(e, mv, NULL, &s, 1, false, dist);
        const double want = dist[g.y * w + g.x];
        static const tn_algo algos[3] = {TN_ALGO_ASTAR, TN_ALGO_DIJKSTRA, TN_ALGO_JPS};
        for (int k = 0; k < 3; k++) {
            tn_query q;
            memset(&q, 0, sizeof q);
            q.moves = *mv;
            q.algo = algos[k];
            q.jps_fallback = true;
            q.size = n;
            q.clearance = cl;
            tn_search_result r;
            tn_status st = tn_search_path(se, m, s, g, &q, cells, w * h, &r);
            check_answer(e, mv, st, &r, cells, s, g, want);
        }
        tn_map_destroy(e);
    }
    tn_clearance_destroy(cl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 7)
        return 0;
    int32_t w = 1 + data[0] % 16, h = 1 + data[1] % 16;
    tn_moves mv = {(tn_diagonal)(data[2] & 3), (tn_step_costs)((data[2] >> 2) & 1)};
    int32_t layer = 0;
    tn_map *m = fuzz_map(w, h, 32, &layer);
    for (int32_t i = 0; i < w * h; i++) {
        size_t byte = 7 + (size_t)i / 4;
        uint32_t v = byte < size ? (uint32_t)(data[byte] >> (2 * (i % 4))) & 3u : 0u;
        if (v == 3)
            v = 0;
        if (tn_map_set(m, layer, i % w, i / w, v) != TN_OK)
            abort();
    }
    tn_cell s = {data[3] % w, data[4] % h}, g = {data[5] % w, data[6] % h};
    uint64_t rev = tn_map_revision(m);
    double *dist = malloc((size_t)(w * h) * sizeof *dist);
    tn_cell *cells = malloc((size_t)(w * h) * sizeof *cells);
    tn_search *se = NULL;
    tn_search_def sd = tn_search_def_default();
    sd.max_cells = 256;
    if (!dist || !cells || tn_search_create(&sd, &se) != TN_OK)
        abort();
    tn_oracle_dijkstra(m, &mv, NULL, &s, 1, false, dist);
    double want = dist[g.y * w + g.x];
    const bool g_ok = tn_map_passable(m, g.x, g.y);
    /* goal bounds and a jump table where JPS applies (no corner cutting, no mud) */
    tn_goal_bounds *gb = NULL;
    tn_jump_table *jt = NULL;
    int nalgo = 3;
    tn_goal_bounds_def gd = tn_goal_bounds_def_default();
    gd.map = m;
    gd.moves = mv;
    tn_jump_table_def jd = tn_jump_table_def_default();
    jd.map = m;
    if (mv.diagonal == TN_DIAGONAL_NO_CUT && tn_goal_bounds_build(&gd, &gb) == TN_OK) {
        if (tn_jump_table_build(&jd, &jt) != TN_OK)
            abort();
        nalgo = 5;
    }
    static const tn_algo algos[5] = {TN_ALGO_ASTAR, TN_ALGO_DIJKSTRA, TN_ALGO_JPS, TN_ALGO_JPS,
                                     TN_ALGO_JPS_PLUS};
    for (int k = 0; k < nalgo; k++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.moves = mv;
        q.algo = algos[k];
        q.jps_fallback = true;
        if (k >= 3) {
            q.goal_bounds = gb;
            q.jump_table = jt;
        }
        tn_search_result r;
        tn_status st = tn_search_path(se, m, s, g, &q, cells, w * h, &r);
        check_answer(m, &mv, st, &r, cells, s, g, want);
    }
    tn_goal_bounds_destroy(gb);
    tn_jump_table_destroy(jt);
    check_sizes(m, &mv, se, s, g, cells, dist);
    if (g_ok) { /* the field towards g: distances from every cell, checked against the oracle */
        tn_field_def fd = tn_field_def_default();
        fd.map = m;
        fd.moves = mv;
        fd.los = (data[2] & 16) ? TN_LOS_EXACT : TN_LOS_OFF;
        tn_field *f = NULL;
        if (tn_field_create(&fd, &f) != TN_OK || tn_field_build(f, &g, 1) != TN_OK)
            abort();
        tn_oracle_dijkstra(m, &mv, NULL, &g, 1, true, dist);
        for (int32_t i = 0; i < w * h; i++) {
            float fdist = tn_field_distance(f, i % w, i / w);
            if (isinf(dist[i]) != isinf(fdist) ||
                (!isinf(dist[i]) && !close_enough((double)fdist, dist[i])))
                if (!(fabs((double)fdist - dist[i]) <= 1e-4 * (1.0 + dist[i]))) /* floats */
                    abort();
        }
        tn_field_destroy(f);
    }
    if (tn_map_revision(m) != rev)
        abort();
    tn_search_destroy(se);
    free(dist);
    free(cells);
    tn_map_destroy(m);
    return 0;
}
