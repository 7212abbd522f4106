#include "support.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

int tn_test_run(int argc, char **argv, const struct CMUnitTest *local, size_t nlocal,
                const struct CMUnitTest *shared, size_t nshared, const struct CMUnitTest *slow,
                size_t nslow)
{
    const char *group = argc > 1 ? argv[1] : "";
    if (strcmp(group, "--shared") == 0) {
        char probe[1024];
        FILE *f = fopen(tn_test_shared(probe, sizeof probe, "bench/movingai/README.md"), "rb");
        if (!f) {
            printf("SKIPPED: %s is absent: these tests read the shared Moving AI and Tiled maps "
                   "(the repository's own tests run without it)\n",
                   TN_SHARED_DIR);
            return 77;
        }
        fclose(f);
        return shared ? _cmocka_run_group_tests("shared", shared, nshared, NULL, NULL) : 0;
    }
    if (strcmp(group, "--slow") == 0)
        return slow ? _cmocka_run_group_tests("slow", slow, nslow, NULL, NULL) : 0;
    if (group[0]) {
        fprintf(stderr, "unknown group '%s' (expected --shared or --slow)\n", group);
        return 2;
    }
    return _cmocka_run_group_tests("local", local, nlocal, NULL, NULL);
}

tn_status tn_test_jump_table(const tn_map *map, tn_jump_table **out)
{
    tn_jump_table_def d = tn_jump_table_def_default();
    d.map = map;
    return tn_jump_table_build(&d, out);
}

tn_status tn_test_goal_bounds(const tn_map *map, const tn_moves *moves, tn_goal_bounds **out)
{
    tn_goal_bounds_def d = tn_goal_bounds_def_default();
    d.map = map;
    d.moves = *moves;
    return tn_goal_bounds_build(&d, out);
}

void tn_test_textf(tn_test_text *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        assert_true(k >= 0);
        if (b->s && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 1024) + (size_t)k + 1;
        b->s = realloc(b->s, cap);
        assert_non_null(b->s);
        b->cap = cap;
    }
}

const char *const tn_test_tiled_bench_maps[11] = {
    "kaetram/map-old.json",
    "westhad/platformer.json",
    "excalibur/test-gzip.json",
    "pytiled/b64/map.json",
    "pytiled/b64_zstd/map.json",
    "pytiled/infinite_map/map.json",
    "pytiled/external_tileset_dif_dir/map.json",
    "dottiled/map-with-flippingflags/map-with-flippingflags.tmj",
    "spearwolf/lab-wall-tiles-new-map.json",
    "workadventure/office.tmj",
    "melonjs/island-1.json",
};

static void b64_encode(const unsigned char *in, size_t n, char *out)
{
    const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = t[v >> 18 & 63];
        out[o++] = t[v >> 12 & 63];
        out[o++] = i + 1 < n ? t[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? t[v & 63] : '=';
    }
    out[o] = 0;
}

