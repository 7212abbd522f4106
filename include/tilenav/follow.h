/// @file follow.h
/// @brief Ways of moving one thing along what the planners produce:
/// - a path follower that moves exactly speed * dt along a polyline of waypoints per step,
///   carrying the distance left past a waypoint into the next segment, never overshooting the
///   end, reporting arrival; optional look-ahead corner smoothing (HowToRTS "following a path",
///   the tower-defense path-following article);
/// - path following with a path radius as a steering force (The Nature of Code ch. 6,
///   OpenSteer's followPath): predict, project onto the path, seek further along only when the
///   prediction strays outside the radius;
/// - maze-style grid walking: rows and columns only, direction changes
///   only at cell centres, a new destination re-planned at the next centre;
/// - a grid wanderer (moving hazards): at each cell centre a random open direction,
///   reversing at the map edges;
/// - an AI race car driven by a direction (angle) map, with optional +-20 degrees of
///   random variation when the map angle changes and friction from the terrain.
///
/// All state lives in small caller-owned structs; waypoint and path arrays are referenced, not
/// copied. Nothing allocates. Randomness comes from a caller's ::tn_rng. Functions on distinct
/// structs may run on distinct threads. Bad arguments return TN_E_INVALID_ARG (or a zero force
/// for the steering function).
#ifndef TILENAV_FOLLOW_H
#define TILENAV_FOLLOW_H

#include "base.h"
#include "dirmap.h"
#include "map.h"
#include "rng.h"
#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/// @name Path follower
/// @{
/// A follower on a polyline of waypoints (pixels).
typedef struct tn_path_follower {
    const tn_vec2 *points; ///< waypoints, referenced (must outlive the follower)
    int32_t count;         ///< number of waypoints (>= 1)
    int32_t next;          ///< index of the waypoint walked towards; == count once arrived
    tn_vec2 pos;           ///< current position, pixels (starts on points[0])
    float heading;         ///< radians, direction of the last movement
    float smoothing;       ///< corner smoothing look-ahead, pixels (0 = exact polyline)
    float progress;        ///< smoothing: arc length of the path already covered, pixels
    int32_t seg;           ///< smoothing: segment holding the look-ahead point
    float seg_start;       ///< smoothing: arc length at the start of `seg`
    bool arrived;          ///< true once on the last waypoint
} tn_path_follower;

/// Start a follower on points[0] walking towards points[1]. `smoothing` > 0 turns on corner
/// smoothing: each step the follower heads for the point `smoothing` pixels further along the
/// path than its progress, so it cuts corners on a curve and still ends exactly on the last
/// waypoint. The curve does not look at the map: it cuts each corner by up to about
/// `smoothing` pixels, so keep it under half a tile on a path that hugs walls (a grid path's
/// cell centres), or smooth the path against the walls first (tn_path_smooth()), whose
/// corners have room. @return TN_E_INVALID_ARG (NULL, count < 1, non-finite values, smoothing < 0).
TN_API TN_NODISCARD tn_status tn_path_follower_init(tn_path_follower *f, const tn_vec2 *points,
                                                    int32_t count, float smoothing);

/// Move by exactly speed * dt pixels (less only when reaching the end). Without smoothing the
/// follower stays on the polyline: it stops on each waypoint it reaches and carries the
/// distance left into the following segments, any number of them per step. `*reached` (may be
/// NULL) receives how many waypoints were reached in this step.
/// @return TN_OK (see `arrived`), TN_E_INVALID_ARG (NULL, speed or dt negative or not finite).
TN_API TN_NODISCARD tn_status tn_path_follower_step(tn_path_follower *f, float speed, float dt,
                                                    int32_t *reached);
/// @}

/// @name Following a path with a radius (steering force)
/// @{
/// The Nature of Code / OpenSteer path following: predict the position `predict_time` seconds
/// ahead (pos + vel * predict_time), find its nearest point on the polyline; if the prediction
/// is farther than `path_radius` from the path, seek the point `ahead` pixels further along the
/// path from that nearest point (clamped to the end); otherwise no force. A group with
/// separation therefore spreads across the road instead of marching on its centre line.
TN_API tn_vec2 tn_steer_follow_path(const tn_steer_agent *agent, const tn_vec2 *points,
                                    int32_t count, float path_radius, float predict_time,
                                    float ahead);
/// Distance from a point to the polyline, pixels (INFINITY for an empty path).
TN_API float tn_path_distance(const tn_vec2 *points, int32_t count, tn_vec2 p);
/// @}

/// @name Grid walker and grid wanderer
/// @{
/// A sprite that moves along rows and columns, changing direction only when centred on a cell.
typedef struct tn_grid_walker {
    tn_vec2 pos;       ///< centre, pixels; aligned when exactly on a cell centre
    tn_cell cell;      ///< the cell whose centre was last reached
    tn_cell dir;       ///< current direction: one of (+-1,0), (0,+-1), or (0,0) stopped
    float speed;       ///< pixels per step
    tn_cell *path;     ///< caller's buffer for the planned path (cells after the current one)
    int32_t path_cap;  ///< its capacity
    int32_t path_len;  ///< cells in the plan
    int32_t path_next; ///< next cell of the plan to reach
    tn_cell dest;      ///< destination waiting for the next cell centre
    bool pending;      ///< a destination is waiting to be planned
    int32_t replans;   ///< plans made so far
} tn_grid_walker;

