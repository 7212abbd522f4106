/* Narrow phase: circle and box overlap tests with normal and depth, the swept circle test,
 * the marbles' response and the marbles step. */
#include "tilenav/contact.h"

#include "internal.h"
#include "tilenav/tile_collision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool tn_overlap_circle_circle(double ax, double ay, double ar, double bx, double by, double br,
                              tn_contact *out)
{
    const double dx = bx - ax, dy = by - ay, rr = ar + br;
    const double d2 = dx * dx + dy * dy;
    if (!(d2 < rr * rr))
        return false;
    if (out) {
        double d = sqrt(d2);
        if (d > 0.0) {
            out->nx = dx / d;
            out->ny = dy / d;
        } else {
            out->nx = 1.0;
            out->ny = 0.0;
        }
        out->depth = rr - d;
    }
    return true;
}

bool tn_overlap_box_box(tn_box a, tn_box b, tn_contact *out)
{
    if (!(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1))
        return false;
    if (out) {
        /* the shortest of the four moves of b that separate them */
        const double d[4] = {a.x1 - b.x0, b.x1 - a.x0, a.y1 - b.y0, b.y1 - a.y0};
        static const double n[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        int k = 0;
        for (int i = 1; i < 4; i++)
            if (d[i] < d[k])
                k = i;
        out->nx = n[k][0];
        out->ny = n[k][1];
        out->depth = d[k];
    }
    return true;
}

bool tn_overlap_circle_box(double cx, double cy, double r, tn_box b, tn_contact *out)
{
    if (!isfinite(cx) || !isfinite(cy) || !(r >= 0.0))
        return false;
    const bool inside = cx >= b.x0 && cx <= b.x1 && cy >= b.y0 && cy <= b.y1;
    if (inside) {
        const double l = cx - b.x0, rt = b.x1 - cx, t = cy - b.y0, bt = b.y1 - cy;
        double m = l, nx = 1.0, ny = 0.0; /* nearest face left: push the circle left */
        if (rt < m) {
            m = rt;
            nx = -1.0;
            ny = 0.0;
        }
        if (t < m) {
            m = t;
            nx = 0.0;
            ny = 1.0;
        }
        if (bt < m) {
            m = bt;
            nx = 0.0;
            ny = -1.0;
        }
        if (out) {
            out->nx = nx;
            out->ny = ny;
            out->depth = m + r;
        }
        return true;
    }
    const double qx = cx < b.x0 ? b.x0 : (cx > b.x1 ? b.x1 : cx);
    const double qy = cy < b.y0 ? b.y0 : (cy > b.y1 ? b.y1 : cy);
    const double dx = qx - cx, dy = qy - cy;
    const double d2 = dx * dx + dy * dy;
    if (!(d2 < r * r))
        return false;
    if (out) {
        double d = sqrt(d2);
        out->nx = dx / d; /* d > 0: the centre is outside */
        out->ny = dy / d;
        out->depth = r - d;
    }
    return true;
}

bool tn_sweep_circle_circle(double ax, double ay, double avx, double avy, double ar, double bx,
                            double by, double bvx, double bvy, double br, double *toi)
{
    const double dx = bx - ax, dy = by - ay;     /* relative position */
    const double wx = bvx - avx, wy = bvy - avy; /* relative motion over the step */
    const double rr = ar + br;
    const double c = dx * dx + dy * dy - rr * rr;
    if (!isfinite(c) || !isfinite(wx) || !isfinite(wy))
        return false;
    if (c <= 0.0) {
        if (toi)
            *toi = 0.0;
        return true;
    }
    const double a = wx * wx + wy * wy;
    const double bh = dx * wx + dy * wy; /* half of the linear coefficient */
    if (a == 0.0 || bh >= 0.0)
        return false; /* no relative motion, or moving apart */
    const double disc = bh * bh - a * c;
    if (disc < 0.0)
        return false;
    /* smaller root of a t^2 + 2 bh t + c = 0, in the cancellation-free form */
    const double t = c / (-bh + sqrt(disc));
    if (!(t <= 1.0))
        return false;
    if (toi)
        *toi = t;
    return true;
}

void tn_marble_resolve(tn_marble *a, tn_marble *b, const tn_contact *c, double e)
{
    const double ma = a->r * a->r, mb = b->r * b->r, total = ma + mb;
    if (!(total > 0.0))
        return;
    const double nx = c->nx, ny = c->ny;
    if (c->depth > 0.0) {
        const double da = c->depth * (mb / total), db = c->depth * (ma / total);
        a->x -= nx * da;
        a->y -= ny * da;
        b->x += nx * db;
        b->y += ny * db;
    }
    const double vn = (b->vx - a->vx) * nx + (b->vy - a->vy) * ny;
    if (vn < 0.0) {
        const double k = (1.0 + e) * vn;
        const double ka = k * (mb / total), kb = k * (ma / total);
        a->vx += nx * ka;
        a->vy += ny * ka;
        b->vx -= nx * kb;
        b->vy -= ny * kb;
    }
}

tn_marbles_def tn_marbles_def_default(void)
{
    tn_marbles_def p;
    memset(&p, 0, sizeof p);
    p.restitution = 1.0;
    p.world_walls = true;
    p.world.x1 = 1024.0;
    p.world.y1 = 1024.0;
    p.internal_cookie = TN_COOKIE_MARBLES;
    return p;
}

double tn_marbles_energy(const tn_marble *m, int32_t n)
{
    double e = 0.0;
    if (!m)
        return 0.0;
    for (int32_t i = 0; i < n; i++)
        e += 0.5 * m[i].r * m[i].r * (m[i].vx * m[i].vx + m[i].vy * m[i].vy);
    return e;
}

/* ---- walls ------------------------------------------------------------------------------ */

/* Bounce off the world's edges (reflection, as the peers' kinematic step), then clamp. */
static void world_bounce(tn_marble *m, tn_box w, double e)
{
    const double lo_x = w.x0 + m->r, hi_x = w.x1 - m->r;
    const double lo_y = w.y0 + m->r, hi_y = w.y1 - m->r;
    if (m->x < lo_x) {
        m->x = 2.0 * lo_x - m->x;
        if (m->vx < 0.0)
            m->vx = -m->vx * e;
    } else if (m->x > hi_x) {
        m->x = 2.0 * hi_x - m->x;
        if (m->vx > 0.0)
            m->vx = -m->vx * e;
    }
    if (m->y < lo_y) {
        m->y = 2.0 * lo_y - m->y;
        if (m->vy < 0.0)
            m->vy = -m->vy * e;
    } else if (m->y > hi_y) {
        m->y = 2.0 * hi_y - m->y;
        if (m->vy > 0.0)
            m->vy = -m->vy * e;
    }
    m->x = lo_x <= hi_x ? fmin(fmax(m->x, lo_x), hi_x) : 0.5 * (w.x0 + w.x1);
    m->y = lo_y <= hi_y ? fmin(fmax(m->y, lo_y), hi_y) : 0.5 * (w.y0 + w.y1);
}

/* Move a marble by its velocity through the tile map with the shared circle mover
 * (tile_collision.h: exact sweep, no tunnelling at any speed, slides along walls), then bounce:
 * the velocity component into the last wall touched is reflected with restitution e. A marble
 * that cannot be freed from a wall (nothing free in reach) stays where it is, at rest. */
static void move_with_walls(const tn_map *map, tn_marble *m, double e)
{
    tn_tile_circle_move mv;
    tn_vec2 c = {(float)m->x, (float)m->y};
    tn_vec2 d = {(float)m->vx, (float)m->vy};
    if (tn_tile_move_circle(map, c, (float)m->r, d, &mv) != TN_OK) {
        m->vx = m->vy = 0.0;
        return;
    }
    m->x = (double)mv.position.x;
    m->y = (double)mv.position.y;
    if (mv.contacts > 0) {
        const double nx = (double)mv.normal.x, ny = (double)mv.normal.y;
        const double vn = m->vx * nx + m->vy * ny; /* the normal points out of the wall */
        if (vn < 0.0) {
            m->vx -= (1.0 + e) * vn * nx;
            m->vy -= (1.0 + e) * vn * ny;
        }
    }
}

/* ---- the step --------------------------------------------------------------------------- */

static int pair_cmp(const void *pa, const void *pb)
{
    const tn_bp_pair *a = pa, *b = pb;
    uint32_t a0 = a->user_a < a->user_b ? a->user_a : a->user_b;
    uint32_t a1 = a->user_a < a->user_b ? a->user_b : a->user_a;
    uint32_t b0 = b->user_a < b->user_b ? b->user_a : b->user_b;
    uint32_t b1 = b->user_a < b->user_b ? b->user_b : b->user_a;
    if (a0 != b0)
        return a0 < b0 ? -1 : 1;
    if (a1 != b1)
        return a1 < b1 ? -1 : 1;
    return 0;
}

static tn_box swept_box(const tn_marble *m)
{
    const double nx = m->x + m->vx, ny = m->y + m->vy;
    tn_box b = {fmin(m->x, nx) - m->r, fmin(m->y, ny) - m->r, fmax(m->x, nx) + m->r,
                fmax(m->y, ny) + m->r};
    return b;
}

tn_status tn_marbles_step(tn_marble *m, int32_t n, tn_bp *bp, const tn_bp_id *ids,
                          const tn_marbles_def *p, tn_bp_pair *scratch, int64_t cap,
                          tn_marbles_stats *stats)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!m || n < 0 || !bp || !ids || !p || p->internal_cookie != TN_COOKIE_MARBLES || cap < 0 ||
        (cap > 0 && !scratch) || !(p->restitution >= 0.0 && p->restitution <= 1.0))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < n; i++) {
        tn_status st = tn_bp_move(bp, ids[i], swept_box(&m[i]));
        if (st != TN_OK)
            return st;
    }
    tn_status st = tn_bp_update(bp, NULL);
    if (st != TN_OK)
        return st;
    int64_t np = 0;
    st = tn_bp_pairs_buf(bp, scratch, cap, &np);
    if (st != TN_OK)
        return st;
    qsort(scratch, (size_t)np, sizeof *scratch, pair_cmp);
    const double e = p->restitution;
    int64_t contacts = 0;
    for (int64_t k = 0; k < np; k++) {
        uint32_t ia = scratch[k].user_a, ib = scratch[k].user_b;
        if (ia > ib) {
            uint32_t t = ia;
            ia = ib;
            ib = t;
        }
        if (ia >= (uint32_t)n || ib >= (uint32_t)n)
            return TN_E_INVALID_ARG;
        tn_marble *a = &m[ia], *b = &m[ib];
        tn_contact c;
        if (tn_overlap_circle_circle(a->x, a->y, a->r, b->x, b->y, b->r, &c)) {
            tn_marble_resolve(a, b, &c, e);
            contacts++;
            continue;
        }
        double t;
        if (tn_sweep_circle_circle(a->x, a->y, a->vx, a->vy, a->r, b->x, b->y, b->vx, b->vy, b->r,
                                   &t)) {
            /* they meet at t: bounce with the normal of that moment (no positional change) */
            const double dx = (b->x + b->vx * t) - (a->x + a->vx * t);
            const double dy = (b->y + b->vy * t) - (a->y + a->vy * t);
            const double d = sqrt(dx * dx + dy * dy);
            tn_contact ct = {d > 0.0 ? dx / d : 1.0, d > 0.0 ? dy / d : 0.0, 0.0};
            tn_marble_resolve(a, b, &ct, e);
            contacts++;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        if (p->map) {
            move_with_walls(p->map, &m[i], e);
        } else {
            m[i].x += m[i].vx;
            m[i].y += m[i].vy;
        }
        if (p->world_walls)
            world_bounce(&m[i], p->world, e);
    }
    if (stats) {
        stats->pairs = np;
        stats->contacts = contacts;
    }
    return TN_OK;
}
