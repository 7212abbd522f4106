/* The map object: creation limits, layers, conversions at every edge, terrain, the change log,
 * live layers (updateMap) and the overlay test. */
#include "map_internal.h" /* tn__map_passable_hash */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_create_limits(void **state)
{
    (void)state;
    tn_map *m = (tn_map *)0x1;
    tn_map_def d = tn_map_def_default();
    assert_int_equal(tn_map_create(NULL, &m), TN_E_INVALID_ARG);
    assert_null(m);
    assert_int_equal(tn_map_create(&d, NULL), TN_E_INVALID_ARG);
    tn_map_def raw;
    memset(&raw, 0, sizeof raw);
    raw.width = raw.height = raw.tile_width = raw.tile_height = 4;
    assert_int_equal(tn_map_create(&raw, &m), TN_E_INVALID_ARG); /* no cookie */
    d.width = 0;
    assert_int_equal(tn_map_create(&d, &m), TN_E_INVALID_ARG);
    d.width = -5;
    assert_int_equal(tn_map_create(&d, &m), TN_E_INVALID_ARG);
    d.width = INT32_MAX; /* 2^31 - 1 columns */
    d.height = 1;
    assert_int_equal(tn_map_create(&d, &m), TN_E_TOO_LARGE);
    d.width = TN_MAX_DIM;
    d.height = TN_MAX_DIM;
    assert_int_equal(tn_map_create(&d, &m), TN_E_TOO_LARGE);
    d.width = 4;
    d.height = 4;
    d.tile_width = 0;
    assert_int_equal(tn_map_create(&d, &m), TN_E_INVALID_ARG);
    assert_null(m);
    tn_map_destroy(NULL);
}

static void test_layers(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(5, 3, 16, 16);
    int32_t a = -1, b = -1;
    assert_int_equal(tn_map_add_layer(m, "ground", TN_LAYER_TILES, &a), TN_OK);
    assert_int_equal(tn_map_add_layer(m, "things", TN_LAYER_OBJECTS, &b), TN_OK);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_int_equal(tn_map_layer_count(m), 2);
    assert_int_equal(tn_map_find_layer(m, "things"), 1);
    assert_int_equal(tn_map_find_layer(m, "nope"), -1);
    assert_string_equal(tn_map_layer_name(m, 0), "ground");
    assert_null(tn_map_layer_name(m, 2));
    assert_null(tn_map_layer_name(m, -1));
    assert_int_equal(tn_map_layer_kind(m, 1), TN_LAYER_OBJECTS);
    assert_null(tn_map_layer_data(m, 1));
    assert_non_null(tn_map_layer_data(m, 0));
    /* object layers hold no gids */
    assert_int_equal(tn_map_set(m, 1, 0, 0, 3), TN_E_INVALID_ARG);
    char longname[TN_MAX_NAME + 4];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(tn_map_add_layer(m, longname, TN_LAYER_TILES, NULL), TN_E_TOO_LARGE);
    assert_int_equal(tn_map_add_layer(m, "x", (tn_layer_kind)7, NULL), TN_E_INVALID_ARG);
    /* flip flags are kept in the layer and stripped by tn_gid_id */
    uint32_t g = 7u | TN_GID_FLIP_H | TN_GID_FLIP_D;
    assert_int_equal(tn_map_set(m, 0, 4, 2, g), TN_OK);
    assert_int_equal(tn_map_get(m, 0, 4, 2), g);
    assert_int_equal(tn_gid_id(g), 7);
    assert_int_equal(tn_gid_flags(g), TN_GID_FLIP_H | TN_GID_FLIP_D);
    tn_map_destroy(m);
}

static void test_many_layers_limit(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(1, 1, 1, 1);
    tn_status st = TN_OK;
    int32_t n = 0;
    while ((st = tn_map_add_layer(m, "l", TN_LAYER_OBJECTS, NULL)) == TN_OK)
        n++;
    assert_int_equal(st, TN_E_TOO_LARGE);
    assert_int_equal(n, TN_MAX_LAYERS);
    tn_map_destroy(m);
}

