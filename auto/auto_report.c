/* --auto's report: the verdicts, advice and raw tables as text, JSON and a chart. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "identity/identity.h"
#include "lib/msg.h"
#include "report/report.h"
#include "safety/safety.h"
#include "lib/units.h"

/* "1st", "2nd", "3rd", "4th", "11th", "21st" */
static const char *ordinal(char *buf, size_t n, int k)
{
	const char *suffix = "th";

	if (k % 100 < 11 || k % 100 > 13)
		suffix = k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
	snprintf(buf, n, "%d%s", k, suffix);
	return buf;
}

/* How many times slower `worse` writes than `good` at the smallest block size both measured. */
static double slowdown(const struct au_run *good, const struct au_run *worse)
{
	double ratio = 0;

	if (!good || !worse)
		return 0;
	for (int i = 0; i < good->r.nrows; i++) {
		uint64_t bs = good->r.rows[i].blocksize;
		double g = auto_rate_at(&good->r, bs), w = auto_rate_at(&worse->r, bs);

		if (g > 0 && w > 0)
			ratio = g / w;	/* rows go down in size: the last match is the smallest */
	}
	return ratio;
}

/* The first run above n (same mode) that collapsed. */
static const struct au_run *first_collapse_above(const struct autostate *s, int n, bool random)
{
	for (int k = n + 1; k <= OPEN_AU_MAX_NR; k++) {
		const struct au_run *r = auto_find_run(s, k, random);

		if (r && r->verdict == RUN_COLLAPSED)
			return r;
	}
	return NULL;
}

/* "Writing to 8 places at once is fine; a 9th makes the card copy whole blocks (5.3x slower)." */
static void say_open_limit(FILE *f, const struct autostate *s, const struct count_estimate *c,
			   bool random)
{
	const char *how = random ? "Writing out of order" : "Writing";
	char nth[16];

	if (c->conf == CONF_NONE || (c->n == 0 && !random))
		return;
	if (c->at_least) {
		fprintf(f, "  %s to %d place%s at once is fine (no limit found up to %d).\n", how, c->n,
			c->n == 1 ? "" : "s", c->n);
		return;
	}
	/* a low-confidence count is said as what it is: not certain */
	bool sure = c->conf > CONF_LOW;
	if (random && c->n == 0) {
		double x = slowdown(auto_find_run(s, 1, false), auto_find_run(s, 1, true));

		fprintf(f, "  Writing out of order %s slow even in one place at a time", sure ? "is" : "looked");
		if (x >= 1.05)
			fprintf(f, " (%.1fx slower than in order)", x);
		fprintf(f, "%s.\n", sure ? "" : " (not certain: see rerun below)");
		return;
	}
	const struct au_run *worse = first_collapse_above(s, c->n, random);
	double x = slowdown(auto_find_run(s, c->n, random), worse);

	fprintf(f, "  %s to %d place%s at once %s; a %s %s the card copy whole blocks", how, c->n,
		c->n == 1 ? "" : "s", sure ? "is fine" : "looked fine",
		ordinal(nth, sizeof(nth), worse ? (int)worse->nr : c->n + 1), sure ? "makes" : "may make");
	if (x >= 1.05 && sure)
		fprintf(f, " (%.*fx slower)", x < 10 ? 1 : 0, x);
	fprintf(f, "%s.\n", sure ? "" : " (not certain: see rerun below)");
}

/* "35MB/s": a write rate as people read them (decimal megabytes) */
static const char *mbps(char *buf, size_t n, double rate)
{
	snprintf(buf, n, "%.*fMB/s", rate < 10e6 ? 1 : 0, rate / 1e6);
	return buf;
}

