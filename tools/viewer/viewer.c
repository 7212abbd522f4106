/* tilenav-view: an interactive SDL2 viewer of the reference documents' scenes.
 *
 * The window shows one tn_canvas, drawn by the current mode every frame and uploaded to a
 * streaming texture. The simulation advances in fixed steps of 1/60 s, independent of the frame
 * rate (an accumulator; at most 5 steps per frame), or exactly one step per frame with
 * --lockstep, which makes a run reproducible frame by frame. Input comes from SDL (real or
 * synthetic X events) and, with --script, from a file of timed events pushed into SDL's queue. */
#include "viewer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const vw_mode *const modes[] = {&vw_mode_maze,    &vw_mode_heuristics, &vw_mode_car,
                                       &vw_mode_marbles, &vw_mode_bombs,      &vw_mode_td};
#define MODE_COUNT ((int32_t)(sizeof modes / sizeof modes[0]))

typedef struct script_event {
    int64_t frame;
    SDL_Event ev;
    char shot[512]; /* "screenshot FILE" */
    bool quit;
} script_event;

typedef struct options {
    const char *map;
    const char *mode;
    const char *shot_on_exit;
    const char *shot_dir;
    const char *script;
    int64_t frames; /* 0 = run until quit */
    uint64_t seed;
    bool lockstep, headless, layout;
} options;

static void usage(FILE *f)
{
    fprintf(f, "usage: tilenav-view [MAP] [options]\n\n"
               "Interactive scenes of tilenav: each mode is one scene of the reference documents.\n"
               "MAP is a Tiled JSON (.tmj/.json) or Moving AI (.map) file; without it each mode\n"
               "uses its built-in scene.\n\n"
               "Modes (number keys 1-6 or Tab):\n");
    for (int32_t i = 0; i < MODE_COUNT; i++)
        fprintf(f, "  %d %-11s %s\n", (int)i + 1, modes[i]->name, modes[i]->title);
    fprintf(
        f, "\nKeys: H help overlay, Tab / Shift+Tab next / previous mode, 1-6 a mode, F12 write a\n"
           "screenshot (PNG), Esc quit; mouse wheel or +/- zoom, middle-button drag pans, 0\n"
           "shows the whole map. Each mode's own keys are in its help overlay (H).\n\n"
           "Options:\n"
           "  --mode NAME               start in this mode (default maze)\n"
           "  --seed K                  random seed (default 1)\n"
           "  --frames N                quit after N frames\n"
           "  --lockstep                exactly one 1/60 s simulation step per frame\n"
           "  --screenshot-on-exit FILE write the last frame to FILE (PNG) when quitting\n"
           "  --screenshot-dir DIR      where F12 writes tilenav-view-NNN.png (default .)\n"
           "  --script FILE             timed input events (see docs/viewer.md)\n"
           "  --headless                no window (with --script and --frames): for pictures\n"
           "  --layout                  print the mode's screen layout for tests and quit\n"
           "  -h, --help                this text\n\n"
           "Exit status: 0 ok, 2 bad command line, 3 the map cannot be read, 4 SDL or a\n"
           "screenshot failed, 5 a mode could not start.\n");
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->shot_dir = ".";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--lockstep"))
            o->lockstep = true;
        else if (!strcmp(a, "--headless"))
            o->headless = true;
        else if (!strcmp(a, "--layout"))
            o->layout = true;
        else if (a[0] == '-' && a[1] == '-' && next) {
            i++;
            if (!strcmp(a, "--mode"))
                o->mode = next;
            else if (!strcmp(a, "--screenshot-on-exit"))
                o->shot_on_exit = next;
            else if (!strcmp(a, "--screenshot-dir"))
                o->shot_dir = next;
            else if (!strcmp(a, "--script"))
                o->script = next;
            else if (!strcmp(a, "--seed") || !strcmp(a, "--frames")) {
                char *end;
                errno = 0;
                long long v = strtoll(next, &end, 10);
                if (errno || *end || v < 0) {
                    fprintf(stderr, "tilenav-view: %s needs a number >= 0, not '%s'\n", a, next);
                    return 2;
                }
                if (a[2] == 's')
                    o->seed = (uint64_t)v;
                else
                    o->frames = v;
            } else {
                fprintf(stderr, "tilenav-view: unknown option %s (see --help)\n", a);
                return 2;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "tilenav-view: unknown option or missing value: %s (see --help)\n", a);
            return 2;
        } else if (!o->map)
            o->map = a;
        else {
            fprintf(stderr, "tilenav-view: one map at most (got '%s' and '%s')\n", o->map, a);
            return 2;
        }
    }
    return 0;
}

