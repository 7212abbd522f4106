/* The WebAssembly face of tilenav: a flat, handle-based set of exports over the C API, for
 * web/pkg/tilenav.mjs. Handles are pointers into the module's memory (never 0 on success).
 * Arrays cross the boundary through buffers the JavaScript side allocates with tnw_alloc.
 *
 * Cell values: the JavaScript map holds one tile layer; a cell value v (0..TNW_MAX_VALUE) is
 * stored as gid v + 1 so that value 0 can carry a terrain entry too (gid 0 means "empty" in
 * tilenav and has none). */
#include "tilenav/broadphase.h"
#include "tilenav/clearance.h"
#include "tilenav/contact.h"
#include "tilenav/crowd.h"
#include "tilenav/field.h"
#include "tilenav/follow.h"
#include "tilenav/hierarchy.h"
#include "tilenav/map.h"
#include "tilenav/regions.h"
#include "tilenav/rng.h"
#include "tilenav/search.h"
#include "tilenav/sector_field.h"
#include "tilenav/tile_collision.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define TNW_EXPORT(name) __attribute__((export_name(#name))) TN_API
#define TNW_MAX_VALUE ((uint32_t)TN_MAX_TERRAIN_GID - 2u)

/* ---- memory --------------------------------------------------------------------------- */

TNW_EXPORT(tnw_alloc) void *tnw_alloc(uint32_t size);
TNW_EXPORT(tnw_free) void tnw_free(void *ptr);
TNW_EXPORT(tnw_version) const char *tnw_version(void);
TNW_EXPORT(tnw_status_str) const char *tnw_status_str(int32_t status);

void *tnw_alloc(uint32_t size)
{
    return malloc(size ? size : 1u);
}

void tnw_free(void *ptr)
{
    free(ptr);
}

const char *tnw_version(void)
{
    return tn_version();
}

const char *tnw_status_str(int32_t status)
{
    return tn_status_str((tn_status)status);
}

/* ---- map ------------------------------------------------------------------------------ */

TNW_EXPORT(tnw_map_create)
tn_map *tnw_map_create(int32_t w, int32_t h, int32_t tw, int32_t th, const uint32_t *values,
                       int32_t *status);
TNW_EXPORT(tnw_map_destroy) void tnw_map_destroy(tn_map *map);
TNW_EXPORT(tnw_map_set_terrain)
int32_t tnw_map_set_terrain(tn_map *map, uint32_t value, int32_t passable, float cost);
TNW_EXPORT(tnw_map_set) int32_t tnw_map_set(tn_map *map, int32_t x, int32_t y, uint32_t value);
TNW_EXPORT(tnw_map_set_rect)
int32_t tnw_map_set_rect(tn_map *map, int32_t x, int32_t y, int32_t w, int32_t h,
                         const uint32_t *values);
TNW_EXPORT(tnw_map_get) int32_t tnw_map_get(const tn_map *map, int32_t x, int32_t y);
TNW_EXPORT(tnw_map_passable) int32_t tnw_map_passable(const tn_map *map, int32_t x, int32_t y);
TNW_EXPORT(tnw_map_cost) float tnw_map_cost(const tn_map *map, int32_t x, int32_t y);
TNW_EXPORT(tnw_map_passable_data) const uint8_t *tnw_map_passable_data(const tn_map *map);
TNW_EXPORT(tnw_map_revision) double tnw_map_revision(const tn_map *map);

/* A map of w x h cells with one terrain layer holding `values` (w*h entries, row-major). */
tn_map *tnw_map_create(int32_t w, int32_t h, int32_t tw, int32_t th, const uint32_t *values,
                       int32_t *status)
{
    tn_map_def def = tn_map_def_default();
    def.width = w;
    def.height = h;
    def.tile_width = tw;
    def.tile_height = th;
    tn_map *map = NULL;
    tn_status st = tn_map_create(&def, &map);
    if (st == TN_OK)
        st = tn_map_add_layer(map, "cells", TN_LAYER_TILES, NULL);
    if (st == TN_OK && values) {
        size_t n = (size_t)w * (size_t)h;
        uint32_t *gids = malloc(n * sizeof *gids);
        if (!gids)
            st = TN_E_NOMEM;
        for (size_t i = 0; gids && i < n && st == TN_OK; i++) {
            if (values[i] > TNW_MAX_VALUE)
                st = TN_E_TOO_LARGE;
            else
                gids[i] = values[i] + 1u;
        }
        if (st == TN_OK)
            st = tn_map_set_layer_data(map, 0, gids, (int32_t)n);
        free(gids);
    }
    if (st != TN_OK) {
        tn_map_destroy(map);
        map = NULL;
    }
    if (status)
        *status = (int32_t)st;
    return map;
}

void tnw_map_destroy(tn_map *map)
{
    tn_map_destroy(map);
}

int32_t tnw_map_set_terrain(tn_map *map, uint32_t value, int32_t passable, float cost)
{
    if (value > TNW_MAX_VALUE)
        return TN_E_TOO_LARGE;
    tn_terrain t = {passable != 0, passable ? cost : 1.0f};
    return (int32_t)tn_map_set_terrain(map, value + 1u, t);
}

int32_t tnw_map_set(tn_map *map, int32_t x, int32_t y, uint32_t value)
{
    if (value > TNW_MAX_VALUE)
        return TN_E_TOO_LARGE;
    return (int32_t)tn_map_set(map, 0, x, y, value + 1u);
}

/* Write a w x h rectangle of cell values (row-major, inside the map) as one change of the
 * map's change log (tn_map_set_rect: the bounding box of the cells that changed). Every value
 * is checked before anything is written. Returns the number of cells changed (0: nothing was
 * written or logged), or a status < 0. */
int32_t tnw_map_set_rect(tn_map *map, int32_t x, int32_t y, int32_t w, int32_t h,
                         const uint32_t *values)
{
    if (!map || w < 0 || h < 0 || (w > 0 && h > 0 && !values))
        return TN_E_INVALID_ARG;
    if (w == 0 || h == 0)
        return 0;
    const int32_t mw = tn_map_width(map), mh = tn_map_height(map);
    if (x < 0 || y < 0 || w > mw || h > mh || x > mw - w || y > mh - h)
        return TN_E_OUT_OF_MAP;
    const uint32_t *cur = tn_map_layer_data(map, 0); /* gids: value + 1 */
    if (!cur)
        return TN_E_INVALID_ARG;
    const size_t n = (size_t)w * (size_t)h;
    int32_t changed = 0;
    for (size_t k = 0; k < n; k++) {
        if (values[k] > TNW_MAX_VALUE)
            return TN_E_TOO_LARGE;
        const size_t at = (size_t)(y + (int32_t)(k / (size_t)w)) * (size_t)mw +
                          (size_t)(x + (int32_t)(k % (size_t)w));
        changed += cur[at] != values[k] + 1u;
    }
    if (changed == 0)
        return 0;
    uint32_t *gids = malloc(n * sizeof *gids);
    if (!gids)
        return TN_E_NOMEM;
    for (size_t k = 0; k < n; k++)
        gids[k] = values[k] + 1u;
    tn_status st = tn_map_set_rect(map, 0, (tn_rect){x, y, x + w, y + h}, gids);
    free(gids);
    return st < 0 ? (int32_t)st : changed;
}

/* The value of a cell, or -1 outside the map. */
int32_t tnw_map_get(const tn_map *map, int32_t x, int32_t y)
{
    if (!tn_map_contains(map, x, y))
        return -1;
    return (int32_t)tn_gid_id(tn_map_get(map, 0, x, y)) - 1;
}

int32_t tnw_map_passable(const tn_map *map, int32_t x, int32_t y)
{
    return tn_map_passable(map, x, y);
}

float tnw_map_cost(const tn_map *map, int32_t x, int32_t y)
{
    return tn_map_cost(map, x, y);
}

const uint8_t *tnw_map_passable_data(const tn_map *map)
{
    return tn_map_passable_data(map);
}

double tnw_map_revision(const tn_map *map)
{
    return (double)tn_map_revision(map);
}

/* ---- paths ---------------------------------------------------------------------------- */

/* Result of tnw_search_path, at fixed offsets for the JavaScript side (see tilenav.mjs). */
typedef struct tnw_path_result {
    int32_t length;  /* 0: cells in the path, or the buffer length needed */
    int32_t end_x;   /* 4 */
    int32_t end_y;   /* 8 */
    int32_t algo;    /* 12: the algorithm that ran */
    double cost;     /* 16 */
    double expanded; /* 24 */
} tnw_path_result;

_Static_assert(sizeof(tnw_path_result) == 32, "layout shared with tilenav.mjs");

