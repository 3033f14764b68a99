/* flashbench: options and dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/analyze_cmd.h"
#include "cmd/options.h"
#include "report/report.h"
#include "cmd/run.h"
#include "safety/safety.h"
#include "sim/sim.h"
#include "lib/suggest.h"
#include "lib/units.h"



static void __attribute__((noreturn)) usage(void)
{
	printf("Usage: flashbench [options] <device>\n"
	       "Finds out how a flash card (SD, microSD, eMMC, CF, USB stick) works inside\n"
	       "by timing O_DIRECT reads and writes.\n"
	       "\n"
	       "Tests (choose one, or several of -s -f -a -O -i -p: they run in that order):\n"
	       "  -a, --align               read across boundaries: erase block and page size\n"
	       "  -O, --open-au             write round-robin to N erase blocks (DESTROYS DATA)\n"
	       "  -f, --find-fat            write each of the first erase blocks (DESTROYS DATA);\n"
	       "                            also --findfat\n"
	       "  -s, --scatter             minimum read time at many offsets (gnuplot data)\n"
	       "  -i, --interval            read times per transfer size, with a linear fit\n"
	       "  -p, --program             demo: 4MiB at 16MiB written and read (DESTROYS DATA)\n"
	       "      --discard=OFF:LEN     discard (trim) a range (DESTROYS DATA)\n"
	       "      --capacity            does the card store what it advertises? (fake-card\n"
	       "                            check; writes a few MiB, restores them)\n"
	       "      --class               does the card keep its speed and application class?\n"
	       "                            (writes ~80MiB at 64MiB, restores them)\n"
	       "      --auto                identify the card, measure and interpret (read-only\n"
	       "                            unless --destructive)\n"
	       "      --analyze=FILE        interpret saved flashbench output ('-': stdin)\n"
	       "      --restore=FILE        write a --backup file back to <device>\n"
	       "\n"
	       "Parameters:\n"
	       "  -b, --blocksize=SIZE      I/O size (default 16KiB)\n"
	       "  -e, --erasesize=SIZE      erase block size (default 4MiB; 3*2^n like 1.5M works)\n"
	       "  -c, --count=N             tries per measurement (default 8)\n"
	       "      --open-au-nr=N        erase blocks written round-robin (default 2)\n"
	       "  -r, --random              write chunks in pseudo-random order\n"
	       "      --offset=SIZE         start offset (open-au default: first erase-size\n"
	       "                            multiple >= 16MiB)\n"
	       "  -F, --fat-nr=N            erase blocks for --find-fat (default 6)\n"
	       "      --scatter-order=N     2^N offsets for --scatter (default 9)\n"
	       "      --scatter-span=N      blocks per --scatter read (default 1)\n"
	       "      --interval-order=N    transfer sizes for --interval (required)\n"
	       "      --destructive         let --auto run its write tests\n"
	       "      --max-write=SIZE      cap on bytes --auto --destructive or --class may\n"
	       "                            write, more than 0 (default: --auto 3%% of the\n"
	       "                            device, at least 256MiB; --class what it plans)\n"
	       "      --claim=LIST          with --class: the marks on the label, e.g.\n"
	       "                            C10,U3,V30,A2 (when the SD Status is not visible)\n"
	       "      --on-error=stop|continue   after an I/O error (default: stop for writes,\n"
	       "                            continue for reads)\n"
	       "\n"
	       "Safety:\n"
	       "      --preserve            save what a write test overwrites, restore it after\n"
	       "      --backup=FILE         with --preserve, --capacity or --class: keep the saved data\n"
	       "                            in FILE (removed once restored and verified)\n"
	       "      --force               with --restore: restore onto another device or path\n"
	       "                            of the same size as the one the backup is from\n"
	       "\n"
	       "Output:\n"
	       "  -o, --out=FILE            write results to FILE (- is standard output)\n"
	       "      --json                one JSON document instead of text\n"
	       "      --plot=FILE.svg       also draw the results as an SVG plot\n"
	       "  -v, --verbose             device facts and I/O totals on standard error\n"
	       "  -h, --help                this help\n"
	       "  -V, --version             the version\n"
	       "\n"
	       "Sizes take K, M, G suffixes (binary: 4k = 4KiB = 4096). <device> is a block\n"
	       "device, a regular file, or a simulated card: sim:PARAMS\n"
	       "\n"
	       "Simulated cards (sim:PRESET,key=value,...):\n"
	       "%s"
	       "\n"
	       "Exit status: 0 success, 1 runtime error, 2 usage error, 130 interrupted.\n"
	       "Exit 1 also means a counterfeit or damaged card, or a --class claim not met.\n",
	       sim_help());
	exit(0);
}

static const struct option long_options[] = {
	{ "align", no_argument, NULL, 'a' },
	{ "open-au", no_argument, NULL, 'O' },
	{ "find-fat", no_argument, NULL, 'f' },
	{ "findfat", no_argument, NULL, 'f' },
	{ "scatter", no_argument, NULL, 's' },
	{ "interval", no_argument, NULL, 'i' },
	{ "program", no_argument, NULL, 'p' },
	{ "discard", required_argument, NULL, OPT_DISCARD },
	{ "auto", no_argument, NULL, OPT_AUTO },
	{ "capacity", no_argument, NULL, OPT_CAPACITY },
	{ "class", no_argument, NULL, OPT_CLASS },
	{ "claim", required_argument, NULL, OPT_CLAIM },
	{ "analyze", required_argument, NULL, OPT_ANALYZE },
	{ "restore", required_argument, NULL, OPT_RESTORE },
	{ "blocksize", required_argument, NULL, 'b' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "count", required_argument, NULL, 'c' },
	{ "open-au-nr", required_argument, NULL, OPT_OPEN_AU_NR },
	{ "random", no_argument, NULL, 'r' },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "fat-nr", required_argument, NULL, OPT_FAT_NR },
	{ "scatter-order", required_argument, NULL, OPT_SCATTER_ORDER },
	{ "scatter-span", required_argument, NULL, OPT_SCATTER_SPAN },
	{ "interval-order", required_argument, NULL, OPT_INTERVAL_ORDER },
	{ "destructive", no_argument, NULL, OPT_DESTRUCTIVE },
	{ "max-write", required_argument, NULL, OPT_MAX_WRITE },
	{ "on-error", required_argument, NULL, OPT_ON_ERROR },
	{ "preserve", no_argument, NULL, OPT_PRESERVE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "backup", required_argument, NULL, OPT_BACKUP },
	{ "out", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The long name of option code c, for messages. */
