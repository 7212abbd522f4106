/* Direction ("angle") maps: the book's race-track angle layer loaded from a tile layer, a gid
 * table, headings from a flow field, vectors, pixel look-ups, bad arguments. */
#include "support.h"

#include <math.h>
#include <string.h>

#define ASSERT_NOT(c) assert_true(!(c))

/* The AI car's angle map from the book (ch. 7), 10 x 8 cells, degrees. */
static const uint32_t TRACK[80] = {
    45,  45,  45,  45,  45,  45,  45,  45,  135, 135, /* */
    315, 0,   0,   0,   0,   0,   0,   90,  135, 135, /* */
    315, 0,   0,   0,   0,   0,   0,   90,  135, 135, /* */
    315, 315, 270, 315, 315, 315, 315, 90,  90,  135, /* */
    315, 315, 270, 135, 135, 135, 135, 90,  90,  135, /* */
    315, 315, 270, 180, 180, 180, 180, 180, 225, 135, /* */
    315, 315, 270, 180, 180, 180, 180, 180, 225, 135, /* */
    315, 270, 270, 225, 225, 225, 225, 225, 225, 225,
};

static tn_dirmap *make(int32_t w, int32_t h)
{
    tn_dirmap_def d = tn_dirmap_def_default();
    d.width = w;
    d.height = h;
    tn_dirmap *m = NULL;
    assert_int_equal(tn_dirmap_create(&d, &m), TN_OK);
    return m;
}

static tn_map *track_map(void)
{
    tn_map *m = tn_test_blank_map(10, 8, 64, 64);
    int32_t layer = -1;
    assert_int_equal(tn_map_add_layer(m, "angles", TN_LAYER_TILES, &layer), TN_OK);
    assert_int_equal(tn_map_set_layer_flags(m, layer, 0), TN_OK); /* not terrain */
    assert_int_equal(tn_map_set_layer_data(m, layer, TRACK, 80), TN_OK);
    return m;
}

static void test_race_track(void **state)
{
    (void)state;
    tn_map *m = track_map();
    tn_dirmap *dm = make(10, 8);
    assert_true(0 != isnan(tn_dirmap_get(dm, 0, 0))); /* nothing loaded yet */
    assert_int_equal(tn_dirmap_load_layer(dm, m, 0, NULL, 0), TN_OK);
    for (int32_t i = 0; i < 80; i++)
        assert_true(tn_dirmap_get(dm, i % 10, i / 10) == (float)TRACK[i]);
    /* 0 = right, 90 = down (clockwise on screen), 270 = up */
    tn_vec2 v = tn_dirmap_vector(dm, 1, 1);
    assert_true(fabsf(v.x - 1.0f) < 1e-6f && fabsf(v.y) < 1e-6f);
    v = tn_dirmap_vector(dm, 7, 1);
    assert_true(fabsf(v.x) < 1e-6f && fabsf(v.y - 1.0f) < 1e-6f);
    v = tn_dirmap_vector(dm, 2, 3);
    assert_true(fabsf(v.x) < 1e-6f && fabsf(v.y + 1.0f) < 1e-6f);
    v = tn_dirmap_vector(dm, 0, 0); /* 45: down-right */
    assert_true(fabsf(v.x - v.y) < 1e-6f && v.x > 0.7f);
    /* the car at pixel (130, 70) is on cell (2, 1): 0 degrees */
    assert_true(tn_dirmap_at_px(dm, 130.0f, 70.0f, 64, 64) == 0.0f);
    assert_true(tn_dirmap_at_px(dm, 9 * 64 + 1, 7 * 64 + 1, 64, 64) == 225.0f);
    assert_true(0 != isnan(tn_dirmap_at_px(dm, -1.0f, 0.0f, 64, 64)));
    assert_true(0 != isnan(tn_dirmap_at_px(dm, 1.0f, 0.0f, 0, 64)));
    tn_dirmap_destroy(dm);
    tn_map_destroy(m);
}

