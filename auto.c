/*
 * flashbench --auto: identity, alignment (read-only, repeated until the
 * estimate is stable or ~20 s of device time are spent), with --destructive
 * the FAT-area and open-AU searches, then a verdict, advice and the raw
 * tables in the original formats (or all of it as one JSON document).
 *
 * Cost control in the write phase: every --open-au run writes N erase
 * blocks per row, so the searches test as few N as possible (growing by
 * half, then bisecting; random mode only up to the linear count), use only
 * the rows that show a collapse (down to E/8 linear, E/32 random), stop a
 * run as soon as the analysis calls it collapsed, and never start a run
 * that could take the total past --max-write.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "auto.h"
#include "capacity.h"
#include "identity.h"
#include "json.h"
#include "measure.h"
#include "report.h"
#include "run.h"
#include "safety.h"
#include "units.h"
#include "vm.h"

#define ALIGN_MAX_RUNS 5
#define ALIGN_BUDGET_NS (20LL * 1000 * 1000 * 1000)
#define ALIGN_BLOCKSIZE 1024u
#define FALLBACK_ERASE (4ull << 20)
#define FALLBACK_PAGE (16ull << 10)
#define MAX_AU_RUNS 40
#define OPEN_AU_MAX_NR 32
/*
 * Rows of an --open-au run: from E down to E/8 in linear mode (a collapse
 * shows by E/4), E/32 in random mode (out-of-order writes into a block that
 * cannot go random cost a collapse only once there are several per block).
 */
#define LINEAR_ROW_SHIFT 3
#define RANDOM_ROW_SHIFT 5
#define MAX_ROWS 64
#define SECTOR 512u

struct au_run {
	struct rate_result r;
	long long nr;
	bool random;
	bool stopped_early;	/* collapse was clear before the last row */
	bool cut_by_cap;	/* stopped because the next row would pass --max-write */
	enum collapse verdict;
	double ref_ratio;	/* smallest row vs the one-block run's same row; 0: not compared */
	bool by_reference;	/* verdict COLLAPSED from that comparison alone */
};

/* What the keep_going callback sees of a run in progress. */
struct row_watch {
	struct dev *d;
	uint64_t max_write;
	uint64_t row_bytes;	/* what one more row writes */
	bool open_au;		/* else find-fat */
	struct rate_result so_far;	/* the run's rows up to now, for the analysis */
	uint64_t pagesize;
	int nrows;
	bool stopped_early, cut_by_cap;
	struct rate_row rows[MAX_ROWS];
};

struct autostate {
	struct dev *d;
	const struct params *p;
	const struct auto_opts *o;
	struct identity *id;
	int status;		/* exit status so far */
	bool stop;		/* interrupted or failed: no further measurements */

	/* alignment */
	struct align_result align_runs[ALIGN_MAX_RUNS];
	int nalign;
	struct align_result align;	/* per-row median of the runs */
	struct size_estimate erase, page;
	int64_t align_ns;

	/* write phase */
	uint64_t erasesize, pagesize;
	uint64_t open_offset;	/* first erase block of the --open-au runs */
	const char *erase_source;
	uint64_t max_write;
	bool cap_hit;
	struct au_run runs[MAX_AU_RUNS];
	int nruns;
	struct count_estimate lin, rnd;
	bool have_lin, have_rnd;
	struct rate_result fat;
	bool have_fat, fat_stopped_early;
	struct fat_estimate fatest;
	int64_t write_ns;
	struct row_watch *watch;

	/* --capacity, first of the write phase */
	struct capacity_result cap;
	bool have_cap;
	char error[256];	/* why the run could not start, for the JSON document */
	uint64_t map_unit;	/* random writes keep up from this size up; 0: none seen */
};

static enum confidence conf_min(enum confidence a, enum confidence b)
{
	return a < b ? a : b;
}

static void note_status(struct autostate *s, const struct run_status *st)
{
	if (st->interrupted) {
		int sig = safety_exit_status_for_signal();
		s->status = sig ? sig : 130;
		s->stop = true;
	} else if (st->nfailures) {
		s->status = 1;
		if (st->partial)
			s->stop = true;
	}
}

