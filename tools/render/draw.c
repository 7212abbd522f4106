/* Scene drawing for the tools: see draw.h. */
#include "draw.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TN_HAVE_PNG
#include <png.h>
#endif

/* ---- view ---------------------------------------------------------------------------------- */

tn_draw_view tn_draw_view_of(const tn_map *map, int32_t ox, int32_t oy, int32_t cell)
{
    tn_draw_view v;
    v.ox = ox;
    v.oy = oy;
    v.cell = cell;
    v.tile_w = map ? (float)tn_map_tile_width(map) : 32.0f;
    v.tile_h = map ? (float)tn_map_tile_height(map) : 32.0f;
    return v;
}

int32_t tn_draw_fit_cell(int32_t w, int32_t h, int32_t target, int32_t max_cell)
{
    int32_t big = w > h ? w : h;
    if (big < 1 || target < 1)
        return 1;
    int32_t c = target / big;
    if (c > max_cell)
        c = max_cell;
    return c < 1 ? 1 : c;
}

bool tn_draw_view_valid(const tn_draw_view *v)
{
    return v && v->cell >= 1 && v->cell <= 65536 && v->tile_w >= 1e-6f && v->tile_w <= 1e15f &&
           v->tile_h >= 1e-6f && v->tile_h <= 1e15f && v->ox >= -(1 << 26) && v->ox <= (1 << 26) &&
           v->oy >= -(1 << 26) && v->oy <= (1 << 26);
}

tn_vec2 tn_draw_world_to_canvas(const tn_draw_view *v, tn_vec2 world)
{
    tn_vec2 p;
    p.x = (float)v->ox + world.x * (float)v->cell / v->tile_w;
    p.y = (float)v->oy + world.y * (float)v->cell / v->tile_h;
    return p;
}

tn_vec2 tn_draw_cell_center(const tn_draw_view *v, int32_t x, int32_t y)
{
    tn_vec2 p;
    p.x = (float)v->ox + ((float)x + 0.5f) * (float)v->cell;
    p.y = (float)v->oy + ((float)y + 0.5f) * (float)v->cell;
    return p;
}

tn_vec2 tn_draw_canvas_to_world(const tn_draw_view *v, int32_t cx, int32_t cy)
{
    tn_vec2 p;
    p.x = ((float)(cx - v->ox) + 0.5f) * v->tile_w / (float)v->cell;
    p.y = ((float)(cy - v->oy) + 0.5f) * v->tile_h / (float)v->cell;
    return p;
}

static bool canvas_ok(const tn_canvas *cv)
{
    return cv && cv->px && cv->w > 0 && cv->h > 0;
}

/* Canvas rectangle of a cell (callers pass cells of the visible range, see visible_cells). */
static void cell_rect(const tn_draw_view *v, int32_t x, int32_t y, int32_t *px, int32_t *py)
{
    *px = v->ox + x * v->cell;
    *py = v->oy + y * v->cell;
}

/* The same for any cell: false when it is nowhere near the canvas. */
static bool any_cell_rect(const tn_canvas *cv, const tn_draw_view *v, int32_t x, int32_t y,
                          int32_t *px, int32_t *py)
{
    int64_t ax = (int64_t)v->ox + (int64_t)x * v->cell, ay = (int64_t)v->oy + (int64_t)y * v->cell;
    if (ax + v->cell <= 0 || ay + v->cell <= 0 || ax >= cv->w || ay >= cv->h)
        return false;
    *px = (int32_t)ax;
    *py = (int32_t)ay;
    return true;
}

/* Is any part of the cell range visible? Returns the visible cell range clipped to [0,w)x[0,h). */
static bool visible_cells(const tn_canvas *cv, const tn_draw_view *v, int32_t w, int32_t h,
                          tn_rect *r)
{
    int64_t c = v->cell;
    int64_t x0 = ((int64_t)0 - v->ox) / c - 1, y0 = ((int64_t)0 - v->oy) / c - 1;
    int64_t x1 = ((int64_t)cv->w - v->ox) / c + 1, y1 = ((int64_t)cv->h - v->oy) / c + 1;
    r->x0 = (int32_t)(x0 < 0 ? 0 : x0);
    r->y0 = (int32_t)(y0 < 0 ? 0 : y0);
    r->x1 = (int32_t)(x1 > w ? w : x1);
    r->y1 = (int32_t)(y1 > h ? h : y1);
    return r->x0 < r->x1 && r->y0 < r->y1;
}

/* ---- tileset images ------------------------------------------------------------------------- */

typedef struct ts_img {
    uint32_t first_gid;
    int32_t count, columns;
    int32_t tw, th, margin, spacing;
    int32_t w, h;
    uint8_t *px; /* w*h RGBA, NULL when not loaded */
} ts_img;

struct tn_tileset_images {
    int32_t n, loaded;
    ts_img *sets;
};

static void msg_add(char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void msg_add(char *msg, size_t cap, const char *fmt, ...)
{
    if (!msg || cap == 0)
        return;
    size_t len = strlen(msg);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + len, cap - len, fmt, ap);
    va_end(ap);
}

