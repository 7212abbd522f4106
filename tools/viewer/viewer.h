/* tilenav-view: the interactive viewer (SDL2). Each scene of the reference documents is a mode
 * (mode_*.c) behind one small interface; viewer.c owns the window, the fixed-step clock, the
 * command line, screenshots and scripted input. Modes see the map, the canvas and SDL events,
 * and draw each frame into a tn_canvas that viewer.c uploads to an SDL texture. */
#ifndef TN_VIEWER_H
#define TN_VIEWER_H

#include "render/draw.h"
#include "render/render.h"
#include "scenes.h"
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#define VW_STEP_HZ 60
#define VW_DT (1.0f / (float)VW_STEP_HZ)

/* Screen transform of a map: screen = origin + world_px * scale (whole pixels per cell). */
typedef struct vw_view {
    tn_draw_view dv; /* the same transform for tools/render/draw.h */
    float ox, oy;    /* screen position of the map's top-left corner */
    float scale;     /* screen pixels per world pixel */
    float cell;      /* screen pixels per cell */
    int32_t w, h;    /* map size in cells */
    int32_t tw, th;  /* tile size in world pixels */
} vw_view;

typedef struct vw_app {
    const tn_map *user_map;             /* the map from the command line, or NULL */
    const tn_tileset_images *user_imgs; /* its tileset images (NULL: palette) */
    const char *map_path;
    uint64_t seed;
    uint64_t step; /* simulation steps of the current mode */
    char status[256];
    bool help;
    /* camera, shared by the modes: zoom factor over the fitted size (1 = whole map) and the
     * map point (0..1 of its width and height) shown at the middle of the mode's area */
    int32_t zoom;
    float focus_x, focus_y;
    float map_px_w, map_px_h; /* size of the map on screen at the last vw_view_fit() */
    float area_cx, area_cy;   /* middle of the area of the last vw_view_fit() */
} vw_app;

typedef struct vw_mode {
    const char *name;  /* --mode NAME */
    const char *title; /* one line */
    const char *help;  /* lines separated by '\n' */
    /* create the mode's state for app->user_map (or its built-in map); NULL on failure */
    void *(*create)(vw_app *app);
    void (*destroy)(void *st);
    void (*event)(void *st, vw_app *app, const SDL_Event *ev);
    void (*step)(void *st, vw_app *app, const uint8_t *keys); /* one 1/60 s step */
    void (*draw)(void *st, vw_app *app, tn_canvas *c);
    /* print the layout facts a test needs (--layout); may be NULL */
    void (*layout)(void *st, vw_app *app);
} vw_mode;

extern const vw_mode vw_mode_maze, vw_mode_heuristics, vw_mode_car, vw_mode_marbles, vw_mode_bombs,
    vw_mode_td;

/* ---- helpers shared by the modes (viewer_util.c) ---- */

static inline tn_rgba vw_rgb(uint32_t rgb)
{
    return (tn_rgba){(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 255};
}
static inline tn_rgba vw_rgba(uint32_t rgb, uint8_t a)
{
    tn_rgba c = vw_rgb(rgb);
    c.a = a;
    return c;
}

/* Fit a map into the screen rectangle (x, y, w, h), centred, whole pixels per cell (at least
 * one), then apply the app's camera (zoom and focus); records the map's size on screen in the
 * app for the camera's mouse handling. Modes call it on every event and frame. */
vw_view vw_view_fit(vw_app *app, const tn_map *map, int32_t x, int32_t y, int32_t w, int32_t h);
#define VW_AREA 0, 0, VW_CANVAS_W, VW_CANVAS_H - VW_BAR_H
tn_vec2 vw_to_screen(const vw_view *v, tn_vec2 world);
tn_vec2 vw_to_world(const vw_view *v, float sx, float sy);
/* Cell under a screen point; false outside the map. */
bool vw_cell_at(const vw_view *v, const tn_map *map, float sx, float sy, tn_cell *out);
/* Screen rectangle of a cell, inset by `inset` pixels on each side. */
void vw_cell_rect(const vw_view *v, tn_cell c, int32_t inset, int32_t *x, int32_t *y, int32_t *w,
                  int32_t *h);
tn_vec2 vw_cell_center(const vw_view *v, tn_cell c);
/* A world radius drawn at least `min_px` screen pixels (things stay visible on big maps). */
float vw_visible_radius(const vw_view *v, float world_r, float min_px);

/* Print "view OX OY CELL" (the layout line tests read). */
void vw_print_view(const char *name, const vw_view *v);
/* The map through draw.h: tileset art where `imgs` has it, the terrain palette elsewhere. */
void vw_draw_map(tn_canvas *c, const vw_view *v, const tn_map *map, const tn_tileset_images *imgs);
/* Fill one cell (inset). */
void vw_fill_cell(tn_canvas *c, const vw_view *v, tn_cell cell, int32_t inset, tn_rgba col);
/* A polyline through cell centres. */
void vw_draw_cells_line(tn_canvas *c, const vw_view *v, const tn_cell *cells, int32_t n,
                        tn_rgba col);
/* A thick line (three parallel one-pixel lines). */
void vw_thick_line(tn_canvas *c, float x0, float y0, float x1, float y1, tn_rgba col);
/* Text (draw.h's labels) with a dark shadow for contrast; returns the width drawn. */
int32_t vw_text(tn_canvas *c, int32_t x, int32_t y, int32_t size, tn_rgba col, const char *s);

/* A copy of the user's map, or NULL when none was given; prints an error on failure. */
tn_map *vw_clone_user_map(const vw_app *app);
/* Build a map from ASCII rows: '#' wall (gid 1), '.' floor, ',' grass (gid 2, cost 3),
 * '=' road (gid 4, cost 0.5),
 * 'B' floor with a bomb (layer "bombs", gid 3; neither terrain nor drawn by draw.h).
 * Tile size in pixels. */
tn_map *vw_map_from_ascii(const char *const *rows, int32_t h, int32_t tile);
/* A passable cell near (x, y) (spiral search), or (-1, -1). */
tn_cell vw_nearest_passable(const tn_map *map, int32_t x, int32_t y);

#define VW_GID_WALL 1u
#define VW_GID_GRASS 2u
#define VW_GID_BOMB 3u
#define VW_GID_ROAD 4u

#endif
