/* Uniform and hierarchical grids, dense (bounded world) or hashed (unbounded plane).
 *
 * Each object is filed under one cell: the cell of its box centre in the finest level whose
 * cells are larger than the box (by a relative margin of 1e-6, so that rounding can never put
 * two overlapping objects two cells apart). Two overlapping objects of the same level then sit
 * in the same or adjacent cells (the half stencil finds them); a pair across levels is found
 * by the coarser object with a box query over the finer levels. Level-k cell coordinates are
 * the level-0 ones shifted right by k, so the levels nest exactly.
 *
 * Storage: a counting sort on the cell key copies the boxes into arrays ordered by key
 * ("main"), with cell_start[key] .. cell_start[key + 1] the entries of a key. Dense keys are
 * row-major with one empty pad column and one empty pad row above and below each level, so a
 * cell and its right neighbour are one contiguous range, and the three cells below are another:
 * the half stencil of one entry is two contiguous scans.
 *
 * Incremental: a move inside the same cell rewrites the copy in place. An object that changes
 * cell leaves a dead copy behind (an empty box that overlaps nothing) and joins the "loose"
 * list, which the update sorts by key; pairs among loose objects use the same stencil with a
 * binary search for the ranges, pairs between loose and main objects use a box query. The
 * update rebuilds everything when the loose list grows past rebuild_fraction of the objects. */
#include "broadphase_internal.h"

#include <math.h>
#include <string.h>

#define FIT_MARGIN (1.0 - 1e-6)
#define HASH_LIMIT (1 << 28)

static inline int32_t floor_shift(int32_t v, int32_t s)
{
    return v >= 0 ? v >> s : -((-v - 1) >> s) - 1;
}

/* floor((v - origin) * inv) clamped to [lo, hi]; the clamp keeps neighbours neighbours. */
static inline int32_t cell_coord(double v, double origin, double inv, int32_t lo, int32_t hi)
{
    double u = (v - origin) * inv;
    if (!(u >= (double)lo))
        return lo;
    if (u >= (double)hi)
        return hi;
    int32_t t = (int32_t)u; /* truncation; u is in range here */
    return (double)t > u ? t - 1 : t;
}

static inline bool is_hash(const tn_bp *bp)
{
    return bp->kind == TN_BP_HASH;
}

static inline uint32_t hash_key(const tn_bp *bp, int32_t l, int32_t cx, int32_t cy)
{
    uint32_t h = (uint32_t)cx * 0x9E3779B1u;
    h ^= (uint32_t)cy * 0x85EBCA77u + 0x165667B1u;
    h ^= (uint32_t)l * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    return h & bp->hash_mask;
}

/* Key of cell (cx, cy) of level l; dense coordinates may be -1..cols / -1..rows (pads). */
static inline uint32_t dense_key(const tn_bp *bp, int32_t l, int32_t cx, int32_t cy)
{
    return bp->base[l] + (uint32_t)((cy + 1) * bp->colsp[l] + cx);
}

static inline uint32_t cell_key(const tn_bp *bp, int32_t l, int32_t cx, int32_t cy)
{
    return is_hash(bp) ? hash_key(bp, l, cx, cy) : dense_key(bp, l, cx, cy);
}

/* Level-0 cell of a point (clamped to the grid, or to +-HASH_LIMIT for hashed grids). */
static inline void cell0(const tn_bp *bp, double x, double y, int32_t *cx, int32_t *cy)
{
    *cx = cell_coord(x, bp->ox, bp->inv_cell0, bp->clo[0], bp->chi[0]);
    *cy = cell_coord(y, bp->oy, bp->inv_cell0, bp->clo[1], bp->chi[1]);
}

static inline int32_t level_of(const tn_bp *bp, double size)
{
    for (int32_t l = 0; l < bp->levels; l++)
        if (size <= bp->cell[l] * FIT_MARGIN)
            return l;
    return TN_BP_BIG;
}

/* Level, cell (at its level) and key of slot s from its box. */
static inline void locate(tn_bp *bp, int32_t s, int8_t *lev, int32_t *cx, int32_t *cy,
                          uint32_t *key)
{
    double w = bp->box[s].x1 - bp->box[s].x0, h = bp->box[s].y1 - bp->box[s].y0;
    int32_t l = level_of(bp, w > h ? w : h);
    *lev = (int8_t)l;
    if (l == TN_BP_BIG) {
        *cx = *cy = 0;
        *key = 0;
        return;
    }
    int32_t x, y;
    cell0(bp, 0.5 * bp->box[s].x0 + 0.5 * bp->box[s].x1, 0.5 * bp->box[s].y0 + 0.5 * bp->box[s].y1,
          &x, &y);
    *cx = floor_shift(x, l);
    *cy = floor_shift(y, l);
    *key = cell_key(bp, l, *cx, *cy);
}

