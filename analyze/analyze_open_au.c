/*
 * --open-au (facts: doc/flash-card-model.md §3-§7): past the open-AU limit
 * every write costs about one erase block rewrite, so time per write stops
 * shrinking with the block size: throughput halves at each halving of the
 * block size and the time per write is a sizeable fraction of writing a
 * whole erase block. Also --find-fat: the FAT-optimised area at the start.
 */
#include "analyze/analyze.h"
#include "analyze/analyze_internal.h"
#include "lib/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------- --open-au ---------- */

static bool row_ok(const struct rate_row *row)
{
	return row->ncols > 0 && !row->failed[0] && row->rate[0] > 0 && isfinite(row->rate[0]);
}

static double max_rate(const struct rate_result *r)
{
	double m = 0;
	for (int i = 0; i < r->nrows; i++)
		if (row_ok(&r->rows[i]) && r->rows[i].rate[0] > m)
			m = r->rows[i].rate[0];
	return m;
}

struct run_look {
	enum collapse verdict;
	uint64_t at;		/* block size where the collapse was clear */
	double time_per_write;	/* there, seconds */
	double gc_fraction;
	uint64_t smallest;	/* smallest block size looked at */
	int longest_stretch;	/* most halving steps in a row */
};

static void look_at_run(const struct rate_result *r, uint64_t page, struct run_look *out)
{
	memset(out, 0, sizeof(*out));
	out->verdict = RUN_UNCLEAR;
	if (!r || r->nrows < 1)
		return;
	if (page > MAX_PAGE_HINT)
		page = MAX_PAGE_HINT;
	uint64_t e = r->erasesize ? r->erasesize : r->rows[0].blocksize;
	double rref = max_rate(r);
	if (rref <= 0 || e == 0)
		return;
	double tref = (double)e / rref;
	/*
	 * A run of one row (--auto's on small erase blocks, issue 26) shows no
	 * collapse of its own: it holds, and against the N before it (a
	 * relative collapse, mark_relative_collapses) it may collapse.
	 */
	if (r->nrows == 1 && row_ok(&r->rows[0]) && (!page || r->rows[0].blocksize >= page))
		out->smallest = r->rows[0].blocksize;
	int stretch = 0;
	uint64_t stretch_top = 0;	/* block size before the first halving step */
	bool suspicious = false;
	for (int k = 1; k < r->nrows; k++) {
		const struct rate_row *prev = &r->rows[k - 1], *row = &r->rows[k];
		if (!row_ok(row) || (page && row->blocksize < page))
			continue;
		if (!out->smallest || row->blocksize < out->smallest)
			out->smallest = row->blocksize;
		if (!row_ok(prev) || prev->blocksize != 2 * row->blocksize) {
			stretch = 0;
			continue;
		}
		double t = (double)row->blocksize / row->rate[0];
		double g = t / tref;
		stretch = row->rate[0] <= STEP_COLLAPSE * prev->rate[0] ? stretch + 1 : 0;
		if (stretch == 1)
			stretch_top = prev->blocksize;
		if (stretch > out->longest_stretch)
			out->longest_stretch = stretch;
		/*
		 * Time per write near an erase-block rewrite is a collapse at any
		 * size; a smaller constant time (garbage collection of a partly
		 * written block) counts when it starts well above the page size,
		 * where sub-page writes cannot explain it.
		 */
		bool big_start = stretch_top >= 4 * (page ? page : 16384) && stretch_top >= MIN_GC_START;
		if (stretch >= 2 && (g >= GC_FRACTION || (g >= WEAK_GC_FRACTION && big_start))) {
			out->verdict = RUN_COLLAPSED;
			out->at = row->blocksize;
			out->time_per_write = t;
			out->gc_fraction = g;
			return;
		}
		if (stretch >= 1 && g >= 2 * GC_FRACTION && row->blocksize <= e / 4)
			suspicious = true;
	}
	bool complete = !r->st.partial && (!r->blocksize || out->smallest <= r->blocksize ||
					   (page && out->smallest < 2 * page));
	if (out->smallest && (complete || out->smallest <= e / 32))
		out->verdict = suspicious ? RUN_UNCLEAR : RUN_HOLDS;
}

enum collapse analyze_open_au_run(const struct rate_result *r, uint64_t pagesize_hint)
{
	struct run_look l;
	look_at_run(r, pagesize_hint, &l);
	return l.verdict;
}

