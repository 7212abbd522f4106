/* tilenav sim: a crowd streaming to a goal through a flow field, with flocking and tile
 * collision; prints one summary line. --bench runs the agent-count curve. */
#include "cli.h"
#include "picture.h"
#include "tilenav/io.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int tn_cmd_sim(int argc, char **argv);
extern const char tn_cmd_sim_summary[];
const char tn_cmd_sim_summary[] = "run a crowd to a goal through a flow field (agents, bench)";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tilenav sim MAP GX GY --agents N --steps S [--seed K] [--json] [--png FILE]\n"
            "       tilenav sim MAP GX GY --bench [--steps S] [--seed K] [--counts A,B,...]\n"
            "options: --scan C     at most C neighbour candidates per agent (default 48, 0 = all)\n"
            "         --threads T  spread the step over T threads, 1..16 (same result bit\n"
            "                      for bit)\n"
            "         --area A     goal area radius in tiles (default 2, 0 = none): with --stay,\n"
            "                      an agent there touching an arrived one has arrived and holds\n"
            "         --stay       arrived agents stay and hold their place, push-apart on\n"
            "                      (default: they leave)\n"
            "         --arrivals K print 'arrivals step=S arrived=A' every K steps (the curve)\n"
            "                      and the free-flow percentiles (alone at max speed)\n"
            "         --flock-brake B  cohesion/alignment pull kept against the target, 0..1\n"
            "                      (default 0; 1 = the plain HowToRTS forces)\n"
            "         --dense D    half-radius neighbourhood where the 4 nearest grid cells hold\n"
            "                      >= D agents (default 10, 0 = never): flat cost as density "
            "grows\n"
            "         --sectors    the crowd reads a sector flow field (sector_field.h: tiles\n"
            "                      built where agents stand, on a hierarchy of 32 x 32 sectors)\n"
            "                      instead of the whole-map field; prints one more line\n"
            "                      'sectors hierarchy_ms=... goal_ms=... tiles_built=...\n"
            "                      tiles_kept=... field_bytes=... prepare_ms_per_step=...'\n"
            "         --budget-kb K  the sector field's tile budget (default "
            "16384)\n" TN_CLI_LOAD_OPTIONS_HELP "\n"
            "Spawns N agents on random passable cells that reach the goal cell (GX, GY) and\n"
            "runs S fixed steps of 1/60 s: flow field following (field.h, exact line of sight;\n"
            "arrive straight at the goal where the cell\n"
            "sees the goal), separation, cohesion, alignment, look-ahead avoidance of agents and\n"
            "walls, tile collision. Agents leave the crowd when they come within 0.75 tile of\n"
            "the goal cell's centre (--stay: they stop there and the goal area fills). Prints\n"
            "  sim agents=N arrived=A steps=S ms_per_step=X max_wall_overlap=D hash=H\n"
            "      all_arrived_step=T\n"
            "where X is the mean time of one crowd step, D the deepest overlap (pixels) of any\n"
            "agent with an impassable cell seen after any step (always 0), H the state hash,\n"
            "T the first step after which every agent had arrived (0: never, or no agent\n"
            "placed; fewer than N placed is said on stderr). --json prints\n"
            "it as one JSON object instead; the --arrivals and --sectors lines then go to\n"
            "standard error (--bench takes no --json).\n"
            "--bench prints ms per step and ns per agent for each agent count (default\n"
            "1000,3000,10000,30000,100000; S defaults to 120 steps; an agent that arrives\n"
            "re-enters at a random cell, so the count holds).\n"
            "--png FILE draws the final state: the map (its tileset art when it has any), the\n"
            "agents with their headings and the goal.\n\n"
            "Exit status: 0 ok, 1 an agent overlapped a wall, 2 bad arguments or a goal\n"
            "blocked or outside the map, 3 the map cannot be read or parsed, 4 the PNG cannot\n"
            "be written, 5 out of memory or past a limit (a --budget-kb too small for the\n"
            "agents' sectors), 6 internal error.\n");
}

/* ---- the flow field (field.h) and the view the crowd reads -------------------------------- */
typedef struct sim_flow {
    tn_field *field;
    tn_vec2 *dir;
    uint8_t *los;
    tn_flow_view view;
    /* --sectors: the view reads this sector field instead (the field above still gives the
     * spawn cells and the free-flow reference) */
    tn_hierarchy *hier;
    tn_sector_field *sf;
    double hier_ms, goal_ms;
} sim_flow;

