/*
 * --class's verdicts: each mark's promises (SD Association figures,
 * doc/speed-classes.md) against the measured figures, and the rules for
 * what the measurement cannot decide: writes at the link's ceiling, a rate
 * that moved between its two halves, an area too small, no claim, A2
 * without command queueing and a cache; each met or short at the
 * confidence its margin over the noise allows. And the sustained writes:
 * where a write cache's end shows, the window after it, and whether one
 * more pass over the area could change a verdict.
 */
#include "checks/class.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

#define MB 1e6		/* the promises are in MB/s: 10^6 bytes */
#define LINK_BOUND 0.9	/* writes at 90% of the link's reads run at the link's ceiling */
#define QUEUE_GAIN 1.1	/* queued less than 10% faster: the queue did nothing */
#define IO_BYTES 4096.0
#define LINK_NEAR 0.7	/* short within 70..90% of the link: the link may have slowed it */
#define KNEE_DROP 0.75	/* a cache's end: the rate falls below 3/4 of the rate before and stays */
#define NATIVE_FLOOR 0.2	/* past a cache cards write at 20-50% of the cached rate (card-facts §10) */
#define MOVED_MIN 0.10		/* halves this far apart (and beyond 3 standard errors): it moved */
#define AFTER_NS 2e9		/* past a cache's end this long: longer than a busy host's spell */
#define IOPS_NOISE 0.10		/* a random phase's figure, taken as this uncertain */
#define CARD_QUANTILE 0.75	/* the card's rate: the upper quartile of its units (host noise slows) */

/* ------------------------------------------------------------ sustained writes */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of n values (copied, sorted). */
static double quantile(const double *v, int n, double q)
{
	double t[CLASS_MAX_UNITS];

	if (n <= 0)
		return 0;
	memcpy(t, v, (size_t)n * sizeof *t);
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	double at = q * (n - 1);
	int i = (int)at;
	return i + 1 < n ? t[i] + (at - i) * (t[i + 1] - t[i]) : t[i];
}

/* Bytes per second over units [a, b). */
static double window_rate(const struct class_sustain *s, int a, int b)
{
	double ns = 0;

	for (int i = a; i < b; i++)
		ns += s->unit_ns[i];
	return ns > 0 ? (double)(b - a) * (double)s->unit * 1e9 / ns : 0;
}

/* Relative scatter of the units' rates in [a, b): robust sigma over the median. */
static double scatter(const double *u, int a, int b)
{
	double d[CLASS_MAX_UNITS];
	int n = b - a;

	if (n < 2)
		return 0;
	double mid = quantile(u + a, n, 0.5);
	for (int i = 0; i < n; i++)
		d[i] = fabs(u[a + i] - mid);
	return mid > 0 ? 1.4826 * quantile(d, n, 0.5) / mid : 0;
}

