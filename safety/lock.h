/*
 * The lock a run holds on what it tests, as Linux tools lock block devices
 * (systemd's block-device locking, honoured by systemd-udevd, taken by
 * util-linux's fdisk tools with --lock): a BSD flock on the whole-disk
 * device node, and here also on every file the device rests on.
 */
#ifndef FB_LOCK_H
#define FB_LOCK_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Locks what path is, before it is opened: for a block device the node of
 * its whole disk (a partition's disk), a loop device's backing file (loops
 * over loops followed down), the devices under a dm/md device; for a
 * regular file the file. exclusive: the run writes (LOCK_EX); otherwise it
 * only reads, and takes LOCK_SH: two readers share, but a reader beside a
 * writer would time the writer's I/O too. Never waits, except a moment for
 * systemd-udevd, which locks a disk shared while it probes it.
 *
 * 0 when locked (sim: names and paths that are no file or device lock
 * nothing), or -1 with one line in err naming what is locked and by whom
 * (process id and command line, from /proc/locks) where that can be found.
 * The locks are held until the process ends: a restore at exit or in a
 * signal handler still runs under them. Errors of flock itself (a file
 * system without locks) lock nothing and are no refusal.
 */
int safety_lock_device(const char *path, bool exclusive, char *err, size_t n);

/*
 * After opening: whether fd is the file or device that was locked (the
 * path could name another one by then). True when nothing was locked.
 */
bool safety_lock_covers(int fd);

struct stat;

/*
 * How many processes other than this one hold a BSD lock on st's file
 * (0: none), and who names up to three ("process 12 (flashbench -p ...)").
 * Every file a run writes for itself (its --backup) is locked while the run
 * lasts, so another run's -o, --plot, record=, --backup or --restore can
 * see that it is in use.
 */
int safety_lock_holders(const struct stat *st, char *who, size_t n);

/*
 * An exclusive lock on fd's file (held while fd, or a dup of it, is open),
 * never waiting: 0 when locked (or the file system has no flock), -1 with
 * "WHAT is locked by process N (CMD), a run still going" in err.
 */
int safety_lock_file(int fd, const char *what, char *err, size_t n);

#endif
