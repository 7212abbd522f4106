/// @file sector_field.h
/// @brief Sector flow fields: a flow field towards a goal on a huge map, built lazily, one
/// sector at a time, only where someone asks, from a hierarchy's portal graph; the sectors
/// built are cached under a memory budget.
///
/// Concept: a whole-map field (field.h) costs time and memory in proportion to the map: 16.8
/// million cells on a 4096 x 4096 map. A ::tn_sector_field keeps instead, for one goal (or a
/// few), the cost from every abstract node of a ::tn_hierarchy (the transition cells on sector
/// borders) to the goal, from one Dijkstra on the abstract graph (tn_sector_field_set_goal()),
/// and builds a sector's *tile* (its cells' costs and flow directions) the first time a cell of
/// that sector is asked for (tn_sector_field_dir()): a Dijkstra over that sector's cells only,
/// seeded from the sector's transition cells whose cheapest abstract route leaves the sector
/// at once (they point across the border) and from the goals inside it. Emerson's sector /
/// portal flow fields for Supreme Commander 2 (Game AI Pro, ch. 23) work the same way.
///
/// What the field gives: at every cell that can reach a goal, a direction (::tn_dir) and the
/// cost of the route that following directions from that cell takes, which is what the
/// abstract graph offers: the cheapest route that crosses sector borders only at transition
/// cells and stays within one sector between crossings. Following the directions from any
/// cell reaches a goal: the cost strictly decreases along every step (tested on random maps by
/// walking every cell). The cost exceeds the optimum by at most the hierarchy's fast-mode bound
/// (hierarchy.h: K * tn_hierarchy_crossing_bound() for an optimal route with K crossing
/// steps); docs/hierarchy.md reports the measured gap. Moves and costs are the hierarchy's
/// (8 neighbours without corner cutting, or 4; entering a cell costs base * its cost).
/// Units bigger than a cell: build the hierarchy on a clearance's size map (clearance.h).
///
/// Cost: tn_sector_field_set_goal() runs one Dijkstra over the goal sectors' cells and one
/// over the abstract graph (milliseconds on the 179,000 nodes of a 4096 x 4096 map); a tile
/// costs one Dijkstra over sector_size^2 cells. Memory: 24 bytes per abstract node, plus 5 bytes
/// per sector cell for each tile kept, plus a tile build's scratch of 34 bytes per cell of a
/// (sector_size + 2)^2 window for each thread that builds tiles (one without parallel_for: 39
/// KB for 32-cell sectors, 2.3 MB for 256-cell ones); tn_sector_field_memory_bytes() reports
/// the exact figure. At most `memory_budget` bytes of tiles (at least one):
/// when the budget is full, the least recently used tile is dropped and rebuilt when needed
/// again (the same values: a tile depends only on the goal and the graph).
///
/// Ownership and threads: a field reads its hierarchy (and the hierarchy's map), which must
/// outlive it. Asking for a direction may build a tile, so one field serves one thread at a
/// time (agents with the same goal share one field; every thread may have its own fields on
/// one hierarchy). tn_sector_field_prepare() builds the tiles of a set of cells up front; after
/// it, tn_sector_field_peek() reads them without writing anything, from any number of threads.
/// After the map changes and tn_hierarchy_update() runs, the field is stale: calls return
/// TN_E_MAP_CHANGED until tn_sector_field_set_goal() runs again. Nothing here has global
/// state; results are deterministic.
///
/// Errors: TN_E_INVALID_ARG (NULL, no cookie, bad sizes, half an allocator, no goals or more
/// than TN_SECTOR_FIELD_MAX_GOALS), TN_E_NOMEM, TN_E_FULL (prepare: over the budget),
/// TN_E_OUT_OF_MAP, TN_E_GOAL_BLOCKED, TN_E_MAP_CHANGED (the hierarchy is not current, or changed
/// since the goal was set), TN_E_STATE (no goal set yet). Successes: TN_OK, TN_NO_PATH (the cell is
/// blocked or cannot reach a goal).
#ifndef TILENAV_SECTOR_FIELD_H
#define TILENAV_SECTOR_FIELD_H

#include "hierarchy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_sector_field tn_sector_field;

/// Most goals one field may have.
#define TN_SECTOR_FIELD_MAX_GOALS 64

