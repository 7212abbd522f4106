/* tilenav bench MAP SCEN --algo hpa|hpa-exact: Moving AI scenarios through the hierarchical
 * search (hierarchy.h). Called by cmd_bench.c for those two algorithms; prints the bench's
 * line with the suboptimality added, the build time on stderr, and on request the time of a
 * local update after 2 x 2 edits. --write-optimal writes a .scen with optimal lengths. */
#include "cli.h"
#include "tilenav/hierarchy.h"
#include "tilenav/io.h"
#include "tilenav/search.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int tn_bench_hpa(int argc, char **argv);
bool tn_bench_hpa_option(const char *opt);

static void usage_hpa(FILE *f)
{
    fprintf(f,
            "usage: tilenav bench MAP SCEN --algo hpa|hpa-exact [--limit N] [--spread N]\n"
            "                     [--warmup K] [--sector N] [--gap N] [--landmarks K]\n"
            "                     [--weight W] [--corridor N] [--no-bound] [--edits N]\n"
            "                     [--write-optimal OUT]\n\n"
            "Hierarchical search (tilenav/hierarchy.h) on the scenarios, after a build timed on\n"
            "stderr. hpa is the fast mode: each path is checked (legal steps, cost at least the\n"
            "optimum, and at most the optimum plus K times the bound per crossing, K = the\n"
            "sector-changing steps of JPS's optimal path; --no-bound skips that JPS run); the\n"
            "line adds subopt_mean and subopt_max (cost / optimum - 1) and bound_max (the\n"
            "largest share of its allowance a path used). hpa-exact must match every optimum;\n"
            "its line adds proven=N (queries answered without the grid search).\n"
            "  algo=hpa scenarios=N mismatches=M median_us=X mean_us=X p99_us=X total_ms=X "
            "subopt_mean=X subopt_max=X bound_max=X\n\n"
            "  --sector N   sector side (default 32)      --gap N  portal gap (default 0: ends)\n"
            "  --landmarks K  ALT landmarks (default 0)   --weight W  abstract search weight\n"
            "               (default 1; the bound becomes W * (optimum + K * bound))\n"
            "  --corridor N refine by A* over N sectors of the route at a time (default 0)\n"
            "  --edits N    then N random 2 x 2 walls on open cells, each followed by\n"
            "               tn_hierarchy_update() and undone; the line adds edits=N and\n"
            "               update_{,cpu_}{median,p99,max}_us (wall and CPU time of the\n"
            "               wall's update), update_sectors_mean, update_sectors_max\n"
            "  --write-optimal OUT  write the scenarios that have a path to OUT with their\n"
            "               optimal lengths (JPS) and stop (for generated scenario files;\n"
            "               exit status 4 when OUT cannot be written)\n");
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Legal under the benchmark's rule (8 neighbours, no corner cutting)? */
static bool legal(const tn_map *m, const tn_cell *p, int32_t n, tn_cell s, tn_cell g)
{
    if (n < 1 || p[0].x != s.x || p[0].y != s.y || p[n - 1].x != g.x || p[n - 1].y != g.y)
        return false;
    for (int32_t i = 1; i < n; i++) {
        int32_t dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy) ||
            !tn_map_passable(m, p[i].x, p[i].y))
            return false;
        if (dx && dy &&
            (!tn_map_passable(m, p[i - 1].x + dx, p[i - 1].y) ||
             !tn_map_passable(m, p[i - 1].x, p[i - 1].y + dy)))
            return false;
    }
    return true;
}

