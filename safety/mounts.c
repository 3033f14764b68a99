/* /proc/self/mountinfo: what is mounted where, and which device holds "/". */
#include "safety/mounts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Decodes the \ooo escapes the kernel puts in mountinfo paths. */
static void unescape_mount_path(const char *in, size_t len, char *out, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < n; i++) {
		if (in[i] == '\\' && i + 3 < len &&
		    in[i + 1] >= '0' && in[i + 1] <= '3' && in[i + 2] >= '0' && in[i + 2] <= '7' &&
		    in[i + 3] >= '0' && in[i + 3] <= '7') {
			out[o++] = (char)((in[i + 1] - '0') * 64 + (in[i + 2] - '0') * 8 + (in[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = in[i];
		}
	}
	out[o] = '\0';
}

/* Next space-separated field of *p: its start and length; false at the end. */
static bool next_field(const char **p, const char **start, size_t *len)
{
	const char *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '\n')
		return false;
	*start = s;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n')
		s++;
	*len = (size_t)(s - *start);
	*p = s;
	return true;
}

/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS" */
int mountinfo_parse_line(const char *line, struct mount_entry *m)
{
	const char *p = line, *f;
	size_t len;
	char num[32];

	memset(m, 0, sizeof *m);
	if (!next_field(&p, &f, &len) || !next_field(&p, &f, &len))	/* ID, PARENT */
		return -1;
	if (!next_field(&p, &f, &len) || len >= sizeof num)
		return -1;
	memcpy(num, f, len);
	num[len] = '\0';
	char *end;
	errno = 0;
	unsigned long maj = strtoul(num, &end, 10);
	if (end == num || *end != ':' || errno)
		return -1;
	char *mstart = end + 1;
	unsigned long min = strtoul(mstart, &end, 10);
	if (end == mstart || *end != '\0' || errno || maj > UINT_MAX || min > UINT_MAX)
		return -1;
	m->major = (unsigned int)maj;
	m->minor = (unsigned int)min;
	if (!next_field(&p, &f, &len))	/* ROOT */
		return -1;
	if (!next_field(&p, &f, &len))	/* MOUNTPOINT */
		return -1;
	unescape_mount_path(f, len, m->mountpoint, sizeof m->mountpoint);
	for (;;) {			/* OPTIONS, optional fields, up to "-" */
		if (!next_field(&p, &f, &len))
			return -1;
		if (len == 1 && *f == '-')
			break;
	}
	if (!next_field(&p, &f, &len))	/* FSTYPE */
		return -1;
	if (next_field(&p, &f, &len))
		unescape_mount_path(f, len, m->source, sizeof m->source);
	return 0;
}

/* Calls fn(entry, arg) for each mountinfo line until it returns true; false if none did. */
bool mountinfo_each(const char *mountinfo, bool (*fn)(const struct mount_entry *, void *),
		       void *arg)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	struct mount_entry *m = malloc(sizeof *m);

	if (!f || !m) {
		if (f)
			fclose(f);
		free(m);
		return false;
	}
	while (!found && getline(&line, &cap, f) > 0)
		if (mountinfo_parse_line(line, m) == 0 && fn(m, arg))
			found = true;
	free(line);
	free(m);
	fclose(f);
	return found;
}

struct root_search {
	bool found;
	unsigned int major, minor;
	char source[256];
};

static bool note_root_mount(const struct mount_entry *m, void *arg)
{
	struct root_search *r = arg;

	if (strcmp(m->mountpoint, "/") == 0) {
		r->found = true;
		r->major = m->major;
		r->minor = m->minor;
		snprintf(r->source, sizeof r->source, "%s", m->source);
	}
	return false;	/* keep going: the last "/" is the visible one */
}

int safety_root_device(const char *mountinfo, unsigned int *major, unsigned int *minor)
{
	struct root_search r = { 0 };

	mountinfo_each(mountinfo, note_root_mount, &r);
	if (!r.found)
		return -1;
	if (r.major == 0) {
		struct stat st;
		if (strncmp(r.source, "/dev/", 5) != 0 || stat(r.source, &st) < 0 ||
		    !S_ISBLK(st.st_mode))
			return -1;
		r.major = major(st.st_rdev);
		r.minor = minor(st.st_rdev);
	}
	*major = r.major;
	*minor = r.minor;
	return 0;
}

