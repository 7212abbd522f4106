/* Private parts of the search context shared by search.c (A*, Dijkstra, sliced queries) and
 * jps.c (Jump Point Search): the context layout, the node state encoding and the open list.
 *
 * Per cell the context holds three arrays (16 bytes per cell in all):
 *   key[i]  (double)   f = g + hk(i) of a generated node, where hk is the scaled heuristic;
 *                      g is recovered as key[i] - hk(i) when the node is expanded.
 *   tag[i]  (uint32)   TAG_OPEN | heap position  while the node is on the open list,
 *                      gen << 3 | dir           once expanded in the current query (dir = the
 *                                               direction of the last step into it, 0..7),
 *                      TAG_GOAL                 an unreached goal of the current query,
 *                      anything else            not reached by the current query.
 *   heap[k] (uint32)   open list entry: cell index (28 bits) | dir << 28 | goal flag << 31.
 * Open nodes are reset to 0 when a query ends, so only expanded nodes carry a stamp and a new
 * query starts by bumping `gen`. */
#ifndef TILENAV_SEARCH_INTERNAL_H
#define TILENAV_SEARCH_INTERNAL_H

#include "internal.h"
#include "map_internal.h"
#include "tilenav/search.h"

#include <math.h>

#define TAG_OPEN 0x80000000u
#define TAG_STACK 0x40000000u /* with TAG_OPEN: on the f-level stack, at the position below */
#define TAG_POS 0x0fffffffu
#define TAG_GOAL 0x7fffffffu /* gen field all ones: never a live generation */
#define GEN_MAX 0x0ffffffeu  /* last generation before the tags are cleared */
#define ENT_IDX 0x0fffffffu
#define ENT_GOAL 0x80000000u
#define ENT_DIR_SHIFT 28

#define TN_COOKIE_SEARCH_CTX 0x53524348u
#define MAX_HEUR_GOALS 64
#define TN_INLINE static inline __attribute__((always_inline))

/* Query life cycle. */
enum { Q_IDLE = 0, Q_RUNNING = 1, Q_DONE = 2 };

/* The JPS cache: the map's passability as two padded bitsets (rows, and columns). A cell (x, y)
 * is bit x + 64 of row y + 1; the padding reads as blocked. */
typedef struct tn_jps_cache {
    uint64_t fingerprint; /* tn__map_fingerprint() of the map it was built from */
    int32_t w, h;
    size_t row_words; /* words per row of the row-major set */
    size_t col_words; /* words per row of the column-major (transposed) set */
    uint64_t *rows;   /* (h + 2) * row_words */
    uint64_t *cols;   /* (w + 2) * col_words */
    size_t cap_words; /* words allocated for rows + cols */
} tn_jps_cache;

struct tn_search {
    tn_allocator alloc;
    int32_t max_cells;
    double *key;
    uint32_t *tag;
    uint32_t *heap; /* the heap grows from the front, the f-level stack from the back */
    int32_t heap_n;
    int32_t stack_n;
    double flimit; /* nodes with a key up to this go on the stack */
    uint32_t gen;

    /* the running query */
    int state;
    tn_status status; /* last status reported by step */
    const tn_map *map;
    uint64_t revision;
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
    int32_t goal_x, goal_y; /* the only goal (heuristic of single-goal queries) */
    bool multi_h;           /* heuristic is a minimum over the goals */
    bool track;             /* keep the best node for closest/partial results */
    bool uniform;           /* every passable cell costs 1 */
    double straight, diagonal;
    double hmul;  /* weight * min cost */
    double hstr;  /* heuristic per straight unit (hmul included) */
    double hdiag; /* octile: extra per diagonal unit (hmul included) */
    double euc;   /* euclidean: cost per unit of distance (hmul included) */
    tn_heuristic hkind;
    int32_t end;    /* cell the path ends at (goal, closest or partial), -1 none */
    int32_t direct; /* JPS: the goal was reached by a free octile line, DIRECT_* (or 0) */
    int32_t best;   /* best expanded node for closest/partial, -1 none */
    double best_h, best_g;
    int64_t expanded;

    tn_jps_cache jps;
};

/* ---- the open list: a 4-ary min-heap of entries ordered by key -----------------------
 * Children of position k: 4k+1 .. 4k+4; parent of k: (k-1)/4.
 * Equal keys leave the heap in an order fixed by the sequence of operations (deterministic);
 * the heuristic's 2^-40 inflation already ranks most f ties by smaller h. */

