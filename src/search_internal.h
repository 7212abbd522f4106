/* Private parts of the search context shared by search.c (A*, Dijkstra, sliced queries) and
 * jps.c (Jump Point Search): the context layout, the node state encoding and the open list.
 *
 * The context holds three arrays of max_cells slots (16 bytes per cell in all):
 *   key[]   (double)   keys f = g + hk of generated nodes, where hk is the scaled heuristic;
 *                      g is recovered as f - hk when the node is expanded. In A* and Dijkstra
 *                      queries key[k] belongs to the open-list entry heap[k]; in JPS queries
 *                      key[i] belongs to cell i, and jkey[k] (8 more bytes per cell, allocated
 *                      by the first JPS query) to the entry heap[k] (see "the open list"
 *                      below).
 *   tag[i]  (uint32)   TAG_OPEN | position       while the node is on the open list (the
 *                                               position of its entry in heap[]; TAG_STACK
 *                                               added on the f-level stack),
 *                      gen << 3 | dir           once expanded in the current query (dir = the
 *                                               direction of the last step into it, 0..7),
 *                      TAG_GOAL                 an unreached goal of the current query,
 *                      anything else            not reached by the current query.
 *   heap[k] (uint32)   open list entry: cell index (28 bits) | dir << 28 | goal flag << 31.
 * Open nodes are reset to 0 when a query ends, so only expanded nodes carry a stamp and a new
 * query starts by bumping `gen`. */
#ifndef TILENAV_SEARCH_INTERNAL_H
#define TILENAV_SEARCH_INTERNAL_H

#include "goal_bounds_internal.h"
#include "grid.h"
#include "internal.h"
#include "tilenav/regions.h"
#include "tilenav/search.h"

#include <math.h>
#include <string.h>

/* Most cells a `closest` query answered through the regions aims at (ties kept). */
#define TN__REDIRECT_MAX 64
/* JPS caches a context keeps beside the active one, so queries alternating between a few maps
 * (unit sizes) do not rebuild them every time. */
#define TN__JPS_SPARES 3
/* JPS and JPS+ rebuild a path from the costs of its jump points: a segment ends at the first
 * expanded node back along the arrival ray whose cost plus the segment's fits the node's within
 * a relative 1e-9 (rebuild_path). That identifies a parent only while the tolerance is below
 * half the least step cost: then every segment lowers the cost, so the walk ends, and never
 * passes its parent, so its cells are the jump's. A key at or past this limit (cost ratios near
 * 1e9 along a path: doubles can no longer tell the jump points apart) stops JPS, and the query
 * starts again as A* (search_run), which rebuilds by its direction bits. */
#define TN__JPS_KEY_LIMIT(least_step) (0.5e9 * (least_step)-1.0)
/* search_run's internal status for that restart (never returned to a caller) */
#define TN__RESTART_ASTAR ((tn_status)100)

#define TAG_OPEN 0x80000000u
#define TAG_STACK 0x40000000u /* with TAG_OPEN: on the f-level stack */
#define TAG_POS 0x0fffffffu
#define TAG_GOAL 0x7fffffffu /* gen field all ones: never a live generation */
#define GEN_MAX 0x0ffffffeu  /* last generation before the tags are cleared */
#define ENT_IDX 0x0fffffffu
#define ENT_GOAL 0x80000000u
#define ENT_DIR_SHIFT 28

#define TN_COOKIE_SEARCH_CTX 0x53524348u
#define MAX_HEUR_GOALS 64

/* Query life cycle. */
enum { Q_IDLE = 0, Q_RUNNING = 1, Q_DONE = 2 };

/* The JPS cache: the grid layer's passability bitsets and jump-ahead flags (grid.h). */
typedef tn__passbits tn_jps_cache;

