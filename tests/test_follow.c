/* Following: the path follower against arc-length positions computed independently, corner
 * smoothing, path-radius steering, the grid walker with a BFS planner from the oracle, the
 * grid wanderer, and the book's AI car lapping its 10x8 race track. */
#include "oracle.h"
#include "support.h"
#include "tilenav/follow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- path follower ------------------------------------------------------------------------ */

/* Point at arc length s along the polyline, in double precision (the reference). */
static void ref_point(const tn_vec2 *p, int n, double s, double *x, double *y)
{
    for (int i = 0; i + 1 < n; i++) {
        double dx = (double)(p[i + 1].x - p[i].x), dy = (double)(p[i + 1].y - p[i].y);
        double l = sqrt(dx * dx + dy * dy);
        if (s <= l) {
            double t = l > 0 ? s / l : 0;
            *x = (double)p[i].x + dx * t;
            *y = (double)p[i].y + dy * t;
            return;
        }
        s -= l;
    }
    *x = (double)p[n - 1].x;
    *y = (double)p[n - 1].y;
}

static double ref_length(const tn_vec2 *p, int n)
{
    double L = 0;
    for (int i = 0; i + 1 < n; i++) {
        double dx = (double)(p[i + 1].x - p[i].x), dy = (double)(p[i + 1].y - p[i].y);
        L += sqrt(dx * dx + dy * dy);
    }
    return L;
}

static void test_follower_hand(void **state)
{
    (void)state;
    tn_vec2 pts[3] = {{0, 0}, {10, 0}, {10, 10}};
    tn_path_follower f;
    assert_int_equal(tn_path_follower_init(&f, pts, 3, 0.0f), TN_OK);
    int32_t r;
    float want[5][2] = {{4, 0}, {8, 0}, {10, 2}, {10, 6}, {10, 10}};
    int want_r[5] = {0, 0, 1, 0, 1};
    for (int s = 0; s < 5; s++) {
        assert_false(f.arrived);
        assert_int_equal(tn_path_follower_step(&f, 4.0f, 1.0f, &r), TN_OK);
        assert_true(f.pos.x == want[s][0] && f.pos.y == want[s][1]);
        assert_int_equal(r, want_r[s]);
    }
    assert_true(f.arrived);
    assert_int_equal(f.next, 3);
    /* no overshoot: further steps stay on the end */
    assert_int_equal(tn_path_follower_step(&f, 4.0f, 1.0f, &r), TN_OK);
    assert_true(f.pos.x == 10.0f && f.pos.y == 10.0f && r == 0);
    /* a big step crosses several waypoints at once */
    assert_int_equal(tn_path_follower_init(&f, pts, 3, 0.0f), TN_OK);
    assert_int_equal(tn_path_follower_step(&f, 100.0f, 1.0f, &r), TN_OK);
    assert_true(f.arrived && r == 2 && f.pos.x == 10.0f && f.pos.y == 10.0f);
    assert_int_equal(tn_path_follower_init(NULL, pts, 3, 0.0f), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_follower_init(&f, pts, 0, 0.0f), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_follower_init(&f, pts, 3, -1.0f), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_follower_step(&f, -1.0f, 1.0f, &r), TN_E_INVALID_ARG);
    assert_int_equal(tn_path_follower_step(&f, 1.0f, NAN, &r), TN_E_INVALID_ARG);
}

