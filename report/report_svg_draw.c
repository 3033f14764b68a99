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
       LEGEND_W = 190, MAX_MARKERS = 4096 };

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

static const char *tick_label(char *buf, enum axis_kind kind, double v)
{
	switch (kind) {
	case AX_SIZE_LOG:
	case AX_SIZE:
		return fmt_size(buf, v <= 0 ? 0 : (uint64_t)llround(v));
	case AX_TIME:
	case AX_TIME_LOG:
		return fmt_time(buf, (int64_t)llround(v));
	case AX_RATE:
	case AX_RATE_LOG:
		return fmt_rate(buf, v);
	}
	return "";
}

/* ---- scales ---- */

static bool is_log10(const struct axis *a)
{
	return a->kind == AX_RATE_LOG || a->kind == AX_TIME_LOG;
}

static bool is_log(const struct axis *a)
{
	return a->kind == AX_SIZE_LOG || is_log10(a);
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

/* Data range of one axis over every series, in scale units. */
static bool data_range(const struct chart *c, bool is_x, double *lo, double *hi)
{
	const struct axis *a = is_x ? &c->x : &c->y;
	bool any = false;

	for (int i = 0; i < c->ns; i++)
		for (int j = 0; j < c->s[i].n; j++) {
			double v = is_x ? c->s[i].x[j] : c->s[i].y[j];

			if (c->s[i].missing[j] || !isfinite(v) ||
			    (is_log(a) && v <= 0))
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

/* Linear axes: from zero (or the data's low end with free_range), with a margin above. */
static void linear_range(const struct axis *a, double *lo, double *hi)
{
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
	if (is_y && (a->kind == AX_TIME || a->kind == AX_RATE || a->kind == AX_SIZE))
		linear_range(a, &lo, &hi);
	else if (a->kind == AX_TIME || a->kind == AX_RATE || a->kind == AX_SIZE) {
		lo = lo > 0 ? 0 : lo;
		hi = hi < 0 ? 0 : hi;
	}
	if (hi - lo <= 0) {
		lo -= 1;
		hi += 1;
	}
	switch (a->kind) {
	case AX_SIZE_LOG:
		a->step = 1;	/* a label at every power of two */
		a->lo = floor(lo);
		a->hi = ceil(hi);
		break;
	case AX_RATE_LOG:
	case AX_TIME_LOG:
		a->step = 1;	/* decades */
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

/* The x axis's tick positions (data units); at most max. */
static int x_ticks(const struct axis *xa, double *out, int max)
{
	int n = 0;

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

/*
 * Below the plot: tick labels side by side, or slanted when many (every
 * power of two) would not fit; how far below the plot's bottom edge they
 * reach, so that the axis title goes under them.
 */
static double x_label_depth(const struct axis *xa, double width, bool *slanted)
{
	double ticks[256], widest = 0;
	char buf[FMT_BUF];
	int n = x_ticks(xa, ticks, 256);

	for (int i = 0; i < n; i++) {
		double w = text_width(tick_label(buf, xa->kind, ticks[i]), TICK_SIZE);
		if (w > widest)
			widest = w;
	}
	*slanted = width / (n > 0 ? n : 1) < widest + 8;
	if (!*slanted)
		return 18 + DESCENT * TICK_SIZE;
	double a = SLANT_DEG * M_PI / 180;
	/* the label ends at the tick, 14 below the plot, and runs down-left from there */
	return 14 + widest * sin(a) + DESCENT * TICK_SIZE * cos(a);
}

static void draw_x_tick(FILE *f, const struct frame *fr, double v, bool slanted)
{
	char buf[FMT_BUF];
	double x = px(fr, v), y = fr->y0 + fr->h + 18;

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		x, fr->y0, x, fr->y0 + fr->h);
	if (slanted)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			   "transform=\"rotate(-%d %.1f %.1f)\">%s</text>\n",
			x + 4, y - 4, SLANT_DEG, x + 4, y - 4, tick_label(buf, fr->xa->kind, v));
	else
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, y, tick_label(buf, fr->xa->kind, v));
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
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"#333\"/>\n", fr->x0, fr->y0, fr->w, fr->h);
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
	return (!is_log(fr->xa) || s->x[j] > 0) && (!is_log(fr->ya) || s->y[j] > 0);
}

/* Polylines between drawable points; a failed measurement leaves a gap. */
static void draw_lines(FILE *f, const struct frame *fr, const struct series *s, const char *color,
		       const char *style)
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
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" %s points=\"",
				color, style);
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", px(fr, s->x[j]), py(fr, s->y[j]));
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
}

/* Series i of n: its own dash pattern, and a marker ring one size larger than the next series'. */
static double marker_radius(int index, int n)
{
	int rank = n - 1 - index;

	return 2.5 + 1.5 * (rank < 4 ? rank : 4);
}

static void line_style(char *buf, size_t len, const struct series *s, int index, int width_x10)
{
	const char *dash = dashes[index % NDASHES];

	if (s->style == STYLE_HOLDS) {
		dash = "";
		width_x10 += 5;
	} else if (s->style == STYLE_COLLAPSED) {
		dash = "3 3";
		width_x10 -= 3;
	}
	snprintf(buf, len, "stroke-width=\"%.1f\"%s%s%s", width_x10 / 10.0, dash[0] ? " stroke-dasharray=\"" : "",
		 dash, dash[0] ? "\"" : "");
}

