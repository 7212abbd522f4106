/* tilenav field: build a flow field towards one goal, print a summary line, optionally render
 * it (ASCII or PNG heat map with flow arrows and line-of-sight cells), write the distances as
 * CSV, and benchmark full builds and incremental tower placements. */
#include "cli.h"
#include "picture.h"
#include "tilenav/clearance.h"
#include "tilenav/io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int tn_cmd_field(int argc, char **argv);
extern const char tn_cmd_field_summary[];
const char tn_cmd_field_summary[] = "flow field to a goal: distances, directions, line of sight";

int tn_cli_field_sectors(const tn_map *map, tn_moves moves, const tn_field *whole, tn_cell goal,
                         int64_t agents, int64_t cluster, int64_t sector, int64_t budget_kb,
                         tn_parallel_for pfor, void *puser, double whole_ms); /* field_sectors.c */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tilenav field MAP GX GY [--moves 4|8] [--diagonal never|no-cut|one|always]\n"
            "                     [--costs exact|10-14] [--flow optimal|steepest]\n"
            "                     [--los | --los-simple] [--ascii | --png FILE [--scale PX]]\n"
            "                     [--json] [--out FILE] [--threads N] [--bench N]\n"
            "                     [--bench-towers N] [--size N] [--collision LIST]\n"
            "                     [--collision-layers NAMES] [--cover RULE]\n"
            "                     [--sectors AGENTS [--sector-size N]\n"
            "                     [--budget-kb K] [--cluster C]]\n\n"
            "Builds the integration field (cost from every cell to the goal cell GX,GY), the\n"
            "8-way flow and, with --los, the cells that see the goal in a straight line, then\n"
            "prints one line:\n"
            "  field width=W height=H reachable=N los=L build_ms=X\n\n"
            "  --moves 4|8        4- or 8-connected steps (default 8)\n"
            "  --diagonal RULE    corner rule: no-cut (default), one, always; never = 4-connected\n"
            "  --costs KIND       exact (1, sqrt 2; default) or 10-14\n"
            "  --flow RULE        optimal (on a cheapest path; default) or steepest (the\n"
            "                     tutorial's: lowest neighbour, 8 ways even when 4-connected)\n"
            "  --los              exact line of sight; --los-simple: the HowToRTS rule only\n"
            "  --ascii            print the field: > v < ^ for straight steps, 9 3 1 7 for NE SE\n"
            "                     SW NW (as on a numeric keypad), * sees the goal, G goal,\n"
            "                     # blocked, . unreachable; with --size, : where the unit\n"
            "                     does not fit (its top-left cell there)\n"
            "  --json             print one JSON object instead of the summary line: width,\n"
            "                     height, goal, reachable, los_count, build_ms, and per cell\n"
            "                     (rows of arrays) distance (null = unreachable or blocked),\n"
            "                     dir (0..7 = E SE S SW W NW N NE, -1 = none) and los (0/1);\n"
            "                     the --bench, --bench-towers and --sectors lines then go to\n"
            "                     standard error\n"

            "  --png FILE         the map (its tileset art when it has any) under a heat map of\n"
            "                     distances, with LOS cells, flow arrows and the goal\n"
            "  --scale PX         pixels per cell in the PNG (default: fit about 1024 px)\n"
            "  --out FILE         distances as CSV, one map row per line, -1 = unreachable\n"
            "  --threads N        split the flow rows and the line-of-sight octants over N\n"
            "                     threads (1..16, default 1); distances stay on one thread\n"
            "  --bench N          time N full builds; prints 'bench builds=N median_ms=...'\n"
            "                     (wall and thread CPU time, medians and minima)\n"
            "  --size N           a field for units of N x N cells (1..8) on the size-N map:\n"
            "                     GX GY and every cell are the unit's top-left cell; cells where\n"
            "                     it does not fit are blocked (--bench-towers then updates the\n"
            "                     clearance before the field, and asks the wall-off query for\n"
            "                     the top-left cells a tower takes from the unit)\n");
    fprintf(f,
            "  --sectors AGENTS   (8 moves without corner cutting, or --moves 4)\n"
            "                     also build a sector flow field (sector_field.h) for the goal on\n"
            "                     a hierarchy of --sector-size N (4..256, default 32) sectors,\n"
            "                     with a tile budget of --budget-kb K (default 4096), put\n"
            "                     AGENTS agents (1..1000000) at seeded random cells that reach\n"
            "                     the goal (anywhere, or with --cluster C in a C x C square\n"
            "                     around a random such cell), and print one line 'sectors agents=N "
            "arrived=A\n"
            "                     hierarchy_ms=... goal_ms=... first_ms=... first_tiles=...\n"
            "                     first_bytes=... walk_ms=... tiles_built=... field_bytes=...\n"
            "                     whole_ms=... whole_bytes=... subopt_mean=... subopt_max=...':\n"
            "                     the tiles the agents need where they stand (first_), then\n"
            "                     along their whole routes (walk_), against the whole-map field\n"
            "  --bench-towers N   place and sell N 2x2 towers at seeded random places, timing\n"
            "                     tn_field_update against full builds and checking they "
            "agree\n" TN_CLI_LOAD_OPTIONS_HELP "\n"
            "Exit status: 0 ok, 1 --bench-towers found a difference, 2 bad arguments or a goal\n"
            "outside the map or blocked, 3 the map cannot be read or parsed, 4 an output file\n"
            "cannot be written, 5 out of memory or past a limit, 6 internal error.\n");
}

