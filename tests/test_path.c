/* Path utilities: compression, line of sight and string pulling, checked against an exact
 * segment-versus-square test written independently here. */
#include "oracle.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Does the segment between the centres of a and b touch the closed square of cell c? Exact:
 * coordinates doubled so that every end point and side is an integer, then the parameter
 * intervals are compared as fractions. */
typedef struct frac {
    int64_t n, d; /* d > 0 */
} frac;

static frac fr(int64_t n, int64_t d)
{
    return d < 0 ? (frac){-n, -d} : (frac){n, d};
}

static bool le(frac a, frac b)
{
    return a.n * b.d <= b.n * a.d;
}

static bool touches(tn_cell a, tn_cell b, tn_cell c)
{
    int64_t x0 = 2 * a.x + 1, y0 = 2 * a.y + 1, dx = 2 * (int64_t)(b.x - a.x),
            dy = 2 * (int64_t)(b.y - a.y);
    int64_t lo[2] = {2 * (int64_t)c.x, 2 * (int64_t)c.y}, hi[2] = {lo[0] + 2, lo[1] + 2};
    int64_t p0[2] = {x0, y0}, d[2] = {dx, dy};
    frac t0 = {0, 1}, t1 = {1, 1};
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0) {
            if (p0[k] < lo[k] || p0[k] > hi[k])
                return false;
            continue;
        }
        frac a1 = fr(lo[k] - p0[k], d[k]), a2 = fr(hi[k] - p0[k], d[k]);
        frac mn = le(a1, a2) ? a1 : a2, mx = le(a1, a2) ? a2 : a1;
        if (le(t0, mn))
            t0 = mn;
        if (le(mx, t1))
            t1 = mx;
    }
    return le(t0, t1);
}

/* The reference line of sight: both ends open and no blocked cell touched. */
static bool ref_clear(const tn_map *m, tn_cell a, tn_cell b)
{
    if (!tn_map_passable(m, a.x, a.y) || !tn_map_passable(m, b.x, b.y))
        return false;
    int32_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
    int32_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
    for (int32_t y = y0 - 1; y <= y1 + 1; y++)
        for (int32_t x = x0 - 1; x <= x1 + 1; x++)
            if (!tn_map_passable(m, x, y) && tn_map_contains(m, x, y) &&
                touches(a, b, (tn_cell){x, y}))
                return false;
    return true;
}

static tn_cell random_open(const tn_map *m, tn_test_rng *r)
{
    for (;;) {
        tn_cell c = {(int32_t)tn_test_below(r, (uint32_t)tn_map_width(m)),
                     (int32_t)tn_test_below(r, (uint32_t)tn_map_height(m))};
        if (tn_map_passable(m, c.x, c.y))
            return c;
    }
}

static void test_line_clear_matches_reference(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        tn_map *m = tn_test_random_map(25, 19, 0.1 * (double)seed, seed);
        tn_test_rng r = {seed};
        int clear = 0, blocked = 0;
        for (int k = 0; k < 3000; k++) {
            tn_cell a = {(int32_t)tn_test_below(&r, 25), (int32_t)tn_test_below(&r, 19)};
            tn_cell b = {(int32_t)tn_test_below(&r, 25), (int32_t)tn_test_below(&r, 19)};
            bool want = ref_clear(m, a, b);
            assert_int_equal(tn_path_line_clear(m, a, b), want);
            assert_int_equal(tn_path_line_clear(m, b, a), want);
            clear += want;
            blocked += !want;
        }
        assert_true(clear > 0 && blocked > 0);
        tn_map_destroy(m);
    }
    /* a segment through the corner point of two blocked cells is not clear */
    const char *const rows[] = {"...", ".#.", "..."};
    tn_map *m = tn_test_map_from_rows(rows, 3);
    assert_false(tn_path_line_clear(m, (tn_cell){0, 0}, (tn_cell){2, 2}));
    assert_false(tn_path_line_clear(m, (tn_cell){1, 0}, (tn_cell){2, 1}));
    assert_true(tn_path_line_clear(m, (tn_cell){0, 0}, (tn_cell){2, 0}));
    assert_false(tn_path_line_clear(m, (tn_cell){0, 0}, (tn_cell){5, 0}));
    assert_false(tn_path_line_clear(NULL, (tn_cell){0, 0}, (tn_cell){2, 0}));
    tn_map_destroy(m);
}

static void test_smooth_never_crosses_walls(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        int32_t w = 40, h = 30;
        tn_map *m = tn_test_random_map(w, h, 0.08 + 0.04 * (double)(seed % 5), seed + 50);
        tn_search_def d = tn_search_def_default();
        d.max_cells = w * h;
        tn_search *s = NULL;
        assert_int_equal(tn_search_create(&d, &s), TN_OK);
        tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
        tn_cell *sm = malloc((size_t)(w * h) * sizeof *sm);
        tn_test_rng r = {seed};
        for (int k = 0; k < 40; k++) {
            tn_cell a = random_open(m, &r), b = random_open(m, &r);
            tn_search_result res;
            if (tn_search_path(s, m, a, b, NULL, path, w * h, &res) != TN_OK)
                continue;
            int32_t n = 0;
            assert_int_equal(tn_path_smooth(m, path, res.length, NULL, 0, &n),
                             res.length > 0 ? TN_E_BUFFER_TOO_SMALL : TN_OK);
            assert_int_equal(tn_path_smooth(m, path, res.length, sm, w * h, &n), TN_OK);
            assert_true(n >= 1 && n <= res.length);
            assert_true(sm[0].x == a.x && sm[0].y == a.y);
            assert_true(sm[n - 1].x == b.x && sm[n - 1].y == b.y);
            for (int32_t i = 1; i < n; i++) {
                assert_true(ref_clear(m, sm[i - 1], sm[i]));
                for (int32_t y = 0; y < h; y++)
                    for (int32_t x = 0; x < w; x++)
                        if (!tn_map_passable(m, x, y))
                            assert_false(touches(sm[i - 1], sm[i], (tn_cell){x, y}));
            }
            /* the waypoints are cells of the path, in order */
            int32_t j = 0;
            for (int32_t i = 0; i < n; i++) {
                while (j < res.length && (path[j].x != sm[i].x || path[j].y != sm[i].y))
                    j++;
                assert_true(j < res.length);
            }
            assert_true(tn_path_length(sm, n) <= tn_path_length(path, res.length) + 1e-9);
            /* in place gives the same */
            int32_t n2 = 0;
            assert_int_equal(tn_path_smooth(m, path, res.length, path, w * h, &n2), TN_OK);
            assert_int_equal(n2, n);
            assert_memory_equal(path, sm, (size_t)n * sizeof *sm);
        }
        free(path);
        free(sm);
        tn_search_destroy(s);
        tn_map_destroy(m);
    }
}

