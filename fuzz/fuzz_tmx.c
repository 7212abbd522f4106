/* libFuzzer target: Tiled XML. Every input is loaded as a TMX map with the checks of
 * fuzz_tiled.c (an accepted map's passability equals a recount from its layers; every failure
 * carries a message), and is also read as a TSX tileset and a TX template document, whose tree
 * must be an object exactly when the read succeeds. */
#define FUZZ_FORMAT TN_FORMAT_TMX
#define LLVMFuzzerTestOneInput fuzz_map_one
#include "fuzz_tiled.c"
#undef LLVMFuzzerTestOneInput

#include "io/io_internal.h"

#include <cjson/cJSON.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_map_one(data, size);
    tn_load_def o = tn_load_def_default();
    static const tn__tiled_doc docs[2] = {TN__TILED_TILESET, TN__TILED_TEMPLATE};
    for (int k = 0; k < 2; k++) {
        cJSON *t = NULL;
        tn_diag d;
        tn_status st = tn__tmx_to_json((const char *)data, size, "fuzz", docs[k], &o, &t, &d);
        if (st == TN_OK ? !cJSON_IsObject(t) : (t != NULL || d.message[0] == '\0'))
            abort();
        cJSON_Delete(t);
    }
    return 0;
}
