/* Scene drawing for the tools (not part of the library): one layer that every picture of the
 * CLI (`--png` options, `tilenav demo`) and the SDL2 viewer draws through.
 *
 * Concept: everything draws into a tn_canvas (render.h) through a tn_draw_view, which maps the
 * map's world onto canvas pixels: cell (x, y) covers canvas pixels [ox + x*cell, ox + (x+1)*cell)
 * x [oy + y*cell, oy + (y+1)*cell), and a world position in map pixels (agents, waypoints,
 * broad-phase boxes) lands at ox + px * cell / tile_w, oy + py * cell / tile_h. Callers compose a
 * picture by calling the draw functions in painter's order: map, field, LOS, path, grid cells,
 * range rings, agents, text. Drawing is clipped to the canvas; nothing is drawn outside it.
 *
 * Tileset art: tn_tileset_images_load() reads each tileset image of a map once (PNG through
 * libpng; kept inside tools/render). It fails soft: a tileset whose image is missing or
 * unreadable is drawn with the default palette, and the loader says which and why in a message;
 * only running out of memory or bad arguments fail the call. The image path of a tileset loaded
 * by the Tiled loader is already resolved against the map file's directory; a relative path
 * that is not (a map built in code) is resolved against `base_dir`.
 *
 * Default palette (no image, or TN_DRAW_MAP_PALETTE): a cell is coloured from its terrain:
 * impassable cells dark slate, passable cells green, costlier cells (cost > 1) browner with the
 * cost, cheaper cells (cost < 1, roads) sand; non-terrain layers without art draw a small inset
 * square per gid, coloured by a hash of the tile id.
 *
 * Tiled details honoured: several tilesets (the one with the largest firstgid <= id owns a
 * gid), margin and spacing, tiles larger than the map's cells (anchored at the cell's bottom-left
 * as Tiled does), flip bits (horizontal, vertical, diagonal = anti-transpose combos as in Tiled),
 * hidden layers (TN_LAYER_HIDDEN) skipped. Sampling is nearest-neighbour; alpha is blended.
 *
 * Ownership: a tn_tileset_images is owned by the caller (free with tn_tileset_images_free);
 * nothing else allocates except tn_draw_range_rings (a bit mask of the rings' bounding box).
 * Threads: draw functions only read their inputs; drawing into distinct canvases from several
 * threads is fine. Errors: functions that can fail return a tn_status (TN_E_INVALID_ARG for
 * NULL, a view with cell < 1 or non-finite/non-positive tile sizes, negative counts, ...);
 * the others draw nothing on bad input. Non-finite or huge coordinates are skipped or clamped,
 * never cast blindly. Output is deterministic (same inputs, same pixels). */
#ifndef TN_RENDER_DRAW_H
#define TN_RENDER_DRAW_H

#include "render.h"
#include "tilenav/base.h"
#include "tilenav/broadphase.h"
#include "tilenav/crowd.h"
#include "tilenav/dirmap.h"
#include "tilenav/field.h"
#include "tilenav/map.h"

#include <stddef.h>

/* ---- view ---------------------------------------------------------------------------------- */

/* Where the world lands on the canvas. */
typedef struct tn_draw_view {
    int32_t ox, oy;       /* canvas pixel of the top-left corner of cell (0, 0), |.| <= 2^26 */
    int32_t cell;         /* canvas pixels per cell side, >= 1 */
    float tile_w, tile_h; /* world units (map pixels) per cell, 1e-6 .. 1e15 */
} tn_draw_view;

/* A view of `map` with cell (0, 0) at canvas (ox, oy) and `cell` canvas pixels per cell
 * (tile sizes from the map; 32 x 32 when map is NULL). */
tn_draw_view tn_draw_view_of(const tn_map *map, int32_t ox, int32_t oy, int32_t cell);
/* A cell size that makes a w x h-cell map about `target` pixels on its longer side, clamped to
 * [1, max_cell] (the CLI's default `--scale`). w, h < 1 give 1. */
int32_t tn_draw_fit_cell(int32_t w, int32_t h, int32_t target, int32_t max_cell);
/* True when the view is usable (cell 1..65536, tile sizes 1e-6..1e15, |ox|, |oy| <= 2^26). */
bool tn_draw_view_valid(const tn_draw_view *v);
/* Canvas position of a world position (map pixels), and of a cell's centre. */
tn_vec2 tn_draw_world_to_canvas(const tn_draw_view *v, tn_vec2 world);
tn_vec2 tn_draw_cell_center(const tn_draw_view *v, int32_t x, int32_t y);
/* World position (map pixels) of a canvas pixel's centre (the viewer's mouse picking). */
tn_vec2 tn_draw_canvas_to_world(const tn_draw_view *v, int32_t cx, int32_t cy);

