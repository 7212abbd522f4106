/* The bit helpers of src/internal.h (tn__ctz32, tn__ctz64, tn__clz64) against bit-by-bit loops
 * written here, on every single bit, every low and high mask and seeded random words. The same
 * test runs in every build: with GCC and Clang it checks the builtins, in CI's TN_PORTABLE_C
 * build the plain-C versions other compilers get (./build.sh determinism). */
#include "internal.h"
#include "support.h"
#include "tilenav/rng.h"

static int ref_ctz(uint64_t v)
{
    int n = 0;
    while (!((v >> n) & 1u))
        n++;
    return n;
}

static int ref_clz(uint64_t v)
{
    int n = 0;
    while (!((v >> (63 - n)) & 1u))
        n++;
    return n;
}

static void check(uint64_t v)
{
    if (v == 0)
        return;
    assert_int_equal(tn__ctz64(v), ref_ctz(v));
    assert_int_equal(tn__clz64(v), ref_clz(v));
    uint32_t lo = (uint32_t)v;
    if (lo != 0)
        assert_int_equal(tn__ctz32(lo), ref_ctz(lo));
}

static void test_bits_against_loops(void **state)
{
    (void)state;
    for (int i = 0; i < 64; i++) {
        uint64_t b = UINT64_C(1) << i;
        check(b);
        check(b | (b - 1u)); /* the low mask up to bit i */
        check(~(b - 1u));    /* the high mask from bit i */
        check(b | UINT64_C(1) << 63);
        check(b | 1u);
    }
    assert_int_equal(tn__ctz32(0x80000000u), 31);
    assert_int_equal(tn__ctz64(UINT64_C(1) << 63), 63);
    assert_int_equal(tn__clz64(1u), 63);
    tn_rng r = tn_rng_seed(2026);
    for (int i = 0; i < 100000; i++) {
        uint64_t v = (uint64_t)tn_rng_u32(&r) << 32 | tn_rng_u32(&r);
        int shift = (int)tn_rng_below(&r, 64); /* sparse words too */
        check(v);
        check(v >> shift);
        check(v << shift);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_bits_against_loops),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