typedef struct opts {
    const char *map, *png, *out;
    int64_t gx, gy, scale, bench, towers, threads, size, sectors, cluster, sector_size, budget_kb;
    tn_moves moves;
    tn_flow_rule flow;
    tn_los_mode los;
    bool ascii, json;
    tn_load_def load;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    const char *cmd = "field";
    memset(o, 0, sizeof *o);
    o->load = tn_load_def_default();
    int pos = 0, lo;
    bool four = false, diag_set = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (tn_cli_is_help(a)) {
            usage(stdout);
            return -1;
        } else if (strcmp(a, "--moves") == 0 && v) {
            if (strcmp(v, "4") == 0)
                four = true;
            else if (strcmp(v, "8") != 0)
                return tn_cli_usage_error(cmd, "--moves takes 4 or 8, not '%s'", v);
            i++;
        } else if (strcmp(a, "--diagonal") == 0 && v) {
            if (!tn_cli_parse_diagonal(v, &o->moves.diagonal))
                return tn_cli_usage_error(cmd, "unknown --diagonal '%s'", v);
            diag_set = true;
            i++;
        } else if (strcmp(a, "--costs") == 0 && v) {
            if (!tn_cli_parse_costs(v, &o->moves.costs))
                return tn_cli_usage_error(cmd, "unknown --costs '%s'", v);
            i++;
        } else if (strcmp(a, "--flow") == 0 && v) {
            if (strcmp(v, "optimal") == 0)
                o->flow = TN_FLOW_OPTIMAL;
            else if (strcmp(v, "steepest") == 0)
                o->flow = TN_FLOW_STEEPEST;
            else
                return tn_cli_usage_error(cmd, "unknown --flow '%s'", v);
            i++;
        } else if (strcmp(a, "--los") == 0 || strcmp(a, "--los-simple") == 0) {
            tn_los_mode mode = strcmp(a, "--los") == 0 ? TN_LOS_EXACT : TN_LOS_SIMPLE;
            if (o->los != TN_LOS_OFF && o->los != mode)
                return tn_cli_usage_error(cmd, "--los and --los-simple exclude each other");
            o->los = mode;
        } else if (strcmp(a, "--ascii") == 0) {
            o->ascii = true;
        } else if (strcmp(a, "--json") == 0) {
            o->json = true;
            tn_cli_set_json(true);
        } else if (strcmp(a, "--png") == 0 && v) {
            o->png = v;
            i++;
        } else if (strcmp(a, "--out") == 0 && v) {
            o->out = v;
            i++;
        } else if (strcmp(a, "--scale") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 64, &o->scale))
                return tn_cli_usage_error(cmd, "--scale takes 1..64, not '%s'", v);
            i++;
        } else if (strcmp(a, "--threads") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 16, &o->threads))
                return tn_cli_usage_error(cmd, "--threads takes 1..16, not '%s'", v);
            i++;
        } else if (strcmp(a, "--bench") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 100000, &o->bench))
                return tn_cli_usage_error(cmd, "--bench takes 1..100000, not '%s'", v);
            i++;
        } else if (strcmp(a, "--size") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 8, &o->size))
                return tn_cli_usage_error(cmd, "--size takes 1..8 cells, not '%s'", v);
            i++;
        } else if (strcmp(a, "--sectors") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 1000000, &o->sectors))
                return tn_cli_usage_error(cmd, "--sectors takes 1..1000000 agents, not '%s'", v);
            i++;
        } else if (strcmp(a, "--cluster") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, TN_MAX_DIM, &o->cluster))
                return tn_cli_usage_error(cmd, "--cluster takes 1..%d cells, not '%s'", TN_MAX_DIM,
                                          v);
            i++;
        } else if (strcmp(a, "--sector-size") == 0 && v) {
            if (!tn_cli_parse_int(v, 4, 256, &o->sector_size))
                return tn_cli_usage_error(cmd, "--sector-size takes 4..256, not '%s'", v);
            i++;
        } else if (strcmp(a, "--budget-kb") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 16777216, &o->budget_kb))
                return tn_cli_usage_error(cmd, "--budget-kb takes 1..16777216, not '%s'", v);
            i++;
        } else if (strcmp(a, "--bench-towers") == 0 && v) {
            if (!tn_cli_parse_int(v, 1, 100000, &o->towers))
                return tn_cli_usage_error(cmd, "--bench-towers takes 1..100000, not '%s'", v);
            i++;
        } else if ((lo = tn_cli_load_option(cmd, argc, argv, &i, &o->load)) != 0) {
            if (lo < 0)
                return TN_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] == '-') {
            return tn_cli_bad_option(cmd, a, i + 1 >= argc);
        } else {
            if (pos == 0)
                o->map = a;
            else if (pos == 1 && !tn_cli_parse_int(a, 0, TN_MAX_DIM - 1, &o->gx))
                return tn_cli_usage_error(cmd, "GX must be a cell column, not '%s'", a);
            else if (pos == 2 && !tn_cli_parse_int(a, 0, TN_MAX_DIM - 1, &o->gy))
                return tn_cli_usage_error(cmd, "GY must be a cell row, not '%s'", a);
            else if (pos > 2)
                return tn_cli_usage_error(cmd, "unexpected argument '%s'", a);
            pos++;
        }
    }
    if (pos != 3) {
        static const char *const names[3] = {"MAP", "GX", "GY"};
        return tn_cli_usage_error(cmd, "missing %s (usage: tilenav field MAP GX GY)", names[pos]);
    }
    if (o->ascii && o->png)
        return tn_cli_usage_error(cmd, "--ascii and --png exclude each other");
    if ((o->sector_size || o->budget_kb || o->cluster) && !o->sectors)
        return tn_cli_usage_error(cmd, "--sector-size, --budget-kb and --cluster need --sectors");
    if (o->sectors && o->moves.diagonal != TN_DIAGONAL_NO_CUT && !four)
        return tn_cli_usage_error(cmd, "--sectors needs --diagonal no-cut or --moves 4");
    if (o->ascii && o->json)
        return tn_cli_usage_error(cmd, "--ascii and --json exclude each other");
    if (four) {
        if (diag_set && o->moves.diagonal != TN_DIAGONAL_NEVER)
            return tn_cli_usage_error(cmd, "--diagonal needs --moves 8");
        o->moves.diagonal = TN_DIAGONAL_NEVER;
    }
    return 0;
}

