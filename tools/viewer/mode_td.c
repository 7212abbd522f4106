/* Mode "td": tower defense (HowToRTS, the tower-defense article). Creeps spawn in waves and
 * follow one flow field to the exit (tn_field with exact line of sight; agents of a tn_crowd
 * flocking with separation, cohesion and alignment). Click a floor cell to place a tower: the
 * placement is refused when it would cut a spawn or a creep off from the exit
 * (tn_field_would_wall_off); otherwise the
 * cell becomes a wall, the tower adds danger to an influence map (tn_influence, the field's
 * extra cost) and the field is updated incrementally (tn_field_update), so creeps both route
 * around the tower and keep away from its range. Overlays: flow arrows, the cells that see
 * the exit, the influence heat map, and the towers' combined range rings. */
#include "scenes/td.h"
#include "viewer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CREEPS 256
#define MAX_TOWERS 64
#define RANGE_CELLS 3.5f
#define SPAWN_EVERY 45

static const char *const td_rows[] = {
    "########################################",  "#......................................#",
    "#......................................#",  "#.....#######..............#######.....#",
    "#...........#..............#...........#",  "#...........#..............#...........#",
    ".........................................", "#...........#..............#...........#",
    "#...........#..............#...........#",  "#.....#######..............#######.....#",
    "#......................................#",  "#......................................#",
    "########################################",
};
#define TD_H ((int32_t)(sizeof td_rows / sizeof td_rows[0]))

typedef struct tower {
    tn_cell cell;
    int32_t cooldown;
    tn_vec2 zap; /* last target, pixels; zap_t frames left to draw */
    int32_t zap_t;
} tower;

typedef struct td {
    tn_map *map;
    int32_t w, h, tw, th, walls_layer;
    uint32_t wall_gid;
    tn_cell spawns[8];
    tn_cell guard[8 + MAX_CREEPS]; /* cells that must keep a path to the exit: spawns, creeps */
    int32_t nspawns;
    tn_cell exit;
    tn_influence *inf;
    tn_tileset_images *imgs; /* the default map's art (a loaded map's is the app's) */
    tn_field *field;
    tn_vec2 *flow_dir;
    uint8_t *flow_los;
    tn_crowd *crowd;
    tn_td_creep creeps[MAX_CREEPS];
    int32_t ncreeps;
    tower towers[MAX_TOWERS];
    int32_t ntowers;
    tn_rng rng;
    int32_t spawned, arrived, killed, refused;
    int32_t last_touched;
    bool show_flow, show_los, show_inf, show_rings;
    char note[128];
    vw_view view;
} td;

static tn_map *load_default(void)
{
    static const char *const candidates[] = {"data/maps/td.tmj", TN_DATA_DIR "/maps/td.tmj"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        tn_map *m = NULL;
        if (tn_map_load(candidates[i], NULL, &m, NULL) == TN_OK)
            return m;
    }
    return vw_map_from_ascii(td_rows, TD_H, 32);
}

static bool find_points(td *t)
{
    tn_td_find_points(t->map, t->spawns, 8, &t->nspawns, &t->exit);
    if (t->nspawns == 0 || t->exit.x < 0) { /* no objects: left edge to right edge */
        t->nspawns = 1;
        t->spawns[0] = vw_nearest_passable(t->map, 0, t->h / 2);
        t->exit = vw_nearest_passable(t->map, t->w - 1, t->h / 2);
    }
    if (t->spawns[0].x < 0 || t->exit.x < 0)
        return false;
    return tn_td_wall_tile(t->map, &t->walls_layer, &t->wall_gid) == TN_OK;
}

static tn_status refresh_flow(td *t)
{
    tn_flow_view v;
    tn_status st = tn_flow_view_from_field(t->field, t->map, t->exit, t->flow_dir, t->flow_los,
                                           t->w * t->h, &v);
    return st == TN_OK ? tn_crowd_set_flow(t->crowd, 0, &v) : st;
}

static void destroy(void *st)
{
    td *t = st;
    tn_crowd_destroy(t->crowd);
    tn_field_destroy(t->field);
    tn_influence_destroy(t->inf);
    tn_tileset_images_free(t->imgs);
    free(t->flow_dir);
    free(t->flow_los);
    tn_map_destroy(t->map);
    free(t);
}

