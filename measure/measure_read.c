/* -s (scatter) and -i (interval): read-only sweeps of the device. */
#include "measure/measure.h"
#include "measure/measure_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/progress.h"

/* ---------------------------------------------------------------- -s */

/*
 * The minimum per place over the passes. order[i] is the place of a pass's
 * i-th read (the VM's LFSR order; a failed read carries no offset).
 */
static void scatter_points_from(struct scatter_result *r, const struct vm_result *passes,
				const uint64_t *order, uint64_t n, bool interrupted)
{
	uint64_t *seen = calloc(n, sizeof *seen);

	if (!seen)
		return;
	for (uint64_t j = 0; j < n; j++)
		r->points[j] = (struct scatter_point){ .off = j * r->blocksize, .min_ns = INT64_MAX };
	for (int t = 0; passes->kind == VR_LIST && t < passes->nitems; t++) {
		const struct vm_result *pass = &passes->items[t];
		for (int i = 0; pass->kind == VR_LIST && i < pass->nitems; i++) {
			const struct vm_result *s = &pass->items[i];
			uint64_t j = order[i];
			if ((uint64_t)i >= n || j >= n)
				continue;
			seen[j]++;
			if (s->kind != VR_SAMPLE)
				r->points[j].failed = true;
			else if (s->ns < r->points[j].min_ns)
				r->points[j].min_ns = s->ns;
		}
	}
	for (uint64_t j = 0; j < n; j++) {
		struct scatter_point pt = r->points[j];
		if (!seen[j] && interrupted)
			continue;	/* cut short, not failed: leave it out */
		pt.failed = pt.failed || !seen[j];
		if (pt.failed)
			pt.min_ns = 0;
		r->points[r->npoints++] = pt;
	}
	free(seen);
}

/*
 * -s as the original: the places j * blocksize for j < 2^order, visited in
 * LFSR order, one pass per --count try, each read --scatter-span blocks.
 */
int measure_scatter(struct dev *d, const struct params *p, struct scatter_result *r)
{
	uint64_t n = scatter_points(p);
	struct measurement m;

	memset(r, 0, sizeof *r);
	r->blocksize = p->blocksize;
	r->span_bytes = p->blocksize * (uint64_t)p->scatter_span;
	r->points = calloc(n, sizeof *r->points);
	if (!r->points)
		return -1;
	m_begin(&m, d);
	struct vm_program *prog = m.prog;
	struct vm_op *pass = vm_op(prog, VM_OFF_RAND, (int64_t)p->blocksize, (int64_t)n,
				   vm_op(prog, VM_READ, 0, 0, NULL));
	struct vm_op *op = vm_op(prog, VM_LEN_FIXED, (int64_t)r->span_bytes, 0,
				 vm_op(prog, VM_REPEAT, p->count, 0, pass));
	uint64_t *order = calloc(n, sizeof *order);
	if (!order || m_start(&m, p, op, 0) < 0) {
		free(order);
		if (!order) {
			m.c.stopped = true;
			m.c.nfailures = 1;
			m.c.first_failure = (struct vm_failure){ .len = n, .err = ENOMEM, .op = VM_READ };
		}
		return m_finish(&m, &r->st);
	}
	struct lfsr l;
	lfsr_init(&l, n, (uint32_t)m.c.seed);	/* the order OFF_RAND visits the places in */
	for (uint64_t i = 0; i < n; i++)
		order[i] = lfsr_next(&l);
	progress_start("scatter", NULL, n * (uint64_t)p->count * r->span_bytes);
	struct vm_result *res = vm_run(&m.c, prog, op, 0);
	scatter_points_from(r, res, order, n, m.c.interrupted);
	free(order);
	return m_finish(&m, &r->st);
}

void scatter_result_free(struct scatter_result *r)
{
	free(r->points);
	r->points = NULL;
}

/* ---------------------------------------------------------------- -i */

/*
 * Least squares time = access + bytes / rate over the rows' minimum times,
 * leaving out the smallest sizes, whose times are mostly command overhead.
 */
static void interval_fit(struct interval_result *r)
{
	double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;

	for (int i = INTERVAL_FIT_SKIP; i < r->nrows; i++) {
		if (r->rows[i].failed)
			continue;
		double x = (double)r->rows[i].bytes, y = (double)r->rows[i].min_ns;
		n++; sx += x; sy += y; sxx += x * x; sxy += x * y;
	}
	double den = n * sxx - sx * sx;
	r->fit = FIT_TOO_FEW_SIZES;
	if (n < 2 || den == 0)
		return;
	double slope = (n * sxy - sx * sy) / den;	/* ns per byte */
	r->fit = FIT_NOT_RISING;
	if (slope <= 0)
		return;
	r->fit = FIT_OK;
	r->fit_rate = 1e9 / slope;
	r->fit_access_ns = (int64_t)((sy - slope * sx) / n);
}

