/*
 * One run of flashbench on a device, after the command line is parsed: the
 * device opened and checked, the outputs opened, each test measured, its
 * verdict computed, and the results handed to the renderers.
 */
#include "cmd/run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "auto/auto.h"
#include "checks/capacity.h"
#include "checks/class.h"
#include "dev.h"
#include "identity/identity.h"
#include "lib/progress.h"
#include "safety/safety.h"
#include "lib/msg.h"
#include "lib/units.h"

const enum action run_original_order[NORIGINAL] = {
	ACT_SCATTER, ACT_FIND_FAT, ACT_ALIGN, ACT_OPEN_AU, ACT_INTERVAL, ACT_PROGRAM,
};

const struct options *run_options_parsed;

/* The test a failure document names: none for several (refused with --json). */
static const char *failed_test(const struct options *o)
{
	return o && __builtin_popcount(o->tests) <= 1 ? o->action_opt : NULL;
}

/* "flashbench: message" on stderr, one line; with --json also a document on stdout. */
void __attribute__((noreturn)) run_fail_with(int status, const char *msg)
{
	char line[4096];

	msg_one_line(msg, line, sizeof line);	/* the document's message as stderr's */
	warnx_fb("%s", line);
	if (json_requested())
		json_error_document(stdout, failed_test(run_options_parsed),
				    run_options_parsed ? run_options_parsed->device : NULL, line);
	exit(status);
}

void run_prepare_interrupted_document(const struct options *o)
{
	static char *doc;
	size_t len = 0;

	if (!json_requested() || doc)
		return;
	FILE *f = open_memstream(&doc, &len);
	if (!f)
		return;
	json_interrupted_document(f, failed_test(o), o->device,
				  o->action == ACT_RESTORE ? "interrupted: run the same --restore "
				  "again (the backup is kept until a restore of it is verified)" :
				  o->action == ACT_ANALYZE ? "interrupted" :
				  "interrupted before the test began: nothing was written to the device");
	if (fclose(f) == 0 && doc)
		safety_signals_idle_document(doc, len);
}

void run_usage_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	run_fail_with(EXIT_USAGE, msg);
}

void run_report_verdict_compute(const struct report *rep, struct report_verdict *v)
{
	memset(v, 0, sizeof *v);
	if (rep->align)
		analyze_align(rep->align, &v->erase, &v->page);
	else if (rep->rates && rep->test && strcmp(rep->test, "find-fat") == 0)
		analyze_find_fat(rep->rates, &v->fat);
	else if (rep->rates)
		v->collapse = analyze_open_au_run(rep->rates, 0);
}

static bool test_writes(const struct options *o, enum action a)
{
	switch (a) {
	case ACT_OPEN_AU:
	case ACT_FIND_FAT:
	case ACT_PROGRAM:
	case ACT_DISCARD:
	case ACT_RESTORE:
	case ACT_CAPACITY:
	case ACT_CLASS:
		return true;
	case ACT_AUTO:
		return o->destructive;
	default:
		return false;
	}
}

bool run_action_writes(const struct options *o)
{
	for (int i = 0; i < NORIGINAL; i++)
		if ((o->tests & 1u << run_original_order[i]) && test_writes(o, run_original_order[i]))
			return true;
	return test_writes(o, o->action);
}

/*
 * Access denied: say that it needs root (dev_open names the kind of file).
 * "sdb" that is no file here but a device in /dev: say that it is /dev/sdb.
 */
static void explain_open_error(const char *path, int e, char *err, size_t n)
{
	struct stat st;
	char dev[PATH_MAX];

	if (e == ENOENT && !strchr(path, '/') && strncmp(path, "sim:", 4) != 0 &&
	    snprintf(dev, sizeof dev, "/dev/%s", path) < (int)sizeof dev &&
	    stat(dev, &st) == 0 && S_ISBLK(st.st_mode)) {
		snprintf(err, n, "%s: %s; did you mean /dev/%s?", path, strerror(e), path);
		return;
	}
	if (strncmp(path, "sim:", 4) == 0 || stat(path, &st) < 0)
		return;
	if ((e == EACCES || e == EPERM) && geteuid() != 0)
		snprintf(err, n, "%s: %s (cards need root: try sudo)", path, strerror(e));
}

