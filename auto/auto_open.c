/*
 * --auto's open-AU searches (issue 20): how many erase blocks the card keeps
 * open for linear writes, and for random ones, probed alike at N = 1, 2, 3,
 * growing by half, then bisecting between the largest N that held and the
 * smallest that did not.
 *
 * Each run writes a settling row (it opens every block of the run, so
 * whatever an earlier run left open is evicted there, and closes them
 * again) and two decision rows, compared with the same rows of a reference
 * measured on the same card: linear writes to one erase block (measured
 * twice, which also gives the noise); random runs also with linear writes at
 * the same N and random writes to one block. A run that did not hold may
 * leave blocks open and work owed (cards postpone garbage collection), so
 * before the next run a settle pass writes a block of its own in order
 * until its writes run at a steady rate. The runs that decide a count (N
 * and N+1) are measured until at least two agree, up to MAX_REPLICAS.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "auto/auto_state.h"
#include "dev.h"
#include "measure/measure.h"
#include "lib/units.h"
#include "vm.h"

static int rows_between(uint64_t hi, uint64_t lo)
{
	int n = 1;
	while (hi > lo) {
		hi /= 2;
		n++;
	}
	return n;
}

static bool fits_cap(struct autostate *s, uint64_t bytes)
{
	if (s->d->bytes_written + bytes <= s->max_write)
		return true;
	s->cap_hit = true;
	return false;
}

/* ------------------------------------------------------------ settling */

/* Is off the first byte of an erase block some run of the search may write? */
static bool is_run_block(const struct autostate *s, uint64_t off)
{
	struct params op = *s->p;
	op.erasesize = s->erasesize;
	op.offset_set = true;
	op.offset = s->open_offset;
	for (long long nr = 1; nr <= OPEN_AU_MAX_NR; nr++) {
		op.open_au_nr = nr;
		uint64_t stride = (uint64_t)open_au_spacing(s->d, &op) * s->erasesize;
		if (off >= s->open_offset && (off - s->open_offset) % stride == 0 &&
		    (off - s->open_offset) / stride < (uint64_t)nr)
			return true;
	}
	return false;
}

/*
 * The settle passes write erase blocks of their own: midway between the
 * first blocks of the runs (far from the FAT area, never one a run writes),
 * else the last blocks of the card. 0 when there is none.
 */
uint64_t auto_settle_offset(const struct autostate *s, int k)
{
	const uint64_t e = s->erasesize;
	int found = 0;
	for (uint64_t off = s->open_offset + 6 * e; off + e <= s->d->size; off += 12 * e)
		if (!is_run_block(s, off) && found++ == k)
			return off;
	for (uint64_t off = s->d->size / e * e; off >= s->open_offset + e; off -= e)
		if (!is_run_block(s, off - e) && found++ == k)
			return off - e;
	return 0;
}

/* The time a settle write should take on a card that owes nothing: the reference's rate. */
static int64_t clean_time(const struct autostate *s, uint64_t chunk)
{
	double rate = auto_linear_rate(s, chunk);
	return rate > 0 ? (int64_t)(chunk * 1e9 / rate) : 0;
}

static void settle_failed(struct autostate *s, uint64_t off, uint64_t len, int err)
{
	struct run_status *st = &s->settle_st;
	if (!st->nfailures)
		st->first_failure = (struct vm_failure){ off, len, err, VM_WRITE_5A };
	st->nfailures++;
	st->partial = true;
	s->status = 1;
	s->stop = true;
}

/*
 * One erase block at off written from its start to its end, in order, in
 * chunks: closed on the card afterwards, whatever state it was in. Each
 * write's time goes to *times (n of them, up to max). false when the run
 * must stop (an I/O failed, or an interrupt).
 */
static bool write_block_in_order(struct autostate *s, void *buf, uint64_t chunk, uint64_t off,
				 int64_t *times, int *n, int max)
{
	for (uint64_t o = 0; o < s->erasesize; o += chunk) {
		int64_t ns;
		if (vm_stop_requested) {
			s->settle_st.interrupted = s->settle_st.partial = true;
			s->status = 130;
			s->stop = true;
			return false;
		}
		int rc = dev_write(s->d, buf, chunk, off + o, &ns);
		if (rc < 0) {
			settle_failed(s, off + o, chunk, -rc);
			return false;
		}
		s->settle_st.bytes_written += chunk;
		s->settle_st.device_ns += ns;
		s->write_ns += ns;
		if (*n < max)
			times[(*n)++] = ns;
	}
	return true;
}

