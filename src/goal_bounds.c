/* Goal bounding (Rabin and Sturtevant, Game AI Pro 3, 2017): per cell and move, the bounding
 * box of the cells that a canonical shortest path starting with that move can reach.
 *
 * Canonical paths are the ones JPS searches (jps.c): after a straight step only the same step
 * and the moves its forced neighbours allow, after a diagonal step its two straight parts and
 * itself. Between any two connected cells some shortest path is canonical, and every suffix
 * of a canonical path is canonical from its first cell; so when JPS expands a node n on its
 * way along a canonical shortest path to the goal, the path's next move from n begins a
 * canonical shortest path from n to the goal, and that move's box at n holds the goal. Pruning
 * by the boxes never removes it: JPS stays optimal. (A box of every shortest path, ties
 * included, would be safe too, but on open ground three moves tie for most targets, and the
 * boxes would prune three times less.)
 *
 * The build runs one canonical Dijkstra search (Sturtevant and Rabin, "Canonical Orderings on
 * Grids", IJCAI 2016) from every passable source s. Each reached cell t carries the moves it
 * was reached by on shortest paths (its successors are the union of the canonical successors
 * of those arrivals), and the set of s's moves that begin those paths: a neighbour of s
 * reached by move m gets {m}, any other cell the union of the sets of its shortest-path
 * predecessors. Both are final when t is taken from the open list, since its predecessors cost
 * strictly less and were taken before. Costs are kept as step counts (straight a, diagonal b)
 * and compared as a * S + b * D, computed afresh from the counts each time, so two paths with
 * the same counts tie exactly (with exact costs distinct counts never tie: sqrt 2 is
 * irrational; with 10/14 the values are integers). */
#include "goal_bounds_internal.h"

#include <string.h>

#define GB_MAX_SIDE 32767

static inline double cost_of(double S, double D, int32_t a, int32_t b)
{
    return (double)a * S + (double)b * D;
}

/* One Dijkstra search's arrays, reused from source to source.
 *
 * The open list is a ring of three buckets of width `unit` (the straight step cost, the
 * smallest step): a cell whose cost lies in [i * unit, (i + 1) * unit) waits in bucket i mod 3.
 * Every step costs at least one unit and less than two (sqrt 2 or 1.4), so a cell of bucket i
 * only reaches buckets i + 1 and i + 2, and its shortest-path predecessors all lie in earlier
 * buckets: when bucket i comes up its cells are final and may be taken in any order (Dial's
 * algorithm with buckets no wider than the smallest step). */
typedef struct gb_work {
    int32_t *sa, *sd; /* straight and diagonal step counts of the best path found */
    uint32_t *stamp;  /* 2 * source number: reached; + 1: done */
    uint8_t *first;   /* moves of the source that begin a shortest path to the cell */
    uint8_t *arrive;  /* moves the cell is reached by on shortest paths */
    int32_t *ring[3]; /* the buckets' cells (a cell is in a bucket at most once) */
    int32_t count[3];
    uint8_t *legal;  /* per cell: the moves allowed from it */
    uint8_t *forced; /* per cell: tn__jps_forced() */
} gb_work;

static void work_free(const tn_allocator *a, gb_work *k, size_t cells)
{
    tn__free(a, k->sa, cells * sizeof *k->sa);
    tn__free(a, k->sd, cells * sizeof *k->sd);
    tn__free(a, k->stamp, cells * sizeof *k->stamp);
    tn__free(a, k->first, cells);
    tn__free(a, k->arrive, cells);
    for (int r = 0; r < 3; r++)
        tn__free(a, k->ring[r], cells * sizeof *k->ring[r]);
    tn__free(a, k->legal, cells);
    tn__free(a, k->forced, cells);
}

