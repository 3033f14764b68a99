/* The original flashbench's text output, without its truncation bugs. */
#include <inttypes.h>
#include <string.h>

#include "report/report.h"
#include "lib/units.h"

static void align_rows(FILE *f, const struct align_result *r, int from)
{
	char pre[FMT_BUF], on[FMT_BUF], post[FMT_BUF], diff[FMT_BUF];

	for (int i = from; i < r->nrows; i++) {
		const struct align_row *row = &r->rows[i];
		if (row->failed) {
			fprintf(f, "align %" PRIu64 "\tread failed\n", row->align);
			continue;
		}
		fprintf(f, "align %" PRIu64 "\tpre %s\ton %s\tpost %s\tdiff %s\n", row->align,
			fmt_time(pre, row->pre_ns), fmt_time(on, row->on_ns),
			fmt_time(post, row->post_ns), fmt_time(diff, row->diff_ns));
	}
}

void text_align(FILE *f, const struct align_result *r)
{
	align_rows(f, r, 0);
}

/*
 * A field as the original printed it: padded to 7 bytes, then a space
 * (the size column and --open-au's rate), or two (the rates of --find-fat
 * and -p).
 */
static void field(FILE *f, const char *s)
{
	fprintf(f, "%-7s ", s);
}

static void wide_field(FILE *f, const char *s)
{
	fprintf(f, "%-7s  ", s);
}

static void rate_rows(FILE *f, const struct rate_result *r, int from)
{
	void (*cell)(FILE *, const char *) = r->find_fat ? wide_field : field;
	char buf[FMT_BUF];

	for (int i = from; i < r->nrows; i++) {
		const struct rate_row *row = &r->rows[i];
		field(f, fmt_size(buf, row->blocksize));
		for (int c = 0; c < row->ncols; c++)
			cell(f, row->failed[c] ? "failed" : fmt_rate(buf, row->rate[c]));
		fputc('\n', f);
	}
}

void text_rates(FILE *f, const struct rate_result *r)
{
	rate_rows(f, r, 0);
}

void text_scatter(FILE *f, const struct scatter_result *r)
{
	for (int i = 0; i < r->npoints; i++) {
		const struct scatter_point *p = &r->points[i];
		if (p->failed)	/* gnuplot skips a non-numeric field: the data stays plottable */
			fprintf(f, "%f\tread failed\n", (double)p->off / (1024.0 * 1024.0));
		else
			fprintf(f, "%f\t%f\n", (double)p->off / (1024.0 * 1024.0), (double)p->min_ns / 1e6);
	}
}

/*
 * A size's time beyond the fit, as the original computed it (doc/original-io.md):
 * in float, its bytes times 1000 over the fit's rate in MB/s (1000 / slope).
 */
static float interval_overhead(const struct interval_result *r, const struct interval_row *row)
{
	float mb_per_s = 1000.0f / r->fit_slope;

	return (float)(row->min_ns - r->fit_access_ns) - (float)(int64_t)(row->bytes * 1000) / mb_per_s;
}

/* The regression line; always there, saying so when there is no fit. */
static void print_fit(FILE *f, const struct interval_result *r)
{
	char t[FMT_BUF];

	switch (r->fit) {
	case FIT_OK:
		fprintf(f, "%g MB/s, %s access time\n", 1000.0 / (double)r->fit_slope,
			fmt_time(t, r->fit_access_ns));	/* the original's arithmetic, to the last digit */
		break;
	case FIT_TOO_FEW_SIZES:
		fprintf(f, "no fit: needs 2 sizes besides the %d smallest (--interval-order=%d or more)\n",
			INTERVAL_FIT_SKIP, INTERVAL_FIT_SKIP + 2);
		break;
	case FIT_NOT_RISING:
		fputs("no fit: read times do not grow with the transfer size\n", f);
		break;
	}
}

void text_interval(FILE *f, const struct interval_result *r)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];

	for (int i = 0; i < r->nrows; i++) {
		const struct interval_row *row = &r->rows[i];
		if (row->too_small) {
			fprintf(f, "%" PRIu64 " bytes: not read: below the logical block size\n", row->bytes);
			continue;
		}
		if (row->failed) {
			fprintf(f, "%" PRIu64 " bytes: read failed\n", row->bytes);
			continue;
		}
		fprintf(f, "%" PRIu64 " bytes: min %s avg %s max %s: %g MB/s\n", row->bytes,
			fmt_time(a, row->min_ns), fmt_time(b, row->avg_ns), fmt_time(c, row->max_ns),
			(double)row->bytes / ((double)row->min_ns / 1000.0));
	}
	print_fit(f, r);
	for (int i = 0; i < r->nrows; i++) {
		const struct interval_row *row = &r->rows[i];
		if (row->failed) {
			fprintf(f, "bytes %" PRIu64 ", %s\n", row->bytes,
				row->too_small ? "not read" : "read failed");
			continue;
		}
		fprintf(f, "bytes %" PRIu64 ", time %" PRId64 " overhead ", row->bytes, row->min_ns);
		if (r->fit == FIT_OK)	/* the original's single precision, in its order */
			fprintf(f, "%g\n", (double)interval_overhead(r, row));
		else
			fputs("n/a\n", f);
	}
}

