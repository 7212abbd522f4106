/* Units bigger than one cell: every algorithm (A*, Dijkstra, JPS, JPS+, with goal bounds and
 * regions, flow fields and their incremental updates, distance maps) on a size's map
 * (tn_query::size, tn_clearance_map()) against the oracle's Dijkstra on the map eroded by
 * brute force in this file: a cell is open when the n x n square from it is all passable, and
 * entering it costs the largest cost of that square. Sizes 1..4, every movement rule,
 * handmade and seeded random maps with walls and mud, before and after random edits. */
#include "oracle.h"
#include "support.h"
#include "tilenav/clearance.h"
#include "tilenav/field.h"
#include "tilenav/goal_bounds.h"
#include "tilenav/regions.h"
#include "tilenav/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Costs the random maps use: gid 1 is a wall, gid 2 + k costs COSTS[k]. */
static const float COSTS[] = {1.0f, 2.0f, 3.0f, 5.5f};
#define NCOSTS 4

static void set_costs(tn_map *m)
{
    assert_int_equal(tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}), TN_OK);
    for (uint32_t k = 0; k < NCOSTS; k++)
        assert_int_equal(tn_map_set_terrain(m, 2 + k, (tn_terrain){true, COSTS[k]}), TN_OK);
}

/* A W x H map: walls with probability p, and (when mud) each open cell one of COSTS. */
static tn_map *random_map(int32_t w, int32_t h, double p, bool mud, tn_test_rng *r)
{
    tn_map *m = tn_test_blank_map(w, h, 16, 16);
    assert_int_equal(tn_map_add_layer(m, "ground", TN_LAYER_TILES, NULL), TN_OK);
    set_costs(m);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint32_t gid = tn_test_u01(r) < p ? 1u : 0u;
            if (!gid && mud)
                gid = 2 + tn_test_below(r, NCOSTS);
            assert_int_equal(tn_map_set(m, 0, x, y, gid), TN_OK);
        }
    return m;
}

/* The map eroded for size n, by brute force: open where the square fits, at its largest cost. */
static tn_map *eroded(const tn_map *m, int32_t n)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_map *e = tn_test_blank_map(w, h, 16, 16);
    assert_int_equal(tn_map_add_layer(e, "e", TN_LAYER_TILES, NULL), TN_OK);
    set_costs(e);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            float worst = 0.0f;
            bool fits = true;
            for (int32_t dy = 0; dy < n && fits; dy++)
                for (int32_t dx = 0; dx < n && fits; dx++) {
                    fits = tn_map_passable(m, x + dx, y + dy);
                    if (fits && tn_map_cost(m, x + dx, y + dy) > worst)
                        worst = tn_map_cost(m, x + dx, y + dy);
                }
            uint32_t gid = 1;
            for (uint32_t k = 0; fits && k < NCOSTS; k++)
                if (COSTS[k] == worst)
                    gid = 2 + k;
            assert_true(!fits || gid != 1);
            assert_int_equal(tn_map_set(e, 0, x, y, gid), TN_OK);
        }
    return e;
}

static tn_clearance *make_clearance(const tn_map *m, int32_t cap)
{
    tn_clearance_def d = tn_clearance_def_default();
    d.map = m;
    d.max_size = cap;
    tn_clearance *cl = NULL;
    assert_int_equal(tn_clearance_create(&d, &cl), TN_OK);
    return cl;
}

static const tn_diagonal RULES[] = {TN_DIAGONAL_NO_CUT, TN_DIAGONAL_NEVER, TN_DIAGONAL_ONE,
                                    TN_DIAGONAL_ALWAYS};

