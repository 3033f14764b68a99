/*
 * --plot=FILE.svg: a self-contained SVG line chart of the run's data.
 * One small chart engine (axes, ticks, series) and one adapter per test.
 * Every data point is a <circle> carrying its raw value in data-x/data-y
 * (base units), so the file is both readable and checkable.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "units.h"

enum axis_kind {
	AX_SIZE_LOG,	/* bytes, log2 scale */
	AX_SIZE,	/* bytes, linear */
	AX_TIME,	/* ns, linear */
	AX_RATE,	/* bytes per second, linear from 0 */
};

struct axis {
	enum axis_kind kind;
	const char *title;
	double lo, hi;		/* data range after niceing (in scale units: log2 for AX_SIZE_LOG) */
	double step;		/* tick step in scale units */
	const double *ticks;	/* explicit tick positions (data units), or NULL */
	int nticks;
};

struct series {
	char name[96];
	int n;
	double *x, *y;		/* data units */
	bool *missing;		/* failed measurement: a gap */
};

struct chart {
	char title[512], subtitle[256];
	struct axis x, y;
	struct series *s;
	int ns;
	bool dots;		/* a scatter plot: points only, while they are few enough to draw */
};

enum { WIDTH = 860, HEIGHT = 530, LEFT = 90, TOP = 70, BOTTOM = 70, RIGHT_PLAIN = 30,
       LEGEND_W = 190, MAX_MARKERS = 4096 };

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (int)(sizeof(palette) / sizeof(palette[0]))

/* ---- text ---- */

/* XML character data / attribute value: escaped, valid UTF-8, no control characters. */
static void xml_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);

	while (n > 0) {
		size_t len = 1;

		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fputc('?', f);
			} else if (*s < 0x80) {
				fputc(*s, f);
			} else {
				len = utf8_sequence_length(s, n);
				if (len)
					fwrite(s, 1, len, f);
				else {
					fputs("\xef\xbf\xbd", f);	/* U+FFFD */
					len = 1;
				}
			}
		}
		s += len;
		n -= len;
	}
}

static const char *tick_label(char *buf, enum axis_kind kind, double v)
{
	switch (kind) {
	case AX_SIZE_LOG:
	case AX_SIZE:
		return fmt_size(buf, v <= 0 ? 0 : (uint64_t)llround(v));
	case AX_TIME:
		return fmt_time(buf, (int64_t)llround(v));
	case AX_RATE:
		return fmt_rate(buf, v);
	}
	return "";
}

/* ---- scales ---- */

static double to_scale(const struct axis *a, double v)
{
	return a->kind == AX_SIZE_LOG ? log2(v) : v;
}

/* 1, 2 or 5 times a power of ten, at least raw */
static double nice_decimal(double raw)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double p = pow(10, floor(log10(raw)));

	for (int i = 0; i < 3; i++)
		if (mult[i] * p >= raw)
			return mult[i] * p;
	return 10 * p;
}

/* a power of two (bytes) at least raw */
static double nice_binary(double raw)
{
	return raw <= 1 ? 1 : exp2(ceil(log2(raw)));
}

/* Data range of one axis over every series, in scale units. */
static bool data_range(const struct chart *c, bool is_x, double *lo, double *hi)
{
	const struct axis *a = is_x ? &c->x : &c->y;
	bool any = false;

	for (int i = 0; i < c->ns; i++)
		for (int j = 0; j < c->s[i].n; j++) {
			double v = is_x ? c->s[i].x[j] : c->s[i].y[j];

			if (c->s[i].missing[j] || !isfinite(v) || (a->kind == AX_SIZE_LOG && v <= 0))
				continue;
			v = to_scale(a, v);
			if (!any || v < *lo)
				*lo = v;
			if (!any || v > *hi)
				*hi = v;
			any = true;
		}
	return any;
}

