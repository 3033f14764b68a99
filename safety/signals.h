/* Stop signals: the first ends the run after the current I/O. */
#ifndef FB_SIGNALS_H
#define FB_SIGNALS_H


/*
 * SIGINT/SIGTERM/SIGHUP: the first sets vm_stop_requested (the current I/O
 * finishes, partial results are printed, exit 130); a second one makes one
 * restore attempt of preserved data (or lets the one under way finish),
 * says what state the device is in and exits; later ones are answered
 * but do not cut the restore short.
 */
void safety_install_signals(void);
int safety_exit_status_for_signal(void);	/* 130 for SIGINT, 143 TERM, 129 HUP; 0 if none */


/* write(2)s s to stderr: for signal handlers. */
void signal_say(const char *s);

#endif