/* The longest run of units in [0, k) under limit: how long a busy host's spell lasted. */
static int longest_slow_run(const double *u, int k, double limit)
{
	int run = 0, longest = 0;

	for (int i = 0; i < k; i++) {
		run = u[i] < limit ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	return longest;
}

/*
 * The first unit from which the rate stays down: the median after it, and
 * nine in ten of its units, under KNEE_DROP of the median before, and below
 * its lower quartile (a busy host only slows units down: past a cache's
 * end no unit is fast again), and down for more than three times
 * the longest spell of slow units before it (a busy host slows a few units
 * at a time; a cache's end, all that follow); -1 if none.
 */
static int knee(const double *u, int n)
{
	for (int k = 1; k + 1 < n; k++) {
		double before = quantile(u, k, 0.5), after = quantile(u + k, n - k, 0.5);
		double high_after = quantile(u + k, n - k, 0.9);
		if (after < KNEE_DROP * before && high_after < KNEE_DROP * before &&
		    high_after < quantile(u, k, 0.25) && u[k] < KNEE_DROP * before &&
		    n - k > 3 * longest_slow_run(u, k, KNEE_DROP * before))
			return k;
	}
	return -1;
}

void class_sustain_analyze(struct class_sustain *s)
{
	double u[CLASS_MAX_UNITS];
	int n = s->nunits;

	for (int i = 0; i < n; i++)
		u[i] = s->unit_ns[i] > 0 ? (double)s->unit * 1e9 / s->unit_ns[i] : 0;
	int k = knee(u, n);
	s->cache_seen = k > 0;
	s->cache_bytes = s->cache_seen ? (uint64_t)k * s->unit : 0;
	s->cache_rate = s->cache_seen ? window_rate(s, 0, k) : 0;
	/* after a cache's end (its first unit may be part cached), else the last half */
	s->from = !s->cache_seen ? n / 2 : n - k >= 3 ? k + 1 : k;
	s->to = n;
	/* the upper quartile of the units: a busy host slows units down, never one up */
	s->rate = quantile(u + s->from, s->to - s->from, CARD_QUANTILE);
	/*
	 * The rate the card showed it holds when the host let it: the
	 * second-fastest unit past the cache's end, else past the first unit
	 * (a RAM buffer may carry one); two units, so that one is not enough.
	 */
	int lo = s->cache_seen ? s->from : n > 2, m = n - lo;
	s->held = m >= 2 ? quantile(u + lo, m, (double)(m - 2) / (m - 1)) : s->rate;
	int mid = s->from + (s->to - s->from) / 2, len = s->to - s->from;
	if (len >= 2) {
		s->rep[0] = quantile(u + s->from, mid - s->from, CARD_QUANTILE);
		s->rep[1] = quantile(u + mid, s->to - mid, CARD_QUANTILE);
		/* each half's own scatter: the halves' difference is not noise */
		double sigma = fmax(scatter(u, s->from, mid), scatter(u, mid, s->to));
		s->noise = sigma / sqrt(len);
		double apart = s->rate > 0 ? fabs(s->rep[0] - s->rep[1]) / s->rate : 0;
		s->moved = apart > MOVED_MIN && apart > 3 * sigma * 2 / sqrt(len);
	} else {
		s->rep[0] = s->rep[1] = s->rate;
		s->noise = 0;
		s->moved = false;
	}
}

/* The sequential promises of the claims, in bytes per second; how many. */
static int sequential_promises(const struct class_result *r, double *p)
{
	int n = 0;

	for (int i = 0; i < r->nclaims; i++)
		for (int j = 0; j < r->claims[i].nreq; j++)
			if (r->claims[i].req[j].metric == CM_SEQ_WRITE)
				p[n++] = r->claims[i].req[j].promised;
	return n;
}

bool class_sustain_more(const struct class_result *r, struct class_sustain *s, const char *device)
{
	const struct class_plan *p = &r->plan;
	double promised[CLASS_MAX_CLAIMS * 3];
	int n = sequential_promises(r, promised);
	bool could_change = false;

	(void)device;
	if (p->too_small || !n) {
		s->stopped = "nothing to decide from more";
		return false;
	}
	/* past a cache's end, for longer than a busy host's spell, so it is the card's */
	double after_ns = 0;
	for (int i = s->from; i < s->nunits; i++)
		after_ns += s->unit_ns[i];
	if (s->cache_seen && s->nunits - s->from >= CLASS_AFTER_UNITS && after_ns >= AFTER_NS) {
		s->stopped = "past a write cache's end, and the rate after it measured";
		return false;
	}
	/* a cached rate meets a promise a card's native one (a fifth of it, at least) may not */
	for (int i = 0; i < n; i++)
		could_change |= s->cache_seen || (promised[i] > NATIVE_FLOOR * s->rate &&
						  promised[i] <= s->rate * (1 + 3 * s->noise));
	if (!could_change) {
		s->stopped = "no verdict could change with more";
		return false;
	}
	if (s->written + p->area > p->sustain_max) {
		s->stopped = "the budget";
		return false;
	}
	double pass_ns = s->written ? (double)s->ns * (double)p->area / (double)s->written : 0;
	if (p->sustain_ns && (double)s->ns + pass_ns > (double)p->sustain_ns) {
		s->stopped = "the time limit";
		return false;
	}
	return true;
}

/* ------------------------------------------------------------ promises */

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

/*
 * The confidence a margin allows: the promise's distance from the measured
 * figure, relative to that figure, against the figure's uncertainty (the
 * relative standard error, or half the replicas' difference, whichever is
 * more): high beyond three times it and 10%, medium beyond it and 3%, else
 * low. Relative to the figure, as its uncertainty is: 209 IOPS measured is
 * short of 500 even if the card does 1.75 times that.
 */
static enum confidence margin_conf(double measured, double promised, double noise)
{
	double m = measured > 0 ? fabs(measured - promised) / measured : INFINITY;

	return m > fmax(3 * noise, 0.10) ? CONF_HIGH : m > fmax(noise, 0.03) ? CONF_MEDIUM : CONF_LOW;
}

/* the sustained figure's uncertainty: its standard error, or half its halves' difference */
static double sustained_noise(const struct class_sustain *s)
{
	double half = s->rate > 0 ? fabs(s->rep[0] - s->rep[1]) / 2 / s->rate : 0;

	return s->nunits ? fmax(s->noise, half) : IOPS_NOISE;	/* no units: figures given, not timed */
}

/* "(after a write cache's end at ~1GiB: 69.7M/s before)", or "" */
static void cache_words(char *buf, size_t n, const struct class_sustain *s)
{
	char a[FMT_BUF], b[FMT_BUF];

	buf[0] = '\0';
	if (s->cache_seen)
		snprintf(buf, n, " after a write cache's end at ~%s (%s before it)",
			 fmt_size(a, s->cache_bytes), fmt_rate(b, s->cache_rate));
}

/* "flashbench --class[ OPTION] --claim=C10 DEVICE": the same check again, the same claims */
static void rerun_line(char *buf, size_t n, const struct class_result *r, const char *option)
{
	char claims[96] = "";

	if (r->user_given)
		sd_claims_format(&r->user, claims, sizeof claims);
	snprintf(buf, n, "flashbench --class%s%s%s %s", option, r->user_given ? " --claim=" : "", claims,
		 r->device);
}

/* "--max-write=3G": what lets the passes reach past the largest cache of a card of this size */
static void rerun_past_caches(char *buf, size_t n, const struct class_result *r)
{
	uint64_t g = 1ull << 30;
	uint64_t want = r->plan.device_size / CACHE_SHARE + 2 * r->plan.area +
			(r->plan.total_bytes - r->plan.sustain_max);
	char option[48];

	snprintf(option, sizeof option, " --max-write=%" PRIu64 "G", (want + g - 1) / g);
	rerun_line(buf, n, r, option);
}

/* A sequential promise against the sustained writes: replicas, the link, the cache. */
static void judge_sequential(const struct class_result *r, struct class_claim *c, struct class_req *q)
{
	const struct class_sustain *s = &r->sustain;
	char a[FMT_BUF], b[FMT_BUF], l[FMT_BUF], how[160];
	double link = r->link.value, noise = sustained_noise(s);

	if (r->plan.too_small) {
		snprintf(q->why, sizeof q->why, "area too small: %d erase blocks of the %d a "
			 "sustained rate needs", r->plan.blocks, 4);
		return;
	}
	q->measured = r->sustained;
	cache_words(how, sizeof how, s);
	/* the writes ran at the link's ceiling: what the card could do did not show */
	if (link > 0 && q->measured < q->promised && q->measured >= LINK_BOUND * link) {
		snprintf(q->why, sizeof q->why, "the reader caps this at %s (large sequential reads): "
			 "%s %s, promised %s", fmt_rate(l, fmax(link, q->measured)),
			 metric_words(q->metric), figure(a, q->metric, q->measured),
			 figure(b, q->metric, q->promised));
		return;
	}
	/* the two halves disagree beyond their noise, and the promise lies between them */
	if (s->moved && fmin(s->rep[0], s->rep[1]) < q->promised * (1 + s->noise) &&
	    fmax(s->rep[0], s->rep[1]) > q->promised * (1 - s->noise)) {
		snprintf(q->why, sizeof q->why, "the rate moved between runs: %s, then %s%s (promised %s)",
			 fmt_rate(a, s->rep[0]), fmt_rate(b, s->rep[1]), how, fmt_rate(l, q->promised));
		rerun_line(c->rerun, sizeof c->rerun, r, "");
		return;
	}
	/*
	 * Short, but units of the same writes ran at the promise: a busy host
	 * slows units and never speeds one, so the card may keep it (issue 30:
	 * met in one run and short in the next). Unknown, with the rerun.
	 */
	if (q->measured < q->promised && s->held >= q->promised) {
		snprintf(q->why, sizeof q->why, "the rate moved between runs: %s%s, but units of it "
			 "ran at %s (promised %s)", fmt_rate(a, q->measured), how,
			 fmt_rate(b, s->held), fmt_rate(l, q->promised));
		rerun_line(c->rerun, sizeof c->rerun, r, "");
		return;
	}
	q->verdict = q->measured >= q->promised ? CV_MET : CV_SHORT;
	q->conf = margin_conf(q->measured, q->promised, noise);
	/* short: as sure as the units that ran fastest are short */
	if (q->verdict == CV_SHORT)
		q->conf = (enum confidence)fmin(q->conf, margin_conf(s->held, q->promised, noise));
	snprintf(q->why, sizeof q->why, "%s %s%s, promised %s", metric_words(q->metric),
		 figure(a, q->metric, q->measured), how, figure(b, q->metric, q->promised));
	if (q->verdict == CV_SHORT && link > 0 && q->measured >= LINK_NEAR * link && q->conf > CONF_LOW) {
		q->conf = CONF_LOW;	/* near the link's ceiling: the link may have slowed it */
		fmt_append(q->why, sizeof q->why, "; near the link's %s", fmt_rate(l, link));
	}
	/* met at a rate a write cache may carry, with no end of one seen in what was written */
	if (q->verdict == CV_MET && !s->cache_seen && s->nunits && q->promised > NATIVE_FLOOR * q->measured &&
	    s->written < r->plan.device_size / CACHE_SHARE) {
		q->conf = CONF_LOW;
		fmt_append(q->why, sizeof q->why, "; no end of a write cache in the %s written, and "
			   "cards this size have caches up to %s", fmt_size(a, s->written),
			   fmt_size(b, r->plan.device_size / CACHE_SHARE));
		rerun_past_caches(c->rerun, sizeof c->rerun, r);
	}
}

static void judge(const struct class_result *r, struct class_claim *c, struct class_req *q)
{
	char a[FMT_BUF], b[FMT_BUF], l[FMT_BUF];
	double link = r->link.value;

	q->verdict = CV_UNKNOWN;
	q->conf = CONF_NONE;
	q->measured = -1;
	q->depth = 1;
	q->why[0] = '\0';
	if (q->metric == CM_SEQ_WRITE) {
		if (!r->seq.run || r->sustained <= 0)
			snprintf(q->why, sizeof q->why, "not measured");
		else
			judge_sequential(r, c, q);
		return;
	}
	take_random(r, c, q);
	if (q->measured < 0) {
		snprintf(q->why, sizeof q->why, "not measured");
		return;
	}
	if (q->measured >= q->promised) {
		q->verdict = CV_MET;
		q->conf = margin_conf(q->measured, q->promised, IOPS_NOISE);
		return;
	}
	/* 4 KiB requests at the link's large-read rate: the reader's ceiling, not the card's */
	double link_cap = link / IO_BYTES;
	if (link > 0 && q->measured >= LINK_BOUND * link_cap) {
		snprintf(q->why, sizeof q->why, "the reader caps this at %.0f IOPS (large sequential "
			 "reads at %s): %s %s, promised %s", link_cap, fmt_rate(l, link),
			 metric_words(q->metric), figure(a, q->metric, q->measured),
			 figure(b, q->metric, q->promised));
		return;
	}
	if (c->kind == SD_MARK_APP && c->value >= 2 && a2_unreachable(r, q, q->why, sizeof q->why))
		return;
	q->verdict = CV_SHORT;
	q->conf = margin_conf(q->measured, q->promised, IOPS_NOISE);
	snprintf(q->why, sizeof q->why, "%s %s, promised %s", metric_words(q->metric),
		 figure(a, q->metric, q->measured), figure(b, q->metric, q->promised));
	if (q->depth > 1)
		snprintf(q->why + strlen(q->why), sizeof q->why - strlen(q->why), " (%d in flight)",
			 q->depth);
}

static void decide_claim(const struct class_result *r, struct class_claim *c)
{
	c->verdict = CV_MET;
	c->margin = INFINITY;
	c->conf = CONF_HIGH;
	c->why[0] = '\0';
	c->rerun[0] = '\0';
	for (int i = 0; i < c->nreq; i++) {
		struct class_req *q = &c->req[i];
		judge(r, c, q);
		if (q->verdict == CV_MET && q->measured / q->promised - 1 < c->margin)
			c->margin = q->measured / q->promised - 1;
		/* short outranks unknown: the first short one, else the first unknown, decides */
		if (q->verdict == CV_SHORT && c->verdict != CV_SHORT) {
			c->verdict = CV_SHORT;
			c->conf = q->conf;
			memcpy(c->why, q->why, sizeof q->why);	/* q->why is inside c */
		} else if (q->verdict == CV_UNKNOWN && c->verdict == CV_MET) {
			c->verdict = CV_UNKNOWN;
			c->conf = CONF_NONE;
			memcpy(c->why, q->why, sizeof q->why);	/* q->why is inside c */
		} else if (q->verdict == c->verdict && q->conf < c->conf) {
			c->conf = q->conf;	/* met: every promise kept, as sure as the least sure */
		}
	}
	/* short of one promise: no rerun of another can make the claim met */
	if (c->verdict == CV_SHORT)
		c->rerun[0] = '\0';
	if (c->verdict == CV_MET) {
		snprintf(c->why, sizeof c->why, "%+.0f%% over its promise", c->margin * 100);
		/* the least sure promise says why */
		for (int i = 0; i < c->nreq; i++)
			if (c->req[i].conf == c->conf && c->conf < CONF_MEDIUM && strchr(c->req[i].why, ';'))
				fmt_append(c->why, sizeof c->why, "%s", strchr(c->req[i].why, ';'));
	}
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