static void axis_fit(struct axis *a, double lo, double hi)
{
	if (a->kind == AX_TIME || a->kind == AX_RATE || a->kind == AX_SIZE) {
		/* linear axes start at zero unless the data goes below it */
		if (lo > 0)
			lo = 0;
		if (hi < 0)
			hi = 0;
	}
	if (hi - lo <= 0) {
		if (a->kind == AX_SIZE_LOG) {
			lo -= 1;
			hi += 1;
		} else {
			double pad = fabs(hi) > 0 ? fabs(hi) : 1;

			hi += pad;
			lo = lo < 0 ? lo - pad : lo;
		}
	}
	switch (a->kind) {
	case AX_SIZE_LOG:
		a->step = ceil((ceil(hi) - floor(lo)) / 10);
		if (a->step < 1)
			a->step = 1;
		a->lo = floor(lo);
		a->hi = ceil(hi);
		break;
	case AX_SIZE:
		a->step = nice_binary((hi - lo) / 8);
		a->lo = floor(lo / a->step) * a->step;
		a->hi = ceil(hi / a->step) * a->step;
		break;
	case AX_TIME:
	case AX_RATE:
		a->step = nice_decimal((hi - lo) / 6);
		a->lo = floor(lo / a->step) * a->step;
		a->hi = ceil(hi / a->step) * a->step;
		break;
	}
}

struct frame {
	double x0, y0, w, h;	/* plot area */
	const struct axis *xa, *ya;
};

static double px(const struct frame *fr, double v)
{
	return fr->x0 + (to_scale(fr->xa, v) - fr->xa->lo) / (fr->xa->hi - fr->xa->lo) * fr->w;
}

static double py(const struct frame *fr, double v)
{
	return fr->y0 + fr->h - (to_scale(fr->ya, v) - fr->ya->lo) / (fr->ya->hi - fr->ya->lo) * fr->h;
}

/* ---- drawing ---- */

static void draw_x_tick(FILE *f, const struct frame *fr, double v)
{
	char buf[FMT_BUF];
	double x = px(fr, v);

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		x, fr->y0, x, fr->y0 + fr->h);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		x, fr->y0 + fr->h + 18, tick_label(buf, fr->xa->kind, v));
}

static void draw_y_tick(FILE *f, const struct frame *fr, double v)
{
	char buf[FMT_BUF];
	double y = py(fr, v);

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		fr->x0, y, fr->x0 + fr->w, y, v == 0 ? "#888" : "#ddd");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		fr->x0 - 6, y + 4, tick_label(buf, fr->ya->kind, v));
}

static void draw_axes(FILE *f, const struct frame *fr)
{
	const struct axis *xa = fr->xa, *ya = fr->ya;

	fputs("<g class=\"axes\" font-size=\"11\" fill=\"#333\">\n", f);
	if (xa->ticks) {
		for (int i = 0; i < xa->nticks; i++)
			draw_x_tick(f, fr, xa->ticks[i]);
	} else {
		for (double t = xa->lo; t <= xa->hi + 1e-9 * xa->step; t += xa->step)
			draw_x_tick(f, fr, xa->kind == AX_SIZE_LOG ? exp2(t) : t);
	}
	for (double t = ya->lo; t <= ya->hi + 1e-9 * ya->step; t += ya->step)
		draw_y_tick(f, fr, fabs(t) < 1e-9 * ya->step ? 0 : t);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"#333\"/>\n", fr->x0, fr->y0, fr->w, fr->h);
	fprintf(f, "<text class=\"x-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		   "font-size=\"13\">", fr->x0 + fr->w / 2, fr->y0 + fr->h + 45);
	xml_text(f, xa->title);
	fputs("</text>\n", f);
	fprintf(f, "<text class=\"y-title\" transform=\"translate(18 %.1f) rotate(-90)\" "
		   "text-anchor=\"middle\" font-size=\"13\">", fr->y0 + fr->h / 2);
	xml_text(f, ya->title);
	fputs("</text>\n</g>\n", f);
}

