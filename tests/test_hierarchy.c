/* Hierarchical paths (hierarchy.h) against the brute-force oracle: fast-mode paths legal and
 * within the documented bound of the optimum, exact-mode costs optimal, on handmade and
 * random maps with walls and mud, after random edits and updates (the graph equal to a fresh
 * build), on a unit-size map, and bad input. */
#include "oracle.h"
#include "support.h"
#include "tilenav/hierarchy.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The number of sector-changing steps of one optimal path to `goal`, walked back along the
 * oracle's distances from the start. */
static int crossings(const tn_map *m, const tn_moves *mv, const tn_hierarchy *h, const double *dist,
                     tn_cell start, tn_cell goal)
{
    const int32_t w = tn_map_width(m);
    tn_cell v = goal;
    int k = 0;
    while (v.x != start.x || v.y != start.y) {
        bool stepped = false;
        for (int dy = -1; dy <= 1 && !stepped; dy++)
            for (int dx = -1; dx <= 1 && !stepped; dx++) {
                tn_cell p = {v.x + dx, v.y + dy};
                if ((!dx && !dy) || p.x < 0 || p.y < 0 || p.x >= w || p.y >= tn_map_height(m))
                    continue;
                double dp = dist[p.y * w + p.x];
                if (!isfinite(dp) || !tn_oracle_step_ok(m, mv, p, v))
                    continue;
                double dv = dist[v.y * w + v.x];
                if (fabs(dp + tn_oracle_step_cost(m, mv, NULL, p, v) - dv) <= 1e-9 * (1 + dv)) {
                    k += tn_hierarchy_sector_of(h, p) != tn_hierarchy_sector_of(h, v);
                    v = p;
                    stepped = true;
                }
            }
        assert_true(stepped);
    }
    return k;
}

typedef struct tally {
    int queries, proven;
    double worst; /* largest cost / optimum */
} tally;

/* `starts` random starts, each with `goals` random goals: both modes against the oracle. */
static void check_queries(const tn_map *m, const tn_moves *mv, const tn_hierarchy *h,
                          tn_hierarchy_ctx *ctx, tn_test_rng *rng, int starts, int goals, tally *t,
                          double weight)
{
    const int32_t w = tn_map_width(m), hh = tn_map_height(m);
    double *dist = malloc((size_t)w * (size_t)hh * sizeof *dist);
    tn_cell *path = malloc((size_t)w * (size_t)hh * sizeof *path);
    assert_non_null(dist);
    assert_non_null(path);
    const double bound = tn_hierarchy_crossing_bound(h);
    for (int s = 0; s < starts; s++) {
        tn_cell a = tn_test_random_open_cell(m, rng);
        tn_oracle_dijkstra(m, mv, NULL, &a, 1, false, dist);
        for (int k = 0; k < goals; k++) {
            tn_cell b = k == 0 ? a : tn_test_random_open_cell(m, rng);
            double opt = dist[b.y * w + b.x];
            for (int mode = 0; mode < 2; mode++) {
                tn_hierarchy_result r;
                tn_status st =
                    tn_hierarchy_path(ctx, h, a, b, (tn_hierarchy_mode)mode, path, w * hh, &r);
                if (!isfinite(opt)) {
                    assert_int_equal(st, TN_NO_PATH);
                    assert_int_equal(r.length, 0);
                    continue;
                }
                assert_int_equal(st, TN_OK);
                double c = tn_oracle_path_cost(m, mv, NULL, path, r.length, a, b);
                assert_true(c >= 0.0); /* every step legal */
                assert_true(fabs(c - r.cost) <= 1e-9 * (1.0 + c));
                assert_true(r.cost >= opt - 1e-9 * (1.0 + opt));
                if (mode == TN_HIERARCHY_EXACT) {
                    assert_true(fabs(r.cost - opt) <= 1e-9 * (1.0 + opt));
                    t->proven += r.proven;
                } else {
                    int kx = crossings(m, mv, h, dist, a, b);
                    assert_true(r.cost <= weight * (opt + kx * bound) + 1e-9 * (1.0 + opt));
                    if (opt > 0 && r.cost / opt > t->worst)
                        t->worst = r.cost / opt;
                    t->queries++;
                }
                /* a buffer one cell short reports the length it needs */
                if (r.length > 1) {
                    tn_hierarchy_result r2;
                    st = tn_hierarchy_path(ctx, h, a, b, (tn_hierarchy_mode)mode, path,
                                           r.length - 1, &r2);
                    assert_int_equal(st, TN_E_BUFFER_TOO_SMALL);
                    assert_int_equal(r2.length, r.length);
                }
            }
        }
    }
    free(dist);
    free(path);
}

static tn_hierarchy *build_lm(const tn_map *m, const tn_moves *mv, int32_t sector, int32_t gap,
                              int32_t landmarks)
{
    tn_hierarchy_def d = tn_hierarchy_def_default();
    d.landmarks = landmarks;
    d.map = m;
    d.moves = *mv;
    d.sector_size = sector;
    d.portal_gap = gap;
    tn_hierarchy *h = NULL;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_OK);
    assert_non_null(h);
    assert_true(tn_hierarchy_current(h));
    tn_hierarchy_stats s;
    tn_hierarchy_stats_get(h, &s);
    assert_int_equal(s.landmarks, landmarks);
    assert_int_equal(s.landmarks_current, landmarks > 0);
    return h;
}

static tn_hierarchy *build(const tn_map *m, const tn_moves *mv, int32_t sector, int32_t gap)
{
    return build_lm(m, mv, sector, gap, 0);
}

/* `h`, after its updates, hashes like a hierarchy built afresh on `m` with the same settings. */
static void assert_equals_fresh(const tn_hierarchy *h, const tn_map *m, const tn_moves *mv,
                                int32_t sector, int32_t gap)
{
    tn_hierarchy *fresh = build(m, mv, sector, gap);
    assert_true(tn_hierarchy_hash(h) == tn_hierarchy_hash(fresh));
    tn_hierarchy_destroy(fresh);
}

static tn_hierarchy_ctx *new_ctx(void)
{
    tn_hierarchy_ctx_def d = tn_hierarchy_ctx_def_default();
    tn_hierarchy_ctx *c = NULL;
    assert_int_equal(tn_hierarchy_ctx_create(&d, &c), TN_OK);
    return c;
}