/* A RAM buffer or a write cache, where the runs showed one (issue 27). */
static void say_write_path(FILE *f, const struct autostate *s)
{
	char b[FMT_BUF], r1[32], r2[32];
	/*
	 * Both rates are the buffer look's, of writes of one size: the
	 * reference's larger writes run faster past the buffer than the look's
	 * did into it (an eMMC "went at 124MB/s, then 153MB/s").
	 */
	if (s->buffer_bytes)
		fprintf(f, "  Writes after a pause are buffered: the first ~%s went at %s, then %s (a RAM\n"
			"  buffer); every write test here was timed past it.\n", fmt_size(b, s->buffer_bytes),
			mbps(r1, sizeof r1, s->buffer_fast_rate),
			mbps(r2, sizeof r2, s->buffer_slow_rate));
	if (s->cache_bytes && auto_cache_takes_every_run(s))
		fprintf(f, "  Writes after idle go to a write cache: the rate fell after ~%s (%s, then %s),\n"
			"  but the runs measured again after it ran alike too: the cache took them.\n",
			fmt_size(b, s->cache_bytes), mbps(r1, sizeof r1, s->cache_fast_rate),
			mbps(r2, sizeof r2, s->cache_slow_rate));
	else if (s->cache_bytes)
		fprintf(f, "  Writes after idle go to a write cache: the first ~%s are written at %s, then\n"
			"  %s; the open erase blocks were counted past it (%s is not the card's rate).\n",
			fmt_size(b, s->cache_bytes), mbps(r1, sizeof r1, s->cache_fast_rate),
			mbps(r2, sizeof r2, s->cache_slow_rate), r1);
	else if (s->cache_checked && s->cache_looked)
		fprintf(f, "  Every write ran at one rate, also %s more written in order: a write cache\n"
			"  larger than what was written may have taken them all.\n", fmt_size(b, s->cache_looked));
}

/* The verdict in plain words; the numbers and their confidence follow. */
static void print_summary(FILE *f, const struct autostate *s)
{
	char e[FMT_BUF], p[FMT_BUF], bs[FMT_BUF];

	if (s->erase.bytes)
		fprintf(f, "  Erase blocks are %s", fmt_size(e, s->erase.bytes));
	else
		fprintf(f, "  The erase block size did not show");
	if (s->page.bytes)
		fprintf(f, "; pages are %s.\n", fmt_size(p, s->page.bytes));
	else
		fprintf(f, "; the page size did not show.\n");
	if (!s->page.bytes) {
		unsigned int least = 2 * s->d->lbs;	/* the smallest --blocksize -a takes here */

		fmt_size(bs, s->align.blocksize);
		if (s->align.blocksize > least)
			fprintf(f, "  A page of %s or less cannot show with -a --blocksize=%s; to look for it:\n"
				"    flashbench -a --blocksize=%u %s\n", bs, bs, least,
				auto_device_name(s));
		else
			fprintf(f, "  No step showed down to the smallest read (%s), and no --blocksize can\n"
				"  show a smaller page here (-a reads at least 2 logical blocks of %u bytes):\n"
				"  pages are that small or the card hides them.\n", bs, s->d->lbs);
	}
	if (s->no_room[0])
		fprintf(f, "  The open erase block tests could not run:\n  %s.\n", s->no_room);
	if (s->no_effects)
		fprintf(f, "  No flash translation effects seen: writes ran alike in order and out of order,\n"
			"  to up to %d places at once (a RAM disk, or a device without a card's translation\n"
			"  layer).\n", s->lin.n);
	if (s->have_lin && !s->no_effects)
		say_open_limit(f, s, &s->lin, false);
	if (s->have_rnd && !s->no_effects)
		say_open_limit(f, s, &s->rnd, true);
	if (s->map_unit)
		fprintf(f, "  Random writes keep up with linear ones from %s up (a %s mapping unit).\n",
			fmt_size(e, s->map_unit), fmt_size(p, s->map_unit));
	say_write_path(f, s);
	if (s->have_fat && s->fatest.aus > 0)
		fprintf(f, "  The first %s (%d erase block%s) take small writes faster: a FAT area.\n",
			fmt_size(e, s->fatest.bytes), s->fatest.aus, s->fatest.aus == 1 ? "" : "s");
	fputc('\n', f);
}


static void print_size_estimate(FILE *f, const char *what, const struct size_estimate *e,
				bool verbose)
{
	char b[128];

	fprintf(f, "  %-22s %s\n", what, text_size_estimate(b, sizeof b, e));
	if (verbose && e->evidence[0])
		fprintf(f, "  %-22s   %s\n", "", e->evidence);
}

/* "no visible geometry": the reason of a not-determinable verdict, as the report says it */
static const char *nd_words(const char *reason)
{
	static const char *const words[][2] = {
		{ "write-cache", "a write cache takes the writes" }, { "ram-buffer", "a RAM buffer blurs the runs" },
		{ "noise", "host noise as large as the effect" }, { "budget", "the write budget ran out" },
		{ "no-geometry", "no visible geometry" }, { "device-too-small", "the device is too small" },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(reason, words[i][0]))
			return words[i][1];
	return reason;
}