/* tn_dir order E, SE, S, SW, W, NW, N, NE; diagonals as on a numeric keypad. */
static const char ARROWS[8] = {'>', '3', 'v', '1', '<', '7', '^', '9'};

/* `walk`: the map the field was built on (`m` itself, or with --size the size map, where the
 * cells too narrow for the unit are blocked). */
static void print_ascii(const tn_map *m, const tn_map *walk, const tn_field *f)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            char c;
            if (!tn_map_passable(m, x, y))
                c = '#';
            else if (!tn_map_passable(walk, x, y))
                c = ':';
            else if (tn_field_distance(f, x, y) == 0.0f)
                c = 'G';
            else if (isinf(tn_field_distance(f, x, y)))
                c = '.';
            else if (tn_field_los(f, x, y))
                c = '*';
            else
                c = ARROWS[tn_field_dir(f, x, y) & 7];
            putchar(c);
        }
        putchar('\n');
    }
}

static void print_json(const tn_map *m, const tn_field *f, tn_cell goal, double ms)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    printf("{\"width\": %d, \"height\": %d, \"goal\": [%d, %d], \"reachable\": %d, "
           "\"los_count\": %d, \"build_ms\": %.3f,\n \"distance\": [",
           (int)w, (int)h, (int)goal.x, (int)goal.y, (int)tn_field_reachable_count(f),
           (int)tn_field_los_count(f), ms);
    for (int32_t y = 0; y < h; y++) {
        printf("%s[", y ? ",\n  " : "");
        for (int32_t x = 0; x < w; x++) {
            float d = tn_field_distance(f, x, y);
            if (isinf(d))
                printf("%snull", x ? ", " : "");
            else
                printf("%s%.9g", x ? ", " : "", (double)d);
        }
        printf("]");
    }
    printf("],\n \"dir\": [");
    for (int32_t y = 0; y < h; y++) {
        printf("%s[", y ? ",\n  " : "");
        for (int32_t x = 0; x < w; x++) {
            bool none = isinf(tn_field_distance(f, x, y)) || tn_field_distance(f, x, y) == 0.0f;
            printf("%s%d", x ? ", " : "", none ? -1 : (int)(tn_field_dir(f, x, y) & 7));
        }
        printf("]");
    }
    printf("],\n \"los\": [");
    for (int32_t y = 0; y < h; y++) {
        printf("%s[", y ? ",\n  " : "");
        for (int32_t x = 0; x < w; x++)
            printf("%s%d", x ? ", " : "", tn_field_los(f, x, y) ? 1 : 0);
        printf("]");
    }
    printf("]}\n");
}

