/*
 * Simulated flash cards on a virtual clock. Nothing is stored but the
 * state of the erase blocks (two bytes each) and of the few open ones.
 *
 * Reads cost latency + transfer, plus a fixed extra when the range
 * crosses a page boundary and a larger one when it crosses an erase-block
 * boundary: what `-a` looks for.
 *
 * Writes cost a command latency plus one page program per page touched (a
 * partial page costs a whole one), plus a mapping overhead outside the
 * first fat_aus erase blocks, which are page-mapped and need nothing else.
 * Elsewhere up to open_au erase blocks are open; an open block remembers
 * the range [lo, wp) written since it was opened. Writing at wp continues
 * it; a block written up to its end is closed (the part before lo, if any,
 * is copied in) and rewriting it from its start is a fresh allocation.
 * Writing into a block that is not open opens it, garbage-collecting the
 * least recently used open block when all slots are taken: its unwritten
 * rest is copied and the old copy erased, about the cost of writing a
 * whole erase block. An out-of-order write switches its block to random
 * mode, collecting the least recently used random-mode block when
 * random_au are in it already; with random_au=0, a forward jump copies the
 * gap and a backward one garbage-collects the block on the spot.
 * Discard erases the erase blocks it covers: collecting one copies nothing.
 * noise=PCT scales every cost by a seeded factor in [1-PCT%, 1+PCT%].
 */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define SIM_LBS 512u
#define MAX_OPEN_AU 128u
#define MAX_ERASE_BLOCKS (1u << 24)	/* state stays below 32 MiB */
#define MAX_SIZE (1ull << 44)		/* 16 TiB */
#define MAX_ERASESIZE (1ull << 30)
#define MAX_PAGESIZE (1ull << 20)
#define MAX_NOISE 50

#define US 1000.0
#define MS 1000000.0
#define MBPS 1000000.0	/* bytes per second */

/* What accesses cost; ns, or bytes per second. */
struct sim_timing {
	double read_lat, read_bps;
	double page_cross, eb_cross;	/* extra for a read crossing such a boundary */
	double write_lat, write_bps;	/* per command; page programming speed */
	double map_pages;		/* per write into a block-mapped erase block, in page programs */
	double erase, open;		/* erasing an old copy; allocating a fresh block */
	double copy_bps;		/* internal copy during garbage collection */
	double discard_lat;
};

struct preset {
	const char *name;
	const char *what;
	struct sim_config cfg;
	struct sim_timing t;
};

#define CFG(sz, es, ps, o, r, f) \
	{ .size = (sz), .erasesize = (es), .pagesize = (ps), .open_au = (o), \
	  .random_au = (r), .fat_aus = (f), .seed = 1, .fail_at = SIM_NO_FAIL }
#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* Used when the spec names no preset. */
static const struct preset generic = {
	NULL, NULL, CFG(4 * GiB, 4 * MiB, 16 * KiB, 2, 1, 1),
	{ 300 * US, 20 * MBPS, 90 * US, 200 * US, 200 * US, 12 * MBPS,
	  1.0, 3 * MS, 300 * US, 16 * MBPS, 100 * US },
};

