/*
 * Progress: a line on a terminal after a second, nothing on a pipe, cheap
 * ticks. What is drawn when follows the clock: the test runs itself on the
 * virtual clock of tests/vclock.c (built beside it), on which its steps and
 * the progress thread's wake-ups take the same time on a busy machine as on
 * a quiet one, and no time at all.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

#include "lib/progress.h"
#include "lib/progress_eta.h"

/* Runs this program again with tests/vclock.c preloaded, unless it is so already. */
static void on_the_virtual_clock(char **argv)
{
	char so[PATH_MAX], opts[512];
	const char *asan = getenv("ASAN_OPTIONS");

	if (dlsym(RTLD_DEFAULT, "vclock_now_ns"))
		return;
	if (getenv("VCLOCK_TRIED")) {
		printf("FAIL: tests/vclock.c is not preloaded: %s\n", getenv("LD_PRELOAD"));
		exit(1);
	}
	ssize_t n = readlink("/proc/self/exe", so, sizeof so - 16);
	char *slash = n > 0 ? memrchr(so, '/', (size_t)n) : NULL;
	if (!slash) {
		printf("FAIL: where is this program?\n");
		exit(1);
	}
	strcpy(slash, "/vclock.so");	/* make builds it beside the unit tests */
	snprintf(opts, sizeof opts, "%s%sverify_asan_link_order=0", asan ? asan : "", asan ? ":" : "");
	setenv("ASAN_OPTIONS", opts, 1);
	setenv("LD_PRELOAD", so, 1);
	setenv("VCLOCK_TRIED", "1", 1);
	fflush(stdout);
	execv("/proc/self/exe", argv);
	printf("FAIL: cannot run again with %s\n", so);
	exit(1);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Clock reads so far (tests/vclock.c counts them). */
static uint64_t clock_reads(void)
{
	uint64_t (*reads)(void) = (uint64_t (*)(void))dlsym(RTLD_DEFAULT, "vclock_reads");

	return reads ? reads() : UINT64_MAX;
}

/* Ticks for about `secs` seconds, 4 MiB per tick up to total ticks. */
static void run_step(double secs, uint64_t total)
{
	double end = seconds() + secs;
	uint64_t i = 0;

	while (seconds() < end) {
		if (i < total)
			progress_tick(4 << 20, true);
		i++;
		usleep(200);
	}
}

/*
 * Everything written to fd's other end, read to its end: the writer's side
 * is closed first (a pty's master then reads what is left, then EIO; a
 * pipe, then EOF), so no wait decides when the output is over.
 */
static size_t drain(int fd, char *buf, size_t n)
{
	size_t len = 0;

	while (len < n - 1) {
		ssize_t r = read(fd, buf + len, n - 1 - len);

		if (r <= 0)
			break;
		len += r;
	}
	buf[len] = '\0';
	return len;
}

static int stderr_to(int fd)
{
	int saved = dup(2);

	fflush(stderr);
	dup2(fd, 2);
	return saved;
}

static void stderr_back(int saved)
{
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
}

/* A pseudo-terminal: the master to read, the slave as stderr's stand-in; false if none. */
static bool open_pty(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0 || grantpt(*master) || unlockpt(*master))
		return false;
	*slave = open(ptsname(*master), O_RDWR | O_NOCTTY);
	return *slave >= 0;
}

static void test_terminal(void)
{
	static char out[65536];
	int master, slave;

	if (!open_pty(&master, &slave)) {
		CHECK(0);
		return;
	}
	int saved = stderr_to(slave);

	progress_start("open-au", "N=2", 10000ull << 22);
	run_step(1.3, 10000);
	progress_clear();	/* as before a message */
	progress_done();	/* nothing left to erase */
	stderr_back(saved);
	close(slave);
	drain(master, out, sizeof(out));
	size_t n = strlen(out);
	CHECK(n >= 8 && memcmp(out + n - 8, "\r\033[K\r\033[K", 8) != 0);

	char *first = strstr(out, "open-au N=2: 4MiB blocks, ");
	CHECK(first != NULL);
	CHECK(strstr(out, "%, ") != NULL);
	CHECK(strstr(out, "MiB written, ETA ") != NULL || strstr(out, "GiB written, ETA ") != NULL);
	CHECK(strchr(out, '\n') == NULL);	/* rewritten in place with \r, never scrolls */
	/* the last thing written clears the line */
	CHECK(strlen(out) >= 4 && strcmp(out + strlen(out) - 4, "\r\033[K") == 0);
	/* refreshed at most ~5 times a second: a 1.3 s step, shown after 1 s, is a few lines */
	int lines = 0;
	for (char *p = out; (p = strstr(p, "open-au N=2:")); p++)
		lines++;
	CHECK(lines >= 1 && lines <= 4);
	close(master);
}

