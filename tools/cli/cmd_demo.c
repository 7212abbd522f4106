/* tilenav demo: the main job, on the bundled map (data/maps/td.tmj).
 *
 * A tower-defense run: creeps spawn in waves at the map's spawn points and follow one flow
 * field (with line of sight) to the exit, flocking (separation, cohesion, alignment) in a crowd
 * that never lets them into a wall. Towers are placed on a script: each placement is first
 * checked with the wall-off query (a tower that would cut a spawn or a creep off from the exit is
 * refused and reported), then the field is updated incrementally. Towers fire projectiles;
 * projectiles and creeps meet through the broad phase. The run is drawn into an animated GIF and a
 * PNG contact sheet, and a summary is printed. Then a short tile-collision walk-through (book ch.
 * 3). */
#include "cli.h"
#include "datadir.h"
#include "picture.h"
#include "render/draw.h"
#include "render/gif.h"
#include "scenes/td.h"
#include "tilenav/broadphase.h"
#include "tilenav/clearance.h"
#include "tilenav/crowd.h"
#include "tilenav/field.h"
#include "tilenav/io.h"
#include "tilenav/path.h"
#include "tilenav/rng.h"
#include "tilenav/search.h"
#include "tilenav/tile_collision.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char tn_cmd_demo_summary[] =
    "tower-defense demo on the bundled map (the README's first command)";

#define MAX_CREEPS 512
#define MAX_SHOTS 512
#define MAX_TOWERS 32
#define SCALE 16      /* pixels per cell in the pictures */
#define FRAME_EVERY 8 /* steps between GIF frames */
#define SHEET_PANELS 6

static void help(void)
{
    printf(
        "usage: tilenav demo [--out DIR] [--steps N] [--seed K] [--map FILE] [--quiet]\n\n"
        "Tower defense on the bundled map (maps/td.tmj): creeps spawn in waves and follow a\n"
        "flow field with line of sight to the exit, flocking, never entering a wall; towers are\n"
        "placed on a script (a placement that would cut a spawn or a creep off from the exit is\n"
        "refused) and the field is updated incrementally; towers' projectiles hit creeps\n"
        "through the broad phase.\n"
        "Writes DIR/demo.gif (the run) and DIR/demo-sheet.png (six moments, with the flow\n"
        "field), both drawn with the map's tileset art, prints a summary, then a short\n"
        "tile-collision walk-through, and DIR/demo-siege.png (a 2x2 unit's path beside a\n"
        "creep's on weighted tiles).\n\n"
        "Options:\n"
        "  --out DIR    output folder, created if missing (default ./demo-out)\n"
        "  --steps N    simulation steps of 1/60 s, 60..100000 (default 1500)\n"
        "  --seed K     random seed (default 1): spawn jitter\n"
        "  --map FILE   another map with points named spawn1 (spawn2...) and exit, and\n"
        "               rectangles named tower_slot\n"
        "  --quiet      no progress bar\n"
        "  -h, --help   this text\n\n"
        "The bundled map is looked for in $TILENAV_DATA_DIR/maps, then in ../share/tilenav/maps\n"
        "beside the tilenav executable (an installed tilenav), then in the source tree's\n"
        "data/maps (" TN_DATA_DIR "/maps).\n\n"
        "Exit status: 0 ok, 1 the simulation broke an invariant (a creep inside a wall),\n"
        "2 bad command line, 3 the map cannot be read or lacks spawn/exit points,\n"
        "4 an output file cannot be written, 5 out of memory.\n");
}

typedef struct shot {
    double x, y, vx, vy;
    int32_t ttl;
} shot;

typedef struct tower {
    tn_cell cell; /* top-left of its 2x2 cells */
    int32_t cooldown;
} tower;

typedef struct planned {
    int32_t step;
    tn_cell cell;
} planned;

typedef struct demo {
    tn_map *map;
    int32_t w, h, tw, th, walls_layer;
    uint32_t wall_gid;
    tn_cell spawns[8];
    int32_t nspawns;
    tn_cell exit;
    tn_field *field;
    tn_field *scratch; /* for timing full rebuilds beside incremental updates */
    tn_vec2 *flow_dir;
    uint8_t *flow_los;
    tn_crowd *crowd;
    tn_bp *bp;
    tn_bp_pair *pairs;
    tn_td_creep creeps[MAX_CREEPS];
    int32_t ncreeps;
    shot shots[MAX_SHOTS];
    int32_t nshots;
    tower towers[MAX_TOWERS];
    int32_t ntowers;
    planned plan[MAX_TOWERS];
    int32_t nplan;
    tn_rng rng;
    /* counters */
    int32_t spawned, arrived, killed, shots_fired, refused, delayed;
    tn_cell refused_at;
    tn_cell guard[8 + MAX_CREEPS]; /* cells that must keep a path to the exit: spawns, creeps */
    double field_build_ms, update_ms[MAX_TOWERS], rebuild_ms[MAX_TOWERS];
    int32_t nupdates;
    double crowd_ms, bp_ms, total_ms;
    float max_overlap;
} demo;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int32_t n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- set-up ------------------------------------------------------------------------------ */

static int find_points(demo *d)
{
    tn_td_find_points(d->map, d->spawns, 8, &d->nspawns, &d->exit);
    if (d->nspawns == 0 || d->exit.x < 0) {
        tn_cli_error("demo", "the map needs passable points named spawn1.. and exit");
        return TN_EXIT_INPUT;
    }
    return tn_td_wall_tile(d->map, &d->walls_layer, &d->wall_gid) == TN_OK ? TN_EXIT_OK
                                                                           : TN_EXIT_NOMEM;
}

