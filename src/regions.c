/* Regions: connected components of the cells where a unit of each size fits (regions.h),
 * numbered in row-major order of their first cell by a build (union-find over the labels), then
 * kept current by updates that work from the edits' windows, with floods that find the pieces
 * of a split region or the largest of joined ones. */
#include "tilenav/regions.h"

#include "clearance_internal.h"
#include "grid.h"
#include "internal.h"
#include "tilenav/clearance.h"

#include <string.h>

#define TN_COOKIE_REGIONS 0x52474e31u
/* Capacity of an update's split candidates and vanished regions per size class (past them, the
 * size class is relabelled), and of the regions one added group of cells may join. */
#define REGIONS_REPS 1024
#define REGIONS_GONE 256
#define REGIONS_JOIN 64
/* Labels besides region ids: the unit does not fit; visited by the flood running; an added group
 * waiting for its id; split candidate j is labelled LAB_REP - j while the floods run. */
#define LAB_OUT (-1)
#define LAB_MARK (-2)
#define LAB_HOLD (-3)
#define LAB_REP (-4)

/* The labels of a size class hold slots, not region ids: a region's id is pub[slot]. So an id
 * given up (a region vanished, or joined another) is filled by the last id in O(1), by moving
 * that region's entry, without touching its cells. After a build the slots are the ids
 * (`ident`) and no table is needed; the first update that gives an id up makes one. */
typedef struct region_ids {
    int32_t *pub, *inv, *free; /* cap entries each: slot -> id, id -> slot, the free slots */
    int32_t cap, nfree, nslot; /* slots handed out: 0..nslot-1, nfree of them free */
    bool ident;
} region_ids;

struct tn_regions {
    tn_allocator alloc;
    const tn_map *map;
    tn_diagonal diagonal;
    int32_t w, h, sizes;
    uint64_t revision;
    tn_clearance *clear;
    int32_t *label; /* sizes * W * H: slots (region_ids), or the LAB_ values below 0 */
    int32_t *count; /* per size class */
    /* the local updates' scratch, for windows of up to `scratch` cells (an update whose window
     * is larger relabels): */
    int32_t scratch;
    tn_rect win;    /* the window of the update running (local index: row-major in it) */
    int32_t *queue; /* the breadth-first searches' (cell indices of the map) */
    uint8_t *old;   /* the window's clearance before the update, by local index */
    uint32_t *mark; /* visit stamps of the local checks, by local index */
    uint32_t stamp;
    int64_t full, local; /* size classes relabelled fully / locally, since creation */
    int64_t flooded;     /* cells the floods of the update running visited */
    region_ids *ids;     /* per size class: the labels' slots and the public ids */
    /* the update's split candidates: cells left behind by removed cells, whose region may have
     * split (sorted by slot, then cell), and the slots of regions that vanished */
    struct region_rep {
        int32_t id, cell;
    } rep[REGIONS_REPS];
    int32_t reps;
    uint8_t alive[REGIONS_REPS];
    int32_t gone[REGIONS_GONE];
    int32_t ngone;
};

tn_regions_def tn_regions_def_default(void)
{
    tn_regions_def d;
    memset(&d, 0, sizeof d);
    d.diagonal = TN_DIAGONAL_NO_CUT;
    d.max_size = 1;
    d.size_maps = true;
    d.internal_cookie = TN_COOKIE_REGIONS;
    return d;
}

/* The most cells an update's window may have for a local update: 2^18, or an eighth of the
 * map's cells when that is more (all of them when the map has fewer). The scratch, 9 bytes per
 * cell of that, is allocated once; a larger window relabels the map (a build's pass, about 10
 * ns per cell, against a local update's scan of the window). */
#define REGIONS_WINDOW_CELLS (1 << 18)
static int32_t window_cells(size_t n)
{
    size_t c = n / 8 > REGIONS_WINDOW_CELLS ? n / 8 : REGIONS_WINDOW_CELLS;
    return (int32_t)(c < n ? c : n);
}

/* Is cell (x, y) inside the window? */
static inline bool in_win(tn_rect win, int32_t x, int32_t y)
{
    return x >= win.x0 && y >= win.y0 && x < win.x1 && y < win.y1;
}

/* The cells a unit steps to from cell c that lie inside `box`, into out; returns how many.
 * The grid layer's moves, straight ones first: side neighbours, and the diagonal ones too
 * under TN_DIAGONAL_ALWAYS (under the other rules a diagonal step never joins what side steps
 * do not, regions.h). */
