/* flashbench --auto: the search, the advice and the report for one device. */
#ifndef FB_AUTO_H
#define FB_AUTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/sd_claims.h"
#include "measure/measure.h"

struct auto_opts {
	bool destructive;	/* --destructive: run the write phase */
	bool json;		/* --json */
	bool verbose;		/* -v: the evidence behind each verdict in the text report */
	uint64_t max_write;	/* --max-write cap in bytes */
	const char *device_name;
	FILE *plot;		/* --plot: the chart goes here; NULL for none */
	const struct sd_claims *claim;	/* --claim: the label, for the class check; NULL */
};

/* flashbench --auto DEV: identity, alignment, (write phase), report. Returns exit status. */
int auto_run(struct dev *d, const struct params *p, const struct auto_opts *o, FILE *out);

#endif
