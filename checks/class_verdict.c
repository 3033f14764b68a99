/*
 * --class's verdicts: each mark's promises (SD Association figures,
 * doc/speed-classes.md) against the measured figures, and the rules for
 * what the measurement cannot decide: a link slower than the promise, an
 * area too small, no claim, A2 without command queueing and a cache.
 */
#include "checks/class.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

#define MB 1e6		/* the promises are in MB/s: 10^6 bytes */
#define LINK_BOUND 0.9	/* writes at 90% of the link's reads run at the link's ceiling */
#define QUEUE_GAIN 1.1	/* queued less than 10% faster: the queue did nothing */
#define IO_BYTES 4096.0

static void promise(struct class_claim *c, enum class_metric m, double v)
{
	c->req[c->nreq++] = (struct class_req){ .metric = m, .promised = v, .measured = -1,
						.depth = 1, .verdict = CV_UNKNOWN };
}

void class_promises(struct class_claim *c)
{
	c->nreq = 0;
	switch (c->kind) {
	case SD_MARK_SPEED:
	case SD_MARK_UHS:
		/* C2..C10: 2..10 MB/s; U1 10 MB/s, U3 30 MB/s */
		promise(c, CM_SEQ_WRITE, (c->kind == SD_MARK_UHS ? c->value == 3 ? 30 : 10 : c->value) * MB);
		break;
	case SD_MARK_VIDEO:
		promise(c, CM_SEQ_WRITE, c->value * MB);
		break;
	default:
		promise(c, CM_RAND_READ, c->value == 2 ? 4000 : 1500);
		promise(c, CM_RAND_WRITE, c->value == 2 ? 2000 : 500);
		promise(c, CM_SEQ_WRITE, 10 * MB);
		break;
	}
}

const char *class_verdict_name(enum class_verdict v)
{
	return v == CV_MET ? "met" : v == CV_SHORT ? "short" : "unknown";
}

/* "17.9M/s", "2293 IOPS" */
static const char *figure(char *buf, enum class_metric m, double v)
{
	if (m == CM_SEQ_WRITE)
		return fmt_rate(buf, v);
	snprintf(buf, FMT_BUF, "%.0f IOPS", v);
	return buf;
}

static const char *metric_words(enum class_metric m)
{
	return m == CM_SEQ_WRITE ? "sustained sequential writes" :
	       m == CM_RAND_READ ? "random 4KiB reads" : "random 4KiB writes";
}

/* The best of one-at-a-time and queued for A2; one at a time for A1. */
static void take_random(const struct class_result *r, const struct class_claim *c,
			struct class_req *q)
{
	const struct class_phase *one = q->metric == CM_RAND_READ ? &r->rread : &r->rwrite;
	const struct class_phase *many = q->metric == CM_RAND_READ ? &r->qread : &r->qwrite;

	if (one->run && one->ios) {
		q->measured = one->value;
		q->depth = 1;
	}
	if (c->value >= 2 && many->run && many->ios && many->value > q->measured) {
		q->measured = many->value;
		q->depth = many->depth;
	}
}

/* A2 short of its IOPS: can this path reach them at all? Then the reason it cannot. */
static bool a2_unreachable(const struct class_result *r, const struct class_req *q, char *why,
			   size_t n)
{
	const struct class_card *k = &r->card;
	const struct class_phase *one = q->metric == CM_RAND_READ ? &r->rread : &r->rwrite;
	const struct class_phase *many = q->metric == CM_RAND_READ ? &r->qread : &r->qwrite;
	const char *tail = "A2's figures are not reachable without command queueing and the card's "
			   "cache, and that is not the card's fault";

	if (!k->visible) {
		snprintf(why, n, "the SD Status is not visible here, so command queueing and the "
			 "cache cannot be used: %s", tail);
		return true;
	}
	if (k->queue_depth < 2 || !k->cache) {
		snprintf(why, n, "the SD Status shows %s: %s", k->queue_depth < 2 && !k->cache ?
			 "no command queue and no cache" : k->queue_depth < 2 ? "no command queue" :
			 "no cache", tail);
		return true;
	}
	if (many->run && many->depth_used <= 1) {
		snprintf(why, n, "this device path issues requests one at a time (asked for %d in "
			 "flight): %s", many->depth, tail);
		return true;
	}
	if (many->run && many->value <= QUEUE_GAIN * one->value) {
		snprintf(why, n, "%d requests in flight ran no faster than one (%.0f against %.0f "
			 "IOPS): this host does not queue commands to the card; %s", many->depth,
			 many->value, one->value, tail);
		return true;
	}
	return false;
}

