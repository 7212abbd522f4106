/* tilenav field ... --sectors AGENTS: a sector flow field (sector_field.h) for the same goal as
 * the whole-map field just built, measured against it: the hierarchy's build, the goal's
 * abstract costs, the tiles that AGENTS agents at seeded random reachable cells need where
 * they stand and then along their whole routes, the memory of each, and how much longer the
 * sector field's routes are than the whole-map field's optimal distances. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int tn_cli_field_sectors(const tn_map *map, tn_moves moves, const tn_field *whole, tn_cell goal,
                         int64_t agents, int64_t cluster, int64_t sector, int64_t budget_kb,
                         tn_parallel_for pfor, void *puser, double whole_ms);

int tn_cli_field_sectors(const tn_map *map, tn_moves moves, const tn_field *whole, tn_cell goal,
                         int64_t agents, int64_t cluster, int64_t sector, int64_t budget_kb,
                         tn_parallel_for pfor, void *puser, double whole_ms)
{
    const char *cmd = "field";
    const int32_t w = tn_map_width(map), h = tn_map_height(map);
    if (tn_field_reachable_count(whole) < 1) {
        tn_cli_error(cmd, "--sectors: no cell reaches the goal");
        return TN_EXIT_USAGE;
    }
    tn_cell *at = malloc((size_t)agents * sizeof *at);
    if (!at)
        return TN_EXIT_NOMEM;
    /* agents at seeded random cells that reach the goal (by the whole-map field): anywhere,
     * or with `cluster` in a cluster x cluster square around a random such cell */
    tn_rng rng = tn_rng_seed(1);
    int32_t x0 = 0, y0 = 0, cw = w, ch = h;
    if (cluster > 0) {
        tn_cell c;
        do {
            c = (tn_cell){(int32_t)tn_rng_below(&rng, (uint32_t)w),
                          (int32_t)tn_rng_below(&rng, (uint32_t)h)};
        } while (!isfinite(tn_field_distance(whole, c.x, c.y)));
        int32_t half = (int32_t)(cluster / 2);
        x0 = c.x - half < 0 ? 0 : c.x - half;
        y0 = c.y - half < 0 ? 0 : c.y - half;
        cw = x0 + (int32_t)cluster > w ? w - x0 : (int32_t)cluster;
        ch = y0 + (int32_t)cluster > h ? h - y0 : (int32_t)cluster;
    }
    int64_t open = 0; /* reachable cells in the area: agents may share cells */
    for (int32_t y = y0; y < y0 + ch; y++)
        for (int32_t x = x0; x < x0 + cw; x++)
            open += isfinite(tn_field_distance(whole, x, y));
    for (int64_t i = 0; i < agents && open > 0;) {
        tn_cell c = {x0 + (int32_t)tn_rng_below(&rng, (uint32_t)cw),
                     y0 + (int32_t)tn_rng_below(&rng, (uint32_t)ch)};
        if (isfinite(tn_field_distance(whole, c.x, c.y)))
            at[i++] = c;
    }
    tn_hierarchy_def hd = tn_hierarchy_def_default();
    hd.map = map;
    hd.moves = moves;
    hd.sector_size = (int32_t)sector;
    tn_hierarchy *hier = NULL;
    double t0 = tn_cli_now();
    tn_status st = tn_hierarchy_build(&hd, &hier);
    double hier_ms = (tn_cli_now() - t0) * 1e3;
    tn_sector_field *sf = NULL;
    if (st == TN_OK) {
        tn_sector_field_def sd = tn_sector_field_def_default();
        sd.hierarchy = hier;
        sd.memory_budget = (size_t)budget_kb * 1024u;
        sd.parallel_for = pfor;
        sd.parallel_user = puser;
        st = tn_sector_field_create(&sd, &sf);
    }
    double goal_ms = 0.0, first_ms = 0.0, walk_ms = 0.0;
    tn_sector_field_stats first = {0}, done = {0};
    size_t first_bytes = 0, peak_bytes = 0;
    double sum = 0.0, worst = 0.0;
    int64_t arrived = 0;
    if (st == TN_OK) {
        t0 = tn_cli_now();
        st = tn_sector_field_set_goal(sf, &goal, 1);
        goal_ms = (tn_cli_now() - t0) * 1e3;
    }
    if (st == TN_OK) { /* where the agents stand: what a crowd step reads (one batch) */
        t0 = tn_cli_now();
        st = tn_sector_field_prepare(sf, at, (int32_t)agents, NULL);
        st = st == TN_E_FULL ? TN_OK : st; /* over the budget: the rest come one by one */
        for (int64_t i = 0; i < agents && st == TN_OK; i++) {
            int32_t d;
            st = tn_sector_field_dir(sf, at[i], &d, NULL);
            st = st == TN_NO_PATH ? TN_OK : st;
        }
        first_ms = (tn_cli_now() - t0) * 1e3;
        tn_sector_field_stats_get(sf, &first);
        first_bytes = tn_sector_field_memory_bytes(sf);
    }
    if (st == TN_OK) { /* every agent's whole route */
        t0 = tn_cli_now();
        for (int64_t i = 0; i < agents && st == TN_OK; i++) {
            int32_t len = 0;
            double cost = 0.0;
            st = tn_sector_field_path(sf, at[i], NULL, 0, &len, &cost);
            if (st == TN_E_BUFFER_TOO_SMALL || (st == TN_OK && len == 1))
                st = TN_OK; /* the route was walked; only its cells were not kept */
            if (st == TN_OK) {
                arrived++;
                double opt = (double)tn_field_distance(whole, at[i].x, at[i].y);
                double sub = opt > 0.0 ? cost / opt - 1.0 : 0.0;
                sum += sub;
                worst = sub > worst ? sub : worst;
            } else if (st == TN_NO_PATH) {
                st = TN_OK;
            }
        }
        walk_ms = (tn_cli_now() - t0) * 1e3;
        tn_sector_field_stats_get(sf, &done);
        peak_bytes = tn_sector_field_memory_bytes(sf);
    }
    int rc = TN_EXIT_OK;
    if (st != TN_OK) {
        tn_cli_error(cmd, "--sectors: %s", tn_status_str(st));
        rc = tn_cli_exit_for(st);
    } else {
        fprintf(tn_cli_lines(),
                "sectors agents=%lld cluster=%lld sector=%lld arrived=%lld hierarchy_ms=%.1f "
                "hierarchy_bytes=%zu goal_ms=%.2f first_ms=%.2f first_tiles=%d "
                "first_bytes=%zu walk_ms=%.1f tiles_built=%lld tiles_kept=%d tiles_max=%d "
                "evicted=%lld field_bytes=%zu whole_ms=%.1f whole_bytes=%zu subopt_mean=%.4f "
                "subopt_max=%.4f\n",
                (long long)agents, (long long)cluster, (long long)sector, (long long)arrived,
                hier_ms, tn_hierarchy_memory_bytes(hier), goal_ms, first_ms, first.tiles_kept,
                first_bytes, walk_ms, (long long)done.tiles_built, done.tiles_kept, done.tiles_max,
                (long long)done.tiles_evicted, peak_bytes, whole_ms, tn_field_memory_bytes(whole),
                arrived ? sum / (double)arrived : 0.0, worst);
        if (arrived != agents) {
            tn_cli_error(cmd, "--sectors: %lld of %lld agents found no route",
                         (long long)(agents - arrived), (long long)agents);
            rc = TN_EXIT_FAIL;
        }
    }
    tn_sector_field_destroy(sf);
    tn_hierarchy_destroy(hier);
    free(at);
    return rc;
}
