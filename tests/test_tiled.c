/* Tiled JSON loader: every map in ../shared/bench/tiled against an independent decode written
 * here (cJSON + zlib + zstd used directly, a separate base64 decoder, the documented property
 * rules re-implemented) and against the facts in the bench MANIFEST.md; handmade maps for
 * each encoding, flags, groups, infinite maps, objects and external tilesets; and malformed
 * inputs, each with its status, message and place. */
#include "support.h"
#include "tilenav/io.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

/* ---- independent reference decoder ------------------------------------------------------ */

typedef struct ref_map {
    int w, h;   /* finite: declared size; infinite: chunk bounds */
    int ox, oy; /* infinite: chunk origin */
    int tile_layers, object_layers;
    uint32_t *g; /* tile_layers * w * h raw gids */
    bool blocked[1 << 16];
} ref_map;

static int b64v(char c)
{
    const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = strchr(t, c);
    return c && p ? (int)(p - t) : -1;
}

/* Decode base64 four characters at a time. */
static unsigned char *ref_b64(const char *s, size_t *n)
{
    size_t len = strlen(s);
    unsigned char *out = malloc(len / 4 * 3 + 3);
    size_t o = 0;
    for (size_t i = 0; i + 3 < len; i += 4) {
        int a = b64v(s[i]), b = b64v(s[i + 1]), c = b64v(s[i + 2]), d = b64v(s[i + 3]);
        assert_true(a >= 0 && b >= 0);
        out[o++] = (unsigned char)(a << 2 | b >> 4);
        if (s[i + 2] != '=')
            out[o++] = (unsigned char)((b & 15) << 4 | c >> 2);
        if (s[i + 3] != '=')
            out[o++] = (unsigned char)((c & 3) << 6 | d);
    }
    *n = o;
    return out;
}

/* Decode one data item to n gids. */
static void ref_data(const cJSON *layer, const cJSON *data, uint32_t *out, size_t n)
{
    if (cJSON_IsArray(data)) {
        assert_int_equal(cJSON_GetArraySize(data), (int)n);
        size_t i = 0;
        for (const cJSON *e = data->child; e; e = e->next)
            out[i++] = (uint32_t)e->valuedouble;
        return;
    }
    const cJSON *comp = cJSON_GetObjectItem(layer, "compression");
    const char *cs = cJSON_IsString(comp) ? comp->valuestring : "";
    size_t raw_n;
    unsigned char *raw = ref_b64(data->valuestring, &raw_n);
    unsigned char *bytes = malloc(n * 4);
    if (!cs[0]) {
        assert_int_equal(raw_n, n * 4);
        memcpy(bytes, raw, n * 4);
    } else if (!strcmp(cs, "zstd")) {
        assert_int_equal(ZSTD_decompress(bytes, n * 4, raw, raw_n), n * 4);
    } else {
        z_stream z;
        memset(&z, 0, sizeof z);
        assert_int_equal(inflateInit2(&z, 15 + 32), Z_OK);
        z.next_in = raw;
        z.avail_in = (uInt)raw_n;
        z.next_out = bytes;
        z.avail_out = (uInt)(n * 4);
        assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
        assert_int_equal(z.total_out, n * 4);
        inflateEnd(&z);
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
                 (uint32_t)bytes[4 * i + 2] << 16 | (uint32_t)bytes[4 * i + 3] << 24;
    free(raw);
    free(bytes);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* The documented terrain property rules, re-implemented from docs/formats.md. */
static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 32) != (*b | 32))
            return false;
    return *a == *b;
}

static void ref_tile_props(ref_map *r, uint32_t gid, const cJSON *props)
{
    static const char *blocks[] = {"collides", "collision", "collide", "solid",    "blocked",
                                   "blocks",   "blocking",  "wall",    "obstacle", "impassable"};
    bool blocked = false;
    for (const cJSON *p = props ? props->child : NULL; p; p = p->next) {
        const char *name = cJSON_GetObjectItem(p, "name")->valuestring;
        const cJSON *v = cJSON_GetObjectItem(p, "value");
        bool truthy =
            cJSON_IsTrue(v) || (cJSON_IsNumber(v) && v->valuedouble != 0) ||
            (cJSON_IsString(v) && (ieq(v->valuestring, "true") || !strcmp(v->valuestring, "1") ||
                                   ieq(v->valuestring, "yes")));
        bool falsy =
            cJSON_IsFalse(v) || (cJSON_IsNumber(v) && v->valuedouble == 0) ||
            (cJSON_IsString(v) && (ieq(v->valuestring, "false") || !strcmp(v->valuestring, "0") ||
                                   ieq(v->valuestring, "no") || !v->valuestring[0]));
        if (!strcmp(name, "c"))
            blocked = true;
        for (size_t k = 0; k < sizeof blocks / sizeof *blocks; k++)
            if (ieq(name, blocks[k]) && truthy)
                blocked = true;
        if ((ieq(name, "passable") || ieq(name, "walkable")) && falsy)
            blocked = true;
    }
    if (blocked && gid < (1u << 16))
        r->blocked[gid] = true;
}

static void ref_tileset(ref_map *r, const cJSON *ts, uint32_t firstgid)
{
    const cJSON *tiles = cJSON_GetObjectItem(ts, "tiles");
    for (const cJSON *t = tiles ? tiles->child : NULL; t; t = t->next)
        ref_tile_props(r, firstgid + (uint32_t)cJSON_GetObjectItem(t, "id")->valuedouble,
                       cJSON_GetObjectItem(t, "properties"));
}

static void ref_collect(const cJSON *layers, const cJSON **out, int *n, int *objects)
{
    for (const cJSON *l = layers->child; l; l = l->next) {
        const char *type = cJSON_GetObjectItem(l, "type")->valuestring;
        if (!strcmp(type, "group"))
            ref_collect(cJSON_GetObjectItem(l, "layers"), out, n, objects);
        else if (!strcmp(type, "tilelayer"))
            out[(*n)++] = l;
        else if (!strcmp(type, "objectgroup"))
            (*objects)++;
    }
}

