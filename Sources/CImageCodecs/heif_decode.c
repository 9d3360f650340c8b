#include "image_codecs.h"
#include "codec_common.h"

#include <stdio.h>
#include <string.h>

#include <libheif/heif.h>

/* libheif's error classes as the shim's status codes. A file cut short shows as "end of data" while the
   boxes are parsed, or as a decoder error when the cut falls inside the coded image. */
static int heif_failure(ic_decode_result *result, struct heif_error error, const char *during) {
    char message[IC_MESSAGE_MAX];
    snprintf(message, sizeof message, "%s (%s)", error.message ? error.message : "libheif error", during);
    if (error.subcode == heif_suberror_End_of_data) return ic_fail(result, IC_ERR_TRUNCATED, message);
    if (error.subcode == heif_suberror_Security_limit_exceeded) return ic_fail(result, IC_ERR_TOO_LARGE, message);
    switch (error.code) {
    case heif_error_Memory_allocation_error: return ic_fail(result, IC_ERR_NO_MEMORY, message);
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature: return ic_fail(result, IC_ERR_UNSUPPORTED, message);
    case heif_error_Usage_error: return ic_fail(result, IC_ERR_ARGUMENT, message);
    default: return ic_fail(result, IC_ERR_CORRUPT, message);
    }
}

/* Whether the coded luma is video range (16...235), from the image's colour description, else the
   item's; full range when neither says (libheif writes full range, and so do phones). */
static int is_video_range(const struct heif_image *image, const struct heif_image_handle *handle) {
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_error error = heif_image_get_nclx_color_profile(image, &nclx);
    if (error.code != heif_error_Ok || nclx == NULL) {
        nclx = NULL;
        error = heif_image_handle_get_nclx_color_profile(handle, &nclx);
        if (error.code != heif_error_Ok) nclx = NULL;
    }
    int video = nclx != NULL && !nclx->full_range_flag;
    heif_nclx_color_profile_free(nclx);
    return video;
}

/* One 8-bit value of a plane whose samples are `bits` deep (16-bit little-endian words above 8 bits). */
static inline uint8_t sample8(const uint8_t *row, int x, int bits) {
    if (bits <= 8) return row[x];
    uint16_t value;
    memcpy(&value, row + 2 * (size_t)x, sizeof value);
    unsigned shifted = (unsigned)value >> (bits - 8);
    return (uint8_t)(shifted > 255 ? 255 : shifted);
}

/* Writes the gray image into out from a decoded image in its own colour space: Y of YCbCr, the only plane
   of monochrome, luminance of RGB (with `grey_channel`, the channel it picks); alpha composited over white when
   there is any. The decoded planes are
   checked to be at least the declared size first. */
static int copy_gray(const struct heif_image *image, int video_range, int grey_channel, uint8_t *out, int width,
                     int height, ic_decode_result *result) {
    enum heif_colorspace space = heif_image_get_colorspace(image);
    enum heif_chroma chroma = heif_image_get_chroma_format(image);
    int alpha_stride = 0, alpha_bits = 0;
    const uint8_t *alpha = NULL;
    if (heif_image_has_channel(image, heif_channel_Alpha)) {
        alpha = heif_image_get_plane_readonly(image, heif_channel_Alpha, &alpha_stride);
        alpha_bits = heif_image_get_bits_per_pixel_range(image, heif_channel_Alpha);
        if (alpha == NULL || alpha_bits <= 0 || alpha_bits > 16 ||
            heif_image_get_width(image, heif_channel_Alpha) < width ||
            heif_image_get_height(image, heif_channel_Alpha) < height)
            return ic_fail(result, IC_ERR_CORRUPT, "HEIF alpha plane smaller than the image");
    }

    if (space == heif_colorspace_YCbCr || space == heif_colorspace_monochrome) {
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride);
        int bits = heif_image_get_bits_per_pixel_range(image, heif_channel_Y);
        if (plane == NULL || bits <= 0 || bits > 16 || heif_image_get_width(image, heif_channel_Y) < width ||
            heif_image_get_height(image, heif_channel_Y) < height)
            return ic_fail(result, IC_ERR_CORRUPT, "HEIF image has no luma plane of its declared size");
        for (int y = 0; y < height; y++) {
            const uint8_t *row = plane + (size_t)y * (size_t)stride;
            const uint8_t *alpha_row = alpha ? alpha + (size_t)y * (size_t)alpha_stride : NULL;
            uint8_t *target = out + (size_t)y * (size_t)width;
            for (int x = 0; x < width; x++) {
                uint8_t gray = sample8(row, x, bits);
                if (video_range) gray = ic_expand_limited_luma(gray);
                if (alpha_row) gray = ic_over_white(gray, sample8(alpha_row, x, alpha_bits));
                target[x] = gray;
            }
        }
        return IC_OK;
    }
    if (space == heif_colorspace_RGB && (chroma == heif_chroma_interleaved_RGB || chroma == heif_chroma_interleaved_RGBA)) {
        int stride = 0, channels = chroma == heif_chroma_interleaved_RGBA ? 4 : 3;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        if (plane == NULL || heif_image_get_width(image, heif_channel_interleaved) < width ||
            heif_image_get_height(image, heif_channel_interleaved) < height)
            return ic_fail(result, IC_ERR_CORRUPT, "HEIF image has no pixel plane of its declared size");
        for (int y = 0; y < height; y++) {
            const uint8_t *p = plane + (size_t)y * (size_t)stride;
            uint8_t *target = out + (size_t)y * (size_t)width;
            for (int x = 0; x < width; x++, p += channels) {
                uint8_t gray = grey_channel != IC_GREY_LUMA ? ic_channel(grey_channel, p[0], p[1], p[2])
                                         : (uint8_t)((77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8);
                target[x] = channels == 4 ? ic_over_white(gray, p[3]) : gray;
            }
        }
        return IC_OK;
    }
    return ic_fail(result, IC_ERR_UNSUPPORTED, "HEIF image in a colour layout the shim does not read");
}

