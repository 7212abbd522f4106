/* Tile-based collision: hit tests with point sets, the inverse floor test, box and circle
 * movers, circle overlap and push-out, grid alignment. Read-only on the map, no allocation.
 *
 * All geometry runs in double precision on values that come from floats and integer tile
 * sizes, so edges such as x + area_x + area_w and x0 - r are exact; positions handed back as
 * floats are re-checked with the exact predicates and nudged by an ulp when rounding put them
 * a hair inside a wall. */
#include "tilenav/tile_collision.h"

#include "grid.h"
#include "internal.h"

#include <math.h>
#include <string.h>

/* A read-only view of what the geometry needs from the map. */
typedef struct tc_view {
    const uint8_t *pass;
    int32_t w, h;
    double tw, th;
    double itw, ith; /* 1 / tw, 1 / th */
    double mw, mh;   /* map size in pixels */
} tc_view;

/* 1 / t, without a division for power-of-two tiles (divisions dominate the cheap queries):
 * 2^-k is built from its exponent bits. Other sizes divide. */
static inline double tile_inverse(int32_t t)
{
    uint32_t u = (uint32_t)t;
    if ((u & (u - 1)) == 0) {
#if defined(__GNUC__) || defined(__clang__)
        int k = tn__ctz32(u);
#else
        int k = 0;
        while ((u >> k) > 1u)
            k++;
#endif
        uint64_t bits = (uint64_t)(1023 - k) << 52;
        double inv;
        memcpy(&inv, &bits, sizeof inv);
        return inv;
    }
    return 1.0 / (double)t;
}

static void view_init(tc_view *v, const tn_map *m)
{
    tn__grid g;
    tn__map_grid(m, &g);
    v->pass = g.pass;
    v->w = g.w;
    v->h = g.h;
    v->tw = (double)g.tw;
    v->th = (double)g.th;
    /* exact for power-of-two tiles; otherwise the cell functions correct the rounding */
    v->itw = tile_inverse(g.tw);
    v->ith = tile_inverse(g.th);
    v->mw = v->tw * v->w;
    v->mh = v->th * v->h;
}

static inline bool view_blocked(const tc_view *v, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= v->w || y >= v->h)
        return true;
    return v->pass[(size_t)y * (size_t)v->w + (size_t)x] == 0;
}

/* floor(a / t) as a cell coordinate, clamped to [lo, hi]; exact at cell boundaries (the
 * product with the inverse `it` = 1 / t is corrected with exact products). */
static inline int32_t cell_floor(double a, double t, double it, int32_t lo, int32_t hi)
{
    double q = a * it;
    if (!(q > (double)lo)) /* also NaN */
        return lo;
    if (q >= (double)hi)
        return hi;
    int32_t c = (int32_t)q; /* in range now; truncation is cheaper than floor() without SSE4.1 */
    if ((double)c > q)
        c--;
    /* the product with the inverse may round across a boundary: fix with exact products */
    if ((double)c * t > a)
        c--;
    else if ((double)(c + 1) * t <= a)
        c++;
    return c < lo ? lo : c > hi ? hi : c;
}

/* Smallest c with c * t >= a, clamped to [lo, hi]. */
static inline int32_t cell_ceil(double a, double t, double it, int32_t lo, int32_t hi)
{
    double q = a * it;
    if (!(q > (double)lo))
        return lo;
    if (q >= (double)hi)
        return hi;
    int32_t c = (int32_t)q;
    if ((double)c < q)
        c++;
    if ((double)c * t < a)
        c++;
    else if ((double)(c - 1) * t >= a)
        c--;
    return c < lo ? lo : c > hi ? hi : c;
}

