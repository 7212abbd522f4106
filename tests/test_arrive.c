/* Crowds that arrive: a crowd through a one-cell door, a crowd that stays at a crowded goal
 * (the goal area), flocking that does not brake a stream, and the same bits with one thread,
 * two threads and an odd split while the goal area is in play. No agent ever overlaps a wall. */
#include "support.h"
#include "tilenav/crowd.h"
#include "tilenav/field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct flow {
    tn_field *field;
    tn_vec2 *dir;
    uint8_t *los;
    tn_flow_view view;
} flow;

static void flow_make(flow *f, const tn_map *m, tn_cell goal)
{
    size_t n = (size_t)tn_map_width(m) * (size_t)tn_map_height(m);
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    fd.los = TN_LOS_EXACT;
    assert_int_equal(tn_field_create(&fd, &f->field), TN_OK);
    assert_int_equal(tn_field_build(f->field, &goal, 1), TN_OK);
    f->dir = calloc(n, sizeof *f->dir);
    f->los = calloc(n, 1);
    assert_non_null(f->dir);
    assert_non_null(f->los);
    assert_int_equal(
        tn_flow_view_from_field(f->field, m, goal, f->dir, f->los, (int32_t)n, &f->view), TN_OK);
}

static void flow_free(flow *f)
{
    tn_field_destroy(f->field);
    free(f->dir);
    free(f->los);
}

/* n agents at random spots of the rectangle [x0, x1) x [y0, y1) (cells) where they fit. */
static int spawn_in(tn_crowd *c, const tn_map *m, int n, uint64_t seed, tn_agent_def def,
                    int32_t x0, int32_t y0, int32_t x1, int32_t y1, tn_agent_id *ids)
{
    tn_test_rng r = {seed};
    float tw = (float)tn_map_tile_width(m), th = (float)tn_map_tile_height(m);
    int made = 0;
    for (int tries = 0; made < n && tries < n * 200; tries++) {
        def.pos = (tn_vec2){((float)x0 + (float)tn_test_u01(&r) * (float)(x1 - x0)) * tw,
                            ((float)y0 + (float)tn_test_u01(&r) * (float)(y1 - y0)) * th};
        tn_agent_id id;
        if (tn_crowd_add(c, &def, &id) == TN_OK)
            ids[made++] = id;
    }
    return made;
}

/* Remove the arrived agents (creeps leaving at the exit); returns how many left. */
static int remove_arrived(tn_crowd *c)
{
    int left = 0;
    for (int32_t i = tn_crowd_count(c) - 1; i >= 0; i--) {
        tn_agent_id id = tn_crowd_agent_at(c, i);
        tn_agent_state st;
        assert_int_equal(tn_crowd_get(c, id, &st), TN_OK);
        if (st.arrived) {
            assert_int_equal(tn_crowd_remove(c, id), TN_OK);
            left++;
        }
    }
    return left;
}

static int count_arrived(const tn_crowd *c)
{
    int k = 0;
    for (int32_t i = 0; i < tn_crowd_count(c); i++) {
        tn_agent_state st;
        assert_int_equal(tn_crowd_get(c, tn_crowd_agent_at(c, i), &st), TN_OK);
        k += st.arrived;
    }
    return k;
}

/* Two rooms joined by a one-cell door; 200 agents in the left room stream through it to a goal
 * in the right room and leave there. All arrive within 1,000 steps (measured: 553, so the door
 * passes one agent every 2.8 steps). */
static void test_narrow_door(void **state)
{
    (void)state;
    const char *rows[] = {
        "##############################", "#.............#..............#",
        "#.............#..............#", "#.............#..............#",
        "#.............#..............#", "#.............#..............#",
        "#.............#..............#", "#............................#",
        "#.............#..............#", "#.............#..............#",
        "#.............#..............#", "#.............#..............#",
        "#.............#..............#", "##############################",
    };
    tn_map *m = tn_test_map_from_rows(rows, 14);
    flow f;
    flow_make(&f, m, (tn_cell){24, 7});
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 200;
    cd.max_neighbours = 8;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c, 0, &f.view), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    ad.radius = 6.0f;
    ad.arrive_radius = 24.0f;
    ad.arrive_area = 64.0f;
    tn_agent_id ids[200];
    int n = spawn_in(c, m, 200, 3, ad, 1, 1, 14, 13, ids);
    assert_int_equal(n, 200);
    int arrived = 0, step = 0;
    for (; step < 1000 && tn_crowd_count(c) > 0; step++) {
        assert_int_equal(tn_crowd_step(c), TN_OK);
        assert_true(tn_crowd_max_wall_overlap(c) <= 0.0f);
        arrived += remove_arrived(c);
    }
    print_message("narrow door: %d of %d arrived in %d steps\n", arrived, n, step);
    assert_int_equal(arrived, n);
    tn_crowd_destroy(c);
    flow_free(&f);
    tn_map_destroy(m);
}

/* A flow whose goal moves (the view installed again with another goal: a field built towards
 * a new goal, a sector field's set_goal) is a new target: its agents lose `arrived`, as
 * tn_crowd_set_target() with another target does. The same view again keeps it. Agents used to
 * stay "arrived" 800 px from the new goal (a tower-defense game removing arrived creeps would
 * have removed them all). */
static void test_moved_flow_goal_clears_arrived(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(30, 12, 0.0, 1);
    flow a, b;
    flow_make(&a, m, (tn_cell){3, 6});
    flow_make(&b, m, (tn_cell){26, 6});
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 8;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c, 0, &a.view), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    ad.pos = (tn_vec2){5 * 32 + 16, 6 * 32 + 16};
    tn_agent_id id;
    assert_int_equal(tn_crowd_add(c, &ad, &id), TN_OK);
    for (int s = 0; s < 300; s++)
        assert_int_equal(tn_crowd_step(c), TN_OK);
    assert_int_equal(count_arrived(c), 1);
    assert_int_equal(tn_crowd_set_flow(c, 0, &a.view), TN_OK); /* the same goal: kept */
    assert_int_equal(count_arrived(c), 1);
    assert_int_equal(tn_crowd_set_flow(c, 0, NULL), TN_OK); /* cleared: the goal is kept */
    assert_int_equal(tn_crowd_set_flow(c, 0, &a.view), TN_OK);
    assert_int_equal(count_arrived(c), 1);
    assert_int_equal(tn_crowd_set_flow(c, 0, NULL), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c, 0, &b.view), TN_OK); /* moved: a new target */
    assert_int_equal(count_arrived(c), 0);
    int s = 0;
    for (; s < 2000 && !count_arrived(c); s++)
        assert_int_equal(tn_crowd_step(c), TN_OK);
    tn_agent_state st;
    assert_int_equal(tn_crowd_get(c, id, &st), TN_OK);
    assert_true(st.arrived && st.pos.x > 25 * 32);
    tn_crowd_destroy(c);
    flow_free(&a);
    flow_free(&b);
    tn_map_destroy(m);
}

/* Held agents hold their place: wander (weight 1) stops too once an agent is held, so 60
 * agents gathering in a 96 px goal area of an open room stay in it (before the fix wandering
 * held agents drifted 300-400 px away while still flagged held). */
