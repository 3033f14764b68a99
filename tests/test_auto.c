/*
 * auto_run() on simulated cards, called directly: what it writes (nothing
 * without --destructive, never more than max_write with it), its exit
 * status, and the verdict lines of its report. Called with params_defaults()
 * it does the I/O of `flashbench --auto [--destructive] SPEC` and reports
 * the same, byte for byte but the command line's program name: the command
 * line adds no option of its own (its -a places, align_spread, are
 * auto_run's choice, whatever the caller's params say).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "auto/auto.h"
#include "auto/auto_state.h"
#include "dev.h"
#include "measure/measure.h"
#include "unit.h"

#define MiB (1024ull * 1024)

struct outcome {
	int rc;
	uint64_t written, read;
	char *text;
};

static struct outcome run_auto_spread(const char *spec, bool destructive, bool json, uint64_t max_write,
				      bool align_spread)
{
	struct outcome r = { .rc = -1 };
	struct dev d;
	struct params p;
	char err[256] = "";
	size_t len = 0;

	if (dev_open(&d, spec, destructive ? DEV_WRITE : 0, err, sizeof(err)) != 0) {
		printf("dev_open(%s): %s\n", spec, err);
		return r;
	}
	params_defaults(&p);
	p.align_spread = align_spread;
	struct auto_opts o = { .destructive = destructive, .json = json, .max_write = max_write,
			       .device_name = spec };
	FILE *f = open_memstream(&r.text, &len);
	r.rc = auto_run(&d, &p, &o, f);
	fclose(f);
	r.written = d.bytes_written;
	r.read = d.bytes_read;
	dev_close(&d);
	return r;
}

static struct outcome run_auto(const char *spec, bool destructive, bool json, uint64_t max_write)
{
	return run_auto_spread(spec, destructive, json, max_write, false);
}

static bool has(const struct outcome *r, const char *needle)
{
	bool found = r->text && strstr(r->text, needle);
	if (!found)
		printf("report lacks \"%s\"\n", needle);
	return found;
}

static void read_only_run_writes_nothing(void)
{
	struct outcome r = run_auto("sim:sdhc-good", false, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK_EQ(r.written, 0);
	CHECK_GT(r.read, 0);
	CHECK(has(&r, "erase block size       4MiB ("));
	CHECK(has(&r, "flashbench --auto --destructive sim:sdhc-good"));
	free(r.text);
}

/*
 * h52: the command line set align_spread for --auto itself, so auto_run()
 * called with params_defaults() read the original's -a places and its
 * answers moved from the command line's (today's usb3-64g seed=17 of the
 * calibration, seed 2026: 982 MiB written in-process against 940 MiB, N=3
 * 261x slower against 514x). The places are auto_run's: the same run
 * whatever the caller's params hold.
 */
static void auto_runs_its_own_alignment_places_whatever_the_callers_params(void)
{
	const char *spec = "sim:usb3-64g,size=4G,random-au=0,seed=17";
	struct outcome plain = run_auto_spread(spec, false, true, 0, false);
	struct outcome spread = run_auto_spread(spec, false, true, 0, true);
	CHECK_EQ(plain.rc, 0);
	CHECK_EQ(spread.rc, 0);
	CHECK_EQ(plain.read, spread.read);
	CHECK(plain.text && spread.text && strcmp(plain.text, spread.text) == 0);
	free(plain.text);
	free(spread.text);
}

static void device_too_small_for_alignment_is_a_usage_error_without_io(void)
{
	struct outcome r = run_auto("sim:size=2048,erasesize=2048,pagesize=512", false, false, 0);
	CHECK_EQ(r.rc, 2);
	CHECK(r.read == 0 && r.written == 0);
	free(r.text);
}

static void destructive_run_stays_under_max_write(void)
{
	struct outcome r = run_auto("sim:microsd-cheap", true, true, 64 * MiB);
	CHECK_EQ(r.rc, 0);
	CHECK(r.written > 0 && r.written <= 64 * MiB);
	CHECK(has(&r, "\"max_write_bytes\": 67108864"));
	free(r.text);
}

static void destructive_run_finds_a_cheap_cards_single_open_block(void)
{
	struct outcome r = run_auto("sim:microsd-cheap", true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "open erase blocks      1 (high confidence)"));
	CHECK(has(&r, "open, random writes    0 ("));
	CHECK(has(&r, "Only 1 erase block stays open"));
	free(r.text);
}

/* The report's line for `what` ("open erase blocks", ...), or "" (a static buffer). */
static const char *line_of(const struct outcome *r, const char *what)
{
	static char buf[256];
	const char *p = r->text ? strstr(r->text, what) : NULL;
	buf[0] = 0;
	if (p) {
		size_t n = strcspn(p, "\n");
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), p);
	}
	return buf;
}

/*
 * Issue 20, cause 2: on a card that postpones garbage collection, an N=2
 * run right after a collapsed N=4 run pays for the blocks N=4 left open
 * (here: its 512KiB writes under COLLAPSE_RATIO of a fresh N=2 run's); --auto
 * settles the card before each run that follows a collapse and still counts
 * 2 open erase blocks, its deciding N=2 run after a settle pass.
 */
static void state_left_by_a_collapsed_run_does_not_make_the_next_collapse_early(void)
{
	const char *spec = "sim:size=4G,open-au=2,random-au=1,fat-aus=0,gc-defer=4";
	struct dev d;
	struct params p;
	struct rate_result fresh, after, big;
	char err[256];

	if (dev_open(&d, spec, DEV_WRITE, err, sizeof(err)) != 0) {
		printf("dev_open(%s): %s\n", spec, err);
		CHECK(0);
		return;
	}
	params_defaults(&p);
	p.blocksize = 512 * 1024;
	p.open_au_nr = 2;
	CHECK_EQ(measure_open_au(&d, &p, &fresh), 0);
	p.open_au_nr = 4;
	CHECK_EQ(measure_open_au(&d, &p, &big), 0);
	p.open_au_nr = 2;
	CHECK_EQ(measure_open_au(&d, &p, &after), 0);
	double r_fresh = fresh.rows[fresh.nrows - 1].rate[0], r_after = after.rows[after.nrows - 1].rate[0];
	CHECK_LT(r_after, COLLAPSE_RATIO * r_fresh);	/* the carry-over is real on this card */
	rate_result_free(&fresh);
	rate_result_free(&big);
	rate_result_free(&after);
	dev_close(&d);

	struct outcome r = run_auto("sim:size=4G,open-au=2,random-au=1,fat-aus=0,gc-defer=4,state=after-run",
				    true, false, 0);
	CHECK_EQ(r.rc, 0);
	const char *lin = line_of(&r, "open erase blocks ");
	CHECK(strstr(lin, " 2 (high") || strstr(lin, " 2 (medium"));
	if (!strstr(lin, " 2 ("))
		printf("got: %s\n", lin);
	/* the N=2 run that decides came after the collapse at N=3, on a settled card */
	CHECK(has(&r, "--open-au-nr=2 --offset=25165824   # holds, rows from 128KiB, --auto's probe: 512KiB a block a row, run 2 of 2, after a settle pass"));
	free(r.text);
}

/*
 * Issue 20, cause 1: random writes that keep up with linear ones only from
 * a mapping unit up, with 2 blocks open for them, are not "no random block":
 * the count is made with writes of the unit and more; a card without random
 * blocks is 0 for sure.
 */
static void a_mapping_unit_with_two_random_blocks_is_not_no_random_block(void)
{
	struct outcome r = run_auto("sim:size=8G,erasesize=4M,pagesize=16K,open-au=6,random-au=2,"
				    "fat-aus=0,map-unit=512K", true, false, 0);
	CHECK_EQ(r.rc, 0);
	const char *rnd = line_of(&r, "open, random writes ");
	CHECK(strstr(rnd, " 2 (") != NULL);
	if (!strstr(rnd, " 2 ("))
		printf("got: %s\n", rnd);
	CHECK(has(&r, "Random writes keep up with linear ones from 512KiB up (a 512KiB mapping unit)."));
	free(r.text);

	/*
	 * A card without random blocks is 0; --auto's probes write no row of
	 * half a block (two chunks, back to front, want a whole block that holds
	 * data), so a unit that large cannot be ruled out: 0 at low confidence.
	 */
	r = run_auto("sim:size=8G,erasesize=4M,pagesize=16K,open-au=6,random-au=0,fat-aus=0", true, false, 0);
	CHECK(has(&r, "open, random writes    0 (low confidence)"));
	free(r.text);
}

