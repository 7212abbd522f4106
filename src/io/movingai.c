/* Moving AI grid benchmark files: maps (`type octile`) and scenarios (`version 1`/`1.0`).
 *
 * Map terrain letters (Sturtevant's benchmark format): '.' and 'G' ground, 'S' swamp
 * (passable); '@' and 'O' out of bounds, 'T' trees, 'W' water (impassable). Each cell's gid is
 * the letter's character code, in one tile layer named "terrain", with the terrain table
 * describing the seven letters. */
#include "io_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct line_reader {
    const char *p, *end;
    int32_t line;
} line_reader;

/* Next line without its "\n" / "\r\n"; false at end of input. */
static bool next_line(line_reader *r, const char **s, size_t *n)
{
    if (r->p >= r->end)
        return false;
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    const char *e = nl ? nl : r->end;
    *s = r->p;
    *n = (size_t)(e - r->p);
    if (*n && (*s)[*n - 1] == '\r')
        (*n)--;
    r->p = nl ? nl + 1 : r->end;
    r->line++;
    return true;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Parse "<key> <int>" exactly (surrounding blanks allowed). The value stops growing past
 * 2^40 (any such map is refused); *digits and *ndigits give the number as written, for
 * messages. */
static bool key_int(const char *s, size_t n, const char *key, int64_t *out, const char **digits,
                    int *ndigits)
{
    size_t k = strlen(key);
    if (n < k + 2 || memcmp(s, key, k) != 0 || !is_space(s[k]))
        return false;
    size_t i = k;
    while (i < n && is_space(s[i]))
        i++;
    int64_t v = 0;
    size_t d = 0;
    const char *first = s + i;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        if (v < ((int64_t)1 << 40))
            v = v * 10 + (s[i] - '0');
        i++;
        d++;
    }
    while (i < n && is_space(s[i]))
        i++;
    if (d == 0 || i != n)
        return false;
    *out = v;
    *digits = first;
    *ndigits = d > 64 ? 64 : (int)d;
    return true;
}

static bool line_is(const char *s, size_t n, const char *word)
{
    while (n && is_space(s[n - 1]))
        n--;
    return n == strlen(word) && memcmp(s, word, n) == 0;
}

static int letter_kind(char c) /* 1 passable, 0 blocked, -1 unknown */
{
    switch (c) {
    case '.':
    case 'G':
    case 'S': return 1;
    case '@':
    case 'O':
    case 'T':
    case 'W': return 0;
    default: return -1;
    }
}