/* min, average and max of one size's tries; res is (warm-up, tries) */
static void interval_row_from(struct interval_row *row, const struct vm_result *res)
{
	const struct vm_result *tries = res->kind == VR_LIST && res->nitems == 2 ? &res->items[1] : res;
	int64_t sum = 0;

	if (tries->kind != VR_LIST) {
		row->failed = true;
		return;
	}
	row->min_ns = INT64_MAX;
	row->max_ns = 0;
	for (int t = 0; t < tries->nitems; t++) {
		const struct vm_result *s = &tries->items[t];
		if (s->kind != VR_SAMPLE) {
			row->failed = true;
			return;
		}
		sum += s->ns;
		row->min_ns = s->ns < row->min_ns ? s->ns : row->min_ns;
		row->max_ns = s->ns > row->max_ns ? s->ns : row->max_ns;
	}
	if (tries->nitems == 0) {
		row->failed = true;
		return;
	}
	row->avg_ns = sum / tries->nitems;
	row->rate = row->min_ns > 0 ? (double)row->bytes * 1e9 / (double)row->min_ns : 0;
}

/*
 * Distance between the reads of one size: the warm-up and each try read a
 * different place (a card's read buffer must not serve a try), 1 + count
 * places of the largest size from the base if they fit, closer otherwise.
 */
static uint64_t interval_stride(const struct dev *d, const struct params *p, uint64_t base)
{
	uint64_t largest = interval_largest(d, p), room = d->size - base - largest;
	uint64_t stride = room / (uint64_t)p->count / d->lbs * d->lbs;

	return stride < largest ? stride : largest;
}

/*
 * Per size (512 B doubling): a warm-up read whose time is dropped, then
 * --count reads, stride bytes apart after it.
 */
static struct vm_op *interval_program(struct vm_program *prog, const struct dev *d,
				      const struct params *p, uint64_t stride)
{
	struct vm_op *tries = vm_op(prog, VM_OFF_LIN, (int64_t)stride, p->count,
				    vm_op(prog, VM_READ, 0, 0, NULL));
	if (!stride)	/* OFF_LIN with stride 0 means "the length": keep the place */
		tries = vm_op(prog, VM_REPEAT, p->count, 0, vm_op(prog, VM_READ, 0, 0, NULL));
	struct vm_op *steps[2] = {
		vm_op(prog, VM_DROP, 0, 0, vm_op(prog, VM_READ, 0, 0, NULL)),
		vm_op(prog, VM_OFF_FIXED, (int64_t)stride, 0, tries),
	};
	return vm_op(prog, VM_LEN_POW2_UP, d->lbs, (int64_t)interval_largest(d, p),
		     vm_seq(prog, 2, steps));
}

int measure_interval(struct dev *d, const struct params *p, struct interval_result *r)
{
	uint64_t base = p->offset_set ? p->offset : 0;
	struct measurement m;

	memset(r, 0, sizeof *r);
	r->rows = calloc((size_t)p->interval_order, sizeof *r->rows);
	if (!r->rows)
		return -1;
	r->stride = interval_stride(d, p, base);
	m_begin(&m, d);
	struct vm_op *op = interval_program(m.prog, d, p, r->stride);
	if (m_start(&m, p, op, 0) < 0)
		return m_finish(&m, &r->st);
	/* a warm-up read, then --count reads, of every size */
	progress_start("interval", NULL,
		       (((uint64_t)d->lbs << p->interval_order) - d->lbs) * (uint64_t)(p->count + 1));
	struct vm_result *res = vm_run(&m.c, m.prog, op, base);
	for (int i = 0; i < res->nitems; i++) {
		struct interval_row *row = &r->rows[r->nrows++];
		row->bytes = (uint64_t)d->lbs << i;
		interval_row_from(row, &res->items[i]);
		if (row->failed && m.c.interrupted) {
			r->nrows--;	/* cut short, not failed: leave it out */
			break;
		}
	}
	interval_fit(r);
	return m_finish(&m, &r->st);
}

void interval_result_free(struct interval_result *r)
{
	free(r->rows);
	r->rows = NULL;
}