/* The size's map equals the brute-force erosion cell for cell. */
static void check_view(const tn_map *m, const tn_clearance *cl, int32_t n)
{
    const tn_map *v = tn_clearance_map(cl, n);
    assert_non_null(v);
    tn_map *e = eroded(m, n);
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            if (tn_map_passable(v, x, y) != tn_map_passable(e, x, y))
                fail_msg("size %d, cell (%d, %d): fits %d, brute force %d", n, x, y,
                         tn_map_passable(v, x, y), tn_map_passable(e, x, y));
            if (tn_map_passable(e, x, y) && tn_map_cost(v, x, y) != tn_map_cost(e, x, y))
                fail_msg("size %d, cell (%d, %d): cost %g, brute force %g", n, x, y,
                         (double)tn_map_cost(v, x, y), (double)tn_map_cost(e, x, y));
        }
    assert_int_equal(tn_map_passable_count(v), tn_map_passable_count(e));
    assert_int_equal(tn_map_uniform_cost(v), tn_map_uniform_cost(e));
    tn_map_destroy(e);
}

/* One query of size n from a to b with every algorithm that applies, against the oracle's
 * distances `d` from a on the eroded map `e`. */
static void check_query(tn_search *s, const tn_map *m, const tn_clearance *cl, const tn_regions *rg,
                        const tn_map *e, int32_t n, tn_diagonal rule, tn_cell a, tn_cell b,
                        const double *d)
{
    int32_t w = tn_map_width(m);
    double want = d[b.y * w + b.x];
    tn_moves mv = {rule, TN_COSTS_EXACT};
    const tn_map *v = tn_clearance_map(cl, n);
    bool jps = rule == TN_DIAGONAL_NO_CUT; /* weighted JPS on mud too */
    tn_jump_table *jt = NULL;
    tn_goal_bounds *gb = NULL;
    if (jps) {
        assert_int_equal(tn_test_jump_table(v, &jt), TN_OK);
        if (tn_map_uniform_cost(v)) /* goal bounds are built on maps of uniform cost only */
            assert_int_equal(tn_test_goal_bounds(v, &mv, &gb), TN_OK);
    }
    static const tn_algo ALGOS[] = {TN_ALGO_ASTAR, TN_ALGO_DIJKSTRA, TN_ALGO_JPS, TN_ALGO_JPS_PLUS};
    tn_cell path[4096];
    for (int variant = 0; variant < 8; variant++) {
        tn_algo algo = ALGOS[variant % 4];
        bool extras = variant >= 4; /* regions, and goal bounds for the jump searches */
        if ((algo == TN_ALGO_JPS || algo == TN_ALGO_JPS_PLUS) && !jps)
            continue;
        tn_query q = {0};
        q.moves = mv;
        q.algo = algo;
        q.size = n;
        q.clearance = cl;
        q.jump_table = jt;
        if (extras) {
            q.regions = rg;
            q.goal_bounds = gb;
        }
        tn_search_result res;
        tn_status st = tn_search_path(s, m, a, b, &q, path, 4096, &res);
        if (isinf(want)) {
            if (st != TN_NO_PATH)
                fail_msg("size %d rule %d algo %d (%d,%d)->(%d,%d): status %d, oracle: none", n,
                         rule, algo, a.x, a.y, b.x, b.y, st);
            if (extras && !tn_regions_connected(rg, n, a, b))
                assert_int_equal(res.expanded, 0); /* the regions answered */
            continue;
        }
        if (st != TN_OK)
            fail_msg("size %d rule %d algo %d (%d,%d)->(%d,%d): status %d, oracle %g", n, rule,
                     algo, a.x, a.y, b.x, b.y, st, want);
        double walked = tn_oracle_path_cost(e, &mv, NULL, path, res.length, a, b);
        if (walked < 0.0 || fabs(walked - want) > 1e-6 * (1.0 + want) ||
            fabs(res.cost - want) > 1e-6 * (1.0 + want))
            fail_msg("size %d rule %d algo %d (%d,%d)->(%d,%d): cost %g, walked %g, oracle %g", n,
                     rule, algo, a.x, a.y, b.x, b.y, res.cost, walked, want);
    }
    tn_jump_table_destroy(jt);
    tn_goal_bounds_destroy(gb);
}

/* A field of size n to goal g: distances equal the oracle's (to g on the eroded map), and
 * following the field from every reachable cell costs that distance. */
