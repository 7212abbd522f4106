/// @file field.h
/// @brief Fields for crowds: an integration (distance) field from one or many goal cells, a
/// flow field (one of 8 directions per cell plus a continuous unit vector and a smooth sampler),
/// the cells that see the goal in a straight line, paths read off the field, incremental
/// updates when the map changes, and the tower-defense "would this wall off the exit?" query.
///
/// Concept: one field per goal serves any number of units. tn_field_build() computes, for every
/// cell, the cost of the cheapest path FROM that cell TO the nearest goal under a ::tn_moves
/// (the same rules and costs as the path searches: the step into cell c costs
/// `base * tn_map_cost(c) + extra[c]`), so a field and an A* search agree cell for cell.
/// Unreachable and blocked cells hold +INFINITY and have no direction.
///
/// Directions: ::tn_dir numbers the 8 neighbours clockwise on screen from "right"
/// (0 = +x, 1 = +x+y, 2 = +y (down), ... 7 = +x-y), so `dir * 45` is the heading in degrees of
/// a direction map (dirmap.h). The flow rule (::tn_flow_rule) picks, for each reachable non-goal
/// cell, one legal step; ties are broken first by the smaller distance of the neighbour, then
/// by the lower direction number.
///
/// Line of sight: with a single goal, a cell "sees" the goal when the straight segment between
/// the two cell centres touches no blocked cell, where touching a cell only at a grid corner is
/// judged by the corner rule of the moves (see tn_los_clear()). For those cells the continuous
/// flow vector points straight at the goal centre.
///
/// Ownership: the caller creates a field for a map (tn_field_create()); the field owns its
/// arrays (allocated once, at create) and keeps a pointer to the map and to the optional
/// extra-cost layer, which must outlive it. Several fields may share one map.
///
/// Memory: 13 bytes per cell (float distance, 1 byte direction/flags, 8 bytes of queue
/// scratch), allocated at create; plus O(max(W, H)) bytes of line-of-sight scratch and, with
/// terrain costs or an extra layer, the bucket queue (about the size of the wavefront), both
/// grown during a build when needed, never while reading. tn_field_memory_bytes() reports the
/// exact figure.
///
/// Staleness: after editing the map, call tn_field_update() before reading. Until then the
/// readers see the previous field (memory-safe; directions may point into new walls), and
/// tn_field_path() and tn_field_would_wall_off() return TN_E_MAP_CHANGED. A field on a size
/// map (tn_clearance_map()) sees an edit of the source map only through tn_clearance_update():
/// from the edit until that call, those two and tn_field_build()/tn_field_update() return
/// TN_E_MAP_CHANGED (the order is: edit, tn_clearance_update(), tn_field_update()).
///
/// Threads: building or updating writes the field only; any number of fields may be built at
/// once from different threads on one map as long as nobody edits the map meanwhile. Readers
/// (`const tn_field*`) may run concurrently with each other.
///
/// Errors: TN_E_INVALID_ARG (NULL, def without its cookie, unknown enum, bad extra layer),
/// TN_E_OUT_OF_MAP (a goal outside the map), TN_E_GOAL_BLOCKED, TN_E_NOMEM, TN_E_UNSUPPORTED
/// (line of sight with several goals), TN_E_STATE (query before the first build).
#ifndef TILENAV_FIELD_H
#define TILENAV_FIELD_H

#include "map.h"
#include "moves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_field tn_field;

/// How the per-cell direction is chosen.
typedef enum tn_flow_rule {
    /// The legal step (under the field's moves) that lies on a cheapest path: the neighbour n
    /// minimising dist[n] + cost of the step. Following it gives A*'s cost. (default)
    TN_FLOW_OPTIMAL = 0,
    /// The tutorial's rule: among the 8 neighbours a diagonal step may reach under the corner
    /// rule (a 4-connected field uses "no corner cutting" here), the one with the smallest
    /// distance. Smoother on 4-connected fields; always reaches the goal, but with terrain
    /// costs the cells it visits may cost more than the cheapest path.
    TN_FLOW_STEEPEST = 1,
} tn_flow_rule;

