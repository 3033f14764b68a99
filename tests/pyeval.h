/*
 * Test helper: hand a document to python3 and get back what an expression
 * over it printed. `d` is the parsed document (json.load, or
 * xml.etree.ElementTree root for PY_XML).
 */
#ifndef FB_TEST_PYEVAL_H
#define FB_TEST_PYEVAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum py_kind { PY_JSON, PY_XML };

/* Returns a static buffer holding python's stdout without the final newline, or "ERROR". */
static inline const char *py_eval(enum py_kind kind, const char *doc, size_t len, const char *expr)
{
	static char out[4096];
	char path[] = "/tmp/fb-pyeval.XXXXXX";
	char cmd[4096 + 256];
	int fd = mkstemp(path);

	strcpy(out, "ERROR");
	if (fd < 0)
		return out;
	if (write(fd, doc, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return out;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c '%s\nd = %s\nprint((%s))' 2>&1 < %s",
		 kind == PY_JSON ? "import json, sys" : "import sys, xml.etree.ElementTree as ET",
		 kind == PY_JSON ? "json.load(sys.stdin)" : "ET.parse(sys.stdin).getroot()",
		 expr, path);
	FILE *p = popen(cmd, "r");
	if (p) {
		size_t n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		if (n && out[n - 1] == '\n')
			out[n - 1] = '\0';
		if (pclose(p) != 0 && strncmp(out, "ERROR", 5) != 0) {
			memmove(out + 6, out, strlen(out) + 1 > sizeof(out) - 6 ? sizeof(out) - 7 : strlen(out) + 1);
			memcpy(out, "ERROR ", 6);
			out[sizeof(out) - 1] = '\0';
		}
	}
	unlink(path);
	return out;
}

/* A memory stream for renderers; call mem_close to get the text. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static inline FILE *mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

static inline const char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

#endif
