#ifndef IMAGE_CODECS_H
#define IMAGE_CODECS_H

/*
 * C side of VitalSnap's image codecs.
 *
 * WebP (libwebp) and HEIF/HEIC (libheif) follow the same two-call protocol; they need no setjmp, but
 * their failures are turned into the same status codes and messages.
 *
 * Swift cannot call setjmp, variadic functions or function-like macros (jpeg_create_decompress,
 * PNG_IMAGE_SIZE), and libjpeg's default error handler calls exit(). So every decode or encode runs
 * entirely inside one function here that owns its setjmp, turns libjpeg/libpng failures into a status
 * code plus a message, and frees everything before returning. Only plain structs and integers cross
 * the boundary.
 */

#include <stddef.h>
#include <stdint.h>

/* Status codes (plain macros so Swift imports them as integer constants). */
#define IC_OK 0
/* Header read and checked; output size is in the result. Call again with a buffer. */
#define IC_NEED_BUFFER 1
#define IC_ERR_CORRUPT 2
#define IC_ERR_TRUNCATED 3
/* Header declares more than max_dimension per side or max_pixels in total. */
#define IC_ERR_TOO_LARGE 4
/* Header declares a zero width or height. */
#define IC_ERR_EMPTY_IMAGE 5
/* strict mode: the library reported a warning (other than truncation). */
#define IC_ERR_STRICT_WARNING 6
/* Caller error: buffer missing or too small, bad arguments. */
#define IC_ERR_ARGUMENT 7
#define IC_ERR_NO_MEMORY 8
/* A valid file using a feature the decoder does not read (an animated WebP, a HEIF without a decodable
   primary image). */
#define IC_ERR_UNSUPPORTED 9

#define IC_MESSAGE_MAX 256
#define IC_MAX_WARNINGS 4

/* ic_decode_params.grey_channel */
#define IC_GREY_LUMA 0
#define IC_GREY_BRIGHTEST 1
#define IC_GREY_DARKEST 2

typedef struct ic_decode_params {
    /* 0 = full size. JPEG only: largest DCT scale 1/1, 1/2, 1/4, 1/8 keeping the long side >= this. */
    int min_long_side;
    int max_dimension;
    long long max_pixels;
    /* Non-zero: any library warning fails the decode. */
    int strict;
    /* How a colour pixel becomes gray: IC_GREY_LUMA (0), its luma; IC_GREY_BRIGHTEST, the brightest of its
       red, green and blue (a coloured digit on a dark screen as bright as a white one); IC_GREY_DARKEST, the
       darkest of them (a yellow, green or cyan digit on a light screen as dark as a black one). A gray file
       gives its gray whatever this says. */
    int grey_channel;
} ic_decode_params;

typedef struct ic_decode_result {
    int status;
    /* Size declared by the file header (before scaling). */
    int image_width;
    int image_height;
    /* Size of the decoded pixels (after DCT scaling); the buffer must hold width * height bytes. */
    int output_width;
    int output_height;
    int scale_denom;
    /* Total warnings the library emitted, and how many distinct texts are kept in warnings[]. */
    int warning_count;
    int stored_warnings;
    /* Set when the data ended before the image's end (a JPEG's "Premature end of JPEG file"): the missing
       part was filled in. Other warnings leave an image that is whole. */
    int cut_short;
    /* NUL-terminated error text when status is an error. */
    char message[IC_MESSAGE_MAX];
    char warnings[IC_MAX_WARNINGS][IC_MESSAGE_MAX];
} ic_decode_result;

/*
 * Decodes a JPEG to 8-bit gray (JCS_GRAYSCALE, i.e. the Y channel of YCbCr data; with a grey_channel other
 * than IC_GREY_LUMA, decoded to RGB and each pixel's brightest or darkest channel kept).
 * Call once with out == NULL: reads the header, checks the limits, picks the scale, fills the sizes
 * and returns IC_NEED_BUFFER (nothing pixel-sized has been allocated). Then call again with a buffer of
 * at least output_width * output_height bytes: returns IC_OK with rows written top to bottom, no padding.
 */
int ic_jpeg_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                   uint8_t *out, size_t out_capacity, ic_decode_result *result);

/*
 * Same protocol for PNG through libpng's simplified API: PNG_FORMAT_GRAY output, alpha composited over
 * white, 16-bit reduced to 8-bit, palette and gray+alpha expanded. min_long_side is ignored (scale 1).
 */
int ic_png_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                  uint8_t *out, size_t out_capacity, ic_decode_result *result);

/*
 * Same protocol for WebP (lossy and lossless, still images): the Y plane of the decoder's YUV output,
 * expanded from video range to full range like JPEG's Y, alpha composited over white. min_long_side is
 * ignored (scale 1). An animated WebP is IC_ERR_UNSUPPORTED. The EXIF chunk is not read here.
 */
int ic_webp_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                   uint8_t *out, size_t out_capacity, ic_decode_result *result);

/*
 * Same protocol for HEIF (HEIC from phones; AVIF where libheif has a decoder for it): the primary image,
 * with the container's rotation, mirror and crop properties applied (HEIF makes them part of the image,
 * so its sizes are the upright ones and an EXIF orientation inside must not be applied again). Output is
 * the luma plane (video range expanded when the stream says so), 10-bit and deeper reduced to 8,
 * alpha composited over white. min_long_side is ignored (scale 1). Tiles are decoded on the calling
 * thread: callers that read several images at once already use the cores.
 */
int ic_heif_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                   uint8_t *out, size_t out_capacity, ic_decode_result *result);

/*
 * Encoders. On IC_OK *out is a malloc'ed buffer of *out_size bytes, to be released with ic_free.
 * On error *out is NULL and message holds a NUL-terminated text.
 * components: 1 (gray) or 3 (RGB, interleaved). quality 1...100.
 */
int ic_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size);

/* 8-bit gray PNG via png_image_write_to_memory. */
int ic_png_encode_gray(const uint8_t *pixels, int width, int height,
                       uint8_t **out, size_t *out_size, char *message, size_t message_size);

void ic_free(void *pointer);

#endif
