/* tilenav demo: the main job on the bundled map (data/maps/td.tmj).
 * Part 1: what the map is (as `tilenav info` reports it).
 * Part 2: tile collision walk-through (book ch. 3): an elf sprite with a 20x20 feet collision
 *         area walks faster than a tile per step, sliding along walls without tunnelling; the
 *         three hit-test point sets at a few spots. */
#include "cli.h"
#include "tilenav/io.h"
#include "tilenav/tile_collision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char tn_cmd_demo_summary[] = "run the demo on the bundled map (the README's first command)";

static void help(void)
{
    printf("usage: tilenav demo [--map FILE] [--steps N]\n\n"
           "Load the bundled tower-defense map (data/maps/td.tmj) or FILE, print what it holds,\n"
           "then walk an elf sprite (64x64 with a 20x20 feet collision area) through it faster\n"
           "than one tile per step with tn_tile_move_box, sliding along walls, and show the\n"
           "book's three hit-test point sets (centre, some, every).\n\n"
           "Options:\n"
           "  --map FILE   another map (Moving AI, Tiled JSON or tilenav ASCII)\n"
           "  --steps N    walk steps, 1..100000 (default 120)\n"
           "  -h, --help   this text\n\n"
           "Exit status: 0 ok, 2 bad command line, 3 the map cannot be read.\n");
}

static const char *default_map(char *buf, size_t cap)
{
    const char *candidates[] = {"data/maps/td.tmj", TN_DATA_DIR "/maps/td.tmj"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        FILE *f = fopen(candidates[i], "rb");
        if (f) {
            fclose(f);
            snprintf(buf, cap, "%s", candidates[i]);
            return buf;
        }
    }
    snprintf(buf, cap, "%s", candidates[0]);
    return buf;
}

/* Draw the map's passability with the walk's trail. */
static void print_trail(const tn_map *m, const uint8_t *trail)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    for (int32_t y = 0; y < h; y++) {
        char row[TN_MAX_DIM + 2];
        int32_t n = w < 200 ? w : 200;
        for (int32_t x = 0; x < n; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            row[x] = trail[i]                      ? '*'
                     : !tn_map_passable(m, x, y)   ? '#'
                     : tn_map_cost(m, x, y) > 1.0f ? '~'
                                                   : '.';
        }
        row[n] = '\0';
        printf("    %s\n", row);
    }
}

