/// @file influence.h
/// @brief Influence maps: a float layer of W x H cells summed from sources (a
/// centre, a radius, a strength and a falloff), decaying over time, used as the extra-cost
/// layer of fields (tn_field_def::extra) and path searches so that units avoid danger.
///
/// Geometry: positions and radii are in cells, with the centre of cell (x, y) at
/// (x + 0.5, y + 0.5). A source at p with radius r > 0 and strength s adds to every cell whose
/// centre c has |c - p| <= r:
///   - TN_FALLOFF_CONSTANT: s
///   - TN_FALLOFF_LINEAR: s * (1 - |c - p| / r)
///   - TN_FALLOFF_QUADRATIC: s * (1 - |c - p| / r)^2
/// Values are float sums in the order of the calls.
///
/// Decay: tn_influence_decay() multiplies every value by 0.5^(dt / half_life) and sets values
/// whose magnitude falls below `epsilon` (def, default 1e-3) to exactly 0, so a faded danger
/// costs nothing again.
///
/// Changes: every call that changes values grows a "dirty" rectangle; tn_influence_take_dirty()
/// returns and clears it, ready for tn_field_update(field, &rect, ...).
///
/// Ownership and threads: the caller creates and destroys the map; it owns its array. Readers
/// may share it; writers need exclusive access. Errors: TN_E_INVALID_ARG for NULL, non-finite
/// numbers, radius <= 0, half-life <= 0, dt < 0, unknown falloff; TN_E_NOMEM; TN_E_TOO_LARGE.
#ifndef TILENAV_INFLUENCE_H
#define TILENAV_INFLUENCE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_influence tn_influence;

/// How a source's strength falls with distance.
typedef enum tn_falloff {
    TN_FALLOFF_LINEAR = 0,    ///< s * (1 - d/r) (default)
    TN_FALLOFF_QUADRATIC = 1, ///< s * (1 - d/r)^2
    TN_FALLOFF_CONSTANT = 2,  ///< s everywhere within r
} tn_falloff;

/// Definition of an influence map. Get one from tn_influence_def_default().
typedef struct tn_influence_def {
    int32_t width, height;    ///< cells, 1..TN_MAX_DIM, width*height <= TN_MAX_CELLS
    float epsilon;            ///< magnitudes below this become 0 when decaying (default 1e-3)
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_influence_def_default(); do not touch
} tn_influence_def;

/// A 1x1 map with epsilon 1e-3.
TN_API tn_influence_def tn_influence_def_default(void);
/// Create an all-zero influence map. On failure `*out` is NULL.
TN_API TN_NODISCARD tn_status tn_influence_create(const tn_influence_def *def, tn_influence **out);
/// Destroy. NULL is a no-op.
TN_API void tn_influence_destroy(tn_influence *inf);
/// Bytes held.
TN_API size_t tn_influence_memory_bytes(const tn_influence *inf);

/// Add one source (see the file comment for the formula).
/// @param[in] x        centre in cells, x (any finite value; sources off the map still reach in)
/// @param[in] y        centre in cells, y
/// @param[in] radius   in cells, > 0
/// @param[in] strength any finite value (a field's extra layer must stay >= 0)
TN_API TN_NODISCARD tn_status tn_influence_add(tn_influence *inf, float x, float y, float radius,
                                               float strength, tn_falloff falloff);
/// Multiply every value by 0.5^(dt / half_life) and zero the ones below epsilon.
TN_API TN_NODISCARD tn_status tn_influence_decay(tn_influence *inf, float dt, float half_life);
/// Set every value to 0.
TN_API void tn_influence_clear(tn_influence *inf);

/// Values, row-major, W*H floats (pass as tn_field_def::extra). NULL for NULL.
TN_API const float *tn_influence_data(const tn_influence *inf);
/// Value of one cell; 0 outside.
TN_API float tn_influence_get(const tn_influence *inf, int32_t x, int32_t y);
/// The rectangle changed since the last call (empty when none), then forget it.
TN_API tn_rect tn_influence_take_dirty(tn_influence *inf);

#ifdef __cplusplus
}
#endif

#endif
