/*
 * --auto's progress line (lib/progress.h): its steps, "step N of M" with M
 * the steps that will run, and the plan of what is left, restated before
 * each measurement from what the run has learnt, so that the run ETA comes
 * from the work left and the rates measured so far:
 *   alignment  -a runs until two agree (one more while the erase size is
 *              unsure), each as many reads as the last one;
 *   FAT area   the linear reference and one --find-fat run, row by row;
 *   open-AU    the rest of the run under way (recorded as it starts, the
 *   searches   bracket counts it done), then from the search's bracket
 *              (auto_bracket): runs past the largest N that held until one
 *              collapses, then bisecting (collapsing one run in two), then
 *              the replicas at the two N that decide (add_run: the rows
 *              each writes; settle passes count as pauses); runs are keyed
 *              by what the bracket expects of them (hold, collapse: rates
 *              tenfold apart and more; linear, random, the random
 *              reference) and, once judged, re-keyed by what they were
 *              (rekey_runs), the settling before the next run with them;
 *   class      the area written and restored, the random phases (4 s each
 *              at most).
 * Before a search has a bracket it is planned as a card that keeps four
 * blocks open. The figures are estimates: the step's work is only known as
 * it goes.
 */
#include <string.h>

#include "auto/auto_state.h"
#include "lib/progress.h"

#define MiB (1ull << 20)
#define PLAN_MAX 64
#define EXPECTED_OPEN 4		/* a search without a bracket yet: most cards keep 1..6 open */
#define CLASS_AREA (64 * MiB)	/* as checks/class.c plans it */
#define CLASS_LINK (32 * MiB)
#define CLASS_PHASE_NS 4000000000ll
/* a random run that collapses, until one was measured: four times the time of one that holds */
#define RANDOM_COLLAPSE_FACTOR 4.0
/* the random reference, until measured: twice the time of linear runs that hold */
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

/*
 * One open-AU run at N: rows of N erase blocks, in I/Os of the decision
 * rows' size. A first run writes its settling row and both decision rows
 * (one that collapses too: it stops early only where the collapse is clear
 * before its last row); a replica of a hold writes its settling row and the
 * smaller decision row only.
 */
static void add_run(const struct autostate *s, struct plan *p, long long nr, bool random, int key,
		    int rows)
{
	uint64_t e = erase_size(s);
	/*
	 * What the run writes (auto_probe_bytes: a few chunks into each block,
	 * its opening row and decision rows); before the rows are chosen, about
	 * a sixth of each block, as they come out on 4MiB blocks.
	 */
	uint64_t full = probes_known(s) ? auto_probe_bytes(s, nr, random, false) : (uint64_t)nr * e / 6;
	bool after_collapse = p->n > 0 && p->w[p->n - 1].key == KEY_COLLAPSES;

	if (random && nr == 1) {	/* the random reference, every row, each replica (auto_open.c) */
		if (probes_known(s))
			full = auto_probe_bytes(s, 1, true, true);
		key = KEY_RANDOM_REFERENCE;
		rows = ROWS_HOLD;
	}

	add(p, full * (uint64_t)rows / ROWS_HOLD, e >> (random ? RANDOM_ROW_SHIFT : LINEAR_ROW_SHIFT),
	    true, 0, random && key != KEY_RANDOM_REFERENCE ? (key == KEY_HOLDS ? KEY_RANDOM_HOLDS : KEY_RANDOM_COLLAPSES) : key);
	if (after_collapse)	/* a collapse leaves the card owing work: a pause before the next run */
		pause_before(s, p, p->n - 1);
}

/* A run is recorded as it starts (its verdict: holds) and judged after its rows. */
static bool judged(const struct au_run *r)
{
	return r->verdict != RUN_HOLDS || r->ratio[0] > 0 || r->ratio[1] > 0;
}

/*
 * The rest of the search's run under way: recorded as it started, the
 * bracket counts it as done (holding), its rows still to come are not.
 */
static void plan_under_way(const struct autostate *s, struct plan *p, bool random)
{
	const struct au_run *r = s->nruns > 0 ? &s->runs[s->nruns - 1] : NULL;

	if (!r || judged(r) || r->random != random || !probes_known(s))
		return;
	uint64_t full = auto_probe_bytes(s, r->nr, random, r->reference);
	uint64_t done = s->d->bytes_written - r->written_before;
	int key = random ? (r->reference ? KEY_RANDOM_REFERENCE : KEY_RANDOM_HOLDS) : KEY_HOLDS;
	if (done < full)
		add(p, full - done, erase_size(s) >> (random ? RANDOM_ROW_SHIFT : LINEAR_ROW_SHIFT), true, 0,
		    key);
}

/* The runs a search still needs, from its bracket; limit: the largest N it may test. */
static void plan_search(const struct autostate *s, struct plan *p, bool random, long long limit)
{
	struct bracket b = auto_bracket(s, random);
	long long hold = b.hold, collapse = b.collapse;
	int hold_runs = hold > 0 ? auto_replicas(s, hold, random) : 0;
	int collapse_runs = collapse ? auto_replicas(s, collapse, random) : 0;

	if (limit < 1)
		limit = 1;
	if (!collapse) {
		/*
		 * Not collapsed yet: on as the search goes (one at a time up to 5,
		 * then by half) to twice the largest N that held, at least one
		 * past the usual count, where it is planned to collapse; then
		 * bisecting down to the limit.
		 */
		long long to = 2 * hold > EXPECTED_OPEN + 1 ? 2 * hold : EXPECTED_OPEN + 1, nr = hold;
		while (nr < to && nr < limit) {
			nr = nr < 5 ? nr + 1 : nr + nr / 2;
			nr = nr > limit ? limit : nr;
			bool last = nr >= to || nr >= limit;
			add_run(s, p, nr, random, last ? KEY_COLLAPSES : KEY_HOLDS,
				last ? ROWS_COLLAPSE : ROWS_HOLD);
			if (!last)
				hold = nr;
		}
		collapse = nr > hold ? nr : 0;
		hold_runs = collapse_runs = 1;
	}
	/*
	 * bisecting: each run as likely to hold as to collapse, planned the
	 * one and the other in turn (a collapse costs ten times a hold); the
	 * replicas then at the two N it ends on
	 */
	for (long long lo = hold, hi = collapse, k = 0; collapse && hi - lo > 1; k++) {
		long long mid = lo + (hi - lo) / 2;
		bool collapses = k % 2 == 0;
		add_run(s, p, mid, random, collapses ? KEY_COLLAPSES : KEY_HOLDS, ROWS_HOLD);
		if (collapses) {
			hi = collapse = mid;
			collapse_runs = 1;
		} else {
			lo = hold = mid;
			hold_runs = 1;
		}
	}
	/* the replicas at the two N that decide: two runs each */
	for (int k = hold_runs; hold > 0 && k < 2; k++)
		add_run(s, p, hold, random, KEY_HOLDS, ROWS_REPLICA);
	for (int k = collapse_runs; collapse && k < 2; k++)
		add_run(s, p, collapse, random, KEY_COLLAPSES, ROWS_COLLAPSE);
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
		if (step == current)
			plan_under_way(s, p, false);
		plan_search(s, p, false, OPEN_AU_MAX_NR);
		break;
	case AUTO_STEP_RANDOM:
		if (step == current)
			plan_under_way(s, p, true);
		plan_search(s, p, true, lin_exact ? s->lin.n : OPEN_AU_MAX_NR);
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

static int update(const struct autostate *s)
{
	struct plan now = { .n = 0 }, later = { .n = 0 };

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
