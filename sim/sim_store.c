/*
 * Sparse sector store for sim: cards, with the lies of counterfeit cards:
 * real-size=SIZE with fake=wrap (the default) maps every offset to
 * offset % real-size, as a controller that ignores the missing flash does;
 * fake=drop loses writes at or beyond real-size, and reads there return
 * zeros (nothing was ever kept). cache=SIZE keeps the last SIZE bytes of
 * writes by their logical offset and serves reads from them first, the way
 * a controller's write cache hides a fake from a write-then-read check.
 * The flash is kept in pages of 4KiB (8 sectors, zeros until written),
 * found by one look-up per page: a --capacity run moves its labels in
 * chunks, and a look-up per sector was the most of a sim: run's time.
 */
#include "sim/sim_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/msg.h"
#include "lib/units.h"

#define SECTOR 512u
#define PAGE 4096u			/* kept in pages of 8 sectors: one look-up for each */
#define SECTORS_PER_PAGE (PAGE / SECTOR)
#define CHUNK (2u << 20)		/* arena grows 2MiB at a time: a huge page */
#define CHUNK_PAGES (CHUNK / PAGE)
#define EMPTY UINT64_MAX

/* Open addressing, linear probing: sector number -> slot. */
struct map {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap, used;
};

struct arena {
	unsigned char **chunks;
	uint8_t *written;		/* each page's sectors written, a bit each */
	size_t nchunks, npages;
	uint64_t nsectors;		/* sectors written (bits set) */
};

struct sim_store {
	struct sim_data_config cfg;
	struct map data;		/* physical page (sector / 8) -> arena slot */
	struct arena store;
	struct map cached;		/* logical sector -> cache ring slot */
	unsigned char *ring;		/* cache: cap sectors of data */
	uint64_t *ring_key;		/* logical sector in each ring slot, EMPTY if none */
	size_t ring_cap, ring_head;
};

/* ---------------------------------------------------------------- parameters */

int sim_data_param(struct sim_data_config *c, const char *key, const char *val,
		   char *err, size_t errlen)
{
	if (!strcmp(key, "real-size") || !strcmp(key, "cache")) {
		uint64_t v;
		if (parse_size(val, &v) || v % SECTOR) {
			snprintf(err, errlen, "sim: %s=%s: not a size in whole 512-byte sectors", key, val);
			return -1;
		}
		*(key[0] == 'r' ? &c->real_size : &c->cache) = v;
		return 1;
	}
	if (!strcmp(key, "fake")) {
		if (!strcmp(val, "wrap"))
			c->fake = SIM_FAKE_WRAP;
		else if (!strcmp(val, "drop"))
			c->fake = SIM_FAKE_DROP;
		else {
			snprintf(err, errlen, "sim: fake=%s: must be 'wrap' or 'drop'", val);
			return -1;
		}
		return 1;
	}
	return 0;
}

