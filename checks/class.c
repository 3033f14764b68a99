/*
 * --class: the claims, the plan, and the measurement (doc/speed-classes.md).
 *
 * The test area, a whole number of erase blocks from 64 MiB on, is saved
 * first (safety/preserve.c). Then, each I/O timed right around its syscall
 * (the VM; queued runs by dev_transfer_queued):
 *   1. the link's ceiling: large sequential reads of the area;
 *   2. the area written sequentially, erase block after erase block, in
 *      requests of up to 4 MiB, and again and again while a write cache
 *      may carry it (checks/class_verdict.c decides: until its end shows
 *      and the rate after it is measured, or no verdict could change, or
 *      the budget is spent): the C/U/V figures, over the writes after the
 *      cache's end (else the last half), in two halves that must agree;
 *      and the stated state of the random phases;
 *   3. with an A claim: 4 KiB random reads, then writes, one at a time,
 *      inside the area, each phase up to CLASS_IOS I/Os or CLASS_PHASE_NS
 *      of device time;
 *   4. with A2: the same with several requests in flight.
 * Then the area is restored and verified, also on errors and Ctrl-C.
 */
#include "checks/class.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "identity/identity.h"
#include "lib/progress.h"
#include "lib/units.h"
#include "measure/measure.h"
#include "safety/safety.h"
#include "vm.h"

#define MiB ((uint64_t)1 << 20)
#define CLASS_OFFSET (64 * MiB)	/* past the FAT-optimised start of most cards */
#define CLASS_AREA (64 * MiB)	/* the Raspberry Pi test's 64 MiB file, here raw */
#define CLASS_MIN_BLOCKS 4	/* fewer, and the sustained half is one or two blocks */
#define CLASS_CHUNK_MAX (4 * MiB)
#define CLASS_LINK_MAX (32 * MiB)
#define CLASS_IO 4096u
#define CLASS_IOS 2048
#define CLASS_PHASE_NS 4000000000ll
#define CLASS_MIN_IOS 8		/* a phase runs at least this many, however slow */
#define CLASS_DEFAULT_DEPTH 4	/* fio iodepth of the Raspberry Pi test */
#define CLASS_MAX_DEPTH 32	/* the SD command queue's largest */
#define FALLBACK_ERASE (4 * MiB)
#define CLASS_SUSTAIN_NS 20000000000ll	/* the passes' device time at most, by default */
#define CLASS_SUSTAIN_MAX (8ull << 30)

/* ---------------------------------------------------------------- claims */

static unsigned int speed_class_of(unsigned int code)
{
	static const unsigned int v[] = { 0, 2, 4, 6, 10 };
	return code < 5 ? v[code] : 0;
}

/* A value the SD Status field may hold for a mark, else 0 (reserved values claim nothing). */
static unsigned int valid_mark(enum sd_mark_kind k, unsigned int v)
{
	char name[16];
	enum sd_mark_kind k2;
	unsigned int v2;

	sd_mark_name(k, v, name, sizeof name);
	return v && sd_mark_parse(name, strlen(name), &k2, &v2) && k2 == k ? v : 0;
}

static void read_card(struct dev *d, const char *sysfs_root, struct class_card *c)
{
	char hex[256];
	struct sd_ssr s;

	memset(c, 0, sizeof *c);
	if (!identity_card_ssr(d, sysfs_root, hex, sizeof hex) || sd_ssr_decode(hex, &s) < 0)
		return;
	c->visible = true;
	c->marks.speed = speed_class_of(s.speed_class);
	c->marks.uhs = valid_mark(SD_MARK_UHS, s.uhs_speed_grade);
	c->marks.video = valid_mark(SD_MARK_VIDEO, s.video_speed_class);
	c->marks.app = valid_mark(SD_MARK_APP, s.app_perf_class);
	c->queue_depth = s.queue_depth;
	c->cache = s.cache;
	c->au_size = s.au_size;
}

static void add_claim(struct class_result *r, enum sd_mark_kind k, unsigned int v,
		      unsigned int source)
{
	struct class_claim *c;

	if (!v || r->nclaims >= CLASS_MAX_CLAIMS)
		return;
	c = &r->claims[r->nclaims++];
	memset(c, 0, sizeof *c);
	c->kind = k;
	c->value = v;
	c->source = source;
	sd_mark_name(k, v, c->name, sizeof c->name);
	class_promises(c);
}

/* Per kind: the card's claim and the user's; one entry when they agree, both when not. */
static void collect_claims(struct class_result *r)
{
	for (int k = 0; k < SD_MARK_KINDS; k++) {
		unsigned int card = r->card.visible ? sd_claims_get(&r->card.marks, k) : 0;
		unsigned int user = r->user_given ? sd_claims_get(&r->user, k) : 0;

		if (card && card == user) {
			add_claim(r, k, card, CLAIM_FROM_CARD | CLAIM_FROM_USER);
			continue;
		}
		if (card && user)
			r->differ = true;
		add_claim(r, k, card, CLAIM_FROM_CARD);
		add_claim(r, k, user, CLAIM_FROM_USER);
	}
}

