/* JPS+: Jump Point Search over precomputed jump distances (Rabin, "JPS+: An Extreme A* Speed
 * Optimization for Static Uniform Cost Grids", Game AI Pro 2, 2015), under the same rules as
 * jps.c (8 neighbours, no corner cutting, diagonal-first canonical paths).
 *
 * Table: for each cell and direction d, v > 0 is the distance to the next jump point met
 * moving along d, v <= 0 means -v free steps before the wall and no jump point. Straight entries
 * use jps.c's forced-neighbour rule; a diagonal entry stops at the first cell from which a
 * straight jump along either component finds a jump point. The search prunes directions as
 * jps.c does, and adds the goal (straight) or the cell level with the goal's row or column
 * (diagonal, "target jump point") when it lies within a run.
 *
 * Weighted maps (terrain costs): the table also stops a run at the cost-boundary cells that
 * stop a jump in its direction (grid.h, tn__boundary_info) and keeps their moves; the search
 * expands those moves at a boundary and prices a jump of k steps ending at cell t as
 * k * step * cost(t), as jps.c does. */
#include "search_internal.h"

#include <string.h>

#define TN_COOKIE_JUMPS 0x4a505331u
#define JT_MAX_SIDE 32767

struct tn_jump_table {
    tn_allocator alloc;
    uint64_t fingerprint; /* tn__map_fingerprint() of the map it was built from */
    int32_t w, h;
    int16_t *d;      /* cells * 8, direction order E, W, S, N, SE, NE, SW, NW */
    uint8_t *forced; /* per cell, tn__jps_forced() */
    /* weighted maps (NULL on uniform maps), one block of 10 bytes per cell: per cell, 1 on a
     * cost boundary; its stop bits and, 8 bytes per cell, its moves (tn__boundary_info) */
    uint8_t *bound, *bstop, *bmoves;
};

/* Next value along a run: 1 when the next cell is a jump point, else extend its entry. */
static inline int16_t extend(int16_t next, bool next_is_jp)
{
    if (next_is_jp)
        return 1;
    return (int16_t)(next > 0 ? next + 1 : next - 1);
}

tn_jump_table_def tn_jump_table_def_default(void)
{
    tn_jump_table_def d;
    memset(&d, 0, sizeof d);
    d.internal_cookie = TN_COOKIE_JUMP_TABLE;
    return d;
}

/* The forced bits and the runs of table t (sized, fingerprinted) from passability p and, on
 * weighted maps (wt), the stop bits of the cost boundaries. */
TN_INLINE void build_runs(tn_jump_table *t, const uint8_t *p, const uint8_t *bstop, const bool wt)
{
    const int32_t w = t->w, h = t->h;
    int16_t *d = t->d;
#define F(X, Y) tn__pass_at(p, w, h, (X), (Y))
/* weighted maps: a cost boundary that stops a jump arriving by move K (inside the map) */
#define B(X, Y, K) (wt && (bstop[(size_t)(Y) * (size_t)w + (size_t)(X)] >> (K)&1u))
#define D(X, Y, K) d[((size_t)(Y) * (size_t)w + (size_t)(X)) * 8 + (size_t)(K)]
    /* forced neighbours of each straight arrival (the pruning rules of jps.c) */
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            t->forced[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)tn__jps_forced(p, w, h, x, y);
    /* straight runs: E and W along rows, S and N along columns */
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = w - 1; x >= 0; x--) {
            int32_t nx = x + 1;
            D(x, y, 0) = !F(nx, y) ? 0
                                   : extend(nx < w ? D(nx, y, 0) : 0,
                                            (F(nx, y - 1) && !F(x, y - 1)) ||
                                                (F(nx, y + 1) && !F(x, y + 1)) || B(nx, y, 0));
        }
        for (int32_t x = 0; x < w; x++) {
            int32_t nx = x - 1;
            D(x, y, 1) = !F(nx, y) ? 0
                                   : extend(nx >= 0 ? D(nx, y, 1) : 0,
                                            (F(nx, y - 1) && !F(x, y - 1)) ||
                                                (F(nx, y + 1) && !F(x, y + 1)) || B(nx, y, 1));
        }
    }
    for (int32_t x = 0; x < w; x++) {
        for (int32_t y = h - 1; y >= 0; y--) {
            int32_t ny = y + 1;
            D(x, y, 2) = !F(x, ny) ? 0
                                   : extend(ny < h ? D(x, ny, 2) : 0,
                                            (F(x - 1, ny) && !F(x - 1, y)) ||
                                                (F(x + 1, ny) && !F(x + 1, y)) || B(x, ny, 2));
        }
        for (int32_t y = 0; y < h; y++) {
            int32_t ny = y - 1;
            D(x, y, 3) = !F(x, ny) ? 0
                                   : extend(ny >= 0 ? D(x, ny, 3) : 0,
                                            (F(x - 1, ny) && !F(x - 1, y)) ||
                                                (F(x + 1, ny) && !F(x + 1, y)) || B(x, ny, 3));
        }
    }
    /* diagonal runs, swept so that the next cell of the run is already done */
    for (int k = 4; k < 8; k++) {
        int32_t dx = tn__dir_dx[k], dy = tn__dir_dy[k];
        int kh = dx > 0 ? 0 : 1, kv = dy > 0 ? 2 : 3;
        for (int32_t j = 0; j < h; j++) {
            int32_t y = dy > 0 ? h - 1 - j : j;
            for (int32_t i = 0; i < w; i++) {
                int32_t x = dx > 0 ? w - 1 - i : i;
                int32_t nx = x + dx, ny = y + dy;
                if (!F(nx, y) || !F(x, ny) || !F(nx, ny)) {
                    D(x, y, k) = 0;
                    continue;
                }
                bool jp = D(nx, ny, kh) > 0 || D(nx, ny, kv) > 0 || B(nx, ny, k);
                D(x, y, k) = extend(D(nx, ny, k), jp);
            }
        }
    }
