/* Shortest paths: the search context, A* / Dijkstra with a 4-ary heap, time-sliced queries,
 * path reconstruction and Dijkstra distance maps. Jump Point Search lives in jps.c. */
#include "clearance_internal.h"
#include "search_internal.h"

#include <math.h>
#include <string.h>

tn_search_def tn_search_def_default(void)
{
    tn_search_def d;
    memset(&d, 0, sizeof d);
    d.max_cells = 0; /* grow with the maps the context meets */
    d.internal_cookie = TN_COOKIE_SEARCH_CTX;
    return d;
}

static void free_arrays(tn_search *s)
{
    size_t n = (size_t)s->max_cells;
    tn__free(&s->alloc, s->key, n * sizeof(double));
    tn__free(&s->alloc, s->tag, n * sizeof(uint32_t));
    tn__free(&s->alloc, s->heap, n * sizeof(uint32_t));
    tn__free(&s->alloc, s->jkey, n * sizeof(double));
    s->jkey = NULL;
    s->okey = NULL;
    s->key = NULL;
    s->tag = NULL;
    s->heap = NULL;
    s->max_cells = 0;
}

/* (Re)allocate the per-cell arrays for `cells` cells. The tags start at 0, below any
 * generation, so no stale mark survives; nothing else in the context points into them
 * between queries. On failure the context holds no arrays (max_cells 0). */
static tn_status size_arrays(tn_search *s, int32_t cells)
{
    free_arrays(s);
    size_t n = (size_t)cells;
    s->key = tn__alloc(&s->alloc, n * sizeof(double));
    s->tag = tn__calloc(&s->alloc, n * sizeof(uint32_t));
    s->heap = tn__alloc(&s->alloc, n * sizeof(uint32_t));
    s->max_cells = cells; /* the size free_arrays() gives back, if one of them failed */
    if (!s->key || !s->tag || !s->heap) {
        free_arrays(s);
        return TN_E_NOMEM;
    }
    s->okey = s->key;
    s->gen = 1;
    s->heap_n = 0;
    s->stack_n = 0;
    return TN_OK;
}

tn_status tn_search_create(const tn_search_def *def, tn_search **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_SEARCH_CTX || def->max_cells < 0)
        return TN_E_INVALID_ARG;
    if (def->max_cells > TN_MAX_CELLS)
        return TN_E_TOO_LARGE;
    if ((def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    tn_search *s = tn__calloc(&def->allocator, sizeof *s);
    if (!s)
        return TN_E_NOMEM;
    s->alloc = def->allocator;
    s->grow = def->max_cells == 0;
    s->gen = 1;
    s->end = -1;
    s->best = -1;
    if (!s->grow && size_arrays(s, def->max_cells) != TN_OK) {
        tn_search_destroy(s);
        return TN_E_NOMEM;
    }
    *out = s;
    return TN_OK;
}

tn_status tn__search_fit(tn_search *s, int64_t cells)
{
    if (cells <= s->max_cells)
        return TN_OK;
    if (!s->grow || cells > TN_MAX_CELLS)
        return TN_E_TOO_LARGE;
    return size_arrays(s, (int32_t)cells);
}

void tn_search_destroy(tn_search *s)
{
    if (!s)
        return;
    tn__jps_free(s);
    free_arrays(s);
    tn__free(&s->alloc, s->goal_copy, s->goal_cap * sizeof *s->goal_copy);
    tn_allocator a = s->alloc;
    tn__free(&a, s, sizeof *s);
}

size_t tn_search_memory_bytes(const tn_search *s)
{
    if (!s)
        return 0;
    return sizeof *s + (size_t)s->max_cells * (sizeof(double) + 2 * sizeof(uint32_t)) +
           (s->jkey ? (size_t)s->max_cells * sizeof(double) : 0) + tn__jps_bytes(s) +
           s->goal_cap * sizeof *s->goal_copy;
}

int32_t tn_search_max_cells(const tn_search *s)
{
    return s ? s->max_cells : 0;
}

/* ---- names ---------------------------------------------------------------------------- */

static const char *const heuristic_names[] = {"auto",   "manhattan", "euclidean",
                                              "octile", "chebyshev", "zero"};
static const char *const algo_names[] = {"astar", "dijkstra", "jps", "jps+"};

const char *tn_heuristic_name(tn_heuristic h)
{
    return (unsigned)h <= (unsigned)TN_HEURISTIC_ZERO ? heuristic_names[h] : "unknown";
}

bool tn_heuristic_from_name(const char *name, tn_heuristic *out)
{
    if (!name || !out)
        return false;
    for (int i = 0; i <= (int)TN_HEURISTIC_ZERO; i++)
        if (strcmp(name, heuristic_names[i]) == 0) {
            *out = (tn_heuristic)i;
            return true;
        }
    if (strcmp(name, "diagonal") == 0) {
        *out = TN_HEURISTIC_OCTILE;
        return true;
    }
    return false;
}

const char *tn_algo_name(tn_algo a)
{
    return (unsigned)a <= (unsigned)TN_ALGO_JPS_PLUS ? algo_names[a] : "unknown";
}

bool tn_algo_from_name(const char *name, tn_algo *out)
{
    if (!name || !out)
        return false;
    for (int i = 0; i <= (int)TN_ALGO_JPS_PLUS; i++)
        if (strcmp(name, algo_names[i]) == 0) {
            *out = (tn_algo)i;
            return true;
        }
    return false;
}

/* ---- query set-up and tear-down ------------------------------------------------------- */

/* Start a new generation; clear every tag when the stamps would wrap. */
static void search_new_generation(tn_search *s)
{
    if (s->gen >= GEN_MAX) {
        memset(s->tag, 0, (size_t)s->max_cells * sizeof(uint32_t));
        s->gen = 0;
    }
    s->gen++;
}

/* Reset the open nodes and unreached goal marks so that the next generation starts clean. */
static void search_finish(tn_search *s)
{
    for (int32_t k = 0; k < q_count(s); k++)
        s->tag[q_entry(s, k) & ENT_IDX] = 0;
    s->heap_n = 0;
    s->stack_n = 0;
    for (int32_t k = 0; k < s->goal_count; k++) {
        int32_t gx = s->goals[k].x, gy = s->goals[k].y;
        if (gx < 0 || gy < 0 || gx >= s->w || gy >= s->h)
            continue;
        int32_t gi = gy * s->w + gx;
        if (s->tag[gi] == TAG_GOAL)
            s->tag[gi] = 0;
    }
    s->state = Q_DONE;
}

/* What is wrong with a query's own fields (tn_search_error_detail), or NULL. */
static const char *query_problem(const tn_query *q)
{
    if (!tn_moves_valid(&q->moves))
        return "query.moves: not a tn_diagonal or not a tn_step_costs";
    if ((unsigned)q->algo > (unsigned)TN_ALGO_JPS_PLUS)
        return "query.algo is not a tn_algo";
    if ((unsigned)q->heuristic > (unsigned)TN_HEURISTIC_ZERO)
        return "query.heuristic is not a tn_heuristic";
    if (!isfinite(q->weight) || (q->weight != 0.0 && q->weight < 1.0))
        return "query.weight must be 0 (none) or a finite number >= 1";
    if (!isfinite(q->closest_bound) || q->closest_bound < 0.0)
        return "query.closest_bound must be finite and >= 0";
    if (q->max_expansions < 0)
        return "query.max_expansions must be >= 0";
    if (q->size < 0 || q->size > 255)
        return "query.size must be 0..255";
    return NULL;
}

/* The detail of a query on a size map (tn_clearance_map()) whose source map was edited. */
#define VIEW_BEHIND                                                                                \
    "the map is a size map (tn_clearance_map()) and its source map was edited since: call "        \
    "tn_clearance_update() (or tn_regions_update() for tn_regions_clearance()'s) first"

/* Fail a query set-up with status `st`, keeping `why` for tn_search_error_detail(). */
#define SETUP_FAIL(status_, reason_)                                                               \
    do {                                                                                           \
        s->why = (reason_);                                                                        \
        return (status_);                                                                          \
    } while (0)

static bool extra_valid(const float *extra, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(extra[i] >= 0.0f && extra[i] <= TN_MAX_COST))
            return false;
    return true;
}

