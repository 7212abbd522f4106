/* Exact line of sight: a shadow sweep per octant in exact rational slopes, which finds exactly
 * the cells that the grid layer's supercover walk (tn__grid_los, tn_los_clear()) finds clear.
 *
 * Octant coordinates: the goal centre is the origin, cell (i, j) with 0 <= j <= i maps to the
 * map cell g + (sx*i, sy*j) (or g + (sx*j, sy*i) when the axes are swapped). The segment from
 * the origin to the centre of (i, j) has slope s = j/i. A blocked cell (a, b), a >= 1, meets
 * the segments of slopes in the open interval ((2b-1)/(2a+1), (2b+1)/(2a-1)) through its
 * interior; a segment of slope exactly (2q+1)/(2p+1) passes through the grid corner
 * (p+1/2, q+1/2) from cell (p, q) to (p+1, q+1), and the corner rule then judges the two other
 * cells (p+1, q) and (p, q+1). A cell (i, j) sees the origin iff its slope lies in no interval
 * and on no bad corner from columns < i (a blocked cell of column i cannot meet a segment that
 * ends at the centre of a cell of column i, except through a corner at x = i - 1/2). The sweep
 * visits columns outwards, keeping the union of those sets as a sorted list of disjoint
 * intervals with open or closed ends. */
#include "field_internal.h"

#include <math.h>
#include <string.h>

typedef struct octant {
    int32_t sx, sy;
    bool swap;
    int32_t imax, jmax; /* largest i and j inside the map */
    bool own_axis;      /* writes its j = 0 cells (each axis is shared by two octants) */
    bool own_diag;      /* writes its j = i cells (each diagonal is shared by two octants) */
} octant;

/* a/b < c/d for positive b, d */
static inline bool lt(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return a * d < c * b;
}

static inline bool eq(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return a * d == c * b;
}

static inline void oct_cell(const tn_field *f, const octant *o, int32_t i, int32_t j, int32_t *x,
                            int32_t *y)
{
    tn_cell g = f->goals[0];
    if (o->swap) {
        *x = g.x + o->sx * j;
        *y = g.y + o->sy * i;
    } else {
        *x = g.x + o->sx * i;
        *y = g.y + o->sy * j;
    }
}

static inline bool oct_pass(const tn_field *f, const octant *o, int32_t i, int32_t j)
{
    int32_t x, y;
    oct_cell(f, o, i, j, &x, &y);
    return x >= 0 && y >= 0 && x < f->w && y < f->h &&
           f->pass[(size_t)y * (size_t)f->w + (size_t)x];
}

static octant make_octant(const tn_field *f, int k)
{
    octant o;
    o.sx = (k & 1) ? -1 : 1;
    o.sy = (k & 2) ? -1 : 1;
    o.swap = (k & 4) != 0;
    tn_cell g = f->goals[0];
    int32_t ex = o.sx > 0 ? f->w - 1 - g.x : g.x;
    int32_t ey = o.sy > 0 ? f->h - 1 - g.y : g.y;
    o.imax = o.swap ? ey : ex;
    o.jmax = o.swap ? ex : ey;
    /* exactly one writer per cell, so octants may run on different threads */
    o.own_axis = o.swap ? o.sx > 0 : o.sy > 0;
    o.own_diag = !o.swap;
    return o;
}

static tn_status ensure(tn_field *f, tn_los_scratch *sc, int k, size_t need)
{
    if (need <= sc->ivs_cap[k])
        return TN_OK;
    return tn__grow(&f->alloc, (void **)&sc->ivs[k], sizeof(tn_los_iv), &sc->ivs_cap[k], need);
}

/* Append `e` to list `out` (length *n), merging with the last element when they overlap or
 * touch without a gap. Elements must arrive sorted by their low end. */