static void point_title(FILE *f, const struct frame *fr, const struct series *s, int j)
{
	char bx[FMT_BUF], by[FMT_BUF];

	fputs("<title>", f);
	xml_text(f, s->name);
	fprintf(f, ": %s, %s</title>", tick_label(bx, fr->xa->kind, s->x[j]),
		tick_label(by, fr->ya->kind, s->y[j]));
}

static bool drawable(const struct frame *fr, const struct series *s, int j)
{
	if (s->missing[j] || !isfinite(s->x[j]) || !isfinite(s->y[j]))
		return false;
	return fr->xa->kind != AX_SIZE_LOG || s->x[j] > 0;
}

/* Polylines between drawable points; a failed measurement leaves a gap. */
static void draw_lines(FILE *f, const struct frame *fr, const struct series *s, const char *color,
		       const char *dash)
{
	bool open = false;

	for (int j = 0; j < s->n; j++) {
		if (!drawable(fr, s, j)) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
			continue;
		}
		if (!open)
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
				color, dash);
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", px(fr, s->x[j]), py(fr, s->y[j]));
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
}

static void draw_series(FILE *f, const struct frame *fr, const struct series *s, int index, bool dots)
{
	const char *color = palette[index % NPALETTE];
	const char *dash = index >= NPALETTE ? " stroke-dasharray=\"5 3\"" : "";

	fputs("<g class=\"series\" data-name=\"", f);
	xml_text(f, s->name);
	fputs("\">\n", f);
	if (!dots || s->n > MAX_MARKERS)
		draw_lines(f, fr, s, color, dash);
	if (s->n <= MAX_MARKERS) {
		for (int j = 0; j < s->n; j++) {
			if (!drawable(fr, s, j))
				continue;
			fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" "
				   "data-x=\"%.15g\" data-y=\"%.15g\">",
				px(fr, s->x[j]), py(fr, s->y[j]), color, s->x[j], s->y[j]);
			point_title(f, fr, s, j);
			fputs("</circle>\n", f);
		}
	}
	fputs("</g>\n", f);
}

static void draw_legend(FILE *f, const struct chart *c, double x, double y)
{
	fputs("<g class=\"legend\" font-size=\"11\">\n", f);
	for (int i = 0; i < c->ns && y < HEIGHT - 10; i++, y += 16) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"2\"%s/>", x, y - 4, x + 20, y - 4, palette[i % NPALETTE],
			i >= NPALETTE ? " stroke-dasharray=\"5 3\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 26, y);
		xml_text(f, c->s[i].name);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* A line of text above the chart, squeezed to the width if it is long. */
static void heading(FILE *f, const char *cls, const char *text, int y, int size)
{
	double room = WIDTH - LEFT - 20;
	double guess = 0.58 * size * (double)strlen(text);	/* average glyph width */

	fprintf(f, "<text class=\"%s\" x=\"%d\" y=\"%d\" font-size=\"%d\"", cls, LEFT, y, size);
	if (guess > room)
		fprintf(f, " textLength=\"%.0f\" lengthAdjust=\"spacingAndGlyphs\"", room);
	fputc('>', f);
	xml_text(f, text);
	fputs("</text>\n", f);
}

static void chart_write(FILE *f, struct chart *c)
{
	double lo = 0, hi = 0;
	bool legend = c->ns > 1;
	struct frame fr = { LEFT, TOP, WIDTH - LEFT - (legend ? LEGEND_W : RIGHT_PLAIN),
			    HEIGHT - TOP - BOTTOM, &c->x, &c->y };
	bool any = data_range(c, true, &lo, &hi);

	if (!any) {
		lo = c->x.kind == AX_SIZE_LOG ? 9 : 0;
		hi = lo + 1;
	}
	axis_fit(&c->x, lo, hi);
	if (!data_range(c, false, &lo, &hi))
		lo = hi = 0;
	axis_fit(&c->y, lo, hi);

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
		   "font-size=\"12\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT);
	fputs("<title>", f);
	xml_text(f, c->title);
	fputs(": ", f);
	xml_text(f, c->subtitle);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT);
	heading(f, "title", c->title, 28, 15);
	heading(f, "subtitle", c->subtitle, 48, 12);
	draw_axes(f, &fr);
	if (!any)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			fr.x0 + fr.w / 2, fr.y0 + fr.h / 2);
	for (int i = 0; i < c->ns; i++)
		draw_series(f, &fr, &c->s[i], i, c->dots);
	if (legend)
		draw_legend(f, c, fr.x0 + fr.w + 15, TOP + 10);
	fputs("</svg>\n", f);
}

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