static bool work_alloc(const tn_allocator *a, gb_work *k, size_t cells)
{
    k->sa = tn__alloc(a, cells * sizeof *k->sa);
    k->sd = tn__alloc(a, cells * sizeof *k->sd);
    k->stamp = tn__calloc(a, cells * sizeof *k->stamp);
    k->first = tn__alloc(a, cells);
    k->arrive = tn__alloc(a, cells);
    bool ok = k->sa && k->sd && k->stamp && k->first && k->arrive;
    for (int r = 0; r < 3; r++) {
        k->ring[r] = tn__alloc(a, cells * sizeof *k->ring[r]);
        ok = ok && k->ring[r];
    }
    k->legal = tn__alloc(a, cells);
    k->forced = tn__alloc(a, cells);
    return ok && k->legal && k->forced;
}

/* The moves allowed from every cell (target free, both orthogonal cells free for a diagonal)
 * and its forced bits. */
static void legal_moves(const uint8_t *pass, int32_t w, int32_t h, uint8_t *legal, uint8_t *forced)
{
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint8_t m = 0;
            if (pass[y * w + x])
                for (int d = 0; d < 8; d++) {
                    int32_t nx = x + tn__dir_dx[d], ny = y + tn__dir_dy[d];
                    bool ok = tn__pass_at(pass, w, h, nx, ny) &&
                              (d < 4 || (pass[y * w + nx] && pass[ny * w + x]));
                    m |= (uint8_t)(ok ? 1u << d : 0u);
                }
            legal[y * w + x] = m;
            forced[y * w + x] = (uint8_t)tn__jps_forced(pass, w, h, x, y);
        }
}

/* Cell i's box of move d: [x0, x1] x [y0, y1], or empty when x0 > x1 (see tn_goal_bounds). */
static void write_box(const tn_goal_bounds *gb, size_t i, int d, int32_t x0, int32_t y0, int32_t x1,
                      int32_t y1)
{
    int16_t *b = gb->box + i * 32 + 4 * (size_t)d;
    bool empty = x0 > x1;
    b[0] = (int16_t)(empty ? INT16_MAX : x0);
    b[1] = (int16_t)(empty ? INT16_MAX : y0);
    b[2] = (int16_t)(empty ? INT16_MIN : x1);
    b[3] = (int16_t)(empty ? INT16_MIN : y1);
}

/* The bucket of a cost (see gb_work). */
static inline int32_t bucket_of(double cost, double inv_unit)
{
    return (int32_t)(cost * inv_unit);
}

