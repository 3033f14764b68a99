/*
 * --capacity: finds how much of its advertised size a card really stores.
 *
 * Every sector it writes is a label: a magic number, this run's id, the
 * sector's own offset, the round, a checksum and a filler derived from
 * them (random-looking, so no controller can compress or deduplicate it).
 * Reading a sector back tells which offset last wrote the flash behind it.
 *
 * Round 0 writes PROBES labels spread over the card (the last sector among
 * them), then a dense labelled area [0, dense) which also pushes the
 * probes out of any write cache smaller than it, then reads back the dense
 * area, the probes, and one sector every `dense` bytes over the whole
 * card. A card that wraps at its real size R shows the dense area's labels
 * again at R and beyond: the read at the multiple of `dense` in
 * [R, R + dense) finds the label of offset (x - R), so the smallest
 * distance between an offset and the label it reads is R, exactly, for any
 * R (not just powers of two). Reads are cheap, and for an arbitrary R no
 * handful of probes can see the wrap: two offsets R apart must both be
 * touched, so the dense area grows with sqrt(size) and the reads with
 * size/dense = sqrt(size) too.
 *
 * A card that loses writes (or fails I/O) beyond R shows lost probes; later
 * rounds search between the highest good and the lowest lost probe,
 * PROBES at a time, each followed by a cache flush, down to one sector:
 * log(size) rounds.
 *
 * Everything written is saved first and written back and verified after
 * each round by safety/preserve.c's --preserve machinery (also on signals).
 */
#include "checks/capacity.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/measure.h"
#include "report/report.h"
#include "safety/safety.h"
#include "lib/progress.h"
#include "lib/units.h"
#include "vm.h"

#define CHUNK (1u << 20)
#define FLUSH_MAX (8ull << 20)
#define DENSE_MIN (8ull << 20)
#define DENSE_MAX (128ull << 20)
#define PROBES 16
#define MAX_ROUNDS 64
#define MAGIC 0x3170614362466c46ull	/* "FlFbCap1" */
#define NONE UINT64_MAX

enum obs { OBS_NONE, OBS_GOOD, OBS_ALIAS, OBS_LOST };

struct probe {
	uint64_t off;
	bool bad;	/* lost, or its I/O failed */
};

struct ctx {
	struct dev *d;
	const char *backup;
	FILE *verbose;
	struct capacity_result *r;
	uint64_t run;
	uint64_t size;		/* advertised, whole units */
	uint64_t u;		/* label size: the logical block size */
	uint64_t dense;		/* labelled area [0, dense) of round 0 */
	uint64_t flush;		/* cache flush of later rounds */
	uint32_t round;
	unsigned char *buf;	/* CHUNK bytes */
	unsigned char *expect;	/* one label */
	uint64_t min_alias;	/* smallest distance between offsets sharing a sector, or NONE */
	uint64_t first_lost;	/* lowest written sector found bad, or NONE */
	bool failed;		/* an I/O failed */
	uint64_t max_write;	/* 0: no limit */
	uint64_t planned;	/* what the rounds so far may have written, restoring included */
	int rounds_after;	/* search rounds expected after this one (the progress line's plan) */
	bool round0;		/* the round under way: round 0, its area and probes */
	uint64_t area;
	int np;
	char *err;
	size_t n;
};

/* ---------------------------------------------------------------- labels */

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void make_label(const struct ctx *c, unsigned char *p, uint64_t pos, uint32_t round)
{
	uint64_t check = mix(c->run ^ mix(pos ^ mix(round)));
	uint64_t head[5] = { MAGIC, c->run, pos, round | (c->u << 32), check };
	uint64_t s = check | 1;

	memcpy(p, head, sizeof head);
	for (size_t i = sizeof head; i + 8 <= c->u; i += 8) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		uint64_t v = s * 0x2545F4914F6CDD1Dull;
		memcpy(p + i, &v, 8);
	}
}

/* Is p a whole, intact label of this run? Then where and in which round it was written. */
static bool read_label(const struct ctx *c, const unsigned char *p, uint64_t *pos, uint32_t *round)
{
	uint64_t head[5];

	memcpy(head, p, sizeof head);
	if (head[0] != MAGIC || head[1] != c->run || head[3] >> 32 != c->u)
		return false;
	make_label(c, c->expect, head[2], (uint32_t)head[3]);
	if (memcmp(p, c->expect, c->u) != 0)
		return false;
	*pos = head[2];
	*round = (uint32_t)head[3];
	return true;
}

