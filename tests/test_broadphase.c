/* Broad phases: every kind's pair set equals an all-pairs reference on handmade and seeded
 * random scenes (cell sizes, levels, objects straddling cells and the world's edges, negative
 * and huge coordinates, mixed sizes), after inserts, moves and removes; no duplicates or self
 * pairs; queries against a scan; handles, capacities and bad input. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 2048

/* The test's own copy of the objects: reference for every check. */
typedef struct scene {
    int32_t n;
    tn_box box[MAXN];
    tn_bp_id id[MAXN];
    bool alive[MAXN];
} scene;

typedef struct upair {
    uint32_t a, b;
} upair;

static int upair_cmp(const void *pa, const void *pb)
{
    const upair *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return 0;
}

static double urand_range(tn_test_rng *r, double lo, double hi)
{
    return lo + tn_test_u01(r) * (hi - lo);
}

static bool ref_overlap(tn_box a, tn_box b)
{
    return !(a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0);
}

/* All-pairs reference, sorted. */
static int64_t ref_pairs(const scene *s, upair *out)
{
    int64_t k = 0;
    for (int32_t i = 0; i < s->n; i++) {
        if (!s->alive[i])
            continue;
        for (int32_t j = i + 1; j < s->n; j++)
            if (s->alive[j] && ref_overlap(s->box[i], s->box[j]))
                out[k++] = (upair){(uint32_t)i, (uint32_t)j};
    }
    return k;
}

typedef struct collect {
    upair *out;
    int64_t n, cap;
    const scene *s;
    bool bad_id;
} collect;

static bool collect_fn(void *ctx, const tn_bp_pair *p)
{
    collect *c = ctx;
    assert_true(c->n < c->cap);
    uint32_t a = p->user_a, b = p->user_b;
    if (c->s->id[a].id != p->a.id || c->s->id[b].id != p->b.id)
        c->bad_id = true;
    c->out[c->n++] = a < b ? (upair){a, b} : (upair){b, a};
    return true;
}

static upair got_buf[MAXN * 64], want_buf[MAXN * 64];

/* The broad phase's pairs equal the reference: same set, no duplicates, no self pairs. */
static void check_pairs(const tn_bp *bp, const scene *s)
{
    collect c = {got_buf, 0, MAXN * 64, s, false};
    assert_int_equal(tn_bp_pairs(bp, collect_fn, &c), TN_OK);
    assert_false(c.bad_id);
    qsort(got_buf, (size_t)c.n, sizeof *got_buf, upair_cmp);
    for (int64_t i = 0; i < c.n; i++) {
        assert_true(got_buf[i].a != got_buf[i].b);
        if (i > 0)
            assert_true(upair_cmp(&got_buf[i - 1], &got_buf[i]) != 0); /* no duplicates */
    }
    int64_t want = ref_pairs(s, want_buf);
    if (c.n != want) {
        /* name the first difference to ease debugging */
        int64_t i = 0;
        while (i < c.n && i < want && upair_cmp(&got_buf[i], &want_buf[i]) == 0)
            i++;
        print_error("pairs: got %lld want %lld, first difference at %lld\n", (long long)c.n,
                    (long long)want, (long long)i);
    }
    assert_int_equal(c.n, want);
    assert_memory_equal(got_buf, want_buf, (size_t)want * sizeof *want_buf);
}

static tn_bp *make_bp(tn_bp_kind kind, int32_t cap, double cell, int32_t levels, tn_box world,
                      double frac)
{
    tn_bp_def d = tn_bp_def_default();
    d.kind = kind;
    d.capacity = cap;
    d.cell_size = cell;
    d.levels = levels;
    d.world = world;
    d.rebuild_fraction = frac;
    tn_bp *bp = NULL;
    assert_int_equal(tn_bp_create(&d, &bp), TN_OK);
    assert_non_null(bp);
    return bp;
}

/* A random box: position in [lo, hi), size from the mix; with probability `snap`, its edges
 * land exactly on multiples of `grid` (straddling and touching cells). */