unsigned int class_claims_known(struct dev *d, const struct sd_claims *claim, const char *sysfs_root)
{
	struct class_card card;
	unsigned int app = 0, known = 0;

	read_card(d, sysfs_root ? sysfs_root : "/sys", &card);
	if (card.visible && sd_claims_any(&card.marks)) {
		known = CLASS_KNOWN_ANY;
		app = card.marks.app;
	}
	if (claim && sd_claims_any(claim)) {
		known = CLASS_KNOWN_ANY;
		app = claim->app > app ? claim->app : app;
	}
	return known | (app ? CLASS_KNOWN_APP : 0) | (app >= 2 ? CLASS_KNOWN_QUEUED : 0);
}

/* ---------------------------------------------------------------- plan */

static uint64_t round_up(uint64_t x, uint64_t unit)
{
	return (x + unit - 1) / unit * unit;
}

static bool usable_erase(const struct dev *d, uint64_t es)
{
	return es && es % d->lbs == 0 && units_is_erase_candidate(es);
}

/* No --erasesize and nothing the card or sysfs say: -a, read-only, as the alignment test. */
static int measure_erase(struct dev *d, struct class_plan *p, char *err, size_t n)
{
	struct params prm;
	struct align_result ar;
	struct size_estimate erase, page;

	params_defaults(&prm);
	memset(&ar, 0, sizeof ar);
	int rc = measure_align(d, &prm, &ar);
	if (rc < 0 || ar.st.nfailures) {
		if (vm_stop_requested)
			snprintf(err, n, "%s: interrupted while measuring the erase size", d->path);
		else
			snprintf(err, n, "%s: measuring the erase size (-a): %s failed at offset %"
				 PRIu64 ": %s", d->path, "read", ar.st.first_failure.off,
				 strerror(ar.st.first_failure.err ? ar.st.first_failure.err : EIO));
		align_result_free(&ar);
		return -1;
	}
	analyze_align(&ar, &erase, &page);
	align_result_free(&ar);
	if (erase.bytes && erase.conf >= CONF_LOW && usable_erase(d, erase.bytes)) {
		p->erasesize = erase.bytes;
		snprintf(p->erase_source, sizeof p->erase_source, "measured by -a, %s confidence",
			 results_confidence_name(erase.conf));
	} else {
		p->erasesize = FALLBACK_ERASE;
		snprintf(p->erase_source, sizeof p->erase_source,
			 "the common size, as -a found none: give --erasesize");
	}
	return 0;
}

/* The erase size from --erasesize, the SD Status or sysfs: 0; 1 when only -a can tell. */
static int choose_erase_size(struct dev *d, const struct class_opts *o, struct class_result *r)
{
	struct class_plan *p = &r->plan;

	if (o->erasesize) {
		p->erasesize = o->erasesize;
		snprintf(p->erase_source, sizeof p->erase_source, "%s",
			 o->erase_source ? o->erase_source : "--erasesize");
		return 0;
	}
	if (r->card.visible && usable_erase(d, r->card.au_size)) {
		p->erasesize = r->card.au_size;
		snprintf(p->erase_source, sizeof p->erase_source, "AU_SIZE in the card's SD Status");
		return 0;
	}
	if (!dev_simulated(d)) {
		struct identity *id = identity_probe(d, o->sysfs_root ? o->sysfs_root : "/sys");
		uint64_t pref = identity_preferred_erase_size(id);
		identity_free(id);
		if (usable_erase(d, pref)) {
			p->erasesize = pref;
			snprintf(p->erase_source, sizeof p->erase_source, "sysfs preferred_erase_size");
			return 0;
		}
	}
	return 1;	/* only -a can tell: measure_erase() */
}

/* Requests of up to 4 MiB that divide the erase block (3*2^n sizes included). */
static uint64_t chunk_of(uint64_t es)
{
	uint64_t c = es & -es;

	if (es <= CLASS_CHUNK_MAX)
		return es;
	while (c > CLASS_CHUNK_MAX)
		c /= 2;
	return c;
}

