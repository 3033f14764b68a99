/*
 * The simulated card, driven directly with the access patterns of -a,
 * --open-au and --find-fat: each must detect what the card was given.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim/sim.h"
#include "unit.h"
#include "lib/units.h"

#define KiB 1024ull
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

static bool verbose;

static struct sim *make(const char *fmt, ...)
{
	char spec[512], err[256] = "";
	struct sim *s;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(spec, sizeof(spec), fmt, ap);
	va_end(ap);
	s = sim_create(spec, err, sizeof(err));
	if (!s)
		printf("sim_create(\"%s\"): %s\n", spec, err);
	CHECK(s != NULL);
	return s;
}

static int64_t read_ns(struct sim *s, uint64_t off, uint64_t len)
{
	int64_t ns = -1;
	if (sim_read(s, off, len, &ns)) {
		printf("read %llu+%llu failed\n", (unsigned long long)off, (unsigned long long)len);
		unit_failed++;
	}
	return ns;
}

static int64_t write_ns(struct sim *s, uint64_t off, uint64_t len)
{
	int64_t ns = -1;
	if (sim_write(s, off, len, &ns)) {
		printf("write %llu+%llu failed\n", (unsigned long long)off, (unsigned long long)len);
		unit_failed++;
	}
	return ns;
}

/* ------------------------------------------------------------------ -a */

static int64_t min_read(struct sim *s, uint64_t off, uint64_t len, int count)
{
	int64_t best = INT64_MAX;
	for (int i = 0; i < count; i++) {
		int64_t t = read_ns(s, off, len);
		if (t < best)
			best = t;
	}
	return best;
}

/* Largest power of two with room for eight of it on the card. */
static uint64_t max_boundary(uint64_t size)
{
	uint64_t a = 1;
	while (a * 16 <= size)
		a *= 2;
	return a;
}

/* diff = on - (pre + post) / 2 at boundary A, as -a measures it: min over count, mean over 7 places. */
static double align_diff(struct sim *s, uint64_t a, uint64_t bs, int count)
{
	uint64_t size = sim_size(s), step = a;
	double sum = 0;
	int n = 0;
	while (step < max_boundary(size))
		step *= 2;
	for (int i = 0; i < 7; i++) {
		uint64_t p = a + i * step;
		if (p + bs > size)
			break;
		int64_t pre = min_read(s, p - bs, bs, count);
		int64_t on = min_read(s, p - bs / 2, bs, count);
		int64_t post = min_read(s, p, bs, count);
		sum += (double)on - (pre + post) / 2.0;
		n++;
	}
	return n ? sum / n : 0;
}

static bool divides(uint64_t a, uint64_t b) { return b % a == 0; }

/* High at the erase size and its multiples; lower at its divisors; a step at the page size. */
static void check_align(const char *spec, uint64_t es, uint64_t page, uint64_t bs, bool page_step)
{
	struct sim *s = make("%s", spec);
	double hi = 1e18, lo = -1e18;
	if (!s)
		return;
	for (uint64_t m = 1; m <= 4 && m * es * 8 <= sim_size(s); m *= 2) {
		double d = align_diff(s, m * es, bs, 8);
		hi = d < hi ? d : hi;
	}
	/*
	 * Below it: boundaries A with es/A a power of two, and for a 2^n erase
	 * size the 3*2^k ones. (Where es/A is 3, -a's places A*(1 + i*2^q)
	 * hit an erase boundary at some i: a diluted diff, by design.)
	 */
	for (uint64_t a = 2 * bs; a < es; a *= 2) {
		uint64_t a3 = a / 2 * 3;
		if (divides(a, es) && is_pow2(es / a)) {
			double d = align_diff(s, a, bs, 8);
			lo = d > lo ? d : lo;
		}
		if (is_pow2(es) && a3 < es && a3 >= 2 * bs) {
			double d = align_diff(s, a3, bs, 8);
			lo = d > lo ? d : lo;
		}
	}
	if (verbose)
		printf("%-60s bs %5llu  hi %8.0f  lo %8.0f\n", spec, (unsigned long long)bs, hi, lo);
	CHECK_GT(hi, 50000);
	CHECK(hi > 1.8 * lo || (printf("  %s bs=%llu: hi %.0f lo %.0f\n", spec,
				      (unsigned long long)bs, hi, lo), 0));
	if (page_step) {
		double at_page = align_diff(s, page, bs, 8);
		double below_page = align_diff(s, page / 2, bs, 8);
		bool step = at_page > 30000 && at_page < 0.8 * hi && below_page < 0.3 * at_page;
		CHECK(step || (printf("  %s: page %.0f below %.0f hi %.0f\n", spec, at_page,
				      below_page, hi), 0));
	}
	sim_destroy(s);
}

