/* The tools' scene renderer (tools/render/draw.h): pixel facts checked against what the test
 * computes on its own — tileset PNGs written here with known colours land where each gid says,
 * flipped as Tiled flips them (the test flips arrays, the renderer maps coordinates); missing or
 * broken images fall back to the palette with a message; paths, fields, LOS, agents, broad-phase
 * cells, range rings and text colour the pixels they should and no others; bad input is refused. */
#include "render/draw.h"
#include "support.h"
#include "tilenav/io.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const tn_rgba BG = {0, 0, 0, 255};
static const tn_rgba MAGENTA = {255, 0, 255, 255};

static tn_rgba px_at(const tn_canvas *c, int32_t x, int32_t y)
{
    const uint8_t *p = c->px + 4 * ((size_t)y * (size_t)c->w + (size_t)x);
    return (tn_rgba){p[0], p[1], p[2], p[3]};
}

static bool same(tn_rgba a, tn_rgba b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/* Straight alpha blend of `c` over opaque `under`, rounded as a reader would expect (+-1). */
static bool blended(tn_rgba got, tn_rgba under, tn_rgba c)
{
    double a = c.a / 255.0;
    double r = c.r * a + under.r * (1 - a), g = c.g * a + under.g * (1 - a),
           b = c.b * a + under.b * (1 - a);
    return fabs(got.r - r) <= 1.0 && fabs(got.g - g) <= 1.0 && fabs(got.b - b) <= 1.0;
}

static char *tmp_path(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "/tmp/tn_test_render_%ld_%s", (long)getpid(), name);
    return buf;
}

/* Write an RGBA PNG with libpng's simplified API. */
static void write_png(const char *path, const uint8_t *rgba, int32_t w, int32_t h)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    im.width = (png_uint_32)w;
    im.height = (png_uint_32)h;
    im.format = PNG_FORMAT_RGBA;
    assert_true(png_image_write_to_file(&im, path, 0, rgba, 0, NULL));
}

/* ---- tilesets ----------------------------------------------------------------------------- */

#define T 4 /* tile side in the test tilesets */

/* The colour of pixel (u, v) of tile t: every pixel of every tile distinct. */
static tn_rgba tile_px(int32_t t, int32_t u, int32_t v)
{
    return (tn_rgba){(uint8_t)(20 + 40 * t), (uint8_t)(10 + 60 * u), (uint8_t)(10 + 60 * v), 255};
}

/* A tileset image of cols x rows tiles of T x T with the given margin and spacing; the gaps are
 * magenta, which must never be drawn. Tile t is tile_px(t0 + t, ...). */
static void write_tileset(const char *path, int32_t cols, int32_t rows, int32_t margin,
                          int32_t spacing, int32_t t0)
{
    int32_t w = 2 * margin + cols * T + (cols - 1) * spacing;
    int32_t h = 2 * margin + rows * T + (rows - 1) * spacing;
    uint8_t *img = malloc((size_t)w * (size_t)h * 4);
    assert_non_null(img);
    for (int32_t i = 0; i < w * h; i++)
        memcpy(img + 4 * i, &MAGENTA, 4);
    for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++)
            for (int32_t v = 0; v < T; v++)
                for (int32_t u = 0; u < T; u++) {
                    int32_t x = margin + c * (T + spacing) + u, y = margin + r * (T + spacing) + v;
                    tn_rgba col = tile_px(t0 + r * cols + c, u, v);
                    memcpy(img + 4 * ((size_t)y * (size_t)w + (size_t)x), &col, 4);
                }
    write_png(path, img, w, h);
    free(img);
}

/* Tiled's flips applied to an array: diagonal (transpose) first, then horizontal, then vertical.
 * out[v][u] = the source pixel shown at (u, v). */
static void flipped_tile(int32_t t, uint32_t flags, tn_rgba out[T][T])
{
    tn_rgba a[T][T], b[T][T];
    for (int32_t v = 0; v < T; v++)
        for (int32_t u = 0; u < T; u++)
            a[v][u] = tile_px(t, u, v);
    if (flags & TN_GID_FLIP_D) {
        for (int32_t v = 0; v < T; v++)
            for (int32_t u = 0; u < T; u++)
                b[v][u] = a[u][v];
        memcpy(a, b, sizeof a);
    }
    if (flags & TN_GID_FLIP_H) {
        for (int32_t v = 0; v < T; v++)
            for (int32_t u = 0; u < T; u++)
                b[v][u] = a[v][T - 1 - u];
        memcpy(a, b, sizeof a);
    }
    if (flags & TN_GID_FLIP_V) {
        for (int32_t v = 0; v < T; v++)
            for (int32_t u = 0; u < T; u++)
                b[v][u] = a[T - 1 - v][u];
        memcpy(a, b, sizeof a);
    }
    memcpy(out, a, sizeof a);
}

