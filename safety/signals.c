/*
 * SIGINT/SIGTERM/SIGHUP: the first stops the run after the current I/O;
 * the next ones are safety/preserve.c's (restoring the user's data, then exit).
 */
#include "safety/signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "safety/preserve.h"
#include "lib/progress.h"
#include "vm.h"

static volatile sig_atomic_t first_signal;

void signal_say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

static void on_stop_signal(int sig)
{
	int saved_errno = errno;	/* the interrupted code may be about to read it */

	if (!first_signal) {
		first_signal = sig;
		vm_stop_requested = 1;
		progress_clear();
		signal_say("flashbench: stopping after the current I/O (again to abort at once)\n");
	} else {
		preserve_on_signal(sig);
	}
	errno = saved_errno;
}

void safety_install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	/* not blocked in the handler: a third signal during its restore gets an answer */
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

int safety_exit_status_for_signal(void)
{
	return first_signal ? 128 + first_signal : 0;
}