static void open_device(struct dev *d, const struct options *o)
{
	char err[512];
	bool writes = run_action_writes(o);

	if (writes && safety_check_write_target(o->device, err, sizeof err) < 0)
		run_fail_with(1, err);
	/* before the open: a run holding it is named, not just "busy" */
	if (safety_lock_device(o->device, writes, err, sizeof err) < 0)
		run_fail_with(1, err);
	/* --class times writes as the card acknowledges them (doc/speed-classes.md); the rest as the original */
	unsigned int sync = o->action == ACT_CLASS ? DEV_NOSYNC : 0;
	int r = dev_open(d, o->device, writes ? DEV_WRITE | DEV_EXCL | sync : 0, err, sizeof err);
	if (r == -EBUSY && writes) {
		safety_explain_busy(o->device, err, sizeof err);
		run_fail_with(1, err);
	}
	if (r < 0) {
		explain_open_error(o->device, -r, err, sizeof err);
		run_fail_with(r == -EINVAL && strncmp(o->device, "sim:", 4) == 0 ? EXIT_USAGE : 1, err);
	}
	if (d->fd >= 0 && !safety_lock_covers(d->fd)) {
		dev_close(d);
		snprintf(err, sizeof err, "%s: changed while it was being opened (another file or "
			 "device by that name now); not testing it", o->device);
		run_fail_with(1, err);
	}
	if (d->blockdev && d->size == 0) {
		dev_close(d);
		snprintf(err, sizeof err, "%s: size 0: no medium (an unattached loop device, or a card "
			 "reader without a card?)", o->device);
		run_fail_with(1, err);
	}
}

/* Device-dependent validation of test a: still before any I/O. */
static void check_test(const struct dev *d, const struct options *o, enum action a)
{
	char err[512];
	int r = 0;

	switch (a) {
	case ACT_ALIGN: r = align_check(d, &o->p, err, sizeof err); break;
	case ACT_OPEN_AU: r = open_au_check(d, &o->p, err, sizeof err); break;
	case ACT_FIND_FAT: r = find_fat_check(d, &o->p, err, sizeof err); break;
	case ACT_SCATTER: r = scatter_check(d, &o->p, err, sizeof err); break;
	case ACT_INTERVAL: r = interval_check(d, &o->p, err, sizeof err); break;
	case ACT_PROGRAM: r = program_check(d, &o->p, err, sizeof err); break;
	case ACT_DISCARD:
		if (o->discard_off % d->lbs || o->discard_len % d->lbs)
			snprintf(err, sizeof err, "--discard=%" PRIu64 ":%" PRIu64
				 ": not a multiple of the logical block size (%u)",
				 o->discard_off, o->discard_len, d->lbs), r = -1;
		else if (o->discard_off > d->size || o->discard_len > d->size - o->discard_off)
			snprintf(err, sizeof err, "--discard=%" PRIu64 ":%" PRIu64
				 ": beyond the end of %s (%" PRIu64 " bytes)",
				 o->discard_off, o->discard_len, d->path, d->size), r = -1;
		break;
	default:
		break;
	}
	if (r < 0)
		run_usage_error("%s", err);
}

static void check_against_device(const struct dev *d, const struct options *o)
{
	if (!o->tests)
		check_test(d, o, o->action);
	for (int i = 0; i < NORIGINAL; i++)
		if (o->tests & 1u << run_original_order[i])
			check_test(d, o, run_original_order[i]);
}

static int write_spans(const struct dev *d, const struct options *o, struct span *s, int max)
{
	switch (o->action) {
	case ACT_OPEN_AU: return open_au_spans(d, &o->p, s, max);
	case ACT_FIND_FAT: return find_fat_spans(d, &o->p, s, max);
	case ACT_PROGRAM: return program_spans(d, &o->p, s, max);
	case ACT_DISCARD:
		s[0] = (struct span){ o->discard_off, o->discard_len };
		return 1;
	default: return 0;
	}
}