static void test_follower_random(void **state)
{
    (void)state;
    tn_test_rng rng = {99};
    for (int trial = 0; trial < 200; trial++) {
        int n = 1 + (int)tn_test_below(&rng, 12);
        tn_vec2 pts[12];
        for (int i = 0; i < n; i++) {
            pts[i] = (tn_vec2){(float)tn_test_below(&rng, 400), (float)tn_test_below(&rng, 400)};
            if (i > 0 && tn_test_below(&rng, 6) == 0)
                pts[i] = pts[i - 1]; /* zero-length segments too */
        }
        float speed = 20.0f + (float)tn_test_below(&rng, 300), dt = 1.0f / 30.0f;
        double L = ref_length(pts, n), step = (double)(speed * dt);
        tn_path_follower f;
        assert_int_equal(tn_path_follower_init(&f, pts, n, 0.0f), TN_OK);
        int reached = 0, steps = 0;
        while (!f.arrived && steps < 100000) {
            int32_t r;
            assert_int_equal(tn_path_follower_step(&f, speed, dt, &r), TN_OK);
            steps++;
            reached += r;
            double x, y;
            ref_point(pts, n, step * steps, &x, &y);
            double tol = 1e-5 * (L + 1) * 4 + 1e-3 * steps * 1e-2;
            assert_true(fabs((double)f.pos.x - x) < tol + 0.05);
            assert_true(fabs((double)f.pos.y - y) < tol + 0.05);
        }
        assert_true(f.arrived);
        /* every waypoint passed once, ending exactly on the last */
        assert_int_equal(reached, n - 1);
        assert_true(f.pos.x == pts[n - 1].x && f.pos.y == pts[n - 1].y);
        /* the leftover distance was carried: as many steps as the length needs */
        int want = n == 1 ? 0 : (int)ceil(L / step - 1e-6);
        want = n > 1 && want < 1 ? 1 : want;
        if (steps < want - 1 || steps > want + 1)
            fail_msg("trial %d: %d steps, want %d (L %g, step %g)", trial, steps, want, L, step);
    }
}

static void test_follower_smoothing(void **state)
{
    (void)state;
    tn_vec2 pts[5] = {{0, 0}, {200, 0}, {200, 200}, {0, 200}, {0, 400}};
    tn_path_follower f, g;
    assert_int_equal(tn_path_follower_init(&f, pts, 5, 30.0f), TN_OK);
    assert_int_equal(tn_path_follower_init(&g, pts, 5, 0.0f), TN_OK);
    int steps_f = 0, steps_g = 0, reached = 0;
    float max_off = 0.0f;
    bool cut = false;
    while (!f.arrived && steps_f < 10000) {
        int32_t r;
        assert_int_equal(tn_path_follower_step(&f, 120.0f, 1.0f / 60.0f, &r), TN_OK);
        reached += r;
        steps_f++;
        float off = tn_path_distance(pts, 5, f.pos);
        max_off = off > max_off ? off : max_off;
        cut = cut || off > 1.0f;
    }
    while (!g.arrived && steps_g < 10000) {
        assert_int_equal(tn_path_follower_step(&g, 120.0f, 1.0f / 60.0f, NULL), TN_OK);
        steps_g++;
    }
    assert_true(f.arrived);
    assert_true(f.pos.x == 0.0f && f.pos.y == 400.0f); /* exactly on the last waypoint */
    assert_int_equal(reached, 4);
    assert_true(cut);             /* it did cut the corners */
    assert_true(max_off < 30.0f); /* never farther than the look-ahead from the path */
    assert_true(steps_f <= steps_g);
}

/* ---- path radius --------------------------------------------------------------------------- */

