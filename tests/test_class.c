/*
 * --class's parts: label marks and --claim lists, the simulated SD Status
 * and its decoding, the verdict rules on made-up figures, queued I/O (the
 * fallback one at a time, and AIO on a regular file, data included).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "checks/class.h"
#include "dev.h"
#include "identity/identity.h"
#include "lib/sd_claims.h"
#include "sim/sim.h"
#include "unit.h"

/* ------------------------------------------------------------ marks */

static void test_claim_lists(void)
{
	struct sd_claims c = { 0 };
	char err[256] = "", buf[64];

	CHECK_EQ(sd_claims_parse("C10,U3,V30,A2", &c, err, sizeof err), 0);
	CHECK_EQ(c.speed, 10u);
	CHECK_EQ(c.uhs, 3u);
	CHECK_EQ(c.video, 30u);
	CHECK_EQ(c.app, 2u);
	CHECK_STR(sd_claims_format(&c, buf, sizeof buf), "C10,U3,V30,A2");
	CHECK_EQ(sd_claims_parse("a1+c4", &c, err, sizeof err), 0);
	CHECK_STR(sd_claims_format(&c, buf, sizeof buf), "C4,A1");

	static const struct { const char *in, *msg; } bad[] = {
		{ "C10,X7", "X7: not a mark" },
		{ "C8", "C8: not a mark" },
		{ "C010", "C010: not a mark" },
		{ "U2", "U2: not a mark" },
		{ "V20", "V20: not a mark" },
		{ "A3", "A3: not a mark" },
		{ "C10,C4", "C4: a second speed class (already C10)" },
		{ "U1,U1", "U1: given twice" },
		{ "C10,,A1", "C10,,A1: an empty item" },
		{ "C10,", "C10,: an empty item" },
		{ "", "'': no mark given" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct sd_claims keep = { .speed = 6 };
		err[0] = '\0';
		CHECK_EQ(sd_claims_parse(bad[i].in, &keep, err, sizeof err), -1);
		CHECK(strncmp(err, bad[i].msg, strlen(bad[i].msg)) == 0);
		if (strncmp(err, bad[i].msg, strlen(bad[i].msg)))
			printf("  \"%s\": \"%s\", want \"%s...\"\n", bad[i].in, err, bad[i].msg);
		CHECK_EQ(keep.speed, 6u);	/* unchanged on error */
	}
}

/* ------------------------------------------------------------ SD Status */

static void test_simulated_ssr(void)
{
	char err[256] = "", hex[256];
	struct sim *s = sim_create("claims=C10,U3,V30,A2,queue=8,erasesize=8M", err, sizeof err);
	struct sd_ssr r;

	CHECK(s != NULL);
	if (!s) {
		printf("  %s\n", err);
		return;
	}
	CHECK(sim_card_register(s, "ssr", hex, sizeof hex));
	CHECK_EQ(strlen(hex), 128u);
	CHECK_EQ(sd_ssr_decode(hex, &r), 0);
	CHECK_EQ(r.speed_class, 4u);	/* the code of C10 */
	CHECK_EQ(r.uhs_speed_grade, 3u);
	CHECK_EQ(r.video_speed_class, 30u);
	CHECK_EQ(r.app_perf_class, 2u);
	CHECK_EQ(r.queue_depth, 8u);
	CHECK(r.cache);
	CHECK_EQ(r.au_size, 8ull << 20);
	CHECK_EQ(r.uhs_au_size, 8ull << 20);
	CHECK(!sim_card_register(s, "cid", hex, sizeof hex));
	sim_destroy(s);

	s = sim_create("size=1G", err, sizeof err);	/* no claims: no SD Status */
	CHECK(s && !sim_card_register(s, "ssr", hex, sizeof hex));
	sim_destroy(s);
	s = sim_create("sdhc-good,claims=none", err, sizeof err);
	CHECK(s && !sim_card_register(s, "ssr", hex, sizeof hex));
	sim_destroy(s);
	s = sim_create("sdxc-tlc", err, sizeof err);	/* a preset's claims; 12 MiB is code B */
	CHECK(s && sim_card_register(s, "ssr", hex, sizeof hex) && sd_ssr_decode(hex, &r) == 0);
	CHECK_EQ(r.app_perf_class, 1u);
	CHECK_EQ(r.au_size, 12ull << 20);
	CHECK_EQ(r.queue_depth, 0u);
	CHECK(!r.cache);
	sim_destroy(s);

	/* "claims=" runs on over the marks after it, and no further */
	CHECK_STR(sim_spec_item_end("claims=C10,U1,A1,queue=8"), ",queue=8");
	CHECK_STR(sim_spec_item_end("claims=C10,sdhc-good"), ",sdhc-good");
	CHECK_STR(sim_spec_item_end("size=1G,A1"), ",A1");
	s = sim_create("claims=C10,U1,A1,sdhc-good", err, sizeof err);
	CHECK(s != NULL);
	CHECK(s && sim_config(s)->claims.marks.app == 1 && !strcmp(sim_config(s)->preset, "sdhc-good"));
	sim_destroy(s);
}

/* ------------------------------------------------------------ verdicts */

static struct class_result *result(const char *claims)
{
	static struct class_result r;
	char err[128];
	struct sd_claims c;

	memset(&r, 0, sizeof r);
	sd_claims_parse(claims, &c, err, sizeof err);
	for (int k = 0; k < SD_MARK_KINDS; k++) {
		struct class_claim *x = &r.claims[r.nclaims];
		unsigned int v = sd_claims_get(&c, k);
		if (!v)
			continue;
		x->kind = k;
		x->value = v;
		x->source = CLAIM_FROM_USER;
		sd_mark_name(k, v, x->name, sizeof x->name);
		class_promises(x);
		r.nclaims++;
	}
	r.plan.blocks = 16;
	r.plan.sustained_blocks = 8;
	r.link = (struct class_phase){ .run = true, .value = 90e6 };
	r.seq = (struct class_phase){ .run = true, .value = 20e6 };
	r.sustained = 20e6;
	r.rread = (struct class_phase){ .run = true, .iops = true, .ios = 100, .value = 2000, .depth = 1,
					.depth_used = 1 };
	r.rwrite = (struct class_phase){ .run = true, .iops = true, .ios = 100, .value = 600, .depth = 1,
					 .depth_used = 1 };
	r.restored = true;
	r.decided = true;
	return &r;
}

static void queued(struct class_result *r, double rd, double wr, int used)
{
	r->qread = (struct class_phase){ .run = true, .iops = true, .ios = 100, .value = rd,
					 .depth = 8, .depth_used = used };
	r->qwrite = (struct class_phase){ .run = true, .iops = true, .ios = 100, .value = wr,
					  .depth = 8, .depth_used = used };
}

static void test_verdicts(void)
{
	char line[1024];
	struct class_result *r = result("C10,U1,A1");

	class_decide(r);
	CHECK_EQ(r->verdict, CV_MET);
	CHECK_EQ(class_exit_status(r), 0);
	class_summary(line, sizeof line, r);
	CHECK_STR(line, "met: every claim kept: C10 +100%, U1 +100%, A1 +20%");

	r = result("C10,U3,V30");	/* 20 MB/s writes, 90 MB/s reads: short */
	class_decide(r);
	CHECK_EQ(r->verdict, CV_SHORT);
	CHECK_EQ(class_exit_status(r), 1);
	class_summary(line, sizeof line, r);
	CHECK_STR(line, "short: U3, V30: sustained sequential writes 20M/s, promised 30M/s; C10 met");

	r = result("U3");		/* the link reads at 21 MB/s: not the card's fault */
	r->link.value = 21e6;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);
	CHECK(strstr(r->claims[0].why, "the reader caps this at 21M/s") != NULL);
	CHECK_EQ(class_exit_status(r), 1);
	r = result("U3");		/* writes at the link's ceiling */
	r->link.value = 21.5e6;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);

	r = result("C10");		/* too few erase blocks for a sustained rate */
	r->plan.too_small = true;
	r->plan.blocks = 2;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);
	CHECK(strncmp(r->claims[0].why, "area too small", 14) == 0);

	r = result("A1");		/* 200 IOPS random writes */
	r->rwrite.value = 200;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);
	CHECK_STR(r->claims[0].why, "random 4KiB writes 200 IOPS, promised 500 IOPS");

	r = result("A2");		/* no SD Status: queueing and cache cannot be used */
	queued(r, 9000, 900, 8);
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);
	CHECK(strstr(r->claims[0].why, "not the card's fault") != NULL);
	r = result("A2");
	r->card = (struct class_card){ .visible = true, .queue_depth = 8, .cache = true };
	queued(r, 9000, 900, 8);	/* queued faster, still short: the card's */
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);
	CHECK_EQ(r->claims[0].req[1].depth, 8);
	queued(r, 9000, 620, 8);	/* queueing did nothing: the host's path */
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);
	CHECK(strstr(r->claims[0].why, "ran no faster than one") != NULL);
	queued(r, 9000, 900, 1);	/* one at a time below */
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);
	CHECK(strstr(r->claims[0].why, "one at a time") != NULL);
	queued(r, 9000, 2500, 8);
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_MET);

	r = result("C10");
	r->nclaims = 0;
	class_decide(r);
	CHECK_EQ(r->verdict, CV_UNKNOWN);
	CHECK_EQ(class_exit_status(r), 1);
	r->decided = false;
	r->interrupted = true;
	class_summary(line, sizeof line, r);
	CHECK_STR(line, "no verdict: interrupted");
}

