/*
 * Simulated flash cards on a virtual clock. Nothing is stored but the
 * state of the erase blocks (two bytes each) and of the few open ones.
 *
 * Reads cost latency + transfer, plus a fixed extra when the range
 * crosses a page boundary and a larger one when it crosses an erase-block
 * boundary: what `-a` looks for.
 *
 * Writes cost a command latency plus one page program per page touched (a
 * partial page costs a whole one), plus a mapping overhead outside the
 * first fat_aus erase blocks, which are page-mapped and need nothing else.
 * Elsewhere up to open_au erase blocks are open; an open block remembers
 * the range [lo, wp) written since it was opened. Writing at wp continues
 * it; a block written from its start up to its end is closed, and
 * rewriting it from its start is a fresh allocation. One opened in
 * mid-block stays open when written to its end (closing it would copy the
 * part before lo) until its slot is needed: a later run pays for it.
 * Writing into a block that is not open opens it, garbage-collecting the
 * least recently used open block when all slots are taken: its unwritten
 * rest is copied and the old copy erased, about the cost of writing a
 * whole erase block. An out-of-order write switches its block to random
 * mode, collecting the least recently used random-mode block when
 * random_au are in it already; with random_au=0, a forward jump copies the
 * gap and a backward one garbage-collects the block on the spot.
 * Discard erases the erase blocks it covers: collecting one copies nothing
 * (discard=keep: it changes nothing). gc-defer=N postpones collections:
 * up to N erase blocks' worth of copying waits and is done an eighth of a
 * block with each later write. The host's noise is sim/sim_host.c, the
 * states a card comes in sim/sim_state.c, the RAM buffer and SLC cache of
 * today's cards in front of all this sim/sim_today.c; idle time (sim_idle,
 * at the end) is the only time that passes between accesses.
 */
#include "sim/sim_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

#define SIM_LBS 512u
#define MAX_ERASE_BLOCKS (1u << 24)	/* state stays below 32 MiB */
#define MAX_SIZE (1ull << 44)		/* 16 TiB */
#define MAX_ERASESIZE (1ull << 30)
#define MAX_PAGESIZE (1ull << 20)
#define MAX_NOISE 50
#define MAX_JITTER_US 100000	/* 100 ms */
#define MAX_GC_DEFER 16

/* ---------------------------------------------------------------- parsing */

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

enum sized { K_SIZE, K_ERASESIZE, K_PAGESIZE, K_FAIL_AT, NSIZED };
static const char *const sized_keys[NSIZED] = { "size", "erasesize", "pagesize", "fail-at" };

struct spec_extra {
	char record[4096];
	char trace[4096];
	bool random_au_given;
	char typed[NSIZED][64];	/* size values as the user wrote them, for messages */
};

static int set_count(const char *key, const char *val, long long max, unsigned int *dst,
		     char *err, size_t errlen)
{
	long long v;
	if (parse_number(val, 0, max, &v))
		return fail(err, errlen, "sim: %s=%s: must be a whole number from 0 to %lld",
			    key, val, max);
	*dst = (unsigned int)v;
	return 0;
}

static int set_size(struct spec_extra *x, enum sized k, const char *val, uint64_t *dst,
		    char *err, size_t errlen)
{
	if (parse_size(val, dst))
		return fail(err, errlen, "sim: %s=%s: not a size", sized_keys[k], val);
	snprintf(x->typed[k], sizeof(x->typed[k]), "%.63s", val);
	return 0;
}

/* ---------------------------------------------- real-card phenomena: parameters */

#define MAX_DISTURB 20	/* spikes=, stretch=, drift=: percent */