static bool block_free(const demo *d, tn_cell c)
{
    for (int32_t dy = 0; dy < 2; dy++)
        for (int32_t dx = 0; dx < 2; dx++)
            if (!tn_map_passable(d->map, c.x + dx, c.y + dy))
                return false;
    for (int32_t i = 0; i < d->nspawns; i++)
        if (d->spawns[i].x - c.x >= 0 && d->spawns[i].x - c.x < 2 && d->spawns[i].y - c.y >= 0 &&
            d->spawns[i].y - c.y < 2)
            return false;
    return !(d->exit.x - c.x >= 0 && d->exit.x - c.x < 2 && d->exit.y - c.y >= 0 &&
             d->exit.y - c.y < 2);
}

static void block_cells(tn_cell c, tn_cell out[4])
{
    for (int32_t k = 0; k < 4; k++)
        out[k] = (tn_cell){c.x + (k & 1), c.y + (k >> 1)};
}

/* The script: a tower on each tower_slot (in map order), one every 150 steps from step 120,
 * and at step 540 a probe on the cheapest 2x2 block that would wall off the exit. */
static void make_plan(demo *d)
{
    int32_t step = 120;
    for (int32_t i = 0; i < tn_map_object_count(d->map) && d->nplan < MAX_TOWERS - 1; i++) {
        const tn_map_object *o = tn_map_object_at(d->map, i);
        tn_cell c;
        if (strcmp(o->name, "tower_slot") != 0 ||
            !tn_map_cell_at_px(d->map, o->x + 1, o->y + 1, &c))
            continue;
        d->plan[d->nplan++] = (planned){step, c};
        step += 150;
    }
    /* probe: scan blocks by distance to the exit; the first one that cuts every spawn off */
    tn_cell best = {-1, -1};
    float best_d = INFINITY;
    for (int32_t y = 0; y + 1 < d->h; y++)
        for (int32_t x = 0; x + 1 < d->w; x++) {
            tn_cell c = {x, y}, cells[4];
            float dist = tn_field_distance(d->field, x, y);
            if (!(dist < best_d) || !block_free(d, c))
                continue;
            block_cells(c, cells);
            bool cut = false;
            if (tn_field_would_wall_off(d->field, cells, 4, d->spawns, d->nspawns, &cut) == TN_OK &&
                cut) {
                best = c;
                best_d = dist;
            }
        }
    if (best.x >= 0 && d->nplan < MAX_TOWERS)
        d->plan[d->nplan++] = (planned){540, best};
}

/* Refill the crowd's flow view from the field (after a build or an update). */
static tn_status refresh_flow(demo *d)
{
    tn_flow_view v;
    tn_status st = tn_flow_view_from_field(d->field, d->map, d->exit, d->flow_dir, d->flow_los,
                                           d->w * d->h, &v);
    return st == TN_OK ? tn_crowd_set_flow(d->crowd, 0, &v) : st;
}

static tn_status setup(demo *d, uint64_t seed)
{
    d->w = tn_map_width(d->map);
    d->h = tn_map_height(d->map);
    d->tw = tn_map_tile_width(d->map);
    d->th = tn_map_tile_height(d->map);
    d->rng = tn_rng_seed(seed);
    tn_field_def fd = tn_field_def_default();
    fd.map = d->map;
    fd.los = TN_LOS_EXACT;
    tn_status st = tn_field_create(&fd, &d->field);
    if (st == TN_OK)
        st = tn_field_create(&fd, &d->scratch);
    if (st != TN_OK)
        return st;
    double t0 = tn_cli_now();
    st = tn_field_build(d->field, &d->exit, 1);
    d->field_build_ms = (tn_cli_now() - t0) * 1e3;
    if (st != TN_OK)
        return st;
    size_t cells = (size_t)d->w * (size_t)d->h;
    d->flow_dir = calloc(cells, sizeof *d->flow_dir);
    d->flow_los = calloc(cells, 1);
    d->pairs = calloc(MAX_CREEPS * 16, sizeof *d->pairs);
    if (!d->flow_dir || !d->flow_los || !d->pairs)
        return TN_E_NOMEM;
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = d->map;
    cd.capacity = MAX_CREEPS;
    cd.neighbour_radius = (float)d->tw * 0.75f;
    cd.seed = seed;
    cd.max_flows = 1;
    st = tn_crowd_create(&cd, &d->crowd);
    if (st == TN_OK)
        st = refresh_flow(d);
    if (st != TN_OK)
        return st;
    tn_bp_def bd = tn_bp_def_default();
    bd.kind = TN_BP_GRID;
    bd.capacity = MAX_CREEPS + MAX_SHOTS;
    bd.cell_size = (double)d->tw;
    bd.world = (tn_box){0.0, 0.0, (double)d->w * d->tw, (double)d->h * d->th};
    return tn_bp_create(&bd, &d->bp);
}

static void teardown(demo *d)
{
    tn_bp_destroy(d->bp);
    tn_crowd_destroy(d->crowd);
    tn_field_destroy(d->field);
    tn_field_destroy(d->scratch);
    free(d->flow_dir);
    free(d->flow_los);
    free(d->pairs);
    tn_map_destroy(d->map);
}

/* ---- the simulation ---------------------------------------------------------------------- */

static const float CREEP_RADIUS = 7.0f, SHOT_RADIUS = 3.0f;
static const int32_t CREEP_HP = 3;

static void spawn_creep(demo *d, int32_t which)
{
    if (d->ncreeps >= MAX_CREEPS)
        return;
    tn_agent_def a =
        tn_td_creep_def(d->map, d->spawns[which % d->nspawns], CREEP_RADIUS, 3.5f, &d->rng);
    tn_agent_id id;
    if (tn_crowd_add(d->crowd, &a, &id) == TN_OK) {
        d->creeps[d->ncreeps++] = (tn_td_creep){id, CREEP_HP};
        d->spawned++;
    }
}

