/*
 * What measure/measure.c (checks, spans, the measurement runner, -a, --discard),
 * measure/measure_rates.c (--open-au, --find-fat, -p) and measure/measure_read.c (-s, -i)
 * share.
 */
#ifndef FB_MEASURE_INTERNAL_H
#define FB_MEASURE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "results/results.h"
#include "vm.h"

/*
 * One measurement: its programs (built first), then a VM context whose
 * buffer fits the largest I/O among them, and the device's counters at the
 * start for the run's status.
 */
struct measurement {
	struct vm_ctx c;
	struct vm_program *prog;
	struct dev *d;
	uint64_t written0;
	int64_t ns0;
};

void measure_begin(struct measurement *m, struct dev *d);
/* The buffer holds max_len bytes (0: the largest length in op). */
int measure_start(struct measurement *m, const struct params *p, const struct vm_op *op,
	    uint64_t max_len);
bool measure_stopped(struct measurement *m);
int measure_finish(struct measurement *m, struct run_status *st);
/* A row is complete: let the caller show it. */
void measure_row_done(const struct params *p);

uint64_t open_au_offset(const struct params *p);
uint64_t scatter_points(const struct params *p);
uint64_t interval_largest(const struct dev *d, const struct params *p);
uint64_t program_offset(const struct params *p);
/* The original's sizes, 2 MiB down to 512 bytes (or the logical block size). */
uint64_t program_smallest(const struct dev *d);

#endif