enum collapse analyze_open_au_against(const double *ratio, const double *noise, int n)
{
	int collapsed = 0, held = 0;
	for (int i = 0; i < n; i++) {
		double nz = noise[i] > 0 ? noise[i] : 0;
		if (!(ratio[i] > 0))
			continue;
		if (ratio[i] < COLLAPSE_RATIO && 1 - ratio[i] > NOISE_SIGMAS * nz)
			collapsed++;
		else if (ratio[i] >= HOLD_RATIO ||
			 (ratio[i] >= COLLAPSE_RATIO && 1 - ratio[i] <= NOISE_SIGMAS * nz))
			held++;
	}
	/*
	 * A collapse has its signature (doc/flash-card-model.md §3): time per
	 * write about constant, so the smaller row falls further (STEP_COLLAPSE);
	 * host noise slows rows at random, not like that.
	 */
	if (n >= 2 && collapsed == n && ratio[n - 1] <= STEP_COLLAPSE * ratio[n - 2])
		return RUN_COLLAPSED;
	if (n >= 1 && held == n)
		return RUN_HOLDS;
	/*
	 * The smaller row held and the larger did not collapse: past the limit
	 * the smaller row falls further, never the larger alone, so its dip is
	 * the write path's (a RAM buffer's pace, work owed), not a limit.
	 */
	double nz = noise[n - 1] > 0 ? noise[n - 1] : 0;
	if (n >= 2 && ratio[n - 2] >= COLLAPSE_RATIO && ratio[n - 1] > ratio[n - 2] &&
	    (ratio[n - 1] >= HOLD_RATIO || 1 - ratio[n - 1] <= NOISE_SIGMAS * nz))
		return RUN_HOLDS;
	return RUN_UNCLEAR;
}

/* Median over shared block sizes (page..E/2) of rate(b) / rate(a). 0 if none shared. */
static double median_rate_ratio(const struct rate_result *a, const struct rate_result *b,
				uint64_t page, uint64_t max_bs)
{
	double v[64];
	int n = 0;
	if (page > MAX_PAGE_HINT)
		page = MAX_PAGE_HINT;
	for (int i = 0; i < a->nrows; i++) {
		const struct rate_row *ra = &a->rows[i];
		if (!row_ok(ra) || ra->blocksize > max_bs || (page && ra->blocksize < page))
			continue;
		for (int j = 0; j < b->nrows && n < 64; j++) {
			const struct rate_row *rb = &b->rows[j];
			if (rb->blocksize == ra->blocksize && row_ok(rb))
				v[n++] = rb->rate[0] / ra->rate[0];
		}
	}
	return n ? analyze_median(v, n) : 0;
}

double analyze_open_au_gain(const struct rate_result *smaller_e, const struct rate_result *bigger_e,
			    uint64_t pagesize_hint)
{
	if (!smaller_e || !bigger_e || smaller_e->erasesize >= bigger_e->erasesize)
		return 0;
	return median_rate_ratio(smaller_e, bigger_e, pagesize_hint, smaller_e->erasesize / 2);
}

/* One verdict per N: repeated runs with the same N must agree. */
static enum collapse merge_verdicts(enum collapse a, enum collapse b)
{
	if (a == b)
		return a;
	if (a == RUN_UNCLEAR)
		return b;
	if (b == RUN_UNCLEAR)
		return a;
	return RUN_UNCLEAR;
}

static void list_nrs(char *ev, size_t n, const char *label, const long long *nrs,
		     const enum collapse *v, const bool *skip, int count, enum collapse want)
{
	bool any = false;
	for (int i = 0; i < count; i++) {
		if (v[i] != want || skip[i])
			continue;
		fmt_append(ev, n, "%s%lld", any ? "," : label, nrs[i]);
		any = true;
	}
	if (any)
		fmt_append(ev, n, "; ");
}

/* The --open-au runs by N, ascending; runs with the same N merged. */
struct series {
	int m;
	long long un[256];			/* the distinct N */
	enum collapse uv[256];			/* their (merged) verdicts */
	const struct rate_result *first_run[256];
	struct run_look looks[256];		/* a collapsed look wins over a holding one */
	/* one-row runs (judge_one_row_runs): the N its row was read against (0: none) */
	long long one_row_ref[256];
	double one_row_ratio[256];		/* its rate over that N's same-size row */
	bool one_row_alone[256];		/* no other run has its row: unknown */
};

static void gather_runs(const struct rate_result *const *runs, const long long *nrs, int nruns,
			uint64_t pagesize_hint, struct series *s)
{
	s->m = 0;
	/* judge_one_row_runs fills these later, by the final (sorted) positions */
	memset(s->one_row_ref, 0, sizeof s->one_row_ref);
	memset(s->one_row_ratio, 0, sizeof s->one_row_ratio);
	memset(s->one_row_alone, 0, sizeof s->one_row_alone);
	for (int i = 0; i < nruns && i < 256; i++) {
		if (!runs[i] || nrs[i] < 1)
			continue;
		struct run_look l;
		look_at_run(runs[i], pagesize_hint, &l);
		int j;
		for (j = 0; j < s->m; j++)
			if (s->un[j] == nrs[i])
				break;
		if (j < s->m) {
			s->uv[j] = merge_verdicts(s->uv[j], l.verdict);
			if (l.verdict == RUN_COLLAPSED && s->looks[j].verdict != RUN_COLLAPSED)
				s->looks[j] = l;
			continue;
		}
		/* keep ascending order */
		int pos = s->m;
		while (pos > 0 && s->un[pos - 1] > nrs[i]) {
			s->un[pos] = s->un[pos - 1];
			s->uv[pos] = s->uv[pos - 1];
			s->looks[pos] = s->looks[pos - 1];
			s->first_run[pos] = s->first_run[pos - 1];
			pos--;
		}
		s->un[pos] = nrs[i];
		s->uv[pos] = l.verdict;
		s->looks[pos] = l;
		s->first_run[pos] = runs[i];
		s->m++;
	}
}

/* The rate of run r's row of block size b, 0 if it has none that is good. */
static double row_rate(const struct rate_result *r, uint64_t b)
{
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].blocksize == b && row_ok(&r->rows[i]))
			return r->rows[i].rate[0];
	return 0;
}

/*
 * A run of one row (the original's -O with --blocksize=--erasesize prints
 * one row a run) shows no collapse of its own: it speaks only against the
 * same-size row of another run, the lowest N that has one (N=1's rate, the
 * reference a card writes at full speed, doc/card-facts.md, writes). Under
 * COLLAPSE_RATIO of it is a collapse (the one-row rule of small erase
 * blocks, issue 26), HOLD_RATIO or more holds, between is unclear; the
 * reference itself holds unless a larger N is clearly faster. A row of E/8
 * or less (--auto's) is read against the N before it instead. With no other
 * run to compare against, any one row is unknown.
 */
static void judge_one_row_runs(struct series *s)
{
	for (int i = 0; i < s->m; i++) {
		const struct rate_result *r = s->first_run[i];
		if (r->nrows != 1 || !row_ok(&r->rows[0]))
			continue;
		uint64_t b = r->rows[0].blocksize;
		int ref = -1;
		for (int j = 0; j < s->m && ref < 0; j++)
			if (j != i && row_rate(s->first_run[j], b) > 0)
				ref = j;
		if (ref < 0) {
			s->uv[i] = RUN_UNCLEAR;
			s->one_row_alone[i] = true;
			continue;
		}
		/* a smaller row speaks against the N before it (mark_relative_collapses) */
		if (b <= r->erasesize / 8)
			continue;
		double ratio = r->rows[0].rate[0] / row_rate(s->first_run[ref], b);
		s->one_row_ref[i] = s->un[ref];
		s->one_row_ratio[i] = ratio;
		if (ref > i)	/* the reference: unclear if a larger N is clearly faster */
			s->uv[i] = ratio * COLLAPSE_RATIO <= 1 ? s->uv[i] : RUN_UNCLEAR;
		else if (ratio < COLLAPSE_RATIO)
			s->uv[i] = RUN_COLLAPSED;
		else
			s->uv[i] = ratio >= HOLD_RATIO ? RUN_HOLDS : RUN_UNCLEAR;
	}
}

/*
 * A run that "holds" on its own but is far slower for small writes
 * than the N before it, with throughput halving per halving of the
 * block size, collapsed too (garbage collection cheaper than a whole
 * erase-block rewrite, as in random mode). Returns the first such run, or -1.
 */
static int mark_relative_collapses(struct series *s, uint64_t pagesize_hint)
{
	int relative = -1;
	for (int i = 1; i < s->m; i++) {
		/* a run of two or three rows (--auto's) cannot show two halvings in a row */
		if (s->uv[i] != RUN_HOLDS || s->uv[i - 1] != RUN_HOLDS ||
		    (s->looks[i].longest_stretch < 2 && s->first_run[i]->nrows > 3))
			continue;
		double g = median_rate_ratio(s->first_run[i], s->first_run[i - 1], pagesize_hint,
					     s->first_run[i - 1]->erasesize / 8);
		if (g >= 2) {
			s->uv[i] = RUN_COLLAPSED;
			if (relative < 0)
				relative = i;
		}
	}
	return relative;
}

static int first_collapse(const struct series *s)
{
	for (int i = 0; i < s->m; i++)
		if (s->uv[i] == RUN_COLLAPSED)
			return i;
	return -1;
}

/* No run collapsed: at least the largest N that held. */
static void count_without_collapse(const struct series *s, struct count_estimate *out)
{
	int last_hold = -1;
	bool unclear = false;
	for (int i = 0; i < s->m; i++) {
		if (s->uv[i] == RUN_HOLDS)
			last_hold = i;
		else
			unclear = true;
	}
	if (last_hold < 0) {
		fmt_append(out->evidence, sizeof(out->evidence), "no clear run");
		return;
	}
	out->n = (int)s->un[last_hold];
	out->at_least = true;
	out->conf = unclear ? CONF_MEDIUM : CONF_HIGH;
	fmt_append(out->evidence, sizeof(out->evidence), "no collapse seen up to N=%lld",
		s->un[last_hold]);
}

/* The count below the first collapse fc, and how sure it is. */
static void count_below_collapse(const struct series *s, int fc, struct count_estimate *out)
{
	int last_hold = -1;
	bool unclear_between = false;
	for (int i = 0; i < fc; i++) {
		if (s->uv[i] == RUN_HOLDS) {
			last_hold = i;
			unclear_between = false;
		} else {
			unclear_between = true;
		}
	}
	long long held = last_hold >= 0 ? s->un[last_hold] : 0;
	out->n = (int)(s->un[fc] == 1 ? 0 : (last_hold >= 0 ? held : s->un[fc] - 1));
	/*
	 * A card writes at least one erase block linearly at full speed:
	 * a linear collapse at N=1 means the erase size or the
	 * measurement is wrong (doc/card-facts.md, writes). Random mode may
	 * hold none.
	 */
	if (s->un[fc] == 1 && !s->first_run[fc]->random) {
		out->conf = CONF_LOW;
		fmt_append(out->evidence, sizeof(out->evidence),
			"a linear collapse at N=1 is not physical: the erase size may be larger, "
			"or the run was disturbed; rerun with twice the --erasesize; ");
	} else if (s->un[fc] == 1)
		out->conf = CONF_HIGH;
	else if (last_hold < 0)
		out->conf = CONF_LOW;	/* nothing measured below the collapse */
	else if (held == s->un[fc] - 1 && !unclear_between)
		out->conf = CONF_HIGH;
	else if (held == s->un[fc] - 1 || unclear_between)
		out->conf = CONF_MEDIUM;
	else
		out->conf = CONF_LOW;	/* untested gap between held and collapsed */
}