/* Costs up to TN_MAX_COST keep the hierarchy's 32-bit sums finite: a stranger's corridor with
 * two cells of cost 3e38 (then accepted) made both modes answer "no path" to a reachable goal
 * when 4-wide sectors put them in one sector. Costs past TN_MAX_COST are refused now. */
static void test_largest_costs(void **state)
{
    (void)state;
    static const char *rows[] = {"################", "................", "################"};
    tn_map *m = tn_test_map_from_rows(rows, 3);
    assert_non_null(m);
    int32_t layer = -1;
    assert_int_equal(tn_map_add_layer(m, "costs", TN_LAYER_TILES, &layer), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 77u, (tn_terrain){true, 2e28f}), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain(m, 77u, (tn_terrain){true, TN_MAX_COST}), TN_OK);
    assert_int_equal(tn_map_set(m, layer, 5, 1, 77u), TN_OK);
    assert_int_equal(tn_map_set(m, layer, 6, 1, 77u), TN_OK);
    tn_moves mv = {0};
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    tn_cell path[64];
    tn_search_result ra;
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 1}, (tn_cell){15, 1}, NULL, path, 64, &ra),
                     TN_OK);
    /* an extra layer past TN_MAX_COST is refused too */
    float extra[48] = {0};
    extra[20] = 2e28f;
    tn_query qe;
    memset(&qe, 0, sizeof qe);
    qe.extra = extra;
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 1}, (tn_cell){15, 1}, &qe, path, 64, NULL),
                     TN_E_INVALID_ARG);
    extra[20] = TN_MAX_COST;
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 1}, (tn_cell){15, 1}, &qe, path, 64, NULL),
                     TN_OK);
    for (int32_t sector = 4; sector <= 8; sector += 4) {
        tn_hierarchy *h = build(m, &mv, sector, 0);
        for (int mode = 0; mode < 2; mode++) {
            tn_hierarchy_result r;
            assert_int_equal(tn_hierarchy_path(ctx, h, (tn_cell){0, 1}, (tn_cell){15, 1},
                                               (tn_hierarchy_mode)mode, path, 64, &r),
                             TN_OK);
            assert_true(fabs(r.cost - ra.cost) <= 1e-6 * ra.cost);
        }
        tn_hierarchy_destroy(h);
    }
    tn_search_destroy(s);
    tn_hierarchy_ctx_destroy(ctx);
    tn_map_destroy(m);
}

/* Costs past 2^53 times the cheapest step (found by a stranger: mud of 1e17 or more beside
 * ground of 1): a sum in the sector's edge pruning absorbed the cheap part, two edges of equal
 * cost each pruned the other, and both modes answered TN_NO_PATH for goals A* reaches. Every
 * pair of open cells of the stranger's map, both modes, against A*. */