static ref_map *ref_load(const char *path)
{
    ref_map *r = calloc(1, sizeof *r);
    char *text = slurp(path, NULL);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    free(text);
    const cJSON *tl[64];
    int n = 0;
    ref_collect(cJSON_GetObjectItem(root, "layers"), tl, &n, &r->object_layers);
    r->tile_layers = n;
    bool infinite = cJSON_IsTrue(cJSON_GetObjectItem(root, "infinite"));
    r->w = cJSON_GetObjectItem(root, "width")->valueint;
    r->h = cJSON_GetObjectItem(root, "height")->valueint;
    if (infinite) {
        int x0 = 1 << 30, y0 = 1 << 30, x1 = -(1 << 30), y1 = -(1 << 30);
        for (int k = 0; k < n; k++)
            for (const cJSON *c = cJSON_GetObjectItem(tl[k], "chunks")->child; c; c = c->next) {
                int x = cJSON_GetObjectItem(c, "x")->valueint;
                int y = cJSON_GetObjectItem(c, "y")->valueint;
                x0 = x < x0 ? x : x0;
                y0 = y < y0 ? y : y0;
                int xe = x + cJSON_GetObjectItem(c, "width")->valueint;
                int ye = y + cJSON_GetObjectItem(c, "height")->valueint;
                x1 = xe > x1 ? xe : x1;
                y1 = ye > y1 ? ye : y1;
            }
        r->ox = x0;
        r->oy = y0;
        r->w = x1 - x0;
        r->h = y1 - y0;
    }
    size_t cells = (size_t)r->w * (size_t)r->h;
    r->g = calloc((size_t)n * cells + 1, sizeof(uint32_t));
    for (int k = 0; k < n; k++) {
        uint32_t *dst = r->g + (size_t)k * cells;
        if (!infinite) {
            ref_data(tl[k], cJSON_GetObjectItem(tl[k], "data"), dst, cells);
            continue;
        }
        for (const cJSON *c = cJSON_GetObjectItem(tl[k], "chunks")->child; c; c = c->next) {
            int cw = cJSON_GetObjectItem(c, "width")->valueint;
            int ch = cJSON_GetObjectItem(c, "height")->valueint;
            int cx = cJSON_GetObjectItem(c, "x")->valueint - r->ox;
            int cy = cJSON_GetObjectItem(c, "y")->valueint - r->oy;
            uint32_t *tmp = malloc((size_t)cw * (size_t)ch * sizeof(uint32_t));
            ref_data(tl[k], cJSON_GetObjectItem(c, "data"), tmp, (size_t)cw * (size_t)ch);
            for (int y = 0; y < ch; y++)
                for (int x = 0; x < cw; x++)
                    dst[(size_t)(cy + y) * (size_t)r->w + (size_t)(cx + x)] =
                        tmp[(size_t)y * (size_t)cw + (size_t)x];
            free(tmp);
        }
    }
    /* tilesets, external ones read relative to the map's folder */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    *(strrchr(dir, '/') + 1) = 0;
    for (const cJSON *ts = cJSON_GetObjectItem(root, "tilesets")->child; ts; ts = ts->next) {
        uint32_t first = (uint32_t)cJSON_GetObjectItem(ts, "firstgid")->valueint;
        const cJSON *src = cJSON_GetObjectItem(ts, "source");
        if (!src) {
            ref_tileset(r, ts, first);
            continue;
        }
        char p[2048];
        snprintf(p, sizeof p, "%s%s", dir, src->valuestring);
        char *t = slurp(p, NULL);
        assert_non_null(t);
        cJSON *tj = cJSON_Parse(t);
        ref_tileset(r, tj, first);
        cJSON_Delete(tj);
        free(t);
    }
    cJSON_Delete(root);
    return r;
}

/* ---- manifest facts ---------------------------------------------------------------------- */

typedef struct facts {
    int w, h, objects, tiles;
    long cells, nonempty, maxgid, flipped;
} facts;

static void manifest_facts(const char *manifest, const char *file, facts *f)
{
    char head[512];
    snprintf(head, sizeof head, "### `%s`", file);
    const char *s = strstr(manifest, head);
    assert_non_null(s);
    const char *end = strstr(s + 4, "\n### ");
    if (!end)
        end = s + strlen(s);
    memset(f, 0, sizeof *f);
    const char *p = strstr(s, "- size ");
    assert_true(p && p < end);
    assert_int_equal(sscanf(p, "- size %dx%d", &f->w, &f->h), 2);
    p = strstr(s, "\n- layers ");
    assert_true(p && p < end);
    const char *paren = strchr(p, '(');
    const char *close = strchr(paren, ')');
    for (const char *q = paren; q < close; q++) {
        int v;
        char word[16];
        if (sscanf(q, "%d %15[a-z]", &v, word) == 2 && (q == paren + 1 || q[-1] == ' ')) {
            if (!strcmp(word, "object"))
                f->objects = v;
            if (!strcmp(word, "tile"))
                f->tiles = v;
        }
    }
    p = strstr(s, "- decoded: ");
    assert_true(p && p < end);
    assert_int_equal(sscanf(p, "- decoded: %ld cells, %ld non-empty, max gid (flags stripped) %ld",
                            &f->cells, &f->nonempty, &f->maxgid),
                     3);
    p = strstr(s, "tile-layer gids with flip bits");
    if (p && p < end) {
        while (p > s && p[-1] == ' ')
            p--;
        while (p > s && p[-1] >= '0' && p[-1] <= '9')
            p--;
        f->flipped = strtol(p, NULL, 10);
    }
}

#define bench_maps tn_test_tiled_bench_maps /* tests/support.c */

static tn_map *load_opts(const char *path, const tn_load_def *o)
{
    tn_map *m = NULL;
    tn_diag d;
    memset(&d, 0, sizeof d);
    tn_status st = tn_map_load(path, o, &m, &d);
    if (st != TN_OK) {
        char msg[1024];
        tn_diag_format(&d, msg, sizeof msg);
        fail_msg("%s: %s", path, msg);
    }
    return m;
}

static tn_map *load_ok(const char *path)
{
    return load_opts(path, NULL);
}

