/* Regions against the oracle's reachability (a Dijkstra on the map eroded for each unit size),
 * on handmade and seeded random maps, for every movement rule; searches with regions against
 * searches without; updates after edits. */
#include "oracle.h"
#include "support.h"
#include "tilenav/clearance.h"
#include "tilenav/regions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Does an n x n square fit at (x, y)? (brute force) */
static bool fits(const tn_map *m, int32_t x, int32_t y, int32_t n)
{
    for (int32_t dy = 0; dy < n; dy++)
        for (int32_t dx = 0; dx < n; dx++)
            if (!tn_map_passable(m, x + dx, y + dy))
                return false;
    return true;
}

/* The map eroded for units of size n: a cell is open when the unit fits there. */
static tn_map *eroded(const tn_map *m, int32_t n)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_map *e = tn_test_blank_map(w, h, 32, 32);
    int32_t l = -1;
    assert_int_equal(tn_map_add_layer(e, "e", TN_LAYER_TILES, &l), TN_OK);
    assert_int_equal(tn_map_set_terrain(e, 1, (tn_terrain){false, 1.0f}), TN_OK);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (!fits(m, x, y, n))
                assert_int_equal(tn_map_set(e, l, x, y, 1), TN_OK);
    return e;
}

static tn_regions *make(const tn_map *m, tn_diagonal rule, int32_t sizes)
{
    tn_regions_def d = tn_regions_def_default();
    d.map = m;
    d.diagonal = rule;
    d.max_size = sizes;
    tn_regions *r = NULL;
    assert_int_equal(tn_regions_create(&d, &r), TN_OK);
    return r;
}

/* Every pair of cells: same region exactly when the oracle reaches one from the other on the
 * eroded map under the rule; ids are -1 exactly where the unit does not fit; counts match. */
static void check(const tn_map *m, const tn_regions *r, tn_diagonal rule, int32_t size)
{
    tn_map *e = eroded(m, size);
    int32_t w = tn_map_width(m), h = tn_map_height(m), n = w * h;
    tn_moves mv = {rule, TN_COSTS_EXACT};
    double *d = malloc((size_t)n * sizeof *d);
    assert_non_null(d);
    int32_t *seen = calloc((size_t)n, sizeof *seen), regions = 0;
    assert_non_null(seen);
    for (int32_t a = 0; a < n; a++) {
        tn_cell ca = {a % w, a / w};
        int32_t ia = tn_regions_id(r, size, ca.x, ca.y);
        if (!tn_map_passable(e, ca.x, ca.y)) {
            if (ia != -1)
                fail_msg("size %d: (%d, %d) does not fit but has region %d", size, ca.x, ca.y, ia);
            continue;
        }
        assert_true(ia >= 0 && ia < tn_regions_count(r, size));
        if (seen[a])
            continue;
        regions++;
        tn_oracle_dijkstra(e, &mv, NULL, &ca, 1, false, d);
        for (int32_t b = 0; b < n; b++) {
            tn_cell cb = {b % w, b / w};
            bool reach = isfinite(d[b]);
            bool same = tn_regions_connected(r, size, ca, cb);
            if (reach != same)
                fail_msg("size %d rule %d: (%d,%d)-(%d,%d) oracle %d regions %d", size, (int)rule,
                         ca.x, ca.y, cb.x, cb.y, reach, same);
            if (reach)
                seen[b] = 1;
        }
    }
    assert_int_equal(regions, tn_regions_count(r, size));
    free(seen);
    free(d);
    tn_map_destroy(e);
}

/* A build numbers the regions in row-major order of their first cells (regions.h): reading
 * the cells in that order, each id not seen before is the next one. */
static void check_build_order(const tn_regions *r, int32_t w, int32_t h, int32_t size)
{
    int32_t next = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t id = tn_regions_id(r, size, x, y);
            if (id > next)
                fail_msg("size %d: (%d, %d) has id %d, expected at most %d", size, x, y, id, next);
            if (id == next)
                next++;
        }
    assert_int_equal(next, tn_regions_count(r, size));
}

