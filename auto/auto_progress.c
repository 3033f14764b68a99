/*
 * --auto's progress line (lib/progress.h): its steps, "step N of M" with M
 * the steps that will run, and the plan of what is left, restated before
 * each measurement from what the run has learnt, so that the run ETA comes
 * from the work left and the rates measured so far:
 *   alignment  -a runs until two agree (one more while the erase size is
 *              unsure), each as many reads as the last one;
 *   FAT area   the linear reference and one --find-fat run, row by row;
 *   open-AU    the rest of the run under way (recorded as it starts, the
 *   searches   bracket counts it done), then the runs the search takes
 *              (plan_course, as auto_search_open_aus chooses them: on past
 *              the largest N that held until one collapses, bisecting, the
 *              replicas at the two N that decide) on a card that keeps the
 *              expected count open: the median of the population's counts
 *              the bracket still allows (expected_open; add_run: the rows
 *              each writes; a pause after each run that did not hold;
 *              settle passes count as pauses); runs are keyed by what that
 *              count makes of them (hold, collapse: rates tenfold apart and
 *              more; linear, random, the random reference) and, once
 *              judged, re-keyed by what they were (rekey_runs), the
 *              settling before the next run with them;
 *   class      the area written and restored, the random phases (4 s each
 *              at most).
 * The figures are estimates: the step's work is only known as it goes.
 */
#include <math.h>
#include <string.h>

#include "auto/auto_state.h"
#include "lib/progress.h"

#define MiB (1ull << 20)
#define PLAN_MAX 64
#define CLASS_AREA (64 * MiB)	/* as checks/class.c plans it */
#define CLASS_LINK (32 * MiB)
#define CLASS_PHASE_NS 4000000000ll
/* a random run that collapses, until one was measured: four times the time of one that holds */
#define RANDOM_COLLAPSE_FACTOR 4.0
/* the random reference, until measured and before the FAT run: twice the time of linear runs that hold */
#define RANDOM_REFERENCE_FACTOR 2.0

/*
 * The kinds of work whose rates differ beyond the kind and size of their
 * I/O: open-AU runs that hold and runs that collapse (tenfold), linear and
 * random; the FAT run (a page at a time into several blocks: on a slow card
 * a hundred times slower than a run that holds); the random reference (its
 * rows from the erase size down, each opening a fresh block: on slow cards
 * several times the time of a linear run that holds).
 */
enum {
	KEY_HOLDS = 1,
	KEY_COLLAPSES = PROGRESS_KEY_SLOW,
	KEY_RANDOM_HOLDS = 3,
	KEY_RANDOM_COLLAPSES = 4,
	KEY_FAT = 5,
	KEY_RANDOM_REFERENCE = 6,	/* random N=1: every row, each in a fresh block */
};

static const struct progress_step steps[AUTO_STEPS] = {
	[AUTO_STEP_CAPACITY] = { "capacity", 5, 2 },
	[AUTO_STEP_ALIGN] = { "alignment", 6, 3 },
	[AUTO_STEP_FAT] = { "FAT area", 30, 1 },
	[AUTO_STEP_OPEN] = { "open blocks", 40, 8 },
	[AUTO_STEP_RANDOM] = { "random writes", 19, 4 },
	[AUTO_STEP_CLASS] = { "speed class", 5, 4 },
};

static int current = AUTO_STEP_ALIGN;
static unsigned int class_expected;	/* what --class will check (class_claims_known) */

static bool class_planned(const struct autostate *s)
{
	return s->o->destructive && class_expected;
}

static bool simulated(const struct autostate *s)
{
	return dev_simulated(s->d);
}

struct plan {
	struct progress_work w[PLAN_MAX];
	int n;
};

static void add(struct plan *p, uint64_t bytes, uint64_t io, bool write, int64_t max_ns, int key)
{
	if (p->n < PLAN_MAX && bytes > 0)
		p->w[p->n++] = (struct progress_work){ bytes, (uint32_t)io, write, max_ns, key, 0 };
}

/* Item i of the plan follows the card left idle (auto_pause: after a collapse, a new search). */
static void pause_before(const struct autostate *s, struct plan *p, int i)
{
	if (i >= 0 && i < p->n && !s->no_pauses)
		p->w[i].pause_ns = AUTO_PAUSE_NS;
}

