#include "health_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define HX_SSE2 1
#endif

/* Bytes the buffer starts with; it doubles (up to HX_SCAN_LARGEST_TOKEN plus a chunk) when a token does not fit. */
#define INITIAL_CAPACITY (1u << 20)
/* A prologue (declaration, comments, DTD) longer than this is left to libxml2, as ExportSanitizer leaves it. */
#define LARGEST_PROLOGUE (1u << 20)
/* Bytes allocated past the buffer's capacity, zeroed: a 16-byte load that starts inside the buffer stays inside
 * the allocation, and what it reads past the end is masked off. */
#define SLACK 16
/* Attributes of one element the scanner makes room for at first; it grows. */
#define INITIAL_ATTRIBUTES 16

enum state {
    PROLOGUE,   /* before the root element */
    CONTENT,    /* inside the root element */
    EPILOGUE,   /* after it: whitespace and comments only */
    HANDED_OVER
};

/* What scanning a token found. */
enum step {
    STEP_DONE,      /* the token was scanned */
    STEP_MORE,      /* the token runs past the bytes there are: more are needed */
    STEP_HAND_OVER  /* s->reason says why */
};

struct hx_scanner {
    hx_start_fn start;
    hx_end_fn end;
    void *user;
    int max_depth;
    enum state state;
    /* Bytes fed and not yet scanned are buffer[position..<length]. */
    char *buffer;
    size_t capacity, length, position;
    /* The names of the open elements, one after another, and where each starts. */
    char *names;
    size_t names_capacity, names_length;
    size_t name_starts[HX_SCAN_DEEPEST];
    int depth;
    hx_attribute *attributes;
    int attribute_capacity;
    long long line;
    long long replaced;
    const char *reason;
};

hx_scanner *hx_scanner_new(hx_start_fn start, hx_end_fn end, void *context, int max_depth) {
    hx_scanner *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->start = start;
    s->end = end;
    s->user = context;
    s->max_depth = max_depth;
    s->state = PROLOGUE;
    s->line = 1;
    s->capacity = INITIAL_CAPACITY;
    s->buffer = calloc(1, s->capacity + SLACK);
    s->names_capacity = 1024;
    s->names = malloc(s->names_capacity);
    s->attribute_capacity = INITIAL_ATTRIBUTES;
    s->attributes = malloc(sizeof(hx_attribute) * (size_t)s->attribute_capacity);
    if (s->buffer == NULL || s->names == NULL || s->attributes == NULL) {
        hx_scanner_free(s);
        return NULL;
    }
    return s;
}

void hx_scanner_free(hx_scanner *s) {
    if (s == NULL) return;
    free(s->buffer);
    free(s->names);
    free(s->attributes);
    free(s);
}

const char *hx_scanner_reason(const hx_scanner *s) { return s->reason; }
long long hx_scanner_line(const hx_scanner *s) { return s->line; }
long long hx_scanner_replaced(const hx_scanner *s) { return s->replaced; }

static enum step hand_over(hx_scanner *s, const char *reason) {
    s->reason = reason;
    return STEP_HAND_OVER;
}

/* XML's whitespace. */
static inline int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
/* Below 0x20 and not whitespace: XML 1.0 forbids them; ExportSanitizer turns them into spaces. */
static inline int is_control(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }
/* The ASCII bytes names are made of (the scanner leaves other names to libxml2): NAME_START may begin one,
 * NAME_BYTE may follow. A table, as names are most of a tag that is not a value. */
enum { NAME_START = 1, NAME_BYTE = 2 };
static const unsigned char name_class[256] = {
    ['A' ... 'Z'] = NAME_START | NAME_BYTE, ['a' ... 'z'] = NAME_START | NAME_BYTE, ['_'] = NAME_START | NAME_BYTE,
    ['0' ... '9'] = NAME_BYTE, ['.'] = NAME_BYTE, ['-'] = NAME_BYTE,
};
static inline int is_name_start(unsigned char c) { return name_class[c] & NAME_START; }
static inline int is_name_byte(unsigned char c) { return name_class[c] & NAME_BYTE; }

