/* Sector flow fields (sector_field.h) on random maps with walls and mud, both move rules and
 * both step costs: at every cell, the cost equals the hierarchy's fast path cost to the goal
 * (the cheapest abstract route, itself checked against the oracle in test_hierarchy), is at
 * least the oracle's optimum, and is finite exactly where the oracle reaches the goal;
 * following the directions is legal, reaches the goal and costs what the field says; several
 * goals give the minimum over single goals; a one-tile budget gives the same values as an
 * unbounded one; updates make the field stale until its goal is set again; a crowd reading the
 * field through a flow view moves bit for bit as one reading the same directions from an
 * array; bad input. */
#include "oracle.h"
#include "support.h"
#include "tilenav/crowd.h"
#include "tilenav/sector_field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *only_alloc(size_t size, size_t align, void *user)
{
    (void)align;
    (void)user;
    return malloc(size);
}

static tn_sector_field *new_field(const tn_hierarchy *h, size_t budget)
{
    tn_sector_field_def d = tn_sector_field_def_default();
    d.hierarchy = h;
    d.memory_budget = budget;
    tn_sector_field *f = NULL;
    assert_int_equal(tn_sector_field_create(&d, &f), TN_OK);
    assert_non_null(f);
    return f;
}

static tn_hierarchy *new_hierarchy(const tn_map *m, const tn_moves *mv, int32_t sector, int32_t gap)
{
    tn_hierarchy_def d = tn_hierarchy_def_default();
    d.map = m;
    d.moves = *mv;
    d.sector_size = sector;
    d.portal_gap = gap;
    tn_hierarchy *h = NULL;
    assert_int_equal(tn_hierarchy_build(&d, &h), TN_OK);
    return h;
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-4 * (1.0 + fabs(b));
}

/* Every cell of the map: field against the hierarchy's fast path (single goal), the oracle's
 * reverse distances `opt`, and a walk along the directions. */
static void check_field(const tn_map *m, const tn_moves *mv, const tn_hierarchy *h,
                        tn_hierarchy_ctx *ctx, tn_sector_field *f, const tn_cell *goals, int ng,
                        const double *opt, tn_cell *path)
{
    const int32_t w = tn_map_width(m), hh = tn_map_height(m);
    for (int32_t y = 0; y < hh; y++)
        for (int32_t x = 0; x < w; x++) {
            tn_cell c = {x, y};
            int32_t dir = 99;
            float cost = 0.0f;
            tn_status st = tn_sector_field_dir(f, c, &dir, &cost);
            double o = opt[y * w + x];
            if (!isfinite(o)) {
                assert_int_equal(st, TN_NO_PATH);
                assert_int_equal(dir, TN_DIR_NONE);
                assert_true(isinf(cost));
                continue;
            }
            assert_int_equal(st, TN_OK);
            assert_true((double)cost >= o - 1e-6 * (1.0 + o));
            bool at_goal = false;
            for (int k = 0; k < ng; k++)
                at_goal |= goals[k].x == x && goals[k].y == y;
            assert_int_equal(dir == TN_DIR_NONE, at_goal);
            assert_int_equal(cost == 0.0f, at_goal);
            if (ng == 1) {
                tn_hierarchy_result r;
                assert_int_equal(
                    tn_hierarchy_path(ctx, h, c, goals[0], TN_HIERARCHY_FAST, path, w * hh, &r),
                    TN_OK);
                assert_true(close_to((double)cost, r.cost));
            }
            int32_t len = 0;
            double walked = 0.0;
            assert_int_equal(tn_sector_field_path(f, c, path, w * hh, &len, &walked), TN_OK);
            tn_cell end = path[len - 1];
            double check = tn_oracle_path_cost(m, mv, NULL, path, len, c, end);
            assert_true(check >= 0.0); /* every step legal */
            assert_true(close_to(walked, check));
            assert_true(close_to(walked, (double)cost));
            int32_t last = TN_DIR_NONE;
            float zero = 1.0f;
            assert_int_equal(tn_sector_field_dir(f, end, &last, &zero), TN_OK);
            assert_true(last == TN_DIR_NONE && zero == 0.0f);
        }
}

/* At each of `cells`, what `built` holds (tn_sector_field_peek) is, bit for bit, what `asked`
 * answers (tn_sector_field_dir, which builds the tile if need be). */