#ifdef TN_HAVE_PNG
/* Read a PNG as RGBA8 with libpng's simplified API. */
static uint8_t *read_png(const char *path, int32_t *w, int32_t *h, char *why, size_t whycap)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path)) {
        snprintf(why, whycap, "%s", im.message[0] ? im.message : "cannot read");
        return NULL;
    }
    if (im.width < 1 || im.height < 1 || im.width > 16384 || im.height > 16384) {
        png_image_free(&im);
        snprintf(why, whycap, "image of %ux%u pixels (1..16384 allowed)", im.width, im.height);
        return NULL;
    }
    im.format = PNG_FORMAT_RGBA;
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(im));
    if (!buf) {
        png_image_free(&im);
        snprintf(why, whycap, "out of memory");
        return NULL;
    }
    if (!png_image_finish_read(&im, NULL, buf, 0, NULL)) {
        snprintf(why, whycap, "%s", im.message[0] ? im.message : "cannot decode");
        png_image_free(&im);
        free(buf);
        return NULL;
    }
    *w = (int32_t)im.width;
    *h = (int32_t)im.height;
    png_image_free(&im);
    return buf;
}
#endif

/* Check the tileset's grid against its image; fills in columns when the map did not say. */
static bool grid_fits(ts_img *s, char *why, size_t whycap)
{
    if (s->tw < 1 || s->th < 1 || s->margin < 0 || s->spacing < 0 || s->count < 0) {
        snprintf(why, whycap, "bad tile size %dx%d, margin %d or spacing %d", s->tw, s->th,
                 s->margin, s->spacing);
        return false;
    }
    int64_t stepx = (int64_t)s->tw + s->spacing, stepy = (int64_t)s->th + s->spacing;
    int64_t fit_cols = ((int64_t)s->w - 2 * s->margin + s->spacing) / stepx;
    int64_t fit_rows = ((int64_t)s->h - 2 * s->margin + s->spacing) / stepy;
    if (fit_cols < 1 || fit_rows < 1) {
        snprintf(why, whycap, "image of %dx%d pixels holds no %dx%d tile", s->w, s->h, s->tw,
                 s->th);
        return false;
    }
    if (s->columns <= 0)
        s->columns = (int32_t)fit_cols;
    if (s->count <= 0)
        s->count = (int32_t)(fit_cols * fit_rows);
    int64_t rows = ((int64_t)s->count + s->columns - 1) / s->columns;
    if (s->columns > fit_cols || rows > fit_rows) {
        snprintf(why, whycap,
                 "image of %dx%d pixels is smaller than %d columns x %lld rows of %dx%d", s->w,
                 s->h, s->columns, (long long)rows, s->tw, s->th);
        return false;
    }
    return true;
}

tn_status tn_tileset_images_load(const tn_map *map, const char *base_dir, tn_tileset_images **out,
                                 char *msg, size_t msgcap)
{
    if (msg && msgcap > 0)
        msg[0] = '\0';
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!map)
        return TN_E_INVALID_ARG;
    tn_tileset_images *imgs = calloc(1, sizeof *imgs);
    int32_t n = tn_map_tileset_count(map);
    if (!imgs || (n > 0 && !(imgs->sets = calloc((size_t)n, sizeof *imgs->sets)))) {
        free(imgs);
        return TN_E_NOMEM;
    }
    imgs->n = n;
    tn_status st = TN_OK;
    for (int32_t i = 0; i < n; i++) {
        const tn_tileset *t = tn_map_tileset_at(map, i);
        ts_img *s = &imgs->sets[i];
        s->first_gid = t->first_gid;
        s->count = t->tile_count;
        s->columns = t->columns;
        s->tw = t->tile_width;
        s->th = t->tile_height;
        s->margin = t->margin;
        s->spacing = t->spacing;
        if (!t->image[0])
            continue; /* no art declared: the palette, silently */
        char why[256] = "built without libpng";
        char path[2048];
        snprintf(path, sizeof path, "%s", t->image);
#ifdef TN_HAVE_PNG
        FILE *probe = fopen(path, "rb");
        if (probe)
            fclose(probe);
        else if (base_dir && base_dir[0] && t->image[0] != '/') {
            size_t bl = strlen(base_dir);
            snprintf(path, sizeof path, "%s%s%s", base_dir, base_dir[bl - 1] == '/' ? "" : "/",
                     t->image);
        }
        s->px = read_png(path, &s->w, &s->h, why, sizeof why);
        if (s->px && !grid_fits(s, why, sizeof why)) {
            free(s->px);
            s->px = NULL;
        }
        if (!s->px && strcmp(why, "out of memory") == 0) {
            tn_tileset_images_free(imgs);
            return TN_E_NOMEM;
        }
#endif
        if (s->px) {
            imgs->loaded++;
        } else {
            msg_add(msg, msgcap, "%stileset '%s': %s: %s", st == TN_OK ? "" : "\n", t->name, path,
                    why);
            st = TN_PARTIAL;
        }
    }
    (void)base_dir;
    *out = imgs;
    return st;
}

void tn_tileset_images_free(tn_tileset_images *imgs)
{
    if (!imgs)
        return;
    for (int32_t i = 0; i < imgs->n; i++)
        free(imgs->sets[i].px);
    free(imgs->sets);
    free(imgs);
}

int32_t tn_tileset_images_loaded(const tn_tileset_images *imgs)
{
    return imgs ? imgs->loaded : 0;
}

/* The loaded tileset that owns tile id `id` (flags stripped), or NULL. */
static const ts_img *owner(const tn_tileset_images *imgs, uint32_t id)
{
    if (!imgs || id == 0)
        return NULL;
    const ts_img *best = NULL;
    for (int32_t i = 0; i < imgs->n; i++) {
        const ts_img *s = &imgs->sets[i];
        if (s->first_gid <= id && (!best || s->first_gid > best->first_gid))
            best = s;
    }
    if (!best || !best->px || id - best->first_gid >= (uint32_t)best->count)
        return NULL;
    return best;
}

/* ---- map --------------------------------------------------------------------------------- */

tn_rgba tn_draw_terrain_color(bool passable, float cost)
{
    if (!passable)
        return (tn_rgba){52, 54, 64, 255};
    if (!(cost > 1.0f) && !(cost < 1.0f))
        return (tn_rgba){74, 122, 66, 255};
    if (cost < 1.0f)
        return (tn_rgba){196, 178, 128, 255};
    /* costlier: from olive towards dark brown, saturating at cost 5 */
    float t = (cost - 1.0f) / 4.0f;
    t = t > 1.0f ? 1.0f : t;
    return (tn_rgba){(uint8_t)(140.0f - 40.0f * t), (uint8_t)(112.0f - 50.0f * t),
                     (uint8_t)(62.0f - 22.0f * t), 255};
}

static tn_rgba gid_color(uint32_t id)
{
    uint32_t h = id * 2654435761u;
    h ^= h >> 15;
    return (tn_rgba){(uint8_t)(80 + (h & 127)), (uint8_t)(80 + ((h >> 8) & 127)),
                     (uint8_t)(80 + ((h >> 16) & 127)), 255};
}

/* Source texel (0 .. n-1) for output pixel i of a tile drawn d pixels wide, optionally
 * flipped: the pixel's centre as a fraction of the tile, scaled to the source. */
static inline int32_t texel_of(int32_t i, int32_t d, int32_t n, bool flip)
{
    float f = ((float)i + 0.5f) / (float)d;
    if (flip)
        f = 1.0f - f;
    int32_t k = (int32_t)(f * (float)n);
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

/* Blit tile `id` (raw gid `raw` for the flips) of tileset s with its bottom-left at the bottom-left
 * of the canvas cell at (px, py). */
static void blit_tile(tn_canvas *cv, const tn_draw_view *v, const ts_img *s, uint32_t raw,
                      int32_t px, int32_t py)
{
    uint32_t local = tn_gid_id(raw) - s->first_gid;
    int32_t col = (int32_t)(local % (uint32_t)s->columns),
            row = (int32_t)(local / (uint32_t)s->columns);
    int32_t sx = s->margin + col * (s->tw + s->spacing),
            sy = s->margin + row * (s->th + s->spacing);
    float fw = roundf((float)s->tw * (float)v->cell / v->tile_w);
    float fh = roundf((float)s->th * (float)v->cell / v->tile_h);
    if (!(fw <= 16384.0f && fh <= 16384.0f))
        return; /* a tile larger than any canvas */
    int32_t dw = (int32_t)fw, dh = (int32_t)fh;
    dw = dw < 1 ? 1 : dw;
    dh = dh < 1 ? 1 : dh;
    int32_t dx0 = px, dy0 = py + v->cell - dh;
    uint32_t fl = tn_gid_flags(raw);
    int32_t i0 = dx0 < 0 ? -dx0 : 0, j0 = dy0 < 0 ? -dy0 : 0;
    int32_t i1 = dx0 + dw > cv->w ? cv->w - dx0 : dw, j1 = dy0 + dh > cv->h ? cv->h - dy0 : dh;
    if (i0 >= i1 || j0 >= j1)
        return;
    /* output = V(H(D(source))): the output column gives the source column (the source row
     * when D is set), flipped by H; the output row the other one, flipped by V. Columns are
     * mapped once into a table when the visible width fits it. */
    const bool diag = (fl & TN_GID_FLIP_D) != 0, hflip = (fl & TN_GID_FLIP_H) != 0,
               vflip = (fl & TN_GID_FLIP_V) != 0;
    const int32_t na = diag ? s->th : s->tw, nb = diag ? s->tw : s->th;
    enum { TABLE = 256 };
    int32_t a[TABLE];
    const bool table = i1 - i0 <= TABLE;
    if (table)
        for (int32_t i = i0; i < i1; i++)
            a[i - i0] = texel_of(i, dw, na, hflip);
    for (int32_t j = j0; j < j1; j++) {
        int32_t bj = texel_of(j, dh, nb, vflip);
        uint8_t *out = cv->px + 4 * ((size_t)(dy0 + j) * (size_t)cv->w + (size_t)(dx0 + i0));
        for (int32_t i = i0; i < i1; i++, out += 4) {
            int32_t ai = table ? a[i - i0] : texel_of(i, dw, na, hflip);
            int32_t u = diag ? bj : ai, w = diag ? ai : bj;
            const uint8_t *p = s->px + 4 * ((size_t)(sy + w) * (size_t)s->w + (size_t)(sx + u));
            if (p[3])
                tn_canvas_blend(out, (tn_rgba){p[0], p[1], p[2], p[3]});
        }
    }
}

tn_status tn_draw_map(tn_canvas *cv, const tn_draw_view *v, const tn_map *map,
                      const tn_tileset_images *imgs, tn_draw_map_mode mode)
{
    if (!canvas_ok(cv) || !map || !tn_draw_view_valid(v))
        return TN_E_INVALID_ARG;
    if (mode == TN_DRAW_MAP_PALETTE)
        imgs = NULL;
    int32_t w = tn_map_width(map), h = tn_map_height(map), nl = tn_map_layer_count(map);
    tn_rect r;
    if (!visible_cells(cv, v, w, h, &r))
        return TN_OK;
    /* pass 1: the terrain palette under cells that art does not cover entirely */
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++) {
            bool art_only = imgs != NULL, any = false;
            for (int32_t l = 0; l < nl && art_only; l++) {
                if (tn_map_layer_kind(map, l) != TN_LAYER_TILES ||
                    (tn_map_layer_flags(map, l) & TN_LAYER_HIDDEN))
                    continue;
                uint32_t raw = tn_map_get(map, l, x, y);
                if (raw == 0)
                    continue;
                any = true;
                if (!owner(imgs, tn_gid_id(raw)))
                    art_only = false;
            }
            if (art_only && any)
                continue;
            int32_t px, py;
            cell_rect(v, x, y, &px, &py);
            tn_canvas_fill_rect(
                cv, px, py, v->cell, v->cell,
                tn_draw_terrain_color(tn_map_passable(map, x, y), tn_map_cost(map, x, y)));
        }
    /* pass 2: the layers in order: art, or an inset gid colour for non-terrain layers */
    for (int32_t l = 0; l < nl; l++) {
        if (tn_map_layer_kind(map, l) != TN_LAYER_TILES ||
            (tn_map_layer_flags(map, l) & TN_LAYER_HIDDEN))
            continue;
        bool terrain = (tn_map_layer_flags(map, l) & TN_LAYER_TERRAIN) != 0;
        for (int32_t y = r.y0; y < r.y1; y++)
            for (int32_t x = r.x0; x < r.x1; x++) {
                uint32_t raw = tn_map_get(map, l, x, y);
                if (raw == 0)
                    continue;
                int32_t px, py;
                cell_rect(v, x, y, &px, &py);
                const ts_img *s = owner(imgs, tn_gid_id(raw));
                if (s) {
                    blit_tile(cv, v, s, raw, px, py);
                } else if (!terrain) {
                    int32_t in = v->cell / 4;
                    tn_canvas_fill_rect(cv, px + in, py + in, v->cell - 2 * in, v->cell - 2 * in,
                                        gid_color(tn_gid_id(raw)));
                }
            }
    }
    return TN_OK;
}

