/* Several threads query one shared map at once, each with its own search context (sharing one
 * jump table and one set of goal bounds); every result must equal the single-threaded one. Run
 * under ThreadSanitizer in CI. */
#include "support.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 4
#define NQUERIES 300
#define W 96
#define H 80

typedef struct answer {
    tn_status st;
    int32_t length;
    int64_t expanded;
    double cost;
    uint64_t hash;
} answer;

typedef struct job {
    const tn_map *map;
    const tn_jump_table *table;   /* shared, read-only */
    const tn_goal_bounds *bounds; /* shared, read-only */
    const tn_cell *starts, *goals;
    answer out[NQUERIES];
    int ok;
} job;

static uint64_t hash_cells(const tn_cell *c, int32_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (int32_t i = 0; i < n; i++) {
        h = (h ^ (uint32_t)c[i].x) * 1099511628211ull;
        h = (h ^ (uint32_t)c[i].y) * 1099511628211ull;
    }
    return h;
}

static void run_queries(job *j)
{
    tn_search_def d = tn_search_def_default();
    d.max_cells = W * H;
    tn_search *s = NULL;
    tn_cell *path = malloc(sizeof(tn_cell) * W * H);
    if (tn_search_create(&d, &s) != TN_OK || !path) {
        free(path);
        return;
    }
    double *dist = malloc(sizeof(double) * W * H);
    for (int k = 0; k < NQUERIES; k++) {
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = (tn_algo)(k % 4);
        q.jump_table = j->table;
        q.closest = k % 11 == 0;
        if (k % 3 == 0)
            q.goal_bounds = j->bounds; /* used by JPS and JPS+, ignored by the others */
        tn_search_result res;
        memset(&res, 0, sizeof res);
        answer *a = &j->out[k];
        if (k % 17 == 0 && q.algo == TN_ALGO_JPS) {
            /* sliced */
            a->st = tn_search_begin(s, j->map, j->starts[k], &j->goals[k], 1, &q);
            while (a->st == TN_IN_PROGRESS)
                a->st = tn_search_step(s, 13);
            tn_status g = tn_search_get_path(s, path, W * H, &res);
            (void)g;
        } else {
            a->st = tn_search_path(s, j->map, j->starts[k], j->goals[k], &q, path, W * H, &res);
        }
        a->length = res.length;
        a->expanded = res.expanded;
        a->cost = res.cost;
        a->hash = a->st >= 0 ? hash_cells(path, res.length) : 0;
        if (k % 50 == 0 && dist) {
            tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
            tn_status ds = tn_search_distances(s, j->map, &j->starts[k], 1, &mv, NULL, false, dist,
                                               (size_t)(W * H));
            a->hash ^= ds == TN_OK ? (uint64_t)(dist[k % (W * H)] * 1024.0) : 7u;
        }
    }
    free(dist);
    free(path);
    tn_search_destroy(s);
    j->ok = 1;
}

static void *thread_main(void *arg)
{
    run_queries(arg);
    return NULL;
}

/* Every query of run_queries on `m` in NTHREADS threads equals the single-threaded run; goal
 * bounds are shared when `bounds` (maps of uniform cost only). Destroys `m`. */
