/* The bulk paths the loaders use: tn_map_set_terrain_many() and tn_map_set_layer_data()
 * (which updates only the cells whose gid changed). Both are checked against the one-at-a-time
 * calls on a second map and against a brute-force recount, on seeded random layers. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static tn_map *make(int32_t w, int32_t h, int layers)
{
    tn_map_def d = tn_map_def_default();
    d.width = w;
    d.height = h;
    tn_map *m = NULL;
    assert_int_equal(tn_map_create(&d, &m), TN_OK);
    for (int l = 0; l < layers; l++)
        assert_int_equal(tn_map_add_layer(m, l ? "b" : "a", TN_LAYER_TILES, NULL), TN_OK);
    return m;
}

/* Brute force: passability and cost of one cell from the layers and a terrain list. */
static void brute(const tn_map *m, size_t i, const uint32_t *tg, const tn_terrain *tt, size_t nt,
                  bool *pass, float *cost)
{
    *pass = true;
    *cost = 1.0f;
    bool have = false;
    for (int32_t l = 0; l < tn_map_layer_count(m); l++) {
        uint32_t id = tn_gid_id(tn_map_layer_data(m, l)[i]);
        for (size_t k = nt; k-- > 0;) { /* the last entry for an id wins */
            if (tn_gid_id(tg[k]) != id || id == 0)
                continue;
            if (!tt[k].passable)
                *pass = false;
            else if (!have || tt[k].cost > *cost) {
                *cost = tt[k].cost;
                have = true;
            }
            break;
        }
    }
}

static void test_bulk_random(void **state)
{
    (void)state;
    tn_test_rng rng = {31337};
    for (int round = 0; round < 40; round++) {
        int32_t w = 1 + (int32_t)tn_test_below(&rng, 30), h = 1 + (int32_t)tn_test_below(&rng, 30);
        size_t n = (size_t)w * (size_t)h;
        tn_map *a = make(w, h, 2), *b = make(w, h, 2);
        /* terrain: random entries, some ids repeated (the later one wins) */
        size_t nt = tn_test_below(&rng, 8);
        uint32_t tg[8];
        tn_terrain tt[8];
        for (size_t k = 0; k < nt; k++) {
            tg[k] = 1 + tn_test_below(&rng, 6);
            tt[k] = (tn_terrain){tn_test_below(&rng, 3) != 0, 0.5f + (float)tn_test_below(&rng, 4)};
        }
        /* half the rounds set terrain before the layers, half after */
        bool first = round % 2 == 0;
        if (first) {
            assert_int_equal(tn_map_set_terrain_many(a, tg, tt, (int32_t)nt), TN_OK);
            for (size_t k = 0; k < nt; k++)
                assert_int_equal(tn_map_set_terrain(b, tg[k], tt[k]), TN_OK);
        }
        for (int pass = 0; pass < 3; pass++) {
            for (int32_t l = 0; l < 2; l++) {
                uint32_t *g = malloc(n * sizeof *g);
                memcpy(g, tn_map_layer_data(a, l), n * sizeof *g);
                /* change a random subset, flags included */
                size_t changes = tn_test_below(&rng, (uint32_t)n + 1);
                int32_t x0 = w, y0 = h, x1 = 0, y1 = 0;
                for (size_t c = 0; c < changes; c++) {
                    size_t i = tn_test_below(&rng, (uint32_t)n);
                    uint32_t v =
                        tn_test_below(&rng, 7) | (tn_test_below(&rng, 4) == 0 ? TN_GID_FLIP_H : 0);
                    if (v == g[i])
                        continue;
                    g[i] = v;
                }
                /* the expected region: cells that differ from the layer now */
                for (size_t i = 0; i < n; i++) {
                    if (g[i] == tn_map_layer_data(a, l)[i])
                        continue;
                    int32_t x = (int32_t)(i % (size_t)w), y = (int32_t)(i / (size_t)w);
                    x0 = x < x0 ? x : x0;
                    y0 = y < y0 ? y : y0;
                    x1 = x + 1 > x1 ? x + 1 : x1;
                    y1 = y + 1 > y1 ? y + 1 : y1;
                }
                uint64_t rev = tn_map_revision(a);
                assert_int_equal(tn_map_set_layer_data(a, l, g, (int32_t)n), TN_OK);
                tn_rect r;
                assert_true(tn_map_changed_region(a, rev, &r));
                if (x0 < x1) {
                    assert_int_equal(r.x0, x0);
                    assert_int_equal(r.y0, y0);
                    assert_int_equal(r.x1, x1);
                    assert_int_equal(r.y1, y1);
                } else {
                    assert_true(r.x1 <= r.x0 || r.y1 <= r.y0); /* nothing changed */
                }
                for (int32_t y = 0; y < h; y++)
                    for (int32_t x = 0; x < w; x++)
                        assert_int_equal(
                            tn_map_set(b, l, x, y, g[(size_t)y * (size_t)w + (size_t)x]), TN_OK);
                free(g);
            }
        }
        if (!first) {
            assert_int_equal(tn_map_set_terrain_many(a, tg, tt, (int32_t)nt), TN_OK);
            for (size_t k = 0; k < nt; k++)
                assert_int_equal(tn_map_set_terrain(b, tg[k], tt[k]), TN_OK);
        }
        int32_t passable = 0;
        for (size_t i = 0; i < n; i++) {
            bool p;
            float c;
            brute(a, i, tg, tt, nt, &p, &c);
            passable += p;
            assert_int_equal(tn_map_passable_data(a)[i], p);
            assert_int_equal(tn_map_passable_data(b)[i], p);
            assert_true(p ? tn_map_cost_data(a)[i] == c : isinf(tn_map_cost_data(a)[i]));
            assert_true(tn_map_cost_data(a)[i] == tn_map_cost_data(b)[i]);
        }
        assert_int_equal(tn_map_passable_count(a), passable);
        assert_int_equal(tn_map_passable_count(b), passable);
        assert_true(tn_map_uniform_cost(a) == tn_map_uniform_cost(b));
        assert_true(tn_map_min_cost(a) == tn_map_min_cost(b));
        tn_map_destroy(a);
        tn_map_destroy(b);
    }
}

static void test_bulk_bad_input(void **state)
{
    (void)state;
    tn_map *m = make(3, 3, 1);
    uint32_t g[2] = {1, 0};
    tn_terrain t[2] = {{false, 1.0f}, {true, 1.0f}};
    uint64_t rev = tn_map_revision(m);
    assert_int_equal(tn_map_set_terrain_many(NULL, g, t, 1), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain_many(m, NULL, t, 1), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain_many(m, g, NULL, 1), TN_E_INVALID_ARG);
    /* gid 0 in the list: nothing is set, not even the valid first entry */
    assert_int_equal(tn_map_set_terrain_many(m, g, t, 2), TN_E_INVALID_ARG);
    assert_true(tn_map_terrain(m, 1).passable);
    uint32_t big[1] = {TN_MAX_TERRAIN_GID};
    assert_int_equal(tn_map_set_terrain_many(m, big, t, 1), TN_E_TOO_LARGE);
    tn_terrain nan_cost[1] = {{true, NAN}};
    assert_int_equal(tn_map_set_terrain_many(m, g, nan_cost, 1), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain_many(m, g, t, 0), TN_OK);
    assert_int_equal(tn_map_revision(m), rev);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bulk_random),
        cmocka_unit_test(test_bulk_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