/* ---------------------------------------------------------------- alignment */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t median_i64(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median per row over the runs (a spike in one run does not move it). */
static void merge_align_runs(struct autostate *s)
{
	const struct align_result *first = &s->align_runs[0];
	struct align_result *m = &s->align;

	align_result_free(m);
	memset(m, 0, sizeof(*m));
	m->blocksize = first->blocksize;
	m->count = first->count;
	m->nrows = first->nrows;
	m->rows = calloc((size_t)(first->nrows ? first->nrows : 1), sizeof(*m->rows));
	if (!m->rows) {
		m->nrows = 0;
		return;
	}
	for (int i = 0; i < first->nrows; i++) {
		int64_t pre[ALIGN_MAX_RUNS], on[ALIGN_MAX_RUNS], post[ALIGN_MAX_RUNS], diff[ALIGN_MAX_RUNS];
		int n = 0;

		for (int k = 0; k < s->nalign; k++) {
			const struct align_result *r = &s->align_runs[k];
			if (i >= r->nrows || r->rows[i].failed || r->rows[i].align != first->rows[i].align)
				continue;
			pre[n] = r->rows[i].pre_ns;
			on[n] = r->rows[i].on_ns;
			post[n] = r->rows[i].post_ns;
			diff[n] = r->rows[i].diff_ns;
			n++;
		}
		m->rows[i].align = first->rows[i].align;
		m->rows[i].positions = first->rows[i].positions;
		m->rows[i].failed = n == 0;
		if (n) {
			m->rows[i].pre_ns = median_i64(pre, n);
			m->rows[i].on_ns = median_i64(on, n);
			m->rows[i].post_ns = median_i64(post, n);
			m->rows[i].diff_ns = median_i64(diff, n);
		}
	}
	for (int k = 0; k < s->nalign; k++) {
		const struct run_status *st = &s->align_runs[k].st;
		m->st.bytes_written += st->bytes_written;
		m->st.device_ns += st->device_ns;
		m->st.nfailures += st->nfailures;
		if (st->nfailures && !m->st.first_failure.err)
			m->st.first_failure = st->first_failure;
		m->st.partial |= st->partial;
		m->st.interrupted |= st->interrupted;
	}
}

static bool same_estimate(const struct size_estimate *a, const struct size_estimate *b)
{
	return a->bytes == b->bytes;
}

static int run_alignment(struct autostate *s, FILE *err)
{
	struct params ap = *s->p;
	char msg[256];
	struct size_estimate prev_erase = {0}, prev_page = {0};
	int64_t last_ns = 0;

	/* -a reads across boundaries at half a block: two logical blocks at least */
	ap.blocksize = 2 * s->d->lbs > ALIGN_BLOCKSIZE ? 2 * s->d->lbs : ALIGN_BLOCKSIZE;
	ap.keep_going = NULL;
	if (align_check(s->d, &ap, msg, sizeof(msg)) < 0) {
		fprintf(err, "flashbench: --auto: %s\n", msg);
		snprintf(s->error, sizeof(s->error), "%s", msg);
		return 2;
	}
	while (s->nalign < ALIGN_MAX_RUNS) {
		struct align_result *r = &s->align_runs[s->nalign];
		int64_t before = s->d->device_ns;

		measure_align(s->d, &ap, r);
		last_ns = s->d->device_ns - before;
		s->align_ns += last_ns;
		s->nalign++;
		note_status(s, &r->st);
		merge_align_runs(s);
		analyze_align(&s->align, &s->erase, &s->page);
		if (s->stop)
			break;
		if (s->nalign >= 2 && same_estimate(&prev_erase, &s->erase) &&
		    same_estimate(&prev_page, &s->page) && s->erase.conf >= CONF_MEDIUM)
			break;
		/* would the next run still fit the time budget? */
		if (s->align_ns + last_ns > ALIGN_BUDGET_NS)
			break;
		prev_erase = s->erase;
		prev_page = s->page;
	}
	return 0;
}

/* ------------------------------------------------------------ capacity */

/*
 * Before anything else writes: a fake card's real size becomes the size
 * every later test sees (restored for the report), so none of them
 * measures, or overwrites, the lie beyond it.
 */
static void run_capacity_first(struct autostate *s)
{
	char err[1024] = "";

	s->have_cap = true;
	if (capacity_run(s->d, NULL, NULL, &s->cap, err, sizeof err) < 0) {
		if (err[0] && !s->cap.interrupted)
			fprintf(stderr, "flashbench: --auto: capacity check: %s\n", err);
		s->status = s->cap.interrupted ? 130 : 1;
		s->stop = true;
		return;
	}
	if (s->cap.verdict != CAP_GENUINE)
		s->d->size = s->cap.real_lo / s->d->lbs * s->d->lbs;
}

static void capacity_headline(FILE *f, const struct autostate *s)
{
	char line[512], b[FMT_BUF];

	if (!s->have_cap || s->cap.verdict == CAP_UNKNOWN)
		return;
	capacity_summary(line, sizeof line, &s->cap);
	if (s->cap.verdict == CAP_GENUINE)
		fprintf(f, "  %-22s %s\n", "capacity", line);
	else
		fprintf(f, "%s\nEvery test below stayed inside the first %s.\n", line,
			fmt_size(b, s->cap.real_lo));
}

/* ------------------------------------------------------------ write phase */

static int rows_between(uint64_t hi, uint64_t lo)
{
	int n = 1;
	while (hi > lo) {
		hi /= 2;
		n++;
	}
	return n;
}

/* A blocksize E/2^shift, but not below lbs and still dividing E. */
static uint64_t row_floor(uint64_t e, int shift, unsigned int lbs)
{
	uint64_t b = e;
	for (int i = 0; i < shift && b % 2 == 0 && b / 2 >= lbs && (b / 2) % lbs == 0; i++)
		b /= 2;
	return b;
}

/*
 * A collapse is clear when the newest row is far below the best one and the
 * time per write no longer shrinks with the write size (doc/flash-card-model.md §3).
 */
static bool collapse_is_clear(const struct rate_row *rows, int n, int col)
{
	if (n < 3)
		return false;
	double best = 0;
	for (int i = 0; i < n; i++)
		if (!rows[i].failed[col] && rows[i].rate[col] > best)
			best = rows[i].rate[col];
	const struct rate_row *last = &rows[n - 1], *prev = &rows[n - 2];
	if (last->failed[col] || prev->failed[col] || last->rate[col] <= 0 || prev->rate[col] <= 0)
		return false;
	double t_last = (double)last->blocksize / last->rate[col];
	double t_prev = (double)prev->blocksize / prev->rate[col];
	return last->rate[col] < 0.4 * best && t_last > 0.7 * t_prev;
}

static int slowest_column(const struct rate_row *row)
{
	int k = 0;
	for (int i = 1; i < row->ncols; i++)
		if (row->rate[i] < row->rate[k])
			k = i;
	return k;
}

static bool fat_settled(struct row_watch *w)
{
	struct fat_estimate fe;
	int small = 0;

	for (int i = 0; i < w->nrows; i++)
		small += w->rows[i].blocksize <= w->so_far.erasesize / 8;
	if (small < 3)
		return false;
	w->so_far.rows = w->rows;
	w->so_far.nrows = w->nrows;
	analyze_find_fat(&w->so_far, &fe);
	if (fe.conf < CONF_HIGH)
		return false;
	return fe.aus > 0 ||
	       collapse_is_clear(w->rows, w->nrows, slowest_column(&w->rows[w->nrows - 1]));
}

static bool watch_row(const struct rate_row *row, void *arg)
{
	struct row_watch *w = arg;

	if (w->nrows < MAX_ROWS)
		w->rows[w->nrows++] = *row;
	/* the analysis itself says when an open-AU run has collapsed */
	if (w->open_au) {
		w->so_far.rows = w->rows;
		w->so_far.nrows = w->nrows;
		if (analyze_open_au_run(&w->so_far, w->pagesize) == RUN_COLLAPSED) {
			w->stopped_early = true;
			return false;
		}
	}
	/*
	 * find-fat: settled once the analysis is sure on enough small-block
	 * rows and either found the area or saw every other block collapse
	 * (a FAT block would stand out by then).
	 */
	if (!w->open_au && fat_settled(w)) {
		w->stopped_early = true;
		return false;
	}
	if (w->d->bytes_written + w->row_bytes > w->max_write) {
		w->cut_by_cap = true;
		return false;
	}
	return true;
}

static bool fits_cap(struct autostate *s, uint64_t bytes)
{
	if (s->d->bytes_written + bytes <= s->max_write)
		return true;
	s->cap_hit = true;
	return false;
}

/* The block size of the page-size row: the smallest E/2^k not below the page. */
static uint64_t page_row(uint64_t e, uint64_t page, unsigned int lbs)
{
	uint64_t b = e;
	while (b / 2 >= page && b % 2 == 0 && (b / 2) % lbs == 0)
		b /= 2;
	return b;
}

static double rate_at(const struct rate_result *r, uint64_t blocksize)
{
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].blocksize == blocksize && !r->rows[i].failed[0])
			return r->rows[i].rate[0];
	return 0;
}

/* Runs at the erase size now tested (a recheck at twice the size keeps the others). */
static bool current_run(const struct autostate *s, const struct au_run *r)
{
	return r->r.erasesize == s->erasesize;
}

static const struct au_run *find_run(const struct autostate *s, long long nr, bool random)
{
	const struct au_run *found = NULL;
	/* the latest: a re-measured run replaces an unclear one */
	for (int i = 0; i < s->nruns; i++)
		if (current_run(s, &s->runs[i]) && s->runs[i].nr == nr && s->runs[i].random == random)
			found = &s->runs[i];
	return found;
}

/*
 * A run can hold on its own (no row collapsed) and still be much slower
 * than the same mode with one erase block: then one or a few of its blocks
 * are being garbage-collected (N just above the limit, random mode). On
 * simulated cards within the limit the ratio stays above 0.94; one block
 * over it, below 0.65.
 */

static double ratio_to_one_au(const struct autostate *s, const struct au_run *run)
{
	const struct au_run *one = find_run(s, 1, run->random);
	if (!one || one == run || one->verdict != RUN_HOLDS || run->r.nrows == 0)
		return 0;
	const struct rate_row *last = &run->r.rows[run->r.nrows - 1];
	double ref = rate_at(&one->r, last->blocksize);
	return ref > 0 && !last->failed[0] ? last->rate[0] / ref : 0;
}

/*
 * Random mode keeps an erase block "open" when small out-of-order writes
 * run about as fast as linear ones at the same size, which is how experts
 * read it (issue 11 §5; SanDisk SL08G in real-cards.tsv: random 16KiB at
 * 1% of linear with any number of blocks).
 */

