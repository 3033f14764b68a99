/*
 * Unit tests for the --analyze parser (analyze/post.c) and the inference
 * (analyze/analyze.c): field formats, damaged posts, hand-built results with and
 * without noise, and the seed posts with the experts' conclusions.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/post.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

/* ---------- fields ---------- */

static void test_fields(void)
{
	int64_t ns = 0;
	CHECK(post_parse_time("872\xc2\xb5s", &ns) == 0 && ns == 872000);
	CHECK(post_parse_time("1.03ms", &ns) == 0 && ns == 1030000);
	CHECK(post_parse_time("-9139ns", &ns) == 0 && ns == -9139);
	CHECK(post_parse_time("1e+03\xc2\xb5", &ns) == 0 && ns == 1000000);	/* the original's cut field */
	CHECK(post_parse_time("-11000n", &ns) == 0 && ns == -11000);
	CHECK(post_parse_time("-299990", &ns) == 0 && ns == -299990);
	CHECK(post_parse_time("48.5us", &ns) == 0 && ns == 48500);
	CHECK(post_parse_time("12.3s", &ns) == 0 && ns == 12300000000);
	CHECK(post_parse_time("\xc2\xb5s", &ns) == -1);
	CHECK(post_parse_time("308\xce\xbcs", &ns) == 0 && ns == 308000);	/* Greek mu */
	CHECK(post_parse_time("308\xc3\x8e\xc2\xbcs", &ns) == 0 && ns == 308000);
	CHECK(post_parse_time("308\xef\xbf\xbds", &ns) == 0 && ns == 308000);	/* U+FFFD */
	CHECK(post_parse_time("308?s", &ns) == 0 && ns == 308000);
	CHECK(post_parse_time("nan", &ns) == -1);
	CHECK(post_parse_time("5parsecs", &ns) == -1);

	double r = 0;
	CHECK(post_parse_rate("13.2M/s", &r) == 0 && fabs(r - 13.2e6) < 1);
	CHECK(post_parse_rate("6.05K/s", &r) == 0 && fabs(r - 6050) < 1e-6);
	CHECK(post_parse_rate("2.689G/", &r) == 0 && fabs(r - 2.689e9) < 1);
	CHECK(post_parse_rate("-1M/s", &r) == -1);
	CHECK(post_parse_rate("M/s", &r) == -1);
	CHECK(post_parse_rate("13.2MB/s", &r) == -1);

	uint64_t b = 0;
	CHECK(post_parse_size("1.5KiB", &b) == 0 && b == 1536);
	CHECK(post_parse_size("4MiB", &b) == 0 && b == 4 * MiB);
	CHECK(post_parse_size("512B", &b) == 0 && b == 512);
	CHECK(post_parse_size("4MB", &b) == -1);
	CHECK(post_parse_size("0B", &b) == -1);

	CHECK(post_eval_size("$[4*1024*1024]", &b) == 0 && b == 4 * MiB);
	CHECK(post_eval_size("$[64 * 1024 * 576]", &b) == 0 && b == 36 * MiB);
	CHECK(post_eval_size("$[3 * 512 * 1024]", &b) == 0 && b == 1536 * KiB);
	CHECK(post_eval_size("16777216", &b) == 0 && b == 16 * MiB);
	CHECK(post_eval_size("4k", &b) == 0 && b == 4096);
	CHECK(post_eval_size("1.5M", &b) == 0 && b == 1536 * KiB);
	CHECK(post_eval_size("$[8 1024]", &b) == -1);
	CHECK(post_eval_size("$[4*1024", &b) == -1);
	CHECK(post_eval_size("$[1/0]", &b) == -1);
	CHECK(post_eval_size("((((((((((((((((((1))))))))))))))))))", &b) == -1);
}

/* ---------- the parser on damaged posts ---------- */

static int parse(const char *text, struct post *p)
{
	return post_parse(text, strlen(text), p);
}

static void test_parse_commands(void)
{
	struct post p;
	/* line breaks lost, prompt before, comment after, $[..] split by spaces */
	CHECK(parse("andrew@bigbox:~/flashbench$ sudo ./flashbench /dev/sdc --open-au "
		    "--erasesize=$[4 * 1024 * 1024] --blocksize=$[4*1024] --open-au-nr=3 --random "
		    "4MiB 3.45M/s 2MiB 3.22M/s 1MiB 2.87M/s 512KiB 1.15M/s ## Generally horrible", &p) == 0);
	CHECK(p.nruns == 1 && p.nsections == 1);
	if (p.nruns == 1) {
		const struct post_run *r = &p.runs[0];
		CHECK_EQ(r->kind, POST_OPEN_AU);
		CHECK(r->rates.nr == 3 && r->nr_stated);
		CHECK(r->rates.random);
		CHECK_EQ(r->rates.nrows, 4);
		CHECK_EQ(r->rates.erasesize, 4 * MiB);
		CHECK_EQ(r->rates.blocksize, 4 * KiB);
		CHECK(r->rates.st.partial);	/* ended at 512KiB, not at the 4KiB block size */
		CHECK_LT(fabs(r->rates.rows[3].rate[0] - 1.15e6), 1);
		CHECK(strstr(r->command, "--open-au-nr=3") != NULL);
	}
	post_free(&p);

	/* the original's default N, "-- open-au-nr" split, options glued, ^C */
	CHECK(parse("$ sudo ./flashbench --open-au /dev/sde --erasesize=16777216 --blocksize=8192 -- "
		    "open-au-nr=12 16MiB 56.8M/s 8MiB 28.4M/s 4MiB 9.88M/s ^Carnd@wuerfel:~$ "
		    "sudo ./flashbench -O /dev/sde 4MiB 5M/s 2MiB 5M/s "
		    "./flashbench --open-au --erasesize=1677721--blocksize=8192 --random 16MiB 41M/s 8MiB 26.5M/s",
		    &p) == 0);
	CHECK_EQ(p.nruns, 3);
	if (p.nruns == 3) {
		CHECK_EQ(p.runs[0].rates.nr, 12);
		CHECK(p.runs[0].rates.st.interrupted);
		CHECK_EQ(p.runs[1].rates.nr, 2);
		CHECK(!p.runs[1].rates.random);
		CHECK_EQ(p.runs[2].rates.erasesize, 16 * MiB);	/* from the data, not the typo */
		CHECK(p.runs[2].rates.random);
		CHECK_EQ(p.runs[2].rates.blocksize, 8192);
	}
	post_free(&p);

	/* saved output with no command: N unknown; two runs told apart by size going up */
	CHECK(parse("4MiB    3.57M/s \n2MiB    4.76M/s \n1MiB    4.75M/s \n"
		    "4MiB    4.72M/s \n2MiB    2.81M/s \n", &p) == 0);
	CHECK_EQ(p.nruns, 2);
	if (p.nruns == 2) {
		CHECK(p.runs[0].rates.nr == 0 && !p.runs[0].nr_stated);
		CHECK_EQ(p.runs[1].rates.nrows, 2);
	}
	post_free(&p);

	/* an I/O error between rows marks the next row failed; a pasted-twice row is dropped */
	CHECK(parse("flashbench -O --open-au-nr=2 -e 2M /dev/sdc 2MiB 5.44M/s 1MiB 4.26M/s 512KiB 1.72M/s "
		    "time_write: Input/output error 256KiB 96.7K/s 256KiB 90K/s 128KiB 48K/s", &p) == 0);
	CHECK_EQ(p.nruns, 1);
	if (p.nruns == 1) {
		const struct rate_result *r = &p.runs[0].rates;
		CHECK_EQ(r->nrows, 5);
		CHECK(r->st.nfailures == 1 && r->st.partial);
		CHECK(r->nrows == 5 && r->rows[3].failed[0] && !r->rows[4].failed[0]);
	}
	post_free(&p);
}

/* "- " markers, "> " quotes, a µ lost to encoding */
static void test_parse_pasted(void)
{
	struct post p;
	CHECK(parse("> - align 4194304 pre 1ms on 1.3ms post 1ms diff 300\xc2\xb5s\n"
		    ">> - align 2097152 pre 1ms on 1.06ms post 1ms diff 60\xc2\xb5s\n"
		    "- align 1048576 pre 1ms on 1.06ms post 1ms diff 308s\n", &p) == 0);
	CHECK(p.nruns == 1);
	if (p.nruns == 1) {
		const struct align_result *a = &p.runs[0].align;
		CHECK(a->nrows == 3);
		CHECK(a->nrows == 3 && a->rows[2].diff_ns == 308000);
		CHECK(p.repaired_times == 1);
	}
	post_free(&p);
}

