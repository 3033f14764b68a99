/*
 * --auto's shared state: what the search measured and concluded (auto/auto.c:
 * the write phase and the driver; auto/auto_align.c: the read-only phase;
 * auto/auto_verdicts.c: the open-AU counts from the runs), read by the advice
 * (auto/advice.c) and the text and JSON report (auto/auto_report.c).
 */
#ifndef FB_AUTO_STATE_H
#define FB_AUTO_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/analyze.h"
#include "auto/auto.h"
#include "checks/capacity.h"
#include "checks/class.h"
#include "lib/json.h"
#include "measure/measure.h"

#define ALIGN_MAX_RUNS 5
#define ALIGN_BUDGET_NS (40LL * 1000 * 1000 * 1000)	/* two runs even through a slow USB reader */
#define ALIGN_BLOCKSIZE 1024u
#define FALLBACK_ERASE (4ull << 20)
#define FALLBACK_PAGE (16ull << 10)
#define MAX_AU_RUNS 96
#define OPEN_AU_MAX_NR 32
#define MAX_ROWS 64
#define SECTOR 512u
#define MAX_REPLICAS 4		/* measurements of one N that decides a count */
#define SETTLE_BLOCKS 4		/* erase blocks a settle pass may write */
#define MAX_FAT_RUNS 3		/* --find-fat replicas */
#define RANDOM_RESERVE_BLOCKS 16	/* --max-write the linear search leaves to random N=1 */
#define SETTLE_FIRST_BLOCKS 2	/* ... before the first run, with no reference to tell */

/*
 * The rows an --open-au run of the search writes: a first row that settles
 * the card (it opens every block of the run, evicting whatever an earlier
 * run left open, and closes them again) and the decision rows, the two
 * smallest of E/4, E/8 that are at least a page (and, in random mode, the
 * mapping unit): a collapse must show in both (issue 20, cause 3).
 */
#define LINEAR_ROW_SHIFT 3	/* linear decision rows down to E/8 */
#define RANDOM_ROW_SHIFT 5	/* random ones down to E/32 */
struct rows_plan {
	uint64_t first;		/* the settling row */
	uint64_t d[2];		/* decision rows, d[0] = 2 * d[1] */
	int nd;			/* 1 when only one row fits (erase size near the page) */
};

struct au_run {
	struct rate_result r;
	long long nr;
	bool random;
	bool reference;		/* the linear N=1 runs everything is compared with */
	int regime;		/* the card's write path when measured (a write cache passed since: stale) */
	uint64_t written_before;	/* the device's bytes written when the run began */
	bool last_row_only;	/* a replica of a hold: the smallest decision row only */
	bool stopped_early;	/* collapse was clear before the last row */
	bool cut_by_cap;	/* stopped because the next row would pass --max-write */
	enum collapse verdict;	/* this replica against the reference */
	double ratio[2];	/* at the decision rows: rate / reference rate (0: not measured) */
	int settle;		/* index of the settle pass before it, -1: none needed */
	long long settle_span;	/* blocks its settling row wrote, on its own; 0: its first row */
	uint64_t settle_chunk;	/* the settling row's block size */
	long long closed_beyond;	/* blocks of a larger run before, written to their end first */
};

/* A settle pass: the card brought to a known state before a run (issue 20, cause 2). */
struct settle_pass {
	uint64_t bytes;
	int writes;
	int blocks;
	bool quiet;		/* writes ended at a steady rate: nothing left to pay */
	int64_t first_ns, last_ns, fastest_ns;	/* time of its first, last and fastest write */
	int64_t clean_ns;	/* a write's time on a card that owes nothing; 0: not known yet */
	const char *after;	/* what came before: "the card as it came", "a collapsed run", ... */
};
#define MAX_SETTLES 64

struct autostate;
struct bracket;

/* What the keep_going callback sees of a run in progress. */
struct row_watch {
	const struct autostate *s;
	struct dev *d;
	uint64_t max_write;
	uint64_t row_bytes;	/* what one more row writes */
	bool open_au;		/* else find-fat */
	bool reference;		/* an open-AU reference run: every row is needed */
	uint64_t last_row;	/* the run's smallest block size */
	struct rate_result so_far;	/* the run's rows up to now, for the analysis */
	uint64_t pagesize;
	int nrows;
	bool stopped_early, cut_by_cap;
	struct rate_row rows[MAX_ROWS];
};

