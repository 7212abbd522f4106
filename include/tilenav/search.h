/// @file search.h
/// @brief Shortest paths on a tile map: A*, Dijkstra (nearest of many goals, full distance
/// maps) and Jump Point Search, one-shot or time-sliced, into caller buffers.
///
/// Concept: a ::tn_search is a reusable search context sized once for a largest map (a cell
/// count). It holds every per-cell array a query needs (16 bytes per cell: an 8-byte key, a
/// 4-byte state word and a 4-byte heap slot; the first JPS or JPS+ query adds 8 bytes per cell
/// for their open list's keys, and JPS its cache), so a query allocates nothing after those,
/// and it is reset in O(1) by a generation stamp (a full clear happens once every 2^28
/// queries). Queries read the map through `const tn_map*` and never write to it.
///
/// Rules: a query follows a ::tn_moves (4/8 neighbours, diagonal policy, 1/sqrt2 or 10/14
/// costs). Entering cell c costs `base * tn_map_cost(c) + extra[c]`. The default heuristic is
/// admissible and consistent for the chosen moves (octile for 8 neighbours, manhattan for 4,
/// both scaled by tn_map_min_cost()), so default paths are optimal.
///
/// Tie-breaking (deterministic, independent of addresses): nodes are expanded by smallest
/// f = g + w*h; nodes whose f is within a relative 1e-10 of the current f level go on a LIFO
/// stack, so among equal f the most recently generated (deepest) node comes first; the other
/// open nodes are ordered by f with h inflated by 2^-40 (so among equal f the smaller h comes
/// first); exact key ties in the heap fall in the order its operations leave them, which
/// depends only on the query and the map. Neighbours are
/// generated in a fixed order (E, W, S, N, SE, NE, SW, NW) and a node's parent changes only on
/// a strictly smaller f, so the same query on the same map always returns the same cells.
/// Paths are optimal up to that relative 1e-10; costs are recomputed from the returned cells:
/// on maps of uniform cost without an extra layer as diagonal steps * diagonal cost + straight
/// steps * straight cost, otherwise by adding the step costs from the start.
///
/// Jump Point Search (TN_ALGO_JPS) applies to 8-connected moves without corner cutting, one
/// goal and no `closest`, with no extra-cost layer, on any map: terrain costs included (any
/// heuristic, weight and step costs are fine). Its cost model is A*'s (entering cell c costs
/// `base * tn_map_cost(c)`), its paths are optimal like A*'s and their costs are recomputed
/// from the cells the same way. On maps whose costs are not all 1 it is weighted JPS: a
/// "cost-boundary" cell (a passable cell with a passable neighbour of another cost) is pruned
/// by comparing the actual step costs around it, it stops a jump when it adds a move or when
/// the terrain changes along the jump, and every cell a jump enters costs the same
/// (docs/search.md has the rule and the argument for its optimality). It is fast where the
/// terrain comes in patches (mud, roads, swamps) and degrades towards A* on per-cell noise.
/// Otherwise (other moves, an extra layer, several goals, `closest`)
/// the query returns TN_E_UNSUPPORTED, or, with `jps_fallback` set, runs A* instead (reported
/// in ::tn_search_result::algo). A JPS or JPS+ query whose path would cost 5e8 times the least
/// step or more (cost ratios of that order along a path: 1e20 next to 1) starts again as A*
/// whatever `jps_fallback` says, since doubles can then no longer tell its jump points apart
/// when the path is rebuilt; the result names A*, and its expansions count both. JPS keeps a cache
/// in the context: the map's passability as bitsets (by rows and by columns) and four jump-ahead
/// bits per cell (does a straight jump from here find a jump point before a wall), built on the
/// first JPS query of a map (0.75 to 1 byte per cell on top of the 16, reused afterwards; about 1
/// ms on a 512 x 512 map). After an edit it is updated from the map's change log: the edited cells
/// and the flags of the rows and 64-column words they touch (about 20 µs for a few cells on 1024 x
/// 1024); a map it was not built from, or edits past the log or over more than an eighth of the
/// map, build it afresh. It keeps those of the last four maps it searched (other maps, the size
/// maps of units bigger than a cell), so queries alternating between them do not rebuild them. On
/// weighted maps the cache also holds the cost boundaries, their stops and their moves (about 10
/// more bytes per cell; building it takes about 2 ms on den520d and 13 ms on a 512 x 512 map with a
/// fifth of it in mud patches; an edit updates the cells within 2 of the change). TN_ALGO_JPS_PLUS
/// has the same rules and reads a precomputed ::tn_jump_table instead (see below). Both first test
/// the two octile lines from the start to the goal (all diagonal steps first, then all straight
/// steps first): a free one whose cells all have the map's least cost is a shortest path and is
/// returned without a search (`expanded` = 1). Goal bounds cannot be built on weighted maps
/// (goal_bounds.h), so a weighted query given bounds of an earlier revision gets
/// TN_E_MAP_CHANGED like any stale bounds.
///
/// Threads: any number of threads may query one map at once, each with its own context; a
/// context must not be used by two threads at once. Nothing here has global state.
///
/// Errors: TN_E_INVALID_ARG (NULL, bad enum, non-finite or negative number), TN_E_TOO_LARGE
/// (the map has more cells than the context), TN_E_OUT_OF_MAP, TN_E_START_BLOCKED (or too
/// narrow for the unit's size), TN_E_GOAL_BLOCKED (every goal blocked or too narrow),
/// TN_E_UNSUPPORTED (JPS without fallback), TN_E_MAP_CHANGED (a jump table, clearance or
/// regions from another map revision, a size map whose source map was edited since its
/// clearance's update, or an edit between slices), TN_E_BUFFER_TOO_SMALL (the path is longer than
/// the caller's buffer; the needed length is in
/// ::tn_search_result::length). Successes: TN_OK, TN_NO_PATH, TN_PARTIAL (expansion budget
/// exhausted; the path leads to the expanded cell closest to the goal) and TN_CLOSEST (goal
/// unreachable, `closest` requested).
#ifndef TILENAV_SEARCH_H
#define TILENAV_SEARCH_H