static void describe_collapse(const struct series *s, int fc, int relative,
			      struct count_estimate *out)
{
	char a[FMT_BUF], b[FMT_BUF];
	const struct run_look *l = &s->looks[fc];
	if (s->first_run[fc]->nrows == 1 && s->one_row_ref[fc])
		fmt_append(out->evidence, sizeof(out->evidence),
			"at N=%lld the one %s row runs at %.0f%% of N=%lld's",
			s->un[fc], fmt_size(a, s->first_run[fc]->rows[0].blocksize),
			100 * s->one_row_ratio[fc], s->one_row_ref[fc]);
	else if (fc == relative)
		fmt_append(out->evidence, sizeof(out->evidence),
			"at N=%lld small writes are over 2x slower than at N=%lld, throughput halving with the block size",
			s->un[fc], s->un[fc - 1]);
	else
		fmt_append(out->evidence, sizeof(out->evidence),
			"at N=%lld, %s writes take %s each (%.0f%% of rewriting an erase block)",
			s->un[fc], fmt_size(a, l->at),
			fmt_time(b, (int64_t)(l->time_per_write * 1e9)), 100 * l->gc_fraction);
}

/* all collapsed, yet a larger N is clearly slower: a second limit */
static void note_second_limit(const struct series *s, int fc, uint64_t pagesize_hint,
			      struct count_estimate *out)
{
	for (int i = fc + 1; i < s->m && out->n == 0; i++) {
		double g = median_rate_ratio(s->first_run[i], s->first_run[fc], pagesize_hint,
					     s->first_run[fc]->erasesize / 2);
		if (s->uv[i] == RUN_COLLAPSED && g >= 1.5) {
			fmt_append(out->evidence, sizeof(out->evidence),
				"; N=%lld is %.1fx slower than N=%lld", s->un[i], g, s->un[i - 1]);
			if (out->conf > CONF_MEDIUM)
				out->conf = CONF_MEDIUM;
			break;
		}
	}
}

static void count_from_collapse(const struct series *s, int fc, int relative,
				uint64_t pagesize_hint, struct count_estimate *out)
{
	bool holds_above = false;
	for (int i = fc + 1; i < s->m; i++)
		holds_above |= s->uv[i] == RUN_HOLDS;
	count_below_collapse(s, fc, out);
	describe_collapse(s, fc, relative, out);
	if (holds_above) {
		out->conf = CONF_LOW;
		fmt_append(out->evidence, sizeof(out->evidence), "; holds again at a larger N");
	}
	note_second_limit(s, fc, pagesize_hint, out);
}

/* throughput that drops clearly between two holding runs */
static void note_slowdown_between_holds(const struct series *s, uint64_t pagesize_hint,
					struct count_estimate *out)
{
	for (int i = 1; i < s->m; i++) {
		if (s->uv[i] != RUN_HOLDS || s->uv[i - 1] != RUN_HOLDS)
			continue;
		double g = median_rate_ratio(s->first_run[i], s->first_run[i - 1], pagesize_hint,
					     s->first_run[i - 1]->erasesize / 2);
		if (g >= 1.25) {
			fmt_append(out->evidence, sizeof(out->evidence),
				"; small writes %.0f%% slower from N=%lld to N=%lld", 100 * (1 - 1 / g),
				s->un[i - 1], s->un[i]);
			break;
		}
	}
}

/* one-row runs with nothing to compare: what to rerun */
static void note_lone_rows(const struct series *s, struct count_estimate *out)
{
	char a[FMT_BUF];
	for (int i = 0; i < s->m; i++) {
		if (!s->one_row_alone[i])
			continue;
		uint64_t e = s->first_run[i]->erasesize;
		fmt_append(out->evidence, sizeof(out->evidence),
			"unknown at N=%lld (one row, nothing to compare): rerun it with --open-au-nr=1 and "
			"the same sizes to compare, or with --blocksize=%s so that its rows show a "
			"collapse; ", s->un[i], fmt_size(a, e / 256 > 4096 ? e / 256 : 4096));
		break;
	}
}

