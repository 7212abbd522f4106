/* Broad phase: handles, slots and the kind-independent API; brute force and sort and sweep.
 * The grids live in broadphase_grid.c. */
#include "broadphase_internal.h"

#include <math.h>
#include <string.h>

tn_bp_def tn_bp_def_default(void)
{
    tn_bp_def d;
    memset(&d, 0, sizeof d);
    d.kind = TN_BP_GRID;
    d.capacity = 1024;
    d.cell_size = 64.0;
    d.levels = 1;
    d.world.x0 = 0.0;
    d.world.y0 = 0.0;
    d.world.x1 = 1024.0;
    d.world.y1 = 1024.0;
    d.rebuild_fraction = 0.05;
    d.internal_cookie = TN_COOKIE_BP;
    return d;
}

double tn_bp_suggest_cell(double max_size, double area, int32_t count)
{
    double c = max_size > 0.0 && isfinite(max_size) ? max_size : 1.0;
    if (count > 0 && area > 0.0 && isfinite(area)) {
        double d = sqrt(area / (double)count);
        if (d > c)
            c = d;
    }
    /* the grids need cells strictly larger than the objects (see broadphase_grid.c) */
    return c * (1.0 + 1e-4);
}

static bool box_ok(tn_box b)
{
    return isfinite(b.x0) && isfinite(b.y0) && isfinite(b.x1) && isfinite(b.y1) && b.x0 <= b.x1 &&
           b.y0 <= b.y1;
}

#define BP_ARRAY(field, n) (bp->field = tn__alloc(&bp->alloc, (size_t)(n) * sizeof *bp->field))
#define BP_FREE(field, n) tn__free(&bp->alloc, bp->field, (size_t)(n) * sizeof *bp->field)

static size_t bp_common_bytes(const tn_bp *bp)
{
    size_t n = (size_t)bp->cap;
    return sizeof *bp + n * (sizeof(tn_box) + 2 * sizeof(uint32_t) + 1 + 3 * sizeof(int32_t)) +
           n * (sizeof(tn_box) + sizeof(tn__bp_meta));
}

static size_t bp_sap_bytes(const tn_bp *bp)
{
    return (size_t)bp->cap * (2 * sizeof(int32_t) + 2 * sizeof(double));
}

void tn_bp_destroy(tn_bp *bp)
{
    if (!bp)
        return;
    int32_t n = bp->cap;
    BP_FREE(box, n);
    BP_FREE(user, n);
    BP_FREE(gen, n);
    BP_FREE(alive, n);
    BP_FREE(next_free, n);
    BP_FREE(live, n);
    BP_FREE(live_pos, n);
    BP_FREE(sbox, n);
    BP_FREE(smeta, n);
    BP_FREE(pos, n);
    BP_FREE(order, n);
    BP_FREE(tmp, n);
    BP_FREE(tkey, n);
    BP_FREE(tkey2, n);
    tn__grid_free(bp);
    tn_allocator a = bp->alloc;
    tn__free(&a, bp, sizeof *bp);
}