static void push_merge(tn_los_iv *out, size_t *n, tn_los_iv e)
{
    if (*n > 0) {
        tn_los_iv *l = &out[*n - 1];
        bool joins =
            lt(e.ln, e.ld, l->hn, l->hd) || (eq(e.ln, e.ld, l->hn, l->hd) && (l->hc || e.lc));
        if (joins) {
            if (eq(e.ln, e.ld, l->ln, l->ld))
                l->lc = (uint8_t)(l->lc | e.lc);
            if (lt(l->hn, l->hd, e.hn, e.hd)) {
                l->hn = e.hn;
                l->hd = e.hd;
                l->hc = e.hc;
            } else if (eq(l->hn, l->hd, e.hn, e.hd)) {
                l->hc = (uint8_t)(l->hc | e.hc);
            }
            return;
        }
    }
    out[(*n)++] = e;
}

static bool low_before(const tn_los_iv *a, const tn_los_iv *b)
{
    return lt(a->ln, a->ld, b->ln, b->ld) || (eq(a->ln, a->ld, b->ln, b->ld) && a->lc);
}

/* Is slope s = sn/sd inside element e? */
static inline bool contains(const tn_los_iv *e, int64_t sn, int64_t sd)
{
    bool above = lt(e->ln, e->ld, sn, sd) || (e->lc && eq(e->ln, e->ld, sn, sd));
    bool below = lt(sn, sd, e->hn, e->hd) || (e->hc && eq(e->hn, e->hd, sn, sd));
    return above && below;
}

/* Is element e entirely below slope s (so it cannot contain s or anything larger)? */
static inline bool ends_before(const tn_los_iv *e, int64_t sn, int64_t sd)
{
    return lt(e->hn, e->hd, sn, sd) || (!e->hc && eq(e->hn, e->hd, sn, sd));
}

static void set_los(tn_field *f, tn_los_scratch *sc, size_t i, bool v)
{
    bool old = (f->bits[i] & TN_F_LOS) != 0;
    if (old == v)
        return;
    if (v) {
        f->bits[i] |= TN_F_LOS;
        sc->delta++;
    } else {
        f->bits[i] &= (uint8_t)~TN_F_LOS;
        sc->delta--;
    }
}

/* Blocked flags of column i for j in the range [r0, r1] (j > jmax reads as blocked). */
static size_t fill_column(const tn_field *f, const octant *o, uint8_t *col, int32_t i, int64_t r0,
                          int64_t r1)
{
    size_t blocked = 0;
    tn_cell g = f->goals[0];
    const ptrdiff_t w = (ptrdiff_t)f->w;
    const ptrdiff_t di = o->swap ? o->sy * w : o->sx, dj = o->swap ? o->sx : o->sy * w;
    const ptrdiff_t base = (ptrdiff_t)g.y * w + g.x + (ptrdiff_t)i * di;
    const int64_t jend = r1 < o->jmax ? r1 : o->jmax;
    for (int64_t j = r0; j <= jend; j++) {
        uint8_t b = (uint8_t)!f->pass[base + (ptrdiff_t)j * dj];
        col[j] = b;
        blocked += b;
    }
    for (int64_t j = jend + 1; j <= r1; j++, blocked++)
        col[j] = 1;
    return blocked;
}

/* Rows of column i whose blockers can meet segments with slopes in [lo, hi] (a superset). */
static void blocker_range(const octant *o, int32_t i, double lo, double hi, int64_t *b0,
                          int64_t *b1)
{
    *b0 = (int64_t)floor(lo * ((double)i - 0.5) - 0.5) - 1;
    *b1 = (int64_t)ceil(hi * ((double)i + 0.5) + 0.5) + 1;
    if (*b0 < 0)
        *b0 = 0;
    int32_t jcap = i < o->jmax ? i : o->jmax;
    if (*b1 > jcap)
        *b1 = jcap;
}