static void remove_creep(demo *d, int32_t i)
{
    tn_status st = tn_crowd_remove(d->crowd, d->creeps[i].id);
    (void)st; /* the id came from the crowd: it is live */
    d->creeps[i] = d->creeps[--d->ncreeps];
}

static bool creep_in_block(const demo *d, tn_cell c)
{
    float x0 = (float)(c.x * d->tw), y0 = (float)(c.y * d->th);
    float x1 = x0 + 2.0f * (float)d->tw, y1 = y0 + 2.0f * (float)d->th;
    for (int32_t i = 0; i < d->ncreeps; i++) {
        tn_agent_state s;
        if (tn_crowd_get(d->crowd, d->creeps[i].id, &s) != TN_OK)
            continue;
        float r = s.radius + 2.0f;
        if (s.pos.x + r > x0 && s.pos.x - r < x1 && s.pos.y + r > y0 && s.pos.y - r < y1)
            return true;
    }
    return false;
}

static tn_status place_towers(demo *d, int32_t step)
{
    for (int32_t p = 0; p < d->nplan; p++) {
        planned *pl = &d->plan[p];
        if (pl->step != step)
            continue;
        tn_cell cells[4];
        block_cells(pl->cell, cells);
        bool cut = false;
        if (!block_free(d, pl->cell))
            continue;
        if (creep_in_block(d, pl->cell)) { /* occupied: try again a little later */
            pl->step += 10;
            d->delayed++;
            continue;
        }
        /* refused when it would cut the exit off from a spawn or from any creep on the map
         * (a creep left in a pocket without a way out would be stranded there) */
        int32_t nguard = tn_td_guard_cells(d->map, d->crowd, d->spawns, d->nspawns, d->creeps,
                                           d->ncreeps, d->guard);
        tn_status st = tn_field_would_wall_off(d->field, cells, 4, d->guard, nguard, &cut);
        if (st != TN_OK)
            return st;
        if (cut) {
            d->refused++;
            d->refused_at = pl->cell;
            continue;
        }
        for (int32_t k = 0; k < 4; k++) {
            st = tn_map_set(d->map, d->walls_layer, cells[k].x, cells[k].y, d->wall_gid);
            if (st != TN_OK)
                return st;
        }
        if (d->ntowers < MAX_TOWERS)
            d->towers[d->ntowers++] = (tower){pl->cell, 0};
        double t0 = tn_cli_now();
        st = tn_field_update(d->field, NULL, NULL);
        double t1 = tn_cli_now();
        if (st == TN_OK)
            st = tn_field_build(d->scratch, &d->exit, 1);
        double t2 = tn_cli_now();
        if (st != TN_OK)
            return st;
        d->update_ms[d->nupdates] = (t1 - t0) * 1e3;
        d->rebuild_ms[d->nupdates++] = (t2 - t1) * 1e3;
        st = refresh_flow(d);
        if (st != TN_OK)
            return st;
    }
    return TN_OK;
}

typedef struct nearest_ctx {
    const demo *d;
    double x, y, best;
    int32_t who;
} nearest_ctx;

static bool nearest_creep(void *ctx, tn_bp_id id, uint32_t user)
{
    (void)id;
    nearest_ctx *n = ctx;
    if (user >= MAX_CREEPS)
        return true;
    tn_agent_state s;
    if (tn_crowd_get(n->d->crowd, n->d->creeps[user].id, &s) != TN_OK)
        return true;
    double dx = (double)s.pos.x - n->x, dy = (double)s.pos.y - n->y, dd = dx * dx + dy * dy;
    if (dd < n->best) {
        n->best = dd;
        n->who = (int32_t)user;
    }
    return true;
}