void analyze_open_au_series(const struct rate_result *const *runs, const long long *nrs, int nruns,
			    uint64_t pagesize_hint, struct count_estimate *out)
{
	struct series s;
	memset(out, 0, sizeof(*out));
	gather_runs(runs, nrs, nruns, pagesize_hint, &s);
	if (s.m == 0) {
		snprintf(out->evidence, sizeof(out->evidence), "no --open-au runs");
		return;
	}
	judge_one_row_runs(&s);
	int relative = mark_relative_collapses(&s, pagesize_hint);
	char *ev = out->evidence;
	size_t n = sizeof(out->evidence);
	list_nrs(ev, n, "holds at N=", s.un, s.uv, s.one_row_alone, s.m, RUN_HOLDS);
	list_nrs(ev, n, "collapses at N=", s.un, s.uv, s.one_row_alone, s.m, RUN_COLLAPSED);
	list_nrs(ev, n, "unclear at N=", s.un, s.uv, s.one_row_alone, s.m, RUN_UNCLEAR);
	note_lone_rows(&s, out);
	int fc = first_collapse(&s);
	if (fc < 0) {
		count_without_collapse(&s, out);
		if (out->n == 0)
			return;	/* no clear run */
	} else {
		count_from_collapse(&s, fc, relative, pagesize_hint, out);
	}
	note_slowdown_between_holds(&s, pagesize_hint, out);
}

enum collapse analyze_open_au_series_run(const struct rate_result *const *runs, const long long *nrs,
					 int nruns, uint64_t pagesize_hint, int k)
{
	if (k < 0 || k >= nruns)
		return RUN_UNCLEAR;
	if (!runs[k] || runs[k]->nrows != 1 || nrs[k] < 1)
		return analyze_open_au_run(runs[k], pagesize_hint);
	struct series s;
	gather_runs(runs, nrs, nruns, pagesize_hint, &s);
	judge_one_row_runs(&s);
	mark_relative_collapses(&s, pagesize_hint);
	for (int i = 0; i < s.m; i++)
		if (s.un[i] == nrs[k])
			return s.uv[i];
	return RUN_UNCLEAR;
}

/* ---------- --find-fat ---------- */

/* Rows for small writes (<= E/div) with every column measured. */
static int small_fat_rows(const struct rate_result *r, uint64_t e, uint64_t div, int ncols,
			  const struct rate_row **out)
{
	int n = 0;
	for (int i = 0; i < r->nrows && n < 64; i++) {
		const struct rate_row *row = &r->rows[i];
		bool bad = row->blocksize > e / div;
		for (int c = 0; c < ncols && !bad; c++)
			bad = row->failed[c] || !(row->rate[c] > 0) || !isfinite(row->rate[c]);
		if (!bad)
			out[n++] = row;
	}
	return n;
}

/*
 * The leading k columns of one row against every later one: how much faster
 * the slowest leading column is than the fastest later column (margin) and
 * than the typical later one (speedup). A later column FAT_CLEAR over the
 * typical one and nearer the leading ones than it, in ratio, is fast: the
 * speed comes from the card's open slots (the erase block in its random slot
 * alternates), not from the place, and the row shows no FAT area
 * (doc/card-facts.md, Writes). A busy host, which only slows columns down,
 * cannot make one look fast against the typical column. To say why there is
 * none, the later columns as fast are also named against the slower half of
 * them (where more than half are fast, the typical one is among them).
 */
struct fat_row_look {
	double margin, speedup;
	double over_slow;	/* over the slower half of the later columns */
	bool wins;		/* FAT_ROW_MARGIN over every later column, none of them fast */
	bool apart;		/* FAT_CLEAR over the slower half of the later columns */
	uint64_t as_fast;	/* bit c: later column c as fast as the leading ones (when apart) */
};

static int cmp_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void look_at_fat_row(const struct rate_row *row, int ncols, int k, struct fat_row_look *l)
{
	double lead = row->rate[0], fastest = 0, rest[RATE_MAX_COLS];
	int m = ncols - k;
	for (int c = 1; c < k; c++)
		lead = fmin(lead, row->rate[c]);
	for (int c = k; c < ncols; c++) {
		rest[c - k] = row->rate[c];
		fastest = fmax(fastest, row->rate[c]);
	}
	double typical = analyze_median(rest, m);
	qsort(rest, (size_t)m, sizeof(*rest), cmp_rate);
	double slow = analyze_median(rest, m / 2 > 0 ? m / 2 : 1);	/* the slower half */
	memset(l, 0, sizeof(*l));
	l->margin = lead / fastest;
	l->speedup = lead / typical;
	l->over_slow = lead / slow;
	l->apart = l->over_slow >= FAT_CLEAR;
	bool fast = false;
	for (int c = k; c < ncols; c++) {
		double v = row->rate[c];
		fast |= v >= FAT_CLEAR * typical && v * v >= lead * typical;
		if (l->apart && v >= FAT_CLEAR * slow && v * v >= lead * slow)
			l->as_fast |= 1ull << c;
	}
	l->wins = l->margin >= FAT_ROW_MARGIN && !fast;
}

/* The leading k columns against the rest, over the deciding rows. */
struct fat_split {
	int k, n;
	int first;		/* rows[first..first+n-1] decide (1: the first row spoke for nothing) */
	int wins;		/* rows where they beat every later column */
	int apart;		/* rows where they stood apart from the slower later ones */
	double share;		/* wins / n */
	double margin, speedup;	/* medians over the rows */
	double over_slow;	/* median over the rows where they stood apart */
	uint64_t as_fast;	/* later columns as fast in half the rows where they stood apart */
};

