/* tilenav ASCII maps: a small line-based text format for tests, docs and hand-made levels.
 * The grammar is in docs/formats.md; in short:
 *
 *     tilenav-ascii 1
 *     size W H                     cells (required, before the first layer)
 *     tile TW TH                   pixels per cell (optional)
 *     legend C GID [pass|block] [cost X]
 *     layer NAME [hidden] [noterrain]
 *     <H rows of exactly W legend characters>
 *     objects NAME
 *     point NAME X Y [TYPE]        a point at the centre of cell (X, Y)
 *     rect NAME X Y W H [TYPE]     a rectangle covering W x H cells from cell (X, Y)
 *
 * Blank lines and lines starting with '#' are ignored outside layer rows. */
#include "io_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define AS_MAX_TOK 12

typedef struct as_legend {
    bool used;
    uint32_t gid;
    bool has_terrain;
    tn_terrain terrain;
} as_legend;

typedef struct as_ctx {
    const char *name;
    tn_diag *diag;
    const tn_load_def *o;
    const char *p, *end;
    int32_t line;
    const char *tok[AS_MAX_TOK];
    size_t tlen[AS_MAX_TOK];
    int32_t tcol[AS_MAX_TOK];
    int ntok;
    as_legend legend[128];
    int64_t w, h, tw, th;
    tn_map *m;
    int32_t object_layer;
    size_t cells_used;
} as_ctx;

static bool next_line(as_ctx *c, const char **s, size_t *n)
{
    if (c->p >= c->end)
        return false;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *e = nl ? nl : c->end;
    *s = c->p;
    *n = (size_t)(e - c->p);
    if (*n && (*s)[*n - 1] == '\r')
        (*n)--;
    c->p = nl ? nl + 1 : c->end;
    c->line++;
    return true;
}

static tn_status fail(as_ctx *c, tn_status st, int32_t col, const char *fmt, ...) TN_PRINTF(4, 5);

static tn_status fail(as_ctx *c, tn_status st, int32_t col, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tn__diag(c->diag, st, c->name, c->line, col, NULL, "%s", msg);
}

/* Split on blanks; false when there are more than AS_MAX_TOK tokens. */
static bool tokenize(as_ctx *c, const char *s, size_t n)
{
    c->ntok = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n)
            break;
        if (c->ntok == AS_MAX_TOK)
            return false;
        c->tok[c->ntok] = s + i;
        c->tcol[c->ntok] = (int32_t)(i + 1);
        while (i < n && s[i] != ' ' && s[i] != '\t')
            i++;
        c->tlen[c->ntok] = (size_t)(s + i - c->tok[c->ntok]);
        c->ntok++;
    }
    return true;
}

static bool tok_is(const as_ctx *c, int k, const char *word)
{
    return k < c->ntok && c->tlen[k] == strlen(word) && memcmp(c->tok[k], word, c->tlen[k]) == 0;
}

static tn_status tok_int(as_ctx *c, int k, int64_t lo, int64_t hi, const char *what,
                         tn_status range_st, int64_t *out)
{
    if (k >= c->ntok)
        return fail(c, TN_E_PARSE, c->ntok ? c->tcol[c->ntok - 1] : 1, "missing %s", what);
    const char *s = c->tok[k];
    size_t n = c->tlen[k], i = 0;
    bool neg = false;
    if (n && s[0] == '-') {
        neg = true;
        i = 1;
    }
    int64_t v = 0;
    if (i == n)
        return fail(c, TN_E_PARSE, c->tcol[k], "%s must be a whole number", what);
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return fail(c, TN_E_PARSE, c->tcol[k], "%s must be a whole number, found '%.*s'", what,
                        (int)(n > 40 ? 40 : n), s);
        if (v < ((int64_t)1 << 40))
            v = v * 10 + (s[i] - '0');
    }
    v = neg ? -v : v;
    if (v < lo || v > hi)
        return fail(c, range_st, c->tcol[k], "%s %.*s is outside [%lld, %lld]", what,
                    (int)(n > 40 ? 40 : n), s, (long long)lo, (long long)hi);
    *out = v;
    return TN_OK;
}