tn_status tn__grid_init(tn_bp *bp, const tn_bp_def *def)
{
    bp->levels = def->levels;
    bp->rebuild_fraction = def->rebuild_fraction;
    for (int32_t l = 0; l < bp->levels; l++)
        bp->cell[l] = ldexp(def->cell_size, l);
    bp->inv_cell0 = 1.0 / def->cell_size;
    uint64_t nkeys;
    if (def->kind == TN_BP_HASH) {
        bp->ox = bp->oy = 0.0;
        uint64_t b = 64;
        while (b < 2 * (uint64_t)bp->cap)
            b *= 2;
        nkeys = b;
        bp->hash_mask = (uint32_t)(b - 1);
    } else {
        bp->ox = def->world.x0;
        bp->oy = def->world.y0;
        double cw = ceil((def->world.x1 - def->world.x0) * bp->inv_cell0);
        double ch = ceil((def->world.y1 - def->world.y0) * bp->inv_cell0);
        if (!(cw <= (double)TN_MAX_DIM * 64) || !(ch <= (double)TN_MAX_DIM * 64) ||
            cw * ch > (double)TN_MAX_CELLS)
            return TN_E_TOO_LARGE;
        int32_t cols0 = cw < 2.0 ? 2 : (int32_t)cw;
        int32_t rows0 = ch < 1.0 ? 1 : (int32_t)ch;
        uint64_t k = 1; /* key 0 stays empty so that key(-1, -1) of level 0 exists */
        for (int32_t l = 0; l < bp->levels; l++) {
            int32_t c = ((cols0 - 1) >> l) + 1;
            bp->cols[l] = c < 2 ? 2 : c;
            bp->rows[l] = ((rows0 - 1) >> l) + 1;
            bp->colsp[l] = bp->cols[l] + 1;
            bp->base[l] = (uint32_t)k;
            k += (uint64_t)(bp->rows[l] + 2) * (uint64_t)bp->colsp[l];
            if (k > (uint64_t)TN_MAX_CELLS * 2)
                return TN_E_TOO_LARGE;
        }
        bp->base[bp->levels] = (uint32_t)k;
        nkeys = k;
    }
    bp->nkeys = (uint32_t)nkeys;
    if (def->kind == TN_BP_HASH) {
        bp->clo[0] = bp->clo[1] = -HASH_LIMIT;
        bp->chi[0] = bp->chi[1] = HASH_LIMIT;
    } else {
        bp->clo[0] = bp->clo[1] = 0;
        bp->chi[0] = bp->cols[0] - 1;
        bp->chi[1] = bp->rows[0] - 1;
    }
    size_t n = (size_t)bp->cap;
    bp->cell_start = tn__calloc(&bp->alloc, (nkeys + 1) * sizeof(uint32_t));
    bp->cx0 = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->cy0 = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->lev = tn__alloc(&bp->alloc, n);
    bp->key = tn__alloc(&bp->alloc, n * sizeof(uint32_t));
    bp->loose = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->loose_pos = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->big = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->big_pos = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->tmp = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    bp->where = tn__calloc(&bp->alloc, n);
    bp->mflag = tn__calloc(&bp->alloc, n);
    bp->moved = tn__alloc(&bp->alloc, n * sizeof(int32_t));
    if (!bp->where || !bp->mflag || !bp->moved)
        return TN_E_NOMEM;
    if (!bp->cell_start || !bp->cx0 || !bp->cy0 || !bp->lev || !bp->key || !bp->loose ||
        !bp->loose_pos || !bp->big || !bp->big_pos || !bp->tmp)
        return TN_E_NOMEM;
    if (is_hash(bp)) {
        bp->scx = tn__alloc(&bp->alloc, n * sizeof(int32_t));
        bp->scy = tn__alloc(&bp->alloc, n * sizeof(int32_t));
        bp->slev = tn__alloc(&bp->alloc, n);
        if (!bp->scx || !bp->scy || !bp->slev)
            return TN_E_NOMEM;
    }
    return TN_OK;
}

