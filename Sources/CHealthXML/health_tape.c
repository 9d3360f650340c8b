#include "health_tape.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Layout of one event, every number a native uint32_t:
 *   start: 'S', depth, name length, attribute count, the name's bytes, then for each attribute its name length,
 *          value length, name bytes and value bytes;
 *   end:   'E', depth.
 * Numbers are copied with memcpy: the bytes after a name are not aligned.
 */

enum { TAG_START = 'S', TAG_END = 'E' };

/* Bytes a new tape reserves: a quarter of a MB of XML records into less than this. */
#define HX_TAPE_FIRST_CAPACITY (512u << 10)
/* Attributes replayed without allocating (an export's elements have fewer than ten). */
#define HX_TAPE_STACK_ATTRIBUTES 32

struct hx_tape {
    unsigned char *bytes;
    /* Recorded; up to the end of the last top-level element; allocated. */
    size_t length, whole, capacity;
    int failed;
    /* Top-level Record, Correlation and Workout elements ended, and how many of the next ones to drop. */
    long long completed, skipping;
    /* The current top-level element is one of those; its events are being dropped. */
    int counted, dropping;
};

hx_tape *hx_tape_new(void) {
    hx_tape *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->bytes = malloc(HX_TAPE_FIRST_CAPACITY);
    if (!t->bytes) {
        free(t);
        return NULL;
    }
    t->capacity = HX_TAPE_FIRST_CAPACITY;
    return t;
}

void hx_tape_free(hx_tape *t) {
    if (!t) return;
    free(t->bytes);
    free(t);
}

const unsigned char *hx_tape_bytes(const hx_tape *t) { return t->bytes; }
size_t hx_tape_length(const hx_tape *t) { return t->length; }
size_t hx_tape_whole(const hx_tape *t) { return t->whole; }

void hx_tape_take(hx_tape *t, size_t length) {
    if (length > t->length) length = t->length;
    memmove(t->bytes, t->bytes + length, t->length - length);
    t->length -= length;
    t->whole = t->whole > length ? t->whole - length : 0;
}
int hx_tape_failed(const hx_tape *t) { return t->failed; }

void hx_tape_restart(hx_tape *t) {
    t->skipping = t->completed;
    t->counted = 0;
    t->dropping = 0;
}

/* Room for `more` bytes at the end; 0 when memory ran out (the tape is marked failed). */
static int reserve(hx_tape *t, size_t more) {
    if (t->failed) return 0;
    if (t->capacity - t->length >= more) return 1;
    size_t capacity = t->capacity;
    while (capacity - t->length < more) {
        if (capacity > SIZE_MAX / 2) {
            t->failed = 1;
            return 0;
        }
        capacity *= 2;
    }
    unsigned char *grown = realloc(t->bytes, capacity);
    if (!grown) {
        t->failed = 1;
        return 0;
    }
    t->bytes = grown;
    t->capacity = capacity;
    return 1;
}

static inline unsigned char *put_number(unsigned char *p, uint32_t n) {
    memcpy(p, &n, sizeof n);
    return p + sizeof n;
}

static inline unsigned char *put_bytes(unsigned char *p, const char *bytes, int length) {
    if (length > 0) memcpy(p, bytes, (size_t)length);
    return p + (length > 0 ? length : 0);
}

static int is_counted(const char *name, int length) {
    return (length == 6 && memcmp(name, "Record", 6) == 0) || (length == 11 && memcmp(name, "Correlation", 11) == 0) ||
           (length == 7 && memcmp(name, "Workout", 7) == 0);
}