/* Heuristic parameters from the query and the map. */
static void search_setup_heuristic(tn_search *s, double minc)
{
    const tn_query *q = &s->q;
    bool eight = q->moves.diagonal != TN_DIAGONAL_NEVER;
    tn_heuristic h = q->heuristic;
    if (h == TN_HEURISTIC_AUTO)
        h = eight ? TN_HEURISTIC_OCTILE : TN_HEURISTIC_MANHATTAN;
    if (s->algo == TN_ALGO_DIJKSTRA || (s->goal_count > MAX_HEUR_GOALS && h != TN_HEURISTIC_ZERO))
        h = TN_HEURISTIC_ZERO;
    s->hkind = h;
    s->hstr = s->straight;
    /* octile: max*S + min*(D - S); without diagonals the cheapest way over a diagonal unit is
     * two straight steps */
    s->hdiag = eight ? s->diagonal - s->straight : s->straight;
    /* euclidean: the cheapest cost per unit of straight-line distance */
    double per_diag = (eight ? s->diagonal : 2.0 * s->straight) / TN_SQRT2;
    s->euc = per_diag < s->straight ? per_diag : s->straight;
    double w = q->weight == 0.0 ? 1.0 : q->weight;
    /* h is inflated by 2^-40 (a relative 9e-13): among open nodes of equal f the one with the
     * smaller h (further along) comes first, and far below the 1e-10 of the f level */
    s->hmul = w * minc * (1.0 + 1.0 / 1099511627776.0);
    /* the f-level stack needs a consistent heuristic (search_internal.h, the open list) */
    s->lifo = w == 1.0 && !(h == TN_HEURISTIC_MANHATTAN && eight);
    /* scale once here, so that every heuristic is one multiply-add per cell */
    s->hstr *= s->hmul;
    s->hdiag *= s->hmul;
    s->euc *= s->hmul;
    s->multi_h = s->goal_count > 1 && h != TN_HEURISTIC_ZERO;
    /* closest_bound: a node's g is recovered as f - h, a few units in the last place of f
     * off, so a cell of cost exactly the bound could test past it; the limit allows that
     * much (f is at most the bound plus the largest heuristic the map allows) */
    double hbig = (fabs(s->hstr) + fabs(s->hdiag) + fabs(s->euc)) * ((double)s->w + (double)s->h);
    s->bound_lim = q->closest_bound + 1e-12 * (q->closest_bound + hbig);
    if (s->goal_count >= 1) {
        s->goal_x = s->goals[0].x;
        s->goal_y = s->goals[0].y;
    }
}

/* The geometric distance used to rank closest/partial nodes: the default heuristic,
 * unweighted, to the nearest goal. */
/* How close (x, y) is to the nearest goal, for `closest`: octile distance with diagonals,
 * manhattan without. */
static double closeness(const tn_cell *goals, int32_t n, bool eight, int32_t x, int32_t y)
{
    double best = (double)INFINITY;
    for (int32_t k = 0; k < n; k++) {
        int32_t dx = abs(x - goals[k].x), dy = abs(y - goals[k].y);
        int32_t mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
        double v = eight ? (double)mx + (TN_SQRT2 - 1.0) * (double)mn : (double)(dx + dy);
        best = v < best ? v : best;
    }
    return best;
}

static double search_closeness(const tn_search *s, int32_t x, int32_t y)
{
    return closeness(s->goals, s->goal_count, s->q.moves.diagonal != TN_DIAGONAL_NEVER, x, y);
}

/* One candidate of closest_in_region: kept when at least as close as the best so far. */
static void redirect_visit(tn_search *s, const tn_regions *rg, int32_t size, int32_t home,
                           const tn_cell *goals, int32_t n, bool eight, int32_t x, int32_t y,
                           double *best)
{
    if (tn_regions_id(rg, size, x, y) != home)
        return;
    double c = closeness(goals, n, eight, x, y);
    if (c > *best)
        return;
    if (c < *best) {
        *best = c;
        s->redirect_n = 0;
    }
    for (int32_t j = 0; j < s->redirect_n; j++)
        if (s->redirect[j].x == x && s->redirect[j].y == y)
            return;
    if (s->redirect_n < TN__REDIRECT_MAX)
        s->redirect[s->redirect_n++] = (tn_cell){x, y};
}

/* The cells of region `home` (size class `size`) closest to the goals, as search_closeness
 * measures, into s->redirect: Chebyshev rings around each goal (clipped to the map, from the
 * goal's distance to the map outwards), stopping once a ring's radius passes the best
 * closeness found, since no cell further out can be closer (octile and manhattan distances
 * are at least the Chebyshev one). Ties are all kept, up to TN__REDIRECT_MAX in scan order.
 * False (and no cells) when the rings would pass TN__REDIRECT_SCAN cells: the goals are far
 * from the region, and emptying the region is the better bet (cheap when it is a pocket). */
#define TN__REDIRECT_SCAN 16384
static bool closest_in_region(tn_search *s, const tn_regions *rg, int32_t size, int32_t home,
                              const tn_cell *goals, int32_t n, bool eight, int32_t w, int32_t h)
{
    double best = (double)INFINITY;
    int64_t scanned = 0;
    s->redirect_n = 0;
    for (int32_t k = 0; k < n; k++) {
        int64_t gx = goals[k].x, gy = goals[k].y;
        int64_t r0 = 0; /* Chebyshev distance from the goal to the map */
        r0 = -gx > r0 ? -gx : r0;
        r0 = gx - (w - 1) > r0 ? gx - (w - 1) : r0;
        r0 = -gy > r0 ? -gy : r0;
        r0 = gy - (h - 1) > r0 ? gy - (h - 1) : r0;
        for (int64_t r = r0; r <= r0 + (w > h ? w : h) && (double)r <= best; r++) {
            scanned += 8 * r + 1;
            if (scanned > TN__REDIRECT_SCAN) {
                s->redirect_n = 0;
                return false;
            }
            int64_t xa = gx - r < 0 ? 0 : gx - r, xb = gx + r >= w ? w - 1 : gx + r;
            int64_t ya = gy - r + 1 < 0 ? 0 : gy - r + 1, yb = gy + r - 1 >= h ? h - 1 : gy + r - 1;
            for (int side = 0; side < 2; side++) {
                int64_t y = side ? gy + r : gy - r; /* the top and bottom rows */
                if ((side && r == 0) || y < 0 || y >= h)
                    continue;
                for (int64_t x = xa; x <= xb; x++)
                    redirect_visit(s, rg, size, home, goals, n, eight, (int32_t)x, (int32_t)y,
                                   &best);
            }
            for (int side = 0; side < 2 && r > 0; side++) {
                int64_t x = side ? gx + r : gx - r; /* the columns between them */
                if (x < 0 || x >= w)
                    continue;
                for (int64_t y = ya; y <= yb; y++)
                    redirect_visit(s, rg, size, home, goals, n, eight, (int32_t)x, (int32_t)y,
                                   &best);
            }
        }
    }
    return s->redirect_n > 0;
}

/* JPS counts the start as expanded before its loop (it is expanded in every direction, or the
 * direct line answers); it is also the first closest/partial end. */
static void start_expanded(tn_search *s)
{
    s->expanded = 1;
    if (s->track) {
        s->best = s->start;
        s->best_h = search_closeness(s, s->start_x, s->start_y);
        s->best_g = 0.0;
    }
}

/* `out`/`cap`: the one-shot query's path buffer (NULL for sliced queries), which a free
 * octile line is written to directly. */