static void test_costs_past_double_precision(void **state)
{
    (void)state;
    static const char *rows[] = {"#.#.~.#..#.#.~~.", "..~~.###~.#.#..~", "#..........##~.#",
                                 ".#.#~......#~...", "#...##~~.##..#..", "#..~.....#...#..",
                                 "#..#.....~###..~", "~..#..#~....#.#~"};
    static const float bigs[] = {3.0f, 1e16f, 1e17f, 1e20f, 1e27f};
    tn_moves mv = {0};
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    tn_cell path[256];
    for (size_t b = 0; b < sizeof bigs / sizeof bigs[0]; b++) {
        tn_map *m = tn_test_map_from_rows(rows, 8);
        assert_int_equal(tn_map_set_terrain(m, 2, (tn_terrain){true, bigs[b]}), TN_OK);
        tn_hierarchy *h = build(m, &mv, 8, 0);
        for (int32_t a = 0; a < 128; a++)
            for (int32_t z = 0; z < 128; z++) {
                tn_cell from = {a % 16, a / 16}, to = {z % 16, z / 16};
                if (!tn_map_passable(m, from.x, from.y) || !tn_map_passable(m, to.x, to.y))
                    continue;
                tn_search_result ra;
                tn_status sa = tn_search_path(s, m, from, to, NULL, path, 256, &ra);
                for (int mode = 0; mode < 2; mode++) {
                    tn_hierarchy_result r;
                    tn_status sh =
                        tn_hierarchy_path(ctx, h, from, to, (tn_hierarchy_mode)mode, path, 256, &r);
                    if (sh != sa)
                        fail_msg("cost %g, (%d,%d) -> (%d,%d), mode %d: %s, A* %s", (double)bigs[b],
                                 from.x, from.y, to.x, to.y, mode, tn_status_str(sh),
                                 tn_status_str(sa));
                    if (sa == TN_OK && mode == TN_HIERARCHY_EXACT)
                        assert_true(fabs(r.cost - ra.cost) <= 1e-6 * ra.cost);
                }
            }
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
    tn_hierarchy_ctx_destroy(ctx);
}

static void test_handmade(void **state)
{
    (void)state;
    static const char *rows[] = {
        "....#.......#.......", "....#..~~~..#.......", "....#..~~~..#..###..",
        "....#.......#....#..", "....######.##....#..", ".................#..",
        "..####...#########..", "..#..#...#..........", "..#..#...#..~~~~....",
        "..#......#..~~~~....", "..########..........", "....................",
    };
    tn_map *m = tn_test_map_from_rows(rows, 12);
    assert_non_null(m);
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_moves mv = {0};
    tally t = {0};
    tn_test_rng rng = {17};
    for (int32_t sector = 4; sector <= 8; sector++) {
        tn_hierarchy *h = build(m, &mv, sector, 0);
        tn_hierarchy_stats s;
        tn_hierarchy_stats_get(h, &s);
        assert_int_equal(s.sectors_x, (20 + sector - 1) / sector);
        assert_true(s.nodes > 0 && s.intra_edges > 0 && s.inter_edges > 0);
        check_queries(m, &mv, h, ctx, &rng, 6, 8, &t, 1.0);
        tn_hierarchy_destroy(h);
    }
    /* the walled box at (3..4, 7..9) opens at (5, 9) only: reachable */
    tn_hierarchy *h = build(m, &mv, 4, 0);
    tn_cell path[256];
    tn_hierarchy_result r;
    assert_int_equal(tn_hierarchy_path(ctx, h, (tn_cell){3, 7}, (tn_cell){19, 0},
                                       TN_HIERARCHY_EXACT, path, 256, &r),
                     TN_OK);
    /* start == goal: one cell, cost 0 */
    assert_int_equal(
        tn_hierarchy_path(ctx, h, (tn_cell){0, 0}, (tn_cell){0, 0}, TN_HIERARCHY_FAST, path, 1, &r),
        TN_OK);
    assert_int_equal(r.length, 1);
    assert_true(r.cost == 0.0);
    tn_hierarchy_destroy(h);
    /* on open ground entrances are whole borders with transitions at their ends: a straight
     * line along the top row is in the abstract graph, and proven optimal without a grid
     * search */
    tn_map *open = tn_test_random_map(20, 12, 0.0, 3);
    h = build(open, &mv, 8, 0);
    assert_int_equal(tn_hierarchy_path(ctx, h, (tn_cell){0, 0}, (tn_cell){19, 0},
                                       TN_HIERARCHY_EXACT, path, 256, &r),
                     TN_OK);
    assert_true(r.proven);
    assert_true(fabs(r.cost - 19.0) < 1e-12);
    tn_hierarchy_destroy(h);
    tn_map_destroy(open);
    tn_hierarchy_ctx_destroy(ctx);
    tn_map_destroy(m);
}

/* Every pair of open cells, fast mode, within the bound (K counted on an optimal path). */
static int check_all_pairs(const tn_map *m, const tn_moves *mv, const tn_hierarchy *h,
                           tn_hierarchy_ctx *ctx)
{
    const int32_t w = tn_map_width(m), hh = tn_map_height(m);
    double *dist = malloc((size_t)w * (size_t)hh * sizeof *dist);
    tn_cell *path = malloc((size_t)w * (size_t)hh * sizeof *path);
    assert_non_null(dist);
    assert_non_null(path);
    const double bound = tn_hierarchy_crossing_bound(h);
    int over = 0;
    for (int32_t i = 0; i < w * hh; i++) {
        tn_cell a = {i % w, i / w};
        if (!tn_map_passable(m, a.x, a.y))
            continue;
        tn_oracle_dijkstra(m, mv, NULL, &a, 1, false, dist);
        for (int32_t j = 0; j < w * hh; j++) {
            tn_cell b = {j % w, j / w};
            double opt = dist[j];
            if (!isfinite(opt))
                continue;
            tn_hierarchy_result r;
            assert_int_equal(tn_hierarchy_path(ctx, h, a, b, TN_HIERARCHY_FAST, path, w * hh, &r),
                             TN_OK);
            int kx = crossings(m, mv, h, dist, a, b);
            over += r.cost > opt + kx * bound + 1e-9 * (1.0 + opt);
        }
    }
    free(dist);
    free(path);
    return over;
}

/* Sectors of 4: an entrance of 4 cells has one transition pair, in its middle, 2 cells from
 * its far end, where the bound took (sector_size - 1) / 2 = 1 (a stranger's open 8 x 8 map,
 * (3, 3) to (4, 4): 7.41 over a bound of 6.41). Every pair on open and sparse maps, sectors of
 * 4 to 7, both move rules; the 4-cell sectors' bound is now the 2 of their entrances. */
static void test_small_sectors_bound(void **state)
{
    (void)state;
    tn_hierarchy_ctx *ctx = new_ctx();
    for (int trial = 0; trial < 8; trial++) {
        int32_t sector = 4 + trial % 4;
        tn_map *m = tn_test_random_map(13 + trial % 3, 12 + trial % 2, trial < 4 ? 0.0 : 0.06,
                                       500u + (uint64_t)trial);
        assert_non_null(m);
        tn_moves mv = {0};
        mv.diagonal = trial % 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
        tn_hierarchy *h = build(m, &mv, sector, 0);
        if (sector == 4)
            assert_true(tn_hierarchy_crossing_bound(h) == 9.0); /* 1 + 4 * 2 */
        assert_int_equal(check_all_pairs(m, &mv, h, ctx), 0);
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    tn_hierarchy_ctx_destroy(ctx);
}

static void test_random(void **state)
{
    (void)state;
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_hierarchy_ctx_def wd = tn_hierarchy_ctx_def_default();
    wd.weight = 1.5f;
    tn_hierarchy_ctx *wctx = NULL;
    assert_int_equal(tn_hierarchy_ctx_create(&wd, &wctx), TN_OK);
    tn_hierarchy_ctx_def ccd = tn_hierarchy_ctx_def_default();
    ccd.corridor = 2 + (int32_t)(tn_test_next(&(tn_test_rng){7}) % 3);
    tn_hierarchy_ctx *cctx = NULL;
    assert_int_equal(tn_hierarchy_ctx_create(&ccd, &cctx), TN_OK);
    tn_test_rng rng = {99};
    tally t = {0}, tc = {0};
    for (int trial = 0; trial < 12; trial++) {
        int32_t w = 20 + (int32_t)tn_test_below(&rng, 24),
                hh = 20 + (int32_t)tn_test_below(&rng, 24);
        tn_map *m =
            tn_test_random_map(w, hh, 0.1 + 0.2 * tn_test_u01(&rng), 1000u + (uint64_t)trial);
        assert_non_null(m);
        if (trial % 2)
            tn_test_add_mud(m, 0.2, 77u + (uint64_t)trial);
        tn_moves mv = {0};
        mv.diagonal = trial % 3 == 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
        mv.costs = trial % 4 == 3 ? TN_COSTS_10_14 : TN_COSTS_EXACT;
        int32_t sector = 4 + (int32_t)tn_test_below(&rng, 9);
        int32_t gap = trial % 2 ? 0 : 1 + (int32_t)tn_test_below(&rng, (uint32_t)sector);
        /* landmarks on every other map: the same bound (they only sharpen the heuristic) */
        tn_hierarchy *h = build_lm(m, &mv, sector, gap, trial % 2 ? 0 : 1 + trial % 5);
        check_queries(m, &mv, h, ctx, &rng, 4, 10, &t, 1.0);
        check_queries(m, &mv, h, wctx, &rng, 2, 10, &t, 1.5);  /* weighted: weight * bound */
        check_queries(m, &mv, h, cctx, &rng, 2, 10, &tc, 1.0); /* corridor smoothing */
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    print_message("random: %d fast queries, worst cost/optimum %.4f, %d exact proven\n", t.queries,
                  t.worst, t.proven);
    print_message("random, corridor %d: %d queries, worst cost/optimum %.4f\n", (int)ccd.corridor,
                  tc.queries, tc.worst);
    tn_hierarchy_ctx_destroy(cctx);
    tn_hierarchy_ctx_destroy(wctx);
    tn_hierarchy_ctx_destroy(ctx);
}

static void test_updates(void **state)
{
    (void)state;
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_test_rng rng = {5};
    tally t = {0};
    for (int trial = 0; trial < 4; trial++) {
        tn_map *m = tn_test_random_map(37, 29, 0.2, 300u + (uint64_t)trial);
        assert_non_null(m);
        tn_test_add_mud(m, 0.15, 400u + (uint64_t)trial);
        tn_moves mv = {0};
        mv.diagonal = trial == 3 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
        int32_t sector = 5 + trial * 2;
        tn_hierarchy *h = build_lm(m, &mv, sector, trial % 2 ? 3 : 0, trial == 0 ? 3 : 0);
        for (int round = 0; round < 12; round++) {
            int edits = 1 + (int)tn_test_below(&rng, 4);
            for (int e = 0; e < edits; e++) {
                int32_t x = (int32_t)tn_test_below(&rng, 37), y = (int32_t)tn_test_below(&rng, 29);
                int32_t bw = 1 + (int32_t)tn_test_below(&rng, 2),
                        bh = 1 + (int32_t)tn_test_below(&rng, 2);
                uint32_t gid = tn_test_below(&rng, 3); /* open, wall, mud */
                assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + bw, y + bh}, gid), TN_OK);
            }
            assert_false(tn_hierarchy_current(h));
            tn_cell p[4];
            tn_cell a = tn_test_random_open_cell(m, &rng);
            assert_int_equal(tn_hierarchy_path(ctx, h, a, a, TN_HIERARCHY_FAST, p, 4, NULL),
                             TN_E_MAP_CHANGED);
            int32_t rebuilt = -1;
            assert_int_equal(tn_hierarchy_update(h, &rebuilt), TN_OK);
            assert_true(rebuilt >= 0);
            tn_hierarchy *fresh = build(m, &mv, sector, trial % 2 ? 3 : 0);
            assert_true(tn_hierarchy_hash(h) == tn_hierarchy_hash(fresh));
            tn_hierarchy_stats s1, s2;
            tn_hierarchy_stats_get(h, &s1);
            tn_hierarchy_stats_get(fresh, &s2);
            assert_int_equal(s1.nodes, s2.nodes);
            assert_true(s1.intra_edges == s2.intra_edges && s1.inter_edges == s2.inter_edges);
            tn_hierarchy_destroy(fresh);
            if (trial == 0) { /* landmarks: stale after an update, current after a refresh */
                tn_hierarchy_stats ls;
                tn_hierarchy_stats_get(h, &ls);
                assert_false(ls.landmarks_current && rebuilt > 0);
                assert_int_equal(tn_hierarchy_refresh_landmarks(h), TN_OK);
                tn_hierarchy_stats_get(h, &ls);
                assert_true(ls.landmarks_current);
            }
            if (round % 4 == 3)
                check_queries(m, &mv, h, ctx, &rng, 2, 6, &t, 1.0);
        }
        /* nothing changed: nothing rebuilt */
        int32_t rebuilt = -1;
        assert_int_equal(tn_hierarchy_update(h, &rebuilt), TN_OK);
        assert_int_equal(rebuilt, 0);
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    tn_hierarchy_ctx_destroy(ctx);
}

/* Updates on maps of uniform cost, where an update recomputes only the matrix pairs an edit
 * may alter: walls and openings of 1 to 3 cells, many on sector borders and corners, some
 * undone at once (the benchmark's pattern), several edits per update; every update hashes like
 * a fresh build. Then mud appears and goes (the costs stop and start being uniform). */
static void test_updates_uniform(void **state)
{
    (void)state;
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_test_rng rng = {77};
    tally t = {0};
    for (int trial = 0; trial < 5; trial++) {
        const int32_t w = 61 + 7 * trial, hh = 47;
        tn_map *m = tn_test_random_map(w, hh, trial == 3 ? 0.04 : 0.18, 900u + (uint64_t)trial);
        assert_non_null(m);
        tn_moves mv = {0};
        mv.diagonal = trial == 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
        mv.costs = trial == 1 ? TN_COSTS_10_14 : TN_COSTS_EXACT;
        const int32_t sector = trial == 3 ? 16 : 6 + trial;
        const int32_t gap = trial == 1 ? 3 : 0;
        tn_hierarchy *h = build_lm(m, &mv, sector, gap, trial == 4 ? 2 : 0);
        for (int round = 0; round < 40; round++) {
            const int edits = 1 + (int)tn_test_below(&rng, 3);
            const bool undo = round % 3 == 0;
            uint32_t old[9];
            tn_rect last = {0, 0, 0, 0};
            for (int e = 0; e < edits; e++) {
                int32_t x = (int32_t)tn_test_below(&rng, (uint32_t)w),
                        y = (int32_t)tn_test_below(&rng, (uint32_t)hh);
                if (tn_test_below(&rng, 2)) { /* on a sector border or corner */
                    x = x / sector * sector - (int32_t)tn_test_below(&rng, 2);
                    y = tn_test_below(&rng, 2) ? y / sector * sector - 1 : y;
                    x = x < 0 ? 0 : x;
                    y = y < 0 ? 0 : y;
                }
                int32_t bw = 1 + (int32_t)tn_test_below(&rng, 3),
                        bh = 1 + (int32_t)tn_test_below(&rng, 3);
                bw = x + bw > w ? w - x : bw;
                bh = y + bh > hh ? hh - y : bh;
                last = (tn_rect){x, y, x + bw, y + bh};
                for (int32_t k = 0; k < bw * bh; k++)
                    old[k] = tn_map_layer_data(m, 0)[(y + k / bw) * w + x + k % bw];
                uint32_t gid = tn_test_below(&rng, 3) ? 1 : 0; /* mostly walls */
                assert_int_equal(tn_map_fill(m, 0, last, gid), TN_OK);
            }
            int32_t rebuilt = -1;
            assert_int_equal(tn_hierarchy_update(h, &rebuilt), TN_OK);
            assert_true(rebuilt >= 0);
            for (int pass = 0; pass < (undo ? 2 : 1); pass++) {
                if (pass == 1) { /* undo the last edit */
                    const int32_t bw = last.x1 - last.x0;
                    for (int32_t k = 0; k < bw * (last.y1 - last.y0); k++)
                        assert_int_equal(
                            tn_map_set(m, 0, last.x0 + k % bw, last.y0 + k / bw, old[k]), TN_OK);
                    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
                }
                tn_hierarchy *fresh = build(m, &mv, sector, gap);
                assert_true(tn_hierarchy_hash(h) == tn_hierarchy_hash(fresh));
                tn_hierarchy_stats s1, s2;
                tn_hierarchy_stats_get(h, &s1);
                tn_hierarchy_stats_get(fresh, &s2);
                assert_int_equal(s1.nodes, s2.nodes);
                assert_true(s1.intra_edges == s2.intra_edges && s1.inter_edges == s2.inter_edges);
                tn_hierarchy_destroy(fresh);
            }
            if (round % 8 == 7)
                check_queries(m, &mv, h, ctx, &rng, 2, 6, &t, 1.0);
        }
        /* mud on one cell: the costs are no longer uniform; then gone again */
        for (uint32_t gid = 2; gid != 3; gid = gid == 2 ? 0 : 3) {
            tn_cell c = tn_test_random_open_cell(m, &rng);
            assert_int_equal(tn_map_set(m, 0, c.x, c.y, gid), TN_OK);
            if (gid == 0)
                for (int32_t i = 0; i < w * hh; i++) /* every mud cell */
                    if (tn_map_layer_data(m, 0)[i] == 2)
                        assert_int_equal(tn_map_set(m, 0, i % w, i / w, 0), TN_OK);
            assert_int_equal(tn_map_uniform_cost(m), gid == 0);
            assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
            assert_equals_fresh(h, m, &mv, sector, gap);
            check_queries(m, &mv, h, ctx, &rng, 1, 4, &t, 1.0);
        }
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    tn_hierarchy_ctx_destroy(ctx);
}

/* A 2 x 2 unit: the hierarchy of the clearance's size map, checked against the oracle on the
 * same size map, and kept current through the clearance's updates. */
/* Unreachable goals answered from the parts' labels: `pairs` random pairs against the oracle.
 * Reachable: a path. Unreachable: TN_NO_PATH, with no abstract search (expanded = 0) when the
 * labels are exact (`exact`); returns how many unreachable pairs were answered so. */
static int check_parts(const tn_map *m, const tn_moves *mv, const tn_hierarchy *h,
                       tn_hierarchy_ctx *ctx, tn_test_rng *rng, int pairs, bool exact)
{
    const int32_t w = tn_map_width(m), hh = tn_map_height(m);
    double *dist = malloc((size_t)w * (size_t)hh * sizeof *dist);
    tn_cell *path = malloc((size_t)w * (size_t)hh * sizeof *path);
    assert_non_null(dist);
    assert_non_null(path);
    int instant = 0;
    tn_cell a = {0, 0};
    for (int k = 0; k < pairs; k++) {
        if (k % 8 == 0) { /* a new start every 8 pairs: one oracle run each */
            a = tn_test_random_open_cell(m, rng);
            tn_oracle_dijkstra(m, mv, NULL, &a, 1, false, dist);
        }
        tn_cell b = tn_test_random_open_cell(m, rng);
        tn_hierarchy_result r;
        tn_status st = tn_hierarchy_path(ctx, h, a, b, TN_HIERARCHY_FAST, path, w * hh, &r);
        if (isfinite(dist[b.y * w + b.x])) {
            assert_int_equal(st, TN_OK);
            continue;
        }
        assert_int_equal(st, TN_NO_PATH);
        if (exact)
            assert_int_equal(r.expanded, 0);
        instant += r.expanded == 0;
    }
    free(dist);
    free(path);
    return instant;
}

/* The parts' labels: exact after a build, after openings only and after a refresh; after
 * mixed edits never wrong (a split may only cost a search); through the labels running out. */
static void test_parts(void **state)
{
    (void)state;
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_test_rng rng = {77};
    for (int trial = 0; trial < 4; trial++) {
        const int32_t W = 48 + trial * 7, H = 41;
        tn_map *m = tn_test_random_map(W, H, 0.38, 900u + (uint64_t)trial);
        assert_non_null(m);
        if (trial % 2)
            tn_test_add_mud(m, 0.2, 950u + (uint64_t)trial);
        tn_moves mv = {0};
        mv.diagonal = trial == 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
        tn_hierarchy *h = build(m, &mv, 6 + trial, trial == 1 ? 2 : 0);
        tn_hierarchy_stats s;
        tn_hierarchy_stats_get(h, &s);
        assert_true(s.parts > 1);
        int instant = check_parts(m, &mv, h, ctx, &rng, 120, true);
        { /* an update that may split: the count is unknown until a refresh */
            tn_map *c = NULL;
            assert_int_equal(tn_map_clone(m, &c), TN_OK);
            tn_hierarchy *hc = build(c, &mv, 6 + trial, 0);
            int32_t rebuilt = 0;
            assert_int_equal(tn_map_fill(c, 0, (tn_rect){0, H / 2, W, H / 2 + 1}, 1), TN_OK);
            assert_int_equal(tn_hierarchy_update(hc, &rebuilt), TN_OK);
            assert_true(rebuilt > 0);
            tn_hierarchy_stats cs;
            tn_hierarchy_stats_get(hc, &cs);
            assert_int_equal(cs.parts, -1);
            assert_int_equal(tn_hierarchy_refresh_landmarks(hc), TN_OK);
            tn_hierarchy_stats_get(hc, &cs);
            assert_true(cs.parts > s.parts); /* a wall across the map splits parts */
            tn_hierarchy_destroy(hc);
            tn_map_destroy(c);
        }
        /* openings only: parts join, never split, and the labels stay exact */
        for (int round = 0; round < 8; round++) {
            int32_t x = (int32_t)tn_test_below(&rng, (uint32_t)W - 2);
            int32_t y = (int32_t)tn_test_below(&rng, (uint32_t)H - 2);
            assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + 3, y + 1}, 0), TN_OK);
            assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
            instant += check_parts(m, &mv, h, ctx, &rng, 24, true);
        }
        /* walls and openings: never wrong; exact again after a refresh */
        for (int round = 0; round < 8; round++) {
            for (int e = 0; e < 3; e++) {
                int32_t x = (int32_t)tn_test_below(&rng, (uint32_t)W - 3);
                int32_t y = (int32_t)tn_test_below(&rng, (uint32_t)H - 3);
                uint32_t gid = tn_test_below(&rng, 2);
                assert_int_equal(
                    tn_map_fill(m, 0, (tn_rect){x, y, x + 1 + (int32_t)gid * 2, y + 3}, gid),
                    TN_OK);
            }
            assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
            check_parts(m, &mv, h, ctx, &rng, 24, false);
        }
        assert_int_equal(tn_hierarchy_refresh_landmarks(h), TN_OK);
        tn_hierarchy_stats_get(h, &s);
        tn_hierarchy *fresh = build(m, &mv, 6 + trial, trial == 1 ? 2 : 0);
        tn_hierarchy_stats fs;
        tn_hierarchy_stats_get(fresh, &fs);
        assert_int_equal(s.parts, fs.parts);
        tn_hierarchy_destroy(fresh);
        instant += check_parts(m, &mv, h, ctx, &rng, 120, true);
        assert_true(instant > 20); /* the maps have many pockets */
        /* many single-cell toggles: the labels run out and are made exact by the update */
        for (int round = 0; round < 400; round++) {
            int32_t x = (int32_t)tn_test_below(&rng, (uint32_t)W);
            int32_t y = (int32_t)tn_test_below(&rng, (uint32_t)H);
            assert_int_equal(
                tn_map_fill(m, 0, (tn_rect){x, y, x + 1, y + 1}, tn_test_below(&rng, 2)), TN_OK);
            assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
            if (round % 20 == 19)
                check_parts(m, &mv, h, ctx, &rng, 16, false);
        }
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    tn_hierarchy_ctx_destroy(ctx);
}

