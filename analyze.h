/* Interpreting measurements: erase size, page size, open AUs, FAT area. */
#ifndef FB_ANALYZE_H
#define FB_ANALYZE_H

#include <stdbool.h>
#include <stdio.h>

#include "measure.h"

struct auto_opts {
	bool destructive;	/* --destructive: run the write phase */
	bool json;		/* --json */
	uint64_t max_write;	/* --max-write cap in bytes */
	const char *device_name;
};

/* flashbench --auto DEV: identity, alignment, (write phase), report. Returns exit status. */
int auto_run(struct dev *d, const struct params *p, const struct auto_opts *o, FILE *out);

/* flashbench --analyze FILE ("-" = stdin): verdicts from saved output. Returns exit status. */
int analyze_file(const char *path, bool json, FILE *out);

#endif