TNW_EXPORT(tnw_search_create) tn_search *tnw_search_create(int32_t max_cells, int32_t *status);
TNW_EXPORT(tnw_search_destroy) void tnw_search_destroy(tn_search *search);
TNW_EXPORT(tnw_search_path)
int32_t tnw_search_path(tn_search *search, const tn_map *map, int32_t sx, int32_t sy, int32_t gx,
                        int32_t gy, int32_t algo, int32_t diagonal, int32_t heuristic,
                        double weight, int32_t flags, int32_t size, const tn_clearance *cl,
                        const tn_regions *rg, tn_cell *out, int32_t cap, tnw_path_result *res);

tn_search *tnw_search_create(int32_t max_cells, int32_t *status)
{
    tn_search_def def = tn_search_def_default();
    def.max_cells = max_cells;
    tn_search *s = NULL;
    tn_status st = tn_search_create(&def, &s);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? s : NULL;
}

void tnw_search_destroy(tn_search *search)
{
    tn_search_destroy(search);
}

enum { TNW_PATH_COSTS_10_14 = 1, TNW_PATH_CLOSEST = 2, TNW_PATH_JPS_FALLBACK = 4 };

/* The query of the path exports. `size` > 1 (a size x size unit, top-left cells) needs `cl`, a
 * clearance of `map` with max_size >= size and size maps, current with the map (tilenav.mjs
 * keeps one per map and updates it before each query). `rg` (or NULL): regions of `map` with
 * max_size >= size, current with the map, built for TN_DIAGONAL_ALWAYS when the query's rule is
 * ALWAYS and for NO_CUT otherwise (exact for the rule, so `closest` may use them too). */
static void tnw_query_init(tn_query *q, int32_t algo, int32_t diagonal, int32_t heuristic,
                           double weight, int32_t flags, int32_t size, const tn_clearance *cl,
                           const tn_regions *rg)
{
    memset(q, 0, sizeof *q);
    q->algo = (tn_algo)algo;
    q->moves.diagonal = (tn_diagonal)diagonal;
    q->moves.costs = (flags & TNW_PATH_COSTS_10_14) ? TN_COSTS_10_14 : TN_COSTS_EXACT;
    q->heuristic = (tn_heuristic)heuristic;
    q->weight = weight;
    q->closest = (flags & TNW_PATH_CLOSEST) != 0;
    q->jps_fallback = (flags & TNW_PATH_JPS_FALLBACK) != 0;
    q->size = size;
    q->clearance = size > 1 ? cl : NULL;
    q->regions = rg;
}

/* One path query. `flags`: 1 = the book's 10/14 step costs, 2 = closest reachable cell when the
 * goal is unreachable, 4 = JPS falls back to A* where it does not apply. */
int32_t tnw_search_path(tn_search *search, const tn_map *map, int32_t sx, int32_t sy, int32_t gx,
                        int32_t gy, int32_t algo, int32_t diagonal, int32_t heuristic,
                        double weight, int32_t flags, int32_t size, const tn_clearance *cl,
                        const tn_regions *rg, tn_cell *out, int32_t cap, tnw_path_result *res)
{
    if (algo == TN_ALGO_JPS_PLUS) /* needs a jump table this API does not expose */
        return TN_E_UNSUPPORTED;
    tn_query q;
    tnw_query_init(&q, algo, diagonal, heuristic, weight, flags, size, cl, rg);
    tn_search_result r;
    memset(&r, 0, sizeof r);
    tn_status st =
        tn_search_path(search, map, (tn_cell){sx, sy}, (tn_cell){gx, gy}, &q, out, cap, &r);
    if (res) {
        res->length = r.length;
        res->end_x = r.end.x;
        res->end_y = r.end.y;
        res->algo = (int32_t)r.algo;
        res->cost = r.cost;
        res->expanded = (double)r.expanded;
    }
    return (int32_t)st;
}

/* ---- time-sliced and batch path queries --------------------------------------------- */

TNW_EXPORT(tnw_search_begin)
int32_t tnw_search_begin(tn_search *search, const tn_map *map, int32_t sx, int32_t sy, int32_t gx,
                         int32_t gy, int32_t algo, int32_t diagonal, int32_t heuristic,
                         double weight, int32_t flags, int32_t size, const tn_clearance *cl,
                         const tn_regions *rg);
TNW_EXPORT(tnw_search_step) int32_t tnw_search_step(tn_search *search, int32_t max_expansions);
TNW_EXPORT(tnw_search_get_path)
int32_t tnw_search_get_path(tn_search *search, tn_cell *out, int32_t cap, tnw_path_result *res);
TNW_EXPORT(tnw_search_cancel) void tnw_search_cancel(tn_search *search);
TNW_EXPORT(tnw_search_batch)
int32_t tnw_search_batch(tn_search *search, const tn_map *map, const int32_t *pairs, int32_t count,
                         int32_t algo, int32_t diagonal, int32_t heuristic, double weight,
                         int32_t flags, int32_t size, const tn_clearance *cl, const tn_regions *rg,
                         tn_cell *scratch, int32_t cap, double *costs, int32_t *lengths);

/* Start a time-sliced query (the same options as tnw_search_path); TN_IN_PROGRESS or an error. */
int32_t tnw_search_begin(tn_search *search, const tn_map *map, int32_t sx, int32_t sy, int32_t gx,
                         int32_t gy, int32_t algo, int32_t diagonal, int32_t heuristic,
                         double weight, int32_t flags, int32_t size, const tn_clearance *cl,
                         const tn_regions *rg)
{
    if (algo == TN_ALGO_JPS_PLUS)
        return TN_E_UNSUPPORTED;
    tn_query q;
    tnw_query_init(&q, algo, diagonal, heuristic, weight, flags, size, cl, rg);
    tn_cell goal = {gx, gy};
    return (int32_t)tn_search_begin(search, map, (tn_cell){sx, sy}, &goal, 1, &q);
}

int32_t tnw_search_step(tn_search *search, int32_t max_expansions)
{
    return (int32_t)tn_search_step(search, max_expansions < 1 ? 1 : max_expansions);
}

int32_t tnw_search_get_path(tn_search *search, tn_cell *out, int32_t cap, tnw_path_result *res)
{
    tn_search_result r;
    memset(&r, 0, sizeof r);
    tn_status st = tn_search_get_path(search, out, cap, &r);
    if (res) {
        res->length = r.length;
        res->end_x = r.end.x;
        res->end_y = r.end.y;
        res->algo = (int32_t)r.algo;
        res->cost = r.cost;
        res->expanded = (double)r.expanded;
    }
    return (int32_t)st;
}

void tnw_search_cancel(tn_search *search)
{
    tn_search_cancel(search);
}

/* `count` queries (pairs: sx, sy, gx, gy each) with one set of options: costs[i] (INFINITY when
 * there is no path) and lengths[i] (cells, 0 when none). The paths go through `scratch` (cap
 * cells) and are not kept. Returns the number of queries that found a path, or the first error
 * other than "no path" / a blocked start or goal. */
int32_t tnw_search_batch(tn_search *search, const tn_map *map, const int32_t *pairs, int32_t count,
                         int32_t algo, int32_t diagonal, int32_t heuristic, double weight,
                         int32_t flags, int32_t size, const tn_clearance *cl, const tn_regions *rg,
                         tn_cell *scratch, int32_t cap, double *costs, int32_t *lengths)
{
    if (algo == TN_ALGO_JPS_PLUS)
        return TN_E_UNSUPPORTED;
    tn_query q;
    tnw_query_init(&q, algo, diagonal, heuristic, weight, flags, size, cl, rg);
    int32_t found = 0;
    for (int32_t i = 0; i < count; i++) {
        tn_search_result r;
        memset(&r, 0, sizeof r);
        const int32_t *p = pairs + 4 * i;
        tn_status st = tn_search_path(search, map, (tn_cell){p[0], p[1]}, (tn_cell){p[2], p[3]}, &q,
                                      scratch, cap, &r);
        if (st == TN_OK || st == TN_CLOSEST) {
            costs[i] = r.cost;
            lengths[i] = r.length;
            found++;
        } else if (st == TN_NO_PATH || st == TN_E_START_BLOCKED || st == TN_E_GOAL_BLOCKED) {
            costs[i] = (double)INFINITY;
            lengths[i] = 0;
        } else {
            return (int32_t)st;
        }
    }
    return found;
}

/* ---- flow fields ---------------------------------------------------------------------- */

TNW_EXPORT(tnw_field_create)
tn_field *tnw_field_create(const tn_map *map, int32_t diagonal, int32_t flow, int32_t los,
                           int32_t *status);
TNW_EXPORT(tnw_field_destroy) void tnw_field_destroy(tn_field *field);
TNW_EXPORT(tnw_field_build)
int32_t tnw_field_build(tn_field *field, const tn_cell *goals, int32_t count);
TNW_EXPORT(tnw_field_update) int32_t tnw_field_update(tn_field *field, int32_t *touched);
TNW_EXPORT(tnw_field_distances) const float *tnw_field_distances(const tn_field *field);
TNW_EXPORT(tnw_field_dirs) int32_t tnw_field_dirs(const tn_field *field, int8_t *out, int32_t cap);
TNW_EXPORT(tnw_field_dir) int32_t tnw_field_dir(const tn_field *field, int32_t x, int32_t y);
TNW_EXPORT(tnw_field_los) int32_t tnw_field_los(const tn_field *field, uint8_t *out, int32_t cap);
TNW_EXPORT(tnw_field_sample)
int32_t tnw_field_sample(const tn_field *field, float px, float py, float *out);
TNW_EXPORT(tnw_field_path)
int32_t tnw_field_path(const tn_field *field, int32_t sx, int32_t sy, tn_cell *out, int32_t cap,
                       int32_t *len, double *cost);
