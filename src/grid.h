/* The grid layer: what paths, jump tables and goal bounds read of a map, in one place below
 * them. A snapshot of the map's passability and costs (tn__grid, filled by tn__map_grid()),
 * the fingerprint that caches built from a map are keyed on, the eight moves and their tables,
 * JPS's pruning rules as move sets over a passability array, and the row divider that turns a
 * cell index into its row without a division. Nothing here knows a search context, a jump
 * table or goal bounds; they all include this file, never the other way round
 * (docs/ARCHITECTURE.md). */
#ifndef TILENAV_GRID_H
#define TILENAV_GRID_H

#include "internal.h"
#include "map_internal.h"
#include "tilenav/moves.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The moves in the searches' order: E, W, S, N, SE, NE, SW, NW (straight moves first; the
 * open list's tie-breaking depends on it). tn__move_of_dir maps a public ::tn_dir to it. */
extern const int8_t tn__dir_dx[8];
extern const int8_t tn__dir_dy[8];
extern const uint8_t tn__move_of_dir[8];

/* What identifies a map's passability for the caches (JPS bitsets, jump tables): its address,
 * the address of its passability array, size, revision and tn__map_passable_hash(), a hash of
 * every cell's passability that the map keeps up to date. A map replaced by another at the
 * same address with the same size and revision matches only if every cell's passability is
 * the same (up to a 64-bit hash collision). */
uint64_t tn__map_fingerprint(const tn_map *map);
uint64_t tn__grid_fingerprint(const tn_map *map, const tn__grid *g); /* the same, from its grid */

/* Line of sight between the centres of two cells: the supercover walk of the segment visits
 * only passable cells, and where it passes exactly through a grid corner the diagonal step
 * obeys `corner` (TN_DIAGONAL_NEVER counts as NO_CUT). False when either end is blocked or
 * outside. The public tn_los_clear() and the field's exact sweep agree with it cell for cell. */
bool tn__grid_los(const tn__grid *g, tn_cell a, tn_cell b, tn_diagonal corner);

/* Passability bitsets (JPS reads them; tn__passbits_update builds them when the map's
 * fingerprint changes): three bitset arrays, each line padded with TN__BITS_PAD blocked cells on
 * both sides (bit x + TN__BITS_PAD of a line = cell x) and with a blocked line above and below the
 * map: rows:  the passability of row y as line y + 1, rw words per line; cols:  the same transposed
 * (column x as line x + 1, cw words per line), for vertical scans; flags: the jump-ahead flags of
 * row y as line y + 1: four sets interleaved word by word (word i of set k is word i *
 * TN__FLAG_SETS + k of the line, TN__FLAG_SETS * rw words per line), so that a diagonal step finds
 * both flags it tests in one 32-byte group. */
#define TN__BITS_PAD 64
enum {
    TN__FLAG_E = 0, /* a jump east from the cell finds a jump point */
    TN__FLAG_W = 1, /* ... west */
    TN__FLAG_S = 2, /* ... south (increasing y) */
    TN__FLAG_N = 3, /* ... north */
    TN__FLAG_SETS = 4
};

typedef struct tn__passbits {
    uint64_t fingerprint; /* tn__map_fingerprint() of the map it was built from */
    int32_t w, h;
    size_t row_words; /* words per line of rows (and per flag set of a flags line) */
    size_t col_words; /* words per line of cols */
    uint64_t *rows;   /* (h + 2) * row_words */
    uint64_t *flags;  /* (h + 2) * 4 * row_words */
    uint64_t *cols;   /* (w + 2) * col_words */
    /* maps whose costs are not uniform (all NULL otherwise): the cost-boundary cells
     * (tn__cost_boundary) laid out as rows, (h + 2) * row_words */
    uint64_t *brows;
    /* weighted maps: 8 bytes per cell, byte 8 * i + d = the moves of cost-boundary cell i
     * after arrival move d (tn__boundary_info, 0 elsewhere) */
    uint8_t *bmoves;
    /* weighted maps: which boundary cells stop a straight jump in each direction (bit set =
     * stops; tn__boundary_info), as rows (E, W, S, N) and as cols (S, N); the jump-ahead
     * flags count them as jump points too. bstop: per cell the stop bits of all 8 moves (the
     * diagonal jumps read them) */
    uint64_t *zrows[4];
    uint64_t *zcols[2];
    uint8_t *bstop;
    size_t cap_words; /* words allocated (one allocation, at rows) */
    /* what it was built from, for updates by the map's change log: the map, its passability
     * array, its revision and hashes then */
    const tn_map *map;
    const uint8_t *pass;
    uint64_t revision, passable_hash, cost_hash;
    uint64_t patches; /* updates made by the change log (tests read it) */
} tn__passbits;

