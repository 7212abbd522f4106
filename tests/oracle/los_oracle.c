#include "los_oracle.h"

/* Work in doubled coordinates: cell (x, y) is the square [2x, 2x+2] x [2y, 2y+2], centres odd. */
static int64_t cross(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    return ax * by - ay * bx;
}

static int64_t mn(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t mx(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* Does segment PQ meet the open square of cell (x, y)? Separating axes: x, y, and PQ's normal. */
static bool meets_interior(int64_t px, int64_t py, int64_t qx, int64_t qy, int32_t x, int32_t y)
{
    int64_t x0 = 2 * (int64_t)x, x1 = x0 + 2, y0 = 2 * (int64_t)y, y1 = y0 + 2;
    if (mx(px, qx) <= x0 || mn(px, qx) >= x1 || mx(py, qy) <= y0 || mn(py, qy) >= y1)
        return false;
    int64_t dx = qx - px, dy = qy - py;
    int64_t c[4] = {cross(dx, dy, x0 - px, y0 - py), cross(dx, dy, x1 - px, y0 - py),
                    cross(dx, dy, x0 - px, y1 - py), cross(dx, dy, x1 - px, y1 - py)};
    bool all_ge = true, all_le = true;
    for (int k = 0; k < 4; k++) {
        all_ge = all_ge && c[k] >= 0;
        all_le = all_le && c[k] <= 0;
    }
    return !(all_ge || all_le);
}

static bool corner_ok(tn_diagonal rule, bool a, bool b)
{
    if (rule == TN_DIAGONAL_ALWAYS)
        return true;
    if (rule == TN_DIAGONAL_ONE)
        return a || b;
    return a && b; /* NO_CUT, and NEVER treated as NO_CUT */
}

bool tn_oracle_los(const tn_map *map, tn_cell a, tn_cell b, tn_diagonal corner)
{
    if (!tn_map_passable(map, a.x, a.y) || !tn_map_passable(map, b.x, b.y))
        return false;
    int64_t px = 2 * (int64_t)a.x + 1, py = 2 * (int64_t)a.y + 1;
    int64_t qx = 2 * (int64_t)b.x + 1, qy = 2 * (int64_t)b.y + 1;
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (!tn_map_passable(map, x, y) && meets_interior(px, py, qx, qy, x, y))
                return false;
    /* grid corners (even doubled coordinates) strictly inside the segment */
    int64_t sx = qx > px ? 1 : -1, sy = qy > py ? 1 : -1;
    for (int64_t vy = 0; vy <= 2 * (int64_t)h; vy += 2)
        for (int64_t vx = 0; vx <= 2 * (int64_t)w; vx += 2) {
            if (vx <= mn(px, qx) || vx >= mx(px, qx) || vy <= mn(py, qy) || vy >= mx(py, qy))
                continue;
            if (cross(qx - px, qy - py, vx - px, vy - py) != 0)
                continue;
            /* the two cells beside the corner: quadrants (+sx, -sy) and (-sx, +sy) */
            int32_t cx = (int32_t)(vx / 2), cy = (int32_t)(vy / 2);
            int32_t ax = cx + (sx > 0 ? 0 : -1), ay = cy + (-sy > 0 ? 0 : -1);
            int32_t bx = cx + (-sx > 0 ? 0 : -1), by = cy + (sy > 0 ? 0 : -1);
            if (!corner_ok(corner, tn_map_passable(map, ax, ay), tn_map_passable(map, bx, by)))
                return false;
        }
    return true;
}