/* Where results go; opened before any I/O so a bad path costs the card nothing. */
struct outputs {
	FILE *out;
	FILE *plot;	/* NULL without --plot */
	bool created_out, created_plot;	/* by us: removed again if the run is refused */
	bool begun;			/* emptied for this run: several tests append */
};

/*
 * Opened without truncating: a run refused after this (a --backup that
 * exists, say) leaves an existing file as it was; output_begin() empties it.
 * Never blocks: a FIFO nobody reads is refused (open would wait for a
 * reader, before any I/O, for ever).
 */
static FILE *open_output(const char *path, bool *created)
{
	char msg[PATH_MAX + 128];
	int fd;

	*created = false;
	if (!path || strcmp(path, "-") == 0)	/* -o -: standard output, as the original */
		return stdout;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		*created = true;
	else if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO) {
		snprintf(msg, sizeof msg, "%s: a FIFO that nobody reads: start its reader first", path);
		run_fail_with(1, msg);
	}
	if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		close(fd);
		fd = -1;
	}
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(msg, sizeof msg, "%s: cannot open the output file: %s", path, strerror(errno));
		run_fail_with(1, msg);
	}
	return f;
}

/* All checks passed, the first device write is next: now the outputs are emptied. */
static void output_begin(FILE *f, const char *path)
{
	struct stat st;

	if (!path || strcmp(path, "-") == 0 || fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode))
		return;
	if (ftruncate(fileno(f), 0) < 0) {
		warnx_fb("%s: %s", path, strerror(errno));
		exit(1);
	}
}

/* Once per run, before the first device write: a second test appends to the first's rows. */
static void outputs_begin(struct outputs *dst, const struct options *o)
{
	if (dst->begun)
		return;
	dst->begun = true;
	safety_signals_idle(false);	/* from here on, a signal lets the current I/O finish */
	output_begin(dst->out, o->out);
	if (dst->plot)
		output_begin(dst->plot, o->plot);
}

/* The run was refused: files it created go again, existing ones were not touched. */
static void outputs_abandon(const struct outputs *dst, const struct options *o)
{
	if (dst->created_out)
		unlink(o->out);
	if (dst->created_plot)
		unlink(o->plot);
}

/*
 * The file path names, spelt one way: its directory resolved (symbolic
 * links, "." and ".."), so "r.svg" and "./r.svg" are one file even before
 * it exists. A directory that does not exist stays as written.
 */
static void resolved_path(const char *path, char *out, size_t n)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	if (realpath(path, real)) {
		snprintf(out, n, "%s", real);
		return;
	}
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	if (realpath(dir, real))
		snprintf(out, n, "%s/%s", strcmp(real, "/") ? real : "", base);
	else
		snprintf(out, n, "%s", path);
}

/* The value of the last key= of a sim: specification ("" if none): record=, trace=. */
static void sim_spec_value(const char *device, const char *key, char *out, size_t n)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	if (strncmp(device, "sim:", 4) != 0)
		return;
	for (const char *p = device + 4; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t len = strcspn(p, ",");
		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=')
			snprintf(out, n, "%.*s", (int)(len - klen - 1), p + klen + 1);
	}
}

/*
 * A sim: card's record= or trace= appends to an existing file: one that
 * is no such record already (a system file, say) is refused, as a FIFO
 * that nobody reads is (the open would wait for ever).
 */