tn_status tn_bp_create(const tn_bp_def *def, tn_bp **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_BP)
        return TN_E_INVALID_ARG;
    if (def->kind < TN_BP_GRID || def->kind > TN_BP_BRUTE || def->capacity < 1)
        return TN_E_INVALID_ARG;
    if (def->capacity > TN_BP_MAX_OBJECTS)
        return TN_E_TOO_LARGE;
    if ((def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    bool grid = def->kind == TN_BP_GRID || def->kind == TN_BP_HASH;
    if (grid) {
        if (!(def->cell_size > 0.0) || !isfinite(def->cell_size) || def->levels < 1 ||
            def->levels > TN_BP_MAX_LEVELS || !(def->rebuild_fraction >= 0.0) ||
            !isfinite(def->rebuild_fraction))
            return TN_E_INVALID_ARG;
        if (def->kind == TN_BP_GRID && !box_ok(def->world))
            return TN_E_INVALID_ARG;
    }
    tn_bp *bp = tn__calloc(&def->allocator, sizeof *bp);
    if (!bp)
        return TN_E_NOMEM;
    bp->alloc = def->allocator;
    bp->kind = def->kind;
    bp->cap = def->capacity;
    bp->free_head = -1;
    int32_t n = bp->cap;
    BP_ARRAY(box, n);
    BP_ARRAY(user, n);
    BP_ARRAY(gen, n);
    BP_ARRAY(alive, n);
    BP_ARRAY(next_free, n);
    BP_ARRAY(live, n);
    BP_ARRAY(live_pos, n);
    BP_ARRAY(sbox, n);
    BP_ARRAY(smeta, n);
    BP_ARRAY(pos, n);
    bool ok = bp->box && bp->user && bp->gen && bp->alive && bp->next_free && bp->live &&
              bp->live_pos && bp->sbox && bp->smeta && bp->pos;
    if (ok && bp->kind == TN_BP_SAP) {
        BP_ARRAY(order, n);
        BP_ARRAY(tmp, n);
        BP_ARRAY(tkey, n);
        BP_ARRAY(tkey2, n);
        ok = bp->order && bp->tmp && bp->tkey && bp->tkey2;
    }
    if (!ok) {
        tn_bp_destroy(bp);
        return TN_E_NOMEM;
    }
    memset(bp->gen, 0, (size_t)n * sizeof *bp->gen);
    memset(bp->alive, 0, (size_t)n);
    if (grid) {
        tn_status st = tn__grid_init(bp, def);
        if (st != TN_OK) {
            tn_bp_destroy(bp);
            return st;
        }
    }
    *out = bp;
    return TN_OK;
}

size_t tn_bp_memory_bytes(const tn_bp *bp)
{
    if (!bp)
        return 0;
    size_t b = bp_common_bytes(bp);
    if (bp->kind == TN_BP_SAP)
        b += bp_sap_bytes(bp);
    if (bp->kind == TN_BP_GRID || bp->kind == TN_BP_HASH)
        b += tn__grid_bytes(bp);
    return b;
}

tn_bp_kind tn_bp_get_kind(const tn_bp *bp)
{
    return bp ? bp->kind : TN_BP_BRUTE;
}

int32_t tn_bp_count(const tn_bp *bp)
{
    return bp ? bp->count : 0;
}

/* Slot of a handle, or -1 when stale. */
static int32_t bp_slot(const tn_bp *bp, tn_bp_id id)
{
    uint32_t s = id.id & TN_BP_SLOT_MASK;
    if (s == 0 || s > (uint32_t)bp->high)
        return -1;
    int32_t slot = (int32_t)(s - 1u);
    if (!bp->alive[slot] || bp->gen[slot] != (id.id >> TN_BP_SLOT_BITS))
        return -1;
    return slot;
}

static int32_t sap_compact(tn_bp *bp);

static void bp_set_box(tn_bp *bp, int32_t s, tn_box b)
{
    bp->box[s].x0 = b.x0;
    bp->box[s].y0 = b.y0;
    bp->box[s].x1 = b.x1;
    bp->box[s].y1 = b.y1;
}

tn_status tn_bp_insert(tn_bp *bp, tn_box box, uint32_t user, tn_bp_id *out)
{
    if (out)
        out->id = 0;
    if (!bp || !out || !box_ok(box))
        return TN_E_INVALID_ARG;
    int32_t s;
    if (bp->free_head >= 0) {
        s = bp->free_head;
        bp->free_head = bp->next_free[s];
    } else if (bp->high < bp->cap) {
        s = bp->high++;
    } else {
        return TN_E_FULL;
    }
    if (bp->kind == TN_BP_SAP && bp->norder == bp->cap)
        (void)sap_compact(bp); /* before s is alive, so that its old entry is dropped */
    TN_ASSERT(bp->kind != TN_BP_SAP || bp->norder < bp->cap);
    bp->alive[s] = 1;
    bp_set_box(bp, s, box);
    bp->user[s] = user;
    bp->pos[s] = -1;
    bp->live_pos[s] = bp->count;
    bp->live[bp->count++] = s;
    bp->dirty = true;
    if (bp->kind == TN_BP_GRID || bp->kind == TN_BP_HASH)
        tn__grid_insert(bp, s);
    else if (bp->kind == TN_BP_SAP)
        bp->order[bp->norder++] = s;
    out->id = tn__bp_make_id(bp, s);
    return TN_OK;
}

tn_status tn_bp_move(tn_bp *bp, tn_bp_id id, tn_box box)
{
    if (!bp || !box_ok(box))
        return TN_E_INVALID_ARG;
    int32_t s = bp_slot(bp, id);
    if (s < 0)
        return TN_E_STALE_ID;
    bp_set_box(bp, s, box);
    bp->dirty = true;
    if (bp->kind == TN_BP_GRID || bp->kind == TN_BP_HASH)
        tn__grid_move(bp, s);
    return TN_OK;
}

tn_status tn_bp_remove(tn_bp *bp, tn_bp_id id)
{
    if (!bp)
        return TN_E_INVALID_ARG;
    int32_t s = bp_slot(bp, id);
    if (s < 0)
        return TN_E_STALE_ID;
    if (bp->kind == TN_BP_GRID || bp->kind == TN_BP_HASH)
        tn__grid_remove(bp, s);
    /* SAP: the order array is compacted at the next update (dead slots are skipped) */
    int32_t lp = bp->live_pos[s];
    int32_t last = bp->live[--bp->count];
    bp->live[lp] = last;
    bp->live_pos[last] = lp;
    bp->alive[s] = 0;
    bp->gen[s] = (bp->gen[s] + 1u) & TN_BP_GEN_MASK;
    bp->next_free[s] = bp->free_head;
    bp->free_head = s;
    bp->dirty = true;
    return TN_OK;
}

tn_status tn_bp_get(const tn_bp *bp, tn_bp_id id, tn_box *box, uint32_t *user)
{
    if (!bp)
        return TN_E_INVALID_ARG;
    int32_t s = bp_slot(bp, id);
    if (s < 0)
        return TN_E_STALE_ID;
    if (box) {
        box->x0 = bp->box[s].x0;
        box->y0 = bp->box[s].y0;
        box->x1 = bp->box[s].x1;
        box->y1 = bp->box[s].y1;
    }
    if (user)
        *user = bp->user[s];
    return TN_OK;
}

void tn_bp_clear(tn_bp *bp)
{
    if (!bp)
        return;
    while (bp->count > 0) {
        int32_t s = bp->live[bp->count - 1];
        tn_status st = tn_bp_remove(bp, (tn_bp_id){tn__bp_make_id(bp, s)});
        TN_ASSERT(st == TN_OK);
        (void)st;
    }
    if (bp->kind == TN_BP_GRID || bp->kind == TN_BP_HASH)
        tn__grid_clear(bp);
    bp->norder = 0;
    bp->m = 0;
}

/* ---- sort and sweep ------------------------------------------------------------------- */

/* Stable bottom-up merge sort of (tkey, order)[0, n) using tkey2/tmp as scratch. */
static void sap_merge_sort(tn_bp *bp, int32_t n)
{
    double *ka = bp->tkey, *kb = bp->tkey2;
    int32_t *va = bp->order, *vb = bp->tmp;
    for (int32_t w = 1; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n;
            int32_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            int32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (ka[j] < ka[i]) {
                    kb[k] = ka[j];
                    vb[k++] = va[j++];
                } else {
                    kb[k] = ka[i];
                    vb[k++] = va[i++];
                }
            }
            while (i < mid) {
                kb[k] = ka[i];
                vb[k++] = va[i++];
            }
            while (j < hi) {
                kb[k] = ka[j];
                vb[k++] = va[j++];
            }
        }
        double *tk = ka;
        ka = kb;
        kb = tk;
        int32_t *tv = va;
        va = vb;
        vb = tv;
    }
    if (va != bp->order) {
        memcpy(bp->order, va, (size_t)n * sizeof *va);
        memcpy(bp->tkey, ka, (size_t)n * sizeof *ka);
    }
}

