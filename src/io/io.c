/* Loader front door: options, diagnostics, reading files, format detection and dispatch. */
#include "io_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

tn_status tn__diag(tn_diag *diag, tn_status st, const char *file, int32_t line, int32_t column,
                   const char *where, const char *fmt, ...)
{
    if (!diag)
        return st;
    memset(diag, 0, sizeof *diag);
    if (file)
        tn__copy_name(diag->file, sizeof diag->file, file);
    if (where)
        tn__copy_name(diag->where, sizeof diag->where, where);
    diag->line = line;
    diag->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return st;
}

size_t tn_diag_format(const tn_diag *d, char *buf, size_t cap)
{
    if (!d)
        return 0;
    const char *file = d->file[0] ? d->file : "<input>";
    int n;
    if (d->line > 0 && d->column > 0)
        n = snprintf(buf, cap, "%s:%d:%d: %s", file, (int)d->line, (int)d->column, d->message);
    else if (d->line > 0)
        n = snprintf(buf, cap, "%s:%d: %s", file, (int)d->line, d->message);
    else if (d->where[0])
        n = snprintf(buf, cap, "%s: %s: %s", file, d->where, d->message);
    else
        n = snprintf(buf, cap, "%s: %s", file, d->message);
    return n < 0 ? 0 : (size_t)n;
}

const char *tn_format_name(tn_format f)
{
    switch (f) {
    case TN_FORMAT_AUTO: return "auto";
    case TN_FORMAT_MOVINGAI: return "movingai";
    case TN_FORMAT_TILED: return "tiled";
    case TN_FORMAT_ASCII: return "ascii";
    case TN_FORMAT_TMX: return "tmx";
    }
    return "unknown";
}

tn_load_def tn_load_def_default(void)
{
    tn_load_def o;
    memset(&o, 0, sizeof o);
    o.format = TN_FORMAT_AUTO;
    o.max_file_bytes = (size_t)256 << 20;
    o.tile_width = 32;
    o.tile_height = 32;
    o.max_layer_cells = (size_t)1 << 28;
    o.max_json_values = (size_t)1 << 24;
    o.collision = TN_COLLIDE_ALL;
    o.cover = TN_COVER_CENTER;
    o.collision_layers =
        "collision,collisions,collider,colliders,walls,wall,solid,obstacles,blocked";
    o.internal_cookie = TN_COOKIE_LOAD;
    return o;
}

tn_status tn__file_read(const char *path, size_t max_bytes, const tn_allocator *a, char **out,
                        size_t *len, tn_diag *diag)
{
    if (!out || !len)
        return TN_E_INVALID_ARG;
    *out = NULL;
    *len = 0;
    if (!path)
        return TN_E_INVALID_ARG;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tn__diag(diag, TN_E_IO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    /* A file that can tell its size (a regular file) is refused before any read when it is
     * past the limit, and read into one buffer of its size; a pipe, a device or a /proc file
     * (size 0) is read in doubling chunks up to the limit. The loop below still reads to the
     * end, so a file that grows meanwhile is read whole, or refused at the limit. */
    size_t hint = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (end > 0)
            hint = (size_t)end;
    }
    if (fseek(f, 0, SEEK_SET) != 0) {
        clearerr(f);
        hint = 0;
    }
    /* A directory opens and seeks too (its end is LONG_MAX on Linux), then fails to read: one
     * byte read first reports it as unreadable, not as too large. */
    errno = 0;
    int first = fgetc(f);
    int first_errno = errno;
    if (first == EOF && ferror(f)) {
        fclose(f);
        return tn__diag(diag, TN_E_IO, path, 0, 0, NULL, "cannot read: %s",
                        first_errno ? strerror(first_errno) : "read error");
    }
    if (first != EOF && ungetc(first, f) == EOF) {
        fclose(f);
        return tn__diag(diag, TN_E_IO, path, 0, 0, NULL, "cannot read: read error");
    }
    if (hint > max_bytes) {
        fclose(f);
        return tn__diag(diag, TN_E_TOO_LARGE, path, 0, 0, NULL,
                        "file is %zu bytes, larger than the limit of %zu bytes (max_file_bytes)",
                        hint, max_bytes);
    }
    size_t cap = 0, n = 0;
    char *buf = NULL;
    tn_status st = TN_OK;
    for (;;) {
        if (n + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : hint ? hint + 2 : 65536;
            if (cap && ncap - 1 > max_bytes)
                ncap = max_bytes + 2;
            if (ncap <= n + 1) {
                st = tn__diag(diag, TN_E_TOO_LARGE, path, 0, 0, NULL,
                              "file is larger than the limit of %zu bytes (max_file_bytes)",
                              max_bytes);
                break;
            }
            char *nb = tn__alloc(a, ncap);
            if (!nb) {
                st = tn__diag(diag, TN_E_NOMEM, path, 0, 0, NULL, "out of memory reading file");
                break;
            }
            if (buf) {
                memcpy(nb, buf, n);
                tn__free(a, buf, cap);
            }
            buf = nb;
            cap = ncap;
        }
        size_t want = cap - 1 - n;
        errno = 0;
        size_t got = fread(buf + n, 1, want, f);
        int read_errno = errno;
        n += got;
        if (n > max_bytes) {
            st = tn__diag(diag, TN_E_TOO_LARGE, path, 0, 0, NULL,
                          "file is larger than the limit of %zu bytes (max_file_bytes)", max_bytes);
            break;
        }
        if (got < want) {
            if (ferror(f)) /* a directory opens, then fails here with EISDIR */
                st = tn__diag(diag, TN_E_IO, path, 0, 0, NULL, "cannot read: %s",
                              read_errno ? strerror(read_errno) : "read error");
            break;
        }
    }
    fclose(f);
    if (st != TN_OK) {
        tn__free(a, buf, cap);
        return st;
    }
    buf[n] = '\0';
    /* Shrink-free handoff: callers free with the capacity, so store it in *len's partner. */
    *out = buf;
    *len = n;
    /* The allocation size is needed to free; keep it recoverable: cap is n+1 rounded up. To keep
     * tn__file_free simple, reallocate to exactly n+1 when a custom allocator is in use. */
    if (a && a->alloc && cap != n + 1) {
        char *exact = tn__alloc(a, n + 1);
        if (!exact) {
            tn__free(a, buf, cap);
            *out = NULL;
            *len = 0;
            return tn__diag(diag, TN_E_NOMEM, path, 0, 0, NULL, "out of memory reading file");
        }
        memcpy(exact, buf, n + 1);
        tn__free(a, buf, cap);
        *out = exact;
    }
    return TN_OK;
}

