/*
 * The text renderers against the original's lines, byte for byte: the
 * sample lines of doc/output-formats.md, fed the values
 * they show (no timing enters).
 */
#include <stdlib.h>

#include "report/report.h"
#include "unit.h"

static char *render_buf;
static size_t render_len;

/* Runs fn(f, arg) into a string (valid until the next RENDER). */
#define RENDER(fn, arg) ({						\
	free(render_buf);						\
	render_buf = NULL;						\
	FILE *f_ = open_memstream(&render_buf, &render_len);		\
	fn(f_, arg);							\
	fclose(f_);							\
	(const char *)render_buf;					\
})

static void test_align(void)
{
	struct align_row rows[] = {
		{ .align = 1073741824, .pre_ns = 872000, .on_ns = 921000, .post_ns = 873000, .diff_ns = 48500 },
		{ .align = 4194304, .pre_ns = 1030000, .on_ns = 1120000, .post_ns = 1030000, .diff_ns = 95600 },
		{ .align = 2048, .pre_ns = 974000, .on_ns = 977000, .post_ns = 973000, .diff_ns = 3650 },
	};
	struct align_result r = { .nrows = 3, .rows = rows };
	CHECK_STR(RENDER(text_align, &r),
		  "align 1073741824\tpre 872µs\ton 921µs\tpost 873µs\tdiff 48.5µs\n"
		  "align 4194304\tpre 1.03ms\ton 1.12ms\tpost 1.03ms\tdiff 95.6µs\n"
		  "align 2048\tpre 974µs\ton 977µs\tpost 973µs\tdiff 3.65µs\n");
}

static void test_open_au(void)
{
	struct rate_row rows[3] = {
		{ .blocksize = 4 << 20, .ncols = 1, .rate = { 3.57e6 } },
		{ .blocksize = 2 << 20, .ncols = 1, .rate = { 4.76e6 } },
		{ .blocksize = 4 << 10, .ncols = 1, .rate = { 3.78e6 } },
	};
	struct rate_result r = { .nrows = 3, .rows = rows };
	CHECK_STR(RENDER(text_rates, &r),
		  "4MiB    3.57M/s \n"
		  "2MiB    4.76M/s \n"
		  "4KiB    3.78M/s \n");
}

/*
 * --find-fat: each rate field 7 bytes and two spaces (the size field 7 and
 * one), as tests/data/original/f-default/stdout.
 */
static void test_find_fat(void)
{
	struct rate_row row = { .blocksize = 4 << 20, .ncols = 6,
				.rate = { 5.27e6, 2.77e6, 3.32e6, 4.81e6, 4.75e6, 4.7e6 } };
	struct rate_result r = { .nrows = 1, .rows = &row, .find_fat = true };
	CHECK_STR(RENDER(text_rates, &r),
		  "4MiB    5.27M/s  2.77M/s  3.32M/s  4.81M/s  4.75M/s  4.7M/s   \n");
	struct rate_row one = { .blocksize = 16 << 10, .ncols = 2, .rate = { 12.3e6, 20e6 } };
	r.rows = &one;
	CHECK_STR(RENDER(text_rates, &r), "16KiB   12.3M/s  20M/s    \n");
	struct rate_row doc = { .blocksize = 4 << 20, .ncols = 6,
				.rate = { 20e6, 20e6, 20e6, 19.8e6, 20e6, 20e6 } };
	r.rows = &doc;	/* the sample line of doc/output-formats.md */
	CHECK_STR(RENDER(text_rates, &r),
		  "4MiB    20M/s    20M/s    20M/s    19.8M/s  20M/s    20M/s    \n");
}

static void test_three_times_pow2_sizes(void)
{
	struct rate_row rows[4] = {
		{ .blocksize = 6 << 20, .ncols = 1, .rate = { 7.63e6 } },
		{ .blocksize = 3 << 20, .ncols = 1, .rate = { 4.45e6 } },
		{ .blocksize = 3 << 19, .ncols = 1, .rate = { 4.43e6 } },
		{ .blocksize = 768 << 10, .ncols = 1, .rate = { 2.38e6 } },
	};
	struct rate_result r = { .nrows = 4, .rows = rows };
	CHECK_STR(RENDER(text_rates, &r),
		  "6MiB    7.63M/s \n3MiB    4.45M/s \n1.5MiB  4.43M/s \n768KiB  2.38M/s \n");
}

