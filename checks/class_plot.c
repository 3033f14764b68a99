/*
 * --class --plot: each promise next to its measurement. One panel for the
 * sequential promises (C/U/V, and A1/A2's 10 MB/s) against the sustained
 * rate, with the reader's ceiling; one for the sequential writes as they
 * went (the rate per unit written, where a write cache ended, the window
 * that decided, the promises); with an A claim one for the 4 KiB random
 * I/O promises against the figure at the queue depth the verdict used. Per
 * mark a bar (promised) and a dot (measured, coloured by the verdict), on
 * a log axis where the figures differ by a decade or more. Drawn by the
 * report's chart engine (report/report_svg_draw.c).
 */
#include "checks/class.h"

#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/report.h"
#include "report/report_svg_internal.h"

#define MAX_SLOTS (CLASS_MAX_CLAIMS * 3)
#define MAX_SERIES 8
#define DECADE 10	/* figures this far apart: a log axis */

#define MAX_POINTS (CLASS_MAX_UNITS > MAX_SLOTS + 1 ? CLASS_MAX_UNITS : MAX_SLOTS + 1)

struct panel {
	struct chart c;
	struct series s[MAX_SERIES];
	double x[MAX_SERIES][MAX_POINTS], y[MAX_SERIES][MAX_POINTS];
	bool missing[MAX_SERIES][MAX_POINTS];
	char label_text[MAX_SLOTS][FMT_BUF];
	const char *labels[MAX_SLOTS];
	const struct class_req *req[MAX_SLOTS];
	int nslots;
};

/* palette keys (report/report_svg_draw.c): blue, green, red, grey, purple */
enum { KEY_PROMISED = 0, KEY_MET = 2, KEY_SHORT = 1, KEY_UNKNOWN = 7, KEY_CEILING = 4 };

static struct series *new_series(struct panel *p, const char *name, int color, enum marker mk)
{
	int i = p->c.ns;

	if (i >= MAX_SERIES)
		return NULL;
	p->c.ns++;
	p->s[i] = (struct series){ .x = p->x[i], .y = p->y[i], .missing = p->missing[i],
				   .keyed = true, .color = color, .marker = mk, .filled = true,
				   .markers_only = true };
	snprintf(p->s[i].name, sizeof p->s[i].name, "%s", name);
	return &p->s[i];
}

/* One point per slot: the value where want() holds, a gap elsewhere; NULL if none holds. */
static struct series *slot_series(struct panel *p, const char *name, int color, enum marker mk,
				  bool promised, int verdict)
{
	int have = 0;

	for (int k = 0; k < p->nslots; k++)
		have += promised || (p->req[k]->verdict == (enum class_verdict)verdict &&
				     p->req[k]->measured > 0);
	if (!have)
		return NULL;
	struct series *s = new_series(p, name, color, mk);
	for (int k = 0; s && k < p->nslots; k++) {
		const struct class_req *q = p->req[k];
		bool on = promised || (q->verdict == (enum class_verdict)verdict && q->measured > 0);
		s->x[s->n] = k + 0.5;
		s->y[s->n] = promised ? q->promised : q->measured;
		s->missing[s->n++] = !on;
	}
	return s;
}

/* "C10", "sustained writes"; "A2 reads", "4 in flight"; then the verdict with its margin */
static void slot_label(char *buf, size_t n, const struct class_claim *c, const struct class_req *q)
{
	if (q->metric == CM_SEQ_WRITE)
		snprintf(buf, n, "%s", c->name);
	else
		snprintf(buf, n, "%s %s\n%s", c->name, q->metric == CM_RAND_READ ? "reads" : "writes",
			 q->depth > 1 ? "" : "1 at a time");
	if (q->metric != CM_SEQ_WRITE && q->depth > 1) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%d in flight", q->depth);
	}
	if (q->verdict == CV_UNKNOWN)
		fmt_append(buf, n, "\nunknown");
	else
		fmt_append(buf, n, "\n%s %+.0f%%", class_verdict_name(q->verdict),
			   (q->measured / q->promised - 1) * 100);
}

static void take_slots(struct panel *p, const struct class_result *r, bool random)
{
	for (int i = 0; i < r->nclaims; i++)
		for (int j = 0; j < r->claims[i].nreq && p->nslots < MAX_SLOTS; j++) {
			const struct class_req *q = &r->claims[i].req[j];
			if ((q->metric != CM_SEQ_WRITE) != random)
				continue;
			slot_label(p->label_text[p->nslots], FMT_BUF, &r->claims[i], q);
			p->labels[p->nslots] = p->label_text[p->nslots];
			p->req[p->nslots++] = q;
		}
}

