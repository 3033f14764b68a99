/*
 * The JSON report: one document per run, every value in base units
 * (ns, bytes, bytes per second); a failed measurement is null, never a number.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "identity/identity.h"
#include "report/report.h"

static const char *opcode_name(enum vm_opcode op)
{
	switch (op) {
	case VM_READ: return "read";
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RANDOM: return "write";
	case VM_DISCARD: return "discard";
	default: return "other";
	}
}

static const char *on_error_name(enum vm_on_error e)
{
	return e == VM_ERR_STOP ? "stop" : "continue";
}

static void ns_or_null(struct jw *w, const char *key, int64_t ns, bool failed)
{
	if (failed)
		jw_null(w, key);
	else
		jw_int(w, key, ns);
}

static void rate_or_null(struct jw *w, const char *key, double rate, bool failed)
{
	if (failed)
		jw_null(w, key);
	else
		jw_double(w, key, rate);
}

void json_device_facts(struct jw *w, const struct dev_facts *d, const char *name)
{
	jw_object_begin(w, "device");
	jw_string(w, "name", name ? name : d ? d->path : NULL);
	if (d) {
		jw_string(w, "kind", d->kind);
		jw_uint(w, "size_bytes", d->size);
		jw_uint(w, "logical_block_size_bytes", d->lbs);
		if (d->pbs)
			jw_uint(w, "physical_block_size_bytes", d->pbs);
		jw_bool(w, "opened_for_writing", d->writable);
	}
	jw_object_end(w);
}

void json_params(struct jw *w, const struct params *p)
{
	jw_object_begin(w, "parameters");
	jw_uint(w, "blocksize_bytes", p->blocksize);
	jw_uint(w, "erasesize_bytes", p->erasesize);
	jw_int(w, "count", p->count);
	jw_int(w, "open_au_nr", p->open_au_nr);
	jw_bool(w, "random", p->random);
	if (p->offset_set)
		jw_uint(w, "offset_bytes", p->offset);
	else
		jw_null(w, "offset_bytes");
	jw_int(w, "fat_nr", p->fat_nr);
	jw_int(w, "scatter_order", p->scatter_order);
	jw_int(w, "scatter_span", p->scatter_span);
	if (p->interval_order > 0)
		jw_int(w, "interval_order", p->interval_order);
	else
		jw_null(w, "interval_order");
	jw_string(w, "on_read_error", on_error_name(p->on_read_error));
	jw_string(w, "on_write_error", on_error_name(p->on_write_error));
	jw_object_end(w);
}

void json_align(struct jw *w, const char *key, const struct align_result *r)
{
	jw_object_begin(w, key);
	jw_uint(w, "blocksize_bytes", r->blocksize);
	jw_int(w, "count", r->count);
	jw_array_begin(w, "rows");
	for (int i = 0; i < r->nrows; i++) {
		const struct align_row *row = &r->rows[i];

		jw_object_begin(w, NULL);
		jw_uint(w, "align_bytes", row->align);
		ns_or_null(w, "pre_ns", row->pre_ns, row->failed);
		ns_or_null(w, "on_ns", row->on_ns, row->failed);
		ns_or_null(w, "post_ns", row->post_ns, row->failed);
		ns_or_null(w, "diff_ns", row->diff_ns, row->failed);
		jw_int(w, "positions", row->positions);
		jw_bool(w, "failed", row->failed);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

void json_rates(struct jw *w, const char *key, const struct rate_result *r)
{
	jw_object_begin(w, key);
	jw_uint(w, "erasesize_bytes", r->erasesize);
	jw_uint(w, "blocksize_bytes", r->blocksize);
	jw_uint(w, "offset_bytes", r->offset);
	jw_int(w, "nr", r->nr);
	jw_bool(w, "random", r->random);
	if (r->spacing)	/* erase sizes between --open-au's erase blocks (12: the original's) */
		jw_uint(w, "erase_block_spacing", r->spacing);
	jw_array_begin(w, "rows");
	for (int i = 0; i < r->nrows; i++) {
		const struct rate_row *row = &r->rows[i];
		int ncols = row->ncols < 0 ? 0 : row->ncols > RATE_MAX_COLS ? RATE_MAX_COLS : row->ncols;

		jw_object_begin(w, NULL);
		jw_uint(w, "blocksize_bytes", row->blocksize);
		jw_array_begin(w, "rate_bytes_per_s");
		for (int c = 0; c < ncols; c++)
			rate_or_null(w, NULL, row->rate[c], row->failed[c]);
		jw_array_end(w);
		jw_array_begin(w, "time_ns");
		for (int c = 0; c < ncols; c++)
			ns_or_null(w, NULL, row->ns[c], row->failed[c]);
		jw_array_end(w);
		jw_array_begin(w, "written_bytes");
		for (int c = 0; c < ncols; c++)
			jw_uint(w, NULL, row->bytes[c]);
		jw_array_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

void json_scatter(struct jw *w, const char *key, const struct scatter_result *r)
{
	jw_object_begin(w, key);
	jw_uint(w, "blocksize_bytes", r->blocksize);
	jw_uint(w, "span_bytes", r->span_bytes);
	jw_array_begin(w, "points");
	for (int i = 0; i < r->npoints; i++) {
		jw_object_begin(w, NULL);
		jw_uint(w, "offset_bytes", r->points[i].off);
		ns_or_null(w, "min_ns", r->points[i].min_ns, r->points[i].failed);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

void json_interval(struct jw *w, const char *key, const struct interval_result *r)
{
	jw_object_begin(w, key);
	jw_array_begin(w, "rows");
	for (int i = 0; i < r->nrows; i++) {
		const struct interval_row *row = &r->rows[i];

		jw_object_begin(w, NULL);
		jw_uint(w, "transfer_bytes", row->bytes);
		ns_or_null(w, "min_ns", row->min_ns, row->failed);
		ns_or_null(w, "avg_ns", row->avg_ns, row->failed);
		ns_or_null(w, "max_ns", row->max_ns, row->failed);
		rate_or_null(w, "rate_bytes_per_s", row->rate, row->failed);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_begin(w, "fit");	/* nulls when there is no meaningful fit */
	rate_or_null(w, "rate_bytes_per_s", r->fit_rate, r->fit != FIT_OK);
	ns_or_null(w, "access_ns", r->fit_access_ns, r->fit != FIT_OK);
	jw_object_end(w);
	jw_object_end(w);
}

void json_discard(struct jw *w, const char *key, const struct discard_result *r)
{
	jw_object_begin(w, key);
	jw_uint(w, "offset_bytes", r->off);
	jw_uint(w, "length_bytes", r->len);
	if (r->failed)
		jw_null(w, "time_ns");
	else
		jw_int(w, "time_ns", r->ns);
	jw_object_end(w);
}

void json_program(struct jw *w, const char *key, const struct program_result *r)
{
	jw_object_begin(w, key);
	jw_array_begin(w, "rows");
	for (int i = 0; i < r->nrows; i++) {
		const struct program_row *row = &r->rows[i];

		char step[64];

		/* "write zeros linear" -> "write_zeros_linear": the label as an enum value */
		snprintf(step, sizeof step, "%s", row->label ? row->label : "");
		for (char *c = step; *c; c++)
			if (*c == ' ')
				*c = '_';
		jw_object_begin(w, NULL);
		jw_string(w, "step", step);
		jw_string(w, "label", row->label);
		jw_uint(w, "blocksize_bytes", row->blocksize);
		rate_or_null(w, "rate_bytes_per_s", row->rate, row->failed);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

static const char *state_name(const struct run_status *st)
{
	if (st->failed_because)
		return "failed";
	if (st->interrupted)
		return "interrupted";
	if (st->nfailures)
		return "failed";
	return st->partial ? "partial" : "complete";
}

/* "state" says how the run ended; "error" is null unless an I/O failed. */
void json_status(struct jw *w, const struct run_status *st)
{
	jw_object_begin(w, "status");
	jw_string(w, "state", state_name(st));
	if (st->failed_because) {
		jw_object_begin(w, "error");
		jw_string(w, "message", st->failed_because);
		jw_object_end(w);
	} else if (st->nfailures > 0) {
		const struct vm_failure *f = &st->first_failure;
		char msg[256];

		snprintf(msg, sizeof msg, "%s failed at offset %" PRIu64 " (%" PRIu64 " bytes): %s",
			 opcode_name(f->op), f->off, f->len, strerror(f->err));
		jw_object_begin(w, "error");
		jw_string(w, "message", msg);
		jw_string(w, "operation", opcode_name(f->op));
		jw_uint(w, "offset_bytes", f->off);
		jw_uint(w, "length_bytes", f->len);
		jw_int(w, "errno", f->err);
		jw_object_end(w);
	} else {
		jw_null(w, "error");
	}
	jw_int(w, "failed_io_count", st->nfailures);
	jw_bool(w, "stopped_early", st->stopped);
	jw_uint(w, "written_bytes", st->bytes_written);
	jw_int(w, "device_time_ns", st->device_ns);
	jw_object_end(w);
}

/* Verdicts, in the shape --auto uses: what the numbers of this one run say. */
void json_size_estimate(struct jw *w, const char *key, const struct size_estimate *e)
{
	jw_object_begin(w, key);
	if (e->bytes)
		jw_uint(w, "size_bytes", e->bytes);
	else
		jw_null(w, "size_bytes");
	jw_string(w, "confidence", results_confidence_name(e->conf));
	if (e->multiplane)
		jw_uint(w, "multiplane_bytes", e->multiplane);
	if (e->group)
		jw_uint(w, "allocation_group_bytes", e->group);
	jw_string(w, "evidence", e->evidence);
	jw_object_end(w);
}

void json_count_fields(struct jw *w, const struct count_estimate *c)
{
	jw_int(w, "n", c->n);
	jw_bool(w, "at_least", c->at_least);
	jw_string(w, "confidence", results_confidence_name(c->conf));
	jw_string(w, "evidence", c->evidence);
}

void json_count_estimate(struct jw *w, const char *key, const struct count_estimate *c)
{
	jw_object_begin(w, key);
	json_count_fields(w, c);
	jw_object_end(w);
}

void json_fat_fields(struct jw *w, const struct fat_estimate *e)
{
	jw_int(w, "erase_blocks", e->aus);
	jw_uint(w, "size_bytes", e->bytes);
	jw_string(w, "confidence", results_confidence_name(e->conf));
	jw_string(w, "evidence", e->evidence);
}

void json_fat_estimate(struct jw *w, const char *key, const struct fat_estimate *e)
{
	jw_object_begin(w, key);
	json_fat_fields(w, e);
	jw_object_end(w);
}

static void json_verdict(struct jw *w, const struct report *rep)
{
	const struct report_verdict *v = rep->verdict;

	if (!v)
		return;
	if (rep->align) {
		jw_object_begin(w, "verdict");
		json_size_estimate(w, "erase_size", &v->erase);
		json_size_estimate(w, "page_size", &v->page);
		jw_object_end(w);
	} else if (rep->rates && rep->test && strcmp(rep->test, "find-fat") == 0) {
		jw_object_begin(w, "verdict");
		json_fat_estimate(w, "fat_area", &v->fat);
		jw_object_end(w);
	} else if (rep->rates) {
		/* one run cannot count open erase blocks; it says whether nr of them were too many */
		jw_object_begin(w, "verdict");
		jw_int(w, "open_au_nr", rep->rates->nr);
		jw_string(w, "small_block_writes", results_collapse_name(v->collapse));
		jw_object_end(w);
	}
}

void json_report(FILE *f, const struct report *rep)
{
	const struct run_status *st = report_status(rep);
	const char *test = json_test_name(rep->test);
	struct jw w;

	jw_init(&w, f);
	jw_object_begin(&w, NULL);
	json_envelope(&w, rep->test);
	json_device_facts(&w, rep->dev, rep->device);
	if (rep->identity)
		identity_json(&w, "identity", rep->identity);
	if (rep->params)
		json_params(&w, rep->params);
	if (rep->align)
		json_align(&w, "align", rep->align);
	if (rep->rates)
		json_rates(&w, test, rep->rates);
	if (rep->scatter)
		json_scatter(&w, "scatter", rep->scatter);
	if (rep->interval)
		json_interval(&w, "interval", rep->interval);
	if (rep->program)
		json_program(&w, "program", rep->program);
	if (rep->discard)
		json_discard(&w, "discard", rep->discard);
	if (st && !st->partial)
		json_verdict(&w, rep);
	struct run_status end = st ? *st : (struct run_status){ 0 };
	if (rep->restore) {
		json_restore(&w, "preserve", rep->restore);
		if (!rep->restore->restored)
			end.failed_because = rep->restore->error;
	}
	json_status(&w, &end);
	jw_object_end(&w);
	jw_finish(&w);
	fflush(f);
}

/* ------------------------------------------------------------ envelope */

static struct {
	int argc;
	char **argv;
	bool json;
	char time[32];
} run_ctx;

void json_set_run(int argc, char **argv)
{
	run_ctx.argc = argc;
	run_ctx.argv = argv;
	run_ctx.json = false;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			run_ctx.json = true;
	run_ctx.time[0] = '\0';
	report_run_time();
}

/* When the run started (RFC 3339, UTC): JSON "time" and the plot footer. */
const char *report_run_time(void)
{
	if (!run_ctx.time[0]) {
		time_t now = time(NULL);
		struct tm tm;

		if (gmtime_r(&now, &tm))
			strftime(run_ctx.time, sizeof run_ctx.time, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	return run_ctx.time;
}

/* argv as a shell would take it back: words with special characters in single quotes. */
const char *report_command_line(char *buf, size_t n)
{
	size_t len = 0;

	if (run_ctx.argc <= 0 || n == 0)
		return NULL;
	buf[0] = '\0';
	for (int i = 0; i < run_ctx.argc && len + 1 < n; i++) {
		const char *a = run_ctx.argv[i];
		bool plain = a[0] && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789-_./=:,+@%") == strlen(a);

		if (i)
			buf[len++] = ' ';
		if (plain) {
			len += (size_t)snprintf(buf + len, n - len, "%s", a);
		} else {
			buf[len++] = '\'';
			for (; *a && len + 5 < n; a++)
				len += *a == '\'' ? (size_t)snprintf(buf + len, n - len, "'\\''")
						  : (size_t)snprintf(buf + len, n - len, "%c", *a);
			if (len + 1 < n)
				buf[len++] = '\'';
		}
		if (len >= n)
			len = n - 1;
		buf[len] = '\0';
	}
	return buf;
}

bool json_requested(void)
{
	return run_ctx.json;
}

/* "open-au" -> "open_au": test names are the member names that hold their data. */
const char *json_test_name(const char *test)
{
	static const char *const names[][2] = {
		{ "open-au", "open_au" }, { "find-fat", "find_fat" }, { "findfat", "find_fat" },
	};

	for (size_t i = 0; test && i < sizeof names / sizeof names[0]; i++)
		if (strcmp(test, names[i][0]) == 0)
			return names[i][1];
	return test;
}

void json_envelope(struct jw *w, const char *test)
{
	jw_int(w, "schema_version", JSON_SCHEMA_VERSION);
	jw_string(w, "tool", "flashbench");
	jw_string(w, "version", FB_VERSION);
	jw_string(w, "time", report_run_time());
	jw_array_begin(w, "argv");
	for (int i = 0; i < run_ctx.argc; i++)
		jw_string(w, NULL, run_ctx.argv[i]);
	jw_array_end(w);
	jw_string(w, "test", json_test_name(test));
}

static void ended_status(struct jw *w, const char *state, const char *message)
{
	jw_object_begin(w, "status");
	jw_string(w, "state", state);
	jw_object_begin(w, "error");
	jw_string(w, "message", message);
	jw_object_end(w);
	jw_object_end(w);
}

void json_error_status(struct jw *w, const char *message)
{
	ended_status(w, "failed", message);
}

static void ended_document(FILE *f, const char *test, const char *device, const char *state,
			   const char *message)
{
	struct jw w;

	jw_init(&w, f);
	jw_object_begin(&w, NULL);
	json_envelope(&w, test);
	if (device) {
		jw_object_begin(&w, "device");
		jw_string(&w, "name", device);
		jw_object_end(&w);
	} else {
		jw_null(&w, "device");
	}
	ended_status(&w, state, message);
	jw_object_end(&w);
	jw_finish(&w);
	fflush(f);
}

void json_error_document(FILE *f, const char *test, const char *device, const char *message)
{
	ended_document(f, test, device, "failed", message);
}

void json_interrupted_document(FILE *f, const char *test, const char *device, const char *message)
{
	ended_document(f, test, device, "interrupted", message);
}