/*
 * A card that fails one mark and cannot be measured on another is short:
 * "unknown" never hides a promise it broke, whichever comes first, within a
 * claim (A1: random reads short, its sequential writes not measurable) and
 * across claims (U3 short, A2 not the card's fault).
 */
static void test_short_outranks_unknown(void)
{
	struct class_result *r = result("A1");	/* reads, writes, sequential writes */

	r->rread.value = 1000;		/* short of 1500 IOPS */
	r->plan.too_small = true;	/* the sequential rate: unknown, after it */
	class_decide(r);
	CHECK_EQ(r->claims[0].req[0].verdict, CV_SHORT);
	CHECK_EQ(r->claims[0].req[2].verdict, CV_UNKNOWN);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);
	CHECK_STR(r->claims[0].why, "random 4KiB reads 1000 IOPS, promised 1500 IOPS");
	CHECK_EQ(r->verdict, CV_SHORT);

	r = result("A1");		/* unknown first: the random reads not measured */
	r->rread.run = false;
	r->rwrite.value = 200;
	class_decide(r);
	CHECK_EQ(r->claims[0].req[0].verdict, CV_UNKNOWN);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);
	CHECK_STR(r->claims[0].why, "random 4KiB writes 200 IOPS, promised 500 IOPS");

	r = result("U3,A2");		/* 20 MB/s: U3 short; A2 without an SD Status: unknown */
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);
	CHECK_EQ(r->claims[1].verdict, CV_UNKNOWN);
	CHECK_EQ(r->verdict, CV_SHORT);
	CHECK_EQ(class_exit_status(r), 1);
	r = result("A2,C10");		/* C10 met, A2 unknown: unknown, never met */
	class_decide(r);
	CHECK_EQ(r->verdict, CV_UNKNOWN);
}