/* ---- scripted input ---- */

static bool key_by_name(const char *name, SDL_Keycode *key, SDL_Scancode *sc)
{
    /* scancodes by name need no video subsystem (--headless); keycodes may, so take each from
     * whichever lookup knows it */
    *sc = SDL_GetScancodeFromName(name);
    *key = SDL_GetKeyFromName(name);
    if (*sc == SDL_SCANCODE_UNKNOWN && *key != SDLK_UNKNOWN)
        *sc = SDL_GetScancodeFromKey(*key);
    if (*key == SDLK_UNKNOWN && *sc != SDL_SCANCODE_UNKNOWN)
        *key = (SDL_Keycode)SDL_SCANCODE_TO_KEYCODE(*sc);
    return *sc != SDL_SCANCODE_UNKNOWN || *key != SDLK_UNKNOWN;
}

/* One line: FRAME ACTION ARGS. Actions: click X Y [BUTTON], down X Y [BUTTON], up X Y [BUTTON],
 * move X Y, wheel X Y DY, key NAME, keydown NAME, keyup NAME, screenshot FILE, quit. */
static int parse_script(const char *path, script_event **out, int32_t *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tilenav-view: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    script_event *ev = NULL;
    int32_t n = 0, cap = 0, line_no = 0, last_x = 0, last_y = 0; /* for motion.xrel/yrel */
    char line[1024];
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        char act[32] = "", arg[512] = "";
        long long frame;
        int x = 0, y = 0, button = 1;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == 0)
            continue;
        int got = sscanf(p, "%lld %31s %511s", &frame, act, arg);
        if (got < 2) {
            fprintf(stderr, "tilenav-view: %s:%d: expected 'FRAME ACTION ...'\n", path, line_no);
            rc = 2;
            break;
        }
        int expand = 2; /* at most two events per line (click) */
        if (n + expand > cap) {
            cap = cap ? cap * 2 : 64;
            script_event *grown = realloc(ev, (size_t)cap * sizeof *ev);
            if (!grown) {
                rc = 5;
                break;
            }
            ev = grown;
        }
        script_event e;
        memset(&e, 0, sizeof e);
        e.frame = frame;
        bool ok = true;
        if (!strcmp(act, "click") || !strcmp(act, "down") || !strcmp(act, "up") ||
            !strcmp(act, "move")) {
            int k = sscanf(p, "%lld %31s %d %d %d", &frame, act, &x, &y, &button);
            ok = k >= 4 && button >= 1 && button <= 3;
            if (!strcmp(act, "move")) {
                e.ev.type = SDL_MOUSEMOTION;
                e.ev.motion.x = x;
                e.ev.motion.y = y;
                e.ev.motion.xrel = x - last_x;
                e.ev.motion.yrel = y - last_y;
                e.ev.motion.state = 0;
            } else {
                e.ev.type = strcmp(act, "up") ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
                e.ev.button.x = x;
                e.ev.button.y = y;
                e.ev.button.button = (uint8_t)button;
                e.ev.button.clicks = 1;
            }
            last_x = x;
            last_y = y;
            if (ok && !strcmp(act, "click")) {
                ev[n++] = e;
                e.ev.type = SDL_MOUSEBUTTONUP;
            }
        } else if (!strcmp(act, "wheel")) {
            int dy = 0;
            ok = sscanf(p, "%lld %31s %d %d %d", &frame, act, &x, &y, &dy) == 5;
            e.ev.type = SDL_MOUSEWHEEL;
            e.ev.wheel.y = dy;
            e.ev.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
#if SDL_VERSION_ATLEAST(2, 26, 0)
            e.ev.wheel.mouseX = x;
            e.ev.wheel.mouseY = y;
#endif
        } else if (!strcmp(act, "key") || !strcmp(act, "keydown") || !strcmp(act, "keyup")) {
            SDL_Keycode key = SDLK_UNKNOWN;
            SDL_Scancode sc = SDL_SCANCODE_UNKNOWN;
            ok = got == 3 && key_by_name(arg, &key, &sc);
            e.ev.type = strcmp(act, "keyup") ? SDL_KEYDOWN : SDL_KEYUP;
            e.ev.key.keysym.sym = key;
            e.ev.key.keysym.scancode = sc;
            e.ev.key.state = e.ev.type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
            if (ok && !strcmp(act, "key")) {
                ev[n++] = e;
                e.ev.type = SDL_KEYUP;
                e.ev.key.state = SDL_RELEASED;
            }
        } else if (!strcmp(act, "screenshot")) {
            ok = got == 3;
            snprintf(e.shot, sizeof e.shot, "%s", arg);
        } else if (!strcmp(act, "quit"))
            e.quit = true;
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "tilenav-view: %s:%d: bad event '%s'\n", path, line_no, act);
            rc = 2;
            break;
        }
        ev[n++] = e;
    }
    fclose(f);
    if (rc) {
        free(ev);
        return rc;
    }
    *out = ev;
    *count = n;
    return 0;
}

