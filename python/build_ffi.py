"""cffi (API mode) description of the extension module ``tilenav._tilenav``.

The declarations below are the part of tilenav's public headers the package calls. In API mode
the C compiler checks them against the real headers (``#include <tilenav/tilenav.h>``), and the
structs end with ``...;`` so that cffi takes their layout from the compiler: a field added to a
definition struct in C needs no change here. setup.py compiles the library's sources
(``../src``) and links them into the same module.
"""

from cffi import FFI

CDEF = r"""
typedef enum tn_status {
    TN_OK, TN_PARTIAL, TN_NO_PATH, TN_IN_PROGRESS, TN_CLOSEST,
    TN_E_INVALID_ARG, TN_E_NOMEM, TN_E_TOO_LARGE, TN_E_BUFFER_TOO_SMALL, TN_E_STALE_ID,
    TN_E_PARSE, TN_E_IO, TN_E_UNSUPPORTED, TN_E_OUT_OF_MAP, TN_E_START_BLOCKED,
    TN_E_GOAL_BLOCKED, TN_E_MAP_CHANGED, TN_E_FULL, TN_E_NOT_FOUND, TN_E_STATE, ...
} tn_status;
const char *tn_status_str(tn_status status);
const char *tn_version(void);

#define TN_MAX_DIM ...
#define TN_MAX_CELLS ...

typedef struct tn_cell { int32_t x, y; } tn_cell;
typedef struct tn_vec2 { float x, y; } tn_vec2;
typedef struct tn_rect { int32_t x0, y0, x1, y1; } tn_rect;

/* map.h */
typedef struct tn_map tn_map;
void tn_map_destroy(tn_map *map);
int32_t tn_map_width(const tn_map *map);
int32_t tn_map_height(const tn_map *map);
int32_t tn_map_tile_width(const tn_map *map);
int32_t tn_map_tile_height(const tn_map *map);
size_t tn_map_memory_bytes(const tn_map *map);
const uint8_t *tn_map_passable_data(const tn_map *map);
const float *tn_map_cost_data(const tn_map *map);
int32_t tn_map_passable_count(const tn_map *map);
bool tn_map_uniform_cost(const tn_map *map);
uint64_t tn_map_revision(const tn_map *map);
int32_t tn_map_layer_count(const tn_map *map);
const char *tn_map_layer_name(const tn_map *map, int32_t layer);
typedef enum tn_layer_kind { TN_LAYER_TILES, TN_LAYER_OBJECTS, ... } tn_layer_kind;
tn_layer_kind tn_map_layer_kind(const tn_map *map, int32_t layer);
int32_t tn_map_find_layer(const tn_map *map, const char *name);
uint32_t tn_map_get(const tn_map *map, int32_t layer, int32_t x, int32_t y);
typedef struct tn_terrain { bool passable; float cost; } tn_terrain;
tn_status tn_map_set_terrain(tn_map *map, uint32_t gid, tn_terrain terrain);
tn_status tn_map_clone(const tn_map *map, tn_map **out);
tn_terrain tn_map_terrain(const tn_map *map, uint32_t gid);
tn_status tnpy_map_set_cells(tn_map *map, int32_t layer, const tn_cell *cells, int32_t count,
                             uint32_t gid, int32_t *bad);
int64_t tnpy_layer_gids_used(const tn_map *map, int32_t layer, uint8_t *used, uint32_t cap);

/* path.h */
tn_status tn_path_compress(const tn_cell *cells, int32_t n, tn_cell *out, int32_t cap,
                           int32_t *len);
tn_status tn_path_smooth(const tn_map *map, const tn_cell *cells, int32_t n, tn_cell *out,
                         int32_t cap, int32_t *len);

/* moves.h */
typedef enum tn_diagonal {
    TN_DIAGONAL_NO_CUT, TN_DIAGONAL_NEVER, TN_DIAGONAL_ONE, TN_DIAGONAL_ALWAYS, ...
} tn_diagonal;
typedef enum tn_step_costs { TN_COSTS_EXACT, TN_COSTS_10_14, ... } tn_step_costs;
typedef struct tn_moves { tn_diagonal diagonal; tn_step_costs costs; ...; } tn_moves;

/* clearance.h */
typedef struct tn_clearance tn_clearance;
typedef struct tn_clearance_def {
    const tn_map *map;
    int32_t max_size;
    bool size_maps;
    ...;
} tn_clearance_def;
tn_clearance_def tn_clearance_def_default(void);
tn_status tn_clearance_create(const tn_clearance_def *def, tn_clearance **out);
void tn_clearance_destroy(tn_clearance *cl);
size_t tn_clearance_memory_bytes(const tn_clearance *cl);
int32_t tn_clearance_get(const tn_clearance *cl, int32_t x, int32_t y);
const uint8_t *tn_clearance_data(const tn_clearance *cl);
const tn_map *tn_clearance_map(const tn_clearance *cl, int32_t size);
int32_t tn_clearance_max_size(const tn_clearance *cl);

tn_status tn_clearance_update(tn_clearance *cl, int32_t *touched);

/* regions.h */
typedef struct tn_regions tn_regions;
typedef struct tn_regions_def {
    const tn_map *map;
    tn_diagonal diagonal;
    int32_t max_size;
    bool size_maps;
    ...;
} tn_regions_def;
tn_regions_def tn_regions_def_default(void);
tn_status tn_regions_create(const tn_regions_def *def, tn_regions **out);
void tn_regions_destroy(tn_regions *regions);
size_t tn_regions_memory_bytes(const tn_regions *regions);
tn_status tn_regions_update(tn_regions *regions, int32_t *relabelled);
int32_t tn_regions_id(const tn_regions *regions, int32_t size, int32_t x, int32_t y);
int32_t tn_regions_count(const tn_regions *regions, int32_t size);
bool tn_regions_connected(const tn_regions *regions, int32_t size, tn_cell a, tn_cell b);
const tn_clearance *tn_regions_clearance(const tn_regions *regions);
int32_t tnpy_regions_ids(const tn_regions *regions, int32_t size, int32_t *out);

/* search.h */
typedef struct tn_search tn_search;
typedef struct tn_jump_table tn_jump_table;
typedef enum tn_heuristic {
    TN_HEURISTIC_AUTO, TN_HEURISTIC_MANHATTAN, TN_HEURISTIC_EUCLIDEAN, TN_HEURISTIC_OCTILE,
    TN_HEURISTIC_CHEBYSHEV, TN_HEURISTIC_ZERO, ...
} tn_heuristic;
typedef enum tn_algo { TN_ALGO_ASTAR, TN_ALGO_DIJKSTRA, TN_ALGO_JPS, TN_ALGO_JPS_PLUS, ... } tn_algo;
typedef struct tn_query {
    tn_moves moves;
    tn_algo algo;
    tn_heuristic heuristic;
    double weight;
    const float *extra;
    bool jps_fallback;
    bool closest;
    int64_t max_expansions;
    const tn_jump_table *jump_table;
    const tn_regions *regions;
    int32_t size;
    const tn_clearance *clearance;
    ...;
} tn_query;
typedef struct tn_search_result {
    int32_t length;
    double cost;
    int64_t expanded;
    tn_cell end;
    int32_t goal;
    tn_algo algo;
    ...;
} tn_search_result;
typedef struct tn_search_def { int32_t max_cells; ...; } tn_search_def;
tn_search_def tn_search_def_default(void);
tn_status tn_search_create(const tn_search_def *def, tn_search **out);
void tn_search_destroy(tn_search *search);
size_t tn_search_memory_bytes(const tn_search *search);
tn_status tn_search_path(tn_search *search, const tn_map *map, tn_cell start, tn_cell goal,
                         const tn_query *query, tn_cell *out, int32_t cap, tn_search_result *res);
tn_status tn_search_path_multi(tn_search *search, const tn_map *map, tn_cell start,
                               const tn_cell *goals, int32_t goal_count, const tn_query *query,
                               tn_cell *out, int32_t cap, tn_search_result *res);
tn_status tn_search_distances(tn_search *search, const tn_map *map, const tn_cell *sources,
                              int32_t source_count, const tn_moves *moves, const float *extra,
                              bool reverse, double *dist, int32_t cap);
typedef struct tn_jump_table_def { const tn_map *map; ...; } tn_jump_table_def;
tn_jump_table_def tn_jump_table_def_default(void);
tn_status tn_jump_table_build(const tn_jump_table_def *def, tn_jump_table **out);
void tn_jump_table_destroy(tn_jump_table *table);
bool tn_jump_table_current(const tn_jump_table *table, const tn_map *map);
const char *tn_algo_name(tn_algo a);

/* field.h */
typedef struct tn_field tn_field;
typedef enum tn_flow_rule { TN_FLOW_OPTIMAL, TN_FLOW_STEEPEST, ... } tn_flow_rule;
typedef enum tn_los_mode { TN_LOS_OFF, TN_LOS_EXACT, TN_LOS_SIMPLE, ... } tn_los_mode;
typedef struct tn_field_def {
    const tn_map *map;
    tn_moves moves;
    tn_flow_rule flow;
    tn_los_mode los;
    const float *extra;
    ...;
} tn_field_def;
tn_field_def tn_field_def_default(void);
tn_status tn_field_create(const tn_field_def *def, tn_field **out);
void tn_field_destroy(tn_field *field);
size_t tn_field_memory_bytes(const tn_field *field);
tn_status tn_field_build(tn_field *field, const tn_cell *goals, int32_t count);
tn_status tn_field_update(tn_field *field, const tn_rect *extra_changed, int32_t *out_touched);
const float *tn_field_distances(const tn_field *field);
int32_t tn_field_reachable_count(const tn_field *field);
int32_t tn_field_los_count(const tn_field *field);
tn_vec2 tn_field_sample(const tn_field *field, float px, float py);
tn_status tn_field_path(const tn_field *field, tn_cell start, tn_cell *out, int32_t cap,
                        int32_t *len, double *cost);
bool tn_los_clear(const tn_map *map, tn_cell a, tn_cell b, tn_diagonal corner);

/* crowd.h */
typedef struct tn_crowd tn_crowd;
typedef struct tn_agent_id { uint32_t id; } tn_agent_id;
typedef struct tn_flow_view { int32_t width, height; ...; } tn_flow_view;
typedef enum tn_target_kind {
    TN_TARGET_NONE, TN_TARGET_SEEK, TN_TARGET_ARRIVE, TN_TARGET_FLEE, TN_TARGET_FLOW, ...
} tn_target_kind;
typedef enum tn_behaviour {
    TN_BEHAVIOUR_TARGET, TN_BEHAVIOUR_SEPARATION, TN_BEHAVIOUR_COHESION, TN_BEHAVIOUR_ALIGNMENT,
    TN_BEHAVIOUR_AVOID_AGENTS, TN_BEHAVIOUR_AVOID_WALLS, TN_BEHAVIOUR_WANDER,
    TN_BEHAVIOUR_COUNT, ...
} tn_behaviour;
#define TN_CROWD_MAX_AGENTS ...
#define TN_CROWD_MAX_FLOWS ...
#define TN_CROWD_MAX_NEIGHBOURS ...
static const float TN_CROWD_MAX_WEIGHT;
static const float TN_CROWD_MAX_SPEED;
static const float TN_CROWD_MAX_FORCE;
typedef enum tn_combine { TN_COMBINE_WEIGHTED, TN_COMBINE_PRIORITIZED, ... } tn_combine;
typedef struct tn_wander { float distance; float radius; float jitter; float angle; } tn_wander;
typedef struct tn_crowd_def {
    const tn_map *map;
    int32_t capacity;
    float dt;
    float neighbour_radius;
    int32_t max_neighbours;
    int32_t max_scan;
    int32_t dense_neighbours;
    float similar_goal_distance;
    float avoid_look_ahead;
    float wall_look_ahead;
    tn_wander wander;
    int32_t period[7];
    tn_combine combine;
    float flock_brake;
    bool push_apart;
    int32_t max_flows;
    uint64_t seed;
    ...;
} tn_crowd_def;
typedef struct tn_agent_def {
    tn_vec2 pos;
    tn_vec2 vel;
    float radius;
    float max_speed;
    float max_force;
    float weights[7];
    tn_target_kind target;
    tn_vec2 target_pos;
    int32_t flow;
    float slow_radius;
    float arrive_radius;
    float arrive_area;
    int32_t size;
    ...;
} tn_agent_def;
tn_crowd_def tn_crowd_def_default(void);
tn_agent_def tn_agent_def_default(void);
tn_status tn_crowd_create(const tn_crowd_def *def, tn_crowd **out);
void tn_crowd_destroy(tn_crowd *crowd);
tn_status tn_crowd_add(tn_crowd *crowd, const tn_agent_def *def, tn_agent_id *out);
tn_status tn_crowd_remove(tn_crowd *crowd, tn_agent_id id);
int32_t tn_crowd_count(const tn_crowd *crowd);
tn_status tn_crowd_set_target(tn_crowd *crowd, tn_agent_id id, tn_target_kind kind, tn_vec2 pos,
                              int32_t flow);
tn_status tn_crowd_set_velocity(tn_crowd *crowd, tn_agent_id id, tn_vec2 vel);
tn_status tn_crowd_set_weight(tn_crowd *crowd, tn_agent_id id, tn_behaviour behaviour,
                              float weight);
tn_status tn_crowd_set_flow(tn_crowd *crowd, int32_t slot, const tn_flow_view *view);
uint64_t tn_crowd_steps(const tn_crowd *crowd);
uint64_t tn_crowd_hash(const tn_crowd *crowd);
float tn_crowd_max_wall_overlap(const tn_crowd *crowd);
tn_status tn_flow_view_from_field(const tn_field *field, const tn_map *map, tn_cell goal,
                                  tn_vec2 *dir, uint8_t *los, int32_t cells, tn_flow_view *out);

/* hierarchy.h */
typedef struct tn_hierarchy tn_hierarchy;
typedef struct tn_hierarchy_ctx tn_hierarchy_ctx;
typedef struct tn_hierarchy_def {
    const tn_map *map;
    tn_moves moves;
    int32_t sector_size;
    int32_t portal_gap;
    int32_t landmarks;
    ...;
} tn_hierarchy_def;
tn_hierarchy_def tn_hierarchy_def_default(void);
tn_status tn_hierarchy_build(const tn_hierarchy_def *def, tn_hierarchy **out);
tn_status tn_hierarchy_update(tn_hierarchy *h, int32_t *sectors);
tn_status tn_hierarchy_refresh_landmarks(tn_hierarchy *h);
void tn_hierarchy_destroy(tn_hierarchy *h);
size_t tn_hierarchy_memory_bytes(const tn_hierarchy *h);
typedef struct tn_hierarchy_stats {
    int32_t sectors_x, sectors_y;
    int32_t nodes;
    int64_t intra_edges;
    int64_t inter_edges;
    int32_t parts;
    ...;
} tn_hierarchy_stats;
void tn_hierarchy_stats_get(const tn_hierarchy *h, tn_hierarchy_stats *out);
typedef struct tn_hierarchy_ctx_def { float weight; int32_t corridor; ...; } tn_hierarchy_ctx_def;
tn_hierarchy_ctx_def tn_hierarchy_ctx_def_default(void);
tn_status tn_hierarchy_ctx_create(const tn_hierarchy_ctx_def *def, tn_hierarchy_ctx **out);
void tn_hierarchy_ctx_destroy(tn_hierarchy_ctx *ctx);
size_t tn_hierarchy_ctx_memory_bytes(const tn_hierarchy_ctx *ctx);
typedef enum tn_hierarchy_mode { TN_HIERARCHY_FAST, TN_HIERARCHY_EXACT, ... } tn_hierarchy_mode;
typedef struct tn_hierarchy_result {
    int32_t length;
    double cost;
    int64_t expanded;
    int32_t refined;
    bool proven;
    ...;
} tn_hierarchy_result;
tn_status tn_hierarchy_path(tn_hierarchy_ctx *ctx, const tn_hierarchy *h, tn_cell start,
                            tn_cell goal, tn_hierarchy_mode mode, tn_cell *out, int32_t cap,
                            tn_hierarchy_result *res);
double tn_hierarchy_crossing_bound(const tn_hierarchy *h);

/* sector_field.h */
typedef struct tn_sector_field tn_sector_field;
typedef struct tn_sector_field_def {
    const tn_hierarchy *hierarchy;
    size_t memory_budget;
    ...;
} tn_sector_field_def;
tn_sector_field_def tn_sector_field_def_default(void);
tn_status tn_sector_field_create(const tn_sector_field_def *def, tn_sector_field **out);
void tn_sector_field_destroy(tn_sector_field *field);
size_t tn_sector_field_memory_bytes(const tn_sector_field *field);
#define TN_SECTOR_FIELD_MAX_GOALS ...
tn_status tn_sector_field_set_goal(tn_sector_field *field, const tn_cell *goals, int32_t count);
tn_status tn_sector_field_dir(tn_sector_field *field, tn_cell cell, int32_t *dir, float *cost);
tn_status tn_sector_field_path(tn_sector_field *field, tn_cell start, tn_cell *out, int32_t cap,
                               int32_t *length, double *cost);
typedef struct tn_sector_field_stats {
    int32_t goals;
    int32_t nodes_reached;
    int32_t tiles_kept;
    int32_t tiles_max;
    int64_t tiles_built;
    int64_t tiles_evicted;
    size_t tile_bytes;
    ...;
} tn_sector_field_stats;
void tn_sector_field_stats_get(const tn_sector_field *field, tn_sector_field_stats *out);
tn_status tn_flow_view_from_sector_field(const tn_sector_field *field, const tn_map *map,
                                         tn_cell goal, tn_flow_view *out);

/* broadphase.h */
typedef struct tn_bp tn_bp;
typedef enum tn_bp_kind { TN_BP_GRID, TN_BP_HASH, TN_BP_SAP, TN_BP_BRUTE, ... } tn_bp_kind;
#define TN_BP_MAX_OBJECTS ...
typedef struct tn_bp_id { uint32_t id; } tn_bp_id;
typedef struct tn_bp_pair { tn_bp_id a, b; uint32_t user_a, user_b; } tn_bp_pair;
void tn_bp_destroy(tn_bp *bp);
tn_status tn_bp_pairs_buf(const tn_bp *bp, tn_bp_pair *out, int64_t cap, int64_t *len);

/* io.h */
typedef struct tn_diag {
    char file[512];
    int32_t line;
    int32_t column;
    char where[256];
    char message[256];
    ...;
} tn_diag;
size_t tn_diag_format(const tn_diag *diag, char *buf, size_t cap);
typedef enum tn_format {
    TN_FORMAT_AUTO, TN_FORMAT_MOVINGAI, TN_FORMAT_TILED, TN_FORMAT_ASCII, TN_FORMAT_TMX, ...
} tn_format;
typedef enum tn_cover_rule { TN_COVER_CENTER, TN_COVER_ANY, TN_COVER_HALF, ... } tn_cover_rule;
#define TN_COLLIDE_PROPERTIES ...
#define TN_COLLIDE_TILE_SHAPES ...
#define TN_COLLIDE_OBJECT_LAYERS ...
typedef struct tn_load_def {
    tn_format format;
    int32_t tile_width;
    int32_t tile_height;
    uint32_t collision;
    tn_cover_rule cover;
    const char *collision_layers;
    ...;
} tn_load_def;
tn_load_def tn_load_def_default(void);
tn_status tn_map_load(const char *path, const tn_load_def *opts, tn_map **out, tn_diag *diag);
typedef struct tn_scenarios tn_scenarios;
tn_status tn_scenarios_load(const char *path, const void *allocator, tn_scenarios **out,
                            tn_diag *diag);
void tn_scenarios_destroy(tn_scenarios *scen);
int32_t tn_scenarios_count(const tn_scenarios *scen);

/* the package's helpers (csrc/tnpy.h) */
tn_status tnpy_map_from_gids(int32_t width, int32_t height, int32_t tile_width,
                             int32_t tile_height, const uint32_t *gids, const uint32_t *terrain_gids,
                             const float *costs, const uint8_t *passable, int32_t terrain_count,
                             tn_map **out);
int32_t tnpy_field_dirs(const tn_field *field, int8_t *out);
tn_status tnpy_crowd_steps(tn_crowd *crowd, int32_t steps);
tn_status tnpy_crowd_steps_sectors(tn_crowd *crowd, int32_t steps, tn_sector_field **fields,
                                   const int32_t *slots, int32_t count);
int32_t tnpy_crowd_gather(const tn_crowd *crowd, uint32_t *ids, tn_vec2 *pos, tn_vec2 *vel,
                          bool *arrived, bool *held, int32_t cap);
tn_status tnpy_bp_circles(tn_bp_kind kind, const double *xy, const double *radii, int32_t count,
                          tn_bp **out);
int32_t tnpy_scenarios_gather(const tn_scenarios *scen, int32_t *ints, double *optimal);
bool tnpy_scenario_matches(const tn_scenarios *scen, int32_t index, double length);
tn_status tnpy_search_batch(tn_search *search, const tn_map *map, const tn_query *query,
                            const tn_cell *starts, const tn_cell *goals, int32_t count,
                            tn_cell *paths, int32_t path_cap, int32_t *status, int32_t *length,
                            double *cost, int64_t *expanded);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
# Only the module's own code is given here; setup.py's build_ext adds the library's objects.
ffibuilder.set_source(
    "tilenav._tilenav",
    '#include "tnpy.h"\n',
    # relative to setup.py's folder, as setuptools requires
    sources=["csrc/tnpy.c"],
    include_dirs=["csrc"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
