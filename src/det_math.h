/* Deterministic sine, cosine, arc tangent and powers of two.
 *
 * libm's sinf, cosf, atan2f and pow are not required to round correctly, and glibc, musl (the
 * WebAssembly build's wasi-libc), Apple's and Microsoft's libraries give different last bits:
 * a crowd with wander stepped in the browser drifted from the same crowd stepped natively
 * after a few hundred steps. These use only + - * /, sqrt, floor and ldexp, which IEEE 754
 * defines exactly, in double precision; with -ffp-contract=off (the build's flag) every build
 * on every system gives the same bits. Accuracy: within a few units in the last place of a
 * double for arguments up to about 1e6 (range reduction by pi/2 in three parts), far below
 * the float results the callers keep. Tested against libm in tests/test_det_math.c. */
#ifndef TN_DET_MATH_H
#define TN_DET_MATH_H

#include <math.h>

#define TN__DM_PI 3.14159265358979311600e+00
#define TN__DM_PI_2 1.57079632679489655800e+00

/* sin(r) and cos(r) for |r| <= pi/4: Taylor series to r^17 and r^18 (the first term left out
 * is below 1e-19). */
static inline double tn__dm_sin_k(double r)
{
    if (r == 0.0)
        return r; /* keeps the sign of a zero, as sin(-0) = -0 */
    double z = r * r;
    double p = -1.0 / 355687428096000.0; /* -1/17! */
    p = p * z + 1.0 / 1307674368000.0;   /* 1/15! */
    p = p * z - 1.0 / 6227020800.0;      /* 1/13! */
    p = p * z + 1.0 / 39916800.0;        /* 1/11! */
    p = p * z - 1.0 / 362880.0;          /* 1/9! */
    p = p * z + 1.0 / 5040.0;            /* 1/7! */
    p = p * z - 1.0 / 120.0;             /* 1/5! */
    p = p * z + 1.0 / 6.0;               /* 1/3! */
    return r - r * z * p;
}

static inline double tn__dm_cos_k(double r)
{
    double z = r * r;
    double p = 1.0 / 6402373705728000.0; /* 1/18! */
    p = p * z - 1.0 / 20922789888000.0;  /* 1/16! */
    p = p * z + 1.0 / 87178291200.0;     /* 1/14! */
    p = p * z - 1.0 / 479001600.0;       /* 1/12! */
    p = p * z + 1.0 / 3628800.0;         /* 1/10! */
    p = p * z - 1.0 / 40320.0;           /* 1/8! */
    p = p * z + 1.0 / 720.0;             /* 1/6! */
    p = p * z - 1.0 / 24.0;              /* 1/4! */
    return 1.0 - 0.5 * z + z * z * -p;
}

/* x = k * pi/2 + r with |r| <= about pi/4; returns r, *quadrant = k mod 4. pi/2 is split in
 * three parts (the first two of 33 bits), so k times each of the first two is exact while
 * |k| < 2^20. */
static inline double tn__dm_reduce(double x, int *quadrant)
{
    const double p1 = 1.57079632673412561417e+00, p2 = 6.07710050630396597660e-11,
                 p3 = 2.02226624879595063154e-21;
    double k = floor(x * 6.36619772367581382433e-01 + 0.5); /* x * 2/pi, nearest */
    double r = ((x - k * p1) - k * p2) - k * p3;
    double q = k - 4.0 * floor(k * 0.25);
    *quadrant = (int)q;
    return r;
}

/* sin and cos of x (NaN for an infinite or NaN x). */
static inline void tn__dm_sincos(double x, double *s, double *c)
{
    if (!isfinite(x)) {
        *s = *c = x - x; /* NaN */
        return;
    }
    int q;
    double r = tn__dm_reduce(x, &q);
    double sr = tn__dm_sin_k(r), cr = tn__dm_cos_k(r);
    switch (q) {
    case 0: *s = sr, *c = cr; break;
    case 1: *s = cr, *c = -sr; break;
    case 2: *s = -sr, *c = -cr; break;
    default: *s = -cr, *c = sr; break;
    }
}

static inline double tn__dm_sin(double x)
{
    double s, c;
    tn__dm_sincos(x, &s, &c);
    return s;
}

static inline double tn__dm_cos(double x)
{
    double s, c;
    tn__dm_sincos(x, &s, &c);
    return c;
}

/* atan(t) for 0 <= t <= 1: three halvings, atan(u) = 2 atan(u / (1 + sqrt(1 + u^2))), bring
 * t below tan(pi/32) < 0.1, where the series to u^17 leaves less than 1e-20 of it. */
static inline double tn__dm_atan01(double t)
{
    for (int k = 0; k < 3; k++)
        t = t / (1.0 + sqrt(1.0 + t * t));
    double z = t * t;
    double p = 1.0 / 17.0;
    p = 1.0 / 15.0 - z * p;
    p = 1.0 / 13.0 - z * p;
    p = 1.0 / 11.0 - z * p;
    p = 1.0 / 9.0 - z * p;
    p = 1.0 / 7.0 - z * p;
    p = 1.0 / 5.0 - z * p;
    p = 1.0 / 3.0 - z * p;
    return 8.0 * (t - t * z * p);
}

/* atan2(y, x) with libm's quadrants and signed zeros; NaN in, NaN out. */
static inline double tn__dm_atan2(double y, double x)
{
    if (isnan(x) || isnan(y))
        return x + y;
    double ax = fabs(x), ay = fabs(y), a;
    if (ay == 0.0)
        a = 0.0;
    else if (isinf(ax) && isinf(ay))
        a = TN__DM_PI / 4.0;
    else if (ay <= ax)
        a = tn__dm_atan01(ay / ax);
    else
        a = TN__DM_PI_2 - tn__dm_atan01(ax / ay);
    if (signbit(x))
        a = TN__DM_PI - a;
    return copysign(a, y);
}

/* 2^x: x = n + f with |f| <= 1/2, e^(f ln 2) by its series to the 16th power (the first term
 * left out is below 1e-21), scaled by 2^n exactly. 0 below -1100, +inf above 1100. */
static inline double tn__dm_exp2(double x)
{
    if (isnan(x))
        return x;
    if (x < -1100.0)
        return 0.0;
    if (x > 1100.0)
        return (double)INFINITY;
    double n = floor(x + 0.5);
    double g = (x - n) * 6.93147180559945286227e-01; /* ln 2 */
    double p = 1.0;
    for (int k = 16; k >= 1; k--)
        p = 1.0 + p * g / (double)k;
    return ldexp(p, (int)n);
}

/* The float versions the library calls: sine and cosine of one angle in one reduction. */
static inline void tn__dm_sincosf(float x, float *s, float *c)
{
    double sd, cd;
    tn__dm_sincos((double)x, &sd, &cd);
    *s = (float)sd;
    *c = (float)cd;
}

static inline float tn__dm_atan2f(float y, float x)
{
    return (float)tn__dm_atan2((double)y, (double)x);
}

#endif
