/* Mode "maze" (book ch. 6): click a floor cell and the character walks there along A*'s
 * shortest 4-connected path, aligned with the rows and columns, turning only on cell centres
 * (the book's walkPath, tn_grid_walker). A click while walking replans from the next centre. */
#include "viewer.h"

#include <stdio.h>
#include <stdlib.h>

#define MAZE_TILE 32
#define WALK_SPEED 8.0f /* world pixels per step */

typedef struct maze {
    tn_map *map;
    tn_search *search;
    tn_grid_walker walker;
    tn_cell plan_buf[4096];
    tn_cell shown[4096]; /* the last planned path, drawn */
    int32_t nshown;
    tn_cell goal;
    bool walking;
    vw_view view;
    vw_app *app;
} maze;

static tn_status plan(void *user, tn_cell from, tn_cell to, tn_cell *out, int32_t cap, int32_t *len)
{
    maze *m = user;
    tn_query q = {0};
    q.moves.diagonal = TN_DIAGONAL_NEVER;
    tn_search_result res;
    tn_status st = tn_search_path(m->search, m->map, from, to, &q, out, cap, &res);
    *len = st == TN_OK ? res.length : 0;
    if (st == TN_OK) {
        int32_t n = res.length < 4096 ? res.length : 4096;
        for (int32_t i = 0; i < n; i++)
            m->shown[i] = out[i];
        m->nshown = n;
        snprintf(m->app->status, sizeof m->app->status, "A*: %d cells, cost %.0f, %lld expanded",
                 (int)res.length, res.cost, (long long)res.expanded);
        printf("maze: path %d cells from (%d, %d) to (%d, %d)\n", (int)res.length, (int)from.x,
               (int)from.y, (int)to.x, (int)to.y);
    } else
        snprintf(m->app->status, sizeof m->app->status, "no path: %s", tn_status_str(st));
    return st;
}

static void destroy(void *st)
{
    maze *m = st;
    tn_search_destroy(m->search);
    tn_map_destroy(m->map);
    free(m);
}

static void *create(vw_app *app)
{
    maze *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->app = app;
    m->map = vw_clone_user_map(app);
    if (!m->map && !app->user_map)
        m->map = vw_map_from_ascii(vw_maze_rows, VW_MAZE_H, MAZE_TILE);
    tn_search_def sd = tn_search_def_default();
    if (m->map)
        sd.max_cells = tn_map_width(m->map) * tn_map_height(m->map);
    tn_cell start = {VW_MAZE_START_X, VW_MAZE_START_Y};
    if (m->map && app->user_map)
        start = vw_nearest_passable(m->map, 0, 0);
    if (!m->map || start.x < 0 || tn_search_create(&sd, &m->search) != TN_OK ||
        tn_grid_walker_init(&m->walker, m->map, start,
                            WALK_SPEED * (float)tn_map_tile_width(m->map) / MAZE_TILE, m->plan_buf,
                            4096) != TN_OK) {
        destroy(m);
        return NULL;
    }
    m->goal = (tn_cell){-1, -1};
    m->view = vw_view_fit(app, m->map, VW_AREA);
    return m;
}

static void event(void *st, vw_app *app, const SDL_Event *e)
{
    maze *m = st;
    m->view = vw_view_fit(app, m->map, VW_AREA);
    if (e->type != SDL_MOUSEBUTTONDOWN || e->button.button != SDL_BUTTON_LEFT)
        return;
    tn_cell c;
    if (!vw_cell_at(&m->view, m->map, (float)e->button.x, (float)e->button.y, &c))
        return;
    if (!tn_map_passable(m->map, c.x, c.y)) {
        snprintf(app->status, sizeof app->status, "(%d, %d) is a wall", (int)c.x, (int)c.y);
        return;
    }
    printf("maze: click (%d, %d)\n", (int)c.x, (int)c.y);
    m->goal = c;
    if (tn_grid_walker_set_destination(&m->walker, c) == TN_OK)
        m->walking = true;
}

static void step(void *st, vw_app *app, const uint8_t *keys)
{
    (void)app;
    (void)keys;
    maze *m = st;
    if (!m->walking)
        return;
    if (tn_grid_walker_step(&m->walker, m->map, plan, m) != TN_OK) {
        m->walking = false;
        return;
    }
    if (!m->walker.pending && m->walker.dir.x == 0 && m->walker.dir.y == 0 &&
        tn_grid_walker_aligned(&m->walker, m->map)) {
        m->walking = false;
        printf("maze: arrived at (%d, %d) after %llu steps\n", (int)m->walker.cell.x,
               (int)m->walker.cell.y, (unsigned long long)app->step);
    }
}

static void draw(void *st, vw_app *app, tn_canvas *c)
{
    (void)app;
    maze *m = st;
    m->view = vw_view_fit(app, m->map, VW_AREA);
    const vw_view *v = &m->view;
    vw_draw_map(c, v, m->map, app->user_imgs);
    int32_t inset = (int32_t)(v->cell / 5.0f);
    for (int32_t i = 0; i < m->nshown; i++)
        vw_fill_cell(c, v, m->shown[i], inset, vw_rgb(VW_COL_PATH));
    if (m->goal.x >= 0) {
        int32_t x, y, w, h;
        vw_cell_rect(v, m->goal, 1, &x, &y, &w, &h);
        tn_rgba g = vw_rgb(0x20A040u);
        tn_canvas_fill_rect(c, x, y, w, 2, g);
        tn_canvas_fill_rect(c, x, y + h - 2, w, 2, g);
        tn_canvas_fill_rect(c, x, y, 2, h, g);
        tn_canvas_fill_rect(c, x + w - 2, y, 2, h, g);
    }
    tn_vec2 p = vw_to_screen(v, m->walker.pos);
    float r = v->cell * 0.3f < 4.0f ? 4.0f : v->cell * 0.3f;
    tn_canvas_circle(c, p.x, p.y, r, vw_rgb(VW_COL_WALKER), true);
    if (m->walker.dir.x || m->walker.dir.y)
        tn_canvas_line(c, p.x, p.y, p.x + (float)m->walker.dir.x * r,
                       p.y + (float)m->walker.dir.y * r, vw_rgb(0xFFFFFFu));
}

static void layout(void *st, vw_app *app)
{
    (void)app;
    maze *m = st;
    vw_print_view("view", &m->view);
    printf("start %d %d\n", (int)m->walker.cell.x, (int)m->walker.cell.y);
}

const vw_mode vw_mode_maze = {"maze",
                              "Maze: click to walk (A* + walkPath)",
                              "Left click a floor cell: the character walks there along\n"
                              "A*'s shortest 4-connected path, turning only on cell centres.\n"
                              "Click again while walking: it replans at the next centre.\n"
                              "Yellow squares: the planned path. Green frame: the goal.",
                              create,
                              destroy,
                              event,
                              step,
                              draw,
                              layout};
