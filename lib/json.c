/* Streaming JSON writer. See lib/json.h. */
#include "lib/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(struct jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

size_t jw_utf8_sequence_length(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; cp = c & 0x1f; min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; cp = c & 0x0f; min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; cp = c & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void write_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	fputc('"', f);
	while (n > 0) {
		unsigned char c = *s;
		size_t len = 1;

		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else {
				len = jw_utf8_sequence_length(s, n);
				if (len)
					fwrite(s, 1, len, f);
				else {
					fputs("\\ufffd", f);	/* not UTF-8: replacement character */
					len = 1;
				}
			}
		}
		s += len;
		n -= len;
	}
	fputc('"', f);
}

static void indent(struct jw *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator, line break and key before a value; false if it must be dropped. */
static bool begin_value(struct jw *w, const char *key)
{
	if (w->overflow)
		return false;
	if (w->depth > 0) {
		bool in_line = w->inline_[w->depth];

		if (!w->first[w->depth])
			fputs(in_line ? ", " : ",", w->f);
		if (!in_line)
			indent(w);
		if (key) {
			write_escaped(w->f, key);
			fputs(": ", w->f);
		}
	}
	w->first[w->depth] = false;
	return true;
}

static void container_begin(struct jw *w, const char *key, char open)
{
	if (w->overflow) {
		w->overflow++;
		return;
	}
	if (w->depth + 1 >= JW_MAX_DEPTH) {
		/* too deep to track: a null stands for the whole container */
		jw_null(w, key);
		w->overflow = 1;
		return;
	}
	bool parent_inline = w->depth > 0 && w->inline_[w->depth];
	bool parent_is_array = w->depth > 0 && !key;

	begin_value(w, key);
	fputc(open, w->f);
	w->depth++;
	w->first[w->depth] = true;
	w->inline_[w->depth] = parent_inline || parent_is_array;
	w->closer[w->depth] = open == '{' ? '}' : ']';
}

static void container_end(struct jw *w)
{
	if (w->overflow) {
		w->overflow--;
		return;
	}
	if (w->depth == 0)
		return;
	bool was_inline = w->inline_[w->depth];
	bool empty = w->first[w->depth];
	char close = w->closer[w->depth];

	w->depth--;
	if (!was_inline && !empty)
		indent(w);
	fputc(close, w->f);
}

void jw_object_begin(struct jw *w, const char *key) { container_begin(w, key, '{'); }
void jw_object_end(struct jw *w) { container_end(w); }
void jw_array_begin(struct jw *w, const char *key) { container_begin(w, key, '['); }
void jw_array_end(struct jw *w) { container_end(w); }

void jw_string(struct jw *w, const char *key, const char *value)
{
	if (!value) {
		jw_null(w, key);
		return;
	}
	if (begin_value(w, key))
		write_escaped(w->f, value);
}

void jw_int(struct jw *w, const char *key, int64_t value)
{
	if (begin_value(w, key))
		fprintf(w->f, "%" PRId64, value);
}

void jw_uint(struct jw *w, const char *key, uint64_t value)
{
	if (begin_value(w, key))
		fprintf(w->f, "%" PRIu64, value);
}

void jw_double(struct jw *w, const char *key, double value)
{
	char buf[64];

	if (!isfinite(value)) {
		jw_null(w, key);
		return;
	}
	if (!begin_value(w, key))
		return;
	snprintf(buf, sizeof(buf), "%.15g", value);
	/* a locale with a decimal comma must not leak into the document */
	for (char *p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	fputs(buf, w->f);
}

void jw_bool(struct jw *w, const char *key, bool value)
{
	if (begin_value(w, key))
		fputs(value ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	if (begin_value(w, key))
		fputs("null", w->f);
}

void jw_finish(struct jw *w)
{
	w->overflow = 0;
	while (w->depth > 0)
		container_end(w);
	fputc('\n', w->f);
}
