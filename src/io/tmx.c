/* Tiled XML (`.tmx` maps, `.tsx` tilesets, `.tx` templates), read into the cJSON tree of
 * Tiled's JSON export of the same document (see io_internal.h), then built by tiled.c.
 *
 * expat reads the text as a stream of elements; a stack of frames (one per open element) knows
 * which JSON object each element fills. Element meaning depends on the parent (a <tile> in a
 * <tileset> is a tile definition, in a <data> a cell). Unknown elements are skipped with their
 * whole subtree, unknown attributes are ignored (Tiled's advice for forward compatibility).
 *
 * Safety: a DOCTYPE with an internal subset stops the parser before the subset is read (no
 * entity declarations: no entity bombs, no external entities); a DOCTYPE that only names an
 * external DTD (old Tiled files name mapeditor.org's) is accepted and the DTD never read;
 * a reference to an entity it might have declared stops the parser too; parameter entities
 * are never parsed, the element + attribute count
 * is bounded by max_json_values, the nesting by TN_MAX_JSON_DEPTH and the collected text by
 * max_file_bytes. Every error carries expat's line and column.
 *
 * Tile data: CSV text and <tile gid> elements become a string of comma-separated gids with
 * "encoding": "csv" (internal contract with tiled.c's decode_data); base64 stays a string. */
#include "io_internal.h"

#include <cjson/cJSON.h>
#include <expat.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    K_SKIP,
    K_MAP,
    K_TILESET,  /* a tileset (embedded, external reference, or the .tsx root) */
    K_TREF,     /* the <tileset firstgid source> of a template */
    K_TEMPLATE, /* the .tx root */
    K_LAYER,    /* <layer>, <objectgroup>, <imagelayer>, <group> */
    K_DATA,
    K_CHUNK,
    K_CELL,  /* <tile gid> inside <data> or <chunk> */
    K_PROPS, /* <properties> */
    K_PROP,  /* <property> */
    K_TILE,  /* a tileset's <tile> */
    K_ANIM,  /* <animation> */
    K_OBJECT,
    K_TEXT,
    K_LEAF, /* an element whose attributes were copied (image, frame, shapes...) */
};

enum { ENC_XML, ENC_CSV, ENC_B64 };

typedef struct tx_frame {
    int kind;
    int enc;        /* K_DATA / K_CHUNK */
    bool collect;   /* this element's character data is collected */
    bool chunks;    /* K_DATA: holds <chunk> children */
    bool objmode;   /* K_PROPS: members of a class value ({name: value}) */
    bool klass;     /* K_PROP: of type class (its <properties> hold its members) */
    bool pos;       /* K_DATA / K_CHUNK: where the text starts is known */
    cJSON *node;    /* the object this element fills (K_DATA: its layer; K_PROPS: the list) */
    cJSON *prop;    /* K_PROP: the property object {name, type, value} */
    cJSON *temp;    /* K_PROP of a class member: prop, owned by the frame until it ends */
    size_t text0;   /* start of this element's text in tx.text */
    int64_t expect; /* K_DATA / K_CHUNK: cells expected, -1 when unknown */
    uint64_t cells; /* <tile> children seen */
    unsigned long line, col; /* K_DATA / K_CHUNK: where the text starts */
} tx_frame;

typedef struct tx {
    XML_Parser p;
    const tn_load_def *o;
    const char *file;
    tn_diag *diag;
    tn_status st;
    tn__tiled_doc want;
    bool infinite;
    cJSON *root;
    tx_frame stack[TN_MAX_JSON_DEPTH];
    int depth;
    size_t nodes; /* elements + attributes + points, against max_json_values */
    char *text;   /* collected character data of the open elements */
    size_t tlen, tcap;
    bool external_dtd; /* a DOCTYPE named an external DTD (never read) */
} tx;

/* ---- errors ------------------------------------------------------------------------------ */

static void fail(tx *x, tn_status st, const char *fmt, ...) TN_PRINTF(3, 4);

static void fail_at(tx *x, tn_status st, unsigned long line, unsigned long col, const char *fmt,
                    va_list ap) TN_PRINTF(5, 0);

static void fail_at(tx *x, tn_status st, unsigned long line, unsigned long col, const char *fmt,
                    va_list ap)
{
    if (x->st != TN_OK)
        return;
    char msg[256];
    vsnprintf(msg, sizeof msg, fmt, ap);
    int32_t l = line > INT32_MAX ? INT32_MAX : (int32_t)line;
    int32_t c = col >= INT32_MAX ? INT32_MAX : (int32_t)col + 1;
    x->st = tn__diag(x->diag, st, x->file, l, c, NULL, "%s", msg);
    XML_StopParser(x->p, XML_FALSE);
}

static void fail(tx *x, tn_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_at(x, st, XML_GetCurrentLineNumber(x->p), XML_GetCurrentColumnNumber(x->p), fmt, ap);
    va_end(ap);
}

static void fail_pos(tx *x, tn_status st, unsigned long line, unsigned long col, const char *fmt,
                     ...) TN_PRINTF(5, 6);

static void fail_pos(tx *x, tn_status st, unsigned long line, unsigned long col, const char *fmt,
                     ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_at(x, st, line, col, fmt, ap);
    va_end(ap);
}

/* ---- JSON building ------------------------------------------------------------------------ */

/* Put item under key (replacing a previous one); NULL item: out of memory. */
static cJSON *put(tx *x, cJSON *obj, const char *key, cJSON *item)
{
    if (!item || !obj) {
        cJSON_Delete(item);
        fail(x, TN_E_NOMEM, "out of memory");
        return NULL;
    }
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) {
        if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item)) {
            cJSON_Delete(item);
            fail(x, TN_E_NOMEM, "out of memory");
            return NULL;
        }
    } else if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        fail(x, TN_E_NOMEM, "out of memory");
        return NULL;
    }
    return item;
}

/* The array under key (created when missing). */
static cJSON *array_of(tx *x, cJSON *obj, const char *key)
{
    cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsArray(a))
        return a;
    return put(x, obj, key, cJSON_CreateArray());
}

