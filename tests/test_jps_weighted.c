/* Weighted Jump Point Search (JPS and JPS+ on maps with terrain costs): every query's cost
 * equals A*'s and the brute-force Dijkstra's of tests/oracle, its cells are legal steps, on
 * handmade maps, random maps (random walls with per-cell cost noise or blobby patches of
 * cost) and, in the shared group, the Moving AI maps with seeded mud. */
#include "oracle.h"
#include "search_internal.h" /* tn__jps_cache_info */
#include "support.h"
#include "tilenav/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Terrain gids this file adds: COST_GID + k costs COSTS[k]. */
#define COST_GID 100u
static const float COSTS[9] = {1.0f, 2.0f,        3.0f,        5.0f,       0.5f,
                               1.5f, 1.41421354f, 0.70710677f, 2.41421366f};

static tn_search *new_search(void)
{
    tn_search_def d = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&d, &s), TN_OK);
    return s;
}

/* Equal up to the rounding of sums of a few hundred step costs. */
static bool same_cost(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (1.0 + fabs(b));
}

/* A second tile layer "costs" (terrain) whose gids COST_GID + k cost COSTS[k] (the cell's
 * cost is the largest of its layers', walls stay walls). Returns its index. */
static int32_t add_cost_layer(tn_map *m, int ncosts)
{
    int32_t layer = -1;
    assert_int_equal(tn_map_add_layer(m, "costs", TN_LAYER_TILES, &layer), TN_OK);
    for (int k = 0; k < ncosts; k++)
        assert_int_equal(
            tn_map_set_terrain(m, COST_GID + (uint32_t)k, (tn_terrain){true, COSTS[k]}), TN_OK);
    return layer;
}

/* Per-cell noise: every cell gets one of the first `ncosts` costs at random. */
static void cost_noise(tn_map *m, int ncosts, uint64_t seed)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), layer = add_cost_layer(m, ncosts);
    uint32_t *g = malloc((size_t)w * (size_t)h * sizeof *g);
    tn_test_rng r = {seed};
    for (int32_t i = 0; i < w * h; i++)
        g[i] = COST_GID + tn_test_below(&r, (uint32_t)ncosts);
    assert_int_equal(tn_map_set_layer_data(m, layer, g, w * h), TN_OK);
    free(g);
}

/* Blobby patches: `count` discs of radius 1..rmax, each of one random cost (later discs over
 * earlier ones), on ground of cost 1. */
static void cost_blobs(tn_map *m, int ncosts, int32_t count, int32_t rmax, uint64_t seed)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), layer = add_cost_layer(m, ncosts);
    uint32_t *g = malloc((size_t)w * (size_t)h * sizeof *g);
    for (int32_t i = 0; i < w * h; i++)
        g[i] = COST_GID;
    tn_test_rng r = {seed};
    for (int32_t b = 0; b < count; b++) {
        int32_t cx = (int32_t)tn_test_below(&r, (uint32_t)w);
        int32_t cy = (int32_t)tn_test_below(&r, (uint32_t)h);
        int32_t rad = 1 + (int32_t)tn_test_below(&r, (uint32_t)rmax);
        uint32_t gid = COST_GID + 1 + tn_test_below(&r, (uint32_t)(ncosts - 1));
        for (int32_t y = cy - rad; y <= cy + rad; y++)
            for (int32_t x = cx - rad; x <= cx + rad; x++)
                if (x >= 0 && y >= 0 && x < w && y < h &&
                    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                    g[y * w + x] = gid;
    }
    assert_int_equal(tn_map_set_layer_data(m, layer, g, w * h), TN_OK);
    free(g);
}

/* One query by A*, JPS and JPS+ (table `jt`): same status, costs equal to each other and to
 * `want` (the oracle's distance, or a negative number to skip that check), legal cells whose
 * summed step costs are the reported cost. Returns the JPS result. */