static void test_unit_size(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(40, 34, 0.12, 4242);
    assert_non_null(m);
    tn_test_add_mud(m, 0.1, 4343);
    tn_clearance_def cd = tn_clearance_def_default();
    cd.map = m;
    cd.max_size = 2;
    tn_clearance *cl = NULL;
    assert_int_equal(tn_clearance_create(&cd, &cl), TN_OK);
    const tn_map *sm = tn_clearance_map(cl, 2);
    assert_non_null(sm);
    tn_moves mv = {0};
    tn_hierarchy *h = build(sm, &mv, 8, 0);
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_test_rng rng = {8};
    tally t = {0};
    check_queries(sm, &mv, h, ctx, &rng, 3, 8, &t, 1.0);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){10, 10, 12, 12}, 1), TN_OK);
    /* before the clearance: the size map is behind its source, and the hierarchy says so */
    assert_false(tn_hierarchy_current(h));
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_E_MAP_CHANGED);
    tn_cell cells[256];
    tn_hierarchy_result res;
    tn_cell a = tn_test_random_open_cell(sm, &rng);
    assert_int_equal(tn_hierarchy_path(ctx, h, a, a, TN_HIERARCHY_FAST, cells, 256, &res),
                     TN_E_MAP_CHANGED);
    assert_int_equal(tn_clearance_update(cl, NULL), TN_OK);
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
    assert_true(tn_hierarchy_current(h));
    assert_equals_fresh(h, sm, &mv, 8, 0);
    check_queries(sm, &mv, h, ctx, &rng, 3, 8, &t, 1.0);
    tn_hierarchy_ctx_destroy(ctx);
    tn_hierarchy_destroy(h);
    tn_clearance_destroy(cl);
    tn_map_destroy(m);
}

