#include "image_codecs.h"
#include "codec_common.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jpeglib.h uses size_t and FILE without including their headers (hence stdio.h above). */
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

void ic_free(void *pointer) { free(pointer); }

/* ------------------------------------------------------------------------------------------------ */
/* libjpeg error handling                                                                             */

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int strict;
    int saw_eof;           /* "Premature end of JPEG file": the data was cut short */
    int failed_on_warning; /* strict mode turned a warning into the failure */
    ic_decode_result *result; /* where warnings go; NULL when encoding */
    char message[JMSG_LENGTH_MAX];
} ic_jpeg_error_mgr;

/* The default error_exit prints and calls exit(); we format the text and jump back to the one setjmp in
   the calling codec function, which destroys the libjpeg object and returns a status. */
static void ic_jpeg_error_exit(j_common_ptr cinfo) {
    ic_jpeg_error_mgr *err = (ic_jpeg_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

/* level -1 is a warning (corrupt or truncated data that libjpeg works around); >= 0 are trace messages. */
static void ic_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;
    ic_jpeg_error_mgr *err = (ic_jpeg_error_mgr *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    cinfo->err->num_warnings++;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) err->saw_eof = 1;
    if (err->result) ic_record_warning(err->result, text);
    if (err->strict) {
        ic_copy_text(err->message, sizeof err->message, text);
        err->failed_on_warning = 1;
        longjmp(err->jump, 1);
    }
}

/* Nothing may go to stderr from a library call. */
static void ic_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void ic_jpeg_init_error(ic_jpeg_error_mgr *err, int strict, ic_decode_result *result) {
    memset(err, 0, sizeof *err);
    jpeg_std_error(&err->pub);
    err->pub.error_exit = ic_jpeg_error_exit;
    err->pub.emit_message = ic_jpeg_emit_message;
    err->pub.output_message = ic_jpeg_output_message;
    err->strict = strict;
    err->result = result;
}

static int classify_jpeg_failure(const ic_jpeg_error_mgr *err) {
    /* A cut-off file usually surfaces as a later error ("JPEG datastream contains no image", ...);
       the EOF warning that preceded it is the real cause. */
    if (err->saw_eof) return IC_ERR_TRUNCATED;
    if (err->failed_on_warning) return IC_ERR_STRICT_WARNING;
    switch (err->pub.msg_code) {
    case JERR_EMPTY_IMAGE: return IC_ERR_EMPTY_IMAGE;
    case JERR_INPUT_EMPTY: return IC_ERR_TRUNCATED;
    case JERR_OUT_OF_MEMORY: return IC_ERR_NO_MEMORY;
    default: return IC_ERR_CORRUPT;
    }
}

/* Adobe CMYK/YCCK JPEGs cannot be converted to gray by libjpeg; we take CMYK and compute luminance.
   Adobe writers store inverted CMYK (saw_Adobe_marker), i.e. the stored value is already 255 - ink. */
static void cmyk_row_to_gray(const JSAMPLE *cmyk, uint8_t *gray, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++, cmyk += 4) {
        unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        unsigned r = c * k / 255, g = m * k / 255, b = y * k / 255;
        gray[x] = (uint8_t)((77 * r + 150 * g + 29 * b + 128) >> 8);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* JPEG decode                                                                                        */

int ic_jpeg_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                   uint8_t *out, size_t out_capacity, ic_decode_result *result) {
    int refused = ic_start_decode(data, size, params, result, "JPEG");
    if (refused) return refused;

    /* Both live in this frame and are only modified through pointers by libjpeg, so their contents are
       valid after longjmp (the classic libjpeg example.c pattern). */
    struct jpeg_decompress_struct cinfo;
    ic_jpeg_error_mgr err;
    memset(&cinfo, 0, sizeof cinfo); /* jpeg_destroy on a half-created object must see mem == NULL */
    ic_jpeg_init_error(&err, params->strict, result);
    cinfo.err = &err.pub;

    if (setjmp(err.jump)) {
        int status = classify_jpeg_failure(&err);
        if (result->image_width == 0 && result->image_height == 0) {
            result->image_width = (int)cinfo.image_width;
            result->image_height = (int)cinfo.image_height;
        }
        jpeg_destroy_decompress(&cinfo);
        return ic_fail(result, status, err.message);
    }

    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);

    result->image_width = (int)cinfo.image_width;
    result->image_height = (int)cinfo.image_height;
    if (cinfo.image_width == 0 || cinfo.image_height == 0) {
        jpeg_destroy_decompress(&cinfo);
        return ic_fail(result, IC_ERR_EMPTY_IMAGE, "JPEG header declares an empty image");
    }
    if (ic_exceeds_limits(cinfo.image_width, cinfo.image_height, params)) {
        jpeg_destroy_decompress(&cinfo);
        return ic_fail(result, IC_ERR_TOO_LARGE, "JPEG header declares an image above the size limits");
    }

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    /* A channel for gray needs the colours; a gray JPEG has none and is read as it is. */
    int channel = params->grey_channel != IC_GREY_LUMA && !cmyk && cinfo.jpeg_color_space != JCS_GRAYSCALE;
    /* Grayscale output of YCbCr data just keeps Y: cheaper than decoding to RGB. */
    cinfo.out_color_space = cmyk ? JCS_CMYK : channel ? JCS_RGB : JCS_GRAYSCALE;

    /* Largest DCT reduction whose output still meets the requested long side. */
    int denom = 1;
    if (params->min_long_side > 0) {
        static const int candidates[] = {8, 4, 2};
        for (int i = 0; i < 3; i++) {
            cinfo.scale_num = 1;
            cinfo.scale_denom = (unsigned)candidates[i];
            jpeg_calc_output_dimensions(&cinfo);
            JDIMENSION long_side = cinfo.output_width > cinfo.output_height ? cinfo.output_width
                                                                            : cinfo.output_height;
            if ((long long)long_side >= params->min_long_side) {
                denom = candidates[i];
                break;
            }
        }
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned)denom;
    jpeg_calc_output_dimensions(&cinfo);
    result->scale_denom = denom;
    result->output_width = (int)cinfo.output_width;
    result->output_height = (int)cinfo.output_height;

    if (out == NULL) {
        jpeg_destroy_decompress(&cinfo);
        result->status = IC_NEED_BUFFER;
        return IC_NEED_BUFFER;
    }
    size_t needed = (size_t)cinfo.output_width * (size_t)cinfo.output_height;
    if (out_capacity < needed) {
        jpeg_destroy_decompress(&cinfo);
        return ic_fail(result, IC_ERR_ARGUMENT, "output buffer too small");
    }

    jpeg_start_decompress(&cinfo);
    size_t width = cinfo.output_width;
    JSAMPARRAY cmyk_row = NULL;
    if (cmyk || channel) {
        /* Pool memory: released by jpeg_destroy_decompress on every path. */
        cmyk_row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                              cinfo.output_width * 4, 1);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION y = cinfo.output_scanline;
        JDIMENSION got;
        if (cmyk) {
            got = jpeg_read_scanlines(&cinfo, cmyk_row, 1);
            if (got == 1) cmyk_row_to_gray(cmyk_row[0], out + (size_t)y * width, cinfo.output_width,
                                           cinfo.saw_Adobe_marker);
        } else if (channel) {
            got = jpeg_read_scanlines(&cinfo, cmyk_row, 1);
            if (got == 1) ic_channel_of_pixels(params->grey_channel, cmyk_row[0], 3, out + (size_t)y * width, width);
        } else {
            /* Rows go straight into the caller's buffer: no intermediate copy. */
            JSAMPROW rows[16];
            JDIMENSION n = cinfo.output_height - y;
            if (n > 16) n = 16;
            for (JDIMENSION i = 0; i < n; i++) rows[i] = out + (size_t)(y + i) * width;
            got = jpeg_read_scanlines(&cinfo, rows, n);
        }
        if (got == 0) {
            /* Cannot happen with the memory source (it never suspends); guard against a busy loop. */
            jpeg_destroy_decompress(&cinfo);
            return ic_fail(result, IC_ERR_CORRUPT, "JPEG decoder made no progress");
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    /* The file ended before its end marker: what is missing was filled in grey. Other warnings (a scan
       that ends early at a marker, extraneous bytes) leave an image that viewers show whole. */
    result->cut_short = err.saw_eof;
    result->status = IC_OK;
    return IC_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* PNG decode                                                                                         */

static uint32_t read_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* libpng reports bad IHDR sizes only as "Invalid IHDR data" (the specific text is a warning that the
   error replaces), and sizes above its own 1,000,000 limit never reach our check, so look at IHDR
   ourselves to tell "empty" and "too large" apart from other corruption. */
static int classify_png_failure(const uint8_t *data, size_t size, const char *message,
                                const ic_decode_params *params, ic_decode_result *result) {
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t w = read_be32(data + 16), h = read_be32(data + 20);
        if (result->image_width == 0 && result->image_height == 0 && w <= 0x7fffffffu &&
            h <= 0x7fffffffu) {
            result->image_width = (int)w;
            result->image_height = (int)h;
        }
        if (w == 0 || h == 0) return IC_ERR_EMPTY_IMAGE;
        if (ic_exceeds_limits(w, h, params)) return IC_ERR_TOO_LARGE;
    }
    /* The memory reader's error when the data runs out, or IDAT ending early. */
    if (strstr(message, "end of data") || strstr(message, "Not enough image data") ||
        strstr(message, "Read Error") || strstr(message, "unexpected end"))
        return IC_ERR_TRUNCATED;
    if (strstr(message, "out of memory") || strstr(message, "Out of memory"))
        return IC_ERR_NO_MEMORY;
    return IC_ERR_CORRUPT;
}

int ic_png_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                  uint8_t *out, size_t out_capacity, ic_decode_result *result) {
    int refused = ic_start_decode(data, size, params, result, "PNG");
    if (refused) return refused;

    /* The simplified API catches libpng's longjmp internally and reports through image.message. */
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;

    if (!png_image_begin_read_from_memory(&image, data, size)) {
        char message[IC_MESSAGE_MAX];
        ic_copy_text(message, sizeof message, image.message);
        png_image_free(&image);
        return ic_fail(result, classify_png_failure(data, size, message, params, result), message);
    }
    result->image_width = (int)image.width;
    result->image_height = (int)image.height;
    result->output_width = (int)image.width;
    result->output_height = (int)image.height;
    if (image.width == 0 || image.height == 0) {
        png_image_free(&image);
        return ic_fail(result, IC_ERR_EMPTY_IMAGE, "PNG header declares an empty image");
    }
    if (ic_exceeds_limits(image.width, image.height, params)) {
        png_image_free(&image);
        return ic_fail(result, IC_ERR_TOO_LARGE, "PNG header declares an image above the size limits");
    }
    if (image.warning_or_error & PNG_IMAGE_WARNING) {
        ic_record_warning(result, image.message);
        if (params->strict) {
            char message[IC_MESSAGE_MAX];
            ic_copy_text(message, sizeof message, image.message);
            png_image_free(&image);
            return ic_fail(result, IC_ERR_STRICT_WARNING, message);
        }
    }
    if (out == NULL) {
        png_image_free(&image);
        result->status = IC_NEED_BUFFER;
        return IC_NEED_BUFFER;
    }

    if (out_capacity < (size_t)image.width * (size_t)image.height) {
        png_image_free(&image);
        return ic_fail(result, IC_ERR_ARGUMENT, "output buffer too small");
    }
    /* A channel for gray needs the colours: read as RGB into scratch, then reduced into out. */
    int channel = params->grey_channel != IC_GREY_LUMA && (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
    image.format = channel ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    /* 16-bit data without gAMA/sRGB would otherwise be taken as linear light and come out much too
       bright; viewers treat it as sRGB, so do we. */
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    uint8_t *rgb = NULL;
    if (channel) {
        rgb = malloc(PNG_IMAGE_SIZE(image));
        if (rgb == NULL) {
            png_image_free(&image);
            return ic_fail(result, IC_ERR_NO_MEMORY, "out of memory for the PNG's colours");
        }
    }
    int had_warning = (image.warning_or_error & PNG_IMAGE_WARNING) != 0;
    /* White background: transparent areas of a screenshot or scan read as paper, not as black ink. */
    png_color white = {255, 255, 255};
    int ok = png_image_finish_read(&image, &white, channel ? rgb : out, 0 /* stride = width */, NULL);
    if (channel) {
        if (ok) ic_channel_of_pixels(params->grey_channel, rgb, 3, out, (size_t)image.width * (size_t)image.height);
        free(rgb);
    }
    char message[IC_MESSAGE_MAX];
    ic_copy_text(message, sizeof message, image.message);
    int warning_now = (image.warning_or_error & PNG_IMAGE_WARNING) != 0;
    png_image_free(&image); /* finish_read already freed; calling again is harmless */
    if (!ok) return ic_fail(result, classify_png_failure(data, size, message, params, result), message);
    if (warning_now && !had_warning) {
        ic_record_warning(result, message);
        if (params->strict) return ic_fail(result, IC_ERR_STRICT_WARNING, message);
    }
    result->status = IC_OK;
    return IC_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* JPEG encode                                                                                        */

/* Our own growable memory destination. libjpeg's jpeg_mem_dest keeps its current buffer private until
   jpeg_finish_compress, so after an error we could neither free it nor avoid a leak; here the buffer
   pointer is always ours. */
typedef struct {
    struct jpeg_destination_mgr pub;
    unsigned char *buffer;
    size_t capacity;
    size_t length;
} ic_mem_dest;

static void ic_dest_init(j_compress_ptr cinfo) {
    ic_mem_dest *d = (ic_mem_dest *)cinfo->dest;
    if (d->buffer == NULL) {
        d->buffer = (unsigned char *)malloc(d->capacity);
        if (d->buffer == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 100);
    }
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = d->capacity;
}

/* Called when the whole buffer is full: double it. */
static boolean ic_dest_empty(j_compress_ptr cinfo) {
    ic_mem_dest *d = (ic_mem_dest *)cinfo->dest;
    size_t grown = d->capacity * 2;
    unsigned char *bigger = (unsigned char *)realloc(d->buffer, grown);
    if (bigger == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 101); /* old buffer still ours to free */
    d->buffer = bigger;
    d->pub.next_output_byte = bigger + d->capacity;
    d->pub.free_in_buffer = grown - d->capacity;
    d->capacity = grown;
    return TRUE;
}

static void ic_dest_term(j_compress_ptr cinfo) {
    ic_mem_dest *d = (ic_mem_dest *)cinfo->dest;
    d->length = d->capacity - d->pub.free_in_buffer;
}

int ic_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    if (out == NULL || out_size == NULL) return IC_ERR_ARGUMENT;
    *out = NULL;
    *out_size = 0;
    ic_copy_text(message, message_size, "");
    if (pixels == NULL || width <= 0 || height <= 0 || (components != 1 && components != 3)) {
        ic_copy_text(message, message_size, "invalid image for JPEG encoding");
        return IC_ERR_ARGUMENT;
    }
    if (quality < 1) quality = 1;
    if (quality > 100) quality = 100;

    struct jpeg_compress_struct cinfo;
    ic_jpeg_error_mgr err;
    ic_mem_dest dest;
    memset(&cinfo, 0, sizeof cinfo);
    memset(&dest, 0, sizeof dest);
    ic_jpeg_init_error(&err, 0, NULL);
    cinfo.err = &err.pub;
    /* Rough guess that avoids most regrowth: a quarter of the raw size. */
    dest.capacity = (size_t)width * (size_t)height * (size_t)components / 4 + 4096;
    dest.pub.init_destination = ic_dest_init;
    dest.pub.empty_output_buffer = ic_dest_empty;
    dest.pub.term_destination = ic_dest_term;

    if (setjmp(err.jump)) {
        ic_copy_text(message, message_size, err.message);
        jpeg_destroy_compress(&cinfo);
        free(dest.buffer);
        return err.pub.msg_code == JERR_OUT_OF_MEMORY ? IC_ERR_NO_MEMORY : IC_ERR_ARGUMENT;
    }

    jpeg_create_compress(&cinfo);
    cinfo.dest = &dest.pub;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    size_t row_bytes = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[16];
        JDIMENSION y = cinfo.next_scanline;
        JDIMENSION n = cinfo.image_height - y;
        if (n > 16) n = 16;
        /* libjpeg only reads the rows; the API just lacks const. */
        for (JDIMENSION i = 0; i < n; i++) rows[i] = (JSAMPROW)(pixels + (size_t)(y + i) * row_bytes);
        jpeg_write_scanlines(&cinfo, rows, n);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = dest.buffer;
    *out_size = dest.length;
    return IC_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* PNG encode                                                                                         */

int ic_png_encode_gray(const uint8_t *pixels, int width, int height,
                       uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    if (out == NULL || out_size == NULL) return IC_ERR_ARGUMENT;
    *out = NULL;
    *out_size = 0;
    ic_copy_text(message, message_size, "");
    if (pixels == NULL || width <= 0 || height <= 0) {
        ic_copy_text(message, message_size, "invalid image for PNG encoding");
        return IC_ERR_ARGUMENT;
    }

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = PNG_FORMAT_GRAY;

    /* The worst-case bound lets us compress once instead of measuring with a first pass. */
    png_alloc_size_t capacity = PNG_IMAGE_PNG_SIZE_MAX(image);
    for (int attempt = 0; attempt < 2; attempt++) {
        uint8_t *buffer = (uint8_t *)malloc(capacity);
        if (buffer == NULL) {
            ic_copy_text(message, message_size, "out of memory");
            return IC_ERR_NO_MEMORY;
        }
        png_alloc_size_t written = capacity;
        if (png_image_write_to_memory(&image, buffer, &written, 0, pixels, 0, NULL)) {
            png_image_free(&image);
            *out = buffer;
            *out_size = written;
            return IC_OK;
        }
        free(buffer);
        if (written > capacity) { /* bound too small: libpng tells us the real size; retry once */
            capacity = written;
            png_image_free(&image);
            image.warning_or_error = 0;
            continue;
        }
        ic_copy_text(message, message_size, image.message);
        png_image_free(&image);
        return IC_ERR_ARGUMENT;
    }
    ic_copy_text(message, message_size, "PNG encoder needed more memory than it reported");
    png_image_free(&image);
    return IC_ERR_NO_MEMORY;
}