size_t tn__grid_bytes(const tn_bp *bp)
{
    size_t n = (size_t)bp->cap;
    size_t b = ((size_t)bp->nkeys + 1) * sizeof(uint32_t) + n * (3 * sizeof(uint32_t) + 1) +
               n * 7 * sizeof(int32_t) + 2 * n;
    if (is_hash(bp))
        b += n * (2 * sizeof(int32_t) + 1);
    return b;
}

void tn__grid_free(tn_bp *bp)
{
    size_t n = (size_t)bp->cap;
    const tn_allocator *a = &bp->alloc;
    tn__free(a, bp->cell_start, ((size_t)bp->nkeys + 1) * sizeof(uint32_t));
    tn__free(a, bp->cx0, n * sizeof(int32_t));
    tn__free(a, bp->cy0, n * sizeof(int32_t));
    tn__free(a, bp->lev, n);
    tn__free(a, bp->key, n * sizeof(uint32_t));
    tn__free(a, bp->loose, n * sizeof(int32_t));
    tn__free(a, bp->loose_pos, n * sizeof(int32_t));
    tn__free(a, bp->big, n * sizeof(int32_t));
    tn__free(a, bp->big_pos, n * sizeof(int32_t));
    tn__free(a, bp->scx, n * sizeof(int32_t));
    tn__free(a, bp->scy, n * sizeof(int32_t));
    tn__free(a, bp->where, n);
    tn__free(a, bp->mflag, n);
    tn__free(a, bp->moved, n * sizeof(int32_t));
    tn__free(a, bp->slev, n); /* bp->tmp is freed with the common arrays */
}

/* ---- membership: main (sorted), loose or big ------------------------------------------ */

static void kill_entry(tn_bp *bp, int32_t p)
{
    bp->sbox[p].x0 = bp->sbox[p].y0 = (double)INFINITY;
    bp->sbox[p].x1 = bp->sbox[p].y1 = -(double)INFINITY;
    bp->ndead++;
}

static void detach(tn_bp *bp, int32_t s)
{
    switch (bp->where[s]) {
    case TN_BP_IN_MAIN: kill_entry(bp, bp->pos[s]); break;
    case TN_BP_IN_BIG: {
        int32_t i = bp->big_pos[s], last = bp->big[--bp->nbig];
        bp->big[i] = last;
        bp->big_pos[last] = i;
        break;
    }
    case TN_BP_IN_LOOSE: {
        int32_t i = bp->loose_pos[s], last = bp->loose[--bp->nloose];
        bp->loose[i] = last;
        bp->loose_pos[last] = i;
        break;
    }
    default: break;
    }
    bp->pos[s] = -1;
    bp->where[s] = TN_BP_IN_NONE;
}

static void attach(tn_bp *bp, int32_t s)
{
    bp->pos[s] = -1;
    if (bp->lev[s] == TN_BP_BIG) {
        bp->where[s] = TN_BP_IN_BIG;
        bp->big_pos[s] = bp->nbig;
        bp->big[bp->nbig++] = s;
    } else {
        bp->where[s] = TN_BP_IN_LOOSE;
        bp->loose_pos[s] = bp->nloose;
        bp->loose[bp->nloose++] = s;
    }
}

static void mark_moved(tn_bp *bp, int32_t s)
{
    if (!bp->mflag[s]) {
        bp->mflag[s] = 1;
        bp->moved[bp->nmoved++] = s;
    }
}

void tn__grid_insert(tn_bp *bp, int32_t s)
{
    bp->where[s] = TN_BP_IN_NONE;
    mark_moved(bp, s);
}

void tn__grid_move(tn_bp *bp, int32_t s)
{
    mark_moved(bp, s);
}

/* Refile a moved object: patch its copy when it stayed in its cell, else make it loose. */
static void refile(tn_bp *bp, int32_t s)
{
    int8_t l;
    int32_t cx, cy;
    uint32_t k;
    locate(bp, s, &l, &cx, &cy, &k);
    if (bp->where[s] == TN_BP_IN_MAIN && l == bp->lev[s] && cx == bp->cx0[s] && cy == bp->cy0[s]) {
        int32_t p = bp->pos[s];
        bp->sbox[p] = bp->box[s];
        return;
    }
    bool same_list = (bp->where[s] == TN_BP_IN_LOOSE && l != TN_BP_BIG) ||
                     (bp->where[s] == TN_BP_IN_BIG && l == TN_BP_BIG);
    if (!same_list)
        detach(bp, s);
    bp->lev[s] = l;
    bp->cx0[s] = cx;
    bp->cy0[s] = cy;
    bp->key[s] = k;
    if (!same_list)
        attach(bp, s);
}

