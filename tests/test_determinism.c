/* Determinism: every path, cost and field distance on a fixed set of seeded maps hashes to one
 * expected value (support/golden.h) in every build CI makes (gcc -O0, ASan+UBSan, clang -O2
 * with asserts, the Release tools, the plain-C path, and Windows through MinGW in
 * tests/windows), so a compiler, flag or optimisation that changed a single bit would fail
 * here. (The crowd's state hash is pinned the same way in test_crowd.c.) */
#include "support.h"
#include "support/golden.h"

static void test_paths_and_fields_hash(void **state)
{
    (void)state;
    uint64_t h1 = 0, h2 = 0;
    assert_int_equal(tn_golden_paths_fields(&h1), TN_OK);
    assert_int_equal(tn_golden_paths_fields(&h2), TN_OK);
    assert_true(h1 == h2); /* the same run twice */
    if (h1 != TN_GOLDEN_PATHS_FIELDS)
        fail_msg("determinism hash 0x%016llx, expected 0x%016llx", (unsigned long long)h1,
                 (unsigned long long)TN_GOLDEN_PATHS_FIELDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_paths_and_fields_hash)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
