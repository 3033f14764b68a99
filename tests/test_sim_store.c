/*
 * The sim: card's sparse data store and its fakes: what was written reads
 * back (genuine), wraps at real-size, is lost beyond it (drop), and a
 * write cache serves the most recent writes until later ones push them out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/sim_store.h"
#include "unit.h"

#define S 512u

static void fill(unsigned char *p, uint64_t tag)
{
	for (unsigned i = 0; i < S; i += 8)
		memcpy(p + i, &tag, 8);
}

static uint64_t tag_of(const unsigned char *p)
{
	uint64_t t;
	memcpy(&t, p, 8);
	return t;
}

static void put(struct sim_store *st, uint64_t sector, uint64_t tag)
{
	unsigned char b[S];
	fill(b, tag);
	sim_store_write(st, sector * S, b, S);
}

static uint64_t get(struct sim_store *st, uint64_t sector)
{
	unsigned char b[S];
	memset(b, 0xee, S);
	sim_store_read(st, sector * S, b, S);
	return tag_of(b);
}

static void genuine_keeps_everything_and_reads_zeros_elsewhere(void)
{
	struct sim_data_config c = { 0 };
	struct sim_store *st = sim_store_create(&c);
	put(st, 0, 11);
	put(st, 1000000, 22);
	CHECK(get(st, 0) == 11);
	CHECK(get(st, 1000000) == 22);
	CHECK(get(st, 5) == 0);
	CHECK(sim_store_sectors(st) == 2);
	sim_store_destroy(st);
}

static void wrap_aliases_modulo_real_size(void)
{
	struct sim_data_config c = { .real_size = 1000 * S, .fake = SIM_FAKE_WRAP };
	struct sim_store *st = sim_store_create(&c);
	put(st, 7, 1);
	CHECK(get(st, 1007) == 1);	/* reads beyond see the low sector */
	put(st, 2007, 2);		/* writes beyond overwrite it */
	CHECK(get(st, 7) == 2);
	CHECK(get(st, 999) == 0);
	sim_store_destroy(st);
}

static void drop_loses_writes_beyond_real_size(void)
{
	struct sim_data_config c = { .real_size = 1000 * S, .fake = SIM_FAKE_DROP };
	struct sim_store *st = sim_store_create(&c);
	put(st, 999, 3);
	put(st, 1000, 4);
	put(st, 1007, 5);
	CHECK(get(st, 999) == 3);
	CHECK(get(st, 1000) == 0);
	CHECK(get(st, 7) == 0);
	CHECK(sim_store_sectors(st) == 1);
	sim_store_destroy(st);
}

static void cache_serves_recent_writes_until_pushed_out(void)
{
	struct sim_data_config c = { .real_size = 1000 * S, .fake = SIM_FAKE_DROP, .cache = 8 * S };
	struct sim_store *st = sim_store_create(&c);
	put(st, 5000, 6);
	CHECK(get(st, 5000) == 6);	/* lost, but the cache still has it */
	for (uint64_t i = 0; i < 7; i++)
		put(st, 10 + i, 100 + i);
	CHECK(get(st, 5000) == 6);	/* 8 sectors of cache: still there */
	put(st, 20, 7);
	CHECK(get(st, 5000) == 0);	/* pushed out: the truth shows */
	CHECK(get(st, 10) == 100);
	sim_store_destroy(st);
}

/* Many writes and cache evictions against a plain array. */
static void matches_a_reference_under_churn(void)
{
	enum { N = 5000 };
	struct sim_data_config c = { .real_size = 3001 * S, .fake = SIM_FAKE_WRAP, .cache = 97 * S };
	struct sim_store *st = sim_store_create(&c);
	static uint64_t truth[N], last[N * 4];
	uint64_t x = 12345, bad = 0;
	for (uint64_t i = 0; i < 200000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t s = (x >> 33) % (N * 4);
		put(st, s, i + 1);
		truth[s % 3001] = i + 1;
		last[s] = i + 1;
	}
	/* the last 97 writes are cached by logical sector; others show the flash */
	for (uint64_t s = 0; s < N * 4; s++) {
		uint64_t g = get(st, s);
		if (g != truth[s % 3001] && g != last[s])
			bad++;
	}
	CHECK(bad == 0);
	CHECK(sim_store_sectors(st) <= 3001 + 97);
	sim_store_destroy(st);
}