#include "goal_bounds.h"
#include "map.h"
#include "moves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_search tn_search;
typedef struct tn_jump_table tn_jump_table;
/* regions.h and clearance.h (declared here without their typedefs: C99 and C++ builds must
 * not see a typedef twice) */
struct tn_regions;
struct tn_clearance;

/// Heuristic estimate of the remaining cost, in base step units times tn_map_min_cost().
typedef enum tn_heuristic {
    TN_HEURISTIC_AUTO = 0,  ///< octile with diagonals, manhattan without (admissible)
    TN_HEURISTIC_MANHATTAN, ///< dx + dy (inadmissible with diagonals)
    TN_HEURISTIC_EUCLIDEAN, ///< sqrt(dx^2 + dy^2)
    TN_HEURISTIC_OCTILE,    ///< max + (d - 1) * min, d = diagonal/straight cost (also called
                            ///< "diagonal")
    TN_HEURISTIC_CHEBYSHEV, ///< max(dx, dy)
    TN_HEURISTIC_ZERO,      ///< 0: Dijkstra
} tn_heuristic;

/// Search algorithm.
typedef enum tn_algo {
    TN_ALGO_ASTAR = 0, ///< A* (weighted when weight > 1)
    TN_ALGO_DIJKSTRA,  ///< uniform-cost search (heuristic and weight ignored)
    TN_ALGO_JPS,       ///< Jump Point Search (see the file comment for when it applies)
    TN_ALGO_JPS_PLUS,  ///< JPS over a precomputed ::tn_jump_table (`query->jump_table`)
} tn_algo;

