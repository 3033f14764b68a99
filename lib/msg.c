#include "lib/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void vwarn(const char *fmt, va_list ap)
{
	fputs("flashbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