static tn_status search_begin(tn_search *s, const tn_map *map, tn_cell start, const tn_cell *goals,
                              int32_t goal_count, const tn_query *query, tn_cell *out, int32_t cap)
{
    if (!s)
        return TN_E_INVALID_ARG;
    if (s->state == Q_RUNNING)
        search_finish(s);
    s->why = "";
    s->state = Q_IDLE;
    s->status = TN_E_STATE;
    s->end = -1;
    s->best = -1;
    s->direct = DIRECT_NONE;
    s->direct_out = NULL;
    s->expanded = 0;
    s->goal_count = 0;
    s->redirected = false;
    s->algo = query ? query->algo : TN_ALGO_ASTAR; /* what the result names if nothing runs */
    if (!map || !goals || goal_count < 1)
        SETUP_FAIL(TN_E_INVALID_ARG, "map or goals is NULL, or goal_count is below 1");
    tn_query q;
    if (query)
        q = *query;
    else
        memset(&q, 0, sizeof q);
    const char *bad = query_problem(&q);
    if (bad)
        SETUP_FAIL(TN_E_INVALID_ARG, bad);
    const tn_map *source = map; /* a unit bigger than one cell walks its size's view */
    tn_status vst = tn__clearance_resolve(q.clearance, source, q.size, &map);
    if (vst != TN_OK)
        SETUP_FAIL(vst, tn__clearance_problem(q.clearance, source, q.size));
    if (tn__map_view_behind(map))
        SETUP_FAIL(TN_E_MAP_CHANGED, VIEW_BEHIND);
    const int32_t size = q.size > 1 ? q.size : 1;
    tn__grid g;
    tn__map_grid(map, &g);
    const int32_t w = g.w, h = g.h;
    tn_status fit = tn__search_fit(s, (int64_t)w * h);
    if (fit != TN_OK)
        return fit;
    if (q.extra && !extra_valid(q.extra, (size_t)w * (size_t)h))
        SETUP_FAIL(TN_E_INVALID_ARG,
                   "query.extra must be >= 0 and <= TN_MAX_COST (1e28) in every cell");
    /* the algorithm that runs (JPS falls back to A* where it does not apply), decided before
     * any answer without a search, which names it too */
    tn_algo algo = q.algo;
    if (algo == TN_ALGO_JPS_PLUS) {
        if (!q.jump_table)
            SETUP_FAIL(TN_E_INVALID_ARG, "TN_ALGO_JPS_PLUS needs query.jump_table");
        if (!tn_jump_table_current(q.jump_table, map))
            SETUP_FAIL(TN_E_MAP_CHANGED,
                       "query.jump_table was built for another map, size map or revision: "
                       "build it again");
    }
    if ((algo == TN_ALGO_JPS || algo == TN_ALGO_JPS_PLUS) &&
        !tn__jps_applicable(&g, &q, goal_count)) {
        if (!q.jps_fallback)
            SETUP_FAIL(TN_E_UNSUPPORTED,
                       "JPS needs 8 moves without corner cutting (TN_DIAGONAL_NO_CUT), no "
                       "query.extra, one goal and no closest; set query.jps_fallback to run A* "
                       "instead");
        algo = TN_ALGO_ASTAR;
    }
    s->algo = algo;
    if (!tn__grid_contains(&g, start.x, start.y))
        return TN_E_OUT_OF_MAP;
    if (!tn__grid_passable(&g, start.x, start.y))
        return TN_E_START_BLOCKED;
    int32_t inside = 0, open = 0;
    for (int32_t k = 0; k < goal_count; k++) {
        if (tn__grid_contains(&g, goals[k].x, goals[k].y)) {
            inside++;
            open += tn__grid_passable(&g, goals[k].x, goals[k].y) ? 1 : 0;
        }
    }
    if (inside == 0 && !q.closest)
        return TN_E_OUT_OF_MAP;
    if (open == 0 && !q.closest)
        return TN_E_GOAL_BLOCKED;

    /* `closest` with regions that are exact for the rule (side-connected regions for
     * side-connected queries, diagonal ones for TN_DIAGONAL_ALWAYS) and no bound: when no goal
     * shares the start's region, search for the cells of that region closest to the goals
     * instead of emptying the region */
    if (q.regions && q.closest && q.closest_bound == 0.0 && tn_regions_map(q.regions) == source &&
        tn_clearance_max_size(tn_regions_clearance(q.regions)) >= size &&
        (tn_regions_diagonal(q.regions) == TN_DIAGONAL_ALWAYS) ==
            (q.moves.diagonal == TN_DIAGONAL_ALWAYS) &&
        tn_regions_current(q.regions)) {
        int32_t home = tn_regions_id(q.regions, size, start.x, start.y);
        bool reachable = false;
        for (int32_t k = 0; k < goal_count && !reachable; k++)
            reachable = home >= 0 && tn_regions_id(q.regions, size, goals[k].x, goals[k].y) == home;
        if (!reachable && home >= 0)
            closest_in_region(s, q.regions, size, home, goals, goal_count,
                              q.moves.diagonal != TN_DIAGONAL_NEVER, w, h);
        if (!reachable && home >= 0 && s->redirect_n > 0) {
            tn_query q2 = q;
            q2.closest = false;
            q2.regions = NULL;
            tn_status rst =
                search_begin(s, source, start, s->redirect, s->redirect_n, &q2, out, cap);
            s->redirected = rst == TN_IN_PROGRESS;
            return rst;
        }
    }
    if (q.regions && !q.closest) { /* unreachable goals answered without a search */
        if (tn_regions_map(q.regions) != source ||
            tn_clearance_max_size(tn_regions_clearance(q.regions)) < size ||
            (q.moves.diagonal == TN_DIAGONAL_ALWAYS &&
             tn_regions_diagonal(q.regions) != TN_DIAGONAL_ALWAYS))
            SETUP_FAIL(TN_E_INVALID_ARG,
                       tn_regions_map(q.regions) != source
                           ? "query.regions were built for another map"
                       : tn_clearance_max_size(tn_regions_clearance(q.regions)) < size
                           ? "query.regions have no size class for query.size (their max_size "
                             "is smaller)"
                           : "query.regions were built for a side-connected rule; a "
                             "TN_DIAGONAL_ALWAYS query needs regions built for TN_DIAGONAL_ALWAYS");
        if (!tn_regions_current(q.regions))
            SETUP_FAIL(TN_E_MAP_CHANGED,
                       "query.regions are older than the map: call tn_regions_update()");
        int32_t home = tn_regions_id(q.regions, size, start.x, start.y);
        bool reachable = false;
        for (int32_t k = 0; k < goal_count && !reachable; k++)
            reachable = home >= 0 && tn_regions_id(q.regions, size, goals[k].x, goals[k].y) == home;
        if (!reachable) {
            s->map = map;
            s->source = source;
            s->state = Q_DONE;
            s->status = TN_NO_PATH;
            return TN_NO_PATH;
        }
    }
    const tn_goal_bounds *gb = NULL;
    if ((algo == TN_ALGO_JPS || algo == TN_ALGO_JPS_PLUS) && q.goal_bounds) {
        gb = q.goal_bounds;
        tn_status gst = tn__goal_bounds_check(gb, map, &g, &q.moves);
        if (gst != TN_OK)
            SETUP_FAIL(gst, "query.goal_bounds do not describe this map (or size map), its "
                            "revision and the query's step costs");
    }
    if ((algo == TN_ALGO_JPS || algo == TN_ALGO_JPS_PLUS) && !s->jkey) {
        /* once per context (and after the arrays grow): the keys of the open list */
        s->jkey = tn__alloc(&s->alloc, (size_t)s->max_cells * sizeof(double));
        if (!s->jkey)
            return TN_E_NOMEM;
    }

    s->map = map;
    s->revision = g.revision;
    s->source = source;
    s->source_revision = tn_map_revision(source);
    search_set_width(s, w);
    s->h = h;
    s->pass = g.pass;
    s->cost = g.cost;
    s->extra = q.extra;
    s->q = q;
    s->algo = algo;
    s->okey = algo == TN_ALGO_JPS || algo == TN_ALGO_JPS_PLUS ? s->jkey : s->key;
    s->gb = gb;
    s->uniform = g.uniform;
    s->min_cost = g.min_cost;
    s->straight = tn_moves_straight(&q.moves);
    s->diagonal = tn_moves_diagonal(&q.moves);
    s->jps_fmax = TN__JPS_KEY_LIMIT(fmin(s->straight, s->diagonal) * (double)g.min_cost);
    s->goals = goals;
    s->goal_count = goal_count;
    s->start_x = start.x;
    s->start_y = start.y;
    s->start = start.y * w + start.x;
    s->track = q.closest || q.max_expansions > 0;
    search_setup_heuristic(s, (double)g.min_cost);
    const bool jps_like = algo == TN_ALGO_JPS || algo == TN_ALGO_JPS_PLUS;
    s->heap_n = 0;
    s->stack_n = 0;
    s->state = Q_RUNNING;
    s->status = TN_IN_PROGRESS;
    if (jps_like && (start.x != goals[0].x || start.y != goals[0].y)) {
        /* a free octile line needs no search, nor the JPS cache, nor a new generation */
        bool written = false;
        s->direct = tn__jps_direct(s, out, cap, &written);
        if (s->direct != DIRECT_NONE) {
            if (written)
                s->direct_out = out;
            s->end = goals[0].y * w + goals[0].x;
            start_expanded(s);
            return TN_IN_PROGRESS; /* the first step reports TN_OK */
        }
    }
    if (algo == TN_ALGO_JPS) {
        tn_status st = tn__jps_prepare(s, &g);
        if (st != TN_OK) {
            s->state = Q_IDLE;
            s->status = TN_E_STATE;
            return st;
        }
    }

    search_new_generation(s);
    for (int32_t k = 0; k < goal_count; k++) {
        if (tn__grid_passable(&g, goals[k].x, goals[k].y))
            s->tag[goals[k].y * w + goals[k].x] = TAG_GOAL;
    }
    uint32_t st = (uint32_t)s->start;
    bool start_goal = s->tag[st] == TAG_GOAL;
    s->key[st] = tn__search_hk(s, start.x, start.y);
    q_set_level(s, s->key[st]);
    if (jps_like && !start_goal) {
        /* JPS expands the start in all directions before the loop */
        s->tag[st] = s->gen << 3;
        start_expanded(s);
        if (algo == TN_ALGO_JPS)
            tn__jps_expand_start(s);
        else
            tn__jpsp_expand_start(s);
    } else {
        q_push(s, st | (start_goal ? ENT_GOAL : 0u));
    }
    return TN_IN_PROGRESS;
}