static double ratio_to_linear(const struct autostate *s, const struct au_run *run)
{
	const struct au_run *one = find_run(s, 1, false);
	if (!one || one->verdict != RUN_HOLDS)
		return 0;
	/* the smallest block size both runs wrote (linear runs stop at larger sizes) */
	for (int i = run->r.nrows - 1; i >= 0; i--) {
		const struct rate_row *row = &run->r.rows[i];
		double ref = rate_at(&one->r, row->blocksize);
		if (ref > 0 && !row->failed[0])
			return row->rate[0] / ref;
	}
	return 0;
}

/*
 * Cards random-capable only for large blocks (issue 11 §5; SU04G in seed
 * 000: random 512KiB at linear speed, 256KiB at a third): the smallest
 * size from which one random erase block keeps up with linear writes,
 * when smaller ones do not. 0 when it does not show.
 */
static uint64_t random_mapping_unit(const struct autostate *s)
{
	const struct au_run *rnd = find_run(s, 1, true), *lin = find_run(s, 1, false);
	bool slow_below = false;
	if (!rnd || !lin || lin->verdict != RUN_HOLDS || lin->r.nrows == 0)
		return 0;
	/* from the smallest block size up: slow rows, then the first one that keeps up */
	for (int i = rnd->r.nrows - 1; i >= 0; i--) {
		const struct rate_row *row = &rnd->r.rows[i];
		double ref = rate_at(&lin->r, row->blocksize);
		if (ref <= 0)	/* linear runs stop higher; their rate is flat */
			ref = rate_at(&lin->r, lin->r.rows[lin->r.nrows - 1].blocksize);
		if (row->failed[0] || ref <= 0)
			continue;
		if (row->rate[0] < MAP_UNIT_FAST * ref)
			slow_below = true;
		else
			return slow_below && row->blocksize < s->erasesize ? row->blocksize : 0;
	}
	return 0;
}

/* One --open-au run; NULL when it may not or could not run. */
static struct au_run *open_au_run(struct autostate *s, long long nr, bool random)
{
	struct params op = *s->p;
	char msg[256];
	uint64_t bs = row_floor(s->erasesize, random ? RANDOM_ROW_SHIFT : LINEAR_ROW_SHIFT, s->d->lbs);
	if (bs < s->pagesize)	/* writes below a page are slow on their own */
		bs = page_row(s->erasesize, s->pagesize, s->d->lbs);

	if (s->stop || s->nruns >= MAX_AU_RUNS)
		return NULL;
	op.erasesize = s->erasesize;
	op.blocksize = bs;
	op.open_au_nr = nr;
	op.random = random;
	op.offset_set = true;
	op.offset = s->open_offset;
	if (open_au_check(s->d, &op, msg, sizeof(msg)) < 0)
		return NULL;
	uint64_t row_bytes = (uint64_t)nr * s->erasesize;
	if (!fits_cap(s, row_bytes * (uint64_t)rows_between(s->erasesize, bs)))
		return NULL;

	struct row_watch *w = s->watch;
	memset(w, 0, offsetof(struct row_watch, rows));
	w->d = s->d;
	w->max_write = s->max_write;
	w->row_bytes = row_bytes;
	w->open_au = true;
	w->pagesize = s->pagesize;
	w->so_far.erasesize = op.erasesize;
	w->so_far.blocksize = op.blocksize;
	w->so_far.offset = op.offset;
	w->so_far.nr = nr;
	w->so_far.random = random;
	op.keep_going = watch_row;
	op.keep_going_arg = w;

	struct au_run *run = &s->runs[s->nruns++];
	memset(run, 0, sizeof(*run));
	run->nr = nr;
	run->random = random;
	int64_t before = s->d->device_ns;
	measure_open_au(s->d, &op, &run->r);
	s->write_ns += s->d->device_ns - before;
	run->stopped_early = w->stopped_early;
	run->cut_by_cap = w->cut_by_cap;
	note_status(s, &run->r.st);
	run->verdict = analyze_open_au_run(&run->r, s->pagesize);
	run->ref_ratio = ratio_to_one_au(s, run);
	if (run->verdict == RUN_HOLDS && run->ref_ratio > 0 && run->ref_ratio < REF_SLOW) {
		run->verdict = RUN_COLLAPSED;
		run->by_reference = true;
	}
	double lin = random ? ratio_to_linear(s, run) : 0;
	if (run->verdict == RUN_HOLDS && lin > 0 && lin < RANDOM_SLOW) {
		run->verdict = RUN_COLLAPSED;
		run->by_reference = true;
		run->ref_ratio = lin;
	}
	if (run->stopped_early && run->verdict != RUN_COLLAPSED)
		run->verdict = RUN_UNCLEAR;
	if (run->cut_by_cap) {
		s->cap_hit = true;
		if (run->verdict == RUN_HOLDS)
			run->verdict = RUN_UNCLEAR;
	}
	return run;
}

static long long next_larger(long long n)
{
	long long m = n + n / 2;
	return m > n ? m : n + 1;
}

/*
 * Raises N until the first collapse (growing by half, or with jump straight
 * from 1 to limit), then bisects between the largest N that held and the
 * smallest that did not. An unclear run counts as not holding.
 */
static void search_open_aus(struct autostate *s, bool random, long long limit, bool jump)
{
	long long hold = 0, collapse = limit + 1, n = 1;
	bool upper_known = false, confirmed = false;

	for (;;) {
		struct au_run *run = open_au_run(s, n, random);
		if (!run)
			break;
		/*
		 * A noisy or disturbed run decides nothing, and a collapse seen
		 * only against another run may be a stretched access: measure
		 * it once more; the second run decides.
		 */
		if ((run->verdict == RUN_UNCLEAR || run->by_reference) && !run->cut_by_cap) {
			struct au_run *again = open_au_run(s, n, random);
			if (again)
				run = again;
		}
		if (run->verdict == RUN_HOLDS) {
			hold = n;
		} else {
			if (run->cut_by_cap)
				break;
			collapse = n;
			upper_known = true;
		}
		if (collapse - hold <= 1 && upper_known && collapse > 1 && !confirmed) {
			/* the collapse that decides the count is measured twice */
			confirmed = true;
			struct au_run *again = open_au_run(s, collapse, random);
			if (!again || again->verdict != RUN_HOLDS)
				break;
			hold = collapse;
			collapse = limit + 1;
			upper_known = false;
		}
		if (collapse - hold <= 1)
			break;
		if (upper_known)
			n = (hold + collapse) / 2;
		else
			n = jump ? limit : next_larger(hold) < limit ? next_larger(hold) : limit;
	}
}

