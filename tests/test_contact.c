/* Narrow phase and the marbles: overlap tests against independent references (interval and
 * distance formulas, dense sampling in time for the swept test), contact normals and depths
 * that separate exactly, the response (momentum and energy), the marbles step (energy kept with
 * restitution 1 and no walls, identical results for every broad phase, never inside walls). */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double urange(tn_test_rng *r, double lo, double hi)
{
    return lo + tn_test_u01(r) * (hi - lo);
}

static void test_circle_circle(void **state)
{
    (void)state;
    tn_contact c;
    assert_true(tn_overlap_circle_circle(0, 0, 1, 1.5, 0, 1, &c));
    assert_true(fabs(c.nx - 1.0) < 1e-12 && fabs(c.ny) < 1e-12);
    assert_true(fabs(c.depth - 0.5) < 1e-12);
    assert_false(tn_overlap_circle_circle(0, 0, 1, 2, 0, 1, &c)); /* touching is not overlap */
    assert_true(tn_overlap_circle_circle(3, 3, 1, 3, 3, 2, &c));  /* same centre */
    assert_true(c.nx == 1.0 && c.ny == 0.0 && c.depth == 3.0);
    assert_false(tn_overlap_circle_circle(0, 0, 1, (double)NAN, 0, 1, NULL));
    tn_test_rng r = {11};
    for (int i = 0; i < 2000; i++) {
        double ax = urange(&r, -10, 10), ay = urange(&r, -10, 10), ar = urange(&r, 0.1, 4);
        double bx = urange(&r, -10, 10), by = urange(&r, -10, 10), br = urange(&r, 0.1, 4);
        double d = hypot(bx - ax, by - ay);
        bool hit = tn_overlap_circle_circle(ax, ay, ar, bx, by, br, &c);
        if (fabs(d - (ar + br)) > 1e-9)
            assert_int_equal(hit, d < ar + br);
        if (hit) {
            assert_true(fabs(hypot(c.nx, c.ny) - 1.0) < 1e-12);
            /* moving b by depth along the normal leaves them touching */
            double nd = hypot(bx + c.nx * c.depth - ax, by + c.ny * c.depth - ay);
            assert_true(fabs(nd - (ar + br)) < 1e-9);
        }
    }
}

static void test_box_box(void **state)
{
    (void)state;
    tn_contact c;
    tn_box a = {0, 0, 4, 4}, b = {3, 1, 8, 2};
    assert_true(tn_overlap_box_box(a, b, &c));
    assert_true(c.nx == 1.0 && c.ny == 0.0 && c.depth == 1.0);
    tn_box touch = {4, 0, 5, 4};
    assert_false(tn_overlap_box_box(a, touch, &c)); /* no area in common */
    tn_test_rng r = {12};
    for (int i = 0; i < 2000; i++) {
        double x = urange(&r, -5, 5), y = urange(&r, -5, 5);
        tn_box p = {x, y, x + urange(&r, 0, 4), y + urange(&r, 0, 4)};
        x = urange(&r, -5, 5);
        y = urange(&r, -5, 5);
        tn_box q = {x, y, x + urange(&r, 0, 4), y + urange(&r, 0, 4)};
        bool want = p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1;
        bool hit = tn_overlap_box_box(p, q, &c);
        assert_int_equal(hit, want);
        if (hit) {
            tn_box moved = {q.x0 + c.nx * c.depth, q.y0 + c.ny * c.depth, q.x1 + c.nx * c.depth,
                            q.y1 + c.ny * c.depth};
            double mx = fmin(p.x1, moved.x1) - fmax(p.x0, moved.x0);
            double my = fmin(p.y1, moved.y1) - fmax(p.y0, moved.y0);
            assert_true(mx <= 1e-12 || my <= 1e-12);
            /* the shortest separating move: no axis move is shorter */
            double sep = fmin(fmin(p.x1 - q.x0, q.x1 - p.x0), fmin(p.y1 - q.y0, q.y1 - p.y0));
            assert_true(c.depth == sep);
        }
    }
}