tn_status tn_search_begin(tn_search *s, const tn_map *map, tn_cell start, const tn_cell *goals,
                          int32_t goal_count, const tn_query *query)
{
    if (s && goals && goal_count >= 1) {
        /* A sliced query reads its goals at every step and when it ends: it keeps a copy, so
         * the caller's array may change or go out of scope once this returns. The copy grows
         * when a query has more goals than any before (only that query allocates). */
        if (s->state == Q_RUNNING)
            search_finish(s); /* the last query's goal marks, from the copy they point into */
        tn_status gst = tn__grow(&s->alloc, (void **)&s->goal_copy, sizeof *s->goal_copy,
                                 &s->goal_cap, (size_t)goal_count);
        if (gst != TN_OK)
            return gst;
        memcpy(s->goal_copy, goals, (size_t)goal_count * sizeof *goals);
        goals = s->goal_copy;
    }
    tn_status st = search_begin(s, map, start, goals, goal_count, query, NULL, 0);
    if (st == TN_IN_PROGRESS)
        s->track = true; /* sliced queries can report the best partial path at any time */
    return st;
}

/* ---- A* / Dijkstra expansion ---------------------------------------------------------- */

/* Expand node `i` at (x, y) with cost g. The constant arguments select a specialised copy. */
TN_INLINE void astar_expand(tn_search *s, uint32_t i, int32_t x, int32_t y, double g,
                            const tn_diagonal diag, const bool uniform, const bool extra,
                            const bool bounded)
{
    const uint8_t *pass = s->pass;
    const int32_t w = s->w;
    const bool xl = x > 0;
    const bool xr = x < w - 1;
    const bool yu = y > 0;
    const bool yd = y < s->h - 1;
    const double st = s->straight, dg = s->diagonal;
    const double bound = s->bound_lim;
    const bool ok[4] = {xr, xl, yd, yu};
    const int32_t off[4] = {1, -1, w, -w};
    bool free4[4];
    for (uint32_t k = 0; k < 4; k++) {
        free4[k] = false;
        if (!ok[k])
            continue;
        uint32_t ni = (uint32_t)((int32_t)i + off[k]);
        if (!pass[ni])
            continue;
        free4[k] = true;
        double c = uniform ? st : st * (double)s->cost[ni];
        if (extra)
            c += (double)s->extra[ni];
        double ng = g + c;
        if (bounded && ng > bound)
            continue;
        search_relax_k(s, ni, x + tn__dir_dx[k], y + tn__dir_dy[k], ng, k, false);
    }
    if (diag == TN_DIAGONAL_NEVER)
        return;
    /* SE, NE, SW, NW: orthogonal pairs (E,S), (E,N), (W,S), (W,N) */
    static const uint8_t ka[4] = {0, 0, 1, 1}, kb[4] = {2, 3, 2, 3};
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t a = ka[k], b = kb[k];
        if (!ok[a] || !ok[b])
            continue;
        bool allowed;
        switch (diag) {
        case TN_DIAGONAL_NO_CUT: allowed = free4[a] && free4[b]; break;
        case TN_DIAGONAL_ONE: allowed = free4[a] || free4[b]; break;
        default: allowed = true; break;
        }
        if (!allowed)
            continue;
        uint32_t ni = (uint32_t)((int32_t)i + off[a] + off[b]);
        if (!pass[ni])
            continue;
        double c = uniform ? dg : dg * (double)s->cost[ni];
        if (extra)
            c += (double)s->extra[ni];
        double ng = g + c;
        if (bounded && ng > bound)
            continue;
        search_relax_k(s, ni, x + tn__dir_dx[k + 4], y + tn__dir_dy[k + 4], ng, k + 4, false);
    }
}

#define EXPAND_VARIANTS(DIAG)                                                                      \
    do {                                                                                           \
        if (uniform && !extra && !bounded)                                                         \
            astar_expand(s, i, x, y, g, DIAG, true, false, false);                                 \
        else                                                                                       \
            astar_expand(s, i, x, y, g, DIAG, false, extra, bounded);                              \
    } while (0)

static void astar_expand_any(tn_search *s, uint32_t i, int32_t x, int32_t y, double g)
{
    const bool uniform = s->uniform, extra = s->extra != NULL;
    const bool bounded = s->q.closest && s->q.closest_bound > 0.0;
    switch (s->q.moves.diagonal) {
    case TN_DIAGONAL_NO_CUT: EXPAND_VARIANTS(TN_DIAGONAL_NO_CUT); break;
    case TN_DIAGONAL_NEVER: EXPAND_VARIANTS(TN_DIAGONAL_NEVER); break;
    case TN_DIAGONAL_ONE: EXPAND_VARIANTS(TN_DIAGONAL_ONE); break;
    case TN_DIAGONAL_ALWAYS: EXPAND_VARIANTS(TN_DIAGONAL_ALWAYS); break;
    }
}

/* The common cases spelled out: 8 neighbours without corner cutting or 4 neighbours (uniform
 * or terrain costs), no extra layer, the octile, manhattan or zero
 * heuristic towards one goal, no closest/partial tracking. Same expansion order, costs and
 * heuristic values as the generic loop, bit for bit, with fewer loads and branches. */
/* Octile heuristic from the distances to the goal along x and y (whole numbers, so the value
 * equals search_h1's bit for bit). The 9 distances of a node and its neighbours come from 3
 * per axis, computed once per expansion. */