/* ------------------------------------------------------------ queued I/O */

static int64_t one_ns;
static int plain_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			  int64_t *ns)
{
	(void)d; (void)buf; (void)len; (void)off; (void)write;
	*ns = one_ns;
	return 0;
}

static void test_queued_fallback(void)
{
	static const struct dev_ops ops = { .kind = "test", .transfer = plain_transfer };
	struct dev d;
	struct dev_req r[3] = { { 0, 4096, true }, { 8192, 4096, false }, { 4096, 4096, true } };
	char *buf = dev_alloc_buffer(2 * 4096);
	int64_t ns = 0;
	int used = 0, failed = 0;

	dev_attach(&d, "test", &ops, NULL, 1 << 20, 512, true);
	one_ns = 1000;
	CHECK_EQ(dev_transfer_queued(&d, buf, 4096, r, 3, 2, &ns, &used, &failed), 0);
	CHECK_EQ(ns, 3000);
	CHECK_EQ(used, 1);
	CHECK_EQ(d.bytes_written, 8192u);
	CHECK_EQ(d.bytes_read, 4096u);
	r[1].off = 1 << 20;		/* beyond the end: nothing done */
	CHECK_EQ(dev_transfer_queued(&d, buf, 4096, r, 3, 2, &ns, &used, &failed), -EINVAL);
	CHECK_EQ(d.bytes_written, 8192u);
	d.writable = false;
	r[1].off = 0;
	CHECK_EQ(dev_transfer_queued(&d, buf, 4096, r, 3, 2, &ns, &used, &failed), -EBADF);
	free(buf);
}

