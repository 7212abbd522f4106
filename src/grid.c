/* The grid layer's out-of-line parts: the move tables and the map fingerprint (grid.h). */
#include "grid.h"

#include "tilenav/field.h"
#include "tilenav/moves.h"

#include <string.h>

const int8_t tn__dir_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
const int8_t tn__dir_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
/* tn_dir E, SE, S, SW, W, NW, N, NE -> moves 0, 4, 2, 6, 1, 7, 3, 5 */
const uint8_t tn__move_of_dir[8] = {0, 4, 2, 6, 1, 7, 3, 5};

int32_t tn_dir_dx(int32_t dir)
{
    static const int8_t dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    return dir >= 0 && dir < 8 ? dx[dir] : 0;
}

int32_t tn_dir_dy(int32_t dir)
{
    static const int8_t dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    return dir >= 0 && dir < 8 ? dy[dir] : 0;
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
    if (g->cost_hash) /* weighted maps: the weighted JPS cache and jump tables read costs */
        f = mix(f, g->cost_hash);
    return mix(f, g->passable_hash);
}

uint64_t tn__map_fingerprint(const tn_map *map)
{
    tn__grid g;
    tn__map_grid(map, &g);
    return tn__grid_fingerprint(map, &g);
}

/* ---- line of sight on the grid ---------------------------------------------------------- */

bool tn__grid_los(const tn__grid *g, tn_cell a, tn_cell b, tn_diagonal corner)
{
    if (!tn__grid_passable(g, a.x, a.y) || !tn__grid_passable(g, b.x, b.y))
        return false;
    if (corner == TN_DIAGONAL_NEVER) /* a line cannot keep to rows and columns */
        corner = TN_DIAGONAL_NO_CUT;
    int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
    int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    int32_t x = a.x, y = a.y;
    for (int64_t ix = 0, iy = 0; ix < nx || iy < ny;) {
        /* next vertical grid line at t = (1+2ix)/(2nx), next horizontal at (1+2iy)/(2ny) */
        int64_t cmp = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if (cmp == 0) {
            bool fa = tn__grid_passable(g, x + sx, y), fb = tn__grid_passable(g, x, y + sy);
            if (!tn_moves_diagonal_ok(corner, fa, fb))
                return false;
            x += sx;
            y += sy;
            ix++;
            iy++;
        } else if (cmp < 0) {
            x += sx;
            ix++;
        } else {
            y += sy;
            iy++;
        }
        if (!tn__grid_passable(g, x, y))
            return false;
    }
    return true;
}

bool tn_los_clear(const tn_map *map, tn_cell a, tn_cell b, tn_diagonal corner)
{
    if (!map)
        return false;
    tn__grid g;
    tn__map_grid(map, &g);
    return tn__grid_los(&g, a, b, corner);
}

/* ---- passability bitsets and jump-ahead flags ------------------------------------------- */

#define PAD TN__BITS_PAD
#define FLAG_SETS TN__FLAG_SETS
enum { FLAG_E = TN__FLAG_E, FLAG_W = TN__FLAG_W, FLAG_S = TN__FLAG_S, FLAG_N = TN__FLAG_N };

void tn__passbits_free(tn__passbits *c, const tn_allocator *alloc)
{
    tn__free(alloc, c->rows, c->cap_words * sizeof(uint64_t));
    memset(c, 0, sizeof *c);
}

/* Segmented fill towards lower bits: bit x of the result is bit y of v for the least y >= x
 * with bit y of k set; bits with no such y take `carry` (0 or all ones). v has no bit outside
 * k. */
static inline uint64_t fill_down(uint64_t v, uint64_t k, uint64_t carry)
{
    for (int s = 1; s < 64; s *= 2) {
        v |= (v >> s) & ~k;
        k |= k >> s;
    }
    return v | (carry & ~k);
}

/* The same towards higher bits (the greatest y <= x). */
static inline uint64_t fill_up(uint64_t v, uint64_t k, uint64_t carry)
{
    for (int s = 1; s < 64; s *= 2) {
        v |= (v << s) & ~k;
        k |= k << s;
    }
    return v | (carry & ~k);
}

/* Word i of line r (n words) shifted so that bit x holds cell x - 1 (from_left) or x + 1
 * (from_right). */
static inline uint64_t from_left(const uint64_t *r, size_t i)
{
    return (r[i] << 1) | (i ? r[i - 1] >> 63 : 0);
}

static inline uint64_t from_right(const uint64_t *r, size_t i, size_t n)
{
    return (r[i] >> 1) | (i + 1 < n ? r[i + 1] << 63 : 0);
}

/* East and west flags of a row (passability line c of n words, neighbours a and b) into its
 * flag line f. Scanning east, position q stops a jump when it is blocked or a side cell is
 * free with the side cell before it (q - 1) blocked; it is a jump point when it stops and is
 * free. flag_east(x) = the first stop after x is a jump point. West mirrors it. Bits beyond
 * the line are padding (blocked). */
static void row_flags(const uint64_t *a, const uint64_t *c, const uint64_t *b, const uint64_t *ze,
                      const uint64_t *zw, uint64_t *f, size_t n)
{
    /* east: from the last word down; beyond the line every position stops, none is free */
    uint64_t s_hi = ~0ull, j_hi = 0, carry = 0;
    for (size_t i = n; i-- > 0;) {
        uint64_t st = ~c[i] | (a[i] & ~from_left(a, i)) | (b[i] & ~from_left(b, i));
        if (ze)
            st |= ze[i];
        uint64_t jp = st & c[i];
        /* bit x: does x + 1 stop, and is it a jump point */
        uint64_t k = (st >> 1) | (s_hi << 63), v = (jp >> 1) | (j_hi << 63);
        uint64_t e = fill_down(v, k, carry);
        f[i * FLAG_SETS + FLAG_E] = e;
        carry = (e & 1u) ? ~0ull : 0;
        s_hi = st;
        j_hi = jp;
    }
    uint64_t s_lo = ~0ull, j_lo = 0;
    carry = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t st = ~c[i] | (a[i] & ~from_right(a, i, n)) | (b[i] & ~from_right(b, i, n));
        if (zw)
            st |= zw[i];
        uint64_t jp = st & c[i];
        uint64_t k = (st << 1) | (s_lo >> 63), v = (jp << 1) | (j_lo >> 63);
        uint64_t e = fill_up(v, k, carry);
        f[i * FLAG_SETS + FLAG_W] = e;
        carry = (e >> 63) ? ~0ull : 0;
        s_lo = st;
        j_lo = jp;
    }
}

/* South and north flags of every row, 64 columns per word (words i0..i1-1 of each row). Scanning
 * south, (x, q) stops a jump when it is blocked or (x -+ 1, q) is free with (x -+ 1, q - 1) blocked
 * (or, on weighted maps, when it is a cost boundary). flag_south(x, y) = the first stop below y is
 * a jump point: stop(y + 1) ? free(y + 1) : flag_south(x, y + 1). */
static void column_flags(const tn__passbits *jc, int32_t h, size_t i0, size_t i1)
{
    const size_t n = jc->row_words;
    TN_ASSERT(i0 <= i1 && i1 <= n);
#define ROW(y) (jc->rows + n * (size_t)((y) + 1))
#define FLAGS(y) (jc->flags + FLAG_SETS * n * (size_t)((y) + 1))
#define BOUND(d, y) (jc->brows ? jc->zrows[d][n * (size_t)((y) + 1) + i] : 0)
    for (size_t i = i0; i < i1; i++) {
        uint64_t f = 0; /* flag_south of the row below the current one */
        for (int32_t y = h - 1; y >= 0; y--) {
            const uint64_t *c = ROW(y + 1), *up = ROW(y);
            /* does row y + 1 stop a southward jump, and is it a jump point there */
            uint64_t st = ~c[i] | (from_left(c, i) & ~from_left(up, i)) |
                          (from_right(c, i, n) & ~from_right(up, i, n)) | BOUND(2, y + 1);
            f = (st & c[i]) | (~st & f);
            FLAGS(y)[i * FLAG_SETS + FLAG_S] = f;
        }
        f = 0;
        for (int32_t y = 0; y < h; y++) {
            const uint64_t *c = ROW(y - 1), *down = ROW(y);
            uint64_t st = ~c[i] | (from_left(c, i) & ~from_left(down, i)) |
                          (from_right(c, i, n) & ~from_right(down, i, n)) | BOUND(3, y - 1);
            f = (st & c[i]) | (~st & f);
            FLAGS(y)[i * FLAG_SETS + FLAG_N] = f;
        }
    }
#undef ROW
#undef FLAGS
#undef BOUND
}