TNW_EXPORT(tnw_field_would_wall_off)
int32_t tnw_field_would_wall_off(tn_field *field, const tn_cell *cells, int32_t ncells,
                                 const tn_cell *spawns, int32_t nspawns, int32_t *cut);
TNW_EXPORT(tnw_field_reachable_count) int32_t tnw_field_reachable_count(const tn_field *field);
TNW_EXPORT(tnw_field_vectors)
int32_t tnw_field_vectors(const tn_field *field, float *out, int32_t cap);

tn_field *tnw_field_create(const tn_map *map, int32_t diagonal, int32_t flow, int32_t los,
                           int32_t *status)
{
    tn_field_def def = tn_field_def_default();
    def.map = map;
    def.moves.diagonal = (tn_diagonal)diagonal;
    def.flow = (tn_flow_rule)flow;
    def.los = (tn_los_mode)los;
    tn_field *f = NULL;
    tn_status st = tn_field_create(&def, &f);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? f : NULL;
}

void tnw_field_destroy(tn_field *field)
{
    tn_field_destroy(field);
}

int32_t tnw_field_build(tn_field *field, const tn_cell *goals, int32_t count)
{
    return (int32_t)tn_field_build(field, goals, count);
}

int32_t tnw_field_update(tn_field *field, int32_t *touched)
{
    return (int32_t)tn_field_update(field, NULL, touched);
}

/* The distances, or NULL before the first successful build. */
const float *tnw_field_distances(const tn_field *field)
{
    return tn_field_ready(field) ? tn_field_distances(field) : NULL;
}

/* Copy the 8-way directions (0..7, -1 none) of every cell; returns the count or an error. */
int32_t tnw_field_dirs(const tn_field *field, int8_t *out, int32_t cap)
{
    int32_t w = tn_field_width(field), h = tn_field_height(field);
    if (!field || !out)
        return TN_E_INVALID_ARG;
    if (!tn_field_ready(field))
        return TN_E_STATE;
    if (cap < w * h)
        return TN_E_BUFFER_TOO_SMALL;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            out[y * w + x] = (int8_t)tn_field_dir(field, x, y);
    return w * h;
}

/* The 8-way direction of one cell (0..7), -1 without one (goal, blocked, unreachable, outside
 * the map, or before a build). */
int32_t tnw_field_dir(const tn_field *field, int32_t x, int32_t y)
{
    return tn_field_dir(field, x, y); /* TN_DIR_NONE (-1) for a NULL or unbuilt field too */
}

/* Copy the line-of-sight flags (1 = sees the goal) of every cell. */
int32_t tnw_field_los(const tn_field *field, uint8_t *out, int32_t cap)
{
    int32_t w = tn_field_width(field), h = tn_field_height(field);
    if (!field || !out)
        return TN_E_INVALID_ARG;
    if (!tn_field_ready(field))
        return TN_E_STATE;
    if (cap < w * h)
        return TN_E_BUFFER_TOO_SMALL;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            out[y * w + x] = tn_field_los(field, x, y) ? 1 : 0;
    return w * h;
}

int32_t tnw_field_sample(const tn_field *field, float px, float py, float *out)
{
    if (!field || !out)
        return TN_E_INVALID_ARG;
    tn_vec2 v = tn_field_sample(field, px, py);
    out[0] = v.x;
    out[1] = v.y;
    return TN_OK;
}

int32_t tnw_field_path(const tn_field *field, int32_t sx, int32_t sy, tn_cell *out, int32_t cap,
                       int32_t *len, double *cost)
{
    return (int32_t)tn_field_path(field, (tn_cell){sx, sy}, out, cap, len, cost);
}

int32_t tnw_field_would_wall_off(tn_field *field, const tn_cell *cells, int32_t ncells,
                                 const tn_cell *spawns, int32_t nspawns, int32_t *cut)
{
    bool c = false;
    tn_status st = tn_field_would_wall_off(field, cells, ncells, spawns, nspawns, &c);
    if (cut)
        *cut = c ? 1 : 0;
    return (int32_t)st;
}

int32_t tnw_field_reachable_count(const tn_field *field)
{
    return tn_field_reachable_count(field);
}

/* ---- clearance: units bigger than one cell -------------------------------------------- */

TNW_EXPORT(tnw_clearance_create)
tn_clearance *tnw_clearance_create(const tn_map *map, int32_t max_size, int32_t size_maps,
                                   int32_t *status);
TNW_EXPORT(tnw_clearance_destroy) void tnw_clearance_destroy(tn_clearance *cl);
TNW_EXPORT(tnw_clearance_update) int32_t tnw_clearance_update(tn_clearance *cl);
TNW_EXPORT(tnw_clearance_data) const uint8_t *tnw_clearance_data(const tn_clearance *cl);
TNW_EXPORT(tnw_clearance_map)
const tn_map *tnw_clearance_map(const tn_clearance *cl, int32_t size);
TNW_EXPORT(tnw_clearance_anchors_over)
int32_t tnw_clearance_anchors_over(const tn_clearance *cl, int32_t size, const tn_cell *cells,
                                   int32_t count, tn_cell *out, int32_t cap, int32_t *out_count);

/* The clearance of `map` for sizes up to max_size (1..255), with the size maps of sizes
 * 2..max_size when `size_maps` is not 0 (5 bytes per cell each). */
tn_clearance *tnw_clearance_create(const tn_map *map, int32_t max_size, int32_t size_maps,
                                   int32_t *status)
{
    tn_clearance_def def = tn_clearance_def_default();
    def.map = map;
    def.max_size = max_size;
    def.size_maps = size_maps != 0;
    tn_clearance *cl = NULL;
    tn_status st = tn_clearance_create(&def, &cl);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? cl : NULL;
}

void tnw_clearance_destroy(tn_clearance *cl)
{
    tn_clearance_destroy(cl);
}

/* Bring the clearance and its size maps up to date with the map's edits; returns the number of
 * cells recomputed or an error. */
int32_t tnw_clearance_update(tn_clearance *cl)
{
    int32_t touched = 0;
    tn_status st = tn_clearance_update(cl, &touched);
    return st == TN_OK ? touched : (int32_t)st;
}

const uint8_t *tnw_clearance_data(const tn_clearance *cl)
{
    return tn_clearance_data(cl);
}

/* The map a unit of `size` moves on (NULL outside 1..max_size). */
const tn_map *tnw_clearance_map(const tn_clearance *cl, int32_t size)
{
    return tn_clearance_map(cl, size);
}

int32_t tnw_clearance_anchors_over(const tn_clearance *cl, int32_t size, const tn_cell *cells,
                                   int32_t count, tn_cell *out, int32_t cap, int32_t *out_count)
{
    return (int32_t)tn_clearance_anchors_over(cl, size, cells, count, out, cap, out_count);
}

/* ---- regions: "is it reachable at all?" in O(1) ---------------------------------------- */

TNW_EXPORT(tnw_regions_create)
tn_regions *tnw_regions_create(const tn_map *map, int32_t diagonal, int32_t max_size,
                               int32_t *status);
TNW_EXPORT(tnw_regions_destroy) void tnw_regions_destroy(tn_regions *rg);
TNW_EXPORT(tnw_regions_update) int32_t tnw_regions_update(tn_regions *rg);
TNW_EXPORT(tnw_regions_id)
int32_t tnw_regions_id(const tn_regions *rg, int32_t size, int32_t x, int32_t y);
TNW_EXPORT(tnw_regions_count) int32_t tnw_regions_count(const tn_regions *rg, int32_t size);
TNW_EXPORT(tnw_regions_connected)
int32_t tnw_regions_connected(const tn_regions *rg, int32_t size, int32_t ax, int32_t ay,
                              int32_t bx, int32_t by);
TNW_EXPORT(tnw_regions_grid)
int32_t tnw_regions_grid(const tn_regions *rg, int32_t size, int32_t *out, int32_t cap);
TNW_EXPORT(tnw_regions_memory) double tnw_regions_memory(const tn_regions *rg);
TNW_EXPORT(tnw_regions_stats) void tnw_regions_stats(const tn_regions *rg, double *out);

/* The regions of `map` under `diagonal` (a tn_diagonal) for sizes 1..max_size (1..255). */
tn_regions *tnw_regions_create(const tn_map *map, int32_t diagonal, int32_t max_size,
                               int32_t *status)
{
    tn_regions_def def = tn_regions_def_default();
    def.map = map;
    def.diagonal = (tn_diagonal)diagonal;
    def.max_size = max_size;
    def.size_maps = false; /* the map keeps its own clearance for sized queries (tnw_clearance) */
    tn_regions *rg = NULL;
    tn_status st = tn_regions_create(&def, &rg);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? rg : NULL;
}

