/*
 * A virtual clock for the tests of what flashbench shows over time (the
 * progress line): LD_PRELOAD it, and every clock the program reads stands
 * still while any of its threads runs; it moves on only when every thread
 * sleeps (nanosleep and its kin), straight to the earliest wake-up. A sim:
 * card's realtime=PCT pacing, the progress thread's wake-ups and its redraws
 * then happen at exact, repeatable times, whatever else the machine is
 * doing, and without waiting for them: a test decides from these times,
 * never from the wall clock.
 *
 *   VCLOCK_LOG=FILE   per write to standard error, one line "DELAY BYTES":
 *                     the virtual seconds since the previous line (the
 *                     first: since the start), as script -T logs; at exit a
 *                     last line "DELAY 0" (the run's end)
 *
 * Threads blocked in anything but a sleep count as running (the clock
 * waits for them). CPU-time clocks stay real. The test's own; no code of
 * other projects.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define REAL(name, type) \
	static type real_##name; \
	if (!real_##name) \
		real_##name = (type)dlsym(RTLD_NEXT, #name)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static int64_t now;		/* virtual ns since the start */
static int64_t base_mono, base_real;	/* the real clocks at the start */
static int threads = 1, sleepers;

struct sleeper {
	int64_t deadline;
	int woken;
	struct sleeper *next;
};
static struct sleeper *asleep;

static int log_fd = -1;
static int64_t logged;		/* the virtual time of the last log line */

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static int64_t real_ns(clockid_t c)
{
	struct timespec ts;
	REAL(clock_gettime, gettime_fn);
	real_clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

__attribute__((constructor)) static void start(void)
{
	base_mono = real_ns(CLOCK_MONOTONIC);
	base_real = real_ns(CLOCK_REALTIME);
	const char *log = getenv("VCLOCK_LOG");
	if (log && *log)
		log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
}

static int64_t virtual_now(void)
{
	return __atomic_load_n(&now, __ATOMIC_ACQUIRE);
}

typedef ssize_t (*write_fn)(int, const void *, size_t);

static void log_line(int64_t bytes)
{
	char line[64];
	if (log_fd < 0)
		return;
	pthread_mutex_lock(&mu);
	int64_t t = now;
	int n = snprintf(line, sizeof line, "%.6f %lld\n", (double)(t - logged) / 1e9, (long long)bytes);
	logged = t;
	pthread_mutex_unlock(&mu);
	REAL(write, write_fn);
	if (real_write(log_fd, line, (size_t)n) < 0)
		return;
}

__attribute__((destructor)) static void finish(void)
{
	log_line(0);
}

static uint64_t reads;		/* clock reads so far */

/* For a program that must run on this clock: is it there? */
int64_t vclock_now_ns(void)
{
	return virtual_now();
}

/* How often the program read a clock (CPU-time clocks aside): what a loop costs, counted. */
uint64_t vclock_reads(void)
{
	return __atomic_load_n(&reads, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ the clock */

/* Every thread sleeps: the clock jumps to the earliest wake-up; the caller holds mu. */
static void advance(void)
{
	struct sleeper *s;
	int64_t first = INT64_MAX;

	for (s = asleep; s; s = s->next)
		if (!s->woken && s->deadline < first)
			first = s->deadline;
	if (first == INT64_MAX)
		return;
	if (first > now)
		__atomic_store_n(&now, first, __ATOMIC_RELEASE);
	for (s = asleep; s; s = s->next)
		if (!s->woken && s->deadline <= now) {
			s->woken = 1;	/* awake from now on: no longer counted as sleeping */
			sleepers--;
		}
	pthread_cond_broadcast(&wake);
}

static void sleep_until(int64_t deadline)
{
	struct sleeper me = { deadline, 0, NULL }, **p;

	pthread_mutex_lock(&mu);
	if (deadline > now) {
		me.next = asleep;
		asleep = &me;
		sleepers++;
		while (!me.woken) {
			if (sleepers == threads)
				advance();
			else
				pthread_cond_wait(&wake, &mu);
		}
		for (p = &asleep; *p != &me; p = &(*p)->next)
			;
		*p = me.next;
	}
	pthread_mutex_unlock(&mu);
}

static int64_t ns_of(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static int64_t base_of(clockid_t c)
{
	return c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE || c == CLOCK_TAI ? base_real : base_mono;
}

static int is_cpu_clock(clockid_t c)
{
	return c == CLOCK_PROCESS_CPUTIME_ID || c == CLOCK_THREAD_CPUTIME_ID || c < 0;
}

int clock_gettime(clockid_t c, struct timespec *ts)
{
	if (is_cpu_clock(c)) {
		REAL(clock_gettime, gettime_fn);
		return real_clock_gettime(c, ts);
	}
	int64_t t = base_of(c) + virtual_now();
	__atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
	ts->tv_sec = t / 1000000000;
	ts->tv_nsec = t % 1000000000;
	return 0;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	{
		int64_t t = base_real + virtual_now();
		tv->tv_sec = t / 1000000000;
		tv->tv_usec = t % 1000000000 / 1000;
	}
	return 0;
}

time_t time(time_t *t)
{
	time_t v = (time_t)((base_real + virtual_now()) / 1000000000);
	if (t)
		*t = v;
	return v;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000) {
		errno = EINVAL;
		return -1;
	}
	sleep_until(virtual_now() + ns_of(req));
	if (rem)
		rem->tv_sec = 0, rem->tv_nsec = 0;
	return 0;
}

int clock_nanosleep(clockid_t c, int flags, const struct timespec *req, struct timespec *rem)
{
	if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000 || is_cpu_clock(c))
		return EINVAL;
	sleep_until(flags & TIMER_ABSTIME ? ns_of(req) - base_of(c) : virtual_now() + ns_of(req));
	if (rem && !(flags & TIMER_ABSTIME))
		rem->tv_sec = 0, rem->tv_nsec = 0;
	return 0;
}

int usleep(useconds_t us)
{
	sleep_until(virtual_now() + (int64_t)us * 1000);
	return 0;
}

unsigned int sleep(unsigned int s)
{
	sleep_until(virtual_now() + (int64_t)s * 1000000000);
	return 0;
}

/* ------------------------------------------------------------ threads */

struct start {
	void *(*fn)(void *);
	void *arg;
};

static void thread_gone(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&mu);
	threads--;
	if (threads > 0 && sleepers == threads)
		advance();
	pthread_mutex_unlock(&mu);
}

static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;
	void *r;

	free(p);
	pthread_cleanup_push(thread_gone, NULL);
	r = s.fn(s.arg);
	pthread_cleanup_pop(1);
	return r;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	REAL(pthread_create, create_fn);
	struct start *s = malloc(sizeof *s);
	if (!s)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	pthread_mutex_lock(&mu);
	threads++;	/* counted as running before it runs: the clock waits for it */
	pthread_mutex_unlock(&mu);
	int r = real_pthread_create(t, attr, trampoline, s);
	if (r) {
		free(s);
		thread_gone(NULL);
	}
	return r;
}

