/*
 * --plot=FILE.svg: the SVG drawing primitives behind report/report_svg.c's charts:
 * text escaping, axis fitting and ticks, frame and axes, series and markers,
 * analysis marks, legend, headings and footer.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "lib/units.h"
#include "report/report_svg_internal.h"

enum { WIDTH = 860, HEIGHT = 560, LEFT = 90, TOP = 70, BOTTOM = 100, RIGHT_PLAIN = 30,
       LEGEND_W = 190, MAX_MARKERS = 4096, MAX_SERIES_DRAWN = 256 };

/* dash patterns and marker sizes that keep identical series apart */
static const char *const dashes[] = { "", "6 3", "2 3", "8 3 2 3", "12 4", "3 6" };
#define NDASHES (int)(sizeof(dashes) / sizeof(dashes[0]))

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (int)(sizeof(palette) / sizeof(palette[0]))

/*
 * Advance widths of DejaVu Sans (the font the SVG asks for first), ASCII
 * 32..126, in thousandths of an em: where rotated tick labels end, so that
 * nothing is drawn over them.
 */
static const unsigned short glyph_width[95] = {
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
};
#define ASCENT 0.76	/* of the em, above the baseline */
#define DESCENT 0.24

static double text_width(const char *str, double size)
{
	double w = 0;

	for (const unsigned char *s = (const unsigned char *)str; *s; s++) {
		if (*s >= 32 && *s < 127)
			w += glyph_width[*s - 32];
		else if (*s >= 0xc0)
			w += 700;	/* a character beyond ASCII (µ, ·, −): about a digit */
	}
	return w / 1000 * size;
}

/*
 * A font-size attribute that fits text into room pixels: size, or smaller
 * for a long text (renderers ignore textLength, librsvg among them).
 */
static void fit_font(FILE *f, const char *text, int size, double room)
{
	double w = text_width(text, size);

	fprintf(f, " font-size=\"%.1f\"", w > room ? size * room / w : (double)size);
}

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
				len = jw_utf8_sequence_length(s, n);
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

/* "-2µs" on an axis, where the original's number format would say "-2000ns" */
static const char *time_label(char *buf, double v)
{
	char t[FMT_BUF];

	if (v >= 0)
		return fmt_time(buf, (int64_t)llround(v));
	snprintf(buf, FMT_BUF, "\xe2\x88\x92%s", fmt_time(t, (int64_t)llround(-v)));
	return buf;
}

/* "500", "2000", "15K": I/Os a second, no unit of bytes */
static const char *count_label(char *buf, double v)
{
	if (v >= 100000)
		snprintf(buf, FMT_BUF, "%.0fK", v / 1000);
	else
		snprintf(buf, FMT_BUF, "%.0f", v);
	return buf;
}

static const char *tick_label(char *buf, const struct axis *a, double v)
{
	switch (a->kind) {
	case AX_SIZE_LOG:
	case AX_SIZE:
		return fmt_size(buf, v <= 0 ? 0 : (uint64_t)llround(v));
	case AX_TIME:
	case AX_TIME_LOG:
		return time_label(buf, v);
	case AX_RATE:
	case AX_RATE_LOG:
		return fmt_rate(buf, v);
	case AX_COUNT:
	case AX_COUNT_LOG:
		return count_label(buf, v);
	case AX_CATEGORY: {
		int i = (int)floor(v);
		snprintf(buf, FMT_BUF, "%s", i >= 0 && i < a->nlabels ? a->labels[i] : "");
		return buf;
	}
	}
	return "";
}

/* ---- scales ---- */

static bool is_log10(const struct axis *a)
{
	return a->kind == AX_RATE_LOG || a->kind == AX_TIME_LOG || a->kind == AX_COUNT_LOG;
}

static bool is_log(const struct axis *a)
{
	return a->kind == AX_SIZE_LOG || is_log10(a);
}

static bool is_linear(const struct axis *a)
{
	return a->kind == AX_TIME || a->kind == AX_RATE || a->kind == AX_SIZE || a->kind == AX_COUNT;
}