/* Every cell of the border and just outside it, plus pixel conversions at edges. */
static void test_conversions_edges(void **state)
{
    (void)state;
    const int32_t W = 7, H = 5, TW = 16, TH = 8;
    const float TWf = 16.0f, THf = 8.0f;
    tn_map *m = tn_test_blank_map(W, H, TW, TH);
    for (int32_t y = -2; y <= H + 1; y++) {
        for (int32_t x = -2; x <= W + 1; x++) {
            bool in = x >= 0 && y >= 0 && x < W && y < H;
            int32_t idx = tn_map_index(m, x, y);
            assert_int_equal(idx, in ? y * W + x : -1);
            assert_int_equal(tn_map_contains(m, x, y), in);
            assert_int_equal(tn_map_passable(m, x, y), in);
            assert_int_equal(tn_map_get(m, 0, x, y), 0);
            if (!in)
                assert_true(isinf(tn_map_cost(m, x, y)));
            tn_vec2 c = tn_map_cell_center_px(m, x, y);
            assert_true(c.x == ((float)x + 0.5f) * TWf && c.y == ((float)y + 0.5f) * THf);
            /* the four inner corners of the cell map back to it */
            tn_cell got;
            float px0 = (float)(x * TW), py0 = (float)(y * TH);
            float corners[4][2] = {{px0, py0},
                                   {px0 + TWf - 1.0f, py0},
                                   {px0, py0 + THf - 1.0f},
                                   {px0 + TWf - 0.001f, py0 + THf - 0.001f}};
            for (int k = 0; k < 4; k++) {
                bool r = tn_map_cell_at_px(m, corners[k][0], corners[k][1], &got);
                assert_int_equal(r, in);
                assert_int_equal(got.x, x);
                assert_int_equal(got.y, y);
                assert_int_equal(tn_map_index_at_px(m, corners[k][0], corners[k][1]), idx);
            }
            if (in) {
                tn_cell back;
                assert_true(tn_map_cell_of_index(m, idx, &back));
                assert_int_equal(back.x, x);
                assert_int_equal(back.y, y);
            }
        }
    }
    tn_cell c;
    assert_false(tn_map_cell_of_index(m, -1, &c));
    assert_false(tn_map_cell_of_index(m, W * H, &c));
    assert_false(tn_map_cell_at_px(m, NAN, 3.0f, &c));
    assert_int_equal(c.x, -1);
    assert_false(tn_map_cell_at_px(m, INFINITY, 3.0f, &c));
    assert_false(tn_map_cell_at_px(m, 1e30f, -1e30f, &c));
    assert_int_equal(tn_map_index_at_px(m, -0.5f, 0.0f), -1);
    /* the exact right edge pixel belongs to the next (outside) cell */
    assert_int_equal(tn_map_index_at_px(m, (float)(W * TW), 0.0f), -1);
    assert_int_equal(tn_map_index_at_px(m, (float)(W * TW) - 0.01f, 0.0f), W - 1);
    assert_int_equal(tn_map_set(m, 0, W, 0, 1), TN_E_INVALID_ARG); /* no layer yet */
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, NULL), TN_OK);
    assert_int_equal(tn_map_set(m, 0, W, 0, 1), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_map_set(m, 0, -1, 0, 1), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_map_set(m, 0, 0, H, 1), TN_E_OUT_OF_MAP);
    tn_map_destroy(m);
}

/* Terrain: the derived grids equal a recount from the layers on random edits. */
/* Gids 1..7 of test_terrain_random that have terrain entries. */
static const bool has_entry[8] = {false, false, false, true, true, true, true, false};

static void check_terrain(const tn_map *m)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), n = 0;
    bool uniform = true;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            bool pass = true;
            float cost = 1.0f;
            bool have = false;
            for (int32_t l = 0; l < tn_map_layer_count(m); l++) {
                if (tn_map_layer_kind(m, l) != TN_LAYER_TILES ||
                    !(tn_map_layer_flags(m, l) & TN_LAYER_TERRAIN))
                    continue;
                uint32_t g = tn_map_get(m, l, x, y);
                if (!tn_gid_id(g) || !has_entry[tn_gid_id(g)])
                    continue;
                tn_terrain t = tn_map_terrain(m, g);
                if (!t.passable)
                    pass = false;
                else if (!have || t.cost > cost) {
                    cost = t.cost;
                }
                have = true;
            }
            assert_int_equal(tn_map_passable(m, x, y), pass);
            if (pass) {
                n++;
                assert_true(tn_map_cost(m, x, y) == cost);
                if (cost != 1.0f)
                    uniform = false;
            } else {
                assert_true(isinf(tn_map_cost(m, x, y)));
            }
        }
    assert_int_equal(tn_map_passable_count(m), n);
    assert_int_equal(tn_map_uniform_cost(m), uniform);
}