static void test_bench_maps(void **state)
{
    (void)state;
    char mpath[1024];
    char *manifest = slurp(tn_test_shared(mpath, sizeof mpath, "bench/tiled/MANIFEST.md"), NULL);
    assert_non_null(manifest);
    size_t nmaps = sizeof bench_maps / sizeof bench_maps[0];
    for (size_t i = 0; i < nmaps; i++) {
        char rel[512], path[1024];
        snprintf(rel, sizeof rel, "bench/tiled/%s", bench_maps[i]);
        tn_test_shared(path, sizeof path, rel);
        facts f;
        manifest_facts(manifest, bench_maps[i], &f);
        ref_map *r = ref_load(path);
        /* the reference knows the property rules only: collision shapes and collision object
         * layers are checked against their own reference in test_tiled_collision.c */
        tn_load_def props = tn_load_def_default();
        props.collision = TN_COLLIDE_PROPERTIES;
        tn_map *m = load_opts(path, &props);
        int32_t w = tn_map_width(m), h = tn_map_height(m);
        /* the reference agrees with the manifest */
        assert_int_equal(r->tile_layers, f.tiles);
        assert_int_equal(r->object_layers, f.objects);
        /* the loader agrees with both */
        assert_int_equal(w, r->w);
        assert_int_equal(h, r->h);
        bool infinite = strstr(bench_maps[i], "infinite") || strstr(bench_maps[i], "spearwolf");
        if (!infinite) {
            assert_int_equal(w, f.w);
            assert_int_equal(h, f.h);
            assert_int_equal((long)w * h * f.tiles, f.cells);
        }
        int tiles = 0, objects = 0;
        long nonempty = 0, flipped = 0, maxgid = 0;
        size_t cells = (size_t)w * (size_t)h;
        uint8_t *blocked = calloc(cells, 1);
        for (int32_t k = 0; k < tn_map_layer_count(m); k++) {
            if (tn_map_layer_kind(m, k) == TN_LAYER_OBJECTS) {
                objects++;
                continue;
            }
            const uint32_t *g = tn_map_layer_data(m, k);
            const uint32_t *want = r->g + (size_t)tiles * cells;
            for (size_t c = 0; c < cells; c++) {
                if (g[c] != want[c])
                    fail_msg("%s layer %d cell %zu: %u, reference %u", bench_maps[i], k, c, g[c],
                             want[c]);
                uint32_t id = tn_gid_id(g[c]);
                nonempty += id != 0;
                flipped += tn_gid_flags(g[c]) != 0;
                maxgid = (long)id > maxgid ? (long)id : maxgid;
                if (id < (1u << 16) && r->blocked[id])
                    blocked[c] = 1;
                assert_true(tn_map_get(m, k, (int32_t)(c % (size_t)w), (int32_t)(c / (size_t)w)) ==
                            g[c]);
            }
            tiles++;
        }
        assert_int_equal(tiles, f.tiles);
        assert_int_equal(objects, f.objects);
        assert_int_equal(nonempty, f.nonempty);
        assert_int_equal(maxgid, f.maxgid);
        assert_int_equal(flipped, f.flipped);
        int32_t pass = 0;
        for (size_t c = 0; c < cells; c++) {
            pass += !blocked[c];
            assert_int_equal(tn_map_passable(m, (int32_t)(c % (size_t)w), (int32_t)(c / (size_t)w)),
                             !blocked[c]);
        }
        assert_int_equal(tn_map_passable_count(m), pass);
        free(blocked);
        tn_map_destroy(m);
        free(r->g);
        free(r);
    }
    free(manifest);
}

/* Facts about particular bench maps that the manifest states. */
static void test_bench_details(void **state)
{
    (void)state;
    char path[1024];
    /* external tileset in a sub-folder; image of an external tileset resolved from its folder */
    tn_map *m = load_ok(tn_test_shared(path, sizeof path, "bench/tiled/pytiled/b64/map.json"));
    assert_int_equal(tn_map_tileset_count(m), 1);
    const tn_tileset *t = tn_map_tileset_at(m, 0);
    assert_int_equal(t->first_gid, 1);
    assert_int_equal(t->tile_count, 48);
    assert_int_equal(t->margin, 1);
    assert_non_null(strstr(t->image, "pytiled/b64/../all_layer_types/../../images/"));
    /* the group's child object layer is named "Group 1/Object Layer 1" */
    assert_true(tn_map_find_layer(m, "Group 1/Object Layer 1") >= 0);
    tn_map_destroy(m);
    /* the zstd map decodes to the same gids as the base64 one */
    tn_map *a = load_ok(tn_test_shared(path, sizeof path, "bench/tiled/pytiled/b64/map.json"));
    tn_map *b = load_ok(tn_test_shared(path, sizeof path, "bench/tiled/pytiled/b64_zstd/map.json"));
    assert_memory_equal(tn_map_layer_data(a, 0), tn_map_layer_data(b, 0), 48 * sizeof(uint32_t));
    tn_map_destroy(a);
    tn_map_destroy(b);
    /* excalibur: ellipse, polygon, polyline and a tile object among the objects */
    m = load_ok(tn_test_shared(path, sizeof path, "bench/tiled/excalibur/test-gzip.json"));
    bool shapes[6] = {false};
    int tile_objects = 0;
    for (int32_t k = 0; k < tn_map_object_count(m); k++) {
        const tn_map_object *o = tn_map_object_at(m, k);
        shapes[o->shape] = true;
        tile_objects += o->gid != 0;
        assert_int_equal(tn_map_layer_kind(m, o->layer), TN_LAYER_OBJECTS);
    }
    assert_int_equal(tn_map_object_count(m), 9);
    assert_true(shapes[2] && shapes[3] && shapes[4]);
    assert_int_equal(tile_objects, 1);
    tn_map_destroy(m);
    /* workadventure: the `collides` tile (gid 3) blocks, its layer "collisions" included */
    m = load_ok(tn_test_shared(path, sizeof path, "bench/tiled/workadventure/office.tmj"));
    assert_false(tn_map_terrain(m, 3).passable);
    assert_true(tn_map_terrain(m, 4).passable);
    assert_true(tn_map_find_layer(m, "furniture/furniture2") >= 0);
    tn_map_destroy(m);
    /* the 600x600 Kaetram world: `c` marks collisions */
    m = load_ok(tn_test_shared(path, sizeof path, "bench/tiled/kaetram/map-old.json"));
    assert_false(tn_map_terrain(m, 4).passable); /* tile id 3 has property c */
    assert_true(tn_map_passable_count(m) < 360000);
    tn_map_destroy(m);
}

/* ---- handmade maps ----------------------------------------------------------------------- */

static tn_status parse(const char *text, const char *name, tn_map **m, tn_diag *d)
{
    memset(d, 0, sizeof *d);
    return tn_map_parse(text, strlen(text), name, NULL, m, d);
}

