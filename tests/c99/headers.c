/* Every public header, compiled as C99 (-std=c99 -Wall -Wextra -Wpedantic -Werror): the
 * library is C11 inside, but a game built as C99 must be able to include it (no typedef
 * declared twice, no anonymous unions, no _Static_assert in the headers). */
#include "tilenav/clearance.h"
#include "tilenav/io.h"
#include "tilenav/regions.h"
#include "tilenav/search.h"
#include "tilenav/tilenav.h"

int main(void)
{
    tn_map_def def = tn_map_def_default();
    tn_map *map = NULL;
    def.width = 4;
    def.height = 3;
    if (tn_map_create(&def, &map) != TN_OK)
        return 1;
    tn_query q = {0};
    q.size = 1;
    int ok = tn_map_width(map) == 4 && q.size == 1 && tn_gid_id(0x80000005u) == 5u &&
             tn_load_def_default().format == TN_FORMAT_AUTO;
    tn_map_destroy(map);
    return ok ? 0 : 1;
}
