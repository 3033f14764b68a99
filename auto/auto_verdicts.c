/*
 * --auto's verdicts from its --open-au runs (doc/card-facts.md, Writes):
 * every run is compared row by row with a reference measured on the same
 * card in the same session (linear writes to one erase block; in random
 * mode also linear writes to as many blocks, and random writes to one), at
 * the two decision rows; replicas of one N are combined by their best rate
 * per row (host noise only ever slows a row down), and the counts' confidence
 * follows from how the replicas of the deciding runs agree (issue 20).
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "measure/measure.h"
#include "lib/units.h"

#define DEFAULT_NOISE 0.05

static enum collapse reference_verdict(const struct autostate *s, const struct rate_result *r);

/* The smallest E/2^k, k <= shift, that is at least `lowest` and divides E in whole logical blocks. */
static uint64_t decision_row(uint64_t e, uint64_t lowest, int shift, unsigned int lbs)
{
	uint64_t b = e;
	for (int k = 0; k < shift && b % 2 == 0 && b / 2 >= lowest && (b / 2) % lbs == 0; k++)
		b /= 2;
	return b;
}

/* The smallest size a row writes: the page (as -a gives it, MAX_PAGE_HINT at most), a logical block. */
static uint64_t lowest_row(const struct autostate *s)
{
	uint64_t lowest = s->pagesize > MAX_PAGE_HINT ? MAX_PAGE_HINT : s->pagesize;
	return lowest < s->d->lbs ? s->d->lbs : lowest;
}

/*
 * The rows of an original --open-au line that repeats a run (the rerun
 * advice): linear runs decide at E/4 and E/8 (a collapse shows by E/4; at
 * E/2 one write in two collects a block, too weak a sign), random runs at
 * E/16 and E/32, where out-of-order writes into a block that cannot go
 * random are several per block, or from the mapping unit up.
 */
static void original_rows(const struct autostate *s, bool random, struct rows_plan *p)
{
	const uint64_t e = s->erasesize;
	uint64_t lowest = lowest_row(s);
	if (random && s->map_unit > lowest)
		lowest = s->map_unit;
	uint64_t d1 = decision_row(e, lowest, random ? RANDOM_ROW_SHIFT : LINEAR_ROW_SHIFT, s->d->lbs);

	memset(p, 0, sizeof(*p));
	if (random && d1 > e / 8 && d1 <= e / 4) {
		/* at E/2, two chunks a block, out-of-order writes are hardly out of order */
		p->nd = 1;
		p->d[0] = d1;
		p->first = 2 * d1;
	} else if (d1 >= e / 2 || d1 == e) {
		p->nd = 1;
		p->d[0] = d1;
		p->first = d1 < e ? e : d1;
	} else {
		p->nd = 2;
		p->d[0] = 2 * d1;
		p->d[1] = d1;
		p->first = 4 * d1 <= e ? 4 * d1 : e;
	}
}

/*
 * The probes' rows (issue 26): the linear reference measures every size
 * from PROBE_TOP_ROW (E/8 at most) down to the page, ref_rounds chunks each
 * into one block; the decision rows are two of them, d[0] = 2 * d[1],
 * chosen from the reference's noise (auto_choose_decision_rows); until
 * then the first guess is the smallest pair of 64 KiB or more.
 */
void auto_probe_rows_init(struct autostate *s)
{
	struct probe_state *ps = &s->probe;
	const uint64_t e = s->erasesize, lowest = lowest_row(s);
	uint64_t top = e;
	int k = 0;
	while (top % 2 == 0 && (top / 2) % s->d->lbs == 0 && top / 2 >= lowest &&
	       (k < 3 || top > PROBE_TOP_ROW)) {
		top /= 2;
		k++;
	}
	/* two rows at least, where the erase block has room for them (E/4 on small ones) */
	if (top / 2 < lowest && top * 2 <= e / 2)
		top *= 2;
	ps->nref = 0;
	for (uint64_t b = top; b >= lowest && ps->nref < MAX_ROWS; b /= 2) {
		ps->ref[ps->nref++] = b;
		if (b % 2 || (b / 2) % s->d->lbs)
			break;
	}
	uint64_t sum = 0;
	for (int i = 0; i < ps->nref; i++)
		sum += ps->ref[i];
	ps->chosen = false;
	int i = ps->nref - 1;
	while (i > 1 && ps->ref[i] < DECISION_MIN)
		i--;
	ps->d[1] = ps->ref[i];
	ps->d[0] = i > 0 ? ps->ref[i - 1] : ps->ref[i];
	/* the reference's rows and its opening writes (four of d[1]) in one erase block */
	uint64_t rounds = sum ? (e - 4 * ps->d[1]) / sum : 1;
	ps->ref_rounds = rounds > PROBE_RANDOM_ROUNDS ? PROBE_RANDOM_ROUNDS : rounds < 1 ? 1 : (int)rounds;
}

/*
 * The decision rows from the reference's replicas: the smallest pair
 * (d, 2d) whose two fastest replicas agree within REFERENCE_AGREE at both,
 * and where the transfer of d takes at least the write's latency (the fit
 * of the reference's rows), so that the collapse's signature, a time per
 * write that does not shrink with the chunk, stands out from a hold's
 * (doc/card-facts.md, Writes). true when such a pair was found; else the
 * pair with the least spread is taken, and false says another replica may
 * find one.
 */