static void *settle_buffer(uint64_t chunk)
{
	void *buf = dev_alloc_buffer(chunk);
	if (buf)
		dev_fill_pattern(buf, chunk, PAT_5A, 0);
	return buf;
}

/* Were the last 4 writes before the block's end (which also erases) steady? */
static bool steady(const int64_t *t, int n, int per_block, int64_t fastest, int64_t ref)
{
	int seen = 0;
	for (int i = n - 1; i >= 0 && seen < 4; i--) {
		if (i % per_block == per_block - 1)
			continue;	/* a block's last write commits it: it is slower */
		if (t[i] > SETTLE_QUIET * fastest || (ref && t[i] > SETTLE_QUIET * ref))
			return false;
		seen++;
	}
	return seen == 4;
}

/*
 * Writes erase blocks of its own in order, in chunks of the smallest
 * decision row, until the last writes run at a steady rate (within
 * SETTLE_QUIET of the fastest, and of the reference where there is one);
 * always whole blocks, so it leaves nothing open. Before the first run there
 * is no reference: it writes SETTLE_FIRST_BLOCKS.
 */
void auto_settle(struct autostate *s)
{
	struct rows_plan p;
	if (!s->dirty || s->stop || s->nsettles >= MAX_SETTLES)
		return;
	/*
	 * Small writes: work owed is paid a slice per write, so small ones pay
	 * it off with few bytes; E/32 and at least a page, in whole blocks.
	 */
	auto_plan_rows(s, true, false, &p);
	uint64_t chunk = p.d[p.nd - 1];
	if (s->map_unit && chunk >= s->map_unit) {
		struct rows_plan lin;
		auto_plan_rows(s, false, false, &lin);
		chunk = lin.d[lin.nd - 1];
	}
	const uint64_t e = s->erasesize;
	const int per_block = (int)(e / chunk);
	const int64_t ref = clean_time(s, chunk);
	void *buf = settle_buffer(chunk);
	int64_t *t = calloc((size_t)(SETTLE_BLOCKS * per_block), sizeof(*t));
	if (!buf || !t) {
		free(buf);
		free(t);
		return;
	}
	struct settle_pass *sp = &s->settles[s->nsettles++];
	memset(sp, 0, sizeof(*sp));
	sp->after = s->dirty_why;
	int64_t fastest = INT64_MAX;
	for (int k = 0; k < SETTLE_BLOCKS && !sp->quiet; k++) {
		uint64_t off = auto_settle_offset(s, k);
		int before = sp->writes;
		if (!off || !fits_cap(s, e) ||
		    !write_block_in_order(s, buf, chunk, off, t, &sp->writes, SETTLE_BLOCKS * per_block))
			break;
		sp->blocks++;
		sp->bytes += e;
		for (int i = before; i < sp->writes; i++)
			if (t[i] < fastest)
				fastest = t[i];
		sp->quiet = ref ? steady(t, sp->writes, per_block, fastest, ref)
				: sp->blocks >= SETTLE_FIRST_BLOCKS;
	}
	if (sp->writes) {
		sp->first_ns = t[0];
		sp->last_ns = t[sp->writes - 1];
		sp->fastest_ns = fastest;
	}
	sp->clean_ns = ref;
	free(buf);
	free(t);
	s->dirty = false;
}

/*
 * Bisecting down after a larger run: its blocks beyond this run's N may be
 * left open and partly written. Each is written to its end in order, one
 * after the other (never more open at once than the card keeps).
 */
static bool close_blocks_beyond(struct autostate *s, long long from, long long to, uint64_t chunk)
{
	struct params op = *s->p;
	op.erasesize = s->erasesize;
	op.offset_set = true;
	op.offset = s->open_offset;
	op.open_au_nr = to;
	uint64_t stride = (uint64_t)open_au_spacing(s->d, &op) * s->erasesize;
	void *buf = settle_buffer(chunk);
	int64_t t[1];
	int n = 0;
	bool ok = buf != NULL;
	for (long long j = from; j < to && ok; j++) {
		uint64_t off = s->open_offset + (uint64_t)j * stride;
		if (off + s->erasesize > s->d->size || !fits_cap(s, s->erasesize))
			break;
		ok = write_block_in_order(s, buf, chunk, off, t, &n, 0);
		s->settle_row_bytes += s->erasesize;
	}
	free(buf);
	return ok && !s->stop;
}

