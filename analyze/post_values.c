/*
 * Field values of saved flashbench output: times, rates and sizes with
 * their units, and option values with suffixes and $[...] arithmetic.
 */
#include "analyze/post.h"
#include "analyze/post_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

/* ---------- numbers ---------- */

/* A leading decimal number (no inf/nan/hex); *end points after it. */
static int leading_number(const char *s, double *v, const char **end)
{
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (isdigit((unsigned char)p[1]) ||
	     ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
		p += 2;
		while (isdigit((unsigned char)*p))
			p++;
	}
	char buf[64];
	size_t n = (size_t)(p - s);
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	double x = strtod(buf, NULL);
	if (!isfinite(x))
		return -1;
	*v = x;
	*end = p;
	return 0;
}

bool post_is_numeric_token(const char *s)
{
	double v;
	const char *end;
	return leading_number(s, &v, &end) == 0 && *end == 0;
}

struct unit {
	const char *suffix;
	double mult;
};

static int number_with_unit(const char *tok, const struct unit *units, double *out)
{
	double v;
	const char *end;
	if (leading_number(tok, &v, &end))
		return -1;
	for (const struct unit *u = units; u->suffix; u++) {
		if (strcmp(end, u->suffix) == 0) {
			*out = v * u->mult;
			return 0;
		}
	}
	return -1;
}

int post_parse_time(const char *tok, int64_t *ns)
{
	/* µ as UTF-8, as Latin-1, as UTF-8 read as Latin-1 and re-encoded, or "u" */
	static const struct unit units[] = {
		{ "ns", 1 }, { "n", 1 }, { "", 1 },
		{ "\xc2\xb5s", 1e3 }, { "\xc2\xb5", 1e3 }, { "\xb5s", 1e3 }, { "\xb5", 1e3 },
		{ "\xc3\x82\xc2\xb5s", 1e3 }, { "us", 1e3 }, { "u", 1e3 },
		/* Greek mu, as UTF-8 and as UTF-8 read as Latin-1; U+FFFD or '?' for a lost one */
		{ "\xce\xbcs", 1e3 }, { "\xc3\x8e\xc2\xbcs", 1e3 }, { "\xef\xbf\xbds", 1e3 },
		{ "?s", 1e3 },
		{ "ms", 1e6 }, { "m", 1e6 }, { "s", 1e9 },
		{ NULL, 0 }
	};
	double v;
	if (number_with_unit(tok, units, &v) || fabs(v) > 1e15)
		return -1;
	*ns = (int64_t)llround(v);
	return 0;
}

int post_parse_rate(const char *tok, double *bps)
{
	static const struct unit units[] = {
		{ "B/s", 1 }, { "K/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 }, { "T/s", 1e12 },
		{ "B/", 1 }, { "K/", 1e3 }, { "M/", 1e6 }, { "G/", 1e9 },
		{ NULL, 0 }
	};
	double v;
	if (number_with_unit(tok, units, &v) || v < 0 || v > 1e15)
		return -1;
	*bps = v;
	return 0;
}

int post_parse_size(const char *tok, uint64_t *bytes)
{
	static const struct unit units[] = {
		{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
		{ NULL, 0 }
	};
	double v;
	if (tok[0] == '-' || tok[0] == '+' || number_with_unit(tok, units, &v))
		return -1;
	if (v < 1 || v > 1e18)
		return -1;
	*bytes = (uint64_t)llround(v);
	return 0;
}

/* ---------- option values: sizes with suffixes and $[...] arithmetic ---------- */

struct expr {
	const char *p;
	int depth;
	bool bad;
};

static double expr_sum(struct expr *e);

static void expr_space(struct expr *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

static double suffix_mult(const char **pp)
{
	static const struct unit units[] = {
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "KB", 1024.0 }, { "MB", 1048576.0 }, { "GB", 1073741824.0 },
		{ "k", 1024.0 }, { "K", 1024.0 }, { "M", 1048576.0 }, { "G", 1073741824.0 },
		{ "B", 1 }, { NULL, 0 }
	};
	for (const struct unit *u = units; u->suffix; u++) {
		size_t n = strlen(u->suffix);
		if (strncmp(*pp, u->suffix, n) == 0 && !isalnum((unsigned char)(*pp)[n])) {
			*pp += n;
			return u->mult;
		}
	}
	return 1;
}

static double expr_factor(struct expr *e)
{
	expr_space(e);
	if (*e->p == '(') {
		if (++e->depth > 16) {
			e->bad = true;
			return 0;
		}
		e->p++;
		double v = expr_sum(e);
		expr_space(e);
		if (*e->p != ')')
			e->bad = true;
		else
			e->p++;
		e->depth--;
		return v;
	}
	double v;
	const char *end;
	if (*e->p == '-' || *e->p == '+' || leading_number(e->p, &v, &end)) {
		e->bad = true;
		return 0;
	}
	e->p = end;
	return v * suffix_mult(&e->p);
}

static double expr_product(struct expr *e)
{
	double v = expr_factor(e);
	for (;;) {
		expr_space(e);
		char op = *e->p;
		if (op != '*' && op != '/')
			return v;
		e->p++;
		double w = expr_factor(e);
		if (op == '*')
			v *= w;
		else if (w != 0)
			v /= w;
		else
			e->bad = true;
	}
}

static double expr_sum(struct expr *e)
{
	double v = expr_product(e);
	for (;;) {
		expr_space(e);
		char op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		double w = expr_product(e);
		v = op == '+' ? v + w : v - w;
	}
}

int post_eval_size(const char *s, uint64_t *bytes)
{
	struct expr e = { s, 0, false };
	bool bracket = false;
	if (strncmp(s, "$[", 2) == 0 || strncmp(s, "$((", 3) == 0) {
		bracket = true;
		e.p = s + (s[1] == '[' ? 2 : 3);
	}
	double v = expr_sum(&e);
	expr_space(&e);
	if (bracket) {
		if (*e.p == ']')
			e.p++;
		else if (e.p[0] == ')' && e.p[1] == ')')
			e.p += 2;
		else
			e.bad = true;
	}
	if (e.bad || *e.p || !isfinite(v) || v < 0 || v > 9.2e18 || v != floor(v))
		return -1;
	*bytes = (uint64_t)v;
	return 0;
}
