/*
 * --auto and the write path of cards as they are made today (issue 27;
 * doc/card-facts.md, "Cards as they are made today"): the pause before a
 * write test, a RAM buffer that takes the first writes after a pause at
 * bus speed, a pseudo-SLC cache that takes the first writes after idle at
 * a rate the card cannot keep up.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "measure/measure.h"

#include "auto/auto_state.h"
#include "dev.h"
#include "vm.h"

/* ------------------------------------------------------------ RAM buffer */

#define BUFFER_CHUNK (64u << 10)	/* the writes that look for it */
#define BUFFER_MAX (8u << 20)		/* larger buffers are not looked for */
#define BUFFER_FAST 0.65		/* a write this much faster than the steady ones went to it */
#define BUFFER_STEADY 0.15		/* the medians of the last two windows this close: steady */
#define BUFFER_TAIL 8
#define BUFFER_DRAIN_WRITES 16	/* the fast writes the short idle after a look lets in, at most */
#define BUFFER_DRAIN_LEAST 4	/* ... at least (a buffer under twice this: no such look) */
#define BUFFER_LOOK_BLOCKS 16	/* erase blocks a look writes at most */
#define BUFFER_OLD_ERASE (256u << 10)	/* ... half as many on blocks this small */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median of the k writes ending at end (exclusive). */
static int64_t window_median(const int64_t *t, int end, int k)
{
	int64_t v[BUFFER_TAIL];
	for (int i = 0; i < k; i++)
		v[i] = t[end - k + i];
	qsort(v, (size_t)k, sizeof(*v), cmp_i64);
	return v[k / 2];
}

/*
 * The writes run steady: the medians of the last two windows agree (a
 * window's median ignores the slower first write into each erase block).
 */
static bool steady_tail(const int64_t *t, int n)
{
	if (n < 2 * BUFFER_TAIL)
		return false;
	double last = (double)window_median(t, n, BUFFER_TAIL), prev = (double)window_median(t, n - BUFFER_TAIL, BUFFER_TAIL);
	return last <= (1 + BUFFER_STEADY) * prev && prev <= (1 + BUFFER_STEADY) * last;
}

/* The first of BUFFER_TAIL writes in a row from `from` on, all slow (or all fast); -1: none. */
static int tail_from(const int64_t *t, int from, int n, int64_t steady, bool slow)
{
	for (int i = from; i + BUFFER_TAIL <= n; i++) {
		int alike = 0;
		for (int k = i; k < i + BUFFER_TAIL; k++)
			alike += (t[k] > BUFFER_FAST * (double)steady) == slow;
		if (alike == BUFFER_TAIL)
			return i;
	}
	return -1;
}

/* Where the writes stopped going to a buffer: the first of BUFFER_TAIL slow ones in a row; 0: none. */
static int buffer_end(const int64_t *t, int n, int64_t steady)
{
	int end = tail_from(t, 0, n, steady, true);
	return end > 0 ? end : 0;
}

/*
 * The bytes a buffer took, from the times of writes in order after a pause
 * (0: none). A buffer fills only while the card is idle (doc/card-facts.md,
 * "Cards as they are made today"): past its end the writes run at the
 * card's rate until the next pause. Fast writes that come back without a
 * pause, BUFFER_TAIL in a row, are the place's: a card that pays for each
 * erase block it opens with the writes after it (a collection postponed
 * and paid a slice per write) runs slow after each move to a fresh block
 * and fast in the rest of it, a stretch as long as a block that ends where
 * a block does (two cards of 2MiB blocks and no buffer read as "~2MiB").
 */
uint64_t auto_buffer_from_writes(const int64_t *t, int n, uint64_t chunk, double *fast_rate, double *slow_rate)
{
	if (n < 2 * BUFFER_TAIL || !steady_tail(t, n))
		return 0;
	int64_t steady = window_median(t, n, BUFFER_TAIL), sum = 0;
	int end = buffer_end(t, n, steady), fast = 0;
	for (int i = 0; i < end; i++)
		if (t[i] <= BUFFER_FAST * (double)steady) {
			fast++;
			sum += t[i];
		}
	if (end < 2 || 4 * fast < 3 * end || tail_from(t, end, n, steady, false) >= 0)
		return 0;
	*fast_rate = (double)chunk * fast * 1e9 / (double)sum;
	*slow_rate = (double)chunk * 1e9 / (double)steady;
	return (uint64_t)end * chunk;
}

/*
 * Writes of chunk in order (timed into t from its n-th), up to max or until
 * they run steady past a buffer's end; how many are in t.
 */
