#include "codec_common.h"

#include <stdio.h>
#include <string.h>

void ic_copy_text(char *dst, size_t dst_size, const char *src) {
    if (dst == NULL || dst_size == 0) return;
    snprintf(dst, dst_size, "%s", src ? src : "");
}

/* Keeps distinct warning texts only: a damaged JPEG can emit the same warning hundreds of times. When the
   slots are full the last one is overwritten so the most recent message is always available. */
void ic_record_warning(ic_decode_result *r, const char *text) {
    r->warning_count++;
    for (int i = 0; i < r->stored_warnings; i++) {
        if (strcmp(r->warnings[i], text) == 0) return;
    }
    int slot = r->stored_warnings < IC_MAX_WARNINGS ? r->stored_warnings++ : IC_MAX_WARNINGS - 1;
    ic_copy_text(r->warnings[slot], IC_MESSAGE_MAX, text);
}

int ic_exceeds_limits(long long w, long long h, const ic_decode_params *p) {
    if (w > p->max_dimension || h > p->max_dimension) return 1;
    return w * h > p->max_pixels;
}

int ic_fail(ic_decode_result *r, int status, const char *message) {
    r->status = status;
    ic_copy_text(r->message, IC_MESSAGE_MAX, message);
    return status;
}

int ic_start_decode(const uint8_t *data, size_t size, const ic_decode_params *params,
                    ic_decode_result *result, const char *format) {
    if (result == NULL) return IC_ERR_ARGUMENT;
    memset(result, 0, sizeof *result);
    result->scale_denom = 1;
    if (data == NULL || params == NULL) return ic_fail(result, IC_ERR_ARGUMENT, "no input");
    if (size == 0) {
        char message[IC_MESSAGE_MAX];
        snprintf(message, sizeof message, "empty %s data", format);
        return ic_fail(result, IC_ERR_TRUNCATED, message);
    }
    return 0;
}
