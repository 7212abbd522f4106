/* Tile collision: hit tests against pixel enumeration, the inverse floor test, the box mover
 * against a brute-force sweep, the circle mover, overlap and push-out against brute force over
 * every cell, grid alignment, and bad input. */
#include "support.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- map builders ------------------------------------------------------------------------ */

/* A map with tile layer 0 "walls" (gid 1 blocks) and tile layer 1 "items" (no terrain). */
static tn_map *make_map(int32_t w, int32_t h, int32_t tw, int32_t th)
{
    tn_map *m = tn_test_blank_map(w, h, tw, th);
    int32_t a = -1, b = -1;
    assert_int_equal(tn_map_add_layer(m, "walls", TN_LAYER_TILES, &a), TN_OK);
    assert_int_equal(tn_map_add_layer(m, "items", TN_LAYER_TILES, &b), TN_OK);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_int_equal(tn_map_set_layer_flags(m, 1, 0), TN_OK);
    assert_int_equal(tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}), TN_OK);
    return m;
}

static tn_map *rows_map(const char *const *rows, int32_t h, int32_t tw, int32_t th)
{
    int32_t w = (int32_t)strlen(rows[0]);
    tn_map *m = make_map(w, h, tw, th);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (rows[y][x] == '#')
                assert_int_equal(tn_map_set(m, 0, x, y, 1), TN_OK);
    return m;
}

static tn_map *random_map(tn_test_rng *rng, int32_t w, int32_t h, int32_t tw, int32_t th, double p)
{
    tn_map *m = make_map(w, h, tw, th);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            if (tn_test_u01(rng) < p)
                assert_int_equal(tn_map_set(m, 0, x, y, 1), TN_OK);
            uint32_t g = tn_test_below(rng, 4);
            if (g && tn_test_below(rng, 4) == 0)
                g |= TN_GID_FLIP_H;
            assert_int_equal(tn_map_set(m, 1, x, y, g), TN_OK);
        }
    return m;
}

/* Blocked per the map's own rules, read cell by cell through the public accessor. */
static bool bf_blocked(const tn_map *m, long x, long y)
{
    if (x < 0 || y < 0 || x >= tn_map_width(m) || y >= tn_map_height(m))
        return true;
    return !tn_map_passable(m, (int32_t)x, (int32_t)y);
}

