/* Goal bounds' layout, shared by their builder (goal_bounds.c) and the searches that read
 * them (search.c, jps.c, jpsplus.c). */
#ifndef TILENAV_GOAL_BOUNDS_INTERNAL_H
#define TILENAV_GOAL_BOUNDS_INTERNAL_H

#include "grid.h"
#include "tilenav/goal_bounds.h"

#define TN_COOKIE_GB 0x47424e44u
struct tn_goal_bounds {
    tn_allocator alloc;
    uint32_t cookie;
    int32_t w, h;
    uint64_t wdiv;        /* row_divider(w) */
    uint64_t fingerprint; /* tn__map_fingerprint() of the map it was built from */
    tn_moves moves;
    double straight, diagonal;
    void *mem;    /* the allocation; box is its first 64-byte boundary */
    int16_t *box; /* per cell 8 boxes (E, W, S, N, SE, NE, SW, NW) of x0, y0, x1, y1, bounds
                     included; an empty box has x0 = y0 = INT16_MAX, x1 = y1 = INT16_MIN */
};

/* May a query on `map` (read into g) under `moves` use the bounds? TN_OK, TN_E_INVALID_ARG
 * (not goal bounds, or other moves), TN_E_MAP_CHANGED (built from another map or revision). */
tn_status tn__goal_bounds_check(const tn_goal_bounds *gb, const tn_map *map, const tn__grid *g,
                                const tn_moves *moves);

/* The 8 boxes of cell i. */
TN_INLINE const int16_t *tn__goal_boxes(const tn_goal_bounds *gb, int32_t i)
{
    return gb->box + (size_t)i * 32;
}

TN_INLINE const int16_t *tn__goal_box(const tn_goal_bounds *gb, int32_t i, uint32_t dir)
{
    return tn__goal_boxes(gb, i) + 4 * dir;
}

/* May a shortest path to (gx, gy) start with move `dir`, by the boxes `b` of its cell? */
TN_INLINE bool tn__goal_allows(const int16_t *b, uint32_t dir, int32_t gx, int32_t gy)
{
    const int16_t *r = b + 4 * dir;
    return gx >= r[0] && gy >= r[1] && gx <= r[2] && gy <= r[3];
}

#endif
