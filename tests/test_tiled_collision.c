/* Tiled's collision conventions in the Tiled loader: tile collision shapes, collision object
 * layers, the cover rules, templates, old-style and external tilesets, the load report.
 *
 * The reference here is written from the rules in docs/formats.md, separately from the
 * loader: a map point is carried BACK into a shape's own frame step by step (undo the
 * object's rotation, the tile object's box and scale, the flips) and tested there with its own
 * point-in-shape code; CENTER tests each cell's centre; ANY and HALF estimate the covered
 * fraction of a cell by sampling (32 x 32 points, then 256 x 256 near the threshold) and are
 * only asserted where the estimate is clearly away from the threshold; polylines meet a cell
 * when an end lies in its closed square or the segment crosses one of its sides. A cell the
 * reference cannot call (a centre within 1e-6 px of an edge, a fraction within 2% of the
 * threshold) is skipped, and the tests check that such cells stay rare. */
#include "support.h"
#include "tilenav/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a growing text buffer ----------------------------------------------------------------- */

/* ---- the reference ------------------------------------------------------------------------- */

enum { R_RECT, R_ELLIPSE, R_POLYGON, R_POLYLINE };

typedef struct rshape {
    int kind;
    double x, y, w, h, rot;
    int n;
    double px[24], py[24]; /* relative to (x, y) */
} rshape;

static const double PI = 3.14159265358979323846;

/* p rotated by `deg` degrees clockwise (y down) about (ox, oy). */
static void rotate(double deg, double ox, double oy, double px, double py, double *qx, double *qy)
{
    /* the samples of one placed shape use a few angles over and over: remember 8 */
    static double degs[8], cs[8] = {1, 1, 1, 1, 1, 1, 1, 1}, sns[8];
    static unsigned next;
    int k = 0;
    while (k < 8 && degs[k] != deg)
        k++;
    if (k == 8) {
        k = (int)(next++ % 8);
        degs[k] = deg;
        cs[k] = cos(deg * PI / 180.0);
        sns[k] = sin(deg * PI / 180.0);
    }
    double c = cs[k], sn = sns[k];
    double dx = px - ox, dy = py - oy;
    *qx = ox + dx * c - dy * sn;
    *qy = oy + dx * sn + dy * c;
}

/* W. R. Franklin's pnpoly. */
static bool pnpoly(int n, const double *xs, const double *ys, double x, double y)
{
    bool c = false;
    for (int i = 0, j = n - 1; i < n; j = i++)
        if (((ys[i] > y) != (ys[j] > y)) &&
            (x < (xs[j] - xs[i]) * (y - ys[i]) / (ys[j] - ys[i]) + xs[i]))
            c = !c;
    return c;
}

/* Is the point (in the frame the shape's x, y live in) inside the shape? */
static bool r_inside(const rshape *s, double px, double py)
{
    double qx, qy;
    rotate(-s->rot, s->x, s->y, px, py, &qx, &qy);
    switch (s->kind) {
    case R_RECT: return qx >= s->x && qx < s->x + s->w && qy >= s->y && qy < s->y + s->h;
    case R_ELLIPSE: {
        double u = (qx - (s->x + s->w / 2)) / (s->w / 2), v = (qy - (s->y + s->h / 2)) / (s->h / 2);
        return u * u + v * v <= 1.0;
    }
    case R_POLYGON: return pnpoly(s->n, s->px, s->py, qx - s->x, qy - s->y);
    default: return false;
    }
}

/* A tile with collision shapes, and where one copy of it is placed. */
typedef struct rtile {
    int ns;
    rshape s[4];
    int iw, ih;
} rtile;

typedef struct rplace {
    const rtile *t;
    uint32_t flags;         /* TN_GID_FLIP_* */
    double x, y, w, h, rot; /* bottom-left (x, y), size w x h, rotation about (x, y) */
} rplace;

/* A map point carried back into the tile's pixels, tested against the tile's shape k. */
static bool place_inside(const rplace *p, int k, double mx, double my)
{
    double qx, qy;
    rotate(-p->rot, p->x, p->y, mx, my, &qx, &qy);
    bool d = p->flags & TN_GID_FLIP_D;
    double fw = d ? p->t->ih : p->t->iw, fh = d ? p->t->iw : p->t->ih;
    double u = (qx - p->x) * fw / p->w, v = (qy - (p->y - p->h)) * fh / p->h;
    if (p->flags & TN_GID_FLIP_V)
        v = fh - v;
    if (p->flags & TN_GID_FLIP_H)
        u = fw - u;
    if (d) {
        double t = u;
        u = v;
        v = t;
    }
    return r_inside(&p->t->s[k], u, v);
}

/* One shape's predicate: a shape on an object layer, or shape k of a placed tile; every point
 * of it lies within R of (cx, cy) (to skip far cells quickly). */
typedef struct rpred {
    const rshape *s;
    const rplace *p;
    int k;
    double cx, cy, R;
} rpred;

/* Largest distance from the shape's (x, y) to a point of it (rotation does not change it). */
static double reach(const rshape *s)
{
    double r = 0;
    if (s->kind == R_RECT || s->kind == R_ELLIPSE)
        r = hypot(s->w, s->h);
    for (int i = 0; i < s->n; i++)
        r = fmax(r, hypot(s->px[i], s->py[i]));
    return r;
}

static rpred pred_shape(const rshape *s)
{
    return (rpred){s, NULL, 0, s->x, s->y, reach(s) + 1e-6};
}

static rpred pred_place(const rplace *p, int k)
{
    const rshape *s = &p->t->s[k];
    bool d = p->flags & TN_GID_FLIP_D;
    double fw = d ? p->t->ih : p->t->iw, fh = d ? p->t->iw : p->t->ih;
    /* flips move a point of the tile by at most the tile's diagonal */
    double rho = hypot(s->x, s->y) + reach(s) + hypot(fw, fh);
    double scale = fmax(p->w / fw, p->h / fh);
    return (rpred){NULL, p, k, p->x, p->y, p->h + scale * rho + 1e-6};
}

static bool pred_at(const rpred *r, double x, double y)
{
    return r->s ? r_inside(r->s, x, y) : place_inside(r->p, r->k, x, y);
}

static double fraction(const rpred *r, double x0, double y0, double w, double h, int k)
{
    int hit = 0;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++)
            hit += pred_at(r, x0 + (i + 0.5) * w / k, y0 + (j + 0.5) * h / k);
    return (double)hit / ((double)k * k);
}

/* 1 blocks, 0 does not, -1 too close to call; f: the fraction from 32 x 32 samples. */
static int ref_area_cell(const rpred *r, tn_cover_rule rule, double f, double x0, double y0,
                         double tw, double th)
{
    if (rule == TN_COVER_HALF) {
        if (fabs(f - 0.5) > 0.1)
            return f > 0.5;
        f = fraction(r, x0, y0, tw, th, 256);
        return fabs(f - 0.5) > 0.02 ? f > 0.5 : -1;
    }
    if (f > 0.1)
        return 1;
    /* nothing seen in the cell: call it free only when nothing comes near it either (a sliver
     * too thin for the samples would have to cross a quarter-cell margin to reach it) */
    double gx = 0.25 * tw, gy = 0.25 * th;
    if (f == 0 && fraction(r, x0 - gx, y0 - gy, tw + 2 * gx, th + 2 * gy, 64) == 0)
        return 0;
    return fraction(r, x0, y0, tw, th, 256) > 0.02 ? 1 : -1;
}

