/// @file hierarchy.h
/// @brief Hierarchical path search (HPA*): sectors, portals on their borders and an abstract
/// graph, so that a long path is found by searching a few thousand portals instead of the
/// whole grid, then refined only in the sectors on the route.
///
/// Concept: a ::tn_hierarchy cuts a map into square sectors (`sector_size`, default 32; the
/// last row and column of sectors may be smaller). On the border between two side-adjacent
/// sectors, an *entrance* is a maximal run of cell pairs facing each other across the border
/// with both cells passable. Each entrance gets transition pairs (a cell on each side): one
/// in its middle when it is shorter than 6 cells, else its two end pairs (Botea et al.'s
/// rule), plus, with `portal_gap` > 0, pairs in between so that no two consecutive ones are
/// more than `portal_gap` apart. The abstract graph's nodes are those transition cells
/// (a cell shared by two borders is one node); its edges are
/// - intra-sector: between every two nodes of a sector, the exact cost of the cheapest path
///   that stays inside the sector (a small Dijkstra per node, inside the sector);
/// - inter-sector: the straight step between two nodes facing each other across a border.
///
/// Queries (tn_hierarchy_path(), with a caller-owned ::tn_hierarchy_ctx): the start and goal
/// are connected to the nodes of their sectors by one Dijkstra each inside their sector (the
/// start's also reaches the goal directly when both share a sector), the abstract graph is
/// searched by A* with the octile heuristic (optionally weighted, or sharpened by landmarks),
/// then each abstract edge is refined into cells by a search inside its one sector (or, with
/// corridor smoothing, windows of a few sectors of the route at a time). Same rules and costs as
/// ::tn_search: 8 neighbours without corner cutting (TN_DIAGONAL_NO_CUT) or 4 (TN_DIAGONAL_NEVER),
/// either ::tn_step_costs, entering cell c costs `base * tn_map_cost(c)`. Other diagonal rules are
/// refused (TN_E_UNSUPPORTED): a portal is a side step, and a corner-cutting diagonal step across a
/// border has no side step to stand for it.
///
/// Modes and bounds:
/// - TN_HIERARCHY_FAST returns a legal path costing at most the abstract route. Bound: let
///   an optimal path cross sector borders in K steps (a step whose two cells lie in different
///   sectors), let D be the largest distance from a pair of an entrance to its nearest
///   transition pair (at most (sector_size - 1) / 2 rounded down, or portal_gap / 2 with a
///   gap; 2 for sectors of 4 without a gap, whose 4-cell entrances have one pair, in the
///   middle), and cmax the largest cell cost of the map (1 on a uniform map).
///   Then cost <= optimum + K * (1 + 4 * D) * straight * cmax, where straight is the straight
///   step's base cost. (Each crossing step can be replaced by side steps along the entrance
///   to its nearest transition pair, across, and back: 2 * D steps per side crossing, two
///   side crossings and one extra step for a diagonal through a sector corner.) With a
///   context weight w > 1 the bound is w times the right-hand side. It is an
///   additive bound per crossing: docs/hierarchy.md reports the measured suboptimality on
///   every shipped Moving AI scenario (mean and max), and `tilenav bench --algo hpa` checks
///   each query against this bound with the K of JPS's optimal path.
/// - TN_HIERARCHY_EXACT returns an optimal path. It runs the fast query, and when its cost
///   equals the octile lower bound (the straight line is free) that path is proven optimal
///   and returned; otherwise it runs an exact search on the whole grid (TN_ALGO_JPS with
///   `jps_fallback`: JPS, weighted on costed maps, or A* where JPS does not apply, e.g. 4
///   neighbours) in the context's own ::tn_search. So exact mode costs a fast query
///   plus, when the proof fails, a JPS / A* query: it is never faster than JPS alone, and
///   is there so that one call gives either answer (tn_hierarchy_result::proven says which).
///
/// Units bigger than a cell: build the hierarchy on a size map (tn_clearance_map(cl, n),
/// clearance.h), where an n x n unit is a one-cell unit; everything here is then size-aware
/// and tn_hierarchy_update() follows the size map's change log: update the clearance first.
/// From an edit of the source map until tn_clearance_update(), tn_hierarchy_current() is
/// false, tn_hierarchy_update() returns TN_E_MAP_CHANGED and queries TN_E_MAP_CHANGED.
///
/// Cost: a build reads every border once and runs, per sector, one Dijkstra per node over
/// the sector's cells (about sector_size^2 * nodes per sector on maps of uniform cost, a
/// bucket queue; times log on maps with costs: linear in the cells for a fixed sector size).
/// tn_hierarchy_update() reads the map's change log and, in the sectors that the changed
/// rectangle, grown by one cell, overlaps, finds the nodes again and recomputes only the
/// matrix pairs the change may have altered (a sector whose cells and nodes did not change is
/// left alone), or rebuilds everything when the log no longer reaches back or the costs
/// became (or stopped being) uniform; the result equals a fresh build bit for bit.
/// Memory: per sector its nodes, a nodes x nodes matrix of float costs and the pruned edge
/// lists (10 bytes per matrix entry in all), plus 4 * K bytes per node with K landmarks, 20
/// bytes per node of part labels and about 40 * sector_size^2 bytes of build scratch; per
/// context, about 205 bytes per abstract node and 30 per intra-sector edge left after pruning
/// (fewer than tn_hierarchy_stats::intra_edges, which counts every finite pair; a 44-byte
/// record per node, and an open list of 24-byte entries sized for one push per edge plus five
/// per node, each with a quarter to spare; tn_hierarchy_ctx_memory_bytes() gives the sum),
/// a few sector-sized scratch areas, the corridor's windows when enabled and, once
/// an exact query needs it, a ::tn_search for the map (about 25 bytes per cell: its 16, the
/// JPS open list's keys and bitsets; about 480 MB on 4096 x 4096).
///
/// Unreachable goals: every node carries a label of its connected part of the abstract graph.
/// A query whose start reaches (inside its sector) only nodes of other parts than the nodes
/// that reach the goal returns TN_NO_PATH before any abstract search (expanded = 0), in
/// microseconds on any map size, where a search would first empty the start's whole part.
/// A build labels the parts exactly. tn_hierarchy_update() keeps every join at once (an edit
/// that opens a way between two parts), but an edit that splits a part leaves both halves
/// one label: queries across that split search, and find no path, as they would without
/// labels, until tn_hierarchy_refresh_landmarks() labels the parts exactly again (or an
/// update does, when its labels run out: on a 4096 x 4096 map of 179k nodes, 10 ms about once
/// per 150,000 updates). The labels cost 20 bytes per node; tn_hierarchy_stats::parts counts
/// the parts.
///
/// Threads: a built hierarchy is read-only for queries: any number of threads may query it
/// at once, each with its own ::tn_hierarchy_ctx; tn_hierarchy_update() and
/// tn_hierarchy_refresh_landmarks() must not run while anyone queries. Nothing here has
/// global state; results are deterministic (the same cells from any thread, tested).
///
/// Errors: TN_E_INVALID_ARG (NULL, no cookie, bad sizes or enums, half an allocator),
/// TN_E_UNSUPPORTED (a diagonal rule other than NO_CUT and NEVER), TN_E_NOMEM,
/// TN_E_OUT_OF_MAP, TN_E_START_BLOCKED, TN_E_GOAL_BLOCKED, TN_E_MAP_CHANGED (the map was
/// edited since the build or last update), TN_E_BUFFER_TOO_SMALL (the needed length is in
/// tn_hierarchy_result::length). Successes: TN_OK, TN_NO_PATH.
#ifndef TILENAV_HIERARCHY_H
#define TILENAV_HIERARCHY_H

#include "map.h"
#include "moves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_hierarchy tn_hierarchy;
typedef struct tn_hierarchy_ctx tn_hierarchy_ctx;

/// Definition of a hierarchy. Get one from tn_hierarchy_def_default() and set `map`.
typedef struct tn_hierarchy_def {
    const tn_map *map;        ///< required; must outlive the hierarchy
    tn_moves moves;           ///< NO_CUT (default) or NEVER; either step costs
    int32_t sector_size;      ///< sector side in cells, 4..256 (default 32)
    int32_t portal_gap;       ///< largest gap between transition pairs of an entrance, 0 =
                              ///< the two ends only (default), else 1..sector_size
    int32_t landmarks;        ///< landmarks of the abstract search's heuristic, 0..16
                              ///< (default 0; see tn_hierarchy_refresh_landmarks())
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_hierarchy_def_default(); do not touch
} tn_hierarchy_def;

/// A definition with its defaults (map NULL: set it; 32 x 32 sectors; 8 neighbours, no
/// corner cutting, exact costs; transition pairs at the ends of each entrance).
TN_API tn_hierarchy_def tn_hierarchy_def_default(void);
/// Build the hierarchy of `def->map`'s current revision. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG, TN_E_UNSUPPORTED, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_hierarchy_build(const tn_hierarchy_def *def, tn_hierarchy **out);
/// Destroy (NULL is a no-op).
TN_API void tn_hierarchy_destroy(tn_hierarchy *h);
/// Bytes held: what the hierarchy asked its allocator for. The allocator's own overhead per
/// block is not in it; each sector holds a few blocks, so with very small sectors it shows
/// (sectors of 4 on 4096 x 4096, a million of them: 302 MB reported, 404 MB of resident memory
/// with glibc's malloc; with sectors of 32 the two agree within a few percent).
TN_API size_t tn_hierarchy_memory_bytes(const tn_hierarchy *h);
/// Bring the hierarchy up to date with the map (nothing to do when it has not changed).
/// `*sectors` (may be NULL) receives the number of sectors whose nodes or costs changed.
/// @return TN_E_INVALID_ARG, TN_E_NOMEM (the hierarchy is then empty until a later update
///         succeeds: queries return TN_E_MAP_CHANGED), TN_E_MAP_CHANGED (built on a size map
///         whose clearance is behind its source map: call tn_clearance_update() first).
TN_API TN_NODISCARD tn_status tn_hierarchy_update(tn_hierarchy *h, int32_t *sectors);
/// Recompute the landmarks' costs (K Dijkstras on the abstract graph, K = the definition's
/// `landmarks`). A build does it; an update that changes a sector makes them stale, and
/// queries then use the octile heuristic alone (same paths' bound, more nodes expanded) until
/// this is called. It also labels the graph's connected parts exactly again ("Unreachable
/// goals" above), with any K. Not thread-safe against queries, like tn_hierarchy_update().
/// @return TN_E_INVALID_ARG, TN_E_MAP_CHANGED (update first), TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_hierarchy_refresh_landmarks(tn_hierarchy *h);
/// Does the hierarchy describe the map's current revision?
TN_API bool tn_hierarchy_current(const tn_hierarchy *h);

