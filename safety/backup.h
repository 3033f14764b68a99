/*
 * The --backup file: a text header ("key value" lines up to "end"), then
 * the saved span data from data_offset on, in span order. Written by
 * safety/preserve.c, read by safety/restore.c (and by safety/preserve.c, to advise on a file
 * left behind).
 */
#ifndef FB_BACKUP_H
#define FB_BACKUP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/measure.h"	/* struct span */

#define BACKUP_MAGIC "flashbench-backup 1"
#define BACKUP_CHUNK (1u << 20)	/* span data is moved in pieces of this size */
#define CHECKSUM_INIT 0xcbf29ce484222325ull

struct backup_header {
	char device[PATH_MAX];
	char identity[600];
	uint64_t size;		/* of the device */
	uint64_t data_offset;	/* where span data starts in the backup */
	uint64_t checksum;	/* of the span data, checked before restoring */
	unsigned int lbs;
	struct span *spans;
	int nspans;
};

/* FNV-1a, 64 bit, continued from h (CHECKSUM_INIT to start). */
uint64_t checksum_update(uint64_t h, const void *buf, size_t len);

/* The header text for h (its data_offset and checksum as given): length, or -1 if n is short. */
int backup_format_header(char *buf, size_t n, const struct backup_header *h);
/* Reads "key value" lines up to "end"; 0, or -1 with the first bad line's number. */
int backup_parse_header(FILE *f, struct backup_header *h, int *bad_line);
/* Reads all span data once: 0, EBADMSG (damaged or short), or the errno of reading. */
int backup_verify_data(int fd, const struct backup_header *h, void *buf);
/* Whether --restore would take file (header and checksum good); the device it names. */
bool backup_restorable(const char *file, char *device, size_t n);

#endif
