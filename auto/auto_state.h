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
#define ALIGN_BUDGET_NS (20LL * 1000 * 1000 * 1000)
#define ALIGN_BLOCKSIZE 1024u
#define FALLBACK_ERASE (4ull << 20)
#define FALLBACK_PAGE (16ull << 10)
#define MAX_AU_RUNS 40
#define OPEN_AU_MAX_NR 32
/*
 * Rows of an --open-au run: from E down to E/8 in linear mode (a collapse
 * shows by E/4), E/32 in random mode (out-of-order writes into a block that
 * cannot go random cost a collapse only once there are several per block).
 */
#define LINEAR_ROW_SHIFT 3
#define RANDOM_ROW_SHIFT 5
#define MAX_ROWS 64
#define SECTOR 512u

struct au_run {
	struct rate_result r;
	long long nr;
	bool random;
	bool stopped_early;	/* collapse was clear before the last row */
	bool cut_by_cap;	/* stopped because the next row would pass --max-write */
	enum collapse verdict;
	double ref_ratio;	/* smallest row vs the one-block run's same row; 0: not compared */
	bool by_reference;	/* verdict COLLAPSED from that comparison alone */
};

/* What the keep_going callback sees of a run in progress. */
struct row_watch {
	struct dev *d;
	uint64_t max_write;
	uint64_t row_bytes;	/* what one more row writes */
	bool open_au;		/* else find-fat */
	struct rate_result so_far;	/* the run's rows up to now, for the analysis */
	uint64_t pagesize;
	int nrows;
	bool stopped_early, cut_by_cap;
	struct rate_row rows[MAX_ROWS];
};

/* --max-write's default is 1024 erase blocks, never below this */
#define AUTO_MAX_WRITE_FLOOR (1ull << 30)

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
	struct rate_result fat;
	bool have_fat, fat_stopped_early;
	struct fat_estimate fatest;
	int64_t write_ns;
	struct row_watch *watch;

	/* --capacity, first of the write phase */
	struct capacity_result cap;
	bool have_cap;
	struct class_result *cls;	/* --class after the write phase (auto/auto_class.c); NULL: none ran */
	char error[1280];	/* why the run could not start (or its capacity check), for the JSON document */
	uint64_t map_unit;	/* random writes keep up from this size up; 0: none seen */
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
/* Where a size came from, as a JSON enum value. */
const char *auto_source_id(const char *source);

/* the read-only phase (auto/auto_align.c) */
int auto_run_alignment(struct autostate *s);
void auto_run_capacity_first(struct autostate *s);
/* the class check, when a claim is known (auto/auto_class.c) */
void auto_run_class(struct autostate *s);

/* the verdicts from the --open-au runs (auto/auto_verdicts.c) */
double auto_ratio_to_one_au(const struct autostate *s, const struct au_run *run);
double auto_ratio_to_linear(const struct autostate *s, const struct au_run *run);
uint64_t auto_random_mapping_unit(const struct autostate *s);
void auto_limit_conf(struct count_estimate *c, enum confidence cap, const char *why);
void auto_estimate_open_aus(struct autostate *s, bool random, const struct count_estimate *bound,
		       struct count_estimate *out);

/* the advice (auto/advice.c) */
void advice_make(const struct autostate *s, struct advice *a);
void advice_print(FILE *f, const struct autostate *s, const struct advice *a);
void advice_json(struct jw *w, const struct autostate *s);

/* the report (auto/auto_report.c) */
void auto_print_text(FILE *f, const struct autostate *s);
void auto_print_json(FILE *f, const struct autostate *s);
void auto_plot_runs(FILE *f, const struct autostate *s);	/* --plot */
void auto_report_failure(const struct autostate *s);	/* the first failed I/O, on stderr */

#endif
