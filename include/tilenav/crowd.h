/// @file crowd.h
/// @brief A crowd: many steering agents on a tile map, advanced together in fixed steps.
///
/// Each step (tn_crowd_step) does, in order:
/// 1. bins every agent into a uniform grid whose cell is the neighbour radius (a counting sort,
///    O(agents + grid cells); when the grid has more than 64 cells per agent of capacity, as
///    on a huge map, a radix sort and a hash of the occupied cells instead, O(agents), in the
///    same order with the same results), and copies the agents into that order so neighbour
///    scans read memory in sequence;
/// 2. gathers each agent's neighbour list ONCE (the `max_neighbours` nearest closer than the
///    neighbour radius, squared distances only) and feeds it to every neighbour behaviour:
///    separation, cohesion and alignment (HowToRTS), and look-ahead avoidance of other agents.
///    Cohesion and alignment count only neighbours going to a similar goal (same target kind
///    and goals at most `similar_goal_distance` apart), the tutorial's stated improvement.
///    Then the target behaviour (seek, flee, arrive, or following a flow field, with straight
///    seek where the cell sees the goal), wall avoidance against the map and wander;
/// 3. combines the forces by weight with the total capped at max force (or by priority);
/// 4. integrates at the fixed dt: v += F*dt, speed clamped, heading from velocity, x += v*dt,
///    then moves each circle through the tile map so that it never overlaps an impassable cell
///    (or leaves the map), sliding along walls, sub-stepped so nothing tunnels at any speed;
/// 5. optionally pushes overlapping agents apart (again through the tile collision).
///
/// Map edits under agents: at the first step after the map changed, an agent that a newly
/// blocked cell overlaps (a tower or a building placed on creeps) moves to the nearest position
/// clear of walls, searched within its radius plus half the larger side of the largest changed
/// rectangle its circle meets plus a tile (tn_tile_circle_push_out, from a tile out, doubling);
/// one with nowhere to go there stays, and
/// tn_crowd_max_wall_overlap() reports it. A game placing walls should still refuse cells that
/// agents occupy (docs/agents.md). The crowd's own per-cell tables follow the map's change log,
/// each edit on its own (a 2x2 building on a 4096 x 4096 map recomputes a few dozen cells, and
/// two in opposite corners twice that).
///
/// Behaviours may run every k-th step (`period`), using the force cached at their last run in
/// between; the runs are spread evenly over the agents (agent slot + step, modulo k).
///
/// Forces are computed from a snapshot of the step's start, so the result does not depend on
/// the order agents are processed in. The same inputs and seed give a bit-identical state after
/// any number of steps (the build uses -ffp-contract=off; wander draws from ::tn_rng streams
/// derived from the seed, the agent slot and the step); tn_crowd_hash() proves it.
///
/// Ownership: the crowd keeps a pointer to the map and to the arrays of every flow view it is
/// given; they must outlive the crowd (or be replaced). All memory is allocated at creation
/// (capacity from the definition): adding, removing and stepping never allocate.
///
/// Handles: agents are named by ::tn_agent_id, generation-checked. 0 is never valid; the id of a
/// removed agent returns TN_E_STALE_ID (generations wrap after 4095 reuses of one slot).
///
/// Threads: one crowd is used by one thread at a time. Distinct crowds are independent. The
/// step can spread its per-agent passes over the caller's threads (`parallel_for`, the way
/// Box2D takes a task system); the result is the same bit for bit.
#ifndef TILENAV_CROWD_H
#define TILENAV_CROWD_H

#include "base.h"
#include "field.h"
#include "map.h"
#include "sector_field.h"
#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_crowd tn_crowd;

/// Handle of an agent in a crowd. 0 is invalid.
typedef struct tn_agent_id {
    uint32_t id;
} tn_agent_id;

/// Most agents a crowd can hold.
#define TN_CROWD_MAX_AGENTS ((1 << 20) - 2)
/// Most flow views a crowd can hold.
#define TN_CROWD_MAX_FLOWS 256
/// Longest neighbour list.
#define TN_CROWD_MAX_NEIGHBOURS 64
/// Largest behaviour weight in size (|weight|): past it the weighted forces of a step could
/// overflow a float and turn positions into NaN.
#define TN_CROWD_MAX_WEIGHT 1e6f
/// Largest max_speed of an agent, pixels per second.
#define TN_CROWD_MAX_SPEED 1e9f
/// Largest max_force of an agent, pixels per second squared.
#define TN_CROWD_MAX_FORCE 1e12f

