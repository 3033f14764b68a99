/*
 * --class --plot: per-second rates (sequential writes, the link's reads)
 * and, with an A claim, per-second IOPS, each against the promises, as
 * one SVG of one or two charts stacked. The charts are drawn by the
 * report's chart engine (report/report_svg_draw.c).
 */
#include "checks/class.h"

#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/report.h"
#include "report/report_svg_internal.h"

#define MAX_SERIES 12
#define MAX_PTS (CLASS_MAX_POINTS + 2)

struct plot {
	struct chart c;
	struct series s[MAX_SERIES];
	double x[MAX_SERIES][MAX_PTS], y[MAX_SERIES][MAX_PTS];
	bool missing[MAX_SERIES][MAX_PTS];
	double x_end;
};

static struct series *new_series(struct plot *p, const char *name)
{
	int i = p->c.ns;

	if (i >= MAX_SERIES)
		return NULL;
	p->c.ns++;
	p->s[i] = (struct series){ .x = p->x[i], .y = p->y[i], .missing = p->missing[i] };
	snprintf(p->s[i].name, sizeof p->s[i].name, "%s", name);
	return &p->s[i];
}

static void add_phase(struct plot *p, const char *name, const struct class_phase *ph)
{
	struct series *s;

	if (!ph->run || !ph->npoints || !(s = new_series(p, name)))
		return;
	for (int i = 0; i < ph->npoints && s->n < MAX_PTS; i++) {
		s->x[s->n] = ph->t_ns[i];
		s->y[s->n++] = ph->per_s[i];
		if (ph->t_ns[i] > p->x_end)
			p->x_end = ph->t_ns[i];
	}
}

/* One flat line per distinct promise of the metrics asked for: "C10 U1 A1: 10M/s". */
static void add_promises(struct plot *p, const struct class_result *r, bool random)
{
	double seen[CLASS_MAX_CLAIMS * 3];
	int nseen = 0;

	for (int i = 0; i < r->nclaims; i++)
		for (int j = 0; j < r->claims[i].nreq; j++) {
			const struct class_req *q = &r->claims[i].req[j];
			double key = q->promised * (q->metric == CM_RAND_WRITE ? -1 : 1);
			bool dup = false;
			char name[96], v[FMT_BUF];

			if ((q->metric != CM_SEQ_WRITE) != random)
				continue;
			for (int k = 0; k < nseen; k++)
				dup = dup || seen[k] == key;
			if (dup)
				continue;
			seen[nseen++] = key;
			name[0] = '\0';
			for (int a = 0; a < r->nclaims; a++)
				for (int b = 0; b < r->claims[a].nreq; b++)
					if (r->claims[a].req[b].metric == q->metric &&
					    r->claims[a].req[b].promised == q->promised)
						fmt_append(name, sizeof name, "%s ", r->claims[a].name);
			if (q->metric == CM_SEQ_WRITE)
				fmt_append(name, sizeof name, "promise: %s", fmt_rate(v, q->promised));
			else
				fmt_append(name, sizeof name, "promise: %.0f %s IOPS", q->promised,
					q->metric == CM_RAND_READ ? "read" : "write");
			struct series *s = new_series(p, name);
			if (!s)
				return;
			s->x[0] = 0;
			s->y[0] = q->promised;
			s->x[1] = p->x_end > 0 ? p->x_end : 1e9;
			s->y[1] = q->promised;
			s->n = 2;
		}
}

static void chart_base(struct plot *p, const char *device, const char *title, const char *ytitle)
{
	memset(&p->c, 0, sizeof p->c);
	p->c.s = p->s;
	p->x_end = 0;
	snprintf(p->c.title, sizeof p->c.title, "flashbench --class %s: %s", device, title);
	snprintf(p->c.footer, sizeof p->c.footer, "%s, %s; conditions ours, not the SD "
		 "Association's full test", device, report_run_time() ? report_run_time() : "");
	p->c.x = (struct axis){ .kind = AX_TIME, .title = "device time in the phase" };
	p->c.y = (struct axis){ .kind = AX_RATE, .title = ytitle };
}

/* One chart into memory, without the XML declaration, so two can share one document. */
static char *chart_text(struct chart *c, int *w, int *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	svg_chart_write(m, c);
	fclose(m);
	char *svg = buf ? strstr(buf, "<svg") : NULL;
	if (!svg || sscanf(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\"",
			   w, h) != 2) {
		free(buf);
		return NULL;
	}
	memmove(buf, svg, strlen(svg) + 1);
	return buf;
}

int class_plot(FILE *f, const char *device, const struct class_result *r)
{
	struct plot *p = calloc(1, sizeof *p);
	char *top = NULL, *bottom = NULL, summary[1024];
	int w = 0, h = 0, w2 = 0, h2 = 0, rc = -1;

	if (!p || !r->seq.run)
		goto out;
	class_summary(summary, sizeof summary, r);
	chart_base(p, device, "sequential rates per second", "bytes per second");
	snprintf(p->c.subtitle, sizeof p->c.subtitle, "%.200s%s", summary,
		 strlen(summary) > 200 ? "..." : "");
	add_phase(p, "sequential writes", &r->seq);
	add_phase(p, "large sequential reads (the link)", &r->link);
	add_promises(p, r, false);
	top = chart_text(&p->c, &w, &h);
	if (r->rread.run) {
		chart_base(p, device, "4KiB random I/O per second", "I/Os per second (IOPS)");
		snprintf(p->c.subtitle, sizeof p->c.subtitle, "inside the %s test area, written "
			 "sequentially once", fmt_size(summary, r->plan.area));
		add_phase(p, "random reads, 1 in flight", &r->rread);
		add_phase(p, "random writes, 1 in flight", &r->rwrite);
		add_phase(p, "random reads, queued", &r->qread);
		add_phase(p, "random writes, queued", &r->qwrite);
		add_promises(p, r, true);
		bottom = chart_text(&p->c, &w2, &h2);
	}
	if (!top)
		goto out;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\">\n", w, h + h2, w, h + h2);
	fprintf(f, "<g class=\"rates\">\n%s</g>\n", top);
	if (bottom)
		fprintf(f, "<g class=\"iops\" transform=\"translate(0 %d)\">\n%s</g>\n", h, bottom);
	fputs("</svg>\n", f);
	rc = 0;
out:
	free(top);
	free(bottom);
	free(p);
	return rc;
}