/*
 * The write budget (auto/auto_plan.c): by default a small share of the
 * device (AUTO_BUDGET_PERCENT), at least AUTO_BUDGET_FLOOR where that is at
 * most half the device, never more than the device; --max-write replaces it.
 * What the plan writes is far less on most cards; the share leaves room to
 * pass a write cache of a few percent (doc/card-facts.md, Writes).
 */
#define AUTO_BUDGET_PERCENT 3
#define AUTO_BUDGET_FLOOR (256ull << 20)

/* What the bytes written were for (the plan's and the report's split). */
enum auto_purpose {
	SPENT_CAPACITY, SPENT_REFERENCE, SPENT_FAT, SPENT_LINEAR, SPENT_RANDOM, SPENT_SETTLE,
	SPENT_CACHE, SPENT_CLASS, NSPENT
};

/*
 * A verdict the card makes undeterminable (INTERFACES.md): why, and the
 * line that would decide it with what it writes. reason NULL: none.
 */
struct not_determinable {
	const char *reason;	/* "write-cache", "ram-buffer", "noise", "budget", "no-geometry", "device-too-small" */
	char why[256];
	char command[512];
	uint64_t cost_bytes;
};

/*
 * --auto's probes (measure/measure_probe.c): the runs of the open-AU
 * searches write a few chunks into each erase block, so every block of a
 * run has a place of its own (one of PROBE_LANES erase blocks, one erase
 * size apart) and the offset where its next writes go on.
 */
#define PROBE_LANES 6
#define PROBE_TOP_ROW (256u << 10)	/* the reference's largest row, at most */
#define PROBE_ROW_WRITES 8	/* a decision row writes at least this many chunks in all */
#define DECISION_MIN (64u << 10)	/* the smaller decision row, at least (E/16 on smaller blocks) */
#define PROBE_ROUNDS 3		/* ... and at least this many into each block */
#define PROBE_RANDOM_ROUNDS 8	/* positions of an out-of-order row in each block */
#define SETTLE_ROW_WRITES 8	/* writes of a settling row */
#define SETTLE_MAX_WRITES 160	/* ... in all: 16 blocks' worth of postponed collections, a slice each */
#define FAT_ROUNDS 32		/* chunks a FAT-area row writes into each of its blocks */
#define FAT_WARM_ROWS 2		/* ... after rows not timed, two chunks into each */
#define FAT_WHOLE_SHARE 4	/* the original's rows of whole blocks where 3 runs take 1/4 of the budget */
#define NOGEO_MAX_NR 8		/* no -a step and no collapse up to here: the geometry does not show */
#define SETTLE_FLAT 0.85	/* a settling row not faster than this times the one before: steady */
/*
 * The pause before a write test on a card that may owe work: cards tidy up
 * when left alone for a fraction of a second to a few seconds (doc/card-facts.md,
 * "Cards as they are made today"), and a RAM buffer drains.
 */
#define AUTO_PAUSE_NS (2500LL * 1000 * 1000)
#define BUFFER_FLUSH 3	/* behind a RAM buffer, a row is timed after this many buffers of its own writes */
#define BUFFER_SETTLE_ROWS 4	/* ... and settling rows are that long: fewer of them */
struct probe_state {
	uint64_t ref[MAX_ROWS];	/* the linear reference's rows, largest first */
	int nref;
	int ref_rounds;		/* chunks per block in each */
	uint64_t d[2];		/* the decision rows: d[0] = 2 * d[1] */
	bool chosen;		/* from the reference's noise (else a first guess) */
	uint64_t stride;	/* from one block of a run to the next */
	int lane[OPEN_AU_MAX_NR];
	uint64_t wp[OPEN_AU_MAX_NR];	/* where block j's next write goes, inside its erase block */
	bool used[OPEN_AU_MAX_NR];	/* block j was written at its lane */
	bool stale[OPEN_AU_MAX_NR];	/* ... and may have been collected since: move on before writing */
	int settle_lane;	/* the settling stream's erase block, past the 32 places */
	uint64_t settle_wp;
	bool settle_used;
	/*
	 * A random run's blocks are not discarded when they move on: a card
	 * collects a discarded block for an erase, so the collections of a run
	 * past the random slots cost nothing to see (a 1.5MiB card with 15 random
	 * slots ran N=16 at 0.97 of N=1, and said 16 at high confidence).
	 */
	bool keep_data;
};