static void test_held_agents_do_not_wander(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(40, 30, 0.0, 1);
    flow f;
    flow_make(&f, m, (tn_cell){20, 15});
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 60;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c, 0, &f.view), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    ad.arrive_area = 96.0f;
    ad.weights[TN_BEHAVIOUR_WANDER] = 1.0f;
    tn_agent_id ids[60];
    assert_int_equal(spawn_in(c, m, 60, 5, ad, 1, 1, 39, 29, ids), 60);
    for (int s = 0; s < 3000; s++)
        assert_int_equal(tn_crowd_step(c), TN_OK);
    const float gx = 20.5f * 32.0f, gy = 15.5f * 32.0f;
    int held = 0;
    float far = 0.0f;
    for (int k = 0; k < 60; k++) {
        tn_agent_state st;
        assert_int_equal(tn_crowd_get(c, ids[k], &st), TN_OK);
        if (!st.held)
            continue;
        held++;
        float d = hypotf(st.pos.x - gx, st.pos.y - gy);
        far = d > far ? d : far;
    }
    print_message("held %d of 60, the farthest %.1f px from the goal\n", held, (double)far);
    assert_true(held >= 30);
    assert_true(far <= 96.0f + 12.0f); /* the area, plus what a step moved it when held */
    tn_crowd_destroy(c);
    flow_free(&f);
    tn_map_destroy(m);
}

static void odd_split(tn_task task, void *ctx, int32_t count, void *user)
{
    (void)user;
    int32_t cuts[4] = {0, count / 7, count / 7 + count / 3, count};
    for (int k = 2; k >= 0; k--)
        task(ctx, cuts[k], cuts[k + 1]);
}

typedef struct goal_run {
    int arrived, held, steps_to_all;
    float max_speed_held; /* fastest held agent at the end, pixels per second */
    float min_gap;        /* smallest centre distance minus the radii at the end */
    uint64_t hash;
} goal_run;

/* 150 agents spawned over a walled 24 x 24 room go to its centre and stay (push-apart on, so
 * they cannot all crowd into the arrive radius). */
static goal_run crowded_goal(float area, int steps, tn_parallel_for pfor)
{
    tn_map *m = tn_test_random_map(24, 24, 0.0, 1);
    for (int32_t k = 0; k < 24; k++) {
        assert_int_equal(tn_map_set(m, 0, k, 0, 1u), TN_OK);
        assert_int_equal(tn_map_set(m, 0, k, 23, 1u), TN_OK);
        assert_int_equal(tn_map_set(m, 0, 0, k, 1u), TN_OK);
        assert_int_equal(tn_map_set(m, 0, 23, k, 1u), TN_OK);
    }
    for (int32_t k = 6; k < 18; k++) /* a wall across part of the room */
        assert_int_equal(tn_map_set(m, 0, k, 6, 1u), TN_OK);
    flow f;
    flow_make(&f, m, (tn_cell){12, 12});
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 150;
    cd.push_apart = true;
    cd.parallel_for = pfor;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c, 0, &f.view), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    ad.arrive_area = area;
    tn_agent_id ids[150];
    int n = spawn_in(c, m, 150, 9, ad, 1, 1, 23, 23, ids);
    assert_int_equal(n, 150);
    goal_run g = {0, 0, 0, 0.0f, 1e9f, 0};
    for (int s = 0; s < steps; s++) {
        assert_int_equal(tn_crowd_step(c), TN_OK);
        assert_true(tn_crowd_max_wall_overlap(c) <= 0.0f);
        if (g.steps_to_all == 0 && count_arrived(c) == n)
            g.steps_to_all = s + 1;
    }
    tn_agent_state st[150];
    for (int i = 0; i < n; i++) {
        assert_int_equal(tn_crowd_get(c, ids[i], &st[i]), TN_OK);
        g.arrived += st[i].arrived;
        g.held += st[i].held;
        float sp = sqrtf(st[i].vel.x * st[i].vel.x + st[i].vel.y * st[i].vel.y);
        if (st[i].held && sp > g.max_speed_held)
            g.max_speed_held = sp;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            float dx = st[i].pos.x - st[j].pos.x, dy = st[i].pos.y - st[j].pos.y;
            float gap = sqrtf(dx * dx + dy * dy) - st[i].radius - st[j].radius;
            if (gap < g.min_gap)
                g.min_gap = gap;
        }
    g.hash = tn_crowd_hash(c);
    tn_crowd_destroy(c);
    flow_free(&f);
    tn_map_destroy(m);
    return g;
}

static void test_crowded_goal(void **state)
{
    (void)state;
    /* without a goal area the agents that cannot reach the arrive radius push forever */
    goal_run none = crowded_goal(0.0f, 1500, NULL);
    print_message("crowded goal, no area: %d of 150 arrived after 1500 steps\n", none.arrived);
    assert_true(none.arrived < 150);
    assert_int_equal(none.held, 0);
    /* a goal area of 6 tiles: all arrive (measured: by step 264), and the held ones stand still
     * and keep apart */
    goal_run area = crowded_goal(192.0f, 1500, NULL);
    print_message("crowded goal, area 192 px: all arrived by step %d, %d held, fastest held %.3g "
                  "px/s, smallest gap %.3g px\n",
                  area.steps_to_all, area.held, (double)area.max_speed_held, (double)area.min_gap);
    assert_int_equal(area.arrived, 150);
    assert_true(area.steps_to_all > 0 && area.steps_to_all <= 800);
    assert_true(area.held > 100);
    assert_true(area.max_speed_held < 1.0f);
    assert_true(area.min_gap > -0.01f);
}

/* The goal area decides from the step's snapshot only: any split of the passes gives the same
 * bits. */
static void test_threads_same_bits(void **state)
{
    (void)state;
    goal_run one = crowded_goal(192.0f, 400, NULL);
    goal_run two = crowded_goal(192.0f, 400, tn_test_two_threads);
    goal_run odd = crowded_goal(192.0f, 400, odd_split);
    goal_run again = crowded_goal(192.0f, 400, NULL);
    assert_true(one.hash == two.hash);
    assert_true(one.hash == odd.hash);
    assert_true(one.hash == again.hash);
    assert_true(one.held > 0); /* the goal area took part */
}

/* A group streaming down an open corridor with cohesion and alignment: with flock_brake 0 it
 * gets further in the same time than with the plain forces (1), and no agent is faster than
 * its max speed. */
static float stream_progress(float flock_brake)
{
    tn_map *m = tn_test_random_map(60, 8, 0.0, 1);
    flow f;
    flow_make(&f, m, (tn_cell){58, 4});
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 80;
    cd.flock_brake = flock_brake;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    assert_int_equal(tn_crowd_set_flow(c, 0, &f.view), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    tn_agent_id ids[80];
    int n = spawn_in(c, m, 80, 5, ad, 0, 0, 12, 8, ids);
    assert_int_equal(n, 80);
    for (int s = 0; s < 240; s++)
        assert_int_equal(tn_crowd_step(c), TN_OK);
    float sum = 0.0f;
    for (int i = 0; i < n; i++) {
        tn_agent_state st;
        assert_int_equal(tn_crowd_get(c, ids[i], &st), TN_OK);
        assert_true(sqrtf(st.vel.x * st.vel.x + st.vel.y * st.vel.y) <= ad.max_speed * 1.0001f);
        sum += st.pos.x;
    }
    tn_crowd_destroy(c);
    flow_free(&f);
    tn_map_destroy(m);
    return sum / (float)n;
}

static void test_flocking_does_not_brake(void **state)
{
    (void)state;
    float free_run = stream_progress(0.0f), braked = stream_progress(1.0f);
    print_message("stream: mean x %.1f px (flock_brake 0) vs %.1f px (1)\n", (double)free_run,
                  (double)braked);
    assert_true(free_run > braked);
}

static void test_bad_knobs(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(8, 8, 0.0, 1);
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    tn_crowd *c = NULL;
    cd.flock_brake = -0.1f;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_E_INVALID_ARG);
    cd.flock_brake = 1.5f;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_E_INVALID_ARG);
    cd.flock_brake = NAN;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_E_INVALID_ARG);
    cd.flock_brake = 1.0f;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    assert_true(ad.arrive_area == 0.0f);
    ad.pos = (tn_vec2){100, 100};
    tn_agent_id id;
    ad.arrive_area = -1.0f;
    assert_int_equal(tn_crowd_add(c, &ad, &id), TN_E_INVALID_ARG);
    ad.arrive_area = INFINITY;
    assert_int_equal(tn_crowd_add(c, &ad, &id), TN_E_INVALID_ARG);
    ad.arrive_area = 64.0f;
    assert_int_equal(tn_crowd_add(c, &ad, &id), TN_OK);
    tn_crowd_destroy(c);
    tn_map_destroy(m);
}