/* Each run's verdict and decision-row ratios from --auto's JSON document. */
static int runs_of(const char *json, char verdicts[][16], double ratios[][2], int max)
{
	int n = 0;
	for (const char *p = json; p && (p = strstr(p, "\"verdict\": \"")) && n < max; p++) {
		const char *q = strstr(p, "\"ratios\": [");
		const char *next = strstr(p + 1, "\"verdict\": \"");
		if (!q || (next && q > next))
			continue;
		sscanf(p + strlen("\"verdict\": \""), "%15[a-z]", verdicts[n]);
		if (sscanf(q + strlen("\"ratios\": ["), "%lf , %lf", &ratios[n][0], &ratios[n][1]) == 2)
			n++;
	}
	return n;
}

/*
 * Issue 20, cause 3: on a fast card through a noisy host, one large-block
 * row of an --open-au run dips under COLLAPSE_RATIO while the other keeps
 * up: that run is not a collapse (it is measured again), and the count is
 * the card's, never an early limit. (seed=17: two runs dip at one row. With
 * the command line's -a places, which auto_run has used since h52, seed=7
 * dips at no row; over seeds 1..40 the count is 5 on 35, and 7 of them dip.)
 */
static void one_dip_in_a_large_row_of_a_fast_noisy_card_is_not_a_collapse(void)
{
	const char *spec = "sim:emmc,size=8G,erasesize=2M,open-au=5,random-au=5,fat-aus=0,stretch=10,"
			   "noise=10,spikes=2,seed=17";
	struct outcome r = run_auto(spec, true, true, 0);
	char v[MAX_AU_RUNS][16];
	double ratio[MAX_AU_RUNS][2];
	int n = runs_of(r.text ? r.text : "", v, ratio, MAX_AU_RUNS), dips = 0;

	CHECK_EQ(r.rc, 0);
	for (int i = 0; i < n; i++) {
		bool one_dip = (ratio[i][0] < COLLAPSE_RATIO) != (ratio[i][1] < COLLAPSE_RATIO) &&
			       (ratio[i][0] >= HOLD_RATIO || ratio[i][1] >= HOLD_RATIO);
		if (!one_dip)
			continue;
		dips++;
		CHECK(strcmp(v[i], "collapsed") != 0);
	}
	CHECK_GE(dips, 1);	/* the card does dip */
	CHECK(has(&r, "\"open_au_linear\": {\n      \"n\": 5,\n      \"at_least\": false"));
	free(r.text);
}

/*
 * Issue 27: --auto's FAT-area step on a card with one random slot and no FAT
 * area whose --find-fat columns alternate: a 24MiB TLC card on a busy host,
 * written in 16MiB columns (the write geometry an -a read as 16MiB gives).
 * Columns 1, 3, 4 and 6 each lie inside one erase block, 2 and 5 straddle
 * two, and the block in the random slot alternates: small writes run fast in
 * those four columns only, the first beating the others in the first run.
 * A later column as fast as the first means the speed comes from the card's
 * open slots: no FAT area, and the evidence says which columns were fast.
 * (--auto's own probes of a few chunks a column, where whole blocks cost
 * too much, are held by the calibration.)
 */
static void fat_step(const char *spec, uint64_t erasesize, uint64_t pagesize, struct fat_estimate *out)
{
	struct dev d;
	struct params p;
	struct auto_opts o = { .destructive = true, .device_name = spec };
	struct autostate *s = calloc(1, sizeof(*s));
	char err[256];

	memset(out, 0, sizeof(*out));
	if (!s || dev_open(&d, spec, DEV_WRITE, err, sizeof(err)) != 0) {
		printf("dev_open(%s): %s\n", spec, s ? err : "no memory");
		free(s);
		CHECK(0);
		return;
	}
	params_defaults(&p);
	s->watch = calloc(1, sizeof(*s->watch));
	s->d = &d, s->p = &p, s->o = &o;
	s->erasesize = erasesize, s->pagesize = pagesize;
	s->page.bytes = pagesize, s->page.conf = CONF_HIGH;
	s->max_write = 1ull << 40;
	/* an erase size -a showed and room for it: the original's rows of whole blocks (issue 26) */
	s->erase.bytes = erasesize;
	s->plan.budget = 1ull << 40;
	auto_run_find_fat(s);
	*out = s->fatest;
	for (int i = 0; i < s->nfat; i++)
		rate_result_free(&s->fat_runs[i]);
	if (s->have_fat)
		rate_result_free(&s->fat);
	free(s->watch);
	free(s);
	dev_close(&d);
}

static void find_fat_columns_fast_from_a_random_slot_are_no_fat_area(void)
{
	struct fat_estimate f;
	fat_step("sim:size=32G,erasesize=24M,pagesize=16K,open-au=1,random-au=1,fat-aus=0,seed=5,"
		 "noise=10,jitter=300,burst=5,stretch=2", 16 * MiB, 16384, &f);
	CHECK_EQ(f.aus, 0);
	CHECK(strstr(f.evidence, "columns 1, 3, 4 and 6 fast") != NULL);
	if (f.aus || !strstr(f.evidence, "columns 1, 3, 4 and 6 fast"))
		printf("got: %d (%s) %s\n", f.aus, results_confidence_name(f.conf), f.evidence);
	/* the same card with a FAT area of two blocks, at its own geometry: found */
	fat_step("sim:size=32G,erasesize=24M,pagesize=16K,open-au=1,random-au=1,fat-aus=2,seed=5",
		 24 * MiB, 16384, &f);
	CHECK_EQ(f.aus, 2);
}

/*
 * A fake that stores too little for a Linux partition after its FAT area:
 * the FAT partition is dropped and the one partition starts on the first
 * erase block, in the JSON's partition_start_sectors as in the script.
 */
