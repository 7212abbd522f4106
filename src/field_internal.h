/* Private parts of the field (field.c, field_los.c): the struct, per-cell flag bits and the
 * line-of-sight entry points. Never installed. */
#ifndef TILENAV_FIELD_INTERNAL_H
#define TILENAV_FIELD_INTERNAL_H

#include "grid.h"
#include "internal.h"
#include "tilenav/field.h"

/* Per-cell byte: bits 0-2 direction, then flags. */
#define TN_F_DIR_MASK 0x07u
#define TN_F_HAS_DIR 0x08u
#define TN_F_LOS 0x10u
#define TN_F_GOAL 0x20u
#define TN_F_MARK 0x40u /* scratch mark used by tn_field_update */

/* One element of the line-of-sight sweep's blocked-slope set: an interval of slopes
 * [ln/ld, hn/hd] whose ends are open or closed; denominators are positive. */
typedef struct tn_los_iv {
    int64_t ln, ld, hn, hd;
    uint8_t lc, hc; /* 1 when the end is closed (included) */
} tn_los_iv;

/* Scratch of one line-of-sight sweep: the blocked-slope set (current, next, column additions),
 * the blocked flags of two columns, and the change it made to the count of cells that see. */
typedef struct tn_los_scratch {
    tn_los_iv *ivs[3];
    size_t ivs_cap[3];
    uint8_t *colb;
    size_t colb_cap;
    int32_t delta;
} tn_los_scratch;

/* One bucket of the weighted sweep: packed (y << 16 | x) cells. */
typedef struct tn_bucket {
    uint32_t *e;
    size_t n, cap;
} tn_bucket;

struct tn_field {
    tn_allocator alloc;
    const tn_map *map;
    tn_moves moves;
    tn_flow_rule flow;
    tn_los_mode los;
    const float *extra;
    int32_t w, h;
    size_t n;

    float *dist;   /* W*H, INFINITY = unreachable/blocked */
    uint8_t *bits; /* W*H direction and flags */
    int32_t *qa;   /* W*H scratch: FIFO / bucket next / heap */
    int32_t *qb;   /* W*H scratch: bucket prev / heap position / stamps */

    tn_bucket *bk; /* ring of buckets for the weighted sweep */
    size_t bk_cap;
    int32_t *touched; /* cells recomputed by an update */
    size_t touched_cap;
    tn_cell *goals;
    size_t goals_cap;
    int32_t ngoals;

    tn_los_scratch lsc[8]; /* line-of-sight scratch: one per octant when run in parallel */
    void (*parallel_for)(tn_task task, void *ctx, int32_t count, void *user);
    void *parallel_user;

    /* per-build cache */
    const uint8_t *pass;
    const float *cost;
    float bs, bd; /* base costs of straight and diagonal steps */
    bool uniform; /* every passable cell costs 1 and there is no extra layer */

    uint64_t revision;
    uint32_t stamp;
    int32_t reachable;
    int32_t los_count;
    bool ready;
};

/* Exact line of sight for the whole field (clears and recomputes every LOS bit). */
tn_status tn__field_los_full(tn_field *f);
/* Recompute line of sight for the cells whose segment to the goal touches `r` (clipped). */
tn_status tn__field_los_region(tn_field *f, tn_rect r);
/* Corner rule used for line of sight: NEVER behaves as NO_CUT. */
static inline tn_diagonal tn__los_corner(tn_diagonal d)
{
    return d == TN_DIAGONAL_NEVER ? TN_DIAGONAL_NO_CUT : d;
}

#endif