static void test_follow_path_force(void **state)
{
    (void)state;
    tn_vec2 road[2] = {{0, 0}, {100, 0}};
    tn_steer_agent a = {{50, 20}, {10, 0}, 1.0f, 4.0f, 5.0f};
    /* prediction (60,20) is 20 from the road (> 10): seek (60,0) + 10 along = (70,0).
     * From (50,20): (20,-20)/28.284*4 = (2.828,-2.828); force = (desired - vel)*1.25
     * = ((2.828-10)*1.25, -2.828*1.25) = (-8.964, -3.536) */
    tn_vec2 f = tn_steer_follow_path(&a, road, 2, 10.0f, 1.0f, 10.0f);
    assert_true(fabs((double)f.x + 8.964466) < 1e-3 && fabs((double)f.y + 3.535534) < 1e-3);
    /* inside the radius: nothing */
    a.pos = (tn_vec2){50, 5};
    f = tn_steer_follow_path(&a, road, 2, 10.0f, 1.0f, 10.0f);
    assert_true(f.x == 0.0f && f.y == 0.0f);
    /* the look-ahead walks around the corner of an L path, clamped at the end */
    tn_vec2 ell[3] = {{0, 0}, {100, 0}, {100, 100}};
    tn_steer_agent b = {{95, 30}, {0, 0}, 1.0f, 4.0f, 5.0f};
    /* nearest point of (95,30): (100,30) at 5... inside radius 10: zero; with radius 2: seek
     * (100, 30+20) = (100,50): desired (5,20)/20.616*4 */
    f = tn_steer_follow_path(&b, ell, 3, 2.0f, 0.0f, 20.0f);
    assert_true(fabs((double)f.x - 5.0 / 20.615528 * 5.0) < 1e-3);
    assert_true(fabs((double)f.y - 20.0 / 20.615528 * 5.0) < 1e-3);
    assert_true(fabsf(tn_path_distance(ell, 3, (tn_vec2){50, -7}) - 7.0f) < 1e-5f);

    /* a group with separation spreads across the road and stays on it */
    tn_vec2 path[3] = {{0, 100}, {2000, 100}, {4000, 400}};
    tn_steer_agent g[24];
    tn_test_rng r = {3};
    for (int i = 0; i < 24; i++)
        g[i] = (tn_steer_agent){{(float)tn_test_below(&r, 200), 100.0f + (float)tn_test_u01(&r)},
                                {60, 0},
                                4.0f,
                                80.0f,
                                200.0f};
    double sum_abs = 0;
    int samples = 0;
    float worst = 0.0f;
    for (int s = 0; s < 900; s++) {
        tn_vec2 forces[24];
        for (int i = 0; i < 24; i++) {
            tn_vec2 np[23];
            int k = 0;
            for (int j = 0; j < 24; j++)
                if (j != i)
                    np[k++] = g[j].pos;
            tn_vec2 fs[2] = {tn_steer_follow_path(&g[i], path, 3, 30.0f, 0.5f, 40.0f),
                             tn_steer_separation(&g[i], np, 23, 25.0f)};
            float w[2] = {1.0f, 2.0f};
            forces[i] = tn_steer_combine_weighted(fs, w, 2, g[i].max_force);
        }
        for (int i = 0; i < 24; i++)
            tn_steer_integrate(&g[i], forces[i], 1.0f / 60.0f);
        if (s > 300)
            for (int i = 0; i < 24; i++) {
                float d = tn_path_distance(path, 3, g[i].pos);
                worst = d > worst ? d : worst;
                sum_abs += (double)d;
                samples++;
            }
    }
    /* spread: the mean distance from the centre line is a good part of the radius, not ~0 */
    assert_true(sum_abs / samples > 5.0);
    assert_true(worst < 45.0f); /* and they stay on the road (radius 30, some slack) */
}

/* ---- grid walker ------------------------------------------------------------------------------
 */

typedef struct bfs_user {
    const tn_map *map;
    int calls;
} bfs_user;

/* 4-connected shortest path from the oracle: distances to `to`, then walk downhill. */
static tn_status bfs_plan(void *user, tn_cell from, tn_cell to, tn_cell *out, int32_t cap,
                          int32_t *len)
{
    bfs_user *u = user;
    u->calls++;
    int32_t w = tn_map_width(u->map), h = tn_map_height(u->map);
    double *dist = malloc(sizeof(double) * (size_t)(w * h));
    tn_moves mv = {TN_DIAGONAL_NEVER, TN_COSTS_EXACT};
    tn_oracle_dijkstra(u->map, &mv, NULL, &to, 1, true, dist);
    *len = 0;
    if (!isfinite(dist[from.y * w + from.x])) {
        free(dist);
        return TN_NO_PATH;
    }
    tn_cell at = from;
    while ((at.x != to.x || at.y != to.y) && *len < cap) {
        static const int d4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        tn_cell best = at;
        for (int k = 0; k < 4; k++) {
            tn_cell n = {at.x + d4[k][0], at.y + d4[k][1]};
            if (tn_map_passable(u->map, n.x, n.y) &&
                dist[n.y * w + n.x] < dist[best.y * w + best.x])
                best = n;
        }
        at = best;
        out[(*len)++] = at;
    }
    free(dist);
    return TN_OK;
}

/* The library's own search as the planner: 4-connected A* (the book's walkPath setting). */
typedef struct search_user {
    tn_search *search;
    const tn_map *map;
} search_user;

static tn_status search_plan(void *user, tn_cell from, tn_cell to, tn_cell *out, int32_t cap,
                             int32_t *len)
{
    search_user *u = user;
    tn_query q;
    memset(&q, 0, sizeof q);
    q.moves.diagonal = TN_DIAGONAL_NEVER;
    tn_search_result res;
    tn_status st = tn_search_path(u->search, u->map, from, to, &q, out, cap, &res);
    *len = st == TN_OK ? res.length : 0;
    return st;
}