TN_INLINE bool heap_less(const double *key, uint32_t a, uint32_t b)
{
    return key[a & ENT_IDX] < key[b & ENT_IDX];
}

TN_INLINE void heap_sift_up(tn_search *s, int32_t pos, uint32_t e)
{
    uint32_t *heap = s->heap;
    uint32_t *tag = s->tag;
    const double *key = s->key;
    while (pos > 0) {
        int32_t parent = (pos - 1) >> 2;
        uint32_t pe = heap[parent];
        if (!heap_less(key, e, pe))
            break;
        heap[pos] = pe;
        tag[pe & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
        pos = parent;
    }
    heap[pos] = e;
    tag[e & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
}

TN_INLINE void heap_push(tn_search *s, uint32_t e)
{
    TN_ASSERT(s->heap_n < s->max_cells);
    heap_sift_up(s, s->heap_n++, e);
}

/* Pop the top. Bottom-up: the hole left at the root walks down along the smallest children to
 * a leaf (three comparisons per level, no other test while all four children exist), then the
 * last entry is sifted up from there (it came from the bottom, so it rarely rises far). */
TN_INLINE uint32_t heap_pop(tn_search *s)
{
    uint32_t *heap = s->heap;
    uint32_t *tag = s->tag;
    const double *key = s->key;
    uint32_t top = heap[0];
    int32_t n = --s->heap_n;
    if (n > 0) {
        uint32_t e = heap[n];
        int32_t pos = 0, c = 1;
        while (c + 3 < n) {
            /* the smallest of the 4 children: two pairs, then the pair winners (selects,
             * not branches) */
            double k0 = key[heap[c] & ENT_IDX], k1 = key[heap[c + 1] & ENT_IDX];
            double k2 = key[heap[c + 2] & ENT_IDX], k3 = key[heap[c + 3] & ENT_IDX];
            /* the outcomes of these comparisons are random: using them as numbers (0/1)
             * keeps them off the branch predictor */
            int32_t ba = k1 < k0, bb = k3 < k2;
            int32_t ma = c + ba, mb = c + 2 + bb;
            double ka = k1 < k0 ? k1 : k0, kb = k3 < k2 ? k3 : k2;
            int32_t bm = kb < ka;
            int32_t m = ma + (mb - ma) * bm;
            uint32_t ce = heap[m];
            heap[pos] = ce;
            tag[ce & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
            pos = m;
            c = 4 * pos + 1;
        }
        if (c < n) {
            int32_t m = c;
            for (int32_t k = c + 1; k < n; k++)
                if (heap_less(key, heap[k], heap[m]))
                    m = k;
            uint32_t ce = heap[m];
            heap[pos] = ce;
            tag[ce & ENT_IDX] = TAG_OPEN | (uint32_t)pos;
            pos = m;
        }
        heap_sift_up(s, pos, e);
    }
    return top;
}

/* ---- the open list: heap + f-level stack ----------------------------------------------
 * A* may expand nodes of equal f in any order. Nodes whose key is within a relative 1e-10 of
 * the key last taken from the heap (the current f level) go on a LIFO stack instead of the
 * heap: pushing and popping them is O(1), and the last generated (deepest) node comes first,
 * which is the tie-break that keeps A* on the straight front. The heap orders the rest by
 * key. Open nodes never outnumber cells, so the stack shares the heap's
 * array from its far end. */
#define LEVEL_EPS 1e-10

TN_INLINE void q_set_level(tn_search *s, double f)
{
    s->flimit = f + f * LEVEL_EPS;
}

TN_INLINE void q_push(tn_search *s, uint32_t e)
{
    uint32_t i = e & ENT_IDX;
    if (s->key[i] <= s->flimit) {
        TN_ASSERT(s->heap_n + s->stack_n < s->max_cells);
        uint32_t pos = (uint32_t)s->stack_n++;
        s->heap[s->max_cells - 1 - (int32_t)pos] = e;
        s->tag[i] = TAG_OPEN | TAG_STACK | pos;
    } else {
        TN_ASSERT(s->heap_n + s->stack_n < s->max_cells);
        heap_sift_up(s, s->heap_n++, e);
    }
}

TN_INLINE bool q_empty(const tn_search *s)
{
    return s->heap_n == 0 && s->stack_n == 0;
}

TN_INLINE uint32_t q_pop(tn_search *s)
{
    if (s->stack_n > 0)
        return s->heap[s->max_cells - s->stack_n--];
    uint32_t e = heap_pop(s);
    q_set_level(s, s->key[e & ENT_IDX]);
    return e;
}

/* The key of open node i (tag t) has just decreased; its entry gets direction `dir`. */
TN_INLINE void q_decreased(tn_search *s, uint32_t t, uint32_t dir)
{
    uint32_t pos = t & TAG_POS;
    if (t & TAG_STACK) {
        uint32_t *e = &s->heap[s->max_cells - 1 - (int32_t)pos];
        *e = (*e & ~(7u << ENT_DIR_SHIFT)) | dir << ENT_DIR_SHIFT;
    } else {
        heap_sift_up(s, (int32_t)pos,
                     (s->heap[pos] & ~(7u << ENT_DIR_SHIFT)) | dir << ENT_DIR_SHIFT);
    }
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

/* ---- cell index -> row without a division ------------------------------------------
 * Expansions need the row and column of every popped cell; an integer division costs 14 to 40
 * cycles on their critical path. With m = ceil(2^44 / w), floor(i / w) = (i * m) >> 44 for
 * every cell index of a map (w, h <= TN_MAX_DIM = 2^16, i < 2^28): m exceeds 2^44 / w by
 * e / w with e < w, so i * m / 2^44 exceeds i / w by i * e / (w * 2^44) < 1 / w, too little
 * to reach the next integer; and i * m < w * 2^16 * (2^44 / w + 1) < 2^61 does not overflow.
 * (test_search checks it against the division.) */
#define ROW_SHIFT 44

TN_INLINE uint64_t row_divider(int32_t w)
{
    return (((uint64_t)1 << ROW_SHIFT) + (uint64_t)w - 1) / (uint64_t)w;
}

TN_INLINE int32_t row_of_index(uint64_t wdiv, uint32_t i)
{
    return (int32_t)(((uint64_t)i * wdiv) >> ROW_SHIFT);
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
 * `dir` (0..7). */
TN_INLINE void search_relax(tn_search *s, uint32_t ni, int32_t nx, int32_t ny, double ng,
                            uint32_t dir)
{
    uint32_t t = s->tag[ni];
    if (t & TAG_OPEN) {
        double nk = ng + tn__search_hk(s, nx, ny);
        if (nk < s->key[ni]) {
            s->key[ni] = nk;
            q_decreased(s, t, dir);
        }
        return;
    }
    if ((t >> 3) == s->gen)
        return; /* expanded */
    s->key[ni] = ng + tn__search_hk(s, nx, ny);
    q_push(s, ni | dir << ENT_DIR_SHIFT | (t == TAG_GOAL ? ENT_GOAL : 0u));
}

/* What identifies a map's passability for the caches (JPS bitsets, jump tables): its address,
 * the address of its passability array, size, revision and tn__map_passable_hash(), a hash of
 * every cell's passability that the map keeps up to date. A map replaced by another at the
 * same address with the same size and revision matches only if every cell's passability is
 * the same (up to a 64-bit hash collision). */
uint64_t tn__map_fingerprint(const tn_map *map);
uint64_t tn__grid_fingerprint(const tn_map *map, const tn__grid *g); /* the same, from its grid */

/* JPS (jps.c). The direct test: when one of the two octile lines from the start to the goal
 * (all diagonal steps first, or all straight steps first) is free, it is a shortest path and
 * the query needs no search. */
enum { DIRECT_NONE = 0, DIRECT_DIAGONAL_FIRST = 1, DIRECT_STRAIGHT_FIRST = 2 };
int32_t tn__jps_direct(const tn_search *s);
/* The cells of the direct line `s->direct`, start to goal: their count, written to `out` when
 * it fits in `cap`. */
int32_t tn__jps_direct_path(const tn_search *s, tn_cell *out, int32_t cap);
/* Its cost, nd * diagonal + ns * straight (as tn_search_get_path costs any path on a map of
 * uniform cost, bit for bit). */
double tn__jps_direct_cost(const tn_search *s);
bool tn__jps_applicable(const tn__grid *g, const tn_query *q, int32_t goal_count);
tn_status tn__jps_prepare(tn_search *s, const tn__grid *g);
void tn__jps_expand_start(tn_search *s);
void tn__jps_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir);
void tn__jps_free(tn_search *s);
/* JPS+ (jpsplus.c): the same expansions by table look-ups. */
void tn__jpsp_expand_start(tn_search *s);
void tn__jpsp_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir);
size_t tn__jps_bytes(const tn_search *s);

/* Direction tables: E, W, S, N, SE, NE, SW, NW. */
extern const int8_t tn__dir_dx[8];
extern const int8_t tn__dir_dy[8];

#endif
