/// @file broadphase.h
/// @brief Broad-phase collision: find the pairs of moving objects whose axis-aligned boxes
/// overlap without testing every object against every other.
///
/// Concept: a ::tn_bp holds up to `capacity` objects, each an axis-aligned box (::tn_box, world
/// units, double precision) plus a 32-bit user value. Objects are inserted, moved and removed
/// through generation-checked handles (::tn_bp_id). tn_bp_update() brings the structure up to
/// date after moves; then tn_bp_pairs() reports every pair of objects whose boxes overlap
/// (closed intervals: boxes that only touch overlap) exactly once, never an object with itself,
/// and the queries report every object whose box overlaps a point, circle or box.
///
/// Why double and not the library's float ::tn_vec2: a broad phase serves the whole world, not
/// one tile map. The hashed grid covers an unbounded plane, and float spacing reaches a pixel
/// at 2^24 (16.7 million) units; double keeps boxes, cell indices and the overlap decisions
/// exact for worlds far past any map, and the pairs equal to a brute-force double reference.
///
/// Kinds, one interface:
/// - ::TN_BP_GRID: a dense uniform grid over a bounded world rectangle (objects outside it
///   still work; they are clamped into the border cells). With `levels > 1` it is a
///   hierarchical grid: level k has cells of `cell_size * 2^k`, and each object lives in the
///   finest level whose cells are at least as large as its box. Each object is filed under
///   the cell of its box centre; pairs come from the cell and its 8 neighbours, visiting only half
///   of them so that each pair is found once; a
///   pair across levels is found by the coarser object, with a box query over the finer ones.
/// - ::TN_BP_HASH: the same over an unbounded plane (negative coordinates welcome): cells are
///   hashed into a table of `2 * capacity` buckets (rounded up to a power of two).
/// - ::TN_BP_SAP: sort and sweep along x; the order is kept between updates by insertion sort,
///   which is nearly linear when objects move little. No cell size to tune; suits mixed sizes.
/// - ::TN_BP_BRUTE: every pair tested; the reference, and fine below a few dozen objects.
///
/// Updates: tn_bp_insert/move/remove only record the change (O(1)); tn_bp_update() applies
/// them. Grids: when more than `rebuild_fraction * count` objects changed cell, it rebuilds
/// everything with one counting sort on the cell key (cache-friendly, O(n + cells)); otherwise
/// it is incremental: an object still in its cell has its copy rewritten in place, one that
/// changed cell joins a small "loose" list (sorted by cell, paired by the same stencil plus a
/// box query against the rest) until the loose list itself passes the threshold. Objects
/// larger than the largest cell are kept on a "big" list and tested by box query. SAP: the
/// update re-sorts by insertion sort (falling back to a merge sort when the order changed a
/// lot). Pairs need an up-to-date structure; queries are exact at any time (between a change
/// and the update they scan every object).
///
/// Ownership: the ::tn_bp owns all its memory, sized from the def at creation; nothing is
/// allocated afterwards (a full container reports ::TN_E_FULL, a short buffer
/// ::TN_E_BUFFER_TOO_SMALL). Threads: one writer; the const queries may run concurrently.
/// Errors: statuses at the boundary; non-finite or inverted boxes are ::TN_E_INVALID_ARG.
#ifndef TILENAV_BROADPHASE_H
#define TILENAV_BROADPHASE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An axis-aligned box in world units, closed: [x0, x1] x [y0, y1] with x0 <= x1, y0 <= y1.
typedef struct tn_box {
    double x0, y0, x1, y1;
} tn_box;

/// Handle of an object in a broad phase: 22 bits of slot and 10 bits of generation. 0 is never
/// a valid id; a removed object's id is stale (until its slot has been reused 1024 times).
typedef struct tn_bp_id {
    uint32_t id;
} tn_bp_id;

/// A reported pair: both handles and both user values.
typedef struct tn_bp_pair {
    tn_bp_id a, b;
    uint32_t user_a, user_b;
} tn_bp_pair;

/// Broad-phase algorithms (see the file comment).
typedef enum tn_bp_kind {
    TN_BP_GRID = 0,
    TN_BP_HASH = 1,
    TN_BP_SAP = 2,
    TN_BP_BRUTE = 3,
} tn_bp_kind;

/// Most objects one broad phase can hold (the handle keeps 22 bits of slot).
#define TN_BP_MAX_OBJECTS ((1 << 22) - 1)
/// Most levels of a hierarchical grid.
#define TN_BP_MAX_LEVELS 16

/// Definition of a broad phase. Get one from tn_bp_def_default() and change the fields.
typedef struct tn_bp_def {
    tn_bp_kind kind;          ///< default TN_BP_GRID
    int32_t capacity;         ///< most objects, 1..TN_BP_MAX_OBJECTS (default 1024)
    double cell_size;         ///< grids: side of a level-0 cell, world units, > 0 (default 64)
    int32_t levels;           ///< grids: 1 = plain grid, up to TN_BP_MAX_LEVELS (default 1)
    tn_box world;             ///< TN_BP_GRID: the bounded world (default 0,0 - 1024,1024)
    double rebuild_fraction;  ///< grids: rebuild when more than fraction * count objects
                              ///< changed cell or are loose (default 0.05)
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_bp_def_default(); do not touch
} tn_bp_def;

typedef struct tn_bp tn_bp;

