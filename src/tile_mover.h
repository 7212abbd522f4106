/* STAND-IN for the shared tile collision (include/tilenav/tile_collision.h, being built in its
 * own branch). A minimal circle-versus-cells mover used by the crowd and the formation code;
 * every caller goes through these three functions, so switching to the shared mover is a change
 * of this file only. To be replaced: do not grow it. */
#ifndef TILENAV_TILE_MOVER_H
#define TILENAV_TILE_MOVER_H

#include "tilenav/map.h"

typedef struct tn__mover {
    const uint8_t *pass; /* W*H passability */
    int32_t w, h;
    float tw, th;
} tn__mover;

tn__mover tn__mover_of_map(const tn_map *map);
/* Does a circle at (x, y) of radius r stay clear of every impassable cell and of the outside? */
bool tn__mover_fits(const tn__mover *m, float x, float y, float r);
/* Move a circle that fits by (dx, dy), sub-stepped (at most a quarter tile per sub-step) so it
 * never tunnels, sliding along walls; it still fits afterwards. */
void tn__mover_move(const tn__mover *m, float *x, float *y, float r, float dx, float dy);
/* Deepest overlap, pixels, of the circle with an impassable cell or the outside (0 if none). */
float tn__mover_overlap(const tn__mover *m, float x, float y, float r);

#endif
