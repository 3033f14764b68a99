/*
 * --auto's FAT-area check: --find-fat in random order (as the experts ran
 * it) over the first erase blocks, rows of one page and half a page only. A page-mapped area saves the per-write mapping work, which
 * shows most for writes of a page or two (doc/card-facts.md, FAT area);
 * the large rows say nothing about it and cost an erase block per column.
 */
#include <stddef.h>
#include <stdio.h>
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
	uint64_t row_bytes = (uint64_t)fp.fat_nr * e, rows = 1;
	for (uint64_t b = first; b > last; b /= 2)
		rows++;
	if (s->d->bytes_written + row_bytes * rows > s->max_write) {
		s->cap_hit = true;
		return;
	}
	auto_settle(s);
	if (s->stop)
		return;

	struct row_watch *w = s->watch;
	memset(w, 0, offsetof(struct row_watch, rows));
	w->s = s;
	w->d = s->d;
	w->max_write = s->max_write;
	w->row_bytes = row_bytes;
	fp.keep_going = fat_watch_row;
	fp.keep_going_arg = w;
	int64_t before = s->d->device_ns;
	measure_find_fat(s->d, &fp, &s->fat);
	s->write_ns += s->d->device_ns - before;
	s->have_fat = true;
	auto_note_status(s, &s->fat.st);
	analyze_find_fat(&s->fat, &s->fatest);
	/*
	 * The rows are a page or two only if the page is right: with a page
	 * that is not sure they may be many pages, where a page-mapped area
	 * saves little (doc/card-facts.md, FAT area), so "none" is not sure either.
	 */
	if (s->fatest.aus == 0 && s->page.conf < CONF_HIGH) {
		enum confidence cap = s->page.conf >= CONF_MEDIUM ? CONF_MEDIUM : CONF_LOW;
		if (s->fatest.conf > cap) {
			size_t len = strlen(s->fatest.evidence);
			s->fatest.conf = cap;
			appendf(s->fatest.evidence, sizeof(s->fatest.evidence), "%sthe page is not sure, so "
				"the rows may be many pages, where a FAT area saves little", len ? "; " : "");
		}
	}
	/* random writes to six blocks may leave some open and work owed */
	s->dirty = true;
	s->dirty_why = "the --find-fat run";
	if (w->cut_by_cap) {
		s->cap_hit = true;
		if (s->fatest.conf > CONF_LOW)
			s->fatest.conf = CONF_LOW;
	}
}
