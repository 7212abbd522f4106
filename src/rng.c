/* xoshiro128** (Blackman and Vigna), seeded with splitmix64. */
#include "tilenav/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

tn_rng tn_rng_seed(uint64_t seed)
{
    tn_rng r;
    uint64_t a = splitmix64(&seed), b = splitmix64(&seed);
    r.s[0] = (uint32_t)a;
    r.s[1] = (uint32_t)(a >> 32);
    r.s[2] = (uint32_t)b;
    r.s[3] = (uint32_t)(b >> 32);
    if ((r.s[0] | r.s[1] | r.s[2] | r.s[3]) == 0)
        r.s[0] = 1;
    return r;
}

static uint32_t rotl(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

uint32_t tn_rng_u32(tn_rng *r)
{
    uint32_t *s = r->s;
    uint32_t result = rotl(s[1] * 5u, 7) * 9u;
    uint32_t t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
}

uint32_t tn_rng_below(tn_rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    uint32_t limit = (uint32_t)(-n) % n; /* 2^32 mod n */
    for (;;) {
        uint32_t x = tn_rng_u32(r);
        if (x >= limit)
            return x % n;
    }
}

int32_t tn_rng_range(tn_rng *r, int32_t lo, int32_t hi)
{
    if (hi <= lo)
        return lo;
    uint32_t span = (uint32_t)((int64_t)hi - (int64_t)lo + 1);
    if (span == 0) /* the whole 32-bit range */
        return (int32_t)tn_rng_u32(r);
    return (int32_t)((int64_t)lo + (int64_t)tn_rng_below(r, span));
}

float tn_rng_float(tn_rng *r)
{
    return (float)(tn_rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}
