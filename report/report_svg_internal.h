/*
 * report_svg: the chart model shared by the chart adapters (report/report_svg.c)
 * and the SVG drawing primitives (report/report_svg_draw.c). Internal; not API.
 */
#ifndef REPORT_SVG_INTERNAL_H
#define REPORT_SVG_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

enum axis_kind {
	AX_SIZE_LOG,	/* bytes, log2 scale */
	AX_SIZE,	/* bytes, linear */
	AX_TIME,	/* ns, linear */
	AX_RATE,	/* bytes per second, linear from 0 */
	AX_RATE_LOG,	/* bytes per second, log10 scale: a collapse stays visible */
	AX_TIME_LOG,	/* ns, log10 scale: small and large transfers both readable */
};

struct axis {
	enum axis_kind kind;
	const char *title;
	double lo, hi;		/* data range after niceing (in scale units: log2 for AX_SIZE_LOG) */
	double step;		/* tick step in scale units */
	const double *ticks;	/* explicit tick positions (data units), or NULL */
	int nticks;
	bool free_range;	/* linear: fit the data with margins instead of starting at 0 */
};

struct series {
	char name[96];
	int n;
	double *x, *y;		/* data units */
	bool *missing;		/* failed measurement: a gap */
	bool markers_only;	/* unconnected markers (3*2^n boundaries between 2^n ones) */
	bool shaded;		/* drawn over a wide pale band: the FAT area */
	bool line_only;		/* no markers: a fitted line, not measurements */
	enum { STYLE_INDEX, STYLE_HOLDS, STYLE_COLLAPSED } style;	/* --auto: by verdict */
};

/* A vertical line at x naming what the analysis found there ("erase block 4MiB"). */
struct mark {
	double x;
	char label[64];
};

struct chart {
	char title[512], subtitle[256];
	struct axis x, y;
	struct series *s;
	int ns;
	bool dots;		/* a scatter plot: points only, while they are few enough to draw */
	struct mark marks[4];
	int nmarks;
	char footer[512];	/* device, test, date */
};

/* Writes the whole chart as one SVG document (report/report_svg_draw.c). */
void svg_chart_write(FILE *f, struct chart *c);
/* Several charts as panels of one SVG document, one below the other; the last one's footer. */
void svg_chart_write_panels(FILE *f, struct chart *charts, int n);

#endif