static void test_table_and_set(void **state)
{
    (void)state;
    tn_map *m = track_map();
    tn_dirmap *dm = make(10, 8);
    /* a table: gid 0 -> 90, 45 -> 180 (flags stripped), everything else none */
    float table[46];
    for (int i = 0; i < 46; i++)
        table[i] = NAN;
    table[0] = 90.0f;
    table[45] = -180.0f; /* wrapped to 180 */
    assert_int_equal(tn_map_set(m, 0, 1, 0, 45u | TN_GID_FLIP_H), TN_OK);
    assert_int_equal(tn_map_set(m, 0, 2, 0, 0), TN_OK);
    assert_int_equal(tn_dirmap_load_layer(dm, m, 0, table, 46), TN_OK);
    assert_true(tn_dirmap_get(dm, 0, 0) == 180.0f);
    assert_true(tn_dirmap_get(dm, 1, 0) == 180.0f);
    assert_true(tn_dirmap_get(dm, 2, 0) == 90.0f);
    assert_true(0 != isnan(tn_dirmap_get(dm, 0, 1))); /* gid 315: past the table */
    tn_vec2 v = tn_dirmap_vector(dm, 0, 1);
    assert_true(v.x == 0.0f && v.y == 0.0f);
    assert_int_equal(tn_dirmap_set(dm, 3, 3, 450.0f), TN_OK);
    assert_true(tn_dirmap_get(dm, 3, 3) == 90.0f);
    assert_int_equal(tn_dirmap_set(dm, 3, 3, -90.0f), TN_OK);
    assert_true(tn_dirmap_get(dm, 3, 3) == 270.0f);
    assert_int_equal(tn_dirmap_set(dm, 3, 3, NAN), TN_OK);
    assert_true(0 != isnan(tn_dirmap_get(dm, 3, 3)));
    assert_int_equal(tn_dirmap_set(dm, 3, 3, INFINITY), TN_E_INVALID_ARG);
    assert_int_equal(tn_dirmap_set(dm, 10, 3, 1.0f), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_dirmap_load_layer(dm, m, 5, NULL, 0), TN_E_INVALID_ARG);
    assert_int_equal(tn_dirmap_load_layer(dm, m, 0, NULL, 3), TN_E_INVALID_ARG);
    table[3] = INFINITY;
    assert_int_equal(tn_dirmap_load_layer(dm, m, 0, table, 46), TN_E_INVALID_ARG);
    tn_dirmap *small = make(3, 3);
    assert_int_equal(tn_dirmap_load_layer(small, m, 0, NULL, 0), TN_E_INVALID_ARG);
    tn_dirmap_destroy(small);
    tn_dirmap_def d = tn_dirmap_def_default();
    tn_dirmap *bad = (tn_dirmap *)0x1;
    d.width = -1;
    assert_int_equal(tn_dirmap_create(&d, &bad), TN_E_INVALID_ARG);
    assert_null(bad);
    d.width = TN_MAX_DIM + 1;
    assert_int_equal(tn_dirmap_create(&d, &bad), TN_E_TOO_LARGE);
    assert_int_equal(tn_dirmap_create(NULL, &bad), TN_E_INVALID_ARG);
    assert_int_equal(tn_dirmap_width(dm), 10);
    assert_int_equal(tn_dirmap_height(dm), 8);
    tn_dirmap_destroy(dm);
    tn_dirmap_destroy(NULL);
    tn_map_destroy(m);
}

/* Headings generated from a flow field agree with the field's vectors cell by cell. */
static void test_from_field(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(16, 12, 0.2, 5);
    assert_int_equal(tn_map_set(m, 0, 8, 6, 0), TN_OK);
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    fd.los = TN_LOS_EXACT;
    tn_field *f = NULL;
    assert_int_equal(tn_field_create(&fd, &f), TN_OK);
    tn_dirmap *dm = make(16, 12);
    assert_int_equal(tn_dirmap_from_field(dm, f), TN_E_STATE);
    tn_cell g = {8, 6};
    assert_int_equal(tn_field_build(f, &g, 1), TN_OK);
    assert_int_equal(tn_dirmap_from_field(dm, f), TN_OK);
    int with = 0;
    for (int32_t y = 0; y < 12; y++)
        for (int32_t x = 0; x < 16; x++) {
            tn_vec2 fv = tn_field_vector(f, x, y);
            float a = tn_dirmap_get(dm, x, y);
            if (fv.x == 0.0f && fv.y == 0.0f) {
                assert_true(0 != isnan(a));
                continue;
            }
            with++;
            assert_true(a >= 0.0f && a < 360.0f);
            tn_vec2 dv = tn_dirmap_vector(dm, x, y);
            assert_true(fabsf(dv.x - fv.x) < 1e-5f && fabsf(dv.y - fv.y) < 1e-5f);
            if (!tn_field_los(f, x, y)) /* 8-way: a multiple of 45 */
                assert_true(fmodf(a, 45.0f) == 0.0f && a == (float)(tn_field_dir(f, x, y) * 45));
        }
    assert_true(with > 50);
    tn_dirmap *small = make(3, 3);
    assert_int_equal(tn_dirmap_from_field(small, f), TN_E_INVALID_ARG);
    tn_dirmap_destroy(small);
    tn_dirmap_destroy(dm);
    tn_field_destroy(f);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_track),
        cmocka_unit_test(test_table_and_set),
        cmocka_unit_test(test_from_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
