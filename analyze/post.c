/*
 * Parser of saved flashbench output. Works on whitespace-separated tokens,
 * so it does not care whether line breaks survived. A run is a sequence of
 * rows whose boundary / block size keeps decreasing; junk between rows
 * (error messages, stray words) is skipped, and a `flashbench` command, a
 * `^C` or a row that does not continue the sequence ends the run.
 */
#include "analyze/post.h"
#include "analyze/post_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"

#define RUN_MAX_ROWS 128	/* -a rows; sizes halve, so real runs have far fewer */
#define RATE_MAX_ROWS 48
#define MAX_RUNS 1024		/* a post holds dozens; more is not a post */
#define CMD_MAX_TOKENS 16

/* ---------- parser state ---------- */

enum cmd_test { TEST_UNKNOWN, TEST_ALIGN, TEST_OPEN_AU, TEST_FIND_FAT };

struct ctx {
	bool from_command;	/* a flashbench command set this context */
	bool consumed;		/* a run already used it */
	enum cmd_test test;
	bool random;
	bool nr_set, fat_nr_set, es_set, bs_set, off_set;
	long long nr, fat_nr;
	uint64_t erasesize, blocksize, offset;
	char command[192];
	int command_tokens;
	bool in_command;	/* still reading the command's arguments */
	bool header;		/* a wrapper script's header ("AU=3, random access"), not a command */
	bool mode_word;		/* "linear" or "random" said in a header or banner */
	char unknown_opt[32];	/* the first option not understood */
	long long unknown_val;
};

struct parser {
	struct post *out;
	struct ctx ctx;
	/* the run being read */
	bool active;
	enum post_kind kind;
	struct align_row *arows;
	struct rate_row *rrows;
	int nrows;
	int ncols;
	bool interrupted;
	int nfailures;
	bool pending_failure;
	/* identity seen since the last section started */
	char pending_name[48];
	uint64_t pending_pes;
	bool section_has_other_runs;
	bool oom;
	/* a header naming each column's N ("1 AU 2 AU 3 AU"), for the next table */
	long long col_nrs[RATE_MAX_COLS];
	int ncol_hdr;
};

static void ctx_reset(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
}

static void command_append(struct ctx *c, const char *t)
{
	if (!c->in_command || c->command_tokens >= CMD_MAX_TOKENS)
		return;
	size_t n = strlen(c->command);
	if (n + 2 >= sizeof(c->command))
		return;
	fmt_append(c->command, sizeof(c->command), "%s%s", n ? " " : "", t);
	c->command_tokens++;
}

static bool is_command_token(const char *t)
{
	const char *base = strrchr(t, '/');
	base = base ? base + 1 : t;
	return strcmp(base, "flashbench") == 0;
}

/* ---------- options ---------- */

enum opt_id {
	OPT_NONE, OPT_ALIGN, OPT_OPEN_AU, OPT_OPEN_AU_NR, OPT_RANDOM, OPT_FIND_FAT,
	OPT_FAT_NR, OPT_ERASESIZE, OPT_BLOCKSIZE, OPT_COUNT, OPT_OFFSET,
	OPT_OTHER		/* the tool's, with no bearing on the data read here */
};

struct opt_name {
	const char *name;
	enum opt_id id;
	bool value;
};

static const struct opt_name long_opts[] = {
	{ "align", OPT_ALIGN, false }, { "open-au", OPT_OPEN_AU, false },
	{ "open-au-nr", OPT_OPEN_AU_NR, true }, { "random", OPT_RANDOM, false },
	{ "find-fat", OPT_FIND_FAT, false }, { "findfat", OPT_FIND_FAT, false },
	{ "fat-nr", OPT_FAT_NR, true }, { "erasesize", OPT_ERASESIZE, true },
	{ "blocksize", OPT_BLOCKSIZE, true }, { "count", OPT_COUNT, true },
	{ "offset", OPT_OFFSET, true },
	{ "scatter", OPT_OTHER, false }, { "interval", OPT_OTHER, false },
	{ "program", OPT_OTHER, false }, { "discard", OPT_OTHER, true },
	{ "auto", OPT_OTHER, false }, { "capacity", OPT_OTHER, false },
	{ "analyze", OPT_OTHER, true }, { "restore", OPT_OTHER, true },
	{ "scatter-order", OPT_OTHER, true }, { "scatter-span", OPT_OTHER, true },
	{ "interval-order", OPT_OTHER, true }, { "destructive", OPT_OTHER, false },
	{ "max-write", OPT_OTHER, true }, { "on-error", OPT_OTHER, true },
	{ "preserve", OPT_OTHER, false }, { "force", OPT_OTHER, false },
	{ "backup", OPT_OTHER, true }, { "out", OPT_OTHER, true }, { "json", OPT_OTHER, false },
	{ "plot", OPT_OTHER, true }, { "verbose", OPT_OTHER, false },
	{ "help", OPT_OTHER, false }, { "version", OPT_OTHER, false },
	{ NULL, OPT_NONE, false }
};

