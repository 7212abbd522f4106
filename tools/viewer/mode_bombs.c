/* Mode "bombs" (book ch. 3): tile collision. The elf (a box with a feet collision area) walks
 * with the arrow keys; tn_tile_move_box keeps it out of the walls, sliding along them. Bombs
 * lie in a layer of their own; tn_tile_hit_test (the book's hitTestTile, "some" corners)
 * finds the bomb the elf touches, which is then cleared. Moving bombs wander the corridors
 * on rows and columns (tn_grid_wander_step) and are stamped every step into a live layer with
 * tn_map_stamp_layer (the book's updateMap), where the same hit test catches them. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MOVERS 4
#define ELF_SPEED 3.0f

static const char *const bomb_rows[] = {
    "####################", "#..B.....#.......B.#", "#.####.#.#.#####.#.#", "#.#B...#...#...#.#.#",
    "#.#.#####.#.#B.#...#", "#...#.....#.#..###.#", "###.#.###.#.##.....#", "#B..#...#.#....#.#B#",
    "#.#####.#.####.#.#.#", "#.....#.#......#...#", "#.###.#.######.###.#", "#...#B.........#..B#",
    "#.#.#######.#.##.#.#", "#.#.........#....#.#", "####################",
};
#define BOMB_H ((int32_t)(sizeof bomb_rows / sizeof bomb_rows[0]))

typedef struct bombs {
    tn_map *map;
    int32_t bombs_layer, live_layer;
    tn_tile_box elf;
    tn_grid_walker movers[MOVERS];
    bool alive[MOVERS];
    tn_rng rng;
    int32_t collected, left;
    tn_tile_hit last;
    vw_view view;
} bombs;

static int32_t count_bombs(const bombs *b)
{
    const uint32_t *g = tn_map_layer_data(b->map, b->bombs_layer);
    int32_t n = 0, cells = tn_map_width(b->map) * tn_map_height(b->map);
    for (int32_t i = 0; i < cells; i++)
        n += tn_gid_id(g[i]) == VW_GID_BOMB;
    return n;
}

static void destroy(void *st)
{
    bombs *b = st;
    tn_map_destroy(b->map);
    free(b);
}

static void *create(vw_app *app)
{
    bombs *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->rng = tn_rng_seed(app->seed);
    b->map = vw_clone_user_map(app);
    if (!b->map && !app->user_map)
        b->map = vw_map_from_ascii(bomb_rows, BOMB_H, 32);
    if (!b->map)
        goto fail;
    int32_t w = tn_map_width(b->map), h = tn_map_height(b->map);
    b->bombs_layer = tn_map_find_layer(b->map, "bombs");
    if (b->bombs_layer < 0) { /* a loaded map: scatter bombs on floor cells */
        if (tn_map_add_layer(b->map, "bombs", TN_LAYER_TILES, &b->bombs_layer) != TN_OK ||
            tn_map_set_layer_flags(b->map, b->bombs_layer, TN_LAYER_HIDDEN) != TN_OK)
            goto fail;
        for (int32_t k = 0; k < 12; k++) {
            tn_cell c = vw_nearest_passable(b->map, (int32_t)tn_rng_below(&b->rng, (uint32_t)w),
                                            (int32_t)tn_rng_below(&b->rng, (uint32_t)h));
            if (c.x >= 0 && tn_map_set(b->map, b->bombs_layer, c.x, c.y, VW_GID_BOMB) != TN_OK)
                goto fail;
        }
    }
    if (tn_map_add_layer(b->map, "moving bombs", TN_LAYER_TILES, &b->live_layer) != TN_OK ||
        tn_map_set_layer_flags(b->map, b->live_layer, TN_LAYER_HIDDEN) != TN_OK)
        goto fail;
    int32_t tw = tn_map_tile_width(b->map), th = tn_map_tile_height(b->map);
    tn_cell s = vw_nearest_passable(b->map, 1, 1);
    if (s.x < 0)
        goto fail;
    /* a sprite of one tile with a feet box in its lower middle (the book's elf) */
    b->elf =
        (tn_tile_box){(float)(s.x * tw), (float)(s.y * th), (float)tw,        (float)th,
                      (float)tw * 0.2f,  (float)th * 0.35f, (float)tw * 0.6f, (float)th * 0.6f};
    for (int32_t k = 0; k < MOVERS; k++) {
        tn_cell c = vw_nearest_passable(b->map, w / 2 + (k % 2 ? 3 : -3), h / 2 + (k / 2 ? 3 : -3));
        b->alive[k] = c.x >= 0 && tn_grid_walker_init(&b->movers[k], b->map, c, (float)tw / 16.0f,
                                                      NULL, 0) == TN_OK;
    }
    b->left = count_bombs(b);
    b->view = vw_view_fit(app, b->map, VW_AREA);
    return b;
