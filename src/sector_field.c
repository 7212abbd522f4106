/* Sector flow fields (sector_field.h): the costs from a hierarchy's abstract nodes to a goal,
 * from one reverse Dijkstra on the abstract graph, and per sector, when first asked, a tile of
 * cell costs and directions from a reverse Dijkstra over that sector's cells seeded at the
 * transition cells whose cheapest route leaves the sector at once; tiles are kept under a
 * memory budget, least recently used dropped first. */
#include "tilenav/sector_field.h"

#include "grid.h"
#include "hierarchy_internal.h"
#include "internal.h"
#include "sector_field_internal.h"

#include <math.h>
#include <string.h>

#define TN_COOKIE_SECTOR_FIELD 0x53464431u
#define TN_SF_DEFAULT_BUDGET ((size_t)4 << 20)
#define TN_SF_NO_SUCC (-1)  /* a node whose route stays in its sector to a goal */
#define TN_SF_GOAL_DIR (-2) /* tile dir of a goal cell; TN_DIR_NONE (-1): unreachable */

/* One sector's Dijkstra over (S + 2)^2 padded cells. */
typedef struct sf_scratch {
    double *sd;            /* costs */
    int32_t *sh, *spos;    /* heap, positions */
    uint8_t *ps;           /* bit 0: passable, bit 1: may be improved */
    int8_t *pd;            /* directions */
    float *lc;             /* cell costs (maps of varied cost) */
    int32_t *q0, *qs, *qd; /* uniform costs: the seeds, straight and diagonal FIFO queues */
} sf_scratch;

#define TN_SF_CHUNKS 8

struct tn_sector_field {
    tn_allocator alloc;
    const tn_hierarchy *h;
    int32_t S, nsec;
    /* the goal: the hierarchy revision it was set on */
    bool has_goal;
    uint64_t revision;
    int32_t ngoals;
    tn_cell goal[TN_SECTOR_FIELD_MAX_GOALS];
    /* abstract costs: per node the cost to a goal, the next node of its route (or
     * TN_SF_NO_SUCC) and its sector; the Dijkstra's heap and positions */
    int32_t cap_nodes, N, reached;
    double *D;
    int32_t *succ, *nsec_of, *heap, *pos;
    /* sector Dijkstras: one scratch per chunk of a batch of tiles (TN_SF_CHUNKS with a
     * parallel_for, else 1) */
    int32_t nscratch;
    sf_scratch scratch[TN_SF_CHUNKS];
    tn_parallel_for parallel_for;
    void *parallel_user;
    /* tiles waiting to be built (a batch): their sectors and slots */
    int32_t npending, *pend_sec, *pend_slot;
    /* tiles: per sector its slot or -1; per slot its sector, last use and memory (float costs
     * then int8 directions, S * S each) */
    int32_t tiles_max, tiles_kept;
    size_t tile_bytes;
    int32_t *slot_of, *slot_sec;
    uint64_t *slot_use, tick;
    uint8_t **tile;
    int64_t built, evicted;
};

/* public tn_dir of a step (dx, dy), indexed (dy + 1) * 3 + dx + 1 */
static const int8_t dir_of_step[9] = {TN_DIR_NW, TN_DIR_N,  TN_DIR_NE, TN_DIR_W, TN_DIR_NONE,
                                      TN_DIR_E,  TN_DIR_SW, TN_DIR_S,  TN_DIR_SE};

tn_sector_field_def tn_sector_field_def_default(void)
{
    tn_sector_field_def d;
    memset(&d, 0, sizeof d);
    d.internal_cookie = TN_COOKIE_SECTOR_FIELD;
    return d;
}

static void free_nodes(tn_sector_field *f)
{
    size_t n = (size_t)f->cap_nodes;
    tn__free(&f->alloc, f->D, n * sizeof *f->D);
    tn__free(&f->alloc, f->succ, n * sizeof *f->succ);
    tn__free(&f->alloc, f->nsec_of, n * sizeof *f->nsec_of);
    tn__free(&f->alloc, f->heap, n * sizeof *f->heap);
    tn__free(&f->alloc, f->pos, n * sizeof *f->pos);
    f->D = NULL;
    f->succ = f->nsec_of = f->heap = f->pos = NULL;
    f->cap_nodes = 0;
}

