/*
 * -a tables made at the original's places: does another erase size fit
 * each row's share of places on a boundary better than the step found?
 */
#include "analyze/analyze.h"
#include "analyze/analyze_internal.h"
#include "lib/units.h"

#include <math.h>
#include <stdio.h>

/*
 * The original's -a places (doc/card-facts.md, "The original's -a
 * places"): row A is read at k*M + A, k = 0..6, M the top row (a power of
 * two), wrapping modulo the device size. With a 3*2^n erase size E, M is
 * E/3 or 2E/3 modulo E, so only some places of each row land on an
 * erase-block boundary and every row from E/3 up reads a partial diff.
 * The size is not in the table, only that it lies in (3.5M, 7M]: it is
 * tried as (w - 1)*M + t, w = 4..7, t = M/4..M, and modulo E in steps of
 * E/12 (or "wrapped places never on a boundary").
 */
#define ORIGINAL_PLACES 7	/* measure/measure.c align_places */
#define FIT_SHIFTS 13
struct size_guess {
	int w, quarters, shift;	/* size = (w - 1)*M + quarters*M/4, = shift*E/12 modulo E */
};

static double hit_share(uint64_t m, uint64_t a, uint64_t e, const struct size_guess *g)
{
	uint64_t wrap_at = (uint64_t)(g->w - 1) * m + (uint64_t)g->quarters * (m / 4);
	int hits = 0;
	for (int k = 0; k < ORIGINAL_PLACES; k++) {
		uint64_t place = (uint64_t)k * (m % e) % e + a % e;
		if ((uint64_t)k * m + a >= wrap_at) {
			if (g->shift == FIT_SHIFTS - 1)
				continue;	/* wrapped places never on a boundary */
			place += e - e * (uint64_t)g->shift / 12;
		}
		hits += place % e == 0;
	}
	return hits / (double)ORIGINAL_PLACES;
}

/* least squares d = b + x*f over the rows; residual sum of squares, x */
static double fit_rss(const double *f, const double *d, int n, double *x_out)
{
	double sf = 0, sd = 0, sff = 0, sfd = 0, rss = 0;
	for (int i = 0; i < n; i++) {
		sf += f[i];
		sd += d[i];
		sff += f[i] * f[i];
		sfd += f[i] * d[i];
	}
	double var = sff - sf * sf / n;
	if (var <= 1e-12)
		return -1;
	double x = (sfd - sf * sd / n) / var, b = (sd - x * sf) / n;
	for (int i = 0; i < n; i++)
		rss += (d[i] - b - x * f[i]) * (d[i] - b - x * f[i]);
	*x_out = x;
	return rss;
}

/* The best fit of erase size e over the size guesses; -1 if none rises. */
static double fit_erase(const struct pt *p, int n, uint64_t m, uint64_t e)
{
	double f[256], d[256], best = -1;
	struct size_guess g;
	for (g.w = 4; g.w <= ORIGINAL_PLACES; g.w++)
		for (g.quarters = g.w == 4 ? 2 : 1; g.quarters <= 4; g.quarters++)
			for (g.shift = 0; g.shift < FIT_SHIFTS; g.shift++) {
				for (int i = 0; i < n; i++) {
					f[i] = hit_share(m, p[i].align, e, &g);
					d[i] = p[i].d;
				}
				double x, rss = fit_rss(f, d, n, &x);
				if (rss >= 0 && x > 0 && (best < 0 || rss < best))
					best = rss;
			}
	return best;
}

static bool original_places(const struct pt *p, int n)
{
	if (!is_pow2(p[0].align))
		return false;	/* not this top row: an older version of the original */
	for (int i = 0; i < n; i++)
		if (p[i].positions && p[i].positions != ORIGINAL_PLACES)
			return false;
	return true;
}

static double total_ss(const struct pt *p, int n)
{
	double tss = 0, mean = 0;
	for (int i = 0; i < n; i++)
		mean += p[i].d / n;
	for (int i = 0; i < n; i++)
		tss += (p[i].d - mean) * (p[i].d - mean);
	return tss;
}

static uint64_t best_fitting_erase(const struct pt *p, int n, uint64_t m, uint64_t e0, double *rss)
{
	uint64_t best_e = 0;
	*rss = -1;
	for (uint64_t base = e0 / 4; base <= 8 * e0; base *= 2)
		for (int odd = 0; odd < 2; odd++) {
			uint64_t e = odd ? base / 2 * 3 : base;
			if (e == e0 || e < ERASE_MIN || e > ERASE_MAX || e > m || (odd && base % 2))
				continue;
			double r = fit_erase(p, n, m, e);
			if (r >= 0 && (*rss < 0 || r < *rss)) {
				*rss = r;
				best_e = e;
			}
		}
	return best_e;
}

/*
 * An answer from a table the original's places made: when another erase
 * size (2^n or 3*2^n, from a quarter to eight times it) predicts the full
 * / partial / no diff of every row much better, it is the answer (the step
 * found was a partial level, and an "allocation group" above it the rows
 * hitting at 3 places of 7 rather than 2).
 */
void analyze_fit_original_pattern(const struct pt *p, int n, struct size_estimate *erase)
{
	uint64_t e0 = erase->bytes, m = p[0].align;
	struct pt rows[256];
	int k = 0;
	if (!e0 || !original_places(p, n))
		return;
	/* rows around the candidates only: allocation groups (1-2 GiB) are no part of the model */
	for (int i = 0; i < n; i++)
		if (p[i].align >= e0 / 16 && p[i].align <= fmax(2 * ERASE_MAX, 16.0 * e0) && k < 256)
			rows[k++] = p[i];
	if (k < 8)
		return;
	double tss = total_ss(rows, k), rss0 = fit_erase(rows, k, m, e0), best;
	uint64_t best_e = best_fitting_erase(rows, k, m, e0, &best);
	if (!best_e || tss <= 0 || best > 0.2 * tss)
		return;
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];
	double r2 = 1 - best / tss, r2_0 = rss0 >= 0 ? 1 - rss0 / tss : 0;
	if (rss0 >= 0 && best >= 0.5 * rss0) {
		if (best < rss0 && erase->conf > CONF_LOW) {
			/* better, not clearly: the answer stands, unsure */
			erase->conf = CONF_LOW;
			fmt_append(erase->evidence, sizeof(erase->evidence),
				"; at the original's places a %s erase block fits the diffs about as "
				"well (R^2 %.2f, %s: %.2f)", fmt_size(a, best_e), r2,
				fmt_size(b, e0), r2_0);
		}
		return;
	}
	snprintf(erase->evidence, sizeof(erase->evidence),
		 "the original's places (k x %s + A, k = 0..6) hit a %s boundary at a share of "
		 "each row's places that fits the diffs (R^2 %.2f; a %s erase block: %.2f): "
		 "the step at %s is a partial level", fmt_size(a, m), fmt_size(b, best_e), r2,
		 fmt_size(c, e0), r2_0 < 0 ? 0 : r2_0, c);
	erase->bytes = best_e;
	erase->group = 0;
	erase->conf = r2 >= 0.95 && (rss0 < 0 || best < 0.1 * rss0) ? CONF_MEDIUM : CONF_LOW;
}