static double to_scale(const struct axis *a, double v)
{
	if (a->kind == AX_SIZE_LOG)
		return log2(v);
	return is_log10(a) ? log10(v) : v;
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

static void widen(bool *any, double *lo, double *hi, double v)
{
	if (!*any || v < *lo)
		*lo = v;
	if (!*any || v > *hi)
		*hi = v;
	*any = true;
}

/* Data range of one axis over every series (and the band, on y), in scale units. */
static bool data_range(const struct chart *c, bool is_x, double *lo, double *hi)
{
	const struct axis *a = is_x ? &c->x : &c->y;
	bool any = false;

	for (int i = 0; i < c->ns; i++)
		for (int j = 0; j < c->s[i].n; j++) {
			double v = is_x ? c->s[i].x[j] : c->s[i].y[j];

			if (c->s[i].missing[j] || !isfinite(v) || (is_log(a) && v <= 0))
				continue;
			widen(&any, lo, hi, to_scale(a, v));
		}
	if (!is_x && c->band.on && (!is_log(a) || c->band.lo > 0)) {
		widen(&any, lo, hi, to_scale(a, c->band.lo));
		widen(&any, lo, hi, to_scale(a, c->band.hi));
	}
	return any;
}

/*
 * Linear axes: from zero (or the data's low end with free_range), at least
 * min_span wide, with a margin above.
 */
static void linear_range(const struct axis *a, double *lo, double *hi)
{
	if (a->min_span > 0 && *hi - *lo < a->min_span) {
		double mid = (*lo + *hi) / 2;

		*lo = mid - a->min_span / 2;
		*hi = mid + a->min_span / 2;
	}
	if (!a->free_range) {
		if (*lo > 0)
			*lo = 0;
		if (*hi < 0)
			*hi = 0;
	}
	double span = *hi - *lo;
	double margin = 0.08 * (span > 0 ? span : fabs(*hi) > 0 ? fabs(*hi) : 1);

	*hi += margin;
	if (a->free_range || *lo < 0)
		*lo -= margin;
}

/* is_y: values get a margin above (and below, with free_range) so no line lies on the frame */
static void axis_fit(struct axis *a, double lo, double hi, bool is_y)
{
	if (a->kind == AX_CATEGORY) {
		a->lo = 0;
		a->hi = a->nlabels > 0 ? a->nlabels : 1;
		a->step = 1;
		return;
	}
	if (is_y && is_linear(a))
		linear_range(a, &lo, &hi);
	else if (is_linear(a)) {
		lo = lo > 0 ? 0 : lo;
		hi = hi < 0 ? 0 : hi;
	}
	if (hi - lo <= 0) {
		lo -= 1;
		hi += 1;
	}
	switch (a->kind) {
	case AX_SIZE_LOG:
	case AX_RATE_LOG:
	case AX_TIME_LOG:
	case AX_COUNT_LOG:
		a->step = 1;	/* a label at every power of two; decades */
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
	case AX_COUNT:
	case AX_CATEGORY:
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

static bool drawable(const struct frame *fr, const struct series *s, int j)
{
	if (s->missing[j] || !isfinite(s->x[j]) || !isfinite(s->y[j]))
		return false;
	return (!is_log(fr->xa) || s->x[j] > 0) && (!is_log(fr->ya) || s->y[j] > 0);
}

/* ---- styles: colour, dash pattern and marker, distinct within a panel ---- */

struct style {
	const char *color, *dash;
	enum marker marker;
	bool filled;
};

static struct style series_style(const struct chart *c, int i)
{
	const struct series *s = &c->s[i];
	struct style st;

	if (s->keyed) {
		st.color = palette[(s->color % NPALETTE + NPALETTE) % NPALETTE];
		st.dash = dashes[(s->dash % NDASHES + NDASHES) % NDASHES];
		st.marker = s->marker;
	} else {
		/* colour and dash repeat together only every 30 series; then the marker changes */
		st.color = palette[i % NPALETTE];
		st.dash = dashes[i % NDASHES];
		st.marker = (enum marker)(i / (NPALETTE * 3) % MK_SHAPES);
	}
	st.filled = s->filled || s->markers_only || c->ns == 1 || st.marker == MK_BAR;
	return st;
}

static void stroke_attrs(FILE *f, const struct style *st, double width)
{
	fprintf(f, "stroke=\"%s\" stroke-width=\"%.1f\"", st->color, width);
	if (st->dash[0])
		fprintf(f, " stroke-dasharray=\"%s\"", st->dash);
}

#define MARKER_R 3.5

/* One marker, open (no closing tag); the caller adds its title and closes it. */
static const char *marker_open(FILE *f, const struct style *st, double x, double y, double r,
			       const char *cls)
{
	const char *fill = st->filled ? st->color : "white";

	switch (st->marker) {
	case MK_SQUARE:
		fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			cls, x - r * 0.9, y - r * 0.9, 1.8 * r, 1.8 * r);
		break;
	case MK_BAR:
		fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"3\"",
			cls, x - 4 * r, y - 1.5, 8 * r);
		break;
	case MK_TRIANGLE:
	case MK_TRIANGLE_DOWN: {
		double d = st->marker == MK_TRIANGLE ? 1 : -1;
		fprintf(f, "<polygon class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", cls,
			x, y - d * 1.2 * r, x + 1.1 * r, y + d * 0.8 * r, x - 1.1 * r, y + d * 0.8 * r);
		break;
	}
	case MK_DIAMOND:
		fprintf(f, "<polygon class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"",
			cls, x, y - 1.3 * r, x + 1.1 * r, y, x, y + 1.3 * r, x - 1.1 * r, y);
		break;
	default:
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", cls, x, y, r);
		break;
	}
	fprintf(f, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"", fill, st->color);
	return st->marker == MK_SQUARE || st->marker == MK_BAR ? "</rect>" :
	       st->marker == MK_CIRCLE ? "</circle>" : "</polygon>";
}

/* ---- drawing ---- */

/* The x axis's tick positions (data units); at most max. */
static int x_ticks(const struct axis *xa, double *out, int max)
{
	int n = 0;

	if (xa->kind == AX_CATEGORY) {
		for (int i = 0; i < xa->nlabels && n < max; i++)
			out[n++] = i + 0.5;
		return n;
	}
	if (xa->ticks) {
		for (int i = 0; i < xa->nticks && n < max; i++)
			out[n++] = xa->ticks[i];
		return n;
	}
	for (double t = xa->lo; t <= xa->hi + 1e-9 * xa->step && n < max; t += xa->step)
		out[n++] = xa->kind == AX_SIZE_LOG ? exp2(t) : t;
	return n;
}

#define TICK_SIZE 11
#define SLANT_DEG 40
#define X_TITLE_SIZE 13
#define CATEGORY_LINE 13	/* px between the lines of a category's label */

/* The lines of a tick label ("A2 reads\n4 in flight"): the i-th into buf. */
static const char *label_line(char *buf, size_t n, const char *label, int i)
{
	const char *p = label;

	while (i-- > 0 && p)
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	if (!p)
		return NULL;
	snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
	return buf;
}

/*
 * Below the plot: tick labels side by side, or slanted when many (every
 * power of two) would not fit; how far below the plot's bottom edge they
 * reach, so that the axis title goes under them.
 */
static double x_label_depth(const struct axis *xa, double width, bool *slanted)
{
	double ticks[256], widest = 0;
	char buf[FMT_BUF], line[FMT_BUF];
	int n = x_ticks(xa, ticks, 256), lines = 1;

	for (int i = 0; i < n; i++) {
		const char *label = tick_label(buf, xa, ticks[i]);
		for (int k = 0; label_line(line, sizeof line, label, k); k++) {
			double w = text_width(line, TICK_SIZE);
			widest = w > widest ? w : widest;
			lines = k + 1 > lines ? k + 1 : lines;
		}
	}
	*slanted = xa->kind != AX_CATEGORY && width / (n > 0 ? n : 1) < widest + 8;
	if (!*slanted)
		return 18 + (lines - 1) * CATEGORY_LINE + DESCENT * TICK_SIZE;
	double a = SLANT_DEG * M_PI / 180;
	/* the label ends at the tick, 14 below the plot, and runs down-left from there */
	return 14 + widest * sin(a) + DESCENT * TICK_SIZE * cos(a);
}

static void draw_x_tick(FILE *f, const struct frame *fr, double v, bool slanted)
{
	char buf[FMT_BUF], line[FMT_BUF];
	double x = px(fr, v), y = fr->y0 + fr->h + 18;
	const char *label = tick_label(buf, fr->xa, v);

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		x, fr->y0, x, fr->y0 + fr->h);
	if (slanted) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			   "transform=\"rotate(-%d %.1f %.1f)\">", x + 4, y - 4, SLANT_DEG, x + 4, y - 4);
		xml_text(f, label);
		fputs("</text>\n", f);
		return;
	}
	for (int k = 0; label_line(line, sizeof line, label, k); k++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
			y + k * CATEGORY_LINE);
		xml_text(f, line);
		fputs("</text>\n", f);
	}
}

