/// @file io.h
/// @brief Loaders (library `tilenav_io`, which links cJSON, zlib, zstd and expat; the core
/// library does not): Moving AI benchmark maps and scenarios, Tiled maps (JSON `.tmj`/`.json`
/// and XML `.tmx`, with their external tilesets and templates), and tilenav's ASCII format.
///
/// Every loader reports bad input through an optional ::tn_diag naming the file, the place
/// (line and column for text formats, a field path for JSON) and what was wrong, and returns
/// TN_E_PARSE, TN_E_IO, TN_E_UNSUPPORTED or TN_E_TOO_LARGE. No loader trusts a size from the
/// file before checking it against the limits in base.h, so bad input never causes a huge
/// allocation. Loaders keep no state between calls and are safe to call from many threads, with
/// one caveat: Tiled files are parsed by cJSON, which writes its last-error position into a
/// process-wide variable of its own, so concurrent Tiled loads race on that variable (the
/// result of each load is unaffected; ThreadSanitizer reports it).
///
/// The formats, the Tiled property names that block or cost, Tiled's collision conventions
/// (tile collision shapes, collision object layers, the cover rules), the origin convention for
/// infinite Tiled maps and the ASCII grammar are in docs/formats.md.
#ifndef TILENAV_IO_H
#define TILENAV_IO_H

#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Where and why a load failed. line/column are 1-based; 0 when not applicable.
typedef struct tn_diag {
    char file[512];    ///< the file being read (may be an external tileset, not the map)
    int32_t line;      ///< 1-based line, 0 if unknown
    int32_t column;    ///< 1-based column, 0 if unknown
    char where[256];   ///< JSON field path such as "layers[2].data", or empty
    char message[256]; ///< what was wrong
} tn_diag;

/// "file:line:col: message" (or "file: where: message"), NUL-terminated, truncated to cap.
/// Returns the length of the full text (as snprintf does).
TN_API size_t tn_diag_format(const tn_diag *diag, char *buf, size_t cap);

typedef enum tn_format {
    TN_FORMAT_AUTO = 0, ///< detect from the content (then the extension)
    TN_FORMAT_MOVINGAI, ///< Moving AI `.map` (type octile)
    TN_FORMAT_TILED,    ///< Tiled JSON (`.tmj`, `.json`)
    TN_FORMAT_ASCII,    ///< tilenav ASCII (see docs/formats.md)
    TN_FORMAT_TMX,      ///< Tiled XML (`.tmx`), read by expat; its tilesets may be `.tsx`
} tn_format;

/// "movingai", "tiled", "ascii", "tmx" or "auto".
TN_API const char *tn_format_name(tn_format format);

/// Tiled's collision conventions, as bits of tn_load_def.collision (docs/formats.md has the
/// exact rules). Each one can only block cells; none makes a blocked cell passable.
typedef enum tn_collision_flags {
    /// Per-tile properties (`collides`, `solid`, `passable: false`, a `cost`...): terrain entries.
    TN_COLLIDE_PROPERTIES = 1u << 0,
    /// Shapes drawn on tiles in Tiled's collision editor (the tileset's per-tile objectgroup):
    /// a tile whose shapes cover a cell by tn_load_def.cover blocks it.
    TN_COLLIDE_TILE_SHAPES = 1u << 1,
    /// Object layers marked as collision (tn_load_def.collision_layers): their rectangles,
    /// ellipses, polygons and polylines (and tile objects' shapes) block the cells they cover.
    TN_COLLIDE_OBJECT_LAYERS = 1u << 2,
    TN_COLLIDE_ALL = 7u,
} tn_collision_flags;

/// When a collision shape blocks a cell.
typedef enum tn_cover_rule {
    TN_COVER_CENTER = 0, ///< the shape contains the cell's centre (the default)
    TN_COVER_ANY,        ///< the shape overlaps the cell with a positive area (conservative)
    TN_COVER_HALF,       ///< the shape covers more than half of the cell's area
} tn_cover_rule;

/// What the loader read, per collision convention: filled by the Tiled loaders (JSON and TMX)
/// when tn_load_def.report is set; zeroed first, so a failed load leaves zeros. A cell may
/// count under several conventions; a convention switched off counts nothing.
typedef struct tn_load_report {
    int32_t cells_blocked;            ///< impassable cells of the loaded map, all causes
    int32_t blocked_by_properties;    ///< cells holding a gid whose properties block
    int32_t blocked_by_tile_shapes;   ///< cells blocked by tiles' collision shapes
    int32_t blocked_by_object_layers; ///< cells blocked by shapes on collision object layers
    int32_t tiles_with_shapes;        ///< tiles (of all tilesets) with a shape that can block
    int32_t collision_layers;         ///< object layers taken as collision layers
    int32_t collision_objects;        ///< objects rasterised from those layers
} tn_load_report;

/// Name of the tile layer into which the loader rasterises collision objects and the shapes of
/// tiles that are not one cell in size (a TN_LAYER_TERRAIN layer holding TN_COLLISION_GID
/// where blocked, 0 elsewhere), added after the file's layers. Only added when some cell is
/// blocked that way. Tiles of one cell's size whose shapes block get a blocking terrain entry
/// instead, as a blocking property gives.
#define TN_COLLISION_LAYER "tilenav:collision"
/// The gid the loader writes into TN_COLLISION_LAYER; its terrain entry blocks.
#define TN_COLLISION_GID ((uint32_t)TN_MAX_TERRAIN_GID - 1u)