/* Bring `b` up to date with the map read into `g` (nothing to do when its fingerprint
 * matches); allocates through `alloc` when the map grew. After edits of the map `b` was built
 * from, it updates only the lines the map's change log says changed (tn__passbits_same_map). */
tn_status tn__passbits_update(tn__passbits *b, const tn_map *map, const tn__grid *g,
                              const tn_allocator *alloc);
void tn__passbits_free(tn__passbits *b, const tn_allocator *alloc);
/* A hash of every word of `b`'s arrays (tests compare an updated cache with a fresh one). */
uint64_t tn__passbits_digest(const tn__passbits *b);
/* Was `b` built from this map (same object, passability array and size), at any revision? */
bool tn__passbits_same_map(const tn__passbits *b, const tn_map *map, const tn__grid *g);

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

/* ---- JPS's pruning rules as move sets (8 neighbours, no corner cutting) ---------------
 * One definition for the jump table (jpsplus.c) and the goal bounds' canonical Dijkstra
 * (goal_bounds.c); jps.c applies the same rules on its bitsets. Moves are numbered as
 * tn__dir_dx/dy (E, W, S, N, SE, NE, SW, NW). After a straight move a, the side -1 (side
 * bit 0) or +1 (side bit 1) is forced when its cell is free while the cell beside the one
 * arrived from is blocked. */
#define TN_FORCED_BIT(a, side) (1u << (2 * (a) + (side)))

TN_INLINE bool tn__pass_at(const uint8_t *pass, int32_t w, int32_t h, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < w && y < h && pass[(size_t)y * (size_t)w + (size_t)x];
}

/* The forced sides of cell (x, y) for the four straight arrivals, TN_FORCED_BIT(a, side). */
TN_INLINE uint32_t tn__jps_forced(const uint8_t *pass, int32_t w, int32_t h, int32_t x, int32_t y)
{
    uint32_t f = 0;
    for (uint32_t side = 0; side < 2; side++) {
        int32_t sd = side ? 1 : -1;
        bool row = tn__pass_at(pass, w, h, x, y + sd), col = tn__pass_at(pass, w, h, x + sd, y);
        f |= row && !tn__pass_at(pass, w, h, x - 1, y + sd) ? TN_FORCED_BIT(0, side) : 0u;
        f |= row && !tn__pass_at(pass, w, h, x + 1, y + sd) ? TN_FORCED_BIT(1, side) : 0u;
        f |= col && !tn__pass_at(pass, w, h, x + sd, y - 1) ? TN_FORCED_BIT(2, side) : 0u;
        f |= col && !tn__pass_at(pass, w, h, x + sd, y + 1) ? TN_FORCED_BIT(3, side) : 0u;
    }
    return f;
}

/* Weighted JPS (jps.c, jpsplus.c): a cost-boundary cell is a passable cell with a passable
 * 8-neighbour of another cost. Cells that are not on a boundary have the cost of all their
 * passable neighbours, so JPS's pruning rules hold there unchanged; boundary cells get their
 * moves and stops from the local rule below (the argument is in docs/search.md). */
TN_INLINE bool tn__cost_boundary(const uint8_t *pass, const float *cost, int32_t w, int32_t h,
                                 int32_t x, int32_t y)
{
    const size_t i = (size_t)y * (size_t)w + (size_t)x;
    if (!pass[i])
        return false;
    const float c = cost[i];
    for (int32_t ny = y - 1; ny <= y + 1; ny++)
        for (int32_t nx = x - 1; nx <= x + 1; nx++)
            if (tn__pass_at(pass, w, h, nx, ny) && cost[(size_t)ny * (size_t)w + (size_t)nx] != c)
                return true;
    return false;
}

/* The 5 x 5 cells around a cell (x, y), for weighted JPS's local rule: c[2 + j][2 + i] is the
 * cost of cell (x + i, y + j), +INFINITY when it is blocked or outside the map. */
