/// @file tile_collision.h
/// @brief Tile-based collision: hit tests of a sprite box against a gid with
/// the centre / some corners / every corner point sets, the inverse "on the floor" test, a box
/// mover and a circle mover that never enter impassable cells, circle overlap and push-out, and
/// grid-alignment helpers.
///
/// Geometry and units. Everything is in pixels (world units), y down. A box covers the
/// half-open area [x, x+w) x [y, y+h); a cell (cx, cy) covers [cx*tw, (cx+1)*tw) x
/// [cy*th, (cy+1)*th). A box overlaps a cell when their interiors intersect, so a box whose
/// right edge lies exactly on a cell's left edge only *touches* it (touching is not
/// overlapping). A circle of centre c and radius r overlaps a cell when the distance from c to
/// the cell's closed rectangle is < r; distance == r is touching. "Blocked" cells are the
/// impassable ones of tn_map_passable_data(), and everything outside the map (the map is walled
/// in). Float inputs are evaluated in double precision, which represents the sums of the float
/// inputs exactly for any realistic map, so results do not depend on the compiler's choices
/// (the project builds with -ffp-contract=off; no FMA, no fast-math).
///
/// Corner points. The four corner points of a box lie *inside* it: the right/bottom corners
/// are in the column/row holding the last point of the box. For integer coordinates this is
/// the `x + w - 1` pixel; for fractional ones it is the column ceil((x+w)/tw) - 1 (the -1
/// pixel generalised). The same holds for a collision area (an inset box), so its corners never
/// fall one pixel outside it.
///
/// Ownership and threads: the functions only read the map (`const tn_map*`), allocate nothing
/// and keep no state; any number of threads may call them at once while no thread edits the map.
///
/// Errors: NULL pointers, non-finite floats, sizes <= 0, bad layers and unknown enum values
/// return TN_E_INVALID_ARG and leave the outputs untouched.
#ifndef TILENAV_TILE_COLLISION_H
#define TILENAV_TILE_COLLISION_H

#include "base.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Which points of a box a hit test looks at.
typedef enum tn_tile_points {
    /// One point: the centre of the collision box.
    TN_POINTS_CENTER = 0,
    /// The four corners (top-left, top-right, bottom-left, bottom-right, in that order); hit
    /// when at least one matches. Not direction dependent.
    TN_POINTS_SOME = 1,
    /// The four corners; hit when all four match.
    TN_POINTS_EVERY = 2,
    /// Extension: every cell the box overlaps; hit when at least one matches. Same as
    /// TN_POINTS_SOME for boxes no larger than a tile, exact for larger ones.
    TN_POINTS_ANY_CELL = 3,
    /// Extension: every cell the box overlaps; hit when all of them match.
    TN_POINTS_ALL_CELLS = 4,
} tn_tile_points;

/// A sprite box with an optional collision area (the elf's 20x20 feet box: sprite 64x64,
/// area_x = 22, area_y = 44, area_w = area_h = 20). When area_w and area_h are both 0 the
/// whole sprite is the collision box; otherwise both must be > 0 and the collision box is
/// (x + area_x, y + area_y, area_w, area_h). All tests and movers use the collision box; the
/// movers update x and y.
typedef struct tn_tile_box {
    float x, y;                           ///< top-left of the sprite, pixels
    float w, h;                           ///< sprite size, pixels, > 0
    float area_x, area_y, area_w, area_h; ///< collision area relative to (x, y), pixels
} tn_tile_box;

/// A box without a collision area.
static inline tn_tile_box tn_tile_box_make(float x, float y, float w, float h)
{
    tn_tile_box b = {x, y, w, h, 0.0f, 0.0f, 0.0f, 0.0f};
    return b;
}

/// Result of a hit test.
///
/// `index`, `cell` and `gid` describe the point that decided the answer, as a short-circuit
/// evaluation leaves them: for SOME (ANY_CELL) the first matching point (cell),
/// else the last one; for EVERY (ALL_CELLS) the first point (cell) that does not match, else
/// the last one; for CENTER the centre. Cells are visited in row-major order. So after an
/// inverse floor test that fails, `gid` is the obstacle the sprite touched.
typedef struct tn_tile_hit {
    bool hit;      ///< the test's answer
    int32_t index; ///< row-major index of the deciding cell, -1 when outside the map
    tn_cell cell;  ///< the deciding cell (coordinates clamped to [-1, width] x [-1, height])
    uint32_t gid;  ///< raw gid (flags kept) at the deciding cell; 0 outside or in passability tests
    uint32_t mask; ///< bit i set when point i matched (TL=0, TR=1, BL=2, BR=3; centre=0); 0 for
                   ///< the cell modes
    int32_t tested; ///< points or cells examined (1, 4, or the cells overlapped)
} tn_tile_hit;