void tnw_regions_destroy(tn_regions *rg)
{
    tn_regions_destroy(rg);
}

/* Bring the regions up to date with the map's edits; returns the cells looked at or an error. */
int32_t tnw_regions_update(tn_regions *rg)
{
    int32_t relabelled = 0;
    tn_status st = tn_regions_update(rg, &relabelled);
    return st == TN_OK ? relabelled : (int32_t)st;
}

int32_t tnw_regions_id(const tn_regions *rg, int32_t size, int32_t x, int32_t y)
{
    return tn_regions_id(rg, size, x, y);
}

int32_t tnw_regions_count(const tn_regions *rg, int32_t size)
{
    return tn_regions_count(rg, size);
}

int32_t tnw_regions_connected(const tn_regions *rg, int32_t size, int32_t ax, int32_t ay,
                              int32_t bx, int32_t by)
{
    return tn_regions_connected(rg, size, (tn_cell){ax, ay}, (tn_cell){bx, by}) ? 1 : 0;
}

/* Every cell's region id for `size` (-1 where the unit does not fit), row-major, into `out`
 * (cap >= W*H); returns W*H or TN_E_BUFFER_TOO_SMALL. */
int32_t tnw_regions_grid(const tn_regions *rg, int32_t size, int32_t *out, int32_t cap)
{
    const tn_map *map = tn_regions_map(rg);
    const int32_t w = tn_map_width(map), h = tn_map_height(map);
    if (cap < w * h)
        return TN_E_BUFFER_TOO_SMALL;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            out[y * w + x] = tn_regions_id(rg, size, x, y);
    return w * h;
}

double tnw_regions_memory(const tn_regions *rg)
{
    return (double)tn_regions_memory_bytes(rg);
}

/* out[0]: size classes relabelled in full since creation, out[1]: relabelled locally. */
void tnw_regions_stats(const tn_regions *rg, double *out)
{
    int64_t full = 0, local = 0;
    tn_regions_stats(rg, &full, &local);
    out[0] = (double)full;
    out[1] = (double)local;
}

/* ---- hierarchy (HPA*) and sector flow fields: huge maps -------------------------------- */

/* Result of tnw_hier_path, at fixed offsets for the JavaScript side (see tilenav.mjs). */
typedef struct tnw_hier_result {
    int32_t length;  /* 0: cells in the path, or the buffer length needed */
    int32_t refined; /* 4: sector searches run to refine the route */
    int32_t proven;  /* 8: exact mode: the fast path was proven optimal */
    int32_t pad;     /* 12 */
    double cost;     /* 16 */
    double expanded; /* 24 */
} tnw_hier_result;

_Static_assert(sizeof(tnw_hier_result) == 32, "layout shared with tilenav.mjs");

TNW_EXPORT(tnw_hier_create)
tn_hierarchy *tnw_hier_create(const tn_map *map, int32_t diagonal, int32_t costs_10_14,
                              int32_t sector_size, int32_t portal_gap, int32_t landmarks,
                              int32_t *status);
TNW_EXPORT(tnw_hier_destroy) void tnw_hier_destroy(tn_hierarchy *h);
TNW_EXPORT(tnw_hier_update) int32_t tnw_hier_update(tn_hierarchy *h);
TNW_EXPORT(tnw_hier_refresh_landmarks) int32_t tnw_hier_refresh_landmarks(tn_hierarchy *h);
TNW_EXPORT(tnw_hier_memory) double tnw_hier_memory(const tn_hierarchy *h);
TNW_EXPORT(tnw_hier_stats) void tnw_hier_stats(const tn_hierarchy *h, double *out);
TNW_EXPORT(tnw_hier_crossing_bound) double tnw_hier_crossing_bound(const tn_hierarchy *h);
TNW_EXPORT(tnw_hier_sector_of)
int32_t tnw_hier_sector_of(const tn_hierarchy *h, int32_t x, int32_t y);
TNW_EXPORT(tnw_hier_ctx_create)
tn_hierarchy_ctx *tnw_hier_ctx_create(float weight, int32_t *status);
TNW_EXPORT(tnw_hier_ctx_destroy) void tnw_hier_ctx_destroy(tn_hierarchy_ctx *ctx);
TNW_EXPORT(tnw_hier_ctx_memory) double tnw_hier_ctx_memory(const tn_hierarchy_ctx *ctx);
TNW_EXPORT(tnw_hier_path)
int32_t tnw_hier_path(tn_hierarchy_ctx *ctx, const tn_hierarchy *h, int32_t sx, int32_t sy,
                      int32_t gx, int32_t gy, int32_t exact, tn_cell *out, int32_t cap,
                      tnw_hier_result *res);

/* The hierarchy of `map` (a TileMap's map, or a clearance's size map for bigger units) under
 * `diagonal` (TN_DIAGONAL_NO_CUT or NEVER; others give TN_E_UNSUPPORTED). */
tn_hierarchy *tnw_hier_create(const tn_map *map, int32_t diagonal, int32_t costs_10_14,
                              int32_t sector_size, int32_t portal_gap, int32_t landmarks,
                              int32_t *status)
{
    tn_hierarchy_def def = tn_hierarchy_def_default();
    def.map = map;
    def.moves.diagonal = (tn_diagonal)diagonal;
    def.moves.costs = costs_10_14 ? TN_COSTS_10_14 : TN_COSTS_EXACT;
    def.sector_size = sector_size;
    def.portal_gap = portal_gap;
    def.landmarks = landmarks;
    tn_hierarchy *h = NULL;
    tn_status st = tn_hierarchy_build(&def, &h);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? h : NULL;
}

void tnw_hier_destroy(tn_hierarchy *h)
{
    tn_hierarchy_destroy(h);
}

/* Bring the hierarchy up to date with the map; returns the sectors changed or an error. */
int32_t tnw_hier_update(tn_hierarchy *h)
{
    int32_t sectors = 0;
    tn_status st = tn_hierarchy_update(h, &sectors);
    return st == TN_OK ? sectors : (int32_t)st;
}

int32_t tnw_hier_refresh_landmarks(tn_hierarchy *h)
{
    return (int32_t)tn_hierarchy_refresh_landmarks(h);
}

double tnw_hier_memory(const tn_hierarchy *h)
{
    return (double)tn_hierarchy_memory_bytes(h);
}

/* out[0..9) = sectors_x, sectors_y, nodes, intra_edges, inter_edges, sectors_rebuilt,
 * landmarks, landmarks_current (0/1), parts (-1: unknown since an update). */
void tnw_hier_stats(const tn_hierarchy *h, double *out)
{
    tn_hierarchy_stats s;
    tn_hierarchy_stats_get(h, &s);
    out[0] = (double)s.sectors_x;
    out[1] = (double)s.sectors_y;
    out[2] = (double)s.nodes;
    out[3] = (double)s.intra_edges;
    out[4] = (double)s.inter_edges;
    out[5] = (double)s.sectors_rebuilt;
    out[6] = (double)s.landmarks;
    out[7] = s.landmarks_current ? 1.0 : 0.0;
    out[8] = (double)s.parts;
}

double tnw_hier_crossing_bound(const tn_hierarchy *h)
{
    return tn_hierarchy_crossing_bound(h);
}

int32_t tnw_hier_sector_of(const tn_hierarchy *h, int32_t x, int32_t y)
{
    return tn_hierarchy_sector_of(h, (tn_cell){x, y});
}

/* A query context whose abstract search uses heuristic weight `weight` (>= 1). */
tn_hierarchy_ctx *tnw_hier_ctx_create(float weight, int32_t *status)
{
    tn_hierarchy_ctx_def def = tn_hierarchy_ctx_def_default();
    def.weight = weight;
    tn_hierarchy_ctx *ctx = NULL;
    tn_status st = tn_hierarchy_ctx_create(&def, &ctx);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? ctx : NULL;
}

void tnw_hier_ctx_destroy(tn_hierarchy_ctx *ctx)
{
    tn_hierarchy_ctx_destroy(ctx);
}

double tnw_hier_ctx_memory(const tn_hierarchy_ctx *ctx)
{
    return (double)tn_hierarchy_ctx_memory_bytes(ctx);
}

/* One query, fast (exact == 0) or exact. TN_E_BUFFER_TOO_SMALL leaves the length needed in
 * res->length. */
