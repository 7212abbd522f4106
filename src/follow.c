/* Path follower, path-radius following, grid walker and wanderer, direction-map car. */
#include "tilenav/follow.h"

#include "det_math.h"
#include "internal.h"
#include "steer_math.h"

#include <string.h>

#define PI_F 3.14159265358979f

/* ---- path follower ------------------------------------------------------------------------ */

static bool points_ok(const tn_vec2 *p, int32_t n)
{
    if (!p || n < 1)
        return false;
    for (int32_t i = 0; i < n; i++)
        if (!isfinite(p[i].x) || !isfinite(p[i].y))
            return false;
    return true;
}

tn_status tn_path_follower_init(tn_path_follower *f, const tn_vec2 *points, int32_t count,
                                float smoothing)
{
    if (!f || !points_ok(points, count) || !isfinite(smoothing) || smoothing < 0.0f)
        return TN_E_INVALID_ARG;
    memset(f, 0, sizeof *f);
    f->points = points;
    f->count = count;
    f->pos = points[0];
    f->smoothing = smoothing;
    f->next = 1;
    f->arrived = count == 1;
    if (f->arrived)
        f->next = count;
    else
        f->heading = tn_steer_heading(tn__v2_sub(points[1], points[0]), 0.0f);
    return TN_OK;
}

/* Point at arc length `s` (clamped to the end), walking segments forward from f->seg. */
static tn_vec2 point_at(tn_path_follower *f, float s)
{
    for (;;) {
        if (f->seg >= f->count - 1)
            return f->points[f->count - 1];
        tn_vec2 a = f->points[f->seg], b = f->points[f->seg + 1];
        float len = tn__v2_len(tn__v2_sub(b, a));
        if (s <= f->seg_start + len) {
            float t = len > 0.0f ? (s - f->seg_start) / len : 1.0f;
            t = t < 0.0f ? 0.0f : t;
            return tn__v2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        }
        f->seg_start += len;
        f->seg++;
    }
}

tn_status tn_path_follower_step(tn_path_follower *f, float speed, float dt, int32_t *reached)
{
    if (reached)
        *reached = 0;
    if (!f || !f->points || !isfinite(speed) || !isfinite(dt) || speed < 0.0f || dt < 0.0f)
        return TN_E_INVALID_ARG;
    float left = speed * dt;
    int32_t hits = 0;
    if (f->smoothing > 0.0f) {
        /* head for the point `smoothing` further along than the progress so far */
        while (!f->arrived && left > 0.0f) {
            tn_vec2 carrot = point_at(f, f->progress + f->smoothing);
            tn_vec2 to = tn__v2_sub(carrot, f->pos);
            float d = tn__v2_len(to);
            bool is_end = f->seg >= f->count - 1;
            if (d <= left && is_end) {
                f->pos = carrot;
                left = 0.0f;
                f->arrived = true;
                break;
            }
            float move = d < left ? d : left;
            if (d > 0.0f) {
                f->pos = tn__v2_add(f->pos, tn__v2_scale(to, move / d));
                f->heading = tn__dm_atan2f(to.y, to.x);
            }
            f->progress += move;
            left -= move;
            if (move <= 0.0f)
                break;
        }
        /* waypoints whose arc length the progress passed */
        while (f->next < f->count && f->next <= f->seg) {
            f->next++;
            hits++;
        }
        if (f->arrived) {
            hits += f->count - f->next;
            f->next = f->count;
        }
    } else {
        while (!f->arrived && left > 0.0f) {
            tn_vec2 to = tn__v2_sub(f->points[f->next], f->pos);
            float d = tn__v2_len(to);
            if (d > 0.0f)
                f->heading = tn__dm_atan2f(to.y, to.x);
            if (d <= left) {
                /* reach the waypoint exactly and carry what is left */
                f->pos = f->points[f->next];
                left -= d;
                f->next++;
                hits++;
                if (f->next == f->count)
                    f->arrived = true;
            } else {
                f->pos = tn__v2_add(f->pos, tn__v2_scale(to, left / d));
                left = 0.0f;
            }
        }
    }
    if (reached)
        *reached = hits;
    return TN_OK;
}