/* ---- paths -------------------------------------------------------------------------------- */

static tn_rgba opaque(tn_rgba c)
{
    c.a = 255;
    return c;
}

tn_status tn_draw_path_cells(tn_canvas *cv, const tn_draw_view *v, const tn_cell *cells, int32_t n,
                             tn_rgba col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || n < 0 || (n > 0 && !cells))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < n; i++) {
        int32_t px, py;
        if (any_cell_rect(cv, v, cells[i].x, cells[i].y, &px, &py))
            tn_canvas_fill_rect(cv, px, py, v->cell, v->cell, col);
    }
    tn_rgba line = opaque(col);
    for (int32_t i = 0; i + 1 < n; i++) {
        tn_vec2 a = tn_draw_cell_center(v, cells[i].x, cells[i].y);
        tn_vec2 b = tn_draw_cell_center(v, cells[i + 1].x, cells[i + 1].y);
        tn_canvas_line(cv, a.x, a.y, b.x, b.y, line);
    }
    if (n > 0) {
        float r = 0.3f * (float)v->cell + 1.0f;
        tn_vec2 a = tn_draw_cell_center(v, cells[0].x, cells[0].y);
        tn_vec2 b = tn_draw_cell_center(v, cells[n - 1].x, cells[n - 1].y);
        tn_canvas_circle(cv, a.x, a.y, r, line, false);
        tn_canvas_circle(cv, b.x, b.y, r, line, true);
    }
    return TN_OK;
}

tn_status tn_draw_path_points(tn_canvas *cv, const tn_draw_view *v, const tn_vec2 *pts, int32_t n,
                              tn_rgba col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || n < 0 || (n > 0 && !pts))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < n; i++)
        if (!isfinite(pts[i].x) || !isfinite(pts[i].y))
            return TN_E_INVALID_ARG;
    for (int32_t i = 0; i + 1 < n; i++) {
        tn_vec2 a = tn_draw_world_to_canvas(v, pts[i]), b = tn_draw_world_to_canvas(v, pts[i + 1]);
        tn_canvas_line(cv, a.x, a.y, b.x, b.y, col);
    }
    float r = 0.15f * (float)v->cell + 1.0f;
    for (int32_t i = 0; i < n; i++) {
        tn_vec2 a = tn_draw_world_to_canvas(v, pts[i]);
        tn_canvas_circle(cv, a.x, a.y, r, col, true);
    }
    return TN_OK;
}

/* ---- fields and line of sight ---------------------------------------------------------------- */

tn_draw_field_opts tn_draw_field_opts_default(void)
{
    tn_draw_field_opts o;
    o.heat_alpha = 255;
    o.arrows = true;
    o.arrow_color = (tn_rgba){0, 0, 0, 200};
    o.goals = true;
    o.unreachable = (tn_rgba){36, 36, 40, 255};
    return o;
}