static void test_tilesets_flips(void **state)
{
    (void)state;
    char p1[256], p2[256];
    /* set A: 3 x 2 tiles, margin 1, spacing 2 (tiles 0..5, gids 1..6); set B: 2 x 1, no gaps
     * (tiles 10..11, gids 7..8) */
    write_tileset(tmp_path(p1, sizeof p1, "a.png"), 3, 2, 1, 2, 0);
    write_tileset(tmp_path(p2, sizeof p2, "b.png"), 2, 1, 0, 0, 10);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tn_test_rng rng = {seed};
        int32_t w = 3 + (int32_t)tn_test_below(&rng, 6), h = 2 + (int32_t)tn_test_below(&rng, 5);
        int32_t scale = 1 + (int32_t)tn_test_below(&rng, 4); /* canvas pixels per tile pixel */
        tn_map *m = tn_test_blank_map(w, h, T, T);
        tn_tileset ta = {0}, tb = {0};
        ta.first_gid = 1;
        ta.tile_count = 6;
        ta.columns = 3;
        ta.tile_width = ta.tile_height = T;
        ta.margin = 1;
        ta.spacing = 2;
        snprintf(ta.name, sizeof ta.name, "a");
        snprintf(ta.image, sizeof ta.image, "%s", p1);
        tb = ta;
        tb.first_gid = 7;
        tb.tile_count = 2;
        tb.columns = 0; /* derived from the image */
        tb.margin = tb.spacing = 0;
        snprintf(tb.name, sizeof tb.name, "b");
        snprintf(tb.image, sizeof tb.image, "%s", p2);
        /* B first: the owner of a gid is found by firstgid, not by order */
        assert_int_equal(tn_map_add_tileset(m, &tb), TN_OK);
        assert_int_equal(tn_map_add_tileset(m, &ta), TN_OK);
        int32_t l0, l1;
        assert_int_equal(tn_map_add_layer(m, "ground", TN_LAYER_TILES, &l0), TN_OK);
        assert_int_equal(tn_map_add_layer(m, "deco", TN_LAYER_TILES, &l1), TN_OK);
        uint32_t *gids = calloc((size_t)(w * h), sizeof *gids);
        assert_non_null(gids);
        for (int32_t i = 0; i < w * h; i++) {
            uint32_t id = 1 + tn_test_below(&rng, 8);
            uint32_t fl = (uint32_t)tn_test_below(&rng, 8) << 29; /* H, V, D in any mix */
            gids[i] = id | fl;
            assert_int_equal(tn_map_set(m, l0, i % w, i / w, gids[i]), TN_OK);
        }
        /* a hidden layer full of tile 0 must not show */
        assert_int_equal(tn_map_fill(m, l1, (tn_rect){0, 0, w, h}, 1), TN_OK);
        assert_int_equal(tn_map_set_layer_flags(m, l1, TN_LAYER_HIDDEN), TN_OK);

        tn_tileset_images *imgs = NULL;
        char msg[256];
        assert_int_equal(tn_tileset_images_load(m, NULL, &imgs, msg, sizeof msg), TN_OK);
        assert_string_equal(msg, "");
        assert_int_equal(tn_tileset_images_loaded(imgs), 2);
        int32_t ox = (int32_t)tn_test_below(&rng, 5), oy = (int32_t)tn_test_below(&rng, 5);
        tn_canvas cv;
        assert_true(tn_canvas_init(&cv, ox + w * T * scale + 3, oy + h * T * scale + 2, BG));
        tn_draw_view v = tn_draw_view_of(m, ox, oy, T * scale);
        assert_int_equal(tn_draw_map(&cv, &v, m, imgs, TN_DRAW_MAP_AUTO), TN_OK);
        for (int32_t cy = 0; cy < h; cy++)
            for (int32_t cx = 0; cx < w; cx++) {
                uint32_t raw = gids[cy * w + cx], id = tn_gid_id(raw);
                int32_t t = id <= 6 ? (int32_t)id - 1 : 10 + (int32_t)id - 7;
                tn_rgba want[T][T];
                flipped_tile(t, tn_gid_flags(raw), want);
                for (int32_t y = 0; y < T * scale; y++)
                    for (int32_t x = 0; x < T * scale; x++) {
                        tn_rgba got = px_at(&cv, ox + cx * T * scale + x, oy + cy * T * scale + y);
                        if (!same(got, want[y / scale][x / scale]))
                            fail_msg("seed %llu cell (%d,%d) gid %08x px (%d,%d): got %d,%d,%d",
                                     (unsigned long long)seed, cx, cy, raw, x, y, got.r, got.g,
                                     got.b);
                    }
            }
        /* outside the map: the background, untouched */
        assert_true(same(px_at(&cv, cv.w - 1, cv.h - 1), BG));
        /* palette mode ignores the art: every cell is its terrain colour */
        assert_int_equal(tn_draw_map(&cv, &v, m, imgs, TN_DRAW_MAP_PALETTE), TN_OK);
        assert_true(same(px_at(&cv, ox, oy), tn_draw_terrain_color(true, 1.0f)));
        tn_canvas_free(&cv);
        tn_tileset_images_free(imgs);
        free(gids);
        tn_map_destroy(m);
    }
    unlink(p1);
    unlink(p2);
}

/* The bundled map: its tiles are the pixels of td_tiles.png, read here with libpng directly. */
static void test_bundled_map_art(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/maps/td.tmj", TN_DATA_DIR);
    tn_map *m = NULL;
    assert_int_equal(tn_map_load(path, NULL, &m, NULL), TN_OK);
    tn_tileset_images *imgs = NULL;
    assert_int_equal(tn_tileset_images_load(m, NULL, &imgs, NULL, 0), TN_OK);
    assert_int_equal(tn_tileset_images_loaded(imgs), 1);
    const tn_tileset *ts = tn_map_tileset_at(m, 0);
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&im, ts->image));
    im.format = PNG_FORMAT_RGBA;
    uint8_t *art = malloc(PNG_IMAGE_SIZE(im));
    assert_non_null(art);
    assert_true(png_image_finish_read(&im, NULL, art, 0, NULL));
    int32_t tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, tn_map_width(m) * tw, tn_map_height(m) * th, BG));
    tn_draw_view v = tn_draw_view_of(m, 0, 0, tw); /* one canvas pixel per map pixel */
    assert_int_equal(tn_draw_map(&cv, &v, m, imgs, TN_DRAW_MAP_AUTO), TN_OK);
    int32_t checked = 0;
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            /* the topmost visible non-empty layer decides (the bundled tiles are opaque) */
            uint32_t raw = 0;
            for (int32_t l = 0; l < tn_map_layer_count(m); l++)
                if (tn_map_layer_kind(m, l) == TN_LAYER_TILES &&
                    !(tn_map_layer_flags(m, l) & TN_LAYER_HIDDEN) && tn_map_get(m, l, x, y))
                    raw = tn_map_get(m, l, x, y);
            if (raw == 0 || tn_gid_flags(raw) != 0)
                continue;
            uint32_t local = tn_gid_id(raw) - ts->first_gid;
            int32_t sx = (int32_t)local % ts->columns * tw, sy = (int32_t)local / ts->columns * th;
            for (int32_t j = 0; j < th; j += 5)
                for (int32_t i = 0; i < tw; i += 5) {
                    const uint8_t *p = art + 4 * ((size_t)(sy + j) * im.width + (size_t)(sx + i));
                    tn_rgba got = px_at(&cv, x * tw + i, y * th + j);
                    assert_true(same(got, (tn_rgba){p[0], p[1], p[2], p[3]}));
                }
            checked++;
        }
    assert_true(checked > tn_map_width(m) * tn_map_height(m) / 2);
    png_image_free(&im);
    free(art);
    tn_canvas_free(&cv);
    tn_tileset_images_free(imgs);
    tn_map_destroy(m);
}

