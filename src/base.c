/* Status strings, version and the allocator helpers. */
#include "internal.h"

#include <string.h>

const char *tn_version(void)
{
    return TN_VERSION_STRING;
}

const char *tn_status_str(tn_status status)
{
    switch (status) {
    case TN_OK: return "ok";
    case TN_PARTIAL: return "partial result (budget ran out)";
    case TN_NO_PATH: return "no path";
    case TN_IN_PROGRESS: return "in progress";
    case TN_CLOSEST: return "goal unreachable; path to the closest reachable cell";
    case TN_E_INVALID_ARG: return "invalid argument";
    case TN_E_NOMEM: return "out of memory";
    case TN_E_TOO_LARGE:
        return "too large (past a limit: the function's documentation names it and how to raise "
               "it)";
    case TN_E_BUFFER_TOO_SMALL: return "buffer too small";
    case TN_E_STALE_ID: return "stale handle";
    case TN_E_PARSE: return "parse error";
    case TN_E_IO: return "i/o error";
    case TN_E_UNSUPPORTED: return "unsupported";
    case TN_E_OUT_OF_MAP: return "outside the map";
    case TN_E_START_BLOCKED: return "start cell is blocked";
    case TN_E_GOAL_BLOCKED: return "goal cell is blocked";
    case TN_E_MAP_CHANGED: return "map changed";
    case TN_E_FULL: return "container full";
    case TN_E_NOT_FOUND: return "not found";
    case TN_E_STATE: return "call out of order";
    }
    return "unknown status";
}

bool tn__allocator_of(const tn_allocator *allocator, tn_allocator *out)
{
    memset(out, 0, sizeof *out);
    if (allocator)
        *out = *allocator;
    return (out->alloc == NULL) == (out->free == NULL);
}

void *tn__alloc(const tn_allocator *a, size_t size)
{
    if (size == 0)
        size = 1;
    if (a && a->alloc)
        return a->alloc(size, 16, a->user);
    return malloc(size);
}

void *tn__calloc(const tn_allocator *a, size_t size)
{
    void *p = tn__alloc(a, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void tn__free(const tn_allocator *a, void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (size == 0)
        size = 1;
    if (a && a->free)
        a->free(ptr, size, a->user);
    else if (!(a && a->alloc))
        free(ptr);
}

tn_status tn__grow(const tn_allocator *a, void **ptr, size_t elem, size_t *cap, size_t need)
{
    if (need <= *cap)
        return TN_OK;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return TN_E_TOO_LARGE;
        ncap *= 2;
    }
    size_t bytes;
    if (!tn__mul_size(ncap, elem, &bytes))
        return TN_E_TOO_LARGE;
    void *np = tn__alloc(a, bytes);
    if (!np)
        return TN_E_NOMEM;
    if (*ptr) {
        memcpy(np, *ptr, *cap * elem);
        tn__free(a, *ptr, *cap * elem);
    }
    *ptr = np;
    *cap = ncap;
    return TN_OK;
}

bool tn__copy_name(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    bool fits = n < cap;
    if (!fits)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return fits;
}
