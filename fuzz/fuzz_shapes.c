/* libFuzzer target: Tiled's collision conventions (tile collision shapes, collision object
 * layers, tile objects, flips, rotations, every cover rule) through the Tiled JSON loader.
 *
 * The fuzzer's bytes do not go to the parser as text (fuzz_tiled does that): they choose a
 * small map, a tileset whose tiles carry shapes, a tile layer of those tiles (flip bits too)
 * and a collision object layer, with coordinates from a table of awkward values (negative,
 * fractional, huge, far outside the map) and the loader options. Every accepted map is checked:
 * passability equals a recount from the layers and the terrain table, the report's total equals
 * the blocked cells, no convention blocks more cells than the map has, and every cell of the
 * generated collision layer is blocked. Every failure carries a message. */
#include "fuzz_check.h"
#include "tilenav/io.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static unsigned byte(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* A coordinate: mostly small whole and half numbers, sometimes awkward ones. */
static double coord(reader *r)
{
    static const double odd[16] = {-1e300, -1e9,  -64.5, -1.0,   -1e-9, 0.0,   1e-9, 0.25,
                                   0.5,    31.99, 32.0,  1e-300, 1e9,   1e300, 7.75, 1024.0};
    unsigned b = byte(r);
    if (b >= 240)
        return odd[b & 15];
    return (double)b * 0.5 - 16.0;
}

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < t->cap - t->len)
        t->len += (size_t)n;
    else
        t->len = t->cap; /* full: the document is cut and fails to parse, which is fine too */
}

/* One shape object; `tile` objects may carry a gid. */
static void shape(text *t, reader *r, int id, bool allow_gid, unsigned ntiles)
{
    unsigned kind = byte(r) % 6;
    double x = coord(r), y = coord(r), sw = coord(r), sh = coord(r); /* in this order */
    put(t, "{\"id\":%d,\"name\":\"s%d\",\"x\":%.17g,\"y\":%.17g,\"width\":%.17g,\"height\":%.17g",
        id, id, x, y, sw, sh);
    unsigned rot = byte(r);
    if (rot & 1)
        put(t, ",\"rotation\":%.17g", rot < 128 ? (double)(rot % 8) * 45.0 : coord(r));
    switch (kind) {
    case 1: put(t, ",\"ellipse\":true"); break;
    case 2: put(t, ",\"point\":true"); break;
    case 3:
    case 4: {
        put(t, ",\"%s\":[", kind == 3 ? "polygon" : "polyline");
        unsigned np = byte(r) % 9;
        for (unsigned k = 0; k < np; k++) {
            double px = coord(r), py = coord(r);
            put(t, "%s{\"x\":%.17g,\"y\":%.17g}", k ? "," : "", px, py);
        }
        put(t, "]");
        break;
    }
    case 5:
        if (allow_gid && ntiles) {
            uint32_t flags = (uint32_t)(byte(r) & 7u) << 29;
            uint32_t tile = 1u + byte(r) % ntiles;
            put(t, ",\"gid\":%u", (unsigned)(tile | flags));
        }
        break;
    default: break;
    }
    put(t, "}");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    int w = 1 + (int)(byte(&r) % 16), h = 1 + (int)(byte(&r) % 16);
    int tw = 4 + (int)(byte(&r) % 61), th = 4 + (int)(byte(&r) % 61);
    int ttw = tw, tth = th; /* tileset tiles: maybe of another size (up to 4 cells a side) */
    if (byte(&r) & 1)
        ttw = 4 + (int)(byte(&r) % (unsigned)(4 * tw - 3));
    if (byte(&r) & 1)
        tth = 4 + (int)(byte(&r) % (unsigned)(4 * th - 3));
    unsigned ntiles = 1 + byte(&r) % 3;
    tn_load_def o = tn_load_def_default();
    o.cover = (tn_cover_rule)(byte(&r) % 3);
    o.collision = byte(&r) & 7u;
    tn_load_report rep;
    memset(&rep, 0, sizeof rep);
    o.report = &rep;

    text t = {malloc(1 << 16), 0, 1 << 16};
    if (!t.s)
        return 0;
    put(&t,
        "{\"width\":%d,\"height\":%d,\"tilewidth\":%d,\"tileheight\":%d,"
        "\"orientation\":\"orthogonal\",\"infinite\":false,\"tilesets\":[{\"firstgid\":1,"
        "\"name\":\"t\",\"tilewidth\":%d,\"tileheight\":%d,\"tilecount\":%u,\"columns\":%u,"
        "\"tiles\":[",
        w, h, tw, th, ttw, tth, ntiles, ntiles);
    int id = 1;
    for (unsigned k = 0; k < ntiles; k++) {
        put(&t,
            "%s{\"id\":%u,\"objectgroup\":{\"type\":\"objectgroup\",\"name\":\"\",\"objects\":[",
            k ? "," : "", k);
        unsigned ns = byte(&r) % 4;
        for (unsigned s = 0; s < ns; s++) {
            if (s)
                put(&t, ",");
            shape(&t, &r, id++, false, 0);
        }
        put(&t, "]}}");
    }
    put(&t,
        "]}],\"layers\":[{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":%d,"
        "\"height\":%d,\"data\":[",
        w, h);
    for (int c = 0; c < w * h; c++) {
        unsigned b = byte(&r);
        uint32_t gid = b % 4 == 0 ? 0u : (1u + b % ntiles) | ((uint32_t)(b >> 5) << 29);
        put(&t, "%s%u", c ? "," : "", (unsigned)gid);
    }
    static const char *const names[4] = {"collision", "Walls", "decor", "solid"};
    const char *lname = names[byte(&r) % 4];
    const char *visible = byte(&r) & 1 ? "true" : "false";
    put(&t, "]},{\"type\":\"objectgroup\",\"name\":\"%s\",\"visible\":%s,\"objects\":[", lname,
        visible);
    unsigned nobj = byte(&r) % 7;
    for (unsigned k = 0; k < nobj; k++) {
        if (k)
            put(&t, ",");
        shape(&t, &r, id++, true, ntiles);
    }
    put(&t, "]}]}");

    tn_map *m = NULL;
    tn_diag d;
    tn_status st = tn_map_parse(t.s, t.len, "fuzz-shapes.tmj", &o, &m, &d);
    free(t.s);
    if (st != TN_OK) {
        if (m != NULL || d.message[0] == '\0')
            abort();
        return 0;
    }
    int32_t cells = tn_map_width(m) * tn_map_height(m), pass = fuzz_recount(m), blocked_layer = 0;
    int32_t coll = tn_map_find_layer(m, TN_COLLISION_LAYER);
    for (int32_t y = 0; y < tn_map_height(m) && coll >= 0; y++)
        for (int32_t x = 0; x < tn_map_width(m); x++)
            if (tn_map_get(m, coll, x, y) != 0) {
                blocked_layer++;
                if (tn_map_passable(m, x, y))
                    abort();
            }
    if (rep.cells_blocked != cells - pass)
        abort();
    if (rep.blocked_by_properties < 0 || rep.blocked_by_properties > cells ||
        rep.blocked_by_tile_shapes < 0 || rep.blocked_by_tile_shapes > cells ||
        rep.blocked_by_object_layers < 0 || rep.blocked_by_object_layers > cells)
        abort();
    if (!(o.collision & (TN_COLLIDE_TILE_SHAPES | TN_COLLIDE_OBJECT_LAYERS)) && blocked_layer)
        abort();
    tn_map_destroy(m);
    return 0;
}