static int ref_center_cell(const rpred *r, double cx, double cy)
{
    const double e = 1e-6;
    bool a = pred_at(r, cx, cy);
    if (pred_at(r, cx + e, cy) != a || pred_at(r, cx - e, cy) != a || pred_at(r, cx, cy + e) != a ||
        pred_at(r, cx, cy - e) != a)
        return -1;
    return a;
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static bool on_seg(double ax, double ay, double bx, double by, double px, double py)
{
    return fmin(ax, bx) <= px && px <= fmax(ax, bx) && fmin(ay, by) <= py && py <= fmax(ay, by);
}

static bool segs_cross(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                       double dy)
{
    double o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
    double o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
        return true;
    return (o1 == 0 && on_seg(ax, ay, bx, by, cx, cy)) ||
           (o2 == 0 && on_seg(ax, ay, bx, by, dx, dy)) ||
           (o3 == 0 && on_seg(cx, cy, dx, dy, ax, ay)) ||
           (o4 == 0 && on_seg(cx, cy, dx, dy, bx, by));
}

static bool seg_box(double ax, double ay, double bx, double by, double x0, double y0, double x1,
                    double y1)
{
    if ((ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1) ||
        (bx >= x0 && bx <= x1 && by >= y0 && by <= y1))
        return true;
    return segs_cross(ax, ay, bx, by, x0, y0, x1, y0) ||
           segs_cross(ax, ay, bx, by, x1, y0, x1, y1) ||
           segs_cross(ax, ay, bx, by, x1, y1, x0, y1) || segs_cross(ax, ay, bx, by, x0, y1, x0, y0);
}

static int ref_polyline_cell(const rshape *s, double x0, double y0, double x1, double y1)
{
    const double e = 1e-6;
    int grown = 0, shrunk = 0;
    for (int i = 0; i + 1 < s->n; i++) {
        double ax, ay, bx, by;
        rotate(s->rot, s->x, s->y, s->x + s->px[i], s->y + s->py[i], &ax, &ay);
        rotate(s->rot, s->x, s->y, s->x + s->px[i + 1], s->y + s->py[i + 1], &bx, &by);
        grown |= seg_box(ax, ay, bx, by, x0 - e, y0 - e, x1 + e, y1 + e);
        shrunk |= seg_box(ax, ay, bx, by, x0 + e, y0 + e, x1 - e, y1 - e);
    }
    return grown == shrunk ? grown : -1;
}

/* Is the cell out of the shape's reach (with the margin the ANY check samples)? */
static bool far_cell(const rpred *r, int cx, int cy, double tw, double th)
{
    double dx = fmax(fmax(cx * tw - r->cx, r->cx - (cx + 1) * tw), 0);
    double dy = fmax(fmax(cy * th - r->cy, r->cy - (cy + 1) * th), 0);
    return hypot(dx, dy) > r->R + 0.3 * (tw + th);
}

static int ref_cell(const rpred *r, tn_cover_rule rule, int cx, int cy, double tw, double th)
{
    if (far_cell(r, cx, cy, tw, th))
        return 0;
    if (r->s && r->s->kind == R_POLYLINE)
        return ref_polyline_cell(r->s, cx * tw, cy * th, (cx + 1) * tw, (cy + 1) * th);
    if (rule == TN_COVER_CENTER)
        return ref_center_cell(r, (cx + 0.5) * tw, (cy + 0.5) * th);
    double f = fraction(r, cx * tw, cy * th, tw, th, 32);
    return ref_area_cell(r, rule, f, cx * tw, cy * th, tw, th);
}

/* Combine per-shape answers: one "blocks" is enough; otherwise an undecided one undecides.
 * Area rules look at every shape's coarse fraction first, as one clear hit settles it. */
static int ref_union(const rpred *rs, int n, tn_cover_rule rule, int cx, int cy, double tw,
                     double th)
{
    double f[600];
    assert_true(n <= 600);
    if (rule != TN_COVER_CENTER)
        for (int k = 0; k < n; k++) {
            f[k] = -1;
            if (far_cell(&rs[k], cx, cy, tw, th) || (rs[k].s && rs[k].s->kind == R_POLYLINE))
                continue;
            f[k] = fraction(&rs[k], cx * tw, cy * th, tw, th, 32);
            if (f[k] > (rule == TN_COVER_HALF ? 0.6 : 0.1))
                return 1;
        }
    int out = 0;
    for (int k = 0; k < n; k++) {
        int v = rule == TN_COVER_CENTER || f[k] < 0
                    ? ref_cell(&rs[k], rule, cx, cy, tw, th)
                    : ref_area_cell(&rs[k], rule, f[k], cx * tw, cy * th, tw, th);
        if (v == 1)
            return 1;
        if (v < 0)
            out = -1;
    }
    return out;
}

/* ---- random shapes ------------------------------------------------------------------------- */

static double uni(tn_test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * tn_test_u01(r);
}

static double rand_rotation(tn_test_rng *r)
{
    uint32_t k = tn_test_below(r, 10);
    if (k < 4)
        return 0;
    if (k < 6)
        return 90.0 * (double)(1 + tn_test_below(r, 3)) * (tn_test_below(r, 2) ? 1 : -1);
    return uni(r, -360, 360);
}

/* A shape whose (x, y) lies in [x0, x1) x [y0, y1), about `size` pixels across. */
static void rand_shape(tn_test_rng *r, int kind, double x0, double y0, double x1, double y1,
                       double size, rshape *s)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->x = uni(r, x0, x1);
    s->y = uni(r, y0, y1);
    s->rot = rand_rotation(r);
    if (kind == R_RECT || kind == R_ELLIPSE) {
        s->w = uni(r, 0.25, 1.0) * size;
        s->h = uni(r, 0.25, 1.0) * size;
    } else if (kind == R_POLYGON) {
        /* star-shaped around an offset centre: angles apart, radii within 60% of each other */
        s->n = 3 + (int)tn_test_below(r, 10);
        double ox = uni(r, -0.5, 0.5) * size, oy = uni(r, -0.5, 0.5) * size;
        double rad = uni(r, 0.2, 0.5) * size, a = uni(r, 0, 2 * PI);
        for (int i = 0; i < s->n; i++) {
            a += 2 * PI / s->n * uni(r, 0.6, 1.0);
            double q = rad * uni(r, 0.6, 1.0);
            s->px[i] = ox + q * cos(a);
            s->py[i] = oy + q * sin(a);
        }
    } else {
        s->n = 2 + (int)tn_test_below(r, 5);
        for (int i = 0; i < s->n; i++) {
            s->px[i] = uni(r, -0.6, 0.6) * size;
            s->py[i] = uni(r, -0.6, 0.6) * size;
        }
    }
}

/* A shape as the fields of a Tiled object (without the braces). */
static void shape_json(tn_test_text *b, const rshape *s, int id)
{
    tn_test_textf(
        b, "\"id\":%d,\"x\":%.17g,\"y\":%.17g,\"width\":%.17g,\"height\":%.17g,\"rotation\":%.17g",
        id, s->x, s->y, s->w, s->h, s->rot);
    if (s->kind == R_ELLIPSE)
        tn_test_textf(b, ",\"ellipse\":true");
    if (s->kind == R_POLYGON || s->kind == R_POLYLINE) {
        tn_test_textf(b, ",\"%s\":[", s->kind == R_POLYGON ? "polygon" : "polyline");
        for (int i = 0; i < s->n; i++)
            tn_test_textf(b, "%s{\"x\":%.17g,\"y\":%.17g}", i ? "," : "", s->px[i], s->py[i]);
        tn_test_textf(b, "]");
    }
}

static void tile_json(tn_test_text *b, const rtile *t, int id)
{
    tn_test_textf(b, "{\"id\":%d,\"objectgroup\":{\"type\":\"objectgroup\",\"objects\":[", id);
    for (int k = 0; k < t->ns; k++) {
        tn_test_textf(b, "%s{", k ? "," : "");
        shape_json(b, &t->s[k], k + 1);
        tn_test_textf(b, "}");
    }
    tn_test_textf(b, "]}}");
}

static void rand_tile(tn_test_rng *r, int iw, int ih, rtile *t)
{
    t->iw = iw;
    t->ih = ih;
    t->ns = 1 + (int)tn_test_below(r, 3);
    double size = fmin(iw, ih);
    for (int k = 0; k < t->ns; k++)
        rand_shape(r, (int)tn_test_below(r, 3), 0, 0, iw, ih, size, &t->s[k]);
}

/* ---- loading -------------------------------------------------------------------------------- */

static tn_map *parse(const char *text, const tn_load_def *o, const char *name)
{
    tn_map *m = NULL;
    tn_diag d;
    memset(&d, 0, sizeof d);
    tn_status st = tn_map_parse(text, strlen(text), name, o, &m, &d);
    if (st != TN_OK) {
        char msg[1024];
        tn_diag_format(&d, msg, sizeof msg);
        fail_msg("load failed (%d): %s\n%.2000s", st, msg, text);
    }
    return m;
}

static bool layer_blocked(const tn_map *m, int32_t x, int32_t y)
{
    int32_t k = tn_map_find_layer(m, TN_COLLISION_LAYER);
    return k >= 0 && tn_map_get(m, k, x, y) == TN_COLLISION_GID;
}

static int32_t layer_count_blocked(const tn_map *m)
{
    int32_t n = 0;
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++)
            n += layer_blocked(m, x, y);
    return n;
}

static void map_head(tn_test_text *b, int w, int h, int tw, int th)
{
    tn_test_textf(b,
                  "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":%d,\"height\":%d,"
                  "\"tilewidth\":%d,\"tileheight\":%d,",
                  w, h, tw, th);
}

static void zero_layer(tn_test_text *b, const char *name, int w, int h)
{
    tn_test_textf(b,
                  "{\"type\":\"tilelayer\",\"name\":\"%s\",\"width\":%d,\"height\":%d,\"data\":[",
                  name, w, h);
    for (int i = 0; i < w * h; i++)
        tn_test_textf(b, "%s0", i ? "," : "");
    tn_test_textf(b, "]}");
}

