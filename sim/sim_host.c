/*
 * What the host adds to a simulated card's timing (doc/card-facts.md,
 * "Noise is not Gaussian"; doc/flash-card-model.md §7): a seeded factor on
 * every cost (noise=), an absolute delay per I/O from scheduling, interrupts
 * and USB readers (jitter=: tens to hundreds of microseconds, so rows that
 * run at GB/s are the noisiest), spells of a busy host lasting a few hundred
 * milliseconds in which every access is slower (burst=), single stretched
 * accesses (stretch=) and a slow swing of every cost (drift=). Host noise
 * only ever adds time, except noise= and drift=, which swing both ways.
 */
#include "sim/sim_internal.h"

#include <math.h>

#define BURST_MIN_NS (100 * MS)
#define BURST_MAX_NS (500 * MS)
#define JITTER_CAP 20.0		/* a delay is at most 20 times the mean */

/* An exponentially distributed number with mean 1, capped. */
static double exponential(struct sim *s, double cap)
{
	double x = -log(1.0 - sim_uniform01(s));
	return x < cap ? x : cap;
}

/*
 * Busy spells start at random, so that `burst` percent of the virtual time
 * lies inside one; inside, every access takes 2..4 times as long.
 */
static double burst_factor(struct sim *s)
{
	const unsigned int pct = s->cfg.real.burst;
	struct sim_host *h = &s->host;
	const double mean_len = (BURST_MIN_NS + BURST_MAX_NS) / 2;
	const double mean_gap = mean_len * (100.0 - pct) / pct;

	if (!h->next_burst)
		h->next_burst = s->now + (int64_t)(mean_gap * exponential(s, 50)) + 1;
	if (s->now >= h->next_burst) {
		h->burst_end = s->now + (int64_t)(BURST_MIN_NS + (BURST_MAX_NS - BURST_MIN_NS) *
						  sim_uniform01(s));
		h->burst_factor = 2.0 + 2.0 * sim_uniform01(s);
		h->next_burst = h->burst_end + (int64_t)(mean_gap * exponential(s, 50)) + 1;
	}
	return s->now < h->burst_end ? h->burst_factor : 1.0;
}

int64_t sim_host_charge(struct sim *s, double ns)
{
	const struct sim_real *r = &s->cfg.real;
	int64_t cost;

	if (s->cfg.noise_pct) {
		double u = sim_uniform01(s);
		ns *= 1.0 + (2.0 * u - 1.0) * s->cfg.noise_pct / 100.0;
	}
	if (r->stretch && sim_uniform01(s) * 100 < r->stretch)
		ns *= 1.5 + 2.5 * sim_uniform01(s);
	if (r->drift)	/* one slow swing every 20 virtual seconds */
		ns *= 1.0 + r->drift / 100.0 * sin((double)s->now * 2 * M_PI / 20e9);
	if (r->jitter_us)
		ns += r->jitter_us * US * exponential(s, JITTER_CAP);
	if (r->burst)
		ns *= burst_factor(s);
	cost = (int64_t)(ns + 0.5);
	if (cost < 1)
		cost = 1;
	s->now += cost;
	return cost;
}
