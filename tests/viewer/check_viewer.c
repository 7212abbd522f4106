/* Pixel checker for the viewer test (tests/viewer/viewer_test.sh). Reads screenshots written
 * by tilenav-view and checks what a person would look for:
 *
 *   check_viewer maze SHOT.png OX OY CELL GX GY [arrived]
 *       The maze's planned path colour is on exactly the cells of the shortest 4-connected
 *       path from the built-in start to (GX, GY), found here independently by a breadth-first
 *       search over the maze rows of tools/viewer/scenes.h (a perfect maze: the path is
 *       unique). The character is no longer on its start cell, lies on the path and, with
 *       "arrived", stands on the goal. OX OY CELL: the layout printed by --layout.
 *   check_viewer moved A.png B.png RRGGBB MIN_PX
 *       The pixels of colour RRGGBB form a blob in both shots whose centroid moved by at
 *       least MIN_PX pixels.
 *
 * Exit status 0 when every check holds, 1 otherwise (each failed check is printed). */
#include "scenes.h"

#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct image {
    int32_t w, h;
    uint8_t *px; /* RGBA */
} image;

static bool load(const char *path, image *img)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path)) {
        fprintf(stderr, "check_viewer: cannot read %s: %s\n", path, pi.message);
        return false;
    }
    pi.format = PNG_FORMAT_RGBA;
    img->w = (int32_t)pi.width;
    img->h = (int32_t)pi.height;
    img->px = malloc(PNG_IMAGE_SIZE(pi));
    if (!img->px || !png_image_finish_read(&pi, NULL, img->px, 0, NULL)) {
        fprintf(stderr, "check_viewer: cannot decode %s\n", path);
        free(img->px);
        png_image_free(&pi);
        return false;
    }
    return true;
}

static uint32_t rgb_at(const image *img, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= img->w || y >= img->h)
        return 0xFFFFFFFFu;
    const uint8_t *p = img->px + ((size_t)y * (size_t)img->w + (size_t)x) * 4;
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* Centroid of the pixels of one colour; returns how many there are. */
static int64_t centroid(const image *img, uint32_t rgb, double *cx, double *cy)
{
    int64_t n = 0;
    double sx = 0.0, sy = 0.0;
    for (int32_t y = 0; y < img->h; y++)
        for (int32_t x = 0; x < img->w; x++)
            if (rgb_at(img, x, y) == rgb) {
                n++;
                sx += x;
                sy += y;
            }
    if (n) {
        *cx = sx / (double)n;
        *cy = sy / (double)n;
    }
    return n;
}

