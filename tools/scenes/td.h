/* Tower defense pieces shared by `tilenav demo` (tools/cli/cmd_demo.c) and the viewer's "td"
 * mode (tools/viewer/mode_td.c): where creeps spawn and leave, which tile a tower is built
 * with, and a creep as a crowd agent. A map marks its points with objects named "spawn..." and
 * "exit"; towers are drawn with the map's own wall tile, so that pictures show them in the
 * map's art. */
#ifndef TN_SCENES_TD_H
#define TN_SCENES_TD_H

#include "tilenav/crowd.h"
#include "tilenav/map.h"
#include "tilenav/rng.h"

/* The passable cells under the centres of the objects named "spawn..." (up to `max`, in map
 * order) and of the object named "exit" (the last one). *nspawns is the count found, *exit is
 * {-1, -1} when there is none. */
void tn_td_find_points(const tn_map *map, tn_cell *spawns, int32_t max, int32_t *nspawns,
                       tn_cell *exit);

/* The tile towers are built with: the first blocking gid of the layer named "walls", else of
 * any tile layer, with its layer. A map without one gets a "towers" layer and gid 0xFFFFF made
 * blocking. Returns TN_OK, or the status of the failed edit (TN_E_NOMEM, ...). */
tn_status tn_td_wall_tile(tn_map *map, int32_t *layer, uint32_t *gid);

/* A creep: its agent in the crowd and its hit points. */
typedef struct tn_td_creep {
    tn_agent_id id;
    int32_t hp;
} tn_td_creep;

/* The cells a new tower must not cut off from the exit (tn_field_would_wall_off): the spawns,
 * then the passable cell under every creep, so that no creep is left in a pocket without a way
 * out. `out` has room for nspawns + ncreeps cells; returns the count written. */
int32_t tn_td_guard_cells(const tn_map *map, const tn_crowd *crowd, const tn_cell *spawns,
                          int32_t nspawns, const tn_td_creep *creeps, int32_t ncreeps,
                          tn_cell *out);

/* A creep of `radius` pixels entering at `spawn`: placed in the cell with a random offset (two
 * draws from `rng`, x then y) that keeps it inside the cell, following flow field 0 at up to
 * `speed` tiles per second. */
tn_agent_def tn_td_creep_def(const tn_map *map, tn_cell spawn, float radius, float speed,
                             tn_rng *rng);

#endif
