/* libFuzzer target: the Tiled JSON loader (and, through it, base64/zlib/gzip/zstd decoding).
 * Built twice: as fuzz_tiled, and with FUZZ_FORMAT=TN_FORMAT_ASCII as fuzz_ascii (see
 * fuzz_ascii.c). Every accepted map is checked: its derived passability equals a recount from
 * its layers and terrain table; every failure carries a message. */
#include "fuzz_check.h"
#include "tilenav/io.h"

#include <stdlib.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT TN_FORMAT_TILED
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tn_load_def o = tn_load_def_default();
    o.format = FUZZ_FORMAT;
    o.max_layer_cells = 1 << 20; /* keep single runs fast; the limit path is fuzzed too */
    tn_map *m = NULL;
    tn_diag d;
    tn_status st = tn_map_parse((const char *)data, size, "fuzz", &o, &m, &d);
    if (st == TN_OK) {
        (void)fuzz_recount(m);
        tn_map_destroy(m);
    } else if (m != NULL || d.message[0] == '\0') {
        abort();
    }
    return 0;
}
