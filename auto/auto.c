/*
 * flashbench --auto: identity, alignment (read-only, repeated until the
 * estimate stands with any one run left out, or ~40 s of device time are
 * spent), with --destructive the FAT-area and open-AU searches, then a
 * verdict, advice and the raw tables in the original formats (or all of it
 * as one JSON document).
 *
 * Cost control in the write phase: every --open-au run writes N erase
 * blocks per row, so the searches test as few N as possible (growing by
 * half, then bisecting; random mode only up to the linear count), write a
 * settling row and the two decision rows only (auto/auto_open.c), stop a
 * run once its collapse is clear, check the FAT area with rows of two
 * pages down to half a page (auto/auto_fat.c), and never start a run that
 * could take the total past --max-write.
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

static void choose_write_geometry(struct autostate *s)
{
	unsigned long long pref = identity_preferred_erase_size(s->id);
	/*
	 * The open-AU runs start at the fifth erase block and need a few more:
	 * a low-confidence estimate that leaves no room for them gives way (a
	 * sure one stands, and the write tests that do not fit are unknown).
	 */
	uint64_t room = s->d->size / 8;

	if (s->erase.bytes && s->erase.conf >= CONF_LOW &&
	    (s->erase.bytes <= room || s->erase.conf > CONF_LOW)) {
		s->erasesize = s->erase.bytes;
		s->erase_source = "the alignment estimate";
	} else if (pref && pref % s->d->lbs == 0 && pref <= room) {
		s->erasesize = pref;
		s->erase_source = "sysfs preferred_erase_size";
	} else {
		s->erasesize = FALLBACK_ERASE;
		s->erase_source = s->erase.bytes || pref ? "the common default (the estimate leaves no "
				  "room for the write tests)" : "the common default (no estimate)";
	}
	s->pagesize = s->page.bytes ? s->page.bytes : FALLBACK_PAGE;
}

/*
 * The open-AU runs start past the FAT area: a page-mapped block among them
 * needs no open slot and would add one to the count. The area may have gone
 * unnoticed (it can stand out only for writes of a page or two), so they
 * also start no earlier than the fifth erase block, and past the blocks
 * the --find-fat run writes out of order (a run's blocks go on where they
 * were, and one left in random mode there would slow its linear writes).
 */
static void choose_open_offset(struct autostate *s)
{
	struct params dp = *s->p;
	uint64_t e = s->erasesize;
	uint64_t fat_end = (uint64_t)(s->p->fat_nr > 4 ? s->p->fat_nr : 4) * e;

	dp.erasesize = e;
	s->open_offset = open_au_default_offset(&dp);
	if (s->open_offset < fat_end)
		s->open_offset = fat_end;
	if (s->have_fat && s->fatest.aus > 0) {
		uint64_t past = (s->fatest.bytes + e - 1) / e * e + e;
		if (past > s->open_offset)
			s->open_offset = past;
	}
	if (s->open_offset != s->placed_offset || e != s->placed_erasesize) {
		s->prev_nr = 0;	/* other blocks: no run before at these places */
		auto_probe_reset(s);
		auto_probe_rows_init(s);
	}
	s->placed_offset = s->open_offset;
	s->placed_erasesize = e;
}

/*
 * A card writes one erase block linearly at full speed, so a linear
 * collapse at N=1 means the erase block is larger than the size tested
 * (or the run was disturbed): test twice the size once, and keep it when
 * one block holds there (doc/card-facts.md, Writes).
 */
static void recheck_bigger_erase(struct autostate *s)
{
	uint64_t e = s->erasesize;
	if (!auto_replicas(s, 1, false) || auto_combined_verdict(s, 1, false, NULL) == RUN_HOLDS ||
	    s->cap_hit || s->stop || 2 * e > s->d->size / 8)
		return;
	s->erasesize = 2 * e;
	choose_open_offset(s);
	s->dirty = true;
	s->dirty_why = "the runs at the smaller erase size";
	auto_search_open_aus(s, false, OPEN_AU_MAX_NR);
	if (auto_replicas(s, 1, false) && auto_combined_verdict(s, 1, false, NULL) == RUN_HOLDS) {
		char a[FMT_BUF], b[FMT_BUF];
		size_t len = strlen(s->erase.evidence);
		fmt_append(s->erase.evidence, sizeof(s->erase.evidence),
			 "%sat %s one erase block collapsed under linear writes (not physical); at %s "
			 "it holds", len ? "; " : "", fmt_size(a, e), fmt_size(b, 2 * e));
		s->erase.bytes = 2 * e;
		s->erase.conf = CONF_LOW;
		return;
	}
	s->erasesize = e;
	choose_open_offset(s);
}

