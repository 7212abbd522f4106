

/* Hierarchical path search (hierarchy.h): sectors, transition cells on their borders, an
 * abstract graph of exact intra-sector costs, local updates from the map's change log, and
 * queries that search the abstract graph and refine the route sector by sector. */
#include "tilenav/hierarchy.h"

#include "grid.h"
#include "hierarchy_internal.h"
#include "internal.h"
#include "tilenav/search.h"

#include <math.h>
#include <string.h>

#define TN_COOKIE_HIERARCHY 0x48504131u
#define TN_COOKIE_HIERARCHY_CTX 0x48504331u

/* ---- a Dijkstra / A* inside one rectangle ---------------------------------------------
 * Local cells are numbered row-major inside the rectangle. The heap is a binary heap of
 * local cells keyed by key[], with positions in pos[] (-1: never queued, -2: closed). */

typedef struct local_search {
    const tn__grid *g;
    tn_rect r;
    int32_t lw, lh;
    double straight, diagonal;
    int moves; /* 4 or 8 */
    double *dist;
    int32_t *parent; /* local parent, or NULL */
    int32_t *heap, *pos;
    double *key; /* = dist for Dijkstra; separate for A* (NULL: dist) */
    int32_t n;
} local_search;

/* Heap order: the key, then (A*) the larger cost so far, which among the many cells of equal
 * f on open ground takes the one nearest the target and walks straight to it, then the local
 * index. */
static inline bool ls_less(const local_search *ls, int32_t a, int32_t b)
{
    if (!ls->key)
        return ls->dist[a] < ls->dist[b] || (ls->dist[a] == ls->dist[b] && a < b);
    const double *k = ls->key, *d = ls->dist;
    return k[a] < k[b] || (k[a] == k[b] && (d[a] > d[b] || (d[a] == d[b] && a < b)));
}

static void ls_up(local_search *ls, int32_t i)
{
    int32_t c = ls->heap[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!ls_less(ls, c, ls->heap[p]))
            break;
        ls->heap[i] = ls->heap[p];
        ls->pos[ls->heap[i]] = i;
        i = p;
    }
    ls->heap[i] = c;
    ls->pos[c] = i;
}

static int32_t ls_pop(local_search *ls)
{
    int32_t top = ls->heap[0], last = ls->heap[--ls->n];
    ls->pos[top] = -2;
    if (ls->n) {
        int32_t i = 0;
        for (;;) {
            int32_t c = 2 * i + 1;
            if (c >= ls->n)
                break;
            if (c + 1 < ls->n && ls_less(ls, ls->heap[c + 1], ls->heap[c]))
                c++;
            if (!ls_less(ls, ls->heap[c], last))
                break;
            ls->heap[i] = ls->heap[c];
            ls->pos[ls->heap[i]] = i;
            i = c;
        }
        ls->heap[i] = last;
        ls->pos[last] = i;
    }
    return top;
}

/* Run from local cell `src` (forward: costs of paths from src; reverse: to src). Stops when
 * `target` (a local cell, or -1) is closed, or when `stop` cells flagged in `want` (may be
 * NULL) are all closed. With `target` >= 0 the search is A* towards it (octile times
 * min_cost). Returns the number of cells closed. */
static int32_t ls_run(local_search *ls, int32_t src, bool reverse, int32_t target,
                      const uint8_t *want, int32_t stop)
{
    const int32_t lw = ls->lw, lh = ls->lh, n = lw * lh, W = ls->g->w;
    const uint8_t *pass = ls->g->pass;
    const float *cost = ls->g->cost;
    const bool uniform = ls->g->uniform;
    for (int32_t i = 0; i < n; i++) {
        ls->dist[i] = (double)INFINITY;
        ls->pos[i] = -1;
    }
    int32_t tx = 0, ty = 0;
    double hs = 0.0, hd = 0.0;
    if (target >= 0) {
        tx = target % lw;
        ty = target / lw;
        hs = ls->straight * (double)ls->g->min_cost;
        hd = ls->diagonal * (double)ls->g->min_cost;
    }
    ls->n = 0;
    ls->dist[src] = 0.0;
    if (ls->key)
        ls->key[src] = 0.0;
    if (ls->parent)
        ls->parent[src] = -1;
    ls->heap[ls->n++] = src;
    ls->pos[src] = 0;
    int32_t closed = 0, left = stop;
    while (ls->n) {
        int32_t c = ls_pop(ls);
        closed++;
        if (c == target)
            break;
        if (want && want[c] && --left <= 0)
            break;
        int32_t cx = c % lw, cy = c / lw;
        int32_t gx = ls->r.x0 + cx, gy = ls->r.y0 + cy;
        double dc = ls->dist[c];
        double cc = reverse ? (uniform ? 1.0 : (double)cost[gy * W + gx]) : 0.0;
        for (int k = 0; k < ls->moves; k++) {
            int32_t nx = cx + tn__dir_dx[k], ny = cy + tn__dir_dy[k];
            if (nx < 0 || ny < 0 || nx >= lw || ny >= lh)
                continue;
            int32_t gi = (ls->r.y0 + ny) * W + ls->r.x0 + nx;
            if (!pass[gi])
                continue;
            int32_t q = ny * lw + nx;
            if (ls->pos[q] == -2)
                continue;
            double base = ls->straight;
            if (k >= 4) {
                if (!pass[gy * W + ls->r.x0 + nx] || !pass[(ls->r.y0 + ny) * W + gx])
                    continue;
                base = ls->diagonal;
            }
            double step = reverse ? base * cc : (uniform ? base : base * (double)cost[gi]);
            double nd = dc + step;
            if (!(nd < ls->dist[q]))
                continue;
            ls->dist[q] = nd;
            if (ls->parent)
                ls->parent[q] = c;
            if (ls->key) {
                int32_t ax = nx > tx ? nx - tx : tx - nx, ay = ny > ty ? ny - ty : ty - ny;
                int32_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
                ls->key[q] = nd + (ls->moves == 8 ? hd * mn + hs * (mx - mn) : hs * (ax + ay));
            }
            if (ls->pos[q] < 0) {
                ls->heap[ls->n] = q;
                ls->pos[q] = ls->n++;
            }
            ls_up(ls, ls->pos[q]);
        }
    }
    return closed;
}

/* ---- building sectors ---------------------------------------------------------------- */

tn_hierarchy_def tn_hierarchy_def_default(void)
{
    tn_hierarchy_def d;
    memset(&d, 0, sizeof d);
    d.sector_size = 32;
    d.landmarks = 0;
    d.internal_cookie = TN_COOKIE_HIERARCHY;
    return d;
}

