/*
 * The measurements (flashbench's tests). Each builds a VM program, runs it
 * and turns the result tree into the plain data below. Renderers (text,
 * JSON, SVG) and the analysis read only these structs.
 */
#ifndef FB_MEASURE_H
#define FB_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "vm.h"

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
	 * Optional: called after each finished row of -a, --open-au, --find-fat
	 * and -p (never inside a timed region), so rows can be shown as they
	 * are measured. The result's nrows already counts the row.
	 */
	void (*row_done)(void *arg);
	void *row_done_arg;
};

void params_defaults(struct params *p);

/* A half-open byte range a test may write. */
struct span {
	uint64_t off, len;
};

/* Outcome of a measurement run, shared by every result. */
struct run_status {
	bool partial;		/* stopped by an interrupt or an error, or an I/O failed */
	bool interrupted;
	bool stopped;		/* ended early (interrupt, or --on-error=stop) */
	int nfailures;		/* failed I/Os */
	struct vm_failure first_failure;
	uint64_t bytes_written;
	int64_t device_ns;	/* total time spent in timed I/O */
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
};
/* Why -i has no fit line: */
enum interval_fit {
	FIT_OK,
	FIT_TOO_FEW_SIZES,	/* fewer than 2 sizes after leaving out the 3 smallest */
	FIT_NOT_RISING,		/* times do not grow with the transfer size */
};
#define INTERVAL_FIT_SKIP 3	/* smallest sizes left out of the fit (setup noise) */
struct interval_result {
	int nrows;
	struct interval_row *rows;
	uint64_t stride;	/* bytes between one try's read and the next */
	enum interval_fit fit;
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

/*
 * Validation (no I/O): 0, or -1 with a one-line usage message in err
 * ("--blocksize=0: must be at least 512"). dev gives size and lbs.
 */
int align_check(const struct dev *d, const struct params *p, char *err, size_t n);
int open_au_check(const struct dev *d, const struct params *p, char *err, size_t n);
int find_fat_check(const struct dev *d, const struct params *p, char *err, size_t n);
int scatter_check(const struct dev *d, const struct params *p, char *err, size_t n);
int interval_check(const struct dev *d, const struct params *p, char *err, size_t n);
int program_check(const struct dev *d, const struct params *p, char *err, size_t n);

/* What a write test will overwrite (for --preserve and the span tests). */
int open_au_spans(const struct dev *d, const struct params *p, struct span *out, int max);
int find_fat_spans(const struct dev *d, const struct params *p, struct span *out, int max);
int program_spans(const struct dev *d, const struct params *p, struct span *out, int max);
uint64_t open_au_default_offset(const struct params *p);
/* 12 (the original's), or less where that does not fit on the device */
unsigned int open_au_spacing(const struct dev *d, const struct params *p);

/*
 * The measurements. 0 when complete, -1 when partial (interrupted or an
 * I/O failed; see st). Results are heap-allocated; free with the *_free.
 */
int measure_align(struct dev *d, const struct params *p, struct align_result *r);
int measure_open_au(struct dev *d, const struct params *p, struct rate_result *r);
int measure_find_fat(struct dev *d, const struct params *p, struct rate_result *r);
int measure_scatter(struct dev *d, const struct params *p, struct scatter_result *r);
int measure_interval(struct dev *d, const struct params *p, struct interval_result *r);
int measure_program(struct dev *d, const struct params *p, struct program_result *r);
int measure_discard(struct dev *d, const struct params *p, uint64_t off, uint64_t len,
		    struct discard_result *r);

void align_result_free(struct align_result *r);
void rate_result_free(struct rate_result *r);
void scatter_result_free(struct scatter_result *r);
void interval_result_free(struct interval_result *r);
void program_result_free(struct program_result *r);

/* The -a boundary list: largest first, 2^n and 3*2^(n-1) interleaved. */
int align_boundaries(uint64_t size, uint64_t blocksize, unsigned int lbs, uint64_t *out, int max);

#endif