/* The searches' rows are known once the write phase has chosen them (auto_probe_rows_init). */
static bool probes_known(const struct autostate *s)
{
	return s->erasesize && s->probe.nref > 0 && s->probe.d[0];
}

/* -a: the reads of the last run (or of a first one on this device), for the runs still to come */
static void plan_alignment(const struct autostate *s, struct plan *p)
{
	int want = s->nalign < 2 ? 2 : s->erase.conf >= CONF_MEDIUM ? s->nalign : s->nalign + 1;
	uint64_t bytes = 0, bs = ALIGN_BLOCKSIZE;

	if (want > ALIGN_MAX_RUNS)
		want = ALIGN_MAX_RUNS;
	if (s->nalign > 0) {
		const struct align_result *r = &s->align_runs[s->nalign - 1];
		bs = r->blocksize;
		for (int i = 0; i < r->nrows; i++)
			bytes += 3ull * (uint64_t)r->rows[i].positions * (uint64_t)r->count * r->blocksize;
	} else {
		int rows = 0;	/* boundaries from twice the block size up, 3*2^n ones between */
		for (uint64_t b = 2 * bs; b < s->d->size / 7; b *= 2)
			rows += 2;
		bytes = (uint64_t)rows * 21 * (uint64_t)(s->p->count > 0 ? s->p->count : 8) * bs;
	}
	for (int k = s->nalign; k < want; k++)
		add(p, bytes, bs, false, 0, 0);
}

static uint64_t erase_size(const struct autostate *s)
{
	return s->erasesize ? s->erasesize : s->erase.bytes ? s->erase.bytes : FALLBACK_ERASE;
}

enum { ROWS_HOLD = 3, ROWS_COLLAPSE = 3, ROWS_REPLICA = 2 };

/* Each open-AU run's collapse is planned at this key. */
static int collapse_key(bool random)
{
	return random ? KEY_RANDOM_COLLAPSES : KEY_COLLAPSES;
}

/*
 * One open-AU run at N: rows of N erase blocks, in I/Os of the decision
 * rows' size. A first run writes its settling row and both decision rows
 * (one that collapses too: it stops early only where the collapse is clear
 * before its last row); a replica of a hold writes its settling row and the
 * smaller decision row only. after_collapse: the run before it did not
 * hold, and the card is left idle first (auto_pause).
 */
static void add_run(const struct autostate *s, struct plan *p, long long nr, bool random, bool holds,
		    int rows, bool after_collapse)
{
	uint64_t e = erase_size(s);
	/*
	 * What the run writes (auto_probe_bytes: a few chunks into each block,
	 * its opening row and decision rows); before the rows are chosen, about
	 * a sixth of each block, as they come out on 4MiB blocks.
	 */
	uint64_t full = probes_known(s) ? auto_probe_bytes(s, nr, random, false) : (uint64_t)nr * e / 6;
	int key = !holds ? collapse_key(random) : random ? KEY_RANDOM_HOLDS : KEY_HOLDS;

	if (random && nr == 1) {	/* the random reference, every row, each replica (auto_open.c) */
		if (probes_known(s))
			full = auto_probe_bytes(s, 1, true, true);
		key = KEY_RANDOM_REFERENCE;
		rows = ROWS_HOLD;
	}
	add(p, full * (uint64_t)rows / ROWS_HOLD, e >> (random ? RANDOM_ROW_SHIFT : LINEAR_ROW_SHIFT),
	    true, 0, key);
	if (after_collapse)	/* a run that did not hold leaves the card owing work (auto_open.c: dirty) */
		pause_before(s, p, p->n - 1);
}

/* A run is recorded as it starts (its verdict: holds) and judged after its rows. */
static bool judged(const struct au_run *r)
{
	return r->verdict != RUN_HOLDS || r->ratio[0] > 0 || r->ratio[1] > 0;
}

/* The open-AU run under way of a mode: recorded as it started, not judged yet; NULL if none. */
static const struct au_run *run_under_way(const struct autostate *s, bool random)
{
	const struct au_run *r = s->nruns > 0 ? &s->runs[s->nruns - 1] : NULL;

	return r && !judged(r) && r->random == random ? r : NULL;
}