static void test_align_matrix(void)
{
	static const uint64_t erase[] = { 512 * KiB, 1 * MiB, 1536 * KiB, 3 * MiB, 4 * MiB,
					  6 * MiB, 8 * MiB, 12 * MiB, 16 * MiB };
	static const uint64_t pages[] = { 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB };
	static const int noise[] = { 0, 5, 10 };
	char spec[256];
	for (size_t e = 0; e < sizeof(erase) / sizeof(erase[0]); e++)
		for (size_t p = 0; p < sizeof(pages) / sizeof(pages[0]); p++) {
			int nz = noise[(e + p) % 3];
			snprintf(spec, sizeof(spec), "size=4G,erasesize=%llu,pagesize=%llu,noise=%d,seed=%zu",
				 (unsigned long long)erase[e], (unsigned long long)pages[p], nz, e * 7 + p);
			check_align(spec, erase[e], pages[p], 1 * KiB, true);
			check_align(spec, erase[e], pages[p], 16 * KiB, false);
		}
	check_align("microsd-cheap,noise=5", 4 * MiB, 16 * KiB, 1 * KiB, true);
	check_align("sdhc-good", 4 * MiB, 16 * KiB, 16 * KiB, false);
	check_align("emmc,noise=8", 512 * KiB, 8 * KiB, 1 * KiB, true);
	check_align("sdxc-tlc,noise=5", 12 * MiB, 16 * KiB, 2 * KiB, true);
	check_align("cf-16m,noise=10", 16 * MiB, 32 * KiB, 4 * KiB, true);
}

/* ------------------------------------------------------------------ --open-au */

/* Full-period permutation of 0..n-1 (n a power of two): x -> 5x + 1 mod n. */
struct perm {
	uint64_t x, n;
};
static uint64_t perm_next(struct perm *p)
{
	p->x = (p->x * 5 + 1) & (p->n - 1);
	return p->x;
}

#define MAX_ROWS 40
struct sweep {
	int nrows;
	uint64_t bs[MAX_ROWS];
	double rate[MAX_ROWS];	/* bytes per second */
};

/* One --open-au run: rows from es down to bs_min, chunks round-robin over n erase blocks. */
static void open_au_sweep(struct sim *s, uint64_t es, uint64_t bs_min, int n, uint64_t off,
			  bool random, struct sweep *w)
{
	w->nrows = 0;
	for (uint64_t bs = es; bs >= bs_min && w->nrows < MAX_ROWS; bs /= 2) {
		uint64_t chunks = es / bs;
		struct perm p = { 0, chunks };
		double total = 0;
		for (uint64_t i = 0; i < chunks; i++) {
			uint64_t c = random ? perm_next(&p) : i;
			for (int j = 0; j < n; j++)
				total += (double)write_ns(s, off + j * es + c * bs, bs);
		}
		w->bs[w->nrows] = bs;
		w->rate[w->nrows++] = (double)n * es / total * 1e9;
	}
}

static double rate_at(const struct sweep *w, uint64_t bs)
{
	for (int i = 0; i < w->nrows; i++)
		if (w->bs[i] == bs)
			return w->rate[i];
	return -1;
}

static void sweep_one(const char *base, int n, bool random, uint64_t es, uint64_t bs_min,
		      struct sweep *w)
{
	struct sim *s = make("%s", base);
	uint64_t off = (16 * MiB + es - 1) / es * es;
	if (s)
		open_au_sweep(s, es, bs_min, n, off, random, w);
	sim_destroy(s);
}

/*
 * At N = limit the rate at page-sized writes holds (a fair share of the
 * rate of whole erase blocks); at N = limit + 1 it collapses: far below,
 * and halving with the write size.
 */
static void check_open_au(const char *base, uint64_t es, uint64_t page, int limit, bool random)
{
	struct sweep ok, bad;
	double hold, col, col2;
	if (limit > 0) {
		sweep_one(base, limit, random, es, page, &ok);
		hold = ok.rate[ok.nrows - 1];	/* the smallest block size >= page */
		CHECK(hold > 0.2 * rate_at(&ok, es) ||
		      (printf("  %s N=%d%s holds? %.0f vs %.0f at es\n", base, limit,
			      random ? " random" : "", hold, rate_at(&ok, es)), 0));
	} else {
		hold = 0;
	}
	sweep_one(base, limit + 1, random, es, page, &bad);
	col = bad.rate[bad.nrows - 1];
	col2 = bad.rate[bad.nrows - 2];
	if (verbose)
		printf("%-70s %s N=%d %.3gM/s N+1 %.3gM/s (2 pages %.3gM/s)\n", base,
		       random ? "rnd" : "lin", limit, hold / 1e6, col / 1e6, col2 / 1e6);
	/* random mode collects about one block per round, linear one per write */
	if (limit > 0)
		CHECK(col < (random ? 0.5 : 0.35) * hold || (printf("  %s N+1=%d%s: %.0f vs %.0f\n", base, limit + 1,
					       random ? " random" : "", col, hold), 0));
	if (bad.nrows >= 4)
		CHECK((col / col2 > 0.35 && col / col2 < 0.7) ||
		      (printf("  %s N+1=%d%s: not halving: %.0f at page, %.0f at 2 pages\n", base,
			      limit + 1, random ? " random" : "", col, col2), 0));
}

