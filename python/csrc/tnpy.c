/* Bulk helpers of the Python package (compiled into tilenav._tilenav with the library).
 *
 * Each one is a loop over tilenav's public API that would cost a Python call per cell, agent or
 * object if written in Python; nothing here reaches into the library's internals. The cffi
 * wrapper releases the GIL around every call, so these run in parallel with other threads. */
#include "tnpy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

tn_status tnpy_map_from_gids(int32_t width, int32_t height, int32_t tile_width, int32_t tile_height,
                             const uint32_t *gids, const uint32_t *terrain_gids, const float *costs,
                             const uint8_t *passable, int32_t terrain_count, tn_map **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!gids || terrain_count < 0 || (terrain_count > 0 && (!terrain_gids || !costs || !passable)))
        return TN_E_INVALID_ARG;
    tn_map_def def = tn_map_def_default();
    def.width = width;
    def.height = height;
    def.tile_width = tile_width;
    def.tile_height = tile_height;
    tn_map *map = NULL;
    tn_status st = tn_map_create(&def, &map);
    if (st < 0)
        return st;
    int32_t layer = -1;
    st = tn_map_add_layer(map, "cost", TN_LAYER_TILES, &layer);
    tn_terrain *terrain = NULL;
    if (st >= 0 && terrain_count > 0) {
        terrain = malloc((size_t)terrain_count * sizeof *terrain);
        if (!terrain)
            st = TN_E_NOMEM;
        for (int32_t i = 0; terrain && i < terrain_count; i++)
            terrain[i] = (tn_terrain){.passable = passable[i] != 0, .cost = costs[i]};
        if (st >= 0)
            st = tn_map_set_terrain_many(map, terrain_gids, terrain, terrain_count);
        free(terrain);
    }
    if (st >= 0)
        st = tn_map_set_layer_data(map, layer, gids, width * height);
    if (st < 0) {
        tn_map_destroy(map);
        return st;
    }
    *out = map;
    return TN_OK;
}

int32_t tnpy_field_dirs(const tn_field *field, int8_t *out)
{
    int32_t w = tn_field_width(field), h = tn_field_height(field);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            out[(size_t)y * (size_t)w + (size_t)x] = (int8_t)tn_field_dir(field, x, y);
    return w * h;
}

tn_status tnpy_crowd_steps(tn_crowd *crowd, int32_t steps)
{
    return tnpy_crowd_steps_sectors(crowd, steps, NULL, NULL, 0);
}

tn_status tnpy_crowd_steps_sectors(tn_crowd *crowd, int32_t steps, tn_sector_field **fields,
                                   const int32_t *slots, int32_t count)
{
    for (int32_t i = 0; i < steps; i++) {
        for (int32_t k = 0; k < count; k++) {
            tn_status st = tn_crowd_prepare_sector_field(crowd, slots[k], fields[k], NULL);
            if (st < 0)
                return st;
        }
        tn_status st = tn_crowd_step(crowd);
        if (st < 0)
            return st;
    }
    return TN_OK;
}

int32_t tnpy_crowd_gather(const tn_crowd *crowd, uint32_t *ids, tn_vec2 *pos, tn_vec2 *vel,
                          bool *arrived, bool *held, int32_t cap)
{
    int32_t n = tn_crowd_count(crowd);
    if (n > cap)
        n = cap;
    for (int32_t i = 0; i < n; i++) {
        tn_agent_id id = tn_crowd_agent_at(crowd, i);
        tn_agent_state s;
        if (tn_crowd_get(crowd, id, &s) < 0)
            memset(&s, 0, sizeof s);
        ids[i] = id.id;
        pos[i] = s.pos;
        vel[i] = s.vel;
        arrived[i] = s.arrived;
        held[i] = s.held;
    }
    return n;
}

/* Levels of a hierarchical grid whose level-0 cell is `cell`, so that the largest box fits. */
static int32_t levels_for(double cell, double largest)
{
    int32_t levels = 1;
    while (levels < TN_BP_MAX_LEVELS && cell * (double)(1u << (levels - 1)) < largest)
        levels++;
    return levels;
}