static tn_status combat(demo *d)
{
    /* the broad phase holds this step's creeps (user = creep index) and shots (MAX_CREEPS + i) */
    tn_bp_clear(d->bp);
    tn_status st = TN_OK;
    for (int32_t i = 0; i < d->ncreeps && st == TN_OK; i++) {
        tn_agent_state s;
        st = tn_crowd_get(d->crowd, d->creeps[i].id, &s);
        tn_bp_id id;
        if (st == TN_OK)
            st = tn_bp_insert(d->bp,
                              (tn_box){(double)(s.pos.x - s.radius), (double)(s.pos.y - s.radius),
                                       (double)(s.pos.x + s.radius), (double)(s.pos.y + s.radius)},
                              (uint32_t)i, &id);
    }
    for (int32_t i = 0; i < d->nshots && st == TN_OK; i++) {
        const shot *s = &d->shots[i];
        tn_bp_id id;
        const double r = (double)SHOT_RADIUS;
        st = tn_bp_insert(d->bp, (tn_box){s->x - r, s->y - r, s->x + r, s->y + r},
                          (uint32_t)(MAX_CREEPS + i), &id);
    }
    if (st == TN_OK)
        st = tn_bp_update(d->bp, NULL);
    int64_t np = 0;
    if (st == TN_OK)
        st = tn_bp_pairs_buf(d->bp, d->pairs, MAX_CREEPS * 16, &np);
    if (st != TN_OK)
        return st;
    /* hits: a shot overlapping a creep's circle damages it once and disappears */
    for (int64_t k = 0; k < np; k++) {
        uint32_t a = d->pairs[k].user_a, b = d->pairs[k].user_b;
        if ((a < MAX_CREEPS) == (b < MAX_CREEPS))
            continue;
        uint32_t c = a < MAX_CREEPS ? a : b, s = (a < MAX_CREEPS ? b : a) - MAX_CREEPS;
        shot *sh = &d->shots[s];
        tn_agent_state cs;
        if (sh->ttl <= 0 || d->creeps[c].hp <= 0 ||
            tn_crowd_get(d->crowd, d->creeps[c].id, &cs) != TN_OK)
            continue;
        double dx = sh->x - (double)cs.pos.x, dy = sh->y - (double)cs.pos.y;
        double rr = (double)(cs.radius + SHOT_RADIUS);
        if (dx * dx + dy * dy < rr * rr) {
            sh->ttl = 0;
            d->creeps[c].hp--;
        }
    }
    /* towers fire at the nearest creep in range */
    const double range = 3.5 * d->tw, speed = 6.0 * d->tw / 60.0;
    for (int32_t t = 0; t < d->ntowers; t++) {
        tower *tw = &d->towers[t];
        if (tw->cooldown > 0) {
            tw->cooldown--;
            continue;
        }
        nearest_ctx n = {d, (double)((tw->cell.x + 1) * d->tw), (double)((tw->cell.y + 1) * d->th),
                         range * range, -1};
        st = tn_bp_query_circle(d->bp, n.x, n.y, range, nearest_creep, &n);
        if (st != TN_OK)
            return st;
        if (n.who < 0 || d->nshots >= MAX_SHOTS)
            continue;
        tn_agent_state cs;
        if (tn_crowd_get(d->crowd, d->creeps[n.who].id, &cs) != TN_OK)
            continue;
        /* aim at where the creep will be when the shot arrives (pursuit) */
        double dx = (double)cs.pos.x - n.x, dy = (double)cs.pos.y - n.y;
        double t_hit = sqrt(dx * dx + dy * dy) / speed;
        dx += (double)cs.vel.x / 60.0 * t_hit;
        dy += (double)cs.vel.y / 60.0 * t_hit;
        double len = sqrt(dx * dx + dy * dy);
        if (len < 1e-9)
            continue;
        d->shots[d->nshots++] = (shot){n.x, n.y, dx / len * speed, dy / len * speed, 40};
        d->shots_fired++;
        tw->cooldown = 24;
    }
    /* move shots (they fly over walls, as tower-defense shots do) */
    for (int32_t i = 0; i < d->nshots;) {
        shot *s = &d->shots[i];
        s->x += s->vx;
        s->y += s->vy;
        s->ttl--;
        if (s->ttl <= 0 || tn_map_index_at_px(d->map, (float)s->x, (float)s->y) < 0)
            *s = d->shots[--d->nshots];
        else
            i++;
    }
    /* dead creeps leave; creeps at the exit arrive */
    for (int32_t i = 0; i < d->ncreeps;) {
        tn_agent_state s;
        if (d->creeps[i].hp <= 0) {
            d->killed++;
            remove_creep(d, i);
        } else if (tn_crowd_get(d->crowd, d->creeps[i].id, &s) == TN_OK && s.arrived) {
            d->arrived++;
            remove_creep(d, i);
        } else {
            i++;
        }
    }
    return TN_OK;
}

/* ---- pictures ---------------------------------------------------------------------------- */

static tn_rgba rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    return (tn_rgba){r, g, b, a};
}

/* One picture of the run through the shared scene layer (render/draw.h): the map with its
 * tileset art, the field's heat map (and arrows on the contact sheet), line of sight, towers with
 * their combined range, spawn and exit points, creeps with headings, shots. */
static void draw(const demo *d, const tn_tileset_images *imgs, tn_canvas *cv, int32_t ox,
                 int32_t oy, bool arrows)
{
    const float s = (float)SCALE;
    tn_draw_view v = tn_draw_view_of(d->map, ox, oy, SCALE);
    (void)tn_draw_map(cv, &v, d->map, imgs, TN_DRAW_MAP_AUTO);
    tn_draw_field_opts fo = tn_draw_field_opts_default();
    fo.heat_alpha = arrows ? 100 : 0;
    fo.arrows = arrows;
    fo.arrow_color = rgba(20, 20, 30, 150);
    fo.goals = false;
    fo.unreachable = rgba(0, 0, 0, 90); /* cells a tower cut off from the exit */
    (void)tn_draw_field(cv, &v, d->field, d->map, &fo);
    (void)tn_draw_los(cv, &v, d->field, rgba(255, 255, 255, 40));
    tn_vec2 centres[MAX_TOWERS];
    for (int32_t t = 0; t < d->ntowers; t++) {
        int32_t px = ox + d->towers[t].cell.x * SCALE, py = oy + d->towers[t].cell.y * SCALE;
        tn_canvas_fill_rect(cv, px + 1, py + 1, 2 * SCALE - 2, 2 * SCALE - 2,
                            rgba(70, 90, 190, 255));
        tn_canvas_fill_rect(cv, px + SCALE / 2, py + SCALE / 2, SCALE, SCALE,
                            rgba(150, 170, 255, 255));
        /* the tower's centre is the shared corner of its 2x2 cells */
        centres[t] =
            tn_map_cell_origin_px(d->map, d->towers[t].cell.x + 1, d->towers[t].cell.y + 1);
    }
    (void)tn_draw_range_rings(cv, &v, centres, d->ntowers, 3.5f * (float)d->tw,
                              rgba(150, 170, 255, 40), TN_DRAW_RINGS_FILL);
    if (d->refused > 0) { /* the refused spot: a red cross */
        float x0 = (float)(ox + d->refused_at.x * SCALE),
              y0 = (float)(oy + d->refused_at.y * SCALE);
        tn_canvas_line(cv, x0, y0, x0 + 2 * s, y0 + 2 * s, rgba(255, 40, 40, 255));
        tn_canvas_line(cv, x0 + 2 * s, y0, x0, y0 + 2 * s, rgba(255, 40, 40, 255));
    }
    for (int32_t i = 0; i < d->nspawns; i++) {
        tn_vec2 c = tn_draw_cell_center(&v, d->spawns[i].x, d->spawns[i].y);
        tn_canvas_circle(cv, c.x, c.y, s * 0.45f, rgba(255, 160, 40, 255), false);
    }
    tn_vec2 e = tn_draw_cell_center(&v, d->exit.x, d->exit.y);
    tn_canvas_circle(cv, e.x, e.y, s * 0.45f, rgba(255, 255, 255, 255), true);
    tn_draw_agent ag[MAX_CREEPS];
    int32_t na = 0;
    for (int32_t i = 0; i < d->ncreeps; i++) {
        tn_agent_state a;
        if (tn_crowd_get(d->crowd, d->creeps[i].id, &a) != TN_OK)
            continue;
        uint8_t shade = (uint8_t)(120 + 45 * d->creeps[i].hp);
        ag[na++] = (tn_draw_agent){a.pos, a.radius, a.heading, rgba(shade, 40, 40, 255)};
    }
    (void)tn_draw_agents(cv, &v, ag, na, rgba(255, 255, 255, 255));
    for (int32_t i = 0; i < d->nshots; i++) {
        tn_vec2 c =
            tn_draw_world_to_canvas(&v, (tn_vec2){(float)d->shots[i].x, (float)d->shots[i].y});
        tn_canvas_circle(cv, c.x, c.y, 1.5f, rgba(255, 240, 90, 255), true);
    }
}

