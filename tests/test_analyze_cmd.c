/*
 * The two --analyze rules that stand on a single seed post (cmd/analyze_cmd.c),
 * checked on synthetic saved output at both sides of their thresholds:
 *  - "no open-AU limit up to N >= 16 at the erase size" makes the erase
 *    size suspect (seed 001: N = 18 at 512 KiB);
 *  - "--open-au at the larger of two erase sizes >= 1.5x faster" means the
 *    erase size is at least the larger one (seed 000: 2.3x and 1.8x).
 * The input is text in the original's formats (doc/output-formats.md),
 * written here by hand so the test does not depend on our formatter.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "cmd/analyze_cmd.h"
#include "unit.h"

#define KiB 1024ull
#define MiB (1024 * KiB)

struct text {
	char *buf;
	size_t len;
	FILE *f;
};

static void text_open(struct text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
}

/* "4MiB", "512KiB", "16KiB": the original's size column */
static void put_size(FILE *f, uint64_t b)
{
	char s[32];

	if (b >= MiB)
		snprintf(s, sizeof s, "%gMiB", (double)b / MiB);
	else
		snprintf(s, sizeof s, "%gKiB", (double)b / KiB);
	fprintf(f, "%-7s ", s);
}

/* -a with a 300 µs step at `erase` and a 60 µs step at `page` */
static void put_align(FILE *f, uint64_t erase, uint64_t page)
{
	fprintf(f, "$ sudo ./flashbench -a /dev/mmcblk0 --blocksize=1024\n");
	for (uint64_t a = 1ull << 30; a >= 2048; a /= 2) {
		int d = a >= erase ? 300 : a >= page ? 60 : 3;

		fprintf(f, "align %llu\tpre 1ms\ton %gms\tpost 1ms\tdiff %dµs\n",
			(unsigned long long)a, 1 + d / 1000.0, d);
	}
}

/* --open-au at N with the same rate (in M/s) for every write size down to 16 KiB */
static void put_open_au(FILE *f, int n, uint64_t erase, double mbps)
{
	fprintf(f, "$ sudo ./flashbench --open-au --open-au-nr=%d --erasesize=%llu /dev/mmcblk0\n",
		n, (unsigned long long)erase);
	for (uint64_t b = erase; b >= 16 * KiB; b /= 2) {
		char r[32];

		put_size(f, b);
		snprintf(r, sizeof r, "%.3gM/s", mbps);
		fprintf(f, "%-7s \n", r);
	}
}

/* Runs --analyze on the text; returns its output (caller frees), NULL on failure. */
static char *analyze_text(struct text *t)
{
	char path[] = "/tmp/fb-analyze-cmd.XXXXXX";
	char *out = NULL;
	size_t outlen = 0;
	int fd, rc;
	FILE *o;

	fclose(t->f);
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, t->buf, t->len) != (ssize_t)t->len) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	o = open_memstream(&out, &outlen);
	rc = analyze_cmd_file(path, false, o);
	fclose(o);
	unlink(path);
	free(t->buf);
	CHECK_EQ(rc, 0);
	return out;
}

static int has(const char *out, const char *s)
{
	return out && strstr(out, s) != NULL;
}

/* On failure, show the whole --analyze output: it says what was concluded instead. */
#define CHECK_OUT(out, want_found, s) do { \
	if (has(out, s) == (want_found)) unit_passed++; \
	else { unit_failed++; printf("FAIL %s:%d: output %s \"%s\":\n%s\n", __FILE__, __LINE__, \
				    (want_found) ? "lacks" : "has", s, out ? out : "(no output)"); } \
} while (0)
#define CHECK_HAS(out, s) CHECK_OUT(out, 1, s)
#define CHECK_LACKS(out, s) CHECK_OUT(out, 0, s)

/* ---------- no open-AU limit up to N >= 16 ---------- */

/* A clean 4 MiB step and linear runs holding at N = 1, 2, 4, 8, top. */
static char *holding_up_to(int top)
{
	struct text t;
	int ns[] = { 1, 2, 4, 8, top };

	text_open(&t);
	put_align(t.f, 4 * MiB, 16 * KiB);
	for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
		put_open_au(t.f, ns[i], 4 * MiB, 5.0);
	return analyze_text(&t);
}

static void test_many_open_aus_make_the_erase_size_suspect(void)
{
	char *out = holding_up_to(16);

	CHECK_HAS(out, "no open-AU limit up to N=16");
	CHECK_HAS(out, "erase size: 4MiB (medium confidence)");	/* capped from high */
	free(out);
}

static void test_fifteen_open_aus_are_plausible(void)
{
	char *out = holding_up_to(15);

	CHECK_LACKS(out, "no open-AU limit");
	CHECK_HAS(out, "erase size: 4MiB (high confidence)");
	free(out);
}

