/* A game's use of an installed tilenav, built by `./build.sh examples` from the installed prefix
 * only, four ways (CMake static and shared, pkg-config static and shared).
 *
 * usage: game MAP...   (Tiled JSON/TMX, Moving AI or tilenav ASCII maps)
 *
 * For each map: load it (tilenav_io), build a flow field to the first passable cell (the goal),
 * take the reachable cell farthest from it as the start, find the A* path from there and check
 * that the path and the field agree: the path's cost equals the field's distance, the path is
 * a chain of neighbouring passable cells from start to goal, and following the field's
 * directions from the start reaches the goal with the same cost. Exits 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <tilenav/io.h>
#include <tilenav/tilenav.h>

static int fail(const char *path, const char *what, tn_status st)
{
    fprintf(stderr, "game: %s: %s: %s\n", path, what, tn_status_str(st));
    return 1;
}

/* Cost of one 8-connected step into (x, y): 1 or sqrt(2), times the entered cell's cost. */
static double step_cost(const tn_map *map, tn_cell from, tn_cell to)
{
    double len = (from.x != to.x && from.y != to.y) ? sqrt(2.0) : 1.0;
    return len * (double)tn_map_cost(map, to.x, to.y);
}

static int run(const char *path)
{
    tn_map *map = NULL;
    tn_diag diag;
    tn_status st = tn_map_load(path, NULL, &map, &diag);
    if (st != TN_OK) {
        char msg[1024];
        tn_diag_format(&diag, msg, sizeof msg);
        fprintf(stderr, "game: %s\n", msg);
        return 1;
    }
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    size_t cells = (size_t)w * (size_t)h;
    tn_cell goal = {-1, -1};
    for (int32_t i = 0; i < w * h && goal.x < 0; i++)
        if (tn_map_passable(map, i % w, i / w))
            goal = (tn_cell){i % w, i / w};
    tn_field *field = NULL;
    tn_search *search = NULL;
    tn_cell *cells_buf = malloc(cells * sizeof *cells_buf);
    int rc = 1;
    if (goal.x < 0 || !cells_buf) {
        fprintf(stderr, "game: %s: %s\n", path, goal.x < 0 ? "no passable cell" : "out of memory");
        goto done;
    }

    /* flow field: every cell's distance and direction to the goal */
    tn_field_def fdef = tn_field_def_default();
    fdef.map = map;
    if ((st = tn_field_create(&fdef, &field)) != TN_OK ||
        (st = tn_field_build(field, &goal, 1)) != TN_OK) {
        rc = fail(path, "flow field", st);
        goto done;
    }
    tn_cell start = goal;
    float far = 0.0f;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            float d = tn_field_distance(field, x, y);
            if (isfinite(d) && d > far) {
                far = d;
                start = (tn_cell){x, y};
            }
        }

    /* A*, with a context sized for this map */
    tn_search_def sdef = tn_search_def_default();
    sdef.max_cells = (int32_t)cells;
    if ((st = tn_search_create(&sdef, &search)) != TN_OK) {
        rc = fail(path, "search context", st);
        goto done;
    }
    tn_query query = {0}; /* 8-connected, no corner cutting, as the field */
    tn_search_result res;
    st = tn_search_path(search, map, start, goal, &query, cells_buf, (int32_t)cells, &res);
    if (st != TN_OK) {
        rc = fail(path, "A*", st);
        goto done;
    }
    double tol = 1e-4 * (double)far + 1e-3;
    if (fabs(res.cost - (double)far) > tol) {
        fprintf(stderr, "game: %s: A* cost %.4f but field distance %.4f\n", path, res.cost,
                (double)far);
        goto done;
    }
    double walked = 0.0;
    for (int32_t i = 0; i < res.length; i++) {
        tn_cell c = cells_buf[i];
        bool ok =
            tn_map_passable(map, c.x, c.y) &&
            (i == 0 ? c.x == start.x && c.y == start.y
                    : abs(c.x - cells_buf[i - 1].x) <= 1 && abs(c.y - cells_buf[i - 1].y) <= 1);
        if (!ok) {
            fprintf(stderr, "game: %s: the path's cell %d (%d,%d) is not a passable neighbour\n",
                    path, i, c.x, c.y);
            goto done;
        }
        if (i > 0)
            walked += step_cost(map, cells_buf[i - 1], c);
    }
    tn_cell last = cells_buf[res.length - 1];
    if (last.x != goal.x || last.y != goal.y || fabs(walked - res.cost) > tol) {
        fprintf(stderr, "game: %s: the path ends at (%d,%d) and costs %.4f when walked\n", path,
                last.x, last.y, walked);
        goto done;
    }

    /* follow the flow field from the start */
    tn_cell at = start;
    double flowed = 0.0;
    int32_t steps = 0;
    while ((at.x != goal.x || at.y != goal.y) && steps <= w * h) {
        int32_t dir = tn_field_dir(field, at.x, at.y);
        tn_cell next = {at.x + tn_dir_dx(dir), at.y + tn_dir_dy(dir)};
        if (dir == TN_DIR_NONE || !tn_map_passable(map, next.x, next.y)) {
            fprintf(stderr, "game: %s: the flow at (%d,%d) leads nowhere\n", path, at.x, at.y);
            goto done;
        }
        flowed += step_cost(map, at, next);
        at = next;
        steps++;
    }
    if (at.x != goal.x || fabs(flowed - res.cost) > tol) {
        fprintf(stderr, "game: %s: following the flow: %d steps, cost %.4f, at (%d,%d)\n", path,
                steps, flowed, at.x, at.y);
        goto done;
    }
    printf("%s: %dx%d, %d passable cells\n", path, w, h, tn_map_passable_count(map));
    printf("  A* (%d,%d) -> (%d,%d): %d cells, cost %.3f, %lld nodes expanded\n", start.x, start.y,
           goal.x, goal.y, res.length, res.cost, (long long)res.expanded);
    printf("  flow field: %d reachable cells; from (%d,%d) it reaches the goal in %d steps, "
           "cost %.3f (same as A*)\n",
           tn_field_reachable_count(field), start.x, start.y, steps, flowed);
    rc = 0;
done:
    free(cells_buf);
    tn_search_destroy(search);
    tn_field_destroy(field);
    tn_map_destroy(map);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: game MAP...\n");
        return 2;
    }
    printf("tilenav %s\n", tn_version());
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= run(argv[i]);
    return rc;
}