/* AIO on a regular file: what the queued writes put there is read back by queued reads. */
static void test_queued_aio_file(void)
{
	char path[] = "/tmp/test_class.XXXXXX", err[256];
	int fd = mkstemp(path);
	struct dev d;
	enum { N = 64, DEPTH = 4, IO = 4096 };
	struct dev_req r[N];
	unsigned char *buf = dev_alloc_buffer(DEPTH * IO), *back = dev_alloc_buffer(IO);
	int64_t ns;
	int used = 0, failed = 0;

	CHECK(fd >= 0 && ftruncate(fd, N * IO) == 0);
	close(fd);
	CHECK_EQ(dev_open(&d, path, DEV_WRITE, err, sizeof err), 0);
	for (int i = 0; i < DEPTH; i++)
		memset(buf + i * IO, 'a' + i, IO);
	for (int i = 0; i < N; i++)	/* request i writes slot i % DEPTH at block (i * 7) % N */
		r[i] = (struct dev_req){ (uint64_t)((i * 7) % N) * IO, IO, true };
	CHECK_EQ(dev_transfer_queued(&d, buf, IO, r, N, DEPTH, &ns, &used, &failed), 0);
	CHECK_EQ(used, DEPTH);
	CHECK(ns > 0);
	CHECK_EQ(d.bytes_written, (uint64_t)N * IO);
	int wrong = 0;
	for (int i = 0; i < N; i++) {
		CHECK_EQ(dev_pread_all(&d, back, IO, (uint64_t)((i * 7) % N) * IO), 0);
		wrong += back[0] != 'a' + i % DEPTH || back[IO - 1] != 'a' + i % DEPTH;
	}
	CHECK_EQ(wrong, 0);
	for (int i = 0; i < N; i++)
		r[i].write = false;
	CHECK_EQ(dev_transfer_queued(&d, buf, IO, r, N, DEPTH, &ns, &used, &failed), 0);
	CHECK_EQ(d.traffic.read[IO_MEASURE], (uint64_t)N * IO);	/* the checks above are no test reads */
	r[5].off = (uint64_t)N * IO;	/* past the end: refused before any I/O */
	CHECK_EQ(dev_transfer_queued(&d, buf, IO, r, N, DEPTH, &ns, &used, &failed), -EINVAL);
	dev_close(&d);
	unlink(path);
	free(buf);
	free(back);
}

/* ------------------------------------------------------------ sustained writes */