static void print_count_estimate(FILE *f, const char *what, const struct count_estimate *c,
				 const struct not_determinable *nd, bool verbose)
{
	if (nd->reason)
		fprintf(f, "  %-22s not determinable on this card (%s)\n", what, nd_words(nd->reason));
	else if (c->n > 0 || c->conf > CONF_NONE)
		fprintf(f, "  %-22s %s%d (%s confidence)\n", what, c->at_least ? "at least " : "", c->n,
			results_confidence_name(c->conf));
	else
		fprintf(f, "  %-22s unknown\n", what);
	if (verbose && c->evidence[0])
		fprintf(f, "  %-22s   %s\n", "", c->evidence);
}

static void print_fat_estimate(FILE *f, const struct fat_estimate *e, const struct not_determinable *nd,
			       bool verbose)
{
	char b[FMT_BUF];

	if (nd->reason)
		fprintf(f, "  %-22s not determinable on this card (%s)\n", "FAT-optimised area",
			nd_words(nd->reason));
	else if (e->aus > 0)
		fprintf(f, "  %-22s %d erase block%s, %s at the start (%s confidence)\n", "FAT-optimised area",
			e->aus, e->aus == 1 ? "" : "s", fmt_size(b, e->bytes), results_confidence_name(e->conf));
	else if (e->conf == CONF_NONE)
		fprintf(f, "  %-22s unknown\n", "FAT-optimised area");
	else
		fprintf(f, "  %-22s none (%s confidence)\n", "FAT-optimised area", results_confidence_name(e->conf));
	if (verbose && e->evidence[0])
		fprintf(f, "  %-22s   %s\n", "", e->evidence);
	if (verbose && nd->reason)
		fprintf(f, "  %-22s   %s\n", "", nd->why);
}

static void print_raw(FILE *f, const struct autostate *s)
{
	char b[FMT_BUF], e[FMT_BUF];
	const char *dev = auto_device_name(s);

	fprintf(f, "\nRaw data\n");
	fprintf(f, "$ flashbench -a %s --blocksize=%" PRIu64 " --count=%lld", dev, s->align.blocksize,
		s->align.count);
	if (s->nalign > 1)
		fprintf(f, "   # median of %d runs", s->nalign);
	fputc('\n', f);
	text_align(f, &s->align);
	for (int i = 0; i < s->nfat; i++) {
		const struct rate_result *r = &s->fat_runs[i];
		fprintf(f, "$ flashbench --find-fat %s --erasesize=%s --blocksize=%s --fat-nr=%lld%s", dev,
			fmt_size(e, r->erasesize), fmt_size(b, r->blocksize), r->nr,
			r->random ? " --random" : "");
		if (r->nrows)
			fprintf(f, "   # rows from %s", fmt_size(e, r->rows[0].blocksize));
		if (s->nfat > 1)
			fprintf(f, ", run %d of %d", i + 1, s->nfat);
		fputc('\n', f);
		text_rates(f, r);
	}
	/* linear runs, then random ones, each by ascending N, every replica (not in search order) */
	for (int k = 0; k < 2 * (OPEN_AU_MAX_NR + 1); k++) {
		long long nr = k % (OPEN_AU_MAX_NR + 1);
		bool random = k > OPEN_AU_MAX_NR;
		int reps = nr ? auto_replicas(s, nr, random) : 0, rep = 0;
		for (int i = 0; i < s->nruns && reps; i++) {
			const struct au_run *r = &s->runs[i];
			if (!auto_current_run(s, r) || r->nr != nr || r->random != random)
				continue;
			rep++;
			/* measured inside a fake's real size: as a line, it would write past it */
			struct params cp = *s->p;
			cp.erasesize = r->r.erasesize;
			cp.blocksize = r->r.blocksize;
			cp.first_blocksize = 0;
			cp.open_au_nr = r->nr;
			cp.random = r->random;
			cp.offset_set = true;
			cp.offset = r->r.offset;
			bool runs = auto_open_au_line_runs(s, &cp);
			fprintf(f, "%c flashbench --open-au %s --erasesize=%s --blocksize=%s --open-au-nr=%lld --offset=%" PRIu64 "%s   # %s",
				runs ? '$' : '#', dev, fmt_size(e, r->r.erasesize), fmt_size(b, r->r.blocksize), r->nr,
				r->r.offset, r->random ? " --random" : "", results_collapse_name(r->verdict));
			if (r->r.nrows && r->r.rows[0].blocksize != r->r.erasesize)
				fprintf(f, ", rows from %s", fmt_size(e, r->r.rows[0].blocksize));
			/* the line runs the original's whole rows; --auto wrote a few chunks a block */
			if (r->r.nrows && r->r.rows[0].bytes[0] < (uint64_t)r->nr * r->r.erasesize)
				fprintf(f, ", --auto's probe: %s a block a row",
					fmt_size(b, r->r.rows[0].bytes[0] / (uint64_t)r->nr));
			if (reps > 1)
				fprintf(f, ", run %d of %d", rep, reps);
			if (r->settle >= 0)
				fprintf(f, ", after a settle pass");
			if (!runs)
				fprintf(f, ", blocks %u erase size%s apart inside the real size, not a line "
					"to run", r->r.spacing, r->r.spacing == 1 ? "" : "s");
			fprintf(f, "%s\n", r->stopped_early ? ", stopped once clear" :
				r->cut_by_cap ? ", cut by --max-write" : "");
			text_rates(f, &r->r);
		}
	}
}

/* "1.2%", "0.04%", "105%": a share of the card */
static const char *share_text(char *buf, size_t n, uint64_t part, uint64_t whole)
{
	double pct = whole ? 100.0 * (double)part / (double)whole : 0;
	snprintf(buf, n, "%.*f%%", pct < 0.1 ? 2 : pct < 10 ? 1 : 0, pct);
	return buf;
}

/* "budget 655MiB (2.0% of the card, the default): capacity 16MiB, FAT area 48MiB, ..." */
static void print_budget(FILE *f, const struct autostate *s)
{
	static const char *const words[NSPENT] = {
		[SPENT_CAPACITY] = "capacity check", [SPENT_REFERENCE] = "reference",
		[SPENT_FAT] = "FAT area", [SPENT_LINEAR] = "open blocks", [SPENT_RANDOM] = "random writes",
		[SPENT_SETTLE] = "settling", [SPENT_CACHE] = "write cache", [SPENT_CLASS] = "class check",
	};
	char b[FMT_BUF], pct[16], line[512] = "";
	if (!s->plan.budget_source)
		return;
	for (int p = 0; p < NSPENT; p++)
		if (s->spent[p])
			fmt_append(line, sizeof line, "%s%s %s", line[0] ? ", " : "", words[p],
				   fmt_size(b, s->spent[p]));
	fprintf(f, "  %-22s %s (%s of the card, %s)%s%s\n", "budget", fmt_size(b, s->plan.budget),
		share_text(pct, sizeof pct, s->plan.budget, s->d->size),
		strcmp(s->plan.budget_source, "default") ? "--max-write" : "the default",
		line[0] ? ": " : "", line);
}

/*
 * Why the write phase stopped where a verdict is not determinable: what was
 * written, why more cannot decide, and the line that would try anyway.
 */
static void print_stop(FILE *f, const struct autostate *s)
{
	const struct not_determinable *nds[2] = { &s->nd_lin, &s->nd_rnd };
	const char *names[2] = { "open-AU count", "random open-AU count" };
	char b[FMT_BUF], pct[16];
	for (int i = 0; i < 2; i++) {
		const struct not_determinable *nd = nds[i];
		if (!nd->reason || (i == 1 && s->nd_lin.reason && !strcmp(s->nd_lin.why, nd->why)))
			continue;
		bool both = i == 0 && s->nd_rnd.reason && !strcmp(s->nd_rnd.why, nd->why);
		fprintf(f, "  %-22s wrote %s (%s of the card): the %s%s not determinable here: %s",
			i && !both ? "" : "stopped", fmt_size(b, s->d->bytes_written),
			share_text(pct, sizeof pct, s->d->bytes_written, s->d->size),
			both ? "open-AU counts" : names[i], both ? " are" : " is", nd->why);
		if (nd->command[0])
			fprintf(f, "; to try anyway (writes %s):\n  %-22s %s\n", fmt_size(b, nd->cost_bytes), "",
				nd->command);
		else
			fprintf(f, ".\n");
	}
}

/* The commands that settle an uncertain count: the runs at N and N+1, each to repeat. */
static int rerun_commands(const struct autostate *s, char cmds[4][512])
{
	int n = 0;
	for (int m = 0; m < 2; m++) {
		bool random = m == 1;
		const struct count_estimate *c = random ? &s->rnd : &s->lin;
		if (!(random ? s->have_rnd : s->have_lin) || c->conf > CONF_LOW || s->no_effects ||
		    (random ? s->nd_rnd : s->nd_lin).reason)
			continue;
		struct bracket b = auto_bracket(s, random);
		long long pts[2] = { b.hold, b.collapse ? b.collapse : b.hold + 1 };
		for (int i = 0; i < 2 && n < 4; i++)
			if (pts[i] >= 1 && pts[i] <= OPEN_AU_MAX_NR &&
			    auto_run_command(cmds[n], sizeof(cmds[0]), s, pts[i], random))
				n++;
	}
	return n;
}

