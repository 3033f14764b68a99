#include "lib/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/progress.h"

/* A message takes the progress line's place; the line comes back below it. */
static void vwarn(const char *fmt, va_list ap)
{
	progress_clear();
	fputs("flashbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
	progress_redraw();
}

void warnx_fb(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void errx_fb(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}
