/* flashbench --restore FILE DEV. */
#ifndef FB_RESTORE_H
#define FB_RESTORE_H

#include <stdbool.h>

/*
 * flashbench --restore FILE DEV: exit status (0, 1, or 2 for a mismatched
 * backup). The device's size, identity and path must match the backup's
 * header; force skips identity and path, never size or checksum.
 */
int restore_command(const char *backup_path, const char *device);
int restore_command_opts(const char *backup_path, const char *device, bool force);

#endif
