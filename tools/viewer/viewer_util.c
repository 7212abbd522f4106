/* Helpers shared by the viewer's modes: the screen transform of a map, terrain drawing, lines,
 * a 5x7 bitmap font, and map construction for the built-in scenes. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vw_view vw_view_fit(vw_app *app, const tn_map *map, int32_t x, int32_t y, int32_t w, int32_t h)
{
    vw_view v;
    v.w = tn_map_width(map);
    v.h = tn_map_height(map);
    v.tw = tn_map_tile_width(map);
    v.th = tn_map_tile_height(map);
    int32_t cx = w / v.w, cy = h / v.h;
    int32_t cell = cx < cy ? cx : cy;
    if (cell < 1)
        cell = 1;
    int32_t zoom = app && app->zoom > 1 ? app->zoom : 1;
    if ((int64_t)cell * zoom > 512)
        zoom = 512 / cell > 1 ? 512 / cell : 1;
    cell *= zoom;
    int32_t mw = cell * v.w, mh = cell * v.h, ox, oy;
    if (zoom == 1) {
        ox = x + (mw < w ? (w - mw) / 2 : 0);
        oy = y + (mh < h ? (h - mh) / 2 : 0);
    } else {
        ox = (int32_t)floorf((float)x + (float)w * 0.5f - app->focus_x * (float)mw);
        oy = (int32_t)floorf((float)y + (float)h * 0.5f - app->focus_y * (float)mh);
    }
    if (app) {
        app->map_px_w = (float)mw;
        app->map_px_h = (float)mh;
        app->area_cx = (float)ox + (zoom == 1 ? 0.5f : app->focus_x) * (float)mw;
        app->area_cy = (float)oy + (zoom == 1 ? 0.5f : app->focus_y) * (float)mh;
    }
    v.dv = tn_draw_view_of(map, ox, oy, cell);
    v.cell = (float)cell;
    v.scale = (float)cell / (float)v.tw;
    v.ox = (float)ox;
    v.oy = (float)oy;
    return v;
}

tn_vec2 vw_to_screen(const vw_view *v, tn_vec2 p)
{
    return (tn_vec2){v->ox + p.x * v->scale, v->oy + p.y * v->scale};
}

tn_vec2 vw_to_world(const vw_view *v, float sx, float sy)
{
    return (tn_vec2){(sx - v->ox) / v->scale, (sy - v->oy) / v->scale};
}

bool vw_cell_at(const vw_view *v, const tn_map *map, float sx, float sy, tn_cell *out)
{
    tn_vec2 w = vw_to_world(v, sx, sy);
    return tn_map_cell_at_px(map, w.x, w.y, out);
}

void vw_cell_rect(const vw_view *v, tn_cell c, int32_t inset, int32_t *x, int32_t *y, int32_t *w,
                  int32_t *h)
{
    float x0 = v->ox + (float)(c.x * v->tw) * v->scale,
          y0 = v->oy + (float)(c.y * v->th) * v->scale;
    float x1 = v->ox + (float)((c.x + 1) * v->tw) * v->scale;
    float y1 = v->oy + (float)((c.y + 1) * v->th) * v->scale;
    *x = (int32_t)floorf(x0) + inset;
    *y = (int32_t)floorf(y0) + inset;
    *w = (int32_t)floorf(x1) - (int32_t)floorf(x0) - 2 * inset;
    *h = (int32_t)floorf(y1) - (int32_t)floorf(y0) - 2 * inset;
    if (*w < 1)
        *w = 1;
    if (*h < 1)
        *h = 1;
}

tn_vec2 vw_cell_center(const vw_view *v, tn_cell c)
{
    return vw_to_screen(
        v, (tn_vec2){((float)c.x + 0.5f) * (float)v->tw, ((float)c.y + 0.5f) * (float)v->th});
}

float vw_visible_radius(const vw_view *v, float world_r, float min_px)
{
    return world_r * v->scale >= min_px ? world_r : min_px / v->scale;
}

void vw_fill_cell(tn_canvas *c, const vw_view *v, tn_cell cell, int32_t inset, tn_rgba col)
{
    int32_t x, y, w, h;
    vw_cell_rect(v, cell, inset, &x, &y, &w, &h);
    tn_canvas_fill_rect(c, x, y, w, h, col);
}

void vw_draw_map(tn_canvas *c, const vw_view *v, const tn_map *map, const tn_tileset_images *imgs)
{
    if (tn_draw_map(c, &v->dv, map, imgs, TN_DRAW_MAP_AUTO) != TN_OK)
        fprintf(stderr, "tilenav-view: cannot draw the map\n");
}

void vw_draw_cells_line(tn_canvas *c, const vw_view *v, const tn_cell *cells, int32_t n,
                        tn_rgba col)
{
    for (int32_t i = 0; i + 1 < n; i++) {
        tn_vec2 a = vw_cell_center(v, cells[i]), b = vw_cell_center(v, cells[i + 1]);
        vw_thick_line(c, a.x, a.y, b.x, b.y, col);
    }
}

void vw_thick_line(tn_canvas *c, float x0, float y0, float x1, float y1, tn_rgba col)
{
    float dx = x1 - x0, dy = y1 - y0;
    bool steep = fabsf(dy) > fabsf(dx);
    for (int32_t k = -1; k <= 1; k++) {
        float ox = steep ? (float)k : 0.0f, oy = steep ? 0.0f : (float)k;
        tn_canvas_line(c, x0 + ox, y0 + oy, x1 + ox, y1 + oy, col);
    }
}

int32_t vw_text(tn_canvas *c, int32_t x, int32_t y, int32_t size, tn_rgba col, const char *s)
{
    tn_draw_text(c, x + 1, y + 1, s, size, (tn_rgba){0, 0, 0, 200});
    return tn_draw_text(c, x, y, s, size, col);
}

/* ---- maps ---- */

