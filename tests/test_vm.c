/*
 * VM programs run against a temporary regular file (real O_DIRECT I/O)
 * and against sim: cards (deterministic times): result shapes, offsets,
 * lengths, reductions, write patterns, and failed I/O as VR_FAILED.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "dev.h"
#include "unit.h"
#include "vm.h"

#define FILE_SIZE (4u << 20)
#define FILL_BYTE 0x11

static char file_path[] = "/var/tmp/fb-test-vm.XXXXXX";

static int make_file(void)
{
	int fd = mkstemp(file_path);
	if (fd < 0)
		return -1;
	static unsigned char chunk[65536];
	memset(chunk, FILL_BYTE, sizeof chunk);
	for (unsigned off = 0; off < FILE_SIZE; off += sizeof chunk)
		if (pwrite(fd, chunk, sizeof chunk, off) != (ssize_t)sizeof chunk)
			return -1;
	close(fd);
	return 0;
}

/* A device, a program and a context; torn down by end_run(). */
struct run {
	struct dev dev;
	struct vm_program *p;
	struct vm_ctx c;
	bool ok;
};

static bool start_run(struct run *r, const char *path, unsigned flags, uint64_t max_len)
{
	char err[256];
	memset(r, 0, sizeof *r);
	if (dev_open(&r->dev, path, flags, err, sizeof err) != 0) {
		printf("FAIL %s: dev_open(%s): %s\n", __FILE__, path, err);
		unit_failed++;
		return false;
	}
	r->p = vm_new_program();
	if (vm_ctx_init(&r->c, &r->dev, max_len) != 0) {
		printf("FAIL %s: vm_ctx_init\n", __FILE__);
		unit_failed++;
		dev_close(&r->dev);
		return false;
	}
	r->c.on_read_error = VM_ERR_CONTINUE;
	r->c.on_write_error = VM_ERR_CONTINUE;
	r->ok = true;
	return true;
}

static void end_run(struct run *r)
{
	if (!r->ok)
		return;
	vm_ctx_free(&r->c);
	vm_free_program(r->p);
	dev_close(&r->dev);
	r->ok = false;
}

static struct vm_op *op(struct run *r, enum vm_opcode code, int64_t a, int64_t b, struct vm_op *kid)
{
	return vm_op(r->p, code, a, b, kid);
}

static struct vm_op *read_of(struct run *r, int64_t len)
{
	return op(r, VM_LEN_FIXED, len, 0, op(r, VM_READ, 0, 0, NULL));
}

static bool is_failed_without_time(const struct vm_result *x)
{
	return x->kind == VR_FAILED && x->ns == 0 && x->rate == 0;
}

static void test_read_gives_one_sample(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_result *x = vm_run(&r.c, r.p, read_of(&r, 4096), 8192);
	CHECK_EQ(x->kind, VR_SAMPLE);
	CHECK_EQ(x->bytes, 4096);
	CHECK_EQ(x->off, 8192);
	CHECK_GT(x->ns, 0);
	CHECK_EQ(r.c.nfailures, 0);
	CHECK_EQ(r.dev.bytes_read, 4096);
	CHECK_GE(r.dev.device_ns, x->ns);
	end_run(&r);
}

static void test_linear_offsets_are_a_list_in_order(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_op *prog = op(&r, VM_OFF_LIN, 65536, 8, read_of(&r, 4096));
	struct vm_result *x = vm_run(&r.c, r.p, prog, 4096);
	CHECK_EQ(x->kind, VR_LIST);
	CHECK_EQ(x->nitems, 8);
	for (int i = 0; i < x->nitems && x->kind == VR_LIST; i++) {
		CHECK_EQ(x->items[i].kind, VR_SAMPLE);
		CHECK_EQ(x->items[i].off, 4096 + 65536ull * (uint64_t)i);
		CHECK_EQ(x->items[i].bytes, 4096);
	}
	end_run(&r);
}