static void draw_y_tick(FILE *f, const struct frame *fr, double v)
{
	char buf[FMT_BUF];
	double y = py(fr, v);

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		fr->x0, y, fr->x0 + fr->w, y, v == 0 ? "#888" : "#ddd");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		fr->x0 - 6, y + 4, tick_label(buf, fr->ya, v));
}

/* 1, 2 and 5 times each power of ten; only the decades when there are many */
static void draw_log10_ticks(FILE *f, const struct frame *fr)
{
	const struct axis *ya = fr->ya;
	bool minor = ya->hi - ya->lo <= 4;

	for (double d = ya->lo; d <= ya->hi + 1e-9; d += 1)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = (double)m * pow(10, d);

			if ((m == 1 || minor) && log10(v) <= ya->hi + 1e-9)
				draw_y_tick(f, fr, v);
		}
}

static void draw_axes(FILE *f, const struct frame *fr, bool slanted, double depth)
{
	const struct axis *xa = fr->xa, *ya = fr->ya;
	double ticks[256];
	int nx = x_ticks(xa, ticks, 256);

	fprintf(f, "<g class=\"axes\" font-size=\"%d\" fill=\"#333\">\n", TICK_SIZE);
	for (int i = 0; i < nx; i++)
		draw_x_tick(f, fr, ticks[i], slanted);
	if (is_log10(ya))
		draw_log10_ticks(f, fr);
	else
		for (double t = ya->lo; t <= ya->hi + 1e-9 * ya->step; t += ya->step)
			draw_y_tick(f, fr, fabs(t) < 1e-9 * ya->step ? 0 : t);
	fprintf(f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		   "fill=\"none\" stroke=\"#333\"/>\n", fr->x0, fr->y0, fr->w, fr->h);
	fprintf(f, "<text class=\"x-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		   "font-size=\"%d\">", fr->x0 + fr->w / 2,
		fr->y0 + fr->h + depth + 6 + ASCENT * X_TITLE_SIZE, X_TITLE_SIZE);
	xml_text(f, xa->title);
	fputs("</text>\n", f);
	fprintf(f, "<text class=\"y-title\" transform=\"translate(18 %.1f) rotate(-90)\" "
		   "text-anchor=\"middle\" font-size=\"13\">", fr->y0 + fr->h / 2);
	xml_text(f, ya->title);
	fputs("</text>\n</g>\n", f);
}

