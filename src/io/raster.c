/* Collision shapes into map cells (see raster.h and docs/formats.md).
 *
 * CENTER: rectangles and ellipses map each cell centre back into their own frame and test it
 * there (half-open box, closed ellipse); polygons map their points to map pixels and run the
 * even-odd crossing rule one row of centres at a time (the crossings of the row's line, sorted,
 * answer every centre of the row). ANY / HALF: the shape as a polygon in map pixels (an
 * ellipse as the 64-gon inscribed in it) is clipped to each row's strip, then to each cell of
 * the strip (Sutherland-Hodgman against one axis-aligned half-plane at a time), and the area
 * of the piece (shoelace) is compared with the cell's. Polylines: a segment blocks the cells
 * whose closed square it meets (Liang-Barsky against the closed square). */
#include "raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TN__ELLIPSE_SIDES 64

tn__affine tn__affine_identity(void)
{
    return (tn__affine){1, 0, 0, 1, 0, 0};
}

tn__affine tn__affine_translate(double x, double y)
{
    return (tn__affine){1, 0, 0, 1, x, y};
}

tn__affine tn__affine_rotate_about(double deg, double x, double y)
{
    double r = fmod(deg, 360.0), s, c;
    if (r < 0)
        r += 360.0;
    /* exact quarter turns: the common case of rotated rectangles stays exact */
    if (r == 0.0) {
        c = 1, s = 0;
    } else if (r == 90.0) {
        c = 0, s = 1;
    } else if (r == 180.0) {
        c = -1, s = 0;
    } else if (r == 270.0) {
        c = 0, s = -1;
    } else {
        double t = r * (3.14159265358979323846 / 180.0);
        c = cos(t);
        s = sin(t);
    }
    /* p' = (x, y) + R (p - (x, y)); with y down, clockwise on screen is the usual matrix */
    return (tn__affine){c, -s, s, c, x - c * x + s * y, y - s * x - c * y};
}

tn__affine tn__affine_then(const tn__affine *p, const tn__affine *q)
{
    return (tn__affine){q->a * p->a + q->b * p->c,        q->a * p->b + q->b * p->d,
                        q->c * p->a + q->d * p->c,        q->c * p->b + q->d * p->d,
                        q->a * p->e + q->b * p->f + q->e, q->c * p->e + q->d * p->f + q->f};
}

static void apply(const tn__affine *m, double x, double y, double *ox, double *oy)
{
    *ox = m->a * x + m->b * y + m->e;
    *oy = m->c * x + m->d * y + m->f;
}

/* Inverse of m; false when it is singular. */
static bool invert(const tn__affine *m, tn__affine *out)
{
    double det = m->a * m->d - m->b * m->c;
    if (det == 0.0 || !isfinite(det))
        return false;
    double ia = m->d / det, ib = -m->b / det, ic = -m->c / det, id = m->a / det;
    *out = (tn__affine){ia, ib, ic, id, -(ia * m->e + ib * m->f), -(ic * m->e + id * m->f)};
    return true;
}

/* Cells [*i0, *i1] whose span may meet [lo, hi] (one cell of slack each side: the callers test
 * each cell exactly). False when none is inside [0, n). */
static bool cell_range(double lo, double hi, double size, int32_t n, int32_t *i0, int32_t *i1)
{
    if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi))
        return false;
    double a = floor(lo / size) - 1.0, b = floor(hi / size) + 1.0;
    if (b < 0.0 || a > (double)(n - 1))
        return false;
    *i0 = a < 0.0 ? 0 : (int32_t)a;
    *i1 = b > (double)(n - 1) ? n - 1 : (int32_t)b;
    return true;
}

/* Account for `n` units of work; false when that passes the budget. */
static bool charge(const tn__raster_grid *g, double n)
{
    if (!g->work)
        return true;
    if (n > (double)(g->budget - *g->work))
        return false;
    *g->work += (uint64_t)n;
    return true;
}

static double span(int32_t a, int32_t b)
{
    return (double)b - (double)a + 1.0;
}