static void test_parse_align_and_sections(void)
{
	struct post p;
	const char *a = "flashbench -a /dev/sdc --blocksize=1024 "
			"align 4194304\tpre 1.93ms\ton 3.09ms\tpost 2.07ms\tdiff 1.09ms "
			"align 2097152 pre 2.06ms on 2.08ms post 2.05ms diff 25.4\xc2\xb5s "
			"align 1048576 pre 2.08ms on 2.11ms post 2.08ms diff 32.4\xc2\xb5s ";
	char text[4096];
	/* a card, its runs, the same -a quoted again, then a second card's sysfs and -a */
	snprintf(text, sizeof(text),
		 "==> /sys/block/mmcblk0/device/name <== SA04G ==> "
		 "/sys/block/mmcblk0/device/preferred_erase_size <== 4194304 %s "
		 "flashbench -O 4MiB 4M/s 2MiB 4M/s %s MMC_NAME=OTHER "
		 "flashbench -a align 2097152 pre 1ms on 1.2ms post 1ms diff 200\xc2\xb5s "
		 "align 1048576 pre 1ms on 1ms post 1ms diff 1\xc2\xb5s", a, a);
	CHECK_EQ(parse(text, &p), 0);
	CHECK_EQ(p.nsections, 2);
	CHECK_EQ(p.nruns, 3);
	if (p.nsections == 2 && p.nruns == 3) {
		CHECK_STR(p.sections[0].name, "SA04G");
		CHECK_EQ(p.sections[0].preferred_erase_size, 4 * MiB);
		CHECK_STR(p.sections[1].name, "OTHER");
		CHECK(p.runs[0].kind == POST_ALIGN && p.runs[0].align.nrows == 3);
		CHECK_EQ(p.runs[0].align.rows[0].diff_ns, 1090000);
		CHECK_EQ(p.runs[0].align.blocksize, 1024);
		CHECK_EQ(p.runs[2].section, 1);
	}
	post_free(&p);

	/* diff computed when only pre/on/post survived */
	CHECK(parse("align 8192 pre 10us on 16us post 12us", &p) == 0);
	CHECK(p.nruns == 1 && p.runs[0].align.rows[0].diff_ns == 5000);
	post_free(&p);

	/* nothing recognisable */
	CHECK(parse("hello world -- 4MiB of \xff\xfe junk $[ ^C", &p) == 0);
	CHECK(p.nruns == 0 && p.nsections == 0);
	post_free(&p);
	CHECK(post_parse("", 0, &p) == 0 && p.nruns == 0);
	post_free(&p);
}

/* ---------- synthetic -a tables ---------- */

static uint64_t rng_state = 1;

/* uniform in [-1, 1) */
static double jitter(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(rng_state >> 11) / (double)(1ull << 53) * 2 - 1;
}

/*
 * A card read the way measure_align samples it: boundary places a + k*step
 * with step = a * floor(top / a); crossing a page costs page_ns, an erase
 * block eb_ns more. noise: +-fraction on each row's diff.
 */
static void make_align(struct align_result *r, uint64_t size, uint64_t eb, uint64_t page,
		       uint64_t bs, double noise)
{
	static struct align_row rows[128];
	uint64_t top = 1;
	while (top * 4 <= size)
		top *= 2;
	memset(r, 0, sizeof(*r));
	r->rows = rows;
	r->blocksize = bs;
	for (uint64_t a = top; a >= 2 * bs; a /= 2) {
		uint64_t both[2] = { a, a / 4 * 3 };
		for (int j = 0; j < 2; j++) {
			uint64_t x = both[j];
			if (x < 2 * bs || r->nrows >= 128)
				continue;
			uint64_t step = x * (top / x > 1 ? top / x : 1);
			int n = 0, on_eb = 0, on_page = 0;
			for (uint64_t pos = x; n < 7 && pos + bs <= size; pos += step, n++) {
				on_eb += pos % eb == 0;
				on_page += pos % page == 0;
			}
			double d = (60000.0 * on_page + 250000.0 * on_eb) / n;
			d += noise * 250000.0 * jitter();
			struct align_row *row = &rows[r->nrows++];
			row->align = x;
			row->positions = n;
			row->failed = false;
			row->pre_ns = 1000000;
			row->post_ns = 1000000;
			row->diff_ns = (int64_t)d;
			row->on_ns = 1000000 + row->diff_ns;
		}
	}
}

static void test_align_clean(void)
{
	struct align_result r;
	struct size_estimate e, p;
	static const uint64_t sizes[] = { 512 * KiB, 1 * MiB, 1536 * KiB, 2 * MiB, 3 * MiB, 4 * MiB,
					  6 * MiB, 8 * MiB, 12 * MiB, 16 * MiB };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* a real card's size: boundaries sampled at four places */
		make_align(&r, 7 * GiB + 512 * MiB, sizes[i], 16 * KiB, 4 * KiB, 0);
		analyze_align(&r, &e, &p);
		CHECK_EQ(e.bytes, sizes[i]);
		CHECK_EQ(e.conf, CONF_HIGH);
		if (e.conf != CONF_HIGH)
			printf("  erase %llu: %s: %s\n", (unsigned long long)sizes[i], results_confidence_name(e.conf), e.evidence);
		CHECK_EQ(p.bytes, 16 * KiB);
		if (e.bytes != sizes[i])
			printf("  erase %llu: got %llu (%s)\n", (unsigned long long)sizes[i],
			       (unsigned long long)e.bytes, e.evidence);
	}
	/*
	 * A power-of-two size leaves two places per boundary: a 3*2^n step
	 * then rests on one row that, were it not a real boundary, would still
	 * hit one at one place of two. Right, but not sure.
	 */
	make_align(&r, 8 * GiB, 12 * MiB, 16 * KiB, 4 * KiB, 0);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 12 * MiB && e.conf == CONF_LOW);
	make_align(&r, 8 * GiB, 8 * MiB, 16 * KiB, 4 * KiB, 0);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 8 * MiB && e.conf == CONF_HIGH);
	/* a flat table: no step, no verdict */
	make_align(&r, 8 * GiB, 1, 1, 4 * KiB, 0);
	for (int i = 0; i < r.nrows; i++)
		r.rows[i].diff_ns = 50000 + (i % 3) * 1000;
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 && e.conf == CONF_NONE);
	CHECK(strstr(e.evidence, "no step") != NULL);
	/* too few rows */
	r.nrows = 2;
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 && e.conf == CONF_NONE);
}

/*
 * A card read at the original's places: row a at k * top + a, k = 0..6,
 * top the smallest power of two >= size / 7, wrapping modulo the size
 * (measure/measure.c align_places). A 3*2^n erase size leaves every row from E/3
 * up a partial diff.
 */
static void make_align_original(struct align_result *r, uint64_t size, uint64_t eb, uint64_t page,
				uint64_t bs, double noise)
{
	static struct align_row rows[128];
	uint64_t top = 1;
	while (top < (size + 6) / 7)
		top *= 2;
	memset(r, 0, sizeof(*r));
	r->rows = rows;
	r->blocksize = bs;
	for (uint64_t a = top; a >= 2 * bs; a /= 2) {
		uint64_t both[2] = { a, a / 4 * 3 };
		for (int j = 0; j < 2 && r->nrows < 128; j++) {
			uint64_t x = both[j];
			int on_eb = 0, on_page = 0;
			for (uint64_t k = 0; k < 7; k++) {
				uint64_t pos = (k * top + x) % size;
				on_eb += pos % eb == 0;
				on_page += pos % page == 0;
			}
			double d = (60000.0 * on_page + 250000.0 * on_eb) / 7;
			d += noise * 250000.0 * jitter();
			struct align_row *row = &rows[r->nrows++];
			*row = (struct align_row){ .align = x, .positions = 7, .pre_ns = 1000000,
						   .post_ns = 1000000, .diff_ns = (int64_t)d };
			row->on_ns = 1000000 + row->diff_ns;
		}
	}
}

/*
 * The original's places on 2^n and 3*2^n cards of real (odd) and round
 * sizes: the erase size up to 3% noise (a partial power-of-two level is
 * never the answer); with 6% noise right or low confidence.
 */
static void test_align_original_places(void)
{
	struct align_result r;
	struct size_estimate e, p;
	static const uint64_t sizes[] = { 64 * GiB, 7 * GiB, 30 * GiB, 15 * GiB + 512 * MiB,
					  4 * GiB, 3900 * MiB, 7600 * MiB, 60900 * MiB };
	static const uint64_t ebs[] = { 512 * KiB, 1536 * KiB, 2 * MiB, 3 * MiB, 4 * MiB, 6 * MiB,
					8 * MiB, 12 * MiB, 16 * MiB, 24 * MiB, 32 * MiB };
	static const double noise[] = { 0, 0.03, 0.06 };
	for (size_t k = 0; k < 3; k++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (size_t j = 0; j < sizeof(ebs) / sizeof(ebs[0]); j++) {
				make_align_original(&r, sizes[i], ebs[j], 16 * KiB, 4 * KiB, noise[k]);
				analyze_align(&r, &e, &p);
				bool ok = e.bytes == ebs[j] || (noise[k] > 0.03 && e.conf <= CONF_LOW);
				CHECK(ok);
				if (!ok)
					printf("  size %llu erase %llu noise %.2f: got %llu %s (%s)\n",
					       (unsigned long long)sizes[i], (unsigned long long)ebs[j],
					       noise[k], (unsigned long long)e.bytes,
					       results_confidence_name(e.conf), e.evidence);
			}
}

/* A clean step that costs under 2% of a read is noise (a loop device, a RAM disk). */
static void test_align_tiny_step_is_no_erase_size(void)
{
	struct align_result r;
	struct size_estimate e, p;

	make_align(&r, 7 * GiB + 512 * MiB, 4 * MiB, 16 * KiB, 4 * KiB, 0);
	for (int i = 0; i < r.nrows; i++) {
		r.rows[i].pre_ns = r.rows[i].post_ns = 20000000;	/* reads of 20ms: 250µs is 1.25% */
		r.rows[i].on_ns = r.rows[i].pre_ns + r.rows[i].diff_ns;
	}
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 && e.conf == CONF_NONE);
	CHECK(strstr(e.evidence, "no erase-block pattern") != NULL);
	/* the same step against 1ms reads is an erase size */
	make_align(&r, 7 * GiB + 512 * MiB, 4 * MiB, 16 * KiB, 4 * KiB, 0);
	analyze_align(&r, &e, &p);
	CHECK_EQ(e.bytes, 4 * MiB);
}

