/* Goal bounds: the boxes against the brute-force Dijkstra of tests/oracle (every box move is a
 * shortest first move to the box's extreme cells' region, every reachable cell is covered by a
 * box of an optimal first move), JPS and JPS+ with bounds against the oracle's costs on seeded
 * random maps (exact and 10/14 costs), and the error cases. */
#include "oracle.h"
#include "support.h"
#include "tilenav/goal_bounds.h"
#include "tilenav/search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int8_t DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int8_t DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
/* The test numbers moves as above (straight first); the API takes a tn_dir. */
static const tn_dir DIR_OF[8] = {TN_DIR_E,  TN_DIR_W,  TN_DIR_S,  TN_DIR_N,
                                 TN_DIR_SE, TN_DIR_NE, TN_DIR_SW, TN_DIR_NW};

static tn_status box_of(const tn_goal_bounds *gb, int32_t x, int32_t y, int move, tn_rect *r)
{
    return tn_goal_bounds_box(gb, x, y, DIR_OF[move], r);
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (1.0 + fabs(b));
}

static bool in_rect(tn_rect r, int32_t x, int32_t y)
{
    return x >= r.x0 && y >= r.y0 && x < r.x1 && y < r.y1;
}

/* Oracle distances from every cell (the graph is symmetric on a map of uniform cost). */
static double *all_pairs(const tn_map *m, const tn_moves *mv)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), n = w * h;
    double *d = malloc((size_t)n * (size_t)n * sizeof *d);
    assert_non_null(d);
    for (int32_t i = 0; i < n; i++) {
        tn_cell c = {i % w, i / w};
        tn_oracle_dijkstra(m, mv, NULL, &c, 1, false, d + (size_t)i * (size_t)n);
    }
    return d;
}

/* Is move `dir` from cell a the first step of some shortest path to cell b? */
static bool optimal_first(const tn_map *m, const tn_moves *mv, const double *d, int32_t a,
                          int32_t b, int dir)
{
    int32_t w = tn_map_width(m), n = w * tn_map_height(m);
    tn_cell ca = {a % w, a / w}, nb = {ca.x + DX[dir], ca.y + DY[dir]};
    if (!tn_oracle_step_ok(m, mv, ca, nb))
        return false;
    double step = tn_oracle_step_cost(m, mv, NULL, ca, nb);
    double via = step + d[(size_t)(nb.y * w + nb.x) * (size_t)n + (size_t)b];
    return isfinite(via) && close_to(via, d[(size_t)a * (size_t)n + (size_t)b]);
}

/* For every cell and move: the box lies inside the box of all cells the move starts a shortest
 * path to (so a box never admits a move that starts no shortest path to its corners' region),
 * and every cell reachable from the cell lies in the box of at least one move that starts a
 * shortest path to it. */
static void check_boxes(const tn_map *m, const tn_moves *mv, const tn_goal_bounds *gb)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), n = w * h;
    double *d = all_pairs(m, mv);
    for (int32_t a = 0; a < n; a++) {
        int32_t ax = a % w, ay = a / w;
        tn_rect box[8];
        for (int dir = 0; dir < 8; dir++)
            assert_int_equal(box_of(gb, ax, ay, dir, &box[dir]), TN_OK);
        if (!tn_map_passable(m, ax, ay)) {
            for (int dir = 0; dir < 8; dir++)
                assert_true(box[dir].x0 >= box[dir].x1);
            continue;
        }
        tn_rect all[8];
        for (int dir = 0; dir < 8; dir++)
            all[dir] = (tn_rect){w, h, 0, 0};
        for (int32_t b = 0; b < n; b++) {
            if (b == a || !isfinite(d[(size_t)a * (size_t)n + (size_t)b]))
                continue;
            int32_t bx = b % w, by = b / w;
            bool covered = false;
            for (int dir = 0; dir < 8; dir++) {
                if (!optimal_first(m, mv, d, a, b, dir))
                    continue;
                covered = covered || in_rect(box[dir], bx, by);
                all[dir].x0 = bx < all[dir].x0 ? bx : all[dir].x0;
                all[dir].y0 = by < all[dir].y0 ? by : all[dir].y0;
                all[dir].x1 = bx + 1 > all[dir].x1 ? bx + 1 : all[dir].x1;
                all[dir].y1 = by + 1 > all[dir].y1 ? by + 1 : all[dir].y1;
            }
            if (!covered) {
                printf("cell (%d, %d) not covered from (%d, %d)\n", bx, by, ax, ay);
                fail();
            }
        }
        for (int dir = 0; dir < 8; dir++) {
            tn_rect r = box[dir];
            if (r.x0 >= r.x1)
                continue;
            assert_true(r.x0 >= all[dir].x0 && r.y0 >= all[dir].y0 && r.x1 <= all[dir].x1 &&
                        r.y1 <= all[dir].y1);
        }
    }
    free(d);
}

