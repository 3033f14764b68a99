/*
 * Plain data shared by the layers: what a measurement returns (results and
 * their status), the parameters it ran with, the device facts a report
 * shows, and the verdicts of the analysis. Includes nothing of ours, so the
 * analysis and the renderers read results without seeing the device or the
 * VM. The VM's opcodes live here because a failure names its operation.
 */
#ifndef FB_RESULTS_H
#define FB_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

enum vm_opcode {
	/* primitives: one timed I/O of the current length at the current offset */
	VM_READ,
	VM_WRITE_ZERO,
	VM_WRITE_ONES,
	VM_WRITE_5A,
	VM_WRITE_RANDOM,
	VM_DISCARD,
	VM_LENGTH,	/* value: current length (bytes) */
	VM_OFFSET,	/* value: current offset (bytes) */
	/* generators: a = first argument, b = second, c = third */
	VM_OFF_FIXED,	/* offset += a; run child */
	/*
	 * for i in 0..n-1: offset = base + stride*i; list of child results.
	 * stride = a, or the current length if a is 0; n = b, or if b < 0,
	 * n = -b / current length (e.g. b = -erasesize: one erase block's worth).
	 */
	VM_OFF_LIN,
	VM_OFF_RAND,	/* as OFF_LIN, i in the original's order of n places (vm_order_init) */
	VM_OFF_SCATTER,	/* as OFF_LIN, i in the original's -s order (vm_scatter_order_init) */
	VM_LEN_FIXED,	/* length = a; run child */
	VM_LEN_POW2_UP,	  /* length = a, 2a, 4a, ... <= b; list */
	VM_LEN_POW2_DOWN, /* length = a, a/2, a/4, ... >= b; list */
	VM_REPEAT,	/* run child a times; list */
	VM_SEQ,		/* run each child in turn; list */
	/* reductions over the (flattened) results of the child */
	VM_MIN,		/* the sample with the smallest time */
	VM_MAX,
	VM_AVG,		/* mean time and mean bytes */
	VM_TOTAL,	/* summed time and bytes */
	VM_BPS,		/* bytes / time of the child's (total) result */
	VM_DROP,	/* run child, discard its result */
	VM_OUT,		/* label the child's result (label = name) */
};

struct vm_failure {
	uint64_t off, len;
	int err;		/* positive errno */
	enum vm_opcode op;
};

enum vm_on_error { VM_ERR_STOP, VM_ERR_CONTINUE };

/* What a report says about the device; filled by measure_dev_facts_fill() (measure/measure.h). */
struct dev_facts {
	const char *path;
	const char *kind;	/* "simulated", "block_device", "regular_file" */
	uint64_t size;		/* bytes */
	unsigned int lbs, pbs;	/* logical, physical block size (pbs 0: unknown) */
	bool writable;
};

struct rate_row;

struct params {
	uint64_t blocksize;	/* -b, default 16 KiB */
	uint64_t erasesize;	/* -e, default 4 MiB */
	long long count;	/* -c, default 8 */
	long long open_au_nr;	/* --open-au-nr, default 2 */
	bool random;		/* -r */
	bool offset_set;
	uint64_t offset;	/* --offset; default first erasesize multiple >= 16 MiB */
	long long fat_nr;	/* --fat-nr, default 6 */
	long long scatter_order;	/* default 9 */
	long long scatter_span;		/* default 1 */
	long long interval_order;	/* required by -i */
	bool erasesize_set, blocksize_set;	/* given on the command line */
	enum vm_on_error on_read_error, on_write_error;
	/*
	 * -a places: false (default) = the original's k * top + A, modulo the
	 * size; true = A plus power-of-two multiples of A, so a 3*2^n boundary
	 * is hit at every place (--auto's choice; not the original's I/O).
	 */
	bool align_spread;
	/*
	 * Optional, for --auto: called after each --open-au/--find-fat row;
	 * returning false ends the measurement there (complete, not partial).
	 */
	bool (*keep_going)(const struct rate_row *row, void *arg);
	void *keep_going_arg;
	/*
	 * Optional, for --auto: --open-au and --find-fat rows start at this
	 * block size instead of the erase size (0: the erase size, as the original).
	 */
	uint64_t first_blocksize;
	/*
	 * Optional: called after each finished row of -a, --open-au, --find-fat
	 * and -p (never inside a timed region), so rows can be shown as they
	 * are measured. The result's nrows already counts the row.
	 */
	void (*row_done)(void *arg);
	void *row_done_arg;
};

/* Outcome of a measurement run, shared by every result. */
/* --preserve (and --capacity): how putting the user's data back went. */
struct restore_report {
	bool restored;		/* written back and verified */
	const char *device;
	const char *error;	/* why not, when not */
	const char *kept_file;	/* the file --restore takes (the --backup, or a rescue file); NULL: none */
};

struct run_status {
	bool partial;		/* stopped by an interrupt or an error, or an I/O failed */
	bool interrupted;
	bool stopped;		/* ended early (interrupt, or --on-error=stop) */
	int nfailures;		/* failed I/Os */
	struct vm_failure first_failure;
	uint64_t bytes_written;
	int64_t device_ns;	/* total time spent in timed I/O */
	const char *failed_because;	/* a failure that is no failed I/O of the test (the user's
					   data not saved or not restored); NULL: none */
};