/* A table of power-of-two rows from top down to 2K: diff = the level of the largest step dividing a. */
struct level { uint64_t at; double us; };

static void make_levels(struct align_result *r, uint64_t top, const struct level *lv, int nlv,
			double noise)
{
	static struct align_row rows[64];
	memset(r, 0, sizeof(*r));
	r->rows = rows;
	r->blocksize = 1024;
	for (uint64_t a = top; a >= 2048 && r->nrows < 64; a /= 2) {
		double us = 0;
		for (int i = 0; i < nlv; i++)
			if (a % lv[i].at == 0 && lv[i].us > us)
				us = lv[i].us;
		struct align_row *row = &rows[r->nrows++];
		row->align = a;
		row->positions = 7;
		row->pre_ns = row->post_ns = 1000000;
		row->diff_ns = (int64_t)(us * 1000 * (1 + noise * jitter()));
		row->on_ns = 1000000 + row->diff_ns;
	}
}

/*
 * Issue 11's real table: <=2K 3us, 4K 40us, 8K..1M 120us, >=2M 250us is a
 * 2 MiB erase block, 4 KiB pages read in pairs; a rise at 2 GiB on a large
 * card is an allocation group, not the erase size; a lone step at 16K
 * (Samsung 16GB in real-cards.tsv) is a page, no erase size.
 */
static void test_align_levels(void)
{
	static const struct level issue[] = { { 2048, 3 }, { 4096, 40 }, { 8192, 120 },
					      { 2 * MiB, 250 }, { 2 * GiB, 400 } };
	static const uint64_t tops[] = { 64 * MiB, 128 * MiB, 512 * MiB, 4 * GiB, 8 * GiB };
	struct align_result r;
	struct size_estimate e, p;
	rng_state = 7;
	for (size_t i = 0; i < sizeof(tops) / sizeof(tops[0]); i++)
		for (int round = 0; round < 4; round++) {
			make_levels(&r, tops[i], issue, 5, round ? 0.05 : 0);
			analyze_align(&r, &e, &p);
			CHECK(e.bytes == 2 * MiB && e.conf >= CONF_MEDIUM);
			CHECK(p.bytes == 4 * KiB && p.multiplane == 8 * KiB);
			CHECK(e.group == (tops[i] >= 4 * GiB ? 2 * GiB : 0));
			if (e.bytes != 2 * MiB || p.bytes != 4 * KiB || p.multiplane != 8 * KiB)
				printf("  levels on %llu: erase %llu page %llu/%llu: %s | %s\n",
				       (unsigned long long)tops[i], (unsigned long long)e.bytes,
				       (unsigned long long)p.bytes, (unsigned long long)p.multiplane,
				       e.evidence, p.evidence);
		}
	/* the README's card: 5us below 8K, 53us at 8K, ~150us to 2M, ~310us from 4M */
	static const struct level readme[] = { { 2048, 5 }, { 8192, 53 }, { 16384, 150 },
					       { 4 * MiB, 310 } };
	make_levels(&r, 1 * GiB, readme, 4, 0.03);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 4 * MiB && p.bytes == 8 * KiB && p.multiplane == 16 * KiB);
	static const struct level samsung[] = { { 2048, 5 }, { 16384, 166 } };
	make_levels(&r, 2 * GiB, samsung, 2, 0.03);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 && p.bytes == 16 * KiB);
	CHECK(strstr(e.evidence, "no step between 128KiB and 64MiB") != NULL);
}

/*
 * Tables described in real-cards.tsv (not in the seeds), rebuilt from the
 * levels given there: the experts' reading, or no confident other answer.
 */
static void test_align_real_cards(void)
{
	struct align_result r;
	struct size_estimate e, p;
	rng_state = 11;
	/* NCard 8GB: ~300us from 4MiB vs ~275us below, 210us at 8KiB vs 19us: page 8K, erase unclear */
	static const struct level ncard[] = { { 2048, 19 }, { 8192, 275 }, { 4 * MiB, 300 } };
	make_levels(&r, 1 * GiB, ncard, 3, 0.03);
	analyze_align(&r, &e, &p);
	CHECK(p.bytes == 8 * KiB);
	CHECK(e.bytes == 0 || (e.bytes == 4 * MiB && e.conf <= CONF_LOW));
	/* SanDisk SL08G: 60..114us from 4MiB, 3..7us below, no page step */
	static const struct level sl08g[] = { { 2048, 5 }, { 4 * MiB, 90 } };
	make_levels(&r, 1 * GiB, sl08g, 2, 0.15);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 4 * MiB && e.conf >= CONF_MEDIUM);
	CHECK(p.bytes == 0);
	/* 'USD' 8GB: weak 4MiB (~150 vs ~105us), 16KiB page (~103 vs ~58us at 8KiB) */
	static const struct level usd[] = { { 2048, 58 }, { 16384, 105 }, { 4 * MiB, 150 } };
	make_levels(&r, 1 * GiB, usd, 3, 0.03);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 || (e.bytes == 4 * MiB && e.conf <= CONF_MEDIUM));
	CHECK(p.bytes == 16 * KiB);
	/* NCard 4GB: flat ~150us down to 8KiB, 32us at 4KiB: page 8KiB, no erase size */
	static const struct level ncard4[] = { { 2048, 32 }, { 8192, 150 } };
	make_levels(&r, 512 * MiB, ncard4, 2, 0.05);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 && p.bytes == 8 * KiB);
}

/* Issue 9 item 8: failed rows lower every verdict on them; too few good rows: unknown. */
static void test_align_failed_rows(void)
{
	struct align_result r;
	struct size_estimate e, p;
	make_align(&r, 8 * GiB, 4 * MiB, 16 * KiB, 1 * KiB, 0);
	for (int i = 0; i < r.nrows; i++)
		r.rows[i].failed = r.rows[i].align <= 1 * MiB && !(r.rows[i].align & (r.rows[i].align - 1));
	analyze_align(&r, &e, &p);
	CHECK(e.conf <= CONF_MEDIUM);
	CHECK(p.bytes == 0 && p.conf == CONF_NONE);
	CHECK(strstr(p.evidence, "too few good rows") != NULL);
	/* one failed row far from the step: right, but no longer high */
	make_align(&r, 8 * GiB, 4 * MiB, 16 * KiB, 4 * KiB, 0);
	for (int i = 0; i < r.nrows; i++)
		r.rows[i].failed = i == 0;
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 4 * MiB && e.conf == CONF_MEDIUM);
	CHECK(strstr(e.evidence, "rows failed") != NULL);
	/* most rows failed: unknown */
	for (int i = 0; i < r.nrows - 4; i++)
		r.rows[i].failed = true;
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 && e.conf == CONF_NONE && p.conf == CONF_NONE);
}

/* sysfs preferred_erase_size and the runs' --erasesize as second witnesses */
static void test_cross_check(void)
{
	struct size_estimate e = { .bytes = 2 * MiB, .conf = CONF_HIGH };
	analyze_cross_check_erase(&e, 2 * MiB, "sysfs preferred_erase_size");
	CHECK(e.conf == CONF_HIGH && strstr(e.evidence, "agrees") != NULL);
	analyze_cross_check_erase(&e, 4 * MiB, "sysfs preferred_erase_size");
	CHECK(e.conf == CONF_HIGH && strstr(e.evidence, "2 erase blocks") != NULL);
	analyze_cross_check_erase(&e, 3 * MiB, "sysfs preferred_erase_size");
	CHECK(e.bytes == 2 * MiB && e.conf == CONF_MEDIUM && strstr(e.evidence, "disagree") != NULL);
	struct size_estimate none = { 0 };
	analyze_cross_check_erase(&none, 4 * MiB, "the --open-au runs' --erasesize");
	CHECK(none.bytes == 4 * MiB && none.conf == CONF_LOW);
	struct size_estimate keep = { 0 };
	analyze_cross_check_erase(&keep, 5 * MiB, "sysfs preferred_erase_size");	/* not an erase size */
	CHECK(keep.bytes == 0);
}

/* Noise up to +-10% of the erase-block step: right, or not confident. */
static void test_align_noise(void)
{
	static const uint64_t sizes[] = { 512 * KiB, 1536 * KiB, 2 * MiB, 3 * MiB, 4 * MiB,
					  6 * MiB, 8 * MiB, 12 * MiB, 16 * MiB };
	int exact = 0, confident_wrong = 0, total = 0;
	rng_state = 42;
	for (int round = 0; round < 20; round++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct align_result r;
			struct size_estimate e, p;
			uint64_t size = round % 2 ? 4 * GiB : 29 * GiB + 256 * MiB;
			make_align(&r, size, sizes[i], 8 * KiB, 4 * KiB, 0.10);
			analyze_align(&r, &e, &p);
			total++;
			exact += e.bytes == sizes[i];
			confident_wrong += e.bytes != sizes[i] && e.conf >= CONF_MEDIUM;
			if (e.bytes != sizes[i] && e.conf >= CONF_MEDIUM)
				printf("  %llu on %llu: got %llu %s: %s\n", (unsigned long long)sizes[i],
				       (unsigned long long)size, (unsigned long long)e.bytes,
				       results_confidence_name(e.conf), e.evidence);
		}
	CHECK_GE(exact, total * 95 / 100);
	CHECK_EQ(confident_wrong, 0);
	if (exact < total * 95 / 100 || confident_wrong)
		printf("  noisy -a: %d/%d exact, %d confident wrong\n", exact, total, confident_wrong);
}