void tn_test_encode_gids(const uint32_t *g, size_t n, const char *comp, char *out)
{
    unsigned char *raw = malloc(n * 4), *z = malloc(n * 8 + 128);
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            raw[4 * i + (size_t)b] = (unsigned char)(g[i] >> (8 * b));
    size_t zn = n * 4;
    if (!strcmp(comp, "zstd")) {
        zn = ZSTD_compress(z, n * 8 + 128, raw, n * 4, 3);
        assert_false(ZSTD_isError(zn));
    } else if (!strcmp(comp, "zstd-stream")) {
        /* as zstd's command line writes a pipe: no content size in the frame, and a window
         * of 8 MiB whatever the size */
        ZSTD_CCtx *c = ZSTD_createCCtx();
        assert_non_null(c);
        assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0)));
        assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 23)));
        ZSTD_outBuffer ob = {z, n * 8 + 128, 0};
        ZSTD_inBuffer ib = {raw, n * 4 / 2, 0};
        assert_false(ZSTD_isError(ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_continue)));
        ib.size = n * 4;
        size_t left;
        do {
            left = ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_end);
            assert_false(ZSTD_isError(left));
        } while (left != 0);
        zn = ob.pos;
        ZSTD_freeCCtx(c);
        assert_int_equal(ZSTD_getFrameContentSize(z, zn), ZSTD_CONTENTSIZE_UNKNOWN);
    } else if (comp[0]) {
        z_stream s;
        memset(&s, 0, sizeof s);
        assert_int_equal(
            deflateInit2(&s, 6, Z_DEFLATED, !strcmp(comp, "gzip") ? 31 : 15, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
        s.next_in = raw;
        s.avail_in = (uInt)(n * 4);
        s.next_out = z;
        s.avail_out = (uInt)(n * 8 + 128);
        assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
        zn = s.total_out;
        deflateEnd(&s);
    } else {
        memcpy(z, raw, zn);
    }
    b64_encode(z, zn, out);
    free(raw);
    free(z);
}

const char *tn_test_shared(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", TN_SHARED_DIR, rel);
    return buf;
}

const char *tn_test_data(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", TN_TEST_DATA, rel);
    return buf;
}

tn_map *tn_test_blank_map(int32_t w, int32_t h, int32_t tw, int32_t th)
{
    tn_map_def d = tn_map_def_default();
    d.width = w;
    d.height = h;
    d.tile_width = tw;
    d.tile_height = th;
    tn_map *m = NULL;
    assert_int_equal(tn_map_create(&d, &m), TN_OK);
    assert_non_null(m);
    return m;
}

tn_map *tn_test_map_from_rows(const char *const *rows, int32_t h)
{
    int32_t w = (int32_t)strlen(rows[0]);
    tn_map *m = tn_test_new_map(w, h);
    if (!m)
        return NULL;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            char c = rows[y][x];
            uint32_t g = c == '#' ? 1u : c == '~' ? 2u : 0u;
            if (g && tn_map_set(m, 0, x, y, g) != TN_OK) {
                tn_map_destroy(m);
                return NULL;
            }
        }
    return m;
}

tn_cell tn_test_random_open_cell(const tn_map *m, tn_test_rng *r)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    for (;;) {
        tn_cell c = {(int32_t)tn_test_below(r, (uint32_t)w),
                     (int32_t)tn_test_below(r, (uint32_t)h)};
        if (tn_map_passable(m, c.x, c.y))
            return c;
    }
}

void tn_test_add_mud(tn_map *m, double p, uint64_t seed)
{
    tn_test_rng r = {seed};
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++)
            if (tn_map_passable(m, x, y) && tn_test_u01(&r) < p)
                assert_int_equal(tn_map_set(m, 0, x, y, 2), TN_OK);
}

typedef struct half_job {
    tn_task task;
    void *ctx;
    int32_t begin, end;
} half_job;

static void *run_half(void *arg)
{
    half_job *j = arg;
    j->task(j->ctx, j->begin, j->end);
    return NULL;
}

void tn_test_two_threads(tn_task task, void *ctx, int32_t count, void *user)
{
    (void)user;
    half_job j = {task, ctx, count / 2, count};
    pthread_t t;
    bool spawned = pthread_create(&t, NULL, run_half, &j) == 0;
    task(ctx, 0, count / 2);
    if (spawned)
        pthread_join(t, NULL);
    else
        task(ctx, count / 2, count);
}

void *tn_test_count_alloc(size_t size, size_t align, void *user)
{
    tn_test_counter *c = user;
    (void)align;
    if (c->fail_after >= 0 && c->calls >= c->fail_after) {
        if (!c->once)
            return NULL;
        if (c->calls++ == c->fail_after)
            return NULL;
        c->calls--;
    }
    c->calls++;
    unsigned char *p = malloc(size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    c->outstanding += size;
    return p + 16;
}

void tn_test_count_free(void *ptr, size_t size, void *user)
{
    tn_test_counter *c = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t got;
    memcpy(&got, p, sizeof got);
    if (got != size)
        c->bad_free = true;
    c->outstanding -= got;
    free(p);
}