/* The length of the valid UTF-8 sequence for one XML character at p (first byte >= 0x80), or 0: malformed, cut
 * off at end, a surrogate, or U+FFFE/U+FFFF, which XML forbids. */
static int utf8_length(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    ptrdiff_t left = end - p;
    if (c < 0xC2) return 0;
    if (c < 0xE0) return left >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (left < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
        if (c == 0xE0 && p[1] < 0xA0) return 0;                                   /* overlong */
        if (c == 0xED && p[1] >= 0xA0) return 0;                                  /* surrogate */
        if (c == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) return 0; /* U+FFFE, U+FFFF */
        return 3;
    }
    if (c < 0xF5) {
        if (left < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        if (c == 0xF0 && p[1] < 0x90) return 0; /* overlong */
        if (c == 0xF4 && p[1] >= 0x90) return 0; /* beyond U+10FFFF */
        return 4;
    }
    return 0;
}

/* Whether code point c is an XML 1.0 Char. */
static int is_xml_char(unsigned long c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
           (c >= 0x10000 && c <= 0x10FFFF);
}

/* Decodes the reference at p ('&') ending before end. Writes the character's UTF-8 to out (when not NULL) and
 * returns the reference's length including ';', with *written set; 0 when it is not a predefined entity or a
 * valid character reference. */
static size_t reference(const char *p, const char *end, char *out, size_t *written) {
    const char *semicolon = memchr(p, ';', (size_t)(end - p));
    if (semicolon == NULL) return 0;
    size_t length = (size_t)(semicolon - p) + 1;
    const char *name = p + 1;
    size_t name_length = length - 2;
    static const struct { const char *name; char value; } predefined[] = {
        {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++) {
        if (strlen(predefined[i].name) == name_length && memcmp(name, predefined[i].name, name_length) == 0) {
            if (out != NULL) out[0] = predefined[i].value;
            *written = 1;
            return length;
        }
    }
    if (name_length < 2 || name[0] != '#') return 0;
    unsigned long code = 0;
    const char *digit = name + 1;
    int hex = *digit == 'x';
    if (hex) digit++;
    if (digit == semicolon) return 0;
    for (; digit < semicolon; digit++) {
        unsigned char c = (unsigned char)*digit;
        unsigned value;
        if (c >= '0' && c <= '9') value = c - '0';
        else if (hex && c >= 'a' && c <= 'f') value = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F') value = c - 'A' + 10;
        else return 0;
        code = code * (hex ? 16 : 10) + value;
        if (code > 0x10FFFF) return 0;
    }
    if (!is_xml_char(code)) return 0;
    char bytes[4];
    size_t n;
    if (code < 0x80) {
        bytes[0] = (char)code;
        n = 1;
    } else if (code < 0x800) {
        bytes[0] = (char)(0xC0 | (code >> 6));
        bytes[1] = (char)(0x80 | (code & 0x3F));
        n = 2;
    } else if (code < 0x10000) {
        bytes[0] = (char)(0xE0 | (code >> 12));
        bytes[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        bytes[2] = (char)(0x80 | (code & 0x3F));
        n = 3;
    } else {
        bytes[0] = (char)(0xF0 | (code >> 18));
        bytes[1] = (char)(0x80 | ((code >> 12) & 0x3F));
        bytes[2] = (char)(0x80 | ((code >> 6) & 0x3F));
        bytes[3] = (char)(0x80 | (code & 0x3F));
        n = 4;
    }
    if (out != NULL) memcpy(out, bytes, n);
    *written = n;
    return length;
}

/* Character data (between tags, or a comment's text) from p to end: references (not in comments) and UTF-8
 * checked, control characters counted. Outside the root only whitespace may appear between tags (only_space). */
static enum step check_text(hx_scanner *s, const char *p, const char *end, int only_space, int in_comment) {
    const unsigned char *u = (const unsigned char *)p, *e = (const unsigned char *)end;
    while (u < e) {
        unsigned char c = *u;
        if (c >= 0x80) {
            int n = utf8_length(u, e);
            if (n == 0) return hand_over(s, "malformed UTF-8");
            if (only_space) return hand_over(s, "text outside the root element");
            u += n;
            continue;
        }
        if (is_control(c)) {
            s->replaced++;
        } else if (only_space && !is_space(c)) {
            return hand_over(s, "text outside the root element");
        } else if (c == '&' && !in_comment) {
            size_t written;
            size_t length = reference((const char *)u, end, NULL, &written);
            if (length == 0) return hand_over(s, "an unknown or malformed reference");
            u += length;
            continue;
        } else if (c == '>' && !in_comment && u - (const unsigned char *)p >= 2 && u[-1] == ']' && u[-2] == ']') {
            return hand_over(s, "']]>' in text");
        }
        u++;
    }
    return STEP_DONE;
}

/* A comment at p ("<!--"): checked and passed over. */
static enum step scan_comment(hx_scanner *s, const char *p, const char *end, const char **after) {
    const char *body = p + 4;
    const char *close = NULL;
    /* "--" may only appear as the start of "-->". */
    for (const char *q = body; q + 1 < end; q++) {
        q = memchr(q, '-', (size_t)(end - q));
        if (q == NULL || q + 1 >= end) break;
        if (q[1] == '-') {
            if (q + 2 >= end) break; /* "--" at the end: is it "-->"? more bytes say */
            if (q[2] != '>') return hand_over(s, "'--' in a comment");
            close = q;
            break;
        }
    }
    if (close == NULL) return end - p > (ptrdiff_t)HX_SCAN_LARGEST_TOKEN ? hand_over(s, "a comment too long") : STEP_MORE;
    enum step checked = check_text(s, body, close, 0, 1);
    if (checked != STEP_DONE) return checked;
    *after = close + 3;
    return STEP_DONE;
}

/* The first byte in [p, end) that is below `below` as a signed char (bytes at or above 0x80 are negative, so
 * 0x20 finds them and the control characters; -128 finds none) or equal to a, b or c; end when none. Sixteen
 * bytes at a time where SSE2 is there (every x86-64), a byte at a time elsewhere. It reads [p, end) of the
 * scanner's buffer: a last load that runs past end stays in its SLACK, and lanes past end are masked off. */
static inline const char *first_of(const char *p, const char *end, signed char below, char a, char b, char c) {
#if HX_SSE2
    const __m128i under = _mm_set1_epi8(below), va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
    for (; p < end; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, under), _mm_cmpeq_epi8(v, va)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, vb), _mm_cmpeq_epi8(v, vc)));
        unsigned lanes = end - p >= 16 ? 0xFFFFu : (1u << (end - p)) - 1;
        unsigned hits = (unsigned)_mm_movemask_epi8(hit) & lanes;
        if (hits != 0) return p + __builtin_ctz(hits);
    }
    return end;