static const char *rule_name(tn_cover_rule r)
{
    return r == TN_COVER_CENTER ? "center" : r == TN_COVER_ANY ? "any" : "half";
}

/* ---- random shapes on collision object layers ---------------------------------------------- */

static void test_random_objects(void **state)
{
    (void)state;
    tn_test_rng r = {20261125};
    long decided = 0, total = 0, blocked = 0;
    for (int cs = 0; cs < 300; cs++) {
        tn_cover_rule rule = (tn_cover_rule)(cs % 3);
        int w = 4 + (int)tn_test_below(&r, 11), h = 4 + (int)tn_test_below(&r, 11);
        int tw = 8 + (int)tn_test_below(&r, 33), th = 8 + (int)tn_test_below(&r, 33);
        int n = 1 + (int)tn_test_below(&r, 3);
        rshape s[3];
        rpred p[3];
        tn_test_text b = {0};
        map_head(&b, w, h, tw, th);
        tn_test_textf(&b, "\"layers\":[");
        zero_layer(&b, "ground", w, h);
        tn_test_textf(&b, ",{\"type\":\"objectgroup\",\"name\":\"collision\",\"objects\":[");
        for (int k = 0; k < n; k++) {
            double size = uni(&r, 0.5, 4.5) * fmax(tw, th);
            int kind = (int)tn_test_below(&r, 4);
            if (kind == R_ELLIPSE) /* the 64-gon stays within 1% of a cell of the ellipse */
                size = fmin(size, 4.0 * fmin(tw, th));
            rand_shape(&r, kind, -tw, -th, (w + 1) * tw, (h + 1) * th, size, &s[k]);
            p[k] = pred_shape(&s[k]);
            tn_test_textf(&b, "%s{", k ? "," : "");
            shape_json(&b, &s[k], k + 1);
            tn_test_textf(&b, "}");
        }
        tn_test_textf(&b, "]}]}");
        tn_load_def o = tn_load_def_default();
        tn_load_report rep;
        o.cover = rule;
        o.report = &rep;
        tn_map *m = parse(b.s, &o, "random.tmj");
        int32_t count = 0;
        for (int cy = 0; cy < h; cy++)
            for (int cx = 0; cx < w; cx++) {
                bool got = layer_blocked(m, cx, cy);
                count += got;
                assert_int_equal(tn_map_passable(m, cx, cy), !got);
                int want = ref_union(p, n, rule, cx, cy, tw, th);
                total++;
                if (want < 0)
                    continue;
                decided++;
                blocked += want;
                if (got != (want == 1))
                    fail_msg("case %d (%s) cell %d,%d: loader %d, reference %d\n%s", cs,
                             rule_name(rule), cx, cy, got, want, b.s);
            }
        assert_int_equal(rep.collision_layers, 1);
        assert_int_equal(rep.collision_objects, n);
        assert_int_equal(rep.blocked_by_object_layers, count);
        assert_int_equal(rep.cells_blocked, count);
        assert_int_equal(rep.blocked_by_properties + rep.blocked_by_tile_shapes, 0);
        assert_int_equal(tn_map_find_layer(m, TN_COLLISION_LAYER) >= 0, count > 0);
        tn_map_destroy(m);
        free(b.s);
    }
    /* the reference called nearly every cell, and the cases were not all empty */
    print_message("objects: %ld cells, %ld called, %ld blocked\n", total, decided, blocked);
    assert_true(decided > total * 9 / 10);
    assert_true(blocked > decided / 40);
}

/* ---- tile objects: a tile's shapes scaled, flipped and rotated ----------------------------- */

static void test_random_tile_objects(void **state)
{
    (void)state;
    tn_test_rng r = {77};
    long decided = 0, total = 0, blocked = 0;
    for (int cs = 0; cs < 180; cs++) {
        tn_cover_rule rule = (tn_cover_rule)(cs % 3);
        int w = 4 + (int)tn_test_below(&r, 9), h = 4 + (int)tn_test_below(&r, 9);
        int tw = 8 + (int)tn_test_below(&r, 25), th = 8 + (int)tn_test_below(&r, 25);
        rtile t;
        rand_tile(&r, 8 + (int)tn_test_below(&r, 41), 8 + (int)tn_test_below(&r, 41), &t);
        int n = 1 + (int)tn_test_below(&r, 2);
        rplace pl[2];
        rpred p[8];
        int np = 0;
        tn_test_text b = {0};
        map_head(&b, w, h, tw, th);
        tn_test_textf(
            &b,
            "\"tilesets\":[{\"firstgid\":3,\"name\":\"t\",\"tilewidth\":%d,\"tileheight\":%d,"
            "\"tilecount\":2,\"columns\":2,\"tiles\":[",
            t.iw, t.ih);
        tile_json(&b, &t, 1);
        tn_test_textf(&b,
                      "]}],\"layers\":[{\"type\":\"objectgroup\",\"name\":\"walls\",\"objects\":[");
        for (int k = 0; k < n; k++) {
            uint32_t flags = (uint32_t)tn_test_below(&r, 8) << 29;
            double ow = t.iw * uni(&r, 0.5, 3.0), oh = t.ih * uni(&r, 0.5, 3.0);
            if (tn_test_below(&r, 4) == 0) /* the natural size */
                ow = (flags & TN_GID_FLIP_D) ? t.ih : t.iw,
                oh = (flags & TN_GID_FLIP_D) ? t.iw : t.ih;
            pl[k] = (rplace){&t, flags, uni(&r, -tw, (w + 1) * tw), uni(&r, -th, (h + 1) * th),
                             ow, oh,    rand_rotation(&r)};
            for (int j = 0; j < t.ns; j++)
                p[np++] = pred_place(&pl[k], j);
            tn_test_textf(
                &b,
                "%s{\"id\":%d,\"gid\":%u,\"x\":%.17g,\"y\":%.17g,\"width\":%.17g,\"height\":%.17g,"
                "\"rotation\":%.17g}",
                k ? "," : "", k + 1, 4u | flags, pl[k].x, pl[k].y, pl[k].w, pl[k].h, pl[k].rot);
        }
        tn_test_textf(&b, "]}]}");
        tn_load_def o = tn_load_def_default();
        tn_load_report rep;
        o.cover = rule;
        o.report = &rep;
        tn_map *m = parse(b.s, &o, "tileobj.tmj");
        int32_t count = 0;
        for (int cy = 0; cy < h; cy++)
            for (int cx = 0; cx < w; cx++) {
                bool got = layer_blocked(m, cx, cy);
                count += got;
                int want = ref_union(p, np, rule, cx, cy, tw, th);
                total++;
                if (want < 0)
                    continue;
                decided++;
                blocked += want;
                if (got != (want == 1))
                    fail_msg("case %d (%s) cell %d,%d: loader %d, reference %d\n%s", cs,
                             rule_name(rule), cx, cy, got, want, b.s);
            }
        assert_int_equal(rep.collision_objects, n);
        assert_int_equal(rep.blocked_by_object_layers, count);
        assert_int_equal(rep.tiles_with_shapes, 1);
        /* the object is recorded with its top-left corner, as before */
        const tn_map_object *ob = tn_map_object_at(m, 0);
        assert_float_equal(ob->y, (float)(pl[0].y - pl[0].h), 1e-3);
        assert_int_equal(ob->gid, 4u | pl[0].flags);
        tn_map_destroy(m);
        free(b.s);
    }
    print_message("tile objects: %ld cells, %ld called, %ld blocked\n", total, decided, blocked);
    assert_true(decided > total * 9 / 10);
    assert_true(blocked > decided / 40);
}

/* ---- tiles on tile layers: one cell's size (terrain) and other sizes (collision layer) ------ */

