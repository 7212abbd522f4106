/* Bulk helpers of the Python package: loops over tilenav's public API (see tnpy.c). */
#ifndef TNPY_H
#define TNPY_H

#include <tilenav/io.h>
#include <tilenav/tilenav.h>

/// A map of one tile layer "cost" holding `gids` (W*H, row-major) and the terrain entries
/// terrain_gids[i] -> (passable[i], costs[i]).
tn_status tnpy_map_from_gids(int32_t width, int32_t height, int32_t tile_width, int32_t tile_height,
                             const uint32_t *gids, const uint32_t *terrain_gids, const float *costs,
                             const uint8_t *passable, int32_t terrain_count, tn_map **out);
/// Every cell's tn_field_dir() into `out` (W*H). Returns W*H.
int32_t tnpy_field_dirs(const tn_field *field, int8_t *out);
/// tn_crowd_step() `steps` times; the first error stops it.
tn_status tnpy_crowd_steps(tn_crowd *crowd, int32_t steps);
/// The same, with the tiles of sector fields `fields[k]` (followed through flow slot
/// `slots[k]`) built before each step (tn_crowd_prepare_sector_field).
tn_status tnpy_crowd_steps_sectors(tn_crowd *crowd, int32_t steps, tn_sector_field **fields,
                                   const int32_t *slots, int32_t count);
/// The live agents' ids, positions, velocities and arrived and held flags (tn_crowd_agent_at
/// order), at most `cap`.
int32_t tnpy_crowd_gather(const tn_crowd *crowd, uint32_t *ids, tn_vec2 *pos, tn_vec2 *vel,
                          bool *arrived, bool *held, int32_t cap);
/// A broad phase of `count` circles (centres xy[2i], xy[2i+1], radii[i]; user value i), boxes
/// inserted and updated; grids get a world and cell size fitted to the circles.
tn_status tnpy_bp_circles(tn_bp_kind kind, const double *xy, const double *radii, int32_t count,
                          tn_bp **out);
/// Scenarios as rows of 8 ints (bucket, map w, map h, sx, sy, gx, gy, decimals) and optimal
/// lengths. Returns the count.
int32_t tnpy_scenarios_gather(const tn_scenarios *scen, int32_t *ints, double *optimal);
/// tn_scenario_matches() of scenario `index`.
bool tnpy_scenario_matches(const tn_scenarios *scen, int32_t index, double length);
/// tn_search_batch() on one context, without threads: query i from starts[i] to goals[i],
/// its cells at paths + i * path_cap, its status, length (or the length needed), cost and
/// expansions in the four arrays.
tn_status tnpy_search_batch(tn_search *search, const tn_map *map, const tn_query *query,
                            const tn_cell *starts, const tn_cell *goals, int32_t count,
                            tn_cell *paths, int32_t path_cap, int32_t *status, int32_t *length,
                            double *cost, int64_t *expanded);
/// tn_map_set() of `gid` on each of `cells` in tile layer `layer`, all or nothing for cells
/// outside the map (TN_E_OUT_OF_MAP, *bad = the first such index; nothing set). Cells that
/// are exactly a rectangle are set by one tn_map_fill(): one entry of the map's change log
/// instead of one per cell (the log keeps 64).
tn_status tnpy_map_set_cells(tn_map *map, int32_t layer, const tn_cell *cells, int32_t count,
                             uint32_t gid, int32_t *bad);
/// Mark in `used` (cap bytes, zeroed first) the gids below `cap` that some cell of tile layer
/// `layer` holds. Returns the number of cells holding a gid past it, or -1 for a bad layer.
int64_t tnpy_layer_gids_used(const tn_map *map, int32_t layer, uint8_t *used, uint32_t cap);
/// Every cell's tn_regions_id() for units of `size` into `out` (W*H, row-major). Returns W*H.
int32_t tnpy_regions_ids(const tn_regions *regions, int32_t size, int32_t *out);

#endif
