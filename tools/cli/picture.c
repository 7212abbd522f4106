#include "picture.h"

#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tn_picture_fits(const tn_map *map, int32_t cell, int32_t max_cell, char *why, size_t cap)
{
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    bool fitted = cell < 1;
    if (fitted)
        cell = tn_draw_fit_cell(w, h, 1024, max_cell);
    int64_t pw = (int64_t)w * cell, ph = (int64_t)h * cell;
    if (pw <= TN_CANVAS_MAX_SIDE && ph <= TN_CANVAS_MAX_SIDE && pw * ph <= TN_CANVAS_MAX_PIXELS)
        return TN_PICTURE_OK;
    if (why)
        snprintf(why, cap,
                 "the %d x %d map at %d px per cell%s makes a %lld x %lld picture, past the "
                 "limits of %d pixels a side and %lld in all%s",
                 (int)w, (int)h, (int)cell, fitted ? " (the least)" : "", (long long)pw,
                 (long long)ph, TN_CANVAS_MAX_SIDE, (long long)TN_CANVAS_MAX_PIXELS,
                 cell > 1 ? ": lower --scale" : "");
    return TN_PICTURE_TOO_BIG;
}

int tn_picture_check_output(const char *cmd, const tn_map *map, const char *file, int32_t cell,
                            int32_t max_cell)
{
    tn_cli_input_images(map); /* also for a later check of another output (field --out) */
    if (!file)
        return TN_EXIT_OK;
    int rc = tn_cli_check_output(cmd, "--png", file);
    char why[256];
    if (rc == TN_EXIT_OK &&
        tn_picture_fits(map, cell, max_cell, why, sizeof why) != TN_PICTURE_OK) {
        tn_cli_error(cmd, "--png %s: %s", file, why);
        rc = TN_EXIT_NOMEM;
    }
    return rc;
}

int tn_picture_begin(tn_picture *p, const tn_map *map, int32_t cell, int32_t max_cell,
                     const char *cmd)
{
    memset(p, 0, sizeof *p);
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    if (tn_picture_fits(map, cell, max_cell, NULL, 0) != TN_PICTURE_OK)
        return TN_PICTURE_TOO_BIG;
    if (cell < 1)
        cell = tn_draw_fit_cell(w, h, 1024, max_cell);
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
    errno = 0;
    int rc = tn_canvas_write_png(&p->cv, path);
    int why = errno; /* for tn_picture_error: free() leaves it, but say so */
    tn_picture_free(p);
    errno = why;
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
    case TN_PICTURE_TOO_BIG: return "the picture would be past the canvas's limits";
    case TN_PICTURE_NOMEM: return "out of memory";
    default: return errno ? strerror(errno) : "cannot write";
    }
}

bool tn_picture_too_narrow(const tn_map *map, const tn_map *walk, int32_t size, int32_t x,
                           int32_t y)
{
    if (!tn_map_passable(map, x, y))
        return false;
    for (int32_t ay = y - size + 1; ay <= y; ay++)
        for (int32_t ax = x - size + 1; ax <= x; ax++)
            if (tn_map_passable(walk, ax, ay))
                return false;
    return true;
}

int32_t tn_picture_count_too_narrow(const tn_map *map, const tn_map *walk, int32_t size)
{
    int32_t n = 0;
    for (int32_t y = 0; y < tn_map_height(map); y++)
        for (int32_t x = 0; x < tn_map_width(map); x++)
            n += tn_picture_too_narrow(map, walk, size, x, y) ? 1 : 0;
    return n;
}

/* Size > 1: shade the cells too narrow for the unit (violet, with a back-slash stroke: blocked
 * cells over tileset art get a dark shade and a red slash, mud keeps its own colour) and fill
 * the cells its footprint sweeps along the path (amber). */
