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

#endif
