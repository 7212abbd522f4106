/* Collision shapes rasterised into map cells by the cover rules of tn_cover_rule (raster.c).
 * The rules are those of docs/formats.md ("Collision shapes"): a shape lives in a frame of its
 * own (the object's unrotated pixels, or a tile's pixels) mapped to map pixels by an affine
 * transform; rectangles and ellipses are tested in that frame, polygons and polylines after
 * their points are mapped. Work is proportional to the cells of the shape's bounding box
 * (clipped to the map), never to the whole map. */
#ifndef TILENAV_IO_RASTER_H
#define TILENAV_IO_RASTER_H

#include "io_internal.h"

/* x' = a*x + b*y + e, y' = c*x + d*y + f */
typedef struct tn__affine {
    double a, b, c, d, e, f;
} tn__affine;

typedef enum tn__shape_kind {
    TN__SHAPE_RECT,
    TN__SHAPE_ELLIPSE,
    TN__SHAPE_POLYGON,
    TN__SHAPE_POLYLINE,
} tn__shape_kind;

typedef struct tn__shape {
    tn__shape_kind kind;
    double x, y, w, h; /* rectangle, ellipse: the box [x, x+w) x [y, y+h) in the own frame */
    const double *pts; /* polygon, polyline: n points (x0, y0, x1, y1, ...) in the own frame */
    size_t n;
    tn__affine m; /* own frame -> map pixels */
} tn__shape;

/* Cells of w x h, each tw x th pixels; the rasteriser ORs `bit` into cells[y*w + x]. When
 * `work` is set, every cell test (and every polygon edge a row visits) adds one to *work, and a
 * shape that would take *work past `budget` is refused with TN_E_TOO_LARGE before its cells
 * are visited, so a file of many huge shapes cannot keep the loader busy for long. */
typedef struct tn__raster_grid {
    int32_t w, h;
    double tw, th;
    uint8_t *cells;
    uint8_t bit;
    uint64_t *work;
    uint64_t budget;
} tn__raster_grid;

tn__affine tn__affine_identity(void);
tn__affine tn__affine_translate(double x, double y);
/* Rotation by `deg` degrees clockwise (y down) about (x, y); exact for multiples of 90. */
tn__affine tn__affine_rotate_about(double deg, double x, double y);
/* p -> outer(inner(p)) */
tn__affine tn__affine_then(const tn__affine *inner, const tn__affine *outer);

/* Mark the cells of g the shape blocks under `rule` (polylines: the cells whose closed square
 * a segment meets, whatever the rule). Returns TN_OK, TN_E_NOMEM (scratch for clipping) or
 * TN_E_TOO_LARGE (past the work budget). */
tn_status tn__raster(const tn__shape *s, tn_cover_rule rule, const tn__raster_grid *g,
                     const tn_allocator *a);

#endif