/* ------------------------------------------------------------ one run */

/* What the keep_going callback sees of a run in progress. */
static bool watch_row(const struct rate_row *row, void *arg)
{
	struct row_watch *w = arg;
	const struct autostate *s = w->s;

	if (w->nrows < MAX_ROWS)
		w->rows[w->nrows++] = *row;
	/* a collapse clear in the settling row and the first decision row: stop there */
	if (w->open_au && !w->reference && w->nrows == 2) {
		struct au_run look = { .nr = w->so_far.nr, .random = w->so_far.random,
				       .stopped_early = true };
		look.r = w->so_far;
		look.r.rows = w->rows;
		look.r.nrows = w->nrows;
		auto_judge_run(s, &look);
		if (look.verdict == RUN_COLLAPSED && look.ratio[0] < COLLAPSE_RATIO &&
		    look.ratio[1] <= CLEAR_COLLAPSE && w->last_row != row->blocksize) {
			w->stopped_early = true;
			return false;
		}
	}
	if (w->d->bytes_written + w->row_bytes > w->max_write) {
		w->cut_by_cap = true;
		return false;
	}
	return true;
}

/*
 * The settling row on its own: linear writes of `chunk` to `span` erase
 * blocks of the run's places (all of them open at once, so whatever was
 * left open elsewhere is evicted here; every one written to its end, in
 * order, so nothing of theirs stays open). Not a measurement: its bytes
 * and time are the settling's.
 */
static bool settle_row(struct autostate *s, long long span, uint64_t chunk, double *rate)
{
	struct params op = *s->p;
	struct rate_result r;
	char msg[256];

	op.erasesize = s->erasesize;
	op.first_blocksize = chunk;
	op.blocksize = chunk;
	op.open_au_nr = span;
	op.random = false;
	op.offset_set = true;
	op.offset = s->open_offset;
	if (open_au_check(s->d, &op, msg, sizeof(msg)) < 0)
		return false;
	int64_t before = s->d->device_ns;
	measure_open_au(s->d, &op, &r);
	s->write_ns += s->d->device_ns - before;
	s->settle_st.bytes_written += r.st.bytes_written;
	s->settle_st.device_ns += r.st.device_ns;
	s->settle_row_bytes += r.st.bytes_written;
	auto_note_status(s, &r.st);
	if (r.st.nfailures && !s->settle_st.nfailures)
		s->settle_st.first_failure = r.st.first_failure;
	s->settle_st.nfailures += r.st.nfailures;
	bool ok = r.nrows == 1 && !r.st.partial;
	*rate = ok && !r.rows[0].failed[0] ? r.rows[0].rate[0] : 0;
	rate_result_free(&r);
	return ok && !s->stop;
}

/*
 * A settling row slower than the reference's row of its size paid for what
 * was left open; a card that postpones collections may still owe some:
 * settle before the decision rows.
 */
static void settle_after_a_slow_row(struct autostate *s, uint64_t chunk, double rate)
{
	double ref = auto_best_rate(s, 1, false, chunk);
	if (ref <= 0)
		ref = auto_linear_rate(s, chunk);
	if (ref > 0 && rate < HOLD_RATIO * ref) {
		s->dirty = true;
		s->dirty_why = "a slow settling row";
		auto_settle(s);
	}
}

