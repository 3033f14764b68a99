/*
 * -a tables read as a staircase of levels (doc/card-facts.md, "Read
 * boundaries"): the diff of a boundary is the cost of the largest unit
 * whose boundary it is, so the power-of-two rows, read from the smallest
 * up, climb from a floor through the page, multi-plane, erase-block and
 * allocation-group levels. When every row sits clearly on one level and
 * every other row (3*2^n) reads the level of the largest level boundary
 * that divides it, the staircase names each level: the lowest above the
 * floor is the page, however many rows wide; the next, below 128 KiB,
 * is pages read in groups (multi-plane); the highest from 128 KiB to
 * 64 MiB is the erase block; above that, allocation groups. A level on
 * a raised floor counts by its height against the rows' scatter, not by
 * its ratio to the floor. Tables that are not such a staircase (diluted
 * rows, spikes, 3*2^n erase blocks) are left to the step search
 * (analyze/analyze_align.c).
 */
#include "analyze/analyze.h"
#include "analyze/analyze_internal.h"
#include "lib/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 64

/* ascending power-of-two rows */
static int pow2_rows(const struct pt *p, int n, struct pt *out)
{
	int m = 0;
	for (int i = n - 1; i >= 0 && m < MAX_ROWS; i--)
		if (is_pow2(p[i].align))
			out[m++] = p[i];
	return m;
}

static void level_stats(const struct pt *r, struct align_level *lv)
{
	double v[MAX_ROWS];
	for (int i = 0; i < lv->nrows; i++)
		v[i] = r[lv->first + i].d;
	lv->h = analyze_median(v, lv->nrows);
	lv->sigma = lv->nrows >= 3 ? analyze_robust_sigma(v, lv->nrows) : 0;
	lv->min = lv->max = v[0];
	for (int i = 1; i < lv->nrows; i++) {
		lv->min = fmin(lv->min, v[i]);
		lv->max = fmax(lv->max, v[i]);
	}
}

/* scatter of the rows: the widest level's relative spread, at least 1% */
static double relative_scatter(const struct align_ladder *l)
{
	double rel = 0;
	for (int k = 0; k < l->n; k++) {
		const struct align_level *lv = &l->lv[k];
		if (lv->nrows >= 3 && lv->h > 0 && lv->h >= 0.05 * l->lv[l->n - 1].h)
			rel = fmax(rel, lv->sigma / lv->h);
	}
	return fmax(rel, 0.01);
}

/* the noise a step between levels k-1 and k is measured against */
static double step_sigma(const struct align_ladder *l, int k, double rel)
{
	const struct align_level *a = &l->lv[k - 1], *b = &l->lv[k];
	return fmax(rel * b->h, fmax(a->sigma, b->sigma));
}

/*
 * A step counts when it is large against the noise: 5 sigma with the
 * usual ratio (STEP_RATIO), 10 sigma on a raised floor (GROUP_RATIO up),
 * and a noticeable part of a read (NOISE_FRACTION).
 */
static bool step_counts(const struct align_ladder *l, int k, double rel, double read)
{
	const struct align_level *a = &l->lv[k - 1], *b = &l->lv[k];
	double sep = b->h - a->h, sigma = step_sigma(l, k, rel);
	if (sep <= 0 || (read > 0 && sep < NOISE_FRACTION * read))
		return false;
	if (a->h <= 0 || b->h >= STEP_RATIO * a->h)
		return sep >= 5 * sigma;
	return b->h >= GROUP_RATIO * a->h && sep >= 10 * sigma;
}

/*
 * Level k joins level k-1. An undecided rise keeps the lower group's
 * height and the larger scatter of the two: the union's spread is the
 * rise, not noise.
 */
static void merge_level(struct align_ladder *l, const struct pt *r, int k, bool undecided)
{
	double h = l->lv[k - 1].h, sigma = fmax(l->lv[k - 1].sigma, l->lv[k].sigma);
	l->lv[k - 1].nrows += l->lv[k].nrows;
	memmove(&l->lv[k], &l->lv[k + 1], sizeof(l->lv[0]) * (size_t)(l->n - k - 1));
	l->n--;
	level_stats(r, &l->lv[k - 1]);
	if (undecided) {
		l->lv[k - 1].h = h;
		l->lv[k - 1].sigma = sigma;
	}
}

