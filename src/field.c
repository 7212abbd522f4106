/* Integration and flow fields: distances to the goal(s) by a FIFO breadth-first sweep (uniform
 * 4-connected), a bucket queue (every other case at build time) or a binary heap (incremental
 * repair), 8-way directions, paths read off the field, incremental updates and the wall-off
 * query. Line of sight lives in field_los.c. */

/* Built with -fno-trapping-math (CMakeLists.txt): GCC keeps float operations in place when they
 * might raise a floating-point exception flag, which stops it from vectorising the flow rows.
 * Nothing here reads those flags, and the option changes no result (no reassociation, no
 * contraction). */

#include "field_internal.h"

#include <math.h>
#include <string.h>

/* Directions clockwise on screen from "right". */
static const int32_t DX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int32_t DY[8] = {0, 1, 1, 1, 0, -1, -1, -1};
/* The same steps on packed (y << 16 | x) cells, as wrapping unsigned offsets. */
static const uint32_t POFF[8] = {1u,          0x10001u,    0x10000u,    0xffffu,
                                 0xffffffffu, 0xfffeffffu, 0xffff0000u, 0xffff0001u};

#define TN_MAX_BUCKETS 4096

/* Non-negative floats order like their bit patterns as integers, and +INFINITY is the largest;
 * integer compares let the compiler vectorise row loops (float compares may trap, which stops
 * GCC's if-conversion unless -fno-trapping-math). */
#define TN_INF_BITS 0x7f800000
static inline int32_t fbits(const float *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

tn_field_def tn_field_def_default(void)
{
    tn_field_def d;
    memset(&d, 0, sizeof d);
    d.flow = TN_FLOW_OPTIMAL;
    d.los = TN_LOS_OFF;
    d.internal_cookie = TN_COOKIE_FIELD;
    return d;
}

tn_status tn_field_create(const tn_field_def *def, tn_field **out)
{
    if (!out)
        return TN_E_INVALID_ARG;
    *out = NULL;
    if (!def || def->internal_cookie != TN_COOKIE_FIELD || !def->map ||
        !tn_moves_valid(&def->moves) || (unsigned)def->flow > (unsigned)TN_FLOW_STEEPEST ||
        (unsigned)def->los > (unsigned)TN_LOS_SIMPLE ||
        (def->allocator.alloc == NULL) != (def->allocator.free == NULL))
        return TN_E_INVALID_ARG;
    tn_field *f = tn__calloc(&def->allocator, sizeof *f);
    if (!f)
        return TN_E_NOMEM;
    f->alloc = def->allocator;
    f->map = def->map;
    f->moves = def->moves;
    f->flow = def->flow;
    f->los = def->los;
    f->extra = def->extra;
    f->parallel_for = def->parallel_for;
    f->parallel_user = def->parallel_user;
    f->w = tn_map_width(def->map);
    f->h = tn_map_height(def->map);
    f->n = (size_t)f->w * (size_t)f->h;
    f->dist = tn__alloc(&f->alloc, f->n * sizeof(float));
    f->bits = tn__calloc(&f->alloc, f->n);
    /* one spare entry: the breadth-first sweep writes q[tail] before deciding to keep it */
    f->qa = tn__alloc(&f->alloc, (f->n + 1) * sizeof(int32_t));
    f->qb = tn__alloc(&f->alloc, (f->n + 1) * sizeof(int32_t));
    if (!f->dist || !f->bits || !f->qa || !f->qb) {
        tn_field_destroy(f);
        return TN_E_NOMEM;
    }
    for (size_t i = 0; i < f->n; i++)
        f->dist[i] = INFINITY;
    *out = f;
    return TN_OK;
}

void tn_field_destroy(tn_field *f)
{
    if (!f)
        return;
    tn_allocator a = f->alloc;
    tn__free(&a, f->dist, f->n * sizeof(float));
    tn__free(&a, f->bits, f->n);
    tn__free(&a, f->qa, (f->n + 1) * sizeof(int32_t));
    tn__free(&a, f->qb, (f->n + 1) * sizeof(int32_t));
    for (size_t k = 0; k < f->bk_cap; k++)
        tn__free(&a, f->bk[k].e, f->bk[k].cap * sizeof(uint32_t));
    tn__free(&a, f->bk, f->bk_cap * sizeof(tn_bucket));
    tn__free(&a, f->touched, f->touched_cap * sizeof(int32_t));
    tn__free(&a, f->goals, f->goals_cap * sizeof(tn_cell));
    for (int o = 0; o < 8; o++) {
        for (int k = 0; k < 3; k++)
            tn__free(&a, f->lsc[o].ivs[k], f->lsc[o].ivs_cap[k] * sizeof(tn_los_iv));
        tn__free(&a, f->lsc[o].colb, f->lsc[o].colb_cap);
    }
    tn__free(&a, f, sizeof *f);
}

size_t tn_field_memory_bytes(const tn_field *f)
{
    if (!f)
        return 0;
    size_t b = sizeof *f + f->n * (sizeof(float) + 1) + (f->n + 1) * 2 * sizeof(int32_t);
    for (size_t k = 0; k < f->bk_cap; k++)
        b += f->bk[k].cap * sizeof(uint32_t);
    b += f->bk_cap * sizeof(tn_bucket) + f->touched_cap * sizeof(int32_t) +
         f->goals_cap * sizeof(tn_cell);
    for (int o = 0; o < 8; o++) {
        for (int k = 0; k < 3; k++)
            b += f->lsc[o].ivs_cap[k] * sizeof(tn_los_iv);
        b += f->lsc[o].colb_cap;
    }
    return b;
}

/* ---- step costs ------------------------------------------------------------------------ */

/* Cost of a step into cell i: base * terrain + extra, in float, the one formula every part of
 * the field uses so that values compare bit for bit. */
static inline float step_cost(const tn_field *f, size_t i, bool diag)
{
    float c = (diag ? f->bd : f->bs) * f->cost[i];
    return f->extra ? c + f->extra[i] : c;
}

static inline bool diag_rule_ok(tn_diagonal d, bool a, bool b)
{
    return tn_moves_diagonal_ok(d, a, b);
}

static inline bool in_map(const tn_field *f, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < f->w && y < f->h;
}

/* Is the step from (x, y) in direction k legal under the field's moves? (x, y) passable. */
static inline bool step_ok(const tn_field *f, int32_t x, int32_t y, int k)
{
    int32_t nx = x + DX[k], ny = y + DY[k];
    if (!in_map(f, nx, ny) || !f->pass[(size_t)ny * (size_t)f->w + (size_t)nx])
        return false;
    if ((k & 1) == 0)
        return true;
    if (f->moves.diagonal == TN_DIAGONAL_NEVER)
        return false;
    bool a = f->pass[(size_t)y * (size_t)f->w + (size_t)nx] != 0;
    bool b = f->pass[(size_t)ny * (size_t)f->w + (size_t)x] != 0;
    return diag_rule_ok(f->moves.diagonal, a, b);
}

/* ---- binary heap keyed by dist (qa = heap, qb = position or -1) ---------------------------- */

typedef struct heap {
    int32_t *h, *pos;
    const float *key;
    int32_t n;
} heap;

static inline bool heap_less(const heap *hp, int32_t a, int32_t b)
{
    float ka = hp->key[a], kb = hp->key[b];
    return ka < kb || (ka == kb && a < b);
}

static void heap_up(heap *hp, int32_t i)
{
    int32_t c = hp->h[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!heap_less(hp, c, hp->h[p]))
            break;
        hp->h[i] = hp->h[p];
        hp->pos[hp->h[i]] = i;
        i = p;
    }
    hp->h[i] = c;
    hp->pos[c] = i;
}

static void heap_down(heap *hp, int32_t i)
{
    int32_t c = hp->h[i];
    for (;;) {
        int32_t l = 2 * i + 1;
        if (l >= hp->n)
            break;
        int32_t m = l;
        if (l + 1 < hp->n && heap_less(hp, hp->h[l + 1], hp->h[l]))
            m = l + 1;
        if (!heap_less(hp, hp->h[m], c))
            break;
        hp->h[i] = hp->h[m];
        hp->pos[hp->h[i]] = i;
        i = m;
    }
    hp->h[i] = c;
    hp->pos[c] = i;
}

