/* Why agents do not arrive: runs the crowd of `tilenav sim` (same spawn, same agents, agents
 * leave on arrival) and classifies every agent still there at the end by what it did over the
 * last 300 steps. Prints the arrival curve, the free-flow curve (every agent alone at max speed
 * along the field's distance) and the classes.
 *
 *   cc -O2 -Iinclude bench/crowd_why.c build/release/libtilenav_io.a build/release/libtilenav.a \
 *      -lm -lz -lzstd -lexpat -lcjson -o /tmp/crowd_why
 *   /tmp/crowd_why MAP GX GY AGENTS STEPS [SEED [EVERY [FLOCK_BRAKE [DENSE]]]]
 *
 * Classes (distances are the field's, in tiles; "progress" = distance gained in 300 steps):
 *   walking      progress > 10 tiles: still on its way, at most a few tiles/s short of max speed
 *   at goal      within 2 tiles of the goal, not arrived (circling or pushing into it)
 *   jam at goal  within 8 tiles, >= 2 agents within a tile, little progress
 *   jam          >= 3 agents within a tile, little progress (corridors, doors)
 *   stuck        moved < 2 tiles in 300 steps with few agents around (walls)
 *   oscillating  walked > 4x its net displacement + 5 tiles
 *   slow         some progress, none of the above */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tilenav/io.h>
#include <tilenav/tilenav.h>

typedef struct rec {
    tn_agent_id id;
    float d0;     /* field distance of the spawn cell, tiles */
    tn_vec2 mark; /* position 300 steps before the end */
    tn_vec2 last;
    float walked; /* pixels walked in the last 300 steps */
    int alive;
} rec;