/* Drop removed slots from `order` (a reused slot may appear twice: keep the first) and load
 * the keys. */
static int32_t sap_compact(tn_bp *bp)
{
    int32_t n = 0;
    for (int32_t p = 0; p < bp->norder; p++) {
        int32_t s = bp->order[p];
        if (!bp->alive[s] || bp->pos[s] == -2)
            continue;
        bp->pos[s] = -2; /* seen */
        bp->order[n] = s;
        bp->tkey[n++] = bp->box[s].x0;
    }
    for (int32_t p = 0; p < n; p++)
        bp->pos[bp->order[p]] = -1;
    bp->norder = n;
    bp->m = 0;
    return n;
}

static void sap_update(tn_bp *bp, bool force)
{
    int32_t n = sap_compact(bp);
    /* insertion sort with a budget; past it, merge sort */
    int64_t budget = force ? 0 : 8 * (int64_t)n + 64;
    bool sorted = true;
    for (int32_t i = 1; i < n && sorted; i++) {
        double k = bp->tkey[i];
        int32_t v = bp->order[i];
        int32_t j = i - 1;
        while (j >= 0 && bp->tkey[j] > k) {
            bp->tkey[j + 1] = bp->tkey[j];
            bp->order[j + 1] = bp->order[j];
            j--;
            if (--budget < 0) {
                sorted = false;
                break;
            }
        }
        bp->tkey[j + 1] = k;
        bp->order[j + 1] = v;
    }
    if (!sorted)
        sap_merge_sort(bp, n);
    bp->stats.rebuilt = !sorted;
    if (!sorted)
        bp->stats.rebuilds++;
    double mw = 0.0;
    for (int32_t p = 0; p < n; p++) {
        int32_t s = bp->order[p];
        tn__bp_place(bp, p, s);
        bp->pos[s] = p;
        double w = bp->box[s].x1 - bp->box[s].x0;
        if (w > mw)
            mw = w;
    }
    bp->m = n;
    bp->max_w = mw;
}