/* The band (-a's noise floor): a pale stripe across the plot, under the data. */
static void draw_band(FILE *f, const struct chart *c, const struct frame *fr)
{
	if (!c->band.on || (is_log(fr->ya) && c->band.lo <= 0))
		return;
	double top = py(fr, c->band.hi), bottom = py(fr, c->band.lo);

	fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		   "fill=\"#888\" fill-opacity=\"0.16\" data-lo=\"%.15g\" data-hi=\"%.15g\"/>\n",
		fr->x0, top, fr->w, bottom - top, c->band.lo, c->band.hi);
}

static void point_title(FILE *f, const struct frame *fr, const struct series *s, int j)
{
	char bx[FMT_BUF], by[FMT_BUF];

	fputs("<title>", f);
	xml_text(f, s->name);
	fprintf(f, ": %s, %s</title>", tick_label(bx, fr->xa, s->x[j]), tick_label(by, fr->ya, s->y[j]));
}

/* Polylines between drawable points; a failed measurement leaves a gap. */
static void draw_lines(FILE *f, const struct frame *fr, const struct series *s, const char *attrs)
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
			fprintf(f, "<polyline fill=\"none\" %s points=\"", attrs);
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", px(fr, s->x[j]), py(fr, s->y[j]));
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
}

/* A series in its group's style (members of a group coincide: one look for all of them). */
static void draw_series(FILE *f, const struct frame *fr, const struct chart *c, int i,
			const struct style *st)
{
	const struct series *s = &c->s[i];
	char attrs[160];

	fputs("<g class=\"series\" data-name=\"", f);
	xml_text(f, s->name);
	fputs("\">\n", f);
	if (s->shaded && !s->markers_only) {
		snprintf(attrs, sizeof attrs, "stroke=\"%s\" stroke-width=\"12\" stroke-opacity=\"0.18\" "
			 "stroke-linejoin=\"round\" class=\"shade\"", st->color);
		draw_lines(f, fr, s, attrs);
	}
	if (!s->markers_only && (!c->dots || s->n > MAX_MARKERS)) {
		snprintf(attrs, sizeof attrs, "stroke=\"%s\" stroke-width=\"1.5\"%s%s%s", st->color,
			 st->dash[0] ? " stroke-dasharray=\"" : "", st->dash, st->dash[0] ? "\"" : "");
		draw_lines(f, fr, s, attrs);
	}
	if (s->n <= MAX_MARKERS && !s->line_only)
		for (int j = 0; j < s->n; j++) {
			if (!drawable(fr, s, j))
				continue;
			const char *close = marker_open(f, st, px(fr, s->x[j]), py(fr, s->y[j]),
							c->dots ? 2.5 : MARKER_R, "point");
			fprintf(f, " data-x=\"%.15g\" data-y=\"%.15g\">", s->x[j], s->y[j]);
			point_title(f, fr, s, j);
			fprintf(f, "%s\n", close);
		}
	fputs("</g>\n", f);
}

