/* Influence maps: sums checked by hand, falloffs, decay to zero, the dirty rectangle, bad
 * arguments, and use as a field's extra-cost layer (against the brute-force Dijkstra). */
#include "oracle.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ASSERT_NOT(c) assert_true(!(c))

static tn_influence *make(int32_t w, int32_t h)
{
    tn_influence_def d = tn_influence_def_default();
    d.width = w;
    d.height = h;
    tn_influence *m = NULL;
    assert_int_equal(tn_influence_create(&d, &m), TN_OK);
    return m;
}

static void near(float got, double want)
{
    assert_true(fabs((double)got - want) < 1e-5);
}

static void test_sums_by_hand(void **state)
{
    (void)state;
    tn_influence *m = make(6, 5);
    /* a source at the centre of cell (2,2), radius 2, strength 10, linear */
    assert_int_equal(tn_influence_add(m, 2.5f, 2.5f, 2.0f, 10.0f, TN_FALLOFF_LINEAR), TN_OK);
    near(tn_influence_get(m, 2, 2), 10.0);                       /* d = 0 */
    near(tn_influence_get(m, 3, 2), 5.0);                        /* d = 1 */
    near(tn_influence_get(m, 2, 1), 5.0);                        /* d = 1 */
    near(tn_influence_get(m, 3, 3), 10.0 * (1.0 - sqrt(2) / 2)); /* d = 1.414: 2.9289 */
    near(tn_influence_get(m, 4, 2), 0.0);                        /* d = 2 = r: adds 0 */
    near(tn_influence_get(m, 4, 3), 0.0);                        /* d = 2.236 > r */
    near(tn_influence_get(m, 0, 0), 0.0);
    /* a quadratic source on top: at (3,2) d = 0.5 from (3.0, 2.5)? no: put it at cell (3,2)'s
     * centre, radius 4, strength 8: (3,2) += 8, (2,2) += 8*(3/4)^2 = 4.5, (5,2) += 8*(1/2)^2 = 2 */
    assert_int_equal(tn_influence_add(m, 3.5f, 2.5f, 4.0f, 8.0f, TN_FALLOFF_QUADRATIC), TN_OK);
    near(tn_influence_get(m, 3, 2), 5.0 + 8.0);
    near(tn_influence_get(m, 2, 2), 10.0 + 4.5);
    near(tn_influence_get(m, 5, 2), 2.0);
    near(tn_influence_get(m, 3, 0), 8.0 * 0.25); /* d = 2 */
    /* a constant source near a corner, partly off the map */
    assert_int_equal(tn_influence_add(m, 0.0f, 0.0f, 1.0f, 3.0f, TN_FALLOFF_CONSTANT), TN_OK);
    /* (0,0): d = 0.707 from it, and sqrt(13) = 3.61 < 4 from the quadratic source */
    near(tn_influence_get(m, 0, 0), 3.0 + 8.0 * pow(1.0 - sqrt(13.0) / 4.0, 2));
    /* (1,0): d = 1.58 > 1 from it; sqrt(8) from the quadratic one */
    near(tn_influence_get(m, 1, 0), 8.0 * pow(1.0 - sqrt(8.0) / 4.0, 2));
    /* the total over the map equals the sum over cells of each formula, recomputed here */
    double total = 0, want = 0;
    for (int32_t y = 0; y < 5; y++)
        for (int32_t x = 0; x < 6; x++) {
            total += (double)tn_influence_get(m, x, y);
            double cx = x + 0.5, cy = y + 0.5;
            double d1 = hypot(cx - 2.5, cy - 2.5), d2 = hypot(cx - 3.5, cy - 2.5),
                   d3 = hypot(cx, cy);
            want += d1 <= 2 ? 10 * (1 - d1 / 2) : 0;
            want += d2 <= 4 ? 8 * (1 - d2 / 4) * (1 - d2 / 4) : 0;
            want += d3 <= 1 ? 3 : 0;
        }
    assert_true(fabs(total - want) < 1e-4);
    near(tn_influence_get(m, -1, 0), 0.0);
    near(tn_influence_get(m, 6, 0), 0.0);
    assert_non_null(tn_influence_data(m));
    assert_true(tn_influence_memory_bytes(m) >= 30 * sizeof(float));
    tn_influence_destroy(m);
}

static void test_decay_and_dirty(void **state)
{
    (void)state;
    tn_influence *m = make(8, 8);
    tn_rect r = tn_influence_take_dirty(m);
    assert_true(r.x0 >= r.x1); /* nothing yet */
    assert_int_equal(tn_influence_add(m, 4.0f, 4.0f, 1.0f, 1.0f, TN_FALLOFF_CONSTANT), TN_OK);
    r = tn_influence_take_dirty(m);
    /* cells (3,3), (4,3), (3,4), (4,4) have centres within 1 of (4,4) */
    assert_true(r.x0 <= 3 && r.y0 <= 3 && r.x1 >= 5 && r.y1 >= 5);
    assert_true(r.x0 >= 2 && r.y0 >= 2 && r.x1 <= 6 && r.y1 <= 6);
    r = tn_influence_take_dirty(m);
    assert_true(r.x0 >= r.x1); /* taken */
    near(tn_influence_get(m, 3, 3), 1.0);
    assert_int_equal(tn_influence_decay(m, 2.0f, 1.0f), TN_OK); /* two half-lives */
    near(tn_influence_get(m, 3, 3), 0.25);
    r = tn_influence_take_dirty(m);
    assert_true(r.x0 == 0 && r.y0 == 0 && r.x1 == 8 && r.y1 == 8);
    assert_int_equal(tn_influence_decay(m, 0.0f, 1.0f), TN_OK);
    near(tn_influence_get(m, 3, 3), 0.25);
    /* below epsilon (1e-3) the value becomes exactly 0 */
    assert_int_equal(tn_influence_decay(m, 8.0f, 1.0f), TN_OK); /* 0.25/256 < 1e-3 */
    assert_true(tn_influence_get(m, 3, 3) == 0.0f);
    assert_int_equal(tn_influence_add(m, 4.0f, 4.0f, 1.0f, 1.0f, TN_FALLOFF_LINEAR), TN_OK);
    tn_influence_clear(m);
    assert_true(tn_influence_get(m, 3, 3) == 0.0f);
    /* a source entirely off the map changes nothing */
    (void)tn_influence_take_dirty(m);
    assert_int_equal(tn_influence_add(m, -10.0f, -10.0f, 2.0f, 1.0f, TN_FALLOFF_LINEAR), TN_OK);
    r = tn_influence_take_dirty(m);
    assert_true(r.x0 >= r.x1);
    tn_influence_destroy(m);
}