/* the write plan, stated before the first write of the write phase */
struct write_plan {
	uint64_t budget;	/* bytes --auto may write in all, the capacity check included */
	const char *budget_source;	/* "default" or "max-write" */
	uint64_t planned;	/* what the plan expects to write */
	uint64_t est[NSPENT];	/* ... by purpose */
	int max_nr;		/* the largest N the open-AU searches can afford */
	char line[512];		/* the plan as the user is told it */
	const char *stopped_because;	/* "done", "budget", "not-determinable", "interrupted", "error" */
};

struct autostate {
	struct dev *d;
	const struct params *p;
	const struct auto_opts *o;
	struct identity *id;
	int status;		/* exit status so far */
	bool stop;		/* interrupted or failed: no further measurements */

	/* alignment */
	struct align_result align_runs[ALIGN_MAX_RUNS];
	int nalign;
	struct align_result align;	/* per-row median of the runs */
	struct size_estimate erase, page;
	int64_t align_ns;

	/* write phase */
	uint64_t erasesize, pagesize;
	uint64_t open_offset;	/* first erase block of the --open-au runs */
	const char *erase_source;
	uint64_t max_write;
	bool cap_hit;
	struct au_run runs[MAX_AU_RUNS];
	int nruns;
	struct count_estimate lin, rnd;
	bool have_lin, have_rnd;
	bool no_effects;	/* writes ran alike in every pattern tried: no FTL effect seen */
	char no_room[256];	/* where --open-au would start, when not even one run fits ("": it does) */
	/* the card's state between runs */
	bool dirty;		/* an earlier run may have left blocks open or work owed */
	const char *dirty_why;
	struct settle_pass settles[MAX_SETTLES];
	int nsettles;
	struct run_status settle_st;	/* the settle passes' and settling rows' I/O */
	uint64_t settle_row_bytes;	/* written by settling rows on their own */
	long long prev_nr;	/* N of the run before, at the current erase size and place */
	bool prev_random, prev_held;	/* its mode, and whether it held */
	uint64_t placed_offset, placed_erasesize;	/* what prev_nr refers to */
	struct rate_result fat_runs[MAX_FAT_RUNS];	/* --find-fat replicas */
	int nfat;
	struct rate_result fat;	/* their best rate per cell (host noise only slows one down) */
	bool have_fat;
	struct fat_estimate fatest;
	int64_t write_ns;
	struct row_watch *watch;

	/* --capacity, first of the write phase */
	struct capacity_result cap;
	bool have_cap;
	struct class_result *cls;	/* --class after the write phase (auto/auto_class.c); NULL: none ran */
	char error[1280];	/* why the run could not start (or its capacity check), for the JSON document */
	uint64_t map_unit;	/* random writes keep up from this size up; 0: none seen */

	/* the plan and what was written for what (auto/auto_plan.c) */
	struct write_plan plan;
	uint64_t spent[NSPENT];
	struct probe_state probe;
	uint64_t fat_wp[RATE_MAX_COLS];	/* where the FAT check's next writes go in each of its blocks */
	int64_t discard_ns;	/* discards of blocks before they are written again */
	struct not_determinable nd_lin, nd_rnd;
	struct not_determinable nd_fat;	/* the FAT area's (a write cache that took its check) */
	/* the card's write path (auto/auto_cache.c) */
	int pauses;		/* dev_idle pauses before write tests */
	int64_t pause_ns;	/* their sum */
	bool no_pauses;		/* a write cache seen: a pause would fold it back */
	uint64_t buffer_bytes;	/* a RAM buffer seen: writes after a pause this fast; 0: none */
	double buffer_fast_rate, buffer_slow_rate;	/* the rates before and after it */
	int regime;		/* 0, or 1 once a write cache was passed: runs before it are stale */
	bool cache_checked;	/* writes in order looked for the end of a write cache */
	uint64_t cache_bytes;	/* written after idle before the rate fell; 0: no end seen */
	uint64_t cache_looked;	/* bytes the check wrote (the end not seen: at least this much cached) */
	double cache_fast_rate, cache_slow_rate;
};

