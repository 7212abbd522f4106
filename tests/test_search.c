/* Shortest paths: A*, Dijkstra, JPS, multi-goal, closest, sliced queries and distance maps,
 * all checked against the brute-force Dijkstra in tests/oracle on handmade and seeded random
 * maps. */
#include "oracle.h"
#include "search_internal.h" /* row_of_index */
#include "support.h"
#include "tilenav/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tn_diagonal POLICIES[4] = {TN_DIAGONAL_NO_CUT, TN_DIAGONAL_NEVER, TN_DIAGONAL_ONE,
                                        TN_DIAGONAL_ALWAYS};

static tn_search *new_search(int32_t cells)
{
    tn_search_def d = tn_search_def_default();
    d.max_cells = cells;
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&d, &s), TN_OK);
    assert_non_null(s);
    return s;
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (1.0 + fabs(b));
}

static bool admissible(tn_heuristic h, tn_diagonal d)
{
    return h != TN_HEURISTIC_MANHATTAN || d == TN_DIAGONAL_NEVER;
}

/* Run one query and check it against the oracle distances `dist` from `start`. */
static void check_query(tn_search *s, const tn_map *m, const tn_query *q, tn_cell start,
                        tn_cell goal, const double *dist, bool optimal)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
    assert_non_null(path);
    tn_search_result res;
    tn_status st = tn_search_path(s, m, start, goal, q, path, w * h, &res);
    double want = dist[goal.y * w + goal.x];
    if (!isfinite(want)) {
        assert_int_equal(st, TN_NO_PATH);
        assert_int_equal(res.length, 0);
    } else {
        assert_int_equal(st, TN_OK);
        double c = tn_oracle_path_cost(m, &q->moves, q->extra, path, res.length, start, goal);
        assert_true(c >= 0.0);
        assert_true(close_to(c, res.cost));
        if (optimal)
            assert_true(close_to(res.cost, want));
        else
            assert_true(res.cost >= want - 1e-9);
        assert_int_equal(res.end.x, goal.x);
        assert_int_equal(res.end.y, goal.y);
        assert_int_equal(res.goal, 0);
        assert_true(res.expanded >= 1);
    }
    free(path);
}

/* The cost search.h promises for a path (no extra layer): on maps of uniform cost, diagonal
 * steps * diagonal + straight steps * straight; otherwise the running sum `summed` (the
 * oracle's, which adds the step costs from the start). */
static double documented_cost(const tn_map *m, const tn_moves *mv, const tn_cell *p, int32_t n,
                              double summed)
{
    if (!tn_map_uniform_cost(m))
        return summed;
    int32_t diag = 0;
    for (int32_t j = 1; j < n; j++)
        diag += p[j].x != p[j - 1].x && p[j].y != p[j - 1].y;
    return (double)diag * tn_moves_diagonal(mv) + (double)(n - 1 - diag) * tn_moves_straight(mv);
}

/* ---- handmade maps ------------------------------------------------------------------- */

static const char *const ROOMS[] = {
    "..........#.........", ".####.....#..######.", ".#..#.....#.......#.", ".#..#..........#..#.",
    ".#..####..#....#....", ".#........#....####.", ".######.###.........", "......#...#..~~~~~..",
    "..##.#...#...~###~..", "..#..#..#....~~~~~..", "..#.....#...........", "..########..#####..."};

static void test_handmade_all_policies_and_heuristics(void **state)
{
    (void)state;
    tn_map *m = tn_test_map_from_rows(ROOMS, 12);
    assert_non_null(m);
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_search *s = new_search(w * h);
    double *dist = malloc((size_t)(w * h) * sizeof *dist);
    tn_cell starts[3] = {{0, 0}, {19, 11}, {3, 3}};
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < 2; c++)
            for (int hk = 0; hk <= (int)TN_HEURISTIC_ZERO; hk++)
                for (int si = 0; si < 3; si++) {
                    tn_query q;
                    memset(&q, 0, sizeof q);
                    q.moves.diagonal = POLICIES[p];
                    q.moves.costs = (tn_step_costs)c;
                    q.heuristic = (tn_heuristic)hk;
                    tn_oracle_dijkstra(m, &q.moves, NULL, &starts[si], 1, false, dist);
                    for (int32_t y = 0; y < h; y++)
                        for (int32_t x = 0; x < w; x++) {
                            if (!tn_map_passable(m, x, y))
                                continue;
                            check_query(s, m, &q, starts[si], (tn_cell){x, y}, dist,
                                        admissible(q.heuristic, q.moves.diagonal));
                        }
                }
    free(dist);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* ---- seeded random maps --------------------------------------------------------------- */

static void random_maps(bool mud, bool extra_layer)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        int32_t w = 14 + (int32_t)(seed % 3) * 5, h = 11 + (int32_t)(seed % 2) * 6;
        tn_map *m = tn_test_random_map(w, h, 0.12 + 0.05 * (double)(seed % 4), seed);
        assert_non_null(m);
        if (mud)
            tn_test_add_mud(m, 0.3, seed * 7);
        float *extra = NULL;
        if (extra_layer) {
            extra = malloc((size_t)(w * h) * sizeof *extra);
            tn_test_rng r = {seed * 13};
            for (int32_t i = 0; i < w * h; i++)
                extra[i] = tn_test_u01(&r) < 0.3 ? (float)(tn_test_below(&r, 8)) * 0.5f : 0.0f;
        }
        tn_search *s = new_search(w * h);
        double *dist = malloc((size_t)(w * h) * sizeof *dist);
        tn_test_rng r = {seed * 101};
        for (int p = 0; p < 4; p++)
            for (int c = 0; c < 2; c++)
                for (int k = 0; k < 3; k++) {
                    tn_query q;
                    memset(&q, 0, sizeof q);
                    q.moves.diagonal = POLICIES[p];
                    q.moves.costs = (tn_step_costs)c;
                    q.extra = extra;
                    tn_cell start = tn_test_random_open_cell(m, &r);
                    tn_oracle_dijkstra(m, &q.moves, extra, &start, 1, false, dist);
                    for (int g = 0; g < 12; g++) {
                        tn_cell goal = tn_test_random_open_cell(m, &r);
                        for (int hk = 0; hk <= (int)TN_HEURISTIC_ZERO; hk++) {
                            q.heuristic = (tn_heuristic)hk;
                            q.algo = TN_ALGO_ASTAR;
                            check_query(s, m, &q, start, goal, dist,
                                        admissible(q.heuristic, q.moves.diagonal));
                        }
                        q.heuristic = TN_HEURISTIC_AUTO;
                        q.algo = TN_ALGO_DIJKSTRA;
                        check_query(s, m, &q, start, goal, dist, true);
                    }
                }
        free(dist);
        free(extra);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

static void test_random_maps(void **state)
{
    (void)state;
    random_maps(false, false);
}

static void test_random_maps_mud(void **state)
{
    (void)state;
    random_maps(true, false);
}

static void test_random_maps_extra_layer(void **state)
{
    (void)state;
    random_maps(true, true);
}

/* ---- terrain: the book's mud ------------------------------------------------------------ */

/* Does the path enter a mud cell? */
static bool path_enters_mud(const tn_map *m, const tn_cell *p, int32_t n)
{
    for (int32_t i = 1; i < n; i++)
        if (tn_map_cost(m, p[i].x, p[i].y) > 1.0f)
            return true;
    return false;
}

