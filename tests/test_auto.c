/*
 * auto_run() on simulated cards, called directly: what it writes (nothing
 * without --destructive, never more than max_write with it), its exit
 * status, and the verdict lines of its report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "auto/auto.h"
#include "dev.h"
#include "measure/measure.h"
#include "unit.h"

#define MiB (1024ull * 1024)

struct outcome {
	int rc;
	uint64_t written, read;
	char *text;
};

static struct outcome run_auto(const char *spec, bool destructive, bool json, uint64_t max_write)
{
	struct outcome r = { .rc = -1 };
	struct dev d;
	struct params p;
	char err[256] = "";
	size_t len = 0;

	if (dev_open(&d, spec, destructive ? DEV_WRITE : 0, err, sizeof(err)) != 0) {
		printf("dev_open(%s): %s\n", spec, err);
		return r;
	}
	params_defaults(&p);
	struct auto_opts o = { .destructive = destructive, .json = json, .max_write = max_write,
			       .device_name = spec };
	FILE *f = open_memstream(&r.text, &len);
	r.rc = auto_run(&d, &p, &o, f);
	fclose(f);
	r.written = d.bytes_written;
	r.read = d.bytes_read;
	dev_close(&d);
	return r;
}

static bool has(const struct outcome *r, const char *needle)
{
	bool found = r->text && strstr(r->text, needle);
	if (!found)
		printf("report lacks \"%s\"\n", needle);
	return found;
}

static void read_only_run_writes_nothing(void)
{
	struct outcome r = run_auto("sim:sdhc-good", false, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK_EQ(r.written, 0);
	CHECK_GT(r.read, 0);
	CHECK(has(&r, "erase block size       4MiB ("));
	CHECK(has(&r, "flashbench --auto --destructive sim:sdhc-good"));
	free(r.text);
}

static void device_too_small_for_alignment_is_a_usage_error_without_io(void)
{
	struct outcome r = run_auto("sim:size=2048,erasesize=2048,pagesize=512", false, false, 0);
	CHECK_EQ(r.rc, 2);
	CHECK(r.read == 0 && r.written == 0);
	free(r.text);
}

static void destructive_run_stays_under_max_write(void)
{
	struct outcome r = run_auto("sim:microsd-cheap", true, true, 64 * MiB);
	CHECK_EQ(r.rc, 0);
	CHECK(r.written > 0 && r.written <= 64 * MiB);
	CHECK(has(&r, "\"max_write_bytes\": 67108864"));
	free(r.text);
}

static void destructive_run_finds_a_cheap_cards_single_open_block(void)
{
	struct outcome r = run_auto("sim:microsd-cheap", true, false, 0);
	CHECK_EQ(r.rc, 0);
	CHECK(has(&r, "open erase blocks      1 (high confidence)"));
	CHECK(has(&r, "open, random writes    0 ("));
	CHECK(has(&r, "Only 1 erase block stays open"));
	free(r.text);
}

int main(void)
{
	if (!freopen("/dev/null", "w", stderr))	/* auto_run's usage message */
		return 1;
	read_only_run_writes_nothing();
	device_too_small_for_alignment_is_a_usage_error_without_io();
	destructive_run_stays_under_max_write();
	destructive_run_finds_a_cheap_cards_single_open_block();
	return unit_summary();
}