tn_status tn__parse_movingai(const char *data, size_t len, const char *name, const tn_load_def *o,
                             tn_map **out, tn_diag *diag)
{
    line_reader r = {data, data + len, 0};
    const char *s;
    size_t n;
    int64_t w = -1, h = -1;
    const char *wd = "", *hd = "";
    int wn = 0, hn = 0;
    if (!next_line(&r, &s, &n) || !line_is(s, n, "type octile"))
        return tn__diag(diag, TN_E_PARSE, name, r.line ? r.line : 1, 1, NULL,
                        "expected \"type octile\" on the first line");
    for (int k = 0; k < 2; k++) {
        if (!next_line(&r, &s, &n))
            return tn__diag(diag, TN_E_PARSE, name, r.line + 1, 1, NULL,
                            "unexpected end of file: expected \"height N\" and \"width N\"");
        int64_t v;
        const char *dg;
        int dn;
        if (key_int(s, n, "height", &v, &dg, &dn) && h < 0) {
            h = v;
            hd = dg;
            hn = dn;
        } else if (key_int(s, n, "width", &v, &dg, &dn) && w < 0) {
            w = v;
            wd = dg;
            wn = dn;
        } else
            return tn__diag(diag, TN_E_PARSE, name, r.line, 1, NULL,
                            k == 0 ? "expected \"height N\" (a whole number)"
                                   : "expected \"width N\" (a whole number)");
    }
    if (w < 1 || h < 1)
        return tn__diag(diag, TN_E_PARSE, name, r.line, 1, NULL, "width and height must be >= 1");
    if (w > TN_MAX_DIM || h > TN_MAX_DIM || w * h > TN_MAX_CELLS)
        return tn__diag(diag, TN_E_TOO_LARGE, name, r.line, 1, NULL,
                        "map of %.*s x %.*s cells is past the limit (%d per side, %d cells)", wn,
                        wd, hn, hd, TN_MAX_DIM, TN_MAX_CELLS);
    if (!next_line(&r, &s, &n) || !line_is(s, n, "map"))
        return tn__diag(diag, TN_E_PARSE, name, r.line, 1, NULL, "expected \"map\"");
    /* The rows must be in the buffer before anything is allocated. */
    if ((uint64_t)(r.end - r.p) < (uint64_t)(w * h))
        return tn__diag(diag, TN_E_PARSE, name, r.line + 1, 1, NULL,
                        "file too short for %lld rows of %lld cells", (long long)h, (long long)w);

    tn_map_def d = tn_map_def_default();
    d.width = (int32_t)w;
    d.height = (int32_t)h;
    d.tile_width = o->tile_width;
    d.tile_height = o->tile_height;
    d.allocator = o->allocator;
    tn_map *m = NULL;
    tn_status st = tn_map_create(&d, &m);
    if (st != TN_OK)
        return tn__diag(diag, st, name, 0, 0, NULL, "cannot create the map: %s", tn_status_str(st));
    size_t cells = (size_t)w * (size_t)h;
    uint32_t *gids = tn__alloc(&o->allocator, cells * sizeof(uint32_t));
    if (!gids) {
        tn_map_destroy(m);
        return tn__diag(diag, TN_E_NOMEM, name, 0, 0, NULL, "out of memory");
    }
    for (int32_t y = 0; y < h && st == TN_OK; y++) {
        if (!next_line(&r, &s, &n)) {
            st = tn__diag(diag, TN_E_PARSE, name, r.line + 1, 1, NULL,
                          "unexpected end of file: %d of %lld rows", (int)y, (long long)h);
            break;
        }
        if (n != (size_t)w) {
            st = tn__diag(diag, TN_E_PARSE, name, r.line,
                          n < (size_t)w ? (int32_t)n + 1 : (int32_t)w + 1, NULL,
                          "row %d has %zu cells, expected %lld", (int)y, n, (long long)w);
            break;
        }
        for (int32_t x = 0; x < w; x++) {
            if (letter_kind(s[x]) < 0) {
                unsigned char c = (unsigned char)s[x];
                st = tn__diag(diag, TN_E_PARSE, name, r.line, x + 1, NULL,
                              c >= 32 && c < 127 ? "unknown terrain letter '%c'"
                                                 : "unknown terrain byte 0x%02x",
                              c);
                break;
            }
            gids[(size_t)y * (size_t)w + (size_t)x] = (unsigned char)s[x];
        }
    }
    while (st == TN_OK && next_line(&r, &s, &n)) {
        size_t i = 0;
        while (i < n && (is_space(s[i])))
            i++;
        if (i != n)
            st = tn__diag(diag, TN_E_PARSE, name, r.line, 1, NULL,
                          "unexpected text after the %lld map rows", (long long)h);
    }
    static const char letters[] = ".GS@OTW";
    int32_t layer = -1;
    if (st == TN_OK)
        st = tn_map_add_layer(m, "terrain", TN_LAYER_TILES, &layer);
    for (size_t i = 0; st == TN_OK && i < sizeof letters - 1; i++)
        st = tn_map_set_terrain(m, (unsigned char)letters[i],
                                (tn_terrain){letter_kind(letters[i]) == 1, 1.0f});
    if (st == TN_OK)
        st = tn_map_set_layer_data(m, layer, gids, (int32_t)cells);
    tn__free(&o->allocator, gids, cells * sizeof(uint32_t));
    if (st != TN_OK) {
        tn_map_destroy(m);
        if (diag && !diag->message[0])
            tn__diag(diag, st, name, 0, 0, NULL, "%s", tn_status_str(st));
        return st;
    }
    *out = m;
    return TN_OK;
}

/* ---- scenarios ----------------------------------------------------------------------- */

struct tn_scenarios {
    tn_allocator alloc;
    tn_scenario *items;
    size_t cap;
    int32_t count;
};

void tn_scenarios_destroy(tn_scenarios *s)
{
    if (!s)
        return;
    tn_allocator a = s->alloc;
    tn__free(&a, s->items, s->cap * sizeof(tn_scenario));
    tn__free(&a, s, sizeof *s);
}

int32_t tn_scenarios_count(const tn_scenarios *s)
{
    return s ? s->count : 0;
}

const tn_scenario *tn_scenarios_at(const tn_scenarios *s, int32_t i)
{
    if (!s || i < 0 || i >= s->count)
        return NULL;
    return &s->items[i];
}

bool tn_scenario_matches(const tn_scenario *s, double length)
{
    if (!s || !isfinite(length))
        return false;
    double tol = 1e-4 * s->optimal + 1e-3 + 0.5 * pow(10.0, -(double)s->decimals);
    return fabs(length - s->optimal) <= tol;
}

/* Split a line into fields on tabs/spaces; at most `max` fields. Returns the count. */
static int split_fields(const char *s, size_t n, const char **f, size_t *fl, int max, int *cols)
{
    int k = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(s[i]))
            i++;
        if (i >= n)
            break;
        if (k == max)
            return max + 1;
        f[k] = s + i;
        cols[k] = (int)i + 1;
        while (i < n && !is_space(s[i]))
            i++;
        fl[k] = (size_t)(s + i - f[k]);
        k++;
    }
    return k;
}