static const struct preset presets[] = {
	{ "microsd-cheap", "8GiB microSD, 4MiB AU, 16KiB page, open 1, random 0, FAT 0",
	  CFG(8 * GiB, 4 * MiB, 16 * KiB, 1, 0, 0),
	  { 400 * US, 12 * MBPS, 80 * US, 180 * US, 300 * US, 6 * MBPS,
	    0.8, 4 * MS, 500 * US, 8 * MBPS, 200 * US } },
	{ "sdhc-good", "32GiB SDHC, 4MiB AU, 16KiB page, open 8, random 4, FAT 2",
	  CFG(32 * GiB, 4 * MiB, 16 * KiB, 8, 4, 2),
	  { 250 * US, 22 * MBPS, 100 * US, 200 * US, 150 * US, 18 * MBPS,
	    1.0, 2 * MS, 200 * US, 25 * MBPS, 100 * US } },
	{ "emmc", "16GiB eMMC, 512KiB AU, 8KiB page, open 16, random 16, FAT 0",
	  CFG(16 * GiB, 512 * KiB, 8 * KiB, 16, 16, 0),
	  { 100 * US, 80 * MBPS, 40 * US, 90 * US, 80 * US, 25 * MBPS,
	    0.8, 1 * MS, 100 * US, 40 * MBPS, 50 * US } },
	{ "sdxc-tlc", "64GiB TLC SDXC, 12MiB AU, 16KiB page, open 4, random 2, FAT 1",
	  CFG(64 * GiB, 12 * MiB, 16 * KiB, 4, 2, 1),
	  { 300 * US, 40 * MBPS, 100 * US, 220 * US, 200 * US, 15 * MBPS,
	    1.1, 5 * MS, 300 * US, 20 * MBPS, 100 * US } },
	{ "cf-16m", "32GiB CF card, 16MiB AU, 32KiB page, open 4, random 1, FAT 1",
	  CFG(32 * GiB, 16 * MiB, 32 * KiB, 4, 1, 1),
	  { 200 * US, 30 * MBPS, 120 * US, 260 * US, 150 * US, 20 * MBPS,
	    1.0, 6 * MS, 300 * US, 25 * MBPS, 100 * US } },
	/* ---- modelled on real cards (seeds in tests/data/seeds, doc/card-facts.md) ---- */
	/*
	 * Kingston SA04G through a USB reader (seed 000 card 2, seed 002): 1 KiB
	 * reads ~2 ms, diff ~1.2 ms from 4 MiB up, ~25 us below; linear 4.7 MB/s
	 * with one erase block, N=2 collapses to 6 KB/s at 4 KiB (0.68 s a write:
	 * 4 MiB rewritten at ~6 MB/s); random collapses at N=1; first 2 AUs FAT.
	 */
	{ "sa04g", "Kingston SA04G 4GB microSD: 4MiB AU, 8KiB page, open 1, random 0, FAT 2",
	  { .size = 4 * GiB, .erasesize = 4 * MiB, .pagesize = 8 * KiB, .open_au = 1,
	    .random_au = 0, .fat_aus = 2, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .spikes = 1 } },
	  { 1900 * US, 20 * MBPS, 25 * US, 1200 * US, 200 * US, 5 * MBPS,
	    0.5, 3 * MS, 300 * US, 6 * MBPS, 100 * US } },
	/*
	 * Kingston SDC10/4GB (seed 000 card 5): reads ~2 ms, diff ~500 us from
	 * 2 MiB, ~60-90 us from 8 KiB, ~35 us below; linear 12.5 MB/s at N=1,
	 * N=2 collapses (512 KiB at 1.79 MB/s: 0.29 s a write); random slow at N=1.
	 */
	{ "sdc10", "Kingston SDC10 4GB microSD: 2MiB AU, 8KiB page, open 1, random 0, FAT 2",
	  { .size = 4 * GiB, .erasesize = 2 * MiB, .pagesize = 8 * KiB, .open_au = 1,
	    .random_au = 0, .fat_aus = 2, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .spikes = 1 } },
	  { 1950 * US, 20 * MBPS, 50 * US, 430 * US, 150 * US, 13 * MBPS,
	    0.3, 3 * MS, 300 * US, 7 * MBPS, 100 * US } },
	/*
	 * SanDisk SU04G (seed 000 card 1): 1 ms reads, weak diffs (30-100 us);
	 * linear 13 MB/s holds to N=9 and collapses at 10 (65 KB/s at 16 KiB);
	 * random 12 MB/s down to 512 KiB, 3.5 MB/s at 256 KiB at any N: a 512 KiB
	 * mapping unit.
	 */
	{ "su04g", "SanDisk SU04G 4GB microSD: 2MiB AU, 8KiB page, open 9, 512KiB random unit",
	  { .size = 4 * GiB, .erasesize = 2 * MiB, .pagesize = 8 * KiB, .open_au = 9,
	    .random_au = 9, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .map_unit = 512 * KiB, .spikes = 2 } },
	  { 950 * US, 20 * MBPS, 10 * US, 70 * US, 100 * US, 14 * MBPS,
	    0.3, 3 * MS, 300 * US, 6 * MBPS, 100 * US } },
	/*
	 * Micron MMC02G eMMC (seed 003): diff ~450 us from 2 MiB, ~57 us below, no
	 * page step; linear and random hold at N=5 (4.4 MB/s), collapse at 6.
	 */
	{ "mmc02g", "Micron 2GB eMMC: 2MiB erase block, open 5, random 5, FAT 0",
	  { .size = 2 * GiB, .erasesize = 2 * MiB, .pagesize = 8 * KiB, .open_au = 5,
	    .random_au = 5, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL },
	  { 300 * US, 20 * MBPS, 0 * US, 390 * US, 150 * US, 5 * MBPS,
	    0.3, 2 * MS, 200 * US, 6 * MBPS, 100 * US } },
	/*
	 * Lexar 16GB CompactFlash (seed 004): diff ~120 us from 16 MiB, ~29 us from
	 * 16 KiB, ~3 us below; 56 MB/s; holds at N=11, collapses at 12, random too.
	 */
	{ "lexar-cf", "Lexar 16GB CF: 16MiB AU, 16KiB page, open 11, random 11, FAT 0",
	  { .size = 16 * GiB, .erasesize = 16 * MiB, .pagesize = 16 * KiB, .open_au = 11,
	    .random_au = 11, .fat_aus = 0, .seed = 1, .fail_at = SIM_NO_FAIL },
	  { 60 * US, 60 * MBPS, 26 * US, 92 * US, 60 * US, 60 * MBPS,
	    0.3, 4 * MS, 200 * US, 60 * MBPS, 50 * US } },
	/*
	 * Issue 11's real table: <=2 KiB ~3 us, 4 KiB ~40 us, 8 KiB..1 MiB ~120 us,
	 * >=2 MiB ~250 us, a further rise at 2 GiB on a 32 GB card; reads spike.
	 */
	{ "multiplane-32g", "32GiB SDHC: 2MiB AU, 4KiB pages read in pairs, 2GiB groups, open 4",
	  { .size = 32 * GiB, .erasesize = 2 * MiB, .pagesize = 4 * KiB, .open_au = 4,
	    .random_au = 2, .fat_aus = 1, .seed = 1, .fail_at = SIM_NO_FAIL,
	    .real = { .multiplane = 8 * KiB, .group = 2 * GiB, .spikes = 2 } },
	  { 300 * US, 20 * MBPS, 40 * US, 130 * US, 150 * US, 15 * MBPS,
	    1.0, 3 * MS, 300 * US, 16 * MBPS, 100 * US } },
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

