/*
 * Fatal signals: the first stop signal ends the run after the current I/O;
 * what comes after is for whoever holds the user's data (registered here,
 * so this unit needs nobody: safety/preserve.c registers itself).
 */
#ifndef FB_SIGNALS_H
#define FB_SIGNALS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Every catchable signal whose default action ends the process is caught
 * (SIGKILL and SIGSTOP cannot be; SIGPIPE is ignored while data is at
 * stake, see safety/preserve.c):
 * - stop signals (HUP INT QUIT TERM USR1 USR2 ALRM VTALRM PROF XCPU XFSZ
 *   PWR IO STKFLT and the real-time ones): the first sets
 *   vm_stop_requested (the current I/O finishes, partial results are
 *   printed, exit 128 + signal); a second one calls the registered
 *   handler (one restore attempt of preserved data, or it lets the one
 *   under way finish) and exits; later ones are answered but do not cut
 *   a restore short;
 *   A stop signal that was ignored when the program started (nohup) stays
 *   ignored;
 * - program errors (ILL TRAP ABRT BUS FPE SEGV SYS): the registered
 *   handler at once, then the signal's own default action (a core dump).
 */
void safety_install_signals(void);
/* 128 + the first stop signal (130 for SIGINT, 143 TERM, 129 HUP); 0 if none */
int safety_exit_status_for_signal(void);

/*
 * While idle (nothing read or written yet: outputs being opened, say) the
 * first stop signal ends the run at once, exit 128 + signal.
 */
void safety_signals_idle(bool idle);
/*
 * What a signal that ends an idle run writes to standard output first (the
 * --json document of an interrupted run), len bytes; NULL: nothing. doc
 * must live as long as the process.
 */
void safety_signals_idle_document(const char *doc, size_t len);

/*
 * What a second stop signal (or a program error) calls: it returns true
 * when the process should exit now, false when the handler should just
 * return (a restore under way outside the handler exits when done). It
 * must be async-signal-safe. NULL: exit at once.
 */
typedef bool (*safety_signal_fn)(int sig);
void safety_on_fatal_signal(safety_signal_fn fn);

/* write(2)s s to stderr: for signal handlers. */
void safety_signal_say(const char *s);

#endif
