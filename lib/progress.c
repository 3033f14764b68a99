/*
 * "open-au N=3: 64KiB blocks, 42%, 308MiB written, ETA 3:12" on stderr,
 * rewritten in place with \r. Percent and ETA come from bytes transferred
 * over the whole step, so they move steadily whatever the block size.
 * Only when stderr is a terminal, only once a test has run for a second,
 * and at most five times a second.
 *
 * A run of several steps (--auto) keeps one line from its first second to
 * its end, through every measurement and the pauses between them:
 * "step 3 of 5, FAT area: 64KiB blocks, 42%, ETA 0:40, run ETA 5:40",
 * counting only the steps that will run.
 *
 * The ETA of a test or run that states its plan (progress_plan() and
 * friends: the work left, as bytes in I/Os of a size, read or written) is
 * the plan's time at the rates measured so far (lib/progress_eta.c): the
 * I/O of the measurements is timed in batches, between two reads of the
 * clock, and kept per kind of I/O. Without a plan a run's ETA follows the
 * steps' usual shares of its time (weights), a test's its own rate.
 *
 * progress_tick() is a counter (the clock is read only every
 * TICKS_PER_CLOCK small I/Os or 4 MiB). A thread, started with the first
 * line a terminal will see, redraws at least twice a second, so that a
 * single I/O of several seconds, or the analysis between steps, never
 * leaves the line still for long; it never touches the device and nothing
 * in the timed region waits for it.
 */
#include "lib/progress.h"
#include "lib/progress_eta.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"

enum {
	TICKS_PER_CLOCK = 32,
	MAX_STEPS = 16,
	MAX_PLAN = 64,
};
#define SHOW_AFTER_NS	1000000000LL	/* short tests print nothing */
#define REFRESH_NS	200000000LL	/* at most 5 lines per second */
#define KEEPALIVE_NS	500000000LL	/* the thread redraws at least this often */
#define WAKE_NS		250000000LL	/* how often the thread looks */
#define HOLD_NS		300000000LL	/* after progress_clear(): room for a message */
/*
 * a measurement's recent rate: over 3 s at least (over 1 s, a card that
 * collects a block every few writes swung the class step's ETA from one
 * burst to the next: 2.2 times the time left on microsd-cheap)
 */
#define RECENT_MIN_NS	3000000000LL
#define RECENT_SHARE	8		/* and over the last eighth of the measurement (a FAT row's slower columns) */
#define RECENT_SLOTS	8		/* its samples, a quarter of its window apart */
#define PIECE_APART_NS	1e6		/* a key's rate without the work under way: 1 ms of it at least */

static volatile sig_atomic_t shown;	/* a progress line is on the screen */
static int (*on_start)(void *);	/* progress_on_start() */
static void *on_start_arg;

static struct {
	bool on;		/* stderr is a terminal and a test (or run) is under way */
	char test[32], step[48];
	uint64_t total;		/* bytes the step transfers */
	_Atomic uint64_t done;	/* of those, so far */
	_Atomic uint64_t written;	/* bytes written since the test (or run) began */
	_Atomic uint64_t blocksize;	/* length of the latest I/O */
	int64_t test_start_ns;	/* when the first step began: the line shows a second later */
	int64_t start_ns;	/* this step began */
	_Atomic int64_t last_ns;	/* line last drawn */
	unsigned int countdown;
	int width;		/* terminal columns */

	/* a run of several steps */
	bool in_run;
	struct progress_step steps[MAX_STEPS];
	int nsteps, cur;
	int programs;		/* measurements started in the current step */
	bool program_open;	/* one is under way (its bytes count) */
	bool skipped[MAX_STEPS];	/* steps that will not run */

