/* tilenav collide: the marbles headless, or with --kinematic exactly the workload of the
 * circle-collide peers (../shared/bench/peers/collide/README.md: same RNG, draw order, double
 * state, step and contact rule), so that its contacts equal brute_bench's and its ms_per_step
 * compares with box2d_bench's. */
#include "cli.h"
#include "render/draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char tn_cmd_collide_summary[] = "moving circles: broad phase benchmark and the marbles";

/* ---- the peers' workload: xorshift64* seeded by one splitmix64 step ------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static void rng_seed(rng *g, uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = z ^ (z >> 31);
    g->s = z ? z : 0x9E3779B97F4A7C15ULL;
}

static uint64_t rng_next(rng *g)
{
    uint64_t x = g->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    g->s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static double rng_u01(rng *g)
{
    return (double)(rng_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

static double mixed_radius(double u)
{
    if (u < 0.5)
        return 2.0;
    if (u < 0.8)
        return 4.0;
    if (u < 0.95)
        return 8.0;
    if (u < 0.99)
        return 32.0;
    return 128.0;
}

typedef struct options {
    int64_t n, steps;
    uint64_t seed;
    bool mixed, kinematic, verbose;
    double w, h, radius, speed, cell, restitution, rebuild_fraction, active;
    int64_t levels;
    const char *bp_name, *png;
    tn_bp_kind kind;
} options;

/* Marbles as one array of structs (x, y, vx, vy, r): the pair test touches one cache line per
 * circle. The arithmetic is the peers', element by element. */
typedef struct scene {
    int32_t n;
    double w, h;
    tn_marble *m;
} scene;

static void scene_generate(scene *s, const options *o)
{
    rng g;
    rng_seed(&g, o->seed);
    for (int32_t i = 0; i < s->n; i++) {
        double r = o->mixed ? mixed_radius(rng_u01(&g)) : o->radius;
        double a, b;
        tn_marble *m = &s->m[i];
        m->r = r;
        m->x = r + rng_u01(&g) * (o->w - 2.0 * r);
        m->y = r + rng_u01(&g) * (o->h - 2.0 * r);
        do {
            a = 2.0 * rng_u01(&g) - 1.0;
            b = 2.0 * rng_u01(&g) - 1.0;
        } while (a * a + b * b > 1.0);
        m->vx = o->speed * a;
        m->vy = o->speed * b;
    }
}

/* The peers' kinematic step: advance, reflect at the walls. */
static void scene_move(scene *s)
{
    const double w = s->w, h = s->h;
    for (int32_t i = 0; i < s->n; i++) {
        tn_marble *m = &s->m[i];
        const double r = m->r;
        double x = m->x + m->vx;
        double y = m->y + m->vy;
        if (x < r) {
            x = 2.0 * r - x;
            m->vx = -m->vx;
        } else if (x > w - r) {
            x = 2.0 * (w - r) - x;
            m->vx = -m->vx;
        }
        if (y < r) {
            y = 2.0 * r - y;
            m->vy = -m->vy;
        } else if (y > h - r) {
            y = 2.0 * (h - r) - y;
            m->vy = -m->vy;
        }
        m->x = x;
        m->y = y;
    }
}

/* Kinetic energy, mass = r^2 (area over pi). */
static double scene_energy(const scene *s)
{
    return tn_marbles_energy(s->m, s->n);
}

static tn_box circle_box(const scene *s, int32_t i)
{
    const tn_marble *m = &s->m[i];
    tn_box b = {m->x - m->r, m->y - m->r, m->x + m->r, m->y + m->r};
    return b;
}

typedef struct counter {
    const scene *s;
    int64_t pairs, contacts;
} counter;