#else
    for (; p < end; p++) {
        if ((signed char)*p < below || *p == a || *p == b || *p == c) return p;
    }
    return end;
#endif
}

/* No byte is below this: `first_of` then looks for its three bytes only. */
#define NONE_BELOW (-128)

/* The first byte in [p, end) equal to c; NULL when none. */
static inline const char *find_byte(const char *p, const char *end, char c) {
    const char *found = first_of(p, end, NONE_BELOW, c, c, c);
    return found == end ? NULL : found;
}

/* The first '>', '"' or '\'' in [p, end): where a tag ends or a quoted value begins; end when none. */
static inline const char *find_tag_stop(const char *p, const char *end) {
    return first_of(p, end, NONE_BELOW, '>', '"', '\'');
}

/* Where the tag starting at p ('<') ends (its '>'), skipping quoted attribute values; NULL when past end. */
static const char *tag_end(const char *p, const char *end) {
    const char *q = p + 1;
    for (;;) {
        q = find_tag_stop(q, end);
        if (q == end) return NULL;
        if (*q == '>') return q;
        const char *close = find_byte(q + 1, end, *q);
        if (close == NULL) return NULL;
        q = close + 1;
    }
}

/* Skips whitespace; control characters are whitespace too (ExportSanitizer made them spaces), counted, and
 * become spaces in the buffer (so an attribute name's repair sees them as the sanitizer did). */