void tn_sector_field_destroy(tn_sector_field *f)
{
    if (!f)
        return;
    const size_t P = (size_t)(f->S + 2) * (size_t)(f->S + 2);
    free_nodes(f);
    for (int32_t k = 0; k < f->nscratch; k++) {
        sf_scratch *x = &f->scratch[k];
        tn__free(&f->alloc, x->sd, P * sizeof *x->sd);
        tn__free(&f->alloc, x->sh, P * sizeof *x->sh);
        tn__free(&f->alloc, x->spos, P * sizeof *x->spos);
        tn__free(&f->alloc, x->ps, P);
        tn__free(&f->alloc, x->pd, P);
        tn__free(&f->alloc, x->lc, P * sizeof *x->lc);
        tn__free(&f->alloc, x->q0, P * sizeof *x->q0);
        tn__free(&f->alloc, x->qs, P * sizeof *x->qs);
        tn__free(&f->alloc, x->qd, P * sizeof *x->qd);
    }
    tn__free(&f->alloc, f->pend_sec, (size_t)f->tiles_max * sizeof *f->pend_sec);
    tn__free(&f->alloc, f->pend_slot, (size_t)f->tiles_max * sizeof *f->pend_slot);
    if (f->tile)
        for (int32_t k = 0; k < f->tiles_max; k++)
            tn__free(&f->alloc, f->tile[k], f->tile_bytes);
    tn__free(&f->alloc, f->tile, (size_t)f->tiles_max * sizeof *f->tile);
    tn__free(&f->alloc, f->slot_sec, (size_t)f->tiles_max * sizeof *f->slot_sec);
    tn__free(&f->alloc, f->slot_use, (size_t)f->tiles_max * sizeof *f->slot_use);
    tn__free(&f->alloc, f->slot_of, (size_t)f->nsec * sizeof *f->slot_of);
    tn_allocator a = f->alloc;
    tn__free(&a, f, sizeof *f);
}

tn_status tn_sector_field_create(const tn_sector_field_def *def, tn_sector_field **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_SECTOR_FIELD || !def->hierarchy)
        return TN_E_INVALID_ARG;
    tn_allocator a;
    if (!tn__allocator_of(&def->allocator, &a))
        return TN_E_INVALID_ARG;
    const tn_hierarchy *h = def->hierarchy;
    tn_sector_field *f = tn__calloc(&a, sizeof *f);
    if (!f)
        return TN_E_NOMEM;
    f->alloc = a;
    f->h = h;
    f->S = h->S;
    f->nsec = h->nsec;
    const size_t SS = (size_t)f->S * (size_t)f->S;
    f->tile_bytes = SS * (sizeof(float) + 1);
    size_t budget = def->memory_budget ? def->memory_budget : TN_SF_DEFAULT_BUDGET;
    size_t m = budget / f->tile_bytes;
    m = m < 1 ? 1 : m;
    f->tiles_max = m > (size_t)f->nsec ? f->nsec : (int32_t)m;
    const size_t P = (size_t)(f->S + 2) * (size_t)(f->S + 2);
    f->parallel_for = def->parallel_for;
    f->parallel_user = def->parallel_user;
    bool ok = true;
    for (int32_t k = 0; k < (def->parallel_for ? TN_SF_CHUNKS : 1); k++) {
        sf_scratch *x = &f->scratch[k];
        f->nscratch = k + 1;
        x->sd = tn__alloc(&a, P * sizeof *x->sd);
        x->sh = tn__alloc(&a, P * sizeof *x->sh);
        x->spos = tn__alloc(&a, P * sizeof *x->spos);
        x->ps = tn__alloc(&a, P);
        x->pd = tn__alloc(&a, P);
        x->lc = tn__alloc(&a, P * sizeof *x->lc);
        x->q0 = tn__alloc(&a, P * sizeof *x->q0);
        x->qs = tn__alloc(&a, P * sizeof *x->qs);
        x->qd = tn__alloc(&a, P * sizeof *x->qd);
        ok = ok && x->sd && x->sh && x->spos && x->ps && x->pd && x->lc && x->q0 && x->qs && x->qd;
    }
    f->slot_of = tn__alloc(&a, (size_t)f->nsec * sizeof *f->slot_of);
    f->tile = tn__calloc(&a, (size_t)f->tiles_max * sizeof *f->tile);
    f->slot_sec = tn__alloc(&a, (size_t)f->tiles_max * sizeof *f->slot_sec);
    f->slot_use = tn__alloc(&a, (size_t)f->tiles_max * sizeof *f->slot_use);
    f->pend_sec = tn__alloc(&a, (size_t)f->tiles_max * sizeof *f->pend_sec);
    f->pend_slot = tn__alloc(&a, (size_t)f->tiles_max * sizeof *f->pend_slot);
    if (!ok || !f->pend_sec || !f->pend_slot || !f->slot_of || !f->tile || !f->slot_sec ||
        !f->slot_use) {
        tn_sector_field_destroy(f);
        return TN_E_NOMEM;
    }
    for (int32_t s = 0; s < f->nsec; s++)
        f->slot_of[s] = -1;
    *out = f;
    return TN_OK;
}