void tn__grid_remove(tn_bp *bp, int32_t s)
{
    detach(bp, s); /* a pending entry on the moved list is skipped at the update */
}

void tn__grid_clear(tn_bp *bp)
{
    bp->m = 0;
    bp->nloose = bp->nbig = bp->ndead = 0;
    for (int32_t i = 0; i < bp->nmoved; i++)
        bp->mflag[bp->moved[i]] = 0;
    bp->nmoved = 0;
    memset(bp->cell_start, 0, ((size_t)bp->nkeys + 1) * sizeof(uint32_t));
}

/* ---- update ---------------------------------------------------------------------------- */

/* Counting sort of every live object by key; `relocate` recomputes levels and keys. */
static void rebuild(tn_bp *bp, bool relocate)
{
    uint32_t *cs = bp->cell_start;
    memset(cs, 0, ((size_t)bp->nkeys + 1) * sizeof *cs);
    const int32_t *live = bp->live;
    const int32_t n = bp->count;
    bp->nbig = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t s = live[i];
        if (relocate)
            locate(bp, s, &bp->lev[s], &bp->cx0[s], &bp->cy0[s], &bp->key[s]);
        if (bp->lev[s] != TN_BP_BIG) {
            cs[bp->key[s]]++;
        } else {
            bp->where[s] = TN_BP_IN_BIG;
            bp->pos[s] = -1;
            bp->big_pos[s] = bp->nbig;
            bp->big[bp->nbig++] = s;
        }
    }
    uint32_t sum = 0;
    for (uint32_t k = 0; k <= bp->nkeys; k++) {
        sum += cs[k];
        cs[k] = sum;
    }
    const bool hash = is_hash(bp);
    for (int32_t i = n - 1; i >= 0; i--) {
        int32_t s = live[i];
        if (bp->lev[s] == TN_BP_BIG)
            continue;
        uint32_t p = --cs[bp->key[s]];
        tn__bp_place(bp, (int32_t)p, s);
        bp->smeta[p].key = bp->key[s];
        if (hash) {
            bp->scx[p] = bp->cx0[s];
            bp->scy[p] = bp->cy0[s];
            bp->slev[p] = bp->lev[s];
        }
        bp->pos[s] = (int32_t)p;
        bp->where[s] = TN_BP_IN_MAIN;
    }
    bp->m = (int32_t)sum;
    bp->nloose = 0;
    bp->ndead = 0;
}

/* Sort the loose list by key (stable merge sort through bp->tmp). */
static void sort_loose(tn_bp *bp)
{
    int32_t n = bp->nloose;
    int32_t *a = bp->loose, *b = bp->tmp;
    const uint32_t *key = bp->key;
    /* nearly sorted lists are common: try one insertion pass with a budget first */
    int64_t budget = 4 * (int64_t)n + 16;
    bool done = true;
    for (int32_t i = 1; i < n && done; i++) {
        int32_t v = a[i];
        int32_t j = i - 1;
        while (j >= 0 && key[a[j]] > key[v]) {
            a[j + 1] = a[j];
            j--;
            if (--budget < 0) {
                done = false;
                break;
            }
        }
        a[j + 1] = v;
    }
    if (!done) {
        for (int32_t w = 1; w < n; w *= 2) {
            for (int32_t lo = 0; lo < n; lo += 2 * w) {
                int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
                int32_t i = lo, j = mid, k = lo;
                while (i < mid && j < hi)
                    b[k++] = key[a[j]] < key[a[i]] ? a[j++] : a[i++];
                while (i < mid)
                    b[k++] = a[i++];
                while (j < hi)
                    b[k++] = a[j++];
            }
            int32_t *t = a;
            a = b;
            b = t;
        }
        if (a != bp->loose)
            memcpy(bp->loose, a, (size_t)n * sizeof *a);
    }
    for (int32_t i = 0; i < n; i++)
        bp->loose_pos[bp->loose[i]] = i;
}

