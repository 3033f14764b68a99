/* --auto's verdicts from its --open-au runs: ratios, brackets, the open-AU counts. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "lib/units.h"

/*
 * A run can hold on its own (no row collapsed) and still be much slower
 * than the same mode with one erase block: then one or a few of its blocks
 * are being garbage-collected (N just above the limit, random mode). On
 * simulated cards within the limit the ratio stays above 0.94; one block
 * over it, below 0.65.
 */
double auto_ratio_to_one_au(const struct autostate *s, const struct au_run *run)
{
	const struct au_run *one = auto_find_run(s, 1, run->random);
	if (!one || one == run || one->verdict != RUN_HOLDS || run->r.nrows == 0)
		return 0;
	const struct rate_row *last = &run->r.rows[run->r.nrows - 1];
	double ref = auto_rate_at(&one->r, last->blocksize);
	return ref > 0 && !last->failed[0] ? last->rate[0] / ref : 0;
}

/*
 * Random mode keeps an erase block "open" when small out-of-order writes
 * run about as fast as linear ones at the same size, which is how experts
 * read it (issue 11 §5; SanDisk SL08G in real-cards.tsv: random 16KiB at
 * 1% of linear with any number of blocks).
 */

double auto_ratio_to_linear(const struct autostate *s, const struct au_run *run)
{
	const struct au_run *one = auto_find_run(s, 1, false);
	if (!one || one->verdict != RUN_HOLDS)
		return 0;
	/* the smallest block size both runs wrote (linear runs stop at larger sizes) */
	for (int i = run->r.nrows - 1; i >= 0; i--) {
		const struct rate_row *row = &run->r.rows[i];
		double ref = auto_rate_at(&one->r, row->blocksize);
		if (ref > 0 && !row->failed[0])
			return row->rate[0] / ref;
	}
	return 0;
}

/*
 * Cards random-capable only for large blocks (doc/card-facts.md, Writes; SU04G in seed
 * 000: random 512KiB at linear speed, 256KiB at a third): the smallest
 * size from which one random erase block keeps up with linear writes,
 * when smaller ones do not. 0 when it does not show.
 */
uint64_t auto_random_mapping_unit(const struct autostate *s)
{
	const struct au_run *rnd = auto_find_run(s, 1, true), *lin = auto_find_run(s, 1, false);
	bool slow_below = false;
	if (!rnd || !lin || lin->verdict != RUN_HOLDS || lin->r.nrows == 0)
		return 0;
	/* from the smallest block size up: slow rows, then the first one that keeps up */
	for (int i = rnd->r.nrows - 1; i >= 0; i--) {
		const struct rate_row *row = &rnd->r.rows[i];
		double ref = auto_rate_at(&lin->r, row->blocksize);
		if (ref <= 0)	/* linear runs stop higher; their rate is flat */
			ref = auto_rate_at(&lin->r, lin->r.rows[lin->r.nrows - 1].blocksize);
		if (row->failed[0] || ref <= 0)
			continue;
		if (row->rate[0] < MAP_UNIT_FAST * ref)
			slow_below = true;
		else
			return slow_below && row->blocksize < s->erasesize ? row->blocksize : 0;
	}
	return 0;
}

static int collect_runs(struct autostate *s, bool random, const struct rate_result **rs,
			long long *nrs)
{
	int n = 0;
	for (int i = 0; i < s->nruns; i++)
		if (auto_current_run(s, &s->runs[i]) && s->runs[i].random == random)
			n++;
	/* ascending N (insertion order differs while bisecting) */
	int k = 0;
	for (long long nr = 1; nr <= OPEN_AU_MAX_NR && k < n; nr++)
		for (int i = 0; i < s->nruns; i++)
			if (auto_current_run(s, &s->runs[i]) && s->runs[i].random == random &&
			    s->runs[i].nr == nr) {
				rs[k] = &s->runs[i].r;
				nrs[k] = nr;
				k++;
			}
	return k;
}

/*
 * The search's own bracket: the largest N that held and the smallest that
 * did not. consistent: no N below a holding one collapsed.
 */