typedef struct tn__window {
    double c[5][5];
} tn__window;

TN_INLINE void tn__window_at(tn__window *win, const uint8_t *pass, const float *cost, int32_t w,
                             int32_t h, int32_t x, int32_t y)
{
    for (int32_t j = -2; j <= 2; j++)
        for (int32_t i = -2; i <= 2; i++)
            win->c[2 + j][2 + i] = tn__pass_at(pass, w, h, x + i, y + j)
                                       ? (double)cost[(size_t)(y + j) * (size_t)w + (size_t)(x + i)]
                                       : (double)INFINITY;
}

/* Weighted JPS's pruning rule, at cost-boundary cell v (the window's centre) reached by move
 * `dir` from p = v - dir: the moves k (bit k, moves numbered as tn__dir_dx/dy) whose step to
 * n = v + k is not dominated. A step is dominated when p reaches n without v, in one legal step
 * or two, for less than step(p, v) + step(v, n), or for as much by a diagonal step then a
 * straight one while the way through v is a straight step then a diagonal one (JPS's "diagonal
 * first" tie-break). Comparisons allow a relative 1e-12 for rounding. Among the shortest paths,
 * one with the fewest straight-before-diagonal pairs takes no dominated step: replacing a
 * strictly dominated step would make it cheaper, a tied one would remove one such pair. On a
 * cell whose neighbours all cost the same this is exactly JPS's rule (natural and forced
 * neighbours), so the rule is the same everywhere (docs/search.md).
 *
 * The rule is evaluated for both step-cost sets at once (1 and sqrt 2; 10 and 14: one step's
 * legality, two prices) and a move is kept when either set keeps it, so that one cache serves
 * every query. */
typedef struct tn__price2 {
    double a, b; /* the price under step costs 1 / sqrt 2, and under 10 / 14 */
} tn__price2;

/* The prices of the step from a to the adjacent cell b (coordinates relative to the window's
 * centre) under 8 neighbours without corner cutting: the step cost times the cost of the cell
 * entered; +INFINITY when the step is not legal. */
TN_INLINE tn__price2 tn__window_step2(const tn__window *win, int32_t ax, int32_t ay, int32_t bx,
                                      int32_t by)
{
    const double cb = win->c[2 + by][2 + bx];
    if (ax != bx && ay != by) {
        if (win->c[2 + ay][2 + bx] == (double)INFINITY ||
            win->c[2 + by][2 + ax] == (double)INFINITY)
            return (tn__price2){(double)INFINITY, (double)INFINITY};
        return (tn__price2){TN_SQRT2 * cb, 14.0 * cb};
    }
    return (tn__price2){cb, 10.0 * cb};
}

/* Does `alt` dominate `via` (strictly, or tied when `tie`: the tie-break's shape applies)? */
TN_INLINE bool tn__dominates(double alt, double via, bool tie)
{
    const double eps = 1e-12 * via;
    return alt < via - eps || (tie && fabs(alt - via) <= eps);
}

TN_INLINE uint32_t tn__boundary_moves(const tn__window *win, uint32_t dir)
{
    const int32_t px = -tn__dir_dx[dir], py = -tn__dir_dy[dir];
    const tn__price2 in = tn__window_step2(win, px, py, 0, 0);
    uint32_t moves = 0;
    for (uint32_t k = 0; k < 8; k++) {
        const int32_t nx = tn__dir_dx[k], ny = tn__dir_dy[k];
        const tn__price2 out = tn__window_step2(win, 0, 0, nx, ny);
        const int32_t ex = nx - px, ey = ny - py;
        if (out.a == (double)INFINITY || (ex == 0 && ey == 0))
            continue; /* not a step, or back to p */
        const tn__price2 via = {in.a + out.a, in.b + out.b};
        const bool sd = dir < 4 && k >= 4; /* through v: straight, then diagonal */
        bool da = false, db = false;       /* dominated under each step-cost set */
        if (ex >= -1 && ex <= 1 && ey >= -1 && ey <= 1) {
            const tn__price2 d = tn__window_step2(win, px, py, nx, ny);
            da = tn__dominates(d.a, via.a, false);
            db = tn__dominates(d.b, via.b, false);
        }
        /* the cells next to both p and n, but v and n */
        const int32_t x0 = (px > nx ? px : nx) - 1, x1 = (px < nx ? px : nx) + 1;
        const int32_t y0 = (py > ny ? py : ny) - 1, y1 = (py < ny ? py : ny) + 1;
        for (int32_t my = y0; my <= y1 && !(da && db); my++)
            for (int32_t mx = x0; mx <= x1 && !(da && db); mx++) {
                if ((mx == 0 && my == 0) || (mx == px && my == py) || (mx == nx && my == ny))
                    continue;
                const tn__price2 s1 = tn__window_step2(win, px, py, mx, my);
                if (s1.a == (double)INFINITY)
                    continue;
                const tn__price2 s2 = tn__window_step2(win, mx, my, nx, ny);
                /* the tie-break: p -> m diagonal, m -> n straight */
                const bool tie = sd && mx != px && my != py && (mx == nx || my == ny);
                da = da || tn__dominates(s1.a + s2.a, via.a, tie);
                db = db || tn__dominates(s1.b + s2.b, via.b, tie);
            }
        if (!(da && db))
            moves |= 1u << k;
    }
    return moves;
}

