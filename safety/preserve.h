/* --preserve: the user's data saved before a test overwrites it, and put back. */
#ifndef FB_PRESERVE_H
#define FB_PRESERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "dev.h"
#include "measure/measure.h"

/*
 * --preserve: save the spans (to memory, or to backup_path) before the
 * first overwrite. Returns 0, or -1 with a message in err, without an
 * option prefix (no I/O done to the spans then). preserve_restore() writes
 * everything back and verifies (a chunk whose write fails but that reads
 * back as saved counts as restored); it is also what a second signal
 * calls, and what exit() calls when the program ends without it. A
 * verified restore removes the --backup file (or marks it restored). The device's
 * descriptor is dup()ed, so a restore works after dev_close() too.
 */
int preserve_save(struct dev *d, const struct span *spans, int nspans, const char *backup_path,
		  char *err, size_t n);
int preserve_restore(char *err, size_t n);
bool preserve_active(void);
/* The last restore was verified and removed its --backup file. */
bool preserve_backup_removed(void);
/* After a failed restore: the file --restore takes (the --backup, or a rescue file); NULL: none. */
const char *preserve_kept_file(void);
/*
 * Restores write and read through their own descriptor: this counts what
 * they moved since the last call on d (IO_RESTORE, IO_VERIFY).
 */
void preserve_account(struct dev *d);

/*
 * Signals: preserve_save() registers a handler with safety/signals.c, so a
 * second stop signal makes one restore attempt of the preserved data (or
 * lets the one under way finish), or removes a --backup file still being
 * written, then exits.
 */

/*
 * --restore: writes back the spans of the checked backup h (open on
 * backup_fd, which it closes; h's spans it takes) to device (open on
 * dev_fd), reading each back. 0, or -1 with a message in err.
 */
struct backup_header;
int preserve_write_back(const char *device, int dev_fd, const char *backup_path, int backup_fd,
			struct backup_header *h, char *err, size_t n);

#endif
