/* A small streaming JSON writer: valid output for any input. */
#ifndef FB_JSON_H
#define FB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

/*
 * Output is indented, one member per line, except that containers opened
 * inside an array are written on one line (so a table row is a line).
 */
struct jw {
	FILE *f;
	int depth;
	bool first[JW_MAX_DEPTH];	/* no member written yet at this depth */
	bool inline_[JW_MAX_DEPTH];	/* this container is written on one line */
	char closer[JW_MAX_DEPTH];	/* '}' or ']' */
	int overflow;		/* containers opened past JW_MAX_DEPTH (written as null) */
};

/* key is the member name inside objects, NULL inside arrays or at top level. */
void jw_init(struct jw *w, FILE *f);
void jw_object_begin(struct jw *w, const char *key);
void jw_object_end(struct jw *w);
void jw_array_begin(struct jw *w, const char *key);
void jw_array_end(struct jw *w);
void jw_string(struct jw *w, const char *key, const char *value);	/* NULL -> null */
void jw_int(struct jw *w, const char *key, int64_t value);
void jw_uint(struct jw *w, const char *key, uint64_t value);
void jw_double(struct jw *w, const char *key, double value);	/* NaN/Inf -> null */
void jw_bool(struct jw *w, const char *key, bool value);
void jw_null(struct jw *w, const char *key);
/* Closes whatever is still open and ends the document with a newline. */
void jw_finish(struct jw *w);

/*
 * Length of the well-formed UTF-8 sequence starting at s (at most n bytes
 * available), or 0 if s does not start one (stray continuation byte,
 * overlong form, surrogate, > U+10FFFF, truncated).
 */
size_t jw_utf8_sequence_length(const unsigned char *s, size_t n);

#endif
