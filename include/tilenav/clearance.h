/// @file clearance.h
/// @brief Clearance: for every cell, the side (in cells) of the largest square unit that can
/// stand with its top-left cell there, for units bigger than one tile.
///
/// Anchor and rule: a unit of size n (an n x n square of cells) stands at cell (x, y) when
/// every cell of [x, x+n) x [y, y+n) is inside the map and passable. The clearance of (x, y)
/// is the largest such n, 0 on a blocked cell, and never more than `max_size` (the cap). A
/// unit of size n may stand at (x, y) exactly when clearance(x, y) >= n. Standing does not
/// depend on the movement rules; moving does, and size-aware searches apply the rules to the
/// unit's whole footprint (a diagonal step without corner cutting needs the n+1 x n+1 square
/// it sweeps).
///
/// Cost: a full build visits every cell once from the bottom-right (clearance(x, y) = 1 + the
/// least of its right, lower and lower-right neighbours'). tn_clearance_update() reads the
/// map's change log and recomputes only the cells whose square can reach a changed cell: the
/// changed rectangle grown by max_size - 1 to the left and up.
///
/// Ownership and threads: the caller creates the object for a map that must outlive it; it
/// owns one byte per cell. Readers may share it while nobody updates it.
/// Errors: TN_E_INVALID_ARG (NULL, no cookie, max_size outside 1..255, half an allocator),
/// TN_E_TOO_LARGE, TN_E_NOMEM.
#ifndef TILENAV_CLEARANCE_H
#define TILENAV_CLEARANCE_H

#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_clearance tn_clearance;

/// Definition. Get one from tn_clearance_def_default() and set `map`.
typedef struct tn_clearance_def {
    const tn_map *map;        ///< required; must outlive the object
    int32_t max_size;         ///< the cap, 1..255 (default 8): the largest unit size asked for
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_clearance_def_default(); do not touch
} tn_clearance_def;

/// A definition with its defaults (map NULL: set it; max_size 8; malloc/free).
TN_API tn_clearance_def tn_clearance_def_default(void);
/// Create and build the clearance of `def->map`. On failure `*out` is NULL.
TN_API TN_NODISCARD tn_status tn_clearance_create(const tn_clearance_def *def, tn_clearance **out);
/// Destroy. NULL is a no-op.
TN_API void tn_clearance_destroy(tn_clearance *cl);
/// Bytes held.
TN_API size_t tn_clearance_memory_bytes(const tn_clearance *cl);
/// Bring the clearance up to date with the map's edits since the last build or update, from
/// the map's change log (a full rebuild when the log no longer reaches back). `*touched` (may
/// be NULL) receives the number of cells recomputed.
TN_API TN_NODISCARD tn_status tn_clearance_update(tn_clearance *cl, int32_t *touched);
/// Clearance of a cell (0 when blocked or outside the map).
TN_API int32_t tn_clearance_get(const tn_clearance *cl, int32_t x, int32_t y);
/// Per-cell clearance, row-major, W*H bytes; valid until the next update.
TN_API const uint8_t *tn_clearance_data(const tn_clearance *cl);
/// The cap it was built with.
TN_API int32_t tn_clearance_max_size(const tn_clearance *cl);
/// Cells of each clearance value: hist[k] = cells whose clearance is k, for k = 0..max_size
/// (`hist` holds max_size + 1 entries).
TN_API TN_NODISCARD tn_status tn_clearance_histogram(const tn_clearance *cl, int32_t *hist,
                                                     int32_t cap);

#ifdef __cplusplus
}
#endif

#endif