/* Threads: one hierarchy, one context per thread, the same queries; every thread's cells and
 * costs equal those of one thread (and of a second run: deterministic). */
#define TN_HPA_THREADS 4
#define TN_HPA_QUERIES 60
typedef struct thread_job {
    const tn_hierarchy *h;
    const tn_cell *ends; /* 2 * TN_HPA_QUERIES */
    uint64_t hash;       /* of every status, length, cost and cell */
    int failed;
} thread_job;

static uint64_t fold(uint64_t x, uint64_t v)
{
    x ^= v + 0x9e3779b97f4a7c15ull + (x << 6) + (x >> 2);
    return x * 0xff51afd7ed558ccdull;
}

static void *thread_main(void *arg)
{
    thread_job *j = arg;
    tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
    cd.corridor = 3;
    tn_hierarchy_ctx *c = NULL;
    if (tn_hierarchy_ctx_create(&cd, &c) != TN_OK) {
        j->failed = 1;
        return NULL;
    }
    tn_cell path[4096];
    uint64_t x = 0;
    for (int i = 0; i < TN_HPA_QUERIES; i++)
        for (int mode = 0; mode < 2; mode++) {
            tn_hierarchy_result r;
            tn_status st = tn_hierarchy_path(c, j->h, j->ends[2 * i], j->ends[2 * i + 1],
                                             (tn_hierarchy_mode)mode, path, 4096, &r);
            x = fold(x, (uint64_t)(st + 100));
            x = fold(x, (uint64_t)r.length);
            uint64_t bits;
            memcpy(&bits, &r.cost, sizeof bits);
            x = fold(x, bits);
            for (int32_t k = 0; st == TN_OK && k < r.length; k++)
                x = fold(x, (uint64_t)(path[k].y * 100000 + path[k].x));
        }
    j->hash = x;
    tn_hierarchy_ctx_destroy(c);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(96, 80, 0.25, 777);
    assert_non_null(m);
    tn_test_add_mud(m, 0.1, 778);
    tn_moves mv = {0};
    tn_hierarchy *h = build(m, &mv, 16, 0);
    tn_test_rng rng = {31};
    tn_cell ends[2 * TN_HPA_QUERIES];
    for (int i = 0; i < 2 * TN_HPA_QUERIES; i++)
        ends[i] = tn_test_random_open_cell(m, &rng);
    thread_job ref = {h, ends, 0, 0};
    thread_main(&ref);
    assert_int_equal(ref.failed, 0);
    thread_job jobs[TN_HPA_THREADS];
    pthread_t th[TN_HPA_THREADS];
    for (int t = 0; t < TN_HPA_THREADS; t++) {
        jobs[t] = (thread_job){h, ends, 0, 0};
        assert_int_equal(pthread_create(&th[t], NULL, thread_main, &jobs[t]), 0);
    }
    for (int t = 0; t < TN_HPA_THREADS; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
        assert_int_equal(jobs[t].failed, 0);
        assert_true(jobs[t].hash == ref.hash);
    }
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

static void test_errors(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(16, 16, 0.0, 1);
    assert_int_equal(tn_map_set(m, 0, 3, 3, 1), TN_OK);
    tn_hierarchy_def d = tn_hierarchy_def_default();
    tn_hierarchy *h = (tn_hierarchy *)m;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG); /* no map */
    assert_null(h);
    assert_int_equal(tn_hierarchy_build(NULL, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_build(&d, NULL), TN_E_INVALID_ARG);
    d.map = m;
    d.sector_size = 3;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG);
    d.sector_size = 257;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG);
    d.sector_size = 8;
    d.portal_gap = 9;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG);
    d.portal_gap = -1;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG);
    d.portal_gap = 0;
    d.moves.diagonal = TN_DIAGONAL_ONE;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_UNSUPPORTED);
    d.moves.diagonal = (tn_diagonal)9;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG);
    d.moves.diagonal = TN_DIAGONAL_NO_CUT;
    d.internal_cookie = 0;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_E_INVALID_ARG);
    d.internal_cookie = tn_hierarchy_def_default().internal_cookie;
    d.allocator.alloc = NULL;
    d.allocator.free = NULL;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_OK);

    tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
    tn_hierarchy_ctx *c = NULL;
    cd.internal_cookie = 0;
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &c), TN_E_INVALID_ARG);
    cd = tn_hierarchy_ctx_def_default();
    cd.weight = 0.5f;
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &c), TN_E_INVALID_ARG);
    cd.weight = NAN;
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &c), TN_E_INVALID_ARG);
    cd = tn_hierarchy_ctx_def_default();
    cd.corridor = 1;
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &c), TN_E_INVALID_ARG);
    cd.corridor = 65;
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &c), TN_E_INVALID_ARG);
    tn_hierarchy *h2 = NULL;
    d.landmarks = 17;
    assert_int_equal(tn_hierarchy_build(&d, &h2), TN_E_INVALID_ARG);
    d.landmarks = 0;
    assert_int_equal(tn_hierarchy_refresh_landmarks(NULL), TN_E_INVALID_ARG);
    assert_null(c);
    cd = tn_hierarchy_ctx_def_default();
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &c), TN_OK);
    assert_int_equal(tn_hierarchy_ctx_reserve(c, h, true), TN_OK);
    size_t before = tn_hierarchy_ctx_memory_bytes(c);
    assert_true(before > 0 && tn_hierarchy_memory_bytes(h) > 0);

    tn_cell p[64];
    tn_hierarchy_result r;
    const tn_cell a = {0, 0}, b = {15, 15};
    assert_int_equal(tn_hierarchy_path(NULL, h, a, b, TN_HIERARCHY_FAST, p, 64, &r),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_path(c, NULL, a, b, TN_HIERARCHY_FAST, p, 64, &r),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_path(c, h, a, b, (tn_hierarchy_mode)5, p, 64, &r),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_FAST, NULL, 64, &r),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_FAST, p, -1, &r), TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_path(c, h, (tn_cell){-1, 0}, b, TN_HIERARCHY_FAST, p, 64, &r),
                     TN_E_OUT_OF_MAP);
    assert_int_equal(tn_hierarchy_path(c, h, a, (tn_cell){16, 0}, TN_HIERARCHY_FAST, p, 64, &r),
                     TN_E_OUT_OF_MAP);
    assert_int_equal(tn_hierarchy_path(c, h, (tn_cell){3, 3}, b, TN_HIERARCHY_FAST, p, 64, &r),
                     TN_E_START_BLOCKED);
    assert_int_equal(tn_hierarchy_path(c, h, a, (tn_cell){3, 3}, TN_HIERARCHY_EXACT, p, 64, &r),
                     TN_E_GOAL_BLOCKED);
    /* the length alone: cap 0 */
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_FAST, NULL, 0, &r),
                     TN_E_BUFFER_TOO_SMALL);
    int32_t need = r.length;
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_FAST, p, 64, &r), TN_OK);
    assert_int_equal(r.length, need);
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_EXACT, NULL, 0, &r),
                     TN_E_BUFFER_TOO_SMALL);
    need = r.length;
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_EXACT, p, 64, &r), TN_OK);
    assert_int_equal(r.length, need);
    /* no allocation after reserve */
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_EXACT, p, 64, &r), TN_OK);
    assert_int_equal(tn_hierarchy_ctx_memory_bytes(c), before);
    /* an enclosed goal: no path, in both modes */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){10, 10, 13, 13}, 1), TN_OK);
    assert_int_equal(tn_map_set(m, 0, 11, 11, 0), TN_OK);
    assert_int_equal(tn_hierarchy_path(c, h, a, b, TN_HIERARCHY_FAST, p, 64, &r), TN_E_MAP_CHANGED);
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
    assert_int_equal(tn_hierarchy_path(c, h, a, (tn_cell){11, 11}, TN_HIERARCHY_FAST, p, 64, &r),
                     TN_NO_PATH);
    assert_int_equal(tn_hierarchy_path(c, h, a, (tn_cell){11, 11}, TN_HIERARCHY_EXACT, p, 64, &r),
                     TN_NO_PATH);
    assert_int_equal(tn_hierarchy_update(NULL, NULL), TN_E_INVALID_ARG);
    assert_false(tn_hierarchy_current(NULL));
    assert_int_equal(tn_hierarchy_ctx_reserve(NULL, h, false), TN_E_INVALID_ARG);
    assert_int_equal(tn_hierarchy_sector_of(h, (tn_cell){16, 0}), -1);
    assert_int_equal(tn_hierarchy_sector_of(h, (tn_cell){9, 9}), 3);
    assert_true(tn_hierarchy_hash(NULL) == 0);
    assert_int_equal(tn_hierarchy_memory_bytes(NULL), 0);
    tn_hierarchy_ctx_destroy(NULL);
    tn_hierarchy_destroy(NULL);
    tn_hierarchy_ctx_destroy(c);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