/* The flags kept for column i: the blocker range with a margin, clipped to [0, jmax + 1]. */
static void flag_range(const octant *o, int32_t i, double lo, double hi, int64_t *r0, int64_t *r1)
{
    *r0 = (int64_t)floor(lo * ((double)i - 0.5) - 0.5) - 3;
    *r1 = (int64_t)ceil(hi * ((double)i + 0.5) + 0.5) + 4;
    if (*r0 < 0)
        *r0 = 0;
    if (*r1 > o->jmax + 1)
        *r1 = o->jmax + 1;
}

/* Sweep one octant, writing the cells of columns >= i_write whose slopes lie in the closed
 * window [lo, hi]; only blockers that can meet segments in the window are collected. */
static tn_status sweep(tn_field *f, tn_los_scratch *sc, const octant *o, int64_t lon, int64_t lod,
                       int64_t hin, int64_t hid, int32_t i_write, bool write_false)
{
    size_t ncur = 0;
    const tn_diagonal corner = tn__los_corner(f->moves.diagonal);
    const double lo = (double)lon / (double)lod, hi = (double)hin / (double)hid;
    tn_cell g = f->goals[0];
    const ptrdiff_t w = (ptrdiff_t)f->w;
    const ptrdiff_t di = o->swap ? o->sy * w : o->sx, dj = o->swap ? o->sx : o->sy * w;
    const ptrdiff_t gidx = (ptrdiff_t)g.y * w + g.x;
    const size_t stride = (size_t)o->jmax + 3;
    tn_status st = ensure(f, sc, 0, 1);
    if (st != TN_OK)
        return st;
    if (sc->colb_cap < 2 * stride) {
        st = tn__grow(&f->alloc, (void **)&sc->colb, 1, &sc->colb_cap, 2 * stride);
        if (st != TN_OK)
            return st;
    }
    uint8_t *cur = sc->colb, *nxt = sc->colb + stride;
    const int64_t jskip0 = o->own_axis ? -1 : 0; /* j values this octant leaves to another */
    /* the corner at (1/2, 1/2), beside the goal cell, judged by cells (1, 0) and (0, 1) */
    if (o->imax >= 1 && !tn_moves_diagonal_ok(corner, oct_pass(f, o, 1, 0), oct_pass(f, o, 0, 1)) &&
        !lt(hin, hid, 1, 1)) {
        sc->ivs[0][0] = (tn_los_iv){1, 1, 1, 1, 1, 1};
        ncur = 1;
    }
    int64_t r0, r1;
    size_t bcur = 0, bnxt = 0; /* blocked flags in the current and next column */
    if (o->imax >= 1) {
        flag_range(o, 1, lo, hi, &r0, &r1);
        bcur = fill_column(f, o, cur, 1, r0, r1);
    }
    for (int32_t i = 1; i <= o->imax; i++) {
        const ptrdiff_t col = gidx + (ptrdiff_t)i * di;
        int32_t jcap = i < o->jmax ? i : o->jmax;
        /* 1. cells of column i in the window */
        if (i >= i_write) {
            int64_t jlo = (lon * i + lod - 1) / lod, jhi = (hin * i) / hid;
            if (jlo < 0)
                jlo = 0;
            if (jhi > jcap)
                jhi = jcap;
            size_t p = 0;
            for (int64_t j = jlo; j <= jhi; j++) {
                while (p < ncur && ends_before(&sc->ivs[0][p], j, i))
                    p++;
                if (j == jskip0 || (j == i && !o->own_diag))
                    continue;
                bool vis = !cur[j] && !(p < ncur && contains(&sc->ivs[0][p], j, i));
                if (vis || write_false)
                    set_los(f, sc, (size_t)(col + (ptrdiff_t)j * dj), vis);
            }
        }
        if (i == o->imax)
            break;
        /* 2. blockers of column i and bad corners at x = i + 1/2, in the window */
        int64_t blo, bhi;
        blocker_range(o, i, lo, hi, &blo, &bhi);
        flag_range(o, i + 1, lo, hi, &r0, &r1);
        bnxt = fill_column(f, o, nxt, i + 1, r0, r1);
        if (blo > bhi || (bcur == 0 && bnxt == 0)) {
            uint8_t *t = cur;
            cur = nxt;
            nxt = t;
            bcur = bnxt;
            continue;
        }
        size_t need = (size_t)(bhi - blo + 2) * 2 + 2;
        st = ensure(f, sc, 2, need);
        if (st != TN_OK)
            return st;
        tn_los_iv *add = sc->ivs[2];
        size_t nadd = 0;
        /* intervals of runs of blocked cells and corner points, merged in slope order: the
         * run starting at b begins at (2b-1)/(2i+1), the corner q sits at (2q+1)/(2i+1) */
        int64_t b = blo;
        int64_t q = blo;
        int64_t dd = 2 * (int64_t)i + 1;
        for (;;) {
            while (b <= bhi && !cur[b])
                b++;
            if (corner != TN_DIAGONAL_ALWAYS)
                while (q <= bhi && tn_moves_diagonal_ok(corner, !nxt[q], !cur[q + 1]))
                    q++;
            else
                q = bhi + 1;
            bool has_run = b <= bhi, has_q = q <= bhi;
            if (!has_run && !has_q)
                break;
            /* run low end (2b-1)/dd vs corner (2q+1)/dd: compare numerators */
            if (has_run && (!has_q || 2 * b - 1 <= 2 * q + 1)) {
                int64_t e = b;
                while (e + 1 <= bhi && cur[e + 1])
                    e++;
                tn_los_iv iv = {2 * b - 1, dd, 2 * e + 1, 2 * (int64_t)i - 1, 0, 0};
                push_merge(add, &nadd, iv);
                b = e + 1;
            } else {
                tn_los_iv pt = {2 * q + 1, dd, 2 * q + 1, dd, 1, 1};
                push_merge(add, &nadd, pt);
                q++;
            }
        }
        uint8_t *t = cur;
        cur = nxt;
        nxt = t;
        bcur = bnxt;
        if (nadd == 0)
            continue;
        st = ensure(f, sc, 1, ncur + nadd + 1);
        if (st == TN_OK)
            st = ensure(f, sc, 0, ncur + nadd + 1);
        if (st != TN_OK)
            return st;
        /* 3. merge into the set, dropping what lies outside the window */
        tn_los_iv *cv = sc->ivs[0], *add2 = sc->ivs[2], *nx = sc->ivs[1];
        size_t a = 0, c = 0, nn = 0;
        while (a < ncur || c < nadd) {
            tn_los_iv e;
            if (c >= nadd || (a < ncur && low_before(&cv[a], &add2[c])))
                e = cv[a++];
            else
                e = add2[c++];
            if (lt(e.hn, e.hd, lon, lod) || lt(hin, hid, e.ln, e.ld))
                continue;
            push_merge(nx, &nn, e);
        }
        sc->ivs[0] = nx;
        sc->ivs[1] = cv;
        size_t tcap = sc->ivs_cap[0];
        sc->ivs_cap[0] = sc->ivs_cap[1];
        sc->ivs_cap[1] = tcap;
        ncur = nn;
        /* the whole window in shadow: nothing further out is visible */
        if (ncur == 1 && contains(&sc->ivs[0][0], lon, lod) && contains(&sc->ivs[0][0], hin, hid)) {
            if (!write_false)
                return TN_OK;
            for (int32_t i2 = i + 1; i2 <= o->imax; i2++) {
                if (i2 < i_write)
                    continue;
                const ptrdiff_t col2 = gidx + (ptrdiff_t)i2 * di;
                int32_t jc = i2 < o->jmax ? i2 : o->jmax;
                int64_t jlo = (lon * i2 + lod - 1) / lod, jhi = (hin * i2) / hid;
                if (jlo < 0)
                    jlo = 0;
                if (jhi > jc)
                    jhi = jc;
                for (int64_t j = jlo; j <= jhi; j++)
                    if (j != jskip0 && (j != i2 || o->own_diag))
                        set_los(f, sc, (size_t)(col2 + (ptrdiff_t)j * dj), false);
            }
            return TN_OK;
        }
    }
    return TN_OK;
}

