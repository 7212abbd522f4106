/* Steering behaviours on one agent (see steer.h); the formulas live in steer_math.h. */
#include "tilenav/steer.h"

#include "det_math.h"
#include "grid.h"
#include "steer_math.h"

static const tn_vec2 zero2 = {0.0f, 0.0f};

static bool agent_ok(const tn_steer_agent *a)
{
    return a && a->max_speed > 0.0f && a->max_force >= 0.0f && isfinite(a->max_speed) &&
           isfinite(a->max_force);
}

tn_vec2 tn_steer_toward_velocity(const tn_steer_agent *a, tn_vec2 desired)
{
    if (!agent_ok(a))
        return zero2;
    return tn__steer_toward(a->vel, desired, a->max_speed, a->max_force);
}

tn_vec2 tn_steer_seek(const tn_steer_agent *a, tn_vec2 target)
{
    if (!agent_ok(a))
        return zero2;
    return tn__steer_toward(a->vel, tn__seek_desired(a->pos, target, a->max_speed), a->max_speed,
                            a->max_force);
}

tn_vec2 tn_steer_flee(const tn_steer_agent *a, tn_vec2 target)
{
    if (!agent_ok(a))
        return zero2;
    tn_vec2 desired = tn__v2_with_len(tn__v2_sub(a->pos, target), a->max_speed);
    return tn__steer_toward(a->vel, desired, a->max_speed, a->max_force);
}

tn_vec2 tn_steer_arrive(const tn_steer_agent *a, tn_vec2 target, float slow_radius)
{
    if (!agent_ok(a))
        return zero2;
    return tn__steer_toward(a->vel, tn__arrive_desired(a->pos, target, a->max_speed, slow_radius),
                            a->max_speed, a->max_force);
}

static tn_vec2 predict(const tn_steer_agent *a, tn_vec2 tp, tn_vec2 tv, float max_predict)
{
    float t = tn__v2_len(tn__v2_sub(tp, a->pos)) / a->max_speed;
    if (!(max_predict >= 0.0f))
        max_predict = 0.0f;
    if (t > max_predict)
        t = max_predict;
    return tn__v2(tp.x + tv.x * t, tp.y + tv.y * t);
}

tn_vec2 tn_steer_pursue(const tn_steer_agent *a, tn_vec2 tp, tn_vec2 tv, float max_predict)
{
    if (!agent_ok(a))
        return zero2;
    return tn_steer_seek(a, predict(a, tp, tv, max_predict));
}

tn_vec2 tn_steer_evade(const tn_steer_agent *a, tn_vec2 tp, tn_vec2 tv, float max_predict)
{
    if (!agent_ok(a))
        return zero2;
    return tn_steer_flee(a, predict(a, tp, tv, max_predict));
}

tn_vec2 tn_steer_wander(const tn_steer_agent *a, tn_wander *w, tn_rng *rng)
{
    if (!agent_ok(a) || !w || !rng)
        return zero2;
    float u = tn_rng_float(rng) * 2.0f - 1.0f;
    w->angle += u * w->jitter;
    tn_vec2 h = tn__v2_with_len(a->vel, 1.0f);
    if (h.x == 0.0f && h.y == 0.0f)
        h = tn__v2(1.0f, 0.0f);
    float s, c;
    tn__dm_sincosf(w->angle, &s, &c);
    /* the circle point, rotated into the heading frame */
    tn_vec2 off = tn__v2(h.x * c - h.y * s, h.x * s + h.y * c);
    tn_vec2 target = tn__v2(a->pos.x + h.x * w->distance + off.x * w->radius,
                            a->pos.y + h.y * w->distance + off.y * w->radius);
    return tn_steer_seek(a, target);
}