/* The density-aware neighbourhood keeps the same neighbours where it matters: an agent whose
 * half-radius disk holds at least max_neighbours agents gets the same separation force (up to
 * the summation order) as with the full 3 x 3 scan, and the dense crowd actually takes it. */
static void test_dense_same_neighbours(void **state)
{
    (void)state;
    tn_map *m = tn_test_random_map(12, 12, 0.0, 1);
    tn_vec2 sep[2][400];
    tn_vec2 pos[400];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        tn_crowd_def cd = tn_crowd_def_default();
        cd.map = m;
        cd.capacity = 400;
        cd.max_neighbours = 4;
        cd.max_scan = 0;
        cd.record_forces = true;
        cd.dense_neighbours = pass == 0 ? 0 : 4;
        tn_crowd *c = NULL;
        assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
        tn_agent_def ad = tn_agent_def_default();
        ad.radius = 3.0f;
        for (int b = 0; b < TN_BEHAVIOUR_COUNT; b++)
            ad.weights[b] = b == TN_BEHAVIOUR_SEPARATION ? 1.0f : 0.0f;
        tn_agent_id ids[400];
        n = spawn_in(c, m, 400, 21, ad, 0, 0, 8, 8, ids);
        assert_int_equal(n, 400);
        for (int i = 0; i < n; i++) { /* forces are computed from the step's start */
            tn_agent_state st;
            assert_int_equal(tn_crowd_get(c, ids[i], &st), TN_OK);
            pos[i] = st.pos;
        }
        assert_int_equal(tn_crowd_step(c), TN_OK);
        for (int i = 0; i < n; i++) {
            tn_vec2 f[TN_BEHAVIOUR_COUNT];
            assert_int_equal(tn_crowd_forces(c, ids[i], f, NULL), TN_OK);
            sep[pass][i] = f[TN_BEHAVIOUR_SEPARATION];
        }
        tn_crowd_destroy(c);
    }
    float half = 16.0f; /* neighbour radius 32 */
    int full = 0, differ = 0;
    for (int i = 0; i < n; i++) {
        int inside = 0;
        for (int j = 0; j < n; j++) {
            float dx = pos[i].x - pos[j].x, dy = pos[i].y - pos[j].y;
            inside += j != i && dx * dx + dy * dy < half * half;
        }
        float ex = sep[0][i].x - sep[1][i].x, ey = sep[0][i].y - sep[1][i].y;
        float mag = sqrtf(sep[0][i].x * sep[0][i].x + sep[0][i].y * sep[0][i].y);
        bool same = sqrtf(ex * ex + ey * ey) <= 1e-3f * (mag + 1.0f);
        if (inside >= 4) {
            full++;
            assert_true(same);
        }
        differ += !same;
    }
    print_message("dense: %d of %d agents with a full half-radius disk, %d forces differ\n", full,
                  n, differ);
    assert_true(full > n / 4); /* the crowd is dense enough to test something */
    assert_true(differ > 0);   /* and the others took the smaller neighbourhood */
    tn_map_destroy(m);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_bad_knobs),
        cmocka_unit_test(test_narrow_door),
        cmocka_unit_test(test_moved_flow_goal_clears_arrived),
        cmocka_unit_test(test_crowded_goal),
        cmocka_unit_test(test_held_agents_do_not_wander),
        cmocka_unit_test(test_threads_same_bits),
        cmocka_unit_test(test_flocking_does_not_brake),
        cmocka_unit_test(test_dense_same_neighbours),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), NULL, 0, NULL, 0);
}
