/* Jump Point Search (Harabor & Grastien 2011) for 8-connected grids without corner cutting,
 * with block-based jumping (Harabor & Grastien 2014, "Improving Jump Point Search"): a straight
 * jump scans 63 cells at a time in 64-bit words of a padded passability bitset; vertical jumps
 * scan a transposed copy, so both directions read consecutive memory.
 *
 * Pruning rules (no corner cutting, diagonal-first canonical paths):
 *   - arriving by a straight step, e.g. east at (x, y): the natural successor is east; for each
 *     side s (north/south), when (x, y+s) is free and (x-1, y+s) is blocked, the side step and
 *     the diagonal (east, s) are forced. A straight scan stops at the first such cell.
 *   - arriving by a diagonal step (dx, dy): successors are the straight jumps in dx and in dy
 *     and the diagonal jump; a diagonal cell is a jump point when either straight scan from it
 *     finds one. Diagonal steps need both orthogonal cells free.
 * Jump-ahead flags: the cache also keeps, for each cell and straight direction, one bit that
 * tells whether the straight jump from that cell finds a jump point before a wall. They depend
 * on the map only (they are built with the bitsets, when the map changes), and they turn a
 * diagonal step's two straight scans into two bit tests; a straight jump scans only when its
 * flag is set, or when the goal is on its line. Expansions and paths are those of the scans.
 *
 * Weighted maps (terrain costs): the scans, jumps and expansions take a compile-time flag
 * `wt`. With it, a cost-boundary cell (grid.h) stops a straight scan when its stop bit for that
 * direction is set (a bitset per direction, counted by the jump-ahead flags too) and a diagonal
 * jump by its per-cell stop bits; when expanded, it expands its cached move set for the arrival
 * move instead of the rules above. A jump of k steps to cell t costs k * step * cost(t): every
 * cell a jump enters costs the same (docs/search.md). Without the flag the code is the
 * unweighted code, unchanged.
 *
 * Parents are not stored: a path is rebuilt by walking back from a node along its arrival
 * direction to the first expanded node whose cost plus the segment's length equals the node's
 * cost (search.c). */
#include "search_internal.h"

#include <string.h>

#define PAD TN__BITS_PAD
#define FLAG_SETS TN__FLAG_SETS
enum { FLAG_E = TN__FLAG_E, FLAG_W = TN__FLAG_W, FLAG_S = TN__FLAG_S, FLAG_N = TN__FLAG_N };
_Static_assert(FLAG_W == FLAG_E + 1 && FLAG_N == FLAG_S + 1, "jump_d computes W and N");

bool tn__jps_applicable(const tn__grid *g, const tn_query *q, int32_t goal_count)
{
    (void)g; /* any terrain costs (weighted JPS, below) */
    return q->moves.diagonal == TN_DIAGONAL_NO_CUT && !q->extra && goal_count == 1 && !q->closest;
}

void tn__jps_free(tn_search *s)
{
    tn__passbits_free(&s->jps, &s->alloc);
    for (int k = 0; k < TN__JPS_SPARES; k++)
        tn__passbits_free(&s->jps_spare[k], &s->alloc);
}

size_t tn__jps_bytes(const tn_search *s)
{
    size_t words = s->jps.cap_words;
    for (int k = 0; k < TN__JPS_SPARES; k++)
        words += s->jps_spare[k].cap_words;
    return words * sizeof(uint64_t);
}

/* Bit x of a bitset whose words are `stride` apart (1, or FLAG_SETS for the flags). */
static inline bool bit_get(const uint64_t *line, int32_t x, size_t stride)
{
    uint32_t b = (uint32_t)(x + PAD);
    return (line[(b >> 6) * stride] >> (b & 63)) & 1u;
}

/* Make s->jps the cache of the map searched: when it holds another map, swap in the spare
 * that holds this one (its current revision, else an older one, which the update then brings
 * up to date by the map's change log), or else the least recently used spare (which is then
 * rebuilt in its own allocation); the active cache becomes the most recent spare. */