static int buffer_writes(struct autostate *s, uint64_t chunk, int n, int max, int64_t *t)
{
	while (n < max && !s->stop) {
		struct probe_row pr = { .chunk = chunk, .rounds = 1 };
		struct rate_row row;
		if (!auto_probe_row(s, 1, &pr, true, &row, &s->settle_st))
			break;
		t[n++] = row.ns[0];
		/*
		 * Steady past the end of a buffer: done. Steady from the start is no
		 * answer (a buffer not yet full runs steady too): on to the most.
		 */
		if (steady_tail(t, n)) {
			int end = buffer_end(t, n, window_median(t, n, BUFFER_TAIL));
			if (end && end + 2 * BUFFER_TAIL <= n)
				break;
		}
	}
	return n;
}

/*
 * One look for a buffer: a pause, then writes of chunk in order, up to
 * `most` bytes; the bytes that went fast (0: none), their rate, the rate
 * after them.
 */
static uint64_t look_for_buffer(struct autostate *s, uint64_t chunk, uint64_t most, double *fast_rate,
				double *slow_rate)
{
	int max = (int)(most / chunk);
	int64_t *t = calloc((size_t)(max > 0 ? max : 1), sizeof(*t));
	if (!t)
		return 0;
	auto_pause(s);
	int n = buffer_writes(s, chunk, 0, max, t);
	uint64_t found = auto_buffer_from_writes(t, n, chunk, fast_rate, slow_rate);
	free(t);
	return found;
}

/*
 * Do `took` fast writes after an idle of idle_ns fit a buffer's drain, when
 * it was full and the writes ran at slow_ns each behind it (fast_ns: into
 * it)? A buffer drains while the card is idle, at the rate it drained while
 * the host wrote (doc/card-facts.md, "A RAM write buffer"), a write's worth
 * every slow_ns, and while it fills again it drains fast_ns / slow_ns of
 * each write: idle_ns / (slow_ns - fast_ns) writes, within a factor of two
 * (the card's own work behind the buffer varies from write to write).
 */
bool auto_drain_agrees(int took, double idle_ns, double fast_ns, double slow_ns)
{
	if (took <= 0 || slow_ns <= fast_ns)
		return false;
	double expect = idle_ns / (slow_ns - fast_ns);
	return 2 * took >= expect && took <= 2 * expect;
}

/* Did a write of the first `by` run slower than the look's into a buffer (BUFFER_FAST)? */
static bool slowed_by(const int64_t *t, int n, int by, double fast_ns)
{
	for (int i = 0; i < n && i < by; i++)
		if (BUFFER_FAST * (double)t[i] > fast_ns)
			return true;
	return false;
}

/* An idle of ns, shorter than a pause (counted in pause_ns, not in pauses). */
static void short_idle(struct autostate *s, double ns)
{
	if (dev_idle(s->d, (uint64_t)ns) < 0) {
		s->settle_st.interrupted = s->settle_st.partial = true;
		s->status = 130;
		s->stop = true;
		return;
	}
	s->pause_ns += (int64_t)ns;
}

/*
 * A buffer told by its drain (issue 27): right after a look that filled
 * it, a short idle that drains a part of it, then the same writes again.
 * A buffer takes as many fast writes as that idle drained
 * (auto_drain_agrees, BUFFER_DRAIN_WRITES of them, at most half of what
 * the look found), within a factor of two, and runs slow again after them;
 * writes that a busy host slowed run fast after it whatever the idle, and
 * a card without a buffer does not change.
 */
static bool drain_confirms(struct autostate *s, uint64_t chunk, uint64_t found, double fast_rate,
			   double slow_rate)
{
	int want = (int)(found / chunk / 2);
	if (want > BUFFER_DRAIN_WRITES)
		want = BUFFER_DRAIN_WRITES;
	if (want < BUFFER_DRAIN_LEAST || fast_rate <= slow_rate || s->stop)
		return false;
	double fast_ns = (double)chunk * 1e9 / fast_rate, slow_ns = (double)chunk * 1e9 / slow_rate;
	double idle = want * (slow_ns - fast_ns);
	int max = 4 * want + 2 * BUFFER_TAIL;
	int64_t *t = calloc((size_t)max, sizeof(*t));
	if (!t)
		return false;
	short_idle(s, idle);
	/*
	 * None slower than into the buffer by twice the writes expected and
	 * BUFFER_TAIL: no buffer filled again (writes a busy host slowed in
	 * the look run on fast). Slower ones: the rest, for the card's rate
	 * behind the buffer to settle.
	 */
	int n = buffer_writes(s, chunk, 0, 2 * want + BUFFER_TAIL, t);
	if (slowed_by(t, n, 2 * want + BUFFER_TAIL, fast_ns))
		n = buffer_writes(s, chunk, n, max, t);
	double f = 0, sl = 0;
	int took = (int)(auto_buffer_from_writes(t, n, chunk, &f, &sl) / chunk);
	free(t);
	return auto_drain_agrees(took, idle, fast_ns, slow_ns);
}