static void draw_series(FILE *f, const struct frame *fr, const struct series *s, int index, int n,
			bool dots)
{
	const char *color = palette[index % NPALETTE];
	double r = n > 1 ? marker_radius(index, n) : 2.5;
	char style[96];

	fputs("<g class=\"series\" data-name=\"", f);
	xml_text(f, s->name);
	fputs("\">\n", f);
	if (s->shaded && !s->markers_only)
		draw_lines(f, fr, s, color, "stroke-width=\"12\" stroke-opacity=\"0.18\" "
			   "stroke-linejoin=\"round\" class=\"shade\"");
	line_style(style, sizeof(style), s, index, 15);
	if (!s->markers_only && (!dots || s->n > MAX_MARKERS))
		draw_lines(f, fr, s, color, style);
	if (s->n <= MAX_MARKERS && !s->line_only) {
		for (int j = 0; j < s->n; j++) {
			if (!drawable(fr, s, j))
				continue;
			/* the front series is solid; rings behind it stay visible where they coincide */
			bool ring = n > 1 && index != n - 1;

			fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
				   "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" "
				   "data-x=\"%.15g\" data-y=\"%.15g\">",
				px(fr, s->x[j]), py(fr, s->y[j]), r, ring ? "none" : color,
				ring ? color : "none", s->x[j], s->y[j]);
			point_title(f, fr, s, j);
			fputs("</circle>\n", f);
		}
	}
	fputs("</g>\n", f);
}

static void draw_legend(FILE *f, const struct chart *c, double x, double y)
{
	char style[96];

	fputs("<g class=\"legend\" font-size=\"11\">\n", f);
	for (int i = 0; i < c->ns && y < HEIGHT - 30; i++, y += 16) {
		const char *color = palette[i % NPALETTE];
		bool ring = c->ns > 1 && i != c->ns - 1;

		if (c->s[i].shaded)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\" "
				   "fill-opacity=\"0.18\"/>", x, y - 9, color);
		line_style(style, sizeof(style), &c->s[i], i, 20);
		if (!c->s[i].markers_only)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" %s/>",
				x, y - 4, x + 20, y - 4, color, style);
		if (!c->s[i].line_only)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" stroke=\"%s\"/>",
				x + 10, y - 4, ring ? "white" : color, color);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"", x + 26, y);
		fit_font(f, c->s[i].name, 11, WIDTH - 4 - (x + 26));
		fputc('>', f);
		xml_text(f, c->s[i].name);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* What the analysis found: a dashed vertical line with its name at the top. */
static void draw_marks(FILE *f, const struct chart *c, const struct frame *fr)
{
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
		/* left of the line, or right of it where the y labels are close */
		double tx = x - 3 - 11 * ASCENT < fr->x0 + 2 ? x + 3 + 11 * ASCENT : x - 3;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
			   "transform=\"rotate(-90 %.1f %.1f)\">", tx, fr->y0 + 4, tx, fr->y0 + 4);
		xml_text(f, m->label);
		fputs("</text></g>\n", f);
	}
}

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
	return any;
}

/*
 * One chart in a WIDTH x HEIGHT box at y = top: headings, axes, marks,
 * series, legend; in a <g class="panel"> when it is one of several.
 */
static void draw_panel(FILE *f, struct chart *c, int top, bool grouped)
{
	bool legend = c->ns > 1;
	struct frame fr = { LEFT, TOP, WIDTH - LEFT - (legend ? LEGEND_W : RIGHT_PLAIN),
			    HEIGHT - TOP - BOTTOM, &c->x, &c->y };
	bool any = fit_axes(c), slanted;
	double depth = x_label_depth(&c->x, fr.w, &slanted);
	/* the x title under the tick labels, clear of the footer */
	double below = depth + 6 + X_TITLE_SIZE + 24;

	if (below > BOTTOM)
		fr.h = HEIGHT - TOP - below;
	if (grouped)
		fprintf(f, "<g class=\"panel\" transform=\"translate(0 %d)\">\n", top);
	heading(f, "title", c->title, 28, 15);
	heading(f, "subtitle", c->subtitle, 48, 12);
	draw_axes(f, &fr, slanted, depth);
	draw_marks(f, c, &fr);
	if (!any)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			fr.x0 + fr.w / 2, fr.y0 + fr.h / 2);
	for (int i = 0; i < c->ns; i++)
		draw_series(f, &fr, &c->s[i], i, c->ns, c->dots);
	if (legend)
		draw_legend(f, c, fr.x0 + fr.w + 15, TOP + 10);
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
		draw_panel(f, &charts[i], i * HEIGHT, n > 1);
	fprintf(f, "<text class=\"footer\" x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">",
		LEFT, height - 8);
	xml_text(f, charts[n - 1].footer);
	fputs("</text>\n</svg>\n", f);
}

void svg_chart_write(FILE *f, struct chart *c)
{
	svg_chart_write_panels(f, c, 1);
}
