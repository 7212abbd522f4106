/* The tile map: layers of gids, the terrain table and the derived per-cell passability/cost,
 * objects, tilesets and the change log. */
#include "tilenav/map.h"

#include "internal.h"
#include "map_internal.h"

#include <math.h>
#include <string.h>

typedef struct tn_layer {
    char name[TN_MAX_NAME];
    tn_layer_kind kind;
    uint32_t flags;
    uint32_t *gids; /* W*H for tile layers, NULL for object layers */
} tn_layer;

typedef struct tn_terrain_slot {
    float cost;
    uint8_t passable;
    uint8_t set;
} tn_terrain_slot;

/* A terrain entry of a tile id at or above TN_TERRAIN_DENSE (kept sorted by id). */
typedef struct tn_terrain_far {
    uint32_t id;
    tn_terrain_slot slot;
} tn_terrain_far;

/* Tile ids below this index the terrain table directly (at most 512 KiB); the few above it
 * (the loader's TN_COLLISION_GID, a game's own high ids) sit in a short sorted list, so that
 * one high id does not cost a table of TN_MAX_TERRAIN_GID slots (32 MiB). */
#define TN_TERRAIN_DENSE 65536u

typedef struct tn_change {
    uint64_t revision;
    tn_rect rect;
    /* the map's hashes once this change was made (the state at `revision`), so that a cache
     * built at that revision can check that it was built from this map's cells
     * (tn__map_changes_since) */
    uint64_t passable_hash, cost_hash;
} tn_change;

struct tn_map {
    tn_allocator alloc;
    int32_t w, h, tw, th;
    size_t cells;

    tn_layer *layers;
    size_t layer_cap;
    int32_t layer_count;
    int32_t *terrain_layers; /* indices of tile layers flagged TN_LAYER_TERRAIN */
    int32_t terrain_layer_count;

    tn_terrain_slot *terrain; /* indexed by tile id, ids below TN_TERRAIN_DENSE */
    size_t terrain_cap;
    tn_terrain_far *terrain_far; /* ids from TN_TERRAIN_DENSE on, sorted */
    size_t terrain_far_cap;
    size_t terrain_far_count;
    float min_terrain_cost; /* smallest cost among passable terrain entries, and 1 */

    uint8_t *passable;
    float *cost;
    int32_t passable_count;
    int32_t nonunit_count;  /* passable cells whose cost is not exactly 1 */
    uint64_t passable_hash; /* tn__map_passable_hash() */
    uint64_t cost_hash;     /* tn__grid::cost_hash */

    uint64_t revision;
    /* the last TN_CHANGE_LOG changes, and the one before them, whose hashes vouch for a cache
     * built at its revision (tn__map_changes_since lists 64 changes since such a cache) */
    tn_change log[TN_CHANGE_RING];
    uint32_t log_count; /* entries in the ring, at most TN_CHANGE_RING */

    tn_map_object *objects;
    size_t object_cap;
    int32_t object_count;
    tn_tileset *tilesets;
    size_t tileset_cap;
    int32_t tileset_count;

    bool view; /* a unit size's view of another map (tn__map_create_view): no layers, no edits */
    const tn_map *view_src;     /* for a view: the map it derives from */
    uint64_t view_src_revision; /* for a view: the source's revision its cells describe */
};

tn_map_def tn_map_def_default(void)
{
    tn_map_def d;
    memset(&d, 0, sizeof d);
    d.width = 1;
    d.height = 1;
    d.tile_width = 32;
    d.tile_height = 32;
    d.internal_cookie = TN_COOKIE_MAP;
    return d;
}

static tn_status map_alloc_grids(tn_map *m)
{
    m->passable = tn__alloc(&m->alloc, m->cells);
    m->cost = tn__alloc(&m->alloc, m->cells * sizeof(float));
    if (!m->passable || !m->cost)
        return TN_E_NOMEM;
    memset(m->passable, 1, m->cells);
    for (size_t i = 0; i < m->cells; i++)
        m->cost[i] = 1.0f;
    m->passable_count = (int32_t)m->cells;
    m->nonunit_count = 0;
    m->min_terrain_cost = 1.0f;
    return TN_OK;
}

static void map_log_change(tn_map *m, tn_rect r);