static int walk(const tn_map *m, int64_t steps)
{
    int32_t tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    /* the elf: a sprite of 2x2 tiles whose feet (a box of 20/32 tile) do the colliding */
    float fw = 20.0f * (float)tw / 32.0f, fh = 20.0f * (float)th / 32.0f;
    tn_tile_box elf = {0};
    elf.w = 2.0f * (float)tw;
    elf.h = 2.0f * (float)th;
    elf.area_w = fw;
    elf.area_h = fh;
    elf.area_x = (elf.w - fw) * 0.5f;
    elf.area_y = elf.h - fh - 2.0f;
    /* start with the feet on the first free cell near spawn1 (or the first free cell) */
    const tn_map_object *spawn = tn_map_find_object(m, "spawn1");
    tn_cell start = {-1, -1};
    if (spawn)
        tn_map_cell_at_px(m, spawn->x, spawn->y, &start);
    if (!tn_map_passable(m, start.x, start.y)) {
        for (int32_t i = 0; i < w * h && !tn_map_passable(m, start.x, start.y); i++)
            tn_map_cell_of_index(m, i, &start);
    }
    if (!tn_map_passable(m, start.x, start.y)) {
        printf("  no passable cell to walk on\n");
        return TN_EXIT_OK;
    }
    tn_vec2 c = tn_map_cell_center_px(m, start.x, start.y);
    elf.x = c.x - elf.area_x - fw * 0.5f;
    elf.y = c.y - elf.area_y - fh * 0.5f;
    uint8_t *trail = calloc((size_t)w * (size_t)h, 1);
    if (!trail)
        return TN_EXIT_NOMEM;
    /* speed 1.4 tiles per step, turning clockwise whenever both axes are blocked */
    const float speed = 1.4f * (float)tw;
    const tn_vec2 dirs[4] = {{speed, speed * 0.35f},
                             {-speed * 0.35f, speed},
                             {-speed, -speed * 0.35f},
                             {speed * 0.35f, -speed}};
    int d = 0, slides = 0, turns = 0;
    double travelled = 0.0;
    bool ever_inside = false;
    for (int64_t s = 0; s < steps; s++) {
        tn_tile_box_move mv;
        if (tn_tile_move_box(m, &elf, dirs[d], &mv) != TN_OK)
            break;
        travelled += (double)(mv.applied.x < 0 ? -mv.applied.x : mv.applied.x) +
                     (double)(mv.applied.y < 0 ? -mv.applied.y : mv.applied.y);
        if ((mv.flags & TN_TILE_BLOCKED_X) && (mv.flags & TN_TILE_BLOCKED_Y)) {
            d = (d + 1) % 4;
            turns++;
        } else if (mv.flags & (TN_TILE_BLOCKED_X | TN_TILE_BLOCKED_Y)) {
            slides++;
        }
        bool free = false;
        if (tn_tile_box_free(m, &elf, &free) == TN_OK && !free)
            ever_inside = true;
        tn_cell fc;
        if (tn_map_cell_at_px(m, elf.x + elf.area_x + fw * 0.5f, elf.y + elf.area_y + fh * 0.5f,
                              &fc))
            trail[(size_t)fc.y * (size_t)w + (size_t)fc.x] = 1;
    }
    printf("  elf feet %gx%g px, speed %.1f px/step (%.2f tiles), %lld steps: travelled %.0f px, "
           "%d wall slides, %d turns, feet inside a wall: %s\n",
           (double)fw, (double)fh, (double)speed, (double)speed / tw, (long long)steps, travelled,
           slides, turns, ever_inside ? "YES (bug)" : "never");
    print_trail(m, trail);
    free(trail);

    /* hit tests: the book's three point sets against the wall gid, beside a wall */
    int32_t walls = tn_map_find_layer(m, "walls");
    uint32_t wall_gid = 0;
    const uint32_t *wd = walls >= 0 ? tn_map_layer_data(m, walls) : NULL;
    for (int32_t i = 0; wd && i < w * h && !wall_gid; i++)
        wall_gid = tn_gid_id(wd[i]);
    if (wall_gid) {
        printf("  hit tests against wall gid %u (layer walls), a 32x32 box straddling the top-left "
               "wall corner:\n",
               wall_gid);
        static const char *names[3] = {"center", "some", "every"};
        float offs[3] = {(float)tw * 0.25f, (float)tw * 0.75f, 0.0f};
        for (int k = 0; k < 3; k++) {
            tn_tile_box b = {0};
            b.x = offs[k];
            b.y = offs[k];
            b.w = (float)tw;
            b.h = (float)th;
            printf("    box at (%4.0f,%4.0f):", (double)b.x, (double)b.y);
            for (int p = 0; p < 3; p++) {
                tn_tile_hit hit;
                if (tn_tile_hit_test(m, walls, wall_gid, &b, (tn_tile_points)p, &hit) == TN_OK)
                    printf("  %s=%s", names[p], hit.hit ? "hit " : "miss");
            }
            printf("\n");
        }
    }
    return TN_EXIT_OK;
}

int tn_cmd_demo(int argc, char **argv)
{
    char buf[1024];
    const char *path = NULL;
    int64_t steps = 120;
    for (int i = 1; i < argc; i++) {
        if (tn_cli_is_help(argv[i])) {
            help();
            return TN_EXIT_OK;
        } else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 1, 100000, &steps))
                return tn_cli_usage_error(
                    "demo", "--steps wants a whole number in 1..100000, got '%s'", argv[i]);
        } else {
            return tn_cli_usage_error("demo", "unknown argument '%s'", argv[i]);
        }
    }
    if (!path)
        path = default_map(buf, sizeof buf);
    tn_map *m = NULL;
    tn_diag diag;
    double t0 = tn_cli_now();
    tn_status st = tn_map_load(path, NULL, &m, &diag);
    if (st != TN_OK) {
        char msg[1200];
        tn_diag_format(&diag, msg, sizeof msg);
        tn_cli_error("demo", "%s", msg);
        return tn_cli_exit_for(st);
    }
    double load_ms = (tn_cli_now() - t0) * 1e3;
    printf("tilenav %s demo\n\n1. The map: %s\n", tn_version(), path);
    printf("  %d x %d cells of %d x %d px, %d layers, %d objects, loaded in %.2f ms\n",
           tn_map_width(m), tn_map_height(m), tn_map_tile_width(m), tn_map_tile_height(m),
           tn_map_layer_count(m), tn_map_object_count(m), load_ms);
    for (int32_t l = 0; l < tn_map_layer_count(m); l++)
        printf("  layer %d: %s (%s)\n", l, tn_map_layer_name(m, l),
               tn_map_layer_kind(m, l) == TN_LAYER_TILES ? "tiles" : "objects");
    printf("  passable: %d of %d cells; cost uniform: %s\n", tn_map_passable_count(m),
           tn_map_width(m) * tn_map_height(m),
           tn_map_uniform_cost(m) ? "yes" : "no (mud costs more)");
    printf("\n2. Tile collision walk-through (book ch. 3)\n");
    int rc = walk(m, steps);
    tn_map_destroy(m);
    return rc;
}
