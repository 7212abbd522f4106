/// @file formation.h
/// @brief Formations: slots for a group around a leader that follows a path or a field, in a
/// line, a column, a wedge or a grid, pulled in around walls so that every slot stays
/// reachable.
///
/// Slots are offsets in the leader's frame: +x straight ahead, +y to the leader's right (pixel
/// coordinates, y down). Each step the caller turns them into world positions with
/// tn_formation_slots() and gives each follower its slot as an arrive target (for instance
/// tn_crowd_set_target(..., TN_TARGET_ARRIVE, slot, 0)); the crowd's separation and tile
/// collision do the rest. Once the leader stops the followers come to rest on their slots and
/// stay `arrived` (cohesion and alignment fade inside the slow radius; the same target sent
/// again keeps the flag). Space the slots at least the crowd's neighbour radius apart (default
/// 32 px), or lower separation's weight: closer slots and separation pull against each other
/// and the squad never quite settles.
///
/// Reforming: a slot whose circle would overlap a wall, or which the leader cannot see in a
/// straight line (a wall between them), is moved along the line from the leader towards it to
/// the farthest point where the circle still fits with the whole way clear. When the leader
/// squeezes through a door the group narrows behind it and widens again on open ground.
///
/// Pure functions on caller arrays; no allocation; thread-safe.
#ifndef TILENAV_FORMATION_H
#define TILENAV_FORMATION_H

#include "base.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Formation shapes. Follower i (0-based) gets:
typedef enum tn_formation_shape {
    TN_FORMATION_LINE = 0,   ///< abreast of the leader, alternating right/left: (0, +-k*s)
    TN_FORMATION_COLUMN = 1, ///< single file behind: (-(i+1)*s, 0)
    TN_FORMATION_WEDGE = 2,  ///< a V behind the leader: (-k*s, +-k*s), k = i/2 + 1
    TN_FORMATION_GRID = 3,   ///< rows of `columns` behind the leader, centred on its track
} tn_formation_shape;

/// Offsets of `count` follower slots, spacing `spacing` pixels (> 0); `columns` (>= 1) is used
/// by TN_FORMATION_GRID. @return TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_formation_offsets(tn_formation_shape shape, int32_t count,
                                                   float spacing, int32_t columns, tn_vec2 *out);

/// World positions of the slots for a leader at `leader` (pixels) facing `heading` (radians),
/// reformed around the map's walls for followers of radius `radius` (see the file comment).
/// `map` may be NULL (no reforming). `reformed` (may be NULL) gets 1 for each slot moved.
/// @return TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_formation_slots(const tn_map *map, tn_vec2 leader, float heading,
                                                 const tn_vec2 *offsets, int32_t count,
                                                 float radius, tn_vec2 *out, uint8_t *reformed);

/// The arrive target that makes a follower hold `slot` while the leader moves at `leader_vel`
/// (pixels per second): slot + leader_vel * slow_radius / max_speed. Arrive alone settles
/// where its slowed desired speed equals the leader's, max_speed * d / slow_radius = |v|, that
/// is d = |v| * slow_radius / max_speed behind the slot; aiming that far ahead cancels the lag.
TN_API tn_vec2 tn_formation_lead(tn_vec2 slot, tn_vec2 leader_vel, float slow_radius,
                                 float max_speed);

#ifdef __cplusplus
}
#endif

#endif