void hx_tape_start(void *context, int depth, const char *name, int name_length, int count, const hx_attribute *attributes) {
    hx_tape *t = context;
    if (depth == 1) {
        t->counted = is_counted(name, name_length);
        t->dropping = t->counted && t->skipping > 0;
    }
    if (t->dropping && depth >= 1) return;
    size_t size = 1 + 3 * sizeof(uint32_t) + (size_t)(name_length > 0 ? name_length : 0);
    for (int i = 0; i < count; i++) {
        size += 2 * sizeof(uint32_t) + (size_t)(attributes[i].name_length > 0 ? attributes[i].name_length : 0) +
                (size_t)(attributes[i].value_length > 0 ? attributes[i].value_length : 0);
    }
    if (!reserve(t, size)) return;
    unsigned char *p = t->bytes + t->length;
    *p++ = TAG_START;
    p = put_number(p, (uint32_t)depth);
    p = put_number(p, (uint32_t)(name_length > 0 ? name_length : 0));
    p = put_number(p, (uint32_t)count);
    p = put_bytes(p, name, name_length);
    for (int i = 0; i < count; i++) {
        const hx_attribute *a = &attributes[i];
        p = put_number(p, (uint32_t)(a->name_length > 0 ? a->name_length : 0));
        p = put_number(p, (uint32_t)(a->value_length > 0 ? a->value_length : 0));
        p = put_bytes(p, a->name, a->name_length);
        p = put_bytes(p, a->value, a->value_length);
    }
    t->length = (size_t)(p - t->bytes);
}

void hx_tape_end(void *context, int depth) {
    hx_tape *t = context;
    if (t->dropping && depth >= 1) {
        if (depth == 1) {
            t->dropping = 0;
            t->skipping--;
        }
        return;
    }
    if (!reserve(t, 1 + sizeof(uint32_t))) return;
    unsigned char *p = t->bytes + t->length;
    *p++ = TAG_END;
    p = put_number(p, (uint32_t)depth);
    t->length = (size_t)(p - t->bytes);
    if (depth <= 1) t->whole = t->length;
    if (depth == 1 && t->counted) {
        t->completed++;
        t->counted = 0;
    }
}

/* Reads a number at *p if one fits before end. */
static inline int take_number(const unsigned char **p, const unsigned char *end, uint32_t *n) {
    if ((size_t)(end - *p) < sizeof *n) return 0;
    memcpy(n, *p, sizeof *n);
    *p += sizeof *n;
    return 1;
}

int hx_tape_replay(const unsigned char *bytes, size_t length, hx_start_fn start, hx_end_fn end, void *context) {
    const unsigned char *p = bytes, *stop = bytes + length;
    hx_attribute on_stack[HX_TAPE_STACK_ATTRIBUTES];
    hx_attribute *attributes = on_stack;
    uint32_t room = HX_TAPE_STACK_ATTRIBUTES;
    int status = 0;
    while (p < stop) {
        unsigned char tag = *p++;
        uint32_t depth, name_length, count;
        if (!take_number(&p, stop, &depth)) goto malformed;
        if (tag == TAG_END) {
            end(context, (int)depth);
            continue;
        }
        if (tag != TAG_START || !take_number(&p, stop, &name_length) || !take_number(&p, stop, &count)) goto malformed;
        if ((size_t)(stop - p) < name_length) goto malformed;
        const char *name = (const char *)p;
        p += name_length;
        if (count > room) {
            hx_attribute *grown = attributes == on_stack ? NULL : attributes;
            grown = realloc(grown, count * sizeof *grown);
            if (!grown) goto malformed;
            attributes = grown;
            room = count;
        }
        for (uint32_t i = 0; i < count; i++) {
            uint32_t n, v;
            if (!take_number(&p, stop, &n) || !take_number(&p, stop, &v) || (size_t)(stop - p) < (size_t)n + v) goto malformed;
            attributes[i] = (hx_attribute){(const char *)p, (const char *)p + n, (int)n, (int)v};
            p += (size_t)n + v;
        }
        start(context, (int)depth, name, (int)name_length, (int)count, attributes);
    }
    goto done;
malformed:
    status = -1;
done:
    if (attributes != on_stack) free(attributes);
    return status;
}