static void test_random_offsets_visit_each_place_once(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	enum { N = 50 };
	struct vm_op *prog = op(&r, VM_OFF_RAND, 8192, N, read_of(&r, 4096));
	struct vm_result *x = vm_run(&r.c, r.p, prog, 0);
	CHECK(x->kind == VR_LIST && x->nitems == N);
	bool seen[N] = { false }, in_order = true, each_once = true;
	for (int i = 0; i < x->nitems && x->nitems == N; i++) {
		uint64_t slot = x->items[i].off / 8192;
		if (x->items[i].kind != VR_SAMPLE || x->items[i].off % 8192 || slot >= N || seen[slot])
			each_once = false;
		else
			seen[slot] = true;
		if (slot != (uint64_t)i)
			in_order = false;
	}
	CHECK(each_once);
	CHECK(!in_order);
	end_run(&r);
}

static void test_repeat_reads_the_same_place(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_result *x = vm_run(&r.c, r.p, op(&r, VM_REPEAT, 5, 0, read_of(&r, 4096)), 12288);
	CHECK(x->kind == VR_LIST && x->nitems == 5);
	for (int i = 0; i < x->nitems && x->kind == VR_LIST; i++)
		CHECK(x->items[i].kind == VR_SAMPLE && x->items[i].off == 12288);
	CHECK_EQ(r.dev.bytes_read, 5 * 4096);
	end_run(&r);
}

static void check_lengths(const struct vm_result *x, const uint64_t *want, int n, int line)
{
	bool ok = x->kind == VR_LIST && x->nitems == n;
	for (int i = 0; ok && i < n; i++)
		ok = x->items[i].kind == VR_VALUE && x->items[i].bytes == want[i];
	if (ok) {
		unit_passed++;
		return;
	}
	unit_failed++;
	printf("FAIL %s:%d: length list (kind %d, %d items):", __FILE__, line, x->kind, x->nitems);
	for (int i = 0; x->kind == VR_LIST && i < x->nitems; i++)
		printf(" %llu", (unsigned long long)x->items[i].bytes);
	printf("\n");
}

static void test_power_of_two_lengths(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_op *len = op(&r, VM_LENGTH, 0, 0, NULL);
	static const uint64_t down[] = { 65536, 32768, 16384, 8192, 4096 };
	check_lengths(vm_run(&r.c, r.p, op(&r, VM_LEN_POW2_DOWN, 65536, 4096, len), 0), down, 5,
		      __LINE__);
	static const uint64_t up[] = { 4096, 8192, 16384, 32768, 65536 };
	check_lengths(vm_run(&r.c, r.p, op(&r, VM_LEN_POW2_UP, 4096, 65536, len), 0), up, 5,
		      __LINE__);
	/* a 3 MiB erase size halves down through 1.5M, 768K ... and stops above 16K */
	static const uint64_t three[] = { 3145728, 1572864, 786432, 393216, 196608,
					  98304, 49152, 24576 };
	check_lengths(vm_run(&r.c, r.p, op(&r, VM_LEN_POW2_DOWN, 3145728, 16384, len), 0), three,
		      8, __LINE__);
	CHECK_EQ(r.dev.bytes_read, 0);
	end_run(&r);
}

static void test_lengths_drive_the_reads(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 65536))
		return;
	struct vm_op *rd = op(&r, VM_READ, 0, 0, NULL);
	struct vm_result *x = vm_run(&r.c, r.p, op(&r, VM_LEN_POW2_DOWN, 65536, 4096, rd), 0);
	CHECK(x->kind == VR_LIST && x->nitems == 5);
	for (int i = 0; x->kind == VR_LIST && i < x->nitems; i++)
		CHECK(x->items[i].kind == VR_SAMPLE && x->items[i].bytes == 65536u >> i);
	CHECK_EQ(r.dev.bytes_read, 65536 + 32768 + 16384 + 8192 + 4096);
	end_run(&r);
}

