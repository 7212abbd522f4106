/* Regions: connected components of the cells where a unit of each size fits (regions.h),
 * labelled by breadth-first passes in row-major order of their first cell. */
#include "tilenav/regions.h"

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
    int32_t *queue; /* W * H, the BFS's */
    uint8_t *old;   /* W * H: the clearance before an update (only the window is used) */
    uint32_t *mark; /* W * H: visit stamps of the local checks */
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

/* Label the cells of clearance >= size; returns the number of regions. */
static int32_t label_size(tn_regions *r, int32_t size, const uint8_t *clear)
{
    const int32_t w = r->w, h = r->h;
    const size_t n = (size_t)w * (size_t)h;
    int32_t *lab = r->label + (size_t)(size - 1) * n;
    for (size_t i = 0; i < n; i++)
        lab[i] = -1;
    const tn_rect map = {0, 0, w, h};
    int32_t regions = 0;
    for (size_t start = 0; start < n; start++) {
        if (clear[start] < size || lab[start] >= 0)
            continue;
        int32_t id = regions++;
        int32_t head = 0, tail = 0;
        lab[start] = id;
        r->queue[tail++] = (int32_t)start;
        while (head < tail) {
            int32_t nb[8];
            int nn = neighbours(r, r->queue[head++], map, nb);
            for (int q = 0; q < nn; q++)
                if (clear[nb[q]] >= size && lab[nb[q]] < 0) {
                    lab[nb[q]] = id;
                    r->queue[tail++] = nb[q];
                }
        }
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
    r->queue = r->count ? tn__alloc(&a, n * sizeof(int32_t)) : NULL;
    r->old = r->queue ? tn__alloc(&a, n) : NULL;
    r->mark = r->old ? tn__calloc(&a, n * sizeof(uint32_t)) : NULL;
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
    tn__free(&a, r->queue, n * sizeof(int32_t));
    tn__free(&a, r->old, n);
    tn__free(&a, r->mark, n * sizeof(uint32_t));
    tn__free(&a, r, sizeof *r);
}

size_t tn_regions_memory_bytes(const tn_regions *r)
{
    if (!r)
        return 0;
    size_t n = (size_t)r->w * (size_t)r->h;
    return sizeof *r + n * ((size_t)r->sizes + 2) * sizeof(int32_t) + n +
           (size_t)r->sizes * sizeof(int32_t) + tn_clearance_memory_bytes(r->clear);
}

/* A new visit stamp for the local checks (the marks are cleared when the stamps wrap). */
static uint32_t next_stamp(tn_regions *r)
{
    if (++r->stamp == 0) {
        memset(r->mark, 0, (size_t)r->w * (size_t)r->h * sizeof(uint32_t));
        r->stamp = 1;
    }
    return r->stamp;
}

/* Try to bring the labels of size class `size` up to date for the cells of `win` whose fit
 * changed (old clearance in r->old, new in `clear`), without relabelling the map: removed
 * cells lose their label when the neighbours they leave stay connected inside the window (else
 * the region might split), added cells take the one label their neighbours have (a new id when
 * none; several would join regions). False when the edit might split, join or empty a region:
 * the caller then relabels the size class. */
static bool relabel_local(tn_regions *r, int32_t size, const uint8_t *clear, tn_rect win)
{
    const int32_t w = r->w;
    const size_t n = (size_t)w * (size_t)r->h;
    int32_t *lab = r->label + (size_t)(size - 1) * n;
    const uint8_t k = (uint8_t)size;
    /* the removed cells first: each connected group of them, with the same-label neighbours it
     * leaves, which must meet again inside the window */
    for (int32_t y = win.y0; y < win.y1; y++)
        for (int32_t x = win.x0; x < win.x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            if (!(r->old[i] >= k && clear[i] < k) || lab[i] < 0)
                continue;
            int32_t id = lab[i];
            /* the group: removed cells of this label reachable through removed cells */
            uint32_t g = next_stamp(r);
            int32_t head = 0, tail = 0, first_nb = -1, nbs = 0;
            r->queue[tail++] = (int32_t)i;
            r->mark[i] = g;
            while (head < tail) {
                int32_t c = r->queue[head++], nb[8];
                lab[c] = -1;
                /* the window holds every removed cell and its neighbours */
                int nn = neighbours(r, c, win, nb);
                for (int q = 0; q < nn; q++) {
                    int32_t j = nb[q];
                    if (lab[j] != id || r->mark[j] == g)
                        continue;
                    r->mark[j] = g;
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
            r->mark[first_nb] = v;
            while (head < tail) {
                int32_t nb[8];
                int nn = neighbours(r, r->queue[head++], win, nb);
                bool was_nb = false; /* next to a removed cell of the group? */
                for (int q = 0; q < nn; q++) {
                    int32_t j = nb[q];
                    if (r->mark[j] == g && clear[j] < k)
                        was_nb = true;
                    if (lab[j] != id || clear[j] < k || r->mark[j] == v)
                        continue;
                    r->mark[j] = v;
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
            if (!(r->old[i] < k && clear[i] >= k) || lab[i] >= 0)
                continue;
            int32_t head = 0, tail = 0, id = -1;
            uint32_t g = next_stamp(r);
            r->queue[tail++] = (int32_t)i;
            r->mark[i] = g;
            while (head < tail) {
                int32_t nb[8];
                /* the window holds every added cell and its neighbours */
                int nn = neighbours(r, r->queue[head++], win, nb);
                for (int q = 0; q < nn; q++) {
                    int32_t j = nb[q];
                    if (clear[j] < k || r->mark[j] == g)
                        continue;
                    if (lab[j] >= 0) { /* an existing region */
                        if (id >= 0 && lab[j] != id)
                            return false; /* two regions join */
                        id = lab[j];
                    } else if (r->old[j] < k) { /* added too */
                        r->mark[j] = g;
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
    tn_rect ch;
    bool logged = tn_map_changed_region(r->map, r->revision, &ch);
    /* the cells whose clearance may change: the changed cells, and up to sizes - 1 cells left
     * of and above them; the local checks look one cell further */
    tn_rect win = {ch.x0 - r->sizes, ch.y0 - r->sizes, ch.x1 + 1, ch.y1 + 1};
    win.x0 = win.x0 < 0 ? 0 : win.x0;
    win.y0 = win.y0 < 0 ? 0 : win.y0;
    win.x1 = win.x1 > r->w ? r->w : win.x1;
    win.y1 = win.y1 > r->h ? r->h : win.y1;
    const uint8_t *clear = tn_clearance_data(r->clear);
    for (int32_t y = win.y0; y < win.y1; y++)
        memcpy(r->old + (size_t)y * (size_t)r->w + (size_t)win.x0,
               clear + (size_t)y * (size_t)r->w + (size_t)win.x0, (size_t)(win.x1 - win.x0));
    tn_status st = tn_clearance_update(r->clear, NULL);
    if (st != TN_OK)
        return st;
    size_t n = (size_t)r->w * (size_t)r->h;
    int32_t cells = 0;
    for (int32_t s = 1; s <= r->sizes; s++) {
        if (logged && ch.x1 > ch.x0 && relabel_local(r, s, clear, win)) {
            r->local++;
            cells += (win.x1 - win.x0) * (win.y1 - win.y0);
            continue;
        }
        if (logged && ch.x1 <= ch.x0)
            continue; /* nothing changed */
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
