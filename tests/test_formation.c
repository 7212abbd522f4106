/* Formations: slot offsets by hand, rotation into the leader's frame, followers in a crowd
 * holding their slots behind a leader on a path, slots reformed around walls. */
#include "support.h"
#include "tilenav/crowd.h"
#include "tilenav/follow.h"
#include "tilenav/formation.h"

#include <math.h>

static void near2(tn_vec2 v, double x, double y)
{
    assert_true(fabs((double)v.x - x) < 1e-4 && fabs((double)v.y - y) < 1e-4);
}

static void test_offsets(void **state)
{
    (void)state;
    /* lead: (10,0) + (60,0) * 40/150 = (26,0) */
    near2(tn_formation_lead((tn_vec2){10, 0}, (tn_vec2){60, 0}, 40.0f, 150.0f), 26, 0);
    tn_vec2 o[5];
    assert_int_equal(tn_formation_offsets(TN_FORMATION_LINE, 4, 10.0f, 1, o), TN_OK);
    near2(o[0], 0, 10);
    near2(o[1], 0, -10);
    near2(o[2], 0, 20);
    near2(o[3], 0, -20);
    assert_int_equal(tn_formation_offsets(TN_FORMATION_COLUMN, 3, 10.0f, 1, o), TN_OK);
    near2(o[0], -10, 0);
    near2(o[2], -30, 0);
    assert_int_equal(tn_formation_offsets(TN_FORMATION_WEDGE, 4, 10.0f, 1, o), TN_OK);
    near2(o[0], -10, 10);
    near2(o[1], -10, -10);
    near2(o[3], -20, -20);
    assert_int_equal(tn_formation_offsets(TN_FORMATION_GRID, 5, 10.0f, 3, o), TN_OK);
    near2(o[0], -10, -10);
    near2(o[1], -10, 0);
    near2(o[2], -10, 10);
    near2(o[3], -20, -10);
    near2(o[4], -20, 0);
    assert_int_equal(tn_formation_offsets(TN_FORMATION_GRID, 5, 10.0f, 0, o), TN_E_INVALID_ARG);
    assert_int_equal(tn_formation_offsets(TN_FORMATION_LINE, 5, 0.0f, 1, o), TN_E_INVALID_ARG);
    assert_int_equal(tn_formation_offsets(TN_FORMATION_LINE, 5, 1.0f, 1, NULL), TN_E_INVALID_ARG);
    assert_int_equal(tn_formation_offsets((tn_formation_shape)7, 1, 1.0f, 1, o), TN_E_INVALID_ARG);

    /* leader facing down (+y): forward (0,1), right (-1,0).
     * (-10, 5) -> (100,100) + -10*(0,1) + 5*(-1,0) = (95, 90) */
    tn_vec2 off[1] = {{-10, 5}}, w[1];
    assert_int_equal(
        tn_formation_slots(NULL, (tn_vec2){100, 100}, 1.5707963f, off, 1, 4.0f, w, NULL), TN_OK);
    near2(w[0], 95, 90);
    assert_int_equal(tn_formation_slots(NULL, (tn_vec2){NAN, 100}, 0.0f, off, 1, 4.0f, w, NULL),
                     TN_E_INVALID_ARG);
}

/* Deepest overlap of a circle with the blocked cells, checked against every cell. */
static float brute_overlap(const tn_map *m, tn_vec2 p, float r)
{
    float worst = 0.0f;
    for (int32_t y = -1; y <= tn_map_height(m); y++)
        for (int32_t x = -1; x <= tn_map_width(m); x++) {
            if (tn_map_passable(m, x, y))
                continue;
            float x0 = (float)x * 32, y0 = (float)y * 32;
            float qx = fminf(fmaxf(p.x, x0), x0 + 32), qy = fminf(fmaxf(p.y, y0), y0 + 32);
            float d = sqrtf((p.x - qx) * (p.x - qx) + (p.y - qy) * (p.y - qy));
            float o = d > 0.0f ? r - d : r + 1.0f;
            worst = o > worst ? o : worst;
        }
    return worst;
}

static void test_reform(void **state)
{
    (void)state;
    /* a wall along column 6 with a one-cell door at row 5 */
    const char *rows[] = {
        "......#.......", "......#.......", "......#.......", "......#.......", "......#.......",
        "..............", "......#.......", "......#.......", "......#.......", "......#.......",
    };
    tn_map *m = tn_test_map_from_rows(rows, 10);
    tn_vec2 off[8], w[8];
    uint8_t ref[8];
    assert_int_equal(tn_formation_offsets(TN_FORMATION_LINE, 8, 20.0f, 1, off), TN_OK);
    tn_vec2 door = tn_map_cell_center_px(m, 6, 5);
    assert_int_equal(tn_formation_slots(m, door, 0.0f, off, 8, 6.0f, w, ref), TN_OK);
    int moved = 0;
    for (int i = 0; i < 8; i++) {
        assert_true(brute_overlap(m, w[i], 6.0f) <= 0.0f);
        /* pulled in along the line to the leader: still in line, no farther than asked */
        assert_true(fabsf(w[i].x - door.x) < 1e-3f);
        assert_true(fabsf(w[i].y - door.y) <= fabsf(off[i].y) + 1e-3f);
        moved += ref[i];
    }
    assert_int_equal(moved, 8); /* every slot of a line abreast in a door is pulled in */
    /* in the open, nothing moves */
    tn_vec2 open = tn_map_cell_center_px(m, 10, 5);
    assert_int_equal(tn_formation_slots(m, open, 0.0f, off, 4, 6.0f, w, ref), TN_OK);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(ref[i], 0);
        assert_true(fabsf(w[i].y - (open.y + off[i].y)) < 1e-3f);
    }
    tn_map_destroy(m);
}