static tn_box random_box(tn_test_rng *r, double lo, double hi, double max_size, double snap,
                         double grid)
{
    double w = tn_test_u01(r) * max_size, h = tn_test_u01(r) * max_size;
    if (tn_test_u01(r) < 0.1)
        w = h = max_size * 4.0; /* some large ones */
    if (tn_test_u01(r) < 0.05)
        w = h = 0.0; /* points */
    double x = lo + tn_test_u01(r) * (hi - lo), y = lo + tn_test_u01(r) * (hi - lo);
    if (tn_test_u01(r) < snap) {
        x = floor(x / grid) * grid;
        y = floor(y / grid) * grid;
        w = ceil(w / grid) * grid;
        h = ceil(h / grid) * grid;
    }
    tn_box b = {x, y, x + w, y + h};
    return b;
}

static void insert_all(tn_bp *bp, scene *s)
{
    for (int32_t i = 0; i < s->n; i++) {
        assert_int_equal(tn_bp_insert(bp, s->box[i], (uint32_t)i, &s->id[i]), TN_OK);
        assert_true(s->id[i].id != 0);
        s->alive[i] = true;
    }
}

typedef struct config {
    tn_bp_kind kind;
    double cell;
    int32_t levels;
    double lo, hi, max_size, frac;
} config;

/* Insert, check; then rounds of moves (a fraction of the objects, small and large jumps),
 * removes and re-inserts, checking after every update. */
static void run_scene(const config *cf, uint64_t seed, int32_t n)
{
    static scene s;
    memset(&s, 0, sizeof s);
    tn_test_rng r = {seed};
    s.n = n;
    tn_box world = {cf->lo, cf->lo, cf->hi, cf->hi};
    for (int32_t i = 0; i < n; i++)
        s.box[i] = random_box(&r, cf->lo - 20.0, cf->hi + 20.0, cf->max_size, 0.3, cf->cell);
    tn_bp *bp = make_bp(cf->kind, n, cf->cell, cf->levels, world, cf->frac);
    insert_all(bp, &s);
    assert_int_equal(tn_bp_pairs(bp, collect_fn, NULL), TN_E_STATE); /* not updated yet */
    assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
    check_pairs(bp, &s);
    static const double fractions[] = {0.01, 0.1, 1.0, 0.003};
    for (int round = 0; round < 8; round++) {
        double f = fractions[round % 4];
        for (int32_t i = 0; i < n; i++) {
            if (tn_test_u01(&r) >= f)
                continue;
            if (s.alive[i] && tn_test_u01(&r) < 0.05) {
                assert_int_equal(tn_bp_remove(bp, s.id[i]), TN_OK);
                s.alive[i] = false;
                continue;
            }
            tn_box b = s.box[i];
            double jump = tn_test_u01(&r) < 0.2 ? (cf->hi - cf->lo) * 0.3 : cf->cell * 0.4;
            double dx = (tn_test_u01(&r) * 2.0 - 1.0) * jump,
                   dy = (tn_test_u01(&r) * 2.0 - 1.0) * jump;
            if (tn_test_u01(&r) < 0.1) /* change size too */
                b = random_box(&r, cf->lo, cf->hi, cf->max_size, 0.5, cf->cell);
            else
                b = (tn_box){b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy};
            s.box[i] = b;
            if (s.alive[i]) {
                assert_int_equal(tn_bp_move(bp, s.id[i], b), TN_OK);
            } else {
                tn_bp_id old = s.id[i];
                assert_int_equal(tn_bp_insert(bp, b, (uint32_t)i, &s.id[i]), TN_OK);
                assert_true(s.id[i].id != old.id);
                s.alive[i] = true;
            }
        }
        tn_bp_stats st;
        assert_int_equal(tn_bp_update(bp, &st), TN_OK);
        int32_t live = 0;
        for (int32_t i = 0; i < n; i++)
            live += s.alive[i];
        assert_int_equal(st.count, live);
        assert_int_equal(tn_bp_count(bp), live);
        check_pairs(bp, &s);
    }
    tn_bp_destroy(bp);
}