/*
 * The rest of the search's run under way u: recorded as it started (the
 * bracket counts it as done), its rows still to come, at the rate of a run
 * that holds until it is judged.
 */
static void plan_under_way(const struct autostate *s, struct plan *p, const struct au_run *u)
{
	if (!probes_known(s))
		return;
	uint64_t full = auto_probe_bytes(s, u->nr, u->random, u->reference);
	uint64_t done = s->d->bytes_written - u->written_before;
	int key = u->random ? (u->reference ? KEY_RANDOM_REFERENCE : KEY_RANDOM_HOLDS) : KEY_HOLDS;
	if (done < full)
		add(p, full - done, erase_size(s) >> (u->random ? RANDOM_ROW_SHIFT : LINEAR_ROW_SHIFT), true,
		    0, key);
}

/* What a search knows: its bracket (auto_bracket) and the replicas at each N. */
struct search_state {
	long long hold, collapse;
	int reps[OPEN_AU_MAX_NR + 1];
};

static void search_now(const struct autostate *s, bool random, struct search_state *k)
{
	struct bracket b = auto_bracket(s, random);

	memset(k, 0, sizeof(*k));
	k->hold = b.hold;
	k->collapse = b.collapse;
	for (long long nr = 1; nr <= OPEN_AU_MAX_NR; nr++)
		k->reps[nr] = auto_replicas(s, nr, random);
}

/* As auto_open.c's search: one at a time up to 5, then growing by half. */
static long long next_larger(long long n)
{
	long long m = n + n / 2;
	return n < 5 || m <= n ? n + 1 : m;
}

/*
 * The search's next run from what it knows (auto_search_open_aus, the
 * replicas as two that agree): a replica at the N that decide, else the
 * next N up, else the middle of the bracket; 0: done.
 */
static long long next_run(const struct search_state *k, long long limit)
{
	if (k->collapse && k->collapse == k->hold + 1) {
		if (k->hold > 0 && k->reps[k->hold] < 2)
			return k->hold;
		return k->reps[k->collapse] < 2 ? k->collapse : 0;
	}
	if (!k->collapse && k->hold >= limit)
		return k->hold > 0 && k->reps[k->hold] < 2 ? k->hold : 0;
	long long nr = k->collapse ? (k->hold + k->collapse) / 2 :
		       next_larger(k->hold) < limit ? next_larger(k->hold) : limit;
	return nr > k->hold ? nr : 0;
}

/* A run at nr of a card that keeps `open` blocks open: what the search knows after it. */
static bool search_learns(struct search_state *k, long long nr, long long open)
{
	bool holds = nr <= open;

	if (nr >= 1 && nr <= OPEN_AU_MAX_NR)
		k->reps[nr]++;
	if (holds && nr > k->hold && (!k->collapse || nr < k->collapse))
		k->hold = nr;
	if (!holds && (!k->collapse || nr < k->collapse))
		k->collapse = nr;
	return holds;
}

/*
 * The runs the search still needs on a card that keeps `open` blocks open,
 * from what it knows (the run under way counted as done), added to p.
 */
static void plan_course(const struct autostate *s, struct plan *p, bool random, long long limit,
			struct search_state k, long long open)
{
	bool after_collapse = false;

	for (int guard = 0; guard < 3 * OPEN_AU_MAX_NR && p->n < PLAN_MAX; guard++) {
		long long nr = next_run(&k, limit);
		if (!nr)
			break;
		bool replica = k.reps[nr] > 0;
		bool holds = search_learns(&k, nr, open);
		add_run(s, p, nr, random, holds, !holds ? ROWS_COLLAPSE : replica ? ROWS_REPLICA : ROWS_HOLD,
			after_collapse);
		after_collapse = !holds;
	}
}

/*
 * How often cards keep N blocks open, N = 0..32 (32: 32 and more), for
 * writes in order (random: false) or out of order on a card that keeps
 * `linear` open in order (0: not known): the population the calibration
 * draws from doc/real-cards.tsv (bench/calibration.py; doc/card-facts.md,
 * "The ETA's open-block counts"). In order: its weights, that of each count
 * it names shared evenly with the counts between it and the one below; out
 * of order: none in 3 of 10 cards, as many as in order in 3, else any count
 * from 1 to that many alike.
 */
