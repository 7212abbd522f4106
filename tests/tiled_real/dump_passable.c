/* dump_passable MAP: what tilenav_io makes of a map, in the text that reference.py prints.
 *
 *   W H
 *   counts BLOCKED PROPS SHAPES OBJECTS TILES_WITH_SHAPES COLLISION_LAYERS COLLISION_OBJECTS
 *     (from the tn_load_report; "counts none BLOCKED" when the loader left the report untouched)
 *   layers N
 *   layer HASH NAME          one per tile layer, in map order, except TN_COLLISION_LAYER:
 *                            CRC-32 of the name, a NUL and the W*H gids (little endian, flip
 *                            bits kept)
 *   H rows of '.' (passable) and '#' (blocked)
 *
 * The map is loaded with tn_load_def_default() plus a report. Exit status: 0, 2 for a bad
 * command line, 3 when the load fails (the tn_diag on stderr), 4 when memory runs out. */
#include "tilenav/io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32), bit by bit: small and independent. */
static uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint32_t layer_hash(const char *name, const uint32_t *gids, size_t count)
{
    size_t n = strlen(name);
    uint32_t h = crc32_update(0, name, n > 127 ? 127 : n);
    h = crc32_update(h, "", 1);
    for (size_t i = 0; i < count; i++) {
        unsigned char b[4] = {(unsigned char)(gids[i] & 0xffu), (unsigned char)(gids[i] >> 8),
                              (unsigned char)(gids[i] >> 16), (unsigned char)(gids[i] >> 24)};
        h = crc32_update(h, b, sizeof b);
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dump_passable MAP\n");
        return 2;
    }
    tn_load_report report;
    /* -1 everywhere: a loader that does not fill the report leaves it so */
    memset(&report, 0xff, sizeof report);
    tn_load_def opts = tn_load_def_default();
    opts.report = &report;
    tn_map *map = NULL;
    tn_diag diag;
    memset(&diag, 0, sizeof diag);
    tn_status st = tn_map_load(argv[1], &opts, &map, &diag);
    if (st != TN_OK) {
        char msg[1024];
        tn_diag_format(&diag, msg, sizeof msg);
        fprintf(stderr, "%s (%s)\n", msg, tn_status_str(st));
        return st == TN_E_NOMEM ? 4 : 3;
    }
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    size_t cells = (size_t)w * (size_t)h;
    const uint8_t *pass = tn_map_passable_data(map);
    int32_t blocked = 0;
    for (size_t i = 0; i < cells; i++)
        blocked += pass[i] ? 0 : 1;

    printf("%d %d\n", w, h);
    if (report.cells_blocked == -1 && report.blocked_by_properties == -1)
        printf("counts none %d\n", blocked);
    else
        printf("counts %d %d %d %d %d %d %d\n", report.cells_blocked, report.blocked_by_properties,
               report.blocked_by_tile_shapes, report.blocked_by_object_layers,
               report.tiles_with_shapes, report.collision_layers, report.collision_objects);

    int32_t layers = tn_map_layer_count(map), tile_layers = 0;
    for (int32_t l = 0; l < layers; l++)
        if (tn_map_layer_kind(map, l) == TN_LAYER_TILES &&
            strcmp(tn_map_layer_name(map, l), TN_COLLISION_LAYER) != 0)
            tile_layers++;
    printf("layers %d\n", tile_layers);
    for (int32_t l = 0; l < layers; l++) {
        const char *name = tn_map_layer_name(map, l);
        if (tn_map_layer_kind(map, l) != TN_LAYER_TILES || strcmp(name, TN_COLLISION_LAYER) == 0)
            continue;
        printf("layer %08lx %s\n",
               (unsigned long)layer_hash(name, tn_map_layer_data(map, l), cells), name);
    }

    char *row = malloc((size_t)w + 1);
    if (!row) {
        tn_map_destroy(map);
        return 4;
    }
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++)
            row[x] = pass[(size_t)y * (size_t)w + (size_t)x] ? '.' : '#';
        row[w] = '\0';
        puts(row);
    }
    free(row);
    tn_map_destroy(map);
    return 0;
}
