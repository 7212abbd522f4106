/* Influence maps: sources summed into a float layer, exponential decay, a dirty rectangle. */
#include "tilenav/influence.h"

#include "det_math.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define TN_COOKIE_INFLUENCE 0x494e4631u

struct tn_influence {
    tn_allocator alloc;
    int32_t w, h;
    size_t n;
    float eps;
    float *v;
    tn_rect dirty;
};

tn_influence_def tn_influence_def_default(void)
{
    tn_influence_def d;
    memset(&d, 0, sizeof d);
    d.width = 1;
    d.height = 1;
    d.epsilon = 1e-3f;
    d.internal_cookie = TN_COOKIE_INFLUENCE;
    return d;
}

tn_status tn_influence_create(const tn_influence_def *def, tn_influence **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_INFLUENCE || def->width < 1 || def->height < 1 ||
        !isfinite(def->epsilon) || def->epsilon < 0.0f ||
        (def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    if (def->width > TN_MAX_DIM || def->height > TN_MAX_DIM ||
        (int64_t)def->width * def->height > TN_MAX_CELLS)
        return TN_E_TOO_LARGE;
    tn_influence *m = tn__calloc(&def->allocator, sizeof *m);
    if (!m)
        return TN_E_NOMEM;
    m->alloc = def->allocator;
    m->w = def->width;
    m->h = def->height;
    m->n = (size_t)m->w * (size_t)m->h;
    m->eps = def->epsilon;
    m->v = tn__calloc(&m->alloc, m->n * sizeof(float));
    if (!m->v) {
        tn_influence_destroy(m);
        return TN_E_NOMEM;
    }
    *out = m;
    return TN_OK;
}

void tn_influence_destroy(tn_influence *m)
{
    if (!m)
        return;
    tn_allocator a = m->alloc;
    tn__free(&a, m->v, m->n * sizeof(float));
    tn__free(&a, m, sizeof *m);
}

size_t tn_influence_memory_bytes(const tn_influence *m)
{
    return m ? sizeof *m + m->n * sizeof(float) : 0;
}

static void grow_dirty(tn_influence *m, tn_rect r)
{
    tn_rect *d = &m->dirty;
    if (d->x0 >= d->x1 || d->y0 >= d->y1) {
        *d = r;
        return;
    }
    if (r.x0 < d->x0)
        d->x0 = r.x0;
    if (r.y0 < d->y0)
        d->y0 = r.y0;
    if (r.x1 > d->x1)
        d->x1 = r.x1;
    if (r.y1 > d->y1)
        d->y1 = r.y1;
}

tn_status tn_influence_add(tn_influence *m, float x, float y, float radius, float strength,
                           tn_falloff falloff)
{
    if (!m || !isfinite(x) || !isfinite(y) || !isfinite(radius) || !(radius > 0.0f) ||
        !isfinite(strength) || (unsigned)falloff > (unsigned)TN_FALLOFF_CONSTANT)
        return TN_E_INVALID_ARG;
    /* cells whose centre may lie within the radius */
    double x0 = floor((double)x - (double)radius - 0.5), x1 = ceil((double)x + (double)radius);
    double y0 = floor((double)y - (double)radius - 0.5), y1 = ceil((double)y + (double)radius);
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 > m->w - 1)
        x1 = m->w - 1;
    if (y1 > m->h - 1)
        y1 = m->h - 1;
    if (x0 > x1 || y0 > y1)
        return TN_OK;
    int32_t cx0 = (int32_t)x0, cx1 = (int32_t)x1, cy0 = (int32_t)y0, cy1 = (int32_t)y1;
    bool any = false;
    for (int32_t cy = cy0; cy <= cy1; cy++)
        for (int32_t cx = cx0; cx <= cx1; cx++) {
            float dx = (float)cx + 0.5f - x, dy = (float)cy + 0.5f - y;
            float d = sqrtf(dx * dx + dy * dy);
            if (d > radius)
                continue;
            float t = 1.0f - d / radius, add;
            switch (falloff) {
            case TN_FALLOFF_LINEAR: add = strength * t; break;
            case TN_FALLOFF_QUADRATIC: add = strength * t * t; break;
            default: add = strength; break;
            }
            m->v[(size_t)cy * (size_t)m->w + (size_t)cx] += add;
            any = true;
        }
    if (any)
        grow_dirty(m, (tn_rect){cx0, cy0, cx1 + 1, cy1 + 1});
    return TN_OK;
}

tn_status tn_influence_decay(tn_influence *m, float dt, float half_life)
{
    if (!m || !isfinite(dt) || dt < 0.0f || !isfinite(half_life) || !(half_life > 0.0f))
        return TN_E_INVALID_ARG;
    float k = (float)tn__dm_exp2(-((double)dt / (double)half_life));
    bool any = false;
    for (size_t i = 0; i < m->n; i++) {
        float v = m->v[i];
        if (v == 0.0f)
            continue;
        v *= k;
        if (fabsf(v) < m->eps)
            v = 0.0f;
        m->v[i] = v;
        any = true;
    }
    if (any)
        grow_dirty(m, (tn_rect){0, 0, m->w, m->h});
    return TN_OK;
}

void tn_influence_clear(tn_influence *m)
{
    if (!m)
        return;
    memset(m->v, 0, m->n * sizeof(float));
    grow_dirty(m, (tn_rect){0, 0, m->w, m->h});
}

const float *tn_influence_data(const tn_influence *m)
{
    return m ? m->v : NULL;
}

float tn_influence_get(const tn_influence *m, int32_t x, int32_t y)
{
    if (!m || x < 0 || y < 0 || x >= m->w || y >= m->h)
        return 0.0f;
    return m->v[(size_t)y * (size_t)m->w + (size_t)x];
}

tn_rect tn_influence_take_dirty(tn_influence *m)
{
    if (!m)
        return (tn_rect){0, 0, 0, 0};
    tn_rect r = m->dirty;
    m->dirty = (tn_rect){0, 0, 0, 0};
    return r;
}