size_t tn_sector_field_memory_bytes(const tn_sector_field *f)
{
    if (!f)
        return 0;
    const size_t P = (size_t)(f->S + 2) * (size_t)(f->S + 2);
    size_t b = sizeof *f + (size_t)f->cap_nodes * (8 + 4 * 4) +
               (size_t)f->nscratch * P * (8 + 4 + 4 + 1 + 1 + 4 + 12) + (size_t)f->tiles_max * 8 +
               (size_t)f->nsec * 4 + (size_t)f->tiles_max * (sizeof(void *) + 4 + 8);
    for (int32_t k = 0; k < f->tiles_max; k++)
        b += f->tile[k] ? f->tile_bytes : 0;
    return b;
}

static void drop_tiles(tn_sector_field *f)
{
    for (int32_t k = 0; k < f->tiles_kept; k++)
        f->slot_of[f->slot_sec[k]] = -1;
    f->tiles_kept = 0;
}

/* ---- one sector's reverse Dijkstra ---------------------------------------------------- */

/* A binary heap of indices keyed by key[] (ties: the smaller index), their positions in
 * pos[] (-1: never queued, -2: popped); the sectors' Dijkstra and the abstract one use it. */
typedef struct iheap {
    const double *key;
    int32_t *heap, *pos;
    int32_t n;
} iheap;

static inline bool ih_less(const double *k, int32_t a, int32_t b)
{
    return k[a] < k[b] || (k[a] == k[b] && a < b);
}

static void ih_up(iheap *q, int32_t i)
{
    int32_t c = q->heap[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!ih_less(q->key, c, q->heap[p]))
            break;
        q->heap[i] = q->heap[p];
        q->pos[q->heap[i]] = i;
        i = p;
    }
    q->heap[i] = c;
    q->pos[c] = i;
}

/* Queue v, or move it up after its key fell. */
static inline void ih_offer(iheap *q, int32_t v)
{
    if (q->pos[v] < 0) {
        q->heap[q->n] = v;
        q->pos[v] = q->n++;
    }
    ih_up(q, q->pos[v]);
}

static int32_t ih_pop(iheap *q)
{
    int32_t top = q->heap[0], last = q->heap[--q->n];
    q->pos[top] = -2;
    if (q->n) {
        int32_t i = 0;
        for (;;) {
            int32_t c = 2 * i + 1;
            if (c >= q->n)
                break;
            if (c + 1 < q->n && ih_less(q->key, q->heap[c + 1], q->heap[c]))
                c++;
            if (!ih_less(q->key, q->heap[c], last))
                break;
            q->heap[i] = q->heap[c];
            q->pos[q->heap[i]] = i;
            i = c;
        }
        q->heap[i] = last;
        q->pos[last] = i;
    }
    return top;
}

/* A seed: its cost is final (bit 1 cleared: nothing improves it), its direction given. */
static inline void s_seed(sf_scratch *scr, iheap *hq, int32_t q, double d, int8_t qd)
{
    if (!(d < scr->sd[q]))
        return;
    scr->sd[q] = d;
    scr->ps[q] &= 1;
    scr->pd[q] = qd;
    ih_offer(hq, q);
}

