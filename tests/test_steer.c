/* Steering behaviours: each force against a case worked out by hand (numbers in the comments),
 * arrive coming to rest, combinations, integration and bad input. */
#include "support.h"
#include "tilenav/steer.h"

#include <math.h>

#define EPS 1e-4

static tn_steer_agent agent(float x, float y, float vx, float vy)
{
    /* the tutorial's defaults: max force 5, max speed 4 */
    tn_steer_agent a = {{x, y}, {vx, vy}, 1.0f, 4.0f, 5.0f};
    return a;
}

static void near2(tn_vec2 v, double x, double y)
{
    assert_true(fabs((double)v.x - x) < EPS);
    assert_true(fabs((double)v.y - y) < EPS);
}

static void test_seek_flee(void **state)
{
    (void)state;
    tn_steer_agent a = agent(0, 0, 0, 0);
    /* desired = (3,4)/5*4 = (2.4,3.2); force = desired * 5/4 = (3,4) */
    near2(tn_steer_seek(&a, (tn_vec2){3, 4}), 3.0, 4.0);
    near2(tn_steer_flee(&a, (tn_vec2){3, 4}), -3.0, -4.0);
    a.vel = (tn_vec2){1, 0};
    /* (2.4-1, 3.2-0) * 1.25 = (1.75, 4) */
    near2(tn_steer_seek(&a, (tn_vec2){3, 4}), 1.75, 4.0);
    /* on the target: desired 0, force = -vel * 1.25 */
    near2(tn_steer_seek(&a, (tn_vec2){0, 0}), -1.25, 0.0);
    near2(tn_steer_toward_velocity(&a, (tn_vec2){0, 4}), -1.25, 5.0);
}

static void test_arrive(void **state)
{
    (void)state;
    tn_steer_agent a = agent(0, 0, 0, 0);
    /* distance 5 inside slow radius 10: speed 4*5/10 = 2, desired (1.2,1.6), force (1.5,2) */
    near2(tn_steer_arrive(&a, (tn_vec2){3, 4}, 10.0f), 1.5, 2.0);
    /* outside the slow radius it is seek */
    near2(tn_steer_arrive(&a, (tn_vec2){30, 40}, 10.0f), 3.0, 4.0);
    near2(tn_steer_arrive(&a, (tn_vec2){3, 4}, 0.0f), 3.0, 4.0);

    /* it comes to rest on the target */
    tn_steer_agent b = agent(0, 0, 0, 0);
    b.max_speed = 100.0f;
    b.max_force = 400.0f;
    tn_vec2 target = {300.0f, -120.0f};
    for (int i = 0; i < 600; i++)
        tn_steer_integrate(&b, tn_steer_arrive(&b, target, 60.0f), 1.0f / 60.0f);
    double dx = (double)(b.pos.x - target.x), dy = (double)(b.pos.y - target.y);
    assert_true(sqrt(dx * dx + dy * dy) < 0.5);
    assert_true(sqrt((double)(b.vel.x * b.vel.x + b.vel.y * b.vel.y)) < 1.0);
}

static void test_pursue_evade(void **state)
{
    (void)state;
    tn_steer_agent a = agent(0, 0, 0, 0);
    /* T = 8/4 = 2 s: predicted (8,4), |(8,4)| = 8.94427; desired = (8,4)/8.94427*4,
     * force = desired*1.25 = (4.47214, 2.23607) */
    near2(tn_steer_pursue(&a, (tn_vec2){8, 0}, (tn_vec2){0, 2}, 10.0f), 4.472136, 2.236068);
    near2(tn_steer_evade(&a, (tn_vec2){8, 0}, (tn_vec2){0, 2}, 10.0f), -4.472136, -2.236068);
    /* prediction capped at 1 s: (8,2), |.| = 8.24621 -> (4.85071, 1.21268) */
    near2(tn_steer_pursue(&a, (tn_vec2){8, 0}, (tn_vec2){0, 2}, 1.0f), 4.850713, 1.212678);
    /* a stationary target is plain seek */
    near2(tn_steer_pursue(&a, (tn_vec2){3, 4}, (tn_vec2){0, 0}, 5.0f), 3.0, 4.0);
}