/// Planner used by the walker: write the cells of a 4-connected path from `from` to `to` (the
/// first cell may be `from` itself; it is skipped) into out[0..cap), set *len. A status < 0 or
/// TN_NO_PATH stops the walker. tilenav's search (search.h) fits behind this signature.
typedef tn_status (*tn_walker_plan_fn)(void *user, tn_cell from, tn_cell to, tn_cell *out,
                                       int32_t cap, int32_t *len);

/// Put a walker on the centre of `start`, stopped. `path` may be NULL when only wandering.
/// @return TN_E_INVALID_ARG (NULL map or walker, speed not > 0, start outside the map or
///         blocked, path NULL with cap > 0).
TN_API TN_NODISCARD tn_status tn_grid_walker_init(tn_grid_walker *w, const tn_map *map,
                                                  tn_cell start, float speed, tn_cell *path,
                                                  int32_t path_cap);
/// Ask for a new destination; the walker plans when it next stands on a cell centre.
TN_API TN_NODISCARD tn_status tn_grid_walker_set_destination(tn_grid_walker *w, tn_cell dest);
/// Is the walker exactly on a cell centre?
TN_API bool tn_grid_walker_aligned(const tn_grid_walker *w, const tn_map *map);
/// walkPath: move `speed` pixels along the plan (planning first if a destination waits and the
/// walker is centred), turning only on cell centres and stopping on the last cell. A step may
/// pass several cell centres; the leftover distance is carried. Stops (dir 0) when the plan
/// runs into a blocked cell.
TN_API TN_NODISCARD tn_status tn_grid_walker_step(tn_grid_walker *w, const tn_map *map,
                                                  tn_walker_plan_fn plan, void *user);
/// The moving bombs: move `speed` pixels; on each cell centre, if the cell ahead is off the map
/// reverse (when the cell behind is open), otherwise take a uniformly random open direction
/// among the 4 neighbours (stay when none is open).
TN_API TN_NODISCARD tn_status tn_grid_wander_step(tn_grid_walker *w, const tn_map *map,
                                                  tn_rng *rng);
/// @}

/// @name Direction-map car
/// @{
/// Where the car drives: a direction map (dirmap.h) of target headings and the friction of each
/// cell, on cells of the given pixel size. Both describe the same W x H cells.
typedef struct tn_car_track {
    const tn_dirmap *headings;     ///< target heading per cell (degrees, 0 = +x, 90 = +y down);
                                   ///< a cell without one (NaN) keeps the car's current aim
    const float *friction;         ///< W*H velocity multipliers per step (0.96 track, 0.25
                                   ///< grass); NULL = 1 everywhere
    float cell_width, cell_height; ///< pixels per cell, > 0
} tn_car_track;

/// Car parameters. Defaults from tn_car_def_default().
/// Units: per fixed step (one frame), not per second like the rest of the library: the car is
/// a frame-stepped model whose friction multiplies the velocity once per step, so a time step
/// of another length would change its handling, not just its speed. Call tn_car_step() at a
/// fixed rate (60 Hz in the demos).
typedef struct tn_car_def {
    float accel;          ///< speed gained per step while under top speed (0.08)
    float top_speed;      ///< pixels per step (3)
    float turn_rate;      ///< radians per step (0.03)
    int32_t jitter_deg;   ///< random variation when the map angle changes, degrees (20; 0 = off)
    float friction_start; ///< friction before the first step (0.96)
    uint32_t internal_cookie; ///< set by tn_car_def_default(); do not touch
} tn_car_def;

/// The car's state.
typedef struct tn_car {
    tn_vec2 pos;      ///< centre, pixels
    tn_vec2 vel;      ///< pixels per step
    float rotation;   ///< radians
    float speed;      ///< pixels per step before friction
    float friction;   ///< multiplier of the cell under the car, applied next step
    float map_angle;  ///< last map angle seen, degrees
    float target_deg; ///< heading aimed at, degrees (map angle plus jitter)
    bool has_map_angle;
} tn_car;

TN_API tn_car_def tn_car_def_default(void);
/// Place a car at rest.
TN_API TN_NODISCARD tn_status tn_car_init(tn_car *car, const tn_car_def *def, tn_vec2 pos,
                                          float rotation);
/// One step of the AI car: accelerate while speed <= top speed; read the heading of the cell
/// under the car; when it differs from the last one, aim at it plus a random integer in
/// [-jitter, +jitter] degrees (a cell without a heading keeps the aim); turn towards the aim by
/// at most turn_rate the short way round; vel = speed * (cos, sin)(rotation) * friction;
/// pos += vel; then take the friction of the cell now under the car. Outside the track the
/// nearest edge cell is read.
/// @return TN_E_INVALID_ARG (NULL, no headings, bad cell size, rng NULL with jitter > 0).
TN_API TN_NODISCARD tn_status tn_car_step(tn_car *car, const tn_car_def *def,
                                          const tn_car_track *track, tn_rng *rng);
/// @}

#ifdef __cplusplus
}
#endif

#endif