/* ---- series that coincide: one legend entry, "blocks 2-5: the same rate" ---- */

#define COINCIDE_PX 2.0	/* closer than this at every point: one line on the plot */

static bool coincide(const struct frame *fr, const struct series *a, const struct series *b)
{
	int both = 0;

	if (a->n != b->n || a->markers_only != b->markers_only || a->line_only != b->line_only ||
	    a->shaded != b->shaded)
		return false;
	for (int j = 0; j < a->n; j++) {
		bool da = drawable(fr, a, j), db = drawable(fr, b, j);

		if (da != db)
			return false;
		if (!da)
			continue;
		if (fabs(px(fr, a->x[j]) - px(fr, b->x[j])) > 0.5 ||
		    fabs(py(fr, a->y[j]) - py(fr, b->y[j])) > COINCIDE_PX)
			return false;
		both++;
	}
	return both > 0;
}

/* leader[i]: the first series of i's group (series joined by coinciding, transitively) */
static void find_groups(const struct chart *c, const struct frame *fr, int *leader)
{
	for (int i = 0; i < c->ns; i++)
		leader[i] = i;
	for (int i = 0; i < c->ns; i++)
		for (int j = i + 1; j < c->ns; j++) {
			if (leader[i] == leader[j] || !coincide(fr, &c->s[i], &c->s[j]))
				continue;
			int from = leader[j] > leader[i] ? leader[j] : leader[i];
			int to = leader[j] > leader[i] ? leader[i] : leader[j];
			for (int k = 0; k < c->ns; k++)
				if (leader[k] == from)
					leader[k] = to;
		}
}

#define MAX_WORDS 8

static int split_words(const char *name, char words[MAX_WORDS][48])
{
	int n = 0;

	for (const char *p = name; *p && n <= MAX_WORDS;) {
		size_t len = strcspn(p, " ");
		if (n == MAX_WORDS)
			return -1;
		snprintf(words[n++], 48, "%.*s", (int)len, p);
		p += len;
		p += strspn(p, " ");
	}
	return n;
}

/*
 * The members' names with their common words once: "write zeros linear" and
 * "write ones random" make "write zeros/ones linear/random"; names of
 * different lengths are listed.
 */
static void default_group_name(char *buf, size_t n, const struct chart *c, const int *m, int nm)
{
	static char words[64][MAX_WORDS][48];
	int nw = split_words(c->s[m[0]].name, words[0]);
	bool same_shape = nw > 0 && nm <= 64;

	for (int k = 1; same_shape && k < nm; k++)
		same_shape = split_words(c->s[m[k]].name, words[k]) == nw;
	buf[0] = '\0';
	if (!same_shape) {
		for (int k = 0; k < nm; k++)
			fmt_append(buf, n, "%s%s", k ? ", " : "", c->s[m[k]].name);
		return;
	}
	for (int w = 0; w < nw; w++) {
		fmt_append(buf, n, "%s", w ? " " : "");
		for (int k = 0; k < nm; k++) {
			bool seen = false;
			for (int e = 0; e < k && !seen; e++)
				seen = strcmp(words[e][w], words[k][w]) == 0;
			if (!seen)
				fmt_append(buf, n, "%s%s", k ? "/" : "", words[k][w]);
		}
	}
}

static const char *same_words(const struct axis *ya)
{
	switch (ya->kind) {
	case AX_TIME:
	case AX_TIME_LOG:
		return "the same times";
	case AX_RATE:
	case AX_RATE_LOG:
	case AX_COUNT:
	case AX_COUNT_LOG:
		return "the same rate";
	default:
		return "the same values";
	}
}

/* The legend text of the group led by series i. */
static void group_text(char *buf, size_t n, const struct chart *c, const struct frame *fr,
		       const int *leader, int i)
{
	int members[MAX_SERIES_DRAWN], nm = 0;

	for (int k = 0; k < c->ns && nm < MAX_SERIES_DRAWN; k++)
		if (leader[k] == i)
			members[nm++] = k;
	if (nm == 1) {
		snprintf(buf, n, "%s", c->s[i].name);
		return;
	}
	(c->group_name ? c->group_name : default_group_name)(buf, n, c, members, nm);
	fmt_append(buf, n, ": %s", same_words(fr->ya));
}

/* ---- where a mark's label may go: off the data ---- */

struct box {
	double x0, y0, x1, y1;
};

#define MAX_OBSTACLES 4096