static void test_a_limit_seen_below_sixteen_is_no_suspicion(void)
{
	struct text t;
	char *out;

	text_open(&t);
	put_align(t.f, 4 * MiB, 16 * KiB);
	put_open_au(t.f, 2, 4 * MiB, 5.0);
	put_open_au(t.f, 4, 4 * MiB, 5.0);
	/* N = 32: time per write constant, the rate halves with the size */
	fprintf(t.f, "$ sudo ./flashbench --open-au --open-au-nr=32 --erasesize=%llu /dev/mmcblk0\n",
		(unsigned long long)(4 * MiB));
	double rate = 5.0;
	for (uint64_t b = 4 * MiB; b >= 16 * KiB; b /= 2, rate /= 2) {
		char r[32];

		put_size(t.f, b);
		snprintf(r, sizeof r, "%.3g%s", rate >= 1 ? rate : rate * 1000, rate >= 1 ? "M/s" : "K/s");
		fprintf(t.f, "%-7s \n", r);
	}
	out = analyze_text(&t);
	CHECK_LACKS(out, "no open-AU limit");
	CHECK_HAS(out, "erase size: 4MiB (high confidence)");
	free(out);
}

/* ---------- the larger erase size >= 1.5x faster ---------- */

/* --open-au at N = 4 at 1 MiB (5 M/s) and 2 MiB (5 * gain M/s), with or without -a. */
static char *two_sizes(double gain, uint64_t align_erase)
{
	struct text t;

	text_open(&t);
	if (align_erase)
		put_align(t.f, align_erase, 16 * KiB);
	put_open_au(t.f, 4, 1 * MiB, 5.0);
	put_open_au(t.f, 4, 2 * MiB, 5.0 * gain);
	return analyze_text(&t);
}

static void test_one_and_a_half_times_faster_sets_a_lower_bound(void)
{
	char *out = two_sizes(1.5, 0);

	CHECK_HAS(out, "1.5x faster at 2MiB than at 1MiB: erase size at least 2MiB");
	CHECK_HAS(out, "erase size: 2MiB (low confidence)");	/* no -a to back it */
	free(out);
}

static void test_just_under_one_and_a_half_says_nothing(void)
{
	char *out = two_sizes(1.48, 0);

	CHECK_LACKS(out, "faster at 2MiB");
	CHECK_LACKS(out, "erase size: 2MiB");
	free(out);
}

static void test_slower_at_the_larger_size_says_nothing(void)
{
	char *out = two_sizes(0.5, 0);

	CHECK_LACKS(out, "faster at");
	free(out);
}

static void test_raises_a_smaller_align_answer_to_medium(void)
{
	char *out = two_sizes(2.0, 1 * MiB);

	CHECK_HAS(out, "erase size at least 2MiB");
	CHECK_HAS(out, "erase size: 2MiB (medium confidence)");
	free(out);
}

static void test_agrees_with_a_larger_align_answer(void)
{
	char *out = two_sizes(2.0, 4 * MiB);

	CHECK_HAS(out, "--open-au agrees: 2.0x faster at 2MiB than at 1MiB");
	CHECK_HAS(out, "erase size: 4MiB (high confidence)");
	free(out);
}


/* ---------- real posts (issue 20): tests/data/posts ---------- */

static char *analyze_post(const char *name)
{
	char path[512], *out = NULL;
	size_t outlen = 0;
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 0;
	snprintf(path, sizeof(path), "%.*s%sdata/posts/%s", dir, __FILE__, dir ? "/" : "", name);
	FILE *o = open_memstream(&out, &outlen);
	CHECK_EQ(analyze_cmd_file(path, false, o), 0);
	fclose(o);
	return out;
}

/* the two 2011 eMMC posts of a patched build ("-0 N"): the experts' 7 and 20, not 1 */
static void test_a_patched_builds_option_gives_n_by_its_sequence(void)
{
	char *out = analyze_post("emmc-2011-patched-open-au-count-7.txt");
	CHECK_HAS(out, "open AUs, linear, 2MiB: 7 (high confidence)");
	CHECK_HAS(out, "warning: option -0 not understood");
	free(out);
	out = analyze_post("emmc-2011-patched-open-au-count-20.txt");
	CHECK_HAS(out, "open AUs, linear, 4MiB: 20 (");
	free(out);
	/* alone, its N is unknown: left out, never the default 2 */
	out = analyze_post("emmc-2011-patched-single-run.txt");
	CHECK_HAS(out, "--open-au run, N unknown (option -0 not understood), linear, 4MiB: holds");
	CHECK_LACKS(out, "open AUs, linear");
	CHECK_HAS(out, "the N of its runs is unknown, not the default");
	free(out);
}