static bool count_pair(void *ctx, const tn_bp_pair *p)
{
    counter *c = ctx;
    const scene *s = c->s;
    const tn_marble *a = &s->m[p->user_a], *b = &s->m[p->user_b];
    const double dx = a->x - b->x;
    const double dy = a->y - b->y;
    const double rr = a->r + b->r;
    c->pairs++;
    if (dx * dx + dy * dy < rr * rr)
        c->contacts++;
    return true;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tilenav collide [--objects N] [--steps S] [--world W H] [--radius R]\n"
            "                       [--broadphase grid|hash|sap|brute] [--seed K] [--kinematic]\n"
            "                       [--mixed] [--speed V] [--cell C] [--levels L]\n"
            "                       [--restitution E] [--rebuild-fraction F] [--active A]\n"
            "                       [--verbose] [--png FILE]\n"
            "Runs N circles (default 1000) for S steps (default 100) in a W x H world (default\n"
            "4096 x 4096, radius 4, speed 2, seed 1) and prints one line:\n"
            "  collide objects=N steps=S broadphase=B pairs=P contacts=C ms_per_step=X "
            "energy_start=E0 energy_end=E1\n"
            "--kinematic: the peers' workload (no response; circles pass through each other).\n"
            "Otherwise the marbles: circles bounce off each other (restitution E, default 1)\n"
            "and off the world's edges. --mixed: radii 2..128. --cell/--levels override the\n"
            "grid's cell size and level count, --rebuild-fraction its rebuild threshold;\n"
            "--active A (kinematic, not a peer workload): only the first A*N circles move, the\n"
            "others rest and are not passed to the broad phase again. --verbose adds a phase\n"
            "split on stderr. --png FILE draws the final state (the world scaled to about 1024\n"
            "pixels): the broad phase's finest grid cells tinted by how many circles they hold,\n"
            "and the circles with their headings.\n\n"
            "Exit status: 0 ok, 2 bad arguments, 4 the PNG cannot be written, 5 out of memory\n"
            "or past a limit, 6 internal error (the broad phase failed).\n");
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->n = 1000;
    o->steps = 100;
    o->seed = 1;
    o->w = o->h = 4096.0;
    o->radius = 4.0;
    o->speed = 2.0;
    o->restitution = 1.0;
    o->rebuild_fraction = -1.0;
    o->active = 1.0;
    o->bp_name = "grid";
    o->kind = TN_BP_GRID;
    const char *cmd = "collide";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = argc - 1 - i;
        int64_t v;
        if (tn_cli_is_help(a)) {
            usage(stdout);
            return -1;
        } else if (!strcmp(a, "--objects") && more >= 1) {
            if (!tn_cli_parse_int(argv[++i], 1, TN_BP_MAX_OBJECTS, &o->n))
                return tn_cli_usage_error(cmd, "bad --objects '%s'", argv[i]);
        } else if (!strcmp(a, "--steps") && more >= 1) {
            if (!tn_cli_parse_int(argv[++i], 1, INT32_MAX, &o->steps))
                return tn_cli_usage_error(cmd, "bad --steps '%s'", argv[i]);
        } else if (!strcmp(a, "--seed") && more >= 1) {
            if (!tn_cli_parse_int(argv[++i], 0, INT64_MAX, &v))
                return tn_cli_usage_error(cmd, "bad --seed '%s'", argv[i]);
            o->seed = (uint64_t)v;
        } else if (!strcmp(a, "--world") && more < 2) {
            return tn_cli_usage_error(cmd, "--world takes two numbers: W H (pixels)");
        } else if (!strcmp(a, "--world") && more >= 2) {
            if (!tn_cli_parse_double(argv[i + 1], 1e-9, 1e12, &o->w) ||
                !tn_cli_parse_double(argv[i + 2], 1e-9, 1e12, &o->h))
                return tn_cli_usage_error(cmd, "bad --world '%s %s'", argv[i + 1], argv[i + 2]);
            i += 2;
        } else if (!strcmp(a, "--radius") && more >= 1) {
            if (!tn_cli_parse_double(argv[++i], 1e-9, 1e12, &o->radius))
                return tn_cli_usage_error(cmd, "bad --radius '%s'", argv[i]);
        } else if (!strcmp(a, "--speed") && more >= 1) {
            if (!tn_cli_parse_double(argv[++i], 0.0, 1e12, &o->speed))
                return tn_cli_usage_error(cmd, "bad --speed '%s'", argv[i]);
        } else if (!strcmp(a, "--cell") && more >= 1) {
            if (!tn_cli_parse_double(argv[++i], 1e-9, 1e12, &o->cell))
                return tn_cli_usage_error(cmd, "bad --cell '%s'", argv[i]);
        } else if (!strcmp(a, "--levels") && more >= 1) {
            if (!tn_cli_parse_int(argv[++i], 1, TN_BP_MAX_LEVELS, &o->levels))
                return tn_cli_usage_error(cmd, "bad --levels '%s'", argv[i]);
        } else if (!strcmp(a, "--rebuild-fraction") && more >= 1) {
            if (!tn_cli_parse_double(argv[++i], 0.0, 1e9, &o->rebuild_fraction))
                return tn_cli_usage_error(cmd, "bad --rebuild-fraction '%s'", argv[i]);
        } else if (!strcmp(a, "--active") && more >= 1) {
            if (!tn_cli_parse_double(argv[++i], 0.0, 1.0, &o->active))
                return tn_cli_usage_error(cmd, "bad --active '%s'", argv[i]);
        } else if (!strcmp(a, "--restitution") && more >= 1) {
            if (!tn_cli_parse_double(argv[++i], 0.0, 1.0, &o->restitution))
                return tn_cli_usage_error(cmd, "bad --restitution '%s'", argv[i]);
        } else if (!strcmp(a, "--broadphase") && more >= 1) {
            o->bp_name = argv[++i];
            if (!strcmp(o->bp_name, "grid"))
                o->kind = TN_BP_GRID;
            else if (!strcmp(o->bp_name, "hash"))
                o->kind = TN_BP_HASH;
            else if (!strcmp(o->bp_name, "sap"))
                o->kind = TN_BP_SAP;
            else if (!strcmp(o->bp_name, "brute"))
                o->kind = TN_BP_BRUTE;
            else
                return tn_cli_usage_error(cmd, "unknown --broadphase '%s'", o->bp_name);
        } else if (!strcmp(a, "--mixed")) {
            o->mixed = true;
        } else if (!strcmp(a, "--kinematic")) {
            o->kinematic = true;
        } else if (!strcmp(a, "--png") && more >= 1) {
            o->png = argv[++i];
        } else if (!strcmp(a, "--verbose")) {
            o->verbose = true;
        } else {
            return tn_cli_bad_option(cmd, a, i + 1 >= argc);
        }
    }
    if (o->active < 1.0 && !o->kinematic)
        return tn_cli_usage_error(cmd, "--active is for --kinematic runs (the marbles all move)");
    double rmax = o->mixed ? 128.0 : o->radius;
    if (o->w - 2.0 * rmax <= o->speed || o->h - 2.0 * rmax <= o->speed)
        return tn_cli_usage_error(cmd, "world too small for radius %g and speed %g", rmax,
                                  o->speed);
    return 0;
}