/* Distance from a point to a box, by the axis excess formula. */
static double box_dist(double x, double y, tn_box b)
{
    double dx = fmax(fmax(b.x0 - x, 0.0), x - b.x1);
    double dy = fmax(fmax(b.y0 - y, 0.0), y - b.y1);
    return hypot(dx, dy);
}

static void test_circle_box(void **state)
{
    (void)state;
    tn_contact c;
    tn_box b = {0, 0, 10, 10};
    assert_true(tn_overlap_circle_box(-1, 5, 2, b, &c));
    assert_true(c.nx == 1.0 && c.ny == 0.0 && fabs(c.depth - 1.0) < 1e-12);
    assert_true(tn_overlap_circle_box(2, 5, 1, b, &c)); /* centre inside, nearest face left */
    assert_true(c.nx == 1.0 && fabs(c.depth - 3.0) < 1e-12);
    assert_false(tn_overlap_circle_box(-2, 5, 2, b, &c)); /* touching */
    tn_test_rng r = {13};
    for (int i = 0; i < 3000; i++) {
        double cx = urange(&r, -6, 16), cy = urange(&r, -6, 16), rad = urange(&r, 0.1, 5);
        double d = box_dist(cx, cy, b);
        bool inside = d == 0.0;
        bool hit = tn_overlap_circle_box(cx, cy, rad, b, &c);
        if (fabs(d - rad) > 1e-9)
            assert_int_equal(hit, inside || d < rad);
        if (hit) {
            /* moving the circle by depth against the normal leaves it touching, outside */
            double nx = cx - c.nx * c.depth, ny = cy - c.ny * c.depth;
            assert_true(fabs(box_dist(nx, ny, b) - rad) < 1e-9);
        }
    }
}

/* Dense sampling of the relative motion: the first sampled t where they overlap, or -1. */
static double sampled_toi(double ax, double ay, double avx, double avy, double ar, double bx,
                          double by, double bvx, double bvy, double br)
{
    for (int k = 0; k <= 20000; k++) {
        double t = k / 20000.0;
        double dx = (bx + bvx * t) - (ax + avx * t), dy = (by + bvy * t) - (ay + avy * t);
        if (hypot(dx, dy) <= ar + br)
            return t;
    }
    return -1.0;
}

static void test_sweep(void **state)
{
    (void)state;
    /* a bullet: at t = 0 and t = 1 far from the target, the discrete test misses it */
    double ax = 0, ay = 0, avx = 100, avy = 0, ar = 1;
    double bx = 50, by = 0.5, bvx = 0, bvy = 0, br = 1;
    assert_false(tn_overlap_circle_circle(ax, ay, ar, bx, by, br, NULL));
    assert_false(tn_overlap_circle_circle(ax + avx, ay + avy, ar, bx, by, br, NULL));
    double toi = -1;
    assert_true(tn_sweep_circle_circle(ax, ay, avx, avy, ar, bx, by, bvx, bvy, br, &toi));
    double expect = (50.0 - sqrt(4.0 - 0.25)) / 100.0;
    assert_true(fabs(toi - expect) < 1e-12);
    /* moving apart, parallel, too short, already overlapping */
    assert_false(tn_sweep_circle_circle(0, 0, -5, 0, 1, 10, 0, 5, 0, 1, NULL));
    assert_false(tn_sweep_circle_circle(0, 0, 5, 0, 1, 0, 3, 5, 0, 1, NULL));
    assert_false(tn_sweep_circle_circle(0, 0, 1, 0, 1, 10, 0, 0, 0, 1, NULL));
    assert_true(tn_sweep_circle_circle(0, 0, 0, 0, 1, 1, 0, 0, 0, 1, &toi));
    assert_true(toi == 0.0);
    tn_test_rng r = {14};
    int hits = 0;
    for (int i = 0; i < 600; i++) {
        double p[10];
        for (int k = 0; k < 10; k++)
            p[k] = urange(&r, -10, 10);
        p[2] = urange(&r, -30, 30);
        p[3] = urange(&r, -30, 30);
        p[4] = urange(&r, 0.2, 3);
        p[9] = urange(&r, 0.2, 3);
        double s = sampled_toi(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]);
        bool hit = tn_sweep_circle_circle(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8],
                                          p[9], &toi);
        if (s >= 0.0) {
            assert_true(hit);
            assert_true(toi <= s + 1e-12);
            hits++;
        }
        if (hit) {
            /* at toi they touch (or overlapped at the start) */
            double dx = (p[5] + p[7] * toi) - (p[0] + p[2] * toi);
            double dy = (p[6] + p[8] * toi) - (p[1] + p[3] * toi);
            double d = hypot(dx, dy);
            if (toi > 0.0)
                assert_true(fabs(d - (p[4] + p[9])) < 1e-6);
            else
                assert_true(d <= p[4] + p[9] + 1e-12);
            assert_true(s < 0.0 || s - toi < 2.0 / 20000.0);
        }
    }
    assert_true(hits > 50);
}

