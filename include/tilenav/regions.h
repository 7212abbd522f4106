/// @file regions.h
/// @brief Regions: the connected components of a map, per unit size, so that "can a unit get
/// from here to there at all?" is answered in O(1) instead of by a search that empties the map.
///
/// For size n, the cells where an n x n unit fits (clearance.h: clearance >= n, the unit's
/// top-left cell) are split into regions: two such cells share a region exactly when a unit of
/// size n can walk from one to the other under the movement rule `diagonal`. Straight steps
/// join side neighbours; a diagonal step without corner cutting, or with one corner free,
/// passes through a side neighbour that also fits, so under TN_DIAGONAL_NEVER, NO_CUT and ONE
/// the regions are the same (side-connected components); under TN_DIAGONAL_ALWAYS diagonal
/// neighbours join too. Ids are 0..count-1 (-1 where the unit does not fit); a build numbers
/// them in row-major order of each region's first cell. An update gives each new region (an
/// island, or a piece split off) the next id; when a region's id is given up (it joined a larger
/// region, or vanished) the region numbered last takes that id, so ids stay 0..count-1. The
/// same maps and updates always give the same ids.
///
/// Searches: set tn_query::regions and a query whose start and goals lie in different regions
/// returns TN_NO_PATH at once, without expanding a node; with `closest` it searches only for
/// the cells of the start's region closest to the goals (tn_query::regions). The regions must
/// describe the map's current revision (tn_regions_update()) and a rule at least as permissive as
/// the query's: regions built for TN_DIAGONAL_ALWAYS serve every query, the others every query but
/// TN_DIAGONAL_ALWAYS ones.
///
/// Cost: a build labels every size class with one union-find pass over its labels and one
/// numbering pass (linear in the cells). tn_regions_update() reads the map's change log, updates
/// the clearance, then for each size class works from the edits' windows. Cells that stop
/// fitting lose their label; when the neighbours they leave in their region do not meet again
/// inside the window, floods from those neighbours, with a budget doubled each round, find the
/// pieces the region fell into, and every piece but the last takes a new id: the work is about
/// twice the cells of the smaller pieces. Cells that start fitting take the label of the region
/// they touch (a new id when none); when a group of them touches several, the same floods find
/// the largest, which keeps its id, and the others' cells take it (groups in turn: a region a
/// group joined may be the largest for the next). An id given up is taken by the region
/// numbered last in O(1): the labels hold slots, and a table maps slots to ids. Each edit since
/// the last update has its own window (windows that meet are merged), so edits far apart cost what
/// each costs alone. A size class is relabelled when a flood would pass 1/32 of the map (a wall
/// that cuts off a large piece: a relabel costs less then), when the windows hold more cells than
/// the scratch, or when the log no longer reaches back.
///
/// Ownership and threads: caller-owned, for a map that must outlive it. Readers may share it
/// while nobody updates it. Memory: 4 bytes per cell and size class for the labels, 12 bytes per
/// region and size class once an update has given an id up (the slot table, grown by doubling),
/// the clearance (1 byte per cell, and 5 per cell and size above 1 with size maps), and 9 bytes
/// of update scratch per cell of the largest window a local update takes: 2^18 cells or an eighth
/// of the map, whichever is more (the whole map below 2^18 cells; an update whose windows hold
/// more cells in all relabels its size classes). So about 14 bytes per cell up to 512 x 512,
/// and 6.1 on 4096 x 4096 for one size class (103 MB; 254 MB for sizes 1 and 2).
#ifndef TILENAV_REGIONS_H
#define TILENAV_REGIONS_H

#include "clearance.h"
#include "map.h"
#include "moves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_regions tn_regions;

/// Definition. Get one from tn_regions_def_default() and set `map`.
typedef struct tn_regions_def {
    const tn_map *map;    ///< required; must outlive the regions
    tn_diagonal diagonal; ///< the movement rule (default TN_DIAGONAL_NO_CUT)
    int32_t max_size;     ///< size classes 1..max_size, 1..255 (default 1)
    /// keep the clearance's size maps (default true): tn_regions_clearance() then serves as
    /// tn_query::clearance for sizes up to max_size, so a game keeps one clearance, updated by
    /// tn_regions_update(); false saves 5 bytes per cell per size above 1 when the game keeps
    /// its own clearance for its queries
    bool size_maps;
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_regions_def_default(); do not touch
} tn_regions_def;

/// A definition with its defaults (map NULL: set it; NO_CUT; one size class; size maps).
TN_API tn_regions_def tn_regions_def_default(void);
/// Create and label. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG (NULL, no cookie, bad rule, max_size outside 1..255),
///         TN_E_NOMEM, TN_E_TOO_LARGE.
TN_API TN_NODISCARD tn_status tn_regions_create(const tn_regions_def *def, tn_regions **out);
/// Destroy. NULL is a no-op.
TN_API void tn_regions_destroy(tn_regions *regions);
/// Bytes held.
TN_API size_t tn_regions_memory_bytes(const tn_regions *regions);
/// Bring the regions up to date with the map (nothing to do when it has not changed).
/// `*relabelled` (may be NULL) receives the cells the update looked at: per size class updated
/// locally, the edits' windows and the cells its floods visited; the whole map per size class
/// relabelled in full (capped at INT32_MAX).
TN_API TN_NODISCARD tn_status tn_regions_update(tn_regions *regions, int32_t *relabelled);
/// Size classes relabelled in full and locally by the updates since creation.
TN_API void tn_regions_stats(const tn_regions *regions, int64_t *full, int64_t *local);
/// Do the regions describe the map's current revision?
TN_API bool tn_regions_current(const tn_regions *regions);
/// Region id of cell (x, y) for units of `size` (1..max_size), or -1 (the unit does not fit
/// there, outside the map, bad size). Like tn_regions_connected() and tn_regions_count(), it
/// answers for the revision the regions were last brought to: after a map edit, call
/// tn_regions_update() first (tn_regions_current() tells; searches given stale regions return
/// TN_E_MAP_CHANGED instead of answering).
TN_API int32_t tn_regions_id(const tn_regions *regions, int32_t size, int32_t x, int32_t y);
/// Number of regions for units of `size` (0 for a bad size).
TN_API int32_t tn_regions_count(const tn_regions *regions, int32_t size);
/// Can a unit of `size` walk from a to b? (Both must fit; false otherwise.) For the regions'
/// revision: call tn_regions_update() after map edits (a tower just placed), or this answers
/// for the map before them.
TN_API bool tn_regions_connected(const tn_regions *regions, int32_t size, tn_cell a, tn_cell b);
/// The clearance the regions keep (capped at their max_size), current with them; with size
/// maps (tn_regions_def::size_maps, the default) it can be a query's tn_query::clearance.
TN_API const tn_clearance *tn_regions_clearance(const tn_regions *regions);
/// The movement rule and the map the regions were built for.
TN_API tn_diagonal tn_regions_diagonal(const tn_regions *regions);
TN_API const tn_map *tn_regions_map(const tn_regions *regions);

#ifdef __cplusplus
}
#endif

#endif