/* The original's layout: the chunk size, then 8 unlabelled rates (see program_labels). */
static void program_rows(FILE *f, const struct program_result *r, int from)
{
	char buf[FMT_BUF];

	for (int i = from * PROGRAM_COLUMNS; i + PROGRAM_COLUMNS <= r->nrows; i += PROGRAM_COLUMNS) {
		field(f, fmt_size(buf, r->rows[i].blocksize));
		for (int c = 0; c < PROGRAM_COLUMNS; c++) {
			const struct program_row *cell = &r->rows[i + c];
			wide_field(f, cell->failed ? "failed" : fmt_rate(buf, cell->rate));
		}
		fputc('\n', f);
	}
}

void text_program(FILE *f, const struct program_result *r)
{
	program_rows(f, r, 0);
}

/* What -p's columns are (the original printed no header); for -v. */
void text_program_legend(FILE *f)
{
	fputs("flashbench: -p columns:", f);
	for (int c = 0; c < PROGRAM_COLUMNS; c++)
		fprintf(f, " %d) %s", c + 1, program_labels[c]);
	fputc('\n', f);
}

void text_discard(FILE *f, const struct discard_result *r)
{
	char t[FMT_BUF], s[FMT_BUF];

	if (!r->failed)
		fprintf(f, "discarded %s at offset %" PRIu64 " in %s\n", fmt_size(s, r->len), r->off,
			fmt_time(t, r->ns));
}

int text_rows_from(FILE *f, const struct report *rep, int from)
{
	if (rep->align) {
		align_rows(f, rep->align, from);
		return rep->align->nrows;
	}
	if (rep->rates) {
		rate_rows(f, rep->rates, from);
		return rep->rates->nrows;
	}
	if (rep->program) {
		program_rows(f, rep->program, from);
		return rep->program->nrows / PROGRAM_COLUMNS;
	}
	return from;
}

void text_report_from(FILE *f, const struct report *rep, int from)
{
	if (rep->align || rep->rates || rep->program)
		text_rows_from(f, rep, from);
	if (rep->scatter)
		text_scatter(f, rep->scatter);
	if (rep->interval)
		text_interval(f, rep->interval);
	if (rep->discard)
		text_discard(f, rep->discard);
}

void text_report(FILE *f, const struct report *rep)
{
	text_report_from(f, rep, 0);
}

const struct run_status *report_status(const struct report *rep)
{
	if (rep->align)
		return &rep->align->st;
	if (rep->rates)
		return &rep->rates->st;
	if (rep->scatter)
		return &rep->scatter->st;
	if (rep->interval)
		return &rep->interval->st;
	if (rep->program)
		return &rep->program->st;
	if (rep->discard)
		return &rep->discard->st;
	return NULL;
}

static const char *op_name(enum vm_opcode op)
{
	switch (op) {
	case VM_READ: return "read";
	case VM_DISCARD: return "discard";
	default: return "write";
	}
}

void text_status(FILE *f, const struct report *rep)
{
	const struct run_status *st = report_status(rep);

	if (!st)
		return;
	if (st->nfailures) {
		const struct vm_failure *e = &st->first_failure;
		fprintf(f, "flashbench: %s: %s failed at offset %" PRIu64 " (%" PRIu64 " bytes): %s\n",
			rep->device, op_name(e->op), e->off, e->len, strerror(e->err));
		if (st->nfailures > 1)
			fprintf(f, "flashbench: %s: %d I/O operations failed in all\n", rep->device,
				st->nfailures);
	}
	if (st->interrupted)
		fprintf(f, "flashbench: interrupted: the results above are partial\n");
	else if (st->stopped && st->nfailures)
		fprintf(f, "flashbench: stopped after the error: the results above are partial\n");
	else if (st->nfailures)
		fprintf(f, "flashbench: measurements that include a failed I/O are marked 'failed'\n");
}

const char *text_size_estimate(char *buf, size_t n, const struct size_estimate *e)
{
	char b[FMT_BUF], b2[FMT_BUF];

	if (!e->bytes)
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%s (%s confidence)%s%s", fmt_size(b, e->bytes),
			 results_confidence_name(e->conf),
			 !e->multiplane ? "" : e->multiplane == 2 * e->bytes ? "; reads pair pages to "
									: "; reads pages in groups of ",
			 e->multiplane ? fmt_size(b2, e->multiplane) : "");
	return buf;
}