/* -a */
struct align_row {
	uint64_t align;
	int64_t pre_ns, on_ns, post_ns, diff_ns;
	int positions;		/* boundary places sampled */
	bool failed;		/* some read failed: no numbers */
};
struct align_result {
	uint64_t blocksize;
	long long count;
	int nrows;
	struct align_row *rows;	/* largest boundary first */
	struct run_status st;
};

/* --open-au and --find-fat: one row per block size, one column per run/AU */
#define RATE_MAX_COLS 64
#define OPEN_AU_NR_LIMIT (RATE_MAX_COLS * 16)
#define OPEN_AU_SPACING 12	/* erase sizes from one --open-au erase block to the next */
struct rate_row {
	uint64_t blocksize;
	int ncols;
	double rate[RATE_MAX_COLS];	/* bytes per second */
	int64_t ns[RATE_MAX_COLS];
	uint64_t bytes[RATE_MAX_COLS];
	bool failed[RATE_MAX_COLS];
};
struct rate_result {
	uint64_t erasesize, blocksize, offset;
	long long nr;		/* open-au-nr, or fat-nr */
	unsigned int spacing;	/* erase sizes from one open-au erase block to the next */
	bool random;
	bool find_fat;		/* --find-fat's columns (the original's layout differs) */
	int nrows;
	struct rate_row *rows;	/* erasesize first, halving */
	struct run_status st;
};

/* -s */
struct scatter_point {
	uint64_t off;
	int64_t min_ns;
	bool failed;
};
struct scatter_result {
	uint64_t blocksize, span_bytes;
	int npoints;
	struct scatter_point *points;
	struct run_status st;
};

/* -i */
struct interval_row {
	uint64_t bytes;
	int64_t min_ns, avg_ns, max_ns;
	double rate;		/* bytes / min time */
	bool failed;
	bool too_small;		/* below the logical block size: not read (failed too) */
};
/* Why -i has no fit line: */
enum interval_fit {
	FIT_OK,
	FIT_TOO_FEW_SIZES,	/* fewer than 2 sizes after leaving out the 3 smallest */
	FIT_NOT_RISING,		/* times do not grow with the transfer size */
};
#define INTERVAL_FIT_SKIP 3	/* smallest sizes left out of the fit (setup noise) */
#define INTERVAL_SMALLEST 512	/* the original's sizes: 512 bytes doubling */
#define INTERVAL_STRIDE 9	/* a size's reads lie 9 sizes apart from the start */
struct interval_result {
	int nrows;
	struct interval_row *rows;	/* 512 bytes, doubling */
	enum interval_fit fit;
	float fit_slope;	/* regression: ns per byte, in the original's single precision */
	double fit_rate;	/* regression: bytes per second; 0 unless FIT_OK */
	int64_t fit_access_ns;	/* regression: access time */
	struct run_status st;
};

/*
 * -p: the original's demo program. A 4 MiB region (at 16 MiB, or --offset)
 * written and read in chunks of 2 MiB down to 512 bytes: per chunk size 8
 * cells, one per PROGRAM_COLUMNS label. rows[] holds the cells row by row.
 */
#define PROGRAM_COLUMNS 8
#define PROGRAM_REGION (4ull << 20)
#define PROGRAM_LARGEST (2ull << 20)
#define PROGRAM_OFFSET (16ull << 20)
extern const char *const program_labels[PROGRAM_COLUMNS];
struct program_row {
	const char *label;	/* "write zeros linear", ..., "read random" */
	uint64_t blocksize;
	double rate;
	bool failed;
};
struct program_result {
	int nrows;
	struct program_row *rows;
	struct run_status st;
};

/* --discard=OFF:LEN */
struct discard_result {
	uint64_t off, len;
	int64_t ns;
	bool failed;
	struct run_status st;
};

void align_result_free(struct align_result *r);
void rate_result_free(struct rate_result *r);
void scatter_result_free(struct scatter_result *r);
void interval_result_free(struct interval_result *r);
void program_result_free(struct program_result *r);


/* ---- verdicts of the analysis (analyze/analyze.h) ---- */

enum confidence { CONF_NONE, CONF_LOW, CONF_MEDIUM, CONF_HIGH };
const char *results_confidence_name(enum confidence c);	/* "none" "low" "medium" "high" */

struct size_estimate {
	uint64_t bytes;		/* 0 = unknown */
	enum confidence conf;
	uint64_t multiplane;	/* page only: pages read in groups of this size; 0 = none seen */
	uint64_t group;		/* erase only: a further step above (allocation group); 0 = none */
	char evidence[768];	/* which rows/values led there, for the report */
};

struct count_estimate {
	int n;			/* open AUs; 0 = unknown */
	bool at_least;		/* no collapse seen up to n */
	enum confidence conf;
	char evidence[512];
};

struct fat_estimate {
	int aus;		/* FAT-optimised erase blocks at the start; 0 = none */
	uint64_t bytes;
	enum confidence conf;
	char evidence[512];
};

enum collapse { RUN_HOLDS, RUN_COLLAPSED, RUN_UNCLEAR };
const char *results_collapse_name(enum collapse c);	/* "holds" "collapsed" "unclear" */

#endif