tn_status tn_map_create(const tn_map_def *def, tn_map **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_MAP)
        return TN_E_INVALID_ARG;
    if (def->width < 1 || def->height < 1 || def->tile_width < 1 || def->tile_height < 1)
        return TN_E_INVALID_ARG;
    if (def->width > TN_MAX_DIM || def->height > TN_MAX_DIM ||
        (int64_t)def->width * def->height > TN_MAX_CELLS)
        return TN_E_TOO_LARGE;
    if ((def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    tn_map *m = tn__calloc(&def->allocator, sizeof *m);
    if (!m)
        return TN_E_NOMEM;
    m->alloc = def->allocator;
    m->w = def->width;
    m->h = def->height;
    m->tw = def->tile_width;
    m->th = def->tile_height;
    m->cells = (size_t)m->w * (size_t)m->h;
    tn_status st = map_alloc_grids(m);
    if (st != TN_OK) {
        tn_map_destroy(m);
        return st;
    }
    /* the map as made is revision 1, in the log with its hashes, so that caches built before
     * the first edit follow the edits from the log (at revision 0 the log vouches for none) */
    map_log_change(m, (tn_rect){0, 0, 0, 0});
    *out = m;
    return TN_OK;
}

void tn_map_destroy(tn_map *m)
{
    if (!m)
        return;
    tn_allocator a = m->alloc;
    for (int32_t i = 0; i < m->layer_count; i++)
        tn__free(&a, m->layers[i].gids, m->cells * sizeof(uint32_t));
    tn__free(&a, m->layers, m->layer_cap * sizeof(tn_layer));
    tn__free(&a, m->terrain_layers, m->layer_cap * sizeof(int32_t));
    tn__free(&a, m->terrain, m->terrain_cap * sizeof(tn_terrain_slot));
    tn__free(&a, m->terrain_far, m->terrain_far_cap * sizeof(tn_terrain_far));
    tn__free(&a, m->passable, m->cells);
    tn__free(&a, m->cost, m->cells * sizeof(float));
    tn__free(&a, m->objects, m->object_cap * sizeof(tn_map_object));
    tn__free(&a, m->tilesets, m->tileset_cap * sizeof(tn_tileset));
    tn__free(&a, m, sizeof *m);
}

int32_t tn_map_width(const tn_map *m)
{
    return m ? m->w : 0;
}

int32_t tn_map_height(const tn_map *m)
{
    return m ? m->h : 0;
}

int32_t tn_map_tile_width(const tn_map *m)
{
    return m ? m->tw : 0;
}

int32_t tn_map_tile_height(const tn_map *m)
{
    return m ? m->th : 0;
}

size_t tn_map_memory_bytes(const tn_map *m)
{
    if (!m)
        return 0;
    size_t tile_layers = 0;
    for (int32_t i = 0; i < m->layer_count; i++)
        tile_layers += m->layers[i].gids ? 1 : 0;
    return sizeof *m + m->layer_cap * (sizeof(tn_layer) + sizeof(int32_t)) +
           tile_layers * m->cells * sizeof(uint32_t) + m->cells * (1 + sizeof(float)) +
           m->terrain_cap * sizeof(tn_terrain_slot) + m->terrain_far_cap * sizeof(tn_terrain_far) +
           m->object_cap * sizeof(tn_map_object) + m->tileset_cap * sizeof(tn_tileset);
}

/* ---- change log ---------------------------------------------------------------------- */

static void map_log_change(tn_map *m, tn_rect r)
{
    m->revision++;
    m->log[m->revision % TN_CHANGE_RING] =
        (tn_change){m->revision, r, m->passable_hash, m->cost_hash};
    if (m->log_count < TN_CHANGE_RING)
        m->log_count++;
}

static tn_rect map_full_rect(const tn_map *m)
{
    return (tn_rect){0, 0, m->w, m->h};
}

uint64_t tn_map_revision(const tn_map *m)
{
    return m ? m->revision : 0;
}

/* Do a and b overlap or touch (share an edge or a corner)? */
static bool rects_meet(tn_rect a, tn_rect b)
{
    return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

/* The bounding box of a and b. */
static tn_rect rect_box(tn_rect a, tn_rect b)
{
    return (tn_rect){a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0,
                     a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1};
}

int32_t tn__map_changed_rects(const tn_map *m, uint64_t revision, int32_t lo, int32_t hi,
                              tn_rect out[TN_CHANGE_LOG])
{
    if (revision > m->revision || m->revision - revision > m->log_count ||
        m->revision - revision > TN_CHANGE_LOG)
        return -1;
    int32_t n = 0;
    for (uint64_t r = revision + 1; r <= m->revision; r++) {
        tn_rect c = m->log[r % TN_CHANGE_RING].rect;
        if (c.x1 <= c.x0 || c.y1 <= c.y0)
            continue;
        c.x0 = c.x0 - lo > 0 ? c.x0 - lo : 0;
        c.y0 = c.y0 - lo > 0 ? c.y0 - lo : 0;
        c.x1 = c.x1 + hi < m->w ? c.x1 + hi : m->w;
        c.y1 = c.y1 + hi < m->h ? c.y1 + hi : m->h;
        /* merge c with every rectangle it meets; the box may then meet others: again */
        for (int32_t k = 0; k < n;) {
            if (!rects_meet(out[k], c)) {
                k++;
                continue;
            }
            c = rect_box(c, out[k]);
            out[k] = out[--n];
            k = 0;
        }
        out[n++] = c;
    }
    return n;
}

bool tn_map_changed_region(const tn_map *m, uint64_t revision, tn_rect *out)
{
    if (!m || !out)
        return false;
    tn_rect rects[TN_CHANGE_LOG];
    int32_t n = tn__map_changed_rects(m, revision, 0, 0, rects);
    if (n < 0) {
        *out = map_full_rect(m);
        return false;
    }
    tn_rect u = {0, 0, 0, 0};
    for (int32_t k = 0; k < n; k++)
        u = k ? rect_box(u, rects[k]) : rects[k];
    *out = u;
    return true;
}

int32_t tn__map_changes_since(const tn_map *m, uint64_t revision, uint64_t passable_hash,
                              uint64_t cost_hash, tn_rect out[TN_CHANGE_LOG])
{
    if (revision == 0 || revision > m->revision || m->revision - revision > TN_CHANGE_LOG)
        return -1;
    const tn_change *base = &m->log[revision % TN_CHANGE_RING];
    if (base->revision != revision || base->passable_hash != passable_hash ||
        base->cost_hash != cost_hash)
        return -1;
    int32_t n = 0;
    for (uint64_t r = revision + 1; r <= m->revision; r++) {
        tn_rect c = m->log[r % TN_CHANGE_RING].rect;
        if (c.x1 > c.x0 && c.y1 > c.y0)
            out[n++] = c;
    }
    return n;
}

/* ---- terrain ------------------------------------------------------------------------- */

/* Index of the first far entry whose id is not below `id`. */
static size_t terrain_far_lower(const tn_map *m, uint32_t id)
{
    size_t lo = 0, hi = m->terrain_far_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->terrain_far[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The entry of tile id `id`, or NULL when it has none. */
static const tn_terrain_slot *terrain_slot(const tn_map *m, uint32_t id)
{
    if (id < TN_TERRAIN_DENSE)
        return id != 0 && id < m->terrain_cap && m->terrain[id].set ? &m->terrain[id] : NULL;
    size_t k = terrain_far_lower(m, id);
    return k < m->terrain_far_count && m->terrain_far[k].id == id && m->terrain_far[k].slot.set
               ? &m->terrain_far[k].slot
               : NULL;
}

/* Every set entry, for scans over the table: the dense part, then the far list. The entry
 * number `k` runs over terrain_entries(m); *id receives its tile id. */
static size_t terrain_entries(const tn_map *m)
{
    return m->terrain_cap + m->terrain_far_count;
}

static const tn_terrain_slot *terrain_entry(const tn_map *m, size_t k, uint32_t *id)
{
    if (k < m->terrain_cap) {
        *id = (uint32_t)k;
        return m->terrain[k].set ? &m->terrain[k] : NULL;
    }
    const tn_terrain_far *f = &m->terrain_far[k - m->terrain_cap];
    *id = f->id;
    return f->slot.set ? &f->slot : NULL;
}

static void cell_terrain(const tn_map *m, size_t i, uint8_t *passable, float *cost)
{
    float c = 1.0f;
    bool have = false;
    for (int32_t k = 0; k < m->terrain_layer_count; k++) {
        uint32_t id = tn_gid_id(m->layers[m->terrain_layers[k]].gids[i]);
        const tn_terrain_slot *t = terrain_slot(m, id);
        if (!t)
            continue;
        if (!t->passable) {
            *passable = 0;
            *cost = INFINITY;
            return;
        }
        if (!have || t->cost > c)
            c = t->cost;
        have = true;
    }
    *passable = 1;
    *cost = c;
}

/* The mix of cell index i in the passability hash (splitmix64's finaliser). 64-bit on every
 * target: with a 32-bit size_t the cost hash below lost the cost's bits and two cost layouts
 * collided, so a search context reused a stale weighted-JPS cache for a new map allocated where
 * an old one was freed (the WebAssembly build). */
static inline uint64_t cell_hash(uint64_t i)
{
    uint64_t z = i + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Add or remove passable cell i of cost c != 1 in the cost hash (out of line: most maps have
 * few such cells, and the cell loop below stays as it was without it). */
static TN_NOINLINE TN_COLD void cost_hash_toggle(tn_map *m, size_t i, float c)
{
    uint32_t b;
    memcpy(&b, &c, sizeof b);
    /* i < 2^28 and the cost's 32 bits above it: one value per (cell, cost) */
    m->cost_hash ^= cell_hash((uint64_t)i | (uint64_t)b << 28);
}

/* Store cell i's passability and cost (cost INFINITY when blocked), keeping the counts and
 * the two hashes. */
static inline void cell_put(tn_map *m, size_t i, uint8_t p, float c)
{
    if (m->passable[i] != p)
        m->passable_hash ^= cell_hash(i);
    if (m->passable[i]) {
        m->passable_count--;
        if (m->cost[i] != 1.0f) {
            m->nonunit_count--;
            cost_hash_toggle(m, i, m->cost[i]);
        }
    }
    m->passable[i] = p;
    m->cost[i] = c;
    if (p) {
        m->passable_count++;
        if (c != 1.0f) {
            m->nonunit_count++;
            cost_hash_toggle(m, i, c);
        }
    }
}

/* Recompute passability and cost of the cells of `r` (already clipped), keeping counts.
 * True when a cell's passability or cost changed. */
static bool map_update_rect(tn_map *m, tn_rect r)
{
    bool changed = false;
    for (int32_t y = r.y0; y < r.y1; y++) {
        for (int32_t x = r.x0; x < r.x1; x++) {
            size_t i = (size_t)y * (size_t)m->w + (size_t)x;
            uint8_t p;
            float c;
            cell_terrain(m, i, &p, &c);
            changed |= m->passable[i] != p || m->cost[i] != c;
            cell_put(m, i, p, c);
        }
    }
    return changed;
}

static void map_update_all(tn_map *m)
{
    float mn = 1.0f;
    for (size_t k = 0; k < terrain_entries(m); k++) {
        uint32_t id;
        const tn_terrain_slot *t = terrain_entry(m, k, &id);
        if (t && t->passable && t->cost < mn)
            mn = t->cost;
    }
    /* a terrain no cell holds changes no cell: no new revision (fields, regions and caches
     * stay current), unless it moves the least cost the heuristics scale by */
    bool changed = mn != m->min_terrain_cost;
    m->min_terrain_cost = mn;
    if (map_update_rect(m, map_full_rect(m)) || changed)
        map_log_change(m, map_full_rect(m));
}

static void map_rebuild_terrain_layers(tn_map *m)
{
    m->terrain_layer_count = 0;
    for (int32_t i = 0; i < m->layer_count; i++)
        if (m->layers[i].kind == TN_LAYER_TILES && (m->layers[i].flags & TN_LAYER_TERRAIN))
            m->terrain_layers[m->terrain_layer_count++] = i;
}

/* Store one terrain entry; *changed tells whether the table changed. No cell update. */
static tn_status terrain_put(tn_map *m, uint32_t gid, tn_terrain t, bool *changed)
{
    uint32_t id = tn_gid_id(gid);
    if (id == 0 || !(t.cost > 0.0f && t.cost <= TN_MAX_COST))
        return TN_E_INVALID_ARG;
    if (id >= TN_MAX_TERRAIN_GID)
        return TN_E_TOO_LARGE;
    /* the entry's slot: the dense table's, grown to hold id, or the far list's, inserted
     * unset where it belongs */
    tn_terrain_slot *cur;
    if (id >= TN_TERRAIN_DENSE) {
        size_t k = terrain_far_lower(m, id);
        if (k == m->terrain_far_count || m->terrain_far[k].id != id) {
            void *p = m->terrain_far;
            tn_status st = tn__grow(&m->alloc, &p, sizeof(tn_terrain_far), &m->terrain_far_cap,
                                    m->terrain_far_count + 1);
            if (st != TN_OK)
                return st;
            m->terrain_far = p;
            memmove(&m->terrain_far[k + 1], &m->terrain_far[k],
                    (m->terrain_far_count - k) * sizeof(tn_terrain_far));
            m->terrain_far[k] = (tn_terrain_far){id, {0.0f, 0, 0}};
            m->terrain_far_count++;
        }
        cur = &m->terrain_far[k].slot;
    } else {
        if (id >= m->terrain_cap) {
            size_t old = m->terrain_cap;
            void *p = m->terrain;
            tn_status st =
                tn__grow(&m->alloc, &p, sizeof(tn_terrain_slot), &m->terrain_cap, (size_t)id + 1);
            if (st != TN_OK)
                return st;
            m->terrain = p;
            memset(m->terrain + old, 0, (m->terrain_cap - old) * sizeof(tn_terrain_slot));
        }
        cur = &m->terrain[id];
    }
    tn_terrain_slot s = {t.cost, (uint8_t)(t.passable ? 1 : 0), 1};
    if (cur->set == s.set && cur->passable == s.passable && cur->cost == s.cost)
        return TN_OK;
    *cur = s;
    *changed = true;
    return TN_OK;
}

tn_status tn_map_set_terrain(tn_map *m, uint32_t gid, tn_terrain t)
{
    if (!m)
        return TN_E_INVALID_ARG;
    if (m->view)
        return TN_E_STATE;
    bool changed = false;
    tn_status st = terrain_put(m, gid, t, &changed);
    if (st == TN_OK && changed)
        map_update_all(m);
    return st;
}

tn_status tn_map_set_terrain_many(tn_map *m, const uint32_t *gids, const tn_terrain *t,
                                  int32_t count)
{
    if (!m || count < 0 || (count && (!gids || !t)))
        return TN_E_INVALID_ARG;
    if (m->view)
        return TN_E_STATE;
    for (int32_t i = 0; i < count; i++) {
        uint32_t id = tn_gid_id(gids[i]);
        if (id == 0 || !(t[i].cost > 0.0f && t[i].cost <= TN_MAX_COST))
            return TN_E_INVALID_ARG;
        if (id >= TN_MAX_TERRAIN_GID)
            return TN_E_TOO_LARGE;
    }
    bool changed = false;
    tn_status st = TN_OK;
    for (int32_t i = 0; i < count && st == TN_OK; i++)
        st = terrain_put(m, gids[i], t[i], &changed);
    if (changed)
        map_update_all(m);
    return st;
}

tn_status tn_map_set_obstacles(tn_map *m, const uint32_t *gids, int32_t count)
{
    if (!m || count < 0 || (!gids && count))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < count; i++) {
        tn_status st = tn_map_set_terrain(m, gids[i], (tn_terrain){false, 1.0f});
        if (st != TN_OK)
            return st;
    }
    return TN_OK;
}

tn_terrain tn_map_terrain(const tn_map *m, uint32_t gid)
{
    const tn_terrain_slot *t = m ? terrain_slot(m, tn_gid_id(gid)) : NULL;
    return t ? (tn_terrain){t->passable != 0, t->cost} : (tn_terrain){true, 1.0f};
}

void tn_map_clear_terrain(tn_map *m)
{
    if (!m || m->view || (!m->terrain_cap && !m->terrain_far_count))
        return;
    if (m->terrain_cap)
        memset(m->terrain, 0, m->terrain_cap * sizeof(tn_terrain_slot));
    m->terrain_far_count = 0;
    map_update_all(m);
}

bool tn_map_passable(const tn_map *m, int32_t x, int32_t y)
{
    int32_t i = tn_map_index(m, x, y);
    return i >= 0 && m->passable[i];
}

float tn_map_cost(const tn_map *m, int32_t x, int32_t y)
{
    int32_t i = tn_map_index(m, x, y);
    return i >= 0 ? m->cost[i] : INFINITY;
}

const uint8_t *tn_map_passable_data(const tn_map *m)
{
    return m ? m->passable : NULL;
}

const float *tn_map_cost_data(const tn_map *m)
{
    return m ? m->cost : NULL;
}

uint64_t tn__map_passable_hash(const tn_map *m)
{
    return m ? m->passable_hash : 0;
}

void tn__map_grid(const tn_map *m, tn__grid *g)
{
    TN_ASSERT(m);
    g->w = m->w;
    g->h = m->h;
    g->tw = m->tw;
    g->th = m->th;
    g->pass = m->passable;
    g->cost = m->cost;
    g->revision = m->revision;
    g->passable_hash = m->passable_hash;
    g->cost_hash = m->cost_hash;
    g->min_cost = m->min_terrain_cost;
    g->uniform = m->nonunit_count == 0;
}

int32_t tn_map_passable_count(const tn_map *m)
{
    return m ? m->passable_count : 0;
}

float tn_map_min_cost(const tn_map *m)
{
    return m ? m->min_terrain_cost : 1.0f;
}

bool tn_map_uniform_cost(const tn_map *m)
{
    return m && m->nonunit_count == 0;
}

/* ---- layers -------------------------------------------------------------------------- */

tn_status tn_map_add_layer(tn_map *m, const char *name, tn_layer_kind kind, int32_t *out_index)
{
    if (!m || !name || (kind != TN_LAYER_TILES && kind != TN_LAYER_OBJECTS))
        return TN_E_INVALID_ARG;
    if (m->view)
        return TN_E_STATE;
    if (strlen(name) >= TN_MAX_NAME)
        return TN_E_TOO_LARGE;
    if (m->layer_count >= TN_MAX_LAYERS)
        return TN_E_TOO_LARGE;
    if ((size_t)m->layer_count == m->layer_cap) {
        size_t ncap = m->layer_cap ? m->layer_cap * 2 : 4;
        tn_layer *nl = tn__calloc(&m->alloc, ncap * sizeof(tn_layer));
        int32_t *nt = tn__calloc(&m->alloc, ncap * sizeof(int32_t));
        if (!nl || !nt) {
            tn__free(&m->alloc, nl, ncap * sizeof(tn_layer));
            tn__free(&m->alloc, nt, ncap * sizeof(int32_t));
            return TN_E_NOMEM;
        }
        if (m->layer_count) {
            memcpy(nl, m->layers, (size_t)m->layer_count * sizeof(tn_layer));
            memcpy(nt, m->terrain_layers, (size_t)m->terrain_layer_count * sizeof(int32_t));
        }
        tn__free(&m->alloc, m->layers, m->layer_cap * sizeof(tn_layer));
        tn__free(&m->alloc, m->terrain_layers, m->layer_cap * sizeof(int32_t));
        m->layers = nl;
        m->terrain_layers = nt;
        m->layer_cap = ncap;
    }
    tn_layer *l = &m->layers[m->layer_count];
    memset(l, 0, sizeof *l);
    tn__copy_name(l->name, sizeof l->name, name);
    l->kind = kind;
    if (kind == TN_LAYER_TILES) {
        l->gids = tn__calloc(&m->alloc, m->cells * sizeof(uint32_t));
        if (!l->gids)
            return TN_E_NOMEM;
        l->flags = TN_LAYER_TERRAIN;
    }
    if (out_index)
        *out_index = m->layer_count;
    m->layer_count++;
    map_rebuild_terrain_layers(m);
    /* An all-zero layer changes no cell's terrain. */
    return TN_OK;
}

int32_t tn_map_layer_count(const tn_map *m)
{
    return m ? m->layer_count : 0;
}

int32_t tn_map_find_layer(const tn_map *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (int32_t i = 0; i < m->layer_count; i++)
        if (strcmp(m->layers[i].name, name) == 0)
            return i;
    return -1;
}

static const tn_layer *get_layer(const tn_map *m, int32_t layer)
{
    if (!m || layer < 0 || layer >= m->layer_count)
        return NULL;
    return &m->layers[layer];
}

const char *tn_map_layer_name(const tn_map *m, int32_t layer)
{
    const tn_layer *l = get_layer(m, layer);
    return l ? l->name : NULL;
}

tn_layer_kind tn_map_layer_kind(const tn_map *m, int32_t layer)
{
    const tn_layer *l = get_layer(m, layer);
    return l ? l->kind : TN_LAYER_TILES;
}

uint32_t tn_map_layer_flags(const tn_map *m, int32_t layer)
{
    const tn_layer *l = get_layer(m, layer);
    return l ? l->flags : 0;
}

tn_status tn_map_set_layer_flags(tn_map *m, int32_t layer, uint32_t flags)
{
    if (!get_layer(m, layer))
        return TN_E_INVALID_ARG;
    tn_layer *l = &m->layers[layer];
    if (l->kind != TN_LAYER_TILES)
        flags &= ~(uint32_t)TN_LAYER_TERRAIN;
    uint32_t old = l->flags;
    l->flags = flags;
    if ((old ^ flags) & TN_LAYER_TERRAIN) {
        map_rebuild_terrain_layers(m);
        map_update_all(m);
    }
    return TN_OK;
}

const uint32_t *tn_map_layer_data(const tn_map *m, int32_t layer)
{
    const tn_layer *l = get_layer(m, layer);
    return l ? l->gids : NULL;
}

/* ---- cells --------------------------------------------------------------------------- */

int32_t tn_map_index(const tn_map *m, int32_t x, int32_t y)
{
    if (!m || x < 0 || y < 0 || x >= m->w || y >= m->h)
        return -1;
    return y * m->w + x;
}

bool tn_map_cell_of_index(const tn_map *m, int32_t index, tn_cell *out)
{
    if (!m || !out || index < 0 || (size_t)index >= m->cells)
        return false;
    out->x = index % m->w;
    out->y = index / m->w;
    return true;
}

bool tn_map_contains(const tn_map *m, int32_t x, int32_t y)
{
    return tn_map_index(m, x, y) >= 0;
}

static int32_t px_to_cell(float p, int32_t size)
{
    float c = floorf(p / (float)size);
    if (c < -2147483520.0f)
        return INT32_MIN;
    if (c > 2147483520.0f)
        return INT32_MAX;
    return (int32_t)c;
}

bool tn_map_cell_at_px(const tn_map *m, float px, float py, tn_cell *out)
{
    tn_cell c = {-1, -1};
    bool inside = false;
    if (m && isfinite(px) && isfinite(py)) {
        c.x = px_to_cell(px, m->tw);
        c.y = px_to_cell(py, m->th);
        inside = tn_map_contains(m, c.x, c.y);
    }
    if (out)
        *out = c;
    return inside;
}

int32_t tn_map_index_at_px(const tn_map *m, float px, float py)
{
    tn_cell c;
    if (!tn_map_cell_at_px(m, px, py, &c))
        return -1;
    return tn_map_index(m, c.x, c.y);
}

tn_vec2 tn_map_cell_center_px(const tn_map *m, int32_t x, int32_t y)
{
    if (!m)
        return (tn_vec2){0.0f, 0.0f};
    return (tn_vec2){((float)x + 0.5f) * (float)m->tw, ((float)y + 0.5f) * (float)m->th};
}

tn_vec2 tn_map_cell_origin_px(const tn_map *m, int32_t x, int32_t y)
{
    if (!m)
        return (tn_vec2){0.0f, 0.0f};
    return (tn_vec2){(float)x * (float)m->tw, (float)y * (float)m->th};
}

uint32_t tn_map_get(const tn_map *m, int32_t layer, int32_t x, int32_t y)
{
    const tn_layer *l = get_layer(m, layer);
    int32_t i = tn_map_index(m, x, y);
    if (!l || !l->gids || i < 0)
        return 0;
    return l->gids[i];
}

static tn_status tile_layer(tn_map *m, int32_t layer, tn_layer **out)
{
    if (!m || layer < 0 || layer >= m->layer_count || !m->layers[layer].gids)
        return TN_E_INVALID_ARG;
    *out = &m->layers[layer];
    return TN_OK;
}

tn_status tn_map_set(tn_map *m, int32_t layer, int32_t x, int32_t y, uint32_t gid)
{
    tn_layer *l;
    tn_status st = tile_layer(m, layer, &l);
    if (st != TN_OK)
        return st;
    int32_t i = tn_map_index(m, x, y);
    if (i < 0)
        return TN_E_OUT_OF_MAP;
    if (l->gids[i] == gid)
        return TN_OK;
    l->gids[i] = gid;
    tn_rect r = {x, y, x + 1, y + 1};
    if (l->flags & TN_LAYER_TERRAIN)
        map_update_rect(m, r);
    map_log_change(m, r);
    return TN_OK;
}

tn_status tn_map_fill(tn_map *m, int32_t layer, tn_rect r, uint32_t gid)
{
    tn_layer *l;
    tn_status st = tile_layer(m, layer, &l);
    if (st != TN_OK)
        return st;
    r.x0 = r.x0 < 0 ? 0 : r.x0;
    r.y0 = r.y0 < 0 ? 0 : r.y0;
    r.x1 = r.x1 > m->w ? m->w : r.x1;
    r.y1 = r.y1 > m->h ? m->h : r.y1;
    if (r.x1 <= r.x0 || r.y1 <= r.y0)
        return TN_OK;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++)
            l->gids[(size_t)y * (size_t)m->w + (size_t)x] = gid;
    if (l->flags & TN_LAYER_TERRAIN)
        map_update_rect(m, r);
    map_log_change(m, r);
    return TN_OK;
}

/* Write the gids of rect `r` (inside the map; `gids` row-major, r's width per row) into layer l,
 * updating only the cells whose gid changes (loading many layers stays linear), and log the
 * bounding box of those as one change. */
static void layer_write_rect(tn_map *m, tn_layer *l, tn_rect r, const uint32_t *gids)
{
    tn_rect box = {m->w, m->h, 0, 0};
    const bool terrain = (l->flags & TN_LAYER_TERRAIN) != 0;
    const size_t rw = (size_t)(r.x1 - r.x0);
    for (int32_t y = r.y0; y < r.y1; y++) {
        uint32_t *row = l->gids + (size_t)y * (size_t)m->w;
        const uint32_t *src = gids + (size_t)(y - r.y0) * rw;
        for (int32_t x = r.x0; x < r.x1; x++) {
            const uint32_t g = src[x - r.x0];
            if (row[x] == g)
                continue;
            bool id_changed = tn_gid_id(row[x]) != tn_gid_id(g);
            row[x] = g;
            if (terrain && id_changed)
                map_update_rect(m, (tn_rect){x, y, x + 1, y + 1});
            box.x0 = x < box.x0 ? x : box.x0;
            box.y0 = y < box.y0 ? y : box.y0;
            box.x1 = x + 1 > box.x1 ? x + 1 : box.x1;
            box.y1 = y + 1 > box.y1 ? y + 1 : box.y1;
        }
    }
    map_log_change(m, box.x0 < box.x1 ? box : (tn_rect){0, 0, 0, 0});
}

tn_status tn_map_set_rect(tn_map *m, int32_t layer, tn_rect rect, const uint32_t *gids)
{
    tn_layer *l;
    tn_status st = tile_layer(m, layer, &l);
    if (st != TN_OK)
        return st;
    if (rect.x0 < 0 || rect.y0 < 0 || rect.x1 > m->w || rect.y1 > m->h || rect.x1 < rect.x0 ||
        rect.y1 < rect.y0)
        return TN_E_OUT_OF_MAP;
    if (rect.x1 > rect.x0 && rect.y1 > rect.y0 && !gids)
        return TN_E_INVALID_ARG;
    layer_write_rect(m, l, rect, gids);
    return TN_OK;
}

tn_status tn_map_set_layer_data(tn_map *m, int32_t layer, const uint32_t *gids, int32_t count)
{
    tn_layer *l;
    tn_status st = tile_layer(m, layer, &l);
    if (st != TN_OK)
        return st;
    if (!gids || count < 0 || (size_t)count != m->cells)
        return TN_E_INVALID_ARG;
    layer_write_rect(m, l, (tn_rect){0, 0, m->w, m->h}, gids);
    return TN_OK;
}

/* ---- objects and tilesets ------------------------------------------------------------ */

tn_status tn_map_add_object(tn_map *m, const tn_map_object *o)
{
    if (!m || !o || !isfinite(o->x) || !isfinite(o->y) || !isfinite(o->w) || !isfinite(o->h))
        return TN_E_INVALID_ARG;
    if (memchr(o->name, 0, sizeof o->name) == NULL || memchr(o->type, 0, sizeof o->type) == NULL)
        return TN_E_INVALID_ARG;
    if (o->layer < -1 || o->layer >= m->layer_count || o->shape > 5u)
        return TN_E_INVALID_ARG;
    void *p = m->objects;
    tn_status st =
        tn__grow(&m->alloc, &p, sizeof(tn_map_object), &m->object_cap, (size_t)m->object_count + 1);
    if (st != TN_OK)
        return st;
    m->objects = p;
    m->objects[m->object_count++] = *o;
    return TN_OK;
}

int32_t tn_map_object_count(const tn_map *m)
{
    return m ? m->object_count : 0;
}

const tn_map_object *tn_map_object_at(const tn_map *m, int32_t i)
{
    if (!m || i < 0 || i >= m->object_count)
        return NULL;
    return &m->objects[i];
}

const tn_map_object *tn_map_find_object(const tn_map *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (int32_t i = 0; i < m->object_count; i++)
        if (strcmp(m->objects[i].name, name) == 0)
            return &m->objects[i];
    return NULL;
}

tn_status tn_map_add_tileset(tn_map *m, const tn_tileset *t)
{
    if (!m || !t)
        return TN_E_INVALID_ARG;
    if (memchr(t->name, 0, sizeof t->name) == NULL || memchr(t->image, 0, sizeof t->image) == NULL)
        return TN_E_INVALID_ARG;
    void *p = m->tilesets;
    tn_status st =
        tn__grow(&m->alloc, &p, sizeof(tn_tileset), &m->tileset_cap, (size_t)m->tileset_count + 1);
    if (st != TN_OK)
        return st;
    m->tilesets = p;
    m->tilesets[m->tileset_count++] = *t;
    return TN_OK;
}

uint32_t tn_map_free_gid(const tn_map *m)
{
    if (!m)
        return 0;
    const uint32_t reserved = (uint32_t)TN_MAX_TERRAIN_GID - 1u; /* the loader's collision gid */
    uint64_t top = 0;                                            /* the largest id in use */
    for (int32_t i = 0; i < m->tileset_count; i++) {
        const tn_tileset *ts = &m->tilesets[i];
        uint64_t last =
            (uint64_t)ts->first_gid + (uint64_t)(ts->tile_count > 0 ? ts->tile_count : 1) - 1;
        top = last > top ? last : top;
    }
    for (size_t k = 0; k < terrain_entries(m); k++) {
        uint32_t id;
        if (terrain_entry(m, k, &id) && id != reserved && id > top)
            top = id;
    }
    for (int32_t l = 0; l < m->layer_count; l++) {
        const uint32_t *g = m->layers[l].gids;
        for (size_t i = 0; g && i < m->cells; i++) {
            uint32_t id = tn_gid_id(g[i]);
            if (id != reserved && id > top)
                top = id;
        }
    }
    return top + 1 < reserved ? (uint32_t)(top + 1) : 0;
}

int32_t tn_map_tileset_count(const tn_map *m)
{
    return m ? m->tileset_count : 0;
}

const tn_tileset *tn_map_tileset_at(const tn_map *m, int32_t i)
{
    if (!m || i < 0 || i >= m->tileset_count)
        return NULL;
    return &m->tilesets[i];
}

/* ---- clone --------------------------------------------------------------------------- */

tn_status tn_map_clone(const tn_map *src, tn_map **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!src)
        return TN_E_INVALID_ARG;
    tn_map_def d = tn_map_def_default();
    d.width = src->w;
    d.height = src->h;
    d.tile_width = src->tw;
    d.tile_height = src->th;
    d.allocator = src->alloc;
    tn_map *m;
    tn_status st = tn_map_create(&d, &m);
    if (st != TN_OK)
        return st;
    for (int32_t i = 0; i < src->layer_count && st == TN_OK; i++) {
        const tn_layer *l = &src->layers[i];
        st = tn_map_add_layer(m, l->name, l->kind, NULL);
        if (st == TN_OK) {
            m->layers[i].flags = l->flags;
            if (l->gids)
                memcpy(m->layers[i].gids, l->gids, src->cells * sizeof(uint32_t));
        }
    }
    if (st == TN_OK && src->terrain_cap) {
        m->terrain = tn__alloc(&m->alloc, src->terrain_cap * sizeof(tn_terrain_slot));
        if (!m->terrain)
            st = TN_E_NOMEM;
        else {
            m->terrain_cap = src->terrain_cap;
            memcpy(m->terrain, src->terrain, src->terrain_cap * sizeof(tn_terrain_slot));
        }
    }
    if (st == TN_OK && src->terrain_far_count) {
        m->terrain_far = tn__alloc(&m->alloc, src->terrain_far_count * sizeof(tn_terrain_far));
        if (!m->terrain_far)
            st = TN_E_NOMEM;
        else {
            m->terrain_far_cap = m->terrain_far_count = src->terrain_far_count;
            memcpy(m->terrain_far, src->terrain_far,
                   src->terrain_far_count * sizeof(tn_terrain_far));
        }
    }
    for (int32_t i = 0; i < src->object_count && st == TN_OK; i++)
        st = tn_map_add_object(m, &src->objects[i]);
    for (int32_t i = 0; i < src->tileset_count && st == TN_OK; i++)
        st = tn_map_add_tileset(m, &src->tilesets[i]);
    if (st != TN_OK) {
        tn_map_destroy(m);
        return st;
    }
    map_rebuild_terrain_layers(m);
    memcpy(m->passable, src->passable, src->cells);
    memcpy(m->cost, src->cost, src->cells * sizeof(float));
    m->passable_count = src->passable_count;
    m->nonunit_count = src->nonunit_count;
    m->cost_hash = src->cost_hash;
    m->min_terrain_cost = src->min_terrain_cost;
    m->passable_hash = src->passable_hash;
    m->view = src->view;
    *out = m;
    return TN_OK;
}

/* ---- unit-size views ------------------------------------------------------------------ */

tn_status tn__map_create_view(const tn_map *src, tn_map **out)
{
    tn_map_def d = tn_map_def_default();
    d.width = src->w;
    d.height = src->h;
    d.tile_width = src->tw;
    d.tile_height = src->th;
    d.allocator = src->alloc;
    tn_status st = tn_map_create(&d, out);
    if (st != TN_OK)
        return st;
    tn_map *m = *out;
    m->view = true;
    m->view_src = src;
    m->view_src_revision = src->revision;
    m->min_terrain_cost = src->min_terrain_cost;
    return TN_OK;
}

void tn__map_view_synced(tn_map *m)
{
    TN_ASSERT(m->view && m->view_src);
    m->view_src_revision = m->view_src->revision;
}

bool tn__map_view_behind(const tn_map *m)
{
    return m->view && m->view_src && m->view_src_revision != m->view_src->revision;
}

bool tn__map_view_put(tn_map *m, size_t i, uint8_t p, float c)
{
    TN_ASSERT(m->view && i < m->cells);
    if (!p)
        c = INFINITY;
    if (m->passable[i] == p && (!p || m->cost[i] == c))
        return false;
    cell_put(m, i, p, c);
    return true;
}

void tn__map_view_commit(tn_map *m, tn_rect changed, float min_cost)
{
    TN_ASSERT(m->view);
    m->min_terrain_cost = min_cost;
    if (changed.x1 > changed.x0 && changed.y1 > changed.y0)
        map_log_change(m, changed);
}

/* ---- live layers --------------------------------------------------------------------- */

tn_status tn_map_stamp_layer(tn_map *m, int32_t layer, const tn_stamp *stamps, int32_t count,
                             int32_t *out_indices)
{
    tn_layer *l;
    tn_status st = tile_layer(m, layer, &l);
    if (st != TN_OK)
        return st;
    if (count < 0 || (!stamps && count))
        return TN_E_INVALID_ARG;
    memset(l->gids, 0, m->cells * sizeof(uint32_t));
    for (int32_t i = 0; i < count; i++) {
        int32_t idx = tn_map_index_at_px(m, stamps[i].x, stamps[i].y);
        if (idx >= 0)
            l->gids[idx] = stamps[i].gid;
        if (out_indices)
            out_indices[i] = idx;
    }
    if (l->flags & TN_LAYER_TERRAIN)
        map_update_rect(m, map_full_rect(m));
    map_log_change(m, map_full_rect(m));
    return TN_OK;
}

tn_status tn_map_overlay(const tn_map *m, int32_t a, uint32_t gid_a, int32_t b, uint32_t gid_b,
                         int32_t *out, int32_t cap, int32_t *count)
{
    const tn_layer *la = get_layer(m, a), *lb = get_layer(m, b);
    if (!la || !lb || !la->gids || !lb->gids || !count || cap < 0 || (!out && cap))
        return TN_E_INVALID_ARG;
    uint32_t ia = tn_gid_id(gid_a), ib = tn_gid_id(gid_b);
    int32_t n = 0;
    for (size_t i = 0; i < m->cells; i++) {
        if (tn_gid_id(la->gids[i]) == ia && tn_gid_id(lb->gids[i]) == ib) {
            if (n < cap)
                out[n] = (int32_t)i;
            n++;
        }
    }
    *count = n;
    return n > cap ? TN_E_BUFFER_TOO_SMALL : TN_OK;
}