static char *skip_space(hx_scanner *s, char *p, const char *end) {
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (is_space(c)) {
            p++;
        } else if (is_control(c)) {
            *p++ = ' ';
            s->replaced++;
        } else {
            break;
        }
    }
    return p;
}

/* The first byte of [p, end) that an attribute value needs rewritten or checked: below 0x20, at or above 0x80,
 * '&' or '<'; end when none. */
static inline const char *first_special_byte(const char *p, const char *end) {
    return first_of(p, end, 0x20, '&', '<', '<');
}

/* An attribute value from p (after the quote) to close (the quote), decoded and normalized in place; its new
 * length in *length. */
static enum step attribute_value(hx_scanner *s, char *p, const char *close, int *length) {
    /* Most values are plain ASCII and stay as they are: passed over without a write. In one with references
     * (a device's "&lt;&lt;HKDevice: ..."), each byte to look at is handled, and the plain run after it moved
     * down in one piece. */
    const char *read = first_special_byte(p, close);
    char *write = (char *)read;
    while (read < close) {
        unsigned char c = (unsigned char)*read;
        if (c >= 0x80) {
            int n = utf8_length((const unsigned char *)read, (const unsigned char *)close);
            if (n == 0) return hand_over(s, "malformed UTF-8");
            memmove(write, read, (size_t)n);
            write += n;
            read += n;
        } else if (c == '<') {
            return hand_over(s, "'<' in an attribute value");
        } else if (c == '&') {
            size_t written;
            char decoded[4];
            size_t used = reference(read, close, decoded, &written);
            if (used == 0) return hand_over(s, "an unknown or malformed reference");
            memcpy(write, decoded, written);
            write += written;
            read += used;
        } else {
            /* Whitespace becomes a space; "\r\n" is one line end, so one space. Control characters too. */
            if (is_control(c)) s->replaced++;
            *write++ = ' ';
            read += (c == '\r' && read + 1 < close && read[1] == '\n') ? 2 : 1;
        }
        /* Then the plain run up to the next byte to look at, in one piece. */
        const char *plain_end = first_special_byte(read, close);
        memmove(write, read, (size_t)(plain_end - read));
        write += plain_end - read;
        read = plain_end;
    }
    if (write - p > INT32_MAX) return hand_over(s, "an attribute value too long");
    *length = (int)(write - p);
    return STEP_DONE;
}

static enum step grow_attributes(hx_scanner *s) {
    int capacity = s->attribute_capacity * 2;
    hx_attribute *grown = realloc(s->attributes, sizeof(hx_attribute) * (size_t)capacity);
    if (grown == NULL) return hand_over(s, "out of memory");
    s->attributes = grown;
    s->attribute_capacity = capacity;
    return STEP_DONE;
}

static enum step push_name(hx_scanner *s, const char *name, size_t length) {
    if (s->depth >= HX_SCAN_DEEPEST) return hand_over(s, "elements nested too deep");
    if (s->names_length + length > s->names_capacity) {
        size_t capacity = (s->names_length + length) * 2;
        char *grown = realloc(s->names, capacity);
        if (grown == NULL) return hand_over(s, "out of memory");
        s->names = grown;
        s->names_capacity = capacity;
    }
    s->name_starts[s->depth++] = s->names_length;
    memcpy(s->names + s->names_length, name, length);
    s->names_length += length;
    return STEP_DONE;
}