static double open_prior(long long n, bool random, long long linear)
{
	static const int named[][2] = { { 1, 12 }, { 2, 12 }, { 3, 14 }, { 4, 10 }, { 5, 8 }, { 6, 8 },
					{ 7, 6 }, { 8, 6 }, { 9, 4 }, { 11, 4 }, { 12, 3 }, { 16, 4 },
					{ 20, 3 }, { 24, 2 } };
	if (random && linear > 0) {
		if (n < 0 || n > linear)
			return 0;
		return (n == 0 ? 0.3 : 0) + (n == linear ? 0.3 : 0) + (n > 0 ? 0.4 / (double)linear : 0);
	}
	long long below = 0;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; below = named[i][0], i++)
		if (n > below && n <= named[i][0])
			return (double)named[i][1] / (double)(named[i][0] - below);
	return 0;
}

/*
 * The count the plan expects: the median of the population's counts that
 * the search still allows (from the largest N that held to the one below
 * the first collapse; a count past the limit shows as the limit), where
 * the plan is as likely to run long as short (the mean would weigh the
 * few cards of many open blocks, whose searches cost the most, on every
 * card); the largest N that held where the population has none left.
 */
static long long expected_open(const struct search_state *k, bool random, long long limit, long long linear)
{
	double weight[OPEN_AU_MAX_NR + 1], all = 0;
	long long lo = k->hold, hi = k->collapse ? k->collapse - 1 : limit;

	for (long long n = 0; n <= OPEN_AU_MAX_NR; n++) {
		double w = 0;
		for (long long m = n; m <= (n == limit ? OPEN_AU_MAX_NR : n); m++)
			w += open_prior(m, random, linear);
		weight[n] = n >= lo && n <= hi && n <= limit ? w : 0;
		all += weight[n];
	}
	double sum = 0;
	for (long long n = 0; n <= OPEN_AU_MAX_NR && all > 0; n++) {
		sum += weight[n];
		if (weight[n] > 0 && 2 * sum >= all)
			return n;
	}
	return lo;
}

/*
 * The runs a search still needs, from what it knows, on a card that keeps
 * the expected count open; limit: the largest N it may test. The rest of
 * the run under way first (now: the search is the current step).
 */
static void plan_search(const struct autostate *s, struct plan *p, bool random, long long limit, bool now)
{
	struct search_state k;
	const struct au_run *u = now ? run_under_way(s, random) : NULL;
	long long linear = random && s->have_lin && s->lin.n > 0 && !s->lin.at_least ? s->lin.n : 0;

	if (limit < 1)
		limit = 1;
	if (u)
		plan_under_way(s, p, u);
	search_now(s, random, &k);
	plan_course(s, p, random, limit, k, expected_open(&k, random, limit, linear));
}

/* The linear reference (twice) and one --find-fat run over the first erase blocks. */
static void plan_fat(const struct autostate *s, struct plan *p)
{
	uint64_t e = erase_size(s), page = s->page.bytes ? s->page.bytes : FALLBACK_PAGE;

	for (int k = auto_replicas(s, 1, false); k < 2; k++)
		add(p, probes_known(s) ? auto_probe_bytes(s, 1, false, true) : e / 2, e >> LINEAR_ROW_SHIFT,
		    true, 0, KEY_HOLDS);
	if (s->have_fat)	/* (nfat counts the run under way: have_fat, the first one done) */
		return;
	if (!probes_known(s) || !s->pagesize) {
		add(p, 2ull * (uint64_t)(s->p->fat_nr > 0 ? s->p->fat_nr : 6) * e, page, true, 0, KEY_FAT);
		return;
	}
	/*
	 * Row by row (auto_fat_planned: a page, then half a page, each row as
	 * many bytes), each in I/Os of its size: on a card that pays per write
	 * the smaller row takes twice as long.
	 */
	struct params fp = *s->p;
	fp.erasesize = s->erasesize;
	fp.first_blocksize = s->pagesize;
	fp.blocksize = s->pagesize / 2 >= s->d->lbs ? s->pagesize / 2 : s->pagesize;
	uint64_t first = s->erasesize;	/* as auto_open.c's fat_first_row */
	while (first / 2 >= fp.first_blocksize && first % 2 == 0)
		first /= 2;
	for (uint64_t b = first; b >= fp.blocksize && b > 0; b /= 2)
		add(p, auto_fat_row_bytes(s, &fp), b, true, 0, KEY_FAT);
}

