/* Animated GIF writer for the tools (giflib). Frames are RGBA8 buffers of one size; the palette
 * is global and exact while all frames so far use at most 256 colours; from the first frame that
 * would overflow it, each frame gets a local 256-colour palette from giflib's median-cut
 * quantiser (GifQuantizeBuffer). Output is deterministic: the same frames give the same bytes. */
#ifndef TN_RENDER_GIF_H
#define TN_RENDER_GIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tn_gif tn_gif;

/* Start a GIF of w x h pixels; frames are shown `delay_cs` hundredths of a second each and the
 * animation loops forever. Frames are buffered in memory (as palette indices) until close.
 * Returns NULL when out of memory or the size is 0 or above 65535. */
tn_gif *tn_gif_begin(int w, int h, int delay_cs);
/* Add one frame: `rgba` has h rows of `stride` bytes, 4 bytes per pixel. False on error. */
bool tn_gif_add(tn_gif *g, const uint8_t *rgba, size_t stride);
/* Encode and write every frame to `path`, then free everything (also on failure). Writes a
 * message into err (if not NULL) and returns false when the file cannot be written. */
bool tn_gif_end(tn_gif *g, const char *path, char *err, size_t errcap);
/* Free without writing. NULL is a no-op. */
void tn_gif_abort(tn_gif *g);

#endif