static void test_terrain_random(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(13, 9, 8, 8);
    assert_int_equal(tn_map_add_layer(m, "a", TN_LAYER_TILES, NULL), TN_OK);
    assert_int_equal(tn_map_add_layer(m, "b", TN_LAYER_TILES, NULL), TN_OK);
    assert_int_equal(tn_map_add_layer(m, "objs", TN_LAYER_OBJECTS, NULL), TN_OK);
    uint32_t walls[] = {3, 4};
    assert_int_equal(tn_map_set_obstacles(m, walls, 2), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 5 | TN_GID_FLIP_V, (tn_terrain){true, 2.5f}), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 6, (tn_terrain){true, 0.5f}), TN_OK);
    assert_true(tn_map_min_cost(m) == 0.5f);
    assert_int_equal(tn_map_set_terrain(m, 0, (tn_terrain){true, 1.0f}), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain(m, 7, (tn_terrain){true, 0.0f}), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain(m, 7, (tn_terrain){true, NAN}), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain(m, 7, (tn_terrain){true, INFINITY}), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain(m, TN_MAX_TERRAIN_GID, (tn_terrain){true, 1.0f}),
                     TN_E_TOO_LARGE);
    check_terrain(m);
    tn_test_rng r = {42};
    for (int i = 0; i < 400; i++) {
        int32_t l = (int32_t)tn_test_below(&r, 2);
        int32_t x = (int32_t)tn_test_below(&r, 13), y = (int32_t)tn_test_below(&r, 9);
        uint32_t g = tn_test_below(&r, 8);
        if (tn_test_below(&r, 4) == 0)
            g |= TN_GID_FLIP_H;
        assert_int_equal(tn_map_set(m, l, x, y, g), TN_OK);
        if (i % 50 == 0)
            assert_int_equal(tn_map_set_layer_flags(m, 1, (i / 50) % 2 ? 0u : TN_LAYER_TERRAIN),
                             TN_OK);
        if (i % 97 == 0)
            assert_int_equal(tn_map_fill(m, 0, (tn_rect){-3, 2, 4, 5}, 5), TN_OK);
        check_terrain(m);
    }
    tn_map *c = NULL;
    assert_int_equal(tn_map_clone(m, &c), TN_OK);
    check_terrain(c);
    assert_int_equal(tn_map_passable_count(c), tn_map_passable_count(m));
    assert_memory_equal(tn_map_layer_data(c, 1), tn_map_layer_data(m, 1), 13 * 9 * 4);
    tn_map_clear_terrain(m);
    assert_int_equal(tn_map_passable_count(m), 13 * 9);
    assert_true(tn_map_uniform_cost(m));
    tn_map_destroy(c);
    tn_map_destroy(m);
}

/* Terrain entries of ids spread over the whole range (the table keeps low ids in an array and
 * the few high ones, such as the loader's TN_COLLISION_GID, in a sorted list): every lookup,
 * cell, clone and free gid equals a reference table; one high id costs no large table. */
/* A terrain entry no cell holds changes no cell: no new revision (a stranger's test found
 * that giving an unused value a terrain made every flow field on the map stale). */
static void test_terrain_revision(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(6, 5, 8, 8);
    int32_t layer = -1;
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, &layer), TN_OK);
    assert_int_equal(tn_map_set(m, layer, 2, 3, 5u), TN_OK);
    uint64_t rev = tn_map_revision(m);
    /* gid 9: no cell holds it, and cost 3 is above the least cost */
    assert_int_equal(tn_map_set_terrain(m, 9u, (tn_terrain){true, 3.0f}), TN_OK);
    assert_int_equal(tn_map_revision(m), rev);
    assert_int_equal(tn_map_set_terrain(m, 9u, (tn_terrain){false, 1.0f}), TN_OK);
    assert_int_equal(tn_map_revision(m), rev);
    tn_rect r;
    assert_true(tn_map_changed_region(m, rev, &r));
    assert_true(r.x1 <= r.x0 || r.y1 <= r.y0); /* nothing changed */
    /* gid 5 is on (2, 3): its cell changes, and so does the revision */
    assert_int_equal(tn_map_set_terrain(m, 5u, (tn_terrain){true, 2.0f}), TN_OK);
    assert_int_equal(tn_map_revision(m), rev + 1);
    assert_true(tn_map_cost(m, 2, 3) == 2.0f);
    /* an unused gid that lowers the least cost: the heuristics scale by it */
    assert_int_equal(tn_map_set_terrain(m, 11u, (tn_terrain){true, 0.5f}), TN_OK);
    assert_int_equal(tn_map_revision(m), rev + 2);
    assert_true(tn_map_min_cost(m) == 0.5f);
    tn_map_destroy(m);
}