/* A label in the top-left corner of a contact-sheet panel, on a dark band. */
static void label(tn_canvas *cv, int32_t ox, int32_t oy, const char *text)
{
    int32_t w = 0, h = 0;
    tn_draw_text_size(text, 2, &w, &h);
    if (w == 0)
        return;
    tn_canvas_fill_rect(cv, ox, oy, w + 12, h + 10, rgba(0, 0, 0, 150));
    (void)tn_draw_text(cv, ox + 6, oy + 5, text, 2, rgba(255, 255, 255, 255));
}

static void progress(int64_t step, int64_t steps, bool show)
{
    if (!show || (step % 25 != 0 && step != steps))
        return;
    int filled = (int)(40 * step / steps);
    fprintf(stderr, "\r  [%.*s%*s] %3d%%", filled, "########################################",
            40 - filled, "", (int)(100 * step / steps));
    if (step == steps)
        fputc('\n', stderr);
}

/* ---- tile-collision walk-through (book ch. 3) -------------------------------------------- */

static void walkthrough(const tn_map *m)
{
    int32_t tw = tn_map_tile_width(m), th = tn_map_tile_height(m);
    /* the elf: a sprite of 2x2 tiles whose 20x20 feet do the colliding */
    float fw = 20.0f * (float)tw / 32.0f, fh = 20.0f * (float)th / 32.0f;
    tn_tile_box elf = {0};
    elf.w = 2.0f * (float)tw;
    elf.h = 2.0f * (float)th;
    elf.area_w = fw;
    elf.area_h = fh;
    elf.area_x = (elf.w - fw) * 0.5f;
    elf.area_y = elf.h - fh - 2.0f;
    tn_cell start = {-1, -1};
    for (int32_t i = 0; i < tn_map_width(m) * tn_map_height(m); i++)
        if (tn_map_cell_of_index(m, i, &start) && tn_map_passable(m, start.x, start.y))
            break;
    tn_vec2 c = tn_map_cell_center_px(m, start.x, start.y);
    elf.x = c.x - elf.area_x - fw * 0.5f;
    elf.y = c.y - elf.area_y - fh * 0.5f;
    const float speed = 1.4f * (float)tw; /* faster than a tile per step */
    const tn_vec2 dirs[4] = {{speed, speed * 0.35f},
                             {-speed * 0.35f, speed},
                             {-speed, -speed * 0.35f},
                             {speed * 0.35f, -speed}};
    int d = 0, slides = 0, turns = 0, steps = 240;
    bool inside = false;
    double travelled = 0.0;
    for (int s = 0; s < steps; s++) {
        tn_tile_box_move mv;
        if (tn_tile_move_box(m, &elf, dirs[d], &mv) != TN_OK)
            break;
        travelled += fabs((double)mv.applied.x) + fabs((double)mv.applied.y);
        if ((mv.flags & TN_TILE_BLOCKED_X) && (mv.flags & TN_TILE_BLOCKED_Y)) {
            d = (d + 1) % 4;
            turns++;
        } else if (mv.flags & (TN_TILE_BLOCKED_X | TN_TILE_BLOCKED_Y)) {
            slides++;
        }
        bool free = false;
        if (tn_tile_box_free(m, &elf, &free) == TN_OK && !free)
            inside = true;
    }
    printf("  elf with %gx%g px feet at %.1f px/step (%.2f tiles): %d steps, %.0f px travelled, "
           "%d wall slides, %d turns, feet inside a wall: %s\n",
           (double)fw, (double)fh, (double)speed, (double)speed / tw, steps, travelled, slides,
           turns, inside ? "YES (bug)" : "never");
}

/* ---- shortest paths (book ch. 6) ------------------------------------------------------- */

/* A* from the first spawn to the exit on the map as the demo left it; weighted JPS on the same
 * query (mud costs 3: jumps stop where the terrain changes); the path compressed and
 * smoothed. */