tn_status tn_draw_field(tn_canvas *cv, const tn_draw_view *v, const tn_field *f, const tn_map *map,
                        const tn_draw_field_opts *opts)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !f)
        return TN_E_INVALID_ARG;
    if (!tn_field_ready(f))
        return TN_E_STATE;
    tn_draw_field_opts o = opts ? *opts : tn_draw_field_opts_default();
    int32_t w = tn_field_width(f), h = tn_field_height(f);
    const float *dist = tn_field_distances(f);
    float dmax = 0.0f;
    for (int32_t i = 0; i < w * h; i++)
        if (isfinite(dist[i]) && dist[i] > dmax)
            dmax = dist[i];
    tn_rect r;
    if (!visible_cells(cv, v, w, h, &r))
        return TN_OK;
    const float c = (float)v->cell;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++) {
            float d = dist[(size_t)y * (size_t)w + (size_t)x];
            int32_t px, py;
            cell_rect(v, x, y, &px, &py);
            if (isfinite(d)) {
                if (o.heat_alpha > 0) {
                    tn_rgba hc = tn_heat_color(dmax > 0.0f ? d / dmax : 0.0f);
                    hc.a = o.heat_alpha;
                    tn_canvas_fill_rect(cv, px, py, v->cell, v->cell, hc);
                }
            } else if (o.unreachable.a > 0 && map && tn_map_passable(map, x, y)) {
                tn_canvas_fill_rect(cv, px, py, v->cell, v->cell, o.unreachable);
            }
        }
    if (o.arrows && v->cell >= 6)
        for (int32_t y = r.y0; y < r.y1; y++)
            for (int32_t x = r.x0; x < r.x1; x++) {
                tn_vec2 vec = tn_field_vector(f, x, y);
                if (vec.x == 0.0f && vec.y == 0.0f)
                    continue;
                tn_vec2 m = tn_draw_cell_center(v, x, y);
                float l = 0.4f * c;
                tn_canvas_arrow(cv, m.x - vec.x * l, m.y - vec.y * l, m.x + vec.x * l,
                                m.y + vec.y * l, 0.3f * c, o.arrow_color);
            }
    if (o.goals)
        for (int32_t y = r.y0; y < r.y1; y++)
            for (int32_t x = r.x0; x < r.x1; x++)
                if (dist[(size_t)y * (size_t)w + (size_t)x] == 0.0f) {
                    tn_vec2 m = tn_draw_cell_center(v, x, y);
                    tn_canvas_circle(cv, m.x, m.y, 0.4f * c + 1.0f, (tn_rgba){255, 255, 255, 255},
                                     true);
                }
    return TN_OK;
}

tn_status tn_draw_los(tn_canvas *cv, const tn_draw_view *v, const tn_field *f, tn_rgba col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !f)
        return TN_E_INVALID_ARG;
    if (!tn_field_ready(f))
        return TN_E_STATE;
    tn_rect r;
    if (!visible_cells(cv, v, tn_field_width(f), tn_field_height(f), &r))
        return TN_OK;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++)
            if (tn_field_los(f, x, y)) {
                int32_t px, py;
                cell_rect(v, x, y, &px, &py);
                tn_canvas_fill_rect(cv, px, py, v->cell, v->cell, col);
            }
    return TN_OK;
}

tn_status tn_draw_cell_mask(tn_canvas *cv, const tn_draw_view *v, const uint8_t *mask, int32_t w,
                            int32_t h, tn_rgba col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !mask || w < 1 || h < 1)
        return TN_E_INVALID_ARG;
    tn_rect r;
    if (!visible_cells(cv, v, w, h, &r))
        return TN_OK;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++)
            if (mask[(size_t)y * (size_t)w + (size_t)x]) {
                int32_t px, py;
                cell_rect(v, x, y, &px, &py);
                tn_canvas_fill_rect(cv, px, py, v->cell, v->cell, col);
            }
    return TN_OK;
}

tn_status tn_draw_heat_cells(tn_canvas *cv, const tn_draw_view *v, const float *values, int32_t w,
                             int32_t h, float vmax, uint8_t alpha)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !values || w < 1 || h < 1)
        return TN_E_INVALID_ARG;
    if (!(vmax > 0.0f) || !isfinite(vmax)) {
        vmax = 0.0f;
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
            if (isfinite(values[i]) && values[i] > vmax)
                vmax = values[i];
    }
    tn_rect r;
    if (alpha == 0 || !visible_cells(cv, v, w, h, &r))
        return TN_OK;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++) {
            float val = values[(size_t)y * (size_t)w + (size_t)x];
            if (!isfinite(val) || val < 0.0f)
                continue;
            tn_rgba c = tn_heat_color(vmax > 0.0f ? val / vmax : 0.0f);
            c.a = alpha;
            int32_t px, py;
            cell_rect(v, x, y, &px, &py);
            tn_canvas_fill_rect(cv, px, py, v->cell, v->cell, c);
        }
    return TN_OK;
}

tn_status tn_draw_dirmap(tn_canvas *cv, const tn_draw_view *v, const tn_dirmap *dm, tn_rgba col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !dm)
        return TN_E_INVALID_ARG;
    tn_rect r;
    if (v->cell < 6 || !visible_cells(cv, v, tn_dirmap_width(dm), tn_dirmap_height(dm), &r))
        return TN_OK;
    const float l = 0.4f * (float)v->cell;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++) {
            float deg = tn_dirmap_get(dm, x, y);
            if (!isfinite(deg))
                continue;
            /* degrees clockwise on screen from +x: y grows downwards, so (cos, sin) */
            float a = deg * 0.017453292519943295f, dx = cosf(a), dy = sinf(a);
            tn_vec2 m = tn_draw_cell_center(v, x, y);
            tn_canvas_arrow(cv, m.x - dx * l, m.y - dy * l, m.x + dx * l, m.y + dy * l,
                            0.3f * (float)v->cell, col);
        }
    return TN_OK;
}

/* ---- agents ------------------------------------------------------------------------------- */

static void draw_agent(tn_canvas *cv, const tn_draw_view *v, const tn_draw_agent *a, tn_rgba line)
{
    if (!isfinite(a->pos.x) || !isfinite(a->pos.y) || !isfinite(a->radius) || a->radius < 0.0f)
        return;
    tn_vec2 p = tn_draw_world_to_canvas(v, a->pos);
    float r = a->radius * (float)v->cell / v->tile_w;
    tn_canvas_circle(cv, p.x, p.y, r < 0.7f ? 0.7f : r, a->color, true);
    if (r >= 2.0f && isfinite(a->heading))
        tn_canvas_line(cv, p.x, p.y, p.x + cosf(a->heading) * r * 1.6f,
                       p.y + sinf(a->heading) * r * 1.6f, line);
}