static void test_missing_and_bad_images(void **state)
{
    (void)state;
    char bad[256], small[256], ok[256];
    FILE *f = fopen(tmp_path(bad, sizeof bad, "garbage.png"), "wb");
    assert_non_null(f);
    fputs("this is not a PNG file at all", f);
    fclose(f);
    write_tileset(tmp_path(small, sizeof small, "small.png"), 1, 1, 0, 0, 3); /* one tile */
    write_tileset(tmp_path(ok, sizeof ok, "ok.png"), 2, 1, 0, 0, 0);
    const char *images[4] = {"/nonexistent/dir/tiles.png", bad, small, ok};
    const char *names[4] = {"missing", "garbage", "small", "good"};
    tn_map *m = tn_test_blank_map(4, 2, T, T);
    for (int32_t i = 0; i < 4; i++) {
        tn_tileset t = {0};
        t.first_gid = (uint32_t)(1 + 2 * i);
        t.tile_count = 2; /* "small" declares 2 tiles but its image holds 1 */
        t.columns = 2;
        t.tile_width = t.tile_height = T;
        snprintf(t.name, sizeof t.name, "%s", names[i]);
        snprintf(t.image, sizeof t.image, "%s", images[i]);
        assert_int_equal(tn_map_add_tileset(m, &t), TN_OK);
    }
    int32_t l;
    assert_int_equal(tn_map_add_layer(m, "g", TN_LAYER_TILES, &l), TN_OK);
    for (int32_t x = 0; x < 4; x++) {
        assert_int_equal(tn_map_set(m, l, x, 0, (uint32_t)(1 + 2 * x)), TN_OK);
        assert_int_equal(tn_map_set(m, l, x, 1, (uint32_t)(1 + 2 * x)), TN_OK);
    }
    /* the missing set's first tile blocks */
    assert_int_equal(tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}), TN_OK);
    tn_tileset_images *imgs = NULL;
    char msg[1024];
    assert_int_equal(tn_tileset_images_load(m, NULL, &imgs, msg, sizeof msg), TN_PARTIAL);
    assert_non_null(imgs);
    assert_int_equal(tn_tileset_images_loaded(imgs), 1);
    for (int32_t i = 0; i < 3; i++) {
        assert_non_null(strstr(msg, names[i]));
        assert_non_null(strstr(msg, images[i]));
    }
    assert_null(strstr(msg, "'good'"));
    /* a short message buffer is truncated, never overrun */
    char tiny[8];
    tn_tileset_images *imgs2 = NULL;
    assert_int_equal(tn_tileset_images_load(m, NULL, &imgs2, tiny, sizeof tiny), TN_PARTIAL);
    assert_true(strlen(tiny) < sizeof tiny);
    tn_tileset_images_free(imgs2);

    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 4 * 8, 2 * 8, MAGENTA));
    tn_draw_view v = tn_draw_view_of(m, 0, 0, 8);
    assert_int_equal(tn_draw_map(&cv, &v, m, imgs, TN_DRAW_MAP_AUTO), TN_OK);
    /* column 0: blocked palette; columns 1, 2: open palette; column 3: art (tile 0) */
    for (int32_t y = 0; y < 16; y++)
        for (int32_t x = 0; x < 32; x++) {
            tn_rgba got = px_at(&cv, x, y), want;
            if (x < 8)
                want = tn_draw_terrain_color(false, INFINITY);
            else if (x < 24)
                want = tn_draw_terrain_color(true, 1.0f);
            else
                want = tile_px(0, (x - 24) / 2, (y % 8) / 2);
            assert_true(same(got, want));
        }
    /* relative image paths resolve against base_dir when they do not exist as given */
    tn_map *m2 = tn_test_blank_map(1, 1, T, T);
    tn_tileset t = {0};
    t.first_gid = 1;
    t.tile_count = 2;
    t.columns = 2;
    t.tile_width = t.tile_height = T;
    snprintf(t.name, sizeof t.name, "rel");
    snprintf(t.image, sizeof t.image, "%s", strrchr(ok, '/') + 1);
    assert_int_equal(tn_map_add_tileset(m2, &t), TN_OK);
    tn_tileset_images *imgs3 = NULL;
    assert_int_equal(tn_tileset_images_load(m2, "/tmp", &imgs3, NULL, 0), TN_OK);
    assert_int_equal(tn_tileset_images_loaded(imgs3), 1);
    tn_tileset_images_free(imgs3);
    assert_int_equal(tn_tileset_images_load(m2, "/nonexistent", &imgs3, NULL, 0), TN_PARTIAL);
    assert_int_equal(tn_tileset_images_loaded(imgs3), 0);
    tn_tileset_images_free(imgs3);
    tn_map_destroy(m2);

    tn_canvas_free(&cv);
    tn_tileset_images_free(imgs);
    tn_map_destroy(m);
    unlink(bad);
    unlink(small);
    unlink(ok);
}

/* ---- paths, fields, LOS ------------------------------------------------------------------- */

static void test_path_cells(void **state)
{
    (void)state;
    const tn_rgba col = {250, 200, 20, 255};
    for (uint64_t seed = 1; seed <= 30; seed++) {
        tn_test_rng rng = {seed * 77};
        int32_t w = 12, h = 9, cell = 4 + (int32_t)tn_test_below(&rng, 8);
        /* a random 8-connected walk that never revisits a cell */
        uint8_t on[12 * 9] = {0};
        tn_cell cells[12 * 9];
        int32_t n = 0;
        tn_cell c = {(int32_t)tn_test_below(&rng, 12), (int32_t)tn_test_below(&rng, 9)};
        cells[n++] = c;
        on[c.y * w + c.x] = 1;
        for (int32_t k = 0; k < 40; k++) {
            tn_cell d = {c.x + (int32_t)tn_test_below(&rng, 3) - 1,
                         c.y + (int32_t)tn_test_below(&rng, 3) - 1};
            if (d.x < 0 || d.y < 0 || d.x >= w || d.y >= h || on[d.y * w + d.x])
                continue;
            c = d;
            cells[n++] = c;
            on[c.y * w + c.x] = 1;
        }
        tn_canvas cv;
        assert_true(tn_canvas_init(&cv, w * cell, h * cell, BG));
        tn_draw_view v = tn_draw_view_of(NULL, 0, 0, cell);
        assert_int_equal(tn_draw_path_cells(&cv, &v, cells, n, col), TN_OK);
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                /* a path cell is tinted all over (corner pixel); any other cell's centre pixel
                 * is never touched (lines join adjacent centres, discs stay inside a cell) */
                if (on[y * w + x])
                    assert_true(same(px_at(&cv, x * cell, y * cell), col));
                else
                    assert_true(same(px_at(&cv, x * cell + cell / 2, y * cell + cell / 2), BG));
            }
        tn_canvas_free(&cv);
    }
}