static void test_bad_args(void **state)
{
    (void)state;
    tn_influence *m = (tn_influence *)0x1;
    tn_influence_def d = tn_influence_def_default();
    d.width = 0;
    assert_int_equal(tn_influence_create(&d, &m), TN_E_INVALID_ARG);
    assert_null(m);
    d.width = TN_MAX_DIM + 1;
    assert_int_equal(tn_influence_create(&d, &m), TN_E_TOO_LARGE);
    d.width = 4;
    d.epsilon = NAN;
    assert_int_equal(tn_influence_create(&d, &m), TN_E_INVALID_ARG);
    tn_influence_def raw;
    memset(&raw, 0, sizeof raw);
    raw.width = raw.height = 2;
    assert_int_equal(tn_influence_create(&raw, &m), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_create(NULL, &m), TN_E_INVALID_ARG);
    m = make(4, 4);
    assert_int_equal(tn_influence_add(NULL, 1, 1, 1, 1, TN_FALLOFF_LINEAR), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_add(m, NAN, 1, 1, 1, TN_FALLOFF_LINEAR), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_add(m, 1, 1, 0, 1, TN_FALLOFF_LINEAR), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_add(m, 1, 1, -1, 1, TN_FALLOFF_LINEAR), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_add(m, 1, 1, 1, INFINITY, TN_FALLOFF_LINEAR), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_add(m, 1, 1, 1, 1, (tn_falloff)7), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_decay(m, -1, 1), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_decay(m, 1, 0), TN_E_INVALID_ARG);
    assert_int_equal(tn_influence_decay(NULL, 1, 1), TN_E_INVALID_ARG);
    assert_null(tn_influence_data(NULL));
    tn_influence_clear(NULL);
    tn_influence_destroy(m);
    tn_influence_destroy(NULL);
}

/* The influence layer as a field's extra cost: distances equal the oracle's with that layer,
 * units go around the danger, and an update after new danger equals a rebuild. */
static void test_as_field_extra(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(24, 16, 0.1, 99);
    tn_influence *inf = make(24, 16);
    assert_int_equal(tn_influence_add(inf, 12.0f, 8.0f, 4.0f, 20.0f, TN_FALLOFF_LINEAR), TN_OK);
    (void)tn_influence_take_dirty(inf);
    tn_field_def d = tn_field_def_default();
    d.map = m;
    d.extra = tn_influence_data(inf);
    tn_field *f = NULL, *full = NULL;
    assert_int_equal(tn_field_create(&d, &f), TN_OK);
    assert_int_equal(tn_field_create(&d, &full), TN_OK);
    tn_cell g = {1, 1};
    assert_int_equal(tn_map_set(m, 0, 1, 1, 0), TN_OK);
    assert_int_equal(tn_field_build(f, &g, 1), TN_OK);
    double *od = malloc(sizeof(double) * 24 * 16);
    tn_oracle_dijkstra(m, &d.moves, tn_influence_data(inf), &g, 1, true, od);
    for (int32_t i = 0; i < 24 * 16; i++) {
        float got = tn_field_distances(f)[i];
        if (isinf(od[i]))
            assert_true(0 != isinf(got));
        else
            assert_true(fabs(od[i] - (double)got) <= 1e-4 * (1 + od[i]));
    }
    /* danger grows: update with the dirty rectangle equals a full rebuild */
    assert_int_equal(tn_influence_add(inf, 5.0f, 5.0f, 3.0f, 50.0f, TN_FALLOFF_QUADRATIC), TN_OK);
    tn_rect r = tn_influence_take_dirty(inf);
    assert_int_equal(tn_field_update(f, &r, NULL), TN_OK);
    assert_int_equal(tn_field_build(full, &g, 1), TN_OK);
    assert_memory_equal(tn_field_distances(f), tn_field_distances(full), sizeof(float) * 24 * 16);
    /* a negative layer is refused */
    assert_int_equal(tn_influence_add(inf, 20.0f, 3.0f, 2.0f, -100.0f, TN_FALLOFF_CONSTANT), TN_OK);
    r = tn_influence_take_dirty(inf);
    assert_int_equal(tn_field_update(f, &r, NULL), TN_E_INVALID_ARG);
    free(od);
    tn_field_destroy(f);
    tn_field_destroy(full);
    tn_influence_destroy(inf);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sums_by_hand),
        cmocka_unit_test(test_decay_and_dirty),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_as_field_extra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
