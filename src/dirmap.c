/* Direction ("angle") maps: headings in degrees per cell. */
#include "tilenav/dirmap.h"

#include "det_math.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define TN_COOKIE_DIRMAP 0x44495231u
#define TN_PI 3.14159265358979323846

struct tn_dirmap {
    tn_allocator alloc;
    int32_t w, h;
    size_t n;
    float *deg; /* NaN = none */
};

tn_dirmap_def tn_dirmap_def_default(void)
{
    tn_dirmap_def d;
    memset(&d, 0, sizeof d);
    d.width = 1;
    d.height = 1;
    d.internal_cookie = TN_COOKIE_DIRMAP;
    return d;
}

tn_status tn_dirmap_create(const tn_dirmap_def *def, tn_dirmap **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_DIRMAP || def->width < 1 || def->height < 1 ||
        (def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    if (def->width > TN_MAX_DIM || def->height > TN_MAX_DIM ||
        (int64_t)def->width * def->height > TN_MAX_CELLS)
        return TN_E_TOO_LARGE;
    tn_dirmap *m = tn__calloc(&def->allocator, sizeof *m);
    if (!m)
        return TN_E_NOMEM;
    m->alloc = def->allocator;
    m->w = def->width;
    m->h = def->height;
    m->n = (size_t)m->w * (size_t)m->h;
    m->deg = tn__alloc(&m->alloc, m->n * sizeof(float));
    if (!m->deg) {
        tn_dirmap_destroy(m);
        return TN_E_NOMEM;
    }
    for (size_t i = 0; i < m->n; i++)
        m->deg[i] = NAN;
    *out = m;
    return TN_OK;
}

void tn_dirmap_destroy(tn_dirmap *m)
{
    if (!m)
        return;
    tn_allocator a = m->alloc;
    tn__free(&a, m->deg, m->n * sizeof(float));
    tn__free(&a, m, sizeof *m);
}

int32_t tn_dirmap_width(const tn_dirmap *m)
{
    return m ? m->w : 0;
}

int32_t tn_dirmap_height(const tn_dirmap *m)
{
    return m ? m->h : 0;
}

static float wrap360(float d)
{
    double r = fmod((double)d, 360.0);
    if (r < 0.0)
        r += 360.0;
    if (r >= 360.0)
        r = 0.0;
    return (float)r;
}

tn_status tn_dirmap_set(tn_dirmap *m, int32_t x, int32_t y, float degrees)
{
    if (!m || isinf(degrees))
        return TN_E_INVALID_ARG;
    if (x < 0 || y < 0 || x >= m->w || y >= m->h)
        return TN_E_OUT_OF_MAP;
    m->deg[(size_t)y * (size_t)m->w + (size_t)x] = isnan(degrees) ? NAN : wrap360(degrees);
    return TN_OK;
}

float tn_dirmap_get(const tn_dirmap *m, int32_t x, int32_t y)
{
    if (!m || x < 0 || y < 0 || x >= m->w || y >= m->h)
        return NAN;
    return m->deg[(size_t)y * (size_t)m->w + (size_t)x];
}

tn_vec2 tn_dirmap_vector(const tn_dirmap *m, int32_t x, int32_t y)
{
    float d = tn_dirmap_get(m, x, y);
    if (isnan(d))
        return (tn_vec2){0.0f, 0.0f};
    double a = (double)d * (TN_PI / 180.0);
    double s, c;
    tn__dm_sincos(a, &s, &c);
    return (tn_vec2){(float)c, (float)s};
}

float tn_dirmap_at_px(const tn_dirmap *m, float px, float py, int32_t tw, int32_t th)
{
    if (!m || tw < 1 || th < 1 || !isfinite(px) || !isfinite(py))
        return NAN;
    double cx = floor((double)px / tw), cy = floor((double)py / th);
    if (cx < 0 || cy < 0 || cx >= m->w || cy >= m->h)
        return NAN;
    return tn_dirmap_get(m, (int32_t)cx, (int32_t)cy);
}

tn_status tn_dirmap_load_layer(tn_dirmap *m, const tn_map *map, int32_t layer, const float *table,
                               int32_t table_len)
{
    if (!m || !map || tn_map_width(map) != m->w || tn_map_height(map) != m->h || table_len < 0 ||
        (table_len > 0 && !table))
        return TN_E_INVALID_ARG;
    const uint32_t *g = tn_map_layer_data(map, layer);
    if (!g)
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < table_len; i++)
        if (isinf(table[i]))
            return TN_E_INVALID_ARG;
    for (size_t i = 0; i < m->n; i++) {
        uint32_t id = tn_gid_id(g[i]);
        float d;
        if (table)
            d = id < (uint32_t)table_len ? table[id] : NAN;
        else
            d = (float)id;
        m->deg[i] = isnan(d) ? NAN : wrap360(d);
    }
    return TN_OK;
}

tn_status tn_dirmap_from_field(tn_dirmap *m, const tn_field *f)
{
    if (!m || !f || tn_field_width(f) != m->w || tn_field_height(f) != m->h)
        return TN_E_INVALID_ARG;
    if (!tn_field_ready(f))
        return TN_E_STATE;
    for (int32_t y = 0; y < m->h; y++)
        for (int32_t x = 0; x < m->w; x++) {
            tn_vec2 v = tn_field_vector(f, x, y);
            float d = NAN;
            if (v.x != 0.0f || v.y != 0.0f)
                d = wrap360((float)(tn__dm_atan2((double)v.y, (double)v.x) * (180.0 / TN_PI)));
            m->deg[(size_t)y * (size_t)m->w + (size_t)x] = d;
        }
    return TN_OK;
}