/* Costs from every cell of sector s to a goal into scr->sd, staying in the sector: seeded at
 * the goals inside it and, with `nodes`, at the sector's nodes whose abstract route leaves the
 * sector at once (their direction crosses the border). With a tile (`cost`, `dir`) the costs
 * and directions are written there too. The scratch arrays cover the sector plus a ring of
 * blocked cells (padded index (y + 1) * (w + 2) + x + 1), so no step needs a bounds test; per
 * cell, bit 0 of ps: passable, bit 1: may still be improved (not closed, not a seed). */
static void sector_run(const tn_sector_field *f, sf_scratch *scr, const tn__grid *g, int32_t s,
                       bool nodes, float *cost, int8_t *dir)
{
    const tn_hierarchy *h = f->h;
    const tn_rect r = sector_rect(h, s);
    const int32_t lw = r.x1 - r.x0, lh = r.y1 - r.y0, pw = lw + 2, np = pw * (lh + 2), W = g->w;
    const int nk = h->moves.diagonal == TN_DIAGONAL_NEVER ? 4 : 8;
    const double st = tn_moves_straight(&h->moves), dg = tn_moves_diagonal(&h->moves);
    double *sd = scr->sd;
    uint8_t *ps = scr->ps;
    int8_t *pd = scr->pd;
    float *lc = scr->lc;
    for (int32_t i = 0; i < np; i++) {
        sd[i] = (double)INFINITY;
        scr->spos[i] = -1;
        ps[i] = 0;
        pd[i] = TN_DIR_NONE;
    }
    for (int32_t y = 0; y < lh; y++) {
        const uint8_t *row = g->pass + (size_t)(r.y0 + y) * (size_t)W + r.x0;
        uint8_t *out = ps + (y + 1) * pw + 1;
        for (int32_t x = 0; x < lw; x++)
            out[x] = row[x] ? 3 : 0;
        if (!g->uniform)
            memcpy(lc + (y + 1) * pw + 1, g->cost + (size_t)(r.y0 + y) * (size_t)W + r.x0,
                   (size_t)lw * sizeof *lc);
    }
    /* seeds: into the heap, sorted out of it for the FIFO queues below */
    iheap hq = {sd, scr->sh, scr->spos, 0};
    for (int32_t k = 0; k < f->ngoals; k++) {
        tn_cell c = f->goal[k];
        if (c.x >= r.x0 && c.x < r.x1 && c.y >= r.y0 && c.y < r.y1)
            s_seed(scr, &hq, (c.y - r.y0 + 1) * pw + c.x - r.x0 + 1, 0.0, TN_SF_GOAL_DIR);
    }
    if (nodes) {
        const sector *sc = &h->sec[s];
        for (int32_t i = 0; i < sc->n; i++) {
            int32_t v = h->base[s] + i, u = f->succ[v];
            if (u < 0 || f->nsec_of[u] == s || !isfinite(f->D[v]))
                continue;
            int32_t cv = sc->cell[i], su = f->nsec_of[u];
            int32_t cu = h->sec[su].cell[u - h->base[su]];
            int32_t dx = cu % W - cv % W, dy = cu / W - cv / W;
            TN_ASSERT(dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx == 0) != (dy == 0));
            s_seed(scr, &hq, (cv / W - r.y0 + 1) * pw + cv % W - r.x0 + 1, f->D[v],
                   dir_of_step[(dy + 1) * 3 + dx + 1]);
        }
    }
    /* Dijkstra order: a binary heap; on maps of uniform cost three FIFO queues instead, each
     * sorted by construction (the seeds, sorted out of the heap; cells reached by a straight
     * step; by a diagonal step: pushes come in popping order plus a constant), taking the
     * head with the smallest current cost (a cell enters each queue at most once) */
    const bool fifo = g->uniform;
    int32_t *qs = scr->qs, *qd = scr->qd, *q0 = scr->q0;
    int32_t h0 = 0, t0 = 0, hs = 0, ts = 0, hd = 0, td = 0;
    if (fifo)
        while (hq.n)
            q0[t0++] = ih_pop(&hq);
    int32_t off[8], back[8];
    for (int k = 0; k < 8; k++) {
        off[k] = tn__dir_dy[k] * pw + tn__dir_dx[k];
        back[k] = dir_of_step[(-tn__dir_dy[k] + 1) * 3 - tn__dir_dx[k] + 1];
    }
    for (;;) {
        int32_t c;
        if (fifo) {
            while (hs < ts && !(ps[qs[hs]] & 2))
                hs++;
            while (hd < td && !(ps[qd[hd]] & 2))
                hd++;
            c = -1;
            if (h0 < t0)
                c = q0[h0];
            if (hs < ts && (c < 0 || sd[qs[hs]] < sd[c]))
                c = qs[hs];
            if (hd < td && (c < 0 || sd[qd[hd]] < sd[c]))
                c = qd[hd];
            if (c < 0)
                break;
            if (h0 < t0 && c == q0[h0]) /* seeds are in no other queue */
                h0++;
        } else {
            if (!hq.n)
                break;
            c = ih_pop(&hq);
        }
        ps[c] &= 1;
        const double dc = sd[c];
        const double ns = dc + st * (g->uniform ? 1.0 : (double)lc[c]);
        for (int k = 0; k < 4; k++) {
            int32_t q = c + off[k];
            if (!(ps[q] & 2) || !(ns < sd[q]))
                continue;
            sd[q] = ns;
            pd[q] = (int8_t)back[k];
            if (fifo) {
                qs[ts++] = q;
            } else {
                ih_offer(&hq, q);
            }
        }
        if (nk == 4)
            continue;
        const double nd = dc + dg * (g->uniform ? 1.0 : (double)lc[c]);
        for (int k = 4; k < 8; k++) {
            int32_t q = c + off[k];
            if (!(ps[q] & 2) || !(nd < sd[q]) || !(ps[c + tn__dir_dx[k]] & 1) ||
                !(ps[c + tn__dir_dy[k] * pw] & 1))
                continue;
            sd[q] = nd;
            pd[q] = (int8_t)back[k];
            if (fifo) {
                qd[td++] = q;
            } else {
                ih_offer(&hq, q);
            }
        }
    }
    if (cost)
        for (int32_t y = 0; y < lh; y++)
            for (int32_t x = 0; x < lw; x++) {
                cost[y * lw + x] = (float)sd[(y + 1) * pw + x + 1];
                dir[y * lw + x] = pd[(y + 1) * pw + x + 1];
            }
}