static tn_status sectors_build(const tn_map *m, tn_cell goal, int64_t budget_kb,
                               tn_parallel_for pfor, void *puser, sim_flow *f)
{
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.map = m;
    double t0 = tn_cli_now();
    tn_status st = tn_hierarchy_build(&hd, &f->hier);
    f->hier_ms = (tn_cli_now() - t0) * 1e3;
    if (st < 0)
        return st;
    tn_sector_field_def sd = tn_sector_field_def_default();
    sd.hierarchy = f->hier;
    sd.memory_budget = (size_t)budget_kb * 1024u;
    sd.parallel_for = pfor;
    sd.parallel_user = puser;
    st = tn_sector_field_create(&sd, &f->sf);
    if (st < 0)
        return st;
    t0 = tn_cli_now();
    st = tn_sector_field_set_goal(f->sf, &goal, 1);
    f->goal_ms = (tn_cli_now() - t0) * 1e3;
    if (st < 0)
        return st;
    return tn_flow_view_from_sector_field(f->sf, m, goal, &f->view);
}

static tn_status flow_build(const tn_map *m, tn_cell goal, sim_flow *f)
{
    size_t n = (size_t)tn_map_width(m) * (size_t)tn_map_height(m);
    tn_field_def fd = tn_field_def_default();
    fd.map = m;
    fd.los = TN_LOS_EXACT;
    tn_status st = tn_field_create(&fd, &f->field);
    if (st < 0)
        return st;
    st = tn_field_build(f->field, &goal, 1);
    if (st < 0)
        return st;
    f->dir = malloc(n * sizeof *f->dir);
    f->los = malloc(n);
    if (!f->dir || !f->los)
        return TN_E_NOMEM;
    return tn_flow_view_from_field(f->field, m, goal, f->dir, f->los, (int32_t)n, &f->view);
}

static void flow_free(sim_flow *f)
{
    tn_sector_field_destroy(f->sf);
    tn_hierarchy_destroy(f->hier);
    tn_field_destroy(f->field);
    free(f->dir);
    free(f->los);
}

/* ---- a small thread pool for the crowd's parallel_for -------------------------------------- */
#define SIM_MAX_THREADS 16

typedef struct sim_pool sim_pool;

typedef struct sim_worker {
    sim_pool *pool;
    int index; /* 1..nthreads; the caller is range 0 */
} sim_worker;

struct sim_pool {
    pthread_t threads[SIM_MAX_THREADS];
    sim_worker workers[SIM_MAX_THREADS];
    int nthreads; /* workers besides the calling thread */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t generation;
    int pending;
    bool quit;
    tn_task task;
    void *ctx;
    int32_t count;
};

static void pool_range(const sim_pool *p, int index, int32_t *b, int32_t *e)
{
    int parts = p->nthreads + 1;
    *b = (int32_t)((int64_t)p->count * index / parts);
    *e = (int32_t)((int64_t)p->count * (index + 1) / parts);
}

static void *pool_main(void *arg)
{
    sim_worker *w = arg;
    sim_pool *p = w->pool;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        int32_t b, e;
        pool_range(p, w->index, &b, &e);
        p->task(p->ctx, b, e);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static void pool_for(tn_task task, void *ctx, int32_t count, void *user)
{
    sim_pool *p = user;
    pthread_mutex_lock(&p->mu);
    p->task = task;
    p->ctx = ctx;
    p->count = count;
    p->pending = p->nthreads;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    int32_t b, e;
    pool_range(p, 0, &b, &e);
    task(ctx, b, e);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static bool pool_start(sim_pool *p, int threads)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < threads - 1; i++) {
        p->workers[i].pool = p;
        p->workers[i].index = i + 1;
        if (pthread_create(&p->threads[i], NULL, pool_main, &p->workers[i]) != 0)
            return false;
        p->nthreads++;
    }
    return true;
}

static void pool_stop(sim_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
}

