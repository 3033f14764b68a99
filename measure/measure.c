#include "measure/measure.h"
#include "measure/measure_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/progress.h"
#include "lib/units.h"

#define MiB (1024ull * 1024)
#define ALIGN_POSITIONS 7

void params_defaults(struct params *p)
{
	memset(p, 0, sizeof *p);
	p->blocksize = 16 * 1024;
	p->erasesize = 4 * MiB;
	p->count = 8;
	p->open_au_nr = 2;
	p->fat_nr = 6;
	p->scatter_order = 9;
	p->scatter_span = 1;
	p->interval_order = -1;
	p->on_read_error = VM_ERR_CONTINUE;
	p->on_write_error = VM_ERR_STOP;
}

/* ---------------------------------------------------------------- checks */

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A transfer size: non-zero multiple of the logical block size. */
static int check_io_size(const struct dev *d, const char *opt, uint64_t v, char *err, size_t n)
{
	if (v == 0)
		return fail(err, n, "%s=0: must be at least %u", opt, d->lbs);
	if (v % d->lbs)
		return fail(err, n, "%s=%" PRIu64 ": not a multiple of the logical block size (%u) of %s",
			    opt, v, d->lbs, d->path);
	if (v > d->size) {
		char a[FMT_BUF];
		return fail(err, n, "%s=%" PRIu64 ": larger than %s (%s)", opt, v, d->path,
			    fmt_size(a, d->size));
	}
	return 0;
}

/* a*b, or UINT64_MAX when it overflows: then no span check can pass */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static int check_nonempty(const struct dev *d, char *err, size_t n)
{
	if (d->size == 0)
		return fail(err, n, "%s: device is empty", d->path);
	return 0;
}

/* Every size from erasesize halving down to blocksize must be a valid transfer. */
static int check_halvings(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (check_io_size(d, "--erasesize", p->erasesize, err, n) ||
	    check_io_size(d, "--blocksize", p->blocksize, err, n))
		return -1;
	if (p->blocksize > p->erasesize)
		return fail(err, n, "--blocksize=%" PRIu64 ": larger than --erasesize=%" PRIu64,
			    p->blocksize, p->erasesize);
	for (uint64_t s = p->erasesize; s >= p->blocksize; s /= 2)
		if (s % d->lbs)
			return fail(err, n, "--erasesize=%" PRIu64 ": halving it gives %" PRIu64
				    ", not a multiple of the logical block size (%u); pick a --blocksize that divides it",
				    p->erasesize, s, d->lbs);
	return 0;
}

/* opt names the option (and value) to change, e.g. "--fat-nr=20". */
static int check_span_fits(const struct dev *d, const char *opt, uint64_t off, uint64_t len,
			   char *err, size_t n)
{
	if (off > d->size || len > d->size - off) {
		char a[FMT_BUF], b[FMT_BUF];
		return fail(err, n, "%s: needs %s from offset %" PRIu64 " but %s has only %s",
			    opt, fmt_size(a, len), off, d->path, fmt_size(b, d->size));
	}
	return 0;
}

int align_check(const struct dev *d, const struct params *p, char *err, size_t n)
{
	uint64_t b[128];

	if (check_nonempty(d, err, n) || check_io_size(d, "--blocksize", p->blocksize, err, n))
		return -1;
	if (p->blocksize % (2ull * d->lbs))
		return fail(err, n, "--blocksize=%" PRIu64 ": -a reads across boundaries at half a block, so it must be a multiple of %u on %s",
			    p->blocksize, 2 * d->lbs, d->path);
	if (p->count < 1)
		return fail(err, n, "--count=%lld: must be at least 1", p->count);
	if (align_boundaries(d->size, p->blocksize, d->lbs, b, 128) < 1)
		return fail(err, n, "--blocksize=%" PRIu64 ": %s is too small for -a with this block size (it needs 4 blocks, %" PRIu64 " bytes)",
			    p->blocksize, d->path, mul_sat(4, p->blocksize));
	return 0;
}

uint64_t open_au_default_offset(const struct params *p)
{
	uint64_t e = p->erasesize ? p->erasesize : 1;
	return (16 * MiB + e - 1) / e * e;
}

uint64_t open_au_offset(const struct params *p)
{
	return p->offset_set ? p->offset : open_au_default_offset(p);
}

