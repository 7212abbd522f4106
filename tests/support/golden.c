/* The pinned computations (support/golden.h). */
#include "support/golden.h"

#include "support/core.h"

#include <string.h>

#define TRY(call)                                                                                  \
    do {                                                                                           \
        tn_status st_ = (call);                                                                    \
        if (st_ != TN_OK) {                                                                        \
            st = st_;                                                                              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* One seeded map's paths and field into *h. */
static tn_status paths_fields_of(tn_search *s, uint64_t seed, uint64_t *h)
{
    tn_cell cells[4096];
    tn_status st = TN_OK;
    tn_field *f = NULL;
    tn_map *m = tn_test_random_map(64, 48, 0.25, seed);
    if (!m)
        return TN_E_NOMEM;
    if (seed % 2 == 0) /* mud on the even maps */
        for (int32_t i = 0; i < 64 * 48; i += 7)
            if (tn_map_passable(m, i % 64, i / 64))
                TRY(tn_map_set(m, 0, i % 64, i / 64, 2));
    tn_test_rng r = {seed * 977};
    for (int q = 0; q < 60; q++) {
        tn_cell a = {(int32_t)tn_test_below(&r, 64), (int32_t)tn_test_below(&r, 48)};
        tn_cell b = {(int32_t)tn_test_below(&r, 64), (int32_t)tn_test_below(&r, 48)};
        tn_query qu;
        memset(&qu, 0, sizeof qu);
        qu.moves.diagonal = (tn_diagonal)(q % 4);
        qu.moves.costs = (tn_step_costs)(q / 4 % 2);
        qu.algo = q % 3 == 2 ? TN_ALGO_JPS : TN_ALGO_ASTAR;
        qu.jps_fallback = true;
        tn_search_result res;
        tn_status ps = tn_search_path(s, m, a, b, &qu, cells, 4096, &res);
        *h = fnv(*h, &ps, sizeof ps);
        if (ps == TN_OK) {
            *h = fnv(*h, &res.cost, sizeof res.cost);
            *h = fnv(*h, cells, (size_t)res.length * sizeof cells[0]);
        }
    }
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    fd.los = TN_LOS_EXACT;
    TRY(tn_field_create(&fd, &f));
    tn_cell goal = {0, 0};
    for (int32_t i = 0; i < 64 * 48 && !tn_map_passable(m, goal.x, goal.y); i++)
        goal = (tn_cell){i % 64, i / 64};
    TRY(tn_field_build(f, &goal, 1));
    *h = fnv(*h, tn_field_distances(f), 64 * 48 * sizeof(float));
    for (int32_t y = 0; y < 48; y++)
        for (int32_t x = 0; x < 64; x++) {
            tn_vec2 v = tn_field_vector(f, x, y);
            *h = fnv(*h, &v, sizeof v);
        }
done:
    tn_field_destroy(f);
    tn_map_destroy(m);
    return st;
}

tn_status tn_golden_paths_fields(uint64_t *out)
{
    uint64_t h = 0xcbf29ce484222325ull;
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    tn_status st = tn_search_create(&sd, &s);
    for (uint64_t seed = 1; seed <= 4 && st == TN_OK; seed++)
        st = paths_fields_of(s, seed, &h);
    tn_search_destroy(s);
    if (st == TN_OK)
        *out = h;
    return st;
}

int tn_test_spawn(tn_crowd *c, const tn_map *m, int n, uint64_t seed, tn_agent_def def,
                  tn_agent_id *ids)
{
    tn_test_rng r = {seed};
    float W = (float)(tn_map_width(m) * tn_map_tile_width(m));
    float H = (float)(tn_map_height(m) * tn_map_tile_height(m));
    int made = 0;
    for (int tries = 0; made < n && tries < n * 200; tries++) {
        def.pos = (tn_vec2){(float)tn_test_u01(&r) * W, (float)tn_test_u01(&r) * H};
        tn_agent_id id;
        if (tn_crowd_add(c, &def, &id) == TN_OK)
            ids[made++] = id;
    }
    return made;
}

tn_status tn_golden_crowd(uint64_t seed, int steps, int32_t period, float wander,
                          tn_parallel_for pfor, uint64_t *out)
{
    tn_status st = TN_OK;
    tn_crowd *c = NULL;
    tn_map *m = tn_test_random_map(32, 32, 0.15, 9);
    if (!m)
        return TN_E_NOMEM;
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 300;
    cd.seed = seed;
    cd.push_apart = true;
    cd.period[TN_BEHAVIOUR_SEPARATION] = period;
    cd.parallel_for = pfor;
    TRY(tn_crowd_create(&cd, &c));
    tn_agent_def ad = tn_agent_def_default();
    ad.weights[TN_BEHAVIOUR_WANDER] = wander;
    ad.target = TN_TARGET_ARRIVE;
    ad.target_pos = (tn_vec2){500, 500};
    tn_agent_id ids[300];
    int n = tn_test_spawn(c, m, 300, 4, ad, ids);
    for (int s = 0; s < steps; s++) {
        TRY(tn_crowd_step(c));
        if (s == steps / 2) /* removals and additions in the middle take part */
            for (int i = 0; i < n; i += 7)
                TRY(tn_crowd_remove(c, ids[i]));
    }
    *out = tn_crowd_hash(c);
done:
    tn_crowd_destroy(c);
    tn_map_destroy(m);
    return st;
}