static void test_offset_and_length_values(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_op *o = op(&r, VM_OFF_FIXED, 8192, 0, op(&r, VM_OFFSET, 0, 0, NULL));
	struct vm_result *x = vm_run(&r.c, r.p, o, 4096);
	CHECK(x->kind == VR_VALUE && x->bytes == 12288);
	x = vm_run(&r.c, r.p, op(&r, VM_LEN_FIXED, 1536, 0, op(&r, VM_LENGTH, 0, 0, NULL)), 0);
	CHECK(x->kind == VR_VALUE && x->bytes == 1536);
	/* offsets of a linear generator, without I/O */
	x = vm_run(&r.c, r.p, op(&r, VM_OFF_LIN, 1572864, 3, op(&r, VM_OFFSET, 0, 0, NULL)), 512);
	CHECK(x->kind == VR_LIST && x->nitems == 3);
	if (x->kind == VR_LIST && x->nitems == 3)
		CHECK(x->items[0].bytes == 512 && x->items[1].bytes == 512 + 1572864 &&
		      x->items[2].bytes == 512 + 2 * 1572864);
	CHECK_EQ(r.dev.bytes_read, 0);
	end_run(&r);
}

static void test_sequence_keeps_each_child(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 8192))
		return;
	struct vm_op *kids[3] = { read_of(&r, 4096), op(&r, VM_OFFSET, 0, 0, NULL),
				  read_of(&r, 8192) };
	struct vm_result *x = vm_run(&r.c, r.p, vm_seq(r.p, 3, kids), 4096);
	CHECK(x->kind == VR_LIST && x->nitems == 3);
	if (x->kind == VR_LIST && x->nitems == 3) {
		CHECK(x->items[0].kind == VR_SAMPLE && x->items[0].bytes == 4096);
		CHECK(x->items[1].kind == VR_VALUE && x->items[1].bytes == 4096);
		CHECK(x->items[2].kind == VR_SAMPLE && x->items[2].bytes == 8192);
	}
	end_run(&r);
}

/* Shapes of the reductions on real I/O (times differ run to run). */
static void test_reductions_on_a_file(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	/* 4 places x 3 tries, flattened */
	struct vm_op *body = op(&r, VM_OFF_LIN, 65536, 4, op(&r, VM_REPEAT, 3, 0, read_of(&r, 4096)));
	struct vm_result mn = *vm_run(&r.c, r.p, op(&r, VM_MIN, 0, 0, body), 0);
	struct vm_result mx = *vm_run(&r.c, r.p, op(&r, VM_MAX, 0, 0, body), 0);
	struct vm_result avg = *vm_run(&r.c, r.p, op(&r, VM_AVG, 0, 0, body), 0);
	struct vm_result tot = *vm_run(&r.c, r.p, op(&r, VM_TOTAL, 0, 0, body), 0);
	struct vm_result bps = *vm_run(&r.c, r.p, op(&r, VM_BPS, 0, 0, op(&r, VM_TOTAL, 0, 0, body)), 0);
	CHECK(mn.kind == VR_SAMPLE && mx.kind == VR_SAMPLE && avg.kind == VR_SAMPLE);
	CHECK_EQ(tot.kind, VR_SAMPLE);
	CHECK(mn.bytes == 4096 && mx.bytes == 4096 && avg.bytes == 4096);
	CHECK_EQ(tot.bytes, 12 * 4096);
	/* separate runs: only each one's own consistency can be asserted */
	CHECK(mn.ns > 0 && avg.ns > 0 && mx.ns > 0 && tot.ns > 0);
	CHECK(bps.kind == VR_RATE && bps.rate > 0);
	CHECK_EQ(r.c.nfailures, 0);
	end_run(&r);
}

static const char *sim_card = "sim:size=64M,erasesize=4M,pagesize=16K,noise=0";