/// Size of the abstract graph.
typedef struct tn_hierarchy_stats {
    int32_t sectors_x, sectors_y; ///< sectors per row and per column
    int32_t nodes;                ///< transition cells
    int64_t intra_edges;          ///< finite intra-sector edges (ordered pairs)
    int64_t inter_edges;          ///< inter-sector steps (ordered pairs)
    int64_t sectors_rebuilt;      ///< changed by updates since the build (nodes or costs)
    int32_t landmarks;            ///< landmarks of the definition
    bool landmarks_current;       ///< computed on the current abstract graph
    /// connected parts of the abstract graph, or -1 after an update that may have split one
    /// (they are counted again by tn_hierarchy_refresh_landmarks(); see "Unreachable goals")
    int32_t parts;
} tn_hierarchy_stats;
/// Fill `*out` (zeroed for a NULL hierarchy).
TN_API void tn_hierarchy_stats_get(const tn_hierarchy *h, tn_hierarchy_stats *out);
/// A 64-bit hash of the abstract graph (every sector's nodes and intra-sector costs): a
/// hierarchy brought up to date by updates hashes like one built afresh on the same map.
TN_API uint64_t tn_hierarchy_hash(const tn_hierarchy *h);

/// Definition of a query context. Get one from tn_hierarchy_ctx_def_default().
typedef struct tn_hierarchy_ctx_def {
    /// heuristic weight of the abstract search, >= 1 (0 means 1, the default). Above 1 the
    /// search expands fewer nodes and the bound of fast mode becomes
    /// cost <= weight * (optimum + K * (1 + 4 * D) * straight * cmax) (file comment).
    float weight;
    /// corridor smoothing, 0 (off, the default) or 2..64: the abstract route is refined by
    /// A* over the cells of up to `corridor` consecutive sectors of the route at a time
    /// instead of edge by edge (costs at most as much: each window holds the edge-by-edge
    /// refinement; removes most detours through transition cells, at the price of larger
    /// searches: docs/hierarchy.md). Memory: corridor * sector_size^2 * 32 bytes.
    int32_t corridor;
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_hierarchy_ctx_def_default(); do not touch
} tn_hierarchy_ctx_def;
/// A definition with its defaults (weight 1: abstract routes optimal; malloc/free).
TN_API tn_hierarchy_ctx_def tn_hierarchy_ctx_def_default(void);
/// Create a query context. It sizes itself at the first query on a larger hierarchy (that
/// query allocates; later ones do not), or up front with tn_hierarchy_ctx_reserve().
/// @return TN_E_INVALID_ARG, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_hierarchy_ctx_create(const tn_hierarchy_ctx_def *def,
                                                      tn_hierarchy_ctx **out);
