/*
 * Progress: a line on a terminal after a second, nothing on a pipe, cheap
 * ticks. What is drawn when follows the clock: the test runs itself on the
 * virtual clock of tests/vclock.c (built beside it), on which its steps and
 * the progress thread's wake-ups take the same time on a busy machine as on
 * a quiet one, and no time at all.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

#include "lib/progress.h"

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

int main(int argc, char **argv)
{
	(void)argc;
	on_the_virtual_clock(argv);
	test_terminal();
	test_percent_follows_bytes();
	test_short_step_is_silent();
	test_pipe_is_silent();
	test_tick_is_cheap();
	test_run_keeps_one_line_through_its_steps();
	test_run_on_a_pipe_is_silent();
	return unit_summary();
}