/* ---- picture of the final state ------------------------------------------------------------ */
static int draw_png(const tn_map *m, const tn_crowd *c, tn_vec2 goal, const char *path)
{
    tn_picture p;
    int rc = tn_picture_begin(&p, m, 0, 16, "sim");
    if (rc != TN_PICTURE_OK)
        return rc;
    (void)tn_draw_crowd(&p.cv, &p.view, c, (tn_rgba){30, 110, 220, 255},
                        (tn_rgba){10, 30, 80, 255});
    tn_vec2 g = tn_draw_world_to_canvas(&p.view, goal);
    tn_canvas_circle(&p.cv, g.x, g.y, (float)p.view.cell * 0.6f + 2.0f, (tn_rgba){220, 40, 40, 255},
                     true);
    return tn_picture_write(&p, path);
}

/* ---- the run -------------------------------------------------------------------------------- */

/* CPU time of this thread, seconds: on a shared machine it leaves out the time the thread
 * waited for a core, which wall-clock time does not. */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of a thread's clock (0 when it cannot be read). */
static double clock_now(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of every pool thread (the caller first) into t[0..nthreads]. */
static void pool_cpu(const sim_pool *p, double *t)
{
    t[0] = cpu_now();
    for (int i = 0; p && i < p->nthreads; i++) {
        clockid_t id;
        t[i + 1] = pthread_getcpuclockid(p->threads[i], &id) == 0 ? clock_now(id) : 0.0;
    }
}

/* What a run does besides the step count. */
typedef struct sim_opts {
    int32_t max_scan;
    float area;        /* goal area, tiles */
    float flock_brake; /* tn_crowd_def::flock_brake */
    bool stay;         /* arrived agents stay */
    int32_t arrivals;  /* print the arrival curve every this many steps (0 = not) */
    int32_t dense;     /* tn_crowd_def::dense_neighbours, -1 = the default */
} sim_opts;

typedef struct sim_result {
    int32_t spawned, arrived;
    int32_t all_arrived_step; /* first step after which every agent had arrived (0 = never) */
    double ms_per_step, cpu_ms_per_step;
    double prepare_ms_per_step; /* --sectors: tn_crowd_prepare_sector_field() */
    /* CPU time of every thread of the step, summed, and the busiest thread's (the step's
     * critical path when each thread has a core of its own), ms per step */
    double all_cpu_ms_per_step, crit_cpu_ms_per_step;
    float max_overlap;
    uint64_t hash;
    int png_rc; /* draw_png's result: a TN_PICTURE_* code */
} sim_result;

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static int spawn_one(tn_crowd *c, tn_agent_def *ad, const int32_t *reach, int32_t nreach, int32_t w,
                     float tw, float th, tn_rng *rng, int32_t *cell)
{
    int32_t i = reach[tn_rng_below(rng, (uint32_t)nreach)];
    *cell = i;
    float margin = ad->radius + 0.01f;
    ad->pos.x = (float)(i % w) * tw + margin + tn_rng_float(rng) * (tw - 2.0f * margin);
    ad->pos.y = (float)(i / w) * th + margin + tn_rng_float(rng) * (th - 2.0f * margin);
    tn_agent_id id;
    return tn_crowd_add(c, ad, &id) == TN_OK;
}

static tn_status sim_run(const tn_map *m, const sim_flow *f, int32_t agents, int32_t steps,
                         uint64_t seed, bool recycle, const sim_opts *opt, sim_pool *pool,
                         const char *png, sim_result *res)
{
    memset(res, 0, sizeof *res);
    int32_t w = tn_map_width(m), h = tn_map_height(m);
    float tw = (float)tn_map_tile_width(m), th = (float)tn_map_tile_height(m);
    float tmin = tw < th ? tw : th;
    tn_crowd_def cd = tn_crowd_def_default();
    cd.map = m;
    cd.capacity = agents > 0 ? agents : 1;
    cd.neighbour_radius = tmin;
    cd.max_neighbours = 8;
    if (opt->dense >= 0)
        cd.dense_neighbours = opt->dense;
    cd.max_scan = opt->max_scan;
    cd.flock_brake = opt->flock_brake;
    if (pool && pool->nthreads > 0) {
        cd.parallel_for = pool_for;
        cd.parallel_user = pool;
    }
    cd.seed = seed;
    cd.push_apart = opt->stay; /* a crowd that stays must not pile up on the goal */
    tn_crowd *c = NULL;
    tn_status st = tn_crowd_create(&cd, &c);
    if (st < 0)
        return st;
    st = tn_crowd_set_flow(c, 0, &f->view);
    tn_agent_def ad = tn_agent_def_default();
    ad.radius = 0.2f * tmin;
    ad.max_speed = 4.0f * tmin;
    ad.max_force = 16.0f * tmin;
    ad.slow_radius = tmin;
    ad.arrive_radius = 0.75f * tmin;
    ad.arrive_area = opt->area * tmin;
    ad.target = TN_TARGET_FLOW;
    ad.flow = 0;
    /* spawn on reachable cells, anywhere inside the cell where the circle fits */
    tn_rng rng = tn_rng_seed(seed);
    size_t cells = (size_t)w * (size_t)h;
    int32_t *reach = malloc(cells * sizeof *reach);
    int32_t nreach = 0;
    if (!reach) {
        tn_crowd_destroy(c);
        return TN_E_NOMEM;
    }
    const float *dist = tn_field_distances(f->field);
    for (size_t i = 0; i < cells; i++)
        if (isfinite(dist[i]) && dist[i] > 0.0f)
            reach[nreach++] = (int32_t)i;
    /* free flow: the step at which each agent would arrive alone at max speed along the
     * field's distance (the lower bound the arrival curve is compared with) */
    float *free_flow = opt->arrivals > 0 ? malloc((size_t)agents * sizeof *free_flow) : NULL;
    int32_t cell = 0;
    for (int64_t tries = 0;
         st >= 0 && nreach > 0 && res->spawned < agents && tries < (int64_t)agents * 20; tries++)
        if (spawn_one(c, &ad, reach, nreach, w, tw, th, &rng, &cell)) {
            if (free_flow)
                free_flow[res->spawned] =
                    (dist[cell] * tmin - ad.arrive_radius) / ad.max_speed / cd.dt;
            res->spawned++;
        }
    if (free_flow && res->spawned > 0) {
        qsort(free_flow, (size_t)res->spawned, sizeof *free_flow, cmp_float);
        int32_t q[3] = {50, 90, 99};
        fprintf(tn_cli_lines(), "arrivals free_flow");
        for (int k = 0; k < 3; k++) {
            int32_t at = (int32_t)ceil((double)res->spawned * q[k] / 100.0) - 1;
            fprintf(tn_cli_lines(), " p%d=%d", (int)q[k],
                    (int)ceil((double)free_flow[at < 0 ? 0 : at]));
        }
        fprintf(tn_cli_lines(), "\n");
    }
    free(free_flow);
    double total = 0.0, cpu = 0.0, all = 0.0, crit = 0.0;
    double tc0[SIM_MAX_THREADS], tc1[SIM_MAX_THREADS];
    int nthr = pool ? pool->nthreads + 1 : 1;
    double prep = 0.0;
    for (int32_t s = 0; st >= 0 && s < steps; s++) {
        if (f->sf) {
            double p0 = tn_cli_now();
            st = tn_crowd_prepare_sector_field(c, 0, f->sf, NULL);
            prep += tn_cli_now() - p0;
            if (st < 0)
                break;
        }
        pool_cpu(pool, tc0);
        double t0 = tn_cli_now(), c0 = cpu_now();
        st = tn_crowd_step(c);
        total += tn_cli_now() - t0;
        cpu += cpu_now() - c0;
        pool_cpu(pool, tc1);
        double busiest = 0.0;
        for (int k = 0; k < nthr; k++) {
            double d = tc1[k] - tc0[k];
            all += d;
            busiest = d > busiest ? d : busiest;
        }
        crit += busiest;
        float o = tn_crowd_max_wall_overlap(c);
        if (o > res->max_overlap)
            res->max_overlap = o;
        int32_t left = 0, here = 0;
        for (int32_t i = tn_crowd_count(c) - 1; st >= 0 && i >= 0; i--) {
            tn_agent_id id = tn_crowd_agent_at(c, i);
            tn_agent_state as;
            st = tn_crowd_get(c, id, &as);
            if (st >= 0 && as.arrived) {
                if (opt->stay) {
                    here++;
                    continue;
                }
                st = tn_crowd_remove(c, id);
                res->arrived++;
                left++;
            }
        }
        if (opt->stay)
            res->arrived = here;
        if (res->all_arrived_step == 0 && res->arrived == res->spawned && res->spawned > 0 &&
            !recycle)
            res->all_arrived_step = s + 1;
        if (opt->arrivals > 0 && ((s + 1) % opt->arrivals == 0 || s + 1 == steps))
            fprintf(tn_cli_lines(), "arrivals step=%d arrived=%d\n", (int)(s + 1),
                    (int)res->arrived);
        /* the benchmark keeps the count: every agent that arrives re-enters somewhere else */
        for (int32_t tries = 0; recycle && left > 0 && tries < 1000; tries++)
            left -= spawn_one(c, &ad, reach, nreach, w, tw, th, &rng, &cell);
    }
    free(reach);
    res->ms_per_step = steps > 0 ? total * 1000.0 / steps : 0.0;
    res->cpu_ms_per_step = steps > 0 ? cpu * 1000.0 / steps : 0.0;
    res->prepare_ms_per_step = steps > 0 ? prep * 1000.0 / steps : 0.0;
    res->all_cpu_ms_per_step = steps > 0 ? all * 1000.0 / steps : 0.0;
    res->crit_cpu_ms_per_step = steps > 0 ? crit * 1000.0 / steps : 0.0;
    res->hash = tn_crowd_hash(c);
    res->png_rc = png ? draw_png(m, c, f->view.goal, png) : 0;
    tn_crowd_destroy(c);
    return st;
}

int tn_cmd_sim(int argc, char **argv)
{
    const char *cmd = "sim";
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    int64_t agents = -1, steps = -1, seed = 1, scan = 48, threads = 1, arrivals = 0, dense = -1;
    double area = 2.0, flock_brake = 0.0;
    int64_t budget_kb = 16384;
    bool budget_set = false;
    bool json = false, bench = false, stay = false, sectors = false;
    const char *png = NULL, *counts = "1000,3000,10000,30000,100000";
    tn_load_def lopts = tn_load_def_default();
    int lo;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (tn_cli_is_help(a)) {
            usage(stdout);
            return TN_EXIT_OK;
        }
        bool has = i + 1 < argc;
        if (strcmp(a, "--agents") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 0, TN_CROWD_MAX_AGENTS, &agents))
                return tn_cli_usage_error(cmd, "bad --agents '%s' (0..%d)", argv[i],
                                          (int)TN_CROWD_MAX_AGENTS);
        } else if (strcmp(a, "--steps") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 0, 100000000, &steps))
                return tn_cli_usage_error(cmd, "bad --steps '%s'", argv[i]);
        } else if (strcmp(a, "--seed") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 0, INT64_MAX, &seed))
                return tn_cli_usage_error(cmd, "bad --seed '%s'", argv[i]);
        } else if (strcmp(a, "--scan") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 0, 1000000, &scan))
                return tn_cli_usage_error(cmd, "bad --scan '%s'", argv[i]);
        } else if (strcmp(a, "--threads") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 1, SIM_MAX_THREADS, &threads))
                return tn_cli_usage_error(cmd, "bad --threads '%s' (1..%d)", argv[i],
                                          (int)SIM_MAX_THREADS);
        } else if (strcmp(a, "--arrivals") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 1, 100000000, &arrivals))
                return tn_cli_usage_error(cmd, "bad --arrivals '%s'", argv[i]);
        } else if (strcmp(a, "--area") == 0 && has) {
            char *end = NULL;
            area = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(area >= 0.0 && area <= 1e6))
                return tn_cli_usage_error(cmd, "bad --area '%s'", argv[i]);
        } else if (strcmp(a, "--flock-brake") == 0 && has) {
            char *end = NULL;
            flock_brake = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(flock_brake >= 0.0 && flock_brake <= 1.0))
                return tn_cli_usage_error(cmd, "bad --flock-brake '%s'", argv[i]);
        } else if (strcmp(a, "--dense") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 0, 1000000, &dense))
                return tn_cli_usage_error(cmd, "bad --dense '%s'", argv[i]);
        } else if (strcmp(a, "--sectors") == 0) {
            sectors = true;
        } else if (strcmp(a, "--budget-kb") == 0 && has) {
            if (!tn_cli_parse_int(argv[++i], 1, 16777216, &budget_kb))
                return tn_cli_usage_error(cmd, "bad --budget-kb '%s' (1..16777216)", argv[i]);
            budget_set = true;
        } else if (strcmp(a, "--stay") == 0) {
            stay = true;
        } else if (strcmp(a, "--png") == 0 && has) {
            png = argv[++i];
        } else if (strcmp(a, "--counts") == 0 && has) {
            counts = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = true;
            tn_cli_set_json(true);
        } else if (strcmp(a, "--bench") == 0) {
            bench = true;
        } else if ((lo = tn_cli_load_option(cmd, argc, argv, &i, &lopts)) != 0) {
            if (lo < 0)
                return TN_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return tn_cli_bad_option(cmd, a, i + 1 >= argc);
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            return tn_cli_usage_error(cmd, "too many arguments");
        }
    }
    if (npos != 3) {
        static const char *const names[3] = {"MAP", "GX", "GY"};
        return tn_cli_usage_error(cmd, "missing %s (usage: tilenav sim MAP GX GY)", names[npos]);
    }
    if (!bench && (agents < 0 || steps < 0))
        return tn_cli_usage_error(cmd, "--agents and --steps are required");
    if (bench && json)
        return tn_cli_usage_error(cmd, "--bench prints a table: it takes no --json");
    if (budget_set && !sectors)
        return tn_cli_usage_error(cmd, "--budget-kb is the budget of --sectors");
    /* --counts: every count read before any work */
    int32_t count_list[64];
    int ncounts = 0;
    for (const char *p = counts; bench;) {
        char *end = NULL;
        long n = strtol(p, &end, 10);
        if (end == p || n < 1 || n > TN_CROWD_MAX_AGENTS || (*end != ',' && *end) || ncounts == 64)
            return tn_cli_usage_error(cmd,
                                      "bad --counts '%s': up to 64 agent counts in 1..%d, "
                                      "separated by commas",
                                      counts, TN_CROWD_MAX_AGENTS);
        count_list[ncounts++] = (int32_t)n;
        if (!*end)
            break;
        p = end + 1;
    }
    tn_map *m = NULL;
    tn_diag diag;
    memset(&diag, 0, sizeof diag);
    lopts.on_file = tn_cli_input_hook;
    tn_status st = tn_map_load(pos[0], &lopts, &m, &diag);
    if (st < 0) {
        char msg[1024];
        return tn_cli_load_failed(cmd, &diag, st, msg, sizeof msg);
    }
    int out_rc = tn_picture_check_output(cmd, m, png, 0, 16); /* as draw_png's picture */
    if (out_rc != TN_EXIT_OK) {
        tn_map_destroy(m);
        return out_rc;
    }
    int64_t gx, gy;
    if (!tn_cli_parse_int(pos[1], 0, tn_map_width(m) - 1, &gx) ||
        !tn_cli_parse_int(pos[2], 0, tn_map_height(m) - 1, &gy)) {
        int32_t mw = tn_map_width(m), mh = tn_map_height(m);
        tn_map_destroy(m);
        return tn_cli_usage_error(
            cmd, "goal (%s, %s) is not a cell of the %d x %d map (x 0..%d, y 0..%d)", pos[1],
            pos[2], (int)mw, (int)mh, (int)mw - 1, (int)mh - 1);
    }
    tn_cell goal = {(int32_t)gx, (int32_t)gy};
    if (!tn_map_passable(m, goal.x, goal.y)) {
        tn_map_destroy(m);
        tn_cli_error(cmd, "goal (%d, %d) is blocked", goal.x, goal.y);
        return TN_EXIT_USAGE; /* as path and field: a blocked cell given is a bad argument */
    }
    sim_flow f;
    memset(&f, 0, sizeof f);
    sim_pool pool;
    if (!pool_start(&pool, (int)threads)) {
        pool_stop(&pool);
        tn_map_destroy(m);
        tn_cli_error(cmd, "cannot start %d threads", (int)threads);
        return TN_EXIT_INTERNAL;
    }
    st = flow_build(m, goal, &f);
    if (st >= 0 && sectors)
        st = sectors_build(m, goal, budget_kb, pool.nthreads > 0 ? pool_for : NULL, &pool, &f);
    if (st < 0) {
        pool_stop(&pool);
        flow_free(&f);
        tn_map_destroy(m);
        tn_cli_error(cmd, "flow field: %s", tn_status_str(st));
        return tn_cli_exit_for(st);
    }
    int rc = TN_EXIT_OK;
    sim_opts so = {(int32_t)scan, (float)area,       (float)flock_brake,
                   stay,          (int32_t)arrivals, (int32_t)dense};
    if (bench) {
        int32_t bsteps = steps > 0 ? (int32_t)steps : 120;
        printf("agents  ms_per_step  cpu_ms_per_step  cpu_ns_per_agent  arrived  "
               "max_wall_overlap  all_threads_cpu_ms  busiest_thread_cpu_ms\n");
        for (int k = 0; k < ncounts && rc == TN_EXIT_OK; k++) {
            int32_t n = count_list[k];
            sim_result r;
            sim_opts bo = so;
            bo.stay = false;
            bo.arrivals = 0;
            st = sim_run(m, &f, n, bsteps, (uint64_t)seed, true, &bo, &pool, NULL, &r);
            if (st < 0) {
                tn_cli_error(cmd, "%s", tn_status_str(st));
                rc = tn_cli_exit_for(st);
                break;
            }
            printf("%6d  %11.3f  %15.3f  %16.1f  %7d  %16g  %18.3f  %21.3f\n", r.spawned,
                   r.ms_per_step, r.cpu_ms_per_step,
                   r.cpu_ms_per_step * 1e6 / (r.spawned > 0 ? r.spawned : 1), r.arrived,
                   (double)r.max_overlap, r.all_cpu_ms_per_step, r.crit_cpu_ms_per_step);
            fflush(stdout);
        }
    } else {
        sim_result r;
        st = sim_run(m, &f, (int32_t)agents, (int32_t)steps, (uint64_t)seed, false, &so, &pool, png,
                     &r);
        if (st == TN_E_FULL) {
            tn_cli_error(cmd, "the agents stand in more sectors than --budget-kb %lld holds",
                         (long long)budget_kb);
            rc = tn_cli_exit_for(st);
        } else if (st < 0) {
            tn_cli_error(cmd, "%s", tn_status_str(st));
            rc = tn_cli_exit_for(st);
        }
        if (st >= 0 && r.spawned < agents)
            tn_cli_error(cmd,
                         "warning: placed %d of the %lld agents asked for: there is no "
                         "more room on open cells that reach the goal",
                         (int)r.spawned, (long long)agents);
        if (st < 0) {
            /* reported above */
        } else if (json) {
            printf("{\"agents\":%d,\"arrived\":%d,\"steps\":%" PRId64
                   ",\"ms_per_step\":%.4f,\"max_wall_overlap\":%g,\"hash\":\"%016" PRIx64
                   "\",\"all_arrived_step\":%d}\n",
                   r.spawned, r.arrived, steps, r.ms_per_step, (double)r.max_overlap, r.hash,
                   (int)r.all_arrived_step);
        } else {
            printf("sim agents=%d arrived=%d steps=%" PRId64
                   " ms_per_step=%.4f max_wall_overlap=%g hash=%016" PRIx64
                   " all_arrived_step=%d\n",
                   r.spawned, r.arrived, steps, r.ms_per_step, (double)r.max_overlap, r.hash,
                   (int)r.all_arrived_step);
        }
        if (rc == TN_EXIT_OK && f.sf) {
            tn_sector_field_stats ss;
            tn_sector_field_stats_get(f.sf, &ss);
            fprintf(tn_cli_lines(),
                    "sectors hierarchy_ms=%.1f goal_ms=%.2f tiles_built=%lld tiles_kept=%d "
                    "tiles_max=%d field_bytes=%zu hierarchy_bytes=%zu whole_field_bytes=%zu "
                    "prepare_ms_per_step=%.4f\n",
                    f.hier_ms, f.goal_ms, (long long)ss.tiles_built, ss.tiles_kept, ss.tiles_max,
                    tn_sector_field_memory_bytes(f.sf), tn_hierarchy_memory_bytes(f.hier),
                    tn_field_memory_bytes(f.field), r.prepare_ms_per_step);
        }
        if (rc == TN_EXIT_OK && r.max_overlap > 0.0f)
            rc = TN_EXIT_FAIL;
        if (rc == TN_EXIT_OK && r.png_rc != 0) {
            tn_cli_error(cmd, "cannot write %s%s%s%s", png, r.png_rc == TN_PICTURE_IO ? "" : " (",
                         r.png_rc == TN_PICTURE_IO ? "" : tn_picture_error(r.png_rc),
                         r.png_rc == TN_PICTURE_IO ? "" : ")");
            rc = r.png_rc == TN_PICTURE_NOMEM ? TN_EXIT_NOMEM : TN_EXIT_OUTPUT;
        }
    }
    pool_stop(&pool);
    flow_free(&f);
    tn_map_destroy(m);
    return rc;
}
