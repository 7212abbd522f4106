// Every public header, compiled as C++ (-std=c++11, -Wall -Wextra -Wpedantic -Werror): the
// extern "C" guards, no C-only constructs in inline functions, no clashes with C++ keywords.
#include "tilenav/tilenav.h"
#include "tilenav/io.h"

int main()
{
    tn_map_def def = tn_map_def_default();
    tn_map *map = nullptr;
    def.width = 4;
    def.height = 3;
    if (tn_map_create(&def, &map) != TN_OK)
        return 1;
    int ok = tn_map_width(map) == 4 && tn_gid_id(0x80000005u) == 5u &&
             tn_load_def_default().format == TN_FORMAT_AUTO;
    tn_map_destroy(map);
    return ok ? 0 : 1;
}