/* The area: 64 MiB (at least 4 erase blocks) from 64 MiB; on a small device what fits. */
static int plan_area(const struct dev *d, struct class_plan *p, char *err, size_t n)
{
	uint64_t es = p->erasesize, usable = d->size / es * es;
	char a[FMT_BUF], b[FMT_BUF];

	p->area = round_up(CLASS_AREA, es);
	if (p->area < CLASS_MIN_BLOCKS * es)
		p->area = CLASS_MIN_BLOCKS * es;
	p->offset = round_up(CLASS_OFFSET, es);
	if (p->offset + p->area > usable)
		p->offset = es;		/* past the first erase block, at least */
	if (p->offset + p->area > usable)
		p->area = usable > p->offset ? usable - p->offset : 0;
	if (p->area < es) {
		snprintf(err, n, "%s: %s is too small for --class: it needs two erase blocks of %s",
			 d->path, fmt_size(a, d->size), fmt_size(b, es));
		return -1;
	}
	p->blocks = (int)(p->area / es);
	p->too_small = p->blocks < CLASS_MIN_BLOCKS;
	p->sustained_blocks = p->blocks / 2 ? p->blocks / 2 : 1;
	p->chunk = chunk_of(es);
	p->link_bytes = p->area < CLASS_LINK_MAX ? p->area : CLASS_LINK_MAX / p->chunk * p->chunk;
	if (!p->link_bytes)
		p->link_bytes = p->chunk;
	return 0;
}

static void plan_phases(struct class_result *r, uint64_t max_write, uint64_t room)
{
	struct class_plan *p = &r->plan;

	for (int i = 0; i < r->nclaims; i++) {
		if (r->claims[i].kind != SD_MARK_APP)
			continue;
		p->random = true;
		if (r->claims[i].value >= 2)
			p->queued = true;
	}
	p->max_ios = CLASS_IOS;
	p->max_ns = CLASS_PHASE_NS;
	if (r->card.visible && r->card.queue_depth >= 2) {
		p->depth = r->card.queue_depth < CLASS_MAX_DEPTH ? (int)r->card.queue_depth
								   : CLASS_MAX_DEPTH;
		snprintf(p->depth_source, sizeof p->depth_source, "the depth in the card's SD Status");
	} else {
		p->depth = CLASS_DEFAULT_DEPTH;
		snprintf(p->depth_source, sizeof p->depth_source,
			 "the Raspberry Pi test's: no depth in an SD Status");
	}
	uint64_t random = (uint64_t)p->max_ios * CLASS_IO;
	uint64_t random_bytes = (p->random ? random : 0) + (p->queued ? random : 0);
	p->min_total_bytes = p->area + random_bytes + p->area;
	/*
	 * The passes: far enough to pass the largest write cache a card of this
	 * size has, and a window after it, in CLASS_SUSTAIN_NS at most; with
	 * --max-write, as far as it allows (no time limit: the user asked).
	 */
	uint64_t reach = round_up(p->device_size / CACHE_SHARE + CLASS_AFTER_UNITS * p->erasesize,
				  p->area);
	p->sustain_max = reach < CLASS_SUSTAIN_MAX ? reach : CLASS_SUSTAIN_MAX / p->area * p->area;
	p->sustain_ns = CLASS_SUSTAIN_NS;
	if (max_write) {
		uint64_t room = max_write > random_bytes + p->area ? max_write - random_bytes - p->area : 0;
		uint64_t cap = round_up(p->device_size / 4, p->area);
		p->sustain_max = (room < cap ? room : cap) / p->area * p->area;
		p->sustain_ns = 0;
	}
	if (room && room < p->sustain_max + random_bytes + p->area)	/* what the caller has left */
		p->sustain_max = room > random_bytes + p->area ?
				 (room - random_bytes - p->area) / p->area * p->area : 0;
	if (p->sustain_max < p->area)
		p->sustain_max = p->area;
	p->test_bytes = p->sustain_max + random_bytes;
	p->total_bytes = p->test_bytes + p->area;
}

/* "144M": a value --max-write takes back exactly. */
static const char *size_arg_text(char *buf, size_t n, uint64_t v)
{
	if (v % MiB == 0)
		snprintf(buf, n, "%" PRIu64 "M", v / MiB);
	else if (v % 1024 == 0)
		snprintf(buf, n, "%" PRIu64 "K", v / 1024);
	else
		snprintf(buf, n, "%" PRIu64, v);
	return buf;
}

/* ---------------------------------------------------------- pre-flight */

/*
 * Every check of the options against the plan is made before the first
 * I/O where the plan is known then; where it waits for -a's erase size,
 * what no erase size could change is checked before -a, and the rest
 * after it, before anything is written (exit 2 means nothing read or
 * written: a refusal after -a's reads is a run-time one).
 */

/* The plan for erase size es: 0, or -1 when the device has no room for it. */
static int plan_for(const struct dev *d, uint64_t es, struct class_result *r)
{
	char err[256];

	r->plan.erasesize = es;
	if (plan_area(d, &r->plan, err, sizeof err) < 0)
		return -1;
	r->plan.device_size = d->size;
	plan_phases(r, 0, 0);
	return 0;
}