static void test_encodings_random(void **state)
{
    (void)state;
    /* zstd-stream: a frame without its content size and with a window of 8 MiB, as zstd's
     * command line writes a pipe (it was refused: the decoder's window was capped at W*H*4) */
    static const char *const comps[] = {"", "zlib", "gzip", "zstd", "zstd-stream"};
    tn_test_rng rng = {20261122};
    for (int round = 0; round < 15; round++) {
        int w = 1 + (int)tn_test_below(&rng, 40), h = 1 + (int)tn_test_below(&rng, 30);
        size_t n = (size_t)w * (size_t)h;
        uint32_t *g = malloc(n * sizeof *g);
        for (size_t i = 0; i < n; i++) {
            uint32_t r = (uint32_t)tn_test_next(&rng);
            g[i] = tn_test_below(&rng, 3) == 0 ? 0 : (r & 0xE0000000u) | (1 + r % 6);
        }
        const char *comp = comps[round % 5];
        char *b64 = malloc(n * 12 + 256), *json = malloc(n * 12 + 2048);
        tn_test_encode_gids(g, n, comp, b64);
        snprintf(json, n * 12 + 2048,
                 "{\"width\":%d,\"height\":%d,\"tilewidth\":16,\"tileheight\":8,"
                 "\"orientation\":\"orthogonal\",\"layers\":[{\"type\":\"tilelayer\","
                 "\"name\":\"L\",\"width\":%d,\"height\":%d,\"encoding\":\"base64\","
                 "\"compression\":\"%s\",\"data\":\"%s\"}],\"tilesets\":[{\"firstgid\":1,"
                 "\"name\":\"t\",\"tilecount\":6,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
                 "\"solid\",\"type\":\"bool\",\"value\":true}]},{\"id\":2,\"properties\":[{"
                 "\"name\":\"movementCost\",\"type\":\"float\",\"value\":2.5}]}]}]}",
                 w, h, w, h, strncmp(comp, "zstd", 4) ? comp : "zstd", b64);
        tn_map *m = NULL;
        tn_diag d;
        tn_status st = parse(json, "r.tmj", &m, &d);
        if (st != TN_OK)
            fail_msg("%s: %s", comp, d.message);
        assert_int_equal(tn_map_width(m), w);
        assert_int_equal(tn_map_tile_width(m), 16);
        assert_int_equal(tn_map_tile_height(m), 8);
        assert_memory_equal(tn_map_layer_data(m, 0), g, n * sizeof *g);
        int32_t pass = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t id = tn_gid_id(g[i]);
            pass += id != 2;
            float want = id == 2 ? INFINITY : id == 3 ? 2.5f : 1.0f;
            assert_true(tn_map_cost(m, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w)) == want);
        }
        assert_int_equal(tn_map_passable_count(m), pass);
        tn_map_destroy(m);
        free(g);
        free(b64);
        free(json);
    }
}

static void test_features(void **state)
{
    (void)state;
    tn_map *m = NULL;
    tn_diag d;
    /* CRLF, BOM, gids up to 2^32-1 kept raw (flags apart from the id), group names and
     * hidden flags, an image layer skipped, legacy tileproperties, a layer of 2^31-1 */
    const char *text =
        "\xEF\xBB\xBF{\r\n \"width\": 3, \"height\": 1, \"tilewidth\": 32, \"tileheight\": 32,\r\n"
        " \"layers\": [\r\n"
        "  {\"type\": \"group\", \"name\": \"g\", \"visible\": false, \"layers\": [\r\n"
        "    {\"type\": \"tilelayer\", \"name\": \"a\", \"data\": [2147483647, 4294967295, "
        "2147483649]},\r\n"
        "    {\"type\": \"group\", \"name\": \"inner\", \"layers\": [\r\n"
        "      {\"type\": \"objectgroup\", \"name\": \"o\", \"objects\": [\r\n"
        "        {\"id\": 7, \"name\": \"p\", \"point\": true, \"x\": 5.5, \"y\": 6},\r\n"
        "        {\"id\": 8, \"name\": \"poly\", \"x\": 10, \"y\": 20, \"polygon\": "
        "[{\"x\": -4, \"y\": 0}, {\"x\": 6, \"y\": 3}, {\"x\": 0, \"y\": -2}]},\r\n"
        "        {\"id\": 9, \"name\": \"tile\", \"gid\": 2147483650, \"x\": 32, \"y\": 64, "
        "\"width\": 32, \"height\": 32, \"type\": \"door\"}]}]}]},\r\n"
        "  {\"type\": \"imagelayer\", \"name\": \"sky\", \"image\": \"sky.png\"},\r\n"
        "  {\"type\": \"tilelayer\", \"name\": \"b\", \"data\": [0, 5, 0]}\r\n"
        " ],\r\n"
        " \"tilesets\": [{\"firstgid\": 1, \"name\": \"old\", \"tileproperties\": "
        "{\"4\": {\"blocked\": \"yes\"}, \"0\": {\"cost\": \"4\"}}}]\r\n}\r\n";
    assert_int_equal(parse(text, "f.json", &m, &d), TN_OK);
    assert_int_equal(tn_map_layer_count(m), 3);
    assert_string_equal(tn_map_layer_name(m, 0), "g/a");
    assert_string_equal(tn_map_layer_name(m, 1), "g/inner/o");
    assert_string_equal(tn_map_layer_name(m, 2), "b");
    assert_true(tn_map_layer_flags(m, 0) & TN_LAYER_HIDDEN);
    assert_true(tn_map_layer_flags(m, 1) & TN_LAYER_HIDDEN);
    assert_false(tn_map_layer_flags(m, 2) & TN_LAYER_HIDDEN);
    assert_true(tn_map_layer_flags(m, 0) & TN_LAYER_TERRAIN);
    assert_int_equal(tn_map_get(m, 0, 0, 0), 2147483647u);
    assert_int_equal(tn_gid_id(tn_map_get(m, 0, 0, 0)), 0x0FFFFFFFu);
    assert_int_equal(tn_map_get(m, 0, 1, 0), 4294967295u);
    assert_int_equal(tn_map_get(m, 0, 2, 0), 2147483649u);
    assert_int_equal(tn_gid_id(tn_map_get(m, 0, 2, 0)), 1u);
    assert_int_equal(tn_gid_flags(tn_map_get(m, 0, 2, 0)), TN_GID_FLIP_H);
    /* legacy properties: gid 5 blocked, gid 1 cost 4 */
    assert_false(tn_map_passable(m, 1, 0));
    assert_true(tn_map_cost(m, 2, 0) == 4.0f); /* layer a holds gid 1 (flipped) there */
    assert_int_equal(tn_map_passable_count(m), 2);
    assert_int_equal(tn_map_object_count(m), 3);
    const tn_map_object *p = tn_map_find_object(m, "p");
    assert_int_equal(p->shape, 1);
    assert_int_equal(p->id, 7);
    assert_true(p->x == 5.5f && p->y == 6.0f && p->w == 0.0f);
    assert_int_equal(p->layer, 1);
    const tn_map_object *poly = tn_map_find_object(m, "poly");
    assert_int_equal(poly->shape, 3);
    assert_true(poly->x == 6.0f && poly->y == 18.0f && poly->w == 10.0f && poly->h == 5.0f);
    const tn_map_object *tile = tn_map_find_object(m, "tile");
    assert_int_equal(tile->gid, 2147483650u);
    assert_string_equal(tile->type, "door");
    assert_true(tile->x == 32.0f && tile->y == 32.0f); /* bottom-left anchor moved to top-left */
    tn_map_destroy(m);

    /* no name: detection from the content, messages say <input> */
    const char *tiny = "{\"width\":1,\"height\":1,\"tilewidth\":4,\"tileheight\":4,\"layers\":[]}";
    assert_int_equal(tn_map_parse(tiny, strlen(tiny), NULL, NULL, &m, &d), TN_OK);
    assert_int_equal(tn_map_layer_count(m), 0);
    tn_map_destroy(m);
    assert_int_equal(tn_map_parse(tiny, 5, NULL, NULL, &m, &d), TN_E_PARSE);
    char msg[512];
    tn_diag_format(&d, msg, sizeof msg);
    assert_non_null(strstr(msg, "<input>:1:6: truncated JSON"));

    /* infinite map: bounds from chunks (negative ones too), origin recorded, objects shifted */
    const char *inf =
        "{\"width\": 1, \"height\": 1, \"tilewidth\": 10, \"tileheight\": 10, \"infinite\": true,"
        " \"layers\": [{\"type\": \"tilelayer\", \"name\": \"t\", \"chunks\": ["
        "  {\"x\": -2, \"y\": -1, \"width\": 2, \"height\": 1, \"data\": [1, 2]},"
        "  {\"x\": 1, \"y\": 1, \"width\": 1, \"height\": 2, \"data\": [3, 4]}]},"
        " {\"type\": \"objectgroup\", \"name\": \"o\", \"objects\": ["
        "  {\"name\": \"q\", \"point\": true, \"x\": 0, \"y\": 0}]}]}";
    assert_int_equal(parse(inf, "i.json", &m, &d), TN_OK);
    assert_int_equal(tn_map_width(m), 4);
    assert_int_equal(tn_map_height(m), 4);
    assert_int_equal(tn_map_get(m, 0, 0, 0), 1u);
    assert_int_equal(tn_map_get(m, 0, 1, 0), 2u);
    assert_int_equal(tn_map_get(m, 0, 3, 2), 3u);
    assert_int_equal(tn_map_get(m, 0, 3, 3), 4u);
    assert_int_equal(tn_map_get(m, 0, 2, 2), 0u);
    const tn_map_object *org = tn_map_find_object(m, "origin");
    assert_string_equal(org->type, "tilenav:origin");
    assert_true(org->x == -20.0f && org->y == -10.0f);
    const tn_map_object *q = tn_map_find_object(m, "q");
    assert_true(q->x == 20.0f && q->y == 10.0f);
    tn_map_destroy(m);
}