static struct au_run *measure_run(struct autostate *s, long long nr, bool random, bool reference,
				  bool last_row_only)
{
	struct params op = *s->p;
	struct rows_plan p;
	char msg[256];

	if (s->stop || s->nruns >= MAX_AU_RUNS)
		return NULL;
	auto_plan_rows(s, random, reference, &p);
	/*
	 * Runs settle with a row of linear writes of their own, not measured
	 * with the decision rows, so that a slow one (it paid for what was left
	 * open) can be followed by a settle pass; blocks of a larger run before
	 * are closed first (bisecting down). The reference has no row to judge
	 * its own by; random writes to one block on a card that was not dirty
	 * need none (a free slot is there).
	 */
	long long span = nr;
	bool separate = random ? nr > 1 || s->dirty : !reference;
	/* right after a run that held at the same N, the card is as a settling row leaves it */
	bool settled = !s->dirty && !reference && s->prev_nr == nr && s->prev_random == random &&
		       s->prev_held;
	if (settled)
		separate = false;
	op.erasesize = s->erasesize;
	/* the settling row: the plan's first row; a reference's rows all are measured, it goes before */
	uint64_t chunk = reference ? (2 * p.first <= s->erasesize ? 2 * p.first : s->erasesize) : p.first;
	op.first_blocksize = settled ? p.d[0] : separate && !reference ? p.first / 2 : p.first;
	if (last_row_only && !reference)
		op.first_blocksize = p.d[p.nd - 1];
	op.blocksize = p.d[p.nd - 1];
	op.open_au_nr = nr;
	op.random = random;
	op.offset_set = true;
	op.offset = s->open_offset;
	if (op.first_blocksize < op.blocksize || open_au_check(s->d, &op, msg, sizeof(msg)) < 0)
		return NULL;
	uint64_t row_bytes = (uint64_t)nr * s->erasesize;
	uint64_t settle = (s->dirty ? SETTLE_BLOCKS * s->erasesize : 0) +
			  (separate ? (uint64_t)span * s->erasesize : 0) +
			  (s->prev_nr > nr ? (uint64_t)(s->prev_nr - nr) * s->erasesize : 0);
	/* linear runs leave room for random writes to one block (its runs and a settle pass) */
	uint64_t reserve = random ? 0 : (uint64_t)RANDOM_RESERVE_BLOCKS * s->erasesize;
	if (!fits_cap(s, reserve + settle + row_bytes * (uint64_t)rows_between(op.first_blocksize,
									      op.blocksize)))
		return NULL;
	/*
	 * The order: the blocks of a larger run before closed, the settling
	 * row (it evicts what was left open, paying or owing for it), then the
	 * settle pass (it pays what is owed) when the card was dirty or the
	 * settling row ran slow; runs without a settling row settle first.
	 */
	int settle_index = s->dirty ? s->nsettles : -1;
	if (!separate)
		auto_settle(s);
	long long beyond = s->prev_nr > nr ? s->prev_nr - nr : 0;
	double row_rate = 0;
	if (s->stop || (beyond && !close_blocks_beyond(s, nr, s->prev_nr, p.d[p.nd - 1])) ||
	    (separate && !settle_row(s, span, chunk, &row_rate)))
		return NULL;
	if (separate) {
		int before = s->nsettles;
		if (s->dirty)
			auto_settle(s);
		else
			settle_after_a_slow_row(s, chunk, row_rate);
		settle_index = s->nsettles > before ? before : -1;
		if (s->stop)
			return NULL;
	}

	struct row_watch *w = auto_watch_begin(s, row_bytes);
	w->open_au = true;
	w->reference = reference || separate || settled;	/* no settling row to stop after */
	w->last_row = op.blocksize;
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
	run->reference = reference;
	run->last_row_only = last_row_only && !reference && p.nd == 2;
	run->settle = settle_index < s->nsettles ? settle_index : -1;
	run->settle_span = separate ? span : 0;
	run->closed_beyond = beyond;
	run->settle_chunk = separate ? chunk : p.first;
	int64_t before = s->d->device_ns;
	measure_open_au(s->d, &op, &run->r);
	s->write_ns += s->d->device_ns - before;
	s->prev_nr = nr;
	s->prev_random = random;
	run->stopped_early = w->stopped_early;
	run->cut_by_cap = w->cut_by_cap;
	auto_note_status(s, &run->r.st);
	auto_judge_run(s, run);
	if (run->cut_by_cap) {
		s->cap_hit = true;
		if (run->verdict == RUN_HOLDS)
			run->verdict = RUN_UNCLEAR;
	}
	s->prev_held = run->verdict == RUN_HOLDS && !run->stopped_early;
	if (run->verdict != RUN_HOLDS || run->stopped_early) {
		s->dirty = true;
		s->dirty_why = run->verdict == RUN_COLLAPSED ? "a collapsed run" : "an unclear run";
	}
	return run;
}

