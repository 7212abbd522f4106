/* The part of the test helpers that needs only the C library and tilenav's public API (no
 * cmocka, threads or compression libraries), so that it also builds for other targets: the
 * seeded generator and the seeded maps. support.h includes it; tests/windows uses it alone. */
#ifndef TN_TEST_SUPPORT_CORE_H
#define TN_TEST_SUPPORT_CORE_H

#include "tilenav/tilenav.h"

#include <stdint.h>

/* splitmix64: a small deterministic generator for seeded random inputs. */
typedef struct tn_test_rng {
    uint64_t s;
} tn_test_rng;

uint64_t tn_test_next(tn_test_rng *r);
/* Uniform in [0, n). */
uint32_t tn_test_below(tn_test_rng *r, uint32_t n);
/* Uniform in [0, 1). */
double tn_test_u01(tn_test_rng *r);

/* A w x h map with one tile layer "ground" of gid 0 (open), gid 1 a wall and gid 2 mud
 * (passable, cost 3); NULL when it cannot be made. */
tn_map *tn_test_new_map(int32_t w, int32_t h);
/* The blank map with each cell a wall with probability p, drawn in row order from seed. */
tn_map *tn_test_random_map(int32_t w, int32_t h, double p, uint64_t seed);

#endif