/* The smallest volume any erase size -a may find (128KiB..64MiB) plans; UINT64_MAX: none fits. */
static uint64_t smallest_plan(const struct dev *d, const struct class_result *r)
{
	struct class_result *t = malloc(sizeof *t);
	uint64_t best = UINT64_MAX;

	for (uint64_t p = ERASE_MIN; t && p <= ERASE_MAX; p *= 2) {
		uint64_t sizes[2] = { p, p / 2 * 3 };
		for (int i = 0; i < 2; i++) {
			*t = *r;
			if (sizes[i] <= ERASE_MAX && usable_erase(d, sizes[i]) &&
			    plan_for(d, sizes[i], t) == 0 && !t->plan.too_small &&
			    t->plan.min_total_bytes < best)
				best = t->plan.min_total_bytes;
		}
	}
	free(t);
	return best;
}

/* Before -a measures the erase size: what no erase size could make fit is refused now. */
static int preflight_before_measuring(const struct dev *d, const struct class_opts *o,
				      const struct class_result *r, char *err, size_t n)
{
	char a[FMT_BUF], b[FMT_BUF], want[32];
	uint64_t least = smallest_plan(d, r);

	if (least == UINT64_MAX) {
		snprintf(err, n, "%s: %s is too small for --class at any erase size (it needs %d erase "
			 "blocks after the first)", d->path, fmt_size(a, d->size), CLASS_MIN_BLOCKS);
		return -2;
	}
	if (o->max_write && o->max_write < least) {
		snprintf(err, n, "--max-write=%s: --class writes at least %s on %s, whatever its erase "
			 "size (which it would measure first, reading): use --max-write=%s or more",
			 o->max_write_typed ? o->max_write_typed : fmt_size(a, o->max_write),
			 fmt_size(b, least), d->path, size_arg_text(want, sizeof want, least));
		return -2;
	}
	return 0;
}

/*
 * Too few erase blocks for a sustained rate: every claim's sequential
 * figure would read "unknown: area too small" after all the writing.
 */
static int refuse_too_small(const struct dev *d, const struct class_result *r, char *err, size_t n)
{
	char a[FMT_BUF], b[FMT_BUF];

	if (!r->plan.too_small)
		return 0;
	snprintf(err, n, "%s: %s has room for %d erase block%s of %s (%s) past the first, and a "
		 "sustained rate needs %d: nothing written (give --erasesize if the card's erase "
		 "blocks are smaller)", d->path, fmt_size(a, d->size), r->plan.blocks,
		 r->plan.blocks == 1 ? "" : "s", fmt_size(b, r->plan.erasesize),
		 r->plan.erase_source, CLASS_MIN_BLOCKS);
	return -1;
}

int class_prepare(struct dev *d, const struct class_opts *o, struct class_result *r,
		  char *err, size_t n)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], want[32];

	memset(r, 0, sizeof *r);
	snprintf(r->device, sizeof r->device, "%s", d->path);
	r->start_written = d->bytes_written;
	r->start_read = d->bytes_read;
	r->start_ns = d->device_ns;
	r->restored = true;
	r->simulated = dev_simulated(d);
	read_card(d, o->sysfs_root ? o->sysfs_root : "/sys", &r->card);
	if (o->claim) {
		r->user = *o->claim;
		r->user_given = true;
	}
	collect_claims(r);
	if (!r->nclaims) {	/* nothing to check: nothing is written */
		class_decide(r);
		r->decided = true;
		return 0;
	}
	bool measured = choose_erase_size(d, o, r) > 0;
	int refusal = measured ? -1 : -2;	/* after -a's reads, no usage error */
	if (measured) {
		int pf = preflight_before_measuring(d, o, r, err, n);
		if (pf < 0)
			return pf;
		if (measure_erase(d, &r->plan, err, n) < 0)
			return -1;
	}
	if (plan_area(d, &r->plan, err, n) < 0)
		return refusal;
	r->plan.device_size = d->size;
	plan_phases(r, o->max_write, o->room);
	if (refuse_too_small(d, r, err, n) < 0)
		return refusal;
	if (o->max_write && o->max_write < r->plan.min_total_bytes) {
		snprintf(err, n, "--max-write=%s: --class writes at least %s on %s (%s of test data, then "
			 "%s restored): use --max-write=%s or more", o->max_write_typed ?
			 o->max_write_typed : fmt_size(a, o->max_write), fmt_size(b, r->plan.min_total_bytes),
			 d->path, fmt_size(c, r->plan.min_total_bytes - r->plan.area),
			 fmt_size(a, r->plan.area), size_arg_text(want, sizeof want, r->plan.min_total_bytes));
		if (measured)
			fmt_append(err, n, " (the erase size was measured first, with -a: read "
				   "only, nothing written)");
		return refusal;
	}
	return 0;
}

