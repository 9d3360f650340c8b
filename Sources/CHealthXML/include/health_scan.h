#ifndef HEALTH_SCAN_H
#define HEALTH_SCAN_H

#include <stddef.h>

#include "health_xml.h"

/*
 * The fast path of VitalSnap's Apple Health export reader: a scanner for the plain XML an export is made of
 * (start and end tags with quoted attributes, whitespace, comments), written for speed on files of gigabytes.
 * It calls the same start and end functions as the libxml2 parser in health_xml.h, with the same attribute
 * values (references decoded, whitespace normalized as XML 1.0 section 3.3.3 says), and it repairs what
 * ExportSanitizer repairs for libxml2: the internal DTD is skipped, control characters count as spaces, and an
 * attribute name written with spaces gets underscores.
 *
 * It decides nothing it is unsure of. Anything outside that plain XML (CDATA, processing instructions, names
 * with colons or beyond ASCII, an encoding other than UTF-8, a token larger than HX_SCAN_LARGEST_TOKEN) and
 * anything not well-formed (a mismatched end tag, a stray '<' or '&', malformed UTF-8, a document that ends
 * early) makes it hand over: hx_scanner_feed returns 1 and calls nothing more. The caller then reads the file
 * again with libxml2, which decides, and with its own messages and line numbers.
 */

/* A token (tag, comment, run of text) longer than this is left to libxml2. */
#define HX_SCAN_LARGEST_TOKEN (8u << 20)
/* Elements nested deeper than this are left to libxml2 (an export nests 4 deep). */
#define HX_SCAN_DEEPEST 256

typedef struct hx_scanner hx_scanner;

/* A scanner calling start and end for elements no deeper than max_depth (the root is 0). NULL when out of
 * memory. */
hx_scanner *hx_scanner_new(hx_start_fn start, hx_end_fn end, void *context, int max_depth);
void hx_scanner_free(hx_scanner *scanner);

/* Scans the next bytes (last: 1 for the final call, with or without bytes). 0: fine, go on; 1: handed over
 * (see above), and every call from now on returns 1. */
int hx_scanner_feed(hx_scanner *scanner, const char *bytes, size_t length, int last);

/* Why it handed over (a constant string), or NULL. */
const char *hx_scanner_reason(const hx_scanner *scanner);
/* The line of the last byte fed (1-based). */
long long hx_scanner_line(const hx_scanner *scanner);
/* Control characters taken as spaces, as ExportSanitizer counts them. */
long long hx_scanner_replaced(const hx_scanner *scanner);

#endif