static long floor_div(long a, long b)
{
    long q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* Print a map on failure, to reproduce a random case. */
static void dump_map(const tn_map *m)
{
    fprintf(stderr, "map %dx%d tiles %dx%d\n", tn_map_width(m), tn_map_height(m),
            tn_map_tile_width(m), tn_map_tile_height(m));
    for (int32_t y = 0; y < tn_map_height(m); y++) {
        for (int32_t x = 0; x < tn_map_width(m); x++)
            fputc(tn_map_passable(m, x, y) ? '.' : '#', stderr);
        fputc('\n', stderr);
    }
}

/* ---- hit tests against pixel enumeration ---------------------------------------------------- */

/* The box is given in units of 1/s pixel (integers). Each unit square is a "pixel"; the
 * reference enumerates them all. Matches: layer < 0 tests passability (blocked matches). */
typedef struct bf_hit {
    bool some, every, any, all, center;
    long cx[4], cy[4]; /* the corner pixels' cells */
    long ccx, ccy;
} bf_hit;

static bool bf_match(const tn_map *m, int32_t layer, uint32_t gid, long cx, long cy)
{
    if (layer < 0)
        return bf_blocked(m, cx, cy);
    if (cx < 0 || cy < 0 || cx >= tn_map_width(m) || cy >= tn_map_height(m))
        return false;
    return tn_gid_id(tn_map_get(m, layer, (int32_t)cx, (int32_t)cy)) == tn_gid_id(gid);
}

static bf_hit bf_hit_test(const tn_map *m, int32_t layer, uint32_t gid, long x, long y, long w,
                          long h, long s)
{
    long tw = tn_map_tile_width(m) * s, th = tn_map_tile_height(m) * s;
    bf_hit r;
    memset(&r, 0, sizeof r);
    r.all = true;
    long minx = 0, maxx = 0, miny = 0, maxy = 0;
    bool first = true;
    for (long py = y; py < y + h; py++)
        for (long px = x; px < x + w; px++) {
            bool mt = bf_match(m, layer, gid, floor_div(px, tw), floor_div(py, th));
            r.any = r.any || mt;
            r.all = r.all && mt;
            if (first || px < minx)
                minx = px;
            if (first || px > maxx)
                maxx = px;
            if (first || py < miny)
                miny = py;
            if (first || py > maxy)
                maxy = py;
            first = false;
        }
    const long ptx[4] = {minx, maxx, minx, maxx}, pty[4] = {miny, miny, maxy, maxy};
    r.every = true;
    for (int i = 0; i < 4; i++) {
        r.cx[i] = floor_div(ptx[i], tw);
        r.cy[i] = floor_div(pty[i], th);
        bool mt = bf_match(m, layer, gid, r.cx[i], r.cy[i]);
        r.some = r.some || mt;
        r.every = r.every && mt;
    }
    /* centre (x + w/2, y + h/2) in units of 1/(2s) pixel */
    r.ccx = floor_div(2 * x + w, 2 * tw);
    r.ccy = floor_div(2 * y + h, 2 * th);
    r.center = bf_match(m, layer, gid, r.ccx, r.ccy);
    return r;
}

static void check_hit(const tn_map *m, int32_t layer, uint32_t gid, const tn_tile_box *box, long x,
                      long y, long w, long h, long s)
{
    bf_hit ref = bf_hit_test(m, layer, gid, x, y, w, h, s);
    tn_tile_hit hit;
    const tn_tile_points modes[5] = {TN_POINTS_CENTER, TN_POINTS_SOME, TN_POINTS_EVERY,
                                     TN_POINTS_ANY_CELL, TN_POINTS_ALL_CELLS};
    const bool want[5] = {ref.center, ref.some, ref.every, ref.any, ref.all};
    for (int k = 0; k < 5; k++) {
        tn_status st = layer < 0 ? tn_tile_hit_blocked(m, box, modes[k], &hit)
                                 : tn_tile_hit_test(m, layer, gid, box, modes[k], &hit);
        assert_int_equal(st, TN_OK);
        if (hit.hit != want[k]) {
            fprintf(stderr, "mode %d box %ld %ld %ld %ld /%ld layer %d gid %u: got %d\n", k, x, y,
                    w, h, s, layer, gid, hit.hit);
            fail();
        }
        long dx = 0, dy = 0;
        if (k == 0) {
            dx = ref.ccx;
            dy = ref.ccy;
            assert_int_equal(hit.mask, ref.center ? 1u : 0u);
        } else if (k <= 2) {
            /* deciding corner: first that matches (some) / fails (every), else the last */
            int dec = 3;
            uint32_t mask = 0;
            for (int i = 0; i < 4; i++) {
                bool mt = bf_match(m, layer, gid, ref.cx[i], ref.cy[i]);
                mask |= mt ? 1u << i : 0u;
            }
            for (int i = 0; i < 4; i++) {
                bool mt = (mask >> i) & 1u;
                if (mt != (k == 2)) {
                    dec = i;
                    break;
                }
            }
            assert_int_equal(hit.mask, mask);
            dx = ref.cx[dec];
            dy = ref.cy[dec];
        }
        if (k <= 2) {
            bool inside = dx >= 0 && dy >= 0 && dx < tn_map_width(m) && dy < tn_map_height(m);
            assert_int_equal(hit.index, inside ? (int32_t)(dy * tn_map_width(m) + dx) : -1);
            if (inside) {
                assert_int_equal(hit.cell.x, dx);
                assert_int_equal(hit.cell.y, dy);
                uint32_t raw = layer < 0 ? 0u : tn_map_get(m, layer, (int32_t)dx, (int32_t)dy);
                assert_int_equal(hit.gid, raw);
            } else {
                assert_int_equal(hit.gid, 0u);
            }
        } else if (hit.index >= 0 && layer >= 0) {
            /* the deciding cell of a cell mode holds what the result says */
            assert_int_equal(hit.gid, tn_map_get(m, layer, hit.cell.x, hit.cell.y));
            bool mt = bf_match(m, layer, gid, hit.cell.x, hit.cell.y);
            if (hit.hit == (k == 3))
                assert_true(mt == (k == 3));
        }
    }
    /* the book's claim: for boxes no larger than a tile, corners see every cell the box covers */
    if (w <= tn_map_tile_width(m) * s && h <= tn_map_tile_height(m) * s) {
        assert_int_equal(ref.some, ref.any);
        assert_int_equal(ref.every, ref.all);
    }
    if (layer < 0) {
        bool free = false;
        assert_int_equal(tn_tile_box_free(m, box, &free), TN_OK);
        assert_int_equal(free, !ref.any);
    } else {
        assert_int_equal(tn_tile_on_floor(m, layer, gid, box, &hit), TN_OK);
        assert_int_equal(hit.hit, ref.every);
    }
}

static void test_hit_random_pixels(void **state)
{
    (void)state;
    tn_test_rng rng = {0x5eed1};
    for (int mapi = 0; mapi < 12; mapi++) {
        int32_t tw = 3 + (int32_t)tn_test_below(&rng, 10),
                th = 3 + (int32_t)tn_test_below(&rng, 10);
        int32_t w = 1 + (int32_t)tn_test_below(&rng, 8), h = 1 + (int32_t)tn_test_below(&rng, 8);
        tn_map *m = random_map(&rng, w, h, tw, th, 0.35);
        for (int i = 0; i < 300; i++) {
            long s = tn_test_below(&rng, 3) == 0 ? 4 : 1; /* sometimes quarter pixels */
            long bx = (long)tn_test_below(&rng, (uint32_t)((w + 2) * tw * s)) - tw * s;
            long by = (long)tn_test_below(&rng, (uint32_t)((h + 2) * th * s)) - th * s;
            long bw = 1 + (long)tn_test_below(&rng, (uint32_t)(3 * tw * s));
            long bh = 1 + (long)tn_test_below(&rng, (uint32_t)(3 * th * s));
            float inv = 1.0f / (float)s;
            tn_tile_box box;
            if (tn_test_below(&rng, 2)) {
                box = tn_tile_box_make((float)bx * inv, (float)by * inv, (float)bw * inv,
                                       (float)bh * inv);
            } else {
                /* the same collision box expressed as a sprite plus a collision area */
                long ox = (long)tn_test_below(&rng, 40) - 10, oy = (long)tn_test_below(&rng, 40);
                box = (tn_tile_box){(float)(bx - ox) * inv,
                                    (float)(by - oy) * inv,
                                    64.0f,
                                    64.0f,
                                    (float)ox * inv,
                                    (float)oy * inv,
                                    (float)bw * inv,
                                    (float)bh * inv};
            }
            check_hit(m, -1, 0, &box, bx, by, bw, bh, s);
            uint32_t gid = tn_test_below(&rng, 4);
            check_hit(m, 1, gid, &box, bx, by, bw, bh, s);
        }
        tn_map_destroy(m);
    }
}

/* The book's examples on a hand-made map: 32 px tiles, a bomb (gid 5) layer, the -1 pixel,
 * the elf's collision area, flip flags, outside the map. */
static void test_hit_handmade(void **state)
{
    (void)state;
    const char *rows[] = {"......", "......", "......", "......"};
    tn_map *m = rows_map(rows, 4, 32, 32);
    assert_int_equal(tn_map_set(m, 1, 2, 1, 5), TN_OK);
    assert_int_equal(tn_map_set(m, 1, 3, 1, 5u | TN_GID_FLIP_H), TN_OK);
    tn_tile_hit h;
    /* an alien exactly on cell (1, 1): its right corners are at pixel 63 -> column 1, so the
     * bomb in column 2 is not hit (without the -1 pixel it would be) */
    tn_tile_box alien = tn_tile_box_make(32.0f, 32.0f, 32.0f, 32.0f);
    assert_int_equal(tn_tile_hit_test(m, 1, 5, &alien, TN_POINTS_SOME, &h), TN_OK);
    assert_false(h.hit);
    assert_int_equal(h.mask, 0u);
    assert_int_equal(h.index, 1 * 6 + 1);
    alien.x = 33.0f; /* one pixel further: the right corners enter the bomb cell */
    assert_int_equal(tn_tile_hit_test(m, 1, 5, &alien, TN_POINTS_SOME, &h), TN_OK);
    assert_true(h.hit);
    assert_int_equal(h.mask, (1u << 1) | (1u << 3));
    assert_int_equal(h.index, 1 * 6 + 2); /* the top-right corner decided */
    assert_int_equal(h.gid, 5u);
    assert_int_equal(tn_tile_hit_test(m, 1, 5, &alien, TN_POINTS_EVERY, &h), TN_OK);
    assert_false(h.hit);
    assert_int_equal(h.index, 1 * 6 + 1); /* the top-left corner is not on a bomb */
    assert_int_equal(tn_tile_hit_test(m, 1, 5, &alien, TN_POINTS_CENTER, &h), TN_OK);
    assert_false(h.hit); /* centre at 49 px: still column 1 */
    alien.x = 48.0f;     /* centre at 64: column 2 */
    assert_int_equal(tn_tile_hit_test(m, 1, 5, &alien, TN_POINTS_CENTER, &h), TN_OK);
    assert_true(h.hit);
    assert_int_equal(h.cell.x, 2);
    /* fully inside the bomb cell: every corner hits; flipped bombs are bombs too */
    alien.x = 96.0f;
    assert_int_equal(tn_tile_hit_test(m, 1, 5, &alien, TN_POINTS_EVERY, &h), TN_OK);
    assert_true(h.hit);
    assert_int_equal(h.gid, 5u | TN_GID_FLIP_H);
    assert_int_equal(h.mask, 15u);
    /* the elf: 64x64 sprite, 20x20 feet box 22 px from the left and 44 from the top. Its
     * corners are at x in {22, 41} and y in {44, 63} from the sprite's top-left. */
    tn_tile_box elf = {64.0f - 22.0f, 32.0f - 44.0f, 64.0f, 64.0f, 22.0f, 44.0f, 20.0f, 20.0f};
    assert_int_equal(tn_tile_on_floor(m, 1, 0, &elf, &h), TN_OK);
    assert_false(h.hit); /* the feet (64..83, 32..51) stand on cells 2 (bomb) */
    assert_int_equal(h.index, 1 * 6 + 2);
    assert_int_equal(h.gid, 5u);
    elf.x -= 21.0f; /* feet 43..62: column 1, which is floor */
    assert_int_equal(tn_tile_on_floor(m, 1, 0, &elf, &h), TN_OK);
    assert_true(h.hit);
    elf.x += 1.0f; /* feet 44..63 still column 1 (the -1 pixel applies to areas too) */
    assert_int_equal(tn_tile_on_floor(m, 1, 0, &elf, &h), TN_OK);
    assert_true(h.hit);
    elf.x += 0.5f; /* half a pixel more reaches column 2 */
    assert_int_equal(tn_tile_on_floor(m, 1, 0, &elf, &h), TN_OK);
    assert_false(h.hit);
    /* outside the map nothing matches, not even gid 0 (so the floor test fails at the edge) */
    tn_tile_box out = tn_tile_box_make(-8.0f, 0.0f, 16.0f, 16.0f);
    assert_int_equal(tn_tile_on_floor(m, 1, 0, &out, &h), TN_OK);
    assert_false(h.hit);
    assert_int_equal(h.index, -1);
    assert_int_equal(h.cell.x, -1);
    assert_int_equal(tn_tile_hit_blocked(m, &out, TN_POINTS_SOME, &h), TN_OK);
    assert_true(h.hit);
    out.x = 1e30f; /* far away: cells are clamped, no overflow */
    assert_int_equal(tn_tile_hit_blocked(m, &out, TN_POINTS_EVERY, &h), TN_OK);
    assert_true(h.hit);
    assert_int_equal(h.cell.x, 6);
    /* a big box: SOME misses a wall in its middle, ANY_CELL does not */
    assert_int_equal(tn_map_set(m, 0, 2, 2, 1), TN_OK);
    tn_tile_box big = tn_tile_box_make(40.0f, 40.0f, 100.0f, 60.0f);
    assert_int_equal(tn_tile_hit_blocked(m, &big, TN_POINTS_SOME, &h), TN_OK);
    assert_false(h.hit);
    assert_int_equal(tn_tile_hit_blocked(m, &big, TN_POINTS_ANY_CELL, &h), TN_OK);
    assert_true(h.hit);
    assert_int_equal(h.index, 2 * 6 + 2);
    bool free = true;
    assert_int_equal(tn_tile_box_free(m, &big, &free), TN_OK);
    assert_false(free);
    tn_map_destroy(m);
}

/* ---- box mover ------------------------------------------------------------------------------ */

static double map_w_px(const tn_map *m)
{
    return (double)tn_map_width(m) * tn_map_tile_width(m);
}

static double map_h_px(const tn_map *m)
{
    return (double)tn_map_height(m) * tn_map_tile_height(m);
}

/* Does the open rectangle (x, x+w) x (y, y+h) overlap a blocked cell or the outside? */
static bool bf_rect_blocked(const tn_map *m, double x, double y, double w, double h)
{
    if (x < 0.0 || y < 0.0 || x + w > map_w_px(m) || y + h > map_h_px(m))
        return true;
    double tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    for (int32_t cy = 0; cy < tn_map_height(m); cy++)
        for (int32_t cx = 0; cx < tn_map_width(m); cx++)
            if (!tn_map_passable(m, cx, cy) && x < (cx + 1) * tw && x + w > cx * tw &&
                y < (cy + 1) * th && y + h > cy * th)
                return true;
    return false;
}

/* How far can the box (x, y, w, h) move along x by d (y when !xaxis)? Brute force over all
 * blocked cells ahead of it, and the map edge. */
static double bf_axis_limit(const tn_map *m, bool xaxis, double x, double y, double w, double h,
                            double d)
{
    double tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    double best = d;
    double edge_lo = xaxis ? x : y, len = xaxis ? w : h;
    double mlen = xaxis ? map_w_px(m) : map_h_px(m);
    if (d > 0.0 && mlen - (edge_lo + len) < best)
        best = mlen - (edge_lo + len) > 0.0 ? mlen - (edge_lo + len) : 0.0;
    if (d < 0.0 && -edge_lo > best)
        best = -edge_lo < 0.0 ? -edge_lo : 0.0;
    for (int32_t cy = 0; cy < tn_map_height(m); cy++)
        for (int32_t cx = 0; cx < tn_map_width(m); cx++) {
            if (tn_map_passable(m, cx, cy))
                continue;
            double c0 = xaxis ? cx * tw : cy * th, c1 = c0 + (xaxis ? tw : th);
            double o0 = xaxis ? cy * th : cx * tw, o1 = o0 + (xaxis ? th : tw);
            double b0 = xaxis ? y : x, b1 = b0 + (xaxis ? h : w);
            if (!(b0 < o1 && b1 > o0))
                continue; /* not in the box's rows/columns */
            if (d > 0.0 && c0 >= edge_lo + len && c0 - (edge_lo + len) < best)
                best = c0 - (edge_lo + len);
            if (d < 0.0 && c1 <= edge_lo && c1 - edge_lo > best)
                best = c1 - edge_lo;
        }
    return best;
}

static void test_move_box_random(void **state)
{
    (void)state;
    tn_test_rng rng = {0xb0c5};
    int moves = 0, blocked = 0;
    for (int mapi = 0; mapi < 40; mapi++) {
        const int32_t sizes[7] = {8, 16, 32, 13, 24, 1, 100};
        int32_t tw = sizes[tn_test_below(&rng, 7)], th = sizes[tn_test_below(&rng, 7)];
        tn_map *m = random_map(&rng, 14, 11, tw, th, 0.08 + 0.3 * tn_test_u01(&rng));
        for (int i = 0; i < 100; i++) {
            double w = tw * (0.2 + 2.0 * tn_test_u01(&rng));
            double h = th * (0.2 + 2.0 * tn_test_u01(&rng));
            double x = 0, y = 0;
            int tries = 0;
            do {
                x = floor(tn_test_u01(&rng) * (map_w_px(m) - w) * 8.0) / 8.0;
                y = floor(tn_test_u01(&rng) * (map_h_px(m) - h) * 8.0) / 8.0;
            } while (bf_rect_blocked(m, x, y, (double)(float)w, (double)(float)h) && ++tries < 200);
            if (tries >= 200)
                continue;
            bool area = tn_test_below(&rng, 3) == 0;
            tn_tile_box box = tn_tile_box_make((float)x, (float)y, (float)w, (float)h);
            if (area) {
                box = (tn_tile_box){(float)x - 5.0f, (float)y - 7.5f, 64.0f, 64.0f, 5.0f, 7.5f,
                                    (float)w,        (float)h};
            }
            double ang = tn_test_u01(&rng) * 6.283185307179586;
            double speed = (0.1 + 4.9 * tn_test_u01(&rng)) * (tw > th ? tw : th);
            tn_vec2 d = {(float)(cos(ang) * speed), (float)(sin(ang) * speed)};
            if (tn_test_below(&rng, 8) == 0)
                d.y = 0.0f; /* axis-aligned moves too */
            double bw = (double)(float)w, bh = (double)(float)h;
            double ex0 = (double)box.x + (double)box.area_x,
                   ey0 = (double)box.y + (double)box.area_y;
            double want_x = bf_axis_limit(m, true, ex0, ey0, bw, bh, (double)d.x);
            tn_tile_box_move mv;
            tn_tile_box before = box;
            assert_int_equal(tn_tile_move_box(m, &box, d, &mv), TN_OK);
            moves++;
            double ex1 = (double)box.x + (double)box.area_x;
            /* x phase: as far as possible (within a float ulp), and the sweep is clear */
            assert_true(fabs((ex1 - ex0) - want_x) <= 1e-4 * (1.0 + fabs(ex0)));
            assert_true(fabs(ex1 - ex0) <= fabs((double)d.x));
            double sx = ex0 < ex1 ? ex0 : ex1;
            assert_false(bf_rect_blocked(m, sx, ey0, bw + fabs(ex1 - ex0), bh));
            assert_int_equal((mv.flags & TN_TILE_BLOCKED_X) != 0, want_x != (double)d.x);
            /* y phase from the new x */
            double want_y = bf_axis_limit(m, false, ex1, ey0, bw, bh, (double)d.y);
            double ey1 = (double)box.y + (double)box.area_y;
            assert_true(fabs((ey1 - ey0) - want_y) <= 1e-4 * (1.0 + fabs(ey0)));
            double sy = ey0 < ey1 ? ey0 : ey1;
            assert_false(bf_rect_blocked(m, ex1, sy, bw, bh + fabs(ey1 - ey0)));
            assert_int_equal((mv.flags & TN_TILE_BLOCKED_Y) != 0, want_y != (double)d.y);
            assert_int_equal(mv.flags & TN_TILE_STARTED_INSIDE, 0u);
            assert_true(mv.applied.x == box.x - before.x && mv.applied.y == box.y - before.y);
            blocked += (mv.flags & (TN_TILE_BLOCKED_X | TN_TILE_BLOCKED_Y)) != 0;
        }
        tn_map_destroy(m);
    }
    /* the random setup exercises both outcomes */
    assert_true(moves > 3000);
    assert_true(blocked > moves / 10);
    assert_true(blocked < moves - moves / 10);
}

static void test_move_box_handmade(void **state)
{
    (void)state;
    const char *rows[] = {"..........", ".....#....", "..........", "##########"};
    tn_map *m = rows_map(rows, 4, 32, 32);
    tn_tile_box_move mv;
    /* 5 tiles per step at a one-cell wall: stops flush, no tunnelling */
    tn_tile_box b = tn_tile_box_make(10.0f, 36.0f, 20.0f, 20.0f);
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){160.0f, 0.0f}, &mv), TN_OK);
    assert_true(b.x == 160.0f - 20.0f);
    assert_int_equal(mv.flags, TN_TILE_BLOCKED_X);
    /* touching the wall is not overlapping: it may slide along it, and back away */
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){0.0f, 10.0f}, &mv), TN_OK);
    assert_true(b.y == 46.0f && mv.flags == 0);
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){-15.0f, 0.0f}, &mv), TN_OK);
    assert_true(b.x == 125.0f && mv.flags == 0);
    /* diagonal into the floor wall: y stops, x goes on (sliding) */
    b = tn_tile_box_make(10.0f, 70.0f, 20.0f, 20.0f);
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){30.0f, 200.0f}, &mv), TN_OK);
    assert_true(b.x == 40.0f && b.y == 96.0f - 20.0f);
    assert_int_equal(mv.flags, TN_TILE_BLOCKED_Y);
    assert_true(mv.applied.x == 30.0f && mv.applied.y == 6.0f);
    /* the map's edges are walls */
    b = tn_tile_box_make(10.0f, 10.0f, 20.0f, 20.0f);
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){-1000.0f, -1000.0f}, &mv), TN_OK);
    assert_true(b.x == 0.0f && b.y == 0.0f);
    assert_int_equal(mv.flags, TN_TILE_BLOCKED_X | TN_TILE_BLOCKED_Y);
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){1000.0f, 0.0f}, &mv), TN_OK);
    assert_true(b.x == 320.0f - 20.0f);
    /* the elf's feet box: the sprite moves, the feet collide */
    tn_tile_box elf = {0.0f, 0.0f, 64.0f, 64.0f, 22.0f, 44.0f, 20.0f, 20.0f};
    assert_int_equal(tn_tile_move_box(m, &elf, (tn_vec2){0.0f, 500.0f}, &mv), TN_OK);
    assert_true(elf.y + 44.0f + 20.0f == 96.0f);
    /* a box that starts inside a wall is flagged and can leave */
    b = tn_tile_box_make(150.0f, 40.0f, 20.0f, 20.0f);
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){0.0f, -30.0f}, &mv), TN_OK);
    assert_true(mv.flags & TN_TILE_STARTED_INSIDE);
    assert_true(b.y == 10.0f);
    /* a zero move changes nothing */
    tn_tile_box c = b;
    assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){0.0f, 0.0f}, &mv), TN_OK);
    assert_memory_equal(&b, &c, sizeof b);
    /* a box bigger than the gap cannot pass */
    const char *gap[] = {"..#..", ".....", "..#.."};
    tn_map *g = rows_map(gap, 3, 16, 16);
    b = tn_tile_box_make(0.0f, 14.0f, 18.0f, 20.0f);
    assert_int_equal(tn_tile_move_box(g, &b, (tn_vec2){60.0f, 0.0f}, &mv), TN_OK);
    assert_true(b.x == 32.0f - 18.0f);
    b = tn_tile_box_make(0.0f, 16.0f, 16.0f, 16.0f); /* exactly the gap's height: passes */
    assert_int_equal(tn_tile_move_box(g, &b, (tn_vec2){60.0f, 0.0f}, &mv), TN_OK);
    assert_true(b.x == 60.0f);
    tn_map_destroy(g);
    tn_map_destroy(m);
}

