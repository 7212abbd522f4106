/* The seeded generator: reference values of xoshiro128** computed independently here, ranges,
 * uniformity of tn_rng_below (chi-square), and reproducibility. */
#include "support.h"
#include "tilenav/rng.h"

/* Straight from the published algorithm, written separately from src/rng.c. */
static uint32_t ref_next(uint32_t s[4])
{
    uint32_t r = ((s[1] * 5u) << 7 | (s[1] * 5u) >> 25) * 9u;
    uint32_t t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >> 21);
    return r;
}

static void test_reference_stream(void **state)
{
    (void)state;
    tn_rng r = tn_rng_seed(12345);
    uint32_t s[4] = {r.s[0], r.s[1], r.s[2], r.s[3]};
    for (int i = 0; i < 1000; i++)
        assert_int_equal(tn_rng_u32(&r), ref_next(s));
    tn_rng a = tn_rng_seed(7), b = tn_rng_seed(7), c = tn_rng_seed(8);
    int same = 0;
    for (int i = 0; i < 100; i++) {
        uint32_t x = tn_rng_u32(&a);
        assert_int_equal(x, tn_rng_u32(&b));
        same += x == tn_rng_u32(&c);
    }
    assert_true(same < 3);
    tn_rng z = tn_rng_seed(0);
    assert_true((z.s[0] | z.s[1] | z.s[2] | z.s[3]) != 0);
}

static void test_ranges(void **state)
{
    (void)state;
    tn_rng r = tn_rng_seed(99);
    int counts[7] = {0};
    const int N = 70000;
    for (int i = 0; i < N; i++) {
        uint32_t v = tn_rng_below(&r, 7);
        assert_true(v < 7);
        counts[v]++;
        float f = tn_rng_float(&r);
        assert_true(f >= 0.0f && f < 1.0f);
        int32_t k = tn_rng_range(&r, -20, 20);
        assert_true(k >= -20 && k <= 20);
    }
    double chi = 0.0, e = N / 7.0;
    for (int i = 0; i < 7; i++)
        chi += (counts[i] - e) * (counts[i] - e) / e;
    assert_true(chi < 22.5); /* p = 0.001 for 6 degrees of freedom */
    assert_int_equal(tn_rng_below(&r, 0), 0);
    assert_int_equal(tn_rng_range(&r, 5, 5), 5);
    assert_int_equal(tn_rng_range(&r, 5, 1), 5);
    int32_t full = tn_rng_range(&r, INT32_MIN, INT32_MAX);
    (void)full;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_stream),
        cmocka_unit_test(test_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
