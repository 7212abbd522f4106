/* Mode "heuristics" (book ch. 6): the same A* query under the book's three heuristics side by
 * side (manhattan, euclidean, diagonal = octile), 8-connected without corner cutting. The
 * manhattan heuristic overestimates with diagonal moves, so its path may be longer; the panels
 * show each path with its cost and the number of nodes expanded. */
#include "viewer.h"

#include <stdio.h>
#include <stdlib.h>

#define HEUR_N 3
#define MAXP 8192

static const char *const heur_rows[] = {
    "................", "................", "..######........", ".......#........",
    ".......#..,,,,..", ".......#..,,,,..", "...#...#..,,,,..", "...#...#........",
    "...#.......###..", "...#.........#..", "...#####.....#..", ".............#..",
    "........######..", "................", "..,,,,,.........", "..,,,,,...#.....",
    "..,,,,,...#.....", "..........#.....", "....#######.....", "................",
    "................", "................",
};
#define HEUR_H ((int32_t)(sizeof heur_rows / sizeof heur_rows[0]))

static const tn_heuristic heur[HEUR_N] = {TN_HEURISTIC_MANHATTAN, TN_HEURISTIC_EUCLIDEAN,
                                          TN_HEURISTIC_OCTILE};
static const char *const heur_name[HEUR_N] = {"manhattan", "euclidean", "diagonal"};
static const uint32_t heur_col[HEUR_N] = {0xE04040u, 0x3070E0u, 0xC040C0u};

typedef struct heuristics {
    tn_map *map;
    tn_search *search;
    vw_view view[HEUR_N];
    tn_cell start, goal;
    tn_cell path[HEUR_N][MAXP];
    int32_t len[HEUR_N];
    double cost[HEUR_N];
    int64_t expanded[HEUR_N];
    tn_status status[HEUR_N];
} heuristics;

static void solve(heuristics *h, vw_app *app)
{
    for (int32_t k = 0; k < HEUR_N; k++) {
        tn_query q = {0};
        q.heuristic = heur[k];
        tn_search_result res;
        h->status[k] =
            tn_search_path(h->search, h->map, h->start, h->goal, &q, h->path[k], MAXP, &res);
        h->len[k] = h->status[k] == TN_OK ? res.length : 0;
        h->cost[k] = res.cost;
        h->expanded[k] = res.expanded;
    }
    snprintf(app->status, sizeof app->status,
             "costs %.2f / %.2f / %.2f, expanded %lld / %lld / %lld", h->cost[0], h->cost[1],
             h->cost[2], (long long)h->expanded[0], (long long)h->expanded[1],
             (long long)h->expanded[2]);
}

static void fit(heuristics *h, vw_app *app)
{
    int32_t pw = VW_CANVAS_W / HEUR_N;
    for (int32_t k = 0; k < HEUR_N; k++)
        h->view[k] = vw_view_fit(app, h->map, k * pw + 4, 24, pw - 8, VW_CANVAS_H - VW_BAR_H - 28);
}

static void destroy(void *st)
{
    heuristics *h = st;
    tn_search_destroy(h->search);
    tn_map_destroy(h->map);
    free(h);
}

static void *create(vw_app *app)
{
    heuristics *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->map = vw_clone_user_map(app);
    if (!h->map && !app->user_map)
        h->map = vw_map_from_ascii(heur_rows, HEUR_H, 32);
    tn_search_def sd = tn_search_def_default();
    if (h->map)
        sd.max_cells = tn_map_width(h->map) * tn_map_height(h->map);
    if (!h->map || tn_search_create(&sd, &h->search) != TN_OK) {
        destroy(h);
        return NULL;
    }
    int32_t w = tn_map_width(h->map), hh = tn_map_height(h->map);
    h->start = vw_nearest_passable(h->map, 1, hh - 2);
    h->goal = vw_nearest_passable(h->map, w - 2, 1);
    fit(h, app);
    solve(h, app);
    return h;
}

static void event(void *st, vw_app *app, const SDL_Event *e)
{
    heuristics *h = st;
    fit(h, app);
    if (e->type != SDL_MOUSEBUTTONDOWN)
        return;
    for (int32_t k = 0; k < HEUR_N; k++) {
        tn_cell c;
        if (!vw_cell_at(&h->view[k], h->map, (float)e->button.x, (float)e->button.y, &c) ||
            !tn_map_passable(h->map, c.x, c.y))
            continue;
        if (e->button.button == SDL_BUTTON_LEFT)
            h->goal = c;
        else
            h->start = c;
        solve(h, app);
        return;
    }
}

static void step(void *st, vw_app *app, const uint8_t *keys)
{
    (void)st;
    (void)app;
    (void)keys;
}

static void draw(void *st, vw_app *app, tn_canvas *c)
{
    (void)app;
    heuristics *h = st;
    fit(h, app);
    for (int32_t k = 0; k < HEUR_N; k++) {
        const vw_view *v = &h->view[k];
        vw_draw_map(c, v, h->map, app->user_imgs);
        if (tn_draw_path_cells(c, &v->dv, h->path[k], h->len[k], vw_rgba(heur_col[k], 120)) !=
            TN_OK)
            return;
        tn_vec2 s = vw_cell_center(v, h->start), g = vw_cell_center(v, h->goal);
        tn_canvas_circle(c, s.x, s.y, v->cell * 0.4f + 1.0f, vw_rgb(0x20A040u), true);
        tn_canvas_circle(c, g.x, g.y, v->cell * 0.4f + 1.0f, vw_rgb(0x202020u), true);
        char label[128];
        if (h->status[k] == TN_OK)
            snprintf(label, sizeof label, "%s: cost %.2f, %lld expanded", heur_name[k], h->cost[k],
                     (long long)h->expanded[k]);
        else
            snprintf(label, sizeof label, "%s: %s", heur_name[k], tn_status_str(h->status[k]));
        vw_text(c, (int32_t)v->ox, (int32_t)v->oy - 14, 1, vw_rgb(heur_col[k] | 0x404040u), label);
    }
}

static void layout(void *st, vw_app *app)
{
    (void)app;
    heuristics *h = st;
    for (int32_t k = 0; k < HEUR_N; k++) {
        char name[16];
        snprintf(name, sizeof name, "view%d", (int)k);
        vw_print_view(name, &h->view[k]);
    }
}

const vw_mode vw_mode_heuristics = {"heuristics",
                                    "Heuristics: manhattan, euclidean, diagonal",
                                    "The same A* query (8 neighbours, no corner cutting) under\n"
                                    "three heuristics. Left click: goal. Right click: start.\n"
                                    "Manhattan overestimates diagonal moves, so its path can\n"
                                    "cost more; green = start, black = goal, grass costs 3.",
                                    create,
                                    destroy,
                                    event,
                                    step,
                                    draw,
                                    layout};