/// Pair/query callback: return true to keep going, false to stop early.
typedef bool (*tn_bp_pair_fn)(void *ctx, const tn_bp_pair *pair);
/// Query callback: `id` and `user` of one object; return true to keep going.
typedef bool (*tn_bp_query_fn)(void *ctx, tn_bp_id id, uint32_t user);

/// Counters of the last tn_bp_update() (for tuning and benchmarks).
typedef struct tn_bp_stats {
    int32_t count;     ///< live objects
    int32_t loose;     ///< objects on the loose list after the update
    int32_t big;       ///< objects too large for any grid level
    bool rebuilt;      ///< the update did a full rebuild
    uint64_t rebuilds; ///< full rebuilds since creation
    uint64_t updates;  ///< updates since creation
} tn_bp_stats;

/// Defaults: a dense 1024x1024 grid of 64-unit cells for 1024 objects, malloc/free.
TN_API tn_bp_def tn_bp_def_default(void);

/// Suggested level-0 cell size for `count` objects whose largest box side is `max_size` over
/// an area of `area` square units: at least `max_size`, and about one object per cell.
TN_API double tn_bp_suggest_cell(double max_size, double area, int32_t count);

/// Create a broad phase. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG (NULL, no cookie, bad field), TN_E_TOO_LARGE (capacity, or a grid
///         of more than TN_MAX_CELLS cells), TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_bp_create(const tn_bp_def *def, tn_bp **out);
/// Destroy. NULL is a no-op.
TN_API void tn_bp_destroy(tn_bp *bp);
/// Bytes held.
TN_API size_t tn_bp_memory_bytes(const tn_bp *bp);
/// Kind and live object count.
TN_API tn_bp_kind tn_bp_get_kind(const tn_bp *bp);
TN_API int32_t tn_bp_count(const tn_bp *bp);

/// Insert an object with box `box` and user value `user`; `*out` receives its handle.
/// @return TN_E_FULL at capacity, TN_E_INVALID_ARG (NULL, non-finite or inverted box).
TN_API TN_NODISCARD tn_status tn_bp_insert(tn_bp *bp, tn_box box, uint32_t user, tn_bp_id *out);
/// Give an object a new box (pairs see it after the next tn_bp_update(); queries at once).
/// @return TN_E_STALE_ID (removed or never issued), TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_bp_move(tn_bp *bp, tn_bp_id id, tn_box box);
/// Remove an object; its id becomes stale. @return TN_E_STALE_ID, TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_bp_remove(tn_bp *bp, tn_bp_id id);
/// Read an object's box and user value (either pointer may be NULL).
TN_API TN_NODISCARD tn_status tn_bp_get(const tn_bp *bp, tn_bp_id id, tn_box *box, uint32_t *user);
/// Remove every object (all ids become stale).
TN_API void tn_bp_clear(tn_bp *bp);

/// Bring the structure up to date after inserts, moves and removes: incremental when few
/// objects changed cell, otherwise a full rebuild. `stats` may be NULL.
TN_API TN_NODISCARD tn_status tn_bp_update(tn_bp *bp, tn_bp_stats *stats);
/// Force a full rebuild (grids: counting sort; SAP: full sort).
TN_API TN_NODISCARD tn_status tn_bp_rebuild(tn_bp *bp);

/// Report every pair of live objects whose boxes overlap, once each, in no particular order
/// (each pair's a/b order is arbitrary too). Needs an up-to-date structure: TN_E_STATE after
/// any insert, move or remove that tn_bp_update() has not seen.
/// @return TN_OK, TN_PARTIAL when the callback stopped early, TN_E_STATE, TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_bp_pairs(const tn_bp *bp, tn_bp_pair_fn fn, void *ctx);
/// The same into a buffer of `cap` pairs. `*len` = pairs found; when more than `cap`, the
/// buffer holds the first `cap` and the call returns TN_E_BUFFER_TOO_SMALL with `*len` = all.
TN_API TN_NODISCARD tn_status tn_bp_pairs_buf(const tn_bp *bp, tn_bp_pair *out, int64_t cap,
                                              int64_t *len);

/// Every object whose box overlaps `box` (closed), each once, in no particular order. Exact at
/// any time; fast after tn_bp_update().
/// @return TN_OK, TN_PARTIAL (stopped early), TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_bp_query_box(const tn_bp *bp, tn_box box, tn_bp_query_fn fn,
                                              void *ctx);
/// Every object whose box contains the point (x, y).
TN_API TN_NODISCARD tn_status tn_bp_query_point(const tn_bp *bp, double x, double y,
                                                tn_bp_query_fn fn, void *ctx);
/// Every object whose box is within `r` of (cx, cy) (the box touches the closed disc).
TN_API TN_NODISCARD tn_status tn_bp_query_circle(const tn_bp *bp, double cx, double cy, double r,
                                                 tn_bp_query_fn fn, void *ctx);
/// tn_bp_query_box into a buffer of ids: the first `cap` into `out`, `*len` = all found,
/// TN_E_BUFFER_TOO_SMALL when that is more than `cap`.
TN_API TN_NODISCARD tn_status tn_bp_query_box_buf(const tn_bp *bp, tn_box box, tn_bp_id *out,
                                                  int32_t cap, int32_t *len);

#ifdef __cplusplus
}
#endif

#endif
