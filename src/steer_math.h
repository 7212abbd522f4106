/* Private vector helpers and the steering formulas shared by steer.c (one agent) and crowd.c
 * (many agents, SoA), so that both compute exactly the same floats. */
#ifndef TILENAV_STEER_MATH_H
#define TILENAV_STEER_MATH_H

#include "tilenav/base.h"

#include <math.h>

/* floor() to an integer without the libm call (baseline x86-64 has no SSE4.1 round);
 * exact for |x| < 2^31. */
static inline int32_t tn__ifloor(float x)
{
    int32_t i = (int32_t)x;
    return i - ((float)i > x);
}

static inline tn_vec2 tn__v2(float x, float y)
{
    tn_vec2 v = {x, y};
    return v;
}

static inline tn_vec2 tn__v2_add(tn_vec2 a, tn_vec2 b)
{
    return tn__v2(a.x + b.x, a.y + b.y);
}

static inline tn_vec2 tn__v2_sub(tn_vec2 a, tn_vec2 b)
{
    return tn__v2(a.x - b.x, a.y - b.y);
}

static inline tn_vec2 tn__v2_scale(tn_vec2 a, float s)
{
    return tn__v2(a.x * s, a.y * s);
}

static inline float tn__v2_dot(tn_vec2 a, tn_vec2 b)
{
    return a.x * b.x + a.y * b.y;
}

static inline float tn__v2_len(tn_vec2 a)
{
    return sqrtf(a.x * a.x + a.y * a.y);
}

/* Scale `v` to length `len`; the zero vector stays zero. */
static inline tn_vec2 tn__v2_with_len(tn_vec2 v, float len)
{
    float l = tn__v2_len(v);
    return l > 0.0f ? tn__v2_scale(v, len / l) : tn__v2(0.0f, 0.0f);
}

/* Cap the length of `v` at `max`. */
static inline tn_vec2 tn__v2_cap(tn_vec2 v, float max)
{
    float l2 = v.x * v.x + v.y * v.y;
    if (l2 > max * max) {
        float l = sqrtf(l2);
        return tn__v2_scale(v, max / l);
    }
    return v;
}

/* (desired - vel) * max_force / max_speed */
static inline tn_vec2 tn__steer_toward(tn_vec2 vel, tn_vec2 desired, float max_speed,
                                       float max_force)
{
    float k = max_force / max_speed;
    return tn__v2((desired.x - vel.x) * k, (desired.y - vel.y) * k);
}

/* Desired velocity of seek. */
static inline tn_vec2 tn__seek_desired(tn_vec2 pos, tn_vec2 target, float max_speed)
{
    return tn__v2_with_len(tn__v2_sub(target, pos), max_speed);
}

/* Desired velocity of arrive. */
static inline tn_vec2 tn__arrive_desired(tn_vec2 pos, tn_vec2 target, float max_speed,
                                         float slow_radius)
{
    tn_vec2 d = tn__v2_sub(target, pos);
    float dist = tn__v2_len(d);
    if (dist <= 0.0f)
        return tn__v2(0.0f, 0.0f);
    float speed = max_speed;
    if (slow_radius > 0.0f && dist < slow_radius)
        speed = max_speed * dist / slow_radius;
    return tn__v2_scale(d, speed / dist);
}

/* Running sums of the three flocking behaviours over a neighbour list; see steer.h. */
typedef struct tn__flock_acc {
    tn_vec2 sep;   /* sum of separation pushes */
    int32_t nsep;  /* neighbours in (0, radius) */
    tn_vec2 com;   /* sum of neighbour positions (cohesion, self excluded) */
    int32_t ncom;  /* neighbours closer than radius */
    tn_vec2 head;  /* sum of unit headings of moving neighbours */
    int32_t nhead; /* moving neighbours closer than radius */
} tn__flock_acc;

/* Add one neighbour at offset d = pos - neighbour (d2 = |d|^2 < radius^2 already checked). */
static inline void tn__flock_add_sep(tn__flock_acc *a, tn_vec2 d, float d2, float inv_radius,
                                     bool do_sep)
{
    if (do_sep && d2 > 0.0f) {
        float dist = sqrtf(d2);
        float s = (1.0f - dist * inv_radius) / dist;
        a->sep.x += d.x * s;
        a->sep.y += d.y * s;
        a->nsep++;
    }
}

