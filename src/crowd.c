/* The crowd: SoA agent store with generation-checked handles, a counting-sort neighbour grid
 * rebuilt every step, neighbour lists gathered once per agent and shared by every behaviour,
 * fixed-step integration and tile collision. See crowd.h. */
#include "tilenav/crowd.h"

#include "det_math.h"
#include "grid.h"
#include "internal.h"
#include "sector_field_internal.h"
#include "steer_math.h"
#include "tilenav/tile_collision.h"

#include <string.h>

/* The candidate scan tests four candidates at a time with SSE2 (every x86-64 has it) and keeps
 * the same candidates in the same order as the scalar loop, so both give the same bits; build
 * with -DTN_CROWD_SCALAR to check. */
#if defined(__SSE2__) && !defined(TN_CROWD_SCALAR)
#define TN__CROWD_SSE2 1
#include <emmintrin.h>
#else
#define TN__CROWD_SSE2 0
#endif

#define COOKIE_AGENT 0x41474e54u
#define SLOT_BITS 20
#define SLOT_MASK ((1u << SLOT_BITS) - 1u)
#define GEN_MASK 0xFFFu
#define MAX_GRID_CELLS (1 << 26)
/* Grid cells per neighbour radius. Cells of R/2 and a 5x5 scan look at 6.25 R^2 instead of
 * 9 R^2 (R-sized cells, 3x3 scan), but callgrind counted 23% more instructions per step at
 * 10,000 agents on a 256x256 map (4x the cells to clear and prefix-sum), so cells are R. */
#define GRID_SPLIT 1 /* grid cells per neighbour radius (R-sized cells, a 3x3 scan) */
/* Steps between full re-sorts of the agent columns into grid order (sort_agents()). */
#define RESORT_PERIOD 8

/* One agent as the neighbour scans read it, in grid order: 32 bytes, two per cache line. */
typedef struct scan_rec {
    float x, y;
    float ux, uy; /* unit velocity, zero when standing still (alignment) */
    float r, gx, gy;
    uint32_t key; /* target kind | flow slot << 8: agents with equal keys may share a goal;
                   * | KEY_MOVING when (ux, uy) is not zero, | KEY_ARRIVED when arrived */
} scan_rec;

#define KEY_MOVING 0x80000000u
#define KEY_ARRIVED 0x40000000u
#define KEY_FLAGS (KEY_MOVING | KEY_ARRIVED)
/* arrived[] values: within arrive_radius, or held up inside the goal area (arrive_area) */
#define ARRIVED_REACHED 1
#define ARRIVED_HELD 2
/* "touching" for the goal area: centres closer than this times the sum of the radii */
#define AREA_CONTACT 1.5f

/* The map as the crowd's own loops read it (cell lookups, the clear map); collision itself is
 * tile_collision.h's circle mover. */
typedef struct map_view {
    const uint8_t *pass; /* W*H passability */
    int32_t w, h;
    float tw, th;
} map_view;

/* Every per-agent column, once: X(type, name, entries per agent, present). A column moves
 * with its agent: set up at create (in one block, with an alternate of the same size), copied
 * when an agent is removed (the last agent takes its place), and gathered into grid order by
 * sort_agents() (into the alternate, then the two swap). `present` is evaluated on the crowd
 * being created: the force cache exists only for periodic behaviours or recorded forces. The
 * step's force totals fx, fy are scratch, not columns. */
#define AGENT_COLUMNS(X)                                                                           \
    X(float, px, 1, true)                                                                          \
    X(float, py, 1, true)                                                                          \
    X(float, vx, 1, true)                                                                          \
    X(float, vy, 1, true)                                                                          \
    X(float, hx, 1, true)                                                                          \
    X(float, hy, 1, true)                                                                          \
    X(float, rad, 1, true)                                                                         \
    X(float, maxs, 1, true)                                                                        \
    X(float, maxf, 1, true)                                                                        \
    X(float, slow, 1, true)                                                                        \
    X(float, arr_r, 1, true)                                                                       \
    X(float, area, 1, true)                                                                        \
    X(float, tgx, 1, true)                                                                         \
    X(float, tgy, 1, true)                                                                         \
    X(float, wang, 1, true)                                                                        \
    X(float, w, TN_BEHAVIOUR_COUNT, true)                                                          \
    X(uint8_t, kind, 1, true)                                                                      \
    X(uint8_t, arrived, 1, true)                                                                   \
    X(uint8_t, fresh, 1, true)                                                                     \
    X(uint8_t, size, 1, true)                                                                      \
    X(int32_t, flow, 1, true)                                                                      \
    X(uint32_t, slot_of, 1, true)                                                                  \
    X(int32_t, cell_of, 1, true)                                                                   \
    X(tn_vec2, cache, TN_BEHAVIOUR_COUNT, t->periodic || t->record)                                \
    X(tn_vec2, total, 1, t->record)

struct tn_crowd {
    tn_allocator alloc;
    void *block; /* every array below lives in this one allocation */
    size_t block_size;

    const tn_map *map;
    map_view mover;
    uint64_t map_revision;
    bool clear_valid;
    uint8_t *clear; /* per map cell: every cell within clear_r (Chebyshev) is passable */
    int32_t clear_r;
    float clear_reach;      /* clear_r * smaller tile side, pixels */
    int64_t clear_computed; /* cells whose flag was computed, since creation (for tests) */

    int32_t cap, n;
    float dt, nr, nr2, inv_nr, inv_cell, sim2, avoid_la, wall_la, flock_keep;
    tn_wander wander;
    int32_t period[TN_BEHAVIOUR_COUNT];
    bool periodic; /* some period > 1 */
    tn_combine combine;
    bool push_apart, record;
    tn_parallel_for parallel_for;
    void *parallel_user;
    int32_t kmax, max_scan, dense;
    uint64_t seed, step;

    /* dense agent columns, [0, n) (w: weights, cache: forces of periodic behaviours, total:
     * recorded forces, cell_of: grid cell), each with its alternate for sort_agents() */
#define X(T, name, per, present) T *name, *alt_##name;
    AGENT_COLUMNS(X)
#undef X
    float *fx, *fy; /* the step's force totals */

    /* slots */
    uint16_t *gen;
    int32_t *dense_of; /* -1 when free */
    int32_t *free_list;
    int32_t free_n, slot_hi;

    /* grid: dense, cell_start[cell] = grid position of the cell's first agent (gw*gh + 1
     * entries, a counting sort per step); or, when the grid has far more cells than the crowd
     * can have agents (a huge map), sparse: the agents radix-sorted by cell into the same
     * order, and a hash table of the occupied cells' [start, end) (2^hbits slots) */
    int32_t gw, gh;
    int32_t *cell_start;
    bool sparse;
    int32_t hbits;
    int32_t *hkey, *hstart, *hend, *rtmp;
    int32_t *order; /* grid position -> dense index */
    scan_rec *srec; /* grid order */
    tn_vec2 *sxy;   /* grid order, positions only: the candidate scan reads 8 per line */
    float *dispx, *dispy;

    tn_flow_view *flows;
    uint8_t *flow_set;
    int32_t max_flows;
};

/* ---- definitions ----------------------------------------------------------------------- */

tn_crowd_def tn_crowd_def_default(void)
{
    tn_crowd_def d;
    memset(&d, 0, sizeof d);
    d.capacity = 1024;
    d.dt = 1.0f / 60.0f;
    d.neighbour_radius = 32.0f;
    d.max_neighbours = 16;
    d.max_scan = 64;
    d.dense_neighbours = 10;
    d.similar_goal_distance = 64.0f;
    d.avoid_look_ahead = 0.5f;
    d.wall_look_ahead = 0.0f; /* 0 = one tile */
    d.wander.distance = 24.0f;
    d.wander.radius = 12.0f;
    d.wander.jitter = 0.5f;
    for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
        d.period[b] = 1;
    d.combine = TN_COMBINE_WEIGHTED;
    d.flock_brake = 0.0f;
    d.max_flows = 8;
    d.internal_cookie = TN_COOKIE_CROWD;
    return d;
}

tn_agent_def tn_agent_def_default(void)
{
    tn_agent_def d;
    memset(&d, 0, sizeof d);
    d.radius = 6.0f;
    d.max_speed = 120.0f;
    d.max_force = 480.0f;
    d.weights[TN_BEHAVIOUR_TARGET] = 1.0f;
    d.weights[TN_BEHAVIOUR_SEPARATION] = 2.0f;
    d.weights[TN_BEHAVIOUR_COHESION] = 0.2f;
    d.weights[TN_BEHAVIOUR_ALIGNMENT] = 0.5f;
    d.weights[TN_BEHAVIOUR_AVOID_AGENTS] = 1.0f;
    d.weights[TN_BEHAVIOUR_AVOID_WALLS] = 1.0f;
    d.weights[TN_BEHAVIOUR_WANDER] = 0.0f;
    d.target = TN_TARGET_NONE;
    d.slow_radius = 32.0f;
    d.arrive_radius = 8.0f;
    d.arrive_area = 0.0f;
    d.size = 1;
    d.internal_cookie = COOKIE_AGENT;
    return d;
}

/* ---- allocation: one block, 64-byte aligned sub-arrays --------------------------------- */

typedef struct layout {
    size_t size;
    bool overflow;
} layout;

static size_t lay(layout *l, size_t count, size_t elem)
{
    size_t bytes;
    if (!tn__mul_size(count, elem, &bytes) || bytes > SIZE_MAX / 2 - l->size) {
        l->overflow = true;
        return 0;
    }
    size_t at = (l->size + 63u) & ~(size_t)63u;
    l->size = at + bytes;
    return at;
}

static bool finite_pos(float f)
{
    return isfinite(f) && f > 0.0f;
}

/* A behaviour weight: a number no larger in size than TN_CROWD_MAX_WEIGHT (false for NaN). */
static bool weight_ok(float w)
{
    return fabsf(w) <= TN_CROWD_MAX_WEIGHT;
}