/* On a row or column line through cell centres, never in a wall. */
static void check_on_grid(const tn_grid_walker *wk, const tn_map *m)
{
    tn_cell c;
    assert_true(tn_map_cell_at_px(m, wk->pos.x, wk->pos.y, &c));
    tn_vec2 cc = tn_map_cell_center_px(m, c.x, c.y);
    assert_true(wk->pos.x == cc.x || wk->pos.y == cc.y);
    assert_true(tn_map_passable(m, c.x, c.y));
}

static void test_grid_walker(void **state)
{
    (void)state;
    const char *rows[] = {
        "...........#.", ".#####.####..", ".#.....#.....", ".#.###.#.###.", "...#...#...#.",
        "##.#.#####.#.", "...#.....#.#.", ".###.###.#...", ".....#.......",
    };
    tn_map *m = tn_test_map_from_rows(rows, 9);
    bfs_user u = {m, 0};
    tn_cell buf[256];
    tn_grid_walker wk;
    float speeds[3] = {4.0f, 5.0f, 13.0f}; /* 5 and 13 do not divide the 32 px tile */
    for (int si = 0; si < 3; si++) {
        assert_int_equal(tn_grid_walker_init(&wk, m, (tn_cell){0, 0}, speeds[si], buf, 256), TN_OK);
        assert_int_equal(tn_grid_walker_set_destination(&wk, (tn_cell){12, 8}), TN_OK);
        tn_cell last_dir = {0, 0};
        int s;
        bool retargeted = false;
        for (s = 0; s < 5000; s++) {
            bool aligned_before = tn_grid_walker_aligned(&wk, m);
            tn_vec2 before = wk.pos;
            assert_int_equal(tn_grid_walker_step(&wk, m, bfs_plan, &u), TN_OK);
            check_on_grid(&wk, m);
            /* a turn needs a cell centre: either it started on one or it passed one */
            if ((wk.dir.x != last_dir.x || wk.dir.y != last_dir.y) && !aligned_before) {
                float moved = fabsf(wk.pos.x - before.x) + fabsf(wk.pos.y - before.y);
                assert_true(moved > 0.0f || tn_grid_walker_aligned(&wk, m));
            }
            last_dir = wk.dir;
            if (!retargeted && s == 40) {
                /* a new destination mid-cell: planned at the next centre */
                assert_int_equal(tn_grid_walker_set_destination(&wk, (tn_cell){12, 0}), TN_OK);
                retargeted = true;
            }
            if (retargeted && wk.dir.x == 0 && wk.dir.y == 0 && !wk.pending)
                break;
        }
        assert_true(wk.cell.x == 12 && wk.cell.y == 0);
        assert_true(tn_grid_walker_aligned(&wk, m));
        assert_int_equal(wk.replans, 2);
    }
    /* the same walk planned by tn_search_path; the walk is as long as the oracle's */
    tn_search_def sd = tn_search_def_default();
    tn_search *search = NULL;
    assert_int_equal(tn_search_create(&sd, &search), TN_OK);
    search_user su = {search, m};
    tn_grid_walker w2;
    assert_int_equal(tn_grid_walker_init(&w2, m, (tn_cell){0, 0}, 4.0f, buf, 128), TN_OK);
    assert_int_equal(tn_grid_walker_init(&wk, m, (tn_cell){0, 0}, 4.0f, buf + 128, 128), TN_OK);
    assert_int_equal(tn_grid_walker_set_destination(&w2, (tn_cell){12, 8}), TN_OK);
    assert_int_equal(tn_grid_walker_set_destination(&wk, (tn_cell){12, 8}), TN_OK);
    int steps_search = 0, steps_oracle = 0;
    for (int s = 0; s < 5000 && (w2.pending || w2.dir.x || w2.dir.y || s == 0);
         s++, steps_search++) {
        assert_int_equal(tn_grid_walker_step(&w2, m, search_plan, &su), TN_OK);
        check_on_grid(&w2, m);
    }
    for (int s = 0; s < 5000 && (wk.pending || wk.dir.x || wk.dir.y || s == 0); s++, steps_oracle++)
        assert_int_equal(tn_grid_walker_step(&wk, m, bfs_plan, &u), TN_OK);
    assert_true(w2.cell.x == 12 && w2.cell.y == 8 && tn_grid_walker_aligned(&w2, m));
    assert_int_equal(steps_search, steps_oracle); /* both shortest: same number of steps */
    tn_search_destroy(search);

    /* unreachable destination: stops */
    const char *walled[] = {"..#..", "..#..", "..#.."};
    tn_map *m2 = tn_test_map_from_rows(walled, 3);
    bfs_user u2 = {m2, 0};
    assert_int_equal(tn_grid_walker_init(&wk, m2, (tn_cell){0, 0}, 4.0f, buf, 256), TN_OK);
    assert_int_equal(tn_grid_walker_set_destination(&wk, (tn_cell){4, 2}), TN_OK);
    assert_int_equal(tn_grid_walker_step(&wk, m2, bfs_plan, &u2), TN_OK);
    assert_true(wk.dir.x == 0 && wk.dir.y == 0);
    assert_int_equal(tn_grid_walker_init(&wk, m2, (tn_cell){2, 0}, 4.0f, buf, 256),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_grid_walker_init(&wk, m2, (tn_cell){0, 0}, 0.0f, buf, 256),
                     TN_E_INVALID_ARG);
    tn_map_destroy(m2);
    tn_map_destroy(m);
}