/*
 * Percent follows bytes, not I/O counts: 308MiB of 896MiB in a few big
 * writes, then many small ones, shows 34%, not the share of I/Os.
 */
static void test_percent_follows_bytes(void)
{
	static char out[65536];
	int master, slave;

	if (!open_pty(&master, &slave)) {
		CHECK(0);
		return;
	}
	int saved = stderr_to(slave);

	progress_start("open-au", "N=3", 896ull << 20);
	for (int i = 0; i < 77; i++)
		progress_tick(4 << 20, true);	/* 308MiB */
	usleep(1100000);			/* past the one second before a line shows */
	for (int i = 0; i < 64; i++)
		progress_tick(4 << 10, true);	/* 256KiB more, in many I/Os */
	progress_done();
	stderr_back(saved);
	close(slave);
	drain(master, out, sizeof(out));
	CHECK(strstr(out, "open-au N=3: 4KiB blocks, 34%, 308MiB written, ETA ") != NULL);
	close(master);
}

static void test_short_step_is_silent(void)
{
	char out[4096];
	int master, slave;

	if (!open_pty(&master, &slave)) {
		CHECK(0);
		return;
	}
	int saved = stderr_to(slave);

	progress_start("align", NULL, 100);
	run_step(0.2, 100);
	progress_done();
	stderr_back(saved);
	close(slave);
	CHECK_EQ(drain(master, out, sizeof(out)), 0);
	close(master);
}

static void test_pipe_is_silent(void)
{
	char out[4096];
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	int saved = stderr_to(fds[1]);

	progress_start("open-au", "N=2", 10000ull << 22);
	run_step(1.1, 10000);
	progress_done();
	stderr_back(saved);
	close(fds[1]);
	CHECK_EQ(drain(fds[0], out, sizeof(out)), 0);
	close(fds[0]);
}

/*
 * A tick is cheap: a counter; the clock is read once per TICKS_PER_CLOCK
 * ticks on a terminal, never where nothing is shown. Counted, not timed.
 */
static void test_tick_is_cheap(void)
{
	int fd = open("/dev/null", O_WRONLY);
	int saved = stderr_to(fd);
	uint64_t before = clock_reads();

	/* /dev/null is not a terminal: the cheapest path */
	progress_start("scatter", NULL, 0);
	for (int i = 0; i < 1000000; i++)
		progress_tick(512, false);
	progress_done();
	CHECK_LE(clock_reads() - before, 4);
	stderr_back(saved);
	close(fd);

	int master, slave;
	if (!open_pty(&master, &slave)) {
		CHECK(0);
		return;
	}
	saved = stderr_to(slave);
	before = clock_reads();
	progress_start("scatter", NULL, 0);
	for (int i = 0; i < 320000; i++)
		progress_tick(512, false);
	progress_done();
	uint64_t reads = clock_reads() - before;
	stderr_back(saved);
	CHECK_GE(reads, 320000 / 32);
	CHECK_LE(reads, 320000 / 32 + 4);
	close(slave);
	close(master);
}

/*
 * A run of steps keeps one line through its measurements and the pauses
 * between them: shown from its first second, redrawn by the thread while
 * nothing ticks, "step 2 of 3, NAME:" with the run's ETA, cleared at the end.
 */
static void test_run_keeps_one_line_through_its_steps(void)
{
	static char out[65536];
	static const struct progress_step steps[] = {
		{ "first", 1, 1 }, { "second", 2, 2 }, { "third", 1, 1 },
	};
	int master, slave;

	if (!open_pty(&master, &slave)) {
		CHECK(0);
		return;
	}
	int saved = stderr_to(slave);

	progress_run_begin(steps, 3);
	progress_start("capacity", "round 1", 100ull << 20);
	run_step(0.4, 10);
	progress_done();		/* the measurement ends; the run goes on */
	progress_run_step(1);
	progress_start("align", NULL, 100ull << 20);
	run_step(0.8, 12);		/* 48MiB of 100MiB */
	progress_done();
	usleep(1200000);		/* analysis between steps: no ticks at all */
	progress_run_end();
	stderr_back(saved);
	close(slave);
	drain(master, out, sizeof(out));

	CHECK(strstr(out, "step 1 of 3") == NULL);	/* over within the first second */
	CHECK(strstr(out, "step 2 of 3, second: 4MiB blocks, 48%, ETA ") != NULL);
	CHECK(strstr(out, ", run ETA ") != NULL);
	/* while nothing ticked, the thread drew it again: twice at least in 1.2 s */
	int idle = 0;
	for (char *p = out; (p = strstr(p, "step 2 of 3, second: run ETA ")); p++)
		idle++;
	CHECK_GE(idle, 2);
	CHECK(strchr(out, '\n') == NULL);
	CHECK(strlen(out) >= 4 && strcmp(out + strlen(out) - 4, "\r\033[K") == 0);
	close(master);
}

static void test_run_on_a_pipe_is_silent(void)
{
	char out[4096];
	int fds[2];
	static const struct progress_step steps[] = { { "only", 1, 1 } };

	CHECK_EQ(pipe(fds), 0);
	int saved = stderr_to(fds[1]);

	progress_run_begin(steps, 1);
	progress_start("open-au", "N=2", 10000ull << 22);
	run_step(1.2, 10000);
	progress_done();
	progress_run_end();
	stderr_back(saved);
	close(fds[1]);
	CHECK_EQ(drain(fds[0], out, sizeof(out)), 0);
	close(fds[0]);
}

/* ---- the ETA from a plan, on a clock the test moves ---- */

/* A terminal read while the test draws on it (many lines: a full one would block). */
struct reader {
	int fd;
	char *buf;
	size_t n, len;
	pthread_t t;
	_Atomic int finished;
};

static void *read_all(void *arg)
{
	struct reader *r = arg;
	ssize_t got;

	/* never blocked in read: on tests/vclock.c's clock a blocked thread stops time */
	fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
	for (;;) {
		got = read(r->fd, r->buf + r->len, r->n - 1 - r->len);
		if (got < 0 && errno == EAGAIN) {
			usleep(1000);
			continue;
		}
		if (got <= 0)
			break;
		r->len += (size_t)got;
		if (r->len >= r->n - 1)
			r->len = 0;	/* keep the latest */
	}
	r->buf[r->len] = '\0';
	r->finished = 1;
	return NULL;
}

static _Atomic int64_t fake_now;	/* from the real clock on: what the others left stays past */

static int64_t fake_clock(void)
{
	return fake_now;
}

/* A measurement the simulated card takes ns_per_io per I/O of io bytes, n I/Os. */
struct phase {
	const char *name;
	struct progress_work w;
	double ns_per_io;	/* the card's time for one I/O */
	double gap_ns;		/* the pause before it (analysis, restore, idle) */
};

static double phase_ns(const struct phase *ph)
{
	double ios = (double)ph->w.bytes / ph->w.io_bytes, ns = ios * ph->ns_per_io;

	return ph->w.max_ns > 0 && ns > ph->w.max_ns ? ph->w.max_ns : ns;
}

/*
 * Runs the phases on the fake clock, stating the plan before each; from the
 * middle of the run on, at every 4 MiB or 16 I/Os, the ETA shown against
 * the time really left. Returns the worst ratio (shown / left) away from 1.
 */