static void test_terrain_high_ids(void **state)
{
    (void)state;
    const uint32_t reserved = (uint32_t)TN_MAX_TERRAIN_GID - 1u; /* TN_COLLISION_GID (io.h) */
    tn_map *m = tn_test_blank_map(9, 7, 8, 8);
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, NULL), TN_OK);
    const size_t small = tn_map_memory_bytes(m);
    assert_int_equal(tn_map_set_terrain(m, reserved, (tn_terrain){false, 1.0f}), TN_OK);
    assert_true(tn_map_memory_bytes(m) < small + 4096);
    assert_int_equal(tn_map_free_gid(m), 1u);
    enum { IDS = 24 };
    uint32_t ids[IDS];
    tn_terrain ref[IDS];
    bool set[IDS];
    tn_test_rng r = {7};
    for (int k = 0; k < IDS; k++) {
        /* a third low, a third just around the split, a third anywhere up to the limit */
        uint32_t pick = tn_test_below(&r, 3);
        ids[k] = pick == 0   ? 1 + tn_test_below(&r, 300)
                 : pick == 1 ? 65530 + tn_test_below(&r, 12)
                             : 1 + tn_test_below(&r, (uint32_t)TN_MAX_TERRAIN_GID - 1);
        set[k] = false;
    }
    ids[0] = reserved;
    ref[0] = (tn_terrain){false, 1.0f};
    set[0] = true;
    for (int step = 0; step < 600; step++) {
        int k = (int)tn_test_below(&r, IDS);
        tn_terrain t = {tn_test_below(&r, 4) != 0, 1.0f + (float)tn_test_below(&r, 5)};
        assert_int_equal(tn_map_set_terrain(m, ids[k], t), TN_OK);
        for (int j = 0; j < IDS; j++) /* the same id may be drawn twice */
            if (ids[j] == ids[k]) {
                ref[j] = t;
                set[j] = true;
            }
        int32_t x = (int32_t)tn_test_below(&r, 9), y = (int32_t)tn_test_below(&r, 7);
        uint32_t g = ids[tn_test_below(&r, IDS)];
        assert_int_equal(tn_map_set(m, 0, x, y, g), TN_OK);
        if (step % 100 == 99) {
            tn_map *c = NULL;
            assert_int_equal(tn_map_clone(m, &c), TN_OK);
            for (int j = 0; j < IDS; j++) {
                tn_terrain a = tn_map_terrain(c, ids[j]);
                assert_int_equal(a.passable, set[j] ? ref[j].passable : true);
            }
            assert_int_equal(tn_map_passable_count(c), tn_map_passable_count(m));
            tn_map_destroy(c);
        }
        for (int j = 0; j < IDS; j++) {
            tn_terrain a = tn_map_terrain(m, ids[j]);
            assert_int_equal(a.passable, set[j] ? ref[j].passable : true);
            assert_true(a.cost == (set[j] ? ref[j].cost : 1.0f));
        }
        /* every cell from the reference: blocked by a blocking entry, else its entry's cost */
        const uint32_t *gids = tn_map_layer_data(m, 0);
        for (int32_t i = 0; i < 9 * 7; i++) {
            bool pass = true;
            float cost = 1.0f;
            for (int j = 0; j < IDS; j++)
                if (set[j] && ids[j] == gids[i]) {
                    pass = ref[j].passable;
                    cost = ref[j].cost;
                }
            assert_int_equal(tn_map_passable(m, i % 9, i / 9), pass);
            if (pass)
                assert_true(tn_map_cost(m, i % 9, i / 9) == cost);
        }
        uint32_t top = 0;
        for (int j = 0; j < IDS; j++)
            if (set[j] && ids[j] != reserved && ids[j] > top)
                top = ids[j];
        for (int32_t i = 0; i < 9 * 7; i++)
            if (gids[i] != reserved && gids[i] > top)
                top = gids[i];
        assert_int_equal(tn_map_free_gid(m), top + 1 < reserved ? top + 1 : 0);
    }
    tn_map_clear_terrain(m);
    for (int j = 0; j < IDS; j++)
        assert_true(tn_map_terrain(m, ids[j]).passable);
    assert_int_equal(tn_map_passable_count(m), 9 * 7);
    tn_map_destroy(m);
}