/* Canonical paths, written from the JPS rules (8 neighbours, no corner cutting): after a
 * straight step, the same step, plus for each side whose cell is free while the side cell
 * behind is blocked, the side step and the diagonal towards it; after a diagonal step, its two
 * straight parts and itself. Distances from the state (cell c, arrived by move arr) to every
 * cell over canonical paths only, by a plain O(V^2) Dijkstra over (cell, arrival) states. */
static bool pass_at(const tn_map *m, int32_t x, int32_t y)
{
    return tn_map_passable(m, x, y);
}

static int dir_index(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (DX[d] == dx && DY[d] == dy)
            return d;
    return -1;
}

static unsigned canonical_next(const tn_map *m, int32_t x, int32_t y, int arr)
{
    int dx = DX[arr], dy = DY[arr];
    unsigned set = 0;
    if (dx && dy)
        return 1u << dir_index(dx, 0) | 1u << dir_index(0, dy) | 1u << arr;
    set |= 1u << arr;
    for (int side = -1; side <= 1; side += 2) {
        int sx = dx ? 0 : side, sy = dx ? side : 0; /* perpendicular */
        if (pass_at(m, x + sx, y + sy) && !pass_at(m, x + sx - dx, y + sy - dy))
            set |= 1u << dir_index(sx, sy) | 1u << dir_index(dx + sx, dy + sy);
    }
    return set;
}

static void canonical_dist(const tn_map *m, const tn_moves *mv, tn_cell c, int arr, double *out)
{
    int32_t w = tn_map_width(m), n = w * tn_map_height(m);
    double *d = malloc((size_t)n * 8 * sizeof *d);
    bool *done = calloc((size_t)n * 8, 1);
    assert_true(d && done);
    for (int32_t i = 0; i < n * 8; i++)
        d[i] = (double)INFINITY;
    for (int32_t i = 0; i < n; i++)
        out[i] = (double)INFINITY;
    d[(c.y * w + c.x) * 8 + arr] = 0.0;
    for (;;) {
        int32_t best = -1;
        for (int32_t i = 0; i < n * 8; i++)
            if (!done[i] && isfinite(d[i]) && (best < 0 || d[i] < d[best]))
                best = i;
        if (best < 0)
            break;
        done[best] = true;
        int32_t cell = best / 8, a = best % 8;
        tn_cell p = {cell % w, cell / w};
        out[cell] = d[best] < out[cell] ? d[best] : out[cell];
        unsigned next = canonical_next(m, p.x, p.y, a);
        for (int k = 0; k < 8; k++) {
            tn_cell q = {p.x + DX[k], p.y + DY[k]};
            if (!(next >> k & 1u) || !tn_oracle_step_ok(m, mv, p, q))
                continue;
            int32_t j = (q.y * w + q.x) * 8 + k;
            double nd = d[best] + tn_oracle_step_cost(m, mv, NULL, p, q);
            if (nd < d[j])
                d[j] = nd;
        }
    }
    free(d);
    free(done);
}

/* Every move that begins a canonical shortest path from a cell to another has that other cell
 * in its box: the property that keeps JPS optimal when it prunes by the boxes. */
static void check_canonical_cover(const tn_map *m, const tn_moves *mv, const tn_goal_bounds *gb)
{
    int32_t w = tn_map_width(m), n = w * tn_map_height(m);
    double *d = all_pairs(m, mv);
    double *cd = malloc((size_t)n * sizeof *cd);
    int64_t checked = 0;
    for (int32_t a = 0; a < n; a++) {
        tn_cell ca = {a % w, a / w};
        if (!tn_map_passable(m, ca.x, ca.y))
            continue;
        for (int dir = 0; dir < 8; dir++) {
            tn_cell nb = {ca.x + DX[dir], ca.y + DY[dir]};
            if (!tn_oracle_step_ok(m, mv, ca, nb))
                continue;
            double step = tn_oracle_step_cost(m, mv, NULL, ca, nb);
            canonical_dist(m, mv, nb, dir, cd);
            tn_rect r;
            assert_int_equal(box_of(gb, ca.x, ca.y, dir, &r), TN_OK);
            for (int32_t b = 0; b < n; b++) {
                double want = d[(size_t)a * (size_t)n + (size_t)b];
                if (b == a || !isfinite(want) || !close_to(step + cd[b], want))
                    continue;
                checked++;
                if (!in_rect(r, b % w, b / w)) {
                    printf("(%d, %d) move %d: (%d, %d) outside its box\n", ca.x, ca.y, dir, b % w,
                           b / w);
                    fail();
                }
            }
        }
    }
    assert_true(checked > 0);
    free(cd);
    free(d);
}