static tn_search_result check_one(tn_search *s, const tn_map *m, const tn_jump_table *jt,
                                  const tn_moves *mv, tn_cell start, tn_cell goal, double want)
{
    int32_t n = tn_map_width(m) * tn_map_height(m);
    tn_cell *path = malloc((size_t)n * sizeof *path);
    tn_search_result ra, rj = {0}, rp;
    tn_query q;
    memset(&q, 0, sizeof q);
    q.moves = *mv;
    tn_status sa = tn_search_path(s, m, start, goal, &q, path, n, &ra);
    for (int a = 0; a < 2; a++) {
        tn_query qj = q;
        qj.algo = a ? TN_ALGO_JPS_PLUS : TN_ALGO_JPS;
        qj.jump_table = jt;
        tn_search_result *r = a ? &rp : &rj;
        tn_status sj = tn_search_path(s, m, start, goal, &qj, path, n, r);
        assert_int_equal(sj, sa);
        assert_int_equal(r->algo, qj.algo);
        if (sj != TN_OK)
            continue;
        if (!same_cost(r->cost, ra.cost)) {
            fprintf(stderr, "%s (%d,%d)->(%d,%d): %.12f, A* %.12f\n", tn_algo_name(qj.algo),
                    start.x, start.y, goal.x, goal.y, r->cost, ra.cost);
            fail();
        }
        if (want >= 0.0)
            assert_true(same_cost(r->cost, want));
        double c = tn_oracle_path_cost(m, mv, NULL, path, r->length, start, goal);
        assert_true(c >= 0.0);
        assert_true(same_cost(c, r->cost));
    }
    if (sa != TN_OK && want >= 0.0)
        assert_true(want == (double)INFINITY);
    free(path);
    return rj;
}

/* Random queries on `m` against the oracle: `starts` starts, `goals` goals each. */
static void check_map(tn_search *s, const tn_map *m, int starts, int goals, uint64_t seed)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    double *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
    tn_test_rng r = {seed};
    for (int k = 0; k < starts; k++) {
        tn_moves mv = {TN_DIAGONAL_NO_CUT, (tn_step_costs)(k % 2)};
        tn_cell start = tn_test_random_open_cell(m, &r);
        tn_oracle_dijkstra(m, &mv, NULL, &start, 1, false, dist);
        for (int g = 0; g < goals; g++) {
            tn_cell goal = tn_test_random_open_cell(m, &r);
            check_one(s, m, jt, &mv, start, goal, dist[goal.y * w + goal.x]);
        }
    }
    free(dist);
    tn_jump_table_destroy(jt);
}

/* ---- handmade maps ------------------------------------------------------------------- */

/* '#' wall, '~' mud (cost 3), '.' ground. */
static const char *const MARSH[] = {
    "....................", ".~~~~~~~~~~~~~~~~~~.", ".~................~.", ".~.######.#######.~.",
    ".~.#~~~~~.~~~~~~#.~.", ".~.#~####.####~~#.~.", "...#~#......#~~#....", ".~.#~#.~~~~.#~~#.~.",
    ".~.#~#......#~~#.~.",  ".~.#~########~~#.~.",  ".~.#~~~~~~~~~~~#.~.",  ".~.#############.~.",
    ".~~~~~~~~~~~~~~~~~~.", "...................."};

