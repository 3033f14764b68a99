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

/* The device facts the renderers show (path, kind, sizes), as data. */
void measure_dev_facts_fill(struct dev_facts *f, const struct dev *d);

/* The -a boundary list: largest first, 2^n and 3*2^(n-1) interleaved. */
int align_boundaries(uint64_t size, uint64_t blocksize, unsigned int lbs, uint64_t *out, int max);

#endif