static void test_mud_detour_and_straight(void **state)
{
    (void)state;
    /* straight along the bottom row through k mud cells (cost 3 each) or around over the top
     * (10 steps of cost 1): with one mud cell the straight way costs 8 and wins, with three it
     * costs 12 and the detour wins */
    const char *const through[] = {"#########", "#.......#", "#.#####.#", "#.~.....#", "#########"};
    const char *const around[] = {"#########", "#.......#", "#.#####.#", "#.~~~...#", "#########"};
    const char *const *maps[2] = {through, around};
    for (int k = 0; k < 2; k++) {
        tn_map *m = tn_test_map_from_rows(maps[k], 5);
        int32_t w = tn_map_width(m), h = tn_map_height(m);
        tn_cell start = {1, 3}, goal = {7, 3};
        tn_search *s = new_search(w * h);
        for (int a = 0; a < 2; a++) {
            tn_query q;
            memset(&q, 0, sizeof q);
            q.algo = a ? TN_ALGO_DIJKSTRA : TN_ALGO_ASTAR;
            tn_cell path[64];
            tn_search_result res;
            assert_int_equal(tn_search_path(s, m, start, goal, &q, path, 64, &res), TN_OK);
            double dist[64];
            tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
            assert_true(close_to(res.cost, dist[goal.y * w + goal.x]));
            if (k == 0) {
                assert_true(path_enters_mud(m, path, res.length));
                assert_true(close_to(res.cost, 8.0));
            } else {
                assert_false(path_enters_mud(m, path, res.length));
                assert_true(close_to(res.cost, 10.0));
            }
        }
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

/* ---- multi-goal ------------------------------------------------------------------------ */

static void test_multi_goal(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        int32_t w = 20, h = 16;
        tn_map *m = tn_test_random_map(w, h, 0.2, seed + 40);
        if (seed % 2)
            tn_test_add_mud(m, 0.25, seed);
        tn_search *s = new_search(w * h);
        double *dist = malloc((size_t)(w * h) * sizeof *dist);
        tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
        tn_test_rng r = {seed};
        for (int k = 0; k < 20; k++) {
            tn_cell start = tn_test_random_open_cell(m, &r);
            tn_cell goals[5];
            int32_t ng = 1 + (int32_t)tn_test_below(&r, 5);
            for (int32_t g = 0; g < ng; g++)
                goals[g] = tn_test_random_open_cell(m, &r);
            tn_query q;
            memset(&q, 0, sizeof q);
            q.algo = k % 2 ? TN_ALGO_DIJKSTRA : TN_ALGO_ASTAR;
            tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
            double best = (double)INFINITY;
            for (int32_t g = 0; g < ng; g++)
                best = fmin(best, dist[goals[g].y * w + goals[g].x]);
            tn_search_result res;
            tn_status st = tn_search_path_multi(s, m, start, goals, ng, &q, path, w * h, &res);
            if (!isfinite(best)) {
                assert_int_equal(st, TN_NO_PATH);
                continue;
            }
            assert_int_equal(st, TN_OK);
            assert_true(res.goal >= 0 && res.goal < ng);
            tn_cell gc = goals[res.goal];
            assert_true(gc.x == res.end.x && gc.y == res.end.y);
            assert_true(close_to(res.cost, best));
            assert_true(close_to(dist[gc.y * w + gc.x], best));
            double c = tn_oracle_path_cost(m, &q.moves, NULL, path, res.length, start, gc);
            assert_true(close_to(c, res.cost));
        }
        free(path);
        free(dist);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

/* The book's villager and four strawberry bushes: the nearest by path, not by air. */
static void test_strawberry_bushes(void **state)
{
    (void)state;
    const char *const rows[] = {"..........", ".########.", ".#......#.", ".#.####.#.",
                                ".#......#.", ".######.#.", ".........."};
    tn_map *m = tn_test_map_from_rows(rows, 7);
    tn_search *s = new_search(70);
    tn_cell start = {4, 4};
    /* bush 0 is 2 rows up as the crow flies but behind a wall; bush 2 is reached through the gap */
    tn_cell bushes[4] = {{4, 2}, {0, 0}, {7, 6}, {9, 3}};
    tn_cell path[70];
    tn_search_result res;
    tn_query q;
    memset(&q, 0, sizeof q);
    assert_int_equal(tn_search_path_multi(s, m, start, bushes, 4, &q, path, 70, &res), TN_OK);
    double dist[70];
    tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
    double best = (double)INFINITY;
    int32_t bi = -1;
    for (int32_t b = 0; b < 4; b++)
        if (dist[bushes[b].y * 10 + bushes[b].x] < best) {
            best = dist[bushes[b].y * 10 + bushes[b].x];
            bi = b;
        }
    assert_int_equal(res.goal, bi);
    assert_true(close_to(res.cost, best));
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* ---- closest reachable ------------------------------------------------------------------ */

static double octile(tn_cell a, tn_cell b)
{
    double dx = fabs((double)a.x - b.x), dy = fabs((double)a.y - b.y);
    return fmax(dx, dy) + (TN_SQRT2 - 1.0) * fmin(dx, dy);
}

static void test_closest_reachable(void **state)
{
    (void)state;
    const char *const rows[] = {"............", "............", "......####..", "......#..#..",
                                "......#..#..", "......####..", "............"};
    tn_map *m = tn_test_map_from_rows(rows, 7);
    int32_t w = 12, h = 7;
    tn_search *s = new_search(w * h);
    double dist[84];
    tn_cell start = {0, 6}, path[84];
    tn_cell goals[2] = {{7, 3}, {6, 2}}; /* enclosed, and a wall */
    for (int gk = 0; gk < 2; gk++) {
        for (int bounded = 0; bounded < 2; bounded++) {
            tn_query q;
            memset(&q, 0, sizeof q);
            tn_search_result res;
            assert_int_equal(tn_search_path(s, m, start, goals[gk], &q, path, 84, &res),
                             gk == 0 ? TN_NO_PATH : TN_E_GOAL_BLOCKED);
            q.closest = true;
            q.closest_bound = bounded ? 5.0 : 0.0;
            assert_int_equal(tn_search_path(s, m, start, goals[gk], &q, path, 84, &res),
                             TN_CLOSEST);
            tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
            /* independent answer: the reachable cell (within the bound) nearest to the goal */
            double bh = (double)INFINITY, bg = (double)INFINITY;
            for (int32_t i = 0; i < w * h; i++) {
                if (!isfinite(dist[i]) || (bounded && dist[i] > q.closest_bound))
                    continue;
                double hh = octile((tn_cell){i % w, i / w}, goals[gk]);
                if (hh < bh - 1e-12 || (fabs(hh - bh) <= 1e-12 && dist[i] < bg)) {
                    bh = hh;
                    bg = dist[i];
                }
            }
            assert_true(close_to(octile(res.end, goals[gk]), bh));
            assert_true(close_to(res.cost, bg));
            double c = tn_oracle_path_cost(m, &q.moves, NULL, path, res.length, start, res.end);
            assert_true(close_to(c, res.cost));
            assert_int_equal(res.goal, -1);
        }
    }
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* A cell whose cost equals closest_bound exactly is within it (found by a stranger: g recovered
 * as f - h came out an ulp above the bound, the cell was skipped, and TN_CLOSEST ended farther
 * from the goal). Open 20 x 8 map, a wall down column 10 cuts the goals off; every start row,
 * goal row and whole bound 1..9, against the oracle. */
static void test_closest_bound_inclusive(void **state)
{
    (void)state;
    const int32_t w = 20, h = 8;
    const char *rows[8];
    for (int y = 0; y < h; y++)
        rows[y] = "..........#.........";
    tn_map *m = tn_test_map_from_rows(rows, h);
    tn_search *s = new_search(w * h);
    double dist[160];
    tn_cell path[160];
    int bad = 0;
    for (int32_t sy = 0; sy < h; sy++) {
        tn_cell start = {0, sy};
        tn_query q;
        memset(&q, 0, sizeof q);
        tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
        for (int32_t gy = 0; gy < h; gy++)
            for (int b = 1; b <= 9; b++) {
                tn_cell goal = {19, gy};
                q.closest = true;
                q.closest_bound = b;
                double bh = (double)INFINITY;
                for (int32_t i = 0; i < w * h; i++)
                    if (dist[i] <= b + 1e-9)
                        bh = fmin(bh, octile((tn_cell){i % w, i / w}, goal));
                tn_search_result res;
                assert_int_equal(tn_search_path(s, m, start, goal, &q, path, 160, &res),
                                 TN_CLOSEST);
                assert_true(res.cost <= b + 1e-9);
                if (!close_to(octile(res.end, goal), bh) && bad++ < 4)
                    print_message("(0,%d) -> (19,%d) bound %d: ended at (%d,%d), %g from the goal; "
                                  "the oracle's %g\n",
                                  sy, gy, b, res.end.x, res.end.y, octile(res.end, goal), bh);
            }
    }
    assert_int_equal(bad, 0);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* ---- time-sliced queries ---------------------------------------------------------------- */

static void test_sliced_equals_one_shot(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        int32_t w = 40, h = 30;
        tn_map *m = tn_test_random_map(w, h, 0.25, seed + 7);
        if (seed % 2)
            tn_test_add_mud(m, 0.2, seed);
        tn_search *one = new_search(w * h), *sl = new_search(w * h);
        tn_cell *a = malloc((size_t)(w * h) * sizeof *a), *b = malloc((size_t)(w * h) * sizeof *b);
        tn_test_rng r = {seed};
        for (int k = 0; k < 30; k++) {
            tn_query q;
            memset(&q, 0, sizeof q);
            q.algo = (tn_algo)(k % 3);
            q.jps_fallback = true;
            q.moves.diagonal = POLICIES[k % 4];
            if (q.algo == TN_ALGO_JPS)
                q.moves.diagonal = TN_DIAGONAL_NO_CUT;
            tn_cell start = tn_test_random_open_cell(m, &r), goal = tn_test_random_open_cell(m, &r);
            tn_search_result ra, rb;
            tn_status sa = tn_search_path(one, m, start, goal, &q, a, w * h, &ra);
            assert_int_equal(tn_search_begin(sl, m, start, &goal, 1, &q), TN_IN_PROGRESS);
            assert_int_equal(tn_search_poll(sl), TN_IN_PROGRESS);
            int64_t slice = 1 + (int64_t)tn_test_below(&r, 20);
            tn_status sb;
            int calls = 0;
            while ((sb = tn_search_step(sl, slice)) == TN_IN_PROGRESS) {
                calls++;
                /* the best partial path so far is available between slices */
                tn_search_result pr;
                assert_int_equal(tn_search_get_path(sl, b, w * h, &pr), TN_IN_PROGRESS);
                assert_true(pr.length >= 1);
                assert_true(b[0].x == start.x && b[0].y == start.y);
                assert_true(tn_oracle_path_cost(m, &q.moves, NULL, b, pr.length, start, pr.end) >=
                            0.0);
            }
            assert_int_equal(sb, sa);
            assert_int_equal(tn_search_poll(sl), sa);
            assert_int_equal(tn_search_get_path(sl, b, w * h, &rb), sa);
            assert_int_equal(ra.length, rb.length);
            assert_true(ra.cost == rb.cost);
            assert_int_equal(ra.expanded, rb.expanded);
            assert_int_equal(ra.algo, rb.algo);
            assert_memory_equal(a, b, (size_t)ra.length * sizeof *a);
            assert_true(calls >= (int)((ra.expanded - 1) / slice) - 1);
        }
        free(a);
        free(b);
        tn_search_destroy(one);
        tn_search_destroy(sl);
        tn_map_destroy(m);
    }
}

/* The specialised loops (A* or Dijkstra; 8 neighbours without corner cutting or 4 neighbours,
 * with or without terrain costs; octile, manhattan or zero heuristic) against
 * the generic loop, which a layer of zero extra costs forces (it adds +0.0 to every step, so
 * the keys are the same bits): the same expansions, cells and cost; and one-shot queries
 * against sliced ones (which track partial paths, so they also run the generic loop). On maps of
 * many shapes, one-cell-wide strips included, with weights, with and without mud. */
static void test_fast_loop_equals_generic(void **state)
{
    (void)state;
    static const int32_t sizes[][2] = {{1, 37}, {37, 1}, {64, 48}, {97, 13}, {13, 97}, {2, 2}};
    static const tn_heuristic heur[] = {TN_HEURISTIC_AUTO, TN_HEURISTIC_OCTILE, TN_HEURISTIC_ZERO,
                                        TN_HEURISTIC_MANHATTAN};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (uint64_t seed = 1; seed <= 4; seed++) {
            int32_t w = sizes[si][0], h = sizes[si][1];
            tn_map *m =
                tn_test_random_map(w, h, 0.1 * (double)((seed - 1) % 3 + 1), seed * 31 + si);
            if (seed > 2)
                tn_test_add_mud(m, 0.3, seed * 7 + si);
            if (tn_map_passable_count(m) == 0) {
                tn_map_destroy(m);
                continue;
            }
            tn_search *one = new_search(w * h), *sl = new_search(w * h), *gen = new_search(w * h);
            tn_cell *a = malloc((size_t)(w * h) * sizeof *a);
            tn_cell *b = malloc((size_t)(w * h) * sizeof *b);
            double *dist = malloc((size_t)(w * h) * sizeof *dist);
            float *zero = calloc((size_t)(w * h), sizeof *zero);
            assert_true(a && b && dist && zero);
            tn_test_rng r = {seed + 100 * si};
            for (int k = 0; k < 48; k++) {
                tn_query q;
                memset(&q, 0, sizeof q);
                q.algo = k % 4 == 3 ? TN_ALGO_DIJKSTRA : TN_ALGO_ASTAR;
                q.heuristic = heur[(k / 2) % 4];
                q.weight = k % 5 == 4 ? 1.5 : 0.0;
                q.moves.diagonal = k % 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
                tn_cell start = tn_test_random_open_cell(m, &r),
                        goal = tn_test_random_open_cell(m, &r);
                tn_search_result ra, rb;
                tn_status sa = tn_search_path(one, m, start, goal, &q, a, w * h, &ra);
                /* the generic loop */
                tn_query qg = q;
                qg.extra = zero;
                tn_status sg = tn_search_path(gen, m, start, goal, &qg, b, w * h, &rb);
                assert_int_equal(sg, sa);
                assert_int_equal(ra.expanded, rb.expanded);
                assert_int_equal(ra.length, rb.length);
                assert_true(fabs(ra.cost - rb.cost) <= 1e-12 * (1.0 + ra.cost));
                assert_memory_equal(a, b, (size_t)ra.length * sizeof *a);
                /* sliced */
                assert_int_equal(tn_search_begin(sl, m, start, &goal, 1, &q), TN_IN_PROGRESS);
                tn_status sb;
                while ((sb = tn_search_step(sl, 1 + (int64_t)tn_test_below(&r, 50))) ==
                       TN_IN_PROGRESS) {
                }
                assert_int_equal(sb, sa);
                assert_int_equal(tn_search_get_path(sl, b, w * h, &rb), sa);
                assert_int_equal(ra.expanded, rb.expanded);
                assert_int_equal(ra.length, rb.length);
                assert_true(ra.cost == rb.cost);
                assert_memory_equal(a, b, (size_t)ra.length * sizeof *a);
                if (sa == TN_OK) {
                    double c = tn_oracle_path_cost(m, &q.moves, NULL, a, ra.length, start, goal);
                    assert_true(close_to(c, ra.cost));
                    if (tn_map_uniform_cost(m))
                        assert_true(documented_cost(m, &q.moves, a, ra.length, c) == ra.cost);
                }
                if (q.weight == 0.0 && admissible(q.heuristic, q.moves.diagonal)) {
                    /* and optimal: the brute-force reference's distance */
                    tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
                    double d = dist[goal.y * w + goal.x];
                    if (sa == TN_OK)
                        assert_true(fabs(ra.cost - d) <= 1e-9 * (1.0 + d));
                    else
                        assert_true(sa == TN_NO_PATH && isinf(d));
                }
            }
            free(a);
            free(b);
            free(dist);
            free(zero);
            tn_search_destroy(one);
            tn_search_destroy(sl);
            tn_search_destroy(gen);
            tn_map_destroy(m);
        }
    }
}

static void test_sliced_states(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(30, 30, 0.1, 3);
    tn_search *s = new_search(900);
    tn_cell start = {0, 0}, goal = {29, 29}, path[900];
    assert_true(tn_map_set(m, 0, 0, 0, 0) == TN_OK && tn_map_set(m, 0, 29, 29, 0) == TN_OK);
    tn_search_result res;
    assert_int_equal(tn_search_poll(s), TN_E_STATE);
    assert_int_equal(tn_search_step(s, 10), TN_E_STATE);
    assert_int_equal(tn_search_get_path(s, path, 900, &res), TN_E_STATE);
    assert_int_equal(tn_search_begin(s, m, start, &goal, 1, NULL), TN_IN_PROGRESS);
    assert_int_equal(tn_search_step(s, 0), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_step(s, 3), TN_IN_PROGRESS);
    tn_search_cancel(s);
    assert_int_equal(tn_search_poll(s), TN_E_STATE);
    assert_int_equal(tn_search_step(s, 3), TN_E_STATE);
    /* a new query after cancel gives the one-shot answer */
    assert_int_equal(tn_search_begin(s, m, start, &goal, 1, NULL), TN_IN_PROGRESS);
    tn_status st;
    while ((st = tn_search_step(s, 5)) == TN_IN_PROGRESS) {
    }
    assert_int_equal(st, TN_OK);
    tn_search_result r2;
    assert_int_equal(tn_search_get_path(s, path, 900, &res), TN_OK);
    assert_int_equal(tn_search_path(s, m, start, goal, NULL, path, 900, &r2), TN_OK);
    assert_true(res.cost == r2.cost);
    /* an edit between slices is reported */
    assert_int_equal(tn_search_begin(s, m, start, &goal, 1, NULL), TN_IN_PROGRESS);
    assert_int_equal(tn_search_step(s, 2), TN_IN_PROGRESS);
    assert_int_equal(tn_map_set(m, 0, 10, 10, 1), TN_OK);
    assert_int_equal(tn_search_step(s, 2), TN_E_MAP_CHANGED);
    assert_int_equal(tn_search_poll(s), TN_E_MAP_CHANGED);
    /* and the context is usable again */
    assert_int_equal(tn_search_path(s, m, start, goal, NULL, path, 900, &r2), TN_OK);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* Begins a sliced query to `goal` from a goal array on this function's stack, which is gone
 * when the caller steps it (the usual pattern: a helper starts the query, the frame loop
 * steps it). */
static tn_status begin_from_stack(tn_search *s, const tn_map *m, tn_cell start, int32_t gx,
                                  int32_t gy, int32_t count)
{
    tn_cell goals[8];
    for (int32_t k = 0; k < count; k++)
        goals[k] = (tn_cell){gx - k, gy};
    return tn_search_begin(s, m, start, goals, count, NULL);
}

/* A sliced query copies its goals (found by a stranger: it kept the caller's pointer, so an
 * array reused or gone before the query ended left a goal mark behind, and a later one-shot
 * query stopped at that old goal and returned TN_OK). */
static void test_sliced_goals_are_copied(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(10, 3, 0.0, 1);
    tn_search *s = new_search(30);
    tn_cell path[64];
    tn_search_result res;
    /* the array reused before cancel: the next one-shot query must reach its own goal */
    tn_cell goals[1] = {{5, 1}};
    assert_int_equal(tn_search_begin(s, m, (tn_cell){0, 0}, goals, 1, NULL), TN_IN_PROGRESS);
    goals[0] = (tn_cell){9, 2};
    tn_search_cancel(s);
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 1}, (tn_cell){9, 1}, NULL, path, 64, &res),
                     TN_OK);
    assert_int_equal(res.length, 10);
    assert_true(path[9].x == 9 && path[9].y == 1);
    /* the same, replaced by a new sliced query instead of cancelled */
    goals[0] = (tn_cell){5, 1};
    assert_int_equal(tn_search_begin(s, m, (tn_cell){0, 0}, goals, 1, NULL), TN_IN_PROGRESS);
    goals[0] = (tn_cell){9, 2};
    assert_int_equal(tn_search_begin(s, m, (tn_cell){0, 1}, goals, 1, NULL), TN_IN_PROGRESS);
    tn_status st;
    while ((st = tn_search_step(s, 1)) == TN_IN_PROGRESS) {
    }
    assert_int_equal(st, TN_OK);
    assert_int_equal(tn_search_get_path(s, path, 64, &res), TN_OK);
    assert_true(path[res.length - 1].x == 9 && path[res.length - 1].y == 2);
    /* goals from a frame that has returned, stepped later, one and several of them (the
     * multi-goal heuristic reads them at every node) */
    for (int32_t count = 1; count <= 8; count += 7) {
        assert_int_equal(begin_from_stack(s, m, (tn_cell){0, 0}, 9, 2, count), TN_IN_PROGRESS);
        tn_cell other[8];
        for (int k = 0; k < 8; k++) /* likely where the helper's frame was */
            other[k] = (tn_cell){1, 1};
        (void)other;
        while ((st = tn_search_step(s, 1)) == TN_IN_PROGRESS) {
        }
        assert_int_equal(st, TN_OK);
        assert_int_equal(tn_search_get_path(s, path, 64, &res), TN_OK);
        tn_cell end = path[res.length - 1], goals2[8];
        for (int32_t k = 0; k < count; k++)
            goals2[k] = (tn_cell){9 - k, 2};
        tn_search_result one;
        assert_int_equal(
            tn_search_path_multi(s, m, (tn_cell){0, 0}, goals2, count, NULL, path, 64, &one),
            TN_OK);
        assert_true(one.cost == res.cost);
        assert_true(end.x == path[one.length - 1].x && end.y == path[one.length - 1].y);
        assert_true(end.x == 10 - count && end.y == 2);
    }
    /* more goals than any query before: the copy grows */
    tn_cell many[40];
    for (int k = 0; k < 40; k++)
        many[k] = (tn_cell){9, k % 3};
    size_t before = tn_search_memory_bytes(s);
    assert_int_equal(tn_search_begin(s, m, (tn_cell){0, 0}, many, 40, NULL), TN_IN_PROGRESS);
    assert_true(tn_search_memory_bytes(s) > before);
    while ((st = tn_search_step(s, 4)) == TN_IN_PROGRESS) {
    }
    assert_int_equal(st, TN_OK);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* ---- JPS ------------------------------------------------------------------------------- */

static void test_jps_equals_astar(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        int32_t w = 10 + (int32_t)(seed * 7 % 50), h = 8 + (int32_t)(seed * 11 % 40);
        tn_map *m = tn_test_random_map(w, h, 0.05 * (double)(seed % 8), seed + 1000);
        tn_search *s = new_search(w * h);
        tn_cell *a = malloc((size_t)(w * h) * sizeof *a), *b = malloc((size_t)(w * h) * sizeof *b);
        double *dist = malloc((size_t)(w * h) * sizeof *dist);
        tn_jump_table *jt = NULL;
        assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
        assert_true(tn_jump_table_current(jt, m));
        tn_test_rng r = {seed};
        for (int k = 0; k < 8; k++) {
            tn_cell start = tn_test_random_open_cell(m, &r);
            tn_query qa, qj;
            memset(&qa, 0, sizeof qa);
            qa.moves.costs = (tn_step_costs)(k % 2);
            qj = qa;
            qj.algo = TN_ALGO_JPS;
            tn_oracle_dijkstra(m, &qa.moves, NULL, &start, 1, false, dist);
            for (int g = 0; g < 10; g++) {
                tn_cell goal = tn_test_random_open_cell(m, &r);
                tn_search_result ra, rj;
                tn_status sa = tn_search_path(s, m, start, goal, &qa, a, w * h, &ra);
                tn_status sj = tn_search_path(s, m, start, goal, &qj, b, w * h, &rj);
                assert_int_equal(sa, sj);
                assert_int_equal(rj.algo, TN_ALGO_JPS);
                if (sa != TN_OK)
                    continue;
                assert_true(close_to(ra.cost, rj.cost));
                assert_true(close_to(rj.cost, dist[goal.y * w + goal.x]));
                double c = tn_oracle_path_cost(m, &qj.moves, NULL, b, rj.length, start, goal);
                assert_true(close_to(c, rj.cost));
                /* a buffer of exactly the path's length, and one cell less */
                tn_search_result re;
                assert_int_equal(tn_search_path(s, m, start, goal, &qj, a, rj.length, &re), TN_OK);
                assert_int_equal(re.length, rj.length);
                assert_memory_equal(a, b, (size_t)rj.length * sizeof *a);
                assert_int_equal(tn_search_path(s, m, start, goal, &qj, a, rj.length - 1, &re),
                                 TN_E_BUFFER_TOO_SMALL);
                assert_int_equal(re.length, rj.length);
                /* JPS+ over the jump table: the same lengths */
                tn_query qp = qj;
                qp.algo = TN_ALGO_JPS_PLUS;
                qp.jump_table = jt;
                tn_search_result rp;
                assert_int_equal(tn_search_path(s, m, start, goal, &qp, b, w * h, &rp), TN_OK);
                assert_int_equal(rp.algo, TN_ALGO_JPS_PLUS);
                assert_true(close_to(rp.cost, ra.cost));
                c = tn_oracle_path_cost(m, &qp.moves, NULL, b, rp.length, start, goal);
                assert_true(close_to(c, rp.cost));
            }
        }
        tn_jump_table_destroy(jt);
        free(a);
        free(b);
        free(dist);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

/* The octile line from a to b built step by step: diagonal steps while both distances remain
 * (diagonal first) or straight steps along the longer axis while it is the longer (straight
 * first). Returns the cell count. */
static int32_t octile_line(tn_cell a, tn_cell b, bool diagonal_first, tn_cell *out)
{
    int32_t n = 0;
    out[n++] = a;
    while (a.x != b.x || a.y != b.y) {
        int32_t rx = b.x - a.x, ry = b.y - a.y;
        int32_t sx = (rx > 0) - (rx < 0), sy = (ry > 0) - (ry < 0);
        bool diag = diagonal_first ? (rx != 0 && ry != 0) : abs(rx) == abs(ry);
        if (!diag) {
            if (abs(rx) > abs(ry))
                sy = 0;
            else
                sx = 0;
        }
        a.x += sx;
        a.y += sy;
        out[n++] = a;
    }
    return n;
}

/* When an octile line from start to goal is free, JPS and JPS+ return it without a search
 * (diagonal-first preferred); the result is still checked against the oracle. Sparse maps make
 * free lines common, denser ones make them rare. */
static void test_jps_direct_line(void **state)
{
    (void)state;
    int direct_seen[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 12; seed++) {
        int32_t w = 12 + (int32_t)(seed * 5 % 30), h = 9 + (int32_t)(seed * 7 % 25);
        tn_map *m = tn_test_random_map(w, h, 0.02 * (double)(seed % 6), seed + 500);
        tn_search *s = new_search(w * h);
        size_t cells = (size_t)(w * h) + 1;
        tn_cell *path = malloc(cells * sizeof *path), *line = malloc(cells * sizeof *line);
        double *dist = malloc(cells * sizeof *dist);
        tn_jump_table *jt = NULL;
        assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
        tn_test_rng r = {seed * 31};
        for (int k = 0; k < 10; k++) {
            tn_cell start = tn_test_random_open_cell(m, &r);
            tn_query q;
            memset(&q, 0, sizeof q);
            q.moves.costs = (tn_step_costs)(k % 2);
            tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
            for (int g = 0; g < 12; g++) {
                tn_cell goal = tn_test_random_open_cell(m, &r);
                if (goal.x == start.x && goal.y == start.y)
                    continue;
                int32_t n1 = octile_line(start, goal, true, line);
                bool free1 = tn_oracle_path_cost(m, &q.moves, NULL, line, n1, start, goal) >= 0.0;
                int32_t n2 = n1;
                bool free2 = false;
                if (!free1) {
                    n2 = octile_line(start, goal, false, line);
                    free2 = tn_oracle_path_cost(m, &q.moves, NULL, line, n2, start, goal) >= 0.0;
                } else {
                    (void)octile_line(start, goal, true, line);
                }
                for (int a = 0; a < 2; a++) {
                    q.algo = a ? TN_ALGO_JPS_PLUS : TN_ALGO_JPS;
                    q.jump_table = a ? jt : NULL;
                    tn_search_result res;
                    tn_status st = tn_search_path(s, m, start, goal, &q, path, w * h, &res);
                    double want = dist[goal.y * w + goal.x];
                    if (!isfinite(want)) {
                        assert_int_equal(st, TN_NO_PATH);
                        continue;
                    }
                    assert_int_equal(st, TN_OK);
                    assert_true(close_to(res.cost, want));
                    double c =
                        tn_oracle_path_cost(m, &q.moves, NULL, path, res.length, start, goal);
                    assert_true(close_to(c, res.cost));
                    if (free1 || free2) {
                        direct_seen[free1 ? 0 : 1]++;
                        assert_int_equal(res.length, free1 ? n1 : n2);
                        assert_memory_equal(path, line, (size_t)res.length * sizeof *path);
                        assert_int_equal(res.expanded, 1);
                        /* the finished query read again into another buffer */
                        tn_search_result ra;
                        tn_cell *again = malloc(cells * sizeof *again);
                        assert_int_equal(tn_search_get_path(s, again, w * h, &ra), TN_OK);
                        assert_int_equal(ra.length, res.length);
                        assert_memory_equal(again, line, (size_t)ra.length * sizeof *again);
                        assert_true(ra.cost == res.cost);
                        free(again);
                        /* too small a buffer: the length is still reported */
                        tn_search_result rs;
                        assert_int_equal(
                            tn_search_path(s, m, start, goal, &q, path, res.length - 1, &rs),
                            TN_E_BUFFER_TOO_SMALL);
                        assert_int_equal(rs.length, res.length);
                        /* time-sliced: the same line after the first step */
                        assert_int_equal(tn_search_begin(s, m, start, &goal, 1, &q),
                                         TN_IN_PROGRESS);
                        assert_int_equal(tn_search_step(s, 1), TN_OK);
                        assert_int_equal(tn_search_get_path(s, path, w * h, &rs), TN_OK);
                        assert_int_equal(rs.length, res.length);
                        assert_memory_equal(path, line, (size_t)rs.length * sizeof *path);
                        assert_true(rs.cost == res.cost);
                    }
                }
            }
        }
        tn_jump_table_destroy(jt);
        free(path);
        free(line);
        free(dist);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
    /* both kinds of line occurred */
    assert_true(direct_seen[0] > 50);
    assert_true(direct_seen[1] > 5);
}

/* Corridors, rooms and long straight runs crossing the 63-cell blocks of the bitset scan. */
static void test_jps_wide_maps(void **state)
{
    (void)state;
    int32_t w = 300, h = 40;
    tn_map *m = tn_test_random_map(w, h, 0.0, 1);
    tn_test_rng r = {77};
    for (int k = 0; k < 40; k++) {
        int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
        int32_t y0 = (int32_t)tn_test_below(&r, (uint32_t)h),
                len = 3 + (int32_t)tn_test_below(&r, 30);
        for (int32_t y = y0; y < y0 + len && y < h; y++)
            assert_int_equal(tn_map_set(m, 0, x, y, 1), TN_OK);
        int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h),
                x0 = (int32_t)tn_test_below(&r, (uint32_t)w);
        for (int32_t xx = x0; xx < x0 + 5 * len && xx < w; xx++)
            assert_int_equal(tn_map_set(m, 0, xx, y, 1), TN_OK);
    }
    tn_search *s = new_search(w * h);
    tn_cell *a = malloc((size_t)(w * h) * sizeof *a);
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    tn_test_rng q = {5};
    for (int k = 0; k < 300; k++) {
        tn_cell start = tn_test_random_open_cell(m, &q), goal = tn_test_random_open_cell(m, &q);
        tn_query qa, qj;
        memset(&qa, 0, sizeof qa);
        qj = qa;
        qj.algo = TN_ALGO_JPS;
        tn_search_result ra, rj;
        tn_status sa = tn_search_path(s, m, start, goal, &qa, a, w * h, &ra);
        tn_status sj = tn_search_path(s, m, start, goal, &qj, a, w * h, &rj);
        assert_int_equal(sa, sj);
        if (sa == TN_OK) {
            assert_true(close_to(ra.cost, rj.cost));
            assert_true(tn_oracle_path_cost(m, &qj.moves, NULL, a, rj.length, start, goal) >= 0);
        }
        tn_query qp = qj;
        qp.algo = TN_ALGO_JPS_PLUS;
        qp.jump_table = jt;
        tn_search_result rp;
        assert_int_equal(tn_search_path(s, m, start, goal, &qp, a, w * h, &rp), sa);
        if (sa == TN_OK) {
            assert_true(close_to(ra.cost, rp.cost));
            assert_true(tn_oracle_path_cost(m, &qp.moves, NULL, a, rp.length, start, goal) >= 0);
        }
    }
    tn_jump_table_destroy(jt);
    free(a);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

static void test_jps_refuses_or_falls_back(void **state)
{
    (void)state;
    tn_map *m = tn_test_map_from_rows(ROOMS, 12);
    int32_t w = 20, h = 12;
    tn_search *s = new_search(w * h);
    tn_cell path[240], start = {0, 11}, goal = {19, 0};
    tn_search_result res;
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = TN_ALGO_JPS;
    /* the map has mud: weighted JPS (tests/test_jps_weighted.c checks it at length) */
    assert_int_equal(tn_search_path(s, m, start, goal, &q, path, 240, &res), TN_OK);
    assert_int_equal(res.algo, TN_ALGO_JPS);
    double dist[240];
    tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
    assert_true(close_to(res.cost, dist[goal.y * w + goal.x]));
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    tn_query qp;
    memset(&qp, 0, sizeof qp);
    qp.algo = TN_ALGO_JPS_PLUS;
    qp.jump_table = jt;
    assert_int_equal(tn_search_path(s, m, start, goal, &qp, path, 240, &res), TN_OK);
    assert_int_equal(res.algo, TN_ALGO_JPS_PLUS);
    assert_true(close_to(res.cost, dist[goal.y * w + goal.x]));
    tn_jump_table_destroy(jt);
    /* other rules it does not handle */
    tn_map *u = tn_test_random_map(w, h, 0.1, 9);
    assert_true(tn_map_set(u, 0, start.x, start.y, 0) == TN_OK &&
                tn_map_set(u, 0, goal.x, goal.y, 0) == TN_OK);
    float extra[240] = {0};
    tn_query bad[3];
    for (int k = 0; k < 3; k++) {
        memset(&bad[k], 0, sizeof bad[k]);
        bad[k].algo = TN_ALGO_JPS;
    }
    bad[0].moves.diagonal = TN_DIAGONAL_NEVER;
    bad[1].moves.diagonal = TN_DIAGONAL_ONE;
    bad[2].extra = extra;
    for (int k = 0; k < 3; k++)
        assert_int_equal(tn_search_path(s, u, start, goal, &bad[k], path, 240, &res),
                         TN_E_UNSUPPORTED);
    tn_search_destroy(s);
    tn_map_destroy(u);
    tn_map_destroy(m);
}

/* JPS's bitset cache follows map edits. */
static void test_jps_cache_follows_edits(void **state)
{
    (void)state;
    int32_t w = 70, h = 20;
    tn_map *m = tn_test_random_map(w, h, 0.0, 1);
    tn_search *s = new_search(w * h);
    tn_cell path[1400], start = {0, 10}, goal = {69, 10};
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = TN_ALGO_JPS;
    tn_search_result res;
    assert_int_equal(tn_search_path(s, m, start, goal, &q, path, 1400, &res), TN_OK);
    assert_true(close_to(res.cost, 69.0));
    for (int32_t y = 0; y < h - 1; y++)
        assert_int_equal(tn_map_set(m, 0, 35, y, 1), TN_OK);
    assert_int_equal(tn_search_path(s, m, start, goal, &q, path, 1400, &res), TN_OK);
    double dist[1400];
    tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
    assert_true(close_to(res.cost, dist[goal.y * w + goal.x]));
    /* a jump table describes one revision */
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    tn_query qp = q;
    qp.algo = TN_ALGO_JPS_PLUS;
    assert_int_equal(tn_search_path(s, m, start, goal, &qp, path, 1400, &res), TN_E_INVALID_ARG);
    qp.jump_table = jt;
    assert_int_equal(tn_search_path(s, m, start, goal, &qp, path, 1400, &res), TN_OK);
    assert_true(close_to(res.cost, dist[goal.y * w + goal.x]));
    assert_int_equal(tn_map_set(m, 0, 35, h - 1, 1), TN_OK);
    assert_false(tn_jump_table_current(jt, m));
    assert_int_equal(tn_search_path(s, m, start, goal, &qp, path, 1400, &res), TN_E_MAP_CHANGED);
    tn_jump_table_destroy(jt);
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    qp.jump_table = jt;
    assert_int_equal(tn_search_path(s, m, start, goal, &qp, path, 1400, &res), TN_NO_PATH);
    assert_true(tn_jump_table_memory_bytes(jt) >= (size_t)(w * h) * 16u);
    tn_jump_table_destroy(jt);
    tn_jump_table_destroy(NULL);
    assert_int_equal(tn_test_jump_table(NULL, &jt), TN_E_INVALID_ARG);
    tn_jump_table_def jd = tn_jump_table_def_default();
    jd.map = m;
    assert_int_equal(tn_jump_table_build(NULL, &jt), TN_E_INVALID_ARG);
    assert_int_equal(tn_jump_table_build(&jd, NULL), TN_E_INVALID_ARG);
    jd.internal_cookie = 0;
    assert_int_equal(tn_jump_table_build(&jd, &jt), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_path(s, m, start, goal, &q, path, 1400, &res), TN_NO_PATH);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* Brute force for the JPS jump-ahead flags: walking from (x, y) along (dx, dy), is a cell with
 * a forced neighbour (a free side cell whose cell behind is blocked) met before a wall? */
static bool jump_finds_point(const tn_map *m, int32_t x, int32_t y, int32_t dx, int32_t dy)
{
    for (;;) {
        x += dx;
        y += dy;
        if (!tn_map_passable(m, x, y))
            return false;
        for (int32_t side = -1; side <= 1; side += 2) {
            int32_t sx = x + side * dy, sy = y + side * dx; /* perpendicular to the move */
            if (tn_map_passable(m, sx, sy) && !tn_map_passable(m, sx - dx, sy - dy))
                return true;
        }
    }
}

/* The flags JPS keeps for its diagonal steps equal the brute force on every free cell and
 * direction, on widths and heights around the 64-bit word size, and after map edits. */
static void test_jps_ahead_flags(void **state)
{
    (void)state;
    static const int32_t sizes[][2] = {{1, 1},   {2, 3},  {7, 1},   {1, 9},    {63, 5},
                                       {64, 64}, {65, 3}, {5, 127}, {130, 70}, {200, 129}};
    static const int8_t ddx[4] = {1, -1, 0, 0}, ddy[4] = {0, 0, 1, -1};
    int64_t set = 0, clear = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int32_t w = sizes[k][0], h = sizes[k][1];
        for (uint64_t seed = 1; seed <= 4; seed++) {
            tn_map *m = tn_test_random_map(w, h, 0.1 * (double)seed, seed * 31 + (uint64_t)k);
            tn_search *s = new_search(w * h);
            tn_test_rng r = {seed};
            for (int edit = 0; edit < 3; edit++) {
                if (edit > 0) /* flip a few cells: the cache must be rebuilt */
                    for (int e = 0; e < 5; e++) {
                        int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
                        int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h);
                        uint32_t gid = tn_map_passable(m, x, y) ? 1u : 0u;
                        assert_int_equal(tn_map_set(m, 0, x, y, gid), TN_OK);
                    }
                assert_int_equal(tn__jps_cache_for(s, m), TN_OK);
                for (int32_t y = 0; y < h; y++)
                    for (int32_t x = 0; x < w; x++) {
                        if (!tn_map_passable(m, x, y))
                            continue;
                        for (uint32_t d = 0; d < 4; d++) {
                            bool want = jump_finds_point(m, x, y, ddx[d], ddy[d]);
                            if (tn__jps_ahead(s, x, y, d) != want) {
                                printf("flag %u of (%d, %d) on %dx%d seed %llu edit %d\n", d, x, y,
                                       w, h, (unsigned long long)seed, edit);
                                fail();
                            }
                            set += want;
                            clear += !want;
                        }
                    }
            }
            tn_search_destroy(s);
            tn_map_destroy(m);
        }
    }
    assert_true(set > 1000 && clear > 1000); /* both kinds were checked */
}

/* A map replaced by another of the same size (often at the same address): the JPS cache and
 * jump tables notice. */
static void test_jps_cache_map_replaced(void **state)
{
    (void)state;
    int32_t w = 60, h = 40;
    tn_search *s = new_search(w * h);
    tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
    uint32_t *gids = malloc((size_t)(w * h) * sizeof *gids);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        /* every map goes through the same edits, so all end at the same revision */
        tn_map_def d = tn_map_def_default();
        d.width = w;
        d.height = h;
        tn_map *m = NULL;
        assert_int_equal(tn_map_create(&d, &m), TN_OK);
        assert_int_equal(tn_map_add_layer(m, "ground", TN_LAYER_TILES, NULL), TN_OK);
        assert_int_equal(tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}), TN_OK);
        tn_test_rng r = {seed};
        for (int32_t i = 0; i < w * h; i++)
            gids[i] = tn_test_u01(&r) < 0.3 ? 1u : 0u;
        gids[0] = gids[w * h - 1] = 0;
        assert_int_equal(tn_map_set_layer_data(m, 0, gids, w * h), TN_OK);
        tn_query qa, qj;
        memset(&qa, 0, sizeof qa);
        qj = qa;
        qj.algo = TN_ALGO_JPS;
        tn_search_result ra, rj;
        tn_status sa =
            tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){w - 1, h - 1}, &qa, path, w * h, &ra);
        tn_status sj =
            tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){w - 1, h - 1}, &qj, path, w * h, &rj);
        assert_int_equal(sa, sj);
        if (sa == TN_OK)
            assert_true(close_to(ra.cost, rj.cost));
        tn_map_destroy(m);
    }
    free(gids);
    free(path);
    tn_search_destroy(s);
}

