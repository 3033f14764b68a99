/*
 * Reading saved flashbench text output back into measurement structs:
 * files written with `flashbench ... > FILE`, and mailing-list posts whose
 * line breaks were lost, with prompts, sysfs dumps, comments, `^C` and
 * error messages mixed in. Unknown text is skipped, never an error.
 */
#ifndef FB_POST_H
#define FB_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

enum post_kind { POST_ALIGN, POST_OPEN_AU, POST_FIND_FAT };

struct post_run {
	enum post_kind kind;
	int section;		/* index into post.sections */
	bool nr_stated;		/* open-au-nr came from a command (or its default), a header */
	bool mode_stated;	/* linear or random said by a command or header; else unknown */
	bool nr_from_sequence;	/* N read from an option not understood, by the runs' sequence */
	char unknown_option[32];	/* the first option of the command not understood, "" if none */
	long long unknown_value;	/* its numeric value, 0 if none */
	struct align_result align;	/* POST_ALIGN */
	struct rate_result rates;	/* POST_OPEN_AU / POST_FIND_FAT; rates.nr: N, 0 = unknown */
	char command[192];	/* the flashbench command before the data, "" if none */
};

/* A card: a new one starts with each -a run that follows other runs. */
struct post_section {
	char name[48];		/* sysfs name / MMC_NAME, "" if none */
	uint64_t preferred_erase_size;	/* sysfs, 0 if not in the text */
};

struct post {
	int nruns, nsections;
	int repaired_times;	/* "308s" in -a rows read as 308µs (a µ lost to encoding) */
	int junk_stripped;	/* terminal escapes, ^N, quotes, table bars dropped before rows */
	int mangled_cells;	/* cells cut short ("1.02e+0"): read as missing, the row kept */
	struct post_run *runs;
	struct post_section *sections;
};

/* 0, or -1 when out of memory. Identical repeated runs (quotes) are kept once. */
int post_parse(const char *text, size_t len, struct post *out);
void post_free(struct post *p);

/* Field parsers of the original output formats; 0 on success, -1 otherwise. */
int post_parse_time(const char *tok, int64_t *ns);	/* "872µs" "1.03ms" "-9139ns" "1e+03µ" */
int post_parse_rate(const char *tok, double *bps);	/* "13.2M/s" "872K/s" "2.689G/" */
int post_parse_size(const char *tok, uint64_t *bytes);	/* "4MiB" "1.5KiB" "512B" */
/* Option values as typed in posts: "4096", "4k", "16M", "$[4*1024*1024]", "$[64 * 1024 * 576]" */
int post_eval_size(const char *s, uint64_t *bytes);

#endif