static inline int neighbours(const tn_regions *r, int32_t c, tn_rect box, int32_t out[8])
{
    const int moves = r->diagonal == TN_DIAGONAL_ALWAYS ? 8 : 4;
    const int32_t x = c % r->w, y = c / r->w;
    int k = 0;
    for (int d = 0; d < moves; d++) {
        int32_t nx = x + tn__dir_dx[d], ny = y + tn__dir_dy[d];
        if (in_win(box, nx, ny))
            out[k++] = ny * r->w + nx;
    }
    return k;
}

/* The root of cell x's tree in the forest `p` (path halving). Every cell's parent is itself
 * or a cell before it in row-major order. */
static inline int32_t find_root(int32_t *p, int32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/* Join the trees of cells a and b: the later root goes under the earlier one, so each root is
 * the first cell of its tree in row-major order. */
static inline void unite(int32_t *p, int32_t a, int32_t b)
{
    a = find_root(p, a);
    b = find_root(p, b);
    if (a < b)
        p[b] = a;
    else if (b < a)
        p[a] = b;
}

/* The region id of a slot in size class `size` (slot >= 0). */
static inline int32_t id_of(const tn_regions *r, int32_t size, int32_t slot)
{
    const region_ids *d = &r->ids[size - 1];
    return d->ident ? slot : d->pub[slot];
}

/* Make the slot tables of `d` hold at least `want` entries, keeping what they hold; false when
 * memory runs out (the tables are unchanged). */
static bool grow_ids(tn_regions *r, region_ids *d, int64_t want)
{
    if (want <= d->cap)
        return true;
    int64_t cap = d->cap > 0 ? 2 * (int64_t)d->cap : 64;
    while (cap < want)
        cap *= 2;
    if (cap > INT32_MAX)
        return false;
    size_t bytes = (size_t)cap * sizeof(int32_t);
    int32_t *p = tn__alloc(&r->alloc, bytes), *v = p ? tn__alloc(&r->alloc, bytes) : NULL,
            *f = v ? tn__alloc(&r->alloc, bytes) : NULL;
    if (!f) {
        tn__free(&r->alloc, p, bytes);
        tn__free(&r->alloc, v, bytes);
        return false;
    }
    size_t old = (size_t)d->cap * sizeof(int32_t);
    if (d->cap > 0) {
        memcpy(p, d->pub, old);
        memcpy(v, d->inv, old);
        memcpy(f, d->free, old);
    }
    tn__free(&r->alloc, d->pub, old);
    tn__free(&r->alloc, d->inv, old);
    tn__free(&r->alloc, d->free, old);
    d->pub = p;
    d->inv = v;
    d->free = f;
    d->cap = (int32_t)cap;
    return true;
}

/* A slot for a new region of size class `size`, which takes the next id; -1 when memory runs
 * out (the caller relabels: a build needs no table). */
static int32_t new_region(tn_regions *r, int32_t size)
{
    region_ids *d = &r->ids[size - 1];
    const int32_t id = r->count[size - 1];
    int32_t slot = id; /* the slots are the ids */
    if (!d->ident) {
        if (d->nfree > 0) {
            slot = d->free[--d->nfree];
        } else {
            if (!grow_ids(r, d, (int64_t)d->nslot + 1))
                return -1;
            slot = d->nslot++;
        }
        d->pub[slot] = id;
        d->inv[id] = slot;
    }
    r->count[size - 1] = id + 1;
    return slot;
}

/* The region in `slot` has no cells left (it vanished, or joined another): the region numbered
 * last takes its id, so ids stay 0..count-1. O(1). False when memory runs out. */
static bool drop_region(tn_regions *r, int32_t size, int32_t slot)
{
    region_ids *d = &r->ids[size - 1];
    const int32_t count = r->count[size - 1];
    if (d->ident) { /* the first id given up since the build: the table, the identity */
        if (!grow_ids(r, d, count))
            return false;
        for (int32_t k = 0; k < count; k++)
            d->pub[k] = d->inv[k] = k;
        d->nfree = 0;
        d->nslot = count;
        d->ident = false;
    }
    const int32_t id = d->pub[slot], moved = d->inv[count - 1];
    TN_ASSERT(id >= 0 && id < count && d->nfree < d->cap);
    d->pub[moved] = id;
    d->inv[id] = moved;
    d->pub[slot] = -1;
    d->free[d->nfree++] = slot;
    r->count[size - 1] = count - 1;
    return true;
}

/* Label the cells of clearance >= size; returns the number of regions. Two passes over the
 * labels themselves, no other memory: the first makes them a
 * union-find forest (each fitting cell joined to the fitting cells before it that a step reaches:
 * left and up, and up-left and up-right under TN_DIAGONAL_ALWAYS); the second numbers the roots in
 * row-major order, and gives every other cell its parent's number, which is final since the parent
 * comes first. The ids are those a breadth-first labelling in row-major order of each region's
 * first cell gives (regions.h). */
static int32_t label_size(tn_regions *r, int32_t size, const uint8_t *clear)
{
    const int32_t w = r->w, h = r->h;
    const bool eight = r->diagonal == TN_DIAGONAL_ALWAYS;
    int32_t *lab = r->label + (size_t)(size - 1) * (size_t)w * (size_t)h;
    for (int32_t y = 0, i = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++, i++) {
            if (clear[i] < size) {
                lab[i] = -1;
                continue;
            }
            lab[i] = i;
            if (x > 0 && lab[i - 1] >= 0)
                unite(lab, i, i - 1);
            if (y == 0)
                continue;
            if (lab[i - w] >= 0)
                unite(lab, i, i - w);
            if (eight && x > 0 && lab[i - w - 1] >= 0)
                unite(lab, i, i - w - 1);
            if (eight && x + 1 < w && lab[i - w + 1] >= 0)
                unite(lab, i, i - w + 1);
        }
    int32_t regions = 0;
    const int32_t n = w * h;
    for (int32_t i = 0; i < n; i++) {
        int32_t p = lab[i];
        if (p >= 0)
            lab[i] = p == i ? regions++ : lab[p];
    }
    r->ids[size - 1].ident = true; /* the slots are the ids */
    return regions;
}

static void label_all(tn_regions *r)
{
    const uint8_t *clear = tn_clearance_data(r->clear);
    for (int32_t s = 1; s <= r->sizes; s++)
        r->count[s - 1] = label_size(r, s, clear);
    r->revision = tn_map_revision(r->map);
}

tn_status tn_regions_create(const tn_regions_def *def, tn_regions **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    tn_allocator a;
    if (!def || def->internal_cookie != TN_COOKIE_REGIONS || !def->map || def->max_size < 1 ||
        def->max_size > 255 || (unsigned)def->diagonal > (unsigned)TN_DIAGONAL_ALWAYS ||
        !tn__allocator_of(&def->allocator, &a))
        return TN_E_INVALID_ARG;
    tn_regions *r = tn__calloc(&a, sizeof *r);
    if (!r)
        return TN_E_NOMEM;
    r->alloc = a;
    r->map = def->map;
    r->diagonal = def->diagonal;
    r->w = tn_map_width(def->map);
    r->h = tn_map_height(def->map);
    r->sizes = def->max_size;
    size_t n = (size_t)r->w * (size_t)r->h, total;
    if (!tn__mul_size(n, (size_t)r->sizes * sizeof(int32_t), &total)) {
        tn_regions_destroy(r);
        return TN_E_TOO_LARGE;
    }
    tn_clearance_def cd = tn_clearance_def_default();
    cd.map = def->map;
    cd.max_size = def->max_size;
    cd.size_maps = def->size_maps; /* the regions read the clearance alone; queries its maps */
    cd.allocator = def->allocator;
    tn_status st = tn_clearance_create(&cd, &r->clear);
    r->label = st == TN_OK ? tn__alloc(&a, total) : NULL;
    r->count = r->label ? tn__calloc(&a, (size_t)r->sizes * sizeof(int32_t)) : NULL;
    r->scratch = window_cells(n);
    size_t sc = (size_t)r->scratch;
    r->ids = r->count ? tn__calloc(&a, (size_t)r->sizes * sizeof *r->ids) : NULL;
    /* the floods push up to 8 cells past their budget */
    r->queue = r->ids ? tn__alloc(&a, (sc + 8) * sizeof(int32_t)) : NULL;
    r->old = r->queue ? tn__alloc(&a, sc) : NULL;
    r->mark = r->old ? tn__calloc(&a, sc * sizeof(uint32_t)) : NULL;
    if (!r->mark) {
        tn_regions_destroy(r);
        return st != TN_OK ? st : TN_E_NOMEM;
    }
    label_all(r);
    *out = r;
    return TN_OK;
}

void tn_regions_destroy(tn_regions *r)
{
    if (!r)
        return;
    size_t n = (size_t)r->w * (size_t)r->h;
    tn_allocator a = r->alloc;
    tn_clearance_destroy(r->clear);
    tn__free(&a, r->label, n * (size_t)r->sizes * sizeof(int32_t));
    tn__free(&a, r->count, (size_t)r->sizes * sizeof(int32_t));
    for (int32_t k = 0; r->ids && k < r->sizes; k++) {
        size_t bytes = (size_t)r->ids[k].cap * sizeof(int32_t);
        tn__free(&a, r->ids[k].pub, bytes);
        tn__free(&a, r->ids[k].inv, bytes);
        tn__free(&a, r->ids[k].free, bytes);
    }
    if (r->ids)
        tn__free(&a, r->ids, (size_t)r->sizes * sizeof *r->ids);
    size_t sc = (size_t)r->scratch;
    tn__free(&a, r->queue, (sc + 8) * sizeof(int32_t));
    tn__free(&a, r->old, sc);
    tn__free(&a, r->mark, sc * sizeof(uint32_t));
    tn__free(&a, r, sizeof *r);
}

size_t tn_regions_memory_bytes(const tn_regions *r)
{
    if (!r)
        return 0;
    size_t n = (size_t)r->w * (size_t)r->h, tables = 0;
    for (int32_t k = 0; k < r->sizes; k++)
        tables += (size_t)r->ids[k].cap * 3 * sizeof(int32_t) + sizeof(region_ids);
    return sizeof *r + n * (size_t)r->sizes * sizeof(int32_t) +
           ((size_t)r->scratch + 8) * sizeof(int32_t) + (size_t)r->scratch * (sizeof(int32_t) + 1) +
           (size_t)r->sizes * sizeof(int32_t) + tables + tn_clearance_memory_bytes(r->clear);
}

/* A new visit stamp for the local checks (the marks are cleared when the stamps wrap). */
static uint32_t next_stamp(tn_regions *r)
{
    if (++r->stamp == 0) {
        memset(r->mark, 0, (size_t)r->scratch * sizeof(uint32_t));
        r->stamp = 1;
    }
    return r->stamp;
}

/* The index of map cell c in the update's window (row-major there): the scratch's index. */
static inline size_t loc(const tn_regions *r, int32_t c)
{
    const int32_t x = c % r->w, y = c / r->w;
    TN_ASSERT(in_win(r->win, x, y));
    return (size_t)(y - r->win.y0) * (size_t)(r->win.x1 - r->win.x0) + (size_t)(x - r->win.x0);
}

/* The whole map, for the floods that leave the update's windows. */
static inline tn_rect whole(const tn_regions *r)
{
    return (tn_rect){0, 0, r->w, r->h};
}

/* The most cells a probing flood may visit before the update gives up and relabels the size
 * class: 1/32 of the map (at least 64), and no more than the scratch queue holds. All the floods
 * of a size class's update together stop at twice that. A flood costs about twice a build's
 * pass per cell, and the doubling rounds from two candidates visit about four times the smaller
 * piece: past 1/32 a relabel costs less, and giving up wastes at most a quarter of one (a wall
 * that halves an open 512 x 512 map: 9.8 ms against 8.7 ms relabelling at once). */
static int64_t probe_limit(const tn_regions *r)
{
    int64_t n = (int64_t)r->w * r->h, lim = n / 32 > 64 ? n / 32 : 64;
    return lim < r->scratch ? lim : r->scratch;
}

/* Relabel the cells labelled `from` that connect to cell c (labelled `from`) to `to`, breadth
 * first over the whole map. False when the queue would overflow (the caller relabels). */
static bool flood_relabel(tn_regions *r, int32_t *lab, int32_t c, int32_t from, int32_t to)
{
    TN_ASSERT(lab[c] == from && from != to);
    int32_t head = 0, tail = 0, *q = r->queue;
    const tn_rect all = whole(r);
    lab[c] = to;
    q[tail++] = c;
    while (head < tail) {
        if (tail > r->scratch)
            return false;
        int32_t nb[8];
        int nn = neighbours(r, q[head++], all, nb);
        for (int k = 0; k < nn; k++)
            if (lab[nb[k]] == from) {
                lab[nb[k]] = to;
                q[tail++] = nb[k];
            }
    }
    r->flooded += tail;
    return true;
}

/* Probe region `id` from cell c (already taken out of it, labelled LAB_MARK by the caller):
 * visit its cells breadth first, labelling them LAB_MARK, until `budget` cells. Split
 * candidates met (labelled LAB_REP - j) join the flood and are reported dead in r->alive.
 * Returns the cells visited (in r->queue), negated when the budget stopped the flood before it
 * had the whole piece. */
static int32_t probe(tn_regions *r, int32_t *lab, int32_t c, int32_t id, int64_t budget,
                     int32_t *active)
{
    int32_t head = 0, tail = 0, *q = r->queue;
    const tn_rect all = whole(r);
    q[tail++] = c;
    while (head < tail) {
        if (tail > budget) {
            r->flooded += tail;
            return -tail;
        }
        int32_t nb[8];
        int nn = neighbours(r, q[head++], all, nb);
        for (int k = 0; k < nn; k++) {
            int32_t j = nb[k], v = lab[j];
            if (v != id) {
                if (v > LAB_REP)
                    continue;
                r->alive[LAB_REP - v] = 0; /* another candidate: the same piece */
                --*active;
            }
            lab[j] = LAB_MARK;
            q[tail++] = j;
        }
    }
    r->flooded += tail;
    return tail;
}

/* Region (slot) id lost cells, leaving the split candidates cand[0..m) behind (distinct cells of
 * the region, m >= 2): find which pieces it now falls into. Floods from the candidates in
 * turn, with a budget doubled each round, merge candidates they reach; a flood that ends
 * within its budget has a whole piece, which takes a new id, while other candidates remain.
 * The last piece keeps the id. So the work is about twice the smaller pieces' cells per
 * candidate. False past probe_limit() (the caller relabels). */
static bool resolve_split(tn_regions *r, int32_t size, int32_t *lab, int32_t id,
                          const struct region_rep *cand, int32_t m)
{
    int32_t active = m;
    for (int32_t j = 0; j < m; j++) {
        TN_ASSERT(lab[cand[j].cell] == id);
        lab[cand[j].cell] = LAB_REP - j;
        r->alive[j] = 1;
    }
    const int64_t limit = probe_limit(r);
    for (int64_t budget = 64 < limit ? 64 : limit; active > 1; budget *= 2) {
        if (budget > limit)
            return false;
        for (int32_t j = 0; j < m && active > 1; j++) {
            if (!r->alive[j])
                continue;
            if (r->flooded > 2 * limit)
                return false; /* many pieces: a relabel costs less */
            const int32_t c = cand[j].cell;
            lab[c] = LAB_MARK;
            int32_t got = probe(r, lab, c, id, budget, &active);
            int32_t cells = got < 0 ? -got : got, to = id;
            if (got > 0 && active > 1) { /* a whole piece, and others remain: a new region */
                to = new_region(r, size);
                if (to < 0)
                    return false;
                r->alive[j] = 0;
                active--;
            }
            for (int32_t k = 0; k < cells; k++)
                lab[r->queue[k]] = to;
            if (r->alive[j]) /* still a candidate for the next round */
                lab[c] = LAB_REP - j;
        }
    }
    for (int32_t j = 0; j < m; j++)
        if (r->alive[j])
            lab[cand[j].cell] = id;
    return true;
}

/* An added group of cells touches the m >= 2 regions ids[0..m) (cell[j] one cell of each):
 * they become one, under the id of the largest. The same doubling floods measure all but the
 * one still unfinished when the others have finished; one more flood, up to the largest of
 * those, tells whether it is larger (of equal ones, the one measured last keeps its id). The
 * others' cells take the id: about twice their cells. Returns the id kept, or -1 past
 * probe_limit(). The ids given up are left in ids[0..m-1), and have no cells. */
static int32_t resolve_join(tn_regions *r, int32_t *lab, int32_t *ids, const int32_t *cell,
                            int32_t m)
{
    int32_t active = m, big = -1, big_cells = 0;
    for (int32_t j = 0; j < m; j++)
        r->alive[j] = 1;
    const int64_t limit = probe_limit(r);
    for (int64_t budget = 64 < limit ? 64 : limit; active > 1; budget *= 2) {
        if (budget > limit)
            return -1;
        for (int32_t j = 0; j < m && active > 1; j++) {
            if (!r->alive[j])
                continue;
            if (r->flooded > 2 * limit)
                return -1;
            lab[cell[j]] = LAB_MARK;
            int32_t got = probe(r, lab, cell[j], ids[j], budget, &active);
            if (got > 0) { /* the whole region: its cells stay marked until the id is known */
                r->alive[j] = 0;
                active--;
                if (got >= big_cells) {
                    big = j;
                    big_cells = got;
                }
            } else {
                for (int32_t k = 0; k < -got; k++)
                    lab[r->queue[k]] = ids[j];
            }
        }
    }
    int32_t keep = 0;
    while (!r->alive[keep])
        keep++;
    /* the unfinished one keeps its id if it has more cells than the largest measured */
    lab[cell[keep]] = LAB_MARK;
    int32_t got = probe(r, lab, cell[keep], ids[keep], big_cells, &active);
    if (got > 0 && got < big_cells) {
        keep = big; /* its cells, and the others', are marked: all take the id below */
    } else {
        for (int32_t k = 0; k < (got < 0 ? -got : got); k++)
            lab[r->queue[k]] = ids[keep];
    }
    const int32_t id = ids[keep];
    for (int32_t j = 0; j < m; j++)
        if (lab[cell[j]] == LAB_MARK && !flood_relabel(r, lab, cell[j], LAB_MARK, id))
            return -1;
    ids[keep] = ids[m - 1];
    return id;
}

static int cmp_rep(const void *a, const void *b)
{
    const struct region_rep *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->cell > y->cell) - (x->cell < y->cell);
}