static void test_grid_wanderer(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(16, 12, 0.25, 4);
    assert_int_equal(tn_map_set(m, 0, 5, 5, 0), TN_OK);
    tn_grid_walker a, b;
    assert_int_equal(tn_grid_walker_init(&a, m, (tn_cell){5, 5}, 2.0f, NULL, 0), TN_OK);
    assert_int_equal(tn_grid_walker_init(&b, m, (tn_cell){5, 5}, 2.0f, NULL, 0), TN_OK);
    tn_rng ra = tn_rng_seed(1), rb = tn_rng_seed(1);
    int turns = 0, cells = 0;
    tn_cell last = a.cell, ld = a.dir;
    for (int s = 0; s < 20000; s++) {
        bool al = tn_grid_walker_aligned(&a, m);
        assert_int_equal(tn_grid_wander_step(&a, m, &ra), TN_OK);
        assert_int_equal(tn_grid_wander_step(&b, m, &rb), TN_OK);
        assert_true(a.pos.x == b.pos.x && a.pos.y == b.pos.y); /* same seed, same walk */
        check_on_grid(&a, m);
        /* speed 2 divides 32: a direction change happens only from a cell centre */
        if (a.dir.x != ld.x || a.dir.y != ld.y) {
            assert_true(al);
            turns++;
        }
        ld = a.dir;
        if (a.cell.x != last.x || a.cell.y != last.y) {
            /* moved to a 4-neighbour */
            assert_int_equal(abs(a.cell.x - last.x) + abs(a.cell.y - last.y), 1);
            cells++;
            last = a.cell;
        }
    }
    assert_true(cells > 500 && turns > 50);
    /* edges: a one-row corridor. Moving right at the last cell reverses. */
    const char *row[] = {"......"};
    tn_map *c = tn_test_map_from_rows(row, 1);
    tn_grid_walker w;
    assert_int_equal(tn_grid_walker_init(&w, c, (tn_cell){5, 0}, 32.0f, NULL, 0), TN_OK);
    w.dir = (tn_cell){1, 0};
    tn_rng r = tn_rng_seed(3);
    assert_int_equal(tn_grid_wander_step(&w, c, &r), TN_OK);
    assert_true(w.dir.x == -1 && w.cell.x == 4);
    for (int s = 0; s < 500; s++) {
        assert_int_equal(tn_grid_wander_step(&w, c, &r), TN_OK);
        assert_true(w.cell.x >= 0 && w.cell.x < 6 && w.cell.y == 0);
    }
    assert_int_equal(tn_grid_wander_step(&w, c, NULL), TN_E_INVALID_ARG);
    tn_map_destroy(c);
    tn_map_destroy(m);
}

/* ---- the AI car ---------------------------------------------------------------------------------
 */

/* The book's 10x8 track (1 grass, 2 track) and its angle layer (the one added to the world). */
static const int track[80] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2,
    2, 2, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 2,
    2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};
