/*
 * The progress line's ETA: how long planned work takes at the rates
 * measured so far (lib/progress.c feeds it). Pure arithmetic, no clock.
 *
 * I/O is told apart by kind, reads and writes, and size: small I/Os (below
 * 128 KiB) cost about the same per I/O whatever their size, large ones
 * about the same per byte. Per kind and size, time = a * I/Os + b * bytes
 * is fitted by least squares to what was measured (batches of I/O with
 * their time); where the batches do not tell a from b (all of one size),
 * the time is per I/O (small) or per byte (large). Work of a kind not
 * measured yet borrows from what was (class_ns), else takes a slow card's
 * rates (20 MB/s reads, 10 MB/s writes, 0.5 and 2 ms per small I/O). A caller
 * that knows its measurements differ beyond kind and size (open-AU runs
 * that hold and runs that collapse, ten times slower) gives them a key:
 * work of a key goes at the rate measured for that key, where there is one,
 * and its measurements stay out of the kinds' rates (a collapsing open-AU
 * row of 128 KiB would make a later 4 MiB write look ten times slower).
 */
#include "lib/progress_eta.h"

#include <math.h>
#include <string.h>

#define SMALL_IO (128u * 1024)
#define DEFAULT_READ_NS_PER_BYTE (1e9 / 20e6)
#define DEFAULT_WRITE_NS_PER_BYTE (1e9 / 10e6)
#define DEFAULT_READ_IO_NS 500e3
#define DEFAULT_WRITE_IO_NS 2e6
#define LARGE_WRITE_OVER_READ 2.0	/* SD cards: reads about twice as fast as writes */
#define SMALL_WRITE_OVER_READ 8.0	/* A1 cards 3x, cheap cards a hundred times and more */
#define SLOW_KEY_FACTOR 10.0	/* open-AU runs past the limit: a block copy per few writes */
#define MIN_NS 1e6	/* less measured than this: not a rate yet */

static int class_of(bool write, uint64_t io_bytes)
{
	return (write ? 2 : 0) + (io_bytes < SMALL_IO ? 1 : 0);
}

void progress_fit_add(struct progress_fit *f, double ios, double bytes, double ns)
{
	f->ios += ios;
	f->bytes += bytes;
	f->ns += ns;
	f->ii += ios * ios;
	f->ib += ios * bytes;
	f->bb += bytes * bytes;
	f->it += ios * ns;
	f->bt += bytes * ns;
}

void progress_fit_merge(struct progress_fit *f, const struct progress_fit *g, double sign)
{
	f->ios += sign * g->ios;
	f->bytes += sign * g->bytes;
	f->ns += sign * g->ns;
	f->ii += sign * g->ii;
	f->ib += sign * g->ib;
	f->bb += sign * g->bb;
	f->it += sign * g->it;
	f->bt += sign * g->bt;
	if (f->ns < 1 || f->bytes < 1)	/* all of it taken away (rounding aside) */
		memset(f, 0, sizeof(*f));
}

void progress_rates_like(struct progress_rates *r, int key, int like, double factor)
{
	if (key < 1 || key > PROGRESS_KEYS || like > PROGRESS_KEYS || like == key)
		return;
	r->like[key - 1] = like;
	r->factor[key - 1] = factor > 0 ? factor : 1;
}

void progress_rates_move(struct progress_rates *r, const struct progress_fit *f, int from, int to)
{
	if (from < 1 || from > PROGRESS_KEYS || to < 1 || to > PROGRESS_KEYS || from == to)
		return;
	progress_fit_merge(&r->k[from - 1], f, -1);
	progress_fit_merge(&r->k[to - 1], f, 1);
}

void progress_rates_add(struct progress_rates *r, int key, bool write, uint64_t io_bytes, double ios,
			double bytes, double ns)
{
	if (!(ns > 0) || !(bytes > 0))
		return;
	/* keyed work goes at a rate of its own: it does not stand for the rest of its kind */
	if (key > 0 && key <= PROGRESS_KEYS)
		progress_fit_add(&r->k[key - 1], ios, bytes, ns);
	else
		progress_fit_add(&r->c[class_of(write, io_bytes)], ios, bytes, ns);
}

/*
 * a (ns per I/O) and b (ns per byte) of one class; false if nothing was
 * measured. Large I/O is per byte only (its transfer dominates; a latency
 * fitted across runs of different rates would be an artefact of the mix).
 */