/* Exact name, else a unique prefix (as getopt_long allows). */
static const struct opt_name *find_long(const char *name, size_t len)
{
	const struct opt_name *hit = NULL;
	int nhits = 0;
	for (const struct opt_name *o = long_opts; o->name; o++) {
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
		if (len >= 3 && strncmp(o->name, name, len) == 0) {
			hit = o;
			nhits++;
		}
	}
	return nhits == 1 ? hit : NULL;
}

static const struct opt_name *find_short(char c)
{
	static const struct opt_name shorts[] = {
		{ "a", OPT_ALIGN, false }, { "O", OPT_OPEN_AU, false },
		{ "r", OPT_RANDOM, false }, { "f", OPT_FIND_FAT, false },
		{ "e", OPT_ERASESIZE, true }, { "b", OPT_BLOCKSIZE, true },
		{ "c", OPT_COUNT, true }, { "s", OPT_OTHER, false }, { "i", OPT_OTHER, false },
		{ "p", OPT_OTHER, false }, { "o", OPT_OTHER, true }, { "v", OPT_OTHER, false },
		{ "h", OPT_OTHER, false }, { "V", OPT_OTHER, false }, { NULL, OPT_NONE, false }
	};
	for (const struct opt_name *o = shorts; o->name; o++)
		if (o->name[0] == c)
			return o;
	return NULL;
}

static void apply_option(struct ctx *c, enum opt_id id, const char *value)
{
	uint64_t v = 0;
	bool ok = value && post_eval_size(value, &v) == 0;
	switch (id) {
	case OPT_ALIGN: c->test = TEST_ALIGN; break;
	case OPT_OPEN_AU: c->test = TEST_OPEN_AU; break;
	case OPT_FIND_FAT: c->test = TEST_FIND_FAT; break;
	case OPT_RANDOM: c->random = true; break;
	case OPT_OPEN_AU_NR:
		if (ok && v >= 1 && v <= 4096) {
			c->nr = (long long)v;
			c->nr_set = true;
		}
		if (c->test == TEST_UNKNOWN)
			c->test = TEST_OPEN_AU;
		break;
	case OPT_FAT_NR:
		if (ok && v >= 1 && v <= RATE_MAX_COLS) {
			c->fat_nr = (long long)v;
			c->fat_nr_set = true;
		}
		break;
	case OPT_ERASESIZE:
		if (ok && v > 0) {
			c->erasesize = v;
			c->es_set = true;
		}
		break;
	case OPT_BLOCKSIZE:
		if (ok && v > 0) {
			c->blocksize = v;
			c->bs_set = true;
		}
		break;
	case OPT_OFFSET:
		if (ok) {
			c->offset = v;
			c->off_set = true;
		}
		break;
	case OPT_COUNT:
	case OPT_OTHER:
	case OPT_NONE:
		break;
	}
}

/* "-0", "-q", "--au-count=7": shaped like an option (of a patched build, say) */
static bool option_shaped(const char *t)
{
	if (t[0] != '-')
		return false;
	if (t[1] == '-') {
		if (!isalpha((unsigned char)t[2]))
			return false;
		for (const char *p = t + 2; *p && *p != '='; p++)
			if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
				return false;
		return true;
	}
	if (!isalnum((unsigned char)t[1]))
		return false;
	if (!t[2])
		return true;
	for (const char *p = t + 1; *p; p++)
		if (!isalpha((unsigned char)*p))
			return false;
	return true;
}

/*
 * An option of the command that this parser does not know: remembered
 * (the first one) with a plain number after it as its value. Such a
 * command's N is not the default: a patched build's "-0 7" was the count.
 */
