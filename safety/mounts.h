/* /proc/self/mountinfo: what is mounted where, and the root device. */
#ifndef FB_MOUNTS_H
#define FB_MOUNTS_H

#include <stdbool.h>

/* One /proc/self/mountinfo line; the mount point with its \ooo escapes decoded. */
struct mount_entry {
	unsigned int major, minor;
	char mountpoint[4096];
	char source[256];
};
/* 0, or -1 for a line that is not a mountinfo line. */
int mountinfo_parse_line(const char *line, struct mount_entry *m);

/*
 * The device of the filesystem on "/" (the last "/" line: later mounts hide
 * earlier ones). A major of 0 (btrfs, for one) falls back to the source's
 * st_rdev when the source is a /dev path. 0, or -1 when unknown.
 */
int safety_root_device(const char *mountinfo, unsigned int *major, unsigned int *minor);


/* Calls fn(entry, arg) for each mountinfo line until it returns true; false if none did. */
bool mountinfo_each(const char *mountinfo, bool (*fn)(const struct mount_entry *, void *),
		    void *arg);

#endif