/// A read-only view of a flow field, as a tn_field provides it (or anything else): per-cell unit
/// directions, per-cell line of sight to the goal, the goal in pixels. The arrays are
/// referenced, not copied. Directions come from `dir`, or, when it is NULL, from `cell_dir`
/// (a field that does not keep every cell, such as a sector field:
/// tn_flow_view_from_sector_field()).
typedef struct tn_flow_view {
    int32_t width, height;         ///< cells
    float cell_width, cell_height; ///< pixels per cell (> 0)
    const tn_vec2 *dir; ///< W*H directions, row-major; unit length, or zero where there is none
    const uint8_t *los; ///< W*H flags, nonzero where the cell sees the goal; NULL = none does
    tn_vec2 goal;       ///< goal, pixels
    /// with `dir` NULL: the unit direction at cell (x, y) (inside the view), or zero where
    /// there is none. tn_crowd_step() calls it from the crowd's threads: it must only read.
    tn_vec2 (*cell_dir)(const void *user, int32_t x, int32_t y);
    const void *cell_user; ///< passed to cell_dir
} tn_flow_view;

/// What an agent is heading for.
typedef enum tn_target_kind {
    TN_TARGET_NONE = 0,   ///< no target force
    TN_TARGET_SEEK = 1,   ///< seek target_pos
    TN_TARGET_ARRIVE = 2, ///< arrive at target_pos, slowing inside slow_radius
    TN_TARGET_FLEE = 3,   ///< flee from target_pos
    TN_TARGET_FLOW = 4,   ///< follow flow view number `flow`, arriving at its goal
} tn_target_kind;

/// The behaviours, in the order of the weight and period arrays (and of the priorities in
/// TN_COMBINE_PRIORITIZED: walls first, then agents, separation, target, alignment, cohesion,
/// wander; see docs/agents.md).
typedef enum tn_behaviour {
    TN_BEHAVIOUR_TARGET = 0,
    TN_BEHAVIOUR_SEPARATION = 1,
    TN_BEHAVIOUR_COHESION = 2,
    TN_BEHAVIOUR_ALIGNMENT = 3,
    TN_BEHAVIOUR_AVOID_AGENTS = 4,
    TN_BEHAVIOUR_AVOID_WALLS = 5,
    TN_BEHAVIOUR_WANDER = 6,
    TN_BEHAVIOUR_COUNT = 7
} tn_behaviour;

/// How behaviour forces are combined.
typedef enum tn_combine {
    TN_COMBINE_WEIGHTED = 0,    ///< weighted sum, capped at max force (the tutorial's)
    TN_COMBINE_PRIORITIZED = 1, ///< prioritised truncated running sum
} tn_combine;