static bool io_log_refused(const char *what, const char *path, const char *ops, char *err, size_t n)
{
	struct stat st;
	char line[128];

	if (stat(path, &st) < 0)
		return false;
	if (S_ISFIFO(st.st_mode)) {
		int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		if (fd < 0 && errno == ENXIO) {
			snprintf(err, n, "%s: a FIFO that nobody reads: start its reader first", what);
			return true;
		}
		return false;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return false;
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(line, sizeof line, f) && strchr(ops, line[0]) && line[1] == ' ' &&
		  strspn(line + 2, "0123456789 ") == strcspn(line + 2, "\n") && strchr(line, '\n');
	if (f)
		fclose(f);
	if (!ok)
		snprintf(err, n, "%s: exists and is no record of flashbench's (its first line is not "
			 "\"%s offset length\"): it would be appended to; choose another name",
			 what, strlen(ops) == 3 ? "R|W|D" : "W|D");
	return !ok;
}

/*
 * Every output is a write path: -o, --plot, --backup, a sim: card's
 * record= and trace= files and the standard streams must not be the device
 * under test or anything it rests on, nor one another, nor what --restore
 * reads.
 */
void run_check_outputs(const struct options *o)
{
	enum { NPATHS = 6, INPUT = 0, OUT = 1, PLOT = 2, RECORD = 4, TRACE = 5 };
	char record[PATH_MAX], trace[PATH_MAX];
	sim_spec_value(o->device ? o->device : "", "record", record, sizeof record);
	sim_spec_value(o->device ? o->device : "", "trace", trace, sizeof trace);
	const char *paths[NPATHS] = { o->restore_file, o->out, o->plot, o->backup,
				      record[0] ? record : NULL, trace[0] ? trace : NULL };
	const char *names[NPATHS] = { "--restore", "--out", "--plot", "--backup", "sim: record",
				      "sim: trace" };
	char what[PATH_MAX + 32], err[PATH_MAX * 2 + 256];
	struct stat st, other;

	for (int i = 0; i < NPATHS; i++) {
		if (!paths[i] || stat(paths[i], &st) < 0)
			continue;
		snprintf(what, sizeof what, "%s=%s", names[i], paths[i]);
		if (i != INPUT && safety_check_output(what, &st, o->device, err, sizeof err) < 0)
			run_usage_error("%s", err);
		if ((i == OUT || i == PLOT) && safety_check_not_backup(what, paths[i], err, sizeof err))
			run_usage_error("%s", err);
		for (int j = 0; j < i; j++)
			if (paths[j] && stat(paths[j], &other) == 0 && other.st_dev == st.st_dev &&
			    other.st_ino == st.st_ino)
				run_usage_error("%s: the same file as %s=%s", what, names[j], paths[j]);
		if ((i == RECORD || i == TRACE) &&
		    io_log_refused(what, paths[i], i == RECORD ? "WD" : "RWD", err, sizeof err))
			run_usage_error("%s", err);
		for (int fd = 1; fd <= 2 && (i == RECORD || i == TRACE); fd++)
			if (fstat(fd, &other) == 0 && S_ISREG(other.st_mode) &&
			    other.st_dev == st.st_dev && other.st_ino == st.st_ino)
				run_usage_error("%s: the same file as standard %s", what,
					    fd == 1 ? "output" : "error");
	}
	char a[PATH_MAX * 2], b[PATH_MAX * 2];
	for (int i = 0; i < NPATHS; i++) {
		if (!paths[i] || strcmp(paths[i], "-") == 0)
			continue;
		resolved_path(paths[i], a, sizeof a);
		for (int j = 0; j < i; j++) {
			if (!paths[j] || strcmp(paths[j], "-") == 0)
				continue;
			resolved_path(paths[j], b, sizeof b);
			if (strcmp(a, b) == 0)
				run_usage_error("%s=%s: the same file as %s=%s", names[i], paths[i],
					    names[j], paths[j]);
		}
	}
	for (int fd = 1; fd <= 2; fd++) {
		const char *name = fd == 1 ? "standard output" : "standard error";
		if (fstat(fd, &st) < 0 || safety_check_output(name, &st, o->device, err, sizeof err) == 0)
			continue;
		if (fd == 2)	/* not one byte more onto it: the message goes nowhere */
			_exit(EXIT_USAGE);
		run_usage_error("%s", err);
	}
}

static bool stdout_failed;	/* reported already: the exit check stays quiet */

static int close_output(FILE *f, const char *path)
{
	if (fflush(f) != 0 || ferror(f) || (f != stdout && fclose(f) != 0)) {
		if (!(f == stdout && stdout_failed))	/* said once */
			warnx_fb("%s: %s", path ? path : "standard output",
				 strerror(errno ? errno : EIO));
		if (f == stdout)
			stdout_failed = true;
		return -1;
	}
	return 0;
}

/* Every path ends here: output that never reached stdout (a full disk, --help >/dev/full) fails. */
void run_check_stdout_at_exit(void)
{
	if (stdout_failed)
		return;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warnx_fb("standard output: %s", strerror(errno ? errno : EIO));
		_exit(1);
	}
}

