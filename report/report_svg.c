/*
 * --plot=FILE.svg: a self-contained SVG line chart of the run's data.
 * One adapter per test here; the chart engine (axes, ticks, series) is in
 * report/report_svg_draw.c.
 * Every data point is a <circle> carrying its raw value in data-x/data-y
 * (base units), so the file is both readable and checkable.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "lib/units.h"
#include "report/report_svg_internal.h"

#define MAX_SVG_RUNS 128

/* ---- series storage ---- */

static struct series *series_alloc(struct chart *c, int nseries, int npoints)
{
	c->ns = nseries;
	c->s = calloc(nseries > 0 ? nseries : 1, sizeof(*c->s));
	if (!c->s)
		return NULL;
	for (int i = 0; i < nseries; i++) {
		c->s[i].x = calloc(npoints > 0 ? npoints : 1, sizeof(double));
		c->s[i].y = calloc(npoints > 0 ? npoints : 1, sizeof(double));
		c->s[i].missing = calloc(npoints > 0 ? npoints : 1, sizeof(bool));
		if (!c->s[i].x || !c->s[i].y || !c->s[i].missing)
			return NULL;
	}
	return c->s;
}

static void series_free(struct chart *c)
{
	for (int i = 0; c->s && i < c->ns; i++) {
		free(c->s[i].x);
		free(c->s[i].y);
		free(c->s[i].missing);
	}
	free(c->s);
	c->s = NULL;
}

static void series_add(struct series *s, double x, double y, bool missing)
{
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->missing[s->n] = missing;
	s->n++;
}

static const char *device_name(const struct report *rep)
{
	if (rep->device)
		return rep->device;
	return rep->dev && rep->dev->path ? rep->dev->path : "?";
}

/* ---- one adapter per test ---- */

