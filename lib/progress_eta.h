/*
 * The ETA's arithmetic (lib/progress_eta.c): what was measured so far, per
 * kind of I/O, and how long planned work takes at those rates. Used by
 * lib/progress.c; no clock, so tests can feed it any history.
 */
#ifndef FB_PROGRESS_ETA_H
#define FB_PROGRESS_ETA_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/progress.h"

/* sums for a least-squares fit of time = a * I/Os + b * bytes */
struct progress_fit {
	double ios, bytes, ns;
	double ii, ib, bb, it, bt;
};

struct progress_rates {
	struct progress_fit c[4];	/* reads large, reads small, writes large, writes small */
	struct progress_fit k[PROGRESS_KEYS];	/* work given a key, by key */
	/* a key not measured yet: like key like[k] (0: the default), at factor[k] times its time */
	int like[PROGRESS_KEYS];
	double factor[PROGRESS_KEYS];
	double gap_ns;			/* pauses between measurements, in all */
	int gaps;
};

/* A batch measured: ios I/Os of io_bytes each, bytes in all, in ns; of a key (0: none). */
void progress_rates_add(struct progress_rates *r, int key, bool write, uint64_t io_bytes, double ios,
			double bytes, double ns);
/* Work of key, until measured, goes at like's rate times factor (progress_key_like()). */
void progress_rates_like(struct progress_rates *r, int key, int like, double factor);
/* Sums measured under key from moved to key to (the work turned out to be of that kind). */
void progress_rates_move(struct progress_rates *r, const struct progress_fit *f, int from, int to);
/* A batch into a fit's sums. */
void progress_fit_add(struct progress_fit *f, double ios, double bytes, double ns);
/* Adds sums to f (sign 1) or takes them away (-1). */
void progress_fit_merge(struct progress_fit *f, const struct progress_fit *g, double sign);
/* How long the work takes at the rates measured (its max_ns at most). */
double progress_work_ns(const struct progress_rates *r, const struct progress_work *w);
/* The items, and a pause as long as the average so far before each. */
double progress_plan_ns(const struct progress_rates *r, const struct progress_work *items, int n);
/*
 * The time left in the current measurement w, done bytes of it after
 * elapsed_ns, going at recent_ns_per_byte lately (0: not known).
 */
double progress_current_ns(const struct progress_rates *r, const struct progress_work *w,
			   uint64_t done, double elapsed_ns, double recent_ns_per_byte);

#endif