bool auto_choose_decision_rows(struct autostate *s)
{
	struct probe_state *ps = &s->probe;
	double a = 0, k = 0;
	bool fit = auto_linear_fit(s, &a, &k);
	int best = -1;
	double best_spread = 2;
	for (int i = ps->nref - 1; i >= 1; i--) {
		/* rows of a few pages are mostly latency, through a buffer too: not below DECISION_MIN */
		if (ps->ref[i] < DECISION_MIN && ps->ref[i] < s->erasesize / 16 && i > 1)
			continue;
		double s1 = auto_spread(s, false, ps->ref[i]), s0 = auto_spread(s, false, ps->ref[i - 1]);
		if (s1 < 0 || s0 < 0)
			continue;
		double worst = s1 > s0 ? s1 : s0;
		bool signature = !fit || k * (double)ps->ref[i] >= 2 * a;
		if (worst <= REFERENCE_AGREE && signature) {
			ps->d[1] = ps->ref[i];
			ps->d[0] = ps->ref[i - 1];
			return true;
		}
		if (signature && worst < best_spread) {
			best_spread = worst;
			best = i;
		}
	}
	if (best < 0 && ps->nref >= 2)
		best = 1;
	if (best >= 1) {
		ps->d[1] = ps->ref[best];
		ps->d[0] = ps->ref[best - 1];
	}
	return false;
}

/*
 * The rows of a run: linear ones decide at d[0] and d[1] after opening
 * their blocks with writes of d[0]; random ones at the same rows (the
 * positions of a row are out of order whatever its chunk), or from the
 * mapping unit up, where smaller out-of-order writes rewrite the unit.
 */
void auto_plan_rows(const struct autostate *s, bool random, bool reference, struct rows_plan *p)
{
	const struct probe_state *ps = &s->probe;
	(void)reference;
	memset(p, 0, sizeof(*p));
	p->first = ps->d[0];
	if (random && s->map_unit > ps->d[1]) {
		uint64_t d1 = decision_row(s->erasesize, s->map_unit, RANDOM_ROW_SHIFT, s->d->lbs);
		/* two rows where the larger still has eight positions in a block */
		p->nd = d1 * 16 <= s->erasesize ? 2 : 1;
		p->d[0] = p->nd == 2 ? 2 * d1 : d1;
		p->d[1] = d1;
		return;
	}
	p->nd = ps->d[0] != ps->d[1] ? 2 : 1;
	p->d[0] = ps->d[0];
	p->d[1] = ps->d[1];
	/*
	 * Out-of-order writes collapse plainest at E/16 and E/32: there a block
	 * in no random slot takes several of them, and a collection is many
	 * writes' time (a 1 MiB card with 9 random slots ran N=10 at 0.77 of
	 * N=1 at 64 KiB, 0.31 at 16 KiB); at the linear rows (64 KiB at least)
	 * such a card held, at high confidence, up to its linear limit.
	 */
	uint64_t d1 = auto_random_decision_row(s);
	if (random && d1 < ps->d[1]) {
		p->nd = d1 * 2 <= s->erasesize / 4 ? 2 : 1;
		p->d[0] = p->nd == 2 ? 2 * d1 : d1;
		p->d[1] = d1;
	}
	/*
	 * On small erase blocks every row is whole blocks (auto/auto_open.c), so
	 * a second row doubles a run's bytes: the runs decide on the smaller
	 * row alone, the smallest the noise allows, where a collapse falls
	 * furthest; the rows' agreement is the replicas' (issue 26). Not behind
	 * a RAM buffer: there a row is timed through the work of the writes
	 * before it, and one row alone read a hold as a collapse (an eMMC of
	 * 512 KiB blocks behind a 2 MiB buffer: 7 open counted 6 at medium;
	 * the smaller row falling further, the signature, told them apart).
	 */
	if (auto_one_decision_row(s)) {
		p->d[0] = p->d[p->nd - 1];
		p->nd = 1;
	}
}

bool auto_one_decision_row(const struct autostate *s)
{
	return s->erasesize <= SMALL_ERASE && !s->buffer_bytes;
}

uint64_t auto_random_decision_row(const struct autostate *s)
{
	return decision_row(s->erasesize, lowest_row(s), RANDOM_ROW_SHIFT, s->d->lbs);
}

static bool run_counts(const struct autostate *s, const struct au_run *r, long long nr, bool random)
{
	return auto_current_run(s, r) && r->nr == nr && r->random == random;
}

double auto_best_rate(const struct autostate *s, long long nr, bool random, uint64_t blocksize)
{
	double best = 0;
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		if (!run_counts(s, r, nr, random))
			continue;
		double v = auto_rate_at(&r->r, blocksize);
		if (v > best)
			best = v;
	}
	return best;
}

int auto_replicas(const struct autostate *s, long long nr, bool random)
{
	int n = 0;
	for (int i = 0; i < s->nruns; i++)
		n += run_counts(s, &s->runs[i], nr, random);
	return n;
}

/*
 * The spread of the N=1 replicas of one mode at blocksize: between the two
 * fastest (a disturbed replica is only ever slower); < 0 with fewer than two.
 */
double auto_spread(const struct autostate *s, bool random, uint64_t blocksize)
{
	double first = 0, second = 0;
	int n = 0;
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		double v;
		if (!run_counts(s, r, 1, random) || !(v = auto_rate_at(&r->r, blocksize)))
			continue;
		if (v > first) {
			second = first;
			first = v;
		} else if (v > second) {
			second = v;
		}
		n++;
	}
	return n >= 2 && first > 0 ? (first - second) / first : -1;
}