static bool is_pow2_size(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* "erase block 4MiB"; "..., low confidence" where the analysis is unsure */
static void add_mark(struct chart *c, uint64_t x, const char *what, enum confidence conf)
{
	char sz[FMT_BUF];

	if (!x || c->nmarks >= (int)(sizeof(c->marks) / sizeof(c->marks[0])))
		return;
	c->marks[c->nmarks].x = (double)x;
	snprintf(c->marks[c->nmarks].label, sizeof(c->marks[0].label), "%s %s%s", what,
		 fmt_size(sz, x), conf == CONF_LOW ? ", low confidence" : "");
	c->nmarks++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define BAND_SIGMAS 5		/* the analysis counts a step of 5 sigma (analyze/analyze.h) */
#define BAND_READ_SHARE 0.02	/* ... and of 2% of a read at least (its NOISE_FRACTION) */
#define BAND_SPAN 6		/* the y axis at least 6 half-widths: the band a third of it */

/*
 * -a without an erase-block step (or only a low-confidence one): the rows'
 * scatter drawn as a band
 * (median +- 5 robust sigma, at least 2% of a read: what the analysis
 * would not call a step), and a y axis wide enough that noise inside it
 * does not look like steps.
 */
static void noise_band(struct chart *c, const struct align_result *r, bool no_step)
{
	double *d = calloc((size_t)(r->nrows > 0 ? r->nrows : 1), sizeof(*d));
	double *read = calloc((size_t)(r->nrows > 0 ? r->nrows : 1), sizeof(*read));
	int n = 0;

	for (int i = 0; d && read && i < r->nrows; i++)
		if (!r->rows[i].failed) {
			d[n] = (double)r->rows[i].diff_ns;
			read[n++] = (r->rows[i].pre_ns + r->rows[i].post_ns) / 2.0;
		}
	if (n >= 3) {
		double mid = median_of(d, n), rd = median_of(read, n);
		for (int i = 0; i < n; i++)
			d[i] = fabs(d[i] - mid);
		double sigma = 1.4826 * median_of(d, n), half = BAND_SIGMAS * sigma;
		char h[FMT_BUF];

		if (half < BAND_READ_SHARE * rd)
			half = BAND_READ_SHARE * rd;
		if (half > 0) {
			c->band = (struct band){ .on = true, .lo = mid - half, .hi = mid + half };
			snprintf(c->band.label, sizeof c->band.label, "noise: median \xc2\xb1%s "
				 "(%d\xcf\x83 of the rows)%s", fmt_time(h, (int64_t)llround(half)),
				 BAND_SIGMAS, no_step ? "; no erase-block step" : "");
			c->y.min_span = BAND_SPAN * half;
		}
	}
	free(d);
	free(read);
}

/*
 * 2^n boundaries form the line; 3*2^n ones are unconnected markers, so the
 * line does not zigzag and the step reads where it is.
 */
static int chart_align(struct chart *c, const struct report *rep)
{
	const struct align_result *r = rep->align;
	char bs[FMT_BUF];
	int nodd = 0;

	for (int i = 0; i < r->nrows; i++)
		nodd += !is_pow2_size(r->rows[i].align);
	snprintf(c->title, sizeof(c->title), "flashbench -a %s", device_name(rep));
	snprintf(c->subtitle, sizeof(c->subtitle), "extra read time across each boundary "
		 "(blocksize %s, count %lld)", fmt_size(bs, r->blocksize), r->count);
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "boundary (log scale, a label at every power of two)" };
	c->y = (struct axis){ .kind = AX_TIME, .title = "diff = on \xe2\x88\x92 (pre + post) / 2" };
	if (!series_alloc(c, nodd ? 2 : 1, r->nrows))
		return -1;
	snprintf(c->s[0].name, sizeof(c->s[0].name), nodd ? "2^n boundaries" : "diff");
	if (nodd) {
		snprintf(c->s[1].name, sizeof(c->s[1].name), "3\xc2\xb7" "2^n boundaries");
		c->s[1].markers_only = true;
	}
	/* rows come largest first; draw left to right */
	for (int i = r->nrows - 1; i >= 0; i--)
		series_add(&c->s[is_pow2_size(r->rows[i].align) ? 0 : 1], r->rows[i].align,
			   r->rows[i].diff_ns, r->rows[i].failed);
	if (rep->verdict) {
		add_mark(c, rep->verdict->erase.bytes, "erase block", rep->verdict->erase.conf);
		add_mark(c, rep->verdict->page.bytes, "page", rep->verdict->page.conf);
		if (!rep->verdict->erase.bytes || rep->verdict->erase.conf < CONF_MEDIUM)
			noise_band(c, r, !rep->verdict->erase.bytes);	/* a low-confidence step may be noise: show how much */
	}
	return 0;
}

/*
 * Where a collapsed --open-au run's rate collapses: the first row (from the
 * largest block size down) a quarter or more below the one before, with
 * every smaller row lower again; 0 if the data shows no such place.
 */
static uint64_t collapse_start(const struct rate_result *r)
{
	for (int j = 1; j < r->nrows; j++) {
		const struct rate_row *a = &r->rows[j - 1], *b = &r->rows[j];
		bool falls = a->ncols > 0 && b->ncols > 0 && !a->failed[0] && !b->failed[0] &&
			     b->rate[0] <= 0.75 * a->rate[0];

		for (int k = j + 1; falls && k < r->nrows; k++)
			falls = r->rows[k].ncols > 0 && !r->rows[k].failed[0] &&
				r->rows[k].rate[0] <= 0.9 * r->rows[k - 1].rate[0];
		if (falls)
			return b->blocksize;
	}
	return 0;
}

/* "1-5, 7, 8": sorted numbers as ranges */
static void append_ranges(char *buf, size_t n, const long long *v, int nv)
{
	for (int i = 0; i < nv;) {
		int j = i;
		while (j + 1 < nv && v[j + 1] == v[j] + 1)
			j++;
		if (j > i)
			fmt_append(buf, n, "%s%lld\xe2\x80\x93%lld", i ? ", " : "", v[i], v[j]);
		else
			fmt_append(buf, n, "%s%lld", i ? ", " : "", v[i]);
		i = j + 1;
	}
}

/* The members' numbers of one variant, sorted; how many. */
static int numbers_of(const struct chart *c, const int *m, int nm, int variant, long long *out)
{
	int k = 0;

	for (int i = 0; i < nm; i++)
		if (c->s[m[i]].variant == variant)
			out[k++] = c->s[m[i]].num;
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			long long t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return k;
}

/* --find-fat: "blocks 2-5", "blocks 0-1, FAT area" */
static void fat_group_name(char *buf, size_t n, const struct chart *c, const int *m, int nm)
{
	long long v[RATE_MAX_COLS];

	buf[0] = '\0';
	for (int variant = 0; variant < 2; variant++) {
		int k = numbers_of(c, m, nm, variant, v);
		if (!k)
			continue;
		fmt_append(buf, n, "%sblock%s ", buf[0] ? "; " : "", k > 1 ? "s" : "");
		append_ranges(buf, n, v, k);
		if (variant)
			fmt_append(buf, n, ", FAT area");
	}
}

static int chart_rates(struct chart *c, const struct report *rep, double *ticks)
{
	const struct rate_result *r = rep->rates;
	bool fat = rep->test && strcmp(rep->test, "find-fat") == 0;
	int ncols = 0;
	char es[FMT_BUF];

	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].ncols > ncols)
			ncols = r->rows[i].ncols > RATE_MAX_COLS ? RATE_MAX_COLS : r->rows[i].ncols;
	if (fat)
		snprintf(c->subtitle, sizeof(c->subtitle), "write rate per block size in each of the "
			 "first %lld erase blocks of %s", r->nr, fmt_size(es, r->erasesize));
	else
		snprintf(c->subtitle, sizeof(c->subtitle), "write rate per block size, %lld open erase "
			 "blocks of %s, %s", r->nr, fmt_size(es, r->erasesize),
			 r->random ? "random order" : "linear");
	snprintf(c->title, sizeof(c->title), "flashbench %s %s", fat ? "--find-fat" : "--open-au",
		 device_name(rep));
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "block size (log scale)" };
	c->y = (struct axis){ .kind = AX_RATE_LOG, .title = "write rate, bytes/s (log scale; M = 10^6)" };
	if (!series_alloc(c, ncols, r->nrows))
		return -1;
	if (fat)
		c->group_name = fat_group_name;
	struct fat_estimate fatest = { 0 };
	if (fat && rep->verdict)
		fatest = rep->verdict->fat;
	for (int col = 0; col < ncols; col++) {
		struct series *s = &c->s[col];
		char off[FMT_BUF];

		if (fat && col < fatest.aus && fatest.conf > CONF_NONE)
			s->shaded = true;
		s->num = col;
		s->variant = s->shaded;
		if (fat)
			snprintf(s->name, sizeof(s->name), "block %d at %s%s", col,
				 fmt_size(off, r->offset + (uint64_t)col * r->erasesize),
				 s->shaded ? ", FAT area" : "");
		else if (ncols == 1)
			snprintf(s->name, sizeof(s->name), "open-au-nr=%lld", r->nr);
		else
			snprintf(s->name, sizeof(s->name), "run %d", col + 1);
		for (int i = r->nrows - 1; i >= 0; i--) {
			const struct rate_row *row = &r->rows[i];
			bool have = col < row->ncols && !row->failed[col];

			series_add(s, row->blocksize, have ? row->rate[col] : 0, !have);
		}
	}
	if (!fat && ncols == 1 && rep->verdict && rep->verdict->collapse == RUN_COLLAPSED)
		add_mark(c, collapse_start(r), "collapses from", CONF_HIGH);
	/* few rows: a tick at every measured block size (3*2^n sizes then read right) */
	if (r->nrows > 0 && r->nrows <= 16) {
		c->x.nticks = 0;
		for (int i = r->nrows - 1; i >= 0; i--)
			if (r->rows[i].blocksize > 0)
				ticks[c->x.nticks++] = r->rows[i].blocksize;
		c->x.ticks = ticks;
	}
	return 0;
}