static void mark(const tn__raster_grid *g, int32_t x, int32_t y)
{
    g->cells[(size_t)y * (size_t)g->w + (size_t)x] |= g->bit;
}

/* ---- rectangles and ellipses under CENTER ---------------------------------------------- */

static tn_status center_box(const tn__shape *s, const tn__raster_grid *g)
{
    tn__affine inv;
    if (!(s->w > 0.0) || !(s->h > 0.0) || !invert(&s->m, &inv))
        return TN_OK;
    double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
    for (int k = 0; k < 4; k++) {
        double px, py;
        apply(&s->m, s->x + (k & 1 ? s->w : 0.0), s->y + (k & 2 ? s->h : 0.0), &px, &py);
        x0 = fmin(x0, px), x1 = fmax(x1, px), y0 = fmin(y0, py), y1 = fmax(y1, py);
    }
    int32_t cx0, cx1, cy0, cy1;
    if (!cell_range(x0, x1, g->tw, g->w, &cx0, &cx1) ||
        !cell_range(y0, y1, g->th, g->h, &cy0, &cy1))
        return TN_OK;
    if (!charge(g, span(cx0, cx1) * span(cy0, cy1)))
        return TN_E_TOO_LARGE;
    double ecx = s->x + s->w / 2, ecy = s->y + s->h / 2, rx = s->w / 2, ry = s->h / 2;
    for (int32_t cy = cy0; cy <= cy1; cy++)
        for (int32_t cx = cx0; cx <= cx1; cx++) {
            double qx, qy;
            apply(&inv, ((double)cx + 0.5) * g->tw, ((double)cy + 0.5) * g->th, &qx, &qy);
            bool in;
            if (s->kind == TN__SHAPE_RECT) {
                in = qx >= s->x && qx < s->x + s->w && qy >= s->y && qy < s->y + s->h;
            } else {
                double u = (qx - ecx) / rx, v = (qy - ecy) / ry;
                in = u * u + v * v <= 1.0;
            }
            if (in)
                mark(g, cx, cy);
        }
    return TN_OK;
}

/* ---- polygons under CENTER ------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The cells [cx0, cx1] x [cy0, cy1] that the bounding box of n points (x0, y0, x1, y1, ...)
 * touches, clipped to the map; false when it misses the map. */
static bool points_cells(const double *p, size_t n, const tn__raster_grid *g, int32_t *cx0,
                         int32_t *cx1, int32_t *cy0, int32_t *cy1)
{
    double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        x0 = fmin(x0, p[2 * i]), x1 = fmax(x1, p[2 * i]);
        y0 = fmin(y0, p[2 * i + 1]), y1 = fmax(y1, p[2 * i + 1]);
    }
    return cell_range(x0, x1, g->tw, g->w, cx0, cx1) && cell_range(y0, y1, g->th, g->h, cy0, cy1);
}

static tn_status center_polygon(const double *p, size_t n, double *xs, const tn__raster_grid *g)
{
    int32_t cx0, cx1, cy0, cy1;
    if (!points_cells(p, n, g, &cx0, &cx1, &cy0, &cy1))
        return TN_OK;
    if (!charge(g, span(cy0, cy1) * ((double)n + span(cx0, cx1))))
        return TN_E_TOO_LARGE;
    for (int32_t cy = cy0; cy <= cy1; cy++) {
        double py = ((double)cy + 0.5) * g->th;
        size_t k = 0;
        for (size_t i = 0, j = n - 1; i < n; j = i++) {
            double xi = p[2 * i], yi = p[2 * i + 1], xj = p[2 * j], yj = p[2 * j + 1];
            if ((yi > py) != (yj > py))
                xs[k++] = (xj - xi) * (py - yi) / (yj - yi) + xi;
        }
        if (!k)
            continue;
        qsort(xs, k, sizeof *xs, cmp_double);
        /* a centre px is inside when an odd number of crossings lie strictly right of it */
        size_t right = 0; /* first crossing > px */
        for (int32_t cx = cx0; cx <= cx1; cx++) {
            double px = ((double)cx + 0.5) * g->tw;
            while (right < k && !(px < xs[right]))
                right++;
            if ((k - right) & 1u)
                mark(g, cx, cy);
        }
    }
    return TN_OK;
}

