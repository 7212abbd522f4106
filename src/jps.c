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
 * Parents are not stored: a path is rebuilt by walking back from a node along its arrival
 * direction to the first expanded node whose cost plus the segment's length equals the node's
 * cost (search.c). */
#include "search_internal.h"

#include <string.h>

#define PAD 64

bool tn__jps_applicable(const tn__grid *g, const tn_query *q, int32_t goal_count)
{
    return q->moves.diagonal == TN_DIAGONAL_NO_CUT && g->uniform && !q->extra && goal_count == 1 &&
           !q->closest;
}

void tn__jps_free(tn_search *s)
{
    tn__free(&s->alloc, s->jps.rows, s->jps.cap_words * sizeof(uint64_t));
    memset(&s->jps, 0, sizeof s->jps);
}

size_t tn__jps_bytes(const tn_search *s)
{
    return s->jps.cap_words * sizeof(uint64_t);
}

static inline void bit_set(uint64_t *row, int32_t x)
{
    uint32_t b = (uint32_t)(x + PAD);
    row[b >> 6] |= 1ull << (b & 63);
}

static inline bool bit_get(const uint64_t *row, int32_t x)
{
    uint32_t b = (uint32_t)(x + PAD);
    return (row[b >> 6] >> (b & 63)) & 1u;
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ull;
}

uint64_t tn__grid_fingerprint(const tn_map *map, const tn__grid *g)
{
    uint64_t f = mix(0, (uint64_t)(uintptr_t)map);
    f = mix(f, (uint64_t)(uintptr_t)g->pass);
    f = mix(f, (uint64_t)(uint32_t)g->w << 32 | (uint32_t)g->h);
    f = mix(f, g->revision);
    return mix(f, g->passable_hash);
}

uint64_t tn__map_fingerprint(const tn_map *map)
{
    tn__grid g;
    tn__map_grid(map, &g);
    return tn__grid_fingerprint(map, &g);
}

void tn_search_forget(tn_search *s)
{
    if (s)
        s->jps.fingerprint = 0;
}