/* ---- tileset images ------------------------------------------------------------------------- */

typedef struct tn_tileset_images tn_tileset_images;

/* Load the image of every tileset of `map` (tn_map_tileset_at order). `*out` gets an object even
 * when some images are missing (those tilesets fall back to the palette): the result is TN_OK
 * when every tileset with an image path loaded, TN_PARTIAL when some did not (the reasons, one
 * per line, "tileset 'NAME': IMAGE: why", go into msg when not NULL, truncated to msgcap).
 * A tileset image must be at least as large as its declared grid (margin, spacing, columns,
 * rows of tile_count) or it is refused the same way. base_dir (NULL = current directory)
 * resolves relative image paths that do not exist as given.
 * Returns TN_E_INVALID_ARG (NULL map/out), TN_E_NOMEM (then *out is NULL). */
tn_status tn_tileset_images_load(const tn_map *map, const char *base_dir, tn_tileset_images **out,
                                 char *msg, size_t msgcap);
/* Free. NULL is a no-op. */
void tn_tileset_images_free(tn_tileset_images *imgs);
/* How many tilesets have pixels loaded. */
int32_t tn_tileset_images_loaded(const tn_tileset_images *imgs);

/* ---- map --------------------------------------------------------------------------------- */

typedef enum tn_draw_map_mode {
    TN_DRAW_MAP_AUTO = 0,    /* tileset art where loaded, the palette elsewhere */
    TN_DRAW_MAP_PALETTE = 1, /* the terrain palette only (ignores images) */
} tn_draw_map_mode;

/* The default palette's colour of a cell of the given terrain (passable, cost). */
tn_rgba tn_draw_terrain_color(bool passable, float cost);

/* Draw every visible tile layer of `map` in layer order: first the terrain palette under every
 * cell (so cells without art still show their terrain), then each tile with art over it.
 * `imgs` may be NULL (palette only). In AUTO mode a cell whose tiles are all drawn from art
 * shows only the art. Returns TN_E_INVALID_ARG on NULL canvas/map/view or an invalid view. */
tn_status tn_draw_map(tn_canvas *cv, const tn_draw_view *v, const tn_map *map,
                      const tn_tileset_images *imgs, tn_draw_map_mode mode);

/* ---- paths -------------------------------------------------------------------------------- */

/* A path of cells: each cell tinted with `col` (its alpha as given), then a line through the
 * cell centres in the same colour made opaque; the first cell gets a ring, the last a disc.
 * n == 0 draws nothing. TN_E_INVALID_ARG on NULL (with n > 0) or n < 0. */
tn_status tn_draw_path_cells(tn_canvas *cv, const tn_draw_view *v, const tn_cell *cells, int32_t n,
                             tn_rgba col);
/* A polyline through world positions (map pixels, e.g. smoothed waypoints), with a small disc on
 * every point. */
tn_status tn_draw_path_points(tn_canvas *cv, const tn_draw_view *v, const tn_vec2 *pts, int32_t n,
                              tn_rgba col);

/* ---- fields and line of sight ---------------------------------------------------------------- */

typedef struct tn_draw_field_opts {
    uint8_t heat_alpha;  /* alpha of the heat map over what is below (255 = opaque; 0 = none) */
    bool arrows;         /* flow arrows (only drawn when cell >= 6) */
    tn_rgba arrow_color; /* default black at alpha 200 */
    bool goals;          /* a white disc on every goal cell (distance 0) */
    tn_rgba unreachable; /* fill of passable cells the field cannot reach (alpha 0 = none;
                          * needs the map to tell them from blocked cells) */
} tn_draw_field_opts;

/* Defaults: opaque heat map, arrows, goals, unreachable cells dark grey. */
tn_draw_field_opts tn_draw_field_opts_default(void);
/* Heat map of the field's distances (near = blue ... far = red, scaled by the largest finite
 * distance), flow arrows along tn_field_vector and goal discs. Cells of infinite distance are
 * left as they are, except passable cells of `map` (when not NULL; the field's map) which get
 * opts->unreachable. opts NULL = defaults. The field must be built.
 * TN_E_INVALID_ARG on NULL, an invalid view; TN_E_STATE when the field is not ready. */
tn_status tn_draw_field(tn_canvas *cv, const tn_draw_view *v, const tn_field *f, const tn_map *map,
                        const tn_draw_field_opts *opts);
/* Tint every cell where the field has line of sight to its goal (tn_field_los). */
tn_status tn_draw_los(tn_canvas *cv, const tn_draw_view *v, const tn_field *f, tn_rgba col);
/* Tint every cell whose byte in `mask` (w*h bytes, row-major) is non-zero: LOS computed some
 * other way, a search's closed set, a region... */