/* What the sector read at `at` says; written: this round wrote a label there. */
static enum obs observe(struct ctx *c, const unsigned char *p, uint64_t at, bool written)
{
	uint64_t pos;
	uint32_t round;

	if (!read_label(c, p, &pos, &round))
		return written ? OBS_LOST : OBS_NONE;
	if (pos == at) {
		if (!written)
			return OBS_NONE;
		return round == c->round ? OBS_GOOD : OBS_LOST;
	}
	uint64_t dist = pos > at ? pos - at : at - pos;
	if (dist < c->min_alias)
		c->min_alias = dist;
	return OBS_ALIAS;
}

/* ---------------------------------------------------------------- I/O */

static void note_lost(struct ctx *c, uint64_t off)
{
	if (off < c->first_lost)
		c->first_lost = off;
}

/*
 * Errors of what the device rests on, not of the card: a full file system
 * under an image file (or a full thin pool under a block device), a quota,
 * a file size limit, a file system remounted read-only. The check cannot
 * see past them: no verdict.
 */
static bool host_error(const struct dev *d, int e)
{
	return e == ENOSPC || e == EDQUOT || (!d->blockdev && (e == EFBIG || e == EROFS));
}

static int io(struct ctx *c, bool write, uint64_t off, uint64_t len)
{
	int64_t ns;
	int e = write ? dev_write(c->d, c->buf, len, off, &ns) : dev_read(c->d, c->buf, len, off, &ns);

	progress_tick(len, write);
	c->r->ios++;
	if (e == 0)
		return 0;
	if (host_error(c->d, -e) && !c->r->host_errno) {
		c->r->host_errno = -e;
		snprintf(c->r->error, sizeof c->r->error, "%s: writing at offset %" PRIu64 ": %s: %s",
			 c->d->path, off, strerror(-e), c->d->blockdev ?
			 "the storage under the device failed (a full thin pool?), not the card" :
			 "the file system holding the image failed, not the image: free space there, "
			 "or check a fully allocated image");
		snprintf(c->err, c->n, "%s", c->r->error);	/* the caller says why there is none */
	}
	if (!c->failed) {
		c->r->error_off = off;
		c->r->error_errno = -e;
		c->r->error_write = write;
	}
	c->failed = true;
	return -1;
}

static bool stopped(struct ctx *c)
{
	if (vm_stop_requested)
		c->r->interrupted = true;
	return c->r->interrupted || c->r->host_errno;
}

/* Labels over [off, off+len), whole units; a failed chunk counts as lost. */
static void write_labels(struct ctx *c, uint64_t off, uint64_t len)
{
	for (uint64_t pos = off; pos < off + len && !stopped(c); pos += CHUNK) {
		uint64_t l = off + len - pos < CHUNK ? off + len - pos : CHUNK;
		for (uint64_t i = 0; i < l; i += c->u)
			make_label(c, c->buf + i, pos + i, c->round);
		if (io(c, true, pos, l) < 0)
			note_lost(c, pos);
	}
}

/* Reads [off, off+len) back; every sector should hold its own label. */
static void check_labels(struct ctx *c, uint64_t off, uint64_t len)
{
	for (uint64_t pos = off; pos < off + len && !stopped(c); pos += CHUNK) {
		uint64_t l = off + len - pos < CHUNK ? off + len - pos : CHUNK;
		if (io(c, false, pos, l) < 0) {
			note_lost(c, pos);
			continue;
		}
		for (uint64_t i = 0; i < l; i += c->u)
			if (observe(c, c->buf + i, pos + i, true) != OBS_GOOD)
				note_lost(c, pos + i);
	}
}

static void write_probe(struct ctx *c, struct probe *p)
{
	make_label(c, c->buf, p->off, c->round);
	p->bad = io(c, true, p->off, c->u) < 0;
}

static void check_probe(struct ctx *c, struct probe *p)
{
	if (io(c, false, p->off, c->u) < 0 || observe(c, c->buf, p->off, true) != OBS_GOOD)
		p->bad = true;
}

/* ---------------------------------------------------------------- rounds */

