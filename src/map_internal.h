/* Private facts about a map that other parts of the library key their caches on. */
#ifndef TILENAV_MAP_INTERNAL_H
#define TILENAV_MAP_INTERNAL_H

#include "tilenav/map.h"

/* Entries of a map's change log (its last edits, tn_map_changed_region). */
#define TN_CHANGE_LOG 64
/* Slots of the ring: the changes, and the one before them (whose hashes vouch for a cache). */
#define TN_CHANGE_RING (TN_CHANGE_LOG + 1)

/* A 64-bit hash of which cells are passable: the XOR of a fixed 64-bit mix of the index of
 * every blocked cell (0 for a new map, where every cell is passable), kept up to date on every
 * edit (O(1) per changed cell). Two maps with
 * the same passability have the same hash; any difference changes it except with probability
 * about 2^-64 per comparison. */
uint64_t tn__map_passable_hash(const tn_map *map);

/* What a search reads of a map, fetched in one call at the start of a query (the public
 * accessors cost a call and a NULL test each). Valid until the next edit of the map. */
typedef struct tn__grid {
    int32_t w, h;
    int32_t tw, th;      /* pixels per cell */
    const uint8_t *pass; /* 1/0 per cell, row-major */
    const float *cost;   /* per cell, row-major */
    uint64_t revision;
    uint64_t passable_hash;
    /* a hash of the costs of the passable cells whose cost is not 1 (0 on maps of uniform
     * cost), kept up to date on every edit like the passability hash */
    uint64_t cost_hash;
    float min_cost; /* tn_map_min_cost() */
    bool uniform;   /* tn_map_uniform_cost() */
} tn__grid;

/* The rectangles changed since `revision` (at most TN_CHANGE_LOG, in `out`; empty ones left
 * out), for a cache built at that revision from cells whose hashes were `passable_hash` and
 * `cost_hash`. -1 when the log cannot tell: revision 0 (no map is at it: tn_map_create() logs
 * the map as made, revision 1, and loaders write cells before a logged change of their own), a
 * revision the log no longer reaches, or hashes that differ from the map's at that revision (a
 * cache built from another map, at the same address). */
int32_t tn__map_changes_since(const tn_map *map, uint64_t revision, uint64_t passable_hash,
                              uint64_t cost_hash, tn_rect out[TN_CHANGE_LOG]);

/* The rectangles changed since `revision`, as tn_map_changed_region() finds them, each grown
 * by `lo` cells left and up and `hi` cells right and down, clipped to the map, and merged
 * (into their bounding box) wherever two overlap or touch, until none do: at most
 * TN_CHANGE_LOG, in `out`, in no particular order. Cells of different rectangles are never
 * neighbours. -1 when the log does not reach back to `revision` (tn_map_changed_region() is
 * false); 0 when nothing changed. */
int32_t tn__map_changed_rects(const tn_map *map, uint64_t revision, int32_t lo, int32_t hi,
                              tn_rect out[TN_CHANGE_LOG]);

/* Fill `g` from a map (not NULL). */
void tn__map_grid(const tn_map *map, tn__grid *g);

static inline bool tn__grid_contains(const tn__grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->w && y < g->h;
}

static inline bool tn__grid_passable(const tn__grid *g, int32_t x, int32_t y)
{
    return tn__grid_contains(g, x, y) && g->pass[y * g->w + x];
}

/* Unit-size views (clearance.c): a map with the size and tiles of `src`, no layers, every
 * cell passable at cost 1, that layer and terrain edits refuse (TN_E_STATE); its owner writes
 * cells with tn__map_view_put (true when the cell changed; a blocked cell's cost is ignored)
 * and then logs the rectangle of what changed with tn__map_view_commit. */
tn_status tn__map_create_view(const tn_map *src, tn_map **out);
bool tn__map_view_put(tn_map *m, size_t i, uint8_t passable, float cost);
void tn__map_view_commit(tn_map *m, tn_rect changed, float min_cost);
/* The view now describes its source map's current revision (its clearance was updated). */
void tn__map_view_synced(tn_map *m);
/* True for a view whose source map was edited since (its clearance is behind): what reads
 * the view then answers TN_E_MAP_CHANGED, as for an edit of the map itself. */
bool tn__map_view_behind(const tn_map *m);

#endif