/* Insert, or restore order after the key of a queued cell decreased. */
static void heap_push(heap *hp, int32_t c)
{
    /* positions are validated against the heap (a sparse set), so pos needs no clearing */
    int32_t p = hp->pos[c];
    if (p >= 0 && p < hp->n && hp->h[p] == c) {
        heap_up(hp, p);
        return;
    }
    hp->h[hp->n] = c;
    hp->pos[c] = hp->n;
    hp->n++;
    heap_up(hp, hp->n - 1);
}

static int32_t heap_pop(heap *hp)
{
    int32_t top = hp->h[0];
    hp->pos[top] = -1;
    hp->n--;
    if (hp->n > 0) {
        hp->h[0] = hp->h[hp->n];
        hp->pos[hp->h[0]] = 0;
        heap_down(hp, 0);
    }
    return top;
}

static heap heap_init(tn_field *f)
{
    heap hp = {f->qa, f->qb, f->dist, 0};
    for (size_t i = 0; i < f->n; i++)
        f->qb[i] = -1;
    return hp;
}

/* ---- the HowToRTS line-of-sight rule (TN_LOS_SIMPLE), evaluated as cells are settled ----------
 */

static void simple_los(tn_field *f, int32_t x, int32_t y)
{
    const tn_cell g = f->goals[0];
    int32_t xd = g.x - x, yd = g.y - y;
    int32_t ax = xd < 0 ? -xd : xd, ay = yd < 0 ? -yd : yd;
    int32_t sx = (xd > 0) - (xd < 0), sy = (yd > 0) - (yd < 0);
    size_t w = (size_t)f->w;
    bool los = false;
    if (ax >= ay && (f->bits[(size_t)y * w + (size_t)(x + sx)] & TN_F_LOS))
        los = true;
    if (ay >= ax && (f->bits[(size_t)(y + sy) * w + (size_t)x] & TN_F_LOS))
        los = true;
    if (ax > 0 && ay > 0) {
        if (!(f->bits[(size_t)(y + sy) * w + (size_t)(x + sx)] & TN_F_LOS))
            los = false;
        else if (ax == ay && (!f->pass[(size_t)y * w + (size_t)(x + sx)] ||
                              !f->pass[(size_t)(y + sy) * w + (size_t)x]))
            los = false;
    }
    if (los)
        f->bits[(size_t)y * w + (size_t)x] |= TN_F_LOS;
}

/* ---- integration ------------------------------------------------------------------------- */

/* Uniform cost, 4-connected: a plain FIFO breadth-first sweep. Queue entries pack (y << 16 | x). */
static void integrate_bfs(tn_field *f)
{
    uint32_t *q = (uint32_t *)f->qa;
    size_t head = 0, tail = 0;
    const int32_t w = f->w, h = f->h;
    const size_t n = f->n;
    const uint8_t *pass = f->pass;
    float *dist = f->dist;
    const bool simple = f->los == TN_LOS_SIMPLE;
    /* blocked cells hold -1 during the sweep, so "unvisited" is one test: == INFINITY */
    for (size_t i = 0; i < n; i++)
        dist[i] = pass[i] ? INFINITY : -1.0f;
    for (int32_t k = 0; k < f->ngoals; k++) {
        tn_cell g = f->goals[k];
        size_t i = (size_t)g.y * (size_t)w + (size_t)g.x;
        if (dist[i] == 0.0f)
            continue;
        dist[i] = 0.0f;
        q[tail++] = (uint32_t)g.y << 16 | (uint32_t)g.x;
    }
    const float bs = f->bs;
    while (head < tail) {
        uint32_t e = q[head++];
        int32_t x = (int32_t)(e & 0xffffu), y = (int32_t)(e >> 16);
        size_t i = (size_t)y * (size_t)w + (size_t)x;
        if (simple && dist[i] != 0.0f)
            simple_los(f, x, y);
        float nd = dist[i] + bs;
        if (x > 0 && dist[i - 1] == INFINITY) {
            dist[i - 1] = nd;
            q[tail++] = e - 1;
        }
        if (y > 0 && dist[i - (size_t)w] == INFINITY) {
            dist[i - (size_t)w] = nd;
            q[tail++] = e - (1u << 16);
        }
        if (x < w - 1 && dist[i + 1] == INFINITY) {
            dist[i + 1] = nd;
            q[tail++] = e + 1;
        }
        if (y < h - 1 && dist[i + (size_t)w] == INFINITY) {
            dist[i + (size_t)w] = nd;
            q[tail++] = e + (1u << 16);
        }
    }
    for (size_t i = 0; i < n; i++) { /* -1 back to +INFINITY, as integers (vectorises) */
        int32_t v = fbits(dist + i);
        v = v < 0 ? TN_INF_BITS : v;
        memcpy(dist + i, &v, sizeof v);
    }
    f->reachable = (int32_t)tail;
}

/* Relax the predecessors of settled cell v = (x, y): every u with a legal step u -> v. Calls
 * `relax(ctx, u, nd)` when nd improves dist[u]. */