static void test_handmade(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "...#....", /* a wall splits the map; a diagonal gap joins only under ALWAYS */
        "...#....", /* */
        "....#...", /* */
        "...#.#..", /* */
    };
    tn_map *m = tn_test_map_from_rows(rows, 4);
    tn_regions *four = make(m, TN_DIAGONAL_NO_CUT, 2);
    tn_regions *eight = make(m, TN_DIAGONAL_ALWAYS, 2);
    assert_false(tn_regions_connected(four, 1, (tn_cell){0, 0}, (tn_cell){7, 0}));
    assert_true(tn_regions_connected(eight, 1, (tn_cell){0, 0}, (tn_cell){7, 0}));
    assert_int_equal(tn_regions_id(four, 1, 3, 0), -1);
    assert_int_equal(tn_regions_id(four, 3, 0, 0), -1); /* no such size class */
    assert_int_equal(tn_regions_count(four, 9), 0);
    for (int32_t s = 1; s <= 2; s++) {
        check(m, four, TN_DIAGONAL_NO_CUT, s);
        check(m, four, TN_DIAGONAL_ONE, s); /* the same regions */
        check(m, four, TN_DIAGONAL_NEVER, s);
        check(m, eight, TN_DIAGONAL_ALWAYS, s);
    }
    tn_regions_destroy(four);
    tn_regions_destroy(eight);
    tn_map_destroy(m);
}

static void test_random(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        tn_test_rng r = {seed * 31337};
        int32_t w = 2 + (int32_t)tn_test_below(&r, 18), h = 2 + (int32_t)tn_test_below(&r, 14);
        tn_map *m = tn_test_random_map(w, h, 0.1 + 0.35 * tn_test_u01(&r), seed);
        tn_diagonal rule = (tn_diagonal)tn_test_below(&r, 4);
        int32_t sizes = 1 + (int32_t)tn_test_below(&r, 3);
        tn_regions *rg = make(m, rule, sizes);
        for (int32_t s = 1; s <= sizes; s++) {
            check(m, rg, rule, s);
            check_build_order(rg, w, h, s);
        }
        tn_regions_destroy(rg);
        tn_map_destroy(m);
    }
}

/* Queries with regions: the same status and cost as without; unreachable goals expand nothing.
 * After an edit the regions are stale (TN_E_MAP_CHANGED) until updated. */