static void check_field(const tn_map *m, const tn_clearance *cl, const tn_map *e, int32_t n,
                        tn_diagonal rule, tn_cell g, tn_field *reuse)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_moves mv = {rule, TN_COSTS_EXACT};
    double *d = malloc((size_t)w * (size_t)h * sizeof *d);
    assert_non_null(d);
    tn_oracle_dijkstra(e, &mv, NULL, &g, 1, true, d);
    tn_field *f = reuse;
    if (!f) {
        tn_field_def fd = tn_field_def_default();
        fd.map = tn_clearance_map(cl, n);
        fd.moves = mv;
        fd.los = TN_LOS_EXACT;
        assert_int_equal(tn_field_create(&fd, &f), TN_OK);
        assert_int_equal(tn_field_build(f, &g, 1), TN_OK);
    }
    tn_cell path[4096];
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            double want = d[y * w + x], got = (double)tn_field_distance(f, x, y);
            if (isinf(want) != isinf(got) || (!isinf(want) && fabs(got - want) > 1e-4 * want))
                fail_msg("field size %d rule %d goal (%d,%d) cell (%d,%d): %g, oracle %g", n, rule,
                         g.x, g.y, x, y, got, want);
            if (isinf(want) || (x == g.x && y == g.y))
                continue;
            int32_t len = 0;
            assert_int_equal(tn_field_path(f, (tn_cell){x, y}, path, 4096, &len, NULL), TN_OK);
            double walked = tn_oracle_path_cost(e, &mv, NULL, path, len, (tn_cell){x, y}, g);
            if (walked < 0.0 || fabs(walked - want) > 1e-4 * want)
                fail_msg("field path size %d from (%d,%d): walked %g, oracle %g", n, x, y, walked,
                         want);
        }
    if (!reuse)
        tn_field_destroy(f);
    free(d);
}

static tn_regions *make_regions(const tn_map *m, int32_t cap)
{
    tn_regions_def d = tn_regions_def_default();
    d.map = m;
    d.diagonal = TN_DIAGONAL_ALWAYS; /* serves every rule */
    d.max_size = cap;
    tn_regions *r = NULL;
    assert_int_equal(tn_regions_create(&d, &r), TN_OK);
    return r;
}

/* Every check on one map: views, queries between random pairs, fields, distance maps. */
static void check_map(tn_search *s, const tn_map *m, const tn_clearance *cl, const tn_regions *rg,
                      tn_test_rng *r, int pairs)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    double *d = malloc((size_t)w * (size_t)h * sizeof *d);
    double *dm = malloc((size_t)w * (size_t)h * sizeof *dm);
    assert_non_null(d);
    assert_non_null(dm);
    for (int32_t n = 1; n <= 4; n++) {
        check_view(m, cl, n);
        const tn_map *v = tn_clearance_map(cl, n);
        if (tn_map_passable_count(v) == 0)
            continue;
        tn_map *e = eroded(m, n);
        for (size_t ri = 0; ri < sizeof RULES / sizeof RULES[0]; ri++) {
            tn_moves mv = {RULES[ri], TN_COSTS_EXACT};
            for (int p = 0; p < pairs; p++) {
                tn_cell a = tn_test_random_open_cell(v, r), b = tn_test_random_open_cell(v, r);
                tn_oracle_dijkstra(e, &mv, NULL, &a, 1, false, d);
                check_query(s, m, cl, rg, e, n, RULES[ri], a, b, d);
                /* the distance map on the size's map */
                assert_int_equal(tn_search_distances(s, v, &a, 1, &mv, NULL, false, dm, w * h),
                                 TN_OK);
                for (int32_t i = 0; i < w * h; i++)
                    if (isinf(d[i]) != isinf(dm[i]) ||
                        (!isinf(d[i]) && fabs(d[i] - dm[i]) > 1e-6 * (1.0 + d[i])))
                        fail_msg("distances size %d cell %d: %g, oracle %g", n, i, dm[i], d[i]);
            }
            check_field(m, cl, e, n, RULES[ri], tn_test_random_open_cell(v, r), NULL);
        }
        tn_map_destroy(e);
    }
    free(d);
    free(dm);
}

static tn_search *make_search(void)
{
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    return s;
}

