/* The grid layer's out-of-line parts: the move tables and the map fingerprint (grid.h). */
#include "grid.h"

#include "tilenav/field.h"
#include "tilenav/moves.h"

const int8_t tn__dir_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
const int8_t tn__dir_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
/* tn_dir E, SE, S, SW, W, NW, N, NE -> moves 0, 4, 2, 6, 1, 7, 3, 5 */
const uint8_t tn__move_of_dir[8] = {0, 4, 2, 6, 1, 7, 3, 5};

int32_t tn_dir_dx(int32_t dir)
{
    static const int8_t dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    return dir >= 0 && dir < 8 ? dx[dir] : 0;
}

int32_t tn_dir_dy(int32_t dir)
{
    static const int8_t dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    return dir >= 0 && dir < 8 ? dy[dir] : 0;
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ull;
}

uint64_t tn__grid_fingerprint(const tn_map *map, const tn__grid *g)
{
    uint64_t f = mix(0, (uint64_t)(uintptr_t)map);
    f = mix(f, (uint64_t)(uintptr_t)g->pass);
    f = mix(f, (uint64_t)(uint32_t)g->w << 32 | (uint32_t)g->h);
    f = mix(f, g->revision);
    return mix(f, g->passable_hash);
}

uint64_t tn__map_fingerprint(const tn_map *map)
{
    tn__grid g;
    tn__map_grid(map, &g);
    return tn__grid_fingerprint(map, &g);
}

/* ---- line of sight on the grid ---------------------------------------------------------- */

bool tn__grid_los(const tn__grid *g, tn_cell a, tn_cell b, tn_diagonal corner)
{
    if (!tn__grid_passable(g, a.x, a.y) || !tn__grid_passable(g, b.x, b.y))
        return false;
    if (corner == TN_DIAGONAL_NEVER) /* a line cannot keep to rows and columns */
        corner = TN_DIAGONAL_NO_CUT;
    int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
    int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
    int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    int32_t x = a.x, y = a.y;
    for (int64_t ix = 0, iy = 0; ix < nx || iy < ny;) {
        /* next vertical grid line at t = (1+2ix)/(2nx), next horizontal at (1+2iy)/(2ny) */
        int64_t cmp = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if (cmp == 0) {
            bool fa = tn__grid_passable(g, x + sx, y), fb = tn__grid_passable(g, x, y + sy);
            if (!tn_moves_diagonal_ok(corner, fa, fb))
                return false;
            x += sx;
            y += sy;
            ix++;
            iy++;
        } else if (cmp < 0) {
            x += sx;
            ix++;
        } else {
            y += sy;
            iy++;
        }
        if (!tn__grid_passable(g, x, y))
            return false;
    }
    return true;
}

bool tn_los_clear(const tn_map *map, tn_cell a, tn_cell b, tn_diagonal corner)
{
    if (!map)
        return false;
    tn__grid g;
    tn__map_grid(map, &g);
    return tn__grid_los(&g, a, b, corner);
}