TN_INLINE double fast_hk(double ha, double hb, int32_t ax, int32_t ay)
{
    /* integer max/min compile to conditional moves: the comparison is unpredictable */
    int32_t mx = ax > ay ? ax : ay;
    int32_t mn = ax + ay - mx;
    return ha * (double)mx + hb * (double)mn;
}

TN_INLINE int32_t iabs32(int32_t v)
{
    return v < 0 ? -v : v;
}

enum { FAST_ZERO, FAST_OCTILE, FAST_MANHATTAN };

TN_INLINE tn_status astar_run_fast(tn_search *s, int64_t budget, const int hk, const bool four,
                                   const bool wt)
{
    const int32_t w = s->w, hgt = s->h;
    const uint64_t wdiv = s->wdiv;
    const uint8_t *pass = s->pass;
    const float *cost = s->cost;
    uint32_t *tag = s->tag;
    const double ha = s->hstr, hb = s->hdiag;
    const double st = s->straight, dg = s->diagonal;
    const int32_t gx = s->goal_x, gy = s->goal_y;
    const uint32_t gen = s->gen;
    tn_openlist o = ol_load(s);
    tn_status status = TN_NO_PATH;
    /* search_h1()'s expressions */
#define HK(AX, AY)                                                                                 \
    (hk == FAST_ZERO     ? 0.0                                                                     \
     : hk == FAST_OCTILE ? fast_hk(ha, hb, (AX), (AY))                                             \
                         : ha * (double)((AX) + (AY)))
    /* the cost of entering cell NI by a step of base cost C (astar_expand()'s expression) */
#define STEP(NI, C) (wt ? (C) * (double)cost[NI] : (C))
#define RELAX(NI, AX, AY, C, DIR)                                                                  \
    do {                                                                                           \
        uint32_t ni_ = (NI), t_ = tag[ni_];                                                        \
        if (t_ & TAG_OPEN) {                                                                       \
            double nk_ = (g + STEP(ni_, C)) + HK(AX, AY);                                          \
            if (nk_ < o.key[t_ & TAG_POS])                                                         \
                ol_decreased(&o, t_, (DIR), nk_);                                                  \
        } else if ((t_ >> 3) != gen) {                                                             \
            ol_push(&o, ni_ | (DIR) << ENT_DIR_SHIFT | (t_ == TAG_GOAL ? ENT_GOAL : 0u),           \
                    (g + STEP(ni_, C)) + HK(AX, AY));                                              \
        }                                                                                          \
    } while (0)
    while (!ol_empty(&o)) {
        if (budget-- <= 0) {
            status = TN_IN_PROGRESS;
            break;
        }
        double f;
        uint32_t e = ol_pop(&o, &f);
        uint32_t i = e & ENT_IDX;
        tag[i] = gen << 3 | ((e >> ENT_DIR_SHIFT) & 7u);
        s->expanded++;
        if (e & ENT_GOAL) {
            s->end = (int32_t)i;
            status = TN_OK;
            break;
        }
        int32_t y = row_of_index(wdiv, i), x = (int32_t)i - y * w;
        const int32_t dx = x - gx, dy = y - gy;
        const int32_t ax = iabs32(dx), axe = iabs32(dx + 1), axw = iabs32(dx - 1);
        const int32_t ay = iabs32(dy), ays = iabs32(dy + 1), ayn = iabs32(dy - 1);
        const double g = f - HK(ax, ay);
        bool fe = false, fw = false, fs = false, fn = false;
        if (x + 1 < w && pass[i + 1]) {
            fe = true;
            RELAX(i + 1, axe, ay, st, 0u);
        }
        if (x > 0 && pass[i - 1]) {
            fw = true;
            RELAX(i - 1, axw, ay, st, 1u);
        }
        if (y + 1 < hgt && pass[i + (uint32_t)w]) {
            fs = true;
            RELAX(i + (uint32_t)w, ax, ays, st, 2u);
        }
        if (y > 0 && pass[i - (uint32_t)w]) {
            fn = true;
            RELAX(i - (uint32_t)w, ax, ayn, st, 3u);
        }
        if (four)
            continue;
        if (fe && fs && pass[i + (uint32_t)w + 1])
            RELAX(i + (uint32_t)w + 1, axe, ays, dg, 4u);
        if (fe && fn && pass[i - (uint32_t)w + 1])
            RELAX(i - (uint32_t)w + 1, axe, ayn, dg, 5u);
        if (fw && fs && pass[i + (uint32_t)w - 1])
            RELAX(i + (uint32_t)w - 1, axw, ays, dg, 6u);
        if (fw && fn && pass[i - (uint32_t)w - 1])
            RELAX(i - (uint32_t)w - 1, axw, ayn, dg, 7u);
    }
#undef RELAX
#undef STEP
#undef HK
    ol_store(s, &o);
    return status;
}

/* One function per variant (the loop inlined into each). */
#define FAST_VARIANT(NAME, HK, FOUR, WT)                                                           \
    static tn_status NAME(tn_search *s, int64_t budget)                                            \
    {                                                                                              \
        return astar_run_fast(s, budget, HK, FOUR, WT);                                            \
    }
FAST_VARIANT(astar_run_octile, FAST_OCTILE, false, false)
FAST_VARIANT(astar_run_zero, FAST_ZERO, false, false)
FAST_VARIANT(astar_run_octile_w, FAST_OCTILE, false, true)
FAST_VARIANT(astar_run_zero_w, FAST_ZERO, false, true)
FAST_VARIANT(astar_run_four, FAST_MANHATTAN, true, false)
FAST_VARIANT(astar_run_four_zero, FAST_ZERO, true, false)
FAST_VARIANT(astar_run_four_w, FAST_MANHATTAN, true, true)
FAST_VARIANT(astar_run_four_w_zero, FAST_ZERO, true, true)
#undef FAST_VARIANT

/* The fast loop for the query of `s`, or NULL (the generic loop). */
static tn_status (*fast_loop(const tn_search *s))(tn_search *, int64_t)
{
    if (s->algo == TN_ALGO_JPS || s->algo == TN_ALGO_JPS_PLUS || s->extra || s->track || s->multi_h)
        return NULL;
    const bool zero = s->hkind == TN_HEURISTIC_ZERO;
    if (s->q.moves.diagonal == TN_DIAGONAL_NO_CUT) {
        if (s->hkind == TN_HEURISTIC_OCTILE)
            return s->uniform ? astar_run_octile : astar_run_octile_w;
        if (zero)
            return s->uniform ? astar_run_zero : astar_run_zero_w;
        return NULL;
    }
    if (s->q.moves.diagonal != TN_DIAGONAL_NEVER || !(zero || s->hkind == TN_HEURISTIC_MANHATTAN))
        return NULL;
    if (s->uniform)
        return zero ? astar_run_four_zero : astar_run_four;
    return zero ? astar_run_four_w_zero : astar_run_four_w;
}

/* Run at most `budget` expansions. Returns TN_IN_PROGRESS or a final status. */
static tn_status search_run_once(tn_search *s, int64_t budget)
{
    const int32_t w = s->w;
    const uint64_t wdiv = s->wdiv;
    const bool jps = s->algo == TN_ALGO_JPS, jpsp = s->algo == TN_ALGO_JPS_PLUS;
    if (s->direct != DIRECT_NONE)
        return TN_OK; /* s->end is the goal */
    tn_status (*fast)(tn_search *, int64_t) = fast_loop(s);
    if (fast)
        return fast(s, budget);
    if (jps && !s->track && !s->multi_h)
        return tn__jps_run(s, budget);
    while (!q_empty(s)) {
        if (budget-- <= 0)
            return TN_IN_PROGRESS;
        double f;
        tn_openlist o = ol_load(s);
        uint32_t e = ol_pop(&o, &f);
        ol_store(s, &o);
        uint32_t i = e & ENT_IDX;
        uint32_t dir = (e >> ENT_DIR_SHIFT) & 7u;
        s->tag[i] = s->gen << 3 | dir;
        s->expanded++;
        if ((jps || jpsp) && !(f < s->jps_fmax))
            return TN__RESTART_ASTAR; /* past what the path rebuild can trust */
        int32_t y = row_of_index(wdiv, i), x = (int32_t)i - y * w;
        if (e & ENT_GOAL) {
            s->end = (int32_t)i;
            return TN_OK;
        }
        double g = f - tn__search_hk(s, x, y);
        if (s->track) {
            double hc = search_closeness(s, x, y);
            if (s->best < 0 || hc < s->best_h || (hc == s->best_h && g < s->best_g)) {
                s->best = (int32_t)i;
                s->best_h = hc;
                s->best_g = g;
            }
        }
        if (jps)
            tn__jps_expand(s, x, y, g, dir);
        else if (jpsp && s->uniform)
            tn__jpsp_expand(s, x, y, g, dir);
        else if (jpsp)
            tn__jpsp_expand_weighted(s, x, y, g, dir);
        else
            astar_expand_any(s, i, x, y, g);
    }
    if (s->q.closest && s->best >= 0) {
        s->end = s->best;
        return TN_CLOSEST;
    }
    return TN_NO_PATH;
}