static void test_open_au_matrix(void)
{
	static const uint64_t erase[] = { 512 * KiB, 1 * MiB, 1536 * KiB, 3 * MiB, 4 * MiB,
					  6 * MiB, 8 * MiB, 12 * MiB, 16 * MiB };
	static const uint64_t pages[] = { 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB };
	static const int open[] = { 1, 2, 3, 5, 8, 16, 4 };
	static const int noise[] = { 0, 6, 10 };
	char spec[256];
	int k = 0;
	for (size_t e = 0; e < sizeof(erase) / sizeof(erase[0]); e++)
		for (size_t p = 0; p < sizeof(pages) / sizeof(pages[0]); p++, k++) {
			int o = open[k % 7], r = k % 3 == 0 ? 0 : (o + 1) / 2;
			snprintf(spec, sizeof(spec),
				 "size=1G,erasesize=%llu,pagesize=%llu,open-au=%d,random-au=%d,"
				 "fat-aus=%d,noise=%d,seed=%d",
				 (unsigned long long)erase[e], (unsigned long long)pages[p], o, r,
				 k % 2, noise[k % 3], k);
			if (erase[e] < 2 * pages[p])
				continue;
			check_open_au(spec, erase[e], pages[p], o, false);
			check_open_au(spec, erase[e], pages[p], r, true);
		}
	check_open_au("microsd-cheap", 4 * MiB, 16 * KiB, 1, false);
	check_open_au("microsd-cheap,noise=5", 4 * MiB, 16 * KiB, 0, true);
	check_open_au("sdhc-good,noise=5", 4 * MiB, 16 * KiB, 8, false);
	check_open_au("sdhc-good", 4 * MiB, 16 * KiB, 4, true);
	check_open_au("emmc", 512 * KiB, 8 * KiB, 16, false);
	check_open_au("emmc,noise=10", 512 * KiB, 8 * KiB, 16, true);
	check_open_au("sdxc-tlc", 12 * MiB, 16 * KiB, 4, false);
	check_open_au("sdxc-tlc,noise=5", 12 * MiB, 16 * KiB, 2, true);
	check_open_au("cf-16m,noise=7", 16 * MiB, 32 * KiB, 4, false);
	check_open_au("cf-16m", 16 * MiB, 32 * KiB, 1, true);
}

/* A normal sequential rewrite of the same erase blocks is not penalised. */
static void test_sequential_rewrite_is_cheap(void)
{
	struct sim *s = make("size=1G,open-au=1,random-au=0");
	int64_t first = 0, again = 0;
	if (!s)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t off = 16 * MiB; off < 32 * MiB; off += 64 * KiB)
			*(pass ? &again : &first) += write_ns(s, off, 64 * KiB);
	CHECK(again < first * 1.05 && again > first * 0.95);
	sim_destroy(s);
}

/* ------------------------------------------------------------------ sub-page writes */

static void test_writes_below_page_size_lose_throughput(void)
{
	static const uint64_t pages[] = { 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB };
	for (size_t i = 0; i < 4; i++) {
		struct sweep w;
		uint64_t pg = pages[i];
		char spec[128];
		snprintf(spec, sizeof(spec), "size=1G,pagesize=%llu,noise=5", (unsigned long long)pg);
		struct sim *s = make("%s", spec);
		if (!s)
			continue;
		open_au_sweep(s, 4 * MiB, pg / 4, 1, 16 * MiB, false, &w);
		double half = rate_at(&w, pg / 2) / rate_at(&w, pg);
		double quarter = rate_at(&w, pg / 4) / rate_at(&w, pg / 2);
		double above = rate_at(&w, pg) / rate_at(&w, 2 * pg);
		CHECK(half > 0.4 && half < 0.6);
		CHECK(quarter > 0.4 && quarter < 0.6);
		CHECK_GT(above, 0.6);	/* above the page size, halving the write does not halve the rate */
		sim_destroy(s);
	}
}

/* ------------------------------------------------------------------ --find-fat */

/* One --find-fat row: for each of nr erase blocks, one erase block's worth in chunks of bs. */
static void find_fat_row(struct sim *s, uint64_t es, uint64_t bs, int nr, bool random,
			 double *rate)
{
	uint64_t chunks = es / bs;
	for (int k = 0; k < nr; k++) {
		struct perm p = { 0, chunks };
		double total = 0;
		for (uint64_t i = 0; i < chunks; i++) {
			uint64_t c = random ? perm_next(&p) : i;
			total += (double)write_ns(s, k * es + c * bs, bs);
		}
		rate[k] = (double)es / total * 1e9;
	}
}

static void check_find_fat(const char *spec, uint64_t es, uint64_t page, int fat, bool random)
{
	struct sim *s = make("%s", spec);
	double rate[8];
	const int nr = 6;
	if (!s)
		return;
	for (uint64_t bs = es; bs >= page; bs /= 2) {
		double fat_min = 1e18, rest_max = 0;
		find_fat_row(s, es, bs, nr, random, rate);
		for (int k = 0; k < nr; k++) {
			if (k < fat)
				fat_min = rate[k] < fat_min ? rate[k] : fat_min;
			else
				rest_max = rate[k] > rest_max ? rate[k] : rest_max;
		}
		if (bs > 2 * page || fat == 0)
			continue;
		if (verbose)
			printf("%-60s %s bs %llu fat %.3gM/s rest %.3gM/s\n", spec, random ? "rnd" : "lin",
			       (unsigned long long)bs, fat_min / 1e6, rest_max / 1e6);
		CHECK(fat_min > 1.4 * rest_max ||
		      (printf("  %s%s bs=%llu: FAT %.0f vs rest %.0f\n", spec, random ? " random" : "",
			      (unsigned long long)bs, fat_min, rest_max), 0));
	}
	if (fat == 0) {
		double lo = 1e18, hi = 0;
		for (int k = 0; k < nr; k++) {
			lo = rate[k] < lo ? rate[k] : lo;
			hi = rate[k] > hi ? rate[k] : hi;
		}
		CHECK(hi < 1.25 * lo ||	/* no FAT area: columns alike */
		      (printf("  %s%s: columns %.0f .. %.0f\n", spec, random ? " random" : "", lo, hi), 0));
	}
	sim_destroy(s);
}