static int chart_scatter(struct chart *c, const struct report *rep)
{
	const struct scatter_result *r = rep->scatter;
	char bs[FMT_BUF];

	snprintf(c->title, sizeof(c->title), "flashbench -s %s", device_name(rep));
	snprintf(c->subtitle, sizeof(c->subtitle), "minimum read time of %s blocks by offset",
		 fmt_size(bs, r->blocksize));
	c->x = (struct axis){ .kind = AX_SIZE, .title = "offset" };
	c->y = (struct axis){ .kind = AX_TIME, .title = "minimum read time", .free_range = true };
	c->dots = true;
	if (!series_alloc(c, 1, r->npoints))
		return -1;
	snprintf(c->s[0].name, sizeof(c->s[0].name), "read time");
	for (int i = 0; i < r->npoints; i++)
		series_add(&c->s[0], r->points[i].off, r->points[i].min_ns, r->points[i].failed);
	return 0;
}

/*
 * Log-log: from 512 B to MiBs the times span decades, and a linear axis
 * would squash every small transfer onto 0. The fit (access time plus
 * size over throughput) is drawn as a line where there is one.
 */
static int chart_interval(struct chart *c, const struct report *rep)
{
	const struct interval_result *r = rep->interval;
	static const char *const names[] = { "min", "avg", "max" };
	char rate[FMT_BUF], access[FMT_BUF];
	bool fit = r->fit == FIT_OK && r->fit_rate > 0 && r->nrows > 0;
	enum { STEPS = 4 };	/* fit points per doubling of the size */

	snprintf(c->title, sizeof(c->title), "flashbench -i %s", device_name(rep));
	if (fit)
		snprintf(c->subtitle, sizeof(c->subtitle), "read time per transfer size; fit: %s "
			 "access + size at %s", fmt_time(access, r->fit_access_ns), fmt_rate(rate, r->fit_rate));
	else
		snprintf(c->subtitle, sizeof(c->subtitle), "read time per transfer size (no fit: %s)",
			 r->fit == FIT_TOO_FEW_SIZES ? "too few sizes" : "times do not grow with the size");
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "transfer size (log scale)" };
	c->y = (struct axis){ .kind = AX_TIME_LOG, .title = "read time (log scale)" };
	if (!series_alloc(c, fit ? 4 : 3, r->nrows * STEPS + 1))
		return -1;
	for (int k = 0; k < 3; k++) {
		snprintf(c->s[k].name, sizeof(c->s[k].name), "%s", names[k]);
		for (int i = 0; i < r->nrows; i++) {
			const struct interval_row *row = &r->rows[i];
			int64_t ns = k == 0 ? row->min_ns : k == 1 ? row->avg_ns : row->max_ns;

			series_add(&c->s[k], row->bytes, ns, row->failed);
		}
	}
	if (fit) {
		struct series *s = &c->s[3];
		double lo = (double)r->rows[0].bytes, hi = (double)r->rows[r->nrows - 1].bytes;

		snprintf(s->name, sizeof(s->name), "fit");
		s->line_only = true;
		for (int i = 0; i <= (r->nrows - 1) * STEPS; i++) {
			double bytes = lo * exp2((double)i / STEPS);

			if (bytes > hi * 1.0001)
				break;
			double ns = (double)r->fit_access_ns + bytes / r->fit_rate * 1e9;
			series_add(s, bytes, ns, !(ns > 0));
		}
	}
	return 0;
}