static void test_pairs_handmade(void **state)
{
    (void)state;
    /* cells of 10 over [0, 100]: objects inside one cell, straddling a cell edge, touching
     * exactly at an edge (closed intervals count), across the world's edge, and one larger
     * than every cell */
    static scene s;
    memset(&s, 0, sizeof s);
    tn_box boxes[] = {
        {1, 1, 4, 4},     /* 0 */
        {3, 3, 6, 6},     /* 1: overlaps 0 */
        {6, 6, 9, 9},     /* 2: touches 1 at (6,6) */
        {9.5, 0, 12, 2},  /* 3: straddles x = 10 */
        {12, 2, 14, 3},   /* 4: touches 3 */
        {-5, -5, -1, -1}, /* 5: outside the world */
        {-2, -2, 1, 1},   /* 6: straddles the world's corner; touches 0 at (1,1) */
        {50, 50, 50, 50}, /* 7: a point */
        {20, 20, 80, 80}, /* 8: larger than any cell: overlaps 7 */
        {100, 100, 105, 101} /* 9: at the far edge */,
        {99, 99, 100, 100}, /* 10: touches 9 at the corner */
    };
    s.n = (int32_t)(sizeof boxes / sizeof boxes[0]);
    memcpy(s.box, boxes, sizeof boxes);
    tn_box world = {0, 0, 100, 100};
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH, TN_BP_SAP, TN_BP_BRUTE};
    for (int k = 0; k < 4; k++) {
        tn_bp *bp = make_bp(kinds[k], 16, 10.0, 1, world, 0.05);
        insert_all(bp, &s);
        tn_bp_stats st;
        assert_int_equal(tn_bp_update(bp, &st), TN_OK);
        if (kinds[k] == TN_BP_GRID || kinds[k] == TN_BP_HASH)
            assert_int_equal(st.big, 1); /* box 8 */
        check_pairs(bp, &s);
        /* the expected set by hand */
        int64_t n = 0;
        assert_int_equal(tn_bp_pairs_buf(bp, (tn_bp_pair *)want_buf, 0, &n), TN_E_BUFFER_TOO_SMALL);
        assert_int_equal(n, 7); /* 0-1, 1-2, 0-6, 3-4, 5-6, 7-8, 9-10 */
        tn_bp_destroy(bp);
    }
}

static void test_pairs_random_grid(void **state)
{
    (void)state;
    const double cells[] = {4.0, 10.0, 33.3, 100.0};
    for (int c = 0; c < 4; c++) {
        for (int32_t levels = 1; levels <= 3; levels += 2) {
            config cf = {TN_BP_GRID, cells[c], levels, 0.0, 500.0, 12.0, 0.05};
            run_scene(&cf, 100 + (uint64_t)c * 7 + (uint64_t)levels, 600);
        }
    }
    /* never rebuild on its own (all incremental), and always rebuild */
    config inc = {TN_BP_GRID, 16.0, 2, 0.0, 400.0, 10.0, 1e9};
    run_scene(&inc, 7, 800);
    config full = {TN_BP_GRID, 16.0, 2, 0.0, 400.0, 10.0, 0.0};
    run_scene(&full, 8, 800);
}

static void test_pairs_random_hash(void **state)
{
    (void)state;
    /* negative coordinates, a world far from the origin, and huge coordinates */
    config a = {TN_BP_HASH, 10.0, 1, -300.0, 300.0, 8.0, 0.05};
    run_scene(&a, 21, 700);
    config b = {TN_BP_HASH, 7.0, 3, -1e6 - 200.0, -1e6 + 200.0, 6.0, 0.1};
    run_scene(&b, 22, 700);
    /* far beyond the hashed grid's coordinate clamp (2^28 cells): all in one clamped cell */
    config c = {TN_BP_HASH, 1.0, 2, -1e10, -1e10 + 100.0, 0.2, 0.05};
    run_scene(&c, 23, 400);
    config d = {TN_BP_HASH, 25.0, 1, -100.0, 100.0, 30.0, 1e9};
    run_scene(&d, 24, 500);
}

static void test_pairs_random_sap_brute(void **state)
{
    (void)state;
    config a = {TN_BP_SAP, 1.0, 1, -200.0, 800.0, 40.0, 0.0};
    run_scene(&a, 31, 900);
    config b = {TN_BP_BRUTE, 1.0, 1, 0.0, 200.0, 10.0, 0.0};
    run_scene(&b, 32, 300);
    /* mixed sizes in a hierarchical grid */
    config c = {TN_BP_GRID, 2.0, 7, 0.0, 1000.0, 100.0, 0.05};
    run_scene(&c, 33, 900);
}

/* Objects of one size exactly on a lattice of pitch = size: every neighbour touches. */
/* The update picks the incremental path when few objects change cell and rebuilds when many
 * do; both give the reference pairs (and the loose list is used, then folded back). */
