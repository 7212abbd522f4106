/* tilenav ASCII maps: seeded random maps written here and read back (gids, terrain, objects
 * checked against the generator), a Moving AI round trip through both formats, the bundled
 * demo map in its Tiled and ASCII forms agreeing cell by cell, and malformed files. */
#include "support.h"
#include "tilenav/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen {
    char *text;
    size_t len, cap;
} gen;

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(gen *g, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(g->text + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < g->cap - g->len) {
            g->len += (size_t)n;
            return;
        }
        g->cap = g->cap * 2 + (size_t)n + 64;
        g->text = realloc(g->text, g->cap);
    }
}

static tn_map *parse_ok(const char *text, size_t len, const char *name)
{
    tn_map *m = NULL;
    tn_diag d;
    memset(&d, 0, sizeof d);
    if (tn_map_parse(text, len, name, NULL, &m, &d) != TN_OK) {
        char msg[1024];
        tn_diag_format(&d, msg, sizeof msg);
        fail_msg("%s", msg);
    }
    return m;
}

/* Legend of the random maps: char, gid, kind (0 no terrain, 1 block, 2 cost). */
static const struct {
    char ch;
    uint32_t gid;
    int kind;
    float cost;
} legend[] = {{'.', 0, 0, 1},    {'g', 1, 0, 1},           {'#', 2, 1, 1}, {'~', 3, 2, 3.0f},
              {'r', 4, 2, 0.5f}, {'W', 0x80000002u, 1, 1}, {'x', 5, 1, 1}};
#define NLEG (sizeof legend / sizeof legend[0])

static void test_random_roundtrip(void **state)
{
    (void)state;
    tn_test_rng rng = {7};
    for (int round = 0; round < 30; round++) {
        int w = 1 + (int)tn_test_below(&rng, 50), h = 1 + (int)tn_test_below(&rng, 40);
        int layers = 1 + (int)tn_test_below(&rng, 3);
        size_t n = (size_t)w * (size_t)h;
        int *pick = malloc(n * (size_t)layers * sizeof(int));
        gen g = {NULL, 0, 0};
        put(&g, "tilenav-ascii 1\r\n# round %d\n\nsize %d %d\ntile 16 24\n", round, w, h);
        for (size_t k = 0; k < NLEG; k++) {
            put(&g, "legend %c %u", legend[k].ch, legend[k].gid);
            if (legend[k].kind == 1)
                put(&g, " block");
            if (legend[k].kind == 2)
                put(&g, " pass cost %g", (double)legend[k].cost);
            put(&g, "\n");
        }
        for (int l = 0; l < layers; l++) {
            put(&g, "layer L%d%s\n", l, l == 1 ? " hidden" : "");
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int p = (int)tn_test_below(&rng, NLEG);
                    pick[(size_t)l * n + (size_t)y * (size_t)w + (size_t)x] = p;
                    put(&g, "%c", legend[p].ch);
                }
                put(&g, y % 2 ? "\r\n" : "\n");
            }
        }
        put(&g, "objects marks\npoint a %d %d\nrect b 0 0 %d %d zone\n", w - 1, h - 1, w, h);
        tn_map *m = parse_ok(g.text, g.len, "r.txt");
        assert_int_equal(tn_map_width(m), w);
        assert_int_equal(tn_map_height(m), h);
        assert_int_equal(tn_map_tile_width(m), 16);
        assert_int_equal(tn_map_tile_height(m), 24);
        assert_int_equal(tn_map_layer_count(m), layers + 1);
        int32_t pass = 0;
        for (size_t i = 0; i < n; i++) {
            bool blocked = false;
            float cost = 1.0f;
            bool have = false;
            for (int l = 0; l < layers; l++) {
                int p = pick[(size_t)l * n + i];
                assert_int_equal(tn_map_layer_data(m, l)[i], legend[p].gid);
                if (legend[p].kind == 1)
                    blocked = true;
                if (legend[p].kind == 2 && (!have || legend[p].cost > cost)) {
                    cost = legend[p].cost;
                    have = true;
                }
            }
            pass += !blocked;
            float got = tn_map_cost(m, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w));
            assert_true(blocked ? isinf(got) : got == cost);
        }
        assert_int_equal(tn_map_passable_count(m), pass);
        if (layers > 1)
            assert_true(tn_map_layer_flags(m, 1) & TN_LAYER_HIDDEN);
        const tn_map_object *a = tn_map_find_object(m, "a");
        assert_int_equal(a->shape, 1);
        assert_true(a->x == (float)(w - 1) * 16 + 8 && a->y == (float)(h - 1) * 24 + 12);
        const tn_map_object *b = tn_map_find_object(m, "b");
        assert_string_equal(b->type, "zone");
        assert_true(b->w == (float)w * 16 && b->h == (float)h * 24);
        assert_int_equal(b->layer, layers);
        tn_map_destroy(m);
        free(pick);
        free(g.text);
    }
}