tn_status tn__jps_prepare(tn_search *s, const tn__grid *g)
{
    uint64_t fp = tn__grid_fingerprint(s->map, g);
    const tn__passbits *a = &s->jps;
    if (a->rows && !(a->fingerprint == fp && a->w == g->w && a->h == g->h) &&
        !tn__passbits_same_map(a, s->map, g)) {
        int pick = 0, same = -1;
        for (int k = 0; k < TN__JPS_SPARES; k++) {
            const tn__passbits *c = &s->jps_spare[k];
            if (c->rows && c->fingerprint == fp && c->w == g->w && c->h == g->h) {
                same = k;
                break;
            }
            if (same < 0 && tn__passbits_same_map(c, s->map, g))
                same = k;
            if (s->jps_spare_used[k] < s->jps_spare_used[pick])
                pick = k;
        }
        if (same >= 0)
            pick = same;
        tn__passbits t = s->jps;
        s->jps = s->jps_spare[pick];
        s->jps_spare[pick] = t;
        s->jps_spare_used[pick] = ++s->jps_clock;
    }
    return tn__passbits_update(&s->jps, s->map, g, &s->alloc);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* At least 57 bits of `row` starting at bit b (bit 0 of the result = bit b): one unaligned
 * load. Each passability set has a spare word at its end, so the load never leaves it. */
static inline uint64_t bits_at(const uint64_t *row, uint32_t b)
{
    uint64_t v;
    memcpy(&v, (const unsigned char *)row + (b >> 3), sizeof v);
    return v >> (b & 7);
}
#else
static inline uint64_t bits_at(const uint64_t *row, uint32_t b)
{
    uint32_t wi = b >> 6, sh = b & 63;
    return (row[wi] >> sh) | ((row[wi + 1] << 1) << (63 - sh));
}
#endif

#define BLOCK 56
#define LOW56 ((1ull << BLOCK) - 1)

/* Scan a line forwards from position p (exclusive) in `cur`, with the neighbouring lines `a`
 * and `b`, 56 cells per step. Returns the first position that is a jump point (free, with a
 * side cell that is free while the side cell before it is blocked), or -1 when a blocked cell
 * comes first; `*wall` then receives that position. */
TN_INLINE int32_t scan_fwd(const uint64_t *a, const uint64_t *cur, const uint64_t *b,
                           const uint64_t *z, int32_t p, int32_t *wall, const bool wt)
{
    int32_t pos = p + 1;
    for (;;) {
        uint32_t bit = (uint32_t)(pos + PAD);
        /* u, d: bit 0 = position pos - 1; c: bit 0 = position pos */
        uint64_t u = bits_at(a, bit - 1), d = bits_at(b, bit - 1), c = bits_at(cur, bit);
        /* weighted maps: a boundary that stops jumps this way (line z) is a jump point too */
        uint64_t zb = wt ? bits_at(z, bit) : 0;
        uint64_t stop = (((u >> 1) & ~u) | ((d >> 1) & ~d) | ~c | zb) & LOW56;
        if (stop) {
            int j = tn__ctz64(stop);
            if (!((c >> j) & 1u)) {
                *wall = pos + j;
                return -1;
            }
            return pos + j;
        }
        pos += BLOCK;
    }
}

/* The same, backwards (decreasing positions). */
TN_INLINE int32_t scan_bwd(const uint64_t *a, const uint64_t *cur, const uint64_t *b,
                           const uint64_t *z, int32_t p, int32_t *wall, const bool wt)
{
    int32_t pos = p - 1;
    for (;;) {
        uint32_t bit = (uint32_t)(pos + PAD);
        /* after the shift, bit 63 of c = position pos and bit 63 of u/d = position pos + 1;
         * bits 7..63 are valid */
        uint64_t u = bits_at(a, bit + 1 - BLOCK) << 7, d = bits_at(b, bit + 1 - BLOCK) << 7;
        uint64_t c = bits_at(cur, bit - BLOCK) << 7;
        uint64_t fu = (u & ~(u >> 1)) << 1, fd = (d & ~(d >> 1)) << 1;
        uint64_t zb = wt ? bits_at(z, bit - BLOCK) << 7 : 0;
        uint64_t stop = (fu | fd | ~c | zb) & ~0xffull;
        if (stop) {
            int j = tn__clz64(stop);
            if (!((c >> (63 - j)) & 1u)) {
                *wall = pos - j;
                return -1;
            }
            return pos - j;
        }
        pos -= BLOCK;
    }
}

typedef struct jctx {
    const uint64_t *rows, *flags, *cols;
    size_t rw, cw; /* words per line of rows, of cols */
    int32_t gx, gy;
    int32_t w;
    /* weighted maps (grid.h): the cost boundaries, their stops for E, W scans (rows) and S, N
     * scans (cols), per cell for every arrival move, their moves, and the cells' costs */
    const uint64_t *brows;
    const uint64_t *zrows[2], *zcols[2];
    const uint8_t *bstop, *bmoves;
    const float *cost;
    /* the heuristic: octile (search_h_octile, with these weights), else search_h1() */
    bool octile;
    double hstr, hdiag;
    double straight, diagonal; /* the step costs */
    /* the open list, kept in the caller's locals while it runs (ol_load()), the node arrays and
     * the query's generation (copies: stores to tag[] may alias the context's fields) */
    tn_openlist *o;
    uint32_t *tag;
    double *key;
    uint32_t gen;
    double fmax; /* s->jps_fmax */
} jctx;

static inline const uint64_t *row_of(const jctx *j, int32_t y)
{
    return j->rows + j->rw * (size_t)(y + 1);
}

static inline const uint64_t *flags_of(const jctx *j, int32_t y)
{
    return j->flags + FLAG_SETS * j->rw * (size_t)(y + 1);
}

static inline bool row_free(const uint64_t *row, int32_t x)
{
    return bit_get(row, x, 1);
}

/* Whether a diagonal step from x on line `row` along (dx, the line `rstep` words on) is legal:
 * (x + dx) on this line, x and x + dx on the next, all free (no corner cut). */
static inline bool diag_step_free(const uint64_t *row, ptrdiff_t rstep, int32_t x, int32_t dx)
{
    return row_free(row, x + dx) && row_free(row + rstep, x) && row_free(row + rstep, x + dx);
}

/* Jump-ahead flag `set` (FLAG_E .. FLAG_N) of cell x of flag line `f`. */
static inline bool flag(const uint64_t *f, int32_t x, int set)
{
    return bit_get(f + set, x, FLAG_SETS);
}

static inline const uint64_t *col_of(const jctx *j, int32_t x)
{
    return j->cols + j->cw * (size_t)(x + 1);
}

static inline bool cell_free(const jctx *j, int32_t x, int32_t y)
{
    return row_free(row_of(j, y), x);
}

/* Straight jump from (x, y) along a row (dx = +-1): the x of the jump point, or -1 with the x
 * of the first blocked cell in `*wall`. `c` is the row of y. */
TN_INLINE int32_t jump_h_row(const jctx *j, const uint64_t *c, int32_t x, int32_t y, int32_t dx,
                             int32_t *wall, const bool wt)
{
    const uint64_t *a = c - j->rw, *b = c + j->rw;
    const uint64_t *z = wt ? j->zrows[dx > 0 ? 0 : 1] + (c - j->rows) : NULL;
    int32_t r = dx > 0 ? scan_fwd(a, c, b, z, x, wall, wt) : scan_bwd(a, c, b, z, x, wall, wt);
    if (y == j->gy) {
        int32_t stop = r >= 0 ? r : *wall;
        if (dx > 0 ? (j->gx > x && j->gx <= stop) : (j->gx < x && j->gx >= stop))
            return j->gx;
    }
    return r;
}

/* Straight jumps from an expanded cell: no scan when the flag says there is no jump point
 * (off the goal's line). */
TN_INLINE int32_t jump_h(const jctx *j, int32_t x, int32_t y, int32_t dx, const bool wt)
{
    if (y != j->gy && !flag(flags_of(j, y), x, dx > 0 ? FLAG_E : FLAG_W))
        return -1;
    int32_t wall = 0;
    return jump_h_row(j, row_of(j, y), x, y, dx, &wall, wt);
}

/* Straight jump from (x, y) along a column (dy = +-1): the y of the jump point, or -1 with the
 * y of the first blocked cell in `*wall`. `c` is the column of x. */
TN_INLINE int32_t jump_v_col(const jctx *j, const uint64_t *c, int32_t x, int32_t y, int32_t dy,
                             int32_t *wall, const bool wt)
{
    const uint64_t *a = c - j->cw, *b = c + j->cw;
    const uint64_t *z = wt ? j->zcols[dy > 0 ? 0 : 1] + (c - j->cols) : NULL;
    int32_t r = dy > 0 ? scan_fwd(a, c, b, z, y, wall, wt) : scan_bwd(a, c, b, z, y, wall, wt);
    if (x == j->gx) {
        int32_t stop = r >= 0 ? r : *wall;
        if (dy > 0 ? (j->gy > y && j->gy <= stop) : (j->gy < y && j->gy >= stop))
            return j->gy;
    }
    return r;
}

TN_INLINE int32_t jump_v(const jctx *j, int32_t x, int32_t y, int32_t dy, const bool wt)
{
    if (x != j->gx && !flag(flags_of(j, y), x, dy > 0 ? FLAG_S : FLAG_N))
        return -1;
    int32_t wall = 0;
    return jump_v_col(j, col_of(j, x), x, y, dy, &wall, wt);
}

/* Diagonal jump from (x, y): the number of diagonal steps to the jump point, or 0. A step needs
 * (x + dx, y), (x, y + dy) and (x + dx, y + dy) free (tested from step k0: 1, or 2 when the
 * caller tested the first step); the cell reached is a jump point when a
 * straight jump from it along dx or dy finds one, which its flags tell, except on the goal's
 * row or column, where the straight jumps scan (they stop at the goal). */
TN_INLINE int32_t jump_d(const jctx *j, int32_t x, int32_t y, int32_t dx, int32_t dy, int32_t k0,
                         const bool wt)
{
    const uint64_t *row = row_of(j, y), *f = flags_of(j, y);
    /* weighted maps: the boundary bits of the row, and the cell's index (its stop bits) */
    const uint64_t *brow = wt ? j->brows + (row - j->rows) : NULL;
    /* the move (SE 4, NE 5, SW 6, NW 7) and the flag sets, as arithmetic rather than selects:
     * compiled as branches they mispredicted a fifth of weighted JPS's branches on maze512 */
    const uint32_t dmove = 4u + (uint32_t)(dy < 0) + 2u * (uint32_t)(dx < 0);
    size_t ci = wt ? (size_t)y * (size_t)j->w + (size_t)x : 0;
    const ptrdiff_t cstep = (ptrdiff_t)dx + (ptrdiff_t)dy * (ptrdiff_t)j->w;
    const ptrdiff_t rstep = (ptrdiff_t)dy * (ptrdiff_t)j->rw;
    const ptrdiff_t fstep = FLAG_SETS * rstep;
    const int fh = FLAG_E + (dx < 0), fv = FLAG_S + (dy < 0); /* E/W and S/N are adjacent */
    int32_t k = 0;
    if (k0 > 1) /* the caller tested the first step */
        goto step;
    for (;;) {
        if (!diag_step_free(row, rstep, x, dx))
            return 0;
    step:
        k++;
        const uint64_t *next = row + rstep;
        x += dx;
        y += dy;
        row = next;
        f += fstep;
        if (wt) {
            brow += rstep;
            ci = (size_t)((ptrdiff_t)ci + cstep);
            if (row_free(brow, x) && (j->bstop[ci] >> dmove & 1u)) /* a boundary that stops */
                return k;
        }
        if (x != j->gx && y != j->gy) {
            if (flag(f, x, fh) || flag(f, x, fv))
                return k;
            continue;
        }
        if (x == j->gx && y == j->gy)
            return k;
        int32_t wh = 0, wv = 0;
        if (jump_h_row(j, row, x, y, dx, &wh, wt) >= 0 ||
            jump_v_col(j, col_of(j, x), x, y, dy, &wv, wt) >= 0)
            return k;
    }
}

static inline uint32_t dir_of(int32_t dx, int32_t dy)
{
    if (dy == 0)
        return dx > 0 ? 0u : 1u;
    if (dx == 0)
        return dy > 0 ? 2u : 3u;
    return dx > 0 ? (dy > 0 ? 4u : 5u) : (dy > 0 ? 6u : 7u);
}

/* search_relax() with the heuristic of the jump context: the octile one (the default) without
 * search_h1()'s switch over the kinds. */
TN_INLINE void relax(tn_search *s, const jctx *j, uint32_t ni, int32_t nx, int32_t ny, double ng,
                     uint32_t dir)
{
    uint32_t t = j->tag[ni];
    if (!(t & TAG_OPEN) && (t >> 3) == j->gen)
        return; /* expanded */
    const double h = j->octile ? search_h_octile(j->hstr, j->hdiag, nx, ny, j->gx, j->gy)
                               : tn__search_hk(s, nx, ny);
    const double nk = ng + h;
    if (t & TAG_OPEN) {
        if (nk < ol_key(j->o, t)) {
            j->key[ni] = nk;
            ol_decreased(j->o, t, dir, nk);
        }
        return;
    }
    j->key[ni] = nk;
    ol_push(j->o, ni | dir << ENT_DIR_SHIFT | (t == TAG_GOAL ? ENT_GOAL : 0u), nk);
}

/* The successors of (x, y) along one direction; none when the goal bounds `bx` of the cell
 * (or NULL) rule the direction out. */
/* The cost of a jump of k steps of `unit` ending at cell t. On weighted maps every cell a jump
 * enters has the cost of t: the cells it passes are no cost boundaries, so each has the cost
 * of the next. */
static inline double jump_cost(const jctx *j, double unit, int32_t k, uint32_t t, const bool wt)
{
    return wt ? unit * (double)k * (double)j->cost[t] : unit * (double)k;
}

TN_INLINE void succ_h(tn_search *s, const jctx *j, const int16_t *bx, int32_t x, int32_t y,
                      double g, int32_t dx, const bool wt)
{
    if (bx && !tn__goal_allows(bx, dir_of(dx, 0), j->gx, j->gy))
        return;
    int32_t t = jump_h(j, x, y, dx, wt);
    if (t < 0)
        return;
    int32_t k = dx > 0 ? t - x : x - t;
    uint32_t ti = (uint32_t)(y * j->w + t);
    relax(s, j, ti, t, y, g + jump_cost(j, j->straight, k, ti, wt), dir_of(dx, 0));
}

TN_INLINE void succ_v(tn_search *s, const jctx *j, const int16_t *bx, int32_t x, int32_t y,
                      double g, int32_t dy, const bool wt)
{
    if (bx && !tn__goal_allows(bx, dir_of(0, dy), j->gx, j->gy))
        return;
    int32_t t = jump_v(j, x, y, dy, wt);
    if (t < 0)
        return;
    int32_t k = dy > 0 ? t - y : y - t;
    uint32_t ti = (uint32_t)(t * j->w + x);
    relax(s, j, ti, x, t, g + jump_cost(j, j->straight, k, ti, wt), dir_of(0, dy));
}

TN_INLINE void succ_d_k(tn_search *s, const jctx *j, const int16_t *bx, int32_t x, int32_t y,
                        double g, int32_t dx, int32_t dy, int32_t k0, const bool wt)
{
    if (bx && !tn__goal_allows(bx, dir_of(dx, dy), j->gx, j->gy))
        return;
    int32_t k = jump_d(j, x, y, dx, dy, k0, wt);
    if (k == 0)
        return;
    int32_t tx = x + k * dx, ty = y + k * dy;
    uint32_t ti = (uint32_t)(ty * j->w + tx);
    relax(s, j, ti, tx, ty, g + jump_cost(j, j->diagonal, k, ti, wt), dir_of(dx, dy));
}

/* Diagonal jumps out of line, one copy per map kind: inlined at each of their six call sites
 * per kind (with their straight scans), they made 70 kB of expansion loop, too much for the
 * instruction cache of small queries (arena with mud: 3x fewer instruction-cache misses in
 * callgrind, median JPS query 1.8 -> 1.6 us in quiet runs). */
static TN_NOINLINE void succ_d_w(tn_search *s, const jctx *j, const int16_t *bx, int32_t x,
                                 int32_t y, double g, int32_t dx, int32_t dy, int32_t k0)
{
    succ_d_k(s, j, bx, x, y, g, dx, dy, k0, true);
}

static TN_NOINLINE void succ_d_u(tn_search *s, const jctx *j, const int16_t *bx, int32_t x,
                                 int32_t y, double g, int32_t dx, int32_t dy, int32_t k0)
{
    succ_d_k(s, j, bx, x, y, g, dx, dy, k0, false);
}

/* A diagonal jump, its steps tested from step k0 (see jump_d). */
TN_INLINE void succ_d(tn_search *s, const jctx *j, const int16_t *bx, int32_t x, int32_t y,
                      double g, int32_t dx, int32_t dy, int32_t k0, const bool wt)
{
    if (wt)
        succ_d_w(s, j, bx, x, y, g, dx, dy, k0);
    else
        succ_d_u(s, j, bx, x, y, g, dx, dy, k0);
}

/* A diagonal jump that turns (a forced neighbour, a cost boundary's moves, the start): its
 * first step is tested here, since it is often blocked (in corridors, in clutter), and then
 * no call is made (maze512 with mud: 14% fewer instructions). */
TN_INLINE void succ_d_turn(tn_search *s, const jctx *j, const int16_t *bx, int32_t x, int32_t y,
                           double g, int32_t dx, int32_t dy, const bool wt)
{
    if (diag_step_free(row_of(j, y), (ptrdiff_t)dy * (ptrdiff_t)j->rw, x, dx))
        succ_d(s, j, bx, x, y, g, dx, dy, 2, wt);
}

/* The jump context of the query of `s`, with its open list in `o` (or NULL: no successors). */
static jctx jctx_of(const tn_search *s, tn_openlist *o)
{
    const tn__passbits *c = &s->jps;
    jctx j = {c->rows,
              c->flags,
              c->cols,
              c->row_words,
              c->col_words,
              s->goal_x,
              s->goal_y,
              s->w,
              c->brows,
              {c->zrows[0], c->zrows[1]},
              {c->zcols[0], c->zcols[1]},
              c->bstop,
              c->bmoves,
              s->cost,
              (s->hkind == TN_HEURISTIC_OCTILE || s->hkind == TN_HEURISTIC_AUTO) && !s->multi_h,
              s->hstr,
              s->hdiag,
              s->straight,
              s->diagonal,
              o,
              s->tag,
              s->key,
              s->gen,
              s->jps_fmax};
    return j;
}

tn_status tn__jps_cache_for(tn_search *s, const tn_map *map)
{
    tn__grid g;
    tn__map_grid(map, &g);
    tn_status fit = tn__search_fit(s, (int64_t)g.w * g.h);
    if (fit != TN_OK)
        return fit;
    s->state = Q_IDLE;
    s->map = s->source = map;
    search_set_width(s, g.w);
    s->h = g.h;
    s->pass = g.pass;
    return tn__jps_prepare(s, &g);
}

bool tn__jps_ahead(const tn_search *s, int32_t x, int32_t y, uint32_t dir)
{
    TN_ASSERT(dir < 4 && s->jps.rows && x >= 0 && y >= 0 && x < s->jps.w && y < s->jps.h);
    static const int sets[4] = {FLAG_E, FLAG_W, FLAG_S, FLAG_N};
    jctx j = jctx_of(s, NULL);
    return flag(flags_of(&j, y), x, sets[dir]);
}

void tn__jps_cache_info(const tn_search *s, uint64_t *digest, uint64_t *patches)
{
    *digest = tn__passbits_digest(&s->jps);
    *patches = s->jps.patches;
}

/* The moves of `mask` (bit k = move k) in the searches' order. */
TN_INLINE void expand_all(tn_search *s, const jctx *j, const int16_t *bx, int32_t x, int32_t y,
                          double g, uint32_t mask, const bool wt)
{
    for (uint32_t m = mask; m; m &= m - 1) { /* ascending move numbers */
        uint32_t k = (uint32_t)tn__ctz32(m);
        int32_t dx = tn__dir_dx[k], dy = tn__dir_dy[k];
        if (k < 2)
            succ_h(s, j, bx, x, y, g, dx, wt);
        else if (k < 4)
            succ_v(s, j, bx, x, y, g, dy, wt);
        else
            succ_d_turn(s, j, bx, x, y, g, dx, dy, wt);
    }
}

void tn__jps_expand_start(tn_search *s)
{
    tn_openlist o = ol_load(s);
    jctx j = jctx_of(s, &o);
    int32_t x = s->start_x, y = s->start_y;
    const int16_t *bx = s->gb ? tn__goal_boxes(s->gb, y * s->w + x) : NULL;
    if (j.brows)
        expand_all(s, &j, bx, x, y, 0.0, 0xffu, true);
    else
        expand_all(s, &j, bx, x, y, 0.0, 0xffu, false);
    ol_store(s, &o);
}

TN_INLINE void expand(tn_search *s, const jctx *j, int32_t x, int32_t y, double g, uint32_t dir,
                      const bool wt)
{
    int32_t dx = tn__dir_dx[dir], dy = tn__dir_dy[dir];
    const int16_t *bx = s->gb ? tn__goal_boxes(s->gb, y * s->w + x) : NULL;
    if (wt && row_free(j->brows + j->rw * (size_t)(y + 1), x)) {
        /* a cost boundary: every move that is not strictly dominated (grid.h) */
        expand_all(s, j, bx, x, y, g, j->bmoves[8 * ((size_t)y * (size_t)j->w + (size_t)x) + dir],
                   true);
        return;
    }
    if (dy == 0) {
        succ_h(s, j, bx, x, y, g, dx, wt);
        for (int32_t sd = -1; sd <= 1; sd += 2)
            if (cell_free(j, x, y + sd) && !cell_free(j, x - dx, y + sd)) {
                succ_v(s, j, bx, x, y, g, sd, wt);
                succ_d_turn(s, j, bx, x, y, g, dx, sd, wt);
            }
    } else if (dx == 0) {
        succ_v(s, j, bx, x, y, g, dy, wt);
        for (int32_t sd = -1; sd <= 1; sd += 2)
            if (cell_free(j, x + sd, y) && !cell_free(j, x + sd, y - dy)) {
                succ_h(s, j, bx, x, y, g, sd, wt);
                succ_d_turn(s, j, bx, x, y, g, sd, dy, wt);
            }
    } else {
        succ_h(s, j, bx, x, y, g, dx, wt);
        succ_v(s, j, bx, x, y, g, dy, wt);
        succ_d(s, j, bx, x, y, g, dx, dy, 1, wt); /* continues the arrival: usually free */
    }
}

void tn__jps_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir)
{
    tn_openlist o = ol_load(s);
    jctx j = jctx_of(s, &o);
    if (j.brows)
        expand(s, &j, x, y, g, dir, true);
    else
        expand(s, &j, x, y, g, dir, false);
    ol_store(s, &o);
}