/* ---- weighted A*, budgets ---------------------------------------------------------------- */

static void test_weighted_and_partial(void **state)
{
    (void)state;
    int32_t w = 40, h = 40;
    tn_map *m = tn_test_random_map(w, h, 0.25, 11);
    tn_search *s = new_search(w * h);
    tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
    double *dist = malloc((size_t)(w * h) * sizeof *dist);
    tn_test_rng r = {3};
    for (int k = 0; k < 20; k++) {
        tn_cell start = tn_test_random_open_cell(m, &r), goal = tn_test_random_open_cell(m, &r);
        tn_query q;
        memset(&q, 0, sizeof q);
        tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
        double opt = dist[goal.y * w + goal.x];
        if (!isfinite(opt))
            continue;
        tn_search_result r1, rw;
        assert_int_equal(tn_search_path(s, m, start, goal, &q, path, w * h, &r1), TN_OK);
        q.weight = 2.5;
        assert_int_equal(tn_search_path(s, m, start, goal, &q, path, w * h, &rw), TN_OK);
        assert_true(rw.cost >= opt - 1e-9 && rw.cost <= 2.5 * opt + 1e-9);
        assert_true(tn_oracle_path_cost(m, &q.moves, NULL, path, rw.length, start, goal) >= 0);
        /* a budget smaller than the work gives a partial path towards the goal */
        if (r1.expanded > 3) {
            q.weight = 0;
            q.max_expansions = r1.expanded / 2;
            tn_search_result rp;
            assert_int_equal(tn_search_path(s, m, start, goal, &q, path, w * h, &rp), TN_PARTIAL);
            assert_int_equal(rp.expanded, q.max_expansions);
            double c = tn_oracle_path_cost(m, &q.moves, NULL, path, rp.length, start, rp.end);
            assert_true(close_to(c, rp.cost));
            assert_true(close_to(rp.cost, dist[rp.end.y * w + rp.end.x]));
            assert_true(octile(rp.end, goal) <= octile(start, goal) + 1e-9);
        }
        /* JPS: the budget counts its expansion of the start too */
        tn_query qj;
        memset(&qj, 0, sizeof qj);
        qj.algo = TN_ALGO_JPS;
        tn_search_result rj, rjp;
        assert_int_equal(tn_search_path(s, m, start, goal, &qj, path, w * h, &rj), TN_OK);
        for (int64_t budget = 1; budget < rj.expanded; budget += 1 + budget / 2) {
            qj.max_expansions = budget;
            assert_int_equal(tn_search_path(s, m, start, goal, &qj, path, w * h, &rjp), TN_PARTIAL);
            assert_int_equal(rjp.expanded, budget);
        }
        qj.max_expansions = rj.expanded;
        assert_int_equal(tn_search_path(s, m, start, goal, &qj, path, w * h, &rjp), TN_OK);
        assert_int_equal(rjp.expanded, rj.expanded);
    }
    free(path);
    free(dist);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* Weighted A* (and JPS with a weight) on maps without walls: every step towards the goal
 * lowers f = g + w * h, every other step raises it, so the search walks straight and its path
 * is a shortest one. Regression: with the f-level stack on, keys below the level went on the
 * LIFO stack and the search ran depth-first (a 30x30 open map, (0,0) -> (20,0), w = 1.5:
 * cost 27.46 instead of 20). Also under 4 moves (manhattan) and with manhattan on 8 moves,
 * whose keys can fall below the level the same way. */
static void test_weighted_open_maps_straight(void **state)
{
    (void)state;
    tn_test_rng r = {77};
    for (int round = 0; round < 40; round++) {
        int32_t w = 8 + (int32_t)tn_test_below(&r, 40), h = 8 + (int32_t)tn_test_below(&r, 40);
        tn_map *m = tn_test_random_map(w, h, 0.0, (uint64_t)round);
        tn_search *s = new_search(w * h);
        tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
        double *dist = malloc((size_t)(w * h) * sizeof *dist);
        static const double weights[] = {1.25, 1.5, 2.0, 3.0, 5.0};
        for (int k = 0; k < 12; k++) {
            tn_cell start = tn_test_random_open_cell(m, &r), goal = tn_test_random_open_cell(m, &r);
            tn_query q;
            memset(&q, 0, sizeof q);
            q.moves.diagonal = k % 3 == 0 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
            q.weight = weights[tn_test_below(&r, 5)];
            if (k % 3 == 2) /* manhattan with diagonals: inadmissible, keys fall below the level */
                q.heuristic = TN_HEURISTIC_MANHATTAN;
            tn_oracle_dijkstra(m, &q.moves, NULL, &start, 1, false, dist);
            double opt = dist[goal.y * w + goal.x];
            for (int a = 0; a < 2; a++) {
                q.algo = a == 0 ? TN_ALGO_ASTAR : TN_ALGO_JPS;
                q.jps_fallback = true;
                tn_search_result res;
                assert_int_equal(tn_search_path(s, m, start, goal, &q, path, w * h, &res), TN_OK);
                double c = tn_oracle_path_cost(m, &q.moves, NULL, path, res.length, start, goal);
                assert_true(close_to(c, res.cost));
                if (q.heuristic != TN_HEURISTIC_MANHATTAN || q.moves.diagonal == TN_DIAGONAL_NEVER)
                    assert_true(close_to(res.cost, opt));
                else /* manhattan over diagonals is only greedy: still no doubling back */
                    assert_true(res.cost <= opt * TN_SQRT2 + 1e-9);
            }
        }
        free(path);
        free(dist);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

/* ---- statuses -------------------------------------------------------------------------- */

static void test_no_path_and_errors(void **state)
{
    (void)state;
    const char *const rows[] = {"...#....", "...#....", "####....", "........"};
    tn_map *m = tn_test_map_from_rows(rows, 4);
    tn_search *s = new_search(32);
    tn_cell path[32];
    tn_search_result res;
    for (int a = 0; a < 3; a++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = (tn_algo)a;
        /* walled-off corner */
        assert_int_equal(tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){7, 3}, &q, path, 32, &res),
                         TN_NO_PATH);
        assert_int_equal(res.length, 0);
        assert_int_equal(tn_search_path(s, m, (tn_cell){3, 0}, (tn_cell){7, 3}, &q, path, 32, &res),
                         TN_E_START_BLOCKED);
        assert_int_equal(tn_search_path(s, m, (tn_cell){5, 0}, (tn_cell){3, 1}, &q, path, 32, &res),
                         TN_E_GOAL_BLOCKED);
        assert_int_equal(
            tn_search_path(s, m, (tn_cell){-1, 0}, (tn_cell){7, 3}, &q, path, 32, &res),
            TN_E_OUT_OF_MAP);
        assert_int_equal(tn_search_path(s, m, (tn_cell){5, 0}, (tn_cell){8, 3}, &q, path, 32, &res),
                         TN_E_OUT_OF_MAP);
        assert_int_equal(
            tn_search_path(s, m, (tn_cell){5, 0}, (tn_cell){5, 40}, &q, path, 32, &res),
            TN_E_OUT_OF_MAP);
        /* start = goal */
        assert_int_equal(tn_search_path(s, m, (tn_cell){5, 1}, (tn_cell){5, 1}, &q, path, 32, &res),
                         TN_OK);
        assert_int_equal(res.length, 1);
        assert_true(res.cost == 0.0);
        assert_true(path[0].x == 5 && path[0].y == 1);
        /* around the wall */
        assert_int_equal(tn_search_path(s, m, (tn_cell){4, 0}, (tn_cell){0, 3}, &q, path, 32, &res),
                         TN_OK);
    }
    /* 4-connected: a diagonal gap is no gap */
    const char *const gap[] = {".#", "#."};
    tn_map *g = tn_test_map_from_rows(gap, 2);
    for (int p = 0; p < 4; p++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.moves.diagonal = POLICIES[p];
        tn_status want = POLICIES[p] == TN_DIAGONAL_ALWAYS ? TN_OK : TN_NO_PATH;
        assert_int_equal(tn_search_path(s, g, (tn_cell){0, 0}, (tn_cell){1, 1}, &q, path, 32, &res),
                         want);
    }
    tn_map_destroy(g);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

static void test_buffer_too_small(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(30, 1, 0.0, 1);
    tn_search *s = new_search(30);
    tn_cell path[30];
    tn_search_result res;
    for (int a = 0; a < 3; a++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = (tn_algo)a;
        assert_int_equal(
            tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){29, 0}, &q, path, 10, &res),
            TN_E_BUFFER_TOO_SMALL);
        assert_int_equal(res.length, 30);
        assert_int_equal(tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){29, 0}, &q, NULL, 0, &res),
                         TN_E_BUFFER_TOO_SMALL);
        assert_int_equal(res.length, 30);
        assert_int_equal(
            tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){29, 0}, &q, path, 30, &res), TN_OK);
        assert_true(close_to(res.cost, 29.0));
        for (int32_t i = 0; i < 30; i++)
            assert_true(path[i].x == i && path[i].y == 0);
    }
    tn_search_destroy(s);
    tn_map_destroy(m);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tn_search_def d = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(NULL, &s), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_create(&d, NULL), TN_E_INVALID_ARG);
    tn_search_def bad = d;
    bad.internal_cookie = 0;
    assert_int_equal(tn_search_create(&bad, &s), TN_E_INVALID_ARG);
    assert_null(s);
    bad = d;
    bad.max_cells = -1;
    assert_int_equal(tn_search_create(&bad, &s), TN_E_INVALID_ARG);
    bad.max_cells = TN_MAX_CELLS + 1;
    assert_int_equal(tn_search_create(&bad, &s), TN_E_TOO_LARGE);
    tn_search_destroy(NULL);

    d.max_cells = 50;
    assert_int_equal(tn_search_create(&d, &s), TN_OK);
    assert_true(tn_search_memory_bytes(s) <= 16u * 50u + 2048u); /* cells + the struct */
    assert_int_equal(tn_search_max_cells(s), 50);
    tn_map *m = tn_test_random_map(10, 5, 0.0, 1);
    tn_map *big = tn_test_random_map(10, 6, 0.0, 1);
    tn_cell a = {0, 0}, b = {9, 4}, path[60];
    tn_search_result res;
    tn_query q;
    memset(&q, 0, sizeof q);
    assert_int_equal(tn_search_path(NULL, m, a, b, &q, path, 60, &res), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_path(s, NULL, a, b, &q, path, 60, &res), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_path(s, m, a, b, &q, NULL, 5, &res), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_path(s, m, a, b, &q, path, -1, &res), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_path(s, big, a, b, &q, path, 60, &res), TN_E_TOO_LARGE);
    assert_int_equal(tn_search_path_multi(s, m, a, NULL, 1, &q, path, 60, &res), TN_E_INVALID_ARG);
    assert_int_equal(tn_search_path_multi(s, m, a, &b, 0, &q, path, 60, &res), TN_E_INVALID_ARG);
    tn_query qb = q;
    qb.weight = 0.5;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    qb.weight = (double)NAN;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    qb = q;
    qb.moves.diagonal = (tn_diagonal)9;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    qb = q;
    qb.heuristic = (tn_heuristic)42;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    qb = q;
    qb.algo = (tn_algo)-1;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    qb = q;
    qb.max_expansions = -1;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    qb = q;
    qb.closest_bound = (double)INFINITY;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    float extra[50] = {0};
    extra[7] = -1.0f;
    qb = q;
    qb.extra = extra;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    extra[7] = NAN;
    assert_int_equal(tn_search_path(s, m, a, b, &qb, path, 60, &res), TN_E_INVALID_ARG);
    double dist[60];
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    assert_int_equal(tn_search_distances(s, m, &a, 1, &mv, NULL, false, dist, 10),
                     TN_E_BUFFER_TOO_SMALL);
    double dist0[60]; /* NULL moves: zeroed moves, as a NULL query */
    assert_int_equal(tn_search_distances(s, m, &a, 1, &mv, NULL, false, dist0, 60), TN_OK);
    assert_int_equal(tn_search_distances(s, m, &a, 1, NULL, NULL, false, dist, 60), TN_OK);
    assert_memory_equal(dist, dist0,
                        (size_t)tn_map_width(m) * (size_t)tn_map_height(m) * sizeof *dist);
    tn_moves bad_mv = {(tn_diagonal)9, TN_COSTS_EXACT};
    assert_int_equal(tn_search_distances(s, m, &a, 1, &bad_mv, NULL, false, dist, 60),
                     TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "moves"));
    assert_int_equal(tn_search_distances(s, m, &a, 0, &mv, NULL, false, dist, 60),
                     TN_E_INVALID_ARG);
    tn_cell off = {-3, 2};
    assert_int_equal(tn_search_distances(s, m, &off, 1, &mv, NULL, false, dist, 60),
                     TN_E_OUT_OF_MAP);
    /* the context still works */
    assert_int_equal(tn_search_path(s, m, a, b, &q, path, 60, &res), TN_OK);
    /* names */
    tn_heuristic hh;
    tn_algo aa;
    assert_true(tn_heuristic_from_name("octile", &hh) && hh == TN_HEURISTIC_OCTILE);
    assert_true(tn_heuristic_from_name("diagonal", &hh) && hh == TN_HEURISTIC_OCTILE);
    assert_false(tn_heuristic_from_name("nope", &hh));
    assert_true(tn_algo_from_name("jps", &aa) && aa == TN_ALGO_JPS);
    assert_false(tn_algo_from_name("bfs", &aa));
    assert_string_equal(tn_algo_name(TN_ALGO_DIJKSTRA), "dijkstra");
    assert_string_equal(tn_heuristic_name(TN_HEURISTIC_CHEBYSHEV), "chebyshev");
    tn_map_destroy(m);
    tn_map_destroy(big);
    tn_search_destroy(s);
}

