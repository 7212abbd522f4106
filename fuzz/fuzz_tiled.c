/* libFuzzer target: the Tiled JSON loader (and, through it, base64/zlib/gzip/zstd decoding).
 * Built twice: as fuzz_tiled, and with FUZZ_FORMAT=TN_FORMAT_ASCII as fuzz_ascii (see
 * fuzz_ascii.c). Every accepted map is checked: its derived passability equals a recount from
 * its layers and terrain table; every failure carries a message. */
#include "tilenav/io.h"

#include <stdlib.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT TN_FORMAT_TILED
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void recount(const tn_map *m)
{
    int32_t w = tn_map_width(m), h = tn_map_height(m), pass = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            bool ok = true;
            for (int32_t l = 0; l < tn_map_layer_count(m) && ok; l++) {
                if (tn_map_layer_kind(m, l) != TN_LAYER_TILES ||
                    !(tn_map_layer_flags(m, l) & TN_LAYER_TERRAIN))
                    continue;
                uint32_t g = tn_map_get(m, l, x, y);
                if (tn_gid_id(g) && !tn_map_terrain(m, g).passable)
                    ok = false;
            }
            if (ok != tn_map_passable(m, x, y))
                abort();
            pass += ok;
        }
    if (pass != tn_map_passable_count(m))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tn_load_def o = tn_load_def_default();
    o.format = FUZZ_FORMAT;
    o.max_layer_cells = 1 << 20; /* keep single runs fast; the limit path is fuzzed too */
    tn_map *m = NULL;
    tn_diag d;
    tn_status st = tn_map_parse((const char *)data, size, "fuzz", &o, &m, &d);
    if (st == TN_OK) {
        recount(m);
        tn_map_destroy(m);
    } else if (m != NULL || d.message[0] == '\0') {
        abort();
    }
    return 0;
}