static void test_incremental_choice(void **state)
{
    (void)state;
    static scene s;
    memset(&s, 0, sizeof s);
    tn_test_rng r = {77};
    s.n = 1000;
    for (int32_t i = 0; i < s.n; i++) {
        double x = urand_range(&r, 0.0, 1000.0), y = urand_range(&r, 0.0, 1000.0);
        s.box[i] = (tn_box){x, y, x + 5.0, y + 5.0};
    }
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH};
    for (int k = 0; k < 2; k++) {
        tn_box world = {0, 0, 1000, 1000};
        tn_bp *bp = make_bp(kinds[k], s.n, 20.0, 1, world, 0.05);
        insert_all(bp, &s);
        tn_bp_stats st;
        assert_int_equal(tn_bp_update(bp, &st), TN_OK);
        assert_true(st.rebuilt);
        /* 10 objects jump far: incremental, 10 loose */
        for (int32_t i = 0; i < 10; i++) {
            s.box[i].x0 += 300.0;
            s.box[i].x1 += 300.0;
            assert_int_equal(tn_bp_move(bp, s.id[i], s.box[i]), TN_OK);
        }
        /* every object moves a little inside its cell: patched in place */
        for (int32_t i = 10; i < s.n; i++) {
            double c = s.box[i].x0 + 2.5, cell = floor(c / 20.0) * 20.0;
            double c2 = cell + 0.5 * (c - cell) + 5.0; /* the centre stays in its cell */
            s.box[i].x0 = c2 - 2.5;
            s.box[i].x1 = c2 + 2.5;
            assert_int_equal(tn_bp_move(bp, s.id[i], s.box[i]), TN_OK);
        }
        assert_int_equal(tn_bp_update(bp, &st), TN_OK);
        assert_false(st.rebuilt);
        assert_int_equal(st.loose, 10);
        check_pairs(bp, &s);
        /* half of them jump: rebuild, nothing loose */
        for (int32_t i = 0; i < s.n; i += 2) {
            s.box[i].y0 += 100.0;
            s.box[i].y1 += 100.0;
            assert_int_equal(tn_bp_move(bp, s.id[i], s.box[i]), TN_OK);
        }
        assert_int_equal(tn_bp_update(bp, &st), TN_OK);
        assert_true(st.rebuilt);
        assert_int_equal(st.loose, 0);
        check_pairs(bp, &s);
        tn_bp_destroy(bp);
    }
}

static void test_pairs_lattice(void **state)
{
    (void)state;
    static scene s;
    memset(&s, 0, sizeof s);
    int32_t side = 20;
    s.n = side * side;
    for (int32_t y = 0; y < side; y++)
        for (int32_t x = 0; x < side; x++)
            s.box[y * side + x] =
                (tn_box){x * 8.0 - 40.0, y * 8.0 - 40.0, x * 8.0 - 32.0, y * 8.0 - 32.0};
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH, TN_BP_SAP};
    double cells[] = {8.0, 8.0 * (1.0 + 1e-4), 16.0};
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            tn_box world = {-40.0, -40.0, 120.0, 120.0};
            tn_bp *bp = make_bp(kinds[k], s.n, cells[c], 2, world, 0.05);
            insert_all(bp, &s);
            assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
            check_pairs(bp, &s);
            /* (side-1)*side*2 edge neighbours + (side-1)^2*2 diagonal ones */
            int64_t n = 0;
            assert_int_equal(tn_bp_pairs_buf(bp, NULL, 0, &n), TN_E_BUFFER_TOO_SMALL);
            assert_int_equal(n, (side - 1) * side * 2 + (side - 1) * (side - 1) * 2);
            tn_bp_destroy(bp);
        }
}

typedef struct qcollect {
    uint32_t users[MAXN];
    int32_t n;
    int32_t stop_after;
} qcollect;