static void fat_split(const struct rate_row *const *rows, int n, int ncols, int k, struct fat_split *sp)
{
	double margin[64], speedup[64], over_slow[64];
	int fast_rows[RATE_MAX_COLS] = { 0 };
	memset(sp, 0, sizeof(*sp));
	sp->k = k, sp->n = n;
	for (int i = 0; i < n; i++) {
		struct fat_row_look l;
		look_at_fat_row(rows[i], ncols, k, &l);
		margin[i] = l.margin;
		speedup[i] = l.speedup;
		if (l.apart)
			over_slow[sp->apart++] = l.over_slow;
		sp->wins += l.wins;
		for (int c = k; c < ncols; c++)
			fast_rows[c] += (l.as_fast >> c) & 1;
	}
	for (int c = k; c < ncols; c++)
		if (sp->apart && 2 * fast_rows[c] >= sp->apart)
			sp->as_fast |= 1ull << c;
	sp->share = (double)sp->wins / n;
	sp->margin = analyze_median(margin, n);
	sp->speedup = analyze_median(speedup, n);
	sp->over_slow = sp->apart ? analyze_median(over_slow, sp->apart) : 0;
}

static bool fat_found(const struct fat_split *sp)
{
	return sp->share >= FAT_SHARE && sp->speedup >= FAT_MIN_SPEEDUP;
}

/*
 * Column k (0-based) belongs with the leading ones in most rows: nearer
 * them than the fastest later column, in ratio. A column between the two
 * (faster than the rest, several times slower than the FAT blocks) is not
 * one of them.
 */
static bool joins_leading(const struct rate_row *const *rows, int n, int ncols, int k)
{
	int near = 0;
	for (int i = 0; i < n; i++) {
		double lead = rows[i]->rate[0], fastest = 0;
		for (int c = 1; c < k; c++)
			lead = fmin(lead, rows[i]->rate[c]);
		for (int c = k + 1; c < ncols; c++)
			fastest = fmax(fastest, rows[i]->rate[c]);
		near += rows[i]->rate[k] * rows[i]->rate[k] >= lead * fastest;
	}
	return 2 * near >= n;
}

/*
 * The leading columns that win in the largest share of rows. Equal shares
 * go to the larger k where its last column belongs with the others: leading
 * columns that all beat the rest are all FAT blocks, even when a busy host
 * slowed one of them so that a smaller k wins as often. A first row whose
 * first write paid postponed work (discount_first_write) speaks for nothing
 * about the first column alone: for k = 1 the other rows decide.
 */
static void best_fat_split(const struct rate_row *const *rows, int n, int ncols, bool first_paid,
			   struct fat_split *best)
{
	memset(best, 0, sizeof(*best));
	for (int k = 1; k <= ncols / 2; k++) {
		struct fat_split sp;
		int skip = first_paid && k == 1 && n > 1;
		fat_split(rows + skip, n - skip, ncols, k, &sp);
		sp.first = skip;
		if (sp.share > best->share || !best->k ||
		    (sp.share == best->share && fat_found(&sp) && joins_leading(rows, n, ncols, k - 1)))
			*best = sp;
	}
}

/*
 * The leading columns that stand apart from the slower later ones in the most
 * rows while a later column is as fast: why there is no FAT area. 0 when none.
 */
static int slots_split(const struct rate_row *const *rows, int n, int ncols, struct fat_split *out)
{
	memset(out, 0, sizeof(*out));
	for (int k = 1; k <= ncols / 2; k++) {
		struct fat_split sp;
		fat_split(rows, n, ncols, k, &sp);
		if (sp.as_fast && sp.apart >= FAT_SHARE * n && sp.apart > out->apart)
			*out = sp;
	}
	return out->k;
}

/* Median over rows of the columns' relative spread: (fastest - slowest) / fastest. */
static double column_scatter(const struct rate_row *const *rows, int n, int ncols)
{
	double v[64];
	for (int i = 0; i < n; i++) {
		double lo = rows[i]->rate[0], hi = rows[i]->rate[0];
		for (int c = 1; c < ncols; c++) {
			lo = fmin(lo, rows[i]->rate[c]);
			hi = fmax(hi, rows[i]->rate[c]);
		}
		v[i] = hi > 0 ? (hi - lo) / hi : 0;
	}
	return n ? analyze_median(v, n) : 0;
}

/* "columns 1 and 4", "columns 1, 3 and 5": the leading k and the fast later ones, 1-based */
static void name_fast_columns(char *ev, size_t len, int k, uint64_t fast)
{
	int cols[RATE_MAX_COLS], n = 0;
	for (int c = 0; c < RATE_MAX_COLS; c++)
		if (c < k || ((fast >> c) & 1))
			cols[n++] = c + 1;
	fmt_append(ev, len, "column%s ", n > 1 ? "s" : "");
	for (int i = 0; i < n; i++)
		fmt_append(ev, len, "%d%s", cols[i], i + 2 < n ? ", " : i + 2 == n ? " and " : "");
}

