/* tilenav path MAP SX SY GX GY: one shortest-path query, printed as text, JSON or ASCII art. */
#include "cli.h"
#include "picture.h"
#include "tilenav/clearance.h"
#include "tilenav/io.h"
#include "tilenav/path.h"
#include "tilenav/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tn_cmd_path(int argc, char **argv);
extern const char tn_cmd_path_summary[];
const char tn_cmd_path_summary[] = "shortest path between two cells (A*, JPS, JPS+ or Dijkstra)";

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: tilenav path MAP SX SY GX GY [--moves 4|8]\n"
        "                    [--diagonal never|no-cut|one|always]\n"
        "                    [--heuristic manhattan|euclidean|octile|chebyshev|zero]\n"
        "                    [--weight W] [--algo astar|jps|jps+|dijkstra] [--costs exact|10-14]\n"
        "                    [--closest] [--smooth] [--json] [--ascii] [--size N]\n"
        "                    [--png FILE [--scale PX]] [--collision LIST] [--cover RULE]\n"
        "                    [--collision-layers NAMES]\n\n"
        "Finds the cheapest path from (SX, SY) to (GX, GY); x = column, y = row, from 0.\n"
        "Prints the cells, the cost, the nodes expanded and the time; --ascii draws the map\n"
        "with the path ('#' blocked, '~' costly, '*' path, 'S' start, 'G' goal, 'o' smoothed\n"
        "waypoint); --json prints one object with the keys found, status, cost, cells,\n"
        "expanded, time_us, algo (and waypoints with --smooth; size and narrow with\n"
        "--size); on an error after the arguments are read (the map, blocked or outside\n"
        "cells) it prints {\"found\": false, \"status\": ..., \"error\": ...} instead.\n\n"
        "  --moves 4|8       neighbours (8 by default; 4 = --diagonal never)\n"
        "  --diagonal P      when a diagonal step may pass blocked corners (default no-cut)\n"
        "  --heuristic H     default: octile with diagonals, manhattan without\n"
        "  --weight W        weighted A* (W >= 1; paths at most W times the optimum)\n"
        "  --algo A          astar (default), jps, jps+ (JPS over a jump table built first),\n"
        "                    dijkstra; jps and jps+ fall back to A* where they do not apply\n"
        "                    (4 moves, corner cutting, --closest) and say so on stderr\n"
        "  --costs C         exact (1 and sqrt 2, default) or 10-14 (the book's integers)\n"
        "  --closest         when the goal cannot be reached (blocked, walled off, or\n"
        "                    outside the map), go to the cell closest to it\n"
        "  --smooth          also print waypoints smoothed by line of sight\n"
        "  --size N          a unit of N x N cells (1..8): SX SY and GX GY are its top-left\n"
        "                    cells, every step keeps its whole footprint on passable cells\n"
        "                    (the corner rule applies to the footprint) and entering a cell\n"
        "                    costs the largest cost under it; prints how many passable\n"
        "                    cells are too narrow for the unit (narrow=K); the PNG fills the\n"
        "                    footprint along the path in amber and the cells too narrow in\n"
        "                    violet with a light back-slash (blocked cells over tileset art:\n"
        "                    darkened with a red slash)\n"
        "  --png FILE        draw the map (its tileset art when it has any, blocked cells\n"
        "                    hatched over it) with the path, the smoothed waypoints, a ring on\n"
        "                    the start and a disc on the goal\n"
        "  --scale PX        pixels per cell in the PNG, 1..64 (default: fit about 1024 "
        "px)\n" TN_CLI_LOAD_OPTIONS_HELP "\n"
        "Exit status: 0 path found (or, with --closest, a path to the closest cell), 1 no path,\n"
        "2 bad arguments, a start blocked or outside the map, or (without --closest) such a\n"
        "goal, 3 the map cannot be read or parsed,\n"
        "4 the PNG cannot be written, 5 out of memory or past a limit, 6 internal error.\n");
}