/* ---- the abstract costs --------------------------------------------------------------- */

static inline void a_relax(tn_sector_field *f, iheap *aq, int32_t u, double d, int32_t from)
{
    if (f->pos[u] == -2 || !(d < f->D[u]))
        return;
    f->D[u] = d;
    f->succ[u] = from;
    ih_offer(aq, u);
}

/* Reverse Dijkstra on the abstract graph from the goal sectors' nodes. */
static void abstract_costs(tn_sector_field *f, const tn__grid *g)
{
    const tn_hierarchy *h = f->h;
    const int32_t N = f->N, W = h->w, S = h->S;
    const double st = tn_moves_straight(&h->moves);
    for (int32_t v = 0; v < N; v++) {
        f->D[v] = (double)INFINITY;
        f->succ[v] = TN_SF_NO_SUCC;
        f->pos[v] = -1;
    }
    iheap aq = {f->D, f->heap, f->pos, 0};
    for (int32_t k = 0; k < f->ngoals; k++) {
        int32_t s = sector_at(h, f->goal[k].x, f->goal[k].y);
        bool seen = false;
        for (int32_t j = 0; j < k && !seen; j++)
            seen = sector_at(h, f->goal[j].x, f->goal[j].y) == s;
        if (seen)
            continue;
        sector_run(f, &f->scratch[0], g, s, false, NULL, NULL);
        const sector *sc = &h->sec[s];
        const tn_rect r = sector_rect(h, s);
        for (int32_t i = 0; i < sc->n; i++) {
            int32_t c = sc->cell[i];
            double d = f->scratch[0].sd[(c / W - r.y0 + 1) * (r.x1 - r.x0 + 2) + c % W - r.x0 + 1];
            if (isfinite(d))
                a_relax(f, &aq, h->base[s] + i, d, TN_SF_NO_SUCC);
        }
    }
    f->reached = 0;
    while (aq.n) {
        int32_t v = ih_pop(&aq);
        f->reached++;
        const int32_t s = f->nsec_of[v], i = v - h->base[s];
        const sector *sc = &h->sec[s];
        const double dv = f->D[v];
        for (int32_t j = 0; j < sc->n; j++) {
            float c = sc->dist[j * sc->n + i];
            if (j != i && isfinite(c))
                a_relax(f, &aq, h->base[s] + j, dv + (double)c, v);
        }
        /* a step into v's cell from the node facing it across a border */
        const int32_t cell = sc->cell[i], x = cell % W, y = cell / W;
        const double step = st * (g->uniform ? 1.0 : (double)g->cost[cell]);
        const int32_t x0 = (s % h->sx) * S, y0 = (s / h->sx) * S;
        for (int k = 0; k < 4; k++) {
            int32_t o = -1;
            const int32_t l = tn__hpa_facing(h, s, x0, y0, x, y, k, &o);
            if (l >= 0)
                a_relax(f, &aq, h->base[o] + l, dv + step, v);
        }
    }
}

