/* Tower defense pieces: spawn and exit points, the tower tile, creeps (td.h). */
#include "scenes/td.h"

#include <math.h>
#include <string.h>

void tn_td_find_points(const tn_map *map, tn_cell *spawns, int32_t max, int32_t *nspawns,
                       tn_cell *exit)
{
    *nspawns = 0;
    *exit = (tn_cell){-1, -1};
    for (int32_t i = 0; i < tn_map_object_count(map); i++) {
        const tn_map_object *o = tn_map_object_at(map, i);
        tn_cell c;
        if (!tn_map_cell_at_px(map, o->x + o->w * 0.5f, o->y + o->h * 0.5f, &c) ||
            !tn_map_passable(map, c.x, c.y))
            continue;
        if (strncmp(o->name, "spawn", 5) == 0 && *nspawns < max)
            spawns[(*nspawns)++] = c;
        else if (strcmp(o->name, "exit") == 0)
            *exit = c;
    }
}

tn_status tn_td_wall_tile(tn_map *map, int32_t *layer, uint32_t *gid)
{
    const int32_t cells = tn_map_width(map) * tn_map_height(map);
    const int32_t walls = tn_map_find_layer(map, "walls");
    *gid = 0;
    for (int32_t pass = 0; pass < 2; pass++)
        for (int32_t l = 0; l < tn_map_layer_count(map); l++) {
            if (pass == 0 && l != walls)
                continue;
            const uint32_t *g = tn_map_layer_data(map, l);
            for (int32_t i = 0; g && i < cells; i++)
                if (g[i] && !tn_map_terrain(map, g[i]).passable) {
                    *gid = tn_gid_id(g[i]);
                    *layer = l;
                    return TN_OK;
                }
        }
    tn_status st = tn_map_add_layer(map, "towers", TN_LAYER_TILES, layer);
    if (st == TN_OK)
        st = tn_map_set_terrain(map, 0xFFFFF, (tn_terrain){false, 1.0f});
    if (st == TN_OK)
        *gid = 0xFFFFF;
    return st;
}

tn_agent_def tn_td_creep_def(const tn_map *map, tn_cell spawn, float radius, float speed,
                             tn_rng *rng)
{
    const float tw = (float)tn_map_tile_width(map);
    tn_vec2 c = tn_map_cell_center_px(map, spawn.x, spawn.y);
    float jitter = tw * 0.5f - radius - 1.0f;
    tn_agent_def a = tn_agent_def_default();
    a.pos.x = c.x + (tn_rng_float(rng) * 2.0f - 1.0f) * jitter;
    a.pos.y = c.y + (tn_rng_float(rng) * 2.0f - 1.0f) * jitter;
    a.radius = radius;
    a.max_speed = speed * tw;
    a.max_force = 8.0f * tw;
    a.target = TN_TARGET_FLOW;
    a.flow = 0;
    a.arrive_radius = tw * 0.5f;
    return a;
}

int32_t tn_td_guard_cells(const tn_map *map, const tn_crowd *crowd, const tn_cell *spawns,
                          int32_t nspawns, const tn_td_creep *creeps, int32_t ncreeps, tn_cell *out)
{
    const float tw = (float)tn_map_tile_width(map), th = (float)tn_map_tile_height(map);
    int32_t n = 0;
    for (int32_t k = 0; k < nspawns; k++)
        out[n++] = spawns[k];
    for (int32_t k = 0; k < ncreeps; k++) {
        tn_agent_state s;
        if (tn_crowd_get(crowd, creeps[k].id, &s) != TN_OK)
            continue;
        tn_cell c = {(int32_t)floorf(s.pos.x / tw), (int32_t)floorf(s.pos.y / th)};
        if (tn_map_passable(map, c.x, c.y))
            out[n++] = c;
    }
    return n;
}
