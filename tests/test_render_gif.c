/* The tools' GIF writer (tools/render/gif.h): the file is decoded here with giflib's reader and
 * composited by the GIF rules (frame rectangle, transparent index, "do not dispose"), and every
 * shown frame is compared with the frame that was added: exactly while the palette is exact,
 * within a small error once frames are quantised. Same frames, same bytes. */
#include "render/gif.h"
#include "support.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 37
#define H 23

static int partial_frames; /* frames written as a rectangle smaller than the screen */

/* Decode `path` and compare the shown frames with `frames` (n frames of W*H*4 bytes): worst[i]
 * gets frame i's largest channel error, *mean the largest mean channel error of a frame.
 * Returns the largest error of all. giflib's median cut works on 5 bits per channel, so a
 * quantised frame is off by a few units on average and by a few dozen at worst. */
static int check_frames(const char *path, uint8_t *const *frames, int n, int *worst_each,
                        double *mean)
{
    int e = 0;
    GifFileType *g = DGifOpenFileName(path, &e);
    assert_non_null(g);
    assert_int_equal(DGifSlurp(g), GIF_OK);
    assert_int_equal(g->SWidth, W);
    assert_int_equal(g->SHeight, H);
    assert_int_equal(g->ImageCount, n);
    uint8_t *screen = calloc(W * H * 3, 1);
    assert_non_null(screen);
    int worst = 0;
    double worst_mean = 0.0;
    for (int i = 0; i < n; i++) {
        SavedImage *s = &g->SavedImages[i];
        GraphicsControlBlock gcb;
        assert_int_equal(DGifSavedExtensionToGCB(g, i, &gcb), GIF_OK);
        const GifImageDesc *d = &s->ImageDesc;
        assert_true(d->Left >= 0 && d->Top >= 0 && d->Left + d->Width <= W &&
                    d->Top + d->Height <= H);
        partial_frames += d->Width * d->Height < W * H;
        ColorMapObject *m = d->ColorMap ? d->ColorMap : g->SColorMap;
        assert_non_null(m);
        for (int y = 0; y < d->Height; y++)
            for (int x = 0; x < d->Width; x++) {
                int k = s->RasterBits[y * d->Width + x];
                if (k == gcb.TransparentColor)
                    continue;
                assert_true(k < m->ColorCount);
                uint8_t *p = screen + 3 * ((d->Top + y) * W + d->Left + x);
                p[0] = m->Colors[k].Red;
                p[1] = m->Colors[k].Green;
                p[2] = m->Colors[k].Blue;
            }
        int fw = 0;
        long sum = 0;
        for (int k = 0; k < W * H; k++)
            for (int c = 0; c < 3; c++) {
                int diff = abs((int)screen[3 * k + c] - (int)frames[i][4 * k + c]);
                fw = diff > fw ? diff : fw;
                sum += diff;
            }
        double fm = (double)sum / (W * H * 3);
        worst_mean = fm > worst_mean ? fm : worst_mean;
        if (worst_each)
            worst_each[i] = fw;
        worst = fw > worst ? fw : worst;
        /* what the next frame is drawn over: kept (1), or the canvas restored (0 on the first
         * frame only, which covers everything) */
        if (i + 1 < n && gcb.DisposalMode != DISPOSE_DO_NOT)
            assert_true(d->Width == W && d->Height == H);
    }
    free(screen);
    DGifCloseFile(g, &e);
    *mean = worst_mean;
    return worst;
}

static void put(uint8_t *f, int x, int y, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *p = f + 4 * (y * W + x);
    p[0] = r;
    p[1] = g;
    p[2] = b;
    p[3] = 255;
}

