/*
 * libFuzzer harness for one decoder of the C shim (Sources/CImageCodecs), driven as ImageDecoder.swift drives
 * it: a header-only call, then a decode into a buffer of exactly the reported size. Compile with one of
 * -DFUZZ_JPEG, -DFUZZ_PNG, -DFUZZ_WEBP, -DFUZZ_HEIF (Scripts/fuzz.sh does, with -fsanitize=fuzzer,address).
 *
 * The limits are lower than the app's defaults so that a header declaring a huge but allowed image does not
 * make every run allocate hundreds of megabytes; the code paths are the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image_codecs.h"

#if defined(FUZZ_JPEG)
#define DECODE ic_jpeg_decode
#elif defined(FUZZ_PNG)
#define DECODE ic_png_decode
#elif defined(FUZZ_WEBP)
#define DECODE ic_webp_decode
#elif defined(FUZZ_HEIF)
#define DECODE ic_heif_decode
#else
#error "define one of FUZZ_JPEG, FUZZ_PNG, FUZZ_WEBP, FUZZ_HEIF"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The first byte picks the options, as a caller might: strict or not, (JPEG) a DCT scale, luma or the
       brightest or darkest channel. */
    ic_decode_params params = {0, 4096, 4 * 1024 * 1024, 0, 0};
    if (size > 0) {
        params.strict = data[0] & 1;
        params.min_long_side = (data[0] & 2) ? 64 : 0;
        params.grey_channel = (data[0] & 4) ? ((data[0] & 8) ? IC_GREY_DARKEST : IC_GREY_BRIGHTEST) : IC_GREY_LUMA;
    }
    ic_decode_result result;
    int status = DECODE(data, size, &params, NULL, 0, &result);
    if (status != IC_NEED_BUFFER) return 0;
    size_t needed = (size_t)result.output_width * (size_t)result.output_height;
    if (result.output_width <= 0 || result.output_height <= 0 || needed > (size_t)params.max_pixels) abort();
    uint8_t *pixels = malloc(needed);
    if (pixels == NULL) return 0;
    status = DECODE(data, size, &params, pixels, needed, &result);
    /* A decode that succeeds must have written the size it announced. */
    if (status == IC_OK && (size_t)result.output_width * (size_t)result.output_height != needed) abort();
    /* Touch every pixel so ASan sees a read of any byte the decoder left unwritten outside the buffer. */
    volatile uint8_t sum = 0;
    if (status == IC_OK) for (size_t i = 0; i < needed; i++) sum ^= pixels[i];
    free(pixels);
    return 0;
}
