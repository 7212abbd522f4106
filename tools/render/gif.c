#include "gif.h"

#include <fcntl.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_EXACT 256

struct tn_gif {
    int w, h, delay;
    int nframes, cap;
    uint8_t **frames;     /* w*h palette indices */
    GifColorType **local; /* per frame: its own 256-colour palette, or NULL (the global one) */
    uint32_t colors[MAX_EXACT];
    int ncolors;
    uint32_t cache_key[1024]; /* colour + 1 (0 = empty) -> its index, direct-mapped */
    uint8_t cache_idx[1024];
    bool quantize; /* the global palette overflowed: every later frame gets its own palette */
};

tn_gif *tn_gif_begin(int w, int h, int delay_cs)
{
    if (w <= 0 || h <= 0 || w > 65535 || h > 65535)
        return NULL;
    tn_gif *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->w = w;
    g->h = h;
    g->delay = delay_cs < 1 ? 1 : delay_cs;
    return g;
}

static int find_color(tn_gif *g, uint32_t c)
{
    uint32_t slot = ((c * 2654435761u) >> 22) & 1023u;
    if (g->cache_key[slot] == c + 1)
        return g->cache_idx[slot];
    int found = -1;
    for (int i = 0; i < g->ncolors && found < 0; i++)
        if (g->colors[i] == c)
            found = i;
    if (found < 0) {
        if (g->ncolors == MAX_EXACT)
            return -1;
        g->colors[g->ncolors] = c;
        found = g->ncolors++;
    }
    g->cache_key[slot] = c + 1;
    g->cache_idx[slot] = (uint8_t)found;
    return found;
}

/* Exact indices into the global palette; false (and the palette as it was) when it would need
 * more than 256 colours. */
static bool exact_frame(tn_gif *g, const uint8_t *rgba, size_t stride, uint8_t *idx)
{
    uint32_t last = 0xFFFFFFFFu;
    int last_i = 0, n0 = g->ncolors;
    for (int y = 0; y < g->h; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        for (int x = 0; x < g->w; x++) {
            uint32_t c =
                (uint32_t)row[4 * x] << 16 | (uint32_t)row[4 * x + 1] << 8 | row[4 * x + 2];
            if (c != last) {
                last_i = find_color(g, c);
                if (last_i < 0) {
                    g->ncolors = n0; /* forget this frame's colours: index 255 may stay free */
                    memset(g->cache_key, 0, sizeof g->cache_key);
                    return false;
                }
                last = c;
            }
            idx[(size_t)y * (size_t)g->w + (size_t)x] = (uint8_t)last_i;
        }
    }
    return true;
}

/* A palette of its own for the frame, by giflib's median-cut quantiser. */
static GifColorType *quantized_frame(const tn_gif *g, const uint8_t *rgba, size_t stride,
                                     uint8_t *idx)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    GifByteType *planes = malloc(3 * n);
    GifColorType *pal = calloc(256, sizeof *pal);
    bool ok = planes && pal;
    if (ok) {
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++) {
                const uint8_t *p = rgba + (size_t)y * stride + 4 * (size_t)x;
                size_t k = (size_t)y * (size_t)g->w + (size_t)x;
                planes[k] = p[0];
                planes[n + k] = p[1];
                planes[2 * n + k] = p[2];
            }
        int size = 256;
        ok = GifQuantizeBuffer((unsigned)g->w, (unsigned)g->h, &size, planes, planes + n,
                               planes + 2 * n, idx, pal) != GIF_ERROR;
    }
    free(planes);
    if (!ok) {
        free(pal);
        return NULL;
    }
    return pal;
}

bool tn_gif_add(tn_gif *g, const uint8_t *rgba, size_t stride)
{
    if (!g || !rgba)
        return false;
    if (g->nframes == g->cap) {
        int ncap = g->cap ? g->cap * 2 : 16;
        uint8_t **nf = realloc(g->frames, (size_t)ncap * sizeof *nf);
        if (!nf)
            return false;
        g->frames = nf;
        GifColorType **nl = realloc(g->local, (size_t)ncap * sizeof *nl);
        if (!nl)
            return false;
        g->local = nl;
        g->cap = ncap;
    }
    uint8_t *idx = malloc((size_t)g->w * (size_t)g->h);
    if (!idx)
        return false;
    GifColorType *pal = NULL;
    if (g->quantize || !exact_frame(g, rgba, stride, idx)) {
        g->quantize = true;
        pal = quantized_frame(g, rgba, stride, idx);
        if (!pal) {
            free(idx);
            return false;
        }
    }
    g->frames[g->nframes] = idx;
    g->local[g->nframes++] = pal;
    return true;
}

