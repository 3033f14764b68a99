/*
 * Test helper: hand a document to python3 and get back what an expression
 * over it printed. `d` is the parsed document (json.loads, or the
 * xml.etree.ElementTree root for PY_XML).
 *
 * One python3 process serves every evaluation of a test binary (starting
 * python per check made these tests take seconds). Requests and replies go
 * over pipes, length-prefixed: "J|X <doclen> <exprlen>\n" doc expr, and
 * "<len>\n" reply. A test calls py_require() first: without python3 it
 * skips (exit 77) and says so.
 */
#ifndef FB_TEST_PYEVAL_H
#define FB_TEST_PYEVAL_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum py_kind { PY_JSON, PY_XML };

static const char py_server[] =
	"import sys, json, xml.etree.ElementTree as ET\n"
	"inp, out = sys.stdin.buffer, sys.stdout.buffer\n"
	"out.write(b'ready\\n'); out.flush()\n"
	"while True:\n"
	"    h = inp.readline()\n"
	"    if not h:\n"
	"        break\n"
	"    kind, dl, el = h.split()\n"
	"    doc = inp.read(int(dl)); expr = inp.read(int(el)).decode()\n"
	"    try:\n"
	"        d = json.loads(doc) if kind == b'J' else ET.fromstring(doc)\n"
	"        r = str(eval(expr, {'d': d, 'json': json, 'ET': ET, 'sys': sys}))\n"
	"    except Exception as e:\n"
	"        r = 'ERROR %s: %s' % (type(e).__name__, e)\n"
	"    b = r.encode('utf-8', 'backslashreplace')\n"
	"    out.write(b'%d\\n' % len(b) + b); out.flush()\n";

static struct {
	pid_t pid;
	FILE *to, *from;
	int state;	/* 0 not started, 1 running, -1 unavailable */
} py_proc;

static inline void py_stop(void)
{
	if (py_proc.state != 1)
		return;
	fclose(py_proc.to);
	fclose(py_proc.from);
	waitpid(py_proc.pid, NULL, 0);
	py_proc.state = 0;
}

static inline int py_start(void)
{
	int in[2], out[2];
	char line[16];

	if (py_proc.state)
		return py_proc.state;
	py_proc.state = -1;
	if (pipe(in) < 0 || pipe(out) < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	fflush(stdout);
	py_proc.pid = fork();
	if (py_proc.pid < 0)
		return -1;
	if (py_proc.pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		execlp("python3", "python3", "-c", py_server, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	py_proc.to = fdopen(in[1], "w");
	py_proc.from = fdopen(out[0], "r");
	if (!py_proc.to || !py_proc.from || !fgets(line, sizeof line, py_proc.from) ||
	    strcmp(line, "ready\n") != 0) {
		waitpid(py_proc.pid, NULL, 0);
		return -1;
	}
	py_proc.state = 1;
	atexit(py_stop);
	return 1;
}

/* Skips the whole test binary, saying why, when python3 cannot run. */
static inline void py_require(void)
{
	if (py_start() != 1) {
		printf("skip: needs python3 (the checks parse documents with it)\n");
		exit(77);
	}
}

/* Returns a static buffer holding the expression's value as text, or "ERROR ...". */
static inline const char *py_eval(enum py_kind kind, const char *doc, size_t len, const char *expr)
{
	static char out[4096];
	size_t n;

	strcpy(out, "ERROR python3 unavailable");
	if (py_start() != 1)
		return out;
	fprintf(py_proc.to, "%c %zu %zu\n", kind == PY_JSON ? 'J' : 'X', len, strlen(expr));
	fwrite(doc, 1, len, py_proc.to);
	fputs(expr, py_proc.to);
	if (fflush(py_proc.to) != 0 || fscanf(py_proc.from, "%zu", &n) != 1 ||
	    fgetc(py_proc.from) != '\n') {
		strcpy(out, "ERROR python3 died");
		return out;
	}
	for (size_t i = 0; i < n; i++) {
		int c = fgetc(py_proc.from);

		if (c == EOF)
			break;
		if (i < sizeof(out) - 1)
			out[i] = (char)c;
	}
	out[n < sizeof(out) - 1 ? n : sizeof(out) - 1] = '\0';
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
