/* Tiled JSON maps (`.tmj` / `.json`), orthogonal, finite or infinite; TMX maps arrive here as
 * the same tree (tmx.c).
 *
 * Steps: a pre-scan of the text bounds the number of JSON values and the nesting depth (so
 * cJSON never builds a huge tree or recurses deeply), cJSON parses, tilesets (embedded or
 * external `.tsj`/`.json`/`.tsx`, old-style ones too) give the terrain table from per-tile
 * properties and the tiles' collision shapes, layers are flattened (groups become
 * "group/child" names), infinite maps get their bounds from their chunks, then the map is
 * built: tile layers (tiles of another size than a cell rasterised by their shapes), object
 * layers (templates applied; collision layers rasterised, raster.c), then the generated
 * TN_COLLISION_LAYER and the load report. Every field is checked for type, range and integer-ness,
 * and a failure names the field path in tn_diag.where (e.g. "layers[3].data[17]").
 *
 * Terrain properties (see docs/formats.md): a tile blocks when it has a property named
 * collides / collision / collide / solid / blocked / blocks / blocking / wall / obstacle /
 * impassable whose value is true (bool true, a non-zero number, or the string "true", "1",
 * "yes"), or passable / walkable whose value is false, or Kaetram's `c` (any value). Its cost
 * is the number in cost / movementCost / movement_cost / moveCost / move_cost / terrainCost
 * (names compared without case), which must be finite and > 0.
 *
 * Threads: the loader keeps no state, but cJSON records the last parse error in a global of
 * its own; loading from several threads at once works, that global aside. */
#include "io_internal.h"
#include "raster.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TL_PATH 256
#define TL_FILE 1024

/* Bits of tl_ctx.marks: what blocks a cell, per convention, and what goes into the generated
 * TN_COLLISION_LAYER. */
enum { MK_PROPS = 1, MK_SHAPES = 2, MK_OBJECTS = 4, MK_LAYER = 8 };
/* Bits of tl_ctx.gflags, per gid: its property-derived entry blocks / its shapes block it. */
enum { GF_PROPS = 1, GF_SHAPES = 2 };

typedef struct tl_layer {
    const cJSON *node;
    char name[TN_MAX_NAME];
    char path[TL_PATH];
    uint32_t hidden;
    bool tiles; /* tile layer (else object layer) */
} tl_layer;

/* A collision shape read from a tile's objectgroup or from a collision layer. */
typedef struct tl_shape {
    tn__shape_kind kind;
    double x, y, w, h, rot;
    size_t pt, n; /* polygon/polyline: n points from tl_ctx.pts[2*pt] */
} tl_shape;

/* How a tileset's tiles are drawn on tile layers (Tiled 1.9's `tilerendersize` and
 * `fillmode`): at their own size, on their cell's bottom-left corner; or scaled onto their
 * cell, stretched or fitted (aspect kept, centred). */
typedef enum tl_render { TL_RENDER_TILE, TL_RENDER_STRETCH, TL_RENDER_FIT } tl_render;

/* A tileset tile with collision shapes. */
typedef struct tl_tile {
    uint32_t gid;
    int32_t iw, ih;      /* its image size in pixels */
    size_t first, count; /* its shapes in tl_ctx.shapes */
    bool cell;           /* drawn on one map cell: its own size, or scaled onto it */
    bool blocks;         /* (cell) its shapes block its cell under the cover rule */
    uint8_t render;      /* tl_render */
} tl_tile;

typedef struct tl_source { /* an external tileset: resolved path, first gid */
    char path[TL_FILE];
    uint32_t firstgid;
} tl_source;

typedef struct tl_template {
    char path[TL_FILE];
    cJSON *root;
    const cJSON *object;
    char tileset[TL_FILE]; /* resolved source of its tileset, or "" */
    uint32_t firstgid;
} tl_template;

typedef struct tl_ctx {
    const tn_load_def *o;
    const tn_allocator *a;
    tn_diag *diag;
    const char *file; /* the file being read: the map or an external tileset */
    /* reading a file the map names (a tileset, a template): its errors quote no text from it,
     * since a map can name any readable file ("/etc/passwd" as a tileset) */
    bool external;
    char dir[1024]; /* folder of the map, with a trailing '/', or "" */
    int32_t w, h, tw, th;
    bool infinite;
    int64_t ox, oy; /* infinite maps: the Tiled cell that becomes (0, 0) */
    tl_layer *layers;
    size_t nlayers, cap_layers;
    uint32_t *tgid;
    tn_terrain *tter;
    size_t nterr, cap_tgid, cap_tter;
    tn_tileset *tilesets;
    size_t nts, cap_ts;
    size_t decoded_cells; /* decoded so far, against max_layer_cells */
    uint32_t *scratch;    /* chunk buffer */
    size_t scratch_cap;   /* in elements */
    /* collision shapes of tileset tiles (sorted by gid once the tilesets are read) */
    tl_tile *tiles;
    size_t ntiles, cap_tiles;
    tl_shape *shapes;
    size_t nshapes, cap_shapes;
    double *pts; /* points of polygons and polylines, (x, y) pairs */
    size_t npts, cap_pts;
    bool oversize;   /* some tile with shapes is not one cell in size */
    uint8_t render;  /* tl_render of the tileset being read */
    size_t nprops;   /* terrain entries from properties (the first nprops of tgid/tter) */
    uint8_t *gflags; /* GF_* per gid below ngflags */
    size_t ngflags;
    uint8_t *marks;     /* MK_* per cell, allocated when needed */
    tl_source *sources; /* external tilesets, for templates */
    size_t nsources, cap_sources;
    tl_template *templates; /* loaded templates (each file read once per load) */
    size_t ntemplates, cap_templates;
    tn_load_report rep;
    uint64_t work; /* cell tests spent rasterising, against raster_budget() */
} tl_ctx;

/* snprintf through a va_list: names are cut at the buffer size on purpose. */
static int pathf(char *buf, size_t cap, const char *fmt, ...) TN_PRINTF(3, 4);

static int pathf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

static tn_status err(tl_ctx *c, tn_status st, const char *where, const char *fmt, ...)
    TN_PRINTF(4, 5);

static tn_status err(tl_ctx *c, tn_status st, const char *where, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tn__diag(c->diag, st, c->file, 0, 0, where, "%s", msg);
}

/* "base.key" (or "key" at the top) into buf. */
static const char *path_key(char *buf, const char *base, const char *key)
{
    pathf(buf, TL_PATH, "%s%s%s", base, base[0] ? "." : "", key);
    return buf;
}

static const char *json_type(const cJSON *j)
{
    if (!j)
        return "nothing";
    if (cJSON_IsBool(j))
        return "a boolean";
    if (cJSON_IsNull(j))
        return "null";
    if (cJSON_IsNumber(j))
        return "a number";
    if (cJSON_IsString(j))
        return "a string";
    if (cJSON_IsArray(j))
        return "an array";
    if (cJSON_IsObject(j))
        return "an object";
    return "an unknown value";
}

/* A whole number in [lo, hi] (JSON numbers are doubles: exact up to 2^53). */
static tn_status check_int(tl_ctx *c, const cJSON *v, const char *where, int64_t lo, int64_t hi,
                           tn_status range_status, int64_t *out)
{
    if (!cJSON_IsNumber(v))
        return err(c, TN_E_PARSE, where, "expected a whole number, found %s", json_type(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0)
        return err(c, TN_E_PARSE, where, "expected a whole number, found %.17g", d);
    if (d < (double)lo || d > (double)hi)
        return err(c, range_status, where, "%.17g is outside [%lld, %lld]", d, (long long)lo,
                   (long long)hi);
    *out = (int64_t)d;
    return TN_OK;
}

/* Optional (required=false: missing gives def) whole-number field. */
static tn_status get_int(tl_ctx *c, const cJSON *obj, const char *base, const char *key,
                         bool required, int64_t def, int64_t lo, int64_t hi, int64_t *out)
{
    char where[TL_PATH];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required)
            return err(c, TN_E_PARSE, path_key(where, base, key), "missing field");
        *out = def;
        return TN_OK;
    }
    return check_int(c, v, path_key(where, base, key), lo, hi, TN_E_PARSE, out);
}

static tn_status get_num(tl_ctx *c, const cJSON *obj, const char *base, const char *key, double def,
                         double lo, double hi, double *out)
{
    char where[TL_PATH];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return TN_OK;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return err(c, TN_E_PARSE, path_key(where, base, key), "expected a number, found %s",
                   json_type(v));
    if (v->valuedouble < lo || v->valuedouble > hi)
        return err(c, TN_E_PARSE, path_key(where, base, key), "%.17g is outside [%g, %g]",
                   v->valuedouble, lo, hi);
    *out = v->valuedouble;
    return TN_OK;
}

/* Optional string field: *out = NULL when missing. */
static tn_status get_str(tl_ctx *c, const cJSON *obj, const char *base, const char *key,
                         const char **out)
{
    char where[TL_PATH];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v)
        return TN_OK;
    if (!cJSON_IsString(v))
        return err(c, TN_E_PARSE, path_key(where, base, key), "expected a string, found %s",
                   json_type(v));
    *out = v->valuestring;
    return TN_OK;
}

static tn_status get_bool(tl_ctx *c, const cJSON *obj, const char *base, const char *key, bool def,
                          bool *out)
{
    char where[TL_PATH];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return TN_OK;
    }
    if (!cJSON_IsBool(v))
        return err(c, TN_E_PARSE, path_key(where, base, key), "expected true or false, found %s",
                   json_type(v));
    *out = cJSON_IsTrue(v);
    return TN_OK;
}

/* Copy a + b, cut to TN_MAX_NAME-1 bytes without splitting a UTF-8 character. */
static void copy_name(char *dst, const char *a, const char *b)
{
    size_t n = 0;
    bool cut = false;
    const char *parts[2] = {a, b};
    for (int k = 0; k < 2 && !cut; k++)
        for (const char *s = parts[k]; s && *s; s++) {
            if (n == TN_MAX_NAME - 1) {
                cut = true;
                break;
            }
            dst[n++] = *s;
        }
    if (cut && n > 0) {
        size_t i = n - 1;
        while (i > 0 && ((unsigned char)dst[i] & 0xC0) == 0x80)
            i--;
        unsigned char lead = (unsigned char)dst[i];
        size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (i + len > n)
            n = i;
    }
    dst[n] = '\0';
}

/* ASCII case-insensitive equality. */
static bool same_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

/* ---- JSON text --------------------------------------------------------------------------- */

static void line_col(const char *data, size_t pos, int32_t *line, int32_t *col)
{
    int32_t l = 1;
    size_t start = 0;
    for (size_t i = 0; i < pos; i++)
        if (data[i] == '\n') {
            if (l < INT32_MAX)
                l++;
            start = i + 1;
        }
    *line = l;
    size_t cc = pos - start + 1;
    *col = cc > INT32_MAX ? INT32_MAX : (int32_t)cc;
}

/* The offset of the first byte that breaks UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), or len when the text is UTF-8. JSON text is UTF-8 (RFC 8259), and
 * cJSON would pass other bytes through into names, and from there into the CLI's JSON. */
static size_t utf8_end(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        unsigned b = s[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t n = b >= 0xC2 && b <= 0xDF   ? 2
                   : b >= 0xE0 && b <= 0xEF ? 3
                   : b >= 0xF0 && b <= 0xF4 ? 4
                                            : 0;
        if (n == 0 || len - i < n)
            return i;
        unsigned lo = 0x80, hi = 0xBF; /* the second byte's range */
        if (b == 0xE0)
            lo = 0xA0;
        else if (b == 0xED)
            hi = 0x9F;
        else if (b == 0xF0)
            lo = 0x90;
        else if (b == 0xF4)
            hi = 0x8F;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (size_t k = 2; k < n; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += n;
    }
    return len;
}

/* Bound the value count and the nesting depth before cJSON sees the text. */
static tn_status prescan(tl_ctx *c, const char *data, size_t len, bool *open)
{
    size_t values = 1;
    int depth = 0;
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        char ch = data[i];
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = false;
            continue;
        }
        int32_t line, col;
        switch (ch) {
        case '"': in_str = true; break;
        case '[':
        case '{':
            if (++depth > TN_MAX_JSON_DEPTH) {
                line_col(data, i, &line, &col);
                return tn__diag(c->diag, TN_E_TOO_LARGE, c->file, line, col, NULL,
                                "JSON nesting deeper than %d levels", TN_MAX_JSON_DEPTH);
            }
            values++;
            break;
        case ']':
        case '}': depth--; break;
        case ',':
            if (++values > c->o->max_json_values) {
                line_col(data, i, &line, &col);
                return tn__diag(c->diag, TN_E_TOO_LARGE, c->file, line, col, NULL,
                                "more than %zu JSON values (max_json_values)",
                                c->o->max_json_values);
            }
            break;
        default: break;
        }
    }
    *open = in_str || depth > 0;
    return TN_OK;
}

static tn_status parse_json(tl_ctx *c, const char *data, size_t len, cJSON **out)
{
    *out = NULL;
    size_t skip = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    int32_t line, col;
    size_t bad = skip + utf8_end(data + skip, len - skip);
    if (bad < len) {
        line_col(data, bad, &line, &col);
        return tn__diag(c->diag, TN_E_PARSE, c->file, line, col, NULL,
                        "the text is not UTF-8 (byte 0x%02X)", (unsigned)(unsigned char)data[bad]);
    }
    size_t first = skip;
    while (first < len && (data[first] == ' ' || data[first] == '\t' || data[first] == '\r' ||
                           data[first] == '\n'))
        first++;
    if (first == len)
        return tn__diag(c->diag, TN_E_PARSE, c->file, 1, 1, NULL,
                        len ? "no JSON in the file: only white space" : "the file is empty");
    bool open = false;
    tn_status st = prescan(c, data + skip, len - skip, &open);
    if (st != TN_OK)
        return st;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(data + skip, len - skip, &end, 0);
    size_t pos = end && end >= data + skip && end <= data + len ? (size_t)(end - data) : len;
    if (!root) {
        if (open) { /* an unclosed string, array or object: the text was cut short */
            line_col(data, len, &line, &col);
            return tn__diag(c->diag, TN_E_PARSE, c->file, line, col, NULL,
                            "truncated JSON: the text ends inside a string, array or object");
        }
        line_col(data, pos, &line, &col);
        if (c->external)
            return tn__diag(c->diag, TN_E_PARSE, c->file, line, col, NULL,
                            "invalid JSON (a file the map names: its text is not quoted)");
        /* the input need not end in a NUL: print at most what is there */
        int shown = len - pos < 20 ? (int)(len - pos) : 20;
        return tn__diag(c->diag, TN_E_PARSE, c->file, line, col, NULL, "invalid JSON near '%.*s'",
                        shown, data + pos);
    }
    for (size_t i = pos; i < len; i++)
        if (data[i] != ' ' && data[i] != '\t' && data[i] != '\r' && data[i] != '\n') {
            cJSON_Delete(root);
            line_col(data, i, &line, &col);
            return tn__diag(c->diag, TN_E_PARSE, c->file, line, col, NULL,
                            "unexpected text after the JSON value");
        }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return tn__diag(c->diag, TN_E_PARSE, c->file, 1, 1, NULL,
                        "expected a JSON object at the top level");
    }
    *out = root;
    return TN_OK;
}

/* Folder separators. Inside map files paths are Tiled's: '/' between folders (Tiled writes '/'
 * on every system), and a '\\' there is read as one too (files written by hand or by other
 * tools on Windows). In the paths the caller gives, '\\' separates folders on Windows only,
 * where a drive prefix ("C:") also makes a path absolute. */
static bool native_sep(char ch)
{
#ifdef _WIN32
    return ch == '/' || ch == '\\';
#else
    return ch == '/';
#endif
}

static bool absolute_path(const char *p)
{
#ifdef _WIN32
    if (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':')
        return true;
#endif
    return p[0] == '/' || p[0] == '\\';
}

/* dir + rel into out (rel alone when absolute); rel's separators become '/'. */
static tn_status join_path(tl_ctx *c, const char *dir, const char *rel, char *out, size_t cap,
                           const char *where)
{
    bool abs = absolute_path(rel);
    int n = abs ? pathf(out, cap, "%s", rel) : pathf(out, cap, "%s%s", dir, rel);
    if (n < 0 || (size_t)n >= cap)
        return err(c, TN_E_TOO_LARGE, where, "path longer than %zu bytes", cap - 1);
    for (char *q = out + (abs ? 0 : strlen(dir)); *q; q++)
        if (*q == '\\')
            *q = '/';
    return TN_OK;
}

static void dir_of(const char *file, char *out, size_t cap)
{
    out[0] = '\0';
    if (!file)
        return;
    const char *slash = NULL;
    for (const char *q = file; *q; q++)
        if (native_sep(*q))
            slash = q;
    size_t n = slash ? (size_t)(slash - file) + 1 : 0;
    if (n >= cap)
        n = 0;
    memcpy(out, file, n);
    out[n] = '\0';
}

/* ---- tilesets and terrain ----------------------------------------------------------------- */

typedef struct tl_props {
    bool has_block, block, has_cost;
    double cost;
} tl_props;

static bool name_in(const char *name, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (same_ci(name, list[i]))
            return true;
    return false;
}

/* A truth value: 1 true, 0 false, -1 not one. */
static int truth(const cJSON *v)
{
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? 1 : 0;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
        return v->valuedouble != 0.0;
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (same_ci(s, "true") || !strcmp(s, "1") || same_ci(s, "yes"))
            return 1;
        if (same_ci(s, "false") || !strcmp(s, "0") || same_ci(s, "no") || !s[0])
            return 0;
    }
    return -1;
}

static const char *const block_names[] = {"collides", "collision",  "collide",  "solid",
                                          "blocked",  "blocks",     "blocking", "wall",
                                          "obstacle", "impassable", NULL};
static const char *const pass_names[] = {"passable", "walkable", NULL};
static const char *const cost_names[] = {"cost",      "movementCost", "movement_cost", "moveCost",
                                         "move_cost", "terrainCost",  "terrain_cost",  NULL};

static tn_status apply_prop(tl_ctx *c, const char *name, const cJSON *v, const char *where,
                            tl_props *p)
{
    if (strcmp(name, "c") == 0) { /* Kaetram: the property's presence marks a collision tile */
        p->has_block = p->block = true;
        return TN_OK;
    }
    if (name_in(name, block_names) || name_in(name, pass_names)) {
        int t = truth(v);
        if (t < 0)
            return TN_OK; /* not a truth value (e.g. a class): not a terrain rule */
        bool block = name_in(name, block_names) ? t == 1 : t == 0;
        p->has_block = true;
        p->block = p->block || block;
        return TN_OK;
    }
    if (name_in(name, cost_names)) {
        double d = (double)NAN;
        if (cJSON_IsNumber(v))
            d = v->valuedouble;
        else if (cJSON_IsString(v)) {
            char *e = NULL;
            d = strtod(v->valuestring, &e);
            if (!v->valuestring[0] || (e && *e))
                d = (double)NAN;
        }
        if (!isfinite(d) || !(d > 0.0) || d > 1e9)
            return err(c, TN_E_PARSE, where,
                       "terrain cost '%s' must be a number > 0 and <= 1e9, found %s", name,
                       cJSON_IsNumber(v) ? "a number out of range" : json_type(v));
        p->has_cost = true;
        p->cost = d;
    }
    return TN_OK;
}

static tn_status push_terrain(tl_ctx *c, uint32_t gid, const tl_props *p, const char *where)
{
    if (!p->has_block && !p->has_cost)
        return TN_OK;
    if (gid >= TN_MAX_TERRAIN_GID)
        return err(c, TN_E_TOO_LARGE, where, "tile gid %u is past the terrain table limit %d", gid,
                   TN_MAX_TERRAIN_GID);
    void *pg = c->tgid, *pt = c->tter;
    tn_status st = tn__grow(c->a, &pg, sizeof(uint32_t), &c->cap_tgid, c->nterr + 1);
    if (st == TN_OK)
        c->tgid = pg;
    if (st == TN_OK)
        st = tn__grow(c->a, &pt, sizeof(tn_terrain), &c->cap_tter, c->nterr + 1);
    if (st != TN_OK)
        return err(c, st, where, "out of memory");
    c->tter = pt;
    c->tgid[c->nterr] = gid;
    c->tter[c->nterr] = (tn_terrain){!p->block, p->has_cost ? (float)p->cost : 1.0f};
    c->nterr++;
    return TN_OK;
}

static tn_status tile_props(tl_ctx *c, const cJSON *props, const char *base, uint32_t gid)
{
    char where[TL_PATH];
    tl_props p = {false, false, false, 1.0};
    if (!props)
        return TN_OK;
    tn_status st = TN_OK;
    if (cJSON_IsArray(props)) { /* Tiled >= 1.2: [{name, type, value}] */
        int i = 0;
        for (const cJSON *e = props->child; e && st == TN_OK; e = e->next, i++) {
            pathf(where, sizeof where, "%s[%d]", base, i);
            if (!cJSON_IsObject(e))
                return err(c, TN_E_PARSE, where, "expected a property object, found %s",
                           json_type(e));
            const char *name;
            st = get_str(c, e, where, "name", &name);
            if (st == TN_OK && !name)
                st = err(c, TN_E_PARSE, where, "property without a name");
            if (st == TN_OK) {
                char vw[TL_PATH];
                st = apply_prop(c, name, cJSON_GetObjectItemCaseSensitive(e, "value"),
                                path_key(vw, where, "value"), &p);
            }
        }
    } else if (cJSON_IsObject(props)) { /* Tiled < 1.2: {name: value} */
        for (const cJSON *e = props->child; e && st == TN_OK; e = e->next)
            st = apply_prop(c, e->string ? e->string : "", e, path_key(where, base, e->string), &p);
    } else {
        return err(c, TN_E_PARSE, base, "expected an array of properties, found %s",
                   json_type(props));
    }
    if (st == TN_OK)
        st = push_terrain(c, gid, &p, base);
    return st;
}

/* ---- collision shapes ------------------------------------------------------------------- */

static tn_status grow(tl_ctx *c, void **p, size_t elem, size_t *cap, size_t need, const char *where)
{
    tn_status st = tn__grow(c->a, p, elem, cap, need);
    return st == TN_OK ? TN_OK : err(c, st, where, "out of memory");
}

/* The points of a polygon/polyline into c->pts. */
static tn_status read_points(tl_ctx *c, const cJSON *poly, const char *pw, size_t *first, size_t *n)
{
    const double lim = 1e9;
    if (!cJSON_IsArray(poly) || !poly->child)
        return err(c, TN_E_PARSE, pw, "expected a non-empty array of points, found %s",
                   json_type(poly));
    *first = c->npts;
    *n = 0;
    int i = 0;
    for (const cJSON *p = poly->child; p; p = p->next, i++) {
        char eb[TL_PATH];
        pathf(eb, sizeof eb, "%s[%d]", pw, i);
        if (!cJSON_IsObject(p))
            return err(c, TN_E_PARSE, eb, "expected a point {x, y}, found %s", json_type(p));
        double px, py;
        tn_status st = get_num(c, p, eb, "x", (double)NAN, -lim, lim, &px);
        if (st == TN_OK)
            st = get_num(c, p, eb, "y", (double)NAN, -lim, lim, &py);
        if (st != TN_OK)
            return st;
        if (isnan(px) || isnan(py))
            return err(c, TN_E_PARSE, eb, "point without x or y");
        void *v = c->pts;
        if ((st = grow(c, &v, 2 * sizeof(double), &c->cap_pts, c->npts + 1, eb)) != TN_OK)
            return st;
        c->pts = v;
        c->pts[2 * c->npts] = px;
        c->pts[2 * c->npts + 1] = py;
        c->npts++;
        (*n)++;
    }
    return TN_OK;
}

/* One collision object as a shape. *ok is false when it blocks nothing: points, text, tile
 * objects (handled by the caller), boxes without area, polygons of < 3 points, and polylines
 * when `lines` is false (tile shapes). */
static tn_status read_shape(tl_ctx *c, const cJSON *o, const char *base, bool lines, tl_shape *out,
                            bool *ok)
{
    const double lim = 1e9;
    memset(out, 0, sizeof *out);
    *ok = false;
    bool point, ellipse;
    tn_status st = get_num(c, o, base, "x", 0, -lim, lim, &out->x);
    if (st == TN_OK)
        st = get_num(c, o, base, "y", 0, -lim, lim, &out->y);
    if (st == TN_OK)
        st = get_num(c, o, base, "width", 0, 0, lim, &out->w);
    if (st == TN_OK)
        st = get_num(c, o, base, "height", 0, 0, lim, &out->h);
    if (st == TN_OK)
        st = get_num(c, o, base, "rotation", 0, -lim, lim, &out->rot);
    if (st == TN_OK)
        st = get_bool(c, o, base, "point", false, &point);
    if (st == TN_OK)
        st = get_bool(c, o, base, "ellipse", false, &ellipse);
    if (st != TN_OK || point || cJSON_GetObjectItemCaseSensitive(o, "text") ||
        cJSON_GetObjectItemCaseSensitive(o, "gid"))
        return st;
    const cJSON *poly = cJSON_GetObjectItemCaseSensitive(o, "polygon");
    const cJSON *line = poly ? NULL : cJSON_GetObjectItemCaseSensitive(o, "polyline");
    char pw[TL_PATH];
    if (ellipse) {
        out->kind = TN__SHAPE_ELLIPSE;
        *ok = out->w > 0 && out->h > 0;
    } else if (poly || line) {
        if (line && !lines)
            return TN_OK;
        out->kind = poly ? TN__SHAPE_POLYGON : TN__SHAPE_POLYLINE;
        st = read_points(c, poly ? poly : line, path_key(pw, base, poly ? "polygon" : "polyline"),
                         &out->pt, &out->n);
        *ok = st == TN_OK && out->n >= (poly ? 3u : 2u);
    } else {
        out->kind = TN__SHAPE_RECT;
        *ok = out->w > 0 && out->h > 0;
    }
    return st;
}

/* The raster shape of s, in its own frame, placed by `place` (own frame -> map pixels). */
static tn__shape to_raster(const tl_ctx *c, const tl_shape *s, const tn__affine *place)
{
    tn__shape r;
    memset(&r, 0, sizeof r);
    r.kind = s->kind;
    tn__affine rot = tn__affine_rotate_about(s->rot, s->x, s->y);
    r.m = tn__affine_then(&rot, place);
    if (s->kind == TN__SHAPE_RECT || s->kind == TN__SHAPE_ELLIPSE) {
        r.x = s->x;
        r.y = s->y;
        r.w = s->w;
        r.h = s->h;
    } else {
        /* points are relative to (x, y): fold that into the transform */
        tn__affine at = tn__affine_translate(s->x, s->y);
        r.m = tn__affine_then(&at, &r.m);
        r.pts = c->pts + 2 * s->pt;
        r.n = s->n;
    }
    return r;
}

/* A tile's collision shapes (its objectgroup), for gid; iw x ih is its image size. */
static tn_status tile_shapes(tl_ctx *c, const cJSON *og, const char *base, uint32_t gid, int32_t iw,
                             int32_t ih)
{
    char where[TL_PATH];
    if (!cJSON_IsObject(og))
        return err(c, TN_E_PARSE, base, "expected an object layer, found %s", json_type(og));
    const cJSON *objs = cJSON_GetObjectItemCaseSensitive(og, "objects");
    if (!objs)
        return TN_OK;
    if (!cJSON_IsArray(objs))
        return err(c, TN_E_PARSE, path_key(where, base, "objects"), "expected an array, found %s",
                   json_type(objs));
    size_t first = c->nshapes;
    int i = 0;
    tn_status st = TN_OK;
    for (const cJSON *o = objs->child; o && st == TN_OK; o = o->next, i++) {
        pathf(where, sizeof where, "%s.objects[%d]", base, i);
        if (!cJSON_IsObject(o))
            return err(c, TN_E_PARSE, where, "expected an object, found %s", json_type(o));
        tl_shape sh;
        bool ok;
        st = read_shape(c, o, where, false, &sh, &ok);
        if (st != TN_OK || !ok)
            continue;
        void *p = c->shapes;
        if ((st = grow(c, &p, sizeof(tl_shape), &c->cap_shapes, c->nshapes + 1, where)) != TN_OK)
            return st;
        c->shapes = p;
        c->shapes[c->nshapes++] = sh;
    }
    if (st != TN_OK || c->nshapes == first)
        return st;
    void *p = c->tiles;
    if ((st = grow(c, &p, sizeof(tl_tile), &c->cap_tiles, c->ntiles + 1, base)) != TN_OK)
        return st;
    c->tiles = p;
    c->tiles[c->ntiles++] =
        (tl_tile){gid, iw, ih, first, c->nshapes - first, false, false, c->render};
    return TN_OK;
}

/* One entry of a tileset's `tiles` (id given): properties and collision shapes. */
static tn_status read_tile(tl_ctx *c, const cJSON *e, const char *tb, uint32_t gid, int32_t tw,
                           int32_t th)
{
    char pb[TL_PATH];
    tn_status st = TN_OK;
    if (c->o->collision & TN_COLLIDE_PROPERTIES)
        st = tile_props(c, cJSON_GetObjectItemCaseSensitive(e, "properties"),
                        path_key(pb, tb, "properties"), gid);
    const cJSON *og = cJSON_GetObjectItemCaseSensitive(e, "objectgroup");
    if (st != TN_OK || !og ||
        !(c->o->collision & (TN_COLLIDE_TILE_SHAPES | TN_COLLIDE_OBJECT_LAYERS)))
        return st;
    int64_t iw, ih; /* image-collection tilesets: each tile has its own image size */
    st = get_int(c, e, tb, "imagewidth", false, tw, 0, 1 << 16, &iw);
    if (st == TN_OK)
        st = get_int(c, e, tb, "imageheight", false, th, 0, 1 << 16, &ih);
    if (st != TN_OK)
        return st;
    if (iw < 1 || ih < 1) { /* no size anywhere: take the map's */
        iw = c->tw;
        ih = c->th;
    }
    return tile_shapes(c, og, path_key(pb, tb, "objectgroup"), gid, (int32_t)iw, (int32_t)ih);
}

/* A tile id written as an object key (Tiled < 1.2 `tiles` and `tileproperties`). */
static tn_status key_id(tl_ctx *c, const char *key, const char *where, int64_t max_id, int64_t *id)
{
    char *end = NULL;
    long long v = strtoll(key, &end, 10);
    if (!key[0] || *end || v < 0 || v > max_id)
        return err(c, TN_E_PARSE, where, "tile id must be a whole number in [0, %lld]",
                   (long long)max_id);
    *id = v;
    return TN_OK;
}

/* One tileset object (embedded, or the root of an external file). `dir` resolves its image. */
static tn_status read_tileset(tl_ctx *c, const cJSON *ts, const char *base, int64_t firstgid,
                              const char *dir)
{
    char where[TL_PATH];
    tn_tileset t;
    memset(&t, 0, sizeof t);
    t.first_gid = (uint32_t)firstgid;
    int64_t v = 0;
    const char *s;
    tn_status st = get_int(c, ts, base, "tilecount", false, 0, 0, 1 << 28, &v);
    t.tile_count = (int32_t)v;
    if (st == TN_OK)
        st = get_int(c, ts, base, "columns", false, 0, 0, 1 << 28, &v);
    t.columns = (int32_t)v;
    if (st == TN_OK)
        st = get_int(c, ts, base, "tilewidth", false, 0, 0, 1 << 16, &v);
    t.tile_width = (int32_t)v;
    if (st == TN_OK)
        st = get_int(c, ts, base, "tileheight", false, 0, 0, 1 << 16, &v);
    t.tile_height = (int32_t)v;
    if (st == TN_OK)
        st = get_int(c, ts, base, "margin", false, 0, 0, 1 << 16, &v);
    t.margin = (int32_t)v;
    if (st == TN_OK)
        st = get_int(c, ts, base, "spacing", false, 0, 0, 1 << 16, &v);
    t.spacing = (int32_t)v;
    if (st == TN_OK)
        st = get_str(c, ts, base, "name", &s);
    if (st == TN_OK)
        copy_name(t.name, s, NULL);
    if (st == TN_OK)
        st = get_str(c, ts, base, "image", &s);
    if (st == TN_OK && s && s[0])
        st = join_path(c, dir, s, t.image, sizeof t.image, path_key(where, base, "image"));
    c->render = TL_RENDER_TILE;
    if (st == TN_OK)
        st = get_str(c, ts, base, "tilerendersize", &s);
    if (st == TN_OK && s && strcmp(s, "tile") != 0) {
        if (strcmp(s, "grid") != 0)
            return err(c, TN_E_PARSE, path_key(where, base, "tilerendersize"),
                       "expected \"tile\" or \"grid\", found \"%.40s\"", s);
        c->render = TL_RENDER_STRETCH;
    }
    if (st == TN_OK)
        st = get_str(c, ts, base, "fillmode", &s);
    if (st == TN_OK && s && strcmp(s, "stretch") != 0) {
        if (strcmp(s, "preserve-aspect-fit") != 0)
            return err(c, TN_E_PARSE, path_key(where, base, "fillmode"),
                       "expected \"stretch\" or \"preserve-aspect-fit\", found \"%.40s\"", s);
        if (c->render == TL_RENDER_STRETCH)
            c->render = TL_RENDER_FIT;
    }
    if (st != TN_OK)
        return st;
    int64_t max_id = 0x0FFFFFFF - firstgid;
    const cJSON *tiles = cJSON_GetObjectItemCaseSensitive(ts, "tiles");
    if (tiles && !cJSON_IsArray(tiles) && !cJSON_IsObject(tiles))
        return err(c, TN_E_PARSE, path_key(where, base, "tiles"),
                   "expected an array (or, before Tiled 1.2, an object keyed by tile id), "
                   "found %s",
                   json_type(tiles));
    int i = 0;
    for (const cJSON *e = tiles ? tiles->child : NULL; e && st == TN_OK; e = e->next, i++) {
        char tb[TL_PATH];
        if (cJSON_IsArray(tiles)) { /* Tiled >= 1.2: [{id, ...}] */
            pathf(tb, sizeof tb, "%s.tiles[%d]", base, i);
            if (!cJSON_IsObject(e))
                return err(c, TN_E_PARSE, tb, "expected a tile object, found %s", json_type(e));
            st = get_int(c, e, tb, "id", true, 0, 0, max_id, &v);
        } else { /* Tiled < 1.2: {"id": {...}} */
            pathf(tb, sizeof tb, "%s.tiles.%s", base, e->string);
            st = key_id(c, e->string, tb, max_id, &v);
            if (st == TN_OK && !cJSON_IsObject(e))
                return err(c, TN_E_PARSE, tb, "expected a tile object, found %s", json_type(e));
        }
        if (st == TN_OK)
            st = read_tile(c, e, tb, (uint32_t)(firstgid + v), t.tile_width, t.tile_height);
    }
    const cJSON *legacy = cJSON_GetObjectItemCaseSensitive(ts, "tileproperties");
    if (st == TN_OK && legacy && (c->o->collision & TN_COLLIDE_PROPERTIES)) {
        if (!cJSON_IsObject(legacy))
            return err(c, TN_E_PARSE, path_key(where, base, "tileproperties"),
                       "expected an object, found %s", json_type(legacy));
        for (const cJSON *e = legacy->child; e && st == TN_OK; e = e->next) {
            char tb[TL_PATH];
            pathf(tb, sizeof tb, "%s.tileproperties.%s", base, e->string);
            int64_t id = 0;
            if ((st = key_id(c, e->string, tb, max_id, &id)) != TN_OK)
                return st;
            if (!cJSON_IsObject(e))
                return err(c, TN_E_PARSE, tb, "expected an object, found %s", json_type(e));
            st = tile_props(c, e, tb, (uint32_t)(firstgid + id));
        }
    }
    if (st != TN_OK)
        return st;
    void *p = c->tilesets;
    st = tn__grow(c->a, &p, sizeof(tn_tileset), &c->cap_ts, c->nts + 1);
    if (st != TN_OK)
        return err(c, st, base, "out of memory");
    c->tilesets = p;
    c->tilesets[c->nts++] = t;
    return TN_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && same_ci(s + n - k, suffix);
}