static void test_handmade(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "..........#.......", /* */
        "..........#.......", /* */
        "....~~....#.......", /* */
        "....~~............", /* */
        "...............~..", /* */
        "######.###########", /* */
        "..................", /* */
        "...#..............", /* */
    };
    tn_map *m = tn_test_map_from_rows(rows, 8);
    tn_clearance *cl = make_clearance(m, 4);
    tn_regions *rg = make_regions(m, 4);
    tn_search *s = make_search();
    /* a 2x2 unit passes the wall at x = 10 through its two-cell door (rows 3, 4), not the
     * one-cell gap in row 5 */
    const tn_map *v2 = tn_clearance_map(cl, 2);
    assert_true(tn_map_passable(v2, 9, 3));
    assert_true(tn_map_passable(v2, 10, 3));
    assert_false(tn_map_passable(v2, 10, 2));
    assert_false(tn_map_passable(v2, 6, 4)); /* the one-wide gap */
    assert_true(tn_map_passable(tn_clearance_map(cl, 1), 6, 5));
    /* the mud square makes (3, 1) cost 3 for a 2x2 unit (it covers (4, 2)) */
    assert_true(tn_map_cost(v2, 3, 1) == 3.0f);
    assert_true(tn_map_cost(v2, 2, 1) == 1.0f);
    tn_query q = {0};
    q.size = 2;
    q.clearance = cl;
    q.regions = rg;
    tn_cell path[256];
    tn_search_result res;
    /* top-left to the bottom room: a 2x2 unit cannot pass the 1-wide gaps in row 5 */
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){0, 6}, &q, path, 256, &res),
                     TN_NO_PATH);
    assert_int_equal(res.expanded, 0);
    q.size = 1;
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){0, 6}, &q, path, 256, &res),
                     TN_OK);
    /* a 3x3 unit does not fit at the goal's row 6 (rows 6, 7 only) */
    q.size = 3;
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){0, 6}, &q, path, 256, &res),
                     TN_E_GOAL_BLOCKED);
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 6}, (tn_cell){0, 0}, &q, path, 256, &res),
                     TN_E_START_BLOCKED);
    tn_test_rng r = {7};
    check_map(s, m, cl, rg, &r, 6);
    tn_search_destroy(s);
    tn_regions_destroy(rg);
    tn_clearance_destroy(cl);
    tn_map_destroy(m);
}