static bool qcollect_fn(void *ctx, tn_bp_id id, uint32_t user)
{
    (void)id;
    qcollect *q = ctx;
    q->users[q->n++] = user;
    return q->stop_after <= 0 || q->n < q->stop_after;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void test_queries(void **state)
{
    (void)state;
    static scene s;
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH, TN_BP_SAP, TN_BP_BRUTE};
    for (int k = 0; k < 4; k++) {
        memset(&s, 0, sizeof s);
        tn_test_rng r = {40 + (uint64_t)k};
        s.n = 500;
        for (int32_t i = 0; i < s.n; i++)
            s.box[i] = random_box(&r, -50.0, 350.0, 15.0, 0.3, 10.0);
        tn_box world = {0, 0, 300, 300};
        tn_bp *bp = make_bp(kinds[k], s.n, 10.0, 2, world, 0.05);
        insert_all(bp, &s);
        for (int phase = 0; phase < 2; phase++) {
            if (phase == 1) /* queries also answer between a move and the update */
                for (int32_t i = 0; i < 50; i++) {
                    s.box[i].x0 += 37.0;
                    s.box[i].x1 += 37.0;
                    assert_int_equal(tn_bp_move(bp, s.id[i], s.box[i]), TN_OK);
                }
            else
                assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
            for (int q = 0; q < 60; q++) {
                tn_box qb = random_box(&r, -60.0, 360.0, 80.0, 0.3, 10.0);
                double cx = qb.x0, cy = qb.y0, rad = tn_test_u01(&r) * 30.0;
                for (int kind = 0; kind < 3; kind++) {
                    qcollect got = {{0}, 0, 0};
                    uint32_t want[MAXN];
                    int32_t nw = 0;
                    tn_status st;
                    if (kind == 0)
                        st = tn_bp_query_box(bp, qb, qcollect_fn, &got);
                    else if (kind == 1)
                        st = tn_bp_query_point(bp, cx, cy, qcollect_fn, &got);
                    else
                        st = tn_bp_query_circle(bp, cx, cy, rad, qcollect_fn, &got);
                    assert_int_equal(st, TN_OK);
                    for (int32_t i = 0; i < s.n; i++) {
                        tn_box b = s.box[i];
                        bool hit;
                        if (kind == 0) {
                            hit = ref_overlap(b, qb);
                        } else if (kind == 1) {
                            hit = cx >= b.x0 && cx <= b.x1 && cy >= b.y0 && cy <= b.y1;
                        } else {
                            double dx = fmax(fmax(b.x0 - cx, 0.0), cx - b.x1);
                            double dy = fmax(fmax(b.y0 - cy, 0.0), cy - b.y1);
                            hit = dx * dx + dy * dy <= rad * rad;
                        }
                        if (hit)
                            want[nw++] = (uint32_t)i;
                    }
                    qsort(got.users, (size_t)got.n, sizeof got.users[0], u32_cmp);
                    assert_int_equal(got.n, nw);
                    assert_memory_equal(got.users, want, (size_t)nw * sizeof want[0]);
                }
                /* buffer form: exact length reported when short */
                tn_bp_id ids[8];
                int32_t len = -1;
                {
                    qcollect all = {{0}, 0, 0};
                    assert_int_equal(tn_bp_query_box(bp, qb, qcollect_fn, &all), TN_OK);
                    tn_status st2 = tn_bp_query_box_buf(bp, qb, ids, 8, &len);
                    assert_int_equal(len, all.n);
                    assert_int_equal(st2, all.n > 8 ? TN_E_BUFFER_TOO_SMALL : TN_OK);
                    if (all.n > 2) { /* early stop */
                        qcollect two = {{0}, 0, 2};
                        assert_int_equal(tn_bp_query_box(bp, qb, qcollect_fn, &two), TN_PARTIAL);
                        assert_int_equal(two.n, 2);
                    }
                }
            }
        }
        tn_bp_destroy(bp);
    }
}

static bool stop_first(void *ctx, const tn_bp_pair *p)
{
    (void)p;
    (*(int *)ctx)++;
    return false;
}