/* Below the linear rows, the noise of random N=1 replicas, else of the smallest linear row. */
double auto_noise(const struct autostate *s, uint64_t blocksize)
{
	double v = auto_spread(s, false, blocksize);
	if (v < 0)
		v = auto_spread(s, true, blocksize);
	if (v < 0) {
		struct rows_plan p;
		auto_plan_rows(s, false, false, &p);
		v = auto_spread(s, false, p.d[p.nd - 1]);
	}
	return v < 0 ? DEFAULT_NOISE : v;
}

/*
 * Linear writes to one block: time per write as a latency a plus a
 * transfer k per byte, fitted to the reference's rows (least squares), so
 * rows it did not measure (random ones up to E/4) are compared with linear
 * writes of their size. false with fewer than two rows.
 */
bool auto_linear_fit(const struct autostate *s, double *a_out, double *k_out)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int n = 0;
	for (int i = 0; i < s->probe.nref; i++) {
		double r = auto_best_rate(s, 1, false, s->probe.ref[i]);
		if (!(r > 0))
			continue;
		double x = (double)s->probe.ref[i], y = x / r;
		sx += x, sy += y, sxx += x * x, sxy += x * y;
		n++;
	}
	if (n < 2 || sxx * n == sx * sx)
		return false;
	double k = (n * sxy - sx * sy) / (n * sxx - sx * sx), a = (sy - k * sx) / n;
	if (k <= 0)
		return false;
	*a_out = a < 0 ? 0 : a;
	*k_out = k;
	return true;
}

double auto_linear_rate(const struct autostate *s, uint64_t bs)
{
	double a, k;
	if (!auto_linear_fit(s, &a, &k))
		return 0;
	return (double)bs / (a + k * (double)bs);
}

/* The linear rate a random run at N is compared with: the linear run at N if it held, else N=1. */
static double linear_ref(const struct autostate *s, long long nr, uint64_t bs)
{
	double ref = auto_best_rate(s, 1, false, bs);
	if (!(ref > 0))
		return auto_linear_rate(s, bs);
	if (nr > 1 && auto_replicas(s, nr, false) &&
	    auto_combined_verdict(s, nr, false, NULL) == RUN_HOLDS) {
		double at_n = auto_best_rate(s, nr, false, bs);
		if (at_n > ref)
			ref = at_n;
	}
	return ref;
}

/*
 * rate[k] at the decision rows against the references: linear runs against
 * linear N=1; random N=1 against linear writes (no open block when random
 * writes run under RANDOM_SLOW of them); random N>1 against random N=1 as
 * well as linear writes at the same N.
 */
static enum collapse judge_rates(const struct autostate *s, long long nr, bool random,
				 const double *rate, const uint64_t *rows, int n, double *ratio)
{
	double noise[2] = { 0, 0 }, rlin[2] = { 0, 0 };
	int lin_slow = 0;

	for (int k = 0; k < n; k++) {
		noise[k] = auto_noise(s, rows[k]);
		ratio[k] = rlin[k] = 0;
		double lref = random ? linear_ref(s, nr, rows[k]) : auto_best_rate(s, 1, false, rows[k]);
		if (rate[k] > 0 && lref > 0)
			rlin[k] = rate[k] / lref;
		ratio[k] = rlin[k];
		if (random && rlin[k] > 0 && rlin[k] < RANDOM_SLOW && 1 - rlin[k] > NOISE_SIGMAS * noise[k])
			lin_slow++;
		if (random && nr > 1) {
			double rref = auto_best_rate(s, 1, true, rows[k]);
			ratio[k] = rate[k] > 0 && rref > 0 ? rate[k] / rref : 0;
		}
	}
	/*
	 * One decision row (auto_one_decision_row): a collapse is that row far
	 * below its reference, beyond the noise; the signature of two rows is
	 * the replicas' agreement at N and N+1 instead (deciding_conf).
	 */
	if (n == 1 && auto_one_decision_row(s) && (!random || nr > 1) && ratio[0] > 0 &&
	    ratio[0] < COLLAPSE_RATIO && 1 - ratio[0] > NOISE_SIGMAS * noise[0])
		return RUN_COLLAPSED;
	if (!random)
		return analyze_open_au_against(ratio, noise, n);
	/* all rows far slower than linear ones, the smaller further: no block open for random writes */
	if (n >= 2 && lin_slow == n && rlin[n - 1] <= STEP_COLLAPSE * rlin[n - 2])
		return RUN_COLLAPSED;
	if (nr == 1) {
		if (lin_slow)
			return RUN_UNCLEAR;
		for (int k = 0; k < n; k++)
			if (!(rlin[k] > 0))
				return RUN_UNCLEAR;
		return RUN_HOLDS;
	}
	enum collapse v = analyze_open_au_against(ratio, noise, n);
	return v == RUN_HOLDS && lin_slow ? RUN_UNCLEAR : v;
}

/*
 * The rows a verdict stands on: the decision rows, or for a run stopped
 * once clear, the settling row and the first decision row. Random writes to
 * one block are compared with linear ones at the linear decision rows, or
 * from the mapping unit up.
 */
static int verdict_rows(const struct autostate *s, const struct au_run *run, long long nr,
			bool random, uint64_t *rows)
{
	struct rows_plan p;
	(void)nr;
	auto_plan_rows(s, random, false, &p);
	if (run && run->last_row_only) {
		rows[0] = p.d[p.nd - 1];
		return 1;
	}
	if (run && run->stopped_early && p.nd == 2 && !auto_rate_at(&run->r, p.d[1])) {
		rows[0] = p.first;
		rows[1] = p.d[0];
		return 2;
	}
	for (int k = 0; k < p.nd; k++)
		rows[k] = p.d[k];
	return p.nd;
}

