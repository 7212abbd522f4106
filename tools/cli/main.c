/* tilenav: the command-line tool. Dispatches to one cmd_<name>.c per command. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define TN_CMD(n)                                                                                  \
    int tn_cmd_##n(int argc, char **argv);                                                         \
    extern const char tn_cmd_##n##_summary[];
#include "cli_commands.inc"
#undef TN_CMD

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
#define TN_CMD(n) {#n, tn_cmd_##n, tn_cmd_##n##_summary},
#include "cli_commands.inc"
#undef TN_CMD
    {NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: tilenav COMMAND [ARGS...]\n"
               "       tilenav COMMAND --help\n"
               "       tilenav --version\n\n"
               "Navigation for 2D tile maps: paths, flow fields, agents, collision.\n\n"
               "Commands:\n");
    for (size_t i = 0; commands[i].name; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(
        f, "\nMaps: Moving AI .map, Tiled JSON (.tmj/.json) and XML (.tmx), tilenav ASCII (.txt).\n"
           "Coordinates are x = column, y = row, from 0 at the top-left.\n\n"
           "Exit status:\n"
           "  0  success\n"
           "  1  the command ran but its check failed (mismatch, no path, ...)\n"
           "  2  bad command line (unknown option, bad number, coordinates off the map)\n"
           "  3  an input file could not be read or parsed\n"
           "  4  an output file could not be written\n"
           "  5  out of memory or past a documented limit\n"
           "  6  internal error (a bug)\n");
}

/* Standard output could not be written (a full disk, a closed pipe: /dev/full): the output
 * is lost, so the run has failed whatever the command found. */
static int finish(int rc)
{
    errno = 0;
    bool bad = fflush(stdout) != 0;
    int why = errno;
    if (bad || ferror(stdout)) {
        fprintf(stderr, "tilenav: cannot write the standard output: %s\n",
                why ? strerror(why) : "write error");
        return rc == TN_EXIT_OK || rc == TN_EXIT_FAIL ? TN_EXIT_OUTPUT : rc;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TN_EXIT_USAGE;
    }
    if (tn_cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return finish(TN_EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("tilenav %s\n", tn_version());
        return finish(TN_EXIT_OK);
    }
    for (size_t i = 0; commands[i].name; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "tilenav: unknown command '%s' (see 'tilenav --help')\n", argv[1]);
    return TN_EXIT_USAGE;
}
