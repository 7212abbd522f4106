/* The files a command read, so that none of its outputs replaces one of them: a map given
 * again as --png, a tileset image as --png, a scenario file as --write-optimal. Files are
 * told apart by device and inode, so another spelling of the path, a symbolic link or a hard
 * link to an input is caught too. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct input {
    dev_t dev;
    ino_t ino;
    char *path;
} input;

static input *inputs;
static int32_t input_n, input_cap;

void tn_cli_input(const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return; /* not a file the run read: nothing to protect */
    for (int32_t i = 0; i < input_n; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
            return;
    if (input_n == input_cap) {
        int32_t cap = input_cap ? 2 * input_cap : 16;
        input *grown = realloc(inputs, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* out of memory: the check is lost, not the run */
        inputs = grown;
        input_cap = cap;
    }
    char *copy = malloc(strlen(path) + 1);
    if (!copy)
        return;
    strcpy(copy, path);
    inputs[input_n++] = (input){st.st_dev, st.st_ino, copy};
}

void tn_cli_input_hook(const char *path, void *user)
{
    (void)user;
    tn_cli_input(path);
}

void tn_cli_input_images(const tn_map *map)
{
    /* as tn_tileset_images_load() opens them with no base folder: the path as written */
    for (int32_t i = 0, n = tn_map_tileset_count(map); i < n; i++) {
        const tn_tileset *t = tn_map_tileset_at(map, i);
        if (t && t->image[0])
            tn_cli_input(t->image);
    }
}

int tn_cli_check_output(const char *cmd, const char *opt, const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return TN_EXIT_OK; /* a new file */
    for (int32_t i = 0; i < input_n; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
            return tn_cli_usage_error(cmd,
                                      "%s '%s' is the input file '%s': writing it would destroy "
                                      "it; give another output path",
                                      opt, path, inputs[i].path);
    return TN_EXIT_OK;
}