static void test_search(void **state)
{
    (void)state;
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    tn_cell path[2000];
    for (uint64_t seed = 1; seed <= 12; seed++) {
        tn_test_rng r = {seed * 7};
        tn_map *m = tn_test_random_map(40, 30, 0.38, seed);
        tn_diagonal rule = (tn_diagonal)tn_test_below(&r, 4);
        tn_regions *rg = make(m, rule, 1);
        for (int i = 0; i < 60; i++) {
            tn_cell a = tn_test_random_open_cell(m, &r), b = tn_test_random_open_cell(m, &r);
            tn_query q;
            memset(&q, 0, sizeof q);
            q.moves.diagonal = rule;
            if (i % 2) { /* JPS, which falls back to A* but under TN_DIAGONAL_NO_CUT */
                q.algo = TN_ALGO_JPS;
                q.jps_fallback = true;
            }
            tn_search_result r0, r1;
            tn_status s0 = tn_search_path(s, m, a, b, &q, path, 2000, &r0);
            q.regions = rg;
            tn_status s1 = tn_search_path(s, m, a, b, &q, path, 2000, &r1);
            assert_int_equal(s0, s1);
            assert_true(r0.cost == r1.cost && r0.length == r1.length);
            /* the result names the algorithm that ran, or would have when the regions answer */
            tn_algo want = i % 2 && rule == TN_DIAGONAL_NO_CUT ? TN_ALGO_JPS : TN_ALGO_ASTAR;
            assert_int_equal(r0.algo, want);
            assert_int_equal(r1.algo, want);
            q.algo = TN_ALGO_ASTAR;
            q.jps_fallback = false;
            if (s1 == TN_NO_PATH) {
                assert_int_equal(r1.expanded, 0);
                assert_int_equal(r1.goal, -1);
            }
            /* `closest`: through the regions, the same status and cost and an end cell as
             * close to the goal (a search for the closest cells of the start's region instead
             * of emptying it); also with a goal outside the map */
            for (int far = 0; far < 2; far++) {
                tn_cell g = far ? (tn_cell){-5, 40} : b;
                q.closest = true;
                q.regions = NULL;
                tn_cell p0[2000];
                s0 = tn_search_path(s, m, a, g, &q, p0, 2000, &r0);
                q.regions = rg;
                s1 = tn_search_path(s, m, a, g, &q, path, 2000, &r1);
                assert_int_equal(s0, s1);
                assert_true(fabs(r0.cost - r1.cost) <= 1e-9 * (1.0 + r0.cost));
                double c0, c1;
                int32_t dx0 = abs(r0.end.x - g.x), dy0 = abs(r0.end.y - g.y);
                int32_t dx1 = abs(r1.end.x - g.x), dy1 = abs(r1.end.y - g.y);
                bool eight = rule != TN_DIAGONAL_NEVER;
                c0 = eight ? fmax(dx0, dy0) + (TN_SQRT2 - 1) * fmin(dx0, dy0) : dx0 + dy0;
                c1 = eight ? fmax(dx1, dy1) + (TN_SQRT2 - 1) * fmin(dx1, dy1) : dx1 + dy1;
                assert_true(c0 == c1);
                assert_int_equal(r1.goal, r0.goal);
                if (s1 == TN_CLOSEST)
                    assert_true(r1.expanded <= r0.expanded);
                q.closest = false;
            }
        }
        /* a blocked start runs nothing: the result names the algorithm that would have */
        tn_query q;
        memset(&q, 0, sizeof q);
        q.moves.diagonal = rule;
        q.algo = TN_ALGO_JPS;
        q.jps_fallback = true;
        for (int32_t i = 0; i < 40 * 30; i++) {
            tn_cell wall = {i % 40, i / 40}, b = tn_test_random_open_cell(m, &r);
            if (tn_map_passable(m, wall.x, wall.y))
                continue;
            tn_search_result rb;
            assert_int_equal(tn_search_path(s, m, wall, b, &q, path, 2000, &rb),
                             TN_E_START_BLOCKED);
            assert_int_equal(rb.algo, rule == TN_DIAGONAL_NO_CUT ? TN_ALGO_JPS : TN_ALGO_ASTAR);
            assert_int_equal(rb.length, 0);
            break;
        }
        /* a regions object for 4/8-connected-without-ALWAYS refuses ALWAYS queries */
        memset(&q, 0, sizeof q);
        q.regions = rg;
        q.moves.diagonal = TN_DIAGONAL_ALWAYS;
        tn_cell a = tn_test_random_open_cell(m, &r);
        if (rule != TN_DIAGONAL_ALWAYS)
            assert_int_equal(tn_search_path(s, m, a, a, &q, path, 2000, NULL), TN_E_INVALID_ARG);
        /* stale after an edit, current again after an update */
        q.moves.diagonal = rule;
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){0, 0, 40, 1}, 1u), TN_OK);
        assert_false(tn_regions_current(rg));
        a = tn_test_random_open_cell(m, &r);
        assert_int_equal(tn_search_path(s, m, a, a, &q, path, 2000, NULL), TN_E_MAP_CHANGED);
        assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
        assert_true(tn_regions_current(rg));
        check(m, rg, rule, 1);
        tn_regions_destroy(rg);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
}

/* Do two regions objects split the map's cells the same way (ids may differ)? */
static void same_partition(const tn_regions *a, const tn_regions *b, int32_t w, int32_t h,
                           int32_t size)
{
    int32_t na = tn_regions_count(a, size);
    assert_int_equal(na, tn_regions_count(b, size));
    int32_t *ab = malloc((size_t)(na + 1) * sizeof *ab),
            *ba = malloc((size_t)(na + 1) * sizeof *ba);
    assert_non_null(ab);
    assert_non_null(ba);
    for (int32_t i = 0; i <= na; i++)
        ab[i] = ba[i] = -2;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t ia = tn_regions_id(a, size, x, y), ib = tn_regions_id(b, size, x, y);
            assert_true((ia < 0) == (ib < 0));
            if (ia < 0)
                continue;
            assert_true(ia < na && ib < na);
            if (ab[ia] == -2 && ba[ib] == -2) {
                ab[ia] = ib;
                ba[ib] = ia;
            }
            if (ab[ia] != ib || ba[ib] != ia)
                fail_msg("size %d: cell (%d, %d) is in region %d updated, %d built", size, x, y, ia,
                         ib);
        }
    free(ab);
    free(ba);
}

/* Do the regions split every size class's cells as a fresh build on the map does (and does
 * that build number its regions in row-major order of their first cells)? */
