/// @file goal_bounds.h
/// @brief Goal bounding: for every cell and each of its 8 moves, the bounding box of the cells
/// that a canonical shortest path starting with that move can end at. JPS and JPS+ queries given
/// these bounds (::tn_query::goal_bounds) skip every move whose box does not hold the goal, so they
/// expand only nodes that head towards it.
///
/// Concept: Rabin and Sturtevant's goal bounding ("Faster A* with Goal Bounding", Game AI Pro 3,
/// 2017), with the canonical Dijkstra of Sturtevant and Rabin (IJCAI 2016). A box holds every
/// cell t for which the move begins a *canonical* shortest path from the cell to t (the
/// diagonal-first paths JPS searches; ties included). Some shortest path between two cells is
/// always canonical and its suffixes are too, so pruning by the boxes never removes the path
/// JPS follows: queries stay optimal. JPS+ also reads the boxes of each node a jump lands
/// on: it drops the node when none of its moves can lead to the goal, and jumps on past it
/// when only the move it arrived by can. On Moving AI's den520d JPS+ expands 18 nodes per query
/// with the bounds instead of 95.
///
/// Cost: building runs one canonical Dijkstra search from every passable cell, about
/// 20 ns * P^2 for P passable cells (16 to 19 s for the 28,000 passable cells of den520d, on
/// one core of the machine in docs/BENCHMARKS.md): an offline step for maps that do not change,
/// done once and shared by every query. Memory: 64 bytes per cell (8 boxes of four 16-bit
/// coordinates). Limits: sides up to 32767, at most TN_GOAL_BOUNDS_MAX_PASSABLE passable cells.
///
/// Ownership and threads: the bounds are read-only once built; any number of threads may query
/// with one set of bounds, each with its own ::tn_search. They describe one map revision and
/// one set of movement rules: after an edit, queries return TN_E_MAP_CHANGED until they are
/// rebuilt; queries with other rules return TN_E_INVALID_ARG.
///
/// Errors: TN_E_INVALID_ARG (NULL map or out, invalid moves, half an allocator),
/// TN_E_UNSUPPORTED (a passable cell whose terrain cost is not 1, or 4-connected or
/// corner-cutting moves, which JPS does not use), TN_E_TOO_LARGE (a side past 32767 or more
/// than TN_GOAL_BOUNDS_MAX_PASSABLE passable cells), TN_E_NOMEM.
#ifndef TILENAV_GOAL_BOUNDS_H
#define TILENAV_GOAL_BOUNDS_H

#include "map.h"
#include "moves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_goal_bounds tn_goal_bounds;

/// Most passable cells a map may have for tn_goal_bounds_build(): the build time grows with
/// their square (about 6 minutes at this limit).
#define TN_GOAL_BOUNDS_MAX_PASSABLE (1 << 17)

/// Definition of goal bounds. Get one from tn_goal_bounds_def_default() and set `map`.
typedef struct tn_goal_bounds_def {
    const tn_map *map;        ///< required: the bounds describe its current revision
    tn_moves moves;           ///< 8 neighbours without corner cutting (the default; the only
                              ///< corner rule JPS uses); exact (default) or 10/14 costs
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_goal_bounds_def_default(); do not touch
} tn_goal_bounds_def;
/// A definition with its defaults (map NULL: set it; no corner cutting, exact costs).
TN_API tn_goal_bounds_def tn_goal_bounds_def_default(void);
/// Build the bounds of `def->map` under `def->moves`.
/// @return TN_OK, or an error listed in the file comment; on error `*out` is NULL.
TN_API TN_NODISCARD tn_status tn_goal_bounds_build(const tn_goal_bounds_def *def,
                                                   tn_goal_bounds **out);

/// Destroy the bounds (NULL is a no-op).
TN_API void tn_goal_bounds_destroy(tn_goal_bounds *bounds);

/// Bytes held by the bounds.
TN_API size_t tn_goal_bounds_memory_bytes(const tn_goal_bounds *bounds);

/// Were the bounds built from this map at its current revision (the same identity check as the
/// JPS cache and jump tables: destroy the bounds together with their map)?
TN_API bool tn_goal_bounds_current(const tn_goal_bounds *bounds, const tn_map *map);

/// The box of the move in direction `dir` (a ::tn_dir, TN_DIR_E..TN_DIR_NE) at cell (x, y):
/// every cell a canonical shortest path starting with that move can end at lies in `*box`
/// ([x0, x1) x [y0, y1)). An empty box (no such cell: a blocked cell, a move that is not
/// allowed) is {0, 0, 0, 0}.
/// @return TN_OK, TN_E_INVALID_ARG (NULL or dir outside 0..7), TN_E_OUT_OF_MAP.
TN_API tn_status tn_goal_bounds_box(const tn_goal_bounds *bounds, int32_t x, int32_t y, tn_dir dir,
                                    tn_rect *box);

#ifdef __cplusplus
}
#endif

#endif