static int write_csv(const tn_field *f, const char *path)
{
    errno = 0;
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    int32_t w = tn_field_width(f), h = tn_field_height(f);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            float d = tn_field_distance(f, x, y);
            if (isinf(d))
                fputs("-1", fp);
            else
                fprintf(fp, "%.9g", (double)d);
            fputc(x + 1 < w ? ',' : '\n', fp);
        }
    return fclose(fp) == 0 ? 0 : -1;
}

static int render_png(const tn_map *m, const tn_field *f, int32_t scale, const char *path)
{
    tn_picture p;
    int rc = tn_picture_begin(&p, m, scale, 32, "field");
    if (rc != TN_PICTURE_OK)
        return rc;
    tn_draw_field_opts o = tn_draw_field_opts_default();
    o.heat_alpha = 200; /* the map's art shows through a little */
    o.arrows = false;
    o.goals = false;
    if (tn_draw_field(&p.cv, &p.view, f, m, &o) != TN_OK ||
        tn_draw_los(&p.cv, &p.view, f, (tn_rgba){255, 255, 255, 110}) != TN_OK) {
        tn_picture_free(&p);
        return TN_PICTURE_NOMEM;
    }
    o.heat_alpha = 0; /* arrows and goals over the LOS tint */
    o.arrows = true;
    o.goals = true;
    o.unreachable.a = 0;
    (void)tn_draw_field(&p.cv, &p.view, f, m, &o);
    return tn_picture_write(&p, path);
}

/* CPU time of this thread in seconds: the machine the benchmarks run on is shared, so wall
 * time mostly measures waiting; both figures are printed. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int64_t n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Place and sell 2x2 towers; time tn_field_update against a full build of a second field. */