/* Run `check` on the bounds of seeded random maps of the given sizes (wall probability
 * p_step * seed for seeds 1..3), with exact and 10/14 costs. */
typedef void (*bounds_check)(const tn_map *m, const tn_moves *mv, const tn_goal_bounds *gb);

static void on_random_maps(const int32_t (*sizes)[2], size_t nsizes, double p_step,
                           uint64_t seed_mul, bounds_check check)
{
    for (size_t k = 0; k < nsizes; k++)
        for (int costs = 0; costs < 2; costs++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                tn_map *m = tn_test_random_map(sizes[k][0], sizes[k][1], p_step * (double)seed,
                                               seed * seed_mul + k);
                tn_moves mv = {TN_DIAGONAL_NO_CUT, costs ? TN_COSTS_10_14 : TN_COSTS_EXACT};
                tn_goal_bounds *gb = NULL;
                assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
                assert_true(tn_goal_bounds_current(gb, m));
                assert_true(tn_goal_bounds_memory_bytes(gb) >=
                            (size_t)(sizes[k][0] * sizes[k][1]) * 64u);
                check(m, &mv, gb);
                tn_goal_bounds_destroy(gb);
                tn_map_destroy(m);
            }
}

static void test_boxes_hold_canonical_paths(void **state)
{
    (void)state;
    static const int32_t sizes[][2] = {{4, 3}, {8, 6}, {10, 7}, {3, 9}};
    on_random_maps(sizes, sizeof sizes / sizeof sizes[0], 0.1, 13, check_canonical_cover);
}

static void test_boxes_against_oracle(void **state)
{
    (void)state;
    static const int32_t sizes[][2] = {{1, 1}, {5, 1}, {1, 6}, {9, 7}, {16, 11}, {23, 9}};
    on_random_maps(sizes, sizeof sizes / sizeof sizes[0], 0.12, 7, check_boxes);
}

/* A handmade room with a pillar: the boxes of the cell left of the pillar. */
static void test_boxes_handmade(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ".....", /* */
        "..#..", /* */
        ".....", /* */
    };
    tn_map *m = tn_test_map_from_rows(rows, 3);
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    tn_goal_bounds *gb = NULL;
    assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
    tn_rect r;
    /* from (1, 1) east is blocked by the pillar: its box is empty */
    assert_int_equal(tn_goal_bounds_box(gb, 1, 1, TN_DIR_E, &r), TN_OK);
    assert_true(r.x0 >= r.x1);
    /* west reaches only (0, 1) canonically (diagonal moves cover the corners) */
    assert_int_equal(tn_goal_bounds_box(gb, 1, 1, TN_DIR_W, &r), TN_OK);
    assert_true(in_rect(r, 0, 1) && !in_rect(r, 3, 1));
    /* the far side of the pillar (3, 1) is reached through north or south */
    assert_int_equal(tn_goal_bounds_box(gb, 1, 1, TN_DIR_N, &r), TN_OK);
    bool north = in_rect(r, 3, 1);
    assert_int_equal(tn_goal_bounds_box(gb, 1, 1, TN_DIR_S, &r), TN_OK);
    assert_true(north && in_rect(r, 3, 1)); /* both, tied */
    /* a blocked cell has only empty boxes */
    for (int dir = 0; dir < 8; dir++) {
        assert_int_equal(box_of(gb, 2, 1, dir, &r), TN_OK);
        assert_true(r.x0 == 0 && r.x1 == 0 && r.y0 == 0 && r.y1 == 0);
    }
    tn_goal_bounds_destroy(gb);
    tn_map_destroy(m);
}

/* JPS and JPS+ with bounds return the oracle's cost on every query of seeded random maps, with
 * exact and 10/14 costs, and never expand more than without bounds on these maps by much. */