/// Definition of a crowd. Get one from tn_crowd_def_default().
typedef struct tn_crowd_def {
    const tn_map *map;      ///< required: walls for collision and avoidance
    int32_t capacity;       ///< most live agents, 1..TN_CROWD_MAX_AGENTS (default 1024)
    float dt;               ///< seconds per step, > 0 (default 1/60)
    float neighbour_radius; ///< pixels, > 0: flocking radius and grid cell (default 32)
    int32_t max_neighbours; ///< nearest neighbours kept, 1..64 (default 16)
    int32_t max_scan;       ///< candidates examined per agent, own grid row first; 0 = all. Bounds
                            ///< the cost in a pile-up (agents may overlap each other without
                            ///< push-apart). Default 64.
    /// Density-aware neighbourhood, >= 0 (default 10; 0 = off): when the 2 x 2 grid cells
    /// nearest an agent hold at least this many agents, its neighbourhood is the disk of half
    /// the neighbour radius (which those four cells contain; the list is then still its
    /// `max_neighbours` nearest when the disk holds that many) and the other five cells of the
    /// 3 x 3 scan are not read. Keeps the per-agent cost flat as a map fills up
    /// (docs/bench/agents.md, "Density").
    int32_t dense_neighbours;
    float similar_goal_distance;        ///< pixels, >= 0 (default 64)
    float avoid_look_ahead;             ///< seconds of travel looked ahead for agents (default 0.5)
    float wall_look_ahead;              ///< feeler length, pixels (default: one tile)
    tn_wander wander;                   ///< wander parameters (angle ignored; default 24, 12, 0.5)
    int32_t period[TN_BEHAVIOUR_COUNT]; ///< steps between runs, >= 1 (default all 1)
    tn_combine combine;                 ///< default TN_COMBINE_WEIGHTED
    /// How much of cohesion's and alignment's pull against an agent's own target direction is
    /// kept, 0..1 (default 0). 0: flocking shapes the group but never brakes an agent that is
    /// heading for a target (the part of each force opposite the target behaviour's desired
    /// velocity is removed); 1: the HowToRTS forces unchanged, which measured 10-15 % slower
    /// streams (docs/bench/agents.md, "Arrival").
    float flock_brake;
    bool push_apart;    ///< separate overlapping circles after moving (default false)
    bool record_forces; ///< keep each behaviour's last force (tn_crowd_forces; default false)
    int32_t max_flows;  ///< flow view slots, 0..TN_CROWD_MAX_FLOWS (default 8)
    uint64_t seed;      ///< random seed (wander)
    /// The per-agent passes write only their own agents' data, so a step is bit-identical
    /// to the single-threaded one.
    tn_parallel_for parallel_for; ///< optional: spreads the force and move passes (NULL)
    void *parallel_user;          ///< passed to parallel_for
    tn_allocator allocator;       ///< zeroed = malloc/free
    uint32_t internal_cookie;     ///< set by tn_crowd_def_default(); do not touch
} tn_crowd_def;

/// Definition of an agent. Get one from tn_agent_def_default().
typedef struct tn_agent_def {
    tn_vec2 pos;     ///< pixels, the centre; the circle that walls stop (see `size`) must
                     ///< not overlap an impassable cell
    tn_vec2 vel;     ///< pixels per second
    float radius;    ///< pixels, > 0 and < size half tiles (the smaller tile side; default 6)
    float max_speed; ///< pixels per second, > 0 and <= TN_CROWD_MAX_SPEED (default 120)
    float max_force; ///< pixels per second squared, > 0 and <= TN_CROWD_MAX_FORCE (default 480)
    float weights[TN_BEHAVIOUR_COUNT]; ///< each at most TN_CROWD_MAX_WEIGHT in size; default:
                                       ///< target 1, separation 2, cohesion 0.2, alignment 0.5
                                       ///< (the tutorial's), agents 1, walls 1, wander 0
    tn_target_kind target;             ///< default TN_TARGET_NONE
    tn_vec2 target_pos;                ///< pixels (SEEK, ARRIVE, FLEE)
    int32_t flow;                      ///< flow view slot (FLOW)
    /// arrive and flow: pixels where the agent starts slowing (default 32); within it
    /// cohesion and alignment fade out, to 0 at the goal, so that agents sent to nearby spots
    /// come to rest
    float slow_radius;
    float arrive_radius; ///< pixels: within this of the goal the agent counts as arrived (8)
    /// pixels, >= 0: the goal area (default 0 = none). Inside it an agent also counts as arrived
    /// when it is held up at the goal: it touches (centres closer than 1.5x the sum of the radii)
    /// an agent with the same goal that has arrived. Such an agent holds its place (its target
    /// force brakes it; separation, cohesion, alignment, agent avoidance and wander stop; walls
    /// and push-apart still act) instead of pushing into a packed goal, so a crowd that stays
    /// fills the area from the goal outwards and every member arrives. Needs a neighbour behaviour
    /// with a weight (the neighbour list). No effect when arrived agents are removed at once.
    float arrive_area;
    /// size class in cells, 1..255 (default 1): a unit of size n follows flow views built on
    /// the size-n map (clearance.h, tn_clearance_map()), which it reads at its top-left cell,
    /// the cell of `pos` - (n - 1) / 2 tiles; it arrives with its top-left cell on the view's
    /// goal. Its radius must be below n half tiles (the smaller tile side). The crowd cannot
    /// tell which size map a view was built on: giving an agent a view of another size is the
    /// caller's mistake (it then follows routes too narrow, or too cautious, for it). Walls
    /// stop a circle of the agent's radius, or for n >= 2 of at least (n - 1/2) half tiles
    /// (24 px for n = 2 on 32 px tiles), so that the unit passes the gaps of n cells its field
    /// crosses and no narrower ones; its radius still sets its spacing from other agents, and is
    /// what tn_crowd_get() reports.
    int32_t size;
    uint32_t internal_cookie; ///< set by tn_agent_def_default(); do not touch
} tn_agent_def;