/// Definition of a sector field. Get one from tn_sector_field_def_default() and set
/// `hierarchy`.
typedef struct tn_sector_field_def {
    const tn_hierarchy *hierarchy; ///< required; must outlive the field
    size_t memory_budget;          ///< bytes of tiles to keep, 0 = 4 MiB (default); at least
                                   ///< one tile is always kept
    tn_allocator allocator;        ///< zeroed = malloc/free
    /// Optional parallel loop (::tn_parallel_for). NULL (default): tiles are built in the
    /// calling thread. Otherwise tn_sector_field_prepare() (and tn_crowd_prepare_sector_field())
    /// build the tiles they need on it, up to 8 ranges at once (each with its own scratch,
    /// about 40 KB with 32 x 32 sectors). Every tile is the same either way.
    tn_parallel_for parallel_for;
    void *parallel_user;      ///< passed to parallel_for
    uint32_t internal_cookie; ///< set by tn_sector_field_def_default(); do not touch
} tn_sector_field_def;
/// A definition with its defaults (hierarchy NULL: set it; a 4 MiB tile budget).
TN_API tn_sector_field_def tn_sector_field_def_default(void);
/// Create a field (no goal yet). On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_sector_field_create(const tn_sector_field_def *def,
                                                     tn_sector_field **out);
/// Destroy (NULL is a no-op).
TN_API void tn_sector_field_destroy(tn_sector_field *field);
/// Bytes held: the abstract costs plus the tiles kept now.
TN_API size_t tn_sector_field_memory_bytes(const tn_sector_field *field);

/// Aim the field at `goals` (1..TN_SECTOR_FIELD_MAX_GOALS cells, the cost to the cheapest):
/// computes the abstract costs and drops every tile. Call it again after tn_hierarchy_update()
/// to follow a changed map. On error the field has no goal.
/// @return TN_OK, TN_E_INVALID_ARG, TN_E_OUT_OF_MAP, TN_E_GOAL_BLOCKED, TN_E_MAP_CHANGED
///         (update the hierarchy first), TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_sector_field_set_goal(tn_sector_field *field, const tn_cell *goals,
                                                       int32_t count);

/// The direction to step from `cell` towards the goal (TN_DIR_NONE on a goal) and the cost of
/// the route the directions take from there (0 on a goal); builds the cell's tile if it is not
/// kept. Either output may be NULL.
/// @return TN_OK, TN_NO_PATH (blocked or no route: *dir = TN_DIR_NONE, *cost = INFINITY),
///         TN_E_INVALID_ARG, TN_E_OUT_OF_MAP, TN_E_STATE, TN_E_MAP_CHANGED, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_sector_field_dir(tn_sector_field *field, tn_cell cell,
                                                  int32_t *dir, float *cost);
/// Build the tiles of the sectors of `cells` that are not kept (cells outside the map are
/// skipped), so that tn_sector_field_peek() answers for all of them; never drops a tile that
/// this call used. `*built` (may be NULL) receives the tiles built.
/// @return TN_OK, TN_E_FULL (the cells' sectors need more tiles than the budget holds: those
///         past it are not built), TN_E_INVALID_ARG, TN_E_STATE, TN_E_MAP_CHANGED, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_sector_field_prepare(tn_sector_field *field, const tn_cell *cells,
                                                      int32_t count, int32_t *built);
/// Like tn_sector_field_dir() but never builds: TN_E_NOT_FOUND when the cell's tile is not
/// kept. Reads only, so any number of threads may peek at once (no other call may run then).
TN_API TN_NODISCARD tn_status tn_sector_field_peek(const tn_sector_field *field, tn_cell cell,
                                                   int32_t *dir, float *cost);
/// Follow the directions from `start` to a goal, writing the cells (start first) into
/// `out` (may be NULL when cap is 0); `*length` receives the number of cells of the whole
/// route (TN_E_BUFFER_TOO_SMALL when it exceeds cap) and `*cost` its cost (either may be NULL).
/// Builds the tiles it crosses.
/// @return TN_OK, TN_NO_PATH, or an error of tn_sector_field_dir().
TN_API TN_NODISCARD tn_status tn_sector_field_path(tn_sector_field *field, tn_cell start,
                                                   tn_cell *out, int32_t cap, int32_t *length,
                                                   double *cost);

/// What a field has done since its goal was set.
typedef struct tn_sector_field_stats {
    int32_t goals;         ///< goals set
    int32_t nodes_reached; ///< abstract nodes that can reach a goal
    int32_t tiles_kept;    ///< tiles held now
    int32_t tiles_max;     ///< tiles the budget allows
    int64_t tiles_built;   ///< tiles built (rebuilds after eviction included)
    int64_t tiles_evicted; ///< tiles dropped to stay within the budget
    size_t tile_bytes;     ///< bytes per tile
} tn_sector_field_stats;
/// Fill `*out` (zeroed for NULL).
TN_API void tn_sector_field_stats_get(const tn_sector_field *field, tn_sector_field_stats *out);

#ifdef __cplusplus
}
#endif

#endif
