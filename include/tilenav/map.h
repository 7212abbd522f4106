/// @file map.h
/// @brief The tile map: a grid of W x H cells, any number of named layers of tile ids (gids),
/// a terrain table that says which gids block and what entering a cell costs, object layers
/// (named points and rectangles), and a change log so that paths and fields can tell when the
/// map changed.
///
/// Terrain: every tile layer flagged TN_LAYER_TERRAIN (the default for new tile layers) takes
/// part. A cell is impassable when any of those layers holds a gid whose terrain entry is
/// blocking; otherwise its cost is the largest cost among those of its gids that have a terrain
/// entry (1 when none has). Gids without an entry are passable and do not affect the cost, so a
/// fresh map is open ground of cost 1 and a road tile of cost 0.5 over plain grass costs 0.5.
/// The map keeps the resulting per-cell passability and cost up to date on every edit, so
/// readers (searches, fields, agents) only read two flat arrays.
///
/// Coordinates: cells are (x = column, y = row) from 0 at the top-left; pixels are world units
/// with the cell (x, y) covering [x*tw, (x+1)*tw) x [y*th, (y+1)*th). Every accessor is
/// bounds-checked: a cell outside the map reads as empty gid 0 and impassable.
///
/// Threads: the functions taking `const tn_map*` never write to the map and may run from any
/// number of threads at once, as long as no thread edits the map at the same time.
#ifndef TILENAV_MAP_H
#define TILENAV_MAP_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tn_map tn_map;

/// Definition of a new map. Get one from tn_map_def_default() and change the fields.
typedef struct tn_map_def {
    int32_t width;            ///< cells, 1..TN_MAX_DIM (default 1)
    int32_t height;           ///< cells, 1..TN_MAX_DIM (default 1)
    int32_t tile_width;       ///< pixels per cell horizontally, >= 1 (default 32)
    int32_t tile_height;      ///< pixels per cell vertically, >= 1 (default 32)
    tn_allocator allocator;   ///< zeroed = malloc/free
    uint32_t internal_cookie; ///< set by tn_map_def_default(); do not touch
} tn_map_def;

/// Kinds of layer.
typedef enum tn_layer_kind {
    TN_LAYER_TILES = 0,   ///< W x H gids
    TN_LAYER_OBJECTS = 1, ///< named points and rectangles (see tn_map_object)
} tn_layer_kind;

/// Layer flags.
enum {
    TN_LAYER_TERRAIN = 1u << 0, ///< its gids take part in passability and cost (tile layers)
    TN_LAYER_HIDDEN = 1u << 1,  ///< not drawn by renderers (Tiled's visible=false)
};

/// Terrain entry of one gid.
typedef struct tn_terrain {
    bool passable; ///< false: a cell holding this gid cannot be entered
    float cost;    ///< cost multiplier for entering the cell, > 0 and <= TN_MAX_COST (default 1)
} tn_terrain;

/// An object of an object layer (Tiled objects, spawn points, trigger areas...).
typedef struct tn_map_object {
    char name[TN_MAX_NAME]; ///< may be empty
    char type[TN_MAX_NAME]; ///< Tiled's class/type; may be empty
    int32_t layer;          ///< index of the layer it belongs to, or -1 for none
    int32_t id;             ///< id from the source file, or 0
    uint32_t gid;           ///< tile objects: the raw gid; otherwise 0
    float x, y, w, h;       ///< pixels; w = h = 0 for points
    uint32_t shape;         ///< 0 rectangle, 1 point, 2 ellipse, 3 polygon, 4 polyline, 5 text
} tn_map_object;

/// A tileset as read from a Tiled map (kept for renderers; the terrain table is separate).
typedef struct tn_tileset {
    uint32_t first_gid;
    int32_t tile_count, columns;
    int32_t tile_width, tile_height, margin, spacing;
    char name[TN_MAX_NAME];
    char image[1024]; ///< image path relative to the current directory, or empty
} tn_tileset;

