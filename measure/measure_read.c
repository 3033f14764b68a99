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
 * i-th read (the VM's -s order; a failed read carries no offset).
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
 * its order, one pass per --count try, each read --scatter-span blocks.
 * (Places past the end, which the original took modulo the size, are
 * refused by scatter_check.)
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
	measure_begin(&m, d);
	struct vm_program *prog = m.prog;
	struct vm_op *pass = vm_op(prog, VM_OFF_SCATTER, (int64_t)p->blocksize, (int64_t)n,
				   vm_op(prog, VM_READ, 0, 0, NULL));
	struct vm_op *op = vm_op(prog, VM_LEN_FIXED, (int64_t)r->span_bytes, 0,
				 vm_op(prog, VM_REPEAT, p->count, 0, pass));
	uint64_t *order = calloc(n, sizeof *order);
	if (!order || measure_start(&m, p, op, 0) < 0) {
		free(order);
		if (!order) {
			m.c.stopped = true;
			m.c.nfailures = 1;
			m.c.first_failure = (struct vm_failure){ .len = n, .err = ENOMEM, .op = VM_READ };
		}
		return measure_finish(&m, &r->st);
	}
	struct vm_order o;
	vm_scatter_order_init(&o, n);	/* the order OFF_SCATTER visits the places in */
	for (uint64_t i = 0; i < n; i++)
		order[i] = vm_order_next(&o);
	progress_start("scatter", NULL, n * (uint64_t)p->count * r->span_bytes);
	struct vm_result *res = vm_run(&m.c, prog, op, 0);
	scatter_points_from(r, res, order, n, m.c.interrupted);
	free(order);
	return measure_finish(&m, &r->st);
}

void scatter_result_free(struct scatter_result *r)
{
	free(r->points);
	r->points = NULL;
}

/* ---------------------------------------------------------------- -i */

/*
 * The original's fit, in its single precision: least squares time =
 * access + bytes * slope over the rows' minimum times, leaving out the
 * smallest sizes, whose times are mostly command overhead. The access time
 * is cut to whole ns as the original printed it.
 */
static void interval_fit(struct interval_result *r)
{
	float n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;

	for (int i = INTERVAL_FIT_SKIP; i < r->nrows; i++) {
		if (r->rows[i].failed)
			continue;
		float x = (float)r->rows[i].bytes, y = (float)r->rows[i].min_ns;
		n++; sx += x; sy += y; sxx += x * x; sxy += x * y;
	}
	float den = n * sxx - sx * sx;
	r->fit = FIT_TOO_FEW_SIZES;
	if (n < 2 || den == 0)
		return;
	float slope = (n * sxy - sx * sy) / den;	/* ns per byte */
	r->fit = FIT_NOT_RISING;
	if (!(slope > 0))
		return;
	r->fit = FIT_OK;
	r->fit_slope = slope;
	r->fit_rate = 1e9 / (double)slope;
	r->fit_access_ns = (int64_t)((sy - slope * sx) / n);
}

/* min, average and max of one size's tries */
static void interval_row_from(struct interval_row *row, const struct vm_result *tries)
{
	int64_t sum = 0;

	if (tries->kind != VR_LIST || tries->nitems == 0) {
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
	row->avg_ns = sum / tries->nitems;
	row->rate = row->min_ns > 0 ? (double)row->bytes * 1e9 / (double)row->min_ns : 0;
}

/* The original's sizes: 512 bytes doubling, --interval-order of them. */
static uint64_t interval_size(int i)
{
	return (uint64_t)INTERVAL_SMALLEST << i;
}

/* Per size: --count reads, INTERVAL_STRIDE sizes apart from the base, as the original. */
static struct vm_op *interval_size_program(struct vm_program *prog, const struct params *p,
					   uint64_t size)
{
	struct vm_op *tries = vm_op(prog, VM_OFF_LIN, (int64_t)(INTERVAL_STRIDE * size), p->count,
				    vm_op(prog, VM_READ, 0, 0, NULL));
	return vm_op(prog, VM_LEN_FIXED, (int64_t)size, 0, tries);
}

int measure_interval(struct dev *d, const struct params *p, struct interval_result *r)
{
	uint64_t base = p->offset_set ? p->offset : 0;
	struct vm_op *ops[64];
	struct measurement m;
	int n = (int)p->interval_order;

	memset(r, 0, sizeof *r);
	r->rows = calloc((size_t)n, sizeof *r->rows);
	if (!r->rows || n > 64)
		return -1;
	measure_begin(&m, d);
	uint64_t bytes = 0;
	for (int i = 0; i < n; i++) {
		ops[i] = interval_size_program(m.prog, p, interval_size(i));
		if (interval_size(i) >= d->lbs)
			bytes += interval_size(i) * (uint64_t)p->count;
	}
	if (measure_start(&m, p, NULL, interval_largest(d, p)) < 0)
		return measure_finish(&m, &r->st);
	progress_start("interval", NULL, bytes);
	for (int i = 0; i < n && !measure_stopped(&m); i++) {
		struct interval_row *row = &r->rows[r->nrows++];
		row->bytes = interval_size(i);
		if (row->bytes < d->lbs) {	/* O_DIRECT cannot read it: the original's reads failed */
			row->failed = row->too_small = true;
			continue;
		}
		interval_row_from(row, vm_run(&m.c, m.prog, ops[i], base));
		if (row->failed && m.c.interrupted) {
			r->nrows--;	/* cut short, not failed: leave it out */
			break;
		}
	}
	interval_fit(r);
	return measure_finish(&m, &r->st);
}

void interval_result_free(struct interval_result *r)
{
	free(r->rows);
	r->rows = NULL;
}