static void test_random_tile_layers(void **state)
{
    (void)state;
    tn_test_rng r = {4242};
    long decided = 0, total = 0, tiles_decided = 0;
    for (int cs = 0; cs < 120; cs++) {
        tn_cover_rule rule = (tn_cover_rule)(cs % 3);
        int w = 4 + (int)tn_test_below(&r, 9), h = 4 + (int)tn_test_below(&r, 9);
        int tw = 8 + (int)tn_test_below(&r, 25), th = 8 + (int)tn_test_below(&r, 25);
        /* tileset 1 (gids 1-3): the cell's size; tileset 2 (gid 11): another size */
        rtile same[3], big;
        for (int k = 0; k < 3; k++)
            rand_tile(&r, tw, th, &same[k]);
        int bw = tw, bh = th;
        while (bw == tw && bh == th) {
            bw = 8 + (int)tn_test_below(&r, 3u * (uint32_t)tw);
            bh = 8 + (int)tn_test_below(&r, 3u * (uint32_t)th);
        }
        rand_tile(&r, bw, bh, &big);
        /* tileset 3 (gid 21): drawn at the grid's size (Tiled 1.9 tilerendersize "grid"),
         * stretched or fitted (aspect kept, centred) onto its cell */
        rtile grid;
        bool fit = tn_test_below(&r, 2) == 1;
        rand_tile(&r, 8 + (int)tn_test_below(&r, 3u * (uint32_t)tw),
                  8 + (int)tn_test_below(&r, 3u * (uint32_t)th), &grid);
        uint32_t *g = calloc((size_t)(w * h), sizeof *g);
        rplace pl[200];
        rpred p[600];
        int np = 0, npr = 0;
        for (int i = 0; i < w * h; i++) {
            uint32_t k = tn_test_below(&r, 8), flags = (uint32_t)tn_test_below(&r, 8) << 29;
            if (k < 3)
                g[i] = (1 + k) | flags;
            else if (k == 4)
                g[i] = 21 | flags;
            else if (k == 3 && np < 200) {
                g[i] = 11 | flags;
                int cx = i % w, cy = i / w;
                bool d = flags & TN_GID_FLIP_D;
                pl[np] = (rplace){&big, flags, cx * tw, (cy + 1) * th, d ? bh : bw, d ? bw : bh, 0};
                for (int j = 0; j < big.ns; j++)
                    p[npr++] = pred_place(&pl[np], j);
                np++;
            }
        }
        tn_test_text b = {0};
        map_head(&b, w, h, tw, th);
        tn_test_textf(
            &b,
            "\"tilesets\":[{\"firstgid\":1,\"name\":\"a\",\"tilewidth\":%d,\"tileheight\":%d,"
            "\"tilecount\":10,\"tiles\":[",
            tw, th);
        for (int k = 0; k < 3; k++) {
            tn_test_textf(&b, k ? "," : "");
            tile_json(&b, &same[k], k);
        }
        tn_test_textf(&b,
                      "]},{\"firstgid\":11,\"name\":\"b\",\"tilewidth\":%d,\"tileheight\":%d,"
                      "\"tilecount\":1,\"tiles\":[",
                      bw, bh);
        tile_json(&b, &big, 0);
        tn_test_textf(&b,
                      "]},{\"firstgid\":21,\"name\":\"c\",\"tilewidth\":%d,\"tileheight\":%d,"
                      "\"tilecount\":1,\"tilerendersize\":\"grid\",\"fillmode\":\"%s\",\"tiles\":[",
                      grid.iw, grid.ih, fit ? "preserve-aspect-fit" : "stretch");
        tile_json(&b, &grid, 0);
        tn_test_textf(
            &b,
            "]}],\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":%d,\"height\":%d,"
            "\"visible\":false,\"data\":[",
            w, h);
        for (int i = 0; i < w * h; i++)
            tn_test_textf(&b, "%s%u", i ? "," : "", g[i]);
        tn_test_textf(&b, "]}]}");
        tn_load_def o = tn_load_def_default();
        tn_load_report rep;
        o.cover = rule;
        o.report = &rep;
        tn_map *m = parse(b.s, &o, "tiles.tmj");
        /* one-cell tiles: the rule on the tile's own cell, as its terrain entry */
        int same_blocks[3];
        for (int k = 0; k < 3; k++) {
            rplace own = {&same[k], 0, 0, th, tw, th, 0};
            rpred q[4];
            for (int j = 0; j < same[k].ns; j++)
                q[j] = pred_place(&own, j);
            same_blocks[k] = ref_union(q, same[k].ns, rule, 0, 0, tw, th);
            if (same_blocks[k] >= 0) {
                tiles_decided++;
                assert_int_equal(tn_map_terrain(m, (uint32_t)k + 1).passable, !same_blocks[k]);
            }
        }
        {
            /* the grid-size tile: its image scaled onto the cell (0, 0) */
            double sx = (double)tw / grid.iw, sy = (double)th / grid.ih, k = sx < sy ? sx : sy;
            double gw = fit ? grid.iw * k : tw, gh = fit ? grid.ih * k : th;
            rplace own = {&grid, 0, (tw - gw) / 2, th - (th - gh) / 2, gw, gh, 0};
            rpred q[4];
            for (int j = 0; j < grid.ns; j++)
                q[j] = pred_place(&own, j);
            int want = ref_union(q, grid.ns, rule, 0, 0, tw, th);
            if (want >= 0) {
                tiles_decided++;
                if (tn_map_terrain(m, 21).passable != !want)
                    fail_msg("case %d (%s): the %s %d x %d tile on a %d x %d cell: loader %d, "
                             "reference %d\n%s",
                             cs, rule_name(rule), fit ? "fitted" : "stretched", grid.iw, grid.ih,
                             tw, th, !tn_map_terrain(m, 21).passable, want, b.s);
            }
        }
        int32_t layer_cells = 0, shape_cells = 0;
        for (int cy = 0; cy < h; cy++)
            for (int cx = 0; cx < w; cx++) {
                bool got = layer_blocked(m, cx, cy);
                layer_cells += got;
                int want = ref_union(p, npr, rule, cx, cy, tw, th);
                total++;
                uint32_t id = tn_gid_id(g[cy * w + cx]);
                bool own = ((id >= 1 && id <= 3) || id == 21) && !tn_map_terrain(m, id).passable;
                shape_cells += got || own;
                assert_int_equal(tn_map_passable(m, cx, cy), !(got || own));
                if (want < 0)
                    continue;
                decided++;
                if (got != (want == 1))
                    fail_msg("case %d (%s) cell %d,%d: loader %d, reference %d\n%s", cs,
                             rule_name(rule), cx, cy, got, want, b.s);
            }
        assert_int_equal(rep.blocked_by_tile_shapes, shape_cells);
        assert_int_equal(rep.cells_blocked, shape_cells);
        assert_int_equal(rep.tiles_with_shapes, 5);
        assert_int_equal(rep.blocked_by_object_layers, 0);
        assert_int_equal(tn_map_find_layer(m, TN_COLLISION_LAYER) >= 0, layer_cells > 0);
        tn_map_destroy(m);
        free(b.s);
        free(g);
    }
    print_message("tile layers: %ld cells, %ld called; %ld tiles called\n", total, decided,
                  tiles_decided);
    assert_true(decided > total * 9 / 10);
    assert_true(tiles_decided > 120 * 4 * 9 / 10);
}

/* ---- handmade maps ----------------------------------------------------------------------------
 */

/* A 6 x 4 map of 32 x 32 tiles with one object layer `layer` (JSON fields, no braces)
 * holding `objects` (a JSON array's contents). */
static tn_map *one_layer(const char *layer, const char *objects, const tn_load_def *o)
{
    tn_test_text b = {0};
    map_head(&b, 6, 4, 32, 32);
    tn_test_textf(&b, "\"layers\":[{\"type\":\"objectgroup\",%s,\"objects\":[%s]}]}", layer,
                  objects);
    tn_map *m = parse(b.s, o, "hand.tmj");
    free(b.s);
    return m;
}

/* The collision layer as rows of '#' and '.'. */
static void expect_rows(const tn_map *m, const char *const *rows)
{
    for (int32_t y = 0; y < tn_map_height(m); y++)
        for (int32_t x = 0; x < tn_map_width(m); x++)
            if (layer_blocked(m, x, y) != (rows[y][x] == '#'))
                fail_msg("cell %d,%d: %d, expected '%c'", x, y, layer_blocked(m, x, y), rows[y][x]);
}