static void a_fake_without_room_after_its_fat_area_starts_its_one_partition_on_an_erase_block(void)
{
	struct dev d;
	char err[256] = "";
	static struct autostate s;
	struct advice a;

	if (dev_open(&d, "sim:size=1G", 0, err, sizeof(err)) != 0) {
		printf("dev_open: %s\n", err);
		CHECK(false);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.d = &d;
	s.erase = (struct size_estimate){ .bytes = 4 * MiB, .conf = CONF_HIGH };
	s.have_fat = true;
	s.fatest = (struct fat_estimate){ .aus = 2, .bytes = 8 * MiB, .conf = CONF_HIGH };
	s.have_cap = true;
	s.cap = (struct capacity_result){ .verdict = CAP_COUNTERFEIT, .advertised = 1024 * MiB,
					  .addressable = 1024 * MiB, .real_lo = 10 * MiB,
					  .real_hi = 10 * MiB };
	advice_make(&s, &a);
	CHECK(a.fake && !a.unusable);
	CHECK_EQ(a.fat_end, 0);
	CHECK_EQ(a.end, 8 * MiB);
	CHECK_EQ(a.linux_start, 4 * MiB);
	CHECK_EQ(a.start, 4 * MiB);
	CHECK_EQ(a.linux_bytes, 4 * MiB);
	dev_close(&d);
}

/*
 * Writes of 64KiB in order after a pause, as --auto's look for a RAM
 * buffer timed them (microseconds), on two cards of 2MiB erase blocks and
 * no buffer (the calibration's sdc10 seed=273 and multiplane-32g seed=240:
 * each block the look moves on to runs slow for its first writes, paying
 * for the block it opened, then fast to its end), and on an eMMC 5.1 with
 * a 2MiB buffer draining while it fills (emmc51 seed=49).
 */
static const int64_t no_buffer_sdc10[] = {
	22686, 22371, 22411, 22444, 22395, 5620, 5612, 5615, 5614, 5624, 5611, 5630, 5625, 5621, 5615,
	5612, 5671, 5616, 5638, 5614, 5617, 5620, 5625, 5617, 5616, 5624, 5656, 5611, 5629, 5620, 5615,
	5948, 22423, 22378, 22377, 22428, 22374, 22409, 22398, 22353, 5634, 5613, 5624, 5656, 5622, 5611,
	5692, 5643, 5622, 5619, 5611, 5614, 5685, 5654, 5614, 5644, 5612, 5621, 5652, 5612, 5620, 5623,
	5945, 22404, 22379, 22376, 22422, 22374, 22373, 22387, 22343, 5612, 5626, 5614, 5682 };
static const int64_t no_buffer_multiplane[] = {
	6912, 6034, 5908, 5668, 6040, 5607, 5621, 6878, 5735, 5534, 5851, 5719, 6343, 5771, 5502, 5844,
	6132, 6018, 5612, 5553, 5899, 5896, 5679, 5830, 5632, 5591, 9808, 5630, 5601, 6249, 5567, 5956,
	44385, 43378, 43292, 43116, 43981, 44973, 44232, 43878, 5946, 6082, 5800, 5672, 5877, 5909, 5910,
	5588, 5631, 5590, 5773, 6031, 5610, 5557, 5781, 6219, 5972, 5736, 5653, 5741, 5730, 5699, 5923,
	43644, 42885, 44677, 44003, 43111, 43753, 43981, 42725, 5895, 5635, 5818, 5589 };
static const int64_t buffer_emmc51[] = {
	633, 547, 759, 603, 510, 520, 531, 625, 592, 1225, 699, 592, 488, 508, 524, 454, 492, 579, 449,
	470, 452, 664, 549, 477, 722, 500, 553, 577, 463, 527, 617, 455, 605, 564, 825, 556, 540, 411, 673,
	600, 424, 404, 468, 414, 612, 487, 537, 648, 529, 468, 427, 481, 544, 2054, 2362, 2201, 2232, 1782,
	2073, 2030, 1034, 2194, 2613, 1888, 2787, 2209, 2170, 2154, 2122, 1938, 2351, 2002, 1839, 2157,
	1961, 1063, 2193 };

static uint64_t buffer_of(const int64_t *us, int n)
{
	int64_t ns[128];
	double fast = 0, slow = 0;
	CHECK(n <= (int)(sizeof(ns) / sizeof(ns[0])));	/* a longer recording: make ns larger */
	if (n > (int)(sizeof(ns) / sizeof(ns[0])))
		return UINT64_MAX;
	for (int i = 0; i < n; i++)
		ns[i] = us[i] * 1000;
	return auto_buffer_from_writes(ns, n, 64 << 10, &fast, &slow);
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void fast_writes_that_end_with_each_erase_block_are_no_ram_buffer(void)
{
	CHECK_EQ(buffer_of(no_buffer_sdc10, COUNT(no_buffer_sdc10)), 0);
	CHECK_EQ(buffer_of(no_buffer_multiplane, COUNT(no_buffer_multiplane)), 0);
	/* a buffer's writes do not come back fast without a pause: it stays seen */
	CHECK_EQ(buffer_of(buffer_emmc51, COUNT(buffer_emmc51)), 61 * 64 * 1024);
	const char *cards[] = {
		"sim:sdc10,size=2147483648,erasesize=2097152,pagesize=16384,open-au=8,random-au=0,fat-aus=0,"
		"seed=273,noise=2,state=used,gc-defer=1,multiplane=0,group=0,spikes=2,stretch=2,drift=2,"
		"jitter=300,burst=0,map-unit=0,claims=none",
		"sim:multiplane-32g,size=34359738368,erasesize=2097152,pagesize=16384,open-au=6,random-au=6,"
		"fat-aus=2,seed=240,noise=0,state=after-run,gc-defer=2,multiplane=0,group=0,spikes=2,stretch=0,"
		"drift=0,jitter=20,burst=1,map-unit=524288,claims=none",
	};
	for (int i = 0; i < 2; i++) {
		struct outcome r = run_auto(cards[i], true, true, 0);
		CHECK_EQ(r.rc, 0);
		CHECK(has(&r, "\"ram_buffer_bytes\": 0,"));
		free(r.text);
	}
}

/*
 * A 4MiB buffer that a second look after a pause fills only at its end
 * (today's calibration sdxc-128g seed=41, 64MiB blocks): the first look
 * found it at ~4MiB, the second, capped at the 8MiB most, fell at its last
 * eight writes and was no confirmation, so the counts were timed through
 * the buffer (linear 1 and random 1, low, where it has 5 and 4). Its drain
 * right after the first look tells it (below), and the counts are right.
 */
static void a_buffer_the_second_look_fills_at_its_end_is_seen(void)
{
	const char *spec = "sim:sdxc-128g,size=123506524160,erasesize=67108864,pagesize=16384,open-au=5,"
			   "random-au=4,fat-aus=0,seed=41,slc-cache=0,native=33,buffer=4194304,idle-gc=0,"
			   "geometry=visible,noise=0,state=used,gc-defer=2,multiplane=0,group=4294967296,"
			   "spikes=0,stretch=0,drift=5,jitter=100,burst=1,map-unit=0,claims=none,queue=0";
	struct outcome r = run_auto(spec, true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "Writes after a pause are buffered: the first ~4.06MiB"));
	CHECK(has(&r, "open erase blocks      5 ("));
	CHECK(has(&r, "open, random writes    4 ("));
	free(r.text);
}

/* The JSON's write_path pauses and pause_ns: did --auto idle other than in whole pauses? */
static bool idled_short_of_a_pause(const struct outcome *r)
{
	const char *p = r->text ? strstr(r->text, "\"pauses\": ") : NULL;
	const char *q = r->text ? strstr(r->text, "\"pause_ns\": ") : NULL;
	CHECK(p && q);
	if (!p || !q)
		return false;
	long long pauses = strtoll(p + strlen("\"pauses\": "), NULL, 10);
	long long ns = strtoll(q + strlen("\"pause_ns\": "), NULL, 10);
	return ns != pauses * AUTO_PAUSE_NS;
}

/*
 * A buffer told by its drain (today's calibration sdxc-128g seed=40: a
 * 1MiB buffer on 32MiB blocks): the first look found ~1MiB, and the second
 * look after a pause no buffer (the card's own work behind the buffer had
 * changed with the first look's), so the counts were timed through it:
 * linear 2, random 2, no FAT area, all low, where it has 3, 3 and one FAT
 * block. Right after the first look, a short idle lets in as many fast
 * writes as it drained, then they run slow again: a buffer, and the three
 * answers are right at high confidence. On a card of 256KiB blocks (sa04g
 * seed=120, no buffer, one the first look read) no such idle is taken.
 */
static void a_buffer_told_by_its_drain_after_the_look_is_seen(void)
{
	const char *spec = "sim:sdxc-128g,size=123635499008,erasesize=33554432,pagesize=8192,open-au=3,"
			   "random-au=3,fat-aus=1,seed=40,slc-cache=0,native=33,buffer=1048576,idle-gc=0,"
			   "geometry=visible,noise=5,state=used,gc-defer=1,multiplane=0,group=0,spikes=1,"
			   "stretch=1,drift=5,jitter=300,burst=5,map-unit=0,claims=none,queue=0";
	struct outcome r = run_auto(spec, true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "Writes after a pause are buffered: the first ~1MiB"));
	CHECK(has(&r, "open erase blocks      3 (high"));
	CHECK(has(&r, "open, random writes    3 (high"));
	CHECK(has(&r, "FAT-optimised area     1 erase block"));
	free(r.text);
	r = run_auto(spec, true, true, 0);
	CHECK(idled_short_of_a_pause(&r));
	free(r.text);
	r = run_auto("sim:sa04g,size=2147483648,erasesize=262144,pagesize=32768,open-au=2,random-au=2,"
		     "fat-aus=2,seed=120,noise=2,state=clean,gc-defer=0,multiplane=0,group=0,spikes=0,"
		     "stretch=0,drift=0,jitter=50,burst=5,map-unit=0,claims=none", true, true, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(!idled_short_of_a_pause(&r));
	free(r.text);
	/*
	 * The drain's size: an idle of 16 times the 13ms a write's work exceeds
	 * its intake (1ms into the buffer, 14ms behind it) lets in 16 writes;
	 * 9 or 30 fit (the card's work varies), 40 do not: fast writes running
	 * on far past what the idle drained were slowed by a busy host in the
	 * look, not a buffer's; 7 do not either.
	 */
	const double idle = 16 * 13e6, fast = 1e6, slow = 14e6;
	CHECK(auto_drain_agrees(16, idle, fast, slow));
	CHECK(auto_drain_agrees(9, idle, fast, slow));
	CHECK(auto_drain_agrees(30, idle, fast, slow));
	CHECK(!auto_drain_agrees(40, idle, fast, slow));
	CHECK(!auto_drain_agrees(7, idle, fast, slow));
	CHECK(!auto_drain_agrees(0, idle, fast, slow));
}

/*
 * Two of today's cards (calibration --today, tlc-32g seed=19 and seed=66)
 * whose FAT check stayed inside a write cache the budget could pass
 * ("unknown" on main): on the one the look for the cache's end kept room to
 * measure everything again and so did not look; on the other the cache had
 * folded back only partly in the pauses before the look, which ran at the
 * native rate from its first writes, below the reference measured in the
 * cache, and never saw a fall. Past the cache the check decides: two FAT
 * blocks on the one, none on the other.
 */
static void the_fat_check_runs_past_a_write_cache_the_budget_can_pass(void)
{
	const char *cards[2] = {
		"sim:tlc-32g,size=61644734464,erasesize=12582912,pagesize=8192,open-au=2,random-au=2,"
		"fat-aus=2,seed=19,slc-cache=1157627904,native=42,buffer=0,idle-gc=2000,geometry=visible,"
		"noise=10,state=new,gc-defer=2,multiplane=0,group=0,spikes=1,stretch=2,drift=0,jitter=100,"
		"burst=0,map-unit=1572864,claims=none,queue=0",
		"sim:tlc-32g,size=15325986816,erasesize=8388608,pagesize=16384,open-au=4,random-au=0,"
		"fat-aus=0,seed=66,slc-cache=83886080,native=37,buffer=0,idle-gc=2000,geometry=visible,"
		"noise=5,state=discarded,discard=keep,gc-defer=0,multiplane=0,group=0,spikes=0,stretch=2,"
		"drift=0,jitter=0,burst=0,map-unit=0,claims=none,queue=0",
	};
	const char *fat[2] = { "FAT-optimised area     2 erase blocks", "FAT-optimised area     none (" };
	for (int i = 0; i < 2; i++) {
		struct outcome r = run_auto(cards[i], true, false, 0);
		CHECK_EQ(r.rc, 0);
		CHECK(has(&r, "the open erase blocks were counted past it"));
		CHECK(has(&r, fat[i]));
		free(r.text);
	}
}

/*
 * Issue 26: on small erase blocks every row of a run is whole blocks, so
 * a run decides on one row, the smaller (a second doubled its bytes), and
 * that row alone far below the reference, beyond the noise, is a collapse.
 */
static struct autostate small_blocks;
static struct rate_row small_rows[4][2];

static void small_block_run(struct au_run *run, int i, long long nr, double r32, double r16)
{
	small_rows[i][0] = (struct rate_row){ .blocksize = 32 << 10, .ncols = 1, .rate = { r32 } };
	small_rows[i][1] = (struct rate_row){ .blocksize = 16 << 10, .ncols = 1, .rate = { r16 } };
	*run = (struct au_run){ .nr = nr, .reference = nr == 1, .settle = -1 };
	run->r = (struct rate_result){ .erasesize = 128 << 10, .nr = nr, .rows = small_rows[i],
				       .nrows = nr == 1 ? 2 : 1 };
	if (nr > 1)	/* the one decision row */
		run->r.rows = &small_rows[i][1];
}

/* small_blocks on spec (a sim: card of 128 KiB erase blocks) opened for writing, probe rows set; NULL: failed */
static struct autostate *small_card(struct dev *d, const char *spec, uint64_t pagesize)
{
	char err[256] = "";
	struct autostate *s = &small_blocks;

	if (dev_open(d, spec, DEV_WRITE, err, sizeof(err)) != 0) {
		printf("dev_open: %s\n", err);
		CHECK(false);
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->d = d;
	s->erasesize = 128 << 10;
	s->pagesize = pagesize;
	auto_probe_rows_init(s);
	return s;
}

static void small_erase_block_runs_decide_on_one_whole_block_row(void)
{
	struct dev d;
	struct autostate *s = small_card(&d, "sim:size=1G,erasesize=128K,pagesize=16K", 16 << 10);
	struct rows_plan p;

	if (!s)
		return;
	CHECK_EQ(s->probe.d[1], 16 << 10);
	auto_plan_rows(s, false, false, &p);
	CHECK_EQ(p.nd, 1);
	CHECK_EQ(p.d[0], 16 << 10);
	/* a run at N=5: one whole block of 16 KiB writes into each of its 5 blocks, and an opening write */
	CHECK_EQ(auto_probe_bytes(s, 5, false, false), 5 * (128ull << 10) +
		 (uint64_t)5 * (16 << 10));
	/* two reference replicas 1% apart, then a run at N=6 at 30% of them at the one row */
	small_block_run(&s->runs[0], 0, 1, 20e6, 12e6);
	small_block_run(&s->runs[1], 1, 1, 19.8e6, 11.9e6);
	small_block_run(&s->runs[2], 2, 6, 0, 3.6e6);
	small_block_run(&s->runs[3], 3, 5, 0, 11.8e6);
	s->nruns = 4;
	auto_judge_run(s, &s->runs[2]);
	CHECK_EQ(s->runs[2].verdict, RUN_COLLAPSED);
	auto_judge_run(s, &s->runs[3]);
	CHECK_EQ(s->runs[3].verdict, RUN_HOLDS);
	/* replicas of the reference far apart: the same drop is within their noise, no collapse */
	small_block_run(&s->runs[0], 0, 1, 20e6, 12e6);
	small_block_run(&s->runs[1], 1, 1, 19.8e6, 6e6);
	small_block_run(&s->runs[2], 2, 6, 0, 5.4e6);
	s->nruns = 3;
	auto_judge_run(s, &s->runs[2]);
	CHECK(s->runs[2].verdict != RUN_COLLAPSED);
	s->nruns = 4;
	/* behind a RAM buffer a row is timed through the writes before it: two rows, the signature */
	s->buffer_bytes = 2 * MiB;
	auto_plan_rows(s, false, false, &p);
	CHECK_EQ(p.nd, 2);
	s->buffer_bytes = 0;
	/* on 4 MiB blocks the runs still decide on two rows */
	s->erasesize = 4 * MiB;
	s->nruns = 0;
	auto_probe_rows_init(s);
	auto_plan_rows(s, false, false, &p);
	CHECK_EQ(p.nd, 2);
	dev_close(&d);
}

/*
 * A FAT check a write cache took (the linear counts "not determinable
 * (write-cache)"): the FAT area is not determinable for the same reason,
 * with the same line and bytes; an area that shows through the cache stays,
 * and without a cache that took the runs nothing changes.
 */
static struct autostate fat_cache;

static void a_fat_check_a_write_cache_took_is_not_determinable_with_the_counts_line(void)
{
	struct autostate *s = &fat_cache;
	memset(s, 0, sizeof(*s));
	s->have_fat = true;
	s->fatest = (struct fat_estimate){ .aus = 0, .conf = CONF_HIGH };
	s->nd_lin = (struct not_determinable){ .reason = "write-cache", .command = "flashbench --auto x",
					       .cost_bytes = 12345 };
	auto_judge_fat_behind_a_cache(s);
	CHECK(s->nd_fat.reason && !strcmp(s->nd_fat.reason, "write-cache"));
	CHECK_EQ(s->fatest.conf, CONF_NONE);
	CHECK(!strcmp(s->nd_fat.command, "flashbench --auto x"));
	CHECK_EQ(s->nd_fat.cost_bytes, 12345);
	/* an area seen through the cache is the place's */
	memset(&s->nd_fat, 0, sizeof(s->nd_fat));
	s->fatest = (struct fat_estimate){ .aus = 1, .conf = CONF_MEDIUM };
	auto_judge_fat_behind_a_cache(s);
	CHECK(!s->nd_fat.reason);
	CHECK_EQ(s->fatest.conf, CONF_MEDIUM);
	/* counts not determinable for another reason: the FAT check stands */
	s->fatest = (struct fat_estimate){ .aus = 0, .conf = CONF_LOW };
	s->nd_lin.reason = "ram-buffer";
	auto_judge_fat_behind_a_cache(s);
	CHECK(!s->nd_fat.reason);
	CHECK_EQ(s->fatest.conf, CONF_LOW);
}

/*
 * Runs measured again after the rate fell that held to N=32 once more went
 * to the cache too (today's tlc-32g seed=43): the cache takes every run;
 * a limit found past the fall, or no fall and an end seen, is counted.
 */
static void runs_that_hold_to_32_past_a_fall_of_the_rate_went_to_the_cache(void)
{
	struct autostate *s = &fat_cache;
	memset(s, 0, sizeof(*s));
	s->lin = (struct count_estimate){ .n = OPEN_AU_MAX_NR, .at_least = true, .conf = CONF_LOW };
	s->cache_checked = true;
	s->cache_bytes = 316ull << 20;
	s->regime = 1;
	CHECK(auto_cache_takes_every_run(s));
	s->lin.n = 8;	/* the budget ended the search short of 32: not this rule's */
	CHECK(!auto_cache_takes_every_run(s));
	s->lin = (struct count_estimate){ .n = 2, .conf = CONF_HIGH };	/* a limit past the fall */
	CHECK(!auto_cache_takes_every_run(s));
	s->lin = (struct count_estimate){ .n = OPEN_AU_MAX_NR, .at_least = true, .conf = CONF_LOW };
	s->regime = 0;
	CHECK(!auto_cache_takes_every_run(s));
	s->cache_bytes = 0;	/* the look saw no end */
	CHECK(auto_cache_takes_every_run(s));
}

/*
 * Issue 26: on erase blocks of SMALL_ERASE and less the random reference
 * writes each row over the whole block, and a card with no random slot pays
 * a fixed cost per out-of-order write, which a chunk of E/4 spreads: a
 * 128 KiB eMMC with none ran its 32 KiB row at 0.79-0.82 of linear writes
 * and the smaller ones halving, read as a 32 KiB mapping unit or not by a
 * few percent of noise. A unit's own writes run at linear speed (SU04G's
 * 512 KiB at 0.94): only a row at CLEAR_HOLD is one.
 */
static struct rate_row unit_rows[3][4];

static void unit_run(struct au_run *run, int i, bool random, const double *rate, int n, uint64_t top)
{
	for (int k = 0; k < n; k++)
		unit_rows[i][k] = (struct rate_row){ .blocksize = top >> k, .ncols = 1, .rate = { rate[k] } };
	*run = (struct au_run){ .nr = 1, .random = random, .reference = true, .settle = -1,
				.verdict = RUN_HOLDS };
	run->r = (struct rate_result){ .erasesize = 128 << 10, .nr = 1, .random = random,
				       .rows = unit_rows[i], .nrows = n };
}

static void a_small_blocks_random_row_near_linear_speed_is_no_mapping_unit(void)
{
	struct dev d;
	struct autostate *s = small_card(&d, "sim:size=2G,erasesize=128K,pagesize=4K", 4 << 10);
	const double lin1[] = { 15.4e6, 11.5e6, 8.06e6 }, lin2[] = { 15.3e6, 11.3e6, 7.98e6 };
	const double thrifty[] = { 12.7e6, 5.59e6, 2.72e6, 1.3e6 }, unit[] = { 14.9e6, 5.59e6, 2.72e6, 1.3e6 };

	if (!s)
		return;
	unit_run(&s->runs[0], 0, false, lin1, 3, 16 << 10);
	unit_run(&s->runs[1], 1, false, lin2, 3, 16 << 10);
	/* random 32 KiB at 0.82 of the linear rows' best, the smaller ones halving: no unit */
	unit_run(&s->runs[2], 2, true, thrifty, 4, 32 << 10);
	s->nruns = 3;
	CHECK_EQ(auto_random_mapping_unit(s), 0);
	/* at 0.97 of them, with the same cliff below it: a 32 KiB mapping unit */
	unit_run(&s->runs[2], 2, true, unit, 4, 32 << 10);
	CHECK_EQ(auto_random_mapping_unit(s), 32 << 10);
	dev_close(&d);
}

/*
 * Issue 27 (h50): behind a RAM buffer a random run's opening row is timed
 * with its first decision row; opened with writes under the mapping unit
 * (each copies the unit), that work went into the decision row: the USB 3
 * stick preset (2 random slots, a 4 MiB unit, a 2 MiB buffer) ran N=2 at
 * 0.45 of N=1 and read 1 random block. Opened with the random run's own
 * decision rows, N=2 holds and N=3 does not.
 */
static void a_random_run_behind_a_buffer_opens_with_writes_of_its_mapping_unit(void)
{
	struct outcome r = run_auto("sim:usb3-64g", true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "a 4MiB mapping unit"));
	CHECK(has(&r, "open, random writes    2 ("));
	free(r.text);
}

/*
 * Issue 27 (h50): a USB 3 stick of today's calibration (no FAT area, no
 * random slot, a 2 MiB buffer) ran its FAT columns at a block copy a write,
 * level after the first two, those 1.15x faster: the buffer's pace, read as
 * "2 FAT blocks, low". A page-mapped area there would run many times faster
 * (auto_fat_lead_is_a_buffers_pace). Where the later columns did not
 * collapse, or are not level, the lead stands.
 */
static struct autostate fat_pace;
static struct rate_row fat_ref_rows[2], fat_rows[2];

/*
 * fat_pace as a card of 32 MiB blocks: a reference (N=1) of two rows from
 * row0 down at ref[0], ref[1], and a FAT run of those rows, six columns at
 * rates[row][column].
 */
static struct autostate *fat_pace_card(uint32_t row0, const double ref[2], const double rates[2][6])
{
	struct autostate *s = &fat_pace;
	memset(s, 0, sizeof(*s));
	s->erasesize = 32 << 20;
	for (int i = 0; i < 2; i++)
		fat_ref_rows[i] = (struct rate_row){ .blocksize = row0 >> i, .ncols = 1,
						     .rate = { ref[i] } };
	s->runs[0] = (struct au_run){ .nr = 1, .reference = true, .settle = -1, .verdict = RUN_HOLDS };
	s->runs[0].r = (struct rate_result){ .erasesize = s->erasesize, .nr = 1, .rows = fat_ref_rows,
					     .nrows = 2 };
	s->nruns = 1;
	for (int i = 0; i < 2; i++) {
		fat_rows[i] = (struct rate_row){ .blocksize = row0 >> i, .ncols = 6 };
		for (int c = 0; c < 6; c++)
			fat_rows[i].rate[c] = rates[i][c];
	}
	s->fat = (struct rate_result){ .erasesize = s->erasesize, .rows = fat_rows, .nrows = 2 };
	return s;
}

static void a_thin_lead_over_collapsed_level_fat_columns_is_no_fat_area(void)
{
	const double lead[2] = { 29.6e3, 16.5e3 }, later[2] = { 25.8e3, 14.1e3 }, ref[2] = { 30e6, 30e6 };
	double rates[2][6];
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			rates[i][c] = c < 2 ? lead[i] : later[i] * (1 - 0.02 * c);
	struct autostate *s = fat_pace_card(16 << 10, ref, rates);
	s->fatest.aus = 2;
	CHECK(auto_fat_lead_is_a_buffers_pace(s));
	/* the later columns at half of linear writes: not collapsed, the lead stands */
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			fat_rows[i].rate[c] *= 600;
	CHECK(!auto_fat_lead_is_a_buffers_pace(s));
	/* collapsed but falling off by a third: a buffer's pace moving, not one data area */
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			fat_rows[i].rate[c] = c < 2 ? lead[i] : later[i] * (1 - 0.08 * c);
	CHECK(!auto_fat_lead_is_a_buffers_pace(s));
	/* a lead of 1.5x over collapsed level columns: a FAT area's, not a buffer's */
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			fat_rows[i].rate[c] = c < 2 ? 1.6 * later[i] : later[i];
	CHECK(!auto_fat_lead_is_a_buffers_pace(s));
}

/*
 * Issue 27 (h60): the one-block FAT area of a USB 3 stick of today's
 * calibration (no random slot, a 512 KiB buffer, reroll 2) ran its columns
 * at 287K/s, 81K/s, then 50..47K/s, a block copy a write: the second column
 * took part of its writes into the buffer's room the first left, and was
 * read as a second FAT block, high. Under FAT_BUFFER_PACE times collapsed
 * later columns in every row it is a buffer's pace, not the area; a second
 * block many times faster, or later columns that held, leave the area whole.
 */
static void a_fat_column_under_twice_collapsed_later_ones_after_a_fast_one_is_a_buffers_pace(void)
{
	const double rows[2][6] = { { 287e3, 81e3, 50e3, 47e3, 47e3, 47e3 },
				    { 71e3, 48e3, 29e3, 25e3, 24e3, 23e3 } }, ref[2] = { 30e6, 30e6 };
	struct autostate *s = fat_pace_card(32 << 10, ref, rows);
	s->fatest.aus = 2;
	CHECK_EQ(auto_fat_area_before_a_buffers_pace(s), 1);
	/* the second column 3x the later ones in one row: a second FAT block */
	fat_rows[1].rate[1] = 3 * 29e3;
	CHECK_EQ(auto_fat_area_before_a_buffers_pace(s), 2);
	fat_rows[1].rate[1] = 48e3;
	/* the later columns at 0.9 of linear writes: they held, the lead stands */
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			fat_rows[i].rate[c] *= 500;
	CHECK_EQ(auto_fat_area_before_a_buffers_pace(s), 2);
}

/*
 * Issue 27 (h60): the 64 GB SDXC of today's calibration with 2 FAT blocks,
 * 7 open, 4 random and a 4 MiB buffer ran its six FAT columns level at 0.85
 * of linear writes, none collapsed, and read "no FAT area" at medium in 4 of
 * 5 draws. Past 4 random blocks six written at random must collapse unless
 * the first ones need no slot (or the rows are not timed as written):
 * "none" is low there. Six random blocks, a column that collapsed, or a
 * count that is only a floor leave it as it was.
 */
static void no_fat_area_over_held_columns_past_the_random_count_or_inside_the_buffer_is_low(void)
{
	const double ref[2] = { 24.7e6, 14e6 };
	double rates[2][6];
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			rates[i][c] = (i ? 11e6 : 21e6) * (1 - 0.02 * c);
	struct autostate *s = fat_pace_card(16 << 10, ref, rates);
	s->have_fat = s->have_rnd = true;
	s->fatest = (struct fat_estimate){ .aus = 0, .conf = CONF_MEDIUM };
	s->rnd = (struct count_estimate){ .n = 4, .conf = CONF_LOW };
	CHECK(auto_fat_none_past_the_random_slots(s));
	s->rnd.n = 6;
	CHECK(!auto_fat_none_past_the_random_slots(s));
	s->rnd.n = 4;
	s->rnd.at_least = true;
	CHECK(!auto_fat_none_past_the_random_slots(s));
	s->rnd.at_least = false;
	fat_rows[1].rate[5] = 0.3 * 14e6;	/* the sixth block paid a copy */
	CHECK(!auto_fat_none_past_the_random_slots(s));
	fat_rows[1].rate[5] = 11e6;
	/* every row (3 and 1.5 MiB) inside a 4 MiB buffer found: no column timed on its own */
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 6; c++)
			fat_rows[i].bytes[c] = (512u << 10) >> i;
	s->buffer_bytes = 4390912;
	CHECK(auto_fat_rows_inside_the_buffer(s));
	s->buffer_bytes = 2 << 20;	/* smaller than the first row: its columns are their own */
	CHECK(!auto_fat_rows_inside_the_buffer(s));
	s->buffer_bytes = 0;
	CHECK(!auto_fat_rows_inside_the_buffer(s));
	auto_judge_fat_none_past_the_random_slots(s);
	CHECK_EQ(s->fatest.conf, CONF_LOW);
	CHECK(strstr(s->fatest.evidence, "more than the card's 4 for random writes") != NULL);
	s->fatest = (struct fat_estimate){ .aus = 0, .conf = CONF_HIGH };
	s->rnd.n = 6;
	s->buffer_bytes = 4390912;
	auto_judge_fat_none_past_the_random_slots(s);
	CHECK_EQ(s->fatest.conf, CONF_LOW);
	CHECK(strstr(s->fatest.evidence, "fits in the card's") != NULL);
}

