/* The memory (tn_regions_memory_bytes) and the CPU time of tn_regions_create on a map, for
 * size classes 1 and 1..2, each build's fastest of ROUNDS. Uses the public API only, so the
 * same file builds against older versions of the library to compare. Not built by CMake; from
 * the repository root, after a Release build:
 *
 *   cc -O2 -Iinclude bench/regions_memory.c -o build/regions_memory \
 *      build/release/libtilenav_io.a build/release/libtilenav.a -lm \
 *      $(pkg-config --libs libcjson zlib libzstd expat)
 *   build/regions_memory MAP [ROUNDS]
 *
 * Prints per size count: regions sizes=N bytes=B per_cell=X build_ms=T count=C (regions of
 * size 1). The huge map: python3 bench/gen_huge.py --out build/huge --queries 10 ...
 */
#define _POSIX_C_SOURCE 200809L
#include "standalone.h"
#include "tilenav/io.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: regions_memory MAP [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    rounds = rounds < 1 ? 1 : rounds;
    tn_map *m = load_map(argv[1]);
    const double cells = (double)tn_map_width(m) * (double)tn_map_height(m);
    for (int32_t sizes = 1; sizes <= 2; sizes++) {
        double best = 1e30;
        size_t bytes = 0;
        int32_t count = 0;
        for (int k = 0; k < rounds; k++) {
            tn_regions_def rd = tn_regions_def_default();
            rd.map = m;
            rd.max_size = sizes;
            tn_regions *r = NULL;
            double t0 = now();
            if (tn_regions_create(&rd, &r) != TN_OK) {
                fprintf(stderr, "regions_memory: tn_regions_create failed\n");
                tn_map_destroy(m);
                return 5;
            }
            double t = now() - t0;
            best = t < best ? t : best;
            bytes = tn_regions_memory_bytes(r);
            count = tn_regions_count(r, 1);
            tn_regions_destroy(r);
        }
        printf("regions sizes=%d bytes=%zu per_cell=%.2f build_ms=%.1f count=%d\n", (int)sizes,
               bytes, (double)bytes / cells, best * 1e3, (int)count);
    }
    tn_map_destroy(m);
    return 0;
}