/* True when slot s would be filed somewhere else than it is now. */
static bool changes_cell(tn_bp *bp, int32_t s)
{
    if (bp->where[s] != TN_BP_IN_MAIN)
        return true;
    int8_t l;
    int32_t cx, cy;
    uint32_t k;
    locate(bp, s, &l, &cx, &cy, &k);
    return l != bp->lev[s] || cx != bp->cx0[s] || cy != bp->cy0[s];
}

void tn__grid_update(tn_bp *bp, bool force)
{
    const double limit = (double)bp->count * bp->rebuild_fraction;
    bool rb = force;
    /* when the last update rebuilt because many objects changed cell and most objects moved
     * again, rebuild without counting (re-checked every 16th update) */
    if (!rb && bp->many_changes && 2 * (int64_t)bp->nmoved >= (int64_t)bp->count &&
        (bp->stats.updates & 15u) != 0)
        rb = true;
    if (!force && !rb) {
        /* count the objects that would leave their cell: few -> incremental, many -> rebuild */
        int32_t changes = bp->nloose, moves = 0; /* moves: filed objects that changed cell */
        for (int32_t i = 0; i < bp->nmoved && (double)changes <= limit; i++) {
            int32_t s = bp->moved[i];
            if (bp->alive[s] && changes_cell(bp, s)) {
                changes++;
                moves += bp->where[s] == TN_BP_IN_MAIN;
            }
        }
        /* only moves predict the next update (not inserts, which happen once) */
        bp->many_changes = (double)moves > limit;
        rb = (double)changes > limit || (double)bp->ndead > 0.5 * (double)bp->m;
    }
    if (!rb) {
        for (int32_t i = 0; i < bp->nmoved; i++) {
            int32_t s = bp->moved[i];
            if (bp->alive[s])
                refile(bp, s);
        }
        rb = (double)bp->ndead > 0.5 * (double)bp->m;
        if (rb)
            rebuild(bp, false);
        else if (bp->nloose > 0)
            sort_loose(bp);
    } else {
        rebuild(bp, true);
    }
    for (int32_t i = 0; i < bp->nmoved; i++)
        bp->mflag[bp->moved[i]] = 0;
    bp->nmoved = 0;
    if (rb) {
        bp->stats.rebuilt = true;
        bp->stats.rebuilds++;
    }
}

/* ---- pairs ------------------------------------------------------------------------------ */

typedef struct emit_ctx {
    const tn_bp *bp;
    tn_bp_pair_fn fn;
    void *ctx;
} emit_ctx;

static inline bool emit_main(const emit_ctx *e, int32_t i, int32_t j)
{
    const tn_bp *bp = e->bp;
    tn_bp_pair pr;
    pr.a.id = bp->smeta[i].id;
    pr.b.id = bp->smeta[j].id;
    pr.user_a = bp->smeta[i].user;
    pr.user_b = bp->smeta[j].user;
    return e->fn(e->ctx, &pr);
}

static inline bool emit_slots(const emit_ctx *e, int32_t a, int32_t b)
{
    const tn_bp *bp = e->bp;
    tn_bp_pair pr;
    pr.a.id = tn__bp_make_id(bp, a);
    pr.b.id = tn__bp_make_id(bp, b);
    pr.user_a = bp->user[a];
    pr.user_b = bp->user[b];
    return e->fn(e->ctx, &pr);
}

/* Test entry i against main entries [from, to); false when the callback stopped. */
static inline bool scan_main(const emit_ctx *e, int32_t i, uint32_t from, uint32_t to)
{
    const tn_bp *bp = e->bp;
    const double ax0 = bp->sbox[i].x0, ay0 = bp->sbox[i].y0, ax1 = bp->sbox[i].x1,
                 ay1 = bp->sbox[i].y1;
    const tn_box *sb = bp->sbox;
    for (uint32_t j = from; j < to; j++)
        if (sb[j].x0 <= ax1 && ax0 <= sb[j].x1 && sb[j].y0 <= ay1 && ay0 <= sb[j].y1 &&
            !emit_main(e, i, (int32_t)j))
            return false;
    return true;
}