/* On a sim card times are exact, so reductions can be checked against the list. */
static void test_reductions_match_the_samples_on_a_sim_card(void)
{
	struct run r;
	if (!start_run(&r, sim_card, 0, 16384))
		return;
	/* strides that cross page and erase-block boundaries at some places only */
	struct vm_op *body = op(&r, VM_OFF_LIN, 4194304 - 8192, 8, read_of(&r, 16384));
	struct vm_result list = *vm_run(&r.c, r.p, body, 0);
	CHECK(list.kind == VR_LIST && list.nitems == 8);
	if (list.kind != VR_LIST || list.nitems != 8) {
		end_run(&r);
		return;
	}
	int64_t lo = INT64_MAX, hi = 0, sum = 0;
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(list.items[i].kind, VR_SAMPLE);
		int64_t t = list.items[i].ns;
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
		sum += t;
	}
	CHECK_LT(lo, hi);	/* the model makes boundary crossings slower */
	struct vm_result mn = *vm_run(&r.c, r.p, op(&r, VM_MIN, 0, 0, body), 0);
	struct vm_result mx = *vm_run(&r.c, r.p, op(&r, VM_MAX, 0, 0, body), 0);
	struct vm_result avg = *vm_run(&r.c, r.p, op(&r, VM_AVG, 0, 0, body), 0);
	struct vm_result tot = *vm_run(&r.c, r.p, op(&r, VM_TOTAL, 0, 0, body), 0);
	struct vm_result bps = *vm_run(&r.c, r.p, op(&r, VM_BPS, 0, 0, op(&r, VM_TOTAL, 0, 0, body)), 0);
	CHECK(mn.kind == VR_SAMPLE && mn.ns == lo);
	CHECK(mx.kind == VR_SAMPLE && mx.ns == hi);
	CHECK(avg.kind == VR_SAMPLE && avg.ns == sum / 8);
	CHECK(tot.kind == VR_SAMPLE && tot.ns == sum && tot.bytes == 8 * 16384);
	double want = 8 * 16384 * 1e9 / (double)sum;
	CHECK(bps.kind == VR_RATE && bps.rate > want * 0.999999 && bps.rate < want * 1.000001);
	end_run(&r);
}

static void test_reduction_flattens_a_labelled_list(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_op *inner = vm_out(r.p, "tries", op(&r, VM_REPEAT, 3, 0, read_of(&r, 4096)));
	struct vm_result *x = vm_run(&r.c, r.p, op(&r, VM_TOTAL, 0, 0, inner), 0);
	CHECK_EQ(x->kind, VR_SAMPLE);
	CHECK_EQ(x->bytes, 3 * 4096);
	end_run(&r);
}

static void test_out_labels_and_drop_discards(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	struct vm_result *x = vm_run(&r.c, r.p, vm_out(r.p, "pre", read_of(&r, 4096)), 0);
	CHECK_EQ(x->kind, VR_SAMPLE);
	CHECK_STR(x->label, "pre");
	uint64_t before = r.dev.bytes_read;
	x = vm_run(&r.c, r.p, op(&r, VM_DROP, 0, 0, op(&r, VM_REPEAT, 2, 0, read_of(&r, 4096))), 0);
	CHECK_EQ(x->kind, VR_NONE);
	CHECK_EQ(r.dev.bytes_read, before + 2 * 4096);	/* the I/O still happened */
	end_run(&r);
}

/* Reads 4 KiB of the test file at off, bypassing the tool. */
static void file_bytes(uint64_t off, unsigned char *out)
{
	int fd = open(file_path, O_RDONLY);
	if (fd < 0 || pread(fd, out, 4096, (off_t)off) != 4096)
		memset(out, 0xee, 4096);
	if (fd >= 0)
		close(fd);
}

static bool all_bytes(const unsigned char *b, unsigned char v)
{
	for (int i = 0; i < 4096; i++)
		if (b[i] != v)
			return false;
	return true;
}

static void test_write_patterns_land_in_the_file(void)
{
	struct run r;
	if (!start_run(&r, file_path, DEV_WRITE, 4096))
		return;
	static const enum vm_opcode codes[] = { VM_WRITE_ZERO, VM_WRITE_ONES, VM_WRITE_5A,
						VM_WRITE_RANDOM };
	for (int i = 0; i < 4; i++) {
		struct vm_op *w = op(&r, VM_LEN_FIXED, 4096, 0, op(&r, codes[i], 0, 0, NULL));
		struct vm_result *x = vm_run(&r.c, r.p, w, 1048576 + 4096 * (uint64_t)i);
		CHECK(x->kind == VR_SAMPLE && x->bytes == 4096 && x->ns > 0);
	}
	CHECK_EQ(r.dev.bytes_written, 4 * 4096);
	end_run(&r);

	unsigned char b[4096];
	file_bytes(1048576, b);
	CHECK(all_bytes(b, 0x00));
	file_bytes(1048576 + 4096, b);
	CHECK(all_bytes(b, 0xff));
	file_bytes(1048576 + 8192, b);
	CHECK(all_bytes(b, 0x5a));
	file_bytes(1048576 + 12288, b);
	int distinct = 0;
	bool seen[256] = { false };
	for (int i = 0; i < 4096; i++)
		if (!seen[b[i]]) {
			seen[b[i]] = true;
			distinct++;
		}
	CHECK_GT(distinct, 200);
	/* neighbours untouched */
	file_bytes(1048576 - 4096, b);
	CHECK(all_bytes(b, FILL_BYTE));
	file_bytes(1048576 + 16384, b);
	CHECK(all_bytes(b, FILL_BYTE));
}