fail:
    destroy(b);
    return NULL;
}

static void event(void *st, vw_app *app, const SDL_Event *e)
{
    (void)st;
    (void)app;
    (void)e;
}

static void step(void *st, vw_app *app, const uint8_t *keys)
{
    bombs *b = st;
    /* moving bombs wander, then are stamped into the live layer (updateMap) */
    tn_stamp stamps[MOVERS];
    int32_t ns = 0, who[MOVERS];
    for (int32_t k = 0; k < MOVERS; k++) {
        if (!b->alive[k] || tn_grid_wander_step(&b->movers[k], b->map, &b->rng) != TN_OK)
            continue;
        stamps[ns] = (tn_stamp){b->movers[k].pos.x, b->movers[k].pos.y, VW_GID_BOMB};
        who[ns++] = k;
    }
    int32_t idx[MOVERS];
    if (tn_map_stamp_layer(b->map, b->live_layer, stamps, (int32_t)ns, idx) != TN_OK)
        return;
    /* the elf */
    tn_vec2 d = {0.0f, 0.0f};
    if (keys[SDL_SCANCODE_LEFT])
        d.x -= ELF_SPEED;
    if (keys[SDL_SCANCODE_RIGHT])
        d.x += ELF_SPEED;
    if (keys[SDL_SCANCODE_UP])
        d.y -= ELF_SPEED;
    if (keys[SDL_SCANCODE_DOWN])
        d.y += ELF_SPEED;
    tn_tile_box_move mv = {{0.0f, 0.0f}, 0};
    if ((d.x != 0.0f || d.y != 0.0f) && tn_tile_move_box(b->map, &b->elf, d, &mv) != TN_OK)
        return;
    /* hitTestTile against the bombs, then against the live layer */
    tn_tile_hit hit;
    while (tn_tile_hit_test(b->map, b->bombs_layer, VW_GID_BOMB, &b->elf, TN_POINTS_SOME, &hit) ==
               TN_OK &&
           hit.hit) {
        if (tn_map_set(b->map, b->bombs_layer, hit.cell.x, hit.cell.y, 0) != TN_OK)
            break;
        b->collected++;
        b->last = hit;
        printf("bombs: collected at (%d, %d)\n", (int)hit.cell.x, (int)hit.cell.y);
    }
    if (tn_tile_hit_test(b->map, b->live_layer, VW_GID_BOMB, &b->elf, TN_POINTS_SOME, &hit) ==
            TN_OK &&
        hit.hit)
        for (int32_t i = 0; i < ns; i++)
            if (idx[i] == hit.index) {
                b->alive[who[i]] = false;
                b->collected++;
                printf("bombs: caught a moving bomb at (%d, %d)\n", (int)hit.cell.x,
                       (int)hit.cell.y);
            }
    b->left = count_bombs(b);
    int32_t moving = 0;
    for (int32_t k = 0; k < MOVERS; k++)
        moving += b->alive[k];
    snprintf(app->status, sizeof app->status, "collected %d, %d bombs and %d moving bombs left%s%s",
             (int)b->collected, (int)b->left, (int)moving,
             mv.flags & TN_TILE_BLOCKED_X ? "  [wall x]" : "",
             mv.flags & TN_TILE_BLOCKED_Y ? "  [wall y]" : "");
}