/// Which cells see the goal.
typedef enum tn_los_mode {
    TN_LOS_OFF = 0,    ///< no line of sight (default)
    TN_LOS_EXACT = 1,  ///< exactly the cells defined in tn_los_clear() (an exact shadow sweep)
    TN_LOS_SIMPLE = 2, ///< the HowToRTS rule, computed in the same sweep as the distances;
                       ///< misses some cells that do see the goal (kept for comparison)
} tn_los_mode;

/// Definition of a field. Get one from tn_field_def_default() and change the fields.
typedef struct tn_field_def {
    const tn_map *map;      ///< the map (required; must outlive the field)
    tn_moves moves;         ///< movement rules (zeroed: 8-connected, no corner cutting)
    tn_flow_rule flow;      ///< default TN_FLOW_OPTIMAL
    tn_los_mode los;        ///< default TN_LOS_OFF
    const float *extra;     ///< optional extra cost per cell (W*H, 0..TN_MAX_COST), or NULL;
                            ///< read at build/update time, must outlive the field
    tn_allocator allocator; ///< zeroed = malloc/free
    /// Optional parallel loop (::tn_parallel_for). NULL (default): everything runs in the
    /// calling thread. Builds and updates then split the flow rows and the eight line-of-sight
    /// octants; the distances stay sequential. The allocator may then be called from those
    /// threads (malloc/free may). Results are identical either way.
    tn_parallel_for parallel_for;
    void *parallel_user;      ///< passed to parallel_for
    uint32_t internal_cookie; ///< set by tn_field_def_default(); do not touch
} tn_field_def;

/// A definition with its defaults (map NULL: set it).
TN_API tn_field_def tn_field_def_default(void);

/// Create a field sized for `def->map`. Allocates every array once. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_field_create(const tn_field_def *def, tn_field **out);

/// Destroy a field. NULL is a no-op.
TN_API void tn_field_destroy(tn_field *field);

/// Bytes of memory the field holds (struct, arrays, line-of-sight scratch).
TN_API size_t tn_field_memory_bytes(const tn_field *field);

/// Compute distances, flow and line of sight towards `goals` (1..8*W*H cells; duplicates
/// allowed) from scratch. Remembers the map revision for tn_field_update().
/// @return TN_OK; TN_E_INVALID_ARG (count < 1, NULL, bad extra layer), TN_E_OUT_OF_MAP,
///         TN_E_GOAL_BLOCKED, TN_E_UNSUPPORTED (line of sight with more than one goal),
///         TN_E_MAP_CHANGED (a size map whose clearance is behind its source map).
TN_API TN_NODISCARD tn_status tn_field_build(tn_field *field, const tn_cell *goals, int32_t count);

/// Bring the field up to date after map edits (gids, terrain) since the last build/update, as
/// the map's change log lists them (each edit's rectangle on its own), plus `extra_changed`
/// (cells whose extra cost changed; NULL when none). Only the affected cells are recomputed;
/// the result is identical to a full tn_field_build() with the same goals. Falls back to a full
/// build when the change log is too old or the changed rectangles hold more than a quarter of
/// the map. `out_touched` (may be NULL) receives how many cells had their distance recomputed.
/// @return TN_OK; TN_E_STATE (never built); TN_E_GOAL_BLOCKED (a goal is now blocked: the
///         field is left empty, build again with other goals); TN_E_MAP_CHANGED (a size map
///         whose clearance is behind its source map: call tn_clearance_update() first; the
///         field is left as it was).
TN_API TN_NODISCARD tn_status tn_field_update(tn_field *field, const tn_rect *extra_changed,
                                              int32_t *out_touched);