/* One octant's job: the window (whole octant for a full build) and where to start writing. */
typedef struct los_job {
    tn_field *f;
    bool region;
    tn_rect r;
    tn_status st[8];
} los_job;

static tn_status octant_run(tn_field *f, tn_los_scratch *sc, int k, bool region, tn_rect r)
{
    octant o = make_octant(f, k);
    if (!region)
        return sweep(f, sc, &o, 0, 1, 1, 1, 1, false);
    tn_cell g = f->goals[0];
    /* the rectangle in octant coordinates */
    int32_t ax0 = (r.x0 - g.x) * o.sx, ax1 = (r.x1 - 1 - g.x) * o.sx;
    int32_t ay0 = (r.y0 - g.y) * o.sy, ay1 = (r.y1 - 1 - g.y) * o.sy;
    int32_t xlo = ax0 < ax1 ? ax0 : ax1, xhi = ax0 < ax1 ? ax1 : ax0;
    int32_t ylo = ay0 < ay1 ? ay0 : ay1, yhi = ay0 < ay1 ? ay1 : ay0;
    int32_t ilo = o.swap ? ylo : xlo, ihi = o.swap ? yhi : xhi;
    int32_t jlo = o.swap ? xlo : ylo, jhi = o.swap ? xhi : yhi;
    if (ihi < 0 || jhi < 0 || jlo > ihi + 1)
        return TN_OK;
    int64_t lon = 0, lod = 1, hin = 1, hid = 1;
    int32_t iw = 1;
    if (ilo >= 1) {
        /* slopes of every segment that touches a closed square of the rectangle */
        lon = 2 * (int64_t)jlo - 1;
        lod = 2 * (int64_t)ihi + 1;
        hin = 2 * (int64_t)jhi + 1;
        hid = 2 * (int64_t)ilo - 1;
        if (lon < 0)
            lon = 0;
        if (lt(1, 1, hin, hid)) {
            hin = 1;
            hid = 1;
        }
        if (lt(hin, hid, lon, lod))
            return TN_OK;
        iw = ilo;
    }
    return sweep(f, sc, &o, lon, lod, hin, hid, iw, true);
}