/// The state of an agent.
typedef struct tn_agent_state {
    tn_vec2 pos;   ///< pixels
    tn_vec2 vel;   ///< pixels per second
    float heading; ///< radians, atan2 of the last non-zero velocity (0 at first)
    float radius;  ///< pixels
    int32_t size;  ///< size class (tn_agent_def::size)
    tn_target_kind target;
    bool arrived; ///< within arrive_radius of its goal, or held up inside its arrive_area (set
                  ///< by steps; cleared when the target changes, or its flow's goal)
    bool held;    ///< arrived in the goal area (arrive_area) rather than within arrive_radius
} tn_agent_state;

/// Defaults described on each field.
TN_API tn_crowd_def tn_crowd_def_default(void);
/// Defaults described on each field.
TN_API tn_agent_def tn_agent_def_default(void);

/// Create a crowd. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG (NULL, no cookie, bad value), TN_E_TOO_LARGE, TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_crowd_create(const tn_crowd_def *def, tn_crowd **out);
/// Destroy a crowd. NULL is a no-op.
TN_API void tn_crowd_destroy(tn_crowd *crowd);

/// Add an agent. @return TN_E_INVALID_ARG (bad field, circle overlapping a wall or off the map,
/// flow slot out of range), TN_E_FULL (capacity reached).
TN_API TN_NODISCARD tn_status tn_crowd_add(tn_crowd *crowd, const tn_agent_def *def,
                                           tn_agent_id *out);
/// Remove an agent. @return TN_E_STALE_ID for a removed or never-issued id, TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_crowd_remove(tn_crowd *crowd, tn_agent_id id);
/// Is the id a live agent?
TN_API bool tn_crowd_valid(const tn_crowd *crowd, tn_agent_id id);
/// Number of live agents.
TN_API int32_t tn_crowd_count(const tn_crowd *crowd);
/// The id of the live agent number `index` (0..count-1, an order that changes on removal).
TN_API tn_agent_id tn_crowd_agent_at(const tn_crowd *crowd, int32_t index);

/// Read an agent's state. @return TN_E_STALE_ID, TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_crowd_get(const tn_crowd *crowd, tn_agent_id id,
                                           tn_agent_state *out);
/// Change an agent's target (clears its arrived flag, unless the target is the one it has: the
/// same kind and position, or flow slot, as when a formation's slots are sent again every
/// frame). `flow` is used by TN_TARGET_FLOW.
/// @return TN_E_STALE_ID, TN_E_INVALID_ARG (bad kind, non-finite position, bad flow slot).
TN_API TN_NODISCARD tn_status tn_crowd_set_target(tn_crowd *crowd, tn_agent_id id,
                                                  tn_target_kind kind, tn_vec2 pos, int32_t flow);
/// Set an agent's velocity (pixels per second; clamped to its max speed at the next step).
/// @return TN_OK, TN_E_STALE_ID, TN_E_INVALID_ARG (NULL crowd, a component not finite).
TN_API TN_NODISCARD tn_status tn_crowd_set_velocity(tn_crowd *crowd, tn_agent_id id, tn_vec2 vel);
/// Set one behaviour weight of an agent.
/// @return TN_OK, TN_E_STALE_ID, TN_E_INVALID_ARG (NULL crowd, an unknown behaviour, a weight
///         that is NaN or larger in size than TN_CROWD_MAX_WEIGHT).
TN_API TN_NODISCARD tn_status tn_crowd_set_weight(tn_crowd *crowd, tn_agent_id id,
                                                  tn_behaviour behaviour, float weight);