struct results {
	struct align_result align;
	struct rate_result rates;
	struct scatter_result scatter;
	struct interval_result interval;
	struct program_result program;
	struct discard_result discard;
};

/* Text rows go out as they are measured, with the progress line out of the way. */
struct row_stream {
	FILE *f;
	const struct report *rep;
	int printed;
};

static void stream_rows(void *arg)
{
	struct row_stream *rs = arg;

	progress_clear();
	rs->printed = text_rows_from(rs->f, rs->rep, rs->printed);
	fflush(rs->f);
	progress_redraw();
}

static void measure(struct dev *d, const struct options *o, struct results *res, struct report *rep,
		    struct row_stream *rs)
{
	struct params p = o->p;

	if (rs) {
		p.row_done = stream_rows;
		p.row_done_arg = rs;
	}
	switch (o->action) {
	case ACT_ALIGN:
		rep->align = &res->align;
		rep->test = "align";
		measure_align(d, &p, &res->align);
		break;
	case ACT_OPEN_AU:
		rep->rates = &res->rates;
		rep->test = "open-au";
		measure_open_au(d, &p, &res->rates);
		break;
	case ACT_FIND_FAT:
		rep->rates = &res->rates;
		rep->test = "find-fat";
		measure_find_fat(d, &p, &res->rates);
		break;
	case ACT_SCATTER:
		rep->scatter = &res->scatter;
		rep->test = "scatter";
		measure_scatter(d, &p, &res->scatter);
		break;
	case ACT_INTERVAL:
		rep->interval = &res->interval;
		rep->test = "interval";
		measure_interval(d, &p, &res->interval);
		break;
	case ACT_PROGRAM:
		rep->program = &res->program;
		rep->test = "program";
		measure_program(d, &p, &res->program);
		break;
	case ACT_DISCARD:
		rep->discard = &res->discard;
		rep->test = "discard";
		measure_discard(d, &p, o->discard_off, o->discard_len, &res->discard);
		break;
	default:
		break;
	}
}

static void free_results(struct results *res)
{
	align_result_free(&res->align);
	rate_result_free(&res->rates);
	scatter_result_free(&res->scatter);
	interval_result_free(&res->interval);
	program_result_free(&res->program);
}


static void verbose_summary(const struct dev *d)
{
	char t[FMT_BUF];
	warnx_fb("%s: %" PRIu64 " bytes read, %" PRIu64 " written, %" PRIu64
		 " discarded, device time %s", d->path, d->bytes_read, d->bytes_written,
		 d->bytes_discarded, fmt_time(t, d->device_ns));
}

static int output_results(const struct options *o, const struct outputs *dst,
			  const struct report *rep, int printed)
{
	int r = 0;

	if (o->json)
		json_report(dst->out, rep);
	else
		text_report_from(dst->out, rep, printed);
	if (fflush(dst->out) != 0) {
		if (!(dst->out == stdout && stdout_failed))	/* said once */
			warnx_fb("%s: %s", o->out ? o->out : "standard output", strerror(errno));
		if (dst->out == stdout)
			stdout_failed = true;
		r = -1;
	}
	if (dst->plot) {
		svg_report(dst->plot, rep);
		if (close_output(dst->plot, o->plot) < 0)
			r = -1;
	}
	text_status(stderr, rep);
	return r;
}