static void sector_free(const tn_hierarchy *h, sector *s)
{
    tn__free(&h->alloc, s->cell, (size_t)s->cap * sizeof *s->cell);
    tn__free(&h->alloc, s->dist, (size_t)s->cap * (size_t)s->cap * sizeof *s->dist);
    tn__free(&h->alloc, s->side, (size_t)4 * (size_t)h->S * sizeof *s->side);
    tn__free(&h->alloc, s->off, (size_t)(s->cap + 1) * sizeof *s->off);
    tn__free(&h->alloc, s->adj_j, (size_t)s->cap * (size_t)s->cap * sizeof *s->adj_j);
    tn__free(&h->alloc, s->adj_c, (size_t)s->cap * (size_t)s->cap * sizeof *s->adj_c);
    tn__free(&h->alloc, s->lab, (size_t)s->cap * sizeof *s->lab);
    memset(s, 0, sizeof *s);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The transition positions of an entrance [a, b] (positions along a border), into out;
 * returns how many. Shorter than TN_HPA_SHORT cells: one, in the middle (HPA*'s rule);
 * otherwise both ends, and in between so that no gap exceeds `gap` (0: ends only). */
#define TN_HPA_SHORT 6
static int32_t transitions(int32_t a, int32_t b, int32_t gap, int32_t *out)
{
    int32_t len = b - a + 1;
    if (len < TN_HPA_SHORT && (gap == 0 || len <= gap)) {
        out[0] = a + (len - 1) / 2;
        return 1;
    }
    int32_t k = 1;
    if (gap > 0)
        k = (len - 1 + gap - 1) / gap;
    for (int32_t i = 0; i <= k; i++)
        out[i] = a + (int32_t)(((int64_t)i * (len - 1) + k / 2) / k);
    return k + 1;
}

/* Collect the cells of sector s that are transition cells of its borders into h->tmp;
 * returns how many (sorted, unique). */
static int32_t sector_candidates(const tn_hierarchy *h, const tn__grid *g, int32_t s)
{
    const tn_rect r = sector_rect(h, s);
    const int32_t W = g->w;
    int32_t n = 0;
    int32_t pts[260];
    for (int side = 0; side < 4; side++) {
        /* the border's cells on this side (x, y from pos), the cell across (ox, oy) */
        int32_t len, fx, fy, stepx, stepy, ox, oy;
        switch (side) {
        case SIDE_TOP:
            if (r.y0 == 0)
                continue;
            len = r.x1 - r.x0, fx = r.x0, fy = r.y0, stepx = 1, stepy = 0, ox = 0, oy = -1;
            break;
        case SIDE_BOTTOM:
            if (r.y1 == h->h)
                continue;
            len = r.x1 - r.x0, fx = r.x0, fy = r.y1 - 1, stepx = 1, stepy = 0, ox = 0, oy = 1;
            break;
        case SIDE_LEFT:
            if (r.x0 == 0)
                continue;
            len = r.y1 - r.y0, fx = r.x0, fy = r.y0, stepx = 0, stepy = 1, ox = -1, oy = 0;
            break;
        default:
            if (r.x1 == h->w)
                continue;
            len = r.y1 - r.y0, fx = r.x1 - 1, fy = r.y0, stepx = 0, stepy = 1, ox = 1, oy = 0;
            break;
        }
        int32_t run = -1;
        for (int32_t p = 0; p <= len; p++) {
            bool open = false;
            if (p < len) {
                int32_t x = fx + stepx * p, y = fy + stepy * p;
                open = g->pass[y * W + x] && g->pass[(y + oy) * W + x + ox];
            }
            if (open && run < 0)
                run = p;
            if (!open && run >= 0) {
                int32_t m = transitions(run, p - 1, h->gap, pts);
                for (int32_t i = 0; i < m; i++)
                    h->tmp[n++] = (fy + stepy * pts[i]) * W + fx + stepx * pts[i];
                run = -1;
            }
        }
    }
    qsort(h->tmp, (size_t)n, sizeof *h->tmp, cmp_i32);
    int32_t u = 0;
    for (int32_t i = 0; i < n; i++)
        if (u == 0 || h->tmp[u - 1] != h->tmp[i])
            h->tmp[u++] = h->tmp[i];
    return u;
}

/* ---- matrix rows ----------------------------------------------------------------------
 * On maps of uniform cost a path of a straight and b diagonal steps costs a * straight +
 * b * diagonal, and the rows' Dijkstra keeps (a, b) per cell and computes that value the same
 * way for every cell: the cost of a cell is then a function of its exact distance (two
 * different (a, b) of equal value give the same double), whatever the search's order, its
 * source's side (symmetric) or where it stopped. That lets an update recompute only some
 * pairs of a matrix and still match a fresh build bit for bit, and lets the search be a
 * bucket queue (buckets one straight step wide: a bucket's cells are final when it is
 * reached, in any order). Other maps use ls_run(), whose costs are the least left-to-right
 * double sums over the paths (the same whatever the stop). */

static inline double canon(double s, double d, uint32_t ab)
{
    return (double)(ab & 0xffffu) * s + (double)(ab >> 16) * d;
}

/* The legal moves out of each local cell of r (bit k: move k of tn__dir_dx/dy stays in r,
 * enters a passable cell and, diagonal, passes two passable side cells; 0 on blocked cells),
 * into mv. */
static void sector_moves(const tn__grid *g, const tn_rect r, int moves, uint8_t *mv)
{
    const int32_t W = g->w, lw = r.x1 - r.x0, lh = r.y1 - r.y0;
    for (int32_t y = 0; y < lh; y++)
        for (int32_t x = 0; x < lw; x++) {
            const uint8_t *p = g->pass + (r.y0 + y) * W + r.x0 + x;
            unsigned m = 0;
            if (*p)
                for (int k = 0; k < moves; k++) {
                    int32_t nx = x + tn__dir_dx[k], ny = y + tn__dir_dy[k];
                    if (nx < 0 || ny < 0 || nx >= lw || ny >= lh ||
                        !p[tn__dir_dy[k] * W + tn__dir_dx[k]])
                        continue;
                    if (k >= 4 && (!p[tn__dir_dx[k]] || !p[tn__dir_dy[k] * W]))
                        continue;
                    m |= 1u << k;
                }
            mv[y * lw + x] = (uint8_t)m;
        }
}

/* The lowest set bit of a nonzero byte. */
static inline unsigned tn__ctz8(unsigned m)
{
    static const uint8_t low[16] = {0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};
    return m & 15u ? low[m & 15u] : 4u + low[m >> 4];
}

/* From the local cells src[0 .. nsrc) at cost 0, over the moves mv (sector_moves); stops
 * when `stop` cells flagged in `want` (may be NULL) are closed. */
static void bq_run(local_search *ls, const uint8_t *mv, uint32_t *ab, int32_t *bq,
                   const int32_t *src, int32_t nsrc, const uint8_t *want, int32_t stop)
{
    const int32_t lw = ls->lw, n = lw * ls->lh;
    const double s = ls->straight, d = ls->diagonal, inv = 1.0 / ls->straight;
    double *dist = ls->dist;
    int32_t *pos = ls->pos; /* -1 never queued, -2 closed, else its bucket */
    int32_t off[8];
    for (int k = 0; k < 8; k++)
        off[k] = tn__dir_dy[k] * lw + tn__dir_dx[k];
    for (int32_t i = 0; i < n; i++) {
        dist[i] = (double)INFINITY;
        pos[i] = -1;
    }
    int32_t cnt[3] = {0, 0, 0}, total = 0, left = stop;
    for (int32_t i = 0; i < nsrc; i++) {
        dist[src[i]] = 0.0;
        ab[src[i]] = 0;
        pos[src[i]] = 0;
        bq[cnt[0]++] = src[i];
        total++;
    }
    for (int32_t cur = 0; total > 0; cur++) {
        int32_t *b = bq + (size_t)(cur % 3) * (size_t)n, *cn = &cnt[cur % 3];
        while (*cn > 0) {
            int32_t c = b[--*cn];
            total--;
            if (pos[c] == -2)
                continue;
            pos[c] = -2;
            if (want && want[c] && --left <= 0)
                return;
            const uint32_t abc = ab[c];
            /* closed neighbours cost no more than c: the test below skips them */
            for (unsigned m = mv[c]; m;) {
                const unsigned k = tn__ctz8(m);
                m &= m - 1u;
                const int32_t q = c + off[k];
                const uint32_t nab = abc + (k >= 4 ? 0x10000u : 1u);
                const double nd = canon(s, d, nab);
                if (!(nd < dist[q]))
                    continue;
                dist[q] = nd;
                ab[q] = nab;
                /* the bucket (one straight step wide; a value on a bucket's edge may land in
                 * either: the buckets' order still closes every cell at its cost) */
                int32_t bk = (int32_t)(nd * inv);
                bk = bk < cur ? cur : bk;
                if (pos[q] != bk) {
                    pos[q] = bk;
                    bq[(size_t)(bk % 3) * (size_t)n + (size_t)cnt[bk % 3]++] = q;
                    total++;
                }
            }
        }
    }
}

static inline int32_t local_of(const tn_rect r, int32_t lw, int32_t W, int32_t cell)
{
    return (cell / W - r.y0) * lw + cell % W - r.x0;
}

/* Lower bounds, over the paths inside r that touch the rectangle e (the sector's changed
 * cells grown by one, inside r), of the cost from each node to e (lbr) and from e to each
 * node (lbf); INFINITY when no path inside r meets e. They hold before and after the change:
 * a path from outside e first meets e at a cell next to no changed cell (which no change
 * touched, passable then and now), and a step that enters a changed cell or turns around one's
 * corner starts in e; so a search on today's grid from e's passable cells at cost 0 gives
 * them. On uniform maps one search (the same costs both ways). */
static void touch_bounds(tn_hierarchy *h, const tn__grid *g, const sector *sc, const tn_rect r,
                         const tn_rect e)
{
    const int32_t W = g->w, lw = r.x1 - r.x0, lh = r.y1 - r.y0;
    const int moves = h->moves.diagonal == TN_DIAGONAL_NEVER ? 4 : 8;
    const double st = tn_moves_straight(&h->moves), dg = tn_moves_diagonal(&h->moves);
    local_search ls = {g, r, lw, lh, st, dg, moves, h->sd, NULL, h->heap, h->hpos, NULL, 0};
    int32_t *src = h->tmp + 4 * h->S, nsrc = 0; /* after the candidates */
    for (int32_t y = e.y0; y < e.y1; y++)
        for (int32_t x = e.x0; x < e.x1; x++)
            if (g->pass[y * W + x])
                src[nsrc++] = (y - r.y0) * lw + x - r.x0;
    for (int32_t i = 0; i < sc->n; i++)
        h->want[local_of(r, lw, W, sc->cell[i])] = 1;
    for (int dir = 0; dir < (g->uniform ? 1 : 2); dir++) {
        if (g->uniform) {
            bq_run(&ls, h->mv, h->ab, h->bq, src, nsrc, h->want, sc->n);
        } else {
            const bool reverse = dir == 0;
            for (int32_t i = 0; i < lw * lh; i++) {
                ls.dist[i] = (double)INFINITY;
                ls.pos[i] = -1;
            }
            ls.n = 0;
            for (int32_t i = 0; i < nsrc; i++) {
                ls.dist[src[i]] = 0.0;
                ls.heap[ls.n] = src[i];
                ls.pos[src[i]] = ls.n++;
                ls_up(&ls, ls.pos[src[i]]);
            }
            int32_t left = sc->n;
            while (ls.n) {
                int32_t c = ls_pop(&ls);
                if (h->want[c] && --left <= 0)
                    break;
                int32_t cx = c % lw, cy = c / lw, gx = r.x0 + cx, gy = r.y0 + cy;
                double dc = ls.dist[c], cc = (double)g->cost[gy * W + gx];
                for (int k = 0; k < moves; k++) {
                    int32_t nx = cx + tn__dir_dx[k], ny = cy + tn__dir_dy[k];
                    if (nx < 0 || ny < 0 || nx >= lw || ny >= lh)
                        continue;
                    int32_t gi = (r.y0 + ny) * W + r.x0 + nx;
                    if (!g->pass[gi])
                        continue;
                    int32_t q = ny * lw + nx;
                    if (ls.pos[q] == -2)
                        continue;
                    double base = st;
                    if (k >= 4) {
                        if (!g->pass[gy * W + r.x0 + nx] || !g->pass[(r.y0 + ny) * W + gx])
                            continue;
                        base = dg;
                    }
                    double nd = dc + base * (reverse ? cc : (double)g->cost[gi]);
                    if (!(nd < ls.dist[q]))
                        continue;
                    ls.dist[q] = nd;
                    if (ls.pos[q] < 0) {
                        ls.heap[ls.n] = q;
                        ls.pos[q] = ls.n++;
                    }
                    ls_up(&ls, ls.pos[q]);
                }
            }
        }
        double *out = dir == 0 ? h->lbr : h->lbf;
        for (int32_t i = 0; i < sc->n; i++)
            out[i] = ls.dist[local_of(r, lw, W, sc->cell[i])];
    }
    for (int32_t i = 0; i < sc->n; i++)
        h->want[local_of(r, lw, W, sc->cell[i])] = 0;
    if (g->uniform && sc->n > 0) /* (a sector without nodes may have no arrays) */
        memcpy(h->lbf, h->lbr, (size_t)sc->n * sizeof *h->lbf);
}

/* Grow the per-sector scratch to sectors of m nodes. */
static tn_status reserve_scratch(tn_hierarchy *h, int32_t m)
{
    if (m <= h->scap)
        return TN_OK;
    const size_t o = (size_t)h->scap, oo = o * o, n = (size_t)m, nn = n * n;
    tn__free(&h->alloc, h->ocell, o * sizeof *h->ocell);
    tn__free(&h->alloc, h->omap, o * sizeof *h->omap);
    tn__free(&h->alloc, h->deg, o * sizeof *h->deg);
    tn__free(&h->alloc, h->odist, oo * sizeof *h->odist);
    tn__free(&h->alloc, h->need, oo);
    tn__free(&h->alloc, h->dd, oo * sizeof *h->dd);
    tn__free(&h->alloc, h->mn, o * sizeof *h->mn);
    tn__free(&h->alloc, h->lbr, o * sizeof *h->lbr);
    tn__free(&h->alloc, h->lbf, o * sizeof *h->lbf);
    h->ocell = tn__alloc(&h->alloc, n * sizeof *h->ocell);
    h->omap = tn__alloc(&h->alloc, n * sizeof *h->omap);
    h->deg = tn__alloc(&h->alloc, n * sizeof *h->deg);
    h->odist = tn__alloc(&h->alloc, nn * sizeof *h->odist);
    h->need = tn__alloc(&h->alloc, nn);
    h->dd = tn__alloc(&h->alloc, nn * sizeof *h->dd);
    h->mn = tn__alloc(&h->alloc, n * sizeof *h->mn);
    h->lbr = tn__alloc(&h->alloc, n * sizeof *h->lbr);
    h->lbf = tn__alloc(&h->alloc, n * sizeof *h->lbf);
    h->scap = m;
    if (!h->ocell || !h->omap || !h->deg || !h->odist || !h->need || !h->dd || !h->mn || !h->lbr ||
        !h->lbf) {
        tn__free(&h->alloc, h->ocell, n * sizeof *h->ocell);
        tn__free(&h->alloc, h->omap, n * sizeof *h->omap);
        tn__free(&h->alloc, h->deg, n * sizeof *h->deg);
        tn__free(&h->alloc, h->odist, nn * sizeof *h->odist);
        tn__free(&h->alloc, h->need, nn);
        tn__free(&h->alloc, h->dd, nn * sizeof *h->dd);
        tn__free(&h->alloc, h->mn, n * sizeof *h->mn);
        tn__free(&h->alloc, h->lbr, n * sizeof *h->lbr);
        tn__free(&h->alloc, h->lbf, n * sizeof *h->lbf);
        h->ocell = h->omap = h->deg = NULL;
        h->odist = NULL;
        h->need = NULL;
        h->dd = h->mn = h->lbr = h->lbf = NULL;
        h->scap = 0;
        return TN_E_NOMEM;
    }
    return TN_OK;
}

/* The pruned edge lists of a sector from its matrix: edge i -> j unless a third node k gives
 * dist[i][k] + dist[k][j] <= dist[i][j] (in doubles), both parts below dist[i][j]. For each
 * row, the least sum over k of every column at once (the diagonal set to INFINITY rules out
 * k = j). The parts' test only matters where a sum absorbs a part (costs past 2^53 times the
 * cheapest step, as terrain of 1e17 beside 1): there i -> j and i -> k of equal cost, with
 * k -> j absorbed, would each be pruned by the other and the route lost. */
static void sector_prune(tn_hierarchy *h, sector *sc)
{
    const int32_t n = sc->n;
    const size_t nz = (size_t)n;
    double *D = h->dd, *mn = h->mn;
    for (size_t i = 0; i < nz * nz; i++)
        D[i] = (double)sc->dist[i];
    for (size_t i = 0; i < nz; i++)
        D[i * nz + i] = (double)INFINITY;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        sc->off[i] = m;
        const double *di = D + (size_t)i * nz;
        for (int32_t j = 0; j < n; j++)
            mn[j] = (double)INFINITY;
        for (int32_t k = 0; k < n; k++) {
            const double a = di[k];
            if (k == i || a == (double)INFINITY)
                continue;
            const double *dk = D + (size_t)k * nz;
            for (int32_t j = 0; j < n; j++) {
                double v = a < di[j] && dk[j] < di[j] ? a + dk[j] : (double)INFINITY;
                mn[j] = v < mn[j] ? v : mn[j];
            }
        }
        for (int32_t j = 0; j < n; j++) {
            if (j == i || !isfinite(di[j]) || mn[j] <= di[j])
                continue;
            sc->adj_j[m] = (uint16_t)j;
            sc->adj_c[m++] = sc->dist[(size_t)i * nz + (size_t)j];
        }
    }
    sc->off[n] = m;
}

/* Rebuild sector s: its nodes, side tables, cost matrix and edge lists. With `ch` (the
 * changed cells, from the map's change log) and a sector built before, only the matrix
 * pairs that the change may have altered are computed again: the pairs with a new node,
 * and the pairs of kept nodes some path of which within their old cost could meet the
 * changed cells (touch_bounds); the others keep their values, which a fresh build would
 * compute the same (see canon). *changed tells whether the nodes or the matrix changed. */
static tn_status sector_build(tn_hierarchy *h, const tn__grid *g, int32_t s, const tn_rect *ch,
                              bool *changed)
{
    sector *sc = &h->sec[s];
    const tn_rect r = sector_rect(h, s);
    const int32_t n = sector_candidates(h, g, s), S = h->S, W = g->w;
    const int32_t lw = r.x1 - r.x0, lh = r.y1 - r.y0;
    const bool inc = ch && sc->off && sc->side;
    const int32_t on = inc ? sc->n : 0;
    tn_status st = reserve_scratch(h, n > on ? n : on);
    if (st < 0)
        return st;
    *changed = true;
    /* the changed cells grown by one, inside the sector (empty: none of its cells changed) */
    tn_rect e = {0, 0, 0, 0};
    if (inc && ch->x0 < r.x1 && ch->x1 > r.x0 && ch->y0 < r.y1 && ch->y1 > r.y0) {
        e.x0 = ch->x0 - 1 > r.x0 ? ch->x0 - 1 : r.x0;
        e.y0 = ch->y0 - 1 > r.y0 ? ch->y0 - 1 : r.y0;
        e.x1 = ch->x1 + 1 < r.x1 ? ch->x1 + 1 : r.x1;
        e.y1 = ch->y1 + 1 < r.y1 ? ch->y1 + 1 : r.y1;
    }
    if (inc) {
        const bool inside = e.x1 > e.x0;
        if (!inside && n == on &&
            (n == 0 || memcmp(sc->cell, h->tmp, (size_t)n * sizeof *h->tmp) == 0)) {
            *changed = false;
            return TN_OK;
        }
        if (on > 0) { /* (a sector without nodes may have no arrays) */
            memcpy(h->ocell, sc->cell, (size_t)on * sizeof *h->ocell);
            memcpy(h->odist, sc->dist, (size_t)on * (size_t)on * sizeof *h->odist);
        }
    }
    if (n > sc->cap || !sc->off) {
        sector nw;
        memset(&nw, 0, sizeof nw);
        nw.cap = n;
        nw.side = sc->side;
        const size_t nn = (size_t)n * (size_t)n;
        nw.cell = tn__alloc(&h->alloc, (size_t)n * sizeof *nw.cell);
        nw.dist = tn__alloc(&h->alloc, nn * sizeof *nw.dist);
        nw.off = tn__alloc(&h->alloc, (size_t)(n + 1) * sizeof *nw.off);
        nw.adj_j = tn__alloc(&h->alloc, nn * sizeof *nw.adj_j);
        nw.adj_c = tn__alloc(&h->alloc, nn * sizeof *nw.adj_c);
        nw.lab = tn__alloc(&h->alloc, (size_t)n * sizeof *nw.lab);
        sc->side = NULL;
        sector_free(h, sc);
        *sc = nw;
        if (!nw.cell || !nw.dist || !nw.off || !nw.adj_j || !nw.adj_c || !nw.lab) {
            sector_free(h, sc); /* empty (cap 0): a later update allocates again */
            return TN_E_NOMEM;
        }
    }
    if (!sc->side) {
        sc->side = tn__alloc(&h->alloc, (size_t)4 * (size_t)S * sizeof *sc->side);
        if (!sc->side)
            return TN_E_NOMEM;
    }
    sc->n = n;
    memcpy(sc->cell, h->tmp, (size_t)n * sizeof *sc->cell);
    for (int32_t i = 0; i < 4 * S; i++)
        sc->side[i] = -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t x = sc->cell[i] % W, y = sc->cell[i] / W;
        if (y == r.y0)
            sc->side[SIDE_TOP * S + x - r.x0] = (int16_t)i;
        if (y == r.y1 - 1)
            sc->side[SIDE_BOTTOM * S + x - r.x0] = (int16_t)i;
        if (x == r.x0)
            sc->side[SIDE_LEFT * S + y - r.y0] = (int16_t)i;
        if (x == r.x1 - 1)
            sc->side[SIDE_RIGHT * S + y - r.y0] = (int16_t)i;
    }
    /* omap[i]: node i's index among the old nodes, -1 when new */
    int32_t *omap = h->omap;
    for (int32_t i = 0, k = 0; i < n; i++) {
        while (k < on && h->ocell[k] < sc->cell[i])
            k++;
        omap[i] = k < on && h->ocell[k] == sc->cell[i] ? k : -1;
    }
    const size_t nz = (size_t)n;
    uint8_t *need = h->need;
    const bool sym = g->uniform;
    if (sym)
        sector_moves(g, r, h->moves.diagonal == TN_DIAGONAL_NEVER ? 4 : 8, h->mv);
    /* on uniform maps (now and at the last update: a change of that rebuilds all) a path the
     * change alters, between two nodes on unchanged cells, enters a changed cell and leaves it
     * (two steps inside e, after it first meets e and before it last leaves it) or turns
     * around one's corner (a diagonal step inside e): it costs that much more than the
     * bounds */
    double extra = 0.0;
    uint8_t *inch = (uint8_t *)h->deg; /* the nodes on changed cells (deg is used later) */
    if (inc && e.x1 > e.x0) {
        touch_bounds(h, g, sc, r, e);
        const double s1 = tn_moves_straight(&h->moves), s2 = tn_moves_diagonal(&h->moves);
        extra = !sym                                                      ? 0.0
                : h->moves.diagonal == TN_DIAGONAL_NEVER || s2 > 2.0 * s1 ? 2.0 * s1
                                                                          : s2;
        for (int32_t i = 0; i < n; i++) {
            int32_t x = sc->cell[i] % W, y = sc->cell[i] / W;
            inch[i] = x >= ch->x0 && x < ch->x1 && y >= ch->y0 && y < ch->y1;
        }
    }
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++) {
            size_t ij = (size_t)i * nz + (size_t)j;
            if (i == j) {
                sc->dist[ij] = 0.0f;
                need[ij] = 0;
                continue;
            }
            if (!inc || omap[i] < 0 || omap[j] < 0) {
                need[ij] = 1;
                continue;
            }
            float old = h->odist[(size_t)omap[i] * (size_t)on + (size_t)omap[j]];
            sc->dist[ij] = old;
            need[ij] = 0;
            if (e.x1 > e.x0) {
                double lb = h->lbr[i] + h->lbf[j] + (inch[i] || inch[j] ? 0.0 : extra);
                need[ij] = lb < (double)INFINITY && lb <= (double)old + 1e-3 + 1e-4 * (double)old;
            }
        }
    /* the rows to run: on uniform maps a pair may come from either end, so pick greedily
     * the node with the most pairs left (lowest index first: a full build runs rows 0, 1, ..
     * each for the nodes after it); elsewhere row i gives the pairs (i, j) */
    local_search ls = {g,
                       r,
                       lw,
                       lh,
                       tn_moves_straight(&h->moves),
                       tn_moves_diagonal(&h->moves),
                       h->moves.diagonal == TN_DIAGONAL_NEVER ? 4 : 8,
                       h->sd,
                       NULL,
                       h->heap,
                       h->hpos,
                       NULL,
                       0};
    int32_t *deg = h->deg;
    if (sym) {
        for (int32_t i = 0; i < n; i++) {
            deg[i] = 0;
            for (int32_t j = 0; j < n; j++)
                if (j != i &&
                    (need[(size_t)i * nz + (size_t)j] || need[(size_t)j * nz + (size_t)i])) {
                    need[(size_t)i * nz + (size_t)j] = need[(size_t)j * nz + (size_t)i] = 1;
                    deg[i]++;
                }
        }
    }
    for (int32_t next = 0;;) {
        int32_t u = -1, want = 0;
        if (sym) {
            for (int32_t i = 0; i < n; i++)
                if (deg[i] > 0 && (u < 0 || deg[i] > deg[u]))
                    u = i;
        } else {
            for (; next < n && u < 0; next++)
                for (int32_t j = 0; j < n && u < 0; j++)
                    if (need[(size_t)next * nz + (size_t)j])
                        u = next;
        }
        if (u < 0)
            break;
        uint8_t *nu = need + (size_t)u * nz;
        for (int32_t j = 0; j < n; j++)
            if (nu[j]) {
                h->want[local_of(r, lw, W, sc->cell[j])] = 1;
                want++;
            }
        int32_t lu = local_of(r, lw, W, sc->cell[u]);
        if (sym)
            bq_run(&ls, h->mv, h->ab, h->bq, &lu, 1, h->want, want);
        else
            ls_run(&ls, lu, false, -1, h->want, want);
        for (int32_t j = 0; j < n; j++) {
            if (!nu[j])
                continue;
            int32_t lj = local_of(r, lw, W, sc->cell[j]);
            h->want[lj] = 0;
            /* closed cells hold their final cost; the others were not reached in time only
             * when unreachable (the search ran until the queue emptied) */
            float d = (float)ls.dist[lj];
            sc->dist[(size_t)u * nz + (size_t)j] = d;
            nu[j] = 0;
            if (sym) {
                sc->dist[(size_t)j * nz + (size_t)u] = d;
                need[(size_t)j * nz + (size_t)u] = 0;
                deg[j]--;
            }
        }
        if (sym)
            deg[u] = 0;
    }
    if (inc && n == on &&
        (n == 0 || (memcmp(sc->cell, h->ocell, nz * sizeof *sc->cell) == 0 &&
                    memcmp(sc->dist, h->odist, nz * nz * sizeof *sc->dist) == 0))) {
        *changed = false; /* the edge lists too: they follow from the matrix */
        return TN_OK;
    }
    sector_prune(h, sc);
    return TN_OK;
}

