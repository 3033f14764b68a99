/*
 * What the identity folder's units share. Bottom up: facts.c (the fact list,
 * its text and JSON) and sysfs.c (reading attributes); sd_registers.c (SD/MMC
 * register decoding and the card's facts) uses both; identity.c (block, SCSI
 * and USB probing) uses all three. No unit uses one above it.
 */
#ifndef FB_IDENTITY_INTERNAL_H
#define FB_IDENTITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "identity/identity.h"

#define ATTR_MAX 512
#define MAX_FACTS 96
#define MAX_NOTES 16
#define TEXT_MAX 256

enum fact_kind { FACT_TEXT, FACT_UINT, FACT_BOOL };

struct fact {
	const char *key;	/* static; the printed label is the key with spaces */
	enum fact_kind kind;
	uint64_t num;		/* FACT_UINT value, FACT_BOOL 0/1 */
	bool bytes;		/* FACT_UINT in bytes: "_bytes" ends its JSON name */
	char text[TEXT_MAX];	/* what identity_print shows */
	char json[TEXT_MAX];	/* FACT_TEXT in JSON when it differs from text; "" = same */
};

struct identity {
	struct fact facts[MAX_FACTS];
	int nfacts;
	char notes[MAX_NOTES][TEXT_MAX];
	int nnotes;
	unsigned long long preferred_erase_size;
};

/* ---- the fact list (identity/facts.c) ---- */
void __attribute__((format(printf, 3, 4)))
fact_text(struct identity *id, const char *key, const char *fmt, ...);
/* A text fact whose JSON value (json) is plainer than its display. */
void __attribute__((format(printf, 4, 5)))
fact_text_json(struct identity *id, const char *key, const char *json, const char *fmt, ...);
/* A number in JSON; fmt (may be NULL: plain decimal) is the display. */
void __attribute__((format(printf, 4, 5)))
fact_uint(struct identity *id, const char *key, uint64_t v, const char *fmt, ...);
/* Bytes: "3965190144 (3.69GiB)", plus an optional remark. */
void fact_bytes(struct identity *id, const char *key, uint64_t v, const char *remark);
void fact_bool(struct identity *id, const char *key, bool v);
void __attribute__((format(printf, 2, 3)))
fact_note(struct identity *id, const char *fmt, ...);
const struct fact *fact_find(const struct identity *id, const char *key);
/* A number fact's value; 0 if absent or text. */
uint64_t fact_num(const struct identity *id, const char *key);
void identity_set_preferred_erase_size(struct identity *id, unsigned long long v);

/* ---- sysfs (identity/sysfs.c) ---- */
/* dir/name into out; false if it does not fit (then nothing is read there). */
bool sysfs_path_join(char *out, size_t len, const char *dir, const char *name);
/* dir/name without surrounding whitespace; false if absent or empty. */
bool sysfs_attr(const char *dir, const char *name, char *buf, size_t len);
bool sysfs_attr_u64(const char *dir, const char *name, uint64_t *v);

/* ---- SD/MMC cards (identity/sd_registers.c) ---- */
/* A sysfs "type" of the mmc bus: SD, MMC, SDIO, SDcombo. */
bool sd_is_mmc_type(const char *type);
/* The card's registers and health from its sysfs directory devdir. */
void sd_probe_mmc(struct identity *id, const char *devdir, const char *type);

#endif
