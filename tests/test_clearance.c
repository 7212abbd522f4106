/* Clearance against a brute-force "does the n x n square fit" check, on handmade and seeded
 * random maps, for every cap; incremental updates against full builds after random edits. */
#include "support.h"
#include "tilenav/clearance.h"

#include <stdlib.h>
#include <string.h>

/* The largest n <= cap whose n x n square from (x, y) is inside the map and all passable. */
static int32_t brute(const tn_map *m, int32_t x, int32_t y, int32_t cap)
{
    int32_t best = 0;
    for (int32_t n = 1; n <= cap; n++) {
        for (int32_t dy = 0; dy < n; dy++)
            for (int32_t dx = 0; dx < n; dx++)
                if (!tn_map_passable(m, x + dx, y + dy))
                    return best;
        best = n;
    }
    return best;
}

static void check_all(const tn_map *m, const tn_clearance *cl, int32_t cap)
{
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            int32_t want = brute(m, x, y, cap), got = tn_clearance_get(cl, x, y);
            if (want != got)
                fail_msg("cell (%d, %d), cap %d: clearance %d, brute force %d", x, y, cap, got,
                         want);
        }
}

static tn_clearance *make(const tn_map *m, int32_t cap)
{
    tn_clearance_def d = tn_clearance_def_default();
    d.map = m;
    d.max_size = cap;
    tn_clearance *cl = NULL;
    assert_int_equal(tn_clearance_create(&d, &cl), TN_OK);
    return cl;
}

static void test_handmade(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "......#...", /* */
        "......#...", /* */
        "..........", /* */
        "...#......", /* */
        "..........", /* */
    };
    tn_map *m = tn_test_map_from_rows(rows, 5);
    tn_clearance *cl = make(m, 8);
    /* (0, 0): the 3 x 3 square fits, the 4 x 4 one meets (3, 3) */
    assert_int_equal(tn_clearance_get(cl, 0, 0), 3);
    assert_int_equal(tn_clearance_get(cl, 6, 0), 0);  /* a wall */
    assert_int_equal(tn_clearance_get(cl, 9, 4), 1);  /* the corner */
    assert_int_equal(tn_clearance_get(cl, 7, 0), 3);  /* right of the wall */
    assert_int_equal(tn_clearance_get(cl, 4, 0), 2);  /* the wall at x = 6 */
    assert_int_equal(tn_clearance_get(cl, -1, 0), 0); /* outside */
    assert_int_equal(tn_clearance_get(NULL, 0, 0), 0);
    check_all(m, cl, 8);
    int32_t hist[9];
    assert_int_equal(tn_clearance_histogram(cl, hist, 9), TN_OK);
    int32_t sum = 0;
    for (int k = 0; k <= 8; k++)
        sum += hist[k];
    assert_int_equal(sum, 50);
    assert_int_equal(hist[0], 3);
    assert_int_equal(tn_clearance_histogram(cl, hist, 8), TN_E_BUFFER_TOO_SMALL);
    tn_clearance_destroy(cl);
    /* a cap of 1: every passable cell is 1 */
    cl = make(m, 1);
    check_all(m, cl, 1);
    assert_int_equal(tn_clearance_max_size(cl), 1);
    tn_clearance_destroy(cl);
    tn_map_destroy(m);
}

static void test_random(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        tn_test_rng r = {seed * 7919};
        int32_t w = 1 + (int32_t)tn_test_below(&r, 40), h = 1 + (int32_t)tn_test_below(&r, 30);
        double p = 0.05 + 0.3 * tn_test_u01(&r);
        tn_map *m = tn_test_random_map(w, h, p, seed);
        int32_t cap = 1 + (int32_t)tn_test_below(&r, 12);
        tn_clearance *cl = make(m, cap);
        check_all(m, cl, cap);
        tn_clearance_destroy(cl);
        tn_map_destroy(m);
    }
}

/* Random edits (single cells and rectangles, walls added and removed), each followed by an
 * update: the values equal a full build and the brute force. */
static void test_incremental(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tn_test_rng r = {seed * 104729};
        int32_t w = 8 + (int32_t)tn_test_below(&r, 40), h = 8 + (int32_t)tn_test_below(&r, 40);
        tn_map *m = tn_test_random_map(w, h, 0.15, seed);
        int32_t cap = 1 + (int32_t)tn_test_below(&r, 10);
        tn_clearance *cl = make(m, cap);
        for (int k = 0; k < 25; k++) {
            int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
            int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h);
            int32_t rw = 1 + (int32_t)tn_test_below(&r, 4), rh = 1 + (int32_t)tn_test_below(&r, 4);
            uint32_t gid = tn_test_below(&r, 2) ? 1u : 0u;
            assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + rw, y + rh}, gid), TN_OK);
            int32_t touched = -1;
            assert_int_equal(tn_clearance_update(cl, &touched), TN_OK);
            assert_true(touched >= 0 && touched <= (rw + cap - 1) * (rh + cap - 1));
            tn_clearance *full = make(m, cap);
            assert_memory_equal(tn_clearance_data(cl), tn_clearance_data(full),
                                (size_t)w * (size_t)h);
            tn_clearance_destroy(full);
        }
        check_all(m, cl, cap);
        int32_t touched = -1;
        assert_int_equal(tn_clearance_update(cl, &touched), TN_OK); /* nothing changed */
        assert_int_equal(touched, 0);
        tn_clearance_destroy(cl);
        tn_map_destroy(m);
    }
}

