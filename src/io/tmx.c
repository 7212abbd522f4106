/* Tiled XML (`.tmx` maps, `.tsx` tilesets, `.tx` templates), read into the cJSON tree of
 * Tiled's JSON export of the same document (see io_internal.h), then built by tiled.c. */
#include "io_internal.h"

#include <cjson/cJSON.h>

tn_status tn__tmx_to_json(const char *data, size_t len, const char *name, tn__tiled_doc want,
                          const tn_load_options *opts, cJSON **out, tn_diag *diag)
{
    (void)data;
    (void)len;
    (void)want;
    (void)opts;
    *out = NULL;
    return tn__diag(diag, TN_E_UNSUPPORTED, name, 0, 0, NULL, "Tiled XML is not read yet");
}

tn_status tn__parse_tmx(const char *data, size_t len, const char *name, const tn_load_options *opts,
                        tn_map **out, tn_diag *diag)
{
    *out = NULL;
    cJSON *root = NULL;
    tn_status st = tn__tmx_to_json(data, len, name, TN__TILED_MAP, opts, &root, diag);
    if (st == TN_OK)
        st = tn__tiled_from_tree(root, name, opts, out, diag);
    cJSON_Delete(root);
    return st;
}