tn_status tnpy_bp_circles(tn_bp_kind kind, const double *xy, const double *radii, int32_t count,
                          tn_bp **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (count < 0 || (count > 0 && (!xy || !radii)))
        return TN_E_INVALID_ARG;
    tn_bp_def def = tn_bp_def_default();
    def.kind = kind;
    def.capacity = count > 0 ? count : 1;
    if (count > 0 && (kind == TN_BP_GRID || kind == TN_BP_HASH)) {
        double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
        double smallest = INFINITY, largest = 0.0;
        for (int32_t i = 0; i < count; i++) {
            double x = xy[2 * i], y = xy[2 * i + 1], d = 2.0 * radii[i];
            if (!isfinite(x) || !isfinite(y) || !isfinite(d) || d < 0.0)
                return TN_E_INVALID_ARG;
            x0 = fmin(x0, x - radii[i]);
            y0 = fmin(y0, y - radii[i]);
            x1 = fmax(x1, x + radii[i]);
            y1 = fmax(y1, y + radii[i]);
            smallest = fmin(smallest, d);
            largest = fmax(largest, d);
        }
        double w = fmax(x1 - x0, 1.0), h = fmax(y1 - y0, 1.0);
        if (!isfinite(w) || !isfinite(h))
            return TN_E_TOO_LARGE; /* a spread past the largest double: no grid can cover it */
        /* about one circle per cell (w * h may overflow: inf is ignored, and the bound below
         * covers it), and at most about `count` cells along each side, so that a long thin
         * spread (a row of circles) does not get a grid of more than TN_MAX_CELLS cells */
        def.cell_size = tn_bp_suggest_cell(smallest, w * h, count);
        const double need = fmax(sqrt(w / count) * sqrt(h), fmax(w, h) / count) * (1.0 + 1e-4);
        if (def.cell_size < need)
            def.cell_size = need;
        def.levels = levels_for(def.cell_size, largest);
        def.world = (tn_box){x0, y0, fmax(x1, x0 + 1.0), fmax(y1, y0 + 1.0)};
    }
    tn_bp *bp = NULL;
    tn_status st = tn_bp_create(&def, &bp);
    for (int32_t i = 0; st >= 0 && i < count; i++) {
        double x = xy[2 * i], y = xy[2 * i + 1], r = radii[i];
        tn_bp_id id;
        st = tn_bp_insert(bp, (tn_box){x - r, y - r, x + r, y + r}, (uint32_t)i, &id);
    }
    if (st >= 0)
        st = tn_bp_update(bp, NULL);
    if (st < 0) {
        tn_bp_destroy(bp);
        return st;
    }
    *out = bp;
    return TN_OK;
}

int32_t tnpy_scenarios_gather(const tn_scenarios *scen, int32_t *ints, double *optimal)
{
    int32_t n = tn_scenarios_count(scen);
    for (int32_t i = 0; i < n; i++) {
        const tn_scenario *s = tn_scenarios_at(scen, i);
        int32_t *row = ints + 8 * (size_t)i;
        row[0] = s->bucket;
        row[1] = s->map_width;
        row[2] = s->map_height;
        row[3] = s->start.x;
        row[4] = s->start.y;
        row[5] = s->goal.x;
        row[6] = s->goal.y;
        row[7] = s->decimals;
        optimal[i] = s->optimal;
    }
    return n;
}

bool tnpy_scenario_matches(const tn_scenarios *scen, int32_t index, double length)
{
    const tn_scenario *s = tn_scenarios_at(scen, index);
    return s && tn_scenario_matches(s, length);
}