/* A random Moving AI map, written here, loaded, written again as ASCII and loaded: both maps
 * hold the letters the generator chose and agree on every cell's passability. */
static void test_movingai_roundtrip(void **state)
{
    (void)state;
    static const char letters[] = ".GS@OTW";
    tn_test_rng rng = {99};
    for (int round = 0; round < 10; round++) {
        int w = 1 + (int)tn_test_below(&rng, 60), h = 1 + (int)tn_test_below(&rng, 60);
        size_t n = (size_t)w * (size_t)h;
        char *cells = malloc(n);
        gen g = {NULL, 0, 0};
        put(&g, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
        int32_t pass = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                char c = letters[tn_test_below(&rng, 7)];
                cells[(size_t)y * (size_t)w + (size_t)x] = c;
                pass += c == '.' || c == 'G' || c == 'S';
                put(&g, "%c", c);
            }
            put(&g, "\n");
        }
        tn_map *a = parse_ok(g.text, g.len, "r.map");
        assert_int_equal(tn_map_passable_count(a), pass);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(tn_map_layer_data(a, 0)[i], (uint32_t)(unsigned char)cells[i]);
        /* back out as ASCII: the gid is the letter's code, terrain from the map's table */
        gen t = {NULL, 0, 0};
        put(&t, "tilenav-ascii 1\nsize %d %d\n", w, h);
        for (int k = 0; k < 7; k++)
            put(&t, "legend %c %d %s\n", letters[k], letters[k],
                tn_map_terrain(a, (uint32_t)letters[k]).passable ? "pass" : "block");
        put(&t, "layer terrain\n");
        const uint32_t *gd = tn_map_layer_data(a, 0);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++)
                put(&t, "%c", (char)gd[(size_t)y * (size_t)w + (size_t)x]);
            put(&t, "\n");
        }
        tn_map *b = parse_ok(t.text, t.len, "r.txt");
        assert_memory_equal(tn_map_passable_data(a), tn_map_passable_data(b), n);
        assert_memory_equal(tn_map_layer_data(a, 0), tn_map_layer_data(b, 0), n * 4);
        tn_map_destroy(a);
        tn_map_destroy(b);
        free(cells);
        free(g.text);
        free(t.text);
    }
}

