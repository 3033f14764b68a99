/* Shared by the post parser's files (post*.c) only; not part of the public API. */
#ifndef FB_POST_INTERNAL_H
#define FB_POST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* a whole token that is a plain decimal number (analyze/post_values.c) */
bool post_is_numeric_token(const char *s);

/* ---------- tokens (analyze/post_tokens.c) ---------- */

/*
 * Tokens point into one NUL-separated copy of the text; only the few
 * repaired ones (joined or split) are allocated on their own.
 */
struct toks {
	char **v;
	int n, cap;
	char **owned;
	int nowned, capowned;
	int junk;		/* junk prefixes and tokens dropped */
};

/*
 * Splits buf (len bytes, writable, one spare byte at the end) in place;
 * terminal escape sequences (ESC [ ... X) are blanked and counted in out->junk.
 */
int post_split_raw(char *buf, size_t len, struct toks *out);
/*
 * Repairs what mail clients did to commands (split or glued options, $[...]
 * split at spaces) and drops junk before rows: caret escapes (^[[A, ^N; not
 * ^C, an interrupt), quotes (>), gist table bars (|), counted in out->junk.
 */
int post_join_tokens(const struct toks *raw, struct toks *out);
void post_toks_free(struct toks *t);

#endif