static void test_wander(void **state)
{
    (void)state;
    tn_steer_agent a = agent(10, 20, 2, 0);
    tn_wander w = {10.0f, 5.0f, 0.3f, 0.25f};
    tn_rng rng = tn_rng_seed(42), copy = rng;
    tn_vec2 f = tn_steer_wander(&a, &w, &rng);
    /* the angle moved by (2u-1)*jitter, u the generator's next float */
    float u = tn_rng_float(&copy);
    double angle = 0.25 + (double)(u * 2.0f - 1.0f) * 0.3;
    assert_true(fabs((double)w.angle - angle) < 1e-6);
    /* heading (1,0): wander point = pos + (10,0) + 5*(cos a, sin a) */
    tn_vec2 t = {(float)(10.0 + 10.0 + 5.0 * cos(angle)), (float)(20.0 + 5.0 * sin(angle))};
    tn_vec2 s = tn_steer_seek(&a, t);
    near2(f, (double)s.x, (double)s.y);
    assert_int_equal(rng.s[0], copy.s[0]);
    /* same seed, same stream */
    tn_wander w2 = {10.0f, 5.0f, 0.3f, 0.25f};
    tn_rng r2 = tn_rng_seed(42);
    tn_vec2 f2 = tn_steer_wander(&a, &w2, &r2);
    assert_true(f2.x == f.x && f2.y == f.y);
}

static void test_flocking(void **state)
{
    (void)state;
    tn_steer_agent a = agent(0, 0, 0, 0);
    tn_vec2 np[3] = {{5, 0}, {0, -8}, {20, 0}};
    /* pushes: (-1,0)*(1-5/10) = (-0.5,0); (0,1)*(1-8/10) = (0,0.2); (20,0) out of range.
     * average (-0.25, 0.1), times max force 5 = (-1.25, 0.5) */
    near2(tn_steer_separation(&a, np, 3, 10.0f), -1.25, 0.5);
    near2(tn_steer_separation(&a, np, 0, 10.0f), 0.0, 0.0);
    /* a neighbour exactly on the agent gives no push (distance 0) */
    tn_vec2 same[1] = {{0, 0}};
    near2(tn_steer_separation(&a, same, 1, 10.0f), 0.0, 0.0);

    tn_vec2 cp[3] = {{6, 0}, {0, 6}, {30, 0}};
    /* centre of (0,0),(6,0),(0,6) = (2,2); seek: desired (2,2)/2.828*4 = (2.828,2.828),
     * force *1.25 = (3.53553, 3.53553) */
    near2(tn_steer_cohesion(&a, cp, 3, 10.0f), 3.535534, 3.535534);
    near2(tn_steer_cohesion(&a, cp + 2, 1, 10.0f), 0.0, 0.0);

    tn_steer_agent b = agent(0, 0, 2, 0);
    tn_vec2 ap[3] = {{1, 0}, {0, 1}, {50, 50}};
    tn_vec2 av[3] = {{0, 3}, {0, 0}, {5, 5}};
    /* moving headings: self (1,0), first (0,1); the second stands still, the third is far.
     * average (0.5,0.5), desired (2,2), force ((2-2),(2-0))*1.25 = (0, 2.5) */
    near2(tn_steer_alignment(&b, ap, av, 3, 10.0f), 0.0, 2.5);
    /* nobody near moves: zero */
    near2(tn_steer_alignment(&b, ap + 1, av + 1, 2, 10.0f), 0.0, 0.0);
}

static void test_avoid_agents(void **state)
{
    (void)state;
    tn_steer_agent a = agent(0, 0, 4, 0);
    /* reach = speed 4 * 2 s = 8. Threat at (4,0.5): along 4, lateral 0.5 (right of the
     * heading, y down), radius sum 2. Push left = (0,-1) * 5*(1-4/8) = (0,-2.5).
     * (6,-0.2) is a farther threat; (-3,0) is behind; (2,5) is off the path. */
    tn_vec2 np[4] = {{6, -0.2f}, {4, 0.5f}, {-3, 0}, {2, 5}};
    float nr[4] = {1, 1, 1, 1};
    near2(tn_steer_avoid_agents(&a, np, nr, 4, 2.0f), 0.0, -2.5);
    /* threat on the left: pushed right, (0, +) ; 5*(1-6/8) = 1.25 */
    near2(tn_steer_avoid_agents(&a, np, nr, 1, 2.0f), 0.0, 1.25);
    /* nothing in the way, or standing still: zero */
    near2(tn_steer_avoid_agents(&a, np + 2, nr, 2, 2.0f), 0.0, 0.0);
    tn_steer_agent still = agent(0, 0, 0, 0);
    near2(tn_steer_avoid_agents(&still, np, nr, 4, 2.0f), 0.0, 0.0);
}