static const float angles[80] = {
    45,  45,  45,  45,  45,  45,  45,  45,  135, 135, 315, 0,   0,   0,   0,   0,
    0,   90,  135, 135, 315, 0,   0,   0,   0,   0,   0,   90,  135, 135, 315, 315,
    270, 315, 315, 315, 315, 90,  90,  135, 315, 315, 270, 135, 135, 135, 135, 90,
    90,  135, 315, 315, 270, 180, 180, 180, 180, 180, 180, 135, 315, 315, 270, 180,
    180, 180, 180, 180, 180, 135, 315, 270, 270, 225, 225, 225, 225, 225, 225, 225,
};
/* The first listing in the text has 225 instead of 180 at (8,5) and (8,6). */
static float angles_first[80];

static int quadrant(tn_vec2 p)
{
    int cx = (int)floorf(p.x / 64.0f), cy = (int)floorf(p.y / 64.0f);
    return (cy < 4 ? 0 : 2) + (cx < 5 ? (cy < 4 ? 0 : 1) : (cy < 4 ? 1 : 0));
}

/* A 10 x 8 direction map holding `angle` per cell (the caller destroys it). */
static tn_dirmap *headings_of(const float *angle)
{
    tn_dirmap_def d = tn_dirmap_def_default();
    d.width = 10;
    d.height = 8;
    tn_dirmap *m = NULL;
    assert_int_equal(tn_dirmap_create(&d, &m), TN_OK);
    for (int i = 0; i < 80; i++)
        assert_int_equal(tn_dirmap_set(m, i % 10, i / 10, angle[i]), TN_OK);
    return m;
}

static int drive_laps(const float *angle_layer, uint64_t seed, int jitter, int max_steps,
                      int *worst_grass)
{
    float fr[80];
    for (int i = 0; i < 80; i++)
        fr[i] = track[i] == 1 ? 0.25f : 0.96f;
    tn_dirmap *hd = headings_of(angle_layer);
    tn_car_track dm = {hd, fr, 64.0f, 64.0f};
    tn_car_def def = tn_car_def_default();
    def.jitter_deg = jitter;
    tn_car car;
    /* the AI car's cell in the book: column 2, row 2 */
    assert_int_equal(tn_car_init(&car, &def, (tn_vec2){2 * 64 + 32, 2 * 64 + 32}, 0.0f), TN_OK);
    tn_rng rng = tn_rng_seed(seed);
    /* clockwise on screen: top-left (0) -> top-right (1) -> bottom-right (2) -> bottom-left (3) */
    int q = quadrant(car.pos), laps = 0, grass = 0;
    *worst_grass = 0;
    for (int s = 0; s < max_steps && laps < 10; s++) {
        assert_int_equal(tn_car_step(&car, &def, &dm, &rng), TN_OK);
        int nq = quadrant(car.pos);
        if (nq == (q + 1) % 4) {
            if (nq == 0)
                laps++;
            q = nq;
        }
        int cx = (int)floorf(car.pos.x / 64.0f), cy = (int)floorf(car.pos.y / 64.0f);
        assert_true(cx >= 0 && cx < 10 && cy >= 0 && cy < 8); /* never leaves the map */
        grass = track[cy * 10 + cx] == 1 ? grass + 1 : 0;
        *worst_grass = grass > *worst_grass ? grass : *worst_grass;
    }
    tn_dirmap_destroy(hd);
    return laps;
}