static void round0_body(struct ctx *c, struct probe *pr, int np, uint64_t area);

/* What a round writes: its labels, and as much again restoring what they overwrote. */
static uint64_t round_cost(const struct ctx *c, uint64_t area, int np)
{
	return 2 * (area + (uint64_t)np * c->u);
}

/*
 * The progress line: a round in its parts, each a measurement of its own
 * kind of I/O, so that the ETA takes each at its own rate (a probe is one
 * small write, slow on most cards; the labels large ones).
 */
enum part { PART_SAVE, PART_PROBES_WRITTEN, PART_LABELS_WRITTEN, PART_LABELS_READ,
	    PART_PROBES_READ, PART_WITNESSES, PART_RESTORE, PART_VERIFY, PARTS };

static const char *const part_names[PARTS] = {
	"saving", "probes", "labels", "reading labels", "reading probes", "wrap check", "restoring",
	"verifying",
};

/* A part's work in a round of np probes and area labelled bytes (round 0 or a search round). */
static struct progress_work part_work(const struct ctx *c, enum part k, uint64_t area, int np,
				      bool round0)
{
	uint64_t probes = (uint64_t)np * c->u, saved = area + probes;

	switch (k) {
	case PART_SAVE:
	case PART_VERIFY:
		return (struct progress_work){ saved, CHUNK, false, 0, 0, 0 };
	case PART_RESTORE:
		return (struct progress_work){ saved, CHUNK, true, 0, 0, 0 };
	case PART_PROBES_WRITTEN:
	case PART_PROBES_READ:
		return (struct progress_work){ probes, (uint32_t)c->u, k == PART_PROBES_WRITTEN, 0, 0, 0 };
	case PART_LABELS_WRITTEN:
		return (struct progress_work){ area, CHUNK, true, 0, 0, 0 };
	case PART_LABELS_READ:
		return (struct progress_work){ round0 ? area : 0, CHUNK, false, 0, 0, 0 };
	case PART_WITNESSES:
		return (struct progress_work){ round0 ? c->size / c->dense * c->u : 0, (uint32_t)c->u,
					       false, 0, 0, 0 };
	default:
		return (struct progress_work){ 0 };
	}
}

/* Parts that move bytes here: round 0 reads its labels and across the card; a simulated card saves nothing. */
static bool part_runs(const struct ctx *c, enum part k, bool round0)
{
	if (k == PART_SAVE || k == PART_RESTORE || k == PART_VERIFY)
		return !c->r->simulated;
	return round0 || (k != PART_LABELS_READ && k != PART_WITNESSES);
}

/*
 * Part k of this round begins: the plan is the rest of the round, then
 * rounds_after search rounds; the verify runs inside the restore.
 */
static void progress_part(struct ctx *c, enum part k)
{
	struct progress_work w[PARTS * 8];
	char step[64];
	int n = 0;

	for (int round = 0; round <= c->rounds_after && round < 8; round++)
		for (int i = round ? 0 : k + 1; i < PARTS; i++) {
			bool r0 = round ? false : c->round0;
			uint64_t area = round ? c->flush : c->area;
			int np = round ? PROBES : c->np;
			if (part_runs(c, (enum part)i, r0))
				w[n++] = part_work(c, (enum part)i, area, np, r0);
		}
	progress_plan(w, n);
	struct progress_work now = part_work(c, k, c->area, c->np, c->round0);
	snprintf(step, sizeof step, "round %d: %s", c->r->rounds + 1, part_names[k]);
	if (k == PART_SAVE || k == PART_RESTORE)	/* by --preserve's own I/O: nothing ticks */
		progress_start_quiet("capacity", step, &now);
	else
		progress_start_work("capacity", step, &now);
}

/*
 * Saves the probes and [0, area), runs body, restores and verifies: 0, or
 * 1 when the round does not fit --max-write (nothing done), or -1 when the
 * data could not be saved or restored (r->error, r->restore_error say why).
 */