static void rebase(tn_hierarchy *h)
{
    int32_t t = 0;
    int64_t e = 0;
    for (int32_t s = 0; s < h->nsec; s++) {
        h->base[s] = t;
        t += h->sec[s].n;
        e += h->sec[s].off ? h->sec[s].off[h->sec[s].n] : 0;
    }
    h->edges = e;
    h->base[h->nsec] = t;
}

/* ---- components ----------------------------------------------------------------------
 * Every node has a label (sector.lab) in a union-find forest over labels (lpar, lsz): two
 * nodes that the abstract graph joins have labels with the same root, so a query whose start
 * and goal reach only nodes of other roots has no path, and says so before any search.
 * Labels are given per sector, one to each class of nodes the sector joins, and united
 * across borders. label_all() labels the whole graph so, exactly (one root per connected
 * part): at a build, at tn_hierarchy_refresh_landmarks(), and when an update would run out of
 * labels (2N + 64 of them, N nodes; on the 4096 x 4096 bench map, 179k nodes, a build uses
 * 45k, an update after a 2x2 wall about 2: about 10 ms once per 150,000 updates). An update gives
 * every sector it visits fresh labels and unites them across its borders, so every edge of the new
 * graph joins labels of one root again: a join is seen at once. A split is not: both parts keep one
 * root, and a query across it searches, as it would without labels, until the next exact labelling.
 * Queries only read the forest (find without compression); union by size keeps its trees
 * log2(labels) deep. */

static int32_t lab_root(const int32_t *par, int32_t l)
{
    while (par[l] != l)
        l = par[l];
    return l;
}

static int32_t lab_find(tn_hierarchy *h, int32_t l)
{
    int32_t *par = h->lpar;
    while (par[l] != l) {
        par[l] = par[par[l]];
        l = par[l];
    }
    return l;
}

static void lab_union(tn_hierarchy *h, int32_t a, int32_t b)
{
    a = lab_find(h, a);
    b = lab_find(h, b);
    if (a == b)
        return;
    if (h->lsz[a] < h->lsz[b]) {
        int32_t t = a;
        a = b;
        b = t;
    }
    h->lpar[b] = a;
    h->lsz[a] += h->lsz[b];
}

/* Fresh labels for the nodes of sector s, one per class of nodes that the sector joins (a
 * finite cost: an equivalence, since moves are symmetric), so that an update uses a few. */
static void lab_fresh(tn_hierarchy *h, int32_t s)
{
    sector *sc = &h->sec[s];
    const int32_t n = sc->n;
    for (int32_t i = 0; i < n; i++)
        sc->lab[i] = -1;
    for (int32_t i = 0; i < n; i++) {
        if (sc->lab[i] >= 0)
            continue;
        TN_ASSERT(h->nlab < h->lcap);
        const int32_t l = h->nlab++;
        h->lpar[l] = l;
        h->lsz[l] = 1;
        sc->lab[i] = l;
        const float *row = sc->dist + (size_t)i * (size_t)n;
        for (int32_t j = i + 1; j < n; j++)
            if (isfinite(row[j]))
                sc->lab[j] = l;
    }
}

/* Unite the labels of sector s's nodes with those of the nodes facing them across its
 * borders (the side steps of expand()). */
static void lab_unite(tn_hierarchy *h, int32_t s)
{
    const sector *sc = &h->sec[s];
    const int32_t W = h->w, x0 = (s % h->sx) * h->S, y0 = (s / h->sx) * h->S;
    for (int32_t i = 0; i < sc->n; i++)
        for (int k = 0; k < 4; k++) {
            int32_t o = -1;
            const int32_t l = tn__hpa_facing(h, s, x0, y0, sc->cell[i] % W, sc->cell[i] / W, k, &o);
            if (l >= 0)
                lab_union(h, sc->lab[i], h->sec[o].lab[l]);
        }
}

/* Label the whole graph exactly, in a forest of 2N + 64 labels (room for updates). */
static void label_all(tn_hierarchy *h)
{
    const int32_t N = h->base[h->nsec];
    const int64_t want = 2 * (int64_t)N + 64;
    if (h->lcap < N + 64 || h->lcap > 2 * want || !h->lab_ok) {
        tn__free(&h->alloc, h->lpar, (size_t)h->lcap * sizeof *h->lpar);
        tn__free(&h->alloc, h->lsz, (size_t)h->lcap * sizeof *h->lsz);
        h->lcap = 0;
        h->lab_ok = false;
        if (want > INT32_MAX)
            return;
        h->lpar = tn__alloc(&h->alloc, (size_t)want * sizeof *h->lpar);
        h->lsz = tn__alloc(&h->alloc, (size_t)want * sizeof *h->lsz);
        if (!h->lpar || !h->lsz) {
            tn__free(&h->alloc, h->lpar, (size_t)want * sizeof *h->lpar);
            tn__free(&h->alloc, h->lsz, (size_t)want * sizeof *h->lsz);
            h->lpar = h->lsz = NULL;
            return; /* queries go without (lab_ok false) */
        }
        h->lcap = (int32_t)want;
    }
    h->nlab = 0;
    for (int32_t s = 0; s < h->nsec; s++)
        lab_fresh(h, s);
    for (int32_t s = 0; s < h->nsec; s++)
        lab_unite(h, s);
    for (int32_t l = 0; l < h->nlab; l++) /* every label straight to its root */
        h->lpar[l] = lab_find(h, l);
    h->lab_ok = h->lab_exact = true;
}

/* After an update visited sectors [sx0, sx1] x [sy0, sy1]: fresh labels for their nodes,
 * united along their edges (or, when the labels would run out, an exact labelling). */
/* Fresh labels for the `count` sectors listed, then their unions across every border. */
static void label_sectors(tn_hierarchy *h, const int32_t *list, int32_t count)
{
    int64_t need = 0;
    for (int32_t k = 0; k < count; k++)
        need += h->sec[list[k]].n;
    if (!h->lab_ok || h->nlab + need > h->lcap) {
        label_all(h);
        return;
    }
    for (int32_t k = 0; k < count; k++)
        lab_fresh(h, list[k]);
    for (int32_t k = 0; k < count; k++)
        lab_unite(h, list[k]);
    h->lab_exact = false;
}

static tn_status build_all(tn_hierarchy *h)
{
    tn__grid g;
    tn__map_grid(h->map, &g);
    for (int32_t s = 0; s < h->nsec; s++) {
        bool changed;
        tn_status st = sector_build(h, &g, s, NULL, &changed);
        if (st < 0) {
            h->valid = false;
            return st;
        }
    }
    rebase(h);
    label_all(h);
    h->revision = g.revision;
    h->passable_hash = g.passable_hash;
    h->cost_hash = g.cost_hash;
    h->uniform = g.uniform;
    h->valid = true;
    return TN_OK;
}