	/* the ETA from a plan (lib/progress_eta.c) */
	struct progress_work work;	/* the measurement under way */
	bool cur_sized;			/* work's kind and I/O size given, not taken from its ticks */
	bool quiet;			/* it does not tick: its planned time counts down */
	_Atomic bool cur_write;
	struct progress_work plan[MAX_PLAN];	/* the work after it, in this test or step */
	int nplan;
	struct progress_work run_plan[MAX_PLAN];	/* a run's: the work of the steps after this one */
	int nrun_plan;
	struct progress_work step_plan[MAX_PLAN];	/* a run's: this step's work, from step_plan_moved on */
	int nstep_plan;
	bool have_step_plan;
	uint64_t step_plan_moved;	/* moved when it was stated */
	_Atomic uint64_t moved;		/* bytes read or written in this run or test */
	bool have_plan;
	struct progress_rates rates;	/* measured so far */
	/* I/O ticked since the clock was last read, per class (progress_eta.c's) */
	double pend_ios[4], pend_bytes[4];
	uint64_t pend_io[4];
	int64_t obs_ns;			/* the clock when last read for the rates */
	/* the keyed work measured since the last progress_rekey_last(), by key */
	struct progress_fit piece[PROGRESS_KEYS];
	int like[PROGRESS_KEYS];	/* progress_key_like(), kept when the rates start afresh */
	double like_factor[PROGRESS_KEYS];
	/*
	 * the current measurement's recent rate: from the newest sample a
	 * window old to now (a sliding window: a fast stretch leaves it once a
	 * window has passed); sample 0 is the newest
	 */
	int64_t recent_ns[RECENT_SLOTS];
	uint64_t recent_done[RECENT_SLOTS];
	int nrecent;
	int64_t done_ns;		/* the last measurement ended: a pause began */
} pr;

static volatile sig_atomic_t cleared;	/* progress_clear() took a line off the screen */
static _Atomic int64_t hold_until;	/* no redraw before: a message is being printed */
static atomic_flag drawing = ATOMIC_FLAG_INIT;	/* the state and the line are being changed */
static bool ticker_started;

static int64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t (*_Atomic clock_fn)(void) = monotonic_ns;

static int64_t now_ns(void)
{
	return clock_fn();
}

