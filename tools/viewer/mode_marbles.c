/* Mode "marbles" (book ch. 7): marbles in a spatial grid. Drag back from a marble and release
 * to throw it (a slingshot: the further the drag, the faster). Each step runs the library's
 * tn_marbles_step: the grid broad phase (tn_bp, kind TN_BP_GRID) proposes pairs, the narrow
 * phase tests circles, the book's moving-circle response bounces them, and walls of the map
 * stop them. The grid's cells are drawn; occupied cells are shaded. */
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_MARBLES 64
#define PAIR_CAP 4096
#define CELL 64.0

static const char *const arena_rows[] = {
    "##############################", "#............................#",
    "#............................#", "#............................#",
    "#.......##..........##.......#", "#.......##..........##.......#",
    "#............................#", "#............................#",
    "#............................#", "#............................#",
    "#............................#", "#............................#",
    "#............................#", "#.......##..........##.......#",
    "#.......##..........##.......#", "#............................#",
    "#............................#", "#............................#",
    "#............................#", "##############################",
};
#define ARENA_H ((int32_t)(sizeof arena_rows / sizeof arena_rows[0]))

typedef struct marbles {
    tn_map *map;
    tn_marble m[MAX_MARBLES];
    tn_bp_id ids[MAX_MARBLES];
    uint32_t col[MAX_MARBLES];
    int32_t n;
    tn_bp *bp;
    tn_bp_pair pairs[PAIR_CAP];
    tn_marbles_def params;
    tn_marbles_stats stats;
    int32_t drag;  /* marble being aimed, or -1 */
    tn_vec2 mouse; /* screen */
    int64_t throws;
    bool grid;
    vw_view view;
} marbles;

static bool fits(const marbles *s, double x, double y, double r)
{
    if (tn_tile_circle_overlap(s->map, (tn_vec2){(float)x, (float)y}, (float)r) != 0.0f)
        return false;
    for (int32_t i = 0; i < s->n; i++) {
        double dx = s->m[i].x - x, dy = s->m[i].y - y, rr = s->m[i].r + r + 2.0;
        if (dx * dx + dy * dy < rr * rr)
            return false;
    }
    return true;
}

static void destroy(void *st)
{
    marbles *s = st;
    tn_bp_destroy(s->bp);
    tn_map_destroy(s->map);
    free(s);
}

static void *create(vw_app *app)
{
    marbles *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->map = vw_clone_user_map(app);
    if (!s->map && !app->user_map)
        s->map = vw_map_from_ascii(arena_rows, ARENA_H, 32);
    if (!s->map) {
        free(s);
        return NULL;
    }
    double ww = (double)(tn_map_width(s->map) * tn_map_tile_width(s->map));
    double wh = (double)(tn_map_height(s->map) * tn_map_tile_height(s->map));
    tn_bp_def d = tn_bp_def_default();
    d.kind = TN_BP_GRID;
    d.capacity = MAX_MARBLES;
    d.cell_size = CELL;
    d.world = (tn_box){0.0, 0.0, ww, wh};
    if (tn_bp_create(&d, &s->bp) != TN_OK) {
        destroy(s);
        return NULL;
    }
    s->params = tn_marbles_def_default();
    s->params.world = d.world;
    s->params.map = s->map;
    s->params.restitution = 0.9;
    /* the cue marble near the left, the others racked in rows (random sizes) */
    tn_rng rng = tn_rng_seed(app->seed);
    double cx = ww * 0.25, cy = wh * 0.5;
    tn_cell cc;
    if (tn_map_cell_at_px(s->map, (float)cx, (float)cy, &cc) &&
        !tn_map_passable(s->map, cc.x, cc.y)) {
        cc = vw_nearest_passable(s->map, cc.x, cc.y);
        tn_vec2 p = tn_map_cell_center_px(s->map, cc.x, cc.y);
        cx = (double)p.x;
        cy = (double)p.y;
    }
    double r0 = fmin(14.0, 0.45 * (double)tn_map_tile_width(s->map));
    if (fits(s, cx, cy, r0)) {
        s->m[s->n] = (tn_marble){cx, cy, 0.0, 0.0, r0};
        s->col[s->n++] = VW_COL_CUE;
    }
    static const uint32_t palette[] = {0xD03030u, 0x30A040u, 0x3060D0u,
                                       0xE0A020u, 0x9040C0u, 0x20A0A0u};
    for (int32_t tries = 0; tries < 4000 && s->n < 24; tries++) {
        double r = r0 * (0.6 + 0.5 * (double)tn_rng_float(&rng));
        double x = ww * (0.45 + 0.45 * (double)tn_rng_float(&rng));
        double y = wh * (0.1 + 0.8 * (double)tn_rng_float(&rng));
        if (!fits(s, x, y, r))
            continue;
        s->m[s->n] = (tn_marble){x, y, 0.0, 0.0, r};
        s->col[s->n] = palette[s->n % 6];
        s->n++;
    }
    for (int32_t i = 0; i < s->n; i++) {
        tn_box b = {s->m[i].x - s->m[i].r, s->m[i].y - s->m[i].r, s->m[i].x + s->m[i].r,
                    s->m[i].y + s->m[i].r};
        if (tn_bp_insert(s->bp, b, (uint32_t)i, &s->ids[i]) != TN_OK) {
            destroy(s);
            return NULL;
        }
    }
    s->drag = -1;
    s->grid = true;
    s->view = vw_view_fit(app, s->map, VW_AREA);
    return s;
}