/* With --json, a failure is one object on stdout too (the message also goes to stderr):
 * {"found": false, "status": "...", "error": "..."}. */
static void print_json_error(tn_status st, const char *why)
{
    printf("{\"found\": false, \"status\": \"%s\", \"error\": \"", tn_status_str(st));
    for (const unsigned char *c = (const unsigned char *)why; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    printf("\"}\n");
}

/* Are the size x size cells with top-left cell `c` all on the map and passable? */
static bool footprint_free(const tn_map *map, tn_cell c, int32_t size)
{
    for (int32_t dy = 0; dy < size; dy++)
        for (int32_t dx = 0; dx < size; dx++)
            if (!tn_map_passable(map, c.x + dx, c.y + dy))
                return false;
    return true;
}

static void print_ascii(const tn_map *map, const tn_cell *cells, int32_t n, const tn_cell *wp,
                        int32_t nw, tn_cell s, tn_cell g)
{
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    char *buf = malloc((size_t)w * (size_t)h);
    if (!buf)
        return;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            float c = tn_map_cost(map, x, y);
            buf[(size_t)y * (size_t)w + (size_t)x] =
                !tn_map_passable(map, x, y) ? '#' : (c > 1.0f ? '~' : '.');
        }
    for (int32_t i = 0; i < n; i++)
        buf[(size_t)cells[i].y * (size_t)w + (size_t)cells[i].x] = '*';
    for (int32_t i = 0; i < nw; i++)
        buf[(size_t)wp[i].y * (size_t)w + (size_t)wp[i].x] = 'o';
    if (tn_map_contains(map, s.x, s.y))
        buf[(size_t)s.y * (size_t)w + (size_t)s.x] = 'S';
    if (tn_map_contains(map, g.x, g.y))
        buf[(size_t)g.y * (size_t)w + (size_t)g.x] = 'G';
    for (int32_t y = 0; y < h; y++) {
        fwrite(buf + (size_t)y * (size_t)w, 1, (size_t)w, stdout);
        fputc('\n', stdout);
    }
    free(buf);
}