static void test_random(void **state)
{
    (void)state;
    tn_test_rng r = {20261125};
    tn_search *s = make_search();
    for (int round = 0; round < 60; round++) {
        int32_t w = 6 + (int32_t)tn_test_below(&r, 18), h = 6 + (int32_t)tn_test_below(&r, 18);
        double p = 0.05 + 0.25 * tn_test_u01(&r);
        tn_map *m = random_map(w, h, p, round % 2 == 1, &r);
        tn_clearance *cl = make_clearance(m, 4);
        tn_regions *rg = make_regions(m, 4);
        check_map(s, m, cl, rg, &r, 3);
        tn_regions_destroy(rg);
        tn_clearance_destroy(cl);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

/* Random edits (walls, mud, clearing): after tn_clearance_update() the size maps equal a
 * fresh erosion, fields built on them update incrementally to the oracle's distances, and
 * queries agree with the oracle. */
static void test_edits(void **state)
{
    (void)state;
    tn_test_rng r = {99};
    tn_search *s = make_search();
    for (int round = 0; round < 6; round++) {
        int32_t w = 12 + (int32_t)tn_test_below(&r, 12), h = 12 + (int32_t)tn_test_below(&r, 12);
        tn_map *m = random_map(w, h, 0.08, round % 2 == 0, &r);
        tn_clearance *cl = make_clearance(m, 4);
        tn_regions *rg = make_regions(m, 4);
        tn_field *fields[5] = {0};
        tn_cell goals[5];
        for (int32_t n = 1; n <= 4; n++) {
            const tn_map *v = tn_clearance_map(cl, n);
            if (tn_map_passable_count(v) == 0)
                continue;
            tn_field_def fd = tn_field_def_default();
            fd.map = v;
            assert_int_equal(tn_field_create(&fd, &fields[n]), TN_OK);
            goals[n] = tn_test_random_open_cell(v, &r);
            assert_int_equal(tn_field_build(fields[n], &goals[n], 1), TN_OK);
        }
        for (int edit = 0; edit < 8; edit++) {
            int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
            int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h);
            int32_t bw = 1 + (int32_t)tn_test_below(&r, 3), bh = 1 + (int32_t)tn_test_below(&r, 3);
            uint32_t kind = tn_test_below(&r, 3);
            uint32_t gid = kind == 0 ? 1u : kind == 1 ? 2 + tn_test_below(&r, NCOSTS) : 0u;
            tn_rect rect = {x, y, x + bw, y + bh};
            assert_int_equal(tn_map_fill(m, 0, rect, gid), TN_OK);
            int32_t touched = 0;
            assert_int_equal(tn_clearance_update(cl, &touched), TN_OK);
            assert_true(touched > 0);
            assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
            for (int32_t n = 1; n <= 4; n++) {
                check_view(m, cl, n);
                /* the regions' own clearance (size maps by default) serves sized queries and
                 * follows the edits like the separate one */
                check_view(m, tn_regions_clearance(rg), n);
                const tn_map *v = tn_clearance_map(cl, n);
                if (!fields[n])
                    continue;
                if (!tn_map_passable(v, goals[n].x, goals[n].y)) {
                    assert_int_equal(tn_field_update(fields[n], NULL, NULL), TN_E_GOAL_BLOCKED);
                    tn_field_destroy(fields[n]);
                    fields[n] = NULL;
                    continue;
                }
                assert_int_equal(tn_field_update(fields[n], NULL, NULL), TN_OK);
                tn_map *e = eroded(m, n);
                check_field(m, cl, e, n, TN_DIAGONAL_NO_CUT, goals[n], fields[n]);
                tn_map_destroy(e);
            }
        }
        check_map(s, m, cl, rg, &r, 2);
        for (int32_t n = 1; n <= 4; n++)
            tn_field_destroy(fields[n]);
        tn_regions_destroy(rg);
        tn_clearance_destroy(cl);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

/* One context alternating JPS queries between the size maps of two maps (six maps, more
 * than the context keeps caches for): every answer equals a fresh context's. */
static void test_alternating_maps(void **state)
{
    (void)state;
    tn_test_rng r = {31337};
    tn_map *m[2];
    tn_clearance *cl[2];
    for (int k = 0; k < 2; k++) {
        m[k] = random_map(40, 30, 0.15, false, &r);
        cl[k] = make_clearance(m[k], 3);
    }
    tn_search *s = make_search();
    tn_cell path[2000], fresh_path[2000];
    for (int round = 0; round < 60; round++) {
        int k = (int)tn_test_below(&r, 2);
        int32_t n = 1 + (int32_t)tn_test_below(&r, 3);
        const tn_map *v = tn_clearance_map(cl[k], n);
        if (tn_map_passable_count(v) == 0)
            continue;
        tn_cell a = tn_test_random_open_cell(v, &r), b = tn_test_random_open_cell(v, &r);
        tn_query q = {0};
        q.algo = TN_ALGO_JPS;
        q.size = n;
        q.clearance = cl[k];
        tn_search_result res, fres;
        tn_status st = tn_search_path(s, m[k], a, b, &q, path, 2000, &res);
        tn_search *fresh = make_search();
        tn_status fst = tn_search_path(fresh, m[k], a, b, &q, fresh_path, 2000, &fres);
        tn_search_destroy(fresh);
        assert_int_equal(st, fst);
        assert_int_equal(res.length, fres.length);
        assert_true(res.cost == fres.cost);
        assert_int_equal(res.expanded, fres.expanded);
        if (st == TN_OK)
            assert_memory_equal(path, fresh_path, sizeof(tn_cell) * (size_t)res.length);
    }
    tn_search_destroy(s);
    for (int k = 0; k < 2; k++) {
        tn_clearance_destroy(cl[k]);
        tn_map_destroy(m[k]);
    }
}

/* The wall-off query for big units: tn_clearance_anchors_over() gives exactly the top-left
 * cells a tower takes from the unit (brute force: fit before, not after), and the field's
 * answer on them equals the oracle's reachability on the map with the tower built. */
static void test_wall_off(void **state)
{
    (void)state;
    tn_test_rng r = {4242};
    for (int round = 0; round < 40; round++) {
        int32_t w = 8 + (int32_t)tn_test_below(&r, 10), h = 8 + (int32_t)tn_test_below(&r, 10);
        tn_map *m = random_map(w, h, 0.12, false, &r);
        tn_clearance *cl = make_clearance(m, 3);
        for (int32_t n = 1; n <= 3; n++) {
            const tn_map *v = tn_clearance_map(cl, n);
            if (tn_map_passable_count(v) < 2)
                continue;
            tn_cell goal = tn_test_random_open_cell(v, &r), spawn = tn_test_random_open_cell(v, &r);
            tn_field_def fd = tn_field_def_default();
            fd.map = v;
            tn_field *f = NULL;
            assert_int_equal(tn_field_create(&fd, &f), TN_OK);
            assert_int_equal(tn_field_build(f, &goal, 1), TN_OK);
            int32_t x = (int32_t)tn_test_below(&r, (uint32_t)(w - 1));
            int32_t y = (int32_t)tn_test_below(&r, (uint32_t)(h - 1));
            tn_cell tower[4] = {{x, y}, {x + 1, y}, {x, y + 1}, {x + 1, y + 1}};
            tn_cell lost[64];
            int32_t nlost = -1;
            assert_int_equal(tn_clearance_anchors_over(cl, n, tower, 4, lost, 64, &nlost), TN_OK);
            /* brute force: build the tower on a clone, erode, compare */
            tn_map *after = NULL;
            assert_int_equal(tn_map_clone(m, &after), TN_OK);
            assert_int_equal(tn_map_fill(after, 0, (tn_rect){x, y, x + 2, y + 2}, 1), TN_OK);
            tn_map *e = eroded(after, n);
            int32_t want = 0;
            for (int32_t yy = 0; yy < h; yy++)
                for (int32_t xx = 0; xx < w; xx++) {
                    if (!tn_map_passable(v, xx, yy) || tn_map_passable(e, xx, yy))
                        continue;
                    want++;
                    bool listed = false;
                    for (int32_t k = 0; k < nlost; k++)
                        listed = listed || (lost[k].x == xx && lost[k].y == yy);
                    if (!listed)
                        fail_msg("size %d: (%d, %d) lost under the tower, not listed", n, xx, yy);
                }
            assert_int_equal(nlost, want);
            bool cut = false;
            assert_int_equal(tn_field_would_wall_off(f, lost, nlost, &spawn, 1, &cut), TN_OK);
            double *d = malloc((size_t)w * (size_t)h * sizeof *d);
            assert_non_null(d);
            tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
            tn_oracle_dijkstra(e, &mv, NULL, &spawn, 1, false, d);
            bool reach = tn_map_passable(e, spawn.x, spawn.y) &&
                         tn_map_passable(e, goal.x, goal.y) && !isinf(d[goal.y * w + goal.x]);
            if (cut != !reach)
                fail_msg("size %d tower (%d, %d): wall-off says %d, oracle reach %d", n, x, y, cut,
                         reach);
            free(d);
            tn_map_destroy(e);
            tn_map_destroy(after);
            tn_field_destroy(f);
        }
        tn_clearance_destroy(cl);
        tn_map_destroy(m);
    }
    /* a short buffer tells the need */
    tn_map *m = tn_test_blank_map(6, 6, 16, 16);
    tn_clearance *cl = make_clearance(m, 3);
    tn_cell c = {3, 3}, out[2];
    int32_t need = 0;
    assert_int_equal(tn_clearance_anchors_over(cl, 3, &c, 1, out, 2, &need), TN_E_BUFFER_TOO_SMALL);
    assert_true(need >= 9);
    assert_int_equal(tn_clearance_anchors_over(cl, 4, &c, 1, out, 2, &need), TN_E_INVALID_ARG);
    tn_clearance_destroy(cl);
    tn_map_destroy(m);
}

/* Wrong sizes and stale clearances are refused with their codes; size maps refuse edits. */
/* A size map read directly (a field on it, a search or distance map given it as the map) after
 * an edit of its source map and before tn_clearance_update(): every reader answers
 * TN_E_MAP_CHANGED rather than the map before the edit, and all is well after the update. */
static void test_size_map_behind(void **state)
{
    (void)state;
    tn_map *m = tn_test_new_map(12, 8);
    tn_clearance *cl = make_clearance(m, 2);
    const tn_map *v = tn_clearance_map(cl, 2);
    tn_field_def fd = tn_field_def_default();
    fd.map = v;
    tn_field *f = NULL;
    assert_int_equal(tn_field_create(&fd, &f), TN_OK);
    tn_cell goal = {10, 6}, start = {0, 0}, path[128];
    assert_int_equal(tn_field_build(f, &goal, 1), TN_OK);
    int32_t len = 0;
    assert_int_equal(tn_field_path(f, start, path, 128, &len, NULL), TN_OK);
    tn_search *s = make_search();
    tn_search_result res;
    static double dist[12 * 8];
    assert_int_equal(tn_search_path(s, v, start, goal, NULL, path, 128, &res), TN_OK);
    /* a wall across the map at x = 6 splits it */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){6, 0, 7, 8}, 1), TN_OK);
    assert_int_equal(tn_field_update(f, NULL, NULL), TN_E_MAP_CHANGED);
    assert_int_equal(tn_field_path(f, start, path, 128, &len, NULL), TN_E_MAP_CHANGED);
    bool cut = true;
    tn_cell tower = {2, 2};
    assert_int_equal(tn_field_would_wall_off(f, &tower, 1, &start, 1, &cut), TN_E_MAP_CHANGED);
    assert_int_equal(tn_field_build(f, &goal, 1), TN_E_MAP_CHANGED);
    assert_int_equal(tn_search_path(s, v, start, goal, NULL, path, 128, &res), TN_E_MAP_CHANGED);
    assert_non_null(strstr(tn_search_error_detail(s), "tn_clearance_update()"));
    assert_int_equal(tn_search_distances(s, v, &start, 1, NULL, NULL, false, dist, 12 * 8),
                     TN_E_MAP_CHANGED);
    /* the source map itself is read as it is */
    assert_int_equal(tn_search_path(s, m, start, goal, NULL, path, 128, &res), TN_NO_PATH);
    assert_int_equal(tn_clearance_update(cl, NULL), TN_OK);
    assert_int_equal(tn_field_update(f, NULL, NULL), TN_OK);
    assert_int_equal(tn_field_path(f, start, path, 128, &len, NULL), TN_NO_PATH);
    assert_int_equal(tn_search_path(s, v, start, goal, NULL, path, 128, &res), TN_NO_PATH);
    assert_int_equal(tn_search_distances(s, v, &start, 1, NULL, NULL, false, dist, 12 * 8), TN_OK);
    assert_true(isinf(dist[6 * 12 + 10]) && dist[1] == 1.0);
    /* no edit since the update: an update with nothing to do keeps the view current */
    assert_int_equal(tn_clearance_update(cl, NULL), TN_OK);
    assert_int_equal(tn_field_path(f, start, path, 128, &len, NULL), TN_NO_PATH);
    tn_search_destroy(s);
    tn_field_destroy(f);
    tn_clearance_destroy(cl);
    tn_map_destroy(m);
}