static void test_wrapper_headers_set_n_and_the_mode(void)
{
	char *out = analyze_post("wrapper-script-headers.txt");
	CHECK_HAS(out, "open AUs, linear, 4MiB: 3 (high confidence)");
	CHECK_HAS(out, "open AUs, random, 4MiB: 1 (");
	CHECK_HAS(out, "--open-au run, N not stated, mode unknown, 4MiB: holds");
	free(out);
}

static void test_junk_before_rows_is_stripped_with_a_warning(void)
{
	char *out = analyze_post("junk-before-rows.txt");
	CHECK_HAS(out, "card 1 of 1: 1 -a, 1 --open-au, 0 --find-fat runs");
	CHECK_HAS(out, "erase size: 4MiB (high confidence)");
	CHECK_HAS(out, "page size: 16KiB (high confidence)");
	CHECK_HAS(out, "pieces of junk before or in rows stripped");
	CHECK_HAS(out, "2 cells cut short");
	free(out);
}

static void test_one_column_per_n_is_open_au_runs(void)
{
	char *out = analyze_post("open-au-one-column-per-n.txt");
	CHECK_HAS(out, "0 -a, 4 --open-au, 0 --find-fat runs");
	CHECK_HAS(out, "open AUs, linear, 4MiB: 3 (high confidence)");
	CHECK_LACKS(out, "FAT area");
	free(out);
}

/* "random, 0" says what it means; unstated modes never count as linear */
static void test_no_random_open_block_is_worded_as_what_it_means(void)
{
	struct text t;
	text_open(&t);
	put_align(t.f, 4 * MiB, 16 * KiB);
	put_open_au(t.f, 1, 4 * MiB, 5.0);
	fprintf(t.f, "$ sudo ./flashbench --open-au --open-au-nr=1 --random --erasesize=%llu /dev/mmcblk0\n",
		(unsigned long long)(4 * MiB));
	for (uint64_t b = 4 * MiB; b >= 16 * KiB; b /= 2) {
		put_size(t.f, b);
		/* each write costs an erase-block copy: the rate halves with the size */
		fprintf(t.f, "%.3gM/s\n", 5.0 * (double)b / (double)(4 * MiB));
	}
	char *out = analyze_text(&t);
	CHECK_HAS(out, "open AUs, random, 4MiB: 0 (");
	CHECK_HAS(out, "no erase block can be written out of order without a copy");
	free(out);
}

/* a low -a verdict names the -a run that would settle it, on the posted device */
static void test_an_unsure_align_verdict_says_what_to_rerun(void)
{
	struct text t;
	text_open(&t);
	fprintf(t.f, "$ sudo ./flashbench -a /dev/sdc --blocksize=1024\n");
	/* the PQI levels with +-8%% scatter: the 4 MiB rise cannot be told from noise */
	static const double jit[] = { 0.07, -0.05, 0.08, -0.08, 0.02, -0.03, 0.06, -0.07, 0.01, 0.05,
				      -0.06, 0.03, -0.02, 0.08, -0.04, 0.04, -0.08, 0.07, 0.0, -0.01,
				      0.05, -0.05, 0.03 };
	int i = 0;
	for (uint64_t a = 8ull << 30; a >= 2048; a /= 2, i++) {
		double d = a >= 4 * MiB ? 1100 : a >= 16 * KiB ? 850 : a >= 4096 ? 290 : 2;
		d *= 1 + jit[i % 23];
		fprintf(t.f, "align %llu\tpre 1.2ms\ton %.3gms\tpost 1.2ms\tdiff %.3gµs\n",
			(unsigned long long)a, 1.2 + d / 1000, d);
	}
	char *out = analyze_text(&t);
	CHECK_HAS(out, "page size: 4KiB (medium confidence)");
	CHECK_LACKS(out, "erase size: 4MiB (medium");
	CHECK_LACKS(out, "erase size: 4MiB (high");
	CHECK_HAS(out, "to settle it, rerun: flashbench -a --blocksize=1024 --count=32 /dev/sdc");
	free(out);
}

int main(void)
{
	test_many_open_aus_make_the_erase_size_suspect();
	test_fifteen_open_aus_are_plausible();
	test_a_limit_seen_below_sixteen_is_no_suspicion();
	test_one_and_a_half_times_faster_sets_a_lower_bound();
	test_just_under_one_and_a_half_says_nothing();
	test_slower_at_the_larger_size_says_nothing();
	test_raises_a_smaller_align_answer_to_medium();
	test_agrees_with_a_larger_align_answer();
	test_a_patched_builds_option_gives_n_by_its_sequence();
	test_wrapper_headers_set_n_and_the_mode();
	test_junk_before_rows_is_stripped_with_a_warning();
	test_one_column_per_n_is_open_au_runs();
	test_no_random_open_block_is_worded_as_what_it_means();
	test_an_unsure_align_verdict_says_what_to_rerun();
	return unit_summary();
}
