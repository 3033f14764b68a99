/*
 * The write path of cards as they are made today (doc/flash-card-model.md
 * §10, doc/card-facts.md "Cards as they are made today"), in front of the
 * erase-block model of sim/sim.c:
 *
 * - a RAM write buffer (buffer=SIZE): a write completes when it is in the
 *   buffer, at bus speed, while the buffer has room; the card does the
 *   write's work behind it, at its own pace, also while the host is idle.
 *   The buffer is a fluid: bytes and the work behind them, drained at one
 *   nanosecond of work per nanosecond of virtual time. A write that
 *   overfills it waits until the excess has drained.
 * - a pseudo-SLC cache (slc-cache=SIZE): writes after idle go to a fast log
 *   at the cached rate (the preset's write rate) wherever they land, until
 *   SIZE bytes are in it; past it the native rate (native=PCT of the
 *   cached one) and the card's erase-block and open-AU rules. The log is
 *   folded back while the card is idle (slc-fold=RATE/s, by default the
 *   native rate); folding writes whole blocks, so it leaves nothing open.
 * - collection after idle (idle-gc=MS): after MS ms of idle the card does
 *   its postponed collections (gc-defer=) and closes the blocks it keeps
 *   open, as far as the rest of the pause allows.
 * - geometry=hidden: no read boundary costs more (sim/sim.c), and every
 *   block is page-mapped at any 512 bytes: no open-AU limit to reach.
 *
 * State is a few numbers: no per-byte storage, the clock stays virtual and
 * deterministic. sim_idle (sim/sim.c) is the only way idle time passes.
 */
#include "sim/sim_internal.h"

#include <stdio.h>
#include <string.h>

#include "lib/units.h"

#define MAX_IDLE_GC_MS 600000u	/* ten minutes */
#define MAX_BUFFER (1ull << 30)
#define DEFAULT_NATIVE_PCT 33u

static int bad(char *err, size_t errlen, const char *key, const char *val, const char *why)
{
	snprintf(err, errlen, "sim: %s=%s: %s", key, val, why);
	return -1;
}

static int set_whole(const char *key, const char *val, unsigned int lo, unsigned int hi,
		   unsigned int *dst, char *err, size_t errlen)
{
	long long v;
	char why[64];
	if (parse_number(val, lo, hi, &v)) {
		snprintf(why, sizeof why, "must be a whole number from %u to %u", lo, hi);
		return bad(err, errlen, key, val, why);
	}
	*dst = (unsigned int)v;
	return 0;
}

int sim_today_param(struct sim_today *t, const char *key, const char *val, char *err,
		    size_t errlen)
{
	uint64_t *size = !strcmp(key, "slc-cache") ? &t->slc_cache :
			 !strcmp(key, "buffer") ? &t->buffer : NULL;
	if (size) {
		if (parse_size(val, size) || *size % 512)
			return bad(err, errlen, key, val, "not a size (a multiple of 512)");
		return 0;
	}
	if (!strcmp(key, "slc-fold")) {
		if (sim_parse_rate(val, &t->slc_fold_bps) < 0)
			return bad(err, errlen, key, val, "not a rate (a size per second, e.g. 20M/s)");
		return 0;
	}
	if (!strcmp(key, "native"))
		return set_whole(key, val, 1, 100, &t->native_pct, err, errlen);
	if (!strcmp(key, "idle-gc"))
		return set_whole(key, val, 0, MAX_IDLE_GC_MS, &t->idle_gc_ms, err, errlen);
	if (!strcmp(key, "geometry")) {
		if (strcmp(val, "hidden") && strcmp(val, "visible"))
			return bad(err, errlen, key, val, "must be visible or hidden");
		t->hidden = !strcmp(val, "hidden");
		return 0;
	}
	return 1;
}

int sim_today_check(const struct sim_config *c, char *err, size_t errlen)
{
	char a[FMT_BUF], b[FMT_BUF];
	if (c->today.slc_cache > c->size) {
		snprintf(err, errlen, "sim: slc-cache=%s: larger than the card (%s)",
			 fmt_size(a, c->today.slc_cache), fmt_size(b, c->size));
		return -1;
	}
	if (c->today.buffer > MAX_BUFFER) {
		snprintf(err, errlen, "sim: buffer=%s: at most 1GiB", fmt_size(a, c->today.buffer));
		return -1;
	}
	return 0;
}

void sim_today_setup(struct sim *s)
{
	struct sim_today *t = &s->cfg.today;
	if (!t->native_pct)
		t->native_pct = DEFAULT_NATIVE_PCT;
	/* without a cache every write is at the card's one rate */
	s->prog_bps = t->slc_cache ? s->t.write_bps * t->native_pct / 100.0 : s->t.write_bps;
	if (!t->slc_fold_bps)
		t->slc_fold_bps = s->prog_bps;
}

/* ------------------------------------------------------------ the SLC cache */

uint64_t sim_slc_take(struct sim *s, uint64_t len)
{
	double room = (double)s->cfg.today.slc_cache - s->slc_used;
	uint64_t n;
	if (room < 512)
		return 0;
	n = room >= (double)len ? len : (uint64_t)room / 512 * 512;
	s->slc_used += (double)n;
	return n;
}

void sim_slc_fold(struct sim *s, double ns)
{
	s->slc_used -= s->cfg.today.slc_fold_bps * ns / 1e9;
	if (s->slc_used < 0)
		s->slc_used = 0;
}

/* ------------------------------------------------------------ the RAM buffer */

/* The work the card did since the buffer's clock, at one ns of work per ns. */
static void buffer_drain(struct sim *s)
{
	double dt = (double)(s->now - s->buf_clock);
	s->buf_clock = s->now;
	if (dt <= 0)
		return;
	if (dt >= s->buf_work) {
		s->buf_work = 0;
		s->buf_bytes = 0;
		return;
	}
	s->buf_bytes *= 1.0 - dt / s->buf_work;
	s->buf_work -= dt;
}

double sim_buffer_take(struct sim *s, uint64_t len, double work)
{
	const double cap = (double)s->cfg.today.buffer;
	const double bus = s->t.bus_bps ? s->t.bus_bps : s->t.read_bps;
	double in = (double)len * 1e9 / bus, wait = 0;

	buffer_drain(s);
	s->buf_bytes += (double)len;
	s->buf_work += work;
	if (s->buf_bytes > cap)	/* the excess has to drain first */
		wait = (s->buf_bytes - cap) / s->buf_bytes * s->buf_work;
	return in > wait ? in : wait;
}

double sim_buffer_idle(struct sim *s, int64_t ns)
{
	double busy;
	buffer_drain(s);	/* what it did while the host was still writing */
	busy = s->buf_work < (double)ns ? s->buf_work : (double)ns;
	s->now += ns;
	buffer_drain(s);
	return busy;
}
