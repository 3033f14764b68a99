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

static int64_t median_i64(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median per row over the runs (a spike in one run does not move it). */
static void merge_align_runs(struct autostate *s)
{
	const struct align_result *first = &s->align_runs[0];
	struct align_result *m = &s->align;

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
			if (i >= r->nrows || r->rows[i].failed || r->rows[i].align != first->rows[i].align)
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
	for (int k = 0; k < s->nalign; k++) {
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

static bool same_estimate(const struct size_estimate *a, const struct size_estimate *b)
{
	return a->bytes == b->bytes;
}

int auto_run_alignment(struct autostate *s)
{
	struct params ap = *s->p;
	char msg[256];
	struct size_estimate prev_erase = {0}, prev_page = {0};
	int64_t last_ns = 0;

	/* -a reads across boundaries at half a block: two logical blocks at least */
	ap.blocksize = 2 * s->d->lbs > ALIGN_BLOCKSIZE ? 2 * s->d->lbs : ALIGN_BLOCKSIZE;
	ap.keep_going = NULL;
	if (align_check(s->d, &ap, msg, sizeof(msg)) < 0) {
		warnx_fb("--auto: %s", msg);
		snprintf(s->error, sizeof(s->error), "%s", msg);
		return 2;
	}
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
		if (s->stop)
			break;
		if (s->nalign >= 2 && same_estimate(&prev_erase, &s->erase) &&
		    same_estimate(&prev_page, &s->page) && s->erase.conf >= CONF_MEDIUM)
			break;
		/* would the next run still fit the time budget? */
		if (s->align_ns + last_ns > ALIGN_BUDGET_NS)
			break;
		prev_erase = s->erase;
		prev_page = s->page;
	}
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
	/* the check and its restores count too; the default cap is not known yet: its floor */
	uint64_t cap = s->o->max_write ? s->o->max_write : AUTO_MAX_WRITE_FLOOR;

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