static tn_status sap_pairs(const tn_bp *bp, tn_bp_pair_fn fn, void *ctx)
{
    const int32_t m = bp->m;
    const tn_box *sb = bp->sbox;
    tn_bp_pair pr;
    for (int32_t i = 0; i < m; i++) {
        const double ax1 = sb[i].x1, ay0 = sb[i].y0, ay1 = sb[i].y1;
        for (int32_t j = i + 1; j < m && sb[j].x0 <= ax1; j++) {
            if (sb[j].y0 <= ay1 && ay0 <= sb[j].y1) {
                pr.a.id = bp->smeta[i].id;
                pr.b.id = bp->smeta[j].id;
                pr.user_a = bp->smeta[i].user;
                pr.user_b = bp->smeta[j].user;
                if (!fn(ctx, &pr))
                    return TN_PARTIAL;
            }
        }
    }
    return TN_OK;
}

static tn_status sap_query(const tn_bp *bp, tn_box q, tn_bp_query_fn fn, void *ctx)
{
    /* entries with sx0 <= q.x1: [0, hi); of those, sx1 >= q.x0 needs sx0 >= q.x0 - max_w */
    int32_t lo = 0, hi = bp->m;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (bp->sbox[mid].x0 <= q.x1)
            lo = mid + 1;
        else
            hi = mid;
    }
    double from = q.x0 - bp->max_w;
    for (int32_t p = lo - 1; p >= 0 && bp->sbox[p].x0 >= from; p--) {
        if (tn__box_overlap(q.x0, q.y0, q.x1, q.y1, bp->sbox[p].x0, bp->sbox[p].y0, bp->sbox[p].x1,
                            bp->sbox[p].y1) &&
            !fn(ctx, (tn_bp_id){bp->smeta[p].id}, bp->smeta[p].user))
            return TN_PARTIAL;
    }
    return TN_OK;
}