static int run_test(struct dev *d, const struct options *o, struct outputs *dst)
{
	struct results res;
	struct dev_facts facts;
	struct report_verdict verdict;
	struct report rep = { .device = o->device, .dev = &facts, .params = &o->p };
	char err[4096];
	int status = 0;
	static struct span spans[OPEN_AU_NR_LIMIT];
	int nspans = write_spans(d, o, spans, OPEN_AU_NR_LIMIT);

	if (o->action == ACT_OPEN_AU && open_au_spacing(d, &o->p) < OPEN_AU_SPACING)
		warnx_fb("%s: --open-au: erase blocks %u erase sizes apart, "
			"not the original's %d, which do not fit", d->path,
			open_au_spacing(d, &o->p), OPEN_AU_SPACING);
	if (o->verbose && o->action == ACT_PROGRAM)
		text_program_legend(stderr);
	if (o->verbose)
		for (int i = 0; i < nspans; i++)
			warnx_fb("%s: will overwrite bytes %" PRIu64 " to %" PRIu64, d->path,
				 spans[i].off, spans[i].off + spans[i].len - 1);
	if (o->preserve && nspans > 0 && preserve_save(d, spans, nspans, o->backup, err, sizeof err) < 0) {
		char msg[sizeof err + 16];

		snprintf(msg, sizeof msg, "--preserve: %s", err);
		outputs_abandon(dst, o);
		run_fail_with(1, msg);
	}
	outputs_begin(dst, o);
	memset(&res, 0, sizeof res);
	struct row_stream rs = { .f = dst->out, .rep = &rep };
	measure(d, o, &res, &rep, o->json ? NULL : &rs);
	/* the data goes back first: the report then says whether it did */
	struct restore_report restored = { .restored = true, .device = o->device };
	if (o->preserve && preserve_active()) {
		if (preserve_restore(err, sizeof err) < 0) {
			warnx_fb("--preserve: %s", err);
			restored = (struct restore_report){ .device = o->device, .error = err,
							    .kept_file = preserve_kept_file() };
			status = 1;
		} else if (o->verbose && o->backup && preserve_backup_removed() &&
			   !safety_exit_status_for_signal()) {
			warnx_fb("--backup=%s: restored and verified, so removed", o->backup);
		}
		preserve_account(d);
		rep.restore = &restored;
	}
	measure_dev_facts_fill(&facts, d);
	run_report_verdict_compute(&rep, &verdict);
	rep.verdict = &verdict;
	struct identity *id = o->json ? identity_probe(d, "/sys") : NULL;
	rep.identity = id;
	if (output_results(o, dst, &rep, rs.printed) < 0)
		status = 1;
	identity_free(id);
	const struct run_status *st = report_status(&rep);
	if (st && st->nfailures)
		status = 1;
	if (o->preserve && restored.restored && rep.restore && safety_exit_status_for_signal())
		/* interrupted: the one thing the user needs to hear is that the data is back */
		warnx_fb("%s: interrupted; what the test overwrote is restored and verified%s",
			 o->device, o->backup && preserve_backup_removed() ? " (backup removed)" : "");
	free_results(&res);
	int sig = safety_exit_status_for_signal();
	return sig ? sig : status;
}

static int run_capacity(struct dev *d, const struct options *o, struct outputs *dst)
{
	struct capacity_result r;
	char err[4096] = "";

	outputs_begin(dst, o);
	int rc = capacity_run(d, o->backup, o->verbose ? stderr : NULL, 0, &r, err, sizeof err);
	int status = capacity_exit_status(&r);

	if (rc < 0 && !r.interrupted && r.restored && err[0])
		warnx_fb("--capacity: %s", err);
	if (o->json)
		capacity_json_report(dst->out, d, o->device, &r);
	else
		capacity_text(dst->out, &r);
	if (close_output(dst->out, o->out) < 0)
		status = 1;
	if (!r.restored)
		warnx_fb("--capacity: %s", r.restore_error);
	int sig = safety_exit_status_for_signal();
	return sig ? sig : status;
}

/* --class's erase size as given: whole logical blocks (the rest is checked at parsing). */
static void check_class_options(const struct dev *d, const struct options *o)
{
	if (o->p.erasesize_set && (o->p.erasesize == 0 || o->p.erasesize % d->lbs))
		run_usage_error("--erasesize=%s: must be a multiple of the logical block size (%u)",
			    o->given['e'], d->lbs);
}

