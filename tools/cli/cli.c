#include "cli.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool json_mode;

void tn_cli_set_json(bool on)
{
    json_mode = on;
}

FILE *tn_cli_lines(void)
{
    return json_mode ? stderr : stdout;
}

void tn_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tilenav %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int tn_cli_bad_option(const char *cmd, const char *opt, bool last)
{
    if (last)
        return tn_cli_usage_error(cmd, "unknown option '%s', or its value is missing", opt);
    return tn_cli_usage_error(cmd, "unknown option '%s'", opt);
}

int tn_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tilenav %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see 'tilenav %s --help')\n", cmd);
    va_end(ap);
    return TN_EXIT_USAGE;
}

bool tn_cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = (int64_t)v;
    return true;
}

bool tn_cli_parse_double(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool tn_cli_parse_diagonal(const char *s, tn_diagonal *out)
{
    static const struct {
        const char *name;
        tn_diagonal value;
    } names[] = {{"never", TN_DIAGONAL_NEVER},
                 {"no-cut", TN_DIAGONAL_NO_CUT},
                 {"nocut", TN_DIAGONAL_NO_CUT},
                 {"one", TN_DIAGONAL_ONE},
                 {"always", TN_DIAGONAL_ALWAYS}};
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].value;
            return true;
        }
    return false;
}

bool tn_cli_parse_costs(const char *s, tn_step_costs *out)
{
    if (s && strcmp(s, "exact") == 0)
        *out = TN_COSTS_EXACT;
    else if (s && (strcmp(s, "10-14") == 0 || strcmp(s, "10/14") == 0))
        *out = TN_COSTS_10_14;
    else
        return false;
    return true;
}

int tn_cli_load_option(const char *cmd, int argc, char **argv, int *i, tn_load_def *o)
{
    const char *opt = argv[*i];
    bool collision = strcmp(opt, "--collision") == 0;
    bool layers = strcmp(opt, "--collision-layers") == 0;
    if (!collision && !layers && strcmp(opt, "--cover") != 0)
        return 0;
    if (*i + 1 >= argc) {
        tn_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    if (layers) { /* the loader's own list syntax; "" turns the marker off */
        o->collision_layers = v;
        return 1;
    }
    if (!collision) {
        if (strcmp(v, "center") == 0)
            o->cover = TN_COVER_CENTER;
        else if (strcmp(v, "any") == 0)
            o->cover = TN_COVER_ANY;
        else if (strcmp(v, "half") == 0)
            o->cover = TN_COVER_HALF;
        else {
            tn_cli_usage_error(cmd, "--cover: unknown rule '%s' (center, any or half)", v);
            return -1;
        }
        return 1;
    }
    uint32_t bits = 0;
    for (const char *s = v; *s;) {
        size_t n = strcspn(s, ",");
        if (n == 3 && strncmp(s, "all", n) == 0)
            bits |= TN_COLLIDE_ALL;
        else if (n == 4 && strncmp(s, "none", n) == 0)
            bits |= 0;
        else if (n == 10 && strncmp(s, "properties", n) == 0)
            bits |= TN_COLLIDE_PROPERTIES;
        else if (n == 6 && strncmp(s, "shapes", n) == 0)
            bits |= TN_COLLIDE_TILE_SHAPES;
        else if (n == 7 && strncmp(s, "objects", n) == 0)
            bits |= TN_COLLIDE_OBJECT_LAYERS;
        else {
            tn_cli_usage_error(cmd,
                               "--collision: unknown convention '%.*s' (properties, shapes, "
                               "objects, all or none)",
                               (int)n, s);
            return -1;
        }
        s += n;
        if (*s == ',')
            s++;
    }
    o->collision = bits;
    return 1;
}

int tn_cli_load_failed(const char *cmd, const tn_diag *d, tn_status st, char *msg, size_t cap)
{
    tn_diag_format(d, msg, cap);
    if (!msg[0])
        snprintf(msg, cap, "%s", tn_status_str(st));
    tn_cli_error(cmd, "%s", msg);
    return tn_cli_exit_for(st);
}

int tn_cli_exit_for(tn_status st)
{
    switch (st) {
    case TN_OK:
    case TN_PARTIAL:
    case TN_CLOSEST:
    case TN_IN_PROGRESS: return TN_EXIT_OK;
    case TN_NO_PATH: return TN_EXIT_FAIL;
    case TN_E_IO:
    case TN_E_PARSE:
    case TN_E_UNSUPPORTED:
    case TN_E_NOT_FOUND: return TN_EXIT_INPUT;
    case TN_E_NOMEM:
    case TN_E_FULL:
    case TN_E_TOO_LARGE: return TN_EXIT_NOMEM;
    case TN_E_INVALID_ARG:
    case TN_E_OUT_OF_MAP:
    case TN_E_START_BLOCKED:
    case TN_E_GOAL_BLOCKED: return TN_EXIT_USAGE;
    default: return TN_EXIT_INTERNAL;
    }
}

bool tn_cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

double tn_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- a parallel loop on plain threads (tn_parallel_for) ---------------------------------- */
typedef struct piece {
    tn_task task;
    void *ctx;
    int32_t b, e;
} piece;

static void *run_piece(void *arg)
{
    piece *p = arg;
    p->task(p->ctx, p->b, p->e);
    return NULL;
}

void tn_cli_thread_for(tn_task task, void *ctx, int32_t count, void *user)
{
    int32_t n = *(const int32_t *)user;
    piece pc[16];
    pthread_t th[16];
    bool started[16] = {false};
    for (int32_t k = 0; k < n; k++)
        pc[k] = (piece){task, ctx, (int32_t)((int64_t)count * k / n),
                        (int32_t)((int64_t)count * (k + 1) / n)};
    for (int32_t k = 1; k < n; k++)
        started[k] = pthread_create(&th[k], NULL, run_piece, &pc[k]) == 0;
    run_piece(&pc[0]);
    for (int32_t k = 1; k < n; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            run_piece(&pc[k]); /* no thread: do it here */
    }
}

int32_t tn_cli_select_scenarios(int32_t count, int64_t limit, int64_t spread, int32_t *sel)
{
    int32_t n = 0;
    if (spread > 0 && spread < count) {
        double step = spread > 1 ? (double)(count - 1) / (double)(spread - 1) : 0.0;
        int32_t prev = -1;
        for (int64_t i = 0; i < spread; i++) {
            int32_t k = (int32_t)floor((double)i * step + 0.5);
            if (k != prev)
                sel[n++] = k;
            prev = k;
        }
        return n;
    }
    n = limit > 0 && limit < count ? (int32_t)limit : count;
    for (int32_t i = 0; i < n; i++)
        sel[i] = i;
    return n;
}
