/*
 * The states cards come in (state=; doc/card-facts.md, "Card state"): a
 * card is rarely clean when a user measures it. Out of the box every block
 * is erased (new); a card that held a filesystem has blocks left open and
 * partly written by its scattered writes (used); right after an --open-au
 * run that collapsed, the blocks that run wrote are still open and partly
 * written, and a card that postpones collections owes the work (after-run);
 * a discarded card is erased where the card erases on discard, and as used
 * where it ignores discards (discard=keep). The next run pays for whatever
 * is open or owed, as on a real card; right after a run the SLC cache of a
 * card that has one is full. sim_create is here: a card is
 * built clean (sim/sim.c), then put in its state.
 */
#include "sim/sim_internal.h"

#include <string.h>

#define OPEN_AU_PLACE (16ull << 20)	/* the original --open-au's first block */
#define OPEN_AU_STRIDE 12		/* erase sizes between its blocks */

/* A seeded number in [0, n) from the state's own stream (the timing stream stays as it was). */
static uint64_t pick(uint64_t *x, uint64_t n)
{
	return n ? sim_splitmix(x) % n : 0;
}

/* Leaves block eb open, [lo, wp) written since it was opened, random-mode or not. */
static void leave_open(struct sim *s, uint64_t eb, uint64_t lo, uint64_t wp, bool random)
{
	if (s->eb[eb].slot || eb < s->cfg.fat_aus)
		return;
	unsigned int i = sim_open_block(s, eb, lo);
	struct open_block *b = &s->open[i];
	b->wp = wp;
	b->written = wp - lo;
	b->last_use = ++s->use_clock;
	if (random && s->nrandom < s->cfg.random_au) {
		b->random = true;
		s->nrandom++;
	}
}

/* A whole number of pages in [0, max). */
static uint64_t pages_below(uint64_t *x, const struct sim *s, uint64_t max)
{
	return pick(x, max / s->cfg.pagesize) * s->cfg.pagesize;
}

/* Every slot holds a partly written block somewhere on the card. */
static void leave_scattered(struct sim *s, uint64_t *x)
{
	const uint64_t e = s->cfg.erasesize;
	for (unsigned int k = 0; k < s->cfg.open_au; k++) {
		uint64_t eb = pick(x, s->neb);
		uint64_t lo = pages_below(x, s, e / 2);
		uint64_t wp = lo + s->cfg.pagesize + pages_below(x, s, e / 2);
		leave_open(s, eb, lo, wp, pick(x, 2));
	}
}

/* The blocks a collapsed --open-au run wrote: reopened in mid-block, not written to the end. */
static void leave_after_run(struct sim *s, uint64_t *x)
{
	const uint64_t e = s->cfg.erasesize;
	uint64_t first = (OPEN_AU_PLACE + e - 1) / e;
	for (unsigned int k = 0; k < s->cfg.open_au; k++) {
		uint64_t eb = first + (uint64_t)k * OPEN_AU_STRIDE;
		if (eb >= s->neb)
			break;
		uint64_t lo = e / 2 + pages_below(x, s, e / 4);
		leave_open(s, eb, lo, e - s->cfg.pagesize, k % 2);
	}
}

static void apply_state(struct sim *s)
{
	uint64_t x = s->cfg.seed ^ 0x243f6a8885a308d3ull;
	enum sim_state st = s->cfg.state;

	if (st == SIM_STATE_DISCARDED && s->cfg.discard_keeps)
		st = SIM_STATE_USED;	/* the discard changed nothing */
	switch (st) {
	case SIM_STATE_CLEAN:
		return;
	case SIM_STATE_NEW:
	case SIM_STATE_DISCARDED:
		for (uint64_t eb = 0; eb < s->neb; eb++)
			s->eb[eb].erased = 1;
		return;
	case SIM_STATE_USED:
		leave_scattered(s, &x);
		break;
	case SIM_STATE_AFTER_RUN:
		leave_after_run(s, &x);
		/* that run has just filled the SLC cache: no idle since to fold it back */
		s->slc_used = (double)s->cfg.today.slc_cache;
		break;
	}
	s->gc_pending = s->cfg.gc_defer * sim_block_collection(s);
}

struct sim *sim_create(const char *spec, char *err, size_t errlen)
{
	struct sim *s = sim_build(spec, err, errlen);
	if (s)
		apply_state(s);
	return s;
}