static void assert_peek_equals_dir(const tn_sector_field *built, tn_sector_field *asked,
                                   const tn_cell *cells, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        int32_t d1, d2;
        float c1, c2;
        tn_status s1 = tn_sector_field_peek(built, cells[i], &d1, &c1);
        tn_status s2 = tn_sector_field_dir(asked, cells[i], &d2, &c2);
        assert_int_equal(s1, s2);
        assert_int_equal(d1, d2);
        assert_memory_equal(&c1, &c2, sizeof c1);
    }
}

static void test_random(void **state)
{
    (void)state;
    tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
    tn_hierarchy_ctx *ctx = NULL;
    assert_int_equal(tn_hierarchy_ctx_create(&cd, &ctx), TN_OK);
    tn_test_rng rng = {2024};
    int64_t cells = 0, evicted = 0;
    for (int trial = 0; trial < 10; trial++) {
        int32_t w = 18 + (int32_t)tn_test_below(&rng, 24),
                hh = 18 + (int32_t)tn_test_below(&rng, 24);
        tn_map *m =
            tn_test_random_map(w, hh, 0.1 + 0.25 * tn_test_u01(&rng), 500u + (uint64_t)trial);
        assert_non_null(m);
        if (trial % 2)
            tn_test_add_mud(m, 0.25, 900u + (uint64_t)trial);
        tn_moves mv = {0};
        mv.diagonal = trial % 3 == 2 ? TN_DIAGONAL_NEVER : TN_DIAGONAL_NO_CUT;
        mv.costs = trial % 4 == 3 ? TN_COSTS_10_14 : TN_COSTS_EXACT;
        int32_t sector = 4 + (int32_t)tn_test_below(&rng, 9);
        int32_t gap = trial % 2 ? 0 : 1 + (int32_t)tn_test_below(&rng, (uint32_t)sector);
        tn_hierarchy *h = new_hierarchy(m, &mv, sector, gap);
        double *opt = malloc((size_t)w * (size_t)hh * sizeof *opt);
        tn_cell *path = malloc((size_t)w * (size_t)hh * sizeof *path);
        float *cost1 = malloc((size_t)w * (size_t)hh * sizeof *cost1);
        assert_true(opt && path && cost1);
        tn_sector_field *f = new_field(h, 0);
        tn_sector_field *tiny = new_field(h, 1); /* one tile: evicts at every sector change */
        for (int q = 0; q < 3; q++) {
            tn_cell goal = tn_test_random_open_cell(m, &rng);
            tn_oracle_dijkstra(m, &mv, NULL, &goal, 1, true, opt);
            assert_int_equal(tn_sector_field_set_goal(f, &goal, 1), TN_OK);
            check_field(m, &mv, h, ctx, f, &goal, 1, opt, path);
            cells += (int64_t)w * hh;
            /* the tiny budget: the same directions and costs, cell by cell, in scan order
             * (a tile at a time) and in a scattered order (a rebuild at almost every call) */
            assert_int_equal(tn_sector_field_set_goal(tiny, &goal, 1), TN_OK);
            for (int pass = 0; pass < 2; pass++)
                for (int32_t i = 0; i < w * hh; i++) {
                    int32_t j = pass ? (int32_t)(((int64_t)i * 7919) % (w * hh)) : i;
                    tn_cell c = {j % w, j / w};
                    int32_t d1, d2;
                    float c1, c2;
                    tn_status s1 = tn_sector_field_dir(f, c, &d1, &c1);
                    tn_status s2 = tn_sector_field_dir(tiny, c, &d2, &c2);
                    assert_int_equal(s1, s2);
                    assert_int_equal(d1, d2);
                    assert_memory_equal(&c1, &c2, sizeof c1);
                    cost1[j] = c1;
                }
            tn_sector_field_stats ts;
            tn_sector_field_stats_get(tiny, &ts);
            assert_int_equal(ts.tiles_max, 1);
            assert_true(ts.tiles_kept <= 1);
            evicted += ts.tiles_evicted;
            /* several goals: the minimum over the single goals' fields */
            tn_cell goals[3] = {goal, tn_test_random_open_cell(m, &rng),
                                tn_test_random_open_cell(m, &rng)};
            tn_oracle_dijkstra(m, &mv, NULL, goals, 3, true, opt);
            assert_int_equal(tn_sector_field_set_goal(f, goals, 3), TN_OK);
            check_field(m, &mv, h, ctx, f, goals, 3, opt, path);
            for (int k = 1; k < 3; k++) {
                assert_int_equal(tn_sector_field_set_goal(tiny, &goals[k], 1), TN_OK);
                for (int32_t i = 0; i < w * hh; i++) {
                    float ck = INFINITY;
                    tn_status sk = tn_sector_field_dir(tiny, (tn_cell){i % w, i / w}, NULL, &ck);
                    assert_true(sk == TN_OK || sk == TN_NO_PATH);
                    cost1[i] = ck < cost1[i] ? ck : cost1[i];
                }
            }
            for (int32_t i = 0; i < w * hh; i++) {
                float c = 0.0f;
                tn_status sc = tn_sector_field_dir(f, (tn_cell){i % w, i / w}, NULL, &c);
                assert_true(sc == TN_OK || sc == TN_NO_PATH);
                assert_true(isinf(c) ? isinf(cost1[i]) : close_to((double)c, (double)cost1[i]));
            }
        }
        tn_sector_field_destroy(tiny);
        tn_sector_field_destroy(f);
        free(cost1);
        free(path);
        free(opt);
        tn_hierarchy_destroy(h);
        tn_map_destroy(m);
    }
    assert_true(evicted > 0);
    print_message("random: %lld cells checked, %lld evictions in the one-tile fields\n",
                  (long long)cells, (long long)evicted);
    tn_hierarchy_ctx_destroy(ctx);
}