void tn__file_free(const tn_allocator *a, char *data, size_t len)
{
    tn__free(a, data, len + 1);
}

static bool has_ext(const char *name, const char *ext)
{
    if (!name)
        return false;
    size_t n = strlen(name), e = strlen(ext);
    return n >= e && strcmp(name + n - e, ext) == 0;
}

tn_format tn_map_detect_format(const char *name, const char *data, size_t len)
{
    size_t i = 0;
    if (data) {
        if (len >= 3 && (unsigned char)data[0] == 0xEF && (unsigned char)data[1] == 0xBB &&
            (unsigned char)data[2] == 0xBF)
            i = 3;
        while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
            i++;
        if (i < len && data[i] == '{')
            return TN_FORMAT_TILED;
        if (len - i >= 4 && memcmp(data + i, "type", 4) == 0)
            return TN_FORMAT_MOVINGAI;
        if (len - i >= 13 && memcmp(data + i, "tilenav-ascii", 13) == 0)
            return TN_FORMAT_ASCII;
        if (i < len && data[i] == '<')
            return TN_FORMAT_TMX;
    }
    if (has_ext(name, ".map"))
        return TN_FORMAT_MOVINGAI;
    if (has_ext(name, ".tmj") || has_ext(name, ".json"))
        return TN_FORMAT_TILED;
    if (has_ext(name, ".txt"))
        return TN_FORMAT_ASCII;
    if (has_ext(name, ".tmx"))
        return TN_FORMAT_TMX;
    return TN_FORMAT_AUTO;
}

tn_status tn_map_parse(const char *data, size_t len, const char *name, const tn_load_def *opts,
                       tn_map **out, tn_diag *diag)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!data)
        return tn__diag(diag, TN_E_INVALID_ARG, name, 0, 0, NULL, "no data");
    tn_load_def o = opts ? *opts : tn_load_def_default();
    if (o.internal_cookie != TN_COOKIE_LOAD)
        return tn__diag(diag, TN_E_INVALID_ARG, name, 0, 0, NULL,
                        "the load definition does not come from tn_load_def_default()");
    if (o.tile_width < 1 || o.tile_height < 1)
        return tn__diag(diag, TN_E_INVALID_ARG, name, 0, 0, NULL, "tile size must be >= 1");
    tn_format f = o.format;
    if (f == TN_FORMAT_AUTO)
        f = tn_map_detect_format(name, data, len);
    switch (f) {
    case TN_FORMAT_MOVINGAI: return tn__parse_movingai(data, len, name, &o, out, diag);
    case TN_FORMAT_TILED: return tn__parse_tiled(data, len, name, &o, out, diag);
    case TN_FORMAT_ASCII: return tn__parse_ascii(data, len, name, &o, out, diag);
    case TN_FORMAT_TMX: return tn__parse_tmx(data, len, name, &o, out, diag);
    case TN_FORMAT_AUTO: break;
    }
    return tn__diag(diag, TN_E_UNSUPPORTED, name, 0, 0, NULL,
                    "unknown map format (expected a Moving AI .map, Tiled JSON or TMX, or "
                    "tilenav ASCII)");
}

tn_status tn_map_load(const char *path, const tn_load_def *opts, tn_map **out, tn_diag *diag)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!path)
        return TN_E_INVALID_ARG;
    tn_load_def o = opts ? *opts : tn_load_def_default();
    if (o.internal_cookie != TN_COOKIE_LOAD)
        return tn__diag(diag, TN_E_INVALID_ARG, path, 0, 0, NULL,
                        "the load definition does not come from tn_load_def_default()");
    char *data;
    size_t len;
    tn_status st = tn__file_read(path, o.max_file_bytes, NULL, &data, &len, diag);
    if (st != TN_OK)
        return st;
    if (o.on_file)
        o.on_file(path, o.on_file_user);
    st = tn_map_parse(data, len, path, &o, out, diag);
    tn__file_free(NULL, data, len);
    return st;
}