static void test_scatter(void)
{
	struct scatter_point pts[] = { { .off = 0, .min_ns = 14953 }, { .off = 16384, .min_ns = 14694 } };
	struct scatter_result r = { .npoints = 2, .points = pts };
	CHECK_STR(RENDER(text_scatter, &r), "0.000000\t0.014953\n0.015625\t0.014694\n");
}

static void test_interval(void)
{
	struct interval_row row = { .bytes = 512, .min_ns = 11098, .avg_ns = 22100, .max_ns = 88900,
				    .rate = 512 * 1e9 / 11098 };
	struct interval_result r = { .nrows = 1, .rows = &row, .fit = FIT_OK,
				     .fit_slope = 1e9f / 5143.31e6f, .fit_rate = 5143.31e6,
				     .fit_access_ns = 5371 };
	CHECK_STR(RENDER(text_interval, &r),
		  "512 bytes: min 11.1µs avg 22.1µs max 88.9µs: 46.1344 MB/s\n"
		  "5143.31 MB/s, 5.37µs access time\n"
		  "bytes 512, time 11098 overhead 5627.45\n");
}

/*
 * The overhead in the original's single precision: the last line of
 * tests/data/original/i-order12/stdout (its fit: 0.0999998152 ns per byte,
 * 999 ns), which double precision prints as 0.59375x.
 */
static void test_interval_overhead_is_single_precision(void)
{
	struct interval_row row = { .bytes = 1048576, .min_ns = 105857, .avg_ns = 105857,
				    .max_ns = 105857, .rate = 1048576 * 1e9 / 105857 };
	struct interval_result r = { .nrows = 1, .rows = &row, .fit = FIT_OK,
				     .fit_slope = 0.0999998152f, .fit_rate = 1e9 / 0.0999998152,
				     .fit_access_ns = 999 };
	const char *out = RENDER(text_interval, &r);
	CHECK(strstr(out, "10000 MB/s, 999ns access time\n") != NULL);
	CHECK(strstr(out, "bytes 1048576, time 105857 overhead 0.59375\n") != NULL);
}

/* Sizes below the logical block size are not read: said so, no number. */
static void test_interval_row_below_the_block_size(void)
{
	struct interval_row row = { .bytes = 512, .failed = true, .too_small = true };
	struct interval_result r = { .nrows = 1, .rows = &row, .fit = FIT_TOO_FEW_SIZES };
	const char *out = RENDER(text_interval, &r);
	CHECK(strstr(out, "512 bytes: not read: below the logical block size\n") != NULL);
	CHECK(strstr(out, "bytes 512, not read\n") != NULL);
}

/* -p: the size and 8 unlabelled rates, the --find-fat field layout. */
static void test_program(void)
{
	struct program_row cells[PROGRAM_COLUMNS];
	const double rates[PROGRAM_COLUMNS] = { 13.2e6, 13.1e6, 12.9e6, 20e6, 872e3, 6.05e3, 1.5e6, 19.9e6 };
	for (int c = 0; c < PROGRAM_COLUMNS; c++)
		cells[c] = (struct program_row){ .label = program_labels[c], .blocksize = 2 << 20,
						 .rate = rates[c] };
	struct program_result r = { .nrows = PROGRAM_COLUMNS, .rows = cells };
	CHECK_STR(RENDER(text_program, &r),
		  "2MiB    13.2M/s  13.1M/s  12.9M/s  20M/s    872K/s   6.05K/s  1.5M/s   19.9M/s  \n");
}

int main(void)
{
	test_align();
	test_open_au();
	test_find_fat();
	test_three_times_pow2_sizes();
	test_scatter();
	test_interval();
	test_interval_overhead_is_single_precision();
	test_interval_row_below_the_block_size();
	test_program();
	free(render_buf);
	return unit_summary();
}