/* How many runs of the JSON report start with `head` ("{\"nr\": 2, \"random\": true, ..."). */
static int runs_starting(const char *json, const char *head)
{
	int n = 0;
	for (const char *p = json; p && (p = strstr(p, head)); p++)
		n++;
	return n;
}

/*
 * Issue 26, small erase blocks cost little: on a 128 KiB card (the
 * calibration's sa04g seed=259: 3 open, 1 random) random N=2 runs unclear
 * (0.71 ... 0.75 of one block) each time; two such replicas that agree end
 * the search there, where a third and its settle pass took the bytes past
 * the manual sequence's (9.5 MiB, capacity check apart). The count stays 1.
 * (Its third replica read a hold more often than a right count on 128 KiB
 * blocks: doc/card-facts.md.)
 */
static void two_unclear_random_replicas_of_whole_small_blocks_end_the_search(void)
{
	const char *spec = "sim:sa04g,size=8589934592,erasesize=131072,pagesize=16384,open-au=3,random-au=1,"
			   "fat-aus=0,seed=259,noise=10,state=discarded,discard=keep,gc-defer=4,multiplane=0,"
			   "group=0,spikes=1,stretch=0,drift=0,jitter=20,burst=0,map-unit=0,claims=none";
	struct outcome r = run_auto(spec, true, true, 0);
	const char *json = r.text ? r.text : "";
	CHECK_EQ(r.rc, 0);
	CHECK_EQ(runs_starting(json, "{\"nr\": 2, \"random\": true, \"verdict\": \"unclear\""), 2);
	CHECK_EQ(runs_starting(json, "{\"nr\": 2, \"random\": true, \"verdict\": \"holds\""), 0);
	CHECK(has(&r, "\"open_au_random\": {\n      \"n\": 1,\n      \"at_least\": false"));
	free(r.text);
	/*
	 * On 256 KiB blocks the third replica decides: sdc10 seed=200 (7 random
	 * blocks) runs N=5 unclear twice (0.78), then held, and the count is 7.
	 */
	r = run_auto("sim:sdc10,size=8589934592,erasesize=262144,pagesize=16384,open-au=7,random-au=7,"
		     "fat-aus=0,seed=200,noise=2,state=new,gc-defer=1,multiplane=0,group=0,spikes=0,stretch=0,"
		     "drift=0,jitter=0,burst=0,map-unit=32768,claims=none", true, true, 0);
	json = r.text ? r.text : "";
	CHECK_EQ(r.rc, 0);
	CHECK_EQ(runs_starting(json, "{\"nr\": 5, \"random\": true, \"verdict\": \"unclear\""), 2);
	CHECK(has(&r, "\"open_au_random\": {\n      \"n\": 7,\n      \"at_least\": false"));
	free(r.text);
}