static bool fit(const struct progress_fit *f, bool small, double *a, double *b)
{
	if (f->ns < MIN_NS || f->bytes <= 0)
		return false;
	double det = f->ii * f->bb - f->ib * f->ib;
	if (small && det > 1e-6 * f->ii * f->bb) {
		*a = (f->it * f->bb - f->bt * f->ib) / det;
		*b = (f->bt * f->ii - f->it * f->ib) / det;
		if (*a >= 0 && *b >= 0)
			return true;
	}
	/*
	 * one size measured: per I/O where small I/Os were measured; per byte
	 * where large ones were, also for small I/Os planned (su04g's random
	 * runs, planned at 64 KiB, wrote rows of 512 KiB: eight times their time
	 * per I/O)
	 */
	bool per_io = small && f->bytes / f->ios < SMALL_IO;
	*a = per_io ? f->ns / f->ios : 0;
	*b = per_io ? 0 : f->ns / f->bytes;
	return true;
}

/* ns per I/O and per byte of large I/O of a kind: its own, the other kind's, or a slow card's */
static void large_rate(const struct progress_rates *r, bool write, double *a, double *b)
{
	if (fit(&r->c[class_of(write, SMALL_IO)], false, a, b))
		return;
	if (fit(&r->c[class_of(!write, SMALL_IO)], false, a, b)) {
		double k = write ? LARGE_WRITE_OVER_READ : 1 / LARGE_WRITE_OVER_READ;
		*a *= k;
		*b *= k;
		return;
	}
	*a = 0;
	*b = write ? DEFAULT_WRITE_NS_PER_BYTE : DEFAULT_READ_NS_PER_BYTE;
}

/*
 * Time of ios I/Os of io bytes each (bytes in all) of one class, borrowing
 * where unmeasured: large I/O from the other kind's large I/O; small reads
 * from large reads (per byte, and a latency), small writes from small reads
 * (writes cost more), else from large writes; never large from small (one
 * small write may cost a block's collection).
 */
static double class_ns(const struct progress_rates *r, bool write, double io, double ios,
		       double bytes)
{
	bool small = io < SMALL_IO;
	double a, b;

	if (fit(&r->c[class_of(write, (uint64_t)io)], small, &a, &b))
		return a * ios + b * bytes;
	if (small && write && fit(&r->c[class_of(false, (uint64_t)io)], true, &a, &b))
		return SMALL_WRITE_OVER_READ * (a * ios + b * bytes);
	large_rate(r, write, &a, &b);
	if (!small)
		return a * ios + b * bytes;
	double latency = write ? DEFAULT_WRITE_IO_NS : DEFAULT_READ_IO_NS;
	return bytes * (b > 0 ? b : a / SMALL_IO) + ios * latency;
}

/* Work of mixed sizes (io_bytes 0): the kind's time per byte over everything measured. */
static double mixed_ns(const struct progress_rates *r, bool write, double bytes)
{
	double ns = 0, moved = 0;

	for (int k = 0; k < 2; k++) {
		const struct progress_fit *f = &r->c[class_of(write, k ? 0 : SMALL_IO)];
		ns += f->ns;
		moved += f->bytes;
	}
	if (ns >= MIN_NS && moved > 0)
		return bytes * ns / moved;
	return class_ns(r, write, SMALL_IO, bytes / SMALL_IO, bytes);
}

/*
 * The fit of a key: its own, else that of the key it is like (its
 * factor times its time: *slower), down a chain of likes; by default key 1's,
 * PROGRESS_KEY_SLOW's at SLOW_KEY_FACTOR times it. false: none measured.
 */
static bool key_fit(const struct progress_rates *r, int key, bool small, double *a, double *b,
		    double *slower, int *source)
{
	*slower = 1;
	for (int depth = 0; depth <= PROGRESS_KEYS && key > 0 && key <= PROGRESS_KEYS; depth++) {
		*source = key;
		if (fit(&r->k[key - 1], small, a, b))
			return true;
		int like = r->like[key - 1];
		if (like < 0)	/* like no other key: the kinds' rates */
			return false;
		double factor = r->factor[key - 1] > 0 ? r->factor[key - 1] : 1;
		if (!like) {
			like = key == 1 ? 0 : 1;
			factor = key == PROGRESS_KEY_SLOW ? SLOW_KEY_FACTOR : 1;
		}
		*slower *= factor;
		key = like;
	}
	return false;
}