struct bracket {
	long long hold, collapse;	/* collapse 0: none seen */
	bool consistent;
};

static struct bracket search_bracket(const struct autostate *s, bool random)
{
	struct bracket b = { 0, 0, true };

	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		if (r->random != random || !auto_current_run(s, r) || auto_find_run(s, r->nr, random) != r)
			continue;	/* another mode or size, or measured again later */
		if (r->verdict == RUN_HOLDS) {
			if (r->nr > b.hold)
				b.hold = r->nr;
		} else if (!r->cut_by_cap && (!b.collapse || r->nr < b.collapse)) {
			b.collapse = r->nr;
		}
	}
	b.consistent = !b.collapse || b.collapse > b.hold;
	return b;
}

/*
 * analyze_open_au_series() gives the verdict; where it disagrees with the
 * search (which also compares each run with the one-block run), the search's
 * count is reported with low confidence.
 */
static void reconcile_open_aus(struct autostate *s, bool random, struct count_estimate *out)
{
	const struct rate_result *rs[MAX_AU_RUNS];
	long long nrs[MAX_AU_RUNS];
	int n = collect_runs(s, random, rs, nrs);
	struct bracket b = search_bracket(s, random);

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	analyze_open_au_series(rs, nrs, n, s->pagesize, out);
	bool exact = b.collapse == b.hold + 1;
	if (b.consistent && out->n == b.hold && out->at_least == !exact)
		return;
	char series[sizeof(out->evidence)];
	snprintf(series, sizeof(series), "%s", out->evidence);
	bool series_higher = out->n > b.hold || (out->n == b.hold && out->at_least);
	out->n = (int)b.hold;
	out->at_least = !exact;
	out->conf = CONF_LOW;
	/* the series saw no collapse only where one block was clearly slowed down */
	const struct au_run *first = auto_find_run(s, b.collapse, random);
	if (b.consistent && exact && series_higher && first && first->by_reference &&
	    first->ref_ratio < REF_CLEAR) {
		char sz[FMT_BUF];
		out->conf = CONF_MEDIUM;
		snprintf(out->evidence, sizeof(out->evidence),
			 "N=%lld held; at N=%lld %s writes run at %.0f%% of the N=1 rate (some erase block is "
			 "garbage-collected); the series analysis alone: %.200s",
			 b.hold, b.collapse, fmt_size(sz, first->r.rows[first->r.nrows - 1].blocksize),
			 100 * first->ref_ratio, series);
		return;
	}
	if (b.collapse)
		snprintf(out->evidence, sizeof(out->evidence),
			 "N=%lld held, N=%lld did not%s; the series analysis disagrees: %.200s", b.hold,
			 b.collapse, b.consistent ? "" : " (but smaller N also failed)", series);
	else
		snprintf(out->evidence, sizeof(out->evidence),
			 "N=%lld held, no collapse measured; the series analysis disagrees: %.200s", b.hold,
			 series);
}

void auto_limit_conf(struct count_estimate *c, enum confidence cap, const char *why)
{
	if (c->conf > cap) {
		c->conf = cap;
		size_t len = strlen(c->evidence);
		appendf(c->evidence, sizeof(c->evidence), "%s%s", len ? "; " : "", why);
	}
}

/*
 * bound: the exact linear count when known (random mode cannot keep more
 * erase blocks open), else NULL. A lower bound is not the count: "at least
 * N" never claims more than low confidence.
 */
void auto_estimate_open_aus(struct autostate *s, bool random, const struct count_estimate *bound,
			      struct count_estimate *out)
{
	reconcile_open_aus(s, random, out);
	if (bound && out->at_least && out->n == bound->n) {
		out->at_least = false;
		out->conf = conf_min(out->conf, bound->conf);
		size_t len = strlen(out->evidence);
		appendf(out->evidence, sizeof(out->evidence),
			 "%sno more than the linear limit", len ? "; " : "");
	}
	if (out->at_least)
		auto_limit_conf(out, CONF_LOW, s->cap_hit ? "--max-write reached before a collapse"
						      : "no collapse up to the largest N tried");
}