/* From the first --open-au erase block to the end of the last, spacing erase sizes apart. */
static uint64_t open_au_reach(const struct params *p, unsigned int spacing)
{
	return mul_sat(p->erasesize, (uint64_t)(p->open_au_nr - 1) * spacing + 1);
}

/*
 * The original's 12 erase sizes between the erase blocks, or where that
 * does not fit on the device the widest spacing that does (>= 1). (The
 * original took the offsets modulo the size instead: erase blocks in the
 * FAT area at 0, across the end, or on top of each other.)
 */
unsigned int open_au_spacing(const struct dev *d, const struct params *p)
{
	uint64_t off = p->offset_set ? p->offset : open_au_default_offset(p);

	for (unsigned int s = OPEN_AU_SPACING; s > 1; s--)
		if (off <= d->size && open_au_reach(p, s) <= d->size - off)
			return s;
	return 1;
}

static int check_offset(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (p->offset_set && p->offset % d->lbs)
		return fail(err, n, "--offset=%" PRIu64 ": not a multiple of the logical block size (%u) of %s",
			    p->offset, d->lbs, d->path);
	if (p->offset_set && p->offset >= d->size)
		return fail(err, n, "--offset=%" PRIu64 ": beyond the end of %s (%" PRIu64 " bytes)",
			    p->offset, d->path, d->size);
	return 0;
}

int open_au_check(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (check_nonempty(d, err, n) || check_halvings(d, p, err, n) || check_offset(d, p, err, n))
		return -1;
	if (p->open_au_nr < 1 || p->open_au_nr > OPEN_AU_NR_LIMIT)
		return fail(err, n, "--open-au-nr=%lld: must be between 1 and %d", p->open_au_nr,
			    OPEN_AU_NR_LIMIT);
	char opt[64];
	snprintf(opt, sizeof opt, "--open-au-nr=%lld", p->open_au_nr);
	return check_span_fits(d, opt, open_au_offset(p), open_au_reach(p, 1), err, n);
}

int find_fat_check(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (check_nonempty(d, err, n) || check_halvings(d, p, err, n))
		return -1;
	if (p->fat_nr < 1 || p->fat_nr > RATE_MAX_COLS)
		return fail(err, n, "--fat-nr=%lld: must be between 1 and %d", p->fat_nr, RATE_MAX_COLS);
	char opt[64];
	snprintf(opt, sizeof opt, "--fat-nr=%lld", p->fat_nr);
	return check_span_fits(d, opt, 0, mul_sat(p->erasesize, (uint64_t)p->fat_nr), err, n);
}

uint64_t scatter_points(const struct params *p)
{
	return 1ull << p->scatter_order;
}

int scatter_check(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (check_nonempty(d, err, n) || check_io_size(d, "--blocksize", p->blocksize, err, n))
		return -1;
	if (p->scatter_order < 0 || p->scatter_order > 24)
		return fail(err, n, "--scatter-order=%lld: must be between 0 and 24", p->scatter_order);
	if (p->scatter_span < 1 || p->scatter_span > 1 << 20)
		return fail(err, n, "--scatter-span=%lld: must be between 1 and %d", p->scatter_span, 1 << 20);
	if (p->count < 1)
		return fail(err, n, "--count=%lld: must be at least 1", p->count);
	/* the original wrapped places beyond the end to the start, reading some twice: refused */
	char opt[64];
	snprintf(opt, sizeof opt, "--scatter-order=%lld", p->scatter_order);
	return check_span_fits(d, opt, 0, mul_sat(p->blocksize, scatter_points(p) - 1 +
						 (uint64_t)p->scatter_span), err, n);
}

uint64_t interval_largest(const struct dev *d, const struct params *p)
{
	(void)d;
	return (uint64_t)INTERVAL_SMALLEST << (p->interval_order - 1);
}

int interval_check(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (check_nonempty(d, err, n) || check_offset(d, p, err, n))
		return -1;
	if (p->interval_order < 1 || p->interval_order > 24)
		return fail(err, n, "--interval-order=%lld: must be between 1 and 24", p->interval_order);
	if (p->count < 1)
		return fail(err, n, "--count=%lld: must be at least 1", p->count);
	char opt[64];
	snprintf(opt, sizeof opt, "--interval-order=%lld", p->interval_order);
	if (interval_largest(d, p) < d->lbs)
		return fail(err, n, "%s: every size (512 bytes doubling) is below the logical block size (%u) of %s",
			    opt, d->lbs, d->path);
	/* the largest size's last read, 9 sizes per read from the start as the original */
	uint64_t largest = interval_largest(d, p);
	uint64_t reach = mul_sat(largest, (uint64_t)(p->count - 1) * INTERVAL_STRIDE + 1);
	return check_span_fits(d, opt, p->offset_set ? p->offset : 0, reach, err, n);
}

