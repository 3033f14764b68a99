/* --class's output: the first line, the table, how it was measured; JSON. */
#include "checks/class.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lib/units.h"
#include "measure/measure.h"
#include "report/report.h"

static const char *metric_name(enum class_metric m)
{
	return m == CM_SEQ_WRITE ? "sequential_write" : m == CM_RAND_READ ? "random_read"
									    : "random_write";
}

static const char *metric_text(enum class_metric m)
{
	return m == CM_SEQ_WRITE ? "sustained sequential writes" :
	       m == CM_RAND_READ ? "random 4KiB reads" : "random 4KiB writes";
}

static const char *figure(char *buf, enum class_metric m, double v)
{
	if (v < 0)
		return "-";
	if (m == CM_SEQ_WRITE)
		return fmt_rate(buf, v);
	snprintf(buf, FMT_BUF, "%.0f IOPS", v);
	return buf;
}

static const char *source_text(unsigned int s)
{
	return s == (CLAIM_FROM_CARD | CLAIM_FROM_USER) ? "the SD Status and --claim" :
	       s == CLAIM_FROM_CARD ? "the card's SD Status" : "--claim";
}

static const char *source_name(unsigned int s)
{
	return s == (CLAIM_FROM_CARD | CLAIM_FROM_USER) ? "both" :
	       s == CLAIM_FROM_CARD ? "sd_status" : "claim_option";
}

static const char *kind_name(enum sd_mark_kind k)
{
	static const char *const n[] = { "speed_class", "uhs_speed_grade", "video_speed_class",
					 "app_perf_class" };
	return n[k];
}

/* ------------------------------------------------------------ first line */

static void no_verdict(char *buf, size_t n, const struct class_result *r)
{
	if (r->interrupted)
		snprintf(buf, n, "no verdict: interrupted");
	else if (!r->restored)
		snprintf(buf, n, "no verdict: the saved data could not be restored");
	else if (r->failed)
		snprintf(buf, n, "no verdict: %s failed at offset %" PRIu64 " (%s)",
			 r->fail_write ? "write" : "read", r->fail_off, strerror(r->fail_errno));
	else
		snprintf(buf, n, "no verdict: the check did not run");
}

void class_summary(char *buf, size_t n, const struct class_result *r)
{
	if (!r->decided) {
		no_verdict(buf, n, r);
		return;
	}
	if (!r->nclaims) {
		snprintf(buf, n, "unknown: no claim to check: %s; give --claim=LIST with the marks "
			 "printed on it (e.g. --claim=C10,U1,A1)", r->card.visible ?
			 "the card's SD Status claims no class" :
			 "no SD Status is visible here (a card reader?)");
		return;
	}
	snprintf(buf, n, "%s: ", class_verdict_name(r->verdict));
	if (r->verdict == CV_MET)
		fmt_append(buf, n, "every claim kept:");
	int first = 1;
	for (int i = 0; i < r->nclaims; i++) {
		const struct class_claim *c = &r->claims[i];
		bool seen = false;
		if (c->verdict != r->verdict)
			continue;
		if (r->verdict == CV_MET) {
			fmt_append(buf, n, "%s %s %+.0f%%%s", first ? "" : ",", c->name, c->margin * 100,
				   c->conf < CONF_MEDIUM ? " (low confidence)" : "");
			first = 0;
			continue;
		}
		for (int j = 0; j < i; j++)	/* claims that fail the same way share one reason */
			seen = seen || (r->claims[j].verdict == c->verdict && !strcmp(r->claims[j].why, c->why));
		if (seen)
			continue;
		fmt_append(buf, n, "%s%s", first ? "" : "; ", c->name);
		for (int j = i + 1; j < r->nclaims; j++)
			if (r->claims[j].verdict == c->verdict && !strcmp(r->claims[j].why, c->why))
				fmt_append(buf, n, ", %s", r->claims[j].name);
		fmt_append(buf, n, ": %s", c->why);
		first = 0;
	}
	const char *sep = "; ";
	for (int i = 0; i < r->nclaims; i++) {
		const struct class_claim *c = &r->claims[i];
		if (c->verdict == r->verdict)
			continue;
		fmt_append(buf, n, "%s%s %s", sep, c->name, class_verdict_name(c->verdict));
		sep = ", ";
	}
}

/* ------------------------------------------------------------ text */

static void text_claims(FILE *f, const struct class_result *r)
{
	const unsigned int sources[] = { CLAIM_FROM_CARD | CLAIM_FROM_USER, CLAIM_FROM_CARD,
					 CLAIM_FROM_USER };
	const char *sep = "";

	fprintf(f, "claims:       ");
	if (!r->nclaims)
		fprintf(f, "none (%s)", r->card.visible ? "the SD Status claims no class" :
			"no SD Status visible, no --claim");
	for (int s = 0; s < 3; s++) {
		int any = 0;
		for (int i = 0; i < r->nclaims; i++)
			if (r->claims[i].source == sources[s]) {
				fprintf(f, "%s%s", any ? " " : sep, r->claims[i].name);
				any = 1;
			}
		if (any) {
			fprintf(f, " from %s", source_text(sources[s]));
			sep = "; ";
		}
	}
	fprintf(f, "\n");
	if (r->differ) {
		char a[64], b[64];
		fprintf(f, "              the label (--claim %s) and the card's SD Status (%s) differ: "
			"both are checked\n", sd_claims_format(&r->user, a, sizeof a),
			sd_claims_format(&r->card.marks, b, sizeof b));
	}
}

static void text_table(FILE *f, const struct class_result *r)
{
	char a[FMT_BUF], b[FMT_BUF], v[32];

	fprintf(f, "%-6s %-28s %-6s %-11s %-11s %s\n", "claim", "promise", "depth", "promised",
		"measured", "verdict");
	for (int i = 0; i < r->nclaims; i++) {
		const struct class_claim *c = &r->claims[i];
		for (int j = 0; j < c->nreq; j++) {
			const struct class_req *q = &c->req[j];
			if (q->verdict != CV_UNKNOWN)
				snprintf(v, sizeof v, "%s %+.0f%% (%s)", class_verdict_name(q->verdict),
					 (q->measured / q->promised - 1) * 100, results_confidence_name(q->conf));
			else
				snprintf(v, sizeof v, "%s", class_verdict_name(q->verdict));
			fprintf(f, "%-6s %-28s %-6d %-11s %-11s %s\n", c->name, metric_text(q->metric),
				q->depth, figure(a, q->metric, q->promised),
				figure(b, q->metric, q->measured), v);
		}
	}
	for (int i = 0; i < r->nclaims; i++) {
		const struct class_claim *c = &r->claims[i];
		char conf[32] = "";
		if (c->verdict != CV_UNKNOWN && c->conf < CONF_HIGH)
			snprintf(conf, sizeof conf, ", %s confidence", results_confidence_name(c->conf));
		fprintf(f, "%-6s %s%s: %s\n", c->name, class_verdict_name(c->verdict), conf, c->why);
		if (c->rerun[0])
			fprintf(f, "%-6s to decide it: %s\n", "", c->rerun);
	}
}

/* "the area written 12 times (1.14GiB, 17.1s): 69.7M/s for the first ~1GiB (a write cache), then ..." */
static void text_writes(FILE *f, const struct class_result *r)
{
	const struct class_sustain *s = &r->sustain;
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], t[FMT_BUF];

	fprintf(f, "writes:       the area written %d time%s (%s, %s)", s->passes,
		s->passes == 1 ? "" : "s", fmt_size(a, s->written), fmt_time(t, s->ns));
	if (s->cache_seen)
		fprintf(f, ": %s for the first ~%s (a write cache, or buffer), then %s", fmt_rate(b, s->cache_rate),
			fmt_size(c, s->cache_bytes), fmt_rate(a, s->rate));
	else
		fprintf(f, ": %s; no end of a write cache seen in it", fmt_rate(a, s->rate));
	fprintf(f, "\n              sustained: %s over the last %s (%s and %s in its halves%s)%s%s\n",
		fmt_rate(a, s->rate), fmt_size(b, (uint64_t)(s->to - s->from) * s->unit),
		fmt_rate(c, s->rep[0]), fmt_rate(t, s->rep[1]), s->moved ? ": the rate moved" : "",
		s->stopped ? "; stopped: " : "", s->stopped ? s->stopped : "");
}

/* "4M", "96M", "512k": fio's size suffixes (binary) */
static const char *fio_size(char *buf, uint64_t v)
{
	if (v % (1u << 20) == 0)
		snprintf(buf, FMT_BUF, "%" PRIu64 "M", v >> 20);
	else
		snprintf(buf, FMT_BUF, "%" PRIu64 "k", v >> 10);
	return buf;
}

