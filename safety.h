/* Guarding the user's data: which device may be written, --preserve, signals. */
#ifndef FB_SAFETY_H
#define FB_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

#include "dev.h"
#include "measure.h"

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

/* After open() failed with EBUSY under O_EXCL: what holds it. */
void safety_explain_busy(const char *path, char *msg, size_t n);

/*
 * SIGINT/SIGTERM/SIGHUP: the first sets vm_stop_requested (the current I/O
 * finishes, partial results are printed, exit 130); a second one makes one
 * restore attempt of preserved data (or lets the one under way finish),
 * says what state the device is in and exits; later ones are answered
 * but do not cut the restore short.
 */
void safety_install_signals(void);
int safety_exit_status_for_signal(void);	/* 130 for SIGINT, 143 TERM, 129 HUP; 0 if none */

/*
 * --preserve: save the spans (to memory, or to backup_path) before the
 * first overwrite. Returns 0, or -1 with a message in err, without an
 * option prefix (no I/O done to the spans then). preserve_restore() writes
 * everything back and verifies; it is also what a second signal calls, and
 * what exit() calls when the program ends without it. The device's
 * descriptor is dup()ed, so a restore works after dev_close() too.
 */
int preserve_save(struct dev *d, const struct span *spans, int nspans, const char *backup_path,
		  char *err, size_t n);
int preserve_restore(char *err, size_t n);
bool preserve_active(void);
/* The last restore was verified and removed its --backup file. */
bool preserve_backup_removed(void);

/*
 * flashbench --restore FILE DEV: exit status (0, 1, or 2 for a mismatched
 * backup). The device's size, identity and path must match the backup's
 * header; force skips identity and path, never size or checksum.
 */
int restore_command(const char *backup_path, const char *device);
int restore_command_opts(const char *backup_path, const char *device, bool force);

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
