/*
 * report_svg: the chart model shared by the chart adapters (report/report_svg.c)
 * and the SVG drawing primitives (report/report_svg_draw.c). Internal; not API.
 */
#ifndef REPORT_SVG_INTERNAL_H
#define REPORT_SVG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum axis_kind {
	AX_SIZE_LOG,	/* bytes, log2 scale */
	AX_SIZE,	/* bytes, linear */
	AX_TIME,	/* ns, linear */
	AX_RATE,	/* bytes per second, linear from 0 */
	AX_RATE_LOG,	/* bytes per second, log10 scale: a collapse stays visible */
	AX_TIME_LOG,	/* ns, log10 scale: small and large transfers both readable */
	AX_COUNT,	/* a count per second (IOPS), linear from 0 */
	AX_COUNT_LOG,	/* a count per second, log10 scale */
	AX_CATEGORY,	/* x only: one slot per label, data x = slot index + 0.5 */
};

struct axis {
	enum axis_kind kind;
	const char *title;
	double lo, hi;		/* data range after niceing (in scale units: log2 for AX_SIZE_LOG) */
	double step;		/* tick step in scale units */
	const double *ticks;	/* explicit tick positions (data units), or NULL */
	int nticks;
	bool free_range;	/* linear: fit the data with margins instead of starting at 0 */
	double min_span;	/* linear y: at least this span (data units), centred on the data */
	const char *const *labels;	/* AX_CATEGORY: one per slot; "\n" starts a second line */
	int nlabels;
};

/* Marker shapes; with a colour and a dash pattern they tell every series of a panel apart. */
enum marker { MK_CIRCLE, MK_SQUARE, MK_TRIANGLE, MK_DIAMOND, MK_TRIANGLE_DOWN, MK_SHAPES,
	      MK_BAR = MK_SHAPES,	/* a short horizontal bar: a promised figure */
};

struct series {
	char name[96];
	int n;
	double *x, *y;		/* data units */
	bool *missing;		/* failed measurement: a gap */
	bool markers_only;	/* unconnected markers (3*2^n boundaries between 2^n ones) */
	bool shaded;		/* drawn over a wide pale band: the FAT area */
	bool line_only;		/* no markers: a fitted line, not measurements */
	/*
	 * Style keys, set by the chart when keyed (else from the series' index):
	 * colour (palette index), dash pattern (0 solid) and marker shape. The
	 * chart keeps the triples distinct within a panel.
	 */
	bool keyed;
	int color, dash;
	enum marker marker;
	bool filled;		/* solid markers (else rings on white) */
	long long num;		/* for the chart's group_name: N, a block's number */
	int variant;		/* for the chart's group_name: random, collapsed, FAT area */
};

#define SVG_COLORS 10	/* colours in the palette; keys beyond repeat them */

/* A vertical line at x naming what the analysis found there ("erase block 4MiB"). */
struct mark {
	double x;
	char label[64];
};

/* A horizontal band of y values (-a's noise floor), named in the legend. */
struct band {
	bool on;
	double lo, hi;		/* data units */
	char label[96];
};

/*
 * Series that coincide on the plot share one legend entry, named by the
 * chart's group_name from its members' indices ("blocks 2-5"; NULL: the
 * members' names, their common words once); ": the same rate" follows.
 */
struct chart;
typedef void svg_group_name_fn(char *buf, size_t n, const struct chart *c, const int *members,
			       int nmembers);

struct chart {
	char title[512], subtitle[256];
	struct axis x, y;
	struct series *s;
	int ns;
	bool dots;		/* a scatter plot: points only, while they are few enough to draw */
	struct mark marks[4];
	int nmarks;
	struct band band;
	svg_group_name_fn *group_name;
	const char *panel_name;	/* data-panel attribute of its <g class="panel">, or NULL */
	char footer[512];	/* device, test, date */
};

/* Writes the whole chart as one SVG document (report/report_svg_draw.c). */
void svg_chart_write(FILE *f, struct chart *c);
/* Several charts as panels of one SVG document, one below the other; the last one's footer. */
void svg_chart_write_panels(FILE *f, struct chart *charts, int n);

#endif
