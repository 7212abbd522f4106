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
    uint8_t **frames; /* w*h colour ids (exact palette) or cube indices */
    uint32_t colors[MAX_EXACT];
    int ncolors;
    bool cube; /* more than 256 colours seen: frames hold cube indices */
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

static int cube_index(uint32_t c)
{
    int r = (int)((c >> 16) & 255), gr = (int)((c >> 8) & 255), b = (int)(c & 255);
    return (r * 6 / 256) * 42 + (gr * 7 / 256) * 6 + (b * 6 / 256);
}

static int find_color(tn_gif *g, uint32_t c)
{
    for (int i = 0; i < g->ncolors; i++)
        if (g->colors[i] == c)
            return i;
    if (g->ncolors == MAX_EXACT)
        return -1;
    g->colors[g->ncolors] = c;
    return g->ncolors++;
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
        g->cap = ncap;
    }
    size_t n = (size_t)g->w * (size_t)g->h;
    uint8_t *idx = malloc(n);
    if (!idx)
        return false;
    uint32_t last = 0xFFFFFFFFu;
    int last_i = 0;
    for (int y = 0; y < g->h; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        for (int x = 0; x < g->w; x++) {
            uint32_t c =
                (uint32_t)row[4 * x] << 16 | (uint32_t)row[4 * x + 1] << 8 | row[4 * x + 2];
            int i;
            if (g->cube) {
                i = cube_index(c);
            } else if (c == last) {
                i = last_i;
            } else {
                i = find_color(g, c);
                if (i < 0) {
                    /* too many colours: convert every stored frame to the cube */
                    for (int f = 0; f < g->nframes; f++)
                        for (size_t k = 0; k < n; k++)
                            g->frames[f][k] = (uint8_t)cube_index(g->colors[g->frames[f][k]]);
                    for (size_t k = 0; k < (size_t)y * (size_t)g->w + (size_t)x; k++)
                        idx[k] = (uint8_t)cube_index(g->colors[idx[k]]);
                    g->cube = true;
                    i = cube_index(c);
                }
                last = c;
                last_i = i;
            }
            idx[(size_t)y * (size_t)g->w + (size_t)x] = (uint8_t)i;
        }
    }
    g->frames[g->nframes++] = idx;
    return true;
}

void tn_gif_abort(tn_gif *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nframes; i++)
        free(g->frames[i]);
    free(g->frames);
    free(g);
}

bool tn_gif_end(tn_gif *g, const char *path, char *err, size_t errcap)
{
    if (!g)
        return false;
    int e = 0;
    bool ok = false;
    GifColorType pal[256];
    memset(pal, 0, sizeof pal);
    if (g->cube) {
        for (int i = 0; i < 252; i++) {
            pal[i].Red = (GifByteType)((i / 42) * 255 / 5);
            pal[i].Green = (GifByteType)(((i / 6) % 7) * 255 / 6);
            pal[i].Blue = (GifByteType)((i % 6) * 255 / 5);
        }
    } else {
        for (int i = 0; i < g->ncolors; i++) {
            pal[i].Red = (GifByteType)(g->colors[i] >> 16);
            pal[i].Green = (GifByteType)(g->colors[i] >> 8);
            pal[i].Blue = (GifByteType)g->colors[i];
        }
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
    for (int i = 0; i < g->nframes; i++) {
        GraphicsControlBlock gcb = {0, false, g->delay, NO_TRANSPARENT_COLOR};
        GifByteType ext[4];
        size_t n = EGifGCBToExtension(&gcb, ext);
        if (EGifPutExtension(f, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) == GIF_ERROR ||
            EGifPutImageDesc(f, 0, 0, g->w, g->h, false, NULL) == GIF_ERROR)
            goto done;
        for (int y = 0; y < g->h; y++)
            if (EGifPutLine(f, g->frames[i] + (size_t)y * (size_t)g->w, g->w) == GIF_ERROR)
                goto done;
    }
    ok = true;
done:
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