/*
 * A buffer's bytes that went in fast are more than it holds: it drained at
 * the card's rate behind them (today's tlc-32g seed=67 of the calibration: a
 * 2MiB buffer, ~3.5MiB at 58MB/s, then 25MB/s). Whether it blurs the runs
 * (three buffers past half a 16MiB block) follows what it holds, ~2MiB:
 * the counts are measured (4 and 1, right), not "not determinable (a RAM
 * buffer blurs the runs)" as from the 3.5MiB; the I/O is the same.
 */
static void a_buffer_blurs_the_runs_by_what_it_holds_not_what_went_in_fast(void)
{
	CHECK_EQ(auto_buffer_holds(8 << 20, 124e6, 62e6), 4u << 20);
	CHECK_EQ(auto_buffer_holds(4 << 20, 50e6, 60e6), 4u << 20);	/* no drain to subtract */
	CHECK_EQ(auto_buffer_holds(4 << 20, 50e6, 0), 4u << 20);
	struct autostate *s = calloc(1, sizeof(*s));
	if (!s)
		return;
	s->erasesize = 16 << 20;
	s->buffer_bytes = (7u << 20) / 2;
	CHECK(auto_buffer_blurs(s));	/* nothing known of what it holds: the bytes that went fast */
	s->buffer_fast_rate = 70e6, s->buffer_slow_rate = 30e6;	/* it holds 4/7 of them: 2MiB */
	CHECK(!auto_buffer_blurs(s));
	s->buffer_slow_rate = 10e6;	/* 6/7: 3MiB */
	CHECK(auto_buffer_blurs(s));
	free(s);
	struct outcome r = run_auto("sim:tlc-32g,size=60350791680,erasesize=16777216,pagesize=8192,open-au=4,"
				    "random-au=1,fat-aus=0,seed=67,slc-cache=905969664,native=49,buffer=2097152,"
				    "idle-gc=3000,geometry=visible,noise=0,state=used,gc-defer=4,multiplane=0,group=0,"
				    "spikes=1,stretch=0,drift=0,jitter=20,burst=0,map-unit=0,claims=none,queue=0",
				    true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "Writes after a pause are buffered: the first ~3.5MiB"));
	CHECK(has(&r, "open erase blocks      4 ("));
	CHECK(has(&r, "open, random writes    1 ("));
	free(r.text);
}