static void test_change_log(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(20, 10, 8, 8);
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, NULL), TN_OK);
    uint64_t r0 = tn_map_revision(m);
    tn_rect rc;
    assert_true(tn_map_changed_region(m, r0, &rc));
    assert_true(rc.x1 <= rc.x0);
    assert_int_equal(tn_map_set(m, 0, 3, 4, 9), TN_OK);
    assert_int_equal(tn_map_set(m, 0, 3, 4, 9), TN_OK); /* same value: no change */
    assert_int_equal(tn_map_revision(m), r0 + 1);
    assert_int_equal(tn_map_set(m, 0, 10, 2, 9), TN_OK);
    assert_true(tn_map_changed_region(m, r0, &rc));
    assert_int_equal(rc.x0, 3);
    assert_int_equal(rc.y0, 2);
    assert_int_equal(rc.x1, 11);
    assert_int_equal(rc.y1, 5);
    assert_true(tn_map_changed_region(m, r0 + 1, &rc));
    assert_int_equal(rc.x0, 10);
    assert_int_equal(rc.x1, 11);
    /* too old, or from the future: the whole map */
    for (int i = 0; i < 100; i++)
        assert_int_equal(tn_map_set(m, 0, i % 20, 0, (uint32_t)i + 100), TN_OK);
    assert_false(tn_map_changed_region(m, r0, &rc));
    assert_int_equal(rc.x1, 20);
    assert_int_equal(rc.y1, 10);
    assert_false(tn_map_changed_region(m, tn_map_revision(m) + 5, &rc));
    tn_map_destroy(m);
}

/* updateMap with several objects sharing a cell, objects outside, and terrain following it. */
static void test_stamp_layer(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(6, 4, 10, 10);
    int32_t bombs;
    assert_int_equal(tn_map_add_layer(m, "bombs", TN_LAYER_TILES, &bombs), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 5, (tn_terrain){false, 1.0f}), TN_OK);
    assert_int_equal(tn_map_set(m, bombs, 0, 0, 5), TN_OK);
    tn_stamp s[] = {{15.0f, 15.0f, 5}, {19.9f, 11.0f, 6}, {55.0f, 35.0f, 5},
                    {-1.0f, 5.0f, 5},  {60.0f, 5.0f, 5},  {25.0f, 5.0f, 7}};
    int32_t idx[6];
    assert_int_equal(tn_map_stamp_layer(m, bombs, s, 6, idx), TN_OK);
    assert_int_equal(idx[0], 1 * 6 + 1);
    assert_int_equal(idx[1], 1 * 6 + 1); /* shares the cell; the later stamp wins */
    assert_int_equal(idx[2], 3 * 6 + 5);
    assert_int_equal(idx[3], -1);
    assert_int_equal(idx[4], -1);
    assert_int_equal(idx[5], 2);
    assert_int_equal(tn_map_get(m, bombs, 0, 0), 0); /* cleared */
    assert_int_equal(tn_map_get(m, bombs, 1, 1), 6);
    assert_int_equal(tn_map_get(m, bombs, 5, 3), 5);
    assert_int_equal(tn_map_get(m, bombs, 2, 0), 7);
    assert_true(tn_map_passable(m, 1, 1));
    assert_false(tn_map_passable(m, 5, 3));
    assert_true(tn_map_passable(m, 0, 0));
    assert_int_equal(tn_map_passable_count(m), 23);
    int n = 0;
    const uint32_t *d = tn_map_layer_data(m, bombs);
    for (int i = 0; i < 24; i++)
        n += d[i] != 0;
    assert_int_equal(n, 3);
    tn_map_destroy(m);
}