static void test_find_fat_matrix(void)
{
	static const uint64_t erase[] = { 512 * KiB, 1536 * KiB, 4 * MiB, 6 * MiB, 12 * MiB, 16 * MiB };
	static const uint64_t pages[] = { 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB };
	char spec[256];
	int k = 0;
	for (size_t e = 0; e < sizeof(erase) / sizeof(erase[0]); e++)
		for (size_t p = 0; p < 4; p++, k++) {
			int fat = k % 4, rnd = k % 3;
			snprintf(spec, sizeof(spec),
				 "size=1G,erasesize=%llu,pagesize=%llu,open-au=4,random-au=%d,fat-aus=%d,"
				 "noise=%d,seed=%d", (unsigned long long)erase[e],
				 (unsigned long long)pages[p], rnd, fat, k % 2 ? 8 : 0, k);
			check_find_fat(spec, erase[e], pages[p], fat, false);
			check_find_fat(spec, erase[e], pages[p], fat, true);
		}
	check_find_fat("sdhc-good,noise=5", 4 * MiB, 16 * KiB, 2, false);
	check_find_fat("sdxc-tlc", 12 * MiB, 16 * KiB, 1, true);
	check_find_fat("microsd-cheap", 4 * MiB, 16 * KiB, 0, false);
}

/* ------------------------------------------------------------------ the rest of the API */

static void expect_error(const char *spec, const char *needle)
{
	char err[256] = "";
	struct sim *s = sim_create(spec, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, needle) != NULL && !strchr(err, '\n'));
	if (!strstr(err, needle))
		printf("  spec \"%s\": error \"%s\" lacks \"%s\"\n", spec, err, needle);
	sim_destroy(s);
}

static void test_parameters(void)
{
	struct sim *s = make("sdhc-good,noise=5,open-au=3");
	if (s) {
		const struct sim_config *c = sim_config(s);
		CHECK_STR(c->preset, "sdhc-good");
		CHECK(c->open_au == 3 && c->random_au == 3);	/* clamped, as it was not given */
		CHECK(c->erasesize == 4 * MiB && c->pagesize == 16 * KiB && c->noise_pct == 5);
		CHECK(sim_size(s) == 32 * GiB && sim_block_size(s) == 512);
		sim_destroy(s);
	}
	/* the preset applies first wherever it is written */
	s = make("noise=5,erasesize=12M,sdhc-good");
	if (s) {
		CHECK(sim_config(s)->erasesize == 12 * MiB && sim_config(s)->open_au == 8);
		sim_destroy(s);
	}
	s = make("size=1.5G,erasesize=1.5M,pagesize=48K,fat-aus=0,seed=9");
	if (s) {
		CHECK(sim_size(s) == 1536 * MiB && sim_config(s)->erasesize == 1536 * KiB);
		CHECK(sim_config(s)->preset == NULL && sim_config(s)->seed == 9);
		sim_destroy(s);
	}
	s = make("");
	if (s) {
		CHECK(sim_config(s)->fail_at == SIM_NO_FAIL && sim_config(s)->open_au >= 1);
		sim_destroy(s);
	}
	for (const char *const *n = sim_preset_names(); *n; n++) {
		s = make("%s", *n);
		CHECK(strstr(sim_help(), *n) != NULL);
		sim_destroy(s);
	}
	expect_error("sdhc-bad", "sdhc-bad");
	expect_error("emmc,cf-16m", "cf-16m");
	expect_error("size=0", "size=0");
	expect_error("size=4x", "size=4x");
	expect_error("size=1000", "size=1000");
	expect_error("erasesize=5M", "erasesize=5M");
	expect_error("erasesize=4M,pagesize=3000", "pagesize=3000");
	expect_error("erasesize=4M,pagesize=48K", "pagesize=48K");
	expect_error("pagesize=48K", "pagesize=48K: does not divide erasesize=4MiB");
	expect_error("cf-16m,erasesize=48K", "erasesize=48K: not a multiple of pagesize=32KiB");
	expect_error("open-au=0", "open-au=0");
	expect_error("open-au=-1", "open-au=-1");
	expect_error("open-au=2,random-au=3", "random-au=3");
	expect_error("noise=51", "noise=51");
	expect_error("noise=abc", "noise=abc");
	expect_error("seed=x", "seed=x");
	expect_error("size=64M,fat-aus=17", "fat-aus=17");
	expect_error("size=64M,fail-at=64M", "fail-at=64M");
	expect_error("cf-16m,size=8M", "size=8M");
	expect_error("colour=red", "colour=red");
	expect_error("open-au=2,", "empty");
	expect_error("open-au=2,,seed=1", "empty");
	expect_error("record=/nonexistent/dir/x", "record=/nonexistent/dir/x");
	expect_error("size=16T,erasesize=512K", "size=");
}