/* ---- path radius ------------------------------------------------------------------------- */

/* Nearest point of the polyline to p: segment index and parameter. */
static float nearest_on_path(const tn_vec2 *pts, int32_t n, tn_vec2 p, int32_t *seg, float *t,
                             tn_vec2 *q)
{
    float best = INFINITY;
    *seg = 0;
    *t = 0.0f;
    *q = pts[0];
    if (n == 1) {
        tn_vec2 d = tn__v2_sub(p, pts[0]);
        return tn__v2_len(d);
    }
    for (int32_t i = 0; i + 1 < n; i++) {
        tn_vec2 a = pts[i], ab = tn__v2_sub(pts[i + 1], a);
        float l2 = tn__v2_dot(ab, ab);
        float u = l2 > 0.0f ? tn__v2_dot(tn__v2_sub(p, a), ab) / l2 : 0.0f;
        u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
        tn_vec2 c = tn__v2(a.x + ab.x * u, a.y + ab.y * u);
        float d = tn__v2_len(tn__v2_sub(p, c));
        if (d < best) {
            best = d;
            *seg = i;
            *t = u;
            *q = c;
        }
    }
    return best;
}

float tn_path_distance(const tn_vec2 *points, int32_t count, tn_vec2 p)
{
    if (!points || count < 1)
        return INFINITY;
    int32_t seg;
    float t;
    tn_vec2 q;
    return nearest_on_path(points, count, p, &seg, &t, &q);
}

tn_vec2 tn_steer_follow_path(const tn_steer_agent *a, const tn_vec2 *pts, int32_t n,
                             float path_radius, float predict_time, float ahead)
{
    tn_vec2 zero = {0.0f, 0.0f};
    if (!a || !pts || n < 1 || !(a->max_speed > 0.0f) || !isfinite(path_radius) ||
        !isfinite(predict_time) || !isfinite(ahead))
        return zero;
    tn_vec2 pred = tn__v2(a->pos.x + a->vel.x * predict_time, a->pos.y + a->vel.y * predict_time);
    int32_t seg;
    float t;
    tn_vec2 q;
    float d = nearest_on_path(pts, n, pred, &seg, &t, &q);
    if (d <= path_radius)
        return zero;
    /* walk `ahead` pixels further along the path from q */
    tn_vec2 target = q;
    float left = ahead;
    while (left > 0.0f && seg + 1 < n) {
        tn_vec2 b = pts[seg + 1];
        float l = tn__v2_len(tn__v2_sub(b, target));
        if (l >= left) {
            target = tn__v2_add(target, tn__v2_scale(tn__v2_sub(b, target), left / l));
            left = 0.0f;
        } else {
            target = b;
            left -= l;
            seg++;
        }
    }
    return tn_steer_seek(a, target);
}

/* ---- grid walker ----------------------------------------------------------------------------- */

static tn_vec2 centre(const tn_map *m, tn_cell c)
{
    return tn_map_cell_center_px(m, c.x, c.y);
}

tn_status tn_grid_walker_init(tn_grid_walker *w, const tn_map *map, tn_cell start, float speed,
                              tn_cell *path, int32_t path_cap)
{
    if (!w || !map || !isfinite(speed) || !(speed > 0.0f) || (!path && path_cap > 0) ||
        path_cap < 0 || !tn_map_passable(map, start.x, start.y))
        return TN_E_INVALID_ARG;
    memset(w, 0, sizeof *w);
    w->cell = start;
    w->pos = centre(map, start);
    w->speed = speed;
    w->path = path;
    w->path_cap = path_cap;
    return TN_OK;
}

tn_status tn_grid_walker_set_destination(tn_grid_walker *w, tn_cell dest)
{
    if (!w)
        return TN_E_INVALID_ARG;
    w->dest = dest;
    w->pending = true;
    return TN_OK;
}