/*
 * The later columns of a row fall off in the order written, over two columns
 * or more: each no faster than the one before (FAT_TAIL_STEADY for noise),
 * the first two FAT_TAIL_DROP or more over the last. That is a RAM buffer
 * draining at the card's own rate while the next columns are written
 * (doc/card-facts.md, Writes): the leading columns' speed may be the
 * buffer's, not the place's. A FAT area's later columns are one data area,
 * alike but for the first after it (a collection left by the FAT blocks).
 */
static bool tail_falls_off(const struct rate_row *row, int ncols, int k)
{
	if (ncols - k < 3)
		return false;
	for (int c = k + 1; c < ncols; c++)
		if (row->rate[c] > FAT_TAIL_STEADY * row->rate[c - 1])
			return false;
	return row->rate[k + 1] >= FAT_TAIL_DROP * row->rate[ncols - 1];
}

static int rows_falling_off(const struct rate_row *const *rows, int n, int ncols, int k)
{
	int falling = 0;
	for (int i = 0; i < n; i++)
		falling += tail_falls_off(rows[i], ncols, k);
	return falling;
}

/*
 * A RAM buffer that holds more than a column's writes completes each write
 * when the card has done the writes before it (doc/card-facts.md, FAT
 * area): a row's first writes then run at the pace of the last ones of the
 * row before, and the rest of the row falls off as the buffer fills with
 * its own. Row i (written right after row i - 1) is such a row when its
 * later columns fall off (each no faster than the one before, the first
 * FAT_TAIL_DROP over the last) and its leading columns run no faster than
 * the last column of the row before (FAT_ROW_MARGIN for noise). A FAT area
 * shows in a later row as its own speed, above the row before's last.
 */
static bool paced_by_row_before(const struct rate_row *before, const struct rate_row *row, int ncols,
				int k)
{
	double lead = row->rate[0];
	for (int c = 1; c < k; c++)
		lead = fmin(lead, row->rate[c]);
	for (int c = k + 1; c < ncols; c++)
		if (row->rate[c] > FAT_TAIL_STEADY * row->rate[c - 1])
			return false;
	/*
	 * A buffer's pace moves a little with each column as it fills with the
	 * row's own writes (1.07 .. 1.33x from the leading columns to the next
	 * on 19 of today's calibration cards); a step of FAT_CLEAR or more is
	 * the place's own saving (presets tlc-32g and sdxc-128g, one FAT block
	 * each: 4.22 then 1.96, 1.89, 1.89 MB/s, and 13.9 then 8.53, 7.99).
	 */
	return row->rate[k] >= FAT_TAIL_DROP * row->rate[ncols - 1] &&
	       lead <= FAT_ROW_MARGIN * before->rate[ncols - 1] && lead < FAT_CLEAR * row->rate[k];
}

/* The rows after the first that a buffer paces; the area is the buffer's where most are. */
static int rows_paced_by_buffer(const struct rate_row *const *rows, int n, int ncols, int k)
{
	int paced = 0;
	for (int i = 1; i < n; i++)
		paced += paced_by_row_before(rows[i - 1], rows[i], ncols, k);
	return paced;
}

static void say_fat_area(const struct rate_row *const *rows, int n, int ncols, const struct fat_split *sp,
			 uint64_t e, uint64_t div, struct fat_estimate *out)
{
	char a[FMT_BUF];
	int paced = rows_paced_by_buffer(rows, n, ncols, sp->k);
	if (n > 1 && 2 * paced > n - 1) {
		out->aus = 0;
		out->bytes = 0;
		out->conf = CONF_LOW;
		snprintf(out->evidence, sizeof(out->evidence),
			 "first %d column%s %.1fx the fastest later column, but in %d of %d later rows "
			 "%s no faster than the last column of the row before and the later columns fall "
			 "off in the order written: a RAM buffer that holds more than a column completes "
			 "the writes at the pace of those before them, so the speed is the buffer's, not "
			 "the place's; no FAT area seen for writes <= %s", sp->k, sp->k > 1 ? "s" : "",
			 sp->margin, paced, n - 1, sp->k > 1 ? "they run" : "it runs", fmt_size(a, e / div));
		return;
	}
	rows += sp->first;
	out->aus = sp->k;
	out->bytes = (uint64_t)sp->k * e;
	/*
	 * Against the fastest later column: a thin margin (a RAM buffer makes
	 * the first writes after a pause some 1.4x faster) is no more than low;
	 * so is an area that one row alone shows (one dip is not a step).
	 */
	out->conf = sp->margin < FAT_CLEAR || sp->n < 2 ? CONF_LOW :
		    sp->share >= FAT_SURE_SHARE ? CONF_HIGH : CONF_MEDIUM;
	snprintf(out->evidence, sizeof(out->evidence),
		 "first %d column%s %.1fx the fastest later column (%.1fx the typical one), faster "
		 "than every later column in %d of %d rows for writes <= %s", sp->k, sp->k > 1 ? "s" : "",
		 sp->margin, sp->speedup, sp->wins, sp->n, fmt_size(a, e / div));
	if (sp->first)
		fmt_append(out->evidence, sizeof(out->evidence), " (the first row's first write paid "
			   "for work left before it and speaks for nothing)");
	int falling = rows_falling_off(rows, sp->n, ncols, sp->k);
	if (2 * falling > sp->n) {
		out->conf = CONF_LOW;
		fmt_append(out->evidence, sizeof(out->evidence),
			   "; the later columns fall off in the order written in %d of %d rows: a RAM "
			   "buffer draining, so the leading columns may be fast from the buffer", falling, sp->n);
	}
}