/// A definition with its defaults: a 1x1 map of 32x32 pixel tiles, malloc/free.
TN_API tn_map_def tn_map_def_default(void);

/// Create a map with no layers. On failure `*out` is NULL.
/// @return TN_E_INVALID_ARG (NULL, def not from tn_map_def_default, size < 1),
///         TN_E_TOO_LARGE (past TN_MAX_DIM / TN_MAX_CELLS), TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_map_create(const tn_map_def *def, tn_map **out);

/// Destroy a map and everything it owns. NULL is a no-op.
TN_API void tn_map_destroy(tn_map *map);

/// Deep copy (layers, terrain, objects, tilesets; the change log starts afresh).
TN_API TN_NODISCARD tn_status tn_map_clone(const tn_map *map, tn_map **out);

TN_API int32_t tn_map_width(const tn_map *map);
TN_API int32_t tn_map_height(const tn_map *map);
TN_API int32_t tn_map_tile_width(const tn_map *map);
TN_API int32_t tn_map_tile_height(const tn_map *map);
/// Bytes of memory the map holds.
TN_API size_t tn_map_memory_bytes(const tn_map *map);

/// @name Layers
/// @{
/// Add a layer named `name` (at most TN_MAX_NAME-1 bytes; duplicates allowed, lookups find
/// the first). Tile layers start all 0 with flag TN_LAYER_TERRAIN. `*out_index` may be NULL.
TN_API TN_NODISCARD tn_status tn_map_add_layer(tn_map *map, const char *name, tn_layer_kind kind,
                                               int32_t *out_index);
TN_API int32_t tn_map_layer_count(const tn_map *map);
/// Index of the first layer with that name, or -1.
TN_API int32_t tn_map_find_layer(const tn_map *map, const char *name);
/// Name of a layer, or NULL when the index is out of range.
TN_API const char *tn_map_layer_name(const tn_map *map, int32_t layer);
TN_API tn_layer_kind tn_map_layer_kind(const tn_map *map, int32_t layer);
TN_API uint32_t tn_map_layer_flags(const tn_map *map, int32_t layer);
/// Replace a layer's flags; changing TN_LAYER_TERRAIN recomputes the terrain of every cell.
TN_API TN_NODISCARD tn_status tn_map_set_layer_flags(tn_map *map, int32_t layer, uint32_t flags);
/// Read-only view of a tile layer's raw gids, row-major, W*H entries; NULL if not a tile layer.
TN_API const uint32_t *tn_map_layer_data(const tn_map *map, int32_t layer);
/// @}

/// @name Cells
/// @{
/// Row-major index of a cell, or -1 when outside the map.
TN_API int32_t tn_map_index(const tn_map *map, int32_t x, int32_t y);
/// Cell of an index; false (and *out untouched) when the index is outside the map.
TN_API bool tn_map_cell_of_index(const tn_map *map, int32_t index, tn_cell *out);
TN_API bool tn_map_contains(const tn_map *map, int32_t x, int32_t y);
/// Cell under a pixel position (floor division, so negative pixels give negative cells).
/// Returns false when that cell is outside the map; *out is set either way. Non-finite input
/// returns false and sets *out to (-1, -1).
TN_API bool tn_map_cell_at_px(const tn_map *map, float px, float py, tn_cell *out);
/// Row-major index under a pixel position, or -1 outside the map.
TN_API int32_t tn_map_index_at_px(const tn_map *map, float px, float py);
/// Centre of a cell in pixels (defined for any cell, inside the map or not).
TN_API tn_vec2 tn_map_cell_center_px(const tn_map *map, int32_t x, int32_t y);
/// Top-left corner of a cell in pixels.
TN_API tn_vec2 tn_map_cell_origin_px(const tn_map *map, int32_t x, int32_t y);