/* hierarchy.c (hierarchy_internal.h, whose names clash with this file's) */
int64_t tn__hierarchy_recomputed(const tn_hierarchy *h);

/* An allocator that fails once `budget` allocations have been made (budget < 0: never). */
static long fail_budget = -1;
static void *failing_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    if (fail_budget == 0)
        return NULL;
    if (fail_budget > 0)
        fail_budget--;
    void *p = NULL;
    return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) ? NULL : p;
}
static void failing_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

/* An update that runs out of memory at every possible allocation in turn: it returns
 * TN_E_NOMEM, queries refuse, and the next update succeeds and equals a fresh build (the
 * retry crashed on a sector left with its capacity but not its arrays). Then a map whose
 * sectors have no nodes at all gains one open cell (its updates copied from NULL arrays). */
static void test_update_out_of_memory(void **state)
{
    (void)state;
    tn_moves mv = {0};
    int failures = 0;
    for (long k = 0; k < 200; k++) {
        tn_map *m = tn_test_new_map(64, 64);
        tn_hierarchy_def d = tn_hierarchy_def_default();
        d.map = m;
        d.sector_size = 32;
        d.allocator = (tn_allocator){failing_alloc, failing_free, NULL};
        tn_hierarchy *h = NULL;
        assert_int_equal(tn_hierarchy_build(&d, &h), TN_OK);
        for (int32_t y = 0; y < 64; y += 3) /* a wall with gaps on a border: more nodes */
            assert_int_equal(tn_map_set(m, 0, 31, y, 1), TN_OK);
        fail_budget = k;
        tn_status st = tn_hierarchy_update(h, NULL);
        fail_budget = -1;
        if (st == TN_OK) {
            tn_hierarchy_destroy(h);
            tn_map_destroy(m);
            break; /* k allocations were enough: every earlier one has failed once */
        }
        assert_int_equal(st, TN_E_NOMEM);
        failures++;
        assert_false(tn_hierarchy_current(h));
        assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
        assert_equals_fresh(h, m, &mv, 32, 0);
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    assert_true(failures > 10);
    tn_map *m = tn_test_new_map(64, 64);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){0, 0, 64, 64}, 1), TN_OK);
    tn_hierarchy *h = build(m, &mv, 32, 0);
    assert_int_equal(tn_map_set(m, 0, 40, 40, 0), TN_OK);
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
    assert_equals_fresh(h, m, &mv, 32, 0);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

