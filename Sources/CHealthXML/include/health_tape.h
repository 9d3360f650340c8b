#ifndef HEALTH_TAPE_H
#define HEALTH_TAPE_H

#include <stddef.h>

#include "health_xml.h"

/*
 * A parser's start and end events written down as bytes, to be replayed later on another thread. The thread
 * that reads an export then only inflates, scans and copies; the elements are built where the tape is
 * replayed. Either parser (health_scan.h, health_xml.h) records into a tape: pass hx_tape_start, hx_tape_end
 * and the tape as their functions and context.
 *
 * It also counts the top-level Record, Correlation and Workout elements that ended (the ones the element
 * builder completes), so that when libxml2 reads a document again from its start after the scanner handed over
 * (hx_tape_restart), the elements already recorded are not recorded twice.
 *
 * The bytes are this process's own (native byte order, no version): never stored, never sent.
 */

typedef struct hx_tape hx_tape;

/* An empty tape, or NULL when out of memory. */
hx_tape *hx_tape_new(void);
void hx_tape_free(hx_tape *tape);

/* Parser functions recording into the tape given as context. */
void hx_tape_start(void *tape, int depth, const char *name, int name_length, int count, const hx_attribute *attributes);
void hx_tape_end(void *tape, int depth);

/* The bytes recorded and not yet taken. */
const unsigned char *hx_tape_bytes(const hx_tape *tape);
size_t hx_tape_length(const hx_tape *tape);
/* How many of them end where a top-level element (or the document) ended: a stretch that holds whole elements,
 * whose elements can be built without the events before or after it. */
size_t hx_tape_whole(const hx_tape *tape);
/* Takes the first `length` bytes away (the rest moves to the front), keeping the memory. */
void hx_tape_take(hx_tape *tape, size_t length);
/* 1 when an event could not be recorded (out of memory): the tape is incomplete from then on. */
int hx_tape_failed(const hx_tape *tape);

/* The document is read again from its start: the top-level Record, Correlation and Workout elements recorded so
 * far (and their children) are not recorded again. */
void hx_tape_restart(hx_tape *tape);

/* Calls start and end for the events in bytes, in order. 0, or -1 when the bytes are not a tape's or memory ran
 * out (the events before were replayed). */
int hx_tape_replay(const unsigned char *bytes, size_t length, hx_start_fn start, hx_end_fn end, void *context);

#endif