/* ---------- synthetic --open-au runs ---------- */

static struct rate_row run_rows[8][32];

/*
 * A run from erase size e down to bs: healthy at `rate`, writes below the
 * page cost a page; collapsed: every write costs gc seconds on top.
 */
static void make_run(struct rate_result *r, int slot, uint64_t e, uint64_t bs, uint64_t page,
		     double rate, double gc, double noise)
{
	memset(r, 0, sizeof(*r));
	r->rows = run_rows[slot];
	r->erasesize = e;
	r->blocksize = bs;
	for (uint64_t b = e; b >= bs && r->nrows < 32; b /= 2) {
		struct rate_row *row = &r->rows[r->nrows++];
		memset(row, 0, sizeof(*row));
		double t = 0.0003 + (double)(b < page ? page : b) / rate;
		if (b < e)
			t += gc;
		row->blocksize = b;
		row->ncols = 1;
		row->rate[0] = (double)b / t * (1 + noise * jitter());
	}
}

static void test_open_au_runs(void)
{
	struct rate_result r;
	rng_state = 7;
	make_run(&r, 0, 4 * MiB, 4 * KiB, 16 * KiB, 12e6, 0, 0);
	CHECK_EQ(analyze_open_au_run(&r, 16 * KiB), RUN_HOLDS);
	CHECK_EQ(analyze_open_au_run(&r, 0), RUN_HOLDS);	/* sub-page halving is no collapse */
	make_run(&r, 0, 4 * MiB, 4 * KiB, 16 * KiB, 12e6, 0.3, 0);
	CHECK_EQ(analyze_open_au_run(&r, 16 * KiB), RUN_COLLAPSED);
	/* cheaper garbage collection (random mode): still a collapse */
	make_run(&r, 0, 4 * MiB, 4 * KiB, 16 * KiB, 12e6, 0.03, 0);
	CHECK_EQ(analyze_open_au_run(&r, 16 * KiB), RUN_COLLAPSED);
	/* noise never turns a healthy run into a collapse, nor hides a collapse */
	int wrong = 0;
	for (int i = 0; i < 200; i++) {
		make_run(&r, 0, 2 * MiB, 4 * KiB, 8 * KiB, 10e6, 0, 0.10);
		wrong += analyze_open_au_run(&r, 8 * KiB) != RUN_HOLDS;
		make_run(&r, 0, 2 * MiB, 4 * KiB, 8 * KiB, 10e6, 0.2, 0.10);
		wrong += analyze_open_au_run(&r, 8 * KiB) != RUN_COLLAPSED;
	}
	CHECK_EQ(wrong, 0);
	/* the first rows of a collapse are enough (--auto stops there) */
	make_run(&r, 0, 4 * MiB, 512 * KiB, 16 * KiB, 12e6, 0.3, 0);
	CHECK_EQ(analyze_open_au_run(&r, 16 * KiB), RUN_COLLAPSED);
	/* cut short before small sizes and fine so far: not known yet */
	make_run(&r, 0, 4 * MiB, 1 * MiB, 16 * KiB, 12e6, 0, 0);
	r.blocksize = 4 * KiB;
	r.st.partial = r.st.interrupted = true;
	CHECK_EQ(analyze_open_au_run(&r, 16 * KiB), RUN_UNCLEAR);
}

/*
 * --auto's runs on small erase blocks have one row (issue 26): one shows
 * no collapse of its own and holds; N=4 at a seventh of N=3's rate there
 * is a collapse against the N before it.
 */
static void test_open_au_one_row_runs(void)
{
	struct rate_result runs[4];
	const struct rate_result *rp[4];
	long long nrs[4];
	struct count_estimate est;
	for (int i = 0; i < 4; i++) {
		memset(&runs[i], 0, sizeof(runs[i]));
		runs[i].rows = run_rows[i];
		runs[i].erasesize = 512 * KiB;
		runs[i].blocksize = 32 * KiB;
		runs[i].nrows = 1;
		run_rows[i][0] = (struct rate_row){ .blocksize = 32 * KiB, .ncols = 1,
						    .rate = { i == 3 ? 2.4e6 : 17e6 } };
		rp[i] = &runs[i];
		nrs[i] = i + 1;
	}
	CHECK_EQ(analyze_open_au_run(rp[0], 16 * KiB), RUN_HOLDS);
	analyze_open_au_series(rp, nrs, 4, 16 * KiB, &est);
	CHECK(est.n == 3 && !est.at_least);
	/*
	 * The original's -O with --blocksize=--erasesize: one whole-block row a
	 * run. N=3 alone has nothing to compare against: unknown, no count;
	 * N=5 at a quarter of N=1's row collapsed, N=3 at 0.98 held.
	 */
	const double whole[3] = { 20e6, 19.6e6, 5.1e6 };
	for (int i = 0; i < 3; i++) {
		runs[i].erasesize = runs[i].blocksize = 4 * MiB;
		run_rows[i][0] = (struct rate_row){ .blocksize = 4 * MiB, .ncols = 1,
						    .rate = { whole[i] } };
		nrs[i] = 2 * i + 1;
	}
	analyze_open_au_series(&rp[1], &nrs[1], 1, 16 * KiB, &est);
	CHECK(est.conf == CONF_NONE && strstr(est.evidence, "unknown at N=3 (one row") != NULL);
	analyze_open_au_series(rp, nrs, 3, 16 * KiB, &est);
	CHECK(est.n == 3 && !est.at_least && est.conf == CONF_LOW);
	CHECK(strstr(est.evidence, "holds at N=1,3; collapses at N=5") != NULL);
}

static void test_open_au_series(void)
{
	struct rate_result runs[6];
	const struct rate_result *rp[6];
	long long nrs[6];
	struct count_estimate est;
	rng_state = 3;
	for (int i = 0; i < 5; i++) {	/* N = 1..5, limit 3 */
		make_run(&runs[i], i, 4 * MiB, 4 * KiB, 16 * KiB, 12e6, i + 1 > 3 ? 0.3 : 0, 0.05);
		rp[i] = &runs[i];
		nrs[i] = i + 1;
	}
	analyze_open_au_series(rp, nrs, 5, 16 * KiB, &est);
	CHECK(est.n == 3 && !est.at_least && est.conf == CONF_HIGH);
	CHECK(strstr(est.evidence, "collapses at N=4,5") != NULL);
	/* order does not matter */
	const struct rate_result *rev[5] = { rp[4], rp[3], rp[2], rp[1], rp[0] };
	long long rnrs[5] = { 5, 4, 3, 2, 1 };
	analyze_open_au_series(rev, rnrs, 5, 16 * KiB, &est);
	CHECK(est.n == 3 && est.conf == CONF_HIGH);
	/* no collapse seen */
	analyze_open_au_series(rp, nrs, 3, 16 * KiB, &est);
	CHECK(est.n == 3 && est.at_least);
	/* linear collapse at N=1: not physical, never a confident 0 (doc/card-facts.md, Writes) */
	analyze_open_au_series(&rp[3], nrs, 1, 16 * KiB, &est);
	CHECK(est.n == 0 && !est.at_least && est.conf == CONF_LOW);
	CHECK(strstr(est.evidence, "twice the --erasesize") != NULL);
	/* random mode: none can be open that way */
	struct rate_result rnd1 = *rp[3];
	rnd1.random = true;
	const struct rate_result *rr[1] = { &rnd1 };
	analyze_open_au_series(rr, nrs, 1, 16 * KiB, &est);
	CHECK(est.n == 0 && !est.at_least && est.conf == CONF_HIGH);
	/* held at 1, collapsed at 5, nothing in between: the count is not known */
	const struct rate_result *gap[2] = { rp[0], rp[4] };
	long long gnrs[2] = { 1, 5 };
	analyze_open_au_series(gap, gnrs, 2, 16 * KiB, &est);
	CHECK(est.n == 1 && est.conf == CONF_LOW);
	/* nothing */
	analyze_open_au_series(rp, nrs, 0, 0, &est);
	CHECK_EQ(est.conf, CONF_NONE);
	/*
	 * Cheap garbage collection (10 ms a write, 3% of an erase-block
	 * rewrite): no run looks collapsed alone, but N=3 is several times
	 * slower for small writes than N=2 and halves per halving.
	 */
	for (int i = 0; i < 3; i++)
		make_run(&runs[i], i, 4 * MiB, 4 * KiB, 16 * KiB, 12e6, i == 2 ? 0.01 : 0, 0);
	CHECK_EQ(analyze_open_au_run(&runs[2], 16 * KiB), RUN_HOLDS);
	analyze_open_au_series(rp, nrs, 3, 16 * KiB, &est);
	CHECK(est.n == 2 && !est.at_least);
	CHECK(strstr(est.evidence, "2x slower than at N=2") != NULL);
}

/* Two rows of six columns, the first written first, into *p. */
static void fat_two_rows(struct rate_result *p, struct rate_row *pr, uint64_t e, uint64_t b,
			 const double r0[6], const double r1[6])
{
	memset(pr, 0, 2 * sizeof(*pr));
	*p = (struct rate_result){ .rows = pr, .nrows = 2, .erasesize = e, .find_fat = true };
	for (int c = 0; c < 6; c++) {
		pr[0].rate[c] = r0[c];
		pr[1].rate[c] = r1[c];
	}
	pr[0].blocksize = b, pr[1].blocksize = b / 2;
	pr[0].ncols = pr[1].ncols = 6;
}