#undef B
#undef D
#undef F
}

tn_status tn_jump_table_build(const tn_jump_table_def *def, tn_jump_table **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    tn_allocator a;
    if (!def || def->internal_cookie != TN_COOKIE_JUMP_TABLE ||
        !tn__allocator_of(&def->allocator, &a) || !def->map)
        return TN_E_INVALID_ARG;
    const tn_map *map = def->map;
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    if (w > JT_MAX_SIDE || h > JT_MAX_SIDE)
        return TN_E_TOO_LARGE;
    tn_jump_table *t = tn__calloc(&a, sizeof *t);
    if (!t)
        return TN_E_NOMEM;
    t->alloc = a;
    size_t n = (size_t)w * (size_t)h;
    t->d = tn__alloc(&a, n * 8 * sizeof(int16_t));
    t->forced = tn__alloc(&a, n);
    if (!t->d || !t->forced) {
        tn__free(&a, t->d, n * 8 * sizeof(int16_t));
        tn__free(&a, t->forced, n);
        tn__free(&a, t, sizeof *t);
        return TN_E_NOMEM;
    }
    if (!tn_map_uniform_cost(map)) {
        t->bound = tn__calloc(&a, 10 * n);
        if (!t->bound) {
            tn__free(&a, t->d, n * 8 * sizeof(int16_t));
            tn__free(&a, t->forced, n);
            tn__free(&a, t, sizeof *t);
            return TN_E_NOMEM;
        }
    }
    t->fingerprint = tn__map_fingerprint(map);
    t->w = w;
    t->h = h;
    const uint8_t *p = tn_map_passable_data(map);
    const float *cost = tn_map_cost_data(map);
    if (t->bound) {
        t->bstop = t->bound + n;
        t->bmoves = t->bound + 2 * n;
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                size_t i = (size_t)y * (size_t)w + (size_t)x;
                if (!tn__cost_boundary(p, cost, w, h, x, y))
                    continue;
                t->bound[i] = 1;
                t->bstop[i] = (uint8_t)tn__boundary_info(p, cost, w, h, x, y, t->bmoves + 8 * i);
            }
        build_runs(t, p, t->bstop, true);
    } else {
        build_runs(t, p, NULL, false);
    }
    *out = t;
    return TN_OK;
}

void tn_jump_table_destroy(tn_jump_table *t)
{
    if (!t)
        return;
    tn_allocator a = t->alloc;
    tn__free(&a, t->d, (size_t)t->w * (size_t)t->h * 8 * sizeof(int16_t));
    tn__free(&a, t->forced, (size_t)t->w * (size_t)t->h);
    tn__free(&a, t->bound, 10 * (size_t)t->w * (size_t)t->h);
    tn__free(&a, t, sizeof *t);
}