/* 1 when key is not one of these, else 0 or -1 as set_param. */
static int set_real_param(struct sim_real *r, const char *key, const char *val,
			  char *err, size_t errlen)
{
	uint64_t *size = !strcmp(key, "multiplane") ? &r->multiplane :
			 !strcmp(key, "group") ? &r->group :
			 !strcmp(key, "map-unit") ? &r->map_unit : NULL;
	if (size) {
		if (parse_size(val, size) || *size % SIM_LBS)
			return fail(err, errlen, "sim: %s=%s: not a size (a multiple of 512)", key, val);
		return 0;
	}
	unsigned int *pct = !strcmp(key, "spikes") ? &r->spikes :
			    !strcmp(key, "stretch") ? &r->stretch :
			    !strcmp(key, "burst") ? &r->burst :
			    !strcmp(key, "drift") ? &r->drift : NULL;
	if (pct)
		return set_count(key, val, MAX_DISTURB, pct, err, errlen);
	if (!strcmp(key, "jitter"))
		return set_count(key, val, MAX_JITTER_US, &r->jitter_us, err, errlen);
	return 1;
}

/* state=, discard=, ftl=, gc-defer=: 1 when key is not one of these, else 0 or -1. */
static int set_state_param(struct sim_config *c, const char *key, const char *val,
			   char *err, size_t errlen)
{
	static const char *const states[] = { "clean", "new", "used", "after-run", "discarded" };
	if (!strcmp(key, "state")) {
		for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
			if (!strcmp(val, states[i])) {
				c->state = (enum sim_state)i;
				return 0;
			}
		return fail(err, errlen, "sim: state=%s: must be clean, new, used, after-run or discarded",
			    val);
	}
	if (!strcmp(key, "discard")) {
		if (strcmp(val, "erase") && strcmp(val, "keep"))
			return fail(err, errlen, "sim: discard=%s: must be erase or keep", val);
		c->discard_keeps = !strcmp(val, "keep");
		return 0;
	}
	if (!strcmp(key, "ftl")) {
		if (strcmp(val, "none") && strcmp(val, "card"))
			return fail(err, errlen, "sim: ftl=%s: must be card or none", val);
		c->no_ftl = !strcmp(val, "none");
		return 0;
	}
	if (!strcmp(key, "gc-defer"))
		return set_count(key, val, MAX_GC_DEFER, &c->gc_defer, err, errlen);
	return 1;
}

static int check_real(const struct sim_config *c, char *err, size_t errlen)
{
	const struct sim_real *r = &c->real;
	char a[FMT_BUF], b[FMT_BUF];
	if (r->multiplane && (r->multiplane % c->pagesize || c->erasesize % r->multiplane))
		return fail(err, errlen, "sim: multiplane=%s: must be a multiple of the page (%s) "
			    "dividing the erase size", fmt_size(a, r->multiplane), fmt_size(b, c->pagesize));
	if (r->group && r->group % c->erasesize)
		return fail(err, errlen, "sim: group=%s: not a multiple of the erase size (%s)",
			    fmt_size(a, r->group), fmt_size(b, c->erasesize));
	if (r->map_unit && c->erasesize % r->map_unit)
		return fail(err, errlen, "sim: map-unit=%s: does not divide the erase size (%s)",
			    fmt_size(a, r->map_unit), fmt_size(b, c->erasesize));
	return 0;
}