/*
 * Every row of the levels below lim nearer its own level than 0.4 of
 * the way to the next one up or down (a spike away from both is noise).
 */
static bool rows_on_levels(const struct align_ladder *l, int lim)
{
	for (int k = 0; k < lim; k++) {
		const struct align_level *lv = &l->lv[k];
		double below = k ? lv->h - l->lv[k - 1].h : INFINITY;
		double above = k + 1 < l->n ? l->lv[k + 1].h - lv->h : INFINITY;
		if (lv->max - lv->h >= 0.4 * above || lv->h - lv->min >= 0.4 * below)
			return false;
	}
	return true;
}

/* the level a row of this size reads: that of the largest level boundary dividing it */
static int level_of(const struct align_ladder *l, uint64_t a)
{
	for (int k = l->n - 1; k > 0; k--)
		if (a >= l->lv[k].at && a % l->lv[k].at == 0)
			return k;
	return 0;
}

static bool other_rows_fit(const struct align_ladder *l, const struct pt *p, int n, int lim)
{
	for (int i = 0; i < n; i++) {
		if (is_pow2(p[i].align))
			continue;
		int k = level_of(l, p[i].align);
		if (k >= lim)
			continue;
		const struct align_level *lv = &l->lv[k];
		double below = k ? lv->h - l->lv[k - 1].h : INFINITY;
		double above = k + 1 < l->n ? l->lv[k + 1].h - lv->h : INFINITY;
		if (fabs(p[i].d - lv->h) >= 0.4 * fmin(below, above))
			return false;
	}
	return true;
}

bool analyze_align_ladder(const struct pt *p, int n, double read, struct align_ladder *l)
{
	struct pt r[MAX_ROWS];
	int m = pow2_rows(p, n, r);
	memset(l, 0, sizeof(*l));
	if (m < MIN_GOOD_ROWS)
		return false;
	/* candidate levels: every rise of GROUP_RATIO over the row below */
	l->n = 1;
	l->lv[0].first = 0;
	l->lv[0].nrows = 1;
	for (int i = 1; i < m; i++) {
		double prev = r[i - 1].d, d = r[i].d;
		bool rise = d - prev > 0 && (prev <= 0 || d >= GROUP_RATIO * prev);
		if (rise && l->n < ALIGN_MAX_LEVELS) {
			l->lv[l->n].first = i;
			l->lv[l->n].nrows = 1;
			l->n++;
		} else {
			l->lv[l->n - 1].nrows++;
		}
	}
	for (int k = 0; k < l->n; k++)
		level_stats(r, &l->lv[k]);
	/* levels the noise can explain melt into the one below, smallest step first */
	for (;;) {
		double rel = relative_scatter(l);
		int worst = 0;
		double worst_z = INFINITY;
		for (int k = 1; k < l->n; k++) {
			if (step_counts(l, k, rel, read))
				continue;
			double z = (l->lv[k].h - l->lv[k - 1].h) / fmax(step_sigma(l, k, rel), 1e-9);
			if (z < worst_z) {
				worst_z = z;
				worst = k;
			}
		}
		if (!worst)
			break;
		/*
		 * Two groups of rows apart by 2 sigma or more, each of several
		 * rows, that the step test cannot call: not a clean staircase
		 * (the step search decides).
		 */
		const struct align_level *hi = &l->lv[worst], *lo = &l->lv[worst - 1];
		bool undecided = hi->nrows >= 2 && lo->nrows >= 2 && hi->min > lo->max &&
				 hi->h - lo->h >= 2 * step_sigma(l, worst, rel);
		if (undecided && (!l->unsure_at || r[hi->first].align < l->unsure_at)) {
			l->unsure_at = r[hi->first].align;
			l->unsure_rise = hi->h - lo->h;
			l->unsure_below = lo->h;
			l->unsure_z = (hi->h - lo->h) / fmax(step_sigma(l, worst, rel), 1e-9);
		}
		merge_level(l, r, worst, undecided);
	}
	for (int k = 0; k < l->n; k++)
		l->lv[k].at = r[l->lv[k].first].align;
	l->rel_scatter = relative_scatter(l);
	/* the levels up to the one holding an undecided step have sure starts */
	int lim = l->n;
	for (int k = 0; k < l->n && l->unsure_at; k++)
		if (l->lv[k].at < l->unsure_at)
			lim = k + 1;
	if (l->unsure_at) {
		l->sure = rows_on_levels(l, lim - 1) && other_rows_fit(l, p, n, lim - 1) ? lim : 0;
		return false;
	}
	l->sure = l->n >= 2 && rows_on_levels(l, l->n) && other_rows_fit(l, p, n, l->n) ? l->n : 0;
	return l->sure == l->n && l->n >= 2;
}

