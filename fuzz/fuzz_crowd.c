/* libFuzzer target: crowd steps on small fuzzed maps. Agents are added at fuzzed positions with
 * fuzzed speeds, radii, weights and targets (seek, arrive, flee, flow from a field built for a
 * fuzzed goal), then stepped. Checked against brute force after every step: no agent's circle
 * overlaps a blocked cell or leaves the map (distance from the centre to every blocked cell and
 * to the map edge, computed here), every handle stays valid, positions stay finite; and the
 * same input run twice gives the same state hash.
 * Input: w, h, goal x, goal y, agent count, steps, then 2 bits per cell, then 8 bytes per agent. */
#include "fuzz_map.h"
#include "tilenav/crowd.h"
#include "tilenav/field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static float byte01(const uint8_t *d, size_t size, size_t i)
{
    return i < size ? (float)d[i] / 255.0f : 0.5f;
}

/* Brute force: does the circle overlap a blocked cell or the outside of the map? */
static bool overlaps_wall(const tn_map *m, tn_vec2 c, float r)
{
    float tw = (float)tn_map_tile_width(m), th = (float)tn_map_tile_height(m);
    float W = tw * (float)tn_map_width(m), H = th * (float)tn_map_height(m);
    const float eps = 1e-3f;
    if (c.x - r < -eps || c.y - r < -eps || c.x + r > W + eps || c.y + r > H + eps)
        return true;
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++) {
            if (tn_map_passable(m, x, y))
                continue;
            float nx = fminf(fmaxf(c.x, (float)x * tw), (float)(x + 1) * tw);
            float ny = fminf(fmaxf(c.y, (float)y * th), (float)(y + 1) * th);
            float dx = c.x - nx, dy = c.y - ny;
            if (dx * dx + dy * dy < (r - eps) * (r - eps))
                return true;
        }
    return false;
}

static uint64_t run(const uint8_t *data, size_t size)
{
    int32_t w = 2 + data[0] % 12, h = 2 + data[1] % 12;
    int32_t layer = 0;
    tn_map *m = fuzz_map(w, h, 16, &layer);
    size_t cells_at = 6, agents_at = cells_at + (size_t)(w * h + 3) / 4;
    for (int32_t i = 0; i < w * h; i++) {
        size_t b = cells_at + (size_t)i / 4;
        bool wall = b < size && ((data[b] >> (2 * (i % 4))) & 3u) == 1u;
        if (wall && tn_map_set(m, layer, i % w, i / w, 1) != TN_OK)
            abort();
    }
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 32;
    cd.neighbour_radius = 12.0f;
    cd.push_apart = data[4] & 128;
    cd.seed = data[5];
    tn_crowd *c = NULL;
    if (tn_crowd_create(&cd, &c) != TN_OK)
        abort();
    tn_cell goal = {data[2] % w, data[3] % h};
    tn_field *f = NULL;
    tn_vec2 *dir = calloc((size_t)(w * h), sizeof *dir);
    uint8_t *los = calloc((size_t)(w * h), 1);
    if (!dir || !los)
        abort();
    if (tn_map_passable(m, goal.x, goal.y)) {
        tn_field_def fd = tn_field_def_default();
        fd.map = m;
        fd.los = TN_LOS_EXACT;
        tn_flow_view v;
        if (tn_field_create(&fd, &f) != TN_OK || tn_field_build(f, &goal, 1) != TN_OK ||
            tn_flow_view_from_field(f, m, goal, dir, los, w * h, &v) != TN_OK ||
            tn_crowd_set_flow(c, 0, &v) != TN_OK)
            abort();
    }
    tn_agent_id ids[32];
    int32_t n = 0, want = data[4] % 32;
    for (int32_t k = 0; k < want; k++) {
        size_t o = agents_at + (size_t)k * 8;
        tn_agent_def a = tn_agent_def_default();
        a.radius = 1.0f + 6.0f * byte01(data, size, o);
        a.pos.x = a.radius + byte01(data, size, o + 1) * ((float)(w * 16) - 2.0f * a.radius);
        a.pos.y = a.radius + byte01(data, size, o + 2) * ((float)(h * 16) - 2.0f * a.radius);
        a.max_speed = 1.0f + 400.0f * byte01(data, size, o + 3);
        a.max_force = 1.0f + 4000.0f * byte01(data, size, o + 4);
        a.weights[TN_BEHAVIOUR_WANDER] = byte01(data, size, o + 5) * 2.0f;
        uint8_t t = o + 6 < size ? data[o + 6] % 4 : 0;
        a.target = f && t == 3 ? TN_TARGET_FLOW : (tn_target_kind)(t % 3 + 1);
        a.target_pos = (tn_vec2){byte01(data, size, o + 7) * (float)(w * 16), 8.0f};
        tn_agent_id id;
        tn_status st = tn_crowd_add(c, &a, &id);
        if (st == TN_OK)
            ids[n++] = id;
        else if (st != TN_E_INVALID_ARG) /* a circle on a wall is refused; nothing else may fail */
            abort();
    }
    int32_t steps = 1 + data[5] % 40;
    for (int32_t s = 0; s < steps; s++) {
        if (tn_crowd_step(c) != TN_OK)
            abort();
        for (int32_t k = 0; k < n; k++) {
            tn_agent_state st;
            if (tn_crowd_get(c, ids[k], &st) != TN_OK || !isfinite(st.pos.x) || !isfinite(st.pos.y))
                abort();
            if (overlaps_wall(m, st.pos, st.radius))
                abort();
        }
    }
    uint64_t hash = tn_crowd_hash(c);
    tn_crowd_destroy(c);
    tn_field_destroy(f);
    free(dir);
    free(los);
    tn_map_destroy(m);
    return hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    if (run(data, size) != run(data, size))
        abort();
    return 0;
}