/* The bundled demo map: td.tmj (Tiled) and td.txt (ASCII) describe the same map. */
static void test_demo_map(void **state)
{
    (void)state;
    char p1[1024], p2[1024];
    snprintf(p1, sizeof p1, "%s/maps/td.tmj", TN_DATA_DIR);
    snprintf(p2, sizeof p2, "%s/maps/td.txt", TN_DATA_DIR);
    tn_map *a = NULL, *b = NULL;
    tn_diag d;
    assert_int_equal(tn_map_load(p1, NULL, &a, &d), TN_OK);
    assert_int_equal(tn_map_load(p2, NULL, &b, &d), TN_OK);
    int32_t w = tn_map_width(a), h = tn_map_height(a);
    assert_int_equal(w, 40);
    assert_int_equal(h, 24);
    assert_int_equal(tn_map_tile_width(a), 32);
    assert_int_equal(tn_map_width(b), w);
    assert_int_equal(tn_map_height(b), h);
    assert_int_equal(tn_map_tile_width(b), 32);
    assert_int_equal(tn_map_layer_count(a), 3);
    assert_int_equal(tn_map_layer_count(b), 3);
    size_t n = (size_t)w * (size_t)h;
    for (int32_t l = 0; l < 3; l++) {
        assert_string_equal(tn_map_layer_name(a, l), tn_map_layer_name(b, l));
        assert_int_equal(tn_map_layer_kind(a, l), tn_map_layer_kind(b, l));
        if (tn_map_layer_kind(a, l) == TN_LAYER_TILES)
            assert_memory_equal(tn_map_layer_data(a, l), tn_map_layer_data(b, l), n * 4);
    }
    assert_memory_equal(tn_map_passable_data(a), tn_map_passable_data(b), n);
    assert_memory_equal(tn_map_cost_data(a), tn_map_cost_data(b), n * sizeof(float));
    /* the terrain the issue asks for: grass 1, mud cost 3, walls block */
    assert_true(tn_map_terrain(a, 2).cost == 3.0f && tn_map_terrain(a, 2).passable);
    assert_false(tn_map_terrain(a, 3).passable);
    /* independent count: cells whose walls gid is 0 */
    int32_t open = 0;
    int32_t walls = tn_map_find_layer(a, "walls");
    for (size_t i = 0; i < n; i++)
        open += tn_map_layer_data(a, walls)[i] == 0;
    assert_int_equal(tn_map_passable_count(a), open);
    assert_false(tn_map_uniform_cost(a));
    assert_int_equal(tn_map_object_count(a), tn_map_object_count(b));
    static const char *const names[] = {"spawn1", "spawn2", "exit"};
    for (int k = 0; k < 3; k++) {
        const tn_map_object *oa = tn_map_find_object(a, names[k]);
        const tn_map_object *ob = tn_map_find_object(b, names[k]);
        assert_non_null(oa);
        assert_non_null(ob);
        assert_true(oa->x == ob->x && oa->y == ob->y && oa->shape == 1 && ob->shape == 1);
        tn_cell c;
        assert_true(tn_map_cell_at_px(a, oa->x, oa->y, &c));
        assert_true(tn_map_passable(a, c.x, c.y));
    }
    int slots = 0;
    for (int32_t k = 0; k < tn_map_object_count(a); k++) {
        const tn_map_object *oa = tn_map_object_at(a, k), *ob = tn_map_object_at(b, k);
        assert_string_equal(oa->name, ob->name);
        assert_true(oa->x == ob->x && oa->y == ob->y && oa->w == ob->w && oa->h == ob->h);
        if (strcmp(oa->name, "tower_slot") == 0) {
            slots++;
            assert_int_equal(oa->shape, 0);
            assert_true(oa->w > 0 && oa->h > 0);
        }
    }
    assert_true(slots >= 3);
    tn_map_destroy(a);
    tn_map_destroy(b);
}

static void expect_err(const char *text, tn_status want, int line, int col, const char *fragment)
{
    tn_map *m = (tn_map *)0x1;
    tn_diag d;
    tn_load_def o = tn_load_def_default();
    o.format = TN_FORMAT_ASCII;
    tn_status st = tn_map_parse(text, strlen(text), "bad.txt", &o, &m, &d);
    char msg[1024];
    tn_diag_format(&d, msg, sizeof msg);
    if (st != want || !strstr(d.message, fragment) || d.line != line || d.column != col ||
        strcmp(d.file, "bad.txt") != 0)
        fail_msg("got %d '%s', want %d line %d col %d '%s'", st, msg, want, line, col, fragment);
    assert_null(m);
}

#define HDR "tilenav-ascii 1\nsize 3 2\nlegend . 0\nlegend # 1 block\n"

/* A map declared by its size alone still allocates its cells: they count against
 * max_layer_cells (a 44-byte file once declared 261 million cells). */