/// Destroy (NULL is a no-op).
TN_API void tn_hierarchy_ctx_destroy(tn_hierarchy_ctx *ctx);
/// Bytes held.
TN_API size_t tn_hierarchy_ctx_memory_bytes(const tn_hierarchy_ctx *ctx);
/// Size the context for queries on `h` (fast mode; `exact`: also the exact fallback's search
/// context for h's map), so that no later query on it allocates. It only sizes: an `h` behind
/// map edits is accepted here (its queries then return TN_E_MAP_CHANGED); one whose last build
/// or update failed gives TN_E_MAP_CHANGED.
TN_API TN_NODISCARD tn_status tn_hierarchy_ctx_reserve(tn_hierarchy_ctx *ctx, const tn_hierarchy *h,
                                                       bool exact);

/// Query mode.
typedef enum tn_hierarchy_mode {
    TN_HIERARCHY_FAST = 0, ///< the abstract route, refined (bounded suboptimality)
    TN_HIERARCHY_EXACT,    ///< an optimal path (see the file comment for what it costs)
} tn_hierarchy_mode;

/// Outcome of a query besides the cells.
typedef struct tn_hierarchy_result {
    int32_t length;   ///< cells in the path (start and goal included), or the needed length
    double cost;      ///< cost of the returned path (0 when none)
    int64_t expanded; ///< abstract nodes taken off the open list (plus the exact search's)
    int32_t refined;  ///< sector searches run to refine the route
    bool proven;      ///< exact mode: the fast path was proven optimal (no grid search ran)
} tn_hierarchy_result;

/// A path from `start` to `goal` on the hierarchy's map.
/// @param[out] out  receives the cells, start first; may be NULL when cap is 0
/// @param[out] res  may be NULL
/// @return TN_OK, TN_NO_PATH, or an error (file comment).
TN_API TN_NODISCARD tn_status tn_hierarchy_path(tn_hierarchy_ctx *ctx, const tn_hierarchy *h,
                                                tn_cell start, tn_cell goal, tn_hierarchy_mode mode,
                                                tn_cell *out, int32_t cap,
                                                tn_hierarchy_result *res);

/// The additive suboptimality bound of fast mode per crossing step,
/// (1 + 4 * D) * straight * cmax (file comment), for the hierarchy's map as it is now.
TN_API double tn_hierarchy_crossing_bound(const tn_hierarchy *h);
/// The sector (row-major index) a cell belongs to, or -1 outside the map.
TN_API int32_t tn_hierarchy_sector_of(const tn_hierarchy *h, tn_cell c);

#ifdef __cplusplus
}
#endif

#endif