tn_status tn_crowd_create(const tn_crowd_def *def, tn_crowd **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_CROWD || !def->map)
        return TN_E_INVALID_ARG;
    if (def->capacity < 1 || !finite_pos(def->dt) || !finite_pos(def->neighbour_radius) ||
        def->max_neighbours < 1 || def->max_neighbours > TN_CROWD_MAX_NEIGHBOURS ||
        def->max_scan < 0 || def->dense_neighbours < 0 || !isfinite(def->similar_goal_distance) ||
        def->similar_goal_distance < 0.0f || !finite_pos(def->avoid_look_ahead) ||
        !isfinite(def->wall_look_ahead) || def->wall_look_ahead < 0.0f ||
        !isfinite(def->wander.distance) || !isfinite(def->wander.radius) ||
        !isfinite(def->wander.jitter) ||
        (unsigned)def->combine > (unsigned)TN_COMBINE_PRIORITIZED || !isfinite(def->flock_brake) ||
        def->flock_brake < 0.0f || def->flock_brake > 1.0f || def->max_flows < 0 ||
        def->max_flows > TN_CROWD_MAX_FLOWS)
        return TN_E_INVALID_ARG;
    for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
        if (def->period[b] < 1 || def->period[b] > 1024)
            return TN_E_INVALID_ARG;
    if ((def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    if (def->capacity > TN_CROWD_MAX_AGENTS)
        return TN_E_TOO_LARGE;

    const tn_map *map = def->map;
    float tw = (float)tn_map_tile_width(map), th = (float)tn_map_tile_height(map);
    double world_w = (double)tn_map_width(map) * (double)tw;
    double world_h = (double)tn_map_height(map) * (double)th;
    double gwd = ceil(world_w * GRID_SPLIT / (double)def->neighbour_radius);
    double ghd = ceil(world_h * GRID_SPLIT / (double)def->neighbour_radius);
    if (gwd * ghd > (double)MAX_GRID_CELLS)
        return TN_E_TOO_LARGE;

    tn_crowd tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.gw = (int32_t)gwd < 1 ? 1 : (int32_t)gwd;
    tmp.gh = (int32_t)ghd < 1 ? 1 : (int32_t)ghd;
    tmp.record = def->record_forces;
    for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
        tmp.periodic = tmp.periodic || def->period[b] > 1;

    size_t cap = (size_t)def->capacity,
           cells = (size_t)tn_map_width(map) * (size_t)tn_map_height(map);
    layout l = {sizeof(tn_crowd), false};
    const tn_crowd *t = &tmp; /* what AGENT_COLUMNS' `present` reads */
#define X(T, name, per, present)                                                                   \
    size_t o_##name = (present) ? lay(&l, cap * (size_t)(per), sizeof(T)) : 0;                     \
    size_t a_##name = (present) ? lay(&l, cap * (size_t)(per), sizeof(T)) : 0;
    AGENT_COLUMNS(X)
#undef X
    size_t o_fx = lay(&l, cap, sizeof(float)), o_fy = lay(&l, cap, sizeof(float));
    size_t o_gen = lay(&l, cap, sizeof(uint16_t)), o_dense = lay(&l, cap, sizeof(int32_t));
    size_t o_free = lay(&l, cap, sizeof(int32_t));
    /* sparse grid past 64 cells per agent of capacity: the per-step cost and the memory no
     * longer grow with the map (same order of agents, so the same results bit for bit) */
    tmp.sparse = (double)tmp.gw * (double)tmp.gh > 64.0 * (double)def->capacity;
    tmp.hbits = 4;
    while ((size_t)1 << tmp.hbits < 2 * cap)
        tmp.hbits++;
    size_t hslots = tmp.sparse ? (size_t)1 << tmp.hbits : 0;
    size_t o_cs = tmp.sparse ? 0 : lay(&l, (size_t)tmp.gw * (size_t)tmp.gh + 1, sizeof(int32_t));
    size_t o_hkey = lay(&l, hslots, sizeof(int32_t)), o_hs = lay(&l, hslots, sizeof(int32_t));
    size_t o_he = lay(&l, hslots, sizeof(int32_t));
    size_t o_rtmp = lay(&l, tmp.sparse ? cap : 0, sizeof(int32_t));
    size_t o_order = lay(&l, cap, sizeof(int32_t));
    /* sxy: 4 spare entries, the vector scan reads up to 3 past a row's end (masked out) */
    size_t o_srec = lay(&l, cap, sizeof(scan_rec)), o_sxy = lay(&l, cap + 4, sizeof(tn_vec2));
    size_t o_dx = lay(&l, cap, sizeof(float)), o_dy = lay(&l, cap, sizeof(float));
    size_t o_flows = lay(&l, (size_t)def->max_flows, sizeof(tn_flow_view));
    size_t o_fset = lay(&l, (size_t)def->max_flows, 1);
    size_t o_clear = lay(&l, cells, 1);
    if (l.overflow)
        return TN_E_TOO_LARGE;

    char *block = tn__calloc(&def->allocator, l.size);
    if (!block)
        return TN_E_NOMEM;
    tn_crowd *c = (tn_crowd *)(void *)block;
    *c = tmp;
    c->alloc = def->allocator;
    c->block = block;
    c->block_size = l.size;
    c->map = map;
    c->cap = def->capacity;
    c->dt = def->dt;
    c->nr = def->neighbour_radius;
    c->nr2 = c->nr * c->nr;
    c->inv_nr = 1.0f / c->nr;
    c->inv_cell = (float)GRID_SPLIT / c->nr;
    c->sim2 = def->similar_goal_distance * def->similar_goal_distance;
    c->avoid_la = def->avoid_look_ahead;
    c->flock_keep = def->flock_brake;
    c->wall_la = def->wall_look_ahead > 0.0f ? def->wall_look_ahead : (tw < th ? tw : th);
    c->wander = def->wander;
    memcpy(c->period, def->period, sizeof c->period);
    c->combine = def->combine;
    c->push_apart = def->push_apart;
    c->parallel_for = def->parallel_for;
    c->parallel_user = def->parallel_user;
    c->kmax = def->max_neighbours;
    c->max_scan = def->max_scan;
    c->dense = def->dense_neighbours;
    c->seed = def->seed;
    c->max_flows = def->max_flows;

#define X(T, name, per, present)                                                                   \
    c->name = (present) ? (T *)(void *)(block + o_##name) : NULL;                                  \
    c->alt_##name = (present) ? (T *)(void *)(block + a_##name) : NULL;
    AGENT_COLUMNS(X)
#undef X
    c->fx = (float *)(void *)(block + o_fx);
    c->fy = (float *)(void *)(block + o_fy);
    c->gen = (uint16_t *)(void *)(block + o_gen);
    c->dense_of = (int32_t *)(void *)(block + o_dense);
    c->free_list = (int32_t *)(void *)(block + o_free);
    c->cell_start = c->sparse ? NULL : (int32_t *)(void *)(block + o_cs);
    c->hkey = c->sparse ? (int32_t *)(void *)(block + o_hkey) : NULL;
    c->hstart = c->sparse ? (int32_t *)(void *)(block + o_hs) : NULL;
    c->hend = c->sparse ? (int32_t *)(void *)(block + o_he) : NULL;
    c->rtmp = c->sparse ? (int32_t *)(void *)(block + o_rtmp) : NULL;
    c->order = (int32_t *)(void *)(block + o_order);
    c->srec = (scan_rec *)(void *)(block + o_srec);
    c->sxy = (tn_vec2 *)(void *)(block + o_sxy);
    c->dispx = (float *)(void *)(block + o_dx);
    c->dispy = (float *)(void *)(block + o_dy);
    c->flows = (tn_flow_view *)(void *)(block + o_flows);
    c->flow_set = (uint8_t *)(block + o_fset);
    c->clear = (uint8_t *)(block + o_clear);
    for (int32_t s = 0; s < c->cap; s++) {
        c->dense_of[s] = -1;
        c->gen[s] = 1;
    }
    *out = c;
    return TN_OK;
}

void tn_crowd_destroy(tn_crowd *c)
{
    if (!c)
        return;
    tn_allocator a = c->alloc;
    tn__free(&a, c->block, c->block_size);
}

size_t tn_crowd_memory_bytes(const tn_crowd *c)
{
    return c ? c->block_size : 0;
}

/* ---- handles ----------------------------------------------------------------------------- */

static int32_t dense_index(const tn_crowd *c, tn_agent_id id, tn_status *st)
{
    uint32_t s1 = id.id & SLOT_MASK, g = id.id >> SLOT_BITS;
    if (id.id == 0 || s1 == 0 || s1 > (uint32_t)c->slot_hi) {
        *st = TN_E_STALE_ID;
        return -1;
    }
    int32_t slot = (int32_t)s1 - 1;
    if (c->gen[slot] != g || c->dense_of[slot] < 0) {
        *st = TN_E_STALE_ID;
        return -1;
    }
    *st = TN_OK;
    return c->dense_of[slot];
}

bool tn_crowd_valid(const tn_crowd *c, tn_agent_id id)
{
    tn_status st;
    return c && dense_index(c, id, &st) >= 0;
}

int32_t tn_crowd_count(const tn_crowd *c)
{
    return c ? c->n : 0;
}

static tn_agent_id id_of_slot(const tn_crowd *c, uint32_t slot)
{
    tn_agent_id id = {((uint32_t)c->gen[slot] << SLOT_BITS) | (slot + 1u)};
    return id;
}

tn_agent_id tn_crowd_agent_at(const tn_crowd *c, int32_t index)
{
    tn_agent_id none = {0};
    if (!c || index < 0 || index >= c->n)
        return none;
    return id_of_slot(c, c->slot_of[index]);
}

/* ---- map helpers --------------------------------------------------------------------------- */

static void bind_map(tn_crowd *c)
{
    tn__grid g;
    tn__map_grid(c->map, &g);
    c->mover.pass = g.pass;
    c->mover.w = g.w;
    c->mover.h = g.h;
    c->mover.tw = (float)g.tw;
    c->mover.th = (float)g.th;
}

/* The radius that walls stop, for a radius `rad` of size class `size`: the agent's own, and
 * for units bigger than a cell at least (size - 1/2) half tiles, so that a unit passes the gaps
 * of `size` cells its field crosses but no narrower ones (whatever radius it was given for its
 * neighbours: a 2x2 unit of radius 12.8 px on 32 px tiles slipped through one-tile gaps its
 * field never crosses, and stood there). */
static float wall_radius_of(const tn_crowd *c, float rad, int32_t size)
{
    if (size <= 1)
        return rad;
    float tmin = c->mover.tw < c->mover.th ? c->mover.tw : c->mover.th;
    float least = ((float)size - 0.5f) * 0.5f * tmin;
    return rad > least ? rad : least;
}

static float wall_radius(const tn_crowd *c, int32_t i)
{
    return wall_radius_of(c, c->rad[i], c->size[i]);
}

/* Per cell: is every cell within clear_r passable (and inside the map)? Then neither wall
 * avoidance nor collision can see a wall from an agent whose centre is in that cell. Computed
 * for the cells of [x0, x1) x [y0, y1). */
static void clear_rect(tn_crowd *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    const map_view *m = &c->mover;
    const int32_t r = c->clear_r, w = m->w, h = m->h;
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++) {
            uint8_t ok = 1;
            if (x - r < 0 || y - r < 0 || x + r >= w || y + r >= h)
                ok = 0;
            for (int32_t yy = y - r; ok && yy <= y + r; yy++)
                for (int32_t xx = x - r; xx <= x + r; xx++)
                    if (!m->pass[(size_t)yy * (size_t)w + (size_t)xx]) {
                        ok = 0;
                        break;
                    }
            c->clear[(size_t)y * (size_t)w + (size_t)x] = ok;
        }
    c->clear_computed += (int64_t)(x1 - x0) * (int64_t)(y1 - y0);
}

/* Cells whose clear flag was computed since creation (a build counts the map; for tests). */
int64_t tn__crowd_clear_computed(const tn_crowd *c);
int64_t tn__crowd_clear_computed(const tn_crowd *c)
{
    return c->clear_computed;
}

/* Bring the clear flags up to date for the changed rectangles (the whole map at first): the
 * cells within clear_r of each (a 2x2 building on a 4096 x 4096 map: a few dozen cells, not 16
 * million; two buildings far apart: two such windows, not the box around them). */
static void build_clear(tn_crowd *c, const tn_rect *rects, int32_t nr)
{
    bind_map(c);
    const map_view *m = &c->mover;
    float tmin = m->tw < m->th ? m->tw : m->th;
    int32_t r = (int32_t)ceilf(c->wall_la / tmin);
    if (r < 1)
        r = 1;
    c->clear_r = r;
    c->clear_reach = (float)r * tmin;
    for (int32_t k = 0; k < nr; k++) {
        tn_rect ch = rects[k];
        if (ch.x1 > ch.x0 && ch.y1 > ch.y0)
            clear_rect(c, ch.x0 - r > 0 ? ch.x0 - r : 0, ch.y0 - r > 0 ? ch.y0 - r : 0,
                       ch.x1 + r < m->w ? ch.x1 + r : m->w, ch.y1 + r < m->h ? ch.y1 + r : m->h);
    }
    c->map_revision = tn_map_revision(c->map);
    c->clear_valid = true;
}

/* After map edits that changed the rectangles `rects`: agents that a newly blocked cell now
 * overlaps (a tower placed on a creep) move to the nearest position clear of walls within their
 * radius plus half the larger side of the largest changed rectangle their circle meets plus a
 * tile (out of a building of any size dropped on them); where there is none (walled in) they
 * stay, and tn_crowd_max_wall_overlap() reports them. Each agent is tested once. The search
 * (tn_tile_circle_push_out) starts a tile out and doubles up to that reach: the nearest
 * position within a smaller reach is the nearest within a larger one, and a long wall far away
 * can no longer make the search too large to run (more than 256 wall edges: it used to give
 * up, and the agent stayed inside the building). Each agent's move depends on the map alone:
 * deterministic. */
static void unbury_agents(tn_crowd *c, const tn_rect *rects, int32_t nr)
{
    const map_view *m = &c->mover;
    const float tile = m->tw > m->th ? m->tw : m->th;
    for (int32_t i = 0; i < c->n; i++) {
        float x = c->px[i], y = c->py[i], rad = wall_radius(c, i), half = -1.0f;
        for (int32_t k = 0; k < nr; k++) {
            const tn_rect r = rects[k];
            if (r.x1 <= r.x0 || r.y1 <= r.y0 || x + rad <= (float)r.x0 * m->tw ||
                x - rad >= (float)r.x1 * m->tw || y + rad <= (float)r.y0 * m->th ||
                y - rad >= (float)r.y1 * m->th)
                continue;
            float sw = (float)(r.x1 - r.x0) * m->tw, sh = (float)(r.y1 - r.y0) * m->th;
            float hk = 0.5f * (sw > sh ? sw : sh);
            half = hk > half ? hk : half;
        }
        if (half < 0.0f || tn_tile_circle_overlap(c->map, tn__v2(x, y), rad) <= 0.0f)
            continue;
        const float reach = half + tile;
        tn_vec2 out;
        for (float d = tile < reach ? tile : reach;; d = 2.0f * d < reach ? 2.0f * d : reach) {
            tn_status st = tn_tile_circle_push_out(c->map, tn__v2(x, y), rad, rad + d, &out);
            if (st == TN_OK) {
                c->px[i] = out.x;
                c->py[i] = out.y;
                break;
            }
            if (st != TN_E_NOT_FOUND || d >= reach)
                break; /* walled in within reach, or too many walls to search: it stays */
        }
    }
}

static void refresh_map(tn_crowd *c)
{
    if (!c->clear_valid || tn_map_revision(c->map) != c->map_revision) {
        /* what changed since the flags were made (the whole map at first, or when the log no
         * longer reaches back): read once for the flags and the buried agents */
        bool had = c->clear_valid;
        tn_rect rects[TN_CHANGE_LOG];
        int32_t nr = had ? tn__map_changed_rects(c->map, c->map_revision, 0, 0, rects) : -1;
        if (nr < 0) {
            rects[0] = (tn_rect){0, 0, tn_map_width(c->map), tn_map_height(c->map)};
            nr = 1;
        }
        build_clear(c, rects, nr);
        if (had)
            unbury_agents(c, rects, nr);
    } else {
        bind_map(c); /* the passability array may have moved */
    }
}

static int32_t cell_index_px(const map_view *m, float x, float y)
{
    int32_t cx = tn__ifloor(x / m->tw), cy = tn__ifloor(y / m->th);
    if (cx < 0 || cy < 0 || cx >= m->w || cy >= m->h)
        return -1;
    return cy * m->w + cx;
}

/* ---- add / remove / set ------------------------------------------------------------------ */

/* A velocity above max speed is scaled down to it (in double: the square of a finite float
 * may overflow), as the step would scale it. */
static void clamp_speed(tn_vec2 *v, float max_speed)
{
    double x = (double)v->x, y = (double)v->y, l = sqrt(x * x + y * y);
    if (l > (double)max_speed) {
        double k = (double)max_speed / l;
        v->x = (float)(x * k);
        v->y = (float)(y * k);
    }
}

static bool target_ok(const tn_crowd *c, tn_target_kind kind, tn_vec2 pos, int32_t flow)
{
    if ((unsigned)kind > (unsigned)TN_TARGET_FLOW)
        return false;
    if (kind == TN_TARGET_FLOW)
        return flow >= 0 && flow < c->max_flows;
    if (kind != TN_TARGET_NONE)
        return isfinite(pos.x) && isfinite(pos.y);
    return true;
}

tn_status tn_crowd_add(tn_crowd *c, const tn_agent_def *d, tn_agent_id *out)
{
    if (out)
        out->id = 0;
    if (!c || !d || !out || d->internal_cookie != COOKIE_AGENT)
        return TN_E_INVALID_ARG;
    refresh_map(c);
    float tmin = c->mover.tw < c->mover.th ? c->mover.tw : c->mover.th;
    if (!isfinite(d->pos.x) || !isfinite(d->pos.y) || !isfinite(d->vel.x) || !isfinite(d->vel.y) ||
        d->size < 1 || d->size > 255 || !isfinite(d->radius) || d->radius < 0.0f ||
        !(d->radius < 0.5f * tmin * (float)d->size) || !finite_pos(d->max_speed) ||
        d->max_speed > TN_CROWD_MAX_SPEED || !finite_pos(d->max_force) ||
        d->max_force > TN_CROWD_MAX_FORCE || !isfinite(d->slow_radius) || d->slow_radius < 0.0f ||
        !isfinite(d->arrive_radius) || d->arrive_radius < 0.0f || !isfinite(d->arrive_area) ||
        d->arrive_area < 0.0f || !target_ok(c, d->target, d->target_pos, d->flow))
        return TN_E_INVALID_ARG;
    for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
        if (!weight_ok(d->weights[b]))
            return TN_E_INVALID_ARG;
    if (tn_tile_circle_overlap(c->map, d->pos, wall_radius_of(c, d->radius, d->size)) != 0.0f)
        return TN_E_INVALID_ARG;
    if (c->n >= c->cap)
        return TN_E_FULL;
    int32_t slot;
    if (c->free_n > 0)
        slot = c->free_list[--c->free_n];
    else
        slot = c->slot_hi++;
    int32_t i = c->n++;
    c->dense_of[slot] = i;
    c->slot_of[i] = (uint32_t)slot;
    c->px[i] = d->pos.x;
    c->py[i] = d->pos.y;
    tn_vec2 vel = d->vel;
    clamp_speed(&vel, d->max_speed);
    c->vx[i] = vel.x;
    c->vy[i] = vel.y;
    tn_vec2 h = tn__v2_with_len(vel, 1.0f);
    c->hx[i] = h.x == 0.0f && h.y == 0.0f ? 1.0f : h.x;
    c->hy[i] = h.y;
    c->rad[i] = d->radius;
    c->maxs[i] = d->max_speed;
    c->maxf[i] = d->max_force;
    c->slow[i] = d->slow_radius;
    c->arr_r[i] = d->arrive_radius;
    c->area[i] = d->arrive_area;
    c->kind[i] = (uint8_t)d->target;
    c->tgx[i] = d->target_pos.x;
    c->tgy[i] = d->target_pos.y;
    c->flow[i] = d->target == TN_TARGET_FLOW ? d->flow : -1;
    c->wang[i] = 0.0f;
    c->arrived[i] = 0;
    c->fresh[i] = 1;
    c->size[i] = (uint8_t)d->size;
    memcpy(c->w + (size_t)i * TN_BEHAVIOUR_COUNT, d->weights, sizeof d->weights);
    if (c->cache)
        memset(c->cache + (size_t)i * TN_BEHAVIOUR_COUNT, 0, sizeof(tn_vec2) * TN_BEHAVIOUR_COUNT);
    if (c->total)
        c->total[i] = tn__v2(0.0f, 0.0f);
    *out = id_of_slot(c, (uint32_t)slot);
    return TN_OK;
}

static void copy_agent(tn_crowd *c, int32_t dst, int32_t src)
{
#define X(T, name, per, present)                                                                   \
    if (c->name)                                                                                   \
        memcpy(c->name + (size_t)dst * (size_t)(per), c->name + (size_t)src * (size_t)(per),       \
               sizeof(T) * (size_t)(per));
    AGENT_COLUMNS(X)
#undef X
    c->fx[dst] = c->fx[src];
    c->fy[dst] = c->fy[src];
    c->dense_of[c->slot_of[dst]] = dst;
}

tn_status tn_crowd_remove(tn_crowd *c, tn_agent_id id)
{
    if (!c)
        return TN_E_INVALID_ARG;
    tn_status st;
    int32_t i = dense_index(c, id, &st);
    if (i < 0)
        return st;
    uint32_t slot = c->slot_of[i];
    int32_t last = c->n - 1;
    if (i != last)
        copy_agent(c, i, last);
    c->n--;
    c->dense_of[slot] = -1;
    c->gen[slot] = (uint16_t)((c->gen[slot] & GEN_MASK) + 1u);
    if (c->gen[slot] > GEN_MASK)
        c->gen[slot] = 1;
    c->free_list[c->free_n++] = (int32_t)slot;
    return TN_OK;
}

tn_status tn_crowd_get(const tn_crowd *c, tn_agent_id id, tn_agent_state *out)
{
    if (!c || !out)
        return TN_E_INVALID_ARG;
    tn_status st;
    int32_t i = dense_index(c, id, &st);
    if (i < 0)
        return st;
    out->pos = tn__v2(c->px[i], c->py[i]);
    out->vel = tn__v2(c->vx[i], c->vy[i]);
    out->heading = tn__dm_atan2f(c->hy[i], c->hx[i]);
    out->radius = c->rad[i];
    out->size = c->size[i];
    out->target = (tn_target_kind)c->kind[i];
    out->arrived = c->arrived[i] != 0;
    out->held = c->arrived[i] == ARRIVED_HELD;
    return TN_OK;
}

tn_status tn_crowd_set_target(tn_crowd *c, tn_agent_id id, tn_target_kind kind, tn_vec2 pos,
                              int32_t flow)
{
    if (!c)
        return TN_E_INVALID_ARG;
    tn_status st;
    int32_t i = dense_index(c, id, &st);
    if (i < 0)
        return st;
    if (!target_ok(c, kind, pos, flow))
        return TN_E_INVALID_ARG;
    /* the target it has (re-sent every frame, as formation slots are) keeps the flag */
    bool same =
        c->kind[i] == (uint8_t)kind &&
        (kind == TN_TARGET_FLOW ? c->flow[i] == flow : c->tgx[i] == pos.x && c->tgy[i] == pos.y);
    c->kind[i] = (uint8_t)kind;
    c->tgx[i] = pos.x;
    c->tgy[i] = pos.y;
    c->flow[i] = kind == TN_TARGET_FLOW ? flow : -1;
    if (!same)
        c->arrived[i] = 0;
    return TN_OK;
}

tn_status tn_crowd_set_velocity(tn_crowd *c, tn_agent_id id, tn_vec2 vel)
{
    if (!c)
        return TN_E_INVALID_ARG;
    tn_status st;
    int32_t i = dense_index(c, id, &st);
    if (i < 0)
        return st;
    if (!isfinite(vel.x) || !isfinite(vel.y))
        return TN_E_INVALID_ARG;
    clamp_speed(&vel, c->maxs[i]);
    c->vx[i] = vel.x;
    c->vy[i] = vel.y;
    return TN_OK;
}

tn_status tn_crowd_set_weight(tn_crowd *c, tn_agent_id id, tn_behaviour b, float weight)
{
    if (!c)
        return TN_E_INVALID_ARG;
    tn_status st;
    int32_t i = dense_index(c, id, &st);
    if (i < 0)
        return st;
    if ((unsigned)b >= (unsigned)TN_BEHAVIOUR_COUNT || !weight_ok(weight))
        return TN_E_INVALID_ARG;
    c->w[(size_t)i * TN_BEHAVIOUR_COUNT + (size_t)b] = weight;
    return TN_OK;
}

tn_status tn_crowd_set_flow(tn_crowd *c, int32_t slot, const tn_flow_view *v)
{
    if (!c || slot < 0 || slot >= c->max_flows)
        return TN_E_INVALID_ARG;
    if (!v) {
        c->flow_set[slot] = 0;
        return TN_OK;
    }
    if (v->width < 1 || v->height < 1 || (int64_t)v->width * v->height > TN_MAX_CELLS ||
        !finite_pos(v->cell_width) || !finite_pos(v->cell_height) || (!v->dir && !v->cell_dir) ||
        !isfinite(v->goal.x) || !isfinite(v->goal.y))
        return TN_E_INVALID_ARG;
    /* a flow whose goal moved is a new target for its agents: they have not arrived there (a
     * slot cleared in between keeps its last view: width 0 only before the first) */
    if (c->flows[slot].width > 0 &&
        (c->flows[slot].goal.x != v->goal.x || c->flows[slot].goal.y != v->goal.y))
        for (int32_t i = 0; i < c->n; i++)
            if (c->kind[i] == TN_TARGET_FLOW && c->flow[i] == slot)
                c->arrived[i] = 0;
    c->flows[slot] = *v;
    c->flow_set[slot] = 1;
    return TN_OK;
}

uint64_t tn_crowd_steps(const tn_crowd *c)
{
    return c ? c->step : 0;
}

tn_status tn_crowd_forces(const tn_crowd *c, tn_agent_id id, tn_vec2 *out, tn_vec2 *total)
{
    if (!c || !out)
        return TN_E_INVALID_ARG;
    tn_status st;
    int32_t i = dense_index(c, id, &st);
    if (i < 0)
        return st;
    if (!c->record)
        return TN_E_STATE;
    memcpy(out, c->cache + (size_t)i * TN_BEHAVIOUR_COUNT, sizeof(tn_vec2) * TN_BEHAVIOUR_COUNT);
    if (total)
        *total = c->total[i];
    return TN_OK;
}

/* ---- flow sampling ------------------------------------------------------------------------- */

/* From a unit's centre to the centre of its top-left cell, where a flow view for its size
 * reads it: (size - 1) / 2 cells. */
static inline tn_vec2 size_offset(const tn_crowd *c, int32_t i, const tn_flow_view *v)
{
    float k = 0.5f * (float)(c->size[i] - 1);
    return tn__v2(k * v->cell_width, k * v->cell_height);
}

/* The direction at cell (x, y) inside the view. */
static inline tn_vec2 flow_tap(const tn_flow_view *v, int32_t x, int32_t y)
{
    return v->dir ? v->dir[(size_t)y * (size_t)v->width + (size_t)x]
                  : v->cell_dir(v->cell_user, x, y);
}

static inline tn_vec2 flow_sample(const tn_flow_view *v, float x, float y)
{
    float fx = x / v->cell_width - 0.5f, fy = y / v->cell_height - 0.5f;
    int32_t x0 = tn__ifloor(fx), y0 = tn__ifloor(fy);
    float tx = fx - (float)x0, ty = fy - (float)y0;
    float sx = 0.0f, sy = 0.0f;
    for (int k = 0; k < 4; k++) {
        int32_t cx = x0 + (k & 1), cy = y0 + (k >> 1);
        if (cx < 0 || cy < 0 || cx >= v->width || cy >= v->height)
            continue;
        tn_vec2 d = flow_tap(v, cx, cy);
        float wgt = ((k & 1) ? tx : 1.0f - tx) * ((k >> 1) ? ty : 1.0f - ty);
        sx += d.x * wgt;
        sy += d.y * wgt;
    }
    float l2 = sx * sx + sy * sy;
    if (!(l2 > 1e-12f)) {
        int32_t cx = tn__ifloor(x / v->cell_width), cy = tn__ifloor(y / v->cell_height);
        if (cx < 0 || cy < 0 || cx >= v->width || cy >= v->height)
            return tn__v2(0.0f, 0.0f);
        return flow_tap(v, cx, cy);
    }
    float l = sqrtf(l2);
    return tn__v2(sx / l, sy / l);
}

tn_status tn_flow_view_from_field(const tn_field *field, const tn_map *map, tn_cell goal,
                                  tn_vec2 *dir, uint8_t *los, int32_t cells, tn_flow_view *out)
{
    if (!field || !map || !dir || !los || !out || cells < 0 || !tn_field_ready(field))
        return TN_E_INVALID_ARG;
    int32_t w = tn_field_width(field), h = tn_field_height(field);
    if (w != tn_map_width(map) || h != tn_map_height(map))
        return TN_E_INVALID_ARG;
    if ((int64_t)cells < (int64_t)w * h)
        return TN_E_BUFFER_TOO_SMALL;
    if (!tn_map_contains(map, goal.x, goal.y))
        return TN_E_OUT_OF_MAP;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            dir[i] = tn_field_vector(field, x, y);
            los[i] = tn_field_los(field, x, y) ? 1 : 0;
        }
    out->width = w;
    out->height = h;
    out->cell_width = (float)tn_map_tile_width(map);
    out->cell_height = (float)tn_map_tile_height(map);
    out->dir = dir;
    out->los = los;
    out->goal = tn_map_cell_center_px(map, goal.x, goal.y);
    out->cell_dir = NULL;
    out->cell_user = NULL;
    return TN_OK;
}