/*
 * A RAM buffer (issue 27): after a pause, writes complete at bus speed
 * while the buffer has room, then at the rate the card drains it. Writes in
 * order into the searches' first block after a pause show it: the first
 * ones at BUFFER_FAST of the steady time per write or less, for as many
 * bytes as the buffer holds, the writes after them steady. Its drain right
 * after the look (drain_confirms), or else a second look after another
 * pause, must show it again, within a factor of two (a busy host slows a
 * spell of writes, and the ones before it look fast). The
 * writes also bring the card as it came to a steady state before the
 * reference.
 */
void auto_measure_buffer(struct autostate *s)
{
	uint64_t chunk = BUFFER_CHUNK, before = s->d->bytes_written;
	double fast = 0, slow = 0, fast2 = 0, slow2 = 0;

	while (chunk > s->erasesize / 16 && chunk / 2 >= s->d->lbs && chunk % 2 == 0)
		chunk /= 2;
	if (s->erasesize % chunk)
		return;
	/*
	 * A buffer shows only once it is full: up to BUFFER_MAX, less on a small
	 * budget, and BUFFER_LOOK_BLOCKS erase blocks at most (a larger one
	 * blurs every row anyway, auto_buffer_blurs). On cards of 256 KiB
	 * erase blocks and less (old cards: doc/card-facts.md) the runs write
	 * whole blocks and the look only tells whether a buffer blurs them;
	 * half as many blocks tell that for buffers of up to seven blocks, and
	 * the other eight are a tenth of the manual sequence on issue 26's
	 * worst cards there. An eMMC's 2 MiB buffer on 512 KiB blocks
	 * drains while it fills and shows only within the sixteen.
	 */
	uint64_t most = s->plan.budget / 32 < BUFFER_MAX ? s->plan.budget / 32 : BUFFER_MAX;
	uint64_t blocks = s->erasesize <= BUFFER_OLD_ERASE ? BUFFER_LOOK_BLOCKS / 2 : BUFFER_LOOK_BLOCKS;
	if (most > blocks * s->erasesize)
		most = blocks * s->erasesize;
	uint64_t b = look_for_buffer(s, chunk, most, &fast, &slow), b2 = 0;
	/*
	 * Told by its drain right after the look, no second look is needed;
	 * not on erase blocks of BUFFER_OLD_ERASE and less, where the second
	 * look only confirms a buffer that blurs whole-block runs and the
	 * drain's writes are issue 26's bytes (the worst card there, sa04g
	 * seed=120: 1.03x -> 1.05x the manual sequence, no answer changed).
	 */
	bool drained = b && s->erasesize > BUFFER_OLD_ERASE && drain_confirms(s, chunk, b, fast, slow);
	if (b && !drained) {
		uint64_t again = 2 * b + 2 * BUFFER_TAIL * chunk;
		b2 = look_for_buffer(s, chunk, again < most ? again : most, &fast2, &slow2);
	}
	s->spent[SPENT_CACHE] += s->d->bytes_written - before;
	if (drained || (b && b2 && b2 <= 2 * b && b <= 2 * b2)) {
		s->buffer_bytes = b;
		s->buffer_fast_rate = fast;
		s->buffer_slow_rate = slow;
	}
}

/* ------------------------------------------------------------ write cache */

#define CACHE_CHUNK_MAX (8u << 20)	/* the writes that look for its end, at most */
#define CACHE_MIN_LOOK (32u << 20)	/* less than this left to look with: not looked for */
#define CACHE_DROP 0.7			/* a write this much slower than the first ones: past it */
#define CACHE_DROP_WRITES 8		/* ... so many in a row */
#define CACHE_FIRST 4			/* the first rate: the median of these writes */

/* Where the check writes: past every place of the searches, in the device's second half. */
static uint64_t cache_area(const struct autostate *s)
{
	/* (the settling stream's blocks are the place after the 32) */
	uint64_t past = s->open_offset + (OPEN_AU_MAX_NR + 1) * s->probe.stride, half = s->d->size / 2;
	uint64_t at = past > half ? past : half;
	return (at + s->erasesize - 1) / s->erasesize * s->erasesize;
}

/*
 * Did the last CACHE_DROP_WRITES writes all run slower than the first ones,
 * or than the linear reference measured in the cache (cached_t a write, 0:
 * none)? Large writes in order run no slower than the reference's smaller
 * ones on one card: slower, they went past a cache that ended before the
 * look or within its first writes (the cache folded back only partly in
 * the pauses before it: today's cards of 80..350 MiB caches ran the look at
 * the native rate from its first write, and it looked on to the budget).
 */
