/// @file rng.h
/// @brief A small, explicit, seeded random generator (xoshiro128** seeded by splitmix64), so
/// that every random choice in tilenav (wander, the AI car's angle jitter, scene generation) is
/// reproducible bit for bit from a seed, on every build. State is a plain value owned by the
/// caller: there is no global generator.
#ifndef TILENAV_RNG_H
#define TILENAV_RNG_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Generator state; copy it to fork a stream.
typedef struct tn_rng {
    uint32_t s[4];
} tn_rng;

/// A generator seeded from any 64-bit value (0 included).
TN_API tn_rng tn_rng_seed(uint64_t seed);
/// Next 32 random bits.
TN_API uint32_t tn_rng_u32(tn_rng *rng);
/// Uniform integer in [0, n); 0 when n == 0. Unbiased (rejection).
TN_API uint32_t tn_rng_below(tn_rng *rng, uint32_t n);
/// Uniform integer in [lo, hi] (inclusive); lo when hi < lo.
TN_API int32_t tn_rng_range(tn_rng *rng, int32_t lo, int32_t hi);
/// Uniform float in [0, 1), 24 random bits.
TN_API float tn_rng_float(tn_rng *rng);

#ifdef __cplusplus
}
#endif

#endif