/* n units of 4 MiB: the first fast ones at fast B/s, the rest at slow, a factor per unit */
static void units(struct class_sustain *s, int n, int fast, double fast_rate, double slow_rate,
		  const double *jitter)
{
	memset(s, 0, sizeof *s);
	s->unit = 4 << 20;
	s->nunits = n;
	s->passes = 1;
	for (int i = 0; i < n; i++) {
		double rate = (i < fast ? fast_rate : slow_rate) * (jitter ? jitter[i % 4] : 1);
		s->unit_ns[i] = (double)s->unit * 1e9 / rate;
		s->ns += (int64_t)s->unit_ns[i];
	}
	s->written = (uint64_t)n * s->unit;
}

static void test_sustained(void)
{
	static const double jitter[] = { 1.0, 0.98, 1.02, 0.99 };
	struct class_sustain s;

	/* a write cache's end: 70 MB/s for 256 MiB, then 30 MB/s; the window is after it */
	units(&s, 80, 64, 70e6, 30e6, jitter);
	class_sustain_analyze(&s);
	CHECK(s.cache_seen);
	CHECK_EQ(s.cache_bytes, 256ull << 20);
	CHECK(fabs(s.cache_rate / 70e6 - 1) < 0.02);
	CHECK_EQ(s.from, 65);
	CHECK(fabs(s.rate / 30e6 - 1) < 0.02);
	CHECK(!s.moved);
	/* steady, with host noise: no cache, the last half, the halves agree */
	units(&s, 16, 0, 0, 18e6, jitter);
	class_sustain_analyze(&s);
	CHECK(!s.cache_seen);
	CHECK_EQ(s.from, 8);
	CHECK(!s.moved);
	CHECK(s.noise > 0 && s.noise < 0.02);
	/* a first unit faster by a tenth (a RAM buffer's few MiB): not a cache's end */
	units(&s, 16, 1, 20e6, 18e6, NULL);
	class_sustain_analyze(&s);
	CHECK(!s.cache_seen);
	/* the rate moved: 7.5 MB/s, then 13.4 MB/s in the last half (a busy host, issue 30) */
	units(&s, 16, 12, 7.5e6, 13.4e6, jitter);
	for (int i = 0; i < 8; i++)
		s.unit_ns[i] = (double)s.unit * 1e9 / 10e6;
	class_sustain_analyze(&s);
	CHECK(!s.cache_seen);
	CHECK(s.moved);
}