static void test_failed_write_is_failed_not_a_time(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))	/* read-only: writes fail with EBADF */
		return;
	struct vm_op *w = op(&r, VM_LEN_FIXED, 4096, 0, op(&r, VM_WRITE_ZERO, 0, 0, NULL));
	struct vm_result *x = vm_run(&r.c, r.p, w, 65536);
	CHECK(is_failed_without_time(x));
	CHECK_EQ(x->err, EBADF);
	CHECK_EQ(r.c.nfailures, 1);
	CHECK_EQ(r.c.first_failure.off, 65536);
	CHECK_EQ(r.c.first_failure.len, 4096);
	CHECK_EQ(r.c.first_failure.err, EBADF);
	CHECK_EQ(r.c.first_failure.op, VM_WRITE_ZERO);
	x = vm_run(&r.c, r.p, op(&r, VM_BPS, 0, 0, op(&r, VM_TOTAL, 0, 0, w)), 0);
	CHECK(is_failed_without_time(x));
	CHECK_EQ(r.dev.bytes_written, 0);
	end_run(&r);
}

static void test_read_past_the_end_fails_untouched(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 8192))
		return;
	struct vm_result *x = vm_run(&r.c, r.p, read_of(&r, 8192), FILE_SIZE - 4096);
	CHECK(is_failed_without_time(x));
	CHECK_EQ(x->err, EINVAL);
	x = vm_run(&r.c, r.p, read_of(&r, 4096), FILE_SIZE);
	CHECK(is_failed_without_time(x));
	/* misaligned length: rejected, not timed */
	x = vm_run(&r.c, r.p, read_of(&r, 1000), 0);
	CHECK(is_failed_without_time(x));
	CHECK_EQ(r.c.nfailures, 3);
	CHECK_EQ(r.dev.bytes_read, 0);
	end_run(&r);
}

static void test_one_failed_sample_fails_the_reduction(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	/* the last of 4 places lies past the end */
	struct vm_op *body = op(&r, VM_OFF_LIN, 1048576, 4, read_of(&r, 4096));
	struct vm_result *x = vm_run(&r.c, r.p, op(&r, VM_MIN, 0, 0, body), 1048576);
	CHECK(is_failed_without_time(x));
	x = vm_run(&r.c, r.p, op(&r, VM_AVG, 0, 0, body), 1048576);
	CHECK(is_failed_without_time(x));
	x = vm_run(&r.c, r.p, op(&r, VM_BPS, 0, 0, op(&r, VM_TOTAL, 0, 0, body)), 1048576);
	CHECK(is_failed_without_time(x));
	/* the list itself keeps the good samples and marks the bad one */
	x = vm_run(&r.c, r.p, body, 1048576);
	CHECK(x->kind == VR_LIST && x->nitems == 4);
	if (x->kind == VR_LIST && x->nitems == 4) {
		CHECK(x->items[0].kind == VR_SAMPLE && x->items[2].kind == VR_SAMPLE);
		CHECK(is_failed_without_time(&x->items[3]));
	}
	end_run(&r);
}

static void test_io_error_on_a_sim_card(void)
{
	struct run r;
	if (!start_run(&r, "sim:size=64M,erasesize=4M,fail-at=8388608", 0, 16384))
		return;
	struct vm_op *body = op(&r, VM_OFF_LIN, 4194304, 4, read_of(&r, 16384));
	struct vm_result *x = vm_run(&r.c, r.p, body, 0);
	CHECK(x->kind == VR_LIST && x->nitems == 4);
	if (x->kind == VR_LIST && x->nitems == 4) {
		CHECK_EQ(x->items[1].kind, VR_SAMPLE);
		CHECK(is_failed_without_time(&x->items[2]));
		CHECK_EQ(x->items[2].err, EIO);
		CHECK_EQ(x->items[3].kind, VR_SAMPLE);	/* reads continue by default */
	}
	CHECK_EQ(r.c.nfailures, 1);
	CHECK(r.c.first_failure.off == 8388608 && r.c.first_failure.err == EIO);
	CHECK(!r.c.stopped);
	end_run(&r);
}