static void same_as_fresh(const tn_regions *rg, const tn_map *m, tn_diagonal rule, int32_t sizes)
{
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    tn_regions *fresh = make(m, rule, sizes);
    for (int32_t s = 1; s <= sizes; s++) {
        same_partition(rg, fresh, w, h, s);
        check_build_order(fresh, w, h, s);
    }
    tn_regions_destroy(fresh);
}

/* Random edits (towers placed and sold, walls drawn and erased), each followed by an update:
 * the regions split the cells as a fresh build does, every size class and rule; most updates
 * stay local. */
static void test_updates(void **state)
{
    (void)state;
    int64_t full_all = 0, local_all = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        tn_test_rng r = {seed * 2654435761u};
        int32_t w = 10 + (int32_t)tn_test_below(&r, 30), h = 10 + (int32_t)tn_test_below(&r, 30);
        tn_map *m = tn_test_random_map(w, h, 0.05 + 0.3 * tn_test_u01(&r), seed);
        tn_diagonal rule = (tn_diagonal)tn_test_below(&r, 4);
        int32_t sizes = 1 + (int32_t)tn_test_below(&r, 3);
        tn_regions *rg = make(m, rule, sizes);
        for (int k = 0; k < 40; k++) {
            int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
            int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h);
            int32_t rw = 1 + (int32_t)tn_test_below(&r, 3), rh = 1 + (int32_t)tn_test_below(&r, 3);
            uint32_t gid = tn_test_below(&r, 2) ? 1u : 0u;
            assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + rw, y + rh}, gid), TN_OK);
            if (k % 7 == 3) /* a caller who updates the regions' clearance first (it is
                               reachable, const, through tn_regions_clearance()) */
                assert_int_equal(
                    tn_clearance_update((tn_clearance *)(uintptr_t)tn_regions_clearance(rg), NULL),
                    TN_OK);
            int32_t looked = -1;
            assert_int_equal(tn_regions_update(rg, &looked), TN_OK);
            assert_true(looked >= 0);
            same_as_fresh(rg, m, rule, sizes);
        }
        for (int32_t s = 1; s <= sizes && w * h <= 400; s++)
            check(m, rg, rule, s);
        int64_t full = 0, local = 0;
        tn_regions_stats(rg, &full, &local);
        full_all += full;
        local_all += local;
        tn_regions_destroy(rg);
        tn_map_destroy(m);
    }
    assert_true(local_all > full_all); /* the local path does carry most updates */
}

/* Edits far apart before one update are relabelled each in its own window; an update whose
 * windows, merged where they meet, are larger than the local update's scratch (2^18 cells here)
 * relabels the size class from scratch. Each agrees with a build. */
static void test_window_past_scratch(void **state)
{
    (void)state;
    const int32_t w = 600, h = 520;
    tn_map *m = tn_test_random_map(w, h, 0.3, 77);
    tn_regions *rg = make(m, TN_DIAGONAL_NO_CUT, 2);
    /* memory: 4 bytes per cell and size class, the clearance, 9 bytes per scratch cell, and
     * a cell of each region (4 bytes per region, the hints grown by doubling from 64), with
     * the update's fixed-size lists (under 16 KB) */
    size_t n = (size_t)w * (size_t)h,
           own = tn_regions_memory_bytes(rg) - tn_clearance_memory_bytes(tn_regions_clearance(rg)),
           hints = 0;
    for (int32_t s = 1; s <= 2; s++) {
        int32_t c = tn_regions_count(rg, s);
        hints += 4 * (size_t)(2 * c > 64 ? 2 * c : 64);
    }
    assert_true(own >= 2 * 4 * n + 9 * ((size_t)1 << 18) &&
                own < 2 * 4 * n + 9 * ((size_t)1 << 18) + hints + 16384);
    int64_t full0 = 0, local0 = 0, full1 = 0, local1 = 0;
    tn_regions_stats(rg, &full0, &local0);
    /* 3 x 3 opened: local */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){300, 200, 303, 203}, 0u), TN_OK);
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    tn_regions_stats(rg, &full1, &local1);
    assert_int_equal(full1, full0);
    assert_int_equal(local1, local0 + 2);
    /* two 7 x 7 clearings in opposite corners, then a one-cell tower in the middle of each,
     * one update: two windows of 4 x 4 cells (the tower grown by 2 up and left, 1 down and
     * right), both local, where their box would span the map */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){20, 20, 27, 27}, 0u), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){560, 480, 567, 487}, 0u), TN_OK);
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    tn_regions_stats(rg, &full0, &local0);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){23, 23, 24, 24}, 1u), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){563, 483, 564, 484}, 1u), TN_OK);
    int32_t looked = 0;
    assert_int_equal(tn_regions_update(rg, &looked), TN_OK);
    tn_regions_stats(rg, &full1, &local1);
    assert_int_equal(full1, full0);
    assert_int_equal(local1, local0 + 2);
    assert_int_equal(looked, 2 * 2 * 16); /* two sizes, two windows of 16 cells */
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 2);
    /* an L of walls in 54 pieces whose windows meet: one window of 582 x 503 cells, past the
     * scratch */
    for (int32_t x = 0; x < 580; x += 20)
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, 10, x + 20, 11}, 1u), TN_OK);
    for (int32_t y = 10; y < 510; y += 20)
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){580, y, 581, y + 20}, 1u), TN_OK);
    assert_int_equal(tn_regions_update(rg, &looked), TN_OK);
    assert_int_equal(looked, 2 * w * h);
    tn_regions_stats(rg, &full0, &local0);
    assert_int_equal(full0, full1 + 2);
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 2);
    tn_regions_destroy(rg);
    tn_map_destroy(m);
}

