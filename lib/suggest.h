/* "did you mean": the known name closest to a mistyped one. */
#ifndef FB_SUGGEST_H
#define FB_SUGGEST_H

#include <stddef.h>

/*
 * Edits (insert, delete, substitute, swap two neighbours) that turn the
 * first len bytes of a into b.
 */
size_t suggest_distance(const char *a, size_t len, const char *b);
/*
 * Of names[0..n), the one closest to the first len bytes of word, if it is
 * close enough to be what was meant (at most 2 edits, fewer than half the
 * word); NULL otherwise or when two are equally close.
 */
const char *suggest_closest(const char *word, size_t len, const char *const *names, size_t n);

#endif