/* ---- area rules -------------------------------------------------------------------------- */

/* Keep the part of polygon `in` (n points) where sgn * (coord[axis] - v) >= 0. `out` holds at
 * least n + n/2 + 1 points (an edge entering the half-plane adds one point). */
static size_t clip(const double *in, size_t n, double *out, int axis, double v, double sgn)
{
    size_t o = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        const double *cur = in + 2 * i, *prev = in + 2 * j;
        double dc = sgn * (cur[axis] - v), dp = sgn * (prev[axis] - v);
        if ((dc >= 0) != (dp >= 0)) {
            double t = dp / (dp - dc);
            double *q = out + 2 * o++;
            q[axis] = v;
            q[1 - axis] = prev[1 - axis] + t * (cur[1 - axis] - prev[1 - axis]);
        }
        if (dc >= 0) {
            out[2 * o] = cur[0];
            out[2 * o + 1] = cur[1];
            o++;
        }
    }
    return o;
}

static double area(const double *p, size_t n)
{
    double s = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        s += p[2 * j] * p[2 * i + 1] - p[2 * i] * p[2 * j + 1];
    return fabs(s) / 2;
}

static size_t grown(size_t n)
{
    return n + n / 2 + 1;
}

static tn_status area_polygon(const double *p, size_t n, tn_cover_rule rule,
                              const tn__raster_grid *g, const tn_allocator *a)
{
    int32_t cx0, cx1, cy0, cy1;
    if (!points_cells(p, n, g, &cx0, &cx1, &cy0, &cy1))
        return TN_OK;
    size_t n1 = grown(n), n2 = grown(n1), n3 = grown(n2), n4 = grown(n3);
    size_t total = n1 + n2 + n3 + n4;
    double *buf = tn__alloc(a, total * 2 * sizeof(double));
    if (!buf)
        return TN_E_NOMEM;
    double *b1 = buf, *b2 = b1 + 2 * n1, *b3 = b2 + 2 * n2, *b4 = b3 + 2 * n3;
    double cell = g->tw * g->th;
    double need = rule == TN_COVER_HALF ? 0.5 * cell : 1e-9 * cell;
    tn_status st = TN_OK;
    for (int32_t cy = cy0; cy <= cy1 && st == TN_OK; cy++) {
        if (!charge(g, (double)n)) {
            st = TN_E_TOO_LARGE;
            break;
        }
        double top = (double)cy * g->th, bottom = ((double)cy + 1.0) * g->th;
        size_t k = clip(p, n, b1, 1, top, 1.0);
        if (k < 3)
            continue;
        k = clip(b1, k, b2, 1, bottom, -1.0);
        if (k < 3)
            continue;
        double sx0 = HUGE_VAL, sx1 = -HUGE_VAL;
        for (size_t i = 0; i < k; i++)
            sx0 = fmin(sx0, b2[2 * i]), sx1 = fmax(sx1, b2[2 * i]);
        int32_t lo, hi;
        if (!cell_range(sx0, sx1, g->tw, g->w, &lo, &hi))
            continue;
        if (!charge(g, span(lo, hi) * (double)k)) {
            st = TN_E_TOO_LARGE;
            break;
        }
        for (int32_t cx = lo; cx <= hi; cx++) {
            size_t q = clip(b2, k, b3, 0, (double)cx * g->tw, 1.0);
            if (q >= 3)
                q = clip(b3, q, b4, 0, ((double)cx + 1.0) * g->tw, -1.0);
            if (q >= 3 && area(b4, q) > need)
                mark(g, cx, cy);
        }
    }
    tn__free(a, buf, total * 2 * sizeof(double));
    return st;
}

/* ---- polylines ----------------------------------------------------------------------------- */

