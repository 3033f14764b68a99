/*
 * --auto's state and its accessors: the runs measured so far, how the
 * session stands. Below every other unit of auto/: the search (auto.c),
 * the phases, the verdicts, the advice and the report read the state
 * through these and never call back up.
 */
#include "auto/auto_state.h"

#include <stddef.h>
#include <string.h>

#include "safety/safety.h"

void auto_note_status(struct autostate *s, const struct run_status *st)
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

double auto_rate_at(const struct rate_result *r, uint64_t blocksize)
{
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].blocksize == blocksize && !r->rows[i].failed[0])
			return r->rows[i].rate[0];
	return 0;
}

/* Runs at the erase size and place now tested (a recheck at twice the size keeps the others). */
bool auto_current_run(const struct autostate *s, const struct au_run *r)
{
	return r->r.erasesize == s->erasesize && r->r.offset == s->open_offset && r->regime == s->regime;
}

const struct au_run *auto_find_run(const struct autostate *s, long long nr, bool random)
{
	const struct au_run *found = NULL;
	/* the latest: a re-measured run replaces an unclear one */
	for (int i = 0; i < s->nruns; i++)
		if (auto_current_run(s, &s->runs[i]) && s->runs[i].nr == nr && s->runs[i].random == random)
			found = &s->runs[i];
	return found;
}

/* Where a size came from, as an enum value: "measured", "sysfs_preferred_erase_size", "default" */
const char *auto_source_id(const char *source)
{
	if (!source)
		return NULL;
	if (strstr(source, "sysfs"))
		return "sysfs_preferred_erase_size";
	return strstr(source, "default") ? "default" : "measured";
}

struct row_watch *auto_watch_begin(struct autostate *s, uint64_t row_bytes)
{
	struct row_watch *w = s->watch;
	memset(w, 0, offsetof(struct row_watch, rows));
	w->s = s;
	w->d = s->d;
	w->max_write = s->max_write;
	w->row_bytes = row_bytes;
	return w;
}

/* ---- the card's write path and when a search stops: predicates the searches, the plan and the cache look share ---- */

/*
 * The host leaves the card alone before a write test that may follow work
 * it owes: a card that collects after idle does it now, a RAM buffer
 * drains. Never once a write cache was seen: idle time folds it back, and
 * the writes after it would go to the cache again.
 */
void auto_pause(struct autostate *s)
{
	if (s->no_pauses || s->stop)
		return;
	if (dev_idle(s->d, AUTO_PAUSE_NS) < 0) {
		s->settle_st.interrupted = s->settle_st.partial = true;
		s->status = 130;
		s->stop = true;
		return;
	}
	s->pauses++;
	s->pause_ns += AUTO_PAUSE_NS;
}

/* The device as the user named it, for the command lines the report prints. */
const char *auto_device_name(const struct autostate *s)
{
	return s->o->device_name ? s->o->device_name : s->d->path;
}

/*
 * What a buffer holds, from the bytes that went into it fast: while they
 * went in at fast_rate it drained at slow_rate behind them (a buffer drains
 * behind the host: doc/card-facts.md, "A RAM write buffer"), so of `fast`
 * bytes slow_rate / fast_rate had left it when it was full.
 */
uint64_t auto_buffer_holds(uint64_t fast, double fast_rate, double slow_rate)
{
	if (!(fast_rate > slow_rate) || !(slow_rate > 0))
		return fast;
	return (uint64_t)((double)fast * (1 - slow_rate / fast_rate));
}

/*
 * A buffer no run can fill with writes of its own before it is timed: the
 * lead-ins stop at a quarter of each block, and that is less than half of
 * BUFFER_FLUSH buffers of what it holds (auto_buffer_holds: the bytes that
 * went at bus speed less what drained behind them, up to twice the buffer where
 * the card drains it as fast as half the bus).
 */
bool auto_buffer_blurs(const struct autostate *s)
{
	uint64_t held = auto_buffer_holds(s->buffer_bytes, s->buffer_fast_rate, s->buffer_slow_rate);
	return held * BUFFER_FLUSH > s->erasesize / 2;
}


/*
 * More writing cannot decide (issue 26): on a device whose -a shows no
 * erase-block step, runs up to NOGEO_MAX_NR that all hold are enough to
 * say the geometry does not show (doc/card-facts.md, "Cards as they are
 * made today": no visible geometry); the budget stops the search where the
 * next run does not fit (measure_run), and the card's write path where a
 * cache takes every write (auto/auto_cache.c).
 */
bool auto_search_should_stop(struct autostate *s, bool random, const struct bracket *b)
{
	(void)random;
	return !s->erase.bytes && !b->collapse && b->hold >= NOGEO_MAX_NR;
}