/*
 * Runs of many sectors, at any sector (across the 4KiB pages the store
 * keeps, across real-size and its wraps when real-size is no whole page),
 * against a plain array: what a --capacity run does with its chunks.
 */
static void runs_across_pages_and_wraps_match_a_reference(enum sim_fake fake)
{
	enum { N = 4000, REAL = 1001 };
	struct sim_data_config c = { .real_size = REAL * S, .fake = fake };
	struct sim_store *st = sim_store_create(&c);
	static uint64_t flash[REAL];
	static unsigned char b[64 * S];
	uint64_t x = 777, bad = 0, held = 0;
	memset(flash, 0, sizeof flash);
	for (uint64_t i = 0; i < 3000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t s = (x >> 33) % N, n = 1 + (x >> 20) % 64;
		if (s + n > N)
			n = N - s;
		for (uint64_t j = 0; j < n; j++) {
			fill(b + j * S, (i + 1) << 16 | j);
			if (s + j < REAL || fake == SIM_FAKE_WRAP)
				flash[(s + j) % REAL] = (i + 1) << 16 | j;
		}
		sim_store_write(st, s * S, b, n * S);
		if (i % 7)
			continue;
		/* a run read back at once, of another length */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		s = (x >> 33) % N, n = 1 + (x >> 20) % 64;
		if (s + n > N)
			n = N - s;
		memset(b, 0xee, n * S);
		sim_store_read(st, s * S, b, n * S);
		for (uint64_t j = 0; j < n; j++) {
			uint64_t want = s + j < REAL || fake == SIM_FAKE_WRAP ? flash[(s + j) % REAL] : 0;
			bad += tag_of(b + j * S) != want || tag_of(b + j * S + S - 8) != want;
		}
	}
	for (uint64_t s = 0; s < N; s++) {
		uint64_t want = s < REAL || fake == SIM_FAKE_WRAP ? flash[s % REAL] : 0;
		if (get(st, s) != want)
			bad++;
	}
	for (uint64_t s = 0; s < REAL; s++)
		held += flash[s] != 0;
	CHECK(bad == 0);
	CHECK(sim_store_sectors(st) == held);	/* the sectors written, not the pages */
	sim_store_destroy(st);
}

static void sim_keeps_data_only_while_enabled(void)
{
	char err[256];
	struct sim *s = sim_create("size=1G,real-size=100M,fake=drop,cache=1M", err, sizeof err);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(sim_data(s) == NULL);
	CHECK(sim_data_enable(s, true) == 0);
	CHECK(sim_data(s) != NULL);
	CHECK(sim_data_enable(s, false) == 0);
	CHECK(sim_data(s) == NULL);
	sim_destroy(s);
}

static void bad_parameters_are_refused(void)
{
	char err[256];
	const char *bad[] = { "size=1G,real-size=1G", "size=1G,real-size=2G", "real-size=1000",
			      "fake=mirror", "cache=2G", "cache=1x" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct sim *s = sim_create(bad[i], err, sizeof err);
		CHECK(s == NULL);
		if (s) {
			printf("accepted: %s\n", bad[i]);
			sim_destroy(s);
		}
	}
}

int main(void)
{
	genuine_keeps_everything_and_reads_zeros_elsewhere();
	wrap_aliases_modulo_real_size();
	drop_loses_writes_beyond_real_size();
	cache_serves_recent_writes_until_pushed_out();
	matches_a_reference_under_churn();
	runs_across_pages_and_wraps_match_a_reference(SIM_FAKE_WRAP);
	runs_across_pages_and_wraps_match_a_reference(SIM_FAKE_DROP);
	sim_keeps_data_only_while_enabled();
	bad_parameters_are_refused();
	return unit_summary();
}