void auto_judge_run(const struct autostate *s, struct au_run *run)
{
	uint64_t rows[2];
	double rate[2] = { 0, 0 };

	if (run->reference && !run->random) {
		run->verdict = reference_verdict(s, &run->r);
		run->ratio[0] = run->ratio[1] = 1;
		return;
	}
	int n = verdict_rows(s, run, run->nr, run->random, rows);
	for (int k = 0; k < n; k++)
		rate[k] = auto_rate_at(&run->r, rows[k]);
	run->verdict = judge_rates(s, run->nr, run->random, rate, rows, n, run->ratio);
	for (int k = 0; k < n; k++)
		if (!(rate[k] > 0))
			run->verdict = RUN_UNCLEAR;
}

/* The reference at N=1, linear: its best rows judged by the signature of a collapse. */
static enum collapse combined_reference(const struct autostate *s)
{
	struct rate_row rows[MAX_ROWS];
	struct rate_result best = { 0 };
	const struct au_run *first = NULL;

	for (int i = 0; i < s->nruns; i++)
		if (run_counts(s, &s->runs[i], 1, false) && s->runs[i].reference) {
			first = &s->runs[i];
			break;
		}
	if (!first)
		return RUN_UNCLEAR;
	best = first->r;
	best.rows = rows;
	for (int i = 0; i < first->r.nrows && i < MAX_ROWS; i++) {
		rows[i] = first->r.rows[i];
		rows[i].rate[0] = auto_best_rate(s, 1, false, rows[i].blocksize);
		rows[i].failed[0] = !(rows[i].rate[0] > 0);
	}
	return reference_verdict(s, &best);
}

/*
 * The reference judged by the signature of a collapse on its rows from the
 * smaller decision row up: rows of a page or two are mostly the write's
 * latency, and their time per write hardly shrinks with the chunk, which
 * reads like a collapse where there is none.
 */
static enum collapse reference_verdict(const struct autostate *s, const struct rate_result *r)
{
	struct rate_result view = *r;
	int first = -1, last = -1;
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].blocksize >= s->probe.d[1]) {
			first = first < 0 ? i : first;
			last = i;
		}
	if (first < 0)
		return analyze_open_au_run(r, s->pagesize);
	/* three rows at least: the analysis reads a collapse from how the rows fall */
	while (last - first < 2 && last + 1 < r->nrows)
		last++;
	view.rows = r->rows + first;
	view.nrows = last - first + 1;
	return analyze_open_au_run(&view, s->pagesize);
}

enum collapse auto_combined_verdict(const struct autostate *s, long long nr, bool random,
				    double ratio[2])
{
	uint64_t rows[2];
	double rate[2] = { 0, 0 }, r[2] = { 0, 0 };

	if (!auto_replicas(s, nr, random))
		return RUN_UNCLEAR;
	if (nr == 1 && !random) {
		if (ratio)
			ratio[0] = ratio[1] = 1;
		return combined_reference(s);
	}
	/* runs stopped once clear have no last row: judge them on the rows they have */
	struct rows_plan p;
	const struct au_run *some = NULL;
	bool any_full = false;
	auto_plan_rows(s, random, false, &p);
	for (int i = 0; i < s->nruns; i++)
		if (run_counts(s, &s->runs[i], nr, random)) {
			some = &s->runs[i];
			any_full |= auto_rate_at(&some->r, p.d[p.nd - 1]) > 0;
		}
	int n = verdict_rows(s, any_full ? NULL : some, nr, random, rows);
	for (int k = 0; k < n; k++)
		rate[k] = auto_best_rate(s, nr, random, rows[k]);
	enum collapse v = judge_rates(s, nr, random, rate, rows, n, r);
	for (int k = 0; k < n; k++)
		if (!(rate[k] > 0))
			v = RUN_UNCLEAR;
	if (ratio) {
		ratio[0] = r[0];
		ratio[1] = n > 1 ? r[1] : r[0];
	}
	return v;
}

int auto_agreeing(const struct autostate *s, long long nr, bool random)
{
	enum collapse v = auto_combined_verdict(s, nr, random, NULL);
	int n = 0;
	for (int i = 0; i < s->nruns; i++)
		n += run_counts(s, &s->runs[i], nr, random) && s->runs[i].verdict == v;
	return n;
}

bool auto_opposite_replica(const struct autostate *s, long long nr, bool random)
{
	enum collapse v = auto_combined_verdict(s, nr, random, NULL);
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		if (run_counts(s, r, nr, random) && r->verdict != RUN_UNCLEAR && v != RUN_UNCLEAR &&
		    r->verdict != v)
			return true;
	}
	return false;
}

/* The erase size the runs use is the -a estimate at high confidence. */
static bool erase_size_sure(const struct autostate *s)
{
	return s->erasesize == s->erase.bytes && s->erase.conf >= CONF_HIGH;
}

/*
 * Linear writes to one block in chunks of bs: the best rate measured at bs or
 * any smaller chunk (a larger chunk is never slower: a latency plus a
 * transfer), so that one disturbed sample of a row measured once (E/2, in
 * the reference only) does not make random writes look as fast as linear ones.
 */
static double linear_envelope(const struct autostate *s, uint64_t bs)
{
	double best = 0;
	for (uint64_t b = bs; b >= s->d->lbs && b >= s->pagesize / 2; b /= 2) {
		double v = auto_best_rate(s, 1, false, b);
		best = v > best ? v : best;
		if (b % 2)
			break;
	}
	return best > 0 ? best : linear_ref(s, 1, bs);
}

