/* Determinism: every path, cost and field distance on a fixed set of seeded maps hashes to one
 * expected value in every build CI makes (gcc -O0, ASan+UBSan, clang -O2 with asserts, and the
 * Release tools), so a compiler, flag or optimisation that changed a single bit would fail here.
 * (The crowd's state hash is pinned the same way in test_crowd.c.) If an algorithm change alters
 * results on purpose, update EXPECTED deliberately and say why in the commit. */
#include "support.h"
#include "tilenav/field.h"
#include "tilenav/search.h"

#include <string.h>

#define EXPECTED 0x491294d87c1f6eafull

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t run_all(void)
{
    uint64_t h = 0xcbf29ce484222325ull;
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    assert_int_equal(tn_search_create(&sd, &s), TN_OK);
    tn_cell cells[4096];
    for (uint64_t seed = 1; seed <= 4; seed++) {
        tn_map *m = tn_test_random_map(64, 48, 0.25, seed);
        assert_non_null(m);
        if (seed % 2 == 0) /* mud on the even maps */
            for (int32_t i = 0; i < 64 * 48; i += 7)
                if (tn_map_passable(m, i % 64, i / 64))
                    assert_int_equal(tn_map_set(m, 0, i % 64, i / 64, 2), TN_OK);
        tn_test_rng r = {seed * 977};
        for (int q = 0; q < 60; q++) {
            tn_cell a = {(int32_t)tn_test_below(&r, 64), (int32_t)tn_test_below(&r, 48)};
            tn_cell b = {(int32_t)tn_test_below(&r, 64), (int32_t)tn_test_below(&r, 48)};
            tn_query qu;
            memset(&qu, 0, sizeof qu);
            qu.moves.diagonal = (tn_diagonal)(q % 4);
            qu.moves.costs = (tn_step_costs)(q / 4 % 2);
            qu.algo = q % 3 == 2 ? TN_ALGO_JPS : TN_ALGO_ASTAR;
            qu.jps_fallback = true;
            tn_search_result res;
            tn_status st = tn_search_path(s, m, a, b, &qu, cells, 4096, &res);
            h = fnv(h, &st, sizeof st);
            if (st == TN_OK) {
                h = fnv(h, &res.cost, sizeof res.cost);
                h = fnv(h, cells, (size_t)res.length * sizeof cells[0]);
            }
        }
        tn_field_def fd = tn_field_def_default();
        fd.map = m;
        fd.los = TN_LOS_EXACT;
        tn_field *f = NULL;
        assert_int_equal(tn_field_create(&fd, &f), TN_OK);
        tn_cell goal = {0, 0};
        for (int32_t i = 0; i < 64 * 48 && !tn_map_passable(m, goal.x, goal.y); i++)
            goal = (tn_cell){i % 64, i / 64};
        assert_int_equal(tn_field_build(f, &goal, 1), TN_OK);
        h = fnv(h, tn_field_distances(f), 64 * 48 * sizeof(float));
        for (int32_t y = 0; y < 48; y++)
            for (int32_t x = 0; x < 64; x++) {
                tn_vec2 v = tn_field_vector(f, x, y);
                h = fnv(h, &v, sizeof v);
            }
        tn_field_destroy(f);
        tn_map_destroy(m);
    }
    tn_search_destroy(s);
    return h;
}

static void test_paths_and_fields_hash(void **state)
{
    (void)state;
    uint64_t h1 = run_all(), h2 = run_all();
    assert_true(h1 == h2); /* the same run twice */
    if (h1 != EXPECTED)
        fail_msg("determinism hash 0x%016llx, expected 0x%016llx", (unsigned long long)h1,
                 (unsigned long long)EXPECTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_paths_and_fields_hash)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
