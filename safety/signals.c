/*
 * Fatal signals: the first stop signal ends the run after the current I/O;
 * a second one, or a program error, goes to the registered handler (the
 * user's data is put back) before the process ends.
 */
#include "safety/signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lib/progress.h"
#include "vm.h"

static volatile sig_atomic_t first_signal, idle;
static safety_signal_fn fatal_fn;
static const char *idle_document;	/* written to stdout when a signal ends an idle run */
static size_t idle_document_len;

/* A signal sent on purpose, or a program error the handler cannot return from. */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
	SIGXCPU, SIGXFSZ, SIGPWR, SIGIO, SIGSTKFLT,
};
static const int error_signals[] = { SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS };

void safety_signal_say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

void safety_on_fatal_signal(safety_signal_fn fn)
{
	fatal_fn = fn;
}

void safety_signals_idle(bool on)
{
	idle = on;
}

void safety_signals_idle_document(const char *doc, size_t len)
{
	idle_document_len = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	idle_document = doc;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	idle_document_len = doc ? len : 0;
}

/* The prepared document of a run stopped before it did anything (--json): whole, by write(2). */
static void say_idle_document(void)
{
	size_t done = 0;

	while (idle_document && done < idle_document_len) {
		ssize_t r = write(STDOUT_FILENO, idle_document + done, idle_document_len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		done += (size_t)r;
	}
}

static bool is_error_signal(int sig)
{
	for (size_t i = 0; i < sizeof error_signals / sizeof error_signals[0]; i++)
		if (error_signals[i] == sig)
			return true;
	return false;
}

/* The signal's own default action: a core dump for a program error. */
static void die_by(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void on_fatal_signal(int sig)
{
	int saved_errno = errno;	/* the interrupted code may be about to read it */

	if (is_error_signal(sig)) {
		if (fatal_fn)
			fatal_fn(sig);
		die_by(sig);
	}
	if (!first_signal && !idle) {
		first_signal = sig;
		vm_stop_requested = 1;
		progress_clear();
		safety_signal_say("flashbench: stopping after the current I/O (again to abort at once)\n");
	} else {
		if (idle && !first_signal)
			say_idle_document();
		if (!fatal_fn || fatal_fn(sig))
			_exit(128 + sig);
	}
	errno = saved_errno;
}

/*
 * A stop signal ignored when flashbench started stays ignored: nohup, or a
 * shell's trap '' HUP, said the run must outlive it (POSIX shells keep such
 * a signal ignored too).
 */
static void catch_unless_ignored(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (sigaction(sig, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
	    old.sa_handler == SIG_IGN)
		return;
	sigaction(sig, sa, NULL);
}

void safety_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	/* not blocked in the handler: a third signal during its restore gets an answer */
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		catch_unless_ignored(stop_signals[i], &sa);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		catch_unless_ignored(sig, &sa);
	for (size_t i = 0; i < sizeof error_signals / sizeof error_signals[0]; i++)
		sigaction(error_signals[i], &sa, NULL);
}

int safety_exit_status_for_signal(void)
{
	return first_signal ? 128 + first_signal : 0;
}