/*
 * Cards random-capable only for large blocks (doc/card-facts.md, Writes; SU04G in seed
 * 000: random 512KiB at linear speed, 256KiB at a third): the smallest
 * size from which one random erase block keeps up with linear writes,
 * when smaller ones do not. 0 when it does not show.
 */
uint64_t auto_random_mapping_unit(const struct autostate *s)
{
	const struct au_run *rnd = NULL;

	for (int i = 0; i < s->nruns; i++)
		if (run_counts(s, &s->runs[i], 1, true) && s->runs[i].reference)
			rnd = &s->runs[i];
	if (!rnd || combined_reference(s) != RUN_HOLDS)
		return 0;
	/*
	 * A cliff: a row that keeps up (HOLD_RATIO; CLEAR_HOLD at E/2, where a
	 * card that cannot write out of order at all still runs at ~0.7: its
	 * second chunk costs one collection, and on erase blocks of SMALL_ERASE
	 * and less, whose random rows write the whole block in the original's
	 * order: there such a card's fixed cost per write, spread over a chunk
	 * of E/4, ran at 0.79-0.82 of linear writes on a 128 KiB eMMC with no
	 * random slot, read as a unit of E/4 or not by a few percent of noise,
	 * where a unit's own writes run at linear speed, SU04G's 512 KiB at
	 * 0.94; and at E/2 only on an erase size
	 * that is sure: at twice the card's, E/2 is a whole erase block, written
	 * in order) while every smaller row runs at MAP_UNIT_CLIFF of its rate
	 * or less (the unit is copied by every smaller write: a write of half
	 * the unit costs at least its own time and the unit's; one slow row
	 * among fast ones is a disturbance), and every
	 * larger row keeping up too. A card that cannot write out of order at all
	 * slows down gradually instead (a backward write into a block with few
	 * chunks left costs little): no mapping unit.
	 */
	double r[MAX_ROWS];
	uint64_t bs[MAX_ROWS];
	int n = 0;
	for (int i = rnd->r.nrows - 1; i >= 0 && n < MAX_ROWS; i--) {
		uint64_t b = rnd->r.rows[i].blocksize;
		double ref = linear_envelope(s, b), v = auto_best_rate(s, 1, true, b);
		if (b < s->pagesize || b >= s->erasesize || ref <= 0 || v <= 0)
			continue;
		bs[n] = b;
		r[n++] = v / ref;
	}
	for (int k = 1; k < n; k++) {
		bool below = true;
		for (int j = 0; j < k; j++)
			below &= r[j] <= MAP_UNIT_CLIFF * r[k];
		bool half = 2 * bs[k] >= s->erasesize;
		double keep_up = half || s->erasesize <= SMALL_ERASE ? CLEAR_HOLD : HOLD_RATIO;
		if (r[k] < keep_up || !below || (half && !erase_size_sure(s)))
			continue;
		for (int j = k + 1; j < n; j++)
			if (r[j] < HOLD_RATIO)
				return 0;
		return bs[k];
	}
	return 0;
}

struct bracket auto_bracket(const struct autostate *s, bool random)
{
	struct bracket b = { 0, 0, true };
	for (long long nr = 1; nr <= OPEN_AU_MAX_NR; nr++) {
		if (!auto_replicas(s, nr, random))
			continue;
		enum collapse v = auto_combined_verdict(s, nr, random, NULL);
		if (v == RUN_HOLDS && !b.collapse)
			b.hold = nr;
		else if (v == RUN_HOLDS)
			b.consistent = false;
		else if (!b.collapse)
			b.collapse = nr;
	}
	return b;
}

void auto_limit_conf(struct count_estimate *c, enum confidence cap, const char *why)
{
	if (c->conf > cap) {
		c->conf = cap;
		size_t len = strlen(c->evidence);
		fmt_append(c->evidence, sizeof(c->evidence), "%s%s", len ? "; " : "", why);
	}
}

/* "N=4 held in 2 of 2 runs (98%, 97% of the reference)" */
static void describe_point(char *ev, size_t n, const struct autostate *s, long long nr, bool random)
{
	double r[2];
	enum collapse v = auto_combined_verdict(s, nr, random, r);
	int reps = auto_replicas(s, nr, random), agree = auto_agreeing(s, nr, random);
	fmt_append(ev, n, "N=%lld %s in %d of %d run%s", nr,
		v == RUN_HOLDS ? "held" : v == RUN_COLLAPSED ? "collapsed" : "was unclear",
		agree, reps, reps == 1 ? "" : "s");
	if (r[0] > 0)
		fmt_append(ev, n, " (best rows at %.0f%%, %.0f%% of %s)", 100 * r[0], 100 * r[1],
			!random ? "one erase block" : nr == 1 ? "linear writes" : "random writes to one block");
}

/* No replica at N got to the last decision row (each stopped once its collapse was clear). */
static bool all_stopped_early(const struct autostate *s, long long nr, bool random)
{
	struct rows_plan p;
	auto_plan_rows(s, random, false, &p);
	for (int i = 0; i < s->nruns; i++)
		if (run_counts(s, &s->runs[i], nr, random) && auto_rate_at(&s->runs[i].r, p.d[p.nd - 1]))
			return false;
	return true;
}

/*
 * Did the best rows at N clear the margin for "high"? (A collapse judged
 * on the settling row and the first decision row needs the margin in the
 * decision row; the settling row, half the writes collecting, only under
 * COLLAPSE_RATIO.)
 */