static const char *option_name(int c)
{
	for (const struct option *o = long_options; o->name; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

/* Sizes and numbers also as C read the original's: " 8" and "+8" are 8. */
static uint64_t size_arg(int c, const char *s)
{
	uint64_t v;
	if (parse_size(units_skip_c_prefix(s), &v) < 0)
		run_usage_error("--%s=%s: not a valid size (examples: 4096, 16K, 4MiB, 1.5M)",
			    option_name(c), s);
	return v;
}

static long long number_arg(int c, const char *s, long long min, long long max)
{
	long long v;
	if (parse_number(units_skip_c_prefix(s), min, max, &v) < 0)
		run_usage_error("--%s=%s: must be a whole number from %lld to %lld", option_name(c), s,
			    min, max);
	return v;
}


/* --offset: also octal with a leading 0, as the original read it (lib/units.h). */
static uint64_t offset_arg(int c, const char *s)
{
	uint64_t v;
	if (parse_offset(units_skip_c_prefix(s), &v) < 0)
		run_usage_error("--%s=%s: not a valid offset (examples: 33554432, 32M, 0x2000000; "
			    "a leading 0 is octal, as in the original)", option_name(c), s);
	return v;
}

static bool is_original_test(enum action a)
{
	for (int i = 0; i < NORIGINAL; i++)
		if (run_original_order[i] == a)
			return true;
	return false;
}

static void set_action(struct options *o, enum action a, const char *name)
{
	bool combine = is_original_test(a) && (o->action == ACT_NONE || is_original_test(o->action));

	if (o->action != ACT_NONE && o->action != a && !combine)
		run_usage_error("--%s: only one test at a time (already --%s)", name, o->action_opt);
	if (is_original_test(a))
		o->tests |= 1u << a;
	o->action = a;
	o->action_opt = name;
}

static int ntests(const struct options *o)
{
	return __builtin_popcount(o->tests);
}

static void parse_discard(struct options *o, const char *s)
{
	const char *colon = strchr(s, ':');
	char off[64];

	if (!colon || (size_t)(colon - s) >= sizeof off)
		run_usage_error("--discard=%s: expected OFFSET:LENGTH, e.g. 16M:4M", s);
	memcpy(off, s, (size_t)(colon - s));
	off[colon - s] = '\0';
	if (o->action == ACT_DISCARD)
		run_usage_error("--discard=%s: only one range at a time (already --discard=%" PRIu64 ":%"
			    PRIu64 ")", s, o->discard_off, o->discard_len);
	if (parse_size(off, &o->discard_off) < 0 || parse_size(colon + 1, &o->discard_len) < 0 ||
	    o->discard_len == 0)
		run_usage_error("--discard=%s: expected OFFSET:LENGTH with sizes, LENGTH not 0", s);
	set_action(o, ACT_DISCARD, "discard");
}

/* --claim=LIST: strict; a bad item is a usage error naming it. */
static void parse_claim(struct options *o, const char *arg)
{
	char err[256];

	if (o->claim_given)
		run_usage_error("--claim=%s: given twice (put every mark in one list)", arg);
	if (sd_claims_parse(arg, &o->claim, err, sizeof err) < 0)
		run_usage_error("--claim=%s: %s", arg, err);
	o->claim_given = true;
}

/* A file name option: given once, not empty (else the first would be ignored). */
static const char *path_arg(int c, const char *prev, const char *s)
{
	if (!*s)
		run_usage_error("--%s='': needs a file name", option_name(c));
	if (prev)
		run_usage_error("--%s=%s: given twice (already --%s=%s)", option_name(c), s,
			    option_name(c), prev);
	return s;
}

/* Test parameter c's value, once the tests are known (apply_test_numbers). */
static void set_test_number(struct params *p, int c, const char *arg)
{
	switch (c) {
	case 'b': p->blocksize = size_arg(c, arg); p->blocksize_set = true; break;
	case 'e':
		p->erasesize = size_arg(c, arg);
		p->erasesize_set = true;
		if (p->erasesize && !units_is_erase_candidate(p->erasesize))
			run_usage_error("--erasesize=%s: erase blocks are 2^n or 3*2^n bytes (e.g. 4M, 1.5M, 12M)",
				    arg);
		break;
	case 'c': p->count = number_arg(c, arg, 1, 1000000); break;
	case OPT_OPEN_AU_NR: p->open_au_nr = number_arg(c, arg, 1, 1024); break;
	case OPT_OFFSET: p->offset = offset_arg(c, arg); p->offset_set = true; break;
	case OPT_FAT_NR: p->fat_nr = number_arg(c, arg, 1, RATE_MAX_COLS); break;
	case OPT_SCATTER_ORDER: p->scatter_order = number_arg(c, arg, 0, 24); break;
	case OPT_SCATTER_SPAN: p->scatter_span = number_arg(c, arg, 1, 1 << 20); break;
	case OPT_INTERVAL_ORDER: p->interval_order = number_arg(c, arg, 1, 24); break;
	}
}

static void parse_option(struct options *o, int c, const char *arg)
{
	struct params *p = &o->p;

	if (c >= 0 && c < OPT_LAST)
		o->given[c] = arg ? arg : "";
	switch (c) {
	case 'a': set_action(o, ACT_ALIGN, "align"); break;
	case 'O': set_action(o, ACT_OPEN_AU, "open-au"); break;
	case 'f': set_action(o, ACT_FIND_FAT, "find-fat"); break;
	case 's': set_action(o, ACT_SCATTER, "scatter"); break;
	case 'i': set_action(o, ACT_INTERVAL, "interval"); break;
	case 'p': set_action(o, ACT_PROGRAM, "program"); break;
	case OPT_AUTO: set_action(o, ACT_AUTO, "auto"); break;
	case OPT_CAPACITY: set_action(o, ACT_CAPACITY, "capacity"); break;
	case OPT_CLASS: set_action(o, ACT_CLASS, "class"); break;
	case OPT_CLAIM: parse_claim(o, arg); break;
	case OPT_DISCARD: parse_discard(o, arg); break;
	case OPT_ANALYZE:
		o->analyze_file = path_arg(c, o->analyze_file, arg);
		set_action(o, ACT_ANALYZE, "analyze");
		break;
	case OPT_RESTORE:
		o->restore_file = path_arg(c, o->restore_file, arg);
		set_action(o, ACT_RESTORE, "restore");
		break;
	case 'r': p->random = true; break;
	case OPT_DESTRUCTIVE: o->destructive = true; break;
	case OPT_MAX_WRITE:
		o->max_write = size_arg(c, arg);
		o->max_write_set = true;
		if (o->max_write == 0)
			run_usage_error("--max-write=%s: must be more than 0 (leave it out for the default)",
				    arg);
		break;
	case OPT_FORCE: o->force = true; break;
	case OPT_ON_ERROR:
		if (strcmp(arg, "stop") == 0)
			p->on_read_error = p->on_write_error = VM_ERR_STOP;
		else if (strcmp(arg, "continue") == 0)
			p->on_read_error = p->on_write_error = VM_ERR_CONTINUE;
		else
			run_usage_error("--on-error=%s: must be 'stop' or 'continue'", arg);
		break;
	case OPT_PRESERVE: o->preserve = true; break;
	case OPT_BACKUP: o->backup = path_arg(c, o->backup, arg); break;
	case 'o': o->out = path_arg(c, o->out, arg); break;
	case OPT_JSON: o->json = true; break;
	case OPT_PLOT: o->plot = path_arg(c, o->plot, arg); break;
	case 'v': o->verbose = true; break;
	case 'h': usage();
	case 'V': printf("flashbench %s\n", FB_VERSION); exit(0);
	}
}

/* The original's long options: their unique prefixes keep their old meaning. */
static const char *const original_long[] = {
	"align", "blocksize", "count", "erasesize", "fat-nr", "findfat", "find-fat", "interval",
	"interval-order", "offset", "open-au", "open-au-nr", "out", "program", "random", "scatter",
	"scatter-order", "scatter-span", "verbose",
};

static int long_val(const char *name)
{
	for (const struct option *o = long_options; o->name; o++)
		if (!strcmp(o->name, name))
			return o->val;
	return -1;
}

static bool is_long_option(const char *name, size_t len)
{
	for (const struct option *o = long_options; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return true;
	return false;
}

/*
 * The original option that a prefix meant, or NULL: "--a" was --align,
 * "--b=" --blocksize, "--r" --random, "--ver" --verbose, even though newer
 * options (--analyze, --backup, --restore, --version) share the prefix.
 * Prefixes of no original option are left to getopt (unique ones work).
 */
static const char *original_meaning(const char *name, size_t len)
{
	const char *found = NULL;

	for (size_t i = 0; i < sizeof original_long / sizeof original_long[0]; i++) {
		const char *o = original_long[i];
		if (strncmp(o, name, len) != 0)
			continue;
		if (found && long_val(found) != long_val(o))
			return NULL;	/* ambiguous among the original's own: getopt says so */
		found = found ? found : o;
	}
	return found;
}

/* How many long options start with the name in arg ("name" or "name=value"). */
static int matching_options(const char *arg)
{
	size_t len = strcspn(arg, "=");
	int n = 0;

	for (const struct option *o = long_options; o->name; o++)
		n += len && strncmp(o->name, arg, len) == 0;
	return n;
}

/* Rewrites abbreviated original options in argv to their full names. */
static void expand_original_prefixes(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];
		if (!strcmp(arg, "--"))
			return;
		if (strncmp(arg, "--", 2) != 0 || !arg[2])
			continue;
		size_t len = strcspn(arg + 2, "=");
		if (is_long_option(arg + 2, len))
			continue;
		const char *full = original_meaning(arg + 2, len);
		if (!full)
			continue;
		size_t n = 2 + strlen(full) + strlen(arg + 2 + len) + 1;
		char *x = malloc(n);
		if (!x)
			continue;
		snprintf(x, n, "--%s%s", full, arg + 2 + len);
		argv[i] = x;	/* lives as long as the process */
	}
}

/* The first of the test parameters in codes (0-terminated) given, or 0. */
static int first_given(const struct options *o, const int *codes)
{
	for (; codes && *codes; codes++)
		if (o->given[*codes])
			return *codes;
	return 0;
}

/* Test parameters --auto chooses itself; all of them, for what runs no test. */
static const int auto_chooses[] = { 'b', 'e', 'r', OPT_OPEN_AU_NR, OPT_OFFSET, OPT_FAT_NR,
				    OPT_SCATTER_ORDER, OPT_SCATTER_SPAN, OPT_INTERVAL_ORDER, 0 };
static const int all_params[] = { 'b', 'e', 'c', 'r', OPT_OPEN_AU_NR, OPT_OFFSET, OPT_FAT_NR,
				   OPT_SCATTER_ORDER, OPT_SCATTER_SPAN, OPT_INTERVAL_ORDER,
				   OPT_ON_ERROR, 0 };

/* The test parameters each original test and --discard read (measure/measure.c). */
static const int *params_read_by(enum action a)
{
	static const int align[] = { 'b', 'c', 0 };
	static const int open_au[] = { 'b', 'e', 'r', OPT_OPEN_AU_NR, OPT_OFFSET, 0 };
	static const int find_fat[] = { 'b', 'e', 'r', OPT_FAT_NR, 0 };
	static const int scatter[] = { 'b', 'c', OPT_SCATTER_ORDER, OPT_SCATTER_SPAN, 0 };
	static const int interval[] = { 'c', OPT_INTERVAL_ORDER, OPT_OFFSET, 0 };
	static const int program[] = { OPT_OFFSET, 0 };
	static const int class[] = { 'e', 0 };
	static const int none[] = { 0 };

	switch (a) {
	case ACT_ALIGN: return align;
	case ACT_OPEN_AU: return open_au;
	case ACT_FIND_FAT: return find_fat;
	case ACT_SCATTER: return scatter;
	case ACT_INTERVAL: return interval;
	case ACT_PROGRAM: return program;
	case ACT_CLASS: return class;
	default: return none;
	}
}

static bool reads_param(enum action a, int code)
{
	for (const int *c = params_read_by(a); *c; c++)
		if (*c == code)
			return true;
	return false;
}

/* Does the action, or one of the original tests asked for, read parameter code? */
static bool param_is_read(const struct options *o, int code)
{
	bool read = code == OPT_ON_ERROR || (!o->tests && reads_param(o->action, code));

	for (int i = 0; i < NORIGINAL && !read; i++)
		read = (o->tests & 1u << run_original_order[i]) && reads_param(run_original_order[i], code);
	return read;
}

/* A test parameter after `after` that none of the tests asked for reads (0: none such). */
static int unread_param(const struct options *o, int after)
{
	const int *c = all_params;

	if (after)
		while (*c && *c++ != after)
			;
	for (; *c; c++)
		if (o->given[*c] && !param_is_read(o, *c))
			return *c;
	return 0;
}

/*
 * The test parameters' values. The original read each only in the tests
 * that use it: one that no test asked for reads has no effect whatever its
 * value (-a --scatter-span=0 ran), and check_not_honoured says so in one
 * line. Every value our own actions are given is checked.
 */
static void apply_test_numbers(struct options *o)
{
	static const int numbers[] = { 'b', 'e', 'c', OPT_OPEN_AU_NR, OPT_OFFSET, OPT_FAT_NR,
				       OPT_SCATTER_ORDER, OPT_SCATTER_SPAN, OPT_INTERVAL_ORDER, 0 };

	for (const int *c = numbers; *c; c++)
		if (o->given[*c] && (!o->tests || param_is_read(o, *c)))
			set_test_number(&o->p, *c, o->given[*c]);
}

/* Options the chosen action would not honour: refused, never ignored. */
static void check_not_honoured(const struct options *o)
{
	const char *a = o->action_opt;

	if (o->max_write_set && !(o->action == ACT_AUTO && o->destructive) && o->action != ACT_CLASS)
		run_usage_error("--max-write=%s: only with --auto --destructive or --class",
			    o->given[OPT_MAX_WRITE]);
	if (o->claim_given && o->action != ACT_CLASS && !(o->action == ACT_AUTO && o->destructive))
		run_usage_error("--claim=%s: only with --class or --auto --destructive",
			    o->given[OPT_CLAIM]);
	if (o->action == ACT_CLASS && o->given[OPT_ON_ERROR])
		run_usage_error("--on-error=%s: --class stops at the first failed I/O (no verdict from "
			    "I/O that failed)", o->given[OPT_ON_ERROR]);
	if (o->force && o->action != ACT_RESTORE)
		run_usage_error("--force: only with --restore");
	bool takes_none = o->action == ACT_ANALYZE || o->action == ACT_RESTORE ||
			  o->action == ACT_CAPACITY;
	int c = first_given(o, o->action == ACT_AUTO ? auto_chooses : takes_none ? all_params : NULL);
	if (c)
		run_usage_error("--%s%s%s: --%s %s", option_name(c), *o->given[c] ? "=" : "",
			    o->given[c], a, o->action == ACT_AUTO ? "chooses it itself" :
			    o->action == ACT_CAPACITY ? "takes no test parameters" : "runs no test");
	/*
	 * The original accepted its test parameters with any of its tests and
	 * ignored those the test does not read: old command lines keep running,
	 * told so in one line each (no test parameter changes what is
	 * protected). With our own tests (--discard) they stay refused.
	 */
	if (!takes_none && o->action != ACT_AUTO && o->tests)
		while ((c = unread_param(o, c)))
			warnx_fb("--%s%s%s: no effect on %s%s (accepted, as the original did)",
				 option_name(c), *o->given[c] ? "=" : "", o->given[c],
				 ntests(o) > 1 ? "" : "--",
				 ntests(o) > 1 ? "any of the tests asked for" : o->action_opt);
	else if (!takes_none && o->action != ACT_AUTO && (c = unread_param(o, 0)))
		run_usage_error("--%s%s%s: --%s does not use it", option_name(c), *o->given[c] ? "=" : "",
			    o->given[c], o->action_opt);
	if (o->action == ACT_ANALYZE || o->action == ACT_RESTORE) {
		if (o->out || o->plot || o->preserve || o->verbose ||
		    (o->action == ACT_RESTORE && o->json))
			run_usage_error("--%s: takes no %s", a,
				    o->out ? "--out" : o->plot ? "--plot" :
				    o->preserve ? "--preserve" : o->verbose ? "--verbose" : "--json");
		return;
	}
	/*
	 * --auto --destructive writes in many places, up to --max-write bytes
	 * over many runs: no single saved copy covers that, so it is refused.
	 */
	if (o->preserve && o->action == ACT_AUTO)
		run_usage_error("--preserve: not with --auto (its write phase writes up to --max-write "
			    "bytes all over the card); back the card up first, e.g. with dd");
	if (o->preserve && !run_action_writes(o))
		run_usage_error("--preserve: --%s writes nothing", a);
}

/* "--block-size=1k: unknown option; did you mean --blocksize=1k?" */
static void __attribute__((noreturn)) unknown_long_option(const char *bad)
{
	const char *names[sizeof long_options / sizeof long_options[0]];
	size_t n = 0;

	for (const struct option *o = long_options; o->name; o++)
		names[n++] = o->name;
	if (!strncmp(bad, "--", 2)) {
		size_t len = strcspn(bad + 2, "=");
		const char *meant = suggest_closest(bad + 2, len, names, n);
		if (meant)
			run_usage_error("%s: unknown option; did you mean --%s%s?", bad, meant,
				    bad + 2 + len);
	}
	run_usage_error("%s: unknown option (see --help)", bad);
}

static void parse_args(struct options *o, int argc, char **argv)
{
	int c;

	memset(o, 0, sizeof *o);
	run_options_parsed = o;
	params_defaults(&o->p);
	o->max_write = 0;	/* auto_run's default: 1024 erase blocks, at least 1GiB */
	opterr = 0;
	expand_original_prefixes(argc, argv);
	while ((c = getopt_long(argc, argv, ":aOfsipb:e:c:rF:o:vhV", long_options, NULL)) != -1) {
		if (c == '?') {
			if (optopt)
				run_usage_error("-%c: unknown option (see --help)", optopt);
			const char *bad = argv[optind - 1];
			if (!strncmp(bad, "--", 2) && matching_options(bad + 2) > 1)
				run_usage_error("%s: ambiguous, could be several options (see --help)", bad);
			unknown_long_option(bad);
		}
		if (c == ':')
			run_usage_error("%s: needs a value", argv[optind - 1]);
		if (c == 'F')	/* the original's short form of --fat-nr */
			c = OPT_FAT_NR;
		parse_option(o, c, optarg);
	}
	apply_test_numbers(o);
	int rest = argc - optind;
	if (o->action == ACT_ANALYZE) {
		if (rest > 0)
			run_usage_error("--analyze=%s: takes no device (got '%s')", o->analyze_file, argv[optind]);
		check_not_honoured(o);
		return;
	}
	if (rest == 0)
		run_usage_error("no device given (see --help)");
	if (rest > 1)
		run_usage_error("%s: only one device at a time (also got '%s')", argv[optind], argv[optind + 1]);
	o->device = argv[optind];
	if (!*o->device)
		run_usage_error("'': an empty device name");
	if (o->destructive && o->action != ACT_AUTO)
		run_usage_error("--destructive: belongs to --auto%s%s (flashbench --auto --destructive %s)",
			    o->action == ACT_NONE ? "" : ", not --",
			    o->action == ACT_NONE ? "" : o->action_opt, o->device);
	if (o->action == ACT_NONE)
		run_usage_error("%s: no test chosen: use -a, -O, -f, -s, -i, -p, --discard, --capacity, "
			    "--class or --auto",
			    o->device);
	if (o->backup && !o->preserve && o->action != ACT_CAPACITY && o->action != ACT_CLASS)
		run_usage_error("--backup=%s: only with --preserve", o->backup);
	if ((o->tests & 1u << ACT_INTERVAL) && o->p.interval_order < 0)
		run_usage_error("--interval: needs --interval-order=N");
	if (o->plot && (strlen(o->plot) < 5 || strcmp(o->plot + strlen(o->plot) - 4, ".svg") != 0))
		run_usage_error("--plot=%s: the plot is SVG: name the file FILE.svg", o->plot);
	if (ntests(o) > 1) {
		if (o->json)
			run_usage_error("--json: one test at a time (several tests asked for)");
		if (o->plot)
			run_usage_error("--plot=%s: one test at a time (several tests asked for)", o->plot);
		if (o->preserve)
			run_usage_error("--preserve: one test at a time (several tests asked for)");
	}
	if (o->plot && (o->action == ACT_DISCARD || o->action == ACT_CAPACITY))
		run_usage_error("--plot=%s: the --%s test has nothing to plot", o->plot, o->action_opt);
	check_not_honoured(o);
}

/*
 * A closed standard stream would be reused by the next open(): the device
 * would become fd 1 and results would land at its offset 0.
 */
static void open_std_streams(void)
{
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (n != fd)
			_exit(1);	/* nowhere to say so, and nothing opened yet */
	}
}