/* Random edit runs for the update tests: `seeds` maps of side0 + [0, span) cells a side, walls
 * with probability wall0 + [0, wall_span), a random rule and 1..max_sizes size classes; each of
 * `updates` rounds fills 1..max_edits rectangles (sides 1..2, square or not) with walls or
 * floor, updates the caller's way of the regions' clearance every clearance_every-th round
 * (0: never) and then the regions, which must split the cells as a fresh build does. The size
 * classes updated locally and relabelled are added to *local and *full. */
typedef struct edit_runs {
    uint64_t seeds, rng_mul, map_seed;
    int32_t side0, span, max_sizes, updates, max_edits;
    double wall0, wall_span;
    bool square;
    int clearance_every, clearance_at;
} edit_runs;

static void run_edits(const edit_runs *p, int64_t *full_all, int64_t *local_all)
{
    for (uint64_t seed = 1; seed <= p->seeds; seed++) {
        tn_test_rng r = {seed * p->rng_mul};
        int32_t w = p->side0 + (int32_t)tn_test_below(&r, (uint32_t)p->span),
                h = p->side0 + (int32_t)tn_test_below(&r, (uint32_t)p->span);
        tn_map *m =
            tn_test_random_map(w, h, p->wall0 + p->wall_span * tn_test_u01(&r), seed + p->map_seed);
        tn_diagonal rule = (tn_diagonal)tn_test_below(&r, 4);
        int32_t sizes = 1 + (int32_t)tn_test_below(&r, (uint32_t)p->max_sizes);
        tn_regions *rg = make(m, rule, sizes);
        for (int k = 0; k < p->updates; k++) {
            int edits = 1 + (int)tn_test_below(&r, (uint32_t)p->max_edits);
            for (int e = 0; e < edits; e++) {
                int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
                int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h);
                int32_t rw = 1 + (int32_t)tn_test_below(&r, 2),
                        rh = p->square ? rw : 1 + (int32_t)tn_test_below(&r, 2);
                uint32_t gid = tn_test_below(&r, 2) ? 1u : 0u;
                assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + rw, y + rh}, gid), TN_OK);
            }
            if (p->clearance_every > 0 && k % p->clearance_every == p->clearance_at)
                assert_int_equal(
                    tn_clearance_update((tn_clearance *)(uintptr_t)tn_regions_clearance(rg), NULL),
                    TN_OK);
            assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
            same_as_fresh(rg, m, rule, sizes);
        }
        int64_t full = 0, local = 0;
        tn_regions_stats(rg, &full, &local);
        *full_all += full;
        *local_all += local;
        tn_regions_destroy(rg);
        tn_map_destroy(m);
    }
}

/* Batches of edits, near each other or far apart, before each update, on maps large enough
 * for several windows: the regions split the cells as a fresh build does, every size class
 * and rule, and batches still go local. */