/* The broad phase for the scene: grids sized from the largest circle (hierarchical for mixed
 * radii) and the density (about one circle per cell), unless --cell/--levels say otherwise. */
static tn_status make_bp(const options *o, const scene *s, tn_bp **out, double *cell)
{
    tn_bp_def d = tn_bp_def_default();
    d.kind = o->kind;
    d.capacity = s->n;
    d.world.x0 = 0.0;
    d.world.y0 = 0.0;
    d.world.x1 = s->w;
    d.world.y1 = s->h;
    double rmin = o->mixed ? 2.0 : o->radius, rmax = o->mixed ? 128.0 : o->radius;
    double area = s->w * s->h;
    /* motion of one step is added to the box only in the marbles (swept boxes) */
    double grow = o->kinematic ? 0.0 : 2.0 * o->speed;
    d.cell_size = o->cell > 0.0 ? o->cell : tn_bp_suggest_cell(2.0 * rmin + grow, area, s->n);
    int32_t levels = 1;
    while (levels < TN_BP_MAX_LEVELS && ldexp(d.cell_size, levels - 1) <= 2.0 * rmax + grow)
        levels++;
    d.levels = o->levels > 0 ? (int32_t)o->levels : levels;
    if (o->rebuild_fraction >= 0.0)
        d.rebuild_fraction = o->rebuild_fraction;
    *cell = d.cell_size;
    return tn_bp_create(&d, out);
}