struct advice {
	uint64_t au;		/* the erase block size the advice assumes */
	uint64_t unit;		/* what to align to: whole erase blocks and whole MiB */
	bool au_known;
	const char *au_source;	/* "measured", "sysfs preferred_erase_size", "common default" */
	unsigned int sector;	/* the unit of sfdisk's numbers: the logical block */
	uint64_t start;		/* first partition start in bytes */
	/* the FAT partition inside the fast area: [fat_start, fat_end); fat_end 0: none */
	uint64_t fat_start, fat_end;
	const char *fat_type;	/* "FAT12", "FAT16", "FAT32" */
	const char *fat_mkfs;	/* mkfs.vfat options that make that type */
	unsigned int fat_mbr_type;	/* partition type byte: 0x01, 0x0e, 0x0c */
	uint64_t linux_start;	/* the Linux partition */
	uint64_t end;		/* where the last partition ends; 0: at the end of the card */
	uint64_t linux_bytes;	/* the Linux partition's size; 0: unknown */
	bool capacity_checked;	/* --capacity ran to a verdict */
	bool fake;		/* the card stores less than it advertises (or fails beyond) */
	uint64_t stores;	/* what a fake stores, exact or the lower bound */
	bool unusable;		/* a fake with no room for a partition: return it */
	uint64_t stride, stripe_width;	/* ext4, in 4 KiB blocks */
	unsigned int f2fs_segs_per_section;
	int active_logs;	/* 0: f2fs default is fine */
	char disk[80];		/* the card's whole-disk node, "/dev/sdX" where there is none */
	char part[2][88];	/* its first and second partitions: /dev/sdb1, /dev/mmcblk0p1 */
};

static inline enum confidence conf_min(enum confidence a, enum confidence b)
{
	return a < b ? a : b;
}

/* the state's accessors (auto/auto_state.c) */
/* The rate of r's row at blocksize; 0 if none or it failed. */
double auto_rate_at(const struct rate_result *r, uint64_t blocksize);
/* The latest run at the erase size now tested with nr erase blocks, or NULL. */
const struct au_run *auto_find_run(const struct autostate *s, long long nr, bool random);
/* A run's failures or interruption into the session's status. */
void auto_note_status(struct autostate *s, const struct run_status *st);
bool auto_current_run(const struct autostate *s, const struct au_run *r);
/* The keep_going callback's state, cleared, for a run whose rows each write row_bytes. */
struct row_watch *auto_watch_begin(struct autostate *s, uint64_t row_bytes);
/* Where a size came from, as a JSON enum value. */
const char *auto_source_id(const char *source);

/* the read-only phase (auto/auto_align.c) */
int auto_run_alignment(struct autostate *s);
void auto_run_capacity_first(struct autostate *s);
/* the class check, when a claim is known (auto/auto_class.c) */
void auto_run_class(struct autostate *s);
uint64_t auto_class_planned(struct autostate *s);

/* the FAT-area check (auto/auto_fat.c) */
void auto_run_find_fat(struct autostate *s);
/* Its runs as probes (auto/auto_open.c): what a row writes, and one run into r. */
uint64_t auto_fat_row_bytes(const struct autostate *s, const struct params *fp);
/* What one FAT run is planned to write. */
uint64_t auto_fat_planned(const struct autostate *s);
int auto_fat_probe(struct autostate *s, const struct params *fp, struct rate_result *r);

/* the open-AU searches (auto/auto_open.c) */
void auto_search_open_aus(struct autostate *s, bool random, long long limit);
/* The card brought to a known state before the next run, when it may not be in one. */
void auto_settle(struct autostate *s);
/* The searches' blocks from their starts, at the erase size and offset now tested. */
void auto_probe_reset(struct autostate *s);
/*
 * One row of a run: pr's chunks in each of the first nr blocks, going on
 * where their writes ended (move: a block without room moves on to its next
 * erase block, else the row does not run). Its I/O is added to *st; false
 * when it did not run or the session must stop.
 */
