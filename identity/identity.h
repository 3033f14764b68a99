/* Who the device is: sysfs facts, decoded SD/MMC registers, USB/SCSI strings. */
#ifndef FB_IDENTITY_H
#define FB_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/json.h"

struct dev;
struct identity;

/*
 * Reads what sysfs has about d (regular files: size and block size; sim:
 * devices: "simulated card" and its size). sysfs_root is "/sys" except in
 * tests. Never fails: missing facts are simply absent. Free with
 * identity_free().
 */
struct identity *identity_probe(const struct dev *d, const char *sysfs_root);
/* The same for the block device numbered major:minor (d may be a stand-in). */
struct identity *identity_probe_devnum(const struct dev *d, unsigned int major,
				       unsigned int minor, const char *sysfs_root);
void identity_free(struct identity *id);

/* Aligned "key: value" lines (then "note: ..." lines) for the --auto report. */
void identity_print(FILE *f, const struct identity *id);
/* One object: sizes and counts as numbers, IDs as strings, "notes" as an array. */
void identity_json(struct jw *w, const char *key, const struct identity *id);

/* Display text of a fact ("logical_block_size", "product", ...), NULL if absent. */
const char *identity_get(const struct identity *id, const char *key);
int identity_note_count(const struct identity *id);
const char *identity_note(const struct identity *id, int i);

/* Hints for the analysis: 0 when unknown. */
unsigned long long identity_preferred_erase_size(const struct identity *id);

/* ---- register decoding (SD Physical Layer spec, JEDEC JESD84), for tests ---- */

struct card_cid {
	unsigned int mid;	/* manufacturer ID */
	unsigned int oid;	/* SD: 16 bits (two ASCII chars); MMC: 8 bits */
	int cbx;		/* MMC device type (0 card, 1 BGA, 2 PoP); -1 for SD */
	char name[7];		/* product name bytes (SD 5, MMC 6), NUL-terminated copy */
	unsigned int name_len;
	unsigned int hwrev, fwrev;	/* PRV nibbles */
	uint32_t serial;
	unsigned int year, month;	/* MMC year by the 1997 base (see identity/sd_registers.c) */
};

struct card_csd {
	unsigned int structure;	/* CSD_STRUCTURE */
	unsigned int spec_vers;	/* MMC only */
	unsigned int tran_speed, ccc;
	unsigned int read_bl_len, write_bl_len;	/* log2 bytes */
	uint32_t c_size;
	unsigned int c_size_mult;
	uint64_t capacity;	/* bytes; 0 when the CSD does not say (MMC > 2 GB) */
	bool erase_blk_en;	/* SD */
	unsigned int sector_size;	/* SD, field value */
	unsigned int erase_grp_size, erase_grp_mult;	/* MMC, field values */
	uint64_t erase_unit;	/* bytes: SD v1 erase sector, MMC erase group; 0 if fixed */
	bool perm_write_protect, tmp_write_protect;
};

struct sd_scr {
	unsigned int structure, sd_spec, spec3, spec4, specx;
	unsigned int data_stat_after_erase, security, bus_widths, cmd_support;
};

struct sd_ssr {
	unsigned int speed_class, uhs_speed_grade, video_speed_class, app_perf_class;
	uint64_t au_size, uhs_au_size;	/* bytes, 0 undefined */
	unsigned int erase_size, erase_timeout, erase_offset;
	/* PERFORMANCE_ENHANCE: what A2's figures need from the card */
	unsigned int queue_depth;	/* command queue depth; 0 = no command queueing */
	bool cache, host_maintenance, card_maintenance;
};

/* hex is the sysfs text (32/16/128 hex digits). 0, or -1 if malformed. */
int sd_cid_decode(const char *hex, bool mmc, struct card_cid *out);
int sd_csd_decode(const char *hex, bool mmc, struct card_csd *out);
int sd_scr_decode(const char *hex, struct sd_scr *out);
int sd_ssr_decode(const char *hex, struct sd_ssr *out);

/*
 * The SD Status (128 hex digits) of the card behind d: an SD card's sysfs
 * attribute ssr (mmcblkN, also through a partition), or a simulated card's
 * own. false when there is none to see: a USB reader, a loop device, an
 * older kernel. sysfs_root is "/sys" except in tests.
 */
bool identity_card_ssr(const struct dev *d, const char *sysfs_root, char *hex, size_t n);

/* "1.0x" ... "9.xx" */
const char *sd_scr_spec_version(const struct sd_scr *s);
/* Vendor for a manufacturer ID ("SanDisk"), NULL if not in the table;
 * *remark gets a caveat ("also claimed by counterfeits") or NULL. */
const char *sd_mid_vendor(unsigned int mid, bool mmc, const char **remark);

#endif