/* A 2 x 1 map of gids 10 and 11 whose tileset (first gid 10) is the external file `source`
 * (JSON text: a '\\' is written "\\\\"). */
static void write_external_map(const char *path, const char *source)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f,
            "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": ["
            "{\"type\": \"tilelayer\", \"name\": \"t\", \"data\": [10, 11]}],"
            " \"tilesets\": [{\"firstgid\": 10, \"source\": \"%s\"}]}",
            source);
    fclose(f);
}

/* External tilesets are read relative to the map's folder. */
static void test_external_tileset(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_tiled_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[512], ts[512], mp[512];
    snprintf(sub, sizeof sub, "%s/sets", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(ts, sizeof ts, "%s/sets/walls.tsj", dir);
    FILE *f = fopen(ts, "wb");
    fputs("{\"type\": \"tileset\", \"name\": \"walls\", \"image\": \"walls.png\", \"tilecount\": 2,"
          " \"tiles\": [{\"id\": 1, \"properties\": [{\"name\": \"Collides\", \"type\": \"bool\","
          " \"value\": true}]}]}",
          f);
    fclose(f);
    snprintf(mp, sizeof mp, "%s/m.tmj", dir);
    write_external_map(mp, "sets/walls.tsj");
    tn_map *m = load_ok(mp);
    assert_true(tn_map_passable(m, 0, 0));
    assert_false(tn_map_passable(m, 1, 0));
    char want[600];
    snprintf(want, sizeof want, "%s/sets/walls.png", dir);
    assert_string_equal(tn_map_tileset_at(m, 0)->image, want);
    assert_int_equal(tn_map_tileset_at(m, 0)->first_gid, 10);
    tn_map_destroy(m);
    /* a '\\' between folders inside a map file (written by hand or by a tool on Windows) is a
     * separator too, on every system */
    char mp2[512];
    snprintf(mp2, sizeof mp2, "%s/m2.tmj", dir);
    write_external_map(mp2, "sets\\\\walls.tsj");
    m = load_ok(mp2);
    assert_false(tn_map_passable(m, 1, 0));
    assert_string_equal(tn_map_tileset_at(m, 0)->image, want);
    tn_map_destroy(m);
    remove(mp2);
    /* the missing-tileset error names the file it looked for */
    remove(ts);
    tn_diag d;
    assert_int_equal(tn_map_load(mp, NULL, &m, &d), TN_E_IO);
    assert_null(m);
    assert_non_null(strstr(d.message, "sets/walls.tsj"));
    assert_non_null(strstr(d.message, "external tileset"));
    assert_string_equal(d.where, "tilesets[0].source");
    assert_string_equal(d.file, mp);
    /* a file the map names that is no tileset (a map may name any file it can read): the error
     * gives its place, not its text */
    f = fopen(ts, "wb");
    fputs("root:x:0:0:secret-text\n", f);
    fclose(f);
    assert_int_equal(tn_map_load(mp, NULL, &m, &d), TN_E_PARSE);
    assert_null(strstr(d.message, "secret"));
    assert_null(strstr(d.message, "root"));
    assert_non_null(strstr(d.message, "not quoted"));
    remove(ts);
    remove(mp);
    rmdir(sub);
    rmdir(dir);
}

/* ---- malformed input --------------------------------------------------------------------- */

/* status, message fragment, and either (line, col) or a where path */
static void expect_err_opts(const char *text, size_t len, const tn_load_def *o, tn_status want,
                            const char *fragment, int line, int col, const char *where)
{
    tn_map *m = (tn_map *)0x1;
    tn_diag d;
    memset(&d, 0, sizeof d);
    tn_status st = tn_map_parse(text, len, "bad.tmj", o, &m, &d);
    char msg[1024];
    tn_diag_format(&d, msg, sizeof msg);
    bool place = where ? strcmp(d.where, where) == 0 : (d.line == line && d.column == col);
    if (st != want || !strstr(d.message, fragment) || !place || strcmp(d.file, "bad.tmj") != 0)
        fail_msg("got %d '%s' (where '%s' line %d col %d), want %d '%s' at %s / %d:%d", st, msg,
                 d.where, d.line, d.column, want, fragment, where ? where : "-", line, col);
    assert_null(m);
}

static void expect_err(const char *text, tn_status want, const char *fragment, int line, int col,
                       const char *where)
{
    tn_load_def o = tn_load_def_default();
    o.format = TN_FORMAT_TILED;
    expect_err_opts(text, strlen(text), &o, want, fragment, line, col, where);
}

#define HEAD "{\"width\":2,\"height\":2,\"tilewidth\":32,\"tileheight\":32,"
#define LAYER(extra, data)                                                                         \
    "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"L\"" extra ",\"data\":" data "}]}"

static void test_malformed(void **state)
{
    (void)state;
    /* 1-2 broken JSON text, with line and column */
    expect_err(HEAD "\n\"layers\": [", TN_E_PARSE, "truncated JSON", 2, 12, NULL);
    expect_err("{\"width\": 2,\n  \"height\": ,}", TN_E_PARSE, "invalid JSON", 2, 13, NULL);
    {
        const char *t = HEAD LAYER("", "[1,2,3,4]") " x";
        expect_err(t, TN_E_PARSE, "unexpected text after", 1, (int)strlen(t), NULL);
    }
    expect_err("[1, 2]", TN_E_PARSE, "JSON object", 1, 1, NULL);
    /* 4b text that is not UTF-8 (cJSON passed it into names): Latin-1, an overlong '/', a
     * surrogate, a 4-byte form past U+10FFFF, a character cut short; then an empty file */
    expect_err(HEAD "\n\"name\": \"caf\xE9\xFF\xFE\"}", TN_E_PARSE, "not UTF-8 (byte 0xE9)", 2, 13,
               NULL);
    expect_err(HEAD "\"name\": \"\xC0\xAF\"}", TN_E_PARSE, "not UTF-8 (byte 0xC0)", 1, 63, NULL);
    expect_err(HEAD "\"name\": \"\xED\xA0\x80\"}", TN_E_PARSE, "not UTF-8 (byte 0xED)", 1, 63,
               NULL);
    expect_err(HEAD "\"name\": \"\xF4\x90\x80\x80\"}", TN_E_PARSE, "not UTF-8 (byte 0xF4)", 1, 63,
               NULL);
    expect_err(HEAD "\"name\": \"\xE2\x82", TN_E_PARSE, "not UTF-8 (byte 0xE2)", 1, 63, NULL);
    expect_err("", TN_E_PARSE, "the file is empty", 1, 1, NULL);
    expect_err(" \n\t\r\n", TN_E_PARSE, "only white space", 1, 1, NULL);
    {
        /* UTF-8 of every length loads: a BOM, then 2-, 3- and 4-byte characters in a name */
        const char *t = "\xEF\xBB\xBF" HEAD "\"layers\":[{\"type\":\"tilelayer\","
                        "\"name\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x97\xBA\","
                        "\"data\":[0,0,0,0]}]}";
        tn_map *m = NULL;
        tn_diag d;
        assert_int_equal(tn_map_parse(t, strlen(t), "ok.tmj", NULL, &m, &d), TN_OK);
        assert_string_equal(tn_map_layer_name(m, 0), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x97\xBA");
        tn_map_destroy(m);
    }
    /* 5 wrong data length */
    expect_err(HEAD LAYER("", "[1,2,3]"), TN_E_PARSE, "has 3 gids, expected 2 x 2 = 4", 0, 0,
               "layers[0].data");
    /* 6-8 bad header numbers */
    expect_err(
        "{\"width\":2147483648,\"height\":1,\"tilewidth\":32,\"tileheight\":32,\"layers\":[]}",
        TN_E_TOO_LARGE, "past the limit", 0, 0, "width");
    expect_err("{\"width\":-3,\"height\":1,\"tilewidth\":32,\"tileheight\":32,\"layers\":[]}",
               TN_E_PARSE, "must be >= 1", 0, 0, "width");
    expect_err("{\"width\":\"10\",\"height\":1,\"tilewidth\":32,\"tileheight\":32,\"layers\":[]}",
               TN_E_PARSE, "expected a whole number, found a string", 0, 0, "width");
    expect_err("{\"width\":4,\"height\":1,\"tilewidth\":32.5,\"tileheight\":32,\"layers\":[]}",
               TN_E_PARSE, "whole number", 0, 0, "tilewidth");
    /* 10 bad gids */
    expect_err(HEAD LAYER("", "[1,2,1.5,4]"), TN_E_PARSE, "whole number", 0, 0,
               "layers[0].data[2]");
    expect_err(HEAD LAYER("", "[1,2,3,4294967296]"), TN_E_PARSE, "[0, 4294967295]", 0, 0,
               "layers[0].data[3]");
    expect_err(HEAD LAYER("", "[1,-1,3,4]"), TN_E_PARSE, "[0, 4294967295]", 0, 0,
               "layers[0].data[1]");
    expect_err(HEAD LAYER("", "[1,\"2\",3,4]"), TN_E_PARSE, "found a string", 0, 0,
               "layers[0].data[1]");
    /* 14-19 encodings and compressions */
    expect_err(HEAD LAYER(",\"encoding\":\"base64\"", "\"AAAA!AAA\""), TN_E_PARSE,
               "bad base64 character '!'", 0, 0, "layers[0].data");
    expect_err(HEAD LAYER(",\"encoding\":\"base64\"", "\"AAAAAAAA\""), TN_E_PARSE,
               "decodes to 6 bytes, expected 2 x 2 cells x 4 = 16", 0, 0, "layers[0].data");
    expect_err(HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"zlib\"", "\"AAAAAAAAAAA=\""),
               TN_E_PARSE, "bad zlib data", 0, 0, "layers[0].data");
    expect_err(HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"gzip\"", "\"H4sIAAAAAAAA\""),
               TN_E_PARSE, "gzip data is truncated", 0, 0, "layers[0].data");
    expect_err(HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"gzip\"", "\"q83vq83vq83v\""),
               TN_E_PARSE, "bad gzip data", 0, 0, "layers[0].data");
    /* a block of the reserved type; then an RLE block of 1.96 M bytes (header bytes ab cd ef) */
    expect_err(HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"zstd\"", "\"KLUv/QBYBwAA\""),
               TN_E_PARSE, "bad zstd data", 0, 0, "layers[0].data");
    expect_err(
        HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"zstd\"", "\"KLUv/QBYq83vq83v\""),
        TN_E_PARSE, "zstd data decompresses to more than the expected 16 bytes", 0, 0,
        "layers[0].data");
    expect_err(HEAD LAYER(",\"encoding\":\"hex\"", "\"00\""), TN_E_PARSE, "unknown encoding 'hex'",
               0, 0, "layers[0].data");
    expect_err(HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"lz4\"", "\"AAAA\""),
               TN_E_PARSE, "unknown compression 'lz4'", 0, 0, "layers[0].data");
    /* 22 a zlib stream holding more than W*H*4 bytes is cut off, not inflated into memory */
    {
        uint32_t g[64] = {0};
        char b64[1024], text[2048];
        tn_test_encode_gids(g, 64, "zlib", b64);
        snprintf(text, sizeof text,
                 HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"zlib\"", "\"%s\""), b64);
        expect_err(text, TN_E_PARSE, "more than the expected 16 bytes", 0, 0, "layers[0].data");
        tn_test_encode_gids(g, 2, "zstd", b64);
        snprintf(text, sizeof text,
                 HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"zstd\"", "\"%s\""), b64);
        expect_err(text, TN_E_PARSE, "decompresses to 8 bytes, expected 16", 0, 0,
                   "layers[0].data");
        tn_test_encode_gids(g, 64, "zstd", b64);
        snprintf(text, sizeof text,
                 HEAD LAYER(",\"encoding\":\"base64\",\"compression\":\"zstd\"", "\"%s\""), b64);
        expect_err(text, TN_E_PARSE, "zstd data decompresses to more than", 0, 0, "layers[0].data");
    }
    /* 25 2^20 layers: refused past TN_MAX_LAYERS before anything is built */
    {
        size_t n = (size_t)1 << 20, cap = n * 40 + 256;
        char *text = malloc(cap);
        size_t o = (size_t)snprintf(text, cap, HEAD "\"layers\":[");
        for (size_t i = 0; i < n; i++)
            o += (size_t)snprintf(text + o, cap - o, "%s{\"type\":\"objectgroup\"}", i ? "," : "");
        o += (size_t)snprintf(text + o, cap - o, "]}");
        tn_load_def opt = tn_load_def_default();
        expect_err_opts(text, o, &opt, TN_E_TOO_LARGE, "more than 1024 layers", 0, 0,
                        "layers[1024]");
        free(text);
    }
    /* 27 missing layers / unknown layer type / non-orthogonal / tileset oddities */
    expect_err(HEAD "\"tilesets\":[]}", TN_E_PARSE, "missing field", 0, 0, "layers");
    expect_err(HEAD "\"layers\":[{\"type\":\"hexlayer\"}]}", TN_E_PARSE, "unknown layer type", 0, 0,
               "layers[0].type");
    expect_err(HEAD "\"orientation\":\"isometric\",\"layers\":[]}", TN_E_UNSUPPORTED,
               "'isometric' maps are not supported", 0, 0, "orientation");
    expect_err(HEAD "\"layers\":[],\"tilesets\":[{\"firstgid\":1,\"source\":\"t.tsx\"}]}", TN_E_IO,
               "external tileset 't.tsx'", 0, 0, "tilesets[0].source");
    expect_err(HEAD "\"layers\":[],\"tilesets\":[{\"firstgid\":1,\"source\":\"no/such.tsj\"}]}",
               TN_E_IO, "external tileset 'no/such.tsj'", 0, 0, "tilesets[0].source");
    expect_err(HEAD "\"layers\":[],\"tilesets\":[{\"firstgid\":0}]}", TN_E_PARSE, "outside [1,", 0,
               0, "tilesets[0].firstgid");
    expect_err(HEAD "\"layers\":[],\"tilesets\":[{\"firstgid\":1,\"tiles\":[{\"id\":0,"
                    "\"properties\":[{\"name\":\"cost\",\"type\":\"float\",\"value\":-1}]}]}]}",
               TN_E_PARSE, "terrain cost 'cost' must be a number > 0", 0, 0,
               "tilesets[0].tiles[0].properties[0].value");
    /* 34 a layer of another size than the map */
    expect_err(HEAD LAYER(",\"width\":3", "[1,2,3,4]"), TN_E_PARSE, "layer is 3 x 2 cells", 0, 0,
               "layers[0]");
    /* 35-37 infinite maps */
    expect_err("{\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"infinite\":true,"
               "\"layers\":[{\"type\":\"tilelayer\",\"chunks\":[{\"x\":0,\"y\":0,\"width\":4,"
               "\"height\":4,\"data\":[0]},{\"x\":4,\"y\":0,\"width\":4,\"height\":4,\"data\":"
               "[1,2,3]}]}]}",
               TN_E_PARSE, "has 1 gids, expected 4 x 4 = 16", 0, 0, "layers[0].chunks[0].data");
    expect_err("{\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"infinite\":true,"
               "\"layers\":[{\"type\":\"tilelayer\",\"chunks\":[{\"x\":-2000000000,\"y\":0,"
               "\"width\":16,\"height\":16,\"data\":[]},{\"x\":2000000000,\"y\":0,\"width\":16,"
               "\"height\":16,\"data\":[]}]}]}",
               TN_E_TOO_LARGE, "past the limit", 0, 0, "layers");
    expect_err("{\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"infinite\":true,"
               "\"layers\":[{\"type\":\"tilelayer\",\"chunks\":[{\"x\":0,\"y\":0,\"width\":0,"
               "\"height\":16,\"data\":[]}]}]}",
               TN_E_PARSE, "outside [1, 65536]", 0, 0, "layers[0].chunks[0].width");
    /* 38 objects: a bad coordinate */
    expect_err(HEAD
               "\"layers\":[{\"type\":\"objectgroup\",\"objects\":[{\"x\":1},{\"x\":\"a\"}]}]}",
               TN_E_PARSE, "expected a number", 0, 0, "layers[0].objects[1].x");
    /* 39 many tile layers whose total is past max_layer_cells */
    {
        tn_load_def opt = tn_load_def_default();
        opt.max_layer_cells = 7;
        const char *t = HEAD "\"layers\":[{\"type\":\"tilelayer\",\"data\":[0,0,0,0]},"
                             "{\"type\":\"tilelayer\",\"data\":[0,0,0,0]}]}";
        expect_err_opts(t, strlen(t), &opt, TN_E_TOO_LARGE, "max_layer_cells", 0, 0, "layers");
        opt.max_json_values = 5;
        expect_err_opts(t, strlen(t), &opt, TN_E_TOO_LARGE, "more than 5 JSON values", 1,
                        (int)strlen(HEAD), NULL);
    }
    /* 40 no tile layer at all: the map's own cells count as one layer */
    {
        tn_load_def opt = tn_load_def_default();
        opt.max_layer_cells = 3;
        const char *t = HEAD "\"layers\":[]}";
        expect_err_opts(t, strlen(t), &opt, TN_E_TOO_LARGE, "max_layer_cells", 0, 0, "layers");
    }
}