int sim_data_check(const struct sim_data_config *c, uint64_t size, char *err, size_t errlen)
{
	char a[FMT_BUF];
	if (c->real_size && c->real_size >= size) {
		snprintf(err, errlen, "sim: real-size=%s: must be smaller than the card (size=%s)",
			 fmt_size(a, c->real_size), fmt_size((char[FMT_BUF]){ 0 }, size));
		return -1;
	}
	if (c->cache > (1ull << 30)) {
		snprintf(err, errlen, "sim: cache=%s: at most 1GiB", fmt_size(a, c->cache));
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- map */

static uint64_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int map_init(struct map *m, size_t cap)
{
	m->cap = cap;
	m->used = 0;
	m->keys = malloc(cap * sizeof *m->keys);
	m->vals = malloc(cap * sizeof *m->vals);
	if (!m->keys || !m->vals)
		return -1;
	memset(m->keys, 0xff, cap * sizeof *m->keys);
	return 0;
}

static void map_free(struct map *m)
{
	free(m->keys);
	free(m->vals);
}

static size_t map_find(const struct map *m, uint64_t k)
{
	size_t i = hash(k) & (m->cap - 1);
	while (m->keys[i] != EMPTY && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int map_get(const struct map *m, uint64_t k, uint32_t *v)
{
	size_t i = map_find(m, k);
	if (m->keys[i] == EMPTY)
		return 0;
	*v = m->vals[i];
	return 1;
}

static void map_put_nogrow(struct map *m, uint64_t k, uint32_t v)
{
	size_t i = map_find(m, k);
	if (m->keys[i] == EMPTY)
		m->used++;
	m->keys[i] = k;
	m->vals[i] = v;
}

static void map_put(struct map *m, uint64_t k, uint32_t v)
{
	if ((m->used + 1) * 2 > m->cap) {
		struct map bigger;
		if (map_init(&bigger, m->cap * 2) < 0) {
			errx_fb(1, "sim: out of memory for stored data");
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i] != EMPTY)
				map_put_nogrow(&bigger, m->keys[i], m->vals[i]);
		map_free(m);
		*m = bigger;
	}
	map_put_nogrow(m, k, v);
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void map_del(struct map *m, uint64_t k)
{
	size_t i = map_find(m, k), j = i;
	if (m->keys[i] == EMPTY)
		return;
	for (;;) {
		j = (j + 1) & (m->cap - 1);
		if (m->keys[j] == EMPTY)
			break;
		size_t home = hash(m->keys[j]) & (m->cap - 1);
		/* move j back to i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = EMPTY;
	m->used--;
}

/* ---------------------------------------------------------------- store */

static unsigned char *arena_at(const struct arena *a, uint32_t slot)
{
	return a->chunks[slot / CHUNK_PAGES] + (size_t)(slot % CHUNK_PAGES) * PAGE;
}

/*
 * A chunk of the arena: CHUNK bytes of zeros, aligned to CHUNK from an
 * anonymous map, that the kernel may back with one huge page: a run of
 * --capacity fills tens of MiB, and a fault for each 4KiB of it cost more
 * time than the run's own arithmetic. NULL when out of memory.
 */
static unsigned char *chunk_new(void)
{
	size_t len = 2 * (size_t)CHUNK;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	size_t lead = (size_t)(-(uintptr_t)m & (CHUNK - 1));
	if (lead)
		munmap(m, lead);
	munmap(m + lead + CHUNK, len - lead - CHUNK);
#ifdef MADV_HUGEPAGE
	madvise(m + lead, CHUNK, MADV_HUGEPAGE);	/* a hint: without it, 4KiB pages */
#endif
	return m + lead;
}

/* A new page, all zeros (its sectors not yet written read as zeros). */
static uint32_t arena_new(struct arena *a)
{
	if (a->npages == a->nchunks * CHUNK_PAGES) {
		unsigned char **c = realloc(a->chunks, (a->nchunks + 1) * sizeof *c);
		uint8_t *w = realloc(a->written, (a->nchunks + 1) * CHUNK_PAGES);
		if (c)
			a->chunks = c;
		if (w)
			a->written = w;
		if (!c || !w || !(c[a->nchunks] = chunk_new())) {
			errx_fb(1, "sim: out of memory for stored data");
		}
		memset(a->written + a->nchunks * CHUNK_PAGES, 0, CHUNK_PAGES);
		a->nchunks++;
	}
	return (uint32_t)a->npages++;
}

struct sim_store *sim_store_create(const struct sim_data_config *c)
{
	struct sim_store *st = calloc(1, sizeof *st);
	if (!st)
		return NULL;
	st->cfg = *c;
	st->ring_cap = (size_t)(c->cache / SECTOR);
	if (map_init(&st->data, 1024) < 0 || map_init(&st->cached, 1024) < 0)
		goto fail;
	if (st->ring_cap) {
		st->ring = malloc(st->ring_cap * SECTOR);
		st->ring_key = malloc(st->ring_cap * sizeof *st->ring_key);
		if (!st->ring || !st->ring_key)
			goto fail;
		memset(st->ring_key, 0xff, st->ring_cap * sizeof *st->ring_key);
	}
	return st;
fail:
	sim_store_destroy(st);
	return NULL;
}

void sim_store_destroy(struct sim_store *st)
{
	if (!st)
		return;
	map_free(&st->data);
	map_free(&st->cached);
	for (size_t i = 0; i < st->store.nchunks; i++)
		munmap(st->store.chunks[i], CHUNK);
	free(st->store.chunks);
	free(st->store.written);
	free(st->ring);
	free(st->ring_key);
	free(st);
}

uint64_t sim_store_sectors(const struct sim_store *st)
{
	return st->store.nsectors + st->ring_cap;
}

/* Where logical sector s is kept; EMPTY when a drop fake loses it. */
static uint64_t physical(const struct sim_store *st, uint64_t s)
{
	uint64_t real = st->cfg.real_size / SECTOR;
	if (!real || s < real)
		return s;
	return st->cfg.fake == SIM_FAKE_DROP ? EMPTY : s % real;
}

static void cache_put(struct sim_store *st, uint64_t s, const void *data)
{
	uint32_t slot;
	if (!map_get(&st->cached, s, &slot)) {
		slot = (uint32_t)st->ring_head;
		st->ring_head = (st->ring_head + 1) % st->ring_cap;
		if (st->ring_key[slot] != EMPTY)
			map_del(&st->cached, st->ring_key[slot]);
		st->ring_key[slot] = s;
		map_put(&st->cached, s, slot);
	}
	memcpy(st->ring + (size_t)slot * SECTOR, data, SECTOR);
}

/*
 * Sectors [s, s+n) as one run in the store: as many as lie in one page of
 * the physical sectors they map to (and, on a wrap fake, before the wrap).
 * The run's physical sector in *ph (EMPTY: a drop fake loses it).
 */
static uint64_t run_of(const struct sim_store *st, uint64_t s, uint64_t n, uint64_t *ph)
{
	uint64_t real = st->cfg.real_size / SECTOR, k;
	*ph = physical(st, s);
	if (*ph == EMPTY)
		return n;	/* past real-size, all of it lost */
	k = SECTORS_PER_PAGE - *ph % SECTORS_PER_PAGE;
	if (real && s < real && real - s < k)
		k = real - s;	/* up to real-size, then the fake */
	else if (real && s >= real && real - s % real < k)
		k = real - s % real;	/* up to the next wrap */
	return k < n ? k : n;
}

void sim_store_write(struct sim_store *st, uint64_t off, const void *buf, uint64_t len)
{
	const unsigned char *p = buf;
	uint64_t s = off / SECTOR, n = len / SECTOR;
	if (st->ring_cap)
		for (uint64_t i = 0; i < n; i++)
			cache_put(st, s + i, p + i * SECTOR);
	while (n) {
		uint64_t ph, k = run_of(st, s, n, &ph);
		uint32_t slot;
		if (ph != EMPTY) {
			unsigned int first = (unsigned int)(ph % SECTORS_PER_PAGE);
			uint8_t bits = (uint8_t)(((1u << k) - 1) << first), *w;
			if (!map_get(&st->data, ph / SECTORS_PER_PAGE, &slot)) {
				slot = arena_new(&st->store);
				map_put(&st->data, ph / SECTORS_PER_PAGE, slot);
			}
			memcpy(arena_at(&st->store, slot) + (size_t)first * SECTOR, p, k * SECTOR);
			w = &st->store.written[slot];
			st->store.nsectors += (uint64_t)__builtin_popcount(bits & (uint8_t)~*w);
			*w |= bits;
		}
		s += k;
		n -= k;
		p += k * SECTOR;
	}
}

void sim_store_read(struct sim_store *st, uint64_t off, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	uint64_t s = off / SECTOR, n = len / SECTOR;
	while (n) {
		uint64_t ph, k;
		uint32_t slot;
		if (st->ring_cap && map_get(&st->cached, s, &slot)) {
			memcpy(p, st->ring + (size_t)slot * SECTOR, SECTOR);
			k = 1;
		} else {
			k = run_of(st, s, n, &ph);
			/* stop the run at the next cached sector: it is served from the cache */
			for (uint64_t i = 1; st->ring_cap && i < k; i++)
				if (map_get(&st->cached, s + i, &slot)) {
					k = i;
					break;
				}
			if (ph != EMPTY && map_get(&st->data, ph / SECTORS_PER_PAGE, &slot))
				memcpy(p, arena_at(&st->store, slot) + (size_t)(ph % SECTORS_PER_PAGE) * SECTOR,
				       k * SECTOR);
			else
				memset(p, 0, k * SECTOR);
		}
		s += k;
		n -= k;
		p += k * SECTOR;
	}
}