static int preserved_round(struct ctx *c, struct probe *pr, int np, uint64_t area,
			   void (*body)(struct ctx *, struct probe *, int, uint64_t))
{
	struct span spans[PROBES + 1];
	uint64_t cost = round_cost(c, area, np);
	int ns = 0;

	if (c->max_write && c->planned + cost > c->max_write)
		return 1;
	c->round0 = body == round0_body;
	c->area = area;
	c->np = np;
	progress_part(c, PART_SAVE);
	spans[ns++] = (struct span){ 0, area };
	for (int i = 0; i < np; i++)
		spans[ns++] = (struct span){ pr[i].off, c->u };
	if (c->verbose)
		fprintf(c->verbose, "flashbench: %s: round %d will overwrite bytes 0 to %" PRIu64
			" and %d sectors of %" PRIu64 " bytes from offset %" PRIu64 " to %" PRIu64
			" (saved first)\n", c->d->path, c->r->rounds, area - 1, np, c->u,
			np ? pr[0].off : 0, np ? pr[np - 1].off : 0);
	if (preserve_save(c->d, spans, ns, c->backup, c->err, c->n) < 0) {
		snprintf(c->r->error, sizeof c->r->error, "could not save what round %d would "
			 "overwrite, so it wrote nothing: %s", c->r->rounds, c->err);
		return -1;
	}
	c->planned += cost;
	body(c, pr, np, area);
	progress_part(c, PART_RESTORE);
	int restored = preserve_restore(c->err, c->n);
	preserve_account(c->d);
	if (restored < 0) {
		const char *kept = preserve_kept_file();
		snprintf(c->r->restore_error, sizeof c->r->restore_error, "%s", c->err);
		snprintf(c->r->rescue_file, sizeof c->r->rescue_file, "%s", kept ? kept : "");
		c->r->restored = false;
		return -1;
	}
	c->r->rounds++;
	c->round++;
	return 0;
}

/* Offsets x in (0, size), x a multiple of dense, and the last sector: where a wrap shows. */
static void read_wrap_witnesses(struct ctx *c)
{
	for (uint64_t x = c->dense; !stopped(c); x += c->dense) {
		if (x >= c->size - c->u)
			x = c->size - c->u;
		if (io(c, false, x, c->u) == 0)
			observe(c, c->buf, x, false);
		if (x == c->size - c->u)
			break;
	}
}

static void round0_body(struct ctx *c, struct probe *pr, int np, uint64_t area)
{
	progress_part(c, PART_PROBES_WRITTEN);
	for (int i = 0; i < np && !stopped(c); i++)
		write_probe(c, &pr[i]);
	progress_part(c, PART_LABELS_WRITTEN);
	write_labels(c, 0, area);
	progress_part(c, PART_LABELS_READ);
	check_labels(c, 0, area);
	progress_part(c, PART_PROBES_READ);
	for (int i = 0; i < np && !stopped(c); i++)
		check_probe(c, &pr[i]);
	progress_part(c, PART_WITNESSES);
	read_wrap_witnesses(c);
}

static void search_body(struct ctx *c, struct probe *pr, int np, uint64_t area)
{
	progress_part(c, PART_PROBES_WRITTEN);
	for (int i = 0; i < np && !stopped(c); i++)
		write_probe(c, &pr[i]);
	progress_part(c, PART_LABELS_WRITTEN);
	write_labels(c, 0, area);	/* past the write cache */
	progress_part(c, PART_PROBES_READ);
	for (int i = 0; i < np && !stopped(c); i++)
		if (!pr[i].bad)
			check_probe(c, &pr[i]);
}

/* Up to PROBES distinct unit-aligned offsets spread over [lo, hi), ascending. */
static int spread(const struct ctx *c, uint64_t lo, uint64_t hi, struct probe *pr, bool top)
{
	uint64_t units = (hi - lo) / c->u;
	int np = 0;

	for (int i = 0; i < PROBES; i++) {
		uint64_t off = lo + units * (uint64_t)i / PROBES * c->u;
		if (top && i == PROBES - 1)
			off = hi - c->u;
		if (off < hi && (np == 0 || off > pr[np - 1].off))
			pr[np++] = (struct probe){ off, false };
	}
	return np;
}