void tn_gif_abort(tn_gif *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nframes; i++) {
        free(g->frames[i]);
        free(g->local[i]);
    }
    free(g->frames);
    free(g->local);
    free(g);
}

bool tn_gif_end(tn_gif *g, const char *path, char *err, size_t errcap)
{
    if (!g)
        return false;
    int e = 0;
    bool ok = false;
    GifByteType *line = NULL;
    GifColorType pal[256];
    memset(pal, 0, sizeof pal);
    for (int i = 0; i < g->ncolors; i++) {
        pal[i].Red = (GifByteType)(g->colors[i] >> 16);
        pal[i].Green = (GifByteType)(g->colors[i] >> 8);
        pal[i].Blue = (GifByteType)g->colors[i];
    }
    ColorMapObject *map = GifMakeMapObject(256, pal);
    /* open the file ourselves so that its mode follows the umask (giflib would use 0600) */
    int fd = map ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666) : -1;
    GifFileType *f = fd >= 0 ? EGifOpenFileHandle(fd, &e) : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        else if (map)
            e = E_GIF_ERR_OPEN_FAILED;
        if (err)
            snprintf(err, errcap, "cannot write %s: %s", path,
                     map ? GifErrorString(e) : "out of memory");
        GifFreeMapObject(map);
        tn_gif_abort(g);
        return false;
    }
    EGifSetGifVersion(f, true);
    if (EGifPutScreenDesc(f, g->w, g->h, 8, 0, map) == GIF_ERROR)
        goto done;
    /* NETSCAPE2.0 loop forever */
    unsigned char loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(f, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(f, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(f, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(f) == GIF_ERROR)
        goto done;
    /* Frames on the global palette after one also on it are written as the rectangle that
     * changed, unchanged pixels transparent (index 255, free while the palette has at most 255
     * colours) over the previous frame kept on screen: a still map costs next to nothing. */
    const bool diff = g->ncolors < 256;
    line = malloc((size_t)g->w);
    if (!line)
        goto done;
    for (int i = 0; i < g->nframes; i++) {
        const uint8_t *cur = g->frames[i], *prev = i > 0 ? g->frames[i - 1] : NULL;
        int x0 = 0, y0 = 0, x1 = g->w, y1 = g->h; /* [x0, x1) x [y0, y1) */
        bool sub = diff && prev && !g->local[i] && !g->local[i - 1];
        if (sub) {
            x0 = g->w;
            y0 = g->h;
            x1 = y1 = 0;
            for (int y = 0; y < g->h; y++)
                for (int x = 0; x < g->w; x++) {
                    size_t k = (size_t)y * (size_t)g->w + (size_t)x;
                    if (cur[k] != prev[k]) {
                        x0 = x < x0 ? x : x0;
                        x1 = x + 1 > x1 ? x + 1 : x1;
                        y0 = y < y0 ? y : y0;
                        y1 = y + 1 > y1 ? y + 1 : y1;
                    }
                }
            if (x1 == 0) { /* nothing changed: one transparent pixel */
                x0 = y0 = 0;
                x1 = y1 = 1;
            }
        }
        GraphicsControlBlock gcb = {sub || (diff && i + 1 < g->nframes) ? DISPOSE_DO_NOT : 0, false,
                                    g->delay, sub ? 255 : NO_TRANSPARENT_COLOR};
        GifByteType ext[4];
        size_t n = EGifGCBToExtension(&gcb, ext);
        ColorMapObject *lm = g->local[i] ? GifMakeMapObject(256, g->local[i]) : NULL;
        bool put = (!g->local[i] || lm) &&
                   EGifPutExtension(f, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) != GIF_ERROR &&
                   EGifPutImageDesc(f, x0, y0, x1 - x0, y1 - y0, false, lm) != GIF_ERROR;
        GifFreeMapObject(lm);
        if (!put)
            goto done;
        for (int y = y0; y < y1; y++) {
            const uint8_t *row = cur + (size_t)y * (size_t)g->w;
            for (int x = x0; x < x1; x++)
                line[x - x0] =
                    sub && row[x] == prev[(size_t)y * (size_t)g->w + (size_t)x] ? 255 : row[x];
            if (EGifPutLine(f, line, x1 - x0) == GIF_ERROR)
                goto done;
        }
    }
    ok = true;
done:
    free(line);
    if (!ok && err)
        snprintf(err, errcap, "cannot write %s: %s", path, GifErrorString(f->Error));
    if (EGifCloseFile(f, &e) == GIF_ERROR && ok) {
        ok = false;
        if (err)
            snprintf(err, errcap, "cannot write %s: %s", path, GifErrorString(e));
    }
    GifFreeMapObject(map);
    tn_gif_abort(g);
    return ok;
}
