/*
 * --auto's FAT-area check: --find-fat in random order (as the experts ran
 * it) over the first erase blocks, rows of one page and half a page only. A page-mapped area saves the per-write mapping work, which
 * shows most for writes of a page or two (doc/card-facts.md, FAT area);
 * the large rows say nothing about it and cost an erase block per column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "auto/auto_state.h"
#include "lib/units.h"
#include "measure/measure.h"

/* The block size of the row nearest above `size`: the smallest E/2^k not below it. */
static uint64_t row_at_least(uint64_t e, uint64_t size, unsigned int lbs)
{
	uint64_t b = e;
	while (b / 2 >= size && b % 2 == 0 && (b / 2) % lbs == 0)
		b /= 2;
	return b;
}

/* The median of v[0..n-1] (n > 0); sorts v. */
static double median_of(double *v, int n)
{
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (v[b] < v[a]) {
				double t = v[a];
				v[a] = v[b];
				v[b] = t;
			}
	return v[n / 2];
}

static bool fat_watch_row(const struct rate_row *row, void *arg)
{
	struct row_watch *w = arg;
	(void)row;
	if (w->d->bytes_written + w->row_bytes > w->max_write) {
		w->cut_by_cap = true;
		return false;
	}
	return true;
}

/* One --find-fat run into s->fat_runs; false when it may not or could not run. */
static bool fat_run(struct autostate *s, const struct params *fp, uint64_t row_bytes, uint64_t rows)
{
	if (s->stop || s->nfat >= MAX_FAT_RUNS)
		return false;
	if (s->d->bytes_written + row_bytes * rows > s->max_write) {
		s->cap_hit = true;
		return false;
	}
	auto_settle(s);
	if (s->stop)
		return false;
	struct params p = *fp;
	struct row_watch *w = auto_watch_begin(s, row_bytes);
	p.keep_going = fat_watch_row;
	p.keep_going_arg = w;
	struct rate_result *r = &s->fat_runs[s->nfat++];
	int64_t before = s->d->device_ns;
	auto_fat_probe(s, &p, r);
	s->write_ns += s->d->device_ns - before;
	auto_note_status(s, &r->st);
	/* random writes to six blocks may leave some open and work owed */
	s->dirty = true;
	s->dirty_why = "the --find-fat run";
	if (w->cut_by_cap)
		s->cap_hit = true;
	return !w->cut_by_cap && !r->st.partial;
}

/* The replicas' best rate per cell: host noise only ever slows a write down. */
static void combine_fat_runs(struct autostate *s)
{
	const struct rate_result *first = &s->fat_runs[0];
	if (s->have_fat)
		rate_result_free(&s->fat);
	s->fat = *first;
	s->fat.rows = calloc((size_t)(first->nrows ? first->nrows : 1), sizeof(*s->fat.rows));
	s->have_fat = true;
	if (!s->fat.rows) {
		s->fat.nrows = 0;
		return;
	}
	for (int i = 0; i < first->nrows; i++) {
		struct rate_row *row = &s->fat.rows[i];
		*row = first->rows[i];
		for (int k = 1; k < s->nfat; k++) {
			const struct rate_result *r = &s->fat_runs[k];
			if (i >= r->nrows || r->rows[i].blocksize != row->blocksize)
				continue;
			for (int c = 0; c < row->ncols && c < r->rows[i].ncols; c++)
				if (!r->rows[i].failed[c] && (row->failed[c] || r->rows[i].rate[c] > row->rate[c])) {
					row->rate[c] = r->rows[i].rate[c];
					row->failed[c] = false;
				}
		}
	}
}

/* The linear reference needed more than two runs to agree: the host disturbs rows. */
static bool noisy_host(const struct autostate *s)
{
	return auto_replicas(s, 1, false) > 2;
}

/* How many replicas, each read on its own, give the combined answer. */
static int fat_agreeing(const struct autostate *s)
{
	int n = 0;
	for (int k = 0; k < s->nfat; k++) {
		struct fat_estimate e;
		analyze_find_fat(&s->fat_runs[k], &e);
		n += e.aus == s->fatest.aus;
	}
	return n;
}