static int paths(const demo *d)
{
    tn_search_def sd = tn_search_def_default();
    sd.max_cells = d->w * d->h;
    tn_search *s = NULL;
    if (tn_search_create(&sd, &s) != TN_OK)
        return TN_EXIT_NOMEM;
    size_t cap = (size_t)d->w * (size_t)d->h;
    tn_cell *cells = malloc(cap * sizeof *cells), *turns = malloc(cap * sizeof *turns);
    tn_cell *smooth = malloc(cap * sizeof *smooth), *jcells = malloc(cap * sizeof *jcells);
    int rc = TN_EXIT_OK;
    if (!cells || !turns || !smooth || !jcells) {
        rc = TN_EXIT_NOMEM;
        goto done;
    }
    tn_query q;
    memset(&q, 0, sizeof q);
    tn_search_result r;
    tn_status st = TN_OK;
    double us = 0.0;
    for (int k = 0; k < 2; k++) { /* the second query shows the warm context's speed */
        double t0 = tn_cli_now();
        st = tn_search_path(s, d->map, d->spawns[0], d->exit, &q, cells, (int32_t)cap, &r);
        us = (tn_cli_now() - t0) * 1e6;
    }
    if (st != TN_OK) {
        printf("  A* %d,%d -> %d,%d: %s\n", d->spawns[0].x, d->spawns[0].y, d->exit.x, d->exit.y,
               tn_status_str(st));
        goto done;
    }
    printf("  A* (octile, no corner cutting, mud costs 3) %d,%d -> %d,%d: cost %.3f, %d cells, "
           "%lld nodes expanded, %.1f us\n",
           d->spawns[0].x, d->spawns[0].y, d->exit.x, d->exit.y, r.cost, r.length,
           (long long)r.expanded, us);
    q.algo = TN_ALGO_JPS;
    tn_search_result rj;
    for (int k = 0; k < 2; k++) { /* the first query builds the context's JPS cache */
        double t0 = tn_cli_now();
        st = tn_search_path(s, d->map, d->spawns[0], d->exit, &q, jcells, (int32_t)cap, &rj);
        us = (tn_cli_now() - t0) * 1e6;
    }
    if (st != TN_OK)
        printf("  JPS on the same query: %s\n", tn_status_str(st));
    else
        printf("  weighted JPS on the same query (jumps stop where the terrain changes): cost %.3f "
               "(%s), %d cells, %lld nodes expanded, %.1f us\n",
               rj.cost, fabs(rj.cost - r.cost) <= 1e-9 * r.cost ? "same as A*" : "DIFFERENT",
               rj.length, (long long)rj.expanded, us);
    int32_t nturn = 0, nsmooth = 0;
    if (tn_path_compress(cells, r.length, turns, (int32_t)cap, &nturn) == TN_OK &&
        tn_path_smooth(d->map, cells, r.length, smooth, (int32_t)cap, &nsmooth) == TN_OK)
        printf("  the path has %d turning points; smoothed by line of sight: %d waypoints\n", nturn,
               nsmooth);
done:
    free(cells);
    free(turns);
    free(smooth);
    free(jcells);
    tn_search_destroy(s);
    return rc;
}

/* ---- units bigger than one tile ---------------------------------------------------------- */

/* The top-left cell nearest `c` (within size - 1 left and up, then a few rings out) where a
 * unit fits on its size map `walk`; false when none is near. */
static bool fit_near(const tn_map *walk, tn_cell c, int32_t size, tn_cell *out)
{
    for (int32_t r = 0; r <= size + 2; r++)
        for (int32_t dy = -r; dy <= r; dy++)
            for (int32_t dx = -r; dx <= r; dx++)
                if ((dx == -r || dx == r || dy == -r || dy == r) &&
                    tn_map_passable(walk, c.x + dx, c.y + dy)) {
                    *out = (tn_cell){c.x + dx, c.y + dy};
                    return true;
                }
    return false;
}

/* A 2x2 siege engine from the first spawn to the exit on the map as the demo left it: its
 * path on the size-2 map (every step keeps its footprint on free cells; mud under any of its
 * four cells costs 3), against a creep's, drawn with its footprint into OUT/demo-siege.png. */
static int big_unit(const demo *d, const char *out)
{
    const int32_t size = 2;
    tn_clearance_def cd = tn_clearance_def_default();
    cd.map = d->map;
    cd.max_size = size;
    tn_clearance *cl = NULL;
    tn_search_def sd = tn_search_def_default();
    tn_search *s = NULL;
    size_t cap = (size_t)d->w * (size_t)d->h;
    tn_cell *cells = malloc(cap * sizeof *cells);
    int rc = TN_EXIT_OK;
    if (!cells || tn_clearance_create(&cd, &cl) != TN_OK || tn_search_create(&sd, &s) != TN_OK) {
        rc = TN_EXIT_NOMEM;
        goto done;
    }
    const tn_map *walk = tn_clearance_map(cl, size);
    tn_cell a, b;
    if (!fit_near(walk, d->spawns[0], size, &a) || !fit_near(walk, d->exit, size, &b)) {
        printf("  no room for a 2x2 unit near the spawn or the exit\n");
        goto done;
    }
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = TN_ALGO_JPS;
    q.jps_fallback = true;
    tn_search_result one, big;
    tn_status st = tn_search_path(s, d->map, a, b, &q, cells, (int32_t)cap, &one);
    q.size = size;
    q.clearance = cl;
    tn_status sb = tn_search_path(s, d->map, a, b, &q, cells, (int32_t)cap, &big);
    if (sb == TN_NO_PATH) { /* the spawn's room is closed to it: start where it can go furthest */
        printf("  a 2x2 siege engine cannot leave %d,%d: every way out is one cell wide\n", a.x,
               a.y);
        double *dist = malloc(cap * sizeof *dist);
        if (!dist) {
            rc = TN_EXIT_NOMEM;
            goto done;
        }
        if (tn_search_distances(s, walk, &b, 1, &q.moves, NULL, true, dist, (int32_t)cap) ==
            TN_OK) {
            size_t far = (size_t)b.y * (size_t)d->w + (size_t)b.x;
            for (size_t i = 0; i < cap; i++)
                if (isfinite(dist[i]) && dist[i] > dist[far])
                    far = i;
            a = (tn_cell){(int32_t)(far % (size_t)d->w), (int32_t)(far / (size_t)d->w)};
        }
        free(dist);
        q.size = 1;
        q.clearance = NULL;
        st = tn_search_path(s, d->map, a, b, &q, cells, (int32_t)cap, &one);
        q.size = size;
        q.clearance = cl;
        sb = tn_search_path(s, d->map, a, b, &q, cells, (int32_t)cap, &big);
    }
    int32_t narrow = tn_picture_count_too_narrow(d->map, walk, size);
    if (sb != TN_OK || st != TN_OK) {
        printf("  a 2x2 siege engine %d,%d -> %d,%d: %s\n", a.x, a.y, b.x, b.y,
               tn_status_str(sb != TN_OK ? sb : st));
        goto done;
    }
    printf("  a 2x2 siege engine %d,%d -> %d,%d (its top-left cell): %s, cost %.3f, %d cells "
           "(a creep: cost %.3f); %d passable cells are too narrow for it\n",
           a.x, a.y, b.x, b.y, tn_algo_name(big.algo), big.cost, big.length, one.cost, narrow);
    char file[1200];
    snprintf(file, sizeof file, "%s/demo-siege.png", out);
    int pr =
        tn_picture_unit_path(file, 0, d->map, walk, size, cells, big.length, NULL, 0, a, b, "demo");
    if (pr != TN_PICTURE_OK) {
        tn_cli_error("demo", "%s: %s", file, tn_picture_error(pr));
        rc = TN_EXIT_OUTPUT;
    } else {
        printf("  wrote %s (its footprint along the path, amber; violet: too narrow for it)\n",
               file);
    }
done:
    free(cells);
    tn_search_destroy(s);
    tn_clearance_destroy(cl);
    return rc;
}