/* Take out of size class `size`'s regions (labels `lab`) the cells of the window r->win that
 * stopped fitting (old
 * clearance in `old`, by local index; new in `clear`). Each connected group of them, with the
 * neighbours of its region it leaves behind: when those meet again inside the window the
 * region stays whole; otherwise they become split candidates (r->rep); when there are none the
 * region vanished (r->gone). False when the candidates or vanished regions pass their capacity. */
static bool remove_cells(tn_regions *r, int32_t size, int32_t *lab, const uint8_t *clear,
                         const uint8_t *old)
{
    const tn_rect win = r->win;
    const int32_t w = r->w, ww = win.x1 - win.x0;
    uint32_t *mark = r->mark;
    const uint8_t k = (uint8_t)size;
    for (int32_t y = win.y0; y < win.y1; y++)
        for (int32_t x = win.x0; x < win.x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            size_t li = (size_t)(y - win.y0) * (size_t)ww + (size_t)(x - win.x0);
            if (!(old[li] >= k && clear[i] < k) || lab[i] < 0)
                continue;
            int32_t id = lab[i];
            /* the group: removed cells of this label reachable through removed cells; the
             * neighbours it leaves are noted as candidates, kept only if they do not meet */
            uint32_t g = next_stamp(r);
            int32_t head = 0, tail = 0, first_nb = -1, nbs = 0, reps0 = r->reps;
            r->queue[tail++] = (int32_t)i;
            mark[li] = g;
            while (head < tail) {
                int32_t c = r->queue[head++], nb[8];
                lab[c] = LAB_OUT;
                /* the window holds every removed cell and its neighbours */
                int nn = neighbours(r, c, win, nb);
                for (int q = 0; q < nn; q++) {
                    int32_t j = nb[q];
                    size_t lj = loc(r, j);
                    if (lab[j] != id || mark[lj] == g)
                        continue;
                    mark[lj] = g;
                    if (clear[j] < k) { /* removed too: part of the group */
                        r->queue[tail++] = j;
                        continue;
                    }
                    nbs++; /* a neighbour left behind */
                    if (first_nb < 0)
                        first_nb = j;
                    if (r->reps == REGIONS_REPS)
                        return false;
                    r->rep[r->reps++] = (struct region_rep){id, j};
                }
            }
            if (nbs == 0) { /* the group was a whole region: it vanishes */
                if (r->ngone == REGIONS_GONE)
                    return false;
                r->gone[r->ngone++] = id;
                continue;
            }
            /* do the neighbours left behind meet inside the window, through cells of the
             * region that still fit? */
            uint32_t v = next_stamp(r);
            int32_t reached = 0;
            head = tail = 0;
            r->queue[tail++] = first_nb;
            mark[loc(r, first_nb)] = v;
            while (head < tail) {
                int32_t nb[8];
                int nn = neighbours(r, r->queue[head++], win, nb);
                bool was_nb = false; /* next to a removed cell of the group? */
                for (int q = 0; q < nn; q++) {
                    int32_t j = nb[q];
                    size_t lj = loc(r, j);
                    if (mark[lj] == g && clear[j] < k)
                        was_nb = true;
                    if (lab[j] != id || clear[j] < k || mark[lj] == v)
                        continue;
                    mark[lj] = v;
                    r->queue[tail++] = j;
                }
                reached += was_nb;
            }
            if (reached == nbs)
                r->reps = reps0; /* the region stays whole here */
        }
    return true;
}