/// @name Hit tests
/// @{
/// Test a box against tile id `gid` in tile layer `layer`. A point matches when its cell is
/// inside the map and holds that tile id (flip flags are ignored on both sides, so a mirrored
/// wall tile is still a wall); points outside the map never match, not even gid 0.
/// @param[in] map a map; @param[in] layer a tile layer index; @param[in] gid a raw gid or id
/// @param[in] box the sprite; @param[in] points the point set; @param[out] out the result
/// @return TN_OK, or TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_tile_hit_test(const tn_map *map, int32_t layer, uint32_t gid,
                                               const tn_tile_box *box, tn_tile_points points,
                                               tn_tile_hit *out);

/// The same test against the map's passability instead of a gid: a point matches when its
/// cell is impassable or outside the map. `hit` with TN_POINTS_SOME means "a corner is in a
/// wall".
TN_API TN_NODISCARD tn_status tn_tile_hit_blocked(const tn_map *map, const tn_tile_box *box,
                                                  tn_tile_points points, tn_tile_hit *out);

/// The inverse ("on the floor") test: `hit` is true when every corner of the box is on tile id
/// `floor_gid` in `layer` (usually 0, "nothing there"). Equivalent to tn_tile_hit_test() with
/// TN_POINTS_EVERY; when it fails, `gid`/`index` name the first corner that is not on floor.
TN_API TN_NODISCARD tn_status tn_tile_on_floor(const tn_map *map, int32_t layer, uint32_t floor_gid,
                                               const tn_tile_box *box, tn_tile_hit *out);

/// Inverse test against passability, exact for any box size: `*free` is true when every cell
/// the collision box overlaps is inside the map and passable.
TN_API TN_NODISCARD tn_status tn_tile_box_free(const tn_map *map, const tn_tile_box *box,
                                               bool *free);
/// @}

/// @name Movers
/// @{
/// Flags of a move result.
enum {
    TN_TILE_BLOCKED_X = 1u << 0,      ///< a wall took away some of the x motion
    TN_TILE_BLOCKED_Y = 1u << 1,      ///< a wall took away some of the y motion
    TN_TILE_STARTED_INSIDE = 1u << 2, ///< the start position overlapped a blocked cell
    TN_TILE_PUSHED_OUT = 1u << 3,     ///< (circles) the start was pushed out first
};

/// Result of tn_tile_move_box().
typedef struct tn_tile_box_move {
    tn_vec2 applied; ///< displacement actually applied to the box, pixels
    uint32_t flags;  ///< TN_TILE_BLOCKED_X / _Y / TN_TILE_STARTED_INSIDE
} tn_tile_box_move;

/// Move a box by (dx, dy) pixels so that its collision box never enters a blocked cell: first
/// along x, then along y (from the new x), each axis as far as it can go, stopping flush
/// against the first blocked cell in the way (touching it). Every cell the box sweeps across
/// is checked, so there is no tunnelling at any speed; the cost is proportional to the cells
/// swept. Blocking along one axis does not stop the other (sliding along walls). A box that
/// starts overlapping blocked cells (flag TN_TILE_STARTED_INSIDE) may move out of them or
/// along them; it never moves into cells it did not already overlap. Rows/columns outside
/// the map do not block motion along the edge, but the map's edges block motion across them.
/// @param[in] map a map; @param[in,out] box the sprite (x and y are updated)
/// @param[in] delta the wanted displacement, pixels, finite
/// @param[out] out the result, may be NULL
TN_API TN_NODISCARD tn_status tn_tile_move_box(const tn_map *map, tn_tile_box *box, tn_vec2 delta,
                                               tn_tile_box_move *out);

/// Result of tn_tile_move_circle().
typedef struct tn_tile_circle_move {
    tn_vec2 position; ///< the new centre, pixels
    tn_vec2 applied;  ///< position - start centre (includes any push-out), pixels
    tn_vec2 normal;   ///< unit normal of the last wall contact (pointing out of the wall), or 0
    uint32_t flags;   ///< TN_TILE_BLOCKED_X / _Y / TN_TILE_STARTED_INSIDE / TN_TILE_PUSHED_OUT
    int32_t contacts; ///< wall contacts met during the move (0 = moved freely)
} tn_tile_circle_move;