struct obstacles {
	int nseg, nbox;
	double seg[MAX_OBSTACLES][4];	/* x1 y1 x2 y2 */
	struct box box[MAX_OBSTACLES];
};

static void add_box(struct obstacles *o, struct box b)
{
	if (o->nbox < MAX_OBSTACLES)
		o->box[o->nbox++] = b;
}

static void add_segment(struct obstacles *o, double x1, double y1, double x2, double y2)
{
	if (o->nseg < MAX_OBSTACLES) {
		double *s = o->seg[o->nseg++];
		s[0] = x1, s[1] = y1, s[2] = x2, s[3] = y2;
	}
}

/* What is drawn of the data: each series' segments and markers, the marks' lines. */
static void collect_obstacles(const struct chart *c, const struct frame *fr, struct obstacles *o)
{
	o->nseg = o->nbox = 0;
	for (int i = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];
		double lx = 0, ly = 0;
		bool prev = false;
		for (int j = 0; j < s->n; j++) {
			if (!drawable(fr, s, j)) {
				prev = false;
				continue;
			}
			double x = px(fr, s->x[j]), y = py(fr, s->y[j]);
			double r = s->shaded ? 6 : MARKER_R + 1.5;
			if (!s->line_only)
				add_box(o, (struct box){ x - r, y - r, x + r, y + r });
			if (prev && !s->markers_only)
				add_segment(o, lx, ly, x, y);
			lx = x, ly = y, prev = true;
		}
	}
	for (int i = 0; i < c->nmarks; i++) {
		if (is_log(fr->xa) && c->marks[i].x <= 0)
			continue;
		double x = px(fr, c->marks[i].x);
		add_segment(o, x, fr->y0, x, fr->y0 + fr->h);
	}
}

static bool boxes_meet(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Does the segment cross the box (Liang-Barsky clipping)? */
static bool segment_meets(const double *s, const struct box *b)
{
	double t0 = 0, t1 = 1, dx = s[2] - s[0], dy = s[3] - s[1];
	double p[4] = { -dx, dx, -dy, dy };
	double q[4] = { s[0] - b->x0, b->x1 - s[0], s[1] - b->y0, b->y1 - s[1] };

	for (int k = 0; k < 4; k++) {
		if (p[k] == 0) {
			if (q[k] < 0)
				return false;
			continue;
		}
		double t = q[k] / p[k];
		if (p[k] < 0 && t > t0)
			t0 = t;
		else if (p[k] > 0 && t < t1)
			t1 = t;
		if (t0 > t1)
			return false;
	}
	return true;
}

/* The segments of mark `own` do not count: its label stands beside its own line. */
static bool box_is_free(const struct obstacles *o, const struct box *b, const struct box *taken,
			int ntaken, double own_x)
{
	for (int k = 0; k < o->nbox; k++)
		if (boxes_meet(&o->box[k], b))
			return false;
	for (int k = 0; k < o->nseg; k++) {
		const double *s = o->seg[k];
		if (s[0] == own_x && s[2] == own_x)
			continue;
		if (segment_meets(s, b))
			return false;
	}
	for (int k = 0; k < ntaken; k++)
		if (boxes_meet(&taken[k], b))
			return false;
	return true;
}

#define MARK_SIZE 11

/*
 * A mark's label: upright beside its line, at the top or the bottom of
 * the plot, left or right, wherever it touches no data; failing that,
 * level above the plot, where no data is.
 */
static void place_mark_label(FILE *f, const struct frame *fr, const struct obstacles *o,
			     const struct mark *m, double x, struct box *taken, int *ntaken)
{
	double len = text_width(m->label, MARK_SIZE), thick = MARK_SIZE;
	double asc = ASCENT * MARK_SIZE, desc = DESCENT * MARK_SIZE;

	/* top, then bottom, then anywhere along the line (the label's upper end in steps of 8) */
	int slots = 4 + 2 * (int)((fr->h - len) / 8);
	for (int k = 0; k < slots; k++) {
		bool left = k % 2 == 0, top = k < 2, start = k >= 2;	/* text runs up from ty */
		double ty = top ? fr->y0 + 4 : k < 4 ? fr->y0 + fr->h - 4 : fr->y0 + 4 + len + 8 * (k / 2 - 2);
		double tx = left ? x - 3 - desc : x + 3 + asc;
		struct box b = { tx - asc, start ? ty - len : ty, tx - asc + thick, start ? ty : ty + len };

		if (b.x0 < fr->x0 + 1 || b.x1 > fr->x0 + fr->w - 1 || b.y1 > fr->y0 + fr->h - 2 ||
		    !box_is_free(o, &b, taken, *ntaken, x))
			continue;
		taken[(*ntaken)++] = b;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" "
			   "transform=\"rotate(-90 %.1f %.1f)\">", tx, ty, MARK_SIZE, start ? "start" : "end",
			tx, ty);
		xml_text(f, m->label);
		fputs("</text>", f);
		return;
	}
	/* level, above the frame, kept inside the plot's width and clear of the other labels */
	double cx = x, y = fr->y0 - 4;
	if (cx - len / 2 < fr->x0)
		cx = fr->x0 + len / 2;
	if (cx + len / 2 > fr->x0 + fr->w)
		cx = fr->x0 + fr->w - len / 2;
	struct box b = { cx - len / 2, y - asc, cx + len / 2, y + desc };
	for (int k = 0; k < *ntaken; k++)
		if (boxes_meet(&taken[k], &b)) {
			cx = taken[k].x1 + 6 + len / 2;
			b = (struct box){ cx - len / 2, y - asc, cx + len / 2, y + desc };
		}
	taken[(*ntaken)++] = b;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\">", cx, y,
		MARK_SIZE);
	xml_text(f, m->label);
	fputs("</text>", f);
}