/* The link's reads and the writes; saving and restoring (not on a simulated card); the random phases. */
static void plan_class(const struct autostate *s, struct plan *p)
{
	int copies = simulated(s) ? 1 : 2;

	if (s->cls)
		return;
	add(p, CLASS_LINK + (copies - 1) * CLASS_AREA, 4 * MiB, false, 0, 0);
	add(p, (uint64_t)copies * CLASS_AREA, 4 * MiB, true, 0, 0);
	for (int k = 0; k < (class_expected & CLASS_KNOWN_QUEUED ? 2 : 1); k++) {
		if (!(class_expected & CLASS_KNOWN_APP))
			break;
		add(p, 2048 * 4096, 4096, false, CLASS_PHASE_NS, 0);
		add(p, 2048 * 4096, 4096, true, CLASS_PHASE_NS, 0);
	}
}

static void plan_step(const struct autostate *s, struct plan *p, int step)
{
	bool lin_exact = s->have_lin && s->lin.n > 0 && !s->lin.at_least;

	switch (step) {
	case AUTO_STEP_ALIGN:
		plan_alignment(s, p);
		break;
	case AUTO_STEP_FAT:
		plan_fat(s, p);
		break;
	case AUTO_STEP_OPEN:
		plan_search(s, p, false, OPEN_AU_MAX_NR, step == current);
		break;
	case AUTO_STEP_RANDOM:
		plan_search(s, p, true, lin_exact ? s->lin.n : OPEN_AU_MAX_NR, step == current);
		break;
	case AUTO_STEP_CLASS:
		plan_class(s, p);
		break;
	default:
		break;
	}
}


/*
 * The plan restated from the state: this step's work from now on (the
 * capacity and class checks state their own), and the later steps'. The
 * key of this step's first item: that of the measurement about to start.
 */
static int seen_runs;	/* open-AU runs recorded when last looked */
static bool latest_rekeyed;	/* the latest of them was judged and its measurements rekeyed */

/* The key of what an open-AU run turned out to be. */
static int outcome_key(const struct au_run *r)
{
	bool collapsed = !r->reference && r->verdict == RUN_COLLAPSED;
	if (r->random && r->reference)
		return KEY_RANDOM_REFERENCE;
	return r->random ? (collapsed ? KEY_RANDOM_COLLAPSES : KEY_RANDOM_HOLDS)
			 : (collapsed ? KEY_COLLAPSES : KEY_HOLDS);
}

/*
 * The measurements of an open-AU run, keyed as the plan expected it (hold,
 * collapse), move to what it turned out to be once judged; the settling and
 * opening before the next run go with the one before (what a collapse
 * leaves owing). true: the latest run is judged (what comes until the next
 * is recorded is such settling).
 */
static bool rekey_runs(const struct autostate *s)
{
	if (s->nruns != seen_runs) {
		if (seen_runs > 0 && seen_runs <= s->nruns && !latest_rekeyed)
			progress_rekey_last(outcome_key(&s->runs[seen_runs - 1]));
		else
			progress_rekey_last(0);	/* the settling stays under the key it was measured with */
		seen_runs = s->nruns;
		latest_rekeyed = false;
	}
	if (s->nruns > 0 && !latest_rekeyed && judged(&s->runs[s->nruns - 1])) {
		progress_rekey_last(outcome_key(&s->runs[s->nruns - 1]));
		latest_rekeyed = true;
	}
	return s->nruns > 0 && latest_rekeyed;
}

/*
 * The random reference, until measured, against linear runs that hold: the
 * cube root of the FAT run's time per byte against theirs, at least 1 (a
 * card that pays for each out-of-order page write pays for the reference's
 * out-of-order chunks, each in a fresh block, too, less per byte:
 * doc/card-facts.md, "The ETA's random reference"); before the FAT run is
 * measured, RANDOM_REFERENCE_FACTOR.
 */