/* The progress line's steps (auto/auto_progress.c, which also states the plan of what is left) */
enum { STEP_CAPACITY = AUTO_STEP_CAPACITY, STEP_ALIGN = AUTO_STEP_ALIGN, STEP_FAT = AUTO_STEP_FAT,
       STEP_OPEN = AUTO_STEP_OPEN, STEP_RANDOM = AUTO_STEP_RANDOM, STEP_CLASS = AUTO_STEP_CLASS };
/*
 * A collapse that at least two runs at that N showed, and that no larger N
 * contradicts by holding (past the limit a card collapses at any N).
 */
static bool confirmed_collapse(const struct autostate *s, bool random)
{
	for (long long nr = 1; nr <= OPEN_AU_MAX_NR; nr++) {
		if (!auto_replicas(s, nr, random) ||
		    auto_combined_verdict(s, nr, random, NULL) != RUN_COLLAPSED ||
		    auto_agreeing(s, nr, random) < 2)
			continue;
		bool held_above = false;
		for (long long m = nr + 1; m <= OPEN_AU_MAX_NR; m++)
			held_above |= auto_replicas(s, m, random) &&
				      auto_combined_verdict(s, m, random, NULL) == RUN_HOLDS;
		if (!held_above)
			return true;
	}
	return false;
}

/*
 * Writes that ran alike in every pattern tried (no collapse two runs agree
 * on, in order or not, random writes to one block included; no
 * erase-block step, no FAT area): a device without flash translation
 * effects, such as a RAM disk (issue 22).
 */
static bool no_translation_effects(const struct autostate *s)
{
	return !confirmed_collapse(s, false) && !confirmed_collapse(s, true) &&
	       auto_replicas(s, 1, true) && !s->erase.bytes &&
	       !(s->have_fat && s->fatest.aus > 0 && s->fatest.conf >= CONF_MEDIUM);
}

/* No limit where no collapse held up: at least the largest N measured, in either mode. */
static void say_no_effects(struct autostate *s)
{
	for (int m = 0; m < 2; m++) {
		bool random = m == 1;
		struct count_estimate *c = random ? &s->rnd : &s->lin;
		long long held = 0;
		for (long long nr = 1; nr <= OPEN_AU_MAX_NR; nr++)
			if (auto_replicas(s, nr, random))
				held = nr;
		c->n = (int)held;
		c->at_least = true;
		c->conf = CONF_LOW;
		snprintf(c->evidence, sizeof(c->evidence), "no collapse that two runs agree on, up to "
			 "N=%lld: no flash translation effects seen", held);
	}
	s->map_unit = 0;	/* a cliff in one run of random writes, not seen again */
}

/*
 * Host noise that swamps the rows (issue 20, cause 3): the two fastest of
 * the reference's runs differ by more than NOISE_GATE at a decision row;
 * then no count is more than low.
 */
static void limit_by_host_noise(struct autostate *s)
{
	struct rows_plan p;
	double worst = 0;
	char why[160];
	auto_plan_rows(s, false, false, &p);
	for (int k = 0; k < p.nd; k++) {
		double v = auto_spread(s, false, p.d[k]);
		worst = v > worst ? v : worst;
	}
	if (worst <= NOISE_GATE)
		return;
	snprintf(why, sizeof(why), "host noise: the two fastest runs of one erase block differ by %.0f%%, "
		 "as much as a collapse", 100 * worst);
	auto_limit_conf(&s->lin, CONF_LOW, why);
	auto_limit_conf(&s->rnd, CONF_LOW, why);
	if (s->fatest.conf > CONF_LOW)
		s->fatest.conf = CONF_LOW;
}

/*
 * Not even one --open-au run fits (a large erase block on a small device:
 * the runs start at the fifth): the counts are unknown for that reason, and
 * the report says so rather than leaving "unknown" bare.
 */
static void note_no_room(struct autostate *s)
{
	struct params op = *s->p;
	char why[200], e[FMT_BUF];

	op.erasesize = op.blocksize = s->erasesize;
	op.first_blocksize = 0;
	op.open_au_nr = 1;
	op.random = false;
	op.offset_set = true;
	op.offset = s->open_offset;
	if (open_au_check(s->d, &op, why, sizeof(why)) == 0)
		return;
	snprintf(s->no_room, sizeof(s->no_room), "with %s erase blocks they would start at offset "
		 "%" PRIu64 ", in a device of %" PRIu64 " bytes", fmt_size(e, s->erasesize),
		 s->open_offset, s->d->size);
	for (int m = 0; m < 2; m++) {
		struct count_estimate *c = m ? &s->rnd : &s->lin;
		if (c->conf == CONF_NONE)
			snprintf(c->evidence, sizeof(c->evidence), "not measured: %s (%s)", s->no_room, why);
	}
}

