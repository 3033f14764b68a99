/*
 * What identity/identity.c (the fact list, sysfs, block/SCSI/USB probing) and
 * identity/sd_registers.c (SD/MMC register decoding and the card's facts) share.
 */
#ifndef FB_IDENTITY_INTERNAL_H
#define FB_IDENTITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "identity/identity.h"

#define ATTR_MAX 512

/* ---- the fact list (identity/identity.c) ---- */
void __attribute__((format(printf, 3, 4)))
put_text(struct identity *id, const char *key, const char *fmt, ...);
/* A text fact whose JSON value (json) is plainer than its display. */
void __attribute__((format(printf, 4, 5)))
put_text_json(struct identity *id, const char *key, const char *json, const char *fmt, ...);
/* Bytes: "3965190144 (3.69GiB)", plus an optional remark. */
void put_bytes(struct identity *id, const char *key, uint64_t v, const char *remark);
void __attribute__((format(printf, 2, 3)))
add_note(struct identity *id, const char *fmt, ...);
void identity_set_preferred_erase_size(struct identity *id, unsigned long long v);

/* ---- sysfs (identity/identity.c) ---- */
/* dir/name without surrounding whitespace; false if absent or empty. */
bool read_attr(const char *dir, const char *name, char *buf, size_t len);
bool read_attr_u64(const char *dir, const char *name, uint64_t *v);

/* ---- SD/MMC cards (identity/sd_registers.c) ---- */
/* A sysfs "type" of the mmc bus: SD, MMC, SDIO, SDcombo. */
bool is_mmc_type(const char *type);
/* The card's registers and health from its sysfs directory devdir. */
void probe_mmc(struct identity *id, const char *devdir, const char *type);

#endif