/* Linear from 0 while every figure is within a decade of the others; log beyond. */
static bool spans_decades(const struct panel *p, double also)
{
	double lo = also > 0 ? also : 0, hi = also;

	for (int k = 0; k < p->nslots; k++)
		for (int m = 0; m < 2; m++) {
			double v = m ? p->req[k]->measured : p->req[k]->promised;
			if (v <= 0)
				continue;
			lo = lo > 0 && lo < v ? lo : v;
			hi = hi > v ? hi : v;
		}
	return lo > 0 && hi >= DECADE * lo;
}

static void panel_base(struct panel *p, const char *device, const char *title)
{
	memset(&p->c, 0, sizeof p->c);
	p->c.s = p->s;
	p->c.ns = 0;
	snprintf(p->c.title, sizeof p->c.title, "flashbench --class %s: %s", device, title);
	snprintf(p->c.footer, sizeof p->c.footer, "%s, %s; conditions ours, not the SD "
		 "Association's full test", device, report_run_time() ? report_run_time() : "");
	p->c.x = (struct axis){ .kind = AX_CATEGORY, .labels = p->labels, .nlabels = p->nslots,
				.title = "each mark: promised (bar) and measured (dot, coloured by the "
					 "verdict)" };
}

static void verdict_series(struct panel *p)
{
	slot_series(p, "promised", KEY_PROMISED, MK_BAR, true, 0);
	slot_series(p, "measured: met", KEY_MET, MK_CIRCLE, false, CV_MET);
	slot_series(p, "measured: short", KEY_SHORT, MK_CIRCLE, false, CV_SHORT);
	slot_series(p, "measured: unknown", KEY_UNKNOWN, MK_DIAMOND, false, CV_UNKNOWN);
}

/* The reader's ceiling: large sequential reads, a line across the panel. */
static void ceiling_series(struct panel *p, double rate, bool iops)
{
	char name[96], v[FMT_BUF];

	if (rate <= 0)
		return;
	if (iops)
		snprintf(name, sizeof name, "the link's ceiling in 4KiB I/Os (%s reads)",
			 fmt_rate(v, rate * 4096));
	else
		snprintf(name, sizeof name, "the link's ceiling (large reads, %s)", fmt_rate(v, rate));
	struct series *s = new_series(p, name, KEY_CEILING, MK_CIRCLE);
	if (!s)
		return;
	s->markers_only = false;
	s->line_only = true;
	s->dash = 1;
	for (int k = 0; k <= p->nslots; k += p->nslots > 0 ? p->nslots : 1) {
		s->x[s->n] = k;
		s->y[s->n++] = rate;
	}
}

static void sequential_panel(struct panel *p, const char *device, const struct class_result *r)
{
	char summary[1024], a[FMT_BUF], b[FMT_BUF], w[FMT_BUF];

	take_slots(p, r, false);
	panel_base(p, device, "sequential write promises");
	p->c.panel_name = "rates";
	class_summary(summary, sizeof summary, r);
	snprintf(p->c.subtitle, sizeof p->c.subtitle, "sustained: %s over the last %s of %s written "
		 "(1 in flight); %.160s%s", fmt_rate(a, r->sustained),
		 fmt_size(b, (uint64_t)(r->sustain.to - r->sustain.from) * r->sustain.unit),
		 fmt_size(w, r->sustain.written), summary, strlen(summary) > 160 ? "..." : "");
	bool log = spans_decades(p, r->link.value);
	p->c.y = (struct axis){ .kind = log ? AX_RATE_LOG : AX_RATE,
				.title = log ? "bytes per second (log scale; M = 10^6)"
					     : "bytes per second (M = 10^6)" };
	verdict_series(p);
	ceiling_series(p, r->link.value, false);
}

static void random_panel(struct panel *p, const char *device, const struct class_result *r)
{
	char a[FMT_BUF];

	take_slots(p, r, true);
	panel_base(p, device, "4KiB random I/O promises");
	p->c.panel_name = "iops";
	snprintf(p->c.subtitle, sizeof p->c.subtitle, "inside the %s test area written sequentially; "
		 "each figure at the queue depth its verdict used", fmt_size(a, r->plan.area));
	bool log = spans_decades(p, 0);
	p->c.y = (struct axis){ .kind = log ? AX_COUNT_LOG : AX_COUNT,
				.title = log ? "I/Os per second (IOPS, log scale)" : "I/Os per second (IOPS)" };
	verdict_series(p);
	ceiling_series(p, r->link.value / 4096, true);
}