static void *create(vw_app *app)
{
    td *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->map = app->user_map ? vw_clone_user_map(app) : load_default();
    if (!t->map) {
        free(t);
        return NULL;
    }
    t->w = tn_map_width(t->map);
    t->h = tn_map_height(t->map);
    t->tw = tn_map_tile_width(t->map);
    t->th = tn_map_tile_height(t->map);
    t->rng = tn_rng_seed(app->seed);
    size_t cells = (size_t)t->w * (size_t)t->h;
    t->flow_dir = calloc(cells, sizeof *t->flow_dir);
    t->flow_los = calloc(cells, 1);
    tn_influence_def id = tn_influence_def_default();
    id.width = t->w;
    id.height = t->h;
    if (!find_points(t) || !t->flow_dir || !t->flow_los ||
        tn_influence_create(&id, &t->inf) != TN_OK) {
        destroy(t);
        return NULL;
    }
    tn_field_def fd = tn_field_def_default();
    fd.map = t->map;
    fd.los = TN_LOS_EXACT;
    fd.extra = tn_influence_data(t->inf);
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = t->map;
    cd.capacity = MAX_CREEPS;
    cd.neighbour_radius = (float)t->tw * 0.75f;
    cd.seed = app->seed;
    cd.max_flows = 1;
    if (tn_field_create(&fd, &t->field) != TN_OK ||
        tn_field_build(t->field, &t->exit, 1) != TN_OK ||
        tn_crowd_create(&cd, &t->crowd) != TN_OK || refresh_flow(t) != TN_OK) {
        destroy(t);
        return NULL;
    }
    if (!app->user_map && tn_map_tileset_count(t->map) > 0 &&
        tn_tileset_images_load(t->map, NULL, &t->imgs, NULL, 0) < 0)
        t->imgs = NULL; /* the palette then */
    t->show_flow = t->show_los = t->show_rings = true;
    t->view = vw_view_fit(app, t->map, VW_AREA);
    return t;
}

static bool is_point(const td *t, tn_cell c)
{
    if (c.x == t->exit.x && c.y == t->exit.y)
        return true;
    for (int32_t i = 0; i < t->nspawns; i++)
        if (c.x == t->spawns[i].x && c.y == t->spawns[i].y)
            return true;
    return false;
}

static void place_tower(td *t, tn_cell c)
{
    if (t->ntowers >= MAX_TOWERS || !tn_map_passable(t->map, c.x, c.y) || is_point(t, c)) {
        snprintf(t->note, sizeof t->note, "(%d, %d): not a free floor cell", (int)c.x, (int)c.y);
        return;
    }
    /* a creep standing on the cell would be inside the wall: wait until it leaves */
    tn_vec2 cc = tn_map_cell_center_px(t->map, c.x, c.y);
    for (int32_t i = 0; i < t->ncreeps; i++) {
        tn_agent_state s;
        if (tn_crowd_get(t->crowd, t->creeps[i].id, &s) == TN_OK &&
            fabsf(s.pos.x - cc.x) < (float)t->tw * 0.5f + s.radius &&
            fabsf(s.pos.y - cc.y) < (float)t->th * 0.5f + s.radius) {
            snprintf(t->note, sizeof t->note, "(%d, %d) is occupied by a creep", (int)c.x,
                     (int)c.y);
            return;
        }
    }
    /* refused when it would cut the exit off from a spawn or from any creep (a creep left in
     * a pocket without a way out would be stranded there) */
    int32_t nguard =
        tn_td_guard_cells(t->map, t->crowd, t->spawns, t->nspawns, t->creeps, t->ncreeps, t->guard);
    bool cut = false;
    if (tn_field_would_wall_off(t->field, &c, 1, t->guard, nguard, &cut) != TN_OK || cut) {
        t->refused++;
        snprintf(t->note, sizeof t->note,
                 "refused (%d, %d): it would cut a spawn or a creep off from the exit", (int)c.x,
                 (int)c.y);
        printf("td: refused (%d, %d): would cut a spawn or a creep off from the exit\n", (int)c.x,
               (int)c.y);
        return;
    }
    if (tn_map_set(t->map, t->walls_layer, c.x, c.y, t->wall_gid) != TN_OK ||
        tn_influence_add(t->inf, (float)c.x + 0.5f, (float)c.y + 0.5f, RANGE_CELLS, 4.0f,
                         TN_FALLOFF_LINEAR) != TN_OK)
        return;
    tn_rect dirty = tn_influence_take_dirty(t->inf);
    int32_t touched = 0;
    if (tn_field_update(t->field, &dirty, &touched) != TN_OK || refresh_flow(t) != TN_OK) {
        snprintf(t->note, sizeof t->note, "field update failed");
        return;
    }
    t->last_touched = touched;
    t->towers[t->ntowers++] = (tower){c, 0, {0.0f, 0.0f}, 0};
    snprintf(t->note, sizeof t->note, "tower at (%d, %d): field update touched %d cells", (int)c.x,
             (int)c.y, (int)touched);
    printf("td: tower at (%d, %d), %d cells updated\n", (int)c.x, (int)c.y, (int)touched);
}

