/* Who the device is: sysfs facts, decoded SD/MMC registers, USB/SCSI strings. */
#ifndef FB_IDENTITY_H
#define FB_IDENTITY_H

#include <stdio.h>

#include "dev.h"
#include "json.h"

struct identity;

/*
 * Reads what sysfs has about d (nothing for regular files; sim: devices get
 * their model description). sysfs_root is "/sys" except in tests.
 * Never fails: missing facts are simply absent. Free with identity_free().
 */
struct identity *identity_probe(const struct dev *d, const char *sysfs_root);
void identity_free(struct identity *id);

/* "key: value" lines for the --auto report. */
void identity_print(FILE *f, const struct identity *id);
void identity_json(struct jw *w, const char *key, const struct identity *id);

/* Hints for the analysis: 0 when unknown. */
unsigned long long identity_preferred_erase_size(const struct identity *id);

#endif