static int collect_runs(struct autostate *s, bool random, const struct rate_result **rs,
			long long *nrs)
{
	int n = 0;
	for (int i = 0; i < s->nruns; i++)
		if (current_run(s, &s->runs[i]) && s->runs[i].random == random)
			n++;
	/* ascending N (insertion order differs while bisecting) */
	int k = 0;
	for (long long nr = 1; nr <= OPEN_AU_MAX_NR && k < n; nr++)
		for (int i = 0; i < s->nruns; i++)
			if (current_run(s, &s->runs[i]) && s->runs[i].random == random &&
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
		if (r->random != random || !current_run(s, r) || find_run(s, r->nr, random) != r)
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
	const struct au_run *first = find_run(s, b.collapse, random);
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

static void limit_conf(struct count_estimate *c, enum confidence cap, const char *why)
{
	if (c->conf > cap) {
		c->conf = cap;
		size_t len = strlen(c->evidence);
		snprintf(c->evidence + len, sizeof(c->evidence) - len, "%s%s", len ? "; " : "", why);
	}
}

/*
 * bound: the exact linear count when known (random mode cannot keep more
 * erase blocks open), else NULL. A lower bound is not the count: "at least
 * N" never claims more than low confidence.
 */
static void estimate_open_aus(struct autostate *s, bool random, const struct count_estimate *bound,
			      struct count_estimate *out)
{
	reconcile_open_aus(s, random, out);
	if (bound && out->at_least && out->n == bound->n) {
		out->at_least = false;
		out->conf = conf_min(out->conf, bound->conf);
		size_t len = strlen(out->evidence);
		snprintf(out->evidence + len, sizeof(out->evidence) - len,
			 "%sno more than the linear limit", len ? "; " : "");
	}
	if (out->at_least)
		limit_conf(out, CONF_LOW, s->cap_hit ? "--max-write reached before a collapse"
						      : "no collapse up to the largest N tried");
}

/*
 * A page-mapped area saves the per-write mapping work, which shows most for
 * writes of a few pages: when the run got there, the analysis looks at the
 * rows of at most four pages (with fewer than three such rows, at all).
 */
static void analyze_fat_rows(struct autostate *s)
{
	struct rate_result view = s->fat;
	int first = 0;

	while (first < s->fat.nrows && s->fat.rows[first].blocksize > 4 * s->pagesize)
		first++;
	if (s->fat.nrows - first >= 3) {
		view.rows = s->fat.rows + first;
		view.nrows = s->fat.nrows - first;
	}
	analyze_find_fat(&view, &s->fatest);
	/*
	 * Where no erase block collapsed under random writes, a FAT area could
	 * show only as that small saving: "none" is then never certain.
	 */
	int n = s->fat.nrows;
	while (n > 0 && s->fat.rows[n - 1].blocksize < s->pagesize)
		n--;	/* below a page, time per write is constant anyway */
	if (s->fatest.aus == 0 && s->fatest.conf > CONF_MEDIUM && n > 0 &&
	    !collapse_is_clear(s->fat.rows, n, slowest_column(&s->fat.rows[n - 1]))) {
		size_t len = strlen(s->fatest.evidence);
		s->fatest.conf = CONF_MEDIUM;
		snprintf(s->fatest.evidence + len, sizeof(s->fatest.evidence) - len,
			 "%sno erase block slowed down by random writes, so only a small saving could show",
			 len ? "; " : "");
	}
}

/*
 * --find-fat in random order (as the experts ran it), rows down to half a
 * page: a page-mapped area may stand out only for writes of a few pages.
 */
static void run_find_fat(struct autostate *s)
{
	struct params fp = *s->p;
	char msg[256];
	/* half a page: with 3*2^n erase sizes the rows near the page are 0.75 and 1.5 pages */
	uint64_t bs = page_row(s->erasesize, s->pagesize / 2, s->d->lbs);

	if (s->stop)
		return;
	fp.erasesize = s->erasesize;
	fp.blocksize = bs;
	fp.random = true;
	fp.offset_set = false;
	if (find_fat_check(s->d, &fp, msg, sizeof(msg)) < 0)
		return;
	uint64_t row_bytes = (uint64_t)fp.fat_nr * s->erasesize;
	if (!fits_cap(s, row_bytes * (uint64_t)rows_between(s->erasesize, bs)))
		return;

	struct row_watch *w = s->watch;
	memset(w, 0, offsetof(struct row_watch, rows));
	w->d = s->d;
	w->max_write = s->max_write;
	w->row_bytes = row_bytes;
	w->so_far.erasesize = fp.erasesize;
	w->so_far.blocksize = fp.blocksize;
	w->so_far.nr = fp.fat_nr;
	w->so_far.random = true;
	fp.keep_going = watch_row;
	fp.keep_going_arg = w;
	int64_t before = s->d->device_ns;
	measure_find_fat(s->d, &fp, &s->fat);
	s->write_ns += s->d->device_ns - before;
	s->have_fat = true;
	s->fat_stopped_early = w->stopped_early;
	note_status(s, &s->fat.st);
	analyze_fat_rows(s);
	if (w->cut_by_cap) {
		s->cap_hit = true;
		if (s->fatest.conf > CONF_LOW)
			s->fatest.conf = CONF_LOW;
	}
}

static void choose_write_geometry(struct autostate *s)
{
	unsigned long long pref = identity_preferred_erase_size(s->id);

	if (s->erase.bytes && s->erase.conf >= CONF_LOW) {
		s->erasesize = s->erase.bytes;
		s->erase_source = "the alignment estimate";
	} else if (pref && pref % s->d->lbs == 0) {
		s->erasesize = pref;
		s->erase_source = "sysfs preferred_erase_size";
	} else {
		s->erasesize = FALLBACK_ERASE;
		s->erase_source = "the common default (no estimate)";
	}
	s->pagesize = s->page.bytes ? s->page.bytes : FALLBACK_PAGE;
	s->max_write = s->o->max_write;
	if (!s->max_write) {
		s->max_write = 1024 * s->erasesize;
		if (s->max_write < (1ull << 30))
			s->max_write = 1ull << 30;
	}
}

/*
 * The open-AU runs start past the FAT area: a page-mapped block among them
 * needs no open slot and would add one to the count. The area may have gone
 * unnoticed (it can stand out only for writes of a page or two), so they
 * also start no earlier than the fifth erase block.
 */
static void choose_open_offset(struct autostate *s)
{
	struct params dp = *s->p;
	uint64_t e = s->erasesize;

	dp.erasesize = e;
	s->open_offset = open_au_default_offset(&dp);
	if (s->open_offset < 4 * e)
		s->open_offset = 4 * e;
	if (s->have_fat && s->fatest.aus > 0) {
		uint64_t past = (s->fatest.bytes + e - 1) / e * e + e;
		if (past > s->open_offset)
			s->open_offset = past;
	}
}

/*
 * A card writes one erase block linearly at full speed, so a linear
 * collapse at N=1 means the erase block is larger than the size tested
 * (or the run was disturbed): test twice the size once, and keep it when
 * one block holds there (issue 11 §4).
 */
static void recheck_bigger_erase(struct autostate *s)
{
	const struct au_run *one = find_run(s, 1, false);
	uint64_t e = s->erasesize;
	if (!one || one->verdict == RUN_HOLDS || one->cut_by_cap || s->stop || 2 * e > s->d->size / 8)
		return;
	s->erasesize = 2 * e;
	choose_open_offset(s);
	search_open_aus(s, false, OPEN_AU_MAX_NR, false);
	const struct au_run *again = find_run(s, 1, false);
	if (again && again->verdict == RUN_HOLDS) {
		char a[FMT_BUF], b[FMT_BUF];
		size_t len = strlen(s->erase.evidence);
		snprintf(s->erase.evidence + len, sizeof(s->erase.evidence) - len,
			 "%sat %s one erase block collapsed under linear writes (not physical); at %s "
			 "it holds", len ? "; " : "", fmt_size(a, e), fmt_size(b, 2 * e));
		s->erase.bytes = 2 * e;
		s->erase.conf = CONF_LOW;
		return;
	}
	s->erasesize = e;
	choose_open_offset(s);
}

static void run_write_phase(struct autostate *s)
{
	choose_write_geometry(s);
	run_find_fat(s);
	choose_open_offset(s);

	search_open_aus(s, false, OPEN_AU_MAX_NR, false);
	recheck_bigger_erase(s);
	estimate_open_aus(s, false, NULL, &s->lin);
	s->have_lin = true;

	/*
	 * Random mode cannot keep more erase blocks open than linear mode, so
	 * its search ends at the linear count: test N=1, then that count.
	 */
	bool lin_exact = s->lin.n > 0 && !s->lin.at_least;
	search_open_aus(s, true, s->lin.n > 0 ? s->lin.n : OPEN_AU_MAX_NR, true);
	estimate_open_aus(s, true, lin_exact ? &s->lin : NULL, &s->rnd);
	s->have_rnd = true;
	/*
	 * Collecting a small erase block is cheap (old 128..512 KiB NAND, a few
	 * page programs), so one block over the random limit may not show.
	 */
	if (s->erasesize <= SMALL_ERASE)
		limit_conf(&s->rnd, CONF_LOW, "small erase blocks are collected cheaply: "
			   "one more random block may not show");
	uint64_t unit = random_mapping_unit(s);
	s->map_unit = unit;
	if (unit) {
		char u[FMT_BUF];
		size_t len = strlen(s->rnd.evidence);
		snprintf(s->rnd.evidence + len, sizeof(s->rnd.evidence) - len,
			 "%srandom writes keep up with linear ones from %s up (a %s mapping unit)",
			 len ? "; " : "", fmt_size(u, unit), u);
	}

	if (s->erase.conf < CONF_MEDIUM) {
		const char *why = "erase size itself uncertain";
		limit_conf(&s->lin, s->erase.conf > CONF_LOW ? s->erase.conf : CONF_LOW, why);
		limit_conf(&s->rnd, s->erase.conf > CONF_LOW ? s->erase.conf : CONF_LOW, why);
		if (s->fatest.conf > CONF_LOW)
			s->fatest.conf = CONF_LOW;
	}
}

/* ---------------------------------------------------------------- advice */

struct advice {
	uint64_t au;		/* the erase block size the advice assumes */
	uint64_t unit;		/* what to align to: whole erase blocks and whole MiB */
	bool au_known;
	const char *au_source;	/* "measured", "sysfs preferred_erase_size", "common default" */
	uint64_t start;		/* first partition start in bytes */
	uint64_t after_fat;	/* first start past the FAT area, 0 if none */
	uint64_t stride, stripe_width;	/* ext4, in 4 KiB blocks */
	unsigned int f2fs_segs_per_section;
	int active_logs;	/* 0: f2fs default is fine */
};

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Advice follows only from counts measured with some confidence. */
static bool lin_is_known(const struct autostate *s)
{
	return s->have_lin && s->lin.n > 0 && !s->lin.at_least && s->lin.conf >= CONF_MEDIUM;
}

static void make_advice(const struct autostate *s, struct advice *a)
{
	const uint64_t mib = 1ull << 20, seg = 2ull << 20;

	memset(a, 0, sizeof(*a));
	unsigned long long pref = identity_preferred_erase_size(s->id);
	a->au_known = s->erase.bytes && s->erase.conf >= CONF_MEDIUM;
	a->au = a->au_known ? s->erase.bytes : is_erase_candidate(pref) ? pref : FALLBACK_ERASE;
	a->au_source = a->au_known ? "measured" : is_erase_candidate(pref) ? "sysfs preferred_erase_size"
									: "common default";
	a->unit = a->au / gcd_u64(a->au, mib) * mib;	/* lcm(AU, 1 MiB): one rule, not two */
	a->start = a->unit;
	if (s->have_fat && s->fatest.aus > 0 && s->fatest.bytes)
		a->after_fat = (s->fatest.bytes + a->unit - 1) / a->unit * a->unit;
	uint64_t page = s->page.bytes && s->page.conf >= CONF_MEDIUM ? s->page.bytes : 4096;
	a->stride = page >= 4096 ? page / 4096 : 1;
	a->stripe_width = a->au / 4096 ? a->au / 4096 : 1;
	uint64_t section = a->au / gcd_u64(a->au, seg) * seg;	/* lcm(AU, 2 MiB segment) */
	a->f2fs_segs_per_section = (unsigned int)(section / seg);
	if (lin_is_known(s) && s->lin.n < 6)
		a->active_logs = s->lin.n >= 4 ? 4 : 2;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The advice's commands, the same in text and JSON: they run as printed once /dev/sdX names the card. */
static bool has_fat_partition(const struct advice *a)
{
	return a->after_fat > a->start;
}

static const char *linux_partition(const struct advice *a)
{
	return has_fat_partition(a) ? "/dev/sdX2" : "/dev/sdX1";
}

static void cmd_sfdisk(char *buf, size_t n, const struct advice *a)
{
	if (has_fat_partition(a))
		snprintf(buf, n, "printf 'start=%" PRIu64 ", size=%" PRIu64 ", type=c\\nstart=%" PRIu64
			 "\\n' | sudo sfdisk /dev/sdX", a->start / SECTOR, (a->after_fat - a->start) / SECTOR,
			 a->after_fat / SECTOR);
	else
		snprintf(buf, n, "echo 'start=%" PRIu64 "' | sudo sfdisk /dev/sdX", a->start / SECTOR);
}

static void cmd_ext4(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.ext4 -b 4096 -E stride=%" PRIu64 ",stripe_width=%" PRIu64 " %s",
		 a->stride, a->stripe_width, linux_partition(a));
}

static void cmd_f2fs(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.f2fs -s %u %s", a->f2fs_segs_per_section, linux_partition(a));
}

static void cmd_mount(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mount -o active_logs=%d %s /mnt", a->active_logs, linux_partition(a));
}

/* Commands that run as printed once /dev/sdX names the card. */
static void print_partitioning(FILE *f, const struct autostate *s, const struct advice *a)
{
	char unit[FMT_BUF], au[FMT_BUF], fat[FMT_BUF], cmd[256];
	uint64_t blocks = a->unit / a->au, sectors = a->unit / SECTOR;

	fmt_size(unit, a->unit);
	fmt_size(au, a->au);
	if (blocks > 1)
		fprintf(f, "  Start every partition at a multiple of %s (%" PRIu64 " erase blocks of %s) and\n"
			"  make every size a multiple of %s (%" PRIu64 " sectors of 512 bytes):\n",
			unit, blocks, au, unit, sectors);
	else
		fprintf(f, "  Start every partition at a multiple of %s (one erase block) and make every\n"
			"  size a multiple of %s (%" PRIu64 " sectors of 512 bytes):\n", unit, unit, sectors);
	if (a->after_fat > a->start) {
		fmt_size(fat, s->fatest.bytes);
		fprintf(f, "  The first %s (%d erase %s) take small writes fast: keep a FAT partition\n"
			"  there and put Linux filesystems after it.\n", fat, s->fatest.aus,
			plural((uint64_t)s->fatest.aus, "block", "blocks"));
	}
	cmd_sfdisk(cmd, sizeof(cmd), a);
	fprintf(f, "    %s\n", cmd);
	if (has_fat_partition(a))
		fprintf(f, "    sudo mkfs.vfat /dev/sdX1\n");
}

static void print_advice(FILE *f, const struct autostate *s, const struct advice *a)
{
	uint64_t section = (uint64_t)a->f2fs_segs_per_section * (2u << 20);
	char au[FMT_BUF], sec[FMT_BUF], cmd[256];

	fmt_size(au, a->au);
	fprintf(f, "\nWhat to do\n");
	if (!a->au_known)
		fprintf(f, "  The erase block size is not certain: the advice assumes %s (%s).\n", au,
			a->au_source);
	print_partitioning(f, s, a);
	fprintf(f, "  For ext4 (stride: one page; stripe width: one erase block, in 4KiB blocks):\n");
	cmd_ext4(cmd, sizeof(cmd), a);
	fprintf(f, "    %s\n", cmd);
	fprintf(f, "  For f2fs (sections of %s, %u segment%s of 2MiB, cover whole erase blocks):\n",
		fmt_size(sec, section), a->f2fs_segs_per_section, a->f2fs_segs_per_section == 1 ? "" : "s");
	cmd_f2fs(cmd, sizeof(cmd), a);
	fprintf(f, "    %s\n", cmd);
	if (a->active_logs) {
		cmd_mount(cmd, sizeof(cmd), a);
		fprintf(f, "    %s\n  (f2fs writes 6 logs at once by default; this card keeps %d erase %s open)\n",
			cmd, s->lin.n, plural((uint64_t)s->lin.n, "block", "blocks"));
	}
	if (lin_is_known(s) && s->lin.n <= 2)
		fprintf(f, "  Only %d erase block%s open at a time: a journaling filesystem's scattered\n"
			"  writes (data, metadata, journal) will be slow; keep logs and /tmp on tmpfs.\n",
			s->lin.n, s->lin.n == 1 ? " stays" : "s stay");
	if (s->have_rnd && s->rnd.n == 0 && s->rnd.conf >= CONF_MEDIUM)
		fprintf(f, "  Out-of-order writes inside an erase block are slow even with one open:\n"
			"  prefer a log-structured filesystem (f2fs) for small-write workloads.\n");
}

/* ------------------------------------------------------------ text report */

/* "1st", "2nd", "3rd", "4th", "11th", "21st" */
static const char *ordinal(char *buf, size_t n, int k)
{
	const char *suffix = "th";

	if (k % 100 < 11 || k % 100 > 13)
		suffix = k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
	snprintf(buf, n, "%d%s", k, suffix);
	return buf;
}

/* How many times slower `worse` writes than `good` at the smallest block size both measured. */
static double slowdown(const struct au_run *good, const struct au_run *worse)
{
	double ratio = 0;

	if (!good || !worse)
		return 0;
	for (int i = 0; i < good->r.nrows; i++) {
		uint64_t bs = good->r.rows[i].blocksize;
		double g = rate_at(&good->r, bs), w = rate_at(&worse->r, bs);

		if (g > 0 && w > 0)
			ratio = g / w;	/* rows go down in size: the last match is the smallest */
	}
	return ratio;
}

/* The first run above n (same mode) that collapsed. */
static const struct au_run *first_collapse_above(const struct autostate *s, int n, bool random)
{
	for (int k = n + 1; k <= OPEN_AU_MAX_NR; k++) {
		const struct au_run *r = find_run(s, k, random);

		if (r && r->verdict == RUN_COLLAPSED)
			return r;
	}
	return NULL;
}

/* "Writing to 8 places at once is fine; a 9th makes the card copy whole blocks (5.3x slower)." */
static void say_open_limit(FILE *f, const struct autostate *s, const struct count_estimate *c,
			   bool random)
{
	const char *how = random ? "Writing out of order" : "Writing";
	char nth[16];

	if (c->conf == CONF_NONE || (c->n == 0 && !random))
		return;
	if (c->at_least) {
		fprintf(f, "  %s to %d place%s at once is fine (no limit found up to %d).\n", how, c->n,
			c->n == 1 ? "" : "s", c->n);
		return;
	}
	if (random && c->n == 0) {
		double x = slowdown(find_run(s, 1, false), find_run(s, 1, true));

		fprintf(f, "  Writing out of order is slow even in one place at a time");
		if (x >= 1.05)
			fprintf(f, " (%.1fx slower than in order)", x);
		fprintf(f, ".\n");
		return;
	}
	const struct au_run *worse = first_collapse_above(s, c->n, random);
	double x = slowdown(find_run(s, c->n, random), worse);

	fprintf(f, "  %s to %d place%s at once is fine; a %s makes the card copy whole blocks",
		how, c->n, c->n == 1 ? "" : "s", ordinal(nth, sizeof(nth), worse ? (int)worse->nr : c->n + 1));
	if (x >= 1.05)
		fprintf(f, " (%.*fx slower)", x < 10 ? 1 : 0, x);
	fprintf(f, ".\n");
}

/* The verdict in plain words; the numbers and their confidence follow. */
static void print_summary(FILE *f, const struct autostate *s)
{
	char e[FMT_BUF], p[FMT_BUF], bs[FMT_BUF];

	if (s->erase.bytes)
		fprintf(f, "  Erase blocks are %s", fmt_size(e, s->erase.bytes));
	else
		fprintf(f, "  The erase block size did not show");
	if (s->page.bytes)
		fprintf(f, "; pages are %s.\n", fmt_size(p, s->page.bytes));
	else
		fprintf(f, "; the page size did not show.\n");
	if (!s->page.bytes) {
		unsigned int least = s->d->lbs > 512 ? s->d->lbs : 512;

		fmt_size(bs, s->align.blocksize);
		if (s->align.blocksize > least)
			fprintf(f, "  A page of %s or less cannot show with -a --blocksize=%s; to look for it:\n"
				"    flashbench -a --blocksize=%u %s\n", bs, bs, least,
				s->o->device_name ? s->o->device_name : s->d->path);
		else
			fprintf(f, "  No step showed down to the smallest read (%s): pages are that small\n"
				"  or the card hides them.\n", bs);
	}
	if (s->have_lin)
		say_open_limit(f, s, &s->lin, false);
	if (s->have_rnd)
		say_open_limit(f, s, &s->rnd, true);
	if (s->map_unit)
		fprintf(f, "  Random writes keep up with linear ones from %s up (a %s mapping unit).\n",
			fmt_size(e, s->map_unit), fmt_size(p, s->map_unit));
	if (s->have_fat && s->fatest.aus > 0)
		fprintf(f, "  The first %s (%d erase block%s) take small writes faster: a FAT area.\n",
			fmt_size(e, s->fatest.bytes), s->fatest.aus, s->fatest.aus == 1 ? "" : "s");
	fputc('\n', f);
}


static void print_size_estimate(FILE *f, const char *what, const struct size_estimate *e,
				bool verbose)
{
	char b[FMT_BUF], b2[FMT_BUF];

	if (e->bytes)
		fprintf(f, "  %-22s %s (%s confidence)%s%s\n", what, fmt_size(b, e->bytes),
			confidence_name(e->conf), e->multiplane ? "; reads pair pages to " : "",
			e->multiplane ? fmt_size(b2, e->multiplane) : "");
	else
		fprintf(f, "  %-22s unknown\n", what);
	if (verbose && e->evidence[0])
		fprintf(f, "  %-22s   %s\n", "", e->evidence);
}

static void print_count_estimate(FILE *f, const char *what, const struct count_estimate *c,
				 bool verbose)
{
	if (c->n > 0 || c->conf > CONF_NONE)
		fprintf(f, "  %-22s %s%d (%s confidence)\n", what, c->at_least ? "at least " : "", c->n,
			confidence_name(c->conf));
	else
		fprintf(f, "  %-22s unknown\n", what);
	if (verbose && c->evidence[0])
		fprintf(f, "  %-22s   %s\n", "", c->evidence);
}

static void print_fat_estimate(FILE *f, const struct fat_estimate *e, bool verbose)
{
	char b[FMT_BUF];

	if (e->aus > 0)
		fprintf(f, "  %-22s %d erase block%s, %s at the start (%s confidence)\n", "FAT-optimised area",
			e->aus, e->aus == 1 ? "" : "s", fmt_size(b, e->bytes), confidence_name(e->conf));
	else if (e->conf == CONF_NONE)
		fprintf(f, "  %-22s unknown\n", "FAT-optimised area");
	else
		fprintf(f, "  %-22s none (%s confidence)\n", "FAT-optimised area", confidence_name(e->conf));
	if (verbose && e->evidence[0])
		fprintf(f, "  %-22s   %s\n", "", e->evidence);
}

static void print_raw(FILE *f, const struct autostate *s)
{
	char b[FMT_BUF], e[FMT_BUF];
	const char *dev = s->o->device_name ? s->o->device_name : s->d->path;

	fprintf(f, "\nRaw data\n");
	fprintf(f, "$ flashbench -a %s --blocksize=%" PRIu64 " --count=%lld", dev, s->align.blocksize,
		s->align.count);
	if (s->nalign > 1)
		fprintf(f, "   # median of %d runs", s->nalign);
	fputc('\n', f);
	text_align(f, &s->align);
	if (s->have_fat) {
		fprintf(f, "$ flashbench --find-fat %s --erasesize=%s --blocksize=%s --fat-nr=%lld%s%s\n", dev,
			fmt_size(e, s->fat.erasesize), fmt_size(b, s->fat.blocksize), s->fat.nr,
			s->fat.random ? " --random" : "",
			s->fat_stopped_early ? "   # stopped once settled" : "");
		text_rates(f, &s->fat);
	}
	/* linear runs, then random ones, each by ascending N (not in search order) */
	for (int k = 0; k < 2 * (OPEN_AU_MAX_NR + 1); k++) {
		const struct au_run *r = find_run(s, k % (OPEN_AU_MAX_NR + 1), k > OPEN_AU_MAX_NR);
		if (!r)
			continue;
		fprintf(f, "$ flashbench --open-au %s --erasesize=%s --blocksize=%s --open-au-nr=%lld --offset=%" PRIu64 "%s   # %s%s\n",
			dev, fmt_size(e, r->r.erasesize), fmt_size(b, r->r.blocksize), r->nr,
			r->r.offset, r->random ? " --random" : "", collapse_name(r->verdict),
			r->stopped_early ? ", stopped once clear" : r->cut_by_cap ? ", cut by --max-write" : "");
		text_rates(f, &r->r);
	}
}

/* Low confidence or unknown: say how a second run can settle it. */
static void print_rerun_hint(FILE *f, const struct autostate *s, const char *dev)
{
	bool unsure = s->erase.conf <= CONF_LOW || s->page.conf <= CONF_LOW ||
		      (s->have_lin && s->lin.conf <= CONF_LOW) ||
		      (s->have_rnd && s->rnd.conf <= CONF_LOW);
	if (!unsure)
		return;
	fprintf(f, "  %-22s low-confidence or unknown answers may settle on a second run on a\n"
		"  %-22s quiet host (no other I/O; a card slot rather than a USB reader):\n"
		"  %-22s flashbench --auto%s %s\n", "rerun", "", "",
		s->o->destructive ? " --destructive" : "", dev);
}

/* "$ sudo ./flashbench --auto --destructive /dev/sdc", and what the run wrote */
static void print_command(FILE *f, const struct autostate *s)
{
	const char *dev = s->o->device_name ? s->o->device_name : s->d->path;
	char cmd[1024], b[FMT_BUF];

	if (report_command_line(cmd, sizeof(cmd)))
		fprintf(f, "$ %s\n", cmd);
	else
		fprintf(f, "$ flashbench --auto%s %s\n", s->o->destructive ? " --destructive" : "", dev);
	if (s->have_cap && s->cap.verdict != CAP_GENUINE)
		capacity_headline(f, s);	/* a fake card first: every number below is measured on it */
	if (s->d->bytes_written)
		fprintf(f, "Wrote %s (%" PRIu64 " bytes) to %s.\n", fmt_size(b, s->d->bytes_written),
			s->d->bytes_written, dev);
	else
		fprintf(f, "Wrote nothing to %s: only read it.\n", dev);
}

static void print_text(FILE *f, const struct autostate *s)
{
	const char *dev = s->o->device_name ? s->o->device_name : s->d->path;
	char b[FMT_BUF], t[FMT_BUF];
	struct advice a;

	bool v = s->o->verbose;

	print_command(f, s);
	fprintf(f, "\nDevice\n");
	identity_print(f, s->id);

	fprintf(f, "\nVerdict\n");
	if (s->have_cap && s->cap.verdict == CAP_GENUINE)
		capacity_headline(f, s);
	print_summary(f, s);
	print_size_estimate(f, "erase block size", &s->erase, v);
	print_size_estimate(f, "page size", &s->page, v);
	if (s->o->destructive) {
		if (s->have_lin)
			print_count_estimate(f, "open erase blocks", &s->lin, v);
		if (s->have_rnd)
			print_count_estimate(f, "open, random writes", &s->rnd, v);
		if (s->have_fat)
			print_fat_estimate(f, &s->fatest, v);
		else if (s->have_lin)
			fprintf(f, "  %-22s not measured%s\n", "FAT-optimised area",
				s->cap_hit ? " (--max-write reached)" : "");
		fprintf(f, "  %-22s %s", "written", fmt_size(b, s->d->bytes_written));
		fprintf(f, " in %s of device time, erase size %s from %s", fmt_time(t, s->write_ns),
			fmt_size(b, s->erasesize), s->erase_source ? s->erase_source : "-");
		fprintf(f, "%s\n", s->cap_hit ? "; --max-write reached" : "");
	}
	fprintf(f, "  %-22s %d run%s of -a, %s of device time\n", "alignment", s->nalign,
		s->nalign == 1 ? "" : "s", fmt_time(t, s->align_ns));
	print_rerun_hint(f, s, dev);

	make_advice(s, &a);
	print_advice(f, s, &a);
	if (!s->o->destructive)
		fprintf(f, "\nNothing was written. To find the open erase blocks and the FAT area\n"
			"(this OVERWRITES data on %s):\n  flashbench --auto --destructive %s\n", dev, dev);
	print_raw(f, s);
	if (s->status == 1)
		fprintf(f, "\nSome I/O failed: the results above are incomplete.\n");
	else if (s->stop)
		fprintf(f, "\nInterrupted: the results above are incomplete.\n");
}

/* ------------------------------------------------------------ JSON report */

/* Where a size came from, as an enum value: "measured", "sysfs_preferred_erase_size", "default" */
static const char *source_id(const char *source)
{
	if (!source)
		return NULL;
	if (strstr(source, "sysfs"))
		return "sysfs_preferred_erase_size";
	return strstr(source, "default") ? "default" : "measured";
}

static void json_advice(struct jw *w, const struct autostate *s)
{
	struct advice a;
	char line[256];

	make_advice(s, &a);
	jw_object_begin(w, "advice");
	jw_uint(w, "align_bytes", a.unit);
	jw_uint(w, "erase_block_bytes", a.au);
	jw_string(w, "align_source", source_id(a.au_source));
	jw_uint(w, "partition_start_sectors", a.start / SECTOR);
	if (has_fat_partition(&a))
		jw_uint(w, "linux_partition_start_sectors", a.after_fat / SECTOR);
	cmd_sfdisk(line, sizeof(line), &a);
	jw_string(w, "sfdisk", line);
	if (has_fat_partition(&a))
		jw_string(w, "fat_partition", "sudo mkfs.vfat /dev/sdX1");
	cmd_ext4(line, sizeof(line), &a);
	jw_string(w, "ext4", line);
	cmd_f2fs(line, sizeof(line), &a);
	jw_string(w, "f2fs", line);
	if (a.active_logs) {
		cmd_mount(line, sizeof(line), &a);
		jw_string(w, "f2fs_mount", line);
	}
	jw_object_end(w);
}

static void json_write_phase(struct jw *w, const struct autostate *s)
{
	jw_object_begin(w, "write_phase");
	jw_uint(w, "erasesize_bytes", s->erasesize);
	jw_string(w, "erasesize_source", source_id(s->erase_source));
	jw_uint(w, "open_au_offset_bytes", s->open_offset);
	jw_array_begin(w, "open_au_runs");
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		jw_object_begin(w, NULL);
		jw_int(w, "nr", r->nr);
		jw_bool(w, "random", r->random);
		jw_string(w, "verdict", collapse_name(r->verdict));
		jw_bool(w, "stopped_early", r->stopped_early);
		jw_bool(w, "cut_by_max_write", r->cut_by_cap);
		json_rates(w, "result", &r->r);
		jw_object_end(w);
	}
	jw_array_end(w);
	if (s->have_fat)
		json_rates(w, "find_fat", &s->fat);
	jw_object_end(w);
}

/* Every measurement of the run folded into one status (what json_status prints). */
static void overall_status(const struct autostate *s, struct run_status *st)
{
	const struct run_status *parts[ALIGN_MAX_RUNS + MAX_AU_RUNS + 1];
	int n = 0;

	for (int i = 0; i < s->nalign; i++)
		parts[n++] = &s->align_runs[i].st;
	if (s->have_fat)
		parts[n++] = &s->fat.st;
	for (int i = 0; i < s->nruns; i++)
		parts[n++] = &s->runs[i].r.st;
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < n; i++) {
		if (parts[i]->nfailures && !st->nfailures)
			st->first_failure = parts[i]->first_failure;
		st->nfailures += parts[i]->nfailures;
		st->interrupted |= parts[i]->interrupted;
		st->partial |= parts[i]->partial;
	}
	st->bytes_written = s->d->bytes_written;
	st->device_ns = s->d->device_ns;
}

