/// @file base.h
/// @brief Things every tilenav header needs: version, export macro, status codes, the
/// allocator hook, small value types (cells, vectors, rectangles) and limits.
///
/// Errors: every fallible function returns a ::tn_status. Zero is success, positive values are
/// successes that carry a detail (a partial result, "no path"), negative values are failures.
/// There is no global "last error": tn_status_str() turns a status into a fixed string.
///
/// Memory: each object (map, search context, field, crowd, broad phase) takes a ::tn_allocator
/// in its definition struct; a zeroed allocator means malloc/free. The library has no mutable
/// global state, so independent objects may be used from independent threads freely.
#ifndef TILENAV_BASE_H
#define TILENAV_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TN_VERSION_MAJOR 0
#define TN_VERSION_MINOR 1
#define TN_VERSION_PATCH 0
#define TN_VERSION_STRING "0.1.0"

#if defined(TN_STATIC)
#define TN_API
#elif defined(_WIN32)
#if defined(TN_BUILDING)
#define TN_API __declspec(dllexport)
#else
#define TN_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define TN_API __attribute__((visibility("default")))
#else
#define TN_API
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TN_NODISCARD __attribute__((warn_unused_result))
#else
#define TN_NODISCARD
#endif

/// Result of a fallible call. `< 0` is an error; `>= 0` is a success, possibly with a detail.
typedef enum tn_status {
    TN_OK = 0,
    TN_PARTIAL = 1,        ///< a budget ran out; the result is the best found so far
    TN_NO_PATH = 2,        ///< the query ran to the end and the goal cannot be reached
    TN_IN_PROGRESS = 3,    ///< a time-sliced operation needs more calls
    TN_CLOSEST = 4,        ///< goal unreachable; the result leads to the closest reachable cell
    TN_E_INVALID_ARG = -1, ///< a NULL pointer, a negative size, a non-finite float...
    TN_E_NOMEM = -2,       ///< the allocator returned NULL
    TN_E_TOO_LARGE = -3,   ///< a size is past a documented limit
    TN_E_BUFFER_TOO_SMALL = -4, ///< the caller's buffer is short; the needed length is reported
    TN_E_STALE_ID = -5,         ///< a handle whose object was removed
    TN_E_PARSE = -6,            ///< malformed input text or data
    TN_E_IO = -7,               ///< a file could not be opened, read or written
    TN_E_UNSUPPORTED = -8,      ///< valid input that this build cannot handle
    TN_E_OUT_OF_MAP = -9,       ///< a coordinate outside the map
    TN_E_START_BLOCKED = -10,   ///< the start cell is impassable
    TN_E_GOAL_BLOCKED = -11,    ///< the goal cell is impassable
    TN_E_MAP_CHANGED = -12,     ///< the map changed under a running or cached computation
    TN_E_FULL = -13,            ///< a fixed-capacity container is full
    TN_E_NOT_FOUND = -14,       ///< a named item (layer, property, file) does not exist
    TN_E_STATE = -15,           ///< call out of order (e.g. step before begin)
} tn_status;

/// A fixed, human-readable name for a status ("ok", "no path", "buffer too small", ...).
TN_API const char *tn_status_str(tn_status status);

/// Allocator hook. `alloc` returns memory aligned to `align` (a power of two, at most 64) or
/// NULL; `free` receives the same size that was allocated. A zeroed struct means malloc/free.
typedef struct tn_allocator {
    void *(*alloc)(size_t size, size_t align, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} tn_allocator;

/// A grid cell: x = column, y = row, both from 0 at the top-left.
typedef struct tn_cell {
    int32_t x, y;
} tn_cell;

/// A point or vector in world units (pixels unless said otherwise), y growing downwards.
typedef struct tn_vec2 {
    float x, y;
} tn_vec2;

/// An axis-aligned rectangle of cells, inclusive-exclusive: [x0, x1) x [y0, y1).
typedef struct tn_rect {
    int32_t x0, y0, x1, y1;
} tn_rect;

/// Limits enforced at every API boundary and by every loader (see docs/RELIABILITY.md).
#define TN_MAX_DIM 65536             ///< largest width or height of a map, in cells
#define TN_MAX_CELLS (1 << 28)       ///< largest width*height of a map
#define TN_MAX_LAYERS 1024           ///< most layers in one map
#define TN_MAX_NAME 128              ///< longest layer/object name, including the NUL
#define TN_MAX_TERRAIN_GID (1 << 22) ///< the terrain table describes ids below this
/// Largest terrain cost and extra cost of a cell: a path over a whole map then stays finite in
/// the 32-bit sums of flow fields, sector fields and the hierarchy (14 x 2^28 x 1e28 < 3.4e38).
#define TN_MAX_COST 1e28f

/// Tiled's flag bits in the top of a 32-bit gid; tn_gid_id() strips them.
#define TN_GID_FLIP_H 0x80000000u
#define TN_GID_FLIP_V 0x40000000u
#define TN_GID_FLIP_D 0x20000000u
#define TN_GID_ROT_HEX 0x10000000u
#define TN_GID_FLAGS 0xF0000000u

/// The tile id of a raw gid, flip/rotation flags removed (0 = empty).
static inline uint32_t tn_gid_id(uint32_t raw)
{
    return raw & ~TN_GID_FLAGS;
}

/// The flip/rotation flags of a raw gid (a combination of TN_GID_FLIP_*).
static inline uint32_t tn_gid_flags(uint32_t raw)
{
    return raw & TN_GID_FLAGS;
}

/// A piece of work: handle the items [begin, end) of a range.
typedef void (*tn_task)(void *task_ctx, int32_t begin, int32_t end);

/// The caller's parallel loop (a task system's "parallel for"), taken by the objects that can
/// spread work over threads (fields, crowds): run `task` over disjoint ranges covering
/// [0, count), split in any way, on any threads, and return when every range is done. `user`
/// is the object's `parallel_user`. Results never depend on how the work was split.
typedef void (*tn_parallel_for)(tn_task task, void *task_ctx, int32_t count, void *user);

/// Library version as a string, e.g. "0.1.0".
TN_API const char *tn_version(void);

#ifdef __cplusplus
}
#endif

#endif