static inline bool finite2(tn_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

/* ---- boxes ---------------------------------------------------------------------------- */

/* The collision box in double precision. */
typedef struct tc_box {
    double x, y, w, h;
} tc_box;

static bool box_valid(const tn_tile_box *b)
{
    if (!b)
        return false;
    if (!isfinite(b->x) || !isfinite(b->y) || !isfinite(b->w) || !isfinite(b->h) ||
        !isfinite(b->area_x) || !isfinite(b->area_y) || !isfinite(b->area_w) ||
        !isfinite(b->area_h))
        return false;
    if (!(b->w > 0.0f) || !(b->h > 0.0f))
        return false;
    bool no_area = b->area_w == 0.0f && b->area_h == 0.0f;
    if (!no_area && (!(b->area_w > 0.0f) || !(b->area_h > 0.0f)))
        return false;
    return true;
}

static tc_box box_of(const tn_tile_box *b)
{
    tc_box r;
    if (b->area_w == 0.0f && b->area_h == 0.0f) {
        r.x = (double)b->x;
        r.y = (double)b->y;
        r.w = (double)b->w;
        r.h = (double)b->h;
    } else {
        r.x = (double)b->x + (double)b->area_x;
        r.y = (double)b->y + (double)b->area_y;
        r.w = (double)b->area_w;
        r.h = (double)b->area_h;
    }
    return r;
}

/* Cells overlapped by a box: [c0, c1] x [r0, r1], clamped to [-1, W] x [-1, H]. */
static void box_cells(const tc_view *v, const tc_box *b, int32_t *c0, int32_t *c1, int32_t *r0,
                      int32_t *r1)
{
    *c0 = cell_floor(b->x, v->tw, v->itw, -1, v->w);
    *c1 = cell_ceil(b->x + b->w, v->tw, v->itw, -1, v->w + 1) - 1;
    *r0 = cell_floor(b->y, v->th, v->ith, -1, v->h);
    *r1 = cell_ceil(b->y + b->h, v->th, v->ith, -1, v->h + 1) - 1;
    if (*c1 < *c0)
        *c1 = *c0;
    if (*r1 < *r0)
        *r1 = *r0;
}

/* What a point/cell matches against. */
typedef struct tc_target {
    const uint32_t *gids; /* NULL: test passability */
    uint32_t id;
} tc_target;

/* Does the cell match? Fills the raw gid. */
static inline bool cell_matches(const tc_view *v, const tc_target *t, int32_t x, int32_t y,
                                uint32_t *raw)
{
    bool inside = x >= 0 && y >= 0 && x < v->w && y < v->h;
    size_t i = inside ? (size_t)y * (size_t)v->w + (size_t)x : 0;
    if (!t->gids) {
        *raw = 0;
        return !inside || v->pass[i] == 0;
    }
    *raw = inside ? t->gids[i] : 0;
    return inside && tn_gid_id(*raw) == t->id;
}

static void hit_set(const tc_view *v, tn_tile_hit *h, int32_t x, int32_t y, uint32_t raw)
{
    h->cell.x = x;
    h->cell.y = y;
    bool inside = x >= 0 && y >= 0 && x < v->w && y < v->h;
    h->index = inside ? y * v->w + x : -1;
    h->gid = raw;
}

static tn_status hit_run(const tc_view *v, const tc_target *t, const tn_tile_box *box,
                         tn_tile_points points, tn_tile_hit *out)
{
    tc_box b = box_of(box);
    tn_tile_hit h;
    memset(&h, 0, sizeof h);
    uint32_t raw = 0;
    switch (points) {
    case TN_POINTS_CENTER: {
        int32_t x = cell_floor(b.x + b.w * 0.5, v->tw, v->itw, -1, v->w);
        int32_t y = cell_floor(b.y + b.h * 0.5, v->th, v->ith, -1, v->h);
        h.hit = cell_matches(v, t, x, y, &raw);
        h.mask = h.hit ? 1u : 0u;
        h.tested = 1;
        hit_set(v, &h, x, y, raw);
        break;
    }
    case TN_POINTS_SOME:
    case TN_POINTS_EVERY: {
        int32_t c0, c1, r0, r1;
        box_cells(v, &b, &c0, &c1, &r0, &r1);
        const int32_t px[4] = {c0, c1, c0, c1};
        const int32_t py[4] = {r0, r0, r1, r1};
        bool every = points == TN_POINTS_EVERY;
        int decide = -1;
        uint32_t decide_raw = 0;
        for (int i = 0; i < 4; i++) {
            bool m = cell_matches(v, t, px[i], py[i], &raw);
            if (m)
                h.mask |= 1u << i;
            if (decide < 0 && m != every) {
                decide = i;
                decide_raw = raw;
            }
        }
        h.hit = every ? decide < 0 : decide >= 0;
        if (decide < 0) {
            decide = 3;
            decide_raw = raw;
        }
        h.tested = 4;
        hit_set(v, &h, px[decide], py[decide], decide_raw);
        break;
    }
    case TN_POINTS_ANY_CELL:
    case TN_POINTS_ALL_CELLS: {
        int32_t c0, c1, r0, r1;
        box_cells(v, &b, &c0, &c1, &r0, &r1);
        bool all = points == TN_POINTS_ALL_CELLS;
        bool found = false;
        int32_t fx = c1, fy = r1;
        uint32_t fraw = 0;
        for (int32_t y = r0; y <= r1 && !found; y++)
            for (int32_t x = c0; x <= c1; x++) {
                bool m = cell_matches(v, t, x, y, &raw);
                h.tested++;
                if (m != all) {
                    found = true;
                    fx = x;
                    fy = y;
                    fraw = raw;
                    break;
                }
                fraw = raw;
            }
        h.hit = all ? !found : found;
        hit_set(v, &h, fx, fy, fraw);
        break;
    }
    default: return TN_E_INVALID_ARG;
    }
    /* field by field: a whole-struct copy of a just-written local stalls on store forwarding */
    out->hit = h.hit;
    out->index = h.index;
    out->cell = h.cell;
    out->gid = h.gid;
    out->mask = h.mask;
    out->tested = h.tested;
    return TN_OK;
}

static bool points_valid(tn_tile_points p)
{
    return (int)p >= (int)TN_POINTS_CENTER && (int)p <= (int)TN_POINTS_ALL_CELLS;
}

tn_status tn_tile_hit_test(const tn_map *map, int32_t layer, uint32_t gid, const tn_tile_box *box,
                           tn_tile_points points, tn_tile_hit *out)
{
    if (!map || !out || !box_valid(box) || !points_valid(points))
        return TN_E_INVALID_ARG;
    const uint32_t *gids = tn_map_layer_data(map, layer);
    if (!gids)
        return TN_E_INVALID_ARG;
    tc_view v;
    view_init(&v, map);
    tc_target t = {gids, tn_gid_id(gid)};
    return hit_run(&v, &t, box, points, out);
}

tn_status tn_tile_hit_blocked(const tn_map *map, const tn_tile_box *box, tn_tile_points points,
                              tn_tile_hit *out)
{
    if (!map || !out || !box_valid(box) || !points_valid(points))
        return TN_E_INVALID_ARG;
    tc_view v;
    view_init(&v, map);
    tc_target t = {NULL, 0};
    return hit_run(&v, &t, box, points, out);
}

tn_status tn_tile_on_floor(const tn_map *map, int32_t layer, uint32_t floor_gid,
                           const tn_tile_box *box, tn_tile_hit *out)
{
    return tn_tile_hit_test(map, layer, floor_gid, box, TN_POINTS_EVERY, out);
}

tn_status tn_tile_box_free(const tn_map *map, const tn_tile_box *box, bool *free)
{
    if (!map || !free || !box_valid(box))
        return TN_E_INVALID_ARG;
    tc_view v;
    view_init(&v, map);
    tc_target t = {NULL, 0};
    tn_tile_hit h;
    tn_status st = hit_run(&v, &t, box, TN_POINTS_ANY_CELL, &h);
    if (st == TN_OK)
        *free = !h.hit;
    return st;
}

/* ---- box mover ------------------------------------------------------------------------ */

/* Is any cell of column `c`, rows [r0, r1] clipped to the map, blocked? Columns outside the
 * map always are. */
static bool column_blocked(const tc_view *v, int32_t c, int32_t r0, int32_t r1)
{
    if (c < 0 || c >= v->w)
        return true;
    if (r0 < 0)
        r0 = 0;
    if (r1 >= v->h)
        r1 = v->h - 1;
    const uint8_t *p = v->pass + (size_t)c;
    for (int32_t y = r0; y <= r1; y++)
        if (p[(size_t)y * (size_t)v->w] == 0)
            return true;
    return false;
}

static bool row_blocked(const tc_view *v, int32_t r, int32_t c0, int32_t c1)
{
    if (r < 0 || r >= v->h)
        return true;
    if (c0 < 0)
        c0 = 0;
    if (c1 >= v->w)
        c1 = v->w - 1;
    const uint8_t *p = v->pass + (size_t)r * (size_t)v->w;
    for (int32_t x = c0; x <= c1; x++)
        if (p[x] == 0)
            return true;
    return false;
}

/* Sweep one axis. `lo` is the box's leading-axis start, `len` its size, [o0, o1] the cells it
 * overlaps on the other axis, `t` the tile size on this axis, `n` the cell count on it, `d`
 * the wanted motion. Returns the allowed motion (same sign as d, |result| <= |d|), exact. */
static double sweep_axis(const tc_view *v, bool xaxis, double lo, double len, int32_t o0,
                         int32_t o1, double d)
{
    double t = xaxis ? v->tw : v->th, it = xaxis ? v->itw : v->ith;
    int32_t n = xaxis ? v->w : v->h;
    if (d > 0.0) {
        double edge = lo + len;
        double target = edge + d;
        int32_t first = cell_ceil(edge, t, it, -1, n + 1);
        int32_t last = cell_ceil(target, t, it, -1, n + 1) - 1;
        if (first < 0)
            first = 0; /* the box is left of the map: column 0 is the first ahead */
        for (int32_t c = first; c <= last; c++) {
            bool b = xaxis ? column_blocked(v, c, o0, o1) : row_blocked(v, c, o0, o1);
            if (b) {
                double limit = (double)c * t;
                return limit - edge < d ? (limit - edge > 0.0 ? limit - edge : 0.0) : d;
            }
        }
        return d;
    }
    if (d < 0.0) {
        double target = lo + d;
        int32_t first = cell_floor(lo, t, it, -1, n) - 1;
        int32_t last = cell_floor(target, t, it, -2, n);
        if (first > n - 1)
            first = n - 1;
        for (int32_t c = first; c >= last; c--) {
            bool b = xaxis ? column_blocked(v, c, o0, o1) : row_blocked(v, c, o0, o1);
            if (b) {
                double limit = (double)(c + 1) * t;
                return limit - lo > d ? (limit - lo < 0.0 ? limit - lo : 0.0) : d;
            }
        }
        return d;
    }
    return 0.0;
}

/* New float coordinate start + allowed, such that the collision edge does not pass `start +
 * allowed` in the direction of motion (nudged back by ulps when rounding overshoots). */
static float place(float start, double allowed)
{
    double want = (double)start + allowed;
    float f = (float)want;
    if (allowed > 0.0) {
        while ((double)f > want)
            f = nextafterf(f, -INFINITY);
        if ((double)f < (double)start)
            f = start;
    } else if (allowed < 0.0) {
        while ((double)f < want)
            f = nextafterf(f, INFINITY);
        if ((double)f > (double)start)
            f = start;
    } else {
        f = start;
    }
    return f;
}

tn_status tn_tile_move_box(const tn_map *map, tn_tile_box *box, tn_vec2 delta,
                           tn_tile_box_move *out)
{
    if (!map || !box_valid(box) || !finite2(delta))
        return TN_E_INVALID_ARG;
    tc_view v;
    view_init(&v, map);
    tn_tile_box_move r = {{0.0f, 0.0f}, 0};
    tc_target t = {NULL, 0};
    tn_tile_hit h;
    tn_status st = hit_run(&v, &t, box, TN_POINTS_ANY_CELL, &h);
    TN_ASSERT(st == TN_OK);
    (void)st;
    if (h.hit)
        r.flags |= TN_TILE_STARTED_INSIDE;

    float x0 = box->x, y0 = box->y;
    tc_box b = box_of(box);
    if (delta.x != 0.0f) {
        int32_t c0, c1, r0, r1;
        box_cells(&v, &b, &c0, &c1, &r0, &r1);
        double a = sweep_axis(&v, true, b.x, b.w, r0, r1, (double)delta.x);
        if (a != (double)delta.x)
            r.flags |= TN_TILE_BLOCKED_X;
        box->x = place(box->x, a);
        b = box_of(box);
    }
    if (delta.y != 0.0f) {
        int32_t c0, c1, r0, r1;
        box_cells(&v, &b, &c0, &c1, &r0, &r1);
        double a = sweep_axis(&v, false, b.y, b.h, c0, c1, (double)delta.y);
        if (a != (double)delta.y)
            r.flags |= TN_TILE_BLOCKED_Y;
        box->y = place(box->y, a);
    }
    r.applied.x = box->x - x0;
    r.applied.y = box->y - y0;
    if (out)
        *out = r;
    return TN_OK;
}

/* ---- circles -------------------------------------------------------------------------- */

/* Depth of a circle into the blocked region (cells and the outside of the map). Returns < 0
 * when there is no overlap (the value is then meaningless), else the depth >= 0. Touching is
 * not overlapping. With `conservative`, a circle within a relative 1e-12 of touching a cell's
 * corner counts as overlapping (depth 0): near corners d2 is a rounded sum, and positions the
 * movers hand out must be clear under the exact predicate, not just the rounded one. */
static double circle_depth(const tc_view *v, double cx, double cy, double r, bool conservative)
{
    double best = -1.0;
    /* the outside of the map: four half-planes */
    double e = r - cx;
    if (r - (v->mw - cx) > e)
        e = r - (v->mw - cx);
    if (r - cy > e)
        e = r - cy;
    if (r - (v->mh - cy) > e)
        e = r - (v->mh - cy);
    if (e > 0.0)
        best = e; /* exact: differences of floats and whole pixels */
    int32_t c0 = cell_floor(cx - r, v->tw, v->itw, 0, v->w - 1);
    int32_t c1 = cell_ceil(cx + r, v->tw, v->itw, 0, v->w) - 1;
    int32_t r0 = cell_floor(cy - r, v->th, v->ith, 0, v->h - 1);
    int32_t r1 = cell_ceil(cy + r, v->th, v->ith, 0, v->h) - 1;
    double r2 = r * r;
    /* d2 is exact when dx or dy is 0 (a face); near a corner it is a rounded sum, so positions
     * the movers hand out keep a relative 1e-12 margin there */
    double lim_corner = conservative ? r2 * (1.0 + 1e-12) : r2;
    for (int32_t y = r0; y <= r1; y++) {
        const uint8_t *p = v->pass + (size_t)y * (size_t)v->w;
        double y0 = (double)y * v->th, y1 = y0 + v->th;
        double qy = cy < y0 ? y0 : cy > y1 ? y1 : cy;
        double dy = cy - qy;
        for (int32_t x = c0; x <= c1; x++) {
            if (p[x])
                continue;
            double x0 = (double)x * v->tw, x1 = x0 + v->tw;
            double qx = cx < x0 ? x0 : cx > x1 ? x1 : cx;
            double dx = cx - qx;
            double d2 = dx * dx + dy * dy;
            if (!(d2 < (dx != 0.0 && dy != 0.0 ? lim_corner : r2)))
                continue;
            double depth;
            if (d2 > 0.0) {
                depth = r - sqrt(d2);
            } else {
                double in = cx - x0;
                if (x1 - cx < in)
                    in = x1 - cx;
                if (cy - y0 < in)
                    in = cy - y0;
                if (y1 - cy < in)
                    in = y1 - cy;
                depth = r + in;
            }
            if (depth < 0.0)
                depth = 0.0;
            if (depth > best)
                best = depth;
        }
    }
    return best;
}

static inline bool circle_clear(const tc_view *v, double cx, double cy, double r)
{
    return circle_depth(v, cx, cy, r, true) < 0.0;
}

float tn_tile_circle_overlap(const tn_map *map, tn_vec2 c, float radius)
{
    if (!map || !finite2(c) || !isfinite(radius) || !(radius > 0.0f))
        return -1.0f;
    tc_view v;
    view_init(&v, map);
    double d = circle_depth(&v, (double)c.x, (double)c.y, (double)radius, false);
    return d > 0.0 ? (float)d : 0.0f;
}

/* Earliest entry time in [0, 1) of a circle at p moving by (vx, vy) into the open rectangle
 * grown by r (a rounded rectangle); false when it does not enter during the move. */
static bool toi_cell(double px, double py, double vx, double vy, double ivx, double ivy, double r,
                     double x0, double y0, double x1, double y1, double *t_out, double *nx,
                     double *ny)
{
    double t_enter = -(double)INFINITY, t_exit = (double)INFINITY;
    int axis = -1;
    if (vx == 0.0) {
        if (!(px > x0 - r && px < x1 + r))
            return false;
    } else {
        double ta = (x0 - r - px) * ivx, tb = (x1 + r - px) * ivx;
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        t_enter = ta;
        axis = 0;
        t_exit = tb;
    }
    if (vy == 0.0) {
        if (!(py > y0 - r && py < y1 + r))
            return false;
    } else {
        double ta = (y0 - r - py) * ivy, tb = (y1 + r - py) * ivy;
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        if (ta > t_enter) {
            t_enter = ta;
            axis = 1;
        }
        if (tb < t_exit)
            t_exit = tb;
    }
    if (!(t_enter < t_exit) || t_exit <= 0.0 || t_enter >= 1.0)
        return false;
    double te = t_enter > 0.0 ? t_enter : 0.0;
    double qx = px + te * vx, qy = py + te * vy;
    int sx = qx < x0 ? -1 : qx > x1 ? 1 : 0;
    int sy = qy < y0 ? -1 : qy > y1 ? 1 : 0;
    if (sx != 0 && sy != 0) {
        double kx = sx < 0 ? x0 : x1, ky = sy < 0 ? y0 : y1;
        double dx = px - kx, dy = py - ky;
        double a = vx * vx + vy * vy;
        double hb = dx * vx + dy * vy;
        double c = dx * dx + dy * dy - r * r;
        if (hb >= 0.0)
            return false; /* moving away from the corner (or tangentially) */
        double disc = hb * hb - a * c;
        if (disc <= 0.0)
            return false;
        double t1 = c / (-hb + sqrt(disc)); /* the smaller root, cancellation free */
        if (t1 >= 1.0)
            return false;
        if (t1 < 0.0)
            t1 = 0.0;
        double cx = px + t1 * vx - kx, cy = py + t1 * vy - ky;
        double len = sqrt(cx * cx + cy * cy);
        if (len > 0.0) {
            *nx = cx / len;
            *ny = cy / len;
        } else {
            *nx = sx;
            *ny = sy;
        }
        *t_out = t1;
        return true;
    }
    *t_out = te;
    if (axis == 0) {
        *nx = vx > 0.0 ? -1.0 : 1.0;
        *ny = 0.0;
    } else {
        *nx = 0.0;
        *ny = vy > 0.0 ? -1.0 : 1.0;
    }
    return true;
}

/* Earliest contact of a circle moving from p by v with the blocked cells or the map's edges. */
static bool circle_first_contact(const tc_view *v, double px, double py, double vx, double vy,
                                 double r, double *t_out, double *nx, double *ny)
{
    /* one division per axis; every slab test below multiplies */
    double ivx = vx != 0.0 ? 1.0 / vx : 0.0, ivy = vy != 0.0 ? 1.0 / vy : 0.0;
    double best = (double)INFINITY, bnx = 0.0, bny = 0.0;
    /* map edges */
    if (vx < 0.0) {
        double t = (r - px) * ivx;
        if (t < best) {
            best = t;
            bnx = 1.0;
            bny = 0.0;
        }
    } else if (vx > 0.0) {
        double t = (v->mw - r - px) * ivx;
        if (t < best) {
            best = t;
            bnx = -1.0;
            bny = 0.0;
        }
    }
    if (vy < 0.0) {
        double t = (r - py) * ivy;
        if (t < best) {
            best = t;
            bnx = 0.0;
            bny = 1.0;
        }
    } else if (vy > 0.0) {
        double t = (v->mh - r - py) * ivy;
        if (t < best) {
            best = t;
            bnx = 0.0;
            bny = -1.0;
        }
    }
    if (best < 0.0)
        best = 0.0;
    /* cells, chunk by chunk along the path (up to the map edge) so that long diagonal moves
     * cost cells along the path, not the area of their bounding box */
    double tmax = best < 1.0 ? best : 1.0;
    double len = sqrt(vx * vx + vy * vy) * tmax;
    double chunk = v->tw > v->th ? v->tw : v->th;
    int32_t n = 1;
    if (len > chunk) {
        double k = ceil(len / chunk);
        n = k > 1e6 ? 1000000 : (int32_t)k;
    }
    double step = tmax / n;
    for (int32_t i = 0; i < n; i++) {
        double ta = step * i, tb = i + 1 == n ? tmax : step * (i + 1);
        if (ta >= best)
            break;
        double ax = px + ta * vx, bx = px + tb * vx;
        double ay = py + ta * vy, by = py + tb * vy;
        double lx = ax < bx ? ax : bx, hx = ax < bx ? bx : ax;
        double ly = ay < by ? ay : by, hy = ay < by ? by : ay;
        int32_t c0 = cell_floor(lx - r, v->tw, v->itw, 0, v->w - 1);
        int32_t c1 = cell_ceil(hx + r, v->tw, v->itw, 0, v->w) - 1;
        int32_t r0 = cell_floor(ly - r, v->th, v->ith, 0, v->h - 1);
        int32_t r1 = cell_ceil(hy + r, v->th, v->ith, 0, v->h) - 1;
        for (int32_t y = r0; y <= r1; y++) {
            const uint8_t *p = v->pass + (size_t)y * (size_t)v->w;
            for (int32_t x = c0; x <= c1; x++) {
                if (p[x])
                    continue;
                double t, cnx, cny;
                double x0 = (double)x * v->tw, y0 = (double)y * v->th;
                if (toi_cell(px, py, vx, vy, ivx, ivy, r, x0, y0, x0 + v->tw, y0 + v->th, &t, &cnx,
                             &cny) &&
                    t < best) {
                    best = t;
                    bnx = cnx;
                    bny = cny;
                }
            }
        }
    }
    if (!(best < 1.0))
        return false;
    *t_out = best;
    *nx = bnx;
    *ny = bny;
    return true;
}

/* A clear float position at or just before the wanted one (wx, wy) on the way from (fx, fy):
 * rounding to float may put an exact contact position a hair inside the wall. Tries the
 * rounded position, then nudges along the contact normal (nx, ny) (when there is one) by a
 * few ulps, then backs off along the path by doubling steps. False when only the start is
 * clear (the caller then stays there). */
static bool settle(const tc_view *v, float fx, float fy, double wx, double wy, double nx, double ny,
                   double r, float *ox, float *oy)
{
    float x = (float)wx, y = (float)wy;
    bool ok = circle_clear(v, (double)x, (double)y, r);
    if (ok) {
        *ox = x;
        *oy = y;
        return true;
    }
    double ax = fabs(wx), ay = fabs(wy);
    double ulp = (ax > ay ? ax : ay) * 0x1p-23 + 0x1p-126; /* a float ulp at this magnitude */
    if (!ok && (nx != 0.0 || ny != 0.0)) {
        for (int k = 0; k < 4 && !ok; k++) {
            double e = ulp * (double)(1 << k);
            x = (float)(wx + nx * e);
            y = (float)(wy + ny * e);
            ok = circle_clear(v, (double)x, (double)y, r);
        }
    }
    double bx = (double)fx - wx, by = (double)fy - wy;
    double len = sqrt(bx * bx + by * by);
    for (double e = ulp; !ok && e < len; e *= 2.0) {
        x = (float)(wx + bx / len * e);
        y = (float)(wy + by / len * e);
        ok = circle_clear(v, (double)x, (double)y, r);
    }
    if (ok) {
        *ox = x;
        *oy = y;
    }
    return ok;
}

/* True when the bounding box of the whole move, grown by r and a rounding margin, lies inside
 * the map and holds no blocked cell: then the start, the path and the (rounded) end are clear
 * and the move is free. Only boxes of up to 64 cells are scanned. */
static bool fast_free_move(const tc_view *v, double px, double py, double dx, double dy, double r)
{
    double lx = (dx < 0.0 ? px + dx : px) - r, hx = (dx < 0.0 ? px : px + dx) + r;
    double ly = (dy < 0.0 ? py + dy : py) - r, hy = (dy < 0.0 ? py : py + dy) + r;
    double margin = 1e-6 * (1.0 + fabs(lx) + fabs(hx) + fabs(ly) + fabs(hy));
    lx -= margin;
    ly -= margin;
    hx += margin;
    hy += margin;
    if (!(lx >= 0.0 && ly >= 0.0 && hx <= v->mw && hy <= v->mh))
        return false;
    /* the grown box is inside the map, so these are in range before clamping */
    int32_t c0 = (int32_t)(lx * v->itw), c1 = (int32_t)(hx * v->itw);
    int32_t r0 = (int32_t)(ly * v->ith), r1 = (int32_t)(hy * v->ith);
    if (c1 >= v->w)
        c1 = v->w - 1;
    if (r1 >= v->h)
        r1 = v->h - 1;
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > 64)
        return false;
    for (int32_t y = r0; y <= r1; y++) {
        const uint8_t *p = v->pass + (size_t)y * (size_t)v->w;
        for (int32_t x = c0; x <= c1; x++)
            if (p[x] == 0)
                return false;
    }
    return true;
}