void progress_set_clock(int64_t (*now)(void))
{
	clock_fn = now ? now : monotonic_ns;
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* Takes the state; bounded: a signal handler must not wait on the code it interrupted. */
static bool lock_for(int max_ms)
{
	for (int i = 0; atomic_flag_test_and_set(&drawing); i++) {
		if (max_ms >= 0 && i >= max_ms)
			return false;
		pause_ms(1);
	}
	return true;
}

static void lock(void)
{
	lock_for(-1);
}

static void unlock(void)
{
	atomic_flag_clear(&drawing);
}

static int terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void erase_line(void)
{
	static const char erase[] = "\r\033[K";

	/* write(2), not stdio: progress_clear() may run in a signal handler */
	if (shown && write(STDERR_FILENO, erase, sizeof(erase) - 1) < 0)
		return;
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

/* The share of the current measurement done, 0..1; 0 when none is under way. */
static double program_fraction(void)
{
	uint64_t done = atomic_load_explicit(&pr.done, memory_order_relaxed);

	if (!pr.program_open)
		return pr.programs > 0 ? 1 : 0;
	if (pr.total == 0 || done == 0)
		return 0;
	return done >= pr.total ? 1 : (double)done / (double)pr.total;
}

/* Seconds left in the measurement: its average rate so far applied to the bytes left. */
static int64_t eta_seconds(int64_t now)
{
	uint64_t done = atomic_load_explicit(&pr.done, memory_order_relaxed);
	double elapsed = (double)(now - pr.start_ns) / 1e9;
	double left = (double)(pr.total - done);

	return (int64_t)(elapsed * left / (double)done + 0.5);
}

/*
 * The share of the whole run done: the steps before count their weight, the
 * current one its weight times how far it got (its measurements started,
 * against the number it usually takes, and the bytes of the latest).
 */
static double run_fraction(void)
{
	double all = 0, before = 0;

	for (int i = 0; i < pr.nsteps; i++) {
		all += pr.steps[i].weight;
		if (i < pr.cur)
			before += pr.steps[i].weight;
	}
	if (all <= 0 || pr.cur >= pr.nsteps)
		return 1;
	const struct progress_step *st = &pr.steps[pr.cur];
	double started = pr.programs > 0 ? pr.programs - 1 : 0;
	double expected = st->runs > started + 1.25 ? st->runs : started + 1.25;
	double part = (started + program_fraction()) / expected;

	if (part > 0.98)
		part = 0.98;
	return (before + st->weight * part) / all;
}

/* ---- the ETA from the plan ---- */

static int pend_class(bool write, uint64_t bytes)
{
	return (write ? 2 : 0) + (bytes < 128 * 1024 ? 1 : 0);
}

/* The span of the current measurement's recent rate: its last eighth, a second at least. */
static int64_t recent_window(int64_t now)
{
	int64_t share = (now - pr.start_ns) / RECENT_SHARE;
	return share > RECENT_MIN_NS ? share : RECENT_MIN_NS;
}

/* What was ticked since the clock was last read, measured now: into the rates. */
static void take_pending(int64_t now)
{
	double all = 0;

	for (int k = 0; k < 4; k++)
		all += pr.pend_bytes[k];
	if (all > 0 && now > pr.obs_ns)
		for (int k = 0; k < 4; k++)
			if (pr.pend_bytes[k] > 0) {
				double ns = (double)(now - pr.obs_ns) * pr.pend_bytes[k] / all;
				progress_rates_add(&pr.rates, pr.work.key, k >= 2, pr.pend_io[k], pr.pend_ios[k],
						   pr.pend_bytes[k], ns);
				if (pr.work.key > 0 && pr.work.key <= PROGRESS_KEYS)
					progress_fit_add(&pr.piece[pr.work.key - 1], pr.pend_ios[k], pr.pend_bytes[k],
							 ns);
			}
	/* samples for the recent rate: a quarter of its window apart */
	if (pr.program_open) {
		int64_t window = recent_window(now);
		if (pr.nrecent == 0 || now - pr.recent_ns[0] >= window / 4) {
			memmove(pr.recent_ns + 1, pr.recent_ns, (RECENT_SLOTS - 1) * sizeof(pr.recent_ns[0]));
			memmove(pr.recent_done + 1, pr.recent_done, (RECENT_SLOTS - 1) * sizeof(pr.recent_done[0]));
			pr.recent_ns[0] = now;
			pr.recent_done[0] = atomic_load_explicit(&pr.done, memory_order_relaxed);
			if (pr.nrecent < RECENT_SLOTS)
				pr.nrecent++;
		}
	}
	memset(pr.pend_ios, 0, sizeof(pr.pend_ios));
	memset(pr.pend_bytes, 0, sizeof(pr.pend_bytes));
	pr.obs_ns = now;
}

/* The current measurement's time left plus the plan's, in ns; -1 without a plan. */
static double plan_eta_ns(int64_t now)
{
	struct progress_work w = pr.work;
	uint64_t done = atomic_load_explicit(&pr.done, memory_order_relaxed);
	double ns = 0;

	if (!pr.have_plan)
		return -1;
	/*
	 * the work since the last progress_rekey_last() (an open-AU run under
	 * way: planned to hold, it may be collapsing) stays out of its key's
	 * rate where that key has a rate without it
	 */
	struct progress_rates rates = pr.rates;
	for (int k = 0; k < PROGRESS_KEYS; k++) {
		struct progress_fit without = rates.k[k];
		progress_fit_merge(&without, &pr.piece[k], -1);
		if (pr.piece[k].ns > 0 && without.ns >= PIECE_APART_NS)
			rates.k[k] = without;
	}
	double recent = 0;	/* the current measurement's recent time per byte */
	if (pr.program_open) {
		int64_t window = recent_window(now);
		int a = -1;	/* the newest sample a window old, else the oldest */
		for (int i = 0; i < pr.nrecent && a < 0; i++)
			if (now - pr.recent_ns[i] >= window || i == pr.nrecent - 1)
				a = i;
		if (a >= 0 && pr.recent_ns[a] > pr.start_ns && done > pr.recent_done[a])
			recent = (double)(now - pr.recent_ns[a]) / (double)(done - pr.recent_done[a]);
	}
	if (pr.have_step_plan) {	/* what was moved since it was stated is done of it */
		uint64_t used = atomic_load_explicit(&pr.moved, memory_order_relaxed) - pr.step_plan_moved;
		for (int i = 0; i < pr.nstep_plan; i++) {
			struct progress_work item = pr.step_plan[i];
			uint64_t take = used < item.bytes ? used : item.bytes;
			used -= take;
			item.bytes -= take;
			if (take)
				item.pause_ns = 0;	/* under way: its pause is past */
			double item_ns = progress_plan_ns(&rates, &item, item.bytes ? 1 : 0);
			if (take && item.bytes && recent > 0 && pr.total > 0) {
				/* the item under way: at the measurement's recent rate, the further it got the more */
				double trust = 4.0 * (double)done / (double)pr.total;
				trust = trust > 1 ? 1 : trust;
				item_ns = trust * recent * (double)item.bytes + (1 - trust) * item_ns;
			}
			ns += item_ns;
		}
		return ns + progress_plan_ns(&rates, pr.run_plan, pr.nrun_plan);
	}
	w.pause_ns = 0;	/* under way: its pause is past */
	if (pr.program_open) {
		if (!pr.cur_sized) {
			w.io_bytes = (uint32_t)atomic_load_explicit(&pr.blocksize, memory_order_relaxed);
			w.write = atomic_load_explicit(&pr.cur_write, memory_order_relaxed);
		}
		if (pr.quiet) {
			ns = progress_work_ns(&rates, &w) - (double)(now - pr.start_ns);
			ns = ns > 0 ? ns : 0;
		} else {
			/* (the recent rate in a run only: a test's measurement keeps its average) */
			ns = progress_current_ns(&rates, &w, done, (double)(now - pr.start_ns),
						 pr.in_run ? recent : 0);
		}
	}
	return ns + progress_plan_ns(&rates, pr.plan, pr.nplan) +
	       progress_plan_ns(&rates, pr.run_plan, pr.nrun_plan);
}

/* "step 3 of 5": the steps that will run, this one's place among them */
static void step_numbers(int *nth, int *of)
{
	*nth = *of = 0;
	for (int i = 0; i < pr.nsteps; i++)
		if (!pr.skipped[i]) {
			*of += 1;
			*nth += i <= pr.cur;
		}
	if (*nth == 0)
		*nth = 1;
}

/* The figure the line shows: the run's (or planned test's) time left; -1 if none. */
static int64_t shown_eta_ns(int64_t now)
{
	double plan = plan_eta_ns(now);

	if (plan >= 0)
		return (int64_t)plan;
	if (pr.in_run) {
		double f = run_fraction();
		double elapsed = (double)(now - pr.test_start_ns);
		return f >= 0.002 ? (int64_t)(elapsed * (1 - f) / f) : -1;
	}
	uint64_t done = atomic_load_explicit(&pr.done, memory_order_relaxed);
	if (pr.program_open && pr.total > 0 && done > 0 && done <= pr.total)
		return eta_seconds(now) * 1000000000;
	return -1;
}

int64_t progress_eta_ns(void)
{
	int64_t eta;

	lock();
	eta = pr.on ? shown_eta_ns(now_ns()) : -1;
	unlock();
	return eta;
}

/* The line; with_written: the bytes written so far too (left out where the terminal is narrow). */
static int format_line(char *line, size_t n, int64_t now, bool with_written)
{
	char size[FMT_BUF], eta[32];
	const char *sep = " ";	/* before the next item */
	uint64_t done = atomic_load_explicit(&pr.done, memory_order_relaxed);
	uint64_t written = atomic_load_explicit(&pr.written, memory_order_relaxed);
	uint64_t bs = atomic_load_explicit(&pr.blocksize, memory_order_relaxed);
	bool measuring = !pr.in_run || pr.program_open;
	int len;

	if (pr.in_run) {
		int nth, of;
		step_numbers(&nth, &of);
		len = snprintf(line, n, "step %d of %d, %s:", nth, of,
			       pr.cur < pr.nsteps ? pr.steps[pr.cur].name : "");
	} else {
		len = snprintf(line, n, "%s%s%s:", pr.test, pr.step[0] ? " " : "", pr.step);
	}

#define ADD(...) (len += snprintf(line + len, len < (int)n ? n - len : 0, __VA_ARGS__), sep = ", ")
	if (measuring && bs)
		ADD("%s%s blocks", sep, fmt_size(size, bs));
	if (measuring && pr.total > 0 && done <= pr.total)
		ADD("%s%d%%", sep, (int)(100.0 * (double)done / (double)pr.total));
	if (written > 0 && !pr.in_run && with_written)	/* a run's line has no room for it */
		ADD("%s%s written", sep, fmt_size(size, written));
	/* the measurement's own ETA, in a run, or in a test that stated no plan */
	if (measuring && pr.total > 0 && done > 0 && done <= pr.total && (pr.in_run || !pr.have_plan)) {
		fmt_duration(eta, sizeof(eta), eta_seconds(now));
		ADD("%sETA %s", sep, eta);
	}
	int64_t left = pr.in_run || pr.have_plan ? shown_eta_ns(now) : -1;
	if (left >= 0) {
		fmt_duration(eta, sizeof(eta), (left + 500000000) / 1000000000);
		ADD("%s%s %s", sep, pr.in_run ? "run ETA" : "ETA", eta);
	}
#undef ADD
	return len < (int)n ? len : (int)n - 1;
}

/* Draws the line; the caller holds the state. */
static void show(int64_t now)
{
	char line[256];
	int len = format_line(line, sizeof(line), now, true);

	if (len > pr.width - 1)		/* the ETA rather than the bytes written */
		len = format_line(line, sizeof(line), now, false);

	if (len > pr.width - 1)
		len = pr.width - 1;	/* a wrapped line could not be rewritten with \r */
	fprintf(stderr, "\r%.*s\033[K", len, line);
	fflush(stderr);
	shown = 1;
	cleared = 0;
	atomic_store(&pr.last_ns, now);
}

/* Is a line due now? every: how long since the last one at least. */
static bool due(int64_t now, int64_t every)
{
	return pr.on && now - pr.test_start_ns >= SHOW_AFTER_NS &&
	       now >= atomic_load(&hold_until) && now - atomic_load(&pr.last_ns) >= every;
}

static void *ticker(void *arg)
{
	(void)arg;
	for (;;) {
		pause_ms(WAKE_NS / 1000000);
		if (!lock_for(0))
			continue;
		int64_t now = now_ns();
		if (due(now, KEEPALIVE_NS))
			show(now);
		unlock();
	}
	return NULL;
}

/* The redrawing thread, once a terminal is there; signals stay with the main thread. */
static void start_ticker(void)
{
	sigset_t all, old;
	pthread_t t;

	if (ticker_started)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, NULL, ticker, NULL) == 0) {
		pthread_detach(t);
		ticker_started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * At once if the line is due anyway (5 a second at most); otherwise the
 * next tick or the thread draws it.
 */
void progress_redraw(void)
{
	atomic_store(&hold_until, 0);
	if (!lock_for(50))
		return;	/* the thread is drawing it anyway */
	int64_t now = now_ns();
	if (cleared && !shown && due(now, REFRESH_NS))
		show(now);
	cleared = 0;
	unlock();
}

void progress_clear(void)
{
	/* may run in a signal handler: wait for the thread's draw only briefly */
	bool locked = lock_for(50);

	atomic_store(&hold_until, now_ns() + HOLD_NS);
	if (shown)
		cleared = 1;
	erase_line();
	if (locked)
		unlock();
}

/* The measured rates and pauses start afresh (a new test or run); the caller holds the state. */
static void forget_rates(int64_t now)
{
	memset(&pr.rates, 0, sizeof(pr.rates));
	memset(pr.piece, 0, sizeof(pr.piece));
	for (int k = 0; k < PROGRESS_KEYS; k++)
		if (pr.like[k])
			progress_rates_like(&pr.rates, k + 1, pr.like[k], pr.like_factor[k]);
	memset(pr.pend_ios, 0, sizeof(pr.pend_ios));
	memset(pr.pend_bytes, 0, sizeof(pr.pend_bytes));
	pr.obs_ns = now;
	pr.done_ns = 0;
}

static void forget_plan(void)
{
	pr.nplan = pr.nrun_plan = pr.nstep_plan = 0;
	pr.have_plan = pr.have_step_plan = false;
}

void progress_on_start(int (*fn)(void *arg), void *arg)
{
	on_start = fn;
	on_start_arg = arg;
}

/* A new test: the state as it starts; the caller holds it. */
static bool begin_test(const char *test, int64_t now)
{
	erase_line();
	memset(pr.test, 0, sizeof(pr.test));
	pr.on = isatty(STDERR_FILENO);
	pr.in_run = false;
	atomic_store(&pr.written, 0);
	atomic_store(&pr.moved, 0);
	atomic_store(&pr.last_ns, 0);
	forget_rates(now);	/* a plan stated before the test's first measurement stays */
	if (!pr.on)
		return false;
	snprintf(pr.test, sizeof(pr.test), "%s", test ? test : "");
	pr.width = terminal_width();
	pr.test_start_ns = now;
	return true;
}

static void start(const char *test, const char *step, const struct progress_work *w, bool sized,
		  bool quiet)
{
	int key = pr.in_run && on_start ? on_start(on_start_arg) : 0;	/* outside the lock */
	int64_t now = now_ns();
	bool same_test = pr.on && (pr.in_run || strcmp(pr.test, test ? test : "") == 0);

	lock();
	if (!same_test && !begin_test(test, now)) {
		unlock();
		return;
	}
	if (pr.in_run)
		snprintf(pr.test, sizeof(pr.test), "%s", test ? test : "");
	/* a new step of the same test rewrites the line in place */
	snprintf(pr.step, sizeof(pr.step), "%s", step ? step : "");
	take_pending(now);
	if (pr.done_ns > 0 && !pr.program_open) {	/* the pause since the last measurement */
		pr.rates.gap_ns += (double)(now - pr.done_ns);
		pr.rates.gaps++;
	}
	pr.done_ns = 0;
	pr.work = *w;
	if (!pr.work.key)
		pr.work.key = key;
	pr.cur_sized = sized;
	pr.quiet = quiet;
	pr.total = quiet ? 0 : w->bytes;
	atomic_store(&pr.done, 0);
	atomic_store(&pr.blocksize, 0);
	pr.countdown = TICKS_PER_CLOCK;
	pr.start_ns = now;
	pr.recent_ns[0] = now;	/* (a sample not past the start: no recent rate yet) */
	pr.recent_done[0] = 0;
	pr.nrecent = 1;
	pr.programs++;
	pr.program_open = true;
	bool ticker_needed = !ticker_started;
	if (shown && due(now, REFRESH_NS))
		show(now);
	unlock();
	if (ticker_needed)
		start_ticker();
}

void progress_start(const char *test, const char *step, uint64_t total_bytes)
{
	struct progress_work w = { .bytes = total_bytes };

	start(test, step, &w, false, false);
}

void progress_start_work(const char *test, const char *step, const struct progress_work *w)
{
	start(test, step, w, true, false);
}

void progress_start_quiet(const char *test, const char *step, const struct progress_work *w)
{
	start(test, step, w, true, true);
}

static void set_plan(struct progress_work *to, int *nto, const struct progress_work *items, int n)
{
	lock();
	*nto = n < 0 ? 0 : n > MAX_PLAN ? MAX_PLAN : n;
	if (*nto)
		memcpy(to, items, (size_t)*nto * sizeof(*items));
	pr.have_plan = true;
	unlock();
}

void progress_plan(const struct progress_work *items, int n)
{
	set_plan(pr.plan, &pr.nplan, items, n);
}

void progress_run_plan(const struct progress_work *items, int n)
{
	set_plan(pr.run_plan, &pr.nrun_plan, items, n);
}

void progress_step_plan(const struct progress_work *items, int n)
{
	set_plan(pr.step_plan, &pr.nstep_plan, items, n);
	lock();
	pr.have_step_plan = true;
	pr.step_plan_moved = atomic_load(&pr.moved);
	unlock();
}

static void poll_clock(void)
{
	int64_t now = now_ns();

	if (!lock_for(0))
		return;	/* the thread is drawing it */
	take_pending(now);
	if (due(now, REFRESH_NS))
		show(now);
	unlock();
}

void progress_tick(uint64_t bytes, bool written)
{
	if (!pr.on)
		return;
	int k = pend_class(written, bytes);

	pr.pend_ios[k] += 1;
	pr.pend_bytes[k] += (double)bytes;
	pr.pend_io[k] = bytes;
	atomic_fetch_add_explicit(&pr.done, bytes, memory_order_relaxed);
	atomic_fetch_add_explicit(&pr.moved, bytes, memory_order_relaxed);
	atomic_store_explicit(&pr.blocksize, bytes, memory_order_relaxed);
	atomic_store_explicit(&pr.cur_write, written, memory_order_relaxed);
	if (written)
		atomic_fetch_add_explicit(&pr.written, bytes, memory_order_relaxed);
	/* the clock every TICKS_PER_CLOCK small I/Os, or every 4 MiB of large ones */
	unsigned int step = 1 + (unsigned int)(bytes >> 17);
	if (pr.countdown <= step) {
		pr.countdown = TICKS_PER_CLOCK;
		poll_clock();
	} else {
		pr.countdown -= step;
	}
}

void progress_done(void)
{
	int64_t now = now_ns();

	lock();
	take_pending(now);
	pr.done_ns = now;
	if (pr.in_run) {
		pr.program_open = false;	/* the run's line stays */
	} else {
		erase_line();
		pr.on = false;
		pr.program_open = false;
		forget_plan();
	}
	unlock();
}

void progress_run_begin(const struct progress_step *steps, int nsteps)
{
	int64_t now = now_ns();

	lock();
	forget_plan();
	if (!begin_test("", now)) {
		unlock();
		return;
	}
	pr.in_run = true;
	pr.nsteps = nsteps < MAX_STEPS ? nsteps : MAX_STEPS;
	memcpy(pr.steps, steps, (size_t)pr.nsteps * sizeof(*steps));
	memset(pr.skipped, 0, sizeof(pr.skipped));
	pr.cur = 0;
	pr.programs = 0;
	pr.program_open = false;
	pr.total = 0;
	bool ticker_needed = !ticker_started;
	unlock();
	if (ticker_needed)
		start_ticker();
}

void progress_run_step(int step)
{
	lock();
	if (pr.in_run && step >= 0 && step < pr.nsteps) {
		pr.cur = step;
		pr.skipped[step] = false;
		pr.programs = 0;
		pr.program_open = false;
		pr.total = 0;
		pr.nplan = pr.nstep_plan = 0;	/* the step's plans are its own; the run's stays */
		pr.have_step_plan = false;
		atomic_store(&pr.blocksize, 0);
		int64_t now = now_ns();
		if (due(now, REFRESH_NS))
			show(now);
	}
	unlock();
}

void progress_run_skip(int step)
{
	lock();
	if (step >= 0 && step < pr.nsteps)	/* the current one too: it did not run after all */
		pr.skipped[step] = true;
	unlock();
}

void progress_run_end(void)
{
	lock();
	if (pr.in_run) {
		erase_line();
		pr.on = false;
		pr.in_run = false;
	}
	forget_plan();
	on_start = NULL;
	memset(pr.like, 0, sizeof(pr.like));
	memset(pr.like_factor, 0, sizeof(pr.like_factor));
	unlock();
}

void progress_key_like(int key, int like, double factor)
{
	lock();
	if (key >= 1 && key <= PROGRESS_KEYS && like <= PROGRESS_KEYS && like != key) {
		pr.like[key - 1] = like;
		pr.like_factor[key - 1] = factor;
		progress_rates_like(&pr.rates, key, like, factor);
	}
	unlock();
}

double progress_key_ns_per_byte(int key)
{
	double ns = 0;

	lock();
	if (key >= 1 && key <= PROGRESS_KEYS && pr.rates.k[key - 1].bytes > 0)
		ns = pr.rates.k[key - 1].ns / pr.rates.k[key - 1].bytes;
	unlock();
	return ns;
}

void progress_rekey_last(int key)
{
	lock();
	take_pending(now_ns());
	for (int k = 0; k < PROGRESS_KEYS; k++)
		if (key >= 1 && key <= PROGRESS_KEYS && k + 1 != key)
			progress_rates_move(&pr.rates, &pr.piece[k], k + 1, key);
	memset(pr.piece, 0, sizeof(pr.piece));
	unlock();
}