/* ---- the application ---- */

typedef struct viewer {
    options opt;
    vw_app app;
    void *states[MODE_COUNT];
    uint64_t steps[MODE_COUNT];
    int32_t mode;
    tn_canvas canvas;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    bool keys[SDL_NUM_SCANCODES];
    bool panning;
    int32_t shots;
    script_event *script;
    int32_t nscript, script_next;
} viewer;

static int switch_mode(viewer *v, int32_t m)
{
    if (m < 0 || m >= MODE_COUNT)
        return 0;
    v->steps[v->mode] = v->app.step;
    v->mode = m;
    v->app.step = v->steps[m];
    v->app.status[0] = 0;
    if (!v->states[m]) {
        v->states[m] = modes[m]->create(&v->app);
        if (!v->states[m]) {
            fprintf(stderr, "tilenav-view: mode %s could not start\n", modes[m]->name);
            return 5;
        }
    }
    printf("mode: %s\n", modes[m]->name);
    if (v->win) {
        char title[128];
        snprintf(title, sizeof title, "tilenav-view - %s", modes[m]->name);
        SDL_SetWindowTitle(v->win, title);
    }
    memset(v->keys, 0, sizeof v->keys);
    return 0;
}

static int screenshot(viewer *v, const char *path)
{
    int rc = tn_canvas_write_png(&v->canvas, path);
    if (rc != 0) {
        fprintf(stderr, "tilenav-view: cannot write %s\n", path);
        return 4;
    }
    printf("screenshot: %s\n", path);
    return 0;
}

static void draw_bar(viewer *v)
{
    tn_canvas *c = &v->canvas;
    int32_t y = VW_CANVAS_H - VW_BAR_H;
    tn_canvas_fill_rect(c, 0, y, c->w, VW_BAR_H, vw_rgb(0x20242Cu));
    char left[64];
    snprintf(left, sizeof left, "%d/%d %s", (int)v->mode + 1, (int)MODE_COUNT,
             modes[v->mode]->name);
    int32_t x = 8 + vw_text(c, 8, y + 4, 2, vw_rgb(0xFFD060u), left);
    vw_text(c, x + 12, y + 8, 1, vw_rgb(0xE0E0E0u), v->app.status);
    const char *h = "H help  Tab mode  Esc quit";
    int32_t tw, th;
    tn_draw_text_size(h, 1, &tw, &th);
    vw_text(c, c->w - tw - 8, y + 8, 1, vw_rgb(0x9098A8u), h);
}

static void draw_help(viewer *v)
{
    tn_canvas *c = &v->canvas;
    const vw_mode *m = modes[v->mode];
    int32_t x = 60, y = 50, w = c->w - 120, h = c->h - 120;
    tn_canvas_fill_rect(c, x, y, w, h, vw_rgba(0x101318u, 240));
    int32_t ty = y + 16;
    ty += 4 + 7 * 3;
    vw_text(c, x + 16, y + 16, 3, vw_rgb(0xFFD060u), m->title);
    ty += 10;
    char line[256];
    const char *p = m->help;
    while (*p) {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        vw_text(c, x + 16, ty, 2, vw_rgb(0xF0F0F0u), line);
        ty += 20;
        p += n;
        if (*p == '\n')
            p++;
    }
    ty += 14;
    static const char *const global[][2] = {{"1-6, Tab, Shift+Tab", "switch mode"},
                                            {"H", "this help"},
                                            {"wheel, +, -", "zoom (0: whole map)"},
                                            {"middle drag", "pan"},
                                            {"F12", "screenshot (PNG)"},
                                            {"Esc", "quit"}};
    for (size_t i = 0; i < sizeof global / sizeof global[0]; i++, ty += 16) {
        vw_text(c, x + 16, ty, 1, vw_rgb(0xFFD060u), global[i][0]);
        vw_text(c, x + 170, ty, 1, vw_rgb(0xC8D0E0u), global[i][1]);
    }
    ty += 8;
    for (int32_t i = 0; i < MODE_COUNT; i++, ty += 16) {
        tn_rgba col = i == v->mode ? vw_rgb(0xFFD060u) : vw_rgb(0xC8D0E0u);
        snprintf(line, sizeof line, "%d  %s", (int)i + 1, modes[i]->name);
        vw_text(c, x + 16, ty, 1, col, line);
        vw_text(c, x + 170, ty, 1, col, modes[i]->title);
    }
}