/* ---- command ----------------------------------------------------------------------------- */

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
        struct stat sb;
        if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
            return 0;
    }
    return -1;
}

int tn_cmd_demo(int argc, char **argv)
{
    char mapbuf[4096];
    const char *path = NULL, *out = "demo-out";
    int64_t steps = 1500, seed = 1;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (tn_cli_is_help(argv[i])) {
            help();
            return TN_EXIT_OK;
        } else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 60, 100000, &steps))
                return tn_cli_usage_error(
                    "demo", "--steps wants a whole number in 60..100000, got '%s'", argv[i]);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT64_MAX, &seed))
                return tn_cli_usage_error("demo", "--seed wants a whole number >= 0, got '%s'",
                                          argv[i]);
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else {
            return tn_cli_usage_error("demo", "unknown argument '%s'", argv[i]);
        }
    }
    if (!path) {
        char tried[4096];
        if (!tn_cli_data_file("maps/td.tmj", mapbuf, sizeof mapbuf, tried, sizeof tried)) {
            tn_cli_error("demo",
                         "the bundled map maps/td.tmj is not in any of: %s (set "
                         "TILENAV_DATA_DIR to the folder that holds maps/, or pass --map FILE)",
                         tried);
            return TN_EXIT_INPUT;
        }
        path = mapbuf;
    }

    demo *d = calloc(1, sizeof *d);
    if (!d)
        return TN_EXIT_NOMEM;
    d->exit = (tn_cell){-1, -1};
    tn_diag diag;
    tn_load_def lopts = tn_load_def_default();
    lopts.on_file = tn_cli_input_hook;
    tn_status st = tn_map_load(path, &lopts, &d->map, &diag);
    if (st != TN_OK) {
        char msg[1200];
        free(d);
        return tn_cli_load_failed("demo", &diag, st, msg, sizeof msg);
    }
    tn_cli_input_images(d->map);
    static const char *const outputs[] = {"demo.gif", "demo-sheet.png", "demo-siege.png"};
    for (int k = 0; k < 3; k++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", out, outputs[k]);
        int out_rc = tn_cli_check_output("demo", "--out", file);
        if (out_rc != TN_EXIT_OK) {
            tn_map_destroy(d->map);
            free(d);
            return out_rc;
        }
    }
    d->w = tn_map_width(d->map);
    d->h = tn_map_height(d->map);
    int rc = find_points(d);
    if (rc == TN_EXIT_OK && (st = setup(d, (uint64_t)seed)) != TN_OK) {
        tn_cli_error("demo", "set-up failed: %s", tn_status_str(st));
        rc = tn_cli_exit_for(st);
    }
    if (rc != TN_EXIT_OK) {
        teardown(d);
        free(d);
        return rc;
    }
    make_plan(d);
    if (make_dir(out) != 0) {
        tn_cli_error("demo", "cannot create the output folder '%s': %s", out, strerror(errno));
        teardown(d);
        free(d);
        return TN_EXIT_OUTPUT;
    }

    /* the tileset art, once; a missing image is reported and drawn with the default palette */
    tn_tileset_images *imgs = NULL;
    char imsg[2048];
    if (tn_tileset_images_load(d->map, NULL, &imgs, imsg, sizeof imsg) == TN_PARTIAL)
        for (char *save = NULL, *line = strtok_r(imsg, "\n", &save); line;
             line = strtok_r(NULL, "\n", &save))
            tn_cli_error("demo", "warning: %s (drawn with the default palette)", line);
    printf("tilenav %s demo: tower defense on %s (%d x %d cells of %d px)\n", tn_version(), path,
           d->w, d->h, d->tw);
    tn_canvas frame = {0}, sheet = {0};
    int32_t fw = d->w * SCALE, fh = d->h * SCALE;
    tn_gif *gif = tn_gif_begin(fw, fh, 12);
    bool ok = gif && tn_canvas_init(&frame, fw, fh, rgba(0, 0, 0, 255)) &&
              tn_canvas_init(&sheet, fw * 3, fh * 2, rgba(20, 20, 24, 255));
    if (!ok) {
        tn_gif_abort(gif);
        tn_canvas_free(&frame);
        tn_tileset_images_free(imgs);
        teardown(d);
        free(d);
        return TN_EXIT_NOMEM;
    }
    bool bar = !quiet && isatty(2);
    int32_t frames = 0, panel = 0;
    for (int64_t step = 0; step < steps && st == TN_OK; step++) {
        double t0 = tn_cli_now();
        /* waves: 12 creeps every 240 steps, one every 8 steps, alternating spawn points */
        int64_t in_wave = step % 240;
        if (step < steps - 300 && in_wave < 12 * 8 && in_wave % 8 == 0)
            spawn_creep(d, (int32_t)(in_wave / 8));
        st = place_towers(d, (int32_t)step);
        double t1 = tn_cli_now();
        if (st == TN_OK)
            st = tn_crowd_step(d->crowd);
        double t2 = tn_cli_now();
        if (st == TN_OK)
            st = combat(d);
        double t3 = tn_cli_now();
        d->crowd_ms += (t2 - t1) * 1e3;
        d->bp_ms += (t3 - t2) * 1e3;
        d->total_ms += (t3 - t0) * 1e3;
        float ov = tn_crowd_max_wall_overlap(d->crowd);
        if (ov > d->max_overlap)
            d->max_overlap = ov;
        if (step % FRAME_EVERY == 0) {
            draw(d, imgs, &frame, 0, 0, false);
            if (!tn_gif_add(gif, frame.px, (size_t)fw * 4))
                st = TN_E_NOMEM;
            frames++;
        }
        int64_t due = (panel + 1) * steps / (SHEET_PANELS + 1);
        if (panel < SHEET_PANELS && step == due) {
            int32_t px = (panel % 3) * fw, py = (panel / 3) * fh;
            draw(d, imgs, &sheet, px, py, true);
            char text[96];
            snprintf(text, sizeof text, "t = %.1f s   creeps %d   towers %d", (double)step / 60.0,
                     d->ncreeps, d->ntowers);
            label(&sheet, px, py, text);
            panel++;
        }
        progress(step + 1, steps, bar);
    }
    if (st != TN_OK) {
        tn_cli_error("demo", "simulation failed: %s", tn_status_str(st));
        tn_gif_abort(gif);
        tn_canvas_free(&frame);
        tn_canvas_free(&sheet);
        tn_tileset_images_free(imgs);
        teardown(d);
        free(d);
        return tn_cli_exit_for(st);
    }
    char gif_path[1200], png_path[1200], err[1400];
    snprintf(gif_path, sizeof gif_path, "%s/demo.gif", out);
    snprintf(png_path, sizeof png_path, "%s/demo-sheet.png", out);
    bool gif_ok = tn_gif_end(gif, gif_path, err, sizeof err);
    if (!gif_ok)
        tn_cli_error("demo", "%s", err);
    int png_rc = tn_canvas_write_png(&sheet, png_path);
    if (png_rc != 0)
        tn_cli_error("demo", "cannot write %s", png_path);

    double upd[MAX_TOWERS], reb[MAX_TOWERS];
    memcpy(upd, d->update_ms, sizeof upd);
    memcpy(reb, d->rebuild_ms, sizeof reb);
    double mu = median(upd, d->nupdates), mr = median(reb, d->nupdates);
    printf("  steps: %lld of 1/60 s, seed %lld\n", (long long)steps, (long long)seed);
    printf("  creeps: spawned %d, arrived %d, killed %d, still walking %d\n", d->spawned,
           d->arrived, d->killed, d->ncreeps);
    printf("  towers: placed %d, refused %d", d->ntowers, d->refused);
    if (d->refused)
        printf(" (%sat cell %d,%d: it would cut a spawn or a creep off from the exit)",
               d->refused > 1 ? "the last " : "", d->refused_at.x, d->refused_at.y);
    printf(", delayed %d times while creeps stood on the spot; %d shots fired\n", d->delayed,
           d->shots_fired);
    printf(
        "  flow field (8-connected, no corner cutting, exact line of sight): first build %.3f ms; "
        "after each tower an incremental update, median %.3f ms, against %.3f ms for a full "
        "rebuild\n",
        d->field_build_ms, mu, mr);
    printf("  per step: %.3f ms in all (crowd %.3f ms, broad phase and shots %.3f ms)\n",
           d->total_ms / (double)steps, d->crowd_ms / (double)steps, d->bp_ms / (double)steps);
    printf("  largest creep overlap with a wall over the run: %g px\n", (double)d->max_overlap);
    printf("  wrote %s (%d frames, %dx%d)%s and %s (%dx%d)%s\n", gif_path, frames, fw, fh,
           gif_ok ? "" : " [FAILED]", png_path, fw * 3, fh * 2, png_rc == 0 ? "" : " [FAILED]");

    printf("\nshortest paths (book ch. 6):\n");
    int prc = paths(d);
    printf("\nunits bigger than one tile:\n");
    int brc = big_unit(d, out);
    printf("\ntile collision (book ch. 3):\n");
    walkthrough(d->map);

    if (!gif_ok || png_rc != 0)
        rc = TN_EXIT_OUTPUT;
    else if (prc != TN_EXIT_OK)
        rc = prc;
    else if (brc != TN_EXIT_OK)
        rc = brc;
    else
        rc = d->max_overlap > 0.0f ? TN_EXIT_FAIL : TN_EXIT_OK;
    tn_canvas_free(&frame);
    tn_canvas_free(&sheet);
    tn_tileset_images_free(imgs);
    teardown(d);
    free(d);
    return rc;
}