/* The book's overlay: cells where layer A has gid a and layer B has gid b. */
static void test_overlay(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(9, 7, 8, 8);
    assert_int_equal(tn_map_add_layer(m, "one", TN_LAYER_TILES, NULL), TN_OK);
    assert_int_equal(tn_map_add_layer(m, "two", TN_LAYER_TILES, NULL), TN_OK);
    tn_test_rng r = {7};
    for (int32_t y = 0; y < 7; y++)
        for (int32_t x = 0; x < 9; x++) {
            assert_int_equal(tn_map_set(m, 0, x, y, tn_test_below(&r, 3)), TN_OK);
            uint32_t g = tn_test_below(&r, 3);
            if (g && tn_test_below(&r, 2))
                g |= TN_GID_FLIP_V;
            assert_int_equal(tn_map_set(m, 1, x, y, g), TN_OK);
        }
    int32_t out[63];
    int32_t count = 0;
    assert_int_equal(tn_map_overlay(m, 0, 1, 1, 2, out, 63, &count), TN_OK);
    int32_t k = 0;
    for (int32_t i = 0; i < 63; i++) {
        const uint32_t *a = tn_map_layer_data(m, 0), *b = tn_map_layer_data(m, 1);
        if (a[i] == 1 && tn_gid_id(b[i]) == 2) {
            assert_true(k < count);
            assert_int_equal(out[k], i);
            k++;
        }
    }
    assert_int_equal(k, count);
    assert_true(count > 0);
    int32_t need = 0;
    assert_int_equal(tn_map_overlay(m, 0, 1, 1, 2, out, 1, &need),
                     count > 1 ? TN_E_BUFFER_TOO_SMALL : TN_OK);
    assert_int_equal(need, count);
    assert_int_equal(tn_map_overlay(m, 0, 1, 5, 2, out, 63, &need), TN_E_INVALID_ARG);
    tn_map_destroy(m);
}

/* Counts and capacities are int32_t: a negative one is refused, nothing changes. */
static void test_negative_counts(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(4, 3, 16, 16);
    int32_t l = -1;
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, &l), TN_OK);
    uint32_t gids[12] = {0};
    tn_terrain t = {false, 1.0f};
    tn_stamp st = {1.0f, 1.0f, 1u};
    int32_t out[4], count = 7;
    uint64_t rev = tn_map_revision(m);
    assert_int_equal(tn_map_set_layer_data(m, l, gids, -12), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_terrain_many(m, gids, &t, -1), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_obstacles(m, gids, -1), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_stamp_layer(m, l, &st, -1, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_overlay(m, l, 0, l, 0, out, -1, &count), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_revision(m), rev);
    assert_int_equal(tn_map_overlay(m, l, 0, l, 0, out, 4, &count), TN_E_BUFFER_TOO_SMALL);
    assert_int_equal(count, 12);
    tn_map_destroy(m);
}

static void test_objects_tilesets(void **state)
{
    (void)state;
    tn_map *m = tn_test_blank_map(4, 4, 8, 8);
    tn_map_object o;
    memset(&o, 0, sizeof o);
    strcpy(o.name, "spawn");
    o.x = 12.0f;
    o.y = 20.0f;
    o.shape = 1;
    o.layer = 0; /* the map has no layer yet: -1 (none) or a layer's index */
    assert_int_equal(tn_map_add_object(m, &o), TN_E_INVALID_ARG);
    o.layer = -1;
    assert_int_equal(tn_map_add_object(m, &o), TN_OK);
    o.x = NAN;
    assert_int_equal(tn_map_add_object(m, &o), TN_E_INVALID_ARG);
    o.x = 12.0f;
    int32_t objects = -1;
    assert_int_equal(tn_map_add_layer(m, "things", TN_LAYER_OBJECTS, &objects), TN_OK);
    o.layer = objects + 1;
    assert_int_equal(tn_map_add_object(m, &o), TN_E_INVALID_ARG);
    o.layer = -2;
    assert_int_equal(tn_map_add_object(m, &o), TN_E_INVALID_ARG);
    o.layer = objects;
    o.shape = 6;
    assert_int_equal(tn_map_add_object(m, &o), TN_E_INVALID_ARG);
    o.shape = 1;
    strcpy(o.name, "spawn2");
    assert_int_equal(tn_map_add_object(m, &o), TN_OK);
    assert_int_equal(tn_map_object_at(m, 1)->layer, objects);
    strcpy(o.name, "spawn");
    assert_int_equal(tn_map_object_count(m), 2);
    assert_non_null(tn_map_find_object(m, "spawn"));
    assert_null(tn_map_find_object(m, "exit"));
    assert_null(tn_map_object_at(m, 2));
    tn_tileset t;
    memset(&t, 0, sizeof t);
    t.first_gid = 1;
    t.tile_count = 4;
    strcpy(t.name, "ts");
    assert_int_equal(tn_map_add_tileset(m, &t), TN_OK);
    assert_int_equal(tn_map_tileset_count(m), 1);
    assert_int_equal(tn_map_tileset_at(m, 0)->tile_count, 4);
    assert_true(tn_map_memory_bytes(m) > 0);
    /* a free gid: above the tileset's 1..4, then above a terrain entry and a layer's cell (flip
     * bits stripped), never the loader's collision gid; brute force over all three */
    assert_int_equal(tn_map_free_gid(m), 5);
    assert_int_equal(tn_map_set_terrain(m, 9, (tn_terrain){true, 2.0f}), TN_OK);
    assert_int_equal(tn_map_free_gid(m), 10);
    int32_t gl = -1;
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, &gl), TN_OK);
    assert_int_equal(tn_map_set(m, gl, 0, 0, 40u | TN_GID_FLIP_H), TN_OK);
    assert_int_equal(tn_map_free_gid(m), 41);
    assert_int_equal(
        tn_map_set_terrain(m, (uint32_t)TN_MAX_TERRAIN_GID - 1u, (tn_terrain){false, 1.0f}), TN_OK);
    assert_int_equal(tn_map_free_gid(m), 41);
    assert_int_equal(tn_map_free_gid(NULL), 0);
    tn_map_destroy(m);
}