static void test_handmade(void **state)
{
    (void)state;
    tn_map *m = tn_test_map_from_rows(MARSH, 14);
    assert_non_null(m);
    assert_false(tn_map_uniform_cost(m));
    tn_search *s = new_search();
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    double *dist = malloc((size_t)(w * h) * sizeof *dist);
    /* every pair of open cells, both step costs */
    for (int c = 0; c < 2; c++) {
        tn_moves mv = {TN_DIAGONAL_NO_CUT, (tn_step_costs)c};
        for (int32_t si = 0; si < w * h; si++) {
            tn_cell start = {si % w, si / w};
            if (!tn_map_passable(m, start.x, start.y))
                continue;
            tn_oracle_dijkstra(m, &mv, NULL, &start, 1, false, dist);
            for (int32_t gi = 0; gi < w * h; gi += 1 + c * 2) {
                tn_cell goal = {gi % w, gi / w};
                if (tn_map_passable(m, goal.x, goal.y))
                    check_one(s, m, jt, &mv, start, goal, dist[gi]);
            }
        }
    }
    free(dist);
    tn_jump_table_destroy(jt);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* Mud across an open field: going round beats going through, and a straight line over
 * ground is still found without a search. */
static void test_detour_and_direct(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"..........", "....~~....", "....~~....", "....~~....",
                                       ".........."};
    tn_map *m = tn_test_map_from_rows(ROWS, 5);
    tn_search *s = new_search();
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    /* (0,2) -> (9,2): through the mud costs 7 + 2*3 = 13; over the top row (two diagonals up,
     * five straight steps, two diagonals down) 5 + 4 sqrt 2 ~ 10.66 */
    tn_search_result r = check_one(s, m, jt, &mv, (tn_cell){0, 2}, (tn_cell){9, 2}, -1.0);
    assert_true(same_cost(r.cost, 5.0 + 4.0 * sqrt(2.0)));
    /* along the top row: a free line of least cost, answered without a search */
    r = check_one(s, m, jt, &mv, (tn_cell){0, 0}, (tn_cell){9, 0}, 9.0);
    assert_int_equal(r.expanded, 1);
    /* a line across the mud is free but not the cheapest: it must be searched */
    r = check_one(s, m, jt, &mv, (tn_cell){3, 1}, (tn_cell){6, 1}, -1.0);
    assert_true(r.expanded > 1);
    tn_jump_table_destroy(jt);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* ---- random maps ---------------------------------------------------------------------- */

static void test_random_noise(void **state)
{
    (void)state;
    tn_search *s = new_search();
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int32_t w = 8 + (int32_t)(seed * 7 % 33), h = 6 + (int32_t)(seed * 11 % 29);
        tn_map *m = tn_test_random_map(w, h, 0.04 * (double)(seed % 7), seed + 500);
        /* 2 to 6 costs, sometimes below 1 (the heuristic scales by the least) */
        cost_noise(m, 2 + (int)(seed % 5), seed * 31);
        check_map(s, m, 4, 12, seed);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

static void test_random_blobs(void **state)
{
    (void)state;
    tn_search *s = new_search();
    for (uint64_t seed = 1; seed <= 60; seed++) {
        int32_t w = 12 + (int32_t)(seed * 13 % 45), h = 10 + (int32_t)(seed * 5 % 37);
        tn_map *m = tn_test_random_map(w, h, 0.03 * (double)(seed % 9), seed + 900);
        cost_blobs(m, 2 + (int)(seed % 5), 1 + (int32_t)(seed % 12), 1 + (int32_t)(seed % 6),
                   seed * 17);
        check_map(s, m, 3, 15, seed + 77);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

/* Long corridors and rooms (walls in lines) with cost patches: long jumps that cross
 * boundaries. */
static void test_random_rooms(void **state)
{
    (void)state;
    tn_search *s = new_search();
    for (uint64_t seed = 1; seed <= 30; seed++) {
        int32_t w = 30 + (int32_t)(seed % 20), h = 24 + (int32_t)(seed % 15);
        tn_map *m = tn_test_random_map(w, h, 0.0, 1);
        tn_test_rng r = {seed * 101};
        for (int k = 0; k < 6; k++) { /* wall lines with a gap */
            bool horiz = tn_test_below(&r, 2) == 0;
            int32_t at = (int32_t)tn_test_below(&r, (uint32_t)(horiz ? h : w));
            int32_t gap = (int32_t)tn_test_below(&r, (uint32_t)(horiz ? w : h));
            for (int32_t t = 0; t < (horiz ? w : h); t++)
                if (t < gap - 1 || t > gap + 1)
                    assert_int_equal(tn_map_set(m, 0, horiz ? t : at, horiz ? at : t, 1), TN_OK);
        }
        cost_blobs(m, 4, 3 + (int32_t)(seed % 5), 4, seed * 3);
        check_map(s, m, 3, 12, seed);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

/* Many more random maps (slow group): noise and blobs with every cost, among them float
 * approximations of sqrt 2, 1/sqrt 2 and 1 + sqrt 2, which put straight and diagonal
 * alternatives within a float's rounding of a tie. */
static void test_random_many(void **state)
{
    (void)state;
    tn_search *s = new_search();
    for (uint64_t seed = 1; seed <= 1500; seed++) {
        int32_t w = 6 + (int32_t)(seed * 7 % 41), h = 5 + (int32_t)(seed * 13 % 37);
        tn_map *m = tn_test_random_map(w, h, 0.03 * (double)(seed % 10), seed * 3 + 7);
        int ncosts = 2 + (int)(seed % 8);
        if (seed % 2)
            cost_noise(m, ncosts, seed * 41);
        else
            cost_blobs(m, ncosts, 1 + (int32_t)(seed % 15), 1 + (int32_t)(seed % 7), seed * 43);
        check_map(s, m, 3, 10, seed * 5);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

/* ---- the rest of the query interface on weighted maps ----------------------------------- */

/* Sliced queries equal the one-shot ones; budgets give partial paths; goal bounds are ignored
 * on weighted maps (the answer equals the query without them); an extra layer is refused (or
 * falls back to A*). */
static void test_query_features(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(40, 30, 0.15, 4242);
    tn_search *s = new_search(), *t = new_search();
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    /* goal bounds describe uniform costs: built before the terrain, then out of date */
    tn_goal_bounds *gb = NULL;
    assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
    cost_blobs(m, 4, 10, 4, 99);
    tn_goal_bounds *gw = NULL;
    assert_int_equal(tn_test_goal_bounds(m, &mv, &gw), TN_E_UNSUPPORTED);
    tn_cell a[1200], b[1200];
    tn_test_rng r = {5};
    for (int k = 0; k < 40; k++) {
        tn_cell start = tn_test_random_open_cell(m, &r), goal = tn_test_random_open_cell(m, &r);
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = TN_ALGO_JPS;
        tn_search_result r1, r2;
        tn_status st = tn_search_path(s, m, start, goal, &q, a, 1200, &r1);
        /* sliced, a few expansions at a time */
        assert_int_equal(tn_search_begin(t, m, start, &goal, 1, &q), TN_IN_PROGRESS);
        tn_status ss;
        while ((ss = tn_search_step(t, 3)) == TN_IN_PROGRESS) {
        }
        assert_int_equal(ss, st);
        if (st == TN_OK) {
            assert_int_equal(tn_search_get_path(t, b, 1200, &r2), TN_OK);
            assert_int_equal(r2.length, r1.length);
            assert_memory_equal(a, b, (size_t)r1.length * sizeof *a);
            assert_true(r2.cost == r1.cost && r2.expanded == r1.expanded);
        }
        tn_query qb = q;
        qb.goal_bounds = gb;
        assert_int_equal(tn_search_path(s, m, start, goal, &qb, b, 1200, &r2), TN_E_MAP_CHANGED);
        /* a budget of 2 expansions: a partial path, or the answer */
        tn_query qp = q;
        qp.max_expansions = 2;
        tn_status sp = tn_search_path(s, m, start, goal, &qp, b, 1200, &r2);
        assert_true(sp == TN_PARTIAL || sp == st);
        if (sp == TN_PARTIAL) {
            double c = tn_oracle_path_cost(m, &mv, NULL, b, r2.length, start, r2.end);
            assert_true(c >= 0.0 && same_cost(c, r2.cost));
        }
    }
    float extra[1200] = {0};
    tn_query qe;
    memset(&qe, 0, sizeof qe);
    qe.algo = TN_ALGO_JPS;
    qe.extra = extra;
    tn_cell start = tn_test_random_open_cell(m, &r), goal = tn_test_random_open_cell(m, &r);
    tn_search_result re;
    assert_int_equal(tn_search_path(s, m, start, goal, &qe, a, 1200, &re), TN_E_UNSUPPORTED);
    qe.jps_fallback = true;
    tn_status se = tn_search_path(s, m, start, goal, &qe, a, 1200, &re);
    assert_true(se == TN_OK || se == TN_NO_PATH);
    assert_int_equal(re.algo, TN_ALGO_ASTAR);
    tn_goal_bounds_destroy(gb);
    tn_search_destroy(s);
    tn_search_destroy(t);
    tn_map_destroy(m);
}

/* Costs far apart (up to TN_MAX_COST, 1e28 times the least): a path costing past about 5e8 times
 * the least step is beyond what JPS's path rebuild can tell apart in doubles (TN__JPS_KEY_LIMIT);
 * the query then runs as A* (a stranger's 20 x 8 map with one cell of cost 1e20 crashed the rebuild
 * in a loop between two jump points). Every answer, one-shot or sliced, matches A* and the
 * oracle, its cells are legal, and the result names the algorithm that answered. */
static void test_huge_cost_ratios(void **state)
{
    (void)state;
    static const float BIG[6] = {1e3f, 1e6f, 1e9f, 1e12f, 1e20f, TN_MAX_COST};
    tn_search *s = new_search(), *t = new_search();
    int restarted = 0, kept = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        int32_t w = 8 + (int32_t)(seed * 7 % 25), h = 6 + (int32_t)(seed * 11 % 21);
        tn_map *m = tn_test_random_map(w, h, 0.05 * (double)(seed % 6), seed + 900);
        int32_t layer = -1;
        assert_int_equal(tn_map_add_layer(m, "costs", TN_LAYER_TILES, &layer), TN_OK);
        for (int k = 0; k < 6; k++)
            assert_int_equal(
                tn_map_set_terrain(m, COST_GID + (uint32_t)k, (tn_terrain){true, BIG[k]}), TN_OK);
        tn_test_rng r = {seed * 77};
        for (int32_t i = 0; i < w * h / 12 + 1; i++) { /* a few costly cells */
            int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w),
                    y = (int32_t)tn_test_below(&r, (uint32_t)h);
            assert_int_equal(tn_map_set(m, layer, x, y, COST_GID + tn_test_below(&r, 6)), TN_OK);
        }
        tn_jump_table *jt = NULL;
        assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
        tn_cell *a = malloc((size_t)w * (size_t)h * sizeof *a),
                *b = malloc((size_t)w * (size_t)h * sizeof *b);
        double *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
        for (int k = 0; k < 6; k++) {
            tn_moves mv = {TN_DIAGONAL_NO_CUT, (tn_step_costs)(k % 2)};
            tn_cell start = tn_test_random_open_cell(m, &r);
            if (k >= 4) /* a moat of cost 1e20 around the start: every step after it vanishes */
                for (int32_t y = start.y - 1; y <= start.y + 1; y++)
                    for (int32_t x = start.x - 1; x <= start.x + 1; x++)
                        if (tn_map_contains(m, x, y) && (x != start.x || y != start.y))
                            assert_int_equal(tn_map_set(m, layer, x, y, COST_GID + 4), TN_OK);
            if (k >= 4) { /* a jump table of the edited map */
                tn_jump_table_destroy(jt);
                jt = NULL;
                assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
            }
            tn_oracle_dijkstra(m, &mv, NULL, &start, 1, false, dist);
            const double limit = 0.5e9 * fmin(tn_moves_straight(&mv), tn_moves_diagonal(&mv)) *
                                     (double)tn_map_min_cost(m) -
                                 1.0;
            for (int g = 0; g < 8; g++) {
                tn_cell goal = tn_test_random_open_cell(m, &r);
                double want = dist[goal.y * w + goal.x];
                tn_query q;
                memset(&q, 0, sizeof q);
                q.moves = mv;
                tn_search_result ra;
                tn_status sa = tn_search_path(s, m, start, goal, &q, a, w * h, &ra);
                assert_true(sa == TN_OK ? same_cost(ra.cost, want) : want == (double)INFINITY);
                for (int alg = 0; alg < 2; alg++) {
                    tn_query qj = q;
                    qj.algo = alg ? TN_ALGO_JPS_PLUS : TN_ALGO_JPS;
                    qj.jump_table = jt;
                    tn_search_result rj, rs;
                    tn_status sj = tn_search_path(s, m, start, goal, &qj, a, w * h, &rj);
                    assert_int_equal(sj, sa);
                    if (sj != TN_OK)
                        continue;
                    assert_true(same_cost(rj.cost, ra.cost));
                    double c = tn_oracle_path_cost(m, &mv, NULL, a, rj.length, start, goal);
                    assert_true(c >= 0.0 && same_cost(c, rj.cost));
                    if (want < 0.9 * limit) {
                        assert_int_equal(rj.algo, qj.algo);
                        kept++;
                    } else if (want > 1.1 * limit) {
                        assert_int_equal(rj.algo, TN_ALGO_ASTAR);
                        restarted++;
                    }
                    /* sliced, a few expansions at a time: the same answer */
                    assert_int_equal(tn_search_begin(t, m, start, &goal, 1, &qj), TN_IN_PROGRESS);
                    tn_status ss;
                    while ((ss = tn_search_step(t, 2)) == TN_IN_PROGRESS) {
                    }
                    assert_int_equal(ss, TN_OK);
                    assert_int_equal(tn_search_get_path(t, b, w * h, &rs), TN_OK);
                    assert_int_equal(rs.algo, rj.algo);
                    assert_true(same_cost(rs.cost, rj.cost));
                    c = tn_oracle_path_cost(m, &mv, NULL, b, rs.length, start, goal);
                    assert_true(c >= 0.0 && same_cost(c, rs.cost));
                }
            }
        }
        free(a);
        free(b);
        free(dist);
        tn_jump_table_destroy(jt);
        tn_map_destroy(m);
    }
    printf("huge cost ratios: %d answers by JPS/JPS+, %d restarted as A*\n", kept, restarted);
    assert_true(kept > 100 && restarted > 100);
    tn_search_destroy(s);
    tn_search_destroy(t);
}

/* The JPS cache and jump tables follow cost edits that leave passability alone (and the
 * way back to uniform costs). */
static void test_cost_edits(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(30, 20, 0.1, 77);
    int32_t layer = add_cost_layer(m, 4);
    tn_search *s = new_search();
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    double dist[600];
    tn_test_rng r = {8};
    for (int round = 0; round < 30; round++) {
        /* a rectangle of one cost (gid COST_GID is cost 1: back towards uniform) */
        int32_t x0 = (int32_t)tn_test_below(&r, 30), y0 = (int32_t)tn_test_below(&r, 20);
        tn_rect rc = {x0, y0, x0 + 1 + (int32_t)tn_test_below(&r, 10),
                      y0 + 1 + (int32_t)tn_test_below(&r, 8)};
        uint32_t gid = COST_GID + (round % 5 == 4 ? 0u : tn_test_below(&r, 4));
        assert_int_equal(tn_map_fill(m, layer, rc, gid), TN_OK);
        if (round % 7 == 6) /* everything back to cost 1 */
            assert_int_equal(tn_map_fill(m, layer, (tn_rect){0, 0, 30, 20}, COST_GID), TN_OK);
        tn_jump_table *jt = NULL;
        assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
        for (int k = 0; k < 3; k++) {
            tn_cell start = tn_test_random_open_cell(m, &r);
            tn_oracle_dijkstra(m, &mv, NULL, &start, 1, false, dist);
            for (int g = 0; g < 6; g++) {
                tn_cell goal = tn_test_random_open_cell(m, &r);
                check_one(s, m, jt, &mv, start, goal, dist[goal.y * 30 + goal.x]);
            }
        }
        tn_jump_table_destroy(jt);
    }
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* The JPS cache follows edits by the map's change log (grid.c, patch_rect): after every edit
 * of a random sequence (walls, openings and costs in small rectangles, some at the border, now
 * and then one too big to patch), the long-lived context's cache is bit for bit the cache a
 * fresh context builds, and its JPS paths are optimal. Maps: weighted blobs and noise, and
 * walls only. */
static void test_cache_follows_edits_locally(void **state)
{
    (void)state;
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    for (int kind = 0; kind < 3; kind++) {
        int32_t w = 40 + 31 * kind, h = 30 + 7 * kind; /* widths across 64-cell words */
        tn_map *m = tn_test_random_map(w, h, 0.15, 300 + (uint64_t)kind);
        int32_t layer = -1;
        if (kind == 0) {
            cost_blobs(m, 4, 12, 5, 9);
            layer = tn_map_layer_count(m) - 1;
        } else if (kind == 1) {
            cost_noise(m, 3, 10);
            layer = tn_map_layer_count(m) - 1;
        }
        tn_search *s = new_search();
        double *dist = malloc((size_t)(w * h) * sizeof *dist);
        tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
        tn_test_rng r = {41 + (uint64_t)kind};
        int rounds = 80, compared = 0;
        for (int round = 0; round < rounds; round++) {
            int32_t x0 = (int32_t)tn_test_below(&r, (uint32_t)w) - 1;
            int32_t y0 = (int32_t)tn_test_below(&r, (uint32_t)h) - 1;
            tn_rect rc = {x0, y0, x0 + 1 + (int32_t)tn_test_below(&r, 4),
                          y0 + 1 + (int32_t)tn_test_below(&r, 4)};
            if (round % 17 == 16) /* more than an eighth of the map: built afresh */
                rc = (tn_rect){0, 0, w, h / 2 + 1};
            rc.x0 = rc.x0 < 0 ? 0 : rc.x0;
            rc.y0 = rc.y0 < 0 ? 0 : rc.y0;
            rc.x1 = rc.x1 > w ? w : rc.x1;
            rc.y1 = rc.y1 > h ? h : rc.y1;
            uint32_t pick = tn_test_below(&r, 3);
            if (layer >= 0 && pick == 2)
                assert_int_equal(
                    tn_map_fill(m, layer, rc, COST_GID + tn_test_below(&r, kind == 0 ? 4 : 3)),
                    TN_OK);
            else if (round % 17 != 16)
                assert_int_equal(tn_map_fill(m, 0, rc, pick == 0 ? 1u : 0u), TN_OK);
            else
                assert_int_equal(tn_map_fill(m, 0, rc, 0u), TN_OK);
            /* a query on the long-lived context brings its cache up to date */
            tn_cell start = tn_test_random_open_cell(m, &r), goal = tn_test_random_open_cell(m, &r);
            tn_query q;
            memset(&q, 0, sizeof q);
            q.algo = TN_ALGO_JPS;
            tn_search_result res;
            tn_status st = tn_search_path(s, m, start, goal, &q, path, w * h, &res);
            tn_oracle_dijkstra(m, &mv, NULL, &start, 1, false, dist);
            double want = dist[goal.y * w + goal.x];
            if (isfinite(want)) {
                assert_int_equal(st, TN_OK);
                assert_true(same_cost(res.cost, want));
            } else {
                assert_int_equal(st, TN_NO_PATH);
            }
            tn_search *fresh = new_search();
            tn_search_result rf;
            assert_int_equal(tn_search_path(fresh, m, start, goal, &q, path, w * h, &rf), st);
            uint64_t d1, d2, p1, p2;
            tn__jps_cache_info(s, &d1, &p1);
            tn__jps_cache_info(fresh, &d2, &p2);
            assert_int_equal(p2, 0);
            /* (a query the free octile line answers builds no cache: d2 == 0, and the
             * long-lived cache then catches up over several log entries at a later query) */
            if (d2 != 0 && d1 != d2)
                fail_msg("map kind %d, round %d: the updated JPS cache differs from a fresh one",
                         kind, round);
            compared += d2 != 0;
            tn_search_destroy(fresh);
        }
        uint64_t d, patches;
        tn__jps_cache_info(s, &d, &patches);
        /* every small edit was patched (the big ones and those that made a weighted map uniform,
         * or back, were built afresh) */
        assert_true(patches >= (uint64_t)rounds / 2);
        assert_true(compared >= rounds / 2);
        free(dist);
        free(path);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

/* The same at the grid layer, where many edits are cheap: two caches of one map, one updated
 * by the change log after every edit (1x1 to 3x3 rectangles of walls, openings or costs 1, 2, 3
 * and 5, whose boundary moves read cells two away), one built afresh, must be equal word for
 * word. */
static void test_cache_patch_equals_build(void **state)
{
    (void)state;
    const tn_allocator alloc = {0};
    for (int kind = 0; kind < 2; kind++) {
        int32_t w = kind ? 70 : 23, h = kind ? 9 : 17;
        tn_map *m = tn_test_random_map(w, h, 0.12, 900 + (uint64_t)kind);
        cost_noise(m, 4, 31 + (uint64_t)kind);
        int32_t layer = tn_map_layer_count(m) - 1;
        tn__passbits kept, fresh;
        memset(&kept, 0, sizeof kept);
        memset(&fresh, 0, sizeof fresh);
        tn_test_rng r = {5 + (uint64_t)kind};
        tn__grid g;
        for (int e = 0; e < 1500; e++) {
            int32_t x0 = (int32_t)tn_test_below(&r, (uint32_t)w);
            int32_t y0 = (int32_t)tn_test_below(&r, (uint32_t)h);
            tn_rect rc = {x0, y0, x0 + 1 + (int32_t)tn_test_below(&r, 3),
                          y0 + 1 + (int32_t)tn_test_below(&r, 3)};
            rc.x1 = rc.x1 > w ? w : rc.x1;
            rc.y1 = rc.y1 > h ? h : rc.y1;
            uint32_t pick = tn_test_below(&r, 4);
            if (pick < 2)
                assert_int_equal(tn_map_fill(m, layer, rc, COST_GID + tn_test_below(&r, 4)), TN_OK);
            else
                assert_int_equal(tn_map_fill(m, 0, rc, pick == 2 ? 1u : 0u), TN_OK);
            tn__map_grid(m, &g);
            assert_int_equal(tn__passbits_update(&kept, m, &g, &alloc), TN_OK);
            tn__passbits_free(&fresh, &alloc);
            assert_int_equal(tn__passbits_update(&fresh, m, &g, &alloc), TN_OK);
            if (tn__passbits_digest(&kept) != tn__passbits_digest(&fresh))
                fail_msg("map kind %d, edit %d (%d,%d)-(%d,%d): the updated cache differs", kind, e,
                         rc.x0, rc.y0, rc.x1, rc.y1);
        }
        assert_true(kept.patches >= 1400); /* all but the first and the uniform ones */
        tn__passbits_free(&kept, &alloc);
        tn__passbits_free(&fresh, &alloc);
        tn_map_destroy(m);
    }
}

/* ---- Moving AI maps with seeded terrain -------------------------------------------------- */

static void shared_map(const char *name, int32_t every, int32_t limit)
{
    char path[1024], rel[512];
    snprintf(rel, sizeof rel, "bench/movingai/%s.map", name);
    tn_map *m = NULL;
    assert_int_equal(tn_map_load(tn_test_shared(path, sizeof path, rel), NULL, &m, NULL), TN_OK);
    snprintf(rel, sizeof rel, "bench/movingai/%s.map.scen", name);
    tn_scenarios *sc = NULL;
    assert_int_equal(tn_scenarios_load(tn_test_shared(path, sizeof path, rel), NULL, &sc, NULL),
                     TN_OK);
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_search *s = new_search();
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    for (int mix = 0; mix < 2; mix++) {
        tn_map *c = NULL;
        assert_int_equal(tn_map_clone(m, &c), TN_OK);
        if (mix == 0)
            cost_blobs(c, 3, w * h / 400, 10, (uint64_t)w * 7 + (uint64_t)h);
        else
            cost_noise(c, 4, (uint64_t)w * 3 + (uint64_t)h);
        tn_jump_table *jt = NULL;
        assert_int_equal(tn_test_jump_table(c, &jt), TN_OK);
        int32_t count = 0;
        for (int32_t i = 0; i < tn_scenarios_count(sc) && count < limit; i += every, count++) {
            const tn_scenario *e = tn_scenarios_at(sc, i);
            check_one(s, c, jt, &mv, e->start, e->goal, -1.0);
        }
        /* and one start against the distance map, for the Dijkstra reference */
        if (count > 0) {
            const tn_scenario *e = tn_scenarios_at(sc, 0);
            double *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
            assert_int_equal(tn_search_distances(s, c, &e->start, 1, &mv, NULL, false, dist, w * h),
                             TN_OK);
            for (int32_t i = 0; i < tn_scenarios_count(sc) && i < 40 * every; i += every) {
                const tn_scenario *f = tn_scenarios_at(sc, i);
                if (f->start.x == e->start.x && f->start.y == e->start.y)
                    continue;
                check_one(s, c, jt, &mv, e->start, f->goal, dist[f->goal.y * w + f->goal.x]);
            }
            free(dist);
        }
        tn_jump_table_destroy(jt);
        tn_map_destroy(c);
    }
    tn_search_destroy(s);
    tn_scenarios_destroy(sc);
    tn_map_destroy(m);
}

static void test_movingai_weighted(void **state)
{
    (void)state;
    shared_map("dao/arena", 3, 400);
    shared_map("dao/den520d", 7, 300);
    shared_map("bg512/AR0011SR", 11, 200);
    shared_map("mazes/maze512-1-0", 97, 60);
    shared_map("rooms/8room_000", 13, 200);
    shared_map("cities/Berlin_0_256", 7, 200);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_handmade),
        cmocka_unit_test(test_detour_and_direct),
        cmocka_unit_test(test_random_noise),
        cmocka_unit_test(test_random_blobs),
        cmocka_unit_test(test_random_rooms),
        cmocka_unit_test(test_query_features),
        cmocka_unit_test(test_huge_cost_ratios),
        cmocka_unit_test(test_cost_edits),
        cmocka_unit_test(test_cache_follows_edits_locally),
        cmocka_unit_test(test_cache_patch_equals_build),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_movingai_weighted),
    };
    const struct CMUnitTest slow_tests[] = {
        cmocka_unit_test(test_random_many),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), shared_tests,
                       TN_TEST_COUNT(shared_tests), slow_tests, TN_TEST_COUNT(slow_tests));
}
