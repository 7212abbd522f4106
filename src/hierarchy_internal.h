/* Internal layout of a hierarchy (hierarchy.h), shared by src/hierarchy.c, which builds,
 * updates and searches it, and src/sector_field.c, which reads its abstract graph to build
 * flow fields sector by sector. Not installed. */
#ifndef TILENAV_HIERARCHY_INTERNAL_H
#define TILENAV_HIERARCHY_INTERNAL_H

#include "internal.h"
#include "tilenav/hierarchy.h"

#include <stdbool.h>
#include <stdint.h>

#define TN_HPA_MAX_LANDMARKS 16

/* Border sides of a sector, indices into sector.side. */
enum { SIDE_TOP = 0, SIDE_BOTTOM = 1, SIDE_LEFT = 2, SIDE_RIGHT = 3 };

/* One sector: its transition cells (ascending cell index), the cost matrix between them
 * (row = from, INFINITY when the sector does not join them) and, per border side, the local
 * node index of each border cell (-1: not a node). */
typedef struct sector {
    int32_t n, cap;
    int32_t *cell; /* cap */
    float *dist;   /* cap * cap, n * n used */
    int16_t *side; /* 4 * S: side k's cells at side + k * S */
    /* the intra-sector edges the abstract search follows: node i's are adj_*[off[i] ..
     * off[i + 1]), the finite costs of row i minus those another node of the sector
     * already gives (dist[i][k] + dist[k][j] <= dist[i][j]): the same distances, fewer edges */
    int32_t *off;    /* cap + 1 */
    uint16_t *adj_j; /* cap * cap */
    float *adj_c;    /* cap * cap */
    int32_t *lab;    /* cap: each node's label in the components' union-find (hierarchy.c) */
} sector;

struct tn_hierarchy {
    tn_allocator alloc;
    const tn_map *map;
    tn_moves moves;
    int32_t S, gap;
    int32_t w, h, sx, sy, nsec;
    uint64_t revision;
    uint64_t passable_hash, cost_hash; /* the map's at `revision` (tn__map_changes_since) */
    bool valid;
    bool uniform; /* the map's costs were uniform at the last build: matrices by canon() */
    sector *sec;
    int32_t *base;  /* nsec + 1: global id of each sector's first node */
    int32_t *visit; /* nsec: an update's list of the sectors it rebuilt */
    int64_t edges;  /* intra-sector edges the abstract search follows, in all */
    /* landmarks: K of them, lm[v * K + k] the cost from landmark k to node v; valid for the
     * node numbering they were computed on (an update that rebuilds a sector clears it) */
    int32_t K, lm_nodes;
    float *lm;
    bool lm_valid;
    /* components (hierarchy.c, "components"): a union-find forest over lcap labels, parent
     * and size; nlab used; lab_ok false when they could not be allocated (queries then skip
     * the test) */
    int32_t *lpar, *lsz;
    int32_t nlab, lcap;
    bool lab_ok, lab_exact; /* exact: one root per connected part (no update since) */
    int64_t rebuilt;
    int64_t recomputed; /* sectors whose matrices updates recomputed, changed or not (tests) */
    /* build scratch: one sector's Dijkstra */
    double *sd;
    int32_t *heap, *hpos;
    int32_t *tmp;  /* 4 * S candidate cells, then S * S (touch_bounds) */
    uint8_t *want; /* S * S flags: the cells a matrix row still needs */
    uint32_t *ab;  /* S * S: straight and diagonal steps of a cell's cost (uniform maps) */
    int32_t *bq;   /* 3 * S * S: the bucket queue of the uniform maps' Dijkstra */
    uint8_t *mv;   /* S * S: the legal moves out of each cell of the sector (uniform maps) */
    /* per-sector scratch, grown to the largest sector seen (scap nodes): the old nodes
     * and matrix of a sector being updated, the pairs to compute, the pruning's rows */
    int32_t scap;
    int32_t *ocell, *omap, *deg;
    float *odist;
    uint8_t *need;
    double *dd, *mn, *lbr, *lbf;
};

/* ---- sector geometry ----------------------------------------------------------------- */

static inline tn_rect sector_rect(const tn_hierarchy *h, int32_t s)
{
    int32_t x0 = (s % h->sx) * h->S, y0 = (s / h->sx) * h->S;
    int32_t x1 = x0 + h->S < h->w ? x0 + h->S : h->w;
    int32_t y1 = y0 + h->S < h->h ? y0 + h->S : h->h;
    return (tn_rect){x0, y0, x1, y1};
}

static inline int32_t sector_at(const tn_hierarchy *h, int32_t x, int32_t y)
{
    return (y / h->S) * h->sx + x / h->S;
}

/* The node facing cell (x, y) of sector s (whose top-left cell is (x0, y0)) across its border
 * k (0 left, 1 right, 2 top, 3 bottom): its index in sector *o, or -1 when the cell is not on
 * that border, the border is the map's edge, or the facing cell is no node. These side steps
 * are the inter-sector edges: hierarchy.c's search, labels and stats and sector_field.c's
 * costs read them here. */
static inline int32_t tn__hpa_facing(const tn_hierarchy *h, int32_t s, int32_t x0, int32_t y0,
                                     int32_t x, int32_t y, int k, int32_t *o)
{
    const int32_t S = h->S;
    switch (k) {
    case 0:
        if (x != x0 || x == 0)
            return -1;
        *o = s - 1;
        return h->sec[*o].side[SIDE_RIGHT * S + y - y0];
    case 1:
        if (x != x0 + S - 1 || x + 1 >= h->w)
            return -1;
        *o = s + 1;
        return h->sec[*o].side[SIDE_LEFT * S + y - y0];
    case 2:
        if (y != y0 || y == 0)
            return -1;
        *o = s - h->sx;
        return h->sec[*o].side[SIDE_BOTTOM * S + x - x0];
    default:
        if (y != y0 + S - 1 || y + 1 >= h->h)
            return -1;
        *o = s + h->sx;
        return h->sec[*o].side[SIDE_TOP * S + x - x0];
    }
}

/* Sectors whose matrices updates have recomputed so far, changed or not (for tests). */
int64_t tn__hierarchy_recomputed(const tn_hierarchy *h);

#endif