int tn_cmd_path(int argc, char **argv)
{
    const char *cmd = "path";
    const char *pos[6] = {0};
    int npos = 0;
    tn_query q;
    memset(&q, 0, sizeof q);
    q.jps_fallback = true;
    bool json = false, ascii = false, smooth = false, moves4 = false, diag_set = false;
    const char *png = NULL;
    int64_t scale = 0, size = 1;
    tn_load_def lopts = tn_load_def_default();
    int lo;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (tn_cli_is_help(a)) {
            usage(stdout);
            return TN_EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--ascii") == 0) {
            ascii = true;
        } else if (strcmp(a, "--smooth") == 0) {
            smooth = true;
        } else if (strcmp(a, "--png") == 0 && v) {
            png = argv[++i];
        } else if (strcmp(a, "--scale") == 0 && v) {
            i++;
            if (!tn_cli_parse_int(v, 1, 64, &scale))
                return tn_cli_usage_error(cmd, "--scale takes 1..64 pixels, not '%s'", v);
        } else if (strcmp(a, "--size") == 0 && v) {
            i++;
            if (!tn_cli_parse_int(v, 1, 8, &size))
                return tn_cli_usage_error(cmd, "--size takes 1..8 cells, not '%s'", v);
        } else if (strcmp(a, "--closest") == 0) {
            q.closest = true;
        } else if (strcmp(a, "--moves") == 0 && v) {
            i++;
            if (strcmp(v, "4") == 0)
                moves4 = true;
            else if (strcmp(v, "8") != 0)
                return tn_cli_usage_error(cmd, "--moves takes 4 or 8, not '%s'", v);
        } else if (strcmp(a, "--diagonal") == 0 && v) {
            i++;
            diag_set = true;
            if (!tn_cli_parse_diagonal(v, &q.moves.diagonal))
                return tn_cli_usage_error(cmd, "unknown --diagonal '%s'", v);
        } else if (strcmp(a, "--heuristic") == 0 && v) {
            i++;
            if (!tn_heuristic_from_name(v, &q.heuristic))
                return tn_cli_usage_error(cmd, "unknown --heuristic '%s'", v);
        } else if (strcmp(a, "--algo") == 0 && v) {
            i++;
            if (!tn_algo_from_name(v, &q.algo))
                return tn_cli_usage_error(cmd, "unknown --algo '%s' (astar, dijkstra, jps, jps+)",
                                          v);
        } else if (strcmp(a, "--costs") == 0 && v) {
            i++;
            if (!tn_cli_parse_costs(v, &q.moves.costs))
                return tn_cli_usage_error(cmd, "unknown --costs '%s' (exact, 10-14)", v);
        } else if (strcmp(a, "--weight") == 0 && v) {
            i++;
            if (!tn_cli_parse_double(v, 1.0, 1e6, &q.weight))
                return tn_cli_usage_error(cmd, "--weight takes a number from 1 to 1e6, not '%s'",
                                          v);
        } else if ((lo = tn_cli_load_option(cmd, argc, argv, &i, &lopts)) != 0) {
            if (lo < 0)
                return TN_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
            return tn_cli_bad_option(cmd, a, i + 1 >= argc);
        } else if (npos < 5) {
            pos[npos++] = a;
        } else {
            return tn_cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    if (json && ascii)
        return tn_cli_usage_error(cmd, "--ascii and --json exclude each other");
    if (npos != 5) {
        static const char *const names[5] = {"MAP", "SX", "SY", "GX", "GY"};
        return tn_cli_usage_error(cmd, "missing %s (usage: tilenav path MAP SX SY GX GY)",
                                  names[npos]);
    }
    if (moves4) {
        if (diag_set && q.moves.diagonal != TN_DIAGONAL_NEVER)
            return tn_cli_usage_error(cmd, "--moves 4 allows no diagonal steps");
        q.moves.diagonal = TN_DIAGONAL_NEVER;
    }
    int64_t c[4];
    for (int k = 0; k < 4; k++)
        if (!tn_cli_parse_int(pos[k + 1], INT32_MIN, INT32_MAX, &c[k]))
            return tn_cli_usage_error(cmd, "bad coordinate '%s'", pos[k + 1]);
    tn_cell start = {(int32_t)c[0], (int32_t)c[1]}, goal = {(int32_t)c[2], (int32_t)c[3]};

    tn_diag diag;
    memset(&diag, 0, sizeof diag);
    tn_map *map = NULL;
    lopts.on_file = tn_cli_input_hook;
    tn_status st = tn_map_load(pos[0], &lopts, &map, &diag);
    if (st != TN_OK) {
        char msg[1024];
        int rc = tn_cli_load_failed(cmd, &diag, st, msg, sizeof msg);
        if (json)
            print_json_error(st, msg);
        return rc;
    }
    int out_rc = tn_picture_check_output(cmd, map, png, (int32_t)scale, 32);
    if (out_rc != TN_EXIT_OK) {
        tn_map_destroy(map);
        return out_rc;
    }
    /* a unit that does not fit at its start (or, without --closest, its goal) is told so
     * before its clearance is built: on a huge map that build is the bulk of the memory */
    for (int end = 0; end < 2 && size > 1; end++) {
        tn_cell at = end ? goal : start;
        if (!tn_map_contains(map, at.x, at.y) || (end && q.closest) ||
            footprint_free(map, at, (int32_t)size))
            continue;
        char why[160];
        snprintf(why, sizeof why,
                 "(%d, %d) -> (%d, %d): the unit does not fit at the %s (its "
                 "top-left cell)",
                 (int)start.x, (int)start.y, (int)goal.x, (int)goal.y, end ? "goal" : "start");
        tn_cli_error(cmd, "%s", why);
        if (json)
            print_json_error(end ? TN_E_GOAL_BLOCKED : TN_E_START_BLOCKED, why);
        tn_map_destroy(map);
        return TN_EXIT_USAGE;
    }
    int32_t cells = tn_map_width(map) * tn_map_height(map);
    tn_search_def def = tn_search_def_default();
    def.max_cells = cells;
    tn_search *s = NULL;
    tn_cell *path = malloc((size_t)cells * sizeof *path);
    tn_cell *wp = malloc((size_t)cells * sizeof *wp);
    if (!path || !wp || tn_search_create(&def, &s) != TN_OK) {
        free(path);
        free(wp);
        tn_map_destroy(map);
        tn_cli_error(cmd, "out of memory");
        return TN_EXIT_NOMEM;
    }
    /* a unit of size > 1 walks its size map, kept by a clearance */
    tn_clearance *clear = NULL;
    const tn_map *walk = map;
    if (size > 1) {
        tn_clearance_def cd = tn_clearance_def_default();
        cd.map = map;
        cd.max_size = (int32_t)size;
        st = tn_clearance_create(&cd, &clear);
        if (st != TN_OK) {
            tn_cli_error(cmd, "clearance: %s", tn_status_str(st));
            tn_search_destroy(s);
            free(path);
            free(wp);
            tn_map_destroy(map);
            return tn_cli_exit_for(st);
        }
        walk = tn_clearance_map(clear, (int32_t)size);
        q.size = (int32_t)size;
        q.clearance = clear;
    }
    tn_jump_table *table = NULL;
    if (q.algo == TN_ALGO_JPS_PLUS) {
        tn_jump_table_def jd = tn_jump_table_def_default();
        jd.map = walk;
        st = tn_jump_table_build(&jd, &table);
        if (st != TN_OK) {
            tn_cli_error(cmd, "jump table: %s", tn_status_str(st));
            tn_clearance_destroy(clear);
            tn_search_destroy(s);
            free(path);
            free(wp);
            tn_map_destroy(map);
            return tn_cli_exit_for(st);
        }
        q.jump_table = table;
    }
    tn_search_result res;
    double t0 = tn_cli_now();
    st = tn_search_path(s, map, start, goal, &q, path, cells, &res);
    double us = (tn_cli_now() - t0) * 1e6;
    tn_jump_table_destroy(table);
    char why_buf[160];
    if (st == TN_E_OUT_OF_MAP) {
        tn_cell off = tn_map_contains(map, start.x, start.y) ? goal : start;
        snprintf(why_buf, sizeof why_buf,
                 "%s (%d, %d) is outside the %d x %d map (x 0..%d, y 0..%d)",
                 off.x == start.x && off.y == start.y ? "start" : "goal", (int)off.x, (int)off.y,
                 (int)tn_map_width(map), (int)tn_map_height(map), (int)tn_map_width(map) - 1,
                 (int)tn_map_height(map) - 1);
        tn_cli_error(cmd, "%s", why_buf);
        if (json)
            print_json_error(st, why_buf);
    }
    if (st < 0 && st != TN_E_OUT_OF_MAP) {
        const char *why = st == TN_E_START_BLOCKED  ? "the start cell is blocked"
                          : st == TN_E_GOAL_BLOCKED ? "the goal cell is blocked"
                          : st == TN_E_UNSUPPORTED  ? "not supported"
                                                    : tn_status_str(st);
        if (size > 1 && st == TN_E_START_BLOCKED)
            why = "the unit does not fit at the start (its top-left cell)";
        if (size > 1 && st == TN_E_GOAL_BLOCKED)
            why = "the unit does not fit at the goal (its top-left cell)";
        snprintf(why_buf, sizeof why_buf, "(%d, %d) -> (%d, %d): %s", (int)start.x, (int)start.y,
                 (int)goal.x, (int)goal.y, why);
        tn_cli_error(cmd, "%s", why_buf);
        if (json)
            print_json_error(st, why_buf);
    }
    if (st < 0) {
        tn_clearance_destroy(clear);
        tn_search_destroy(s);
        free(path);
        free(wp);
        tn_map_destroy(map);
        return tn_cli_exit_for(st);
    }
    bool found = st == TN_OK || st == TN_CLOSEST;
    int32_t n = found ? res.length : 0, nw = 0;
    if (found && smooth && tn_path_smooth(walk, path, n, wp, cells, &nw) != TN_OK)
        nw = 0;
    if ((q.algo == TN_ALGO_JPS || q.algo == TN_ALGO_JPS_PLUS) && res.algo == TN_ALGO_ASTAR && !json)
        fprintf(stderr,
                "tilenav path: %s needs 8 moves without corner cutting and no --closest; "
                "used A*\n",
                q.algo == TN_ALGO_JPS ? "JPS" : "JPS+");
    if (json) {
        printf("{\"found\": %s, \"status\": \"%s\", \"cost\": %.6f, \"length\": %d, "
               "\"expanded\": %lld, \"time_us\": %.3f, \"algo\": \"%s\", \"end\": [%d, %d], "
               "\"cells\": [",
               st == TN_OK ? "true" : "false", tn_status_str(st), res.cost, (int)n,
               (long long)res.expanded, us, tn_algo_name(res.algo), (int)res.end.x, (int)res.end.y);
        for (int32_t i = 0; i < n; i++)
            printf("%s[%d, %d]", i ? ", " : "", (int)path[i].x, (int)path[i].y);
        printf("]");
        if (size > 1)
            printf(", \"size\": %d, \"narrow\": %d", (int)size,
                   (int)tn_picture_count_too_narrow(map, walk, (int32_t)size));
        if (smooth) {
            printf(", \"waypoints\": [");
            for (int32_t i = 0; i < nw; i++)
                printf("%s[%d, %d]", i ? ", " : "", (int)wp[i].x, (int)wp[i].y);
            printf("]");
        }
        printf("}\n");
    } else {
        printf("found=%s status=\"%s\" cost=%.6f length=%d expanded=%lld time_us=%.3f algo=%s\n",
               st == TN_OK ? "yes" : "no", tn_status_str(st), res.cost, (int)n,
               (long long)res.expanded, us, tn_algo_name(res.algo));
        if (size > 1)
            printf("size=%d narrow=%d (passable cells too narrow for the unit)\n", (int)size,
                   (int)tn_picture_count_too_narrow(map, walk, (int32_t)size));
        if (n && !ascii) {
            printf("cells:");
            for (int32_t i = 0; i < n; i++)
                printf(" %d,%d", (int)path[i].x, (int)path[i].y);
            printf("\n");
        }
        if (nw && !ascii) {
            printf("waypoints:");
            for (int32_t i = 0; i < nw; i++)
                printf(" %d,%d", (int)wp[i].x, (int)wp[i].y);
            printf("\n");
        }
    }
    if (ascii)
        print_ascii(map, path, n, wp, nw, start, goal);
    int rc = st == TN_OK || st == TN_CLOSEST ? TN_EXIT_OK : TN_EXIT_FAIL;
    if (png) {
        int pr = tn_picture_unit_path(png, (int32_t)scale, map, walk, (int32_t)size, path, n, wp,
                                      nw, start, goal, "path");
        if (pr != TN_PICTURE_OK) {
            tn_cli_error(cmd, "%s: %s", png, tn_picture_error(pr));
            rc =
                pr == TN_PICTURE_TOO_BIG || pr == TN_PICTURE_NOMEM ? TN_EXIT_NOMEM : TN_EXIT_OUTPUT;
        }
    }
    tn_clearance_destroy(clear);
    tn_search_destroy(s);
    free(path);
    free(wp);
    tn_map_destroy(map);
    return rc;
}