/* The time of work w at the rate key_fit finds for its key (source: whose); false: none measured. */
static bool key_ns(const struct progress_rates *r, const struct progress_work *w, int *source, double *ns)
{
	double a, b, slower, bytes = (double)w->bytes;
	bool small = w->io_bytes && w->io_bytes < SMALL_IO;

	if (!key_fit(r, w->key, small, &a, &b, &slower, source))
		return false;
	*ns = slower * (a * ceil(bytes / (w->io_bytes ? w->io_bytes : SMALL_IO)) + b * bytes);
	return true;
}

/*
 * Work of a key measured on fewer bytes than the work itself (source: the
 * key whose rate it takes): at the rate the key had before (of the key it
 * is like), not at that of the work's first part. The random reference's
 * second replica, planned from the first one's leading rows (its largest
 * writes, the fastest per byte), came out at a third of its time on cards
 * with no random slot; weighing the measured rate by the share measured
 * held 1302 of the 1454 figures of bench/eta.sh within 30%, by its square
 * 1312, its fourth power 1319, not at all until it covers the work 1334
 * (doc/card-facts.md). Keys like no other keep their own.
 */
static double young_key_ns(const struct progress_rates *r, const struct progress_work *w, int source,
			   double ns)
{
	if (source < 1 || source > PROGRESS_KEYS || r->like[source - 1] < 0)
		return ns;
	const struct progress_fit *own = &r->k[source - 1];
	if (!(own->ns >= MIN_NS) || own->bytes >= (double)w->bytes)
		return ns;
	struct progress_rates prior = *r;
	memset(&prior.k[source - 1], 0, sizeof(prior.k[0]));
	int from;
	double before;
	return key_ns(&prior, w, &from, &before) ? before : ns;
}

double progress_work_ns(const struct progress_rates *r, const struct progress_work *w)
{
	double bytes = (double)w->bytes, ns;

	if (w->bytes == 0)
		return w->pause_ns > 0 ? (double)w->pause_ns : 0;
	/*
	 * a key not measured yet goes at the rate of the key it is like, by
	 * default key 1's, the caller's usual case (PROGRESS_KEY_SLOW's at ten
	 * times its time: a run that collapses)
	 */
	int source;
	if (key_ns(r, w, &source, &ns))
		ns = young_key_ns(r, w, source, ns);
	else if (w->io_bytes == 0)
		ns = mixed_ns(r, w->write, bytes);
	else
		ns = class_ns(r, w->write, w->io_bytes, ceil(bytes / w->io_bytes), bytes);
	if (w->max_ns > 0 && ns > (double)w->max_ns)
		ns = (double)w->max_ns;
	return ns + (w->pause_ns > 0 ? (double)w->pause_ns : 0);
}

double progress_plan_ns(const struct progress_rates *r, const struct progress_work *items, int n)
{
	double ns = 0, gap = r->gaps > 0 ? r->gap_ns / r->gaps : 0;

	for (int i = 0; i < n; i++)
		ns += progress_work_ns(r, &items[i]) + gap;
	return ns;
}

double progress_current_ns(const struct progress_rates *r, const struct progress_work *w,
			   uint64_t done, double elapsed_ns, double recent_ns_per_byte)
{
	struct progress_work left = *w;
	double ns;

	left.max_ns = 0;
	left.pause_ns = 0;	/* under way: its pause is past */
	left.bytes = done < w->bytes ? w->bytes - done : 0;
	ns = progress_work_ns(r, &left);
	if (done > 0) {
		/*
		 * its own rate, trusted more the further it got (in bytes, or in
		 * its time): the latest one (a run whose rows get slower, a FAT
		 * run's smaller chunks), else its average
		 */
		double own = recent_ns_per_byte > 0 ? recent_ns_per_byte * (double)left.bytes
						    : elapsed_ns * (double)left.bytes / (double)done;
		double got = (double)done / (double)w->bytes;
		if (w->max_ns > 0 && elapsed_ns / (double)w->max_ns > got)
			got = elapsed_ns / (double)w->max_ns;
		double trust = 4.0 * got > 1 ? 1 : 4.0 * got;
		ns = trust * own + (1 - trust) * ns;
	}
	if (w->max_ns > 0 && ns > (double)w->max_ns - elapsed_ns)
		ns = (double)w->max_ns - elapsed_ns;
	return ns > 0 ? ns : 0;
}
