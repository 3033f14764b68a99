/*
 * "open-au N=3: 64KiB blocks, 42%, 308MiB written, ETA 3:12" on stderr,
 * rewritten in place with \r. Percent and ETA come from bytes transferred
 * over the whole step, so they move steadily whatever the block size. Only when stderr is a terminal, only once a step has run
 * for a second, and at most five times a second. progress_tick() is a
 * counter; the clock is read only every TICKS_PER_CLOCK ticks.
 */
#include "lib/progress.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"

enum {
	TICKS_PER_CLOCK = 32,
};
#define SHOW_AFTER_NS	1000000000LL	/* short steps print nothing */
#define REFRESH_NS	200000000LL	/* at most 5 lines per second */

static volatile sig_atomic_t shown;	/* a progress line is on the screen */

static struct {
	bool on;		/* stderr is a terminal and a step is running */
	char test[32], step[48];
	uint64_t total, done;	/* bytes the step transfers, and has so far */
	uint64_t written;	/* bytes written since the test began */
	uint64_t blocksize;	/* length of the latest I/O */
	int64_t test_start_ns;	/* when the first step began */
	int64_t start_ns, last_ns;	/* this step began; line last drawn */
	unsigned int countdown;
	int width;		/* terminal columns */
} pr;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void clear_line(void)
{
	if (shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	shown = 0;
}

static volatile sig_atomic_t cleared;	/* progress_clear() took a line off the screen */
static void show(int64_t now);

/*
 * At once if the line is due anyway (5 a second at most); otherwise the
 * next tick draws it, as it draws any line that is due.
 */
void progress_redraw(void)
{
	int64_t now = now_ns();

	if (pr.on && cleared && !shown && now - pr.last_ns >= REFRESH_NS)
		show(now);
	cleared = 0;
}

void progress_clear(void)
{
	static const char erase[] = "\r\033[K";

	/* write(2), not stdio: this may run in a signal handler */
	if (shown && write(STDERR_FILENO, erase, sizeof(erase) - 1) < 0)
		return;
	if (shown)
		cleared = 1;
	shown = 0;
}

/* "0:35", "12:05", "1:02:03" */
static void fmt_duration(char *buf, size_t n, int64_t seconds)
{
	if (seconds >= 3600)
		snprintf(buf, n, "%lld:%02lld:%02lld", (long long)(seconds / 3600),
			 (long long)(seconds / 60 % 60), (long long)(seconds % 60));
	else
		snprintf(buf, n, "%lld:%02lld", (long long)(seconds / 60), (long long)(seconds % 60));
}

/* Seconds left: the step's average rate so far applied to the bytes left. */
static int64_t eta_seconds(int64_t now)
{
	double elapsed = (double)(now - pr.start_ns) / 1e9;
	double left = (double)(pr.total - pr.done);

	return (int64_t)(elapsed * left / (double)pr.done + 0.5);
}

static int format_line(char *line, size_t n, int64_t now)
{
	char size[FMT_BUF], eta[32];
	const char *sep = " ";	/* before the next item */
	int len = snprintf(line, n, "%s%s%s:", pr.test, pr.step[0] ? " " : "", pr.step);

#define ADD(...) (len += snprintf(line + len, len < (int)n ? n - len : 0, __VA_ARGS__), sep = ", ")
	if (pr.blocksize)
		ADD("%s%s blocks", sep, fmt_size(size, pr.blocksize));
	if (pr.total > 0 && pr.done <= pr.total)
		ADD("%s%d%%", sep, (int)(100.0 * (double)pr.done / (double)pr.total));
	if (pr.written > 0)
		ADD("%s%s written", sep, fmt_size(size, pr.written));
	if (pr.total > 0 && pr.done > 0 && pr.done <= pr.total) {
		fmt_duration(eta, sizeof(eta), eta_seconds(now));
		ADD("%sETA %s", sep, eta);
	}
#undef ADD
	return len < (int)n ? len : (int)n - 1;
}

static void show(int64_t now)
{
	char line[256];
	int len = format_line(line, sizeof(line), now);

	if (len > pr.width - 1)
		len = pr.width - 1;	/* a wrapped line could not be rewritten with \r */
	fprintf(stderr, "\r%.*s\033[K", len, line);
	fflush(stderr);
	shown = 1;
	pr.last_ns = now;
}

void progress_start(const char *test, const char *step, uint64_t total_bytes)
{
	bool same_test = pr.on && strcmp(pr.test, test ? test : "") == 0;
	int64_t now;

	if (!same_test) {
		clear_line();
		memset(&pr, 0, sizeof(pr));
		pr.on = isatty(STDERR_FILENO);
		if (!pr.on)
			return;
		snprintf(pr.test, sizeof(pr.test), "%s", test ? test : "");
		pr.width = terminal_width();
		pr.test_start_ns = now_ns();
	}
	/* a new step of the same test rewrites the line in place */
	snprintf(pr.step, sizeof(pr.step), "%s", step ? step : "");
	pr.total = total_bytes;
	pr.done = 0;
	pr.blocksize = 0;
	pr.countdown = TICKS_PER_CLOCK;
	now = now_ns();
	pr.start_ns = now;
	if (shown && now - pr.last_ns >= REFRESH_NS)
		show(now);
}

static void poll_clock(void)
{
	int64_t now = now_ns();

	if (now - pr.test_start_ns < SHOW_AFTER_NS || now - pr.last_ns < REFRESH_NS)
		return;
	show(now);
}

void progress_tick(uint64_t bytes, bool written)
{
	if (!pr.on)
		return;
	pr.done += bytes;
	pr.blocksize = bytes;
	if (written)
		pr.written += bytes;
	if (--pr.countdown == 0) {
		pr.countdown = TICKS_PER_CLOCK;
		poll_clock();
	}
}

void progress_done(void)
{
	clear_line();
	pr.on = false;
}