tn_status tn__jps_prepare(tn_search *s, const tn__grid *g)
{
    tn_jps_cache *c = &s->jps;
    uint64_t fp = tn__grid_fingerprint(s->map, g);
    if (c->rows && c->fingerprint == fp && c->w == s->w && c->h == s->h)
        return TN_OK;
    int32_t w = s->w, h = s->h;
    /* a scan may read one word past the last padding bit it stops at */
    size_t rw = ((size_t)w + 2 * PAD + 63) / 64 + 1;
    size_t cw = ((size_t)h + 2 * PAD + 63) / 64 + 1;
    size_t need = rw * ((size_t)h + 2) + cw * ((size_t)w + 2) + 1;
    if (need > c->cap_words) {
        tn__jps_free(s);
        c->rows = tn__alloc(&s->alloc, need * sizeof(uint64_t));
        if (!c->rows)
            return TN_E_NOMEM;
        c->cap_words = need;
    }
    c->row_words = rw;
    c->col_words = cw;
    c->cols = c->rows + rw * ((size_t)h + 2);
    memset(c->rows, 0, need * sizeof(uint64_t));
    const uint8_t *pass = s->pass;
    for (int32_t y = 0; y < h; y++) {
        uint64_t *row = c->rows + rw * (size_t)(y + 1);
        for (int32_t x = 0; x < w; x++)
            if (pass[(size_t)y * (size_t)w + (size_t)x]) {
                bit_set(row, x);
                bit_set(c->cols + cw * (size_t)(x + 1), y);
            }
    }
    c->fingerprint = fp;
    c->w = w;
    c->h = h;
    return TN_OK;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* At least 57 bits of `row` starting at bit b (bit 0 of the result = bit b): one unaligned
 * load. The allocation has a spare word at the end, so the load never leaves it. */
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
static inline int32_t scan_fwd(const uint64_t *a, const uint64_t *cur, const uint64_t *b, int32_t p,
                               int32_t *wall)
{
    int32_t pos = p + 1;
    for (;;) {
        uint32_t bit = (uint32_t)(pos + PAD);
        /* u, d: bit 0 = position pos - 1; c: bit 0 = position pos */
        uint64_t u = bits_at(a, bit - 1), d = bits_at(b, bit - 1), c = bits_at(cur, bit);
        uint64_t stop = (((u >> 1) & ~u) | ((d >> 1) & ~d) | ~c) & LOW56;
        if (stop) {
            int j = __builtin_ctzll(stop);
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
static inline int32_t scan_bwd(const uint64_t *a, const uint64_t *cur, const uint64_t *b, int32_t p,
                               int32_t *wall)
{
    int32_t pos = p - 1;
    for (;;) {
        uint32_t bit = (uint32_t)(pos + PAD);
        /* after the shift, bit 63 of c = position pos and bit 63 of u/d = position pos + 1;
         * bits 7..63 are valid */
        uint64_t u = bits_at(a, bit + 1 - BLOCK) << 7, d = bits_at(b, bit + 1 - BLOCK) << 7;
        uint64_t c = bits_at(cur, bit - BLOCK) << 7;
        uint64_t fu = (u & ~(u >> 1)) << 1, fd = (d & ~(d >> 1)) << 1;
        uint64_t stop = (fu | fd | ~c) & ~0xffull;
        if (stop) {
            int j = __builtin_clzll(stop);
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
    const uint64_t *rows, *cols;
    size_t rw, cw;
    int32_t gx, gy;
} jctx;

static inline const uint64_t *row_of(const jctx *j, int32_t y)
{
    return j->rows + j->rw * (size_t)(y + 1);
}

static inline const uint64_t *col_of(const jctx *j, int32_t x)
{
    return j->cols + j->cw * (size_t)(x + 1);
}

static inline bool cell_free(const jctx *j, int32_t x, int32_t y)
{
    return bit_get(row_of(j, y), x);
}

/* Straight jump from (x, y) along a row (dx = +-1): the x of the jump point, or -1 with the x
 * of the first blocked cell in `*wall`. `c` is the row of y. */
static inline int32_t jump_h_row(const jctx *j, const uint64_t *c, int32_t x, int32_t y, int32_t dx,
                                 int32_t *wall)
{
    const uint64_t *a = c - j->rw, *b = c + j->rw;
    int32_t r = dx > 0 ? scan_fwd(a, c, b, x, wall) : scan_bwd(a, c, b, x, wall);
    if (y == j->gy) {
        int32_t stop = r >= 0 ? r : *wall;
        if (dx > 0 ? (j->gx > x && j->gx <= stop) : (j->gx < x && j->gx >= stop))
            return j->gx;
    }
    return r;
}

static inline int32_t jump_h(const jctx *j, int32_t x, int32_t y, int32_t dx)
{
    int32_t wall = 0;
    return jump_h_row(j, row_of(j, y), x, y, dx, &wall);
}

/* Straight jump from (x, y) along a column (dy = +-1): the y of the jump point, or -1 with the
 * y of the first blocked cell in `*wall`. `c` is the column of x. */
static inline int32_t jump_v_col(const jctx *j, const uint64_t *c, int32_t x, int32_t y, int32_t dy,
                                 int32_t *wall)
{
    const uint64_t *a = c - j->cw, *b = c + j->cw;
    int32_t r = dy > 0 ? scan_fwd(a, c, b, y, wall) : scan_bwd(a, c, b, y, wall);
    if (x == j->gx) {
        int32_t stop = r >= 0 ? r : *wall;
        if (dy > 0 ? (j->gy > y && j->gy <= stop) : (j->gy < y && j->gy >= stop))
            return j->gy;
    }
    return r;
}

static inline int32_t jump_v(const jctx *j, int32_t x, int32_t y, int32_t dy)
{
    int32_t wall = 0;
    return jump_v_col(j, col_of(j, x), x, y, dy, &wall);
}

/* Diagonal jump from (x, y): the number of diagonal steps to the jump point, or 0. The row and
 * the column of the current cell advance by pointer steps. A step needs (x + dx, y), (x, y + dy)
 * and (x + dx, y + dy) free; after the first, the two straight scans from (x, y) have just
 * told whether the first two are blocked (their first wall is one cell away), so only the
 * diagonal cell is read. */
static int32_t jump_d(const jctx *j, int32_t x, int32_t y, int32_t dx, int32_t dy)
{
    const uint64_t *row = row_of(j, y), *col = col_of(j, x);
    const ptrdiff_t rstep = dy > 0 ? (ptrdiff_t)j->rw : -(ptrdiff_t)j->rw;
    const ptrdiff_t cstep = dx > 0 ? (ptrdiff_t)j->cw : -(ptrdiff_t)j->cw;
    bool sides = bit_get(row, x + dx) && bit_get(col, y + dy);
    for (int32_t k = 1;; k++) {
        if (!sides || !bit_get(row + rstep, x + dx))
            return 0;
        x += dx;
        y += dy;
        row += rstep;
        col += cstep;
        if (x == j->gx && y == j->gy)
            return k;
        int32_t wh = 0, wv = 0;
        if (jump_h_row(j, row, x, y, dx, &wh) >= 0 || jump_v_col(j, col, x, y, dy, &wv) >= 0)
            return k;
        sides = wh != x + dx && wv != y + dy;
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

static void succ_h(tn_search *s, const jctx *j, int32_t x, int32_t y, double g, int32_t dx)
{
    int32_t t = jump_h(j, x, y, dx);
    if (t < 0)
        return;
    int32_t k = dx > 0 ? t - x : x - t;
    search_relax(s, (uint32_t)(y * s->w + t), t, y, g + s->straight * (double)k, dir_of(dx, 0));
}

static void succ_v(tn_search *s, const jctx *j, int32_t x, int32_t y, double g, int32_t dy)
{
    int32_t t = jump_v(j, x, y, dy);
    if (t < 0)
        return;
    int32_t k = dy > 0 ? t - y : y - t;
    search_relax(s, (uint32_t)(t * s->w + x), x, t, g + s->straight * (double)k, dir_of(0, dy));
}

static void succ_d(tn_search *s, const jctx *j, int32_t x, int32_t y, double g, int32_t dx,
                   int32_t dy)
{
    int32_t k = jump_d(j, x, y, dx, dy);
    if (k == 0)
        return;
    int32_t tx = x + k * dx, ty = y + k * dy;
    search_relax(s, (uint32_t)(ty * s->w + tx), tx, ty, g + s->diagonal * (double)k,
                 dir_of(dx, dy));
}

static jctx jctx_of(const tn_search *s)
{
    jctx j = {s->jps.rows, s->jps.cols, s->jps.row_words, s->jps.col_words, s->goal_x, s->goal_y};
    return j;
}

void tn__jps_expand_start(tn_search *s)
{
    jctx j = jctx_of(s);
    int32_t x = s->start_x, y = s->start_y;
    succ_h(s, &j, x, y, 0.0, 1);
    succ_h(s, &j, x, y, 0.0, -1);
    succ_v(s, &j, x, y, 0.0, 1);
    succ_v(s, &j, x, y, 0.0, -1);
    succ_d(s, &j, x, y, 0.0, 1, 1);
    succ_d(s, &j, x, y, 0.0, 1, -1);
    succ_d(s, &j, x, y, 0.0, -1, 1);
    succ_d(s, &j, x, y, 0.0, -1, -1);
}

void tn__jps_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir)
{
    jctx j = jctx_of(s);
    int32_t dx = tn__dir_dx[dir], dy = tn__dir_dy[dir];
    if (dy == 0) {
        succ_h(s, &j, x, y, g, dx);
        for (int32_t sd = -1; sd <= 1; sd += 2)
            if (cell_free(&j, x, y + sd) && !cell_free(&j, x - dx, y + sd)) {
                succ_v(s, &j, x, y, g, sd);
                succ_d(s, &j, x, y, g, dx, sd);
            }
    } else if (dx == 0) {
        succ_v(s, &j, x, y, g, dy);
        for (int32_t sd = -1; sd <= 1; sd += 2)
            if (cell_free(&j, x + sd, y) && !cell_free(&j, x + sd, y - dy)) {
                succ_h(s, &j, x, y, g, sd);
                succ_d(s, &j, x, y, g, sd, dy);
            }
    } else {
        succ_h(s, &j, x, y, g, dx);
        succ_v(s, &j, x, y, g, dy);
        succ_d(s, &j, x, y, g, dx, dy);
    }
}

/* ---- the direct test ------------------------------------------------------------------
 * Every path from the start to the goal costs at least the octile distance (nd diagonal and ns
 * straight units, with nd = min(|dx|, |dy|), ns = max - min, since a diagonal costs no more
 * than two straight steps). A line of exactly those steps that is free (no blocked cell, no
 * cut corner) is therefore a shortest path. Two such lines are tried, all diagonal steps first
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
static bool walk_line(const tn_search *s, const line *l, int32_t order, tn_cell *out)
{
    const uint8_t *pass = s->pass;
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
            x += sx;
            y += sy;
            if (out)
                *out++ = (tn_cell){x, y};
        }
    }
    TN_ASSERT(x == s->goal_x && y == s->goal_y);
    return true;
}

int32_t tn__jps_direct(const tn_search *s, tn_cell *out, int32_t cap, bool *written)
{
    TN_ASSERT(s->diagonal <= 2.0 * s->straight);
    const line l = line_of(s);
    tn_cell *o = out && cap > l.nd + l.ns ? out : NULL;
    *written = o != NULL;
    if (walk_line(s, &l, DIRECT_DIAGONAL_FIRST, o))
        return DIRECT_DIAGONAL_FIRST;
    if (l.nd > 0 && l.ns > 0 && walk_line(s, &l, DIRECT_STRAIGHT_FIRST, o))
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