struct tn_search {
    tn_allocator alloc;
    int32_t max_cells; /* cells the arrays hold (0 until a growing context meets a map) */
    bool grow;         /* created with max_cells 0: the arrays grow to fit the map */
    double *key;
    uint32_t *tag;
    uint32_t *heap; /* the heap grows from the front, the f-level stack from the back */
    /* JPS and JPS+: the keys of their open list, beside its entries (as key[] in A*), max_cells
     * slots, allocated by the first JPS or JPS+ query (NULL before) */
    double *jkey;
    double *okey; /* the open list's keys: key (A*, Dijkstra) or jkey (JPS, JPS+) */
    int32_t heap_n;
    int32_t stack_n;
    double flimit; /* nodes with a key up to this go on the stack */
    bool lifo;     /* the f-level stack is used (a consistent heuristic: see the open list) */
    uint32_t gen;

    /* the running query */
    const char *why; /* the last set-up failure's reason (tn_search_error_detail), or "" */
    int state;
    tn_status status;  /* last status reported by step */
    const tn_map *map; /* the map searched: the query's, or its unit size's view */
    uint64_t revision;
    const tn_map *source; /* the query's map (a view is edited through it) */
    uint64_t source_revision;
    int32_t w, h;
    uint64_t wdiv;   /* row_divider(w): row_of_index() divides a cell index by w with it */
    int32_t wdiv_of; /* the width wdiv was computed for (a division saved per query) */
    const uint8_t *pass;
    const float *cost;
    const float *extra;
    tn_query q;
    tn_algo algo;
    int32_t start;
    int32_t start_x, start_y;
    const tn_cell *goals;
    int32_t goal_count;
    /* the goals of a time-sliced query, copied (tn_search_begin): the caller's array may
     * change or go out of scope before the query's last step */
    tn_cell *goal_copy;
    size_t goal_cap;
    /* `closest` answered through the regions (search.c): the goals above are the cells of the
     * start's region closest to the real goals, and reaching one means TN_CLOSEST */
    bool redirected;
    int32_t redirect_n;
    tn_cell redirect[TN__REDIRECT_MAX];
    int32_t goal_x, goal_y; /* the only goal (heuristic of single-goal queries) */
    tn_cell restart_goal;   /* the goal of a JPS query restarted as A* (s->goals points here) */
    bool multi_h;           /* heuristic is a minimum over the goals */
    bool track;             /* keep the best node for closest/partial results */
    bool uniform;           /* every passable cell costs 1 */
    float min_cost;         /* the map's least cost (tn_map_min_cost) */
    /* JPS and JPS+: the largest key their path rebuild can trust (TN__JPS_KEY_LIMIT) */
    double jps_fmax;
    double straight, diagonal;
    double hmul;      /* weight * min cost */
    double hstr;      /* heuristic per straight unit (hmul included) */
    double bound_lim; /* closest_bound with room for f - h's rounding (search_setup_heuristic) */
    double hdiag;     /* octile: extra per diagonal unit (hmul included) */
    double euc;       /* euclidean: cost per unit of distance (hmul included) */
    tn_heuristic hkind;
    int32_t end;    /* cell the path ends at (goal, closest or partial), -1 none */
    int32_t direct; /* JPS: the goal was reached by a free octile line, DIRECT_* (or 0) */
    const tn_cell *direct_out; /* the buffer that line was written to in search_begin, or NULL */
    int32_t best;              /* best expanded node for closest/partial, -1 none */
    double best_h, best_g;
    int64_t expanded;

    tn_jps_cache jps; /* the JPS cache of the map being searched */
    /* caches of the maps searched before it (other maps, a unit size's map), most recently
     * used first by stamp, swapped with `jps` when their map comes back (jps.c) */
    tn_jps_cache jps_spare[TN__JPS_SPARES];
    uint64_t jps_spare_used[TN__JPS_SPARES];
    uint64_t jps_clock;
    const tn_goal_bounds *gb; /* JPS and JPS+: the query's goal bounds, or NULL */
};

