/* Regions: connected components of the cells where a unit of each size fits (regions.h),
 * labelled by breadth-first passes in row-major order of their first cell. */
#include "tilenav/regions.h"

#include "clearance_internal.h"
#include "grid.h"
#include "internal.h"
#include "tilenav/clearance.h"

#include <string.h>

#define TN_COOKIE_REGIONS 0x52474e31u

struct tn_regions {
    tn_allocator alloc;
    const tn_map *map;
    tn_diagonal diagonal;
    int32_t w, h, sizes;
    uint64_t revision;
    tn_clearance *clear;
    int32_t *label; /* sizes * W * H */
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

/* Label the cells of clearance >= size; returns the number of regions. Two passes over the
 * labels themselves, no other memory: the first makes them a union-find forest (each fitting
 * cell joined to the fitting cells before it that a step reaches: left and up, and up-left
 * and up-right under TN_DIAGONAL_ALWAYS); the second numbers the roots in row-major order,
 * and gives every other cell its parent's number, which is final since the parent comes
 * first. The ids are those a breadth-first labelling in row-major order of each region's
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
    r->queue = r->count ? tn__alloc(&a, sc * sizeof(int32_t)) : NULL;
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
    size_t sc = (size_t)r->scratch;
    tn__free(&a, r->queue, sc * sizeof(int32_t));
    tn__free(&a, r->old, sc);
    tn__free(&a, r->mark, sc * sizeof(uint32_t));
    tn__free(&a, r, sizeof *r);
}

size_t tn_regions_memory_bytes(const tn_regions *r)
{
    if (!r)
        return 0;
    size_t n = (size_t)r->w * (size_t)r->h;
    return sizeof *r + n * (size_t)r->sizes * sizeof(int32_t) +
           (size_t)r->scratch * (2 * sizeof(int32_t) + 1) + (size_t)r->sizes * sizeof(int32_t) +
           tn_clearance_memory_bytes(r->clear);
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

/* Try to bring the labels of size class `size` up to date for the cells of `win` whose fit
 * changed (old clearance in `old`, by local index; new in `clear`), without relabelling the map:
 * removed cells lose their label when the neighbours they leave stay connected inside the window
 * (else the region might split), added cells take the one label their neighbours have (a new id
 * when none; several would join regions). False when the edit might split, join or empty a region:
 * the caller then relabels the size class. */
static bool relabel_local(tn_regions *r, int32_t size, const uint8_t *clear, tn_rect win,
                          const uint8_t *old)
{
    const int32_t w = r->w, ww = win.x1 - win.x0;
    const size_t n = (size_t)w * (size_t)r->h;
    uint32_t *mark = r->mark;
    TN_ASSERT(win.x0 == r->win.x0 && win.y0 == r->win.y0 && win.x1 == r->win.x1 &&
              win.y1 == r->win.y1 && (int64_t)ww * (win.y1 - win.y0) <= r->scratch);
    int32_t *lab = r->label + (size_t)(size - 1) * n;
    const uint8_t k = (uint8_t)size;
    /* the removed cells first: each connected group of them, with the same-label neighbours it
     * leaves, which must meet again inside the window */
    for (int32_t y = win.y0; y < win.y1; y++)
        for (int32_t x = win.x0; x < win.x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            size_t li = (size_t)(y - win.y0) * (size_t)ww + (size_t)(x - win.x0);
            if (!(old[li] >= k && clear[i] < k) || lab[i] < 0)
                continue;
            int32_t id = lab[i];
            /* the group: removed cells of this label reachable through removed cells */
            uint32_t g = next_stamp(r);
            int32_t head = 0, tail = 0, first_nb = -1, nbs = 0;
            r->queue[tail++] = (int32_t)i;
            mark[li] = g;
            while (head < tail) {
                int32_t c = r->queue[head++], nb[8];
                lab[c] = -1;
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
                    } else { /* a neighbour left behind */
                        nbs++;
                        if (first_nb < 0)
                            first_nb = j;
                    }
                }
            }
            if (nbs == 0)
                return false; /* the group was a whole region: it vanishes */
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
            if (reached < nbs)
                return false; /* they might meet outside the window, or not: relabel */
        }
    /* then the added cells: each connected group takes its neighbours' one label */
    for (int32_t y = win.y0; y < win.y1; y++)
        for (int32_t x = win.x0; x < win.x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            size_t li = (size_t)(y - win.y0) * (size_t)ww + (size_t)(x - win.x0);
            if (!(old[li] < k && clear[i] >= k) || lab[i] >= 0)
                continue;
            int32_t head = 0, tail = 0, id = -1;
            uint32_t g = next_stamp(r);
            r->queue[tail++] = (int32_t)i;
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
                        if (id >= 0 && lab[j] != id)
                            return false; /* two regions join */
                        id = lab[j];
                    } else if (old[lj] < k) { /* added too */
                        mark[lj] = g;
                        r->queue[tail++] = j;
                    }
                }
            }
            if (id < 0)
                id = r->count[size - 1]++; /* an island of its own */
            for (int32_t q = 0; q < tail; q++)
                lab[r->queue[q]] = id;
        }
    return true;
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
    int32_t cells = 0;
    for (int32_t s = 1; s <= r->sizes; s++) {
        if (nw == 0 && before_kept)
            continue; /* nothing changed */
        /* the windows in turn: cells of different windows are never neighbours, and each
         * window's checks read only its own cells, so each sees the others' edits as done */
        bool done = local;
        const uint8_t *o = r->old;
        for (int32_t k = 0; k < nw && done; k++) {
            r->win = wins[k];
            done = relabel_local(r, s, clear, wins[k], o);
            o += (size_t)(wins[k].x1 - wins[k].x0) * (size_t)(wins[k].y1 - wins[k].y0);
        }
        if (done) {
            r->local++;
            cells += (int32_t)area;
            continue;
        }
        r->count[s - 1] = label_size(r, s, clear);
        r->full++;
        cells += (int32_t)n;
    }
    r->revision = tn_map_revision(r->map);
    if (relabelled)
        *relabelled = cells;
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
    return r->label[(size_t)(size - 1) * n + (size_t)y * (size_t)r->w + (size_t)x];
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
