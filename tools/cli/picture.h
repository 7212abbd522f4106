/* The CLI's pictures: every `--png` option starts one here, draws the map through the shared
 * scene layer (render/draw.h) with the map's tileset art when it has any, adds its own layers
 * and writes it. */
#ifndef TN_CLI_PICTURE_H
#define TN_CLI_PICTURE_H

#include "render/draw.h"

typedef struct tn_picture {
    tn_canvas cv;
    tn_draw_view view;
    tn_tileset_images *imgs; /* NULL when the map has no tilesets */
} tn_picture;

/* Results of tn_picture_begin / tn_picture_write. */
enum {
    TN_PICTURE_OK = 0,
    TN_PICTURE_IO = -1,      /* the file could not be written */
    TN_PICTURE_NO_PNG = -2,  /* built without libpng */
    TN_PICTURE_TOO_BIG = -3, /* past the canvas's limits at that scale (render.h) */
    TN_PICTURE_NOMEM = -4,
};

/* A canvas for the whole map at `cell` pixels per cell (< 1: fit about 1024 pixels, at most
 * `max_cell`), the map drawn on it (tileset art, or the palette; an image that cannot be loaded
 * is reported as "tilenav CMD: warning: ..." on stderr and drawn with the palette). */
int tn_picture_begin(tn_picture *p, const tn_map *map, int32_t cell, int32_t max_cell,
                     const char *cmd);
/* Can a picture of `map` at `cell` pixels per cell (< 1: fitted, at most `max_cell`) be
 * made? TN_PICTURE_OK, or TN_PICTURE_TOO_BIG with the reason (sizes and limits) in `why`.
 * Commands call it before any work, so a picture that cannot be made fails first (exit 5). */
int tn_picture_fits(const tn_map *map, int32_t cell, int32_t max_cell, char *why, size_t cap);
/* The checks of an output `--png FILE` (NULL: none), once the map is loaded and before any
 * work: FILE is not a file the command read (the map's tileset images are remembered as inputs
 * here, with or without FILE, for the command's other outputs too; see tn_cli_check_output)
 * and the picture fits (tn_picture_fits). TN_EXIT_OK, or the
 * exit status with the reason printed: 2 for an input, 5 for a picture past the limits. */
int tn_picture_check_output(const char *cmd, const tn_map *map, const char *file, int32_t cell,
                            int32_t max_cell);
/* Write the PNG and free everything (also on failure). */
int tn_picture_write(tn_picture *p, const char *path);
/* Free without writing (safe on a zeroed or already freed picture). */
void tn_picture_free(tn_picture *p);
/* A path picture: the map, the path of a unit of `size` cells (its centre; `cells` are its
 * top-left cells), smoothed waypoints `wp` (may be 0), a ring on the start and a disc on the
 * goal. For size > 1 also the cells its footprint sweeps, filled, and the passable cells no
 * position of the unit covers (`walk` is its size map), shaded violet. */
int tn_picture_unit_path(const char *file, int32_t scale, const tn_map *map, const tn_map *walk,
                         int32_t size, const tn_cell *cells, int32_t n, const tn_cell *wp,
                         int32_t nw, tn_cell s, tn_cell g, const char *cmd);
/* Passable cells of `map` that no position of a size x size unit covers (no top-left cell
 * within size - 1 to the left and above where it fits; `walk` is its size map): the cells
 * too narrow for it, which tn_picture_unit_path shades violet. */
bool tn_picture_too_narrow(const tn_map *map, const tn_map *walk, int32_t size, int32_t x,
                           int32_t y);
int32_t tn_picture_count_too_narrow(const tn_map *map, const tn_map *walk, int32_t size);
/* The message for a result, for "tilenav CMD: FILE: message" (for TN_PICTURE_IO the system's
 * reason, from errno: call it right after the write). */
const char *tn_picture_error(int rc);

#endif