static void test_updates_batched(void **state)
{
    (void)state;
    const edit_runs p = {.seeds = 16,
                         .rng_mul = 40503u,
                         .map_seed = 100,
                         .side0 = 40,
                         .span = 60,
                         .max_sizes = 3,
                         .updates = 25,
                         .max_edits = 5,
                         .wall0 = 0.05,
                         .wall_span = 0.2,
                         .square = false,
                         .clearance_every = 9,
                         .clearance_at = 4};
    int64_t full_all = 0, local_all = 0;
    run_edits(&p, &full_all, &local_all);
    assert_true(local_all > full_all);
}

/* Regions a wall closes off, doors that open them again, rooms filled in: resolved by floods
 * from the edit, not by a relabel. A closed room takes the next id; when a region's id is given
 * up (it joined a larger one, or vanished) the last id takes its place, so ids stay
 * 0..count-1. A wall that halves the map (both pieces over 1/32 of it) relabels. Each
 * state agrees with a build. */
static void test_split_join_local(void **state)
{
    (void)state;
    const int32_t w = 64, h = 32;
    tn_map *m = tn_test_random_map(w, h, 0.0, 1);
    tn_regions *rg = make(m, TN_DIAGONAL_NO_CUT, 1);
    assert_int_equal(tn_regions_count(rg, 1), 1);
    int64_t full0 = 0, local0 = 0, full = 0, local = 0;
    tn_regions_stats(rg, &full0, &local0);
    /* two rooms of 3 x 3 cells, walls all round but a door at the top middle */
    const int32_t rx[2] = {10, 30};
    for (int k = 0; k < 2; k++) {
        int32_t x = rx[k];
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, 10, x + 2, 11}, 1u), TN_OK);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x + 3, 10, x + 5, 11}, 1u), TN_OK);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, 14, x + 5, 15}, 1u), TN_OK);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, 11, x + 1, 14}, 1u), TN_OK);
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){x + 4, 11, x + 5, 14}, 1u), TN_OK);
    }
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    assert_int_equal(tn_regions_count(rg, 1), 1);
    /* the doors close: each room a region of its own, numbered after the outside */
    int32_t looked = 0;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(tn_map_fill(m, 0, (tn_rect){rx[k] + 2, 10, rx[k] + 3, 11}, 1u), TN_OK);
        assert_int_equal(tn_regions_update(rg, &looked), TN_OK);
        assert_int_equal(tn_regions_count(rg, 1), 2 + k);
        assert_int_equal(tn_regions_id(rg, 1, rx[k] + 2, 12), 1 + k);
        assert_int_equal(tn_regions_id(rg, 1, 0, 0), 0);
        assert_true(looked < 1000); /* the room's 9 cells, the outside probed a little */
        same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
    }
    /* the first room opens: it joins the outside, and the second room takes its id */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){rx[0] + 2, 10, rx[0] + 3, 11}, 0u), TN_OK);
    assert_int_equal(tn_regions_update(rg, &looked), TN_OK);
    assert_int_equal(tn_regions_count(rg, 1), 2);
    assert_int_equal(tn_regions_id(rg, 1, rx[0] + 2, 12), 0);
    assert_int_equal(tn_regions_id(rg, 1, rx[1] + 2, 12), 1);
    assert_true(looked < 1000);
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
    /* the second room is filled in: its region vanishes */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){rx[1] + 1, 11, rx[1] + 4, 14}, 1u), TN_OK);
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    assert_int_equal(tn_regions_count(rg, 1), 1);
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
    /* the first room closes again and the filled one is cleared: a new region, then an id
     * given up and taken by the last one in the same update */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){rx[0] + 2, 10, rx[0] + 3, 11}, 1u), TN_OK);
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){rx[1] + 1, 11, rx[1] + 4, 14}, 0u), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){rx[0] + 1, 11, rx[0] + 4, 14}, 1u), TN_OK);
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    assert_int_equal(tn_regions_count(rg, 1), 2);
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
    tn_regions_stats(rg, &full, &local);
    assert_int_equal(full, full0); /* not one relabel so far */
    assert_int_equal(local, local0 + 7);
    /* a wall from top to bottom halves the map: the pieces are too large to probe */
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){27, 0, 28, h}, 1u), TN_OK);
    assert_int_equal(tn_regions_update(rg, &looked), TN_OK);
    tn_regions_stats(rg, &full, &local);
    assert_int_equal(full, full0 + 1);
    assert_int_equal(looked, w * h);
    assert_int_equal(tn_regions_count(rg, 1), 3);
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
    tn_regions_destroy(rg);
    tn_map_destroy(m);
}

