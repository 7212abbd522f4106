/* Private helpers shared by the library's sources: allocation through a tn_allocator, internal
 * asserts, overflow-checked sizes and definition cookies. Never installed. */
#ifndef TILENAV_INTERNAL_H
#define TILENAV_INTERNAL_H

#include "tilenav/base.h"

#include <stdio.h>
#include <stdlib.h>

/* TN_ASSERT guards internal invariants only; API misuse returns a tn_status instead. It is on
 * unless NDEBUG is defined and TN_ENABLE_ASSERT is not. */
#if !defined(NDEBUG) || defined(TN_ENABLE_ASSERT)
#define TN_ASSERT(c)                                                                               \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: tilenav assertion failed: %s\n", __FILE__, __LINE__, #c);      \
            abort();                                                                               \
        }                                                                                          \
    } while (0)
#else
#define TN_ASSERT(c) ((void)0)
#endif

/* For the hot loops' small helpers, where the compiler's inlining heuristics give up. */
#define TN_INLINE static inline __attribute__((always_inline))

/* Cookies set by the *_def_default() functions and checked by the create functions. */
#define TN_COOKIE_MAP 0x4d415031u
#define TN_COOKIE_FIELD 0x464c4431u
#define TN_COOKIE_CROWD 0x43524f57u
#define TN_COOKIE_BP 0x42505331u
#define TN_COOKIE_JUMP_TABLE 0x4a505431u
#define TN_COOKIE_GOAL_BOUNDS_DEF 0x47424431u
#define TN_COOKIE_CAR 0x43415231u
#define TN_COOKIE_MARBLES 0x4d524231u
#define TN_COOKIE_LOAD 0x4c4f4431u

/* The allocator an optional `allocator` argument stands for (NULL: malloc/free) into *out;
 * false when only one of its two functions is set. */
bool tn__allocator_of(const tn_allocator *allocator, tn_allocator *out);
void *tn__alloc(const tn_allocator *a, size_t size);
/* Like tn__alloc, then zero-filled. */
void *tn__calloc(const tn_allocator *a, size_t size);
void tn__free(const tn_allocator *a, void *ptr, size_t size);
/* Grow (or create) an array of `*cap` elements to at least `need`; keeps the old content. */
tn_status tn__grow(const tn_allocator *a, void **ptr, size_t elem, size_t *cap, size_t need);

/* a*b without overflow; false when it would overflow. */
static inline bool tn__mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* Copy a NUL-terminated string into a fixed buffer; false (and a truncated copy) when too long. */
bool tn__copy_name(char *dst, size_t cap, const char *src);

#endif