static int write_optimal(const char *cmd, const char *mapf, const tn_map *map,
                         const tn_scenarios *sc, const int32_t *sel, int32_t nsel, const char *outf)
{
    FILE *f = fopen(outf, "w");
    if (!f) {
        tn_cli_error(cmd, "cannot write %s: %s", outf, strerror(errno));
        return TN_EXIT_OUTPUT;
    }
    tn_search_def def = tn_search_def_default();
    tn_search *ctx = NULL;
    size_t cells = (size_t)tn_map_width(map) * (size_t)tn_map_height(map);
    tn_cell *path = malloc(cells * sizeof *path);
    if (!path || tn_search_create(&def, &ctx) != TN_OK) {
        fclose(f);
        free(path);
        return TN_EXIT_NOMEM;
    }
    const char *base = strrchr(mapf, '/');
    base = base ? base + 1 : mapf;
    fprintf(f, "version 1\n");
    int32_t kept = 0;
    for (int32_t k = 0; k < nsel; k++) {
        const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = TN_ALGO_JPS;
        q.jps_fallback = true;
        tn_search_result r;
        if (tn_search_path(ctx, map, s->start, s->goal, &q, path, (int32_t)cells, &r) != TN_OK)
            continue;
        fprintf(f, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n", (int)(r.cost / 4.0), base,
                (int)tn_map_width(map), (int)tn_map_height(map), (int)s->start.x, (int)s->start.y,
                (int)s->goal.x, (int)s->goal.y, r.cost);
        kept++;
    }
    fclose(f);
    free(path);
    tn_search_destroy(ctx);
    fprintf(stderr, "wrote %d of %d scenarios (those with a path) to %s\n", (int)kept, (int)nsel,
            outf);
    return TN_EXIT_OK;
}

/* CPU time of this thread in seconds (the benchmarks' machine is shared: wall time partly
 * measures waiting; both are printed). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The update times of --edits (µs): wall and CPU median, p99 and max, sectors rebuilt. */
typedef struct edit_times {
    int32_t n, most;
    double median, p99, max, cpu_median, cpu_p99, cpu_max, sectors;
} edit_times;

static void spread(double *us, int32_t n, double *median, double *p99, double *max)
{
    qsort(us, (size_t)n, sizeof *us, cmp_d);
    *median = us[n / 2];
    *p99 = us[(int32_t)ceil(0.99 * n) - 1];
    *max = us[n - 1];
}

/* N random 2 x 2 walls on open cells of layer 0 ('@' where the map has it, else the gid of
 * the first blocked cell), each followed by an update, then undone and updated again. */
static int edits_bench(const char *cmd, tn_map *map, tn_hierarchy *h, int32_t n, edit_times *et)
{
    const int32_t w = tn_map_width(map), hh = tn_map_height(map);
    const uint32_t *data = tn_map_layer_data(map, 0);
    if (!data) {
        tn_cli_error(cmd, "--edits: the map has no tile layer");
        return TN_EXIT_INPUT;
    }
    uint32_t wall = 0;
    for (int32_t i = 0; i < w * hh && !wall; i++)
        if (!tn_map_passable(map, i % w, i / w))
            wall = data[i];
    if (!wall) {
        tn_cli_error(cmd, "--edits: the map has no blocked cell to copy");
        return TN_EXIT_INPUT;
    }
    double *us = malloc((size_t)n * sizeof *us), *cpu = malloc((size_t)n * sizeof *cpu);
    if (!us || !cpu) {
        free(us);
        free(cpu);
        return TN_EXIT_NOMEM;
    }
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int32_t done = 0, sectors = 0, most = 0;
    while (done < n) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        int32_t x = (int32_t)(rng % (uint64_t)(w - 1)),
                y = (int32_t)((rng >> 32) % (uint64_t)(hh - 1));
        if (!tn_map_passable(map, x, y))
            continue;
        uint32_t old[4];
        for (int k = 0; k < 4; k++)
            old[k] = tn_map_layer_data(map, 0)[(y + k / 2) * w + x + k % 2];
        tn_status st = tn_map_fill(map, 0, (tn_rect){x, y, x + 2, y + 2}, wall);
        double t0 = tn_cli_now(), c0 = cpu_now();
        int32_t rebuilt = 0;
        if (st == TN_OK)
            st = tn_hierarchy_update(h, &rebuilt);
        cpu[done] = (cpu_now() - c0) * 1e6;
        us[done] = (tn_cli_now() - t0) * 1e6;
        sectors += rebuilt;
        most = rebuilt > most ? rebuilt : most;
        for (int k = 0; k < 4 && st == TN_OK; k++)
            st = tn_map_set(map, 0, x + k % 2, y + k / 2, old[k]);
        if (st == TN_OK)
            st = tn_hierarchy_update(h, NULL);
        if (st != TN_OK) {
            free(us);
            free(cpu);
            tn_cli_error(cmd, "--edits: %s", tn_status_str(st));
            return tn_cli_exit_for(st);
        }
        done++;
    }
    et->n = n;
    et->most = most;
    et->sectors = (double)sectors / (double)n;
    spread(us, n, &et->median, &et->p99, &et->max);
    spread(cpu, n, &et->cpu_median, &et->cpu_p99, &et->cpu_max);
    fprintf(stderr,
            "hierarchy: update after a 2x2 wall: median %.1f us, p99 %.1f us, max %.1f us "
            "(CPU: median %.1f us, p99 %.1f us, max %.1f us; %d edits, %.2f sectors rebuilt on "
            "average, at most %d)\n",
            et->median, et->p99, et->max, et->cpu_median, et->cpu_p99, et->cpu_max, (int)n,
            et->sectors, (int)most);
    free(us);
    free(cpu);
    return TN_EXIT_OK;
}

