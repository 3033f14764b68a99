/*
 * libFuzzer target for the size and number parsers (every size option and
 * sim: parameter goes through them) and the formatters of what they accept.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

static void check_round_trip(uint64_t v)
{
	char text[32];
	uint64_t again;

	snprintf(text, sizeof text, "%llu", (unsigned long long)v);
	if (parse_size(text, &again) != 0 || again != v)
		abort();
	if (v % 1024 == 0) {
		snprintf(text, sizeof text, "%lluK", (unsigned long long)(v / 1024));
		if (parse_size(text, &again) != 0 || again != v)
			abort();
	}
}

static void check_formatters(uint64_t v)
{
	char buf[FMT_BUF];

	if (strlen(fmt_size(buf, v)) >= FMT_BUF)
		abort();
	fmt_time(buf, (int64_t)v);
	fmt_time(buf, -(int64_t)(v >> 1));
	fmt_rate(buf, (double)v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t v;
	long long n;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (parse_size(s, &v) == 0) {
		check_round_trip(v);
		check_formatters(v);
		if (strspn(s, "0123456789") == size && strtoull(s, NULL, 10) != v)
			abort();
	}
	if (parse_number(s, -1000, 1000, &n) == 0 && (n < -1000 || n > 1000))
		abort();
	free(s);
	return 0;
}
