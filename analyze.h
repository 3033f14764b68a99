/* Interpreting measurements: erase size, page size, open AUs, FAT area. */
#ifndef FB_ANALYZE_H
#define FB_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure.h"

enum confidence { CONF_NONE, CONF_LOW, CONF_MEDIUM, CONF_HIGH };
const char *confidence_name(enum confidence c);	/* "none" "low" "medium" "high" */

struct size_estimate {
	uint64_t bytes;		/* 0 = unknown */
	enum confidence conf;
	char evidence[512];	/* which rows/values led there, for the report */
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

/* -a data -> erase-block size and page size */
void analyze_align(const struct align_result *r, struct size_estimate *erase,
		   struct size_estimate *page);

enum collapse { RUN_HOLDS, RUN_COLLAPSED, RUN_UNCLEAR };
/* one --open-au run: did small-block throughput collapse (time per write ~ constant)? */
enum collapse analyze_open_au_run(const struct rate_result *r, uint64_t pagesize_hint);
/* runs[i] was made with open-au-nr = nrs[i] (ascending) */
void analyze_open_au_series(const struct rate_result *const *runs, const long long *nrs, int nruns,
			    uint64_t pagesize_hint, struct count_estimate *out);
/* --find-fat data -> FAT-optimised area at the start */
void analyze_find_fat(const struct rate_result *r, struct fat_estimate *out);

struct auto_opts {
	bool destructive;	/* --destructive: run the write phase */
	bool json;		/* --json */
	bool verbose;		/* -v: the evidence behind each verdict in the text report */
	uint64_t max_write;	/* --max-write cap in bytes */
	const char *device_name;
	FILE *plot;		/* --plot: the chart goes here; NULL for none */
};

/* flashbench --auto DEV: identity, alignment, (write phase), report. Returns exit status. */
int auto_run(struct dev *d, const struct params *p, const struct auto_opts *o, FILE *out);

/* Helpers shared by the reports (additions). */
const char *collapse_name(enum collapse c);	/* "holds" "collapsed" "unclear" */
/*
 * Two --open-au runs with the same N and mode at erase sizes a < b: median
 * over shared block sizes (page..a/2) of rate(b)/rate(a); 0 if none shared.
 * Clearly above 1 (>= 1.5) means the smaller size makes the card
 * garbage-collect more: the erase size is at least b's.
 */
double analyze_open_au_gain(const struct rate_result *smaller_e, const struct rate_result *bigger_e,
			    uint64_t pagesize_hint);

/* flashbench --analyze FILE ("-" = stdin): verdicts from saved output. Returns exit status. */
int analyze_file(const char *path, bool json, FILE *out);

#endif
