/* Private pieces shared by the loaders. */
#ifndef TILENAV_IO_INTERNAL_H
#define TILENAV_IO_INTERNAL_H

#include "../internal.h"
#include "tilenav/io.h"

/* Fill a diagnostic (any of diag, file may be NULL) and return `st`. */
tn_status tn__diag(tn_diag *diag, tn_status st, const char *file, int32_t line, int32_t column,
                   const char *where, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

tn_status tn__parse_movingai(const char *data, size_t len, const char *name,
                             const tn_load_options *opts, tn_map **out, tn_diag *diag);
tn_status tn__parse_tiled(const char *data, size_t len, const char *name,
                          const tn_load_options *opts, tn_map **out, tn_diag *diag);
tn_status tn__parse_ascii(const char *data, size_t len, const char *name,
                          const tn_load_options *opts, tn_map **out, tn_diag *diag);

#endif