/* The boxes of source `src` (number `num`): one canonical Dijkstra search. */
static void bound_source(const tn_goal_bounds *gb, gb_work *k, int32_t src, uint32_t num)
{
    const int32_t w = gb->w;
    const double S = gb->straight, D = gb->diagonal, inv = 1.0 / S;
    const uint32_t reached = 2 * num, done = 2 * num + 1;
    int32_t off[8];
    for (int d = 0; d < 8; d++)
        off[d] = tn__dir_dx[d] + tn__dir_dy[d] * w;
    int32_t bx0[8], by0[8], bx1[8], by1[8];
    for (int d = 0; d < 8; d++) {
        bx0[d] = by0[d] = INT32_MAX;
        bx1[d] = by1[d] = INT32_MIN;
    }
    k->stamp[src] = reached;
    k->sa[src] = 0;
    k->sd[src] = 0;
    k->first[src] = 0;
    k->arrive[src] = 0;
    k->count[0] = 1;
    k->count[1] = k->count[2] = 0;
    k->ring[0][0] = src;
    for (int32_t b = 0; k->count[0] + k->count[1] + k->count[2] > 0; b++) {
        int32_t *ring = k->ring[b % 3];
        const int32_t n = k->count[b % 3];
        k->count[b % 3] = 0; /* nothing is added to the bucket being emptied */
        for (int32_t e = 0; e < n; e++) {
            const int32_t p = ring[e];
            if (k->stamp[p] == done || bucket_of(cost_of(S, D, k->sa[p], k->sd[p]), inv) != b)
                continue; /* an entry left behind when the cell moved to an earlier bucket */
            k->stamp[p] = done;
            const uint8_t fp = k->first[p];
            if (p != src) {
                const int32_t py = row_of_index(gb->wdiv, (uint32_t)p), px = p - py * w;
                for (uint32_t f = fp; f; f &= f - 1) {
                    int d = tn__ctz32(f);
                    bx0[d] = px < bx0[d] ? px : bx0[d];
                    bx1[d] = px > bx1[d] ? px : bx1[d];
                    by0[d] = py < by0[d] ? py : by0[d];
                    by1[d] = py > by1[d] ? py : by1[d];
                }
            }
            const int32_t pa = k->sa[p], pd = k->sd[p];
            uint32_t moves = k->legal[p];
            if (p != src) { /* the canonical successors of the moves p was reached by */
                uint32_t canon = 0;
                for (uint32_t a = k->arrive[p]; a; a &= a - 1)
                    canon |= tn__jps_moves((uint32_t)tn__ctz32(a), k->forced[p]);
                moves &= canon;
            }
            for (uint32_t m = moves; m; m &= m - 1) {
                const int d = tn__ctz32(m);
                const int32_t t = p + off[d];
                const uint32_t st = k->stamp[t];
                if (st == done)
                    continue; /* it costs less than p + a step: p is not its predecessor */
                const int32_t na = pa + (d < 4), nd = pd + (d >= 4);
                const uint8_t nf = (uint8_t)(p == src ? 1u << d : fp);
                const double nk = cost_of(S, D, na, nd);
                int32_t tb = -1; /* t's bucket so far */
                if (st == reached) {
                    const double tk = cost_of(S, D, k->sa[t], k->sd[t]);
                    tb = bucket_of(tk, inv);
                    if (nk == tk) {
                        k->first[t] |= nf;
                        k->arrive[t] |= (uint8_t)(1u << d);
                        continue;
                    }
                    if (!(nk < tk))
                        continue;
                }
                const int32_t nb = bucket_of(nk, inv);
                TN_ASSERT(nb > b && nb <= b + 2);
                k->stamp[t] = reached;
                k->sa[t] = na;
                k->sd[t] = nd;
                k->first[t] = nf;
                k->arrive[t] = (uint8_t)(1u << d);
                if (tb != nb) /* not yet waiting in that bucket */
                    k->ring[nb % 3][k->count[nb % 3]++] = t;
            }
        }
    }
    for (int d = 0; d < 8; d++)
        write_box(gb, (size_t)src, d, bx0[d], by0[d], bx1[d], by1[d]);
}

