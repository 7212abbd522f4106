/* Private state of the broad phases (src/broadphase.c: handles, brute force, sort and sweep;
 * src/broadphase_grid.c: dense, hashed and hierarchical grids). */
#ifndef TILENAV_BROADPHASE_INTERNAL_H
#define TILENAV_BROADPHASE_INTERNAL_H

#include "internal.h"
#include "tilenav/broadphase.h"

#define TN_BP_SLOT_BITS 22
#define TN_BP_SLOT_MASK ((1u << TN_BP_SLOT_BITS) - 1u)
#define TN_BP_GEN_MASK ((1u << (32 - TN_BP_SLOT_BITS)) - 1u)

/* Where a grid object is filed. */
enum { TN_BP_IN_NONE = 0, TN_BP_IN_MAIN = 1, TN_BP_IN_LOOSE = 2, TN_BP_IN_BIG = 3 };

/* Level of an object too large for every grid level. */
#define TN_BP_BIG (-1)

/* What a sorted entry carries besides its box. */
typedef struct tn__bp_meta {
    uint32_t id, user;
    int32_t slot;
    uint32_t key; /* grids: cell key */
} tn__bp_meta;

struct tn_bp {
    tn_allocator alloc;
    tn_bp_kind kind;
    int32_t cap;
    int32_t count;
    bool dirty; /* inserted, moved or removed since the last update */
    tn_bp_stats stats;

    /* per slot */
    tn_box *box;
    uint32_t *user;
    uint32_t *gen;      /* generation, TN_BP_GEN_MASK wide */
    uint8_t *alive;     /* 1 while the slot holds an object */
    int32_t *next_free; /* free list */
    int32_t free_head;
    int32_t high;      /* slots [0, high) have been used */
    int32_t *live;     /* dense list of live slots */
    int32_t *live_pos; /* index of the slot in `live` */

    /* sorted copies (grid: by cell key; SAP: by x0), m entries */
    int32_t m;
    tn_box *sbox;       /* hot: scanned by the pair loops */
    tn__bp_meta *smeta; /* cold: read when a pair is reported */
    int32_t *pos;       /* per slot: index in the sorted arrays, or -1 */

    /* grids */
    int32_t levels;
    double cell[TN_BP_MAX_LEVELS];
    double inv_cell0;
    double ox, oy;                       /* dense: world origin */
    int32_t clo[2], chi[2];              /* level-0 cell clamp per axis */
    int32_t cols[TN_BP_MAX_LEVELS];      /* dense: real columns per level (>= 2) */
    int32_t rows[TN_BP_MAX_LEVELS];      /* dense: real rows per level */
    int32_t colsp[TN_BP_MAX_LEVELS];     /* dense: cols + 1 (one empty pad column) */
    uint32_t base[TN_BP_MAX_LEVELS + 1]; /* dense: first key of each level's block */
    uint32_t nkeys;                      /* dense: keys; hash: buckets */
    uint32_t hash_mask;                  /* hash: buckets - 1 */
    uint32_t *cell_start;                /* nkeys + 1 */
    int32_t *scx, *scy;                  /* hash sorted: level-0 cell of the entry */
    int8_t *slev;                        /* hash sorted: level */
    int32_t *cx0, *cy0;                  /* per slot: level-0 cell (clamped) */
    int8_t *lev;                         /* per slot: level or TN_BP_BIG */
    uint32_t *key;                       /* per slot: key (grids) */
    int32_t *loose, *loose_pos, nloose;  /* slots not in the sorted arrays (not big) */
    int32_t *big, *big_pos, nbig;        /* slots too large for every level */
    int32_t ndead;                       /* dead entries in the sorted arrays */
    uint8_t *where;                      /* per slot: TN_BP_IN_* */
    uint8_t *mflag;                      /* per slot: on the moved list */
    int32_t *moved, nmoved;              /* inserted or moved since the last update */
    bool many_changes;                   /* the last counted update found many cell changes */

    /* SAP */
    double rebuild_fraction;
    double max_w;   /* widest box at the last update */
    int32_t *order; /* SAP: slots by x0 (m entries after update, then new ones appended) */
    int32_t *tmp;   /* SAP: merge-sort scratch */
    double *tkey;   /* SAP: keys for sorting */
    double *tkey2;  /* SAP: merge-sort scratch */
    int32_t norder; /* SAP: entries in order (live or dead) */
};

static inline uint32_t tn__bp_make_id(const tn_bp *bp, int32_t slot)
{
    return (bp->gen[slot] << TN_BP_SLOT_BITS) | ((uint32_t)slot + 1u);
}

/* Put object `s` at sorted position `p`: its box, id, user value and slot (not the key). */
static inline void tn__bp_place(tn_bp *bp, int32_t p, int32_t s)
{
    bp->sbox[p] = bp->box[s];
    bp->smeta[p].id = tn__bp_make_id(bp, s);
    bp->smeta[p].user = bp->user[s];
    bp->smeta[p].slot = s;
}

static inline bool tn__box_overlap(double ax0, double ay0, double ax1, double ay1, double bx0,
                                   double by0, double bx1, double by1)
{
    return bx0 <= ax1 && ax0 <= bx1 && by0 <= ay1 && ay0 <= by1;
}

/* Grid hooks (broadphase_grid.c). */
tn_status tn__grid_init(tn_bp *bp, const tn_bp_def *def);
size_t tn__grid_bytes(const tn_bp *bp);
void tn__grid_free(tn_bp *bp);
void tn__grid_insert(tn_bp *bp, int32_t slot);
void tn__grid_move(tn_bp *bp, int32_t slot);
void tn__grid_remove(tn_bp *bp, int32_t slot);
void tn__grid_clear(tn_bp *bp);
void tn__grid_update(tn_bp *bp, bool force);
tn_status tn__grid_pairs(const tn_bp *bp, tn_bp_pair_fn fn, void *ctx);
tn_status tn__grid_query(const tn_bp *bp, tn_box box, tn_bp_query_fn fn, void *ctx);

#endif