static void test_avoid_walls(void **state)
{
    (void)state;
    const char *rows[] = {
        ".....#....", ".....#....", ".....#....", ".....#....", ".....#....",
        ".....#....", ".....#....", ".....#....", ".....#....", ".....#....",
    };
    tn_map *m = tn_test_map_from_rows(rows, 10);
    assert_non_null(m);
    /* at (112,176) moving +x, feeler 64 px: centre probes at x = 128, 144, 160 -> cell 5 is a
     * wall at 3/4: push 5*(1.25-0.75) = 2.5 along the normal (-1,0) of the face x = 160.
     * Side feelers (44.8 px at 30 deg) stay in column 4. */
    tn_steer_agent a = agent(112, 176, 10, 0);
    near2(tn_steer_avoid_walls(&a, m, 64.0f), -2.5, 0.0);
    /* moving away from the wall: nothing ahead */
    a.vel = (tn_vec2){-10, 0};
    near2(tn_steer_avoid_walls(&a, m, 64.0f), 0.0, 0.0);
    /* heading up the open column: nothing */
    a.vel = (tn_vec2){0, -10};
    near2(tn_steer_avoid_walls(&a, m, 20.0f), 0.0, 0.0);
    /* towards the top edge of the map from (48, 8): the outside counts as wall. First probe
     * at 1/4 (y = 3) is inside row 0; the 2/4 probe (y = -2) is outside: 5*(1.25-0.5) = 3.75
     * pushing down (0,1) from the edge y = 0 */
    tn_steer_agent e = agent(48, 8, 0, -10);
    near2(tn_steer_avoid_walls(&e, m, 20.0f), 0.0, 3.75);
    tn_map_destroy(m);
}

static void test_combine_integrate(void **state)
{
    (void)state;
    tn_vec2 f[3] = {{3, 0}, {0, 4}, {5, 5}};
    float w[3] = {1, 1, 0};
    near2(tn_steer_combine_weighted(f, w, 3, 10.0f), 3.0, 4.0);
    near2(tn_steer_combine_weighted(f, w, 3, 2.5f), 1.5, 2.0);
    float w2[3] = {2, 0.5f, 1};
    /* 2*(3,0) + 0.5*(0,4) + (5,5) = (11,7) */
    near2(tn_steer_combine_weighted(f, w2, 3, 100.0f), 11.0, 7.0);
    float w1[3] = {1, 1, 1};
    /* (3,0) uses 3 of 5; (0,4) gets the last 2 -> (3,2); (5,5) dropped */
    near2(tn_steer_combine_prioritized(f, w1, 3, 5.0f), 3.0, 2.0);
    near2(tn_steer_combine_prioritized(f, w1, 3, 100.0f), 8.0, 9.0);

    tn_steer_agent a = agent(0, 0, 0, 0);
    tn_steer_integrate(&a, (tn_vec2){3, 4}, 0.5f);
    near2(a.vel, 1.5, 2.0);
    near2(a.pos, 0.75, 1.0);
    tn_steer_agent b = agent(0, 0, 0, 0);
    tn_steer_integrate(&b, (tn_vec2){30, 40}, 1.0f);
    near2(b.vel, 2.4, 3.2); /* clamped to max speed 4 */
    near2(b.pos, 2.4, 3.2);
    assert_true(fabs((double)tn_steer_heading((tn_vec2){0, 1}, 0.0f) - 1.5707963267948966) < 1e-6);
    assert_true(tn_steer_heading((tn_vec2){0, 0}, 1.5f) == 1.5f);
}

static void test_bad_input(void **state)
{
    (void)state;
    tn_steer_agent bad = agent(0, 0, 1, 1);
    bad.max_speed = 0.0f;
    near2(tn_steer_seek(NULL, (tn_vec2){1, 1}), 0, 0);
    near2(tn_steer_seek(&bad, (tn_vec2){1, 1}), 0, 0);
    near2(tn_steer_separation(&bad, NULL, 0, 1.0f), 0, 0);
    tn_steer_agent a = agent(0, 0, 1, 1);
    near2(tn_steer_separation(&a, NULL, 3, 1.0f), 0, 0);
    near2(tn_steer_cohesion(&a, NULL, 3, 1.0f), 0, 0);
    near2(tn_steer_alignment(&a, NULL, NULL, 3, 1.0f), 0, 0);
    near2(tn_steer_avoid_agents(&a, NULL, NULL, 3, 1.0f), 0, 0);
    near2(tn_steer_avoid_walls(&a, NULL, 1.0f), 0, 0);
    near2(tn_steer_wander(&a, NULL, NULL), 0, 0);
    near2(tn_steer_combine_weighted(NULL, NULL, 2, 1.0f), 0, 0);
    near2(tn_steer_combine_prioritized(NULL, NULL, 2, 1.0f), 0, 0);
    tn_steer_integrate(NULL, (tn_vec2){1, 1}, 1.0f);
    tn_steer_integrate(&a, (tn_vec2){1, 1}, NAN);
    near2(a.pos, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seek_flee),    cmocka_unit_test(test_arrive),
        cmocka_unit_test(test_pursue_evade), cmocka_unit_test(test_wander),
        cmocka_unit_test(test_flocking),     cmocka_unit_test(test_avoid_agents),
        cmocka_unit_test(test_avoid_walls),  cmocka_unit_test(test_combine_integrate),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