size_t tn_jump_table_memory_bytes(const tn_jump_table *t)
{
    return t ? sizeof *t +
                   (size_t)t->w * (size_t)t->h * (8 * sizeof(int16_t) + 1 + (t->bound ? 10 : 0))
             : 0;
}

bool tn_jump_table_current(const tn_jump_table *t, const tn_map *map)
{
    return t && map && t->w == tn_map_width(map) && t->h == tn_map_height(map) &&
           t->fingerprint == tn__map_fingerprint(map);
}

static inline int32_t sgn(int32_t v)
{
    return (v > 0) - (v < 0);
}

static inline int32_t iabs(int32_t v)
{
    return v < 0 ? -v : v;
}

/* A generated node may be expanded soon: start loading its table entries and goal bounds. */
static inline void prefetch_node(const tn_search *s, int32_t i)
{
    TN_PREFETCH(s->q.jump_table->d + (size_t)i * 8);
    if (s->gb)
        TN_PREFETCH(tn__goal_boxes(s->gb, i));
}

static inline const int16_t *row_at(const tn_search *s, int32_t x, int32_t y)
{
    return s->q.jump_table->d + ((size_t)y * (size_t)s->w + (size_t)x) * 8;
}

/* Steps of the jump from (x, y) along k (entries `row`), 0 when it finds nothing. */
TN_INLINE int32_t jump_steps(const tn_search *s, const int16_t *row, int32_t x, int32_t y,
                             uint32_t k)
{
    int32_t v = row[k];
    int32_t dx = tn__dir_dx[k], dy = tn__dir_dy[k];
    int32_t gx = s->goal_x, gy = s->goal_y;
    if (k < 4) {
        /* the goal on this line, no further than the jump point or the wall */
        int32_t kk = -1;
        if (dy == 0 && gy == y && sgn(gx - x) == dx)
            kk = iabs(gx - x);
        else if (dx == 0 && gx == x && sgn(gy - y) == dy)
            kk = iabs(gy - y);
        if (kk > 0 && kk <= (v > 0 ? v : -v))
            return kk;
        return v > 0 ? v : 0;
    }
    /* diagonal: the cell level with the goal's row or column, when the run gets there first
     * and the goal is in reach of a straight jump from it (then the online search stops there
     * too) */
    if (sgn(gx - x) == dx && sgn(gy - y) == dy) {
        int32_t ax = iabs(gx - x), ay = iabs(gy - y);
        int32_t m = ax < ay ? ax : ay;
        if (m <= (v > 0 ? v : -v)) {
            int32_t tx = x + m * dx, ty = y + m * dy;
            const int16_t *trow = row_at(s, tx, ty);
            int32_t rest, reach;
            if (ax == ay) {
                rest = 0;
                reach = 0;
            } else if (ty == gy) {
                rest = iabs(gx - tx);
                reach = trow[dx > 0 ? 0 : 1];
            } else {
                rest = iabs(gy - ty);
                reach = trow[dy > 0 ? 2 : 3];
            }
            if (rest <= (reach > 0 ? reach : -reach))
                return m;
        }
    }
    return v > 0 ? v : 0;
}

/* The moves JPS expands at cell i reached by move k (see tn__jpsp_expand). */
static inline uint32_t next_moves(const tn_search *s, int32_t i, uint32_t k)
{
    return tn__jps_moves(k, s->q.jump_table->forced[i]);
}

/* Successor of (x, y) in direction k, if any (none when the goal bounds `bx` of the cell rule
 * the direction out).
 *
 * With goal bounds the jump also looks ahead: at the node it lands on (not the goal), of the
 * moves JPS would expand there, only those whose box holds the goal matter. None: no canonical
 * shortest path to the goal passes there, and the node is dropped. Only the move it arrived by:
 * expanding it would only go on the same way, so the jump goes on instead (the node is passed
 * over; the path rebuild walks straight through it). Otherwise the node is generated. */