tn_status tn_tile_move_circle(const tn_map *map, tn_vec2 centre, float radius, tn_vec2 delta,
                              tn_tile_circle_move *out)
{
    if (!map || !out || !finite2(centre) || !finite2(delta) || !isfinite(radius) ||
        !(radius > 0.0f))
        return TN_E_INVALID_ARG;
    tc_view v;
    view_init(&v, map);
    double r = (double)radius;
    tn_tile_circle_move res;
    memset(&res, 0, sizeof res);
    float fx = centre.x, fy = centre.y;
    if (fast_free_move(&v, (double)fx, (double)fy, (double)delta.x, (double)delta.y, r)) {
        /* the common case: nothing blocked anywhere near the whole move */
        res.position.x = (float)((double)fx + (double)delta.x);
        res.position.y = (float)((double)fy + (double)delta.y);
        res.applied.x = res.position.x - centre.x;
        res.applied.y = res.position.y - centre.y;
        *out = res;
        return TN_OK;
    }
    if (!circle_clear(&v, (double)fx, (double)fy, r)) {
        res.flags |= TN_TILE_STARTED_INSIDE;
        tn_vec2 p;
        double reach = r + (v.tw > v.th ? v.tw : v.th);
        if (tn_tile_circle_push_out(map, centre, radius, (float)reach, &p) != TN_OK)
            return TN_E_START_BLOCKED;
        res.flags |= TN_TILE_PUSHED_OUT;
        fx = p.x;
        fy = p.y;
    }
    double remx = (double)delta.x, remy = (double)delta.y;
    double nx_hist[TN_TILE_MAX_SLIDES], ny_hist[TN_TILE_MAX_SLIDES];
    for (int it = 0; it < TN_TILE_MAX_SLIDES; it++) {
        if (remx == 0.0 && remy == 0.0)
            break;
        double px = (double)fx, py = (double)fy;
        double t = 1.0, nx = 0.0, ny = 0.0;
        bool contact = circle_first_contact(&v, px, py, remx, remy, r, &t, &nx, &ny);
        float sx, sy;
        if (settle(&v, fx, fy, px + t * remx, py + t * remy, nx, ny, r, &sx, &sy)) {
            fx = sx;
            fy = sy;
        }
        if (!contact)
            break;
        res.contacts++;
        res.normal.x = (float)nx;
        res.normal.y = (float)ny;
        /* slide: keep the rest of the motion minus its part into the wall */
        remx *= 1.0 - t;
        remy *= 1.0 - t;
        double vn = remx * nx + remy * ny;
        if (vn < 0.0) {
            double cutx = vn * nx, cuty = vn * ny;
            if (cutx != 0.0)
                res.flags |= TN_TILE_BLOCKED_X;
            if (cuty != 0.0)
                res.flags |= TN_TILE_BLOCKED_Y;
            remx -= cutx;
            remy -= cuty;
        }
        nx_hist[it] = nx;
        ny_hist[it] = ny;
        /* never turn back against the wanted motion (the usual collide-and-slide rule) */
        if (remx * (double)delta.x + remy * (double)delta.y <= 0.0)
            break;
        /* in a concave corner the slide would go back into an earlier wall: stop there */
        double scale = fabs(remx) + fabs(remy);
        for (int j = 0; j < it; j++)
            if (remx * nx_hist[j] + remy * ny_hist[j] < -1e-9 * scale) {
                remx = remy = 0.0;
                break;
            }
        /* a remainder lost in rounding is not worth another contact */
        if (fabs(remx) + fabs(remy) <= 1e-9 * (1.0 + fabs(px) + fabs(py)))
            break;
    }
    res.position.x = fx;
    res.position.y = fy;
    res.applied.x = fx - centre.x;
    res.applied.y = fy - centre.y;
    *out = res;
    return TN_OK;
}