static double run_phases(const struct phase *ph, int n, bool as_run, double *worst_ratio)
{
	double total = 0, worst = 1;
	static const struct progress_step steps[] = { { "all", 1, 1 } };

	for (int i = 0; i < n; i++)
		total += ph[i].gap_ns + phase_ns(&ph[i]);
	int64_t t0 = fake_now;
	if (as_run)
		progress_run_begin(steps, 1);
	for (int i = 0; i < n; i++) {
		struct progress_work plan[64];
		for (int k = i + 1; k < n && k - i - 1 < 64; k++)
			plan[k - i - 1] = ph[k].w;
		fake_now += (int64_t)ph[i].gap_ns;
		progress_plan(plan, n - i - 1);
		progress_start_work("test", ph[i].name, &ph[i].w);
		uint64_t ios = ph[i].w.bytes / ph[i].w.io_bytes;
		double spent = 0;
		for (uint64_t k = 0; k < ios; k++) {
			if (ph[i].w.max_ns > 0 && spent >= ph[i].w.max_ns)
				break;
			fake_now += (int64_t)ph[i].ns_per_io;
			spent += ph[i].ns_per_io;
			progress_tick(ph[i].w.io_bytes, ph[i].w.write);
			double elapsed = (double)(fake_now - t0), left = total - elapsed;
			if (elapsed < total / 2 || left < 2e9 || (k % 16 && ph[i].w.io_bytes < (1u << 20)))
				continue;
			int64_t eta = progress_eta_ns();
			double r = eta > 0 ? eta / left : 0;
			if (fabs(r - 1) > fabs(worst - 1))
				worst = r;
		}
		if (as_run || i == n - 1)
			progress_done();	/* a test's measurements end with its last */
	}
	if (as_run)
		progress_run_end();
	*worst_ratio = worst;
	return total;
}

#define MiB (1u << 20)

/*
 * --class on a slow card: the link's reads, the area saved, written,
 * random reads and writes (4 s at most each), restored and verified: the
 * ETA is within 30% of the time left from the middle of the run on.
 */
static void test_eta_holds_from_the_middle_on(void)
{
	static char out[1 << 20];
	int master, slave;
	const struct phase class_like[] = {
		{ "link", { 32 * MiB, 4 * MiB, false, 0, 0, 0 }, 4 * MiB / 40e6 * 1e9, 0 },
		{ "save", { 64 * MiB, 4 * MiB, false, 0, 0, 0 }, 4 * MiB / 38e6 * 1e9, 2e8 },
		{ "writes", { 64 * MiB, 4 * MiB, true, 0, 0, 0 }, 4 * MiB / 9e6 * 1e9, 1e8 },
		{ "random reads", { 2048 * 4096, 4096, false, 4000000000, 0, 0 }, 1.1e6, 1e7 },
		{ "random writes", { 2048 * 4096, 4096, true, 4000000000, 0, 0 }, 60e6, 1e7 },
		{ "restore", { 64 * MiB, 4 * MiB, true, 0, 0, 0 }, 4 * MiB / 10e6 * 1e9, 1e8 },
		{ "verify", { 64 * MiB, 4 * MiB, false, 0, 0, 0 }, 4 * MiB / 40e6 * 1e9, 1e7 },
	};
	/*
	 * an --auto-like run: open-AU runs of small writes to N erase blocks,
	 * N = 1..5 holding, 6 collapsing (ten times the time per write), the
	 * replicas at 5 and 6, then random runs N = 1, 2 holding, 3 collapsing
	 * and their replicas; a pause before each (settling, analysis). Each
	 * is planned with its key (holds, collapses, random and holds), as a
	 * search knows them from its bracket.
	 */
	static const int nrs[] = { 1, 2, 3, 4, 5, 6, 5, 6, 1, 2, 3, 2, 3 };
	struct phase auto_like[13];
	double worst;
	int nauto = 0;

	fake_now = (int64_t)(seconds() * 1e9) + 1000000000000;
	for (int i = 0; i < 13; i++) {
		bool random = i >= 8, collapses = nrs[i] == (random ? 3 : 6);
		auto_like[nauto++] = (struct phase){ random ? "random" : "open",
			{ (uint64_t)nrs[i] * 8 * MiB, 64 * 1024, true, 0, collapses ? 2 : random ? 3 : 1, 0 },
			(collapses ? 10 : 1) * (random ? 12e6 : 9e6), 3e8 };
	}
	if (!open_pty(&master, &slave)) {
		CHECK(0);
		return;
	}
	struct reader rd = { .fd = master, .buf = out, .n = sizeof(out) };
	CHECK_EQ(pthread_create(&rd.t, NULL, read_all, &rd), 0);
	int saved = stderr_to(slave);
	progress_set_clock(fake_clock);
	double total = run_phases(class_like, 7, false, &worst);
	double class_worst = worst;
	run_phases(auto_like, nauto, true, &worst);
	progress_set_clock(NULL);
	stderr_back(saved);
	close(slave);
	while (!rd.finished)	/* asleep, not blocked in a join: the virtual clock moves on */
		usleep(1000);
	pthread_join(rd.t, NULL);
	close(master);
	CHECK(total > 20e9);
	printf("ETA against the time left, worst from the middle on: %.2f (--class-like), "
	       "%.2f (--auto-like)\n", class_worst, worst);
	CHECK_LT(fabs(class_worst - 1), 0.3);
	CHECK_LT(fabs(worst - 1), 0.3);
	/* a test with a plan shows the plan's ETA: the whole test's time left */
	CHECK(strstr(out, "test random reads: 4KiB blocks, ") != NULL);
	CHECK(strstr(out, "test verify: ") != NULL);
}