uint64_t program_offset(const struct params *p)
{
	return p->offset_set ? p->offset : PROGRAM_OFFSET;
}

/* The original's sizes, 2 MiB down to 512 bytes (or the logical block size). */
uint64_t program_smallest(const struct dev *d)
{
	return d->lbs > 512 ? d->lbs : 512;
}

int program_check(const struct dev *d, const struct params *p, char *err, size_t n)
{
	if (check_nonempty(d, err, n) || check_offset(d, p, err, n))
		return -1;
	if (PROGRAM_LARGEST % d->lbs)
		return fail(err, n, "%s: logical block size %u does not divide -p's 2MiB chunks", d->path, d->lbs);
	return check_span_fits(d, "-p", program_offset(p), PROGRAM_REGION, err, n);
}

/* ------------------------------------------------------------------ spans */

int open_au_spans(const struct dev *d, const struct params *p, struct span *out, int max)
{
	uint64_t stride = open_au_spacing(d, p) * p->erasesize;
	int n = 0;

	for (long long i = 0; i < p->open_au_nr && n < max; i++)
		out[n++] = (struct span){ open_au_offset(p) + (uint64_t)i * stride, p->erasesize };
	return n;
}

int find_fat_spans(const struct dev *d, const struct params *p, struct span *out, int max)
{
	(void)d;
	if (max < 1)
		return 0;
	out[0] = (struct span){ 0, p->erasesize * (uint64_t)p->fat_nr };
	return 1;
}

int program_spans(const struct dev *d, const struct params *p, struct span *out, int max)
{
	(void)d;
	if (max < 1)
		return 0;
	out[0] = (struct span){ program_offset(p), PROGRAM_REGION };
	return 1;
}

/* ------------------------------------------------------------ the runner */

void measure_begin(struct measurement *m, struct dev *d)
{
	memset(m, 0, sizeof *m);
	m->d = d;
	m->prog = vm_new_program();
	m->written0 = d->bytes_written;
	m->ns0 = d->device_ns;
}

static void progress_io(uint64_t bytes, bool written, void *arg)
{
	(void)arg;
	progress_tick(bytes, written);
}

/* The buffer holds max_len bytes (0: the largest length in op). */
int measure_start(struct measurement *m, const struct params *p, const struct vm_op *op,
		   uint64_t max_len)
{
	if (!max_len)
		max_len = vm_max_length(op);
	if (vm_ctx_init(&m->c, m->d, max_len) < 0) {
		m->c.stopped = true;	/* nothing measured: a failure, never numbers */
		m->c.nfailures = 1;
		m->c.first_failure = (struct vm_failure){ .len = max_len, .err = ENOMEM, .op = VM_READ };
		return -1;
	}
	m->c.on_read_error = p->on_read_error;
	m->c.on_write_error = p->on_write_error;
	m->c.io_done = progress_io;
	return 0;
}

bool measure_stopped(struct measurement *m)
{
	if (vm_stop_requested)
		m->c.stopped = m->c.interrupted = true;
	return m->c.stopped;
}

int measure_finish(struct measurement *m, struct run_status *st)
{
	measure_stopped(m);
	st->interrupted = m->c.interrupted;
	st->stopped = m->c.stopped;
	st->nfailures = m->c.nfailures;
	st->first_failure = m->c.first_failure;
	st->partial = m->c.stopped || m->c.nfailures;
	st->bytes_written = m->d->bytes_written - m->written0;
	st->device_ns = m->d->device_ns - m->ns0;
	vm_ctx_free(&m->c);
	vm_free_program(m->prog);
	progress_done();
	return st->partial ? -1 : 0;
}

/* A row is complete: let the caller show it. */
void measure_row_done(const struct params *p)
{
	if (p->row_done)
		p->row_done(p->row_done_arg);
}

/* ---------------------------------------------------------------- -a */

static void add_boundary(uint64_t a, uint64_t bs, unsigned int lbs, uint64_t *out, int *n, int max)
{
	if (a >= 2 * bs && a % lbs == 0 && *n < max)
		out[(*n)++] = a;
}