/// Largest number of contacts (slide iterations) one tn_tile_move_circle() call resolves.
#define TN_TILE_MAX_SLIDES 4

/// Move a circle by `delta` so that afterwards it overlaps no blocked cell (the one mechanism
/// that keeps circles out of walls). The circle sweeps continuously (exact time of impact
/// against every blocked cell in its swept area and against the map's edges), stops at the
/// first contact, removes the part of the remaining motion that goes into the wall and goes on
/// with the rest (collide and slide): it slides along walls and, at a convex corner, around
/// it; in a concave corner it stops. At most TN_TILE_MAX_SLIDES contacts are resolved. No
/// tunnelling at any speed; the cost is proportional to the cells within `r` of the path.
/// Any radius > 0 works (circles larger than a corridor simply cannot enter it). Positions
/// handed out are always clear of blocked cells (checked, then moved back by an ulp if
/// rounding put them a hair inside), so they may sit a few ulps short of touching.
/// A circle that starts overlapping is first pushed out with tn_tile_circle_push_out()
/// (search distance r + max(tile width, height)); if that fails (nothing free in reach, or a
/// neighbourhood too cluttered for its limit) the call returns TN_E_START_BLOCKED and leaves
/// `*out` untouched. A move whose whole bounding box (grown by r) holds no blocked cell takes
/// a fast path with the same result.
/// @param[in] map a map; @param[in] centre the centre, pixels; @param[in] radius > 0, pixels
/// @param[in] delta displacement, pixels; @param[out] out the result
TN_API TN_NODISCARD tn_status tn_tile_move_circle(const tn_map *map, tn_vec2 centre, float radius,
                                                  tn_vec2 delta, tn_tile_circle_move *out);

/// Penetration depth of a circle into the blocked cells: the largest, over blocked cells and
/// the outside of the map, of r - d, where d is the distance from the centre to that region
/// (negative inside it: minus the distance to its nearest edge). 0 when the circle overlaps
/// nothing (touching included). Returns -1 for bad arguments (NULL map, non-finite input,
/// radius <= 0).
TN_API float tn_tile_circle_overlap(const tn_map *map, tn_vec2 centre, float radius);

/// Move an overlapping circle to the nearest position where it overlaps no blocked cell (it
/// then touches one). The nearest position is exact: it is either the projection of the
/// centre onto the boundary of one blocked cell grown by r, or a corner where two such
/// boundaries meet; every candidate within `max_dist` is examined, and of equally near ones
/// the first found wins (deterministic). A clear circle is returned unchanged.
/// @param[in] max_dist search distance in pixels (>= 0, finite)
/// @param[out] out the new centre
/// @return TN_OK, TN_E_NOT_FOUND (no free position within max_dist; *out untouched),
///         TN_E_TOO_LARGE (more than 256 wall edges within reach: use a smaller max_dist),
///         TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_tile_circle_push_out(const tn_map *map, tn_vec2 centre,
                                                      float radius, float max_dist, tn_vec2 *out);
/// @}

/// @name Grid alignment
/// @{
/// Is the collision box's top-left corner on a grid corner, within `tolerance` pixels on each
/// axis (0 = exactly)? Aligned with rows and columns, which lets a sprite
/// that moves in whole cells use the simplest collision response. `*cell` (may be NULL)
/// receives the cell whose top-left corner it is (nearest grid corner), even when outside
/// the map. False for bad arguments.
TN_API bool tn_tile_box_aligned(const tn_map *map, const tn_tile_box *box, float tolerance,
                                tn_cell *cell);
/// Is the collision box's centre on a cell's centre, within `tolerance` pixels on each axis?
/// `*cell` (may be NULL) receives the cell under the centre. False for bad arguments.
TN_API bool tn_tile_box_centered(const tn_map *map, const tn_tile_box *box, float tolerance,
                                 tn_cell *cell);
/// Is a point on a cell's centre, within `tolerance` pixels per axis? `*cell` gets the cell
/// under it (may be NULL). Useful for circles and agents that steer through cell centres.
TN_API bool tn_tile_point_centered(const tn_map *map, tn_vec2 point, float tolerance,
                                   tn_cell *cell);
/// @}

#ifdef __cplusplus
}
#endif

#endif