static bool field_int(const char *f, size_t n, int64_t lo, int64_t hi, int64_t *out)
{
    if (n == 0 || n > 18)
        return false;
    int64_t v = 0;
    size_t i = 0;
    bool neg = false;
    if (f[0] == '-') {
        neg = true;
        i = 1;
        if (n == 1)
            return false;
    }
    for (; i < n; i++) {
        if (f[i] < '0' || f[i] > '9')
            return false;
        v = v * 10 + (f[i] - '0');
    }
    if (neg)
        v = -v;
    if (v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool field_double(const char *f, size_t n, double *out, int32_t *decimals)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, f, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || buf[i] == '.' || buf[i] == 'e' || buf[i] == 'E' ||
              buf[i] == '-' || buf[i] == '+'))
            return false;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end || errno || !isfinite(v) || v < 0.0)
        return false;
    const char *dot = strchr(buf, '.');
    int32_t d = 0;
    if (dot)
        for (const char *q = dot + 1; *q >= '0' && *q <= '9'; q++)
            d++;
    *out = v;
    *decimals = d;
    return true;
}

tn_status tn_scenarios_parse(const char *data, size_t len, const char *name,
                             const tn_allocator *alloc, tn_scenarios **out, tn_diag *diag)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!data)
        return tn__diag(diag, TN_E_INVALID_ARG, name, 0, 0, NULL, "no data");
    tn_allocator a = alloc ? *alloc : (tn_allocator){NULL, NULL, NULL};
    line_reader r = {data, data + len, 0};
    const char *s;
    size_t n;
    if (!next_line(&r, &s, &n) || !(line_is(s, n, "version 1") || line_is(s, n, "version 1.0")))
        return tn__diag(diag, TN_E_PARSE, name, 1, 1, NULL,
                        "expected \"version 1\" or \"version 1.0\" on the first line");
    tn_scenarios *sc = tn__calloc(&a, sizeof *sc);
    if (!sc)
        return tn__diag(diag, TN_E_NOMEM, name, 0, 0, NULL, "out of memory");
    sc->alloc = a;
    tn_status st = TN_OK;
    while (st == TN_OK && next_line(&r, &s, &n)) {
        const char *f[10];
        size_t fl[10];
        int cols[10];
        int k = split_fields(s, n, f, fl, 9, cols);
        if (k == 0)
            continue;
        if (k != 9) {
            st = tn__diag(diag, TN_E_PARSE, name, r.line, 1, NULL,
                          "expected 9 fields (bucket map width height sx sy gx gy length), "
                          "found %s%d",
                          k > 9 ? "more than " : "", k > 9 ? 9 : k);
            break;
        }
        int64_t v[7];
        static const char *what[7] = {"bucket",  "width",  "height", "start x",
                                      "start y", "goal x", "goal y"};
        static const int idx[7] = {0, 2, 3, 4, 5, 6, 7};
        for (int j = 0; j < 7 && st == TN_OK; j++) {
            int64_t lo = j == 0 ? 0 : (j <= 2 ? 1 : 0), hi = j == 0 ? INT32_MAX : TN_MAX_DIM;
            if (!field_int(f[idx[j]], fl[idx[j]], lo, hi, &v[j]))
                st = tn__diag(diag, TN_E_PARSE, name, r.line, cols[idx[j]], NULL,
                              "bad %s: expected a whole number in [%lld, %lld]", what[j],
                              (long long)lo, (long long)hi);
        }
        if (st != TN_OK)
            break;
        tn_scenario e;
        memset(&e, 0, sizeof e);
        if (!field_double(f[8], fl[8], &e.optimal, &e.decimals)) {
            st = tn__diag(diag, TN_E_PARSE, name, r.line, cols[8], NULL,
                          "bad optimal length: expected a non-negative number");
            break;
        }
        e.bucket = (int32_t)v[0];
        e.map_width = (int32_t)v[1];
        e.map_height = (int32_t)v[2];
        e.start = (tn_cell){(int32_t)v[3], (int32_t)v[4]};
        e.goal = (tn_cell){(int32_t)v[5], (int32_t)v[6]};
        if (e.start.x >= e.map_width || e.goal.x >= e.map_width || e.start.y >= e.map_height ||
            e.goal.y >= e.map_height) {
            st = tn__diag(diag, TN_E_PARSE, name, r.line, cols[4], NULL,
                          "start or goal outside the %d x %d map the line declares",
                          (int)e.map_width, (int)e.map_height);
            break;
        }
        void *p = sc->items;
        st = tn__grow(&a, &p, sizeof(tn_scenario), &sc->cap, (size_t)sc->count + 1);
        if (st != TN_OK) {
            tn__diag(diag, st, name, r.line, 1, NULL, "out of memory");
            break;
        }
        sc->items = p;
        if (sc->count == INT32_MAX - 1) {
            st = tn__diag(diag, TN_E_TOO_LARGE, name, r.line, 1, NULL, "too many scenarios");
            break;
        }
        sc->items[sc->count++] = e;
    }
    if (st != TN_OK) {
        tn_scenarios_destroy(sc);
        return st;
    }
    *out = sc;
    return TN_OK;
}

tn_status tn_scenarios_load(const char *path, const tn_allocator *alloc, tn_scenarios **out,
                            tn_diag *diag)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    char *data;
    size_t len;
    tn_status st = tn__file_read(path, (size_t)256 << 20, NULL, &data, &len, diag);
    if (st != TN_OK)
        return st;
    st = tn_scenarios_parse(data, len, path, alloc, out, diag);
    tn__file_free(NULL, data, len);
    return st;
}