static void test_smooth_handmade(void **state)
{
    (void)state;
    const char *const rows[] = {"........", "........", "######..", "........"};
    tn_map *m = tn_test_map_from_rows(rows, 4);
    tn_search_def d = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&d, &s), TN_OK);
    tn_cell path[32], sm[32];
    tn_search_result res;
    int32_t n;
    /* open ground: one straight segment */
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 0}, (tn_cell){7, 1}, NULL, path, 32, &res),
                     TN_OK);
    assert_int_equal(tn_path_smooth(m, path, res.length, sm, 32, &n), TN_OK);
    assert_int_equal(n, 2);
    /* around the end of the wall: the corner must stay */
    assert_int_equal(tn_search_path(s, m, (tn_cell){0, 1}, (tn_cell){0, 3}, NULL, path, 32, &res),
                     TN_OK);
    assert_int_equal(tn_path_smooth(m, path, res.length, sm, 32, &n), TN_OK);
    assert_true(n >= 3);
    for (int32_t i = 1; i < n; i++)
        assert_true(tn_path_line_clear(m, sm[i - 1], sm[i]));
    /* a path that is not walkable is refused */
    tn_cell bad[2] = {{0, 1}, {0, 3}};
    assert_int_equal(tn_path_smooth(m, bad, 2, sm, 32, &n), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_smooth(m, NULL, 2, sm, 32, &n), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_smooth(m, path, 0, sm, 32, &n), TN_OK);
    assert_int_equal(n, 0);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

static int32_t sgn(int32_t v)
{
    return (v > 0) - (v < 0);
}

static void test_compress(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(30, 30, 0.25, 4);
    tn_search_def d = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&d, &s), TN_OK);
    tn_cell path[900], cp[900], back[900];
    tn_test_rng r = {2};
    for (int k = 0; k < 60; k++) {
        tn_cell a = random_open(m, &r), b = random_open(m, &r);
        tn_search_result res;
        if (tn_search_path(s, m, a, b, NULL, path, 900, &res) != TN_OK)
            continue;
        int32_t n = 0;
        if (res.length > 2) {
            assert_int_equal(tn_path_compress(path, res.length, cp, 1, &n), TN_E_BUFFER_TOO_SMALL);
        }
        assert_int_equal(tn_path_compress(path, res.length, cp, 900, &n), TN_OK);
        /* walking straight between the kept cells gives the path back, and no kept inner cell
         * continues in the same direction */
        int32_t k2 = 0;
        back[k2++] = cp[0];
        for (int32_t i = 1; i < n; i++) {
            int32_t dx = sgn(cp[i].x - cp[i - 1].x), dy = sgn(cp[i].y - cp[i - 1].y);
            tn_cell c = cp[i - 1];
            while (c.x != cp[i].x || c.y != cp[i].y) {
                c.x += dx;
                c.y += dy;
                back[k2++] = c;
            }
            if (i + 1 < n) {
                int32_t ex = sgn(cp[i + 1].x - cp[i].x), ey = sgn(cp[i + 1].y - cp[i].y);
                assert_true(ex != dx || ey != dy);
            }
        }
        assert_int_equal(k2, res.length);
        assert_memory_equal(back, path, (size_t)k2 * sizeof *back);
        int32_t n2;
        assert_int_equal(tn_path_compress(path, res.length, path, 900, &n2), TN_OK);
        assert_int_equal(n2, n);
        assert_memory_equal(path, cp, (size_t)n * sizeof *cp);
    }
    int32_t n;
    assert_int_equal(tn_path_compress(NULL, 3, cp, 9, &n), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_compress(path, 1, cp, 9, &n), TN_OK);
    assert_int_equal(n, 1);
    tn_search_destroy(s);
    tn_map_destroy(m);
}

static void test_pixels(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(10, 10, 16, 8);
    tn_cell c[3] = {{0, 0}, {1, 2}, {9, 9}};
    tn_vec2 p[3];
    assert_int_equal(tn_path_to_px(m, c, 3, p), TN_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(p[i].x == ((float)c[i].x + 0.5f) * 16.0f);
        assert_true(p[i].y == ((float)c[i].y + 0.5f) * 8.0f);
    }
    assert_int_equal(tn_path_to_px(NULL, c, 3, p), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_to_px(m, c, 3, NULL), TN_E_INVALID_ARG);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_clear_matches_reference),
        cmocka_unit_test(test_smooth_never_crosses_walls),
        cmocka_unit_test(test_smooth_handmade),
        cmocka_unit_test(test_compress),
        cmocka_unit_test(test_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