static void test_queries_with_bounds(void **state)
{
    (void)state;
    static const int32_t sizes[][2] = {{30, 20}, {64, 17}, {65, 40}, {41, 41}};
    tn_search_def sd = tn_search_def_default();
    sd.max_cells = 65 * 41;
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    int64_t with = 0, without = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int costs = 0; costs < 2; costs++) {
            int32_t w = sizes[k][0], h = sizes[k][1];
            tn_map *m = tn_test_random_map(w, h, 0.25, 100 + k * 2 + (uint64_t)costs);
            tn_moves mv = {TN_DIAGONAL_NO_CUT, costs ? TN_COSTS_10_14 : TN_COSTS_EXACT};
            tn_goal_bounds *gb = NULL;
            tn_jump_table *jt = NULL;
            assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
            assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
            tn_cell *path = malloc((size_t)(w * h) * sizeof *path);
            double *dist = malloc((size_t)(w * h) * sizeof *dist);
            tn_test_rng r = {k + 1};
            for (int q = 0; q < 60; q++) {
                tn_cell a = tn_test_random_open_cell(m, &r);
                tn_cell b = tn_test_random_open_cell(m, &r);
                tn_oracle_dijkstra(m, &mv, NULL, &a, 1, false, dist);
                double want = dist[b.y * w + b.x];
                for (int algo = 0; algo < 2; algo++) {
                    tn_query qu;
                    memset(&qu, 0, sizeof qu);
                    qu.moves = mv;
                    qu.algo = algo ? TN_ALGO_JPS_PLUS : TN_ALGO_JPS;
                    qu.jump_table = jt;
                    tn_search_result plain, res;
                    tn_status st0 = tn_search_path(s, m, a, b, &qu, path, w * h, &plain);
                    qu.goal_bounds = gb;
                    tn_status st = tn_search_path(s, m, a, b, &qu, path, w * h, &res);
                    assert_int_equal(st, st0);
                    if (!isfinite(want)) {
                        assert_int_equal(st, TN_NO_PATH);
                        continue;
                    }
                    assert_int_equal(st, TN_OK);
                    double c = tn_oracle_path_cost(m, &mv, NULL, path, res.length, a, b);
                    if (!close_to(c, want) || !close_to(res.cost, want)) {
                        printf("%dx%d costs %d algo %d (%d,%d)->(%d,%d): %g, want %g\n", w, h,
                               costs, algo, a.x, a.y, b.x, b.y, c, want);
                        fail();
                    }
                    with += res.expanded;
                    without += plain.expanded;
                }
            }
            free(path);
            free(dist);
            tn_jump_table_destroy(jt);
            tn_goal_bounds_destroy(gb);
            tn_map_destroy(m);
        }
    tn_search_destroy(s);
    assert_true(with < without); /* the bounds prune */
}

static void *no_alloc(size_t size, size_t align, void *user)
{
    (void)size;
    (void)align;
    (void)user;
    return NULL;
}