tn_goal_bounds_def tn_goal_bounds_def_default(void)
{
    tn_goal_bounds_def d;
    memset(&d, 0, sizeof d);
    d.moves = (tn_moves){TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    d.internal_cookie = TN_COOKIE_GOAL_BOUNDS_DEF;
    return d;
}

tn_status tn_goal_bounds_build(const tn_goal_bounds_def *def, tn_goal_bounds **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    tn_allocator a;
    if (!def || def->internal_cookie != TN_COOKIE_GOAL_BOUNDS_DEF ||
        !tn__allocator_of(&def->allocator, &a) || !def->map || !tn_moves_valid(&def->moves))
        return TN_E_INVALID_ARG;
    const tn_map *map = def->map;
    const tn_moves *moves = &def->moves;
    if (moves->diagonal != TN_DIAGONAL_NO_CUT)
        return TN_E_UNSUPPORTED;
    tn__grid g;
    tn__map_grid(map, &g);
    if (!g.uniform)
        return TN_E_UNSUPPORTED;
    if (g.w > GB_MAX_SIDE || g.h > GB_MAX_SIDE)
        return TN_E_TOO_LARGE;
    const size_t cells = (size_t)g.w * (size_t)g.h;
    size_t passable = 0;
    for (size_t i = 0; i < cells; i++)
        passable += g.pass[i];
    if (passable > (size_t)TN_GOAL_BOUNDS_MAX_PASSABLE)
        return TN_E_TOO_LARGE;
    tn_goal_bounds *gb = tn__calloc(&a, sizeof *gb);
    if (!gb)
        return TN_E_NOMEM;
    gb->alloc = a;
    gb->cookie = TN_COOKIE_GB;
    gb->w = g.w;
    gb->h = g.h;
    gb->wdiv = row_divider(g.w);
    gb->moves = *moves;
    gb->straight = tn_moves_straight(moves);
    gb->diagonal = tn_moves_diagonal(moves);
    gb->fingerprint = tn__grid_fingerprint(map, &g);
    /* one cell's 8 boxes are 64 bytes: start them on a 64-byte boundary so that each cell's
     * boxes are one cache line */
    gb->mem = tn__alloc(&a, cells * 32 * sizeof(int16_t) + 64);
    gb->box =
        gb->mem ? (int16_t *)((uintptr_t)((unsigned char *)gb->mem + 63) & ~(uintptr_t)63) : NULL;
    gb_work k;
    memset(&k, 0, sizeof k);
    bool ok = gb->box && work_alloc(&a, &k, cells);
    if (ok) {
        legal_moves(g.pass, g.w, g.h, k.legal, k.forced);
        uint32_t num = 0;
        for (size_t i = 0; i < cells; i++) {
            if (g.pass[i])
                bound_source(gb, &k, (int32_t)i, ++num);
            else
                for (int d = 0; d < 8; d++)
                    write_box(gb, i, d, 1, 0, 0, 0); /* empty */
        }
    }
    work_free(&a, &k, cells);
    if (!ok) {
        tn_goal_bounds_destroy(gb);
        return TN_E_NOMEM;
    }
    *out = gb;
    return TN_OK;
}

void tn_goal_bounds_destroy(tn_goal_bounds *gb)
{
    if (!gb || gb->cookie != TN_COOKIE_GB)
        return;
    tn_allocator a = gb->alloc;
    tn__free(&a, gb->mem, (size_t)gb->w * (size_t)gb->h * 32 * sizeof(int16_t) + 64);
    gb->cookie = 0;
    tn__free(&a, gb, sizeof *gb);
}

size_t tn_goal_bounds_memory_bytes(const tn_goal_bounds *gb)
{
    return gb ? sizeof *gb + (size_t)gb->w * (size_t)gb->h * 32 * sizeof(int16_t) + 64 : 0;
}

/* Were the bounds built from this map (read into g) at its current revision? */
static bool built_from(const tn_goal_bounds *gb, const tn_map *map, const tn__grid *g)
{
    return gb->w == g->w && gb->h == g->h && gb->fingerprint == tn__grid_fingerprint(map, g);
}

bool tn_goal_bounds_current(const tn_goal_bounds *gb, const tn_map *map)
{
    if (!gb || !map)
        return false;
    tn__grid g;
    tn__map_grid(map, &g);
    return built_from(gb, map, &g);
}

tn_status tn__goal_bounds_check(const tn_goal_bounds *gb, const tn_map *map, const tn__grid *g,
                                const tn_moves *moves)
{
    if (gb->cookie != TN_COOKIE_GB || gb->moves.costs != moves->costs ||
        gb->moves.diagonal != moves->diagonal)
        return TN_E_INVALID_ARG;
    return built_from(gb, map, g) ? TN_OK : TN_E_MAP_CHANGED;
}

tn_status tn_goal_bounds_box(const tn_goal_bounds *gb, int32_t x, int32_t y, tn_dir dir,
                             tn_rect *box)
{
    if (!gb || !box || (int)dir < 0 || (int)dir > 7)
        return TN_E_INVALID_ARG;
    if (x < 0 || y < 0 || x >= gb->w || y >= gb->h)
        return TN_E_OUT_OF_MAP;
    const int16_t *b = tn__goal_box(gb, y * gb->w + x, tn__move_of_dir[dir]);
    if (b[0] > b[2])
        *box = (tn_rect){0, 0, 0, 0};
    else
        *box = (tn_rect){b[0], b[1], b[2] + 1, b[3] + 1};
    return TN_OK;
}