/* Bits 0..n-1 = the passability bytes (0 or 1) p[0..n-1], n <= 8. */
static inline uint64_t pack8(const uint8_t *p, int32_t n)
{
    uint64_t v = 0;
    if (n == 8) { /* one load on little-endian machines */
        v = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
            (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
            (uint64_t)p[7] << 56;
    } else {
        for (int32_t i = 0; i < n; i++)
            v |= (uint64_t)p[i] << (8 * i);
    }
    /* byte i (0 or 1) lands on bit 56 + i; nothing carries */
    return (v * 0x0102040810204080ull) >> 56;
}

/* Transpose an 8x8 bit matrix: bit c of byte r <-> bit r of byte c (Hacker's Delight 7-3). */
static inline uint64_t transpose8(uint64_t x)
{
    uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    return x ^ t ^ (t << 28);
}

/* OR 8 bits into a line at cell `pos` (a multiple of 8: the byte never straddles words). */
static inline void or_byte(uint64_t *line, int32_t pos, uint64_t byte)
{
    uint32_t b = (uint32_t)(pos + PAD);
    line[b >> 6] |= byte << (b & 63);
}

/* The row and column passability bitsets (zeroed before), in blocks of 8 x 8 cells: each
 * block's rows are packed from bytes to bits, then transposed for the columns. */
static void pack_bitsets(tn__passbits *c, const uint8_t *pass, int32_t w, int32_t h)
{
    const size_t rw = c->row_words, cw = c->col_words;
    for (int32_t y0 = 0; y0 < h; y0 += 8) {
        const int32_t ny = h - y0 < 8 ? h - y0 : 8;
        for (int32_t x0 = 0; x0 < w; x0 += 8) {
            const int32_t nx = w - x0 < 8 ? w - x0 : 8;
            uint64_t block = 0; /* byte r: cells x0.. of row y0 + r */
            for (int32_t r = 0; r < ny; r++) {
                uint64_t byte = pack8(pass + (size_t)(y0 + r) * (size_t)w + (size_t)x0, nx);
                or_byte(c->rows + rw * (size_t)(y0 + r + 1), x0, byte);
                block |= byte << (8 * r);
            }
            uint64_t t = transpose8(block); /* byte k: cells y0.. of column x0 + k */
            for (int32_t k = 0; k < nx; k++)
                or_byte(c->cols + cw * (size_t)(x0 + k + 1), y0, (t >> (8 * k)) & 0xffu);
        }
    }
}

/* The cost-boundary cells (tn__cost_boundary) into brows, their moves into bmoves and their
 * stops into bstop, zrows and zcols (all zeroed before). */
static void pack_boundaries(tn__passbits *c, const tn__grid *g)
{
    const int32_t w = g->w, h = g->h;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            if (!tn__cost_boundary(g->pass, g->cost, w, h, x, y))
                continue;
            const size_t i = (size_t)y * (size_t)w + (size_t)x;
            const uint32_t bx = (uint32_t)(x + PAD), by = (uint32_t)(y + PAD);
            const size_t rwi = c->row_words * (size_t)(y + 1) + (bx >> 6);
            const size_t cwi = c->col_words * (size_t)(x + 1) + (by >> 6);
            c->brows[rwi] |= 1ull << (bx & 63);
            uint32_t stop = tn__boundary_info(g->pass, g->cost, w, h, x, y, c->bmoves + 8 * i);
            c->bstop[i] = (uint8_t)stop;
            for (int d = 0; d < 4; d++)
                if (stop & 1u << d)
                    c->zrows[d][rwi] |= 1ull << (bx & 63);
            for (int d = 2; d < 4; d++)
                if (stop & 1u << d)
                    c->zcols[d - 2][cwi] |= 1ull << (by & 63);
        }
}

/* The east and west flags of row y (row_flags over the cache's lines; weighted maps add their
 * boundary stops). */
static void line_flags(tn__passbits *c, int32_t y)
{
    const size_t rw = c->row_words, at = rw * (size_t)(y + 1);
    const uint64_t *row = c->rows + at;
    row_flags(row - rw, row, row + rw, c->brows ? c->zrows[0] + at : NULL,
              c->brows ? c->zrows[1] + at : NULL, c->flags + FLAG_SETS * at, rw);
}