/* tn_flow_view.cell_dir over a sector field: its kept tiles only (read-only). */
static tn_vec2 sector_field_dir(const void *user, int32_t x, int32_t y)
{
    int32_t d = TN_DIR_NONE;
    if (tn_sector_field_peek((const tn_sector_field *)user, (tn_cell){x, y}, &d, NULL) != TN_OK ||
        d == TN_DIR_NONE)
        return tn__v2(0.0f, 0.0f);
    float k = (d & 1) ? 0.70710678118654752f : 1.0f;
    return tn__v2(k * (float)tn_dir_dx(d), k * (float)tn_dir_dy(d));
}

tn_status tn_flow_view_from_sector_field(const tn_sector_field *field, const tn_map *map,
                                         tn_cell goal, tn_flow_view *out)
{
    if (!field || !map || !out)
        return TN_E_INVALID_ARG;
    int32_t w, h;
    tn__sector_field_size(field, &w, &h);
    if (w != tn_map_width(map) || h != tn_map_height(map))
        return TN_E_INVALID_ARG;
    if (!tn_map_contains(map, goal.x, goal.y))
        return TN_E_OUT_OF_MAP;
    memset(out, 0, sizeof *out);
    out->width = w;
    out->height = h;
    out->cell_width = (float)tn_map_tile_width(map);
    out->cell_height = (float)tn_map_tile_height(map);
    out->goal = tn_map_cell_center_px(map, goal.x, goal.y);
    out->cell_dir = sector_field_dir;
    out->cell_user = field;
    return TN_OK;
}