tn_status tn_sector_field_set_goal(tn_sector_field *f, const tn_cell *goals, int32_t count)
{
    if (!f)
        return TN_E_INVALID_ARG;
    f->has_goal = false;
    drop_tiles(f);
    if (!goals || count < 1 || count > TN_SECTOR_FIELD_MAX_GOALS)
        return TN_E_INVALID_ARG;
    const tn_hierarchy *h = f->h;
    if (!tn_hierarchy_current(h))
        return TN_E_MAP_CHANGED;
    tn__grid g;
    tn__map_grid(h->map, &g);
    for (int32_t k = 0; k < count; k++) {
        if (!tn__grid_contains(&g, goals[k].x, goals[k].y))
            return TN_E_OUT_OF_MAP;
        if (!g.pass[goals[k].y * g.w + goals[k].x])
            return TN_E_GOAL_BLOCKED;
    }
    const int32_t N = h->base[h->nsec];
    if (N > f->cap_nodes) {
        free_nodes(f);
        size_t n = (size_t)N;
        f->D = tn__alloc(&f->alloc, n * sizeof *f->D);
        f->succ = tn__alloc(&f->alloc, n * sizeof *f->succ);
        f->nsec_of = tn__alloc(&f->alloc, n * sizeof *f->nsec_of);
        f->heap = tn__alloc(&f->alloc, n * sizeof *f->heap);
        f->pos = tn__alloc(&f->alloc, n * sizeof *f->pos);
        f->cap_nodes = N;
        if (!f->D || !f->succ || !f->nsec_of || !f->heap || !f->pos) {
            free_nodes(f);
            return TN_E_NOMEM;
        }
    }
    f->N = N;
    for (int32_t s = 0; s < h->nsec; s++)
        for (int32_t v = h->base[s]; v < h->base[s + 1]; v++)
            f->nsec_of[v] = s;
    f->ngoals = count;
    memcpy(f->goal, goals, (size_t)count * sizeof *goals);
    abstract_costs(f, &g);
    f->revision = h->revision;
    f->has_goal = true;
    return TN_OK;
}

/* ---- tiles ----------------------------------------------------------------------------- */

static tn_status ready(const tn_sector_field *f)
{
    if (!f->has_goal)
        return TN_E_STATE;
    if (!tn_hierarchy_current(f->h) || f->h->revision != f->revision)
        return TN_E_MAP_CHANGED;
    return TN_OK;
}

/* Give sector s a tile: its slot when kept; otherwise a free slot or the least recently used
 * one, and the sector joins the pending batch that flush() builds. -1 when out of memory, or
 * when the slot to drop was used since `since` (*full set): a batch never drops its own. */