/* ---- circles -------------------------------------------------------------------------------- */

/* Depth of a circle into blocked cells and the outside, brute force over every cell, in long
 * double. Negative when clear (minus the clearance). */
static long double bf_circle_depth(const tn_map *m, double cx, double cy, double r)
{
    long double X = (long double)cx, Y = (long double)cy, R = (long double)r;
    long double mw = (long double)map_w_px(m), mh = (long double)map_h_px(m);
    long double best = R - X;
    if (R - (mw - X) > best)
        best = R - (mw - X);
    if (R - Y > best)
        best = R - Y;
    if (R - (mh - Y) > best)
        best = R - (mh - Y);
    long double tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            if (tn_map_passable(m, x, y))
                continue;
            long double x0 = x * tw, x1 = x0 + tw, y0 = y * th, y1 = y0 + th;
            long double dx = X < x0 ? x0 - X : X > x1 ? X - x1 : 0.0L;
            long double dy = Y < y0 ? y0 - Y : Y > y1 ? Y - y1 : 0.0L;
            long double d;
            if (dx > 0 || dy > 0) {
                d = R - sqrtl(dx * dx + dy * dy);
            } else {
                long double in = fminl(fminl(X - x0, x1 - X), fminl(Y - y0, y1 - Y));
                d = R + in;
            }
            if (d > best)
                best = d;
        }
    return best;
}