static void pop_name(hx_scanner *s) {
    s->names_length = s->name_starts[--s->depth];
    if (s->depth == 0) s->state = EPILOGUE;
    int depth = s->depth;
    if (depth <= s->max_depth) s->end(s->user, depth);
}

/* A start tag from p ('<') to close ('>'). */
static enum step scan_start_tag(hx_scanner *s, char *p, char *close) {
    char *name = p + 1;
    if (!is_name_start((unsigned char)*name)) return hand_over(s, "an element name this scanner leaves to libxml2");
    char *q = name + 1;
    while (q < close && is_name_byte((unsigned char)*q)) q++;
    size_t name_length = (size_t)(q - name);
    int count = 0;
    int self_closing = 0;
    for (;;) {
        char *after_space = skip_space(s, q, close);
        int spaced = after_space > q;
        q = after_space;
        if (q == close) break;
        if (*q == '/') {
            if (q + 1 != close) return hand_over(s, "'/' inside a tag");
            self_closing = 1;
            break;
        }
        if (!spaced) return hand_over(s, "no space before an attribute");
        if (!is_name_start((unsigned char)*q)) return hand_over(s, "an attribute name this scanner leaves to libxml2");
        char *attribute = q++;
        char *attribute_end;
        for (;;) {
            while (q < close && is_name_byte((unsigned char)*q)) q++;
            attribute_end = q;
            q = skip_space(s, q, close);
            if (q < close && *q == '=') break;
            /* A name, spaces, more name: one name written with spaces (2015 exports), as ExportSanitizer repairs. */
            if (q < close && q > attribute_end && is_name_byte((unsigned char)*q)) {
                memset(attribute_end, '_', (size_t)(q - attribute_end));
                continue;
            }
            return hand_over(s, "an attribute without a value, or a name this scanner leaves to libxml2");
        }
        size_t attribute_length = (size_t)(attribute_end - attribute);
        q = skip_space(s, q + 1, close);
        if (q == close || (*q != '"' && *q != '\'')) return hand_over(s, "an attribute value without quotes");
        char quote = *q;
        char *value = q + 1;
        char *value_end = (char *)find_byte(value, close, quote);
        if (value_end == NULL) return hand_over(s, "an attribute value without its closing quote");
        int value_length;
        enum step decoded = attribute_value(s, value, value_end, &value_length);
        if (decoded != STEP_DONE) return decoded;
        for (int i = 0; i < count; i++) {
            if ((size_t)s->attributes[i].name_length == attribute_length &&
                memcmp(s->attributes[i].name, attribute, attribute_length) == 0) {
                return hand_over(s, "an attribute given twice");
            }
        }
        if (count == s->attribute_capacity && grow_attributes(s) != STEP_DONE) return STEP_HAND_OVER;
        s->attributes[count].name = attribute;
        s->attributes[count].name_length = (int)attribute_length;
        s->attributes[count].value = value;
        s->attributes[count].value_length = value_length;
        count++;
        q = value_end + 1;
    }
    if (s->state == EPILOGUE) return hand_over(s, "a second root element");
    int depth = s->depth;
    enum step pushed = push_name(s, name, name_length);
    if (pushed != STEP_DONE) return pushed;
    s->state = CONTENT;
    if (depth <= s->max_depth) s->start(s->user, depth, name, (int)name_length, count, s->attributes);
    if (self_closing) pop_name(s);
    return STEP_DONE;
}

/* An end tag from p ("</") to close ('>'). */
static enum step scan_end_tag(hx_scanner *s, char *p, char *close) {
    char *name = p + 2;
    char *q = name;
    while (q < close && is_name_byte((unsigned char)*q)) q++;
    size_t length = (size_t)(q - name);
    if (skip_space(s, q, close) != close) return hand_over(s, "a malformed end tag");
    if (s->state != CONTENT || s->depth == 0) return hand_over(s, "an end tag with no element open");
    size_t start = s->name_starts[s->depth - 1];
    if (s->names_length - start != length || memcmp(s->names + start, name, length) != 0) {
        return hand_over(s, "an end tag that does not match its start tag");
    }
    pop_name(s);
    return STEP_DONE;
}