/*
 * The rows are a page or two only if the page is right: with a page that
 * is not sure they may be many pages, where a page-mapped area saves
 * little (doc/card-facts.md, FAT area), so "none" is not sure either.
 */
static void limit_fat_by_page(struct autostate *s)
{
	if (s->fatest.aus || s->page.conf >= CONF_HIGH)
		return;
	enum confidence cap = s->page.conf >= CONF_MEDIUM ? CONF_MEDIUM : CONF_LOW;
	if (s->fatest.conf > cap) {
		size_t len = strlen(s->fatest.evidence);
		s->fatest.conf = cap;
		fmt_append(s->fatest.evidence, sizeof(s->fatest.evidence), "%sthe page is not sure, so "
			"the rows may be many pages, where a FAT area saves little", len ? "; " : "");
	}
}

/*
 * Later columns that each pay a block copy (the card past its open slots
 * for writes into six blocks: a collapse, under CLEAR_COLLAPSE of linear
 * writes to one block at the row's size) leave a page-mapped FAT area
 * many times faster (today's calibration: 9-40x, as the SA04G's 6x in the
 * seed posts over a data area that did not collapse); leading columns only
 * a thin margin faster there (under FAT_CLEAR) are the pace of a RAM
 * buffer that took the first writes after the pause (doc/card-facts.md,
 * "Cards as they are made today": 1.3-2x), not a place. In every row.
 */
bool auto_fat_lead_is_a_buffers_pace(const struct autostate *s)
{
	int aus = s->fatest.aus, rows = 0;
	for (int i = 0; i < s->fat.nrows && aus > 0; i++) {
		const struct rate_row *row = &s->fat.rows[i];
		double ref = auto_best_rate(s, 1, false, row->blocksize), lead = 0, later = 0,
		       v[RATE_MAX_COLS] = { 0 };
		if (!(ref > 0))
			ref = auto_linear_rate(s, row->blocksize);
		int n = 0;
		if (row->ncols <= aus || !(ref > 0))
			return false;
		for (int c = 0; c < row->ncols; c++) {
			if (row->failed[c])
				return false;
			if (c < aus)	/* the area's slowest column */
				lead = !c || row->rate[c] < lead ? row->rate[c] : lead;
			else {
				later = row->rate[c] > later ? row->rate[c] : later;
				v[n++] = row->rate[c];
			}
		}
		double typical = median_of(v, n);	/* the typical later column */
		/* level later columns, within FAT_SCATTER: one data area, not a buffer's pace moving */
		if (!(later > 0) || lead >= FAT_CLEAR * later || typical >= CLEAR_COLLAPSE * ref ||
		    later > (1 + FAT_SCATTER) * v[0])
			return false;
		rows++;
	}
	return rows > 0;
}

/* The linear reference of a FAT row: linear writes to one block at its size. */
static double fat_row_reference(const struct autostate *s, uint64_t bs)
{
	double ref = auto_best_rate(s, 1, false, bs);
	return ref > 0 ? ref : auto_linear_rate(s, bs);
}

/*
 * Over later columns that collapsed (their median under CLEAR_COLLAPSE of
 * linear writes to one block: a block copy a write) a page-mapped area runs
 * many times faster (5.9-40x in today's calibration); a leading column under
 * FAT_BUFFER_PACE times the fastest later one in every row, after a column
 * clear of that, is a RAM buffer that took part of its writes into the room
 * the faster column before it left (doc/card-facts.md, "A column after the
 * FAT area paced by a buffer", 2026-12-03: usb3-64g 287K/s, 81K/s, then
 * 50..47K/s, one FAT block read as two at high). The area is the columns
 * before it: returns their number, s->fatest.aus where no such column is.
 */
