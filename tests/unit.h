/*
 * Minimal unit-test support: CHECK counts, main() ends with unit_summary().
 *
 * Prefer the comparing checks: on failure they print both values, not only
 * the expression.
 *   CHECK_EQ(got, want)  CHECK_NE  CHECK_LT  CHECK_LE  CHECK_GT  CHECK_GE
 *       integers, enums, bools or floating point (not pointers)
 *   CHECK_NEAR(got, want, tolerance)   |got - want| <= tolerance, as doubles
 *   CHECK_STR(got, want)               strings (NULL prints as "(null)")
 * CHECK(cond) remains for conditions that are not one comparison.
 */
#ifndef FB_UNIT_H
#define FB_UNIT_H

#include <math.h>
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
				    __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } \
} while (0)

/* A value as printed by a failed check: integer, unsigned or floating. */
struct unit_val {
	char kind;	/* 'i', 'u', 'd' */
	long long i;
	unsigned long long u;
	double d;
};

static inline struct unit_val unit_val_i(long long v) { return (struct unit_val){ .kind = 'i', .i = v }; }
static inline struct unit_val unit_val_u(unsigned long long v) { return (struct unit_val){ .kind = 'u', .u = v }; }
static inline struct unit_val unit_val_d(double v) { return (struct unit_val){ .kind = 'd', .d = v }; }

/* Unary + promotes bit-fields, bools and chars, and refuses pointers. */
#define UNIT_VAL(x) _Generic(+(x), \
	float: unit_val_d, double: unit_val_d, long double: unit_val_d, \
	unsigned int: unit_val_u, unsigned long: unit_val_u, unsigned long long: unit_val_u, \
	default: unit_val_i)(+(x))

static inline const char *unit_val_str(struct unit_val v, char *buf, size_t len)
{
	switch (v.kind) {
	case 'u':
		if (v.u >= 10)
			snprintf(buf, len, "%llu (0x%llx)", v.u, v.u);
		else
			snprintf(buf, len, "%llu", v.u);
		break;
	case 'd':
		snprintf(buf, len, "%.9g", v.d);
		break;
	default:
		snprintf(buf, len, "%lld", v.i);
		break;
	}
	return buf;
}

static inline void unit_fail_cmp(const char *file, int line, const char *gs, const char *op,
				 const char *ws, struct unit_val g, struct unit_val w)
{
	char gb[64], wb[64];

	unit_failed++;
	printf("FAIL %s:%d: %s %s %s: got %s, want %s %s\n", file, line, gs, op, ws,
	       unit_val_str(g, gb, sizeof gb), op, unit_val_str(w, wb, sizeof wb));
}

/*
 * Each operand is evaluated once and compared as the test wrote it. Copies
 * of literals are not constants, so -Wsign-compare would flag what the
 * plain comparison accepts (x == 5 for an unsigned x): silenced here only.
 */
#define UNIT_CMP(got, op, want, gs, ws) do { \
	__auto_type g_ = +(got); \
	__auto_type w_ = +(want); \
	_Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wsign-compare\"") \
	int ok_ = g_ op w_; \
	_Pragma("GCC diagnostic pop") \
	if (ok_) unit_passed++; \
	else unit_fail_cmp(__FILE__, __LINE__, gs, #op, ws, UNIT_VAL(g_), UNIT_VAL(w_)); \
} while (0)

#define CHECK_EQ(got, want) UNIT_CMP(got, ==, want, #got, #want)
#define CHECK_NE(got, want) UNIT_CMP(got, !=, want, #got, #want)
#define CHECK_LT(got, want) UNIT_CMP(got, <, want, #got, #want)
#define CHECK_LE(got, want) UNIT_CMP(got, <=, want, #got, #want)
#define CHECK_GT(got, want) UNIT_CMP(got, >, want, #got, #want)
#define CHECK_GE(got, want) UNIT_CMP(got, >=, want, #got, #want)

#define CHECK_NEAR(got, want, tol) do { \
	double g_ = (got), w_ = (want), t_ = (tol); \
	if (fabs(g_ - w_) <= t_) unit_passed++; \
	else { unit_failed++; printf("FAIL %s:%d: %s is %.9g, want %s = %.9g within %g\n", \
				    __FILE__, __LINE__, #got, g_, #want, w_, t_); } \
} while (0)

static inline int unit_summary(void)
{
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif
