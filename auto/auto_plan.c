/*
 * --auto --destructive's write plan (issue 26): a budget that follows the
 * device (a small share of it by default, never more than the device;
 * --max-write sets it), the bytes each step of the write phase is expected
 * to write, stated before its first write, and the rule that stops the
 * open-AU searches when more writing cannot change their answer.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "auto/auto_state.h"
#include "lib/msg.h"
#include "lib/units.h"

uint64_t auto_default_budget(uint64_t size)
{
	uint64_t b = size / 100 * AUTO_BUDGET_PERCENT;
	uint64_t floor = AUTO_BUDGET_FLOOR < size / 2 ? AUTO_BUDGET_FLOOR : size / 2;
	if (b < floor)
		b = floor;
	return b < size ? b : size;
}

void auto_plan_budget(struct autostate *s)
{
	s->plan.budget = s->o->max_write ? s->o->max_write : auto_default_budget(s->d->size);
	s->plan.budget_source = s->o->max_write ? "max-write" : "default";
	s->max_write = s->plan.budget;
}

void auto_budget_after_capacity(struct autostate *s)
{
	if (s->o->max_write)
		return;
	uint64_t b = auto_default_budget(s->d->size);	/* a fake's size is what it stores now */
	if (b < s->plan.budget)
		s->plan.budget = s->max_write = b;
}

const char *auto_purpose_name(enum auto_purpose p)
{
	static const char *const names[NSPENT] = {
		[SPENT_CAPACITY] = "capacity", [SPENT_REFERENCE] = "reference", [SPENT_FAT] = "fat_area",
		[SPENT_LINEAR] = "open_linear", [SPENT_RANDOM] = "open_random", [SPENT_SETTLE] = "settling",
		[SPENT_CACHE] = "cache", [SPENT_CLASS] = "class",
	};
	return names[p];
}

/* The N the searches probe when nothing collapses: 1..5, then growing by half, up to the limit. */
static long long next_n(long long n)
{
	long long m = n + n / 2;
	return n < 5 || m <= n ? n + 1 : m;
}

/*
 * What a search up to OPEN_AU_MAX_NR writes when nothing collapses, each N
 * once and the last twice; *max_nr: the largest N that `left` affords.
 */
static uint64_t search_cost(const struct autostate *s, bool random, uint64_t left, int *max_nr)
{
	uint64_t sum = random ? auto_probe_bytes(s, 1, true, true) : 0, last = 0;
	*max_nr = 0;
	for (long long n = 2; n <= OPEN_AU_MAX_NR; n = next_n(n)) {
		last = auto_probe_bytes(s, n, random, false);
		if (sum + 2 * last <= left)
			*max_nr = (int)n;
		sum += last;
	}
	return sum + last;
}

/* "2% of its 64GiB, the default" / "--max-write" */
static const char *budget_words(char *buf, size_t n, const struct autostate *s)
{
	char a[FMT_BUF];
	if (!strcmp(s->plan.budget_source, "max-write"))
		snprintf(buf, n, "--max-write");
	else
		snprintf(buf, n, "%.1f%% of its %s, the default; --max-write=SIZE sets it",
			 100.0 * (double)s->plan.budget / (double)s->d->size, fmt_size(a, s->d->size));
	return buf;
}

void auto_make_plan(struct autostate *s)
{
	struct write_plan *pl = &s->plan;
	char b[FMT_BUF], e[FMT_BUF], w[160], parts[320] = "";
	uint64_t spent = s->d->bytes_written;
	uint64_t left = pl->budget > spent ? pl->budget - spent : 0;
	int lin_nr, rnd_nr;

	memset(pl->est, 0, sizeof(pl->est));
	pl->est[SPENT_CAPACITY] = s->spent[SPENT_CAPACITY];
	pl->est[SPENT_REFERENCE] = 2 * auto_probe_bytes(s, 1, false, true);
	pl->est[SPENT_FAT] = auto_fat_planned(s);
	/*
	 * A claim to check (the SD Status, --claim): the default budget grows
	 * by what the class check writes (its area, then the area restored),
	 * never past the device; the write phase leaves it that much.
	 */
	pl->est[SPENT_CLASS] = auto_class_planned(s);
	if (!strcmp(pl->budget_source, "default") && pl->est[SPENT_CLASS]) {
		uint64_t grown = pl->budget + pl->est[SPENT_CLASS];
		pl->budget = grown < s->d->size ? grown : s->d->size;
		left = pl->budget > spent ? pl->budget - spent : 0;
	}
	s->max_write = pl->budget > pl->est[SPENT_CLASS] + spent ? pl->budget - pl->est[SPENT_CLASS] :
		       pl->budget;
	uint64_t fixed = pl->est[SPENT_REFERENCE] + pl->est[SPENT_FAT] + pl->est[SPENT_CLASS];
	uint64_t rest = left > fixed ? left - fixed : 0;
	pl->est[SPENT_LINEAR] = search_cost(s, false, rest / 2, &lin_nr);
	pl->est[SPENT_RANDOM] = search_cost(s, true, rest / 2, &rnd_nr);
	pl->max_nr = lin_nr;
	pl->planned = 0;
	for (int p = 0; p < NSPENT; p++)
		pl->planned += pl->est[p];

	if (pl->est[SPENT_CAPACITY])
		fmt_append(parts, sizeof parts, "the capacity check wrote %s; ",
			   fmt_size(b, pl->est[SPENT_CAPACITY]));
	fmt_append(parts, sizeof parts, "with %s erase blocks: the FAT-area check %s, ",
		   fmt_size(e, s->erasesize), fmt_size(b, pl->est[SPENT_FAT]));
	fmt_append(parts, sizeof parts, "open-block runs up to N=%d (at most %s, %s)", lin_nr ? lin_nr : 1,
		   fmt_size(b, pl->est[SPENT_REFERENCE] + pl->est[SPENT_LINEAR] + pl->est[SPENT_RANDOM]),
		   s->erasesize <= SMALL_ERASE ? "whole blocks" : "a few chunks in each block");
	if (pl->est[SPENT_CLASS])
		fmt_append(parts, sizeof parts, ", the class check %s", fmt_size(b, pl->est[SPENT_CLASS]));
	snprintf(pl->line, sizeof pl->line, "writes at most %s (%s): %s", fmt_size(b, pl->budget),
		 budget_words(w, sizeof w, s), parts);
	warnx_fb("%s: --auto %s", auto_device_name(s), pl->line);
}

static void say_not_determinable(struct autostate *s, struct not_determinable *nd, const char *reason,
				 const char *cmd, uint64_t cost, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void say_not_determinable(struct autostate *s, struct not_determinable *nd, const char *reason,
				 const char *cmd, uint64_t cost, const char *fmt, ...)
{
	va_list ap;
	(void)s;
	nd->reason = reason;
	va_start(ap, fmt);
	vsnprintf(nd->why, sizeof nd->why, fmt, ap);
	va_end(ap);
	snprintf(nd->command, sizeof nd->command, "%s", cmd ? cmd : "");
	nd->cost_bytes = cmd ? cost : 0;
}

/* "flashbench --auto --destructive --max-write=2G DEV": a larger budget; its bytes. */
static uint64_t larger_budget_line(char *buf, size_t n, const struct autostate *s, uint64_t more)
{
	uint64_t want = s->d->bytes_written + more;
	want = (want + (1ull << 20) - 1) >> 20 << 20;
	if (want > s->d->size)
		want = s->d->size / s->d->lbs * s->d->lbs;
	snprintf(buf, n, "flashbench --auto --destructive --max-write=%" PRIu64 "M %s", want >> 20,
		 auto_device_name(s));
	return want;
}

/* What a search still has to write to reach OPEN_AU_MAX_NR in both modes. */
static uint64_t searches_left(const struct autostate *s)
{
	int nr;
	return search_cost(s, false, UINT64_MAX, &nr) + search_cost(s, true, UINT64_MAX, &nr);
}

/*
 * Every linear run went to a write cache: no run collapsed up to
 * OPEN_AU_MAX_NR, and the look for the cache's end did not reach it, or
 * the runs measured again past a fall of the rate held to OPEN_AU_MAX_NR
 * once more (the fall was not the cache's end: today's tlc-32g seed=43 and
 * seed=88 of the calibration, 928 MiB and 1.7 GiB caches, fell at 316 and
 * 597 MiB and then held to 32 where the cards keep 2 and 6 open, "at least
 * 32" and random counts of 22 and 32, low, after 622 and 359 MiB of random
 * runs).
 */
bool auto_cache_takes_every_run(const struct autostate *s)
{
	if (!s->lin.at_least || !s->cache_checked)
		return false;
	return !s->cache_bytes || (s->regime && s->lin.n >= OPEN_AU_MAX_NR);
}

static void judge_one(struct autostate *s, bool random, struct count_estimate *c,
		      struct not_determinable *nd)
{
	char cmd[512], e[FMT_BUF], e2[FMT_BUF];
	const char *what = random ? "out-of-order writes" : "writes";
	if (nd->reason || c->conf == CONF_NONE) {
		if (!nd->reason && s->no_room[0])
			say_not_determinable(s, nd, "device-too-small", NULL, 0, "not even one --open-au run "
					     "fits: %s", s->no_room);
		goto unknown;
	}
	if (!s->erase.bytes && c->at_least) {
		uint64_t cost = 0;
		bool line = auto_run_command(cmd, sizeof cmd, s, c->n + 1, random);
		if (line)
			cost = auto_run_command_cost(s, c->n + 1, random);
		say_not_determinable(s, nd, "no-geometry", line ? cmd : NULL, cost, "-a shows no erase-block "
				     "step, and writes in order and out of order to up to %d places at once ran "
				     "alike: the card shows no geometry flashbench's runs can reach (tried with %s "
				     "blocks)", s->lin.n, fmt_size(e, s->erasesize));
		goto unknown;
	}
	if (c->at_least && auto_cache_takes_every_run(s)) {
		uint64_t cost = larger_budget_line(cmd, sizeof cmd, s, 2 * s->d->bytes_written);
		if (s->cache_bytes)
			say_not_determinable(s, nd, "write-cache", cmd, cost, "%s to up to %d places at once "
					     "ran alike, also measured again after the rate fell at ~%s: a write cache "
					     "larger than the %s written may take every run (the fall was not its end)",
					     what, c->n, fmt_size(e, s->cache_bytes),
					     fmt_size(e2, s->d->bytes_written));
		else
			say_not_determinable(s, nd, "write-cache", cmd, cost, "%s to up to %d places at once "
					     "ran alike, and %s more written in order ran at that rate too: a write "
					     "cache larger than the %s written may take every run", what, c->n,
					     fmt_size(e, s->cache_looked), fmt_size(e2, s->d->bytes_written));
		goto unknown;
	}
	/*
	 * A RAM buffer larger than a run can fill with writes of its own before
	 * it is timed (a quarter of each block): the rows are timed through
	 * the work of the writes before them, and an uncertain count says
	 * nothing. The original's runs write whole blocks, row by row.
	 */
	if (auto_buffer_blurs(s) && c->conf <= CONF_LOW && !auto_count_stands_behind_buffer(s, random, c)) {
		struct bracket b = auto_bracket(s, random);
		long long at = b.collapse ? b.collapse : c->n + 1;
		uint64_t cost = 0;
		bool line = auto_run_command(cmd, sizeof cmd, s, at, random);
		if (line)
			cost = auto_run_command_cost(s, at, random);
		say_not_determinable(s, nd, "ram-buffer", line ? cmd : NULL, cost, "writes after a pause go to "
				     "a RAM buffer of ~%s, more than a run can fill with writes of its own in its %s blocks: "
				     "every row is timed through the work of the writes before it",
				     fmt_size(e, s->buffer_bytes), fmt_size(e2, s->erasesize));
		goto unknown;
	}
	if (c->at_least && s->cap_hit) {
		uint64_t cost = larger_budget_line(cmd, sizeof cmd, s, searches_left(s));
		say_not_determinable(s, nd, "budget", cmd, cost, "the write budget ran out before a run "
				     "collapsed: %s to %d places at once all ran alike", what, c->n);
		goto unknown;
	}
	return;
unknown:
	c->conf = CONF_NONE;
}

void auto_judge_determinable(struct autostate *s)
{
	if (s->have_lin)
		judge_one(s, false, &s->lin, &s->nd_lin);
	if (s->have_rnd)
		judge_one(s, true, &s->rnd, &s->nd_rnd);
	if (s->stop)
		s->plan.stopped_because = s->status == 1 ? "error" : "interrupted";
	else if (s->nd_lin.reason || s->nd_rnd.reason)
		s->plan.stopped_because = "not-determinable";
	else if (s->cap_hit)
		s->plan.stopped_because = "budget";
	else
		s->plan.stopped_because = "done";
}

/*
 * A FAT check the write cache took (the linear runs' "write-cache": every
 * run went to a cache the budget could not pass, and so did the check,
 * whose columns run alike there: "no FAT area", high, on cards with one,
 * doc/card-facts.md): not determinable on this card within the budget, and
 * the --auto line that passes the cache for the counts decides it too (its
 * bytes). An area that shows through the cache is the place's and stays.
 */
void auto_judge_fat_behind_a_cache(struct autostate *s)
{
	const struct not_determinable *lin = &s->nd_lin;
	if (!s->have_fat || s->fatest.aus || !lin->reason || strcmp(lin->reason, "write-cache"))
		return;
	s->fatest.conf = CONF_NONE;
	say_not_determinable(s, &s->nd_fat, "write-cache", lin->command[0] ? lin->command : NULL,
			     lin->cost_bytes, "the FAT check ran inside a write cache that took every run, "
			     "where the columns run alike; the --auto line that decides the open-AU counts "
			     "past the cache decides it too");
}