static void threads_on(tn_map *m, bool bounds)
{
    assert_non_null(m);
    tn_cell *starts = malloc(sizeof(tn_cell) * NQUERIES),
            *goals = malloc(sizeof(tn_cell) * NQUERIES);
    tn_test_rng r = {99};
    for (int k = 0; k < NQUERIES; k++) {
        starts[k] = (tn_cell){(int32_t)tn_test_below(&r, W), (int32_t)tn_test_below(&r, H)};
        goals[k] = (tn_cell){(int32_t)tn_test_below(&r, W), (int32_t)tn_test_below(&r, H)};
    }
    job *ref = calloc(1, sizeof *ref);
    job *jobs = calloc(NTHREADS, sizeof *jobs);
    tn_jump_table *jt = NULL;
    assert_int_equal(tn_test_jump_table(m, &jt), TN_OK);
    tn_goal_bounds *gb = NULL;
    tn_moves mv = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    if (bounds)
        assert_int_equal(tn_test_goal_bounds(m, &mv, &gb), TN_OK);
    *ref = (job){.map = m, .table = jt, .bounds = gb, .starts = starts, .goals = goals};
    run_queries(ref);
    assert_true(ref->ok);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        jobs[t] = (job){.map = m, .table = jt, .bounds = gb, .starts = starts, .goals = goals};
        assert_int_equal(pthread_create(&th[t], NULL, thread_main, &jobs[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        assert_int_equal(pthread_join(th[t], NULL), 0);
    int found = 0;
    for (int t = 0; t < NTHREADS; t++) {
        assert_true(jobs[t].ok);
        for (int k = 0; k < NQUERIES; k++) {
            const answer *a = &jobs[t].out[k], *b = &ref->out[k];
            assert_int_equal(a->st, b->st);
            assert_int_equal(a->length, b->length);
            assert_int_equal(a->expanded, b->expanded);
            assert_true(a->cost == b->cost);
            assert_true(a->hash == b->hash);
            found += a->st == TN_OK;
        }
    }
    assert_true(found > NTHREADS * NQUERIES / 4);
    tn_jump_table_destroy(jt);
    tn_goal_bounds_destroy(gb);
    free(jobs);
    free(ref);
    free(starts);
    free(goals);
    tn_map_destroy(m);
}

static void test_threads_share_one_map(void **state)
{
    (void)state;
    threads_on(tn_test_random_map(W, H, 0.22, 12345), true);
}

/* The same on a weighted map (mud of cost 3 in square patches): weighted JPS's cache in each
 * context, the boundaries of the shared jump table. */
static void test_threads_share_one_weighted_map(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(W, H, 0.15, 6789);
    tn_test_rng r = {4242};
    for (int b = 0; b < 30; b++) {
        int32_t x0 = (int32_t)tn_test_below(&r, W), y0 = (int32_t)tn_test_below(&r, H);
        int32_t side = 2 + (int32_t)tn_test_below(&r, 8);
        for (int32_t y = y0; y < y0 + side && y < H; y++)
            for (int32_t x = x0; x < x0 + side && x < W; x++)
                if (tn_map_passable(m, x, y))
                    assert_int_equal(tn_map_set(m, 0, x, y, 2), TN_OK);
    }
    assert_false(tn_map_uniform_cost(m));
    threads_on(m, false);
}

/* A parallel loop on threads, one per range of the count (what a task system would do). */
typedef struct piece {
    tn_task task;
    void *ctx;
    int32_t b, e;
} piece;

static void *run_piece(void *arg)
{
    piece *p = arg;
    p->task(p->ctx, p->b, p->e);
    return NULL;
}

static void thread_for(tn_task task, void *ctx, int32_t count, void *user)
{
    (void)user;
    piece pc[8];
    pthread_t th[8];
    int32_t n = count < 8 ? count : 8;
    for (int32_t k = 0; k < n; k++)
        pc[k] = (piece){task, ctx, count * k / n, count * (k + 1) / n};
    for (int32_t k = 0; k < n; k++)
        assert_int_equal(pthread_create(&th[k], NULL, run_piece, &pc[k]), 0);
    for (int32_t k = 0; k < n; k++)
        pthread_join(th[k], NULL);
}

/* tn_search_batch with 1, 2, 3 and 5 contexts, on threads or not, equals one query at a time
 * on a fresh context: statuses, cells, costs and expansion counts; a short path buffer gives
 * its item TN_E_BUFFER_TOO_SMALL; bad arguments are refused. */
static void test_batch(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(W, H, 0.25, 77);
    tn_test_rng r = {5};
    enum { N = 120, CAP = W * H };
    tn_batch_item ref[N], items[N];
    tn_cell *refp = malloc(sizeof(tn_cell) * (size_t)N * CAP);
    tn_cell *paths = malloc(sizeof(tn_cell) * (size_t)N * CAP);
    assert_non_null(refp);
    assert_non_null(paths);
    tn_search *ctx[5];
    tn_search_def sd = tn_search_def_default();
    for (int k = 0; k < 5; k++)
        assert_int_equal(tn_search_create(&sd, &ctx[k]), TN_OK);
    for (int algo = 0; algo < 2; algo++) {
        tn_query q = {0};
        q.algo = algo ? TN_ALGO_JPS : TN_ALGO_ASTAR;
        for (int i = 0; i < N; i++) {
            ref[i].start = tn_test_random_open_cell(m, &r);
            ref[i].goal = i % 17 == 3 ? (tn_cell){-1, 0} : tn_test_random_open_cell(m, &r);
            tn_search *fresh = NULL;
            assert_int_equal(tn_search_create(&sd, &fresh), TN_OK);
            ref[i].status = tn_search_path(fresh, m, ref[i].start, ref[i].goal, &q,
                                           refp + (size_t)i * CAP, CAP, &ref[i].result);
            tn_search_destroy(fresh);
        }
        static const int32_t NCTX[] = {1, 2, 3, 5};
        for (int v = 0; v < 8; v++) {
            int32_t nc = NCTX[v % 4];
            for (int i = 0; i < N; i++)
                items[i] = (tn_batch_item){ref[i].start, ref[i].goal, TN_E_STATE, {0}};
            memset(paths, 0, sizeof(tn_cell) * (size_t)N * CAP);
            assert_int_equal(tn_search_batch(ctx, nc, m, &q, items, N, paths, CAP,
                                             v >= 4 ? thread_for : NULL, NULL),
                             TN_OK);
            for (int i = 0; i < N; i++) {
                assert_int_equal(items[i].status, ref[i].status);
                assert_int_equal(items[i].result.length, ref[i].result.length);
                assert_int_equal(items[i].result.expanded, ref[i].result.expanded);
                assert_true(items[i].result.cost == ref[i].result.cost);
                if (items[i].status == TN_OK)
                    assert_memory_equal(paths + (size_t)i * CAP, refp + (size_t)i * CAP,
                                        sizeof(tn_cell) * (size_t)ref[i].result.length);
            }
        }
    }
    /* a buffer too short for some paths */
    for (int i = 0; i < N; i++)
        items[i] = (tn_batch_item){ref[i].start, ref[i].goal, TN_E_STATE, {0}};
    assert_int_equal(tn_search_batch(ctx, 2, m, NULL, items, N, paths, 3, NULL, NULL), TN_OK);
    int short_ones = 0;
    for (int i = 0; i < N; i++)
        short_ones += items[i].status == TN_E_BUFFER_TOO_SMALL;
    assert_true(short_ones > 0);
    /* bad arguments */
    assert_int_equal(tn_search_batch(NULL, 1, m, NULL, items, N, paths, CAP, NULL, NULL),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_search_batch(ctx, 0, m, NULL, items, N, paths, CAP, NULL, NULL),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_search_batch(ctx, 1, m, NULL, items, -1, paths, CAP, NULL, NULL),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_search_batch(ctx, 1, m, NULL, items, N, NULL, CAP, NULL, NULL),
                     TN_E_INVALID_ARG);
    assert_int_equal(tn_search_batch(ctx, 1, m, NULL, items, 0, NULL, 0, NULL, NULL), TN_OK);
    tn_search *holes[2] = {ctx[0], NULL};
    assert_int_equal(tn_search_batch(holes, 2, m, NULL, items, N, paths, CAP, NULL, NULL),
                     TN_E_INVALID_ARG);
    for (int k = 0; k < 5; k++)
        tn_search_destroy(ctx[k]);
    free(refp);
    free(paths);
    tn_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_share_one_map),
        cmocka_unit_test(test_threads_share_one_weighted_map),
        cmocka_unit_test(test_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
