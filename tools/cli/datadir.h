/* Where the installed tools find tilenav's data files (the bundled maps), from any directory.
 * A file REL (e.g. "maps/td.tmj") is looked for in, in this order:
 *   1. $TILENAV_DATA_DIR/REL                       (when the variable is set and not empty)
 *   2. <folder of the executable>/TN_DATA_REL/REL  (installed: <prefix>/bin/../share/tilenav)
 *   3. TN_DATA_DIR/REL                             (compiled in: the source tree's data/)
 * The executable's folder comes from /proc/self/exe (Linux); without it, step 2 is skipped. */
#ifndef TN_CLI_DATADIR_H
#define TN_CLI_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

/* Find REL. On success writes its path to `out` and returns true. Otherwise returns false and
 * writes to `tried` (when not NULL) the places tried, comma-separated, for an error message. */
bool tn_cli_data_file(const char *rel, char *out, size_t cap, char *tried, size_t tried_cap);

#endif
