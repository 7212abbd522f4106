/* Private pieces shared by the loaders. */
#ifndef TILENAV_IO_INTERNAL_H
#define TILENAV_IO_INTERNAL_H

#include "../internal.h"
#include "tilenav/io.h"

/* Fill a diagnostic (any of diag, file may be NULL) and return `st`. */
tn_status tn__diag(tn_diag *diag, tn_status st, const char *file, int32_t line, int32_t column,
                   const char *where, const char *fmt, ...) TN_PRINTF(7, 8);

tn_status tn__parse_movingai(const char *data, size_t len, const char *name,
                             const tn_load_def *opts, tn_map **out, tn_diag *diag);
tn_status tn__parse_tiled(const char *data, size_t len, const char *name, const tn_load_def *opts,
                          tn_map **out, tn_diag *diag);
tn_status tn__parse_tmx(const char *data, size_t len, const char *name, const tn_load_def *opts,
                        tn_map **out, tn_diag *diag);
tn_status tn__parse_ascii(const char *data, size_t len, const char *name, const tn_load_def *opts,
                          tn_map **out, tn_diag *diag);

/* ---- Tiled's document model, shared by the JSON and the XML readers ----
 * Every Tiled document (map, tileset, template) is read as the cJSON tree of Tiled's JSON
 * export of the same document, so one reader (tiled.c) serves `.tmj` and `.tmx` alike. The
 * XML reader differs in one place only: tile data it reads as CSV or XML `<tile>` elements is
 * kept as a string with `"encoding": "csv"` (comma-separated gids, whitespace allowed) instead
 * of a JSON array of numbers, which would cost 64 bytes per cell. */
struct cJSON;
typedef enum tn__tiled_doc {
    TN__TILED_MAP,      /* <map> / a .tmj map */
    TN__TILED_TILESET,  /* <tileset> / a .tsj tileset */
    TN__TILED_TEMPLATE, /* <template> / a .tj template */
} tn__tiled_doc;
/* Parse Tiled XML (TMX/TSX/TX) text into that tree (tmx.c). `want` is the document kind the
 * root element must be. On failure *out is NULL and diag names the line and column. */
tn_status tn__tmx_to_json(const char *data, size_t len, const char *name, tn__tiled_doc want,
                          const tn_load_def *opts, struct cJSON **out, tn_diag *diag);
/* Build a map from a Tiled map tree (tiled.c); `name` resolves external tilesets/templates. */
tn_status tn__tiled_from_tree(const struct cJSON *root, const char *name, const tn_load_def *opts,
                              tn_map **out, tn_diag *diag);

/* Read a whole file (at most `max_bytes`) into a NUL-terminated buffer from `allocator` (NULL:
 * malloc/free); free it with tn__file_free(). A directory is "cannot read: Is a directory". */
tn_status tn__file_read(const char *path, size_t max_bytes, const tn_allocator *allocator,
                        char **out, size_t *len, tn_diag *diag);
void tn__file_free(const tn_allocator *allocator, char *data, size_t len);

/* ---- byte decoders (decode.c); `msg` receives the reason on failure ---- */
/* Validate base64 text (whitespace allowed) and compute its decoded length. */
tn_status tn__base64_size(const char *s, size_t len, size_t *out, char *msg, size_t cap);
/* Decode base64 validated by tn__base64_size into `out` (of the size it reported). */
void tn__base64_decode(const char *s, size_t len, uint8_t *out);
/* Inflate a zlib or gzip stream into exactly `want` bytes; more or fewer is an error. */
tn_status tn__inflate_exact(const uint8_t *in, size_t n, uint8_t *out, size_t want,
                            const char *what, char *msg, size_t cap);
/* Decompress zstd frames into exactly `want` bytes; more or fewer is an error. */
tn_status tn__zstd_exact(const uint8_t *in, size_t n, uint8_t *out, size_t want, char *msg,
                         size_t cap);

#endif