static void los_task(void *ctx, int32_t b, int32_t e)
{
    los_job *job = ctx;
    for (int32_t k = b; k < e; k++) {
        tn_los_scratch *sc = &job->f->lsc[k];
        sc->delta = 0;
        job->st[k] = octant_run(job->f, sc, k, job->region, job->r);
    }
}

static tn_status los_run(tn_field *f, bool region, tn_rect r)
{
    los_job job;
    memset(&job, 0, sizeof job);
    job.f = f;
    job.region = region;
    job.r = r;
    int32_t delta = 0;
    if (f->parallel_for) {
        f->parallel_for(los_task, &job, 8, f->parallel_user);
        for (int k = 0; k < 8; k++)
            delta += f->lsc[k].delta;
    } else {
        tn_los_scratch *sc = &f->lsc[0]; /* one scratch serves the octants in turn */
        for (int k = 0; k < 8; k++) {
            sc->delta = 0;
            job.st[k] = octant_run(f, sc, k, region, r);
            delta += sc->delta;
        }
    }
    f->los_count += delta;
    for (int k = 0; k < 8; k++)
        if (job.st[k] != TN_OK)
            return job.st[k];
    return TN_OK;
}

tn_status tn__field_los_full(tn_field *f)
{
    /* build_all cleared every bit */
    tn_cell g = f->goals[0];
    f->bits[(size_t)g.y * (size_t)f->w + (size_t)g.x] |= TN_F_LOS;
    f->los_count = 1;
    return los_run(f, false, (tn_rect){0, 0, 0, 0});
}

tn_status tn__field_los_region(tn_field *f, tn_rect r)
{
    return los_run(f, true, r);
}