/*
 * Behind a RAM buffer that blurs every row (three buffers over a quarter
 * of a block), a count not sure is "not determinable (ram-buffer)" unless
 * the runs show a limit's own pattern: from the first collapse above N on,
 * every run at N+1 collapsed (two at least), none at N collapsed and one
 * held (today's usb3-64g seed=86: 2, right). A hold at N that collapsed
 * when measured again is a write cache's end (tlc-32g seed=12: "15"
 * where it keeps 6), and an unclear run at N+1 after the first collapse
 * decides nothing.
 */
static struct autostate behind_buffer;

static void buffer_run(struct autostate *s, long long nr, enum collapse v)
{
	s->runs[s->nruns++] = (struct au_run){ .nr = nr, .reference = nr == 1, .verdict = v, .settle = -1,
					       .r = { .erasesize = s->erasesize } };
}

static void a_count_behind_a_blurring_buffer_stands_where_the_runs_show_a_limit(void)
{
	struct autostate *s = &behind_buffer;
	struct count_estimate two = { .n = 2, .conf = CONF_LOW };
	static const struct params params;
	static const struct auto_opts opts;
	struct dev d;
	char err[256] = "";
	if (dev_open(&d, "sim:size=64G,erasesize=32M,pagesize=16K", DEV_WRITE, err, sizeof(err)) != 0) {
		printf("dev_open: %s\n", err);
		CHECK(false);
		return;
	}
	memset(s, 0, sizeof(*s));
	s->d = &d;
	s->p = &params;
	s->o = &opts;
	s->erasesize = 32 * MiB;
	s->buffer_bytes = 6 * MiB;
	CHECK(auto_buffer_blurs(s));
	buffer_run(s, 1, RUN_HOLDS);
	buffer_run(s, 2, RUN_UNCLEAR);	/* the buffer's leftover work slowed one replica */
	buffer_run(s, 2, RUN_HOLDS);
	buffer_run(s, 3, RUN_COLLAPSED);
	buffer_run(s, 3, RUN_COLLAPSED);
	CHECK(auto_count_stands_behind_buffer(s, false, &two));
	s->lin = two;
	s->have_lin = true;
	auto_judge_determinable(s);
	CHECK(!s->nd_lin.reason);
	CHECK_EQ(s->lin.conf, CONF_LOW);
	CHECK_EQ(s->lin.n, 2);
	/* random runs are another series */
	CHECK(!auto_count_stands_behind_buffer(s, true, &two));
	/* one collapse at N+1 is not two */
	s->nruns = 4;
	CHECK(!auto_count_stands_behind_buffer(s, false, &two));
	/* N+1 unclear after the first collapse */
	buffer_run(s, 3, RUN_UNCLEAR);
	CHECK(!auto_count_stands_behind_buffer(s, false, &two));
	/* the hold at N collapsed when measured again: a write cache's end */
	s->nruns = 4;
	buffer_run(s, 3, RUN_COLLAPSED);
	CHECK(auto_count_stands_behind_buffer(s, false, &two));
	buffer_run(s, 2, RUN_COLLAPSED);
	CHECK(!auto_count_stands_behind_buffer(s, false, &two));
	s->lin = two;
	auto_judge_determinable(s);
	CHECK(s->nd_lin.reason && !strcmp(s->nd_lin.reason, "ram-buffer"));
	CHECK_EQ(s->lin.conf, CONF_NONE);
	/* no run at N held */
	s->nruns = 0;
	buffer_run(s, 2, RUN_UNCLEAR);
	buffer_run(s, 3, RUN_COLLAPSED);
	buffer_run(s, 3, RUN_COLLAPSED);
	CHECK(!auto_count_stands_behind_buffer(s, false, &two));
	/* a run at N+1 that held before the first collapse (inside a cache) does not count against it */
	s->nruns = 0;
	buffer_run(s, 2, RUN_HOLDS);
	buffer_run(s, 3, RUN_HOLDS);
	buffer_run(s, 4, RUN_COLLAPSED);
	buffer_run(s, 3, RUN_COLLAPSED);
	buffer_run(s, 3, RUN_COLLAPSED);
	CHECK(auto_count_stands_behind_buffer(s, false, &two));
	/* "at least N" has no collapse to stand on */
	two.at_least = true;
	CHECK(!auto_count_stands_behind_buffer(s, false, &two));
	dev_close(&d);
}