/* What the analysis found: a dashed vertical line, its name beside it and off the data. */
static void draw_marks(FILE *f, const struct chart *c, const struct frame *fr)
{
	static struct obstacles o;
	struct box taken[8];
	int ntaken = 0;

	collect_obstacles(c, fr, &o);
	for (int i = 0; i < c->nmarks; i++) {
		const struct mark *m = &c->marks[i];
		double x;

		if (fr->xa->kind == AX_SIZE_LOG && m->x <= 0)
			continue;
		x = px(fr, m->x);
		if (x < fr->x0 || x > fr->x0 + fr->w)
			continue;
		fprintf(f, "<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#555\" stroke-dasharray=\"4 3\"/>", x, fr->y0, x, fr->y0 + fr->h);
		place_mark_label(f, fr, &o, m, x, taken, &ntaken);
		fputs("</g>\n", f);
	}
}

/* ---- legend ---- */

#define LEGEND_SIZE 11
#define LEGEND_LINE 13

/* Text wrapped into lines of at most room pixels: how many lines were drawn. */
static int legend_text(FILE *f, const char *text, double x, double y, double room, bool draw)
{
	char line[256];
	const char *p = text;
	int lines = 0;

	while (*p) {
		size_t best = strcspn(p, " ");	/* a word at least */
		while (p[best]) {
			size_t next = best + 1 + strcspn(p + best + 1, " ");
			snprintf(line, sizeof line, "%.*s", (int)next, p);
			if (text_width(line, LEGEND_SIZE) > room)
				break;
			best = next;
		}
		snprintf(line, sizeof line, "%.*s", (int)best, p);
		if (draw) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"", x, y + lines * LEGEND_LINE);
			fit_font(f, line, LEGEND_SIZE, room);
			fputc('>', f);
			xml_text(f, line);
			fputs("</text>\n", f);
		}
		lines++;
		p += best;
		p += strspn(p, " ");
	}
	return lines > 0 ? lines : 1;
}

static void legend_swatch(FILE *f, const struct series *s, const struct style *st, double x,
			  double y)
{
	if (s->shaded)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\" "
			   "fill-opacity=\"0.18\"/>", x, y - 9, st->color);
	if (!s->markers_only) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", x, y - 4, x + 20, y - 4);
		stroke_attrs(f, st, 2);
		fputs("/>", f);
	}
	if (!s->line_only) {
		const char *close = marker_open(f, st, x + 10, y - 4, 3, "key");
		fprintf(f, ">%s", close);
	}
}

/* One entry per group of coinciding series, then the band; data-members names the series. */
static void draw_legend(FILE *f, const struct chart *c, const struct frame *fr, const int *leader,
			const struct style *styles, double x, double y)
{
	char text[512];
	double room = WIDTH - 4 - (x + 26);

	fputs("<g class=\"legend\" font-size=\"11\">\n", f);
	for (int i = 0; i < c->ns && y < HEIGHT - 30; i++) {
		if (leader[i] != i)
			continue;
		group_text(text, sizeof text, c, fr, leader, i);
		fputs("<g class=\"entry\" data-members=\"", f);
		for (int k = 0, first = 1; k < c->ns; k++)
			if (leader[k] == i) {
				fprintf(f, "%s%d", first ? "" : " ", k);
				first = 0;
			}
		fputs("\">", f);
		legend_swatch(f, &c->s[i], &styles[i], x, y);
		y += 3 + LEGEND_LINE * legend_text(f, text, x + 26, y, room, true);
		fputs("</g>\n", f);
	}
	if (c->band.on && y < HEIGHT - 30) {
		fprintf(f, "<g class=\"entry band-key\"><rect x=\"%.1f\" y=\"%.1f\" width=\"20\" "
			   "height=\"10\" fill=\"#888\" fill-opacity=\"0.3\"/>", x, y - 9);
		legend_text(f, c->band.label, x + 26, y, room, true);
		fputs("</g>\n", f);
	}
	fputs("</g>\n", f);
}