struct open_block {
	uint64_t eb;		/* erase block index */
	uint64_t lo, wp;	/* linear: [lo, wp) written since opened (offsets in the block) */
	uint64_t written;	/* bytes in the new copy (random mode: bytes written) */
	uint64_t last_use;
	bool random;
	bool fresh;		/* was erased: garbage collection copies nothing */
};

struct eb_state {
	uint8_t slot;		/* open slot + 1, 0 when not open */
	uint8_t erased;
};

struct sim {
	struct sim_config cfg;
	struct sim_timing t;
	uint64_t neb;
	struct eb_state *eb;
	struct open_block open[MAX_OPEN_AU];
	bool in_use[MAX_OPEN_AU];
	unsigned int nrandom;
	uint64_t use_clock;
	int64_t now;
	uint64_t rng;
	FILE *record;
	struct sim_store *data;	/* NULL unless sim_data_enable() */
	FILE *trace;
};

/* ---------------------------------------------------------------- parsing */

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct preset *find_preset(const char *name, size_t len)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strlen(presets[i].name) == len && !strncmp(presets[i].name, name, len))
			return &presets[i];
	return NULL;
}

enum sized { K_SIZE, K_ERASESIZE, K_PAGESIZE, K_FAIL_AT, NSIZED };
static const char *const sized_keys[NSIZED] = { "size", "erasesize", "pagesize", "fail-at" };

struct spec_extra {
	char record[4096];
	char trace[4096];
	bool random_au_given;
	char typed[NSIZED][64];	/* size values as the user wrote them, for messages */
};

static int set_count(const char *key, const char *val, long long max, unsigned int *dst,
		     char *err, size_t errlen)
{
	long long v;
	if (parse_number(val, 0, max, &v))
		return fail(err, errlen, "sim: %s=%s: must be a whole number from 0 to %lld",
			    key, val, max);
	*dst = (unsigned int)v;
	return 0;
}

static int set_size(struct spec_extra *x, enum sized k, const char *val, uint64_t *dst,
		    char *err, size_t errlen)
{
	if (parse_size(val, dst))
		return fail(err, errlen, "sim: %s=%s: not a size", sized_keys[k], val);
	snprintf(x->typed[k], sizeof(x->typed[k]), "%.63s", val);
	return 0;
}

/* ---------------------------------------------- real-card phenomena: parameters */

#define MAX_DISTURB 20	/* spikes=, stretch=, drift=: percent */

/* 1 when key is not one of these, else 0 or -1 as set_param. */
static int set_real_param(struct sim_real *r, const char *key, const char *val,
			  char *err, size_t errlen)
{
	uint64_t *size = !strcmp(key, "multiplane") ? &r->multiplane :
			 !strcmp(key, "group") ? &r->group :
			 !strcmp(key, "map-unit") ? &r->map_unit : NULL;
	if (size) {
		if (parse_size(val, size) || *size % SIM_LBS)
			return fail(err, errlen, "sim: %s=%s: not a size (a multiple of 512)", key, val);
		return 0;
	}
	unsigned int *pct = !strcmp(key, "spikes") ? &r->spikes :
			    !strcmp(key, "stretch") ? &r->stretch :
			    !strcmp(key, "drift") ? &r->drift : NULL;
	if (pct)
		return set_count(key, val, MAX_DISTURB, pct, err, errlen);
	return 1;
}