/* ---------- naming the levels ---------- */

/*
 * "what: diff at X and its multiples A..B (median H), below it at most M
 * (median L)", the step search's words; a raised floor adds the rise
 * against the scatter.
 */
static void describe_level(char *ev, size_t n, const struct align_ladder *l, int k, const char *what)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], d[FMT_BUF];
	const struct align_level *lv = &l->lv[k], *below = &l->lv[k - 1];
	double lo = lv->min, hi = lv->max;
	for (int j = k + 1; j < l->n; j++) {
		lo = fmin(lo, l->lv[j].min);
		hi = fmax(hi, l->lv[j].max);
	}
	fmt_append(ev, n, "%s%s: diff at %s and its multiples %s..%s (median %s)", ev[0] ? "; " : "",
		what, fmt_size(a, lv->at), fmt_time(b, (int64_t)lo), fmt_time(c, (int64_t)hi),
		fmt_time(d, (int64_t)lv->h));
	fmt_append(ev, n, ", below it at most %s (median %s)", fmt_time(a, (int64_t)below->max),
		fmt_time(b, (int64_t)below->h));
	double sigma = step_sigma(l, k, l->rel_scatter);
	if (below->h > 0 && lv->h < STEP_RATIO * below->h)
		fmt_append(ev, n, " (+%.0f%%, %.0fx the scatter)", 100 * (lv->h / below->h - 1),
			(lv->h - below->h) / fmax(sigma, 1e-9));
	if (lv->nrows < l->n && k + 1 < l->n)
		fmt_append(ev, n, ", up to %s", fmt_size(a, l->lv[k + 1].at / 2));
}

static enum confidence level_confidence(const struct align_ladder *l, int k)
{
	const struct align_level *lv = &l->lv[k], *below = &l->lv[k - 1];
	double z = (lv->h - below->h) / fmax(step_sigma(l, k, l->rel_scatter), 1e-9);
	bool top = k == l->n - 1;
	int rows_on = 0;
	for (int j = k; j < l->n; j++)
		rows_on += l->lv[j].nrows;
	if (below->h > 0 && lv->h < STEP_RATIO * below->h)
		return CONF_MEDIUM;	/* a raised floor: clear, but not the usual step */
	double margin = (lv->min - below->max) / (lv->h - below->h);
	if (z < 5 || margin < 0.25 || (top && lv->nrows < 2) || rows_on < 2 || below->nrows < 2)
		return CONF_MEDIUM;
	return CONF_HIGH;
}

static void floor_line(char *ev, size_t n, const struct align_ladder *l)
{
	char a[FMT_BUF], b[FMT_BUF];
	fmt_append(ev, n, "%sfloor: %s from %s (%d row%s)", ev[0] ? "; " : "", fmt_time(a, (int64_t)l->lv[0].h),
		fmt_size(b, l->lv[0].at), l->lv[0].nrows, l->lv[0].nrows == 1 ? "" : "s");
}