static tn_status tok_name(as_ctx *c, int k, const char *what, char *out)
{
    if (k >= c->ntok)
        return fail(c, TN_E_PARSE, c->ntok ? c->tcol[c->ntok - 1] : 1, "missing %s", what);
    if (c->tlen[k] >= TN_MAX_NAME)
        return fail(c, TN_E_TOO_LARGE, c->tcol[k], "%s is longer than %d bytes", what,
                    TN_MAX_NAME - 1);
    memcpy(out, c->tok[k], c->tlen[k]);
    out[c->tlen[k]] = '\0';
    return TN_OK;
}

static tn_status do_legend(as_ctx *c)
{
    if (c->ntok < 3)
        return fail(c, TN_E_PARSE, 1, "expected \"legend CHAR GID [pass|block] [cost X]\"");
    if (c->tlen[1] != 1 || (unsigned char)c->tok[1][0] < 0x21 || (unsigned char)c->tok[1][0] > 0x7E)
        return fail(c, TN_E_PARSE, c->tcol[1],
                    "legend character must be one printable ASCII character other than space");
    unsigned char ch = (unsigned char)c->tok[1][0];
    as_legend *L = &c->legend[ch];
    if (L->used)
        return fail(c, TN_E_PARSE, c->tcol[1], "legend character '%c' is defined twice", ch);
    int64_t gid;
    tn_status st = tok_int(c, 2, 0, 0xFFFFFFFFll, "gid", TN_E_PARSE, &gid);
    if (st != TN_OK)
        return st;
    as_legend e = {true, (uint32_t)gid, false, {true, 1.0f}};
    for (int k = 3; k < c->ntok; k++) {
        if (tok_is(c, k, "pass") || tok_is(c, k, "block")) {
            e.has_terrain = true;
            e.terrain.passable = tok_is(c, k, "pass");
        } else if (tok_is(c, k, "cost")) {
            if (k + 1 >= c->ntok)
                return fail(c, TN_E_PARSE, c->tcol[k], "missing the cost value");
            char buf[64];
            size_t n = c->tlen[k + 1] < sizeof buf - 1 ? c->tlen[k + 1] : sizeof buf - 1;
            memcpy(buf, c->tok[k + 1], n);
            buf[n] = '\0';
            char *endp = NULL;
            double v = strtod(buf, &endp);
            if (*endp || n == 0 || !isfinite(v) || !(v > 0.0) || v > 1e9)
                return fail(c, TN_E_PARSE, c->tcol[k + 1],
                            "cost must be a number > 0 and <= 1e9, found '%s'", buf);
            e.has_terrain = true;
            e.terrain.cost = (float)v;
            k++;
        } else {
            return fail(c, TN_E_PARSE, c->tcol[k],
                        "unknown legend word '%.*s' (expected pass, block or cost X)",
                        (int)(c->tlen[k] > 40 ? 40 : c->tlen[k]), c->tok[k]);
        }
    }
    if (e.has_terrain && tn_gid_id(e.gid) == 0)
        return fail(c, TN_E_PARSE, c->tcol[2], "gid 0 is empty ground and cannot carry terrain");
    if (e.has_terrain && tn_gid_id(e.gid) >= TN_MAX_TERRAIN_GID)
        return fail(c, TN_E_TOO_LARGE, c->tcol[2], "gid %u is past the terrain table limit %d",
                    tn_gid_id(e.gid), TN_MAX_TERRAIN_GID);
    for (int k = 0; k < 128 && e.has_terrain; k++) {
        const as_legend *o = &c->legend[k];
        if (o->used && o->has_terrain && tn_gid_id(o->gid) == tn_gid_id(e.gid) &&
            (o->terrain.passable != e.terrain.passable || o->terrain.cost != e.terrain.cost))
            return fail(c, TN_E_PARSE, c->tcol[2],
                        "gid %u already has different terrain (legend '%c')", tn_gid_id(e.gid), k);
    }
    *L = e;
    return TN_OK;
}

