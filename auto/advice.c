/*
 * --auto's advice: partitioning and file-system commands from the verdicts.
 * Every command names the measured card (its whole-disk node and its
 * partitions; /dev/sdX where there is none: an image file, sim:) and runs
 * as printed, also on a card that was used before (an old partition table,
 * old filesystems), and on a counterfeit card every partition ends inside
 * what it really stores.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "identity/identity.h"
#include "lib/units.h"

#define MIB (1ull << 20)
#define F2FS_SEGMENT (2ull << 20)
/* Where the FAT partition starts: after the partition table, on the usual 1 MiB boundary. */
#define FAT_PART_START MIB

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

/* Advice follows only from counts measured with some confidence. */
static bool lin_is_known(const struct autostate *s)
{
	return s->have_lin && s->lin.n > 0 && !s->lin.at_least && s->lin.conf >= CONF_MEDIUM;
}

static bool fat_area_is_known(const struct autostate *s)
{
	return s->have_fat && s->fatest.aus > 0 && s->fatest.bytes && s->fatest.conf >= CONF_MEDIUM;
}

/*
 * The FAT type a partition of this size gets, made explicit so that the
 * advice can name it: FAT12 below 8192 clusters of one sector (FAT16 needs
 * 4085 at least: below 4 MiB with 512-byte sectors), FAT16 with one-sector
 * clusters below 16 MiB (mkfs.vfat's own choice there would be FAT12),
 * FAT16 up to 512 MiB, FAT32 above.
 */
static void choose_fat_type(struct advice *a)
{
	uint64_t bytes = a->fat_end - a->fat_start;

	if (bytes / a->sector < 8192) {
		a->fat_type = "FAT12", a->fat_mkfs = "-F 12", a->fat_mbr_type = 0x01;
	} else if (bytes < 16 * MIB) {
		a->fat_type = "FAT16", a->fat_mkfs = "-F 16 -s 1", a->fat_mbr_type = 0x0e;
	} else if (bytes < 512 * MIB) {
		a->fat_type = "FAT16", a->fat_mkfs = "-F 16", a->fat_mbr_type = 0x0e;
	} else {
		a->fat_type = "FAT32", a->fat_mkfs = "-F 32", a->fat_mbr_type = 0x0c;
	}
}

/* What --capacity found: a fake's partitions end inside what it stores. */
static void apply_capacity(const struct autostate *s, struct advice *a)
{
	const struct capacity_result *c = &s->cap;

	a->capacity_checked = s->have_cap && c->verdict != CAP_UNKNOWN;
	if (!a->capacity_checked || c->real_lo >= c->advertised ||
	    (c->verdict != CAP_COUNTERFEIT && c->verdict != CAP_DAMAGED))
		return;
	a->fake = true;
	a->stores = c->real_lo;
	a->end = c->real_lo / a->unit * a->unit;
	if (a->fat_end && a->fat_end + a->unit > a->end) {	/* no room after it for Linux */
		a->fat_end = 0;
		a->linux_start = a->start = a->unit;
	}
	if (a->end < a->linux_start + a->unit)
		a->unusable = true;
}

/*
 * The card's whole-disk node: the block device measured, by its kernel
 * name (/dev/mmcblk0 for a /dev/disk/by-id/ link), or the disk of the
 * partition measured; "/dev/sdX" for an image file or a sim: card.
 */
static void whole_disk(const struct autostate *s, char *buf, size_t n)
{
	const char *disk = identity_get(s->id, "disk");
	char real[PATH_MAX];

	snprintf(buf, n, "/dev/sdX");
	if (!dev_kind(s->d) || strcmp(dev_kind(s->d), "block_device") != 0)
		return;
	if (identity_get(s->id, "partition") && disk && *disk)
		snprintf(buf, n, "/dev/%s", disk);
	else if (realpath(s->d->path, real) && strncmp(real, "/dev/", 5) == 0 && !strchr(real + 5, '/') &&
		 strlen(real) < n)
		snprintf(buf, n, "%.*s", (int)(n - 1), real);
}

/* Partition k of a disk as the kernel names it: a "p" after a name ending in a digit. */
static void partition_name(char *buf, size_t n, const char *disk, int k)
{
	size_t len = strlen(disk);
	bool digit = len && disk[len - 1] >= '0' && disk[len - 1] <= '9';

	snprintf(buf, n, "%s%s%d", disk, digit && strcmp(disk, "/dev/sdX") ? "p" : "", k);
}