int ic_heif_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                   uint8_t *out, size_t out_capacity, ic_decode_result *result) {
    int refused = ic_start_decode(data, size, params, result, "HEIF");
    if (refused) return refused;

    struct heif_context *context = heif_context_alloc();
    if (context == NULL) return ic_fail(result, IC_ERR_NO_MEMORY, "out of memory for a HEIF context");
    /* libheif's own refusal of huge images, besides ours below (which also bounds the pixel count). */
    heif_context_set_maximum_image_size_limit(context, params->max_dimension);
    heif_context_set_max_decoding_threads(context, 0);

    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = NULL;
    int status;

    /* The boxes only (no coded data is decoded): sizes and properties. */
    struct heif_error error = heif_context_read_from_memory_without_copy(context, data, size, NULL);
    if (error.code != heif_error_Ok) { status = heif_failure(result, error, "reading the boxes"); goto done; }
    error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) { status = heif_failure(result, error, "finding the primary image"); goto done; }

    /* The size with rotation and crop applied: what decoding yields. */
    int width = heif_image_handle_get_width(handle), height = heif_image_handle_get_height(handle);
    result->image_width = width;
    result->image_height = height;
    result->output_width = width;
    result->output_height = height;
    if (width <= 0 || height <= 0) {
        status = ic_fail(result, IC_ERR_EMPTY_IMAGE, "HEIF header declares an empty image");
        goto done;
    }
    if (ic_exceeds_limits(width, height, params)) {
        status = ic_fail(result, IC_ERR_TOO_LARGE, "HEIF header declares an image above the size limits");
        goto done;
    }
    if (out == NULL) {
        result->status = status = IC_NEED_BUFFER;
        goto done;
    }
    if (out_capacity < (size_t)width * (size_t)height) {
        status = ic_fail(result, IC_ERR_ARGUMENT, "output buffer too small");
        goto done;
    }

    options = heif_decoding_options_alloc();
    if (options == NULL) { status = ic_fail(result, IC_ERR_NO_MEMORY, "out of memory for decoding options"); goto done; }
    options->strict_decoding = params->strict ? 1 : 0;
    /* The coded colour space as it is: Y of YCbCr needs no conversion at all. */
    error = heif_decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, options);
    if (error.code != heif_error_Ok) { status = heif_failure(result, error, "decoding"); goto done; }
    int channel = params->grey_channel != IC_GREY_LUMA &&
                  heif_image_get_colorspace(image) != heif_colorspace_monochrome;
    if (channel || (heif_image_get_colorspace(image) == heif_colorspace_RGB &&
                      heif_image_get_chroma_format(image) == heif_chroma_444)) {
        /* Planar RGB, or the colours of YCbCr for a channel as gray: have libheif interleave it to 8 bits
           rather than handling every layout here. */
        heif_image_release(image);
        image = NULL;
        options->convert_hdr_to_8bit = 1;
        error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
        if (error.code != heif_error_Ok) { status = heif_failure(result, error, "decoding to RGB"); goto done; }
    }
    status = copy_gray(image, is_video_range(image, handle), channel ? params->grey_channel : IC_GREY_LUMA, out, width,
                       height, result);
    if (status == IC_OK) result->status = IC_OK;

done:
    if (image) heif_image_release(image);
    if (options) heif_decoding_options_free(options);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}