/* As scan_main, only entries filed under cell (l, cx, cy) (hash buckets mix cells). */
static inline bool scan_main_cell(const emit_ctx *e, int32_t i, uint32_t from, uint32_t to,
                                  int32_t l, int32_t cx, int32_t cy)
{
    const tn_bp *bp = e->bp;
    const double ax0 = bp->sbox[i].x0, ay0 = bp->sbox[i].y0, ax1 = bp->sbox[i].x1,
                 ay1 = bp->sbox[i].y1;
    for (uint32_t j = from; j < to; j++)
        if (bp->scx[j] == cx && bp->scy[j] == cy && bp->slev[j] == l && bp->sbox[j].x0 <= ax1 &&
            ax0 <= bp->sbox[j].x1 && bp->sbox[j].y0 <= ay1 && ay0 <= bp->sbox[j].y1 &&
            !emit_main(e, i, (int32_t)j))
            return false;
    return true;
}

/* Visit the main entries whose box overlaps q; fn(ctx, entry) returns false to stop. A level
 * whose cell range is larger than its number of entries is scanned linearly instead. */
typedef bool (*main_visit_fn)(void *ctx, int32_t entry);

/* The same for the levels [l0, l1) only. */
static bool main_query_levels(const tn_bp *bp, tn_box q, int32_t l0, int32_t l1, main_visit_fn fn,
                              void *ctx)
{
    const uint32_t *cs = bp->cell_start;
    for (int32_t l = l0; l < l1; l++) {
        double h = 0.5 * bp->cell[l];
        int32_t ax, ay, bx, by;
        cell0(bp, q.x0 - h, q.y0 - h, &ax, &ay);
        cell0(bp, q.x1 + h, q.y1 + h, &bx, &by);
        ax = floor_shift(ax, l);
        ay = floor_shift(ay, l);
        bx = floor_shift(bx, l);
        by = floor_shift(by, l);
        double ncell = ((double)bx - ax + 1) * ((double)by - ay + 1);
        uint32_t first, last;
        if (is_hash(bp)) {
            first = 0;
            last = (uint32_t)bp->m;
        } else {
            first = cs[bp->base[l]];
            last = cs[bp->base[l + 1]];
        }
        if (ncell > (double)(last - first) + 8.0) {
            /* a large query: scan the level's entries */
            for (uint32_t j = first; j < last; j++) {
                if (is_hash(bp) && bp->slev[j] != l)
                    continue;
                if (tn__box_overlap(q.x0, q.y0, q.x1, q.y1, bp->sbox[j].x0, bp->sbox[j].y0,
                                    bp->sbox[j].x1, bp->sbox[j].y1) &&
                    !fn(ctx, (int32_t)j))
                    return false;
            }
            continue;
        }
        for (int32_t y = ay; y <= by; y++) {
            if (is_hash(bp)) {
                for (int32_t x = ax; x <= bx; x++) {
                    uint32_t k = hash_key(bp, l, x, y);
                    for (uint32_t j = cs[k]; j < cs[k + 1]; j++)
                        if (bp->scx[j] == x && bp->scy[j] == y && bp->slev[j] == l &&
                            tn__box_overlap(q.x0, q.y0, q.x1, q.y1, bp->sbox[j].x0, bp->sbox[j].y0,
                                            bp->sbox[j].x1, bp->sbox[j].y1) &&
                            !fn(ctx, (int32_t)j))
                            return false;
                }
            } else {
                uint32_t from = cs[dense_key(bp, l, ax, y)], to = cs[dense_key(bp, l, bx, y) + 1];
                for (uint32_t j = from; j < to; j++)
                    if (tn__box_overlap(q.x0, q.y0, q.x1, q.y1, bp->sbox[j].x0, bp->sbox[j].y0,
                                        bp->sbox[j].x1, bp->sbox[j].y1) &&
                        !fn(ctx, (int32_t)j))
                        return false;
            }
        }
    }
    return true;
}

static bool main_query(const tn_bp *bp, tn_box q, main_visit_fn fn, void *ctx)
{
    return main_query_levels(bp, q, 0, bp->levels, fn, ctx);
}

/* Cross-level pairs are found from the coarser object: a box query over the finer levels
 * (it visits about area / cell^2 cells, far fewer than the finer objects would visit if
 * each looked at the coarse cells around it, which hold many large objects as n grows). */
typedef struct cross_ctx {
    const emit_ctx *e;
    int32_t i;
} cross_ctx;

static bool cross_fn(void *ctx, int32_t j)
{
    const cross_ctx *c = ctx;
    return emit_main(c->e, c->i, j);
}

static bool cross_levels(const emit_ctx *e, int32_t i, int32_t l)
{
    cross_ctx c = {e, i};
    return main_query_levels(e->bp, e->bp->sbox[i], 0, l, cross_fn, &c);
}