static void test_errors(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(12, 8, 0.2, 5);
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    tn_goal_bounds *gb = (tn_goal_bounds *)&mv; /* must be cleared on failure */
    assert_int_equal(tn_test_goal_bounds(NULL, &mv, &gb), TN_E_INVALID_ARG);
    assert_null(gb);
    tn_goal_bounds_def gd = tn_goal_bounds_def_default();
    gd.map = m;
    assert_int_equal(tn_goal_bounds_build(NULL, &gb), TN_E_INVALID_ARG);
    assert_int_equal(tn_goal_bounds_build(&gd, NULL), TN_E_INVALID_ARG);
    tn_goal_bounds_def nocookie = gd;
    nocookie.internal_cookie = 0;
    assert_int_equal(tn_goal_bounds_build(&nocookie, &gb), TN_E_INVALID_ARG);
    tn_moves bad = {(tn_diagonal)9, TN_COSTS_EXACT};
    assert_int_equal(tn_test_goal_bounds(m, &bad, &gb), TN_E_INVALID_ARG);
    tn_allocator half = {no_alloc, NULL, NULL};
    gd.allocator = half;
    assert_int_equal(tn_goal_bounds_build(&gd, &gb), TN_E_INVALID_ARG);
    tn_moves cut = {TN_DIAGONAL_ONE, TN_COSTS_EXACT};
    assert_int_equal(tn_test_goal_bounds(m, &cut, &gb), TN_E_UNSUPPORTED);
    tn_moves four = {TN_DIAGONAL_NEVER, TN_COSTS_EXACT};
    assert_int_equal(tn_test_goal_bounds(m, &four, &gb), TN_E_UNSUPPORTED);
    /* terrain costs other than 1 */
    tn_map *mud = tn_test_random_map(12, 8, 0.0, 6);
    assert_int_equal(tn_map_set(mud, 0, 3, 3, 2), TN_OK);
    assert_int_equal(tn_test_goal_bounds(mud, &mv, &gb), TN_E_UNSUPPORTED);
    tn_map_destroy(mud);

    assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
    tn_rect r;
    assert_int_equal(tn_goal_bounds_box(NULL, 0, 0, TN_DIR_E, &r), TN_E_INVALID_ARG);
    assert_int_equal(tn_goal_bounds_box(gb, 0, 0, (tn_dir)8, &r), TN_E_INVALID_ARG);
    assert_int_equal(tn_goal_bounds_box(gb, 0, 0, TN_DIR_NONE, &r), TN_E_INVALID_ARG);
    assert_int_equal(tn_goal_bounds_box(gb, 0, 0, TN_DIR_E, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_goal_bounds_box(gb, 12, 0, TN_DIR_E, &r), TN_E_OUT_OF_MAP);
    assert_int_equal(tn_goal_bounds_box(gb, 0, -1, TN_DIR_E, &r), TN_E_OUT_OF_MAP);
    assert_false(tn_goal_bounds_current(NULL, m));
    assert_false(tn_goal_bounds_current(gb, NULL));
    assert_int_equal(tn_goal_bounds_memory_bytes(NULL), 0);

    /* queries: other moves, a changed map; A* ignores the bounds */
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    tn_cell path[96], a = {0, 0}, b = {11, 7};
    assert_int_equal(tn_map_set(m, 0, 0, 0, 0), TN_OK);
    assert_int_equal(tn_map_set(m, 0, 11, 7, 0), TN_OK);
    tn_goal_bounds_destroy(gb);
    assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = TN_ALGO_JPS;
    q.goal_bounds = gb;
    tn_search_result res;
    tn_status ok = tn_search_path(s, m, a, b, &q, path, 96, &res);
    assert_true(ok == TN_OK || ok == TN_NO_PATH);
    q.moves.costs = TN_COSTS_10_14;
    assert_int_equal(tn_search_path(s, m, a, b, &q, path, 96, &res), TN_E_INVALID_ARG);
    q.moves.costs = TN_COSTS_EXACT;
    q.algo = TN_ALGO_ASTAR;
    assert_int_equal(tn_search_path(s, m, a, b, &q, path, 96, &res), ok);
    q.algo = TN_ALGO_JPS;
    uint32_t gid = tn_map_passable(m, 5, 4) ? 1u : 0u;
    assert_int_equal(tn_map_set(m, 0, 5, 4, gid), TN_OK);
    assert_false(tn_goal_bounds_current(gb, m));
    assert_int_equal(tn_search_path(s, m, a, b, &q, path, 96, &res), TN_E_MAP_CHANGED);
    tn_search_destroy(s);
    tn_goal_bounds_destroy(gb);
    tn_goal_bounds_destroy(NULL);
    tn_map_destroy(m);
}

/* The same map gives the same boxes. */
static void test_deterministic(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(37, 23, 0.3, 9);
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    tn_goal_bounds *g1 = NULL, *g2 = NULL;
    assert_int_equal(tn_test_goal_bounds(m, &mv, &g1), TN_OK);
    assert_int_equal(tn_test_goal_bounds(m, &mv, &g2), TN_OK);
    for (int32_t y = 0; y < 23; y++)
        for (int32_t x = 0; x < 37; x++)
            for (int dir = 0; dir < 8; dir++) {
                tn_rect r1, r2;
                assert_int_equal(box_of(g1, x, y, dir, &r1), TN_OK);
                assert_int_equal(box_of(g2, x, y, dir, &r2), TN_OK);
                assert_memory_equal(&r1, &r2, sizeof r1);
            }
    tn_goal_bounds_destroy(g1);
    tn_goal_bounds_destroy(g2);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boxes_against_oracle),
        cmocka_unit_test(test_boxes_hold_canonical_paths),
        cmocka_unit_test(test_boxes_handmade),
        cmocka_unit_test(test_queries_with_bounds),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
