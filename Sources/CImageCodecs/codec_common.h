#ifndef CODEC_COMMON_H
#define CODEC_COMMON_H

/* Helpers shared by the decoders of this target (not part of its public header). */

#include <stddef.h>
#include <stdint.h>

#include "image_codecs.h"

#define IC_INTERNAL __attribute__((visibility("hidden")))

/* snprintf into a fixed buffer; NULL source gives "". */
IC_INTERNAL void ic_copy_text(char *dst, size_t dst_size, const char *src);

/* Counts a library warning and keeps its text when it is new (up to IC_MAX_WARNINGS distinct texts). */
IC_INTERNAL void ic_record_warning(ic_decode_result *r, const char *text);

/* Non-zero when a header's size is above the caller's limits. Checked before any pixel memory exists. */
IC_INTERNAL int ic_exceeds_limits(long long w, long long h, const ic_decode_params *p);

/* What every decoder does first: clears the result (scale 1) and checks the arguments. Returns 0 to go on,
   else the status to return (IC_ERR_ARGUMENT for a missing argument, IC_ERR_TRUNCATED for no data). */
IC_INTERNAL int ic_start_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                                ic_decode_result *result, const char *format);

/* Sets the status and message of r and returns the status. */
IC_INTERNAL int ic_fail(ic_decode_result *r, int status, const char *message);

/* Full-range luma from BT.601 limited-range Y (16...235), as WebP and most HEVC streams store it. */
static inline unsigned char ic_expand_limited_luma(unsigned char y) {
    int v = ((int)y - 16) * 255 / 219;
    return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Gray composited over white with 8-bit alpha: transparent areas read as paper, as in the PNG decoder. */
static inline unsigned char ic_over_white(unsigned char gray, unsigned char alpha) {
    return (unsigned char)((gray * alpha + 255u * (255u - alpha) + 127u) / 255u);
}

/* One of a pixel's red, green and blue as its gray (`grey_channel`): the brightest (IC_GREY_BRIGHTEST) or the
   darkest (IC_GREY_DARKEST). */
static inline unsigned char ic_channel(int grey_channel, unsigned char r, unsigned char g, unsigned char b) {
    if (grey_channel == IC_GREY_DARKEST) {
        unsigned char m = r < g ? r : g;
        return m < b ? m : b;
    }
    unsigned char m = r > g ? r : g;
    return m > b ? m : b;
}

/* Rows of `count` interleaved pixels of `channels` (3: RGB, 4: RGBA composited over white) to the channel of
   each that `grey_channel` picks. */
static inline void ic_channel_of_pixels(int grey_channel, const unsigned char *rgb, int channels, unsigned char *gray,
                                        size_t count) {
    for (size_t i = 0; i < count; i++, rgb += channels) {
        unsigned char m = ic_channel(grey_channel, rgb[0], rgb[1], rgb[2]);
        gray[i] = channels == 4 ? ic_over_white(m, rgb[3]) : m;
    }
}

#endif
