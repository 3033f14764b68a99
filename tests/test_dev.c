/*
 * The device layer's front (dev.c) with backends plugged in by the test:
 * a recording one and a failing one. dev.c checks ranges and permissions
 * and keeps the accounting; the backend sees only requests that pass.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"
#include "sim/sim.h"
#include "unit.h"

struct call {
	char op;		/* 'r', 'w', 'd' (discard), 'c' (copy in), 'C' (copy out), 'x' (close) */
	uint64_t len, off;
};

struct recorder {
	struct call calls[16];
	int n;
	int fail;		/* -errno every call returns; 0: success */
	int64_t ns;		/* what the "clock" says each I/O took */
};

static struct recorder *rec(const struct dev *d)
{
	return d->priv;
}

static int note(struct dev *d, char op, uint64_t len, uint64_t off)
{
	struct recorder *r = rec(d);
	if (r->n < 16)
		r->calls[r->n++] = (struct call){ op, len, off };
	return r->fail;
}

static int rec_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			int64_t *ns)
{
	(void)buf;
	*ns = rec(d)->ns;
	return note(d, write ? 'w' : 'r', len, off);
}

static int rec_discard(struct dev *d, uint64_t off, uint64_t len, int64_t *ns)
{
	*ns = rec(d)->ns;
	return note(d, 'd', len, off);
}

static int rec_copy(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write)
{
	(void)buf;
	return note(d, write ? 'C' : 'c', len, off);
}

static void rec_close(struct dev *d)
{
	note(d, 'x', 0, 0);
}

static const struct dev_ops recording_ops = {
	.kind = "recording",
	.transfer = rec_transfer,
	.discard = rec_discard,
	.copy = rec_copy,
	.close = rec_close,
};

static void check_call(const struct recorder *r, int i, char op, uint64_t len, uint64_t off)
{
	CHECK_GT(r->n, i);
	if (r->n <= i)
		return;
	CHECK_EQ(r->calls[i].op, op);
	CHECK_EQ(r->calls[i].len, len);
	CHECK_EQ(r->calls[i].off, off);
}

static void test_requests_reach_the_backend(void)
{
	struct recorder r = { .ns = 1234 };
	struct dev d;
	char buf[1024];
	int64_t ns = 0;

	dev_attach(&d, "rec", &recording_ops, &r, 1 << 20, 512, true);
	CHECK_EQ(dev_read(&d, buf, 1024, 4096, &ns), 0);
	CHECK_EQ(ns, 1234);
	CHECK_EQ(dev_write(&d, buf, 512, 0, &ns), 0);
	CHECK_EQ(dev_discard(&d, 8192, 4096, &ns), 0);
	CHECK_EQ(dev_pread_all(&d, buf, 512, 512), 0);
	CHECK_EQ(dev_pwrite_all(&d, buf, 1024, 1024), 0);
	dev_close(&d);
	dev_close(&d);		/* a second close reaches nothing */
	CHECK_EQ(r.n, 6);
	check_call(&r, 0, 'r', 1024, 4096);
	check_call(&r, 1, 'w', 512, 0);
	check_call(&r, 2, 'd', 4096, 8192);
	check_call(&r, 3, 'c', 512, 512);
	check_call(&r, 4, 'C', 1024, 1024);
	check_call(&r, 5, 'x', 0, 0);
	/* every byte is counted, untimed copies (--preserve) too, each by its purpose */
	CHECK_EQ(d.bytes_read, 1024u + 512u);
	CHECK_EQ(d.bytes_written, 512u + 1024u);
	CHECK_EQ(d.traffic.read[IO_MEASURE], 1024u);
	CHECK_EQ(d.traffic.written[IO_MEASURE], 512u);
	CHECK_EQ(d.traffic.read[IO_SAVE], 512u);
	CHECK_EQ(d.traffic.written[IO_RESTORE], 1024u);
	dev_count(&d, IO_VERIFY, 4096, 0);
	CHECK_EQ(d.traffic.read[IO_VERIFY], 4096u);
	CHECK_EQ(d.bytes_read, 1024u + 512u + 4096u);
	CHECK_EQ(d.bytes_discarded, 4096u);
	CHECK_EQ(d.device_ns, 3 * 1234);
}