static void draw_bomb(tn_canvas *c, const vw_view *v, tn_vec2 world, uint32_t col)
{
    tn_vec2 p = vw_to_screen(v, world);
    float r = v->cell * 0.28f < 3.0f ? 3.0f : v->cell * 0.28f;
    tn_canvas_circle(c, p.x, p.y, r, vw_rgb(col), true);
    tn_canvas_line(c, p.x + r * 0.5f, p.y - r * 0.8f, p.x + r, p.y - r * 1.4f, vw_rgb(0xF0A020u));
}

static void draw(void *st, vw_app *app, tn_canvas *c)
{
    (void)app;
    bombs *b = st;
    b->view = vw_view_fit(app, b->map, VW_AREA);
    const vw_view *v = &b->view;
    vw_draw_map(c, v, b->map, app->user_imgs);
    const uint32_t *g = tn_map_layer_data(b->map, b->bombs_layer);
    for (int32_t y = 0; y < v->h; y++)
        for (int32_t x = 0; x < v->w; x++)
            if (tn_gid_id(g[(size_t)y * (size_t)v->w + (size_t)x]) == VW_GID_BOMB)
                draw_bomb(c, v, tn_map_cell_center_px(b->map, x, y), 0x202020u);
    for (int32_t k = 0; k < MOVERS; k++)
        if (b->alive[k])
            draw_bomb(c, v, b->movers[k].pos, 0x802020u);
    /* the elf: sprite box shaded, feet collision box solid, its four corner points white */
    const tn_tile_box *e = &b->elf;
    tn_box sprite = {(double)e->x, (double)e->y, (double)(e->x + e->w), (double)(e->y + e->h)};
    tn_box feet = {(double)(e->x + e->area_x), (double)(e->y + e->area_y),
                   (double)(e->x + e->area_x + e->area_w), (double)(e->y + e->area_y + e->area_h)};
    if (tn_draw_boxes(c, &v->dv, &sprite, 1, vw_rgba(0x30B060u, 90), true) != TN_OK ||
        tn_draw_boxes(c, &v->dv, &feet, 1, vw_rgb(0x30B060u), true) != TN_OK)
        return;
    tn_vec2 f = vw_to_screen(v, (tn_vec2){b->elf.x + b->elf.area_x, b->elf.y + b->elf.area_y});
    int32_t fw = (int32_t)(b->elf.area_w * v->scale), fh = (int32_t)(b->elf.area_h * v->scale);
    for (int32_t k = 0; k < 4; k++)
        tn_canvas_fill_rect(c, (int32_t)f.x + (k & 1) * (fw - 3),
                            (int32_t)f.y + (k >> 1) * (fh - 3), 3, 3, vw_rgb(0xFFFFFFu));
}

static void layout(void *st, vw_app *app)
{
    (void)app;
    bombs *b = st;
    tn_vec2 p =
        vw_to_screen(&b->view, (tn_vec2){b->elf.x + b->elf.w * 0.5f, b->elf.y + b->elf.h * 0.5f});
    vw_print_view("view", &b->view);
    printf("elf %.0f %.0f\n", (double)p.x, (double)p.y);
    printf("bombs %d\n", (int)b->left);
}

const vw_mode vw_mode_bombs = {"bombs",
                               "Tile collision: walls and bombs",
                               "Arrow keys walk the elf (green; the solid part is its feet\n"
                               "collision area, white dots its corner points). Walls stop it\n"
                               "and it slides along them. Touch a bomb with a corner to\n"
                               "collect it (hitTestTile, 'some'); red bombs wander the maze.",
                               create,
                               destroy,
                               event,
                               step,
                               draw,
                               layout};