/* "C10 A1: 10M/s promised": a flat line per distinct sequential promise */
static void promise_lines(struct panel *p, const struct class_result *r, double x_end)
{
	double seen[MAX_SLOTS];
	int nseen = 0;

	for (int i = 0; i < r->nclaims; i++)
		for (int j = 0; j < r->claims[i].nreq; j++) {
			const struct class_req *q = &r->claims[i].req[j];
			char name[96] = "", v[FMT_BUF];
			bool dup = false;
			for (int k = 0; k < nseen; k++)
				dup = dup || seen[k] == q->promised;
			if (q->metric != CM_SEQ_WRITE || dup || nseen >= MAX_SLOTS)
				continue;
			seen[nseen++] = q->promised;
			for (int a = 0; a < r->nclaims; a++)
				for (int b = 0; b < r->claims[a].nreq; b++)
					if (r->claims[a].req[b].metric == CM_SEQ_WRITE &&
					    r->claims[a].req[b].promised == q->promised)
						fmt_append(name, sizeof name, "%s ", r->claims[a].name);
			fmt_append(name, sizeof name, "promise: %s", fmt_rate(v, q->promised));
			struct series *s = new_series(p, name, KEY_PROMISED + nseen, MK_CIRCLE);
			if (!s)
				return;
			s->markers_only = false;
			s->line_only = true;
			s->dash = nseen;
			s->x[0] = 0, s->y[0] = q->promised;
			s->x[1] = x_end, s->y[1] = q->promised;
			s->n = 2;
		}
}

static void add_mark(struct chart *c, double x, const char *fmt, uint64_t v)
{
	char sz[FMT_BUF];

	if (c->nmarks >= (int)(sizeof c->marks / sizeof c->marks[0]))
		return;
	c->marks[c->nmarks].x = x;
	snprintf(c->marks[c->nmarks].label, sizeof c->marks[0].label, fmt, fmt_size(sz, v));
	c->nmarks++;
}

/* The sequential writes as they went: each unit's rate at the bytes written by its end. */
static void writes_panel(struct panel *p, const char *device, const struct class_result *r)
{
	const struct class_sustain *u = &r->sustain;
	char a[FMT_BUF], b[FMT_BUF];

	memset(&p->c, 0, sizeof p->c);
	p->c.s = p->s;
	p->c.panel_name = "writes";
	snprintf(p->c.title, sizeof p->c.title, "flashbench --class %s: sequential writes as they went",
		 device);
	snprintf(p->c.subtitle, sizeof p->c.subtitle, "the %s area written %d time%s, %s in all; %s",
		 fmt_size(a, r->plan.area), u->passes, u->passes == 1 ? "" : "s", fmt_size(b, u->written),
		 u->cache_seen ? "a write cache's end, then the rate that decides" :
		 "no end of a write cache seen");
	snprintf(p->c.footer, sizeof p->c.footer, "%s, %s; conditions ours, not the SD "
		 "Association's full test", device, report_run_time() ? report_run_time() : "");
	p->c.x = (struct axis){ .kind = AX_SIZE, .title = "bytes written (the area again and again)" };
	p->c.y = (struct axis){ .kind = AX_RATE, .title = "write rate per unit, bytes/s (M = 10^6)" };
	snprintf(a, sizeof a, "%s", fmt_size(b, u->unit));
	struct series *s = new_series(p, "", KEY_MET - 2, MK_CIRCLE);
	if (!s)
		return;
	snprintf(s->name, sizeof s->name, "writes, per %s", a);
	s->markers_only = false;
	s->filled = true;
	for (int i = 0; i < u->nunits && s->n < MAX_POINTS; i++) {
		s->x[s->n] = (double)(i + 1) * (double)u->unit;
		s->y[s->n] = u->unit_ns[i] > 0 ? (double)u->unit * 1e9 / u->unit_ns[i] : 0;
		s->missing[s->n++] = !(u->unit_ns[i] > 0);
	}
	promise_lines(p, r, (double)u->nunits * (double)u->unit);
	if (u->cache_seen)
		add_mark(&p->c, (double)u->cache_bytes, "write cache ends ~%s", u->cache_bytes);
	add_mark(&p->c, (double)u->from * (double)u->unit, "sustained from %s",
		 (uint64_t)u->from * u->unit);
}

int class_plot(FILE *f, const char *device, const struct class_result *r)
{
	struct panel *p = calloc(3, sizeof *p);
	struct chart charts[3];
	int n = 0;

	if (!p || !r->seq.run || !r->decided) {
		free(p);
		return -1;
	}
	sequential_panel(&p[0], device, r);
	charts[n++] = p[0].c;
	if (r->sustain.nunits > 1) {
		writes_panel(&p[1], device, r);
		charts[n++] = p[1].c;
	}
	if (r->rread.run) {
		random_panel(&p[2], device, r);
		if (p[2].nslots)
			charts[n++] = p[2].c;
	}
	svg_chart_write_panels(f, charts, n);
	free(p);
	return 0;
}