static bool clear_margin(const struct autostate *s, long long nr, bool random, bool held)
{
	double r[2];
	enum collapse v = auto_combined_verdict(s, nr, random, r);
	if (nr == 1 && !random)
		return v == RUN_HOLDS;
	if (!held && all_stopped_early(s, nr, random))
		return r[0] < COLLAPSE_RATIO && r[1] <= CLEAR_COLLAPSE;
	for (int k = 0; k < 2; k++)
		if (held ? r[k] < CLEAR_HOLD : r[k] > CLEAR_COLLAPSE)
			return false;
	return true;
}

/*
 * A collapse stands when one of the replicas that show it started on a
 * card that owed nothing (its settle pass ended steady, or none was
 * needed): work left over from earlier runs only slows a run down.
 */
static bool settled_before(const struct autostate *s, long long nr, bool random)
{
	enum collapse v = auto_combined_verdict(s, nr, random, NULL);
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		if (run_counts(s, r, nr, random) && r->verdict == v &&
		    (r->settle < 0 || s->settles[r->settle].quiet))
			return true;
	}
	return false;
}

/* The confidence the agreement of the deciding runs earns. */
static enum confidence deciding_conf(const struct autostate *s, bool random, long long hold,
				     long long collapse, char *why, size_t n)
{
	long long pts[2] = { hold, collapse };
	enum confidence c = CONF_HIGH;

	for (int i = 0; i < 2; i++) {
		long long nr = pts[i];
		if (nr < 1)
			continue;
		bool held = i == 0;
		int reps = auto_replicas(s, nr, random), agree = auto_agreeing(s, nr, random);
		enum collapse v = auto_combined_verdict(s, nr, random, NULL);
		if (v == RUN_UNCLEAR || agree < 2) {
			snprintf(why, n, "the runs at N=%lld disagree or are unclear (%d of %d agree)", nr,
				 agree, reps);
			return CONF_LOW;
		}
		if (!held && !settled_before(s, nr, random)) {
			snprintf(why, n, "a run at N=%lld started while the card was still busy with "
				 "earlier writes", nr);
			return CONF_LOW;
		}
		if (!held && auto_opposite_replica(s, nr, random)) {
			snprintf(why, n, "a run at N=%lld held where the others collapsed", nr);
			return CONF_LOW;
		}
		if (held && auto_opposite_replica(s, nr, random))
			c = conf_min(c, CONF_MEDIUM);	/* one run slowed down: a disturbance */
		if (!clear_margin(s, nr, random, held))
			c = conf_min(c, CONF_MEDIUM);
	}
	return c;
}

/*
 * Random counts stand on rows with many chunks a block: with a mapping unit
 * of E/8 or more the decision rows have a few chunks each, and one random
 * block too many shows weakly (bench/calibration). And "no random block"
 * while random writes to one block kept up with linear ones at some size
 * of two chunks a block or more (at E/2 at CLEAR_HOLD: a card that cannot
 * write out of order at all runs it at ~0.7) may be a mapping unit that did
 * not show as one.
 */
static void limit_random_rows(const struct autostate *s, bool random, struct count_estimate *out,
			      char *why, size_t n)
{
	struct rows_plan p;
	if (!random)
		return;
	auto_plan_rows(s, true, false, &p);
	if (p.nd < 2 || p.d[p.nd - 1] > s->erasesize / 16) {
		out->conf = CONF_LOW;
		snprintf(why, n, "random writes counted with %d chunks a block only%s",
			 (int)(s->erasesize / p.d[p.nd - 1]), s->map_unit ? " (the mapping unit)" : "");
		return;
	}
	if (out->n || out->at_least)
		return;
	/*
	 * Only where random writes of half a block were measured too: a unit
	 * above every row measured slows them all alike (issue 27: a 512KiB unit
	 * on 1MiB blocks read as "0, high" from rows of E/4 and less).
	 */
	if (!(auto_best_rate(s, 1, true, s->erasesize / 2) > 0)) {
		out->conf = conf_min(out->conf, CONF_LOW);
		snprintf(why, n, "random writes of half an erase block not measured: a mapping unit "
			 "that large may hide");
		return;
	}
	for (uint64_t b = s->erasesize / 2; b >= p.d[p.nd - 1] && b >= s->d->lbs; b /= 2) {
		double r = auto_best_rate(s, 1, true, b), l = linear_envelope(s, b);
		double keep_up = 2 * b >= s->erasesize ? CLEAR_HOLD : HOLD_RATIO;
		if (r > 0 && l > 0 && r >= keep_up * l) {
			char sz[FMT_BUF];
			out->conf = conf_min(out->conf, CONF_LOW);
			snprintf(why, n, "random writes of %s kept up with linear ones: a mapping unit may hide",
				 fmt_size(sz, b));
			return;
		}
		if (b % 2)
			break;
	}
}

/*
 * The search stopped at an N whose every replica was unclear, none
 * collapsed (today's usb3-64g and sdxc-128g seed=2, 10, 75: N=2 unclear
 * in 3 of 3 runs at 7..47 % of one block, where the cards keep 3 and 5,
 * read as "1"): rows between a hold and a collapse are no collapse, and the
 * count is the hold's lower bound. Not where both decision rows sit at a
 * collapse's level, as collapsed runs do (tlc-32g seed=3054: N=2 unclear
 * at 2 %, 0 % on a card that keeps 1). Linear only: random runs at N=1
 * unclear are the usual evidence of no random slot (0 is right there).
 */
#define COLLAPSE_LEVEL 0.05	/* collapsed runs' best rows: 0..3 % of one block */