/* --restore prints its messages on stderr; with --json, stdout still gets a document. */
static int restore_with_status(const struct options *o)
{
	int rc = restore_command_opts(o->restore_file, o->device, o->force);

	if (json_requested()) {
		if (rc) {
			json_error_document(stdout, "restore", o->device,
					    "the restore failed (the reason is on standard error)");
		} else {
			struct jw w;
			struct run_status done = {0};

			jw_init(&w, stdout);
			jw_object_begin(&w, NULL);
			json_envelope(&w, "restore");
			jw_object_begin(&w, "device");
			jw_string(&w, "name", o->device);
			jw_object_end(&w);
			json_status(&w, &done);
			jw_object_end(&w);
			jw_finish(&w);
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	open_std_streams();
	json_set_run(argc, argv);
	/* from the first moment: a signal before any I/O ends the run at once, said (--json) */
	safety_install_signals();
	safety_signals_idle(true);
	atexit(run_check_stdout_at_exit);
	parse_args(&o, argc, argv);
	run_prepare_interrupted_document(&o);
	if (o.action != ACT_ANALYZE)
		run_check_outputs(&o);
	if (o.action == ACT_ANALYZE)
		return analyze_cmd_file(o.analyze_file, o.json, stdout);
	if (o.action == ACT_RESTORE)
		return restore_with_status(&o);
	return run_device(&o);
}
