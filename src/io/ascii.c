/* tilenav ASCII loader: in progress (see issue 2); refuses every input with a clear message for
 * now. */
#include "io_internal.h"

tn_status tn__parse_ascii(const char *data, size_t len, const char *name,
                          const tn_load_options *opts, tn_map **out, tn_diag *diag)
{
    (void)data;
    (void)len;
    (void)opts;
    *out = NULL;
    return tn__diag(diag, TN_E_UNSUPPORTED, name, 0, 0, NULL,
                    "tilenav ASCII maps are not supported yet");
}