static void test_resolve(void **state)
{
    (void)state;
    /* equal marbles head-on, elastic: they swap velocities */
    tn_marble a = {0, 0, 1, 0, 1}, b = {1.5, 0, -1, 0, 1};
    tn_contact c;
    assert_true(tn_overlap_circle_circle(a.x, a.y, a.r, b.x, b.y, b.r, &c));
    tn_marble_resolve(&a, &b, &c, 1.0);
    assert_true(fabs(a.vx + 1.0) < 1e-12 && fabs(b.vx - 1.0) < 1e-12);
    assert_false(tn_overlap_circle_circle(a.x, a.y, a.r, b.x, b.y, b.r, NULL) &&
                 hypot(b.x - a.x, b.y - a.y) < 2.0 - 1e-9);
    /* inelastic: same normal velocity afterwards */
    tn_marble p = {0, 0, 2, 1, 1}, q = {1.9, 0, 0, 0, 2};
    assert_true(tn_overlap_circle_circle(p.x, p.y, p.r, q.x, q.y, q.r, &c));
    tn_marble_resolve(&p, &q, &c, 0.0);
    assert_true(fabs(p.vx - q.vx) < 1e-12);
    assert_true(p.vy == 1.0); /* tangential kept */
    /* random: momentum (mass r^2) kept; energy kept for e = 1; separated (mass-weighted) */
    tn_test_rng r = {15};
    for (int i = 0; i < 1000; i++) {
        tn_marble m1 = {urange(&r, -2, 2), urange(&r, -2, 2), urange(&r, -3, 3), urange(&r, -3, 3),
                        urange(&r, 0.5, 3)};
        tn_marble m2 = {urange(&r, -2, 2), urange(&r, -2, 2), urange(&r, -3, 3), urange(&r, -3, 3),
                        urange(&r, 0.5, 3)};
        if (!tn_overlap_circle_circle(m1.x, m1.y, m1.r, m2.x, m2.y, m2.r, &c))
            continue;
        double w1 = m1.r * m1.r, w2 = m2.r * m2.r;
        double px = w1 * m1.vx + w2 * m2.vx, py = w1 * m1.vy + w2 * m2.vy;
        double cx = w1 * m1.x + w2 * m2.x, cy = w1 * m1.y + w2 * m2.y; /* centre of mass */
        tn_marble pair[2] = {m1, m2};
        double e0 = tn_marbles_energy(pair, 2);
        tn_marble_resolve(&m1, &m2, &c, 1.0);
        pair[0] = m1;
        pair[1] = m2;
        assert_true(fabs(w1 * m1.vx + w2 * m2.vx - px) < 1e-9 * (1 + fabs(px)));
        assert_true(fabs(w1 * m1.vy + w2 * m2.vy - py) < 1e-9 * (1 + fabs(py)));
        assert_true(fabs(w1 * m1.x + w2 * m2.x - cx) < 1e-9 * (1 + fabs(cx)));
        assert_true(fabs(w1 * m1.y + w2 * m2.y - cy) < 1e-9 * (1 + fabs(cy)));
        assert_true(fabs(tn_marbles_energy(pair, 2) - e0) <= 1e-12 * e0 + 1e-15);
        assert_true(fabs(hypot(m2.x - m1.x, m2.y - m1.y) - (m1.r + m2.r)) < 1e-9);
    }
}

