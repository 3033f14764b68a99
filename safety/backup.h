/*
 * The --backup file: a text header ("key value" lines up to "end"), then
 * the saved span data from data_offset on, in span order. The checksum
 * covers every header line between the first and the checksum line (the
 * device, its identity and size, every span) and then the data: a header
 * that does not check out is refused before anything is written. The first
 * line says what the file is: a backup, one already restored, or one still
 * being written (a run killed before it wrote to the device leaves that).
 * Written by safety/preserve.c, read by safety/restore.c (and by
 * safety/preserve.c, to advise on a file left behind).
 */
#ifndef FB_BACKUP_H
#define FB_BACKUP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/measure.h"	/* struct span */

#define BACKUP_MAGIC "flashbench-backup 2"
#define BACKUP_MAGIC_V1 "flashbench-backup 1"	/* its checksum covers the data only */
#define BACKUP_RESTORED "flashbench-restored"	/* as long as BACKUP_MAGIC: written over it */
#define BACKUP_PARTIAL "flashbench-backup-being-written"	/* until the header is complete */
#define BACKUP_CHUNK (1u << 20)	/* span data is moved in pieces of this size */
#define BACKUP_HEADER_MIN 4096	/* span data starts at a multiple of this, after the header */
#define CHECKSUM_INIT 0xcbf29ce484222325ull

struct backup_header {
	char device[PATH_MAX];
	char identity[600];
	uint64_t size;		/* of the device */
	uint64_t data_offset;	/* where span data starts in the backup */
	uint64_t checksum;	/* of the header and the span data, checked before restoring */
	uint64_t header_sum;	/* the header's part of it (parsed, or as written) */
	int version;		/* 1: the checksum covers the data only */
	bool restored;		/* marked restored: offered and accepted again only with --force */
	/*
	 * The first line, which the checksum leaves out, is none of the
	 * markers: damaged. The file is read as a backup of format 2; whether
	 * it is one, its checksum says.
	 */
	bool first_line_damaged;
	unsigned int lbs;
	struct span *spans;
	int nspans;
};

/* FNV-1a, 64 bit, continued from h (CHECKSUM_INIT to start). */
uint64_t backup_checksum_update(uint64_t h, const void *buf, size_t len);

/* The header text for h (its data_offset and checksum as given): length, or -1 if n is short. */
int backup_format_header(char *buf, size_t n, const struct backup_header *h);
/* The header's part of the checksum, of text formatted by backup_format_header(). */
uint64_t backup_header_sum(const char *text);
/*
 * Reads "key value" lines up to "end", and the header's checksum part; 0,
 * or -1 with the first bad line's number. A first line that is no marker
 * (first_line_damaged) is no reason to stop: the checksum decides.
 */
int backup_parse_header(FILE *f, struct backup_header *h, int *bad_line);
/*
 * Reads all span data once and checks header and data against the
 * checksum: 0, EBADMSG (damaged or short), or the errno of reading.
 */
int backup_verify_data(int fd, const struct backup_header *h, void *buf);

enum backup_state {
	BACKUP_GOOD,		/* --restore would take it */
	BACKUP_WAS_RESTORED,	/* restored already (marked so) */
	BACKUP_BEING_WRITTEN,	/* left by a run stopped before its first write to the device */
	BACKUP_OLD,		/* an older flashbench's, whose checksum leaves out the header */
	BACKUP_BAD,		/* damaged, or no backup at all: kept, never removed */
};
/*
 * What file is; the device it names into device (when it names one). A
 * header and data that check out make a backup whatever the first line
 * says; only the marker of a backup being written with nothing after it
 * (its header not yet written) is BACKUP_BEING_WRITTEN.
 */
enum backup_state backup_examine(const char *file, char *device, size_t n);

/* Marks the backup open on fd restored (its first line). 0 or -errno. Async-signal-safe. */
int backup_mark_restored(int fd);
/*
 * After a verified restore: removes file, or where that fails marks it
 * (open on fd, or opened when fd < 0). 1 removed, 0 marked, -1 neither
 * (errno: why it could not be removed). Async-signal-safe.
 */
int backup_retire(const char *file, int fd);

#endif