/* The camera: zoom by `factor` (a power of two) keeping the map point under screen (sx, sy)
 * where it is. */
static void zoom_at(vw_app *a, int32_t factor_num, int32_t factor_den, float sx, float sy)
{
    int32_t z = a->zoom * factor_num / factor_den;
    z = z < 1 ? 1 : z > 64 ? 64 : z;
    if (z == a->zoom)
        return;
    if (a->zoom == 1) { /* at fit the focus is the middle */
        a->focus_x = a->focus_y = 0.5f;
    }
    float px = a->focus_x + (sx - a->area_cx) / fmaxf(a->map_px_w, 1.0f);
    float py = a->focus_y + (sy - a->area_cy) / fmaxf(a->map_px_h, 1.0f);
    float ratio = (float)z / (float)a->zoom;
    a->focus_x = fminf(1.0f, fmaxf(0.0f, px - (sx - a->area_cx) / (a->map_px_w * ratio)));
    a->focus_y = fminf(1.0f, fmaxf(0.0f, py - (sy - a->area_cy) / (a->map_px_h * ratio)));
    a->zoom = z;
}

/* Camera input (any mode): wheel or +/- zoom, middle-button drag pans, 0 shows the whole map.
 * Returns true when the event was consumed. */
static bool camera_event(viewer *v, const SDL_Event *e)
{
    vw_app *a = &v->app;
    switch (e->type) {
    case SDL_MOUSEWHEEL: {
        int32_t mx = VW_CANVAS_W / 2, my = (VW_CANVAS_H - VW_BAR_H) / 2;
#if SDL_VERSION_ATLEAST(2, 26, 0)
        if (v->win) {
            float lx, ly; /* window to canvas coordinates */
            SDL_RenderWindowToLogical(v->ren, e->wheel.mouseX, e->wheel.mouseY, &lx, &ly);
            mx = (int32_t)lx;
            my = (int32_t)ly;
        }
#endif
        if (e->wheel.y > 0)
            zoom_at(a, 2, 1, (float)mx, (float)my);
        else if (e->wheel.y < 0)
            zoom_at(a, 1, 2, (float)mx, (float)my);
        return true;
    }
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (e->button.button != SDL_BUTTON_MIDDLE)
            return false;
        v->panning = e->type == SDL_MOUSEBUTTONDOWN;
        return true;
    case SDL_MOUSEMOTION:
        if (!v->panning || a->zoom == 1)
            return false;
        a->focus_x = fminf(1.0f, fmaxf(0.0f, a->focus_x - (float)e->motion.xrel / a->map_px_w));
        a->focus_y = fminf(1.0f, fmaxf(0.0f, a->focus_y - (float)e->motion.yrel / a->map_px_h));
        return true;
    case SDL_KEYDOWN: {
        SDL_Keycode k = e->key.keysym.sym;
        float cx = VW_CANVAS_W * 0.5f, cy = (VW_CANVAS_H - VW_BAR_H) * 0.5f;
        if (k == SDLK_EQUALS || k == SDLK_PLUS || k == SDLK_KP_PLUS)
            zoom_at(a, 2, 1, cx, cy);
        else if (k == SDLK_MINUS || k == SDLK_KP_MINUS)
            zoom_at(a, 1, 2, cx, cy);
        else if (k == SDLK_0) {
            a->zoom = 1;
            a->focus_x = a->focus_y = 0.5f;
        } else
            return false;
        return true;
    }
    default: return false;
    }
}

