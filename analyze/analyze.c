/*
 * Inference from measurements (facts: doc/flash-card-model.md §3-§7):
 * the small statistics the analysis shares.
 * -a tables: analyze/analyze_align.c (and analyze/analyze_align_fit.c for tables made at
 * the original's places); --open-au and --find-fat: analyze/analyze_open_au.c.
 */
#include "analyze/analyze.h"
#include "analyze/analyze_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------- small statistics ---------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double analyze_median(const double *v, int n)
{
	if (n <= 0)
		return 0;
	double *s = malloc(sizeof(*s) * (size_t)n);
	if (!s)
		return v[0];
	memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* Robust standard deviation: 1.4826 * median absolute deviation. */
double analyze_robust_sigma(const double *v, int n)
{
	if (n < 2)
		return 0;
	double m = analyze_median(v, n);
	double *d = malloc(sizeof(*d) * (size_t)n);
	if (!d)
		return 0;
	for (int i = 0; i < n; i++)
		d[i] = fabs(v[i] - m);
	double s = 1.4826 * analyze_median(d, n);
	free(d);
	return s;
}