/* Lexically normalise a path in place: drop "." parts and "x/.." pairs (so two spellings of
 * one file compare equal); the separators come out as '/'. */
static void normalise(char *path)
{
    size_t starts[256], lens[256], n = 0, len = strlen(path);
    for (size_t i = 0; i < len;) {
        while (i < len && native_sep(path[i]))
            i++;
        size_t j = i;
        while (j < len && !native_sep(path[j]))
            j++;
        size_t k = j - i;
        if (k == 0 || (k == 1 && path[i] == '.')) {
            /* an empty or "." part */
        } else if (k == 2 && path[i] == '.' && path[i + 1] == '.' && n > 0 &&
                   !(lens[n - 1] == 2 && path[starts[n - 1]] == '.' &&
                     path[starts[n - 1] + 1] == '.')) {
            n--;
        } else if (n == sizeof starts / sizeof starts[0]) {
            return; /* leave a very deep path as it is */
        } else {
            starts[n] = i;
            lens[n++] = k;
        }
        i = j;
    }
    char out[TL_FILE];
    size_t o = 0;
    if (native_sep(path[0]))
        out[o++] = '/';
    for (size_t i = 0; i < n && o + lens[i] + 2 < sizeof out; i++) {
        if (i)
            out[o++] = '/';
        memcpy(out + o, path + starts[i], lens[i]);
        o += lens[i];
    }
    out[o] = '\0';
    memcpy(path, out, o + 1);
}

static tn_status add_source(tl_ctx *c, const char *path, uint32_t firstgid, const char *where)
{
    void *p = c->sources;
    tn_status st = grow(c, &p, sizeof(tl_source), &c->cap_sources, c->nsources + 1, where);
    if (st != TN_OK)
        return st;
    c->sources = p;
    tl_source *s = &c->sources[c->nsources++];
    pathf(s->path, sizeof s->path, "%s", path);
    normalise(s->path);
    s->firstgid = firstgid;
    return TN_OK;
}

static tn_status read_tilesets(tl_ctx *c, const cJSON *root)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "tilesets");
    if (!arr)
        return TN_OK;
    if (!cJSON_IsArray(arr))
        return err(c, TN_E_PARSE, "tilesets", "expected an array, found %s", json_type(arr));
    tn_status st = TN_OK;
    int i = 0;
    for (const cJSON *ts = arr->child; ts && st == TN_OK; ts = ts->next, i++) {
        char base[TL_PATH], where[TL_PATH];
        pathf(base, sizeof base, "tilesets[%d]", i);
        if (!cJSON_IsObject(ts))
            return err(c, TN_E_PARSE, base, "expected a tileset object, found %s", json_type(ts));
        int64_t firstgid;
        st = get_int(c, ts, base, "firstgid", true, 0, 1, 0x0FFFFFFF, &firstgid);
        const char *src = NULL;
        if (st == TN_OK)
            st = get_str(c, ts, base, "source", &src);
        if (st != TN_OK)
            return st;
        if (!src) {
            st = read_tileset(c, ts, base, firstgid, c->dir);
            continue;
        }
        path_key(where, base, "source");
        char path[TL_FILE];
        st = join_path(c, c->dir, src, path, sizeof path, where);
        if (st == TN_OK)
            st = add_source(c, path, (uint32_t)firstgid, where);
        if (st != TN_OK)
            return st;
        char *text = NULL;
        size_t len = 0;
        tn_diag sub;
        st = tn__file_read(path, c->o->max_file_bytes, NULL, &text, &len, &sub);
        if (st != TN_OK)
            return err(c, st, where, "external tileset '%s' (from \"%s\"): %s", path, src,
                       sub.message);
        if (c->o->on_file)
            c->o->on_file(path, c->o->on_file_user);
        const char *saved = c->file;
        bool saved_ext = c->external;
        c->file = path;
        c->external = true;
        cJSON *tj = NULL;
        if (ends_with(src, ".tsx") || ends_with(src, ".xml")) /* Tiled XML: tmx.c reads it */
            st = tn__tmx_to_json(text, len, path, TN__TILED_TILESET, c->o, &tj, c->diag);
        else
            st = parse_json(c, text, len, &tj);
        tn__file_free(NULL, text, len);
        if (st == TN_OK) {
            char tdir[TL_FILE];
            dir_of(path, tdir, sizeof tdir);
            const cJSON *type = cJSON_GetObjectItemCaseSensitive(tj, "type");
            if (cJSON_IsString(type) && strcmp(type->valuestring, "tileset") != 0)
                st = err(c, TN_E_PARSE, "type", "expected a tileset, found type '%s'",
                         type->valuestring);
            else
                st = read_tileset(c, tj, "", firstgid, tdir);
        }
        cJSON_Delete(tj);
        c->file = saved;
        c->external = saved_ext;
    }
    return st;
}

/* ---- layers ------------------------------------------------------------------------------ */

static tn_status flatten(tl_ctx *c, const cJSON *arr, const char *base, const char *prefix,
                         uint32_t hidden)
{
    if (!cJSON_IsArray(arr))
        return err(c, TN_E_PARSE, base, "expected an array of layers, found %s", json_type(arr));
    int i = 0;
    tn_status st = TN_OK;
    for (const cJSON *l = arr->child; l && st == TN_OK; l = l->next, i++) {
        char path[TL_PATH], where[TL_PATH];
        pathf(path, sizeof path, "%s[%d]", base, i);
        if (!cJSON_IsObject(l))
            return err(c, TN_E_PARSE, path, "expected a layer object, found %s", json_type(l));
        const char *type, *name;
        bool visible = true;
        st = get_str(c, l, path, "type", &type);
        if (st == TN_OK)
            st = get_str(c, l, path, "name", &name);
        if (st == TN_OK)
            st = get_bool(c, l, path, "visible", true, &visible);
        if (st != TN_OK)
            return st;
        if (!type)
            return err(c, TN_E_PARSE, path_key(where, path, "type"), "missing field");
        uint32_t hid = hidden | (visible ? 0u : (uint32_t)TN_LAYER_HIDDEN);
        if (strcmp(type, "group") == 0) {
            char full[TN_MAX_NAME];
            copy_name(full, prefix, name);
            size_t n = strlen(full);
            if (n + 1 < TN_MAX_NAME) {
                full[n] = '/';
                full[n + 1] = '\0';
            }
            const cJSON *sub = cJSON_GetObjectItemCaseSensitive(l, "layers");
            if (!sub)
                continue; /* an empty group */
            st = flatten(c, sub, path_key(where, path, "layers"), full, hid);
            continue;
        }
        if (strcmp(type, "imagelayer") == 0)
            continue; /* pictures only: nothing to navigate */
        bool tiles = strcmp(type, "tilelayer") == 0;
        if (!tiles && strcmp(type, "objectgroup") != 0)
            return err(c, TN_E_PARSE, path_key(where, path, "type"),
                       "unknown layer type '%s' (expected tilelayer, objectgroup, group or "
                       "imagelayer)",
                       type);
        if (c->nlayers >= TN_MAX_LAYERS)
            return err(c, TN_E_TOO_LARGE, path, "more than %d layers", TN_MAX_LAYERS);
        void *p = c->layers;
        st = tn__grow(c->a, &p, sizeof(tl_layer), &c->cap_layers, c->nlayers + 1);
        if (st != TN_OK)
            return err(c, st, path, "out of memory");
        c->layers = p;
        tl_layer *L = &c->layers[c->nlayers++];
        memset(L, 0, sizeof *L);
        L->node = l;
        copy_name(L->name, prefix, name);
        pathf(L->path, sizeof L->path, "%s", path);
        L->hidden = hid;
        L->tiles = tiles;
    }
    return st;
}

/* Bounds of every chunk of every tile layer (infinite maps). */
static tn_status chunk_bounds(tl_ctx *c, const cJSON *root)
{
    int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
    tn_status st = TN_OK;
    for (size_t k = 0; k < c->nlayers && st == TN_OK; k++) {
        const tl_layer *L = &c->layers[k];
        if (!L->tiles)
            continue;
        char where[TL_PATH];
        const cJSON *chunks = cJSON_GetObjectItemCaseSensitive(L->node, "chunks");
        if (!chunks)
            return err(c, TN_E_PARSE, path_key(where, L->path, "chunks"),
                       "missing field (the map is infinite)");
        if (!cJSON_IsArray(chunks))
            return err(c, TN_E_PARSE, path_key(where, L->path, "chunks"),
                       "expected an array, found %s", json_type(chunks));
        int i = 0;
        for (const cJSON *ch = chunks->child; ch && st == TN_OK; ch = ch->next, i++) {
            char base[TL_PATH];
            pathf(base, sizeof base, "%s.chunks[%d]", L->path, i);
            if (!cJSON_IsObject(ch))
                return err(c, TN_E_PARSE, base, "expected a chunk object, found %s", json_type(ch));
            int64_t x, y, w, h;
            st = get_int(c, ch, base, "x", true, 0, INT32_MIN, INT32_MAX, &x);
            if (st == TN_OK)
                st = get_int(c, ch, base, "y", true, 0, INT32_MIN, INT32_MAX, &y);
            if (st == TN_OK)
                st = get_int(c, ch, base, "width", true, 0, 1, TN_MAX_DIM, &w);
            if (st == TN_OK)
                st = get_int(c, ch, base, "height", true, 0, 1, TN_MAX_DIM, &h);
            if (st != TN_OK)
                return st;
            x0 = x < x0 ? x : x0;
            y0 = y < y0 ? y : y0;
            x1 = x + w > x1 ? x + w : x1;
            y1 = y + h > y1 ? y + h : y1;
        }
    }
    if (x0 == INT64_MAX) { /* no chunk at all: use the declared size */
        int64_t w = 1, h = 1;
        st = get_int(c, root, "", "width", true, 0, 1, TN_MAX_DIM, &w);
        if (st == TN_OK)
            st = get_int(c, root, "", "height", true, 0, 1, TN_MAX_DIM, &h);
        c->w = (int32_t)w;
        c->h = (int32_t)h;
        c->ox = c->oy = 0;
        return st;
    }
    if (x1 - x0 > TN_MAX_DIM || y1 - y0 > TN_MAX_DIM || (x1 - x0) * (y1 - y0) > TN_MAX_CELLS)
        return err(c, TN_E_TOO_LARGE, "layers",
                   "the chunks span %lld x %lld cells, past the limit (%d per side, %d cells)",
                   (long long)(x1 - x0), (long long)(y1 - y0), TN_MAX_DIM, TN_MAX_CELLS);
    c->w = (int32_t)(x1 - x0);
    c->h = (int32_t)(y1 - y0);
    c->ox = x0;
    c->oy = y0;
    return TN_OK;
}

/* A string of comma-separated gids ("encoding": "csv" from the XML reader, see
 * io_internal.h; blanks allowed around each) into out, or only checked when out is NULL. */