/* Set or clear bit `pos` (a cell) of a padded line. */
static inline void put_bit(uint64_t *line, int32_t pos, bool on)
{
    uint32_t b = (uint32_t)(pos + PAD);
    uint64_t m = 1ull << (b & 63);
    line[b >> 6] = on ? line[b >> 6] | m : line[b >> 6] & ~m;
}

/* The cost-boundary facts of cell (x, y) (pack_boundaries' loop body; its bits and bytes are
 * cleared first). */
static void boundary_cell(tn__passbits *c, const tn__grid *g, int32_t x, int32_t y)
{
    const int32_t w = g->w, h = g->h;
    const size_t i = (size_t)y * (size_t)w + (size_t)x;
    uint64_t *brow = c->brows + c->row_words * (size_t)(y + 1);
    const size_t ro = c->row_words * (size_t)(y + 1), co = c->col_words * (size_t)(x + 1);
    bool on = tn__cost_boundary(g->pass, g->cost, w, h, x, y);
    uint32_t stop = 0;
    memset(c->bmoves + 8 * i, 0, 8);
    if (on)
        stop = tn__boundary_info(g->pass, g->cost, w, h, x, y, c->bmoves + 8 * i);
    put_bit(brow, x, on);
    c->bstop[i] = (uint8_t)stop;
    for (int d = 0; d < 4; d++)
        put_bit(c->zrows[d] + ro, x, (stop >> d) & 1u);
    for (int d = 2; d < 4; d++)
        put_bit(c->zcols[d - 2] + co, y, (stop >> d) & 1u);
}

/* Bring the cache up to date after the cells of `r` changed (x1, y1 exclusive, inside the
 * map): their passability bits; on weighted maps the boundary facts of the cells within 2 of
 * r (tn__boundary_info reads a 5x5 window); then the jump-ahead flags of every row and of
 * every 64-column word of rows those can touch (a row's flags read the rows beside it and run
 * along the whole row; a column's likewise). */
static void patch_rect(tn__passbits *c, const tn__grid *g, tn_rect r)
{
    const int32_t w = g->w, h = g->h;
    const size_t rw = c->row_words, cw = c->col_words;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++) {
            bool on = g->pass[(size_t)y * (size_t)w + (size_t)x] != 0;
            put_bit(c->rows + rw * (size_t)(y + 1), x, on);
            put_bit(c->cols + cw * (size_t)(x + 1), y, on);
        }
    tn_rect b = r;
    if (c->brows) {
        b = (tn_rect){r.x0 - 2 > 0 ? r.x0 - 2 : 0, r.y0 - 2 > 0 ? r.y0 - 2 : 0,
                      r.x1 + 2 < w ? r.x1 + 2 : w, r.y1 + 2 < h ? r.y1 + 2 : h};
        for (int32_t y = b.y0; y < b.y1; y++)
            for (int32_t x = b.x0; x < b.x1; x++)
                boundary_cell(c, g, x, y);
    }
    for (int32_t y = b.y0 - 1 > 0 ? b.y0 - 1 : 0; y <= b.y1 && y < h; y++)
        line_flags(c, y);
    int32_t x0 = b.x0 - 1 > 0 ? b.x0 - 1 : 0, x1 = b.x1 < w ? b.x1 : w - 1;
    column_flags(c, h, (size_t)(x0 + PAD) >> 6, ((size_t)(x1 + PAD) >> 6) + 1);
}

uint64_t tn__passbits_digest(const tn__passbits *c)
{
    if (!c->rows)
        return 0;
    const size_t rw = c->row_words, cw = c->col_words;
    const size_t nrows = rw * ((size_t)c->h + 2), ncols = cw * ((size_t)c->w + 2);
    const size_t cells = (size_t)c->w * (size_t)c->h;
    size_t words = (1 + FLAG_SETS) * nrows + ncols;
    if (c->brows)
        words += 5 * nrows + 2 * ncols + cells;
    uint64_t f = 0;
    for (size_t i = 0; i < words; i++)
        f = mix(f, c->rows[i]);
    for (size_t i = 0; c->brows && i < cells; i++)
        f = mix(f, c->bstop[i]);
    return f;
}