static int chart_program(struct chart *c, const struct report *rep)
{
	const struct program_result *r = rep->program;
	int nlabels = 0;
	const char **labels = calloc(r->nrows > 0 ? r->nrows : 1, sizeof(*labels));

	if (!labels)
		return -1;
	for (int i = 0; i < r->nrows; i++) {
		int k = 0;

		while (k < nlabels && strcmp(labels[k], r->rows[i].label ? r->rows[i].label : "") != 0)
			k++;
		if (k == nlabels)
			labels[nlabels++] = r->rows[i].label ? r->rows[i].label : "";
	}
	snprintf(c->title, sizeof(c->title), "flashbench -p %s", device_name(rep));
	snprintf(c->subtitle, sizeof(c->subtitle), "rate per block size");
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "block size (log scale)" };
	c->y = (struct axis){ .kind = AX_RATE_LOG, .title = "rate, bytes/s (log scale; M = 10^6)" };
	if (!series_alloc(c, nlabels, r->nrows)) {
		free(labels);
		return -1;
	}
	for (int k = 0; k < nlabels; k++) {
		snprintf(c->s[k].name, sizeof(c->s[k].name), "%s", labels[k]);
		for (int i = 0; i < r->nrows; i++) {
			const struct program_row *row = &r->rows[i];

			if (strcmp(row->label ? row->label : "", labels[k]) == 0)
				series_add(&c->s[k], row->blocksize, row->rate, row->failed);
		}
	}
	free(labels);
	return 0;
}