/* The estimator alone: each kind at its own rate; small I/Os per I/O; a cap; borrowing. */
static void test_eta_estimator(void)
{
	struct progress_rates r;
	struct progress_work w;

	memset(&r, 0, sizeof(r));
	w = (struct progress_work){ 10 * MiB, 4 * MiB, true, 0, 0, 0 };
	/* nothing measured: a slow card, 10 MB/s writes */
	CHECK_LT(fabs(progress_work_ns(&r, &w) - 10 * MiB / 10e6 * 1e9), 1e6);
	progress_rates_add(&r, 0, false, 4 * MiB, 8, 32 * MiB, 32 * MiB / 40e6 * 1e9);
	/* writes borrow from reads, at twice their time */
	CHECK_LT(fabs(progress_work_ns(&r, &w) - 2 * 10 * MiB / 40e6 * 1e9), 1e6);
	progress_rates_add(&r, 0, true, 4 * MiB, 4, 16 * MiB, 16 * MiB / 8e6 * 1e9);
	CHECK_LT(fabs(progress_work_ns(&r, &w) - 10 * MiB / 8e6 * 1e9), 1e6);
	/* small writes: a latency per I/O and a time per byte, fitted from two sizes */
	progress_rates_add(&r, 0, true, 4096, 100, 100 * 4096.0, 100 * (2e6 + 4096 * 50.0));
	progress_rates_add(&r, 0, true, 65536, 100, 100 * 65536.0, 100 * (2e6 + 65536 * 50.0));
	w = (struct progress_work){ 1000 * 16384, 16384, true, 0, 0, 0 };
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (1000 * (2e6 + 16384 * 50.0)) - 1), 0.01);
	w.max_ns = 1000000000;
	CHECK_EQ(progress_work_ns(&r, &w), 1e9);
	/* pauses: the average one before each planned item */
	r.gap_ns = 6e8;
	r.gaps = 2;
	w.max_ns = 0;
	w.bytes = 0;
	CHECK_LT(fabs(progress_plan_ns(&r, &w, 1) - 3e8), 1);
	/* a pause the caller knows of: its length, on top of the work */
	w = (struct progress_work){ 10 * MiB, 4 * MiB, true, 0, 0, 2500000000 };
	CHECK_LT(fabs(progress_work_ns(&r, &w) - (10 * MiB / 8e6 * 1e9 + 2.5e9)), 1e6);
	/* keyed work (open-AU rows, 128KiB, collapsing) leaves the kinds' rates alone */
	progress_rates_add(&r, 1, true, 128 * 1024, 10, 10 * 131072.0, 10 * 50e6);
	w = (struct progress_work){ 10 * MiB, 4 * MiB, true, 0, 0, 0 };
	CHECK_LT(fabs(progress_work_ns(&r, &w) - 10 * MiB / 8e6 * 1e9), 1e6);
	/* ... and goes at its own rate; the slow key, unmeasured, at ten times key 1's time */
	w = (struct progress_work){ 20 * 131072, 128 * 1024, true, 0, 1, 0 };
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (20 * 50e6) - 1), 0.01);
	w.key = PROGRESS_KEY_SLOW;
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (10 * 20 * 50e6) - 1), 0.01);
	/* measured on as many bytes as the work: at its own rate (on fewer: the young-key test) */
	progress_rates_add(&r, PROGRESS_KEY_SLOW, true, 128 * 1024, 20, 20 * 131072.0, 20 * 200e6);
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (20 * 200e6) - 1), 0.01);
}