tn_vec2 tn_steer_separation(const tn_steer_agent *a, const tn_vec2 *npos, int32_t n, float radius)
{
    if (!agent_ok(a) || (!npos && n) || !(radius > 0.0f))
        return zero2;
    tn__flock_acc acc = {{0, 0}, 0, {0, 0}, 0, {0, 0}, 0};
    float r2 = radius * radius, inv = 1.0f / radius;
    for (int32_t i = 0; i < n; i++) {
        tn_vec2 d = tn__v2_sub(a->pos, npos[i]);
        float d2 = tn__v2_dot(d, d);
        if (d2 < r2)
            tn__flock_add_sep(&acc, d, d2, inv, true);
    }
    return tn__flock_separation(&acc, a->max_force);
}

tn_vec2 tn_steer_cohesion(const tn_steer_agent *a, const tn_vec2 *npos, int32_t n, float radius)
{
    if (!agent_ok(a) || (!npos && n) || !(radius > 0.0f))
        return zero2;
    tn__flock_acc acc = {{0, 0}, 0, {0, 0}, 0, {0, 0}, 0};
    float r2 = radius * radius;
    for (int32_t i = 0; i < n; i++) {
        tn_vec2 d = tn__v2_sub(a->pos, npos[i]);
        if (tn__v2_dot(d, d) < r2)
            tn__flock_add_com(&acc, npos[i]);
    }
    return tn__flock_cohesion(&acc, a->pos, a->vel, a->max_speed, a->max_force);
}

tn_vec2 tn_steer_alignment(const tn_steer_agent *a, const tn_vec2 *npos, const tn_vec2 *nvel,
                           int32_t n, float radius)
{
    if (!agent_ok(a) || ((!npos || !nvel) && n) || !(radius > 0.0f))
        return zero2;
    tn__flock_acc acc = {{0, 0}, 0, {0, 0}, 0, {0, 0}, 0};
    float r2 = radius * radius;
    for (int32_t i = 0; i < n; i++) {
        tn_vec2 d = tn__v2_sub(a->pos, npos[i]);
        if (tn__v2_dot(d, d) < r2)
            tn__flock_add_head(&acc, nvel[i]);
    }
    return tn__flock_alignment(&acc, a->vel, a->max_speed, a->max_force);
}

tn_vec2 tn_steer_avoid_agents(const tn_steer_agent *a, const tn_vec2 *npos, const float *nrad,
                              int32_t n, float look_ahead)
{
    if (!agent_ok(a) || ((!npos || !nrad) && n) || !(look_ahead > 0.0f))
        return zero2;
    float speed = tn__v2_len(a->vel);
    if (speed <= 0.0f)
        return zero2;
    tn_vec2 h = tn__v2_scale(a->vel, 1.0f / speed);
    float reach = speed * look_ahead;
    tn__avoid_acc acc = {reach, 0.0f, false};
    for (int32_t i = 0; i < n; i++)
        tn__avoid_add(&acc, h, reach, tn__v2_sub(npos[i], a->pos), a->radius + nrad[i]);
    return tn__avoid_force(&acc, h, reach, a->max_force);
}

/* Is the pixel inside an impassable cell (or off the map)? Sets the cell's rectangle. */
static bool probe_blocked(const uint8_t *pass, int32_t w, int32_t h, tn_vec2 p, float tw, float th,
                          float *x0, float *y0)
{
    *x0 = *y0 = 0.0f;
    if (!(fabsf(p.x) < 1e9f) || !(fabsf(p.y) < 1e9f))
        return true;
    int32_t cx = tn__ifloor(p.x / tw), cy = tn__ifloor(p.y / th);
    *x0 = (float)cx * tw;
    *y0 = (float)cy * th;
    return cx < 0 || cy < 0 || cx >= w || cy >= h || !pass[(size_t)cy * (size_t)w + (size_t)cx];
}

/* Push for a probe that hit the cell at (x0, y0): from the nearest point of the cell to pos. */
static tn_vec2 wall_normal(tn_vec2 pos, tn_vec2 h, float x0, float y0, float tw, float th)
{
    float nx = pos.x < x0 ? x0 : pos.x > x0 + tw ? x0 + tw : pos.x;
    float ny = pos.y < y0 ? y0 : pos.y > y0 + th ? y0 + th : pos.y;
    tn_vec2 d = tn__v2(pos.x - nx, pos.y - ny);
    if (d.x == 0.0f && d.y == 0.0f)
        return tn__v2(-h.x, -h.y);
    return tn__v2_with_len(d, 1.0f);
}