/*
 * No run collapsed up to the largest N, yet -a shows an erase-block step:
 * the runs may all have gone to a write cache (issue 27).
 */
static bool cache_suspected(const struct autostate *s)
{
	struct bracket b = auto_bracket(s, false);
	return s->erase.bytes && !b.collapse && b.hold >= OPEN_AU_MAX_NR && !s->cache_checked &&
	       !s->stop;
}

static void remeasure(struct autostate *s);

/* The FAT check, its bytes counted as its own (the settling before its runs is the settling's). */
static void run_fat_check(struct autostate *s)
{
	uint64_t before = s->d->bytes_written, settled = s->spent[SPENT_SETTLE];
	auto_run_find_fat(s);
	s->spent[SPENT_FAT] += s->d->bytes_written - before - (s->spent[SPENT_SETTLE] - settled);
}

static void forget_fat(struct autostate *s)
{
	for (int i = 0; i < s->nfat; i++)
		rate_result_free(&s->fat_runs[i]);
	if (s->have_fat)
		rate_result_free(&s->fat);
	s->nfat = 0;
	s->have_fat = false;
	memset(&s->fatest, 0, sizeof(s->fatest));
}

/*
 * What must be left past a write cache for the FAT check and the runs that
 * decide a count there (the calibration's measure of what a cache hides,
 * doc/card-facts.md: 12 erase blocks for the FAT area).
 */
#define PAST_CACHE_BLOCKS 12

/*
 * Writes in order look for the cache's end, leaving room to measure again
 * what was measured in it, or at least the FAT check and the deciding runs
 * past it: the look goes on as far as the budget allows that (a look cut
 * short at the first reserve left 14 of 120 of today's cards with the FAT
 * area measured inside a cache the budget could pass). Past it, the FAT
 * check and the linear search run again (the card's erase-block rules
 * apply from there on), as far as what is left allows.
 */
static void look_past_a_cache(struct autostate *s)
{
	uint64_t again = s->spent[SPENT_REFERENCE] + s->spent[SPENT_LINEAR] + s->spent[SPENT_SETTLE] +
			 s->spent[SPENT_FAT] + s->plan.est[SPENT_RANDOM];
	uint64_t least = PAST_CACHE_BLOCKS * s->erasesize;
	if (!auto_pass_cache(s, again < least ? again : least))
		return;
	remeasure(s);
}

/* Past a write cache: the reference, the FAT check and the linear search again. */
static void remeasure(struct autostate *s)
{
	s->dirty = true;
	s->dirty_why = "the write cache passed";
	auto_probe_reset(s);
	auto_probe_rows_init(s);
	auto_search_open_aus(s, false, 1);
	if (!s->cache_slow_rate)	/* the cache's end seen in the runs: the native rate is the reference's */
		s->cache_slow_rate = auto_best_rate(s, 1, false, s->probe.d[0]);
	forget_fat(s);
	run_fat_check(s);
	choose_open_offset(s);
	auto_search_open_aus(s, false, OPEN_AU_MAX_NR);
	recheck_bigger_erase(s);
}

/*
 * A write cache that ran out during the search (issue 27): linear writes
 * to one block no longer run as fast as the reference did. A run at N=1
 * after the search, and a second where it fell below COLLAPSE_RATIO at
 * both decision rows, tell: every run since may have been measured past a
 * cliff that is not an open-AU limit.
 */
static bool rate_fell(struct autostate *s)
{
	/* (behind a buffer larger than a run can fill, a check is timed through the work before it) */
	if (s->regime || s->stop || !s->erase.bytes || auto_buffer_blurs(s))
		return false;
	/* no pause between them: idle time folds a write cache back */
	bool pauses = s->no_pauses, fell = true;
	s->no_pauses = true;
	for (int k = 0; k < 2 && fell; k++) {
		const struct au_run *r = auto_measure_check(s, 1, false);
		fell = r && r->ratio[0] > 0 && r->ratio[0] < COLLAPSE_RATIO && r->ratio[1] < COLLAPSE_RATIO;
	}
	s->no_pauses = pauses;
	return fell;
}

/* The rate fell during the search: from there on the card writes at its native rate. */
static void measure_again_past_it(struct autostate *s)
{
	uint64_t before_first_slow = 0;
	for (int i = 0; i < s->nruns && !before_first_slow; i++)
		if (s->runs[i].verdict != RUN_HOLDS && !s->runs[i].reference)
			before_first_slow = s->runs[i].written_before;
	auto_note_cache_ended(s, before_first_slow);
	remeasure(s);
}