/// Install (or with view == NULL, clear) flow view number `slot`. The view is copied; its arrays
/// are referenced. Agents following a cleared slot get no target force. A view whose goal
/// differs from the last one installed in the slot (cleared since or not) is a new target: the
/// agents following the slot lose their arrived flag (the same goal again keeps it).
/// @return TN_E_INVALID_ARG (slot out of range, bad sizes, NULL dir).
TN_API TN_NODISCARD tn_status tn_crowd_set_flow(tn_crowd *crowd, int32_t slot,
                                                const tn_flow_view *view);

/// Advance every agent by one fixed step of dt seconds.
TN_API TN_NODISCARD tn_status tn_crowd_step(tn_crowd *crowd);
/// Steps taken so far.
TN_API uint64_t tn_crowd_steps(const tn_crowd *crowd);

/// With def.record_forces: each behaviour's force on the agent at the last step (before
/// weighting), `out` has TN_BEHAVIOUR_COUNT entries, and the combined force in `total`
/// (may be NULL). @return TN_E_STATE when forces are not recorded.
TN_API TN_NODISCARD tn_status tn_crowd_forces(const tn_crowd *crowd, tn_agent_id id, tn_vec2 *out,
                                              tn_vec2 *total);

/// A 64-bit hash of the whole simulation state (step count, every agent's handle, position,
/// velocity, heading and flags, bit for bit).
TN_API uint64_t tn_crowd_hash(const tn_crowd *crowd);
/// Largest overlap, in pixels, of any agent's circle with an impassable cell or the outside of
/// the map (0 when none overlaps). O(agents).
TN_API float tn_crowd_max_wall_overlap(const tn_crowd *crowd);
/// Bytes of memory the crowd holds.
TN_API size_t tn_crowd_memory_bytes(const tn_crowd *crowd);

/// Fill a flow view from a built field (field.h): dir[i] = tn_field_vector() of cell i, los[i] =
/// tn_field_los(), goal = the centre of `goal` in pixels (the cell the field was built for).
/// `dir` and `los` are the caller's W*H arrays (`cells` entries each) and are referenced by the
/// view; refill them after tn_field_update(). @return TN_E_INVALID_ARG (NULL, field not built),
/// TN_E_BUFFER_TOO_SMALL (cells < W*H), TN_E_OUT_OF_MAP (goal).
TN_API TN_NODISCARD tn_status tn_flow_view_from_field(const tn_field *field, const tn_map *map,
                                                      tn_cell goal, tn_vec2 *dir, uint8_t *los,
                                                      int32_t cells, tn_flow_view *out);

/// Fill a flow view that reads a sector field (sector_field.h) through tn_sector_field_peek():
/// the crowd steps on a huge map without a whole-map array. Before each tn_crowd_step(), call
/// tn_crowd_prepare_sector_field() so that the tiles the agents read are built (a cell whose
/// tile is not kept reads as no direction). No line of sight; `goal` is the cell the field
/// was aimed at (its centre is the view's goal). The field must outlive the view.
/// @return TN_E_INVALID_ARG (NULL, or a map of another size than the field's hierarchy),
/// TN_E_OUT_OF_MAP (goal).
TN_API TN_NODISCARD tn_status tn_flow_view_from_sector_field(const tn_sector_field *field,
                                                             const tn_map *map, tn_cell goal,
                                                             tn_flow_view *out);
/// Build the sector field's tiles that the agents following flow `slot` will read in the next
/// step (the four cells around each, as tn_flow_view_sample() blends them), so that the step
/// reads the field from any thread. `*built` (may be NULL) receives the tiles built.
/// @return TN_OK; TN_E_FULL when those tiles do not all fit in the field's memory budget
/// (raise it: the agents past it read no direction); TN_E_INVALID_ARG; the field's errors
/// (TN_E_STATE: no goal, TN_E_MAP_CHANGED, TN_E_NOMEM).
TN_API TN_NODISCARD tn_status tn_crowd_prepare_sector_field(const tn_crowd *crowd, int32_t slot,
                                                            tn_sector_field *field, int32_t *built);

/// Sample a flow view at a pixel position: bilinear blend of the directions at the four nearest
/// cell centres (cells without a direction left out), normalised; the cell's own direction when
/// the blend cancels; zero when there is none. Exposed for tests and custom movers.
TN_API tn_vec2 tn_flow_view_sample(const tn_flow_view *view, tn_vec2 pos);

#ifdef __cplusplus
}
#endif

#endif
