/* Micro-benchmark of tile collision: ns per call of the circle mover (the per-agent, per-step
 * wall check of steering agents and marbles), the box mover, the hit tests and the circle
 * overlap, on a 256x256 map of 32 px tiles with random walls.
 *
 * Build and run (from the repository root, no CMake needed):
 *   cc -O2 -std=c11 -ffp-contract=off -Iinclude bench/bench_tile_collision.c src/[a-z]*.c -lm \
 *      -o /tmp/bench_tile_collision && /tmp/bench_tile_collision [agents] [steps] [wall%]
 * Defaults: 100000 agents, 10 steps, 20% walls. Prints one line per scenario. */
#include "tilenav/tilenav.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Process CPU time, so that other processes on a shared machine do not count. */
static double now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double u01(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct agent {
    tn_vec2 p;
    tn_vec2 dir; /* unit heading */
} agent;

/* Move every agent `steps` times at `speed` pixels per step; returns ns per call. With
 * `call` false the loop does the same memory traffic without calling the mover (the loop's
 * own cost, to subtract). */
static double run_circles(const tn_map *m, agent *a, int n, int steps, float r, float speed,
                          bool call, long *contacts)
{
    const float cs = 0.5403023f, sn = 0.84147098f; /* turn by 1 radian after a contact */
    double t0 = now();
    long c = 0;
    for (int s = 0; s < steps; s++)
        for (int i = 0; i < n; i++) {
            tn_vec2 d = {speed * a[i].dir.x, speed * a[i].dir.y};
            tn_tile_circle_move mv;
            if (call) {
                if (tn_tile_move_circle(m, a[i].p, r, d, &mv) != TN_OK)
                    abort();
            } else {
                mv.position = (tn_vec2){a[i].p.x + 1e-30f * d.x, a[i].p.y};
                mv.contacts = (int32_t)(a[i].p.x < 0.0f);
            }
            a[i].p = mv.position;
            c += mv.contacts;
            if (mv.contacts)
                a[i].dir =
                    (tn_vec2){cs * a[i].dir.x - sn * a[i].dir.y, sn * a[i].dir.x + cs * a[i].dir.y};
        }
    *contacts = c;
    return (now() - t0) * 1e9 / ((double)n * steps);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    double walls = argc > 3 ? atof(argv[3]) / 100.0 : 0.2;
    if (n < 1 || steps < 1)
        return 2;
    tn_map_def def = tn_map_def_default();
    def.width = def.height = 256;
    tn_map *m = NULL;
    int32_t layer = -1;
    if (tn_map_create(&def, &m) != TN_OK || tn_map_add_layer(m, "walls", TN_LAYER_TILES, &layer) ||
        tn_map_set_terrain(m, 1, (tn_terrain){false, 1.0f}) != TN_OK)
        return 1;
    for (int32_t y = 0; y < 256; y++)
        for (int32_t x = 0; x < 256; x++)
            if (u01() < walls && tn_map_set(m, layer, x, y, 1) != TN_OK)
                return 1;
    const float tile = 32.0f, r = 0.3f * tile;
    agent *a = malloc(sizeof *a * (size_t)n);
    if (!a)
        return 1;
    for (int i = 0; i < n; i++) {
        do {
            a[i].p = (tn_vec2){(float)(u01() * 256.0 * (double)tile),
                               (float)(u01() * 256.0 * (double)tile)};
        } while (tn_tile_circle_overlap(m, a[i].p, r) != 0.0f);
        double h = u01() * 6.283185307179586;
        a[i].dir = (tn_vec2){(float)cos(h), (float)sin(h)};
    }
    printf("tile collision bench: %d agents x %d steps, 256x256 map, 32 px tiles, %.0f%% walls, "
           "circle radius %.1f px\n",
           n, steps, walls * 100.0, (double)r);
    const float speeds[4] = {0.1f, 0.5f, 2.0f, 5.0f};
    long none = 0;
    printf("  loop overhead (no call):         %7.1f ns/iteration\n",
           run_circles(m, a, n, steps, r, tile, false, &none));
    for (int k = 0; k < 4; k++) {
        long contacts = 0;
        double ns = run_circles(m, a, n, steps, r, speeds[k] * tile, true, &contacts);
        printf("  move_circle  speed %.1f tile/step: %7.1f ns/call, %.3f contacts/call\n",
               (double)speeds[k], ns, (double)contacts / ((double)n * steps));
    }
    /* overlap, hit tests and the box mover at the agents' positions */
    double t0 = now();
    double sink = 0.0;
    for (int s = 0; s < steps; s++)
        for (int i = 0; i < n; i++)
            sink += (double)tn_tile_circle_overlap(m, a[i].p, r);
    printf("  circle_overlap:                 %7.1f ns/call\n",
           (now() - t0) * 1e9 / ((double)n * steps));
    tn_tile_hit hit;
    const char *names[3] = {"center", "some", "every"};
    for (int k = 0; k < 3; k++) {
        t0 = now();
        long hits = 0;
        for (int s = 0; s < steps; s++)
            for (int i = 0; i < n; i++) {
                tn_tile_box b = tn_tile_box_make(a[i].p.x - r, a[i].p.y - r, 2 * r, 2 * r);
                if (tn_tile_hit_test(m, layer, 0, &b, (tn_tile_points)k, &hit) != TN_OK)
                    abort();
                hits += hit.hit;
            }
        printf("  hit_test %-6s:                %7.1f ns/call (%ld hits)\n", names[k],
               (now() - t0) * 1e9 / ((double)n * steps), hits);
    }
    t0 = now();
    for (int s = 0; s < steps; s++)
        for (int i = 0; i < n; i++) {
            tn_tile_box b = tn_tile_box_make(a[i].p.x - r, a[i].p.y - r, 2 * r, 2 * r);
            tn_vec2 d = {0.5f * tile * a[i].dir.x, 0.5f * tile * a[i].dir.y};
            if (tn_tile_move_box(m, &b, d, NULL) != TN_OK)
                abort();
            sink += (double)b.x;
        }
    printf("  move_box     speed 0.5 tile/step: %7.1f ns/call\n",
           (now() - t0) * 1e9 / ((double)n * steps));
    /* push-out of circles that overlap walls (rare: spawns, map edits), reach r + one tile */
    int np = 0, found = 0;
    for (int i = 0; i < n && np < n; i++) {
        tn_vec2 p = {(float)(u01() * 256.0 * (double)tile), (float)(u01() * 256.0 * (double)tile)};
        if (tn_tile_circle_overlap(m, p, r) > 0.0f)
            a[np++].p = p; /* reuse the agents' array */
    }
    t0 = now();
    for (int i = 0; i < np; i++) {
        tn_vec2 o;
        found += tn_tile_circle_push_out(m, a[i].p, r, r + tile, &o) == TN_OK;
    }
    printf("  circle_push_out (overlapping):  %7.1f ns/call (%d of %d placed)\n",
           (now() - t0) * 1e9 / (double)(np > 0 ? np : 1), found, np);
    if (sink == 12345.0)
        printf("!\n");
    free(a);
    tn_map_destroy(m);
    return 0;
}