tn_vec2 tn_steer_avoid_walls(const tn_steer_agent *a, const tn_map *map, float look_ahead)
{
    if (!agent_ok(a) || !map || !(look_ahead > 0.0f))
        return zero2;
    float speed = tn__v2_len(a->vel);
    if (speed <= 0.0f)
        return zero2;
    tn__grid g;
    tn__map_grid(map, &g);
    const uint8_t *pass = g.pass;
    int32_t mw = g.w, mh = g.h;
    float tw = (float)g.tw, th = (float)g.th;
    tn_vec2 h = tn__v2_scale(a->vel, 1.0f / speed);
    /* cos/sin of 30 degrees; left of the heading is (hy, -hx) in y-down pixels */
    const float c30 = 0.866025403784f, s30 = 0.5f;
    tn_vec2 dirs[3] = {h, tn__v2(h.x * c30 + h.y * s30, h.y * c30 - h.x * s30),
                       tn__v2(h.x * c30 - h.y * s30, h.y * c30 + h.x * s30)};
    float lens[3] = {look_ahead, 0.7f * look_ahead, 0.7f * look_ahead};
    tn_vec2 best = zero2;
    float best_s = 0.0f;
    for (int f = 0; f < 3; f++) {
        for (int k = 1; k <= 4; k++) {
            float frac = 0.25f * (float)k;
            tn_vec2 p = tn__v2(a->pos.x + dirs[f].x * lens[f] * frac,
                               a->pos.y + dirs[f].y * lens[f] * frac);
            float x0, y0;
            if (probe_blocked(pass, mw, mh, p, tw, th, &x0, &y0)) {
                float s = a->max_force * (1.25f - frac);
                if (s > best_s) {
                    best_s = s;
                    best = tn__v2_scale(wall_normal(a->pos, h, x0, y0, tw, th), s);
                }
                break;
            }
        }
    }
    return best;
}

tn_vec2 tn_steer_combine_weighted(const tn_vec2 *forces, const float *weights, int32_t n,
                                  float max_force)
{
    if ((!forces || !weights) && n)
        return zero2;
    tn_vec2 sum = zero2;
    for (int32_t i = 0; i < n; i++) {
        sum.x += forces[i].x * weights[i];
        sum.y += forces[i].y * weights[i];
    }
    return tn__v2_cap(sum, max_force > 0.0f ? max_force : 0.0f);
}

tn_vec2 tn_steer_combine_prioritized(const tn_vec2 *forces, const float *weights, int32_t n,
                                     float max_force)
{
    if ((!forces || !weights) && n)
        return zero2;
    tn_vec2 sum = zero2;
    float left = max_force > 0.0f ? max_force : 0.0f;
    for (int32_t i = 0; i < n && left > 0.0f; i++) {
        tn_vec2 f = tn__v2_scale(forces[i], weights[i]);
        float l = tn__v2_len(f);
        if (l <= left) {
            sum = tn__v2_add(sum, f);
            left -= l;
        } else {
            sum = tn__v2_add(sum, tn__v2_scale(f, left / l));
            left = 0.0f;
        }
    }
    return sum;
}

void tn_steer_integrate(tn_steer_agent *a, tn_vec2 force, float dt)
{
    if (!agent_ok(a) || !(dt >= 0.0f))
        return;
    a->vel.x += force.x * dt;
    a->vel.y += force.y * dt;
    a->vel = tn__v2_cap(a->vel, a->max_speed);
    a->pos.x += a->vel.x * dt;
    a->pos.y += a->vel.y * dt;
}

float tn_steer_heading(tn_vec2 v, float fallback)
{
    if (v.x == 0.0f && v.y == 0.0f)
        return fallback;
    return tn__dm_atan2f(v.y, v.x);
}