static int32_t reserve(tn_sector_field *f, int32_t s, uint64_t since, bool *built, bool *full)
{
    int32_t k = f->slot_of[s];
    if (k < 0) {
        if (f->tiles_kept < f->tiles_max) {
            k = f->tiles_kept;
            if (!f->tile[k] && !(f->tile[k] = tn__alloc(&f->alloc, f->tile_bytes)))
                return -1;
            f->tiles_kept++;
        } else {
            k = 0;
            for (int32_t j = 1; j < f->tiles_max; j++)
                k = f->slot_use[j] < f->slot_use[k] ? j : k;
            if (f->slot_use[k] > since) {
                *full = true;
                return -1;
            }
            f->slot_of[f->slot_sec[k]] = -1;
            f->evicted++;
        }
        f->slot_of[s] = k;
        f->slot_sec[k] = s;
        TN_ASSERT(f->npending < f->tiles_max);
        f->pend_sec[f->npending] = s;
        f->pend_slot[f->npending++] = k;
        f->built++;
        if (built)
            *built = true;
    }
    f->slot_use[k] = ++f->tick;
    return k;
}

typedef struct flush_job {
    tn_sector_field *f;
    tn__grid g;
    int32_t chunks;
} flush_job;

/* Chunks [begin, end) of the pending tiles, each with its own scratch. */
static void flush_task(void *ctx, int32_t begin, int32_t end)
{
    flush_job *j = ctx;
    tn_sector_field *f = j->f;
    const size_t SS = (size_t)f->S * (size_t)f->S;
    for (int32_t c = begin; c < end; c++) {
        int32_t i0 = (int32_t)((int64_t)f->npending * c / j->chunks);
        int32_t i1 = (int32_t)((int64_t)f->npending * (c + 1) / j->chunks);
        for (int32_t i = i0; i < i1; i++) {
            uint8_t *t = f->tile[f->pend_slot[i]];
            sector_run(f, &f->scratch[c], &j->g, f->pend_sec[i], true, (float *)(void *)t,
                       (int8_t *)(t + 4 * SS));
        }
    }
}

/* Build the pending tiles: on the caller's parallel_for when there are several (each chunk
 * of them with its scratch; every tile is the same whoever builds it). */
static void flush(tn_sector_field *f)
{
    if (f->npending == 0)
        return;
    flush_job j = {f, {0}, 1};
    tn__map_grid(f->h->map, &j.g);
    if (f->parallel_for && f->npending > 1) {
        j.chunks = f->npending < f->nscratch ? f->npending : f->nscratch;
        f->parallel_for(flush_task, &j, j.chunks, f->parallel_user);
    } else {
        flush_task(&j, 0, 1);
    }
    f->npending = 0;
}

void tn__sector_field_size(const tn_sector_field *f, int32_t *w, int32_t *h)
{
    *w = f->h->w;
    *h = f->h->h;
}

tn_status tn__sector_field_begin(tn_sector_field *f, uint64_t *since)
{
    *since = f->tick;
    return ready(f);
}

tn_status tn__sector_field_touch(tn_sector_field *f, tn_cell c, uint64_t since, bool *built)
{
    TN_ASSERT(c.x >= 0 && c.y >= 0 && c.x < f->h->w && c.y < f->h->h);
    bool full = false;
    if (reserve(f, sector_at(f->h, c.x, c.y), since, built, &full) < 0)
        return full ? TN_E_FULL : TN_E_NOMEM;
    return TN_OK;
}

void tn__sector_field_flush(tn_sector_field *f)
{
    flush(f);
}

/* Read cell c of a tile of sector s. */
static tn_status read_tile(const tn_sector_field *f, const uint8_t *t, int32_t s, tn_cell c,
                           int32_t *dir, float *cost)
{
    const tn_rect r = sector_rect(f->h, s);
    const size_t SS = (size_t)f->S * (size_t)f->S;
    const int32_t i = (c.y - r.y0) * (r.x1 - r.x0) + c.x - r.x0;
    float d;
    memcpy(&d, t + 4 * (size_t)i, sizeof d);
    int8_t k = (int8_t)t[4 * SS + (size_t)i];
    /* no route: no direction either (a tile's direction with an infinite cost is not one) */
    if (dir)
        *dir = k == TN_SF_GOAL_DIR || !isfinite(d) ? TN_DIR_NONE : k;
    if (cost)
        *cost = d;
    return isfinite(d) ? TN_OK : TN_NO_PATH;
}