static int bench_towers(tn_map *m, tn_clearance *clear, int32_t size, tn_field *f,
                        const tn_field_def *def, tn_cell goal, int64_t n)
{
    const char *cmd = "field";
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    int32_t layer = -1;
    for (int32_t l = 0; l < tn_map_layer_count(m) && layer < 0; l++)
        if (tn_map_layer_kind(m, l) == TN_LAYER_TILES &&
            (tn_map_layer_flags(m, l) & TN_LAYER_TERRAIN))
            layer = l;
    const uint32_t tower = TN_MAX_TERRAIN_GID - 1;
    if (layer < 0 || tn_map_set_terrain(m, tower, (tn_terrain){false, 1.0f}) != TN_OK) {
        tn_cli_error(cmd, "the map has no terrain layer to place towers on");
        return TN_EXIT_INPUT;
    }
    tn_field *full = NULL;
    if (tn_field_create(def, &full) != TN_OK || tn_field_build(full, &goal, 1) != TN_OK ||
        tn_field_update(f, NULL, NULL) < 0) {
        tn_field_destroy(full);
        return TN_EXIT_NOMEM;
    }
    double *tu = malloc(sizeof(double) * (size_t)n * 2), *tf = malloc(sizeof(double) * (size_t)n);
    if (!tu || !tf) {
        free(tu);
        free(tf);
        tn_field_destroy(full);
        return TN_EXIT_NOMEM;
    }
    uint64_t s = 12345;
    int64_t done = 0, nu = 0, refused = 0;
    bool same = true;
    long long touched_sum = 0;
    while (done < n) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int32_t x = (int32_t)((s >> 33) % (uint64_t)(w - 1));
        int32_t y = (int32_t)((s >> 13) % (uint64_t)(h - 1));
        tn_cell cells[4] = {{x, y}, {x + 1, y}, {x, y + 1}, {x + 1, y + 1}};
        bool free_all = true;
        for (int k = 0; k < 4; k++)
            free_all = free_all && tn_map_passable(m, cells[k].x, cells[k].y);
        if (!free_all)
            continue;
        bool cut = false;
        tn_cell lost[4 * 64];
        int32_t nlost = 4;
        memcpy(lost, cells, sizeof cells);
        if (clear &&
            tn_clearance_anchors_over(clear, size, cells, 4, lost, 4 * 64, &nlost) != TN_OK) {
            same = false;
            break;
        }
        if (nlost > 0 &&
            (tn_field_would_wall_off(f, lost, nlost, &goal, 0, &cut) != TN_OK || cut)) {
            refused++;
            continue;
        }
        uint32_t old[4];
        for (int k = 0; k < 4; k++)
            old[k] = tn_map_get(m, layer, cells[k].x, cells[k].y);
        /* place */
        double t0 = cpu_now();
        for (int k = 0; k < 4; k++)
            if (tn_map_set(m, layer, cells[k].x, cells[k].y, tower) != TN_OK)
                same = false;
        int32_t touched = 0;
        if (clear && tn_clearance_update(clear, NULL) != TN_OK)
            same = false;
        tn_status st = tn_field_update(f, NULL, &touched);
        double t1 = cpu_now();
        touched_sum += touched;
        tu[nu++] = (t1 - t0) * 1e3;
        double t2 = cpu_now();
        tn_status st2 = tn_field_build(full, &goal, 1);
        double t3 = cpu_now();
        tf[done] = (t3 - t2) * 1e3;
        if (st != TN_OK || st2 != TN_OK)
            same = false;
        else
            same = same &&
                   memcmp(tn_field_distances(f), tn_field_distances(full),
                          sizeof(float) * (size_t)w * (size_t)h) == 0 &&
                   tn_field_los_count(f) == tn_field_los_count(full) &&
                   tn_field_reachable_count(f) == tn_field_reachable_count(full);
        for (int32_t yy = 0; yy < h && same && done < 3; yy++)
            for (int32_t xx = 0; xx < w; xx++)
                if (tn_field_dir(f, xx, yy) != tn_field_dir(full, xx, yy) ||
                    tn_field_los(f, xx, yy) != tn_field_los(full, xx, yy)) {
                    same = false;
                    break;
                }
        /* sell */
        t0 = cpu_now();
        for (int k = 0; k < 4; k++)
            if (tn_map_set(m, layer, cells[k].x, cells[k].y, old[k]) != TN_OK)
                same = false;
        if (clear && tn_clearance_update(clear, NULL) != TN_OK)
            same = false;
        st = tn_field_update(f, NULL, &touched);
        t1 = cpu_now();
        tu[nu++] = (t1 - t0) * 1e3;
        if (st != TN_OK)
            same = false;
        done++;
    }
    double mu = median(tu, nu), mf = median(tf, n);
    fprintf(tn_cli_lines(),
            "towers placed=%lld sold=%lld refused=%lld cpu_update_ms=%.4f cpu_full_ms=%.4f "
            "speedup=%.1f "
            "touched_avg=%.0f identical=%s\n",
            (long long)n, (long long)n, (long long)refused, mu, mf, mf / mu,
            (double)touched_sum / (double)n, same ? "yes" : "no");
    free(tu);
    free(tf);
    tn_field_destroy(full);
    return same ? TN_EXIT_OK : TN_EXIT_FAIL;
}