/* ---- brute force (also every kind's fallback for queries on a stale SAP) -------------- */

static tn_status brute_pairs(const tn_bp *bp, tn_bp_pair_fn fn, void *ctx)
{
    tn_bp_pair pr;
    for (int32_t i = 0; i < bp->count; i++) {
        int32_t a = bp->live[i];
        const double ax0 = bp->box[a].x0, ay0 = bp->box[a].y0, ax1 = bp->box[a].x1,
                     ay1 = bp->box[a].y1;
        for (int32_t j = i + 1; j < bp->count; j++) {
            int32_t b = bp->live[j];
            if (tn__box_overlap(ax0, ay0, ax1, ay1, bp->box[b].x0, bp->box[b].y0, bp->box[b].x1,
                                bp->box[b].y1)) {
                pr.a.id = tn__bp_make_id(bp, a);
                pr.b.id = tn__bp_make_id(bp, b);
                pr.user_a = bp->user[a];
                pr.user_b = bp->user[b];
                if (!fn(ctx, &pr))
                    return TN_PARTIAL;
            }
        }
    }
    return TN_OK;
}

static tn_status brute_query(const tn_bp *bp, tn_box q, tn_bp_query_fn fn, void *ctx)
{
    for (int32_t i = 0; i < bp->count; i++) {
        int32_t a = bp->live[i];
        if (tn__box_overlap(q.x0, q.y0, q.x1, q.y1, bp->box[a].x0, bp->box[a].y0, bp->box[a].x1,
                            bp->box[a].y1) &&
            !fn(ctx, (tn_bp_id){tn__bp_make_id(bp, a)}, bp->user[a]))
            return TN_PARTIAL;
    }
    return TN_OK;
}

/* ---- kind-independent entry points ---------------------------------------------------- */

static void bp_fill_stats(const tn_bp *bp, tn_bp_stats *stats)
{
    if (!stats)
        return;
    *stats = bp->stats;
    stats->count = bp->count;
    stats->loose = bp->nloose;
    stats->big = bp->nbig;
}

static tn_status bp_update(tn_bp *bp, tn_bp_stats *stats, bool force)
{
    if (!bp)
        return TN_E_INVALID_ARG;
    bp->stats.rebuilt = false;
    bp->stats.updates++;
    if (bp->kind == TN_BP_GRID || bp->kind == TN_BP_HASH)
        tn__grid_update(bp, force);
    else if (bp->kind == TN_BP_SAP)
        sap_update(bp, force);
    bp->dirty = false;
    bp_fill_stats(bp, stats);
    return TN_OK;
}

tn_status tn_bp_update(tn_bp *bp, tn_bp_stats *stats)
{
    return bp_update(bp, stats, false);
}

tn_status tn_bp_rebuild(tn_bp *bp)
{
    return bp_update(bp, NULL, true);
}

tn_status tn_bp_pairs(const tn_bp *bp, tn_bp_pair_fn fn, void *ctx)
{
    if (!bp || !fn)
        return TN_E_INVALID_ARG;
    if (bp->dirty)
        return TN_E_STATE;
    switch (bp->kind) {
    case TN_BP_GRID:
    case TN_BP_HASH: return tn__grid_pairs(bp, fn, ctx);
    case TN_BP_SAP: return sap_pairs(bp, fn, ctx);
    case TN_BP_BRUTE: return brute_pairs(bp, fn, ctx);
    }
    return TN_E_INVALID_ARG;
}

typedef struct pair_buf {
    tn_bp_pair *out;
    int64_t cap, len;
} pair_buf;

static bool pair_buf_add(void *ctx, const tn_bp_pair *p)
{
    pair_buf *b = ctx;
    if (b->len < b->cap)
        b->out[b->len] = *p;
    b->len++;
    return true;
}

