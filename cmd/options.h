/* The parsed command line, shared by the parser (flashbench.c) and the runner (cmd/run.c). */
#ifndef FB_OPTIONS_H
#define FB_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/msg.h"
#include "lib/sd_claims.h"
#include "results/results.h"


enum action { ACT_NONE, ACT_ALIGN, ACT_OPEN_AU, ACT_FIND_FAT, ACT_SCATTER, ACT_INTERVAL,
	      ACT_PROGRAM, ACT_DISCARD, ACT_AUTO, ACT_ANALYZE, ACT_RESTORE, ACT_CAPACITY,
	      ACT_CLASS };

enum long_only {
	OPT_OPEN_AU_NR = 256, OPT_OFFSET, OPT_FAT_NR, OPT_SCATTER_ORDER, OPT_SCATTER_SPAN,
	OPT_INTERVAL_ORDER, OPT_DISCARD, OPT_AUTO, OPT_ANALYZE, OPT_RESTORE, OPT_DESTRUCTIVE,
	OPT_MAX_WRITE, OPT_ON_ERROR, OPT_PRESERVE, OPT_BACKUP, OPT_JSON, OPT_PLOT, OPT_FORCE,
	OPT_CAPACITY, OPT_CLASS, OPT_CLAIM, OPT_LAST
};

struct options {
	enum action action;
	const char *action_opt;		/* the option that chose it, for messages */
	unsigned int tests;		/* bit per original test asked for (several may be) */
	struct params p;
	const char *device;
	const char *out;
	const char *plot;
	const char *backup;
	const char *analyze_file;
	const char *restore_file;
	bool json, verbose, preserve, destructive, force;
	uint64_t discard_off, discard_len;
	uint64_t max_write;
	bool max_write_set;
	struct sd_claims claim;		/* --claim=LIST */
	bool claim_given;
	const char *given[OPT_LAST];	/* by option code: its value ("" for a flag) if given */
};

/* The original's tests, in the order it ran them when given several. */
#define NORIGINAL 6
extern const enum action run_original_order[NORIGINAL];

/* The options parsed so far, for the JSON document of an error. */
extern const struct options *run_options_parsed;

/* "flashbench: message" on stderr; with --json also a document on stdout. */
void __attribute__((noreturn)) run_fail_with(int status, const char *msg);
/* With --json: the document a signal before any I/O writes (safety_signals_idle_document). */
void run_prepare_interrupted_document(const struct options *o);
/* A usage error: the message, exit 2, no I/O. */
void run_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