/// Options of one query. Zero-initialised means: A*, 8 neighbours without corner cutting,
/// exact costs, the admissible default heuristic, weight 1, no extra layer, no budget.
typedef struct tn_query {
    tn_moves moves;
    tn_algo algo;
    tn_heuristic heuristic;
    double weight;        ///< h multiplier, >= 1 (0 means 1); > 1 trades optimality for speed
    const float *extra;   ///< W*H extra costs added on entering a cell (0..TN_MAX_COST), or NULL
    bool jps_fallback;    ///< JPS not applicable: run A* instead of returning TN_E_UNSUPPORTED
    bool closest;         ///< goal unreachable, blocked or off the map: path to the closest cell
    double closest_bound; ///< with `closest`: never expand past this g (0 = no bound)
    /// one-shot budget (0 = none), counting every expansion (JPS's of the start too), so a
    /// TN_PARTIAL result reports `expanded` = max_expansions
    int64_t max_expansions;
    const tn_jump_table *jump_table; ///< for TN_ALGO_JPS_PLUS: built from this map revision
    /// optional, for TN_ALGO_JPS and TN_ALGO_JPS_PLUS (ignored by the others): skip the moves
    /// whose box does not hold the goal (goal_bounds.h); built from this map revision with
    /// these moves
    const tn_goal_bounds *goal_bounds;
    /// optional (regions.h, built on this map with the query's size class, current with the
    /// map, for a rule at least as permissive as `moves.diagonal`): when no goal lies in the
    /// start's region the query returns TN_NO_PATH at once, expanding nothing. With `closest`
    /// (and no `closest_bound`, and regions built for TN_DIAGONAL_ALWAYS exactly when the
    /// query is), it finds the cells of the start's region closest to the goals by scanning
    /// rings around them, and searches for the cheapest of those (up to 64 equally close
    /// ones) instead of emptying the start's region: TN_CLOSEST with the cost the search
    /// without regions finds. When the rings would pass 16,384 cells (goals far from the
    /// region) it empties the region as without regions.
    const struct tn_regions *regions;
    /// the unit's size in cells (a size x size square; 0 or 1: one cell). Above 1 the query
    /// needs `clearance`, built for this map with max_size >= size and size maps, current
    /// with the map: it searches the size's map (tn_clearance_map()), so start, goals and the
    /// returned cells are the unit's top-left cells, every step keeps the whole footprint on
    /// passable cells under `moves`, and entering a cell costs the largest cost under the
    /// footprint. `jump_table` and `goal_bounds` must then be built on that size map, and
    /// `regions` (built on this map) must have the size class.
    int32_t size;
    const struct tn_clearance *clearance; ///< for `size` > 1 (clearance.h)
} tn_query;

/// Outcome of a query besides the cells.
typedef struct tn_search_result {
    int32_t length;   ///< cells in the path (start and end included), or needed buffer length
    double cost;      ///< cost of the returned path under the query's rules (0 when none)
    int64_t expanded; ///< nodes taken off the open list
    tn_cell end;      ///< the last cell of the path (goal, closest cell, or best partial)
    int32_t goal;     ///< index in the goal array of the goal reached, or -1
    /// the algorithm that ran, after JPS's fallback to A*; when no search ran (the regions
    /// answered, a blocked start or goal, a refused query) the one that would have run, or
    /// the query's own algo when it was refused before that was known
    tn_algo algo;
} tn_search_result;

/// Definition of a search context. Get one from tn_search_def_default().
typedef struct tn_search_def {
    /// Largest W*H this context can search, 1..TN_MAX_CELLS; or 0 (the default): the context
    /// sizes itself by the map, growing its arrays (16 bytes per cell) at the set-up of the
    /// first query on a larger map, so only that query allocates. Set a limit to bound memory:
    /// a larger map then gives TN_E_TOO_LARGE.
    int32_t max_cells;
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_search_def_default(); do not touch
} tn_search_def;

/// A definition with its defaults (max_cells 0: sized by the maps it meets; malloc/free).
TN_API tn_search_def tn_search_def_default(void);

/// Create a context. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG (max_cells < 0), TN_E_TOO_LARGE (max_cells past TN_MAX_CELLS),
///         TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_search_create(const tn_search_def *def, tn_search **out);

/// Destroy a context (NULL is a no-op).
TN_API void tn_search_destroy(tn_search *search);

/// Bytes held by the context (16 per cell; plus, once a JPS or JPS+ query ran, 8 per cell for
/// their open list and the JPS cache).
TN_API size_t tn_search_memory_bytes(const tn_search *search);

/// What a context caches about a map (JPS's passability bitsets) is keyed by a fingerprint of
/// the map: its size, revision and a 64-bit hash of every cell's passability that the map keeps
/// up to date (and its address). The cache depends on passability alone, so a map destroyed and
/// another created in its place match only when their passability is the same, up to a 64-bit
/// hash collision: there is nothing to forget.

/// Cells the context can search without allocating: its max_cells, or for a growing context
/// the largest map it has met so far (0 before the first query).
TN_API int32_t tn_search_max_cells(const tn_search *search);

/// One-shot path from `start` to `goal`.
/// @param query      the rules; NULL means a zeroed ::tn_query (A*, 8 neighbours without
///                   corner cutting, costs 1 and sqrt 2, the octile heuristic)
/// @param[out] out   receives the cells, start first; may be NULL when cap is 0. Entries past
///                   the returned length are scratch (a JPS query may have written there).
/// @param cap        capacity of `out` in cells
/// @param[out] res   details; may be NULL. On TN_E_BUFFER_TOO_SMALL res->length is the need.
/// @return TN_OK, TN_NO_PATH, TN_PARTIAL, TN_CLOSEST or an error (see the file comment).
TN_API TN_NODISCARD tn_status tn_search_path(tn_search *search, const tn_map *map, tn_cell start,
                                             tn_cell goal, const tn_query *query, tn_cell *out,
                                             int32_t cap, tn_search_result *res);

