/* Reading sysfs attributes: one small text file each. */
#include "identity/identity_internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void trim(char *s)
{
	size_t n = strlen(s), start = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[start]))
		start++;
	memmove(s, s + start, n - start + 1);
}

/* dir/name into out; false if it does not fit (then nothing is read there). */
bool sysfs_path_join(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);
	return n >= 0 && (size_t)n < len;
}

/* dir/name without surrounding whitespace; false if absent or empty. */
bool sysfs_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	if (!sysfs_path_join(path, sizeof path, dir, name))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* sysfs text never holds NULs; if one does, the rest is not text */
	trim(buf);
	return buf[0] != '\0';
}

bool sysfs_attr_u64(const char *dir, const char *name, uint64_t *v)
{
	char buf[64], *end;

	if (!sysfs_attr(dir, name, buf, sizeof buf))
		return false;
	*v = strtoull(buf, &end, 0);
	return end != buf && *end == '\0';
}