TN_INLINE void jp_succ(tn_search *s, const int16_t *row, const int16_t *bx, int32_t x, int32_t y,
                       double g, uint32_t k, const bool wt)
{
    const int32_t gx = s->goal_x, gy = s->goal_y;
    if (bx && !tn__goal_allows(bx, k, gx, gy))
        return;
    const int32_t dx = tn__dir_dx[k], dy = tn__dir_dy[k];
    const double unit = k < 4 ? s->straight : s->diagonal;
    if (!bx) { /* no bounds: no look-ahead */
        int32_t steps = jump_steps(s, row, x, y, k);
        if (steps == 0)
            return;
        x += steps * dx;
        y += steps * dy;
        const uint32_t ti = (uint32_t)(y * s->w + x);
        /* weighted maps: every cell of the jump has the cost of its end (jps.c) */
        const double c = wt ? unit * (double)steps * (double)s->cost[ti] : unit * (double)steps;
        search_relax(s, ti, x, y, g + c, k);
        return;
    }
    int32_t total = 0;
    for (;;) {
        int32_t steps = jump_steps(s, row, x, y, k);
        if (steps == 0)
            return;
        total += steps;
        x += steps * dx;
        y += steps * dy;
        if (x == gx && y == gy)
            break;
        const int16_t *tb = tn__goal_boxes(s->gb, y * s->w + x);
        uint32_t allowed = 0;
        for (uint32_t m = next_moves(s, y * s->w + x, k); m; m &= m - 1) {
            uint32_t d = (uint32_t)tn__ctz32(m);
            allowed |= tn__goal_allows(tb, d, gx, gy) ? 1u << d : 0u;
        }
        if (allowed == 0)
            return;
        if (allowed != 1u << k)
            break;
        row = row_at(s, x, y);
    }
    prefetch_node(s, y * s->w + x);
    search_relax(s, (uint32_t)(y * s->w + x), x, y, g + unit * (double)total, k);
}

static inline const int16_t *bounds_at(const tn_search *s, int32_t x, int32_t y)
{
    return s->gb ? tn__goal_boxes(s->gb, y * s->w + x) : NULL;
}

void tn__jpsp_expand_start(tn_search *s)
{
    const int16_t *row = row_at(s, s->start_x, s->start_y);
    const int16_t *bx = bounds_at(s, s->start_x, s->start_y);
    for (uint32_t k = 0; k < 8; k++)
        jp_succ(s, row, bx, s->start_x, s->start_y, 0.0, k, s->q.jump_table->bound != NULL);
}

TN_INLINE void expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir, const bool wt)
{
    const int32_t i = y * s->w + x;
    const int16_t *row = row_at(s, x, y);
    const int16_t *bx = bounds_at(s, x, y);
    if (wt && s->q.jump_table->bound[i]) { /* a cost boundary: its moves (grid.h) */
        const uint32_t mask = s->q.jump_table->bmoves[8 * (size_t)i + dir];
        for (uint32_t m = mask; m; m &= m - 1) /* ascending move numbers */
            jp_succ(s, row, bx, x, y, g, (uint32_t)tn__ctz32(m), true);
        return;
    }
    /* the moves of tn__jps_moves() in a fixed order (it decides ties): after a straight move,
     * that move, then each forced side (-1, +1) with its straight move before its diagonal;
     * after a diagonal move, its horizontal part, vertical part, then itself. Within a side,
     * and for a diagonal arrival, that is the order of the move numbers. */
    uint32_t order[5], sets[3];
    int n = 0, nsets = 0;
    if (dir < 4) {
        order[n++] = dir;
        for (uint32_t side = 0; side < 2; side++)
            if (s->q.jump_table->forced[i] & TN_FORCED_BIT(dir, side))
                sets[nsets++] = tn__jps_side_moves(dir, side);
    } else {
        sets[nsets++] = tn__jps_moves(dir, 0);
    }
    for (int k = 0; k < nsets; k++)
        for (uint32_t m = sets[k]; m; m &= m - 1)
            order[n++] = (uint32_t)tn__ctz32(m);
    for (int k = 0; k < n; k++)
        jp_succ(s, row, bx, x, y, g, order[k], wt);
}

void tn__jpsp_expand(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir)
{
    expand(s, x, y, g, dir, false);
}

void tn__jpsp_expand_weighted(tn_search *s, int32_t x, int32_t y, double g, uint32_t dir)
{
    expand(s, x, y, g, dir, true);
}