/* ---- distance maps ----------------------------------------------------------------------- */

static void test_distance_maps(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        int32_t w = 17, h = 13;
        tn_map *m = tn_test_random_map(w, h, 0.2, seed + 300);
        tn_test_add_mud(m, 0.3, seed);
        float extra[17 * 13];
        tn_test_rng r = {seed};
        for (int32_t i = 0; i < w * h; i++)
            extra[i] = tn_test_u01(&r) < 0.2 ? 2.0f : 0.0f;
        tn_search *s = new_search(w * h);
        double a[17 * 13], b[17 * 13];
        for (int k = 0; k < 8; k++) {
            tn_moves mv = {POLICIES[k % 4], (tn_step_costs)((k / 4) % 2)};
            tn_cell src[3];
            int32_t ns = 1 + (int32_t)(seed % 3);
            for (int32_t j = 0; j < ns; j++)
                src[j] = tn_test_random_open_cell(m, &r);
            const float *ex = k % 3 == 0 ? extra : NULL;
            bool rev = k % 2 == 1;
            assert_int_equal(tn_search_distances(s, m, src, ns, &mv, ex, rev, a, w * h), TN_OK);
            tn_oracle_dijkstra(m, &mv, ex, src, ns, rev, b);
            for (int32_t i = 0; i < w * h; i++) {
                if (isinf(b[i]))
                    assert_true(isinf(a[i]));
                else
                    assert_true(close_to(a[i], b[i]));
            }
        }
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

/* The written-out distance loop (8 neighbours without corner cutting, or 4; no extra layer)
 * against the generic one, which a layer of zero extra costs forces: every distance the same
 * double, on maps of many shapes, with and without mud, both step costs, both directions,
 * several (and repeated) sources; and queries on the same context before and after it
 * unchanged. */
static void test_distance_maps_fast_equals_generic(void **state)
{
    (void)state;
    static const int32_t sizes[][2] = {{1, 29}, {29, 1}, {61, 47}, {90, 11}, {2, 2}};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            const int32_t w = sizes[si][0], h = sizes[si][1], n = w * h;
            tn_map *m = tn_test_random_map(w, h, 0.08 * (double)seed, seed * 13 + si);
            if (seed % 2 == 0)
                tn_test_add_mud(m, 0.3, seed + 40 * si);
            if (tn_map_passable_count(m) == 0) {
                tn_map_destroy(m);
                continue;
            }
            tn_search *s = new_search(n), *fresh = new_search(n);
            double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
            float *zero = calloc((size_t)n, sizeof *zero);
            tn_cell *p = malloc((size_t)n * sizeof *p), *q = malloc((size_t)n * sizeof *q);
            assert_true(a && b && zero && p && q);
            tn_test_rng r = {seed * 5 + si};
            for (int k = 0; k < 8; k++) {
                tn_moves mv = {k % 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT,
                               (tn_step_costs)((k / 2) % 2)};
                tn_cell src[4];
                int32_t ns = 1 + (int32_t)tn_test_below(&r, 3);
                for (int32_t j = 0; j < ns; j++)
                    src[j] = tn_test_random_open_cell(m, &r);
                src[ns] = src[0]; /* a repeated source */
                const bool rev = k >= 4;
                /* a JPS query first: the distances must not disturb the context */
                tn_query jq;
                memset(&jq, 0, sizeof jq);
                jq.algo = TN_ALGO_JPS;
                tn_cell ga = tn_test_random_open_cell(m, &r), gb = tn_test_random_open_cell(m, &r);
                tn_search_result r1, r2;
                tn_status s1 = tn_search_path(s, m, ga, gb, &jq, p, n, &r1);
                assert_int_equal(tn_search_distances(s, m, src, ns + 1, &mv, NULL, rev, a, n),
                                 TN_OK);
                assert_int_equal(tn_search_distances(s, m, src, ns + 1, &mv, zero, rev, b, n),
                                 TN_OK);
                assert_memory_equal(a, b, (size_t)n * sizeof *a);
                tn_status s2 = tn_search_path(s, m, ga, gb, &jq, q, n, &r2);
                assert_int_equal(s1, s2);
                assert_int_equal(r1.expanded, r2.expanded);
                assert_int_equal(r1.length, r2.length);
                assert_memory_equal(p, q, (size_t)r1.length * sizeof *p);
                tn_query aq;
                memset(&aq, 0, sizeof aq);
                aq.moves = mv;
                s1 = tn_search_path(s, m, ga, gb, &aq, p, n, &r1);
                s2 = tn_search_path(fresh, m, ga, gb, &aq, q, n, &r2);
                assert_int_equal(s1, s2);
                assert_int_equal(r1.expanded, r2.expanded);
                assert_memory_equal(p, q, (size_t)r1.length * sizeof *p);
            }
            free(a);
            free(b);
            free(zero);
            free(p);
            free(q);
            tn_search_destroy(s);
            tn_search_destroy(fresh);
            tn_map_destroy(m);
        }
}