static void hierarchy_free(tn_hierarchy *h)
{
    const size_t SS = (size_t)h->S * (size_t)h->S;
    if (h->sec)
        for (int32_t s = 0; s < h->nsec; s++)
            sector_free(h, &h->sec[s]);
    tn__free(&h->alloc, h->sec, (size_t)h->nsec * sizeof *h->sec);
    tn__free(&h->alloc, h->base, (size_t)(h->nsec + 1) * sizeof *h->base);
    tn__free(&h->alloc, h->visit, (size_t)h->nsec * sizeof *h->visit);
    tn__free(&h->alloc, h->sd, SS * sizeof *h->sd);
    tn__free(&h->alloc, h->heap, SS * sizeof *h->heap);
    tn__free(&h->alloc, h->hpos, SS * sizeof *h->hpos);
    tn__free(&h->alloc, h->tmp, ((size_t)4 * (size_t)h->S + SS) * sizeof *h->tmp);
    tn__free(&h->alloc, h->want, SS);
    tn__free(&h->alloc, h->ab, SS * sizeof *h->ab);
    tn__free(&h->alloc, h->mv, SS);
    tn__free(&h->alloc, h->bq, 3 * SS * sizeof *h->bq);
    const size_t o = (size_t)h->scap;
    tn__free(&h->alloc, h->ocell, o * sizeof *h->ocell);
    tn__free(&h->alloc, h->omap, o * sizeof *h->omap);
    tn__free(&h->alloc, h->deg, o * sizeof *h->deg);
    tn__free(&h->alloc, h->odist, o * o * sizeof *h->odist);
    tn__free(&h->alloc, h->need, o * o);
    tn__free(&h->alloc, h->dd, o * o * sizeof *h->dd);
    tn__free(&h->alloc, h->mn, o * sizeof *h->mn);
    tn__free(&h->alloc, h->lbr, o * sizeof *h->lbr);
    tn__free(&h->alloc, h->lbf, o * sizeof *h->lbf);
    tn__free(&h->alloc, h->lm, (size_t)h->lm_nodes * (size_t)h->K * sizeof *h->lm);
    tn__free(&h->alloc, h->lpar, (size_t)h->lcap * sizeof *h->lpar);
    tn__free(&h->alloc, h->lsz, (size_t)h->lcap * sizeof *h->lsz);
    tn_allocator a = h->alloc;
    tn__free(&a, h, sizeof *h);
}

tn_status tn_hierarchy_build(const tn_hierarchy_def *def, tn_hierarchy **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_HIERARCHY || !def->map ||
        !tn_moves_valid(&def->moves) || def->sector_size < 4 || def->sector_size > 256 ||
        def->portal_gap < 0 || def->portal_gap > def->sector_size || def->landmarks < 0 ||
        def->landmarks > TN_HPA_MAX_LANDMARKS)
        return TN_E_INVALID_ARG;
    if (def->moves.diagonal != TN_DIAGONAL_NO_CUT && def->moves.diagonal != TN_DIAGONAL_NEVER)
        return TN_E_UNSUPPORTED;
    tn_allocator a;
    if (!tn__allocator_of(&def->allocator, &a))
        return TN_E_INVALID_ARG;
    tn_hierarchy *h = tn__calloc(&a, sizeof *h);
    if (!h)
        return TN_E_NOMEM;
    h->alloc = a;
    h->map = def->map;
    h->moves = def->moves;
    h->S = def->sector_size;
    h->gap = def->portal_gap;
    h->K = def->landmarks;
    h->w = tn_map_width(def->map);
    h->h = tn_map_height(def->map);
    h->sx = (h->w + h->S - 1) / h->S;
    h->sy = (h->h + h->S - 1) / h->S;
    h->nsec = h->sx * h->sy;
    const size_t SS = (size_t)h->S * (size_t)h->S;
    h->sec = tn__calloc(&a, (size_t)h->nsec * sizeof *h->sec);
    h->base = tn__calloc(&a, (size_t)(h->nsec + 1) * sizeof *h->base);
    h->visit = tn__alloc(&a, (size_t)h->nsec * sizeof *h->visit);
    h->sd = tn__alloc(&a, SS * sizeof *h->sd);
    h->heap = tn__alloc(&a, SS * sizeof *h->heap);
    h->hpos = tn__alloc(&a, SS * sizeof *h->hpos);
    h->tmp = tn__alloc(&a, ((size_t)4 * (size_t)h->S + SS) * sizeof *h->tmp);
    h->want = tn__calloc(&a, SS);
    h->ab = tn__alloc(&a, SS * sizeof *h->ab);
    h->mv = tn__alloc(&a, SS);
    h->bq = tn__alloc(&a, 3 * SS * sizeof *h->bq);
    if (!h->sec || !h->base || !h->visit || !h->sd || !h->heap || !h->hpos || !h->tmp || !h->want ||
        !h->ab || !h->bq || !h->mv) {
        hierarchy_free(h);
        return TN_E_NOMEM;
    }
    tn_status st = build_all(h);
    if (st == TN_OK)
        st = tn_hierarchy_refresh_landmarks(h);
    if (st < 0) {
        hierarchy_free(h);
        return st;
    }
    *out = h;
    return TN_OK;
}

void tn_hierarchy_destroy(tn_hierarchy *h)
{
    if (h)
        hierarchy_free(h);
}

size_t tn_hierarchy_memory_bytes(const tn_hierarchy *h)
{
    if (!h)
        return 0;
    const size_t SS = (size_t)h->S * (size_t)h->S;
    const size_t o = (size_t)h->scap;
    size_t b = sizeof *h + (size_t)h->nsec * sizeof *h->sec + (size_t)(h->nsec + 1) * 4 +
               (size_t)h->nsec * sizeof *h->visit + SS * (8 + 4 + 4 + 1 + 4 + 12 + 4 + 1) +
               (size_t)16 * (size_t)h->S + o * (4 + 4 + 4 + 8 + 8 + 8) + o * o * (4 + 1 + 8) +
               (size_t)h->lm_nodes * (size_t)h->K * sizeof *h->lm + (size_t)h->lcap * 8;
    for (int32_t s = 0; s < h->nsec; s++) {
        const sector *sc = &h->sec[s];
        b += (size_t)sc->cap * 12 + 4 + (size_t)sc->cap * (size_t)sc->cap * 10;
        if (sc->side)
            b += (size_t)8 * (size_t)h->S;
    }
    return b;
}

int64_t tn__hierarchy_recomputed(const tn_hierarchy *h)
{
    return h->recomputed;
}

bool tn_hierarchy_current(const tn_hierarchy *h)
{
    return h && h->valid && h->revision == tn_map_revision(h->map) && !tn__map_view_behind(h->map);
}

tn_status tn_hierarchy_update(tn_hierarchy *h, int32_t *sectors)
{
    if (sectors)
        *sectors = 0;
    if (!h)
        return TN_E_INVALID_ARG;
    if (tn__map_view_behind(h->map))
        return TN_E_MAP_CHANGED; /* a size map: its clearance first */
    if (h->valid && h->revision == tn_map_revision(h->map))
        return TN_OK;
    /* the rectangles changed since (each edit's own, so that edits far apart do not make
     * one rectangle spanning the map), or their union when the log cannot list them */
    tn_rect rects[TN_CHANGE_LOG];
    int32_t nr =
        h->valid ? tn__map_changes_since(h->map, h->revision, h->passable_hash, h->cost_hash, rects)
                 : -1;
    tn_rect r;
    bool logged = h->valid && tn_map_changed_region(h->map, h->revision, &r);
    if (nr < 0 && logged) {
        rects[0] = r;
        nr = r.x1 > r.x0 && r.y1 > r.y0 ? 1 : 0;
    }
    /* costs that became uniform, or stopped being, change how every matrix is computed */
    logged = logged && tn_map_uniform_cost(h->map) == h->uniform;
    if (!logged) {
        h->lm_valid = false;
        tn_status st = build_all(h);
        if (st == TN_OK) {
            h->rebuilt += h->nsec;
            if (sectors)
                *sectors = h->nsec;
        }
        return st;
    }
    tn__grid g;
    tn__map_grid(h->map, &g);
    int32_t done = 0;
    if (nr > 0) {
        /* a changed cell changes its sector's costs and the entrances of the borders it is
         * on, which belong to the sectors on both sides: each rectangle grown by one cell;
         * the sectors those meet, in increasing order, within the box of them all */
        int32_t sx0 = h->sx, sy0 = h->sy, sx1 = -1, sy1 = -1;
        for (int32_t k = 0; k < nr; k++) {
            const tn_rect *c = &rects[k];
            int32_t x0 = c->x0 - 1 < 0 ? 0 : c->x0 - 1, y0 = c->y0 - 1 < 0 ? 0 : c->y0 - 1;
            int32_t x1 = c->x1 + 1 > h->w ? h->w : c->x1 + 1;
            int32_t y1 = c->y1 + 1 > h->h ? h->h : c->y1 + 1;
            sx0 = x0 / h->S < sx0 ? x0 / h->S : sx0;
            sy0 = y0 / h->S < sy0 ? y0 / h->S : sy0;
            sx1 = (x1 - 1) / h->S > sx1 ? (x1 - 1) / h->S : sx1;
            sy1 = (y1 - 1) / h->S > sy1 ? (y1 - 1) / h->S : sy1;
        }
        /* node counts that changed, to shift the later sectors' node ids (or all again) */
        enum { TN_HPA_SHIFTS = 64 };
        int32_t shift_s[TN_HPA_SHIFTS], shift_n[TN_HPA_SHIFTS], shifts = 0;
        bool all = false;
        int32_t *visited = h->visit; /* the sectors rebuilt, for their labels */
        int32_t nvisited = 0;
        for (int32_t sy = sy0; sy <= sy1; sy++)
            for (int32_t sx = sx0; sx <= sx1; sx++) {
                /* the changed cells that reach this sector (its cells and the cells beside its
                 * borders): the union of the rectangles that do */
                const int32_t ax0 = sx * h->S - 1, ay0 = sy * h->S - 1;
                const int32_t ax1 = (sx + 1) * h->S + 1, ay1 = (sy + 1) * h->S + 1;
                tn_rect u = {0, 0, 0, 0};
                for (int32_t k = 0; k < nr; k++) {
                    const tn_rect *c = &rects[k];
                    if (c->x1 <= ax0 || c->x0 >= ax1 || c->y1 <= ay0 || c->y0 >= ay1)
                        continue;
                    if (u.x1 <= u.x0) {
                        u = *c;
                    } else {
                        u.x0 = c->x0 < u.x0 ? c->x0 : u.x0;
                        u.y0 = c->y0 < u.y0 ? c->y0 : u.y0;
                        u.x1 = c->x1 > u.x1 ? c->x1 : u.x1;
                        u.y1 = c->y1 > u.y1 ? c->y1 : u.y1;
                    }
                }
                if (u.x1 <= u.x0)
                    continue;
                const int32_t s = sy * h->sx + sx;
                visited[nvisited++] = s;
                h->recomputed++;
                sector *sc = &h->sec[s];
                const int32_t on = sc->n;
                const int64_t oe = sc->off ? sc->off[on] : 0;
                bool changed = false;
                tn_status st = sector_build(h, &g, s, &u, &changed);
                if (st < 0) {
                    h->valid = false;
                    return st;
                }
                if (!changed)
                    continue;
                done++;
                h->edges += sc->off[sc->n] - oe;
                if (sc->n != on) {
                    if (shifts < TN_HPA_SHIFTS) {
                        shift_s[shifts] = s;
                        shift_n[shifts++] = sc->n - on;
                    } else {
                        all = true;
                    }
                }
            }
        if (all) {
            rebase(h);
        } else if (shifts) { /* the sectors come in increasing order */
            int32_t add = 0;
            for (int32_t t = shift_s[0] + 1, k = 0; t <= h->nsec; t++) {
                while (k < shifts && shift_s[k] < t)
                    add += shift_n[k++];
                h->base[t] += add;
            }
        }
        if (done)
            label_sectors(h, visited, nvisited);
    }
    h->revision = g.revision;
    h->passable_hash = g.passable_hash;
    h->cost_hash = g.cost_hash;
    h->rebuilt += done;
    if (done)
        h->lm_valid = false; /* the node numbering changed: tn_hierarchy_refresh_landmarks() */
    if (sectors)
        *sectors = done;
    return TN_OK;
}

void tn_hierarchy_stats_get(const tn_hierarchy *h, tn_hierarchy_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!h)
        return;
    out->sectors_x = h->sx;
    out->sectors_y = h->sy;
    out->nodes = h->base[h->nsec];
    out->sectors_rebuilt = h->rebuilt;
    out->landmarks = h->K;
    out->landmarks_current = h->lm_valid && h->valid;
    out->parts = -1;
    if (h->lab_ok && h->lab_exact && h->valid) { /* every label is a node's: count the roots */
        out->parts = 0;
        for (int32_t l = 0; l < h->nlab; l++)
            out->parts += h->lpar[l] == l;
    }
    for (int32_t s = 0; s < h->nsec; s++) {
        const sector *sc = &h->sec[s];
        const tn_rect r = sector_rect(h, s);
        for (int32_t i = 0; i < sc->n; i++) {
            for (int32_t j = 0; j < sc->n; j++)
                out->intra_edges += i != j && isfinite(sc->dist[i * sc->n + j]);
            /* inter: a node across a border */
            for (int k = 0; k < 4; k++) {
                int32_t o = -1;
                out->inter_edges += tn__hpa_facing(h, s, r.x0, r.y0, sc->cell[i] % h->w,
                                                   sc->cell[i] / h->w, k, &o) >= 0;
            }
        }
    }
}

static inline uint64_t mix(uint64_t hsh, uint64_t v)
{
    hsh ^= v + 0x9e3779b97f4a7c15ull + (hsh << 6) + (hsh >> 2);
    hsh *= 0xff51afd7ed558ccdull;
    return hsh ^ (hsh >> 33);
}

uint64_t tn_hierarchy_hash(const tn_hierarchy *h)
{
    if (!h || !h->valid)
        return 0;
    uint64_t x = mix(0, (uint64_t)h->nsec);
    for (int32_t s = 0; s < h->nsec; s++) {
        const sector *sc = &h->sec[s];
        x = mix(x, (uint64_t)sc->n);
        for (int32_t i = 0; i < sc->n; i++)
            x = mix(x, (uint64_t)sc->cell[i]);
        for (int32_t i = 0; i < sc->n * sc->n; i++) {
            uint32_t bits;
            memcpy(&bits, &sc->dist[i], 4);
            x = mix(x, bits);
        }
    }
    return x;
}

int32_t tn_hierarchy_sector_of(const tn_hierarchy *h, tn_cell c)
{
    if (!h || c.x < 0 || c.y < 0 || c.x >= h->w || c.y >= h->h)
        return -1;
    return sector_at(h, c.x, c.y);
}