static tn_status decode_csv_string(tl_ctx *c, const char *s, uint32_t *out, size_t count,
                                   const char *where, int32_t dw, int32_t dh)
{
    size_t n = 0, i = 0;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        i++;
    while (s[i]) {
        while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
            i++;
        size_t start = i;
        uint64_t v = 0;
        bool ok = s[i] >= '0' && s[i] <= '9';
        for (; s[i] >= '0' && s[i] <= '9'; i++) {
            v = v * 10 + (uint64_t)(s[i] - '0');
            ok = ok && v <= 0xFFFFFFFFu;
        }
        size_t end = i;
        while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
            i++;
        if (!ok || (s[i] && s[i] != ',')) {
            char w2[TL_PATH];
            pathf(w2, sizeof w2, "%s[%zu]", where, n);
            while (s[end] && s[end] != ',' && end - start < 20)
                end++;
            return err(c, TN_E_PARSE, w2,
                       "gid must be a whole number in [0, 4294967295], found '%.*s'",
                       (int)(end - start), s + start);
        }
        if (n == count) { /* one gid too many: count the rest for the message */
            size_t more = 1;
            for (; s[i]; i++)
                more += s[i] == ',';
            return err(c, TN_E_PARSE, where, "has %zu gids, expected %d x %d = %zu", count + more,
                       (int)dw, (int)dh, count);
        }
        if (out)
            out[n] = (uint32_t)v;
        n++;
        if (s[i] == ',' && !s[++i]) { /* a trailing comma: an empty last gid */
            char w2[TL_PATH];
            pathf(w2, sizeof w2, "%s[%zu]", where, n);
            return err(c, TN_E_PARSE, w2,
                       "gid must be a whole number in [0, 4294967295], found ''");
        }
    }
    if (n != count)
        return err(c, TN_E_PARSE, where, "has %zu gids, expected %d x %d = %zu", n, (int)dw,
                   (int)dh, count);
    return TN_OK;
}

/* Decode one `data` (array, csv string or base64 string) of `count` gids into out. */
static tn_status decode_data(tl_ctx *c, const cJSON *data, const char *enc, const char *comp,
                             uint32_t *out, size_t count, const char *where, int32_t dw, int32_t dh)
{
    if (!data)
        return err(c, TN_E_PARSE, where, "missing field");
    if (count > c->o->max_layer_cells || c->decoded_cells > c->o->max_layer_cells - count)
        return err(c, TN_E_TOO_LARGE, where,
                   "the layers hold more than %zu cells in all (max_layer_cells)",
                   c->o->max_layer_cells);
    c->decoded_cells += count;
    bool check_only = out == NULL;
    if (!enc || strcmp(enc, "csv") == 0) {
        if (comp && comp[0])
            return err(c, TN_E_PARSE, where, "compression '%s' needs base64 encoding", comp);
        if (enc && cJSON_IsString(data))
            return decode_csv_string(c, data->valuestring, out, count, where, dw, dh);
        if (!cJSON_IsArray(data))
            return err(c, TN_E_PARSE, where, "expected an array of gids, found %s",
                       json_type(data));
        size_t n = 0;
        for (const cJSON *e = data->child; e; e = e->next)
            n++;
        if (n != count)
            return err(c, TN_E_PARSE, where, "has %zu gids, expected %d x %d = %zu", n, (int)dw,
                       (int)dh, count);
        if (check_only)
            return TN_OK;
        size_t i = 0;
        for (const cJSON *e = data->child; e; e = e->next, i++) {
            double d = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
            if (!(d >= 0.0 && d <= 4294967295.0 && d == floor(d))) {
                char w2[TL_PATH];
                pathf(w2, sizeof w2, "%s[%zu]", where, i);
                if (!cJSON_IsNumber(e))
                    return err(c, TN_E_PARSE, w2, "gid must be a whole number, found %s",
                               json_type(e));
                return err(c, TN_E_PARSE, w2,
                           "gid must be a whole number in [0, 4294967295], found %.17g", d);
            }
            out[i] = (uint32_t)d;
        }
        return TN_OK;
    }
    if (strcmp(enc, "base64") != 0)
        return err(c, TN_E_PARSE, where, "unknown encoding '%s' (expected csv or base64)", enc);
    int kind = 0; /* 0 none, 1 zlib/gzip, 2 zstd */
    if (!comp || !comp[0])
        kind = 0;
    else if (strcmp(comp, "zlib") == 0 || strcmp(comp, "gzip") == 0)
        kind = 1;
    else if (strcmp(comp, "zstd") == 0)
        kind = 2;
    else
        return err(c, TN_E_PARSE, where,
                   "unknown compression '%s' (expected zlib, gzip, zstd or none)", comp);
    if (!cJSON_IsString(data))
        return err(c, TN_E_PARSE, where, "expected a base64 string, found %s", json_type(data));
    const char *s = data->valuestring;
    size_t slen = strlen(s), raw = 0, want = count * 4;
    char msg[200];
    tn_status st = tn__base64_size(s, slen, &raw, msg, sizeof msg);
    if (st != TN_OK)
        return err(c, st, where, "%s", msg);
    if (check_only) {
        /* Compressed data cannot expand past its format's best ratio (deflate 1032:1, zstd
         * about 43700:1 with 3-byte RLE blocks of 128 KiB): a tiny file never justifies a
         * huge allocation. */
        double most = kind == 0   ? (double)raw
                      : kind == 1 ? (double)raw * 1032.0 + 64.0
                                  : (double)raw * 65536.0 + 4096.0;
        if (kind == 0 && raw != want)
            return err(c, TN_E_PARSE, where,
                       "base64 data decodes to %zu bytes, expected %d x %d cells x 4 = %zu", raw,
                       (int)dw, (int)dh, want);
        if ((double)want > most)
            return err(c, TN_E_PARSE, where,
                       "%zu bytes of %s data cannot hold %d x %d cells (%zu bytes)", raw, comp,
                       (int)dw, (int)dh, want);
        return TN_OK;
    }
    if (kind == 0) {
        if (raw != want)
            return err(c, TN_E_PARSE, where,
                       "base64 data decodes to %zu bytes, expected %d x %d cells x 4 = %zu", raw,
                       (int)dw, (int)dh, want);
        tn__base64_decode(s, slen, (uint8_t *)out);
    } else {
        uint8_t *tmp = tn__alloc(c->a, raw ? raw : 1);
        if (!tmp)
            return err(c, TN_E_NOMEM, where, "out of memory");
        tn__base64_decode(s, slen, tmp);
        st = kind == 1 ? tn__inflate_exact(tmp, raw, (uint8_t *)out, want, comp, msg, sizeof msg)
                       : tn__zstd_exact(tmp, raw, (uint8_t *)out, want, msg, sizeof msg);
        tn__free(c->a, tmp, raw ? raw : 1);
        if (st != TN_OK)
            return err(c, st, where, "%s", msg);
    }
    /* Tiled stores gids little-endian. */
    const uint8_t *b = (const uint8_t *)out;
    for (size_t i = 0; i < count; i++) {
        uint32_t g = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                     (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
        memcpy(&out[i], &g, sizeof g);
    }
    return TN_OK;
}

/* gids == NULL: only check that each data item can hold its cells (before allocating). */
static tn_status read_tile_layer(tl_ctx *c, const tl_layer *L, uint32_t *gids)
{
    const char *enc, *comp;
    char where[TL_PATH];
    tn_status st = get_str(c, L->node, L->path, "encoding", &enc);
    if (st == TN_OK)
        st = get_str(c, L->node, L->path, "compression", &comp);
    if (st != TN_OK)
        return st;
    size_t cells = (size_t)c->w * (size_t)c->h;
    if (gids)
        memset(gids, 0, cells * sizeof(uint32_t));
    if (!c->infinite) {
        int64_t w, h;
        st = get_int(c, L->node, L->path, "width", false, c->w, 0, INT32_MAX, &w);
        if (st == TN_OK)
            st = get_int(c, L->node, L->path, "height", false, c->h, 0, INT32_MAX, &h);
        if (st == TN_OK && (w != c->w || h != c->h))
            st = err(c, TN_E_PARSE, L->path, "layer is %lld x %lld cells, the map %d x %d",
                     (long long)w, (long long)h, (int)c->w, (int)c->h);
        if (st != TN_OK)
            return st;
        return decode_data(c, cJSON_GetObjectItemCaseSensitive(L->node, "data"), enc, comp, gids,
                           cells, path_key(where, L->path, "data"), c->w, c->h);
    }
    const cJSON *chunks = cJSON_GetObjectItemCaseSensitive(L->node, "chunks");
    int i = 0;
    for (const cJSON *ch = chunks->child; ch && st == TN_OK; ch = ch->next, i++) {
        char base[TL_PATH];
        pathf(base, sizeof base, "%s.chunks[%d]", L->path, i);
        /* chunk_bounds checked these fields already */
        int64_t x = (int64_t)cJSON_GetObjectItemCaseSensitive(ch, "x")->valuedouble - c->ox;
        int64_t y = (int64_t)cJSON_GetObjectItemCaseSensitive(ch, "y")->valuedouble - c->oy;
        int32_t w = (int32_t)cJSON_GetObjectItemCaseSensitive(ch, "width")->valuedouble;
        int32_t h = (int32_t)cJSON_GetObjectItemCaseSensitive(ch, "height")->valuedouble;
        size_t n;
        if (!tn__mul_size((size_t)w, (size_t)h, &n) || n > TN_MAX_CELLS)
            return err(c, TN_E_TOO_LARGE, base, "chunk of %d x %d cells is too large", (int)w,
                       (int)h);
        if (!gids) {
            st = decode_data(c, cJSON_GetObjectItemCaseSensitive(ch, "data"), enc, comp, NULL, n,
                             path_key(where, base, "data"), w, h);
            continue;
        }
        if (n > c->scratch_cap) {
            void *p = c->scratch;
            st = tn__grow(c->a, &p, sizeof(uint32_t), &c->scratch_cap, n);
            if (st != TN_OK)
                return err(c, st, base, "out of memory");
            c->scratch = p;
        }
        st = decode_data(c, cJSON_GetObjectItemCaseSensitive(ch, "data"), enc, comp, c->scratch, n,
                         path_key(where, base, "data"), w, h);
        for (int32_t r = 0; r < h && st == TN_OK; r++)
            memcpy(gids + (size_t)(y + r) * (size_t)c->w + (size_t)x,
                   c->scratch + (size_t)r * (size_t)w, (size_t)w * sizeof(uint32_t));
    }
    return st;
}

static tn_status read_object(tl_ctx *c, const cJSON *o, const char *base, int32_t layer, tn_map *m)
{
    tn_map_object ob;
    memset(&ob, 0, sizeof ob);
    ob.layer = layer;
    const double lim = 1e9;
    int64_t id = 0, gid = 0;
    double x, y, w, h;
    const char *name, *type, *cls;
    tn_status st = get_int(c, o, base, "id", false, 0, 0, INT32_MAX, &id);
    if (st == TN_OK)
        st = get_int(c, o, base, "gid", false, 0, 0, 0xFFFFFFFFll, &gid);
    if (st == TN_OK)
        st = get_num(c, o, base, "x", 0, -lim, lim, &x);
    if (st == TN_OK)
        st = get_num(c, o, base, "y", 0, -lim, lim, &y);
    if (st == TN_OK)
        st = get_num(c, o, base, "width", 0, 0, lim, &w);
    if (st == TN_OK)
        st = get_num(c, o, base, "height", 0, 0, lim, &h);
    if (st == TN_OK)
        st = get_str(c, o, base, "name", &name);
    if (st == TN_OK)
        st = get_str(c, o, base, "type", &type);
    if (st == TN_OK)
        st = get_str(c, o, base, "class", &cls);
    if (st != TN_OK)
        return st;
    copy_name(ob.name, name, NULL);
    copy_name(ob.type, type && type[0] ? type : cls, NULL);
    ob.id = (int32_t)id;
    ob.gid = (uint32_t)gid;
    bool point, ellipse;
    st = get_bool(c, o, base, "point", false, &point);
    if (st == TN_OK)
        st = get_bool(c, o, base, "ellipse", false, &ellipse);
    if (st != TN_OK)
        return st;
    const cJSON *poly = cJSON_GetObjectItemCaseSensitive(o, "polygon");
    const char *pkey = "polygon";
    if (!poly) {
        poly = cJSON_GetObjectItemCaseSensitive(o, "polyline");
        pkey = "polyline";
    }
    if (point) {
        ob.shape = 1;
        w = h = 0;
    } else if (ellipse) {
        ob.shape = 2;
    } else if (poly) {
        char pw[TL_PATH];
        path_key(pw, base, pkey);
        ob.shape = pkey[4] == 'g' ? 3u : 4u;
        size_t first, np; /* read with the shapes' reader, kept only for the bounding box */
        if ((st = read_points(c, poly, pw, &first, &np)) != TN_OK)
            return st;
        double x0 = (double)INFINITY, y0 = x0, x1 = -x0, y1 = -x0;
        for (size_t k = first; k < first + np; k++) {
            x0 = fmin(x0, c->pts[2 * k]);
            y0 = fmin(y0, c->pts[2 * k + 1]);
            x1 = fmax(x1, c->pts[2 * k]);
            y1 = fmax(y1, c->pts[2 * k + 1]);
        }
        c->npts = first;
        x += x0;
        y += y0;
        w = x1 - x0;
        h = y1 - y0;
    } else if (cJSON_GetObjectItemCaseSensitive(o, "text")) {
        ob.shape = 5;
    } else if (gid) {
        y -= h; /* Tiled anchors tile objects at their bottom-left corner */
    }
    ob.x = (float)(x - (double)c->ox * c->tw);
    ob.y = (float)(y - (double)c->oy * c->th);
    ob.w = (float)w;
    ob.h = (float)h;
    st = tn_map_add_object(m, &ob);
    if (st != TN_OK)
        return err(c, st, base, "cannot add the object: %s", tn_status_str(st));
    return TN_OK;
}

/* ---- collision: tiles, tile layers, collision layers ----------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_tile(const void *a, const void *b)
{
    uint32_t x = ((const tl_tile *)a)->gid, y = ((const tl_tile *)b)->gid;
    return (x > y) - (x < y);
}

static const tl_tile *find_tile(const tl_ctx *c, uint32_t id)
{
    size_t lo = 0, hi = c->ntiles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->tiles[mid].gid < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->ntiles && c->tiles[lo].gid == id ? &c->tiles[lo] : NULL;
}

/* Cell tests the collision shapes of one load may take: 4 x max_layer_cells (2^30 by
 * default, a few seconds), so many huge shapes cannot keep the loader busy for long. */
static uint64_t raster_budget(const tl_ctx *c)
{
    uint64_t m = (uint64_t)c->o->max_layer_cells;
    return m > UINT64_MAX / 4 ? UINT64_MAX : 4 * m;
}

static tn_status raster_error(tl_ctx *c, tn_status st, const char *where)
{
    if (st == TN_E_TOO_LARGE)
        return err(c, st, where,
                   "the collision shapes need more than %llu cell tests in all (4 x "
                   "max_layer_cells)",
                   (unsigned long long)raster_budget(c));
    return err(c, st, where, "out of memory rasterising collision shapes");
}

static tn_status ensure_marks(tl_ctx *c)
{
    if (c->marks)
        return TN_OK;
    c->marks = tn__calloc(c->a, (size_t)c->w * (size_t)c->h);
    return c->marks ? TN_OK : err(c, TN_E_NOMEM, NULL, "out of memory for collision cells");
}

/* Rasterise a tile's shapes placed by `place` (tile pixels -> map pixels) into the map's
 * cells with `bit`. */
static tn_status raster_tile(tl_ctx *c, const tl_tile *t, const tn__affine *place, uint8_t bit,
                             const char *where)
{
    tn__raster_grid g = {c->w, c->h, c->tw, c->th, c->marks, bit, &c->work, raster_budget(c)};
    tn_status st = TN_OK;
    for (size_t k = 0; k < t->count && st == TN_OK; k++) {
        tn__shape r = to_raster(c, &c->shapes[t->first + k], place);
        st = tn__raster(&r, c->o->cover, &g, c->a);
    }
    return st == TN_OK ? TN_OK : raster_error(c, st, where);
}

/* The flips of a raw gid as a transform of the tile's pixels (iw x ih): diagonal (swap x and
 * y) first, then horizontal, then vertical. *fw x *fh: the size after the diagonal flip. */
static tn__affine flip_affine(uint32_t raw, int32_t iw, int32_t ih, double *fw, double *fh)
{
    tn__affine m = tn__affine_identity();
    double w = iw, h = ih;
    if (raw & TN_GID_FLIP_D) {
        m = (tn__affine){0, 1, 1, 0, 0, 0};
        w = ih;
        h = iw;
    }
    if (raw & TN_GID_FLIP_H) {
        tn__affine f = {-1, 0, 0, 1, w, 0};
        m = tn__affine_then(&m, &f);
    }
    if (raw & TN_GID_FLIP_V) {
        tn__affine f = {1, 0, 0, -1, 0, h};
        m = tn__affine_then(&m, &f);
    }
    *fw = w;
    *fh = h;
    return m;
}

/* The transform from tile t's pixels to the map's when it is drawn in cell (cx, cy) with the
 * flips of `raw`: at its own size on the cell's bottom-left corner, or scaled onto the cell
 * (tilerendersize "grid": stretched, or fitted with its aspect kept and centred). */
static tn__affine tile_place(const tl_ctx *c, const tl_tile *t, uint32_t raw, int32_t cx,
                             int32_t cy)
{
    double fw, fh;
    tn__affine m = flip_affine(raw, t->iw, t->ih, &fw, &fh);
    double x0 = (double)cx * c->tw, y0 = (double)cy * c->th;
    if (t->render == TL_RENDER_TILE) {
        tn__affine at = tn__affine_translate(x0, y0 + c->th - fh);
        return tn__affine_then(&m, &at);
    }
    double sx = c->tw / fw, sy = c->th / fh, ox = 0.0, oy = 0.0;
    if (t->render == TL_RENDER_FIT) {
        double k = sx < sy ? sx : sy;
        ox = (c->tw - fw * k) / 2.0;
        oy = (c->th - fh * k) / 2.0;
        sx = sy = k;
    }
    tn__affine at = {sx, 0.0, 0.0, sy, x0 + ox, y0 + oy};
    return tn__affine_then(&m, &at);
}

/* Once the tilesets are read: sort the shaped tiles, decide for those of one cell's size
 * whether their shapes block the cell, and give those a blocking terrain entry (keeping a
 * cost their properties gave). Also the per-gid flags the report counts with. */
static tn_status finish_tiles(tl_ctx *c)
{
    c->nprops = c->nterr;
    if (c->ntiles)
        qsort(c->tiles, c->ntiles, sizeof *c->tiles, cmp_tile);
    bool shapes = (c->o->collision & TN_COLLIDE_TILE_SHAPES) != 0;
    for (size_t k = 0; k < c->ntiles; k++) {
        tl_tile *t = &c->tiles[k];
        /* a gid past the terrain table goes through the collision layer instead (same cells) */
        t->cell = (t->render != TL_RENDER_TILE || (t->iw == c->tw && t->ih == c->th)) &&
                  t->gid < TN_MAX_TERRAIN_GID;
        if (!t->cell) {
            c->oversize = c->oversize || shapes;
            continue;
        }
        uint8_t cell = 0;
        tn__raster_grid g = {1, 1, c->tw, c->th, &cell, 1, NULL, 0};
        /* per gid, so without flips: they move no shape out of the cell, and change neither
         * its centre's cover nor its area (a fitted tile turned by a diagonal flip on a
         * cell that is not square may cover another area: not seen here) */
        tn__affine place = tile_place(c, t, t->gid, 0, 0);
        for (size_t i = 0; i < t->count && !cell; i++) {
            tn__shape r = to_raster(c, &c->shapes[t->first + i], &place);
            if (tn__raster(&r, c->o->cover, &g, c->a) != TN_OK)
                return err(c, TN_E_NOMEM, "tilesets", "out of memory rasterising tile shapes");
        }
        t->blocks = cell != 0;
    }
    if (shapes)
        for (size_t k = 0; k < c->ntiles; k++)
            c->rep.tiles_with_shapes += k == 0 || c->tiles[k].gid != c->tiles[k - 1].gid;
    /* the property entries sorted by (gid, position): the last of equal gids wins, as in the
     * map's terrain table */
    uint64_t *keys = NULL;
    if (shapes && c->nprops) {
        keys = tn__alloc(c->a, c->nprops * sizeof *keys);
        if (!keys)
            return err(c, TN_E_NOMEM, "tilesets", "out of memory");
        for (size_t i = 0; i < c->nprops; i++)
            keys[i] = (uint64_t)c->tgid[i] << 32 | (uint64_t)i;
        qsort(keys, c->nprops, sizeof *keys, cmp_u64);
    }
    tn_status st = TN_OK;
    uint32_t maxgid = 0;
    for (size_t k = 0; k < c->ntiles && st == TN_OK && shapes; k++) {
        const tl_tile *t = &c->tiles[k];
        if (!t->cell || !t->blocks)
            continue;
        tl_props p = {true, true, false, 1.0};
        size_t lo = 0, hi = c->nprops; /* first key of a larger gid */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (keys[mid] >> 32 <= t->gid)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo > 0 && keys[lo - 1] >> 32 == t->gid) {
            p.has_cost = true;
            p.cost = (double)c->tter[keys[lo - 1] & 0xFFFFFFFFu].cost;
        }
        st = push_terrain(c, t->gid, &p, "tilesets");
        maxgid = t->gid > maxgid ? t->gid : maxgid;
    }
    if (keys)
        tn__free(c->a, keys, c->nprops * sizeof *keys);
    if (st != TN_OK || !c->o->report)
        return st;
    /* per-gid flags for the report */
    for (size_t i = 0; i < c->nprops; i++)
        maxgid = c->tgid[i] > maxgid ? c->tgid[i] : maxgid;
    c->ngflags = (size_t)maxgid + 1;
    c->gflags = tn__calloc(c->a, c->ngflags);
    if (!c->gflags)
        return err(c, TN_E_NOMEM, "tilesets", "out of memory");
    for (size_t i = 0; i < c->nprops; i++)
        c->gflags[c->tgid[i]] = (uint8_t)(c->tter[i].passable ? c->gflags[c->tgid[i]] & ~GF_PROPS
                                                              : c->gflags[c->tgid[i]] | GF_PROPS);
    for (size_t i = c->nprops; i < c->nterr; i++)
        c->gflags[c->tgid[i]] |= GF_SHAPES;
    return TN_OK;
}