/* ---- push-out ------------------------------------------------------------------------- */

/* A piece of the boundary of the blocked region grown by r: a vertical line x = a (kind 0)
 * or horizontal line y = a (kind 1) valid for the other coordinate in [lo, hi], with the free
 * side towards sign s; or a circle of radius r around (a, b) valid in the quadrant (sx, sy)
 * (kind 2), free outside. */
typedef struct tc_piece {
    int kind;
    double a, b, lo, hi;
    int sx, sy;
} tc_piece;

#define TC_MAX_PIECES 256

typedef struct tc_best {
    double px, py, d2, r, max2;
    float x, y;
    bool found;
} tc_best;

/* The unit normal of a piece at q, pointing to its free side. */
static void piece_normal(const tc_piece *p, double qx, double qy, double *nx, double *ny)
{
    if (p->kind == 0) {
        *nx = (double)p->sx;
        *ny = 0.0;
    } else if (p->kind == 1) {
        *nx = 0.0;
        *ny = (double)p->sx;
    } else {
        double dx = qx - p->a, dy = qy - p->b;
        double len = sqrt(dx * dx + dy * dy);
        *nx = len > 0.0 ? dx / len : 0.0;
        *ny = len > 0.0 ? dy / len : 0.0;
    }
}

/* Try a candidate q on the boundary: it lies on piece p (and on piece q2 when not NULL).
 * Rounding may leave it a hair inside a wall, so it is nudged towards the free side of its
 * piece(s) until a float position is clear. */