static float dist_at(const float *dist, int32_t w, float tw, float th, tn_vec2 p)
{
    return dist[(int32_t)(p.y / th) * w + (int32_t)(p.x / tw)];
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: crowd_why MAP GX GY AGENTS STEPS [SEED [EVERY [BRAKE [DENSE]]]]\n");
        return 2;
    }
    tn_cell goal = {atoi(argv[2]), atoi(argv[3])};
    int agents = atoi(argv[4]), steps = atoi(argv[5]);
    uint64_t seed = argc > 6 ? strtoull(argv[6], NULL, 10) : 1;
    int every = argc > 7 ? atoi(argv[7]) : 250;
    tn_load_def lo = tn_load_def_default();
    tn_map *m = NULL;
    tn_diag dg;
    memset(&dg, 0, sizeof dg);
    if (tn_map_load(argv[1], &lo, &m, &dg) < 0)
        return 3;
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    float tw = (float)tn_map_tile_width(m), th = (float)tn_map_tile_height(m);
    float tmin = tw < th ? tw : th;
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    fd.los = TN_LOS_EXACT;
    tn_field *f = NULL;
    if (tn_field_create(&fd, &f) < 0 || tn_field_build(f, &goal, 1) < 0)
        return 4;
    size_t n = (size_t)w * (size_t)h;
    tn_vec2 *dir = malloc(n * sizeof *dir);
    uint8_t *los = malloc(n);
    tn_flow_view view;
    if (tn_flow_view_from_field(f, m, goal, dir, los, (int32_t)n, &view) < 0)
        return 4;
    /* the sim's crowd (tools/cli/cmd_sim.c) */
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = agents;
    cd.neighbour_radius = tmin;
    cd.max_neighbours = 8;
    cd.max_scan = 48;
    cd.seed = seed;
    if (argc > 8)
        cd.flock_brake = (float)atof(argv[8]);
    if (argc > 9)
        cd.dense_neighbours = atoi(argv[9]);
    tn_crowd *c = NULL;
    if (tn_crowd_create(&cd, &c) < 0 || tn_crowd_set_flow(c, 0, &view) < 0)
        return 5;
    tn_agent_def ad = tn_agent_def_default();
    ad.radius = 0.2f * tmin;
    ad.max_speed = 4.0f * tmin;
    ad.max_force = 16.0f * tmin;
    ad.slow_radius = tmin;
    ad.arrive_radius = 0.75f * tmin;
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    tn_rng rng = tn_rng_seed(seed);
    int32_t *reach = malloc(n * sizeof *reach);
    int32_t nreach = 0;
    const float *dist = tn_field_distances(f);
    for (size_t i = 0; i < n; i++)
        if (isfinite(dist[i]) && dist[i] > 0.0f)
            reach[nreach++] = (int32_t)i;
    rec *R = calloc((size_t)agents, sizeof *R);
    int spawned = 0;
    for (long t = 0; spawned < agents && t < (long)agents * 20; t++) {
        int32_t i = reach[tn_rng_below(&rng, (uint32_t)nreach)];
        float mg = ad.radius + 0.01f;
        ad.pos.x = (float)(i % w) * tw + mg + tn_rng_float(&rng) * (tw - 2.0f * mg);
        ad.pos.y = (float)(i / w) * th + mg + tn_rng_float(&rng) * (th - 2.0f * mg);
        tn_agent_id id;
        if (tn_crowd_add(c, &ad, &id) == TN_OK)
            R[spawned++] = (rec){id, dist[i], ad.pos, ad.pos, 0.0f, 1};
    }
    printf("free flow:");
    for (int s = every; s <= steps; s += every) {
        int k = 0;
        for (int a = 0; a < spawned; a++)
            k += (R[a].d0 * tmin - ad.arrive_radius) / ad.max_speed / cd.dt <= (float)s;
        printf(" %d:%d", s, k);
    }
    printf("\narrived:  ");
    int arrived = 0, mark = steps - 300;
    for (int s = 0; s < steps; s++) {
        if (tn_crowd_step(c) < 0)
            return 6;
        for (int a = 0; a < spawned; a++) {
            if (!R[a].alive)
                continue;
            tn_agent_state st;
            if (tn_crowd_get(c, R[a].id, &st) < 0)
                return 6;
            if (st.arrived) {
                if (tn_crowd_remove(c, R[a].id) < 0)
                    return 6;
                R[a].alive = 0;
                arrived++;
                continue;
            }
            if (s >= mark)
                R[a].walked += hypotf(st.pos.x - R[a].last.x, st.pos.y - R[a].last.y);
            R[a].last = st.pos;
            if (s == mark)
                R[a].mark = st.pos;
        }
        if ((s + 1) % every == 0)
            printf(" %d:%d", s + 1, arrived);
    }
    printf("\narrived %d of %d in %d steps\n", arrived, spawned, steps);
    static const char *const names[7] = {"walking", "at goal",     "jam at goal", "jam",
                                         "stuck",   "oscillating", "slow"};
    int count[7] = {0};
    double speed_sum = 0.0;
    for (int a = 0; a < spawned; a++) {
        if (!R[a].alive)
            continue;
        tn_vec2 p = R[a].last, q = R[a].mark;
        float de = dist_at(dist, w, tw, th, p), dm = dist_at(dist, w, tw, th, q);
        float disp = hypotf(p.x - q.x, p.y - q.y) / tmin, walked = R[a].walked / tmin;
        float progress = dm - de;
        int near = 0;
        for (int b = 0; b < spawned; b++)
            if (b != a && R[b].alive && hypotf(R[b].last.x - p.x, R[b].last.y - p.y) < tmin)
                near++;
        int k = de < 2.0f                  ? 1
                : progress > 10.0f         ? 0
                : de < 8.0f && near >= 2   ? 2
                : near >= 3                ? 3
                : walked < 2.0f            ? 4
                : walked > 4 * disp + 5.0f ? 5
                                           : 6;
        count[k]++;
        if (k == 0)
            speed_sum += progress / 5.0; /* 300 steps = 5 s */
    }
    for (int k = 0; k < 7; k++)
        if (count[k])
            printf("  %-12s %d%s\n", names[k], count[k], k == 0 ? "" : "");
    if (count[0])
        printf("  walking agents' mean progress: %.2f tiles/s (max speed 4)\n",
               speed_sum / count[0]);
    tn_crowd_destroy(c);
    tn_field_destroy(f);
    tn_map_destroy(m);
    free(dir);
    free(los);
    free(reach);
    free(R);
    return 0;
}