/* ------------------------------------------------------------ the search */

/* One at a time up to 5 (most cards keep 1..6 open), then growing by half. */
static long long next_larger(long long n)
{
	long long m = n + n / 2;
	return n < 5 || m <= n ? n + 1 : m;
}

/* Another replica at N is needed: fewer than two, or they do not agree yet. */
static bool needs_replica(const struct autostate *s, long long nr, bool random, bool collapse)
{
	int reps = auto_replicas(s, nr, random);
	if (nr < 1 || reps >= MAX_REPLICAS)
		return false;
	if (reps < 2 || auto_agreeing(s, nr, random) < 2 ||
	    auto_combined_verdict(s, nr, random, NULL) == RUN_UNCLEAR)
		return true;
	/* a collapse that one run did not show is measured once more (a hold may have been slowed) */
	return collapse && auto_opposite_replica(s, nr, random) && reps < 3;
}

/* The N whose replicas decide the count and are not settled yet; 0 when none. */
static long long replica_needed(const struct autostate *s, bool random, const struct bracket *b,
				long long limit)
{
	if (b->collapse && b->collapse == b->hold + 1) {
		if (needs_replica(s, b->hold, random, false))
			return b->hold;
		if (needs_replica(s, b->collapse, random, true))
			return b->collapse;
		return 0;
	}
	if (!b->collapse && b->hold >= limit && needs_replica(s, b->hold, random, false))
		return b->hold;
	return 0;
}

/* Random runs at N=1 are judged again once the mapping unit is known (their decision rows move). */
static void rejudge(struct autostate *s, bool random)
{
	for (int i = 0; i < s->nruns; i++)
		if (auto_current_run(s, &s->runs[i]) && s->runs[i].random == random)
			auto_judge_run(s, &s->runs[i]);
}

void auto_search_open_aus(struct autostate *s, bool random, long long limit)
{
	if (limit > OPEN_AU_MAX_NR)
		limit = OPEN_AU_MAX_NR;
	/*
	 * Linear N=1 at least twice: the reference, and its replicas give the
	 * noise; again while the two fastest differ by more than REFERENCE_AGREE.
	 */
	if (!auto_replicas(s, 1, random) && !measure_run(s, 1, random, true, false))
		return;
	/* random N=1 is measured again only where it decides the count (below) */
	while (!random && auto_replicas(s, 1, random) < MAX_REPLICAS && !s->stop) {
		struct rows_plan p;
		bool agree = auto_replicas(s, 1, random) >= 2;
		auto_plan_rows(s, random, false, &p);
		for (int k = 0; k < p.nd && agree; k++)
			agree = auto_spread(s, random, p.d[k]) <= REFERENCE_AGREE;
		if (agree || !measure_run(s, 1, random, false, false))
			break;
	}
	if (!auto_replicas(s, 1, random))
		return;
	if (random) {
		s->map_unit = auto_random_mapping_unit(s);
		rejudge(s, true);
	}
	for (int guard = 0; guard < MAX_AU_RUNS && !s->stop; guard++) {
		struct bracket b = auto_bracket(s, random);
		long long nr = replica_needed(s, random, &b, limit);
		bool replica = nr != 0;

		if (!nr) {
			if ((b.collapse && b.collapse == b.hold + 1) || (!b.collapse && b.hold >= limit))
				break;
			if (b.collapse)
				nr = (b.hold + b.collapse) / 2;
			else
				nr = next_larger(b.hold) < limit ? next_larger(b.hold) : limit;
			if (nr <= b.hold)
				break;
		}
		/*
		 * Random N=1 again with every row ("no random block" is checked
		 * against them all); a replica of a hold needs only the smallest
		 * decision row, where a collapse shows most (host noise only ever
		 * makes a hold look worse).
		 */
		bool last_row = replica && nr > 1 &&
				auto_combined_verdict(s, nr, random, NULL) == RUN_HOLDS;
		struct au_run *run = measure_run(s, nr, random, random && nr == 1, last_row);
		if (!run)
			break;
		/* an unclear run decides nothing: measure it once more right away */
		if (!replica && run->verdict == RUN_UNCLEAR && !run->cut_by_cap &&
		    !measure_run(s, nr, random, false, false))
			break;
		if (run->cut_by_cap)
			break;
	}
}