static bool only_unclear_above(const struct autostate *s, bool random, struct bracket b)
{
	double r[2] = { 0, 0 };
	if (random || !b.collapse || auto_combined_verdict(s, b.collapse, random, r) != RUN_UNCLEAR)
		return false;
	if (r[0] <= COLLAPSE_LEVEL && r[1] <= COLLAPSE_LEVEL)
		return false;	/* every decision row at a collapse's level */
	for (int i = 0; i < s->nruns; i++)
		if (run_counts(s, &s->runs[i], b.collapse, random) && s->runs[i].verdict != RUN_UNCLEAR)
			return false;
	for (long long nr = b.collapse + 1; nr <= OPEN_AU_MAX_NR; nr++)
		if (auto_replicas(s, nr, random))
			return false;	/* a larger N measured decides */
	return true;
}

/*
 * The count from the search's bracket: exact where N held and N+1 did not,
 * each measured at least twice with the replicas agreeing; anything less
 * is low confidence (issue 20, cause 4).
 */
static void count_from_runs(struct autostate *s, bool random, struct count_estimate *out)
{
	struct bracket b = auto_bracket(s, random);
	char why[160] = "";

	memset(out, 0, sizeof(*out));
	if (!b.hold && !b.collapse) {
		snprintf(out->evidence, sizeof(out->evidence), "no --open-au run could be judged");
		return;
	}
	out->n = (int)b.hold;
	out->at_least = !b.collapse || only_unclear_above(s, random, b);
	if (b.hold)
		describe_point(out->evidence, sizeof(out->evidence), s, b.hold, random);
	if (b.collapse) {
		fmt_append(out->evidence, sizeof(out->evidence), "%s", b.hold ? "; " : "");
		describe_point(out->evidence, sizeof(out->evidence), s, b.collapse, random);
	}
	if (out->at_least) {
		out->conf = CONF_LOW;
		return;
	}
	if (!random && b.collapse == 1) {
		out->conf = CONF_LOW;
		fmt_append(out->evidence, sizeof(out->evidence),
			"; a linear collapse at N=1 is not physical: the erase size may be larger, "
			"or the run was disturbed");
		return;
	}
	if (b.collapse != b.hold + 1) {
		out->conf = CONF_LOW;
		fmt_append(out->evidence, sizeof(out->evidence), "; N=%lld..%lld not measured",
			b.hold + 1, b.collapse - 1);
		return;
	}
	out->conf = deciding_conf(s, random, b.hold, b.collapse, why, sizeof(why));
	limit_random_rows(s, random, out, why, sizeof(why));
	if (!b.consistent) {
		out->conf = CONF_LOW;
		snprintf(why, sizeof(why), "a larger N held again");
	}
	if (why[0])
		fmt_append(out->evidence, sizeof(out->evidence), "; %s", why);
}

static void note_settles(const struct autostate *s, struct count_estimate *out)
{
	uint64_t bytes = 0;
	int quiet = 0;
	char b[FMT_BUF];
	for (int i = 0; i < s->nsettles; i++) {
		bytes += s->settles[i].bytes;
		quiet += s->settles[i].quiet;
	}
	if (s->nsettles)
		fmt_append(out->evidence, sizeof(out->evidence),
			"; each run after a collapse started from a settled card (%d settle pass%s, %s "
			"written in order in a block of its own, %d ending at a steady rate)",
			s->nsettles, s->nsettles == 1 ? "" : "es", fmt_size(b, bytes), quiet);
}

/*
 * At twice the card's erase size (a busy host lifts the -a row of twice the
 * erase block to the level, or sysfs gives an allocation unit of two), random
 * writes to one block fill two of the card's random slots while linear ones
 * use one at a time: the random count comes out half the card's, at most
 * half the linear count, and its runs agree on it (issue 27: 3 random slots
 * read as 1 at high confidence, the erase size twice the card's at medium).
 * On an erase size that is not sure, such a count is low.
 */
static void limit_random_by_unsure_erase(const struct autostate *s, bool random,
					 struct count_estimate *out)
{
	if (!random || erase_size_sure(s) || !s->have_lin || s->lin.at_least || out->at_least ||
	    2 * out->n > s->lin.n)
		return;
	auto_limit_conf(out, CONF_LOW, "the erase size is not sure: at twice the card's, random "
			"writes to one block fill two random slots and the count is half the card's");
}

/*
 * Behind a RAM buffer that blurs every row (auto_buffer_blurs) a count
 * that is not sure still stands where the runs show a limit's own
 * pattern (doc/card-facts.md, "A count behind a RAM buffer"): from the
 * first run above N that collapsed on, every run at N+1 collapsed, two at
 * least; no run at N ever collapsed, and one held. Work the buffer still
 * holds from earlier writes slows runs inside the limit (an unclear or
 * slow replica), it does not make runs past it hold; and a write cache's
 * end makes the hold at N collapse when it is measured again (today's
 * tlc-32g seed=12 and seed=87: 15 and 22 "held" where the cards keep 6
 * and 4, then collapsed), so that count stays not determinable.
 */
bool auto_count_stands_behind_buffer(const struct autostate *s, bool random,
				     const struct count_estimate *c)
{
	long long n = c->n;
	int first = -1, at_next = 0, held = 0;
	if (c->at_least || n < 1)
		return false;
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		if (!auto_current_run(s, r) || r->random != random)
			continue;
		if (r->nr == n && r->verdict == RUN_COLLAPSED)
			return false;
		held += r->nr == n && r->verdict == RUN_HOLDS;
		if (first < 0 && r->nr > n && r->verdict == RUN_COLLAPSED)
			first = i;
		if (first >= 0 && r->nr == n + 1) {
			if (r->verdict != RUN_COLLAPSED)
				return false;
			at_next++;
		}
	}
	return held && at_next >= 2;
}

