/*
 * libFuzzer target for the --analyze input parser (analyze/post.c) and the
 * inference run on whatever it extracts (analyze/analyze.c). Checks the parser's
 * promises: rows strictly decreasing, columns within bounds, finite rates.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/post.h"

static void check_align(const struct align_result *a)
{
	if (a->nrows < 1)
		abort();
	for (int i = 1; i < a->nrows; i++)
		if (a->rows[i].align >= a->rows[i - 1].align)
			abort();
	struct size_estimate e, p;
	analyze_align(a, &e, &p);
	if (e.conf > CONF_HIGH || p.conf > CONF_HIGH || !memchr(e.evidence, 0, sizeof(e.evidence)))
		abort();
	if (e.bytes && p.bytes && p.bytes >= e.bytes)
		abort();
}

static void check_rates(const struct rate_result *r)
{
	/* the erase size is the first row's, or a multiple of it that the command gave */
	if (r->nrows < 1 || r->erasesize < r->rows[0].blocksize || r->erasesize % r->rows[0].blocksize)
		abort();
	for (int i = 0; i < r->nrows; i++) {
		const struct rate_row *row = &r->rows[i];
		if (row->ncols < 1 || row->ncols > RATE_MAX_COLS)
			abort();
		if (i && row->blocksize >= r->rows[i - 1].blocksize)
			abort();
		for (int c = 0; c < row->ncols; c++)
			if (!isfinite(row->rate[c]) || row->rate[c] < 0)
				abort();
	}
	struct fat_estimate f;
	analyze_find_fat(r, &f);
	if (f.aus < 0 || f.aus > RATE_MAX_COLS)
		abort();
	enum collapse c = analyze_open_au_run(r, 4096);
	if (c != RUN_HOLDS && c != RUN_COLLAPSED && c != RUN_UNCLEAR)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct post p;
	if (post_parse((const char *)data, size, &p))
		return 0;
	const struct rate_result *runs[256];
	long long nrs[256];
	int n = 0;
	for (int i = 0; i < p.nruns; i++) {
		const struct post_run *r = &p.runs[i];
		if (r->section < 0 || r->section >= p.nsections)
			abort();
		if (r->kind == POST_ALIGN) {
			check_align(&r->align);
		} else {
			check_rates(&r->rates);
			if (r->kind == POST_OPEN_AU && r->rates.nr > 0 && n < 256) {
				runs[n] = &r->rates;
				nrs[n++] = r->rates.nr;
			}
		}
	}
	struct count_estimate est;
	analyze_open_au_series(runs, nrs, n, 0, &est);
	if (est.n < 0 || est.conf > CONF_HIGH)
		abort();
	post_free(&p);
	return 0;
}
