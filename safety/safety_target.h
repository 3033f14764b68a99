/* Which device may be written, and where outputs may go. */
#ifndef FB_SAFETY_TARGET_H
#define FB_SAFETY_TARGET_H

#include <stddef.h>

#include "safety/mounts.h"

/*
 * Before opening for writing: refuses (returns -1 with a one-line message)
 * a device that holds the running system's root filesystem, or that is
 * mounted or held, naming the mount point / holder, or a read-only one.
 * 0 when writable (regular files and sim: always are).
 */
int safety_check_write_target(const char *path, char *err, size_t n);

/*
 * An output (what: "--out=FILE", "standard output", ...; out: its stat)
 * must not land on the device under test: -1 with a message when it is a
 * block device, the device itself, a file the device rests on (a loop
 * device's backing file, through partitions, loops and dm/md), or a file
 * backing any other loop device. 0 otherwise.
 */
struct stat;
int safety_check_output(const char *what, const struct stat *out, const char *device,
			char *err, size_t n);

/*
 * An output (-o, --plot) must not overwrite a --backup file: the saved
 * data of a run, perhaps its only copy. -1 with err when path is one that
 * --restore would take or a run is writing; 0 otherwise.
 */
int safety_check_not_backup(const char *what, const char *path, char *err, size_t n);

/* After open() failed with EBUSY under O_EXCL: what holds it. */
void safety_explain_busy(const char *path, char *msg, size_t n);

/*
 * Below: the parts the checks are built from, exposed so the unit tests
 * can point them at fixture files instead of the running system.
 */
struct safety_sources {
	const char *mountinfo;	/* "/proc/self/mountinfo" */
	const char *sysblock;	/* "/sys/class/block": disks, their partitions as subdirectories */
	const char *swaps;	/* "/proc/swaps" */
};
extern const struct safety_sources safety_system_sources;

/*
 * The check for block device major:minor shown as name ("/dev/sdb"):
 * 0 when nothing of it (the device, its partitions, its parent disk for the
 * root check) is the root filesystem, mounted, swap or held, and the device
 * is not read-only; otherwise -1 and one line naming the mount point,
 * holder or swap.
 */
int safety_check_device(const struct safety_sources *src, const char *name,
			unsigned int major, unsigned int minor, char *err, size_t n);

#endif
