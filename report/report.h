/*
 * Renderers: read measurement data, never touch the device.
 * Text is byte-compatible with the original flashbench.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stdio.h>

#include "lib/json.h"
#include "lib/traffic.h"
#include "results/results.h"

struct identity;

/*
 * What the analysis says about one run, computed before rendering (by the
 * code that runs the test) and handed to the renderers as data.
 */
struct report_verdict {
	struct size_estimate erase, page;	/* -a */
	struct fat_estimate fat;		/* --find-fat */
	enum collapse collapse;			/* --open-au: did nr open erase blocks collapse? */
};

/* Everything one run produced; unused members are NULL. */
struct report {
	const char *device;		/* as the user named it */
	const struct dev_facts *dev;
	const struct identity *identity;	/* JSON only; NULL: none */
	const struct params *params;
	const char *test;		/* "align", "open-au", "find-fat", "scatter", "interval", "program" */
	const struct align_result *align;
	const struct rate_result *rates;	/* open-au or find-fat */
	const struct scatter_result *scatter;
	const struct interval_result *interval;
	const struct program_result *program;
	const struct discard_result *discard;
	const struct report_verdict *verdict;	/* NULL: none computed */
	const struct restore_report *restore;	/* --preserve: how the data went back; NULL: none */
};

/* The status of whichever result the report holds; NULL if none. */
const struct run_status *report_status(const struct report *rep);

/* Original text formats */
void text_align(FILE *f, const struct align_result *r);
void text_rates(FILE *f, const struct rate_result *r);
void text_scatter(FILE *f, const struct scatter_result *r);
void text_interval(FILE *f, const struct interval_result *r);
void text_program(FILE *f, const struct program_result *r);
void text_program_legend(FILE *f);	/* names of -p's columns, for -v */
void text_discard(FILE *f, const struct discard_result *r);
void text_report(FILE *f, const struct report *rep);
/*
 * Rows as they are measured: -a, --open-au, --find-fat and -p rows from
 * row `from` on; returns the rows printed so far. text_report_from() then
 * prints the rest of the report.
 */
int text_rows_from(FILE *f, const struct report *rep, int from);
void text_report_from(FILE *f, const struct report *rep, int from);
/* "flashbench: /dev/sdc: read failed at offset 4194304 (16384 bytes): Input/output error" etc. */
void text_status(FILE *f, const struct report *rep);
/* "4MiB (high confidence); reads pair pages to 8KiB", or "unknown" (--auto and --analyze) */
const char *text_size_estimate(char *buf, size_t n, const struct size_estimate *e);

/*
 * One JSON document per run (doc/flashbench.schema.json). Every document starts
 * with the same envelope and carries a status, also when the run failed.
 */
#define JSON_SCHEMA_VERSION 1
/* Remember the command line and start time; notes whether --json was asked for. */
void json_set_run(int argc, char **argv);
bool json_requested(void);
/* When the run started, RFC 3339 in UTC (the JSON "time", the plot footer). */
const char *report_run_time(void);
/* The command line as typed (shell-quoted) into buf; NULL if none was recorded. */
const char *report_command_line(char *buf, size_t n);
/* "open-au" -> "open_au": the member name that holds the test's data */
const char *json_test_name(const char *test);
/* schema_version, tool, version, time, argv, test */
void json_envelope(struct jw *w, const char *test);
/* status of a run that failed before it measured anything */
void json_error_status(struct jw *w, const char *message);
/* A whole document for a run that failed before it measured anything. */
void json_error_document(FILE *f, const char *test, const char *device, const char *message);
/* The same for a run stopped by a signal before it measured anything (state "interrupted"). */
void json_interrupted_document(FILE *f, const char *test, const char *device, const char *message);
void json_report(FILE *f, const struct report *rep);
/* Members shared with --auto: device block, each result type */
void json_device_facts(struct jw *w, const struct dev_facts *d, const char *name);
void json_params(struct jw *w, const struct params *p);
void json_align(struct jw *w, const char *key, const struct align_result *r);
void json_rates(struct jw *w, const char *key, const struct rate_result *r);
void json_scatter(struct jw *w, const char *key, const struct scatter_result *r);
void json_interval(struct jw *w, const char *key, const struct interval_result *r);
void json_program(struct jw *w, const char *key, const struct program_result *r);
void json_discard(struct jw *w, const char *key, const struct discard_result *r);
void json_status(struct jw *w, const struct run_status *st);

/* Bytes moved by purpose (report/report_traffic.c): all of them, read or written. */
uint64_t report_traffic_total(const struct io_traffic *t, bool written);
/* "22.6MiB labels, 22.6MiB restoring": the purposes that moved bytes, each named what[p]. */
const char *text_traffic(char *buf, size_t n, const struct io_traffic *t, bool written,
			 const char *const what[IO_PURPOSES]);
/* {"measure": {"read_bytes", "written_bytes"}, "save": ..., "restore": ..., "verify": ...} */
void json_traffic(struct jw *w, const char *key, const struct io_traffic *t);
/* How the user's data went back: restored, or the error, the file --restore takes, its command. */
void json_restore(struct jw *w, const char *key, const struct restore_report *r);
/* Verdicts of the analysis, as --auto, --analyze and single tests report them */
struct size_estimate;
struct count_estimate;
struct fat_estimate;
void json_size_estimate(struct jw *w, const char *key, const struct size_estimate *e);
void json_count_estimate(struct jw *w, const char *key, const struct count_estimate *c);
/* Its members, inside an object the caller opened (--auto adds "not_determinable"). */
void json_count_fields(struct jw *w, const struct count_estimate *c);
void json_fat_estimate(struct jw *w, const char *key, const struct fat_estimate *e);
void json_fat_fields(struct jw *w, const struct fat_estimate *e);

/* Self-contained SVG plot of the run's data; -1 if the test has nothing to plot. */
int svg_report(FILE *f, const struct report *rep);
/* --auto: panels of one SVG: -a (median), a line per --open-au run, --find-fat (fat: NULL if none) */
struct svg_run {
	const struct rate_result *r;
	long long nr;
	bool random, collapsed;
};
/* v: the -a verdict marked, the FAT area shaded; NULL for none */
int svg_auto(FILE *f, const char *device, const struct align_result *align,
	     const struct report_verdict *v, const struct svg_run *runs, int nruns,
	     const struct rate_result *fat);

#endif