static void test_path_points(void **state)
{
    (void)state;
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 100, 60, BG));
    tn_draw_view v = {0, 0, 10, 20.0f, 20.0f}; /* half a canvas pixel per world unit */
    tn_vec2 pts[3] = {{20, 20}, {160, 20}, {160, 100}};
    const tn_rgba col = {10, 250, 10, 255};
    assert_int_equal(tn_draw_path_points(&cv, &v, pts, 3, col), TN_OK);
    for (int32_t x = 10; x <= 80; x++) /* the horizontal leg at canvas y = 10 */
        assert_true(same(px_at(&cv, x, 10), col));
    for (int32_t y = 10; y <= 50; y++) /* the vertical leg at canvas x = 80 */
        assert_true(same(px_at(&cv, 80, y), col));
    assert_true(same(px_at(&cv, 40, 40), BG));
    tn_vec2 nan_pt[1] = {{NAN, 0}};
    assert_int_equal(tn_draw_path_points(&cv, &v, nan_pt, 1, col), TN_E_INVALID_ARG);
    tn_canvas_free(&cv);
}

static tn_field *build_field(const tn_map *m, tn_cell goal, tn_los_mode los)
{
    tn_field_def d = tn_field_def_default();
    d.map = m;
    d.los = los;
    tn_field *f = NULL;
    assert_int_equal(tn_field_create(&d, &f), TN_OK);
    assert_int_equal(tn_field_build(f, &goal, 1), TN_OK);
    return f;
}

static void test_field_heat_and_los(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        tn_map *m = tn_test_random_map(15, 11, 0.3, seed);
        tn_cell goal = {-1, -1};
        for (int32_t i = 0; i < 15 * 11 && goal.x < 0; i++)
            if (tn_map_passable(m, i % 15, i / 15))
                goal = (tn_cell){i % 15, i / 15};
        tn_field *f = build_field(m, goal, TN_LOS_EXACT);
        /* the largest finite distance, found here */
        float dmax = 0.0f;
        for (int32_t y = 0; y < 11; y++)
            for (int32_t x = 0; x < 15; x++) {
                float d = tn_field_distance(f, x, y);
                if (d < INFINITY && d > dmax)
                    dmax = d;
            }
        const int32_t cell = 5;
        tn_canvas cv;
        assert_true(tn_canvas_init(&cv, 15 * cell, 11 * cell, BG));
        tn_draw_view v = tn_draw_view_of(m, 0, 0, cell);
        tn_draw_field_opts o = tn_draw_field_opts_default();
        o.arrows = false; /* cell < 6 draws none anyway */
        o.goals = false;
        o.unreachable = (tn_rgba){1, 2, 3, 255};
        assert_int_equal(tn_draw_field(&cv, &v, f, m, &o), TN_OK);
        for (int32_t y = 0; y < 11; y++)
            for (int32_t x = 0; x < 15; x++) {
                float d = tn_field_distance(f, x, y);
                tn_rgba got = px_at(&cv, x * cell + 2, y * cell + 2);
                if (!tn_map_passable(m, x, y))
                    assert_true(same(got, BG));
                else if (d == INFINITY)
                    assert_true(same(got, o.unreachable));
                else
                    assert_true(same(got, tn_heat_color(dmax > 0 ? d / dmax : 0)));
            }
        /* LOS: exactly the cells the field says see the goal, tinted over the heat map */
        tn_canvas cl;
        assert_true(tn_canvas_init(&cl, 15 * cell, 11 * cell, BG));
        const tn_rgba los = {255, 255, 255, 255};
        assert_int_equal(tn_draw_los(&cl, &v, f, los), TN_OK);
        int32_t lit = 0;
        for (int32_t y = 0; y < 11; y++)
            for (int32_t x = 0; x < 15; x++) {
                bool want = tn_field_los(f, x, y);
                lit += want;
                assert_true(same(px_at(&cl, x * cell + 1, y * cell + 3), want ? los : BG));
            }
        assert_int_equal(lit, tn_field_los_count(f));
        /* arrows need cells of 6 pixels or more: at 12, a reachable non-goal cell's arrow
         * crosses its centre pixel, which turns darker than the heat colour */
        tn_canvas ca;
        assert_true(tn_canvas_init(&ca, 15 * 12, 11 * 12, BG));
        tn_draw_view v12 = tn_draw_view_of(m, 0, 0, 12);
        o.arrows = true;
        o.goals = true;
        assert_int_equal(tn_draw_field(&ca, &v12, f, m, &o), TN_OK);
        for (int32_t y = 0; y < 11; y++)
            for (int32_t x = 0; x < 15; x++) {
                tn_vec2 vec = tn_field_vector(f, x, y);
                tn_rgba got = px_at(&ca, x * 12 + 6, y * 12 + 6);
                if (x == goal.x && y == goal.y) {
                    assert_true(same(got, (tn_rgba){255, 255, 255, 255}));
                } else if (vec.x != 0.0f || vec.y != 0.0f) {
                    /* the shaft passes through the centre: one of the 3x3 pixels there */
                    tn_rgba heat = tn_heat_color(tn_field_distance(f, x, y) / dmax);
                    bool hit = false;
                    for (int32_t j = 5; j <= 7; j++)
                        for (int32_t i = 5; i <= 7; i++)
                            hit |= blended(px_at(&ca, x * 12 + i, y * 12 + j), heat, o.arrow_color);
                    assert_true(hit);
                } else if (tn_field_distance(f, x, y) < INFINITY) {
                    assert_true(same(got, tn_heat_color(tn_field_distance(f, x, y) / dmax)));
                }
            }
        tn_canvas_free(&ca);
        tn_canvas_free(&cl);
        tn_canvas_free(&cv);
        tn_field_destroy(f);
        tn_map_destroy(m);
    }
}

static void test_cell_mask(void **state)
{
    (void)state;
    tn_test_rng rng = {99};
    uint8_t mask[7 * 5];
    for (int32_t i = 0; i < 35; i++)
        mask[i] = (uint8_t)(tn_test_below(&rng, 3) == 0);
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 7 * 3 + 2, 5 * 3 + 2, BG));
    tn_draw_view v = {2, 2, 3, 1.0f, 1.0f};
    const tn_rgba col = {9, 99, 199, 128};
    assert_int_equal(tn_draw_cell_mask(&cv, &v, mask, 7, 5, col), TN_OK);
    for (int32_t y = 0; y < 5 * 3; y++)
        for (int32_t x = 0; x < 7 * 3; x++) {
            tn_rgba got = px_at(&cv, 2 + x, 2 + y);
            if (mask[(y / 3) * 7 + x / 3])
                assert_true(blended(got, BG, col));
            else
                assert_true(same(got, BG));
        }
    assert_true(same(px_at(&cv, 0, 0), BG) && same(px_at(&cv, 1, 1), BG));
    tn_canvas_free(&cv);
}