int tn_cmd_field(int argc, char **argv)
{
    const char *cmd = "field";
    opts o;
    int r = parse(argc, argv, &o);
    if (r < 0)
        return TN_EXIT_OK;
    if (r > 0)
        return r;
    tn_map *m = NULL;
    tn_diag diag;
    memset(&diag, 0, sizeof diag);
    o.load.on_file = tn_cli_input_hook;
    tn_status st = tn_map_load(o.map, &o.load, &m, &diag);
    if (st != TN_OK) {
        char buf[1024];
        return tn_cli_load_failed(cmd, &diag, st, buf, sizeof buf);
    }
    int out_rc = tn_picture_check_output(cmd, m, o.png, (int32_t)o.scale, 32);
    if (out_rc == TN_EXIT_OK)
        out_rc = tn_cli_check_output(cmd, "--out", o.out);
    if (out_rc == TN_EXIT_OK && o.png && o.out && strcmp(o.png, o.out) == 0)
        out_rc = tn_cli_usage_error(cmd, "--png and --out name the same file '%s'", o.png);
    if (out_rc != TN_EXIT_OK) {
        tn_map_destroy(m);
        return out_rc;
    }
    if (o.gx >= tn_map_width(m) || o.gy >= tn_map_height(m)) {
        int rc = tn_cli_usage_error(
            cmd, "goal (%lld, %lld) is outside the %d x %d map (x 0..%d, y 0..%d)", (long long)o.gx,
            (long long)o.gy, tn_map_width(m), tn_map_height(m), tn_map_width(m) - 1,
            tn_map_height(m) - 1);
        tn_map_destroy(m);
        return rc;
    }
    /* units of size > 1: the field is built on the size map of a clearance */
    tn_clearance *clear = NULL;
    const tn_map *walk = m;
    int32_t size = o.size > 1 ? (int32_t)o.size : 1;
    if (size > 1) {
        tn_clearance_def cd = tn_clearance_def_default();
        cd.map = m;
        cd.max_size = size;
        st = tn_clearance_create(&cd, &clear);
        if (st != TN_OK) {
            tn_cli_error(cmd, "clearance: %s", tn_status_str(st));
            tn_map_destroy(m);
            return tn_cli_exit_for(st);
        }
        walk = tn_clearance_map(clear, size);
    }
    tn_field_def def = tn_field_def_default();
    def.map = walk;
    def.moves = o.moves;
    def.flow = o.flow;
    def.los = o.los;
    int32_t nthreads = o.threads > 1 ? (int32_t)o.threads : 1;
    if (nthreads > 1) {
        def.parallel_for = tn_cli_thread_for;
        def.parallel_user = &nthreads;
    }
    tn_field *f = NULL;
    st = tn_field_create(&def, &f);
    tn_cell goal = {(int32_t)o.gx, (int32_t)o.gy};
    double t0 = tn_cli_now();
    if (st == TN_OK)
        st = tn_field_build(f, &goal, 1);
    double ms = (tn_cli_now() - t0) * 1e3;
    if (st != TN_OK) {
        if (st == TN_E_GOAL_BLOCKED && size > 1)
            tn_cli_error(cmd, "a %dx%d unit does not fit with its top-left cell at (%d, %d)",
                         (int)size, (int)size, (int)goal.x, (int)goal.y);
        else if (st == TN_E_GOAL_BLOCKED)
            tn_cli_error(cmd, "the goal cell (%d, %d) is blocked", (int)goal.x, (int)goal.y);
        else
            tn_cli_error(cmd, "%s", tn_status_str(st));
        tn_field_destroy(f);
        tn_clearance_destroy(clear);
        tn_map_destroy(m);
        return tn_cli_exit_for(st);
    }
    if (o.json)
        print_json(m, f, goal, ms);
    else
        printf("field width=%d height=%d reachable=%d los=%d build_ms=%.3f\n", tn_map_width(m),
               tn_map_height(m), tn_field_reachable_count(f), tn_field_los_count(f), ms);
    int rc = TN_EXIT_OK;
    if (o.ascii)
        print_ascii(m, walk, f);
    if (o.png) {
        int pr = render_png(m, f, (int32_t)o.scale, o.png);
        if (pr != 0) {
            tn_cli_error(cmd, "%s: %s", o.png, tn_picture_error(pr));
            rc =
                pr == TN_PICTURE_TOO_BIG || pr == TN_PICTURE_NOMEM ? TN_EXIT_NOMEM : TN_EXIT_OUTPUT;
        }
    }
    if (o.out && write_csv(f, o.out) != 0) {
        tn_cli_error(cmd, "%s: cannot write: %s", o.out, errno ? strerror(errno) : "write error");
        rc = TN_EXIT_OUTPUT;
    }
    if (rc == TN_EXIT_OK && o.bench > 0) {
        double *t = malloc(sizeof(double) * (size_t)o.bench * 2);
        if (!t) {
            rc = TN_EXIT_NOMEM;
        } else {
            double *c = t + o.bench;
            for (int64_t i = 0; i < o.bench && st == TN_OK; i++) {
                double a = tn_cli_now(), ca = cpu_now();
                st = tn_field_build(f, &goal, 1);
                c[i] = (cpu_now() - ca) * 1e3;
                t[i] = (tn_cli_now() - a) * 1e3;
            }
            double mn = t[0], cmn = c[0];
            for (int64_t i = 1; i < o.bench; i++) {
                mn = t[i] < mn ? t[i] : mn;
                cmn = c[i] < cmn ? c[i] : cmn;
            }
            fprintf(tn_cli_lines(),
                    "bench builds=%lld median_ms=%.3f min_ms=%.3f cpu_median_ms=%.3f "
                    "cpu_min_ms=%.3f bytes_per_cell=%.2f\n",
                    (long long)o.bench, median(t, o.bench), mn, median(c, o.bench), cmn,
                    (double)tn_field_memory_bytes(f) /
                        ((double)tn_map_width(m) * (double)tn_map_height(m)));
            free(t);
        }
    }
    if (rc == TN_EXIT_OK && o.sectors > 0)
        rc = tn_cli_field_sectors(walk, o.moves, f, goal, o.sectors, o.cluster,
                                  o.sector_size ? o.sector_size : 32,
                                  o.budget_kb ? o.budget_kb : 4096,
                                  nthreads > 1 ? tn_cli_thread_for : NULL, &nthreads, ms);
    if (rc == TN_EXIT_OK && o.towers > 0)
        rc = bench_towers(m, clear, size, f, &def, goal, o.towers);
    tn_field_destroy(f);
    tn_clearance_destroy(clear);
    tn_map_destroy(m);
    return rc;
}