/* tn_map_set_rect writes mixed gids as one change: the same cells as tn_map_set one by one
 * (checked cell by cell on random rectangles), one revision, and the logged rectangle is the
 * bounding box of the cells that changed. */
static void test_set_rect(void **state)
{
    (void)state;
    tn_map *a = tn_test_random_map(23, 17, 0.2, 3), *b = tn_test_random_map(23, 17, 0.2, 3);
    tn_test_rng r = {9};
    uint32_t gids[64];
    for (int k = 0; k < 300; k++) {
        int32_t x0 = (int32_t)tn_test_below(&r, 23), y0 = (int32_t)tn_test_below(&r, 17);
        int32_t w = 1 + (int32_t)tn_test_below(&r, 8), h = 1 + (int32_t)tn_test_below(&r, 8);
        w = x0 + w > 23 ? 23 - x0 : w;
        h = y0 + h > 17 ? 17 - y0 : h;
        int32_t bx0 = 99, by0 = 99, bx1 = -1, by1 = -1;
        for (int32_t j = 0; j < h; j++)
            for (int32_t i = 0; i < w; i++) {
                uint32_t g = tn_test_below(&r, 3) == 0 ? tn_test_below(&r, 2)
                                                       : tn_map_get(a, 0, x0 + i, y0 + j);
                gids[j * w + i] = g;
                if (g != tn_map_get(b, 0, x0 + i, y0 + j)) {
                    assert_int_equal(tn_map_set(b, 0, x0 + i, y0 + j, g), TN_OK);
                    bx0 = x0 + i < bx0 ? x0 + i : bx0;
                    by0 = y0 + j < by0 ? y0 + j : by0;
                    bx1 = x0 + i + 1 > bx1 ? x0 + i + 1 : bx1;
                    by1 = y0 + j + 1 > by1 ? y0 + j + 1 : by1;
                }
            }
        uint64_t rev = tn_map_revision(a);
        assert_int_equal(tn_map_set_rect(a, 0, (tn_rect){x0, y0, x0 + w, y0 + h}, gids), TN_OK);
        assert_int_equal(tn_map_revision(a), rev + 1);
        tn_rect ch;
        assert_true(tn_map_changed_region(a, rev, &ch));
        if (bx1 < 0)
            assert_true(ch.x1 <= ch.x0 || ch.y1 <= ch.y0);
        else
            assert_true(ch.x0 == bx0 && ch.y0 == by0 && ch.x1 == bx1 && ch.y1 == by1);
        for (int32_t y = 0; y < 17; y++)
            for (int32_t x = 0; x < 23; x++) {
                assert_int_equal(tn_map_get(a, 0, x, y), tn_map_get(b, 0, x, y));
                assert_int_equal(tn_map_passable(a, x, y), tn_map_passable(b, x, y));
            }
    }
    assert_int_equal(tn_map_set_rect(a, 0, (tn_rect){20, 0, 24, 2}, gids), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_map_set_rect(a, 0, (tn_rect){0, 0, 2, 2}, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_map_set_rect(a, 0, (tn_rect){3, 3, 3, 5}, NULL), TN_OK);
    assert_int_equal(tn_map_set_rect(a, 7, (tn_rect){0, 0, 1, 1}, gids), TN_E_INVALID_ARG);
    tn_map_destroy(a);
    tn_map_destroy(b);
}

static void test_status_strings(void **state)
{
    (void)state;
    for (int s = -15; s <= 4; s++)
        assert_string_not_equal(tn_status_str((tn_status)s), "unknown status");
    assert_string_equal(tn_status_str((tn_status)99), "unknown status");
    assert_string_equal(tn_version(), TN_VERSION_STRING);
}

/* A counting allocator proves the map uses the hook and frees what it takes. */
typedef struct counting {
    size_t live, calls;
} counting;

static void *c_alloc(size_t size, size_t align, void *user)
{
    (void)align;
    counting *c = user;
    c->live += size;
    c->calls++;
    return malloc(size);
}

static void c_free(void *p, size_t size, void *user)
{
    counting *c = user;
    c->live -= size;
    free(p);
}

static void test_allocator(void **state)
{
    (void)state;
    counting c = {0, 0};
    tn_map_def d = tn_map_def_default();
    d.width = 30;
    d.height = 20;
    d.allocator = (tn_allocator){c_alloc, c_free, &c};
    tn_map *m = NULL;
    assert_int_equal(tn_map_create(&d, &m), TN_OK);
    for (int i = 0; i < 9; i++)
        assert_int_equal(tn_map_add_layer(m, "l", TN_LAYER_TILES, NULL), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 300, (tn_terrain){false, 1.0f}), TN_OK);
    tn_map *c2 = NULL;
    assert_int_equal(tn_map_clone(m, &c2), TN_OK);
    assert_true(c.calls > 10);
    tn_map_destroy(c2);
    tn_map_destroy(m);
    assert_int_equal(c.live, 0);
    d.allocator = (tn_allocator){c_alloc, NULL, &c};
    assert_int_equal(tn_map_create(&d, &m), TN_E_INVALID_ARG);
}

