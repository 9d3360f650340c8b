/*
 * heif-orient IN.heic ORIENTATION OUT.heic: re-encodes IN's primary image with libheif, storing ORIENTATION
 * (an EXIF orientation value, 1-8) as the HEIF rotation/mirror properties (irot, imir), as a phone does.
 * heif-enc 1.15 writes none, so Scripts/make-format-samples.py builds this to make a turned HEIC sample.
 *
 *   cc -O2 -o heif-orient heif-orient.c $(pkg-config --cflags --libs libheif)
 */
#include <stdio.h>
#include <stdlib.h>

#include <libheif/heif.h>

static int check(struct heif_error error, const char *what) {
    if (error.code == heif_error_Ok) return 0;
    fprintf(stderr, "heif-orient: %s: %s\n", what, error.message);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: heif-orient IN.heic ORIENTATION(1-8) OUT.heic\n");
        return 64;
    }
    int orientation = atoi(argv[2]);
    if (orientation < 1 || orientation > 8) {
        fprintf(stderr, "heif-orient: orientation must be 1-8\n");
        return 64;
    }
    struct heif_context *in = heif_context_alloc(), *out = heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_encoder *encoder = NULL;
    if (check(heif_context_read_from_file(in, argv[1], NULL), "read") ||
        check(heif_context_get_primary_image_handle(in, &handle), "primary image") ||
        check(heif_decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, NULL), "decode") ||
        check(heif_context_get_encoder_for_format(out, heif_compression_HEVC, &encoder), "encoder") ||
        check(heif_encoder_set_lossy_quality(encoder, 60), "quality"))
        return 1;
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    options->image_orientation = (enum heif_orientation)orientation;
    if (check(heif_context_encode_image(out, image, encoder, options, NULL), "encode") ||
        check(heif_context_write_to_file(out, argv[3]), "write"))
        return 1;
    heif_encoding_options_free(options);
    heif_encoder_release(encoder);
    heif_image_release(image);
    heif_image_handle_release(handle);
    heif_context_free(in);
    heif_context_free(out);
    return 0;
}
