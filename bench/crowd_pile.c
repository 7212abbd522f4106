/* A crowd that stays: N agents follow an exact-LOS flow field to cell (38, 22) of a map (the
 * corner of data/maps/td.tmj), push-apart on, with a goal area of AREA tiles, and stay there.
 * Measures whether the pile comes to rest: how far agents move per step over the second half
 * of the run (by agent id), and how many pairs of circles still overlap at the end.
 *
 * Uses the public API only, so the same file builds against older versions of the library to
 * compare. Not built by CMake; from the repository root, after a Release build:
 *   cc -O2 -Iinclude bench/crowd_pile.c build/release/libtilenav_io.a \
 *      build/release/libtilenav.a -lcjson -lz -lexpat -lzstd -lm -o build/crowd_pile
 *   build/crowd_pile data/maps/td.tmj 2000 2
 * Prints:
 *   pile agents=N area_tiles=A arrived=R held=H move_mean_px=M move_max_px=X overlapping=P
 *        deeper_than_half_radius=D max_overlap_px=O
 * where the moves are per agent and step over steps STEPS/2+1..STEPS, and the overlaps are
 * counted at the last step (pairs closer than the sum of their radii by more than 0.01 px). */
#include "tilenav/io.h"
#include "tilenav/tilenav.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        tn_status s_ = (x);                                                                        \
        if (s_ < 0) {                                                                              \
            fprintf(stderr, "crowd_pile: %s failed: %s\n", #x, tn_status_str(s_));                 \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: crowd_pile MAP [AGENTS=2000] [AREA_TILES=2] [STEPS=4000]\n");
        return 2;
    }
    const int n_agents = argc > 2 ? atoi(argv[2]) : 2000;
    const float area_tiles = argc > 3 ? (float)atof(argv[3]) : 2.0f;
    const int steps = argc > 4 ? atoi(argv[4]) : 4000;
    if (n_agents < 1 || n_agents > (1 << 20) || steps < 2) {
        fprintf(stderr, "crowd_pile: 1..2^20 agents and at least 2 steps\n");
        return 2;
    }
    tn_map *map = NULL;
    CHECK(tn_map_load(argv[1], NULL, &map, NULL));
    const int32_t w = tn_map_width(map), h = tn_map_height(map);
    const float tile = (float)tn_map_tile_width(map);
    tn_field_def fd = tn_field_def_default();
    fd.map = map;
    fd.los = TN_LOS_EXACT;
    tn_field *f = NULL;
    CHECK(tn_field_create(&fd, &f));
    tn_cell goal = {38 < w ? 38 : w - 1, 22 < h ? 22 : h - 1};
    CHECK(tn_field_build(f, &goal, 1));
    tn_vec2 *dir = malloc(sizeof(tn_vec2) * (size_t)w * (size_t)h);
    uint8_t *los = malloc((size_t)w * (size_t)h);
    tn_vec2 *prev = malloc(sizeof(tn_vec2) * (size_t)n_agents);
    tn_agent_id *ids = malloc(sizeof(tn_agent_id) * (size_t)n_agents);
    if (!dir || !los || !prev || !ids)
        return 1;
    tn_flow_view view;
    CHECK(tn_flow_view_from_field(f, map, goal, dir, los, w * h, &view));
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = map;
    cd.capacity = n_agents;
    cd.push_apart = true;
    tn_crowd *c = NULL;
    CHECK(tn_crowd_create(&cd, &c));
    CHECK(tn_crowd_set_flow(c, 0, &view));
    tn_rng rng = tn_rng_seed(1);
    int added = 0;
    for (long tries = 0; added < n_agents && tries < 100L * n_agents; tries++) {
        int32_t x = (int32_t)tn_rng_below(&rng, (uint32_t)w);
        int32_t y = (int32_t)tn_rng_below(&rng, (uint32_t)h);
        if (!isfinite(tn_field_distance(f, x, y)))
            continue;
        tn_agent_def a = tn_agent_def_default();
        a.pos = tn_map_cell_center_px(map, x, y);
        a.radius = 6.4f;
        a.max_speed = 128.0f;
        a.target = TN_TARGET_FLOW;
        a.arrive_radius = 24.0f;
        a.arrive_area = area_tiles * tile;
        if (tn_crowd_add(c, &a, &ids[added]) == TN_OK)
            added++;
    }
    double moved = 0.0, max_move = 0.0;
    long samples = 0;
    tn_agent_state st;
    for (int s = 0; s < steps; s++) {
        const bool measure = s >= steps / 2;
        for (int i = 0; measure && i < added; i++) {
            CHECK(tn_crowd_get(c, ids[i], &st));
            prev[i] = st.pos;
        }
        CHECK(tn_crowd_step(c));
        for (int i = 0; measure && i < added; i++) {
            CHECK(tn_crowd_get(c, ids[i], &st));
            double d = hypot(st.pos.x - prev[i].x, st.pos.y - prev[i].y);
            moved += d;
            max_move = d > max_move ? d : max_move;
            samples++;
        }
    }
    int arrived = 0, held = 0;
    long overlapping = 0, deep = 0;
    double max_overlap = 0.0;
    for (int i = 0; i < added; i++) {
        CHECK(tn_crowd_get(c, ids[i], &st));
        prev[i] = st.pos;
        arrived += st.arrived != 0;
        held += st.held != 0;
    }
    for (int i = 0; i < added; i++)
        for (int j = i + 1; j < added; j++) {
            double ov = 2 * 6.4 - hypot(prev[i].x - prev[j].x, prev[i].y - prev[j].y);
            if (ov > 0.01) {
                overlapping++;
                deep += ov > 3.2;
                max_overlap = ov > max_overlap ? ov : max_overlap;
            }
        }
    printf("pile agents=%d area_tiles=%g arrived=%d held=%d move_mean_px=%.3f move_max_px=%.1f "
           "overlapping=%ld deeper_than_half_radius=%ld max_overlap_px=%.2f\n",
           added, (double)area_tiles, arrived, held, moved / (double)(samples ? samples : 1),
           max_move, overlapping, deep, max_overlap);
    tn_crowd_destroy(c);
    tn_field_destroy(f);
    tn_map_destroy(map);
    free(dir);
    free(los);
    free(prev);
    free(ids);
    return 0;
}