/*
 * The original's top boundary M: twice the block size, doubled while it is
 * below size / 7 (so 2 * bs * 2^k; a power of two when bs is one).
 */
static uint64_t align_top(uint64_t size, uint64_t bs)
{
	uint64_t top = 2 * bs;

	while (top < size / ALIGN_POSITIONS && top <= UINT64_MAX / 2)
		top *= 2;
	return top;
}

/*
 * The original's rows M, M/2, ... down to twice the block size; where M is
 * a power of two, the 3*2^n boundaries between them too (ours, for the
 * 3*2^n erase blocks of TLC cards).
 */
int align_boundaries(uint64_t size, uint64_t bs, unsigned int lbs, uint64_t *out, int max)
{
	int n = 0;

	if (bs == 0 || size / 4 < bs)	/* a boundary at 2 blocks, read up to a block past it */
		return 0;
	uint64_t top = align_top(size, bs);
	bool pow2 = (top & (top - 1)) == 0;
	for (uint64_t a = top; a >= 2 * bs; a /= 2) {
		add_boundary(a, bs, lbs, out, &n, max);
		if (pow2 && a >= 4)
			add_boundary(a / 4 * 3, bs, lbs, out, &n, max);
	}
	return n;
}

/*
 * The original's places for boundary a: k * M + a for k = 0..6, taken
 * modulo the device size by the VM (a read across the end continues at 0).
 */
static int align_places(uint64_t size, uint64_t a, uint64_t bs, uint64_t place[ALIGN_POSITIONS])
{
	uint64_t top = align_top(size, bs);

	for (int k = 0; k < ALIGN_POSITIONS; k++)
		place[k] = (uint64_t)(((unsigned __int128)top * (uint64_t)k + a) % size);
	return ALIGN_POSITIONS;
}

/*
 * --auto's places: up to seven multiples of a, a power-of-two multiple of a
 * apart, so a 6 MiB row on a 12 MiB card only lands on odd multiples of
 * 6 MiB and stays cleanly low. Fewer places where the device is small.
 */
static int align_spread_places(uint64_t size, uint64_t a, uint64_t bs,
			       uint64_t place[ALIGN_POSITIONS])
{
	uint64_t step = a;
	int n = 0;

	while (a + (ALIGN_POSITIONS - 1) * step * 2 + bs <= size)
		step *= 2;
	for (uint64_t p = a; n < ALIGN_POSITIONS && p + bs <= size; p += step)
		place[n++] = p;
	return n;
}

/*
 * Read one block at each place, delta (-bs <= delta <= 0) bytes from it,
 * modulo the size: a VM_SEQ of 7.
 */
static struct vm_op *align_sweep(struct vm_program *prog, uint64_t size, const uint64_t *place,
				 int n, int64_t delta)
{
	struct vm_op *reads[ALIGN_POSITIONS];

	for (int k = 0; k < n; k++)
		reads[k] = vm_op(prog, VM_OFF_FIXED,
				 (int64_t)((place[k] + size - (uint64_t)-delta) % size), 0,
				 vm_op(prog, VM_READ, 0, 0, NULL));
	return vm_seq(prog, n, reads);
}

/*
 * One row, as the original: each try reads the "pre" block (ending at the
 * boundary) at all 7 places, then the "on" block (straddling it) at all 7,
 * then the "post" block (starting at it) at all 7. Run at offset 0.
 */
static struct vm_op *align_row_program(struct vm_program *prog, const struct params *p,
				       uint64_t size, const uint64_t *place, int n)
{
	int64_t bs = (int64_t)p->blocksize;
	struct vm_op *three[3] = {
		align_sweep(prog, size, place, n, -bs),
		align_sweep(prog, size, place, n, -bs / 2),
		align_sweep(prog, size, place, n, 0),
	};
	struct vm_op *tries = vm_op(prog, VM_REPEAT, p->count, 0, vm_seq(prog, 3, three));
	return vm_op(prog, VM_LEN_FIXED, bs, 0, tries);
}