/* A JPS or JPS+ query whose keys passed TN__JPS_KEY_LIMIT starts again as A*, with the same
 * start, goal and rules; the expansions so far still count. */
static tn_status restart_as_astar(tn_search *s)
{
    tn_query q = s->q;
    q.algo = TN_ALGO_ASTAR;
    q.regions = NULL; /* they answered already: the goal is in the start's region */
    s->restart_goal = s->goals[0];
    const tn_cell start = {s->start_x, s->start_y};
    const bool track = s->track; /* sliced queries track the best node whatever the query */
    const int64_t expanded = s->expanded;
    tn_status st = search_begin(s, s->source, start, &s->restart_goal, 1, &q, NULL, 0);
    s->track = s->track || track;
    s->expanded += expanded;
    return st;
}

/* Run the open list for up to `budget` expansions (search_run_once), through a restart as A*
 * when JPS's keys grow past what its path rebuild can trust. */
static tn_status search_run(tn_search *s, int64_t budget)
{
    const int64_t before = s->expanded;
    tn_status st = search_run_once(s, budget);
    if (st != TN__RESTART_ASTAR)
        return st;
    const int64_t used = s->expanded - before;
    st = restart_as_astar(s);
    if (st != TN_IN_PROGRESS)
        return st;
    return search_run_once(s, budget > used ? budget - used : 0);
}

tn_status tn_search_step(tn_search *s, int64_t max_expansions)
{
    if (!s || max_expansions < 1)
        return TN_E_INVALID_ARG;
    if (s->state != Q_RUNNING)
        return s->state == Q_DONE ? s->status : TN_E_STATE;
    if (tn_map_revision(s->map) != s->revision ||
        tn_map_revision(s->source) != s->source_revision) {
        search_finish(s);
        s->status = TN_E_MAP_CHANGED;
        return s->status;
    }
    tn_status st = search_run(s, max_expansions);
    if (st != TN_IN_PROGRESS)
        search_finish(s);
    if (st == TN_OK && s->redirected)
        st = TN_CLOSEST;
    s->status = st;
    return st;
}

tn_status tn_search_poll(const tn_search *s)
{
    if (!s || s->state == Q_IDLE)
        return TN_E_STATE;
    return s->status;
}

void tn_search_cancel(tn_search *s)
{
    if (!s)
        return;
    if (s->state == Q_RUNNING)
        search_finish(s);
    s->state = Q_IDLE;
    s->status = TN_E_STATE;
}

const char *tn_search_error_detail(const tn_search *s)
{
    return s && s->why ? s->why : "";
}

/* ---- results -------------------------------------------------------------------------- */

/* Cost of a JPS or JPS+ node that was expanded: its key minus its heuristic. */
static double node_g(const tn_search *s, int32_t i, int32_t x, int32_t y)
{
    return s->key[i] - tn__search_hk(s, x, y);
}

/* A node of a path being rebuilt: cell index and coordinates. */
typedef struct pnode {
    int32_t i, x, y;
} pnode;

/* The cost of a path of `diag` diagonal and `straight` straight steps on a map of uniform
 * cost. */
static double uniform_cost(const tn_search *s, int32_t diag, int32_t straight)
{
    return (double)diag * s->diagonal + (double)straight * s->straight;
}

/* The cells from the start to expanded node `e`: their count, written to `out` when it fits
 * in `cap`, and in `*diag` the number of diagonal steps. One walk back from the end, writing
 * each cell from the end of the buffer (while it fits); the cells are moved to the front
 * afterwards. A* steps back by the direction bits. JPS walks back along the arrival direction
 * to the first expanded node whose cost plus the segment's length gives the cost of the node
 * (the parent jump point satisfies this, and any expanded node that does lies on an equally
 * cheap path). */
static int32_t rebuild_path(const tn_search *s, pnode e, tn_cell *out, int32_t top, int32_t *diag)
{
    const bool jps = s->algo == TN_ALGO_JPS || s->algo == TN_ALGO_JPS_PLUS;
    const uint32_t *tag = s->tag;
    const int32_t w = s->w, start = s->start;
    int32_t n = 0, nd = 0;
    pnode c = e;
    const uint32_t gen = s->gen;
    double gi = -1.0; /* JPS: the cost of c once known */
#define PUT(C)                                                                                     \
    do {                                                                                           \
        if (n < top)                                                                               \
            out[top - 1 - n] = (tn_cell){(C).x, (C).y};                                            \
        n++;                                                                                       \
    } while (0)
    while (c.i != start) {
        uint32_t dir = tag[c.i] & 7u;
        int32_t dx = tn__dir_dx[dir], dy = tn__dir_dy[dir], d = dx + dy * w;
        if (!jps) {
            PUT(c);
            nd += dir >= 4;
            c = (pnode){c.i - d, c.x - dx, c.y - dy};
            continue;
        }
        /* the segment's far end is the first node back along the ray that is the start, or
         * expanded with a cost that fits; its cells are written on the way while they fit */
        if (gi < 0.0)
            gi = node_g(s, c.i, c.x, c.y);
        double unit = dir < 4 ? s->straight : s->diagonal;
        if (!s->uniform) /* weighted JPS: every cell of a jump has the cost of its end */
            unit *= (double)s->cost[c.i];
        const double tol = 1e-9 * (gi + 1.0);
        const int32_t room = top - n; /* cells that still fit, from out[top - 1 - n] down */
        tn_cell *o = room > 0 ? out + (top - 1 - n) : NULL; /* NULL: nothing fits */
        int32_t k = 0, x = c.x, y = c.y;
        double gp = 0.0; /* the cost of the far end */
        for (int32_t i = c.i;;) {
            /* expanded nodes only: an open tag has bit 31 set, which no generation has, and
             * the start is expanded */
            do {
                if (k < room)
                    o[-k] = (tn_cell){x, y};
                x -= dx;
                y -= dy;
                i -= d;
                k++;
            } while ((tag[i] >> 3) != gen);
            if (i == start)
                break;
            gp = node_g(s, i, x, y);
            if (fabs(gp + unit * (double)k - gi) <= tol)
                break;
        }
        TN_ASSERT(x >= 0 && y >= 0 && x < w && y < s->h);
        n += k;
        nd += dir >= 4 ? k : 0;
        c = (pnode){c.i - k * d, c.x - k * dx, c.y - k * dy};
        gi = gp; /* the next segment ends where this one starts */
    }
    PUT(c);
#undef PUT
    *diag = nd;
    if (n < top)
        memmove(out, out + (top - n), (size_t)n * sizeof *out);
    return n;
}

/* Where rebuild_path starts writing: the end of the buffer, or for JPS
 * the most cells a path of the end's cost can have, so that a large buffer is written near its
 * front, where the cells end up, and not at its far end. */