/* A counting allocator: the loader's peak use for tiny hostile files stays tiny. */
typedef struct counter {
    size_t now, peak;
} counter;

static void *count_alloc(size_t size, size_t align, void *user)
{
    (void)align;
    counter *c = user;
    c->now += size;
    c->peak = c->now > c->peak ? c->now : c->peak;
    return malloc(size);
}

static void count_free(void *ptr, size_t size, void *user)
{
    counter *c = user;
    c->now -= size;
    free(ptr);
}

static void test_no_overallocation(void **state)
{
    (void)state;
    /* a 16384 x 16384 map (2^28 cells, the limit) whose data cannot hold it */
    static const char *const bombs[][2] = {
        {"\"encoding\":\"base64\",\"compression\":\"zlib\",", "\"eJwDAAAAAAE=\""},
        {"\"encoding\":\"base64\",\"compression\":\"zstd\",", "\"KLUv/QBYq83vq83v\""},
        {"\"encoding\":\"base64\",", "\"AAAAAAAA\""},
        {"", "[0, 0, 0]"},
    };
    static const char *const frag[] = {"cannot hold 16384 x 16384", "cannot hold 16384 x 16384",
                                       "decodes to 6 bytes", "has 3 gids"};
    for (size_t i = 0; i < 4; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"width\":16384,\"height\":16384,\"tilewidth\":8,\"tileheight\":8,"
                 "\"layers\":[{\"type\":\"tilelayer\",%s\"data\":%s}]}",
                 bombs[i][0], bombs[i][1]);
        counter c = {0, 0};
        tn_load_def o = tn_load_def_default();
        o.allocator = (tn_allocator){count_alloc, count_free, &c};
        expect_err_opts(text, strlen(text), &o, TN_E_PARSE, frag[i], 0, 0, "layers[0].data");
        assert_true(c.peak < 65536);
        assert_int_equal(c.now, 0);
    }
    /* the same allocator on a real map: everything is returned */
    char path[1024];
    counter c = {0, 0};
    tn_load_def o = tn_load_def_default();
    o.allocator = (tn_allocator){count_alloc, count_free, &c};
    tn_map *m = NULL;
    tn_diag d;
    assert_int_equal(
        tn_map_load(tn_test_shared(path, sizeof path, "bench/tiled/excalibur/test-gzip.json"), &o,
                    &m, &d),
        TN_OK);
    assert_true(c.now > 0);
    tn_map_destroy(m);
    assert_int_equal(c.now, 0);
}