static void test_handles_and_capacity(void **state)
{
    (void)state;
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH, TN_BP_SAP, TN_BP_BRUTE};
    for (int k = 0; k < 4; k++) {
        tn_box world = {0, 0, 100, 100};
        tn_bp *bp = make_bp(kinds[k], 4, 10.0, 1, world, 0.05);
        tn_box b = {1, 1, 2, 2};
        tn_bp_id ids[5];
        for (int i = 0; i < 4; i++)
            assert_int_equal(tn_bp_insert(bp, b, (uint32_t)i, &ids[i]), TN_OK);
        assert_int_equal(tn_bp_insert(bp, b, 4, &ids[4]), TN_E_FULL);
        assert_int_equal(ids[4].id, 0u);
        assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
        /* 4 objects on one spot: 6 pairs; short buffer */
        tn_bp_pair buf[3];
        int64_t len = 0;
        assert_int_equal(tn_bp_pairs_buf(bp, buf, 3, &len), TN_E_BUFFER_TOO_SMALL);
        assert_int_equal(len, 6);
        assert_int_equal(tn_bp_pairs_buf(bp, buf, -1, &len), TN_E_INVALID_ARG);
        int calls = 0;
        assert_int_equal(tn_bp_pairs(bp, stop_first, &calls), TN_PARTIAL);
        assert_int_equal(calls, 1);
        /* stale handles */
        tn_bp_id zero = {0}, wild = {0xFFFFFFFFu};
        assert_int_equal(tn_bp_move(bp, zero, b), TN_E_STALE_ID);
        assert_int_equal(tn_bp_remove(bp, wild), TN_E_STALE_ID);
        assert_int_equal(tn_bp_remove(bp, ids[1]), TN_OK);
        assert_int_equal(tn_bp_remove(bp, ids[1]), TN_E_STALE_ID);
        assert_int_equal(tn_bp_move(bp, ids[1], b), TN_E_STALE_ID);
        assert_int_equal(tn_bp_get(bp, ids[1], NULL, NULL), TN_E_STALE_ID);
        tn_bp_id again;
        assert_int_equal(tn_bp_insert(bp, b, 9, &again), TN_OK); /* reuses the slot */
        assert_true(again.id != ids[1].id);
        assert_int_equal(tn_bp_get(bp, ids[1], NULL, NULL), TN_E_STALE_ID);
        uint32_t user = 0;
        tn_box got;
        assert_int_equal(tn_bp_get(bp, again, &got, &user), TN_OK);
        assert_int_equal(user, 9u);
        assert_true(got.x0 == 1.0 && got.y1 == 2.0);
        /* bad boxes */
        tn_box nan_box = {(double)NAN, 0, 1, 1}, inv = {2, 0, 1, 1},
               inf_box = {0, 0, (double)INFINITY, 1};
        assert_int_equal(tn_bp_move(bp, ids[0], nan_box), TN_E_INVALID_ARG);
        assert_int_equal(tn_bp_move(bp, ids[0], inv), TN_E_INVALID_ARG);
        assert_int_equal(tn_bp_insert(bp, inf_box, 0, &again), TN_E_INVALID_ARG);
        assert_int_equal(tn_bp_query_box(bp, inv, qcollect_fn, NULL), TN_E_INVALID_ARG);
        assert_int_equal(tn_bp_query_circle(bp, 0, 0, -1, qcollect_fn, NULL), TN_E_INVALID_ARG);
        assert_int_equal(tn_bp_query_box(bp, b, NULL, NULL), TN_E_INVALID_ARG);
        assert_int_equal(tn_bp_pairs(bp, NULL, NULL), TN_E_INVALID_ARG);
        assert_true(tn_bp_memory_bytes(bp) > 0);
        assert_int_equal(tn_bp_get_kind(bp), kinds[k]);
        /* clear: every id stale, then usable again */
        tn_bp_clear(bp);
        assert_int_equal(tn_bp_count(bp), 0);
        assert_int_equal(tn_bp_get(bp, ids[0], NULL, NULL), TN_E_STALE_ID);
        for (int i = 0; i < 4; i++)
            assert_int_equal(tn_bp_insert(bp, b, (uint32_t)i, &ids[i]), TN_OK);
        assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
        assert_int_equal(tn_bp_pairs_buf(bp, NULL, 0, &len), TN_E_BUFFER_TOO_SMALL);
        assert_int_equal(len, 6);
        tn_bp_destroy(bp);
    }
    /* generations: the same slot reused many times never revives an old id */
    tn_box world = {0, 0, 10, 10};
    tn_bp *bp = make_bp(TN_BP_GRID, 1, 1.0, 1, world, 0.05);
    tn_bp_id first, cur;
    tn_box b = {1, 1, 2, 2};
    assert_int_equal(tn_bp_insert(bp, b, 0, &first), TN_OK);
    cur = first;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(tn_bp_remove(bp, cur), TN_OK);
        assert_int_equal(tn_bp_insert(bp, b, 0, &cur), TN_OK);
        assert_int_equal(tn_bp_get(bp, first, NULL, NULL), TN_E_STALE_ID);
    }
    tn_bp_destroy(bp);
}