/* Narrows [lo, hi) between good and lost probes down to one unit. */
static int search(struct ctx *c, uint64_t lo, uint64_t hi)
{
	struct probe pr[PROBES];

	while (lo < hi && c->r->rounds < MAX_ROUNDS && !stopped(c)) {
		int np = spread(c, lo, hi, pr, false);
		/* each round narrows the range PROBES + 1 times: the rounds after this one */
		c->rounds_after = 0;
		for (uint64_t units = (hi - lo) / c->u; units > PROBES + 1; units /= PROBES + 1)
			c->rounds_after++;
		int r = preserved_round(c, pr, np, c->flush, search_body);
		if (r < 0)
			return -1;
		if (r > 0) {	/* --max-write: the real size stays a range */
			c->r->cut_by_max_write = true;
			break;
		}
		if (stopped(c))
			break;
		for (int i = np - 1; i >= 0; i--)
			if (pr[i].bad && pr[i].off < hi)
				hi = pr[i].off;
		for (int i = 0; i < np; i++)
			if (!pr[i].bad && pr[i].off < hi && pr[i].off + c->u > lo)
				lo = pr[i].off + c->u;
	}
	c->r->real_lo = lo < hi ? lo : hi;
	c->r->real_hi = hi;
	return 0;
}

/* ---------------------------------------------------------------- run */

static uint64_t isqrt(uint64_t x)
{
	uint64_t r = 0;
	for (uint64_t b = 1ull << 31; b; b >>= 1)
		if ((r + b) * (r + b) <= x)
			r += b;
	return r;
}

static void plan(struct ctx *c)
{
	uint64_t dense = isqrt(c->size / 8) * 256;	/* sqrt(size * 8KiB) */

	if (dense < DENSE_MIN)
		dense = DENSE_MIN;
	if (dense > DENSE_MAX)
		dense = DENSE_MAX;
	if (dense > c->size / 4)
		dense = c->size / 4;
	c->dense = dense / c->u * c->u;
	if (c->dense < c->u)
		c->dense = c->u;
	c->flush = c->dense < FLUSH_MAX ? c->dense : FLUSH_MAX;
	c->r->cache_flush = c->flush;
}