/* Why a count behind a buffer that blurs every row is given, not "not determinable". */
static void note_count_behind_buffer(const struct autostate *s, bool random, struct count_estimate *out)
{
	if (!auto_buffer_blurs(s) || !auto_count_stands_behind_buffer(s, random, out))
		return;
	fmt_append(out->evidence, sizeof(out->evidence), "; behind the RAM buffer, N=%d collapsed in "
		   "every run from the first collapse on and N=%d never did: the limit, not the buffer's "
		   "leftover work", out->n + 1, out->n);
}

/*
 * The budget ran out before the first out-of-order run: the linear search
 * and its settle passes took it (today's tlc-32g seed=38 and seed=54 of the
 * calibration: 402 of 444 MiB and no random run; with twice the bytes
 * written as the budget both ran their random searches, 556 and 465 MiB in
 * all). Not determinable for that reason, with the --auto line of that
 * budget, rather than "unknown" bare. Linear runs fitting on the device
 * tell that a random run would have fitted too (else note_no_room's case).
 */
static void note_no_random_run(struct autostate *s, bool random, const struct count_estimate *out)
{
	struct bracket r = auto_bracket(s, true), l = auto_bracket(s, false);
	char b[FMT_BUF];
	if (!random || out->conf != CONF_NONE || !s->cap_hit || s->nd_rnd.reason || r.hold || r.collapse ||
	    !(l.hold || l.collapse))
		return;
	uint64_t want = (2 * s->d->bytes_written + (1ull << 20) - 1) >> 20 << 20;
	if (want > s->d->size)
		want = s->d->size / s->d->lbs * s->d->lbs;
	s->nd_rnd.reason = "budget";
	snprintf(s->nd_rnd.why, sizeof s->nd_rnd.why, "the write budget ran out before the first "
		 "out-of-order run: the runs in order and their settle passes took it (%s written)",
		 fmt_size(b, s->d->bytes_written));
	snprintf(s->nd_rnd.command, sizeof s->nd_rnd.command, "flashbench --auto --destructive "
		 "--max-write=%" PRIu64 "M %s", want >> 20, auto_device_name(s));
	s->nd_rnd.cost_bytes = want;
}

/*
 * bound: the exact linear count when known (random mode cannot keep more
 * erase blocks open), else NULL. A lower bound is not the count: "at least
 * N" never claims more than low confidence.
 */
void auto_estimate_open_aus(struct autostate *s, bool random, const struct count_estimate *bound,
			      struct count_estimate *out)
{
	count_from_runs(s, random, out);
	if (bound && out->at_least && out->n == bound->n) {
		char why[160] = "";
		struct rows_plan p;
		auto_plan_rows(s, random, false, &p);
		out->at_least = false;
		out->conf = conf_min(bound->conf, deciding_conf(s, true, out->n, 0, why, sizeof(why)));
		(void)p;
		limit_random_rows(s, random, out, why, sizeof(why));
		fmt_append(out->evidence, sizeof(out->evidence), "; no more than the linear limit%s%s",
			why[0] ? ": " : "", why);
	}
	if (out->at_least)
		auto_limit_conf(out, CONF_LOW, s->cap_hit ? "--max-write reached before a collapse"
						      : "no collapse up to the largest N tried");
	limit_random_by_unsure_erase(s, random, out);
	note_count_behind_buffer(s, random, out);
	note_settles(s, out);
	note_no_random_run(s, random, out);
}

bool auto_open_au_line_runs(const struct autostate *s, const struct params *cp)
{
	char why[256];
	if (open_au_check(s->d, cp, why, sizeof why) < 0)
		return false;
	/*
	 * On a fake the line runs against the advertised size, so its blocks lie
	 * further apart than the runs measured inside the real size: one past
	 * what the card stores would land on its data.
	 */
	uint64_t real = s->have_cap && s->cap.verdict != CAP_GENUINE ? s->cap.real_lo : s->d->size;
	struct span sp[OPEN_AU_NR_LIMIT];
	int ns = open_au_spans(s->d, cp, sp, OPEN_AU_NR_LIMIT);
	for (int i = 0; i < ns; i++)
		if (sp[i].off + sp[i].len > real)
			return false;
	return true;
}

bool auto_run_command(char *buf, size_t n, const struct autostate *s, long long nr, bool random)
{
	struct rows_plan p;
	char e[FMT_BUF], b[FMT_BUF];
	original_rows(s, random, &p);
	/* a line the tool would refuse is no advice: check it as the command line would be */
	struct params cp = *s->p;
	cp.erasesize = s->erasesize;
	cp.blocksize = p.d[p.nd - 1];
	cp.first_blocksize = 0;
	cp.open_au_nr = nr;
	cp.random = random;
	cp.offset_set = true;
	cp.offset = s->open_offset;
	if (!auto_open_au_line_runs(s, &cp))
		return false;
	snprintf(buf, n, "flashbench --open-au --erasesize=%s --blocksize=%s --open-au-nr=%lld "
		 "--offset=%" PRIu64 "%s %s", fmt_size(e, s->erasesize), fmt_size(b, p.d[p.nd - 1]), nr,
		 s->open_offset, random ? " --random" : "",
		 auto_device_name(s));
	return true;
}

uint64_t auto_run_command_cost(const struct autostate *s, long long nr, bool random)
{
	struct rows_plan p;
	original_rows(s, random, &p);
	uint64_t rows = 0;
	for (uint64_t b = s->erasesize; b >= p.d[p.nd - 1] && b > 0; b /= 2)
		rows++;
	return rows * (uint64_t)nr * s->erasesize;
}