static void test_io_checks(void)
{
	struct sim *s = make("size=64M,fail-at=8M");
	int64_t ns = 12345;
	if (!s)
		return;
	CHECK_EQ(sim_read(s, 64 * MiB - 512, 512, &ns), 0);
	CHECK_EQ(sim_read(s, 64 * MiB - 512, 1024, &ns), -EINVAL);
	CHECK_EQ(sim_read(s, 64 * MiB, 512, &ns), -EINVAL);
	CHECK_EQ(sim_read(s, UINT64_MAX - 511, 512, &ns), -EINVAL);
	CHECK_EQ(sim_write(s, 100, 512, &ns), -EINVAL);
	CHECK_EQ(sim_write(s, 0, 100, &ns), -EINVAL);
	CHECK_EQ(sim_write(s, 0, 0, &ns), -EINVAL);
	ns = 777;
	CHECK(sim_read(s, 8 * MiB - 512, 1024, &ns) == -EIO && ns == 777);
	CHECK_EQ(sim_write(s, 8 * MiB, 512, &ns), -EIO);
	CHECK_EQ(sim_discard(s, 0, 64 * MiB, &ns), -EIO);
	CHECK_EQ(sim_read(s, 8 * MiB - 512, 512, &ns), 0);
	CHECK_EQ(sim_write(s, 8 * MiB + 512, 512, &ns), 0);
	sim_destroy(s);
}

static void test_record(void)
{
	char path[] = "/tmp/test_sim.XXXXXX", line[128], all[512] = "";
	int fd = mkstemp(path);
	struct sim *s;
	int64_t ns;
	FILE *f;
	CHECK_GE(fd, 0);
	if (fd < 0)
		return;
	close(fd);
	s = make("size=64M,record=%s", path);
	if (s) {
		sim_write(s, 4 * MiB, 16 * KiB, &ns);
		sim_read(s, 0, 512, &ns);
		sim_discard(s, 8 * MiB, 4 * MiB, &ns);
		CHECK_EQ(sim_write(s, 64 * MiB, 512, &ns), -EINVAL);	/* not recorded */
		sim_write(s, 512, 1024, &ns);
		sim_destroy(s);
	}
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		strncat(all, line, sizeof(all) - strlen(all) - 1);
	if (f)
		fclose(f);
	CHECK_STR(all, "W 4194304 16384\nD 8388608 4194304\nW 512 1024\n");
	unlink(path);
}

/* Same spec and seed: the same times; another seed: other times; jitter within +-noise. */
static void test_determinism_and_noise(void)
{
	struct sim *a = make("sdhc-good,noise=10,seed=3"), *b = make("sdhc-good,noise=10,seed=3");
	struct sim *c = make("sdhc-good,noise=10,seed=4"), *q = make("sdhc-good");
	bool same = true, differ = false, bounded = true;
	int64_t lo = INT64_MAX, hi = 0;
	if (!a || !b || !c || !q)
		return;
	for (int i = 0; i < 2000; i++) {
		uint64_t off = (uint64_t)(i % 97) * 3 * MiB + 16 * MiB;
		int64_t ta, tb, tc, tq;
		if (i % 3) {
			sim_read(a, off, 16 * KiB, &ta);
			sim_read(b, off, 16 * KiB, &tb);
			sim_read(c, off, 16 * KiB, &tc);
			sim_read(q, off, 16 * KiB, &tq);
			bounded = bounded && ta >= tq * 0.899 && ta <= tq * 1.101;
			lo = ta < lo ? ta : lo;
			hi = ta > hi ? ta : hi;
		} else {
			sim_write(a, off, 64 * KiB, &ta);
			sim_write(b, off, 64 * KiB, &tb);
			sim_write(c, off, 64 * KiB, &tc);
		}
		same = same && ta == tb;
		differ = differ || ta != tc;
	}
	CHECK(same && differ && bounded);
	CHECK(sim_now(a) == sim_now(b) && sim_now(a) > 0);
	CHECK_GT(hi, lo);
	sim_destroy(a);
	sim_destroy(b);
	sim_destroy(c);
	sim_destroy(q);
}

static void test_read_costs(void)
{
	struct sim *s = make("size=1G,erasesize=3M,pagesize=16K");
	if (!s)
		return;
	int64_t inside = read_ns(s, 3 * MiB + 16 * KiB, 4 * KiB);
	int64_t page = read_ns(s, 3 * MiB + 16 * KiB - 2 * KiB, 4 * KiB);
	int64_t eb = read_ns(s, 6 * MiB - 2 * KiB, 4 * KiB);
	int64_t pow2 = read_ns(s, 4 * MiB - 2 * KiB, 4 * KiB);	/* not an erase boundary */
	CHECK(inside < page && page < eb && pow2 == page);
	CHECK_GT(eb - inside, 2 * (page - inside));
	CHECK_GT(read_ns(s, 0, 1 * MiB), read_ns(s, 0, 512 * KiB));	/* transfer time */
	sim_destroy(s);
}