/* What the caches keep of cost-boundary cell (x, y), for every arrival move d: moves[d], the
 * moves of tn__boundary_moves() under either step-cost set (1 and sqrt 2, 10 and 14; a move
 * pruned under one only is kept, so one cache serves every query), and bit d of the result:
 * does the cell stop a jump arriving by d. It does when it has moves a jump through it would
 * not cover (after a straight d: any but d; after a diagonal d: any but d and its two straight
 * parts, which the diagonal jump's straight scans cover), or when the next cell along d costs
 * otherwise (so that every cell a jump enters costs the same). */
TN_INLINE uint32_t tn__boundary_info(const uint8_t *pass, const float *cost, int32_t w, int32_t h,
                                     int32_t x, int32_t y, uint8_t moves[8])
{
    tn__window win;
    tn__window_at(&win, pass, cost, w, h, x, y);
    const double c = win.c[2][2];
    uint32_t stop = 0;
    for (uint32_t d = 0; d < 8; d++) {
        uint32_t m = tn__boundary_moves(&win, d);
        moves[d] = (uint8_t)m;
        const int32_t dx = tn__dir_dx[d], dy = tn__dir_dy[d];
        uint32_t covered = 1u << d;
        if (d >= 4)
            covered |= 1u << (dx > 0 ? 0 : 1) | 1u << (dy > 0 ? 2 : 3);
        const double next = win.c[2 + dy][2 + dx];
        bool change = next != (double)INFINITY && next != c;
        if ((d < 4 ? m != covered : (m & ~covered) != 0) || change)
            stop |= 1u << d;
    }
    return stop;
}

/* The two moves a forced side adds after straight move a: the straight step to that side and
 * the diagonal between a and it. */
TN_INLINE uint32_t tn__jps_side_moves(uint32_t a, uint32_t side)
{
    switch (a) {
    case 0: return side ? (1u << 2 | 1u << 4) : (1u << 3 | 1u << 5);  /* E: S, SE | N, NE */
    case 1: return side ? (1u << 2 | 1u << 6) : (1u << 3 | 1u << 7);  /* W: S, SW | N, NW */
    case 2: return side ? (1u << 0 | 1u << 4) : (1u << 1 | 1u << 6);  /* S: E, SE | W, SW */
    default: return side ? (1u << 0 | 1u << 5) : (1u << 1 | 1u << 7); /* N: E, NE | W, NW */
    }
}

/* The moves JPS expands at a cell reached by move k, given the cell's forced bits: after a
 * straight move the same move and what the forced sides add; after a diagonal move its two
 * straight parts and itself. */
TN_INLINE uint32_t tn__jps_moves(uint32_t k, uint32_t forced)
{
    if (k >= 4)
        return 1u << (k == 4 || k == 5 ? 0 : 1) | 1u << (k == 4 || k == 6 ? 2 : 3) | 1u << k;
    uint32_t m = 1u << k;
    for (uint32_t side = 0; side < 2; side++)
        if (forced & TN_FORCED_BIT(k, side))
            m |= tn__jps_side_moves(k, side);
    return m;
}

#endif