double tn_hierarchy_crossing_bound(const tn_hierarchy *h)
{
    if (!h)
        return 0.0;
    /* D: the farthest a pair of an entrance lies from its nearest transition pair. An
     * entrance spans at most S cells. Ends only: (len - 1) / 2; with a gap g, transitions at
     * most g apart: g / 2; shorter than TN_HPA_SHORT (and not past the gap): one transition
     * in the middle, len / 2 from the far end, which for S = 4 (a 4-cell entrance: 2) is more
     * than (S - 1) / 2. */
    int32_t gap = h->gap > 0 ? h->gap : h->S - 1;
    int32_t short_len = h->S < TN_HPA_SHORT - 1 ? h->S : TN_HPA_SHORT - 1;
    if (h->gap > 0 && short_len > h->gap)
        short_len = h->gap;
    int32_t d = gap / 2 > short_len / 2 ? gap / 2 : short_len / 2;
    double D = (double)d;
    double cmax = 1.0;
    if (!tn_map_uniform_cost(h->map)) {
        const float *c = tn_map_cost_data(h->map);
        const uint8_t *p = tn_map_passable_data(h->map);
        size_t n = (size_t)h->w * (size_t)h->h;
        cmax = 0.0;
        for (size_t i = 0; i < n; i++)
            if (p[i] && (double)c[i] > cmax)
                cmax = (double)c[i];
    }
    return (1.0 + 4.0 * D) * tn_moves_straight(&h->moves) * cmax;
}

/* ---- query contexts ------------------------------------------------------------------- */

/* An abstract node's search state in one record. */
typedef struct anode {
    double g, hv; /* hv: the heuristic, computed at the first touch */
    int32_t parent;
    uint32_t stamp;  /* the query that set the rest; older means untouched */
    uint32_t closed; /* the query that closed it */
    int32_t sec;     /* its sector */
    int32_t x, y;    /* its cell */
} anode;

/* An open-list entry: keys inline so that the heap's comparisons stay in the heap array;
 * entries are pushed on every improvement and stale ones skipped when popped. */
typedef struct hentry {
    double f, g;
    int32_t v;
} hentry;

struct tn_hierarchy_ctx {
    tn_allocator alloc;
    /* the abstract A*: nodes 0..N-1, start N, goal N + 1 */
    size_t cap_nodes;
    anode *node;
    int32_t *route; /* cap_nodes */
    size_t cap_open, nheap;
    hentry *open;
    uint32_t gen;
    /* sector scratch: 0 the start's tree, 1 the goal's, 2 refinement */
    size_t cap_cells;
    double *sd[3], *key;
    int32_t *sp[3], *sheap, *spos, *trail;
    /* refinement A* on maps of uniform cost: per padded cell of a sector ((S + 2)^2: a ring
     * of blocked cells around it) its state, and the open list's entries (lazy: one per
     * improvement, 8 per cell at most) */
    size_t cap_pad;
    uint8_t *pst;
    hentry *popen;
    int32_t *pnext, *bhead; /* per entry the next of its bucket; per bucket its first entry */
    double *bf;             /* per bucket its f */
    tn_search *search;
    double weight;
    /* corridor smoothing: windows of up to `corridor` sectors (0: off); per sector of the
     * map its slot in the window (valid when sstamp == cgen); per slot its sector; the
     * window's search arrays, corridor * S * S cells each */
    int32_t corridor;
    size_t cap_sec, cap_corr;
    int32_t *slot_of, *csec, *cpar, *cheap, *cpos, *ctrail;
    uint32_t *sstamp, cgen;
    double *cdist, *ckey;
};

tn_hierarchy_ctx_def tn_hierarchy_ctx_def_default(void)
{
    tn_hierarchy_ctx_def d;
    memset(&d, 0, sizeof d);
    d.internal_cookie = TN_COOKIE_HIERARCHY_CTX;
    return d;
}

static void ctx_free_nodes(tn_hierarchy_ctx *c)
{
    size_t n = c->cap_nodes;
    tn__free(&c->alloc, c->node, n * sizeof *c->node);
    tn__free(&c->alloc, c->route, n * sizeof *c->route);
    tn__free(&c->alloc, c->open, c->cap_open * sizeof *c->open);
    c->node = NULL;
    c->route = NULL;
    c->open = NULL;
    c->cap_nodes = c->cap_open = 0;
}

static void ctx_free_corridor(tn_hierarchy_ctx *c)
{
    size_t n = c->cap_corr, ns = c->cap_sec;
    tn__free(&c->alloc, c->slot_of, ns * sizeof *c->slot_of);
    tn__free(&c->alloc, c->sstamp, ns * sizeof *c->sstamp);
    tn__free(&c->alloc, c->csec, (size_t)(c->corridor > 0 ? c->corridor : 1) * sizeof *c->csec);
    tn__free(&c->alloc, c->cpar, n * sizeof *c->cpar);
    tn__free(&c->alloc, c->cheap, n * sizeof *c->cheap);
    tn__free(&c->alloc, c->cpos, n * sizeof *c->cpos);
    tn__free(&c->alloc, c->ctrail, n * sizeof *c->ctrail);
    tn__free(&c->alloc, c->cdist, n * sizeof *c->cdist);
    tn__free(&c->alloc, c->ckey, n * sizeof *c->ckey);
    c->slot_of = c->csec = c->cpar = c->cheap = c->cpos = c->ctrail = NULL;
    c->sstamp = NULL;
    c->cdist = c->ckey = NULL;
    c->cap_corr = c->cap_sec = 0;
}

static void ctx_free_cells(tn_hierarchy_ctx *c)
{
    size_t n = c->cap_cells;
    for (int k = 0; k < 3; k++) {
        tn__free(&c->alloc, c->sd[k], n * sizeof *c->sd[k]);
        tn__free(&c->alloc, c->sp[k], n * sizeof *c->sp[k]);
        c->sd[k] = NULL;
        c->sp[k] = NULL;
    }
    tn__free(&c->alloc, c->key, n * sizeof *c->key);
    tn__free(&c->alloc, c->sheap, n * sizeof *c->sheap);
    tn__free(&c->alloc, c->spos, n * sizeof *c->spos);
    tn__free(&c->alloc, c->trail, n * sizeof *c->trail);
    tn__free(&c->alloc, c->pst, c->cap_pad);
    tn__free(&c->alloc, c->popen, 8 * c->cap_pad * sizeof *c->popen);
    tn__free(&c->alloc, c->pnext, 8 * c->cap_pad * sizeof *c->pnext);
    tn__free(&c->alloc, c->bhead, 8 * c->cap_pad * sizeof *c->bhead);
    tn__free(&c->alloc, c->bf, 8 * c->cap_pad * sizeof *c->bf);
    c->pst = NULL;
    c->popen = NULL;
    c->pnext = c->bhead = NULL;
    c->bf = NULL;
    c->cap_pad = 0;
    c->key = NULL;
    c->sheap = c->spos = c->trail = NULL;
    c->cap_cells = 0;
}

tn_status tn_hierarchy_ctx_create(const tn_hierarchy_ctx_def *def, tn_hierarchy_ctx **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_HIERARCHY_CTX || !isfinite(def->weight) ||
        (def->weight != 0.0f && def->weight < 1.0f) || def->corridor < 0 || def->corridor == 1 ||
        def->corridor > 64)
        return TN_E_INVALID_ARG;
    tn_allocator a;
    if (!tn__allocator_of(&def->allocator, &a))
        return TN_E_INVALID_ARG;
    tn_hierarchy_ctx *c = tn__calloc(&a, sizeof *c);
    if (!c)
        return TN_E_NOMEM;
    c->alloc = a;
    c->weight = def->weight >= 1.0f ? (double)def->weight : 1.0;
    c->corridor = def->corridor;
    *out = c;
    return TN_OK;
}

void tn_hierarchy_ctx_destroy(tn_hierarchy_ctx *c)
{
    if (!c)
        return;
    ctx_free_nodes(c);
    ctx_free_cells(c);
    ctx_free_corridor(c);
    tn_search_destroy(c->search);
    tn_allocator a = c->alloc;
    tn__free(&a, c, sizeof *c);
}

size_t tn_hierarchy_ctx_memory_bytes(const tn_hierarchy_ctx *c)
{
    if (!c)
        return 0;
    return sizeof *c + c->cap_nodes * (sizeof(anode) + 4) + c->cap_open * sizeof(hentry) +
           c->cap_sec * 8 + c->cap_corr * (4 * 4 + 2 * 8) + c->cap_cells * (3 * 12 + 8 + 12) +
           c->cap_pad * (1 + 8 * (sizeof(hentry) + 4 + 4 + 8)) + tn_search_memory_bytes(c->search);
}

static tn_status ctx_fit(tn_hierarchy_ctx *c, const tn_hierarchy *h, bool exact)
{
    size_t need = (size_t)h->base[h->nsec] + 2;
    /* pushes: at most one per edge relaxed, each edge at most once */
    size_t need_open = (size_t)h->edges + 5 * need + 4 * (size_t)h->S + 2;
    if (need > c->cap_nodes || need_open > c->cap_open) {
        ctx_free_nodes(c);
        size_t n = need + need / 4, no = need_open + need_open / 4;
        c->node = tn__calloc(&c->alloc, n * sizeof *c->node);
        c->route = tn__alloc(&c->alloc, n * sizeof *c->route);
        c->open = tn__alloc(&c->alloc, no * sizeof *c->open);
        c->cap_nodes = n;
        c->cap_open = no;
        c->gen = 0;
        if (!c->node || !c->route || !c->open) {
            ctx_free_nodes(c);
            return TN_E_NOMEM;
        }
    }
    /* padded: the refinement A* indexes sd[2], sp[2] by padded cell */
    size_t cells = (size_t)(h->S + 2) * (size_t)(h->S + 2);
    if (cells > c->cap_cells) {
        ctx_free_cells(c);
        c->pst = tn__alloc(&c->alloc, cells);
        c->popen = tn__alloc(&c->alloc, 8 * cells * sizeof *c->popen);
        c->pnext = tn__alloc(&c->alloc, 8 * cells * sizeof *c->pnext);
        c->bhead = tn__alloc(&c->alloc, 8 * cells * sizeof *c->bhead);
        c->bf = tn__alloc(&c->alloc, 8 * cells * sizeof *c->bf);
        c->cap_pad = cells;
        bool ok = true;
        for (int k = 0; k < 3; k++) {
            c->sd[k] = tn__alloc(&c->alloc, cells * sizeof *c->sd[k]);
            c->sp[k] = tn__alloc(&c->alloc, cells * sizeof *c->sp[k]);
            ok = ok && c->sd[k] && c->sp[k];
        }
        c->key = tn__alloc(&c->alloc, cells * sizeof *c->key);
        c->sheap = tn__alloc(&c->alloc, cells * sizeof *c->sheap);
        c->spos = tn__alloc(&c->alloc, cells * sizeof *c->spos);
        c->trail = tn__alloc(&c->alloc, cells * sizeof *c->trail);
        c->cap_cells = cells;
        if (!ok || !c->key || !c->sheap || !c->spos || !c->trail || !c->pst || !c->popen ||
            !c->pnext || !c->bhead || !c->bf) {
            ctx_free_cells(c);
            return TN_E_NOMEM;
        }
    }
    size_t ncorr = (size_t)c->corridor * cells;
    if (c->corridor > 0 && ((size_t)h->nsec > c->cap_sec || ncorr > c->cap_corr)) {
        ctx_free_corridor(c);
        size_t ns = (size_t)h->nsec;
        c->slot_of = tn__alloc(&c->alloc, ns * sizeof *c->slot_of);
        c->sstamp = tn__calloc(&c->alloc, ns * sizeof *c->sstamp);
        c->csec = tn__alloc(&c->alloc, (size_t)c->corridor * sizeof *c->csec);
        c->cpar = tn__alloc(&c->alloc, ncorr * sizeof *c->cpar);
        c->cheap = tn__alloc(&c->alloc, ncorr * sizeof *c->cheap);
        c->cpos = tn__alloc(&c->alloc, ncorr * sizeof *c->cpos);
        c->ctrail = tn__alloc(&c->alloc, ncorr * sizeof *c->ctrail);
        c->cdist = tn__alloc(&c->alloc, ncorr * sizeof *c->cdist);
        c->ckey = tn__alloc(&c->alloc, ncorr * sizeof *c->ckey);
        c->cap_sec = ns;
        c->cap_corr = ncorr;
        c->cgen = 0;
        if (!c->slot_of || !c->sstamp || !c->csec || !c->cpar || !c->cheap || !c->cpos ||
            !c->ctrail || !c->cdist || !c->ckey) {
            ctx_free_corridor(c);
            return TN_E_NOMEM;
        }
    }
    if (exact && !c->search) {
        tn_search_def sd = tn_search_def_default();
        sd.allocator = c->alloc;
        tn_status st = tn_search_create(&sd, &c->search);
        if (st < 0)
            return st;
    }
    return TN_OK;
}

tn_status tn_hierarchy_ctx_reserve(tn_hierarchy_ctx *c, const tn_hierarchy *h, bool exact)
{
    if (!c || !h)
        return TN_E_INVALID_ARG;
    if (!h->valid)
        return TN_E_MAP_CHANGED;
    tn_status st = ctx_fit(c, h, exact);
    if (st < 0 || !exact)
        return st;
    /* a query sizes the search context to the map: run a trivial one */
    tn__grid g;
    tn__map_grid(h->map, &g);
    for (int32_t i = 0; i < g.w * g.h; i++)
        if (g.pass[i]) {
            tn_cell s = {i % g.w, i / g.w};
            tn_query q;
            memset(&q, 0, sizeof q);
            q.moves = h->moves;
            q.algo = TN_ALGO_JPS; /* as the exact queries: sizes the JPS cache too */
            q.jps_fallback = true;
            tn_cell one;
            st = tn_search_path(c->search, h->map, s, s, &q, &one, 1, NULL);
            return st < 0 ? st : TN_OK;
        }
    return TN_OK;
}