static int chart_align(struct chart *c, const struct report *rep)
{
	const struct align_result *r = rep->align;
	char bs[FMT_BUF];

	snprintf(c->title, sizeof(c->title), "flashbench -a %s", device_name(rep));
	snprintf(c->subtitle, sizeof(c->subtitle), "extra read time across each boundary "
		 "(blocksize %s, count %lld)", fmt_size(bs, r->blocksize), r->count);
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "boundary (log scale)" };
	c->y = (struct axis){ .kind = AX_TIME, .title = "diff = on \xe2\x88\x92 (pre + post) / 2" };
	if (!series_alloc(c, 1, r->nrows))
		return -1;
	snprintf(c->s[0].name, sizeof(c->s[0].name), "diff");
	/* rows come largest first; draw left to right */
	for (int i = r->nrows - 1; i >= 0; i--)
		series_add(&c->s[0], r->rows[i].align, r->rows[i].diff_ns, r->rows[i].failed);
	return 0;
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
	c->y = (struct axis){ .kind = AX_RATE, .title = "write rate" };
	if (!series_alloc(c, ncols, r->nrows))
		return -1;
	for (int col = 0; col < ncols; col++) {
		struct series *s = &c->s[col];
		char off[FMT_BUF];

		if (fat)
			snprintf(s->name, sizeof(s->name), "erase block %d (at %s)", col,
				 fmt_size(off, r->offset + (uint64_t)col * r->erasesize));
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
	c->y = (struct axis){ .kind = AX_TIME, .title = "minimum read time" };
	c->dots = true;
	if (!series_alloc(c, 1, r->npoints))
		return -1;
	snprintf(c->s[0].name, sizeof(c->s[0].name), "read time");
	for (int i = 0; i < r->npoints; i++)
		series_add(&c->s[0], r->points[i].off, r->points[i].min_ns, r->points[i].failed);
	return 0;
}

static int chart_interval(struct chart *c, const struct report *rep)
{
	const struct interval_result *r = rep->interval;
	static const char *const names[] = { "min", "avg", "max" };

	snprintf(c->title, sizeof(c->title), "flashbench -i %s", device_name(rep));
	snprintf(c->subtitle, sizeof(c->subtitle), "read time per transfer size");
	c->x = (struct axis){ .kind = AX_SIZE_LOG, .title = "transfer size (log scale)" };
	c->y = (struct axis){ .kind = AX_TIME, .title = "read time" };
	if (!series_alloc(c, 3, r->nrows))
		return -1;
	for (int k = 0; k < 3; k++) {
		snprintf(c->s[k].name, sizeof(c->s[k].name), "%s", names[k]);
		for (int i = 0; i < r->nrows; i++) {
			const struct interval_row *row = &r->rows[i];
			int64_t ns = k == 0 ? row->min_ns : k == 1 ? row->avg_ns : row->max_ns;

			series_add(&c->s[k], row->bytes, ns, row->failed);
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
	c->y = (struct axis){ .kind = AX_RATE, .title = "rate" };
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
	if (rc == 0)
		chart_write(f, &c);
	series_free(&c);
	return rc;
}
