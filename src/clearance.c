/* Clearance (true clearance for square units, Harabor and Botea 2008), anchored at the unit's
 * top-left cell: c(x, y) = 0 on a blocked cell, else 1 + min(c(x+1, y), c(x, y+1),
 * c(x+1, y+1)) with cells outside the map counting 0, capped at max_size. */
#include "tilenav/clearance.h"

#include "clearance_internal.h"
#include "grid.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define TN_COOKIE_CLEARANCE 0x434c5231u

struct tn_clearance {
    tn_allocator alloc;
    const tn_map *map;
    int32_t w, h, cap;
    uint64_t revision; /* the map revision the values describe */
    uint8_t *c;        /* W*H */
    tn_map **views;    /* views[n] for n = 2..cap: what a unit of size n moves on; or NULL */
};

tn_clearance_def tn_clearance_def_default(void)
{
    tn_clearance_def d;
    memset(&d, 0, sizeof d);
    d.max_size = 4;
    d.size_maps = true;
    d.internal_cookie = TN_COOKIE_CLEARANCE;
    return d;
}

/* Recompute the cells of r (clipped), rows bottom to top, each row right to left, reading the
 * values right of and below r as they are. */
static int32_t compute(tn_clearance *cl, const tn__grid *g, tn_rect r)
{
    int32_t x0 = r.x0 < 0 ? 0 : r.x0, y0 = r.y0 < 0 ? 0 : r.y0;
    int32_t x1 = r.x1 > cl->w ? cl->w : r.x1, y1 = r.y1 > cl->h ? cl->h : r.y1;
    const int32_t w = cl->w, h = cl->h;
    const uint8_t cap = (uint8_t)cl->cap;
    for (int32_t y = y1 - 1; y >= y0; y--) {
        uint8_t *row = cl->c + (size_t)y * (size_t)w;
        const uint8_t *below = y + 1 < h ? row + w : NULL;
        const uint8_t *pass = g->pass + (size_t)y * (size_t)w;
        for (int32_t x = x1 - 1; x >= x0; x--) {
            if (!pass[x]) {
                row[x] = 0;
                continue;
            }
            uint8_t right = x + 1 < w ? row[x + 1] : 0;
            uint8_t down = below ? below[x] : 0;
            uint8_t diag = below && x + 1 < w ? below[x + 1] : 0;
            uint8_t m = right < down ? right : down;
            m = m < diag ? m : diag;
            row[x] = m < cap ? (uint8_t)(m + 1) : cap;
        }
    }
    return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

/* Bring the size views up to date on r (clipped), sizes in increasing order: the cost of size
 * n at (x, y) is the largest of size n - 1's at (x, y), (x+1, y), (x, y+1) and (x+1, y+1)
 * (the four (n-1)-squares cover the n-square), all passable where size n fits. Cells outside
 * r keep their values: r covers every anchor whose square reaches a changed cell. */
static void update_views(tn_clearance *cl, const tn__grid *g, tn_rect r)
{
    int32_t x0 = r.x0 < 0 ? 0 : r.x0, y0 = r.y0 < 0 ? 0 : r.y0;
    int32_t x1 = r.x1 > cl->w ? cl->w : r.x1, y1 = r.y1 > cl->h ? cl->h : r.y1;
    const size_t w = (size_t)cl->w;
    const float *prev = g->cost;
    for (int32_t n = 2; n <= cl->cap; n++) {
        tn_map *v = cl->views[n];
        tn_rect changed = {x1, y1, x0, y0};
        for (int32_t y = y0; y < y1; y++) {
            for (int32_t x = x0; x < x1; x++) {
                size_t i = (size_t)y * w + (size_t)x;
                bool fits = cl->c[i] >= n;
                float cost = INFINITY;
                if (fits) {
                    float a = prev[i], b = prev[i + 1], c = prev[i + w], d = prev[i + w + 1];
                    a = a > b ? a : b;
                    c = c > d ? c : d;
                    cost = a > c ? a : c;
                }
                if (tn__map_view_put(v, i, fits ? 1 : 0, cost)) {
                    changed.x0 = x < changed.x0 ? x : changed.x0;
                    changed.y0 = y < changed.y0 ? y : changed.y0;
                    changed.x1 = x + 1 > changed.x1 ? x + 1 : changed.x1;
                    changed.y1 = y + 1 > changed.y1 ? y + 1 : changed.y1;
                }
            }
        }
        tn__map_view_commit(v, changed, g->min_cost);
        prev = tn_map_cost_data(v);
    }
}

/* The size maps now describe the source map's current revision (tn__map_view_behind()). */
static void views_synced(tn_clearance *cl)
{
    for (int32_t n = 2; cl->views && n <= cl->cap; n++)
        tn__map_view_synced(cl->views[n]);
}

tn_status tn_clearance_create(const tn_clearance_def *def, tn_clearance **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    tn_allocator a;
    if (!def || def->internal_cookie != TN_COOKIE_CLEARANCE || !def->map || def->max_size < 1 ||
        def->max_size > 255 || !tn__allocator_of(&def->allocator, &a))
        return TN_E_INVALID_ARG;
    tn__grid g;
    tn__map_grid(def->map, &g);
    tn_clearance *cl = tn__calloc(&a, sizeof *cl);
    if (!cl)
        return TN_E_NOMEM;
    cl->alloc = a;
    cl->map = def->map;
    cl->w = g.w;
    cl->h = g.h;
    cl->cap = def->max_size;
    cl->c = tn__alloc(&a, (size_t)g.w * (size_t)g.h);
    if (!cl->c) {
        tn_clearance_destroy(cl);
        return TN_E_NOMEM;
    }
    (void)compute(cl, &g, (tn_rect){0, 0, g.w, g.h});
    if (def->size_maps && cl->cap > 1) {
        cl->views = tn__calloc(&a, (size_t)(cl->cap + 1) * sizeof *cl->views);
        if (!cl->views) {
            tn_clearance_destroy(cl);
            return TN_E_NOMEM;
        }
        for (int32_t n = 2; n <= cl->cap; n++) {
            tn_status st = tn__map_create_view(def->map, &cl->views[n]);
            if (st != TN_OK) {
                tn_clearance_destroy(cl);
                return st;
            }
        }
        update_views(cl, &g, (tn_rect){0, 0, g.w, g.h});
        views_synced(cl);
    }
    cl->revision = g.revision;
    *out = cl;
    return TN_OK;
}

void tn_clearance_destroy(tn_clearance *cl)
{
    if (!cl)
        return;
    tn_allocator a = cl->alloc;
    if (cl->views) {
        for (int32_t n = 2; n <= cl->cap; n++)
            tn_map_destroy(cl->views[n]);
        tn__free(&a, cl->views, (size_t)(cl->cap + 1) * sizeof *cl->views);
    }
    tn__free(&a, cl->c, (size_t)cl->w * (size_t)cl->h);
    tn__free(&a, cl, sizeof *cl);
}

size_t tn_clearance_memory_bytes(const tn_clearance *cl)
{
    if (!cl)
        return 0;
    size_t b = sizeof *cl + (size_t)cl->w * (size_t)cl->h;
    if (cl->views) {
        b += (size_t)(cl->cap + 1) * sizeof *cl->views;
        for (int32_t n = 2; n <= cl->cap; n++)
            b += tn_map_memory_bytes(cl->views[n]);
    }
    return b;
}

tn_status tn_clearance_update(tn_clearance *cl, int32_t *touched)
{
    if (touched)
        *touched = 0;
    if (!cl)
        return TN_E_INVALID_ARG;
    tn__grid g;
    tn__map_grid(cl->map, &g);
    if (g.w != cl->w || g.h != cl->h)
        return TN_E_INVALID_ARG; /* maps do not change size */
    /* each edit's rectangle on its own (edits far apart do not make one rectangle spanning
     * the map), grown by cap - 1 cells left and up: a square anchored there reaches the
     * edit. Rectangles that meet are merged, so a cell's right and lower neighbours outside
     * its rectangle kept their values, and the rectangles can be computed in any order. */
    tn_rect rects[TN_CHANGE_LOG];
    int32_t nr = tn__map_changed_rects(cl->map, cl->revision, cl->cap - 1, 0, rects);
    if (nr < 0) { /* the log no longer reaches back */
        rects[0] = (tn_rect){0, 0, g.w, g.h};
        nr = 1;
    }
    int32_t n = 0;
    for (int32_t k = 0; k < nr; k++) {
        n += compute(cl, &g, rects[k]);
        if (cl->views)
            update_views(cl, &g, rects[k]);
    }
    views_synced(cl);
    cl->revision = g.revision;
    if (touched)
        *touched = n;
    return TN_OK;
}

int32_t tn_clearance_get(const tn_clearance *cl, int32_t x, int32_t y)
{
    if (!cl || x < 0 || y < 0 || x >= cl->w || y >= cl->h)
        return 0;
    return cl->c[(size_t)y * (size_t)cl->w + (size_t)x];
}

const uint8_t *tn_clearance_data(const tn_clearance *cl)
{
    return cl ? cl->c : NULL;
}

const tn_map *tn_clearance_map(const tn_clearance *cl, int32_t size)
{
    if (!cl || size < 1 || size > cl->cap)
        return NULL;
    if (size == 1)
        return cl->map;
    return cl->views ? cl->views[size] : NULL;
}

tn_status tn__clearance_resolve(const tn_clearance *cl, const tn_map *map, int32_t size,
                                const tn_map **out)
{
    *out = map;
    if (size == 0 || size == 1)
        return TN_OK;
    if (size < 0 || !cl || cl->map != map || size > cl->cap || !cl->views)
        return TN_E_INVALID_ARG;
    if (cl->revision != tn_map_revision(map))
        return TN_E_MAP_CHANGED;
    *out = cl->views[size];
    return TN_OK;
}

const char *tn__clearance_problem(const tn_clearance *cl, const tn_map *map, int32_t size)
{
    if (size == 0 || size == 1)
        return "";
    if (size < 0)
        return "query.size must be 0..255";
    if (!cl)
        return "query.size above 1 needs query.clearance (a tn_clearance of this map with "
               "max_size >= size and size maps, or tn_regions_clearance() of regions built "
               "with size_maps)";
    if (cl->map != map)
        return "query.clearance was built for another map";
    if (size > cl->cap)
        return "query.size is above the clearance's max_size";
    if (!cl->views)
        return "query.clearance has no size maps (it was built with size_maps false)";
    if (cl->revision != tn_map_revision(map))
        return "query.clearance is older than the map: call tn_clearance_update(), or "
               "tn_regions_update() when it is tn_regions_clearance()'s";
    return "";
}

uint64_t tn__clearance_revision(const tn_clearance *cl)
{
    return cl->revision;
}

tn_status tn_clearance_anchors_over(const tn_clearance *cl, int32_t size, const tn_cell *cells,
                                    int32_t count, tn_cell *out, int32_t cap, int32_t *out_count)
{
    if (out_count)
        *out_count = 0;
    const tn_map *v = tn_clearance_map(cl, size);
    if (!v || count < 0 || (count && !cells) || cap < 0 || (cap && !out) || !out_count)
        return TN_E_INVALID_ARG;
    int32_t n = 0;
    for (int32_t k = 0; k < count; k++)
        for (int32_t ay = cells[k].y - size + 1; ay <= cells[k].y; ay++)
            for (int32_t ax = cells[k].x - size + 1; ax <= cells[k].x; ax++) {
                if (!tn_map_passable(v, ax, ay))
                    continue;
                bool seen = false; /* once each; the lists are short (count * size^2) */
                for (int32_t j = 0; j < n && j < cap && !seen; j++)
                    seen = out[j].x == ax && out[j].y == ay;
                if (seen)
                    continue;
                if (n < cap)
                    out[n] = (tn_cell){ax, ay};
                n++;
            }
    *out_count = n;
    return n > cap ? TN_E_BUFFER_TOO_SMALL : TN_OK;
}

int32_t tn_clearance_max_size(const tn_clearance *cl)
{
    return cl ? cl->cap : 0;
}

tn_status tn_clearance_histogram(const tn_clearance *cl, int32_t *hist, int32_t cap)
{
    if (!cl || !hist || cap < 0)
        return TN_E_INVALID_ARG;
    if (cap < cl->cap + 1)
        return TN_E_BUFFER_TOO_SMALL;
    memset(hist, 0, (size_t)(cl->cap + 1) * sizeof *hist);
    size_t n = (size_t)cl->w * (size_t)cl->h;
    for (size_t i = 0; i < n; i++)
        hist[cl->c[i]]++;
    return TN_OK;
}