/*
 * A count a second run of the same command may settle: low or unknown, and
 * not "not determinable here" (that line gives its reason and its own
 * command: the same run again meets the same budget, buffer or cache).
 */
static bool count_may_settle(bool have, const struct count_estimate *c, const struct not_determinable *nd)
{
	return have && c->conf <= CONF_LOW && !nd->reason;
}

/* Low confidence or unknown: say how a second run can settle it. */
static void print_rerun_hint(FILE *f, const struct autostate *s, const char *dev)
{
	bool unsure = s->erase.conf <= CONF_LOW || s->page.conf <= CONF_LOW ||
		      count_may_settle(s->have_lin, &s->lin, &s->nd_lin) ||
		      count_may_settle(s->have_rnd, &s->rnd, &s->nd_rnd);
	if (!unsure)
		return;
	fprintf(f, "  %-22s low-confidence or unknown answers may settle on a second run on a\n"
		"  %-22s quiet host (no other I/O; a card slot rather than a USB reader):\n"
		"  %-22s flashbench --auto%s %s\n", "rerun", "", "",
		s->o->destructive ? " --destructive" : "", dev);
	char cmds[4][512];
	int n = rerun_commands(s, cmds);
	if (n)
		fprintf(f, "  %-22s or run each of these twice and compare the last rows:\n", "");
	for (int i = 0; i < n; i++)
		fprintf(f, "  %-22s %s\n", "", cmds[i]);
}

/* Every byte the run moved, by purpose: the device's own counters agree. */
static void print_traffic(FILE *f, const struct autostate *s)
{
	static const char *const wrote[IO_PURPOSES] = { "testing", "", "restoring", "" };
	static const char *const read[IO_PURPOSES] = { "testing", "saving", "", "verifying" };
	const struct io_traffic *t = &s->d->traffic;
	char w[256], r[256], b[FMT_BUF];

	if (!s->d->bytes_written && !t->read[IO_SAVE])
		return;	/* only the tests' reads: nothing to split */
	fprintf(f, "Moved %s read (%s)", fmt_size(b, s->d->bytes_read), text_traffic(r, sizeof r, t, false, read));
	if (s->d->bytes_written)
		fprintf(f, ", %s written (%s)", fmt_size(b, s->d->bytes_written),
			text_traffic(w, sizeof w, t, true, wrote));
	fprintf(f, ".\n");
}

/* "$ sudo ./flashbench --auto --destructive /dev/sdc", and what the run wrote */
static void print_command(FILE *f, const struct autostate *s)
{
	const char *dev = auto_device_name(s);
	char cmd[1024], b[FMT_BUF];

	if (report_command_line(cmd, sizeof(cmd)))
		fprintf(f, "$ %s\n", cmd);
	else
		fprintf(f, "$ flashbench --auto%s %s\n", s->o->destructive ? " --destructive" : "", dev);
	if (s->have_cap && s->cap.verdict != CAP_GENUINE)
		if (s->have_cap)
		capacity_headline(f, &s->cap);	/* a fake card first: every number below is measured on it */
	if (s->d->bytes_written)
		fprintf(f, "Wrote %s (%" PRIu64 " bytes) to %s.\n", fmt_size(b, s->d->bytes_written),
			s->d->bytes_written, dev);
	else
		fprintf(f, "Wrote nothing to %s: only read it.\n", dev);
	print_traffic(f, s);
}