static void try_candidate(const tc_view *v, tc_best *b, double qx, double qy, const tc_piece *p,
                          const tc_piece *p2)
{
    double dx = qx - b->px, dy = qy - b->py;
    double d2 = dx * dx + dy * dy;
    if (!(d2 <= b->max2) || (b->found && !(d2 < b->d2)))
        return;
    double ux, uy;
    piece_normal(p, qx, qy, &ux, &uy);
    if (p2) {
        double wx, wy;
        piece_normal(p2, qx, qy, &wx, &wy);
        ux += wx;
        uy += wy;
        double len = sqrt(ux * ux + uy * uy);
        if (!(len > 1e-9))
            return; /* opposite normals: a free spot of zero width, hit only by rounding */
        ux /= len;
        uy /= len;
    }
    double scale = fabs(qx) + fabs(qy) + b->r + 1.0;
    for (int k = 0; k < 6; k++) {
        double e = k == 0 ? 0.0 : scale * 1e-7 * (double)(1 << (2 * (k - 1)));
        float fx = (float)(qx + ux * e), fy = (float)(qy + uy * e);
        double ex = (double)fx - b->px, ey = (double)fy - b->py;
        double e2 = ex * ex + ey * ey;
        if (b->found && !(e2 < b->d2))
            return;
        if (!(e2 <= b->max2))
            return;
        if (circle_clear(v, (double)fx, (double)fy, b->r)) {
            b->found = true;
            b->d2 = e2;
            b->x = fx;
            b->y = fy;
            return;
        }
    }
}