/* ---- the panel ---- */

/* A line of text above the chart, squeezed to the width if it is long. */
static void heading(FILE *f, const char *cls, const char *text, int y, int size)
{
	fprintf(f, "<text class=\"%s\" x=\"%d\" y=\"%d\"", cls, LEFT, y);
	fit_font(f, text, size, WIDTH - LEFT - 20);
	fputc('>', f);
	xml_text(f, text);
	fputs("</text>\n", f);
}

/* Fits the axes to the data; false when there is none. */
static bool fit_axes(struct chart *c)
{
	double lo = 0, hi = 0;
	bool any = data_range(c, true, &lo, &hi);

	if (!any) {
		lo = c->x.kind == AX_SIZE_LOG ? 9 : 0;
		hi = lo + 1;
	}
	axis_fit(&c->x, lo, hi, false);
	if (!data_range(c, false, &lo, &hi))
		lo = hi = 0;
	axis_fit(&c->y, lo, hi, true);
	return any || c->x.kind == AX_CATEGORY;
}

/*
 * One chart in a WIDTH x HEIGHT box at y = top: headings, axes, band,
 * marks, series, legend; in a <g class="panel"> when it is one of several.
 */
static void draw_panel(FILE *f, struct chart *c, int top, bool grouped)
{
	bool legend = c->ns > 1 || c->band.on;
	struct frame fr = { LEFT, TOP, WIDTH - LEFT - (legend ? LEGEND_W : RIGHT_PLAIN),
			    HEIGHT - TOP - BOTTOM, &c->x, &c->y };
	bool any = fit_axes(c), slanted;
	double depth = x_label_depth(&c->x, fr.w, &slanted);
	/* the x title under the tick labels, clear of the footer */
	double below = depth + 6 + X_TITLE_SIZE + 24;
	static int leader[MAX_SERIES_DRAWN];
	static struct style styles[MAX_SERIES_DRAWN];

	if (c->ns > MAX_SERIES_DRAWN)
		c->ns = MAX_SERIES_DRAWN;
	if (below > BOTTOM)
		fr.h = HEIGHT - TOP - below;
	if (grouped) {
		fprintf(f, "<g class=\"panel\" transform=\"translate(0 %d)\"", top);
		if (c->panel_name)
			fprintf(f, " data-panel=\"%s\"", c->panel_name);
		fputs(">\n", f);
	}
	heading(f, "title", c->title, 28, 15);
	heading(f, "subtitle", c->subtitle, 48, 12);
	draw_axes(f, &fr, slanted, depth);
	draw_band(f, c, &fr);
	find_groups(c, &fr, leader);
	for (int i = 0; i < c->ns; i++)
		styles[i] = series_style(c, leader[i]);
	draw_marks(f, c, &fr);
	if (!any)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			fr.x0 + fr.w / 2, fr.y0 + fr.h / 2);
	for (int i = 0; i < c->ns; i++)
		draw_series(f, &fr, c, i, &styles[i]);
	if (legend)
		draw_legend(f, c, &fr, leader, styles, fr.x0 + fr.w + 15, TOP + 10);
	if (grouped)
		fputs("</g>\n", f);
}

void svg_chart_write_panels(FILE *f, struct chart *charts, int n)
{
	int height = HEIGHT * (n > 0 ? n : 1);

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
		   "font-size=\"12\">\n", WIDTH, height, WIDTH, height);
	fputs("<title>", f);
	xml_text(f, charts[0].title);
	fputs(": ", f);
	xml_text(f, charts[0].subtitle);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height);
	for (int i = 0; i < n; i++)
		draw_panel(f, &charts[i], i * HEIGHT, n > 1 || charts[i].panel_name);
	fprintf(f, "<text class=\"footer\" x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">",
		LEFT, height - 8);
	xml_text(f, charts[n - 1].footer);
	fputs("</text>\n</svg>\n", f);
}

void svg_chart_write(FILE *f, struct chart *c)
{
	svg_chart_write_panels(f, c, 1);
}