/* ---- the map is never written ---------------------------------------------------------------- */

/* A context left at the default max_cells (0) sizes itself by each map it meets, past the old
 * 65536-cell default too: its paths and distances equal those of a context created for exactly
 * that map, and on the small maps the oracle's; it never shrinks. */
static void test_growing_context(void **state)
{
    (void)state;
    tn_search_def d = tn_search_def_default();
    assert_int_equal(d.max_cells, 0);
    tn_search *grow = NULL;
    assert_int_equal(tn_search_create(&d, &grow), TN_OK);
    assert_int_equal(tn_search_max_cells(grow), 0);
    static const int32_t sizes[][2] = {{5, 4}, {40, 30}, {300, 240}, {10, 10}, {301, 241}};
    int32_t most = 0;
    tn_test_rng r = {77};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int32_t w = sizes[k][0], h = sizes[k][1];
        tn_map *m = tn_test_random_map(w, h, 0.25, 100 + k);
        tn_search_def fd = tn_search_def_default();
        fd.max_cells = w * h;
        tn_search *fixed = NULL;
        assert_int_equal(tn_search_create(&fd, &fixed), TN_OK);
        size_t cap = (size_t)w * (size_t)h;
        tn_cell *p1 = malloc(cap * sizeof *p1), *p2 = malloc(cap * sizeof *p2);
        assert_non_null(p1);
        assert_non_null(p2);
        for (int i = 0; i < 20; i++) {
            tn_cell a = tn_test_random_open_cell(m, &r), b = tn_test_random_open_cell(m, &r);
            for (int algo = 0; algo <= (int)TN_ALGO_JPS; algo++) {
                tn_query q;
                memset(&q, 0, sizeof q);
                q.algo = (tn_algo)algo;
                tn_search_result r1, r2;
                tn_status s1 = tn_search_path(grow, m, a, b, &q, p1, (int32_t)cap, &r1);
                tn_status s2 = tn_search_path(fixed, m, a, b, &q, p2, (int32_t)cap, &r2);
                assert_int_equal(s1, s2);
                if (s1 == TN_OK) {
                    assert_int_equal(r1.length, r2.length);
                    assert_true(r1.cost == r2.cost);
                    assert_memory_equal(p1, p2, (size_t)r1.length * sizeof *p1);
                }
            }
        }
        if (w * h <= 1200) { /* the oracle is O(cells^2) */
            tn_cell src = tn_test_random_open_cell(m, &r);
            double *dg = malloc(cap * sizeof *dg), *dor = malloc(cap * sizeof *dor);
            assert_non_null(dg);
            assert_non_null(dor);
            tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
            assert_int_equal(
                tn_search_distances(grow, m, &src, 1, &mv, NULL, false, dg, (int32_t)cap), TN_OK);
            tn_oracle_dijkstra(m, &mv, NULL, &src, 1, false, dor);
            for (size_t c = 0; c < cap; c++)
                assert_true(isinf(dor[c]) ? isinf(dg[c]) : fabs(dg[c] - dor[c]) < 1e-9);
            free(dg);
            free(dor);
        }
        most = w * h > most ? w * h : most;
        assert_int_equal(tn_search_max_cells(grow), most);
        free(p1);
        free(p2);
        tn_search_destroy(fixed);
        tn_map_destroy(m);
    }
    assert_true(tn_search_memory_bytes(grow) >= 16u * (size_t)most);
    tn_search_destroy(grow);
}