/* The checks and the "no route" outputs that tn_sector_field_dir() and _peek() share. */
static tn_status cell_query(const tn_sector_field *f, tn_cell c, int32_t *dir, float *cost)
{
    if (dir)
        *dir = TN_DIR_NONE;
    if (cost)
        *cost = INFINITY;
    if (!f)
        return TN_E_INVALID_ARG;
    tn_status st = ready(f);
    if (st != TN_OK)
        return st;
    if (c.x < 0 || c.y < 0 || c.x >= f->h->w || c.y >= f->h->h)
        return TN_E_OUT_OF_MAP;
    return TN_OK;
}

tn_status tn_sector_field_dir(tn_sector_field *f, tn_cell c, int32_t *dir, float *cost)
{
    tn_status st = cell_query(f, c, dir, cost);
    if (st != TN_OK)
        return st;
    int32_t s = sector_at(f->h, c.x, c.y);
    bool full = false;
    int32_t k = reserve(f, s, UINT64_MAX, NULL, &full);
    if (k < 0)
        return TN_E_NOMEM;
    flush(f);
    return read_tile(f, f->tile[k], s, c, dir, cost);
}

tn_status tn_sector_field_peek(const tn_sector_field *f, tn_cell c, int32_t *dir, float *cost)
{
    tn_status st = cell_query(f, c, dir, cost);
    if (st != TN_OK)
        return st;
    int32_t s = sector_at(f->h, c.x, c.y), k = f->slot_of[s];
    if (k < 0)
        return TN_E_NOT_FOUND;
    return read_tile(f, f->tile[k], s, c, dir, cost);
}

tn_status tn_sector_field_prepare(tn_sector_field *f, const tn_cell *cells, int32_t count,
                                  int32_t *built)
{
    if (built)
        *built = 0;
    if (!f || count < 0 || (count > 0 && !cells))
        return TN_E_INVALID_ARG;
    uint64_t since;
    tn_status st = tn__sector_field_begin(f, &since);
    int32_t made = 0;
    for (int32_t k = 0; k < count && st == TN_OK; k++) {
        tn_cell c = cells[k];
        if (c.x < 0 || c.y < 0 || c.x >= f->h->w || c.y >= f->h->h)
            continue;
        bool b = false;
        st = tn__sector_field_touch(f, c, since, &b);
        made += b;
    }
    flush(f);
    if (built)
        *built = made;
    return st;
}

tn_status tn_sector_field_path(tn_sector_field *f, tn_cell start, tn_cell *out, int32_t cap,
                               int32_t *length, double *cost)
{
    if (length)
        *length = 0;
    if (cost)
        *cost = 0.0;
    if (!f || cap < 0 || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    const tn_hierarchy *h = f->h;
    const bool uniform = tn_map_uniform_cost(h->map);
    const float *cells = tn_map_cost_data(h->map);
    const double st = tn_moves_straight(&h->moves), dg = tn_moves_diagonal(&h->moves);
    /* the cost falls at every step, so a route has at most as many cells as the map */
    const int64_t most = (int64_t)h->w * (int64_t)h->h;
    tn_cell c = start;
    int32_t n = 0;
    double sum = 0.0;
    for (;;) {
        int32_t d;
        tn_status s = tn_sector_field_dir(f, c, &d, NULL);
        if (s != TN_OK)
            return s;
        if (n < cap)
            out[n] = c;
        n++;
        if (d == TN_DIR_NONE)
            break;
        TN_ASSERT(n < most); /* cannot happen: the costs fall */
        if (n >= most)
            return TN_E_STATE;
        c.x += tn_dir_dx(d);
        c.y += tn_dir_dy(d);
        sum += ((d & 1) ? dg : st) * (uniform ? 1.0 : (double)cells[c.y * h->w + c.x]);
    }
    if (length)
        *length = n;
    if (cost)
        *cost = sum;
    return n > cap ? TN_E_BUFFER_TOO_SMALL : TN_OK;
}

void tn_sector_field_stats_get(const tn_sector_field *f, tn_sector_field_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!f)
        return;
    out->goals = f->has_goal ? f->ngoals : 0;
    out->nodes_reached = f->has_goal ? f->reached : 0;
    out->tiles_kept = f->tiles_kept;
    out->tiles_max = f->tiles_max;
    out->tiles_built = f->built;
    out->tiles_evicted = f->evicted;
    out->tile_bytes = f->tile_bytes;
}