int auto_fat_area_before_a_buffers_pace(const struct autostate *s)
{
	int aus = s->fatest.aus;
	bool paced[RATE_MAX_COLS];
	if (aus < 2 || aus > RATE_MAX_COLS || s->fat.nrows < 1)
		return aus;
	for (int c = 0; c < aus; c++)
		paced[c] = true;
	for (int i = 0; i < s->fat.nrows; i++) {
		const struct rate_row *row = &s->fat.rows[i];
		double ref = fat_row_reference(s, row->blocksize), later = 0, v[RATE_MAX_COLS];
		int n = 0;
		if (row->ncols <= aus || !(ref > 0))
			return aus;
		for (int c = 0; c < row->ncols; c++) {
			if (row->failed[c])
				return aus;
			if (c >= aus) {
				later = row->rate[c] > later ? row->rate[c] : later;
				v[n++] = row->rate[c];
			}
		}
		if (!(later > 0) || median_of(v, n) >= CLEAR_COLLAPSE * ref)
			return aus;
		for (int c = 0; c < aus; c++)
			paced[c] = paced[c] && row->rate[c] < FAT_BUFFER_PACE * later;
	}
	for (int c = 1; c < aus; c++)
		if (paced[c] && !paced[0])
			return c;
	return aus;
}

/*
 * The check writes at random into as many blocks as it has columns; past
 * the card's random slots (its random count) a data area pays a block copy
 * there (doc/card-facts.md, FAT area). Where no column of any row
 * collapsed (each at CLEAR_COLLAPSE of linear writes or more) on a card
 * counted to fewer random blocks than that, the first blocks held without
 * a slot, so they are page-mapped, or the columns were not timed as written
 * (a RAM buffer that paces them: sdxc-64g of today's calibration, 2 FAT
 * blocks, 7 open, 4 random, a 4 MiB buffer: level columns, "none" at
 * medium in 4 of 5 draws). "None" stands on nothing there: low.
 */
bool auto_fat_none_past_the_random_slots(const struct autostate *s)
{
	if (!s->have_fat || s->fatest.aus || !s->have_rnd || s->rnd.n <= 0 || s->rnd.at_least ||
	    s->fat.nrows < 1)
		return false;
	for (int i = 0; i < s->fat.nrows; i++) {
		const struct rate_row *row = &s->fat.rows[i];
		double ref = fat_row_reference(s, row->blocksize);
		if (row->ncols <= s->rnd.n || !(ref > 0))
			return false;
		for (int c = 0; c < row->ncols; c++)
			if (row->failed[c] || row->rate[c] < CLEAR_COLLAPSE * ref)
				return false;
	}
	return true;
}

/*
 * A RAM buffer that holds a whole row of the check (every column's writes)
 * completes each write when the card has done the writes a buffer before
 * it (doc/card-facts.md, FAT area): each column is timed at the pace of
 * writes a row or more before, not its own, and the columns cannot show
 * a place (today's sdxc-64g seed=120, 2 FAT blocks, a 4 MiB buffer found,
 * rows of 3 and 1.5 MiB: 3.8, 5.3 ... 12.0 MB/s rising, then level, read
 * "no FAT area" at medium).
 */
bool auto_fat_rows_inside_the_buffer(const struct autostate *s)
{
	if (!s->have_fat || !s->buffer_bytes || s->fat.nrows < 1)
		return false;
	for (int i = 0; i < s->fat.nrows; i++) {
		uint64_t row = 0;
		for (int c = 0; c < s->fat.rows[i].ncols; c++)
			row += s->fat.rows[i].bytes[c];
		if (!row || row > s->buffer_bytes)
			return false;
	}
	return true;
}

void auto_judge_fat_none_past_the_random_slots(struct autostate *s)
{
	if (s->fatest.conf <= CONF_LOW || s->fatest.aus)
		return;
	size_t len = strlen(s->fatest.evidence);
	if (auto_fat_rows_inside_the_buffer(s)) {
		char b[FMT_BUF];
		s->fatest.conf = CONF_LOW;
		fmt_append(s->fatest.evidence, sizeof(s->fatest.evidence), "%severy row of the check fits "
			   "in the card's %s RAM buffer: each column was timed at the pace of the writes "
			   "before it, not its own", len ? "; " : "", fmt_size(b, s->buffer_bytes));
		return;
	}
	if (!auto_fat_none_past_the_random_slots(s))
		return;
	s->fatest.conf = CONF_LOW;
	fmt_append(s->fatest.evidence, sizeof(s->fatest.evidence), "%sthe check wrote at random into %d "
		   "blocks, more than the card's %d for random writes, and no column collapsed: its first "
		   "blocks need no slot (a FAT area the rows do not show) or the rows were not timed as "
		   "written", len ? "; " : "", s->fat.rows[0].ncols, s->rnd.n);
}