void class_plan_line(char *buf, size_t n, const struct dev *d, const struct class_result *r)
{
	const struct class_plan *p = &r->plan;
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], e[FMT_BUF], t[FMT_BUF];

	char passes[FMT_BUF + 96] = "";
	if (p->sustain_max > p->area)
		snprintf(passes, sizeof passes, ", again while a write cache may carry it (%s in all at "
			 "most%s)", fmt_size(c, p->sustain_max), p->sustain_ns ? ", 20s" : "");
	snprintf(buf, n, "%s: --class writes at most %s: %s from offset %s in %d erase blocks of %s "
		 "(%s)%s%s, saved first and restored and verified after (%s more)", d->path,
		 fmt_size(t, p->test_bytes), fmt_size(a, p->area), fmt_size(b, p->offset), p->blocks,
		 fmt_size(e, p->erasesize), p->erase_source, passes,
		 p->random ? p->queued ? ", then 4KiB random writes inside it, one at a time and queued"
				       : ", then 4KiB random writes inside it" : "",
		 fmt_size(c, p->area));
}

/* ---------------------------------------------------------------- phases */

static void phase_point(struct class_phase *ph)
{
	if (ph->npoints < CLASS_MAX_POINTS && ph->b_ns > 0) {
		ph->t_ns[ph->npoints] = (double)ph->ns;
		ph->per_s[ph->npoints++] = (double)(ph->iops ? ph->b_ios : ph->b_bytes) * 1e9 /
					   (double)ph->b_ns;
	}
	ph->b_ios = ph->b_bytes = 0;
	ph->b_ns = 0;
}

/* Adds measured I/O to a phase; a point for every second of device time. */
static void phase_add(struct class_phase *ph, uint64_t ios, uint64_t bytes, int64_t ns)
{
	ph->ios += ios;
	ph->bytes += bytes;
	ph->ns += ns;
	ph->b_ios += ios;
	ph->b_bytes += bytes;
	ph->b_ns += ns;
	if (ph->b_ns >= 1000000000)
		phase_point(ph);
	double rate = ns > 0 ? (double)bytes * 1e9 / (double)ns : 0;
	if (rate > ph->fastest[0]) {
		ph->fastest[1] = ph->fastest[0];
		ph->fastest[0] = rate;
	} else if (rate > ph->fastest[1]) {
		ph->fastest[1] = rate;
	}
}

static void phase_end(struct class_phase *ph)
{
	if (ph->b_ns > 0 && (ph->npoints == 0 || ph->b_ns >= 250000000))
		phase_point(ph);
	ph->value = ph->ns > 0 ? (double)(ph->iops ? ph->ios : ph->bytes) * 1e9 / (double)ph->ns : 0;
}

struct runner {
	struct dev *d;
	struct class_result *r;
	struct vm_ctx vm;
	void *qbuf;		/* queued requests' slots */
	uint64_t rng;
	uint64_t pass_base;	/* sequential bytes written before this pass */
};

/* The progress line (on a terminal only): after each I/O, outside the timed region. */
static void progress_io(uint64_t bytes, bool written, void *arg)
{
	(void)arg;
	progress_tick(bytes, written);
}

/* The phases in their order, for the progress line's plan (those the plan runs). */
enum phase_id { PH_SAVE, PH_LINK, PH_SEQ, PH_RREAD, PH_RWRITE, PH_QREAD, PH_QWRITE, PH_RESTORE,
		PH_VERIFY, PH_COUNT };
#define KEY_QUEUED 1	/* queued random I/O goes at a rate of its own */

static bool phase_planned(const struct class_result *r, enum phase_id id)
{
	const struct class_plan *p = &r->plan;

	if (id == PH_SAVE || id == PH_RESTORE || id == PH_VERIFY)
		return !r->simulated;	/* a simulated card keeps no data: nothing to move */
	return id == PH_RREAD || id == PH_RWRITE ? p->random :
	       id == PH_QREAD || id == PH_QWRITE ? p->queued : true;
}

/*
 * A random phase's time on the line, before it is measured: at the IOPS
 * the card's A claim promises (a card that keeps it ends there; one that
 * does not shows its own rate as the phase goes), at most the phase's limit.
 */
static int64_t promised_phase_ns(const struct class_result *r, bool write)
{
	double iops = 0;

	for (int i = 0; i < r->nclaims; i++)
		for (int j = 0; j < r->claims[i].nreq; j++) {
			const struct class_req *q = &r->claims[i].req[j];
			if (q->metric == (write ? CM_RAND_WRITE : CM_RAND_READ) && q->promised > iops)
				iops = q->promised;
		}
	int64_t ns = iops > 0 ? (int64_t)((double)r->plan.max_ios / iops * 1e9) : r->plan.max_ns;
	return ns < r->plan.max_ns ? ns : r->plan.max_ns;
}

static struct progress_work phase_work(const struct class_result *r, enum phase_id id)
{
	const struct class_plan *p = &r->plan;
	uint64_t random = (uint64_t)p->max_ios * CLASS_IO;
	bool write = id == PH_SEQ || id == PH_RWRITE || id == PH_QWRITE || id == PH_RESTORE;

