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
/// Size maps: for units bigger than one cell the object also keeps, for every size n in
/// 2..max_size, a map of the same size (tn_clearance_map()) on which a unit of size n is a
/// one-cell unit: cell (x, y) is passable when the unit fits there (clearance >= n), and
/// entering it costs the largest cost among the n x n cells the unit then covers. A path on it
/// is a path of the unit's top-left cell, and the movement rules applied to it are the rules
/// applied to the whole footprint: a diagonal step without corner cutting needs the two side
/// positions to fit, which is the n+1 x n+1 square the step sweeps. Searches
/// (tn_query::size and tn_query::clearance), flow fields, jump tables, goal bounds, regions and
/// crowds all read these maps as they read any map, so every algorithm is size-aware with the
/// same code. A size map refuses layer and terrain edits (TN_E_STATE): edit the source map and
/// call tn_clearance_update(), which updates the size maps in the same window and logs what
/// changed in each one's change log, so fields and caches built on them update incrementally.
/// Each size map holds 5 bytes per cell (set `size_maps` false to skip them).
///
/// Cost: a full build visits every cell once from the bottom-right (clearance(x, y) = 1 + the
/// least of its right, lower and lower-right neighbours'). tn_clearance_update() reads the
/// map's change log and recomputes only the cells whose square can reach a changed cell: each
/// edit's rectangle grown by max_size - 1 to the left and up (rectangles that overlap or touch
/// are merged into their box; edits far apart stay apart).
///
/// Ownership and threads: the caller creates the object for a map that must outlive it; it
/// owns one byte per cell, plus the size maps. Readers may share it while nobody updates it.
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
    int32_t max_size;         ///< the cap, 1..255 (default 4): the largest unit size asked for
    bool size_maps;           ///< keep the size maps for sizes 2..max_size (default true)
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_clearance_def_default(); do not touch
} tn_clearance_def;

/// A definition with its defaults (map NULL: set it; max_size 4; size maps; malloc/free).
TN_API tn_clearance_def tn_clearance_def_default(void);
/// Create and build the clearance of `def->map`. On failure `*out` is NULL.
TN_API TN_NODISCARD tn_status tn_clearance_create(const tn_clearance_def *def, tn_clearance **out);
/// Destroy. NULL is a no-op.
TN_API void tn_clearance_destroy(tn_clearance *cl);
/// Bytes held.
TN_API size_t tn_clearance_memory_bytes(const tn_clearance *cl);
/// Bring the clearance up to date with the map's edits since the last build or update, from
/// the map's change log (a full rebuild when the log no longer reaches back). `*touched` (may
/// be NULL) receives the number of cells recomputed (the same windows in each size map).
TN_API TN_NODISCARD tn_status tn_clearance_update(tn_clearance *cl, int32_t *touched);
/// Clearance of a cell (0 when blocked or outside the map).
TN_API int32_t tn_clearance_get(const tn_clearance *cl, int32_t x, int32_t y);
/// Per-cell clearance, row-major, W*H bytes; valid until the next update.
TN_API const uint8_t *tn_clearance_data(const tn_clearance *cl);
/// The map a unit of `size` moves on (see "Size maps"): the source map for size 1, the size
/// map for 2..max_size; NULL when `size` is outside 1..max_size or size maps were not built.
/// Valid until the object is destroyed; current after each tn_clearance_update().
TN_API const tn_map *tn_clearance_map(const tn_clearance *cl, int32_t size);
/// The top-left cells of the positions of a unit of `size` that cover any of `cells` and fit
/// now: what the unit loses when those cells become blocked, so a tower-defense game asks
/// tn_field_would_wall_off() on a field of that size with them. Each cell once, in order of
/// first appearance (cost: count * size^2 * the answer's length). For size 1, the passable
/// ones among `cells`.
/// @return TN_OK; TN_E_BUFFER_TOO_SMALL (`*out_count` = the number needed; `out` holds the
///         first `cap`, though past `cap` a cell may be counted twice); TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_clearance_anchors_over(const tn_clearance *cl, int32_t size,
                                                        const tn_cell *cells, int32_t count,
                                                        tn_cell *out, int32_t cap,
                                                        int32_t *out_count);
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