static void test_heat_cells_and_dirmap(void **state)
{
    (void)state;
    tn_test_rng rng = {21};
    enum { CW = 9, CH = 7 };
    float vals[CW * CH];
    float vmax = 0.0f;
    for (int32_t i = 0; i < CW * CH; i++) {
        uint32_t k = tn_test_below(&rng, 10);
        vals[i] = k == 0 ? NAN : k == 1 ? -1.0f : k == 2 ? INFINITY : (float)tn_test_u01(&rng) * 50;
        if (k > 2 && vals[i] > vmax)
            vmax = vals[i];
    }
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, CW * 4, CH * 4, BG));
    tn_draw_view v = {0, 0, 4, 1.0f, 1.0f};
    for (int pass = 0; pass < 2; pass++) {
        float scale = pass == 0 ? 0.0f : 100.0f; /* the largest value, or a given maximum */
        memset(cv.px, 0, (size_t)cv.w * (size_t)cv.h * 4);
        assert_int_equal(tn_draw_heat_cells(&cv, &v, vals, CW, CH, scale, 255), TN_OK);
        for (int32_t i = 0; i < CW * CH; i++) {
            tn_rgba got = px_at(&cv, (i % CW) * 4 + 1, (i / CW) * 4 + 2);
            if (!isfinite(vals[i]) || vals[i] < 0.0f)
                assert_int_equal(got.a, 0);
            else
                assert_true(same(got, tn_heat_color(vals[i] / (pass == 0 ? vmax : 100.0f))));
        }
    }
    assert_int_equal(tn_draw_heat_cells(&cv, &v, NULL, CW, CH, 0, 255), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_heat_cells(&cv, &v, vals, 0, CH, 0, 255), TN_E_INVALID_ARG);
    tn_canvas_free(&cv);

    /* direction map: an arrow through each cell with a heading, pointing its way */
    tn_dirmap_def dd = tn_dirmap_def_default();
    dd.width = CW;
    dd.height = CH;
    tn_dirmap *dm = NULL;
    assert_int_equal(tn_dirmap_create(&dd, &dm), TN_OK);
    float deg[CW * CH];
    for (int32_t i = 0; i < CW * CH; i++) {
        deg[i] = tn_test_below(&rng, 4) == 0 ? NAN : (float)(45 * tn_test_below(&rng, 8));
        if (!isnan(deg[i]))
            assert_int_equal(tn_dirmap_set(dm, i % CW, i / CW, deg[i]), TN_OK);
    }
    const int32_t cell = 16;
    assert_true(tn_canvas_init(&cv, CW * cell, CH * cell, BG));
    tn_draw_view v16 = {0, 0, cell, 1.0f, 1.0f};
    const tn_rgba col = {255, 255, 0, 255};
    assert_int_equal(tn_draw_dirmap(&cv, &v16, dm, col), TN_OK);
    for (int32_t i = 0; i < CW * CH; i++) {
        int32_t x0 = (i % CW) * cell, y0 = (i / CW) * cell;
        /* the lit pixels of this cell, and their mean offset from the centre */
        double sx = 0, sy = 0;
        int32_t lit = 0;
        for (int32_t y = 0; y < cell; y++)
            for (int32_t x = 0; x < cell; x++)
                if (same(px_at(&cv, x0 + x, y0 + y), col)) {
                    lit++;
                    sx += x + 0.5 - cell / 2.0;
                    sy += y + 0.5 - cell / 2.0;
                }
        if (isnan(deg[i])) {
            assert_int_equal(lit, 0);
        } else {
            assert_true(lit >= cell / 2);
            /* the head makes the lit pixels lean towards the heading (y down, clockwise) */
            double a = (double)deg[i] * 3.14159265358979 / 180.0;
            assert_true(sx * cos(a) + sy * sin(a) > 0.0);
        }
    }
    tn_dirmap_destroy(dm);
    tn_canvas_free(&cv);
}

static void test_boxes(void **state)
{
    (void)state;
    tn_test_rng rng = {8};
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 120, 90, BG));
    tn_draw_view v = {3, 2, 10, 20.0f, 20.0f}; /* half a canvas pixel per world unit */
    const tn_rgba col = {200, 100, 50, 255};
    for (int32_t k = 0; k < 40; k++) {
        memset(cv.px, 0, (size_t)cv.w * (size_t)cv.h * 4);
        double x = tn_test_u01(&rng) * 200, y = tn_test_u01(&rng) * 150;
        tn_box b = {x, y, x + 8 + tn_test_u01(&rng) * 60, y + 8 + tn_test_u01(&rng) * 40};
        bool fill = k % 2 == 0;
        assert_int_equal(tn_draw_boxes(&cv, &v, &b, 1, col, fill), TN_OK);
        /* canvas extent of the box, computed here: pixel centres inside it */
        for (int32_t py = 0; py < cv.h; py++)
            for (int32_t px = 0; px < cv.w; px++) {
                double wx = (px + 0.5 - 3) * 2.0, wy = (py + 0.5 - 2) * 2.0; /* world of centre */
                bool in = wx >= b.x0 && wx < b.x1 && wy >= b.y0 && wy < b.y1;
                bool edge = in && (!(wx - 2 >= b.x0) || !(wx + 2 < b.x1) || !(wy - 2 >= b.y0) ||
                                   !(wy + 2 < b.y1));
                tn_rgba got = px_at(&cv, px, py);
                if (!in)
                    assert_int_equal(got.a, 0);
                else if (fill || edge)
                    assert_true(same(got, col));
                else
                    assert_int_equal(got.a, 0);
            }
    }
    tn_box bad[3] = {{(double)NAN, 0, 1, 1}, {5, 5, 1, 1}, {-1e300, -1e300, 1e300, 1e300}};
    memset(cv.px, 0, (size_t)cv.w * (size_t)cv.h * 4);
    assert_int_equal(tn_draw_boxes(&cv, &v, bad, 2, col, true), TN_OK);
    for (int32_t i = 0; i < cv.w * cv.h; i++)
        assert_int_equal(cv.px[4 * i + 3], 0);
    /* an enormous box covers the canvas (clamped, not overflowed) */
    assert_int_equal(tn_draw_boxes(&cv, &v, &bad[2], 1, col, true), TN_OK);
    assert_true(same(px_at(&cv, 0, 0), col) && same(px_at(&cv, cv.w - 1, cv.h - 1), col));
    assert_int_equal(tn_draw_boxes(&cv, &v, NULL, 1, col, true), TN_E_INVALID_ARG);
    tn_canvas_free(&cv);
}