/* Decisions from the sustained writes: the halves, the link, a possible cache. */
static void test_sustained_verdicts(void)
{
	static const double jitter[] = { 1.0, 0.98, 1.02, 0.99 };
	struct class_result *r = result("C10");

	/* halves of 7.5 and 13.4 MB/s around a promise of 10 (a busy host): unknown, never met or short */
	units(&r->sustain, 16, 0, 0, 10e6, jitter);
	for (int i = 8; i < 12; i++)
		r->sustain.unit_ns[i] = (double)r->sustain.unit * 1e9 / (7.5e6 * jitter[i % 4]);
	for (int i = 12; i < 16; i++)
		r->sustain.unit_ns[i] = (double)r->sustain.unit * 1e9 / 13.4e6;
	class_sustain_analyze(&r->sustain);
	CHECK(r->sustain.moved);
	r->sustained = r->sustain.rate;
	r->plan.device_size = 1ull << 30;	/* small: no cache to fear */
	snprintf(r->device, sizeof r->device, "/dev/sdx");
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_UNKNOWN);
	CHECK(strstr(r->claims[0].why, "the rate moved between runs: 7.") != NULL);
	CHECK_STR(r->claims[0].rerun, "flashbench --class /dev/sdx");

	/* writes at 8.5 MB/s, far below a 13.9 MB/s link: the card is short of U3, not the reader */
	r = result("U3");
	r->link.value = 13.9e6;
	units(&r->sustain, 16, 0, 0, 8.5e6, jitter);
	class_sustain_analyze(&r->sustain);
	r->sustained = r->sustain.rate;
	r->plan.device_size = 1ull << 30;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);
	CHECK_EQ(r->claims[0].conf, CONF_HIGH);
	/* writes at 9.9 MB/s with reads at 6.36 MB/s (issue 30: 9.97): the reads are no ceiling; C10 short by a hair */
	r = result("C10");
	r->link.value = 6.36e6;
	units(&r->sustain, 16, 0, 0, 9.9e6, jitter);	/* its fastest units short of 10 too */
	class_sustain_analyze(&r->sustain);
	r->sustained = r->sustain.rate;
	r->plan.device_size = 1ull << 30;
	class_decide(r);
	CHECK(strstr(r->claims[0].why, "reader caps this at 9.") != NULL);	/* its writes are the ceiling */

	/* met at a rate a cache may carry, with far less written than such a card's cache: low */
	r = result("U3");
	units(&r->sustain, 16, 0, 0, 60e6, jitter);
	class_sustain_analyze(&r->sustain);
	r->sustained = r->sustain.rate;
	r->plan.device_size = 64ull << 30;
	r->plan.area = 64 << 20;
	r->plan.sustain_max = r->plan.total_bytes = 128 << 20;
	snprintf(r->device, sizeof r->device, "/dev/sdx");
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_MET);
	CHECK_EQ(r->claims[0].conf, CONF_LOW);
	CHECK(strncmp(r->claims[0].rerun, "flashbench --class --max-write=", 31) == 0);
	/* past the cache's end: the rate after it decides, at the confidence of its margin */
	units(&r->sustain, 80, 64, 70e6, 31e6, jitter);
	class_sustain_analyze(&r->sustain);
	r->sustained = r->sustain.rate;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_MET);
	CHECK(r->claims[0].conf >= CONF_LOW && !r->claims[0].rerun[0]);
	CHECK(strstr(r->claims[0].req[0].why, "after a write cache's end at ~256MiB") != NULL);
	units(&r->sustain, 80, 64, 70e6, 25e6, jitter);
	class_sustain_analyze(&r->sustain);
	r->sustained = r->sustain.rate;
	class_decide(r);
	CHECK_EQ(r->claims[0].verdict, CV_SHORT);

	/* more passes only where they could change a verdict */
	r = result("C10");
	r->plan.area = 64 << 20;
	r->plan.sustain_max = 1ull << 30;
	r->plan.sustain_ns = 20000000000ll;
	units(&r->sustain, 16, 0, 0, 18e6, jitter);	/* 18 MB/s: a cache's native rate may be < 10 */
	class_sustain_analyze(&r->sustain);
	CHECK(class_sustain_more(r, &r->sustain, "x"));
	units(&r->sustain, 16, 0, 0, 60e6, jitter);	/* a fifth of 60 is still over 10: met anyway */
	class_sustain_analyze(&r->sustain);
	CHECK(!class_sustain_more(r, &r->sustain, "x"));
	units(&r->sustain, 16, 0, 0, 6e6, jitter);	/* under 10 whatever a cache does: short */
	class_sustain_analyze(&r->sustain);
	CHECK(!class_sustain_more(r, &r->sustain, "x"));
	units(&r->sustain, 80, 64, 70e6, 31e6, jitter);	/* past the cache, with the window after it */
	class_sustain_analyze(&r->sustain);
	CHECK(!class_sustain_more(r, &r->sustain, "x"));
	CHECK(strstr(r->sustain.stopped, "cache") != NULL);
	units(&r->sustain, 256, 0, 0, 18e6, jitter);	/* the budget spent */
	class_sustain_analyze(&r->sustain);
	CHECK(!class_sustain_more(r, &r->sustain, "x"));
}

int main(void)
{
	test_claim_lists();
	test_simulated_ssr();
	test_verdicts();
	test_sustained();
	test_sustained_verdicts();
	test_short_outranks_unknown();
	test_queued_fallback();
	test_queued_aio_file();
	return unit_summary();
}