static void project_piece(const tc_view *v, tc_best *b, const tc_piece *p)
{
    if (p->kind == 0) {
        if (b->py >= p->lo && b->py <= p->hi)
            try_candidate(v, b, p->a, b->py, p, NULL);
    } else if (p->kind == 1) {
        if (b->px >= p->lo && b->px <= p->hi)
            try_candidate(v, b, b->px, p->a, p, NULL);
    } else {
        double dx = b->px - p->a, dy = b->py - p->b;
        double len = sqrt(dx * dx + dy * dy);
        if (len > 0.0 && dx * p->sx >= 0.0 && dy * p->sy >= 0.0)
            try_candidate(v, b, p->a + dx / len * b->r, p->b + dy / len * b->r, p, NULL);
    }
}

static void intersect_pieces(const tc_view *v, tc_best *b, const tc_piece *p, const tc_piece *q)
{
    if (p->kind > q->kind) {
        const tc_piece *s = p;
        p = q;
        q = s;
    }
    double r = b->r;
    if (p->kind == 0 && q->kind == 1) {
        try_candidate(v, b, p->a, q->a, p, q);
    } else if (p->kind < 2 && q->kind == 2) {
        bool vertical = p->kind == 0;
        double off = vertical ? p->a - q->a : p->a - q->b;
        double s2 = r * r - off * off;
        if (s2 < 0.0)
            return;
        double h = sqrt(s2);
        if (vertical) {
            try_candidate(v, b, p->a, q->b - h, p, q);
            try_candidate(v, b, p->a, q->b + h, p, q);
        } else {
            try_candidate(v, b, q->a - h, p->a, p, q);
            try_candidate(v, b, q->a + h, p->a, p, q);
        }
    } else if (p->kind == 2 && q->kind == 2) {
        double dx = q->a - p->a, dy = q->b - p->b;
        double d2 = dx * dx + dy * dy;
        if (d2 == 0.0 || d2 > 4.0 * r * r)
            return;
        double d = sqrt(d2);
        double h2 = r * r - d2 / 4.0;
        double h = h2 > 0.0 ? sqrt(h2) : 0.0;
        double mx = p->a + dx / 2.0, my = p->b + dy / 2.0;
        try_candidate(v, b, mx - dy / d * h, my + dx / d * h, p, q);
        try_candidate(v, b, mx + dy / d * h, my - dx / d * h, p, q);
    }
}