/* The passability hash the search caches are keyed on: it depends only on which cells are
 * passable (not on the edits that got there), and it tells apart maps that differ in a cell. */
static uint64_t mix_index(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t hash_by_hand(const tn_map *m)
{
    uint64_t h = 0;
    int32_t w = tn_map_width(m);
    for (int32_t i = 0; i < w * tn_map_height(m); i++)
        if (!tn_map_passable(m, i % w, i / w))
            h ^= mix_index((uint64_t)i);
    return h;
}

static void test_passable_hash(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        tn_map *a = tn_test_random_map(23, 17, 0.3, seed);
        tn_map *b = tn_test_random_map(23, 17, 0.3, seed);
        assert_true(tn__map_passable_hash(a) == hash_by_hand(a));
        assert_true(tn__map_passable_hash(a) == tn__map_passable_hash(b));
        uint64_t h0 = tn__map_passable_hash(a);
        tn_test_rng r = {seed};
        for (int k = 0; k < 40; k++) {
            int32_t x = (int32_t)tn_test_below(&r, 23), y = (int32_t)tn_test_below(&r, 17);
            bool was = tn_map_passable(a, x, y);
            assert_int_equal(tn_map_set(a, 0, x, y, was ? 1u : 0u), TN_OK);
            assert_true(tn_map_passable(a, x, y) != was);
            assert_true(tn__map_passable_hash(a) == hash_by_hand(a));
            assert_true(tn__map_passable_hash(a) != h0); /* one cell differs from b */
            assert_int_equal(tn_map_set(a, 0, x, y, was ? 0u : 1u), TN_OK);
            assert_true(tn__map_passable_hash(a) == h0);
        }
        /* a rewrite of the same passability keeps the hash */
        assert_int_equal(tn_map_set(a, 0, 0, 0, tn_map_passable(a, 0, 0) ? 0u : 1u), TN_OK);
        assert_true(tn__map_passable_hash(a) == h0);
        tn_map_destroy(a);
        tn_map_destroy(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_limits),     cmocka_unit_test(test_layers),
        cmocka_unit_test(test_many_layers_limit), cmocka_unit_test(test_conversions_edges),
        cmocka_unit_test(test_terrain_random),    cmocka_unit_test(test_terrain_revision),
        cmocka_unit_test(test_terrain_high_ids),  cmocka_unit_test(test_change_log),
        cmocka_unit_test(test_stamp_layer),       cmocka_unit_test(test_overlay),
        cmocka_unit_test(test_objects_tilesets),  cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_set_rect),          cmocka_unit_test(test_negative_counts),
        cmocka_unit_test(test_allocator),         cmocka_unit_test(test_passable_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