/* Give the cells of the window r->win that started fitting their region (labels `lab`): each
 * connected group of them takes the one region it touches, a new id when none (an island), and
 * joins the regions it touches when several. False past the floods' limits. */
static bool add_cells(tn_regions *r, int32_t size, int32_t *lab, const uint8_t *clear,
                      const uint8_t *old)
{
    const tn_rect win = r->win;
    const int32_t w = r->w, ww = win.x1 - win.x0;
    uint32_t *mark = r->mark;
    const uint8_t k = (uint8_t)size;
    for (int32_t y = win.y0; y < win.y1; y++)
        for (int32_t x = win.x0; x < win.x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            size_t li = (size_t)(y - win.y0) * (size_t)ww + (size_t)(x - win.x0);
            if (!(old[li] < k && clear[i] >= k) || lab[i] >= 0)
                continue;
            int32_t head = 0, tail = 0, m = 0, ids[REGIONS_JOIN], cell[REGIONS_JOIN];
            uint32_t g = next_stamp(r);
            r->queue[tail++] = (int32_t)i;
            lab[i] = LAB_HOLD;
            mark[li] = g;
            while (head < tail) {
                int32_t nb[8];
                /* the window holds every added cell and its neighbours */
                int nn = neighbours(r, r->queue[head++], win, nb);
                for (int q = 0; q < nn; q++) {
                    int32_t j = nb[q];
                    size_t lj = loc(r, j);
                    if (clear[j] < k || mark[lj] == g)
                        continue;
                    if (lab[j] >= 0) { /* an existing region */
                        int32_t e = 0;
                        while (e < m && ids[e] != lab[j])
                            e++;
                        if (e == m) {
                            if (m == REGIONS_JOIN)
                                return false;
                            ids[m] = lab[j];
                            cell[m++] = j;
                        }
                    } else if (old[lj] < k) { /* added too */
                        mark[lj] = g;
                        lab[j] = LAB_HOLD;
                        r->queue[tail++] = j;
                    }
                }
            }
            if (m <= 1) {
                int32_t id = m == 1 ? ids[0] : new_region(r, size); /* or an island */
                if (id < 0)
                    return false;
                for (int32_t q = 0; q < tail; q++)
                    lab[r->queue[q]] = id;
                continue;
            }
            int32_t id = resolve_join(r, lab, ids, cell, m);
            if (id < 0 || !flood_relabel(r, lab, (int32_t)i, LAB_HOLD, id))
                return false;
            for (int32_t e = 0; e < m - 1; e++)
                if (!drop_region(r, size, ids[e]))
                    return false;
        }
    return true;
}

