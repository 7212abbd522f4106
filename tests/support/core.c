/* Test helpers that need only the C library and tilenav (support/core.h). */
#include "support/core.h"

uint64_t tn_test_next(tn_test_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t tn_test_below(tn_test_rng *r, uint32_t n)
{
    return (uint32_t)(tn_test_next(r) % n);
}

double tn_test_u01(tn_test_rng *r)
{
    return (double)(tn_test_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

tn_map *tn_test_new_map(int32_t w, int32_t h)
{
    tn_map_def d = tn_map_def_default();
    d.width = w;
    d.height = h;
    tn_map *m = NULL;
    if (tn_map_create(&d, &m) != TN_OK)
        return NULL;
    if (tn_map_add_layer(m, "ground", TN_LAYER_TILES, NULL) != TN_OK ||
        tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}) != TN_OK ||
        tn_map_set_terrain(m, 2, (tn_terrain){true, 3.0f}) != TN_OK) {
        tn_map_destroy(m);
        return NULL;
    }
    return m;
}

tn_map *tn_test_random_map(int32_t w, int32_t h, double p, uint64_t seed)
{
    tn_map *m = tn_test_new_map(w, h);
    if (!m)
        return NULL;
    tn_test_rng r = {seed};
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (tn_test_u01(&r) < p && tn_map_set(m, 0, x, y, 1) != TN_OK) {
                tn_map_destroy(m);
                return NULL;
            }
    return m;
}