/* Far-away and non-finite coordinates everywhere: nothing is drawn and nothing breaks. */
static void test_far_and_nonfinite(void **state)
{
    (void)state;
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 32, 32, BG));
    tn_draw_view v = {0, 0, 8, 1.0f, 1.0f};
    tn_cell far_cells[3] = {{INT32_MIN, 0}, {INT32_MAX, INT32_MAX}, {-3, 1000000}};
    assert_int_equal(tn_draw_path_cells(&cv, &v, far_cells, 3, (tn_rgba){255, 0, 0, 255}), TN_OK);
    tn_vec2 far_pts[2] = {{1e30f, 1e30f}, {-1e30f, 5}};
    assert_int_equal(tn_draw_path_points(&cv, &v, far_pts, 2, (tn_rgba){255, 0, 0, 255}), TN_OK);
    tn_draw_agent far_agent = {{3e38f, 3e38f}, 1e30f, 0.0f, {255, 0, 0, 255}};
    assert_int_equal(tn_draw_agents(&cv, &v, &far_agent, 1, (tn_rgba){255, 0, 0, 255}), TN_OK);
    tn_vec2 far_ring = {3e38f, -3e38f};
    assert_int_equal(tn_draw_range_rings(&cv, &v, &far_ring, 1, 5.0f, (tn_rgba){255, 0, 0, 255},
                                         TN_DRAW_RINGS_FILL),
                     TN_OK);
    tn_box far_box = {1e200, 1e200, 1e201, 1e201};
    assert_int_equal(tn_draw_grid_cells(&cv, &v, &far_box, 1, 1e-200, 0, 0,
                                        (tn_rgba){255, 0, 0, 255}, (tn_rgba){255, 0, 0, 255}),
                     TN_OK);
    assert_int_equal(tn_draw_text(&cv, INT32_MAX, INT32_MIN, "far", 64, (tn_rgba){255, 0, 0, 255}),
                     0);
    for (int32_t i = 0; i < 32 * 32; i++)
        assert_int_equal(cv.px[4 * i], 0);
    /* one grid cell of 1e300 units from -1e300 holds the far box's centre and the whole canvas:
     * all of it tinted */
    assert_int_equal(tn_draw_grid_cells(&cv, &v, &far_box, 1, 1e300, -1e300, 0,
                                        (tn_rgba){255, 0, 0, 255}, (tn_rgba){0, 0, 0, 0}),
                     TN_OK);
    assert_true(same(px_at(&cv, 5, 5), (tn_rgba){255, 0, 0, 255}));
    tn_draw_view bad = {INT32_MAX, 0, 8, 1.0f, 1.0f};
    assert_false(tn_draw_view_valid(&bad));
    tn_canvas_free(&cv);
}

/* ---- agents, broad phase, rings, text ---------------------------------------------------- */

static void test_agents(void **state)
{
    (void)state;
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 200, 200, BG));
    tn_draw_view v = {0, 0, 20, 10.0f, 10.0f}; /* 2 canvas pixels per world unit */
    tn_test_rng rng = {5};
    for (int32_t k = 0; k < 50; k++) {
        memset(cv.px, 0, (size_t)cv.w * (size_t)cv.h * 4);
        tn_draw_agent a;
        a.pos =
            (tn_vec2){(float)(20 + tn_test_below(&rng, 60)), (float)(20 + tn_test_below(&rng, 60))};
        a.radius = (float)(3 + tn_test_below(&rng, 5));
        a.heading = (float)(tn_test_u01(&rng) * 6.283);
        a.color = (tn_rgba){200, 30, 30, 255};
        const tn_rgba line = {255, 255, 255, 255};
        assert_int_equal(tn_draw_agents(&cv, &v, &a, 1, line), TN_OK);
        float cx = a.pos.x * 2, cy = a.pos.y * 2, r = a.radius * 2;
        for (int32_t y = 0; y < 200; y++)
            for (int32_t x = 0; x < 200; x++) {
                float dx = (float)x + 0.5f - cx, dy = (float)y + 0.5f - cy;
                float d = sqrtf(dx * dx + dy * dy);
                tn_rgba got = px_at(&cv, x, y);
                if (d > 1.6f * r + 2.0f)
                    assert_true(got.a == 0); /* nothing beyond the heading line */
                else if (d > r + 1.0f) {
                    /* outside the disc: only the heading line, in its direction */
                    if (got.a != 0) {
                        float along = dx * cosf(a.heading) + dy * sinf(a.heading);
                        assert_true(same(got, line) && along > 0.0f);
                    }
                }
            }
        /* the disc's body and a point of the heading line beyond it */
        float bx = cx - cosf(a.heading) * r * 0.5f, by = cy - sinf(a.heading) * r * 0.5f;
        assert_true(same(px_at(&cv, (int32_t)bx, (int32_t)by), a.color));
        float hx = cx + cosf(a.heading) * r * 1.3f, hy = cy + sinf(a.heading) * r * 1.3f;
        bool near_line = false;
        for (int32_t dy = -1; dy <= 1; dy++)
            for (int32_t dx = -1; dx <= 1; dx++)
                near_line |= same(px_at(&cv, (int32_t)hx + dx, (int32_t)hy + dy), line);
        assert_true(near_line);
    }
    tn_canvas_free(&cv);
}