/* Edits: stale until set again, then the same as a field on a fresh hierarchy; prepare and
 * peek. */
static void test_updates(void **state)
{
    (void)state;
    tn_test_rng rng = {31};
    tn_map *m = tn_test_random_map(40, 33, 0.2, 77);
    tn_test_add_mud(m, 0.1, 78);
    tn_moves mv = {0};
    tn_hierarchy *h = new_hierarchy(m, &mv, 8, 0);
    tn_sector_field *f = new_field(h, 0);
    tn_cell goal = tn_test_random_open_cell(m, &rng);
    assert_int_equal(tn_sector_field_set_goal(f, &goal, 1), TN_OK);
    for (int round = 0; round < 8; round++) {
        int32_t x = (int32_t)tn_test_below(&rng, 39), y = (int32_t)tn_test_below(&rng, 32);
        uint32_t gid = tn_test_below(&rng, 3);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + 2, y + 2}, gid), TN_OK);
        int32_t d;
        assert_int_equal(tn_sector_field_dir(f, goal, &d, NULL), TN_E_MAP_CHANGED);
        assert_int_equal(tn_hierarchy_update(h, NULL), TN_OK);
        assert_int_equal(tn_sector_field_dir(f, goal, &d, NULL), TN_E_MAP_CHANGED);
        if (!tn_map_passable(m, goal.x, goal.y)) {
            assert_int_equal(tn_sector_field_set_goal(f, &goal, 1), TN_E_GOAL_BLOCKED);
            assert_int_equal(tn_sector_field_dir(f, goal, &d, NULL), TN_E_STATE);
            goal = tn_test_random_open_cell(m, &rng);
        }
        assert_int_equal(tn_sector_field_set_goal(f, &goal, 1), TN_OK);
        tn_hierarchy *fresh = new_hierarchy(m, &mv, 8, 0);
        tn_sector_field *g = new_field(fresh, 0);
        assert_int_equal(tn_sector_field_set_goal(g, &goal, 1), TN_OK);
        /* prepare every cell, then peek: the same as asking the fresh field */
        tn_cell all[40 * 33];
        for (int32_t i = 0; i < 40 * 33; i++)
            all[i] = (tn_cell){i % 40, i / 40};
        int32_t built = -1;
        assert_int_equal(tn_sector_field_prepare(f, all, 40 * 33, &built), TN_OK);
        assert_true(built > 0 || round > 0);
        assert_peek_equals_dir(f, g, all, 40 * 33);
        tn_sector_field_destroy(g);
        tn_hierarchy_destroy(fresh);
    }
    tn_sector_field_destroy(f);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