static int check_real(const struct sim_config *c, char *err, size_t errlen)
{
	const struct sim_real *r = &c->real;
	char a[FMT_BUF], b[FMT_BUF];
	if (r->multiplane && (r->multiplane % c->pagesize || c->erasesize % r->multiplane))
		return fail(err, errlen, "sim: multiplane=%s: must be a multiple of the page (%s) "
			    "dividing the erase size", fmt_size(a, r->multiplane), fmt_size(b, c->pagesize));
	if (r->group && r->group % c->erasesize)
		return fail(err, errlen, "sim: group=%s: not a multiple of the erase size (%s)",
			    fmt_size(a, r->group), fmt_size(b, c->erasesize));
	if (r->map_unit && c->erasesize % r->map_unit)
		return fail(err, errlen, "sim: map-unit=%s: does not divide the erase size (%s)",
			    fmt_size(a, r->map_unit), fmt_size(b, c->erasesize));
	return 0;
}

static int set_param(struct sim_config *c, struct spec_extra *x, const char *key,
		     const char *val, char *err, size_t errlen)
{
	if (!strcmp(key, "size"))
		return set_size(x, K_SIZE, val, &c->size, err, errlen);
	if (!strcmp(key, "erasesize"))
		return set_size(x, K_ERASESIZE, val, &c->erasesize, err, errlen);
	if (!strcmp(key, "pagesize"))
		return set_size(x, K_PAGESIZE, val, &c->pagesize, err, errlen);
	if (!strcmp(key, "fail-at"))
		return set_size(x, K_FAIL_AT, val, &c->fail_at, err, errlen);
	if (!strcmp(key, "open-au"))
		return set_count(key, val, MAX_OPEN_AU, &c->open_au, err, errlen);
	if (!strcmp(key, "random-au")) {
		x->random_au_given = true;
		return set_count(key, val, MAX_OPEN_AU, &c->random_au, err, errlen);
	}
	if (!strcmp(key, "fat-aus"))
		return set_count(key, val, MAX_ERASE_BLOCKS, &c->fat_aus, err, errlen);
	if (!strcmp(key, "noise"))
		return set_count(key, val, MAX_NOISE, &c->noise_pct, err, errlen);
	if (!strcmp(key, "seed")) {
		long long v;
		if (parse_number(val, 0, INT64_MAX, &v))
			return fail(err, errlen, "sim: seed=%s: must be a whole number >= 0", val);
		c->seed = (uint64_t)v;
		return 0;
	}
	int r = sim_data_param(&c->data, key, val, err, errlen);
	if (r)
		return r < 0 ? -1 : 0;
	if (!strcmp(key, "record")) {
		if (!*val || strlen(val) >= sizeof(x->record))
			return fail(err, errlen, "sim: record=%s: needs a file name", val);
		strcpy(x->record, val);
		return 0;
	}
	if (!strcmp(key, "trace")) {
		if (!*val || strlen(val) >= sizeof(x->trace))
			return fail(err, errlen, "sim: trace=%s: needs a file name", val);
		strcpy(x->trace, val);
		return 0;
	}
	int real = set_real_param(&c->real, key, val, err, errlen);
	if (real <= 0)
		return real;
	return fail(err, errlen, "sim: %s=%s: unknown parameter (see --help)", key, val);
}

/* "erasesize=5M" as typed, or "erasesize=4MiB" when it came from the preset or default */
static const char *shown(const struct spec_extra *x, enum sized k, uint64_t v, char *buf)
{
	char num[FMT_BUF];
	snprintf(buf, 96, "%s=%s", sized_keys[k], x->typed[k][0] ? x->typed[k] : fmt_size(num, v));
	return buf;
}

static int check_sizes(const struct sim_config *c, const struct spec_extra *x,
		       char *err, size_t errlen)
{
	char a[96], b[96];
	const bool page_typed = x->typed[K_PAGESIZE][0];
	if (c->pagesize < SIM_LBS || c->pagesize > MAX_PAGESIZE || c->pagesize % SIM_LBS)
		return fail(err, errlen, "sim: %s: must be a multiple of 512 up to 1MiB",
			    shown(x, K_PAGESIZE, c->pagesize, a));
	if (!is_erase_candidate(c->erasesize) || c->erasesize > MAX_ERASESIZE ||
	    c->erasesize < SIM_LBS)
		return fail(err, errlen, "sim: %s: must be 2^n or 3*2^n bytes, 512 to 1GiB",
			    shown(x, K_ERASESIZE, c->erasesize, a));
	if (c->erasesize % c->pagesize && page_typed)
		return fail(err, errlen, "sim: %s: does not divide %s",
			    shown(x, K_PAGESIZE, c->pagesize, a), shown(x, K_ERASESIZE, c->erasesize, b));
	if (c->erasesize % c->pagesize)
		return fail(err, errlen, "sim: %s: not a multiple of %s",
			    shown(x, K_ERASESIZE, c->erasesize, a), shown(x, K_PAGESIZE, c->pagesize, b));
	if (c->size < c->erasesize || c->size % SIM_LBS || c->size > MAX_SIZE)
		return fail(err, errlen, "sim: %s: must be a multiple of 512 from %s to 16TiB",
			    shown(x, K_SIZE, c->size, a), shown(x, K_ERASESIZE, c->erasesize, b));
	if ((c->size + c->erasesize - 1) / c->erasesize > MAX_ERASE_BLOCKS)
		return fail(err, errlen, "sim: %s: more than %u erase blocks of %s",
			    shown(x, K_SIZE, c->size, a), MAX_ERASE_BLOCKS,
			    shown(x, K_ERASESIZE, c->erasesize, b));
	if (c->fail_at != SIM_NO_FAIL && c->fail_at >= c->size)
		return fail(err, errlen, "sim: %s: beyond the card (%s)",
			    shown(x, K_FAIL_AT, c->fail_at, a), shown(x, K_SIZE, c->size, b));
	return 0;
}