/* Exact clearance test (touching allowed), long double. */
static bool bf_circle_clear(const tn_map *m, double cx, double cy, double r)
{
    long double X = (long double)cx, Y = (long double)cy, R = (long double)r;
    if (X - R < 0 || Y - R < 0 || X + R > (long double)map_w_px(m) ||
        Y + R > (long double)map_h_px(m))
        return false;
    long double tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            if (tn_map_passable(m, x, y))
                continue;
            long double x0 = x * tw, x1 = x0 + tw, y0 = y * th, y1 = y0 + th;
            long double dx = X < x0 ? x0 - X : X > x1 ? X - x1 : 0.0L;
            long double dy = Y < y0 ? y0 - Y : Y > y1 ? Y - y1 : 0.0L;
            if (dx * dx + dy * dy < R * R)
                return false;
        }
    return true;
}

/* Distance from point to segment. */
static double pt_seg(double px, double py, double ax, double ay, double bx, double by)
{
    double vx = bx - ax, vy = by - ay;
    double l2 = vx * vx + vy * vy;
    double t = l2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / l2 : 0.0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double dx = ax + t * vx - px, dy = ay + t * vy - py;
    return sqrt(dx * dx + dy * dy);
}

static double pt_rect(double px, double py, double x0, double y0, double x1, double y1)
{
    double dx = px < x0 ? x0 - px : px > x1 ? px - x1 : 0.0;
    double dy = py < y0 ? y0 - py : py > y1 ? py - y1 : 0.0;
    return sqrt(dx * dx + dy * dy);
}

static bool seg_hits_rect(double ax, double ay, double bx, double by, double x0, double y0,
                          double x1, double y1)
{
    /* Liang-Barsky clip */
    double t0 = 0, t1 = 1, d[2] = {bx - ax, by - ay}, p[2] = {ax, ay}, lo[2] = {x0, y0},
           hi[2] = {x1, y1};
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0) {
            if (p[k] < lo[k] || p[k] > hi[k])
                return false;
        } else {
            double ta = (lo[k] - p[k]) / d[k], tb = (hi[k] - p[k]) / d[k];
            if (ta > tb) {
                double s = ta;
                ta = tb;
                tb = s;
            }
            t0 = ta > t0 ? ta : t0;
            t1 = tb < t1 ? tb : t1;
        }
    }
    return t0 <= t1;
}

/* Smallest distance from the segment to a blocked cell or to the outside of the map; stops
 * early (with some distance below `enough`) once the answer is known to be below it. */
static double bf_seg_clearance_below(const tn_map *m, double ax, double ay, double bx, double by,
                                     double enough)
{
    double best = fmin(fmin(ax, bx), fmin(ay, by));
    best = fmin(best, fmin(map_w_px(m) - fmax(ax, bx), map_h_px(m) - fmax(ay, by)));
    double tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            if (tn_map_passable(m, x, y))
                continue;
            double x0 = x * tw, x1 = x0 + tw, y0 = y * th, y1 = y0 + th;
            if (seg_hits_rect(ax, ay, bx, by, x0, y0, x1, y1))
                return 0.0;
            double d = fmin(pt_rect(ax, ay, x0, y0, x1, y1), pt_rect(bx, by, x0, y0, x1, y1));
            d = fmin(d, fmin(pt_seg(x0, y0, ax, ay, bx, by), pt_seg(x1, y0, ax, ay, bx, by)));
            d = fmin(d, fmin(pt_seg(x0, y1, ax, ay, bx, by), pt_seg(x1, y1, ax, ay, bx, by)));
            best = fmin(best, d);
            if (best < enough)
                return best;
        }
    return best;
}

static double bf_seg_clearance(const tn_map *m, double ax, double ay, double bx, double by)
{
    return bf_seg_clearance_below(m, ax, ay, bx, by, -(double)INFINITY);
}