/* Run `pass` over the update's windows wins[0..nw) in turn, each as r->win with its old
 * clearance (the windows' are one after the other in r->old); false as soon as one fails. */
typedef bool window_pass(tn_regions *r, int32_t size, int32_t *lab, const uint8_t *clear,
                         const uint8_t *old);
static bool each_window(tn_regions *r, int32_t size, int32_t *lab, const uint8_t *clear,
                        const tn_rect *wins, int32_t nw, window_pass *pass)
{
    const uint8_t *old = r->old;
    for (int32_t k = 0; k < nw; k++) {
        r->win = wins[k];
        if (!pass(r, size, lab, clear, old))
            return false;
        old += (size_t)(wins[k].x1 - wins[k].x0) * (size_t)(wins[k].y1 - wins[k].y0);
    }
    return true;
}

/* Bring the labels of size class `size` up to date for the update's windows wins[0..nw) (old
 * clearance of each in turn in r->old) without relabelling the map: first the cells that
 * stopped fitting, in every window, then the splits they made and the regions they emptied,
 * then the cells that started fitting. False when the caller must relabel the size class. */
static bool relabel_local(tn_regions *r, int32_t size, const uint8_t *clear, const tn_rect *wins,
                          int32_t nw)
{
    int32_t *lab = r->label + (size_t)(size - 1) * (size_t)r->w * (size_t)r->h;
    r->reps = r->ngone = 0;
    if (!each_window(r, size, lab, clear, wins, nw, remove_cells))
        return false;
    /* the candidates of each region together (a piece may touch edits in several windows) */
    qsort(r->rep, (size_t)r->reps, sizeof r->rep[0], cmp_rep);
    for (int32_t a = 0, b; a < r->reps; a = b) {
        int32_t m = 0;
        for (b = a; b < r->reps && r->rep[b].id == r->rep[a].id; b++)
            if (m == 0 || r->rep[a + m - 1].cell != r->rep[b].cell)
                r->rep[a + m++] = r->rep[b];
        if (m >= 2 && !resolve_split(r, size, lab, r->rep[a].id, r->rep + a, m))
            return false;
    }
    for (int32_t e = 0; e < r->ngone; e++)
        if (!drop_region(r, size, r->gone[e]))
            return false;
    return each_window(r, size, lab, clear, wins, nw, add_cells);
}