int32_t tnw_hier_path(tn_hierarchy_ctx *ctx, const tn_hierarchy *h, int32_t sx, int32_t sy,
                      int32_t gx, int32_t gy, int32_t exact, tn_cell *out, int32_t cap,
                      tnw_hier_result *res)
{
    tn_hierarchy_result r;
    memset(&r, 0, sizeof r);
    tn_status st = tn_hierarchy_path(ctx, h, (tn_cell){sx, sy}, (tn_cell){gx, gy},
                                     exact ? TN_HIERARCHY_EXACT : TN_HIERARCHY_FAST, out, cap, &r);
    if (res) {
        res->length = r.length;
        res->refined = r.refined;
        res->proven = r.proven ? 1 : 0;
        res->pad = 0;
        res->cost = r.cost;
        res->expanded = (double)r.expanded;
    }
    return (int32_t)st;
}

TNW_EXPORT(tnw_sfield_create)
tn_sector_field *tnw_sfield_create(const tn_hierarchy *h, double budget, int32_t *status);
TNW_EXPORT(tnw_sfield_destroy) void tnw_sfield_destroy(tn_sector_field *f);
TNW_EXPORT(tnw_sfield_set_goal)
int32_t tnw_sfield_set_goal(tn_sector_field *f, const tn_cell *goals, int32_t count);
TNW_EXPORT(tnw_sfield_dir)
int32_t tnw_sfield_dir(tn_sector_field *f, int32_t x, int32_t y, int32_t *dir, float *cost);
TNW_EXPORT(tnw_sfield_dirs)
int32_t tnw_sfield_dirs(tn_sector_field *f, int32_t x0, int32_t y0, int32_t w, int32_t h,
                        int8_t *dirs, float *costs);
TNW_EXPORT(tnw_sfield_path)
int32_t tnw_sfield_path(tn_sector_field *f, int32_t sx, int32_t sy, tn_cell *out, int32_t cap,
                        int32_t *len, double *cost);
TNW_EXPORT(tnw_sfield_memory) double tnw_sfield_memory(const tn_sector_field *f);
TNW_EXPORT(tnw_sfield_stats) void tnw_sfield_stats(const tn_sector_field *f, double *out);

/* A sector field on `h` keeping at most `budget` bytes of tiles (0: the 4 MiB default). */
tn_sector_field *tnw_sfield_create(const tn_hierarchy *h, double budget, int32_t *status)
{
    tn_sector_field_def def = tn_sector_field_def_default();
    def.hierarchy = h;
    tn_status st = TN_OK;
    if (!(budget >= 0.0 && budget <= 4294967295.0))
        st = TN_E_INVALID_ARG;
    def.memory_budget = st == TN_OK ? (size_t)budget : 0u;
    tn_sector_field *f = NULL;
    if (st == TN_OK)
        st = tn_sector_field_create(&def, &f);
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? f : NULL;
}

void tnw_sfield_destroy(tn_sector_field *f)
{
    tn_sector_field_destroy(f);
}

int32_t tnw_sfield_set_goal(tn_sector_field *f, const tn_cell *goals, int32_t count)
{
    return (int32_t)tn_sector_field_set_goal(f, goals, count);
}

int32_t tnw_sfield_dir(tn_sector_field *f, int32_t x, int32_t y, int32_t *dir, float *cost)
{
    return (int32_t)tn_sector_field_dir(f, (tn_cell){x, y}, dir, cost);
}

/* The directions (-1 none) and costs (INFINITY none) of the w x h cells from (x0, y0), row-major:
 * builds the tiles they need. Returns TN_OK or the first error other than "no path". */
int32_t tnw_sfield_dirs(tn_sector_field *f, int32_t x0, int32_t y0, int32_t w, int32_t h,
                        int8_t *dirs, float *costs)
{
    if (!f || !dirs || !costs || w < 0 || h < 0)
        return TN_E_INVALID_ARG;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t d = TN_DIR_NONE;
            float c = (float)INFINITY;
            tn_status st = tn_sector_field_dir(f, (tn_cell){x0 + x, y0 + y}, &d, &c);
            if (st != TN_OK && st != TN_NO_PATH)
                return (int32_t)st;
            dirs[(size_t)y * (size_t)w + (size_t)x] = (int8_t)d;
            costs[(size_t)y * (size_t)w + (size_t)x] = st == TN_OK ? c : (float)INFINITY;
        }
    return TN_OK;
}

int32_t tnw_sfield_path(tn_sector_field *f, int32_t sx, int32_t sy, tn_cell *out, int32_t cap,
                        int32_t *len, double *cost)
{
    return (int32_t)tn_sector_field_path(f, (tn_cell){sx, sy}, out, cap, len, cost);
}

double tnw_sfield_memory(const tn_sector_field *f)
{
    return (double)tn_sector_field_memory_bytes(f);
}

/* out[0..8) = goals, nodes_reached, tiles_kept, tiles_max, tiles_built, tiles_evicted,
 * tile_bytes, memory bytes. */
void tnw_sfield_stats(const tn_sector_field *f, double *out)
{
    tn_sector_field_stats s;
    tn_sector_field_stats_get(f, &s);
    out[0] = (double)s.goals;
    out[1] = (double)s.nodes_reached;
    out[2] = (double)s.tiles_kept;
    out[3] = (double)s.tiles_max;
    out[4] = (double)s.tiles_built;
    out[5] = (double)s.tiles_evicted;
    out[6] = (double)s.tile_bytes;
    out[7] = (double)tn_sector_field_memory_bytes(f);
}

/* ---- crowds --------------------------------------------------------------------------- */

/* A crowd plus the direction/LOS arrays of its flow views (the views reference them). */
typedef struct tnw_crowd {
    tn_crowd *crowd;
    const tn_map *map;
    int32_t cells;
    int32_t max_flows;
    tn_vec2 *dirs[TN_CROWD_MAX_FLOWS];
    uint8_t *los[TN_CROWD_MAX_FLOWS];
} tnw_crowd;

TNW_EXPORT(tnw_crowd_create)
tnw_crowd *tnw_crowd_create(const tn_map *map, int32_t capacity, float dt, double seed,
                            int32_t push_apart, float neighbour_radius, const int32_t *iopt,
                            const float *fopt, int32_t *status);
TNW_EXPORT(tnw_crowd_destroy) void tnw_crowd_destroy(tnw_crowd *c);
TNW_EXPORT(tnw_crowd_set_flow)
int32_t tnw_crowd_set_flow(tnw_crowd *c, int32_t slot, const tn_field *field, int32_t gx,
                           int32_t gy);
TNW_EXPORT(tnw_crowd_set_sector_flow)
int32_t tnw_crowd_set_sector_flow(tnw_crowd *c, int32_t slot, const tn_sector_field *field,
                                  int32_t gx, int32_t gy);
TNW_EXPORT(tnw_crowd_step_sectors)
int32_t tnw_crowd_step_sectors(tnw_crowd *c, int32_t steps, tn_sector_field *const *fields,
                               const int32_t *slots, int32_t count, int32_t *failed);
TNW_EXPORT(tnw_crowd_add)
uint32_t tnw_crowd_add(tnw_crowd *c, float x, float y, float radius, float max_speed,
                       float max_force, int32_t target, float tx, float ty, int32_t flow,
                       int32_t size, const float *arriving, const float *weights,
                       int32_t weight_mask, int32_t *status);
TNW_EXPORT(tnw_crowd_remove) int32_t tnw_crowd_remove(tnw_crowd *c, uint32_t id);
TNW_EXPORT(tnw_crowd_set_target)
int32_t tnw_crowd_set_target(tnw_crowd *c, uint32_t id, int32_t kind, float x, float y,
                             int32_t flow);
TNW_EXPORT(tnw_crowd_set_weight)
int32_t tnw_crowd_set_weight(tnw_crowd *c, uint32_t id, int32_t behaviour, float weight);
TNW_EXPORT(tnw_crowd_step) int32_t tnw_crowd_step(tnw_crowd *c, int32_t steps);
TNW_EXPORT(tnw_crowd_count) int32_t tnw_crowd_count(const tnw_crowd *c);
TNW_EXPORT(tnw_crowd_read)
int32_t tnw_crowd_read(const tnw_crowd *c, uint32_t *ids, float *state, int32_t cap);
TNW_EXPORT(tnw_crowd_max_wall_overlap) float tnw_crowd_max_wall_overlap(const tnw_crowd *c);
TNW_EXPORT(tnw_crowd_hash) int32_t tnw_crowd_hash(const tnw_crowd *c, uint32_t *halves);

/* The crowd's tuning knobs, each left to tn_crowd_def_default() when unset (INT32_MIN, NaN):
 * iopt = max_neighbours, max_scan, dense_neighbours, combine, max_flows, period[7];
 * fopt = similar_goal_distance, avoid_look_ahead, wall_look_ahead, wander distance, radius
 * and jitter, flock_brake. Either may be NULL (all unset). */
enum { TNW_CROWD_IOPTS = 5 + TN_BEHAVIOUR_COUNT, TNW_CROWD_FOPTS = 7 };