static void event(void *st, vw_app *app, const SDL_Event *e)
{
    marbles *s = st;
    s->view = vw_view_fit(app, s->map, VW_AREA);
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_g)
        s->grid = !s->grid;
    if (e->type == SDL_MOUSEMOTION)
        s->mouse = (tn_vec2){(float)e->motion.x, (float)e->motion.y};
    if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) {
        s->mouse = (tn_vec2){(float)e->button.x, (float)e->button.y};
        tn_vec2 w = vw_to_world(&s->view, s->mouse.x, s->mouse.y);
        for (int32_t i = 0; i < s->n; i++) {
            double dx = s->m[i].x - (double)w.x, dy = s->m[i].y - (double)w.y;
            if (dx * dx + dy * dy <= s->m[i].r * s->m[i].r * 1.5) {
                s->drag = i;
                break;
            }
        }
    }
    if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_LEFT && s->drag >= 0) {
        tn_vec2 w = vw_to_world(&s->view, (float)e->button.x, (float)e->button.y);
        tn_marble *m = &s->m[s->drag];
        /* slingshot: velocity from the release point back through the marble, capped */
        double vx = (m->x - (double)w.x) * 0.12, vy = (m->y - (double)w.y) * 0.12,
               sp = sqrt(vx * vx + vy * vy);
        if (sp > 24.0) {
            vx *= 24.0 / sp;
            vy *= 24.0 / sp;
        }
        m->vx = vx;
        m->vy = vy;
        s->throws++;
        printf("marbles: threw marble %d at (%.2f, %.2f) px/step\n", (int)s->drag, vx, vy);
        s->drag = -1;
        (void)app;
    }
}

static void step(void *st, vw_app *app, const uint8_t *keys)
{
    (void)keys;
    marbles *s = st;
    tn_status r =
        tn_marbles_step(s->m, s->n, s->bp, s->ids, &s->params, s->pairs, PAIR_CAP, &s->stats);
    for (int32_t i = 0; i < s->n; i++) { /* rolling friction, as the book's marbles */
        s->m[i].vx *= 0.99;
        s->m[i].vy *= 0.99;
        if (fabs(s->m[i].vx) < 0.01 && fabs(s->m[i].vy) < 0.01)
            s->m[i].vx = s->m[i].vy = 0.0;
    }
    snprintf(app->status, sizeof app->status,
             "%d marbles, %lld broad-phase pairs, %lld contacts, energy %.1f%s", (int)s->n,
             (long long)s->stats.pairs, (long long)s->stats.contacts, tn_marbles_energy(s->m, s->n),
             r == TN_OK ? "" : " (step failed)");
}

static void draw(void *st, vw_app *app, tn_canvas *c)
{
    (void)app;
    marbles *s = st;
    s->view = vw_view_fit(app, s->map, VW_AREA);
    const vw_view *v = &s->view;
    vw_draw_map(c, v, s->map, app->user_imgs);
    if (s->grid) { /* the grid's cells, shaded by the marbles filed under them */
        tn_box boxes[MAX_MARBLES];
        for (int32_t i = 0; i < s->n; i++)
            boxes[i] = (tn_box){s->m[i].x - s->m[i].r, s->m[i].y - s->m[i].r, s->m[i].x + s->m[i].r,
                                s->m[i].y + s->m[i].r};
        if (tn_draw_grid_cells(c, &v->dv, boxes, s->n, CELL, 0.0, 0.0, vw_rgba(0x4080FFu, 50),
                               vw_rgba(0x2040A0u, 0)) != TN_OK)
            return;
    }
    for (int32_t i = 0; i < s->n; i++) {
        tn_vec2 p = vw_to_screen(v, (tn_vec2){(float)s->m[i].x, (float)s->m[i].y});
        float r = vw_visible_radius(v, (float)s->m[i].r, 2.5f) * v->scale;
        tn_canvas_circle(c, p.x, p.y, r, vw_rgb(s->col[i]), true);
        tn_canvas_circle(c, p.x, p.y, r, vw_rgb(0x202020u), false);
    }
    if (s->drag >= 0) {
        tn_vec2 p = vw_to_screen(v, (tn_vec2){(float)s->m[s->drag].x, (float)s->m[s->drag].y});
        vw_thick_line(c, p.x, p.y, s->mouse.x, s->mouse.y, vw_rgb(0x202020u));
        tn_canvas_arrow(c, p.x, p.y, 2.0f * p.x - s->mouse.x, 2.0f * p.y - s->mouse.y, 10.0f,
                        vw_rgb(0xF04040u));
    }
}

static void layout(void *st, vw_app *app)
{
    (void)app;
    marbles *s = st;
    vw_print_view("view", &s->view);
    if (s->n > 0) {
        tn_vec2 p = vw_to_screen(&s->view, (tn_vec2){(float)s->m[0].x, (float)s->m[0].y});
        printf("cue %.0f %.0f %.0f\n", (double)p.x, (double)p.y, s->m[0].r * (double)s->view.scale);
    }
}

const vw_mode vw_mode_marbles = {"marbles",
                                 "Marbles in the spatial grid (drag and release)",
                                 "Press on a marble, drag back and release: it flies the other\n"
                                 "way, faster the further you dragged. White is the cue marble.\n"
                                 "Blue lines: the broad-phase grid (64 px cells); shaded cells\n"
                                 "hold a marble. G toggles the grid.",
                                 create,
                                 destroy,
                                 event,
                                 step,
                                 draw,
                                 layout};