void auto_print_text(FILE *f, const struct autostate *s)
{
	const char *dev = auto_device_name(s);
	char b[FMT_BUF], t[FMT_BUF];
	struct advice a;

	bool v = s->o->verbose;

	print_command(f, s);
	fprintf(f, "\nDevice\n");
	identity_print(f, s->id);

	fprintf(f, "\nVerdict\n");
	if (s->have_cap && s->cap.verdict == CAP_GENUINE)
		if (s->have_cap)
		capacity_headline(f, &s->cap);
	if (s->cls)
		class_headline(f, s->cls);
	print_summary(f, s);
	print_size_estimate(f, "erase block size", &s->erase, v);
	print_size_estimate(f, "page size", &s->page, v);
	if (s->o->destructive) {
		if (s->have_lin)
			print_count_estimate(f, "open erase blocks", &s->lin, &s->nd_lin, v);
		if (s->have_rnd)
			print_count_estimate(f, "open, random writes", &s->rnd, &s->nd_rnd, v);
		if (s->have_fat)
			print_fat_estimate(f, &s->fatest, &s->nd_fat, v);
		else if (s->have_lin)
			fprintf(f, "  %-22s not measured%s\n", "FAT-optimised area",
				s->cap_hit ? " (--max-write reached)" : "");
		fprintf(f, "  %-22s %s (%s of the card)", "written", fmt_size(b, s->d->bytes_written),
			share_text(t, sizeof t, s->d->bytes_written, s->d->size));
		fprintf(f, " in %s of device time, erase size %s from %s", fmt_time(t, s->write_ns),
			fmt_size(b, s->erasesize), s->erase_source ? s->erase_source : "-");
		fprintf(f, "%s\n", s->cap_hit ? "; --max-write reached" : "");
		print_budget(f, s);
		print_stop(f, s);
	}
	fprintf(f, "  %-22s %d run%s of -a, %s of device time\n", "alignment", s->nalign,
		s->nalign == 1 ? "" : "s", fmt_time(t, s->align_ns));
	print_rerun_hint(f, s, dev);

	advice_make(s, &a);
	advice_print(f, s, &a);
	if (!s->o->destructive)
		fprintf(f, "\nNothing was written. To find the open erase blocks and the FAT area\n"
			"(this OVERWRITES data on %s):\n  flashbench --auto --destructive %s\n", dev, dev);
	print_raw(f, s);
	if (s->status == 1)
		fprintf(f, "\nSome I/O failed: the results above are incomplete.\n");
	else if (s->stop)
		fprintf(f, "\nInterrupted: the results above are incomplete.\n");
}

/* ------------------------------------------------------------ JSON report */

