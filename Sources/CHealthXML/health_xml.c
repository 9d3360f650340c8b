#include "health_xml.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>
#include <string.h>

struct hx_parser {
    xmlParserCtxtPtr context;
    hx_start_fn start;
    hx_end_fn end;
    void *user;
    int max_depth;
    int depth;
    /* Reused for every element: the attributes and a buffer holding their NUL-terminated copies. */
    hx_attribute *attributes;
    int attribute_capacity;
    char *text;
    size_t text_capacity;
    /* The first error libxml2 reported: later ones follow from it. */
    char *message;
    int message_line;
    int failed;
};

static int ensure(hx_parser *p, int count, size_t bytes) {
    if (count > p->attribute_capacity) {
        hx_attribute *grown = realloc(p->attributes, sizeof(hx_attribute) * (size_t)count);
        if (grown == NULL) return 0;
        p->attributes = grown;
        p->attribute_capacity = count;
    }
    if (bytes > p->text_capacity) {
        char *grown = realloc(p->text, bytes);
        if (grown == NULL) return 0;
        p->text = grown;
        p->text_capacity = bytes;
    }
    return 1;
}

/* Copies an attribute value as libxml2 gives it, NUL-terminated, and returns its length. Without entity
 * substitution (which this parser leaves off) libxml2 hands over every '&' of a value, written "&amp;" or
 * "&#38;" in the file, as the five characters "&#38;", so that a tree it built would serialize back; every such
 * run is one '&' of the value. */
static size_t copy_value(char *out, const char *value, const char *end) {
    size_t n = 0;
    while (value < end) {
        if (*value == '&' && end - value >= 5 && memcmp(value, "&#38;", 5) == 0) {
            out[n++] = '&';
            value += 5;
        } else {
            out[n++] = *value++;
        }
    }
    out[n] = '\0';
    return n;
}

static void on_start(void *opaque, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int namespace_count, const xmlChar **namespaces, int count, int defaulted,
                     const xmlChar **attributes) {
    (void)prefix; (void)uri; (void)namespace_count; (void)namespaces; (void)defaulted;
    hx_parser *p = opaque;
    int depth = p->depth++;
    if (depth > p->max_depth) return;
    /* libxml2 gives each attribute as five pointers: localname, prefix, URI, value start, value end. */
    size_t bytes = 0;
    for (int i = 0; i < count; i++) {
        bytes += strlen((const char *)attributes[i * 5]) + 1;
        bytes += (size_t)(attributes[i * 5 + 4] - attributes[i * 5 + 3]) + 1;
    }
    if (!ensure(p, count, bytes)) {
        xmlStopParser(p->context);
        return;
    }
    char *at = p->text;
    for (int i = 0; i < count; i++) {
        size_t name_length = strlen((const char *)attributes[i * 5]);
        memcpy(at, attributes[i * 5], name_length + 1);
        p->attributes[i].name = at;
        p->attributes[i].name_length = (int)name_length;
        at += name_length + 1;
        size_t value_length = copy_value(at, (const char *)attributes[i * 5 + 3], (const char *)attributes[i * 5 + 4]);
        p->attributes[i].value = at;
        p->attributes[i].value_length = (int)value_length;
        at += value_length + 1;
    }
    p->start(p->user, depth, (const char *)localname, (int)strlen((const char *)localname), count, p->attributes);
}

static void on_end(void *opaque, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname; (void)prefix; (void)uri;
    hx_parser *p = opaque;
    int depth = --p->depth;
    if (depth > p->max_depth) return;
    p->end(p->user, depth);
}

static void on_error(void *opaque, xmlErrorPtr error) {
    hx_parser *p = opaque;
    if (error == NULL || error->level < XML_ERR_ERROR) return; /* warnings change nothing */
    p->failed = 1;
    if (p->message != NULL) return;
    const char *text = error->message != NULL ? error->message : "not well-formed";
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' ')) length--;
    p->message = malloc(length + 1);
    if (p->message != NULL) {
        memcpy(p->message, text, length);
        p->message[length] = '\0';
    }
    p->message_line = error->line;
}

hx_parser *hx_parser_new(hx_start_fn start, hx_end_fn end, void *user, int max_depth) {
    hx_parser *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->start = start;
    p->end = end;
    p->user = user;
    p->max_depth = max_depth;
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.serror = on_error;
    p->context = xmlCreatePushParserCtxt(&handler, p, NULL, 0, NULL);
    if (p->context == NULL) {
        free(p);
        return NULL;
    }
    /* No network access; attribute values of any length (exports have long device descriptions). */
    xmlCtxtUseOptions(p->context, XML_PARSE_NONET | XML_PARSE_HUGE);
    return p;
}

void hx_parser_free(hx_parser *p) {
    if (p == NULL) return;
    xmlFreeParserCtxt(p->context);
    free(p->attributes);
    free(p->text);
    free(p->message);
    free(p);
}

int hx_parser_feed(hx_parser *p, const char *bytes, int length, int last) {
    if (p->failed) return -1;
    int status = xmlParseChunk(p->context, bytes, length, last);
    if (status != 0 || p->failed) {
        p->failed = 1;
        if (p->message == NULL) {
            p->message = strdup("not well-formed");
            p->message_line = xmlSAX2GetLineNumber(p->context);
        }
        return -1;
    }
    return 0;
}

const char *hx_error_message(hx_parser *p, int *line) {
    if (line != NULL) *line = p->message_line;
    return p->message;
}

int hx_parser_line(hx_parser *p) { return xmlSAX2GetLineNumber(p->context); }