/*
 * One run when it is not unsure on a quiet host; else at least two, more (up to
 * MAX_FAT_RUNS) while a replica read on its own gives another answer than
 * their combination; the confidence follows from the agreement (issue 20,
 * cause 4).
 */
void auto_run_find_fat(struct autostate *s)
{
	struct params fp = *s->p;
	char msg[256];
	const uint64_t e = s->erasesize, page = s->pagesize;
	/* a page and half a page: with 3*2^n erase sizes the rows are 1.5 and 0.75 pages */
	uint64_t first = row_at_least(e, page, s->d->lbs);
	uint64_t last = row_at_least(e, page / 2, s->d->lbs);

	if (s->stop)
		return;
	fp.erasesize = e;
	fp.first_blocksize = first;
	fp.blocksize = last;
	fp.random = true;
	fp.offset_set = false;
	if (find_fat_check(s->d, &fp, msg, sizeof(msg)) < 0)
		return;
	uint64_t row_bytes = auto_fat_row_bytes(s, &fp), rows = 1;
	for (uint64_t b = first; b > last; b /= 2)
		rows++;
	bool complete = true;
	while (complete && s->nfat < MAX_FAT_RUNS) {
		complete = fat_run(s, &fp, row_bytes, rows);
		if (!s->nfat)
			return;
		combine_fat_runs(s);
		analyze_find_fat(&s->fat, &s->fatest);
		int agree = fat_agreeing(s);
		/* one run that is not unsure, on a quiet host, is enough; else two that agree */
		if (s->nfat == 1 && s->fatest.conf >= CONF_MEDIUM && !noisy_host(s))
			break;
		if (s->nfat >= 2 && agree >= 2 && (agree == s->nfat || s->nfat == MAX_FAT_RUNS))
			break;
	}
	int agree = fat_agreeing(s);
	if (s->nfat == 1)
		agree = 2;	/* one run on a quiet host */
	if (agree < 2 && s->fatest.conf > CONF_LOW) {
		size_t len = strlen(s->fatest.evidence);
		s->fatest.conf = CONF_LOW;
		fmt_append(s->fatest.evidence, sizeof(s->fatest.evidence), "%s%d of %d --find-fat runs read "
			"on their own agree", len ? "; " : "", agree, s->nfat);
	} else if (agree < s->nfat && s->fatest.conf > CONF_MEDIUM) {
		s->fatest.conf = CONF_MEDIUM;
	}
	if (s->fatest.aus && auto_fat_lead_is_a_buffers_pace(s)) {
		int aus = s->fatest.aus;
		s->fatest.aus = 0;
		s->fatest.bytes = 0;
		s->fatest.conf = CONF_LOW;
		snprintf(s->fatest.evidence, sizeof(s->fatest.evidence), "first %d column%s less than "
			 "1.5x the later ones, which run level and collapsed (under 0.45 of linear writes "
			 "to one block: a block copy a write), where a FAT area runs many times faster: "
			 "the pace of a RAM buffer, no FAT area seen", aus, aus == 1 ? "" : "s");
	}
	int area = auto_fat_area_before_a_buffers_pace(s);
	if (area < s->fatest.aus) {
		size_t len = strlen(s->fatest.evidence);
		fmt_append(s->fatest.evidence, sizeof(s->fatest.evidence), "%scolumn %d under 2x the later "
			   "ones, which collapsed (a block copy a write), in every row, after a column many "
			   "times faster: the pace of a RAM buffer that took part of its writes, so the area "
			   "is the first %d erase block%s", len ? "; " : "", area + 1, area, area == 1 ? "" : "s");
		s->fatest.aus = area;
		s->fatest.bytes = (uint64_t)area * e;
		s->fatest.conf = CONF_LOW;
	}
	limit_fat_by_page(s);
	if (!complete && s->fatest.conf > CONF_LOW)
		s->fatest.conf = CONF_LOW;
}
