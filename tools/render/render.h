/* A small RGBA canvas for the command-line tools (not part of the library): rectangles, lines,
 * arrows, circles, a heat colour map, and PNG output through libpng (when the tool was built
 * with it; TN_HAVE_PNG). Coordinates are pixels, (0, 0) at the top-left; drawing is clipped to
 * the canvas; colours are straight (non-premultiplied) RGBA, alpha-blended over the canvas. */
#ifndef TN_RENDER_H
#define TN_RENDER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tn_rgba {
    uint8_t r, g, b, a;
} tn_rgba;

typedef struct tn_canvas {
    int32_t w, h;
    uint8_t *px; /* w*h*4 bytes, row-major RGBA */
} tn_canvas;

/* The largest canvas: a side of at most TN_CANVAS_MAX_SIDE pixels (PNG and GIF take 65535)
 * and at most TN_CANVAS_MAX_PIXELS in all (1 GiB of RGBA), so a long thin map still draws. */
#define TN_CANVAS_MAX_SIDE 65535
#define TN_CANVAS_MAX_PIXELS ((int64_t)1 << 28)
/* Allocate a w x h canvas filled with `bg`; false when out of memory or past the limits. */
bool tn_canvas_init(tn_canvas *c, int32_t w, int32_t h, tn_rgba bg);
void tn_canvas_free(tn_canvas *c);

/* Blend `col` over the RGBA pixel at p (no clipping): what every drawing call does per pixel. */
static inline void tn_canvas_blend(uint8_t *p, tn_rgba col)
{
    if (col.a == 255) { /* the same bytes as the general formula, faster */
        p[0] = col.r;
        p[1] = col.g;
        p[2] = col.b;
        p[3] = 255;
        return;
    }
    unsigned a = col.a, na = 255u - a;
    p[0] = (uint8_t)((col.r * a + p[0] * na + 127u) / 255u);
    p[1] = (uint8_t)((col.g * a + p[1] * na + 127u) / 255u);
    p[2] = (uint8_t)((col.b * a + p[2] * na + 127u) / 255u);
    p[3] = (uint8_t)(a + (p[3] * na + 127u) / 255u);
}

/* Blend one pixel (clipped). */
void tn_canvas_plot(tn_canvas *c, int32_t x, int32_t y, tn_rgba col);
/* Fill [x, x+w) x [y, y+h). */
void tn_canvas_fill_rect(tn_canvas *c, int32_t x, int32_t y, int32_t w, int32_t h, tn_rgba col);
/* A one-pixel line between two points (DDA over the longer axis). */
void tn_canvas_line(tn_canvas *c, float x0, float y0, float x1, float y1, tn_rgba col);
/* A line from (x0, y0) to (x1, y1) with a two-stroke head of length `head` at the end. */
void tn_canvas_arrow(tn_canvas *c, float x0, float y0, float x1, float y1, float head, tn_rgba col);
/* A circle of radius r: outline or filled. */
void tn_canvas_circle(tn_canvas *c, float cx, float cy, float r, tn_rgba col, bool fill);

/* Colour of t in [0, 1] on a blue -> cyan -> yellow -> red heat scale (clamped). */
tn_rgba tn_heat_color(float t);

/* Write the canvas as an 8-bit RGBA PNG. Returns 0 on success, -1 on I/O error, -2 when the
 * tool was built without libpng. */
int tn_canvas_write_png(const tn_canvas *c, const char *path);

#endif