/* Does the segment p0-p1 meet the closed box [bx0, bx1] x [by0, by1]? (Liang-Barsky) */
static bool segment_meets(double x0, double y0, double x1, double y1, double bx0, double by0,
                          double bx1, double by1)
{
    double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
    double ps[4] = {-dx, dx, -dy, dy}, qs[4] = {x0 - bx0, bx1 - x0, y0 - by0, by1 - y0};
    for (int i = 0; i < 4; i++) {
        if (ps[i] == 0) {
            if (qs[i] < 0)
                return false;
            continue;
        }
        double t = qs[i] / ps[i];
        if (ps[i] < 0)
            t0 = fmax(t0, t);
        else
            t1 = fmin(t1, t);
        if (t0 > t1)
            return false;
    }
    return true;
}

static tn_status polyline(const double *p, size_t n, const tn__raster_grid *g)
{
    for (size_t i = 0; i + 1 < n; i++) {
        double ax = p[2 * i], ay = p[2 * i + 1], bx = p[2 * i + 2], by = p[2 * i + 3];
        int32_t cx0, cx1, cy0, cy1;
        if (!cell_range(fmin(ax, bx), fmax(ax, bx), g->tw, g->w, &cx0, &cx1) ||
            !cell_range(fmin(ay, by), fmax(ay, by), g->th, g->h, &cy0, &cy1))
            continue;
        if (!charge(g, span(cx0, cx1) * span(cy0, cy1)))
            return TN_E_TOO_LARGE;
        for (int32_t cy = cy0; cy <= cy1; cy++)
            for (int32_t cx = cx0; cx <= cx1; cx++)
                if (segment_meets(ax, ay, bx, by, (double)cx * g->tw, (double)cy * g->th,
                                  ((double)cx + 1.0) * g->tw, ((double)cy + 1.0) * g->th))
                    mark(g, cx, cy);
    }
    return TN_OK;
}

/* ---- front door ---------------------------------------------------------------------------- */

tn_status tn__raster(const tn__shape *s, tn_cover_rule rule, const tn__raster_grid *g,
                     const tn_allocator *a)
{
    if (s->kind == TN__SHAPE_RECT || s->kind == TN__SHAPE_ELLIPSE) {
        if (!(s->w > 0.0) || !(s->h > 0.0))
            return TN_OK;
        if (rule == TN_COVER_CENTER)
            return center_box(s, g);
        tn__affine inv;
        if (!invert(&s->m, &inv))
            return TN_OK;
        double pts[2 * TN__ELLIPSE_SIDES];
        size_t n = 0;
        if (s->kind == TN__SHAPE_RECT) {
            const double cx[4] = {s->x, s->x + s->w, s->x + s->w, s->x};
            const double cy[4] = {s->y, s->y, s->y + s->h, s->y + s->h};
            for (; n < 4; n++)
                apply(&s->m, cx[n], cy[n], &pts[2 * n], &pts[2 * n + 1]);
        } else {
            for (; n < TN__ELLIPSE_SIDES; n++) {
                double t = 2.0 * 3.14159265358979323846 * (double)n / TN__ELLIPSE_SIDES;
                apply(&s->m, s->x + s->w / 2 * (1.0 + cos(t)), s->y + s->h / 2 * (1.0 + sin(t)),
                      &pts[2 * n], &pts[2 * n + 1]);
            }
        }
        return area_polygon(pts, n, rule, g, a);
    }
    if (s->n < (s->kind == TN__SHAPE_POLYGON ? 3u : 2u))
        return TN_OK;
    /* the points in map pixels, then (polygons under CENTER) room for one row's crossings */
    size_t bytes = s->n * 3 * sizeof(double);
    double *p = tn__alloc(a, bytes);
    if (!p)
        return TN_E_NOMEM;
    for (size_t i = 0; i < s->n; i++)
        apply(&s->m, s->pts[2 * i], s->pts[2 * i + 1], &p[2 * i], &p[2 * i + 1]);
    tn_status st = TN_OK;
    if (s->kind == TN__SHAPE_POLYLINE)
        st = polyline(p, s->n, g);
    else if (rule == TN_COVER_CENTER)
        st = center_polygon(p, s->n, p + 2 * s->n, g);
    else
        st = area_polygon(p, s->n, rule, g, a);
    tn__free(a, p, bytes);
    return st;
}