tn_status tnpy_search_batch(tn_search *search, const tn_map *map, const tn_query *query,
                            const tn_cell *starts, const tn_cell *goals, int32_t count,
                            tn_cell *paths, int32_t path_cap, int32_t *status, int32_t *length,
                            double *cost, int64_t *expanded)
{
    if (count < 0 || (count > 0 && (!starts || !goals || !status || !length || !cost || !expanded)))
        return TN_E_INVALID_ARG;
    tn_batch_item *items = calloc(count > 0 ? (size_t)count : 1u, sizeof *items);
    if (!items)
        return TN_E_NOMEM;
    for (int32_t i = 0; i < count; i++) {
        items[i].start = starts[i];
        items[i].goal = goals[i];
    }
    tn_search *const contexts[1] = {search};
    tn_status st =
        tn_search_batch(contexts, 1, map, query, items, count, paths, path_cap, NULL, NULL);
    for (int32_t i = 0; st >= 0 && i < count; i++) {
        status[i] = (int32_t)items[i].status;
        length[i] = items[i].result.length;
        cost[i] = items[i].result.cost;
        expanded[i] = items[i].result.expanded;
    }
    free(items);
    return st;
}

int32_t tnpy_regions_ids(const tn_regions *regions, int32_t size, int32_t *out)
{
    const tn_map *map = tn_regions_map(regions);
    const int32_t w = tn_map_width(map), h = tn_map_height(map);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            out[(size_t)y * (size_t)w + (size_t)x] = tn_regions_id(regions, size, x, y);
    return w * h;
}

tn_status tnpy_map_set_cells(tn_map *map, int32_t layer, const tn_cell *cells, int32_t count,
                             uint32_t gid, int32_t *bad)
{
    *bad = -1;
    if (count < 0 || (count > 0 && !cells))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < count; i++) /* all or nothing: every cell is checked first */
        if (!tn_map_contains(map, cells[i].x, cells[i].y)) {
            *bad = i;
            return TN_E_OUT_OF_MAP;
        }
    if (count > 1) { /* exactly a rectangle (a tower, a door): one fill, one change logged */
        tn_rect r = {cells[0].x, cells[0].y, cells[0].x + 1, cells[0].y + 1};
        for (int32_t i = 1; i < count; i++) {
            r.x0 = cells[i].x < r.x0 ? cells[i].x : r.x0;
            r.y0 = cells[i].y < r.y0 ? cells[i].y : r.y0;
            r.x1 = cells[i].x + 1 > r.x1 ? cells[i].x + 1 : r.x1;
            r.y1 = cells[i].y + 1 > r.y1 ? cells[i].y + 1 : r.y1;
        }
        const int64_t rw = r.x1 - r.x0, area = rw * (int64_t)(r.y1 - r.y0);
        if (area == count) {
            uint8_t *seen = calloc((size_t)area, 1);
            if (!seen)
                return TN_E_NOMEM;
            bool rect = true, differs = false;
            for (int32_t i = 0; i < count && rect; i++) {
                uint8_t *b = &seen[(cells[i].y - r.y0) * rw + (cells[i].x - r.x0)];
                rect = !*b;
                *b = 1;
                differs = differs || tn_map_get(map, layer, cells[i].x, cells[i].y) != gid;
            }
            free(seen);
            if (rect) { /* a fill logs a change even when nothing changes: skip those */
                tn_status st = differs ? tn_map_fill(map, layer, r, gid) : TN_OK;
                if (st < 0)
                    *bad = 0;
                return st;
            }
        }
    }
    for (int32_t i = 0; i < count; i++) {
        tn_status st = tn_map_set(map, layer, cells[i].x, cells[i].y, gid);
        if (st < 0) {
            *bad = i;
            return st;
        }
    }
    return TN_OK;
}

int64_t tnpy_layer_gids_used(const tn_map *map, int32_t layer, uint8_t *used, uint32_t cap)
{
    const uint32_t *gids = tn_map_layer_data(map, layer);
    if (!gids || !used)
        return -1;
    const int64_t n = (int64_t)tn_map_width(map) * tn_map_height(map);
    memset(used, 0, cap);
    int64_t past = 0;
    for (int64_t i = 0; i < n; i++) {
        if (gids[i] < cap)
            used[gids[i]] = 1;
        else
            past++;
    }
    return past;
}