static int set_param(struct sim_config *c, struct spec_extra *x, const char *key,
		     const char *val, char *err, size_t errlen)
{
	if (!strcmp(key, "size"))
		return set_size(x, K_SIZE, val, &c->size, err, errlen);
	if (!strcmp(key, "erasesize"))
		return set_size(x, K_ERASESIZE, val, &c->erasesize, err, errlen);
	if (!strcmp(key, "pagesize"))
		return set_size(x, K_PAGESIZE, val, &c->pagesize, err, errlen);
	if (!strcmp(key, "fail-at"))
		return set_size(x, K_FAIL_AT, val, &c->fail_at, err, errlen);
	if (!strcmp(key, "open-au"))
		return set_count(key, val, MAX_OPEN_AU, &c->open_au, err, errlen);
	if (!strcmp(key, "random-au")) {
		x->random_au_given = true;
		return set_count(key, val, MAX_OPEN_AU, &c->random_au, err, errlen);
	}
	if (!strcmp(key, "fat-aus"))
		return set_count(key, val, MAX_ERASE_BLOCKS, &c->fat_aus, err, errlen);
	if (!strcmp(key, "noise"))
		return set_count(key, val, MAX_NOISE, &c->noise_pct, err, errlen);
	if (!strcmp(key, "realtime"))	/* a run to watch (progress tests); timings stay virtual */
		return set_count(key, val, 100, &c->realtime_pct, err, errlen);
	if (!strcmp(key, "seed")) {
		long long v;
		if (parse_number(val, 0, INT64_MAX, &v))
			return fail(err, errlen, "sim: seed=%s: must be a whole number >= 0", val);
		c->seed = (uint64_t)v;
		return 0;
	}
	int r = sim_data_param(&c->data, key, val, err, errlen);
	if (r)
		return r < 0 ? -1 : 0;
	r = sim_claims_param(&c->claims, key, val, err, errlen);
	if (r <= 0)
		return r;
	if (!strcmp(key, "record")) {
		if (!*val || strlen(val) >= sizeof(x->record))
			return fail(err, errlen, "sim: record=%s: needs a file name", val);
		strcpy(x->record, val);
		return 0;
	}
	if (!strcmp(key, "trace")) {
		if (!*val || strlen(val) >= sizeof(x->trace))
			return fail(err, errlen, "sim: trace=%s: needs a file name", val);
		strcpy(x->trace, val);
		return 0;
	}
	int real = set_real_param(&c->real, key, val, err, errlen);
	if (real <= 0)
		return real;
	int state = set_state_param(c, key, val, err, errlen);
	if (state <= 0)
		return state;
	int today = sim_today_param(&c->today, key, val, err, errlen);
	if (today <= 0)
		return today;
	return fail(err, errlen, "sim: %s=%s: unknown parameter (see --help)", key, val);
}

/* "erasesize=5M" as typed, or "erasesize=4MiB" when it came from the preset or default */
static const char *shown(const struct spec_extra *x, enum sized k, uint64_t v, char *buf)
{
	char num[FMT_BUF];
	snprintf(buf, 96, "%s=%s", sized_keys[k], x->typed[k][0] ? x->typed[k] : fmt_size(num, v));
	return buf;
}

static int check_sizes(const struct sim_config *c, const struct spec_extra *x,
		       char *err, size_t errlen)
{
	char a[96], b[96];
	const bool page_typed = x->typed[K_PAGESIZE][0];
	if (c->pagesize < SIM_LBS || c->pagesize > MAX_PAGESIZE || c->pagesize % SIM_LBS)
		return fail(err, errlen, "sim: %s: must be a multiple of 512 up to 1MiB",
			    shown(x, K_PAGESIZE, c->pagesize, a));
	if (!units_is_erase_candidate(c->erasesize) || c->erasesize > MAX_ERASESIZE ||
	    c->erasesize < SIM_LBS)
		return fail(err, errlen, "sim: %s: must be 2^n or 3*2^n bytes, 512 to 1GiB",
			    shown(x, K_ERASESIZE, c->erasesize, a));
	if (c->erasesize % c->pagesize && page_typed)
		return fail(err, errlen, "sim: %s: does not divide %s",
			    shown(x, K_PAGESIZE, c->pagesize, a), shown(x, K_ERASESIZE, c->erasesize, b));
	if (c->erasesize % c->pagesize)
		return fail(err, errlen, "sim: %s: not a multiple of %s",
			    shown(x, K_ERASESIZE, c->erasesize, a), shown(x, K_PAGESIZE, c->pagesize, b));
	if (c->size < c->erasesize || c->size % SIM_LBS || c->size > MAX_SIZE)
		return fail(err, errlen, "sim: %s: must be a multiple of 512 from %s to 16TiB",
			    shown(x, K_SIZE, c->size, a), shown(x, K_ERASESIZE, c->erasesize, b));
	if ((c->size + c->erasesize - 1) / c->erasesize > MAX_ERASE_BLOCKS)
		return fail(err, errlen, "sim: %s: more than %u erase blocks of %s",
			    shown(x, K_SIZE, c->size, a), MAX_ERASE_BLOCKS,
			    shown(x, K_ERASESIZE, c->erasesize, b));
	if (c->fail_at != SIM_NO_FAIL && c->fail_at >= c->size)
		return fail(err, errlen, "sim: %s: beyond the card (%s)",
			    shown(x, K_FAIL_AT, c->fail_at, a), shown(x, K_SIZE, c->size, b));
	return 0;
}