static void test_circle_overlap_random(void **state)
{
    (void)state;
    tn_test_rng rng = {0xc1c1e};
    for (int mapi = 0; mapi < 10; mapi++) {
        int32_t tw = 8 + (int32_t)tn_test_below(&rng, 30),
                th = 8 + (int32_t)tn_test_below(&rng, 30);
        tn_map *m = random_map(&rng, 9, 7, tw, th, 0.3);
        for (int i = 0; i < 500; i++) {
            double r = (0.05 + 1.5 * tn_test_u01(&rng)) * tw;
            tn_vec2 c = {(float)((tn_test_u01(&rng) * 1.2 - 0.1) * map_w_px(m)),
                         (float)((tn_test_u01(&rng) * 1.2 - 0.1) * map_h_px(m))};
            float got = tn_tile_circle_overlap(m, c, (float)r);
            long double want = bf_circle_depth(m, (double)c.x, (double)c.y, (double)(float)r);
            if (want <= 0)
                assert_true(got == 0.0f);
            else
                assert_true(fabsl((long double)got - want) <= 1e-4L * (1 + want));
        }
        tn_map_destroy(m);
    }
}

/* Nearest point of the blocked region (cells and outside) to q, brute force: the unit normal
 * pointing from it to q. False when two different walls are (nearly) equally near. */
static bool bf_contact_normal(const tn_map *m, double qx, double qy, double *nx, double *ny)
{
    double best = (double)INFINITY, second = (double)INFINITY, bx = 0, by = 0, sbx = 0, sby = 0;
    double tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    double cand[4][3] = {
        {qx, 1, 0}, {map_w_px(m) - qx, -1, 0}, {qy, 0, 1}, {map_h_px(m) - qy, 0, -1}};
    for (int i = 0; i < 4; i++) {
        double d = cand[i][0];
        if (d < best) {
            second = best;
            sbx = bx;
            sby = by;
            best = d;
            bx = cand[i][1];
            by = cand[i][2];
        } else if (d < second) {
            second = d;
            sbx = cand[i][1];
            sby = cand[i][2];
        }
    }
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            if (tn_map_passable(m, x, y))
                continue;
            double x0 = x * tw, x1 = x0 + tw, y0 = y * th, y1 = y0 + th;
            double px = qx < x0 ? x0 : qx > x1 ? x1 : qx, py = qy < y0 ? y0 : qy > y1 ? y1 : qy;
            double d = sqrt((qx - px) * (qx - px) + (qy - py) * (qy - py));
            double ux = d > 0 ? (qx - px) / d : 0, uy = d > 0 ? (qy - py) / d : 0;
            if (d < best) {
                second = best;
                sbx = bx;
                sby = by;
                best = d;
                bx = ux;
                by = uy;
            } else if (d < second) {
                second = d;
                sbx = ux;
                sby = uy;
            }
        }
    *nx = bx;
    *ny = by;
    /* a tie between walls with different normals (a concave corner) is ambiguous */
    return !(second - best < 1e-6 && fabs(sbx - bx) + fabs(sby - by) > 1e-9);
}

