/* Minimal unit-test support: CHECK counts, main() ends with unit_summary(). */
#ifndef FB_UNIT_H
#define FB_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed;

#define CHECK(cond) do { \
	if (cond) unit_passed++; \
	else { unit_failed++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (g_ && w_ && strcmp(g_, w_) == 0) unit_passed++; \
	else { unit_failed++; printf("FAIL %s:%d: %s is \"%s\", want \"%s\"\n", \
				    __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_); } \
} while (0)

static inline int unit_summary(void)
{
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif
