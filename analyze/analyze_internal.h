/* Shared by the analysis files (analyze*.c) only; not part of the public API. */
#ifndef FB_ANALYZE_INTERNAL_H
#define FB_ANALYZE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/analyze.h"

/* small statistics (analyze/analyze.c) */
double median(const double *v, int n);
/* Robust standard deviation: 1.4826 * median absolute deviation. */
double robust_sigma(const double *v, int n);

/* one good -a row */
struct pt {
	uint64_t align;
	double d;		/* diff, ns */
	double read;		/* (pre + post) / 2, ns: the cost of a plain read */
	int positions;		/* places sampled; 0 = unknown (parsed text) */
};

/* -a tables made at the original's places: the model fit (analyze/analyze_align_fit.c) */
void fit_original_pattern(const struct pt *p, int n, struct size_estimate *erase);

#endif