bool tn_grid_walker_aligned(const tn_grid_walker *w, const tn_map *map)
{
    if (!w || !map)
        return false;
    tn_vec2 c = centre(map, w->cell);
    return w->pos.x == c.x && w->pos.y == c.y;
}

static int32_t sgn(int32_t v)
{
    return (v > 0) - (v < 0);
}

/* Move up to *left pixels along w->dir towards the next cell centre; true when it got there. */
static bool advance(tn_grid_walker *w, const tn_map *map, float *left)
{
    tn_cell nc = {w->cell.x + w->dir.x, w->cell.y + w->dir.y};
    tn_vec2 target = centre(map, nc);
    float d = fabsf(target.x - w->pos.x) + fabsf(target.y - w->pos.y); /* one axis moves */
    if (d <= *left) {
        *left -= d;
        w->pos = target;
        w->cell = nc;
        return true;
    }
    w->pos.x += (float)w->dir.x * *left;
    w->pos.y += (float)w->dir.y * *left;
    *left = 0.0f;
    return false;
}

tn_status tn_grid_walker_step(tn_grid_walker *w, const tn_map *map, tn_walker_plan_fn plan,
                              void *user)
{
    if (!w || !map)
        return TN_E_INVALID_ARG;
    float left = w->speed;
    for (int guard = 0; guard < 1 << 20; guard++) {
        if (tn_grid_walker_aligned(w, map)) {
            if (w->pending) {
                w->pending = false;
                w->path_len = 0;
                w->path_next = 0;
                w->replans++;
                int32_t len = 0;
                tn_status st = plan ? plan(user, w->cell, w->dest, w->path, w->path_cap, &len)
                                    : TN_E_INVALID_ARG;
                if (st < 0 || st == TN_NO_PATH) {
                    w->dir = (tn_cell){0, 0};
                    return st < 0 ? st : TN_OK;
                }
                w->path_len = len < w->path_cap ? len : w->path_cap;
            }
            while (w->path_next < w->path_len && w->path[w->path_next].x == w->cell.x &&
                   w->path[w->path_next].y == w->cell.y)
                w->path_next++;
            if (w->path_next >= w->path_len) {
                w->dir = (tn_cell){0, 0};
                return TN_OK;
            }
            tn_cell t = w->path[w->path_next];
            int32_t dx = sgn(t.x - w->cell.x), dy = sgn(t.y - w->cell.y);
            /* the book's order: horizontal first, then vertical */
            w->dir = dx ? (tn_cell){dx, 0} : (tn_cell){0, dy};
            if (!tn_map_passable(map, w->cell.x + w->dir.x, w->cell.y + w->dir.y)) {
                w->dir = (tn_cell){0, 0};
                return TN_OK;
            }
        }
        if (left <= 0.0f || (w->dir.x == 0 && w->dir.y == 0))
            return TN_OK;
        advance(w, map, &left);
    }
    return TN_OK;
}

tn_status tn_grid_wander_step(tn_grid_walker *w, const tn_map *map, tn_rng *rng)
{
    if (!w || !map || !rng)
        return TN_E_INVALID_ARG;
    static const tn_cell dirs[4] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}}; /* up down left right */
    float left = w->speed;
    for (int guard = 0; guard < 1 << 20 && left > 0.0f; guard++) {
        if (tn_grid_walker_aligned(w, map)) {
            tn_cell ahead = {w->cell.x + w->dir.x, w->cell.y + w->dir.y};
            tn_cell back = {w->cell.x - w->dir.x, w->cell.y - w->dir.y};
            bool moving = w->dir.x || w->dir.y;
            if (moving && !tn_map_contains(map, ahead.x, ahead.y) &&
                tn_map_passable(map, back.x, back.y)) {
                w->dir = (tn_cell){-w->dir.x, -w->dir.y};
            } else {
                tn_cell open[4];
                uint32_t n = 0;
                for (int k = 0; k < 4; k++)
                    if (tn_map_passable(map, w->cell.x + dirs[k].x, w->cell.y + dirs[k].y))
                        open[n++] = dirs[k];
                if (n == 0) {
                    w->dir = (tn_cell){0, 0};
                    return TN_OK;
                }
                w->dir = open[tn_rng_below(rng, n)];
            }
        }
        advance(w, map, &left);
    }
    return TN_OK;
}

/* ---- direction-map car ------------------------------------------------------------------------
 */

tn_car_def tn_car_def_default(void)
{
    tn_car_def d = {0.08f, 3.0f, 0.03f, 20, 0.96f, TN_COOKIE_CAR};
    return d;
}

tn_status tn_car_init(tn_car *car, const tn_car_def *def, tn_vec2 pos, float rotation)
{
    if (!car || !def || def->internal_cookie != TN_COOKIE_CAR || !isfinite(pos.x) ||
        !isfinite(pos.y) || !isfinite(rotation))
        return TN_E_INVALID_ARG;
    memset(car, 0, sizeof *car);
    car->pos = pos;
    car->rotation = rotation;
    car->friction = def->friction_start;
    return TN_OK;
}

static int32_t clampi(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The track cell under p, clamped to the nearest edge cell. */
static tn_cell track_cell(const tn_car_track *t, int32_t w, int32_t h, tn_vec2 p)
{
    return (tn_cell){clampi(tn__ifloor(p.x / t->cell_width), 0, w - 1),
                     clampi(tn__ifloor(p.y / t->cell_height), 0, h - 1)};
}

tn_status tn_car_step(tn_car *car, const tn_car_def *def, const tn_car_track *track, tn_rng *rng)
{
    if (!car || !def || def->internal_cookie != TN_COOKIE_CAR || !track || !track->headings ||
        !(track->cell_width > 0.0f) || !(track->cell_height > 0.0f) ||
        (def->jitter_deg > 0 && !rng) || !isfinite(car->pos.x) || !isfinite(car->pos.y))
        return TN_E_INVALID_ARG;
    const int32_t w = tn_dirmap_width(track->headings), h = tn_dirmap_height(track->headings);
    if (car->speed <= def->top_speed)
        car->speed += def->accel;
    tn_cell cell = track_cell(track, w, h, car->pos);
    float map_angle = tn_dirmap_get(track->headings, cell.x, cell.y);
    if (!isnan(map_angle) && (!car->has_map_angle || map_angle != car->map_angle)) {
        int32_t j = def->jitter_deg > 0 ? tn_rng_range(rng, -def->jitter_deg, def->jitter_deg) : 0;
        car->target_deg = map_angle + (float)j;
        car->map_angle = map_angle;
        car->has_map_angle = true;
    }
    if (car->has_map_angle) { /* turn the short way round, at most turn_rate */
        float target = car->target_deg * (PI_F / 180.0f);
        float diff = fmodf(target - car->rotation, 2.0f * PI_F);
        if (diff > PI_F)
            diff -= 2.0f * PI_F;
        if (diff < -PI_F)
            diff += 2.0f * PI_F;
        if (fabsf(diff) <= def->turn_rate)
            car->rotation += diff;
        else
            car->rotation += diff > 0.0f ? def->turn_rate : -def->turn_rate;
        car->rotation = fmodf(car->rotation, 2.0f * PI_F);
    }
    float s, c;
    tn__dm_sincosf(car->rotation, &s, &c);
    car->vel.x = car->speed * c * car->friction;
    car->vel.y = car->speed * s * car->friction;
    car->pos.x += car->vel.x;
    car->pos.y += car->vel.y;
    cell = track_cell(track, w, h, car->pos);
    car->friction =
        track->friction ? track->friction[(size_t)cell.y * (size_t)w + (size_t)cell.x] : 1.0f;
    return TN_OK;
}