int svg_report(FILE *f, const struct report *rep)
{
	struct chart c;
	double ticks[16];
	int rc;

	memset(&c, 0, sizeof(c));
	if (rep->align)
		rc = chart_align(&c, rep);
	else if (rep->rates)
		rc = chart_rates(&c, rep, ticks);
	else if (rep->scatter)
		rc = chart_scatter(&c, rep);
	else if (rep->interval)
		rc = chart_interval(&c, rep);
	else if (rep->program)
		rc = chart_program(&c, rep);
	else
		return -1;
	snprintf(c.footer, sizeof(c.footer), "flashbench %s \xc2\xb7 %s \xc2\xb7 %s \xc2\xb7 %s",
		 FB_VERSION, device_name(rep), rep->test ? rep->test : "", report_run_time());
	if (rc == 0)
		svg_chart_write(f, &c);
	series_free(&c);
	return rc;
}

/* --auto's runs: "N=1-5, 7 hold; random N=1-4 hold" (variant: random * 2 + collapsed) */
static void runs_group_name(char *buf, size_t n, const struct chart *c, const int *m, int nm)
{
	long long v[MAX_SVG_RUNS];

	buf[0] = '\0';
	for (int variant = 0; variant < 4; variant++) {
		int k = numbers_of(c, m, nm, variant, v);
		if (!k)
			continue;
		fmt_append(buf, n, "%s%sN=", buf[0] ? "; " : "", variant >= 2 ? "random " : "");
		append_ranges(buf, n, v, k);
		fmt_append(buf, n, " %s", variant % 2 ? k > 1 ? "collapse" : "collapses"
						 : k > 1 ? "hold" : "holds");
	}
}

/*
 * The style of a run: a colour per N (the same for its linear and random
 * runs), a circle for linear and a square for random, solid where it holds
 * and dashed where it collapses. Past ten values of N the colours come
 * round again with other markers.
 */
static void run_style(struct series *s, int rank, bool random, bool collapsed)
{
	int cycle = rank / SVG_COLORS, shape = 2 * cycle + random;

	s->keyed = true;
	s->color = rank % SVG_COLORS;
	s->marker = (enum marker)(shape % MK_SHAPES);
	s->dash = (collapsed ? 1 : 0) + (shape >= MK_SHAPES ? 2 : 0);
}