static int read_unknown_option(struct ctx *c, char **tok, int i, int n)
{
	const char *t = tok[i];
	if (!c->in_command || !option_shaped(t))
		return 0;
	int used = 1;
	long long v = 0;
	const char *eq = strchr(t, '=');
	char *end;
	if (eq && eq[1]) {
		v = strtoll(eq + 1, &end, 10);
		if (*end)
			v = 0;
	} else if (i + 1 < n && isdigit((unsigned char)tok[i + 1][0])) {
		v = strtoll(tok[i + 1], &end, 10);
		if (*end)
			v = 0;
		else
			used = 2;
	}
	if (!c->unknown_opt[0]) {
		snprintf(c->unknown_opt, sizeof(c->unknown_opt), "%.*s", eq ? (int)(eq - t) : 31, t);
		c->unknown_val = v > 0 && v <= 4096 ? v : 0;
	}
	return used;
}

/* Returns how many tokens the option used (1 or 2), 0 if t is not an option. */
static int read_option(struct ctx *c, char **tok, int i, int n)
{
	const char *t = tok[i];
	const struct opt_name *o = NULL;
	const char *value = NULL;
	if (t[0] != '-' || !t[1])
		return 0;
	if (t[1] == '-') {
		const char *name = t + 2;
		const char *eq = strchr(name, '=');
		o = find_long(name, eq ? (size_t)(eq - name) : strlen(name));
		if (eq)
			value = eq + 1;
	} else if (isalpha((unsigned char)t[1])) {
		o = find_short(t[1]);
		if (o && t[2])
			value = o->value ? t + 2 : NULL;
		if (o && t[2] && !o->value)
			o = NULL;	/* "-abc": not ours */
	}
	if (!o)
		return 0;
	int used = 1;
	uint64_t probe;
	if (o->value && !value && i + 1 < n && post_eval_size(tok[i + 1], &probe) == 0) {
		value = tok[i + 1];
		used = 2;
	}
	apply_option(c, o->id, value);
	return used;
}

/* ---------- runs ---------- */

static bool align_runs_equal(const struct align_result *a, const struct align_result *b)
{
	if (a->nrows != b->nrows)
		return false;
	for (int i = 0; i < a->nrows; i++)
		if (a->rows[i].align != b->rows[i].align || a->rows[i].diff_ns != b->rows[i].diff_ns)
			return false;
	return true;
}

static bool rate_runs_equal(const struct rate_result *a, const struct rate_result *b)
{
	if (a->nrows != b->nrows || a->nr != b->nr || a->random != b->random)
		return false;
	for (int i = 0; i < a->nrows; i++) {
		const struct rate_row *x = &a->rows[i], *y = &b->rows[i];
		if (x->blocksize != y->blocksize || x->ncols != y->ncols)
			return false;
		for (int c = 0; c < x->ncols; c++)
			if (x->rate[c] != y->rate[c])
				return false;
	}
	return true;
}

/* Quotes repeat recent runs; looking further back only costs time. */
#define DUP_WINDOW 64

static bool is_duplicate(const struct post *p, const struct post_run *r)
{
	for (int i = p->nruns > DUP_WINDOW ? p->nruns - DUP_WINDOW : 0; i < p->nruns; i++) {
		const struct post_run *q = &p->runs[i];
		if (q->kind != r->kind)
			continue;
		if (q->unknown_value != r->unknown_value)
			continue;	/* "-0 1", "-0 2": runs of a sequence, however alike */
		if (r->kind == POST_ALIGN ? align_runs_equal(&q->align, &r->align)
					  : rate_runs_equal(&q->rates, &r->rates))
			return true;
	}
	return false;
}

