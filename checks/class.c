/*
 * --class: the claims, the plan, and the measurement (doc/speed-classes.md).
 *
 * The test area, a whole number of erase blocks from 64 MiB on, is saved
 * first (safety/preserve.c). Then, each I/O timed right around its syscall
 * (the VM; queued runs by dev_transfer_queued):
 *   1. the link's ceiling: large sequential reads of the area;
 *   2. the area written sequentially once, erase block after erase block,
 *      in requests of up to 4 MiB: the C/U/V figures, taken over the last
 *      half of the blocks, which no small write cache carries; and the
 *      stated state of the random phases;
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

static int choose_erase_size(struct dev *d, const struct class_opts *o, struct class_result *r,
			     char *err, size_t n)
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
	return measure_erase(d, p, err, n);
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

static void plan_phases(struct class_result *r)
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
	p->test_bytes = p->area + (p->random ? random : 0) + (p->queued ? random : 0);
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

int class_prepare(struct dev *d, const struct class_opts *o, struct class_result *r,
		  char *err, size_t n)
{
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], want[32];

	memset(r, 0, sizeof *r);
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
	if (choose_erase_size(d, o, r, err, n) < 0)
		return -1;
	if (plan_area(d, &r->plan, err, n) < 0)
		return -2;
	plan_phases(r);
	if (o->max_write && o->max_write < r->plan.total_bytes) {
		snprintf(err, n, "--max-write=%s: --class writes up to %s on %s (%s of test data, then "
			 "%s restored): use --max-write=%s or more", o->max_write_typed ?
			 o->max_write_typed : fmt_size(a, o->max_write), fmt_size(b, r->plan.total_bytes),
			 d->path, fmt_size(c, r->plan.test_bytes), fmt_size(a, r->plan.area),
			 size_arg_text(want, sizeof want, r->plan.total_bytes));
		return -2;
	}
	return 0;
}

void class_plan_line(char *buf, size_t n, const struct dev *d, const struct class_result *r)
{
	const struct class_plan *p = &r->plan;
	char a[FMT_BUF], b[FMT_BUF], c[FMT_BUF], e[FMT_BUF], t[FMT_BUF];

	snprintf(buf, n, "%s: --class writes at most %s: %s from offset %s in %d erase blocks of %s "
		 "(%s)%s, saved first and restored and verified after (%s more)", d->path,
		 fmt_size(t, p->test_bytes), fmt_size(a, p->area), fmt_size(b, p->offset), p->blocks,
		 fmt_size(e, p->erasesize), p->erase_source,
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

static struct progress_work phase_work(const struct class_plan *p, enum phase_id id)
{
	uint64_t random = (uint64_t)p->max_ios * CLASS_IO;
	bool write = id == PH_SEQ || id == PH_RWRITE || id == PH_QWRITE || id == PH_RESTORE;

	switch (id) {
	case PH_LINK:
		return (struct progress_work){ p->link_bytes, (uint32_t)p->chunk, false, 0, 0 };
	case PH_RREAD:
	case PH_RWRITE:
	case PH_QREAD:
	case PH_QWRITE:
		return (struct progress_work){ random, CLASS_IO, write, p->max_ns,
					       id >= PH_QREAD ? KEY_QUEUED : 0 };
	default:	/* the area: saved, written, restored, verified */
		return (struct progress_work){ p->area, (uint32_t)p->chunk, write, 0, 0 };
	}
}

/* The line's plan: the phases after this one that will run. */
static void plan_after(const struct class_result *r, enum phase_id id)
{
	struct progress_work w[PH_COUNT];
	int n = 0;

	for (int k = id + 1; k < PH_COUNT; k++)
		if (phase_planned(r, (enum phase_id)k))
			w[n++] = phase_work(&r->plan, (enum phase_id)k);
	progress_plan(w, n);
}

/* A phase begins on the progress line: its work, and the plan after it. */
static void phase_progress(const struct class_result *r, enum phase_id id, const char *name)
{
	struct progress_work w = phase_work(&r->plan, id);

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

/* A VM run's samples into the phase (and, for the sequential one, per erase block). */
static int take_samples(struct runner *x, const struct vm_result *res, struct class_phase *ph,
			int64_t *block_ns)
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
		if (block_ns)
			block_ns[(s->off - x->r->plan.offset) / x->r->plan.erasesize] += s->ns;
	}
	return 0;
}

/* Large sequential requests over [offset, offset + bytes): reads or writes. */
static int run_sequential(struct runner *x, struct class_phase *ph, uint64_t bytes, bool write,
			  int64_t *block_ns)
{
	const struct class_plan *p = &x->r->plan;
	struct vm_program *prog = vm_new_program();
	int rc = -1;

	ph->run = true;
	ph->depth = ph->depth_used = 1;
	phase_progress(x->r, write ? PH_SEQ : PH_LINK, write ? "sequential writes" : "link: large reads");
	if (prog) {
		struct vm_op *io = vm_op(prog, write ? VM_WRITE_RANDOM : VM_READ, 0, 0, NULL);
		struct vm_op *lin = vm_op(prog, VM_OFF_LIN, (int64_t)p->chunk,
					  (int64_t)(bytes / p->chunk), io);
		struct vm_op *len = vm_op(prog, VM_LEN_FIXED, (int64_t)p->chunk, 0, lin);
		struct vm_result *res = vm_run(&x->vm, prog, len, p->offset);
		rc = take_samples(x, res, ph, block_ns);
		vm_free_program(prog);
	}
	phase_end(ph);
	return rc < 0 || stopped(x) ? -1 : 0;
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

static double sustained_rate(const struct class_plan *p, const int64_t *block_ns)
{
	int64_t ns = 0;

	for (int b = p->blocks - p->sustained_blocks; b < p->blocks; b++)
		ns += block_ns[b];
	return ns > 0 ? (double)p->sustained_blocks * (double)p->erasesize * 1e9 / (double)ns : 0;
}

static void measure_all(struct runner *x)
{
	struct class_result *r = x->r;
	const struct class_plan *p = &r->plan;
	int64_t *block_ns = calloc((size_t)p->blocks, sizeof *block_ns);

	if (!block_ns) {
		note_failure(x, 0, 0, ENOMEM, false);
		return;
	}
	x->rng = 0x5eed0c1a55ull;
	x->vm.io_done = progress_io;
	if (run_sequential(x, &r->link, p->link_bytes, false, NULL) == 0 &&
	    run_sequential(x, &r->seq, p->area, true, block_ns) == 0) {
		r->sustained = sustained_rate(p, block_ns);
		if (p->random && run_random(x, &r->rread, false, 1) == 0 &&
		    run_random(x, &r->rwrite, true, 1) == 0 && p->queued &&
		    run_random(x, &r->qread, false, p->depth) == 0)
			run_random(x, &r->qwrite, true, p->depth);
	}
	free(block_ns);
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