	switch (id) {
	case PH_LINK:
		return (struct progress_work){ p->link_bytes, (uint32_t)p->chunk, false, 0, 0, 0 };
	case PH_RREAD:
	case PH_RWRITE:
	case PH_QREAD:
	case PH_QWRITE:
		return (struct progress_work){ random, CLASS_IO, write, promised_phase_ns(r, write),
					       id >= PH_QREAD ? KEY_QUEUED : 0, 0 };
	default:	/* the area: saved, written, restored, verified */
		return (struct progress_work){ p->area, (uint32_t)p->chunk, write, 0, 0, 0 };
	}
}

/* The line's plan: the phases after this one that will run. */
static void plan_after(const struct class_result *r, enum phase_id id)
{
	struct progress_work w[PH_COUNT + 1];
	int n = 0;
	const struct class_plan *p = &r->plan;
	const struct class_sustain *u = &r->sustain;

	/*
	 * The passes after this one, as many as the budget allows (they stop
	 * sooner where they can): a pass starts only where it ends in time.
	 */
	if (id == PH_SEQ && u->written + 2 * p->area <= p->sustain_max) {
		uint64_t bytes = p->sustain_max - u->written - p->area;
		int64_t cap = p->sustain_ns ? p->sustain_ns - u->ns : 0;
		if (p->sustain_ns && u->written) {
			int64_t pass = (int64_t)((double)u->ns * (double)p->area / (double)u->written);
			int64_t more = pass > 0 ? (p->sustain_ns - u->ns - pass) / pass : 0;
			uint64_t timed = more > 0 ? (uint64_t)more * p->area : 0;
			bytes = timed < bytes ? timed : bytes;
			cap = 0;
		}
		/* past a cache's end: the window after it; where more could not change a verdict: none */
		struct class_sustain now = *u;
		if (u->written && !class_sustain_more(r, &now, r->device))
			bytes = 0;
		else if (u->cache_seen) {
			uint64_t need = (uint64_t)(u->from + CLASS_AFTER_UNITS) * u->unit;
			uint64_t after = u->written + p->area;
			bytes = need > after ? round_up(need - after, p->area) : 0;
		}
		if (bytes)
			w[n++] = (struct progress_work){ bytes, (uint32_t)p->chunk, true,
							 cap > 0 ? cap : 0, 0, 0 };
	}
	for (int k = id + 1; k < PH_COUNT; k++)
		if (phase_planned(r, (enum phase_id)k))
			w[n++] = phase_work(r, (enum phase_id)k);
	progress_plan(w, n);
}

/* A phase begins on the progress line: its work, and the plan after it. */
static void phase_progress(const struct class_result *r, enum phase_id id, const char *name)
{
	struct progress_work w = phase_work(r, id);

	plan_after(r, id);
	if (id == PH_SAVE || id == PH_RESTORE)	/* by --preserve's own I/O: nothing ticks */
		progress_start_quiet("class", name, &w);
	else
		progress_start_work("class", name, &w);
}

static bool stopped(struct runner *x)
{
	if (vm_stop_requested)
		x->r->interrupted = true;
	return x->r->interrupted || x->r->failed;
}

static void note_failure(struct runner *x, uint64_t off, uint64_t len, int err, bool write)
{
	if (x->r->failed)
		return;
	x->r->failed = true;
	x->r->fail_off = off;
	x->r->fail_len = len;
	x->r->fail_errno = err ? err : EIO;
	x->r->fail_write = write;
}

/* A VM run's samples into the phase (and, for the sequential writes, per unit in write order). */
static int take_samples(struct runner *x, const struct vm_result *res, struct class_phase *ph,
			struct class_sustain *units)
{
	if (x->vm.nfailures) {
		const struct vm_failure *f = &x->vm.first_failure;
		if (f->err != EINTR)
			note_failure(x, f->off, f->len, f->err, f->op != VM_READ);
		return -1;
	}
	for (int i = 0; i < res->nitems; i++) {
		const struct vm_result *s = &res->items[i];
		if (s->kind != VR_SAMPLE)
			return -1;	/* stopped before it */
		phase_add(ph, 1, s->bytes, s->ns);
		if (units) {
			uint64_t k = (x->pass_base + s->off - x->r->plan.offset) / units->unit;
			if (k < CLASS_MAX_UNITS) {
				units->unit_ns[k] += (double)s->ns;
				units->nunits = (int)k + 1 > units->nunits ? (int)k + 1 : units->nunits;
			}
			units->ns += s->ns;
		}
	}
	return 0;
}

/* Large sequential requests over [offset + from, + bytes) of the area: reads or writes; no phase_end. */
static int sequential_pass(struct runner *x, struct class_phase *ph, uint64_t from, uint64_t bytes,
			   bool write, struct class_sustain *units)
{
	const struct class_plan *p = &x->r->plan;
	struct vm_program *prog = vm_new_program();
	int rc = -1;

	if (prog) {
		struct vm_op *io = vm_op(prog, write ? VM_WRITE_RANDOM : VM_READ, 0, 0, NULL);
		struct vm_op *lin = vm_op(prog, VM_OFF_LIN, (int64_t)p->chunk,
					  (int64_t)(bytes / p->chunk), io);
		struct vm_op *len = vm_op(prog, VM_LEN_FIXED, (int64_t)p->chunk, 0, lin);
		struct vm_result *res = vm_run(&x->vm, prog, len, p->offset + from);
		rc = take_samples(x, res, ph, units);
		vm_free_program(prog);
	}
	return rc < 0 || stopped(x) ? -1 : 0;
}