static void forked(void)
{
	threads = 1;
	sleepers = 0;
	asleep = NULL;
}

__attribute__((constructor)) static void watch_forks(void)
{
	pthread_atfork(NULL, NULL, forked);
}

/* ------------------------------------------------------------ what reaches standard error */

static int is_stderr(FILE *f)
{
	return f == stderr;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	REAL(write, write_fn);
	ssize_t r = real_write(fd, buf, n);
	if (fd == STDERR_FILENO && r > 0)
		log_line(r);
	return r;
}

typedef int (*vfprintf_fn)(FILE *, const char *, va_list);
typedef int (*vfprintf_chk_fn)(FILE *, int, const char *, va_list);

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	REAL(vfprintf, vfprintf_fn);
	int r = real_vfprintf(f, fmt, ap);
	if (is_stderr(f) && r > 0)
		log_line(r);
	return r;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfprintf(f, fmt, ap);
	va_end(ap);
	return r;
}

int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	REAL(__vfprintf_chk, vfprintf_chk_fn);
	int r = real___vfprintf_chk(f, flag, fmt, ap);
	if (is_stderr(f) && r > 0)
		log_line(r);
	return r;
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = __vfprintf_chk(f, flag, fmt, ap);
	va_end(ap);
	return r;
}

typedef int (*fputs_fn)(const char *, FILE *);
typedef size_t (*fwrite_fn)(const void *, size_t, size_t, FILE *);
typedef int (*fputc_fn)(int, FILE *);

int fputs(const char *s, FILE *f)
{
	REAL(fputs, fputs_fn);
	int r = real_fputs(s, f);
	if (is_stderr(f) && r >= 0)
		log_line((int64_t)strlen(s));
	return r;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	REAL(fwrite, fwrite_fn);
	size_t r = real_fwrite(p, size, n, f);
	if (is_stderr(f) && r > 0)
		log_line((int64_t)(r * size));
	return r;
}

int fputc(int c, FILE *f)
{
	REAL(fputc, fputc_fn);
	int r = real_fputc(c, f);
	if (is_stderr(f) && r != EOF)
		log_line(1);
	return r;
}

int putc(int c, FILE *f)
{
	return fputc(c, f);
}