static tn_status need_map(as_ctx *c)
{
    if (c->m)
        return TN_OK;
    if (c->w <= 0)
        return fail(c, TN_E_PARSE, 1, "\"size W H\" must come before the first layer or objects");
    /* the map's own per-cell data: one layer's worth (a map with no layer allocates it too) */
    if ((size_t)c->w * (size_t)c->h > c->o->max_layer_cells)
        return fail(c, TN_E_TOO_LARGE, 1,
                    "a map of %lld x %lld cells is past max_layer_cells (%zu)", (long long)c->w,
                    (long long)c->h, c->o->max_layer_cells);
    tn_map_def d = tn_map_def_default();
    d.width = (int32_t)c->w;
    d.height = (int32_t)c->h;
    d.tile_width = (int32_t)c->tw;
    d.tile_height = (int32_t)c->th;
    d.allocator = c->o->allocator;
    tn_status st = tn_map_create(&d, &c->m);
    if (st != TN_OK)
        return fail(c, st, 1, "cannot create the map: %s", tn_status_str(st));
    return TN_OK;
}

static tn_status do_layer(as_ctx *c)
{
    char name[TN_MAX_NAME];
    tn_status st = tok_name(c, 1, "layer name", name);
    uint32_t flags = TN_LAYER_TERRAIN;
    for (int k = 2; k < c->ntok && st == TN_OK; k++) {
        if (tok_is(c, k, "hidden"))
            flags |= TN_LAYER_HIDDEN;
        else if (tok_is(c, k, "noterrain"))
            flags &= ~(uint32_t)TN_LAYER_TERRAIN;
        else
            st = fail(c, TN_E_PARSE, c->tcol[k],
                      "unknown layer flag '%.*s' (expected hidden or noterrain)",
                      (int)(c->tlen[k] > 40 ? 40 : c->tlen[k]), c->tok[k]);
    }
    if (st == TN_OK)
        st = need_map(c);
    if (st != TN_OK)
        return st;
    size_t cells = (size_t)c->w * (size_t)c->h;
    if (cells > c->o->max_layer_cells || c->cells_used > c->o->max_layer_cells - cells)
        return fail(c, TN_E_TOO_LARGE, 1, "the layers hold more than %zu cells (max_layer_cells)",
                    c->o->max_layer_cells);
    c->cells_used += cells;
    /* The rows must be in the buffer before anything is allocated. */
    if ((uint64_t)(c->end - c->p) < (uint64_t)cells)
        return fail(c, TN_E_PARSE, 1, "file too short for %lld rows of %lld cells", (long long)c->h,
                    (long long)c->w);
    int32_t idx;
    st = tn_map_add_layer(c->m, name, TN_LAYER_TILES, &idx);
    if (st == TN_OK)
        st = tn_map_set_layer_flags(c->m, idx, flags);
    if (st != TN_OK)
        return fail(c, st, c->tcol[1], "cannot add the layer: %s", tn_status_str(st));
    uint32_t *gids = tn__alloc(&c->o->allocator, cells * sizeof(uint32_t));
    if (!gids)
        return fail(c, TN_E_NOMEM, 1, "out of memory");
    int32_t header = c->line;
    for (int64_t y = 0; y < c->h && st == TN_OK; y++) {
        const char *s;
        size_t n;
        if (!next_line(c, &s, &n)) {
            c->line++;
            st = fail(c, TN_E_PARSE, 1,
                      "unexpected end of file: layer '%s' (line %d) has %lld of %lld rows", name,
                      (int)header, (long long)y, (long long)c->h);
            break;
        }
        if (n != (size_t)c->w) {
            st = fail(c, TN_E_PARSE, n < (size_t)c->w ? (int32_t)n + 1 : (int32_t)c->w + 1,
                      "row %lld of layer '%s' has %zu cells, expected %lld", (long long)y, name, n,
                      (long long)c->w);
            break;
        }
        for (size_t x = 0; x < n; x++) {
            unsigned char ch = (unsigned char)s[x];
            if (ch >= 128 || !c->legend[ch].used) {
                st = fail(c, TN_E_PARSE, (int32_t)x + 1,
                          ch >= 0x21 && ch <= 0x7E ? "character '%c' is not in the legend"
                                                   : "byte 0x%02x is not in the legend",
                          ch);
                break;
            }
            gids[(size_t)y * (size_t)c->w + x] = c->legend[ch].gid;
        }
    }
    if (st == TN_OK && (st = tn_map_set_layer_data(c->m, idx, gids, (int32_t)cells)) != TN_OK)
        st = fail(c, st, 1, "cannot set the layer: %s", tn_status_str(st));
    tn__free(&c->o->allocator, gids, cells * sizeof(uint32_t));
    return st;
}