static int draw_footprints(tn_picture *p, const tn_map *map, const tn_map *walk, int32_t size,
                           const tn_cell *cells, int32_t n)
{
    int32_t w = tn_map_width(map), h = tn_map_height(map), c = p->view.cell;
    uint8_t *swept = calloc((size_t)w * (size_t)h, 1);
    if (!swept)
        return TN_PICTURE_NOMEM;
    for (int32_t i = 0; i < n; i++)
        for (int32_t dy = 0; dy < size; dy++)
            for (int32_t dx = 0; dx < size; dx++)
                if (tn_map_contains(map, cells[i].x + dx, cells[i].y + dy))
                    swept[(size_t)(cells[i].y + dy) * (size_t)w + (size_t)(cells[i].x + dx)] = 1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t px = p->view.ox + x * c, py = p->view.oy + y * c;
            if (swept[(size_t)y * (size_t)w + (size_t)x]) {
                tn_canvas_fill_rect(&p->cv, px, py, c, c, (tn_rgba){255, 210, 40, 90});
                continue;
            }
            if (!tn_picture_too_narrow(map, walk, size, x, y))
                continue;
            tn_canvas_fill_rect(&p->cv, px, py, c, c, (tn_rgba){150, 60, 230, 140});
            if (c >= 4)
                tn_canvas_line(&p->cv, (float)px, (float)py, (float)(px + c - 1),
                               (float)(py + c - 1), (tn_rgba){235, 200, 255, 230});
        }
    free(swept);
    return TN_PICTURE_OK;
}

/* The map, the path (of the unit's centre), the smoothed waypoints, start and goal; for a unit
 * of size > 1 its footprint (draw_footprints) and its outline at the start and the goal. */
int tn_picture_unit_path(const char *file, int32_t scale, const tn_map *map, const tn_map *walk,
                         int32_t size, const tn_cell *cells, int32_t n, const tn_cell *wp,
                         int32_t nw, tn_cell s, tn_cell g, const char *cmd)
{
    tn_picture p;
    int rc = tn_picture_begin(&p, map, scale, 32, cmd);
    if (rc != TN_PICTURE_OK)
        return rc;
    /* a unit's centre is (size - 1) / 2 cells right of and below its top-left cell's centre */
    float half = 0.5f * (float)(size - 1);
    float tw = (float)tn_map_tile_width(map), th = (float)tn_map_tile_height(map);
    tn_vec2 *pts = malloc((size_t)(n > nw ? n : nw > 0 ? nw : 1) * sizeof *pts);
    if (!pts) {
        tn_picture_free(&p);
        return TN_PICTURE_NOMEM;
    }
    if (size > 1) {
        rc = draw_footprints(&p, map, walk, size, cells, n);
        if (rc != TN_PICTURE_OK) {
            free(pts);
            tn_picture_free(&p);
            return rc;
        }
        for (int32_t i = 0; i < n; i++) {
            tn_vec2 q = tn_map_cell_center_px(map, cells[i].x, cells[i].y);
            pts[i] = (tn_vec2){q.x + half * tw, q.y + half * th};
        }
        (void)tn_draw_path_points(&p.cv, &p.view, pts, n, (tn_rgba){255, 210, 40, 255});
    } else {
        (void)tn_draw_path_cells(&p.cv, &p.view, cells, n, (tn_rgba){255, 210, 40, 150});
    }
    if (nw > 0) {
        for (int32_t i = 0; i < nw; i++) {
            tn_vec2 q = tn_map_cell_center_px(map, wp[i].x, wp[i].y);
            pts[i] = (tn_vec2){q.x + half * tw, q.y + half * th};
        }
        (void)tn_draw_path_points(&p.cv, &p.view, pts, nw, (tn_rgba){255, 255, 255, 255});
    }
    free(pts);
    float r = 0.35f * (float)p.view.cell * (float)size + 1.5f;
    float off = half * (float)p.view.cell;
    tn_vec2 a = tn_draw_cell_center(&p.view, s.x, s.y), b = tn_draw_cell_center(&p.view, g.x, g.y);
    tn_canvas_circle(&p.cv, a.x + off, a.y + off, r, (tn_rgba){40, 220, 90, 255}, false);
    tn_canvas_circle(&p.cv, b.x + off, b.y + off, r, (tn_rgba){230, 50, 50, 255}, size == 1);
    return tn_picture_write(&p, file);
}
