#ifndef HEALTH_XML_H
#define HEALTH_XML_H

/*
 * C side of VitalSnap's Apple Health export reader: libxml2's push parser with SAX2 callbacks behind a
 * handful of plain functions. No tree is built: elements are handed on as they are parsed, so memory stays
 * small, and every element completed before a well-formedness error has been delivered when the error is
 * reported (the reader API would drop the last ones it had read ahead).
 *
 * Debian builds libxml2 with ICU, and its headers include ICU's; Swift's Foundation carries its own ICU, and
 * the two clash when libxml2's headers are imported into Swift. So libxml2's headers are included only in
 * health_xml.c, and only an opaque handle, C strings and integers cross this boundary. libxml2's messages
 * are captured here (a library prints nothing) and read with hx_error_message.
 */

/* One attribute of an element, character and predefined entity references decoded, with its byte lengths (the
 * bytes are not NUL-terminated). Valid only during the callback. */
typedef struct hx_attribute {
    const char *name;
    const char *value;
    int name_length;
    int value_length;
} hx_attribute;

/* An element starts: its depth (the root is 0), local name (name_length bytes) and attributes. */
typedef void (*hx_start_fn)(void *context, int depth, const char *name, int name_length, int count,
                            const hx_attribute *attributes);
/* An element ends. */
typedef void (*hx_end_fn)(void *context, int depth);

typedef struct hx_parser hx_parser;

/* A parser calling start and end for elements no deeper than max_depth. NULL when out of memory. Never
 * touches the network; entities of a DTD are not expanded. */
hx_parser *hx_parser_new(hx_start_fn start, hx_end_fn end, void *context, int max_depth);
void hx_parser_free(hx_parser *parser);

/* Parses the next bytes (last: 1 for the final call, with or without bytes). 0 fine, -1 not well-formed: no
 * further calls are made, and hx_error_message says why. */
int hx_parser_feed(hx_parser *parser, const char *bytes, int length, int last);

/* The first error libxml2 reported, or NULL; its line in *line. */
const char *hx_error_message(hx_parser *parser, int *line);
/* The line the parser is at. */
int hx_parser_line(hx_parser *parser);

#endif
