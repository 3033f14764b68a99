#include "lib/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/progress.h"

void msg_one_line(const char *in, char *out, size_t n)
{
	static const char named[] = "\n\t\r", letters[] = "ntr";
	size_t l = 0;

	if (!n)
		return;
	for (; *in && l + 5 < n; in++) {
		unsigned char c = (unsigned char)*in;
		const char *k = strchr(named, c);
		if (k)
			l += (size_t)snprintf(out + l, n - l, "\\%c", letters[k - named]);
		else if (c < 0x20 || c == 0x7f)
			l += (size_t)snprintf(out + l, n - l, "\\x%02x", c);
		else
			out[l++] = (char)c;
	}
	out[l] = '\0';
}

/* A message takes the progress line's place, one line; the progress line comes back below it. */
static void vwarn(const char *fmt, va_list ap)
{
	char *text = NULL, *line;
	va_list copy;

	va_copy(copy, ap);
	int len = vasprintf(&text, fmt, copy);
	va_end(copy);
	line = len >= 0 ? malloc(4 * (size_t)len + 1) : NULL;
	progress_clear();
	fputs("flashbench: ", stderr);
	if (line) {
		msg_one_line(text, line, 4 * (size_t)len + 1);
		fputs(line, stderr);
	} else {
		vfprintf(stderr, fmt, ap);
	}
	fputc('\n', stderr);
	fflush(stderr);
	progress_redraw();
	free(line);
	if (len >= 0)
		free(text);
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
