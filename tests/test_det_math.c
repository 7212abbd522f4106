/* The deterministic sine, cosine, arc tangent and 2^x of src/det_math.h against libm (the
 * independent reference) on seeded random arguments and the special values, and their bits
 * hashed into a pinned constant: the same in every build (gcc, clang, tcc, MinGW, the
 * WebAssembly build through the crowd hash in web/test), which libm's own functions are not. */
#include "det_math.h"
#include "support.h"

#include <float.h>
#include <string.h>

/* |a - b| within `rel` of max(1, |b|) */
static void near(double a, double b, double rel, const char *what, double x)
{
    double scale = fabs(b) > 1.0 ? fabs(b) : 1.0;
    if (!(fabs(a - b) <= rel * scale))
        fail_msg("%s(%.17g) = %.17g, libm %.17g (%.3g apart)", what, x, a, b, fabs(a - b));
}

static double uniform(tn_test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * tn_test_u01(r);
}

static void test_sin_cos_against_libm(void **state)
{
    (void)state;
    tn_test_rng r = {1};
    const double ranges[4] = {1.0, 10.0, 1e4, 1e6};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 50000; i++) {
            double x = uniform(&r, -ranges[k], ranges[k]);
            double s, c;
            tn__dm_sincos(x, &s, &c);
            /* absolute error: the reduction's, about |x| times 2^-105, plus the kernels' */
            near(s, sin(x), 4e-16, "sin", x);
            near(c, cos(x), 4e-16, "cos", x);
            assert_true(s == tn__dm_sin(x) && c == tn__dm_cos(x));
            float xf = (float)x, sf, cf;
            tn__dm_sincosf(xf, &sf, &cf);
            /* the float results: within one float rounding of the true value */
            near((double)sf, sin((double)xf), 1.2e-7, "sinf", (double)xf);
            near((double)cf, cos((double)xf), 1.2e-7, "cosf", (double)xf);
        }
    /* exact and special points */
    double s, c;
    tn__dm_sincos(0.0, &s, &c);
    assert_true(s == 0.0 && c == 1.0);
    tn__dm_sincos(-0.0, &s, &c);
    assert_true(s == 0.0 && signbit(s) && c == 1.0);
    near(tn__dm_sin(TN__DM_PI_2), 1.0, 1e-16, "sin", TN__DM_PI_2);
    near(tn__dm_cos(TN__DM_PI), -1.0, 1e-16, "cos", TN__DM_PI);
    assert_true(isnan(tn__dm_sin((double)INFINITY)) && isnan(tn__dm_cos(-(double)INFINITY)));
    assert_true(isnan(tn__dm_sin((double)NAN)) && isnan(tn__dm_cos((double)NAN)));
    /* sin^2 + cos^2 = 1 at the quadrant seams */
    for (int q = -8; q <= 8; q++)
        for (int d = -2; d <= 2; d++) {
            double x = q * TN__DM_PI_2 + d * 1e-9;
            tn__dm_sincos(x, &s, &c);
            near(s * s + c * c, 1.0, 4e-16, "sin^2+cos^2", x);
        }
}

static void test_atan2_against_libm(void **state)
{
    (void)state;
    tn_test_rng r = {2};
    for (int i = 0; i < 200000; i++) {
        double scale = pow(10.0, uniform(&r, -30.0, 30.0));
        double y = uniform(&r, -1.0, 1.0) * scale, x = uniform(&r, -1.0, 1.0) * scale;
        if (i % 7 == 0)
            x *= 1e-12; /* near the y axis */
        if (i % 11 == 0)
            y *= 1e-12; /* near the x axis */
        /* three halvings, each rounded: within 4 units in the last place */
        near(tn__dm_atan2(y, x), atan2(y, x), 9e-16, "atan2 (y/x)", y / x);
        float yf = (float)y, xf = (float)x;
        near((double)tn__dm_atan2f(yf, xf), atan2((double)yf, (double)xf), 2.4e-7, "atan2f",
             (double)(yf / xf));
    }
    /* libm's special cases: signed zeros, infinities, NaN */
    const double zs[2] = {0.0, -0.0};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            double got = tn__dm_atan2(zs[a], zs[b]), want = atan2(zs[a], zs[b]);
            assert_true(got == want && signbit(got) == signbit(want));
        }
    const double odd[8] = {
        (double)INFINITY, -(double)INFINITY, 1.0, -1.0, 0.0, -0.0, 1e-300, -1e300};
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++) {
            double got = tn__dm_atan2(odd[a], odd[b]), want = atan2(odd[a], odd[b]);
            near(got, want, 9e-16, "atan2 special", (double)(a * 8 + b));
            assert_true(signbit(got) == signbit(want));
        }
    assert_true(isnan(tn__dm_atan2((double)NAN, 1.0)) && isnan(tn__dm_atan2(1.0, (double)NAN)));
}

static void test_exp2_against_libm(void **state)
{
    (void)state;
    tn_test_rng r = {3};
    for (int i = 0; i < 100000; i++) {
        double x = uniform(&r, -1020.0, 1020.0);
        double got = tn__dm_exp2(x), want = exp2(x);
        if (!(fabs(got - want) <= 4e-16 * want))
            fail_msg("exp2(%.17g) = %.17g, libm %.17g", x, got, want);
    }
    for (int n = -1022; n <= 1023; n++)
        assert_true(tn__dm_exp2((double)n) == ldexp(1.0, n)); /* whole powers are exact */
    assert_true(tn__dm_exp2(-2000.0) == 0.0 && isinf(tn__dm_exp2(2000.0)));
    assert_true(isnan(tn__dm_exp2((double)NAN)));
}

/* FNV-1a over the bits of every result of a fixed argument sequence. The constant was printed
 * by the Debug build; a build (compiler, flags, libc) that changed one bit fails here. */
static uint64_t fnv(uint64_t h, double v)
{
    unsigned char b[8];
    memcpy(b, &v, 8);
    for (int i = 0; i < 8; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void test_pinned_bits(void **state)
{
    (void)state;
    tn_test_rng r = {4};
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 20000; i++) {
        double x = uniform(&r, -1e5, 1e5), y = uniform(&r, -1e5, 1e5);
        double s, c;
        tn__dm_sincos(x, &s, &c);
        h = fnv(fnv(fnv(h, s), c), tn__dm_atan2(y, x));
        h = fnv(h, tn__dm_exp2(x * 1e-2));
        float sy, cy;
        tn__dm_sincosf((float)y, &sy, &cy);
        h = fnv(h, (double)sy + (double)tn__dm_atan2f((float)x, (float)y));
    }
    const uint64_t pinned = 0x66b7f6528351a800ull;
    if (h != pinned)
        fail_msg("det_math hash 0x%016llxull, pinned 0x%016llxull", (unsigned long long)h,
                 (unsigned long long)pinned);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_sin_cos_against_libm),
        cmocka_unit_test(test_atan2_against_libm),
        cmocka_unit_test(test_exp2_against_libm),
        cmocka_unit_test(test_pinned_bits),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