/* JPS's open list keeps its keys in an array of its own (8 bytes per cell), allocated by the
 * first JPS query and again after the arrays grow: the context reports what it holds, a failed
 * allocation is TN_E_NOMEM with the context still usable, and the paths equal A*'s costs. */
static void test_jps_open_list_memory(void **state)
{
    (void)state;
    tn_test_counter ca = {0, 0, -1, false, false};
    tn_search_def d = tn_search_def_default();
    d.allocator = (tn_allocator){tn_test_count_alloc, tn_test_count_free, &ca};
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&d, &s), TN_OK);
    tn_test_rng r = {31};
    static const int32_t sizes[][2] = {{40, 30}, {20, 20}, {90, 70}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int32_t w = sizes[k][0], h = sizes[k][1];
        tn_map *m = tn_test_random_map(w, h, 0.2, 900 + k);
        tn_test_add_mud(m, 0.3, 900 + k);
        tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
        assert_non_null(path);
        for (int i = 0; i < 30; i++) {
            tn_cell a = tn_test_random_open_cell(m, &r), b = tn_test_random_open_cell(m, &r);
            tn_query q;
            memset(&q, 0, sizeof q);
            tn_search_result ra, rj;
            tn_status sa = tn_search_path(s, m, a, b, &q, path, w * h, &ra);
            assert_int_equal(tn_search_memory_bytes(s), ca.outstanding);
            q.algo = TN_ALGO_JPS;
            if (i == 0) { /* the first JPS query on each map allocates (the open list's keys
                           * after the arrays grew, the JPS cache): make it fail */
                ca.fail_after = ca.calls;
                assert_int_equal(tn_search_path(s, m, a, b, &q, path, w * h, &rj), TN_E_NOMEM);
                ca.fail_after = -1;
                assert_int_equal(tn_search_memory_bytes(s), ca.outstanding);
            }
            tn_status sj = tn_search_path(s, m, a, b, &q, path, w * h, &rj);
            assert_int_equal(sj, sa);
            if (sa == TN_OK)
                assert_true(fabs(rj.cost - ra.cost) <= 1e-9 * (1.0 + ra.cost));
            assert_int_equal(tn_search_memory_bytes(s), ca.outstanding);
        }
        assert_true(tn_search_memory_bytes(s) >= 24u * (size_t)tn_search_max_cells(s));
        free(path);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
    assert_int_equal(ca.outstanding, 0);
    assert_false(ca.bad_free);
}