static void text_phases(FILE *f, const struct class_result *r)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF];

	fprintf(f, "link:         large sequential reads at %s: the ceiling of the reader (and of "
		"the card's reads)\n", fmt_rate(a, r->link.value));
	if (r->seq.run)
		text_writes(f, r);
	if (r->rread.run)
		fprintf(f, "random:       4KiB reads %.0f IOPS, writes %.0f IOPS, one at a time (queue "
			"depth 1)\n", r->rread.value, r->rwrite.value);
	if (r->qread.run)
		fprintf(f, "queued:       4KiB reads %.0f IOPS, writes %.0f IOPS, %d in flight (%s; "
			"the device path kept %d in flight; SD Status: %s%s)\n",
			r->qread.value, r->qwrite.value, r->plan.depth, r->plan.depth_source,
			r->qwrite.depth_used > r->qread.depth_used ? r->qwrite.depth_used :
			r->qread.depth_used, !r->card.visible ? "not visible" :
			r->card.queue_depth >= 2 ? "command queue" : "no command queue",
			!r->card.visible ? "" : r->card.cache ? ", cache" : ", no cache");
	/* the same conditions in fio's words, to compare figures (a description, not a line to run) */
	char q[32] = "";
	if (r->qread.run)
		snprintf(q, sizeof q, " and iodepth=%d", r->plan.depth);
	fprintf(f, "as fio:       bs=%s iodepth=1 for the sequential writes, bs=4k iodepth=1%s for the "
		"random ones; offset=%s size=%s, direct=1, the raw device\n", fio_size(a, r->plan.chunk), q,
		fio_size(b, r->plan.offset), fio_size(c, r->plan.area));
}

/* The one line the issue asks for: the conditions are ours, and what was done. */
static void text_conditions(FILE *f, const struct class_result *r)
{
	const struct class_plan *p = &r->plan;
	char a[FMT_BUF], b[FMT_BUF], e[FMT_BUF], t[FMT_BUF], u[FMT_BUF], w[FMT_BUF];

	fprintf(f, "conditions:   ours, not the SD Association's full test (its conditions are not "
		"public): %s at offset %s written sequentially in %d erase blocks of %s (erase "
		"size: %s), requests of %s, %d time%s, %s", fmt_size(a, p->area), fmt_size(b, p->offset),
		p->blocks, fmt_size(e, p->erasesize), p->erase_source, fmt_size(u, p->chunk),
		r->sustain.passes, r->sustain.passes == 1 ? "" : "s", fmt_time(t, r->seq.ns));
	if (p->random)
		fprintf(f, "; then 4KiB random reads (%s) and writes (%s) inside it, one at a time",
			fmt_time(a, r->rread.ns), fmt_time(b, r->rwrite.ns));
	if (p->queued)
		fprintf(f, " and %d in flight (%s, %s)", p->depth, fmt_time(w, r->qread.ns),
			fmt_time(t, r->qwrite.ns));
	fprintf(f, "\n");
}

void class_text(FILE *f, const struct class_result *r)
{
	char line[1024], a[FMT_BUF], b[FMT_BUF], t[FMT_BUF];

	class_summary(line, sizeof line, r);
	fprintf(f, "%s\n", line);
	text_claims(f, r);
	if (r->decided && r->nclaims)
		text_table(f, r);
	if (r->link.run)
		text_phases(f, r);
	if (r->seq.run)
		text_conditions(f, r);
	else
		fprintf(f, "conditions:   nothing measured%s\n", r->nclaims ? "" : ": no claim to check");
	fprintf(f, "written:      %" PRIu64 " bytes (%s) testing and restoring, at most %s planned; "
		"read %" PRIu64 " bytes (%s) with -a, measuring, saving and verifying; I/O time %s\n",
		r->bytes_written, fmt_size(a, r->bytes_written),
		fmt_size(b, r->plan.total_bytes), r->bytes_read, fmt_size(t, r->bytes_read),
		fmt_time(line, r->device_ns));
	fprintf(f, "data:         %s\n", !r->restored ? r->restore_error : r->simulated ?
		"simulated card: nothing it stores is kept" :
		"every overwritten byte restored and verified");
}

void class_headline(FILE *f, const struct class_result *r)
{
	char line[1024];

	class_summary(line, sizeof line, r);
	fprintf(f, "  %-22s %s\n", "class", line);
}

/* ------------------------------------------------------------ JSON */

static void json_value(struct jw *w, const char *bps_key, const char *iops_key, bool iops,
		       double v)
{
	if (v < 0)
		jw_null(w, iops ? iops_key : bps_key);
	else
		jw_double(w, iops ? iops_key : bps_key, v);
}