/// Why the last query begun on this context (tn_search_path, _multi, tn_search_begin,
/// tn_search_distances) was refused before it searched: a sentence naming the field and the rule it
/// broke (e.g. "query.size is above the clearance's max_size", "query.regions are older than the
/// map: call tn_regions_update()"), for TN_E_INVALID_ARG, TN_E_MAP_CHANGED and TN_E_UNSUPPORTED
/// from the query's set-up. "" after a query that was not refused, for other failures (blocked or
/// outside cells say so in their status), and for NULL. The string is static: never free it.
TN_API const char *tn_search_error_detail(const tn_search *search);

/// One-shot path to the cheapest of several goals (ties: the goal found first). Blocked or
/// outside goals are skipped; TN_E_GOAL_BLOCKED when all are blocked, TN_E_OUT_OF_MAP when
/// all are outside. With more than 64 goals A* uses the zero heuristic.
TN_API TN_NODISCARD tn_status tn_search_path_multi(tn_search *search, const tn_map *map,
                                                   tn_cell start, const tn_cell *goals,
                                                   int32_t goal_count, const tn_query *query,
                                                   tn_cell *out, int32_t cap,
                                                   tn_search_result *res);

/// @name Time-sliced queries
/// A query split over several calls (e.g. a few hundred expansions per frame). The context
/// keeps a pointer to the map and to `query->extra`: both must stay alive and unchanged until
/// the query ends; a map edit in between makes the next step return TN_E_MAP_CHANGED. The
/// goals are copied: their array may change or go out of scope once tn_search_begin()
/// returns (the copy grows, allocating, when a query has more goals than any before on this
/// context; TN_E_NOMEM if it cannot).
/// The final path, cost and expansion count equal those of the one-shot query.
/// @{
/// Start a query (same arguments as tn_search_path_multi). Returns TN_IN_PROGRESS; TN_NO_PATH
/// when `query->regions` already shows every goal unreachable (the query is then finished, as
/// after a last step); or an error (then no query is running). `query->max_expansions` is
/// ignored here.
TN_API TN_NODISCARD tn_status tn_search_begin(tn_search *search, const tn_map *map, tn_cell start,
                                              const tn_cell *goals, int32_t goal_count,
                                              const tn_query *query);
/// Run at most `max_expansions` (>= 1) expansions. Returns TN_IN_PROGRESS while unfinished,
/// then the final status (TN_OK, TN_NO_PATH, TN_CLOSEST; again at every call after the query
/// finished, one-shot queries included), TN_E_MAP_CHANGED when the map was edited since
/// begin, TN_E_STATE when no query was begun on the context.
TN_API TN_NODISCARD tn_status tn_search_step(tn_search *search, int64_t max_expansions);
/// Status of the current query without advancing it (TN_E_STATE when none was begun).
TN_API tn_status tn_search_poll(const tn_search *search);
/// Copy the result of a finished query (any status from tn_search_step()). While the query is
/// in progress: TN_IN_PROGRESS and the best partial path so far.
TN_API TN_NODISCARD tn_status tn_search_get_path(tn_search *search, tn_cell *out, int32_t cap,
                                                 tn_search_result *res);
/// Abandon the current query (no-op when none runs). The context is ready for a new one.
TN_API void tn_search_cancel(tn_search *search);
/// @}

/// @name Batches
/// Many queries in one call, spread over the caller's threads.
/// @{
/// One query of a batch and what became of it.
typedef struct tn_batch_item {
    tn_cell start, goal;     ///< in: the query (one goal)
    tn_status status;        ///< out: what tn_search_path() returned for it
    tn_search_result result; ///< out: its details
} tn_batch_item;

