/* Byte decoders for Tiled tile data: base64, zlib/gzip (zlib's inflate) and zstd (libzstd).
 * Every decompressor writes into a caller buffer of exactly the expected size and fails when
 * the stream holds more or less than that, so a compression bomb never reaches memory. */
#include "io_internal.h"

#include <stdarg.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

static tn_status fail(tn_status st, char *msg, size_t cap, const char *fmt, ...) TN_PRINTF(4, 5);

static tn_status fail(tn_status st, char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return st;
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static bool b64_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

tn_status tn__base64_size(const char *s, size_t len, size_t *out, char *msg, size_t cap)
{
    size_t chars = 0, pad = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (b64_space(c))
            continue;
        if (c == '=') {
            pad++;
            continue;
        }
        if (b64_value(c) < 0)
            return fail(TN_E_PARSE, msg, cap,
                        c >= 32 && c < 127 ? "bad base64 character '%c' at offset %zu"
                                           : "bad base64 byte 0x%02x at offset %zu",
                        c, i);
        if (pad)
            return fail(TN_E_PARSE, msg, cap, "bad base64: data after '=' padding at offset %zu",
                        i);
        chars++;
    }
    if (pad > 2 || (chars + pad) % 4 != 0 || (pad && (chars + pad) / 4 == 0))
        return fail(TN_E_PARSE, msg, cap,
                    "bad base64: %zu characters and %zu '=' is not a whole number of "
                    "4-character groups",
                    chars, pad);
    if (chars % 4 == 1)
        return fail(TN_E_PARSE, msg, cap, "bad base64: truncated final group");
    *out = chars / 4 * 3 + (chars % 4 == 0 ? 0 : chars % 4 - 1);
    return TN_OK;
}

void tn__base64_decode(const char *s, size_t len, uint8_t *out)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        int v = b64_value((unsigned char)s[i]);
        if (v < 0)
            continue; /* whitespace and padding: checked by tn__base64_size */
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1u;
        }
    }
}

tn_status tn__inflate_exact(const uint8_t *in, size_t n, uint8_t *out, size_t want,
                            const char *what, char *msg, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* 15 + 32: a 32 KiB window, zlib or gzip header detected automatically. */
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return fail(TN_E_NOMEM, msg, cap, "cannot start the %s decoder", what);
    tn_status st = TN_OK;
    size_t in_done = 0, out_done = 0;
    uint8_t spill[16];
    for (;;) {
        /* Feed at most UINT_MAX at a time (uInt); output goes to the exact buffer, then to a
         * small spill buffer that only serves to detect surplus data. */
        size_t in_left = n - in_done;
        z.next_in = (Bytef *)(uintptr_t)(in + in_done);
        z.avail_in = (uInt)(in_left > 0x40000000u ? 0x40000000u : in_left);
        bool spilling = out_done == want;
        size_t out_left = want - out_done;
        z.next_out = spilling ? spill : out + out_done;
        z.avail_out =
            spilling ? (uInt)sizeof spill : (uInt)(out_left > 0x40000000u ? 0x40000000u : out_left);
        uInt ai = z.avail_in, ao = z.avail_out;
        int r = inflate(&z, Z_NO_FLUSH);
        in_done += ai - z.avail_in;
        size_t produced = ao - z.avail_out;
        if (spilling && produced) {
            st = fail(TN_E_PARSE, msg, cap,
                      "%s data decompresses to more than the expected %zu bytes", what, want);
            break;
        }
        out_done += produced;
        if (r == Z_STREAM_END) {
            if (out_done != want)
                st = fail(TN_E_PARSE, msg, cap,
                          "%s data decompresses to %zu bytes, expected %zu (4 per cell)", what,
                          out_done, want);
            break;
        }
        if (r == Z_BUF_ERROR && in_done == n) {
            st = fail(TN_E_PARSE, msg, cap, "%s data is truncated (after %zu of %zu bytes)", what,
                      out_done, want);
            break;
        }
        if (r == Z_MEM_ERROR) {
            st = fail(TN_E_NOMEM, msg, cap, "out of memory in the %s decoder", what);
            break;
        }
        if (r != Z_OK && r != Z_BUF_ERROR) {
            st = fail(TN_E_PARSE, msg, cap, "bad %s data: %s", what,
                      z.msg ? z.msg : "corrupt stream");
            break;
        }
    }
    inflateEnd(&z);
    return st;
}

tn_status tn__zstd_exact(const uint8_t *in, size_t n, uint8_t *out, size_t want, char *msg,
                         size_t cap)
{
    ZSTD_DCtx *z = ZSTD_createDCtx();
    if (!z)
        return fail(TN_E_NOMEM, msg, cap, "cannot start the zstd decoder");
    /* One call into the exact buffer: the decoder keeps its window in that buffer, so a frame
     * that declares a large window (zstd's command line and streaming writers do when they do
     * not record the content size) costs no memory past it, and output past `want` is an
     * error, never written (a bomb stops at W*H*4 bytes). Concatenated frames are read too. */
    tn_status st = TN_OK;
    size_t r = ZSTD_decompressDCtx(z, out, want, in, n);
    if (ZSTD_isError(r)) {
        switch (ZSTD_getErrorCode(r)) {
        case ZSTD_error_dstSize_tooSmall:
            st = fail(TN_E_PARSE, msg, cap,
                      "zstd data decompresses to more than the expected %zu bytes", want);
            break;
        case ZSTD_error_srcSize_wrong:
            st = fail(TN_E_PARSE, msg, cap, "zstd data is truncated (expected %zu bytes)", want);
            break;
        case ZSTD_error_memory_allocation:
            st = fail(TN_E_NOMEM, msg, cap, "out of memory in the zstd decoder");
            break;
        default: st = fail(TN_E_PARSE, msg, cap, "bad zstd data: %s", ZSTD_getErrorName(r)); break;
        }
    } else if (r != want) {
        st = fail(TN_E_PARSE, msg, cap,
                  "zstd data decompresses to %zu bytes, expected %zu (4 per cell)", r, want);
    }
    ZSTD_freeDCtx(z);
    return st;
}