/* The search loop of one-shot JPS queries (no closest or partial tracking, one goal): the
 * generic loop's expansion order, with the jump context built once per run instead of once per
 * expansion and the weighted and unweighted expansions inlined in their own copies. */
TN_INLINE tn_status jps_run_k(tn_search *s, int64_t budget, const bool wt)
{
    /* the open list's counts stay in locals for the whole run (stored back on every return) */
    tn_openlist o = ol_load(s);
    const jctx j = jctx_of(s, &o);
    const int32_t w = s->w;
    const uint64_t wdiv = s->wdiv;
    int64_t expanded = s->expanded;
    tn_status st = TN_NO_PATH;
    while (!ol_empty(&o)) {
        if (budget-- <= 0) {
            st = TN_IN_PROGRESS;
            break;
        }
        double f;
        uint32_t e = ol_pop(&o, &f);
        uint32_t i = e & ENT_IDX;
        uint32_t dir = (e >> ENT_DIR_SHIFT) & 7u;
        j.tag[i] = j.gen << 3 | dir;
        expanded++;
        if (!(f < j.fmax)) { /* past what the path rebuild can trust: A* takes over */
            st = TN__RESTART_ASTAR;
            break;
        }
        int32_t y = row_of_index(wdiv, i), x = (int32_t)i - y * w;
        if (e & ENT_GOAL) {
            s->end = (int32_t)i;
            st = TN_OK;
            break;
        }
        double g = f - (j.octile ? search_h_octile(j.hstr, j.hdiag, x, y, j.gx, j.gy)
                                 : search_h1(s, x, y, j.gx, j.gy));
        expand(s, &j, x, y, g, dir, wt);
    }
    ol_store(s, &o);
    s->expanded = expanded;
    return st;
}