/*
 * The budget ran out before the first out-of-order run (today's tlc-32g
 * seed=38: the linear search and its settle passes took 402 of 444 MiB):
 * the random count is "not determinable (budget)" with the --auto line of
 * twice the bytes written, not "unknown" bare. A budget not reached, or
 * no linear run either (none fits), leaves the count as it was.
 */
static struct autostate no_random_run;

static void a_budget_spent_before_any_random_run_makes_the_random_count_not_determinable(void)
{
	struct autostate *s = &no_random_run;
	static const struct params params;
	static const struct auto_opts opts;
	struct dev d;
	char err[256] = "";
	if (dev_open(&d, "sim:size=16G,erasesize=24M,pagesize=32K", DEV_WRITE, err, sizeof(err)) != 0) {
		printf("dev_open: %s\n", err);
		CHECK(false);
		return;
	}
	for (int m = 0; m < 3; m++) {
		memset(s, 0, sizeof(*s));
		s->d = &d;
		s->p = &params;
		s->o = &opts;
		s->erasesize = 24 * MiB;
		s->pagesize = 32 << 10;
		d.bytes_written = 402 * MiB;
		s->cap_hit = m != 1;
		if (m != 2) {	/* no linear run either: no run fits (note_no_room's case) */
			buffer_run(s, 1, RUN_HOLDS);
			buffer_run(s, 2, RUN_HOLDS);
			buffer_run(s, 3, RUN_COLLAPSED);
			s->lin = (struct count_estimate){ .n = 2, .conf = CONF_HIGH };
		}
		s->have_lin = true;
		auto_estimate_open_aus(s, true, &s->lin, &s->rnd);
		s->have_rnd = true;
		auto_judge_determinable(s);
		if (m) {
			CHECK(!s->nd_rnd.reason);
			continue;
		}
		CHECK(s->nd_rnd.reason && !strcmp(s->nd_rnd.reason, "budget"));
		CHECK_EQ(s->rnd.conf, CONF_NONE);
		CHECK(strstr(s->nd_rnd.why, "before the first out-of-order run") != NULL);
		CHECK(strstr(s->nd_rnd.command, "flashbench --auto --destructive --max-write=804M ") != NULL);
		CHECK_EQ(s->nd_rnd.cost_bytes, 804 * MiB);
		CHECK(!s->nd_lin.reason);
	}
	d.bytes_written = 0;
	dev_close(&d);
}