/* ---- the abstract search ------------------------------------------------------------- */

static inline bool h_less(const hentry *a, const hentry *b)
{
    return a->f < b->f || (a->f == b->f && (a->g > b->g || (a->g == b->g && a->v < b->v)));
}

static inline void h_push(tn_hierarchy_ctx *c, double f, double g, int32_t v)
{
    hentry e = {f, g, v};
    size_t i = c->nheap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!h_less(&e, &c->open[p]))
            break;
        c->open[i] = c->open[p];
        i = p;
    }
    c->open[i] = e;
}

/* Pop the best live entry's node and close it; -1 when the open list is empty. */
static int32_t h_pop(tn_hierarchy_ctx *c)
{
    while (c->nheap) {
        hentry top = c->open[0], last = c->open[--c->nheap];
        size_t i = 0, n = c->nheap;
        for (;;) {
            size_t k = 2 * i + 1;
            if (k >= n)
                break;
            if (k + 1 < n && h_less(&c->open[k + 1], &c->open[k]))
                k++;
            if (!h_less(&c->open[k], &last))
                break;
            c->open[i] = c->open[k];
            i = k;
        }
        if (n)
            c->open[i] = last;
        anode *a = &c->node[top.v];
        if (a->closed == c->gen || top.g != a->g)
            continue; /* stale: closed already, or improved since */
        a->closed = c->gen;
        return top.v;
    }
    return -1;
}

typedef struct query {
    const tn_hierarchy *h;
    tn_hierarchy_ctx *c;
    double hs, hd; /* heuristic step weights */
    int32_t gx, gy;
    bool four;
    /* landmarks (NULL: none): lm[v * K + k] = cost from landmark k to node v; lmd[k] = cost
     * from landmark k to the goal in this query's graph; sym: costs are symmetric */
    const float *lm;
    int32_t K, N;
    bool sym;
    double w; /* heuristic weight */
    double lmd[TN_HPA_MAX_LANDMARKS];
} query;

/* A lower bound of the cost from node v (cell x, y) to the goal: the octile distance times
 * the cheapest cell, and with landmarks the triangle inequality through each of them (d(v,g)
 * >= d(L,g) - d(L,v); with symmetric costs also d(v,L) - d(g,L)), shrunk by 1e-6 for the
 * float rounding of the stored costs. Consistent: the maximum of consistent bounds. */
static inline double heur(const query *q, int32_t v, int32_t x, int32_t y)
{
    int32_t ax = x > q->gx ? x - q->gx : q->gx - x, ay = y > q->gy ? y - q->gy : q->gy - y;
    double b;
    if (q->four) {
        b = q->hs * (double)(ax + ay);
    } else {
        int32_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
        b = q->hd * mn + q->hs * (mx - mn);
    }
    if (q->lm && v < q->N) {
        const float *row = q->lm + (size_t)v * (size_t)q->K;
        double best = 0.0;
        for (int32_t k = 0; k < q->K; k++) {
            double d = (double)row[k], D = q->lmd[k];
            if (!isfinite(d) || !isfinite(D))
                continue;
            best = D - d > best ? D - d : best;
            if (q->sym)
                best = d - D > best ? d - D : best;
        }
        best *= 1.0 - 1e-6;
        b = best > b ? best : b;
    }
    return b;
}

/* Offer cost nd to node v (sector sec, cell index cell or -1 for the goal) from `from`. */
static inline void relax(query *q, int32_t v, int32_t from, double nd, int32_t sec, int32_t cell)
{
    tn_hierarchy_ctx *c = q->c;
    anode *a = &c->node[v];
    if (a->stamp != c->gen) {
        a->stamp = c->gen;
        a->g = (double)INFINITY;
        a->sec = sec;
        a->x = cell >= 0 ? cell % q->h->w : q->gx;
        a->y = cell >= 0 ? cell / q->h->w : q->gy;
        a->hv = heur(q, v, a->x, a->y);
    }
    if (!(nd < a->g) || a->closed == c->gen)
        return;
    a->g = nd;
    a->parent = from;
    TN_ASSERT(c->nheap < c->cap_open);
    h_push(c, nd + q->w * a->hv, nd, v);
}

/* Relax the edges out of abstract node u (not the start or goal): its sector's adjacency
 * and the side steps to the nodes facing it across its borders. */
static void expand(query *q, const tn__grid *g, int32_t u, double gu)
{
    const tn_hierarchy *h = q->h;
    const anode *nd = q->c->node;
    const int32_t W = h->w, S = h->S;
    const double st = tn_moves_straight(&h->moves);
    const int32_t s = nd[u].sec, sb = h->base[s], i = u - sb;
    const sector *sc = &h->sec[s];
    for (int32_t k = sc->off[i]; k < sc->off[i + 1]; k++) {
        int32_t j = sc->adj_j[k];
        relax(q, sb + j, u, gu + (double)sc->adj_c[k], s, sc->cell[j]);
    }
    const int32_t x = nd[u].x, y = nd[u].y, cell = y * W + x;
    const int32_t x0 = (s % h->sx) * S, y0 = (s / h->sx) * S;
    const int32_t step[4] = {-1, 1, -W, W}; /* the facing cell across border k */
    for (int k = 0; k < 4; k++) {
        int32_t o = -1;
        const int32_t l = tn__hpa_facing(h, s, x0, y0, x, y, k, &o);
        if (l < 0)
            continue;
        const int32_t c = cell + step[k];
        relax(q, h->base[o] + l, u, gu + st * (g->uniform ? 1.0 : (double)g->cost[c]), o, c);
    }
}

/* ---- landmarks --------------------------------------------------------------------- */

