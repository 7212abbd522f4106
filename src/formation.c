/* Formation slots around a leader, reformed around walls. */
#include "tilenav/formation.h"

#include "det_math.h"
#include "steer_math.h"
#include "tilenav/tile_collision.h"

tn_status tn_formation_offsets(tn_formation_shape shape, int32_t count, float spacing,
                               int32_t columns, tn_vec2 *out)
{
    if (count < 0 || (!out && count > 0) || !isfinite(spacing) || !(spacing > 0.0f) ||
        (unsigned)shape > (unsigned)TN_FORMATION_GRID ||
        (shape == TN_FORMATION_GRID && columns < 1))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < count; i++) {
        float k = (float)(i / 2 + 1), side = (i % 2 == 0) ? 1.0f : -1.0f;
        switch (shape) {
        case TN_FORMATION_LINE: out[i] = tn__v2(0.0f, side * k * spacing); break;
        case TN_FORMATION_COLUMN: out[i] = tn__v2(-(float)(i + 1) * spacing, 0.0f); break;
        case TN_FORMATION_WEDGE: out[i] = tn__v2(-k * spacing, side * k * spacing); break;
        case TN_FORMATION_GRID: {
            int32_t row = i / columns + 1, col = i % columns;
            out[i] =
                tn__v2(-(float)row * spacing, ((float)col - 0.5f * (float)(columns - 1)) * spacing);
            break;
        }
        }
    }
    return TN_OK;
}

tn_status tn_formation_slots(const tn_map *map, tn_vec2 leader, float heading,
                             const tn_vec2 *offsets, int32_t count, float radius, tn_vec2 *out,
                             uint8_t *reformed)
{
    if (count < 0 || ((!offsets || !out) && count > 0) || !isfinite(leader.x) ||
        !isfinite(leader.y) || !isfinite(heading) || !isfinite(radius) || !(radius > 0.0f))
        return TN_E_INVALID_ARG;
    float s, c;
    tn__dm_sincosf(heading, &s, &c);
    float step = 1.0f;
    if (map) {
        float tw = (float)tn_map_tile_width(map), th = (float)tn_map_tile_height(map);
        step = 0.25f * (tw < th ? tw : th);
    }
    for (int32_t i = 0; i < count; i++) {
        tn_vec2 o = offsets[i];
        /* forward (c, s), right (-s, c) */
        tn_vec2 p = tn__v2(leader.x + o.x * c - o.y * s, leader.y + o.x * s + o.y * c);
        if (reformed)
            reformed[i] = 0;
        if (!map) {
            out[i] = p;
            continue;
        }
        /* walk from the leader towards the slot while the circle fits */
        tn_vec2 d = tn__v2_sub(p, leader);
        float len = tn__v2_len(d);
        int32_t n = (int32_t)ceilf(len / step);
        tn_vec2 last = leader;
        bool all = true;
        for (int32_t k = 1; k <= n; k++) {
            float t = (float)k / (float)n;
            tn_vec2 q = tn__v2(leader.x + d.x * t, leader.y + d.y * t);
            if (tn_tile_circle_overlap(map, q, radius) != 0.0f) {
                all = false;
                break;
            }
            last = q;
        }
        if (all) {
            out[i] = p;
        } else {
            out[i] = last;
            if (reformed)
                reformed[i] = 1;
        }
    }
    return TN_OK;
}

tn_vec2 tn_formation_lead(tn_vec2 slot, tn_vec2 leader_vel, float slow_radius, float max_speed)
{
    if (!(max_speed > 0.0f) || !isfinite(slow_radius) || slow_radius < 0.0f)
        return slot;
    float k = slow_radius / max_speed;
    return tn__v2(slot.x + leader_vel.x * k, slot.y + leader_vel.y * k);
}