static void test_bad_requests_stop_in_front(void)
{
	struct recorder r = { .ns = 1 };
	struct dev d;
	char buf[1024];
	int64_t ns = -7;

	dev_attach(&d, "rec", &recording_ops, &r, 1 << 20, 512, true);
	CHECK_EQ(dev_read(&d, buf, 100, 0, &ns), -EINVAL);		/* not whole blocks */
	CHECK_EQ(dev_read(&d, buf, 512, 100, &ns), -EINVAL);
	CHECK_EQ(dev_read(&d, buf, 0, 0, &ns), -EINVAL);		/* nothing */
	CHECK_EQ(dev_write(&d, buf, 1024, (1 << 20) - 512, &ns), -EINVAL);	/* past the end */
	CHECK_EQ(dev_discard(&d, 1 << 20, 512, &ns), -EINVAL);
	CHECK_EQ(dev_pread_all(&d, buf, 512, 1 << 20), -EINVAL);
	dev_attach(&d, "rec", &recording_ops, &r, 1 << 20, 512, false);	/* read-only */
	CHECK_EQ(dev_write(&d, buf, 512, 0, &ns), -EBADF);
	CHECK_EQ(dev_discard(&d, 0, 512, &ns), -EBADF);
	CHECK_EQ(dev_pwrite_all(&d, buf, 512, 0), -EBADF);
	CHECK_EQ(r.n, 0);
	CHECK_EQ(ns, -7);
	CHECK_EQ(d.bytes_read + d.bytes_written + d.bytes_discarded, 0u);
}

/* A failed I/O stores no time and counts nothing: no number from a failed I/O. */
static void test_failures_pass_through_uncounted(void)
{
	struct recorder r = { .fail = -EIO, .ns = 99 };
	struct dev d;
	char buf[512];
	int64_t ns = -7;

	dev_attach(&d, "failing", &recording_ops, &r, 1 << 20, 512, true);
	CHECK_EQ(dev_read(&d, buf, 512, 0, &ns), -EIO);
	CHECK_EQ(dev_write(&d, buf, 512, 0, &ns), -EIO);
	CHECK_EQ(dev_discard(&d, 0, 512, &ns), -EIO);
	CHECK_EQ(dev_pread_all(&d, buf, 512, 0), -EIO);
	CHECK_EQ(ns, -7);
	CHECK_EQ(d.device_ns, 0);
	CHECK_EQ(d.bytes_read + d.bytes_written + d.bytes_discarded, 0u);
	CHECK_EQ(r.n, 4);
}

/* What a backend leaves out has a safe default. */
static void test_questions_have_defaults(void)
{
	struct recorder r = { 0 };
	static const struct dev_ops bare = { .transfer = rec_transfer, .copy = rec_copy };
	struct dev d;
	char out[64];
	int64_t ns;

	dev_attach(&d, "bare", &bare, &r, 4096, 512, true);
	CHECK_STR(dev_kind(&d), "unknown");
	CHECK(!dev_simulated(&d));
	CHECK(dev_stores_data(&d));
	CHECK_EQ(dev_keep_data(&d, true), 0);
	dev_identity(&d, out, sizeof out);
	CHECK_STR(out, "");
	dev_canonical_name(&d, out, sizeof out);
	CHECK_STR(out, "bare");
	CHECK_EQ(dev_discard(&d, 0, 512, &ns), -EOPNOTSUPP);
	dev_close(&d);
	CHECK_EQ(r.n, 0);
}

static void test_dev_open_chooses_the_backend(void)
{
	char img[] = "/tmp/fb-test-dev-XXXXXX", err[256], out[4200];
	struct dev d;
	int fd = mkstemp(img);

	CHECK_GE(fd, 0);
	CHECK_EQ(ftruncate(fd, 1 << 20), 0);
	close(fd);
	CHECK_EQ(dev_open(&d, img, 0, err, sizeof err), 0);
	CHECK_STR(dev_kind(&d), "regular_file");
	CHECK(!dev_simulated(&d));
	CHECK(dev_stores_data(&d));
	dev_canonical_name(&d, out, sizeof out);
	CHECK_STR(out, img);
	dev_identity(&d, out, sizeof out);
	CHECK(strncmp(out, "file:", 5) == 0);
	dev_close(&d);
	CHECK_EQ(d.fd, -1);
	unlink(img);

	CHECK_EQ(dev_open(&d, "sim:sdhc-good", DEV_WRITE, err, sizeof err), 0);
	CHECK_STR(dev_kind(&d), "simulated");
	CHECK(dev_simulated(&d));
	CHECK(!dev_stores_data(&d));
	dev_identity(&d, out, sizeof out);
	CHECK_STR(out, "sim:sdhc-good");
	dev_close(&d);
	CHECK(d.sim == NULL);
	CHECK(dev_path_is_sim("sim:x"));
	CHECK(!dev_path_is_sim("/tmp/sim:x"));
}