static uint64_t run_id(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return mix((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ mix((uint64_t)getpid());
}

/* After round 0: what it saw decides between genuine, a wrap, and a search for lost data. */
static int decide(struct ctx *c, const struct probe *pr, int np)
{
	struct capacity_result *r = c->r;
	uint64_t lo = c->dense, hi = c->size;

	if (c->min_alias != NONE) {
		r->mode = CAP_MODE_WRAP;
		r->real_lo = r->real_hi = c->min_alias;
		return 0;
	}
	if (c->first_lost != NONE) {	/* in the dense area: contiguous, so exact */
		r->real_lo = r->real_hi = c->first_lost;
		return 0;
	}
	for (int i = 0; i < np; i++)
		if (pr[i].bad && pr[i].off < hi)
			hi = pr[i].off;
	if (hi == c->size) {
		r->real_lo = r->real_hi = c->size;
		return 0;
	}
	for (int i = 0; i < np; i++)
		if (!pr[i].bad && pr[i].off < hi && pr[i].off + c->u > lo)
			lo = pr[i].off + c->u;
	return search(c, lo, hi);
}

static void conclude(struct ctx *c)
{
	struct capacity_result *r = c->r;

	if (r->interrupted || !r->restored || r->error[0]) {
		r->verdict = CAP_UNKNOWN;
		return;
	}
	if (c->failed) {
		r->verdict = CAP_DAMAGED;
		r->mode = CAP_MODE_ERROR;
	} else if (r->real_hi < r->addressable) {	/* a last part block is no lost data */
		r->verdict = CAP_COUNTERFEIT;
		if (r->mode == CAP_MODE_NONE)
			r->mode = CAP_MODE_LOST;
	} else {
		r->verdict = CAP_GENUINE;
	}
}

int capacity_run(struct dev *d, const char *backup_path, FILE *verbose, uint64_t max_write,
		 struct capacity_result *r, char *err, size_t n)
{
	struct ctx c = { .d = d, .backup = backup_path, .verbose = verbose, .r = r,
			 .err = err, .n = n, .max_write = max_write,
			 .min_alias = NONE, .first_lost = NONE };
	struct probe pr[PROBES];
	uint64_t w0 = d->bytes_written, r0 = d->bytes_read;
	struct io_traffic t0 = d->traffic;
	int64_t t0ns = d->device_ns;
	int rc = -1;

	memset(r, 0, sizeof *r);
	err[0] = '\0';
	r->restored = true;
	r->advertised = d->size;
	r->simulated = dev_simulated(d);
	c.u = d->lbs;
	r->unit = c.u;
	c.size = d->size / c.u * c.u;
	c.run = run_id();
	r->addressable = c.size;
	if (c.size < 4 * c.u) {
		snprintf(err, n, "%s: too small to check (%" PRIu64 " bytes)", d->path, d->size);
		snprintf(r->error, sizeof r->error, "%s", err);
		r->verdict = CAP_UNKNOWN;
		return -1;
	}
	c.buf = dev_alloc_buffer(CHUNK);
	c.expect = malloc(c.u);
	if (!c.buf || !c.expect || dev_keep_data(d, true) < 0) {
		snprintf(err, n, "out of memory");
		snprintf(r->error, sizeof r->error, "%s", err);
		goto out;
	}
	plan(&c);
	int np = spread(&c, c.dense, c.size, pr, true);
	r->needed = round_cost(&c, c.dense, np);
	int r0rc = preserved_round(&c, pr, np, c.dense, round0_body);
	if (r0rc > 0) {
		char a[FMT_BUF], b[FMT_BUF];
		r->not_run_max_write = true;
		snprintf(r->error, sizeof r->error, "it writes %s (restoring included), more than "
			 "--max-write=%s allows: --max-write=%" PRIu64 " or more checks it",
			 fmt_size(a, r->needed), fmt_size(b, max_write), r->needed);
		snprintf(err, n, "%s", r->error);
	} else if (r0rc == 0 && !stopped(&c) && decide(&c, pr, np) == 0 && !stopped(&c)) {
		rc = 0;
	}
out:
	progress_done();
	conclude(&c);
	dev_keep_data(d, false);
	r->bytes_written = d->bytes_written - w0;
	r->bytes_read = d->bytes_read - r0;
	for (int p = 0; p < IO_PURPOSES; p++) {
		r->traffic.read[p] = d->traffic.read[p] - t0.read[p];
		r->traffic.written[p] = d->traffic.written[p] - t0.written[p];
	}
	r->device_ns = d->device_ns - t0ns;
	free(c.buf);
	free(c.expect);
	return rc;
}

/* ---------------------------------------------------------------- output */

int capacity_exit_status(const struct capacity_result *r)
{
	return r->verdict == CAP_GENUINE ? 0 : 1;
}

const char *capacity_verdict_name(enum cap_verdict v)
{
	switch (v) {
	case CAP_GENUINE: return "genuine";
	case CAP_COUNTERFEIT: return "counterfeit";
	case CAP_DAMAGED: return "damaged";
	default: return "unknown";
	}
}

static const char *mode_name(enum cap_mode m)
{
	switch (m) {
	case CAP_MODE_WRAP: return "wraps";
	case CAP_MODE_LOST: return "lost";
	case CAP_MODE_ERROR: return "io_error";
	default: return "none";
	}
}

/* "7.5GiB", "7.5GiB to 7.6GiB"; in bytes when the rounded size would read as the advertised one */
static const char *real_size_text(char *buf, size_t n, const struct capacity_result *r)
{
	char a[FMT_BUF], b[FMT_BUF];
	if (r->real_lo == r->real_hi && r->real_lo != r->advertised &&
	    !strcmp(fmt_size(a, r->real_lo), fmt_size(b, r->advertised)))
		snprintf(buf, n, "%" PRIu64 " of %" PRIu64 " bytes", r->real_lo, r->advertised);
	else if (r->real_lo == r->real_hi)
		snprintf(buf, n, "%s", fmt_size(a, r->real_lo));
	else
		snprintf(buf, n, "%s to %s", fmt_size(a, r->real_lo), fmt_size(b, r->real_hi));
	return buf;
}

void capacity_summary(char *buf, size_t n, const struct capacity_result *r)
{
	char adv[FMT_BUF], real[2 * FMT_BUF + 8];

	fmt_size(adv, r->advertised);
	real_size_text(real, sizeof real, r);
	switch (r->verdict) {
	case CAP_GENUINE:
		snprintf(buf, n, "genuine: stores all of its advertised %s", adv);
		if (r->addressable < r->advertised)
			fmt_append(buf, n, " (all of it that whole blocks reach)");
		break;
	case CAP_COUNTERFEIT:
		snprintf(buf, n, "counterfeit: advertises %s, stores %s (%s)", adv, real,
			 r->mode == CAP_MODE_WRAP ? "wraps to offset 0 beyond"
						  : "writes beyond are lost");
		break;
	case CAP_DAMAGED: {
		int l = snprintf(buf, n, "damaged: %s failed at offset %" PRIu64 " (%s)",
				 r->error_write ? "write" : "read", r->error_off, strerror(r->error_errno));
		if (r->real_hi < r->advertised && l > 0 && (size_t)l < n)
			snprintf(buf + l, n - (size_t)l, "; advertises %s, stores %s", adv, real);
		break;
	}
	default:
		snprintf(buf, n, "no verdict: %s", r->interrupted ? "interrupted" :
			 !r->restored ? "the saved data could not be restored" :
			 r->error[0] ? r->error : "the check did not run");
		break;
	}
}

static void text_failure_mode(FILE *f, const struct capacity_result *r)
{
	char a[FMT_BUF];

	switch (r->mode) {
	case CAP_MODE_WRAP:
		fprintf(f, "failure mode:  wraps: offset %" PRIu64 " (%s) is offset 0 again, data "
			"beyond overwrites data below\n", r->real_lo, fmt_size(a, r->real_lo));
		break;
	case CAP_MODE_LOST:
		fprintf(f, "failure mode:  writes at offset %" PRIu64 " (%s) or beyond are lost\n",
			r->real_hi, fmt_size(a, r->real_hi));
		break;
	case CAP_MODE_ERROR:
		fprintf(f, "failure mode:  %s failed at offset %" PRIu64 ": %s\n",
			r->error_write ? "write" : "read", r->error_off, strerror(r->error_errno));
		break;
	default:
		fprintf(f, "failure mode:  none\n");
		break;
	}
}

static const char *const written_for[IO_PURPOSES] = { "labels", "", "restoring", "" };
static const char *const read_for[IO_PURPOSES] = { "checking", "saving", "", "verifying" };

static const char *data_state(const struct capacity_result *r)
{
	if (!r->restored)
		return r->restore_error;
	if (!r->bytes_written)
		return "nothing was written";
	return r->simulated ? "simulated card: its data is dropped after the check"
			    : "every overwritten sector restored and verified";
}

void capacity_text(FILE *f, const struct capacity_result *r)
{
	char line[1536], a[FMT_BUF], b[FMT_BUF], t[FMT_BUF], by[256];

	capacity_summary(line, sizeof line, r);
	fprintf(f, "%s\n", line);
	fprintf(f, "advertised:    %" PRIu64 " bytes (%s)\n", r->advertised, fmt_size(a, r->advertised));
	if (r->addressable < r->advertised)
		fprintf(f, "addressable:   %" PRIu64 " bytes: the last %" PRIu64 " are less than one "
			"logical block (%" PRIu64 " bytes), which no I/O reaches: a fact of the "
			"device, not a sign of a fake\n", r->addressable, r->advertised - r->addressable,
			r->unit);
	if (r->verdict != CAP_UNKNOWN) {
		if (r->real_lo == r->real_hi)
			fprintf(f, "real size:     %" PRIu64 " bytes (%s), exact to %" PRIu64 " bytes\n",
				r->real_lo, fmt_size(a, r->real_lo), r->unit);
		else
			fprintf(f, "real size:     %" PRIu64 " to %" PRIu64 " bytes (%s to %s)%s\n",
				r->real_lo, r->real_hi, fmt_size(a, r->real_lo), fmt_size(b, r->real_hi),
				r->cut_by_max_write ? ": --max-write reached, the search stopped" : "");
		text_failure_mode(f, r);
	}
	fprintf(f, "verdict:       %s\n", capacity_verdict_name(r->verdict));
	text_traffic(by, sizeof by, &r->traffic, true, written_for);
	fprintf(f, "written:       %" PRIu64 " bytes (%s)%s%s in %d round%s, write caches up to %s "
		"defeated\n", r->bytes_written, fmt_size(a, r->bytes_written), by[0] ? ": " : "", by,
		r->rounds, r->rounds == 1 ? "" : "s", fmt_size(b, r->cache_flush));
	text_traffic(by, sizeof by, &r->traffic, false, read_for);
	fprintf(f, "read:          %" PRIu64 " bytes (%s)%s%s; %" PRIu64 " I/Os, I/O time %s\n",
		r->bytes_read, fmt_size(a, r->bytes_read), by[0] ? ": " : "", by, r->ios,
		fmt_time(t, r->device_ns));
	fprintf(f, "data:          %s\n", data_state(r));
}

void capacity_json(struct jw *w, const char *key, const struct capacity_result *r)
{
	jw_object_begin(w, key);
	jw_string(w, "verdict", capacity_verdict_name(r->verdict));
	jw_string(w, "failure_mode", mode_name(r->mode));
	jw_uint(w, "advertised_bytes", r->advertised);
	if (r->addressable < r->advertised)
		jw_uint(w, "addressable_bytes", r->addressable);
	if (r->verdict != CAP_UNKNOWN) {
		jw_uint(w, "real_min_bytes", r->real_lo);
		jw_uint(w, "real_max_bytes", r->real_hi);
		jw_bool(w, "exact", r->real_lo == r->real_hi);
	}
	jw_uint(w, "precision_bytes", r->unit);
	if (r->mode == CAP_MODE_WRAP)
		jw_uint(w, "wraps_at_bytes", r->real_lo);
	if (r->mode == CAP_MODE_ERROR) {
		jw_object_begin(w, "first_failure");
		jw_string(w, "operation", r->error_write ? "write" : "read");
		jw_uint(w, "offset_bytes", r->error_off);
		jw_int(w, "errno", r->error_errno);
		jw_string(w, "message", strerror(r->error_errno));
		jw_object_end(w);
	}
	jw_uint(w, "cache_defeated_bytes", r->cache_flush);
	jw_uint(w, "written_bytes", r->bytes_written);
	jw_uint(w, "read_bytes", r->bytes_read);
	json_traffic(w, "io_by_purpose", &r->traffic);
	if (r->error[0])
		jw_string(w, "error", r->error);
	jw_uint(w, "first_round_bytes", r->needed);
	jw_bool(w, "cut_by_max_write", r->cut_by_max_write || r->not_run_max_write);
	jw_uint(w, "io_count", r->ios);
	jw_int(w, "rounds", r->rounds);
	jw_int(w, "device_time_ns", r->device_ns);
	jw_bool(w, "interrupted", r->interrupted);
	jw_bool(w, "data_restored", r->restored);
	if (!r->restored)
		jw_string(w, "restore_error", r->restore_error);
	jw_object_end(w);
}

void capacity_json_report(FILE *f, const struct dev *d, const char *device,
			  const struct capacity_result *r)
{
	char line[1536];
	struct jw w;
	struct restore_report rr = { .restored = r->restored, .device = device,
				     .error = r->restored ? NULL : r->restore_error,
				     .kept_file = r->rescue_file[0] ? r->rescue_file : NULL };
	const char *failure = !r->restored ? r->restore_error : r->error[0] ? r->error : NULL;

	capacity_summary(line, sizeof line, r);
	jw_init(&w, f);
	jw_object_begin(&w, NULL);
	json_envelope(&w, "capacity");
	struct dev_facts facts;

	measure_dev_facts_fill(&facts, d);
	json_device_facts(&w, &facts, device);
	jw_string(&w, "summary", line);
	capacity_json(&w, "capacity", r);
	json_restore(&w, "preserve", &rr);
	json_status(&w, &(struct run_status){
		.partial = r->interrupted || r->mode == CAP_MODE_ERROR,
		.interrupted = r->interrupted,
		.bytes_written = r->bytes_written,
		.device_ns = r->device_ns,
		.failed_because = r->interrupted ? NULL : failure,
	});
	jw_object_end(&w);
	jw_finish(&w);
	fflush(f);
}

void capacity_headline(FILE *f, const struct capacity_result *r)
{
	char line[1536], b[FMT_BUF];

	if (r->interrupted)
		return;
	if (r->verdict == CAP_UNKNOWN) {	/* first thing in the report: no verdict below stands on it */
		fprintf(f, "capacity not checked: %s\n", r->restored ? r->error : r->restore_error);
		return;
	}
	capacity_summary(line, sizeof line, r);
	if (r->verdict == CAP_GENUINE)
		fprintf(f, "  %-22s %s\n", "capacity", line);
	else
		fprintf(f, "%s\nEvery test below stayed inside the first %s.\n", line,
			fmt_size(b, r->real_lo));
}
