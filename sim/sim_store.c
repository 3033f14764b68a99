/*
 * Sparse sector store for sim: cards, with the lies of counterfeit cards:
 * real-size=SIZE with fake=wrap (the default) maps every offset to
 * offset % real-size, as a controller that ignores the missing flash does;
 * fake=drop loses writes at or beyond real-size, and reads there return
 * zeros (nothing was ever kept). cache=SIZE keeps the last SIZE bytes of
 * writes by their logical offset and serves reads from them first, the way
 * a controller's write cache hides a fake from a write-then-read check.
 */
#include "sim/sim_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/units.h"

#define SECTOR 512u
#define CHUNK_SECTORS 4096u		/* arena grows 2MiB at a time */
#define EMPTY UINT64_MAX

/* Open addressing, linear probing: sector number -> slot. */
struct map {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap, used;
};

struct arena {
	unsigned char **chunks;
	size_t nchunks, nsectors;
};

struct sim_store {
	struct sim_data_config cfg;
	struct map data;		/* physical sector -> arena slot */
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
	return a->chunks[slot / CHUNK_SECTORS] + (size_t)(slot % CHUNK_SECTORS) * SECTOR;
}

static uint32_t arena_new(struct arena *a)
{
	if (a->nsectors == a->nchunks * CHUNK_SECTORS) {
		unsigned char **c = realloc(a->chunks, (a->nchunks + 1) * sizeof *c);
		if (c)
			a->chunks = c;
		if (!c || !(c[a->nchunks] = malloc((size_t)CHUNK_SECTORS * SECTOR))) {
			errx_fb(1, "sim: out of memory for stored data");
		}
		a->nchunks++;
	}
	return (uint32_t)a->nsectors++;
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
		free(st->store.chunks[i]);
	free(st->store.chunks);
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

void sim_store_write(struct sim_store *st, uint64_t off, const void *buf, uint64_t len)
{
	const unsigned char *p = buf;
	for (uint64_t s = off / SECTOR; len; s++, p += SECTOR, len -= SECTOR) {
		uint64_t ph = physical(st, s);
		uint32_t slot;
		if (st->ring_cap)
			cache_put(st, s, p);
		if (ph == EMPTY)
			continue;
		if (!map_get(&st->data, ph, &slot)) {
			slot = arena_new(&st->store);
			map_put(&st->data, ph, slot);
		}
		memcpy(arena_at(&st->store, slot), p, SECTOR);
	}
}

void sim_store_read(struct sim_store *st, uint64_t off, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	for (uint64_t s = off / SECTOR; len; s++, p += SECTOR, len -= SECTOR) {
		uint64_t ph;
		uint32_t slot;
		if (st->ring_cap && map_get(&st->cached, s, &slot)) {
			memcpy(p, st->ring + (size_t)slot * SECTOR, SECTOR);
			continue;
		}
		ph = physical(st, s);
		if (ph != EMPTY && map_get(&st->data, ph, &slot))
			memcpy(p, arena_at(&st->store, slot), SECTOR);
		else
			memset(p, 0, SECTOR);
	}
}