/* Every allocation of a context's arrays failing in turn, at create (max_cells set) and at the
 * first query of a context that sizes itself: TN_E_NOMEM, and every block given back with the
 * size it was allocated with (found by a stranger: the arrays allocated before the failure
 * were freed with size 1, which a pool allocator would take for another block). */
static void test_array_failures(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(40, 25, 0.2, 77);
    tn_cell path[1000];
    int nomem = 0;
    for (long k = 0; k < 6; k++)
        for (int grow = 0; grow < 2; grow++) {
            tn_test_counter ca = {0, 0, k, false, true};
            tn_search_def d = tn_search_def_default();
            d.allocator = (tn_allocator){tn_test_count_alloc, tn_test_count_free, &ca};
            d.max_cells = grow ? 0 : 1000;
            tn_search *s = NULL;
            tn_status st = tn_search_create(&d, &s);
            if (st == TN_OK) {
                tn_cell a = {0, 0}, b = {39, 24};
                assert_int_equal(tn_map_set(m, 0, 0, 0, 0), TN_OK);
                assert_int_equal(tn_map_set(m, 0, 39, 24, 0), TN_OK);
                st = tn_search_path(s, m, a, b, NULL, path, 1000, NULL);
                assert_true(st == TN_OK || st == TN_NO_PATH || st == TN_E_NOMEM);
                tn_search_destroy(s);
            } else {
                assert_null(s);
            }
            nomem += st == TN_E_NOMEM;
            assert_false(ca.bad_free);
            assert_int_equal(ca.outstanding, 0);
        }
    assert_true(nomem >= 4);
    tn_map_destroy(m);
}

