/*
 * The measurements (flashbench's tests). Each builds a VM program, runs it
 * and turns the result tree into the plain data of results/results.h. Renderers
 * (text, JSON, SVG) and the analysis read only those structs.
 */
#ifndef FB_MEASURE_H
#define FB_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "results/results.h"
#include "vm.h"

void params_defaults(struct params *p);

/* A half-open byte range a test may write. */
struct span {
	uint64_t off, len;
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

/*
 * --auto's probes (measure/measure_probe.c; not an original test): rows of
 * a few chunks in each of n erase blocks, each row going on where the one
 * before ended, from at[j] in block j. A row writes `rounds` chunks per
 * block, in order or (random) in the original's pseudo-random order of its
 * positions; the blocks are visited in the original's order at every
 * position, or (columns) one after the other, a rate for each.
 */
#define PROBE_MAX_ROUNDS 64
#define PROBE_MAX_BLOCKS 64
struct probe_row {
	uint64_t chunk;
	int rounds;
	bool random;
	/*
	 * Columns only: in each block first `lead` more chunks, not timed (a
	 * RAM buffer then holds the block's own writes when the timed ones
	 * go); the positions of lead + rounds chunks in order or shuffled.
	 */
	int lead;
};
struct probe_spec {
	const uint64_t *at;	/* n offsets: where the first row starts in each block */
	int n;
	uint64_t erasesize;	/* for the result */
	bool columns;		/* a rate per block, one block after the other (--find-fat's way) */
	const struct probe_row *rows;
	int nrows;
	/* after each row: false stops the probe there */
	bool (*keep_going)(const struct rate_row *row, void *arg);
	void *keep_going_arg;
	enum vm_on_error on_write_error;
};
int measure_probe(struct dev *d, const struct probe_spec *ps, struct rate_result *r);
/* What the probe writes in all. */
uint64_t measure_probe_bytes(const struct probe_spec *ps);

/* The device facts the renderers show (path, kind, sizes), as data. */
void measure_dev_facts_fill(struct dev_facts *f, const struct dev *d);

/* The -a boundary list: largest first, 2^n and 3*2^(n-1) interleaved. */
int align_boundaries(uint64_t size, uint64_t blocksize, unsigned int lbs, uint64_t *out, int max);

#endif