static tn_status do_object(as_ctx *c, bool rect)
{
    if (c->object_layer < 0)
        return fail(c, TN_E_PARSE, 1, "%s outside an \"objects NAME\" section",
                    rect ? "rect" : "point");
    tn_map_object o;
    memset(&o, 0, sizeof o);
    o.layer = c->object_layer;
    int64_t x, y, w = 1, h = 1;
    tn_status st = tok_name(c, 1, "object name", o.name);
    if (st == TN_OK)
        st = tok_int(c, 2, 0, c->w - 1, "x", TN_E_PARSE, &x);
    if (st == TN_OK)
        st = tok_int(c, 3, 0, c->h - 1, "y", TN_E_PARSE, &y);
    int next = 4;
    if (st == TN_OK && rect) {
        st = tok_int(c, 4, 1, c->w - x, "width", TN_E_PARSE, &w);
        if (st == TN_OK)
            st = tok_int(c, 5, 1, c->h - y, "height", TN_E_PARSE, &h);
        next = 6;
    }
    if (st == TN_OK && next < c->ntok)
        st = tok_name(c, next, "object type", o.type);
    if (st == TN_OK && next + 1 < c->ntok)
        st = fail(c, TN_E_PARSE, c->tcol[next + 1], "unexpected text after the object");
    if (st != TN_OK)
        return st;
    if (rect) {
        o.shape = 0;
        o.x = (float)(x * c->tw);
        o.y = (float)(y * c->th);
        o.w = (float)(w * c->tw);
        o.h = (float)(h * c->th);
    } else {
        o.shape = 1;
        tn_vec2 p = tn_map_cell_center_px(c->m, (int32_t)x, (int32_t)y);
        o.x = p.x;
        o.y = p.y;
    }
    st = tn_map_add_object(c->m, &o);
    if (st != TN_OK)
        return fail(c, st, 1, "cannot add the object: %s", tn_status_str(st));
    return TN_OK;
}