/* Followers in a crowd track their slots behind a leader walking a rectangle. */
static void hold_slots(tn_formation_shape shape)
{
    tn_map *m = tn_test_random_map(60, 40, 0.0, 1);
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 16;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    enum { N = 8 };
    tn_vec2 off[N], slots[N];
    assert_int_equal(tn_formation_offsets(shape, N, 40.0f, 3, off), TN_OK);
    tn_vec2 path[5] = {{400, 300}, {1500, 300}, {1500, 1000}, {400, 1000}, {400, 300}};
    tn_path_follower leader;
    assert_int_equal(tn_path_follower_init(&leader, path, 5, 0.0f), TN_OK);
    assert_int_equal(tn_formation_slots(m, leader.pos, leader.heading, off, N, 6.0f, slots, NULL),
                     TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_ARRIVE;
    ad.max_speed = 150.0f;
    ad.max_force = 600.0f;
    ad.slow_radius = 40.0f;
    ad.weights[TN_BEHAVIOUR_COHESION] = 0.0f;
    ad.weights[TN_BEHAVIOUR_ALIGNMENT] = 0.0f;
    tn_agent_id ids[N];
    for (int i = 0; i < N; i++) {
        ad.pos = slots[i];
        ad.target_pos = slots[i];
        assert_int_equal(tn_crowd_add(c, &ad, &ids[i]), TN_OK);
    }
    double sum = 0;
    int samples = 0;
    float worst = 0;
    float dt = 1.0f / 60.0f;
    for (int s = 0; !leader.arrived && s < 20000; s++) {
        tn_vec2 before = leader.pos;
        assert_int_equal(tn_path_follower_step(&leader, 60.0f, dt, NULL), TN_OK);
        tn_vec2 lv = {(leader.pos.x - before.x) / dt, (leader.pos.y - before.y) / dt};
        assert_int_equal(
            tn_formation_slots(m, leader.pos, leader.heading, off, N, 6.0f, slots, NULL), TN_OK);
        for (int i = 0; i < N; i++)
            assert_int_equal(tn_crowd_set_target(
                                 c, ids[i], TN_TARGET_ARRIVE,
                                 tn_formation_lead(slots[i], lv, ad.slow_radius, ad.max_speed), 0),
                             TN_OK);
        assert_int_equal(tn_crowd_step(c), TN_OK);
        /* measure on the straights, 3 s after each corner */
        float ax = leader.pos.x, ay = leader.pos.y;
        bool straight = (fabsf(ay - 300) < 1 && ax > 600 && ax < 1490) ||
                        (fabsf(ax - 1500) < 1 && ay > 500 && ay < 990) ||
                        (fabsf(ay - 1000) < 1 && ax < 1300 && ax > 410);
        if (!straight)
            continue;
        for (int i = 0; i < N; i++) {
            tn_agent_state st;
            assert_int_equal(tn_crowd_get(c, ids[i], &st), TN_OK);
            float e = hypotf(st.pos.x - slots[i].x, st.pos.y - slots[i].y);
            sum += (double)e;
            samples++;
            worst = e > worst ? e : worst;
        }
    }
    assert_true(leader.arrived);
    assert_true(samples > 1000);
    if (!(sum / samples < 4.0 && worst < 12.0f))
        fail_msg("shape %d: mean slot error %.2f px, worst %.2f px", (int)shape, sum / samples,
                 (double)worst);
    tn_crowd_destroy(c);
    tn_map_destroy(m);
}

static void test_hold_slots(void **state)
{
    (void)state;
    hold_slots(TN_FORMATION_LINE);
    hold_slots(TN_FORMATION_COLUMN);
    hold_slots(TN_FORMATION_WEDGE);
    hold_slots(TN_FORMATION_GRID);
}

/* A squad with the crowd's default weights (cohesion, alignment) comes to rest at its slots
 * once the leader stops, and stays "arrived" while its slots are sent again every step. The
 * slots' arrive targets are within the similar-goal distance of each other, so the squad
 * flocked: alignment turned each follower's small corrections into pushes towards full speed
 * (34 px/s after 4,000 steps, a stranger's report), and re-sending a slot cleared `arrived`. */
static void squad_rests(float spacing, float separation)
{
    tn_map *m = tn_test_random_map(40, 30, 0.0, 1);
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = 16;
    tn_crowd *c = NULL;
    assert_int_equal(tn_crowd_create(&cd, &c), TN_OK);
    enum { N = 12 };
    tn_vec2 off[N], slots[N];
    assert_int_equal(tn_formation_offsets(TN_FORMATION_GRID, N, spacing, 4, off), TN_OK);
    tn_vec2 leader = {5 * 32 + 16, 15 * 32};
    assert_int_equal(tn_formation_slots(m, leader, 0.0f, off, N, 6.0f, slots, NULL), TN_OK);
    tn_agent_def ad = tn_agent_def_default();
    ad.target = TN_TARGET_ARRIVE;
    ad.weights[TN_BEHAVIOUR_SEPARATION] = separation;
    tn_agent_id ids[N];
    for (int i = 0; i < N; i++) {
        ad.pos = slots[i];
        ad.target_pos = slots[i];
        assert_int_equal(tn_crowd_add(c, &ad, &ids[i]), TN_OK);
    }
    float fastest = 0.0f;
    int unarrived = 0;
    for (int s = 0; s < 3000; s++) {
        bool moving = leader.x < 25 * 32;
        if (moving)
            leader.x += 1.0f; /* 60 px/s at 60 steps a second, then stops */
        tn_vec2 lv = {moving ? 60.0f : 0.0f, 0.0f};
        assert_int_equal(tn_formation_slots(m, leader, 0.0f, off, N, 6.0f, slots, NULL), TN_OK);
        for (int i = 0; i < N; i++)
            assert_int_equal(tn_crowd_set_target(
                                 c, ids[i], TN_TARGET_ARRIVE,
                                 tn_formation_lead(slots[i], lv, ad.slow_radius, ad.max_speed), 0),
                             TN_OK);
        assert_int_equal(tn_crowd_step(c), TN_OK);
        if (s < 2500)
            continue;
        for (int i = 0; i < N; i++) {
            tn_agent_state st;
            assert_int_equal(tn_crowd_get(c, ids[i], &st), TN_OK);
            float v = hypotf(st.vel.x, st.vel.y);
            fastest = v > fastest ? v : fastest;
            unarrived += !st.arrived;
        }
    }
    if (!(fastest < 1.0f && unarrived == 0))
        fail_msg("spacing %.0f, separation %.1f: still %.2f px/s, %d agent-steps not arrived",
                 (double)spacing, (double)separation, (double)fastest, unarrived);
    tn_crowd_destroy(c);
    tn_map_destroy(m);
}

static void test_squad_comes_to_rest(void **state)
{
    (void)state;
    squad_rests(24.0f, 0.0f); /* slots closer than the neighbour radius: no separation */
    squad_rests(40.0f, 2.0f); /* the default separation, slots a neighbour radius apart */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_reform),
        cmocka_unit_test(test_hold_slots),
        cmocka_unit_test(test_squad_comes_to_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
