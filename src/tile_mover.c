/* STAND-IN tile collision for circles; see tile_mover.h. To be replaced by the shared mover. */
#include "tile_mover.h"

#include "steer_math.h"

#include <math.h>

#define SKIN 1e-3f

tn__mover tn__mover_of_map(const tn_map *map)
{
    tn__mover m;
    m.pass = tn_map_passable_data(map);
    m.w = tn_map_width(map);
    m.h = tn_map_height(map);
    m.tw = (float)tn_map_tile_width(map);
    m.th = (float)tn_map_tile_height(map);
    return m;
}

static bool blocked(const tn__mover *m, int32_t x, int32_t y)
{
    return x < 0 || y < 0 || x >= m->w || y >= m->h ||
           !m->pass[(size_t)y * (size_t)m->w + (size_t)x];
}

/* Overlap of the circle with cell (cx, cy): r - distance to the cell, or r + depth inside it. */
static float cell_overlap(const tn__mover *m, int32_t cx, int32_t cy, float x, float y, float r,
                          float *nx, float *ny)
{
    float x0 = (float)cx * m->tw, y0 = (float)cy * m->th, x1 = x0 + m->tw, y1 = y0 + m->th;
    float qx = x < x0 ? x0 : x > x1 ? x1 : x, qy = y < y0 ? y0 : y > y1 ? y1 : y;
    float dx = x - qx, dy = y - qy, d2 = dx * dx + dy * dy;
    if (d2 > 0.0f) {
        float d = sqrtf(d2);
        *nx = dx / d;
        *ny = dy / d;
        return r - d;
    }
    /* centre inside the cell: out through the nearest face */
    float l = x - x0, rr = x1 - x, t = y - y0, b = y1 - y, best = l;
    *nx = -1.0f;
    *ny = 0.0f;
    if (rr < best) {
        best = rr;
        *nx = 1.0f;
        *ny = 0.0f;
    }
    if (t < best) {
        best = t;
        *nx = 0.0f;
        *ny = -1.0f;
    }
    if (b < best) {
        best = b;
        *nx = 0.0f;
        *ny = 1.0f;
    }
    return r + best;
}

float tn__mover_overlap(const tn__mover *m, float x, float y, float r)
{
    int32_t cx0 = tn__ifloor((x - r) / m->tw), cx1 = tn__ifloor((x + r) / m->tw);
    int32_t cy0 = tn__ifloor((y - r) / m->th), cy1 = tn__ifloor((y + r) / m->th);
    float worst = 0.0f, nx, ny;
    for (int32_t cy = cy0; cy <= cy1; cy++)
        for (int32_t cx = cx0; cx <= cx1; cx++)
            if (blocked(m, cx, cy)) {
                float o = cell_overlap(m, cx, cy, x, y, r, &nx, &ny);
                if (o > worst)
                    worst = o;
            }
    return worst;
}

bool tn__mover_fits(const tn__mover *m, float x, float y, float r)
{
    if (!isfinite(x) || !isfinite(y))
        return false;
    return tn__mover_overlap(m, x, y, r) <= 0.0f;
}

/* Push the circle out of the cells it overlaps, a few rounds; true when it fits afterwards. */
static bool push_out(const tn__mover *m, float *x, float *y, float r)
{
    for (int round = 0; round < 4; round++) {
        int32_t cx0 = tn__ifloor((*x - r) / m->tw), cx1 = tn__ifloor((*x + r) / m->tw);
        int32_t cy0 = tn__ifloor((*y - r) / m->th), cy1 = tn__ifloor((*y + r) / m->th);
        bool any = false;
        for (int32_t cy = cy0; cy <= cy1; cy++)
            for (int32_t cx = cx0; cx <= cx1; cx++) {
                if (!blocked(m, cx, cy))
                    continue;
                float nx, ny, o = cell_overlap(m, cx, cy, *x, *y, r, &nx, &ny);
                if (o > 0.0f) {
                    *x += nx * (o + SKIN);
                    *y += ny * (o + SKIN);
                    any = true;
                }
            }
        if (!any)
            return true;
    }
    return tn__mover_fits(m, *x, *y, r);
}

void tn__mover_move(const tn__mover *m, float *x, float *y, float r, float dx, float dy)
{
    float len = fmaxf(fabsf(dx), fabsf(dy));
    if (!(len > 0.0f) || !isfinite(len))
        return;
    float tmin = m->tw < m->th ? m->tw : m->th, maxstep = 0.25f * tmin;
    float fsub = ceilf(len / maxstep);
    int32_t nsub = fsub > 65536.0f ? 65536 : fsub < 1.0f ? 1 : (int32_t)fsub;
    float sx = dx / (float)nsub, sy = dy / (float)nsub;
    float cx = *x, cy = *y;
    for (int32_t s = 0; s < nsub; s++) {
        float nx = cx + sx, ny = cy + sy;
        if (tn__mover_fits(m, nx, ny, r)) {
            cx = nx;
            cy = ny;
            continue;
        }
        float px = nx, py = ny;
        if (push_out(m, &px, &py, r) && fabsf(px - cx) <= 2.0f * maxstep &&
            fabsf(py - cy) <= 2.0f * maxstep) {
            cx = px;
            cy = py;
            continue;
        }
        if (sx != 0.0f && tn__mover_fits(m, cx + sx, cy, r)) {
            cx += sx;
            continue;
        }
        if (sy != 0.0f && tn__mover_fits(m, cx, cy + sy, r)) {
            cy += sy;
            continue;
        }
        break;
    }
    *x = cx;
    *y = cy;
}