tn_status tn_draw_cell_mask(tn_canvas *cv, const tn_draw_view *v, const uint8_t *mask, int32_t w,
                            int32_t h, tn_rgba col);

/* A heat map of any per-cell values (an influence map, a search's costs, ...): `values` holds w*h
 * floats, row-major; cells with a finite value >= 0 get tn_heat_color(value / vmax) at `alpha`,
 * the others are left as they are. vmax <= 0 (or not finite) = the largest finite value.
 * TN_E_INVALID_ARG on NULL, w or h < 1, an invalid view. */
tn_status tn_draw_heat_cells(tn_canvas *cv, const tn_draw_view *v, const float *values, int32_t w,
                             int32_t h, float vmax, uint8_t alpha);
/* A direction ("angle") map: an arrow along each cell's heading (cells without one are left
 * alone), 0.8 cells long, when cells are 6 canvas pixels or more. */
tn_status tn_draw_dirmap(tn_canvas *cv, const tn_draw_view *v, const tn_dirmap *dm, tn_rgba col);

/* ---- agents ------------------------------------------------------------------------------- */

/* One thing to draw as a disc with a heading line. */
typedef struct tn_draw_agent {
    tn_vec2 pos;   /* world (map pixels) */
    float radius;  /* world units */
    float heading; /* radians, 0 = +x, y down */
    tn_rgba color;
} tn_draw_agent;

/* Discs (at least 0.7 canvas pixels across) with a heading line 1.6 radii long in `line` when
 * the disc is at least 2 canvas pixels in radius. */
tn_status tn_draw_agents(tn_canvas *cv, const tn_draw_view *v, const tn_draw_agent *agents,
                         int32_t n, tn_rgba line);
/* Every agent of a crowd, all in `col`. */
tn_status tn_draw_crowd(tn_canvas *cv, const tn_draw_view *v, const tn_crowd *crowd, tn_rgba col,
                        tn_rgba line);

/* Axis-aligned boxes in world units (a character's feet, bombs, collision areas): filled, or
 * outlined one canvas pixel wide inside the box. Boxes that are not finite or inverted are
 * skipped. */
tn_status tn_draw_boxes(tn_canvas *cv, const tn_draw_view *v, const tn_box *boxes, int32_t n,
                        tn_rgba col, bool fill);

/* ---- broad phase -------------------------------------------------------------------------- */

/* The broad phase's uniform grid: lines every `cell_size` world units from (origin_x, origin_y)
 * over the boxes' extent clipped to the canvas, each grid cell tinted by how many box centres it
 * holds (the cell a TN_BP_GRID/HASH files an object under): `occupied` at its alpha for one, up
 * to twice that alpha for four or more; then every box outlined in `box_col` (alpha 0 = none).
 * cell_size must be finite and > 0. */
tn_status tn_draw_grid_cells(tn_canvas *cv, const tn_draw_view *v, const tn_box *boxes, int32_t n,
                             double cell_size, double origin_x, double origin_y, tn_rgba occupied,
                             tn_rgba box_col);
/* The same for every object of a broad phase (boxes read with tn_bp_query_box over `world`).
 * Allocates a temporary list of boxes. */
tn_status tn_draw_bp(tn_canvas *cv, const tn_draw_view *v, const tn_bp *bp, tn_box world,
                     double cell_size, tn_rgba occupied, tn_rgba box_col);

/* ---- range rings -------------------------------------------------------------------------- */

typedef enum tn_draw_rings_mode {
    TN_DRAW_RINGS_OUTLINE = 0, /* the outline of the union of the discs */
    TN_DRAW_RINGS_FILL = 1,    /* the union filled once (overlaps not darker) plus its outline
                                * at alpha 200 or col's alpha if higher */
} tn_draw_rings_mode;

/* Towers' combined ranges: the union of discs (centres in world pixels, radius in world units,
 * one radius for all). The outline is one canvas pixel wide, inside the union. */
tn_status tn_draw_range_rings(tn_canvas *cv, const tn_draw_view *v, const tn_vec2 *centers,
                              int32_t n, float radius, tn_rgba col, tn_draw_rings_mode mode);

/* ---- text --------------------------------------------------------------------------------- */

/* A small label with its top-left at canvas (x, y), glyphs from stb_easy_font (about 6 x 7
 * pixels per character at size 1) scaled by `size` >= 1; '\n' starts a new line. Returns the
 * width in canvas pixels of the widest line (0 when the tool was built without stb_easy_font,
 * then nothing is drawn). */
int32_t tn_draw_text(tn_canvas *cv, int32_t x, int32_t y, const char *text, int32_t size,
                     tn_rgba col);
/* Width and height of a label without drawing it. */
void tn_draw_text_size(const char *text, int32_t size, int32_t *w, int32_t *h);

#endif