static void json_cost(struct jw *w, const struct autostate *s)
{
	jw_object_begin(w, "cost");
	jw_uint(w, "written_bytes", s->d->bytes_written);
	jw_uint(w, "read_bytes", s->d->bytes_read);
	jw_int(w, "device_time_ns", s->d->device_ns);
	jw_int(w, "align_device_time_ns", s->align_ns);
	jw_int(w, "write_device_time_ns", s->write_ns);
	if (s->o->destructive) {
		jw_uint(w, "max_write_bytes", s->max_write);
		jw_bool(w, "max_write_reached", s->cap_hit);
	}
	jw_object_end(w);
}

static void print_json(FILE *f, const struct autostate *s)
{
	struct jw w;
	struct run_status st;
	const char *dev = s->o->device_name ? s->o->device_name : s->d->path;

	jw_init(&w, f);
	jw_object_begin(&w, NULL);
	json_envelope(&w, "auto");
	json_device(&w, s->d, dev);
	identity_json(&w, "identity", s->id);
	if (s->have_cap)
		capacity_json(&w, "capacity", &s->cap);

	jw_object_begin(&w, "verdict");
	json_size_estimate(&w, "erase_size", &s->erase);
	json_size_estimate(&w, "page_size", &s->page);
	if (s->have_lin)
		json_count_estimate(&w, "open_au_linear", &s->lin);
	if (s->have_rnd)
		json_count_estimate(&w, "open_au_random", &s->rnd);
	if (s->have_fat)
		json_fat_estimate(&w, "fat_area", &s->fatest);
	jw_object_end(&w);
	json_advice(&w, s);

	jw_object_begin(&w, "auto");
	jw_bool(&w, "destructive", s->o->destructive);
	jw_int(&w, "align_runs", s->nalign);
	json_align(&w, "align", &s->align);
	if (s->o->destructive) {
		json_write_phase(&w, s);
	} else {
		char next[512];
		snprintf(next, sizeof(next), "flashbench --auto --destructive %s", dev);
		jw_string(&w, "to_measure_writes", next);	/* overwrites data on the device */
	}
	json_cost(&w, s);
	jw_object_end(&w);

	overall_status(s, &st);
	json_status(&w, &st);
	jw_object_end(&w);
	jw_finish(&w);
}