void advice_make(const struct autostate *s, struct advice *a)
{
	memset(a, 0, sizeof(*a));
	unsigned long long pref = identity_preferred_erase_size(s->id);
	a->au_known = s->erase.bytes && s->erase.conf >= CONF_MEDIUM;
	a->au = a->au_known ? s->erase.bytes : units_is_erase_candidate(pref) ? pref : FALLBACK_ERASE;
	a->au_source = a->au_known ? "measured" : units_is_erase_candidate(pref) ? "sysfs preferred_erase_size"
									: "common default";
	a->unit = a->au / gcd_u64(a->au, MIB) * MIB;	/* lcm(AU, 1 MiB): one rule, not two */
	a->sector = s->d->lbs > SECTOR ? s->d->lbs : SECTOR;	/* sfdisk counts logical blocks */
	a->start = a->linux_start = a->unit;
	if (fat_area_is_known(s)) {
		uint64_t end = round_up(s->fatest.bytes, a->unit);

		if (end > FAT_PART_START) {
			a->fat_start = a->start = FAT_PART_START;
			a->fat_end = a->linux_start = end;
			choose_fat_type(a);
		}
	}
	apply_capacity(s, a);
	/* a size that is no multiple of the unit: the last partition too ends on one, as the text says */
	uint64_t whole = s->d->size / a->unit * a->unit;
	if (!a->end && whole != s->d->size && whole > a->linux_start)
		a->end = whole;
	uint64_t end = a->end ? a->end : s->d->size;
	a->linux_bytes = end > a->linux_start ? end - a->linux_start : 0;
	uint64_t page = s->page.bytes && s->page.conf >= CONF_MEDIUM ? s->page.bytes : 4096;
	a->stride = page >= 4096 ? page / 4096 : 1;
	a->stripe_width = a->au / 4096 ? a->au / 4096 : 1;
	uint64_t section = a->au / gcd_u64(a->au, F2FS_SEGMENT) * F2FS_SEGMENT;	/* lcm(AU, segment) */
	a->f2fs_segs_per_section = (unsigned int)(section / F2FS_SEGMENT);
	if (lin_is_known(s) && s->lin.n < 6)
		a->active_logs = s->lin.n >= 4 ? 4 : 2;
	whole_disk(s, a->disk, sizeof a->disk);
	for (int k = 0; k < 2; k++)
		partition_name(a->part[k], sizeof a->part[k], a->disk, k + 1);
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The advice's commands, the same in text and JSON, on the card's own device names. */
static bool has_fat_partition(const struct advice *a)
{
	return a->fat_end > a->fat_start;
}

static const char *linux_partition(const struct advice *a)
{
	return a->part[has_fat_partition(a) ? 1 : 0];
}

/* mkfs.f2fs refuses partitions of fewer sections (it needs about 30 of them). */
#define F2FS_MIN_SECTIONS 32

static uint64_t f2fs_section(const struct advice *a)
{
	return (uint64_t)a->f2fs_segs_per_section * F2FS_SEGMENT;
}

static bool f2fs_fits(const struct advice *a)
{
	return !a->linux_bytes || a->linux_bytes >= F2FS_MIN_SECTIONS * f2fs_section(a);
}

/*
 * "label: dos" replaces whatever table the card had (a GPT one would not
 * take type=e); the last partition runs to the end of the card, or to its
 * last whole unit (a size that is no multiple of it), or of what a fake
 * stores.
 */
static void cmd_sfdisk(char *buf, size_t n, const struct advice *a)
{
	char fat[96] = "", size[48] = "";

	if (has_fat_partition(a))
		snprintf(fat, sizeof fat, "start=%" PRIu64 ", size=%" PRIu64 ", type=%x\\n",
			 a->fat_start / a->sector, (a->fat_end - a->fat_start) / a->sector, a->fat_mbr_type);
	if (a->end)
		snprintf(size, sizeof size, ", size=%" PRIu64, (a->end - a->linux_start) / a->sector);
	snprintf(buf, n, "printf 'label: dos\\n%sstart=%" PRIu64 "%s\\n' | sudo sfdisk %s", fat,
		 a->linux_start / a->sector, size, a->disk);
}

static void cmd_vfat(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.vfat %s %s", a->fat_mkfs, a->part[0]);
}

static void cmd_ext4(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.ext4 -b 4096 -E stride=%" PRIu64 ",stripe_width=%" PRIu64 " %s",
		 a->stride, a->stripe_width, linux_partition(a));
}

/* -f: mkfs.f2fs refuses a partition that holds any filesystem without it */
static void cmd_f2fs(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.f2fs -f -s %u %s", a->f2fs_segs_per_section, linux_partition(a));
}

