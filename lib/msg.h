/*
 * The one way flashbench talks to the user about trouble, in util-linux's
 * warnx()/errx() style: "flashbench: MESSAGE" on standard error.
 * Not through here: signal handlers (safety/signals.c, safety/preserve.c) write with
 * write(2), the only async-signal-safe way, and the renderers and --capacity
 * -v write their status lines to the stream they are handed.
 */
#ifndef FB_MSG_H
#define FB_MSG_H

#include <stddef.h>

#define EXIT_USAGE 2	/* a usage error: nothing was done */

/*
 * in as one line into out (n bytes): control bytes as C escapes (\n, \t,
 * \r, \xNN), so a value echoed as typed (--blocksize=$'4k\n') cannot split
 * a message. Every message below goes through it.
 */
void msg_one_line(const char *in, char *out, size_t n);

/* "flashbench: MESSAGE\n" on stderr, one line. */
void warnx_fb(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* warnx_fb(), then exit(status). */
void errx_fb(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
