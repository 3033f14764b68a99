/* --auto's advice: partitioning and file-system commands from the verdicts. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "identity/identity.h"
#include "lib/units.h"


static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Advice follows only from counts measured with some confidence. */
static bool lin_is_known(const struct autostate *s)
{
	return s->have_lin && s->lin.n > 0 && !s->lin.at_least && s->lin.conf >= CONF_MEDIUM;
}

void advice_make(const struct autostate *s, struct advice *a)
{
	const uint64_t mib = 1ull << 20, seg = 2ull << 20;

	memset(a, 0, sizeof(*a));
	unsigned long long pref = identity_preferred_erase_size(s->id);
	a->au_known = s->erase.bytes && s->erase.conf >= CONF_MEDIUM;
	a->au = a->au_known ? s->erase.bytes : is_erase_candidate(pref) ? pref : FALLBACK_ERASE;
	a->au_source = a->au_known ? "measured" : is_erase_candidate(pref) ? "sysfs preferred_erase_size"
									: "common default";
	a->unit = a->au / gcd_u64(a->au, mib) * mib;	/* lcm(AU, 1 MiB): one rule, not two */
	a->start = a->unit;
	if (s->have_fat && s->fatest.aus > 0 && s->fatest.bytes)
		a->after_fat = (s->fatest.bytes + a->unit - 1) / a->unit * a->unit;
	uint64_t page = s->page.bytes && s->page.conf >= CONF_MEDIUM ? s->page.bytes : 4096;
	a->stride = page >= 4096 ? page / 4096 : 1;
	a->stripe_width = a->au / 4096 ? a->au / 4096 : 1;
	uint64_t section = a->au / gcd_u64(a->au, seg) * seg;	/* lcm(AU, 2 MiB segment) */
	a->f2fs_segs_per_section = (unsigned int)(section / seg);
	if (lin_is_known(s) && s->lin.n < 6)
		a->active_logs = s->lin.n >= 4 ? 4 : 2;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The advice's commands, the same in text and JSON: they run as printed once /dev/sdX names the card. */
static bool has_fat_partition(const struct advice *a)
{
	return a->after_fat > a->start;
}

static const char *linux_partition(const struct advice *a)
{
	return has_fat_partition(a) ? "/dev/sdX2" : "/dev/sdX1";
}

static void cmd_sfdisk(char *buf, size_t n, const struct advice *a)
{
	if (has_fat_partition(a))
		snprintf(buf, n, "printf 'start=%" PRIu64 ", size=%" PRIu64 ", type=c\\nstart=%" PRIu64
			 "\\n' | sudo sfdisk /dev/sdX", a->start / SECTOR, (a->after_fat - a->start) / SECTOR,
			 a->after_fat / SECTOR);
	else
		snprintf(buf, n, "echo 'start=%" PRIu64 "' | sudo sfdisk /dev/sdX", a->start / SECTOR);
}

static void cmd_ext4(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.ext4 -b 4096 -E stride=%" PRIu64 ",stripe_width=%" PRIu64 " %s",
		 a->stride, a->stripe_width, linux_partition(a));
}

static void cmd_f2fs(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mkfs.f2fs -s %u %s", a->f2fs_segs_per_section, linux_partition(a));
}

static void cmd_mount(char *buf, size_t n, const struct advice *a)
{
	snprintf(buf, n, "sudo mount -o active_logs=%d %s /mnt", a->active_logs, linux_partition(a));
}