static void test_shapes_by_hand(void **state)
{
    (void)state;
    tn_load_def o = tn_load_def_default();
    const char *L = "\"name\":\"collision\"";
    /* rectangle, half-open: x in [16, 80) covers the centres 16 and 48, not 80 */
    tn_map *m = one_layer(L, "{\"x\":16,\"y\":16,\"width\":64,\"height\":48}", &o);
    expect_rows(m, (const char *const[]){"##....", "##....", "......", "......"});
    tn_map_destroy(m);
    /* the same box rotated 90 degrees about (16, 16): it now spans x (-32, 16], y [16, 80) */
    m = one_layer(L, "{\"x\":16,\"y\":16,\"width\":64,\"height\":48,\"rotation\":90}", &o);
    expect_rows(m, (const char *const[]){"#.....", "#.....", "......", "......"});
    tn_map_destroy(m);
    /* ellipse: centre (96, 64), radii 48 x 32 holds the centres (80 or 112, 48 or 80) only */
    m = one_layer(L, "{\"x\":48,\"y\":32,\"width\":96,\"height\":64,\"ellipse\":true}", &o);
    expect_rows(m, (const char *const[]){"......", "..##..", "..##..", "......"});
    tn_map_destroy(m);
    /* polygon: a triangle, points relative to (x, y) */
    m = one_layer(L,
                  "{\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":192,\"y\":0},"
                  "{\"x\":0,\"y\":128}]}",
                  &o);
    expect_rows(m, (const char *const[]){"#####.", "####..", "##....", "#....."});
    tn_map_destroy(m);
    /* polyline along the grid line y = 64 meets the closed squares of rows 1 and 2 */
    m = one_layer(L, "{\"x\":40,\"y\":64,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":40,\"y\":0}]}", &o);
    expect_rows(m, (const char *const[]){"......", ".##...", ".##...", "......"});
    tn_map_destroy(m);
    /* points, text, empty boxes and a polygon of two points block nothing */
    m = one_layer(L,
                  "{\"x\":48,\"y\":48,\"point\":true},{\"x\":0,\"y\":0,\"width\":64,\"height\":64,"
                  "\"text\":{\"text\":\"hi\"}},{\"x\":0,\"y\":0,\"width\":0,\"height\":64},"
                  "{\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":90,\"y\":90}]}",
                  &o);
    assert_int_equal(tn_map_find_layer(m, TN_COLLISION_LAYER), -1);
    assert_int_equal(tn_map_passable_count(m), 24);
    tn_map_destroy(m);
    /* cover rules on one box covering 1/4, 1/2 + a bit, and all of three cells */
    const char *box = "{\"x\":24,\"y\":0,\"width\":62,\"height\":32}";
    o.cover = TN_COVER_CENTER; /* box x in [24, 86): centres 16 (no), 48 and 80 (yes) */
    m = one_layer(L, box, &o);
    expect_rows(m, (const char *const[]){".##...", "......", "......", "......"});
    tn_map_destroy(m);
    o.cover = TN_COVER_ANY;
    m = one_layer(L, box, &o);
    expect_rows(m, (const char *const[]){"###...", "......", "......", "......"});
    tn_map_destroy(m);
    o.cover = TN_COVER_HALF; /* cell 0: 8/32, cell 1: all, cell 2: 22/32 */
    m = one_layer(L, box, &o);
    expect_rows(m, (const char *const[]){".##...", "......", "......", "......"});
    tn_map_destroy(m);
    /* clipped: a shape far outside the map, and one half outside */
    o.cover = TN_COVER_CENTER;
    m = one_layer(L,
                  "{\"x\":-100000,\"y\":-100000,\"width\":50,\"height\":50},"
                  "{\"x\":-64,\"y\":96,\"width\":128,\"height\":64}",
                  &o);
    expect_rows(m, (const char *const[]){"......", "......", "......", "##...."});
    tn_map_destroy(m);
}