/* res: tries x {pre, on, post} x places; minimum per place, average over places */
static void align_row_from(struct align_row *row, const struct vm_result *res)
{
	const int n = row->positions;
	int64_t best[3][ALIGN_POSITIONS], sum[3] = { 0 };

	for (int k = 0; k < 3; k++)
		for (int i = 0; i < ALIGN_POSITIONS; i++)
			best[k][i] = INT64_MAX;
	if (res->kind != VR_LIST || res->nitems == 0) {
		row->failed = true;
		return;
	}
	for (int t = 0; t < res->nitems; t++) {
		const struct vm_result *try = &res->items[t];
		for (int k = 0; k < 3; k++) {
			const struct vm_result *sweep = try->kind == VR_LIST && try->nitems == 3 ? &try->items[k] : NULL;
			if (!sweep || sweep->kind != VR_LIST || sweep->nitems != n) {
				row->failed = true;	/* cut short by an interrupt */
				return;
			}
			for (int i = 0; i < n; i++) {
				const struct vm_result *s = &sweep->items[i];
				if (s->kind != VR_SAMPLE) {
					row->failed = true;
					return;
				}
				if (s->ns < best[k][i])
					best[k][i] = s->ns;
			}
		}
	}
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < n; i++)
			sum[k] += best[k][i];
	row->pre_ns = sum[0] / n;
	row->on_ns = sum[1] / n;
	row->post_ns = sum[2] / n;
	row->diff_ns = row->on_ns - (row->pre_ns + row->post_ns) / 2;
}

int measure_align(struct dev *d, const struct params *p, struct align_result *r)
{
	uint64_t bounds[128], place[ALIGN_POSITIONS];
	int n = align_boundaries(d->size, p->blocksize, d->lbs, bounds, 128);
	struct vm_op *ops[128];
	struct measurement m;

	memset(r, 0, sizeof *r);
	r->blocksize = p->blocksize;
	r->count = p->count;
	r->rows = calloc((size_t)(n ? n : 1), sizeof *r->rows);
	if (!r->rows)
		return -1;
	uint64_t reads = 0;
	measure_begin(&m, d);
	for (int i = 0; i < n; i++) {
		r->rows[i].align = bounds[i];
		r->rows[i].positions = p->align_spread
			? align_spread_places(d->size, bounds[i], p->blocksize, place)
			: align_places(d->size, bounds[i], p->blocksize, place);
		reads += (uint64_t)r->rows[i].positions * 3 * (uint64_t)p->count;
		ops[i] = align_row_program(m.prog, p, d->size, place, r->rows[i].positions);
	}
	if (measure_start(&m, p, NULL, p->blocksize) < 0)
		return measure_finish(&m, &r->st);
	m.c.wrap = true;	/* places past the end: read across it and on at 0, as the original */
	progress_start("align", NULL, reads * p->blocksize);
	for (int i = 0; i < n && !measure_stopped(&m); i++) {
		struct align_row *row = &r->rows[r->nrows++];
		align_row_from(row, vm_run(&m.c, m.prog, ops[i], 0));
		if (!(row->failed && measure_stopped(&m) && m.c.interrupted))
			measure_row_done(p);
	}
	if (measure_stopped(&m) && m.c.interrupted && r->nrows && r->rows[r->nrows - 1].failed)
		r->nrows--;	/* cut short, not failed: leave it out */
	return measure_finish(&m, &r->st);
}

void align_result_free(struct align_result *r)
{
	free(r->rows);
	r->rows = NULL;
}

/* ------------------------------------------------------------ --discard */

int measure_discard(struct dev *d, const struct params *p, uint64_t off, uint64_t len,
		    struct discard_result *r)
{
	struct measurement m;

	memset(r, 0, sizeof *r);
	r->off = off;
	r->len = len;
	measure_begin(&m, d);
	struct vm_op *op = vm_op(m.prog, VM_LEN_FIXED, (int64_t)len, 0,
				 vm_op(m.prog, VM_DISCARD, 0, 0, NULL));
	if (measure_start(&m, p, op, d->lbs) < 0)	/* a discard moves no data through the buffer */
		return measure_finish(&m, &r->st);
	const struct vm_result *res = vm_run(&m.c, m.prog, op, off);
	r->failed = res->kind != VR_SAMPLE;
	r->ns = r->failed ? 0 : res->ns;
	return measure_finish(&m, &r->st);
}

void measure_dev_facts_fill(struct dev_facts *f, const struct dev *d)
{
	*f = (struct dev_facts){
		.path = d->path,
		.kind = dev_kind(d),
		.size = d->size,
		.lbs = d->lbs,
		.pbs = d->pbs,
		.writable = d->writable,
	};
}