/* Largest t in [0, 1] such that the circle moving from a by t*d stays clear (bisection). */
static double bf_first_contact(const tn_map *m, double ax, double ay, double dx, double dy,
                               double r)
{
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 40; i++) {
        double mid = 0.5 * (lo + hi);
        if (bf_seg_clearance_below(m, ax, ay, ax + mid * dx, ay + mid * dy, r) >= r)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A random clear spot for a circle, or false. */
static bool random_clear_spot(tn_test_rng *rng, const tn_map *m, double r, tn_vec2 *out)
{
    for (int tries = 0; tries < 100; tries++) {
        tn_vec2 c = {(float)(tn_test_u01(rng) * map_w_px(m)),
                     (float)(tn_test_u01(rng) * map_h_px(m))};
        if (bf_circle_clear(m, (double)c.x, (double)c.y, (double)r)) {
            *out = c;
            return true;
        }
    }
    return false;
}

static void test_move_circle_random(void **state)
{
    (void)state;
    tn_test_rng rng = {0xc12c1e5};
    int moves = 0, free_runs = 0, stopped = 0, slides = 0, bad_pushed = 0, bad_blocked = 0;
    for (int mapi = 0; mapi < 45; mapi++) {
        const int32_t sizes[7] = {8, 16, 32, 13, 24, 3, 100};
        int32_t tw = sizes[tn_test_below(&rng, 7)], th = sizes[tn_test_below(&rng, 7)];
        tn_map *m = random_map(&rng, 12, 10, tw, th, 0.05 + 0.3 * tn_test_u01(&rng));
        double tmin = tw < th ? tw : th, tmax = tw > th ? tw : th;
        for (int i = 0; i < 60; i++) {
            float r = (float)(tmin * (0.05 + 0.9 * tn_test_u01(&rng)));
            if (tn_test_below(&rng, 10) == 0)
                r = (float)(tmin * (1.0 + tn_test_u01(&rng))); /* bigger than a tile */
            tn_vec2 c;
            if (tn_test_below(&rng, 8) == 0) {
                /* a bad start anywhere (in a wall, off the map): pushed out, then moved */
                c = (tn_vec2){(float)((tn_test_u01(&rng) * 1.2 - 0.1) * map_w_px(m)),
                              (float)((tn_test_u01(&rng) * 1.2 - 0.1) * map_h_px(m))};
                bool was_clear = bf_circle_clear(m, (double)c.x, (double)c.y, (double)r);
                tn_vec2 d = {(float)(tmax * (tn_test_u01(&rng) - 0.5)), 0.0f};
                tn_tile_circle_move mv;
                tn_status st = tn_tile_move_circle(m, c, r, d, &mv);
                if (st == TN_E_START_BLOCKED) {
                    assert_false(was_clear);
                    bad_blocked++;
                    continue;
                }
                assert_int_equal(st, TN_OK);
                assert_int_equal((mv.flags & TN_TILE_STARTED_INSIDE) != 0, !was_clear);
                assert_int_equal((mv.flags & TN_TILE_PUSHED_OUT) != 0, !was_clear);
                assert_true(
                    bf_circle_clear(m, (double)mv.position.x, (double)mv.position.y, (double)r));
                bad_pushed += !was_clear;
                c = mv.position;
            } else if (!random_clear_spot(&rng, m, (double)r, &c)) {
                continue;
            }
            /* several steps in a row, as an agent would, each checked */
            double ang = tn_test_u01(&rng) * 6.283185307179586;
            for (int step = 0; step < 5; step++) {
                double speed = (0.1 + 4.9 * tn_test_u01(&rng)) * tmax;
                ang += (tn_test_u01(&rng) - 0.5);
                tn_vec2 d = {(float)(cos(ang) * speed), (float)(sin(ang) * speed)};
                if (tn_test_below(&rng, 10) == 0)
                    d.x = 0.0f;
                tn_tile_circle_move mv;
                assert_int_equal(tn_tile_move_circle(m, c, r, d, &mv), TN_OK);
                moves++;
                /* never inside a wall, exactly (touching allowed) */
                if (!bf_circle_clear(m, (double)mv.position.x, (double)mv.position.y, (double)r)) {
                    fprintf(stderr,
                            "overlap: c %.9g %.9g r %.9g d %.9g %.9g -> %.9g %.9g depth %Lg\n",
                            (double)c.x, (double)c.y, (double)r, (double)d.x, (double)d.y,
                            (double)mv.position.x, (double)mv.position.y,
                            bf_circle_depth(m, (double)mv.position.x, (double)mv.position.y,
                                            (double)r));
                    fail();
                }
                assert_true(tn_tile_circle_overlap(m, mv.position, r) == 0.0f);
                assert_int_equal(mv.flags & (TN_TILE_STARTED_INSIDE | TN_TILE_PUSHED_OUT), 0u);
                double ax = (double)mv.applied.x, ay = (double)mv.applied.y;
                double dx = (double)d.x, dy = (double)d.y, cx = (double)c.x, cy = (double)c.y;
                double rr = (double)r;
                double len = sqrt(dx * dx + dy * dy);
                /* sliding only removes motion; it never goes backwards */
                assert_true(sqrt(ax * ax + ay * ay) <= len * (1 + 1e-6) + 1e-3);
                assert_true(ax * dx + ay * dy >= -1e-3 * len);
                double clear = bf_seg_clearance(m, cx, cy, cx + dx, cy + dy);
                double err = fabs(ax - dx) + fabs(ay - dy);
                if (clear >= rr + 1e-3) {
                    /* a clear path yields the full displacement */
                    assert_true(err <= 1e-5 * (1.0 + fabs(cx) + fabs(cy)));
                    assert_int_equal(mv.contacts, 0);
                    free_runs++;
                } else if (clear <= rr - 1e-3) {
                    /* a blocked path does not (no tunnelling) */
                    assert_true(mv.contacts > 0);
                    assert_true(err > 1e-4);
                    stopped++;
                }
                if (mv.contacts == 0)
                    assert_true(err <= 1e-5 * (1.0 + fabs(cx) + fabs(cy)));
                if (clear <= rr - 1e-3) {
                    /* collide and slide, predicted by brute force: the first contact along the
                     * straight path, then the rest of the motion minus its part into the wall;
                     * when that slide is clear of everything, the mover must end there */
                    double t = bf_first_contact(m, cx, cy, dx, dy, rr);
                    double qx = cx + t * dx, qy = cy + t * dy, nx, ny;
                    if (bf_contact_normal(m, qx, qy, &nx, &ny)) {
                        double sx = (1 - t) * dx, sy = (1 - t) * dy;
                        double vn = sx * nx + sy * ny;
                        if (vn < 0) {
                            sx -= vn * nx;
                            sy -= vn * ny;
                        }
                        double sl = sqrt(sx * sx + sy * sy);
                        if (sl > 1e-2 && sx * dx + sy * dy > 0 &&
                            bf_seg_clearance(m, qx, qy, qx + sx, qy + sy) >= rr - 1e-6) {
                            double fx = (double)mv.position.x, fy = (double)mv.position.y;
                            if (!(fabs(fx - (qx + sx)) + fabs(fy - (qy + sy)) < 2e-3))
                                dump_map(m);
                            if (!(fabs(fx - (qx + sx)) + fabs(fy - (qy + sy)) < 2e-3))
                                fprintf(stderr,
                                        "slide: c %.9g %.9g r %.9g d %.9g %.9g t %.9g n %g %g "
                                        "-> want %.9g %.9g got %.9g %.9g contacts %d n %g %g\n",
                                        cx, cy, rr, dx, dy, t, nx, ny, qx + sx, qy + sy, fx, fy,
                                        mv.contacts, (double)mv.normal.x, (double)mv.normal.y);
                            assert_true(fabs(fx - (qx + sx)) + fabs(fy - (qy + sy)) < 2e-3);
                            slides++;
                        }
                    }
                }
                c = mv.position;
            }
        }
        tn_map_destroy(m);
    }
    assert_true(moves > 10000);
    assert_true(free_runs > moves / 20);
    assert_true(stopped > moves / 4);
    print_message("circle moves %d: %d free, %d blocked, %d slides checked; bad starts: %d "
                  "pushed out, %d hopeless\n",
                  moves, free_runs, stopped, slides, bad_pushed, bad_blocked);
    assert_true(bad_pushed > 50);
    assert_true(slides > moves / 20);
}

static void test_move_circle_handmade(void **state)
{
    (void)state;
    const char *rows[] = {"..........", "..........", ".....#....",
                          "..........", "..........", "##########"};
    tn_map *m = rows_map(rows, 6, 32, 32);
    tn_tile_circle_move mv;
    /* 5 tiles per step at a one-cell wall: stops touching it */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){20.0f, 80.0f}, 8.0f, (tn_vec2){160.0f, 0.0f}, &mv), TN_OK);
    assert_true(fabsf(mv.position.x - (160.0f - 8.0f)) < 1e-3f && mv.position.y == 80.0f);
    assert_int_equal(mv.contacts, 1);
    assert_int_equal(mv.flags, TN_TILE_BLOCKED_X);
    assert_true(mv.normal.x == -1.0f && mv.normal.y == 0.0f);
    /* touching a wall and moving along it: free, the whole way */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){20.0f, 160.0f - 8.0f}, 8.0f, (tn_vec2){100.0f, 0.0f}, &mv),
        TN_OK);
    assert_true(mv.position.x == 120.0f && mv.position.y == 152.0f && mv.contacts == 0);
    assert_true(tn_tile_circle_overlap(m, (tn_vec2){20.0f, 152.0f}, 8.0f) == 0.0f);
    assert_true(tn_tile_circle_overlap(m, (tn_vec2){20.0f, 153.0f}, 8.0f) == 1.0f);
    /* diagonal into the floor: slides along it, keeping all of its x motion */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){20.0f, 130.0f}, 8.0f, (tn_vec2){60.0f, 60.0f}, &mv),
        TN_OK);
    assert_true(fabsf(mv.position.x - 80.0f) < 1e-3f);
    assert_true(fabsf(mv.position.y - 152.0f) < 1e-3f);
    assert_int_equal(mv.flags, TN_TILE_BLOCKED_Y);
    /* fast along the floor, across many cell seams: one contact, all of the x motion */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){20.0f, 130.0f}, 8.0f, (tn_vec2){250.0f, 60.0f}, &mv),
        TN_OK);
    assert_int_equal(mv.contacts, 1);
    assert_true(fabsf(mv.position.x - 270.0f) < 1e-3f && fabsf(mv.position.y - 152.0f) < 1e-3f);
    /* clipping the corner of the single wall cell (x 160..192, y 64..96): deflects around it
     * and goes on past it */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){120.0f, 100.0f}, 8.0f, (tn_vec2){120.0f, 0.0f}, &mv),
        TN_OK);
    assert_int_equal(mv.contacts, 1);
    assert_true(mv.position.y > 100.0f);                   /* deflected downwards */
    assert_true(mv.normal.x < 0.0f && mv.normal.y > 0.0f); /* by the corner */
    assert_true(tn_tile_circle_overlap(m, mv.position, 8.0f) == 0.0f);
    for (int i = 0; i < 3; i++) /* it keeps pushing right and gets round */
        assert_int_equal(tn_tile_move_circle(m, mv.position, 8.0f, (tn_vec2){40.0f, 0.0f}, &mv),
                         TN_OK);
    assert_true(mv.position.x > 192.0f + 8.0f);
    assert_int_equal(mv.contacts, 0);
    /* a concave corner (the floor and the map's left edge): stops in it, touching both */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){50.0f, 100.0f}, 8.0f, (tn_vec2){-300.0f, 300.0f}, &mv),
        TN_OK);
    assert_true(fabsf(mv.position.x - 8.0f) < 1e-3f && fabsf(mv.position.y - 152.0f) < 1e-3f);
    assert_int_equal(mv.flags, TN_TILE_BLOCKED_X | TN_TILE_BLOCKED_Y);
    /* a circle starting inside the wall is pushed out first */
    assert_int_equal(
        tn_tile_move_circle(m, (tn_vec2){170.0f, 70.0f}, 8.0f, (tn_vec2){0.0f, 0.0f}, &mv), TN_OK);
    assert_true(mv.flags & TN_TILE_STARTED_INSIDE);
    assert_true(mv.flags & TN_TILE_PUSHED_OUT);
    assert_true(mv.position.x == 170.0f && fabsf(mv.position.y - 56.0f) < 1e-3f); /* top face */
    /* a circle wider than a one-cell corridor cannot enter it */
    const char *corr[] = {"......", "##.###", "##.###", "......"};
    tn_map *c = rows_map(corr, 4, 16, 16);
    assert_int_equal(
        tn_tile_move_circle(c, (tn_vec2){40.0f, 9.0f}, 8.5f, (tn_vec2){0.0f, 50.0f}, &mv), TN_OK);
    /* it sinks into the mouth until it rests on both corners: y = 16 - sqrt(8.5^2 - 8^2) */
    assert_true(fabs((double)mv.position.y - (16.0 - sqrt(8.5 * 8.5 - 64.0))) < 1e-3);
    assert_true(mv.position.x == 40.0f);
    assert_true(tn_tile_circle_overlap(c, mv.position, 8.5f) == 0.0f);
    assert_int_equal(
        tn_tile_move_circle(c, (tn_vec2){40.0f, 8.0f}, 8.0f, (tn_vec2){0.0f, 48.0f}, &mv), TN_OK);
    assert_true(mv.position.y == 56.0f); /* exactly the corridor's width: passes */
    /* a circle too big for the map cannot be placed anywhere */
    assert_int_equal(
        tn_tile_move_circle(c, (tn_vec2){40.0f, 8.0f}, 40.0f, (tn_vec2){0.0f, 0.0f}, &mv),
        TN_E_START_BLOCKED);
    tn_map_destroy(c);
    tn_map_destroy(m);
}