tn_status tn__jps_run(tn_search *s, int64_t budget)
{
    TN_ASSERT(!s->track && !s->multi_h);
    return s->jps.brows ? jps_run_k(s, budget, true) : jps_run_k(s, budget, false);
}

/* ---- the direct test ------------------------------------------------------------------
 * Every path from the start to the goal costs at least the octile distance (nd diagonal and ns
 * straight units, with nd = min(|dx|, |dy|), ns = max - min, since a diagonal costs no more
 * than two straight steps) times the map's least cost. A line of exactly those steps that is
 * free (no blocked cell, no cut corner) and enters only cells of the least cost is therefore a
 * shortest path. Two such lines are tried, all diagonal steps first
 * (the canonical order JPS prefers) and all straight steps first; they stay inside the
 * bounding box of start and goal, so no cell test leaves the map. On open maps most short
 * queries end here after a few dozen byte tests; elsewhere the test stops at the first wall. */

typedef struct line {
    int32_t dx, dy;   /* diagonal direction (components -1, 0 or 1) */
    int32_t sdx, sdy; /* straight direction, along the longer axis */
    int32_t nd, ns;   /* diagonal and straight step counts */
} line;

static line line_of(const tn_search *s)
{
    int32_t ddx = s->goal_x - s->start_x, ddy = s->goal_y - s->start_y;
    int32_t ax = ddx < 0 ? -ddx : ddx, ay = ddy < 0 ? -ddy : ddy;
    line l;
    l.dx = (ddx > 0) - (ddx < 0);
    l.dy = (ddy > 0) - (ddy < 0);
    bool xmajor = ax >= ay;
    l.sdx = xmajor ? l.dx : 0;
    l.sdy = xmajor ? 0 : l.dy;
    l.nd = xmajor ? ay : ax;
    l.ns = (xmajor ? ax : ay) - l.nd;
    return l;
}