tn_status tn_regions_update(tn_regions *r, int32_t *relabelled)
{
    if (relabelled)
        *relabelled = 0;
    if (!r)
        return TN_E_INVALID_ARG;
    if (tn_regions_current(r))
        return TN_OK;
    /* the cells whose clearance may change: each edit's cells, and up to sizes - 1 cells left
     * of and above them; the local checks look one cell further. One window per edit (edits
     * far apart are relabelled apart), windows that meet merged into one */
    tn_rect wins[TN_CHANGE_LOG];
    int32_t nw = tn__map_changed_rects(r->map, r->revision, r->sizes, 1, wins);
    const uint8_t *clear = tn_clearance_data(r->clear);
    /* a local update needs the windows' clearance before the edit, in the scratch, one after
     * the other */
    int64_t area = 0;
    for (int32_t k = 0; k < nw; k++)
        area += (int64_t)(wins[k].x1 - wins[k].x0) * (int64_t)(wins[k].y1 - wins[k].y0);
    /* the regions' clearance still describes their revision, unless the caller updated it
     * (it is reachable through tn_regions_clearance()); then the values before the edit are
     * gone and every size is labelled afresh */
    const bool before_kept = tn__clearance_revision(r->clear) == r->revision;
    const bool local = nw > 0 && before_kept && area <= r->scratch;
    if (local) {
        uint8_t *o = r->old;
        for (int32_t k = 0; k < nw; k++) {
            const tn_rect win = wins[k];
            const size_t ww = (size_t)(win.x1 - win.x0);
            for (int32_t y = win.y0; y < win.y1; y++, o += ww)
                memcpy(o, clear + (size_t)y * (size_t)r->w + (size_t)win.x0, ww);
        }
    }
    tn_status st = tn_clearance_update(r->clear, NULL);
    if (st != TN_OK)
        return st;
    size_t n = (size_t)r->w * (size_t)r->h;
    int64_t cells = 0; /* capped at INT32_MAX for the caller */
    for (int32_t s = 1; s <= r->sizes; s++) {
        if (nw == 0 && before_kept)
            continue; /* nothing changed */
        /* the windows in turn: cells of different windows are never neighbours, and each
         * window's checks read only its own cells, so each sees the others' edits as done */
        r->flooded = 0;
        if (local && relabel_local(r, s, clear, wins, nw)) {
            r->local++;
            cells += area + r->flooded;
            continue;
        }
        r->count[s - 1] = label_size(r, s, clear);
        r->full++;
        cells += (int64_t)n;
    }
    r->revision = tn_map_revision(r->map);
    if (relabelled)
        *relabelled = cells < INT32_MAX ? (int32_t)cells : INT32_MAX;
    return TN_OK;
}