static int check_config(const struct sim_config *c, const struct spec_extra *x,
			char *err, size_t errlen)
{
	if (check_sizes(c, x, err, errlen))
		return -1;
	if (c->open_au < 1)
		return fail(err, errlen, "sim: open-au=%u: must be at least 1", c->open_au);
	if (c->random_au > c->open_au)
		return fail(err, errlen, "sim: random-au=%u: more than open-au (%u)",
			    c->random_au, c->open_au);
	if ((uint64_t)c->fat_aus * c->erasesize > c->size)
		return fail(err, errlen, "sim: fat-aus=%u: more erase blocks than the card has",
			    c->fat_aus);
	if (sim_data_check(&c->data, c->size, err, errlen) < 0)
		return -1;
	return check_real(c, err, errlen);
}

/* Splits spec at commas; the first preset token (anywhere) applies before the pairs. */
static int parse_spec(const char *spec, struct sim_config *c, struct sim_timing *t,
		      struct spec_extra *x, char *err, size_t errlen)
{
	const struct preset *p = &generic;
	const char *s, *end;

	for (s = spec; *s; s = *end ? end + 1 : end) {
		end = strchrnul(s, ',');
		if (memchr(s, '=', (size_t)(end - s)))
			continue;
		if (end == s)
			return fail(err, errlen, "sim:%s: empty parameter", spec);
		if (p != &generic)
			return fail(err, errlen, "sim: %.*s: a second preset (already %s)",
				    (int)(end - s), s, p->name);
		p = find_preset(s, (size_t)(end - s));
		if (!p)
			return fail(err, errlen, "sim: %.*s: unknown preset or missing '=' (see --help)",
				    (int)(end - s), s);
	}
	*c = p->cfg;
	c->preset = p->name;
	*t = p->t;
	memset(x, 0, sizeof(*x));

	for (s = spec; *s; s = *end ? end + 1 : end) {
		char key[64], val[4096];
		const char *eq;
		end = strchrnul(s, ',');
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq)
			continue;
		if ((size_t)(eq - s) >= sizeof(key) || (size_t)(end - eq) > sizeof(val))
			return fail(err, errlen, "sim: %.40s...: too long", s);
		memcpy(key, s, (size_t)(eq - s));
		key[eq - s] = 0;
		memcpy(val, eq + 1, (size_t)(end - eq - 1));
		val[end - eq - 1] = 0;
		if (set_param(c, x, key, val, err, errlen))
			return -1;
	}
	if (*spec && spec[strlen(spec) - 1] == ',')
		return fail(err, errlen, "sim:%s: empty parameter", spec);
	/* "sdhc-good,open-au=2" means a card like it with 2 open AUs */
	if (!x->random_au_given && c->random_au > c->open_au)
		c->random_au = c->open_au;
	return check_config(c, x, err, errlen);
}

