#include "picture.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

int tn_picture_begin(tn_picture *p, const tn_map *map, int32_t cell, int32_t max_cell,
                     const char *cmd)
{
    memset(p, 0, sizeof *p);
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    if (cell < 1)
        cell = tn_draw_fit_cell(w, h, 1024, max_cell);
    if ((int64_t)w * cell > 16384 || (int64_t)h * cell > 16384)
        return TN_PICTURE_TOO_BIG;
    if (!tn_canvas_init(&p->cv, w * cell, h * cell, (tn_rgba){20, 20, 24, 255}))
        return TN_PICTURE_NOMEM;
    p->view = tn_draw_view_of(map, 0, 0, cell);
    if (tn_map_tileset_count(map) > 0) {
        char msg[2048];
        tn_status st = tn_tileset_images_load(map, NULL, &p->imgs, msg, sizeof msg);
        if (st < 0) {
            tn_picture_free(p);
            return TN_PICTURE_NOMEM;
        }
        if (st == TN_PARTIAL) /* one line per tileset that falls back to the palette */
            for (char *save = NULL, *line = strtok_r(msg, "\n", &save); line;
                 line = strtok_r(NULL, "\n", &save))
                tn_cli_error(cmd, "warning: %s (drawn with the default palette)", line);
    }
    if (tn_draw_map(&p->cv, &p->view, map, p->imgs, TN_DRAW_MAP_AUTO) != TN_OK) {
        tn_picture_free(p);
        return TN_PICTURE_NOMEM;
    }
    if (p->imgs) /* over tileset art, blocked cells (collision shapes, objects...) get a hatch */
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                if (!tn_map_passable(map, x, y)) {
                    tn_vec2 o = tn_draw_cell_center(&p->view, x, y);
                    float r = 0.5f * (float)p->view.cell;
                    tn_canvas_fill_rect(&p->cv, (int32_t)(o.x - r), (int32_t)(o.y - r),
                                        p->view.cell, p->view.cell, (tn_rgba){0, 0, 0, 70});
                    tn_canvas_line(&p->cv, o.x - r, o.y + r - 1.0f, o.x + r - 1.0f, o.y - r,
                                   (tn_rgba){255, 80, 60, 150});
                }
    return TN_PICTURE_OK;
}

int tn_picture_write(tn_picture *p, const char *path)
{
    int rc = tn_canvas_write_png(&p->cv, path);
    tn_picture_free(p);
    return rc;
}

void tn_picture_free(tn_picture *p)
{
    tn_canvas_free(&p->cv);
    tn_tileset_images_free(p->imgs);
    p->imgs = NULL;
}

const char *tn_picture_error(int rc)
{
    switch (rc) {
    case TN_PICTURE_NO_PNG: return "this build has no PNG support";
    case TN_PICTURE_TOO_BIG: return "image too large (lower --scale)";
    case TN_PICTURE_NOMEM: return "out of memory";
    default: return "cannot write";
    }
}