static void test_map_unchanged(void **state)
{
    (void)state;
    int32_t w = 50, h = 40;
    tn_map *m = tn_test_random_map(w, h, 0.2, 5);
    tn_test_add_mud(m, 0.1, 5);
    size_t n = (size_t)(w * h);
    uint8_t *pass = malloc(n);
    float *cost = malloc(n * sizeof *cost);
    uint32_t *gids = malloc(n * sizeof *gids);
    memcpy(pass, tn_map_passable_data(m), n);
    memcpy(cost, tn_map_cost_data(m), n * sizeof *cost);
    memcpy(gids, tn_map_layer_data(m, 0), n * sizeof *gids);
    uint64_t rev = tn_map_revision(m);
    tn_search *s = new_search(w * h);
    tn_cell *path = malloc(n * sizeof *path);
    double *dist = malloc(n * sizeof *dist);
    tn_test_rng r = {9};
    const tn_map *cm = m;
    for (int k = 0; k < 60; k++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = (tn_algo)(k % 3);
        q.jps_fallback = true;
        q.closest = k % 5 == 0;
        tn_cell a = tn_test_random_open_cell(cm, &r), b = tn_test_random_open_cell(cm, &r);
        tn_search_result res;
        tn_status st = tn_search_path(s, cm, a, b, &q, path, (int32_t)n, &res);
        assert_true(st >= 0);
    }
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    tn_cell a = tn_test_random_open_cell(cm, &r);
    assert_int_equal(tn_search_distances(s, cm, &a, 1, &mv, NULL, false, dist, (int32_t)n), TN_OK);
    assert_memory_equal(pass, tn_map_passable_data(m), n);
    assert_memory_equal(cost, tn_map_cost_data(m), n * sizeof *cost);
    assert_memory_equal(gids, tn_map_layer_data(m, 0), n * sizeof *gids);
    assert_true(tn_map_revision(m) == rev);
    free(pass);
    free(cost);
    free(gids);
    free(path);
    free(dist);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* Many queries on one context: generation stamps never leak state between queries. */
/* The division-free row of a cell index equals the division for every map shape the library
 * accepts: all widths up to 1024 and random ones up to TN_MAX_DIM, at the first, second and
 * last rows, random rows, and both ends of each row. */
static void check_rows_of_width(uint32_t w, tn_test_rng *r)
{
    uint64_t m = row_divider((int32_t)w);
    uint32_t rows = (uint32_t)((uint64_t)TN_MAX_CELLS / w);
    if (rows > TN_MAX_DIM)
        rows = TN_MAX_DIM;
    uint32_t pick[8] = {0, 1, 2, rows - 1, rows - 2, 0, 0, 0};
    for (int k = 5; k < 8; k++)
        pick[k] = tn_test_below(r, rows);
    for (int k = 0; k < 8; k++) {
        uint32_t y = pick[k] < rows ? pick[k] : 0;
        uint32_t ends[3] = {y * w, y * w + w - 1, y * w + tn_test_below(r, w)};
        for (int e = 0; e < 3; e++)
            if (row_of_index(m, ends[e]) != (int32_t)(ends[e] / w)) {
                fail_msg("row of %u with w=%u: %d, expected %u", ends[e], w,
                         row_of_index(m, ends[e]), ends[e] / w);
            }
    }
}

static void test_row_of_index(void **state)
{
    (void)state;
    tn_test_rng r = {77};
    for (uint32_t w = 1; w <= 1024; w++)
        check_rows_of_width(w, &r);
    for (uint32_t w = TN_MAX_DIM - 64; w <= TN_MAX_DIM; w++)
        check_rows_of_width(w, &r);
    for (int k = 0; k < 20000; k++)
        check_rows_of_width(1 + tn_test_below(&r, TN_MAX_DIM), &r);
}

/* JPS computes the octile heuristic with search_h_octile(), not through search_h1(): the two
 * agree bit for bit (the expansion order and the rebuilt costs depend on it), for random cells
 * and goals and the weights of every step-cost set, cost floor and weight. */
static void test_octile_heuristic_same(void **state)
{
    (void)state;
    tn_search s;
    memset(&s, 0, sizeof s);
    tn_test_rng r = {91};
    static const double bases[][2] = {{1.0, TN_SQRT2}, {10.0, 14.0}};
    for (int k = 0; k < 200000; k++) {
        const double mul = (0.05 + 4.0 * tn_test_u01(&r)) * (1.0 + 1.0 / 1099511627776.0);
        s.hkind = k & 1 ? TN_HEURISTIC_OCTILE : TN_HEURISTIC_AUTO;
        s.hstr = bases[k >> 1 & 1][0] * mul;
        s.hdiag = (bases[k >> 1 & 1][1] - bases[k >> 1 & 1][0]) * mul;
        int32_t x = (int32_t)tn_test_below(&r, TN_MAX_DIM),
                y = (int32_t)tn_test_below(&r, TN_MAX_DIM);
        int32_t gx = (int32_t)tn_test_below(&r, TN_MAX_DIM),
                gy = (int32_t)tn_test_below(&r, TN_MAX_DIM);
        double a = search_h1(&s, x, y, gx, gy), b = search_h_octile(s.hstr, s.hdiag, x, y, gx, gy);
        if (memcmp(&a, &b, sizeof a) != 0)
            fail_msg("octile h of (%d, %d) -> (%d, %d): %.17g != %.17g", x, y, gx, gy, a, b);
    }
}

static void test_context_reuse_deterministic(void **state)
{
    (void)state;
    int32_t w = 32, h = 32;
    tn_map *m = tn_test_random_map(w, h, 0.25, 8);
    tn_search *s = new_search(w * h), *fresh = NULL;
    tn_cell *a = malloc((size_t)(w * h) * sizeof *a), *b = malloc((size_t)(w * h) * sizeof *b);
    double *da = malloc((size_t)(w * h) * sizeof *da), *db = malloc((size_t)(w * h) * sizeof *db);
    tn_test_rng r = {4};
    for (int k = 0; k < 200; k++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = (tn_algo)(k % 3);
        q.moves.diagonal = q.algo == TN_ALGO_JPS ? TN_DIAGONAL_NO_CUT : POLICIES[k % 4];
        q.max_expansions = k % 7 == 0 ? 5 : 0;
        tn_cell st = tn_test_random_open_cell(m, &r), go = tn_test_random_open_cell(m, &r);
        tn_search_result ra, rb;
        tn_status sa = tn_search_path(s, m, st, go, &q, a, w * h, &ra);
        fresh = new_search(w * h);
        tn_status sb = tn_search_path(fresh, m, st, go, &q, b, w * h, &rb);
        tn_search_destroy(fresh);
        assert_int_equal(sa, sb);
        assert_int_equal(ra.length, rb.length);
        assert_int_equal(ra.expanded, rb.expanded);
        assert_true(ra.cost == rb.cost);
        if (sa >= 0 && ra.length > 0)
            assert_memory_equal(a, b, (size_t)ra.length * sizeof *a);
        if (k % 10 == 3) {
            /* a distance map between queries (keys beside the heap entries, like A*, while
             * JPS keeps them by cell): equal to a fresh context's and to the oracle */
            tn_moves mv = {POLICIES[k % 4], TN_COSTS_EXACT};
            fresh = new_search(w * h);
            assert_int_equal(tn_search_distances(s, m, &st, 1, &mv, NULL, false, da, w * h), TN_OK);
            assert_int_equal(tn_search_distances(fresh, m, &st, 1, &mv, NULL, false, db, w * h),
                             TN_OK);
            tn_search_destroy(fresh);
            assert_memory_equal(da, db, (size_t)(w * h) * sizeof *da);
            tn_oracle_dijkstra(m, &mv, NULL, &st, 1, false, db);
            for (int32_t i = 0; i < w * h; i++)
                assert_true(isinf(db[i]) ? isinf(da[i]) : close_to(da[i], db[i]));
        }
    }
    free(a);
    free(b);
    free(da);
    free(db);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

/* ---- Moving AI scenarios --------------------------------------------------------------------- */

static void run_scenario_files(const char *mp, const char *sp, int32_t every)
{
    tn_map *m = NULL;
    tn_scenarios *sc = NULL;
    assert_int_equal(tn_map_load(mp, NULL, &m, NULL), TN_OK);
    assert_int_equal(tn_scenarios_load(sp, NULL, &sc, NULL), TN_OK);
    int32_t n = tn_map_width(m) * tn_map_height(m);
    tn_search *s = new_search(n);
    tn_cell *path = malloc((size_t)n * sizeof *path);
    int32_t mism = 0, count = 0;
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    for (int32_t i = 0; i < tn_scenarios_count(sc); i += every) {
        const tn_scenario *e = tn_scenarios_at(sc, i);
        for (int a = 0; a < 4; a++) {
            if (a == TN_ALGO_DIJKSTRA && i % (every * 8) != 0)
                continue;
            tn_query q;
            memset(&q, 0, sizeof q);
            q.algo = (tn_algo)a;
            q.jump_table = jt;
            tn_search_result res;
            tn_status st = tn_search_path(s, m, e->start, e->goal, &q, path, n, &res);
            double c = st == TN_OK
                           ? tn_oracle_path_cost(m, &mv, NULL, path, res.length, e->start, e->goal)
                           : -1.0;
            if (st != TN_OK || c < 0 || !tn_scenario_matches(e, c))
                mism++;
            count++;
        }
    }
    assert_true(count > 0);
    assert_int_equal(mism, 0);
    tn_jump_table_destroy(jt);
    free(path);
    tn_search_destroy(s);
    tn_scenarios_destroy(sc);
    tn_map_destroy(m);
}

static void run_scenarios(const char *mapname, int32_t every)
{
    char mp[1024], sp[1024], rel[512];
    snprintf(rel, sizeof rel, "bench/movingai/%s.map", mapname);
    tn_test_shared(mp, sizeof mp, rel);
    snprintf(rel, sizeof rel, "bench/movingai/%s.map.scen", mapname);
    tn_test_shared(sp, sizeof sp, rel);
    run_scenario_files(mp, sp, every);
}

/* The repository's own small Moving AI map: every scenario, every algorithm. */
static void test_movingai_tiny(void **state)
{
    (void)state;
    char mp[1024], sp[1024];
    run_scenario_files(tn_test_data(mp, sizeof mp, "movingai/tiny.map"),
                       tn_test_data(sp, sizeof sp, "movingai/tiny.map.scen"), 1);
}

static void test_movingai_arena_all(void **state)
{
    (void)state;
    run_scenarios("dao/arena", 1);
}

static void test_movingai_sample(void **state)
{
    (void)state;
    run_scenarios("dao/den520d", 9);
    run_scenarios("mazes/maze512-1-0", 400);
    run_scenarios("bg512/AR0011SR", 40);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_handmade_all_policies_and_heuristics),
        cmocka_unit_test(test_random_maps),
        cmocka_unit_test(test_random_maps_mud),
        cmocka_unit_test(test_random_maps_extra_layer),
        cmocka_unit_test(test_mud_detour_and_straight),
        cmocka_unit_test(test_multi_goal),
        cmocka_unit_test(test_strawberry_bushes),
        cmocka_unit_test(test_closest_reachable),
        cmocka_unit_test(test_sliced_equals_one_shot),
        cmocka_unit_test(test_fast_loop_equals_generic),
        cmocka_unit_test(test_sliced_states),
        cmocka_unit_test(test_sliced_goals_are_copied),
        cmocka_unit_test(test_closest_bound_inclusive),
        cmocka_unit_test(test_array_failures),
        cmocka_unit_test(test_jps_equals_astar),
        cmocka_unit_test(test_jps_direct_line),
        cmocka_unit_test(test_jps_wide_maps),
        cmocka_unit_test(test_jps_refuses_or_falls_back),
        cmocka_unit_test(test_jps_cache_follows_edits),
        cmocka_unit_test(test_jps_ahead_flags),
        cmocka_unit_test(test_jps_cache_map_replaced),
        cmocka_unit_test(test_weighted_and_partial),
        cmocka_unit_test(test_weighted_open_maps_straight),
        cmocka_unit_test(test_no_path_and_errors),
        cmocka_unit_test(test_buffer_too_small),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_distance_maps),
        cmocka_unit_test(test_distance_maps_fast_equals_generic),
        cmocka_unit_test(test_growing_context),
        cmocka_unit_test(test_jps_open_list_memory),
        cmocka_unit_test(test_octile_heuristic_same),
        cmocka_unit_test(test_map_unchanged),
        cmocka_unit_test(test_row_of_index),
        cmocka_unit_test(test_context_reuse_deterministic),
        cmocka_unit_test(test_movingai_tiny),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_movingai_arena_all),
        cmocka_unit_test(test_movingai_sample),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), shared_tests,
                       TN_TEST_COUNT(shared_tests), NULL, 0);
}