static void cmd_mount(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mount -o active_logs=%d %s /mnt", a->active_logs, linux_partition(a));
}

static void cmd_capacity(char *buf, size_t n, const struct autostate *s)
{
	snprintf(buf, n, "flashbench --capacity %s", auto_device_name(s));
}

/* A paragraph of advice, wrapped at 78 columns, indented by two. */
static void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *f, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (const char *p = text; *p;) {
		size_t len = strlen(p), cut = len;

		if (len > 76) {
			cut = 76;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = strcspn(p, " ");
		}
		fprintf(f, "  %.*s\n", (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

static void command(FILE *f, const char *cmd)
{
	fprintf(f, "    %s\n", cmd);
}

static const char *beyond_words(const struct capacity_result *c)
{
	switch (c->mode) {
	case CAP_MODE_WRAP:
		return "what is written beyond that overwrites the start of the card";
	case CAP_MODE_LOST:
		return "what is written beyond that is lost";
	default:
		return "I/O beyond that fails";
	}
}

/* A fake first, in plain words; or that nobody checked. */
static void print_capacity(FILE *f, const struct autostate *s, const struct advice *a)
{
	char adv[FMT_BUF], real[FMT_BUF], cmd[512];

	if (a->fake) {
		fmt_size(adv, s->cap.advertised);
		fmt_size(real, a->stores);
		say(f, "This card is %s: it advertises %s but stores only %s, and %s.",
		    s->cap.verdict == CAP_COUNTERFEIT ? "counterfeit" : "damaged", adv, real,
		    beyond_words(&s->cap));
		if (a->unusable)
			say(f, "That leaves no room for a partition: return the card to the seller.");
		else
			say(f, "Return it to the seller if you can. To use it anyway, use only the first "
			    "%s: every partition below ends there. Never let a tool grow a partition or "
			    "filesystem to the advertised %s (e.g. a first boot that expands the root "
			    "filesystem): that destroys data.", real, adv);
		return;
	}
	if (a->capacity_checked)
		return;
	const char *ro = identity_get(s->id, "read_only");
	if (ro && strcmp(ro, "yes") == 0)
		say(f, "The card is read-only here (write-protected): the check below and the "
		    "partitioning need it writable; unlock it first (the switch of an SD card or "
		    "its adapter).");
	cmd_capacity(cmd, sizeof cmd, s);
	say(f, "The capacity %s: a counterfeit card stores less than it advertises, and a "
	    "partition beyond what it stores loses data. Check it before you partition (this "
	    "overwrites a few sectors and puts them back):",
	    s->o->destructive ? "check did not finish" : "was not checked (this run only read the card)");
	command(f, cmd);
}

static void print_fat_partition(FILE *f, const struct autostate *s, const struct advice *a)
{
	char fat[FMT_BUF], part[FMT_BUF], from[FMT_BUF], to[FMT_BUF];

	if (!fat_area_is_known(s))
		return;
	fmt_size(fat, s->fatest.bytes);
	if (!has_fat_partition(a)) {
		say(f, "The first %s take small writes fast, but leave no room for a FAT partition.", fat);
		return;
	}
	fmt_size(part, a->fat_end - a->fat_start);
	fmt_size(from, a->fat_start);
	fmt_size(to, a->fat_end);
	say(f, "The first %s (%d erase %s) take small writes fast: a FAT partition covers them, "
	    "%s from %s (after the partition table) to %s, formatted %s. Alignment does not "
	    "matter inside that area. Linux filesystems go after it.", fat, s->fatest.aus,
	    plural((uint64_t)s->fatest.aus, "block", "blocks"), part, from, to, a->fat_type);
}

/* Commands that run as printed, on the card's own device names. */
static void print_partitioning(FILE *f, const struct autostate *s, const struct advice *a)
{
	char unit[FMT_BUF], au[FMT_BUF], blocks_text[FMT_BUF + 48], cmd[256];
	uint64_t blocks = a->unit / a->au, sectors = a->unit / a->sector;

	fmt_size(unit, a->unit);
	fmt_size(au, a->au);
	if (blocks > 1)
		snprintf(blocks_text, sizeof blocks_text, "%" PRIu64 " erase blocks of %s", blocks, au);
	else
		snprintf(blocks_text, sizeof blocks_text, "one erase block");
	say(f, "Start every %spartition at a multiple of %s (%s) and make its size a multiple of "
	    "%s (%" PRIu64 " sectors of %u bytes).", has_fat_partition(a) ? "Linux " : "", unit,
	    blocks_text, unit, sectors, a->sector);
	print_fat_partition(f, s, a);
	say(f, "Unmount the card first: this replaces its partition table%s:",
	    has_fat_partition(a) ? ", then erases what the FAT partition held" : "");
	cmd_sfdisk(cmd, sizeof(cmd), a);
	command(f, cmd);
	if (has_fat_partition(a)) {
		cmd_vfat(cmd, sizeof(cmd), a);
		command(f, cmd);
	}
}

static void print_filesystems(FILE *f, const struct autostate *s, const struct advice *a)
{
	char sec[FMT_BUF], cmd[256];

	say(f, "Then one filesystem on %s (each command erases what it holds):",
	    linux_partition(a));
	say(f, "For ext4 (stride: one page; stripe width: one erase block, in 4KiB blocks):");
	cmd_ext4(cmd, sizeof(cmd), a);
	command(f, cmd);
	fmt_size(sec, f2fs_section(a));
	if (!f2fs_fits(a)) {
		say(f, "f2fs needs %u sections of %s (whole erase blocks); the partition is smaller: "
		    "use ext4.", F2FS_MIN_SECTIONS, sec);
		return;
	}
	say(f, "For f2fs (sections of %s, %u segment%s of 2MiB, cover whole erase blocks):", sec,
	    a->f2fs_segs_per_section, a->f2fs_segs_per_section == 1 ? "" : "s");
	cmd_f2fs(cmd, sizeof(cmd), a);
	command(f, cmd);
	if (a->active_logs) {
		cmd_mount(cmd, sizeof(cmd), a);
		command(f, cmd);
		say(f, "(f2fs writes 6 logs at once by default; this card keeps %d erase %s open)",
		    s->lin.n, plural((uint64_t)s->lin.n, "block", "blocks"));
	}
}

void advice_print(FILE *f, const struct autostate *s, const struct advice *a)
{
	char au[FMT_BUF];

	fmt_size(au, a->au);
	fprintf(f, "\nWhat to do\n");
	print_capacity(f, s, a);
	if (a->unusable)
		return;
	if (!a->au_known)
		say(f, "The erase block size is not certain: the advice assumes %s (%s).", au,
		    a->au_source);
	print_partitioning(f, s, a);
	print_filesystems(f, s, a);
	if (lin_is_known(s) && s->lin.n <= 2)
		say(f, "Only %d erase block%s open at a time: a journaling filesystem's scattered "
		    "writes (data, metadata, journal) will be slow; keep logs and /tmp on tmpfs.",
		    s->lin.n, s->lin.n == 1 ? " stays" : "s stay");
	if (s->have_rnd && s->rnd.n == 0 && s->rnd.conf >= CONF_MEDIUM)
		say(f, "Out-of-order writes inside an erase block are slow even with one open: "
		    "prefer a log-structured filesystem (f2fs) for small-write workloads.");
}

void advice_json(struct jw *w, const struct autostate *s)
{
	struct advice a;
	char line[512];

	advice_make(s, &a);
	jw_object_begin(w, "advice");
	jw_uint(w, "align_bytes", a.unit);
	jw_uint(w, "erase_block_bytes", a.au);
	jw_string(w, "align_source", auto_source_id(a.au_source));
	jw_bool(w, "capacity_checked", a.capacity_checked);
	if (!a.capacity_checked) {
		cmd_capacity(line, sizeof(line), s);
		jw_string(w, "capacity_command", line);
	}
	if (a.fake) {
		jw_uint(w, "usable_bytes", a.end);
		jw_bool(w, "return_card", a.unusable);
	}
	jw_uint(w, "partition_start_sectors", a.start / a.sector);
	if (!a.unusable) {
		if (has_fat_partition(&a)) {
			jw_uint(w, "linux_partition_start_sectors", a.linux_start / a.sector);
			jw_uint(w, "fat_partition_sectors", (a.fat_end - a.fat_start) / a.sector);
			jw_string(w, "fat_type", a.fat_type);
		}
		cmd_sfdisk(line, sizeof(line), &a);
		jw_string(w, "sfdisk", line);
		if (has_fat_partition(&a)) {
			cmd_vfat(line, sizeof(line), &a);
			jw_string(w, "fat_partition", line);
		}
		cmd_ext4(line, sizeof(line), &a);
		jw_string(w, "ext4", line);
		if (f2fs_fits(&a)) {
			cmd_f2fs(line, sizeof(line), &a);
			jw_string(w, "f2fs", line);
		}
		if (a.active_logs && f2fs_fits(&a)) {
			cmd_mount(line, sizeof(line), &a);
			jw_string(w, "f2fs_mount", line);
		}
	}
	jw_object_end(w);
}