/* n marbles with random radii in a w x h world, not overlapping walls of `map` if given. */
static void place(tn_marble *m, int32_t n, double w, double h, double rmin, double rmax,
                  double speed, uint64_t seed, const tn_map *map)
{
    tn_test_rng r = {seed};
    for (int32_t i = 0; i < n; i++) {
        for (;;) {
            m[i].r = urange(&r, rmin, rmax);
            m[i].x = urange(&r, m[i].r, w - m[i].r);
            m[i].y = urange(&r, m[i].r, h - m[i].r);
            if (!map)
                break;
            bool ok = true;
            int32_t tw = tn_map_tile_width(map), th = tn_map_tile_height(map);
            for (int32_t cy = 0; cy < tn_map_height(map) && ok; cy++)
                for (int32_t cx = 0; cx < tn_map_width(map) && ok; cx++) {
                    tn_box b = {cx * tw, cy * th, (cx + 1) * tw, (cy + 1) * th};
                    if (!tn_map_passable(map, cx, cy) &&
                        tn_overlap_circle_box(m[i].x, m[i].y, m[i].r, b, NULL))
                        ok = false;
                }
            if (ok)
                break;
        }
        double a = urange(&r, 0, 6.283185307179586), v = urange(&r, 0, speed);
        m[i].vx = v * cos(a);
        m[i].vy = v * sin(a);
    }
}

static tn_bp *marbles_bp(tn_bp_kind kind, const tn_marble *m, int32_t n, double cell,
                         int32_t levels, tn_bp_id *ids)
{
    tn_bp_def d = tn_bp_def_default();
    d.kind = kind;
    d.capacity = n;
    d.cell_size = cell;
    d.levels = levels;
    d.world = (tn_box){0, 0, 1024, 1024};
    tn_bp *bp = NULL;
    assert_int_equal(tn_bp_create(&d, &bp), TN_OK);
    for (int32_t i = 0; i < n; i++) {
        tn_box b = {m[i].x - m[i].r, m[i].y - m[i].r, m[i].x + m[i].r, m[i].y + m[i].r};
        assert_int_equal(tn_bp_insert(bp, b, (uint32_t)i, &ids[i]), TN_OK);
    }
    return bp;
}

static void test_marbles_energy(void **state)
{
    (void)state;
    enum { N = 400 };
    static tn_marble m[N];
    static tn_bp_id ids[N];
    static tn_bp_pair scratch[N * 16];
    place(m, N, 400, 400, 2, 9, 3, 16, NULL);
    tn_bp *bp = marbles_bp(TN_BP_HASH, m, N, 32, 1, ids);
    tn_marbles_def p = tn_marbles_def_default();
    p.world_walls = false; /* an open plane: the hashed grid has no bounds */
    double e0 = tn_marbles_energy(m, N);
    int64_t contacts = 0;
    for (int step = 0; step < 300; step++) {
        tn_marbles_stats st;
        assert_int_equal(tn_marbles_step(m, N, bp, ids, &p, scratch, N * 16, &st), TN_OK);
        contacts += st.contacts;
        assert_true(st.contacts <= st.pairs);
    }
    double e1 = tn_marbles_energy(m, N);
    assert_true(contacts > 200); /* they did collide */
    assert_true(fabs(e1 - e0) <= 1e-6 * e0);
    /* with restitution < 1 the energy drops */
    p.restitution = 0.5;
    for (int step = 0; step < 50; step++)
        assert_int_equal(tn_marbles_step(m, N, bp, ids, &p, scratch, N * 16, NULL), TN_OK);
    assert_true(tn_marbles_energy(m, N) < e1);
    tn_bp_destroy(bp);
}

