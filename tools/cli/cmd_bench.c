/* tilenav bench MAP SCEN: run Moving AI scenarios through the searches, check every length
 * against the scenario's optimum and print timing figures per algorithm. */
#include "cli.h"
#include "tilenav/clearance.h"
#include "tilenav/io.h"
#include "tilenav/regions.h"
#include "tilenav/search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tn_cmd_bench(int argc, char **argv);
extern const char tn_cmd_bench_summary[];
const char tn_cmd_bench_summary[] =
    "time A*, JPS, JPS+, Dijkstra or HPA* on a Moving AI .scen file or random queries";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tilenav bench MAP SCEN|random[:N[:SEED]]\n"
            "                     [--algo astar|jps|jps+|dijkstra|all|hpa|hpa-exact]\n"
            "                     [--limit N] [--spread N] [--warmup K] [--goal-bounds]\n"
            "                     [--size N]"
            " [--terrain mud|roads[:SEED]] [--rounds R]\n"
            "                     [--threads T] [--json]\n\n"
            "Runs the scenarios of a Moving AI .scen file on MAP (8 neighbours, no corner\n"
            "cutting, costs 1 and sqrt 2: the benchmark's rule), checks each path (legal steps,\n"
            "length equal to the scenario's optimum within the rounding of the file) and prints\n"
            "one line per algorithm:\n"
            "  algo=astar scenarios=N mismatches=M median_us=X mean_us=X p99_us=X total_ms=X\n"
            "Times are microseconds per query around tn_search_path(), after K untimed\n"
            "warm-up queries (default 20).\n\n"
            "SCEN may be random, random:N or random:N:SEED instead of a file, for a map that\n"
            "has none (a Tiled map of your own): N queries (1..100000, default 200) between open\n"
            "cells drawn from splitmix64(SEED) (default 1), each pair connected for the unit's\n"
            "size (tn_regions); each path is checked against the benchmark's own Dijkstra, as\n"
            "for --terrain, and the lines end with queries=random:N:SEED.\n\n"
            "  --algo A     astar (default), jps, dijkstra, all (the three), or jps+ (JPS over\n"
            "               a precomputed jump table; its build time is printed on stderr), or\n"
            "               a comma-separated list of those names (astar,jps,jps+ or\n"
            "               all,jps+);\n"
            "               hpa or hpa-exact (alone): hierarchical search (`--algo hpa --help`)\n"
            "  --limit N    only the first N scenarios (0: all of them)\n"
            "  --spread N   N scenarios spread evenly over the file (as the peers' --spread;\n"
            "               it takes the place of --limit)\n"
            "  --warmup K   untimed queries before timing (default 20)\n"
            "  --rounds R   time the scenarios R times over (1..100, default 1), in the same\n"
            "               order, and keep each scenario's fastest time: the spikes of a\n"
            "               shared machine drop out of the median (a scenario comes back only\n"
            "               after all the others, so its caches are not kept warm for it); the\n"
            "               lines end with rounds=R\n"
            "  --goal-bounds  JPS and JPS+ prune by goal bounds built first (an offline step:\n"
            "               its time is printed on stderr, about 17 s for den520d); the lines\n"
            "               end with goal_bounds=1\n"
            "  --size N     units of N x N cells (1..8): searches with tn_query.size on the\n"
            "               clearance's size-N map; each path is checked step by step against\n"
            "               the grid eroded by brute force (every footprint passable, no corner\n"
            "               cutting for the whole unit) and its cost against a Dijkstra on that\n"
            "               grid run by the benchmark itself (for N = 1: the scenario's optimum).\n"
            "               Scenarios whose start or goal cannot hold the unit are counted in\n"
            "               unfit=K and not run. The lines read\n"
            "               algo=jps size=N scenarios=N mismatches=M unfit=K median_us=X ...\n");
    fputs("  --terrain mud[:SEED]  lay seeded mud over the map first (cost 3 on the ground's\n"
          "               cost 1, walls unchanged): W*H/1000 discs (rounded) of radius 3..12\n"
          "               at uniform centres, drawn from splitmix64(SEED), SEED 1 by default.\n"
          "               The scenarios' optima then no longer hold: each path is checked\n"
          "               against the benchmark's own Dijkstra (as for --size, with the cost\n"
          "               of the footprint's costliest cell), within a relative 1e-9; the\n"
          "               lines end with terrain=mud:SEED\n"
          "  --terrain roads[:SEED]  the other way round: all ground becomes mud (cost 3),\n"
          "               crossed by roads of cost 1, two cells wide, horizontal and vertical,\n"
          "               16..31 cells apart (uniform), from splitmix64(SEED); checked the\n"
          "               same way; the lines end with terrain=roads:SEED\n"
          "  --threads T  also run the scenarios as one batch (tn_search_batch) on 1 and on T\n"
          "               threads (1..16), each with its own search context, and print per\n"
          "               algorithm a line (wall time, best of 5 runs):\n"
          "               batch algo=astar threads=T queries=N wall_ms_1=X wall_ms=Y speedup=Z\n"
          "               identical=yes   (every path equal to the one-at-a-time run's)\n"
          "  --json       one JSON object instead of the text lines (--threads' batch\n"
          "               lines then go to standard error)\n\n"
          "Exit status: 0 every scenario matched, 1 some scenario mismatched, 2 bad arguments,\n"
          "3 the map or scenarios cannot be read or parsed (or, for SCEN random, the map has\n"
          "too few open cells connected to each other), 4 (--algo hpa --write-optimal) the\n"
          "file cannot be written, 5 out of memory or past a limit, 6 internal error.\n",
          f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median (mean of the middle two for even counts) and p99 of sorted values. */
static double median_of(const double *v, int32_t n)
{
    if (n == 0)
        return 0.0;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double p99_of(const double *v, int32_t n)
{
    if (n == 0)
        return 0.0;
    int32_t k = (int32_t)ceil(0.99 * (double)n) - 1;
    return v[k < 0 ? 0 : k];
}

/* The grid a unit of `size` walks, by brute force from the map (not from tn_clearance): cell
 * (x, y) is open when every cell of the size x size square from it is passable. */
typedef struct eroded {
    int32_t w, h;
    uint8_t *open;
    float *cost; /* where open: the largest cost under the square */
} eroded;

static bool eroded_make(const tn_map *map, int32_t size, eroded *e)
{
    e->w = tn_map_width(map);
    e->h = tn_map_height(map);
    e->open = malloc((size_t)e->w * (size_t)e->h);
    e->cost = malloc((size_t)e->w * (size_t)e->h * sizeof *e->cost);
    if (!e->open || !e->cost)
        return false;
    for (int32_t y = 0; y < e->h; y++)
        for (int32_t x = 0; x < e->w; x++) {
            bool fits = true;
            float worst = 0.0f;
            for (int32_t dy = 0; dy < size && fits; dy++)
                for (int32_t dx = 0; dx < size && fits; dx++) {
                    fits = tn_map_passable(map, x + dx, y + dy);
                    float c = tn_map_cost(map, x + dx, y + dy);
                    worst = fits && c > worst ? c : worst;
                }
            e->open[(size_t)y * (size_t)e->w + (size_t)x] = fits;
            e->cost[(size_t)y * (size_t)e->w + (size_t)x] = worst;
        }
    return true;
}

static bool eroded_open(const eroded *e, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < e->w && y < e->h &&
           e->open[(size_t)y * (size_t)e->w + (size_t)x];
}

/* Is every step legal under the benchmark's rule (adjacent, open, no corner cutting) on the
 * eroded grid (for size 1: the map)? */
static bool path_legal(const eroded *e, const tn_cell *p, int32_t n, tn_cell s, tn_cell g)
{
    if (n < 1 || p[0].x != s.x || p[0].y != s.y || p[n - 1].x != g.x || p[n - 1].y != g.y)
        return false;
    for (int32_t i = 1; i < n; i++) {
        int32_t dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
            return false;
        if (!eroded_open(e, p[i].x, p[i].y))
            return false;
        if (dx && dy &&
            (!eroded_open(e, p[i - 1].x + dx, p[i - 1].y) ||
             !eroded_open(e, p[i - 1].x, p[i - 1].y + dy)))
            return false;
    }
    return true;
}

/* The reference for sizes above 1 and for --terrain: a textbook Dijkstra (binary heap, lazy
 * deletion) on the eroded grid under the benchmark's rule, entering a cell at its footprint's
 * largest cost, stopping at the goal. -1 when unreachable. The scratch arrays hold W*H entries
 * (dist) and 8*W*H + 1 (heap). */
typedef struct ref_item {
    double d;
    int32_t i;
} ref_item;

static double ref_dijkstra(const eroded *e, tn_cell s, tn_cell g, double *dist, ref_item *heap)
{
    static const int8_t DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    size_t n = (size_t)e->w * (size_t)e->h, hn = 0;
    for (size_t i = 0; i < n; i++)
        dist[i] = (double)INFINITY;
    int32_t si = s.y * e->w + s.x, gi = g.y * e->w + g.x;
    dist[si] = 0.0;
    heap[hn++] = (ref_item){0.0, si};
    while (hn) {
        ref_item top = heap[0], last = heap[--hn];
        size_t k = 0; /* sift `last` down from the root */
        while (hn) {
            size_t c = 2 * k + 1;
            if (c >= hn)
                break;
            if (c + 1 < hn && heap[c + 1].d < heap[c].d)
                c++;
            if (!(heap[c].d < last.d))
                break;
            heap[k] = heap[c];
            k = c;
        }
        if (hn)
            heap[k] = last;
        if (top.d > dist[top.i])
            continue;
        if (top.i == gi)
            return top.d;
        int32_t x = top.i % e->w, y = top.i / e->w;
        for (int m = 0; m < 8; m++) {
            int32_t nx = x + DX[m], ny = y + DY[m];
            if (!eroded_open(e, nx, ny))
                continue;
            if (m >= 4 && (!eroded_open(e, nx, y) || !eroded_open(e, x, ny)))
                continue;
            int32_t ni = ny * e->w + nx;
            double nd = top.d + (m >= 4 ? TN_SQRT2 : 1.0) * (double)e->cost[ni];
            if (!(nd < dist[ni]))
                continue;
            dist[ni] = nd;
            size_t j = hn++; /* sift up */
            while (j > 0 && heap[(j - 1) / 2].d > nd) {
                heap[j] = heap[(j - 1) / 2];
                j = (j - 1) / 2;
            }
            heap[j] = (ref_item){nd, ni};
        }
    }
    return -1.0;
}

/* ---- --terrain mud|roads: seeded terrain costs on the map's ground --------------------- */

#define MUD_GID 1000000u /* a gid no loader uses (Moving AI letters are below 128) */
#define ROAD_GID 1000001u
#define MUD_COST 3.0f

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0), by the high bits. */
static int32_t below(uint64_t *s, int32_t n)
{
    return (int32_t)((splitmix64(s) >> 32) * (uint64_t)n >> 32);
}

/* The terrain of --terrain, on a new tile layer "mud" (a wall stays a wall).
 * mud: round(W*H / 1000) discs (at least 1) of integer radius 3..12 centred on uniform cells,
 * drawn in that order (centre x, centre y, radius) from splitmix64(seed); every cell inside one
 * (dx^2 + dy^2 <= r^2) gets the mud gid (cost 3), the rest keeps cost 1.
 * roads: every cell gets the mud gid, then rows y, y + 1 get the road gid (cost 1) for y from
 * below(24), each next y 16 + below(16) further, then columns likewise, all from one
 * splitmix64(seed) stream in that order. */
static tn_status lay_terrain(tn_map *map, bool roads, uint64_t seed)
{
    int32_t w = tn_map_width(map), h = tn_map_height(map), layer = -1;
    tn_status st = tn_map_add_layer(map, "mud", TN_LAYER_TILES, &layer);
    if (st == TN_OK)
        st = tn_map_set_terrain(map, MUD_GID, (tn_terrain){true, MUD_COST});
    if (st == TN_OK && roads)
        st = tn_map_set_terrain(map, ROAD_GID, (tn_terrain){true, 1.0f});
    if (st != TN_OK)
        return st;
    uint32_t *g = calloc((size_t)w * (size_t)h, sizeof *g);
    if (!g)
        return TN_E_NOMEM;
    if (roads) {
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
            g[i] = MUD_GID;
        for (int32_t y = below(&seed, 24); y < h; y += 16 + below(&seed, 16))
            for (int32_t yy = y; yy < y + 2 && yy < h; yy++)
                for (int32_t x = 0; x < w; x++)
                    g[(size_t)yy * (size_t)w + (size_t)x] = ROAD_GID;
        for (int32_t x = below(&seed, 24); x < w; x += 16 + below(&seed, 16))
            for (int32_t xx = x; xx < x + 2 && xx < w; xx++)
                for (int32_t y = 0; y < h; y++)
                    g[(size_t)y * (size_t)w + (size_t)xx] = ROAD_GID;
    } else {
        int64_t count = ((int64_t)w * h + 500) / 1000;
        for (int64_t b = 0; b < (count > 0 ? count : 1); b++) {
            int32_t cx = below(&seed, w), cy = below(&seed, h), r = 3 + below(&seed, 10);
            for (int32_t y = cy - r; y <= cy + r; y++)
                for (int32_t x = cx - r; x <= cx + r; x++)
                    if (x >= 0 && y >= 0 && x < w && y < h &&
                        (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                        g[(size_t)y * (size_t)w + (size_t)x] = MUD_GID;
        }
    }
    st = tn_map_set_layer_data(map, layer, g, w * h);
    free(g);
    return st;
}

typedef struct bench_out {
    tn_algo algo;
    int32_t n, mismatches, unfit;
    double median, mean, p99, total_ms;
    double expanded_mean;
} bench_out;

/* ---- random queries: SCEN = random[:N[:SEED]] ------------------------------------------ */

/* True when spec names random queries; their count and seed into *n and *seed. False with
 * *n = 0 for a file name; false with *n = -1 for a malformed random spec. */
static bool random_spec(const char *spec, int64_t *n, int64_t *seed)
{
    *n = 0;
    *seed = 1;
    if (strncmp(spec, "random", 6) != 0 || (spec[6] != 0 && spec[6] != ':'))
        return false;
    *n = 200;
    if (spec[6] == 0)
        return true;
    char count[32];
    const char *colon = strchr(spec + 7, ':');
    size_t len = colon ? (size_t)(colon - (spec + 7)) : strlen(spec + 7);
    if (len >= sizeof count) {
        *n = -1;
        return false;
    }
    memcpy(count, spec + 7, len);
    count[len] = 0;
    if (!tn_cli_parse_int(count, 1, 100000, n) ||
        (colon && !tn_cli_parse_int(colon + 1, 0, INT32_MAX, seed))) {
        *n = -1;
        return false;
    }
    return true;
}

/* n queries between open cells of `map` connected for units of `size` cells, drawn from
 * splitmix64(seed), as a Moving AI scenario set (optimal lengths 0: the benchmark checks them
 * against its own Dijkstra). TN_NO_PATH when no two such cells are connected. */
static tn_status random_scenarios(const tn_map *map, int32_t size, int32_t n, uint64_t seed,
                                  tn_scenarios **out, tn_diag *diag)
{
    *out = NULL;
    const int32_t w = tn_map_width(map), h = tn_map_height(map);
    tn_regions_def rd = tn_regions_def_default();
    rd.map = map;
    rd.max_size = size;
    rd.size_maps = false;
    tn_regions *reg = NULL;
    tn_status st = tn_regions_create(&rd, &reg);
    if (st != TN_OK)
        return st;
    int32_t *open = malloc((size_t)w * (size_t)h * sizeof *open);
    /* "version 1\n", then a line per query: 6 numbers below 2^31 and the fixed fields fit 96 */
    const size_t cap = 16 + (size_t)n * 96;
    char *text = malloc(cap);
    int32_t nopen = 0;
    if (!open || !text)
        st = TN_E_NOMEM;
    for (int32_t i = 0; st == TN_OK && i < w * h; i++)
        if (tn_regions_id(reg, size, i % w, i / w) >= 0)
            open[nopen++] = i;
    size_t len = 0;
    if (st == TN_OK)
        len = (size_t)snprintf(text, cap, "version 1\n");
    uint64_t r = seed;
    int32_t made = 0;
    /* a pair in two regions is drawn again; a map whose open cells are nearly all alone ends
     * after 1000 draws per query (10 million at most) */
    for (int64_t tries = 0;
         st == TN_OK && made < n && nopen > 1 && tries < (int64_t)n * 1000 && tries < 10000000;
         tries++) {
        int32_t a = open[splitmix64(&r) % (uint64_t)nopen];
        int32_t b = open[splitmix64(&r) % (uint64_t)nopen];
        tn_cell ca = {a % w, a / w}, cb = {b % w, b / w};
        if (a == b || !tn_regions_connected(reg, size, ca, cb))
            continue;
        len += (size_t)snprintf(text + len, cap - len, "0\trandom\t%d\t%d\t%d\t%d\t%d\t%d\t0\n",
                                (int)w, (int)h, (int)ca.x, (int)ca.y, (int)cb.x, (int)cb.y);
        made++;
    }
    if (st == TN_OK && made < n)
        st = TN_NO_PATH;
    if (st == TN_OK)
        st = tn_scenarios_parse(text, len, "random", NULL, out, diag);
    free(open);
    free(text);
    tn_regions_destroy(reg);
    return st;
}

static void progress(const char *name, int32_t done, int32_t total, int *last)
{
    int pct = total ? (int)(100LL * done / total) : 100;
    if (pct == *last)
        return;
    *last = pct;
    char bar[41];
    int fill = pct * 40 / 100;
    for (int i = 0; i < 40; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[40] = 0;
    fprintf(stderr, "\r%-8s [%s] %3d%%", name, bar, pct);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

/* The unit size's side of a run: its size, clearance, eroded grid and reference costs. */
typedef struct sized {
    bool use_ref; /* check against ref (sizes above 1, --terrain), else the scenarios' optima */
    int32_t size;
    const tn_clearance *clearance;
    const eroded *grid;
    const double *ref; /* per selected scenario: the reference cost, -1 unreachable, NAN unfit */
} sized;

static int run_algo(const char *cmd, tn_search *ctx, const tn_map *map, const tn_scenarios *sc,
                    const int32_t *sel, int32_t nsel, int32_t warmup, int32_t rounds, tn_algo algo,
                    bool tty, const tn_jump_table *table, const tn_goal_bounds *bounds,
                    const sized *z, bench_out *out)
{
    size_t cells = (size_t)tn_map_width(map) * (size_t)tn_map_height(map);
    tn_cell *path = malloc(cells * sizeof *path);
    double *us = malloc((size_t)(nsel > 0 ? nsel : 1) * sizeof *us);
    if (!path || !us) {
        free(path);
        free(us);
        tn_cli_error(cmd, "out of memory");
        return TN_EXIT_NOMEM;
    }
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = algo;
    q.jump_table = table;
    q.goal_bounds = bounds;
    q.size = z->size;
    q.clearance = z->clearance;
    tn_search_result res;
    for (int32_t k = 0; k < warmup && k < nsel; k++) {
        if (isnan(z->ref[k]))
            continue;
        const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
        tn_status st = tn_search_path(ctx, map, s->start, s->goal, &q, path, (int32_t)cells, &res);
        (void)st;
    }
    int32_t mism = 0, last = -1, ran = 0;
    double total = 0.0, expanded = 0.0;
    /* --rounds: the scenarios again, in the same order, each keeping its fastest time; the
     * checks are made in the first round (the searches are deterministic) */
    for (int32_t r = 0; r < rounds; r++)
        for (int32_t k = 0, j = 0; k < nsel; k++) {
            if (isnan(z->ref[k])) /* the unit does not fit at its start or goal */
                continue;
            const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
            double t0 = tn_cli_now();
            tn_status st =
                tn_search_path(ctx, map, s->start, s->goal, &q, path, (int32_t)cells, &res);
            double t = (tn_cli_now() - t0) * 1e6;
            if (r > 0) {
                us[j] = t < us[j] ? t : us[j];
                j++;
                continue;
            }
            us[ran++] = t;
            expanded += (double)res.expanded;
            bool ok;
            if (!z->use_ref)
                ok = st == TN_OK && path_legal(z->grid, path, res.length, s->start, s->goal) &&
                     tn_scenario_matches(s, res.cost);
            else if (z->ref[k] < 0.0)
                ok = st == TN_NO_PATH;
            else
                ok = st == TN_OK && path_legal(z->grid, path, res.length, s->start, s->goal) &&
                     fabs(res.cost - z->ref[k]) <= 1e-9 * (1.0 + z->ref[k]);
            if (!ok) {
                if (mism < 5)
                    tn_cli_error(cmd,
                                 "%s: scenario %d (%d,%d)->(%d,%d): status %s, cost %.6f, "
                                 "expected %.6f",
                                 tn_algo_name(algo), (int)sel[k], (int)s->start.x, (int)s->start.y,
                                 (int)s->goal.x, (int)s->goal.y, tn_status_str(st), res.cost,
                                 z->use_ref ? z->ref[k] : s->optimal);
                mism++;
            }
            if (tty)
                progress(tn_algo_name(algo), k + 1, nsel, &last);
        }
    for (int32_t i = 0; i < ran; i++)
        total += us[i];
    qsort(us, (size_t)ran, sizeof *us, cmp_double);
    out->algo = algo;
    out->n = ran;
    out->unfit = nsel - ran;
    out->mismatches = mism;
    out->median = median_of(us, ran);
    out->mean = ran ? total / ran : 0.0;
    out->p99 = p99_of(us, ran);
    out->total_ms = total / 1000.0;
    out->expanded_mean = ran ? expanded / ran : 0.0;
    free(path);
    free(us);
    return TN_EXIT_OK;
}

/* The selected scenarios as one batch, on 1 context and on `threads` contexts over threads:
 * best-of-5 wall times, and whether every path of both equals the first run's. */
static int run_batch(const char *cmd, const tn_map *map, const tn_scenarios *sc, const int32_t *sel,
                     int32_t nsel, tn_algo algo, const tn_jump_table *table,
                     const tn_goal_bounds *bounds, const sized *z, int32_t threads)
{
    size_t cells = (size_t)tn_map_width(map) * (size_t)tn_map_height(map);
    int32_t cap = (int32_t)(cells < 4096 ? cells : 4096); /* longer paths: counted, not kept */
    tn_batch_item *items = malloc((size_t)(nsel > 0 ? nsel : 1) * sizeof *items);
    tn_batch_item *first = malloc((size_t)(nsel > 0 ? nsel : 1) * sizeof *first);
    tn_cell *paths = malloc((size_t)(nsel > 0 ? nsel : 1) * (size_t)cap * sizeof *paths);
    tn_cell *firstp = malloc((size_t)(nsel > 0 ? nsel : 1) * (size_t)cap * sizeof *firstp);
    tn_search *ctx[16] = {0};
    tn_search_def def = tn_search_def_default();
    bool ok = items && first && paths && firstp;
    for (int32_t k = 0; k < threads && ok; k++)
        ok = tn_search_create(&def, &ctx[k]) == TN_OK;
    int rc = TN_EXIT_OK;
    if (!ok) {
        tn_cli_error(cmd, "out of memory");
        rc = TN_EXIT_NOMEM;
        goto done;
    }
    int32_t n = 0;
    for (int32_t k = 0; k < nsel; k++) {
        if (isnan(z->ref[k]))
            continue;
        const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
        first[n++] = (tn_batch_item){s->start, s->goal, TN_E_STATE, {0}};
    }
    tn_query q;
    memset(&q, 0, sizeof q);
    q.algo = algo;
    q.jump_table = table;
    q.goal_bounds = bounds;
    q.size = z->size;
    q.clearance = z->clearance;
    double best[2] = {(double)INFINITY, (double)INFINITY};
    bool same = true;
    for (int rep = 0; rep < 5; rep++)
        for (int v = 0; v < 2; v++) {
            int32_t nt = v ? threads : 1;
            tn_batch_item *it = rep == 0 && v == 0 ? first : items;
            tn_cell *pp = rep == 0 && v == 0 ? firstp : paths;
            if (it == items)
                for (int32_t i = 0; i < n; i++)
                    items[i] = (tn_batch_item){first[i].start, first[i].goal, TN_E_STATE, {0}};
            double t0 = tn_cli_now();
            tn_status st = tn_search_batch(ctx, nt, map, &q, it, n, pp, cap,
                                           nt > 1 ? tn_cli_thread_for : NULL, &nt);
            double ms = (tn_cli_now() - t0) * 1e3;
            if (st != TN_OK) {
                tn_cli_error(cmd, "batch: %s", tn_status_str(st));
                rc = TN_EXIT_INTERNAL;
                goto done;
            }
            best[v] = ms < best[v] ? ms : best[v];
            if (it == first)
                continue;
            for (int32_t i = 0; i < n && same; i++) {
                same = items[i].status == first[i].status &&
                       items[i].result.length == first[i].result.length &&
                       items[i].result.cost == first[i].result.cost;
                if (same && items[i].status == TN_OK)
                    same = memcmp(paths + (size_t)i * (size_t)cap, firstp + (size_t)i * (size_t)cap,
                                  (size_t)items[i].result.length * sizeof *paths) == 0;
            }
        }
    fprintf(tn_cli_lines(),
            "batch algo=%s threads=%d queries=%d wall_ms_1=%.3f wall_ms=%.3f speedup=%.2f "
            "identical=%s\n",
            tn_algo_name(algo), (int)threads, (int)n, best[0], best[1],
            best[1] > 0.0 ? best[0] / best[1] : 0.0, same ? "yes" : "no");
    if (!same)
        rc = TN_EXIT_FAIL;
done:
    for (int32_t k = 0; k < 16; k++)
        tn_search_destroy(ctx[k]);
    free(items);
    free(first);
    free(paths);
    free(firstp);
    return rc;
}

int tn_bench_hpa(int argc, char **argv);   /* bench_hpa.c: --algo hpa|hpa-exact */
bool tn_bench_hpa_option(const char *opt); /* bench_hpa.c: an option only they take */

int tn_cmd_bench(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--algo") == 0 &&
            (strcmp(argv[i + 1], "hpa") == 0 || strcmp(argv[i + 1], "hpa-exact") == 0))
            return tn_bench_hpa(argc, argv);
    const char *cmd = "bench";
    const char *mapf = NULL, *scenf = NULL, *algo_s = "astar";
    int64_t limit = 0, spread = 0, warmup = 20, size = 0, threads = 0, rounds = 1;
    bool json = false, goal_bounds = false, laid = false, roads = false;
    uint64_t terrain_seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (tn_cli_is_help(a)) {
            usage(stdout);
            return TN_EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
            tn_cli_set_json(true);
        } else if (strcmp(a, "--goal-bounds") == 0) {
            goal_bounds = true;
        } else if (strcmp(a, "--terrain") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            int64_t seed = 1;
            roads = strncmp(t, "roads", 5) == 0;
            size_t k = roads ? 5 : 3;
            if ((!roads && strncmp(t, "mud", 3) != 0) || (t[k] != 0 && t[k] != ':') ||
                (t[k] == ':' && !tn_cli_parse_int(t + k + 1, 0, INT32_MAX, &seed)))
                return tn_cli_usage_error(
                    cmd, "bad --terrain '%s' (mud, mud:SEED, roads or roads:SEED)", t);
            laid = true;
            terrain_seed = (uint64_t)seed;
        } else if (strcmp(a, "--algo") == 0 && i + 1 < argc) {
            algo_s = argv[++i];
        } else if (strcmp(a, "--limit") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT32_MAX, &limit))
                return tn_cli_usage_error(cmd, "bad --limit '%s'", argv[i]);
        } else if (strcmp(a, "--spread") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT32_MAX, &spread))
                return tn_cli_usage_error(cmd, "bad --spread '%s'", argv[i]);
        } else if (strcmp(a, "--threads") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 1, 16, &threads))
                return tn_cli_usage_error(cmd, "bad --threads '%s' (1..16)", argv[i]);
        } else if (strcmp(a, "--size") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 1, 8, &size))
                return tn_cli_usage_error(cmd, "bad --size '%s' (1..8)", argv[i]);
        } else if (strcmp(a, "--rounds") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 1, 100, &rounds))
                return tn_cli_usage_error(cmd, "bad --rounds '%s' (1..100)", argv[i]);
        } else if (strcmp(a, "--warmup") == 0 && i + 1 < argc) {
            if (!tn_cli_parse_int(argv[++i], 0, INT32_MAX, &warmup))
                return tn_cli_usage_error(cmd, "bad --warmup '%s'", argv[i]);
        } else if (tn_bench_hpa_option(a)) {
            return tn_cli_usage_error(cmd,
                                      "%s is an option of --algo hpa and hpa-exact (tilenav "
                                      "bench --algo hpa --help)",
                                      a);
        } else if (a[0] == '-' && a[1]) {
            return tn_cli_bad_option(cmd, a, i + 1 >= argc);
        } else if (!mapf) {
            mapf = a;
        } else if (!scenf) {
            scenf = a;
        } else {
            return tn_cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    if (!mapf || !scenf)
        return tn_cli_usage_error(cmd, "missing %s (usage: tilenav bench MAP SCEN)",
                                  !mapf ? "MAP" : "SCEN");
    int64_t rand_n, rand_seed;
    const bool random_q = random_spec(scenf, &rand_n, &rand_seed);
    if (rand_n < 0)
        return tn_cli_usage_error(
            cmd, "bad SCEN '%s' (a .scen file, random, random:N or random:N:SEED; N 1..100000)",
            scenf);
    tn_algo algos[8];
    int nalgo = 0;
    bool want_table = false;
    for (const char *p = algo_s;;) { /* one name or a comma-separated list; all = three */
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char name[16];
        if (len >= sizeof name)
            return tn_cli_usage_error(cmd, "bad --algo '%s'", algo_s);
        memcpy(name, p, len);
        name[len] = 0;
        static const tn_algo all3[3] = {TN_ALGO_ASTAR, TN_ALGO_JPS, TN_ALGO_DIJKSTRA};
        tn_algo one;
        const bool is_all = strcmp(name, "all") == 0;
        if (!is_all && !tn_algo_from_name(name, &one))
            return tn_cli_usage_error(cmd, "unknown --algo '%s' (astar, dijkstra, jps, jps+, all)",
                                      name);
        for (int k = 0; k < (is_all ? 3 : 1); k++) {
            if (nalgo == 8)
                return tn_cli_usage_error(cmd, "bad --algo '%s': at most 8 names", algo_s);
            algos[nalgo] = is_all ? all3[k] : one;
            want_table |= algos[nalgo] == TN_ALGO_JPS_PLUS;
            nalgo++;
        }
        if (!e)
            break;
        p = e + 1;
    }

    tn_diag diag;
    memset(&diag, 0, sizeof diag);
    tn_map *map = NULL;
    const double l0 = tn_cli_now();
    tn_status st = tn_map_load(mapf, NULL, &map, &diag);
    if (st != TN_OK) {
        char msg[1024];
        return tn_cli_load_failed(cmd, &diag, st, msg, sizeof msg);
    }
    fprintf(stderr, "map: %dx%d loaded in %.1f ms\n", (int)tn_map_width(map),
            (int)tn_map_height(map), (tn_cli_now() - l0) * 1e3);
    if (laid && (st = lay_terrain(map, roads, terrain_seed)) != TN_OK) {
        tn_cli_error(cmd, "--terrain: %s", tn_status_str(st));
        tn_map_destroy(map);
        return tn_cli_exit_for(st);
    }
    tn_scenarios *sc = NULL;
    if (random_q) {
        st = random_scenarios(map, size > 1 ? (int32_t)size : 1, (int32_t)rand_n,
                              (uint64_t)rand_seed, &sc, &diag);
        if (st != TN_OK) {
            if (st == TN_NO_PATH)
                tn_cli_error(cmd,
                             "%s: the map has too few open cells connected to each other "
                             "for %d random queries",
                             mapf, (int)rand_n);
            else
                tn_cli_error(cmd, "random queries: %s", tn_status_str(st));
            tn_map_destroy(map);
            return st == TN_NO_PATH ? TN_EXIT_INPUT : tn_cli_exit_for(st);
        }
    } else if ((st = tn_scenarios_load(scenf, NULL, &sc, &diag)) != TN_OK) {
        char msg[1024];
        tn_map_destroy(map);
        return tn_cli_load_failed(cmd, &diag, st, msg, sizeof msg);
    }
    int32_t ns = tn_scenarios_count(sc);
    int32_t *sel = malloc((size_t)(ns > 0 ? ns : 1) * sizeof *sel);
    tn_search_def def = tn_search_def_default();
    def.max_cells = tn_map_width(map) * tn_map_height(map);
    tn_search *ctx = NULL;
    if (!sel || tn_search_create(&def, &ctx) != TN_OK) {
        free(sel);
        tn_scenarios_destroy(sc);
        tn_map_destroy(map);
        tn_cli_error(cmd, "out of memory");
        return TN_EXIT_NOMEM;
    }
    /* selection: the same rule as the peers (../shared/bench/peers) */
    int32_t nsel = tn_cli_select_scenarios(ns, limit, spread, sel);
    for (int32_t i = 0; i < nsel; i++) {
        const tn_scenario *s = tn_scenarios_at(sc, sel[i]);
        if (s->map_width != tn_map_width(map) || s->map_height != tn_map_height(map)) {
            tn_cli_error(cmd, "scenario %d is for a %dx%d map, %s is %dx%d", (int)sel[i],
                         (int)s->map_width, (int)s->map_height, mapf, (int)tn_map_width(map),
                         (int)tn_map_height(map));
            free(sel);
            tn_search_destroy(ctx);
            tn_scenarios_destroy(sc);
            tn_map_destroy(map);
            return TN_EXIT_INPUT;
        }
    }
    bool tty = isatty(2) != 0;
    bench_out outs[8];
    int rc = TN_EXIT_OK;
    /* the unit's size: its clearance (size maps), the brute-force eroded grid, the references */
    int32_t unit = size > 1 ? (int32_t)size : 1;
    tn_clearance *clear = NULL;
    eroded grid = {0, 0, NULL, NULL};
    double *ref = calloc((size_t)(nsel > 0 ? nsel : 1), sizeof *ref);
    const tn_map *walk = map; /* what the unit walks: the map, or its size map */
    if (!ref || !eroded_make(map, unit, &grid)) {
        tn_cli_error(cmd, "out of memory");
        rc = TN_EXIT_NOMEM;
    } else if (unit > 1 || laid || random_q) {
        double t0 = tn_cli_now();
        tn_clearance_def cd = tn_clearance_def_default();
        cd.map = map;
        cd.max_size = unit;
        st = unit > 1 ? tn_clearance_create(&cd, &clear) : TN_OK;
        if (st != TN_OK) {
            tn_cli_error(cmd, "clearance: %s", tn_status_str(st));
            rc = tn_cli_exit_for(st);
        } else {
            if (clear) {
                walk = tn_clearance_map(clear, unit);
                fprintf(stderr, "size %d: clearance and size map %.3f ms, %zu bytes\n", (int)unit,
                        (tn_cli_now() - t0) * 1e3, tn_clearance_memory_bytes(clear));
            }
            size_t cells = (size_t)grid.w * (size_t)grid.h;
            double *dist = malloc(cells * sizeof *dist);
            ref_item *heap = malloc((8 * cells + 1) * sizeof *heap);
            if (!dist || !heap) {
                tn_cli_error(cmd, "out of memory");
                rc = TN_EXIT_NOMEM;
            }
            t0 = tn_cli_now();
            for (int32_t k = 0; k < nsel && rc == TN_EXIT_OK; k++) {
                const tn_scenario *s = tn_scenarios_at(sc, sel[k]);
                if (!eroded_open(&grid, s->start.x, s->start.y) ||
                    !eroded_open(&grid, s->goal.x, s->goal.y))
                    ref[k] = (double)NAN;
                else
                    ref[k] = ref_dijkstra(&grid, s->start, s->goal, dist, heap);
            }
            if (rc == TN_EXIT_OK)
                fprintf(stderr, "size %d: reference Dijkstra on the eroded grid %.3f s\n",
                        (int)unit, tn_cli_now() - t0);
            free(dist);
            free(heap);
        }
    }
    sized z = {unit > 1 || laid || random_q, unit, clear, &grid, ref};
    tn_jump_table *table = NULL;
    if (rc == TN_EXIT_OK && want_table) {
        double t0 = tn_cli_now();
        tn_jump_table_def jd = tn_jump_table_def_default();
        jd.map = walk;
        st = tn_jump_table_build(&jd, &table);
        if (st != TN_OK) {
            tn_cli_error(cmd, "jump table: %s", tn_status_str(st));
            rc = tn_cli_exit_for(st);
        } else {
            fprintf(stderr, "jps+ table: %.3f ms, %zu bytes\n", (tn_cli_now() - t0) * 1e3,
                    tn_jump_table_memory_bytes(table));
        }
    }
    tn_goal_bounds *bounds = NULL;
    if (goal_bounds && rc == TN_EXIT_OK) {
        double t0 = tn_cli_now();
        tn_moves moves;
        memset(&moves, 0, sizeof moves);
        tn_goal_bounds_def gd = tn_goal_bounds_def_default();
        gd.map = walk;
        gd.moves = moves;
        st = tn_goal_bounds_build(&gd, &bounds);
        if (st != TN_OK) {
            tn_cli_error(cmd, "goal bounds: %s", tn_status_str(st));
            rc = tn_cli_exit_for(st);
        } else {
            fprintf(stderr, "goal bounds: %.3f s, %zu bytes\n", tn_cli_now() - t0,
                    tn_goal_bounds_memory_bytes(bounds));
        }
    }
    for (int a = 0; a < nalgo && rc == TN_EXIT_OK; a++)
        rc = run_algo(cmd, ctx, map, sc, sel, nsel, (int32_t)warmup, (int32_t)rounds, algos[a], tty,
                      table, bounds, &z, &outs[a]);
    int brc = TN_EXIT_OK; /* the batches: a difference is a failed check, like a mismatch */
    for (int a = 0; a < nalgo && rc == TN_EXIT_OK && brc == TN_EXIT_OK && threads > 0; a++)
        brc = run_batch(cmd, map, sc, sel, nsel, algos[a], table, bounds, &z, (int32_t)threads);
    if (brc != TN_EXIT_OK && brc != TN_EXIT_FAIL)
        rc = brc;
    tn_jump_table_destroy(table);
    tn_goal_bounds_destroy(bounds);
    char terrain[48] = "", queries[64] = "";
    if (laid)
        snprintf(terrain, sizeof terrain, "%s:%llu", roads ? "roads" : "mud",
                 (unsigned long long)terrain_seed);
    if (random_q)
        snprintf(queries, sizeof queries, "random:%d:%lld", (int)rand_n, (long long)rand_seed);
    if (rc == TN_EXIT_OK) {
        int32_t bad = 0;
        if (json) {
            printf("{\"map\": \"%s\", \"scen\": \"%s\", \"results\": [", mapf, scenf);
            for (int a = 0; a < nalgo; a++)
                printf("%s{\"algo\": \"%s\", \"size\": %d, \"scenarios\": %d, "
                       "\"mismatches\": %d, \"unfit\": %d, "
                       "\"median_us\": %.3f, \"mean_us\": %.3f, \"p99_us\": %.3f, "
                       "\"total_ms\": %.3f, \"expanded_mean\": %.1f, \"rounds\": %d%s%s%s%s%s%s%s}",
                       a ? ", " : "", tn_algo_name(outs[a].algo), (int)unit, (int)outs[a].n,
                       (int)outs[a].mismatches, (int)outs[a].unfit, outs[a].median, outs[a].mean,
                       outs[a].p99, outs[a].total_ms, outs[a].expanded_mean, (int)rounds,
                       goal_bounds ? ", \"goal_bounds\": true" : "",
                       laid ? ", \"terrain\": \"" : "", terrain, laid ? "\"" : "",
                       random_q ? ", \"queries\": \"" : "", queries, random_q ? "\"" : "");
            printf("]}\n");
        } else {
            for (int a = 0; a < nalgo; a++) {
                printf("algo=%s", tn_algo_name(outs[a].algo));
                if (size > 0) /* the plain line stays as it was without --size */
                    printf(" size=%d", (int)unit);
                printf(" scenarios=%d mismatches=%d", (int)outs[a].n, (int)outs[a].mismatches);
                if (size > 0)
                    printf(" unfit=%d", (int)outs[a].unfit);
                printf(" median_us=%.3f mean_us=%.3f p99_us=%.3f total_ms=%.3f%s%s%s",
                       outs[a].median, outs[a].mean, outs[a].p99, outs[a].total_ms,
                       goal_bounds ? " goal_bounds=1" : "", laid ? " terrain=" : "", terrain);
                if (rounds > 1)
                    printf(" rounds=%d", (int)rounds);
                if (random_q)
                    printf(" queries=%s", queries);
                printf("\n");
            }
        }
        for (int a = 0; a < nalgo; a++)
            bad += outs[a].mismatches;
        rc = bad || brc == TN_EXIT_FAIL ? TN_EXIT_FAIL : TN_EXIT_OK;
    }
    free(ref);
    free(grid.open);
    free(grid.cost);
    tn_clearance_destroy(clear);
    free(sel);
    tn_search_destroy(ctx);
    tn_scenarios_destroy(sc);
    tn_map_destroy(map);
    return rc;
}