static int32_t path_top(const tn_search *s, pnode e, int32_t cap)
{
    if ((s->algo != TN_ALGO_JPS && s->algo != TN_ALGO_JPS_PLUS) || e.i == s->start)
        return cap;
    double most =
        node_g(s, e.i, e.x, e.y) / (fmin(s->straight, s->diagonal) * (double)s->min_cost) + 2.0;
    return most >= 2.0 && most < (double)cap ? (int32_t)most : cap;
}

tn_status tn_search_get_path(tn_search *s, tn_cell *out, int32_t cap, tn_search_result *res)
{
    if (!s || cap < 0 || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    if (s->state == Q_IDLE)
        return TN_E_STATE;
    tn_search_result r;
    memset(&r, 0, sizeof r);
    r.expanded = s->expanded;
    r.goal = -1;
    r.algo = s->algo;
    r.end = (tn_cell){-1, -1};
    tn_status st = s->status;
    int32_t end = s->end;
    if (st == TN_IN_PROGRESS || st == TN_PARTIAL)
        end = s->best;
    if (st < 0 || st == TN_NO_PATH || end < 0) {
        if (res)
            *res = r;
        return st;
    }
    const int32_t w = s->w;
    const int32_t ey = row_of_index(s->wdiv, (uint32_t)end);
    pnode e = {end, end - ey * w, ey};
    r.end = (tn_cell){e.x, e.y};
    for (int32_t k = 0; k < s->goal_count && !s->redirected; k++)
        if (s->goals[k].x == r.end.x && s->goals[k].y == r.end.y) {
            r.goal = k;
            break;
        }
    int32_t n, diag = 0;
    if (s->direct != DIRECT_NONE && st == TN_OK) {
        int32_t straight;
        tn__jps_direct_steps(s, &diag, &straight);
        n = s->direct_out && s->direct_out == out ? diag + straight + 1
                                                  : tn__jps_direct_path(s, out, cap);
    } else {
        int32_t top = path_top(s, e, cap);
        n = rebuild_path(s, e, out, top, &diag);
        TN_ASSERT(n <= top || top == cap);
        if (n > top && top < cap) /* not expected: the bound fell short; again from the end */
            n = rebuild_path(s, e, out, cap, &diag);
    }
    r.length = n;
    if (n > cap) {
        if (res)
            *res = r;
        return TN_E_BUFFER_TOO_SMALL;
    }
    /* the cost of the cells: on uniform maps from the step counts (one rounding, and no
     * chain of dependent additions), otherwise the step costs added from the start */
    double cost = 0.0;
    const float *tc = s->cost, *ex = s->extra;
    if (s->uniform && !ex) { /* every JPS query, the direct line included */
        cost = uniform_cost(s, diag, n - 1 - diag);
    } else {
        for (int32_t j = 1; j < n; j++) {
            bool dstep = out[j].x != out[j - 1].x && out[j].y != out[j - 1].y;
            double base = dstep ? s->diagonal : s->straight;
            int32_t i = out[j].y * w + out[j].x;
            double sc = base * (double)tc[i];
            if (ex)
                sc += (double)ex[i];
            cost += sc;
        }
    }
    r.cost = cost;
    if (res)
        *res = r;
    return st;
}

tn_status tn_search_path_multi(tn_search *s, const tn_map *map, tn_cell start, const tn_cell *goals,
                               int32_t goal_count, const tn_query *query, tn_cell *out, int32_t cap,
                               tn_search_result *res)
{
    if (res)
        memset(res, 0, sizeof *res);
    if (cap < 0 || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    tn_status st = search_begin(s, map, start, goals, goal_count, query, out, cap);
    if (st == TN_NO_PATH) /* the regions answered: fill res as a search would */
        return tn_search_get_path(s, out, cap, res);
    if (st != TN_IN_PROGRESS) {
        if (res && s)
            res->algo = s->algo;
        return st;
    }
    /* the budget counts every expansion, JPS's of the start (made in the set-up) too */
    int64_t budget = s->q.max_expansions > 0 ? s->q.max_expansions - s->expanded : INT64_MAX;
    st = search_run(s, budget > 0 ? budget : 0);
    if (st == TN_IN_PROGRESS)
        st = TN_PARTIAL;
    if (st == TN_OK && s->redirected)
        st = TN_CLOSEST;
    search_finish(s);
    s->status = st;
    st = tn_search_get_path(s, out, cap, res);
    s->direct_out = NULL; /* a later call may pass the same buffer with other contents */
    return st;
}

tn_status tn_search_path(tn_search *s, const tn_map *map, tn_cell start, tn_cell goal,
                         const tn_query *query, tn_cell *out, int32_t cap, tn_search_result *res)
{
    return tn_search_path_multi(s, map, start, &goal, 1, query, out, cap, res);
}

/* ---- Dijkstra distance maps ----------------------------------------------------------- */

/* tn_search_distances()'s loop written out for 8 neighbours without corner cutting or 4
 * neighbours, with no extra layer: the open list with its f-level stack (search_internal.h),
 * which pops nodes of the current cost level in O(1). Every distance is the same double as
 * the generic loop's: a node leaves the list at a key within a relative 1e-10 of the least
 * key still open, and any other way to it costs at least that least key plus a whole step. */
TN_INLINE void distances_fast(tn_search *s, const uint8_t *pass, const float *cost, double st,
                              double dg, bool reverse, double *dist, const bool four, const bool wt)
{
    const int32_t w = s->w, hgt = s->h;
    const uint64_t wdiv = s->wdiv;
    uint32_t *tag = s->tag;
    const uint32_t gen = s->gen;
    tn_openlist o = ol_load(s);
    /* the cost of entering NI from I by a step of base cost C (the generic loop's) */
#define STEP(I, NI, C) (wt ? (C) * (double)cost[reverse ? (I) : (NI)] : (C))
#define RELAX(NI, C)                                                                               \
    do {                                                                                           \
        uint32_t ni_ = (NI), t_ = tag[ni_];                                                        \
        if (t_ & TAG_OPEN) {                                                                       \
            double ng_ = g + STEP(i, ni_, C);                                                      \
            if (ng_ < o.key[t_ & TAG_POS])                                                         \
                ol_decreased(&o, t_, 0u, ng_);                                                     \
        } else if ((t_ >> 3) != gen) {                                                             \
            ol_push(&o, ni_, g + STEP(i, ni_, C));                                                 \
        }                                                                                          \
    } while (0)
    while (!ol_empty(&o)) {
        double g;
        uint32_t i = ol_pop(&o, &g) & ENT_IDX;
        tag[i] = gen << 3;
        dist[i] = g;
        int32_t y = row_of_index(wdiv, i), x = (int32_t)i - y * w;
        bool fe = false, fw = false, fs = false, fn = false;
        if (x + 1 < w && pass[i + 1]) {
            fe = true;
            RELAX(i + 1, st);
        }
        if (x > 0 && pass[i - 1]) {
            fw = true;
            RELAX(i - 1, st);
        }
        if (y + 1 < hgt && pass[i + (uint32_t)w]) {
            fs = true;
            RELAX(i + (uint32_t)w, st);
        }
        if (y > 0 && pass[i - (uint32_t)w]) {
            fn = true;
            RELAX(i - (uint32_t)w, st);
        }
        if (four)
            continue;
        if (fe && fs && pass[i + (uint32_t)w + 1])
            RELAX(i + (uint32_t)w + 1, dg);
        if (fe && fn && pass[i - (uint32_t)w + 1])
            RELAX(i - (uint32_t)w + 1, dg);
        if (fw && fs && pass[i + (uint32_t)w - 1])
            RELAX(i + (uint32_t)w - 1, dg);
        if (fw && fn && pass[i - (uint32_t)w - 1])
            RELAX(i - (uint32_t)w - 1, dg);
    }
#undef RELAX
#undef STEP
    ol_store(s, &o);
}

/* 4 neighbours on a map of uniform cost: every step costs `st`, so a breadth-first pass in
 * first-in first-out order finds each cell at its least number of steps, and its distance,
 * the parent's plus st, is the same sum of st's as any other loop's. The open list's entries
 * (the sources, level 0) start the queue; the heap array holds it. */
static void distances_bfs(tn_search *s, const uint8_t *pass, double st, double *dist)
{
    const int32_t w = s->w, hgt = s->h;
    const uint64_t wdiv = s->wdiv;
    uint32_t *tag = s->tag, *queue = s->heap;
    const uint32_t gen = s->gen, done = gen << 3;
    size_t head = 0, tail = 0;
    tn_openlist o = ol_load(s);
    while (!ol_empty(&o)) { /* the sources, in the order they pop (level 0, LIFO) */
        double g;
        uint32_t i = ol_pop(&o, &g) & ENT_IDX;
        queue[tail++] = i;
        tag[i] = done;
        dist[i] = 0.0;
    }
    ol_store(s, &o);
    while (head < tail) {
        const uint32_t i = queue[head++];
        const double ng = dist[i] + st;
        const int32_t y = row_of_index(wdiv, i), x = (int32_t)i - y * w;
        uint32_t nb[4];
        int k = 0;
        if (x + 1 < w)
            nb[k++] = i + 1;
        if (x > 0)
            nb[k++] = i - 1;
        if (y + 1 < hgt)
            nb[k++] = i + (uint32_t)w;
        if (y > 0)
            nb[k++] = i - (uint32_t)w;
        for (int j = 0; j < k; j++) {
            const uint32_t ni = nb[j];
            if (pass[ni] && tag[ni] != done) {
                tag[ni] = done;
                dist[ni] = ng;
                queue[tail++] = ni;
            }
        }
    }
}

static void distances_fast_any(tn_search *s, const uint8_t *pass, const float *cost, double st,
                               double dg, bool reverse, double *dist, bool four, bool wt)
{
    if (four && !wt)
        distances_bfs(s, pass, st, dist);
    else if (four)
        distances_fast(s, pass, cost, st, dg, reverse, dist, true, true);
    else
        wt ? distances_fast(s, pass, cost, st, dg, reverse, dist, false, true)
           : distances_fast(s, pass, cost, st, dg, reverse, dist, false, false);
}

tn_status tn_search_distances(tn_search *s, const tn_map *map, const tn_cell *sources,
                              int32_t source_count, const tn_moves *moves, const float *extra,
                              bool reverse, double *dist, int32_t cap)
{
    if (!s)
        return TN_E_INVALID_ARG;
    s->why = "";
    const tn_moves zero_moves = {TN_DIAGONAL_NO_CUT, TN_COSTS_EXACT};
    if (!moves)
        moves = &zero_moves; /* as a NULL query of tn_search_path() */
    if (!map || !sources || source_count < 1 || !dist || cap < 0)
        SETUP_FAIL(TN_E_INVALID_ARG,
                   "map, sources or dist is NULL, source_count is below 1 or cap below 0");
    if (!tn_moves_valid(moves))
        SETUP_FAIL(TN_E_INVALID_ARG, "moves has an unknown diagonal rule or step costs");
    if (tn__map_view_behind(map))
        SETUP_FAIL(TN_E_MAP_CHANGED, VIEW_BEHIND);
    int32_t w = tn_map_width(map), h = tn_map_height(map);
    size_t n = (size_t)w * (size_t)h;
    tn_status fit = tn__search_fit(s, (int64_t)w * h);
    if (fit != TN_OK)
        return fit;
    if ((size_t)cap < n)
        return TN_E_BUFFER_TOO_SMALL;
    if (extra && !extra_valid(extra, n))
        SETUP_FAIL(TN_E_INVALID_ARG, "extra must be >= 0 and <= TN_MAX_COST (1e28) in every cell");
    if (s->state == Q_RUNNING)
        search_finish(s);
    s->state = Q_IDLE;
    s->status = TN_E_STATE;
    s->goal_count = 0;
    int32_t inside = 0, open = 0;
    for (int32_t k = 0; k < source_count; k++)
        if (tn_map_contains(map, sources[k].x, sources[k].y)) {
            inside++;
            open += tn_map_passable(map, sources[k].x, sources[k].y) ? 1 : 0;
        }
    if (inside == 0)
        return TN_E_OUT_OF_MAP;
    if (open == 0)
        return TN_E_START_BLOCKED;

    const uint8_t *pass = tn_map_passable_data(map);
    const float *cost = tn_map_cost_data(map);
    double st = tn_moves_straight(moves), dg = tn_moves_diagonal(moves);
    s->map = s->source = map;
    search_set_width(s, w);
    s->h = h;
    const uint64_t wdiv = s->wdiv;
    s->hkind = TN_HEURISTIC_ZERO;
    s->multi_h = false;
    s->hmul = 0.0;
    search_new_generation(s);
    s->heap_n = 0;
    s->stack_n = 0;
    for (size_t i = 0; i < n; i++)
        dist[i] = (double)INFINITY;
    if (!extra && (moves->diagonal == TN_DIAGONAL_NO_CUT || moves->diagonal == TN_DIAGONAL_NEVER)) {
        /* the written-out loop: the sources on the f-level stack (level 0) */
        s->lifo = true;
        s->okey = s->key;
        s->flimit = 0.0;
        tn_openlist o = ol_load(s);
        for (int32_t k = 0; k < source_count; k++) {
            int32_t i = tn_map_index(map, sources[k].x, sources[k].y);
            if (i < 0 || !pass[i] || (s->tag[i] & TAG_OPEN))
                continue;
            ol_push(&o, (uint32_t)i, 0.0);
        }
        ol_store(s, &o);
        distances_fast_any(s, pass, cost, st, dg, reverse, dist,
                           moves->diagonal == TN_DIAGONAL_NEVER, !tn_map_uniform_cost(map));
        s->state = Q_IDLE;
        return TN_OK;
    }
    /* a keyed heap (search_internal.h): key[k] is the cost of entry heap[k] */
    double *key = s->key;
    uint32_t *heap = s->heap, *tag = s->tag;
    int32_t hn = 0;
    for (int32_t k = 0; k < source_count; k++) {
        int32_t i = tn_map_index(map, sources[k].x, sources[k].y);
        if (i < 0 || !pass[i] || (tag[i] & TAG_OPEN))
            continue;
        heap_up(key, heap, tag, hn++, (uint32_t)i, 0.0);
    }
    while (hn > 0) {
        double g;
        uint32_t i = heap_down(key, heap, tag, &hn, &g) & ENT_IDX;
        tag[i] = s->gen << 3;
        dist[i] = g;
        int32_t y = row_of_index(wdiv, i), x = (int32_t)i - y * w;
        bool fr[4];
        for (uint32_t k = 0; k < 8; k++) {
            int32_t dx = tn__dir_dx[k], dy = tn__dir_dy[k];
            int32_t nx = x + dx, ny = y + dy;
            if (k < 4)
                fr[k] = false;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                continue;
            uint32_t ni = (uint32_t)(ny * w + nx);
            if (!pass[ni])
                continue;
            if (k < 4) {
                fr[k] = true;
            } else {
                /* orthogonal cells: (x+dx, y) is E(0)/W(1), (x, y+dy) is S(2)/N(3) */
                bool fa = fr[dx > 0 ? 0 : 1], fb = fr[dy > 0 ? 2 : 3];
                if (!tn_moves_diagonal_ok(moves->diagonal, fa, fb))
                    continue;
            }
            uint32_t into = reverse ? i : ni;
            double c = (k < 4 ? st : dg) * (double)cost[into];
            if (extra)
                c += (double)extra[into];
            double ng = g + c;
            uint32_t t = tag[ni];
            if (t & TAG_OPEN) {
                int32_t pos = (int32_t)(t & TAG_POS);
                if (ng < key[pos])
                    heap_up(key, heap, tag, pos, heap[pos], ng);
            } else if ((t >> 3) != s->gen) {
                heap_up(key, heap, tag, hn++, ni, ng);
            }
        }
    }
    s->state = Q_IDLE;
    return TN_OK;
}