static void test_stop_on_error_runs_nothing_more(void)
{
	struct run r;
	if (!start_run(&r, "sim:size=64M,erasesize=4M,fail-at=8388608", 0, 16384))
		return;
	r.c.on_read_error = VM_ERR_STOP;
	struct vm_op *body = op(&r, VM_OFF_LIN, 4194304, 4, read_of(&r, 16384));
	struct vm_result *x = vm_run(&r.c, r.p, body, 0);
	CHECK(r.c.stopped);
	CHECK_EQ(r.c.nfailures, 1);
	CHECK_EQ(r.dev.bytes_read, 2 * 16384);
	if (x->kind == VR_LIST && x->nitems == 4)
		CHECK(is_failed_without_time(&x->items[3]));
	else
		CHECK_EQ(x->kind, VR_LIST);
	end_run(&r);
}

static void test_stop_request_interrupts_before_io(void)
{
	struct run r;
	if (!start_run(&r, file_path, 0, 4096))
		return;
	vm_stop_requested = 1;
	struct vm_result *x = vm_run(&r.c, r.p, op(&r, VM_REPEAT, 3, 0, read_of(&r, 4096)), 0);
	vm_stop_requested = 0;
	CHECK(r.c.interrupted && r.c.stopped);
	CHECK_EQ(r.dev.bytes_read, 0);
	CHECK(x->kind != VR_SAMPLE && x->kind != VR_RATE);
	if (x->kind == VR_LIST)
		for (int i = 0; i < x->nitems; i++)
			CHECK(is_failed_without_time(&x->items[i]));
	end_run(&r);
}

static void test_max_length(void)
{
	struct vm_program *p = vm_new_program();
	struct vm_op *rd = vm_op(p, VM_READ, 0, 0, NULL);
	CHECK_EQ(vm_max_length(rd), 0);
	CHECK_EQ(vm_max_length(vm_op(p, VM_LEN_FIXED, 65536, 0, rd)), 65536);
	CHECK_EQ(vm_max_length(vm_op(p, VM_LEN_POW2_DOWN, 3145728, 16384, rd)), 3145728);
	CHECK_EQ(vm_max_length(vm_op(p, VM_LEN_POW2_UP, 4096, 1048576, rd)), 1048576);
	struct vm_op *kids[2] = { vm_op(p, VM_LEN_FIXED, 8192, 0, rd),
				  vm_op(p, VM_MIN, 0, 0,
					vm_op(p, VM_REPEAT, 4, 0,
					      vm_op(p, VM_LEN_FIXED, 131072, 0, rd))) };
	CHECK_EQ(vm_max_length(vm_seq(p, 2, kids)), 131072);
	vm_free_program(p);
}

int main(void)
{
	if (make_file() != 0) {
		printf("FAIL cannot create %s\n", file_path);
		return 1;
	}
	test_read_gives_one_sample();
	test_linear_offsets_are_a_list_in_order();
	test_random_offsets_visit_each_place_once();
	test_repeat_reads_the_same_place();
	test_power_of_two_lengths();
	test_lengths_drive_the_reads();
	test_offset_and_length_values();
	test_sequence_keeps_each_child();
	test_reductions_on_a_file();
	test_reductions_match_the_samples_on_a_sim_card();
	test_reduction_flattens_a_labelled_list();
	test_out_labels_and_drop_discards();
	test_write_patterns_land_in_the_file();
	test_failed_write_is_failed_not_a_time();
	test_read_past_the_end_fails_untouched();
	test_one_failed_sample_fails_the_reduction();
	test_io_error_on_a_sim_card();
	test_stop_on_error_runs_nothing_more();
	test_stop_request_interrupts_before_io();
	test_max_length();
	unlink(file_path);
	return unit_summary();
}