tn_map *vw_clone_user_map(const vw_app *app)
{
    if (!app->user_map)
        return NULL;
    tn_map *m = NULL;
    tn_status st = tn_map_clone(app->user_map, &m);
    if (st != TN_OK)
        fprintf(stderr, "tilenav-view: cannot copy the map: %s\n", tn_status_str(st));
    return m;
}

tn_map *vw_map_from_ascii(const char *const *rows, int32_t h, int32_t tile)
{
    int32_t w = (int32_t)strlen(rows[0]);
    tn_map_def d = tn_map_def_default();
    d.width = w;
    d.height = h;
    d.tile_width = d.tile_height = tile;
    tn_map *m = NULL;
    int32_t ground = -1, bombs = -1;
    if (tn_map_create(&d, &m) != TN_OK)
        return NULL;
    if (tn_map_add_layer(m, "ground", TN_LAYER_TILES, &ground) != TN_OK ||
        tn_map_add_layer(m, "bombs", TN_LAYER_TILES, &bombs) != TN_OK ||
        tn_map_set_layer_flags(m, bombs, TN_LAYER_HIDDEN) != TN_OK ||
        tn_map_set_terrain(m, VW_GID_WALL, (tn_terrain){false, 1.0f}) != TN_OK ||
        tn_map_set_terrain(m, VW_GID_GRASS, (tn_terrain){true, 3.0f}) != TN_OK ||
        tn_map_set_terrain(m, VW_GID_ROAD, (tn_terrain){true, 0.5f}) != TN_OK) {
        tn_map_destroy(m);
        return NULL;
    }
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w && rows[y][x]; x++) {
            char ch = rows[y][x];
            tn_status st = TN_OK;
            if (ch == '#')
                st = tn_map_set(m, ground, x, y, VW_GID_WALL);
            else if (ch == ',')
                st = tn_map_set(m, ground, x, y, VW_GID_GRASS);
            else if (ch == '=')
                st = tn_map_set(m, ground, x, y, VW_GID_ROAD);
            else if (ch == 'B')
                st = tn_map_set(m, bombs, x, y, VW_GID_BOMB);
            if (st != TN_OK) {
                tn_map_destroy(m);
                return NULL;
            }
        }
    return m;
}

tn_cell vw_nearest_passable(const tn_map *map, int32_t x, int32_t y)
{
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    int32_t rmax = w > h ? w : h;
    for (int32_t r = 0; r <= rmax; r++)
        for (int32_t dy = -r; dy <= r; dy++)
            for (int32_t dx = -r; dx <= r; dx++) {
                if (abs(dx) != r && abs(dy) != r)
                    continue;
                if (tn_map_passable(map, x + dx, y + dy))
                    return (tn_cell){x + dx, y + dy};
            }
    return (tn_cell){-1, -1};
}

void vw_print_view(const char *name, const vw_view *v)
{
    printf("%s %.0f %.0f %.0f\n", name, (double)v->ox, (double)v->oy, (double)v->cell);
}