/// @name Reading the field
/// @{
/// Width of the field in cells (the map's at create); 0 for NULL.
TN_API int32_t tn_field_width(const tn_field *field);
/// Height of the field in cells; 0 for NULL.
TN_API int32_t tn_field_height(const tn_field *field);
/// True once a build succeeded (and no update failed since).
TN_API bool tn_field_ready(const tn_field *field);
/// Distances, row-major, W*H floats: cost to the nearest goal, +INFINITY when unreachable or
/// blocked. Valid until the next build/update.
TN_API const float *tn_field_distances(const tn_field *field);
/// Distance of one cell; +INFINITY outside the map, unreachable or blocked.
TN_API float tn_field_distance(const tn_field *field, int32_t x, int32_t y);
/// Direction of one cell (0..7), or TN_DIR_NONE.
TN_API int32_t tn_field_dir(const tn_field *field, int32_t x, int32_t y);
/// Does the cell see the goal (false when line of sight is off, or outside the map)?
TN_API bool tn_field_los(const tn_field *field, int32_t x, int32_t y);
/// Continuous direction of a cell: towards the goal centre for cells that see it, otherwise
/// the unit vector of its 8-way direction; (0, 0) without a direction. Screen axes (y down).
TN_API tn_vec2 tn_field_vector(const tn_field *field, int32_t x, int32_t y);
/// Number of reachable cells (goals included).
TN_API int32_t tn_field_reachable_count(const tn_field *field);
/// Number of cells that see the goal (goal included; 0 when line of sight is off).
TN_API int32_t tn_field_los_count(const tn_field *field);
/// @}

/// Smooth direction at a pixel position (the tutorial's method): the cell vectors at the four
/// surrounding cell centres blended bilinearly (cells without a direction count as zero), then
/// normalised. Guarantee, for the corner rules TN_DIAGONAL_NO_CUT and TN_DIAGONAL_NEVER: if the
/// result d has d.x > 0 the cell right of the position's cell is passable (likewise left, up,
/// down), and if both components are non-zero the diagonal neighbour in that quadrant is
/// passable too; so an agent moving along d leaves its cell only into passable cells.
/// Returns (0, 0) on a blocked or unreachable cell, outside the map, or at a goal centre; inside
/// a goal cell it points at the goal centre.
TN_API tn_vec2 tn_field_sample(const tn_field *field, float px, float py);

/// Follow the 8-way directions from `start` to a goal. Writes the cells (start and goal
/// included) to `out` (up to `cap`), sets `*len` to the number of cells of the whole path and
/// `*cost` (may be NULL) to its cost. With TN_FLOW_OPTIMAL the cost equals the distance of
/// `start`, i.e. A*'s.
/// @return TN_OK; TN_NO_PATH (start unreachable or blocked; *len = 0; also when the
///         directions stop short of a goal, which only costs 2^24 times apart or a path past
///         2^24 steps can cause: see docs/field.md, "Limits");
///         TN_E_BUFFER_TOO_SMALL (*len = length needed); TN_E_OUT_OF_MAP; TN_E_STATE;
///         TN_E_MAP_CHANGED (the map was edited since the last build/update: update first).
TN_API TN_NODISCARD tn_status tn_field_path(const tn_field *field, tn_cell start, tn_cell *out,
                                            int32_t cap, int32_t *len, double *cost);

/// Would blocking `cells` cut some spawn off from every goal? Answers on the current map
/// without changing it: a best-first search from each spawn guided by the field's distances,
/// over passable cells minus `cells`, that stops at the first goal (or at a cell an earlier
/// spawn already reached). `*cut` is true when some spawn could no longer reach a goal
/// (also when a spawn or a goal is among `cells`, or a spawn is unreachable already).
/// The field must be up to date with the map (build or update first).
/// @return TN_OK; TN_E_INVALID_ARG; TN_E_OUT_OF_MAP (a spawn outside); TN_E_STATE;
///         TN_E_MAP_CHANGED (the map was edited since the last build/update).
TN_API TN_NODISCARD tn_status tn_field_would_wall_off(tn_field *field, const tn_cell *cells,
                                                      int32_t ncells, const tn_cell *spawns,
                                                      int32_t nspawns, bool *cut);

/// Exact line of sight between two cells: true when both are passable and the segment between
/// their centres meets no blocked cell, where a blocked cell counts when the segment passes
/// through its interior, and a grid corner the segment passes exactly through (going from one
/// cell to the diagonally opposite one) is allowed when `corner` allows a diagonal step between
/// the two other cells at that corner (TN_DIAGONAL_NEVER is treated as TN_DIAGONAL_NO_CUT).
/// A supercover walk: O(|dx| + |dy|). False for cells outside the map.
TN_API bool tn_los_clear(const tn_map *map, tn_cell a, tn_cell b, tn_diagonal corner);

#ifdef __cplusplus
}
#endif

#endif
