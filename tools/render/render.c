#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TN_HAVE_PNG
#include <png.h>
#endif

bool tn_canvas_init(tn_canvas *c, int32_t w, int32_t h, tn_rgba bg)
{
    c->w = c->h = 0;
    c->px = NULL;
    if (w < 1 || h < 1 || w > TN_CANVAS_MAX_SIDE || h > TN_CANVAS_MAX_SIDE ||
        (int64_t)w * h > TN_CANVAS_MAX_PIXELS)
        return false;
    c->px = malloc((size_t)w * (size_t)h * 4);
    if (!c->px)
        return false;
    c->w = w;
    c->h = h;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        memcpy(c->px + 4 * i, &bg, 4);
    return true;
}

void tn_canvas_free(tn_canvas *c)
{
    free(c->px);
    c->px = NULL;
    c->w = c->h = 0;
}

void tn_canvas_plot(tn_canvas *c, int32_t x, int32_t y, tn_rgba col)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h || col.a == 0)
        return;
    tn_canvas_blend(c->px + 4 * ((size_t)y * (size_t)c->w + (size_t)x), col);
}

void tn_canvas_fill_rect(tn_canvas *c, int32_t x, int32_t y, int32_t w, int32_t h, tn_rgba col)
{
    if (col.a == 0 || w <= 0 || h <= 0)
        return;
    int64_t x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int64_t x1 = (int64_t)x + w > c->w ? c->w : (int64_t)x + w;
    int64_t y1 = (int64_t)y + h > c->h ? c->h : (int64_t)y + h;
    for (int64_t yy = y0; yy < y1; yy++) {
        uint8_t *p = c->px + 4 * ((size_t)yy * (size_t)c->w + (size_t)x0);
        for (int64_t xx = x0; xx < x1; xx++, p += 4)
            tn_canvas_blend(p, col);
    }
}

void tn_canvas_line(tn_canvas *c, float x0, float y0, float x1, float y1, tn_rgba col)
{
    float dx = x1 - x0, dy = y1 - y0;
    float n = fmaxf(fabsf(dx), fabsf(dy));
    /* far off or not finite: nothing to cast safely (and nothing of it would show) */
    if (!isfinite(n) || n > 65536.0f || !(fabsf(x0) <= 1e8f) || !(fabsf(y0) <= 1e8f))
        return;
    int32_t steps = (int32_t)ceilf(n);
    if (steps < 1) {
        tn_canvas_plot(c, (int32_t)floorf(x0), (int32_t)floorf(y0), col);
        return;
    }
    for (int32_t i = 0; i <= steps; i++) {
        float t = (float)i / (float)steps;
        tn_canvas_plot(c, (int32_t)floorf(x0 + dx * t), (int32_t)floorf(y0 + dy * t), col);
    }
}

void tn_canvas_arrow(tn_canvas *c, float x0, float y0, float x1, float y1, float head, tn_rgba col)
{
    tn_canvas_line(c, x0, y0, x1, y1, col);
    float dx = x1 - x0, dy = y1 - y0, l = sqrtf(dx * dx + dy * dy);
    if (!(l > 0.0f))
        return;
    dx /= l;
    dy /= l;
    /* two strokes at +-30 degrees back from the tip */
    const float cs = 0.8660254f, sn = 0.5f;
    float ax = -(dx * cs - dy * sn), ay = -(dx * sn + dy * cs);
    float bx = -(dx * cs + dy * sn), by = -(-dx * sn + dy * cs);
    tn_canvas_line(c, x1, y1, x1 + ax * head, y1 + ay * head, col);
    tn_canvas_line(c, x1, y1, x1 + bx * head, y1 + by * head, col);
}

void tn_canvas_circle(tn_canvas *c, float cx, float cy, float r, tn_rgba col, bool fill)
{
    if (!(r >= 0.0f) || r > 65536.0f || !(fabsf(cx) <= 1e8f) || !(fabsf(cy) <= 1e8f))
        return;
    int32_t x0 = (int32_t)floorf(cx - r - 1), x1 = (int32_t)ceilf(cx + r + 1);
    int32_t y0 = (int32_t)floorf(cy - r - 1), y1 = (int32_t)ceilf(cy + r + 1);
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) {
            float px = (float)x + 0.5f - cx, py = (float)y + 0.5f - cy;
            float d = sqrtf(px * px + py * py);
            if (fill ? d <= r : fabsf(d - r) <= 0.5f)
                tn_canvas_plot(c, x, y, col);
        }
}

tn_rgba tn_heat_color(float t)
{
    if (!(t >= 0.0f))
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    /* piecewise linear through blue, cyan, yellow, red */
    static const float stops[4][3] = {{40, 60, 200}, {40, 200, 220}, {240, 220, 60}, {210, 40, 40}};
    float s = t * 3.0f;
    int k = (int)s;
    if (k > 2)
        k = 2;
    float f = s - (float)k;
    tn_rgba out;
    out.r = (uint8_t)(stops[k][0] + (stops[k + 1][0] - stops[k][0]) * f);
    out.g = (uint8_t)(stops[k][1] + (stops[k + 1][1] - stops[k][1]) * f);
    out.b = (uint8_t)(stops[k][2] + (stops[k + 1][2] - stops[k][2]) * f);
    out.a = 255;
    return out;
}

int tn_canvas_write_png(const tn_canvas *c, const char *path)
{
#ifdef TN_HAVE_PNG
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        fclose(fp);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(fp);
        return -1;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)c->w, (png_uint_32)c->h, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int32_t y = 0; y < c->h; y++)
        png_write_row(png, c->px + 4 * (size_t)y * (size_t)c->w);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(fp) == 0 ? 0 : -1;
#else
    (void)c;
    (void)path;
    return -2;
#endif
}