static void crowd_options(tn_crowd_def *def, const int32_t *iopt, const float *fopt)
{
    int32_t *ints[TNW_CROWD_IOPTS] = {&def->max_neighbours, &def->max_scan, &def->dense_neighbours,
                                      NULL, &def->max_flows};
    for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
        ints[5 + b] = &def->period[b];
    float *floats[TNW_CROWD_FOPTS] = {&def->similar_goal_distance,
                                      &def->avoid_look_ahead,
                                      &def->wall_look_ahead,
                                      &def->wander.distance,
                                      &def->wander.radius,
                                      &def->wander.jitter,
                                      &def->flock_brake};
    for (int k = 0; iopt && k < TNW_CROWD_IOPTS; k++)
        if (iopt[k] != INT32_MIN) {
            if (ints[k])
                *ints[k] = iopt[k];
            else
                def->combine = iopt[k] == 1 ? TN_COMBINE_PRIORITIZED : TN_COMBINE_WEIGHTED;
        }
    for (int k = 0; fopt && k < TNW_CROWD_FOPTS; k++)
        if (!isnan(fopt[k]))
            *floats[k] = fopt[k];
}

tnw_crowd *tnw_crowd_create(const tn_map *map, int32_t capacity, float dt, double seed,
                            int32_t push_apart, float neighbour_radius, const int32_t *iopt,
                            const float *fopt, int32_t *status)
{
    tn_status st = TN_OK;
    tnw_crowd *c = NULL;
    if (!map || !(seed >= 0.0 && seed < 18446744073709551616.0)) {
        st = TN_E_INVALID_ARG;
        goto done;
    }
    c = calloc(1, sizeof *c);
    if (!c) {
        st = TN_E_NOMEM;
        goto done;
    }
    tn_crowd_def def = tn_crowd_def_default();
    def.map = map;
    def.capacity = capacity;
    if (dt > 0.0f)
        def.dt = dt;
    if (neighbour_radius > 0.0f)
        def.neighbour_radius = neighbour_radius;
    def.seed = (uint64_t)seed;
    def.push_apart = push_apart != 0;
    crowd_options(&def, iopt, fopt);
    c->map = map;
    c->cells = tn_map_width(map) * tn_map_height(map);
    c->max_flows = def.max_flows;
    st = tn_crowd_create(&def, &c->crowd);
done:
    if (st != TN_OK && c) {
        free(c);
        c = NULL;
    }
    if (status)
        *status = (int32_t)st;
    return c;
}

void tnw_crowd_destroy(tnw_crowd *c)
{
    if (!c)
        return;
    tn_crowd_destroy(c->crowd);
    for (int32_t i = 0; i < TN_CROWD_MAX_FLOWS; i++) {
        free(c->dirs[i]);
        free(c->los[i]);
    }
    free(c);
}

/* Point flow slot `slot` at a built field whose goal is cell (gx, gy); call again after the
 * field is rebuilt or updated (the crowd reads copies of its vectors). */
int32_t tnw_crowd_set_flow(tnw_crowd *c, int32_t slot, const tn_field *field, int32_t gx,
                           int32_t gy)
{
    if (!c || slot < 0 || slot >= c->max_flows)
        return TN_E_INVALID_ARG;
    if (!field)
        return (int32_t)tn_crowd_set_flow(c->crowd, slot, NULL);
    size_t n = (size_t)c->cells;
    if (!c->dirs[slot]) {
        c->dirs[slot] = malloc(n * sizeof(tn_vec2));
        c->los[slot] = malloc(n);
        if (!c->dirs[slot] || !c->los[slot]) {
            free(c->dirs[slot]);
            free(c->los[slot]);
            c->dirs[slot] = NULL;
            c->los[slot] = NULL;
            return TN_E_NOMEM;
        }
    }
    tn_flow_view view;
    tn_status st = tn_flow_view_from_field(field, c->map, (tn_cell){gx, gy}, c->dirs[slot],
                                           c->los[slot], (int32_t)n, &view);
    if (st != TN_OK)
        return (int32_t)st;
    return (int32_t)tn_crowd_set_flow(c->crowd, slot, &view);
}

/* Point flow slot `slot` at a sector field aimed at (gx, gy) (its first goal): the crowd reads
 * the tiles that tnw_crowd_step_sectors builds before each step. */
int32_t tnw_crowd_set_sector_flow(tnw_crowd *c, int32_t slot, const tn_sector_field *field,
                                  int32_t gx, int32_t gy)
{
    if (!c || !field || slot < 0 || slot >= c->max_flows)
        return TN_E_INVALID_ARG;
    tn_flow_view view;
    tn_status st = tn_flow_view_from_sector_field(field, c->map, (tn_cell){gx, gy}, &view);
    if (st != TN_OK)
        return (int32_t)st;
    return (int32_t)tn_crowd_set_flow(c->crowd, slot, &view);
}

/* `steps` steps; before each, the tiles of `fields[k]` under the agents following `slots[k]`
 * (k < count) are built. Returns TN_OK or the first error (TN_E_FULL: a field's budget cannot
 * hold the tiles its agents stand on; *failed receives that k, else -1). */
int32_t tnw_crowd_step_sectors(tnw_crowd *c, int32_t steps, tn_sector_field *const *fields,
                               const int32_t *slots, int32_t count, int32_t *failed)
{
    if (failed)
        *failed = -1;
    if (!c || steps < 0 || count < 0 || (count > 0 && (!fields || !slots)))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < steps; i++) {
        for (int32_t k = 0; k < count; k++) {
            tn_status st = tn_crowd_prepare_sector_field(c->crowd, slots[k], fields[k], NULL);
            if (st != TN_OK) {
                if (failed)
                    *failed = k;
                return (int32_t)st;
            }
        }
        tn_status st = tn_crowd_step(c->crowd);
        if (st != TN_OK)
            return (int32_t)st;
    }
    return TN_OK;
}

/* Add an agent (radius, speed, force, size <= 0 keep the defaults). An agent of size n (an n x n
 * unit) follows flow slots filled from fields built on the size-n map. `arriving` (or NULL):
 * slow_radius, arrive_radius, arrive_area, each < 0 for the default; weights[b] replaces the
 * default weight of behaviour b where bit b of `weight_mask` is set. Returns its id, 0 on
 * error. */
uint32_t tnw_crowd_add(tnw_crowd *c, float x, float y, float radius, float max_speed,
                       float max_force, int32_t target, float tx, float ty, int32_t flow,
                       int32_t size, const float *arriving, const float *weights,
                       int32_t weight_mask, int32_t *status)
{
    tn_agent_id id = {0};
    tn_status st = TN_E_INVALID_ARG;
    if (c) {
        tn_agent_def d = tn_agent_def_default();
        d.pos = (tn_vec2){x, y};
        if (radius > 0.0f)
            d.radius = radius;
        if (max_speed > 0.0f)
            d.max_speed = max_speed;
        if (max_force > 0.0f)
            d.max_force = max_force;
        d.target = (tn_target_kind)target;
        d.target_pos = (tn_vec2){tx, ty};
        d.flow = flow;
        if (size > 0)
            d.size = size;
        if (arriving) {
            if (!(arriving[0] < 0.0f))
                d.slow_radius = arriving[0];
            if (!(arriving[1] < 0.0f))
                d.arrive_radius = arriving[1];
            if (!(arriving[2] < 0.0f))
                d.arrive_area = arriving[2];
        }
        for (int32_t b = 0; b < TN_BEHAVIOUR_COUNT; b++)
            if (weights && (weight_mask >> b & 1))
                d.weights[b] = weights[b];
        st = tn_crowd_add(c->crowd, &d, &id);
    }
    if (status)
        *status = (int32_t)st;
    return st == TN_OK ? id.id : 0u;
}

int32_t tnw_crowd_remove(tnw_crowd *c, uint32_t id)
{
    if (!c)
        return TN_E_INVALID_ARG;
    return (int32_t)tn_crowd_remove(c->crowd, (tn_agent_id){id});
}

int32_t tnw_crowd_set_target(tnw_crowd *c, uint32_t id, int32_t kind, float x, float y,
                             int32_t flow)
{
    if (!c)
        return TN_E_INVALID_ARG;
    return (int32_t)tn_crowd_set_target(c->crowd, (tn_agent_id){id}, (tn_target_kind)kind,
                                        (tn_vec2){x, y}, flow);
}

int32_t tnw_crowd_set_weight(tnw_crowd *c, uint32_t id, int32_t behaviour, float weight)
{
    if (!c)
        return TN_E_INVALID_ARG;
    return (int32_t)tn_crowd_set_weight(c->crowd, (tn_agent_id){id}, (tn_behaviour)behaviour,
                                        weight);
}

int32_t tnw_crowd_step(tnw_crowd *c, int32_t steps)
{
    if (!c || steps < 0)
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < steps; i++) {
        tn_status st = tn_crowd_step(c->crowd);
        if (st != TN_OK)
            return (int32_t)st;
    }
    return TN_OK;
}

int32_t tnw_crowd_count(const tnw_crowd *c)
{
    return c ? tn_crowd_count(c->crowd) : 0;
}

/* Number of floats per agent written by tnw_crowd_read. */
#define TNW_AGENT_FLOATS 7