static void test_nesting_bomb(void **state)
{
    (void)state;
    size_t n = 100000;
    char *text = malloc(n);
    memset(text, '[', n);
    text[0] = '{';
    tn_load_def o = tn_load_def_default();
    o.format = TN_FORMAT_TILED;
    expect_err_opts(text, n, &o, TN_E_TOO_LARGE, "nesting deeper than 64", 1, 65, NULL);
    free(text);
}

/* Seeded mutations of valid files (byte flips, cuts, duplicated spans): each load either
 * succeeds or fails with a message; never a crash, a leak (under ASan) or a hang. */
static void test_mutations(void **state)
{
    (void)state;
    uint32_t g[24];
    for (int i = 0; i < 24; i++)
        g[i] = (uint32_t)(i % 5) | (i % 7 == 0 ? TN_GID_FLIP_V : 0);
    char b64z[512], b64s[512], seeds[3][2048];
    tn_test_encode_gids(g, 24, "zlib", b64z);
    tn_test_encode_gids(g, 24, "zstd", b64s);
    snprintf(seeds[0], sizeof seeds[0],
             "{\"width\":6,\"height\":4,\"tilewidth\":8,\"tileheight\":8,\"layers\":["
             "{\"type\":\"tilelayer\",\"name\":\"z\",\"encoding\":\"base64\","
             "\"compression\":\"zlib\",\"data\":\"%s\"},{\"type\":\"group\",\"name\":\"g\","
             "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"s\",\"encoding\":\"base64\","
             "\"compression\":\"zstd\",\"data\":\"%s\"}]},{\"type\":\"objectgroup\","
             "\"objects\":[{\"name\":\"p\",\"point\":true,\"x\":3,\"y\":4},{\"polygon\":"
             "[{\"x\":1,\"y\":2}],\"x\":0,\"y\":0}]}],\"tilesets\":[{\"firstgid\":1,"
             "\"tiles\":[{\"id\":1,\"properties\":[{\"name\":\"cost\",\"value\":2}]}]}]}",
             b64z, b64s);
    snprintf(seeds[1], sizeof seeds[1],
             "{\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"infinite\":true,"
             "\"layers\":[{\"type\":\"tilelayer\",\"chunks\":[{\"x\":-4,\"y\":0,\"width\":"
             "2,\"height\":2,\"data\":[1,0,2147483650,3]},{\"x\":0,\"y\":-2,\"width\":1,"
             "\"height\":1,\"data\":[4]}]}]}");
    snprintf(seeds[2], sizeof seeds[2],
             "tilenav-ascii 1\nsize 4 3\ntile 8 8\nlegend . 0\nlegend # 1 block\n"
             "legend ~ 2 cost 2.5\nlayer a\n.#~.\n....\n~~##\nobjects o\npoint p 1 1\n"
             "rect r 0 0 2 2 t\n");
    tn_test_rng rng = {4242};
    char buf[4096];
    int ok = 0, bad = 0;
    for (int round = 0; round < 3000; round++) {
        const char *seed = seeds[round % 3];
        size_t n = strlen(seed);
        memcpy(buf, seed, n);
        int edits = 1 + (int)tn_test_below(&rng, 4);
        for (int e = 0; e < edits; e++) {
            uint32_t kind = tn_test_below(&rng, 4), at = tn_test_below(&rng, (uint32_t)n);
            static const char junk[] = "{}[],:\"0123456789-.eE \ntruefalsnl#~@";
            if (kind == 0)
                buf[at] = junk[tn_test_below(&rng, sizeof junk - 1)];
            else if (kind == 1)
                n = at + 1;                              /* cut */
            else if (kind == 2 && n + 16 < sizeof buf) { /* duplicate a span */
                uint32_t len = 1 + tn_test_below(&rng, 16);
                if (at + len > n)
                    len = (uint32_t)(n - at);
                memmove(buf + at + len, buf + at, n - at);
                n += len;
            } else {
                buf[at] = (char)tn_test_below(&rng, 256);
            }
        }
        tn_map *m = NULL;
        tn_diag d;
        memset(&d, 0, sizeof d);
        tn_status st = tn_map_parse(buf, n, round % 3 == 2 ? "f.txt" : "f.json", NULL, &m, &d);
        if (st == TN_OK) {
            ok++;
            assert_non_null(m);
            tn_map_destroy(m);
        } else {
            bad++;
            assert_null(m);
            assert_true(st < 0);
            assert_true(d.message[0] != 0);
        }
    }
    assert_true(ok > 0 && bad > 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_encodings_random), cmocka_unit_test(test_features),
        cmocka_unit_test(test_external_tileset), cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_nesting_bomb),     cmocka_unit_test(test_mutations),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_bench_maps),
        cmocka_unit_test(test_bench_details),
        cmocka_unit_test(test_no_overallocation),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), shared_tests,
                       TN_TEST_COUNT(shared_tests), NULL, 0);
}
