/* Mode "car" (book ch. 7): the AI race car steers by the hidden angle map (one heading per
 * cell, tn_dirmap, driving tn_car_step), and a player car is driven with the arrow keys (the
 * book's keyboard car: Up accelerates, Left/Right turn, friction slows it when released).
 * Grass (any cell costing more than the map's cheapest terrain: on the built-in track the
 * green around the sandy road) multiplies both cars' velocity by 0.25 instead of 0.96.
 * Both cars move through the tile collision (tn_tile_move_circle), so walls stop them. On the
 * built-in oval track the angle map follows the track; on a loaded map it is generated from a
 * flow field towards the far side of the map (tn_dirmap_from_field). */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TRACK_W 30
#define TRACK_H 20
#define TRACK_IN 0.55f
#define TRACK_MID 0.775f
#define FRICTION_TRACK 0.96f
#define FRICTION_GRASS 0.25f

typedef struct car_mode {
    tn_map *map;
    tn_dirmap *dm;       /* the headings as drawn (NaN where none) */
    tn_dirmap *headings; /* what the AI car reads: dm with 0 degrees where dm has none */
    tn_field *field;
    float *friction;
    tn_car_track track;
    tn_car_def ai_def;
    tn_car ai;
    tn_rng rng;
    /* the player's car, the book's model */
    tn_vec2 pos;
    float rotation, speed, pfriction;
    tn_vec2 ai_start, p_start;
    float ai_rot0;
    float radius;
    bool arrows;
    int32_t laps_ai;
    vw_view view;
} car_mode;

/* The built-in angle map: the tangent of the oval through the cell (clockwise on screen),
 * turned towards the middle of the road by up to 70 degrees the farther the cell is from it,
 * so that a car pushed wide is steered back, then rounded to 45 degrees as the book's tiles. */
static float track_heading(float x, float y, float cx, float cy, float a, float b)
{
    float nx = (x - cx) / a, ny = (y - cy) / b;
    float t = atan2f(ny, nx), r = sqrtf(nx * nx + ny * ny);
    float deg = atan2f(b * cosf(t), -a * sinf(t)) * 57.29578f;
    float turn = (r - TRACK_MID) * 250.0f; /* outside the middle: turn right (inwards) */
    deg += fmaxf(-70.0f, fminf(70.0f, turn));
    deg = roundf(deg / 45.0f) * 45.0f;
    deg = fmodf(deg, 360.0f);
    return deg < 0.0f ? deg + 360.0f : deg;
}

static tn_map *make_track(void)
{
    char rows[TRACK_H][TRACK_W + 1];
    const char *ptrs[TRACK_H];
    float cx = TRACK_W * 0.5f, cy = TRACK_H * 0.5f;
    for (int32_t y = 0; y < TRACK_H; y++) {
        for (int32_t x = 0; x < TRACK_W; x++) {
            float dx = ((float)x + 0.5f - cx) / (cx - 1.0f),
                  dy = ((float)y + 0.5f - cy) / (cy - 1.0f);
            float r = sqrtf(dx * dx + dy * dy);
            rows[y][x] = (r < 1.0f && r > TRACK_IN) ? '=' : '.';
        }
        rows[y][TRACK_W] = 0;
        ptrs[y] = rows[y];
    }
    return vw_map_from_ascii(ptrs, TRACK_H, 32);
}

static void destroy(void *st)
{
    car_mode *m = st;
    tn_field_destroy(m->field);
    tn_dirmap_destroy(m->dm);
    tn_dirmap_destroy(m->headings);
    tn_map_destroy(m->map);
    free(m->friction);
    free(m);
}

static void *create(vw_app *app)
{
    car_mode *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->map = vw_clone_user_map(app);
    bool track = !app->user_map;
    if (track)
        m->map = make_track();
    if (!m->map)
        goto fail;
    int32_t w = tn_map_width(m->map), h = tn_map_height(m->map);
    int32_t tw = tn_map_tile_width(m->map), th = tn_map_tile_height(m->map);
    tn_dirmap_def dd = tn_dirmap_def_default();
    dd.width = w;
    dd.height = h;
    m->friction = malloc((size_t)w * (size_t)h * sizeof *m->friction);
    if (!m->friction || tn_dirmap_create(&dd, &m->dm) != TN_OK ||
        tn_dirmap_create(&dd, &m->headings) != TN_OK)
        goto fail;
    tn_cell start;
    if (track) {
        float cx = (float)w * 0.5f, cy = (float)h * 0.5f;
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                if (tn_dirmap_set(m->dm, x, y,
                                  track_heading((float)x + 0.5f, (float)y + 0.5f, cx, cy, cx - 1.0f,
                                                cy - 1.0f)) != TN_OK)
                    goto fail;
        start = (tn_cell){w / 2, h - 3};
    } else { /* a flow field towards the passable cell farthest from the start */
        start = vw_nearest_passable(m->map, 0, 0);
        tn_cell goal = vw_nearest_passable(m->map, w - 1, h - 1);
        tn_field_def fd = tn_field_def_default();
        fd.map = m->map;
        if (start.x < 0 || tn_field_create(&fd, &m->field) != TN_OK ||
            tn_field_build(m->field, &goal, 1) != TN_OK ||
            tn_dirmap_from_field(m->dm, m->field) != TN_OK)
            goto fail;
    }
    float min_cost = tn_map_min_cost(m->map);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            float a = tn_dirmap_get(m->dm, x, y);
            if (tn_dirmap_set(m->headings, x, y, isnan(a) ? 0.0f : a) != TN_OK)
                goto fail;
            m->friction[i] = tn_map_cost(m->map, x, y) > min_cost ? FRICTION_GRASS : FRICTION_TRACK;
        }
    m->track = (tn_car_track){m->headings, m->friction, (float)tw, (float)th};
    m->ai_def = tn_car_def_default();
    m->ai_def.turn_rate = 0.05f; /* the book's 0.03 drifts onto the grass on this tighter oval */
    m->rng = tn_rng_seed(app->seed);
    m->radius = 0.3f * (float)(tw < th ? tw : th);
    m->ai_start = tn_map_cell_center_px(m->map, start.x, start.y);
    m->ai_rot0 = tn_dirmap_get(m->headings, start.x, start.y) * 0.01745329f;
    tn_cell ps = vw_nearest_passable(m->map, start.x, start.y + (track ? 1 : 0));
    m->p_start = tn_map_cell_center_px(m->map, ps.x, ps.y);
    if (tn_car_init(&m->ai, &m->ai_def, m->ai_start, m->ai_rot0) != TN_OK)
        goto fail;
    m->pos = m->p_start;
    m->rotation = m->ai_rot0;
    m->pfriction = FRICTION_TRACK;
    m->arrows = true;
    m->view = vw_view_fit(app, m->map, VW_AREA);
    return m;
