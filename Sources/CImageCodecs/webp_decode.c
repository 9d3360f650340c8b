#include "image_codecs.h"
#include "codec_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>

/* libwebp's status codes as the shim's, with a text for the user. */
static int webp_failure(ic_decode_result *result, VP8StatusCode status, const char *during) {
    int code = IC_ERR_CORRUPT;
    const char *what = "bad WebP bitstream";
    switch (status) {
    case VP8_STATUS_NOT_ENOUGH_DATA: code = IC_ERR_TRUNCATED; what = "WebP data ends early"; break;
    case VP8_STATUS_OUT_OF_MEMORY: code = IC_ERR_NO_MEMORY; what = "out of memory"; break;
    case VP8_STATUS_UNSUPPORTED_FEATURE: code = IC_ERR_UNSUPPORTED; what = "unsupported WebP feature"; break;
    case VP8_STATUS_INVALID_PARAM: code = IC_ERR_ARGUMENT; what = "invalid decoder parameter"; break;
    default: break;
    }
    char message[IC_MESSAGE_MAX];
    if (code == IC_ERR_CORRUPT)
        snprintf(message, sizeof message, "%s (%s, libwebp status %d)", what, during, (int)status);
    else
        snprintf(message, sizeof message, "%s (%s)", what, during);
    return ic_fail(result, code, message);
}

/* One channel of each pixel as its gray (`grey_channel`): decoded to RGB(A) in scratch, then reduced into out
   (alpha composited over white). */
static int webp_decode_channel(const uint8_t *data, size_t size, int grey_channel, int has_alpha, size_t width,
                               size_t height, uint8_t *out, ic_decode_result *result) {
    int channels = has_alpha ? 4 : 3;
    uint8_t *rgb = malloc(width * height * (size_t)channels);
    if (rgb == NULL) return ic_fail(result, IC_ERR_NO_MEMORY, "out of memory for the WebP's colours");
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        free(rgb);
        return ic_fail(result, IC_ERR_ARGUMENT, "libwebp version mismatch");
    }
    config.output.colorspace = has_alpha ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = rgb;
    config.output.u.RGBA.stride = (int)(width * (size_t)channels);
    config.output.u.RGBA.size = width * height * (size_t)channels;
    VP8StatusCode status = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output); /* external memory: frees nothing of ours */
    if (status != VP8_STATUS_OK) {
        free(rgb);
        return webp_failure(result, status, "decoding");
    }
    ic_channel_of_pixels(grey_channel, rgb, channels, out, width * height);
    free(rgb);
    result->status = IC_OK;
    return IC_OK;
}

int ic_webp_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                   uint8_t *out, size_t out_capacity, ic_decode_result *result) {
    int refused = ic_start_decode(data, size, params, result, "WebP");
    if (refused) return refused;

    /* Header only: the RIFF chunks up to the frame header, no pixel memory. */
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(data, size, &features);
    if (status != VP8_STATUS_OK) return webp_failure(result, status, "reading the header");
    result->image_width = features.width;
    result->image_height = features.height;
    result->output_width = features.width;
    result->output_height = features.height;
    if (features.width <= 0 || features.height <= 0)
        return ic_fail(result, IC_ERR_EMPTY_IMAGE, "WebP header declares an empty image");
    if (ic_exceeds_limits(features.width, features.height, params))
        return ic_fail(result, IC_ERR_TOO_LARGE, "WebP header declares an image above the size limits");
    if (features.has_animation)
        return ic_fail(result, IC_ERR_UNSUPPORTED, "animated WebP: only still images are read");
    if (out == NULL) {
        result->status = IC_NEED_BUFFER;
        return IC_NEED_BUFFER;
    }

    size_t width = (size_t)features.width, height = (size_t)features.height;
    if (out_capacity < width * height) return ic_fail(result, IC_ERR_ARGUMENT, "output buffer too small");
    if (params->grey_channel != IC_GREY_LUMA)
        return webp_decode_channel(data, size, params->grey_channel, features.has_alpha, width, height, out, result);

    /* Y goes straight into the caller's buffer; the chroma planes (a quarter each) and alpha are scratch. */
    size_t chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    size_t chroma_size = chroma_width * chroma_height;
    uint8_t *u = malloc(chroma_size), *v = malloc(chroma_size);
    uint8_t *alpha = features.has_alpha ? malloc(width * height) : NULL;
    if (u == NULL || v == NULL || (features.has_alpha && alpha == NULL)) {
        free(u); free(v); free(alpha);
        return ic_fail(result, IC_ERR_NO_MEMORY, "out of memory for the WebP chroma planes");
    }

    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        free(u); free(v); free(alpha);
        return ic_fail(result, IC_ERR_ARGUMENT, "libwebp version mismatch");
    }
    config.output.colorspace = features.has_alpha ? MODE_YUVA : MODE_YUV;
    config.output.is_external_memory = 1;
    WebPYUVABuffer *planes = &config.output.u.YUVA;
    planes->y = out;
    planes->y_stride = (int)width;
    planes->y_size = width * height;
    planes->u = u;
    planes->u_stride = (int)chroma_width;
    planes->u_size = chroma_size;
    planes->v = v;
    planes->v_stride = (int)chroma_width;
    planes->v_size = chroma_size;
    planes->a = alpha;
    planes->a_stride = alpha ? (int)width : 0;
    planes->a_size = alpha ? width * height : 0;

    status = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output); /* external memory: frees nothing of ours */
    free(u);
    free(v);
    if (status != VP8_STATUS_OK) {
        free(alpha);
        return webp_failure(result, status, "decoding");
    }

    size_t count = width * height;
    if (alpha) {
        for (size_t i = 0; i < count; i++) out[i] = ic_over_white(ic_expand_limited_luma(out[i]), alpha[i]);
        free(alpha);
    } else {
        for (size_t i = 0; i < count; i++) out[i] = ic_expand_limited_luma(out[i]);
    }
    result->status = IC_OK;
    return IC_OK;
}