/* ---------------------------------------------------------------- driver */

/* --plot: the --open-au runs, linear then random, each by ascending N */
static void plot_runs(FILE *f, const struct autostate *s)
{
	struct svg_run runs[MAX_AU_RUNS];
	int n = 0;

	for (int k = 0; k < 2 * (OPEN_AU_MAX_NR + 1) && n < MAX_AU_RUNS; k++) {
		const struct au_run *r = find_run(s, k % (OPEN_AU_MAX_NR + 1), k > OPEN_AU_MAX_NR);

		if (r && r->r.nrows > 0)
			runs[n++] = (struct svg_run){ &r->r, r->nr, r->random, r->verdict == RUN_COLLAPSED };
	}
	struct report_verdict v = { 0 };

	analyze_align(&s->align, &v.erase, &v.page);	/* the chart marks -a's own reading */
	svg_auto(f, s->o->device_name ? s->o->device_name : s->d->path, &s->align, &v, runs, n);
}

static void report_failure(const struct autostate *s)
{
	struct run_status st;

	overall_status(s, &st);
	if (!st.nfailures)
		return;
	const struct vm_failure *f = &st.first_failure;
	const char *op = f->op == VM_READ ? "read" : f->op == VM_DISCARD ? "discard" : "write";
	fprintf(stderr, "flashbench: %s: %s failed at offset %" PRIu64 " (%" PRIu64 " bytes): %s",
		s->o->device_name ? s->o->device_name : s->d->path, op, f->off, f->len,
		strerror(f->err));
	if (st.nfailures > 1)
		fprintf(stderr, " (%d failed I/Os in all)", st.nfailures);
	fputc('\n', stderr);
}