bool auto_probe_row(struct autostate *s, long long nr, const struct probe_row *pr, bool move,
		    struct rate_row *out, struct run_status *st);
/* One more run at nr with the decision rows only (a check, also a replica); NULL: none ran. */
const struct au_run *auto_measure_check(struct autostate *s, long long nr, bool random);
/* What a run at nr writes at most, its opening writes included. */
uint64_t auto_probe_bytes(const struct autostate *s, long long nr, bool random, bool reference);

/* the plan and the budget (auto/auto_plan.c) */
uint64_t auto_default_budget(uint64_t size);
/* The budget before the first write: --max-write, or the default from the device's size. */
void auto_plan_budget(struct autostate *s);
/* After the capacity check: a fake's default budget follows what it stores. */
void auto_budget_after_capacity(struct autostate *s);
/* The plan of the write phase, stated on stderr before its first write. */
void auto_make_plan(struct autostate *s);
/* After a run: can more writing still change the search's answer? (false: go on) */
bool auto_search_should_stop(struct autostate *s, bool random, const struct bracket *b);
/* The not-determinable verdicts, where the runs show the card makes them so. */
void auto_judge_determinable(struct autostate *s);
void auto_judge_fat_behind_a_cache(struct autostate *s);
bool auto_cache_takes_every_run(const struct autostate *s);
const char *auto_purpose_name(enum auto_purpose p);

/* the card's write path (auto/auto_cache.c) */
/* The pause before a write test (dev_idle), unless a write cache was seen. */
void auto_pause(struct autostate *s);
/* After a pause, writes in order show a RAM buffer: the first ones at bus speed. */
void auto_measure_buffer(struct autostate *s);
/* A RAM buffer's bytes from the times of n writes of chunk in order after a pause; 0: none. */
uint64_t auto_buffer_from_writes(const int64_t *t, int n, uint64_t chunk, double *fast_rate, double *slow_rate);
bool auto_drain_agrees(int took, double idle_ns, double fast_ns, double slow_ns);
/* What a buffer holds that took `fast` bytes at fast_rate and drained at slow_rate behind them. */
uint64_t auto_buffer_holds(uint64_t fast, double fast_rate, double slow_rate);
/* A RAM buffer larger than a run can fill with its own writes before it is timed. */
bool auto_buffer_blurs(const struct autostate *s);
/* The device as the user named it, for the command lines the report prints. */
const char *auto_device_name(const struct autostate *s);
/*
 * No run collapsed, on a card with an erase-block step: writes in order
 * look for the end of a write cache, within what the budget leaves besides
 * `reserve`. true when its end was passed (the runs are to be measured
 * again, past it, without pauses).
 */
bool auto_pass_cache(struct autostate *s, uint64_t reserve);
/* The rate fell during the searches, the write cache ended after `at` bytes written: past it now. */
void auto_note_cache_ended(struct autostate *s, uint64_t at);
/* A FAT area read from leading columns a thin margin over later ones that collapsed, level (auto_fat.c). */
bool auto_fat_lead_is_a_buffers_pace(const struct autostate *s);
/* The leading FAT columns before one paced by a RAM buffer over collapsed later columns. */
int auto_fat_area_before_a_buffers_pace(const struct autostate *s);
/* "No FAT area" over columns that held, more of them than the card's random blocks. */
bool auto_fat_none_past_the_random_slots(const struct autostate *s);
/* Every row of the FAT check fits in the RAM buffer seen: no column is timed on its own. */
bool auto_fat_rows_inside_the_buffer(const struct autostate *s);
void auto_judge_fat_none_past_the_random_slots(struct autostate *s);