/* ---- the open list: a 4-ary min-heap of entries ordered by key -----------------------
 * Children of position k: 4k+1 .. 4k+4; parent of k: (k-1)/4.
 * Equal keys leave the heap in an order fixed by the sequence of operations (deterministic);
 * the heuristic's 2^-40 inflation already ranks most f ties by smaller h.
 *
 * The open list's keys (o.key = s->okey) sit beside its entries: okey[pos] is the key of the
 * entry at heap[pos] and moves with it, so comparisons read the heap's own small, dense arrays
 * instead of one cell per entry scattered over the map (five times fewer L1 misses on bg512
 * maps for A*; a third fewer for weighted JPS on random512). okey is key[] in A*, Dijkstra and
 * distance maps: nothing is kept for expanded cells there, A* rebuilds its path from the
 * direction bits. JPS and JPS+ need the cost of expanded jump points for their path rebuild,
 * so their open list's keys go to jkey[] and key[cell] keeps each node's key by cell (written
 * when it is generated or improved, read by the rebuild).
 * The primitives take the arrays and counts explicitly so that a loop can keep the counts in
 * local variables; the q_* functions below wrap them for the context. */

/* The bit pattern of a key as a signed integer. Keys are never negative nor NaN (g, h >= 0;
 * the sum of two non-negative values is never -0.0), and for such doubles the integer order of
 * the bit patterns is the numeric order: the sift-down compares integers (one cycle, on the
 * critical path of a pop) instead of doubles (ucomisd and a flag transfer). */
TN_INLINE int64_t key_bits(const double *key, int32_t pos)
{
    int64_t b;
    memcpy(&b, &key[pos], sizeof b);
    return b;
}