/* The link's ceiling: large sequential reads. */
static int run_link(struct runner *x)
{
	struct class_phase *ph = &x->r->link;

	ph->run = true;
	ph->depth = ph->depth_used = 1;
	phase_progress(x->r, PH_LINK, "link: large reads");
	int rc = sequential_pass(x, ph, 0, x->r->plan.link_bytes, false, NULL);
	phase_end(ph);
	/* a busy host slows reads, never speeds one: the link carries its fastest two */
	if (ph->fastest[1] > ph->value)
		ph->value = ph->fastest[1];
	return rc;
}

/*
 * The sequential writes: the area, pass after pass, while another could
 * change a verdict (class_sustain_more), timed per unit of whole erase
 * blocks in the order written.
 */
static int run_sustained(struct runner *x)
{
	struct class_result *r = x->r;
	const struct class_plan *p = &r->plan;
	struct class_sustain *u = &r->sustain;
	uint64_t blocks = p->sustain_max / p->erasesize;
	int rc = 0;

	u->unit = p->erasesize * ((blocks + CLASS_MAX_UNITS - 1) / CLASS_MAX_UNITS);
	r->seq.run = true;
	r->seq.depth = r->seq.depth_used = 1;
	do {
		char step[48];
		snprintf(step, sizeof step, u->passes ? "sequential writes, pass %d" :
			 "sequential writes", u->passes + 1);
		phase_progress(r, PH_SEQ, step);
		x->pass_base = u->written;
		/* in parts of a quarter: the line's plan follows what each shows */
		uint64_t part = p->area / 4 / p->chunk * p->chunk;
		part = part ? part : p->area;
		for (uint64_t at = 0; at < p->area && rc == 0; at += part) {
			uint64_t len = p->area - at < part ? p->area - at : part;
			rc = sequential_pass(x, &r->seq, at, len, true, u);
			u->written += len;
			u->passes += at + len >= p->area;
			class_sustain_analyze(u);
			if (at + len < p->area)
				plan_after(r, PH_SEQ);
		}
	} while (rc == 0 && class_sustain_more(r, u, r->device));
	phase_end(&r->seq);
	r->sustained = u->rate;
	return rc;
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* A 4 KiB-aligned offset inside the area, relative to its start. */
static uint64_t random_offset(struct runner *x)
{
	return next_random(&x->rng) % (x->r->plan.area / CLASS_IO) * CLASS_IO;
}

static bool phase_full(const struct class_plan *p, const struct class_phase *ph)
{
	return ph->ios >= (uint64_t)p->max_ios ||
	       (ph->ns >= p->max_ns && ph->ios >= CLASS_MIN_IOS);
}

/* One batch of 4 KiB requests, one at a time, as a VM program. */
static int random_batch(struct runner *x, struct class_phase *ph, bool write, int k)
{
	struct vm_program *prog = vm_new_program();
	struct vm_op **kids = prog ? calloc((size_t)k, sizeof *kids) : NULL;
	int rc = -1;

	if (kids) {
		for (int i = 0; i < k; i++)
			kids[i] = vm_op(prog, VM_OFF_FIXED, (int64_t)random_offset(x), 0,
					vm_op(prog, write ? VM_WRITE_RANDOM : VM_READ, 0, 0, NULL));
		struct vm_op *len = vm_op(prog, VM_LEN_FIXED, CLASS_IO, 0, vm_seq(prog, k, kids));
		rc = take_samples(x, vm_run(&x->vm, prog, len, x->r->plan.offset), ph, NULL);
	}
	free(kids);
	vm_free_program(prog);
	return rc;
}

/* A batch with depth requests in flight (dev_transfer_queued). */
static int queued_batch(struct runner *x, struct class_phase *ph, bool write, int k)
{
	struct dev_req *req = calloc((size_t)k, sizeof *req);
	int64_t ns = 0;
	int used = 1, failed = -1, e;

	if (!req) {
		note_failure(x, 0, 0, ENOMEM, write);
		return -1;
	}
	for (int i = 0; i < k; i++)
		req[i] = (struct dev_req){ x->r->plan.offset + random_offset(x), CLASS_IO, write };
	e = dev_transfer_queued(x->d, x->qbuf, CLASS_IO, req, k, ph->depth, &ns, &used, &failed);
	if (e < 0)
		note_failure(x, failed >= 0 ? req[failed].off : x->r->plan.offset,
			     failed >= 0 ? CLASS_IO : 0, -e, write);
	else
		phase_add(ph, (uint64_t)k, (uint64_t)k * CLASS_IO, ns);
	if (e == 0)
		progress_tick((uint64_t)k * CLASS_IO, write);
	if (used > ph->depth_used)
		ph->depth_used = used;
	free(req);
	return e < 0 ? -1 : 0;
}

/*
 * A batch no longer than the phase's time left at the rate so far (at
 * least one I/O, or one queue's worth): a slow card's phase ends near its
 * time limit, not a doubled batch past it.
 */
static int fit_in_time(const struct class_plan *p, const struct class_phase *ph, int k, int depth)
{
	if (ph->ios < CLASS_MIN_IOS || ph->ns <= 0)
		return k;
	double per_io = (double)ph->ns / (double)ph->ios;
	double room = (double)(p->max_ns - ph->ns) / per_io;
	int least = depth > 1 ? depth : 1;
	if (room < k)
		k = room > least ? (int)room : least;
	return k;
}

/* 4 KiB random requests in batches growing from 8 until the phase is full. */
static int run_random(struct runner *x, struct class_phase *ph, bool write, int depth)
{
	const struct class_plan *p = &x->r->plan;
	int batch = depth > CLASS_MIN_IOS ? depth : CLASS_MIN_IOS;

	ph->run = true;
	ph->iops = true;
	ph->depth = depth;
	ph->depth_used = 1;
	phase_progress(x->r, depth > 1 ? write ? PH_QWRITE : PH_QREAD : write ? PH_RWRITE : PH_RREAD,
		       depth > 1 ? write ? "queued random writes" : "queued random reads"
				 : write ? "random writes" : "random reads");
	while (!phase_full(p, ph) && !stopped(x)) {
		int k = batch;
		if ((uint64_t)k > (uint64_t)p->max_ios - ph->ios)
			k = p->max_ios - (int)ph->ios;
		k = fit_in_time(p, ph, k, depth);
		int rc = depth > 1 ? queued_batch(x, ph, write, k) : random_batch(x, ph, write, k);
		if (rc < 0)
			break;
		if (batch < 256)
			batch *= 2;
	}
	phase_end(ph);
	return stopped(x) ? -1 : 0;
}

static void measure_all(struct runner *x)
{
	struct class_result *r = x->r;
	const struct class_plan *p = &r->plan;

	x->rng = 0x5eed0c1a55ull;
	x->vm.io_done = progress_io;
	if (run_link(x) == 0 && run_sustained(x) == 0) {
		if (p->random && run_random(x, &r->rread, false, 1) == 0 &&
		    run_random(x, &r->rwrite, true, 1) == 0 && p->queued &&
		    run_random(x, &r->qread, false, p->depth) == 0)
			run_random(x, &r->qwrite, true, p->depth);
	}
}

int class_run(struct dev *d, const struct class_opts *o, struct class_result *r, char *err,
	      size_t n)
{
	struct runner x = { .d = d, .r = r };
	struct span area = { r->plan.offset, r->plan.area };
	size_t qlen = (size_t)(r->plan.depth > 0 ? r->plan.depth : 1) * CLASS_IO;

	if (!r->nclaims)
		return 0;

	if (vm_ctx_init(&x.vm, d, r->plan.chunk > CLASS_IO ? r->plan.chunk : CLASS_IO) < 0 || !(x.qbuf = dev_alloc_buffer(qlen))) {
		vm_ctx_free(&x.vm);
		snprintf(err, n, "out of memory");
		return -1;
	}
	dev_fill_pattern(x.qbuf, qlen, PAT_RANDOM, 0x9e3779b9);
	x.vm.on_read_error = x.vm.on_write_error = VM_ERR_STOP;
	phase_progress(r, PH_SAVE, "saving");
	if (preserve_save(d, &area, 1, o->backup, err, n) < 0) {
		progress_done();
		vm_ctx_free(&x.vm);
		free(x.qbuf);
		return -1;
	}
	measure_all(&x);
	char rerr[sizeof r->restore_error];
	phase_progress(r, PH_RESTORE, "restoring");
	/*
	 * the device was opened without O_SYNC (doc/speed-classes.md): the
	 * restore flushes the restored area once, a failed flush a failed restore
	 */
	int restored = preserve_restore(rerr, sizeof rerr);
	progress_done();
	if (restored < 0) {
		snprintf(r->restore_error, sizeof r->restore_error, "%s", rerr);
		r->restored = false;
	}
	preserve_account(d);	/* the writes back and their verification went by its own fd */
	vm_ctx_free(&x.vm);
	free(x.qbuf);
	r->bytes_written = d->bytes_written - r->start_written;
	r->bytes_read = d->bytes_read - r->start_read;
	r->device_ns = d->device_ns - r->start_ns;
	if (vm_stop_requested)
		r->interrupted = true;
	if (r->interrupted || r->failed || !r->restored)
		return -1;
	class_decide(r);
	r->decided = true;
	return 0;
}
