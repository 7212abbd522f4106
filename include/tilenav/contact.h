/// @file contact.h
/// @brief Narrow phase and the marbles: exact overlap tests with contact normal and depth for
/// circles and boxes, a swept (continuous) circle test, the moving-circle response of the
/// marbles, and a whole marbles step (broad phase + narrow phase + response + walls).
///
/// Concept: the broad phase (broadphase.h) proposes pairs whose boxes overlap; these functions
/// decide whether the shapes really touch and how to push them apart. Everything is in double
/// precision world units, y down like the map, to match the broad phase (broadphase.h says
/// why), and so that the response keeps momentum and, with restitution 1, energy to about
/// 1e-12 relative (tested), which float arithmetic cannot. Normals point from the first shape
/// to the second.
///
/// Ownership and threads: the tests are pure functions. tn_marbles_step() writes the marbles, the
/// broad phase and the caller's scratch buffer and nothing else; it allocates nothing.
/// Errors: the tests return false for non-touching shapes (and for non-finite input);
/// tn_marbles_step() returns a tn_status.
#ifndef TILENAV_CONTACT_H
#define TILENAV_CONTACT_H

#include "base.h"
#include "broadphase.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Contact between two shapes: unit normal from the first to the second and penetration depth
/// (world units, > 0 for overlapping shapes). Moving the second shape by `depth` along the
/// normal (or the first by `depth` against it) separates them.
typedef struct tn_contact {
    double nx, ny;
    double depth;
} tn_contact;

/// Circles a (centre ax, ay, radius ar) and b: true when they overlap, i.e. the distance of the
/// centres is strictly below ar + br (touching circles do not). Coincident centres get the
/// normal (1, 0). `out` may be NULL.
TN_API bool tn_overlap_circle_circle(double ax, double ay, double ar, double bx, double by,
                                     double br, tn_contact *out);

/// Boxes a and b: true when their interiors overlap (positive area in common). Normal and depth
/// are the shortest move of b that separates them, along +x, -x, +y or -y. `out` may be NULL.
TN_API bool tn_overlap_box_box(tn_box a, tn_box b, tn_contact *out);

/// Circle (cx, cy, r) and box b: true when the distance from the centre to the box is strictly
/// below r (a centre inside the box counts). The normal points from the circle towards the box
/// (moving the circle by `depth` against it separates them); for a centre inside the box it
/// points away from the nearest face, and the depth includes the distance to that face.
/// `out` may be NULL.
TN_API bool tn_overlap_circle_box(double cx, double cy, double r, tn_box b, tn_contact *out);

/// Swept circles: a moves from (ax, ay) by (avx, avy) and b from (bx, by) by (bvx, bvy) during
/// one step, both at constant velocity. True when they touch at some time t in [0, 1]; `*toi`
/// (may be NULL) receives the first such t (0 when they already overlap or touch at the start).
/// Catches fast circles that the discrete test at t = 0 and t = 1 misses.
TN_API bool tn_sweep_circle_circle(double ax, double ay, double avx, double avy, double ar,
                                   double bx, double by, double bvx, double bvy, double br,
                                   double *toi);

/// A marble: centre, velocity (world units per step) and radius. Its mass is its area; only
/// the ratio matters, so r*r is used.
typedef struct tn_marble {
    double x, y, vx, vy, r;
} tn_marble;

/// The moving-circle response for two marbles in contact `c` (normal from a to b):
/// push them apart along the normal, each by a share of `c->depth` inversely proportional to
/// its mass, then, when they approach along the normal, exchange momentum along it with
/// restitution `e` in [0, 1] (1 = elastic: kinetic energy is kept). Tangential velocity is kept.
TN_API void tn_marble_resolve(tn_marble *a, tn_marble *b, const tn_contact *c, double e);

/// Settings of tn_marbles_step(). Get them from tn_marbles_def_default().
/// Units: velocities are pixels per step and tn_marbles_step() moves every marble by one whole
/// step, not by seconds: the marbles reproduce a fixed-step demo, and their exact sweep and
/// restitution are defined per step. Step them at a fixed rate.
typedef struct tn_marbles_def {
    double restitution;       ///< marble-marble and marble-wall bounce, 0..1 (default 1)
    bool world_walls;         ///< bounce off the edges of `world` (default true)
    tn_box world;             ///< the world rectangle (default 0,0 - 1024,1024)
    const tn_map *map;        ///< impassable cells are walls; NULL = none (default NULL)
    uint32_t internal_cookie; ///< set by tn_marbles_def_default(); do not touch
} tn_marbles_def;

/// Counters of one step.
typedef struct tn_marbles_stats {
    int64_t pairs;    ///< pairs from the broad phase (swept boxes overlap)
    int64_t contacts; ///< pairs that overlapped or met during the step (and were resolved)
} tn_marbles_stats;

/// Defaults of tn_marbles_def.
TN_API tn_marbles_def tn_marbles_def_default(void);

/// Kinetic energy of n marbles: sum of r^2 (vx^2 + vy^2) / 2.
TN_API double tn_marbles_energy(const tn_marble *m, int32_t n);

/// One step of the marbles. Marble i must be in `bp` under handle ids[i] with user value i.
/// 1. each marble's box becomes its swept box for the step (tn_bp_move), then tn_bp_update;
/// 2. the pairs go into `scratch` (capacity `cap`) and are taken in a canonical order (by
///    index), so every broad-phase kind gives the same result;
/// 3. overlapping pairs are separated and bounce (tn_marble_resolve); pairs that meet during
///    the step (tn_sweep_circle_circle) bounce with the normal at their time of impact, before
///    anything moves, so that two fast marbles do not pass through each other (they turn back
///    up to a step's travel short of touching). Pairs are taken one at a time: with three or
///    more meeting in one step, a later bounce can send a marble back into one it already
///    left, and that pair overlaps until the next step separates it;
/// 4. marbles move by their velocity through the impassable cells of `map` with the shared
///    circle mover (tn_tile_move_circle: exact sweep, no tunnelling at any speed, sliding),
///    bounce off the last wall touched with the restitution, then off the world edges. With a
///    map, positions are rounded to float precision by the mover.
/// `stats` may be NULL.
/// @return TN_OK; TN_E_BUFFER_TOO_SMALL when the pairs do not fit (nothing has moved);
///         TN_E_INVALID_ARG; TN_E_STALE_ID for a bad handle.
TN_API TN_NODISCARD tn_status tn_marbles_step(tn_marble *m, int32_t n, tn_bp *bp,
                                              const tn_bp_id *ids, const tn_marbles_def *p,
                                              tn_bp_pair *scratch, int64_t cap,
                                              tn_marbles_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