static void event(void *st, vw_app *app, const SDL_Event *e)
{
    (void)app;
    td *t = st;
    t->view = vw_view_fit(app, t->map, VW_AREA);
    if (e->type == SDL_KEYDOWN) {
        switch (e->key.keysym.sym) {
        case SDLK_f: t->show_flow = !t->show_flow; break;
        case SDLK_l: t->show_los = !t->show_los; break;
        case SDLK_i: t->show_inf = !t->show_inf; break;
        case SDLK_r: t->show_rings = !t->show_rings; break;
        default: break;
        }
    }
    if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) {
        tn_cell c;
        if (vw_cell_at(&t->view, t->map, (float)e->button.x, (float)e->button.y, &c))
            place_tower(t, c);
    }
}

static void spawn(td *t)
{
    if (t->ncreeps >= MAX_CREEPS)
        return;
    tn_cell s = t->spawns[(uint32_t)t->spawned % (uint32_t)t->nspawns];
    float radius = 0.22f * (float)(t->tw < t->th ? t->tw : t->th);
    tn_agent_def a = tn_td_creep_def(t->map, s, radius, 3.0f, &t->rng);
    tn_agent_id id;
    if (tn_crowd_add(t->crowd, &a, &id) == TN_OK) {
        t->creeps[t->ncreeps++] = (tn_td_creep){id, 4};
        t->spawned++;
    }
}

static void remove_creep(td *t, int32_t i)
{
    if (tn_crowd_remove(t->crowd, t->creeps[i].id) != TN_OK)
        return;
    t->creeps[i] = t->creeps[--t->ncreeps];
}

static void step(void *st, vw_app *app, const uint8_t *keys)
{
    (void)keys;
    td *t = st;
    /* waves: 8 creeps 45 steps apart, then a pause of 4 seconds */
    uint64_t phase = app->step % (8 * SPAWN_EVERY + 240);
    if (phase < 8 * SPAWN_EVERY && phase % SPAWN_EVERY == 0)
        spawn(t);
    if (tn_crowd_step(t->crowd) != TN_OK)
        return;
    for (int32_t i = t->ncreeps - 1; i >= 0; i--) {
        tn_agent_state s;
        if (tn_crowd_get(t->crowd, t->creeps[i].id, &s) == TN_OK && s.arrived) {
            remove_creep(t, i);
            t->arrived++;
        }
    }
    /* towers zap the nearest creep in range every 30 steps */
    float range = RANGE_CELLS * (float)t->tw;
    for (int32_t k = 0; k < t->ntowers; k++) {
        tower *tw = &t->towers[k];
        if (tw->zap_t > 0)
            tw->zap_t--;
        if (tw->cooldown > 0) {
            tw->cooldown--;
            continue;
        }
        tn_vec2 c = tn_map_cell_center_px(t->map, tw->cell.x, tw->cell.y);
        int32_t best = -1;
        float best_d = range * range;
        tn_vec2 best_p = {0.0f, 0.0f};
        for (int32_t i = 0; i < t->ncreeps; i++) {
            tn_agent_state s;
            if (tn_crowd_get(t->crowd, t->creeps[i].id, &s) != TN_OK)
                continue;
            float dx = s.pos.x - c.x, dy = s.pos.y - c.y, d2 = dx * dx + dy * dy;
            if (d2 <= best_d) {
                best_d = d2;
                best = i;
                best_p = s.pos;
            }
        }
        if (best < 0)
            continue;
        tw->cooldown = 30;
        tw->zap = best_p;
        tw->zap_t = 6;
        if (--t->creeps[best].hp <= 0) {
            remove_creep(t, best);
            t->killed++;
        }
    }
    snprintf(app->status, sizeof app->status,
             "creeps %d (spawned %d, arrived %d, stopped %d), towers %d, refused %d  %s",
             (int)t->ncreeps, (int)t->spawned, (int)t->arrived, (int)t->killed, (int)t->ntowers,
             (int)t->refused, t->note);
}

/* The union of the towers' range discs (HowToRTS): filled once, overlaps not darker, with one
 * outline around the whole covered area. */
static void draw_rings(td *t, tn_canvas *c)
{
    tn_vec2 centres[MAX_TOWERS];
    for (int32_t k = 0; k < t->ntowers; k++)
        centres[k] = tn_map_cell_center_px(t->map, t->towers[k].cell.x, t->towers[k].cell.y);
    if (tn_draw_range_rings(c, &t->view.dv, centres, t->ntowers, RANGE_CELLS * (float)t->tw,
                            vw_rgba(0xE03030u, 60), TN_DRAW_RINGS_FILL) != TN_OK)
        fprintf(stderr, "tilenav-view: cannot draw the range rings\n");
}

static void draw(void *st, vw_app *app, tn_canvas *c)
{
    td *t = st;
    t->view = vw_view_fit(app, t->map, VW_AREA);
    const vw_view *v = &t->view;
    vw_draw_map(c, v, t->map, app->user_map ? app->user_imgs : t->imgs);
    if (t->show_inf &&
        tn_draw_heat_cells(c, &v->dv, tn_influence_data(t->inf), t->w, t->h, 8.0f, 120) != TN_OK)
        return;
    if (t->show_los && tn_draw_los(c, &v->dv, t->field, vw_rgba(0xFFF080u, 90)) != TN_OK)
        return;
    if (t->show_flow) {
        tn_draw_field_opts o = tn_draw_field_opts_default();
        o.heat_alpha = 0;
        o.goals = false;
        o.unreachable.a = 0;
        o.arrow_color = vw_rgba(0x202830u, 140);
        if (tn_draw_field(c, &v->dv, t->field, t->map, &o) != TN_OK)
            return;
    }
    if (t->show_rings)
        draw_rings(t, c);
    for (int32_t i = 0; i < t->nspawns; i++)
        vw_fill_cell(c, v, t->spawns[i], 2, vw_rgba(0x20A040u, 200));
    vw_fill_cell(c, v, t->exit, 2, vw_rgba(0x2060E0u, 200));
    for (int32_t k = 0; k < t->ntowers; k++) {
        vw_fill_cell(c, v, t->towers[k].cell, 2, vw_rgb(0xB03030u));
        if (t->towers[k].zap_t > 0) {
            tn_vec2 a = vw_cell_center(v, t->towers[k].cell), b = vw_to_screen(v, t->towers[k].zap);
            tn_canvas_line(c, a.x, a.y, b.x, b.y, vw_rgb(0xFFFF40u));
        }
    }
    if (tn_draw_crowd(c, &v->dv, t->crowd, vw_rgb(0x7030A0u), vw_rgb(0xFFFFFFu)) != TN_OK)
        return;
}

static void layout(void *st, vw_app *app)
{
    (void)app;
    td *t = st;
    vw_print_view("view", &t->view);
    printf("exit %d %d\n", (int)t->exit.x, (int)t->exit.y);
}

const vw_mode vw_mode_td = {"td",
                            "Tower defense: flow field, LOS, towers",
                            "Creeps (purple) spawn in waves at green and flow to blue.\n"
                            "Left click a floor cell: place a tower (refused when it\n"
                            "would wall off the exit); the field updates incrementally\n"
                            "and creeps avoid tower ranges (influence map as extra cost).\n"
                            "F flow arrows, L cells that see the exit, I influence,\n"
                            "R the towers' combined range rings.",
                            create,
                            destroy,
                            event,
                            step,
                            draw,
                            layout};