static int starts_with(const char *p, const char *end, const char *prefix) {
    size_t n = strlen(prefix);
    return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

/* Finds needle in [p, end). */
static const char *find(const char *p, const char *end, const char *needle) {
    size_t n = strlen(needle);
    while ((size_t)(end - p) >= n) {
        const char *first = memchr(p, needle[0], (size_t)(end - p) - n + 1);
        if (first == NULL) return NULL;
        if (memcmp(first, needle, n) == 0) return first;
        p = first + 1;
    }
    return NULL;
}

/* The prologue, up to the root's start tag: the XML declaration (UTF-8 only), comments, whitespace, and a DTD,
 * which is passed over up to "<HealthData" as ExportSanitizer drops it. */
static enum step scan_prologue_once(hx_scanner *s, int last) {
    char *p = s->buffer + s->position, *end = s->buffer + s->length;
    if (end - p > (ptrdiff_t)LARGEST_PROLOGUE) return hand_over(s, "a prologue too long");
    const char *q = p;
    if (starts_with(q, end, "\xEF\xBB\xBF")) q += 3;
    if (starts_with(q, end, "<?xml")) {
        const char *close = find(q, end, "?>");
        if (close == NULL) return last ? hand_over(s, "an unfinished XML declaration") : STEP_MORE;
        for (const char *c = q; c < close; c++) {
            if ((unsigned char)*c >= 0x80 || is_control((unsigned char)*c)) return hand_over(s, "an unusual XML declaration");
        }
        const char *encoding = find(q, close, "encoding");
        if (encoding != NULL) {
            const char *value = encoding + strlen("encoding");
            while (value < close && (is_space((unsigned char)*value) || *value == '=' || *value == '"' || *value == '\'')) value++;
            if (close - value < 5 || !((value[0] | 0x20) == 'u' && (value[1] | 0x20) == 't' && (value[2] | 0x20) == 'f' &&
                                       value[3] == '-' && value[4] == '8' && (value[5] == '"' || value[5] == '\''))) {
                return hand_over(s, "an encoding other than UTF-8");
            }
        }
        q = close + 2;
    }
    for (;;) {
        while (q < end && is_space((unsigned char)*q)) q++;
        if (end - q < 10 && !last) return STEP_MORE;
        if (starts_with(q, end, "<!--")) {
            const char *after;
            enum step comment = scan_comment(s, (char *)q, end, &after);
            if (comment == STEP_MORE) return last ? hand_over(s, "an unfinished comment") : STEP_MORE;
            if (comment != STEP_DONE) return comment;
            q = after;
            continue;
        }
        if (starts_with(q, end, "<!DOCTYPE")) {
            const char *root = find(q, end, "<HealthData");
            if (root == NULL) return last ? hand_over(s, "a DTD with no HealthData after it") : STEP_MORE;
            q = root;
        }
        if (q < end - 1 && q[0] == '<' && is_name_start((unsigned char)q[1])) break;
        return hand_over(s, "a prologue this scanner leaves to libxml2");
    }
    s->position = (size_t)(q - s->buffer);
    s->state = CONTENT;
    return STEP_DONE;
}

/* The prologue, scanned again from its start while it waits for more bytes; its characters counted once. */
static enum step scan_prologue(hx_scanner *s, int last) {
    long long replaced = s->replaced;
    enum step step = scan_prologue_once(s, last);
    if (step == STEP_MORE) s->replaced = replaced;
    return step;
}

/* Scans every whole token in the buffer. */
static enum step scan(hx_scanner *s, int last) {
    if (s->state == PROLOGUE) {
        enum step prologue = scan_prologue(s, last);
        if (prologue != STEP_DONE) return prologue;
    }
    char *end = s->buffer + s->length;
    while (s->position < s->length) {
        char *p = s->buffer + s->position;
        if (*p != '<') {
            char *lt = memchr(p, '<', (size_t)(end - p));
            if (lt == NULL && !last) return STEP_MORE;
            char *stop = lt != NULL ? lt : end;
            enum step text = check_text(s, p, stop, s->state != CONTENT, 0);
            if (text != STEP_DONE) return text;
            s->position = (size_t)(stop - s->buffer);
            continue;
        }
        if (end - p < 4) return STEP_MORE;
        if (p[1] == '!') {
            if (!starts_with(p, end, "<!--")) return hand_over(s, "CDATA or a declaration inside the document");
            const char *after;
            enum step comment = scan_comment(s, p, end, &after);
            if (comment != STEP_DONE) return comment;
            s->position = (size_t)(after - s->buffer);
            continue;
        }
        if (p[1] == '?') return hand_over(s, "a processing instruction");
        char *close = (char *)tag_end(p, end);
        if (close == NULL) {
            return end - p > (ptrdiff_t)HX_SCAN_LARGEST_TOKEN ? hand_over(s, "a tag too long") : STEP_MORE;
        }
        enum step tag = p[1] == '/' ? scan_end_tag(s, p, close) : scan_start_tag(s, p, close);
        if (tag != STEP_DONE) return tag;
        s->position = (size_t)(close + 1 - s->buffer);
    }
    return STEP_DONE;
}

/* Room for length more bytes after the unscanned ones. */
static int make_room(hx_scanner *s, size_t length) {
    size_t kept = s->length - s->position;
    if (kept + length > s->capacity - s->position) {
        memmove(s->buffer, s->buffer + s->position, kept);
        s->length = kept;
        s->position = 0;
    }
    if (kept + length > s->capacity) {
        size_t capacity = s->capacity;
        while (capacity < kept + length) capacity *= 2;
        if (capacity > (size_t)HX_SCAN_LARGEST_TOKEN * 2 + length) return 0;
        char *grown = realloc(s->buffer, capacity + SLACK);
        if (grown == NULL) return 0;
        memset(grown + s->capacity, 0, capacity - s->capacity + SLACK);
        s->buffer = grown;
        s->capacity = capacity;
    }
    return 1;
}

/* Line ends in [p, p + n) (the caller's bytes: no load past them). A memchr per line was a call per element. */
static long long count_lines(const char *p, size_t n) {
    long long lines = 0;
    size_t i = 0;
#if HX_SSE2
    const __m128i newline = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (n - i >= 16) {
        /* Each byte lane counts up to 255 line ends; then the lanes are summed. */
        __m128i counts = zero;
        for (size_t blocks = 0; blocks < 255 && n - i >= 16; blocks++, i += 16) {
            counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), newline));
        }
        __m128i sums = _mm_sad_epu8(counts, zero);
        lines += _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
    }
#endif
    for (; i < n; i++) lines += p[i] == '\n';
    return lines;
}

int hx_scanner_feed(hx_scanner *s, const char *bytes, size_t length, int last) {
    if (s->state == HANDED_OVER) return 1;
    if (length > 0) {
        if (!make_room(s, length)) {
            s->reason = "a token too long";
            s->state = HANDED_OVER;
            return 1;
        }
        memcpy(s->buffer + s->length, bytes, length);
        s->length += length;
        s->line += count_lines(bytes, length);
    }
    enum step step = scan(s, last);
    if (step == STEP_MORE && last) step = hand_over(s, "the document ends inside a token");
    if (step == STEP_DONE && last && s->state != EPILOGUE) step = hand_over(s, "the document ends before its root element does");
    if (step == STEP_HAND_OVER) {
        s->state = HANDED_OVER;
        return 1;
    }
    return 0;
}