/* Walk the line whose steps come in `order` (DIRECT_DIAGONAL_FIRST or DIRECT_STRAIGHT_FIRST)
 * from the start: true when every step is free, corners included. With `out` not NULL the
 * cells, start first, are written as they are found free (a failed walk leaves those). */
TN_INLINE bool walk_line_k(const tn_search *s, const line *l, int32_t order, tn_cell *out,
                           const bool wt)
{
    const uint8_t *pass = s->pass;
    /* weighted maps: a line is as cheap as the lower bound only when every cell it enters has
     * the map's least cost */
    const float *cost = s->cost;
    const float least = s->min_cost;
    const int32_t w = s->w;
    int32_t x = s->start_x, y = s->start_y, i = y * w + x;
    if (out)
        *out++ = (tn_cell){x, y};
    for (int32_t part = 0; part < 2; part++) {
        bool diag = (part == 0) == (order == DIRECT_DIAGONAL_FIRST);
        const int32_t sx = diag ? l->dx : l->sdx, sy = diag ? l->dy : l->sdy;
        const int32_t n = diag ? l->nd : l->ns, ox = sx, oy = sy * w;
        for (int32_t k = 0; k < n; k++) {
            /* a straight step reads its target three times (ox or oy is 0) */
            if (!(pass[i + ox] & pass[i + oy] & pass[i + ox + oy]))
                return false;
            i += ox + oy;
            if (wt && cost[i] != least)
                return false;
            x += sx;
            y += sy;
            if (out)
                *out++ = (tn_cell){x, y};
        }
    }
    TN_ASSERT(x == s->goal_x && y == s->goal_y);
    return true;
}