static void test_markers(void **state)
{
    (void)state;
    tn_load_def o = tn_load_def_default();
    tn_load_report rep;
    o.report = &rep;
    const char *obj = "{\"x\":0,\"y\":0,\"width\":32,\"height\":32}";
    struct {
        const char *layer;
        bool collides;
    } cases[] = {
        {"\"name\":\"Collision\"", true},
        {"\"name\":\"WALLS\"", true},
        {"\"name\":\"obstacles\"", true},
        {"\"name\":\"collision zone\"", false},
        {"\"name\":\"x\",\"class\":\"Solid\"", true},
        {"\"name\":\"x\",\"class\":\"enemy\"", false},
        {"\"name\":\"x\",\"properties\":[{\"name\":\"Blocked\",\"type\":\"bool\",\"value\":true}]",
         true},
        {"\"name\":\"x\",\"properties\":[{\"name\":\"blocked\",\"type\":\"bool\",\"value\":false}]",
         false},
        {"\"name\":\"x\",\"properties\":[{\"name\":\"blocked\",\"type\":\"string\",\"value\":"
         "\"true\"}]",
         false},
        {"\"name\":\"x\",\"properties\":{\"collider\":true}", true},
        {"\"name\":\"collision\",\"visible\":false", true},
        {"\"name\":\"spawns\"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tn_map *m = one_layer(cases[i].layer, obj, &o);
        if (layer_blocked(m, 0, 0) != cases[i].collides)
            fail_msg("layer {%s}: blocked %d", cases[i].layer, layer_blocked(m, 0, 0));
        assert_int_equal(rep.collision_layers, cases[i].collides);
        assert_int_equal(rep.collision_objects, cases[i].collides);
        tn_map_destroy(m);
    }
    /* a custom list, with blanks and case */
    o.collision_layers = " Foo , bar";
    tn_map *m = one_layer("\"name\":\"BAR\"", obj, &o);
    assert_true(layer_blocked(m, 0, 0));
    tn_map_destroy(m);
    m = one_layer("\"name\":\"collision\"", obj, &o);
    assert_false(layer_blocked(m, 0, 0));
    tn_map_destroy(m);
    /* NULL and "" switch the marker off */
    const char *off[] = {NULL, ""};
    for (int k = 0; k < 2; k++) {
        o.collision_layers = off[k];
        m = one_layer("\"name\":\"collision\"", obj, &o);
        assert_int_equal(tn_map_find_layer(m, TN_COLLISION_LAYER), -1);
        assert_int_equal(rep.collision_layers, 0);
        tn_map_destroy(m);
    }
    /* inside a hidden group: found, and the object layer keeps its group name */
    o = tn_load_def_default();
    o.report = &rep;
    tn_test_text b = {0};
    map_head(&b, 3, 3, 16, 16);
    tn_test_textf(&b,
                  "\"layers\":[{\"type\":\"group\",\"name\":\"g\",\"visible\":false,\"layers\":["
                  "{\"type\":\"objectgroup\",\"name\":\"walls\",\"objects\":[{\"x\":16,\"y\":16,"
                  "\"width\":16,\"height\":16}]}]}]}");
    m = parse(b.s, &o, "group.tmj");
    free(b.s);
    assert_true(tn_map_find_layer(m, "g/walls") >= 0);
    assert_true(layer_blocked(m, 1, 1));
    assert_int_equal(tn_map_passable_count(m), 8);
    assert_int_equal(rep.collision_layers, 1);
    tn_map_destroy(m);
}

/* Properties, one-cell tile shapes and collision objects together; each switched off. */
static void test_options_and_report(void **state)
{
    (void)state;
    /* gid 1 collides (property, cost 5 too), gid 2 has a covering shape and cost 3, gid 3 has
     * a shape that misses the centre, gid 4 a 64 x 32 tile with a shape over its left half
     * (its right half hangs off the map) */
    const char *text =
        "{\"width\":4,\"height\":2,\"tilewidth\":32,\"tileheight\":32,"
        "\"tilesets\":[{\"firstgid\":1,\"tilewidth\":32,\"tileheight\":32,\"tiles\":["
        "{\"id\":0,\"properties\":[{\"name\":\"collides\",\"type\":\"bool\",\"value\":true},"
        "{\"name\":\"cost\",\"type\":\"float\",\"value\":5}]},"
        "{\"id\":1,\"properties\":[{\"name\":\"cost\",\"type\":\"int\",\"value\":3}],"
        "\"objectgroup\":{\"objects\":[{\"x\":8,\"y\":8,\"width\":16,\"height\":16}]}},"
        "{\"id\":2,\"objectgroup\":{\"objects\":[{\"x\":0,\"y\":0,\"width\":8,\"height\":8}]}},"
        "{\"id\":3,\"imagewidth\":64,\"imageheight\":32,\"objectgroup\":{\"objects\":"
        "[{\"x\":0,\"y\":0,\"width\":32,\"height\":32}]}}]}],"
        "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":4,\"height\":2,"
        "\"data\":[1,2,3,4, 2,0,0,0]},"
        "{\"type\":\"objectgroup\",\"name\":\"Collisions\",\"objects\":["
        "{\"x\":0,\"y\":32,\"width\":64,\"height\":32}]}]}";
    struct {
        uint32_t bits;
        int props, shapes, objects, all, tiles, layers;
        const char *rows[2];
    } cases[] = {
        {TN_COLLIDE_ALL, 1, 3, 2, 5, 3, 1, {"##.#", "##.."}},
        {TN_COLLIDE_PROPERTIES, 1, 0, 0, 1, 0, 0, {"#...", "...."}},
        {TN_COLLIDE_TILE_SHAPES, 0, 3, 0, 3, 3, 0, {".#.#", "#..."}},
        {TN_COLLIDE_OBJECT_LAYERS, 0, 0, 2, 2, 0, 1, {"....", "##.."}},
        {0, 0, 0, 0, 0, 0, 0, {"....", "...."}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tn_load_def o = tn_load_def_default();
        tn_load_report rep;
        memset(&rep, 0x55, sizeof rep);
        o.collision = cases[i].bits;
        o.report = &rep;
        tn_map *m = parse(text, &o, "opts.tmj");
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++)
                if (tn_map_passable(m, x, y) != (cases[i].rows[y][x] == '.'))
                    fail_msg("case %zu cell %d,%d", i, x, y);
        assert_int_equal(rep.blocked_by_properties, cases[i].props);
        assert_int_equal(rep.blocked_by_tile_shapes, cases[i].shapes);
        assert_int_equal(rep.blocked_by_object_layers, cases[i].objects);
        assert_int_equal(rep.cells_blocked, cases[i].all);
        assert_int_equal(rep.tiles_with_shapes, cases[i].tiles);
        assert_int_equal(rep.collision_layers, cases[i].layers);
        assert_int_equal(rep.collision_objects, cases[i].layers);
        /* the shape-blocked tile keeps its property cost; without properties it has none */
        tn_terrain t2 = tn_map_terrain(m, 2);
        assert_int_equal(t2.passable, !(cases[i].bits & TN_COLLIDE_TILE_SHAPES));
        assert_true(t2.cost == ((cases[i].bits & TN_COLLIDE_PROPERTIES) ? 3.0f : 1.0f));
        tn_map_destroy(m);
    }
}

/* A 64 x 32 tile whose shape is its left half, on a 32 px grid, flipped every way: its image
 * sits on its cell's bottom-left corner, flips diagonal first, then horizontal, then vertical. */
static void test_flips_by_hand(void **state)
{
    (void)state;
    struct {
        uint32_t flags;
        int x, y; /* the one cell blocked when the tile sits in cell (1, 1) */
    } cases[] = {
        {0, 1, 1},
        {TN_GID_FLIP_H, 2, 1},
        {TN_GID_FLIP_V, 1, 1},
        {TN_GID_FLIP_D, 1, 0},                 /* 32 x 64 now: the square is its top half */
        {TN_GID_FLIP_D | TN_GID_FLIP_V, 1, 1}, /* ... and then its bottom half */
        {TN_GID_FLIP_D | TN_GID_FLIP_H, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"width\":4,\"height\":2,\"tilewidth\":32,\"tileheight\":32,"
                 "\"tilesets\":[{\"firstgid\":1,\"tilewidth\":64,\"tileheight\":32,"
                 "\"tiles\":[{\"id\":0,\"objectgroup\":{\"objects\":[{\"x\":0,\"y\":0,"
                 "\"width\":32,\"height\":32}]}}]}],"
                 "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":4,"
                 "\"height\":2,\"data\":[0,0,0,0,0,%u,0,0]}]}",
                 1u | cases[i].flags);
        tn_map *m = parse(text, NULL, "flip.tmj");
        assert_int_equal(layer_count_blocked(m), 1);
        if (!layer_blocked(m, cases[i].x, cases[i].y))
            fail_msg("flags %08x: expected cell %d,%d", cases[i].flags, cases[i].x, cases[i].y);
        tn_map_destroy(m);
    }
}

/* Tiled 1.9's tilerendersize "grid": a 64 x 64 tile with one square over its whole image,
 * in cell (1, 1) of 32 px cells, blocks that cell alone, where at its own size it covers the
 * four cells up and right of the cell's bottom-left corner. With fillmode
 * "preserve-aspect-fit", a 32 x 64 tile whose top three quarters are a shape covers
 * 16 x 24 px of its cell: under the "half" rule that blocks when stretched (32 x 24), not when
 * fitted. The same tile with a gid past the terrain table goes through the collision layer:
 * the same cells. */
/* A 4 x 3 map of 32 px cells holding gid g in cell (1, 1); its tileset's tiles are iw x 64
 * (with the tileset fields `extra`), tile 0 has one shape of sw x sh at its top-left. */
static void size_map(char *text, size_t cap, uint32_t g, int iw, const char *extra, int sw, int sh)
{
    snprintf(text, cap,
             "{\"width\":4,\"height\":3,\"tilewidth\":32,\"tileheight\":32,"
             "\"tilesets\":[{\"firstgid\":%u,\"tilewidth\":%d,\"tileheight\":64%s,"
             "\"tiles\":[{\"id\":0,\"objectgroup\":{\"objects\":[{\"x\":0,\"y\":0,"
             "\"width\":%d,\"height\":%d}]}}]}],"
             "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":4,"
             "\"height\":3,\"data\":[0,0,0,0,0,%u,0,0,0,0,0,0]}]}",
             g, iw, extra, sw, sh, g);
}

static void test_render_size_by_hand(void **state)
{
    (void)state;
    static const uint32_t gids[] = {1, TN_MAX_TERRAIN_GID + 5};
    for (int k = 0; k < 2; k++) {
        uint32_t g = gids[k];
        char text[1024];
        size_map(text, sizeof text, g, 64, "", 64, 64);
        tn_map *m = parse(text, NULL, "size.tmj");
        for (int32_t y = 0; y < 3; y++)
            for (int32_t x = 0; x < 4; x++)
                assert_int_equal(tn_map_passable(m, x, y), !((x == 1 || x == 2) && y <= 1));
        tn_map_destroy(m);
        size_map(text, sizeof text, g, 64, ",\"tilerendersize\":\"grid\"", 64, 64);
        m = parse(text, NULL, "size.tmj");
        for (int32_t y = 0; y < 3; y++)
            for (int32_t x = 0; x < 4; x++)
                assert_int_equal(tn_map_passable(m, x, y), !(x == 1 && y == 1));
        tn_map_destroy(m);
        tn_load_def o = tn_load_def_default();
        o.cover = TN_COVER_HALF;
        size_map(text, sizeof text, g, 32, ",\"tilerendersize\":\"grid\",\"fillmode\":\"stretch\"",
                 32, 48);
        m = parse(text, &o, "size.tmj");
        assert_false(tn_map_passable(m, 1, 1));
        tn_map_destroy(m);
        size_map(text, sizeof text, g, 32,
                 ",\"tilerendersize\":\"grid\",\"fillmode\":\"preserve-aspect-fit\"", 32, 48);
        m = parse(text, &o, "size.tmj");
        assert_true(tn_map_passable(m, 1, 1));
        tn_map_destroy(m);
        /* fillmode alone changes nothing: tiles drawn at their own size are not scaled */
        size_map(text, sizeof text, g, 64, ",\"fillmode\":\"preserve-aspect-fit\"", 64, 64);
        m = parse(text, NULL, "size.tmj");
        assert_false(tn_map_passable(m, 2, 0));
        tn_map_destroy(m);
    }
    char text[1024];
    tn_diag d;
    tn_map *m = NULL;
    size_map(text, sizeof text, 1u, 64, ",\"tilerendersize\":\"map\"", 64, 64);
    assert_int_equal(tn_map_parse(text, strlen(text), "bad.tmj", NULL, &m, &d), TN_E_PARSE);
    assert_string_equal(d.where, "tilesets[0].tilerendersize");
    size_map(text, sizeof text, 1u, 64, ",\"fillmode\":\"cover\"", 64, 64);
    assert_int_equal(tn_map_parse(text, strlen(text), "bad.tmj", NULL, &m, &d), TN_E_PARSE);
    assert_string_equal(d.where, "tilesets[0].fillmode");
    assert_null(m);
}

/* Tiled < 1.2: "tiles" keyed by id, "tileproperties", "tilepropertytypes". */
static void test_old_style_tileset(void **state)
{
    (void)state;
    const char *text =
        "{\"width\":3,\"height\":1,\"tilewidth\":16,\"tileheight\":16,"
        "\"tilesets\":[{\"firstgid\":1,\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,"
        "\"tiles\":{\"2\":{\"objectgroup\":{\"objects\":[{\"x\":0,\"y\":0,\"width\":16,"
        "\"height\":16}]}},\"3\":{\"terrain\":[0,0,0,0]}},"
        "\"tileproperties\":{\"0\":{\"solid\":true}},"
        "\"tilepropertytypes\":{\"0\":{\"solid\":\"bool\"}}}],"
        "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":3,\"height\":1,"
        "\"data\":[1,3,4]}]}";
    tn_load_def o = tn_load_def_default();
    tn_load_report rep;
    o.report = &rep;
    tn_map *m = parse(text, &o, "old.json");
    assert_false(tn_map_passable(m, 0, 0));
    assert_false(tn_map_passable(m, 1, 0));
    assert_true(tn_map_passable(m, 2, 0));
    assert_int_equal(rep.tiles_with_shapes, 1);
    assert_int_equal(rep.blocked_by_properties, 1);
    assert_int_equal(rep.blocked_by_tile_shapes, 1);
    tn_map_destroy(m);
    /* a bad key names itself */
    const char *bad = "{\"width\":1,\"height\":1,\"tilewidth\":16,\"tileheight\":16,\"layers\":[],"
                      "\"tilesets\":[{\"firstgid\":1,\"tiles\":{\"x\":{}}}]}";
    tn_diag d;
    assert_int_equal(tn_map_parse(bad, strlen(bad), "bad.json", NULL, &m, &d), TN_E_PARSE);
    assert_string_equal(d.where, "tilesets[0].tiles.x");
    assert_non_null(strstr(d.message, "tile id"));
    const char *bad2 = "{\"width\":1,\"height\":1,\"tilewidth\":16,\"tileheight\":16,\"layers\":[],"
                       "\"tilesets\":[{\"firstgid\":1,\"tiles\":3}]}";
    assert_int_equal(tn_map_parse(bad2, strlen(bad2), "bad.json", NULL, &m, &d), TN_E_PARSE);
    assert_non_null(strstr(d.message, "object keyed by tile id"));
}

/* ---- files: external tilesets and templates -------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *text)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static tn_status load_file(const char *dir, const char *name, const tn_load_def *o, tn_map **m,
                           tn_diag *d)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    memset(d, 0, sizeof *d);
    return tn_map_load(p, o, m, d);
}

/* The files tn_map_load() reports through tn_load_def::on_file. */
typedef struct files_read {
    int n;
    char path[16][1024];
} files_read;

static void on_file(const char *path, void *user)
{
    files_read *f = user;
    assert_true(f->n < 16);
    snprintf(f->path[f->n++], sizeof f->path[0], "%s", path);
}

static bool ends_with(const char *s, const char *end)
{
    size_t a = strlen(s), b = strlen(end);
    return a >= b && strcmp(s + a - b, end) == 0;
}

static void test_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_tiled_coll_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/ts", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    /* an external tileset in a sub-folder: tile 0 has a centre-covering ellipse; tile 1 none */
    write_file(dir, "ts/walls.tsj",
               "{\"type\":\"tileset\",\"name\":\"walls\",\"tilewidth\":32,\"tileheight\":32,"
               "\"tilecount\":2,\"tiles\":[{\"id\":0,\"objectgroup\":{\"objects\":[{\"x\":4,"
               "\"y\":4,\"width\":24,\"height\":24,\"ellipse\":true}]}}]}");
    write_file(dir, "ts/walls.tsx",
               "<?xml version=\"1.0\"?><tileset name=\"walls\" tilewidth=\"32\" "
               "tileheight=\"32\" tilecount=\"2\"><tile id=\"0\"><objectgroup>"
               "<object id=\"1\" x=\"4\" y=\"4\" width=\"24\" height=\"24\"><ellipse/>"
               "</object></objectgroup></tile></tileset>");
    /* templates: a plain box, a tile object with its own tileset (firstgid 1 there), one that
     * uses another template, one whose tileset the map lacks */
    write_file(dir, "box.tj",
               "{\"type\":\"template\",\"object\":{\"name\":\"box\",\"type\":\"crate\","
               "\"width\":64,\"height\":32,\"x\":999,\"y\":999}}");
    write_file(dir, "wall.tj",
               "{\"type\":\"template\",\"tileset\":{\"firstgid\":1,\"source\":\"ts/walls.tsj\"},"
               "\"object\":{\"gid\":2147483649,\"width\":32,\"height\":32}}");
    write_file(dir, "nested.tj", "{\"type\":\"template\",\"object\":{\"template\":\"box.tj\"}}");
    write_file(dir, "other.tj",
               "{\"type\":\"template\",\"tileset\":{\"firstgid\":1,\"source\":\"nope.tsj\"},"
               "\"object\":{\"gid\":1,\"width\":32,\"height\":32}}");
    write_file(dir, "box.tx",
               "<?xml version=\"1.0\"?><template><object width=\"32\" height=\"32\"/></template>");
    const char *head = "{\"width\":4,\"height\":3,\"tilewidth\":32,\"tileheight\":32,"
                       "\"tilesets\":[{\"firstgid\":1,\"tilewidth\":32,\"tileheight\":32,"
                       "\"tilecount\":4},{\"firstgid\":5,\"source\":\"ts/../ts/walls.tsj\"}],";
    char text[4096];
    /* tile 5 (walls tile 0) blocks by its shape; the box template twice; the wall template's
     * gid 1 (flipped) becomes the map's 5 */
    snprintf(text, sizeof text,
             "%s\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":4,\"height\":3,"
             "\"data\":[5,6,0,0, 0,0,0,0, 0,0,0,0]},{\"type\":\"objectgroup\",\"name\":\"walls\","
             "\"objects\":[{\"id\":1,\"template\":\"box.tj\",\"x\":0,\"y\":32},"
             "{\"id\":2,\"template\":\"box.tj\",\"x\":64,\"y\":64,\"width\":32,\"name\":\"mine\"},"
             "{\"id\":3,\"template\":\"wall.tj\",\"x\":96,\"y\":32}]}]}",
             head);
    write_file(dir, "map.tmj", text);
    tn_load_def o = tn_load_def_default();
    tn_load_report rep;
    o.report = &rep;
    files_read read = {0};
    o.on_file = on_file;
    o.on_file_user = &read;
    tn_map *m = NULL;
    tn_diag d;
    tn_status st = load_file(dir, "map.tmj", &o, &m, &d);
    if (st != TN_OK) {
        char msg[1024];
        tn_diag_format(&d, msg, sizeof msg);
        fail_msg("%s", msg);
    }
    /* every file read, the map first, each one a file that opens; none other */
    assert_true(read.n >= 4);
    assert_true(ends_with(read.path[0], "/map.tmj"));
    bool seen[3] = {false, false, false};
    for (int i = 1; i < read.n; i++) {
        FILE *rf = fopen(read.path[i], "rb");
        assert_non_null(rf);
        fclose(rf);
        int k = ends_with(read.path[i], "/walls.tsj") ? 0
                : ends_with(read.path[i], "/box.tj")  ? 1
                : ends_with(read.path[i], "/wall.tj") ? 2
                                                      : -1;
        if (k < 0)
            fail_msg("on_file reported %s", read.path[i]);
        seen[k] = true;
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    const char *rows[] = {"#..#", "##..", "..#."};
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            if (tn_map_passable(m, x, y) != (rows[y][x] == '.'))
                fail_msg("cell %d,%d", x, y);
    const tn_map_object *a = tn_map_object_at(m, 0), *b = tn_map_object_at(m, 1);
    const tn_map_object *c = tn_map_object_at(m, 2);
    assert_string_equal(a->name, "box");
    assert_string_equal(a->type, "crate");
    assert_float_equal(a->x, 0, 0);
    assert_float_equal(a->w, 64, 0);
    assert_string_equal(b->name, "mine");
    assert_float_equal(b->w, 32, 0);
    assert_int_equal(c->gid, 5u | TN_GID_FLIP_H);
    assert_float_equal(c->y, 0, 0);
    assert_int_equal(rep.tiles_with_shapes, 1);
    assert_int_equal(rep.collision_objects, 3);
    assert_int_equal(rep.blocked_by_tile_shapes, 1);
    assert_int_equal(rep.blocked_by_object_layers, 4);
    tn_map_destroy(m);

    /* errors: a template using a template, a tileset the map lacks, a missing template */
    struct {
        const char *object, *fragment, *file;
        tn_status st;
    } bad[] = {
        {"{\"template\":\"nested.tj\"}", "cannot use another template", "nested.tj",
         TN_E_UNSUPPORTED},
        {"{\"template\":\"other.tj\"}", "which the map does not load", "bad.tmj", TN_E_PARSE},
        {"{\"template\":\"gone.tj\"}", "template", "bad.tmj", TN_E_IO},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text,
                 "%s\"layers\":[{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":[%s]}]}", head,
                 bad[i].object);
        write_file(dir, "bad.tmj", text);
        st = load_file(dir, "bad.tmj", &o, &m, &d);
        assert_null(m);
        if (st != bad[i].st || !strstr(d.message, bad[i].fragment) || !strstr(d.file, bad[i].file))
            fail_msg("case %zu: %d '%s' in '%s' (where '%s')", i, st, d.message, d.file, d.where);
    }
    /* the XML tileset and template read like their JSON twins: tile 1 of walls.tsx blocks by
     * its ellipse, the .tx box (32 x 32 at (32, 0)) blocks its cell on the collision layer */
    snprintf(text, sizeof text,
             "{\"width\":3,\"height\":1,\"tilewidth\":32,\"tileheight\":32,\"layers\":["
             "{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":3,\"height\":1,"
             "\"data\":[1,0,2]},{\"type\":\"objectgroup\",\"name\":\"collision\","
             "\"objects\":[{\"id\":1,\"template\":\"box.tx\",\"x\":32,\"y\":0}]}],"
             "\"tilesets\":[{\"firstgid\":1,\"source\":\"ts/walls.tsx\"}]}");
    write_file(dir, "tsx.tmj", text);
    st = load_file(dir, "tsx.tmj", &o, &m, &d);
    if (st != TN_OK)
        fail_msg("tsx.tmj: %s", d.message);
    assert_false(tn_map_passable(m, 0, 0));
    assert_false(tn_map_passable(m, 1, 0));
    assert_true(tn_map_passable(m, 2, 0));
    assert_float_equal(tn_map_object_at(m, 0)->w, 32, 0);
    tn_map_destroy(m);

    const char *names[] = {"ts/walls.tsj", "ts/walls.tsx", "box.tj",  "wall.tj", "nested.tj",
                           "other.tj",     "box.tx",       "map.tmj", "bad.tmj", "tsx.tmj"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(sub);
    rmdir(dir);
}