/*
 * Runs at N that were all unclear, none collapsed, and nothing measured
 * above (today's usb3-64g seed=2: N=2 unclear in 3 of 3 runs at 7..47 % of
 * one block where the card keeps 3, read as "1"): no collapse bounds the
 * count, which is "at least" the hold. One replica that collapsed, or a
 * larger N measured, leaves the bracket's count.
 */
static void runs_all_unclear_above_a_hold_give_at_least_the_hold(void)
{
	for (int m = 0; m < 3; m++) {
		struct dev d;
		struct autostate *s = small_card(&d, "sim:size=1G,erasesize=128K,pagesize=16K", 16 << 10);
		if (!s)
			return;
		small_block_run(&s->runs[0], 0, 1, 20e6, 12e6);
		small_block_run(&s->runs[1], 1, 1, 19.8e6, 11.9e6);
		small_block_run(&s->runs[2], 2, 2, 0, 11.8e6);
		small_block_run(&s->runs[3], 3, 3, 0, 8.3e6);	/* 70 %: unclear */
		s->nruns = 4;
		if (m) {	/* m 1: a replica at N=3 collapsed; m 2: N=4 measured too (unclear) */
			small_block_run(&s->runs[4], 2, m == 1 ? 3 : 4, 0, 11.8e6);
			s->runs[4].r.rows = &small_rows[2][0];	/* N=2 shares its row array */
			small_rows[2][0] = (struct rate_row){ .blocksize = 16 << 10, .ncols = 1,
							      .rate = { m == 1 ? 0.3e6 : 8.3e6 } };
			s->nruns = 5;
		}
		for (int i = 2; i < s->nruns; i++)
			auto_judge_run(s, &s->runs[i]);
		CHECK_EQ(s->runs[3].verdict, RUN_UNCLEAR);
		if (m)
			CHECK_EQ(s->runs[4].verdict, m == 1 ? RUN_COLLAPSED : RUN_UNCLEAR);
		auto_estimate_open_aus(s, false, NULL, &s->lin);
		CHECK_EQ(s->lin.n, 2);
		CHECK_EQ(s->lin.conf, CONF_LOW);
		CHECK_EQ(s->lin.at_least, m == 0);
		dev_close(&d);
	}
}

/*
 * The same rule on today's cards (bench/calibration.py --today, seed 2026):
 * usb3-64g seed=2 keeps 3 and ran N=2 unclear in every run at 7..8 % of a
 * block: "at least 1", not "1". tlc-32g seed=3054 keeps 1 and ran N=2
 * unclear at 2 %, 0 %, a collapse's level: "1" stands. usb3-64g seed=17
 * has no random slot and ran random N=1 unclear: "0" stands (random runs
 * are not read so).
 */
static void unclear_runs_above_a_hold_on_todays_cards(void)
{
	static const char *const seed2 = "sim:usb3-64g,size=30406606848,erasesize=33554432,pagesize=16384,"
		"open-au=3,random-au=0,fat-aus=0,seed=2,slc-cache=0,native=33,buffer=4194304,idle-gc=1000,"
		"geometry=visible,noise=10,state=after-run,gc-defer=0,multiplane=0,group=2147483648,spikes=2,"
		"stretch=2,drift=0,jitter=20,burst=2,map-unit=0,claims=none,queue=0";
	static const char *const seed3054 = "sim:tlc-32g,size=14967373824,erasesize=12582912,pagesize=16384,"
		"open-au=1,random-au=1,fat-aus=1,seed=3054,slc-cache=218103808,native=49,buffer=1048576,"
		"idle-gc=0,geometry=visible,noise=10,state=after-run,gc-defer=0,multiplane=0,group=0,spikes=2,"
		"stretch=1,drift=5,jitter=50,burst=0,map-unit=0,claims=none,queue=0";
	static const char *const seed17 = "sim:usb3-64g,size=60077113344,erasesize=33554432,pagesize=16384,"
		"open-au=2,random-au=0,fat-aus=0,seed=17,slc-cache=0,native=33,buffer=2097152,idle-gc=0,"
		"geometry=visible,noise=0,state=used,gc-defer=0,multiplane=0,group=0,spikes=2,stretch=1,"
		"drift=0,jitter=50,burst=2,map-unit=0,claims=none,queue=0";
	struct outcome r = run_auto(seed2, true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "open erase blocks      at least 1 (low"));
	free(r.text);
	r = run_auto(seed3054, true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "open erase blocks      1 (low"));
	free(r.text);
	r = run_auto(seed17, true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "open, random writes    0 (low"));
	free(r.text);
}

int main(void)
{
	if (!freopen("/dev/null", "w", stderr))	/* auto_run's usage message */
		return 1;
	read_only_run_writes_nothing();
	auto_runs_its_own_alignment_places_whatever_the_callers_params();
	device_too_small_for_alignment_is_a_usage_error_without_io();
	destructive_run_stays_under_max_write();
	destructive_run_finds_a_cheap_cards_single_open_block();
	state_left_by_a_collapsed_run_does_not_make_the_next_collapse_early();
	a_mapping_unit_with_two_random_blocks_is_not_no_random_block();
	one_dip_in_a_large_row_of_a_fast_noisy_card_is_not_a_collapse();
	find_fat_columns_fast_from_a_random_slot_are_no_fat_area();
	a_fake_without_room_after_its_fat_area_starts_its_one_partition_on_an_erase_block();
	fast_writes_that_end_with_each_erase_block_are_no_ram_buffer();
	a_buffer_the_second_look_fills_at_its_end_is_seen();
	a_buffer_told_by_its_drain_after_the_look_is_seen();
	the_fat_check_runs_past_a_write_cache_the_budget_can_pass();
	small_erase_block_runs_decide_on_one_whole_block_row();
	a_fat_check_a_write_cache_took_is_not_determinable_with_the_counts_line();
	runs_that_hold_to_32_past_a_fall_of_the_rate_went_to_the_cache();
	a_small_blocks_random_row_near_linear_speed_is_no_mapping_unit();
	a_random_run_behind_a_buffer_opens_with_writes_of_its_mapping_unit();
	a_thin_lead_over_collapsed_level_fat_columns_is_no_fat_area();
	a_fat_column_under_twice_collapsed_later_ones_after_a_fast_one_is_a_buffers_pace();
	no_fat_area_over_held_columns_past_the_random_count_or_inside_the_buffer_is_low();
	two_unclear_random_replicas_of_whole_small_blocks_end_the_search();
	a_buffer_blurs_the_runs_by_what_it_holds_not_what_went_in_fast();
	a_count_behind_a_blurring_buffer_stands_where_the_runs_show_a_limit();
	a_budget_spent_before_any_random_run_makes_the_random_count_not_determinable();
	runs_all_unclear_above_a_hold_give_at_least_the_hold();
	unclear_runs_above_a_hold_on_todays_cards();
	return unit_summary();
}