tn_status tn_draw_agents(tn_canvas *cv, const tn_draw_view *v, const tn_draw_agent *agents,
                         int32_t n, tn_rgba line)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || n < 0 || (n > 0 && !agents))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < n; i++)
        draw_agent(cv, v, &agents[i], line);
    return TN_OK;
}

tn_status tn_draw_crowd(tn_canvas *cv, const tn_draw_view *v, const tn_crowd *crowd, tn_rgba col,
                        tn_rgba line)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !crowd)
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < tn_crowd_count(crowd); i++) {
        tn_agent_state s;
        if (tn_crowd_get(crowd, tn_crowd_agent_at(crowd, i), &s) != TN_OK)
            continue;
        tn_draw_agent a = {s.pos, s.radius, s.heading, col};
        draw_agent(cv, v, &a, line);
    }
    return TN_OK;
}

/* ---- boxes and the broad phase --------------------------------------------------------------- */

/* A canvas coordinate as int32, clamped far outside any canvas (no overflow in casts or sums). */
static int32_t clamp_px(double d)
{
    if (!(d >= -1e8)) /* also NaN */
        return -100000000;
    return d > 1e8 ? 100000000 : (int32_t)floor(d);
}

static bool box_ok(const tn_box *b)
{
    return isfinite(b->x0) && isfinite(b->y0) && isfinite(b->x1) && isfinite(b->y1) &&
           b->x0 <= b->x1 && b->y0 <= b->y1;
}

tn_status tn_draw_boxes(tn_canvas *cv, const tn_draw_view *v, const tn_box *boxes, int32_t n,
                        tn_rgba col, bool fill)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || n < 0 || (n > 0 && !boxes))
        return TN_E_INVALID_ARG;
    double kx = (double)v->cell / (double)v->tile_w, ky = (double)v->cell / (double)v->tile_h;
    for (int32_t i = 0; i < n; i++) {
        if (!box_ok(&boxes[i]))
            continue;
        /* canvas pixels whose centres lie in the box (at least one pixel) */
        double fx0 = boxes[i].x0 * kx + v->ox, fy0 = boxes[i].y0 * ky + v->oy;
        double fx1 = boxes[i].x1 * kx + v->ox, fy1 = boxes[i].y1 * ky + v->oy;
        int32_t x0 = clamp_px(fx0 + 0.5), y0 = clamp_px(fy0 + 0.5);
        int32_t x1 = clamp_px(fx1 + 0.5), y1 = clamp_px(fy1 + 0.5);
        x1 = x1 > x0 ? x1 : x0 + 1;
        y1 = y1 > y0 ? y1 : y0 + 1;
        if (fill || x1 - x0 <= 2 || y1 - y0 <= 2) {
            tn_canvas_fill_rect(cv, x0, y0, x1 - x0, y1 - y0, col);
        } else {
            tn_canvas_fill_rect(cv, x0, y0, x1 - x0, 1, col);
            tn_canvas_fill_rect(cv, x0, y1 - 1, x1 - x0, 1, col);
            tn_canvas_fill_rect(cv, x0, y0 + 1, 1, y1 - y0 - 2, col);
            tn_canvas_fill_rect(cv, x1 - 1, y0 + 1, 1, y1 - y0 - 2, col);
        }
    }
    return TN_OK;
}