static int run_class(struct dev *d, const struct options *o, struct outputs *dst)
{
	struct class_result *r = calloc(1, sizeof *r);
	struct class_opts co = {
		.claim = o->claim_given ? &o->claim : NULL,
		.erasesize = o->p.erasesize_set ? o->p.erasesize : 0,
		.max_write = o->max_write_set ? o->max_write : 0,
		.max_write_typed = o->given[OPT_MAX_WRITE],
		.backup = o->backup,
		.sysfs_root = "/sys",
	};
	char err[4096] = "", line[sizeof err + 16];

	if (!r)
		run_fail_with(1, "--class: out of memory");
	check_class_options(d, o);
	int rc = class_prepare(d, &co, r, err, sizeof err);
	if (rc < 0) {
		outputs_abandon(dst, o);
		if (rc == -2)
			run_usage_error("%s", err);
		if (vm_stop_requested) {
			warnx_fb("--class: %s", err);
			exit(safety_exit_status_for_signal());
		}
		run_fail_with(1, err);
	}
	if (r->nclaims) {
		class_plan_line(line, sizeof line, d, r);
		warnx_fb("%s", line);
	}
	outputs_begin(dst, o);
	rc = class_run(d, &co, r, err, sizeof err);
	if (rc < 0 && err[0]) {
		snprintf(line, sizeof line, "--class: %s", err);
		free(r);
		run_fail_with(1, line);	/* nothing was written: saving the area failed */
	}
	int status = class_exit_status(r);
	if (o->json)
		class_json_report(dst->out, d, o->device, r);
	else
		class_text(dst->out, r);
	if (close_output(dst->out, o->out) < 0)
		status = 1;
	if (dst->plot && (class_plot(dst->plot, o->device, r) < 0 ||
			  close_output(dst->plot, o->plot) < 0))
		status = 1;
	if (!r->restored)
		warnx_fb("--class: %s", r->restore_error);
	free(r);
	int sig = safety_exit_status_for_signal();
	return sig ? sig : status;
}

/* One test or several, in the original's order; the first failure ends the run. */
static int run_original_tests(struct dev *d, struct options *o, struct outputs *dst)
{
	int status = 0;

	for (int i = 0; i < NORIGINAL && !status; i++) {
		if (!(o->tests & 1u << run_original_order[i]))
			continue;
		o->action = run_original_order[i];
		status = run_test(d, o, dst);
	}
	if (close_output(dst->out, o->out) < 0 && !status)
		status = 1;
	return status;
}


/* The device named on the command line: opened, checked, its test(s) run, closed. */
int run_device(struct options *o)
{
	struct dev d;

	open_device(&d, o);
	check_against_device(&d, o);
	safety_install_signals();
	const char *note = dev_simulated(&d) ? NULL : dev_set_realtime();
	if (o->verbose) {
		warnx_fb("%s: %" PRIu64 " bytes, logical block size %u%s", d.path, d.size, d.lbs,
			 dev_simulated(&d) ? " (simulated)" : "");
		if (note)
			warnx_fb("%s", note);
	}

	struct outputs dst = { 0 };
	safety_signals_idle(true);	/* nothing done yet: a signal ends the run at once */
	dst.out = open_output(o->out, &dst.created_out);
	dst.plot = o->plot ? open_output(o->plot, &dst.created_plot) : NULL;
	int status;
	if (o->action == ACT_AUTO) {
		struct auto_opts ao = { .destructive = o->destructive, .json = o->json, .verbose = o->verbose,
					.max_write = o->max_write, .device_name = o->device, .plot = dst.plot,
					.claim = o->claim_given ? &o->claim : NULL };
		outputs_begin(&dst, o);
		status = auto_run(&d, &o->p, &ao, dst.out);
		if (close_output(dst.out, o->out) < 0 && !status)
			status = 1;
		if (dst.plot && close_output(dst.plot, o->plot) < 0 && !status)
			status = 1;
	} else if (o->action == ACT_CAPACITY) {
		status = run_capacity(&d, o, &dst);
	} else if (o->action == ACT_CLASS) {
		status = run_class(&d, o, &dst);
	} else if (!o->tests) {
		status = run_test(&d, o, &dst);
		if (close_output(dst.out, o->out) < 0 && !status)
			status = 1;
	} else {
		status = run_original_tests(&d, o, &dst);
	}
	if (o->verbose)
		verbose_summary(&d);
	char err[PATH_MAX + 128];
	if (dev_finish(&d, err, sizeof err) < 0) {	/* a record that is not whole fails the run */
		warnx_fb("%s", err);
		if (!status)
			status = 1;
	}
	dev_close(&d);
	return status;
}
