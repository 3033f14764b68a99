#include "lib/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Multiplier of a size suffix ("", "k", "K", "KiB", "KB", "M", ...), 0 if unknown. */
static uint64_t suffix_multiplier(const char *s)
{
	static const char units[] = "BKMGTP";
	const char *u;

	if (*s == '\0')
		return 1;
	u = strchr(units, toupper((unsigned char)*s));
	if (!u)
		return 0;
	uint64_t m = 1ull << (10 * (u - units));
	s++;
	if (u != units) {		/* K, Ki, KiB, KB */
		if (*s == 'i')
			s++;
		if (*s == 'B')
			s++;
	}
	return *s == '\0' ? m : 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	uint64_t mult;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		errno = 0;
		unsigned long long v = strtoull(s, &end, 16);
		if (errno || end == s + 2 || *end)
			return -1;
		*bytes = v;
		return 0;
	}
	errno = 0;
	unsigned long long whole = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	/* an optional fraction, e.g. 1.5M */
	uint64_t frac_num = 0, frac_den = 1;
	if (*end == '.') {
		end++;
		if (!isdigit((unsigned char)*end))
			return -1;
		while (isdigit((unsigned char)*end)) {
			if (frac_den > UINT64_MAX / 10 / 1024)
				return -1;
			frac_num = frac_num * 10 + (uint64_t)(*end - '0');
			frac_den *= 10;
			end++;
		}
	}
	mult = suffix_multiplier(end);
	if (!mult)
		return -1;
	if (whole > UINT64_MAX / mult)
		return -1;
	uint64_t v = whole * mult;
	if (frac_num) {
		if (frac_num > UINT64_MAX / mult || (frac_num * mult) % frac_den)
			return -1;	/* not a whole number of bytes */
		uint64_t add = frac_num * mult / frac_den;
		if (v > UINT64_MAX - add)
			return -1;
		v += add;
	}
	*bytes = v;
	return 0;
}

int parse_number(const char *s, long long min, long long max, long long *out)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

const char *units_skip_c_prefix(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '+' ? s + 1 : s;
}

int parse_offset(const char *s, uint64_t *bytes)
{
	if (!s || s[0] != '0' || !isdigit((unsigned char)s[1]))
		return parse_size(s, bytes);
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 8);
	if (errno || *end)
		return -1;
	*bytes = v;
	return 0;
}

/*
 * Formats |v| in the first unit where the figure as printed stays below
 * `limit`; the last unit takes anything. The printed figure decides, so
 * 999.7µs is "1ms" (never "1e+03µs") and 1048575 bytes "1MiB". A figure
 * that moved up a unit only by rounding keeps the smaller unit's precision.
 */
struct unit_scale {
	double factor;		/* value of one unit in base units */
	int digits;		/* significant digits */
	const char *name;
};

static const char *fmt_scaled(char *buf, double v, const struct unit_scale *u, int n, double limit)
{
	const char *sign = v < 0 ? "-" : "";
	double a = fabs(v);
	int digits = u[0].digits;

	for (int i = 0; i < n; i++) {
		double x = a / u[i].factor;
		char tmp[32];
		snprintf(tmp, sizeof tmp, "%.*g", digits, x);
		if (strchr(tmp, 'e'))	/* too large for %g: whole units */
			snprintf(tmp, sizeof tmp, "%.0f", x);
		if (i == n - 1 || strtod(tmp, NULL) < limit) {
			snprintf(buf, FMT_BUF, "%s%s%s", sign, tmp, u[i].name);
			return buf;
		}
		bool bumped_by_rounding = x < limit;
		digits = bumped_by_rounding ? u[i].digits : u[i + 1].digits;
	}
	return buf;
}

const char *fmt_time(char *buf, int64_t ns)
{
	static const struct unit_scale u[] = {
		{ 1e3, 3, "µs" }, { 1e6, 3, "ms" }, { 1e9, 4, "s" },
	};
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	/*
	 * Below 1000 ns: whole ns. The original printed every negative time so;
	 * down to -9999 ns ("-1785ns") that is intact and kept, below it cut to
	 * 7 bytes ("-11000n"), so there the units of positive times follow.
	 */
	if (a < 1000 || (ns < 0 && a < 10000)) {
		snprintf(buf, FMT_BUF, "%" PRId64 "ns", ns);
		return buf;
	}
	return fmt_scaled(buf, (double)ns, u, 3, 1000);
}

const char *fmt_size(char *buf, uint64_t bytes)
{
	static const struct unit_scale u[] = {
		{ 1024.0, 3, "KiB" }, { 1048576.0, 3, "MiB" }, { 1073741824.0, 4, "GiB" },
	};

	if (bytes < 1024) {
		snprintf(buf, FMT_BUF, "%" PRIu64 "B", bytes);
		return buf;
	}
	return fmt_scaled(buf, (double)bytes, u, 3, 1024);
}

const char *fmt_rate(char *buf, double bps)
{
	static const struct unit_scale u[] = {
		{ 1e3, 3, "K/s" }, { 1e6, 3, "M/s" }, { 1e9, 4, "G/s" },
	};

	if (!isfinite(bps)) {
		snprintf(buf, FMT_BUF, "-");
		return buf;
	}
	if (fabs(bps) < 999.5) {
		snprintf(buf, FMT_BUF, "%.0fB/s", bps);
		return buf;
	}
	return fmt_scaled(buf, bps, u, 3, 1000);
}

bool units_is_erase_candidate(uint64_t x)
{
	return is_pow2(x) || (x % 3 == 0 && is_pow2(x / 3));
}

void fmt_append(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strnlen(buf, n);
	if (len + 1 >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}