tn_status tn_bp_pairs_buf(const tn_bp *bp, tn_bp_pair *out, int64_t cap, int64_t *len)
{
    if (len)
        *len = 0;
    if (!bp || !len || cap < 0 || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    pair_buf b = {out, cap, 0};
    tn_status st = tn_bp_pairs(bp, pair_buf_add, &b);
    if (st < 0)
        return st;
    *len = b.len;
    return b.len > cap ? TN_E_BUFFER_TOO_SMALL : TN_OK;
}

tn_status tn_bp_query_box(const tn_bp *bp, tn_box box, tn_bp_query_fn fn, void *ctx)
{
    if (!bp || !fn || !box_ok(box))
        return TN_E_INVALID_ARG;
    switch (bp->kind) {
    case TN_BP_GRID:
    case TN_BP_HASH:
        return bp->dirty ? brute_query(bp, box, fn, ctx) : tn__grid_query(bp, box, fn, ctx);
    case TN_BP_SAP: return bp->dirty ? brute_query(bp, box, fn, ctx) : sap_query(bp, box, fn, ctx);
    case TN_BP_BRUTE: return brute_query(bp, box, fn, ctx);
    }
    return TN_E_INVALID_ARG;
}

tn_status tn_bp_query_point(const tn_bp *bp, double x, double y, tn_bp_query_fn fn, void *ctx)
{
    tn_box b = {x, y, x, y};
    return tn_bp_query_box(bp, b, fn, ctx);
}

typedef struct circle_filter {
    const tn_bp *bp;
    double cx, cy, rr;
    tn_bp_query_fn fn;
    void *ctx;
} circle_filter;

static bool circle_filter_fn(void *ctx, tn_bp_id id, uint32_t user)
{
    circle_filter *c = ctx;
    int32_t s = (int32_t)(id.id & TN_BP_SLOT_MASK) - 1;
    double qx = c->cx < c->bp->box[s].x0 ? c->bp->box[s].x0
                                         : (c->cx > c->bp->box[s].x1 ? c->bp->box[s].x1 : c->cx);
    double qy = c->cy < c->bp->box[s].y0 ? c->bp->box[s].y0
                                         : (c->cy > c->bp->box[s].y1 ? c->bp->box[s].y1 : c->cy);
    double dx = qx - c->cx, dy = qy - c->cy;
    if (dx * dx + dy * dy > c->rr)
        return true;
    return c->fn(c->ctx, id, user);
}

tn_status tn_bp_query_circle(const tn_bp *bp, double cx, double cy, double r, tn_bp_query_fn fn,
                             void *ctx)
{
    if (!bp || !fn || !isfinite(cx) || !isfinite(cy) || !isfinite(r) || r < 0.0)
        return TN_E_INVALID_ARG;
    circle_filter c = {bp, cx, cy, r * r, fn, ctx};
    tn_box b = {cx - r, cy - r, cx + r, cy + r};
    return tn_bp_query_box(bp, b, circle_filter_fn, &c);
}

typedef struct id_buf {
    tn_bp_id *out;
    int32_t cap, len;
} id_buf;

static bool id_buf_add(void *ctx, tn_bp_id id, uint32_t user)
{
    (void)user;
    id_buf *b = ctx;
    if (b->len < b->cap)
        b->out[b->len] = id;
    if (b->len < INT32_MAX)
        b->len++;
    return true;
}

tn_status tn_bp_query_box_buf(const tn_bp *bp, tn_box box, tn_bp_id *out, int32_t cap, int32_t *len)
{
    if (len)
        *len = 0;
    if (!bp || !len || cap < 0 || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    id_buf b = {out, cap, 0};
    tn_status st = tn_bp_query_box(bp, box, id_buf_add, &b);
    if (st < 0)
        return st;
    *len = b.len;
    return b.len > cap ? TN_E_BUFFER_TOO_SMALL : TN_OK;
}