static void test_car(void **state)
{
    (void)state;
    /* one step by hand: at rest, heading 0 on a 0-degree cell, no jitter:
     * speed 0.08, vel = 0.08 * (1,0) * 0.96 = (0.0768, 0) */
    float fr[80];
    for (int i = 0; i < 80; i++)
        fr[i] = track[i] == 1 ? 0.25f : 0.96f;
    tn_dirmap *hd = headings_of(angles);
    tn_car_track dm = {hd, fr, 64.0f, 64.0f};
    tn_car_def def = tn_car_def_default();
    def.jitter_deg = 0;
    tn_car car;
    assert_int_equal(tn_car_init(&car, &def, (tn_vec2){96, 96}, 0.0f), TN_OK);
    assert_int_equal(tn_car_step(&car, &def, &dm, NULL), TN_OK);
    assert_true(fabsf(car.speed - 0.08f) < 1e-6f);
    assert_true(fabsf(car.vel.x - 0.0768f) < 1e-6f && car.vel.y == 0.0f);
    assert_true(fabsf(car.pos.x - 96.0768f) < 1e-4f);
    /* on a 90-degree cell it turns by the turn rate towards +y (the short way) */
    assert_int_equal(tn_car_init(&car, &def, (tn_vec2){7 * 64 + 32, 96}, 0.0f), TN_OK);
    assert_int_equal(tn_car_step(&car, &def, &dm, NULL), TN_OK);
    assert_true(fabsf(car.rotation - 0.03f) < 1e-6f);
    /* from 350 degrees towards 10 it turns up through 360, not back round */
    float a10[80];
    for (int i = 0; i < 80; i++)
        a10[i] = 10.0f;
    tn_dirmap *h10 = headings_of(a10);
    tn_car_track d10 = {h10, fr, 64.0f, 64.0f};
    assert_int_equal(tn_car_init(&car, &def, (tn_vec2){96, 96}, 350.0f * 3.14159265f / 180.0f),
                     TN_OK);
    float r0 = car.rotation;
    assert_int_equal(tn_car_step(&car, &def, &d10, NULL), TN_OK);
    assert_true(car.rotation > r0);
    assert_int_equal(tn_car_step(&car, &def, NULL, NULL), TN_E_INVALID_ARG);
    def.jitter_deg = 20;
    assert_int_equal(tn_car_step(&car, &def, &dm, NULL), TN_E_INVALID_ARG);
    def.jitter_deg = 0;
    tn_car_track bad = dm;
    bad.cell_width = 0.0f;
    assert_int_equal(tn_car_step(&car, &def, &bad, NULL), TN_E_INVALID_ARG);
    bad = dm;
    bad.headings = NULL;
    assert_int_equal(tn_car_step(&car, &def, &bad, NULL), TN_E_INVALID_ARG);
    /* a cell without a heading keeps the aim; without friction the velocity is not damped */
    tn_dirmap *none = headings_of(a10);
    assert_int_equal(tn_dirmap_set(none, 1, 1, NAN), TN_OK);
    tn_car_track open_track = {none, NULL, 64.0f, 64.0f};
    assert_int_equal(tn_car_init(&car, &def, (tn_vec2){96, 96}, 1.0f), TN_OK);
    assert_int_equal(tn_car_step(&car, &def, &open_track, NULL), TN_OK);
    assert_true(car.rotation == 1.0f && !car.has_map_angle); /* nothing to aim at yet */
    assert_true(car.friction == 1.0f);                       /* no friction array: 1 */
    assert_int_equal(tn_car_init(&car, &def, (tn_vec2){2 * 64 + 32, 96}, 0.0f), TN_OK);
    assert_int_equal(tn_car_step(&car, &def, &open_track, NULL), TN_OK); /* cell (2,1): 10 deg */
    assert_true(car.has_map_angle && car.target_deg == 10.0f);
    car.pos = (tn_vec2){96, 96}; /* onto the cell without a heading */
    assert_int_equal(tn_car_step(&car, &def, &open_track, NULL), TN_OK);
    assert_true(car.target_deg == 10.0f);
    tn_dirmap_destroy(none);
    tn_dirmap_destroy(hd);
    tn_dirmap_destroy(h10);

    for (int i = 0; i < 80; i++)
        angles_first[i] = angles[i];
    angles_first[5 * 10 + 8] = 225.0f;
    angles_first[6 * 10 + 8] = 225.0f;
    /* ten laps, with the book's +-20 degree variation, several seeds, both angle layers */
    for (uint64_t seed = 1; seed <= 6; seed++) {
        int worst;
        int laps = drive_laps(seed % 2 ? angles : angles_first, seed, 20, 20000, &worst);
        if (laps < 10)
            fail_msg("seed %llu: %d laps", (unsigned long long)seed, laps);
        assert_true(worst < 200); /* never stuck in the grass */
    }
    int worst;
    assert_int_equal(drive_laps(angles, 1, 0, 20000, &worst), 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follower_hand),
        cmocka_unit_test(test_follower_random),
        cmocka_unit_test(test_follower_smoothing),
        cmocka_unit_test(test_follow_path_force),
        cmocka_unit_test(test_grid_walker),
        cmocka_unit_test(test_grid_wanderer),
        cmocka_unit_test(test_car),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
