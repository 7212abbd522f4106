/// @file path.h
/// @brief Utilities on paths of cells (as returned by tn_search_path()): pixel waypoints,
/// compression to turning points, line of sight and string-pulling smoothing.
///
/// Ownership: every function reads caller arrays and writes caller buffers; nothing is
/// allocated. Output may alias input (`out == cells`) for tn_path_compress() and
/// tn_path_smooth(), which only ever write at or before the position they read.
///
/// Threads: the functions are pure; any number may run at once on one map (`const tn_map*`).
///
/// Errors: TN_E_INVALID_ARG (NULL with a non-zero count, negative counts),
/// TN_E_BUFFER_TOO_SMALL (the result does not fit: `*len` is the length needed).
#ifndef TILENAV_PATH_H
#define TILENAV_PATH_H

#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Cell centres in pixels (tn_map_cell_center_px) of `n` cells into `out` (n entries).
TN_API TN_NODISCARD tn_status tn_path_to_px(const tn_map *map, const tn_cell *cells, int32_t n,
                                            tn_vec2 *out);

/// Keep only the first cell, the last cell and the cells where the direction of travel changes.
/// @param[out] len number of cells kept (also the need on TN_E_BUFFER_TOO_SMALL)
TN_API TN_NODISCARD tn_status tn_path_compress(const tn_cell *cells, int32_t n, tn_cell *out,
                                               int32_t cap, int32_t *len);

/// Line of sight between the centres of cells a and b: true when every cell whose closed square
/// the segment touches is inside the map and passable. A segment through the common corner of
/// four cells touches all four, so a clear line never squeezes past a blocked corner.
TN_API bool tn_path_line_clear(const tn_map *map, tn_cell a, tn_cell b);

/// String pulling: from each kept waypoint, skip ahead to the farthest later cell of the path
/// still in line of sight (tn_path_line_clear), and keep that one. The result starts and ends
/// like the input, and walking straight between consecutive waypoints never enters a blocked
/// cell nor cuts a blocked corner. Needs a path whose consecutive cells are in line of sight
/// (any path from tn_search_path() without corner cutting); otherwise TN_E_INVALID_ARG.
TN_API TN_NODISCARD tn_status tn_path_smooth(const tn_map *map, const tn_cell *cells, int32_t n,
                                             tn_cell *out, int32_t cap, int32_t *len);

/// Euclidean length of a polyline through the cell centres, in cells.
TN_API double tn_path_length(const tn_cell *cells, int32_t n);

#ifdef __cplusplus
}
#endif

#endif