#define FOR_PREDECESSORS(f, x, y, v, BODY)                                                         \
    do {                                                                                           \
        const float s_ = step_cost(f, v, false);                                                   \
        const float d_ = (f)->moves.diagonal == TN_DIAGONAL_NEVER ? 0.0f : step_cost(f, v, true);  \
        const float dv_ = (f)->dist[v];                                                            \
        for (int k_ = 0; k_ < 8; k_++) {                                                           \
            int32_t ux_ = (x) + DX[k_], uy_ = (y) + DY[k_];                                        \
            if (!in_map(f, ux_, uy_))                                                              \
                continue;                                                                          \
            size_t u = (size_t)uy_ * (size_t)(f)->w + (size_t)ux_;                                 \
            if (!(f)->pass[u])                                                                     \
                continue;                                                                          \
            float nd;                                                                              \
            if (k_ & 1) {                                                                          \
                if ((f)->moves.diagonal == TN_DIAGONAL_NEVER)                                      \
                    continue;                                                                      \
                bool a_ = (f)->pass[(size_t)(y) * (size_t)(f)->w + (size_t)ux_] != 0;              \
                bool b_ = (f)->pass[(size_t)uy_ * (size_t)(f)->w + (size_t)(x)] != 0;              \
                if (!diag_rule_ok((f)->moves.diagonal, a_, b_))                                    \
                    continue;                                                                      \
                nd = dv_ + d_;                                                                     \
            } else {                                                                               \
                nd = dv_ + s_;                                                                     \
            }                                                                                      \
            if (nd < (f)->dist[u]) {                                                               \
                BODY                                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Smallest and largest step cost over passable cells. */
static void step_range(const tn_field *f, float *lo, float *hi)
{
    bool diag = f->moves.diagonal != TN_DIAGONAL_NEVER;
    float mn = INFINITY, mx = 0.0f;
    if (!f->extra && tn_map_uniform_cost(f->map)) {
        mn = f->bs;
        mx = diag ? f->bd : f->bs;
    } else {
        for (size_t i = 0; i < f->n; i++) {
            if (!f->pass[i])
                continue;
            float s = step_cost(f, i, false), d = diag ? step_cost(f, i, true) : s;
            if (s < mn)
                mn = s;
            if (d > mx)
                mx = d;
        }
    }
    *lo = mn;
    *hi = mx;
}

/* Bucket queue (Dial with float keys): bucket width 0.9 x the smallest step cost, so a cell
 * settled from bucket k can never be improved by a cell of bucket >= k, and within a bucket the
 * order does not matter. A ring of buckets, each a plain array of packed (y << 16 | x) entries;
 * a cell improved again leaves a stale entry behind, skipped through the settled mark. */
static tn_status bucket_push(tn_field *f, tn_bucket *b, uint32_t e)
{
    if (b->n == b->cap) {
        tn_status st = tn__grow(&f->alloc, (void **)&b->e, sizeof(uint32_t), &b->cap, b->n + 1);
        if (st != TN_OK)
            return st;
    }
    b->e[b->n++] = e;
    return TN_OK;
}

/* Uniform terrain, no extra layer, 8-connected: every step costs one of two constants, so two
 * FIFO queues (cells reached by a straight step, by a diagonal step) are each sorted by the key
 * they were pushed with, and popping the head with the smaller current distance is a valid
 * Dijkstra order (a head's current distance is at most its push key, which bounds every
 * entry behind it). A cell enters each queue at most once: qa and qb are the queues. */
static void integrate_two_queues(tn_field *f)
{
    const int32_t w = f->w, h = f->h;
    const size_t sw = (size_t)w;
    const uint8_t *pass = f->pass;
    float *dist = f->dist;
    uint8_t *bits = f->bits;
    const tn_diagonal rule = f->moves.diagonal;
    const bool simple = f->los == TN_LOS_SIMPLE;
    const float bs = f->bs, bd = f->bd;
    uint32_t *qs = (uint32_t *)f->qa, *qd = (uint32_t *)f->qb;
    size_t hs = 0, ts = 0, hd = 0, td = 0;
    const ptrdiff_t off[8] = {1,  (ptrdiff_t)sw + 1,  (ptrdiff_t)sw,  (ptrdiff_t)sw - 1,
                              -1, -(ptrdiff_t)sw - 1, -(ptrdiff_t)sw, -(ptrdiff_t)sw + 1};
    for (int32_t k = 0; k < f->ngoals; k++) {
        tn_cell g = f->goals[k];
        size_t i = (size_t)g.y * sw + (size_t)g.x;
        if (dist[i] == 0.0f)
            continue;
        dist[i] = 0.0f;
        qs[ts++] = (uint32_t)g.y << 16 | (uint32_t)g.x;
    }
    int32_t reach = 0;
    for (;;) {
        /* drop settled heads, then take the head with the smaller current distance */
        while (hs < ts && (bits[(size_t)(qs[hs] >> 16) * sw + (qs[hs] & 0xffffu)] & TN_F_MARK))
            hs++;
        while (hd < td && (bits[(size_t)(qd[hd] >> 16) * sw + (qd[hd] & 0xffffu)] & TN_F_MARK))
            hd++;
        uint32_t e;
        if (hs < ts && hd < td) {
            float a = dist[(size_t)(qs[hs] >> 16) * sw + (qs[hs] & 0xffffu)];
            float b = dist[(size_t)(qd[hd] >> 16) * sw + (qd[hd] & 0xffffu)];
            e = a <= b ? qs[hs++] : qd[hd++];
        } else if (hs < ts) {
            e = qs[hs++];
        } else if (hd < td) {
            e = qd[hd++];
        } else {
            break;
        }
        int32_t x = (int32_t)(e & 0xffffu), y = (int32_t)(e >> 16);
        size_t v = (size_t)y * sw + (size_t)x;
        bits[v] |= TN_F_MARK;
        reach++;
        if (simple && dist[v] != 0.0f)
            simple_los(f, x, y);
        const float ns = dist[v] + bs, nd = dist[v] + bd;
        const bool inner = x > 0 && y > 0 && x < w - 1 && y < h - 1;
        for (int k = 0; k < 8; k++) {
            if (!inner && !in_map(f, x + DX[k], y + DY[k]))
                continue;
            size_t u = (size_t)((ptrdiff_t)v + off[k]);
            if (k & 1) {
                if (!(nd < dist[u]) || !pass[u] || rule == TN_DIAGONAL_NEVER)
                    continue;
                bool a = pass[(size_t)((ptrdiff_t)v + DX[k])] != 0;
                bool c = pass[(size_t)((ptrdiff_t)v + DY[k] * (ptrdiff_t)sw)] != 0;
                if (diag_rule_ok(rule, a, c)) {
                    dist[u] = nd;
                    qd[td++] = e + POFF[k];
                }
            } else if (ns < dist[u] && pass[u]) {
                dist[u] = ns;
                qs[ts++] = e + POFF[k];
            }
        }
    }
    f->reachable = reach;
}

static tn_status integrate_heap(tn_field *f);

static tn_status integrate_buckets(tn_field *f, float lo, float hi)
{
    double width = 0.9 * (double)lo;
    double nbd = ceil((double)hi / width) + 2.0;
    if (!(width > 0.0) || nbd > TN_MAX_BUCKETS)
        return integrate_heap(f);
    size_t nb = (size_t)nbd;
    if (f->bk_cap < nb) {
        size_t old = f->bk_cap;
        tn_status st = tn__grow(&f->alloc, (void **)&f->bk, sizeof(tn_bucket), &f->bk_cap, nb);
        if (st != TN_OK)
            return st;
        memset(f->bk + old, 0, (f->bk_cap - old) * sizeof(tn_bucket));
    }
    for (size_t s = 0; s < nb; s++)
        f->bk[s].n = 0;
    const double inv = 1.0 / width;
    const bool simple = f->los == TN_LOS_SIMPLE;
    const int32_t w = f->w, h = f->h;
    const size_t sw = (size_t)w;
    const uint8_t *pass = f->pass;
    float *dist = f->dist;
    uint8_t *bits = f->bits;
    const tn_diagonal rule = f->moves.diagonal;
    const ptrdiff_t off[8] = {1,  (ptrdiff_t)sw + 1,  (ptrdiff_t)sw,  (ptrdiff_t)sw - 1,
                              -1, -(ptrdiff_t)sw - 1, -(ptrdiff_t)sw, -(ptrdiff_t)sw + 1};
    size_t pending = 0;
    tn_status st = TN_OK;
    for (int32_t k = 0; k < f->ngoals && st == TN_OK; k++) {
        tn_cell g = f->goals[k];
        dist[(size_t)g.y * sw + (size_t)g.x] = 0.0f;
        st = bucket_push(f, &f->bk[0], (uint32_t)g.y << 16 | (uint32_t)g.x);
        pending += st == TN_OK;
    }
    int32_t reach = 0;
    for (uint64_t kb = 0; pending > 0 && st == TN_OK; kb++) {
        tn_bucket *b = &f->bk[kb % nb];
        for (size_t t = 0; t < b->n && st == TN_OK; t++) {
            uint32_t e = b->e[t];
            int32_t x = (int32_t)(e & 0xffffu), y = (int32_t)(e >> 16);
            size_t v = (size_t)y * sw + (size_t)x;
            if (bits[v] & TN_F_MARK)
                continue;
            bits[v] |= TN_F_MARK;
            reach++;
            if (simple && dist[v] != 0.0f)
                simple_los(f, x, y);
            const float sc = step_cost(f, v, false);
            const float dc = rule == TN_DIAGONAL_NEVER ? 0.0f : step_cost(f, v, true);
            const float dv = dist[v];
            const bool inner = x > 0 && y > 0 && x < w - 1 && y < h - 1;
            for (int k = 0; k < 8; k++) {
                if ((k & 1) && rule == TN_DIAGONAL_NEVER)
                    continue;
                if (!inner && !in_map(f, x + DX[k], y + DY[k]))
                    continue;
                size_t u = (size_t)((ptrdiff_t)v + off[k]);
                if (!pass[u])
                    continue;
                float nd;
                if (k & 1) {
                    bool a = pass[(size_t)((ptrdiff_t)v + DX[k])] != 0;
                    bool c = pass[(size_t)((ptrdiff_t)v + DY[k] * (ptrdiff_t)sw)] != 0;
                    if (!diag_rule_ok(rule, a, c))
                        continue;
                    nd = dv + dc;
                } else {
                    nd = dv + sc;
                }
                if (nd < dist[u]) {
                    dist[u] = nd;
                    uint64_t bi = (uint64_t)((double)nd * inv);
                    TN_ASSERT(bi > kb && bi < kb + nb);
                    /* a failed push ends the build with its status: a later push that
                     * succeeds must not overwrite it (the count of pending entries would
                     * never reach 0, and the error be lost) */
                    st = bucket_push(f, &f->bk[bi % nb], e + POFF[k]);
                    if (st != TN_OK)
                        break;
                    pending++;
                }
            }
        }
        pending -= b->n;
        b->n = 0;
    }
    f->reachable = reach;
    return st;
}

static tn_status integrate_heap(tn_field *f)
{
    heap hp = heap_init(f);
    const bool simple = f->los == TN_LOS_SIMPLE;
    for (int32_t k = 0; k < f->ngoals; k++) {
        tn_cell g = f->goals[k];
        int32_t i = g.y * f->w + g.x;
        f->dist[i] = 0.0f;
        heap_push(&hp, i);
    }
    int32_t reach = 0;
    while (hp.n > 0) {
        int32_t v = heap_pop(&hp);
        reach++;
        int32_t y = v / f->w, x = v - y * f->w;
        if (simple && f->dist[v] != 0.0f)
            simple_los(f, x, y);
        FOR_PREDECESSORS(f, x, y, (size_t)v, {
            f->dist[u] = nd;
            heap_push(&hp, (int32_t)u);
        });
    }
    f->reachable = reach;
    return TN_OK;
}

/* ---- flow -------------------------------------------------------------------------------- */

/* Direction byte (without LOS/GOAL flags) of one cell from the distances. A cell points only at
 * a neighbour of a smaller distance, so that following directions always ends, at a goal or at
 * a cell with none. With exact sums the best neighbour always is smaller (its distance plus a
 * positive step is this cell's); in float sums it may not be, once a step is below half a unit
 * in the last place of the distances (costs 2^24 times apart, or a uniform path past 2^24
 * steps): two cells of equal distance would then point at each other. */
static uint8_t flow_cell(const tn_field *f, int32_t x, int32_t y)
{
    size_t w = (size_t)f->w, i = (size_t)y * w + (size_t)x;
    float di = f->dist[i];
    if (di == INFINITY || di == 0.0f)
        return 0;
    int best = -1;
    float bv = INFINITY, bd = INFINITY;
    if (f->flow == TN_FLOW_OPTIMAL) {
        for (int k = 0; k < 8; k++) {
            if (!step_ok(f, x, y, k))
                continue;
            size_t n = (size_t)(y + DY[k]) * w + (size_t)(x + DX[k]);
            float dn = f->dist[n];
            if (!(dn < di))
                continue;
            float v = dn + step_cost(f, n, (k & 1) != 0);
            if (v < bv || (v == bv && dn < bd)) {
                bv = v;
                bd = dn;
                best = k;
            }
        }
    } else {
        tn_diagonal corner = tn__los_corner(f->moves.diagonal);
        bv = di; /* the least distance below this cell's */
        for (int k = 0; k < 8; k++) {
            int32_t nx = x + DX[k], ny = y + DY[k];
            if (!in_map(f, nx, ny))
                continue;
            size_t n = (size_t)ny * w + (size_t)nx;
            float dn = f->dist[n];
            if (!(dn < bv))
                continue;
            if (k & 1) {
                bool a = f->pass[(size_t)y * w + (size_t)nx] != 0;
                bool b = f->pass[(size_t)ny * w + (size_t)x] != 0;
                if (!diag_rule_ok(corner, a, b))
                    continue;
            }
            bv = dn;
            best = k;
        }
    }
    return best < 0 ? 0 : (uint8_t)(TN_F_HAS_DIR | (unsigned)best);
}

/* Fast interior pass of TN_FLOW_STEEPEST with "no corner cutting" on rows 1..h-2: a reachable
 * cell's 4-neighbour is passable exactly when its distance is finite, so the corner rule needs
 * distances only. */
static void flow_rows_steepest_nocut(tn_field *f, int32_t y)
{
    const size_t w = (size_t)f->w;
    const float *restrict d = f->dist + (size_t)y * w;
    const float *restrict up = d - w;
    const float *restrict dn = d + w;
    uint8_t *restrict bits = f->bits + (size_t)y * w;
    const int32_t xe = f->w - 1;
    /* branch-free: candidates in direction order, a diagonal replaced by INFINITY when a side is
     * blocked, strict "<" keeps the first minimum */
    for (int32_t x = 1; x < xe; x++) {
        const int32_t di = fbits(d + x);
        const int32_t e = fbits(d + x + 1), s = fbits(dn + x), wv = fbits(d + x - 1),
                      nn = fbits(up + x);
        const int32_t se = fbits(dn + x + 1), sw = fbits(dn + x - 1), nw = fbits(up + x - 1),
                      ne = fbits(up + x + 1);
        const int32_t fe = e != TN_INF_BITS, fs = s != TN_INF_BITS, fw = wv != TN_INF_BITS,
                      fn = nn != TN_INF_BITS;
        const int32_t c1 = (fe & fs) ? se : TN_INF_BITS;
        const int32_t c3 = (fs & fw) ? sw : TN_INF_BITS;
        const int32_t c5 = (fw & fn) ? nw : TN_INF_BITS;
        const int32_t c7 = (fn & fe) ? ne : TN_INF_BITS;
        int32_t bv = e, best = 0;
        best = c1 < bv ? 1 : best;
        bv = c1 < bv ? c1 : bv;
        best = s < bv ? 2 : best;
        bv = s < bv ? s : bv;
        best = c3 < bv ? 3 : best;
        bv = c3 < bv ? c3 : bv;
        best = wv < bv ? 4 : best;
        bv = wv < bv ? wv : bv;
        best = c5 < bv ? 5 : best;
        bv = c5 < bv ? c5 : bv;
        best = nn < bv ? 6 : best;
        bv = nn < bv ? nn : bv;
        best = c7 < bv ? 7 : best;
        bv = c7 < bv ? c7 : bv;
        const int32_t keep = bits[x] & (TN_F_LOS | TN_F_GOAL);
        /* bv >= di: no neighbour below this cell (flow_cell); the bits of floats >= 0 order
         * as the floats */
        const int32_t none = (di == TN_INF_BITS) | (di == 0) | (bv >= di);
        bits[x] = (uint8_t)(none ? keep : (keep | (int32_t)TN_F_HAS_DIR | best));
    }
}

static void flow_set(tn_field *f, int32_t x, int32_t y)
{
    size_t i = (size_t)y * (size_t)f->w + (size_t)x;
    f->bits[i] = (uint8_t)((f->bits[i] & (TN_F_LOS | TN_F_GOAL | TN_F_MARK)) | flow_cell(f, x, y));
}

/* Fast interior pass of TN_FLOW_OPTIMAL on row y (1..h-2), same choice as flow_cell(). */
static void flow_row_optimal(tn_field *f, int32_t y)
{
    const size_t w = (size_t)f->w;
    const ptrdiff_t sw = (ptrdiff_t)w;
    const ptrdiff_t off[8] = {1, sw + 1, sw, sw - 1, -1, -sw - 1, -sw, -sw + 1};
    const tn_diagonal rule = f->moves.diagonal;
    const float *d = f->dist;
    const bool uni = f->uniform;
    for (int32_t x = 1; x < f->w - 1; x++) {
        size_t i = (size_t)y * w + (size_t)x;
        float di = d[i];
        uint8_t keep = f->bits[i] & (TN_F_LOS | TN_F_GOAL);
        if (di == INFINITY || di == 0.0f) {
            f->bits[i] = keep;
            continue;
        }
        int best = -1;
        float bv = INFINITY, bd = INFINITY;
        for (int k = 0; k < 8; k++) {
            size_t n = (size_t)((ptrdiff_t)i + off[k]);
            float dn = d[n];
            if (!(dn < di)) /* flow_cell: only a smaller neighbour */
                continue;
            float v;
            if (k & 1) {
                if (rule == TN_DIAGONAL_NEVER)
                    continue;
                bool a = d[(size_t)((ptrdiff_t)i + DX[k])] != INFINITY;
                bool c = d[(size_t)((ptrdiff_t)i + DY[k] * sw)] != INFINITY;
                if (!diag_rule_ok(rule, a, c))
                    continue;
                v = dn + (uni ? f->bd : step_cost(f, n, true));
            } else {
                v = dn + (uni ? f->bs : step_cost(f, n, false));
            }
            if (v < bv || (v == bv && dn < bd)) {
                bv = v;
                bd = dn;
                best = k;
            }
        }
        f->bits[i] = (uint8_t)(keep | (best < 0 ? 0u : (TN_F_HAS_DIR | (unsigned)best)));
    }
}

/* TN_FLOW_OPTIMAL on row y (1..h-2) with uniform step costs, unrolled and branch-free (integer
 * compares of the float bits, see fbits) so that it vectorises; same choice as flow_cell(). A
 * candidate that is not finite never wins (INFINITY + c is never below the best). */
static void flow_row_optimal_uniform(tn_field *f, int32_t y)
{
    const size_t w = (size_t)f->w;
    const float *restrict d = f->dist + (size_t)y * w;
    const float *restrict up = d - w;
    const float *restrict dn = d + w;
    uint8_t *restrict bits = f->bits + (size_t)y * w;
    const tn_diagonal rule = f->moves.diagonal;
    /* the corner rule as bit masks: no-cut = both sides, one = either side, always = 1 */
    const int32_t m_and = rule == TN_DIAGONAL_NO_CUT, m_or = rule == TN_DIAGONAL_ONE,
                  m_all = rule == TN_DIAGONAL_ALWAYS;
    const float bs = f->bs, bdg = f->bd;
    const int32_t xe = f->w - 1;
    int32_t redo = 0; /* some cell's best neighbour is not below it: see flow_cell */
    for (int32_t x = 1; x < xe; x++) {
        const int32_t di = fbits(d + x);
        const float e = d[x + 1], s = dn[x], wv = d[x - 1], nn = up[x];
        const float se = dn[x + 1], sw = dn[x - 1], nw = up[x - 1], ne = up[x + 1];
        const int32_t ie = fbits(d + x + 1), is = fbits(dn + x), iw = fbits(d + x - 1),
                      in = fbits(up + x);
        const int32_t fe = ie != TN_INF_BITS, fs = is != TN_INF_BITS, fw = iw != TN_INF_BITS,
                      fn = in != TN_INF_BITS;
        /* corner rule per diagonal from the two sides' states */
#define TN_OK(a, b) ((((a) & (b)) & m_and) | (((a) | (b)) & m_or) | m_all)
        const int32_t o1 = TN_OK(fe, fs), o3 = TN_OK(fs, fw), o5 = TN_OK(fw, fn),
                      o7 = TN_OK(fn, fe);
#undef TN_OK
        /* candidate values (dist + step) and distances, as integer bits */
        float v0f = e + bs, v1f = se + bdg, v2f = s + bs, v3f = sw + bdg;
        float v4f = wv + bs, v5f = nw + bdg, v6f = nn + bs, v7f = ne + bdg;
        int32_t v0 = fbits(&v0f), v1 = o1 ? fbits(&v1f) : TN_INF_BITS, v2 = fbits(&v2f),
                v3 = o3 ? fbits(&v3f) : TN_INF_BITS, v4 = fbits(&v4f),
                v5 = o5 ? fbits(&v5f) : TN_INF_BITS, v6 = fbits(&v6f),
                v7 = o7 ? fbits(&v7f) : TN_INF_BITS;
        int32_t d1 = fbits(dn + x + 1), d3 = fbits(dn + x - 1), d5 = fbits(up + x - 1),
                d7 = fbits(up + x + 1);
        int32_t bv = v0, bd = ie, best = 0;
#define TN_TRY(k, v, dd)                                                                           \
    do {                                                                                           \
        int32_t take_ = ((v) < bv) | (((v) == bv) & ((dd) < bd));                                  \
        best = take_ ? (k) : best;                                                                 \
        bv = take_ ? (v) : bv;                                                                     \
        bd = take_ ? (dd) : bd;                                                                    \
    } while (0)
        TN_TRY(1, v1, d1);
        TN_TRY(2, v2, is);
        TN_TRY(3, v3, d3);
        TN_TRY(4, v4, iw);
        TN_TRY(5, v5, d5);
        TN_TRY(6, v6, in);
        TN_TRY(7, v7, d7);
#undef TN_TRY
        const int32_t keep = bits[x] & (TN_F_LOS | TN_F_GOAL);
        const int32_t none = (di == TN_INF_BITS) | (di == 0) | (bv == TN_INF_BITS);
        redo |= !none & (bd >= di);
        bits[x] = (uint8_t)(none ? keep : (keep | (int32_t)TN_F_HAS_DIR | best));
    }
    if (redo) /* only past float precision (paths past 2^24 steps): the rule of flow_cell */
        for (int32_t x = 1; x < xe; x++)
            bits[x] = (uint8_t)((bits[x] & (TN_F_LOS | TN_F_GOAL)) | flow_cell(f, x, y));
}

typedef struct flow_job {
    tn_field *f;
    bool marks;
} flow_job;

/* Flow of rows [y0, y1). Rows only write their own bytes and read distances. */
static void flow_rows(void *ctx, int32_t y0, int32_t y1)
{
    const flow_job *job = ctx;
    tn_field *f = job->f;
    const size_t w = (size_t)f->w;
    bool big = f->w >= 3 && f->h >= 3;
    bool steep = f->flow == TN_FLOW_STEEPEST;
    bool steep_fast = steep && tn__los_corner(f->moves.diagonal) == TN_DIAGONAL_NO_CUT;
    for (int32_t y = y0; y < y1; y++) {
        if (job->marks)
            for (size_t x = 0; x < w; x++)
                f->bits[(size_t)y * w + x] &= (uint8_t)~TN_F_MARK;
        if (big && y > 0 && y < f->h - 1 && (steep_fast || !steep)) {
            if (steep_fast)
                flow_rows_steepest_nocut(f, y);
            else if (f->uniform)
                flow_row_optimal_uniform(f, y);
            else
                flow_row_optimal(f, y);
            flow_set(f, 0, y);
            flow_set(f, f->w - 1, y);
            continue;
        }
        for (int32_t x = 0; x < f->w; x++)
            flow_set(f, x, y);
    }
}

static void flow_all(tn_field *f, bool marks)
{
    flow_job job = {f, marks};
    if (f->parallel_for)
        f->parallel_for(flow_rows, &job, f->h, f->parallel_user);
    else
        flow_rows(&job, 0, f->h);
}

/* ---- build ------------------------------------------------------------------------------- */

static tn_status check_extra(const tn_field *f, tn_rect r)
{
    if (!f->extra)
        return TN_OK;
    for (int32_t y = r.y0; y < r.y1; y++)
        for (int32_t x = r.x0; x < r.x1; x++) {
            float e = f->extra[(size_t)y * (size_t)f->w + (size_t)x];
            if (!(e >= 0.0f && e <= TN_MAX_COST))
                return TN_E_INVALID_ARG;
        }
    return TN_OK;
}

static void refresh_map(tn_field *f)
{
    tn__grid g;
    tn__map_grid(f->map, &g);
    f->pass = g.pass;
    f->cost = g.cost;
    bool k1014 = f->moves.costs == TN_COSTS_10_14;
    f->bs = k1014 ? 10.0f : 1.0f;
    f->bd = k1014 ? 14.0f : (float)TN_SQRT2;
    f->uniform = !f->extra && g.uniform;
}

static tn_status build_all(tn_field *f)
{
    refresh_map(f);
    f->stamp = 0; /* the sweeps below overwrite qb, so the wall-off stamps restart */
    f->ready = false;
    tn_status st = check_extra(f, (tn_rect){0, 0, f->w, f->h});
    if (st != TN_OK)
        return st;
    for (int32_t k = 0; k < f->ngoals; k++)
        if (!f->pass[(size_t)f->goals[k].y * (size_t)f->w + (size_t)f->goals[k].x])
            return TN_E_GOAL_BLOCKED;
    bool bfs = f->uniform && f->moves.diagonal == TN_DIAGONAL_NEVER;
    if (!bfs)
        for (size_t i = 0; i < f->n; i++)
            f->dist[i] = INFINITY;
    memset(f->bits, 0, f->n);
    for (int32_t k = 0; k < f->ngoals; k++)
        f->bits[(size_t)f->goals[k].y * (size_t)f->w + (size_t)f->goals[k].x] |= TN_F_GOAL;
    if (f->los == TN_LOS_SIMPLE)
        f->bits[(size_t)f->goals[0].y * (size_t)f->w + (size_t)f->goals[0].x] |= TN_F_LOS;
    if (bfs) {
        integrate_bfs(f);
    } else if (f->uniform) {
        integrate_two_queues(f);
    } else {
        float lo, hi;
        step_range(f, &lo, &hi);
        st = integrate_buckets(f, lo, hi);
        if (st != TN_OK)
            return st;
    }
    if (f->los == TN_LOS_EXACT) {
        st = tn__field_los_full(f);
        if (st != TN_OK)
            return st;
    } else if (f->los == TN_LOS_SIMPLE) {
        int32_t c = 0;
        for (size_t i = 0; i < f->n; i++)
            c += (f->bits[i] & TN_F_LOS) != 0;
        f->los_count = c;
    } else {
        f->los_count = 0;
    }
    flow_all(f, !bfs);
    f->revision = tn_map_revision(f->map);
    f->ready = true;
    return TN_OK;
}

tn_status tn_field_build(tn_field *f, const tn_cell *goals, int32_t count)
{
    if (!f || !goals || count < 1 || (size_t)count > f->n * 8u)
        return TN_E_INVALID_ARG;
    for (int32_t k = 0; k < count; k++)
        if (!in_map(f, goals[k].x, goals[k].y))
            return TN_E_OUT_OF_MAP;
    if (tn__map_view_behind(f->map))
        return TN_E_MAP_CHANGED;
    if (f->los != TN_LOS_OFF && count > 1) {
        for (int32_t k = 1; k < count; k++)
            if (goals[k].x != goals[0].x || goals[k].y != goals[0].y)
                return TN_E_UNSUPPORTED;
    }
    f->ready = false;
    tn_status st =
        tn__grow(&f->alloc, (void **)&f->goals, sizeof(tn_cell), &f->goals_cap, (size_t)count);
    if (st != TN_OK)
        return st;
    memcpy(f->goals, goals, (size_t)count * sizeof(tn_cell));
    f->ngoals = count;
    return build_all(f);
}

/* ---- readers ----------------------------------------------------------------------------- */

int32_t tn_field_width(const tn_field *f)
{
    return f ? f->w : 0;
}

int32_t tn_field_height(const tn_field *f)
{
    return f ? f->h : 0;
}

bool tn_field_ready(const tn_field *f)
{
    return f && f->ready;
}

const float *tn_field_distances(const tn_field *f)
{
    return f ? f->dist : NULL;
}

float tn_field_distance(const tn_field *f, int32_t x, int32_t y)
{
    if (!f || !f->ready || !in_map(f, x, y))
        return INFINITY;
    return f->dist[(size_t)y * (size_t)f->w + (size_t)x];
}

int32_t tn_field_dir(const tn_field *f, int32_t x, int32_t y)
{
    if (!f || !f->ready || !in_map(f, x, y))
        return TN_DIR_NONE;
    uint8_t b = f->bits[(size_t)y * (size_t)f->w + (size_t)x];
    return (b & TN_F_HAS_DIR) ? (int32_t)(b & TN_F_DIR_MASK) : TN_DIR_NONE;
}

bool tn_field_los(const tn_field *f, int32_t x, int32_t y)
{
    if (!f || !f->ready || !in_map(f, x, y))
        return false;
    return (f->bits[(size_t)y * (size_t)f->w + (size_t)x] & TN_F_LOS) != 0;
}

int32_t tn_field_reachable_count(const tn_field *f)
{
    return f && f->ready ? f->reachable : 0;
}

int32_t tn_field_los_count(const tn_field *f)
{
    return f && f->ready ? f->los_count : 0;
}

static tn_vec2 unit(float x, float y)
{
    float l = sqrtf(x * x + y * y);
    if (!(l > 0.0f))
        return (tn_vec2){0.0f, 0.0f};
    return (tn_vec2){x / l, y / l};
}

tn_vec2 tn_field_vector(const tn_field *f, int32_t x, int32_t y)
{
    if (!f || !f->ready || !in_map(f, x, y))
        return (tn_vec2){0.0f, 0.0f};
    uint8_t b = f->bits[(size_t)y * (size_t)f->w + (size_t)x];
    if (!(b & TN_F_HAS_DIR))
        return (tn_vec2){0.0f, 0.0f};
    if (b & TN_F_LOS)
        return unit((float)(f->goals[0].x - x), (float)(f->goals[0].y - y));
    int k = b & TN_F_DIR_MASK;
    return unit((float)DX[k], (float)DY[k]);
}

/* ---- sampler ----------------------------------------------------------------------------- */

static bool passable_at(const tn_field *f, int32_t x, int32_t y)
{
    return in_map(f, x, y) && f->pass[(size_t)y * (size_t)f->w + (size_t)x];
}

/* Zero the components of v that point into a blocked orthogonal neighbour of (cx, cy), and
 * the smaller one when v points into a blocked diagonal neighbour. */
static tn_vec2 clamp_walls(const tn_field *f, int32_t cx, int32_t cy, tn_vec2 v)
{
    int32_t sx = (v.x > 0.0f) - (v.x < 0.0f), sy = (v.y > 0.0f) - (v.y < 0.0f);
    if (sx && !passable_at(f, cx + sx, cy)) {
        v.x = 0.0f;
        sx = 0;
    }
    if (sy && !passable_at(f, cx, cy + sy)) {
        v.y = 0.0f;
        sy = 0;
    }
    if (sx && sy && !passable_at(f, cx + sx, cy + sy)) {
        if (fabsf(v.x) >= fabsf(v.y))
            v.y = 0.0f;
        else
            v.x = 0.0f;
    }
    return v;
}

tn_vec2 tn_field_sample(const tn_field *f, float px, float py)
{
    const tn_vec2 zero = {0.0f, 0.0f};
    if (!f || !f->ready || !isfinite(px) || !isfinite(py))
        return zero;
    float tw = (float)tn_map_tile_width(f->map), th = (float)tn_map_tile_height(f->map);
    float cxf = floorf(px / tw), cyf = floorf(py / th);
    if (cxf < 0.0f || cyf < 0.0f || cxf >= (float)f->w || cyf >= (float)f->h)
        return zero;
    int32_t cx = (int32_t)cxf, cy = (int32_t)cyf;
    size_t ci = (size_t)cy * (size_t)f->w + (size_t)cx;
    if (f->dist[ci] == INFINITY)
        return zero;
    if (f->bits[ci] & TN_F_GOAL) {
        tn_vec2 c = tn_map_cell_center_px(f->map, cx, cy);
        return unit(c.x - px, c.y - py);
    }
    /* cell centres at integer coordinates */
    float u = px / tw - 0.5f, v = py / th - 0.5f;
    float x0f = floorf(u), y0f = floorf(v);
    float fx = u - x0f, fy = v - y0f;
    int32_t x0 = (int32_t)x0f, y0 = (int32_t)y0f;
    tn_vec2 a = tn_field_vector(f, x0, y0), b = tn_field_vector(f, x0 + 1, y0);
    tn_vec2 c = tn_field_vector(f, x0, y0 + 1), d = tn_field_vector(f, x0 + 1, y0 + 1);
    float top_x = a.x * (1.0f - fx) + b.x * fx, top_y = a.y * (1.0f - fx) + b.y * fx;
    float bot_x = c.x * (1.0f - fx) + d.x * fx, bot_y = c.y * (1.0f - fx) + d.y * fx;
    tn_vec2 r = {top_x * (1.0f - fy) + bot_x * fy, top_y * (1.0f - fy) + bot_y * fy};
    r = clamp_walls(f, cx, cy, unit(r.x, r.y));
    if (r.x == 0.0f && r.y == 0.0f) {
        r = clamp_walls(f, cx, cy, tn_field_vector(f, cx, cy));
        if (r.x == 0.0f && r.y == 0.0f) {
            int32_t k = tn_field_dir(f, cx, cy);
            return k < 0 ? zero : unit((float)DX[k], (float)DY[k]);
        }
    }
    return unit(r.x, r.y);
}

/* ---- paths ------------------------------------------------------------------------------- */

/* The map was edited since the last build or update (for a size map: its source map too, as
 * long as its clearance has not been updated): readers that must not answer for the old map
 * refuse. */
static bool field_stale(const tn_field *f)
{
    return tn_map_revision(f->map) != f->revision || tn__map_view_behind(f->map);
}

tn_status tn_field_path(const tn_field *f, tn_cell start, tn_cell *out, int32_t cap, int32_t *len,
                        double *cost)
{
    if (!f || !len || cap < 0 || (cap > 0 && !out))
        return TN_E_INVALID_ARG;
    *len = 0;
    if (cost)
        *cost = 0.0;
    if (!f->ready)
        return TN_E_STATE;
    if (field_stale(f))
        return TN_E_MAP_CHANGED;
    if (!in_map(f, start.x, start.y))
        return TN_E_OUT_OF_MAP;
    if (f->dist[(size_t)start.y * (size_t)f->w + (size_t)start.x] == INFINITY)
        return TN_NO_PATH;
    int32_t n = 0;
    double c = 0.0;
    tn_cell at = start;
    for (;;) {
        if (n < cap)
            out[n] = at;
        n++;
        size_t i = (size_t)at.y * (size_t)f->w + (size_t)at.x;
        uint8_t b = f->bits[i];
        if (b & TN_F_GOAL)
            break;
        /* no direction short of a goal: only past float precision (flow_cell), where the
         * directions stop on a plateau of equal distances instead of circling on it; they
         * strictly decrease, so the walk ends within the map's cells */
        if (!(b & TN_F_HAS_DIR) || (size_t)n > f->n) {
            *len = 0;
            return TN_NO_PATH;
        }
        int k = b & TN_F_DIR_MASK;
        at.x += DX[k];
        at.y += DY[k];
        size_t j = (size_t)at.y * (size_t)f->w + (size_t)at.x;
        double base = (k & 1) ? (f->moves.costs == TN_COSTS_10_14 ? 14.0 : TN_SQRT2)
                              : (f->moves.costs == TN_COSTS_10_14 ? 10.0 : 1.0);
        c += base * (double)f->cost[j] + (f->extra ? (double)f->extra[j] : 0.0);
    }
    *len = n;
    if (cost)
        *cost = c;
    return n > cap ? TN_E_BUFFER_TOO_SMALL : TN_OK;
}

/* ---- incremental update ------------------------------------------------------------------ */

/* A repair gives up for a full build once it has touched more than 1/32 of the map's cells
 * (and at least 1,024, so that small maps, where either costs microseconds, keep their local
 * repairs): a repair costs about 40 times more per cell than a build (heap order, support
 * checks, the directions of each cell's 3 x 3), so past that a build is cheaper (8 towers on
 * AR0011SR that cut corridors: 51,704 cells repaired in 28 ms against a 3.5 ms build). */
#define REPAIR_GIVE_UP TN_E_TOO_LARGE
#define REPAIR_MIN_BUDGET 1024u

static tn_status touch(tn_field *f, size_t *nt, int32_t c)
{
    if (*nt > f->n / 32 && *nt > REPAIR_MIN_BUDGET)
        return REPAIR_GIVE_UP;
    if (*nt == f->touched_cap) {
        tn_status st =
            tn__grow(&f->alloc, (void **)&f->touched, sizeof(int32_t), &f->touched_cap, *nt + 1);
        if (st != TN_OK)
            return st;
    }
    f->touched[(*nt)++] = c;
    f->bits[c] |= TN_F_MARK;
    if (f->dist[c] != INFINITY)
        f->reachable--;
    return TN_OK;
}

/* Does cell p (not marked) keep a cheapest step into an unmarked cell? */
static bool has_support(const tn_field *f, int32_t p)
{
    int32_t y = p / f->w, x = p - y * f->w;
    float dp = f->dist[p];
    for (int k = 0; k < 8; k++) {
        if (!step_ok(f, x, y, k))
            continue;
        size_t v = (size_t)(y + DY[k]) * (size_t)f->w + (size_t)(x + DX[k]);
        if ((f->bits[v] & TN_F_MARK) || f->dist[v] == INFINITY)
            continue;
        if (f->dist[v] + step_cost(f, v, (k & 1) != 0) == dp)
            return true;
    }
    return false;
}

static tn_rect rect_clip(const tn_field *f, tn_rect r)
{
    if (r.x0 < 0)
        r.x0 = 0;
    if (r.y0 < 0)
        r.y0 = 0;
    if (r.x1 > f->w)
        r.x1 = f->w;
    if (r.y1 > f->h)
        r.y1 = f->h;
    if (r.x0 >= r.x1 || r.y0 >= r.y1)
        r = (tn_rect){0, 0, 0, 0};
    return r;
}

/* Repair the field after changes inside `rects` (each already grown by one cell and clipped;
 * they may overlap): the cells there, and everything whose distance depended on them. */
static tn_status update_region(tn_field *f, const tn_rect *rects, int32_t nr, int32_t *out_touched)
{
    size_t nt = 0;
    tn_status st = TN_OK;
    heap hp = {f->qa, f->qb, f->dist, 0};
    /* 1. the cells near the changes, then everything that loses its support through them */
    for (int32_t k = 0; k < nr; k++) {
        const tn_rect g = rects[k];
        for (int32_t y = g.y0; y < g.y1 && st == TN_OK; y++)
            for (int32_t x = g.x0; x < g.x1 && st == TN_OK; x++)
                if (!(f->bits[(size_t)y * (size_t)f->w + (size_t)x] & TN_F_MARK))
                    st = touch(f, &nt, y * f->w + x);
    }
    for (size_t t = 0; t < nt && st == TN_OK; t++) {
        int32_t c = f->touched[t];
        int32_t y = c / f->w, x = c - y * f->w;
        for (int k = 0; k < 8; k++) {
            int32_t px = x + DX[k], py = y + DY[k];
            if (!in_map(f, px, py))
                continue;
            int32_t p = py * f->w + px;
            if (!(f->bits[p] & TN_F_MARK) && f->dist[p] != INFINITY && f->dist[p] != 0.0f)
                heap_push(&hp, p);
        }
    }
    size_t seeded = nt;
    while (hp.n > 0 && st == TN_OK) {
        int32_t p = heap_pop(&hp);
        if ((f->bits[p] & TN_F_MARK) || has_support(f, p))
            continue;
        st = touch(f, &nt, p);
        int32_t y = p / f->w, x = p - y * f->w;
        for (int k = 0; k < 8 && st == TN_OK; k++) {
            int32_t qx = x + DX[k], qy = y + DY[k];
            if (!in_map(f, qx, qy))
                continue;
            int32_t q = qy * f->w + qx;
            if (!(f->bits[q] & TN_F_MARK) && f->dist[q] != INFINITY && f->dist[q] > f->dist[p])
                heap_push(&hp, q);
        }
    }
    (void)seeded;
    if (st != TN_OK) {
        while (hp.n > 0)
            (void)heap_pop(&hp);
        return st;
    }
    /* 2. forget the marked distances, then seed each from its unmarked neighbours */
    for (size_t t = 0; t < nt; t++)
        f->dist[f->touched[t]] = INFINITY;
    for (size_t t = 0; t < nt; t++) {
        int32_t c = f->touched[t];
        if (!f->pass[c])
            continue;
        if (f->bits[c] & TN_F_GOAL) {
            f->dist[c] = 0.0f;
            heap_push(&hp, c);
            continue;
        }
        int32_t y = c / f->w, x = c - y * f->w;
        float best = INFINITY;
        for (int k = 0; k < 8; k++) {
            if (!step_ok(f, x, y, k))
                continue;
            size_t v = (size_t)(y + DY[k]) * (size_t)f->w + (size_t)(x + DX[k]);
            if ((f->bits[v] & TN_F_MARK) || f->dist[v] == INFINITY)
                continue;
            float nd = f->dist[v] + step_cost(f, v, (k & 1) != 0);
            if (nd < best)
                best = nd;
        }
        if (best != INFINITY) {
            f->dist[c] = best;
            heap_push(&hp, c);
        }
    }
    /* 3. Dijkstra from the seeds; improvements may spread beyond the marked cells */
    while (hp.n > 0 && st == TN_OK) {
        int32_t v = heap_pop(&hp);
        int32_t y = v / f->w, x = v - y * f->w;
        FOR_PREDECESSORS(f, x, y, (size_t)v, {
            if (!(f->bits[u] & TN_F_MARK)) {
                st = touch(f, &nt, (int32_t)u);
                if (st != TN_OK)
                    break;
            }
            f->dist[u] = nd;
            heap_push(&hp, (int32_t)u);
        });
    }
    if (st != TN_OK) {
        while (hp.n > 0)
            (void)heap_pop(&hp);
        return st;
    }
    /* 4. directions of the recomputed cells and their neighbours; counts; clear marks */
    for (size_t t = 0; t < nt; t++) {
        int32_t c = f->touched[t];
        if (f->dist[c] != INFINITY)
            f->reachable++;
        int32_t y = c / f->w, x = c - y * f->w;
        for (int32_t yy = y - 1; yy <= y + 1; yy++)
            for (int32_t xx = x - 1; xx <= x + 1; xx++)
                if (in_map(f, xx, yy))
                    flow_set(f, xx, yy);
    }
    for (size_t t = 0; t < nt; t++)
        f->bits[f->touched[t]] &= (uint8_t)~TN_F_MARK;
    if (out_touched)
        *out_touched = (int32_t)nt;
    /* sight lines: the wedge from the goal through each rectangle, swept afresh (a sweep reads
     * the map alone, so wedges that overlap write the same values) */
    for (int32_t k = 0; k < nr && f->los == TN_LOS_EXACT && st == TN_OK; k++)
        st = tn__field_los_region(f, rects[k]);
    return st;
}

tn_status tn_field_update(tn_field *f, const tn_rect *extra_changed, int32_t *out_touched)
{
    if (out_touched)
        *out_touched = 0;
    if (!f)
        return TN_E_INVALID_ARG;
    if (!f->ready)
        return TN_E_STATE;
    if (tn__map_view_behind(f->map))
        return TN_E_MAP_CHANGED; /* a size map: its clearance first */
    /* each edit's rectangle on its own (two towers far apart are two small repairs, not one
     * spanning the map), grown by one cell: the cells whose steps cross a changed cell */
    tn_rect rects[TN_CHANGE_LOG + 1];
    int32_t nr = tn__map_changed_rects(f->map, f->revision, 1, 1, rects);
    const bool logged = nr >= 0;
    if (!logged)
        nr = 0;
    if (extra_changed) {
        tn_rect e = rect_clip(f, (tn_rect){extra_changed->x0 - 1, extra_changed->y0 - 1,
                                           extra_changed->x1 + 1, extra_changed->y1 + 1});
        if (e.x0 < e.x1)
            rects[nr++] = e;
    }
    refresh_map(f);
    f->revision = tn_map_revision(f->map);
    if (logged && nr == 0)
        return TN_OK;
    size_t area = 0;
    tn_status st = TN_OK;
    for (int32_t k = 0; k < nr && st == TN_OK; k++) {
        area += (size_t)(rects[k].x1 - rects[k].x0) * (size_t)(rects[k].y1 - rects[k].y0);
        st = check_extra(f, rects[k]);
    }
    if (st != TN_OK)
        return st;
    for (int32_t k = 0; k < f->ngoals; k++)
        if (!f->pass[(size_t)f->goals[k].y * (size_t)f->w + (size_t)f->goals[k].x]) {
            f->ready = false;
            return TN_E_GOAL_BLOCKED;
        }
    /* a repair, unless the log cannot tell, the tutorial's sight rule is on, or the changes
     * (or the repair, as it grows: REPAIR_GIVE_UP) make a build cheaper */
    if (logged && f->los != TN_LOS_SIMPLE && area * 4 <= f->n) {
        st = update_region(f, rects, nr, out_touched);
        if (st != REPAIR_GIVE_UP) {
            if (st != TN_OK)
                f->ready = false;
            return st;
        }
    }
    st = build_all(f);
    if (out_touched)
        *out_touched = (int32_t)f->n;
    return st;
}

/* ---- wall-off query ---------------------------------------------------------------------- */

tn_status tn_field_would_wall_off(tn_field *f, const tn_cell *cells, int32_t ncells,
                                  const tn_cell *spawns, int32_t nspawns, bool *cut)
{
    if (!f || !cut || ncells < 0 || nspawns < 0 || (ncells > 0 && !cells) ||
        (nspawns > 0 && !spawns))
        return TN_E_INVALID_ARG;
    *cut = false;
    if (!f->ready)
        return TN_E_STATE;
    if (field_stale(f))
        return TN_E_MAP_CHANGED;
    for (int32_t s = 0; s < nspawns; s++)
        if (!in_map(f, spawns[s].x, spawns[s].y))
            return TN_E_OUT_OF_MAP;
    /* stamps in qb: base = blocked by the query, base + 1 + s = reached by spawn s's search */
    uint64_t need = (uint64_t)f->stamp + (uint64_t)nspawns + 3u;
    if (need >= 0x7fffffffu || f->stamp < 2) {
        for (size_t i = 0; i < f->n; i++)
            f->qb[i] = 0;
        f->stamp = 2;
    }
    int32_t base = (int32_t)f->stamp;
    f->stamp += (uint32_t)nspawns + 2u;
    for (int32_t k = 0; k < ncells; k++) {
        if (!in_map(f, cells[k].x, cells[k].y))
            continue;
        int32_t c = cells[k].y * f->w + cells[k].x;
        if (f->bits[c] & TN_F_GOAL) {
            *cut = nspawns > 0;
            return TN_OK;
        }
        f->qb[c] = base;
    }
    /* the heap here is a plain array in qa ordered by dist, positions unused */
    int32_t *hq = f->qa;
    for (int32_t s = 0; s < nspawns && !*cut; s++) {
        int32_t c0 = spawns[s].y * f->w + spawns[s].x;
        int32_t mine = base + 1 + s;
        if (f->qb[c0] == base || f->dist[c0] == INFINITY) {
            *cut = true;
            break;
        }
        if (f->qb[c0] > base)
            continue; /* an earlier spawn's search already reached it */
        int32_t hn = 0;
        hq[hn++] = c0;
        f->qb[c0] = mine;
        bool found = false;
        while (hn > 0 && !found) {
            /* pop min by dist (binary heap over hq) */
            int32_t top = hq[0];
            hq[0] = hq[--hn];
            for (int32_t i = 0;;) {
                int32_t l = 2 * i + 1, m = i;
                if (l < hn && f->dist[hq[l]] < f->dist[hq[m]])
                    m = l;
                if (l + 1 < hn && f->dist[hq[l + 1]] < f->dist[hq[m]])
                    m = l + 1;
                if (m == i)
                    break;
                int32_t tmp = hq[i];
                hq[i] = hq[m];
                hq[m] = tmp;
                i = m;
            }
            if (f->bits[top] & TN_F_GOAL) {
                found = true;
                break;
            }
            int32_t y = top / f->w, x = top - y * f->w;
            for (int k = 0; k < 8; k++) {
                if (!step_ok(f, x, y, k))
                    continue;
                int32_t nx = x + DX[k], ny = y + DY[k];
                int32_t q = ny * f->w + nx;
                if (f->qb[q] == base || f->qb[q] == mine)
                    continue;
                /* the corner rule also sees the query's cells as blocked */
                if ((k & 1) && f->moves.diagonal != TN_DIAGONAL_ALWAYS) {
                    bool a = f->qb[y * f->w + nx] != base, b = f->qb[ny * f->w + x] != base;
                    if (!diag_rule_ok(f->moves.diagonal, a && f->pass[y * f->w + nx],
                                      b && f->pass[ny * f->w + x]))
                        continue;
                }
                if (f->qb[q] > base) { /* reached by an earlier, successful spawn */
                    found = true;
                    break;
                }
                f->qb[q] = mine;
                hq[hn++] = q;
                for (int32_t i = hn - 1; i > 0;) {
                    int32_t p = (i - 1) / 2;
                    if (!(f->dist[hq[i]] < f->dist[hq[p]]))
                        break;
                    int32_t tmp = hq[i];
                    hq[i] = hq[p];
                    hq[p] = tmp;
                    i = p;
                }
            }
        }
        if (!found)
            *cut = true;
    }
    /* qb keeps the stamps (all below the next base); the update's heap validates its positions */
    return TN_OK;
}