tn_status tn_crowd_prepare_sector_field(const tn_crowd *c, int32_t slot, tn_sector_field *field,
                                        int32_t *built)
{
    if (built)
        *built = 0;
    if (!c || !field || slot < 0 || slot >= c->max_flows)
        return TN_E_INVALID_ARG;
    uint64_t since = 0;
    tn_status st = tn__sector_field_begin(field, &since);
    if (st != TN_OK)
        return st;
    if (!c->flow_set[slot])
        return TN_OK;
    const tn_flow_view *v = &c->flows[slot];
    int32_t made = 0;
    for (int32_t i = 0; i < c->n && st == TN_OK; i++) {
        if (c->kind[i] != TN_TARGET_FLOW || c->flow[i] != slot)
            continue;
        /* the four cells flow_sample() blends around the top-left cell's centre */
        tn_vec2 off = size_offset(c, i, v);
        float fx = (c->px[i] - off.x) / v->cell_width - 0.5f;
        float fy = (c->py[i] - off.y) / v->cell_height - 0.5f;
        int32_t x0 = tn__ifloor(fx), y0 = tn__ifloor(fy);
        for (int k = 0; k < 4 && st == TN_OK; k++) {
            int32_t cx = x0 + (k & 1), cy = y0 + (k >> 1);
            if (cx < 0 || cy < 0 || cx >= v->width || cy >= v->height)
                continue;
            bool b = false;
            st = tn__sector_field_touch(field, (tn_cell){cx, cy}, since, &b);
            made += b;
        }
    }
    tn__sector_field_flush(field);
    if (built)
        *built = made;
    return st;
}

tn_vec2 tn_flow_view_sample(const tn_flow_view *v, tn_vec2 pos)
{
    if (!v || (!v->dir && !v->cell_dir) || v->width < 1 || v->height < 1 ||
        !finite_pos(v->cell_width) || !finite_pos(v->cell_height) || !isfinite(pos.x) ||
        !isfinite(pos.y))
        return tn__v2(0.0f, 0.0f);
    /* far outside the view (where a cell index would not fit an int32): no direction */
    float qx = pos.x / v->cell_width, qy = pos.y / v->cell_height;
    if (!(fabsf(qx) < 1e9f && fabsf(qy) < 1e9f))
        return tn__v2(0.0f, 0.0f);
    return flow_sample(v, pos.x, pos.y);
}

/* ---- the step -------------------------------------------------------------------------------- */