static tn_status parse_body(as_ctx *c)
{
    const char *s;
    size_t n;
    if (!next_line(c, &s, &n) || !tokenize(c, s, n) || c->ntok != 2 ||
        !tok_is(c, 0, "tilenav-ascii")) {
        c->line = 1;
        return fail(c, TN_E_PARSE, 1, "expected \"tilenav-ascii 1\" on the first line");
    }
    if (!tok_is(c, 1, "1"))
        return fail(c, TN_E_UNSUPPORTED, c->tcol[1], "unknown format version '%.*s' (expected 1)",
                    (int)(c->tlen[1] > 20 ? 20 : c->tlen[1]), c->tok[1]);
    tn_status st = TN_OK;
    while (st == TN_OK && next_line(c, &s, &n)) {
        if (!tokenize(c, s, n)) {
            st = fail(c, TN_E_PARSE, 1, "too many words on one line (at most %d)", AS_MAX_TOK);
            break;
        }
        if (c->ntok == 0 || c->tok[0][0] == '#')
            continue;
        if (tok_is(c, 0, "size") || tok_is(c, 0, "tile")) {
            bool size = tok_is(c, 0, "size");
            if (c->m) {
                st = fail(c, TN_E_PARSE, 1, "\"%s\" must come before the first layer",
                          size ? "size" : "tile");
                break;
            }
            if (size && c->w > 0) {
                st = fail(c, TN_E_PARSE, 1, "\"size\" given twice");
                break;
            }
            int64_t a, b;
            int64_t lo = 1, hi = size ? INT32_MAX : 1 << 16;
            st = tok_int(c, 1, lo, hi, size ? "width" : "tile width",
                         size ? TN_E_TOO_LARGE : TN_E_PARSE, &a);
            if (st == TN_OK)
                st = tok_int(c, 2, lo, hi, size ? "height" : "tile height",
                             size ? TN_E_TOO_LARGE : TN_E_PARSE, &b);
            if (st == TN_OK && c->ntok > 3)
                st = fail(c, TN_E_PARSE, c->tcol[3], "unexpected text after the numbers");
            if (st != TN_OK)
                break;
            if (size && (a > TN_MAX_DIM || b > TN_MAX_DIM || a * b > TN_MAX_CELLS)) {
                st = fail(c, TN_E_TOO_LARGE, c->tcol[1],
                          "map of %lld x %lld cells is past the limit (%d per side, %d cells)",
                          (long long)a, (long long)b, TN_MAX_DIM, TN_MAX_CELLS);
                break;
            }
            if (size) {
                c->w = a;
                c->h = b;
            } else {
                c->tw = a;
                c->th = b;
            }
        } else if (tok_is(c, 0, "legend")) {
            st = do_legend(c);
        } else if (tok_is(c, 0, "layer")) {
            st = do_layer(c);
        } else if (tok_is(c, 0, "objects")) {
            char name[TN_MAX_NAME];
            st = tok_name(c, 1, "object layer name", name);
            if (st == TN_OK && c->ntok > 2)
                st = fail(c, TN_E_PARSE, c->tcol[2], "unexpected text after the layer name");
            if (st == TN_OK)
                st = need_map(c);
            if (st == TN_OK &&
                (st = tn_map_add_layer(c->m, name, TN_LAYER_OBJECTS, &c->object_layer)) != TN_OK)
                st = fail(c, st, 1, "cannot add the layer: %s", tn_status_str(st));
        } else if (tok_is(c, 0, "point") || tok_is(c, 0, "rect")) {
            st = do_object(c, tok_is(c, 0, "rect"));
        } else {
            st = fail(c, TN_E_PARSE, 1,
                      "unknown line '%.*s' (expected size, tile, legend, layer, objects, point, "
                      "rect or a # comment)",
                      (int)(c->tlen[0] > 40 ? 40 : c->tlen[0]), c->tok[0]);
        }
    }
    if (st == TN_OK && !c->m) {
        c->line++;
        st = need_map(c);
    }
    return st;
}

tn_status tn__parse_ascii(const char *data, size_t len, const char *name, const tn_load_def *opts,
                          tn_map **out, tn_diag *diag)
{
    *out = NULL;
    as_ctx *c = tn__calloc(&opts->allocator, sizeof *c);
    if (!c)
        return tn__diag(diag, TN_E_NOMEM, name, 0, 0, NULL, "out of memory");
    c->name = name;
    c->diag = diag;
    c->o = opts;
    c->p = data;
    c->end = data + len;
    c->tw = opts->tile_width;
    c->th = opts->tile_height;
    c->object_layer = -1;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        c->p += 3;
    tn_status st = parse_body(c);
    if (st == TN_OK) {
        /* Terrain last, in one update. */
        uint32_t gids[128];
        tn_terrain ter[128];
        size_t n = 0;
        for (int k = 0; k < 128; k++)
            if (c->legend[k].used && c->legend[k].has_terrain) {
                gids[n] = c->legend[k].gid;
                ter[n++] = c->legend[k].terrain;
            }
        st = tn_map_set_terrain_many(c->m, gids, ter, (int32_t)n);
        if (st != TN_OK)
            tn__diag(diag, st, name, 0, 0, NULL, "cannot set the terrain: %s", tn_status_str(st));
    }
    if (st == TN_OK)
        *out = c->m;
    else
        tn_map_destroy(c->m);
    tn__free(&opts->allocator, c, sizeof *c);
    return st;
}