/* ---------------------------------------------------------------- create */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct sim *sim_create(const char *spec, char *err, size_t errlen)
{
	struct sim_config c;
	struct sim_timing t;
	struct spec_extra x;
	struct sim *s;

	if (parse_spec(spec ? spec : "", &c, &t, &x, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		fail(err, errlen, "sim: out of memory");
		return NULL;
	}
	s->cfg = c;
	s->t = t;
	s->neb = (c.size + c.erasesize - 1) / c.erasesize;
	s->eb = calloc(s->neb, sizeof(*s->eb));
	s->rng = c.seed;
	if (!s->eb) {
		fail(err, errlen, "sim: size=%llu: out of memory", (unsigned long long)c.size);
		sim_destroy(s);
		return NULL;
	}
	if (x.record[0]) {
		s->record = fopen(x.record, "a");
		if (!s->record) {
			fail(err, errlen, "sim: record=%s: %s", x.record, strerror(errno));
			sim_destroy(s);
			return NULL;
		}
		setvbuf(s->record, NULL, _IOLBF, 0);
	}
	if (x.trace[0]) {
		s->trace = fopen(x.trace, "a");
		if (!s->trace) {
			fail(err, errlen, "sim: trace=%s: %s", x.trace, strerror(errno));
			sim_destroy(s);
			return NULL;
		}
	}
	return s;
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	if (s->record)
		fclose(s->record);
	sim_store_destroy(s->data);
	if (s->trace)
		fclose(s->trace);
	free(s->eb);
	free(s);
}

uint64_t sim_size(const struct sim *s) { return s->cfg.size; }
unsigned int sim_block_size(const struct sim *s) { (void)s; return SIM_LBS; }
const struct sim_config *sim_config(const struct sim *s) { return &s->cfg; }
int64_t sim_now(const struct sim *s) { return s->now; }

int sim_data_enable(struct sim *s, bool on)
{
	if (!on) {
		sim_store_destroy(s->data);
		s->data = NULL;
	} else if (!s->data && !(s->data = sim_store_create(&s->cfg.data))) {
		return -ENOMEM;
	}
	return 0;
}

struct sim_store *sim_data(struct sim *s) { return s->data; }

/* ---------------------------------------------------------------- costs */

static double transfer(uint64_t bytes, double bps) { return (double)bytes * 1e9 / bps; }

static double copy_cost(const struct sim *s, uint64_t bytes)
{
	return transfer(bytes, s->t.copy_bps);
}

/* Pages touched by [off, off+len): a partial page costs a whole one. */
static uint64_t pages_touched(uint64_t off, uint64_t len, uint64_t page)
{
	return (off + len - 1) / page - off / page + 1;
}

static bool crosses(uint64_t off, uint64_t len, uint64_t unit)
{
	return off / unit != (off + len - 1) / unit;
}

/* ---------------------------------------------- real-card phenomena: costs */

static double uniform01(struct sim *s)
{
	return (double)(splitmix(&s->rng) >> 11) / (double)(1ull << 53);
}

/*
 * Extra read-boundary levels: pages read in pairs (multi-plane) and
 * allocation groups far above the erase block (doc/flash-card-model.md §2,
 * §5; doc/card-facts.md, read boundaries); USB readers' spikes, 1-2% of
 * reads 300..800us slower (doc/card-facts.md, "Noise is not Gaussian").
 */
static double real_read_extra(struct sim *s, uint64_t off, uint64_t len)
{
	const struct sim_real *r = &s->cfg.real;
	double ns = 0;
	if (r->multiplane && crosses(off, len, r->multiplane))
		ns += s->t.page_cross;
	if (r->group && crosses(off, len, r->group))
		ns += 0.6 * s->t.eb_cross;
	if (r->spikes && uniform01(s) * 100 < r->spikes)
		ns += 300 * US + 500 * US * uniform01(s);
	return ns;
}

/*
 * Random-capable only for large blocks: an out-of-order write smaller than
 * the mapping unit copies the whole unit (doc/card-facts.md, "Random mode":
 * SanDisk SU04G in seed 000, random 512KiB 12 MB/s, 256KiB 3.5 MB/s at any N).
 */
static double real_map_unit_cost(const struct sim *s, uint64_t len)
{
	uint64_t unit = s->cfg.real.map_unit;
	return unit && len < unit ? transfer(unit, s->t.copy_bps) : 0;
}

/* A busy host stretches some accesses; runs drift slowly (doc/card-facts.md, noise). */
static double real_disturb(struct sim *s, double ns)
{
	const struct sim_real *r = &s->cfg.real;
	if (r->stretch && uniform01(s) * 100 < r->stretch)
		ns *= 1.5 + 2.5 * uniform01(s);
	if (r->drift)	/* one slow swing every 20 virtual seconds */
		ns *= 1.0 + r->drift / 100.0 * sin((double)s->now * 2 * M_PI / 20e9);
	return ns;
}

/* Applies seeded jitter, advances the clock, returns the cost. */
static int64_t charge(struct sim *s, double ns)
{
	int64_t cost;
	if (s->cfg.noise_pct) {
		double u = (double)(splitmix(&s->rng) >> 11) / (double)(1ull << 53);
		ns *= 1.0 + (2.0 * u - 1.0) * s->cfg.noise_pct / 100.0;
	}
	ns = real_disturb(s, ns);
	cost = (int64_t)(ns + 0.5);
	if (cost < 1)
		cost = 1;
	s->now += cost;
	return cost;
}

/* ---------------------------------------------------------------- write model */

static void release_slot(struct sim *s, unsigned int i)
{
	struct open_block *b = &s->open[i];
	if (b->random)
		s->nrandom--;
	s->eb[b->eb].slot = 0;
	s->in_use[i] = false;
}

/* Commits an open block: copy in what was not written since it opened, erase the old copy. */
static double close_block(struct sim *s, unsigned int i)
{
	const struct open_block *b = &s->open[i];
	double ns = s->t.erase;
	if (!b->fresh && b->written < s->cfg.erasesize)
		ns += copy_cost(s, s->cfg.erasesize - b->written);
	release_slot(s, i);
	return ns;
}

static unsigned int lru_slot(const struct sim *s)
{
	unsigned int best = 0;
	for (unsigned int i = 1; i < s->cfg.open_au; i++)
		if (s->open[i].last_use < s->open[best].last_use)
			best = i;
	return best;
}

static unsigned int lru_random_slot(const struct sim *s)
{
	unsigned int best = MAX_OPEN_AU;
	for (unsigned int i = 0; i < s->cfg.open_au; i++)
		if (s->in_use[i] && s->open[i].random &&
		    (best == MAX_OPEN_AU || s->open[i].last_use < s->open[best].last_use))
			best = i;
	return best;
}

/* Opens block eb for linear writing at offset lo inside it; adds any GC cost to *ns. */
static unsigned int open_block(struct sim *s, uint64_t eb, uint64_t lo, double *ns)
{
	unsigned int i;
	for (i = 0; i < s->cfg.open_au && s->in_use[i]; i++)
		;
	if (i == s->cfg.open_au) {
		i = lru_slot(s);
		*ns += close_block(s, i);
	}
	s->open[i] = (struct open_block){
		.eb = eb, .lo = lo, .wp = lo, .fresh = s->eb[eb].erased,
	};
	s->in_use[i] = true;
	s->eb[eb].slot = (uint8_t)(i + 1);
	s->eb[eb].erased = 0;
	*ns += s->t.open;
	return i;
}

/* An out-of-order write at o into the linear block in slot i. */
static unsigned int write_out_of_order(struct sim *s, unsigned int i, uint64_t o, double *ns)
{
	struct open_block *b = &s->open[i];
	if (s->cfg.random_au) {
		if (s->nrandom == s->cfg.random_au)
			*ns += close_block(s, lru_random_slot(s));
		b->random = true;
		s->nrandom++;
	} else if (o > b->wp) {
		*ns += copy_cost(s, o - b->wp);
		b->wp = o;
		b->written = b->wp - b->lo;
	} else {
		uint64_t eb = b->eb;
		*ns += close_block(s, i);
		i = open_block(s, eb, o, ns);
	}
	return i;
}

/* Write of len bytes at offset o inside erase block eb (no crossing). */
static double write_in_block(struct sim *s, uint64_t eb, uint64_t o, uint64_t len)
{
	const uint64_t es = s->cfg.erasesize;
	const double page_ns = transfer(s->cfg.pagesize, s->t.write_bps);
	double ns = (double)pages_touched(o, len, s->cfg.pagesize) * page_ns;
	struct open_block *b;
	unsigned int i;

	if (eb < s->cfg.fat_aus) {
		s->eb[eb].erased = 0;
		return ns;
	}
	ns += s->t.map_pages * page_ns;
	if (s->eb[eb].slot)
		i = s->eb[eb].slot - 1u;
	else
		i = open_block(s, eb, o, &ns);
	b = &s->open[i];
	if (!b->random && o != b->wp) {
		i = write_out_of_order(s, i, o, &ns);
		b = &s->open[i];
	}
	b->last_use = ++s->use_clock;
	if (b->random) {
		ns += real_map_unit_cost(s, len);
		b->written += len;
		if (b->written >= es)
			ns += close_block(s, i);
		return ns;
	}
	b->wp = o + len;
	b->written = b->wp - b->lo;
	if (b->wp == es)
		ns += close_block(s, i);
	return ns;
}

/* ---------------------------------------------------------------- I/O */

static int check_io(const struct sim *s, uint64_t off, uint64_t len)
{
	if (!len || off % SIM_LBS || len % SIM_LBS || off > s->cfg.size || len > s->cfg.size - off)
		return -EINVAL;
	if (s->cfg.fail_at != SIM_NO_FAIL && s->cfg.fail_at >= off && s->cfg.fail_at - off < len)
		return -EIO;
	return 0;
}

/* trace=FILE: every I/O in order, "R|W|D off len" (the test of access patterns) */
static void trace(struct sim *s, char op, uint64_t off, uint64_t len)
{
	if (s->trace)
		fprintf(s->trace, "%c %llu %llu\n", op, (unsigned long long)off, (unsigned long long)len);
}

int sim_read(struct sim *s, uint64_t off, uint64_t len, int64_t *ns)
{
	int rc = check_io(s, off, len);
	double cost;
	if (rc)
		return rc;
	cost = s->t.read_lat + transfer(len, s->t.read_bps);
	if (crosses(off, len, s->cfg.pagesize))
		cost += s->t.page_cross;
	if (crosses(off, len, s->cfg.erasesize))
		cost += s->t.eb_cross;
	cost += real_read_extra(s, off, len);
	*ns = charge(s, cost);
	trace(s, 'R', off, len);
	return 0;
}

int sim_write(struct sim *s, uint64_t off, uint64_t len, int64_t *ns)
{
	const uint64_t es = s->cfg.erasesize;
	int rc = check_io(s, off, len);
	double cost;
	if (rc)
		return rc;
	cost = s->t.write_lat;
	for (uint64_t pos = off, end = off + len; pos < end;) {
		uint64_t eb = pos / es, o = pos % es;
		uint64_t n = es - o < end - pos ? es - o : end - pos;
		cost += write_in_block(s, eb, o, n);
		pos += n;
	}
	*ns = charge(s, cost);
	trace(s, 'W', off, len);
	if (s->record)
		fprintf(s->record, "W %llu %llu\n", (unsigned long long)off, (unsigned long long)len);
	return 0;
}

int sim_discard(struct sim *s, uint64_t off, uint64_t len, int64_t *ns)
{
	const uint64_t es = s->cfg.erasesize;
	int rc = check_io(s, off, len);
	uint64_t first, last, n = 0;
	if (rc)
		return rc;
	/* Only erase blocks wholly inside the range are erased. */
	first = (off + es - 1) / es;
	last = off + len == s->cfg.size ? s->neb : (off + len) / es;
	for (uint64_t eb = first; eb < last; eb++, n++) {
		if (s->eb[eb].slot)
			release_slot(s, s->eb[eb].slot - 1u);
		s->eb[eb].erased = 1;
	}
	*ns = charge(s, s->t.discard_lat + (double)n * s->t.erase);
	trace(s, 'D', off, len);
	if (s->record)
		fprintf(s->record, "D %llu %llu\n", (unsigned long long)off, (unsigned long long)len);
	return 0;
}

/* ---------------------------------------------------------------- help */

const char *sim_help(void)
{
	static char text[4096];
	size_t n;
	if (text[0])
		return text;
	n = (size_t)snprintf(text, sizeof(text),
		"  A card on a virtual clock: no hardware, no root; the same spec and seed\n"
		"  give the same output. A preset comes first, keys override it; defaults\n"
		"  are those without a preset.\n"
		"  size=SIZE        capacity (default 4GiB)\n"
		"  erasesize=SIZE   erase block / allocation unit, 2^n or 3*2^n (default 4MiB)\n"
		"  pagesize=SIZE    write unit; smaller writes cost a whole page (default 16KiB)\n"
		"  open-au=N        erase blocks open for linear writing (default 2)\n"
		"  random-au=N      of those, how many may be written out of order (default 1)\n"
		"  fat-aus=N        leading erase blocks that are page-mapped (default 1)\n"
		"  noise=PCT        seeded +-PCT%% jitter on every access time (default 0)\n"
		"  seed=N           jitter seed (default 1)\n"
		"  fail-at=OFFSET   any I/O touching this byte fails with EIO\n"
		"  record=FILE      append \"W off len\" / \"D off len\" per write / discard\n"
		"  trace=FILE       append \"R|W|D off len\" per read, write and discard\n"
		"  real-size=SIZE   counterfeit: only SIZE bytes are stored (data; --capacity)\n"
		"  fake=wrap|drop   beyond real-size: wrap to offset %% real-size (default),\n"
		"                   or drop writes (reads return zeros)\n"
		"  cache=SIZE       write cache serving the last SIZE bytes written back\n"
		"  multiplane=SIZE  reads crossing a multiple cost one level more (pages\n"
		"                   read in pairs; default none)\n"
		"  group=SIZE       allocation group: reads crossing it cost more again\n"
		"  map-unit=SIZE    out-of-order writes below it rewrite the whole unit\n"
		"  spikes=PCT       PCT%% of reads 300..800us slower (USB readers)\n"
		"  stretch=PCT      PCT%% of accesses 1.5..4x slower (a busy host)\n"
		"  drift=PCT        every cost drifts slowly by up to +-PCT%%\n"
		"  Presets:\n");
	for (size_t i = 0; i < NPRESETS && n < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "    %-13s %s\n",
				      presets[i].name, presets[i].what);
	return text;
}

const char *const *sim_preset_names(void)
{
	static const char *names[NPRESETS + 1];
	for (size_t i = 0; i < NPRESETS; i++)
		names[i] = presets[i].name;
	return names;
}