static bool walk_line(const tn_search *s, const line *l, int32_t order, tn_cell *out)
{
    return s->uniform ? walk_line_k(s, l, order, out, false) : walk_line_k(s, l, order, out, true);
}

int32_t tn__jps_direct(const tn_search *s, tn_cell *out, int32_t cap, bool *written)
{
    TN_ASSERT(s->diagonal <= 2.0 * s->straight);
    const line l = line_of(s);
    tn_cell *o = out && cap > l.nd + l.ns ? out : NULL;
    *written = o != NULL;
    /* With goal bounds, a line is walked only when the box of its first move at the start holds
     * the goal. The diagonal-first line is canonical, so when it is free its first move's box
     * holds the goal: the test skips only lines that are blocked. The straight-first line is
     * not canonical (its turn has no forced neighbour, in general), so the test may skip a free
     * one; the search then finds a path of the same cost. */
    const int16_t *bx = s->gb ? tn__goal_boxes(s->gb, s->start) : NULL;
    const uint32_t diag = dir_of(l.dx, l.dy), straight = dir_of(l.sdx, l.sdy);
    if ((!bx || tn__goal_allows(bx, l.nd > 0 ? diag : straight, s->goal_x, s->goal_y)) &&
        walk_line(s, &l, DIRECT_DIAGONAL_FIRST, o))
        return DIRECT_DIAGONAL_FIRST;
    if (l.nd > 0 && l.ns > 0 && (!bx || tn__goal_allows(bx, straight, s->goal_x, s->goal_y)) &&
        walk_line(s, &l, DIRECT_STRAIGHT_FIRST, o))
        return DIRECT_STRAIGHT_FIRST;
    return DIRECT_NONE;
}

void tn__jps_direct_steps(const tn_search *s, int32_t *diag, int32_t *straight)
{
    const line l = line_of(s);
    *diag = l.nd;
    *straight = l.ns;
}

int32_t tn__jps_direct_path(const tn_search *s, tn_cell *out, int32_t cap)
{
    const line l = line_of(s);
    const int32_t n = l.nd + l.ns + 1;
    if (n <= cap) {
        bool free = walk_line(s, &l, s->direct, out);
        TN_ASSERT(free);
        (void)free;
    }
    return n;
}