/// Run `count` queries with the same options. Query i writes its cells to
/// `paths + i * path_cap` (a path longer than `path_cap` gives TN_E_BUFFER_TOO_SMALL in its
/// item, with the length needed) and its status and result to `items[i]`. With
/// `parallel_for` the contexts run at once: it is called once with count `ncontexts`, each
/// index of its ranges being one context, which takes the next query no context has taken yet
/// (an atomic counter) until none is left; so a context is never used by two threads at once
/// and the load balances itself. Without it (NULL) one context runs them all in the calling
/// thread.
/// Results are the same whatever the number of contexts or threads: every query's cells, cost
/// and expansion count equal those of tn_search_path() on a fresh context.
/// @return TN_OK when the batch ran (each item has its own status, errors included);
///         TN_E_INVALID_ARG (NULL, ncontexts below 1, count below 0, a NULL context, paths NULL
///         with path_cap > 0, path_cap * count past the address space).
TN_API TN_NODISCARD tn_status tn_search_batch(tn_search *const *contexts, int32_t ncontexts,
                                              const tn_map *map, const tn_query *query,
                                              tn_batch_item *items, int32_t count, tn_cell *paths,
                                              int32_t path_cap, tn_parallel_for parallel_for,
                                              void *parallel_user);
/// @}

/// @name Dijkstra distance maps
/// @{
/// Cost from the nearest source to every cell (or, with `reverse`, from every cell to the
/// nearest source: the two differ when costs depend on the entered cell). Unreachable and
/// blocked cells get +INFINITY. Blocked or outside sources are skipped (all outside:
/// TN_E_OUT_OF_MAP; none of them open: TN_E_START_BLOCKED). `dist` must hold W*H doubles (`cap` =
/// its length). Without an extra layer, 8 neighbours without corner cutting and 4 neighbours run a
/// written-out loop, and 4 neighbours on a map of uniform cost a breadth-first pass (no priority
/// queue: about 10x faster); every distance is the same double as the general loop's (tested).
/// `moves` NULL means zeroed moves (8 neighbours without corner cutting, costs 1 and sqrt 2).
/// Refusals name their reason in tn_search_error_detail().
TN_API TN_NODISCARD tn_status tn_search_distances(tn_search *search, const tn_map *map,
                                                  const tn_cell *sources, int32_t source_count,
                                                  const tn_moves *moves, const float *extra,
                                                  bool reverse, double *dist, int32_t cap);
/// @}

/// @name Precomputed jump tables (JPS+)
/// For each cell and each of the 8 directions, the distance to the next jump point or to the
/// wall, under the same rules as TN_ALGO_JPS, and which sides have forced neighbours. Queries
/// with TN_ALGO_JPS_PLUS then jump by table look-ups instead of scanning. A table is read-only once
/// built: any number of threads may use one table (and one map) at once, each with its own
/// ::tn_search. It describes one map revision; after an edit, queries return TN_E_MAP_CHANGED until
/// it is rebuilt. Memory: 17 bytes per cell (27 on weighted maps). Maps up to 32767 cells wide
/// and high.
/// @{
/// Definition of a jump table. Get one from tn_jump_table_def_default() and set `map`.
typedef struct tn_jump_table_def {
    const tn_map *map;        ///< required: the table describes its current revision
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_jump_table_def_default(); do not touch
} tn_jump_table_def;
/// A definition with its defaults (map NULL: set it; malloc/free).
TN_API tn_jump_table_def tn_jump_table_def_default(void);
/// Build the table of `def->map` (any costs: on weighted maps it also keeps the cost
/// boundaries' stops and moves, 10 more bytes per cell).
/// @return TN_E_INVALID_ARG (NULL, no cookie, no map, half an allocator), TN_E_TOO_LARGE (a side
///         past 32767), TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_jump_table_build(const tn_jump_table_def *def,
                                                  tn_jump_table **out);
/// Destroy a table (NULL is a no-op).
TN_API void tn_jump_table_destroy(tn_jump_table *table);
/// Bytes held by the table.
TN_API size_t tn_jump_table_memory_bytes(const tn_jump_table *table);
/// Was the table built from this map at its current revision? (Same identity check as the
/// JPS cache: destroy a table together with its map.)
TN_API bool tn_jump_table_current(const tn_jump_table *table, const tn_map *map);
/// @}

/// The heuristic as a name ("octile", ...) and back (false on an unknown name).
TN_API const char *tn_heuristic_name(tn_heuristic h);
TN_API bool tn_heuristic_from_name(const char *name, tn_heuristic *out);
/// The algorithm as a name ("astar", "dijkstra", "jps", "jps+") and back.
TN_API const char *tn_algo_name(tn_algo a);
TN_API bool tn_algo_from_name(const char *name, tn_algo *out);

#ifdef __cplusplus
}
#endif

#endif