static void test_create_limits(void **state)
{
    (void)state;
    tn_bp *bp = (tn_bp *)0x1;
    tn_bp_def d = tn_bp_def_default();
    assert_int_equal(tn_bp_create(NULL, &bp), TN_E_INVALID_ARG);
    assert_null(bp);
    assert_int_equal(tn_bp_create(&d, NULL), TN_E_INVALID_ARG);
    tn_bp_def raw;
    memset(&raw, 0, sizeof raw);
    raw.capacity = 4;
    raw.cell_size = 1;
    raw.levels = 1;
    raw.world.x1 = raw.world.y1 = 4;
    assert_int_equal(tn_bp_create(&raw, &bp), TN_E_INVALID_ARG); /* no cookie */
    d.capacity = 0;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    d.capacity = TN_BP_MAX_OBJECTS + 1;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_TOO_LARGE);
    d = tn_bp_def_default();
    d.cell_size = 0.0;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    d.cell_size = (double)NAN;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    d = tn_bp_def_default();
    d.levels = 0;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    d.levels = TN_BP_MAX_LEVELS + 1;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    d = tn_bp_def_default();
    d.world.x1 = -1.0; /* inverted */
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    d = tn_bp_def_default();
    d.cell_size = 1e-3; /* 10^12 cells */
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_TOO_LARGE);
    d = tn_bp_def_default();
    d.kind = (tn_bp_kind)42;
    assert_int_equal(tn_bp_create(&d, &bp), TN_E_INVALID_ARG);
    assert_null(bp);
    /* the hashed grid has no world: a tiny cell is fine */
    d = tn_bp_def_default();
    d.kind = TN_BP_HASH;
    d.cell_size = 1e-3;
    assert_int_equal(tn_bp_create(&d, &bp), TN_OK);
    tn_bp_destroy(bp);
    tn_bp_destroy(NULL);
    assert_true(tn_bp_suggest_cell(8.0, 4096.0 * 4096.0, 1000) > 4096.0 / sqrt(1000.0));
    assert_true(tn_bp_suggest_cell(8.0, 100.0, 1000) > 8.0);
}

/* A counting allocator: every byte allocated is freed with the size it was allocated with. */
typedef struct counting {
    int64_t live_bytes, calls;
} counting;

static void *c_alloc(size_t size, size_t align, void *user)
{
    (void)align;
    counting *c = user;
    c->live_bytes += (int64_t)size;
    c->calls++;
    return malloc(size);
}

static void c_free(void *p, size_t size, void *user)
{
    counting *c = user;
    c->live_bytes -= (int64_t)size;
    free(p);
}

static void test_allocator(void **state)
{
    (void)state;
    tn_bp_kind kinds[] = {TN_BP_GRID, TN_BP_HASH, TN_BP_SAP, TN_BP_BRUTE};
    for (int k = 0; k < 4; k++) {
        counting c = {0, 0};
        tn_bp_def d = tn_bp_def_default();
        d.kind = kinds[k];
        d.capacity = 100;
        d.levels = 3;
        d.allocator.alloc = c_alloc;
        d.allocator.free = c_free;
        d.allocator.user = &c;
        tn_bp *bp = NULL;
        assert_int_equal(tn_bp_create(&d, &bp), TN_OK);
        int64_t calls = c.calls;
        tn_box b = {1, 1, 5, 5};
        tn_bp_id id;
        for (int i = 0; i < 100; i++)
            assert_int_equal(tn_bp_insert(bp, b, (uint32_t)i, &id), TN_OK);
        assert_int_equal(tn_bp_update(bp, NULL), TN_OK);
        int64_t n = 0;
        assert_int_equal(tn_bp_pairs_buf(bp, NULL, 0, &n), TN_E_BUFFER_TOO_SMALL);
        assert_int_equal(n, 100 * 99 / 2);
        assert_int_equal(c.calls, calls); /* nothing allocated after creation */
        tn_bp_destroy(bp);
        assert_int_equal(c.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_handmade),    cmocka_unit_test(test_pairs_random_grid),
        cmocka_unit_test(test_pairs_random_hash), cmocka_unit_test(test_pairs_random_sap_brute),
        cmocka_unit_test(test_pairs_lattice),     cmocka_unit_test(test_incremental_choice),
        cmocka_unit_test(test_queries),           cmocka_unit_test(test_handles_and_capacity),
        cmocka_unit_test(test_create_limits),     cmocka_unit_test(test_allocator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
