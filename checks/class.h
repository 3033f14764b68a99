/*
 * --class: does the card keep the promises printed on it? The speed class
 * (C2..C10), UHS grade (U1, U3), video class (V6..V90) and application
 * class (A1, A2) it claims, from its SD Status or --claim, checked against
 * sequential writes of whole erase blocks, 4 KiB random reads and writes
 * (also queued, for A2) and the link's own ceiling, in a test area that is
 * saved first and restored and verified (--preserve's machinery). The
 * figures and our conditions: doc/speed-classes.md.
 */
#ifndef FB_CLASS_H
#define FB_CLASS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "lib/json.h"
#include "lib/sd_claims.h"
#include "results/results.h"

enum class_verdict { CV_MET, CV_SHORT, CV_UNKNOWN };
enum class_metric { CM_SEQ_WRITE, CM_RAND_READ, CM_RAND_WRITE };
/* where a claim came from: bits */
enum { CLAIM_FROM_CARD = 1, CLAIM_FROM_USER = 2 };

/* One promise of a claim and what was measured against it. */
struct class_req {
	enum class_metric metric;
	double promised;	/* bytes per second (sequential) or IOPS (random) */
	double measured;	/* < 0: not measured */
	int depth;		/* queue depth of the measured figure */
	enum class_verdict verdict;
	enum confidence conf;	/* met, short: what the margin against the noise allows */
	char why[256];		/* unknown: the reason; short: the figures */
};

#define CLASS_MAX_CLAIMS 8
struct class_claim {
	char name[8];		/* "C10" */
	enum sd_mark_kind kind;
	unsigned int value;
	unsigned int source;	/* CLAIM_FROM_CARD | CLAIM_FROM_USER */
	int nreq;
	struct class_req req[3];
	enum class_verdict verdict;
	char why[320];		/* the deciding figure, or why it is unknown */
	double margin;		/* met: smallest measured / promised - 1 */
	enum confidence conf;	/* the least of its promises' */
	char rerun[400];	/* unknown or low: the command that could decide it, or "" */
};

/* What the card's SD Status says, as far as the check needs it. */
struct class_card {
	bool visible;		/* an SD Status could be read */
	struct sd_claims marks;
	unsigned int queue_depth;	/* 0: no command queueing */
	bool cache;
	uint64_t au_size;	/* 0: undefined */
};

/* One measured phase: totals, and per-second points for --plot. */
#define CLASS_MAX_POINTS 256
struct class_phase {
	bool run;
	bool iops;		/* value counts I/Os a second, else bytes a second */
	int depth, depth_used;	/* asked for; kept in flight by the device path */
	uint64_t ios, bytes;
	int64_t ns;
	double value;
	int npoints;
	double t_ns[CLASS_MAX_POINTS], per_s[CLASS_MAX_POINTS];	/* end of each second */
	double fastest[2];	/* bytes/s of its two fastest requests */
	uint64_t b_ios, b_bytes;	/* the second being filled */
	int64_t b_ns;
};

/*
 * The sequential writes as they went: the area written again and again
 * until a write cache's end shows and the rate after it is measured, or
 * more cannot change a verdict, or the budget is spent (class_sustain_*,
 * checks/class_verdict.c). Time per unit of bytes, in the order written.
 */
#define CLASS_MAX_UNITS 1024
#define CACHE_SHARE 25		/* write caches reach 4% of a card's capacity (doc/card-facts.md §10) */
#define CLASS_AFTER_UNITS 4	/* units written after a cache's end: the sustained window */
struct class_sustain {
	uint64_t unit;		/* bytes per unit: whole erase blocks */
	int nunits;
	double unit_ns[CLASS_MAX_UNITS];
	uint64_t written;	/* bytes written sequentially, all passes */
	int64_t ns;
	int passes;
	/* the analysis */
	bool cache_seen;	/* the rate fell and stayed down: a write cache's (or buffer's) end */
	uint64_t cache_bytes;	/* written at the fast rate */
	double cache_rate;	/* bytes per second before the end */
	int from, to;		/* the sustained window: units [from, to) */
	double rate;		/* bytes per second over the window */
	double rep[2];		/* over its two halves: the replicas */
	double noise;		/* relative standard error of rate (0: one unit only) */
	bool moved;		/* the halves differ beyond their noise */
	double held;		/* the second-fastest unit where the card's own rate shows: a rate it held */
	const char *stopped;	/* why the writes stopped */
};

struct class_plan {
	uint64_t erasesize;
	char erase_source[96];
	uint64_t offset, area;	/* the test area */
	uint64_t chunk;		/* bytes per sequential write */
	int blocks, sustained_blocks;	/* erase blocks in the area; the last ones, timed alone */
	bool too_small;		/* fewer erase blocks than a sustained rate needs */
	bool random, queued;	/* an A claim: random phases; A2: queued ones */
	int depth;		/* A2's queue depth */
	char depth_source[64];
	uint64_t link_bytes;
	int max_ios;		/* per random phase */
	int64_t max_ns;		/* per random phase, device time */
	uint64_t test_bytes;	/* test data written at most */
	uint64_t total_bytes;	/* with the restore: what --max-write must allow */
	uint64_t min_total_bytes;	/* the area once: the smallest --max-write that works */
	uint64_t sustain_max;	/* sequential bytes at most: passes over the area */
	int64_t sustain_ns;	/* device time for them at most; 0: none (--max-write given) */
	uint64_t device_size;	/* what caches are measured against */
};