void tn_regions_stats(const tn_regions *r, int64_t *full, int64_t *local)
{
    if (full)
        *full = r ? r->full : 0;
    if (local)
        *local = r ? r->local : 0;
}

bool tn_regions_current(const tn_regions *r)
{
    return r && r->revision == tn_map_revision(r->map);
}

int32_t tn_regions_id(const tn_regions *r, int32_t size, int32_t x, int32_t y)
{
    if (!r || size < 1 || size > r->sizes || x < 0 || y < 0 || x >= r->w || y >= r->h)
        return -1;
    size_t n = (size_t)r->w * (size_t)r->h;
    int32_t slot = r->label[(size_t)(size - 1) * n + (size_t)y * (size_t)r->w + (size_t)x];
    return slot < 0 ? -1 : id_of(r, size, slot);
}

int32_t tn_regions_count(const tn_regions *r, int32_t size)
{
    return r && size >= 1 && size <= r->sizes ? r->count[size - 1] : 0;
}

bool tn_regions_connected(const tn_regions *r, int32_t size, tn_cell a, tn_cell b)
{
    int32_t ia = tn_regions_id(r, size, a.x, a.y);
    return ia >= 0 && ia == tn_regions_id(r, size, b.x, b.y);
}

const tn_clearance *tn_regions_clearance(const tn_regions *r)
{
    return r ? r->clear : NULL;
}

tn_diagonal tn_regions_diagonal(const tn_regions *r)
{
    return r ? r->diagonal : TN_DIAGONAL_NO_CUT;
}

const tn_map *tn_regions_map(const tn_regions *r)
{
    return r ? r->map : NULL;
}