/* Commands that run as printed once /dev/sdX names the card. */
static void print_partitioning(FILE *f, const struct autostate *s, const struct advice *a)
{
	char unit[FMT_BUF], au[FMT_BUF], fat[FMT_BUF], cmd[256];
	uint64_t blocks = a->unit / a->au, sectors = a->unit / SECTOR;

	fmt_size(unit, a->unit);
	fmt_size(au, a->au);
	if (blocks > 1)
		fprintf(f, "  Start every partition at a multiple of %s (%" PRIu64 " erase blocks of %s) and\n"
			"  make every size a multiple of %s (%" PRIu64 " sectors of 512 bytes):\n",
			unit, blocks, au, unit, sectors);
	else
		fprintf(f, "  Start every partition at a multiple of %s (one erase block) and make every\n"
			"  size a multiple of %s (%" PRIu64 " sectors of 512 bytes):\n", unit, unit, sectors);
	if (a->after_fat > a->start) {
		fmt_size(fat, s->fatest.bytes);
		fprintf(f, "  The first %s (%d erase %s) take small writes fast: keep a FAT partition\n"
			"  there and put Linux filesystems after it.\n", fat, s->fatest.aus,
			plural((uint64_t)s->fatest.aus, "block", "blocks"));
	}
	cmd_sfdisk(cmd, sizeof(cmd), a);
	fprintf(f, "    %s\n", cmd);
	if (has_fat_partition(a))
		fprintf(f, "    sudo mkfs.vfat /dev/sdX1\n");
}

void advice_print(FILE *f, const struct autostate *s, const struct advice *a)
{
	uint64_t section = (uint64_t)a->f2fs_segs_per_section * (2u << 20);
	char au[FMT_BUF], sec[FMT_BUF], cmd[256];

	fmt_size(au, a->au);
	fprintf(f, "\nWhat to do\n");
	if (!a->au_known)
		fprintf(f, "  The erase block size is not certain: the advice assumes %s (%s).\n", au,
			a->au_source);
	print_partitioning(f, s, a);
	fprintf(f, "  For ext4 (stride: one page; stripe width: one erase block, in 4KiB blocks):\n");
	cmd_ext4(cmd, sizeof(cmd), a);
	fprintf(f, "    %s\n", cmd);
	fprintf(f, "  For f2fs (sections of %s, %u segment%s of 2MiB, cover whole erase blocks):\n",
		fmt_size(sec, section), a->f2fs_segs_per_section, a->f2fs_segs_per_section == 1 ? "" : "s");
	cmd_f2fs(cmd, sizeof(cmd), a);
	fprintf(f, "    %s\n", cmd);
	if (a->active_logs) {
		cmd_mount(cmd, sizeof(cmd), a);
		fprintf(f, "    %s\n  (f2fs writes 6 logs at once by default; this card keeps %d erase %s open)\n",
			cmd, s->lin.n, plural((uint64_t)s->lin.n, "block", "blocks"));
	}
	if (lin_is_known(s) && s->lin.n <= 2)
		fprintf(f, "  Only %d erase block%s open at a time: a journaling filesystem's scattered\n"
			"  writes (data, metadata, journal) will be slow; keep logs and /tmp on tmpfs.\n",
			s->lin.n, s->lin.n == 1 ? " stays" : "s stay");
	if (s->have_rnd && s->rnd.n == 0 && s->rnd.conf >= CONF_MEDIUM)
		fprintf(f, "  Out-of-order writes inside an erase block are slow even with one open:\n"
			"  prefer a log-structured filesystem (f2fs) for small-write workloads.\n");
}

void advice_json(struct jw *w, const struct autostate *s)
{
	struct advice a;
	char line[256];

	advice_make(s, &a);
	jw_object_begin(w, "advice");
	jw_uint(w, "align_bytes", a.unit);
	jw_uint(w, "erase_block_bytes", a.au);
	jw_string(w, "align_source", auto_source_id(a.au_source));
	jw_uint(w, "partition_start_sectors", a.start / SECTOR);
	if (has_fat_partition(&a))
		jw_uint(w, "linux_partition_start_sectors", a.after_fat / SECTOR);
	cmd_sfdisk(line, sizeof(line), &a);
	jw_string(w, "sfdisk", line);
	if (has_fat_partition(&a))
		jw_string(w, "fat_partition", "sudo mkfs.vfat /dev/sdX1");
	cmd_ext4(line, sizeof(line), &a);
	jw_string(w, "ext4", line);
	cmd_f2fs(line, sizeof(line), &a);
	jw_string(w, "f2fs", line);
	if (a.active_logs) {
		cmd_mount(line, sizeof(line), &a);
		jw_string(w, "f2fs_mount", line);
	}
	jw_object_end(w);
}