struct class_result {
	char device[256];	/* as opened: for the lines that rerun it */
	struct class_card card;
	struct sd_claims user;
	bool user_given, differ;	/* --claim given; it and the SD Status disagree */
	int nclaims;
	struct class_claim claims[CLASS_MAX_CLAIMS];
	struct class_plan plan;
	struct class_phase link, seq, rread, rwrite, qread, qwrite;
	double sustained;	/* bytes per second over the sustained window (sustain.rate) */
	struct class_sustain sustain;
	enum class_verdict verdict;
	bool decided;		/* verdicts computed: the check ran to its end */
	uint64_t bytes_written, bytes_read;	/* all of it: -a, measuring, saving, restoring, verifying */
	int64_t device_ns;
	uint64_t start_written, start_read;	/* the device's counters when class_prepare began */
	int64_t start_ns;
	bool interrupted, failed, restored, simulated;
	uint64_t fail_off, fail_len;
	int fail_errno;
	bool fail_write;
	char restore_error[1024];
};

struct class_opts {
	const struct sd_claims *claim;	/* --claim, or NULL */
	uint64_t erasesize;		/* --erasesize; 0: the card's, sysfs, or measured */
	const char *erase_source;	/* where erasesize came from; NULL: "--erasesize" */
	uint64_t max_write;		/* --max-write; 0: no cap */
	uint64_t room;			/* a caller's budget left (--auto): the passes fit it; 0: none */
	const char *max_write_typed;	/* as the user wrote it, for the refusal */
	const char *backup;		/* --backup=FILE, or NULL (memory) */
	const char *sysfs_root;		/* "/sys" (tests: a fake tree) */
};

/*
 * The claims and the plan: reads the SD Status, chooses the erase size
 * (which may take a read-only -a measurement) and the area; writes
 * nothing. 0; -1 with a runtime error in err; -2 with a usage error in err
 * (--max-write below the plan's volume, naming the smallest that works).
 */
int class_prepare(struct dev *d, const struct class_opts *o, struct class_result *r,
		  char *err, size_t n);
/*
 * What --class would check (the card's SD Status, and claim), read without
 * writing: 0 for no claim, else CLASS_KNOWN_ANY, with CLASS_KNOWN_APP for an
 * A claim (random phases) and CLASS_KNOWN_QUEUED for A2 (queued ones too).
 */
enum { CLASS_KNOWN_ANY = 1, CLASS_KNOWN_APP = 2, CLASS_KNOWN_QUEUED = 4 };
unsigned int class_claims_known(struct dev *d, const struct sd_claims *claim, const char *sysfs_root);
/* "flashbench: DEV: --class writes at most ..." : the volume, before anything is written. */
void class_plan_line(char *buf, size_t n, const struct dev *d, const struct class_result *r);
/*
 * The measurement, on a prepared r: saves the area, measures, restores and
 * verifies. 0 with the verdicts; -1 without (interrupted, an I/O failed, or
 * saving or restoring failed: see r, and err for a save that failed).
 */
int class_run(struct dev *d, const struct class_opts *o, struct class_result *r, char *err,
	      size_t n);

/* The verdicts from the measured figures (checks/class_verdict.c). */
void class_decide(struct class_result *r);
/* The sustained writes so far: a cache's end, the window after it, its replicas, their noise. */
void class_sustain_analyze(struct class_sustain *s);
/*
 * Whether another pass over the area could change a sequential verdict
 * (the rate so far may be a write cache's and meets a promise a card's
 * native rate may not); false with s->stopped saying why.
 */
bool class_sustain_more(const struct class_result *r, struct class_sustain *s, const char *device);
/* The promises of one mark (doc/speed-classes.md): nreq filled in c->req. */
void class_promises(struct class_claim *c);

/* 0 when every claim is met, 1 otherwise. */
int class_exit_status(const struct class_result *r);
const char *class_verdict_name(enum class_verdict v);
/* The first line: "short: A1: random 4KiB writes 212 IOPS, promised 500; C10 met" */
void class_summary(char *buf, size_t n, const struct class_result *r);
/* The first line, then the table and how it was measured. */
void class_text(FILE *f, const struct class_result *r);
void class_json(struct jw *w, const char *key, const struct class_result *r);
void class_json_report(FILE *f, const struct dev *d, const char *device,
		       const struct class_result *r);
/* --plot: per-second rates and IOPS against the promises. 0, or -1 (nothing measured). */
int class_plot(FILE *f, const char *device, const struct class_result *r);
/* --auto's line: "  class  met: ..." */
void class_headline(FILE *f, const struct class_result *r);

#endif