static int check_config(const struct sim_config *c, const struct spec_extra *x,
			char *err, size_t errlen)
{
	if (check_sizes(c, x, err, errlen))
		return -1;
	if (c->open_au < 1)
		return fail(err, errlen, "sim: open-au=%u: must be at least 1", c->open_au);
	if (c->random_au > c->open_au)
		return fail(err, errlen, "sim: random-au=%u: more than open-au (%u)",
			    c->random_au, c->open_au);
	if ((uint64_t)c->fat_aus * c->erasesize > c->size)
		return fail(err, errlen, "sim: fat-aus=%u: more erase blocks than the card has",
			    c->fat_aus);
	if (sim_data_check(&c->data, c->size, err, errlen) < 0)
		return -1;
	if (sim_today_check(c, err, errlen) < 0)
		return -1;
	return check_real(c, err, errlen);
}

/* Splits spec at commas; the first preset token (anywhere) applies before the pairs. */
static int parse_spec(const char *spec, struct sim_config *c, struct sim_timing *t,
		      struct spec_extra *x, char *err, size_t errlen)
{
	const struct preset *p = &sim_generic_preset;
	const char *s, *end;

	for (s = spec; *s; s = *end ? end + 1 : end) {
		end = sim_spec_item_end(s);
		if (memchr(s, '=', (size_t)(end - s)))
			continue;
		if (end == s)
			return fail(err, errlen, "sim:%s: empty parameter", spec);
		if (p != &sim_generic_preset)
			return fail(err, errlen, "sim: %.*s: a second preset (already %s)",
				    (int)(end - s), s, p->name);
		p = sim_find_preset(s, (size_t)(end - s));
		if (!p)
			return fail(err, errlen, "sim: %.*s: unknown preset or missing '=' (see --help)",
				    (int)(end - s), s);
	}
	*c = p->cfg;
	c->preset = p->name;
	sim_claims_preset(&c->claims, p->name);
	*t = p->t;
	memset(x, 0, sizeof(*x));

	for (s = spec; *s; s = *end ? end + 1 : end) {
		char key[64], val[4096];
		const char *eq;
		end = sim_spec_item_end(s);
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq)
			continue;
		if ((size_t)(eq - s) >= sizeof(key) || (size_t)(end - eq) > sizeof(val))
			return fail(err, errlen, "sim: %.40s...: too long", s);
		memcpy(key, s, (size_t)(eq - s));
		key[eq - s] = 0;
		memcpy(val, eq + 1, (size_t)(end - eq - 1));
		val[end - eq - 1] = 0;
		if (set_param(c, x, key, val, err, errlen))
			return -1;
	}
	if (*spec && spec[strlen(spec) - 1] == ',')
		return fail(err, errlen, "sim:%s: empty parameter", spec);
	/* "sdhc-good,open-au=2" means a card like it with 2 open AUs */
	if (!x->random_au_given && c->random_au > c->open_au)
		c->random_au = c->open_au;
	return check_config(c, x, err, errlen);
}

/* ---------------------------------------------------------------- create */

struct sim *sim_build(const char *spec, char *err, size_t errlen)
{
	struct sim_config c;
	struct sim_timing t;
	struct spec_extra x;
	struct sim *s;