/* After a tile layer's gids are read: the report's per-convention marks, and the shapes of
 * tiles that are not one cell in size, placed with their bottom-left corner at their cell's. */
static tn_status collide_tile_layer(tl_ctx *c, const uint32_t *gids, const char *where)
{
    if (!c->marks)
        return TN_OK;
    const tl_tile *last = NULL;
    uint32_t last_id = 0;
    for (int32_t cy = 0; cy < c->h; cy++)
        for (int32_t cx = 0; cx < c->w; cx++) {
            size_t i = (size_t)cy * (size_t)c->w + (size_t)cx;
            uint32_t raw = gids[i], id = tn_gid_id(raw);
            if (!id)
                continue;
            if (id < c->ngflags)
                c->marks[i] |= c->gflags[id]; /* GF_PROPS = MK_PROPS, GF_SHAPES = MK_SHAPES */
            if (!c->oversize)
                continue;
            if (!last || id != last_id) {
                last = find_tile(c, id);
                last_id = id;
            }
            if (!last || last->cell)
                continue;
            tn__affine m = tile_place(c, last, raw, cx, cy);
            tn_status st = raster_tile(c, last, &m, MK_SHAPES | MK_LAYER, where);
            if (st != TN_OK)
                return st;
        }
    return TN_OK;
}

/* Does `name` equal one of the comma-separated marker names (case-insensitively)? */
static bool is_marker(const tl_ctx *c, const char *name)
{
    const char *list = c->o->collision_layers;
    if (!list || !name || !name[0])
        return false;
    while (*list) {
        while (*list == ' ' || *list == '\t')
            list++;
        size_t n = strcspn(list, ",");
        size_t k = n;
        while (k > 0 && (list[k - 1] == ' ' || list[k - 1] == '\t'))
            k--;
        size_t i = 0;
        for (; i < k && name[i]; i++) {
            char x = list[i] >= 'A' && list[i] <= 'Z' ? (char)(list[i] + 32) : list[i];
            char y = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] + 32) : name[i];
            if (x != y)
                break;
        }
        if (k > 0 && i == k && !name[k])
            return true;
        list += n;
        if (*list == ',')
            list++;
    }
    return false;
}

/* Is this object layer a collision layer: its name, class (or a `type` other than the layer
 * kind, as some exporters write the class), or a true bool property named like a marker? */
static bool is_collision_layer(const tl_ctx *c, const tl_layer *L)
{
    if (!(c->o->collision & TN_COLLIDE_OBJECT_LAYERS))
        return false;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(L->node, "name");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(L->node, "class");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(L->node, "type");
    if ((cJSON_IsString(n) && is_marker(c, n->valuestring)) ||
        (cJSON_IsString(k) && is_marker(c, k->valuestring)) ||
        (cJSON_IsString(t) && strcmp(t->valuestring, "objectgroup") != 0 &&
         is_marker(c, t->valuestring)))
        return true;
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(L->node, "properties");
    if (cJSON_IsArray(props)) { /* [{name, type, value}] */
        for (const cJSON *p = props->child; p; p = p->next) {
            const cJSON *pn = cJSON_GetObjectItemCaseSensitive(p, "name");
            if (cJSON_IsString(pn) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "value")) &&
                is_marker(c, pn->valuestring))
                return true;
        }
    } else if (cJSON_IsObject(props)) { /* Tiled < 1.2: {name: value} */
        for (const cJSON *p = props->child; p; p = p->next)
            if (cJSON_IsTrue(p) && is_marker(c, p->string))
                return true;
    }
    return false;
}

/* One object of a collision layer into the map's cells. */
static tn_status collide_object(tl_ctx *c, const cJSON *o, const char *base)
{
    tn_status st = ensure_marks(c);
    if (st != TN_OK)
        return st;
    tn__affine shift = tn__affine_translate(-(double)c->ox * c->tw, -(double)c->oy * c->th);
    const cJSON *gj = cJSON_GetObjectItemCaseSensitive(o, "gid");
    uint32_t raw = cJSON_IsNumber(gj) ? (uint32_t)gj->valuedouble : 0; /* read_object checked it */
    if (tn_gid_id(raw)) {
        const tl_tile *t = find_tile(c, tn_gid_id(raw));
        if (!t)
            return TN_OK;
        double x, y, w, h, rot;
        st = get_num(c, o, base, "x", 0, -1e9, 1e9, &x);
        if (st == TN_OK)
            st = get_num(c, o, base, "y", 0, -1e9, 1e9, &y);
        if (st == TN_OK)
            st = get_num(c, o, base, "width", 0, 0, 1e9, &w);
        if (st == TN_OK)
            st = get_num(c, o, base, "height", 0, 0, 1e9, &h);
        if (st == TN_OK)
            st = get_num(c, o, base, "rotation", 0, -1e9, 1e9, &rot);
        if (st != TN_OK)
            return st;
        double fw, fh;
        tn__affine m = flip_affine(raw, t->iw, t->ih, &fw, &fh);
        if (!(w > 0))
            w = fw;
        if (!(h > 0))
            h = fh;
        /* scale to the object's size, bottom-left at (x, y), rotate about (x, y), then the
         * map's origin */
        tn__affine step = {w / fw, 0, 0, h / fh, x, y - h};
        m = tn__affine_then(&m, &step);
        step = tn__affine_rotate_about(rot, x, y);
        m = tn__affine_then(&m, &step);
        m = tn__affine_then(&m, &shift);
        c->rep.collision_objects++;
        return raster_tile(c, t, &m, MK_OBJECTS | MK_LAYER, base);
    }
    size_t saved = c->npts;
    tl_shape sh;
    bool ok;
    st = read_shape(c, o, base, true, &sh, &ok);
    if (st == TN_OK && ok) {
        c->rep.collision_objects++;
        tn__shape r = to_raster(c, &sh, &shift);
        tn__raster_grid g = {
            c->w, c->h, c->tw, c->th, c->marks, MK_OBJECTS | MK_LAYER, &c->work, raster_budget(c)};
        if ((st = tn__raster(&r, c->o->cover, &g, c->a)) != TN_OK)
            st = raster_error(c, st, base);
    }
    c->npts = saved;
    return st;
}

/* ---- templates ------------------------------------------------------------------------- */

static tn_status load_template(tl_ctx *c, const char *rel, const char *where,
                               const tl_template **out)
{
    char path[TL_FILE];
    tn_status st = join_path(c, c->dir, rel, path, sizeof path, where);
    if (st != TN_OK)
        return st;
    normalise(path);
    for (size_t i = 0; i < c->ntemplates; i++)
        if (strcmp(c->templates[i].path, path) == 0) {
            *out = &c->templates[i];
            return TN_OK;
        }
    char *text = NULL;
    size_t len = 0;
    tn_diag sub;
    st = tn__file_read(path, c->o->max_file_bytes, NULL, &text, &len, &sub);
    if (st != TN_OK)
        return err(c, st, where, "template '%s' (from \"%s\"): %s", path, rel, sub.message);
    if (c->o->on_file)
        c->o->on_file(path, c->o->on_file_user);
    void *p = c->templates;
    st = grow(c, &p, sizeof(tl_template), &c->cap_templates, c->ntemplates + 1, where);
    if (st != TN_OK) {
        tn__file_free(NULL, text, len);
        return st;
    }
    c->templates = p;
    tl_template *t = &c->templates[c->ntemplates];
    memset(t, 0, sizeof *t);
    pathf(t->path, sizeof t->path, "%s", path);
    const char *saved = c->file;
    bool saved_ext = c->external;
    c->file = t->path;
    c->external = true;
    if (ends_with(path, ".tx") || ends_with(path, ".xml"))
        st = tn__tmx_to_json(text, len, t->path, TN__TILED_TEMPLATE, c->o, &t->root, c->diag);
    else
        st = parse_json(c, text, len, &t->root);
    tn__file_free(NULL, text, len);
    const cJSON *type = st == TN_OK ? cJSON_GetObjectItemCaseSensitive(t->root, "type") : NULL;
    if (st == TN_OK && cJSON_IsString(type) && strcmp(type->valuestring, "template") != 0)
        st = err(c, TN_E_PARSE, "type", "expected a template, found type '%s'", type->valuestring);
    if (st == TN_OK) {
        t->object = cJSON_GetObjectItemCaseSensitive(t->root, "object");
        if (!cJSON_IsObject(t->object))
            st = err(c, TN_E_PARSE, "object", "expected the template's object, found %s",
                     json_type(t->object));
        else if (cJSON_GetObjectItemCaseSensitive(t->object, "template"))
            st = err(c, TN_E_UNSUPPORTED, "object.template",
                     "a template cannot use another template");
    }
    const cJSON *ts = st == TN_OK ? cJSON_GetObjectItemCaseSensitive(t->root, "tileset") : NULL;
    if (ts) {
        int64_t first = 0;
        const char *src = NULL;
        if (!cJSON_IsObject(ts))
            st = err(c, TN_E_PARSE, "tileset", "expected {firstgid, source}, found %s",
                     json_type(ts));
        if (st == TN_OK)
            st = get_int(c, ts, "tileset", "firstgid", true, 0, 1, 0x0FFFFFFF, &first);
        if (st == TN_OK)
            st = get_str(c, ts, "tileset", "source", &src);
        if (st == TN_OK && !src)
            st = err(c, TN_E_PARSE, "tileset.source", "missing field");
        char tdir[TL_FILE];
        dir_of(t->path, tdir, sizeof tdir);
        if (st == TN_OK)
            st = join_path(c, tdir, src, t->tileset, sizeof t->tileset, "tileset.source");
        normalise(t->tileset);
        t->firstgid = (uint32_t)first;
    }
    c->file = saved;
    c->external = saved_ext;
    if (st != TN_OK) {
        cJSON_Delete(t->root);
        return st;
    }
    c->ntemplates++;
    *out = t;
    return TN_OK;
}

/* An object that names a template: the template's object with the object's own fields over
 * it (*out, to free), its tile gid mapped to the map's gids. *out = NULL without a template. */
static tn_status apply_template(tl_ctx *c, const cJSON *o, const char *base, cJSON **out)
{
    *out = NULL;
    const char *rel;
    char where[TL_PATH];
    tn_status st = get_str(c, o, base, "template", &rel);
    if (st != TN_OK || !rel)
        return st;
    path_key(where, base, "template");
    const tl_template *t = NULL;
    if ((st = load_template(c, rel, where, &t)) != TN_OK)
        return st;
    cJSON *m = cJSON_Duplicate(t->object, true);
    if (!m)
        return err(c, TN_E_NOMEM, where, "out of memory");
    for (const cJSON *e = o->child; e; e = e->next) {
        if (!e->string || strcmp(e->string, "template") == 0)
            continue;
        cJSON_DeleteItemFromObjectCaseSensitive(m, e->string);
        cJSON *d = cJSON_Duplicate(e, true);
        if (!d || !cJSON_AddItemToObject(m, e->string, d)) {
            cJSON_Delete(d);
            cJSON_Delete(m);
            return err(c, TN_E_NOMEM, where, "out of memory");
        }
    }
    cJSON *g = cJSON_GetObjectItemCaseSensitive(m, "gid");
    if (g && !cJSON_GetObjectItemCaseSensitive(o, "gid") && t->tileset[0]) {
        int64_t raw = 0;
        char gw[TL_PATH];
        const char *saved = c->file;
        c->file = t->path;
        st = check_int(c, g, "object.gid", 0, 0xFFFFFFFFll, TN_E_PARSE, &raw);
        c->file = saved;
        uint32_t id = tn_gid_id((uint32_t)raw);
        if (st == TN_OK && id) {
            const tl_source *src = NULL;
            for (size_t i = 0; i < c->nsources && !src; i++)
                if (strcmp(c->sources[i].path, t->tileset) == 0)
                    src = &c->sources[i];
            if (id < t->firstgid)
                st = err(c, TN_E_PARSE, where,
                         "template '%s': gid %u is below its tileset's firstgid %u", t->path, id,
                         t->firstgid);
            else if (!src)
                st = err(c, TN_E_PARSE, where,
                         "template '%s' uses tileset '%s', which the map does not load", t->path,
                         t->tileset);
            else if ((uint64_t)src->firstgid + (id - t->firstgid) > 0x0FFFFFFFu)
                st = err(c, TN_E_PARSE, path_key(gw, base, "gid"),
                         "template gid %u maps past the largest gid", id);
            else
                cJSON_SetNumberValue(g, (double)((src->firstgid + (id - t->firstgid)) |
                                                 tn_gid_flags((uint32_t)raw)));
        }
    }
    if (st != TN_OK) {
        cJSON_Delete(m);
        return st;
    }
    *out = m;
    return TN_OK;
}

static tn_status read_objects(tl_ctx *c, const tl_layer *L, int32_t layer, tn_map *m)
{
    char where[TL_PATH];
    const cJSON *objs = cJSON_GetObjectItemCaseSensitive(L->node, "objects");
    if (!objs)
        return TN_OK;
    if (!cJSON_IsArray(objs))
        return err(c, TN_E_PARSE, path_key(where, L->path, "objects"),
                   "expected an array, found %s", json_type(objs));
    bool collide = is_collision_layer(c, L);
    c->rep.collision_layers += collide;
    int i = 0;
    tn_status st = TN_OK;
    for (const cJSON *o = objs->child; o && st == TN_OK; o = o->next, i++) {
        char base[TL_PATH];
        pathf(base, sizeof base, "%s.objects[%d]", L->path, i);
        if (!cJSON_IsObject(o))
            return err(c, TN_E_PARSE, base, "expected an object, found %s", json_type(o));
        cJSON *merged = NULL;
        st = apply_template(c, o, base, &merged);
        const cJSON *ob = merged ? merged : o;
        if (st == TN_OK)
            st = read_object(c, ob, base, layer, m);
        if (st == TN_OK && collide)
            st = collide_object(c, ob, base);
        cJSON_Delete(merged);
    }
    return st;
}

static tn_status read_header(tl_ctx *c, const cJSON *root)
{
    const char *type, *orient;
    tn_status st = get_str(c, root, "", "type", &type);
    if (st == TN_OK && type && strcmp(type, "map") != 0)
        return err(c, TN_E_PARSE, "type", "expected a Tiled map, found type '%s'", type);
    if (st == TN_OK)
        st = get_str(c, root, "", "orientation", &orient);
    if (st == TN_OK && orient && strcmp(orient, "orthogonal") != 0)
        return err(c, TN_E_UNSUPPORTED, "orientation",
                   "'%s' maps are not supported (only orthogonal)", orient);
    int64_t w = 0, h = 0, tw = 0, th = 0;
    if (st == TN_OK)
        st = get_bool(c, root, "", "infinite", false, &c->infinite);
    if (st == TN_OK)
        st = get_int(c, root, "", "width", true, 0, -((int64_t)1 << 53), (int64_t)1 << 53, &w);
    if (st == TN_OK)
        st = get_int(c, root, "", "height", true, 0, -((int64_t)1 << 53), (int64_t)1 << 53, &h);
    if (st == TN_OK)
        st = get_int(c, root, "", "tilewidth", true, 0, 1, 1 << 16, &tw);
    if (st == TN_OK)
        st = get_int(c, root, "", "tileheight", true, 0, 1, 1 << 16, &th);
    if (st != TN_OK)
        return st;
    if (!c->infinite) {
        if (w < 1 || h < 1)
            return err(c, TN_E_PARSE, w < 1 ? "width" : "height", "must be >= 1, found %lld",
                       (long long)(w < 1 ? w : h));
        if (w > TN_MAX_DIM || h > TN_MAX_DIM || w * h > TN_MAX_CELLS)
            return err(c, TN_E_TOO_LARGE, w > TN_MAX_DIM ? "width" : "height",
                       "map of %lld x %lld cells is past the limit (%d per side, %d cells)",
                       (long long)w, (long long)h, TN_MAX_DIM, TN_MAX_CELLS);
    }
    c->w = (int32_t)(w > 0 && w <= TN_MAX_DIM ? w : 1);
    c->h = (int32_t)(h > 0 && h <= TN_MAX_DIM ? h : 1);
    c->tw = (int32_t)tw;
    c->th = (int32_t)th;
    return TN_OK;
}

/* TN_COLLISION_LAYER from the marked cells (only when some cell is blocked that way). */
static tn_status add_collision_layer(tl_ctx *c, tn_map *m, uint32_t *buf)
{
    size_t cells = (size_t)c->w * (size_t)c->h, n = 0;
    for (size_t i = 0; i < cells; i++)
        n += (c->marks[i] & MK_LAYER) != 0;
    if (!n)
        return TN_OK;
    uint32_t *gids = buf ? buf : tn__alloc(c->a, cells * sizeof(uint32_t));
    if (!gids)
        return err(c, TN_E_NOMEM, NULL, "out of memory for the collision layer");
    for (size_t i = 0; i < cells; i++)
        gids[i] = c->marks[i] & MK_LAYER ? TN_COLLISION_GID : 0;
    int32_t idx = -1;
    tn_status st = tn_map_add_layer(m, TN_COLLISION_LAYER, TN_LAYER_TILES, &idx);
    if (st == TN_OK)
        st = tn_map_set_terrain(m, TN_COLLISION_GID, (tn_terrain){false, 1.0f});
    if (st == TN_OK)
        st = tn_map_set_layer_data(m, idx, gids, (int32_t)cells);
    if (!buf)
        tn__free(c->a, gids, cells * sizeof(uint32_t));
    return st == TN_OK ? TN_OK
                       : err(c, st, NULL, "cannot add the layer " TN_COLLISION_LAYER ": %s",
                             tn_status_str(st));
}

static tn_status build(tl_ctx *c, const cJSON *root, tn_map **out)
{
    tn_status st = read_header(c, root);
    if (st == TN_OK)
        st = read_tilesets(c, root);
    if (st == TN_OK)
        st = finish_tiles(c);
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
    if (st == TN_OK && !layers)
        st = err(c, TN_E_PARSE, "layers", "missing field");
    if (st == TN_OK)
        st = flatten(c, layers, "layers", "", 0);
    if (st == TN_OK && c->infinite)
        st = chunk_bounds(c, root);
    if (st != TN_OK)
        return st;
    size_t cells = (size_t)c->w * (size_t)c->h, ntile = 0;
    for (size_t k = 0; k < c->nlayers; k++)
        ntile += c->layers[k].tiles;
    size_t total;
    /* a map without tile layers still allocates its own per-cell data: one layer's worth */
    if (!tn__mul_size(cells, ntile ? ntile : 1, &total) || total > c->o->max_layer_cells) {
        if (ntile == 0)
            return err(c, TN_E_TOO_LARGE, "layers",
                       "a map of %d x %d cells is past max_layer_cells (%zu)", (int)c->w, (int)c->h,
                       c->o->max_layer_cells);
        return err(c, TN_E_TOO_LARGE, "layers",
                   "%zu tile layers of %d x %d cells are past max_layer_cells (%zu)", ntile,
                   (int)c->w, (int)c->h, c->o->max_layer_cells);
    }

    /* Every data item must be able to hold its cells before W x H memory is committed. */
    for (size_t k = 0; k < c->nlayers && st == TN_OK; k++)
        if (c->layers[k].tiles)
            st = read_tile_layer(c, &c->layers[k], NULL);
    c->decoded_cells = 0;
    if (st != TN_OK)
        return st;

    tn_map_def d = tn_map_def_default();
    d.width = c->w;
    d.height = c->h;
    d.tile_width = c->tw;
    d.tile_height = c->th;
    d.allocator = c->o->allocator;
    tn_map *m = NULL;
    st = tn_map_create(&d, &m);
    if (st != TN_OK)
        return err(c, st, NULL, "cannot create the map: %s", tn_status_str(st));
    /* Terrain first, in one go: layers added afterwards update their cells once each. */
    st = tn_map_set_terrain_many(m, c->tgid, c->tter, (int32_t)c->nterr);
    if (st != TN_OK)
        st = err(c, st, "tilesets", "cannot set the terrain table: %s", tn_status_str(st));
    if (st == TN_OK && (c->o->report || c->oversize))
        st = ensure_marks(c);
    uint32_t *gids = NULL;
    if (st == TN_OK && ntile) {
        gids = tn__alloc(c->a, cells * sizeof(uint32_t));
        if (!gids)
            st =
                err(c, TN_E_NOMEM, NULL, "out of memory for a %d x %d layer", (int)c->w, (int)c->h);
    }
    for (size_t k = 0; k < c->nlayers && st == TN_OK; k++) {
        const tl_layer *L = &c->layers[k];
        int32_t idx = -1;
        st = tn_map_add_layer(m, L->name, L->tiles ? TN_LAYER_TILES : TN_LAYER_OBJECTS, &idx);
        if (st != TN_OK) {
            st = err(c, st, L->path, "cannot add the layer: %s", tn_status_str(st));
            break;
        }
        if (L->hidden)
            st = tn_map_set_layer_flags(m, idx, tn_map_layer_flags(m, idx) | TN_LAYER_HIDDEN);
        if (st == TN_OK && L->tiles) {
            st = read_tile_layer(c, L, gids);
            if (st == TN_OK)
                st = collide_tile_layer(c, gids, L->path);
            if (st == TN_OK && (st = tn_map_set_layer_data(m, idx, gids, (int32_t)cells)) != TN_OK)
                st = err(c, st, L->path, "cannot set the layer: %s", tn_status_str(st));
        } else if (st == TN_OK) {
            st = read_objects(c, L, idx, m);
        }
    }
    if (st == TN_OK && c->marks)
        st = add_collision_layer(c, m, gids);
    tn__free(c->a, gids, cells * sizeof(uint32_t));
    for (size_t k = 0; k < c->nts && st == TN_OK; k++)
        if ((st = tn_map_add_tileset(m, &c->tilesets[k])) != TN_OK)
            st = err(c, st, "tilesets", "cannot add a tileset: %s", tn_status_str(st));
    if (st == TN_OK && c->infinite) {
        /* Where the map's cell (0, 0) lies in Tiled's coordinates, in pixels. */
        tn_map_object org;
        memset(&org, 0, sizeof org);
        pathf(org.name, sizeof org.name, "origin");
        pathf(org.type, sizeof org.type, "tilenav:origin");
        org.layer = -1;
        org.shape = 1;
        org.x = (float)((double)c->ox * c->tw);
        org.y = (float)((double)c->oy * c->th);
        if ((st = tn_map_add_object(m, &org)) != TN_OK)
            st = err(c, st, NULL, "cannot record the origin: %s", tn_status_str(st));
    }
    if (st != TN_OK) {
        tn_map_destroy(m);
        return st;
    }
    if (c->o->report) {
        tn_load_report *r = c->o->report;
        *r = c->rep;
        for (size_t i = 0; c->marks && i < cells; i++) {
            r->blocked_by_properties += (c->marks[i] & MK_PROPS) != 0;
            r->blocked_by_tile_shapes += (c->marks[i] & MK_SHAPES) != 0;
            r->blocked_by_object_layers += (c->marks[i] & MK_OBJECTS) != 0;
        }
        r->cells_blocked = (int32_t)cells - tn_map_passable_count(m);
    }
    *out = m;
    return TN_OK;
}

static void ctx_init(tl_ctx *c, const char *name, const tn_load_def *opts, tn_diag *diag)
{
    memset(c, 0, sizeof *c);
    c->o = opts;
    c->a = &opts->allocator;
    c->diag = diag;
    c->file = name;
    dir_of(name, c->dir, sizeof c->dir);
    if (opts->report)
        memset(opts->report, 0, sizeof *opts->report);
}

static void ctx_free(tl_ctx *c)
{
    tn__free(c->a, c->layers, c->cap_layers * sizeof(tl_layer));
    tn__free(c->a, c->tgid, c->cap_tgid * sizeof(uint32_t));
    tn__free(c->a, c->tter, c->cap_tter * sizeof(tn_terrain));
    tn__free(c->a, c->tilesets, c->cap_ts * sizeof(tn_tileset));
    tn__free(c->a, c->scratch, c->scratch_cap * sizeof(uint32_t));
    tn__free(c->a, c->tiles, c->cap_tiles * sizeof(tl_tile));
    tn__free(c->a, c->shapes, c->cap_shapes * sizeof(tl_shape));
    tn__free(c->a, c->pts, c->cap_pts * 2 * sizeof(double));
    tn__free(c->a, c->gflags, c->ngflags);
    tn__free(c->a, c->marks, (size_t)c->w * (size_t)c->h);
    tn__free(c->a, c->sources, c->cap_sources * sizeof(tl_source));
    for (size_t i = 0; i < c->ntemplates; i++)
        cJSON_Delete(c->templates[i].root);
    tn__free(c->a, c->templates, c->cap_templates * sizeof(tl_template));
}

tn_status tn__tiled_from_tree(const cJSON *root, const char *name, const tn_load_def *opts,
                              tn_map **out, tn_diag *diag)
{
    *out = NULL;
    tl_ctx c;
    ctx_init(&c, name, opts, diag);
    tn_status st = build(&c, root, out);
    ctx_free(&c);
    return st;
}

tn_status tn__parse_tiled(const char *data, size_t len, const char *name, const tn_load_def *opts,
                          tn_map **out, tn_diag *diag)
{
    *out = NULL;
    tl_ctx c;
    ctx_init(&c, name, opts, diag);
    cJSON *root = NULL;
    tn_status st = parse_json(&c, data, len, &root);
    if (st == TN_OK)
        st = build(&c, root, out);
    cJSON_Delete(root);
    ctx_free(&c);
    return st;
}