/* Towers placed and sold on maps whose random walls make many small regions for the larger
 * sizes, where edits split, join and empty regions all the time: the regions split the cells
 * as a fresh build does after every update, and few updates relabel a size class (on maps this
 * small a piece past 1/32 of the map, 72 to 280 cells, is relabelled: that costs less). */
static void test_updates_fragmented(void **state)
{
    (void)state;
    const edit_runs p = {.seeds = 20,
                         .rng_mul = 97531u,
                         .map_seed = 500,
                         .side0 = 48,
                         .span = 48,
                         .max_sizes = 4,
                         .updates = 50,
                         .max_edits = 3,
                         .wall0 = 0.15,
                         .wall_span = 0.2,
                         .square = true};
    int64_t full_all = 0, local_all = 0;
    run_edits(&p, &full_all, &local_all);
    print_message("fragmented: %lld size classes updated locally, %lld relabelled\n",
                  (long long)local_all, (long long)full_all);
    assert_true(full_all * 10 < local_all);
}

/* A join keeps the largest region's id, whichever the floods measure first, and the region
 * numbered last takes the id given up (a stranger's case: a row ..#...28...#.). */
static void test_join_keeps_largest(void **state)
{
    (void)state;
    for (int flip = 0; flip < 2; flip++) { /* the large region right, then left, of the door */
        tn_map *m = tn_test_random_map(33, 1, 0.0, 1);
        const int32_t door = flip ? 30 : 2, far = flip ? 1 : 31;
        assert_int_equal(tn_map_set(m, 0, door, 0, 1u), TN_OK);
        assert_int_equal(tn_map_set(m, 0, far, 0, 1u), TN_OK);
        tn_regions *rg = make(m, TN_DIAGONAL_NO_CUT, 1);
        const int32_t small = flip ? 31 : 0, large = 15, lone = flip ? 0 : 32;
        assert_int_equal(tn_regions_count(rg, 1), 3);
        const int32_t large_id = tn_regions_id(rg, 1, large, 0);
        assert_int_equal(tn_map_set(m, 0, door, 0, 0u), TN_OK);
        assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
        assert_int_equal(tn_regions_count(rg, 1), 2);
        assert_int_equal(tn_regions_id(rg, 1, small, 0), tn_regions_id(rg, 1, large, 0));
        if (large_id < 2) /* not numbered last: it keeps its id */
            assert_int_equal(tn_regions_id(rg, 1, large, 0), large_id);
        assert_int_not_equal(tn_regions_id(rg, 1, lone, 0), tn_regions_id(rg, 1, large, 0));
        same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
        tn_regions_destroy(rg);
        tn_map_destroy(m);
    }
    /* pockets of 3, 5, 9, 2 and 40 cells in row 0 and one of 10 in row 2, walled off from row 1,
     * and 32 one-cell pockets in row 4 numbered after them; one edit opens row 1 and joins the
     * six: the 40-cell pocket keeps its id (4), and row 4's last pockets take the five given up */
    tn_map *m = tn_test_random_map(64, 5, 0.0, 1);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){0, 1, 64, 2}, 1u), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){10, 2, 64, 4}, 1u), TN_OK);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){0, 3, 64, 4}, 1u), TN_OK);
    for (int32_t x = 1; x < 64; x += 2)
        assert_int_equal(tn_map_set(m, 0, x, 4, 1u), TN_OK);
    const int32_t cut[5] = {3, 9, 19, 22, 63}; /* row 0's pockets end before these walls */
    for (int k = 0; k < 5; k++)
        assert_int_equal(tn_map_set(m, 0, cut[k], 0, 1u), TN_OK);
    tn_regions *rg = make(m, TN_DIAGONAL_NO_CUT, 1);
    assert_int_equal(tn_regions_count(rg, 1), 6 + 32);
    assert_int_equal(tn_regions_id(rg, 1, 40, 0), 4);
    assert_int_equal(tn_map_fill(m, 0, (tn_rect){0, 1, 64, 2}, 0u), TN_OK); /* one edit */
    assert_int_equal(tn_regions_update(rg, NULL), TN_OK);
    assert_int_equal(tn_regions_count(rg, 1), 1 + 32);
    assert_int_equal(tn_regions_id(rg, 1, 40, 0), 4);
    assert_int_equal(tn_regions_id(rg, 1, 0, 2), 4);
    same_as_fresh(rg, m, TN_DIAGONAL_NO_CUT, 1);
    int64_t full = 0, local = 0;
    tn_regions_stats(rg, &full, &local);
    assert_int_equal(full, 0);
    tn_regions_destroy(rg);
    tn_map_destroy(m);
}