static void test_marbles_same_for_every_broadphase(void **state)
{
    (void)state;
    enum { N = 300 };
    static tn_marble start[N], m[4][N];
    static tn_bp_id ids[N];
    static tn_bp_pair scratch[N * 16];
    place(start, N, 1024, 1024, 3, 12, 6, 17, NULL);
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH, TN_BP_SAP, TN_BP_BRUTE};
    int64_t pairs[4] = {0}, contacts[4] = {0};
    for (int k = 0; k < 4; k++) {
        memcpy(m[k], start, sizeof start);
        tn_bp *bp = marbles_bp(kinds[k], m[k], N, 40, 1, ids);
        tn_marbles_def p = tn_marbles_def_default();
        for (int step = 0; step < 60; step++) {
            tn_marbles_stats st;
            assert_int_equal(tn_marbles_step(m[k], N, bp, ids, &p, scratch, N * 16, &st), TN_OK);
            pairs[k] += st.pairs;
            contacts[k] += st.contacts;
            for (int32_t i = 0; i < N; i++) /* inside the world */
                assert_true(m[k][i].x >= m[k][i].r - 1e-9 && m[k][i].x <= 1024 - m[k][i].r + 1e-9);
        }
        tn_bp_destroy(bp);
        if (k > 0) {
            assert_memory_equal(m[k], m[0], sizeof m[0]);
            assert_int_equal(pairs[k], pairs[0]);
            assert_int_equal(contacts[k], contacts[0]);
        }
    }
    assert_true(contacts[0] > 0);
}

static void test_marbles_errors(void **state)
{
    (void)state;
    enum { N = 50 };
    static tn_marble m[N];
    static tn_bp_id ids[N];
    tn_bp_pair scratch[4];
    for (int32_t i = 0; i < N; i++) /* all on one spot: 1225 pairs */
        m[i] = (tn_marble){100, 100, 0, 0, 5};
    tn_bp *bp = marbles_bp(TN_BP_GRID, m, N, 16, 1, ids);
    tn_marbles_def p = tn_marbles_def_default();
    assert_int_equal(tn_marbles_step(m, N, bp, ids, &p, scratch, 4, NULL), TN_E_BUFFER_TOO_SMALL);
    assert_true(m[0].x == 100.0 && m[N - 1].y == 100.0); /* nothing moved */
    assert_int_equal(tn_marbles_step(NULL, N, bp, ids, &p, scratch, 4, NULL), TN_E_INVALID_ARG);
    p.restitution = 2.0;
    assert_int_equal(tn_marbles_step(m, N, bp, ids, &p, scratch, 4, NULL), TN_E_INVALID_ARG);
    p.restitution = 1.0;
    tn_bp_id stale = ids[3];
    assert_int_equal(tn_bp_remove(bp, ids[3]), TN_OK);
    assert_int_equal(tn_marbles_step(m, N, bp, ids, &p, scratch, 4, NULL), TN_E_STALE_ID);
    (void)stale;
    tn_bp_destroy(bp);
}

/* Deepest penetration of a marble into an impassable cell (or the outside of the map). */
static double wall_depth(const tn_map *map, const tn_marble *m)
{
    int32_t tw = tn_map_tile_width(map), th = tn_map_tile_height(map);
    double worst = 0.0;
    for (int32_t cy = (int32_t)floor((m->y - m->r) / th) - 1;
         cy <= (int32_t)floor((m->y + m->r) / th) + 1; cy++)
        for (int32_t cx = (int32_t)floor((m->x - m->r) / tw) - 1;
             cx <= (int32_t)floor((m->x + m->r) / tw) + 1; cx++) {
            bool wall = cx < 0 || cy < 0 || cx >= tn_map_width(map) || cy >= tn_map_height(map) ||
                        !tn_map_passable(map, cx, cy);
            if (!wall)
                continue;
            tn_box b = {cx * tw, cy * th, (cx + 1) * tw, (cy + 1) * th};
            double d = m->r - box_dist(m->x, m->y, b);
            if (box_dist(m->x, m->y, b) == 0.0)
                d = m->r + 1.0; /* centre inside */
            if (d > worst)
                worst = d;
        }
    return worst;
}