	if (parse_spec(spec ? spec : "", &c, &t, &x, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		fail(err, errlen, "sim: out of memory");
		return NULL;
	}
	s->cfg = c;
	s->t = t;
	s->neb = (c.size + c.erasesize - 1) / c.erasesize;
	s->eb = calloc(s->neb, sizeof(*s->eb));
	s->rng = c.seed;
	sim_today_setup(s);
	if (!s->eb) {
		fail(err, errlen, "sim: size=%llu: out of memory", (unsigned long long)c.size);
		sim_destroy(s);
		return NULL;
	}
	if (x.record[0]) {
		s->record = fopen(x.record, "a");
		if (!s->record) {
			fail(err, errlen, "sim: record=%s: %s", x.record, strerror(errno));
			sim_destroy(s);
			return NULL;
		}
		setvbuf(s->record, NULL, _IOLBF, 0);
	}
	if (x.trace[0]) {
		s->trace = fopen(x.trace, "a");
		if (!s->trace) {
			fail(err, errlen, "sim: trace=%s: %s", x.trace, strerror(errno));
			sim_destroy(s);
			return NULL;
		}
	}
	return s;
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	if (s->record)
		fclose(s->record);
	sim_store_destroy(s->data);
	if (s->trace)
		fclose(s->trace);
	free(s->eb);
	free(s);
}

uint64_t sim_size(const struct sim *s) { return s->cfg.size; }
unsigned int sim_block_size(const struct sim *s) { (void)s; return SIM_LBS; }
const struct sim_config *sim_config(const struct sim *s) { return &s->cfg; }
int64_t sim_now(const struct sim *s) { return s->now; }
const struct sim_timing *sim_timing(const struct sim *s) { return &s->t; }
void sim_clock_credit(struct sim *s, int64_t ns) { s->now -= ns; }

int sim_data_enable(struct sim *s, bool on)
{
	if (!on) {
		sim_store_destroy(s->data);
		s->data = NULL;
	} else if (!s->data && !(s->data = sim_store_create(&s->cfg.data))) {
		return -ENOMEM;
	}
	return 0;
}

struct sim_store *sim_data(struct sim *s) { return s->data; }

/* ---------------------------------------------------------------- costs */

static double transfer(uint64_t bytes, double bps) { return (double)bytes * 1e9 / bps; }

static double copy_cost(const struct sim *s, uint64_t bytes)
{
	return transfer(bytes, s->t.copy_bps);
}

/* Pages touched by [off, off+len): a partial page costs a whole one. */
static uint64_t pages_touched(uint64_t off, uint64_t len, uint64_t page)
{
	return (off + len - 1) / page - off / page + 1;
}

static bool crosses(uint64_t off, uint64_t len, uint64_t unit)
{
	return off / unit != (off + len - 1) / unit;
}

/* What one program covers: the page, or on a card that hides its geometry any 512 bytes. */
static uint64_t write_unit(const struct sim *s)
{
	return s->cfg.today.hidden ? SIM_LBS : s->cfg.pagesize;
}

/* Page programs of [off, off+len) at bps. */
static double program_cost(const struct sim *s, uint64_t off, uint64_t len, double bps)
{
	uint64_t unit = write_unit(s);
	return (double)pages_touched(off, len, unit) * transfer(unit, bps);
}

/* ---------------------------------------------- real-card phenomena: costs */

/*
 * Extra read-boundary levels: pages read in pairs (multi-plane) and
 * allocation groups far above the erase block (doc/flash-card-model.md §2,
 * §5; doc/card-facts.md, read boundaries); USB readers' spikes, 1-2% of
 * reads 300..800us slower (doc/card-facts.md, "Noise is not Gaussian").
 */
static double real_read_extra(struct sim *s, uint64_t off, uint64_t len)
{
	const struct sim_real *r = &s->cfg.real;
	const bool shown = !s->cfg.today.hidden;
	double ns = 0;
	if (shown && r->multiplane && crosses(off, len, r->multiplane))
		ns += s->t.page_cross;
	if (shown && r->group && crosses(off, len, r->group))
		ns += 0.6 * s->t.eb_cross;
	if (r->spikes && sim_uniform01(s) * 100 < r->spikes)
		ns += 300 * US + 500 * US * sim_uniform01(s);
	return ns;
}

/*
 * Random-capable only for large blocks: an out-of-order write smaller than
 * the mapping unit copies the whole unit (doc/card-facts.md, "Random mode":
 * SanDisk SU04G in seed 000, random 512KiB 12 MB/s, 256KiB 3.5 MB/s at any N).
 */
static double real_map_unit_cost(const struct sim *s, uint64_t len)
{
	uint64_t unit = s->cfg.real.map_unit;
	return unit && len < unit ? transfer(unit, s->t.copy_bps) : 0;
}

/* ---------------------------------------------------------------- write model */

static void release_slot(struct sim *s, unsigned int i)
{
	struct open_block *b = &s->open[i];
	if (b->random)
		s->nrandom--;
	s->eb[b->eb].slot = 0;
	s->in_use[i] = false;
}

/* Commits an open block: copy in what was not written since it opened, erase the old copy. */
static double close_block(struct sim *s, unsigned int i)
{
	const struct open_block *b = &s->open[i];
	double ns = s->t.erase;
	if (!b->fresh && b->written < s->cfg.erasesize)
		ns += copy_cost(s, s->cfg.erasesize - b->written);
	release_slot(s, i);
	return ns;
}

double sim_block_collection(const struct sim *s)
{
	return s->t.erase + copy_cost(s, s->cfg.erasesize);
}

/*
 * Garbage collection of the block in slot i, forced by a write that needs
 * its slot. A card with gc-defer=N postpones the work (it copies the rest
 * in the background of later writes, doc/card-facts.md "Card state"): up to
 * N erase blocks' worth waits, the rest is done at once.
 */
static double collect(struct sim *s, unsigned int i)
{
	double ns = close_block(s, i);
	if (!s->cfg.gc_defer)
		return ns;
	double cap = s->cfg.gc_defer * sim_block_collection(s);
	s->gc_pending += ns;
	if (s->gc_pending <= cap)
		return 0;
	ns = s->gc_pending - cap;
	s->gc_pending = cap;
	return ns;
}

/* Postponed collection work is done a slice (an eighth of a block) with each write. */
static double pay_pending_slice(struct sim *s)
{
	double slice = sim_block_collection(s) / 8;
	if (s->gc_pending <= 0)
		return 0;
	if (slice > s->gc_pending)
		slice = s->gc_pending;
	s->gc_pending -= slice;
	return slice;
}

static unsigned int lru_slot(const struct sim *s)
{
	unsigned int best = 0;
	for (unsigned int i = 1; i < s->cfg.open_au; i++)
		if (s->open[i].last_use < s->open[best].last_use)
			best = i;
	return best;
}

static unsigned int lru_random_slot(const struct sim *s)
{
	unsigned int best = MAX_OPEN_AU;
	for (unsigned int i = 0; i < s->cfg.open_au; i++)
		if (s->in_use[i] && s->open[i].random &&
		    (best == MAX_OPEN_AU || s->open[i].last_use < s->open[best].last_use))
			best = i;
	return best;
}

/* Opens block eb for linear writing at offset lo inside it; adds any GC cost to *ns. */
static unsigned int open_block(struct sim *s, uint64_t eb, uint64_t lo, double *ns)
{
	unsigned int i;
	for (i = 0; i < s->cfg.open_au && s->in_use[i]; i++)
		;
	if (i == s->cfg.open_au) {
		i = lru_slot(s);
		*ns += collect(s, i);
	}
	s->open[i] = (struct open_block){
		.eb = eb, .lo = lo, .wp = lo, .fresh = s->eb[eb].erased,
	};
	s->in_use[i] = true;
	s->eb[eb].slot = (uint8_t)(i + 1);
	s->eb[eb].erased = 0;
	*ns += s->t.open;
	return i;
}

unsigned int sim_open_block(struct sim *s, uint64_t eb, uint64_t lo)
{
	double ns = 0;
	return open_block(s, eb, lo, &ns);
}

/* An out-of-order write at o into the linear block in slot i. */
static unsigned int write_out_of_order(struct sim *s, unsigned int i, uint64_t o, double *ns)
{
	struct open_block *b = &s->open[i];
	if (s->cfg.random_au) {
		if (s->nrandom == s->cfg.random_au)
			*ns += collect(s, lru_random_slot(s));
		b->random = true;
		s->nrandom++;
	} else if (o > b->wp) {
		*ns += copy_cost(s, o - b->wp);
		b->wp = o;
		b->written = b->wp - b->lo;
	} else {
		uint64_t eb = b->eb;
		*ns += collect(s, i);
		i = open_block(s, eb, o, ns);
	}
	return i;
}

/* Write of len bytes at offset o inside erase block eb (no crossing). */
static double write_in_block(struct sim *s, uint64_t eb, uint64_t o, uint64_t len)
{
	const uint64_t es = s->cfg.erasesize;
	const double page_ns = transfer(s->cfg.pagesize, s->prog_bps);
	double ns = program_cost(s, o, len, s->prog_bps);
	struct open_block *b;
	unsigned int i;

	/* page-mapped: the FAT area, a RAM disk, a card that hides its geometry */
	if (eb < s->cfg.fat_aus || s->cfg.no_ftl || s->cfg.today.hidden) {
		s->eb[eb].erased = 0;
		return ns;
	}
	ns += s->t.map_pages * page_ns;
	if (s->eb[eb].slot)
		i = s->eb[eb].slot - 1u;
	else
		i = open_block(s, eb, o, &ns);
	b = &s->open[i];
	if (!b->random && o != b->wp) {
		i = write_out_of_order(s, i, o, &ns);
		b = &s->open[i];
	}
	b->last_use = ++s->use_clock;
	if (b->random) {
		ns += real_map_unit_cost(s, len);
		b->written += len;
		if (b->written >= es)
			ns += close_block(s, i);
		return ns;
	}
	b->wp = o + len;
	b->written = b->wp - b->lo;
	if (b->wp == es && (b->lo == 0 || !s->cfg.random_au))
		ns += close_block(s, i);
	return ns;
}

/* ---------------------------------------------------------------- I/O */

static int check_io(const struct sim *s, uint64_t off, uint64_t len)
{
	if (!len || off % SIM_LBS || len % SIM_LBS || off > s->cfg.size || len > s->cfg.size - off)
		return -EINVAL;
	if (s->cfg.fail_at != SIM_NO_FAIL && s->cfg.fail_at >= off && s->cfg.fail_at - off < len)
		return -EIO;
	return 0;
}

/* trace=FILE: every I/O in order, "R|W|D off len" (the test of access patterns) */
static void trace(struct sim *s, char op, uint64_t off, uint64_t len)
{
	if (s->trace)
		fprintf(s->trace, "%c %llu %llu\n", op, (unsigned long long)off, (unsigned long long)len);
}

int sim_read(struct sim *s, uint64_t off, uint64_t len, int64_t *ns)
{
	int rc = check_io(s, off, len);
	double cost;
	if (rc)
		return rc;
	cost = s->t.read_lat + transfer(len, s->t.read_bps);
	if (!s->cfg.today.hidden && crosses(off, len, s->cfg.pagesize))
		cost += s->t.page_cross;
	if (!s->cfg.today.hidden && crosses(off, len, s->cfg.erasesize))
		cost += s->t.eb_cross;
	cost += real_read_extra(s, off, len);
	cost = sim_link_floor(&s->cfg.claims, len, cost);
	*ns = sim_host_charge(s, cost);
	trace(s, 'R', off, len);
	return 0;
}

/*
 * The card's own work for a write, added to cost: postponed collection,
 * what the SLC cache takes (at the cached rate, wherever it lands), the
 * rest into its erase blocks.
 */
static double card_write(struct sim *s, uint64_t off, uint64_t len, double cost)
{
	const uint64_t es = s->cfg.erasesize;
	const uint64_t cached = sim_slc_take(s, len);
	cost += pay_pending_slice(s);
	if (cached)
		cost += program_cost(s, off, cached, s->t.write_bps);
	for (uint64_t pos = off + cached, end = off + len; pos < end;) {
		uint64_t eb = pos / es, o = pos % es;
		uint64_t n = es - o < end - pos ? es - o : end - pos;
		cost += write_in_block(s, eb, o, n);
		pos += n;
	}
	return cost;
}

int sim_write(struct sim *s, uint64_t off, uint64_t len, int64_t *ns)
{
	int rc = check_io(s, off, len);
	double cost;
	if (rc)
		return rc;
	if (s->cfg.today.buffer)	/* the host waits for the buffer, the card works behind it */
		cost = s->t.write_lat + sim_buffer_take(s, len, card_write(s, off, len, 0));
	else
		cost = card_write(s, off, len, s->t.write_lat);
	cost = sim_link_floor(&s->cfg.claims, len, cost);
	*ns = sim_host_charge(s, cost);
	trace(s, 'W', off, len);
	if (s->record)
		fprintf(s->record, "W %llu %llu\n", (unsigned long long)off, (unsigned long long)len);
	return 0;
}

int sim_discard(struct sim *s, uint64_t off, uint64_t len, int64_t *ns)
{
	const uint64_t es = s->cfg.erasesize;
	int rc = check_io(s, off, len);
	uint64_t first, last, n = 0;
	if (rc)
		return rc;
	/* Only erase blocks wholly inside the range are erased. */
	first = (off + es - 1) / es;
	last = off + len == s->cfg.size ? s->neb : (off + len) / es;
	/* discard=keep: the card takes the command and changes nothing */
	for (uint64_t eb = first; eb < last && !s->cfg.discard_keeps; eb++, n++) {
		if (s->eb[eb].slot)
			release_slot(s, s->eb[eb].slot - 1u);
		s->eb[eb].erased = 1;
	}
	*ns = sim_host_charge(s, s->t.discard_lat + (double)n * s->t.erase);
	trace(s, 'D', off, len);
	if (s->record)
		fprintf(s->record, "D %llu %llu\n", (unsigned long long)off, (unsigned long long)len);
	return 0;
}

/* ---------------------------------------------------------------- idle */

/*
 * Collection after idle (idle-gc=): postponed collections first, then the
 * open blocks are closed, as long as ns lasts; the time it took.
 */
static double idle_collect(struct sim *s, double ns)
{
	double used = 0;
	if (s->gc_pending > 0) {
		double pay = s->gc_pending < ns ? s->gc_pending : ns;
		s->gc_pending -= pay;
		used += pay;
	}
	for (unsigned int i = 0; i < s->cfg.open_au && used < ns; i++)
		if (s->in_use[i])
			used += close_block(s, i);
	return used;
}

/*
 * Idle time is the card's: the RAM buffer drains first, the postponed
 * work is done once the pause has lasted idle-gc= ms, and the rest of the
 * pause folds the SLC cache back (sim/sim_today.c).
 */
void sim_idle(struct sim *s, int64_t ns)
{
	const double gc_after = s->cfg.today.idle_gc_ms * MS;
	double busy;

	if (ns <= 0)
		return;
	busy = sim_buffer_idle(s, ns);
	if (s->cfg.today.idle_gc_ms && (double)ns >= gc_after)
		busy += idle_collect(s, (double)ns - (busy > gc_after ? busy : gc_after));
	if ((double)ns > busy)
		sim_slc_fold(s, (double)ns - busy);
}
