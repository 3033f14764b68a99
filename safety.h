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
 * mounted or held, naming the mount point / holder. 0 when writable.
 */
int safety_check_write_target(const char *path, char *err, size_t n);

/* After open() failed with EBUSY under O_EXCL: what holds it. */
void safety_explain_busy(const char *path, char *msg, size_t n);

/*
 * SIGINT/SIGTERM/SIGHUP: the first sets vm_stop_requested (the current I/O
 * finishes, partial results are printed, exit 130); a second one restores
 * preserved data if any and exits at once.
 */
void safety_install_signals(void);
int safety_exit_status_for_signal(void);	/* 130 for SIGINT, 143 TERM, 129 HUP; 0 if none */

/*
 * --preserve: save the spans (to memory, or to backup_path) before the
 * first overwrite. Returns 0, or -1 with a message in err (no I/O done to
 * the spans then). preserve_restore() writes everything back and verifies;
 * it is also what a second signal calls.
 */
int preserve_save(struct dev *d, const struct span *spans, int nspans, const char *backup_path,
		  char *err, size_t n);
int preserve_restore(char *err, size_t n);
bool preserve_active(void);

/* flashbench --restore FILE DEV: exit status (0, 1, or 2 for a mismatched backup). */
int restore_command(const char *backup_path, const char *device);

#endif