static inline void tn__flock_add_com(tn__flock_acc *a, tn_vec2 p)
{
    a->com.x += p.x;
    a->com.y += p.y;
    a->ncom++;
}

static inline void tn__flock_add_head(tn__flock_acc *a, tn_vec2 v)
{
    float l2 = v.x * v.x + v.y * v.y;
    if (l2 > 0.0f) {
        float l = sqrtf(l2);
        a->head.x += v.x / l;
        a->head.y += v.y / l;
        a->nhead++;
    }
}

/* Add a neighbour's unit heading (zero when it stands still). */
static inline void tn__flock_add_unit(tn__flock_acc *a, float ux, float uy)
{
    if (ux != 0.0f || uy != 0.0f) {
        a->head.x += ux;
        a->head.y += uy;
        a->nhead++;
    }
}

static inline tn_vec2 tn__flock_separation(const tn__flock_acc *a, float max_force)
{
    if (a->nsep == 0)
        return tn__v2(0.0f, 0.0f);
    float k = max_force / (float)a->nsep;
    return tn__v2(a->sep.x * k, a->sep.y * k);
}

static inline tn_vec2 tn__flock_cohesion(const tn__flock_acc *a, tn_vec2 pos, tn_vec2 vel,
                                         float max_speed, float max_force)
{
    if (a->ncom == 0)
        return tn__v2(0.0f, 0.0f);
    float n = (float)(a->ncom + 1);
    tn_vec2 c = tn__v2((pos.x + a->com.x) / n, (pos.y + a->com.y) / n);
    return tn__steer_toward(vel, tn__seek_desired(pos, c, max_speed), max_speed, max_force);
}

/* Alignment; the agent's own heading joins the average when it moves. */
static inline tn_vec2 tn__flock_alignment(const tn__flock_acc *acc, tn_vec2 vel, float max_speed,
                                          float max_force)
{
    tn__flock_acc a = *acc;
    tn__flock_add_head(&a, vel);
    if (a.nhead == 0 || acc->nhead == 0)
        return tn__v2(0.0f, 0.0f);
    float k = max_speed / (float)a.nhead;
    return tn__steer_toward(vel, tn__v2(a.head.x * k, a.head.y * k), max_speed, max_force);
}

/* The same, with the agent's own unit velocity already known (zero when still). */
static inline tn_vec2 tn__flock_alignment_unit(const tn__flock_acc *acc, float ux, float uy,
                                               tn_vec2 vel, float max_speed, float max_force)
{
    if (acc->nhead == 0)
        return tn__v2(0.0f, 0.0f);
    tn__flock_acc a = *acc;
    tn__flock_add_unit(&a, ux, uy);
    float k = max_speed / (float)a.nhead;
    return tn__steer_toward(vel, tn__v2(a.head.x * k, a.head.y * k), max_speed, max_force);
}

/* Agent avoidance: track the nearest threat along the heading. */
typedef struct tn__avoid_acc {
    float best_along; /* distance along the heading of the nearest threat; reach when none */
    float lateral;    /* its signed lateral offset (positive = right of the heading) */
    bool found;
} tn__avoid_acc;

static inline void tn__avoid_add(tn__avoid_acc *a, tn_vec2 heading, float reach, tn_vec2 rel,
                                 float rsum)
{
    float along = rel.x * heading.x + rel.y * heading.y;
    if (!(along > 0.0f) || along > reach)
        return;
    /* right of the heading (y down) is (-hy, hx) */
    float lateral = rel.x * -heading.y + rel.y * heading.x;
    if (fabsf(lateral) >= rsum)
        return;
    if (!a->found || along < a->best_along) {
        a->found = true;
        a->best_along = along;
        a->lateral = lateral;
    }
}

static inline tn_vec2 tn__avoid_force(const tn__avoid_acc *a, tn_vec2 heading, float reach,
                                      float max_force)
{
    if (!a->found)
        return tn__v2(0.0f, 0.0f);
    float s = max_force * (1.0f - a->best_along / reach);
    /* away from the threat: threat on the right (lateral > 0) -> push left; on the line -> right */
    tn_vec2 right = tn__v2(-heading.y, heading.x);
    float sign = a->lateral > 0.0f ? -1.0f : 1.0f;
    return tn__v2(right.x * s * sign, right.y * s * sign);
}

#endif