static void test_grid_cells(void **state)
{
    (void)state;
    tn_test_rng rng = {11};
    const double cs = 16.0; /* world units per broad-phase cell; 1 canvas px per unit */
    tn_box boxes[60];
    int32_t count[8][8] = {{0}};
    for (int32_t i = 0; i < 60; i++) {
        double x = tn_test_u01(&rng) * 128.0, y = tn_test_u01(&rng) * 128.0,
               s = 1 + tn_test_u01(&rng) * 6;
        boxes[i] = (tn_box){x - s, y - s, x + s, y + s};
        int32_t gx = (int32_t)floor(x / cs), gy = (int32_t)floor(y / cs);
        if (gx < 8 && gy < 8)
            count[gy][gx]++;
    }
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 128, 128, BG));
    tn_draw_view v = {0, 0, 32, 32.0f, 32.0f};
    const tn_rgba occ = {255, 128, 0, 60};
    assert_int_equal(
        tn_draw_grid_cells(&cv, &v, boxes, 60, cs, 0.0, 0.0, occ, (tn_rgba){0, 0, 0, 0}), TN_OK);
    for (int32_t gy = 0; gy < 8; gy++)
        for (int32_t gx = 0; gx < 8; gx++) {
            tn_rgba got = px_at(&cv, gx * 16 + 8, gy * 16 + 8); /* off the grid lines */
            int32_t k = count[gy][gx] > 4 ? 4 : count[gy][gx];
            if (k == 0)
                assert_true(same(got, BG));
            else {
                tn_rgba want = occ;
                want.a = (uint8_t)(60.0 * (1.0 + (k - 1) / 3.0));
                assert_true(blended(got, BG, want));
            }
        }
    /* the same through a real broad phase */
    tn_bp_def d = tn_bp_def_default();
    d.cell_size = cs;
    d.world = (tn_box){0, 0, 128, 128};
    tn_bp *bp = NULL;
    assert_int_equal(tn_bp_create(&d, &bp), TN_OK);
    for (int32_t i = 0; i < 60; i++) {
        tn_bp_id id;
        assert_int_equal(tn_bp_insert(bp, boxes[i], (uint32_t)i, &id), TN_OK);
    }
    assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
    tn_canvas c2;
    assert_true(tn_canvas_init(&c2, 128, 128, BG));
    assert_int_equal(tn_draw_bp(&c2, &v, bp, d.world, cs, occ, (tn_rgba){0, 0, 0, 0}), TN_OK);
    assert_memory_equal(cv.px, c2.px, 128 * 128 * 4);
    assert_int_equal(tn_draw_grid_cells(&cv, &v, boxes, 60, 0.0, 0, 0, occ, occ), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_grid_cells(&cv, &v, boxes, 60, (double)NAN, 0, 0, occ, occ),
                     TN_E_INVALID_ARG);
    tn_bp_destroy(bp);
    tn_canvas_free(&c2);
    tn_canvas_free(&cv);
}

static void test_range_rings(void **state)
{
    (void)state;
    tn_test_rng rng = {3};
    for (int32_t k = 0; k < 10; k++) {
        tn_vec2 c[5];
        int32_t n = 1 + (int32_t)tn_test_below(&rng, 5);
        for (int32_t i = 0; i < n; i++)
            c[i] = (tn_vec2){(float)(tn_test_u01(&rng) * 160), (float)(tn_test_u01(&rng) * 120)};
        float r = (float)(10 + tn_test_below(&rng, 30));
        tn_canvas fill, line;
        assert_true(tn_canvas_init(&fill, 160, 120, BG));
        assert_true(tn_canvas_init(&line, 160, 120, BG));
        tn_draw_view v = {0, 0, 8, 8.0f, 8.0f};
        const tn_rgba col = {0, 200, 255, 100};
        assert_int_equal(tn_draw_range_rings(&fill, &v, c, n, r, col, TN_DRAW_RINGS_FILL), TN_OK);
        assert_int_equal(tn_draw_range_rings(&line, &v, c, n, r, col, TN_DRAW_RINGS_OUTLINE),
                         TN_OK);
        for (int32_t y = 0; y < 120; y++)
            for (int32_t x = 0; x < 160; x++) {
                /* distance of the pixel centre to the nearest disc centre, computed here */
                float best = INFINITY;
                for (int32_t i = 0; i < n; i++)
                    best = fminf(best, hypotf((float)x + 0.5f - c[i].x, (float)y + 0.5f - c[i].y));
                tn_rgba f = px_at(&fill, x, y), l = px_at(&line, x, y);
                if (best > r) { /* outside the union: untouched */
                    assert_true(same(f, BG) && same(l, BG));
                } else if (best < r - 1.5f) { /* well inside: filled once, no outline */
                    assert_true(blended(f, BG, col));
                    assert_true(same(l, BG));
                }
            }
        /* the outline exists: on each ring's rightmost point not covered by another disc */
        tn_canvas_free(&fill);
        tn_canvas_free(&line);
    }
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 10, 10, BG));
    tn_draw_view v = {0, 0, 8, 8.0f, 8.0f};
    tn_vec2 one = {5, 5};
    assert_int_equal(tn_draw_range_rings(&cv, &v, &one, 1, NAN, BG, TN_DRAW_RINGS_FILL),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_range_rings(&cv, &v, NULL, 1, 3, BG, TN_DRAW_RINGS_FILL),
                     TN_E_INVALID_ARG);
    tn_canvas_free(&cv);
}