static uint32_t goal_key(const tn_crowd *c, int32_t i, float *gx, float *gy)
{
    uint8_t k = c->kind[i];
    if (k == TN_TARGET_FLOW) {
        int32_t f = c->flow[i];
        if (c->flow_set[f]) {
            tn_vec2 off = size_offset(c, i, &c->flows[f]);
            *gx = c->flows[f].goal.x + off.x;
            *gy = c->flows[f].goal.y + off.y;
        } else {
            *gx = *gy = 0.0f;
        }
        return (uint32_t)k | ((uint32_t)f << 8);
    }
    *gx = c->tgx[i];
    *gy = c->tgy[i];
    return k;
}

/* Run task over [0, count) through the caller's parallel-for, or here. Every task below writes
 * only the entries of its own range, so any split gives the same bits. */
static void run_task(tn_crowd *c, tn_task task, int32_t count)
{
    if (c->parallel_for)
        c->parallel_for(task, c, count, c->parallel_user);
    else
        task(c, 0, count);
}

/* Grid cell of agents [begin, end). */
static void cells_task(void *ctx, int32_t begin, int32_t end)
{
    tn_crowd *c = ctx;
    int32_t gw = c->gw, gh = c->gh;
    for (int32_t i = begin; i < end; i++) {
        int32_t cx = (int32_t)(c->px[i] * c->inv_cell), cy = (int32_t)(c->py[i] * c->inv_cell);
        cx = cx < 0 ? 0 : cx >= gw ? gw - 1 : cx;
        cy = cy < 0 ? 0 : cy >= gh ? gh - 1 : cy;
        c->cell_of[i] = cy * gw + cx;
    }
}

/* Scan records of grid positions [begin, end). */
static void srec_task(void *ctx, int32_t begin, int32_t end)
{
    tn_crowd *c = ctx;
    for (int32_t k = begin; k < end; k++) {
        int32_t i = c->order[k];
        scan_rec *r = &c->srec[k];
        r->x = c->px[i];
        r->y = c->py[i];
        c->sxy[k].x = r->x;
        c->sxy[k].y = r->y;
        float vx = c->vx[i], vy = c->vy[i], l2 = vx * vx + vy * vy;
        if (l2 > 0.0f) {
            float l = sqrtf(l2);
            r->ux = vx / l;
            r->uy = vy / l;
        } else {
            r->ux = r->uy = 0.0f;
        }
        r->r = c->rad[i];
        r->key = goal_key(c, i, &r->gx, &r->gy);
        if (r->ux != 0.0f || r->uy != 0.0f)
            r->key |= KEY_MOVING;
        if (c->arrived[i])
            r->key |= KEY_ARRIVED;
    }
}

static inline uint32_t cell_hash(const tn_crowd *c, int32_t cell)
{
    return ((uint32_t)cell * 0x9E3779B1u) >> (32 - c->hbits);
}

/* Sparse grid: stable LSD radix sort of the agents by cell (11-bit digits), which gives the
 * counting sort's order (by cell, then by index), then the occupied cells' ranges hashed. */
static void build_sparse(tn_crowd *c)
{
    const int32_t n = c->n;
    const uint32_t ncell = (uint32_t)c->gw * (uint32_t)c->gh;
    int32_t *src = c->order, *dst = c->rtmp;
    for (int32_t i = 0; i < n; i++)
        src[i] = i;
    for (int shift = 0; shift < 32 && (ncell - 1) >> shift; shift += 11) {
        int32_t count[2048 + 1];
        memset(count, 0, sizeof count);
        for (int32_t k = 0; k < n; k++)
            count[(((uint32_t)c->cell_of[src[k]] >> shift) & 2047u) + 1]++;
        for (int d = 0; d < 2048; d++)
            count[d + 1] += count[d];
        for (int32_t k = 0; k < n; k++)
            dst[count[((uint32_t)c->cell_of[src[k]] >> shift) & 2047u]++] = src[k];
        int32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != c->order)
        memcpy(c->order, src, (size_t)n * sizeof *src);
    const size_t slots = (size_t)1 << c->hbits;
    const uint32_t mask = (uint32_t)slots - 1u;
    for (size_t s = 0; s < slots; s++)
        c->hkey[s] = -1;
    for (int32_t k = 0; k < n;) {
        int32_t cell = c->cell_of[c->order[k]], e = k + 1;
        while (e < n && c->cell_of[c->order[e]] == cell)
            e++;
        uint32_t h = cell_hash(c, cell);
        while (c->hkey[h] >= 0)
            h = (h + 1) & mask;
        c->hkey[h] = cell;
        c->hstart[h] = k;
        c->hend[h] = e;
        k = e;
    }
}

/* The grid positions [*m0, *m1) of the agents in cells x0..x1 of grid row y (contiguous in
 * grid order; empty: *m0 == *m1). */
static inline void row_range(const tn_crowd *c, int32_t y, int32_t x0, int32_t x1, int32_t *m0,
                             int32_t *m1)
{
    if (!c->sparse) {
        const int32_t *row = c->cell_start + (size_t)y * (size_t)c->gw;
        *m0 = row[x0];
        *m1 = row[x1 + 1];
        return;
    }
    const uint32_t mask = ((uint32_t)1 << c->hbits) - 1u;
    int32_t a = 0, b = 0;
    bool any = false;
    for (int32_t x = x0; x <= x1; x++) {
        int32_t cell = y * c->gw + x;
        for (uint32_t h = cell_hash(c, cell); c->hkey[h] >= 0; h = (h + 1) & mask)
            if (c->hkey[h] == cell) {
                if (!any)
                    a = c->hstart[h];
                b = c->hend[h];
                any = true;
                break;
            }
    }
    *m0 = a;
    *m1 = b;
}

/* The agents into grid cells: a counting sort that fills cell_start (or, sparse, build_sparse),
 * order and srec. The counting
 * and the scatter of order[] are serial (a few instructions per agent); the cells and the scan
 * records run through the parallel-for. */
static void build_grid(tn_crowd *c)
{
    int32_t n = c->n;
    run_task(c, cells_task, n);
    if (c->sparse) {
        build_sparse(c);
        run_task(c, srec_task, n);
        return;
    }
    size_t ncell = (size_t)c->gw * (size_t)c->gh;
    int32_t *cs = c->cell_start;
    memset(cs, 0, (ncell + 1) * sizeof(int32_t));
    for (int32_t i = 0; i < n; i++)
        cs[c->cell_of[i]]++;
    /* cs[cell] = end of the cell; scattering backwards leaves cs[cell] = start, stable */
    int32_t run = 0;
    for (size_t k = 0; k < ncell; k++) {
        run += cs[k];
        cs[k] = run;
    }
    cs[ncell] = n;
    for (int32_t i = n - 1; i >= 0; i--)
        c->order[--cs[c->cell_of[i]]] = i;
    run_task(c, srec_task, n);
}

#define SWAP_PTR(T, a, b)                                                                          \
    do {                                                                                           \
        T *t_ = (a);                                                                               \
        (a) = (b);                                                                                 \
        (b) = t_;                                                                                  \
    } while (0)

/* dst[k] = src[order[k]] for k < n, elements of `bytes` bytes (the common sizes unrolled). */
static void gather_rows(void *dst, const void *src, const int32_t *order, int32_t n, size_t bytes)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    switch (bytes) {
    case 1:
        for (int32_t k = 0; k < n; k++)
            d[k] = s[order[k]];
        break;
    case 4:
        for (int32_t k = 0; k < n; k++)
            memcpy(d + 4 * (size_t)k, s + 4 * (size_t)order[k], 4);
        break;
    case 8:
        for (int32_t k = 0; k < n; k++)
            memcpy(d + 8 * (size_t)k, s + 8 * (size_t)order[k], 8);
        break;
    default:
        for (int32_t k = 0; k < n; k++)
            memcpy(d + bytes * (size_t)k, s + bytes * (size_t)order[k], bytes);
        break;
    }
}

/* Grid positions [begin, end) of every column into the alternates. */
static void resort_task(void *ctx, int32_t begin, int32_t end)
{
    tn_crowd *c = ctx;
    const int32_t *order = c->order + begin;
    int32_t n = end - begin;
#define X(T, name, per, present)                                                                   \
    if (c->name) {                                                                                 \
        size_t bytes_ = sizeof(T) * (size_t)(per);                                                 \
        gather_rows((char *)(void *)c->alt_##name + bytes_ * (size_t)begin, c->name, order, n,     \
                    bytes_);                                                                       \
    }
    AGENT_COLUMNS(X)
#undef X
}

/* After the re-sort agent k is grid position k. */
static void reindex_task(void *ctx, int32_t begin, int32_t end)
{
    tn_crowd *c = ctx;
    for (int32_t k = begin; k < end; k++) {
        c->dense_of[c->slot_of[k]] = k;
        c->order[k] = k;
    }
}

/* Gather every per-agent array into grid order (the order build_grid found), so that agent k
 * of the grid is dense agent k. Agents move little between steps, so after the first step the
 * permutation is close to the identity and this pass streams through memory. */
