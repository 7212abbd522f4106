/// @file dirmap.h
/// @brief Direction ("angle") maps, as a race car's track uses them: one heading per cell, in
/// degrees, 0 = pointing right (3 o'clock), angles growing clockwise on screen (90 = down), in
/// [0, 360). A cell may have no heading (NaN). Loaded from a tile layer (each gid mapped to an
/// angle through a table, or the gid itself read as the angle)
/// or generated from a flow field. Agents steer towards the heading of the cell they are on.
///
/// Ownership and threads: caller-created; owns its W*H floats. Readers may share it.
/// Errors: TN_E_INVALID_ARG (NULL, size mismatch, non-finite angle), TN_E_OUT_OF_MAP, TN_E_NOMEM.
#ifndef TILENAV_DIRMAP_H
#define TILENAV_DIRMAP_H

#include "field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_dirmap tn_dirmap;

/// Definition. Get one from tn_dirmap_def_default().
typedef struct tn_dirmap_def {
    int32_t width, height;    ///< cells, 1..TN_MAX_DIM
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_dirmap_def_default(); do not touch
} tn_dirmap_def;

/// A 1x1 definition with malloc/free.
TN_API tn_dirmap_def tn_dirmap_def_default(void);
/// Create a map with no heading anywhere (NaN). On failure `*out` is NULL.
TN_API TN_NODISCARD tn_status tn_dirmap_create(const tn_dirmap_def *def, tn_dirmap **out);
/// Destroy. NULL is a no-op.
TN_API void tn_dirmap_destroy(tn_dirmap *dm);
/// Width in cells; 0 for NULL.
TN_API int32_t tn_dirmap_width(const tn_dirmap *dm);
/// Height in cells; 0 for NULL.
TN_API int32_t tn_dirmap_height(const tn_dirmap *dm);

/// Set one heading in degrees (any finite value, wrapped into [0, 360)), or NaN for none.
TN_API TN_NODISCARD tn_status tn_dirmap_set(tn_dirmap *dm, int32_t x, int32_t y, float degrees);
/// Heading of one cell in [0, 360), NaN when none or outside.
TN_API float tn_dirmap_get(const tn_dirmap *dm, int32_t x, int32_t y);
/// Unit vector of a cell's heading (screen axes, y down): (cos a, sin a); (0, 0) when none.
TN_API tn_vec2 tn_dirmap_vector(const tn_dirmap *dm, int32_t x, int32_t y);
/// Heading at a pixel position: the heading of the cell under it (tile size in pixels).
TN_API float tn_dirmap_at_px(const tn_dirmap *dm, float px, float py, int32_t tile_width,
                             int32_t tile_height);

/// Load from a tile layer of `map` (same size as the direction map). With a table, the tile id
/// (flags stripped) t maps to table[t] when t < table_len (NaN entries = no heading) and to no
/// heading otherwise; without a table (NULL), the gid itself is the angle in degrees (so gid 0
/// means 0 degrees).
TN_API TN_NODISCARD tn_status tn_dirmap_load_layer(tn_dirmap *dm, const tn_map *map, int32_t layer,
                                                   const float *table, int32_t table_len);
/// Headings from a field's continuous vectors (towards the goal); cells without a direction get
/// none. The field must have the same size.
TN_API TN_NODISCARD tn_status tn_dirmap_from_field(tn_dirmap *dm, const tn_field *field);

#ifdef __cplusplus
}
#endif

#endif
