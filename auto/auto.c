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

#include "analyze/analyze.h"
#include "auto/auto.h"
#include "auto/auto_state.h"
#include "checks/capacity.h"
#include "identity/identity.h"
#include "lib/json.h"
#include "measure/measure.h"
#include "report/report.h"
#include "safety/safety.h"
#include "lib/msg.h"
#include "lib/progress.h"
#include "lib/units.h"
#include "vm.h"

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
	auto_note_status(s, &run->r.st);
	run->verdict = analyze_open_au_run(&run->r, s->pagesize);
	run->ref_ratio = auto_ratio_to_one_au(s, run);
	if (run->verdict == RUN_HOLDS && run->ref_ratio > 0 && run->ref_ratio < REF_SLOW) {
		run->verdict = RUN_COLLAPSED;
		run->by_reference = true;
	}
	double lin = random ? auto_ratio_to_linear(s, run) : 0;
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
		appendf(s->fatest.evidence, sizeof(s->fatest.evidence),
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
	auto_note_status(s, &s->fat.st);
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
		if (s->max_write < AUTO_MAX_WRITE_FLOOR)
			s->max_write = AUTO_MAX_WRITE_FLOOR;
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
 * one block holds there (doc/card-facts.md, Writes).
 */
static void recheck_bigger_erase(struct autostate *s)
{
	const struct au_run *one = auto_find_run(s, 1, false);
	uint64_t e = s->erasesize;
	if (!one || one->verdict == RUN_HOLDS || one->cut_by_cap || s->stop || 2 * e > s->d->size / 8)
		return;
	s->erasesize = 2 * e;
	choose_open_offset(s);
	search_open_aus(s, false, OPEN_AU_MAX_NR, false);
	const struct au_run *again = auto_find_run(s, 1, false);
	if (again && again->verdict == RUN_HOLDS) {
		char a[FMT_BUF], b[FMT_BUF];
		size_t len = strlen(s->erase.evidence);
		appendf(s->erase.evidence, sizeof(s->erase.evidence),
			 "%sat %s one erase block collapsed under linear writes (not physical); at %s "
			 "it holds", len ? "; " : "", fmt_size(a, e), fmt_size(b, 2 * e));
		s->erase.bytes = 2 * e;
		s->erase.conf = CONF_LOW;
		return;
	}
	s->erasesize = e;
	choose_open_offset(s);
}

/* The progress line's steps: usual shares of a run's time (simulated presets), measurements each. */
enum { STEP_CAPACITY, STEP_ALIGN, STEP_FAT, STEP_OPEN, STEP_RANDOM, STEP_CLASS, NSTEPS };
static const struct progress_step auto_steps[] = {
	[STEP_CAPACITY] = { "capacity", 5, 2 },
	[STEP_ALIGN] = { "alignment", 6, 3 },
	[STEP_FAT] = { "FAT area", 30, 1 },
	[STEP_OPEN] = { "open blocks", 40, 8 },
	[STEP_RANDOM] = { "random writes", 19, 4 },
	[STEP_CLASS] = { "speed class", 5, 4 },
};

static void run_write_phase(struct autostate *s)
{
	choose_write_geometry(s);
	progress_run_step(STEP_FAT);
	run_find_fat(s);
	choose_open_offset(s);

	progress_run_step(STEP_OPEN);
	search_open_aus(s, false, OPEN_AU_MAX_NR, false);
	recheck_bigger_erase(s);
	auto_estimate_open_aus(s, false, NULL, &s->lin);
	s->have_lin = true;

	/*
	 * Random mode cannot keep more erase blocks open than linear mode, so
	 * its search ends at the linear count: test N=1, then that count.
	 */
	bool lin_exact = s->lin.n > 0 && !s->lin.at_least;
	progress_run_step(STEP_RANDOM);
	search_open_aus(s, true, s->lin.n > 0 ? s->lin.n : OPEN_AU_MAX_NR, true);
	auto_estimate_open_aus(s, true, lin_exact ? &s->lin : NULL, &s->rnd);
	s->have_rnd = true;
	/*
	 * Collecting a small erase block is cheap (old 128..512 KiB NAND, a few
	 * page programs), so one block over the random limit may not show.
	 */
	if (s->erasesize <= SMALL_ERASE)
		auto_limit_conf(&s->rnd, CONF_LOW, "small erase blocks are collected cheaply: "
			   "one more random block may not show");
	uint64_t unit = auto_random_mapping_unit(s);
	s->map_unit = unit;
	if (unit) {
		char u[FMT_BUF];
		size_t len = strlen(s->rnd.evidence);
		appendf(s->rnd.evidence, sizeof(s->rnd.evidence),
			 "%srandom writes keep up with linear ones from %s up (a %s mapping unit)",
			 len ? "; " : "", fmt_size(u, unit), u);
	}

	if (s->erase.conf < CONF_MEDIUM) {
		const char *why = "erase size itself uncertain";
		auto_limit_conf(&s->lin, s->erase.conf > CONF_LOW ? s->erase.conf : CONF_LOW, why);
		auto_limit_conf(&s->rnd, s->erase.conf > CONF_LOW ? s->erase.conf : CONF_LOW, why);
		if (s->fatest.conf > CONF_LOW)
			s->fatest.conf = CONF_LOW;
	}
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
	free(s->cls);
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
		warnx_fb("--auto: out of memory");
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
	/* read-only, alignment is the only step */
	progress_run_begin(auto_steps + (o->destructive ? 0 : STEP_ALIGN), o->destructive ? NSTEPS : 1);
	if (o->destructive)
		auto_run_capacity_first(s);
	progress_run_step(o->destructive ? STEP_ALIGN : 0);
	rc = s->error[0] ? s->status : s->stop ? 0 : auto_run_alignment(s);
	if (rc) {
		progress_run_end();
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
	progress_run_step(STEP_CLASS);
	if (o->destructive && !s->stop)
		auto_run_class(s);	/* after --capacity and the write phase, inside the real size */
	d->size = advertised;	/* the report shows what the card claims */
	progress_run_end();

	if (o->json)
		auto_print_json(out, s);
	else
		auto_print_text(out, s);
	if (o->plot)
		auto_plot_runs(o->plot, s);
	auto_report_failure(s);
	/* a capacity step skipped for --max-write found nothing wrong */
	rc = s->status ? s->status
	   : s->have_cap && !s->cap.not_run_max_write ? capacity_exit_status(&s->cap) : 0;
	free_state(s);
	return rc;
}