static void run_write_phase(struct autostate *s)
{
	choose_write_geometry(s);
	auto_progress_step(s, STEP_FAT);
	choose_open_offset(s);
	auto_make_plan(s);
	/* the card comes in whatever state its last use left it */
	s->dirty = true;
	s->dirty_why = "the card as it came";
	auto_measure_buffer(s);
	auto_search_open_aus(s, false, 1);	/* the linear reference, twice */
	run_fat_check(s);
	uint64_t fat_offset = s->open_offset;
	choose_open_offset(s);	/* past a FAT area (runs at another offset are not current) */
	if (s->open_offset != fat_offset)
		s->dirty = true;	/* the reference is measured again at the new place */

	auto_progress_step(s, STEP_OPEN);
	auto_search_open_aus(s, false, OPEN_AU_MAX_NR);
	recheck_bigger_erase(s);
	if (cache_suspected(s))
		look_past_a_cache(s);
	else if (rate_fell(s))
		measure_again_past_it(s);
	auto_estimate_open_aus(s, false, NULL, &s->lin);
	s->have_lin = true;

	/*
	 * Random mode cannot keep more erase blocks open than linear mode; on a
	 * card that shows no geometry, random writes to one block tell whether
	 * it has any translation effect at all, and no more is written.
	 */
	bool lin_exact = s->lin.n > 0 && !s->lin.at_least;
	bool no_geometry = !s->erase.bytes && s->lin.at_least;
	/*
	 * Every linear run went to a write cache the budget could not pass
	 * (auto_judge_determinable: "write-cache"): random runs go there too,
	 * and so did the FAT check, whose columns run alike in the cache (issue
	 * 27: "no FAT area", high, on cards with one). Random writes to one
	 * block only, and the FAT area unknown.
	 */
	bool cache_hides = auto_cache_takes_every_run(s);
	auto_progress_step(s, STEP_RANDOM);
	auto_search_open_aus(s, true, lin_exact ? s->lin.n : no_geometry || cache_hides ? 1 : OPEN_AU_MAX_NR);
	auto_estimate_open_aus(s, true, lin_exact ? &s->lin : NULL, &s->rnd);
	s->have_rnd = true;
	/*
	 * Collecting a small erase block is cheap (old 128..512 KiB NAND, a few
	 * page programs), so one block over the random limit may not show.
	 */
	if (s->erasesize <= SMALL_ERASE)
		auto_limit_conf(&s->rnd, CONF_LOW, "small erase blocks are collected cheaply: "
			   "one more random block may not show");
	if (s->map_unit) {
		char u[FMT_BUF];
		size_t len = strlen(s->rnd.evidence);
		fmt_append(s->rnd.evidence, sizeof(s->rnd.evidence),
			 "%srandom writes keep up with linear ones from %s up (a %s mapping unit); "
			 "counted with writes of that size", len ? "; " : "", fmt_size(u, s->map_unit), u);
	}
	note_no_room(s);
	s->no_effects = no_translation_effects(s);
	if (s->no_effects)
		say_no_effects(s);
	limit_by_host_noise(s);

	if (s->erase.conf < CONF_MEDIUM) {
		const char *why = "erase size itself uncertain";
		auto_limit_conf(&s->lin, s->erase.conf > CONF_LOW ? s->erase.conf : CONF_LOW, why);
		auto_limit_conf(&s->rnd, s->erase.conf > CONF_LOW ? s->erase.conf : CONF_LOW, why);
		if (s->fatest.conf > CONF_LOW)
			s->fatest.conf = CONF_LOW;
	}
	auto_judge_determinable(s);
	auto_judge_fat_behind_a_cache(s);
	auto_judge_fat_none_past_the_random_slots(s);
}

static void free_state(struct autostate *s)
{
	for (int i = 0; i < s->nalign; i++)
		align_result_free(&s->align_runs[i]);
	align_result_free(&s->align);
	for (int i = 0; i < s->nruns; i++)
		rate_result_free(&s->runs[i].r);
	for (int i = 0; i < s->nfat; i++)
		rate_result_free(&s->fat_runs[i]);
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
	auto_progress_begin(s);
	if (o->destructive) {
		auto_plan_budget(s);
		auto_run_capacity_first(s);
		s->spent[SPENT_CAPACITY] = d->bytes_written;
		auto_budget_after_capacity(s);
	}
	auto_progress_step(s, STEP_ALIGN);
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
	auto_progress_step(s, STEP_CLASS);
	if (o->destructive && !s->stop) {
		uint64_t before = d->bytes_written;
		s->max_write = s->plan.budget;	/* what the write phase left for it */
		auto_run_class(s);	/* after --capacity and the write phase, inside the real size */
		s->spent[SPENT_CLASS] += d->bytes_written - before;
	}
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