static int run_kinematic(const options *o, scene *s, tn_bp *bp, tn_bp_id *ids)
{
    /* --active: the circles past `moving` rest (not part of the peers' workload) */
    const int32_t moving = (int32_t)ceil(o->active * (double)s->n);
    for (int32_t i = moving; i < s->n; i++)
        s->m[i].vx = s->m[i].vy = 0.0;
    double e0 = scene_energy(s);
    counter c = {s, 0, 0};
    double t_move = 0.0, t_update = 0.0, t_pairs = 0.0;
    int64_t rebuilds = 0;
    for (int64_t step = 0; step < o->steps; step++) {
        scene_move(s); /* not timed, as in the peers */
        double t0 = tn_cli_now();
        for (int32_t i = 0; i < moving; i++) {
            tn_status st = tn_bp_move(bp, ids[i], circle_box(s, i));
            if (st != TN_OK)
                return TN_EXIT_INTERNAL;
        }
        double t1 = tn_cli_now();
        tn_bp_stats stats;
        if (tn_bp_update(bp, &stats) != TN_OK)
            return TN_EXIT_INTERNAL;
        rebuilds += stats.rebuilt;
        double t2 = tn_cli_now();
        if (tn_bp_pairs(bp, count_pair, &c) != TN_OK)
            return TN_EXIT_INTERNAL;
        double t3 = tn_cli_now();
        t_move += t1 - t0;
        t_update += t2 - t1;
        t_pairs += t3 - t2;
    }
    double ms = (t_move + t_update + t_pairs) * 1e3 / (double)o->steps;
    if (o->verbose)
        fprintf(stderr,
                "collide: move_ms=%.4f update_ms=%.4f pairs_ms=%.4f rebuilds=%lld "
                "memory_bytes=%zu\n",
                t_move * 1e3 / (double)o->steps, t_update * 1e3 / (double)o->steps,
                t_pairs * 1e3 / (double)o->steps, (long long)rebuilds, tn_bp_memory_bytes(bp));
    printf("collide objects=%d steps=%lld broadphase=%s pairs=%lld contacts=%lld "
           "ms_per_step=%.4f energy_start=%.9g energy_end=%.9g\n",
           s->n, (long long)o->steps, o->bp_name, (long long)c.pairs, (long long)c.contacts, ms, e0,
           scene_energy(s));
    return TN_EXIT_OK;
}

static int run_marbles(const options *o, scene *s, tn_bp *bp, tn_bp_id *ids);
int tn_cmd_collide(int argc, char **argv);

/* The final state through the shared scene layer: the world scaled to about 1024 pixels. */
static int write_png(const char *path, const scene *s, const tn_bp *bp, double cell)
{
    double big = s->w > s->h ? s->w : s->h, k = 1024.0 / big; /* canvas pixels per unit */
    double cw = ceil(s->w * k), ch = ceil(s->h * k);
    tn_canvas cv;
    if (!tn_canvas_init(&cv, cw < 1.0 ? 1 : (int32_t)cw, ch < 1.0 ? 1 : (int32_t)ch,
                        (tn_rgba){24, 26, 32, 255})) {
        tn_cli_error("collide", "%s: out of memory", path);
        return TN_EXIT_NOMEM;
    }
    /* one view "cell" per canvas pixel, 1/k world units wide */
    tn_draw_view v = {0, 0, 1, (float)(1.0 / k), (float)(1.0 / k)};
    tn_box world = {0.0, 0.0, s->w, s->h};
    tn_status st =
        tn_draw_bp(&cv, &v, bp, world, cell, (tn_rgba){255, 170, 60, 45}, (tn_rgba){0, 0, 0, 0});
    tn_draw_agent *a = st == TN_OK ? malloc((size_t)s->n * sizeof *a) : NULL;
    if (!a) {
        tn_canvas_free(&cv);
        tn_cli_error("collide", "%s: %s", path, st == TN_OK ? "out of memory" : tn_status_str(st));
        return st == TN_OK ? TN_EXIT_NOMEM : tn_cli_exit_for(st);
    }
    for (int32_t i = 0; i < s->n; i++) {
        const tn_marble *m = &s->m[i];
        a[i] = (tn_draw_agent){{(float)m->x, (float)m->y},
                               (float)m->r,
                               (float)atan2(m->vy, m->vx),
                               (tn_rgba){90, 170, 255, 255}};
    }
    (void)tn_draw_agents(&cv, &v, a, s->n, (tn_rgba){230, 240, 255, 255});
    free(a);
    int rc = tn_canvas_write_png(&cv, path);
    tn_canvas_free(&cv);
    if (rc != 0) {
        tn_cli_error("collide", "%s: cannot write", path);
        return TN_EXIT_OUTPUT;
    }
    return TN_EXIT_OK;
}

