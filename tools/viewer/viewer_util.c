/* Helpers shared by the viewer's modes: the screen transform of a map, terrain drawing, lines,
 * a 5x7 bitmap font, and map construction for the built-in scenes. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vw_view vw_view_fit(const tn_map *map, int32_t x, int32_t y, int32_t w, int32_t h)
{
    vw_view v;
    v.w = tn_map_width(map);
    v.h = tn_map_height(map);
    v.tw = tn_map_tile_width(map);
    v.th = tn_map_tile_height(map);
    float sx = (float)w / ((float)v.w * (float)v.tw), sy = (float)h / ((float)v.h * (float)v.th);
    v.scale = sx < sy ? sx : sy;
    float cell = v.scale * (float)v.tw;
    if (cell >= 2.0f) { /* whole pixels per cell keep grid lines crisp */
        cell = floorf(cell);
        v.scale = cell / (float)v.tw;
    }
    v.cell = cell;
    float mw = v.scale * (float)(v.w * v.tw), mh = v.scale * (float)(v.h * v.th);
    v.ox = floorf((float)x + ((float)w - mw) * 0.5f);
    v.oy = floorf((float)y + ((float)h - mh) * 0.5f);
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
    float x0 = v->ox + (float)(c.x * v->tw) * v->scale, y0 = v->oy + (float)(c.y * v->th) * v->scale;
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
    return vw_to_screen(v, (tn_vec2){((float)c.x + 0.5f) * (float)v->tw,
                                     ((float)c.y + 0.5f) * (float)v->th});
}

void vw_fill_cell(tn_canvas *c, const vw_view *v, tn_cell cell, int32_t inset, tn_rgba col)
{
    int32_t x, y, w, h;
    vw_cell_rect(v, cell, inset, &x, &y, &w, &h);
    tn_canvas_fill_rect(c, x, y, w, h, col);
}