/// Raw gid (flags included) of a cell in a tile layer; 0 outside the map or for a bad layer.
TN_API uint32_t tn_map_get(const tn_map *map, int32_t layer, int32_t x, int32_t y);
/// Set a raw gid. Updates terrain and the change log.
/// @return TN_E_OUT_OF_MAP, TN_E_INVALID_ARG (bad layer, or an object layer).
TN_API TN_NODISCARD tn_status tn_map_set(tn_map *map, int32_t layer, int32_t x, int32_t y,
                                         uint32_t gid);
/// Set every cell of `rect` (clipped to the map) to `gid`.
TN_API TN_NODISCARD tn_status tn_map_fill(tn_map *map, int32_t layer, tn_rect rect, uint32_t gid);
/// Write the raw gids of `rect` (row-major, rect's width x height of them; the rect must lie in
/// the map) as one change of the change log: the bounding box of the cells that changed (an
/// empty change when none did). For edits of mixed gids that tn_map_fill() cannot do in one.
/// @return TN_E_OUT_OF_MAP (rect not inside the map), TN_E_INVALID_ARG (bad layer, an object
///         layer, NULL gids for a non-empty rect).
TN_API TN_NODISCARD tn_status tn_map_set_rect(tn_map *map, int32_t layer, tn_rect rect,
                                              const uint32_t *gids);
/// Replace a whole tile layer with `count` = W*H raw gids (row-major).
TN_API TN_NODISCARD tn_status tn_map_set_layer_data(tn_map *map, int32_t layer,
                                                    const uint32_t *gids, int32_t count);
/// @}

/// @name Terrain
/// @{
/// Set the terrain entry of a tile id (flags are ignored: pass either a raw gid or an id).
/// @return TN_E_INVALID_ARG (gid 0, cost not > 0 and <= TN_MAX_COST), TN_E_TOO_LARGE (id past
///         TN_MAX_TERRAIN_GID - 1), TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_map_set_terrain(tn_map *map, uint32_t gid, tn_terrain terrain);
/// Set `count` terrain entries at once (gids[i] gets t[i]; later entries win) and update the
/// cells once, which is much faster than calling tn_map_set_terrain() in a loop on a big map.
/// Every entry is checked first; on TN_E_INVALID_ARG / TN_E_TOO_LARGE nothing is changed.
/// @return as tn_map_set_terrain(); TN_E_NOMEM may leave part of the entries set.
TN_API TN_NODISCARD tn_status tn_map_set_terrain_many(tn_map *map, const uint32_t *gids,
                                                      const tn_terrain *terrain, int32_t count);
/// Shorthand: every gid in the list blocks (a list of obstacle gids).
TN_API TN_NODISCARD tn_status tn_map_set_obstacles(tn_map *map, const uint32_t *gids,
                                                   int32_t count);
/// Terrain entry of a gid (passable, cost 1 when it has none).
TN_API tn_terrain tn_map_terrain(const tn_map *map, uint32_t gid);
/// Forget every terrain entry (all gids passable at cost 1).
TN_API void tn_map_clear_terrain(tn_map *map);

/// Can the cell be entered? False outside the map.
TN_API bool tn_map_passable(const tn_map *map, int32_t x, int32_t y);
/// Cost multiplier for entering the cell; +INFINITY when impassable or outside.
TN_API float tn_map_cost(const tn_map *map, int32_t x, int32_t y);
/// Per-cell passability (1/0), row-major, W*H bytes. Valid until the next edit of the map.
TN_API const uint8_t *tn_map_passable_data(const tn_map *map);
/// Per-cell cost (+INFINITY when impassable), row-major, W*H floats.
TN_API const float *tn_map_cost_data(const tn_map *map);
/// Number of passable cells.
TN_API int32_t tn_map_passable_count(const tn_map *map);
/// A lower bound on the cost of every passable cell, which heuristics scale by: the least
/// cost among the passable terrain entries and cost 1 (the cost of a gid without an entry), so
/// an entry that no cell holds may lower it. 1 on a map without entries.
TN_API float tn_map_min_cost(const tn_map *map);
/// True when every passable cell costs exactly 1 (JPS then needs no cost boundaries).
TN_API bool tn_map_uniform_cost(const tn_map *map);
/// @}