int tn_cmd_collide(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? TN_EXIT_OK : rc;
    scene s;
    s.n = (int32_t)o.n;
    s.w = o.w;
    s.h = o.h;
    size_t n = (size_t)o.n;
    s.m = malloc(n * sizeof *s.m);
    tn_bp_id *ids = malloc(n * sizeof *ids);
    tn_bp *bp = NULL;
    rc = TN_EXIT_NOMEM;
    if (!s.m || !ids)
        goto done;
    scene_generate(&s, &o);
    double cell = 0.0;
    tn_status st = make_bp(&o, &s, &bp, &cell);
    if (st != TN_OK) {
        tn_cli_error("collide", "cannot create the broad phase: %s", tn_status_str(st));
        rc = tn_cli_exit_for(st);
        goto done;
    }
    for (int32_t i = 0; i < s.n; i++) {
        st = tn_bp_insert(bp, circle_box(&s, i), (uint32_t)i, &ids[i]);
        if (st != TN_OK)
            goto done;
    }
    if (tn_bp_rebuild(bp) != TN_OK) /* setup, not timed */
        goto done;
    rc = o.kinematic ? run_kinematic(&o, &s, bp, ids) : run_marbles(&o, &s, bp, ids);
    if (rc == TN_EXIT_OK && o.png)
        rc = write_png(o.png, &s, bp, cell);
done:
    if (rc == TN_EXIT_NOMEM)
        tn_cli_error("collide", "out of memory");
    tn_bp_destroy(bp);
    free(ids);
    free(s.m);
    return rc;
}

/* The marbles: tn_marbles_step (swept broad phase, narrow phase, response, world walls). The
 * timed region is the whole step. */
static int run_marbles(const options *o, scene *s, tn_bp *bp, tn_bp_id *ids)
{
    tn_marbles_def p = tn_marbles_def_default();
    p.restitution = o->restitution;
    p.world.x0 = 0.0;
    p.world.y0 = 0.0;
    p.world.x1 = s->w;
    p.world.y1 = s->h;
    int64_t cap = 64 * (int64_t)s->n + 1024;
    tn_bp_pair *scratch = malloc((size_t)cap * sizeof *scratch);
    if (!scratch)
        return TN_EXIT_NOMEM;
    double e0 = scene_energy(s);
    int64_t pairs = 0, contacts = 0;
    double t = 0.0;
    int rc = TN_EXIT_OK;
    for (int64_t step = 0; step < o->steps; step++) {
        tn_marbles_stats st;
        double t0 = tn_cli_now();
        tn_status r = tn_marbles_step(s->m, s->n, bp, ids, &p, scratch, cap, &st);
        t += tn_cli_now() - t0;
        if (r != TN_OK) {
            tn_cli_error("collide", "step %lld: %s", (long long)step, tn_status_str(r));
            rc = tn_cli_exit_for(r);
            break;
        }
        pairs += st.pairs;
        contacts += st.contacts;
    }
    free(scratch);
    if (rc != TN_EXIT_OK)
        return rc;
    printf("collide objects=%d steps=%lld broadphase=%s pairs=%lld contacts=%lld "
           "ms_per_step=%.4f energy_start=%.9g energy_end=%.9g\n",
           s->n, (long long)o->steps, o->bp_name, (long long)pairs, (long long)contacts,
           t * 1e3 / (double)o->steps, e0, scene_energy(s));
    return TN_EXIT_OK;
}
