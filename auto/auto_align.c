/* --auto's read-only phase: -a repeated until stable and merged; --capacity before the writes. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "identity/identity.h"
#include "safety/safety.h"
#include "lib/msg.h"
#include "lib/units.h"

/* ---------------------------------------------------------------- alignment */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int64_t median_i64(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median per row over the runs but `skip` (-1: none): a spike in one run does not move it. */
static void merge_runs(struct autostate *s, int skip, struct align_result *m)
{
	const struct align_result *first = &s->align_runs[skip == 0 && s->nalign > 1 ? 1 : 0];

	align_result_free(m);
	memset(m, 0, sizeof(*m));
	m->blocksize = first->blocksize;
	m->count = first->count;
	m->nrows = first->nrows;
	m->rows = calloc((size_t)(first->nrows ? first->nrows : 1), sizeof(*m->rows));
	if (!m->rows) {
		m->nrows = 0;
		return;
	}
	for (int i = 0; i < first->nrows; i++) {
		int64_t pre[ALIGN_MAX_RUNS], on[ALIGN_MAX_RUNS], post[ALIGN_MAX_RUNS], diff[ALIGN_MAX_RUNS];
		int n = 0;

		for (int k = 0; k < s->nalign; k++) {
			const struct align_result *r = &s->align_runs[k];
			if (k == skip || i >= r->nrows || r->rows[i].failed ||
			    r->rows[i].align != first->rows[i].align)
				continue;
			pre[n] = r->rows[i].pre_ns;
			on[n] = r->rows[i].on_ns;
			post[n] = r->rows[i].post_ns;
			diff[n] = r->rows[i].diff_ns;
			n++;
		}
		m->rows[i].align = first->rows[i].align;
		m->rows[i].positions = first->rows[i].positions;
		m->rows[i].failed = n == 0;
		if (n) {
			m->rows[i].pre_ns = median_i64(pre, n);
			m->rows[i].on_ns = median_i64(on, n);
			m->rows[i].post_ns = median_i64(post, n);
			m->rows[i].diff_ns = median_i64(diff, n);
		}
	}
	for (int k = 0; k < s->nalign && skip < 0; k++) {
		const struct run_status *st = &s->align_runs[k].st;
		m->st.bytes_written += st->bytes_written;
		m->st.device_ns += st->device_ns;
		m->st.nfailures += st->nfailures;
		if (st->nfailures && !m->st.first_failure.err)
			m->st.first_failure = st->first_failure;
		m->st.partial |= st->partial;
		m->st.interrupted |= st->interrupted;
	}
}

static void merge_align_runs(struct autostate *s)
{
	merge_runs(s, -1, &s->align);
}

/*
 * Replicas agree when the answer does not hang on any one of them: how
 * many of the merges that leave one run out (with two runs, each run read
 * on its own) give the merged answer.
 */
static void count_agreeing(struct autostate *s, int *erase, int *page)
{
	*erase = *page = 0;
	for (int k = 0; k < s->nalign; k++) {
		struct align_result m = { 0 };
		struct size_estimate e, p;
		merge_runs(s, s->nalign > 1 ? k : -1, &m);
		analyze_align(&m, &e, &p);
		align_result_free(&m);
		*erase += e.bytes == s->erase.bytes;
		*page += p.bytes == s->page.bytes;
	}
}

/*
 * The confidence follows from the replicas (issue 20, cause 4): "high"
 * only when the answer stands with any one run left out (two runs at
 * least), "medium" at most when it stands without all but one, else "low".
 */
static void limit_by_agreement(struct size_estimate *est, int agree, int runs, const char *what)
{
	enum confidence cap = runs >= 2 && agree == runs ? CONF_HIGH :
			      runs >= 3 && agree >= runs - 1 ? CONF_MEDIUM : CONF_LOW;
	if (!est->bytes || est->conf <= cap)
		return;
	est->conf = cap;
	size_t len = strlen(est->evidence);
	fmt_append(est->evidence, sizeof(est->evidence), "%sthe %s stands with %d of the %d -a runs "
		"left out in turn", len ? "; " : "", what, agree, runs);
}

/* Row i's diff spread over the -a runs (max - min), or -1 with fewer than two. */
static double run_spread(const struct autostate *s, int i)
{
	double lo = 0, hi = 0;
	int n = 0;
	for (int k = 0; k < s->nalign; k++) {
		const struct align_result *r = &s->align_runs[k];
		if (i >= r->nrows || r->rows[i].failed || r->rows[i].align != s->align.rows[i].align)
			continue;
		double d = (double)r->rows[i].diff_ns;
		lo = n ? (d < lo ? d : lo) : d;
		hi = n ? (d > hi ? d : hi) : d;
		n++;
	}
	return n >= 2 ? hi - lo : -1;
}

/*
 * A page is only as sure as the rows around it are steady: where a row's
 * diff scatters over the -a runs by a quarter of the page step or more, a
 * level half as high (the real page under pages read in pairs) could hide
 * below it (issue 20: the page step and the rows around it).
 */
static void limit_page_by_noise(struct autostate *s)
{
	const struct align_result *a = &s->align;
	double floor[64], level[64], spread[64];
	int nf = 0, nl = 0, ns = 0;
	char b[FMT_BUF], t[FMT_BUF];

	if (!s->page.bytes || s->page.conf < CONF_HIGH)
		return;
	for (int i = 0; i < a->nrows; i++) {
		const struct align_row *r = &a->rows[i];
		if (r->failed || r->align >= 4 * s->page.bytes || (s->erase.bytes && r->align >= s->erase.bytes))
			continue;
		double sp = run_spread(s, i);
		if (sp >= 0 && ns < 64)
			spread[ns++] = sp;
		if (!is_pow2(r->align))
			continue;
		if (r->align < s->page.bytes && nf < 64)
			floor[nf++] = (double)r->diff_ns;
		else if (r->align >= s->page.bytes && nl < 64)
			level[nl++] = (double)r->diff_ns;
	}
	if (nf < 1 || nl < 1 || ns < 2)
		return;
	qsort(level, (size_t)nl, sizeof(*level), cmp_double);
	qsort(floor, (size_t)nf, sizeof(*floor), cmp_double);
	qsort(spread, (size_t)ns, sizeof(*spread), cmp_double);
	double step = level[nl / 2] - floor[nf / 2], noise = spread[ns / 2];
	if (step > 0 && noise <= step / 4)
		return;
	s->page.conf = CONF_MEDIUM;
	size_t len = strlen(s->page.evidence);
	fmt_append(s->page.evidence, sizeof(s->page.evidence), "%sthe rows around %s scatter over the "
		"runs by %s, a quarter of its step or more: a level half as high could hide below it",
		len ? "; " : "", fmt_size(b, s->page.bytes), fmt_time(t, (int64_t)noise));
}

/*
 * The page is the lowest level above the floor (doc/card-facts.md, "A page
 * level can be several rows wide"): a power-of-two row below it that stands
 * a quarter of the page step above the floor is a level the reading
 * skipped, and the page may be that one.
 */
static void limit_page_by_lower_level(struct autostate *s)
{
	const struct align_result *a = &s->align;
	double below[64], level[64];
	uint64_t at[64];
	int nb = 0, nl = 0;
	char b[FMT_BUF];

	if (!s->page.bytes || s->page.conf < CONF_MEDIUM)
		return;
	for (int i = 0; i < a->nrows; i++) {
		const struct align_row *r = &a->rows[i];
		if (r->failed || !is_pow2(r->align) || r->align >= 4 * s->page.bytes)
			continue;
		if (r->align < s->page.bytes && nb < 64) {
			at[nb] = r->align;
			below[nb++] = (double)r->diff_ns;
		} else if (r->align >= s->page.bytes && nl < 64) {
			level[nl++] = (double)r->diff_ns;
		}
	}
	if (nb < 1 || nl < 1)
		return;
	/* the floor: the lowest rows, or no crossing cost at all where fewer than three were read */
	double sorted[64], floor = 0;
	memcpy(sorted, below, sizeof(double) * (size_t)nb);
	qsort(sorted, (size_t)nb, sizeof(*sorted), cmp_double);
	qsort(level, (size_t)nl, sizeof(*level), cmp_double);
	if (nb >= 3)
		floor = sorted[nb / 4];
	double step = level[nl / 2] - floor;
	for (int i = 0; i < nb && step > 0; i++) {
		if (below[i] - floor < step / 4)
			continue;
		s->page.conf = CONF_LOW;
		size_t len = strlen(s->page.evidence);
		fmt_append(s->page.evidence, sizeof(s->page.evidence), "%sbut the %s row stands %.0f%% of "
			"the step above the floor: the page may be that small", len ? "; " : "",
			fmt_size(b, at[i]), 100 * (below[i] - floor) / step);
		return;
	}
}

int auto_run_alignment(struct autostate *s)
{
	struct params ap = *s->p;
	char msg[256];
	int64_t last_ns = 0;
	int erase_agree = 0, page_agree = 0;

	/* -a reads across boundaries at half a block: two logical blocks at least */
	ap.blocksize = 2 * s->d->lbs > ALIGN_BLOCKSIZE ? 2 * s->d->lbs : ALIGN_BLOCKSIZE;
	ap.keep_going = NULL;
	/* sees 3*2^n erase sizes; not the original's -a I/O; auto_run's, not its caller's (h52) */
	ap.align_spread = true;
	if (align_check(s->d, &ap, msg, sizeof(msg)) < 0) {
		warnx_fb("--auto: %s", msg);
		snprintf(s->error, sizeof(s->error), "%s", msg);
		return 2;
	}
	/*
	 * Runs until the merged answer (erase size and page) stands with any
	 * one run left out and the erase size is at least medium, or
	 * ALIGN_MAX_RUNS or the time budget are spent.
	 */
	while (s->nalign < ALIGN_MAX_RUNS) {
		struct align_result *r = &s->align_runs[s->nalign];
		int64_t before = s->d->device_ns;

		measure_align(s->d, &ap, r);
		last_ns = s->d->device_ns - before;
		s->align_ns += last_ns;
		s->nalign++;
		auto_note_status(s, &r->st);
		merge_align_runs(s);
		analyze_align(&s->align, &s->erase, &s->page);
		count_agreeing(s, &erase_agree, &page_agree);
		if (s->stop)
			break;
		if (s->nalign >= 2 && s->erase.conf >= CONF_MEDIUM && erase_agree == s->nalign &&
		    page_agree == s->nalign)
			break;
		/* would the next run still fit the time budget? */
		if (s->align_ns + last_ns > ALIGN_BUDGET_NS)
			break;
	}
	limit_by_agreement(&s->erase, erase_agree, s->nalign, "erase size");
	limit_by_agreement(&s->page, page_agree, s->nalign, "page");
	limit_page_by_noise(s);
	limit_page_by_lower_level(s);
	return 0;
}

/* ------------------------------------------------------------ capacity */

/*
 * Before anything else writes: a fake card's real size becomes the size
 * every later test sees (restored for the report), so none of them
 * measures, or overwrites, the lie beyond it.
 */
void auto_run_capacity_first(struct autostate *s)
{
	char err[1024] = "";
	/* the check and its restores count too */
	uint64_t cap = s->max_write;

	s->have_cap = true;
	if (capacity_run(s->d, NULL, NULL, cap, &s->cap, err, sizeof err) < 0) {
		if (s->cap.not_run_max_write) {	/* skipped: the report says so first */
			warnx_fb("--auto: capacity not checked: %s", s->cap.error);
			return;
		}
		if (err[0] && !s->cap.interrupted)
			warnx_fb("--auto: capacity check: %s", err);
		if (!s->cap.interrupted && s->cap.restored)	/* nothing written: no report */
			snprintf(s->error, sizeof(s->error), "capacity check: %s", s->cap.error);
		s->status = s->cap.interrupted ? 130 : 1;
		s->stop = true;
		return;
	}
	if (s->cap.verdict != CAP_GENUINE)
		s->d->size = s->cap.real_lo / s->d->lbs * s->d->lbs;
}