static void test_errors(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(6, 5, 0.2, 9);
    tn_regions_def d = tn_regions_def_default();
    tn_regions *r = (tn_regions *)m;
    assert_int_equal(tn_regions_create(&d, &r), TN_E_INVALID_ARG); /* no map */
    assert_null(r);
    d.map = m;
    d.max_size = 0;
    assert_int_equal(tn_regions_create(&d, &r), TN_E_INVALID_ARG);
    d.max_size = 1;
    d.diagonal = (tn_diagonal)7;
    assert_int_equal(tn_regions_create(&d, &r), TN_E_INVALID_ARG);
    d = tn_regions_def_default();
    d.map = m;
    d.internal_cookie = 0;
    assert_int_equal(tn_regions_create(&d, &r), TN_E_INVALID_ARG);
    assert_int_equal(tn_regions_update(NULL, NULL), TN_E_INVALID_ARG);
    assert_false(tn_regions_current(NULL));
    assert_int_equal(tn_regions_id(NULL, 1, 0, 0), -1);
    tn_regions_destroy(NULL);
    tn_map_destroy(m);
}

/* `closest` through regions when the goal is far from the start's region (the ring scan gives
 * up and the region is emptied) and near it (the ring scan answers): same status, cost and
 * end as without regions, and far fewer expansions in the second case. */
static void test_closest_far(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(200, 200, 16, 16);
    int32_t l = -1;
    assert_int_equal(tn_map_add_layer(m, "w", TN_LAYER_TILES, &l), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}), TN_OK);
    /* a closed pocket [1, 9) x [1, 9) and a wall across the map at x = 150 */
    assert_int_equal(tn_map_fill(m, l, (tn_rect){0, 0, 10, 1}, 1), TN_OK);
    assert_int_equal(tn_map_fill(m, l, (tn_rect){0, 9, 10, 10}, 1), TN_OK);
    assert_int_equal(tn_map_fill(m, l, (tn_rect){0, 0, 1, 10}, 1), TN_OK);
    assert_int_equal(tn_map_fill(m, l, (tn_rect){9, 0, 10, 10}, 1), TN_OK);
    assert_int_equal(tn_map_fill(m, l, (tn_rect){150, 0, 151, 200}, 1), TN_OK);
    tn_regions *rg = make(m, TN_DIAGONAL_NO_CUT, 1);
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    static tn_cell p0[40000], p1[40000];
    const tn_cell starts[] = {{4, 4}, {100, 100}}, goals[] = {{190, 190}, {160, 100}};
    for (int k = 0; k < 2; k++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.closest = true;
        tn_search_result r0, r1;
        tn_status s0 = tn_search_path(s, m, starts[k], goals[k], &q, p0, 40000, &r0);
        q.regions = rg;
        tn_status s1 = tn_search_path(s, m, starts[k], goals[k], &q, p1, 40000, &r1);
        assert_int_equal(s0, TN_CLOSEST);
        assert_int_equal(s1, TN_CLOSEST);
        assert_true(r0.cost == r1.cost);
        assert_int_equal(r0.end.x, r1.end.x);
        assert_int_equal(r0.end.y, r1.end.y);
        if (k == 1) /* next to the wall: the rings answer, the search heads straight there */
            assert_true(r1.expanded * 20 < r0.expanded);
    }
    tn_search_destroy(s);
    tn_regions_destroy(rg);
    tn_map_destroy(m);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_handmade),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_closest_far),
        cmocka_unit_test(test_updates),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_window_past_scratch),
        cmocka_unit_test(test_updates_batched),
        cmocka_unit_test(test_split_join_local),
        cmocka_unit_test(test_updates_fragmented),
        cmocka_unit_test(test_join_keeps_largest),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