/* Do two clearances' size maps agree, cell by cell, passability and cost? */
static void same_views(const tn_clearance *a, const tn_clearance *b, int32_t cap)
{
    for (int32_t n = 2; n <= cap; n++) {
        const tn_map *va = tn_clearance_map(a, n), *vb = tn_clearance_map(b, n);
        assert_non_null(va);
        assert_non_null(vb);
        for (int32_t y = 0; y < tn_map_height(va); y++)
            for (int32_t x = 0; x < tn_map_width(va); x++) {
                if (tn_map_passable(va, x, y) != tn_map_passable(vb, x, y) ||
                    (tn_map_passable(va, x, y) && tn_map_cost(va, x, y) != tn_map_cost(vb, x, y)))
                    fail_msg("size %d, cell (%d, %d): the updated size map differs from a build", n,
                             x, y);
            }
    }
}

/* Several edits, near each other or far apart, walls and terrain costs, before each update:
 * the values and the size maps equal a full build's, and an update recomputes no more than
 * each edit's own rectangle grown by cap - 1 (not the box around them all). */
static void test_incremental_batches(void **state)
{
    (void)state;
    int far_apart = 0; /* updates of several edits, none meeting another */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tn_test_rng r = {seed * 7919};
        int32_t w = 30 + (int32_t)tn_test_below(&r, 70), h = 30 + (int32_t)tn_test_below(&r, 70);
        tn_map *m = tn_test_random_map(w, h, 0.1, seed);
        int32_t cap = 1 + (int32_t)tn_test_below(&r, 5);
        assert_int_equal(tn_map_set_terrain(m, 7, (tn_terrain){true, 3.0f}), TN_OK);
        tn_clearance *cl = make(m, cap);
        for (int k = 0; k < 15; k++) {
            int edits = 1 + (int)tn_test_below(&r, 6);
            tn_rect grown[6];
            for (int e = 0; e < edits; e++) {
                int32_t x = (int32_t)tn_test_below(&r, (uint32_t)w);
                int32_t y = (int32_t)tn_test_below(&r, (uint32_t)h);
                int32_t rw = 1 + (int32_t)tn_test_below(&r, 3),
                        rh = 1 + (int32_t)tn_test_below(&r, 3);
                uint32_t what = tn_test_below(&r, 3), gid = what == 2 ? 7u : what;
                assert_int_equal(tn_map_fill(m, 0, (tn_rect){x, y, x + rw, y + rh}, gid), TN_OK);
                grown[e] =
                    (tn_rect){x - cap + 1 < 0 ? 0 : x - cap + 1, y - cap + 1 < 0 ? 0 : y - cap + 1,
                              x + rw < w ? x + rw : w, y + rh < h ? y + rh : h};
            }
            /* when no two grown rectangles overlap or touch, exactly their cells are computed */
            bool apart = true;
            int32_t area = 0;
            for (int e = 0; e < edits; e++) {
                area += (grown[e].x1 - grown[e].x0) * (grown[e].y1 - grown[e].y0);
                for (int f = 0; f < e; f++)
                    apart = apart && !(grown[e].x0 <= grown[f].x1 && grown[f].x0 <= grown[e].x1 &&
                                       grown[e].y0 <= grown[f].y1 && grown[f].y0 <= grown[e].y1);
            }
            int32_t touched = -1;
            assert_int_equal(tn_clearance_update(cl, &touched), TN_OK);
            assert_true(touched >= 0 && touched <= w * h);
            if (apart) {
                assert_int_equal(touched, area);
                far_apart += edits > 1;
            }
            tn_clearance *full = make(m, cap);
            assert_memory_equal(tn_clearance_data(cl), tn_clearance_data(full),
                                (size_t)w * (size_t)h);
            same_views(cl, full, cap);
            tn_clearance_destroy(full);
        }
        check_all(m, cl, cap);
        tn_clearance_destroy(cl);
        tn_map_destroy(m);
    }
    assert_true(far_apart >= 20); /* the case that matters was met */
}

static void test_errors(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(5, 4, 0.2, 3);
    tn_clearance_def d = tn_clearance_def_default();
    tn_clearance *cl = (tn_clearance *)m;
    assert_int_equal(tn_clearance_create(&d, &cl), TN_E_INVALID_ARG); /* no map */
    assert_null(cl);
    d.map = m;
    d.max_size = 0;
    assert_int_equal(tn_clearance_create(&d, &cl), TN_E_INVALID_ARG);
    d.max_size = 256;
    assert_int_equal(tn_clearance_create(&d, &cl), TN_E_INVALID_ARG);
    d = tn_clearance_def_default();
    d.map = m;
    d.internal_cookie = 0;
    assert_int_equal(tn_clearance_create(&d, &cl), TN_E_INVALID_ARG);
    assert_int_equal(tn_clearance_create(NULL, &cl), TN_E_INVALID_ARG);
    assert_int_equal(tn_clearance_update(NULL, NULL), TN_E_INVALID_ARG);
    assert_null(tn_clearance_data(NULL));
    tn_clearance_destroy(NULL);
    tn_map_destroy(m);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_handmade),    cmocka_unit_test(test_random),
        cmocka_unit_test(test_incremental), cmocka_unit_test(test_incremental_batches),
        cmocka_unit_test(test_errors),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
