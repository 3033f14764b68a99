/*
 * Tokens of saved flashbench output: the text split at whitespace, and
 * commands repaired where mail clients split or glued them.
 */
#include "analyze/post_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOK_MAX 256		/* repaired tokens are cut there: nothing we read is longer */

/* ---------- tokens ---------- */

static int grow(char ***v, int *cap, int n)
{
	if (n < *cap)
		return 0;
	int c = *cap ? *cap * 2 : 256;
	char **nv = realloc(*v, sizeof(*nv) * (size_t)c);
	if (!nv)
		return -1;
	*v = nv;
	*cap = c;
	return 0;
}

static int toks_push_ref(struct toks *t, char *s)
{
	if (grow(&t->v, &t->cap, t->n))
		return -1;
	t->v[t->n++] = s;
	return 0;
}

static int toks_push_copy(struct toks *t, const char *s, size_t len)
{
	if (len >= TOK_MAX)
		len = TOK_MAX - 1;
	if (grow(&t->owned, &t->capowned, t->nowned))
		return -1;
	char *c = malloc(len + 1);
	if (!c)
		return -1;
	memcpy(c, s, len);
	c[len] = 0;
	t->owned[t->nowned++] = c;
	return toks_push_ref(t, c);
}

void post_toks_free(struct toks *t)
{
	for (int i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
	free(t->v);
}

static bool is_space_byte(unsigned char c)
{
	return c <= ' ';
}

/* Splits buf (len bytes, writable, one spare byte at the end) in place. */
/* ESC [ parameters final-byte (a cursor key pressed while the output was copied) */
static void blank_escapes(char *buf, size_t len, int *count)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != 0x1b || buf[i + 1] != '[')
			continue;
		size_t j = i + 2;
		while (j < len && (isdigit((unsigned char)buf[j]) || buf[j] == ';' || buf[j] == '?'))
			j++;
		if (j < len && buf[j] >= '@' && buf[j] <= '~')
			j++;
		memset(buf + i, ' ', j - i);
		(*count)++;
		i = j - 1;
	}
}

int post_split_raw(char *buf, size_t len, struct toks *out)
{
	size_t i = 0;
	buf[len] = 0;
	blank_escapes(buf, len, &out->junk);
	while (i < len) {
		while (i < len && is_space_byte((unsigned char)buf[i]))
			i++;
		size_t start = i;
		while (i < len && !is_space_byte((unsigned char)buf[i]))
			i++;
		if (i > start) {
			buf[i] = 0;	/* a space, a control byte or the spare byte */
			if (toks_push_ref(out, buf + start))
				return -1;
		}
		i++;
	}
	return 0;
}

/* Where a "--" starts a second option glued to the first ("1677721--blocksize=8192"). */
static const char *glued_option(const char *t)
{
	for (const char *p = t + 1; p[0] && p[1]; p++)
		if (p[0] == '-' && p[1] == '-' && p[-1] != '-' && isalpha((unsigned char)p[2]))
			return p;
	return NULL;
}

/* ^C ^Z ^\\: a signal sent to the run (an interrupt), not junk */
static bool is_signal_caret(const char *t)
{
	return t[0] == '^' && (t[1] == 'C' || t[1] == 'Z' || t[1] == '\\');
}

/*
 * Length of the junk at the start of t: caret-notation escapes ("^[[A",
 * "^[OD", "^N"), gist table bars ("|"), quote marks glued to a line.
 */
static size_t junk_prefix(const char *t)
{
	size_t i = 0;
	for (;;) {
		const char *p = t + i;
		if (p[0] == '|' || p[0] == '>') {
			i++;
		} else if (p[0] == '^' && p[1] == '[' && (p[2] == '[' || p[2] == 'O')) {
			size_t j = 3;
			while (isdigit((unsigned char)p[j]) || p[j] == ';')
				j++;
			i += j + (isalpha((unsigned char)p[j]) || p[j] == '~');
		} else if (p[0] == '^' && p[1] >= '@' && p[1] <= '_' && !is_signal_caret(p)) {
			i += 2;
		} else {
			return i;
		}
	}
}

/*
 * Repairs what mail clients did to commands: "$[8 * 1024]" split at the
 * spaces, "-- open-au-nr=2" and "--open- au-nr=1" split, two options glued;
 * drops junk before rows (junk_prefix) and table bars after a cell.
 */
int post_join_tokens(const struct toks *raw, struct toks *out)
{
	char buf[TOK_MAX * 2];
	out->junk = raw->junk;
	for (int i = 0; i < raw->n; i++) {
		char *t = raw->v[i];
		bool copy = false;
		size_t junk = junk_prefix(t);
		if (junk) {
			out->junk++;
			t += junk;
			if (!*t)
				continue;
		}
		size_t tl = strlen(t);
		while (tl > 1 && t[tl - 1] == '|')
			tl--;
		if (tl < strlen(t)) {
			out->junk++;
			if (toks_push_copy(out, t, tl))
				return -1;
			continue;	/* "4.72M/s|": the cell without its bar */
		}
		const char *dollar = strstr(t, "$[");
		if (dollar && !strchr(dollar, ']')) {
			size_t n = (size_t)snprintf(buf, sizeof(buf), "%.*s", TOK_MAX, t);
			for (int k = 0; k < 8 && i + 1 < raw->n && n < TOK_MAX; k++) {
				const char *next = raw->v[++i];
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %.*s", TOK_MAX, next);
				if (n >= sizeof(buf))
					n = sizeof(buf) - 1;
				if (strchr(next, ']'))
					break;
			}
			t = buf;
			copy = true;
		} else if (strcmp(t, "-") == 0) {
			continue;	/* a list marker ("- " from paste sites) */
		} else if (i + 1 < raw->n && t[0] == '-' && t[strlen(t) - 1] == '-' &&
			   strlen(t) >= 2 && strlen(t) <= 8 && isalpha((unsigned char)raw->v[i + 1][0])) {
			snprintf(buf, sizeof(buf), "%s%.*s", t, TOK_MAX, raw->v[i + 1]);
			i++;
			t = buf;
			copy = true;
		}
		const char *glue;
		while (t[0] == '-' && (glue = glued_option(t)) != NULL) {
			if (toks_push_copy(out, t, (size_t)(glue - t)))
				return -1;
			t = (char *)glue;
			copy = true;
		}
		if (copy ? toks_push_copy(out, t, strlen(t)) : toks_push_ref(out, t))
			return -1;
	}
	return 0;
}
