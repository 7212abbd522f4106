/* The pinned computations: seeded paths, costs and fields, and a seeded crowd, whose results
 * hash to one constant in every build (compiler, optimisation, sanitizers, the plain-C path of
 * src/internal.h, Windows through MinGW). test_determinism.c and test_crowd.c check them under
 * cmocka; tests/windows/golden_main.c checks them where cmocka is not at hand. Only the C
 * library and tilenav's public API are used. If an algorithm change alters results on purpose,
 * update the constant deliberately and say why in the commit. */
#ifndef TN_TEST_SUPPORT_GOLDEN_H
#define TN_TEST_SUPPORT_GOLDEN_H

#include "tilenav/tilenav.h"

#include <stdint.h>

/* paths (A* and JPS, four corner rules, two step costs, mud on half the maps), their costs
 * and cells, and exact-LOS flow fields over four seeded 64 x 48 maps */
#define TN_GOLDEN_PATHS_FIELDS 0x491294d87c1f6eafull
/* tn_golden_crowd(5, 400, 2, 0.0f, NULL, ...): only + - * / and sqrt, which IEEE 754 rounds
 * exactly, so with no contraction into FMAs the hash is the same everywhere */
#define TN_GOLDEN_CROWD 0x88d59269a84f8e4dull
/* tn_golden_crowd(5, 400, 2, 0.5f, NULL, ...): wander too, whose sine and cosine come from
 * src/det_math.h (+ - * /, sqrt and floor only), not from libm */
#define TN_GOLDEN_CROWD_WANDER 0x9ebc8e25d6e12932ull

/* The hash of the paths and fields into *out; TN_OK, or the status of the first call that
 * failed (nothing is hashed then). */
tn_status tn_golden_paths_fields(uint64_t *out);

/* 300 agents (arrive at a point, separation every `period` steps, wander weight `wander`)
 * spawned from `seed` on a seeded 32 x 32 map, `steps` steps with every 7th agent removed
 * half-way, run through `pfor` (NULL: one thread); tn_crowd_hash() into *out. TN_OK or the
 * first failing status. */
tn_status tn_golden_crowd(uint64_t seed, int steps, int32_t period, float wander,
                          tn_parallel_for pfor, uint64_t *out);

/* tn_crowd_add() with def at positions drawn from `seed` until n agents are in (or n * 200
 * tries): the agents added, their ids in ids. */
int tn_test_spawn(tn_crowd *c, const tn_map *m, int n, uint64_t seed, tn_agent_def def,
                  tn_agent_id *ids);

#endif
