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

/* ---- compiler-specific spellings, kept here and nowhere else ----------------------------
 * GCC and Clang get their builtins and attributes, MSVC its intrinsics, and any other C11
 * compiler (or any compiler with TN_PORTABLE_C defined, which CI builds to test this branch)
 * plain C with the same results:
 *   TN_INLINE       for the hot loops' small helpers, where inlining heuristics give up
 *   TN_NOINLINE     keeps a rarely taken path out of its caller
 *   TN_COLD         marks a function as rarely called (GCC and Clang only)
 *   TN_PREFETCH(p)  a hint to start loading *p; no effect on results
 *   tn__ctz32/64    index of the lowest set bit, tn__clz64 count of leading zeros (v != 0)
 *   TN_PRINTF(f, a) printf-style argument checks (GCC and Clang only) */
#if defined(TN_PORTABLE_C)
#define TN_CC_PLAIN 1
#elif defined(__GNUC__) || defined(__clang__)
#define TN_CC_GNU 1
#elif defined(_MSC_VER)
#define TN_CC_MSVC 1
#else
#define TN_CC_PLAIN 1
#endif

#if defined(TN_CC_GNU)
#define TN_INLINE static inline __attribute__((always_inline))
#define TN_NOINLINE __attribute__((noinline))
#define TN_COLD __attribute__((cold))
#define TN_PREFETCH(p) __builtin_prefetch(p)
#define TN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
static inline int tn__ctz32(uint32_t v)
{
    return __builtin_ctz(v);
}
static inline int tn__ctz64(uint64_t v)
{
    return __builtin_ctzll(v);
}
static inline int tn__clz64(uint64_t v)
{
    return __builtin_clzll(v);
}
#elif defined(TN_CC_MSVC)
#include <intrin.h>
/* no a*b+c fused into one rounding (determinism): the default from Visual Studio 2022 on,
 * not before */
#pragma fp_contract(off)
#define TN_INLINE static __forceinline
#define TN_NOINLINE __declspec(noinline)
#define TN_COLD
#define TN_PRINTF(fmt, args)
#if defined(_M_X64) || defined(_M_IX86)
#define TN_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define TN_PREFETCH(p) ((void)(p))
#endif
static __forceinline int tn__ctz32(uint32_t v)
{
    unsigned long i;
    _BitScanForward(&i, v);
    return (int)i;
}
static __forceinline int tn__ctz64(uint64_t v)
{
    unsigned long i;
#if defined(_M_X64) || defined(_M_ARM64)
    _BitScanForward64(&i, v);
    return (int)i;
#else
    if (_BitScanForward(&i, (unsigned long)v))
        return (int)i;
    _BitScanForward(&i, (unsigned long)(v >> 32));
    return (int)i + 32;
#endif
}
static __forceinline int tn__clz64(uint64_t v)
{
    unsigned long i;
#if defined(_M_X64) || defined(_M_ARM64)
    _BitScanReverse64(&i, v);
    return 63 - (int)i;
#else
    if (_BitScanReverse(&i, (unsigned long)(v >> 32)))
        return 31 - (int)i;
    _BitScanReverse(&i, (unsigned long)v);
    return 63 - (int)i;
#endif
}
#else
/* the C standard's way to ask for no fused a*b+c (determinism); GCC does not know the
 * pragma and takes -ffp-contract=off from the build instead */
#if !defined(__GNUC__)
#pragma STDC FP_CONTRACT OFF
#endif
#define TN_INLINE static inline
#define TN_NOINLINE
#define TN_COLD
#define TN_PREFETCH(p) ((void)(p))
#define TN_PRINTF(fmt, args)
static inline int tn__ctz64(uint64_t v)
{
    int n = 0;
    for (int s = 32; s > 0; s >>= 1)
        if (!(v & ((UINT64_C(1) << s) - 1u))) {
            n += s;
            v >>= s;
        }
    return n;
}
static inline int tn__ctz32(uint32_t v)
{
    return tn__ctz64(v);
}
static inline int tn__clz64(uint64_t v)
{
    int n = 0;
    for (int s = 32; s > 0; s >>= 1)
        if (!(v >> (64 - s))) {
            n += s;
            v <<= s;
        }
    return n;
}
#endif

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