/* met and short carry a confidence; unknown has none (null) */
static void json_confidence(struct jw *w, enum class_verdict v, enum confidence c)
{
	if (v == CV_UNKNOWN)
		jw_null(w, "confidence");
	else
		jw_string(w, "confidence", results_confidence_name(c));
}

static void json_claim(struct jw *w, const struct class_claim *c)
{
	jw_object_begin(w, NULL);
	jw_string(w, "name", c->name);
	jw_string(w, "kind", kind_name(c->kind));
	jw_uint(w, "value", c->value);
	jw_string(w, "source", source_name(c->source));
	jw_string(w, "verdict", class_verdict_name(c->verdict));
	json_confidence(w, c->verdict, c->conf);
	jw_string(w, "reason", c->why);
	if (c->rerun[0])
		jw_string(w, "rerun", c->rerun);
	else
		jw_null(w, "rerun");
	jw_array_begin(w, "promises");
	for (int i = 0; i < c->nreq; i++) {
		const struct class_req *q = &c->req[i];
		bool iops = q->metric != CM_SEQ_WRITE;
		jw_object_begin(w, NULL);
		jw_string(w, "metric", metric_name(q->metric));
		json_value(w, "promised_bytes_per_s", "promised_iops", iops, q->promised);
		json_value(w, "measured_bytes_per_s", "measured_iops", iops, q->measured);
		jw_int(w, "queue_depth", q->depth);
		jw_string(w, "verdict", class_verdict_name(q->verdict));
		json_confidence(w, q->verdict, q->conf);
		jw_string(w, "reason", q->why);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

static void json_phase(struct jw *w, const char *name, const struct class_phase *p)
{
	if (!p->run)
		return;
	jw_object_begin(w, NULL);
	jw_string(w, "phase", name);
	jw_int(w, "queue_depth", p->depth);
	jw_int(w, "queue_depth_used", p->depth_used);
	jw_uint(w, "io_count", p->ios);
	jw_uint(w, "transferred_bytes", p->bytes);
	jw_int(w, "device_time_ns", p->ns);
	json_value(w, "bytes_per_s", "iops", p->iops, p->value);
	jw_array_begin(w, "per_second");
	for (int i = 0; i < p->npoints; i++) {
		jw_object_begin(w, NULL);
		jw_int(w, "end_ns", (int64_t)p->t_ns[i]);
		json_value(w, "bytes_per_s", "iops", p->iops, p->per_s[i]);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

/* The sequential writes as they went: passes, a write cache's end, the window and its halves. */
static void json_sustain(struct jw *w, const struct class_sustain *s)
{
	jw_object_begin(w, "sustained_writes");
	jw_uint(w, "written_bytes", s->written);
	jw_int(w, "passes", s->passes);
	jw_int(w, "device_time_ns", s->ns);
	jw_uint(w, "unit_bytes", s->unit);
	jw_bool(w, "cache_seen", s->cache_seen);
	if (s->cache_seen) {
		jw_uint(w, "cache_bytes", s->cache_bytes);
		jw_double(w, "cache_bytes_per_s", s->cache_rate);
	}
	jw_uint(w, "window_from_bytes", (uint64_t)s->from * s->unit);
	jw_uint(w, "window_to_bytes", (uint64_t)s->to * s->unit);
	jw_double(w, "bytes_per_s", s->rate);
	jw_array_begin(w, "halves_bytes_per_s");
	jw_double(w, NULL, s->rep[0]);
	jw_double(w, NULL, s->rep[1]);
	jw_array_end(w);
	jw_double(w, "relative_noise", s->noise);
	jw_bool(w, "moved", s->moved);
	jw_string(w, "stopped", s->stopped ? s->stopped : "");
	jw_array_begin(w, "per_unit_bytes_per_s");
	for (int i = 0; i < s->nunits; i++)
		jw_double(w, NULL, s->unit_ns[i] > 0 ? (double)s->unit * 1e9 / s->unit_ns[i] : 0);
	jw_array_end(w);
	jw_object_end(w);
}

static void json_conditions(struct jw *w, const struct class_plan *p)
{
	jw_object_begin(w, "conditions");
	jw_string(w, "state", "area_written_sequentially_once");
	jw_uint(w, "erase_size_bytes", p->erasesize);
	jw_string(w, "erase_size_source", p->erase_source);
	jw_uint(w, "offset_bytes", p->offset);
	jw_uint(w, "area_bytes", p->area);
	jw_int(w, "erase_blocks", p->blocks);
	jw_int(w, "sustained_erase_blocks", p->sustained_blocks);
	jw_bool(w, "area_too_small", p->too_small);
	jw_uint(w, "sequential_request_bytes", p->chunk);
	jw_uint(w, "link_read_bytes", p->link_bytes);
	jw_uint(w, "random_request_bytes", 4096);
	jw_int(w, "max_random_ios", p->max_ios);
	jw_int(w, "max_phase_ns", p->max_ns);
	jw_int(w, "queue_depth", p->queued ? p->depth : 1);
	jw_string(w, "queue_depth_source", p->queued ? p->depth_source : "one at a time");
	jw_uint(w, "planned_write_bytes", p->test_bytes);
	jw_uint(w, "planned_write_with_restore_bytes", p->total_bytes);
	jw_uint(w, "sequential_budget_bytes", p->sustain_max);
	jw_int(w, "sequential_budget_ns", p->sustain_ns);
	jw_object_end(w);
}

static void json_card(struct jw *w, const struct class_result *r)
{
	char a[64];

	jw_object_begin(w, "sd_status");
	jw_bool(w, "visible", r->card.visible);
	if (r->card.visible) {
		jw_string(w, "claims", sd_claims_format(&r->card.marks, a, sizeof a));
		jw_int(w, "queue_depth", r->card.queue_depth);
		jw_bool(w, "cache", r->card.cache);
		jw_uint(w, "au_size_bytes", r->card.au_size);
	}
	jw_object_end(w);
	if (r->user_given)
		jw_string(w, "claim_option", sd_claims_format(&r->user, a, sizeof a));
	else
		jw_null(w, "claim_option");
	jw_bool(w, "claims_differ", r->differ);
}

void class_json(struct jw *w, const char *key, const struct class_result *r)
{
	jw_object_begin(w, key);
	if (r->decided)
		jw_string(w, "verdict", class_verdict_name(r->verdict));
	else
		jw_null(w, "verdict");
	json_card(w, r);
	jw_array_begin(w, "claims");
	for (int i = 0; r->decided && i < r->nclaims; i++)
		json_claim(w, &r->claims[i]);
	jw_array_end(w);
	json_conditions(w, &r->plan);
	if (r->link.run)
		jw_double(w, "link_read_bytes_per_s", r->link.value);
	if (r->seq.run && r->sustained > 0)
		jw_double(w, "sustained_write_bytes_per_s", r->sustained);
	if (r->seq.run)
		json_sustain(w, &r->sustain);
	jw_array_begin(w, "phases");
	json_phase(w, "link_read", &r->link);
	json_phase(w, "sequential_write", &r->seq);
	json_phase(w, "random_read", &r->rread);
	json_phase(w, "random_write", &r->rwrite);
	json_phase(w, "queued_random_read", &r->qread);
	json_phase(w, "queued_random_write", &r->qwrite);
	jw_array_end(w);
	jw_uint(w, "written_bytes", r->bytes_written);
	jw_uint(w, "read_bytes", r->bytes_read);
	jw_int(w, "device_time_ns", r->device_ns);
	jw_bool(w, "interrupted", r->interrupted);
	jw_bool(w, "data_restored", r->restored);
	if (!r->restored)
		jw_string(w, "restore_error", r->restore_error);
	jw_object_end(w);
}

void class_json_report(FILE *f, const struct dev *d, const char *device,
		       const struct class_result *r)
{
	char line[1024];
	struct dev_facts facts;
	struct jw w;
	struct run_status st = { .partial = !r->decided, .interrupted = r->interrupted,
				 .stopped = r->interrupted || r->failed,
				 .bytes_written = r->bytes_written, .device_ns = r->device_ns };

	if (r->failed && !r->interrupted) {
		st.nfailures = 1;
		st.first_failure = (struct vm_failure){ .off = r->fail_off, .len = r->fail_len,
							.err = r->fail_errno,
							.op = r->fail_write ? VM_WRITE_RANDOM : VM_READ };
	}
	class_summary(line, sizeof line, r);
	jw_init(&w, f);
	jw_object_begin(&w, NULL);
	json_envelope(&w, "class");
	measure_dev_facts_fill(&facts, d);
	json_device_facts(&w, &facts, device);
	jw_string(&w, "summary", line);
	class_json(&w, "class", r);
	json_status(&w, &st);
	jw_object_end(&w);
	jw_finish(&w);
	fflush(f);
}