/*
 * The --find-fat check on cards with a RAM buffer larger than a column's
 * writes (issue 27, today's calibration): the writes complete at the pace
 * of those before them.
 */
static void test_find_fat_behind_a_buffer(void)
{
	static struct rate_row pr[2];
	struct rate_result p;
	struct fat_estimate f;
	/*
	 * A 32 MiB USB 3 stick with a 4 MiB buffer and no FAT area: the first
	 * column 1.7x the next, the row falling off; the second row's first
	 * column no faster than the first row's last. No FAT area (low).
	 */
	const double a0[6] = { 155143, 90750, 66942, 54296, 46158, 39881 };
	const double a1[6] = { 38536, 31830, 28640, 26180, 24096, 22529 };
	fat_two_rows(&p, pr, 32 * MiB, 16 * KiB, a0, a1);
	analyze_find_fat(&p, &f);
	CHECK(f.aus == 0 && f.conf == CONF_LOW && strstr(f.evidence, "RAM buffer") != NULL);
	/* the same second row above the first row's last: the place's speed, a FAT area */
	for (int c = 0; c < 6; c++)
		pr[1].rate[c] = a1[c] * (c ? 1 : 2);
	analyze_find_fat(&p, &f);
	CHECK_EQ(f.aus, 1);
	/*
	 * A card with one FAT block and a 1 MiB buffer: the first row rises from
	 * a first write that paid for work left before it; the second row's
	 * first column 2x the first row's last and 3x its next. One FAT block,
	 * shown by the second row alone: low.
	 */
	const double b0[6] = { 752542, 1462656, 1907757, 2048403, 2083048, 2091026 };
	const double b1[6] = { 4346165, 1351267, 999477, 889763, 845787, 826439 };
	fat_two_rows(&p, pr, 32 * MiB, 16 * KiB, b0, b1);
	analyze_find_fat(&p, &f);
	CHECK(f.aus == 1 && f.conf == CONF_LOW);
	/*
	 * A card without a buffer whose FAT block (1.7x) in the second row runs
	 * below the first row's last column (writes of half the size), the
	 * later columns level: still one FAT block.
	 */
	const double c0[6] = { 7574434, 3844274, 4357012, 4354608, 4358476, 3932164 };
	const double c1[6] = { 3790980, 1957893, 2182240, 2181964, 2181863, 2182489 };
	fat_two_rows(&p, pr, 8 * MiB, 32 * KiB, c0, c1);
	analyze_find_fat(&p, &f);
	CHECK(f.aus == 1 && f.conf >= CONF_MEDIUM);
	/*
	 * sim:tlc-32g (one FAT block, a 256 KiB buffer): the second row's first
	 * column no faster than the first row's last and the later columns
	 * falling off a little, but 2.2x the next: a step a buffer's pace does
	 * not make. One FAT block.
	 */
	const double d0[6] = { 4943469, 4051417, 4087568, 4087580, 4087580, 4087580 };
	const double d1[6] = { 4224540, 1961770, 1892950, 1892160, 1892151, 1892151 };
	fat_two_rows(&p, pr, 12 * MiB, 24 * KiB, d0, d1);
	analyze_find_fat(&p, &f);
	CHECK_EQ(f.aus, 1);
}

static void test_find_fat(void)
{
	static struct rate_row rows[12];
	struct rate_result r = { 0 };
	struct fat_estimate f;
	r.rows = rows;
	r.erasesize = 4 * MiB;
	for (uint64_t b = 4 * MiB; b >= 8 * KiB; b /= 2) {
		struct rate_row *row = &rows[r.nrows++];
		memset(row, 0, sizeof(*row));
		row->blocksize = b;
		row->ncols = 6;
		for (int c = 0; c < 6; c++)
			row->rate[c] = (c < 2 ? 3e6 : 1e6) * (b >= MiB ? 3 : 1) * (1 + 0.05 * jitter());
	}
	analyze_find_fat(&r, &f);
	CHECK(f.aus == 2 && f.bytes == 8 * MiB && f.conf >= CONF_MEDIUM);
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 2; c++)
			rows[i].rate[c] = rows[i].rate[3];
	analyze_find_fat(&r, &f);
	CHECK(f.aus == 0 && f.conf >= CONF_MEDIUM);
	/* a mild FAT area (1.3x for small writes, as the simulator's) is still found */
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 2; c++)
			rows[i].rate[c] = rows[i].rate[3] * 1.3;
	analyze_find_fat(&r, &f);
	CHECK(f.aus == 2 && f.conf >= CONF_LOW);
	/*
	 * Issue 27: columns 1 and 4 fast, the others 20x slower (the erase block
	 * in the card's random slot alternates): the first column beats every
	 * later one by 10% in every row (read as "20x the rest"), but column 4
	 * is nearly as fast, so the speed comes from the card's open slots: no
	 * FAT area, and the evidence says which columns were fast.
	 */
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 6; c++)
			rows[i].rate[c] = (c == 0 ? 2e6 : c == 3 ? 1.8e6 : 1e5) * (1 + 0.02 * jitter());
	analyze_find_fat(&r, &f);
	CHECK_EQ(f.aus, 0);
	CHECK(strstr(f.evidence, "columns 1 and 4 fast") != NULL);
	if (f.aus || !strstr(f.evidence, "columns 1 and 4 fast"))
		printf("got: %d, %s\n", f.aus, f.evidence);
	/* columns 1, 3 and 5 fast: the same */
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 6; c++)
			rows[i].rate[c] = (c % 2 == 0 ? 2e6 * (1 - 0.03 * c) : 1e5) * (1 + 0.02 * jitter());
	analyze_find_fat(&r, &f);
	CHECK_EQ(f.aus, 0);
	CHECK(strstr(f.evidence, "columns 1, 3 and 5 fast") != NULL);
	/*
	 * Two FAT blocks and a third column between them and the rest (twice
	 * the later ones, a quarter of the FAT blocks; a busy host's card of the
	 * calibration): the third is not one of them.
	 */
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 6; c++)
			rows[i].rate[c] = (c < 2 ? 8e6 : c == 2 ? 2e6 : 1e6) * (1 + 0.02 * jitter());
	analyze_find_fat(&r, &f);
	CHECK_EQ(f.aus, 2);
	/* a first column only 1.4x every later one (a RAM buffer's margin) is low confidence */
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 6; c++)
			rows[i].rate[c] = (c == 0 ? 1.4e6 : 1e6) * (1 + 0.01 * jitter());
	analyze_find_fat(&r, &f);
	CHECK(f.aus == 1 && f.conf == CONF_LOW);
	/*
	 * A RAM buffer draining (emmc51 of the calibration, no FAT area): the
	 * first column 1.9x, the later ones falling off in the order written:
	 * at most low. The same first column over a flat data area stays high.
	 */
	static const double drain[6] = { 15.9e6, 8.57e6, 7.35e6, 6.98e6, 6.82e6, 6.79e6 };
	for (int i = 0; i < r.nrows; i++)
		for (int c = 0; c < 6; c++)
			rows[i].rate[c] = drain[c];
	analyze_find_fat(&r, &f);
	CHECK(f.conf == CONF_LOW && strstr(f.evidence, "RAM buffer") != NULL);
	for (int i = 0; i < r.nrows; i++)
		for (int c = 1; c < 6; c++)
			rows[i].rate[c] = 6.8e6;
	analyze_find_fat(&r, &f);
	CHECK(f.aus == 1 && f.conf == CONF_HIGH);
	CHECK_STR(results_confidence_name(CONF_HIGH), "high");
	CHECK_STR(results_confidence_name(CONF_NONE), "none");
	CHECK_STR(results_collapse_name(RUN_COLLAPSED), "collapsed");
	/*
	 * The first write of a probe run pays for a collection the writes before
	 * it postponed (a 24MiB-erase-block card with two FAT blocks): in the
	 * first row only, the first column is slower than every other; the
	 * second row shows both FAT columns fast. Two FAT blocks, not none.
	 */
	{
		static struct rate_row pr[2];
		struct rate_result p = { .rows = pr, .nrows = 2, .erasesize = 24 * MiB, .find_fat = true };
		const double r0[6] = { 473700, 40545556, 1767942, 1767942, 1813812, 1349363 };
		const double r1[6] = { 25438831, 26166950, 918360, 918360, 904515, 904515 };
		memset(pr, 0, sizeof pr);
		for (int c = 0; c < 6; c++) {
			pr[0].rate[c] = r0[c];
			pr[1].rate[c] = r1[c];
		}
		pr[0].blocksize = 24 * KiB, pr[1].blocksize = 12 * KiB;
		pr[0].ncols = pr[1].ncols = 6;
		analyze_find_fat(&p, &f);
		CHECK_EQ(f.aus, 2);
		/* the same dip in a later row is the place's, not owed work: not discounted */
		for (int c = 0; c < 6; c++) {
			pr[0].rate[c] = r1[c];
			pr[1].rate[c] = r0[c];
		}
		analyze_find_fat(&p, &f);
		CHECK(f.aus != 2);
	}
	test_find_fat_behind_a_buffer();
}

/* ---------- the seed posts ---------- */