/* An infinite map: objects shift with the origin like the cells. */
static void test_infinite_origin(void **state)
{
    (void)state;
    const char *text =
        "{\"width\":4,\"height\":4,\"tilewidth\":16,\"tileheight\":16,\"infinite\":true,"
        "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"t\",\"chunks\":[{\"x\":-4,\"y\":-2,"
        "\"width\":4,\"height\":4,\"data\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]},"
        "{\"type\":\"objectgroup\",\"name\":\"solid\",\"objects\":[{\"x\":-48,\"y\":-16,"
        "\"width\":16,\"height\":16}]}]}";
    tn_map *m = parse(text, NULL, "inf.tmj");
    /* Tiled cell (-3, -1) is the map's (1, 1) */
    assert_true(layer_blocked(m, 1, 1));
    assert_int_equal(layer_count_blocked(m), 1);
    tn_map_destroy(m);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void expect_bad(const char *text, const tn_load_def *o, tn_status want, const char *where,
                       const char *fragment)
{
    tn_map *m = NULL;
    tn_diag d;
    memset(&d, 0, sizeof d);
    tn_status st = tn_map_parse(text, strlen(text), "bad.tmj", o, &m, &d);
    assert_null(m);
    if (st != want || strcmp(d.where, where) != 0 || !strstr(d.message, fragment))
        fail_msg("got %d at '%s': %s; want %d at '%s' (%s)", st, d.where, d.message, want, where,
                 fragment);
}

static void test_bad_input(void **state)
{
    (void)state;
    tn_load_def o = tn_load_def_default();
    /* map-sized shapes of 400 cell tests each: the 11th passes 4 x max_layer_cells = 4000 */
    o.max_layer_cells = 1000;
    tn_test_text b = {0};
    map_head(&b, 20, 20, 8, 8);
    tn_test_textf(&b, "\"layers\":[{\"type\":\"objectgroup\",\"name\":\"walls\",\"objects\":[");
    for (int k = 0; k < 12; k++)
        tn_test_textf(&b, "%s{\"x\":-1e6,\"y\":-1e6,\"width\":2e6,\"height\":2e6}", k ? "," : "");
    tn_test_textf(&b, "]}]}");
    expect_bad(b.s, &o, TN_E_TOO_LARGE, "layers[0].objects[10]", "cell tests");
    free(b.s);
    /* ... but a few of them load */
    o.max_layer_cells = 1 << 20;
    b = (tn_test_text){0};
    map_head(&b, 20, 20, 8, 8);
    tn_test_textf(&b, "\"layers\":[{\"type\":\"objectgroup\",\"name\":\"walls\",\"objects\":["
                      "{\"x\":-1e6,\"y\":-1e6,\"width\":2e6,\"height\":2e6}]}]}");
    tn_map *m = parse(b.s, &o, "big.tmj");
    assert_int_equal(tn_map_passable_count(m), 0);
    tn_map_destroy(m);
    free(b.s);
    o = tn_load_def_default();
#define H "{\"width\":2,\"height\":2,\"tilewidth\":8,\"tileheight\":8,"
    expect_bad(H "\"layers\":[],\"tilesets\":[{\"firstgid\":1,\"tiles\":[{\"id\":0,"
                 "\"objectgroup\":[]}]}]}",
               &o, TN_E_PARSE, "tilesets[0].tiles[0].objectgroup", "expected an object layer");
    expect_bad(H "\"layers\":[],\"tilesets\":[{\"firstgid\":1,\"tiles\":[{\"id\":0,"
                 "\"objectgroup\":{\"objects\":[{\"polygon\":[{\"x\":1}]}]}}]}]}",
               &o, TN_E_PARSE, "tilesets[0].tiles[0].objectgroup.objects[0].polygon[0]",
               "point without x or y");
    expect_bad(H "\"layers\":[],\"tilesets\":[{\"firstgid\":1,\"tiles\":[{\"id\":0,"
                 "\"objectgroup\":{\"objects\":[{\"width\":4,\"height\":4,"
                 "\"rotation\":\"x\"}]}}]}]}",
               &o, TN_E_PARSE, "tilesets[0].tiles[0].objectgroup.objects[0].rotation",
               "expected a number");
    expect_bad(H "\"layers\":[{\"type\":\"objectgroup\",\"name\":\"walls\",\"objects\":"
                 "[{\"template\":7}]}]}",
               &o, TN_E_PARSE, "layers[0].objects[0].template", "expected a string");
#undef H
}

/* ---- the bench maps under the default options ----------------------------------------------- */

static void test_bench_defaults(void **state)
{
    (void)state;
    const char *const *maps = tn_test_tiled_bench_maps;
    for (size_t i = 0; i < TN_TEST_COUNT(tn_test_tiled_bench_maps); i++) {
        char rel[512], path[1024];
        snprintf(rel, sizeof rel, "bench/tiled/%s", maps[i]);
        tn_test_shared(path, sizeof path, rel);
        tn_load_def po = tn_load_def_default(), o = tn_load_def_default();
        tn_load_report rep;
        po.collision = TN_COLLIDE_PROPERTIES;
        o.report = &rep;
        tn_map *p = NULL, *m = NULL;
        tn_diag d;
        assert_int_equal(tn_map_load(path, &po, &p, &d), TN_OK);
        assert_int_equal(tn_map_load(path, &o, &m, &d), TN_OK);
        int32_t w = tn_map_width(m), h = tn_map_height(m), extra = 0;
        /* every convention can only add blocked cells to what properties give */
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                if (!tn_map_passable(p, x, y))
                    assert_false(tn_map_passable(m, x, y));
                extra += tn_map_passable(p, x, y) && !tn_map_passable(m, x, y);
            }
        assert_int_equal(rep.cells_blocked, w * h - tn_map_passable_count(m));
        assert_int_equal(rep.blocked_by_properties, w * h - tn_map_passable_count(p));
        if (strstr(maps[i], "melonjs")) {
            /* 8 rectangles of one cell each on 16 px cells, two on the same cell */
            assert_int_equal(rep.collision_layers, 1);
            assert_int_equal(rep.collision_objects, 8);
            assert_int_equal(rep.blocked_by_object_layers, 7);
            assert_int_equal(extra, 7);
            const int cells[][2] = {{15, 4}, {14, 7}, {14, 5}, {16, 5}, {17, 6}, {16, 7}, {13, 6}};
            for (int k = 0; k < 7; k++)
                assert_true(layer_blocked(m, cells[k][0], cells[k][1]));
        } else if (strstr(maps[i], "external_tileset_dif_dir")) {
            /* tile 1's rectangle (13.4..27.9 x 13.5..27.3) holds its centre: gid 2 blocks */
            assert_int_equal(rep.tiles_with_shapes, 1);
            assert_false(tn_map_terrain(m, 2).passable);
            int32_t n2 = 0;
            const uint32_t *g = tn_map_layer_data(m, 0);
            for (int32_t k = 0; k < w * h; k++)
                n2 += tn_gid_id(g[k]) == 2;
            assert_true(n2 > 0);
            assert_int_equal(extra, n2);
            assert_int_equal(rep.blocked_by_tile_shapes, n2);
        } else if (strstr(maps[i], "platformer")) {
            /* tile 76's shape is a strip at the bottom: the centre stays free */
            assert_int_equal(rep.tiles_with_shapes, 1);
            assert_int_equal(extra, 0);
        } else {
            assert_int_equal(extra, 0);
            assert_int_equal(rep.collision_layers, 0);
            assert_int_equal(rep.tiles_with_shapes, 0);
        }
        tn_map_destroy(p);
        tn_map_destroy(m);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_shapes_by_hand),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_options_and_report),
        cmocka_unit_test(test_old_style_tileset),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_infinite_origin),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_flips_by_hand),
        cmocka_unit_test(test_render_size_by_hand),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_bench_defaults),
    };
    /* hundreds of random maps against the independent rasteriser (about 20 s in debug) */
    const struct CMUnitTest slow_tests[] = {
        cmocka_unit_test(test_random_objects),
        cmocka_unit_test(test_random_tile_objects),
        cmocka_unit_test(test_random_tile_layers),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), shared_tests,
                       TN_TEST_COUNT(shared_tests), slow_tests, TN_TEST_COUNT(slow_tests));
}