static void json_write_phase(struct jw *w, const struct autostate *s)
{
	jw_object_begin(w, "write_phase");
	jw_uint(w, "erasesize_bytes", s->erasesize);
	jw_string(w, "erasesize_source", auto_source_id(s->erase_source));
	jw_uint(w, "open_au_offset_bytes", s->open_offset);
	jw_array_begin(w, "open_au_runs");
	for (int i = 0; i < s->nruns; i++) {
		const struct au_run *r = &s->runs[i];
		jw_object_begin(w, NULL);
		jw_int(w, "nr", r->nr);
		jw_bool(w, "random", r->random);
		jw_string(w, "verdict", results_collapse_name(r->verdict));
		jw_bool(w, "stopped_early", r->stopped_early);
		jw_bool(w, "cut_by_max_write", r->cut_by_cap);
		jw_bool(w, "reference", r->reference);
		if (r->settle >= 0)
			jw_int(w, "settle_pass", r->settle);
		jw_int(w, "settling_row_erase_blocks", r->settle_span);
		jw_uint(w, "settling_row_bytes", r->settle_chunk);
		jw_array_begin(w, "ratios");
		for (int k = 0; k < 2; k++)
			jw_double(w, NULL, r->ratio[k]);
		jw_array_end(w);
		json_rates(w, "result", &r->r);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_array_begin(w, "settle_passes");
	for (int i = 0; i < s->nsettles; i++) {
		const struct settle_pass *sp = &s->settles[i];
		jw_object_begin(w, NULL);
		jw_string(w, "after", sp->after);
		jw_uint(w, "written_bytes", sp->bytes);
		jw_int(w, "writes", sp->writes);
		jw_int(w, "erase_blocks", sp->blocks);
		jw_bool(w, "steady", sp->quiet);
		jw_int(w, "first_write_ns", sp->first_ns);
		jw_int(w, "last_write_ns", sp->last_ns);
		jw_int(w, "fastest_write_ns", sp->fastest_ns);
		if (sp->clean_ns)
			jw_int(w, "clean_write_ns", sp->clean_ns);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_uint(w, "settling_rows_written_bytes", s->settle_row_bytes);
	jw_bool(w, "translation_effects", !s->no_effects);
	char cmds[4][512];
	int n = rerun_commands(s, cmds);
	jw_array_begin(w, "rerun");
	for (int i = 0; i < n; i++)
		jw_string(w, NULL, cmds[i]);
	jw_array_end(w);
	if (s->nfat)
		json_rates(w, "find_fat", &s->fat_runs[0]);
	if (s->nfat > 1) {
		jw_array_begin(w, "find_fat_replicas");
		for (int i = 1; i < s->nfat; i++)
			json_rates(w, NULL, &s->fat_runs[i]);
		jw_array_end(w);
	}
	jw_object_end(w);
}

/* Every measurement of the run folded into one status (what json_status prints). */
static void overall_status(const struct autostate *s, struct run_status *st)
{
	const struct run_status *parts[ALIGN_MAX_RUNS + MAX_AU_RUNS + MAX_FAT_RUNS + 1];
	int n = 0;

	for (int i = 0; i < s->nalign; i++)
		parts[n++] = &s->align_runs[i].st;
	for (int i = 0; i < s->nfat; i++)
		parts[n++] = &s->fat_runs[i].st;
	parts[n++] = &s->settle_st;
	for (int i = 0; i < s->nruns; i++)
		parts[n++] = &s->runs[i].r.st;
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < n; i++) {
		if (parts[i]->nfailures && !st->nfailures)
			st->first_failure = parts[i]->first_failure;
		st->nfailures += parts[i]->nfailures;
		st->interrupted |= parts[i]->interrupted;
		st->partial |= parts[i]->partial;
	}
	st->bytes_written = s->d->bytes_written;
	st->device_ns = s->d->device_ns;
	if (s->have_cap && !s->cap.restored)
		st->failed_because = s->cap.restore_error;
}

/* Where the card makes a verdict undeterminable: why, and the line that would decide it. */
static void json_not_determinable(struct jw *w, const struct not_determinable *nd)
{
	if (nd->reason) {
		jw_object_begin(w, "not_determinable");
		jw_string(w, "reason", nd->reason);
		jw_string(w, "why", nd->why);
		if (nd->command[0])
			jw_string(w, "command", nd->command);
		else
			jw_null(w, "command");
		jw_uint(w, "cost_bytes", nd->cost_bytes);
		jw_object_end(w);
	}
}

static void json_auto_count(struct jw *w, const char *key, const struct count_estimate *c,
			    const struct not_determinable *nd)
{
	jw_object_begin(w, key);
	json_count_fields(w, c);
	json_not_determinable(w, nd);
	jw_object_end(w);
}

static void json_auto_fat(struct jw *w, const char *key, const struct fat_estimate *e,
			  const struct not_determinable *nd)
{
	jw_object_begin(w, key);
	json_fat_fields(w, e);
	json_not_determinable(w, nd);
	jw_object_end(w);
}

/* auto.plan: the budget, what was planned and written, by purpose, and why the searches stopped */
static void json_plan(struct jw *w, const struct autostate *s)
{
	const struct write_plan *pl = &s->plan;
	jw_object_begin(w, "plan");
	jw_uint(w, "budget_bytes", pl->budget);
	jw_string(w, "budget_source", pl->budget_source);
	jw_uint(w, "planned_bytes", pl->planned);
	jw_uint(w, "written_bytes", s->d->bytes_written);
	jw_string(w, "stopped_because", pl->stopped_because ? pl->stopped_because : "done");
	jw_string(w, "line", pl->line);
	jw_int(w, "max_open_au_nr", pl->max_nr);
	jw_object_begin(w, "planned_by_purpose");
	for (int p = 0; p < NSPENT; p++)
		jw_uint(w, auto_purpose_name(p), pl->est[p]);
	jw_object_end(w);
	jw_object_begin(w, "written_by_purpose");
	for (int p = 0; p < NSPENT; p++)
		jw_uint(w, auto_purpose_name(p), s->spent[p]);
	jw_object_end(w);
	jw_object_end(w);
}

/* auto.write_path: the pauses before write tests, a RAM buffer, a write cache (issue 27) */
static void json_write_path(struct jw *w, const struct autostate *s)
{
	jw_object_begin(w, "write_path");
	jw_int(w, "pauses", s->pauses);
	jw_int(w, "pause_ns", s->pause_ns);
	jw_uint(w, "ram_buffer_bytes", s->buffer_bytes);
	if (s->buffer_bytes) {
		jw_double(w, "ram_buffer_rate_bytes_per_s", s->buffer_fast_rate);
		jw_double(w, "past_ram_buffer_rate_bytes_per_s", s->buffer_slow_rate);
	}
	jw_bool(w, "write_cache_checked", s->cache_checked);
	jw_uint(w, "write_cache_bytes", s->cache_bytes);
	jw_uint(w, "write_cache_check_written_bytes", s->cache_looked);
	if (s->cache_bytes) {
		jw_double(w, "write_cache_rate_bytes_per_s", s->cache_fast_rate);
		jw_double(w, "past_write_cache_rate_bytes_per_s", s->cache_slow_rate);
	}
	jw_object_end(w);
}

static void json_cost(struct jw *w, const struct autostate *s)
{
	jw_object_begin(w, "cost");
	jw_uint(w, "written_bytes", s->d->bytes_written);
	jw_uint(w, "read_bytes", s->d->bytes_read);
	jw_int(w, "device_time_ns", s->d->device_ns);
	jw_int(w, "align_device_time_ns", s->align_ns);
	jw_int(w, "write_device_time_ns", s->write_ns);
	if (s->o->destructive) {
		jw_uint(w, "max_write_bytes", s->max_write);
		jw_bool(w, "max_write_reached", s->cap_hit || s->cap.not_run_max_write ||
						 s->cap.cut_by_max_write);
	}
	json_traffic(w, "io_by_purpose", &s->d->traffic);
	jw_object_end(w);
}

void auto_print_json(FILE *f, const struct autostate *s)
{
	struct jw w;
	struct run_status st;
	const char *dev = auto_device_name(s);

	jw_init(&w, f);
	jw_object_begin(&w, NULL);
	json_envelope(&w, "auto");
	struct dev_facts facts;

	measure_dev_facts_fill(&facts, s->d);
	json_device_facts(&w, &facts, dev);
	identity_json(&w, "identity", s->id);
	if (s->have_cap) {
		capacity_json(&w, "capacity", &s->cap);
		if (!s->cap.restored)	/* the card still holds the check's labels */
			json_restore(&w, "preserve", &(struct restore_report){
				.device = dev, .error = s->cap.restore_error,
				.kept_file = s->cap.rescue_file[0] ? s->cap.rescue_file : NULL });
	}
	if (s->cls)
		class_json(&w, "class", s->cls);

	jw_object_begin(&w, "verdict");
	json_size_estimate(&w, "erase_size", &s->erase);
	json_size_estimate(&w, "page_size", &s->page);
	if (s->have_lin)
		json_auto_count(&w, "open_au_linear", &s->lin, &s->nd_lin);
	if (s->have_rnd)
		json_auto_count(&w, "open_au_random", &s->rnd, &s->nd_rnd);
	if (s->have_fat)
		json_auto_fat(&w, "fat_area", &s->fatest, &s->nd_fat);
	jw_object_end(&w);
	advice_json(&w, s);

	jw_object_begin(&w, "auto");
	jw_bool(&w, "destructive", s->o->destructive);
	jw_int(&w, "align_runs", s->nalign);
	json_align(&w, "align", &s->align);
	if (s->o->destructive) {
		if (s->plan.budget_source) {
			json_plan(&w, s);
			json_write_path(&w, s);
		}
		json_write_phase(&w, s);
	} else {
		char next[512];
		snprintf(next, sizeof(next), "flashbench --auto --destructive %s", dev);
		jw_string(&w, "to_measure_writes", next);	/* overwrites data on the device */
	}
	json_cost(&w, s);
	jw_object_end(&w);

	overall_status(s, &st);
	json_status(&w, &st);
	jw_object_end(&w);
	jw_finish(&w);
}

/* --plot: the --open-au runs, linear then random, each by ascending N */
void auto_plot_runs(FILE *f, const struct autostate *s)
{
	struct svg_run runs[MAX_AU_RUNS];
	int n = 0;

	for (int k = 0; k < 2 * (OPEN_AU_MAX_NR + 1) && n < MAX_AU_RUNS; k++) {
		const struct au_run *r = auto_find_run(s, k % (OPEN_AU_MAX_NR + 1), k > OPEN_AU_MAX_NR);

		if (r && r->r.nrows > 0)
			runs[n++] = (struct svg_run){ &r->r, r->nr, r->random, r->verdict == RUN_COLLAPSED };
	}
	struct report_verdict v = { 0 };

	analyze_align(&s->align, &v.erase, &v.page);	/* the chart marks -a's own reading */
	if (s->have_fat)
		v.fat = s->fatest;	/* and shades the FAT area found */
	svg_auto(f, auto_device_name(s), &s->align, &v, runs, n,
		 s->have_fat ? &s->fat : NULL);
}

void auto_report_failure(const struct autostate *s)
{
	struct run_status st;

	overall_status(s, &st);
	if (!st.nfailures)
		return;
	const struct vm_failure *f = &st.first_failure;
	const char *op = f->op == VM_READ ? "read" : f->op == VM_DISCARD ? "discard" : "write";
	char all[64] = "";

	if (st.nfailures > 1)
		snprintf(all, sizeof all, " (%d failed I/Os in all)", st.nfailures);
	warnx_fb("%s: %s failed at offset %" PRIu64 " (%" PRIu64 " bytes): %s%s",
		 auto_device_name(s), op, f->off, f->len,
		 strerror(f->err), all);
}