/// @name Changes
/// @{
/// Revision counter: grows by one on every edit of gids or layer flags that may change a
/// cell's terrain (tn_map_set_rect() of an empty rectangle counts too; setting a cell to the
/// gid it holds, or the flags of a layer with no gids, does not), and on an edit of the
/// terrain table that changes some cell's passability or cost or the least cost
/// (tn_map_min_cost); a terrain entry for a gid no cell holds leaves it (and so the fields,
/// regions and caches built on the map stay current).
TN_API uint64_t tn_map_revision(const tn_map *map);
/// The bounding rectangle of the cells whose terrain may have changed since `revision`.
/// Returns true and an empty rect when nothing changed, true and the region otherwise, and
/// false with the whole map when `revision` is too old for the log (or from the future).
TN_API bool tn_map_changed_region(const tn_map *map, uint64_t revision, tn_rect *out);
/// @}

/// @name Objects and tilesets
/// @{
/// Add a copy of `object` (objects are kept for games and renderers: spawn points, regions;
/// the map's passability never reads them).
/// @return TN_OK; TN_E_INVALID_ARG (NULL, a coordinate or size not finite, a name or type
///         without its terminating NUL, `layer` neither -1 nor an index below
///         tn_map_layer_count(), `shape` past 5); TN_E_NOMEM.
TN_API TN_NODISCARD tn_status tn_map_add_object(tn_map *map, const tn_map_object *object);
TN_API int32_t tn_map_object_count(const tn_map *map);
/// Object by index, or NULL.
TN_API const tn_map_object *tn_map_object_at(const tn_map *map, int32_t index);
/// First object with that name, or NULL.
TN_API const tn_map_object *tn_map_find_object(const tn_map *map, const char *name);
TN_API TN_NODISCARD tn_status tn_map_add_tileset(tn_map *map, const tn_tileset *tileset);
TN_API int32_t tn_map_tileset_count(const tn_map *map);
TN_API const tn_tileset *tn_map_tileset_at(const tn_map *map, int32_t index);
/// A tile id no tileset's range, layer cell or terrain entry of the map uses (the loader's
/// TN_COLLISION_GID aside): the one above the largest in use. For a game's own tiles on a
/// loaded map (a tower, a closed door: give it a terrain entry and fill a layer of the game's
/// own; docs/map.md). 0 when none is left below TN_MAX_TERRAIN_GID - 1, or for NULL. Scans
/// every tile layer: call it once, after loading.
TN_API uint32_t tn_map_free_gid(const tn_map *map);
/// @}

/// @name Live layers
/// @{
/// A moving thing stamped into a layer by tn_map_stamp_layer().
typedef struct tn_stamp {
    float x, y;   ///< a point in pixels, usually the sprite's centre
    uint32_t gid; ///< gid written at the cell under (x, y)
} tn_stamp;

/// Stamp moving things into a layer: clear a tile layer to 0, then write each stamp's gid at the
/// cell under its position (later stamps win when several share a cell; stamps outside the map are
/// skipped). If `out_indices` is not NULL it receives each stamp's cell index (-1 outside).
TN_API TN_NODISCARD tn_status tn_map_stamp_layer(tn_map *map, int32_t layer, const tn_stamp *stamps,
                                                 int32_t count, int32_t *out_indices);

/// Overlay two layers: the indices of cells where layer `a` holds tile id `gid_a` and layer
/// `b` holds tile id `gid_b` (flags ignored), ascending. Writes at most `cap` indices and sets
/// `*count` to how many match; TN_E_BUFFER_TOO_SMALL when cap < *count.
TN_API TN_NODISCARD tn_status tn_map_overlay(const tn_map *map, int32_t a, uint32_t gid_a,
                                             int32_t b, uint32_t gid_b, int32_t *out, int32_t cap,
                                             int32_t *count);
/// @}

#ifdef __cplusplus
}
#endif

#endif