/* Is `opt` one of the options only --algo hpa and hpa-exact take (the parser below)? */
bool tn_bench_hpa_option(const char *opt)
{
    static const char *const only[] = {"--sector", "--gap",   "--landmarks", "--corridor",
                                       "--weight", "--edits", "--no-bound",  "--write-optimal"};
    for (size_t k = 0; k < sizeof only / sizeof only[0]; k++)
        if (strcmp(opt, only[k]) == 0)
            return true;
    return false;
}

int tn_bench_hpa(int argc, char **argv)
{
    const char *cmd = "bench";
    const char *mapf = NULL, *scenf = NULL, *algo = NULL, *write = NULL;
    int64_t limit = 0, spread = 0, warmup = 20, sector = 32, gap = 0, edits = 0, landmarks = 0;
    double weight = 1.0;
    int64_t corridor = 0;
    bool bound = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (tn_cli_is_help(a)) {
            usage_hpa(stdout);
            return TN_EXIT_OK;
        } else if (strcmp(a, "--algo") == 0 && i + 1 < argc) {
            algo = argv[++i];
        } else if (strcmp(a, "--no-bound") == 0) {
            bound = false;
        } else if (strcmp(a, "--write-optimal") == 0 && i + 1 < argc) {
            write = argv[++i];
        } else if (strcmp(a, "--limit") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT32_MAX, &limit))
                return tn_cli_usage_error(cmd, "bad --limit '%s'", argv[i]);
        } else if (strcmp(a, "--spread") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT32_MAX, &spread))
                return tn_cli_usage_error(cmd, "bad --spread '%s'", argv[i]);
        } else if (strcmp(a, "--warmup") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT32_MAX, &warmup))
                return tn_cli_usage_error(cmd, "bad --warmup '%s'", argv[i]);
        } else if (strcmp(a, "--sector") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 4, 256, &sector))
                return tn_cli_usage_error(cmd, "bad --sector '%s' (4..256)", argv[i]);
        } else if (strcmp(a, "--gap") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, 256, &gap))
                return tn_cli_usage_error(cmd, "bad --gap '%s' (0..sector)", argv[i]);
        } else if (strcmp(a, "--landmarks") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, 16, &landmarks))
                return tn_cli_usage_error(cmd, "bad --landmarks '%s' (0..16)", argv[i]);
        } else if (strcmp(a, "--corridor") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, 64, &corridor) || corridor == 1)
                return tn_cli_usage_error(cmd, "bad --corridor '%s' (0, 2..64)", argv[i]);
        } else if (strcmp(a, "--weight") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_double(argv[++i], 1.0, 100.0, &weight))
                return tn_cli_usage_error(cmd, "bad --weight '%s' (1..100)", argv[i]);
        } else if (strcmp(a, "--edits") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, 1000000, &edits))
                return tn_cli_usage_error(cmd, "bad --edits '%s'", argv[i]);
        } else if (strcmp(a, "--json") == 0) {
            return tn_cli_usage_error(cmd, "--algo %s prints key=value lines: it takes no --json",
                                      algo ? algo : "hpa");
        } else if (a[0] == '-' && a[1]) {
            return tn_cli_usage_error(cmd, "unknown option '%s' for --algo %s", a,
                                      algo ? algo : "hpa");
        } else if (!mapf) {
            mapf = a;
        } else if (!scenf) {
            scenf = a;
        } else {
            return tn_cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    const bool exact = algo && strcmp(algo, "hpa-exact") == 0;
    if (!mapf || !scenf)
        return tn_cli_usage_error(cmd, "missing %s (usage: tilenav bench MAP SCEN --algo hpa)",
                                  !mapf ? "MAP" : "SCEN");
    if (strncmp(scenf, "random", 6) == 0 && (scenf[6] == 0 || scenf[6] == ':'))
        return tn_cli_usage_error(cmd, "random queries are for --algo astar, jps, jps+ and "
                                       "dijkstra; --algo hpa needs a .scen file (the optima)");
    if (gap > sector)
        return tn_cli_usage_error(cmd, "--gap %d is past --sector %d", (int)gap, (int)sector);
    tn_diag diag;
    memset(&diag, 0, sizeof diag);
    tn_map *map = NULL;
    const double l0 = tn_cli_now(), lc0 = cpu_now();
    tn_load_def lopts = tn_load_def_default();
    lopts.on_file = tn_cli_input_hook;
    tn_status st = tn_map_load(mapf, &lopts, &map, &diag);
    if (st == TN_OK)
        fprintf(stderr, "map: %dx%d loaded in %.1f ms (CPU %.1f ms)\n", (int)tn_map_width(map),
                (int)tn_map_height(map), (tn_cli_now() - l0) * 1e3, (cpu_now() - lc0) * 1e3);
    tn_scenarios *sc = NULL;
    if (st == TN_OK)
        st = tn_scenarios_load(scenf, NULL, &sc, &diag);
    if (st != TN_OK) {
        char msg[1024];
        tn_map_destroy(map);
        return tn_cli_load_failed(cmd, &diag, st, msg, sizeof msg);
    }
    tn_cli_input(scenf);
    int out_rc = tn_cli_check_output(cmd, "--write-optimal", write);
    if (out_rc != TN_EXIT_OK) {
        tn_scenarios_destroy(sc);
        tn_map_destroy(map);
        return out_rc;
    }
    const int32_t ns = tn_scenarios_count(sc);
    int32_t *sel = malloc((size_t)(ns > 0 ? ns : 1) * sizeof *sel);
    /* the same selection as the other algorithms */
    int32_t nsel = sel ? tn_cli_select_scenarios(ns, limit, spread, sel) : 0;
    int rc = sel ? TN_EXIT_OK : TN_EXIT_NOMEM;
    for (int32_t i = 0; i < nsel && rc == TN_EXIT_OK; i++) {
        const tn_scenario *s = tn_scenarios_at(sc, sel[i]);
        if (s->map_width != tn_map_width(map) || s->map_height != tn_map_height(map)) {
            tn_cli_error(cmd, "scenario %d is for a %dx%d map, %s is %dx%d", (int)sel[i],
                         (int)s->map_width, (int)s->map_height, mapf, (int)tn_map_width(map),
                         (int)tn_map_height(map));
            rc = TN_EXIT_INPUT;
        }
    }
    if (rc == TN_EXIT_OK && write) {
        rc = write_optimal(cmd, mapf, map, sc, sel, nsel, write);
        free(sel);
        tn_scenarios_destroy(sc);
        tn_map_destroy(map);
        return rc;
    }
    tn_hierarchy *h = NULL;
    tn_hierarchy_ctx *ctx = NULL;
    tn_search *jps = NULL;
    const size_t cells = (size_t)tn_map_width(map) * (size_t)tn_map_height(map);
    tn_cell *path = malloc(cells * sizeof *path), *opath = malloc(cells * sizeof *opath);
    double *us = malloc((size_t)(nsel > 0 ? nsel : 1) * sizeof *us);
    double *costs = malloc((size_t)(nsel > 0 ? nsel : 1) * sizeof *costs);
    if (rc == TN_EXIT_OK && (!path || !opath || !us || !costs))
        rc = TN_EXIT_NOMEM;
    if (rc == TN_EXIT_OK) {
        tn_hierarchy_def hd = tn_hierarchy_def_default();
        hd.map = map;
        hd.sector_size = (int32_t)sector;
        hd.portal_gap = (int32_t)gap;
        hd.landmarks = (int32_t)landmarks;
        double t0 = tn_cli_now();
        st = tn_hierarchy_build(&hd, &h);
        double t1 = tn_cli_now();
        tn_hierarchy_ctx_def cd = tn_hierarchy_ctx_def_default();
        cd.weight = (float)weight;
        cd.corridor = (int32_t)corridor;
        if (st == TN_OK)
            st = tn_hierarchy_ctx_create(&cd, &ctx);
        if (st == TN_OK)
            st = tn_hierarchy_ctx_reserve(ctx, h, exact);
        tn_search_def sd = tn_search_def_default();
        if (st == TN_OK && bound && !exact)
            st = tn_search_create(&sd, &jps);
        if (st != TN_OK) {
            tn_cli_error(cmd, "hierarchy: %s", tn_status_str(st));
            rc = tn_cli_exit_for(st);
        } else {
            tn_hierarchy_stats hs;
            tn_hierarchy_stats_get(h, &hs);
            fprintf(stderr,
                    "hierarchy: build %.3f ms, %dx%d sectors of %d, %d nodes, %lld intra edges, "
                    "%lld inter edges, %zu bytes (context %zu bytes)\n",
                    (t1 - t0) * 1e3, (int)hs.sectors_x, (int)hs.sectors_y, (int)sector,
                    (int)hs.nodes, (long long)hs.intra_edges, (long long)hs.inter_edges,
                    tn_hierarchy_memory_bytes(h), tn_hierarchy_ctx_memory_bytes(ctx));
        }
    }
    const tn_hierarchy_mode mode = exact ? TN_HIERARCHY_EXACT : TN_HIERARCHY_FAST;
    int32_t mism = 0, ran = 0, proven = 0, over = 0;
    double total = 0.0, sub_sum = 0.0, sub_max = 0.0, share_max = 0.0;
    const double per = h ? tn_hierarchy_crossing_bound(h) : 0.0;
    for (int32_t k = 0; k < warmup && k < nsel && rc == TN_EXIT_OK; k++) {
        const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
        tn_status w =
            tn_hierarchy_path(ctx, h, s->start, s->goal, mode, path, (int32_t)cells, NULL);
        (void)w;
    }
    for (int32_t k = 0; k < nsel && rc == TN_EXIT_OK; k++) {
        const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
        costs[k] = (double)NAN;
        tn_hierarchy_result r;
        double t0 = tn_cli_now();
        st = tn_hierarchy_path(ctx, h, s->start, s->goal, mode, path, (int32_t)cells, &r);
        double t1 = tn_cli_now();
        us[ran++] = (t1 - t0) * 1e6;
        total += (t1 - t0) * 1e6;
        proven += r.proven;
        bool ok = st == TN_OK && legal(map, path, r.length, s->start, s->goal);
        double sub = s->optimal > 0 ? r.cost / s->optimal - 1.0 : 0.0;
        if (exact) {
            ok = ok && tn_scenario_matches(s, r.cost);
        } else if (ok) {
            ok = r.cost >= s->optimal - 1e-3 - 1e-4 * s->optimal || tn_scenario_matches(s, r.cost);
            sub = sub < 0 ? 0 : sub;
            sub_sum += sub;
            sub_max = sub > sub_max ? sub : sub_max;
            costs[k] = r.cost; /* the bound is checked after the timed loop */
        }
        if (!ok) {
            if (mism < 5)
                tn_cli_error(cmd,
                             "%s: scenario %d (%d,%d)->(%d,%d): status %s, cost %.6f, "
                             "expected %.6f",
                             exact ? "hpa-exact" : "hpa", (int)sel[k], (int)s->start.x,
                             (int)s->start.y, (int)s->goal.x, (int)s->goal.y, tn_status_str(st),
                             r.cost, s->optimal);
            mism++;
        }
    }
    /* the bound, with K from JPS's optimal path (after the timed loop, whose caches it would
     * otherwise flush) */
    for (int32_t k = 0; k < nsel && rc == TN_EXIT_OK && jps; k++) {
        const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
        if (isnan(costs[k]))
            continue;
        tn_query q;
        memset(&q, 0, sizeof q);
        q.algo = TN_ALGO_JPS;
        q.jps_fallback = true;
        tn_search_result jr;
        if (tn_search_path(jps, map, s->start, s->goal, &q, opath, (int32_t)cells, &jr) != TN_OK)
            continue;
        int32_t cross = 0;
        for (int32_t i = 1; i < jr.length; i++)
            cross += tn_hierarchy_sector_of(h, opath[i]) != tn_hierarchy_sector_of(h, opath[i - 1]);
        /* weighted: cost <= weight * (optimum + allowance) */
        double allow = (weight - 1.0) * jr.cost + weight * (double)cross * per;
        double used = costs[k] - jr.cost;
        if (used > allow + 1e-6 * (1.0 + jr.cost)) {
            if (over < 5)
                tn_cli_error(cmd, "hpa: scenario %d: cost %.6f over the bound %.6f", (int)sel[k],
                             costs[k], jr.cost + allow);
            over++;
            mism++;
        }
        double share = allow > 0 ? used / allow : 0.0;
        share_max = share > share_max ? share : share_max;
    }
    edit_times et;
    memset(&et, 0, sizeof et);
    if (rc == TN_EXIT_OK && edits > 0)
        rc = edits_bench(cmd, map, h, (int32_t)edits, &et);
    if (rc == TN_EXIT_OK) {
        qsort(us, (size_t)ran, sizeof *us, cmp_d);
        double median = ran ? (ran % 2 ? us[ran / 2] : 0.5 * (us[ran / 2 - 1] + us[ran / 2])) : 0;
        int32_t p = ran ? (int32_t)ceil(0.99 * (double)ran) - 1 : 0;
        printf("algo=%s scenarios=%d mismatches=%d median_us=%.3f mean_us=%.3f p99_us=%.3f "
               "total_ms=%.3f",
               exact ? "hpa-exact" : "hpa", (int)ran, (int)mism, median, ran ? total / ran : 0.0,
               ran ? us[p < 0 ? 0 : p] : 0.0, total / 1000.0);
        if (weight != 1.0)
            printf(" weight=%g", weight);
        if (corridor > 0)
            printf(" corridor=%d", (int)corridor);
        if (exact)
            printf(" proven=%d", (int)proven);
        else
            printf(" subopt_mean=%.6f subopt_max=%.6f bound_max=%s%.4f", ran ? sub_sum / ran : 0.0,
                   sub_max, jps ? "" : "unchecked:", jps ? share_max : 0.0);
        if (edits > 0)
            printf(" edits=%d update_median_us=%.1f update_p99_us=%.1f update_max_us=%.1f "
                   "update_cpu_median_us=%.1f update_cpu_p99_us=%.1f update_cpu_max_us=%.1f "
                   "update_sectors_mean=%.2f update_sectors_max=%d",
                   (int)et.n, et.median, et.p99, et.max, et.cpu_median, et.cpu_p99, et.cpu_max,
                   et.sectors, (int)et.most);
        printf("\n");
        if (over)
            tn_cli_error(cmd, "%d paths over the bound", (int)over);
        rc = mism ? TN_EXIT_FAIL : TN_EXIT_OK;
    }
    tn_search_destroy(jps);
    tn_hierarchy_ctx_destroy(ctx);
    tn_hierarchy_destroy(h);
    free(path);
    free(opath);
    free(us);
    free(costs);
    free(sel);
    tn_scenarios_destroy(sc);
    tn_map_destroy(map);
    return rc;
}