tn_status tn_tile_circle_push_out(const tn_map *map, tn_vec2 centre, float radius, float max_dist,
                                  tn_vec2 *out)
{
    if (!map || !out || !finite2(centre) || !isfinite(radius) || !(radius > 0.0f) ||
        !isfinite(max_dist) || max_dist < 0.0f)
        return TN_E_INVALID_ARG;
    tc_view v;
    view_init(&v, map);
    double r = (double)radius, px = (double)centre.x, py = (double)centre.y;
    if (circle_clear(&v, px, py, r)) {
        *out = centre;
        return TN_OK;
    }
    double md = (double)max_dist;
    tc_piece pieces[TC_MAX_PIECES];
    int np = 0;
    /* the map's edges: the centre must stay in [r, mw - r] x [r, mh - r] */
    const double big = (double)INFINITY;
    tc_piece edges[4] = {{0, r, 0.0, -big, big, 1, 0},
                         {0, v.mw - r, 0.0, -big, big, -1, 0},
                         {1, r, 0.0, -big, big, 1, 0},
                         {1, v.mh - r, 0.0, -big, big, -1, 0}};
    for (int i = 0; i < 4; i++) {
        double dist = fabs((edges[i].kind == 0 ? px : py) - edges[i].a);
        if (dist <= md)
            pieces[np++] = edges[i];
    }
    /* the boundary of the union of grown blocked cells within reach: faces next to a free
     * cell, and corner arcs where the three cells around the corner are free */
    int32_t c0 = cell_floor(px - md - r, v.tw, v.itw, 0, v.w - 1);
    int32_t c1 = cell_ceil(px + md + r, v.tw, v.itw, 0, v.w) - 1;
    int32_t r0 = cell_floor(py - md - r, v.th, v.ith, 0, v.h - 1);
    int32_t r1 = cell_ceil(py + md + r, v.th, v.ith, 0, v.h) - 1;
    for (int32_t y = r0; y <= r1; y++) {
        for (int32_t x = c0; x <= c1; x++) {
            if (!view_blocked(&v, x, y))
                continue;
            double x0 = (double)x * v.tw, y0 = (double)y * v.th;
            double x1 = x0 + v.tw, y1 = y0 + v.th;
            /* nearest distance from p to the grown cell's outer box: skip far cells */
            double gx = px < x0 - r ? x0 - r - px : px > x1 + r ? px - x1 - r : 0.0;
            double gy = py < y0 - r ? y0 - r - py : py > y1 + r ? py - y1 - r : 0.0;
            if (gx * gx + gy * gy > md * md)
                continue;
            tc_piece cand[8];
            int nc = 0;
            bool fl = !view_blocked(&v, x - 1, y), fr = !view_blocked(&v, x + 1, y);
            bool fu = !view_blocked(&v, x, y - 1), fd = !view_blocked(&v, x, y + 1);
            if (fl)
                cand[nc++] = (tc_piece){0, x0 - r, 0.0, y0, y1, -1, 0};
            if (fr)
                cand[nc++] = (tc_piece){0, x1 + r, 0.0, y0, y1, 1, 0};
            if (fu)
                cand[nc++] = (tc_piece){1, y0 - r, 0.0, x0, x1, -1, 0};
            if (fd)
                cand[nc++] = (tc_piece){1, y1 + r, 0.0, x0, x1, 1, 0};
            if (fl && fu && !view_blocked(&v, x - 1, y - 1))
                cand[nc++] = (tc_piece){2, x0, y0, 0.0, 0.0, -1, -1};
            if (fr && fu && !view_blocked(&v, x + 1, y - 1))
                cand[nc++] = (tc_piece){2, x1, y0, 0.0, 0.0, 1, -1};
            if (fl && fd && !view_blocked(&v, x - 1, y + 1))
                cand[nc++] = (tc_piece){2, x0, y1, 0.0, 0.0, -1, 1};
            if (fr && fd && !view_blocked(&v, x + 1, y + 1))
                cand[nc++] = (tc_piece){2, x1, y1, 0.0, 0.0, 1, 1};
            if (np + nc > TC_MAX_PIECES)
                return TN_E_TOO_LARGE;
            for (int i = 0; i < nc; i++)
                pieces[np++] = cand[i];
        }
    }
    tc_best b = {px, py, (double)INFINITY, r, md * md, 0.0f, 0.0f, false};
    for (int i = 0; i < np; i++)
        project_piece(&v, &b, &pieces[i]);
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++)
            intersect_pieces(&v, &b, &pieces[i], &pieces[j]);
    if (!b.found)
        return TN_E_NOT_FOUND;
    out->x = b.x;
    out->y = b.y;
    return TN_OK;
}