/* The --open-au runs in one chart, a line per N and mode. */
static int chart_auto_runs(struct chart *c, const struct svg_run *runs, int nruns, double *ticks,
			   int maxticks)
{
	int maxrows = 0, nvalues = 0;
	long long values[MAX_SVG_RUNS];

	for (int i = 0; i < nruns && i < MAX_SVG_RUNS; i++) {
		if (runs[i].r->nrows > maxrows)
			maxrows = runs[i].r->nrows;
		int k = 0;
		while (k < nvalues && values[k] != runs[i].nr)
			k++;
		if (k == nvalues)
			values[nvalues++] = runs[i].nr;
	}
	for (int i = 1; i < nvalues; i++)	/* ascending: the colours follow N */
		for (int j = i; j > 0 && values[j - 1] > values[j]; j--) {
			long long t = values[j];
			values[j] = values[j - 1];
			values[j - 1] = t;
		}
	snprintf(c->subtitle, sizeof(c->subtitle), "write rate with N erase blocks open: a colour per "
		 "N; circles linear, squares random; solid holds, dashed collapses");
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "block size (log scale)" };
	c->y = (struct axis){ .kind = AX_RATE_LOG, .title = "write rate, bytes/s (log scale; M = 10^6)" };
	if (nruns > MAX_SVG_RUNS)
		nruns = MAX_SVG_RUNS;
	if (!series_alloc(c, nruns, maxrows))
		return -1;
	c->group_name = runs_group_name;
	for (int k = 0; k < nruns; k++) {
		const struct rate_result *r = runs[k].r;
		struct series *s = &c->s[k];
		int rank = 0;

		while (values[rank] != runs[k].nr)
			rank++;
		snprintf(s->name, sizeof(s->name), "N=%lld%s, %s", runs[k].nr, runs[k].random ? " random" : "",
			 runs[k].collapsed ? "collapses" : "holds");
		run_style(s, rank, runs[k].random, runs[k].collapsed);
		s->num = runs[k].nr;
		s->variant = runs[k].random * 2 + runs[k].collapsed;
		for (int i = r->nrows - 1; i >= 0; i--) {
			const struct rate_row *row = &r->rows[i];
			bool have = row->ncols > 0 && !row->failed[0];

			series_add(s, row->blocksize, have ? row->rate[0] : 0, !have);
			/* a tick where the points are (with 3*2^n erase sizes, between powers of two) */
			int t = 0;
			while (t < c->x.nticks && ticks[t] != (double)row->blocksize)
				t++;
			if (t == c->x.nticks && t < maxticks)
				ticks[c->x.nticks++] = (double)row->blocksize;
		}
	}
	for (int i = 1; i < c->x.nticks; i++)	/* ascending */
		for (int j = i; j > 0 && ticks[j - 1] > ticks[j]; j--) {
			double t = ticks[j];
			ticks[j] = ticks[j - 1];
			ticks[j - 1] = t;
		}
	c->x.ticks = ticks;
	return 0;
}

/*
 * --auto: every test it ran, as panels of one SVG: the alignment runs
 * (median) with the erase block and page marked, the --open-au runs, and
 * the FAT area (--find-fat) with the area found shaded.
 */
int svg_auto(FILE *f, const char *device, const struct align_result *align,
	     const struct report_verdict *v, const struct svg_run *runs, int nruns,
	     const struct rate_result *fat)
{
	struct chart c[3];
	double ticks[2][64];
	int n = 0, rc = 0;
	const char *dev = device ? device : "?";

	memset(c, 0, sizeof(c));
	if (align) {
		struct report rep = { .device = device, .test = "align", .align = align, .verdict = v };
		rc |= chart_align(&c[n], &rep);
		snprintf(c[n++].title, sizeof(c[0].title), "flashbench --auto %s: alignment (-a)", dev);
	}
	if (nruns > 0) {
		rc |= chart_auto_runs(&c[n], runs, nruns, ticks[0], 64);
		snprintf(c[n++].title, sizeof(c[0].title), "flashbench --auto %s: open erase blocks "
			 "(--open-au)", dev);
	}
	if (fat && fat->nrows > 0) {
		struct report rep = { .device = device, .test = "find-fat", .rates = fat, .verdict = v };
		rc |= chart_rates(&c[n], &rep, ticks[1]);
		snprintf(c[n++].title, sizeof(c[0].title), "flashbench --auto %s: FAT area (--find-fat)",
			 dev);
	}
	if (n > 0 && rc == 0) {
		snprintf(c[n - 1].footer, sizeof(c[0].footer), "flashbench %s \xc2\xb7 %s \xc2\xb7 auto "
			 "\xc2\xb7 %s", FB_VERSION, dev, report_run_time());
		svg_chart_write_panels(f, c, n);
	}
	for (int i = 0; i < n; i++)
		series_free(&c[i]);
	return n > 0 && rc == 0 ? 0 : -1;
}
