/* Shared by the analysis files (analyze*.c) only; not part of the public API. */
#ifndef FB_ANALYZE_INTERNAL_H
#define FB_ANALYZE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/analyze.h"

/* small statistics (analyze/analyze.c) */
double analyze_median(const double *v, int n);
/* Robust standard deviation: 1.4826 * median absolute deviation. */
double analyze_robust_sigma(const double *v, int n);

/* one good -a row */
struct pt {
	uint64_t align;
	double d;		/* diff, ns */
	double read;		/* (pre + post) / 2, ns: the cost of a plain read */
	int positions;		/* places sampled; 0 = unknown (parsed text) */
};

/* -a tables made at the original's places: the model fit (analyze/analyze_align_fit.c) */
void analyze_fit_original_pattern(const struct pt *p, int n, struct size_estimate *erase);

/* -a tables read as a staircase of levels (analyze/analyze_align_levels.c) */
#define ALIGN_MAX_LEVELS 8
struct align_level {
	uint64_t at;		/* the smallest boundary on this level */
	int first, nrows;	/* power-of-two rows, ascending */
	double h, sigma, min, max;	/* median diff, scatter (3+ rows, else 0), range; ns */
};
struct align_ladder {
	int n;
	struct align_level lv[ALIGN_MAX_LEVELS];	/* lv[0]: the floor */
	double rel_scatter;	/* the rows' scatter, relative to their level */
	/*
	 * The lowest rise between two groups of rows that the noise leaves
	 * undecided (0: none), merged into the level below; then only the
	 * starts of lv[0 .. sure-1] are sure. Clean tables: sure = n.
	 */
	uint64_t unsure_at;
	double unsure_rise, unsure_below, unsure_z;
	int sure;
};
/* true when the table is a clean staircase; read: a typical plain read (ns), 0 unknown */
bool analyze_align_ladder(const struct pt *p, int n, double read, struct align_ladder *l);
/* page, multi-plane, erase block and allocation groups from a clean staircase */
void analyze_align_name_levels(const struct align_ladder *l, struct size_estimate *erase,
		       struct size_estimate *page);
/* a staircase with sure lower levels (sure >= 2): page and multi-plane from it */
void analyze_align_name_lower_levels(const struct align_ladder *l, struct size_estimate *erase,
			     struct size_estimate *page);

#endif