/* ------------------------------------------------------------ dev_idle */

static int64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A sim: card's pause is virtual: its clock moves on, its buffer drains, no I/O is counted. */
static void test_idle_on_a_simulated_card(void)
{
	char err[256];
	struct dev d;
	int64_t first, full = 0, after;
	char *buf = dev_alloc_buffer(64 * 1024);

	CHECK_EQ(dev_open(&d, "sim:size=64M,buffer=1M", DEV_WRITE, err, sizeof err), 0);
	CHECK_EQ(dev_write(&d, buf, 64 * 1024, 0, &first), 0);
	for (int i = 1; i < 64; i++)
		CHECK_EQ(dev_write(&d, buf, 64 * 1024, (uint64_t)i * 64 * 1024, &full), 0);
	CHECK_GT(full, first * 3 / 2);	/* the buffer is full: the card's rate, not the bus */
	int64_t clock = sim_now(d.sim), device = d.device_ns;
	uint64_t written = d.bytes_written;
	CHECK_EQ(dev_idle(&d, 2000000000ull), 0);
	CHECK_EQ(sim_now(d.sim) - clock, 2000000000);
	CHECK_EQ(d.idle_ns, 2000000000);
	CHECK_EQ(d.device_ns, device);
	CHECK_EQ(d.bytes_written, written);
	CHECK_EQ(dev_write(&d, buf, 64 * 1024, 8 << 20, &after), 0);
	CHECK_EQ(after, first);	/* drained while idle */
	dev_close(&d);
	free(buf);
}

static volatile sig_atomic_t stop_flag, alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void on_alarm_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void alarm_in(void (*fn)(int), long us)
{
	struct sigaction sa = { .sa_handler = fn };
	struct itimerval it = { .it_value = { 0, us } };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Elsewhere a pause is a sleep to a deadline (never shorter: CLOCK_MONOTONIC
 * sleeps are at least as long as asked); a signal that asks for no stop does
 * not cut it short; one that sets the stop flag does (or stops it beginning).
 */
static void test_idle_sleeps_elsewhere(void)
{
	struct recorder r = { .ns = 1 };
	struct dev d;

	dev_attach(&d, "rec", &recording_ops, &r, 1 << 20, 512, true);
	dev_stop_flag = &stop_flag;
	int64_t t0 = monotonic_ns();
	CHECK_EQ(dev_idle(&d, 3000000), 0);
	CHECK_GE(monotonic_ns() - t0, 3000000);
	CHECK_EQ(r.n, 0);	/* no I/O */

	alarms = 0;
	alarm_in(on_alarm, 5000);
	t0 = monotonic_ns();
	CHECK_EQ(dev_idle(&d, 60000000), 0);
	CHECK_GE(monotonic_ns() - t0, 60000000);
	CHECK_EQ(alarms, 1);
	CHECK_EQ(d.idle_ns, 63000000);

	alarm_in(on_alarm_stop, 5000);
	CHECK_EQ(dev_idle(&d, 600000000000ull), -EINTR);	/* ten minutes, cut short */
	CHECK_EQ(d.idle_ns, 63000000);
	CHECK_EQ(dev_idle(&d, 1000000), -EINTR);		/* stopping: no pause begins */
	signal(SIGALRM, SIG_DFL);
	stop_flag = 0;
	dev_stop_flag = NULL;
}

int main(void)
{
	test_requests_reach_the_backend();
	test_bad_requests_stop_in_front();
	test_failures_pass_through_uncounted();
	test_questions_have_defaults();
	test_dev_open_chooses_the_backend();
	test_idle_on_a_simulated_card();
	test_idle_sleeps_elsewhere();
	return unit_summary();
}