static bool main_pairs_dense(const emit_ctx *e)
{
    const tn_bp *bp = e->bp;
    const uint32_t *cs = bp->cell_start;
    for (int32_t l = 0; l < bp->levels; l++) {
        const int32_t colsp = bp->colsp[l];
        const uint32_t first = cs[bp->base[l]], last = cs[bp->base[l + 1]];
        for (uint32_t i = first; i < last; i++) {
            const uint32_t c = bp->smeta[i].key;
            /* same cell (after i) and the right neighbour */
            if (!scan_main(e, (int32_t)i, i + 1, cs[c + 2]))
                return false;
            /* the three cells below */
            if (!scan_main(e, (int32_t)i, cs[c + (uint32_t)colsp - 1], cs[c + (uint32_t)colsp + 2]))
                return false;
            if (l > 0 && !cross_levels(e, (int32_t)i, l))
                return false;
        }
    }
    return true;
}

static bool main_pairs_hash(const emit_ctx *e)
{
    const tn_bp *bp = e->bp;
    const uint32_t *cs = bp->cell_start;
    static const int32_t half[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    for (int32_t i = 0; i < bp->m; i++) {
        const int32_t l = bp->slev[i], cx = bp->scx[i], cy = bp->scy[i];
        if (bp->sbox[i].x0 > bp->sbox[i].x1)
            continue; /* dead */
        const uint32_t c = bp->smeta[i].key;
        if (!scan_main_cell(e, i, (uint32_t)i + 1, cs[c + 1], l, cx, cy))
            return false;
        for (int32_t d = 0; d < 4; d++) {
            uint32_t k = hash_key(bp, l, cx + half[d][0], cy + half[d][1]);
            if (!scan_main_cell(e, i, cs[k], cs[k + 1], l, cx + half[d][0], cy + half[d][1]))
                return false;
        }
        if (l > 0 && !cross_levels(e, i, l))
            return false;
    }
    return true;
}

typedef struct slot_vs_main {
    const emit_ctx *e;
    int32_t slot;
} slot_vs_main;

static bool slot_vs_main_fn(void *ctx, int32_t j)
{
    slot_vs_main *c = ctx;
    return emit_slots(c->e, c->slot, c->e->bp->smeta[j].slot);
}

static inline bool slot_overlap(const tn_bp *bp, int32_t a, int32_t b)
{
    return tn__box_overlap(bp->box[a].x0, bp->box[a].y0, bp->box[a].x1, bp->box[a].y1,
                           bp->box[b].x0, bp->box[b].y0, bp->box[b].x1, bp->box[b].y1);
}

static tn_box slot_box(const tn_bp *bp, int32_t s)
{
    tn_box b = {bp->box[s].x0, bp->box[s].y0, bp->box[s].x1, bp->box[s].y1};
    return b;
}

/* First index in the (key-sorted) loose list with key >= k. */
static int32_t loose_lower(const tn_bp *bp, uint32_t k)
{
    int32_t lo = 0, hi = bp->nloose;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (bp->key[bp->loose[mid]] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Loose object at index i against loose objects with keys in [k0, k1], filed under a cell of
 * level l with x in [x0, x1] and y == y (only checked for hash grids), indices > min_i. */
static bool loose_scan(const emit_ctx *e, int32_t i, uint32_t k0, uint32_t k1, int32_t l,
                       int32_t x0, int32_t x1, int32_t y, int32_t min_i)
{
    const tn_bp *bp = e->bp;
    int32_t a = bp->loose[i];
    int32_t j = loose_lower(bp, k0);
    if (j <= min_i)
        j = min_i + 1;
    for (; j < bp->nloose; j++) {
        int32_t b = bp->loose[j];
        if (bp->key[b] > k1)
            break;
        if (is_hash(bp) &&
            (bp->lev[b] != l || bp->cy0[b] != y || bp->cx0[b] < x0 || bp->cx0[b] > x1))
            continue;
        if (slot_overlap(bp, a, b) && !emit_slots(e, a, b))
            return false;
    }
    return true;
}

static bool loose_pairs(const emit_ctx *e)
{
    const tn_bp *bp = e->bp;
    const bool hash = is_hash(bp);
    for (int32_t i = 0; i < bp->nloose; i++) {
        int32_t a = bp->loose[i];
        int32_t l = bp->lev[a], cx = bp->cx0[a], cy = bp->cy0[a];
        /* against the main entries */
        slot_vs_main c = {e, a};
        if (!main_query(bp, slot_box(bp, a), slot_vs_main_fn, &c))
            return false;
        /* against later loose entries of the same level: the half stencil */
        if (hash) {
            static const int32_t half[5][2] = {{0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
            for (int32_t d = 0; d < 5; d++) {
                int32_t x = cx + half[d][0], y = cy + half[d][1];
                uint32_t k = hash_key(bp, l, x, y);
                if (!loose_scan(e, i, k, k, l, x, x, y, d == 0 ? i : -1))
                    return false;
            }
        } else {
            uint32_t k = dense_key(bp, l, cx, cy);
            if (!loose_scan(e, i, k, k + 1, l, cx, cx + 1, cy, i))
                return false;
            k = dense_key(bp, l, cx - 1, cy + 1);
            if (!loose_scan(e, i, k, k + 2, l, cx - 1, cx + 1, cy + 1, -1))
                return false;
        }
        /* against loose entries of coarser levels: their full 3x3 */
        for (int32_t L = l + 1; L < bp->levels; L++) {
            int32_t x = floor_shift(cx, L - l), y = floor_shift(cy, L - l);
            for (int32_t dy = -1; dy <= 1; dy++) {
                if (hash) {
                    for (int32_t dx = -1; dx <= 1; dx++) {
                        uint32_t k = hash_key(bp, L, x + dx, y + dy);
                        if (!loose_scan(e, i, k, k, L, x + dx, x + dx, y + dy, -1))
                            return false;
                    }
                } else {
                    uint32_t k = dense_key(bp, L, x - 1, y + dy);
                    if (!loose_scan(e, i, k, k + 2, L, x - 1, x + 1, y + dy, -1))
                        return false;
                }
            }
        }
    }
    return true;
}

static bool big_pairs(const emit_ctx *e)
{
    const tn_bp *bp = e->bp;
    for (int32_t i = 0; i < bp->nbig; i++) {
        int32_t a = bp->big[i];
        slot_vs_main c = {e, a};
        if (!main_query(bp, slot_box(bp, a), slot_vs_main_fn, &c))
            return false;
        for (int32_t j = 0; j < bp->nloose; j++)
            if (slot_overlap(bp, a, bp->loose[j]) && !emit_slots(e, a, bp->loose[j]))
                return false;
        for (int32_t j = i + 1; j < bp->nbig; j++)
            if (slot_overlap(bp, a, bp->big[j]) && !emit_slots(e, a, bp->big[j]))
                return false;
    }
    return true;
}

tn_status tn__grid_pairs(const tn_bp *bp, tn_bp_pair_fn fn, void *ctx)
{
    emit_ctx e = {bp, fn, ctx};
    bool go = is_hash(bp) ? main_pairs_hash(&e) : main_pairs_dense(&e);
    if (go)
        go = loose_pairs(&e);
    if (go)
        go = big_pairs(&e);
    return go ? TN_OK : TN_PARTIAL;
}

/* ---- queries ---------------------------------------------------------------------------- */

typedef struct query_ctx {
    const tn_bp *bp;
    tn_bp_query_fn fn;
    void *ctx;
} query_ctx;

static bool query_main_fn(void *ctx, int32_t j)
{
    query_ctx *q = ctx;
    return q->fn(q->ctx, (tn_bp_id){q->bp->smeta[j].id}, q->bp->smeta[j].user);
}

tn_status tn__grid_query(const tn_bp *bp, tn_box q, tn_bp_query_fn fn, void *ctx)
{
    query_ctx c = {bp, fn, ctx};
    if (!main_query(bp, q, query_main_fn, &c))
        return TN_PARTIAL;
    for (int32_t pass = 0; pass < 2; pass++) {
        const int32_t *list = pass == 0 ? bp->loose : bp->big;
        int32_t n = pass == 0 ? bp->nloose : bp->nbig;
        for (int32_t i = 0; i < n; i++) {
            int32_t s = list[i];
            if (tn__box_overlap(q.x0, q.y0, q.x1, q.y1, bp->box[s].x0, bp->box[s].y0, bp->box[s].x1,
                                bp->box[s].y1) &&
                !fn(ctx, (tn_bp_id){tn__bp_make_id(bp, s)}, bp->user[s]))
                return TN_PARTIAL;
        }
    }
    return TN_OK;
}
