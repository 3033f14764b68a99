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
 * A second (or later) stop signal: one restore attempt of the preserved
 * data (or the one under way finishes), then exit. Async-signal-safe;
 * returns when the handler should just return.
 */
void preserve_on_signal(int sig);

/*
 * --restore: writes back the spans of the checked backup h (open on
 * backup_fd, which it closes; h's spans it takes) to device (open on
 * dev_fd), reading each back. 0, or -1 with a message in err.
 */
struct backup_header;
int preserve_write_back(const char *device, int dev_fd, const char *backup_path, int backup_fd,
			struct backup_header *h, char *err, size_t n);

#endif
