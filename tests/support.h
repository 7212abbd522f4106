/* Helpers shared by the tests: cmocka includes, a seeded RNG, file paths, small map builders. */
#ifndef TN_TEST_SUPPORT_H
#define TN_TEST_SUPPORT_H

/* cmocka needs these before its header. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "support/core.h"
#include "tilenav/tilenav.h"

/* A test program's main. Without arguments it runs `local`: the tests that need nothing
 * outside the repository. "--shared" runs `shared`: the tests that read the Moving AI and Tiled
 * maps of ../shared (without ../shared it prints why and returns 77, ctest's skip code).
 * "--slow" runs `slow`: stress tests that take more than a few seconds. CMake registers a
 * ctest test per group a file defines (arrays named local_tests, shared_tests, slow_tests):
 * NAME (label quick), NAME_shared (label shared), NAME_slow (label slow). */
int tn_test_run(int argc, char **argv, const struct CMUnitTest *local, size_t nlocal,
                const struct CMUnitTest *shared, size_t nshared, const struct CMUnitTest *slow,
                size_t nslow);
#define TN_TEST_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* tn_jump_table_build() / tn_goal_bounds_build() from a default definition for `map`. */
tn_status tn_test_jump_table(const tn_map *map, tn_jump_table **out);
tn_status tn_test_goal_bounds(const tn_map *map, const tn_moves *moves, tn_goal_bounds **out);

/* A growing text buffer for tests that write documents (maps, tilesets) as text: start it
 * zeroed, append with tn_test_textf() (asserts on failure), free(t.s) when done. */
typedef struct tn_test_text {
    char *s;
    size_t n, cap;
} tn_test_text;
void tn_test_textf(tn_test_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Tiled's base64 layer data: n gids as little-endian bytes, compressed ("" none, "zlib",
 * "gzip", "zstd", or "zstd-stream": a frame without its content size, with an 8 MiB window),
 * base64 into out (room for 4 * ((8 * n + 130) / 3) + 1 chars). */
void tn_test_encode_gids(const uint32_t *g, size_t n, const char *comp, char *out);

/* The real Tiled maps of ../shared/bench/tiled, as paths below bench/tiled/. */
extern const char *const tn_test_tiled_bench_maps[11];

/* "<TN_SHARED_DIR>/<rel>" into buf; returns buf. */
const char *tn_test_shared(char *buf, size_t cap, const char *rel);
/* "<TN_TEST_DATA>/<rel>" into buf; returns buf. */
const char *tn_test_data(char *buf, size_t cap, const char *rel);

/* A W x H map of tw x th pixel tiles with no layers (asserts that it was made). */
tn_map *tn_test_blank_map(int32_t w, int32_t h, int32_t tw, int32_t th);
/* A W x H map with one tile layer "ground" (index 0) where gid 1 blocks, built from rows of
 * text: '#' = gid 1 (wall), '~' = gid 2 (cost 3, mud), '.' = 0 (open). */
tn_map *tn_test_map_from_rows(const char *const *rows, int32_t h);
/* A random passable cell of the map (column, then row drawn from r until one is open; the map
 * must have one). */
tn_cell tn_test_random_open_cell(const tn_map *m, tn_test_rng *r);
/* Mud (gid 2, cost 3 on every map made here) on each open cell with probability p (seeded). */
void tn_test_add_mud(tn_map *m, double p, uint64_t seed);

/* A tn_parallel_for on two real threads: the second half of the range on a new thread (the
 * caller's when it cannot start), the first on the caller's. */
void tn_test_two_threads(tn_task task, void *ctx, int32_t count, void *user);

/* A counting allocator (user: a tn_test_counter): every free must name the size allocated
 * (bad_free otherwise); it fails every call once `calls` reaches fail_after (< 0: never), or
 * with `once` that call alone (the later ones succeed again). */
typedef struct tn_test_counter {
    size_t outstanding;
    long calls, fail_after;
    bool bad_free;
    bool once;
} tn_test_counter;
void *tn_test_count_alloc(size_t size, size_t align, void *user);
void tn_test_count_free(void *ptr, size_t size, void *user);

#endif