static int new_section(struct parser *ps)
{
	struct post *p = ps->out;
	struct post_section *s = realloc(p->sections, sizeof(*s) * (size_t)(p->nsections + 1));
	if (!s)
		return -1;
	p->sections = s;
	s = &p->sections[p->nsections++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", ps->pending_name);
	s->preferred_erase_size = ps->pending_pes;
	ps->pending_name[0] = 0;
	ps->pending_pes = 0;
	ps->section_has_other_runs = false;
	return 0;
}

/* An -a run after other runs, or after another card's sysfs dump, starts a card. */
static int section_for(struct parser *ps, enum post_kind kind)
{
	struct post *p = ps->out;
	bool need = p->nsections == 0;
	if (kind == POST_ALIGN && p->nsections > 0) {
		const struct post_section *cur = &p->sections[p->nsections - 1];
		if (ps->section_has_other_runs)
			need = true;
		else if (ps->pending_name[0] && strcmp(ps->pending_name, cur->name) != 0)
			need = true;
	}
	if (need && new_section(ps))
		return -1;
	if (kind != POST_ALIGN)
		ps->section_has_other_runs = true;
	return p->nsections - 1;
}

static void fill_align(struct parser *ps, struct post_run *r)
{
	struct ctx *c = &ps->ctx;
	bool use_ctx = c->from_command && !c->consumed && c->test != TEST_OPEN_AU &&
		       c->test != TEST_FIND_FAT;
	struct align_result *a = &r->align;
	a->rows = ps->arows;
	a->nrows = ps->nrows;
	a->count = 0;
	a->blocksize = use_ctx && c->bs_set ? c->blocksize : a->rows[a->nrows - 1].align / 2;
	a->st.interrupted = ps->interrupted;
	a->st.nfailures = ps->nfailures;
	a->st.partial = ps->interrupted || ps->nfailures > 0;
}

static void fill_rates(struct parser *ps, struct post_run *r)
{
	struct ctx *c = &ps->ctx;
	bool fat_data = ps->ncols > 1;
	bool use_ctx = c->from_command && !c->consumed &&
		       (c->test == TEST_UNKNOWN ||
			c->test == (fat_data ? TEST_FIND_FAT : TEST_OPEN_AU) ||
			(c->test == TEST_FIND_FAT && !fat_data));
	struct rate_result *rr = &r->rates;
	rr->rows = ps->rrows;
	rr->nrows = ps->nrows;
	r->kind = fat_data || (use_ctx && c->test == TEST_FIND_FAT) ? POST_FIND_FAT : POST_OPEN_AU;
	/* --auto's runs start below the erase size and say so: "# holds, rows from 2MiB" */
	rr->erasesize = use_ctx && c->es_set && strstr(c->command, "rows from") &&
			c->erasesize > rr->rows[0].blocksize && c->erasesize % rr->rows[0].blocksize == 0 ?
			c->erasesize : rr->rows[0].blocksize;
	uint64_t last = rr->rows[rr->nrows - 1].blocksize;
	rr->blocksize = last;
	if (use_ctx && c->bs_set && c->blocksize < last) {
		rr->blocksize = c->blocksize;
		rr->st.partial = true;	/* the run was cut before its last row */
	}
	rr->offset = use_ctx && c->off_set ? c->offset : 0;
	rr->random = use_ctx && c->random;
	/* a command's -O without --random is linear; a header or banner says so in words */
	r->mode_stated = use_ctx && (c->random || c->mode_word ||
				     (c->test == TEST_OPEN_AU && !c->header));
	if (use_ctx && c->unknown_opt[0]) {
		snprintf(r->unknown_option, sizeof(r->unknown_option), "%s", c->unknown_opt);
		r->unknown_value = c->unknown_val;
	}
	if (r->kind == POST_FIND_FAT) {
		rr->nr = ps->ncols;
		r->nr_stated = true;
	} else if (use_ctx && c->nr_set) {
		rr->nr = c->nr;
		r->nr_stated = true;
	} else if (use_ctx && c->test == TEST_OPEN_AU && !c->header && !c->unknown_opt[0]) {
		rr->nr = 2;	/* the original's default */
		r->nr_stated = true;
	}
	rr->st.interrupted = ps->interrupted;
	rr->st.nfailures = ps->nfailures;
	if (ps->interrupted || ps->nfailures)
		rr->st.partial = true;
}

static void run_reset(struct parser *ps)
{
	ps->active = false;
	ps->arows = NULL;
	ps->rrows = NULL;
	ps->nrows = 0;
	ps->ncols = 0;
	ps->interrupted = false;
	ps->nfailures = 0;
}

static void keep_run(struct parser *ps, struct post_run *r)
{
	struct post *p = ps->out;
	bool keep = p->nruns < MAX_RUNS && !is_duplicate(p, r);
	struct post_run *runs = p->runs;
	if (keep && (p->nruns & (p->nruns - 1)) == 0)	/* grow at powers of two */
		runs = realloc(p->runs, sizeof(*runs) * (size_t)(p->nruns ? 2 * p->nruns : 1));
	int section = keep && runs ? section_for(ps, r->kind) : -1;
	if (keep && (!runs || section < 0)) {
		if (runs)
			p->runs = runs;
		ps->oom = true;
		keep = false;
	}
	if (keep) {
		p->runs = runs;
		r->section = section;
		p->runs[p->nruns++] = *r;
	} else {
		free(r->align.rows);
		free(r->rates.rows);
	}
}

/*
 * A table with one --open-au run per column: under a header naming each
 * column's N ("1 AU 2 AU 3 AU", the first open-AU format), or after a
 * command that ran --open-au (N unknown then). Not --find-fat.
 */
static bool columns_are_runs(const struct parser *ps)
{
	const struct ctx *c = &ps->ctx;
	if (ps->kind == POST_ALIGN || ps->ncols < 2)
		return false;
	if (ps->ncol_hdr == ps->ncols)
		return true;
	return c->from_command && !c->consumed && c->test == TEST_OPEN_AU;
}

static void split_columns(struct parser *ps, const struct post_run *all)
{
	for (int col = 0; col < ps->ncols && !ps->oom; col++) {
		struct post_run r = *all;
		struct rate_row *rows = calloc((size_t)all->rates.nrows, sizeof(*rows));
		if (!rows) {
			ps->oom = true;
			return;
		}
		int k = 0;
		for (int i = 0; i < all->rates.nrows; i++) {
			const struct rate_row *src = &all->rates.rows[i];
			if (col >= src->ncols)
				continue;
			rows[k].blocksize = src->blocksize;
			rows[k].ncols = 1;
			rows[k].rate[0] = src->rate[col];
			rows[k].bytes[0] = src->bytes[col];
			rows[k].ns[0] = src->ns[col];
			rows[k].failed[0] = src->failed[col];
			k++;
		}
		r.kind = POST_OPEN_AU;
		r.rates.rows = rows;
		r.rates.nrows = k;
		/* a column that lacks the table's first rows starts lower: the table's
		 * erase size where its rows halve down from it, else its own first row */
		if (k && (r.rates.erasesize < rows[0].blocksize || r.rates.erasesize % rows[0].blocksize))
			r.rates.erasesize = rows[0].blocksize;
		r.align.rows = NULL;
		bool hdr = ps->ncol_hdr == ps->ncols;
		r.rates.nr = hdr ? ps->col_nrs[col] : 0;
		r.nr_stated = hdr;
		if (k)
			keep_run(ps, &r);
		else
			free(rows);
	}
}

static void finish_run(struct parser *ps)
{
	if (!ps->active)
		return;
	struct post_run r;
	memset(&r, 0, sizeof(r));
	r.kind = ps->kind;
	bool split = columns_are_runs(ps);
	if (ps->kind == POST_ALIGN)
		fill_align(ps, &r);
	else
		fill_rates(ps, &r);
	if (ps->ctx.from_command && !ps->ctx.consumed)
		snprintf(r.command, sizeof(r.command), "%s", ps->ctx.command);
	if (split) {
		/* the mode and N come from the command or header, not --find-fat's reading */
		struct ctx *c = &ps->ctx;
		bool use_ctx = c->from_command && !c->consumed;
		r.rates.random = use_ctx && c->random;
		r.mode_stated = use_ctx && (c->random || c->mode_word ||
					    (c->test == TEST_OPEN_AU && !c->header));
		split_columns(ps, &r);
		free(ps->rrows);
		ps->rrows = NULL;
	}
	ps->ncol_hdr = 0;
	ps->ctx.consumed = true;
	ps->ctx.in_command = false;
	if (!split)
		keep_run(ps, &r);
	run_reset(ps);
}

static void start_run(struct parser *ps, enum post_kind kind)
{
	finish_run(ps);
	ps->active = true;
	ps->kind = kind;
}

static void add_align_row(struct parser *ps, const struct align_row *row)
{
	bool continues = ps->active && ps->kind == POST_ALIGN && ps->nrows < RUN_MAX_ROWS &&
			 row->align < ps->arows[ps->nrows - 1].align;
	if (!continues)
		start_run(ps, POST_ALIGN);
	struct align_row *rows = realloc(ps->arows, sizeof(*rows) * (size_t)(ps->nrows + 1));
	if (!rows) {
		ps->oom = true;
		return;
	}
	ps->arows = rows;
	rows[ps->nrows] = *row;
	if (ps->pending_failure) {
		rows[ps->nrows].failed = true;
		ps->nfailures++;
		ps->pending_failure = false;
	}
	ps->nrows++;
}

static void add_rate_row(struct parser *ps, uint64_t size, const double *rates, int n)
{
	if (ps->active && ps->kind != POST_ALIGN && ps->nrows > 0 &&
	    size == ps->rrows[ps->nrows - 1].blocksize)
		return;		/* a row pasted twice */
	bool continues = ps->active && ps->kind != POST_ALIGN && ps->nrows < RATE_MAX_ROWS &&
			 size < ps->rrows[ps->nrows - 1].blocksize;
	if (!continues)
		start_run(ps, POST_OPEN_AU);
	struct rate_row *rows = realloc(ps->rrows, sizeof(*rows) * (size_t)(ps->nrows + 1));
	if (!rows) {
		ps->oom = true;
		return;
	}
	ps->rrows = rows;
	struct rate_row *r = &rows[ps->nrows++];
	memset(r, 0, sizeof(*r));
	r->blocksize = size;
	r->ncols = n;
	for (int c = 0; c < n; c++) {
		bool mangled = rates[c] < 0;	/* a cell cut short: unknown, not an I/O error */
		r->rate[c] = mangled ? 0 : rates[c];
		r->bytes[c] = size;
		r->ns[c] = rates[c] > 0 ? (int64_t)(1e9 * (double)size / rates[c]) : 0;
		r->failed[c] = ps->pending_failure || mangled;
	}
	if (ps->pending_failure) {
		ps->nfailures++;
		ps->pending_failure = false;
	}
	if (n > ps->ncols)
		ps->ncols = n;
}

/*
 * "308s" in an -a row: the µ was lost on the way (encoding damage). No
 * read of a block takes seconds, so such a field is read as µs and counted.
 */
static bool lost_micro(const char *tok, int64_t ns)
{
	size_t len = strlen(tok);
	return len >= 2 && tok[len - 1] == 's' && isdigit((unsigned char)tok[len - 2]) &&
	       llabs(ns) >= 1000000000ll;
}

/*
 * A number cut short where the original's fixed-size fields truncated it:
 * "1.02e+0" (its %g exponents have two digits), "1.5e".
 */
static bool is_mangled_number(const char *t)
{
	const char *p = t;
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (*p != 'e' && *p != 'E')
		return false;
	p++;
	if (*p == '+' || *p == '-')
		p++;
	if (isdigit((unsigned char)*p))
		p++;
	return *p == 0;
}

/*
 * "align N pre T on T post T diff T" from tok[i]: the tokens used, 0 if
 * none. *usable is false for a row whose diff was lost to a mangled cell:
 * its tokens are used (the table goes on), the row is not.
 */
static int read_align_row(char **tok, int i, int n, struct align_row *row, int *repaired,
			  int *mangled, bool *usable)
{
	*usable = true;
	uint64_t align;
	if (i + 1 >= n || strcmp(tok[i], "align") != 0 || post_eval_size(tok[i + 1], &align) ||
	    !post_is_numeric_token(tok[i + 1]) || align == 0)
		return 0;
	memset(row, 0, sizeof(*row));
	row->align = align;
	static const char *const names[] = { "pre", "on", "post", "diff" };
	bool have[4] = { false, false, false, false };
	int64_t *dst[4] = { &row->pre_ns, &row->on_ns, &row->post_ns, &row->diff_ns };
	int j = i + 2;
	while (j + 1 < n) {
		int k;
		for (k = 0; k < 4; k++)
			if (!have[k] && strcmp(tok[j], names[k]) == 0)
				break;
		if (k < 4 && is_mangled_number(tok[j + 1])) {
			(*mangled)++;
			j += 2;
			continue;
		}
		if (k == 4 || post_parse_time(tok[j + 1], dst[k]))
			break;
		if (lost_micro(tok[j + 1], *dst[k])) {
			*dst[k] /= 1000000;
			(*repaired)++;
		}
		have[k] = true;
		j += 2;
	}
	if (!have[3]) {
		if (!(have[0] && have[1] && have[2])) {
			if (j - i > 2 && *mangled) {
				*usable = false;
				return j - i;
			}
			return 0;
		}
		row->diff_ns = row->on_ns - (row->pre_ns + row->post_ns) / 2;
	}
	row->positions = 0;
	return j - i;
}

static int read_rate_row(struct parser *ps, char **tok, int i, int n)
{
	uint64_t size;
	double rates[RATE_MAX_COLS];
	int k = 0;
	if (post_parse_size(tok[i], &size))
		return 0;
	while (i + 1 + k < n && k < RATE_MAX_COLS) {
		if (post_parse_rate(tok[i + 1 + k], &rates[k]) == 0) {
			k++;
		} else if (is_mangled_number(tok[i + 1 + k])) {
			rates[k++] = -1;
			ps->out->mangled_cells++;
		} else {
			break;
		}
	}
	if (k == 0)
		return 0;
	add_rate_row(ps, size, rates, k);
	return 1 + k;
}

static bool is_error_token(const char *t)
{
	size_t n = strlen(t);
	return strncmp(t, "time_", 5) == 0 ||
	       (n >= 5 && strcmp(t + n - 5, "error") == 0) ||
	       (n >= 6 && strcmp(t + n - 6, "error:") == 0);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* sysfs dumps: "==> .../preferred_erase_size <== 4194304", ".../name <== SU04G", MMC_NAME=X */
static int read_identity(struct parser *ps, char **tok, int i, int n)
{
	const char *t = tok[i];
	if (strncmp(t, "MMC_NAME=", 9) == 0 && t[9]) {
		snprintf(ps->pending_name, sizeof(ps->pending_name), "%s", t + 9);
		return 1;
	}
	if (i + 2 >= n || strcmp(tok[i + 1], "<==") != 0)
		return 0;
	uint64_t v;
	if (ends_with(t, "/preferred_erase_size") && post_eval_size(tok[i + 2], &v) == 0) {
		ps->pending_pes = v;
		return 3;
	}
	if (ends_with(t, "/name") && strcmp(tok[i + 2], "==>") != 0) {
		snprintf(ps->pending_name, sizeof(ps->pending_name), "%s", tok[i + 2]);
		return 3;
	}
	return 0;
}

/* "AU=3," "AUs=3" (a wrapper script's header): the N, 0 if not one */
static long long au_label(const char *t)
{
	size_t k = strncasecmp(t, "AUs=", 4) == 0 ? 4 : strncasecmp(t, "AU=", 3) == 0 ? 3 : 0;
	if (!k || !isdigit((unsigned char)t[k]))
		return 0;
	char *end;
	long long v = strtoll(t + k, &end, 10);
	return (*end == 0 || strcmp(end, ",") == 0 || strcmp(end, ":") == 0) && v >= 1 && v <= 4096 ? v : 0;
}

/* one column label of the first open-AU format: "1 AU", "1AU", "2 AUs", "AU=1"; tokens used */
static int column_label(char **tok, int i, int n, long long *nr)
{
	char *end;
	if ((*nr = au_label(tok[i])) > 0)
		return 1;
	if (!isdigit((unsigned char)tok[i][0]))
		return 0;
	long long v = strtoll(tok[i], &end, 10);
	if (v < 1 || v > 4096)
		return 0;
	*nr = v;
	if (strcasecmp(end, "AU") == 0 || strcasecmp(end, "AUs") == 0)
		return 1;
	if (*end == 0 && i + 1 < n &&
	    (strcasecmp(tok[i + 1], "AU") == 0 || strcasecmp(tok[i + 1], "AUs") == 0))
		return 2;
	return 0;
}

/* a header of two or more column labels with N going up; tokens used, 0 if none */
static int read_column_header(struct parser *ps, char **tok, int i, int n)
{
	long long nrs[RATE_MAX_COLS];
	int k = 0, j = i, used;
	while (j < n && k < RATE_MAX_COLS && (used = column_label(tok, j, n, &nrs[k])) > 0) {
		if (k && nrs[k] <= nrs[k - 1])
			break;
		k++;
		j += used;
	}
	if (k < 2)
		return 0;
	finish_run(ps);
	memcpy(ps->col_nrs, nrs, sizeof(nrs[0]) * (size_t)k);
	ps->ncol_hdr = k;
	return j - i;
}

/*
 * A wrapper script's header "AU=3, linear access" (or "random access"):
 * N and, when said, the mode of the run that follows, like a command.
 */
static int read_wrapper_header(struct parser *ps, char **tok, int i)
{
	long long nr = au_label(tok[i]);
	if (!nr)
		return 0;
	finish_run(ps);
	ctx_reset(&ps->ctx);
	ps->ctx.from_command = ps->ctx.header = ps->ctx.in_command = true;
	ps->ctx.test = TEST_OPEN_AU;
	ps->ctx.nr = nr;
	ps->ctx.nr_set = true;
	command_append(&ps->ctx, tok[i]);
	return 1;
}

/* "linear" / "random" in a header or banner ("Running flashbench ... random access") */
static bool read_mode_word(struct ctx *c, const char *t)
{
	if (!c->in_command || c->command_tokens >= CMD_MAX_TOKENS)
		return false;
	size_t len = strcspn(t, ",.:;)");
	if (t[len] && t[len + 1])
		return false;
	if (len == 6 && strncasecmp(t, "linear", 6) == 0) {
		c->mode_word = true;
		c->random = false;
		return true;
	}
	if (len == 6 && strncasecmp(t, "random", 6) == 0) {
		c->mode_word = c->random = true;
		return true;
	}
	return false;
}

/* A command after a wrapper header keeps what the header said unless it says otherwise. */
static void start_command(struct parser *ps, const char *t)
{
	finish_run(ps);
	struct ctx old = ps->ctx;
	ctx_reset(&ps->ctx);
	if (old.header && !old.consumed) {
		ps->ctx.nr = old.nr;
		ps->ctx.nr_set = old.nr_set;
		ps->ctx.random = old.random;
		ps->ctx.mode_word = old.mode_word;
		ps->ctx.test = TEST_OPEN_AU;
	}
	ps->ctx.from_command = true;
	ps->ctx.in_command = true;
	command_append(&ps->ctx, t);
}

static void parse_tokens(struct parser *ps, char **tok, int n)
{
	int i = 0;
	while (i < n && !ps->oom && ps->out->nruns < MAX_RUNS) {
		const char *t = tok[i];
		struct align_row arow;
		bool usable;
		int used;
		if (is_command_token(t)) {
			start_command(ps, t);
			i++;
		} else if (t[0] == '^') {
			if (ps->active)
				ps->interrupted = true;
			finish_run(ps);
			i++;
		} else if ((used = read_align_row(tok, i, n, &arow, &ps->out->repaired_times,
						  &ps->out->mangled_cells, &usable)) > 0) {
			ps->ctx.in_command = false;
			if (usable)
				add_align_row(ps, &arow);
			i += used;
		} else if ((used = read_rate_row(ps, tok, i, n)) > 0) {
			ps->ctx.in_command = false;
			i += used;
		} else if ((used = read_column_header(ps, tok, i, n)) > 0 ||
			   (used = read_wrapper_header(ps, tok, i)) > 0) {
			i += used;
		} else if ((used = read_option(&ps->ctx, tok, i, n)) > 0 ||
			   (used = read_unknown_option(&ps->ctx, tok, i, n)) > 0) {
			for (int k = 0; k < used; k++)
				command_append(&ps->ctx, tok[i + k]);
			i += used;
		} else if ((used = read_identity(ps, tok, i, n)) > 0) {
			i += used;
		} else {
			if (ps->active && is_error_token(t))
				ps->pending_failure = true;
			read_mode_word(&ps->ctx, t);
			command_append(&ps->ctx, t);
			i++;
		}
	}
	finish_run(ps);
}

/*
 * Runs whose N was given by an option not understood ("-0 7"): when a
 * sequence of such runs gives the option values going up (1, 2, 3 ...),
 * the post makes clear it is the count, and each run takes its value;
 * alone, the run's N stays unknown.
 */
static void numbers_from_sequence(struct post *p)
{
	for (int i = 0; i < p->nruns;) {
		struct post_run *r = &p->runs[i];
		int j = i + 1;
		if (r->kind == POST_OPEN_AU && !r->nr_stated && r->unknown_option[0] && r->unknown_value) {
			while (j < p->nruns && p->runs[j].kind == POST_OPEN_AU && !p->runs[j].nr_stated &&
			       strcmp(p->runs[j].unknown_option, r->unknown_option) == 0 &&
			       p->runs[j].unknown_value > p->runs[j - 1].unknown_value)
				j++;
			for (int k = i; j - i >= 2 && k < j; k++) {
				p->runs[k].rates.nr = p->runs[k].unknown_value;
				p->runs[k].nr_stated = p->runs[k].nr_from_sequence = true;
			}
		}
		i = j;
	}
}

int post_parse(const char *text, size_t len, struct post *out)
{
	memset(out, 0, sizeof(*out));
	struct toks raw = { 0 }, tok = { 0 };
	struct parser ps;
	memset(&ps, 0, sizeof(ps));
	ps.out = out;
	char *buf = malloc(len + 1);
	if (!buf)
		return -1;
	memcpy(buf, text, len);
	int rc = post_split_raw(buf, len, &raw) || post_join_tokens(&raw, &tok) ? -1 : 0;
	if (rc == 0) {
		out->junk_stripped = tok.junk;
		parse_tokens(&ps, tok.v, tok.n);
		numbers_from_sequence(out);
		if (ps.oom)
			rc = -1;
	}
	post_toks_free(&raw);
	post_toks_free(&tok);
	free(buf);
	if (rc) {
		finish_run(&ps);
		post_free(out);
	}
	return rc;
}

void post_free(struct post *p)
{
	for (int i = 0; i < p->nruns; i++) {
		free(p->runs[i].align.rows);
		free(p->runs[i].rates.rows);
	}
	free(p->runs);
	free(p->sections);
	memset(p, 0, sizeof(*p));
}