/* Real-card phenomena: extra read levels, spikes, a random-write mapping unit, bad values. */
static void test_real_phenomena(void)
{
	struct sim *s = make("size=4G,erasesize=2M,pagesize=4K,multiplane=8K,group=1G");
	if (!s)
		return;
	int64_t inside = read_ns(s, 64 * KiB + 1 * KiB, 1 * KiB);
	int64_t page = read_ns(s, 12 * KiB - 512, 1 * KiB);	/* a page, not a pair */
	int64_t plane = read_ns(s, 16 * KiB - 512, 1 * KiB);
	int64_t eb = read_ns(s, 4 * MiB - 512, 1 * KiB);
	int64_t group = read_ns(s, 1 * GiB - 512, 1 * KiB);
	CHECK(inside < page && page < plane && plane < eb && eb < group);
	sim_destroy(s);

	s = make("size=1G,erasesize=2M,pagesize=4K,spikes=20,seed=3");
	int spiked = 0;
	for (int i = 0; s && i < 1000; i++)
		spiked += read_ns(s, 64 * KiB, 1 * KiB) > 600000;	/* 300us + 50us base */
	CHECK(spiked > 100 && spiked < 300);
	sim_destroy(s);

	/* out-of-order writes below the unit are slow, above it as fast as linear */
	s = make("size=1G,erasesize=4M,pagesize=16K,open-au=4,random-au=4,map-unit=512K,fat-aus=0");
	if (s) {
		int64_t small = write_ns(s, 8 * MiB + 64 * KiB, 64 * KiB) +
				write_ns(s, 8 * MiB + 1 * MiB, 64 * KiB);	/* the second is out of order */
		int64_t lin = write_ns(s, 16 * MiB, 64 * KiB) + write_ns(s, 16 * MiB + 64 * KiB, 64 * KiB);
		int64_t big_r = write_ns(s, 8 * MiB + 2 * MiB, 512 * KiB);
		int64_t big_l = write_ns(s, 16 * MiB + 128 * KiB, 512 * KiB);
		CHECK(small > 2 * lin);
		CHECK(big_r < 1.2 * big_l);
		sim_destroy(s);
	}
	char err[256];
	CHECK(sim_create("erasesize=4M,pagesize=16K,multiplane=24K", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "multiplane=24KiB") != NULL);
	CHECK(sim_create("erasesize=4M,group=6M", err, sizeof(err)) == NULL);
	CHECK(sim_create("spikes=21", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "spikes=21") != NULL);
}

/* Discard erases: collecting a discarded erase block copies nothing. */
static void test_discard(void)
{
	struct sim *s = make("size=256M,open-au=1,random-au=0,fat-aus=0");
	int64_t ns, used = 0, erased = 0;
	if (!s)
		return;
	/* block 4 half written, then block 5 forces it to be collected */
	write_ns(s, 16 * MiB, 2 * MiB);
	used = write_ns(s, 20 * MiB, 512 * KiB);
	CHECK(sim_discard(s, 32 * MiB, 8 * MiB, &ns) == 0 && ns > 0);
	write_ns(s, 32 * MiB, 2 * MiB);
	erased = write_ns(s, 36 * MiB, 512 * KiB);
	CHECK_LT(erased, used / 2);
	/* a partial discard erases nothing */
	CHECK_EQ(sim_discard(s, 64 * MiB + 512, 4 * MiB, &ns), 0);
	write_ns(s, 64 * MiB, 2 * MiB);
	CHECK_GT(write_ns(s, 72 * MiB, 512 * KiB), used * 0.9);
	sim_destroy(s);
}

/* State is per erase block: a 64 GiB card with 512 KiB erase blocks is cheap to make. */
static void test_big_card_is_cheap(void)
{
	struct sim *s = make("size=64G,erasesize=512K");
	int64_t ns;
	if (!s)
		return;
	CHECK_EQ(sim_read(s, 64 * GiB - 16 * KiB, 16 * KiB, &ns), 0);
	CHECK_EQ(sim_write(s, 64 * GiB - 16 * KiB, 16 * KiB, &ns), 0);
	sim_destroy(s);
}

/* ------------------------------------------------------------ cards as they are made today */

/* Sequential writes of bs from off, n of them: the rate of each into rate[]. */
static void sequential_rates(struct sim *s, uint64_t off, uint64_t bs, int n, double *rate)
{
	for (int i = 0; i < n; i++)
		rate[i] = (double)bs / (double)write_ns(s, off + (uint64_t)i * bs, bs) * 1e9;
}

/*
 * A pseudo-SLC cache: an --open-au run past the open limit that fits in it
 * shows no collapse; once it is full the same run collapses, halving; a
 * sequential run over its end falls off a cliff to the native rate and
 * stays there (no halving); after a long pause it is fast again, after a
 * short one only for what was folded back.
 */