static int failures;
static void check(bool ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

static bool floor_cell(int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < VW_MAZE_W && y < VW_MAZE_H && vw_maze_rows[y][x] == '.';
}

/* Breadth-first search from the start; the path to the goal by the parent links. */
static int32_t bfs_path(int32_t gx, int32_t gy, int32_t *px, int32_t *py)
{
    int32_t parent[VW_MAZE_W * VW_MAZE_H], queue[VW_MAZE_W * VW_MAZE_H], head = 0, tail = 0;
    for (int32_t i = 0; i < VW_MAZE_W * VW_MAZE_H; i++)
        parent[i] = -2;
    int32_t s = VW_MAZE_START_Y * VW_MAZE_W + VW_MAZE_START_X;
    parent[s] = -1;
    queue[tail++] = s;
    while (head < tail) {
        int32_t c = queue[head++], x = c % VW_MAZE_W, y = c / VW_MAZE_W;
        const int32_t dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        for (int32_t k = 0; k < 4; k++) {
            int32_t nx = x + dx[k], ny = y + dy[k], n = ny * VW_MAZE_W + nx;
            if (floor_cell(nx, ny) && parent[n] == -2) {
                parent[n] = c;
                queue[tail++] = n;
            }
        }
    }
    int32_t g = gy * VW_MAZE_W + gx, len = 0;
    if (!floor_cell(gx, gy) || parent[g] == -2)
        return 0;
    for (int32_t c = g; c != -1; c = parent[c]) {
        px[len] = c % VW_MAZE_W;
        py[len] = c / VW_MAZE_W;
        len++;
    }
    return len;
}

static int maze(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: check_viewer maze SHOT.png OX OY CELL GX GY [arrived]\n");
        return 2;
    }
    image img;
    if (!load(argv[2], &img))
        return 2;
    int32_t ox = atoi(argv[3]), oy = atoi(argv[4]), cell = atoi(argv[5]);
    int32_t gx = atoi(argv[6]), gy = atoi(argv[7]);
    bool arrived = argc > 8 && !strcmp(argv[8], "arrived");
    int32_t inset = cell / 5;
    int32_t px[VW_MAZE_W * VW_MAZE_H], py[VW_MAZE_W * VW_MAZE_H];
    int32_t len = bfs_path(gx, gy, px, py);
    char msg[256];
    snprintf(msg, sizeof msg, "the goal (%d, %d) is reachable (BFS path of %d cells)", (int)gx,
             (int)gy, (int)len);
    check(len > 1, msg);
    bool on_path[VW_MAZE_W * VW_MAZE_H] = {false};
    int32_t drawn = 0;
    for (int32_t i = 0; i < len; i++) {
        on_path[py[i] * VW_MAZE_W + px[i]] = true;
        /* a corner of the cell's inset square: outside the character's circle */
        drawn += rgb_at(&img, ox + px[i] * cell + inset + 1, oy + py[i] * cell + inset + 1) ==
                 VW_COL_PATH;
    }
    snprintf(msg, sizeof msg, "path colour on %d of the %d cells of the shortest path", (int)drawn,
             (int)len);
    check(len > 1 && drawn == len, msg);
    int32_t extra = 0;
    for (int32_t y = 0; y < VW_MAZE_H; y++)
        for (int32_t x = 0; x < VW_MAZE_W; x++)
            if (!on_path[y * VW_MAZE_W + x] &&
                rgb_at(&img, ox + x * cell + inset + 1, oy + y * cell + inset + 1) == VW_COL_PATH)
                extra++;
    snprintf(msg, sizeof msg, "no path colour off the shortest path (%d cells)", (int)extra);
    check(extra == 0, msg);
    double cx = 0.0, cy = 0.0;
    int64_t n = centroid(&img, VW_COL_WALKER, &cx, &cy);
    int32_t wx = (int32_t)floor((cx - ox) / cell), wy = (int32_t)floor((cy - oy) / cell);
    snprintf(msg, sizeof msg, "the character is drawn (%lld pixels, cell (%d, %d))", (long long)n,
             (int)wx, (int)wy);
    check(n > 20, msg);
    check(n > 20 && !(wx == VW_MAZE_START_X && wy == VW_MAZE_START_Y),
          "the character left its start cell");
    check(n > 20 && wx >= 0 && wy >= 0 && wx < VW_MAZE_W && wy < VW_MAZE_H &&
              on_path[wy * VW_MAZE_W + wx],
          "the character stands on the path");
    if (arrived)
        check(wx == gx && wy == gy, "the character stands on the goal");
    free(img.px);
    return failures ? 1 : 0;
}

static int moved(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: check_viewer moved A.png B.png RRGGBB MIN_PX\n");
        return 2;
    }
    image a, b;
    if (!load(argv[2], &a) || !load(argv[3], &b))
        return 2;
    uint32_t rgb = (uint32_t)strtoul(argv[4], NULL, 16);
    double min_px = atof(argv[5]);
    double ax = 0, ay = 0, bx = 0, by = 0;
    int64_t na = centroid(&a, rgb, &ax, &ay), nb = centroid(&b, rgb, &bx, &by);
    char msg[256];
    snprintf(msg, sizeof msg, "colour %06X drawn in both shots (%lld and %lld pixels)",
             (unsigned)rgb, (long long)na, (long long)nb);
    check(na >= 10 && nb >= 10, msg);
    double d = hypot(bx - ax, by - ay);
    snprintf(msg, sizeof msg, "it moved from (%.1f, %.1f) to (%.1f, %.1f): %.1f px >= %.1f", ax, ay,
             bx, by, d, min_px);
    check(na >= 10 && nb >= 10 && d >= min_px, msg);
    free(a.px);
    free(b.px);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "maze"))
        return maze(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "moved"))
        return moved(argc, argv);
    fprintf(stderr, "usage: check_viewer maze|moved ... (see the source)\n");
    return 2;
}