static char *tmp(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "/tmp/tn_test_render_gif_%ld_%s", (long)getpid(), name);
    return buf;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void test_exact_then_quantized(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        tn_test_rng rng = {seed};
        /* frames 0..9: a few colours, small moving changes (some frames identical);
         * frames 10..13: smooth gradients of thousands of colours */
        enum { NF = 14, NEXACT = 10 };
        uint8_t *frames[NF];
        static const uint8_t pal[5][3] = {
            {0, 0, 0}, {200, 30, 30}, {30, 200, 30}, {30, 30, 200}, {250, 250, 250}};
        for (int i = 0; i < NF; i++) {
            frames[i] = malloc(W * H * 4);
            assert_non_null(frames[i]);
            if (i == 0) {
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++) {
                        const uint8_t *c = pal[tn_test_below(&rng, 5)];
                        put(frames[i], x, y, c[0], c[1], c[2]);
                    }
            } else if (i < NEXACT) {
                memcpy(frames[i], frames[i - 1], W * H * 4);
                int changes = (int)tn_test_below(&rng, 4); /* 0: a still frame */
                for (int k = 0; k < changes; k++) {
                    const uint8_t *c = pal[tn_test_below(&rng, 5)];
                    put(frames[i], (int)tn_test_below(&rng, W), (int)tn_test_below(&rng, H), c[0],
                        c[1], c[2]);
                }
            } else {
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++)
                        put(frames[i], x, y, (uint8_t)(x * 255 / (W - 1)),
                            (uint8_t)(y * 255 / (H - 1)), (uint8_t)(i * 17 + (x ^ y)));
            }
        }
        char p1[256], p2[256];
        for (int pass = 0; pass < 2; pass++) {
            tn_gif *g = tn_gif_begin(W, H, 10);
            assert_non_null(g);
            for (int i = 0; i < NF; i++)
                assert_true(tn_gif_add(g, frames[i], W * 4));
            char err[256];
            assert_true(tn_gif_end(g,
                                   pass ? tmp(p2, sizeof p2, "b.gif") : tmp(p1, sizeof p1, "a.gif"),
                                   err, sizeof err));
        }
        /* exact frames exactly, then the quantised ones within a small error */
        int each[NF];
        double mean;
        partial_frames = 0;
        int worst = check_frames(p1, frames, NF, each, &mean);
        assert_true(partial_frames >= NEXACT - 1); /* every exact frame after the first */
        for (int i = 0; i < NEXACT; i++)
            assert_int_equal(each[i], 0);
        assert_true(worst <= 64 && mean <= 10.0);
        /* deterministic */
        size_t l1, l2;
        uint8_t *b1 = slurp(p1, &l1), *b2 = slurp(p2, &l2);
        assert_int_equal(l1, l2);
        assert_memory_equal(b1, b2, l1);
        free(b1);
        free(b2);
        unlink(p1);
        unlink(p2);
        for (int i = 0; i < NF; i++)
            free(frames[i]);
    }
}

/* The first frame already has too many colours: every frame gets its own palette. */
static void test_all_quantized(void **state)
{
    (void)state;
    uint8_t *frames[3];
    for (int i = 0; i < 3; i++) {
        frames[i] = malloc(W * H * 4);
        assert_non_null(frames[i]);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                put(frames[i], x, y, (uint8_t)(x * 7 + i), (uint8_t)(y * 11), (uint8_t)(x * y));
    }
    tn_gif *g = tn_gif_begin(W, H, 5);
    for (int i = 0; i < 3; i++)
        assert_true(tn_gif_add(g, frames[i], W * 4));
    char p[256];
    assert_true(tn_gif_end(g, tmp(p, sizeof p, "q.gif"), NULL, 0));
    double mean;
    assert_true(check_frames(p, frames, 3, NULL, &mean) <= 64 && mean <= 10.0);
    unlink(p);
    for (int i = 0; i < 3; i++)
        free(frames[i]);
}

static void test_bad_input(void **state)
{
    (void)state;
    assert_null(tn_gif_begin(0, 5, 10));
    assert_null(tn_gif_begin(5, -1, 10));
    assert_null(tn_gif_begin(65536, 5, 10));
    tn_gif *g = tn_gif_begin(W, H, 10);
    assert_non_null(g);
    assert_false(tn_gif_add(g, NULL, W * 4));
    assert_false(tn_gif_add(NULL, (const uint8_t *)"", W * 4));
    uint8_t *f = calloc(W * H * 4, 1);
    assert_non_null(f);
    assert_true(tn_gif_add(g, f, W * 4));
    char err[256] = "";
    assert_false(tn_gif_end(g, "/nonexistent/dir/x.gif", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/dir/x.gif"));
    assert_false(tn_gif_end(NULL, "/tmp/x.gif", err, sizeof err));
    tn_gif_abort(NULL);
    tn_gif_abort(tn_gif_begin(3, 3, 1));
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_then_quantized),
        cmocka_unit_test(test_all_quantized),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