static void test_slc_cache(void)
{
	const char *card = "size=4G,erasesize=4M,pagesize=16K,open-au=2,random-au=1,fat-aus=0,"
			   "slc-cache=256M,native=33";
	struct sweep w;
	struct sim *s = make("%s", card);
	double r[96];
	if (!s)
		return;
	open_au_sweep(s, 4 * MiB, 16 * KiB, 3, 16 * MiB, false, &w);	/* 108 MiB: inside */
	CHECK_GT(rate_at(&w, 16 * KiB), 0.5 * rate_at(&w, 4 * MiB));
	sequential_rates(s, 1 * GiB, 4 * MiB, 96, r);	/* 384 MiB: over the end at 148 MiB */
	CHECK_NEAR(r[0], r[30], r[0] * 0.02);			/* cached */
	CHECK_NEAR(r[60] / r[0], 0.33, 0.03);			/* native: a third, a cliff */
	CHECK_NEAR(r[95], r[60], r[60] * 0.02);			/* and it stays there */
	open_au_sweep(s, 4 * MiB, 16 * KiB, 3, 16 * MiB, false, &w);	/* full: collapses */
	CHECK_LT(rate_at(&w, 16 * KiB), 0.1 * rate_at(&w, 4 * MiB));
	CHECK_NEAR(rate_at(&w, 16 * KiB) / rate_at(&w, 32 * KiB), 0.5, 0.1);
	/* the native rate folds 1 MiB in ~0.26 s: 1 s of idle gives back ~3.8 MiB */
	sim_idle(s, 1000 * 1000000ll);
	sequential_rates(s, 2 * GiB, 1 * MiB, 8, r);
	CHECK_NEAR(r[0] / r[7], 3.0, 0.4);	/* the first MiBs cached, then native again */
	sim_idle(s, 3600 * 1000000000ll);	/* an hour: all folded back */
	sequential_rates(s, 3 * GiB, 4 * MiB, 60, r);
	CHECK_NEAR(r[59], r[0], r[0] * 0.02);
	sim_destroy(s);

	/* the same card without the cache collapses at once */
	s = make("size=4G,erasesize=4M,pagesize=16K,open-au=2,random-au=1,fat-aus=0");
	if (s) {
		open_au_sweep(s, 4 * MiB, 16 * KiB, 3, 16 * MiB, false, &w);
		CHECK_LT(rate_at(&w, 16 * KiB), 0.1 * rate_at(&w, 4 * MiB));
		sim_destroy(s);
	}
	/* right after a run the cache is full: the first writes are at the native rate */
	s = make("%s,state=after-run", card);
	if (s) {
		double cached[4];
		struct sim *fresh = make("%s", card);
		sequential_rates(s, 3 * GiB, 4 * MiB, 4, r);
		sequential_rates(fresh, 3 * GiB, 4 * MiB, 4, cached);
		CHECK_NEAR(r[1] / cached[1], 0.33, 0.03);
		sim_destroy(fresh);
		sim_destroy(s);
	}
	/* slc-fold= sets the folding speed */
	s = make("%s,slc-fold=1G/s", card);
	if (s) {
		sequential_rates(s, 0, 4 * MiB, 64, r);	/* 256 MiB: full */
		sim_idle(s, 1000 * 1000000ll);
		sequential_rates(s, 1 * GiB, 4 * MiB, 64, r);
		CHECK_NEAR(r[63], r[0], r[0] * 0.02);	/* all of it folded in a second */
		sim_destroy(s);
	}
}

/* The rate of rate[from..to), as the time of all of them. */
static double mean_rate(const double *rate, int from, int to)
{
	double t = 0;
	for (int i = from; i < to; i++)
		t += 1 / rate[i];
	return (to - from) / t;
}

/*
 * A RAM buffer: after a pause, writes complete at bus speed until it is
 * full, then at the card's rate; it drains while the host is idle.
 */
static void test_ram_buffer(void)
{
	struct sim *s = make("size=1G,erasesize=512K,pagesize=16K,open-au=8,random-au=8,fat-aus=0,"
			     "buffer=1M");
	struct sim *q = make("size=1G,erasesize=512K,pagesize=16K,open-au=8,random-au=8,fat-aus=0");
	double r[512], plain[512];
	if (!s || !q)
		return;
	sequential_rates(s, 16 * MiB, 16 * KiB, 512, r);
	sequential_rates(q, 16 * MiB, 16 * KiB, 512, plain);
	CHECK_GT(r[0], 2 * plain[0]);			/* into the buffer: the bus */
	/* full: the card's rate (its command latency overlaps the programming behind) */
	double card = mean_rate(plain, 256, 512), full = mean_rate(r, 256, 512);
	CHECK(full > 0.97 * card && full < 1.15 * card);
	sim_idle(s, 1000);				/* 1 us: still full */
	sequential_rates(s, 32 * MiB, 16 * KiB, 64, r);
	CHECK_NEAR(mean_rate(r, 0, 64), full, full * 0.03);
	sim_idle(s, 1000 * 1000000ll);			/* 1 s: drained */
	sequential_rates(s, 48 * MiB, 16 * KiB, 4, r);
	CHECK_GT(r[0], 2 * plain[0]);
	sim_destroy(s);
	sim_destroy(q);
}