/* A new object appended to the array under key. */
static cJSON *append_obj(tx *x, cJSON *obj, const char *key)
{
    cJSON *a = array_of(x, obj, key);
    if (!a)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(a, o)) {
        cJSON_Delete(o);
        fail(x, TN_E_NOMEM, "out of memory");
        return NULL;
    }
    return o;
}

/* ---- attribute values ---------------------------------------------------------------------- */

/* A finite decimal number, the whole text (no hex, inf, nan or surrounding blanks). */
static bool parse_num(const char *s, double *out)
{
    if (!((*s >= '0' && *s <= '9') || *s == '-' || *s == '+' || *s == '.'))
        return false;
    if (strpbrk(s, "xXpP"))
        return false;
    char *end = NULL;
    double d = strtod(s, &end);
    if (end == s || *end || !isfinite(d))
        return false;
    *out = d;
    return true;
}

/* A whole number in [lo, hi]; what names the attribute in messages. */
static bool parse_int(tx *x, const char *elem, const char *attr, const char *s, int64_t lo,
                      int64_t hi, tn_status range_status, int64_t *out)
{
    double d;
    if (!parse_num(s, &d) || d != floor(d) || fabs(d) > 9007199254740992.0) {
        fail(x, TN_E_PARSE, "<%s> attribute %s: expected a whole number, found '%.40s'", elem, attr,
             s);
        return false;
    }
    if (d < (double)lo || d > (double)hi) {
        fail(x, range_status, "<%s> attribute %s: %.17g is outside [%lld, %lld]", elem, attr, d,
             (long long)lo, (long long)hi);
        return false;
    }
    *out = (int64_t)d;
    return true;
}

static bool parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "1") || !strcmp(s, "true")) {
        *out = true;
        return true;
    }
    if (!strcmp(s, "0") || !strcmp(s, "false")) {
        *out = false;
        return true;
    }
    return false;
}

/* How an attribute becomes a JSON field. */
typedef struct attr_spec {
    const char *xml, *json;
    char kind; /* i whole number in [lo, hi], n number, b bool, s string, h color without '#' */
    bool required;
    int64_t lo, hi;
} attr_spec;

#define I32 INT32_MIN, INT32_MAX
#define U31 0, INT32_MAX
#define NONE 0, 0

