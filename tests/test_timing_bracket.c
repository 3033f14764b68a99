/*
 * "Measurement is sacred": the file backend's timing bracket holds exactly
 * the I/O. A child does a timed read, write and discard through dev.c and
 * backends/dev_file.c on a file of its own while this process traces every
 * syscall it makes (ptrace). clock_gettime is linked here as a real syscall
 * (the vDSO one would be invisible), so each bracket shows as
 * clock_gettime(CLOCK_MONOTONIC) ... clock_gettime(CLOCK_MONOTONIC), and
 * between the two there must be nothing but pread64, pwrite64 or fallocate.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"
#include "unit.h"

/* The clock the backend reads, as a syscall the tracer sees. */
int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return (int)syscall(SYS_clock_gettime, clk, ts);
}

#define IO_LEN (64 * 1024)
#define MAX_CALLS 256

/* The traced child: three timed I/Os between two getppid() markers. */
static void child(const char *path)
{
	struct dev d;
	char err[256];
	void *buf;
	int64_t ns;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		_exit(3);
	raise(SIGSTOP);
	if (posix_memalign(&buf, 4096, IO_LEN) || dev_open(&d, path, DEV_WRITE, err, sizeof err) < 0)
		_exit(4);
	memset(buf, 0x5a, IO_LEN);
	syscall(SYS_getppid);	/* begin */
	int r = dev_read(&d, buf, IO_LEN, 0, &ns);
	r |= dev_write(&d, buf, IO_LEN, IO_LEN, &ns);
	r |= dev_discard(&d, 2 * IO_LEN, IO_LEN, &ns);
	syscall(SYS_getppid);	/* end */
	_exit(r ? 5 : 0);	/* no exit handlers: nothing but these calls traced */
}

struct call {
	long nr;
	unsigned long long arg0;
};

/* Traces pid to its end; its syscalls (entries) in calls. Returns the count, -1 on error. */
static int trace(pid_t pid, struct call *calls, int max, int *status)
{
	int n = 0, st;

	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return -1;
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) < 0)
		return -1;
	int sig = 0;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) < 0)
			return -1;
		sig = 0;
		if (waitpid(pid, &st, 0) != pid)
			return -1;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			*status = st;
			return n;
		}
		if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);
			continue;
		}
		struct __ptrace_syscall_info info;
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof info, &info) < 0)
			return -1;
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY && n < max)
			calls[n++] = (struct call){ (long)info.entry.nr, info.entry.args[0] };
	}
}

static int is_clock(const struct call *c)
{
	return c->nr == SYS_clock_gettime && c->arg0 == CLOCK_MONOTONIC;
}

static const char *name(long nr)
{
	switch (nr) {
	case SYS_pread64: return "pread64";
	case SYS_pwrite64: return "pwrite64";
	case SYS_fallocate: return "fallocate";
	case SYS_clock_gettime: return "clock_gettime";
	case SYS_getppid: return "getppid";
	default: return "another syscall";
	}
}

/* 77 if tracing is not allowed here */
static int test_the_bracket_holds_exactly_the_io(const char *path)
{
	static const long want[3] = { SYS_pread64, SYS_pwrite64, SYS_fallocate };
	struct call calls[MAX_CALLS];
	int status = 0;

	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		child(path);
	CHECK_GT(pid, 0);
	int n = trace(pid, calls, MAX_CALLS, &status);
	if (n < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 77;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	int begin = -1, end = -1;
	for (int i = 0; i < n; i++)
		if (calls[i].nr == SYS_getppid)
			*(begin < 0 ? &begin : &end) = i;
	CHECK(begin >= 0 && end > begin);
	if (!(begin >= 0 && end > begin))
		return 0;
	int brackets = 0;
	for (int i = begin + 1; i < end; i++) {
		if (!is_clock(&calls[i]))
			continue;
		int j = i + 1;
		while (j < end && !is_clock(&calls[j]))
			j++;
		CHECK_LT(j, end);	/* every clock read before the I/O has its partner */
		if (j >= end)
			break;
		CHECK_LT(brackets, 3);
		if (brackets >= 3)
			break;
		CHECK_GT(j - i - 1, 0);	/* the I/O is inside */
		for (int k = i + 1; k < j; k++)
			if (calls[k].nr != want[brackets]) {
				unit_failed++;
				printf("FAIL: bracket %d (%s) holds %s (syscall %ld)\n", brackets + 1,
				       name(want[brackets]), name(calls[k].nr), calls[k].nr);
			}
		brackets++;
		i = j;
	}
	CHECK_EQ(brackets, 3);
	return 0;
}

int main(void)
{
	char path[] = "/tmp/fb-test-bracket-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0 || ftruncate(fd, 4 * IO_LEN) < 0) {
		printf("cannot create %s: %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);
	int probe = open(path, O_RDWR | O_DIRECT);
	if (probe < 0) {
		printf("skip: O_DIRECT does not work on /tmp\n");
		unlink(path);
		return 77;
	}
	close(probe);
	int r = test_the_bracket_holds_exactly_the_io(path);
	unlink(path);
	if (r == 77)
		printf("skip: this process may not trace its child (ptrace)\n");
	return r == 77 ? 77 : unit_summary();
}