void vw_draw_map(tn_canvas *c, const vw_view *v, const tn_map *map)
{
    const uint8_t *pass = tn_map_passable_data(map);
    const float *cost = tn_map_cost_data(map);
    for (int32_t y = 0; y < v->h; y++)
        for (int32_t x = 0; x < v->w; x++) {
            size_t i = (size_t)y * (size_t)v->w + (size_t)x;
            tn_rgba col;
            if (!pass[i])
                col = vw_rgb(0x3A3F4Bu);
            else if (cost[i] > 1.0f) { /* grass, mud: greener with cost */
                float t = fminf((cost[i] - 1.0f) / 4.0f, 1.0f);
                col = (tn_rgba){(uint8_t)(110 - 60 * t), (uint8_t)(170 - 40 * t),
                                (uint8_t)(90 - 50 * t), 255};
            } else
                col = ((x + y) & 1) ? vw_rgb(0xD8D2C0u) : vw_rgb(0xD0CAB8u);
            vw_fill_cell(c, v, (tn_cell){x, y}, 0, col);
        }
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

/* ---- 5x7 font: ASCII 32..126, five columns per glyph, bit 0 at the top ---- */
static const uint8_t font5x7[95][5] = {
    {0x00, 0x00, 0x00, 0x00, 0x00}, {0x00, 0x00, 0x5F, 0x00, 0x00}, {0x00, 0x07, 0x00, 0x07, 0x00},
    {0x14, 0x7F, 0x14, 0x7F, 0x14}, {0x24, 0x2A, 0x7F, 0x2A, 0x12}, {0x23, 0x13, 0x08, 0x64, 0x62},
    {0x36, 0x49, 0x55, 0x22, 0x50}, {0x00, 0x05, 0x03, 0x00, 0x00}, {0x00, 0x1C, 0x22, 0x41, 0x00},
    {0x00, 0x41, 0x22, 0x1C, 0x00}, {0x08, 0x2A, 0x1C, 0x2A, 0x08}, {0x08, 0x08, 0x3E, 0x08, 0x08},
    {0x00, 0x50, 0x30, 0x00, 0x00}, {0x08, 0x08, 0x08, 0x08, 0x08}, {0x00, 0x60, 0x60, 0x00, 0x00},
    {0x20, 0x10, 0x08, 0x04, 0x02}, {0x3E, 0x51, 0x49, 0x45, 0x3E}, {0x00, 0x42, 0x7F, 0x40, 0x00},
    {0x42, 0x61, 0x51, 0x49, 0x46}, {0x21, 0x41, 0x45, 0x4B, 0x31}, {0x18, 0x14, 0x12, 0x7F, 0x10},
    {0x27, 0x45, 0x45, 0x45, 0x39}, {0x3C, 0x4A, 0x49, 0x49, 0x30}, {0x01, 0x71, 0x09, 0x05, 0x03},
    {0x36, 0x49, 0x49, 0x49, 0x36}, {0x06, 0x49, 0x49, 0x29, 0x1E}, {0x00, 0x36, 0x36, 0x00, 0x00},
    {0x00, 0x56, 0x36, 0x00, 0x00}, {0x08, 0x14, 0x22, 0x41, 0x00}, {0x14, 0x14, 0x14, 0x14, 0x14},
    {0x00, 0x41, 0x22, 0x14, 0x08}, {0x02, 0x01, 0x51, 0x09, 0x06}, {0x32, 0x49, 0x79, 0x41, 0x3E},
    {0x7E, 0x11, 0x11, 0x11, 0x7E}, {0x7F, 0x49, 0x49, 0x49, 0x36}, {0x3E, 0x41, 0x41, 0x41, 0x22},
    {0x7F, 0x41, 0x41, 0x22, 0x1C}, {0x7F, 0x49, 0x49, 0x49, 0x41}, {0x7F, 0x09, 0x09, 0x01, 0x01},
    {0x3E, 0x41, 0x41, 0x51, 0x32}, {0x7F, 0x08, 0x08, 0x08, 0x7F}, {0x00, 0x41, 0x7F, 0x41, 0x00},
    {0x20, 0x40, 0x41, 0x3F, 0x01}, {0x7F, 0x08, 0x14, 0x22, 0x41}, {0x7F, 0x40, 0x40, 0x40, 0x40},
    {0x7F, 0x02, 0x04, 0x02, 0x7F}, {0x7F, 0x04, 0x08, 0x10, 0x7F}, {0x3E, 0x41, 0x41, 0x41, 0x3E},
    {0x7F, 0x09, 0x09, 0x09, 0x06}, {0x3E, 0x41, 0x51, 0x21, 0x5E}, {0x7F, 0x09, 0x19, 0x29, 0x46},
    {0x46, 0x49, 0x49, 0x49, 0x31}, {0x01, 0x01, 0x7F, 0x01, 0x01}, {0x3F, 0x40, 0x40, 0x40, 0x3F},
    {0x1F, 0x20, 0x40, 0x20, 0x1F}, {0x7F, 0x20, 0x18, 0x20, 0x7F}, {0x63, 0x14, 0x08, 0x14, 0x63},
    {0x03, 0x04, 0x78, 0x04, 0x03}, {0x61, 0x51, 0x49, 0x45, 0x43}, {0x00, 0x7F, 0x41, 0x41, 0x00},
    {0x02, 0x04, 0x08, 0x10, 0x20}, {0x00, 0x41, 0x41, 0x7F, 0x00}, {0x04, 0x02, 0x01, 0x02, 0x04},
    {0x40, 0x40, 0x40, 0x40, 0x40}, {0x00, 0x01, 0x02, 0x04, 0x00}, {0x20, 0x54, 0x54, 0x54, 0x78},
    {0x7F, 0x48, 0x44, 0x44, 0x38}, {0x38, 0x44, 0x44, 0x44, 0x20}, {0x38, 0x44, 0x44, 0x48, 0x7F},
    {0x38, 0x54, 0x54, 0x54, 0x18}, {0x08, 0x7E, 0x09, 0x01, 0x02}, {0x08, 0x14, 0x54, 0x54, 0x3C},
    {0x7F, 0x08, 0x04, 0x04, 0x78}, {0x00, 0x44, 0x7D, 0x40, 0x00}, {0x20, 0x40, 0x44, 0x3D, 0x00},
    {0x00, 0x7F, 0x10, 0x28, 0x44}, {0x00, 0x41, 0x7F, 0x40, 0x00}, {0x7C, 0x04, 0x18, 0x04, 0x78},
    {0x7C, 0x08, 0x04, 0x04, 0x78}, {0x38, 0x44, 0x44, 0x44, 0x38}, {0x7C, 0x14, 0x14, 0x14, 0x08},
    {0x08, 0x14, 0x14, 0x18, 0x7C}, {0x7C, 0x08, 0x04, 0x04, 0x08}, {0x48, 0x54, 0x54, 0x54, 0x20},
    {0x04, 0x3F, 0x44, 0x40, 0x20}, {0x3C, 0x40, 0x40, 0x20, 0x7C}, {0x1C, 0x20, 0x40, 0x20, 0x1C},
    {0x3C, 0x40, 0x30, 0x40, 0x3C}, {0x44, 0x28, 0x10, 0x28, 0x44}, {0x0C, 0x50, 0x50, 0x50, 0x3C},
    {0x44, 0x64, 0x54, 0x4C, 0x44}, {0x00, 0x08, 0x36, 0x41, 0x00}, {0x00, 0x00, 0x7F, 0x00, 0x00},
    {0x00, 0x41, 0x36, 0x08, 0x00}, {0x08, 0x04, 0x08, 0x10, 0x08},
};

int32_t vw_text_width(int32_t scale, const char *s)
{
    return (int32_t)strlen(s) * 6 * scale;
}

int32_t vw_text(tn_canvas *c, int32_t x, int32_t y, int32_t scale, tn_rgba col, const char *s)
{
    int32_t x0 = x;
    for (; *s; s++) {
        unsigned ch = (unsigned char)*s;
        if (ch < 32 || ch > 126)
            ch = '?';
        const uint8_t *g = font5x7[ch - 32];
        for (int32_t cx = 0; cx < 5; cx++)
            for (int32_t cy = 0; cy < 7; cy++)
                if (g[cx] >> cy & 1)
                    tn_canvas_fill_rect(c, x + cx * scale, y + cy * scale, scale, scale, col);
        x += 6 * scale;
    }
    return x - x0;
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
        tn_map_set_layer_flags(m, bombs, 0) != TN_OK ||
        tn_map_set_terrain(m, VW_GID_WALL, (tn_terrain){false, 1.0f}) != TN_OK ||
        tn_map_set_terrain(m, VW_GID_GRASS, (tn_terrain){true, 3.0f}) != TN_OK) {
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