static void test_size_alone_is_bounded(void **state)
{
    (void)state;
    const char *t = "tilenav-ascii 1\nsize 40 30\n";
    tn_load_def o = tn_load_def_default();
    o.format = TN_FORMAT_ASCII;
    o.max_layer_cells = 1199;
    tn_map *m = NULL;
    tn_diag d;
    assert_int_equal(tn_map_parse(t, strlen(t), "big.txt", &o, &m, &d), TN_E_TOO_LARGE);
    assert_null(m);
    assert_non_null(strstr(d.message, "max_layer_cells"));
    o.max_layer_cells = 1200;
    assert_int_equal(tn_map_parse(t, strlen(t), "big.txt", &o, &m, &d), TN_OK);
    assert_int_equal(tn_map_passable_count(m), 1200);
    tn_map_destroy(m);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_err("", TN_E_PARSE, 1, 1, "tilenav-ascii 1");
    expect_err("tilenav ascii\n", TN_E_PARSE, 1, 1, "tilenav-ascii 1");
    expect_err("tilenav-ascii 2\n", TN_E_UNSUPPORTED, 1, 15, "version '2'");
    expect_err(HDR "layer g\n...\n.x.\n", TN_E_PARSE, 7, 2, "character 'x' is not in the legend");
    expect_err(HDR "layer g\n...\n..\n.", TN_E_PARSE, 7, 3, "row 1 of layer 'g' has 2 cells");
    expect_err(HDR "layer g\n....\n...\n", TN_E_PARSE, 6, 4, "row 0 of layer 'g' has 4 cells");
    expect_err(HDR "layer g\n...", TN_E_PARSE, 5, 1, "file too short");
    expect_err(HDR "layer g\n...\n\n\n\n", TN_E_PARSE, 7, 1, "has 0 cells");
    expect_err("tilenav-ascii 1\nsize 2147483648 1\n", TN_E_TOO_LARGE, 2, 6, "outside [1,");
    expect_err("tilenav-ascii 1\nsize 70000 70000\n", TN_E_TOO_LARGE, 2, 6, "past the limit");
    expect_err("tilenav-ascii 1\nsize -3 2\n", TN_E_TOO_LARGE, 2, 6, "outside [1,");
    expect_err("tilenav-ascii 1\nsize 3 x\n", TN_E_PARSE, 2, 8, "whole number");
    expect_err("tilenav-ascii 1\nlegend . 0\nlayer g\n", TN_E_PARSE, 3, 1,
               "\"size W H\" must come before");
    expect_err("tilenav-ascii 1\n", TN_E_PARSE, 2, 1, "\"size W H\" must come before");
    expect_err(HDR "legend . 2\n", TN_E_PARSE, 5, 8, "defined twice");
    expect_err(HDR "legend ab 2\n", TN_E_PARSE, 5, 8, "one printable ASCII character");
    expect_err(HDR "legend ~ 2 cost 0\n", TN_E_PARSE, 5, 17, "cost must be a number > 0");
    expect_err(HDR "legend ~ 2 cost\n", TN_E_PARSE, 5, 12, "missing the cost value");
    expect_err(HDR "legend ~ 0 block\n", TN_E_PARSE, 5, 10, "gid 0 is empty ground");
    expect_err(HDR "legend ~ 1 pass\n", TN_E_PARSE, 5, 10, "already has different terrain");
    expect_err(HDR "legend ~ 2 slippery\n", TN_E_PARSE, 5, 12, "unknown legend word");
    expect_err(HDR "legend ~ 4294967296\n", TN_E_PARSE, 5, 10, "gid");
    expect_err(HDR "layer g wide\n", TN_E_PARSE, 5, 9, "unknown layer flag");
    expect_err(HDR "point p 0 0\n", TN_E_PARSE, 5, 1, "outside an \"objects NAME\" section");
    expect_err(HDR "objects o\npoint p 3 0\n", TN_E_PARSE, 6, 9, "x 3 is outside [0, 2]");
    expect_err(HDR "objects o\nrect r 1 0 3 1\n", TN_E_PARSE, 6, 12, "width 3 is outside [1, 2]");
    expect_err(HDR "objects o\npoint p 0 0 t extra\n", TN_E_PARSE, 6, 15, "unexpected text");
    expect_err(HDR "objects o\npoint p 0\n", TN_E_PARSE, 6, 9, "missing y");
    expect_err(HDR "teleport 1 2\n", TN_E_PARSE, 5, 1, "unknown line 'teleport'");
    expect_err(HDR "layer g\n...\n...\nsize 4 4\n", TN_E_PARSE, 8, 1, "must come before");
    /* CRLF and a BOM are fine; gids keep their flags */
    const char *ok = "\xEF\xBB\xBFtilenav-ascii 1\r\nsize 2 1\r\nlegend f 2147483649\r\n"
                     "legend # 1 block\r\nlayer g\r\nf#\r\n";
    tn_map *m = parse_ok(ok, strlen(ok), "ok.txt");
    assert_int_equal(tn_map_get(m, 0, 0, 0), 2147483649u);
    assert_false(tn_map_passable(m, 0, 0)); /* flags are ignored by the terrain table */
    assert_int_equal(tn_map_tile_width(m), 32);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_roundtrip), cmocka_unit_test(test_movingai_roundtrip),
        cmocka_unit_test(test_demo_map),         cmocka_unit_test(test_size_alone_is_bounded),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