static int32_t node_sector(const tn_hierarchy *h, int32_t v)
{
    int32_t lo = 0, hi = h->nsec - 1; /* the last sector whose first node is <= v */
    while (lo < hi) {
        int32_t mid = (lo + hi + 1) / 2;
        if (h->base[mid] <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Dijkstra on the abstract graph from node src: the costs into column k of out (N x K;
 * INFINITY where unreachable), and min-folded into mind (may be NULL). */
static void abstract_sssp(tn_hierarchy_ctx *c, const tn_hierarchy *h, const tn__grid *g,
                          int32_t src, float *out, int32_t K, int32_t k, float *mind)
{
    const int32_t N = h->base[h->nsec];
    query q = {h, c, 0.0, 0.0, 0, 0, false, NULL, 0, N, false, 1.0, {0}};
    if (++c->gen == 0) {
        for (size_t i = 0; i < c->cap_nodes; i++)
            c->node[i].stamp = c->node[i].closed = 0;
        c->gen = 1;
    }
    c->nheap = 0;
    int32_t s = node_sector(h, src);
    relax(&q, src, -1, 0.0, s, h->sec[s].cell[src - h->base[s]]);
    for (;;) {
        int32_t u = h_pop(c);
        if (u < 0)
            break;
        expand(&q, g, u, c->node[u].g);
    }
    for (int32_t v = 0; v < N; v++) {
        const anode *a = &c->node[v];
        float d = a->stamp == c->gen && a->closed == c->gen ? (float)a->g : INFINITY;
        out[(size_t)v * (size_t)K + (size_t)k] = d;
        if (mind && d < mind[v])
            mind[v] = d;
    }
}

/* The finite entry of column k (or of mind) farthest away; -1 when none is past 0. */
static int32_t farthest(const float *col, size_t stride, int32_t N)
{
    int32_t best = -1;
    float far = 0.0f;
    for (int32_t v = 0; v < N; v++) {
        float d = col[(size_t)v * stride];
        if (isfinite(d) && d > far) {
            far = d;
            best = v;
        }
    }
    return best;
}

tn_status tn_hierarchy_refresh_landmarks(tn_hierarchy *h)
{
    if (!h)
        return TN_E_INVALID_ARG;
    if (!tn_hierarchy_current(h))
        return TN_E_MAP_CHANGED;
    if (!h->lab_exact)
        label_all(h); /* exact again, after the splits of updates */
    h->lm_valid = false;
    const int32_t N = h->base[h->nsec], K = h->K;
    if (K == 0 || N == 0) {
        h->lm_valid = K > 0;
        return TN_OK;
    }
    if (h->lm_nodes != N) {
        tn__free(&h->alloc, h->lm, (size_t)h->lm_nodes * (size_t)K * sizeof *h->lm);
        h->lm_nodes = 0;
        h->lm = tn__alloc(&h->alloc, (size_t)N * (size_t)K * sizeof *h->lm);
        if (!h->lm)
            return TN_E_NOMEM;
        h->lm_nodes = N;
    }
    tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
    cd.allocator = h->alloc;
    tn_hierarchy_ctx *c = NULL;
    float *mind = tn__alloc(&h->alloc, (size_t)N * sizeof *mind);
    tn_status st = mind ? tn_hierarchy_ctx_create(&cd, &c) : TN_E_NOMEM;
    if (st == TN_OK)
        st = ctx_fit(c, h, false);
    if (st == TN_OK) {
        tn__grid g;
        tn__map_grid(h->map, &g);
        for (int32_t v = 0; v < N; v++)
            mind[v] = INFINITY;
        /* the largest connected part of the graph (landmarks elsewhere would bound
         * nothing for its queries): searched from node 0, then from nodes not reached yet,
         * until no part left can be larger (each node is reached once in all) */
        int32_t seed = 0, best = -1, seen = 0, cursor = 0;
        while (best <= N - seen) {
            while (cursor < N && mind[cursor] == 0.0f)
                cursor++;
            if (cursor == N)
                break;
            abstract_sssp(c, h, &g, cursor, h->lm, K, 0, NULL);
            int32_t reached = 0;
            for (int32_t v = 0; v < N; v++)
                if (isfinite(h->lm[(size_t)v * (size_t)K])) {
                    mind[v] = 0.0f;
                    reached++;
                }
            if (reached > best) {
                best = reached;
                seed = cursor;
            }
            seen += reached;
        }
        for (int32_t v = 0; v < N; v++)
            mind[v] = INFINITY;
        /* farthest-point landmarks in that part: the node farthest from the seed, then each
         * time the node farthest from those chosen (a sketch of the part's extremities) */
        abstract_sssp(c, h, &g, seed, h->lm, K, 0, NULL);
        int32_t L = farthest(h->lm, (size_t)K, N);
        L = L < 0 ? seed : L;
        for (int32_t k = 0; k < K; k++) {
            abstract_sssp(c, h, &g, L, h->lm, K, k, mind);
            int32_t next = farthest(mind, 1, N);
            L = next < 0 ? L : next;
        }
        h->lm_valid = true;
    }
    tn_hierarchy_ctx_destroy(c);
    tn__free(&h->alloc, mind, (size_t)N * sizeof *mind);
    return st;
}

/* ---- paths ------------------------------------------------------------------------- */

typedef struct emitter {
    tn_cell *out;
    int32_t cap, n, diag;
    double cost;
    const tn__grid *g;
    double straight, diagonal;
    tn_cell last;
} emitter;

static inline void emit(emitter *e, tn_cell c)
{
    if (e->n > 0) {
        bool d = c.x != e->last.x && c.y != e->last.y;
        e->diag += d;
        if (!e->g->uniform)
            e->cost += (d ? e->diagonal : e->straight) * (double)e->g->cost[c.y * e->g->w + c.x];
    }
    if (e->n < e->cap)
        e->out[e->n] = c;
    e->n++;
    e->last = c;
}

/* The two octile lines from a to b (all diagonal steps first, or all straight steps first),
 * 8 neighbours without corner cutting: the first that is legal and costs the octile lower
 * bound (always, on a uniform map) is a cheapest path between them, the same cost as the
 * sector search would find; its cells after a are emitted. False when neither is. */
static bool emit_line(emitter *e, const tn__grid *g, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                      double st, double dg)
{
    const int32_t W = g->w;
    const int32_t dx = bx > ax ? 1 : bx < ax ? -1 : 0, dy = by > ay ? 1 : by < ay ? -1 : 0;
    const int32_t adx = bx > ax ? bx - ax : ax - bx, ady = by > ay ? by - ay : ay - by;
    const int32_t nd = adx < ady ? adx : ady, ns = (adx < ady ? ady : adx) - nd;
    const int32_t sx = adx > ady ? dx : 0, sy = adx > ady ? 0 : dy;
    const double lb = (dg * nd + st * ns) * (double)g->min_cost;
    for (int variant = 0; variant < 2; variant++) {
        int32_t x = ax, y = ay;
        double cost = 0.0;
        bool ok = true;
        for (int32_t k = 0; k < nd + ns && ok; k++) {
            bool diag = variant == 0 ? k < nd : k >= ns;
            int32_t mx = diag ? dx : sx, my = diag ? dy : sy, nx = x + mx, ny = y + my;
            ok = g->pass[ny * W + nx] && (!diag || (g->pass[y * W + nx] && g->pass[ny * W + x]));
            cost += (diag ? dg : st) * (g->uniform ? 1.0 : (double)g->cost[ny * W + nx]);
            x = nx;
            y = ny;
        }
        if (!ok || cost > lb * (1.0 + 1e-12))
            continue;
        x = ax;
        y = ay;
        for (int32_t k = 0; k < nd + ns; k++) {
            bool diag = variant == 0 ? k < nd : k >= ns;
            x += diag ? dx : sx;
            y += diag ? dy : sy;
            emit(e, (tn_cell){x, y});
        }
        return true;
    }
    return false;
}

/* Emit the cells of a parent chain from local cell `from` back to its root, in reverse
 * (root first, `from` last), skipping the root when skip_root. */
static void emit_chain_reversed(emitter *e, const tn_rect r, const int32_t *parent, int32_t from,
                                int32_t *trail, bool skip_root)
{
    const int32_t lw = r.x1 - r.x0;
    int32_t k = 0;
    for (int32_t v = from; v >= 0; v = parent[v])
        trail[k++] = v;
    for (int32_t i = k - 1 - (skip_root ? 1 : 0); i >= 0; i--)
        emit(e, (tn_cell){r.x0 + trail[i] % lw, r.y0 + trail[i] / lw});
}

/* A* from cell `from` to cell `to` (indices) over the cells of the window's sectors (slots
 * 0..nslots-1); emits the cells after `from`. Returns false when `to` is not reached (cannot
 * happen: the window holds the route between them). */
static bool corridor_run(tn_hierarchy_ctx *c, const tn_hierarchy *h, const tn__grid *g,
                         int32_t from, int32_t to, int32_t nslots, emitter *e)
{
    const int32_t W = h->w, S = h->S, SS = S * S;
    const bool four = h->moves.diagonal == TN_DIAGONAL_NEVER;
    const double st = tn_moves_straight(&h->moves), dg = tn_moves_diagonal(&h->moves);
    const double hs = st * (double)g->min_cost, hd = dg * (double)g->min_cost;
    for (int32_t i = 0; i < nslots * SS; i++) {
        c->cdist[i] = (double)INFINITY;
        c->cpos[i] = -1;
    }
    local_search ls;
    memset(&ls, 0, sizeof ls);
    ls.dist = c->cdist;
    ls.heap = c->cheap;
    ls.pos = c->cpos;
    ls.key = c->ckey;
    const int32_t tx = to % W, ty = to / W;
#define TN_SLOT_INDEX(X, Y, SL)                                                                    \
    ((SL)*SS + ((Y) - (c->csec[SL] / h->sx) * S) * S + (X) - (c->csec[SL] % h->sx) * S)
    int32_t fx = from % W, fy = from / W;
    int32_t src = TN_SLOT_INDEX(fx, fy, c->slot_of[sector_at(h, fx, fy)]);
    int32_t dst = TN_SLOT_INDEX(tx, ty, c->slot_of[sector_at(h, tx, ty)]);
    c->cdist[src] = 0.0;
    c->ckey[src] = 0.0;
    c->cpar[src] = -1;
    c->cheap[0] = src;
    c->cpos[src] = 0;
    ls.n = 1;
    while (ls.n) {
        int32_t l = ls_pop(&ls);
        if (l == dst)
            break;
        int32_t sl = l / SS, sec = c->csec[sl], r = l % SS;
        int32_t x = (sec % h->sx) * S + r % S, y = (sec / h->sx) * S + r / S;
        double dc = c->cdist[l];
        for (int k = 0; k < (four ? 4 : 8); k++) {
            int32_t nx = x + tn__dir_dx[k], ny = y + tn__dir_dy[k];
            if (nx < 0 || ny < 0 || nx >= W || ny >= h->h || !g->pass[ny * W + nx])
                continue;
            int32_t ns = sector_at(h, nx, ny);
            if (c->sstamp[ns] != c->cgen)
                continue;
            int32_t q = TN_SLOT_INDEX(nx, ny, c->slot_of[ns]);
            if (c->cpos[q] == -2)
                continue;
            double base = st;
            if (k >= 4) {
                if (!g->pass[y * W + nx] || !g->pass[ny * W + x])
                    continue;
                base = dg;
            }
            double nd = dc + (g->uniform ? base : base * (double)g->cost[ny * W + nx]);
            if (!(nd < c->cdist[q]))
                continue;
            c->cdist[q] = nd;
            c->cpar[q] = l;
            int32_t ax = nx > tx ? nx - tx : tx - nx, ay = ny > ty ? ny - ty : ty - ny;
            int32_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
            c->ckey[q] = nd + (four ? hs * (ax + ay) : hd * mn + hs * (mx - mn));
            if (c->cpos[q] < 0) {
                c->cheap[ls.n] = q;
                c->cpos[q] = ls.n++;
            }
            ls_up(&ls, c->cpos[q]);
        }
    }
#undef TN_SLOT_INDEX
    if (!isfinite(c->cdist[dst]))
        return false;
    int32_t n = 0;
    for (int32_t l = dst; l >= 0; l = c->cpar[l])
        c->ctrail[n++] = l;
    for (int32_t i = n - 2; i >= 0; i--) {
        int32_t l = c->ctrail[i], sec = c->csec[l / SS], r = l % SS;
        emit(e, (tn_cell){(sec % h->sx) * S + r % S, (sec / h->sx) * S + r / S});
    }
    return true;
}

/* The route (c->route[k-1] = start ... c->route[0] = goal) refined window by window: each
 * window is the longest stretch of the route whose nodes lie in at most c->corridor sectors,
 * searched by corridor_run() over those sectors' cells. Each window holds the refined route
 * between its ends, so the result costs at most the abstract route. */
static void refine_corridor(tn_hierarchy_ctx *c, const tn_hierarchy *h, const tn__grid *g,
                            int32_t k, int32_t vs, int32_t vg, tn_cell start, tn_cell goal,
                            emitter *e, tn_hierarchy_result *res)
{
    const int32_t W = h->w;
#define TN_ROUTE_SEC(V)                                                                            \
    ((V) == vs   ? sector_at(h, start.x, start.y)                                                  \
     : (V) == vg ? sector_at(h, goal.x, goal.y)                                                    \
                 : c->node[V].sec)
#define TN_ROUTE_CELL(V)                                                                           \
    ((V) == vs   ? start.y * W + start.x                                                           \
     : (V) == vg ? goal.y * W + goal.x                                                             \
                 : c->node[V].y * W + c->node[V].x)
    emit(e, start);
    int32_t a = k - 1;
    while (a > 0) {
        if (++c->cgen == 0) {
            memset(c->sstamp, 0, c->cap_sec * sizeof *c->sstamp);
            c->cgen = 1;
        }
        int32_t nslots = 0, b = a;
        int32_t s0 = TN_ROUTE_SEC(c->route[a]);
        c->sstamp[s0] = c->cgen;
        c->slot_of[s0] = nslots;
        c->csec[nslots++] = s0;
        while (b > 0) {
            int32_t sn = TN_ROUTE_SEC(c->route[b - 1]);
            if (c->sstamp[sn] != c->cgen) {
                if (nslots == c->corridor)
                    break;
                c->sstamp[sn] = c->cgen;
                c->slot_of[sn] = nslots;
                c->csec[nslots++] = sn;
            }
            b--;
        }
        bool ok = corridor_run(c, h, g, TN_ROUTE_CELL(c->route[a]), TN_ROUTE_CELL(c->route[b]),
                               nslots, e);
        TN_ASSERT(ok);
        (void)ok;
        res->refined++;
        a = b;
    }
#undef TN_ROUTE_SEC
#undef TN_ROUTE_CELL
}

/* ---- refinement on maps of uniform cost -------------------------------------------------
 * A* between two cells of one sector over its padded cells (index (y + 1) * (w + 2) + x + 1;
 * the ring is blocked, so no step needs a bounds test): the state byte (bit 0 passable, bit 1
 * reached this search, bit 2 closed) is rebuilt per search, so nothing else is cleared; the
 * open list holds entries inline (f, g, cell), pushed on every improvement and skipped when
 * stale; ties go to the larger g (deeper, towards the target), then the smaller cell. The
 * edge's cost is known (the matrix): a cell whose f exceeds it (plus the matrix's float
 * rounding) lies on no path that cheap and is not queued, which keeps the open list to the
 * cells of the optimal paths' corridor. Costs into c->sd[2], parents into c->sp[2] (padded). */

/* Fill c->pst with sector r's passability (bit 0) over its padded cells, the ring blocked,
 * and off[] with the eight moves as padded offsets; returns the padded row width. */
static int32_t pad_sector(tn_hierarchy_ctx *c, const tn__grid *g, const tn_rect r, int32_t off[8])
{
    const int32_t lw = r.x1 - r.x0, lh = r.y1 - r.y0, pw = lw + 2, W = g->w;
    memset(c->pst, 0, (size_t)pw * (size_t)(lh + 2));
    for (int32_t y = 0; y < lh; y++) {
        const uint8_t *row = g->pass + (size_t)(r.y0 + y) * (size_t)W + r.x0;
        uint8_t *o = c->pst + (y + 1) * pw + 1;
        for (int32_t x = 0; x < lw; x++)
            o[x] = row[x] ? 1 : 0;
    }
    for (int k = 0; k < 8; k++)
        off[k] = tn__dir_dy[k] * pw + tn__dir_dx[k];
    return pw;
}

static void refine_uniform(tn_hierarchy_ctx *c, const tn__grid *g, const tn_rect r, bool four,
                           double st, double dg, int32_t fx, int32_t fy, int32_t tx, int32_t ty,
                           double bound)
{
    int32_t off[8];
    const int32_t pw = pad_sector(c, g, r, off);
    uint8_t *ps = c->pst;
    double *dist = c->sd[2];
    int32_t *par = c->sp[2];
    const int32_t from = (fy - r.y0 + 1) * pw + fx - r.x0 + 1;
    const int32_t to = (ty - r.y0 + 1) * pw + tx - r.x0 + 1;
    const int32_t gx = tx - r.x0 + 1, gy = ty - r.y0 + 1;
    /* the open list: one bucket per distinct f, ascending, each a stack of entries (the last
     * pushed, usually the deepest, first). f values within 1e-12 relative share a bucket:
     * sums of ones and sqrt 2s that differ at all differ by far more (at least ~5e-6 for the
     * 65,536 steps a 256 x 256 sector allows), and equal sums rounded apart only split a
     * bucket in two, which keeps the order right */
    hentry *pool = c->popen;
    int32_t *next = c->pnext, *bhead = c->bhead;
    double *bf = c->bf;
    int32_t ne = 0, nb = 0, b0 = 0;
    dist[from] = 0.0;
    par[from] = -1;
    ps[from] |= 2;
    pool[0] = (hentry){0.0, 0.0, from};
    next[0] = -1;
    bf[0] = 0.0;
    bhead[0] = 0;
    ne = nb = 1;
    for (;;) {
        while (b0 < nb && bhead[b0] < 0)
            b0++;
        if (b0 == nb)
            break;
        const int32_t ei = bhead[b0];
        bhead[b0] = next[ei];
        const hentry e = pool[ei];
        const int32_t u = e.v;
        if ((ps[u] & 4) || e.g != dist[u])
            continue;
        ps[u] |= 4;
        if (u == to)
            return;
        for (int k = 0; k < (four ? 4 : 8); k++) {
            const int32_t v = u + off[k];
            if ((ps[v] & 5) != 1)
                continue; /* blocked or closed */
            if (k >= 4 && (!(ps[u + tn__dir_dx[k]] & 1) || !(ps[u + tn__dir_dy[k] * pw] & 1)))
                continue;
            const double nd = e.g + (k >= 4 ? dg : st);
            if ((ps[v] & 2) && !(nd < dist[v]))
                continue;
            dist[v] = nd;
            par[v] = u;
            ps[v] |= 2;
            int32_t vx = v % pw, vy = v / pw;
            int32_t ax = vx > gx ? vx - gx : gx - vx, ay = vy > gy ? vy - gy : gy - vy;
            int32_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
            double hv = four ? st * (ax + ay) : dg * mn + st * (mx - mn);
            const double f = nd + hv;
            if (f > bound)
                continue; /* on no path as cheap as the edge: never needed */
            int32_t b = b0;
            const double eps = 1e-12 * (1.0 + f);
            while (b < nb && bf[b] < f - eps)
                b++;
            if (b == nb || bf[b] > f + eps) { /* a new bucket at b */
                memmove(bf + b + 1, bf + b, (size_t)(nb - b) * sizeof *bf);
                memmove(bhead + b + 1, bhead + b, (size_t)(nb - b) * sizeof *bhead);
                bf[b] = f;
                bhead[b] = -1;
                nb++;
            }
            TN_ASSERT((size_t)ne < 8 * c->cap_pad);
            pool[ne] = (hentry){f, nd, v};
            next[ne] = bhead[b];
            bhead[b] = ne++;
        }
    }
}

/* Emit the chain of padded parents ending at `to` (root first, the root itself skipped). */
static void emit_padded_chain(emitter *e, const tn_rect r, const int32_t *parent, int32_t to,
                              int32_t *trail)
{
    const int32_t pw = r.x1 - r.x0 + 2;
    int32_t n = 0;
    for (int32_t v = to; parent[v] >= 0; v = parent[v])
        trail[n++] = v;
    for (int32_t k = n - 1; k >= 0; k--)
        emit(e, (tn_cell){r.x0 + trail[k] % pw - 1, r.y0 + trail[k] / pw - 1});
}

/* The start's and the goal's trees on maps of uniform cost (where reverse costs equal forward
 * ones): a Dijkstra from local cell `src` over the padded sector with two FIFO queues (cells
 * reached by a straight step, by a diagonal one: each sorted by construction, the head with
 * the smaller cost goes first), then the costs and parents copied out in local cells. */
static void tree_uniform(tn_hierarchy_ctx *c, const tn__grid *g, const tn_rect r, bool four,
                         double st, double dg, int32_t src, double *dist_out, int32_t *par_out)
{
    const int32_t lw = r.x1 - r.x0, lh = r.y1 - r.y0;
    int32_t off[8];
    const int32_t pw = pad_sector(c, g, r, off);
    uint8_t *ps = c->pst;
    double *dist = c->sd[2];
    int32_t *par = c->sp[2], *qs = c->sheap, *qd = c->spos;
    const int32_t from = (src / lw + 1) * pw + src % lw + 1;
    int32_t hs = 0, ts = 0, hd = 0, td = 0;
    dist[from] = 0.0;
    par[from] = -1;
    ps[from] |= 2;
    qs[ts++] = from;
    for (;;) {
        while (hs < ts && (ps[qs[hs]] & 4))
            hs++;
        while (hd < td && (ps[qd[hd]] & 4))
            hd++;
        int32_t u;
        if (hs < ts && (hd >= td || dist[qs[hs]] <= dist[qd[hd]]))
            u = qs[hs++];
        else if (hd < td)
            u = qd[hd++];
        else
            break;
        ps[u] |= 4;
        const double ns = dist[u] + st, nd = dist[u] + dg;
        for (int k = 0; k < 4; k++) {
            const int32_t v = u + off[k];
            if ((ps[v] & 5) != 1 || ((ps[v] & 2) && !(ns < dist[v])))
                continue;
            dist[v] = ns;
            par[v] = u;
            ps[v] |= 2;
            qs[ts++] = v;
        }
        if (four)
            continue;
        for (int k = 4; k < 8; k++) {
            const int32_t v = u + off[k];
            if ((ps[v] & 5) != 1 || ((ps[v] & 2) && !(nd < dist[v])) ||
                !(ps[u + tn__dir_dx[k]] & 1) || !(ps[u + tn__dir_dy[k] * pw] & 1))
                continue;
            dist[v] = nd;
            par[v] = u;
            ps[v] |= 2;
            qd[td++] = v;
        }
    }
    for (int32_t y = 0; y < lh; y++)
        for (int32_t x = 0; x < lw; x++) {
            const int32_t p = (y + 1) * pw + x + 1, l = y * lw + x;
            const bool seen = (ps[p] & 2) != 0;
            dist_out[l] = seen ? dist[p] : (double)INFINITY;
            par_out[l] = seen && par[p] >= 0 ? (par[p] / pw - 1) * lw + par[p] % pw - 1 : -1;
        }
}

/* Whether a node of sector ss that the start's tree reaches (finite sd0) and a node of sector
 * gs that reaches the goal (finite sd1) have labels of one root (components, above): false
 * proves that there is no path; true when unsure (no labels, too many roots to compare). */
static bool parts_meet(const tn_hierarchy *h, int32_t ss, const double *sd0, tn_rect rs, int32_t gs,
                       const double *sd1, tn_rect rg)
{
    if (!h->lab_ok)
        return true;
    enum { MAX_ROOTS = 64 };
    int32_t roots[MAX_ROOTS], n = 0;
    const int32_t W = h->w;
    const sector *a = &h->sec[ss], *b = &h->sec[gs];
    for (int32_t i = 0; i < a->n; i++) {
        const int32_t c = a->cell[i];
        if (!isfinite(sd0[(c / W - rs.y0) * (rs.x1 - rs.x0) + c % W - rs.x0]))
            continue;
        int32_t r = lab_root(h->lpar, a->lab[i]), k = 0;
        while (k < n && roots[k] != r)
            k++;
        if (k == n) {
            if (n == MAX_ROOTS)
                return true;
            roots[n++] = r;
        }
    }
    for (int32_t j = 0; j < b->n; j++) {
        const int32_t c = b->cell[j];
        if (!isfinite(sd1[(c / W - rg.y0) * (rg.x1 - rg.x0) + c % W - rg.x0]))
            continue;
        int32_t r = lab_root(h->lpar, b->lab[j]);
        for (int32_t k = 0; k < n; k++)
            if (roots[k] == r)
                return true;
    }
    return false;
}

static tn_status fast_path(tn_hierarchy_ctx *c, const tn_hierarchy *h, const tn__grid *g,
                           tn_cell start, tn_cell goal, emitter *e, tn_hierarchy_result *res)
{
    const int32_t W = h->w;
    const int32_t ss = sector_at(h, start.x, start.y), gs = sector_at(h, goal.x, goal.y);
    const tn_rect rs = sector_rect(h, ss), rg = sector_rect(h, gs);
    const int32_t lws = rs.x1 - rs.x0, lwg = rg.x1 - rg.x0;
    const int32_t ls_start = (start.y - rs.y0) * lws + start.x - rs.x0;
    const int32_t ls_goal = (goal.y - rg.y0) * lwg + goal.x - rg.x0;
    const bool four = h->moves.diagonal == TN_DIAGONAL_NEVER;
    const double st = tn_moves_straight(&h->moves), dg = tn_moves_diagonal(&h->moves);
    /* the start's tree (forward) and the goal's (reverse), inside their sectors */
    if (g->uniform) {
        tree_uniform(c, g, rs, four, st, dg, ls_start, c->sd[0], c->sp[0]);
        tree_uniform(c, g, rg, four, st, dg, ls_goal, c->sd[1], c->sp[1]);
    } else {
        local_search a = {g,        rs,       lws,      rs.y1 - rs.y0, st,   dg, four ? 4 : 8,
                          c->sd[0], c->sp[0], c->sheap, c->spos,       NULL, 0};
        ls_run(&a, ls_start, false, -1, NULL, 0);
        local_search b = {g,        rg,       lwg,      rg.y1 - rg.y0, st,   dg, four ? 4 : 8,
                          c->sd[1], c->sp[1], c->sheap, c->spos,       NULL, 0};
        ls_run(&b, ls_goal, true, -1, NULL, 0);
    }

    if (!(ss == gs && isfinite(c->sd[0][ls_goal])) &&
        !parts_meet(h, ss, c->sd[0], rs, gs, c->sd[1], rg)) {
        res->expanded = 0;
        return TN_NO_PATH; /* no node the start reaches is joined to one that reaches the goal */
    }
    const int32_t N = h->base[h->nsec], vs = N, vg = N + 1;
    query q = {h,
               c,
               st * (double)g->min_cost,
               dg * (double)g->min_cost,
               goal.x,
               goal.y,
               four,
               NULL,
               0,
               N,
               g->uniform,
               c->weight,
               {0}};
    if (h->lm_valid && h->K > 0) { /* each landmark's cost to the goal, through its sector */
        const sector *sc = &h->sec[gs];
        q.lm = h->lm;
        q.K = h->K;
        for (int32_t k = 0; k < h->K; k++)
            q.lmd[k] = (double)INFINITY;
        for (int32_t j = 0; j < sc->n; j++) {
            int32_t cj = sc->cell[j];
            double d = c->sd[1][(cj / W - rg.y0) * lwg + cj % W - rg.x0];
            if (!isfinite(d))
                continue;
            const float *row = h->lm + (size_t)(h->base[gs] + j) * (size_t)h->K;
            for (int32_t k = 0; k < h->K; k++)
                if ((double)row[k] + d < q.lmd[k])
                    q.lmd[k] = (double)row[k] + d;
        }
    }
    if (++c->gen == 0) {
        for (size_t i = 0; i < c->cap_nodes; i++)
            c->node[i].stamp = c->node[i].closed = 0;
        c->gen = 1;
    }
    anode *nd = c->node;
    c->nheap = 0;
    relax(&q, vs, -1, 0.0, ss, start.y * W + start.x);
    int64_t expanded = 0;
    bool found = false;
    const double *gdist = c->sd[1];
    for (;;) {
        const int32_t u = h_pop(c);
        if (u < 0)
            break;
        expanded++;
        if (u == vg) {
            found = true;
            break;
        }
        const double gu = nd[u].g;
        if (u == vs) {
            const sector *sc = &h->sec[ss];
            for (int32_t j = 0; j < sc->n; j++) {
                int32_t cj = sc->cell[j];
                double d = c->sd[0][(cj / W - rs.y0) * lws + cj % W - rs.x0];
                if (isfinite(d))
                    relax(&q, h->base[ss] + j, u, d, ss, cj);
            }
            if (ss == gs && isfinite(c->sd[0][ls_goal]))
                relax(&q, vg, u, c->sd[0][ls_goal], gs, -1);
            continue;
        }
        expand(&q, g, u, gu);
        if (nd[u].sec == gs) {
            const int32_t x = nd[u].x, y = nd[u].y;
            double d = gdist[(y - rg.y0) * lwg + x - rg.x0];
            if (isfinite(d))
                relax(&q, vg, u, gu + d, gs, -1);
        }
    }
    res->expanded = expanded;
    if (!found)
        return TN_NO_PATH;

    /* the route, goal to start, into the heap array (free now) */
    int32_t k = 0;
    for (int32_t v = vg; v >= 0; v = nd[v].parent)
        c->route[k++] = v;
    /* c->route[k-1] is the start, c->route[0] the goal */
    if (c->corridor > 0) {
        refine_corridor(c, h, g, k, vs, vg, start, goal, e, res);
        return TN_OK;
    }
    int32_t prev = vs;
    int32_t prev_cell = start.y * W + start.x;
    emit(e, start);
    for (int32_t idx = k - 2; idx >= 0; idx--) {
        int32_t v = c->route[idx];
        if (v == vg) {
            if (prev == vs) { /* start and goal in one sector, directly */
                emit_chain_reversed(e, rs, c->sp[0], ls_goal, c->trail, true);
            } else { /* along the goal's tree from prev's cell */
                int32_t l = (prev_cell / W - rg.y0) * lwg + prev_cell % W - rg.x0;
                for (l = c->sp[1][l]; l >= 0; l = c->sp[1][l])
                    emit(e, (tn_cell){rg.x0 + l % lwg, rg.y0 + l / lwg});
            }
            break;
        }
        int32_t s = nd[v].sec, cell = nd[v].y * W + nd[v].x;
        if (prev == vs) {
            emit_chain_reversed(e, rs, c->sp[0], (cell / W - rs.y0) * lws + cell % W - rs.x0,
                                c->trail, true);
        } else if (nd[prev].sec != s) {
            emit(e, (tn_cell){cell % W, cell / W}); /* the step across the border */
        } else if (!four &&
                   emit_line(e, g, prev_cell % W, prev_cell / W, cell % W, cell / W, st, dg)) {
            /* an intra-sector edge along an octile line: no search */
        } else if (g->uniform) { /* refine the intra-sector edge: A* inside the sector */
            const tn_rect r = sector_rect(h, s);
            double edge = nd[v].g - nd[prev].g; /* the matrix's cost, as the search added it */
            refine_uniform(c, g, r, four, st, dg, prev_cell % W, prev_cell / W, cell % W, cell / W,
                           edge * (1.0 + 1e-6) + 1e-6);
            res->refined++;
            TN_ASSERT(c->pst[(cell / W - r.y0 + 1) * (r.x1 - r.x0 + 2) + cell % W - r.x0 + 1] & 4);
            emit_padded_chain(e, r, c->sp[2],
                              (cell / W - r.y0 + 1) * (r.x1 - r.x0 + 2) + cell % W - r.x0 + 1,
                              c->trail);
        } else { /* the same on maps with terrain costs */
            const tn_rect r = sector_rect(h, s);
            const int32_t lw = r.x1 - r.x0;
            local_search m = {g,        r,        lw,       r.y1 - r.y0, st,     dg, four ? 4 : 8,
                              c->sd[2], c->sp[2], c->sheap, c->spos,     c->key, 0};
            int32_t from = (prev_cell / W - r.y0) * lw + prev_cell % W - r.x0;
            int32_t to = (cell / W - r.y0) * lw + cell % W - r.x0;
            ls_run(&m, from, false, to, NULL, 0);
            res->refined++;
            TN_ASSERT(isfinite(c->sd[2][to]));
            emit_chain_reversed(e, r, c->sp[2], to, c->trail, true);
        }
        prev = v;
        prev_cell = cell;
    }
    return TN_OK;
}

tn_status tn_hierarchy_path(tn_hierarchy_ctx *c, const tn_hierarchy *h, tn_cell start, tn_cell goal,
                            tn_hierarchy_mode mode, tn_cell *out, int32_t cap,
                            tn_hierarchy_result *res)
{
    tn_hierarchy_result r;
    memset(&r, 0, sizeof r);
    if (res)
        *res = r;
    if (!c || !h || cap < 0 || (cap > 0 && !out) ||
        (mode != TN_HIERARCHY_FAST && mode != TN_HIERARCHY_EXACT))
        return TN_E_INVALID_ARG;
    if (!tn_hierarchy_current(h))
        return TN_E_MAP_CHANGED;
    tn__grid g;
    tn__map_grid(h->map, &g);
    if (!tn__grid_contains(&g, start.x, start.y) || !tn__grid_contains(&g, goal.x, goal.y))
        return TN_E_OUT_OF_MAP;
    if (!tn__grid_passable(&g, start.x, start.y))
        return TN_E_START_BLOCKED;
    if (!tn__grid_passable(&g, goal.x, goal.y))
        return TN_E_GOAL_BLOCKED;
    tn_status st = ctx_fit(c, h, mode == TN_HIERARCHY_EXACT);
    if (st < 0)
        return st;
    const double sc = tn_moves_straight(&h->moves), dc = tn_moves_diagonal(&h->moves);
    emitter e = {out, cap, 0, 0, 0.0, &g, sc, dc, start};
    if (start.x == goal.x && start.y == goal.y) {
        emit(&e, start);
        st = TN_OK;
    } else {
        st = fast_path(c, h, &g, start, goal, &e, &r);
    }
    if (st == TN_OK && g.uniform)
        e.cost = (double)e.diag * dc + (double)(e.n - 1 - e.diag) * sc;
    if (mode == TN_HIERARCHY_EXACT) {
        /* proof: the cost equals the lower bound of the octile (manhattan) distance */
        int32_t ax = abs(goal.x - start.x), ay = abs(goal.y - start.y);
        int32_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
        double lb = h->moves.diagonal == TN_DIAGONAL_NEVER ? sc * (double)(ax + ay)
                                                           : dc * mn + sc * (mx - mn);
        lb *= (double)g.min_cost;
        if (st == TN_OK && e.cost <= lb * (1.0 + 1e-12)) {
            r.proven = true;
        } else if (st == TN_OK) {
            tn_query q;
            memset(&q, 0, sizeof q);
            q.moves = h->moves;
            q.algo = TN_ALGO_JPS;
            q.jps_fallback = true;
            tn_search_result sr;
            st = tn_search_path(c->search, h->map, start, goal, &q, out, cap, &sr);
            r.expanded += sr.expanded;
            r.length = sr.length;
            r.cost = st == TN_OK ? sr.cost : 0.0;
            if (res)
                *res = r;
            return st;
        }
        /* TN_NO_PATH: the abstract graph joins every two cells the grid joins (an entrance
         * has transition cells on both sides), so there is none */
    }
    r.length = e.n;
    r.cost = st == TN_OK ? e.cost : 0.0;
    if (st == TN_NO_PATH)
        r.length = 0;
    if (res)
        *res = r;
    if (st == TN_OK && e.n > cap)
        return TN_E_BUFFER_TOO_SMALL;
    return st;
}
