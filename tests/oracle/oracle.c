#include "oracle.h"

#include <math.h>
#include <stdlib.h>

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

bool tn_oracle_step_ok(const tn_map *map, const tn_moves *moves, tn_cell a, tn_cell b)
{
    int dx = b.x - a.x, dy = b.y - a.y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
        return false;
    if (!tn_map_passable(map, b.x, b.y))
        return false;
    if (dx != 0 && dy != 0) {
        bool fa = tn_map_passable(map, a.x + dx, a.y);
        bool fb = tn_map_passable(map, a.x, a.y + dy);
        switch (moves->diagonal) {
        case TN_DIAGONAL_NEVER: return false;
        case TN_DIAGONAL_NO_CUT: return fa && fb;
        case TN_DIAGONAL_ONE: return fa || fb;
        case TN_DIAGONAL_ALWAYS: return true;
        }
    }
    return true;
}

double tn_oracle_step_cost(const tn_map *map, const tn_moves *moves, const float *extra, tn_cell a,
                           tn_cell b)
{
    bool diag = a.x != b.x && a.y != b.y;
    double base = moves->costs == TN_COSTS_10_14 ? (diag ? 14.0 : 10.0) : (diag ? sqrt(2.0) : 1.0);
    double c = base * (double)tn_map_cost(map, b.x, b.y);
    if (extra)
        c += (double)extra[tn_map_index(map, b.x, b.y)];
    return c;
}

void tn_oracle_dijkstra(const tn_map *map, const tn_moves *moves, const float *extra,
                        const tn_cell *sources, int nsources, bool reverse, double *dist)
{
    int w = tn_map_width(map), h = tn_map_height(map), n = w * h;
    char *done = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++)
        dist[i] = HUGE_VAL;
    for (int s = 0; s < nsources; s++)
        if (tn_map_passable(map, sources[s].x, sources[s].y))
            dist[tn_map_index(map, sources[s].x, sources[s].y)] = 0.0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && isfinite(dist[i]) && (best < 0 || dist[i] < dist[best]))
                best = i;
        if (best < 0)
            break;
        done[best] = 1;
        tn_cell c = {best % w, best / w};
        for (int k = 0; k < 8; k++) {
            tn_cell o = {c.x + DX[k], c.y + DY[k]};
            if (!tn_map_contains(map, o.x, o.y))
                continue;
            /* forward: c -> o; reverse: the real step is o -> c */
            tn_cell from = reverse ? o : c, to = reverse ? c : o;
            if (!tn_map_passable(map, from.x, from.y) || !tn_oracle_step_ok(map, moves, from, to))
                continue;
            double nd = dist[best] + tn_oracle_step_cost(map, moves, extra, from, to);
            int oi = o.y * w + o.x;
            if (nd < dist[oi])
                dist[oi] = nd;
        }
    }
    free(done);
}

double tn_oracle_path_cost(const tn_map *map, const tn_moves *moves, const float *extra,
                           const tn_cell *cells, int n, tn_cell start, tn_cell goal)
{
    if (n < 1 || cells[0].x != start.x || cells[0].y != start.y || cells[n - 1].x != goal.x ||
        cells[n - 1].y != goal.y)
        return -1.0;
    double c = 0.0;
    for (int i = 1; i < n; i++) {
        if (!tn_oracle_step_ok(map, moves, cells[i - 1], cells[i]))
            return -1.0;
        c += tn_oracle_step_cost(map, moves, extra, cells[i - 1], cells[i]);
    }
    return c;
}