static void free_state(struct autostate *s)
{
	for (int i = 0; i < s->nalign; i++)
		align_result_free(&s->align_runs[i]);
	align_result_free(&s->align);
	for (int i = 0; i < s->nruns; i++)
		rate_result_free(&s->runs[i].r);
	if (s->have_fat)
		rate_result_free(&s->fat);
	identity_free(s->id);
	free(s->watch);
	free(s);
}

int auto_run(struct dev *d, const struct params *p, const struct auto_opts *o, FILE *out)
{
	struct autostate *s = calloc(1, sizeof(*s));
	int rc;

	if (s)
		s->watch = calloc(1, sizeof(*s->watch));
	if (!s || !s->watch) {
		fprintf(stderr, "flashbench: --auto: out of memory\n");
		if (o->json)
			json_error_document(out, "auto", o->device_name, "out of memory");
		free(s);
		return 1;
	}
	s->d = d;
	s->p = p;
	s->o = o;
	s->id = identity_probe(d, "/sys");

	uint64_t advertised = d->size;
	if (o->destructive)
		run_capacity_first(s);
	rc = s->stop ? 0 : run_alignment(s, stderr);
	if (rc) {
		d->size = advertised;
		if (o->json)
			json_error_document(out, "auto", o->device_name ? o->device_name : d->path,
					    s->error);
		free_state(s);
		return rc;
	}
	/* a second witness; without an -a step the write phase falls back to it itself */
	if (s->erase.bytes)
		analyze_cross_check_erase(&s->erase, identity_preferred_erase_size(s->id),
					  "sysfs preferred_erase_size");
	if (o->destructive && !s->stop)
		run_write_phase(s);
	d->size = advertised;	/* the report shows what the card claims */

	if (o->json)
		print_json(out, s);
	else
		print_text(out, s);
	if (o->plot)
		plot_runs(o->plot, s);
	report_failure(s);
	rc = s->status ? s->status : s->have_cap ? capacity_exit_status(&s->cap) : 0;
	free_state(s);
	return rc;
}