/* Edits far apart before one update: each edit's own rectangle is read from the change log, so
 * two towers in opposite corners rebuild the few sectors around them, not every sector of the
 * box spanning both (2.4 s on 4096 x 4096 before); past the log's 64 entries the update takes
 * their union. Every update equals a fresh build, and no reachable pair is refused. */
/* A hierarchy built on a map as made (never edited): two far edits were repaired as one
 * rectangle spanning the map (1.4 s on 4096 x 4096), since the log vouched for no cache built
 * at revision 0. A new map is revision 1 now, logged. */
static void test_updates_on_a_new_map(void **state)
{
    (void)state;
    tn_moves mv = {0};
    tn_map *m = tn_test_new_map(256, 256); /* a layer and terrain; no cell written */
    assert_non_null(m);
    tn_hierarchy *h = build(m, &mv, 16, 0);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){2, 2, 4, 4}, 1u), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){250, 250, 252, 252}, 1u), TN_OK);
    int64_t before = tn__hierarchy_recomputed(h);
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
    assert_true(tn__hierarchy_recomputed(h) - before <= 8);
    assert_equals_fresh(h, m, &mv, 16, 0);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

static void test_updates_far_apart(void **state)
{
    (void)state;
    tn_moves mv = {0};
    tn_map *m = tn_test_random_map(256, 256, 0.1, 9090);
    tn_hierarchy *h = build(m, &mv, 16, 0); /* 256 sectors */
    tn_hierarchy_ctx *ctx = new_ctx();
    tn_test_rng rng = {17};
    tally t = {0};
    for (int round = 0; round < 3; round++) {
        int32_t at = 2 + 10 * round;
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){at, at, at + 2, at + 2}, 1u), TN_OK);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){252 - at, 252 - at, 254 - at, 254 - at}, 1u),
                         TN_OK);
        const int64_t before = tn__hierarchy_recomputed(h);
        assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
        assert_true(tn__hierarchy_recomputed(h) - before <= 8); /* 2 x 2 around each */
        assert_equals_fresh(h, m, &mv, 16, 0);
    }
    /* exactly as many edits as the log keeps (64), in two opposite corners: each edit's own
     * rectangle still (the 64th evicted the entry that vouched for the hierarchy's revision,
     * and the update took the rectangle around them all: 800 ms on 2048 x 2048) */
    for (int e = 0; e < 64; e++) {
        int32_t at = e % 2 ? 3 + (e / 2) % 2 : 250 - (e / 2) % 2;
        uint32_t v = tn_map_get(m, 0, at, at) ? 0u : 1u;
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){at, at, at + 1, at + 1}, v), TN_OK);
    }
    int64_t before = tn__hierarchy_recomputed(h);
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
    assert_true(tn__hierarchy_recomputed(h) - before <= 8);
    assert_equals_fresh(h, m, &mv, 16, 0);
    for (int e = 0; e < 70; e++) { /* more edits than the log keeps: their union */
        int32_t x = (int32_t)tn_test_below(&rng, 255), y = (int32_t)tn_test_below(&rng, 255);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + 1, y + 1}, e % 2 ? 0u : 1u), TN_OK);
    }
    assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
    assert_equals_fresh(h, m, &mv, 16, 0);
    check_queries(m, &mv, h, ctx, &rng, 3, 8, &t, 1.0);
    tn_hierarchy_ctx_destroy(ctx);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_handmade),
        cmocka_unit_test(test_largest_costs),
        cmocka_unit_test(test_costs_past_double_precision),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_small_sectors_bound),
        cmocka_unit_test(test_updates),
        cmocka_unit_test(test_updates_uniform),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_unit_size),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_update_out_of_memory),
        cmocka_unit_test(test_updates_far_apart),
        cmocka_unit_test(test_updates_on_a_new_map),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