/* the verdicts from the --open-au runs (auto/auto_verdicts.c) */
void auto_plan_rows(const struct autostate *s, bool random, bool reference, struct rows_plan *p);
/* Runs decide on one row, the smaller (small erase blocks: rows of whole blocks). */
bool auto_one_decision_row(const struct autostate *s);
/* The smaller random decision row without a mapping unit: E/32, a page at least. */
uint64_t auto_random_decision_row(const struct autostate *s);
/* The reference's rows and a first guess of the decision rows, for the erase size now tested. */
void auto_probe_rows_init(struct autostate *s);
/* The decision rows from the reference's noise; false: another replica may find better ones. */
bool auto_choose_decision_rows(struct autostate *s);
/* Linear writes to one block: time per write = a + k * bytes, fitted; false: too few rows. */
bool auto_linear_fit(const struct autostate *s, double *a, double *k);
/* This replica against the reference (linear N=1; random: also linear and random N=1). */
void auto_judge_run(const struct autostate *s, struct au_run *run);
/* The verdict at N over every replica: their best rate per row, judged. */
enum collapse auto_combined_verdict(const struct autostate *s, long long nr, bool random,
				    double ratio[2]);
int auto_replicas(const struct autostate *s, long long nr, bool random);
/* The search's bracket: the smallest N that did not hold, the largest below it that did. */
struct bracket {
	long long hold, collapse;	/* collapse 0: none measured */
	bool consistent;		/* no N above the collapse held */
};
struct bracket auto_bracket(const struct autostate *s, bool random);
/* Every replica at N held where the combined verdict collapsed, or back. */
bool auto_opposite_replica(const struct autostate *s, long long nr, bool random);
/* Replicas at N whose own verdict is the combined one. */
int auto_agreeing(const struct autostate *s, long long nr, bool random);
/* A count not sure behind a RAM buffer that blurs every row, shown by the runs anyway. */
bool auto_count_stands_behind_buffer(const struct autostate *s, bool random,
				     const struct count_estimate *c);
/* The best (least disturbed) rate at blocksize over the replicas at N; 0: none. */
double auto_best_rate(const struct autostate *s, long long nr, bool random, uint64_t blocksize);
/* Between the two fastest N=1 replicas of a mode at blocksize, relative; < 0 with fewer. */
double auto_spread(const struct autostate *s, bool random, uint64_t blocksize);
/* Linear writes to one block at blocksize: measured, or from their time per write below. */
double auto_linear_rate(const struct autostate *s, uint64_t blocksize);
/* Relative spread of the reference replicas at blocksize (0.05 if unknown). */
double auto_noise(const struct autostate *s, uint64_t blocksize);
uint64_t auto_random_mapping_unit(const struct autostate *s);
void auto_limit_conf(struct count_estimate *c, enum confidence cap, const char *why);
void auto_estimate_open_aus(struct autostate *s, bool random, const struct count_estimate *bound,
		       struct count_estimate *out);
/* "flashbench --open-au ... DEV": the run at N as the original runs it, to repeat it; false
 * (buf untouched) where the tool would refuse that line, e.g. past the end of the device. */
bool auto_run_command(char *buf, size_t n, const struct autostate *s, long long nr, bool random);
/* What that line writes: its rows, each nr erase blocks whole. */
uint64_t auto_run_command_cost(const struct autostate *s, long long nr, bool random);
/*
 * Whether an --open-au line with these parameters runs as printed on the
 * device as the user sees it: the tool accepts it, and on a fake every block
 * it writes lies inside what the card stores.
 */
bool auto_open_au_line_runs(const struct autostate *s, const struct params *cp);

/* the advice (auto/advice.c) */
void advice_make(const struct autostate *s, struct advice *a);
void advice_print(FILE *f, const struct autostate *s, const struct advice *a);
void advice_json(struct jw *w, const struct autostate *s);

/* the progress line (auto/auto_progress.c): the steps, and the plan of what is left */
enum auto_step { AUTO_STEP_CAPACITY, AUTO_STEP_ALIGN, AUTO_STEP_FAT, AUTO_STEP_OPEN,
		 AUTO_STEP_RANDOM, AUTO_STEP_CLASS, AUTO_STEPS };
void auto_progress_begin(const struct autostate *s);
void auto_progress_step(const struct autostate *s, int step);
/* The plan restated from what the run knows now (also before each measurement, by itself). */
void auto_progress_update(const struct autostate *s);

/* the report (auto/auto_report.c) */
void auto_print_text(FILE *f, const struct autostate *s);
void auto_print_json(FILE *f, const struct autostate *s);
void auto_plot_runs(FILE *f, const struct autostate *s);	/* --plot */
void auto_report_failure(const struct autostate *s);	/* the first failed I/O, on stderr */

#endif