/* ---- alignment ------------------------------------------------------------------------ */

static bool near_multiple(double a, double t, double tol, int32_t lo, int32_t hi, int32_t *k)
{
    double q = floor(a / t + 0.5);
    if (q < (double)lo)
        q = (double)lo;
    if (q > (double)hi)
        q = (double)hi;
    *k = (int32_t)q;
    return fabs(a - q * t) <= tol;
}

bool tn_tile_box_aligned(const tn_map *map, const tn_tile_box *box, float tolerance, tn_cell *cell)
{
    if (!map || !box_valid(box) || !isfinite(tolerance) || tolerance < 0.0f)
        return false;
    tc_view v;
    view_init(&v, map);
    tc_box b = box_of(box);
    int32_t kx, ky;
    bool ax = near_multiple(b.x, v.tw, (double)tolerance, -TN_MAX_DIM, 2 * TN_MAX_DIM, &kx);
    bool ay = near_multiple(b.y, v.th, (double)tolerance, -TN_MAX_DIM, 2 * TN_MAX_DIM, &ky);
    if (cell) {
        cell->x = kx;
        cell->y = ky;
    }
    return ax && ay;
}

bool tn_tile_point_centered(const tn_map *map, tn_vec2 p, float tolerance, tn_cell *cell)
{
    if (!map || !finite2(p) || !isfinite(tolerance) || tolerance < 0.0f)
        return false;
    tc_view v;
    view_init(&v, map);
    int32_t cx = cell_floor((double)p.x, v.tw, v.itw, -TN_MAX_DIM, 2 * TN_MAX_DIM);
    int32_t cy = cell_floor((double)p.y, v.th, v.ith, -TN_MAX_DIM, 2 * TN_MAX_DIM);
    if (cell) {
        cell->x = cx;
        cell->y = cy;
    }
    double mx = ((double)cx + 0.5) * v.tw, my = ((double)cy + 0.5) * v.th;
    return fabs((double)p.x - mx) <= (double)tolerance &&
           fabs((double)p.y - my) <= (double)tolerance;
}

bool tn_tile_box_centered(const tn_map *map, const tn_tile_box *box, float tolerance, tn_cell *cell)
{
    if (!map || !box_valid(box) || !isfinite(tolerance) || tolerance < 0.0f)
        return false;
    tc_view v;
    view_init(&v, map);
    tc_box b = box_of(box);
    double cx = b.x + b.w * 0.5, cy = b.y + b.h * 0.5;
    int32_t kx = cell_floor(cx, v.tw, v.itw, -TN_MAX_DIM, 2 * TN_MAX_DIM);
    int32_t ky = cell_floor(cy, v.th, v.ith, -TN_MAX_DIM, 2 * TN_MAX_DIM);
    if (cell) {
        cell->x = kx;
        cell->y = ky;
    }
    double mx = ((double)kx + 0.5) * v.tw, my = ((double)ky + 0.5) * v.th;
    return fabs(cx - mx) <= (double)tolerance && fabs(cy - my) <= (double)tolerance;
}
