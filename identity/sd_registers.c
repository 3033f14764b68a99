/*
 * SD/MMC card registers: CID, CSD, SCR and SD Status decoding, the
 * manufacturer ID tables, and the card's facts for the identity.
 * Bit positions and ID tables: doc/sd-mmc-registers.md (SD spec, JESD84).
 */
#include "identity/identity.h"
#include "identity/identity_internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------- register decoding */

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Exactly 2n hex digits, surrounding whitespace allowed. */
static int hex_bytes(const char *hex, uint8_t *out, size_t n)
{
	if (!hex)
		return -1;
	while (isspace((unsigned char)*hex))
		hex++;
	for (size_t i = 0; i < n; i++) {
		int hi = hex_value((unsigned char)hex[2 * i]);
		int lo = hi < 0 ? -1 : hex_value((unsigned char)hex[2 * i + 1]);
		if (lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	for (hex += 2 * n; *hex; hex++)
		if (!isspace((unsigned char)*hex))
			return -1;
	return 0;
}

/* Bits [hi:lo] of an n-byte register printed most significant byte first. */
static uint64_t reg_bits(const uint8_t *reg, size_t n, unsigned int hi, unsigned int lo)
{
	uint64_t v = 0;

	for (unsigned int i = hi + 1; i-- > lo;)
		v = v << 1 | ((reg[n - 1 - i / 8] >> (i % 8)) & 1u);
	return v;
}

int sd_cid_decode(const char *hex, bool mmc, struct card_cid *c)
{
	uint8_t r[16];
	unsigned int prv, name_bytes = mmc ? 6 : 5;

	if (hex_bytes(hex, r, sizeof r))
		return -1;
	memset(c, 0, sizeof *c);
	c->mid = (unsigned int)reg_bits(r, 16, 127, 120);
	memcpy(c->name, r + 3, name_bytes);	/* PNM starts at bit 103 in both */
	c->name_len = name_bytes;
	if (mmc) {
		c->cbx = (int)reg_bits(r, 16, 113, 112);
		c->oid = (unsigned int)reg_bits(r, 16, 111, 104);
		prv = (unsigned int)reg_bits(r, 16, 55, 48);
		c->serial = (uint32_t)reg_bits(r, 16, 47, 16);
		c->month = (unsigned int)reg_bits(r, 16, 15, 12);
		c->year = 1997 + (unsigned int)reg_bits(r, 16, 11, 8);
	} else {
		c->cbx = -1;
		c->oid = (unsigned int)reg_bits(r, 16, 119, 104);
		prv = (unsigned int)reg_bits(r, 16, 63, 56);
		c->serial = (uint32_t)reg_bits(r, 16, 55, 24);
		c->year = 2000 + (unsigned int)reg_bits(r, 16, 19, 12);
		c->month = (unsigned int)reg_bits(r, 16, 11, 8);
	}
	c->hwrev = prv >> 4;
	c->fwrev = prv & 0xf;
	return 0;
}

static void csd_decode_mmc(const uint8_t *r, struct card_csd *c)
{
	c->spec_vers = (unsigned int)reg_bits(r, 16, 125, 122);
	c->c_size = (uint32_t)reg_bits(r, 16, 73, 62);
	c->c_size_mult = (unsigned int)reg_bits(r, 16, 49, 47);
	/* C_SIZE 0xfff: sector-addressed, the size is EXT_CSD SEC_COUNT */
	if (c->c_size != 0xfff)
		c->capacity = (uint64_t)(c->c_size + 1) << (c->c_size_mult + 2 + c->read_bl_len);
	c->erase_grp_size = (unsigned int)reg_bits(r, 16, 46, 42);
	c->erase_grp_mult = (unsigned int)reg_bits(r, 16, 41, 37);
	c->erase_unit = (uint64_t)(c->erase_grp_size + 1) * (c->erase_grp_mult + 1) << c->write_bl_len;
}

static void csd_decode_sd(const uint8_t *r, struct card_csd *c)
{
	c->erase_blk_en = reg_bits(r, 16, 46, 46);
	c->sector_size = (unsigned int)reg_bits(r, 16, 45, 39);
	switch (c->structure) {
	case 0:	/* SDSC */
		c->c_size = (uint32_t)reg_bits(r, 16, 73, 62);
		c->c_size_mult = (unsigned int)reg_bits(r, 16, 49, 47);
		c->capacity = (uint64_t)(c->c_size + 1) << (c->c_size_mult + 2 + c->read_bl_len);
		c->erase_unit = c->erase_blk_en ? 512 : (uint64_t)(c->sector_size + 1) << c->write_bl_len;
		break;
	case 1:	/* SDHC/SDXC: erase fields are fixed and say nothing */
		c->c_size = (uint32_t)reg_bits(r, 16, 69, 48);
		c->capacity = (uint64_t)(c->c_size + 1) * 512 * 1024;
		break;
	case 2:	/* SDUC */
		c->c_size = (uint32_t)reg_bits(r, 16, 75, 48);
		c->capacity = (uint64_t)(c->c_size + 1) * 512 * 1024;
		break;
	default:
		break;
	}
}

int sd_csd_decode(const char *hex, bool mmc, struct card_csd *c)
{
	uint8_t r[16];

	if (hex_bytes(hex, r, sizeof r))
		return -1;
	memset(c, 0, sizeof *c);
	c->structure = (unsigned int)reg_bits(r, 16, 127, 126);
	c->tran_speed = (unsigned int)reg_bits(r, 16, 103, 96);
	c->ccc = (unsigned int)reg_bits(r, 16, 95, 84);
	c->read_bl_len = (unsigned int)reg_bits(r, 16, 83, 80);
	c->write_bl_len = (unsigned int)reg_bits(r, 16, 25, 22);
	c->perm_write_protect = reg_bits(r, 16, 13, 13);
	c->tmp_write_protect = reg_bits(r, 16, 12, 12);
	if (mmc)
		csd_decode_mmc(r, c);
	else
		csd_decode_sd(r, c);
	return 0;
}

int sd_scr_decode(const char *hex, struct sd_scr *s)
{
	uint8_t r[8];

	if (hex_bytes(hex, r, sizeof r))
		return -1;
	s->structure = (unsigned int)reg_bits(r, 8, 63, 60);
	s->sd_spec = (unsigned int)reg_bits(r, 8, 59, 56);
	s->data_stat_after_erase = (unsigned int)reg_bits(r, 8, 55, 55);
	s->security = (unsigned int)reg_bits(r, 8, 54, 52);
	s->bus_widths = (unsigned int)reg_bits(r, 8, 51, 48);
	s->spec3 = (unsigned int)reg_bits(r, 8, 47, 47);
	s->spec4 = (unsigned int)reg_bits(r, 8, 42, 42);
	s->specx = (unsigned int)reg_bits(r, 8, 41, 38);
	s->cmd_support = (unsigned int)reg_bits(r, 8, 35, 32);
	return 0;
}

/* AU_SIZE / UHS_AU_SIZE codes of the SD Status. */
static uint64_t au_bytes(unsigned int code)
{
	static const unsigned int big_mib[] = { 8, 12, 16, 24, 32, 64 };	/* 0xa..0xf */

	if (code == 0)
		return 0;
	if (code <= 9)
		return (uint64_t)16384 << (code - 1);
	return (uint64_t)big_mib[code - 10] << 20;
}

int sd_ssr_decode(const char *hex, struct sd_ssr *s)
{
	uint8_t r[64];

	if (hex_bytes(hex, r, sizeof r))
		return -1;
	s->speed_class = (unsigned int)reg_bits(r, 64, 447, 440);
	s->au_size = au_bytes((unsigned int)reg_bits(r, 64, 431, 428));
	s->erase_size = (unsigned int)reg_bits(r, 64, 423, 408);
	s->erase_timeout = (unsigned int)reg_bits(r, 64, 407, 402);
	s->erase_offset = (unsigned int)reg_bits(r, 64, 401, 400);
	s->uhs_speed_grade = (unsigned int)reg_bits(r, 64, 399, 396);
	s->uhs_au_size = au_bytes((unsigned int)reg_bits(r, 64, 395, 392));
	s->video_speed_class = (unsigned int)reg_bits(r, 64, 391, 384);
	s->app_perf_class = (unsigned int)reg_bits(r, 64, 339, 336);
	unsigned int cq = (unsigned int)reg_bits(r, 64, 335, 331);
	s->queue_depth = cq ? cq + 1 : 0;
	s->cache = reg_bits(r, 64, 330, 330);
	s->host_maintenance = reg_bits(r, 64, 329, 329);
	s->card_maintenance = reg_bits(r, 64, 328, 328);
	return 0;
}

const char *sd_scr_spec_version(const struct sd_scr *s)
{
	static const char *const specx[] = { "5.xx", "6.xx", "7.xx", "8.xx", "9.xx" };

	switch (s->sd_spec) {
	case 0:
		return "1.0x";
	case 1:
		return "1.10";
	case 2:
		if (!s->spec3)
			return "2.00";
		if (s->specx >= 1 && s->specx <= 5)
			return specx[s->specx - 1];
		return s->spec4 ? "4.xx" : "3.0x";
	default:
		return "unknown";
	}
}

/* ------------------------------------------------------- manufacturer IDs */

struct mid_entry {
	unsigned char mid;
	const char *vendor;
	const char *remark;
};

static const struct mid_entry sd_mids[] = {
	{ 0x00, "none (unassigned)", "seen on no-name cards" },
	{ 0x01, "Panasonic", NULL },
	{ 0x02, "Toshiba", "also Kingston and Viking cards built by Toshiba" },
	{ 0x03, "SanDisk", "also claimed by counterfeits" },
	{ 0x04, "SanDisk?", "unconfirmed" },
	{ 0x06, "Ritek", NULL },
	{ 0x08, "Silicon Power", NULL },
	{ 0x09, "ATP", NULL },
	{ 0x12, "Gigastone?", "uncertain; seen on QUMO and no-brand cards" },
	{ 0x13, "Kingmax", NULL },
	{ 0x18, "Infineon", NULL },
	{ 0x19, "Dynacard", NULL },
	{ 0x1a, "PQI", NULL },
	{ 0x1b, "Samsung", "some tables: Transcend/Samsung" },
	{ 0x1c, "Transcend", NULL },
	{ 0x1d, "AData/Corsair", NULL },
	{ 0x1e, "Transcend", NULL },
	{ 0x1f, "Kingston", NULL },
	{ 0x27, "Phison", "shared OEM code: Delkin, PNY and many other brands" },
	{ 0x28, "Lexar", "some tables: Barun" },
	{ 0x30, "SanDisk", NULL },
	{ 0x31, "Silicon Power", NULL },
	{ 0x33, "STMicroelectronics", NULL },
	{ 0x41, "Kingston", NULL },
	{ 0x45, "Team Group", NULL },
	{ 0x51, "STEC", NULL },
	{ 0x5d, "Swissbit", NULL },
	{ 0x61, "Netkust?", "uncertain" },
	{ 0x63, "Cactus", NULL },
	{ 0x6f, "STMicroelectronics/SMI", "also SMI-based no-brand cards" },
	{ 0x73, "Hama", NULL },
	{ 0x74, "Transcend", "some tables: Jiaelec" },
	{ 0x76, "Patriot", NULL },
	{ 0x82, "Gobe/Sony", "some tables: Jiang Tay" },
	{ 0x83, "Netcom", NULL },
	{ 0x84, "Strontium", NULL },
	{ 0x92, "Sony", NULL },
	{ 0x9c, "Sony", NULL },
	{ 0x9e, "Lexar", NULL },
	{ 0x9f, "Texas Instruments",
	  "shared OEM code: Amazon, Kingston, Kodak, Silicon Power, Gigastone" },
	{ 0xad, "Lexar (Longsys)", NULL },
	{ 0xff, "Netac", NULL },
};

static const struct mid_entry mmc_mids[] = {
	{ 0x00, "SanDisk", "old MMC" },
	{ 0x02, "SanDisk/Kingston", NULL },
	{ 0x03, "Toshiba", "old MMC" },
	{ 0x09, "ATP", NULL },
	{ 0x11, "Toshiba/Kioxia", NULL },
	{ 0x13, "Micron", NULL },
	{ 0x15, "Samsung", "some tables: SanDisk/LG" },
	{ 0x2c, "Kingston", NULL },
	{ 0x37, "KingMax", NULL },
	{ 0x44, "ATP", NULL },
	{ 0x45, "SanDisk (Western Digital)", NULL },
	{ 0x5d, "Swissbit", NULL },
	{ 0x70, "Kingston", NULL },
	{ 0x88, "Longsys (Foresee)", NULL },
	{ 0x90, "SK Hynix", NULL },
	{ 0xd6, "Longsys", NULL },
	{ 0xf4, "Biwin", NULL },
	{ 0xfe, "Micron", "ex-Numonyx" },
};

const char *sd_mid_vendor(unsigned int mid, bool mmc, const char **remark)
{
	const struct mid_entry *t = mmc ? mmc_mids : sd_mids;
	size_t n = mmc ? sizeof mmc_mids / sizeof *mmc_mids : sizeof sd_mids / sizeof *sd_mids;

	for (size_t i = 0; i < n; i++) {
		if (t[i].mid == mid) {
			if (remark)
				*remark = t[i].remark;
			return t[i].vendor;
		}
	}
	if (remark)
		*remark = NULL;
	return NULL;
}

/* ---------------------------------------------------- MMC / SD card facts */

/* Printable copy: NUL as \0, other non-printables as \xNN. */
static bool escape_name(const char *s, unsigned int n, char *out, size_t len)
{
	size_t o = 0;
	bool clean = true;

	for (unsigned int i = 0; i < n && o + 5 < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch < 0x7f) {
			out[o++] = (char)ch;
		} else if (ch) {
			clean = false;
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", ch);
		} else {
			clean = false;
			o += (size_t)snprintf(out + o, len - o, "\\0");
		}
	}
	out[o] = '\0';
	return clean;
}

static bool is_printable_ascii(unsigned int ch)
{
	return ch >= 0x20 && ch < 0x7f;
}

/* SD OEM IDs are two ASCII characters */
static bool is_ascii_pair(unsigned int oid)
{
	return oid <= 0xffff && is_printable_ascii(oid >> 8) && is_printable_ascii(oid & 0xff);
}

static void put_manufacturer(struct identity *id, unsigned int mid, bool mmc)
{
	const char *remark;
	const char *vendor = sd_mid_vendor(mid, mmc, &remark);
	char hex[8];

	snprintf(hex, sizeof hex, "0x%02x", mid);
	fact_text(id, "manufacturer_id", "%s", hex);
	if (vendor && remark)
		fact_text(id, "manufacturer", "%s (%s)", vendor, remark);
	else
		fact_text(id, "manufacturer", "%s", vendor ? vendor : "unknown");
}

static void put_oem_id(struct identity *id, const struct card_cid *c, bool mmc)
{
	char hex[8];

	snprintf(hex, sizeof hex, mmc ? "0x%02x" : "0x%04x", c->oid);
	if (mmc && is_printable_ascii(c->oid))
		fact_text_json(id, "oem_id", hex, "%s \"%c\"", hex, (char)c->oid);
	else if (mmc)
		fact_text(id, "oem_id", "%s", hex);
	else if (is_ascii_pair(c->oid))
		fact_text_json(id, "oem_id", hex, "%s \"%c%c\"", hex, (char)(c->oid >> 8),
			      (char)(c->oid & 0xff));
	else
		fact_text_json(id, "oem_id", hex, "%s (not ASCII)", hex);
}

static void put_product(struct identity *id, const struct card_cid *c)
{
	char name[64];
	bool clean = escape_name(c->name, c->name_len, name, sizeof name);
	bool spaced = name[0] == ' ' || (name[0] && name[strlen(name) - 1] == ' ');

	if (clean && !spaced)
		fact_text(id, "product", "%s", name);
	else
		fact_text_json(id, "product", name, "\"%s\"", name);
	if (!clean)
		fact_note(id, "product name holds non-printable bytes (\"%s\"): no-name or generic card",
			 name);
}

/* MMC years repeat every 16; the kernel (which knows EXT_CSD_REV) may add 16 or 32. */
static unsigned int mmc_year(unsigned int year, unsigned int month, const char *sysfs_date)
{
	unsigned int m, y;

	if (sysfs_date && sscanf(sysfs_date, "%u/%u", &m, &y) == 2 && m == month &&
	    (y == year + 16 || y == year + 32))
		return y;
	return year;
}

/* Red flags in an SD CID (doc/sd-mmc-registers.md, "Identity pitfalls"). */
static void note_sd_cid(struct identity *id, const struct card_cid *c)
{
	if (c->mid == 0x03 && !is_ascii_pair(c->oid))
		fact_note(id, "SanDisk manufacturer ID 0x03 with a non-ASCII OEM ID 0x%04x: "
			 "relabelled or counterfeit card?", c->oid);
	else if (c->mid == 0 && c->oid == 0)
		fact_note(id, "manufacturer and OEM IDs are zero: no-name card "
			 "(such cards may share one serial number)");
	else if (!is_ascii_pair(c->oid))
		fact_note(id, "OEM ID 0x%04x is not two ASCII characters: unusual for an SD card",
			 c->oid);
	if (c->serial == 0)
		fact_note(id, "serial number is zero");
}

static void put_cid(struct identity *id, const struct card_cid *c, bool mmc, const char *sysfs_date)
{
	static const char *const cbx[] = { "removable card", "BGA (embedded)", "PoP (embedded)",
					   "reserved" };
	unsigned int year = mmc ? mmc_year(c->year, c->month, sysfs_date) : c->year;

	put_manufacturer(id, c->mid, mmc);
	put_oem_id(id, c, mmc);
	if (mmc)
		fact_text(id, "device_type", "%s", cbx[c->cbx & 3]);
	put_product(id, c);
	fact_text(id, "revision", "%u.%u", c->hwrev, c->fwrev);
	fact_text(id, "serial", "0x%08" PRIx32, c->serial);
	fact_text(id, "manufactured", "%04u-%02u", year, c->month);
	if (c->month < 1 || c->month > 12)
		fact_note(id, "manufacturing month %u is invalid", c->month);
	if (!mmc)
		note_sd_cid(id, c);
}

/* Without a readable CID, the kernel's own decoding of it. */
static void put_cid_attrs(struct identity *id, const char *devdir, bool mmc)
{
	char buf[ATTR_MAX];
	uint64_t v;

	if (sysfs_attr_u64(devdir, "manfid", &v))
		put_manufacturer(id, (unsigned int)v, mmc);
	if (sysfs_attr(devdir, "oemid", buf, sizeof buf))
		fact_text(id, "oem_id", "%s", buf);
	if (sysfs_attr(devdir, "name", buf, sizeof buf))
		fact_text(id, "product", "%s", buf);
	if (sysfs_attr(devdir, "serial", buf, sizeof buf))
		fact_text(id, "serial", "%s", buf);
	if (sysfs_attr(devdir, "date", buf, sizeof buf))
		fact_text(id, "manufactured", "%s", buf);
}

static const char *tran_speed_text(unsigned int code, char *buf, size_t len)
{
	static const unsigned int unit_khz[] = { 100, 1000, 10000, 100000 };
	static const unsigned int tenths[] = { 0, 10, 12, 13, 15, 20, 25, 30,
					       35, 40, 45, 50, 55, 60, 70, 80 };
	unsigned int unit = code & 7, value = (code >> 3) & 15;

	if (unit > 3 || value == 0) {
		snprintf(buf, len, "0x%02x", code);
		return buf;
	}
	unsigned long khz = (unsigned long)unit_khz[unit] * tenths[value] / 10;
	if (khz >= 1000)
		snprintf(buf, len, "0x%02x (%g MHz)", code, khz / 1000.0);
	else
		snprintf(buf, len, "0x%02x (%lu kHz)", code, khz);
	return buf;
}

static void put_csd_version(struct identity *id, const struct card_csd *c, bool mmc)
{
	static const char *const sd_versions[] = { "1.0 (SDSC)", NULL, "3.0 (SDUC)", "reserved (3)" };
	static const char *const mmc_specs[] = { "1.0-1.2", "1.4", "2.0-2.2", "3.1-3.31", "4.x" };

	if (mmc) {
		if (c->structure == 3)
			fact_text(id, "csd_version", "3 (version in EXT_CSD)");
		else
			fact_text(id, "csd_version", "1.%u", c->structure);
		if (c->spec_vers < 5)
			fact_text(id, "mmc_spec", "%s", mmc_specs[c->spec_vers]);
	} else if (c->structure == 1) {
		fact_text(id, "csd_version", "2.0 (%s)", c->c_size >= 0xffff ? "SDXC" : "SDHC");
	} else {
		fact_text(id, "csd_version", "%s", sd_versions[c->structure]);
	}
}

static void put_csd(struct identity *id, const struct card_csd *c, bool mmc)
{
	char buf[64];

	put_csd_version(id, c, mmc);
	if (c->capacity)
		fact_bytes(id, "csd_capacity", c->capacity, NULL);
	fact_text(id, "tran_speed", "%s", tran_speed_text(c->tran_speed, buf, sizeof buf));
	fact_text(id, "command_classes", "0x%03x", c->ccc);
	if (c->erase_unit)
		fact_bytes(id, "csd_erase_unit", c->erase_unit, NULL);
	if (c->perm_write_protect || c->tmp_write_protect) {
		fact_text(id, "write_protect", "%s", c->perm_write_protect ? "permanent" : "temporary");
		fact_note(id, "the card reports %s write protection in its CSD",
			 c->perm_write_protect ? "permanent" : "temporary");
	}
	if (!mmc && c->structure == 0 && c->capacity > (2ull << 30))
		fact_note(id, "standard-capacity (SDSC) card larger than 2 GiB: non-standard");
}

static void put_scr(struct identity *id, const struct sd_scr *s)
{
	static const char *const security[] = { "none", "not used", "SDSC (CPRM 1.01)",
						 "SDHC (CPRM 2.00)", "SDXC (CPRM 3.xx)" };
	static const char *const cmds[] = { "CMD20", "CMD23", "CMD48/49", "CMD58/59" };
	char buf[96] = "";

	fact_text(id, "sd_spec", "%s", sd_scr_spec_version(s));
	fact_text(id, "bus_widths", "%s%s%s bit", s->bus_widths & 1 ? "1" : "",
		 (s->bus_widths & 5) == 5 ? ", " : "", s->bus_widths & 4 ? "4" : "");
	if (s->security < 5)
		fact_text(id, "security", "%s", security[s->security]);
	for (int i = 0; i < 4; i++) {
		if (s->cmd_support & (1u << i)) {
			size_t n = strlen(buf);
			snprintf(buf + n, sizeof buf - n, "%s%s", n ? ", " : "", cmds[i]);
		}
	}
	fact_text(id, "optional_commands", "%s", buf[0] ? buf : "none");
	fact_text(id, "erased_data", "%s", s->data_stat_after_erase ? "ones" : "zeros");
}

static void put_ssr(struct identity *id, const struct sd_ssr *s)
{
	static const char *const classes[] = { "0", "2", "4", "6", "10" };

	if (s->speed_class < 5)
		fact_text(id, "speed_class", "%s", classes[s->speed_class]);
	if (s->uhs_speed_grade)
		fact_text(id, "uhs_speed_grade", "U%u", s->uhs_speed_grade);
	if (s->video_speed_class)
		fact_text(id, "video_speed_class", "V%u", s->video_speed_class);
	if (s->app_perf_class)
		fact_text(id, "app_perf_class", "A%u", s->app_perf_class);
	if (s->au_size)
		fact_bytes(id, "au_size", s->au_size, NULL);
	if (s->uhs_au_size)
		fact_bytes(id, "uhs_au_size", s->uhs_au_size, NULL);
}

static const char *life_time_text(unsigned int v, char *buf, size_t len)
{
	if (v >= 1 && v <= 10)
		snprintf(buf, len, "%u-%u%% used", (v - 1) * 10, v * 10);
	else
		snprintf(buf, len, "%s", v == 11 ? "exceeded" : "not defined");
	return buf;
}

static void put_mmc_health(struct identity *id, const char *devdir)
{
	static const char *const eol[] = { "not defined", "normal", "warning", "urgent" };
	char buf[ATTR_MAX], a[32], b[32];
	unsigned int la, lb;
	uint64_t v;

	if (sysfs_attr_u64(devdir, "pre_eol_info", &v)) {
		fact_text(id, "pre_eol_info", "%s", v < 4 ? eol[v] : "reserved");
		if (v == 2 || v == 3)
			fact_note(id, "eMMC pre-EOL status is %s: reserved blocks running out", eol[v]);
	}
	if (sysfs_attr(devdir, "life_time", buf, sizeof buf) &&
	    sscanf(buf, "%x %x", &la, &lb) == 2) {
		fact_text(id, "life_time", "type A %s, type B %s", life_time_text(la, a, sizeof a),
			 life_time_text(lb, b, sizeof b));
		if (la >= 10 || lb >= 10)
			fact_note(id, "eMMC life time estimate is near or past its end");
	}
	/* eMMC 5.0+: fwrev is the EXT_CSD firmware version, not a nibble */
	if (sysfs_attr(devdir, "fwrev", buf, sizeof buf) && strlen(buf) > 4)
		fact_text(id, "firmware", "%s", buf);
}

bool sd_is_mmc_type(const char *type)
{
	return !strcmp(type, "SD") || !strcmp(type, "MMC") || !strcmp(type, "SDIO") ||
	       !strcmp(type, "SDcombo");
}

static void put_erase_sizes(struct identity *id, const char *devdir, bool mmc,
			    const struct sd_ssr *ssr)
{
	uint64_t v;

	if (sysfs_attr_u64(devdir, "erase_size", &v))
		fact_bytes(id, "erase_size", v,
			  !mmc && v == 512 ? "(fixed for SDHC/SDXC: not the erase block)" : NULL);
	if (sysfs_attr_u64(devdir, "preferred_erase_size", &v)) {
		bool from_au = ssr && ssr->au_size == v;
		fact_bytes(id, "preferred_erase_size", v, from_au ? "(the card's AU size)" : NULL);
		identity_set_preferred_erase_size(id, v);
	}
}

void sd_probe_mmc(struct identity *id, const char *devdir, const char *type)
{
	bool mmc = !strcmp(type, "MMC");
	char buf[ATTR_MAX], date[64];
	struct card_cid cid;
	struct card_csd csd;
	struct sd_scr scr;
	struct sd_ssr ssr;
	bool have_ssr = false;

	fact_text(id, "card_type", "%s", type);
	bool have_date = sysfs_attr(devdir, "date", date, sizeof date);
	bool have_cid = sysfs_attr(devdir, "cid", buf, sizeof buf);
	if (have_cid && sd_cid_decode(buf, mmc, &cid) == 0)
		put_cid(id, &cid, mmc, have_date ? date : NULL);
	else
		put_cid_attrs(id, devdir, mmc);
	if (have_cid)
		fact_text(id, "cid", "%s", buf);
	if (sysfs_attr(devdir, "csd", buf, sizeof buf)) {
		if (sd_csd_decode(buf, mmc, &csd) == 0)
			put_csd(id, &csd, mmc);
		fact_text(id, "csd", "%s", buf);
	}
	if (!mmc && sysfs_attr(devdir, "scr", buf, sizeof buf)) {
		if (sd_scr_decode(buf, &scr) == 0)
			put_scr(id, &scr);
		fact_text(id, "scr", "%s", buf);
	}
	if (!mmc && sysfs_attr(devdir, "ssr", buf, sizeof buf)) {
		have_ssr = sd_ssr_decode(buf, &ssr) == 0;
		if (have_ssr)
			put_ssr(id, &ssr);
	}
	put_erase_sizes(id, devdir, mmc, have_ssr ? &ssr : NULL);
	if (mmc)
		put_mmc_health(id, devdir);
}