/* Read every live agent: ids[i] and state[7*i ..] = x, y, vx, vy, heading, radius, arrived
 * (0 no, 1 within its arrive radius, 2 held in its goal area). Returns the number of agents
 * written (at most cap) or an error. */
int32_t tnw_crowd_read(const tnw_crowd *c, uint32_t *ids, float *state, int32_t cap)
{
    if (!c || !ids || !state || cap < 0)
        return TN_E_INVALID_ARG;
    int32_t n = tn_crowd_count(c->crowd);
    if (n > cap)
        n = cap;
    for (int32_t i = 0; i < n; i++) {
        tn_agent_id id = tn_crowd_agent_at(c->crowd, i);
        tn_agent_state s;
        tn_status st = tn_crowd_get(c->crowd, id, &s);
        if (st != TN_OK)
            return (int32_t)st;
        float *o = state + (size_t)i * TNW_AGENT_FLOATS;
        ids[i] = id.id;
        o[0] = s.pos.x;
        o[1] = s.pos.y;
        o[2] = s.vel.x;
        o[3] = s.vel.y;
        o[4] = s.heading;
        o[5] = s.radius;
        o[6] = s.held ? 2.0f : s.arrived ? 1.0f : 0.0f;
    }
    return n;
}

/* tn_crowd_hash() as two 32-bit halves, low first (a JavaScript BigInt is made of them). */
int32_t tnw_crowd_hash(const tnw_crowd *c, uint32_t *halves)
{
    if (!c || !halves)
        return TN_E_INVALID_ARG;
    uint64_t h = tn_crowd_hash(c->crowd);
    halves[0] = (uint32_t)h;
    halves[1] = (uint32_t)(h >> 32);
    return TN_OK;
}

float tnw_crowd_max_wall_overlap(const tnw_crowd *c)
{
    return c ? tn_crowd_max_wall_overlap(c->crowd) : 0.0f;
}

/* ---- marbles (book ch. 7: circles bouncing in a spatial grid) ---------------------------- */

typedef struct tnw_marbles {
    tn_marble *m; /* x, y, vx, vy, r as doubles: read directly by tilenav.mjs */
    tn_bp_id *ids;
    tn_bp *bp;
    tn_bp_pair *scratch;
    int64_t scratch_cap;
    int32_t n, cap;
    tn_marbles_def p;
    tn_marbles_stats last;
} tnw_marbles;

TNW_EXPORT(tnw_marbles_create)
tnw_marbles *tnw_marbles_create(const tn_map *map, double world_w, double world_h, int32_t capacity,
                                double restitution, int32_t *status);
TNW_EXPORT(tnw_marbles_destroy) void tnw_marbles_destroy(tnw_marbles *w);
TNW_EXPORT(tnw_marbles_add)
int32_t tnw_marbles_add(tnw_marbles *w, double x, double y, double vx, double vy, double r);
TNW_EXPORT(tnw_marbles_set_velocity)
int32_t tnw_marbles_set_velocity(tnw_marbles *w, int32_t i, double vx, double vy);
TNW_EXPORT(tnw_marbles_step) int32_t tnw_marbles_step(tnw_marbles *w, int32_t steps);
TNW_EXPORT(tnw_marbles_data) const tn_marble *tnw_marbles_data(const tnw_marbles *w);
TNW_EXPORT(tnw_marbles_count) int32_t tnw_marbles_count(const tnw_marbles *w);
TNW_EXPORT(tnw_marbles_energy) double tnw_marbles_energy(const tnw_marbles *w);
TNW_EXPORT(tnw_marbles_contacts) double tnw_marbles_contacts(const tnw_marbles *w);

/* Marbles in a world_w x world_h box, bouncing off the impassable cells of `map` (may be NULL),
 * found by a sort-and-sweep broad phase. */
tnw_marbles *tnw_marbles_create(const tn_map *map, double world_w, double world_h, int32_t capacity,
                                double restitution, int32_t *status)
{
    tn_status st = TN_OK;
    tnw_marbles *w = NULL;
    if (!(world_w > 0.0 && world_h > 0.0 && restitution >= 0.0 && restitution <= 1.0) ||
        capacity < 1 || capacity > 65536) {
        st = TN_E_INVALID_ARG;
        goto done;
    }
    w = calloc(1, sizeof *w);
    if (!w) {
        st = TN_E_NOMEM;
        goto done;
    }
    w->cap = capacity;
    w->scratch_cap = (int64_t)capacity * 8;
    w->m = calloc((size_t)capacity, sizeof *w->m);
    w->ids = calloc((size_t)capacity, sizeof *w->ids);
    w->scratch = malloc((size_t)w->scratch_cap * sizeof *w->scratch);
    if (!w->m || !w->ids || !w->scratch) {
        st = TN_E_NOMEM;
        goto done;
    }
    tn_bp_def d = tn_bp_def_default();
    d.kind = TN_BP_SAP;
    d.capacity = capacity;
    st = tn_bp_create(&d, &w->bp);
    w->p = tn_marbles_def_default();
    w->p.restitution = restitution;
    w->p.world = (tn_box){0.0, 0.0, world_w, world_h};
    w->p.map = map;
done:
    if (st != TN_OK) {
        tnw_marbles_destroy(w);
        w = NULL;
    }
    if (status)
        *status = (int32_t)st;
    return w;
}

void tnw_marbles_destroy(tnw_marbles *w)
{
    if (!w)
        return;
    tn_bp_destroy(w->bp);
    free(w->m);
    free(w->ids);
    free(w->scratch);
    free(w);
}

/* Add a marble; returns its index (marbles are never removed) or an error. The circle must lie
 * inside the world and off the walls. */
int32_t tnw_marbles_add(tnw_marbles *w, double x, double y, double vx, double vy, double r)
{
    if (!w || !(r > 0.0) || !isfinite(x) || !isfinite(y) || !isfinite(vx) || !isfinite(vy))
        return TN_E_INVALID_ARG;
    if (w->n >= w->cap)
        return TN_E_FULL;
    if (x - r < w->p.world.x0 || y - r < w->p.world.y0 || x + r > w->p.world.x1 ||
        y + r > w->p.world.y1)
        return TN_E_OUT_OF_MAP;
    if (w->p.map) { /* every cell the circle's box touches must be passable */
        tn_cell a, b;
        (void)tn_map_cell_at_px(w->p.map, (float)(x - r), (float)(y - r), &a);
        (void)tn_map_cell_at_px(w->p.map, (float)(x + r), (float)(y + r), &b);
        for (int32_t cy = a.y; cy <= b.y; cy++)
            for (int32_t cx = a.x; cx <= b.x; cx++)
                if (!tn_map_passable(w->p.map, cx, cy))
                    return TN_E_INVALID_ARG;
    }
    tn_box box = {x - r, y - r, x + r, y + r};
    tn_status st = tn_bp_insert(w->bp, box, (uint32_t)w->n, &w->ids[w->n]);
    if (st != TN_OK)
        return (int32_t)st;
    w->m[w->n] = (tn_marble){x, y, vx, vy, r};
    return w->n++;
}

int32_t tnw_marbles_set_velocity(tnw_marbles *w, int32_t i, double vx, double vy)
{
    if (!w || i < 0 || i >= w->n || !isfinite(vx) || !isfinite(vy))
        return TN_E_INVALID_ARG;
    w->m[i].vx = vx;
    w->m[i].vy = vy;
    return TN_OK;
}

/* Advance `steps` steps (velocities are per step); the pair buffer grows when it is short. */
int32_t tnw_marbles_step(tnw_marbles *w, int32_t steps)
{
    if (!w || steps < 0)
        return TN_E_INVALID_ARG;
    for (int32_t s = 0; s < steps; s++) {
        for (;;) {
            tn_status st = tn_marbles_step(w->m, w->n, w->bp, w->ids, &w->p, w->scratch,
                                           w->scratch_cap, &w->last);
            if (st == TN_OK)
                break;
            if (st != TN_E_BUFFER_TOO_SMALL || w->scratch_cap > ((int64_t)1 << 24))
                return (int32_t)st;
            tn_bp_pair *bigger = realloc(w->scratch, (size_t)w->scratch_cap * 2 * sizeof *bigger);
            if (!bigger)
                return TN_E_NOMEM;
            w->scratch = bigger;
            w->scratch_cap *= 2;
        }
    }
    return TN_OK;
}

const tn_marble *tnw_marbles_data(const tnw_marbles *w)
{
    return w ? w->m : NULL;
}

int32_t tnw_marbles_count(const tnw_marbles *w)
{
    return w ? w->n : 0;
}

double tnw_marbles_energy(const tnw_marbles *w)
{
    return w ? tn_marbles_energy(w->m, w->n) : 0.0;
}

/* Contacts resolved in the last step. */
double tnw_marbles_contacts(const tnw_marbles *w)
{
    return w ? (double)w->last.contacts : 0.0;
}

/* ---- the AI car on an angle map (book ch. 7) --------------------------------------------- */