static bool dropped(const int64_t *t, int n, int64_t cached_t)
{
	if (n < (cached_t ? 0 : CACHE_FIRST) + CACHE_DROP_WRITES)
		return false;
	int64_t v[CACHE_FIRST], first = cached_t;
	if (n >= CACHE_FIRST) {
		memcpy(v, t, sizeof v);
		qsort(v, CACHE_FIRST, sizeof(*v), cmp_i64);
		if (!first || (v[1] + v[2]) / 2 < first)
			first = (v[1] + v[2]) / 2;
	}
	for (int i = n - CACHE_DROP_WRITES; i < n; i++)
		if (t[i] * CACHE_DROP <= first)
			return false;
	return true;
}

/* One write of chunk at off, timed; 0 when it failed. */
static int64_t timed_write(struct autostate *s, uint64_t off, uint64_t chunk)
{
	struct probe_row pr = { .chunk = chunk, .rounds = 1 };
	struct probe_spec ps = { .at = &off, .n = 1, .erasesize = s->erasesize, .rows = &pr, .nrows = 1,
				 .on_write_error = s->p->on_write_error };
	struct rate_result r;
	int64_t before = s->d->device_ns;
	measure_probe(s->d, &ps, &r);
	s->write_ns += s->d->device_ns - before;
	auto_note_status(s, &r.st);
	bool ok = r.nrows == 1 && !r.rows[0].failed[0] && !r.st.partial;
	int64_t t = ok ? r.rows[0].ns[0] : 0;
	rate_result_free(&r);
	return t;
}

/*
 * A pseudo-SLC write cache (issue 27): writes after idle go to a fast area
 * wherever they land, until it is full, then at the native rate and under
 * the card's erase-block rules. Inside it no run collapses at any N, so a
 * search that found no limit on a card whose reads show an erase-block
 * step may have measured the cache: writes in order of large chunks show
 * its end as a fall of the rate that lasts.
 */
bool auto_pass_cache(struct autostate *s, uint64_t reserve)
{
	uint64_t chunk = s->erasesize, at = cache_area(s), before = s->d->bytes_written;
	while (chunk > CACHE_CHUNK_MAX && chunk % 2 == 0 && (chunk / 2) % s->d->lbs == 0)
		chunk /= 2;
	uint64_t left = s->max_write > s->d->bytes_written ? s->max_write - s->d->bytes_written : 0;
	uint64_t look = left > reserve ? left - reserve : 0;
	if (at + look > s->d->size)
		look = s->d->size > at ? s->d->size - at : 0;
	look = look / chunk * chunk;
	s->cache_checked = true;
	if (look < CACHE_MIN_LOOK)
		return false;
	int most = (int)(look / chunk), n = 0;
	double cached_rate = auto_best_rate(s, 1, false, s->probe.ref[0]);
	int64_t cached_t = cached_rate > 0 ? (int64_t)((double)chunk * 1e9 / cached_rate) : 0;
	int64_t *t = calloc((size_t)most, sizeof(*t));
	if (!t)
		return false;
	while (n < most && !s->stop && !dropped(t, n, cached_t)) {
		t[n] = timed_write(s, at + (uint64_t)n * chunk, chunk);
		if (!t[n])
			break;
		n++;
	}
	bool passed = dropped(t, n, cached_t);
	uint64_t wrote = s->d->bytes_written - before;
	s->spent[SPENT_CACHE] += wrote;
	s->cache_looked = wrote;
	if (passed) {
		int end = n - CACHE_DROP_WRITES;
		int64_t fast = 0, slow = 0;
		for (int i = 0; i < n; i++)
			*(i < end ? &fast : &slow) += t[i];
		/* what went to the cache: all written since the card came, but the capacity check's */
		s->cache_bytes = before - s->spent[SPENT_CAPACITY] + (uint64_t)end * chunk;
		/* (ended before the look: the reference's rate is the cache's) */
		s->cache_fast_rate = end ? (double)chunk * end * 1e9 / (double)fast : cached_rate;
		s->cache_slow_rate = (double)chunk * CACHE_DROP_WRITES * 1e9 / (double)slow;
		s->no_pauses = true;
		s->regime++;
	}
	free(t);
	return passed;
}

void auto_note_cache_ended(struct autostate *s, uint64_t at)
{
	double ref = auto_best_rate(s, 1, false, s->probe.d[0]);
	s->cache_checked = true;
	s->cache_bytes = at > s->spent[SPENT_CAPACITY] ? at - s->spent[SPENT_CAPACITY] : at;
	s->cache_fast_rate = ref;
	s->no_pauses = true;
	s->regime++;
	/* the native rate: the linear reference measured again past it */
	s->cache_slow_rate = 0;
}