static void test_marbles_walls(void **state)
{
    (void)state;
    enum { N = 150 };
    static tn_marble m[N];
    static tn_bp_id ids[N];
    static tn_bp_pair scratch[N * 16];
    for (uint64_t seed = 0; seed < 3; seed++) {
        tn_map *map = tn_test_random_map(24, 24, 0.25, 50 + seed); /* 32-pixel tiles */
        assert_non_null(map);
        double size = 24 * 32;
        place(m, N, size, size, 3, 7.5, 7.5, 60 + seed, map);
        tn_bp *bp = marbles_bp(seed == 1 ? TN_BP_SAP : TN_BP_GRID, m, N, 32, 1, ids);
        tn_marbles_def p = tn_marbles_def_default();
        p.world = (tn_box){0, 0, size, size};
        p.map = map;
        p.restitution = seed == 2 ? 0.7 : 1.0;
        int64_t contacts = 0;
        for (int step = 0; step < 300; step++) {
            tn_marbles_stats st;
            assert_int_equal(tn_marbles_step(m, N, bp, ids, &p, scratch, N * 16, &st), TN_OK);
            contacts += st.contacts;
            for (int32_t i = 0; i < N; i++) {
                double d = wall_depth(map, &m[i]);
                if (d > 1e-6)
                    print_error("seed %d step %d marble %d at %.9g %.9g r %.9g v %g %g depth %g\n",
                                (int)seed, step, (int)i, m[i].x, m[i].y, m[i].r, m[i].vx, m[i].vy,
                                d);
                assert_true(d <= 1e-6);
            }
        }
        assert_true(contacts > 0);
        tn_bp_destroy(bp);
        tn_map_destroy(map);
    }
}

/* Two fast marbles heading for each other meet inside one step: the discrete test never sees
 * them overlap, the swept test makes them bounce instead of passing through. */
static void test_marbles_fast_pair(void **state)
{
    (void)state;
    tn_marble m[2] = {{100, 100, 40, 0.5, 2}, {160, 100, -40, 0, 2}};
    tn_bp_id ids[2];
    tn_bp_pair scratch[4];
    tn_bp *bp = marbles_bp(TN_BP_GRID, m, 2, 200, 1, ids);
    tn_marbles_def p = tn_marbles_def_default();
    /* after one step the centres would be at 140 and 120: passed through */
    assert_false(tn_overlap_circle_circle(140, 100.5, 2, 120, 100, 2, NULL));
    tn_marbles_stats st;
    assert_int_equal(tn_marbles_step(m, 2, bp, ids, &p, scratch, 4, &st), TN_OK);
    assert_int_equal(st.contacts, 1);
    assert_true(m[0].x < m[1].x); /* still in order */
    assert_true(m[0].vx < 0.0 && m[1].vx > 0.0);
    double e = tn_marbles_energy(m, 2);
    assert_true(fabs(e - 0.5 * 4 * (1600 + 0.25 + 1600)) < 1e-9 * e);
    tn_bp_destroy(bp);
}

/* A fast marble does not tunnel through a one-tile wall. */
static void test_marbles_no_tunnelling(void **state)
{
    (void)state;
    const char *rows[] = {"......", "..#...", "......"};
    tn_map *map = tn_test_map_from_rows(rows, 3);
    assert_non_null(map);
    tn_marble m[1] = {{40, 48, 60, 0, 4}}; /* 60 units per step towards the wall at x 64..96 */
    tn_bp_id ids[1];
    tn_bp_pair scratch[4];
    tn_bp *bp = marbles_bp(TN_BP_GRID, m, 1, 200, 1, ids);
    tn_marbles_def p = tn_marbles_def_default();
    p.map = map;
    p.world = (tn_box){0, 0, 6 * 32, 3 * 32};
    assert_int_equal(tn_marbles_step(m, 1, bp, ids, &p, scratch, 4, NULL), TN_OK);
    assert_true(m[0].x + m[0].r <= 64.0 + 1e-6); /* still left of the wall */
    assert_true(m[0].vx < 0.0);                  /* and bouncing back */
    assert_true(fabs(m[0].vx + 60.0) < 1e-9);
    tn_bp_destroy(bp);
    tn_map_destroy(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_circle_circle),
        cmocka_unit_test(test_box_box),
        cmocka_unit_test(test_circle_box),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_marbles_energy),
        cmocka_unit_test(test_marbles_same_for_every_broadphase),
        cmocka_unit_test(test_marbles_errors),
        cmocka_unit_test(test_marbles_walls),
        cmocka_unit_test(test_marbles_no_tunnelling),
        cmocka_unit_test(test_marbles_fast_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