typedef struct tnw_car {
    tn_car car; /* pos.x, pos.y, vel.x, vel.y, rotation, speed ... read by tilenav.mjs */
    tn_car_def def;
    tn_dirmap *headings;
    tn_car_track track;
    tn_rng rng;
    float *friction;
} tnw_car;

/* tilenav.mjs reads these layouts directly. */
_Static_assert(sizeof(tn_marble) == 40 && offsetof(tn_marble, r) == 32, "marble layout");
_Static_assert(offsetof(tn_car, pos) == 0 && offsetof(tn_car, vel) == 8 &&
                   offsetof(tn_car, rotation) == 16 && offsetof(tn_car, speed) == 20 &&
                   offsetof(tn_car, friction) == 24,
               "car layout");

TNW_EXPORT(tnw_car_create)
tnw_car *tnw_car_create(int32_t w, int32_t h, float cell_w, float cell_h, const float *angles,
                        const float *friction, float x, float y, float rotation, int32_t jitter,
                        double seed, int32_t *status);
TNW_EXPORT(tnw_car_destroy) void tnw_car_destroy(tnw_car *c);
TNW_EXPORT(tnw_car_step) int32_t tnw_car_step(tnw_car *c, int32_t steps);
TNW_EXPORT(tnw_car_state) const tn_car *tnw_car_state(const tnw_car *c);

/* An AI car driven by a w x h angle map (degrees per cell) and friction map (per step), both
 * copied. */
tnw_car *tnw_car_create(int32_t w, int32_t h, float cell_w, float cell_h, const float *angles,
                        const float *friction, float x, float y, float rotation, int32_t jitter,
                        double seed, int32_t *status)
{
    tn_status st = TN_OK;
    tnw_car *c = NULL;
    if (w < 1 || h < 1 || w > TN_MAX_DIM || h > TN_MAX_DIM || (int64_t)w * h > TN_MAX_CELLS ||
        !angles || !friction || !(seed >= 0.0 && seed < 18446744073709551616.0) || jitter < 0 ||
        jitter > 180) {
        st = TN_E_INVALID_ARG;
        goto done;
    }
    c = calloc(1, sizeof *c);
    size_t n = (size_t)w * (size_t)h;
    tn_dirmap_def dd = tn_dirmap_def_default();
    dd.width = w;
    dd.height = h;
    if (c)
        c->friction = malloc(n * sizeof(float));
    if (!c || !c->friction || tn_dirmap_create(&dd, &c->headings) != TN_OK) {
        st = TN_E_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < n && st == TN_OK; i++)
        st = tn_dirmap_set(c->headings, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w),
                           angles[i]);
    if (st != TN_OK)
        goto done;
    memcpy(c->friction, friction, n * sizeof(float));
    c->track = (tn_car_track){c->headings, c->friction, cell_w, cell_h};
    c->def = tn_car_def_default();
    c->def.jitter_deg = jitter;
    c->rng = tn_rng_seed((uint64_t)seed);
    st = tn_car_init(&c->car, &c->def, (tn_vec2){x, y}, rotation);
done:
    if (st != TN_OK) {
        tnw_car_destroy(c);
        c = NULL;
    }
    if (status)
        *status = (int32_t)st;
    return c;
}

void tnw_car_destroy(tnw_car *c)
{
    if (!c)
        return;
    tn_dirmap_destroy(c->headings);
    free(c->friction);
    free(c);
}

int32_t tnw_car_step(tnw_car *c, int32_t steps)
{
    if (!c || steps < 0)
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < steps; i++) {
        tn_status st = tn_car_step(&c->car, &c->def, &c->track, &c->rng);
        if (st != TN_OK)
            return (int32_t)st;
    }
    return TN_OK;
}

const tn_car *tnw_car_state(const tnw_car *c)
{
    return c ? &c->car : NULL;
}

/* ---- tile collision and the grid wanderer (book ch. 3 and 6) ----------------------------- */

TNW_EXPORT(tnw_tile_move_box)
int32_t tnw_tile_move_box(const tn_map *map, float *box, float dx, float dy, uint32_t *flags);
TNW_EXPORT(tnw_tile_hit_blocked)
int32_t tnw_tile_hit_blocked(const tn_map *map, const float *box, int32_t points, int32_t *hit);

/* Move the box box[0..8) = x, y, w, h, area_x, area_y, area_w, area_h by (dx, dy) without
 * entering a blocked cell; box[0..2) receive the new position, *flags the TN_TILE_* flags. */
int32_t tnw_tile_move_box(const tn_map *map, float *box, float dx, float dy, uint32_t *flags)
{
    if (!box)
        return TN_E_INVALID_ARG;
    tn_tile_box b = {box[0], box[1], box[2], box[3], box[4], box[5], box[6], box[7]};
    tn_tile_box_move mv;
    tn_status st = tn_tile_move_box(map, &b, (tn_vec2){dx, dy}, &mv);
    if (st != TN_OK)
        return (int32_t)st;
    box[0] = b.x;
    box[1] = b.y;
    if (flags)
        *flags = mv.flags;
    return TN_OK;
}

/* The book's hitTestTile against walls: *hit = 1 when the point set (tn_tile_points) of the
 * box is in a blocked cell. */
int32_t tnw_tile_hit_blocked(const tn_map *map, const float *box, int32_t points, int32_t *hit)
{
    if (!box || !hit)
        return TN_E_INVALID_ARG;
    tn_tile_box b = {box[0], box[1], box[2], box[3], box[4], box[5], box[6], box[7]};
    tn_tile_hit h;
    tn_status st = tn_tile_hit_blocked(map, &b, (tn_tile_points)points, &h);
    if (st == TN_OK)
        *hit = h.hit ? 1 : 0;
    return (int32_t)st;
}

typedef struct tnw_wanderer {
    tn_grid_walker walker; /* pos at 0, cell at 8, dir at 16: read by tilenav.mjs */
    const tn_map *map;
    tn_rng rng;
} tnw_wanderer;

_Static_assert(offsetof(tn_grid_walker, pos) == 0 && offsetof(tn_grid_walker, cell) == 8 &&
                   offsetof(tn_grid_walker, dir) == 16,
               "walker layout");

TNW_EXPORT(tnw_wanderer_create)
tnw_wanderer *tnw_wanderer_create(const tn_map *map, int32_t cx, int32_t cy, float speed,
                                  double seed, int32_t *status);
TNW_EXPORT(tnw_wanderer_destroy) void tnw_wanderer_destroy(tnw_wanderer *w);
TNW_EXPORT(tnw_wanderer_step) int32_t tnw_wanderer_step(tnw_wanderer *w, int32_t steps);
TNW_EXPORT(tnw_wanderer_state) const tn_grid_walker *tnw_wanderer_state(const tnw_wanderer *w);

/* A sprite that wanders the rows and columns of `map` (the book's moving bombs). */
tnw_wanderer *tnw_wanderer_create(const tn_map *map, int32_t cx, int32_t cy, float speed,
                                  double seed, int32_t *status)
{
    tn_status st = TN_OK;
    tnw_wanderer *w = NULL;
    if (!(seed >= 0.0 && seed < 18446744073709551616.0)) {
        st = TN_E_INVALID_ARG;
        goto done;
    }
    w = calloc(1, sizeof *w);
    if (!w) {
        st = TN_E_NOMEM;
        goto done;
    }
    w->map = map;
    w->rng = tn_rng_seed((uint64_t)seed);
    st = tn_grid_walker_init(&w->walker, map, (tn_cell){cx, cy}, speed, NULL, 0);
done:
    if (st != TN_OK) {
        free(w);
        w = NULL;
    }
    if (status)
        *status = (int32_t)st;
    return w;
}

void tnw_wanderer_destroy(tnw_wanderer *w)
{
    free(w);
}

int32_t tnw_wanderer_step(tnw_wanderer *w, int32_t steps)
{
    if (!w || steps < 0)
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < steps; i++) {
        tn_status st = tn_grid_wander_step(&w->walker, w->map, &w->rng);
        if (st != TN_OK)
            return (int32_t)st;
    }
    return TN_OK;
}

const tn_grid_walker *tnw_wanderer_state(const tnw_wanderer *w)
{
    return w ? &w->walker : NULL;
}

/* Every cell's flow vector (tn_field_vector: unit length, 0 where there is none), x then y,
 * into out (2 * cells floats). */
int32_t tnw_field_vectors(const tn_field *field, float *out, int32_t cap)
{
    if (!field || !out)
        return TN_E_INVALID_ARG;
    if (!tn_field_ready(field))
        return TN_E_STATE;
    int32_t w = tn_field_width(field), h = tn_field_height(field);
    if (cap < 2 * w * h)
        return TN_E_BUFFER_TOO_SMALL;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            tn_vec2 v = tn_field_vector(field, x, y);
            out[2 * (y * w + x)] = v.x;
            out[2 * (y * w + x) + 1] = v.y;
        }
    return TN_OK;
}
