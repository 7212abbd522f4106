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
};

tn_regions_def tn_regions_def_default(void)
{
    tn_regions_def d;
    memset(&d, 0, sizeof d);
    d.diagonal = TN_DIAGONAL_NO_CUT;
    d.max_size = 1;
    d.internal_cookie = TN_COOKIE_REGIONS;
    return d;
}

/* Label the cells of clearance >= size; returns the number of regions. */
static int32_t label_size(tn_regions *r, int32_t size, const uint8_t *clear)
{
    const int32_t w = r->w, h = r->h;
    const size_t n = (size_t)w * (size_t)h;
    int32_t *lab = r->label + (size_t)(size - 1) * n;
    for (size_t i = 0; i < n; i++)
        lab[i] = -1;
    const bool eight = r->diagonal == TN_DIAGONAL_ALWAYS;
    int32_t regions = 0;
    for (size_t start = 0; start < n; start++) {
        if (clear[start] < size || lab[start] >= 0)
            continue;
        int32_t id = regions++;
        int32_t head = 0, tail = 0;
        lab[start] = id;
        r->queue[tail++] = (int32_t)start;
        while (head < tail) {
            int32_t i = r->queue[head++];
            int32_t x = i % w, y = i / w;
            for (int32_t dy = -1; dy <= 1; dy++)
                for (int32_t dx = -1; dx <= 1; dx++) {
                    if ((dx == 0 && dy == 0) || (!eight && dx != 0 && dy != 0))
                        continue;
                    int32_t nx = x + dx, ny = y + dy;
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                        continue;
                    size_t j = (size_t)ny * (size_t)w + (size_t)nx;
                    if (clear[j] >= size && lab[j] < 0) {
                        lab[j] = id;
                        r->queue[tail++] = (int32_t)j;
                    }
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
    cd.allocator = def->allocator;
    tn_status st = tn_clearance_create(&cd, &r->clear);
    r->label = st == TN_OK ? tn__alloc(&a, total) : NULL;
    r->count = r->label ? tn__calloc(&a, (size_t)r->sizes * sizeof(int32_t)) : NULL;
    r->queue = r->count ? tn__alloc(&a, n * sizeof(int32_t)) : NULL;
    if (!r->queue) {
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
    tn__free(&a, r, sizeof *r);
}

size_t tn_regions_memory_bytes(const tn_regions *r)
{
    if (!r)
        return 0;
    size_t n = (size_t)r->w * (size_t)r->h;
    return sizeof *r + n * ((size_t)r->sizes + 1) * sizeof(int32_t) +
           (size_t)r->sizes * sizeof(int32_t) + tn_clearance_memory_bytes(r->clear);
}

tn_status tn_regions_update(tn_regions *r)
{
    if (!r)
        return TN_E_INVALID_ARG;
    if (tn_regions_current(r))
        return TN_OK;
    tn_status st = tn_clearance_update(r->clear, NULL);
    if (st != TN_OK)
        return st;
    label_all(r);
    return TN_OK;
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

tn_diagonal tn_regions_diagonal(const tn_regions *r)
{
    return r ? r->diagonal : TN_DIAGONAL_NO_CUT;
}

const tn_map *tn_regions_map(const tn_regions *r)
{
    return r ? r->map : NULL;
}