/* Put entry e with key k at position pos or above it (pos: a free slot or e's own slot). */
TN_INLINE void heap_up(double *key, uint32_t *heap, uint32_t *tag, int32_t pos, uint32_t e,
                       double k)
{
    while (pos > 0) {
        int32_t parent = (pos - 1) >> 2;
        double pk = key[parent];
        if (!(k < pk))
            break;
        uint32_t pe = heap[parent];
        heap[pos] = pe;
        key[pos] = pk;
        tag[pe & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
        pos = parent;
    }
    heap[pos] = e;
    key[pos] = k;
    tag[e & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
}

/* Pop the top (*n > 0 entries); its key goes to *k. Bottom-up: the hole left at the root walks
 * down along the smallest children to a leaf (three comparisons per level, no other test while
 * all four children exist), then the last entry is sifted up from there (it came from the
 * bottom, so it rarely rises far). */
TN_INLINE uint32_t heap_down(double *key, uint32_t *heap, uint32_t *tag, int32_t *n_io, double *k)
{
    uint32_t top = heap[0];
    *k = key[0];
    int32_t n = --*n_io;
    if (n > 0) {
        uint32_t e = heap[n];
        double ek = key[n];
        int32_t pos = 0, c = 1;
        while (c + 3 < n) {
            /* the smallest of the 4 children: two pairs, then the pair winners (selects,
             * not branches), on the keys' bit patterns (key_bits()) */
            int64_t k0 = key_bits(key, c), k1 = key_bits(key, c + 1);
            int64_t k2 = key_bits(key, c + 2), k3 = key_bits(key, c + 3);
            /* the outcomes of these comparisons are random: using them as numbers (0/1)
             * keeps them off the branch predictor */
            int32_t ba = k1 < k0, bb = k3 < k2;
            int32_t ma = c + ba, mb = c + 2 + bb;
            int64_t ka = ba ? k1 : k0, kb = bb ? k3 : k2;
            int32_t bm = kb < ka;
            int32_t m = ma ^ ((ma ^ mb) & -bm); /* bm ? mb : ma, no multiply in the chain */
            uint32_t ce = heap[m];
            heap[pos] = ce;
            int64_t km = bm ? kb : ka;
            memcpy(&key[pos], &km, sizeof km);
            tag[ce & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
            pos = m;
            c = 4 * pos + 1;
        }
        if (c < n) {
            int32_t m = c;
            double mk = key[c];
            for (int32_t j = c + 1; j < n; j++) {
                double kj = key[j];
                if (kj < mk) {
                    m = j;
                    mk = kj;
                }
            }
            uint32_t ce = heap[m];
            heap[pos] = ce;
            key[pos] = mk;
            tag[ce & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
            pos = m;
        }
        heap_up(key, heap, tag, pos, e, ek);
    }
    return top;
}

/* ---- the open list: heap + f-level stack ----------------------------------------------
 * A* may expand nodes of equal f in any order. Nodes whose key is within a relative 1e-10 of
 * the key last taken from the heap (the current f level) go on a LIFO stack instead of the
 * heap: pushing and popping them is O(1), and the last generated (deepest) node comes first,
 * which is the tie-break that keeps A* on the straight front. The heap orders the rest by
 * key. Open nodes never outnumber cells, so the stack shares the heap's arrays from their far
 * end: stack entry j (0 = bottom) is at position max_cells - 1 - j. The tag of an open node
 * holds its position in the arrays, with TAG_STACK on the stack.
 * This needs keys that never fall below the current level, which a consistent heuristic
 * gives. A weight above 1 or manhattan with diagonals breaks it: a successor's key may then be
 * well below the level, and a LIFO stack of such keys is a depth-first search (paths that zig-
 * zag). Those queries clear `lifo`: flimit stays below every key and the heap orders all. */
#define LEVEL_EPS 1e-10

/* The open list's state, copied into locals by the loops that run it (the counts then stay in
 * registers: stores to tag[] may alias s->heap_n, not a local). */
typedef struct tn_openlist {
    double *key;
    uint32_t *heap, *tag;
    int32_t heap_n, stack_n;
    int32_t top; /* max_cells - 1: position of the stack's bottom entry */
    double flimit;
    /* the level after a pop of key k is k + k * leps - loff: (LEVEL_EPS, 0) with the stack,
     * (-1, 1) without it (-1, below every key; arithmetic rather than a branch) */
    double leps, loff;
} tn_openlist;

TN_INLINE tn_openlist ol_load(const tn_search *s)
{
    tn_openlist o;
    o.key = s->okey;
    o.heap = s->heap;
    o.tag = s->tag;
    o.heap_n = s->heap_n;
    o.stack_n = s->stack_n;
    o.top = s->max_cells - 1;
    o.flimit = s->flimit;
    o.leps = s->lifo ? LEVEL_EPS : -1.0;
    o.loff = s->lifo ? 0.0 : 1.0;
    return o;
}

TN_INLINE void ol_store(tn_search *s, const tn_openlist *o)
{
    s->heap_n = o->heap_n;
    s->stack_n = o->stack_n;
    s->flimit = o->flimit;
}

/* A sum, not two tests: compilers fuse `a == 0 && b == 0` of adjacent int32 fields into one
 * 64-bit load, which stalls when the two counts were just stored separately (no store
 * forwarding): about 10% of A*'s time on AR0011SR. */
TN_INLINE bool ol_empty(const tn_openlist *o)
{
    return o->heap_n + o->stack_n == 0;
}

/* Insert entry e with key k. */
TN_INLINE void ol_push(tn_openlist *o, uint32_t e, double k)
{
    TN_ASSERT(k >= 0.0); /* key_bits() */
    if (k <= o->flimit) {
        int32_t pos = o->top - o->stack_n++;
        TN_ASSERT(pos >= o->heap_n);
        o->heap[pos] = e;
        o->key[pos] = k;
        o->tag[e & ENT_IDX] = TAG_OPEN | TAG_STACK | (uint32_t)pos;
    } else {
        TN_ASSERT(o->heap_n + o->stack_n <= o->top);
        heap_up(o->key, o->heap, o->tag, o->heap_n++, e, k);
    }
}

/* Pop the next entry; its key goes to *k. */
TN_INLINE uint32_t ol_pop(tn_openlist *o, double *k)
{
    if (o->stack_n > 0) {
        int32_t pos = o->top - --o->stack_n;
        uint32_t e = o->heap[pos];
        *k = o->key[pos];
        return e;
    }
    uint32_t e = heap_down(o->key, o->heap, o->tag, &o->heap_n, k);
    o->flimit = *k + *k * o->leps - o->loff;
    return e;
}

/* Key of an open node with tag t. */
TN_INLINE double ol_key(const tn_openlist *o, uint32_t t)
{
    return o->key[t & TAG_POS];
}

/* The key of an open node (tag t) has just decreased to k; its entry gets direction `dir`. */
TN_INLINE void ol_decreased(tn_openlist *o, uint32_t t, uint32_t dir, double k)
{
    int32_t pos = (int32_t)(t & TAG_POS);
    uint32_t e = (o->heap[pos] & ~(7u << ENT_DIR_SHIFT)) | dir << ENT_DIR_SHIFT;
    if (t & TAG_STACK) {
        o->heap[pos] = e;
        o->key[pos] = k;
    } else {
        heap_up(o->key, o->heap, o->tag, pos, e, k);
    }
}

TN_INLINE void q_set_level(tn_search *s, double f)
{
    s->flimit = s->lifo ? f + f * LEVEL_EPS : -1.0;
}

/* Insert entry e whose key the caller has written to key[cell] (search_begin's start node; in
 * A* that slot is scratch space until the insertion copies the key beside the entry). */
TN_INLINE void q_push(tn_search *s, uint32_t e)
{
    tn_openlist o = ol_load(s);
    ol_push(&o, e, s->key[e & ENT_IDX]);
    ol_store(s, &o);
}

TN_INLINE bool q_empty(const tn_search *s)
{
    return s->heap_n + s->stack_n == 0; /* see ol_empty() */
}

/* Every open entry, for clean-up: heap first, then the stack. */
TN_INLINE int32_t q_count(const tn_search *s)
{
    return s->heap_n + s->stack_n;
}

TN_INLINE uint32_t q_entry(const tn_search *s, int32_t k)
{
    return k < s->heap_n ? s->heap[k] : s->heap[s->max_cells - 1 - (k - s->heap_n)];
}

/* The context's map width and its divider, recomputed only when the width changes. */
TN_INLINE void search_set_width(tn_search *s, int32_t w)
{
    s->w = w;
    if (s->wdiv_of != w) {
        s->wdiv = row_divider(w);
        s->wdiv_of = w;
    }
}

/* ---- helpers shared with jps.c -------------------------------------------------------- */

/* The octile heuristic from (x, y) to (gx, gy) with the context's scaled weights hstr and
 * hdiag: search_h1()'s expression for TN_HEURISTIC_OCTILE, the same operations in the same
 * order, so the two agree bit for bit (jps.c calls it without search_h1's switch). */
TN_INLINE double search_h_octile(double hstr, double hdiag, int32_t x, int32_t y, int32_t gx,
                                 int32_t gy)
{
    int32_t dx = x > gx ? x - gx : gx - x;
    int32_t dy = y > gy ? y - gy : gy - y;
    int32_t mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
    return hstr * (double)mx + hdiag * (double)mn;
}

/* Unscaled heuristic from (x, y) to (gx, gy). */
TN_INLINE double search_h1(const tn_search *s, int32_t x, int32_t y, int32_t gx, int32_t gy)
{
    int32_t dx = x > gx ? x - gx : gx - x;
    int32_t dy = y > gy ? y - gy : gy - y;
    int32_t mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
    switch (s->hkind) {
    case TN_HEURISTIC_MANHATTAN: return s->hstr * (double)(dx + dy);
    case TN_HEURISTIC_EUCLIDEAN: return s->euc * sqrt((double)dx * dx + (double)dy * dy);
    case TN_HEURISTIC_CHEBYSHEV: return s->hstr * (double)mx;
    case TN_HEURISTIC_ZERO: return 0.0;
    case TN_HEURISTIC_OCTILE:
    case TN_HEURISTIC_AUTO: break;
    }
    return s->hstr * (double)mx + s->hdiag * (double)mn;
}

/* Scaled heuristic of cell (x, y) towards the goal(s). */
TN_INLINE double tn__search_hk(const tn_search *s, int32_t x, int32_t y)
{
    if (!s->multi_h)
        return search_h1(s, x, y, s->goal_x, s->goal_y);
    double best = (double)INFINITY;
    for (int32_t k = 0; k < s->goal_count; k++) {
        double v = search_h1(s, x, y, s->goals[k].x, s->goals[k].y);
        best = v < best ? v : best;
    }
    return best;
}

/* Generate or improve node `ni` at (nx, ny) with cost `ng`, reached by a step in direction
 * `dir` (0..7). The open list keeps its keys beside its entries; with `by_cell` (JPS and JPS+)
 * the key of each node is also written by cell to key[], where it stays once the node is
 * expanded (the path rebuild reads it). */
TN_INLINE void search_relax_k(tn_search *s, uint32_t ni, int32_t nx, int32_t ny, double ng,
                              uint32_t dir, const bool by_cell)
{
    uint32_t t = s->tag[ni];
    if (t & TAG_OPEN) {
        double nk = ng + tn__search_hk(s, nx, ny);
        tn_openlist o = ol_load(s);
        if (nk < ol_key(&o, t)) {
            if (by_cell)
                s->key[ni] = nk;
            ol_decreased(&o, t, dir, nk);
        }
        return;
    }
    if ((t >> 3) == s->gen)
        return; /* expanded */
    double nk = ng + tn__search_hk(s, nx, ny);
    if (by_cell)
        s->key[ni] = nk;
    tn_openlist o = ol_load(s);
    ol_push(&o, ni | dir << ENT_DIR_SHIFT | (t == TAG_GOAL ? ENT_GOAL : 0u), nk);
    ol_store(s, &o);
}

/* The same for JPS and JPS+ (their open list's keys in jkey[], and by cell in key[]). */
TN_INLINE void search_relax(tn_search *s, uint32_t ni, int32_t nx, int32_t ny, double ng,
                            uint32_t dir)
{
    search_relax_k(s, ni, nx, ny, ng, dir, true);
}

/* JPS (jps.c). The direct test: when one of the two octile lines from the start to the goal
 * (all diagonal steps first, or all straight steps first) is free, it is a shortest path and
 * the query needs no search. */
enum { DIRECT_NONE = 0, DIRECT_DIAGONAL_FIRST = 1, DIRECT_STRAIGHT_FIRST = 2 };
/* Which line is free. With `out` not NULL and room for the line in `cap`, the line's cells are
 * written to `out` during the test (`*written`; a failed test leaves partial cells there). */
int32_t tn__jps_direct(const tn_search *s, tn_cell *out, int32_t cap, bool *written);
/* The diagonal and straight step counts of the lines from the start to the goal. */
void tn__jps_direct_steps(const tn_search *s, int32_t *diag, int32_t *straight);
/* The cells of the direct line `s->direct`, start to goal: their count, written to `out` when
 * it fits in `cap`. */
int32_t tn__jps_direct_path(const tn_search *s, tn_cell *out, int32_t cap);
bool tn__jps_applicable(const tn__grid *g, const tn_query *q, int32_t goal_count);
tn_status tn__jps_prepare(tn_search *s, const tn__grid *g);
void tn__jps_expand_start(tn_search *s);
void tn__jps_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir);
/* The expansion loop of a one-shot JPS query (no tracking, one goal): as search_run's. */
tn_status tn__jps_run(tn_search *s, int64_t budget);
void tn__jps_free(tn_search *s);
/* For tests: bring the JPS cache up to date with `map` (ends any query of the context), and
 * read the jump-ahead flag of free cell (x, y): does a straight jump in direction `dir` (0..3:
 * E, W, S, N) find a jump point before a wall. */
tn_status tn__jps_cache_for(tn_search *s, const tn_map *map);
/* Make the per-cell arrays hold `cells` cells: a growing context (max_cells 0 at create)
 * reallocates them (outside any query's hot loop: once per larger map), a fixed one answers
 * TN_E_TOO_LARGE. Called at the set-up of every query. */
tn_status tn__search_fit(tn_search *s, int64_t cells);
bool tn__jps_ahead(const tn_search *s, int32_t x, int32_t y, uint32_t dir);
/* Tests: a digest of the active JPS cache (tn__passbits_digest) and how many updates it took
 * from the map's change log. */
void tn__jps_cache_info(const tn_search *s, uint64_t *digest, uint64_t *patches);
/* JPS+ (jpsplus.c): the same expansions by table look-ups. */
void tn__jpsp_expand_start(tn_search *s);
void tn__jpsp_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir);
/* The same on a weighted map (its table has the cost boundaries). */
void tn__jpsp_expand_weighted(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir);
size_t tn__jps_bytes(const tn_search *s);

#endif