/* Push-out against a grid search of free positions. */
static void test_push_out_random(void **state)
{
    (void)state;
    tn_test_rng rng = {0x9005};
    int found = 0;
    for (int mapi = 0; mapi < 20; mapi++) {
        int32_t tw = 6 + (int32_t)tn_test_below(&rng, 6), th = 6 + (int32_t)tn_test_below(&rng, 6);
        tn_map *m = random_map(&rng, 7, 6, tw, th, 0.35);
        for (int i = 0; i < 8; i++) {
            float r = (float)(tw * (0.2 + 0.8 * tn_test_u01(&rng)));
            tn_vec2 c = {(float)(tn_test_u01(&rng) * map_w_px(m)),
                         (float)(tn_test_u01(&rng) * map_h_px(m))};
            double md = 1.5 * tw;
            tn_vec2 p;
            tn_status st = tn_tile_circle_push_out(m, c, r, (float)md, &p);
            /* grid search: the nearest free sample */
            const double step = 0.125;
            double best = (double)INFINITY;
            for (double gy = -md; gy <= md; gy += step)
                for (double gx = -md; gx <= md; gx += step) {
                    double d = sqrt(gx * gx + gy * gy);
                    if (d > md || d >= best)
                        continue;
                    if (bf_circle_clear(m, (double)c.x + gx, (double)c.y + gy, (double)r))
                        best = d;
                }
            if (st == TN_E_NOT_FOUND) {
                assert_true(isinf(best) || best >= md - step);
                continue;
            }
            assert_int_equal(st, TN_OK);
            assert_true(bf_circle_clear(m, (double)p.x, (double)p.y, (double)r));
            double ddx = (double)p.x - (double)c.x, ddy = (double)p.y - (double)c.y;
            double dist = sqrt(ddx * ddx + ddy * ddy);
            if (dist > best + 1e-3) {
                dump_map(m);
                fprintf(stderr, "push-out c %.9g %.9g r %.9g: got %.9g %.9g (%.6g), grid %.6g\n",
                        (double)c.x, (double)c.y, (double)r, (double)p.x, (double)p.y, dist, best);
            }
            /* no free sample is nearer (the exact answer may be nearer than every sample, or
             * the only one, when the free spot is a sliver between walls the grid misses) */
            assert_true(dist <= md + 1e-3);
            if (!isinf(best))
                assert_true(dist <= best + 1e-3);
            if (bf_circle_clear(m, (double)c.x, (double)c.y, (double)r))
                assert_true(p.x == c.x && p.y == c.y);
            else
                found++;
        }
        tn_map_destroy(m);
    }
    assert_true(found > 20);
}

static void test_push_out_handmade(void **state)
{
    (void)state;
    const char *rows[] = {"......", ".##...", ".##...", "......"};
    tn_map *m = rows_map(rows, 4, 10, 10);
    tn_vec2 p;
    /* inside the 2x2 block near its left face: out to the left */
    assert_int_equal(tn_tile_circle_push_out(m, (tn_vec2){12.0f, 20.0f}, 3.0f, 20.0f, &p), TN_OK);
    assert_true(fabsf(p.x - 7.0f) < 1e-4f && p.y == 20.0f);
    /* overlapping the block's convex corner from outside: straight away from the corner */
    assert_int_equal(tn_tile_circle_push_out(m, (tn_vec2){31.0f, 31.0f}, 3.0f, 20.0f, &p), TN_OK);
    float e = 3.0f / sqrtf(2.0f);
    assert_true(fabsf(p.x - (30.0f + e)) < 1e-4f && fabsf(p.y - (30.0f + e)) < 1e-4f);
    /* too far from anything free */
    assert_int_equal(tn_tile_circle_push_out(m, (tn_vec2){20.0f, 20.0f}, 3.0f, 1.0f, &p),
                     TN_E_NOT_FOUND);
    /* the map's edge counts as a wall */
    assert_int_equal(tn_tile_circle_push_out(m, (tn_vec2){1.0f, 35.0f}, 3.0f, 20.0f, &p), TN_OK);
    assert_true(p.x == 3.0f && p.y == 35.0f);
    tn_map_destroy(m);
}

/* ---- alignment ------------------------------------------------------------------------------ */

static void test_alignment(void **state)
{
    (void)state;
    tn_map *m = make_map(8, 8, 16, 24);
    tn_test_rng rng = {0xa119};
    for (int i = 0; i < 5000; i++) {
        /* positions on a quarter-pixel grid, some exactly aligned */
        long qx = (long)tn_test_below(&rng, 4 * 16 * 10) - 4 * 16;
        long qy = (long)tn_test_below(&rng, 4 * 24 * 10) - 4 * 24;
        if (tn_test_below(&rng, 3) == 0)
            qx = qx / 64 * 64;
        if (tn_test_below(&rng, 3) == 0)
            qy = qy / 96 * 96;
        tn_tile_box b = tn_tile_box_make((float)qx / 4.0f, (float)qy / 4.0f, 16.0f, 24.0f);
        tn_cell cell;
        bool al = tn_tile_box_aligned(m, &b, 0.0f, &cell);
        assert_int_equal(al, qx % 64 == 0 && qy % 96 == 0);
        if (al) {
            assert_int_equal(cell.x, floor_div(qx, 64));
            assert_int_equal(cell.y, floor_div(qy, 96));
        }
        /* tolerance: within 0.5 px of a grid corner */
        long rx = ((qx % 64) + 64) % 64, ry = ((qy % 96) + 96) % 96;
        bool near = (rx <= 2 || rx >= 62) && (ry <= 2 || ry >= 94);
        assert_int_equal(tn_tile_box_aligned(m, &b, 0.5f, NULL), near);
        /* centred: the box's centre (q + 32, q + 48 in quarter pixels) on a cell centre */
        bool ce = tn_tile_box_centered(m, &b, 0.0f, &cell);
        assert_int_equal(ce, al);
        tn_vec2 pt = {(float)qx / 4.0f, (float)qy / 4.0f};
        bool pc = tn_tile_point_centered(m, pt, 0.0f, &cell);
        assert_int_equal(pc, ((qx - 32) % 64 == 0) && ((qy - 48) % 96 == 0));
        assert_int_equal(cell.x, floor_div(qx, 64));
        assert_int_equal(cell.y, floor_div(qy, 96));
    }
    /* the elf's feet box: alignment is about the collision box */
    tn_tile_box elf = {-22.0f + 32.0f, -44.0f + 48.0f, 64.0f, 64.0f, 22.0f, 44.0f, 16.0f, 24.0f};
    tn_cell cell;
    assert_true(tn_tile_box_aligned(m, &elf, 0.0f, &cell));
    assert_true(cell.x == 2 && cell.y == 2);
    assert_true(tn_tile_box_centered(m, &elf, 0.0f, &cell));
    tn_map_destroy(m);
}

/* ---- threads and determinism ---------------------------------------------------------------- */

#define TH_MOVES 3000

typedef struct th_job {
    const tn_map *map;
    tn_tile_circle_move out[TH_MOVES];
    tn_tile_hit hits[TH_MOVES];
} th_job;

/* A fixed sequence of moves and hit tests on a shared const map. */
static void *th_run(void *arg)
{
    th_job *j = arg;
    tn_test_rng rng = {0x7ead5};
    tn_vec2 c = {40.0f, 40.0f};
    for (int i = 0; i < TH_MOVES; i++) {
        double ang = tn_test_u01(&rng) * 6.283185307179586;
        double sp = 1.0 + 60.0 * tn_test_u01(&rng);
        tn_vec2 d = {(float)(cos(ang) * sp), (float)(sin(ang) * sp)};
        if (tn_tile_move_circle(j->map, c, 7.0f, d, &j->out[i]) != TN_OK)
            return NULL;
        c = j->out[i].position;
        tn_tile_box b = tn_tile_box_make(c.x - 7.0f, c.y - 7.0f, 14.0f, 14.0f);
        if (tn_tile_hit_blocked(j->map, &b, TN_POINTS_SOME, &j->hits[i]) != TN_OK)
            return NULL;
    }
    return j;
}