fail:
    destroy(m);
    return NULL;
}

static void event(void *st, vw_app *app, const SDL_Event *e)
{
    (void)app;
    car_mode *m = st;
    m->view = vw_view_fit(app, m->map, VW_AREA);
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_a)
        m->arrows = !m->arrows;
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_r) {
        m->pos = m->p_start;
        m->speed = 0.0f;
        m->rotation = m->ai_rot0;
        if (tn_car_init(&m->ai, &m->ai_def, m->ai_start, m->ai_rot0) != TN_OK)
            return;
    }
}

/* Move a circle through the walls; returns the new centre (the old one when stuck). */
static tn_vec2 move_circle(const tn_map *map, tn_vec2 from, float r, tn_vec2 delta)
{
    tn_tile_circle_move mv;
    if (tn_tile_move_circle(map, from, r, delta, &mv) != TN_OK)
        return from;
    return mv.position;
}

static float friction_at(const car_mode *m, tn_vec2 p)
{
    tn_cell c;
    if (!tn_map_cell_at_px(m->map, p.x, p.y, &c))
        return FRICTION_GRASS;
    return m->friction[(size_t)c.y * (size_t)tn_map_width(m->map) + (size_t)c.x];
}

static void step(void *st, vw_app *app, const uint8_t *keys)
{
    car_mode *m = st;
    /* AI car: the library's step, then the displacement goes through the tile collision */
    tn_vec2 before = m->ai.pos;
    if (tn_car_step(&m->ai, &m->ai_def, &m->track, &m->rng) == TN_OK) {
        tn_vec2 d = {m->ai.pos.x - before.x, m->ai.pos.y - before.y};
        m->ai.pos = move_circle(m->map, before, m->radius, d);
    }
    /* the player's car (book ch. 7): rotation speed 0.05 rad, +0.05 speed while Up is held */
    if (keys[SDL_SCANCODE_LEFT])
        m->rotation -= 0.05f;
    if (keys[SDL_SCANCODE_RIGHT])
        m->rotation += 0.05f;
    if (keys[SDL_SCANCODE_UP])
        m->speed = fminf(m->speed + 0.05f, 4.0f);
    else
        m->speed *= m->pfriction;
    if (keys[SDL_SCANCODE_DOWN])
        m->speed *= 0.9f;
    tn_vec2 vel = {m->speed * cosf(m->rotation) * m->pfriction,
                   m->speed * sinf(m->rotation) * m->pfriction};
    m->pos = move_circle(m->map, m->pos, m->radius, vel);
    m->pfriction = friction_at(m, m->pos);
    snprintf(app->status, sizeof app->status,
             "player speed %.2f%s   AI speed %.2f%s   (arrows drive, A angle map, R reset)",
             (double)m->speed, m->pfriction < 0.5f ? " (grass)" : "", (double)m->ai.speed,
             m->ai.friction < 0.5f ? " (grass)" : "");
}

static void draw(void *st, vw_app *app, tn_canvas *c)
{
    (void)app;
    car_mode *m = st;
    m->view = vw_view_fit(app, m->map, VW_AREA);
    const vw_view *v = &m->view;
    vw_draw_map(c, v, m->map, app->user_imgs);
    if (m->arrows && tn_draw_dirmap(c, &v->dv, m->dm, vw_rgba(0x404040u, 110)) != TN_OK)
        return;
    float r = vw_visible_radius(v, m->radius, 4.0f);
    tn_draw_agent cars[2] = {{m->ai.pos, r, m->ai.rotation, vw_rgb(VW_COL_AI_CAR)},
                             {m->pos, r, m->rotation, vw_rgb(VW_COL_PLAYER)}};
    if (tn_draw_agents(c, &v->dv, cars, 2, vw_rgb(0x101010u)) != TN_OK)
        return;
}

static void layout(void *st, vw_app *app)
{
    (void)app;
    car_mode *m = st;
    tn_vec2 p = vw_to_screen(&m->view, m->pos), a = vw_to_screen(&m->view, m->ai.pos);
    vw_print_view("view", &m->view);
    printf("player %.0f %.0f\n", (double)p.x, (double)p.y);
    printf("ai %.0f %.0f\n", (double)a.x, (double)a.y);
}

const vw_mode vw_mode_car = {"car",
                             "Race car: AI on the angle map, you on the keys",
                             "Orange: the AI car, steering by the angle map (arrows).\n"
                             "Blue: your car. Up accelerates, Left/Right turn, Down brakes.\n"
                             "Grass multiplies velocity by 0.25 (track 0.96) for both.\n"
                             "A toggles the angle-map arrows, R puts both cars back.",
                             create,
                             destroy,
                             event,
                             step,
                             draw,
                             layout};
