/* Brute-force references for the tests. Deliberately simple and slow: a Dijkstra that scans every
 * cell for the minimum (no heap), written straight from the movement rules in moves.h, so that
 * A*, JPS, fields and their optimisations are checked against something independent. */
#ifndef TN_ORACLE_H
#define TN_ORACLE_H

#include "tilenav/map.h"
#include "tilenav/moves.h"

/* Distances from the sources to every cell under `moves` (INFINITY where unreachable or
 * blocked). Step cost into c: base * tn_map_cost(c) + (extra ? extra[c] : 0). `dist` has W*H
 * entries. With `reverse` the distances are *to* the sources (steps are walked backwards), which
 * differs from forward only when costs depend on the entered cell. O((W*H)^2). */
void tn_oracle_dijkstra(const tn_map *map, const tn_moves *moves, const float *extra,
                        const tn_cell *sources, int nsources, bool reverse, double *dist);

/* Is the single step a -> b legal under the rules (adjacent, b passable, corner rule)? */
bool tn_oracle_step_ok(const tn_map *map, const tn_moves *moves, tn_cell a, tn_cell b);

/* Cost of the step a -> b (assumed legal). */
double tn_oracle_step_cost(const tn_map *map, const tn_moves *moves, const float *extra, tn_cell a,
                           tn_cell b);

/* Check a path of cells: every step legal, starts at `start`, ends at `goal`; returns its cost,
 * or -1 when any step is illegal. */
double tn_oracle_path_cost(const tn_map *map, const tn_moves *moves, const float *extra,
                           const tn_cell *cells, int n, tn_cell start, tn_cell goal);

#endif