tn_status tn_draw_grid_cells(tn_canvas *cv, const tn_draw_view *v, const tn_box *boxes, int32_t n,
                             double cell_size, double origin_x, double origin_y, tn_rgba occupied,
                             tn_rgba box_col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || n < 0 || (n > 0 && !boxes) ||
        !isfinite(cell_size) || !(cell_size > 0.0) || !isfinite(origin_x) || !isfinite(origin_y))
        return TN_E_INVALID_ARG;
    if (n == 0)
        return TN_OK;
    /* the world rectangle the canvas shows, then the grid cells over it */
    double kx = (double)v->cell / (double)v->tile_w, ky = (double)v->cell / (double)v->tile_h;
    double wx0 = (0.0 - v->ox) / kx, wy0 = (0.0 - v->oy) / ky;
    double wx1 = ((double)cv->w - v->ox) / kx, wy1 = ((double)cv->h - v->oy) / ky;
    double gx0 = floor((wx0 - origin_x) / cell_size), gy0 = floor((wy0 - origin_y) / cell_size);
    double gx1 = floor((wx1 - origin_x) / cell_size), gy1 = floor((wy1 - origin_y) / cell_size);
    double gw = gx1 - gx0 + 1.0, gh = gy1 - gy0 + 1.0;
    if (gw > 0.0 && gh > 0.0 && gw * gh <= 4.0e6) {
        int32_t iw = (int32_t)gw, ih = (int32_t)gh;
        int32_t *count = calloc((size_t)iw * (size_t)ih, sizeof *count);
        if (!count)
            return TN_E_NOMEM;
        for (int32_t i = 0; i < n; i++) {
            if (!box_ok(&boxes[i]))
                continue;
            double cx = 0.5 * (boxes[i].x0 + boxes[i].x1), cy = 0.5 * (boxes[i].y0 + boxes[i].y1);
            double gx = floor((cx - origin_x) / cell_size) - gx0;
            double gy = floor((cy - origin_y) / cell_size) - gy0;
            if (gx >= 0.0 && gy >= 0.0 && gx < gw && gy < gh)
                count[(size_t)gy * (size_t)iw + (size_t)gx]++;
        }
        double step_px = cell_size * kx;
        for (int32_t gy = 0; gy < ih; gy++)
            for (int32_t gx = 0; gx < iw; gx++) {
                int32_t k = count[(size_t)gy * (size_t)iw + (size_t)gx];
                if (k == 0)
                    continue;
                k = k > 4 ? 4 : k;
                double a = (double)occupied.a * (1.0 + (double)(k - 1) / 3.0);
                tn_rgba c = occupied;
                c.a = (uint8_t)(a > 255.0 ? 255.0 : a);
                double x0 = (origin_x + (gx0 + gx) * cell_size) * kx + v->ox;
                double y0 = (origin_y + (gy0 + gy) * cell_size) * ky + v->oy;
                double x1 = (origin_x + (gx0 + gx + 1) * cell_size) * kx + v->ox;
                double y1 = (origin_y + (gy0 + gy + 1) * cell_size) * ky + v->oy;
                int32_t ix0 = clamp_px(x0), iy0 = clamp_px(y0);
                tn_canvas_fill_rect(cv, ix0, iy0, clamp_px(x1) - ix0, clamp_px(y1) - iy0, c);
            }
        if (step_px >= 3.0) {
            tn_rgba lc = {occupied.r, occupied.g, occupied.b, 90};
            for (int32_t gx = 0; gx <= iw; gx++) {
                float x = (float)clamp_px((origin_x + (gx0 + gx) * cell_size) * kx + v->ox);
                tn_canvas_line(cv, x, 0.0f, x, (float)(cv->h - 1), lc);
            }
            for (int32_t gy = 0; gy <= ih; gy++) {
                float y = (float)clamp_px((origin_y + (gy0 + gy) * cell_size) * ky + v->oy);
                tn_canvas_line(cv, 0.0f, y, (float)(cv->w - 1), y, lc);
            }
        }
        free(count);
    }
    if (box_col.a > 0)
        for (int32_t i = 0; i < n; i++) {
            if (!box_ok(&boxes[i]))
                continue;
            float x0 = (float)(boxes[i].x0 * kx + v->ox), y0 = (float)(boxes[i].y0 * ky + v->oy);
            float x1 = (float)(boxes[i].x1 * kx + v->ox), y1 = (float)(boxes[i].y1 * ky + v->oy);
            tn_canvas_line(cv, x0, y0, x1, y0, box_col);
            tn_canvas_line(cv, x0, y1, x1, y1, box_col);
            tn_canvas_line(cv, x0, y0, x0, y1, box_col);
            tn_canvas_line(cv, x1, y0, x1, y1, box_col);
        }
    return TN_OK;
}

typedef struct bp_collect {
    const tn_bp *bp;
    tn_box *boxes;
    int32_t n, cap;
} bp_collect;

static bool collect_box(void *ctx, tn_bp_id id, uint32_t user)
{
    bp_collect *c = ctx;
    (void)user;
    if (c->n >= c->cap)
        return false;
    if (tn_bp_get(c->bp, id, &c->boxes[c->n], NULL) == TN_OK)
        c->n++;
    return true;
}

tn_status tn_draw_bp(tn_canvas *cv, const tn_draw_view *v, const tn_bp *bp, tn_box world,
                     double cell_size, tn_rgba occupied, tn_rgba box_col)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || !bp || !box_ok(&world))
        return TN_E_INVALID_ARG;
    int32_t cap = tn_bp_count(bp);
    bp_collect c = {bp, NULL, 0, cap};
    if (cap > 0 && !(c.boxes = malloc((size_t)cap * sizeof *c.boxes)))
        return TN_E_NOMEM;
    tn_status st = cap > 0 ? tn_bp_query_box(bp, world, collect_box, &c) : TN_OK;
    if (st >= 0)
        st = tn_draw_grid_cells(cv, v, c.boxes, c.n, cell_size, world.x0, world.y0, occupied,
                                box_col);
    free(c.boxes);
    return st;
}

/* ---- range rings -------------------------------------------------------------------------- */

static bool in_union(const tn_vec2 *cc, int32_t n, float r2, int32_t x, int32_t y)
{
    float px = (float)x + 0.5f, py = (float)y + 0.5f;
    for (int32_t i = 0; i < n; i++) {
        float dx = px - cc[i].x, dy = py - cc[i].y;
        if (dx * dx + dy * dy <= r2)
            return true;
    }
    return false;
}