/* name under tests/data/: "seeds/X" or "posts/X" (a bare name is a seed) */
static char *slurp(const char *name, size_t *len)
{
	char path[512];
	const char *here = __FILE__;
	const char *slash = strrchr(here, '/');
	int dir = slash ? (int)(slash - here) : 0;
	snprintf(path, sizeof(path), "%.*s%sdata/%s%s", dir, here, dir ? "/" : "",
		 strchr(name, '/') ? "" : "seeds/", name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("FAIL cannot open %s\n", path);
		return NULL;
	}
	char *buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, 1 << 20, f) : 0;
	fclose(f);
	return buf;
}

struct verdict {
	struct size_estimate erase, page;
	struct count_estimate lin, rnd;	/* series at the erase size */
	struct fat_estimate fat;
	bool have_fat;
};

/* Verdicts for one card (section) of a post, as analyze_file forms them. */
static void card_verdict(const struct post *p, int section, struct verdict *v)
{
	const struct rate_result *lin[64], *rnd[64];
	long long nl[64], nr[64];
	int n_lin = 0, n_rnd = 0;
	memset(v, 0, sizeof(*v));
	for (int i = 0; i < p->nruns; i++) {
		const struct post_run *r = &p->runs[i];
		if (r->section == section && r->kind == POST_ALIGN)
			analyze_align(&r->align, &v->erase, &v->page);
	}
	for (int i = 0; i < p->nruns; i++) {
		const struct post_run *r = &p->runs[i];
		if (r->section != section)
			continue;
		if (r->kind == POST_FIND_FAT && !v->have_fat) {
			analyze_find_fat(&r->rates, &v->fat);
			v->have_fat = true;
		}
		if (r->kind != POST_OPEN_AU || r->rates.erasesize != v->erase.bytes || n_lin >= 64 ||
		    n_rnd >= 64)
			continue;
		if (r->rates.random) {
			rnd[n_rnd] = &r->rates;
			nr[n_rnd++] = r->rates.nr;
		} else {
			lin[n_lin] = &r->rates;
			nl[n_lin++] = r->rates.nr;
		}
	}
	uint64_t page = v->page.conf > CONF_NONE ? v->page.bytes : 0;
	analyze_open_au_series(lin, nl, n_lin, page, &v->lin);
	analyze_open_au_series(rnd, nr, n_rnd, page, &v->rnd);
}

static bool load(const char *name, struct post *p)
{
	size_t len;
	char *text = slurp(name, &len);
	if (!text)
		return false;
	int rc = post_parse(text, len, p);
	free(text);
	return rc == 0;
}

static void test_seed_000(void)
{
	struct post p;
	struct verdict v;
	if (!load("000_52b01d750a328571.txt", &p)) {
		CHECK(!"seed 000 loads");
		return;
	}
	CHECK_EQ(p.nsections, 6);
	if (p.nsections != 6) {
		post_free(&p);
		return;
	}
	/* SanDisk SU04G: "2MiB erase block, 8KiB pages? hard to see", "9 open erase blocks!" */
	CHECK_STR(p.sections[0].name, "SU04G");
	card_verdict(&p, 0, &v);
	CHECK(v.erase.bytes == 2 * MiB && v.erase.conf == CONF_LOW);
	CHECK_LE(v.page.conf, CONF_LOW);
	CHECK(v.lin.n == 9 && !v.lin.at_least && v.lin.conf == CONF_HIGH);
	/* Kingston SA04G: 4MiB, 8KiB page, only one open AU, horrible at random */
	card_verdict(&p, 1, &v);
	CHECK(v.erase.bytes == 4 * MiB && v.erase.conf == CONF_HIGH);
	CHECK(v.page.bytes == 8 * KiB && v.page.conf >= CONF_MEDIUM);
	CHECK(v.lin.n == 1 && v.lin.conf == CONF_HIGH);
	CHECK(v.rnd.n == 0 && !v.rnd.at_least);
	CHECK(v.have_fat && v.fat.aus == 2);
	/* Samsung: -a says 1MiB ("1MiB erase block?"); --open-au at 2MiB settles it (below) */
	card_verdict(&p, 2, &v);
	CHECK_EQ(v.erase.bytes, 1 * MiB);
	CHECK_EQ(v.page.bytes, 8 * KiB);
	/* Amazon Basics: 2MiB erase block, 8KiB pages; a dying card */
	card_verdict(&p, 3, &v);
	CHECK(v.erase.bytes == 2 * MiB && v.erase.conf == CONF_HIGH);
	CHECK_EQ(v.page.bytes, 8 * KiB);
	CHECK_EQ(v.lin.n, 1);
	CHECK_EQ(v.rnd.n, 0);
	/* Kingston SDC10: 2MiB erase block, 8KiB page, "generally horrible at random" */
	card_verdict(&p, 4, &v);
	CHECK(v.erase.bytes == 2 * MiB && v.erase.conf == CONF_HIGH);
	CHECK_EQ(v.page.bytes, 8 * KiB);
	CHECK(v.lin.n == 1 && v.lin.conf == CONF_HIGH);
	CHECK(v.rnd.n == 0 && !v.rnd.at_least);
	CHECK(v.have_fat && v.fat.aus == 2);
	/* PNY: 3*2^n boundaries; 6MiB multiples fully high, powers of two diluted */
	card_verdict(&p, 5, &v);
	CHECK(v.erase.bytes == 6 * MiB && v.erase.conf == CONF_MEDIUM);
	CHECK_EQ(v.lin.n, 2);
	CHECK(v.have_fat && v.fat.aus == 0);
	post_free(&p);
}

static void test_seed_others(void)
{
	struct post p;
	struct verdict v;
	/* 8GB card: "Erase Block size found to be 512KB", "consistent numbers till 17" */
	if (load("001_a295502c4f747fc0.txt", &p)) {
		CHECK(p.nsections == 1 && p.nruns == 9);	/* quoted repeats dropped */
		card_verdict(&p, 0, &v);
		CHECK_EQ(v.erase.bytes, 512 * KiB);
		CHECK(v.lin.at_least && v.lin.n >= 17);
		CHECK(v.rnd.at_least && v.rnd.n >= 17);
		post_free(&p);
	} else {
		CHECK(!"seed 001 loads");
	}
	/* Kingston SA04G again, line breaks partly kept */
	if (load("002_671fd5f53c81ec54.txt", &p)) {
		CHECK_EQ(p.nsections, 1);
		card_verdict(&p, 0, &v);
		CHECK(v.erase.bytes == 4 * MiB && v.erase.conf == CONF_HIGH);
		CHECK_EQ(v.page.bytes, 8 * KiB);
		CHECK(v.lin.n == 1 && !v.lin.at_least);
		/* 2 AUs, 1MiB writes at 1.43M/s: 733ms per write, in the evidence */
		CHECK(strstr(v.lin.evidence, "1MiB writes take 733ms each") != NULL);
		CHECK(v.rnd.n == 0 && !v.rnd.at_least);
		post_free(&p);
	} else {
		CHECK(!"seed 002 loads");
	}
	/* Micron eMMC: "Looks like 2 MiB erase blocks", 5 open AUs linear and random */
	if (load("003_b2663e3d0cd85929.txt", &p)) {
		card_verdict(&p, 0, &v);
		CHECK_STR(p.sections[0].name, "MMC02G");
		CHECK(v.erase.bytes == 2 * MiB && v.erase.conf == CONF_HIGH);
		CHECK_EQ(v.page.bytes, 0);	/* no step below the erase size */
		CHECK(v.lin.n == 5 && !v.lin.at_least && v.lin.conf == CONF_HIGH);
		CHECK(v.rnd.n == 5 && !v.rnd.at_least);
		post_free(&p);
	} else {
		CHECK(!"seed 003 loads");
	}
	/* Lexar CF: 16 MB erase block, 11 open linear and random, no FAT area */
	if (load("004_5705458fcc3c7d7f.txt", &p)) {
		card_verdict(&p, 0, &v);
		CHECK(v.erase.bytes == 16 * MiB && v.erase.conf == CONF_HIGH);
		CHECK(v.lin.n == 11 && !v.lin.at_least && v.lin.conf == CONF_HIGH);
		CHECK(v.rnd.n == 11 && !v.rnd.at_least);
		CHECK(v.have_fat && v.fat.aus == 0);
		post_free(&p);
	} else {
		CHECK(!"seed 004 loads");
	}
}


/*
 * Issue 20 cause 5: the Gentoo PQI 32 GB card (doc/real-cards.tsv: 4 MiB,
 * "4k (8k->16k jump = multi-plane)"): 1 KiB reads, ~2us at 2K, ~290us at
 * 4K and 8K, ~850us from 16K, and from 4 MiB a consistent +30%. The page
 * level is two rows wide (4 KiB pages read in groups of 16 KiB), and the
 * erase step sits on the raised floor the page crossings make.
 */
static const struct level pqi[] = { { 2048, 2 }, { 4096, 290 }, { 16384, 850 },
				    { 4 * MiB, 1100 } };