static void test_text(void **state)
{
    (void)state;
    tn_canvas cv;
    assert_true(tn_canvas_init(&cv, 200, 80, BG));
    const tn_rgba col = {255, 255, 255, 255};
    int32_t w1 = 0, h1 = 0, w2 = 0, h2 = 0;
    tn_draw_text_size("tilenav 42", 2, &w1, &h1);
    tn_draw_text_size("tilenav 42\nx", 2, &w2, &h2);
    int32_t drawn = tn_draw_text(&cv, 10, 20, "tilenav 42", 2, col);
    assert_int_equal(drawn, w1);
    if (drawn == 0) { /* built without stb_easy_font: nothing drawn, said so by 0 */
        for (int32_t i = 0; i < 200 * 80; i++)
            assert_int_equal(cv.px[4 * i], 0);
        tn_canvas_free(&cv);
        skip();
    }
    assert_true(w1 > 20 && h1 > 0);
    assert_int_equal(w2, w1);
    assert_true(h2 > h1);
    int32_t lit = 0;
    for (int32_t y = 0; y < 80; y++)
        for (int32_t x = 0; x < 200; x++)
            if (px_at(&cv, x, y).r != 0) {
                lit++;
                assert_true(x >= 10 && x < 10 + w1 && y >= 20 && y < 20 + h1);
                assert_true(same(px_at(&cv, x, y), col));
            }
    assert_true(lit > 40);
    /* at size 2 every glyph quad is doubled: lit pixels come in 2x2 blocks aligned to (10, 20) */
    for (int32_t y = 20; y < 20 + h1; y += 2)
        for (int32_t x = 10; x < 10 + w1; x += 2) {
            uint8_t a = px_at(&cv, x, y).r;
            assert_int_equal(px_at(&cv, x + 1, y).r, a);
            assert_int_equal(px_at(&cv, x, y + 1).r, a);
            assert_int_equal(px_at(&cv, x + 1, y + 1).r, a);
        }
    assert_int_equal(tn_draw_text(&cv, 0, 0, "", 1, col), 0);
    assert_int_equal(tn_draw_text(&cv, 0, 0, NULL, 1, col), 0);
    assert_int_equal(tn_draw_text(&cv, 0, 0, "x", 0, col), 0);
    /* clipped at the canvas edge without harm */
    (void)tn_draw_text(&cv, 190, 75, "clipped text", 3, col);
    (void)tn_draw_text(&cv, -50, -5, "clipped text", 3, col);
    tn_canvas_free(&cv);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void test_bad_input(void **state)
{
    (void)state;
    tn_canvas cv;
    assert_false(tn_canvas_init(&cv, 0, 5, BG));
    assert_false(tn_canvas_init(&cv, 5, TN_CANVAS_MAX_SIDE + 1, BG)); /* a side too long */
    assert_false(tn_canvas_init(&cv, 16385, 16385, BG));              /* too many pixels */
    assert_true(tn_canvas_init(&cv, TN_CANVAS_MAX_SIDE, 3, BG));      /* a long thin map */
    tn_canvas_free(&cv);
    assert_false(tn_canvas_init(&cv, -1, -1, BG));
    assert_true(tn_canvas_init(&cv, 8, 8, BG));
    tn_map *m = tn_test_blank_map(2, 2, 8, 8);
    tn_draw_view ok = tn_draw_view_of(m, 0, 0, 4);
    tn_draw_view bad[4] = {ok, ok, ok, ok};
    bad[0].cell = 0;
    bad[1].tile_w = 0.0f;
    bad[2].tile_h = NAN;
    bad[3].tile_w = INFINITY;
    for (int32_t i = 0; i < 4; i++) {
        assert_false(tn_draw_view_valid(&bad[i]));
        assert_int_equal(tn_draw_map(&cv, &bad[i], m, NULL, TN_DRAW_MAP_AUTO), TN_E_INVALID_ARG);
        assert_int_equal(tn_draw_path_cells(&cv, &bad[i], NULL, 0, BG), TN_E_INVALID_ARG);
    }
    assert_int_equal(tn_draw_map(NULL, &ok, m, NULL, TN_DRAW_MAP_AUTO), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_map(&cv, NULL, m, NULL, TN_DRAW_MAP_AUTO), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_map(&cv, &ok, NULL, NULL, TN_DRAW_MAP_AUTO), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_path_cells(&cv, &ok, NULL, 3, BG), TN_E_INVALID_ARG);
    tn_cell c = {0, 0};
    assert_int_equal(tn_draw_path_cells(&cv, &ok, &c, -1, BG), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_path_cells(&cv, &ok, NULL, 0, BG), TN_OK);
    assert_int_equal(tn_draw_agents(&cv, &ok, NULL, 2, BG), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_crowd(&cv, &ok, NULL, BG, BG), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_field(&cv, &ok, NULL, m, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_los(&cv, &ok, NULL, BG), TN_E_INVALID_ARG);
    assert_int_equal(tn_draw_cell_mask(&cv, &ok, NULL, 2, 2, BG), TN_E_INVALID_ARG);
    uint8_t mask[4] = {1, 1, 1, 1};
    assert_int_equal(tn_draw_cell_mask(&cv, &ok, mask, 0, 2, BG), TN_E_INVALID_ARG);
    /* a field that was never built */
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    tn_field *f = NULL;
    assert_int_equal(tn_field_create(&fd, &f), TN_OK);
    assert_int_equal(tn_draw_field(&cv, &ok, f, m, NULL), TN_E_STATE);
    assert_int_equal(tn_draw_los(&cv, &ok, f, BG), TN_E_STATE);
    tn_field_destroy(f);
    /* agents with non-finite positions are skipped, not drawn at some clamped spot */
    tn_draw_agent a = {{NAN, 1}, 3, 0, {255, 255, 255, 255}};
    assert_int_equal(tn_draw_agents(&cv, &ok, &a, 1, BG), TN_OK);
    for (int32_t i = 0; i < 64; i++)
        assert_int_equal(cv.px[4 * i], 0);
    /* loading */
    tn_tileset_images *imgs = (tn_tileset_images *)&cv;
    assert_int_equal(tn_tileset_images_load(NULL, NULL, &imgs, NULL, 0), TN_E_INVALID_ARG);
    assert_null(imgs);
    assert_int_equal(tn_tileset_images_load(m, NULL, NULL, NULL, 0), TN_E_INVALID_ARG);
    assert_int_equal(tn_tileset_images_load(m, NULL, &imgs, NULL, 0), TN_OK); /* no tilesets */
    assert_int_equal(tn_tileset_images_loaded(imgs), 0);
    tn_tileset_images_free(imgs);
    tn_tileset_images_free(NULL);
    assert_int_equal(tn_tileset_images_loaded(NULL), 0);
    /* a tileset with a nonsense tile size is refused, with a message */
    tn_tileset t = {0};
    t.first_gid = 1;
    t.tile_count = 1;
    t.tile_width = 0;
    t.tile_height = 8;
    snprintf(t.name, sizeof t.name, "zero");
    char p[256];
    write_tileset(tmp_path(p, sizeof p, "zero.png"), 1, 1, 0, 0, 0);
    snprintf(t.image, sizeof t.image, "%s", p);
    assert_int_equal(tn_map_add_tileset(m, &t), TN_OK);
    char msg[256];
    assert_int_equal(tn_tileset_images_load(m, NULL, &imgs, msg, sizeof msg), TN_PARTIAL);
    assert_non_null(strstr(msg, "zero"));
    tn_tileset_images_free(imgs);
    unlink(p);
    /* the fit helper */
    assert_int_equal(tn_draw_fit_cell(40, 24, 1024, 32), 25);
    assert_int_equal(tn_draw_fit_cell(4000, 24, 1024, 32), 1);
    assert_int_equal(tn_draw_fit_cell(2, 2, 1024, 32), 32);
    assert_int_equal(tn_draw_fit_cell(0, 0, 1024, 32), 1);
    tn_map_destroy(m);
    tn_canvas_free(&cv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tilesets_flips),
        cmocka_unit_test(test_bundled_map_art),
        cmocka_unit_test(test_missing_and_bad_images),
        cmocka_unit_test(test_path_cells),
        cmocka_unit_test(test_path_points),
        cmocka_unit_test(test_field_heat_and_los),
        cmocka_unit_test(test_cell_mask),
        cmocka_unit_test(test_agents),
        cmocka_unit_test(test_grid_cells),
        cmocka_unit_test(test_range_rings),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_heat_cells_and_dirmap),
        cmocka_unit_test(test_boxes),
        cmocka_unit_test(test_far_and_nonfinite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