/* Tiles built in batches on two threads are the tiles built one at a time. */
static void test_threads(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(90, 70, 0.2, 515);
    tn_test_add_mud(m, 0.2, 516);
    tn_moves mv = {0};
    tn_hierarchy *h = new_hierarchy(m, &mv, 8, 0);
    tn_sector_field_def d = tn_sector_field_def_default();
    d.hierarchy = h;
    d.parallel_for = tn_test_two_threads;
    tn_sector_field *par = NULL;
    assert_int_equal(tn_sector_field_create(&d, &par), TN_OK);
    tn_sector_field *one = new_field(h, 0);
    tn_test_rng rng = {3};
    tn_cell goal = tn_test_random_open_cell(m, &rng);
    assert_int_equal(tn_sector_field_set_goal(par, &goal, 1), TN_OK);
    assert_int_equal(tn_sector_field_set_goal(one, &goal, 1), TN_OK);
    tn_cell all[90 * 70];
    for (int32_t i = 0; i < 90 * 70; i++)
        all[i] = (tn_cell){i % 90, i / 90};
    int32_t built = 0;
    assert_int_equal(tn_sector_field_prepare(par, all, 90 * 70, &built), TN_OK);
    tn_sector_field_stats ps;
    tn_sector_field_stats_get(par, &ps);
    assert_int_equal(built, ps.tiles_max); /* every sector, in one batch */
    assert_peek_equals_dir(par, one, all, 90 * 70);
    tn_sector_field_destroy(one);
    tn_sector_field_destroy(par);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

/* A crowd that reads the field through tn_flow_view_from_sector_field(), prepared before each
 * step, against the same crowd reading the same directions from a whole-map array: the same
 * states, step by step (the callback blends exactly the taps the array gives). A one-tile
 * budget cannot hold the agents' sectors: TN_E_FULL. */
static void test_crowd(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(64, 48, 0.08, 4242);
    tn_moves mv = {0};
    tn_hierarchy *h = new_hierarchy(m, &mv, 8, 0);
    tn_test_rng rng = {8};
    tn_cell goal = tn_test_random_open_cell(m, &rng);
    tn_sector_field *f = new_field(h, 0);
    assert_int_equal(tn_sector_field_set_goal(f, &goal, 1), TN_OK);
    const int32_t w = tn_map_width(m), hh = tn_map_height(m);
    /* the array: every cell's direction as the view's callback gives it */
    tn_vec2 *dir = calloc((size_t)w * (size_t)hh, sizeof *dir);
    assert_non_null(dir);
    tn_flow_view sv, av;
    assert_int_equal(tn_flow_view_from_sector_field(f, m, goal, &sv), TN_OK);
    for (int32_t i = 0; i < w * hh; i++) {
        tn_cell c = {i % w, i / w};
        int32_t d;
        tn_status st = tn_sector_field_dir(f, c, &d, NULL);
        assert_true(st == TN_OK || st == TN_NO_PATH);
        dir[i] = sv.cell_dir(sv.cell_user, c.x, c.y);
        float k = (d & 1) ? 0.70710678118654752f : 1.0f;
        tn_vec2 want = d == TN_DIR_NONE
                           ? (tn_vec2){0.0f, 0.0f}
                           : (tn_vec2){k * (float)tn_dir_dx(d), k * (float)tn_dir_dy(d)};
        assert_memory_equal(&dir[i], &want, sizeof want);
    }
    av = sv;
    av.dir = dir;
    av.cell_dir = NULL;
    av.cell_user = NULL;
    /* sampling: the same blend through the callback as from the array */
    float W = (float)(w * tn_map_tile_width(m)), H = (float)(hh * tn_map_tile_height(m));
    for (int k = 0; k < 5000; k++) {
        tn_vec2 p = {(float)tn_test_u01(&rng) * W, (float)tn_test_u01(&rng) * H};
        tn_vec2 a = tn_flow_view_sample(&sv, p), b = tn_flow_view_sample(&av, p);
        assert_memory_equal(&a, &b, sizeof a);
    }
    /* two crowds, one per view, from a field whose tiles start empty */
    tn_sector_field *g = new_field(h, 0);
    assert_int_equal(tn_sector_field_set_goal(g, &goal, 1), TN_OK);
    assert_int_equal(tn_flow_view_from_sector_field(g, m, goal, &sv), TN_OK);
    tn_crowd *c[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        tn_crowd_def cd = tn_crowd_def_default();
        cd.map = m;
        cd.capacity = 300;
        assert_int_equal(tn_crowd_create(&cd, &c[k]), TN_OK);
        assert_int_equal(tn_crowd_set_flow(c[k], 0, k ? &av : &sv), TN_OK);
        tn_test_rng r = {77};
        for (int made = 0, tries = 0; made < 300 && tries < 100000; tries++) {
            tn_agent_def ad = tn_agent_def_default();
            ad.pos = (tn_vec2){(float)tn_test_u01(&r) * W, (float)tn_test_u01(&r) * H};
            ad.target = TN_TARGET_FLOW;
            ad.flow = 0;
            tn_agent_id id;
            made += tn_crowd_add(c[k], &ad, &id) == TN_OK;
        }
        assert_int_equal(tn_crowd_count(c[k]), 300);
    }
    int64_t built = 0;
    for (int step = 0; step < 600; step++) {
        int32_t b = -1;
        assert_int_equal(tn_crowd_prepare_sector_field(c[0], 0, g, &b), TN_OK);
        built += b;
        assert_int_equal(tn_crowd_step(c[0]), TN_OK);
        assert_int_equal(tn_crowd_step(c[1]), TN_OK);
        assert_true(tn_crowd_hash(c[0]) == tn_crowd_hash(c[1]));
    }
    int arrived = 0;
    for (int32_t i = 0; i < 300; i++) {
        tn_agent_state as;
        assert_int_equal(tn_crowd_get(c[0], tn_crowd_agent_at(c[0], i), &as), TN_OK);
        arrived += as.arrived;
    }
    tn_sector_field_stats gs;
    tn_sector_field_stats_get(g, &gs);
    print_message("crowd: 300 agents, %d arrived in 600 steps, %lld tiles built of %d sectors\n",
                  arrived, (long long)built, gs.tiles_max);
    assert_true(built > 0 && built == gs.tiles_built);
    assert_true(arrived > 0);
    /* one tile cannot hold the sectors of agents spread over the map */
    tn_sector_field *tiny = new_field(h, 1);
    assert_int_equal(tn_crowd_prepare_sector_field(c[0], 0, tiny, NULL), TN_E_STATE); /* no goal */
    assert_int_equal(tn_sector_field_set_goal(tiny, &goal, 1), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c[0], 1, &av), TN_OK);
    int32_t b = -1;
    assert_int_equal(tn_crowd_prepare_sector_field(c[0], 1, tiny, &b), TN_OK); /* nobody on 1 */
    assert_int_equal(b, 0);
    for (int32_t i = 0; i < 300; i++)
        assert_int_equal(tn_crowd_set_target(c[0], tn_crowd_agent_at(c[0], i), TN_TARGET_FLOW,
                                             (tn_vec2){0, 0}, 1),
                         TN_OK);
    assert_int_equal(tn_crowd_prepare_sector_field(c[0], 1, tiny, NULL), TN_E_FULL);
    assert_int_equal(tn_crowd_prepare_sector_field(NULL, 0, tiny, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_crowd_prepare_sector_field(c[0], -1, tiny, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_crowd_prepare_sector_field(c[0], 0, NULL, NULL), TN_E_INVALID_ARG);
    tn_flow_view bad;
    assert_int_equal(tn_flow_view_from_sector_field(NULL, m, goal, &bad), TN_E_INVALID_ARG);
    assert_int_equal(tn_flow_view_from_sector_field(f, m, (tn_cell){w, 0}, &bad), TN_E_OUT_OF_MAP);
    tn_map *other = tn_test_random_map(10, 10, 0.0, 1);
    assert_int_equal(tn_flow_view_from_sector_field(f, other, goal, &bad), TN_E_INVALID_ARG);
    tn_map_destroy(other);
    tn_sector_field_destroy(tiny);
    tn_crowd_destroy(c[0]);
    tn_crowd_destroy(c[1]);
    tn_sector_field_destroy(g);
    tn_sector_field_destroy(f);
    free(dir);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

static void test_errors(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(20, 20, 0.0, 1);
    assert_int_equal(tn_map_set(m, 0, 3, 3, 1), TN_OK);
    tn_moves mv = {0};
    tn_hierarchy *h = new_hierarchy(m, &mv, 8, 0);
    tn_sector_field_def d = tn_sector_field_def_default();
    tn_sector_field *f = (tn_sector_field *)m;
    assert_int_equal(tn_sector_field_create(&d, &f), TN_E_INVALID_ARG); /* no hierarchy */
    assert_null(f);
    assert_int_equal(tn_sector_field_create(NULL, &f), TN_E_INVALID_ARG);
    d.hierarchy = h;
    assert_int_equal(tn_sector_field_create(&d, NULL), TN_E_INVALID_ARG);
    tn_sector_field_def bad = d;
    bad.internal_cookie = 0;
    assert_int_equal(tn_sector_field_create(&bad, &f), TN_E_INVALID_ARG);
    bad = d;
    bad.allocator.alloc = only_alloc;
    assert_int_equal(tn_sector_field_create(&bad, &f), TN_E_INVALID_ARG); /* half an allocator */
    assert_int_equal(tn_sector_field_create(&d, &f), TN_OK);
    int32_t dir = 5;
    float cost = 0.0f;
    assert_int_equal(tn_sector_field_dir(f, (tn_cell){1, 1}, &dir, &cost), TN_E_STATE);
    assert_true(dir == TN_DIR_NONE && isinf(cost));
    tn_cell ok = {1, 1}, outside = {20, 0}, wall = {3, 3};
    assert_int_equal(tn_sector_field_set_goal(f, NULL, 1), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_set_goal(f, &ok, 0), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_set_goal(f, &ok, TN_SECTOR_FIELD_MAX_GOALS + 1),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_set_goal(f, &outside, 1), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_sector_field_set_goal(f, &wall, 1), TN_E_GOAL_BLOCKED);
    assert_int_equal(tn_sector_field_set_goal(NULL, &ok, 1), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_set_goal(f, &ok, 1), TN_OK);
    assert_int_equal(tn_sector_field_dir(f, outside, &dir, NULL), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_sector_field_dir(f, (tn_cell){-1, 0}, &dir, NULL), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_sector_field_dir(f, wall, &dir, &cost), TN_NO_PATH);
    assert_int_equal(tn_sector_field_dir(NULL, ok, &dir, &cost), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_dir(f, ok, NULL, NULL), TN_OK);
    assert_int_equal(tn_sector_field_peek(f, (tn_cell){19, 19}, &dir, &cost), TN_E_NOT_FOUND);
    assert_int_equal(tn_sector_field_prepare(f, NULL, 1, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_prepare(f, &ok, -1, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_prepare(f, &outside, 1, NULL), TN_OK); /* skipped */
    int32_t len = -1;
    double c = -1.0;
    tn_cell far = {19, 19}, one[1];
    assert_int_equal(tn_sector_field_path(f, far, NULL, 1, &len, &c), TN_E_INVALID_ARG);
    assert_int_equal(tn_sector_field_path(f, far, one, 1, &len, &c), TN_E_BUFFER_TOO_SMALL);
    assert_true(len > 1 && c > 0.0);
    assert_int_equal(tn_sector_field_path(f, far, NULL, 0, &len, NULL), TN_E_BUFFER_TOO_SMALL);
    assert_int_equal(tn_sector_field_path(f, wall, one, 1, &len, &c), TN_NO_PATH);
    assert_true(tn_sector_field_memory_bytes(f) > 0);
    assert_int_equal(tn_sector_field_memory_bytes(NULL), 0);
    tn_sector_field_stats s;
    tn_sector_field_stats_get(f, &s);
    assert_true(s.goals == 1 && s.tiles_built >= 1 && s.nodes_reached > 0);
    tn_sector_field_stats_get(NULL, &s);
    assert_int_equal(s.goals, 0);
    tn_sector_field_stats_get(f, NULL);
    tn_sector_field_destroy(f);
    tn_sector_field_destroy(NULL);
    tn_hierarchy_destroy(h);
    tn_map_destroy(m);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_random), cmocka_unit_test(test_updates),
        cmocka_unit_test(test_crowd),  cmocka_unit_test(test_threads),
        cmocka_unit_test(test_errors),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
