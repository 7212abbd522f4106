/* Shared pieces of the tilenav command-line tool: exit codes, argument parsing, messages.
 * Each command lives in its own cmd_<name>.c and defines:
 *     int tn_cmd_<name>(int argc, char **argv);   // argv[0] is the command name
 *     extern const char tn_cmd_<name>_summary[];   // one line for `tilenav --help`
 * The command list is generated from the file names by CMake (cli_commands.inc). */
#ifndef TN_CLI_H
#define TN_CLI_H

#include "tilenav/io.h"
#include "tilenav/moves.h"
#include "tilenav/tilenav.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Every command's entry point and summary (the list is generated from the file names). */
#define TN_CMD(n)                                                                                  \
    int tn_cmd_##n(int argc, char **argv);                                                         \
    extern const char tn_cmd_##n##_summary[];
#include "cli_commands.inc"
#undef TN_CMD

/* Exit codes, listed in `tilenav --help`. */
enum {
    TN_EXIT_OK = 0,
    TN_EXIT_FAIL = 1,    /* the command ran and its check failed (mismatch, no path, ...) */
    TN_EXIT_USAGE = 2,   /* bad command line */
    TN_EXIT_INPUT = 3,   /* an input file could not be read or parsed */
    TN_EXIT_OUTPUT = 4,  /* an output file could not be written */
    TN_EXIT_NOMEM = 5,   /* out of memory or a limit was exceeded */
    TN_EXIT_INTERNAL = 6 /* a bug: please report it */
};

/* Print "tilenav CMD: message" to stderr and return TN_EXIT_USAGE. */
int tn_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An option no rule took: unknown, or (when it is the last argument) perhaps one whose value
 * is missing. Returns TN_EXIT_USAGE. */
int tn_cli_bad_option(const char *cmd, const char *opt, bool last);
/* Print "tilenav CMD: message" to stderr. */
void tn_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict number parsing: the whole string must be a number in [lo, hi]. */
bool tn_cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
bool tn_cli_parse_double(const char *s, double lo, double hi, double *out);
/* Movement-rule option values shared by every command: --diagonal never|no-cut|one|always
 * ("nocut" is accepted too) and --costs exact|10-14. False for anything else. */
bool tn_cli_parse_diagonal(const char *s, tn_diagonal *out);
bool tn_cli_parse_costs(const char *s, tn_step_costs *out);
/* The map loader's collision options, for commands that load maps: `--collision LIST`
 * (comma-separated properties, shapes, objects; or all, none) into o->collision,
 * `--collision-layers NAMES` into o->collision_layers and `--cover center|any|half` into
 * o->cover. Returns 1 when argv[*i] is one of them (its value consumed, *i advanced), 0 when
 * it is not, -1 after printing a usage error. */
int tn_cli_load_option(const char *cmd, int argc, char **argv, int *i, tn_load_def *o);
/* The --help lines of those options. */
#define TN_CLI_LOAD_OPTIONS_HELP                                                                   \
    "  --collision LIST  which Tiled collision conventions block cells: a comma-separated\n"       \
    "                    list of properties, shapes, objects, or all (default) or none\n"          \
    "  --collision-layers NAMES\n"                                                                 \
    "                    the names (or classes) that mark an object layer as a collision\n"        \
    "                    layer, comma-separated, any case (default collision,collisions,\n"        \
    "                    collider,colliders,walls,wall,solid,obstacles,blocked; \"\" none)\n"      \
    "  --cover RULE      when a Tiled collision shape blocks a cell: center (default:\n"           \
    "                    the cell's centre is inside), any (any overlap) or half (over half)\n"
/* Map a tn_status to an exit code. */
int tn_cli_exit_for(tn_status st);
/* A loader failed with `st`: format its diagnostic into msg (cap bytes; the status's name when
 * the diagnostic is empty), print "tilenav CMD: msg" and return the exit code (which tells
 * the kind of failure). */
int tn_cli_load_failed(const char *cmd, const tn_diag *d, tn_status st, char *msg, size_t cap);
/* With --json, standard output holds the one JSON object and nothing else: the other lines a
 * command prints (bench, batch, sectors, arrivals, towers) go to standard error. Commands
 * that take --json call tn_cli_set_json() once their options are read. */
void tn_cli_set_json(bool on);
/* Where those other lines go: stdout, or stderr in --json mode. */
FILE *tn_cli_lines(void);

/* Inputs and outputs (inputs.c): an output never replaces a file the command read.
 * Remember `path` as an input of this run (when it is an existing file). */
void tn_cli_input(const char *path);
/* A tn_load_def::on_file that remembers every file a map load reads (the map, its external
 * tilesets and templates). */
void tn_cli_input_hook(const char *path, void *user);
/* Remember the tileset images of `map`, as the pictures open them. */
void tn_cli_input_images(const tn_map *map);
/* TN_EXIT_OK when output `path` (given with option `opt`; NULL = none) is not one of the
 * inputs remembered (by device and inode: another spelling or a link is the same file);
 * otherwise prints why and returns TN_EXIT_USAGE. Call it before any work is done. */
int tn_cli_check_output(const char *cmd, const char *opt, const char *path);
/* True when argv[i] is "-h" or "--help". */
bool tn_cli_is_help(const char *arg);
/* Monotonic clock in seconds. */
double tn_cli_now(void);

/* The scenarios a benchmark runs, by the peers' rule (../shared/bench/peers): `spread` > 0
 * and below `count`: that many indices spread evenly over [0, count) (duplicates dropped);
 * otherwise the first `limit` (0 = all). Writes them to `sel` (room for `count`), returns how
 * many. */
int32_t tn_cli_select_scenarios(int32_t count, int64_t limit, int64_t spread, int32_t *sel);

/* A tn_parallel_for on plain threads: `user` points to an int32_t thread count (1..16); the
 * count is cut into that many equal ranges, the caller runs the first, a thread each the
 * others (or the caller, when a thread cannot start). */
void tn_cli_thread_for(tn_task task, void *ctx, int32_t count, void *user);

#endif
