/* libFuzzer target: regions (regions.h) on small fuzzed maps under fuzzed edits. After the
 * build and after every edit's tn_regions_update, for every size class: the ids equal a
 * flood fill written here over the cells where the unit fits (its n x n square open and on the
 * map), up to renaming; a fresh build's ids are exactly the flood fill's (numbered in
 * row-major order of each region's first cell); counts agree.
 * Input: w, h, rules byte (bits 0-1 the diagonal rule, then the sizes 1..3), then one bit per
 * cell (1: wall), then edits of 5 bytes (x, y, width, height, wall or open), at most 24. */
#include "fuzz_map.h"
#include "tilenav/regions.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_SIDE = 24, MAX_EDITS = 24 };

/* Does an n x n unit fit with its top-left cell at (x, y)? */
static bool fits(const tn_map *m, int32_t x, int32_t y, int32_t n)
{
    if (x + n > tn_map_width(m) || y + n > tn_map_height(m))
        return false;
    for (int32_t dy = 0; dy < n; dy++)
        for (int32_t dx = 0; dx < n; dx++)
            if (!tn_map_passable(m, x + dx, y + dy))
                return false;
    return true;
}

/* The flood fill: ids in row-major order of each region's first cell, -1 where the unit does
 * not fit; returns the count. */
static int32_t flood(const tn_map *m, int32_t n, bool eight, int32_t *lab, int32_t *queue)
{
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    for (int32_t i = 0; i < w * h; i++)
        lab[i] = -1;
    int32_t count = 0;
    for (int32_t s = 0; s < w * h; s++) {
        if (lab[s] >= 0 || !fits(m, s % w, s / w, n))
            continue;
        int32_t head = 0, tail = 0;
        lab[s] = count;
        queue[tail++] = s;
        while (head < tail) {
            int32_t c = queue[head++], x = c % w, y = c / w;
            for (int32_t dy = -1; dy <= 1; dy++)
                for (int32_t dx = -1; dx <= 1; dx++) {
                    if ((dx == 0 && dy == 0) || (!eight && dx != 0 && dy != 0))
                        continue;
                    int32_t nx = x + dx, ny = y + dy;
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                        continue;
                    int32_t j = ny * w + nx;
                    if (lab[j] < 0 && fits(m, nx, ny, n)) {
                        lab[j] = count;
                        queue[tail++] = j;
                    }
                }
        }
        count++;
    }
    return count;
}

/* The regions of size n against the flood fill: the same partition (exactly the same ids when
 * `exact`), the same count. */
static void check(const tn_map *m, const tn_regions *r, int32_t n, bool eight, bool exact,
                  int32_t *lab, int32_t *queue, int32_t *map_ids)
{
    const int32_t w = tn_map_width(m), h = tn_map_height(m);
    int32_t count = flood(m, n, eight, lab, queue);
    if (tn_regions_count(r, n) != count)
        abort();
    for (int32_t i = 0; i < count; i++)
        map_ids[i] = -1;
    for (int32_t i = 0; i < w * h; i++) {
        int32_t id = tn_regions_id(r, n, i % w, i / w);
        if ((id < 0) != (lab[i] < 0) || id >= count)
            abort();
        if (id < 0)
            continue;
        if (exact && id != lab[i])
            abort();
        if (map_ids[lab[i]] < 0)
            map_ids[lab[i]] = id;
        if (map_ids[lab[i]] != id) /* one flood region, two ids */
            abort();
    }
    /* and no id for two flood regions: the count of distinct ids is the count */
    for (int32_t i = 0; i < count; i++)
        queue[i] = 0;
    for (int32_t i = 0; i < count; i++)
        if (queue[map_ids[i]]++)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const int32_t w = 1 + data[0] % MAX_SIDE, h = 1 + data[1] % MAX_SIDE;
    const tn_diagonal rule = (tn_diagonal)(data[2] & 3);
    const int32_t sizes = 1 + (data[2] >> 2) % 3;
    const bool eight = rule == TN_DIAGONAL_ALWAYS;
    int32_t layer = 0;
    tn_map *m = fuzz_map(w, h, 32, &layer);
    size_t at = 3;
    for (int32_t i = 0; i < w * h; i++) {
        size_t byte = at + (size_t)i / 8;
        uint32_t v = byte < size ? (uint32_t)(data[byte] >> (i % 8)) & 1u : 0u;
        if (tn_map_set(m, layer, i % w, i / w, v) != TN_OK)
            abort();
    }
    at += ((size_t)(w * h) + 7) / 8;
    int32_t *lab = malloc((size_t)(w * h) * sizeof *lab);
    int32_t *queue = malloc((size_t)(w * h) * sizeof *queue);
    int32_t *ids = malloc((size_t)(w * h) * sizeof *ids);
    if (!lab || !queue || !ids)
        abort();
    tn_regions_def rd = tn_regions_def_default();
    rd.map = m;
    rd.diagonal = rule;
    rd.max_size = sizes;
    tn_regions *r = NULL;
    if (tn_regions_create(&rd, &r) != TN_OK)
        abort();
    for (int32_t n = 1; n <= sizes; n++)
        check(m, r, n, eight, true, lab, queue, ids);
    for (int e = 0; e < MAX_EDITS && at + 5 <= size; e++, at += 5) {
        const uint8_t *d = data + at;
        int32_t x = d[0] % w, y = d[1] % h;
        int32_t x1 = x + 1 + d[2] % 4, y1 = y + 1 + d[3] % 4;
        tn_rect rect = {x, y, x1 < w ? x1 : w, y1 < h ? y1 : h};
        if (tn_map_fill(m, layer, rect, d[4] & 1u) != TN_OK)
            abort();
        if (d[4] & 2u)
            continue; /* several edits before one update: a wider window */
        if (tn_regions_update(r, NULL) != TN_OK || !tn_regions_current(r))
            abort();
        for (int32_t n = 1; n <= sizes; n++)
            check(m, r, n, eight, false, lab, queue, ids);
    }
    if (tn_regions_update(r, NULL) != TN_OK)
        abort();
    tn_regions *fresh = NULL;
    if (tn_regions_create(&rd, &fresh) != TN_OK)
        abort();
    for (int32_t n = 1; n <= sizes; n++) {
        check(m, r, n, eight, false, lab, queue, ids);
        check(m, fresh, n, eight, true, lab, queue, ids);
    }
    tn_regions_destroy(fresh);
    tn_regions_destroy(r);
    free(lab);
    free(queue);
    free(ids);
    tn_map_destroy(m);
    return 0;
}