/* Deferred collections, tidied after idle-gc= ms of idle: a run's rate depends on the pause. */
static double run_after_pause(const char *idle_gc, int64_t pause_ns)
{
	struct sim *s = make("size=1G,erasesize=4M,pagesize=16K,open-au=2,random-au=1,fat-aus=0,"
			     "gc-defer=4%s", idle_gc);
	struct sweep w;
	double total = 0;
	if (!s)
		return 0;
	open_au_sweep(s, 4 * MiB, 64 * KiB, 3, 16 * MiB, false, &w);	/* collapses: leaves work */
	sim_idle(s, pause_ns);
	int64_t t0 = sim_now(s);
	open_au_sweep(s, 4 * MiB, 64 * KiB, 2, 128 * MiB, false, &w);	/* holds on a clean card */
	total = (double)(sim_now(s) - t0);
	sim_destroy(s);
	return total;
}

static void test_idle_gc(void)
{
	double short_pause = run_after_pause(",idle-gc=500", 10 * 1000000ll);
	double long_pause = run_after_pause(",idle-gc=500", 5000 * 1000000ll);
	double never = run_after_pause("", 5000 * 1000000ll);
	double never_short = run_after_pause("", 10 * 1000000ll);
	CHECK_LT(long_pause, 0.8 * short_pause);	/* tidied in the pause: faster */
	CHECK_EQ(never, never_short);			/* without idle-gc the pause changes nothing */
	CHECK_NEAR(never, short_pause, short_pause * 0.01);
}

/* geometry=hidden: no read boundary costs more, and no --open-au run collapses. */
static void test_hidden_geometry(void)
{
	struct sim *s = make("size=4G,erasesize=4M,pagesize=16K,open-au=2,random-au=1,fat-aus=0,"
			     "multiplane=32K,group=1G,geometry=hidden");
	struct sweep one, many;
	if (!s)
		return;
	CHECK_EQ(align_diff(s, 4 * MiB, 1 * KiB, 2), 0);
	CHECK_EQ(align_diff(s, 16 * KiB, 1 * KiB, 2), 0);
	CHECK_EQ(align_diff(s, 1 * GiB, 1 * KiB, 2), 0);
	sim_destroy(s);
	sweep_one("size=4G,erasesize=4M,geometry=hidden", 1, false, 4 * MiB, 4 * KiB, &one);
	sweep_one("size=4G,erasesize=4M,geometry=hidden", 64, false, 4 * MiB, 4 * KiB, &many);
	CHECK_NEAR(rate_at(&many, 4 * KiB), rate_at(&one, 4 * KiB), rate_at(&one, 4 * KiB) * 0.01);
	sweep_one("size=4G,erasesize=4M,geometry=hidden", 64, true, 4 * MiB, 4 * KiB, &many);
	CHECK_NEAR(rate_at(&many, 4 * KiB), rate_at(&one, 4 * KiB), rate_at(&one, 4 * KiB) * 0.01);
	/* the page is hidden too: a write of 2 KiB costs no 16 KiB program */
	sweep_one("size=4G,erasesize=4M,geometry=hidden", 1, false, 4 * MiB, 2 * KiB, &one);
	CHECK_GT(rate_at(&one, 2 * KiB), 0.6 * rate_at(&one, 4 * KiB));
}

/* The keys' values are checked; the same spec gives the same times. */
static void test_today_parameters(void)
{
	struct sim *a, *b;
	expect_error("slc-cache=5G", "slc-cache=5GiB: larger than the card");
	expect_error("slc-cache=1000", "slc-cache=1000");
	expect_error("slc-fold=fast", "slc-fold=fast");
	expect_error("native=0", "native=0");
	expect_error("native=101", "native=101");
	expect_error("buffer=2G", "buffer=2GiB: at most 1GiB");
	expect_error("idle-gc=-1", "idle-gc=-1");
	expect_error("geometry=round", "geometry=round");
	a = make("a2-64g,noise=5,buffer=1M,seed=4");
	b = make("a2-64g,noise=5,buffer=1M,seed=4");
	if (!a || !b)
		return;
	CHECK_EQ(sim_config(a)->today.slc_cache, 1 * GiB);
	CHECK_EQ(sim_config(a)->today.native_pct, 45);
	bool same = true;
	for (int i = 0; i < 3000; i++) {
		int64_t ta, tb;
		uint64_t off = (uint64_t)(i % 400) * 4 * MiB;
		sim_write(a, off, 1 * MiB, &ta);
		sim_write(b, off, 1 * MiB, &tb);
		if (i % 500 == 0) {
			sim_idle(a, 300 * 1000000ll);
			sim_idle(b, 300 * 1000000ll);
		}
		same = same && ta == tb;
	}
	CHECK(same && sim_now(a) == sim_now(b));
	sim_destroy(a);
	sim_destroy(b);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_parameters();
	test_io_checks();
	test_record();
	test_determinism_and_noise();
	test_read_costs();
	test_real_phenomena();
	test_discard();
	test_big_card_is_cheap();
	test_sequential_rewrite_is_cheap();
	test_writes_below_page_size_lose_throughput();
	test_align_matrix();
	test_open_au_matrix();
	test_find_fat_matrix();
	test_slc_cache();
	test_ram_buffer();
	test_idle_gc();
	test_hidden_geometry();
	test_today_parameters();
	return unit_summary();
}