static double reference_factor(void)
{
	double fat = progress_key_ns_per_byte(KEY_FAT), holds = progress_key_ns_per_byte(KEY_HOLDS);

	if (!(fat > 0) || !(holds > 0))
		return RANDOM_REFERENCE_FACTOR;
	double f = cbrt(fat / holds);
	return f > 1 ? f : 1;
}

static int update(const struct autostate *s)
{
	struct plan now = { .n = 0 }, later = { .n = 0 };

	progress_key_like(KEY_RANDOM_REFERENCE, KEY_HOLDS, reference_factor());

	bool between_runs = rekey_runs(s);

	for (int step = current; step < AUTO_STEPS; step++) {
		if (!s->o->destructive && step != AUTO_STEP_ALIGN)
			continue;
		if (step == AUTO_STEP_CLASS && !class_planned(s))
			continue;
		if (step == current && (step == AUTO_STEP_CAPACITY || step == AUTO_STEP_CLASS))
			continue;
		struct plan *to = step == current ? &now : &later;
		int before = to->n;
		plan_step(s, to, step);
		/* a new search begins on a card the last one left owing work */
		if (step != current && step >= AUTO_STEP_OPEN && step <= AUTO_STEP_RANDOM)
			pause_before(s, to, before);
	}
	if (current != AUTO_STEP_CAPACITY && current != AUTO_STEP_CLASS)
		progress_step_plan(now.w, now.n);
	progress_run_plan(later.w, later.n);
	int key = now.n ? now.w[0].key : 0;
	/* every write of a search is keyed: its rows stay out of the rates of other writes */
	if (!key && (current == AUTO_STEP_OPEN || current == AUTO_STEP_RANDOM))
		key = current == AUTO_STEP_RANDOM ? KEY_RANDOM_HOLDS : KEY_HOLDS;
	/* the settling after a run: at the rate of what that run was */
	if (between_runs && key != KEY_FAT && key >= KEY_HOLDS && key <= PROGRESS_KEYS)
		key = outcome_key(&s->runs[s->nruns - 1]);
	return key;
}

void auto_progress_update(const struct autostate *s)
{
	update(s);
}

/* Before each measurement: what it and the rest will take, as the state now says. */
static int before_measurement(void *arg)
{
	return update(arg);
}

void auto_progress_begin(const struct autostate *s)
{
	class_expected = s->o->destructive ? class_claims_known(s->d, s->o->claim, "/sys") : 0;
	if (s->o->destructive) {
		progress_run_begin(steps, AUTO_STEPS);
		if (!class_planned(s))
			progress_run_skip(AUTO_STEP_CLASS);
		current = AUTO_STEP_CAPACITY;
	} else {	/* read-only: alignment is the only step */
		progress_run_begin(steps + AUTO_STEP_ALIGN, 1);
		current = AUTO_STEP_ALIGN;
	}
	/*
	 * until measured: random runs at the linear ones' rates, and so their
	 * collapses (linear collapses: ten times a hold's time, the default);
	 * the FAT run at the rates of its kind of I/O
	 */
	progress_key_like(KEY_RANDOM_HOLDS, KEY_HOLDS, 1);
	progress_key_like(KEY_RANDOM_COLLAPSES, KEY_RANDOM_HOLDS, RANDOM_COLLAPSE_FACTOR);
	progress_key_like(KEY_FAT, -1, 1);
	progress_key_like(KEY_RANDOM_REFERENCE, KEY_HOLDS, RANDOM_REFERENCE_FACTOR);
	seen_runs = s->nruns;
	latest_rekeyed = true;
	progress_on_start(before_measurement, (void *)s);
	auto_progress_update(s);
}

void auto_progress_step(const struct autostate *s, int step)
{
	if (step == AUTO_STEP_CLASS && s->o->destructive && !class_planned(s))
		return;	/* skipped from the start: the line stays on the step before */
	if (step == AUTO_STEP_ALIGN && s->o->destructive && s->have_cap && s->cap.not_run_max_write)
		progress_run_skip(AUTO_STEP_CAPACITY);	/* refused before any I/O: not a step that ran */
	current = step;
	rekey_runs(s);
	progress_rekey_last(0);	/* a step's work is its own */
	progress_run_step(s->o->destructive ? step : 0);
	auto_progress_update(s);
}