/* Two threads on one const map give bit-identical results to a single thread. */
static void test_threads_deterministic(void **state)
{
    (void)state;
    tn_test_rng rng = {0x7ead};
    tn_map *m = random_map(&rng, 30, 20, 16, 16, 0.2);
    static th_job ref, a, b;
    ref.map = a.map = b.map = m;
    assert_ptr_equal(th_run(&ref), &ref);
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, th_run, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, th_run, &b), 0);
    void *ra = NULL, *rb = NULL;
    assert_int_equal(pthread_join(ta, &ra), 0);
    assert_int_equal(pthread_join(tb, &rb), 0);
    assert_ptr_equal(ra, &a);
    assert_ptr_equal(rb, &b);
    for (int i = 0; i < TH_MOVES; i++) {
        assert_memory_equal(&a.out[i], &ref.out[i], sizeof ref.out[i]);
        assert_memory_equal(&b.out[i], &ref.out[i], sizeof ref.out[i]);
        assert_int_equal(a.hits[i].hit, ref.hits[i].hit);
        assert_int_equal(a.hits[i].index, ref.hits[i].index);
        assert_int_equal(b.hits[i].mask, ref.hits[i].mask);
    }
    tn_map_destroy(m);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void test_invalid(void **state)
{
    (void)state;
    tn_map *m = make_map(4, 4, 16, 16);
    int32_t objs = -1;
    assert_int_equal(tn_map_add_layer(m, "objs", TN_LAYER_OBJECTS, &objs), TN_OK);
    tn_tile_box ok = tn_tile_box_make(1.0f, 1.0f, 8.0f, 8.0f);
    tn_tile_hit h;
    h.index = 12345;
    const float nan = NAN, inf = INFINITY;
    tn_tile_box bad[10];
    for (int i = 0; i < 10; i++)
        bad[i] = ok;
    bad[0].x = nan;
    bad[1].y = inf;
    bad[2].w = 0.0f; /* zero-size boxes are rejected */
    bad[3].h = -1.0f;
    bad[4].area_w = 5.0f; /* area with a zero height */
    bad[5].area_w = -5.0f;
    bad[5].area_h = 5.0f;
    bad[6].area_x = nan;
    bad[7].w = nan;
    bad[8].area_h = inf;
    bad[8].area_w = 1.0f;
    bad[9].h = 0.0f;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(tn_tile_hit_test(m, 1, 0, &bad[i], TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
        assert_int_equal(tn_tile_hit_blocked(m, &bad[i], TN_POINTS_EVERY, &h), TN_E_INVALID_ARG);
        bool f = false;
        assert_int_equal(tn_tile_box_free(m, &bad[i], &f), TN_E_INVALID_ARG);
        tn_tile_box b = bad[i];
        assert_int_equal(tn_tile_move_box(m, &b, (tn_vec2){1.0f, 1.0f}, NULL), TN_E_INVALID_ARG);
        assert_false(tn_tile_box_aligned(m, &bad[i], 0.0f, NULL));
        assert_false(tn_tile_box_centered(m, &bad[i], 0.0f, NULL));
    }
    assert_int_equal(h.index, 12345); /* outputs untouched */
    assert_int_equal(tn_tile_hit_test(NULL, 1, 0, &ok, TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, 1, 0, NULL, TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, 1, 0, &ok, TN_POINTS_SOME, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, 9, 0, &ok, TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, -1, 0, &ok, TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, objs, 0, &ok, TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, 1, 0, &ok, (tn_tile_points)7, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_test(m, 1, 0, &ok, (tn_tile_points)-1, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_on_floor(m, objs, 0, &ok, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_hit_blocked(NULL, &ok, TN_POINTS_SOME, &h), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_box_free(m, &ok, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_box(m, NULL, (tn_vec2){1.0f, 1.0f}, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_box(m, &ok, (tn_vec2){nan, 1.0f}, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_box(m, &ok, (tn_vec2){1.0f, -inf}, NULL), TN_E_INVALID_ARG);
    assert_true(ok.x == 1.0f && ok.y == 1.0f);
    /* circles */
    tn_tile_circle_move mv;
    mv.contacts = 77;
    tn_vec2 c = {20.0f, 20.0f}, z = {0.0f, 0.0f};
    assert_int_equal(tn_tile_move_circle(NULL, c, 4.0f, z, &mv), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, c, 4.0f, z, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, c, 0.0f, z, &mv), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, c, -1.0f, z, &mv), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, c, nan, z, &mv), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, c, inf, z, &mv), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, (tn_vec2){nan, 0.0f}, 4.0f, z, &mv), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_move_circle(m, c, 4.0f, (tn_vec2){0.0f, inf}, &mv), TN_E_INVALID_ARG);
    assert_int_equal(mv.contacts, 77);
    assert_true(tn_tile_circle_overlap(NULL, c, 4.0f) == -1.0f);
    assert_true(tn_tile_circle_overlap(m, c, 0.0f) == -1.0f);
    assert_true(tn_tile_circle_overlap(m, (tn_vec2){inf, 0.0f}, 1.0f) == -1.0f);
    assert_true(tn_tile_circle_overlap(m, c, nan) == -1.0f);
    tn_vec2 p = {5.0f, 5.0f};
    assert_int_equal(tn_tile_circle_push_out(m, c, 4.0f, -1.0f, &p), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_circle_push_out(m, c, 4.0f, nan, &p), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_circle_push_out(m, c, 0.0f, 1.0f, &p), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_circle_push_out(m, c, 4.0f, 1.0f, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_tile_circle_push_out(NULL, c, 4.0f, 1.0f, &p), TN_E_INVALID_ARG);
    assert_true(p.x == 5.0f && p.y == 5.0f);
    /* a huge reach over a wall-filled map: too many edges to examine */
    tn_map *big = make_map(64, 64, 4, 4);
    for (int32_t y = 0; y < 64; y++)
        for (int32_t x = 0; x < 64; x++)
            if ((x + y) % 2)
                assert_int_equal(tn_map_set(big, 0, x, y, 1), TN_OK);
    assert_int_equal(tn_tile_circle_push_out(big, (tn_vec2){2.0f, 6.0f}, 1.5f, 200.0f, &p),
                     TN_E_TOO_LARGE);
    tn_map_destroy(big);
    /* alignment */
    assert_false(tn_tile_box_aligned(NULL, &ok, 0.0f, NULL));
    assert_false(tn_tile_box_aligned(m, &ok, -1.0f, NULL));
    assert_false(tn_tile_point_centered(m, (tn_vec2){nan, 0.0f}, 0.0f, NULL));
    assert_false(tn_tile_point_centered(m, c, nan, NULL));
    /* huge but finite values do not overflow anything */
    tn_tile_box huge = tn_tile_box_make(-3e38f, 3e38f, 3e38f, 3e38f);
    assert_int_equal(tn_tile_hit_blocked(m, &huge, TN_POINTS_CENTER, &h), TN_OK);
    assert_true(h.hit);
    assert_int_equal(tn_tile_move_box(m, &huge, (tn_vec2){3e38f, -3e38f}, NULL), TN_OK);
    assert_int_equal(tn_tile_move_circle(m, c, 4.0f, (tn_vec2){3e38f, -3e38f}, &mv), TN_OK);
    assert_true(bf_circle_clear(m, (double)mv.position.x, (double)mv.position.y, 4.0));
    assert_int_equal(tn_tile_move_circle(m, (tn_vec2){3e38f, 0.0f}, 4.0f, z, &mv),
                     TN_E_START_BLOCKED);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_handmade),          cmocka_unit_test(test_hit_random_pixels),
        cmocka_unit_test(test_move_box_handmade),     cmocka_unit_test(test_move_box_random),
        cmocka_unit_test(test_circle_overlap_random), cmocka_unit_test(test_move_circle_handmade),
        cmocka_unit_test(test_move_circle_random),    cmocka_unit_test(test_push_out_handmade),
        cmocka_unit_test(test_push_out_random),       cmocka_unit_test(test_alignment),
        cmocka_unit_test(test_threads_deterministic), cmocka_unit_test(test_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