static void test_align_two_row_page_level(void)
{
	struct align_result r;
	struct size_estimate e, p;
	rng_state = 20;
	for (int round = 0; round < 8; round++) {
		/* up to +-10% scatter on each row: the page level stands out at any of them */
		make_levels(&r, 8 * GiB, pqi, 4, round ? 0.1 * round / 7 : 0);
		analyze_align(&r, &e, &p);
		CHECK_EQ(p.bytes, 4 * KiB);
		CHECK_EQ(p.multiplane, 16 * KiB);
		CHECK(p.conf == CONF_LOW || p.conf == CONF_MEDIUM);	/* one floor row; reads in groups */
		if (p.bytes != 4 * KiB || p.multiplane != 16 * KiB)
			printf("  pqi round %d: page %llu/%llu: %s\n", round, (unsigned long long)p.bytes,
			       (unsigned long long)p.multiplane, p.evidence);
	}
	/* the old SanDisk SDHC 4GB (real-cards.tsv): 4 KB pages, the 8 KB jump multi-plane, 512 KB */
	static const struct level sandisk[] = { { 2048, 8 }, { 4096, 150 }, { 8192, 485 },
						{ 512 * KiB, 805 } };
	make_levels(&r, 1 * GiB, sandisk, 4, 0.02);
	analyze_align(&r, &e, &p);
	CHECK(p.bytes == 4 * KiB && p.multiplane == 8 * KiB);
	CHECK(e.bytes == 512 * KiB && e.conf >= CONF_MEDIUM);
	/* a page level three rows wide with no multi-plane level: still the lowest level */
	static const struct level wide[] = { { 2048, 3 }, { 4096, 200 }, { 32768, 200 },
					     { 4 * MiB, 700 } };
	make_levels(&r, 4 * GiB, wide, 4, 0.03);
	analyze_align(&r, &e, &p);
	CHECK(p.bytes == 4 * KiB && p.multiplane == 0);
	CHECK(e.bytes == 4 * MiB && e.conf == CONF_HIGH);
}

static void test_align_erase_step_on_a_raised_floor(void)
{
	struct align_result r;
	struct size_estimate e, p;
	rng_state = 21;
	/* +30% from 4 MiB, scatter +-2%: more than ten times the scatter, a step */
	for (int round = 0; round < 6; round++) {
		make_levels(&r, 8 * GiB, pqi, 4, 0.02);
		analyze_align(&r, &e, &p);
		CHECK(e.bytes == 4 * MiB && e.conf == CONF_MEDIUM);
		/* the evidence states the rise (+27..+30% here: the extremes of the scatter) and its clarity */
		const char *at = strstr(e.evidence, "(+");
		int rise = -1, clear = -1;
		CHECK(at && sscanf(at, "(+%d%%, %dx the scatter)", &rise, &clear) == 2);
		CHECK(rise >= 25 && rise <= 31);
		CHECK_GE(clear, 10);
		if (e.bytes != 4 * MiB)
			printf("  raised floor round %d: %s\n", round, e.evidence);
	}
	/* +-8% scatter: the same rise is no longer clear: low, never medium or high */
	for (int round = 0; round < 6; round++) {
		make_levels(&r, 8 * GiB, pqi, 4, 0.08);
		analyze_align(&r, &e, &p);
		CHECK(e.bytes == 0 || (e.bytes == 4 * MiB && e.conf == CONF_LOW));
		CHECK_EQ(p.bytes, 4 * KiB);
	}
	/* a rise of 9% (NCard 8GB in real-cards.tsv) is not a step, however clean */
	static const struct level ncard[] = { { 2048, 19 }, { 8192, 275 }, { 4 * MiB, 300 } };
	make_levels(&r, 1 * GiB, ncard, 3, 0.005);
	analyze_align(&r, &e, &p);
	CHECK(e.bytes == 0 || e.conf <= CONF_LOW);
	CHECK_EQ(p.bytes, 8 * KiB);
}

/* ---------- --analyze on real posts (issue 20) ---------- */

static bool load_post(const char *name, struct post *p)
{
	char path[128];
	snprintf(path, sizeof(path), "posts/%s", name);
	return load(path, p);
}

/* a patched build's "-0 N" (the open-AU count in 2011): N from the runs' sequence, or unknown */
static void test_post_unknown_option(void)
{
	struct post p;
	if (load_post("emmc-2011-patched-open-au-count-7.txt", &p)) {
		CHECK_EQ(p.nruns, 8);
		for (int i = 0; i < p.nruns; i++) {
			CHECK_STR(p.runs[i].unknown_option, "-0");
			CHECK(p.runs[i].rates.nr == i + 1 && p.runs[i].nr_from_sequence);
		}
		post_free(&p);
	} else {
		CHECK(!"the 7-AU post loads");
	}
	if (load_post("emmc-2011-patched-single-run.txt", &p)) {
		CHECK(p.nruns == 1 && p.runs[0].rates.nr == 0 && !p.runs[0].nr_stated);
		CHECK_STR(p.runs[0].unknown_option, "-0");
		post_free(&p);
	}
	/* --open-au-nr stated beside it: that is the N */
	CHECK(parse("flashbench -O -q --open-au-nr=3 /dev/sdc 4MiB 5M/s 2MiB 5M/s", &p) == 0);
	CHECK(p.nruns == 1 && p.runs[0].rates.nr == 3 && p.runs[0].nr_stated);
	CHECK_STR(p.nruns ? p.runs[0].unknown_option : "", "-q");
	post_free(&p);
	/* the tool's own options are no unknown ones */
	CHECK(parse("flashbench -O -v --json -o x.json /dev/sdc 4MiB 5M/s 2MiB 5M/s", &p) == 0);
	CHECK(p.nruns == 1 && p.runs[0].rates.nr == 2 && !p.runs[0].unknown_option[0]);
	post_free(&p);
}

static void test_post_wrapper_headers(void)
{
	struct post p;
	if (!load_post("wrapper-script-headers.txt", &p)) {
		CHECK(!"the wrapper post loads");
		return;
	}
	CHECK_EQ(p.nruns, 7);
	if (p.nruns == 7) {
		for (int i = 0; i < 4; i++)
			CHECK(p.runs[i].rates.nr == i + 1 && p.runs[i].mode_stated && !p.runs[i].rates.random);
		for (int i = 4; i < 6; i++)
			CHECK(p.runs[i].rates.nr == i - 3 && p.runs[i].mode_stated && p.runs[i].rates.random);
		/* "Running flashbench again": neither N nor mode said */
		CHECK(p.runs[6].rates.nr == 0 && !p.runs[6].mode_stated);
	}
	post_free(&p);
	/* bare rows: the mode is unknown, not linear */
	CHECK(parse("4MiB 3.57M/s 2MiB 4.76M/s", &p) == 0);
	CHECK(p.nruns == 1 && !p.runs[0].mode_stated);
	post_free(&p);
	/* a header without a mode word: N, mode unknown; a command after a header keeps its N */
	CHECK(parse("AU=5: 4MiB 3.57M/s 2MiB 4.76M/s AU=6, random access "
		    "flashbench -O -e 4M /dev/sdb 4MiB 3.57M/s 2MiB 4.76M/s", &p) == 0);
	CHECK_EQ(p.nruns, 2);
	if (p.nruns == 2) {
		CHECK(p.runs[0].rates.nr == 5 && !p.runs[0].mode_stated);
		CHECK(p.runs[1].rates.nr == 6 && p.runs[1].mode_stated && p.runs[1].rates.random);
	}
	post_free(&p);
}

static void test_post_junk_before_rows(void)
{
	struct post p;
	if (!load_post("junk-before-rows.txt", &p)) {
		CHECK(!"the junk post loads");
		return;
	}
	/* one -a run of all 20 rows (a diff cut short is on - (pre + post) / 2), one --open-au run */
	CHECK_EQ(p.nruns, 2);
	if (p.nruns == 2) {
		CHECK(p.runs[0].kind == POST_ALIGN && p.runs[0].align.nrows == 20);
		CHECK(p.runs[0].align.nrows == 20 && p.runs[0].align.rows[4].diff_ns == 304000);
		CHECK(p.runs[1].kind == POST_OPEN_AU && p.runs[1].rates.nrows == 9);
		CHECK(p.runs[1].rates.nrows == 9 && p.runs[1].rates.rows[3].failed[0]);
	}
	CHECK(p.junk_stripped >= 10);
	CHECK_EQ(p.mangled_cells, 2);
	post_free(&p);
	/* ^C still ends a run: an interrupt, not junk */
	CHECK(parse("4MiB 3M/s 2MiB 3M/s ^C 1MiB 3M/s", &p) == 0);
	CHECK(p.nruns == 2 && p.runs[0].rates.st.interrupted);
	post_free(&p);
	/* a truncated time no longer reads as 1ns */
	CHECK(parse("align 8192 pre 1ms on 1.5ms post 1ms diff 1e+0 align 4096 pre 1ms on 1ms post 1ms "
		    "diff 3\xc2\xb5s", &p) == 0);
	CHECK(p.nruns == 1 && p.runs[0].align.nrows == 2 && p.runs[0].align.rows[0].diff_ns == 500000);
	post_free(&p);
}