/* A key like another until measured (a chain of them, factors multiplied); work re-keyed. */
static void test_eta_keys_like_and_rekeyed(void)
{
	struct progress_rates r;
	struct progress_work w = { 20 * 131072, 128 * 1024, true, 0, 4, 0 };
	struct progress_fit f;

	memset(&r, 0, sizeof(r));
	progress_rates_add(&r, 1, true, 128 * 1024, 10, 10 * 131072.0, 10 * 50e6);
	progress_rates_like(&r, 3, 1, 1);
	progress_rates_like(&r, 4, 3, 4);
	/* key 4, unmeasured, like key 3, unmeasured, like key 1: four times key 1's time */
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (4 * 20 * 50e6) - 1), 0.01);
	/* like -1: like no key, the kind's rates (large writes: 10 MB/s, nothing of them measured) */
	progress_rates_like(&r, 5, -1, 1);
	w.key = 5;
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (20 * 131072 / 10e6 * 1e9) - 1), 0.01);
	/* measured under key 1, re-keyed to key 4: key 4 at that rate, key 1 unmeasured again */
	memset(&f, 0, sizeof(f));
	progress_fit_add(&f, 10, 10 * 131072.0, 10 * 50e6);
	progress_rates_move(&r, &f, 1, 4);
	w.key = 4;
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (20 * 50e6) - 1), 0.01);
	w.key = 1;
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (20 * 131072 / 10e6 * 1e9) - 1), 0.01);
}

/*
 * A key measured on a little of the work only (the first rows of a run,
 * ten times slower than the rest): the work at the rate of the key it is
 * like; at its own once it measured as much as the work. A key like no
 * other keeps its own.
 */
static void test_eta_young_key_goes_at_its_prior(void)
{
	struct progress_rates r;
	struct progress_work w = { 64 * 131072, 128 * 1024, true, 0, 3, 0 };

	memset(&r, 0, sizeof(r));
	progress_rates_add(&r, 1, true, 128 * 1024, 10, 10 * 131072.0, 10 * 50e6);
	progress_rates_like(&r, 3, 1, 1);
	progress_rates_add(&r, 3, true, 128 * 1024, 2, 2 * 131072.0, 2 * 500e6);
	/* 2 of 64 writes measured: at key 1's 50 ms a write */
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (64 * 50e6) - 1), 0.01);
	/* ... and at key 3's own rate once it measured as many bytes as the work */
	progress_rates_add(&r, 3, true, 128 * 1024, 62, 62 * 131072.0, 62 * 500e6);
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (64 * 500e6) - 1), 0.01);
	/* like no key: its own rate, however little was measured */
	memset(&r, 0, sizeof(r));
	progress_rates_like(&r, 5, -1, 1);
	progress_rates_add(&r, 5, true, 128 * 1024, 2, 2 * 131072.0, 2 * 500e6);
	w.key = 5;
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (64 * 500e6) - 1), 0.01);
}

/*
 * A key measured on large writes only (rows of 512 KiB) and planned in
 * small ones: at its time per byte, not per write (eight times as long).
 */
static void test_eta_key_measured_large_planned_small_goes_per_byte(void)
{
	struct progress_rates r;
	struct progress_work w = { 64 * 65536, 64 * 1024, true, 0, 1, 0 };

	memset(&r, 0, sizeof(r));
	progress_rates_add(&r, 1, true, 512 * 1024, 8, 8 * 524288.0, 8 * 40e6);
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (64 * 40e6 / 8) - 1), 0.01);
	/* small writes measured: per write */
	memset(&r, 0, sizeof(r));
	progress_rates_add(&r, 1, true, 32 * 1024, 128, 128 * 32768.0, 128 * 5e6);
	CHECK_LT(fabs(progress_work_ns(&r, &w) / (64 * 5e6) - 1), 0.01);
}

/*
 * One measurement of a run, 4 MiB writes, every fourth of them slow_ns
 * (a card collecting a block) and the others fast_ns, on the fake clock:
 * the worst ETA against the time left from the middle on (2 s left at
 * least). false: no terminal.
 */
static bool bursty_worst(double fast_ns, double slow_ns, int writes, double *worst)
{
	static const struct progress_step steps[] = { { "all", 1, 1 } };
	struct progress_work w = { (uint64_t)writes * 4 * MiB, 4 * MiB, true, 0, 0, 0 };
	int master, slave;
	double total = writes / 4 * (3 * fast_ns + slow_ns);

	if (!open_pty(&master, &slave))
		return false;
	static char out[1 << 16];
	struct reader rd = { .fd = master, .buf = out, .n = sizeof(out) };
	pthread_create(&rd.t, NULL, read_all, &rd);
	int saved = stderr_to(slave);
	progress_set_clock(fake_clock);
	int64_t t0 = fake_now;
	*worst = 1;
	progress_run_begin(steps, 1);
	progress_plan(NULL, 0);
	progress_start_work("test", "writes", &w);
	for (int i = 0; i < writes; i++) {
		fake_now += (int64_t)(i % 4 == 3 ? slow_ns : fast_ns);
		progress_tick(4 * MiB, true);
		double elapsed = (double)(fake_now - t0), left = total - elapsed;
		if (elapsed < total / 2 || left < 2e9)
			continue;
		double r = (double)progress_eta_ns() / left;
		if (fabs(r - 1) > fabs(*worst - 1))
			*worst = r;
	}
	progress_done();
	progress_run_end();
	progress_set_clock(NULL);
	stderr_back(saved);
	close(slave);
	while (!rd.finished)
		usleep(1000);
	pthread_join(rd.t, NULL);
	close(master);
	return true;
}

/*
 * The recent rate of a measurement spans 3 s at least: over 1 s, writes
 * that pay for a block every fourth one (40 ms, then 600 ms) swung the ETA
 * from one burst to the next (the class step on microsd-cheap: 2.2 times
 * the time left).
 */
static void test_eta_recent_rate_spans_the_bursts(void)
{
	double worst = 0;

	fake_now = (int64_t)(seconds() * 1e9) + 2000000000000;
	CHECK(bursty_worst(40e6, 600e6, 64, &worst));
	printf("ETA against the time left, every fourth write slow: worst %.2f\n", worst);
	CHECK_LT(fabs(worst - 1), 0.3);
}

/*
 * A run of three steps, step `skip` found not to run before step 1 starts;
 * what the terminal showed in out. false: no terminal to show it on.
 */
static bool run_three_steps_skipping(int skip, char *out, size_t n)
{
	static const struct progress_step steps[] = {
		{ "first", 1, 1 }, { "second", 1, 1 }, { "third", 1, 1 },
	};
	int master, slave;

	if (!open_pty(&master, &slave))
		return false;
	int saved = stderr_to(slave);
	progress_set_clock(fake_clock);
	progress_run_begin(steps, 3);
	progress_run_skip(skip);
	progress_run_step(1);
	progress_start("x", NULL, 100 * MiB);
	fake_now += 2000000000;
	for (int i = 0; i < 64; i++)
		progress_tick(MiB, true);
	progress_done();
	progress_run_end();
	progress_set_clock(NULL);
	stderr_back(saved);
	close(slave);	/* drain reads to the end: the writer's side closed first */
	drain(master, out, n);
	close(master);
	return true;
}

/* "step N of M" counts the steps that will run: a skipped one is not counted. */
static void test_skipped_step_is_not_counted(void)
{
	static char out[65536];

	CHECK(run_three_steps_skipping(2, out, sizeof(out)));
	CHECK(strstr(out, "step 2 of 2, second: ") != NULL);
	CHECK(strstr(out, " of 3") == NULL);
	/* the current step found not to run (--auto's capacity check refused by --max-write) */
	CHECK(run_three_steps_skipping(0, out, sizeof(out)));
	CHECK(strstr(out, "step 1 of 2, second: ") != NULL);
	CHECK(strstr(out, " of 3") == NULL);
}

int main(int argc, char **argv)
{
	(void)argc;
	on_the_virtual_clock(argv);
	test_eta_estimator();
	test_eta_keys_like_and_rekeyed();
	test_eta_young_key_goes_at_its_prior();
	test_eta_key_measured_large_planned_small_goes_per_byte();
	test_terminal();
	test_percent_follows_bytes();
	test_short_step_is_silent();
	test_pipe_is_silent();
	test_tick_is_cheap();
	test_run_keeps_one_line_through_its_steps();
	test_run_on_a_pipe_is_silent();
	test_eta_holds_from_the_middle_on();	/* on a clock of their own: after the others */
	test_eta_recent_rate_spans_the_bursts();
	test_skipped_step_is_not_counted();
	return unit_summary();
}
