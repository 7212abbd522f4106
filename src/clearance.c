/* Clearance (true clearance for square units, Harabor and Botea 2008), anchored at the unit's
 * top-left cell: c(x, y) = 0 on a blocked cell, else 1 + min(c(x+1, y), c(x, y+1),
 * c(x+1, y+1)) with cells outside the map counting 0, capped at max_size. */
#include "tilenav/clearance.h"

#include "grid.h"
#include "internal.h"

#include <string.h>

#define TN_COOKIE_CLEARANCE 0x434c5231u

struct tn_clearance {
    tn_allocator alloc;
    const tn_map *map;
    int32_t w, h, cap;
    uint64_t revision; /* the map revision the values describe */
    uint8_t *c;        /* W*H */
};

tn_clearance_def tn_clearance_def_default(void)
{
    tn_clearance_def d;
    memset(&d, 0, sizeof d);
    d.max_size = 8;
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
    cl->revision = g.revision;
    *out = cl;
    return TN_OK;
}

void tn_clearance_destroy(tn_clearance *cl)
{
    if (!cl)
        return;
    tn_allocator a = cl->alloc;
    tn__free(&a, cl->c, (size_t)cl->w * (size_t)cl->h);
    tn__free(&a, cl, sizeof *cl);
}

size_t tn_clearance_memory_bytes(const tn_clearance *cl)
{
    return cl ? sizeof *cl + (size_t)cl->w * (size_t)cl->h : 0;
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
    tn_rect r;
    if (!tn_map_changed_region(cl->map, cl->revision, &r))
        r = (tn_rect){0, 0, g.w, g.h}; /* the log no longer reaches back */
    int32_t n = 0;
    if (r.x1 > r.x0 && r.y1 > r.y0) {
        /* a square anchored up to cap - 1 cells left of or above a changed cell reaches it */
        r.x0 -= cl->cap - 1;
        r.y0 -= cl->cap - 1;
        n = compute(cl, &g, r);
    }
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