/* the first open-AU format: one column per N under "1 AU 2 AU ..."; not --find-fat */
static void test_post_one_column_per_n(void)
{
	struct post p;
	if (!load_post("open-au-one-column-per-n.txt", &p)) {
		CHECK(!"the column post loads");
		return;
	}
	CHECK_EQ(p.nruns, 4);
	for (int i = 0; i < p.nruns && i < 4; i++) {
		CHECK(p.runs[i].kind == POST_OPEN_AU && p.runs[i].rates.nr == i + 1);
		CHECK(p.runs[i].rates.rows[0].ncols == 1 && p.runs[i].rates.nrows == 9);
	}
	post_free(&p);
	/* columns after an --open-au command without a header: open-AU runs, N unknown */
	CHECK(parse("flashbench -O /dev/sdc 4MiB 5M/s 5M/s 2MiB 5M/s 2M/s", &p) == 0);
	CHECK(p.nruns == 2 && p.runs[0].kind == POST_OPEN_AU && !p.runs[0].nr_stated);
	post_free(&p);
	/* a column that starts below the table's first row: the table's erase size
	 * where its rows halve down from it, else its own first row (found by fuzzing) */
	CHECK(parse("flashbench -O /dev/sdc\n4MiB 5M/s\n2MiB 5M/s 3M/s\n1MiB 5M/s 3M/s\n", &p) == 0);
	CHECK(p.nruns == 2 && p.runs[1].rates.rows[0].blocksize == 2 * MiB &&
	      p.runs[1].rates.erasesize == 4 * MiB);
	post_free(&p);
	CHECK(parse("flashbench -O /dev/sdc\n4MiB 5M/s\n3MiB 5M/s 3M/s\n1536KiB 5M/s 3M/s\n", &p) == 0);
	CHECK(p.nruns == 2 && p.runs[1].rates.rows[0].blocksize == 3 * MiB &&
	      p.runs[1].rates.erasesize == 3 * MiB);
	post_free(&p);
	/* --find-fat columns stay --find-fat */
	CHECK(parse("flashbench -f /dev/sdc 4MiB 5M/s 5M/s 2MiB 5M/s 2M/s", &p) == 0);
	CHECK(p.nruns == 1 && p.runs[0].kind == POST_FIND_FAT);
	post_free(&p);
}

/*
 * Issue 27 (h50): a run whose smaller decision row holds and whose larger
 * one dipped short of a collapse holds: past the open limit the smaller row
 * falls further, never the larger alone (today's sdxc-64g seed=64, 2 open
 * behind a 512 KiB buffer: N=2 at 61 % and 86 % three times, "unclear", the
 * count 1). Both rows low, the smaller further, is still a collapse; the
 * smaller row low alone still unclear.
 */
static void test_open_au_against_larger_row_dip(void)
{
	const double noise[2] = { 0.02, 0.02 };
	const double dip[2] = { 0.61, 0.86 }, deep[2] = { 0.55, 0.86 }, small_low[2] = { 0.86, 0.61 },
		     collapse[2] = { 0.4, 0.2 }, hold[2] = { 0.95, 0.93 };
	CHECK_EQ(analyze_open_au_against(dip, noise, 2), RUN_HOLDS);
	CHECK_EQ(analyze_open_au_against(deep, noise, 2), RUN_UNCLEAR);
	CHECK_EQ(analyze_open_au_against(small_low, noise, 2), RUN_UNCLEAR);
	CHECK_EQ(analyze_open_au_against(collapse, noise, 2), RUN_COLLAPSED);
	CHECK_EQ(analyze_open_au_against(hold, noise, 2), RUN_HOLDS);
}

/*
 * Calibration (h60, 2026-12-03): the -a tables (median of --auto's runs) of
 * two cards whose page was read wrong at high or medium in main's draws.
 * An eMMC with 8 KiB pages read in pairs of 16 KiB (calibration card,
 * reroll 0): the 8 KiB row at 26.9us, a third of the 78us step at 16 KiB,
 * the rows below it noisy, read as "16 KiB, high". A row below the step
 * at a quarter of it or more is what a page read in pairs leaves (44 right,
 * 6 wrong among such answers): low. An SDHC with 16 KiB pages and no
 * multi-plane (reroll 4): the 8 KiB row at 38us under a 100us step, read
 * as 8 KiB pages in pairs, medium. A level between under 0.4 of the step
 * is a diluted row as much as a page (3 right, 4 wrong; 120 right over):
 * low. Both keep their reading; only the word changes.
 */
struct diff_row {
	uint64_t align;
	int64_t diff_ns;
};

static const struct diff_row emmc_pairs[] = {
	{ 17179869184, 124777 }, { 12884901888, 165009 }, { 8589934592, 93807 },
	{ 6442450944, 150100 }, { 4294967296, 97148 }, { 3221225472, 165624 }, { 2147483648, 99292 },
	{ 1610612736, 174890 }, { 1073741824, 109277 }, { 805306368, 163846 }, { 536870912, 94094 },
	{ 402653184, 183673 }, { 268435456, 96105 }, { 201326592, 158127 }, { 134217728, 112864 },
	{ 100663296, 180252 }, { 67108864, 109966 }, { 50331648, 167464 }, { 33554432, 93203 },
	{ 25165824, 167024 }, { 16777216, 109552 }, { 12582912, 68049 }, { 8388608, 116202 },
	{ 6291456, 63551 }, { 4194304, 112198 }, { 3145728, 85384 }, { 2097152, 69607 },
	{ 1572864, 88385 }, { 1048576, 76448 }, { 786432, 64111 }, { 524288, 91944 },
	{ 393216, 73533 }, { 262144, 110815 }, { 196608, 74964 }, { 131072, 80037 }, { 98304, 88744 },
	{ 65536, 67442 }, { 49152, 66507 }, { 32768, 85783 }, { 24576, 22298 }, { 16384, 75259 },
	{ 12288, -2520 }, { 8192, 26904 }, { 6144, 6154 }, { 4096, 14402 }, { 3072, 8037 },
	{ 2048, 15041 }
};

static const struct diff_row sdhc_no_pairs[] = {
	{ 4294967296, 337988 }, { 3221225472, 298620 }, { 2147483648, 313565 },
	{ 1610612736, 307145 }, { 1073741824, 292017 }, { 805306368, 289351 }, { 536870912, 286952 },
	{ 402653184, 296031 }, { 268435456, 309299 }, { 201326592, 300665 }, { 134217728, 311092 },
	{ 100663296, 298056 }, { 67108864, 283791 }, { 50331648, 295127 }, { 33554432, 289482 },
	{ 25165824, 305423 }, { 16777216, 290152 }, { 12582912, 316367 }, { 8388608, 277700 },
	{ 6291456, 94534 }, { 4194304, 277330 }, { 3145728, 113405 }, { 2097152, 99819 },
	{ 1572864, 97585 }, { 1048576, 111424 }, { 786432, 104883 }, { 524288, 114717 },
	{ 393216, 103342 }, { 262144, 85231 }, { 196608, 106183 }, { 131072, 95622 },
	{ 98304, 129272 }, { 65536, 98053 }, { 49152, 80104 }, { 32768, 96094 }, { 24576, 18851 },
	{ 16384, 100372 }, { 12288, 6957 }, { 8192, 38388 }, { 6144, 1191 }, { 4096, -14586 },
	{ 3072, 1690 }, { 2048, 2730 }
};

static void align_from_diffs(struct align_result *r, struct align_row *rows, const struct diff_row *d, int n)
{
	memset(r, 0, sizeof(*r));
	r->rows = rows;
	r->blocksize = 1024;
	for (int i = 0; i < n; i++)
		rows[i] = (struct align_row){ .align = d[i].align, .positions = 7, .pre_ns = 250000,
					      .post_ns = 250000, .diff_ns = d[i].diff_ns,
					      .on_ns = 250000 + d[i].diff_ns };
	r->nrows = n;
}

static void test_align_page_a_lower_row_or_a_thin_middle_level_leaves_unsure(void)
{
	static struct align_row rows[64];
	struct align_result r;
	struct size_estimate e, p;
	align_from_diffs(&r, rows, emmc_pairs, (int)(sizeof(emmc_pairs) / sizeof(emmc_pairs[0])));
	analyze_align(&r, &e, &p);
	CHECK_EQ(p.bytes, 16 * KiB);
	CHECK_EQ(p.conf, CONF_LOW);
	CHECK(strstr(p.evidence, "a smaller row reaches 25% of the step") != NULL);
	/* the 8 KiB row back under a quarter of the step: the step stands as it did */
	rows[42].diff_ns = 12000;
	analyze_align(&r, &e, &p);
	CHECK_EQ(p.bytes, 16 * KiB);
	CHECK(p.conf > CONF_LOW);
	align_from_diffs(&r, rows, sdhc_no_pairs, (int)(sizeof(sdhc_no_pairs) / sizeof(sdhc_no_pairs[0])));
	analyze_align(&r, &e, &p);
	CHECK_EQ(p.bytes, 8 * KiB);
	CHECK_EQ(p.multiplane, 16 * KiB);
	CHECK_EQ(p.conf, CONF_LOW);
	CHECK(strstr(p.evidence, "the level between is under 40% of the step") != NULL);
	/* the 8 KiB row at half of the step: a page read in pairs, as sure as before */
	rows[38].diff_ns = 50000;
	analyze_align(&r, &e, &p);
	CHECK_EQ(p.bytes, 8 * KiB);
	CHECK(p.conf > CONF_LOW);
}

int main(void)
{
	test_fields();
	test_parse_commands();
	test_parse_align_and_sections();
	test_parse_pasted();
	test_align_clean();
	test_align_original_places();
	test_align_tiny_step_is_no_erase_size();
	test_align_noise();
	test_align_levels();
	test_align_real_cards();
	test_align_two_row_page_level();
	test_align_page_a_lower_row_or_a_thin_middle_level_leaves_unsure();
	test_align_erase_step_on_a_raised_floor();
	test_align_failed_rows();
	test_cross_check();
	test_open_au_runs();
	test_open_au_one_row_runs();
	test_open_au_against_larger_row_dip();
	test_open_au_series();
	test_find_fat();
	test_seed_000();
	test_seed_others();
	test_post_unknown_option();
	test_post_wrapper_headers();
	test_post_junk_before_rows();
	test_post_one_column_per_n();
	return unit_summary();
}