/// How tn_map_load() / tn_map_parse() read a map. Get one from tn_load_def_default() and change
/// the fields; a NULL definition means the defaults.
typedef struct tn_load_def {
    tn_format format;       ///< default TN_FORMAT_AUTO
    tn_allocator allocator; ///< for the map; zeroed = malloc/free
    size_t max_file_bytes;  ///< files larger than this are refused (default 256 MiB)
    int32_t tile_width;     ///< pixel size for formats without one (Moving AI; default 32)
    int32_t tile_height;    ///< (default 32)
    /// Largest sum of W*H over all tile layers a loader allocates (default 2^28 gids, 1 GiB):
    /// a small compressed file cannot make a loader allocate more. A map with no tile layer
    /// counts as one (its own per-cell data). Past it: TN_E_TOO_LARGE.
    size_t max_layer_cells;
    /// Largest number of JSON values (numbers, strings, arrays, objects...) in one Tiled file,
    /// counted before parsing (default 2^24; the parsed tree costs about 64 bytes per value).
    size_t max_json_values;
    /// Which collision conventions of Tiled maps block cells (default TN_COLLIDE_ALL).
    uint32_t collision;
    /// When a collision shape blocks a cell (default TN_COVER_CENTER).
    tn_cover_rule cover;
    /// Comma-separated, case-insensitive names that mark an object layer as collision when
    /// they are its name, its class (`type` before Tiled 1.9), or the name of a true bool
    /// property on it (default "collision,collisions,collider,colliders,walls,wall,solid,
    /// obstacles,blocked"). NULL or "" turns the marker off.
    const char *collision_layers;
    /// Optional: filled with what the loader read (may be NULL).
    tn_load_report *report;
    /// Optional (NULL): called by tn_map_load() with the path of every file it has read, in
    /// the order read: the map, then its external tilesets and templates (paths as the loader
    /// opened them). A game can watch them for hot reloading; the CLI refuses to write an
    /// output over any of them. Not called by tn_map_parse() for the text it is given.
    void (*on_file)(const char *path, void *user);
    void *on_file_user;       ///< passed to on_file
    uint32_t internal_cookie; ///< set by tn_load_def_default(); do not touch
} tn_load_def;

/// Deepest nesting of JSON arrays/objects accepted in a Tiled file (a map needs about 8 plus
/// 2 per group level).
#define TN_MAX_JSON_DEPTH 64

TN_API tn_load_def tn_load_def_default(void);

/// Load a map file. `opts` and `diag` may be NULL. On failure `*out` is NULL.
/// Tiled maps: one layer per tile or object layer (groups flattened as "group/child", image
/// layers skipped), terrain from per-tile properties and collision shapes, collision object
/// layers rasterised into TN_COLLISION_LAYER, objects (templates applied) and tilesets
/// recorded; an infinite map spans its chunks and gets an object "origin" of type
/// "tilenav:origin".
TN_API TN_NODISCARD tn_status tn_map_load(const char *path, const tn_load_def *opts, tn_map **out,
                                          tn_diag *diag);

/// Parse a map from memory. `name` is used in messages and, for Tiled maps, to resolve
/// external tilesets relative to its folder (may be NULL: then they are looked up relative to
/// the current directory).
TN_API TN_NODISCARD tn_status tn_map_parse(const char *data, size_t len, const char *name,
                                           const tn_load_def *opts, tn_map **out, tn_diag *diag);

/// The format of a buffer: from its content, then from the name's extension.
TN_API tn_format tn_map_detect_format(const char *name, const char *data, size_t len);

/// @name Moving AI scenarios (`.scen`, version 1 / 1.0)
/// @{
typedef struct tn_scenario {
    int32_t bucket;
    int32_t map_width, map_height;
    tn_cell start, goal;
    double optimal;   ///< optimal length as printed in the file
    int32_t decimals; ///< decimals printed for `optimal` (for the comparison tolerance)
} tn_scenario;

typedef struct tn_scenarios tn_scenarios;

TN_API TN_NODISCARD tn_status tn_scenarios_load(const char *path, const tn_allocator *allocator,
                                                tn_scenarios **out, tn_diag *diag);
TN_API TN_NODISCARD tn_status tn_scenarios_parse(const char *data, size_t len, const char *name,
                                                 const tn_allocator *allocator, tn_scenarios **out,
                                                 tn_diag *diag);
TN_API void tn_scenarios_destroy(tn_scenarios *scen);
TN_API int32_t tn_scenarios_count(const tn_scenarios *scen);
/// Scenario by index, or NULL.
TN_API const tn_scenario *tn_scenarios_at(const tn_scenarios *scen, int32_t index);
/// Does a path length match the scenario's optimum within the benchmark's tolerance
/// (|len - opt| <= 1e-4*opt + 1e-3 + 0.5*10^-decimals)?
TN_API bool tn_scenario_matches(const tn_scenario *scen, double length);
/// @}

#ifdef __cplusplus
}
#endif

#endif