static void test_errors(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(10, 10, 0.1, 3);
    tn_map *other = tn_test_random_map(10, 10, 0.1, 4);
    tn_clearance *cl = make_clearance(m, 3);
    tn_search *s = make_search();
    tn_cell path[128];
    tn_search_result res;
    tn_query q = {0};
    q.size = 2; /* no clearance */
    tn_cell a = tn_test_random_open_cell(tn_clearance_map(cl, 2), &(tn_test_rng){5});
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "needs query.clearance"));
    q.clearance = cl;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_OK);
    assert_string_equal(tn_search_error_detail(s), "");
    q.size = 4; /* past the cap */
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "above the clearance's max_size"));
    q.size = -1;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "query.size must be 0..255"));
    q.size = 2; /* another map */
    assert_int_equal(tn_search_path(s, other, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "another map"));
    /* regions without the size class, or for a narrower rule than the query's */
    tn_regions_def rd = tn_regions_def_default();
    rd.map = m;
    tn_regions *rg1 = NULL;
    assert_int_equal(tn_regions_create(&rd, &rg1), TN_OK);
    q.regions = rg1;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "no size class"));
    q.size = 1;
    q.moves.diagonal = TN_DIAGONAL_ALWAYS;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "TN_DIAGONAL_ALWAYS"));
    q.moves.diagonal = TN_DIAGONAL_NO_CUT;
    q.regions = NULL;
    q.size = 2;
    tn_regions_destroy(rg1);
    /* JPS+ without a table, JPS on rules it does not apply to */
    q.algo = TN_ALGO_JPS_PLUS;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "query.jump_table"));
    q.algo = TN_ALGO_JPS;
    q.moves.diagonal = TN_DIAGONAL_ONE;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_UNSUPPORTED);
    assert_non_null(strstr(tn_search_error_detail(s), "jps_fallback"));
    q.algo = TN_ALGO_ASTAR;
    q.moves.diagonal = TN_DIAGONAL_NO_CUT;
    q.weight = 0.5;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_non_null(strstr(tn_search_error_detail(s), "query.weight"));
    q.weight = 0.0;
    assert_string_equal(tn_search_error_detail(NULL), "");
    /* an edit not yet read by the clearance */
    assert_int_equal(tn_map_set(m, 0, 9, 9, 1), TN_OK);
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_MAP_CHANGED);
    assert_non_null(strstr(tn_search_error_detail(s), "tn_clearance_update()"));
    assert_int_equal(tn_clearance_update(cl, NULL), TN_OK);
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_OK);
    /* a sliced query sees an edit of the source map */
    tn_cell b = tn_test_random_open_cell(tn_clearance_map(cl, 2), &(tn_test_rng){6});
    if (b.x != a.x || b.y != a.y) {
        assert_int_equal(tn_search_begin(s, m, a, &b, 1, &q), TN_IN_PROGRESS);
        assert_int_equal(tn_map_set(m, 0, 0, 9, 1), TN_OK);
        assert_int_equal(tn_search_step(s, 1), TN_E_MAP_CHANGED);
        assert_int_equal(tn_clearance_update(cl, NULL), TN_OK);
    }
    /* size maps: NULL outside 1..cap, the source map at 1, read-only */
    assert_null(tn_clearance_map(cl, 0));
    assert_null(tn_clearance_map(cl, 4));
    assert_ptr_equal(tn_clearance_map(cl, 1), m);
    tn_map *v;
    const tn_map *cv = tn_clearance_map(cl, 2);
    memcpy(&v, &cv, sizeof v); /* what a caller casting the const away would get */
    assert_int_equal(tn_map_set_terrain(v, 1, (tn_terrain){false, 1.0f}), TN_E_STATE);
    assert_int_equal(tn_map_add_layer(v, "x", TN_LAYER_TILES, NULL), TN_E_STATE);
    /* without size maps */
    tn_clearance_def d = tn_clearance_def_default();
    d.map = m;
    d.size_maps = false;
    tn_clearance *bare = NULL;
    assert_int_equal(tn_clearance_create(&d, &bare), TN_OK);
    assert_null(tn_clearance_map(bare, 2));
    q.clearance = bare;
    assert_int_equal(tn_search_path(s, m, a, a, &q, path, 128, &res), TN_E_INVALID_ARG);
    assert_true(tn_clearance_memory_bytes(cl) > tn_clearance_memory_bytes(bare));
    tn_clearance_destroy(bare);
    tn_search_destroy(s);
    tn_clearance_destroy(cl);
    tn_map_destroy(other);
    tn_map_destroy(m);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_handmade),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_wall_off),
        cmocka_unit_test(test_alternating_maps),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_size_map_behind),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