bool tn__passbits_same_map(const tn__passbits *c, const tn_map *map, const tn__grid *g)
{
    return c->rows && c->map == map && c->pass == g->pass && c->w == g->w && c->h == g->h;
}

/* Update by the change log: true when done (false: build afresh). Only for the map the cache
 * was built from, in the same layout (weighted or not), when the log reaches back to the
 * cache's revision and vouches for its cells (tn__map_changes_since), and when the changes
 * cover less than an eighth of the map. */
static bool passbits_patch(tn__passbits *c, const tn_map *map, const tn__grid *g)
{
    if (!tn__passbits_same_map(c, map, g) || (c->brows != NULL) != !g->uniform)
        return false;
    tn_rect rects[TN_CHANGE_LOG];
    int32_t n = tn__map_changes_since(map, c->revision, c->passable_hash, c->cost_hash, rects);
    if (n < 0)
        return false;
    int64_t area = 0;
    for (int32_t k = 0; k < n; k++)
        area += (int64_t)(rects[k].x1 - rects[k].x0) * (rects[k].y1 - rects[k].y0);
    if (area > (int64_t)g->w * g->h / 8)
        return false;
    for (int32_t k = 0; k < n; k++)
        patch_rect(c, g, rects[k]);
    return true;
}

tn_status tn__passbits_update(tn__passbits *c, const tn_map *map, const tn__grid *g,
                              const tn_allocator *alloc)
{
    uint64_t fp = tn__grid_fingerprint(map, g);
    if (c->rows && c->fingerprint == fp && c->w == g->w && c->h == g->h)
        return TN_OK;
    if (passbits_patch(c, map, g)) {
        c->patches++;
        c->fingerprint = fp;
        c->revision = g->revision;
        c->passable_hash = g->passable_hash;
        c->cost_hash = g->cost_hash;
        return TN_OK;
    }
    int32_t w = g->w, h = g->h;
    /* a scan may read one word past the last padding bit it stops at */
    size_t rw = ((size_t)w + 2 * PAD + 63) / 64 + 1;
    size_t cw = ((size_t)h + 2 * PAD + 63) / 64 + 1;
    size_t nrows = rw * ((size_t)h + 2);
    size_t ncols = cw * ((size_t)w + 2);
    const bool weighted = !g->uniform;
    /* weighted: brows, zrows, zcols, bmoves (8 bytes per cell: a word), bstop (a byte) */
    size_t cells = (size_t)w * (size_t)h;
    size_t wwords = 5 * nrows + 2 * ncols + cells + cells / 8 + 1;
    size_t need = (1 + FLAG_SETS) * nrows + ncols + 1 + (weighted ? wwords : 0);
    if (need > c->cap_words) {
        tn__passbits_free(c, alloc);
        c->rows = tn__alloc(alloc, need * sizeof(uint64_t));
        if (!c->rows)
            return TN_E_NOMEM;
        c->cap_words = need;
    }
    c->row_words = rw;
    c->col_words = cw;
    c->flags = c->rows + nrows;
    c->cols = c->flags + FLAG_SETS * nrows;
    uint64_t *wp = weighted ? c->cols + ncols : NULL;
    c->brows = wp;
    for (int d = 0; d < 4; d++)
        c->zrows[d] = weighted ? wp + (size_t)(1 + d) * nrows : NULL;
    for (int d = 0; d < 2; d++)
        c->zcols[d] = weighted ? wp + 5 * nrows + (size_t)d * ncols : NULL;
    c->bmoves = weighted ? (uint8_t *)(wp + 5 * nrows + 2 * ncols) : NULL;
    c->bstop = weighted ? c->bmoves + 8 * cells : NULL;
    memset(c->rows, 0, need * sizeof(uint64_t));
    pack_bitsets(c, g->pass, w, h);
    if (weighted)
        pack_boundaries(c, g);
    for (int32_t y = 0; y < h; y++)
        line_flags(c, y);
    column_flags(c, h, 0, rw);
    c->fingerprint = fp;
    c->w = w;
    c->h = h;
    c->map = map;
    c->pass = g->pass;
    c->revision = g->revision;
    c->passable_hash = g->passable_hash;
    c->cost_hash = g->cost_hash;
    return TN_OK;
}