static void sort_agents(tn_crowd *c)
{
    int32_t n = c->n;
    const int32_t *order = c->order;
    int32_t moved = 0;
    for (int32_t k = 0; k < n; k++)
        moved += order[k] != k;
    if (moved == 0)
        return;
    /* between full re-sorts the force loop reads through order[], nearly sequential anyway;
     * a re-sort moves ~250 bytes per agent, so it runs every RESORT_PERIOD steps (and always
     * when the agents are far out of order, as after a batch of additions) */
    if (c->step % RESORT_PERIOD != 0 && moved < n / 2)
        return;
    run_task(c, resort_task, n);
#define X(T, name, per, present)                                                                   \
    if (c->name)                                                                                   \
        SWAP_PTR(T, c->name, c->alt_##name);
    AGENT_COLUMNS(X)
#undef X
    run_task(c, reindex_task, n);
}

/* Is behaviour b due for agent i this step? */
static inline bool due(const tn_crowd *c, int32_t i, int b)
{
    int32_t p = c->period[b];
    return p == 1 || c->fresh[i] || (c->step + c->slot_of[i]) % (uint64_t)p == 0;
}

/* Room for the kept list plus one batch of hits (the scan appends up to 4 at a time). */
#define NB_ROOM (TN_CROWD_MAX_NEIGHBOURS + 64 + 4)

typedef struct nb_list {
    int32_t idx[NB_ROOM];
    float d2[NB_ROOM];
    int32_t n, worst;
} nb_list;

/* Entries [0, L->n) are the kept list, [L->n, nb) new hits in scan order: keep the kmax nearest,
 * each hit in turn (a hit closer than the farthest kept one takes its place). In place: a hit
 * is read before any later write can reach it. */
static inline void keep_nearest(nb_list *L, int32_t kmax, int32_t nb)
{
    int32_t q = L->n;
    if (L->n < kmax) {
        /* hits that fit are in place already; only the farthest so far (the first of equals)
         * is tracked, with selects: the test is unpredictable */
        int32_t e = nb < kmax ? nb : kmax;
        int32_t wi = L->n == 0 ? 0 : L->worst;
        for (int32_t t = L->n == 0 ? 1 : L->n; t < e; t++)
            wi = L->d2[t] > L->d2[wi] ? t : wi;
        L->worst = wi;
        L->n = e;
        q = L->n;
    }
    for (; q < nb; q++) {
        float d2 = L->d2[q];
        if (d2 < L->d2[L->worst]) {
            L->idx[L->worst] = L->idx[q];
            L->d2[L->worst] = d2;
            int32_t wi = 0;
            for (int32_t t = 1; t < L->n; t++)
                wi = L->d2[t] > L->d2[wi] ? t : wi;
            L->worst = wi;
        }
    }
}

#if TN__CROWD_SSE2
/* Lane numbers of the set bits of a 4-bit mask, in order (padded), and their count. */
static const int32_t mask_lanes[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                          {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                          {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                          {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
static const int8_t mask_count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
#endif

/* The kmax nearest agents closer than the neighbour radius, in scan order. */
static void gather(const tn_crowd *c, int32_t k, nb_list *L)
{
    const scan_rec *self = &c->srec[k];
    int32_t i = c->order[k], cell = c->cell_of[i];
    int32_t cx = cell % c->gw, cy = cell / c->gw;
    int32_t kmax = c->kmax, budget = c->max_scan > 0 ? c->max_scan : INT32_MAX;
    float nr2 = c->nr2, px = self->x, py = self->y;
    const tn_vec2 *sxy = c->sxy;
    /* hits go straight into L after the kept entries */
    int32_t *bi = L->idx;
    float *bd = L->d2;
    int32_t nb = 0;
    L->n = 0;
    L->worst = 0;
    int32_t x0 = cx > GRID_SPLIT ? cx - GRID_SPLIT : 0;
    int32_t x1 = cx + GRID_SPLIT < c->gw ? cx + GRID_SPLIT : c->gw - 1;
    /* rows in the order own, above, below (then further ones when cells are split), so that a
     * scan budget keeps the closest rows */
    int32_t rows[2 * GRID_SPLIT + 1], nrows = 0;
    for (int32_t r = 0; r <= 2 * GRID_SPLIT; r++) {
        int32_t y = cy + ((r & 1) ? -((r + 1) / 2) : r / 2);
        if (y >= 0 && y < c->gh)
            rows[nrows++] = y;
    }
#if GRID_SPLIT == 1
    if (c->dense > 0) {
        /* the 2 x 2 cells nearest the agent hold every agent within half the radius; when
         * they hold at least `dense` agents, the neighbourhood is that half-radius disk (the
         * same kmax nearest when it has kmax of them) and the other five cells are not read */
        float fx = px * c->inv_cell - (float)cx, fy = py * c->inv_cell - (float)cy;
        int32_t bx0 = fx < 0.5f ? cx - 1 : cx, by = fy < 0.5f ? cy - 1 : cy + 1;
        int32_t bx1 = bx0 + 1;
        bx0 = bx0 < 0 ? 0 : bx0;
        bx1 = bx1 >= c->gw ? c->gw - 1 : bx1;
        bool by_ok = by >= 0 && by < c->gh;
        int32_t a0, a1;
        row_range(c, cy, bx0, bx1, &a0, &a1);
        int32_t count = a1 - a0;
        if (by_ok) {
            row_range(c, by, bx0, bx1, &a0, &a1);
            count += a1 - a0;
        }
        if (count >= c->dense) {
            x0 = bx0;
            x1 = bx1;
            nrows = 1;
            rows[0] = cy;
            if (by_ok)
                rows[nrows++] = by;
            nr2 *= 0.25f;
        }
    }
#endif
#if TN__CROWD_SSE2
    const __m128 vpx = _mm_set1_ps(px), vpy = _mm_set1_ps(py), vnr2 = _mm_set1_ps(nr2);
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0), vk = _mm_set1_epi32(k);
#endif
    for (int32_t r = 0; r < nrows; r++) {
        int32_t y = rows[r];
        int32_t m0, m1; /* the cells x0..x1 are contiguous */
        row_range(c, y, x0, x1, &m0, &m1);
        if (m1 - m0 > budget)
            m1 = m0 + budget;
        budget -= m1 - m0;
#if TN__CROWD_SSE2
        /* four candidates a step: d^2 exactly as the scalar loop computes it (IEEE, no
         * contraction), lanes past the row's end and the agent itself masked out, the hits
         * appended in order through a lane table */
        const __m128i vm1 = _mm_set1_epi32(m1);
        for (int32_t m = m0; m < m1; m += 4) {
            __m128 a = _mm_loadu_ps(&sxy[m].x), b = _mm_loadu_ps(&sxy[m + 2].x);
            __m128 dx = _mm_sub_ps(vpx, _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
            __m128 dy = _mm_sub_ps(vpy, _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
            __m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
            __m128i mi = _mm_add_epi32(_mm_set1_epi32(m), lane);
            __m128i ok = _mm_andnot_si128(_mm_cmpeq_epi32(mi, vk), _mm_cmplt_epi32(mi, vm1));
            int mask = _mm_movemask_ps(_mm_and_ps(_mm_cmplt_ps(d2, vnr2), _mm_castsi128_ps(ok)));
            const int32_t *ln = mask_lanes[mask];
            float d2s[4];
            _mm_storeu_ps(d2s, d2);
            _mm_storeu_si128((__m128i *)(void *)(bi + nb),
                             _mm_add_epi32(_mm_set1_epi32(m),
                                           _mm_loadu_si128((const __m128i *)(const void *)ln)));
            bd[nb] = d2s[ln[0]];
            bd[nb + 1] = d2s[ln[1]];
            bd[nb + 2] = d2s[ln[2]];
            bd[nb + 3] = d2s[ln[3]];
            nb += mask_count[mask];
            if (nb > NB_ROOM - 4) {
                keep_nearest(L, kmax, nb);
                nb = L->n;
            }
        }
#else
        for (int32_t m = m0; m < m1; m++) {
            float dx = px - sxy[m].x, dy = py - sxy[m].y;
            float d2 = dx * dx + dy * dy;
            /* branch-free: always write, advance only for a neighbour (the test mispredicts) */
            bi[nb] = m;
            bd[nb] = d2;
            nb += (int32_t)((d2 < nr2) & (m != k));
            if (nb == NB_ROOM) {
                keep_nearest(L, kmax, nb);
                nb = L->n;
            }
        }
#endif
        if (budget <= 0)
            break;
    }
    if (L->n == 0 && nb <= kmax) {
        /* no flush and no more hits than room: they are the list already (80 % of the agents
         * at 100,000 on Berlin_0_256 with kmax 8) */
        L->n = nb;
        return;
    }
    keep_nearest(L, kmax, nb);
}

/* Agent i as the steering functions take it; `radius` its own (wall avoidance passes
 * wall_radius() instead). */
static tn_steer_agent agent_value(const tn_crowd *c, int32_t i)
{
    tn_steer_agent a;
    a.pos = tn__v2(c->px[i], c->py[i]);
    a.vel = tn__v2(c->vx[i], c->vy[i]);
    a.radius = c->rad[i];
    a.max_speed = c->maxs[i];
    a.max_force = c->maxf[i];
    return a;
}

/* The target behaviour's force; its desired velocity in *want (zero when there is none). */
static tn_vec2 target_force(const tn_crowd *c, int32_t i, tn_vec2 *want)
{
    tn_vec2 pos = tn__v2(c->px[i], c->py[i]), vel = tn__v2(c->vx[i], c->vy[i]);
    float ms = c->maxs[i], mf = c->maxf[i];
    tn_vec2 tg = tn__v2(c->tgx[i], c->tgy[i]), desired;
    *want = tn__v2(0.0f, 0.0f);
    if (c->arrived[i] == ARRIVED_HELD && c->kind[i] != TN_TARGET_FLEE &&
        c->kind[i] != TN_TARGET_NONE)
        return tn__steer_toward(vel, tn__v2(0.0f, 0.0f), ms, mf); /* hold the place */
    switch ((tn_target_kind)c->kind[i]) {
    case TN_TARGET_SEEK: desired = tn__seek_desired(pos, tg, ms); break;
    case TN_TARGET_ARRIVE: desired = tn__arrive_desired(pos, tg, ms, c->slow[i]); break;
    case TN_TARGET_FLEE: desired = tn__v2_with_len(tn__v2_sub(pos, tg), ms); break;
    case TN_TARGET_FLOW: {
        int32_t f = c->flow[i];
        if (!c->flow_set[f])
            return tn__v2(0.0f, 0.0f);
        const tn_flow_view *v = &c->flows[f];
        tn_vec2 off = size_offset(c, i, v);
        tn_vec2 at = tn__v2(pos.x - off.x, pos.y - off.y); /* the top-left cell's centre */
        float qx = at.x / v->cell_width, qy = at.y / v->cell_height;
        int32_t cx = tn__ifloor(qx), cy = tn__ifloor(qy);
        bool sees = false;
        if (v->los && cx >= 0 && cy >= 0 && cx < v->width && cy < v->height)
            sees = v->los[(size_t)cy * (size_t)v->width + (size_t)cx] != 0;
        if (sees) {
            desired = tn__arrive_desired(at, v->goal, ms, c->slow[i]);
            break;
        }
        /* flow_sample's blend where all four taps are inside the view: the same operations in
         * the same order, without the bounds tests */
        float fx = qx - 0.5f, fy = qy - 0.5f;
        int32_t x0 = tn__ifloor(fx), y0 = tn__ifloor(fy);
        tn_vec2 d;
        if (v->dir && x0 >= 0 && y0 >= 0 && x0 + 1 < v->width && y0 + 1 < v->height) {
            float tx = fx - (float)x0, ty = fy - (float)y0;
            const tn_vec2 *r0 = v->dir + (size_t)y0 * (size_t)v->width + (size_t)x0;
            const tn_vec2 *r1 = r0 + v->width;
            float w0 = (1.0f - tx) * (1.0f - ty), w1 = tx * (1.0f - ty);
            float w2 = (1.0f - tx) * ty, w3 = tx * ty;
            float sx = 0.0f, sy = 0.0f;
            sx += r0[0].x * w0;
            sy += r0[0].y * w0;
            sx += r0[1].x * w1;
            sy += r0[1].y * w1;
            sx += r1[0].x * w2;
            sy += r1[0].y * w2;
            sx += r1[1].x * w3;
            sy += r1[1].y * w3;
            float l2 = sx * sx + sy * sy;
            if (l2 > 1e-12f) {
                float l = sqrtf(l2);
                d = tn__v2(sx / l, sy / l);
            } else {
                d = flow_sample(v, at.x, at.y);
            }
        } else {
            d = flow_sample(v, at.x, at.y);
        }
        if (d.x == 0.0f && d.y == 0.0f) {
            /* no direction here: the goal's cell has none, nor do cells outside the view or too
             * narrow for the unit (a big unit whose circle is smaller than its footprint may
             * drift so that its top-left cell lies there, beside a goal at the edge of its open
             * ground). Near the goal, head for it, or the agent stops short of its arrive
             * radius; elsewhere a zero flow stays zero */
            float gx = (at.x - v->goal.x) / v->cell_width, gy = (at.y - v->goal.y) / v->cell_height;
            if (gx * gx + gy * gy <= 2.25f) { /* within 1.5 cells */
                desired = tn__arrive_desired(at, v->goal, ms, c->slow[i]);
                break;
            }
        }
        desired = tn__v2(d.x * ms, d.y * ms);
        break;
    }
    case TN_TARGET_NONE:
    default: return tn__v2(0.0f, 0.0f);
    }
    *want = desired;
    return tn__steer_toward(vel, desired, ms, mf);
}

static tn_vec2 wander_force(tn_crowd *c, int32_t i)
{
    tn_steer_agent a = agent_value(c, i);
    tn_wander w = c->wander;
    w.angle = c->wang[i];
    tn_rng rng = tn_rng_seed(c->seed ^ ((uint64_t)c->slot_of[i] * 0x9E3779B97F4A7C15ull) ^
                             (c->step * 0xD1B54A32D192ED03ull));
    tn_vec2 f = tn_steer_wander(&a, &w, &rng);
    c->wang[i] = w.angle;
    return f;
}

/* Priority order for TN_COMBINE_PRIORITIZED. */
static const int priority[TN_BEHAVIOUR_COUNT] = {
    TN_BEHAVIOUR_AVOID_WALLS, TN_BEHAVIOUR_AVOID_AGENTS, TN_BEHAVIOUR_SEPARATION,
    TN_BEHAVIOUR_TARGET,      TN_BEHAVIOUR_ALIGNMENT,    TN_BEHAVIOUR_COHESION,
    TN_BEHAVIOUR_WANDER};

/* Cohesion and alignment keep only flock_brake of their component against the target
 * behaviour's desired velocity: flocking shapes the group without braking it. */
static void unbrake_flock(const tn_crowd *c, tn_vec2 *f, tn_vec2 want)
{
    float l2 = want.x * want.x + want.y * want.y;
    if (!(l2 > 0.0f))
        return;
    float l = sqrtf(l2), ux = want.x / l, uy = want.y / l, cut = 1.0f - c->flock_keep;
    static const int which[2] = {TN_BEHAVIOUR_COHESION, TN_BEHAVIOUR_ALIGNMENT};
    for (int t = 0; t < 2; t++) {
        tn_vec2 *g = &f[which[t]];
        float along = g->x * ux + g->y * uy;
        if (along < 0.0f) {
            g->x -= along * cut * ux;
            g->y -= along * cut * uy;
        }
    }
}

/* At its goal an agent holds its own spot: within the slow radius of an arrive target (or of
 * its flow's goal) cohesion and alignment, which keep a group together on its way, fade out
 * with the distance, to 0 at the goal. At full strength they kept agents sent to nearby spots
 * (a formation's slots, one rally point) moving for ever: alignment turns each neighbour's
 * small correction into a push towards full speed, cohesion pulls each off its spot. */
static void fade_flock_at_goal(const tn_crowd *c, int32_t i, const scan_rec *self, tn_vec2 *f)
{
    uint8_t kind = c->kind[i];
    if (kind != TN_TARGET_ARRIVE && (kind != TN_TARGET_FLOW || !c->flow_set[c->flow[i]]))
        return;
    float slow = c->slow[i];
    float ex = self->x - self->gx, ey = self->y - self->gy, d2 = ex * ex + ey * ey;
    if (!(d2 < slow * slow))
        return;
    float k = sqrtf(d2) / slow;
    static const int which[2] = {TN_BEHAVIOUR_COHESION, TN_BEHAVIOUR_ALIGNMENT};
    for (int t = 0; t < 2; t++)
        f[which[t]] = tn__v2_scale(f[which[t]], k);
}

/* The goal area: agent i, inside its arrive_area and not arrived, is held up when it touches
 * a neighbour with the same goal that has arrived. Reads only the step's snapshot (scan
 * records); writes only agent i. */
static void goal_area(tn_crowd *c, int32_t i, const scan_rec *self, const nb_list *L)
{
    uint8_t kind = c->kind[i];
    if (kind != TN_TARGET_SEEK && kind != TN_TARGET_ARRIVE &&
        (kind != TN_TARGET_FLOW || !c->flow_set[c->flow[i]]))
        return;
    float ex = self->x - self->gx, ey = self->y - self->gy, d2 = ex * ex + ey * ey;
    float area = c->area[i];
    if (!(d2 <= area * area))
        return;
    uint32_t self_key = self->key & ~KEY_FLAGS;
    for (int32_t q = 0; q < L->n; q++) {
        const scan_rec *o = &c->srec[L->idx[q]];
        if ((o->key & ~KEY_FLAGS) != self_key || !(o->key & KEY_ARRIVED))
            continue;
        float touch = AREA_CONTACT * (self->r + o->r);
        if (!(L->d2[q] < touch * touch))
            continue;
        float gx = o->gx - self->gx, gy = o->gy - self->gy;
        if (gx * gx + gy * gy <= 1.0f) { /* not another goal (seek and arrive targets) */
            c->arrived[i] = ARRIVED_HELD;
            return;
        }
    }
}

static void agent_forces(tn_crowd *c, int32_t k, nb_list *L)
{
    int32_t i = c->order[k];
    const float *w = c->w + (size_t)i * TN_BEHAVIOUR_COUNT;
    tn_vec2 *cache = c->cache ? c->cache + (size_t)i * TN_BEHAVIOUR_COUNT : NULL;
    tn_vec2 f[TN_BEHAVIOUR_COUNT];
    bool run[TN_BEHAVIOUR_COUNT];
    if (!cache) {
        /* every behaviour with a weight runs, every step */
        for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++) {
            run[b] = w[b] != 0.0f;
            f[b] = tn__v2(0.0f, 0.0f);
        }
    } else {
        for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++) {
            run[b] = (w[b] != 0.0f || c->record) && (!c->periodic || due(c, i, b));
            f[b] = run[b] ? tn__v2(0.0f, 0.0f) : cache[b];
        }
    }
    const scan_rec *self = &c->srec[k];
    tn_vec2 pos = tn__v2(self->x, self->y), vel = tn__v2(c->vx[i], c->vy[i]);
    float ms = c->maxs[i], mf = c->maxf[i];
    tn_vec2 want = tn__v2(0.0f, 0.0f);
    if (c->arrived[i] == ARRIVED_HELD) {
        /* held in the goal area: it holds its place, no neighbour forces and no wander
         * (push-apart, when on, still resolves overlaps; walls still apply) */
        static const int nb_behaviours[5] = {TN_BEHAVIOUR_SEPARATION, TN_BEHAVIOUR_COHESION,
                                             TN_BEHAVIOUR_ALIGNMENT, TN_BEHAVIOUR_AVOID_AGENTS,
                                             TN_BEHAVIOUR_WANDER};
        for (int t = 0; t < 5; t++) {
            int b = nb_behaviours[t];
            run[b] = false;
            f[b] = tn__v2(0.0f, 0.0f);
            if (cache)
                cache[b] = f[b];
        }
    }
    if (run[TN_BEHAVIOUR_TARGET])
        f[TN_BEHAVIOUR_TARGET] = target_force(c, i, &want);

    if (run[TN_BEHAVIOUR_SEPARATION] || run[TN_BEHAVIOUR_COHESION] || run[TN_BEHAVIOUR_ALIGNMENT] ||
        run[TN_BEHAVIOUR_AVOID_AGENTS]) {
        gather(c, k, L);
        tn__flock_acc acc = {{0, 0}, 0, {0, 0}, 0, {0, 0}, 0};
        float speed = tn__v2_len(vel);
        bool avoid = run[TN_BEHAVIOUR_AVOID_AGENTS] && speed > 0.0f;
        tn_vec2 h = avoid ? tn__v2_scale(vel, 1.0f / speed) : tn__v2(0.0f, 0.0f);
        float reach = speed * c->avoid_la;
        tn__avoid_acc av = {reach, 0.0f, false};
        bool do_sep = run[TN_BEHAVIOUR_SEPARATION];
        bool do_flock = run[TN_BEHAVIOUR_COHESION] || run[TN_BEHAVIOUR_ALIGNMENT];
        /* separation's sqrt and divide for the whole list first: independent, so they
         * overlap (and the divides vectorise); the same operations per neighbour as
         * tn__flock_add_sep, so the same bits */
        float sep_s[TN_CROWD_MAX_NEIGHBOURS + 4];
        if (do_sep) {
            float inv_nr = c->inv_nr;
#if TN__CROWD_SSE2
            /* sqrtps and divps round like sqrtf and / (IEEE), so the bits are the same */
            const __m128 one = _mm_set1_ps(1.0f), vinv = _mm_set1_ps(inv_nr);
            for (int32_t q = 0; q < L->n; q += 4) {
                __m128 d2 = _mm_loadu_ps(L->d2 + q);
                __m128 gt0 = _mm_cmpgt_ps(d2, _mm_setzero_ps());
                __m128 s = _mm_or_ps(_mm_and_ps(gt0, _mm_sqrt_ps(d2)), _mm_andnot_ps(gt0, one));
                _mm_storeu_ps(sep_s + q, _mm_div_ps(_mm_sub_ps(one, _mm_mul_ps(s, vinv)), s));
            }
#else
            for (int32_t q = 0; q < L->n; q++)
                sep_s[q] = L->d2[q] > 0.0f ? sqrtf(L->d2[q]) : 1.0f;
            for (int32_t q = 0; q < L->n; q++)
                sep_s[q] = (1.0f - sep_s[q] * inv_nr) / sep_s[q];
#endif
        }
        /* equal keys of flow agents mean the same flow, hence the same goal; only seek and
         * arrive targets need the goal-distance test */
        uint32_t self_key = self->key & ~KEY_FLAGS;
        bool key_says_similar = self_key == TN_TARGET_NONE || (self_key & 0xFFu) == TN_TARGET_FLOW;
        for (int32_t q = 0; q < L->n; q++) {
            const scan_rec *o = &c->srec[L->idx[q]];
            tn_vec2 d = tn__v2(pos.x - o->x, pos.y - o->y);
            if (do_sep && L->d2[q] > 0.0f) {
                acc.sep.x += d.x * sep_s[q];
                acc.sep.y += d.y * sep_s[q];
                acc.nsep++;
            } else if (do_sep) {
                /* exactly on top of each other (agents added at one spawn point): no direction
                 * to push along, so split along x by slot order, as push-apart does; without
                 * it such agents would stay stacked for ever */
                acc.sep.x += c->slot_of[i] < c->slot_of[c->order[L->idx[q]]] ? -sep_s[q] : sep_s[q];
                acc.nsep++;
            }
            if (do_flock && (o->key & ~KEY_FLAGS) == self_key) {
                float gx = o->gx - self->gx, gy = o->gy - self->gy;
                if (key_says_similar || gx * gx + gy * gy <= c->sim2) {
                    tn__flock_add_com(&acc, tn__v2(o->x, o->y));
                    /* tn__flock_add_unit without its branch: a still neighbour's unit velocity
                     * is +0, and adding +0 to a sum that started at +0 changes no bit (such a
                     * sum is never -0) */
                    acc.head.x += o->ux;
                    acc.head.y += o->uy;
                    acc.nhead += (int32_t)(o->key >> 31); /* KEY_MOVING */
                }
            }
            if (avoid) {
                /* tn__avoid_add as selects: whether a neighbour is ahead is a coin toss
                 * for the branch predictor */
                float rx = -d.x, ry = -d.y;
                float along = rx * h.x + ry * h.y;
                float lateral = rx * -h.y + ry * h.x;
                bool take = (along > 0.0f) & !(along > reach) &
                            !(fabsf(lateral) >= self->r + o->r) &
                            (!av.found | (along < av.best_along));
                av.best_along = take ? along : av.best_along;
                av.lateral = take ? lateral : av.lateral;
                av.found = av.found | take;
            }
        }
        if (run[TN_BEHAVIOUR_SEPARATION])
            f[TN_BEHAVIOUR_SEPARATION] = tn__flock_separation(&acc, mf);
        if (run[TN_BEHAVIOUR_COHESION])
            f[TN_BEHAVIOUR_COHESION] = tn__flock_cohesion(&acc, pos, vel, ms, mf);
        if (run[TN_BEHAVIOUR_ALIGNMENT])
            f[TN_BEHAVIOUR_ALIGNMENT] =
                tn__flock_alignment_unit(&acc, self->ux, self->uy, vel, ms, mf);
        if (run[TN_BEHAVIOUR_AVOID_AGENTS])
            f[TN_BEHAVIOUR_AVOID_AGENTS] = tn__avoid_force(&av, h, reach, mf);
        if (do_flock)
            fade_flock_at_goal(c, i, self, f);
        if (do_flock && c->flock_keep < 1.0f)
            unbrake_flock(c, f, want);
        if (c->area[i] > 0.0f && !c->arrived[i])
            goal_area(c, i, self, L);
    }
    if (run[TN_BEHAVIOUR_AVOID_WALLS]) {
        int32_t ci = cell_index_px(&c->mover, pos.x, pos.y);
        if (ci >= 0 && c->clear[ci] && c->wall_la <= c->clear_reach) {
            f[TN_BEHAVIOUR_AVOID_WALLS] = tn__v2(0.0f, 0.0f);
        } else {
            tn_steer_agent a = agent_value(c, i);
            a.radius = wall_radius(c, i);
            f[TN_BEHAVIOUR_AVOID_WALLS] = tn_steer_avoid_walls(&a, c->map, c->wall_la);
        }
    }
    if (run[TN_BEHAVIOUR_WANDER])
        f[TN_BEHAVIOUR_WANDER] = wander_force(c, i);

    if (cache)
        for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
            if (run[b])
                cache[b] = f[b];

    tn_vec2 tot;
    if (c->combine == TN_COMBINE_WEIGHTED) {
        tot = tn__v2(0.0f, 0.0f);
        for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++) {
            tot.x += f[b].x * w[b];
            tot.y += f[b].y * w[b];
        }
        tot = tn__v2_cap(tot, mf);
    } else {
        tn_vec2 pf[TN_BEHAVIOUR_COUNT];
        float pw[TN_BEHAVIOUR_COUNT];
        for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++) {
            pf[b] = f[priority[b]];
            pw[b] = w[priority[b]];
        }
        tot = tn_steer_combine_prioritized(pf, pw, TN_BEHAVIOUR_COUNT, mf);
    }
    c->fx[i] = tot.x;
    c->fy[i] = tot.y;
    if (c->total)
        c->total[i] = tot;
}

/* Move agent i by (dx, dy) through the map; true when the walls changed the move. */
static bool move_agent(tn_crowd *c, int32_t i, float dx, float dy)
{
    float x = c->px[i], y = c->py[i], r = wall_radius(c, i);
    int32_t ci = cell_index_px(&c->mover, x, y);
    /* not fmaxf: without -ffinite-math-only that is a libm call; a NaN step fails the test */
    float ax = fabsf(dx), ay = fabsf(dy), step = ax > ay ? ax : ay;
    if (ci >= 0 && c->clear[ci] && r + step < c->clear_reach) {
        c->px[i] = x + dx;
        c->py[i] = y + dy;
        return false;
    }
    tn_tile_circle_move mv;
    if (tn_tile_move_circle(c->map, tn__v2(x, y), r, tn__v2(dx, dy), &mv) < 0)
        return true; /* cannot happen for a circle that fits; stay put */
    if (mv.contacts > 0 && (dx != 0.0f || dy != 0.0f) && fabsf(mv.applied.x) < 1e-4f &&
        fabsf(mv.applied.y) < 1e-4f && fabsf(mv.normal.x) > 1e-3f && fabsf(mv.normal.y) > 1e-3f) {
        /* pressed straight into a wall's convex corner (a normal off the axes: a corner, not a
         * flat wall): the normal is along the move, so sliding removes all of it and the agent
         * would stand there for good (its flow and wall forces can point exactly at the
         * corner). Slide along the tangent instead, to the normal's left (a fixed side:
         * deterministic), by half the step */
        float len = sqrtf(dx * dx + dy * dy);
        tn_vec2 tg = tn__v2(-mv.normal.y * 0.5f * len, mv.normal.x * 0.5f * len);
        tn_tile_circle_move m2;
        if ((tg.x != 0.0f || tg.y != 0.0f) &&
            tn_tile_move_circle(c->map, tn__v2(x, y), r, tg, &m2) == TN_OK)
            mv = m2;
    }
    c->px[i] = mv.position.x;
    c->py[i] = mv.position.y;
    return mv.contacts > 0 || mv.position.x != x + dx || mv.position.y != y + dy;
}

static void integrate_range(tn_crowd *c, int32_t begin, int32_t end)
{
    float dt = c->dt, inv_dt = 1.0f / dt;
    for (int32_t i = begin; i < end; i++) {
        float vx = c->vx[i] + c->fx[i] * dt, vy = c->vy[i] + c->fy[i] * dt;
        float s2 = vx * vx + vy * vy, ms = c->maxs[i];
        if (s2 > ms * ms) {
            float k = ms / sqrtf(s2);
            vx *= k;
            vy *= k;
            s2 = vx * vx + vy * vy;
        }
        float x0 = c->px[i], y0 = c->py[i];
        if (move_agent(c, i, vx * dt, vy * dt)) {
            /* the wall took part of the move: keep the velocity that was actually achieved */
            vx = (c->px[i] - x0) * inv_dt;
            vy = (c->py[i] - y0) * inv_dt;
            s2 = vx * vx + vy * vy;
        }
        c->vx[i] = vx;
        c->vy[i] = vy;
        if (s2 > 0.0f) {
            float l = sqrtf(s2);
            c->hx[i] = vx / l;
            c->hy[i] = vy / l;
        }
        c->fresh[i] = 0;
        uint8_t k = c->kind[i];
        if (k == TN_TARGET_SEEK || k == TN_TARGET_ARRIVE || k == TN_TARGET_FLOW) {
            float gx, gy;
            goal_key(c, i, &gx, &gy);
            if (!c->arrived[i] && (k != TN_TARGET_FLOW || c->flow_set[c->flow[i]])) {
                float ex = c->px[i] - gx, ey = c->py[i] - gy, ar = c->arr_r[i];
                if (ex * ex + ey * ey <= ar * ar)
                    c->arrived[i] = ARRIVED_REACHED;
            }
        }
    }
}

/* Push overlapping circles apart (Jacobi: every push computed from the same positions). */
static void push_apart(tn_crowd *c)
{
    build_grid(c);
    int32_t n = c->n;
    for (int32_t k = 0; k < n; k++) {
        const scan_rec *self = &c->srec[k];
        int32_t i = c->order[k], cell = c->cell_of[i];
        int32_t cx = cell % c->gw, cy = cell / c->gw;
        float ax = 0.0f, ay = 0.0f;
        int32_t y0 = cy > GRID_SPLIT ? cy - GRID_SPLIT : 0;
        int32_t y1 = cy + GRID_SPLIT < c->gh ? cy + GRID_SPLIT : c->gh - 1;
        int32_t x0 = cx > GRID_SPLIT ? cx - GRID_SPLIT : 0;
        int32_t x1 = cx + GRID_SPLIT < c->gw ? cx + GRID_SPLIT : c->gw - 1;
        for (int32_t y = y0; y <= y1; y++) {
            int32_t m0, m1;
            row_range(c, y, x0, x1, &m0, &m1);
            for (int32_t m = m0; m < m1; m++) {
                if (m == k)
                    continue;
                const scan_rec *o = &c->srec[m];
                float dx = self->x - o->x, dy = self->y - o->y, rs = self->r + o->r;
                float d2 = dx * dx + dy * dy;
                if (!(d2 < rs * rs))
                    continue;
                if (d2 > 0.0f) {
                    float d = sqrtf(d2), s = 0.5f * (rs - d) / d;
                    ax += dx * s;
                    ay += dy * s;
                } else {
                    /* exactly on top of each other: split along x by slot order */
                    float s = c->slot_of[i] < c->slot_of[c->order[m]] ? -0.5f : 0.5f;
                    ax += rs * s;
                }
            }
        }
        c->dispx[i] = ax;
        c->dispy[i] = ay;
    }
    for (int32_t i = 0; i < n; i++)
        if (c->dispx[i] != 0.0f || c->dispy[i] != 0.0f)
            move_agent(c, i, c->dispx[i], c->dispy[i]);
}

static void forces_task(void *ctx, int32_t begin, int32_t end)
{
    tn_crowd *c = ctx;
    nb_list L;
    memset(&L, 0, sizeof L); /* the vector loops read up to 3 entries past the list's end */
    for (int32_t k = begin; k < end; k++)
        agent_forces(c, k, &L);
}

static void integrate_task(void *ctx, int32_t begin, int32_t end)
{
    integrate_range(ctx, begin, end);
}

tn_status tn_crowd_step(tn_crowd *c)
{
    if (!c)
        return TN_E_INVALID_ARG;
    refresh_map(c);
    if (c->n > 0) {
        build_grid(c);
        sort_agents(c);
        /* both passes touch only their own agents' data: any split gives the same bits */
        if (c->parallel_for) {
            c->parallel_for(forces_task, c, c->n, c->parallel_user);
            c->parallel_for(integrate_task, c, c->n, c->parallel_user);
        } else {
            forces_task(c, 0, c->n);
            integrate_task(c, 0, c->n);
        }
        if (c->push_apart)
            push_apart(c);
    }
    c->step++;
    return TN_OK;
}

/* ---- hash and checks --------------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t tn_crowd_hash(const tn_crowd *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    if (!c)
        return h;
    h = fnv(h, &c->step, sizeof c->step);
    h = fnv(h, &c->n, sizeof c->n);
    for (int32_t i = 0; i < c->n; i++) {
        uint32_t id = id_of_slot(c, c->slot_of[i]).id;
        float v[7] = {c->px[i], c->py[i], c->vx[i], c->vy[i], c->hx[i], c->hy[i], c->wang[i]};
        h = fnv(h, &id, sizeof id);
        h = fnv(h, v, sizeof v);
        h = fnv(h, &c->arrived[i], 1);
    }
    return h;
}

float tn_crowd_max_wall_overlap(const tn_crowd *c)
{
    if (!c || c->n == 0)
        return 0.0f;
    float worst = 0.0f;
    for (int32_t i = 0; i < c->n; i++) {
        float o = tn_tile_circle_overlap(c->map, tn__v2(c->px[i], c->py[i]), wall_radius(c, i));
        if (o > worst)
            worst = o;
    }
    return worst;
}