/* Global keys; returns true when the event was consumed. *quit / *rc may be set. */
static bool global_key(viewer *v, const SDL_Event *e, bool *quit, int *rc)
{
    if (e->type != SDL_KEYDOWN)
        return false;
    SDL_Keycode k = e->key.keysym.sym;
    if (k == SDLK_ESCAPE) {
        *quit = true;
        return true;
    }
    if (k == SDLK_h) {
        v->app.help = !v->app.help;
        return true;
    }
    if (k == SDLK_F12) {
        char path[600];
        snprintf(path, sizeof path, "%s/tilenav-view-%03d.png", v->opt.shot_dir, (int)v->shots++);
        *rc = screenshot(v, path);
        return true;
    }
    if (k == SDLK_TAB) {
        bool back = (e->key.keysym.mod & KMOD_SHIFT) != 0;
        *rc = switch_mode(v, (v->mode + (back ? MODE_COUNT - 1 : 1)) % MODE_COUNT);
        return true;
    }
    if (k >= SDLK_1 && k < SDLK_1 + MODE_COUNT) {
        *rc = switch_mode(v, (int32_t)(k - SDLK_1));
        return true;
    }
    return false;
}

static int run(viewer *v)
{
    int rc = 0;
    bool quit = false;
    int64_t frame = 0;
    uint64_t last = SDL_GetTicks64();
    double acc = 0.0;
    while (!quit && rc == 0) {
        uint64_t frame_start = SDL_GetTicks64();
        /* scripted events due this frame go into SDL's queue, then everything is polled */
        while (v->script_next < v->nscript && v->script[v->script_next].frame <= frame) {
            script_event *s = &v->script[v->script_next++];
            if (s->quit)
                quit = true;
            else if (s->shot[0]) {
                /* drawn at the end of the previous frame: what the window shows now */
                if ((rc = screenshot(v, s->shot)) != 0)
                    break;
            } else {
                s->ev.common.timestamp = SDL_GetTicks();
                if (s->ev.type == SDL_MOUSEMOTION || s->ev.type == SDL_MOUSEBUTTONDOWN ||
                    s->ev.type == SDL_MOUSEBUTTONUP)
                    s->ev.motion.windowID = v->win ? SDL_GetWindowID(v->win) : 0;
                if (SDL_PushEvent(&s->ev) < 0)
                    fprintf(stderr, "tilenav-view: SDL_PushEvent: %s\n", SDL_GetError());
            }
        }
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT) {
                quit = true;
                continue;
            }
            if (global_key(v, &e, &quit, &rc) || camera_event(v, &e))
                continue;
            if (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP)
                v->keys[e.key.keysym.scancode] = e.type == SDL_KEYDOWN;
            modes[v->mode]->event(v->states[v->mode], &v->app, &e);
        }
        if (rc || quit)
            break;
        int32_t steps = 1;
        if (!v->opt.lockstep) {
            uint64_t now = SDL_GetTicks64();
            acc += (double)(now - last) / 1000.0;
            last = now;
            steps = 0;
            while (acc >= 1.0 / VW_STEP_HZ && steps < 5) {
                acc -= 1.0 / VW_STEP_HZ;
                steps++;
            }
            if (steps == 5)
                acc = 0.0;
        }
        uint8_t keys[SDL_NUM_SCANCODES];
        for (int32_t i = 0; i < SDL_NUM_SCANCODES; i++)
            keys[i] = v->keys[i];
        for (int32_t i = 0; i < steps; i++) {
            modes[v->mode]->step(v->states[v->mode], &v->app, keys);
            v->app.step++;
        }
        tn_canvas_fill_rect(&v->canvas, 0, 0, v->canvas.w, v->canvas.h, vw_rgb(0x15181Eu));
        modes[v->mode]->draw(v->states[v->mode], &v->app, &v->canvas);
        draw_bar(v);
        if (v->app.help)
            draw_help(v);
        if (v->win) {
            SDL_UpdateTexture(v->tex, NULL, v->canvas.px, v->canvas.w * 4);
            SDL_RenderClear(v->ren);
            SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
            SDL_RenderPresent(v->ren);
        }
        frame++;
        if (v->opt.frames && frame >= v->opt.frames)
            break;
        if (v->win) { /* about 60 frames per second */
            uint64_t spent = SDL_GetTicks64() - frame_start;
            if (spent < 16)
                SDL_Delay((uint32_t)(16 - spent));
        }
    }
    if (rc == 0 && v->opt.shot_on_exit)
        rc = screenshot(v, v->opt.shot_on_exit);
    return rc;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    static viewer v; /* large (key array); zeroed */
    int rc = parse_args(argc, argv, &v.opt);
    if (rc)
        return rc;
    v.app.seed = v.opt.seed;
    v.app.zoom = 1;
    v.app.focus_x = v.app.focus_y = 0.5f;
    v.app.map_path = v.opt.map;
    tn_map *map = NULL;
    tn_tileset_images *imgs = NULL;
    if (v.opt.map) {
        tn_diag diag;
        memset(&diag, 0, sizeof diag);
        tn_status st = tn_map_load(v.opt.map, NULL, &map, &diag);
        if (st != TN_OK) {
            char msg[1024];
            tn_diag_format(&diag, msg, sizeof msg);
            fprintf(stderr, "tilenav-view: %s (%s)\n", msg, tn_status_str(st));
            return 3;
        }
        v.app.user_map = map;
        char msg[1024] = "";
        st = tn_tileset_images_load(map, NULL, &imgs, msg, sizeof msg);
        if (st < 0) {
            fprintf(stderr, "tilenav-view: tileset images: %s\n", tn_status_str(st));
            tn_tileset_images_free(imgs);
            tn_map_destroy(map);
            return 5;
        }
        if (st == TN_PARTIAL)
            fprintf(stderr, "tilenav-view: drawing some tiles with the palette:\n%s\n", msg);
        v.app.user_imgs = imgs;
    }
    int32_t start = 0;
    if (v.opt.mode) {
        start = -1;
        for (int32_t i = 0; i < MODE_COUNT; i++)
            if (!strcmp(v.opt.mode, modes[i]->name))
                start = i;
        if (start < 0) {
            fprintf(stderr, "tilenav-view: unknown mode '%s' (see --help)\n", v.opt.mode);
            tn_tileset_images_free(imgs);
            tn_map_destroy(map);
            return 2;
        }
    }
    if (v.opt.script && (rc = parse_script(v.opt.script, &v.script, &v.nscript)) != 0) {
        tn_tileset_images_free(imgs);
        tn_map_destroy(map);
        return rc;
    }
    if (v.opt.layout) {
        void *st = modes[start]->create(&v.app);
        if (!st)
            rc = 5;
        else {
            printf("canvas %d %d\n", VW_CANVAS_W, VW_CANVAS_H);
            if (modes[start]->layout)
                modes[start]->layout(st, &v.app);
            modes[start]->destroy(st);
        }
        tn_tileset_images_free(imgs);
        tn_map_destroy(map);
        return rc;
    }
    if (!tn_canvas_init(&v.canvas, VW_CANVAS_W, VW_CANVAS_H, vw_rgb(0x15181Eu))) {
        tn_tileset_images_free(imgs);
        tn_map_destroy(map);
        return 5;
    }
    if (SDL_Init(v.opt.headless ? SDL_INIT_EVENTS : SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "tilenav-view: SDL_Init: %s\n", SDL_GetError());
        rc = 4;
    } else if (!v.opt.headless) {
        v.win = SDL_CreateWindow("tilenav-view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 VW_CANVAS_W, VW_CANVAS_H, SDL_WINDOW_RESIZABLE);
        if (v.win)
            v.ren = SDL_CreateRenderer(v.win, -1, 0);
        if (v.ren) {
            SDL_RenderSetLogicalSize(v.ren, VW_CANVAS_W, VW_CANVAS_H);
            v.tex = SDL_CreateTexture(v.ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING,
                                      VW_CANVAS_W, VW_CANVAS_H);
        }
        if (!v.tex) {
            fprintf(stderr, "tilenav-view: cannot open a window: %s\n", SDL_GetError());
            rc = 4;
        }
    } else if (!v.opt.frames) {
        fprintf(stderr, "tilenav-view: --headless needs --frames N\n");
        rc = 2;
    }
    if (rc == 0) {
        v.mode = start;
        rc = switch_mode(&v, start);
    }
    if (rc == 0)
        rc = run(&v);
    for (int32_t i = 0; i < MODE_COUNT; i++)
        if (v.states[i])
            modes[i]->destroy(v.states[i]);
    if (v.tex)
        SDL_DestroyTexture(v.tex);
    if (v.ren)
        SDL_DestroyRenderer(v.ren);
    if (v.win)
        SDL_DestroyWindow(v.win);
    SDL_Quit();
    tn_canvas_free(&v.canvas);
    free(v.script);
    tn_tileset_images_free(imgs);
    tn_map_destroy(map);
    return rc;
}