/* page and multi-plane: lv[1] and lv[2] when their starts are sure and below erase level e */
static void name_page(const struct align_ladder *l, int e, struct size_estimate *page)
{
	char a[FMT_BUF], b[FMT_BUF];
	memset(page, 0, sizeof(*page));
	bool pg = l->sure > 1 && (e < 0 || 1 < e) && l->lv[1].at <= MAX_PAGE &&
		  l->lv[1].at < ERASE_MIN && (is_pow2(l->lv[1].at) || l->lv[1].at <= MAX_ODD_PAGE);
	if (!pg) {
		floor_line(page->evidence, sizeof(page->evidence), l);
		fmt_append(page->evidence, sizeof(page->evidence),
			": no level between the floor and %s", e > 0 ? "the erase-block level" : "the top");
		return;
	}
	page->bytes = l->lv[1].at;
	page->conf = level_confidence(l, 1);
	describe_level(page->evidence, sizeof(page->evidence), l, 1, "page (the lowest level above the floor)");
	if (l->sure > 2 && (e < 0 || 2 < e) && l->lv[2].at < ERASE_MIN &&
	    l->lv[2].at / l->lv[1].at <= 8) {
		page->multiplane = l->lv[2].at;
		if (page->conf > CONF_MEDIUM)
			page->conf = CONF_MEDIUM;
		snprintf(a, sizeof(a), "multi-plane (pages read in groups of %s)",
			 fmt_size(b, l->lv[2].at));
		describe_level(page->evidence, sizeof(page->evidence), l, 2, a);
	}
	for (int k = page->multiplane ? 3 : 2; k < (e > 0 ? e : l->sure); k++)
		if (l->lv[k].at <= ERASE_MAX)
			describe_level(page->evidence, sizeof(page->evidence), l, k,
				       l->lv[k].at >= ERASE_MIN ? "a level inside the erase block"
								: "a further level (not a page size)");
}

static int erase_level(const struct align_ladder *l)
{
	int e = -1;
	for (int k = 1; k < l->sure; k++)
		if (l->lv[k].at >= ERASE_MIN && l->lv[k].at <= ERASE_MAX && units_is_erase_candidate(l->lv[k].at))
			e = k;
	return e;
}

void analyze_align_name_levels(const struct align_ladder *l, struct size_estimate *erase,
		       struct size_estimate *page)
{
	char a[FMT_BUF], b[FMT_BUF];
	int e = erase_level(l);
	memset(erase, 0, sizeof(*erase));
	name_page(l, e, page);
	if (e > 0) {
		erase->bytes = l->lv[e].at;
		erase->conf = level_confidence(l, e);
		describe_level(erase->evidence, sizeof(erase->evidence), l, e, "step");
	} else {
		fmt_append(erase->evidence, sizeof(erase->evidence),
			"no step between %s and %s, the sizes erase blocks have", fmt_size(a, ERASE_MIN),
			fmt_size(b, ERASE_MAX));
	}
	for (int k = 1; k < l->n; k++)
		if (l->lv[k].at > ERASE_MAX) {
			if (!erase->group)
				erase->group = l->lv[k].at;
			char c[FMT_BUF], d[FMT_BUF];
			fmt_append(erase->evidence, sizeof(erase->evidence),
				"%sallocation group: a further step at %s (diff %s over %s), above the "
				"largest erase block (%s)", erase->evidence[0] ? "; " : "",
				fmt_size(a, l->lv[k].at), fmt_time(b, (int64_t)l->lv[k].h),
				fmt_time(c, (int64_t)l->lv[k - 1].h), fmt_size(d, ERASE_MAX));
		}
}

/*
 * A staircase whose lower levels are sure and a higher rise undecided:
 * the page and multi-plane levels are named from it (the step search
 * reads a level two rows wide as "below"); the erase size stays the step
 * search's, and an undecided rise in the erase-block range is a low one.
 */
void analyze_align_name_lower_levels(const struct align_ladder *l, struct size_estimate *erase,
			     struct size_estimate *page)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];
	if (l->sure < 2 || l->lv[1].at >= ERASE_MIN)
		return;
	struct size_estimate lower;
	name_page(l, -1, &lower);
	if (lower.bytes && (lower.bytes != page->bytes || lower.multiplane != page->multiplane ||
			    lower.conf < page->conf))
		*page = lower;
	if (erase->bytes || !l->unsure_at || l->unsure_at < ERASE_MIN || l->unsure_at > ERASE_MAX ||
	    !units_is_erase_candidate(l->unsure_at))
		return;
	erase->bytes = l->unsure_at;
	erase->conf = CONF_LOW;
	fmt_append(erase->evidence, sizeof(erase->evidence),
		"%sa rise from %s: diff %s over %s (%.1fx the scatter), too small against the "
		"noise to be sure", erase->evidence[0] ? "; " : "", fmt_size(a, l->unsure_at),
		fmt_time(b, (int64_t)(l->unsure_below + l->unsure_rise)),
		fmt_time(c, (int64_t)l->unsure_below), l->unsure_z);
}