static const attr_spec map_attrs[] = {
    {"version", "version", 's', false, NONE},
    {"tiledversion", "tiledversion", 's', false, NONE},
    {"class", "class", 's', false, NONE},
    {"orientation", "orientation", 's', false, NONE},
    {"renderorder", "renderorder", 's', false, NONE},
    {"compressionlevel", "compressionlevel", 'i', false, -1, 22},
    {"width", "width", 'i', true, I32},
    {"height", "height", 'i', true, I32},
    {"tilewidth", "tilewidth", 'i', true, 1, 1 << 16},
    {"tileheight", "tileheight", 'i', true, 1, 1 << 16},
    {"hexsidelength", "hexsidelength", 'i', false, I32},
    {"staggeraxis", "staggeraxis", 's', false, NONE},
    {"staggerindex", "staggerindex", 's', false, NONE},
    {"parallaxoriginx", "parallaxoriginx", 'n', false, NONE},
    {"parallaxoriginy", "parallaxoriginy", 'n', false, NONE},
    {"backgroundcolor", "backgroundcolor", 's', false, NONE},
    {"nextlayerid", "nextlayerid", 'i', false, U31},
    {"nextobjectid", "nextobjectid", 'i', false, U31},
    {"infinite", "infinite", 'b', false, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec tileset_attrs[] = {
    {"firstgid", "firstgid", 'i', false, 1, 0x0FFFFFFF},
    {"source", "source", 's', false, NONE},
    {"version", "version", 's', false, NONE},
    {"tiledversion", "tiledversion", 's', false, NONE},
    {"name", "name", 's', false, NONE},
    {"class", "class", 's', false, NONE},
    {"tilewidth", "tilewidth", 'i', false, 0, 1 << 16},
    {"tileheight", "tileheight", 'i', false, 0, 1 << 16},
    {"spacing", "spacing", 'i', false, 0, 1 << 16},
    {"margin", "margin", 'i', false, 0, 1 << 16},
    {"tilecount", "tilecount", 'i', false, 0, 1 << 28},
    {"columns", "columns", 'i', false, 0, 1 << 28},
    {"objectalignment", "objectalignment", 's', false, NONE},
    {"tilerendersize", "tilerendersize", 's', false, NONE},
    {"fillmode", "fillmode", 's', false, NONE},
    {"backgroundcolor", "backgroundcolor", 's', false, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec tref_attrs[] = {
    {"firstgid", "firstgid", 'i', true, 1, 0x0FFFFFFF},
    {"source", "source", 's', true, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec layer_attrs[] = {
    {"id", "id", 'i', false, U31},
    {"name", "name", 's', false, NONE},
    {"class", "class", 's', false, NONE},
    {"x", "x", 'i', false, I32},
    {"y", "y", 'i', false, I32},
    {"width", "width", 'i', false, U31},
    {"height", "height", 'i', false, U31},
    {"opacity", "opacity", 'n', false, NONE},
    {"visible", "visible", 'b', false, NONE},
    {"locked", "locked", 'b', false, NONE},
    {"tintcolor", "tintcolor", 's', false, NONE},
    {"offsetx", "offsetx", 'n', false, NONE},
    {"offsety", "offsety", 'n', false, NONE},
    {"parallaxx", "parallaxx", 'n', false, NONE},
    {"parallaxy", "parallaxy", 'n', false, NONE},
    {"color", "color", 's', false, NONE},         /* objectgroup */
    {"draworder", "draworder", 's', false, NONE}, /* objectgroup */
    {"repeatx", "repeatx", 'b', false, NONE},     /* imagelayer */
    {"repeaty", "repeaty", 'b', false, NONE},     /* imagelayer */
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec chunk_attrs[] = {
    {"x", "x", 'i', true, I32},
    {"y", "y", 'i', true, I32},
    {"width", "width", 'i', true, 1, TN_MAX_DIM},
    {"height", "height", 'i', true, 1, TN_MAX_DIM},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec image_attrs[] = {
    {"source", "image", 's', false, NONE},
    {"width", "imagewidth", 'i', false, U31},
    {"height", "imageheight", 'i', false, U31},
    {"trans", "transparentcolor", 'h', false, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec tile_attrs[] = {
    {"id", "id", 'i', true, U31},        {"type", "type", 's', false, NONE},
    {"class", "type", 's', false, NONE}, {"probability", "probability", 'n', false, NONE},
    {"x", "x", 'i', false, U31},         {"y", "y", 'i', false, U31},
    {"width", "width", 'i', false, U31}, {"height", "height", 'i', false, U31},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec frame_attrs[] = {
    {"tileid", "tileid", 'i', true, U31},
    {"duration", "duration", 'i', true, U31},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec object_attrs[] = {
    {"id", "id", 'i', false, U31},
    {"name", "name", 's', false, NONE},
    {"type", "type", 's', false, NONE},
    {"class", "type", 's', false, NONE},
    {"x", "x", 'n', false, NONE},
    {"y", "y", 'n', false, NONE},
    {"width", "width", 'n', false, NONE},
    {"height", "height", 'n', false, NONE},
    {"rotation", "rotation", 'n', false, NONE},
    {"gid", "gid", 'i', false, 0, 0xFFFFFFFFll},
    {"visible", "visible", 'b', false, NONE},
    {"template", "template", 's', false, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec text_attrs[] = {
    {"fontfamily", "fontfamily", 's', false, NONE},
    {"pixelsize", "pixelsize", 'i', false, U31},
    {"wrap", "wrap", 'b', false, NONE},
    {"color", "color", 's', false, NONE},
    {"bold", "bold", 'b', false, NONE},
    {"italic", "italic", 'b', false, NONE},
    {"underline", "underline", 'b', false, NONE},
    {"strikeout", "strikeout", 'b', false, NONE},
    {"kerning", "kerning", 'b', false, NONE},
    {"halign", "halign", 's', false, NONE},
    {"valign", "valign", 's', false, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec offset_attrs[] = {
    {"x", "x", 'i', false, I32},
    {"y", "y", 'i', false, I32},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec grid_attrs[] = {
    {"orientation", "orientation", 's', false, NONE},
    {"width", "width", 'i', false, U31},
    {"height", "height", 'i', false, U31},
    {NULL, NULL, 0, false, NONE},
};

static const attr_spec transform_attrs[] = {
    {"hflip", "hflip", 'b', false, NONE},
    {"vflip", "vflip", 'b', false, NONE},
    {"rotate", "rotate", 'b', false, NONE},
    {"preferuntransformed", "preferuntransformed", 'b', false, NONE},
    {NULL, NULL, 0, false, NONE},
};

static const char *attr(const XML_Char **atts, const char *name)
{
    for (size_t i = 0; atts[i]; i += 2)
        if (!strcmp(atts[i], name))
            return atts[i + 1];
    return NULL;
}

/* Copy the attributes named in spec into obj, converted; false after an error. */
static bool copy_attrs(tx *x, const char *elem, const XML_Char **atts, const attr_spec *spec,
                       cJSON *obj)
{
    for (const attr_spec *a = spec; a->xml; a++) {
        const char *v = attr(atts, a->xml);
        if (!v) {
            if (a->required) {
                fail(x, TN_E_PARSE, "<%s> is missing attribute '%s'", elem, a->xml);
                return false;
            }
            continue;
        }
        cJSON *item = NULL;
        switch (a->kind) {
        case 'i': {
            int64_t n;
            if (!parse_int(x, elem, a->xml, v, a->lo, a->hi, TN_E_PARSE, &n))
                return false;
            item = cJSON_CreateNumber((double)n);
            break;
        }
        case 'n': {
            double d;
            if (!parse_num(v, &d)) {
                fail(x, TN_E_PARSE, "<%s> attribute %s: expected a number, found '%.40s'", elem,
                     a->xml, v);
                return false;
            }
            item = cJSON_CreateNumber(d);
            break;
        }
        case 'b': {
            bool b;
            if (!parse_bool(v, &b)) {
                fail(x, TN_E_PARSE, "<%s> attribute %s: expected 0 or 1, found '%.40s'", elem,
                     a->xml, v);
                return false;
            }
            item = cJSON_CreateBool(b);
            break;
        }
        case 'h': {
            char buf[64];
            snprintf(buf, sizeof buf, "%s%.60s", v[0] == '#' ? "" : "#", v);
            item = cJSON_CreateString(buf);
            break;
        }
        default: item = cJSON_CreateString(v); break;
        }
        if (!put(x, obj, a->json, item))
            return false;
    }
    return true;
}

/* ---- text ---------------------------------------------------------------------------------- */

static bool text_append(tx *x, const char *s, size_t n)
{
    if (n > x->o->max_file_bytes || x->tlen > x->o->max_file_bytes - n) {
        fail(x, TN_E_TOO_LARGE, "element text is longer than %zu bytes (max_file_bytes)",
             x->o->max_file_bytes);
        return false;
    }
    void *t = x->text;
    tn_status st = tn__grow(&x->o->allocator, &t, 1, &x->tcap, x->tlen + n + 1);
    if (st != TN_OK) {
        fail(x, st, "out of memory for element text");
        return false;
    }
    x->text = t;
    memcpy(x->text + x->tlen, s, n);
    x->tlen += n;
    x->text[x->tlen] = '\0';
    return true;
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
    tx *x = ud;
    if (x->st != TN_OK || x->depth == 0 || len <= 0)
        return;
    tx_frame *f = &x->stack[x->depth - 1];
    if (!f->collect)
        return;
    if ((f->kind == K_DATA || f->kind == K_CHUNK) && !f->pos) {
        f->pos = true;
        f->line = XML_GetCurrentLineNumber(x->p);
        f->col = XML_GetCurrentColumnNumber(x->p);
    }
    text_append(x, s, (size_t)len);
}

/* ---- tile data ----------------------------------------------------------------------------- */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Line and column of byte k of the frame's text. */
static void text_pos(const tx_frame *f, const char *t, size_t k, unsigned long *line,
                     unsigned long *col)
{
    unsigned long l = f->line, c = f->col;
    for (size_t i = 0; i < k; i++) {
        if (t[i] == '\n') {
            l++;
            c = 0;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* Check the CSV text of a data/chunk frame and count its gids, then drop its blanks. */
static bool check_csv(tx *x, tx_frame *f, const char *elem, char *t, size_t n, uint64_t *count)
{
    size_t i = 0;
    uint64_t k = 0;
    while (i < n && is_blank(t[i]))
        i++;
    while (i < n) {
        while (i < n && is_blank(t[i]))
            i++;
        size_t s = i;
        uint64_t v = 0;
        bool ok = i < n && t[i] >= '0' && t[i] <= '9';
        for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
            v = v * 10 + (uint64_t)(t[i] - '0');
            ok = ok && v <= 0xFFFFFFFFu;
        }
        while (i < n && is_blank(t[i]))
            i++;
        if (!ok || (i < n && t[i] != ',')) {
            size_t end = s; /* show the entry up to its comma or line end ("1 2" too) */
            while (end < n && t[end] != ',' && t[end] != '\n' && end - s < 20)
                end++;
            while (end > s && is_blank(t[end - 1]))
                end--;
            unsigned long line, col;
            text_pos(f, t, s, &line, &col);
            fail_pos(x, TN_E_PARSE, line, col,
                     "<%s>: gid %llu must be a whole number in [0, 4294967295], found '%.*s'", elem,
                     (unsigned long long)k, (int)(end - s), t + s);
            return false;
        }
        k++;
        if (i < n && ++i == n) { /* a comma ends the text: an empty last gid */
            unsigned long line, col;
            text_pos(f, t, n, &line, &col);
            fail_pos(x, TN_E_PARSE, line, col,
                     "<%s>: gid %llu must be a whole number in [0, 4294967295], found ''", elem,
                     (unsigned long long)k);
            return false;
        }
    }
    size_t o = 0;
    for (i = 0; i < n; i++)
        if (!is_blank(t[i]))
            t[o++] = t[i];
    t[o] = '\0';
    *count = k;
    return true;
}

/* The end of a <data> or <chunk>: its text (or <tile> cells) becomes "data". */
static void end_data(tx *x, tx_frame *f, const char *elem)
{
    if (f->kind == K_DATA && f->chunks) {
        x->tlen = f->text0;
        return;
    }
    char *t = x->text ? x->text + f->text0 : NULL;
    size_t n = x->tlen - f->text0;
    uint64_t count = f->cells;
    if (f->enc == ENC_XML) {
        if (n && t[n - 1] == ',') /* each <tile> appended "gid," */
            n--;
    } else if (f->enc == ENC_CSV) {
        if (n && !check_csv(x, f, elem, t, n, &count))
            return;
        n = t ? strlen(t) : 0;
    } else {
        size_t raw = 0;
        char msg[200];
        if (tn__base64_size(t ? t : "", n, &raw, msg, sizeof msg) != TN_OK) {
            fail_pos(x, TN_E_PARSE, f->line, f->col, "<%s>: %s", elem, msg);
            return;
        }
        const cJSON *layer = f->kind == K_DATA ? f->node : x->stack[x->depth - 2].node;
        const char *comp =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(layer, "compression"));
        if ((!comp || !comp[0]) && f->expect >= 0 && (uint64_t)raw != (uint64_t)f->expect * 4u) {
            fail(x, TN_E_PARSE, "<%s>: base64 data decodes to %zu bytes, expected %lld cells x 4",
                 elem, raw, (long long)f->expect);
            return;
        }
        count = (uint64_t)f->expect;
    }
    if (f->enc != ENC_B64 && f->expect >= 0 && count != (uint64_t)f->expect) {
        fail(x, TN_E_PARSE, "<%s>: has %llu gids, expected %lld", elem, (unsigned long long)count,
             (long long)f->expect);
        return;
    }
    /* cJSON copies the string: terminate the segment in place. */
    char save = 0;
    if (t) {
        save = t[n];
        t[n] = '\0';
    }
    put(x, f->node, "data", cJSON_CreateString(t ? t : ""));
    if (t)
        t[n] = save;
    x->tlen = f->text0;
}

/* ---- properties ---------------------------------------------------------------------------- */

/* A property's typed value from its text; NULL after an error. */
static cJSON *prop_value(tx *x, const char *name, const char *type, const char *v, bool given)
{
    if (!type || !strcmp(type, "string") || !strcmp(type, "color") || !strcmp(type, "file"))
        return cJSON_CreateString(v);
    if (!strcmp(type, "int") || !strcmp(type, "object")) {
        double d = 0;
        if (!given && !v[0])
            return cJSON_CreateNumber(0);
        if (!parse_num(v, &d) || d != floor(d) || fabs(d) > 9007199254740992.0) {
            fail(x, TN_E_PARSE,
                 "<property> '%.60s' of type %s: expected a whole number, found '%.40s'", name,
                 type, v);
            return NULL;
        }
        return cJSON_CreateNumber(d);
    }
    if (!strcmp(type, "float")) {
        double d = 0;
        if (!given && !v[0])
            return cJSON_CreateNumber(0);
        if (!parse_num(v, &d)) {
            fail(x, TN_E_PARSE,
                 "<property> '%.60s' of type float: expected a number, found '%.40s'", name, v);
            return NULL;
        }
        return cJSON_CreateNumber(d);
    }
    if (!strcmp(type, "bool")) {
        bool b = false;
        if (!given && !v[0])
            return cJSON_CreateFalse();
        if (!parse_bool(v, &b)) {
            fail(x, TN_E_PARSE,
                 "<property> '%.60s' of type bool: expected true or false, found '%.40s'", name, v);
            return NULL;
        }
        return cJSON_CreateBool(b);
    }
    return cJSON_CreateString(v); /* a type from a later Tiled: kept as text */
}

/* The end of a <property>: a value given as text is typed; a class member (the frame's temp
 * {name, type, value}) moves into its class value as name: value. */
static void end_prop(tx *x, tx_frame *f, tx_frame *parent)
{
    cJSON *po = f->prop;
    if (!po)
        return;
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(po, "name"));
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(po, "type"));
    if (f->collect) { /* no value attribute: the text is the value */
        const char *t = x->text ? x->text + f->text0 : "";
        cJSON *v = prop_value(x, name ? name : "", type, t, x->tlen > f->text0);
        x->tlen = f->text0;
        if (!v) {
            if (x->st == TN_OK)
                fail(x, TN_E_NOMEM, "out of memory");
            return;
        }
        if (!put(x, po, "value", v))
            return;
    }
    if (!f->temp)
        return;
    cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(po, "value");
    put(x, parent->node, name ? name : "", v ? v : cJSON_CreateString(""));
    cJSON_Delete(f->temp);
    f->temp = NULL;
}

static void start_prop(tx *x, tx_frame *f, tx_frame *parent, const XML_Char **atts)
{
    const char *name = attr(atts, "name"), *type = attr(atts, "type");
    const char *ptype = attr(atts, "propertytype"), *value = attr(atts, "value");
    if (!name) {
        fail(x, TN_E_PARSE, "<property> is missing attribute 'name'");
        return;
    }
    cJSON *po;
    if (parent->objmode) {
        po = f->temp = cJSON_CreateObject();
        if (!po) {
            fail(x, TN_E_NOMEM, "out of memory");
            return;
        }
    } else {
        po = cJSON_CreateObject();
        if (!po || !cJSON_AddItemToArray(parent->node, po)) {
            cJSON_Delete(po);
            fail(x, TN_E_NOMEM, "out of memory");
            return;
        }
    }
    f->node = f->prop = po;
    if (!put(x, po, "name", cJSON_CreateString(name)) ||
        !put(x, po, "type", cJSON_CreateString(type ? type : "string")))
        return;
    if (ptype && !put(x, po, "propertytype", cJSON_CreateString(ptype)))
        return;
    if (type && !strcmp(type, "class")) {
        f->klass = true;
        f->node = put(x, po, "value", cJSON_CreateObject()); /* members fill it */
        return;
    }
    if (value) {
        cJSON *v = prop_value(x, name, type, value, true);
        if (v)
            put(x, po, "value", v);
        else if (x->st == TN_OK)
            fail(x, TN_E_NOMEM, "out of memory");
        return;
    }
    f->collect = true;
    f->text0 = x->tlen;
}

/* ---- elements ------------------------------------------------------------------------------ */

static const char *doc_root(tn__tiled_doc d)
{
    return d == TN__TILED_MAP ? "map" : d == TN__TILED_TILESET ? "tileset" : "template";
}

static size_t count_atts(const XML_Char **atts)
{
    size_t n = 0;
    while (atts[n])
        n += 2;
    return n / 2;
}

/* "x,y x,y ..." into an array of {x, y}. */
static void points(tx *x, cJSON *obj, const char *elem, const char *s)
{
    cJSON *arr = put(x, obj, elem, cJSON_CreateArray());
    if (!s) {
        fail(x, TN_E_PARSE, "<%s> is missing attribute 'points'", elem);
        return;
    }
    while (arr && x->st == TN_OK) {
        while (is_blank(*s))
            s++;
        if (!*s)
            break;
        char buf[2][64];
        const char *start = s;
        bool ok = true;
        for (int k = 0; k < 2; k++) { /* x up to its comma, then y up to a blank */
            size_t n = 0;
            while (*s && *s != ',' && !is_blank(*s) && n < sizeof buf[k] - 1)
                buf[k][n++] = *s++;
            buf[k][n] = '\0';
            if (k == 0)
                ok = *s++ == ',';
            if (!ok)
                break;
        }
        double px, py;
        if (!ok || !parse_num(buf[0], &px) || !parse_num(buf[1], &py) || (*s && !is_blank(*s))) {
            size_t n = 0;
            while (start[n] && !is_blank(start[n]) && n < 40)
                n++;
            fail(x, TN_E_PARSE, "<%s> attribute points: expected 'x,y' numbers, found '%.*s'", elem,
                 (int)n, start);
            return;
        }
        x->nodes += 3;
        if (x->nodes > x->o->max_json_values) {
            fail(x, TN_E_TOO_LARGE,
                 "more than %zu elements, attributes and points (max_json_values)",
                 x->o->max_json_values);
            return;
        }
        cJSON *pt = cJSON_CreateObject();
        if (!pt || !cJSON_AddItemToArray(arr, pt)) {
            cJSON_Delete(pt);
            fail(x, TN_E_NOMEM, "out of memory");
            return;
        }
        if (!put(x, pt, "x", cJSON_CreateNumber(px)) || !put(x, pt, "y", cJSON_CreateNumber(py)))
            return;
    }
}

static bool is_layer(const char *name)
{
    return !strcmp(name, "layer") || !strcmp(name, "objectgroup") || !strcmp(name, "imagelayer") ||
           !strcmp(name, "group");
}

/* A layer element as a new object in parent's "layers". */
static void start_layer(tx *x, tx_frame *f, cJSON *parent, const char *name, const XML_Char **atts)
{
    cJSON *l = append_obj(x, parent, "layers");
    if (!l)
        return;
    f->kind = K_LAYER;
    f->node = l;
    const char *type = !strcmp(name, "layer") ? "tilelayer" : name;
    if (!put(x, l, "type", cJSON_CreateString(type)) || !copy_attrs(x, name, atts, layer_attrs, l))
        return;
    if (!strcmp(name, "objectgroup"))
        array_of(x, l, "objects");
    else if (!strcmp(name, "group"))
        array_of(x, l, "layers");
}

static void start_data(tx *x, tx_frame *f, tx_frame *parent, const XML_Char **atts)
{
    const char *enc = attr(atts, "encoding"), *comp = attr(atts, "compression");
    cJSON *l = parent->node;
    f->kind = K_DATA;
    f->node = l;
    f->expect = -1;
    if (enc && strcmp(enc, "csv") != 0 && strcmp(enc, "base64") != 0) {
        fail(x, TN_E_PARSE,
             "<data> attribute encoding: unknown encoding '%.40s' (expected csv or base64)", enc);
        return;
    }
    if (comp && comp[0] && strcmp(comp, "zlib") && strcmp(comp, "gzip") && strcmp(comp, "zstd")) {
        fail(x, TN_E_PARSE,
             "<data> attribute compression: unknown compression '%.40s' (expected zlib, gzip, "
             "zstd or none)",
             comp);
        return;
    }
    f->enc = !enc ? ENC_XML : !strcmp(enc, "csv") ? ENC_CSV : ENC_B64;
    if (comp && comp[0] && f->enc != ENC_B64) {
        fail(x, TN_E_PARSE, "<data> attribute compression: '%.40s' needs base64 encoding", comp);
        return;
    }
    if (!put(x, l, "encoding", cJSON_CreateString(f->enc == ENC_B64 ? "base64" : "csv")))
        return;
    if (comp && comp[0] && !put(x, l, "compression", cJSON_CreateString(comp)))
        return;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(l, "width");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(l, "height");
    if (!x->infinite && cJSON_IsNumber(w) && cJSON_IsNumber(h))
        f->expect = (int64_t)w->valuedouble * (int64_t)h->valuedouble;
    f->collect = f->enc != ENC_XML;
    f->text0 = x->tlen;
    f->line = XML_GetCurrentLineNumber(x->p);
    f->col = XML_GetCurrentColumnNumber(x->p);
}

static void start_chunk(tx *x, tx_frame *f, tx_frame *parent, const XML_Char **atts)
{
    parent->chunks = true;
    cJSON *ch = append_obj(x, parent->node, "chunks");
    if (!ch || !copy_attrs(x, "chunk", atts, chunk_attrs, ch))
        return;
    f->kind = K_CHUNK;
    f->node = ch;
    f->enc = parent->enc;
    f->expect = (int64_t)cJSON_GetObjectItemCaseSensitive(ch, "width")->valuedouble *
                (int64_t)cJSON_GetObjectItemCaseSensitive(ch, "height")->valuedouble;
    f->collect = f->enc != ENC_XML;
    f->text0 = x->tlen;
    f->line = XML_GetCurrentLineNumber(x->p);
    f->col = XML_GetCurrentColumnNumber(x->p);
}

static void start_cell(tx *x, tx_frame *parent, const XML_Char **atts)
{
    if (parent->enc != ENC_XML)
        return; /* <tile> inside encoded data: ignored like any unknown element */
    const char *g = attr(atts, "gid");
    int64_t gid = 0;
    if (g && !parse_int(x, "tile", "gid", g, 0, 0xFFFFFFFFll, TN_E_PARSE, &gid))
        return;
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%lld,", (long long)gid);
    parent->cells++;
    text_append(x, buf, (size_t)n);
}

static void start_map(tx *x, tx_frame *f, const XML_Char **atts)
{
    cJSON *m = x->root;
    f->kind = K_MAP;
    f->node = m;
    if (!put(x, m, "type", cJSON_CreateString("map")) || !copy_attrs(x, "map", atts, map_attrs, m))
        return;
    x->infinite = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "infinite"));
    int64_t w = (int64_t)cJSON_GetObjectItemCaseSensitive(m, "width")->valuedouble;
    int64_t h = (int64_t)cJSON_GetObjectItemCaseSensitive(m, "height")->valuedouble;
    if (!x->infinite) {
        if (w < 1 || h < 1) {
            fail(x, TN_E_PARSE, "<map> attribute %s: must be >= 1, found %lld",
                 w < 1 ? "width" : "height", (long long)(w < 1 ? w : h));
            return;
        }
        if (w > TN_MAX_DIM || h > TN_MAX_DIM || w * h > TN_MAX_CELLS) {
            fail(x, TN_E_TOO_LARGE,
                 "<map>: %lld x %lld cells is past the limit (%d per side, %d cells)", (long long)w,
                 (long long)h, TN_MAX_DIM, TN_MAX_CELLS);
            return;
        }
    }
    if (array_of(x, m, "tilesets"))
        array_of(x, m, "layers");
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    tx *x = ud;
    if (x->st != TN_OK)
        return;
    if (x->depth >= TN_MAX_JSON_DEPTH) {
        fail(x, TN_E_TOO_LARGE, "XML elements nested deeper than %d levels", TN_MAX_JSON_DEPTH);
        return;
    }
    tx_frame *parent = x->depth ? &x->stack[x->depth - 1] : NULL;
    tx_frame *f = &x->stack[x->depth++];
    memset(f, 0, sizeof *f);
    f->kind = K_SKIP;
    f->expect = -1;
    int pk = parent ? parent->kind : -1;
    /* <tile> cells of layer data are not JSON values: only the data string is. */
    if (pk != K_DATA && pk != K_CHUNK) {
        x->nodes += 1 + count_atts(atts);
        if (x->nodes > x->o->max_json_values) {
            fail(x, TN_E_TOO_LARGE,
                 "more than %zu elements, attributes and points (max_json_values)",
                 x->o->max_json_values);
            return;
        }
    }
    if (!parent) {
        const char *want = doc_root(x->want);
        if (strcmp(name, want) != 0) {
            bool part = x->want == TN__TILED_MAP &&
                        (strcmp(name, "tileset") == 0 || strcmp(name, "template") == 0);
            fail(x, TN_E_PARSE, "expected <%s>, found <%.60s>%s", want, name,
                 part ? " (a tileset or template is read through the map that uses it: give the "
                        "map)"
                      : "");
            return;
        }
        x->root = cJSON_CreateObject();
        if (!x->root) {
            fail(x, TN_E_NOMEM, "out of memory");
            return;
        }
        if (x->want == TN__TILED_MAP) {
            start_map(x, f, atts);
        } else if (x->want == TN__TILED_TILESET) {
            f->kind = K_TILESET;
            f->node = x->root;
            if (put(x, x->root, "type", cJSON_CreateString("tileset")))
                copy_attrs(x, name, atts, tileset_attrs, x->root);
        } else {
            f->kind = K_TEMPLATE;
            f->node = x->root;
            put(x, x->root, "type", cJSON_CreateString("template"));
        }
        return;
    }
    cJSON *pn = parent->node;
    if (!strcmp(name, "properties") && (pk == K_MAP || pk == K_TILESET || pk == K_LAYER ||
                                        pk == K_TILE || pk == K_OBJECT || pk == K_PROP)) {
        f->kind = K_PROPS;
        if (pk == K_PROP) { /* members of a class value */
            f->objmode = true;
            f->node = pn;
            if (!parent->klass) /* properties under a non-class property: ignored */
                f->kind = K_SKIP;
        } else {
            f->node = array_of(x, pn, "properties");
        }
        return;
    }
    switch (pk) {
    case K_MAP:
    case K_LAYER: {
        const char *lt = pk == K_MAP
                             ? "map"
                             : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pn, "type"));
        lt = lt ? lt : "";
        if (pk == K_MAP && !strcmp(name, "tileset")) {
            f->kind = K_TILESET;
            f->node = append_obj(x, pn, "tilesets");
            if (f->node) {
                copy_attrs(x, name, atts, tileset_attrs, f->node);
                if (x->st == TN_OK && !cJSON_GetObjectItemCaseSensitive(f->node, "firstgid"))
                    fail(x, TN_E_PARSE, "<tileset> is missing attribute 'firstgid'");
            }
        } else if (is_layer(name) && (pk == K_MAP || !strcmp(lt, "group"))) {
            start_layer(x, f, pn, name, atts);
        } else if (!strcmp(lt, "tilelayer") && !strcmp(name, "data")) {
            start_data(x, f, parent, atts);
        } else if (!strcmp(lt, "objectgroup") && !strcmp(name, "object")) {
            f->kind = K_OBJECT;
            f->node = append_obj(x, pn, "objects");
            if (f->node)
                copy_attrs(x, name, atts, object_attrs, f->node);
        } else if (!strcmp(lt, "imagelayer") && !strcmp(name, "image")) {
            f->kind = K_LEAF;
            copy_attrs(x, name, atts, image_attrs, pn);
        }
        break;
    }
    case K_DATA:
        if (!strcmp(name, "chunk"))
            start_chunk(x, f, parent, atts);
        else if (!strcmp(name, "tile"))
            start_cell(x, parent, atts);
        break;
    case K_CHUNK:
        if (!strcmp(name, "tile"))
            start_cell(x, parent, atts);
        break;
    case K_TILESET:
        f->kind = K_LEAF;
        if (!strcmp(name, "image")) {
            copy_attrs(x, name, atts, image_attrs, pn);
        } else if (!strcmp(name, "tileoffset")) {
            cJSON *o = put(x, pn, "tileoffset", cJSON_CreateObject());
            if (o)
                copy_attrs(x, name, atts, offset_attrs, o);
        } else if (!strcmp(name, "grid")) {
            cJSON *o = put(x, pn, "grid", cJSON_CreateObject());
            if (o)
                copy_attrs(x, name, atts, grid_attrs, o);
        } else if (!strcmp(name, "transformations")) {
            cJSON *o = put(x, pn, "transformations", cJSON_CreateObject());
            if (o)
                copy_attrs(x, name, atts, transform_attrs, o);
        } else if (!strcmp(name, "tile")) {
            f->kind = K_TILE;
            f->node = append_obj(x, pn, "tiles");
            if (f->node)
                copy_attrs(x, name, atts, tile_attrs, f->node);
        } else {
            f->kind = K_SKIP;
        }
        break;
    case K_TILE:
        if (!strcmp(name, "image")) {
            f->kind = K_LEAF;
            copy_attrs(x, name, atts, image_attrs, pn);
        } else if (!strcmp(name, "objectgroup")) {
            cJSON *l = put(x, pn, "objectgroup", cJSON_CreateObject());
            f->kind = K_LAYER;
            f->node = l;
            if (l && put(x, l, "type", cJSON_CreateString("objectgroup")) &&
                copy_attrs(x, name, atts, layer_attrs, l))
                array_of(x, l, "objects");
        } else if (!strcmp(name, "animation")) {
            f->kind = K_ANIM;
            f->node = array_of(x, pn, "animation");
        }
        break;
    case K_ANIM:
        if (!strcmp(name, "frame")) {
            cJSON *fr = cJSON_CreateObject();
            f->kind = K_LEAF;
            if (!fr || !cJSON_AddItemToArray(pn, fr)) {
                cJSON_Delete(fr);
                fail(x, TN_E_NOMEM, "out of memory");
            } else {
                copy_attrs(x, name, atts, frame_attrs, fr);
            }
        }
        break;
    case K_OBJECT:
        f->kind = K_LEAF;
        if (!strcmp(name, "ellipse") || !strcmp(name, "point")) {
            put(x, pn, name, cJSON_CreateTrue());
        } else if (!strcmp(name, "polygon") || !strcmp(name, "polyline")) {
            points(x, pn, name, attr(atts, "points"));
        } else if (!strcmp(name, "text")) {
            cJSON *t = put(x, pn, "text", cJSON_CreateObject());
            f->kind = K_TEXT;
            f->node = t;
            f->collect = true;
            f->text0 = x->tlen;
            if (t)
                copy_attrs(x, name, atts, text_attrs, t);
        } else {
            f->kind = K_SKIP;
        }
        break;
    case K_TEMPLATE:
        if (!strcmp(name, "tileset")) {
            f->kind = K_TREF;
            f->node = put(x, pn, "tileset", cJSON_CreateObject());
            if (f->node)
                copy_attrs(x, name, atts, tref_attrs, f->node);
        } else if (!strcmp(name, "object")) {
            f->kind = K_OBJECT;
            f->node = put(x, pn, "object", cJSON_CreateObject());
            if (f->node)
                copy_attrs(x, name, atts, object_attrs, f->node);
        }
        break;
    case K_PROPS:
        if (!strcmp(name, "property")) {
            f->kind = K_PROP;
            start_prop(x, f, parent, atts);
        }
        break;
    default: break; /* K_SKIP and leaves: their children are ignored */
    }
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
    tx *x = ud;
    if (x->st != TN_OK || x->depth == 0)
        return;
    tx_frame *f = &x->stack[x->depth - 1];
    tx_frame *parent = x->depth > 1 ? &x->stack[x->depth - 2] : NULL;
    switch (f->kind) {
    case K_DATA:
    case K_CHUNK: end_data(x, f, name); break;
    case K_PROP: end_prop(x, f, parent); break;
    case K_TEXT:
        if (f->node)
            put(x, f->node, "text", cJSON_CreateString(x->text ? x->text + f->text0 : ""));
        x->tlen = f->text0;
        break;
    default: break;
    }
    if (x->text)
        x->text[x->tlen] = '\0';
    x->depth--;
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                               const XML_Char *pubid, int has_internal_subset)
{
    (void)name;
    (void)sysid;
    (void)pubid;
    tx *x = ud;
    if (has_internal_subset) /* entity declarations live there: refuse before reading them */
        fail(x, TN_E_PARSE, "DTDs with an internal subset are not accepted (<!DOCTYPE ... [...]>)");
    x->external_dtd = true;
}

/* With an external DTD that is not read, expat drops a reference to an entity it might declare
 * from attribute values without a word. Such a document is refused instead: any '&name;' in
 * the text that is not one of XML's five predefined entities (character references '&#...;'
 * are fine). Returns the byte offset of the first one, or len. */
static size_t undeclared_entity(const char *s, size_t len, char *name, size_t cap)
{
    static const char *const predefined[] = {"amp", "lt", "gt", "quot", "apos"};
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '&' || i + 1 >= len || s[i + 1] == '#')
            continue;
        size_t j = i + 1;
        while (j < len && j - i <= 64 && s[j] != ';' && s[j] != '&' && s[j] != '<' && s[j] != '"' &&
               s[j] != '\'' && s[j] != ' ' && s[j] != '\n')
            j++;
        if (j >= len || s[j] != ';')
            continue; /* not a reference: expat has judged it already */
        size_t n = j - i - 1;
        bool known = false;
        for (size_t k = 0; k < 5 && !known; k++)
            known = strlen(predefined[k]) == n && memcmp(s + i + 1, predefined[k], n) == 0;
        if (!known) {
            size_t c = n < cap - 1 ? n : cap - 1;
            memcpy(name, s + i + 1, c);
            name[c] = '\0';
            return i;
        }
    }
    return len;
}

/* An entity the unread external DTD might declare: refused, never guessed or left out. */
static void XMLCALL on_skipped(void *ud, const XML_Char *name, int is_param)
{
    (void)is_param;
    fail(ud, TN_E_PARSE, "entity reference '&%.64s;' is not accepted (no DTD is read)", name);
}

static void XMLCALL on_entity(void *ud, const XML_Char *name, int is_param, const XML_Char *value,
                              int value_length, const XML_Char *base, const XML_Char *sysid,
                              const XML_Char *pubid, const XML_Char *notation)
{
    (void)name;
    (void)is_param;
    (void)value;
    (void)value_length;
    (void)base;
    (void)sysid;
    (void)pubid;
    (void)notation;
    fail(ud, TN_E_PARSE, "entity declarations are not accepted");
}

static int XMLCALL on_external(XML_Parser p, const XML_Char *context, const XML_Char *base,
                               const XML_Char *sysid, const XML_Char *pubid)
{
    (void)p;
    (void)context;
    (void)base;
    (void)sysid;
    (void)pubid;
    return XML_STATUS_ERROR; /* never load anything */
}

tn_status tn__tmx_to_json(const char *data, size_t len, const char *name, tn__tiled_doc want,
                          const tn_load_def *opts, cJSON **out, tn_diag *diag)
{
    *out = NULL;
    tx x;
    memset(&x, 0, sizeof x);
    x.o = opts;
    x.file = name;
    x.diag = diag;
    x.want = want;
    x.p = XML_ParserCreate(NULL);
    if (!x.p)
        return tn__diag(diag, TN_E_NOMEM, name, 0, 0, NULL, "out of memory (XML parser)");
    XML_SetUserData(x.p, &x);
    XML_SetParamEntityParsing(x.p, XML_PARAM_ENTITY_PARSING_NEVER);
    XML_SetStartDoctypeDeclHandler(x.p, on_doctype);
    XML_SetEntityDeclHandler(x.p, on_entity);
    XML_SetSkippedEntityHandler(x.p, on_skipped);
    XML_SetExternalEntityRefHandler(x.p, on_external);
    XML_SetElementHandler(x.p, on_start, on_end);
    XML_SetCharacterDataHandler(x.p, on_text);

    size_t off = 0;
    const size_t step = (size_t)1 << 20;
    do {
        size_t n = len - off < step ? len - off : step;
        bool last = off + n == len;
        if (XML_Parse(x.p, data + off, (int)n, last) != XML_STATUS_OK)
            break;
        off += n;
    } while (off < len);
    if (len == 0)
        XML_Parse(x.p, "", 0, 1);
    enum XML_Error code = XML_GetErrorCode(x.p);
    if (x.st == TN_OK && code != XML_ERROR_NONE) {
        unsigned long line = XML_GetCurrentLineNumber(x.p), col = XML_GetCurrentColumnNumber(x.p);
        const char *hint = code == XML_ERROR_NO_ELEMENTS || code == XML_ERROR_UNCLOSED_TOKEN
                               ? " (the text is empty or cut short)"
                               : "";
        fail_pos(&x, TN_E_PARSE, line, col, "invalid XML: %s%s", XML_ErrorString(code), hint);
    }
    if (x.st == TN_OK && !x.root)
        fail_pos(&x, TN_E_PARSE, 1, 0, "no <%s> element", doc_root(want));
    if (x.st == TN_OK && x.external_dtd) {
        char ent[80];
        size_t at = undeclared_entity(data, len, ent, sizeof ent);
        if (at < len) {
            unsigned long line = 1, col = 1;
            for (size_t i = 0; i < at; i++, col++)
                if (data[i] == '\n') {
                    line++;
                    col = 0;
                }
            fail_pos(&x, TN_E_PARSE, line, col,
                     "entity reference '&%s;' is not accepted (no DTD is read)", ent);
        }
    }
    for (int i = 0; i < x.depth; i++)
        cJSON_Delete(x.stack[i].temp);
    tn__free(&opts->allocator, x.text, x.tcap);
    XML_ParserFree(x.p);
    if (x.st != TN_OK) {
        cJSON_Delete(x.root);
        return x.st;
    }
    *out = x.root;
    return TN_OK;
}

tn_status tn__parse_tmx(const char *data, size_t len, const char *name, const tn_load_def *opts,
                        tn_map **out, tn_diag *diag)
{
    *out = NULL;
    cJSON *root = NULL;
    tn_status st = tn__tmx_to_json(data, len, name, TN__TILED_MAP, opts, &root, diag);
    if (st == TN_OK)
        st = tn__tiled_from_tree(root, name, opts, out, diag);
    cJSON_Delete(root);
    return st;
}