tn_status tn_draw_range_rings(tn_canvas *cv, const tn_draw_view *v, const tn_vec2 *centers,
                              int32_t n, float radius, tn_rgba col, tn_draw_rings_mode mode)
{
    if (!canvas_ok(cv) || !tn_draw_view_valid(v) || n < 0 || (n > 0 && !centers) ||
        !isfinite(radius) || radius < 0.0f)
        return TN_E_INVALID_ARG;
    if (n == 0)
        return TN_OK;
    tn_vec2 *cc = malloc((size_t)n * sizeof *cc);
    if (!cc)
        return TN_E_NOMEM;
    float rc = radius * (float)v->cell / v->tile_w;
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    for (int32_t i = 0; i < n; i++) {
        if (!isfinite(centers[i].x) || !isfinite(centers[i].y)) {
            free(cc);
            return TN_E_INVALID_ARG;
        }
        cc[i] = tn_draw_world_to_canvas(v, centers[i]);
        bx0 = fminf(bx0, cc[i].x - rc);
        by0 = fminf(by0, cc[i].y - rc);
        bx1 = fmaxf(bx1, cc[i].x + rc);
        by1 = fmaxf(by1, cc[i].y + rc);
    }
    int32_t x0 = clamp_px((double)bx0), y0 = clamp_px((double)by0);
    int32_t x1 = clamp_px(ceil((double)bx1)), y1 = clamp_px(ceil((double)by1));
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 >= cv->w ? cv->w - 1 : x1;
    y1 = y1 >= cv->h ? cv->h - 1 : y1;
    float r2 = rc * rc;
    tn_rgba edge = col;
    if (mode == TN_DRAW_RINGS_FILL)
        edge.a = col.a > 200 ? col.a : 200;
    if (x0 > x1 || y0 > y1) {
        free(cc);
        return TN_OK;
    }
    /* inside-the-union mask over the box and a one-pixel border, then the border test on it */
    size_t mw = (size_t)(x1 - x0) + 3, mh = (size_t)(y1 - y0) + 3;
    uint8_t *in = malloc(mw * mh);
    if (!in) {
        free(cc);
        return TN_E_NOMEM;
    }
    memset(in, 0, mw * mh);
    for (int32_t k = 0; k < n; k++) { /* each disc over its own box only */
        int32_t a0 = clamp_px((double)(cc[k].x - rc) - 1.0),
                a1 = clamp_px((double)(cc[k].x + rc) + 1.0);
        int32_t b0 = clamp_px((double)(cc[k].y - rc) - 1.0),
                b1 = clamp_px((double)(cc[k].y + rc) + 1.0);
        a0 = a0 < x0 - 1 ? x0 - 1 : a0;
        b0 = b0 < y0 - 1 ? y0 - 1 : b0;
        a1 = a1 > x1 + 1 ? x1 + 1 : a1;
        b1 = b1 > y1 + 1 ? y1 + 1 : b1;
        for (int32_t y = b0; y <= b1; y++)
            for (int32_t x = a0; x <= a1; x++)
                if (in_union(cc + k, 1, r2, x, y))
                    in[(size_t)(y - y0 + 1) * mw + (size_t)(x - x0 + 1)] = 1;
    }
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) {
            const uint8_t *m = in + (size_t)(y - y0 + 1) * mw + (size_t)(x - x0 + 1);
            if (!m[0])
                continue;
            bool border = !m[-1] || !m[1] || !m[-(ptrdiff_t)mw] || !m[mw];
            if (border)
                tn_canvas_plot(cv, x, y, edge);
            else if (mode == TN_DRAW_RINGS_FILL)
                tn_canvas_plot(cv, x, y, col);
        }
    free(in);
    free(cc);
    return TN_OK;
}

/* ---- text --------------------------------------------------------------------------------- */

#ifdef TN_HAVE_STB_EASY_FONT
#include <stb/stb_easy_font.h>
#endif

/* Width in font units of one line (up to '\n' or the end) and where it ends. */
static int32_t text_line(const char *s, size_t *len, tn_canvas *cv, int32_t x, int32_t y,
                         int32_t size, tn_rgba col)
{
    size_t n = strcspn(s, "\n");
    *len = n;
#ifdef TN_HAVE_STB_EASY_FONT
    int32_t pen = 0; /* font units */
    for (size_t at = 0; at < n;) {
        char chunk[65];
        size_t k = n - at < 64 ? n - at : 64;
        memcpy(chunk, s + at, k);
        chunk[k] = '\0';
        if (cv) {
            static const size_t vcap = 64 * 300 * 4;
            float *vbuf = malloc(vcap);
            if (vbuf) {
                unsigned char c4[4] = {col.r, col.g, col.b, col.a};
                int quads = stb_easy_font_print(0.0f, 0.0f, chunk, c4, vbuf, (int)vcap);
                /* each vertex: x, y, z floats then 4 colour bytes (16 bytes) */
                for (int q = 0; q < quads; q++) {
                    const float *a = vbuf + (size_t)q * 16, *c = a + 8;
                    int32_t qx0 = (int32_t)a[0], qy0 = (int32_t)a[1];
                    int32_t qx1 = (int32_t)c[0], qy1 = (int32_t)c[1];
                    tn_canvas_fill_rect(cv, x + (pen + qx0) * size, y + qy0 * size,
                                        (qx1 - qx0) * size, (qy1 - qy0) * size, col);
                }
                free(vbuf);
            }
        }
        pen += stb_easy_font_width(chunk);
        at += k;
    }
    return pen * size;
#else
    (void)s;
    (void)cv;
    (void)x;
    (void)y;
    (void)size;
    (void)col;
    return 0;
#endif
}

#define TN_TEXT_LINE 12 /* font units from one line to the next (as stb_easy_font) */

int32_t tn_draw_text(tn_canvas *cv, int32_t x, int32_t y, const char *text, int32_t size,
                     tn_rgba col)
{
    if (!canvas_ok(cv) || !text || size < 1 || size > 64 || x < -(1 << 26) || x > (1 << 26) ||
        y < -(1 << 26) || y > (1 << 26))
        return 0;
    int32_t widest = 0;
    for (int32_t line = 0;; line++) {
        size_t len;
        int32_t w = text_line(text, &len, cv, x, y + line * TN_TEXT_LINE * size, size, col);
        widest = w > widest ? w : widest;
        if (text[len] == '\0')
            break;
        text += len + 1;
    }
    return widest;
}

void tn_draw_text_size(const char *text, int32_t size, int32_t *w, int32_t *h)
{
    int32_t widest = 0, lines = 0;
    if (text && size >= 1 && size <= 64)
        for (;;) {
            size_t len;
            int32_t lw = text_line(text, &len, NULL, 0, 0, size, (tn_rgba){0, 0, 0, 0});
            widest = lw > widest ? lw : widest;
            lines++;
            if (text[len] == '\0')
                break;
            text += len + 1;
        }
    if (w)
        *w = widest;
    if (h)
        *h = lines > 0 ? ((lines - 1) * TN_TEXT_LINE + 9) * size : 0;
}