static void say_no_fat_area(const struct rate_row *const *rows, int n, int ncols,
			    const struct fat_split *best, uint64_t e, struct fat_estimate *out)
{
	char a[FMT_BUF];
	struct fat_split slots;
	out->conf = best->share < 0.4 ? CONF_HIGH : CONF_MEDIUM;
	if (best->share >= 0.5)
		out->conf = CONF_LOW;
	/*
	 * "none" is only as sure as the columns are steady: where they scatter
	 * by more than a FAT area's smallest saving, one could hide.
	 */
	double scatter = column_scatter(rows, n, ncols);
	if (scatter > FAT_SCATTER && out->conf > CONF_MEDIUM)
		out->conf = CONF_MEDIUM;
	if (scatter > 2 * FAT_SCATTER)
		out->conf = CONF_LOW;
	out->evidence[0] = 0;
	if (slots_split(rows, n, ncols, &slots)) {
		name_fast_columns(out->evidence, sizeof(out->evidence), slots.k, slots.as_fast);
		fmt_append(out->evidence, sizeof(out->evidence),
			   " fast (%.1fx the slower ones) in %d of %d rows: a later column as fast as the "
			   "leading one%s means the speed comes from the card's open slots, not from the "
			   "place; ", slots.over_slow, slots.apart, n, slots.k > 1 ? "s" : "");
	}
	fmt_append(out->evidence, sizeof(out->evidence),
		   "first erase blocks not faster than every later one for writes <= %s (%d rows, %d "
		   "columns, scattering by %.0f%%)", fmt_size(a, e / 8), n, ncols, 100 * scatter);
}

/*
 * The first write of a run may pay for work the writes before it left the
 * card (a collection it postponed, doc/card-facts.md, FAT area): in the
 * first row measured, a first column slower than every other column of
 * its row, and no slower than the typical column in every other row, is
 * that, not the place. It then speaks for nothing: the row's copy in
 * *fixed takes the second column's rate there (a leading column's, for
 * any split of two or more), rows[0] points at it, and true says so: for
 * a split of one the other rows decide (best_fat_split). One dip is not a
 * step.
 */
static bool discount_first_write(const struct rate_result *r, const struct rate_row **rows, int n,
				 int ncols, struct rate_row *fixed)
{
	if (n < 2 || rows[0] != &r->rows[0])
		return false;
	const struct rate_row *first = rows[0];
	for (int c = 1; c < ncols; c++)
		if (!(first->rate[0] < first->rate[c]))
			return false;
	for (int i = 1; i < n; i++) {
		double v[RATE_MAX_COLS];
		for (int c = 0; c < ncols; c++)
			v[c] = rows[i]->rate[c];
		if (rows[i]->rate[0] < analyze_median(v, ncols))
			return false;
	}
	*fixed = *first;
	fixed->rate[0] = first->rate[1];
	rows[0] = fixed;
	return true;
}

void analyze_find_fat(const struct rate_result *r, struct fat_estimate *out)
{
	struct rate_row fixed, fixed_tiny;
	memset(out, 0, sizeof(*out));
	if (!r || r->nrows < 1) {
		snprintf(out->evidence, sizeof(out->evidence), "no --find-fat rows");
		return;
	}
	uint64_t e = r->erasesize ? r->erasesize : r->rows[0].blocksize;
	int ncols = RATE_MAX_COLS;
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].ncols < ncols)
			ncols = r->rows[i].ncols;
	const struct rate_row *rows[64];
	uint64_t div = 8;
	int n = small_fat_rows(r, e, div, ncols, rows);
	bool paid = discount_first_write(r, rows, n, ncols, &fixed);
	if (n < 2 || ncols < 3) {
		snprintf(out->evidence, sizeof(out->evidence),
			 "too few small-write rows (%d) or columns (%d)", n, ncols);
		return;
	}
	struct fat_split best;
	best_fat_split(rows, n, ncols, paid, &best);
	/*
	 * Page mapping saves work per write, so a FAT area stands out most for
	 * the smallest writes and hardly for large ones (a 1.5x speedup at a
	 * few pages, none at E/8): where the rows up to E/8 show nothing, the
	 * rows up to E/64 (three of them at least) decide where they show it
	 * more clearly.
	 */
	const struct rate_row *tiny[64];
	int nt = small_fat_rows(r, e, 64, ncols, tiny);
	bool tiny_paid = discount_first_write(r, tiny, nt, ncols, &fixed_tiny);
	if (nt >= 3 && nt < n) {
		struct fat_split sp;
		best_fat_split(tiny, nt, ncols, tiny_paid, &sp);
		if (fat_found(&sp) && (!fat_found(&best) || sp.speedup > best.speedup)) {
			memcpy(rows, tiny, (size_t)nt * sizeof(*tiny));
			n = nt, div = 64, best = sp;
		}
	}
	if (fat_found(&best))
		say_fat_area(rows, n, ncols, &best, e, div, out);
	else
		say_no_fat_area(rows, n, ncols, &best, e, out);
}