static void judge(const struct class_result *r, const struct class_claim *c, struct class_req *q)
{
	char a[FMT_BUF], b[FMT_BUF], l[FMT_BUF];
	double link = r->link.value;

	q->verdict = CV_UNKNOWN;
	q->measured = -1;
	q->depth = 1;
	q->why[0] = '\0';
	if (q->metric == CM_SEQ_WRITE) {
		if (r->seq.run && r->plan.too_small) {
			snprintf(q->why, sizeof q->why, "area too small: %d erase blocks of the %d a "
				 "sustained rate needs", r->plan.blocks, 4);
			return;
		}
		if (r->seq.run && r->sustained > 0)
			q->measured = r->sustained;
	} else {
		take_random(r, c, q);
	}
	if (q->measured < 0) {
		snprintf(q->why, sizeof q->why, "not measured");
		return;
	}
	if (q->measured >= q->promised) {
		q->verdict = CV_MET;
		return;
	}
	double link_cap = q->metric == CM_SEQ_WRITE ? link : link / IO_BYTES;
	if (link > 0 && (link_cap < q->promised ||
			 (q->metric == CM_SEQ_WRITE && q->measured >= LINK_BOUND * link))) {
		char cap[FMT_BUF + 48];
		if (q->metric == CM_SEQ_WRITE)
			snprintf(cap, sizeof cap, "%s (large sequential reads)", fmt_rate(l, link));
		else
			snprintf(cap, sizeof cap, "%.0f IOPS (large sequential reads at %s)", link_cap,
				 fmt_rate(l, link));
		snprintf(q->why, sizeof q->why, "the reader caps this at %s: %s %s, promised %s", cap,
			 metric_words(q->metric), figure(a, q->metric, q->measured),
			 figure(b, q->metric, q->promised));
		return;
	}
	if (c->kind == SD_MARK_APP && c->value >= 2 && q->metric != CM_SEQ_WRITE &&
	    a2_unreachable(r, q, q->why, sizeof q->why))
		return;
	q->verdict = CV_SHORT;
	snprintf(q->why, sizeof q->why, "%s %s, promised %s", metric_words(q->metric),
		 figure(a, q->metric, q->measured), figure(b, q->metric, q->promised));
	if (q->metric != CM_SEQ_WRITE && q->depth > 1)
		snprintf(q->why + strlen(q->why), sizeof q->why - strlen(q->why), " (%d in flight)",
			 q->depth);
}

static void decide_claim(const struct class_result *r, struct class_claim *c)
{
	c->verdict = CV_MET;
	c->margin = INFINITY;
	c->why[0] = '\0';
	for (int i = 0; i < c->nreq; i++) {
		struct class_req *q = &c->req[i];
		judge(r, c, q);
		if (q->verdict == CV_MET && q->measured / q->promised - 1 < c->margin)
			c->margin = q->measured / q->promised - 1;
		/* short outranks unknown: the first short one, else the first unknown, decides */
		if (q->verdict == CV_SHORT && c->verdict != CV_SHORT) {
			c->verdict = CV_SHORT;
			memcpy(c->why, q->why, sizeof q->why);	/* q->why is inside c */
		} else if (q->verdict == CV_UNKNOWN && c->verdict == CV_MET) {
			c->verdict = CV_UNKNOWN;
			memcpy(c->why, q->why, sizeof q->why);	/* q->why is inside c */
		}
	}
	if (c->verdict == CV_MET)
		snprintf(c->why, sizeof c->why, "%+.0f%% over its promise", c->margin * 100);
}

void class_decide(struct class_result *r)
{
	r->verdict = r->nclaims ? CV_MET : CV_UNKNOWN;
	for (int i = 0; i < r->nclaims; i++) {
		decide_claim(r, &r->claims[i]);
		if (r->claims[i].verdict == CV_SHORT)
			r->verdict = CV_SHORT;
		else if (r->claims[i].verdict == CV_UNKNOWN && r->verdict == CV_MET)
			r->verdict = CV_UNKNOWN;
	}
}

int class_exit_status(const struct class_result *r)
{
	return r->decided && r->verdict == CV_MET ? 0 : 1;
}
