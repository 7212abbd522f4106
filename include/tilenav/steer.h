/// @file steer.h
/// @brief Steering behaviours (Reynolds; the HowToRTS definitions) as pure functions on a small
/// agent value: each behaviour returns a force, combinations cap the total at the agent's
/// maximum force, and one integration step applies it.
///
/// Model: unit mass, so a force is an acceleration. Positions are pixels, velocities pixels per
/// second, forces pixels per second squared, times seconds. A behaviour that wants the
/// velocity `desired` returns `(desired - vel) * max_force / max_speed` (the tutorial's seek:
/// the force that turns the agent towards `desired` in max_speed / max_force seconds).
///
/// These functions keep no state (wander keeps its angle in a caller-owned ::tn_wander) and
/// allocate nothing; they are safe from any thread. Bad input (a NULL agent, max_speed <= 0)
/// gives a zero force, never a crash. The crowd (crowd.h) runs the same definitions over many
/// agents with a neighbour grid; the test suite checks that both agree.
#ifndef TILENAV_STEER_H
#define TILENAV_STEER_H

#include "base.h"
#include "map.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One steering agent. Heading is taken from the velocity.
typedef struct tn_steer_agent {
    tn_vec2 pos;     ///< centre, pixels
    tn_vec2 vel;     ///< pixels per second
    float radius;    ///< collision radius, pixels (>= 0)
    float max_speed; ///< pixels per second, > 0
    float max_force; ///< pixels per second squared (unit mass), > 0
} tn_steer_agent;

/// The force that steers towards the velocity `desired`: (desired - vel) * max_force/max_speed.
TN_API tn_vec2 tn_steer_toward_velocity(const tn_steer_agent *agent, tn_vec2 desired);

/// Seek: full speed towards `target`. At the target itself the desired velocity is zero.
TN_API tn_vec2 tn_steer_seek(const tn_steer_agent *agent, tn_vec2 target);

/// Flee: full speed away from `target` (zero desired velocity when exactly on it).
TN_API tn_vec2 tn_steer_flee(const tn_steer_agent *agent, tn_vec2 target);

/// Arrive: seek whose desired speed falls linearly to 0 inside `slow_radius` pixels of the
/// target (max_speed * distance / slow_radius), so the agent stops on it. slow_radius <= 0
/// behaves like seek.
TN_API tn_vec2 tn_steer_arrive(const tn_steer_agent *agent, tn_vec2 target, float slow_radius);

/// Pursue: seek the position the target will have after T = distance / max_speed seconds
/// (T capped at `max_predict` seconds, >= 0), given its position and velocity.
TN_API tn_vec2 tn_steer_pursue(const tn_steer_agent *agent, tn_vec2 target_pos, tn_vec2 target_vel,
                               float max_predict);

/// Evade: flee from the predicted position, with the same prediction as tn_steer_pursue().
TN_API tn_vec2 tn_steer_evade(const tn_steer_agent *agent, tn_vec2 target_pos, tn_vec2 target_vel,
                              float max_predict);

/// Wander state: a point on a circle of `radius` pixels, `distance` pixels ahead of the agent,
/// whose angle moves by a uniform random amount in [-jitter, +jitter] radians per call.
typedef struct tn_wander {
    float distance; ///< pixels ahead of the agent (along the heading; +x when standing still)
    float radius;   ///< pixels
    float jitter;   ///< radians per call
    float angle;    ///< current angle on the circle, radians, relative to the heading
} tn_wander;

/// Wander: moves `w->angle` by a random jitter drawn from `rng`, then seeks the wander point.
TN_API tn_vec2 tn_steer_wander(const tn_steer_agent *agent, tn_wander *w, tn_rng *rng);

/// Separation (HowToRTS): for every neighbour p at distance 0 < d < radius, a push
/// (pos - p)/d * (1 - d/radius); the pushes are averaged over those neighbours and scaled by
/// max_force. `npos` holds `n` neighbour positions (the agent itself must not be among them).
TN_API tn_vec2 tn_steer_separation(const tn_steer_agent *agent, const tn_vec2 *npos, int32_t n,
                                   float radius);

/// Cohesion (HowToRTS): seek the average position of the agent and its neighbours closer than
/// `radius`; zero when there are none.
TN_API tn_vec2 tn_steer_cohesion(const tn_steer_agent *agent, const tn_vec2 *npos, int32_t n,
                                 float radius);

/// Alignment (HowToRTS): average the unit headings of the moving agents among the agent itself
/// and its neighbours closer than `radius`, and steer towards that average times max_speed.
/// Zero when no neighbour closer than `radius` moves.
TN_API tn_vec2 tn_steer_alignment(const tn_steer_agent *agent, const tn_vec2 *npos,
                                  const tn_vec2 *nvel, int32_t n, float radius);

/// Avoidance of other agents by look-ahead: among the neighbours ahead of the agent (along its
/// heading, at most speed * look_ahead seconds away) whose circles (radius sum) cross its path,
/// take the nearest and push sideways, away from it, with max_force * (1 - along / reach).
/// `nrad` holds the neighbours' radii. Zero when standing still or nothing is in the way.
/// A neighbour exactly on the centre line is passed on the right (+90 degrees of heading in
/// pixel coordinates, y down).
TN_API tn_vec2 tn_steer_avoid_agents(const tn_steer_agent *agent, const tn_vec2 *npos,
                                     const float *nrad, int32_t n, float look_ahead);

/// Wall avoidance against the map: three feelers along the heading (length `look_ahead` pixels)
/// and at +-30 degrees (0.7 * look_ahead), each probed at 1/4, 2/4, 3/4 and 4/4 of its length.
/// The first probe of a feeler that lies in an impassable cell (or outside the map) gives the
/// push max_force * (1.25 - fraction) along the unit vector from the nearest point of that cell
/// to the agent (or straight back when the agent is inside it). The strongest feeler wins
/// (the first in the order centre, left, right on ties). Zero when standing still.
TN_API tn_vec2 tn_steer_avoid_walls(const tn_steer_agent *agent, const tn_map *map,
                                    float look_ahead);

/// Weighted combination (the tutorial's): sum of weights[i] * forces[i], then, when longer than
/// max_force, scaled back to max_force.
TN_API tn_vec2 tn_steer_combine_weighted(const tn_vec2 *forces, const float *weights, int32_t n,
                                         float max_force);

/// Prioritised combination (prioritised truncated running sum): forces in decreasing priority,
/// each weighted; each one is added while the budget max_force lasts, the one that crosses it is
/// shortened to fit exactly, and the rest are dropped.
TN_API tn_vec2 tn_steer_combine_prioritized(const tn_vec2 *forces, const float *weights, int32_t n,
                                            float max_force);

/// Integrate one fixed step of `dt` seconds: vel += force * dt, speed clamped to max_speed,
/// pos += vel * dt. No collision (the crowd adds tile collision).
TN_API void tn_steer_integrate(tn_steer_agent *agent, tn_vec2 force, float dt);

/// Heading angle of a vector in radians (atan2(y, x), y down), or `fallback` for the zero vector.
TN_API float tn_steer_heading(tn_vec2 v, float fallback);

#ifdef __cplusplus
}
#endif

#endif
