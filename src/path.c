/* Path utilities: pixel waypoints, compression, line of sight and string pulling. */
#include "tilenav/path.h"

#include "internal.h"
#include "tilenav/field.h"

#include <math.h>

tn_status tn_path_to_px(const tn_map *map, const tn_cell *cells, int32_t n, tn_vec2 *out)
{
    if (!map || n < 0 || (n > 0 && (!cells || !out)))
        return TN_E_INVALID_ARG;
    for (int32_t i = 0; i < n; i++)
        out[i] = tn_map_cell_center_px(map, cells[i].x, cells[i].y);
    return TN_OK;
}

static int32_t sgn(int32_t v)
{
    return (v > 0) - (v < 0);
}

tn_status tn_path_compress(const tn_cell *cells, int32_t n, tn_cell *out, int32_t cap, int32_t *len)
{
    if (!len || n < 0 || cap < 0 || (n > 0 && !cells) || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    /* count first, so that a short buffer leaves `out` untouched */
    int32_t m = n < 2 ? n : 2;
    for (int32_t i = 1; i + 1 < n; i++) {
        int32_t ax = sgn(cells[i].x - cells[i - 1].x), ay = sgn(cells[i].y - cells[i - 1].y);
        int32_t bx = sgn(cells[i + 1].x - cells[i].x), by = sgn(cells[i + 1].y - cells[i].y);
        m += (ax != bx || ay != by) ? 1 : 0;
    }
    *len = m;
    if (m > cap)
        return TN_E_BUFFER_TOO_SMALL;
    if (n == 0)
        return TN_OK;
    /* in place is safe: the write index never passes the read index; keep the previous cell
     * in a local because out[k - 1] may have replaced cells[i - 1] */
    tn_cell prev = cells[0], first = cells[0];
    int32_t k = 0;
    out[k++] = first;
    for (int32_t i = 1; i + 1 < n; i++) {
        tn_cell c = cells[i], nx = cells[i + 1];
        int32_t ax = sgn(c.x - prev.x), ay = sgn(c.y - prev.y);
        int32_t bx = sgn(nx.x - c.x), by = sgn(nx.y - c.y);
        if (ax != bx || ay != by)
            out[k++] = c;
        prev = c;
    }
    if (n > 1)
        out[k++] = cells[n - 1];
    TN_ASSERT(k == m);
    return TN_OK;
}

bool tn_path_line_clear(const tn_map *map, tn_cell a, tn_cell b)
{
    /* the one exact line walk (field.h); a segment through a grid corner touches the two side
     * cells too, so both must be free: the no-corner-cutting rule */
    return tn_los_clear(map, a, b, TN_DIAGONAL_NO_CUT);
}

tn_status tn_path_smooth(const tn_map *map, const tn_cell *cells, int32_t n, tn_cell *out,
                         int32_t cap, int32_t *len)
{
    if (!map || !len || n < 0 || cap < 0 || (n > 0 && !cells) || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    for (int32_t i = 1; i < n; i++)
        if (!tn_path_line_clear(map, cells[i - 1], cells[i]))
            return TN_E_INVALID_ARG;
    if (n == 1 && !tn_map_passable(map, cells[0].x, cells[0].y))
        return TN_E_INVALID_ARG;
    /* pass 1 counts, pass 2 writes (the same decisions, so a short buffer is reported before
     * anything is written and in-place use stays safe) */
    for (int pass = 0; pass < 2; pass++) {
        int32_t k = 0;
        if (n > 0) {
            if (pass)
                out[0] = cells[0];
            k = 1;
        }
        int32_t anchor = 0;
        tn_cell acell = n > 0 ? cells[0] : (tn_cell){0, 0};
        while (anchor < n - 1) {
            int32_t j = anchor + 1;
            while (j + 1 < n && tn_path_line_clear(map, acell, cells[j + 1]))
                j++;
            tn_cell c = cells[j];
            if (pass)
                out[k] = c;
            k++;
            anchor = j;
            acell = c;
        }
        if (!pass) {
            *len = k;
            if (k > cap)
                return TN_E_BUFFER_TOO_SMALL;
        }
    }
    return TN_OK;
}

double tn_path_length(const tn_cell *cells, int32_t n)
{
    double l = 0.0;
    for (int32_t i = 1; cells && i < n; i++) {
        double dx = (double)cells[i].x - cells[i - 1].x, dy = (double)cells[i].y - cells[i - 1].y;
        l += sqrt(dx * dx + dy * dy);
    }
    return l;
}
