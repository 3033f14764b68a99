/*
 * Device identity from sysfs: block queue facts, SCSI strings and the USB
 * device above a reader; the fact list, its text and JSON. The SD/MMC
 * registers (CID, CSD, SCR, SD Status) are decoded in identity/sd_registers.c.
 */
#include "identity/identity.h"
#include "identity/identity_internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev.h"
#include "lib/units.h"

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

/* ------------------------------------------------------------------ facts */

static struct fact *fact_slot(struct identity *id, const char *key)
{
	for (int i = 0; i < id->nfacts; i++)
		if (strcmp(id->facts[i].key, key) == 0)
			return &id->facts[i];
	if (id->nfacts == MAX_FACTS)
		return NULL;
	struct fact *f = &id->facts[id->nfacts++];
	memset(f, 0, sizeof *f);
	f->key = key;
	return f;
}

void __attribute__((format(printf, 3, 4)))
put_text(struct identity *id, const char *key, const char *fmt, ...)
{
	struct fact *f = fact_slot(id, key);
	va_list ap;

	if (!f)
		return;
	f->kind = FACT_TEXT;
	f->json[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
}

/* A text fact whose JSON value (json) is plainer than its display. */
void __attribute__((format(printf, 4, 5)))
put_text_json(struct identity *id, const char *key, const char *json, const char *fmt, ...)
{
	struct fact *f = fact_slot(id, key);
	va_list ap;

	if (!f)
		return;
	f->kind = FACT_TEXT;
	snprintf(f->json, sizeof f->json, "%s", json);
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
}

/* A number in JSON; fmt (may be NULL: plain decimal) is the display. */
static void __attribute__((format(printf, 4, 5)))
put_uint(struct identity *id, const char *key, uint64_t v, const char *fmt, ...)
{
	struct fact *f = fact_slot(id, key);
	va_list ap;

	if (!f)
		return;
	f->kind = FACT_UINT;
	f->num = v;
	f->bytes = strstr(key, "block_size") != NULL;
	f->json[0] = '\0';
	if (!fmt) {
		snprintf(f->text, sizeof f->text, "%" PRIu64, v);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
}

/* Bytes: "3965190144 (3.69GiB)", plus an optional remark. */
void put_bytes(struct identity *id, const char *key, uint64_t v, const char *remark)
{
	char h[FMT_BUF];

	if (v < 1024)
		put_uint(id, key, v, "%" PRIu64 "%s%s", v, remark ? " " : "", remark ? remark : "");
	else
		put_uint(id, key, v, "%" PRIu64 " (%s)%s%s", v, fmt_size(h, v),
			 remark ? " " : "", remark ? remark : "");
	struct fact *f = fact_slot(id, key);	/* the one put_uint filled */
	if (f)
		f->bytes = true;
}

static void put_bool(struct identity *id, const char *key, bool v)
{
	struct fact *f = fact_slot(id, key);

	if (!f)
		return;
	f->kind = FACT_BOOL;
	f->num = v;
	f->json[0] = '\0';
	snprintf(f->text, sizeof f->text, "%s", v ? "yes" : "no");
}

void __attribute__((format(printf, 2, 3)))
add_note(struct identity *id, const char *fmt, ...)
{
	va_list ap;

	if (id->nnotes == MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(id->notes[id->nnotes++], TEXT_MAX, fmt, ap);
	va_end(ap);
}

void identity_set_preferred_erase_size(struct identity *id, unsigned long long v)
{
	id->preferred_erase_size = v;
}

static const struct fact *find_fact(const struct identity *id, const char *key)
{
	for (int i = 0; i < id->nfacts; i++)
		if (strcmp(id->facts[i].key, key) == 0)
			return &id->facts[i];
	return NULL;
}

static uint64_t fact_num(const struct identity *id, const char *key)
{
	const struct fact *f = find_fact(id, key);
	return f && f->kind != FACT_TEXT ? f->num : 0;
}

/* ------------------------------------------------------------------ sysfs */

static void trim(char *s)
{
	size_t n = strlen(s), start = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[start]))
		start++;
	memmove(s, s + start, n - start + 1);
}

/* dir/name into out; false if it does not fit (then nothing is read there). */
static bool path_join(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);
	return n >= 0 && (size_t)n < len;
}

/* dir/name without surrounding whitespace; false if absent or empty. */
bool read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	if (!path_join(path, sizeof path, dir, name))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* sysfs text never holds NULs; if one does, the rest is not text */
	trim(buf);
	return buf[0] != '\0';
}

bool read_attr_u64(const char *dir, const char *name, uint64_t *v)
{
	char buf[64], *end;

	if (!read_attr(dir, name, buf, sizeof buf))
		return false;
	*v = strtoull(buf, &end, 0);
	return end != buf && *end == '\0';
}

static bool attr_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return path_join(path, sizeof path, dir, name) && access(path, F_OK) == 0;
}

/* Last component of the symlink dir/name ("mmcblk" for device/driver). */
static bool read_link_name(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	if (!path_join(path, sizeof path, dir, name))
		return false;
	n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	const char *slash = strrchr(target, '/');
	int w = snprintf(buf, len, "%s", slash ? slash + 1 : target);
	return w > 0 && (size_t)w < len;
}

static void parent_dir(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash && slash != path)
		*slash = '\0';
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* -------------------------------------------------------- SCSI and USB */

static void put_attr_text(struct identity *id, const char *key, const char *dir, const char *name)
{
	char buf[ATTR_MAX];

	if (read_attr(dir, name, buf, sizeof buf))
		put_text(id, key, "%s", buf);
}

static void probe_scsi(struct identity *id, const char *devdir)
{
	put_attr_text(id, "vendor", devdir, "vendor");
	put_attr_text(id, "model", devdir, "model");
	put_attr_text(id, "revision", devdir, "rev");
}

/* Walks up from the block device's parent to the USB interface and device. */
static void probe_usb(struct identity *id, const char *devdir, const char *sysfs_root)
{
	char dir[PATH_MAX], top[PATH_MAX], path[PATH_MAX], buf[ATTR_MAX];
	char vendor[16], product[16];

	if (!path_join(path, sizeof path, sysfs_root, "devices") || !realpath(path, top))
		return;
	snprintf(dir, sizeof dir, "%s", devdir);
	while (strncmp(dir, top, strlen(top)) == 0 && strlen(dir) > strlen(top)) {
		if (!find_fact(id, "usb_driver") && attr_exists(dir, "bInterfaceClass") &&
		    read_link_name(dir, "driver", buf, sizeof buf))
			put_text(id, "usb_driver", "%s", buf);
		if (read_attr(dir, "idVendor", vendor, sizeof vendor) &&
		    read_attr(dir, "idProduct", product, sizeof product)) {
			put_text(id, "usb_id", "%s:%s", vendor, product);
			put_attr_text(id, "usb_manufacturer", dir, "manufacturer");
			put_attr_text(id, "usb_product", dir, "product");
			put_attr_text(id, "usb_serial", dir, "serial");
			if (read_attr(dir, "speed", buf, sizeof buf))
				put_text(id, "usb_speed", "%s Mbit/s", buf);
			return;
		}
		parent_dir(dir);
	}
}

/* --------------------------------------------------------- block devices */

static void put_queue(struct identity *id, const struct dev *d, const char *disk)
{
	char q[PATH_MAX];
	uint64_t v;

	if (!path_join(q, sizeof q, disk, "queue"))
		return;
	if (d->lbs)
		put_uint(id, "logical_block_size", d->lbs, NULL);
	else if (read_attr_u64(q, "logical_block_size", &v))
		put_uint(id, "logical_block_size", v, NULL);
	if (d->pbs)
		put_uint(id, "physical_block_size", d->pbs, NULL);
	else if (read_attr_u64(q, "physical_block_size", &v))
		put_uint(id, "physical_block_size", v, NULL);
	if (read_attr_u64(q, "rotational", &v))
		put_bool(id, "rotational", v != 0);
	if (read_attr_u64(disk, "removable", &v))
		put_bool(id, "removable", v != 0);
	if (read_attr_u64(disk, "ro", &v))
		put_bool(id, "read_only", v != 0);
	if (read_attr_u64(q, "discard_granularity", &v))
		put_bytes(id, "discard_granularity", v, v ? NULL : "(no discard)");
}

static void put_partition(struct identity *id, const char *node, const char *disk)
{
	uint64_t v;

	put_text(id, "disk", "%s", base_name(disk));
	if (read_attr_u64(node, "partition", &v))
		put_uint(id, "partition", v, NULL);
	if (read_attr_u64(node, "start", &v))
		put_bytes(id, "partition_start", v * 512, NULL);
}

static void put_sizes(struct identity *id, const struct dev *d, const char *node,
		      const char *disk, bool partition)
{
	uint64_t sectors;

	if (d->size)
		put_bytes(id, "size", d->size, NULL);
	else if (read_attr_u64(node, "size", &sectors))
		put_bytes(id, "size", sectors * 512, NULL);
	if (partition && read_attr_u64(disk, "size", &sectors))
		put_bytes(id, "disk_size", sectors * 512, NULL);
}

static uint64_t whole_disk_size(const struct identity *id)
{
	uint64_t v = fact_num(id, "disk_size");
	return v ? v : fact_num(id, "size");
}

static void probe_device_dir(struct identity *id, const char *disk, const char *sysfs_root)
{
	char link[PATH_MAX], devdir[PATH_MAX], buf[ATTR_MAX], type[64] = "";
	char subsystem[64] = "";

	if (!path_join(link, sizeof link, disk, "device") || !realpath(link, devdir))
		return;		/* virtual: loop, zram, device-mapper */
	if (read_link_name(devdir, "driver", buf, sizeof buf))
		put_text(id, "driver", "%s", buf);
	if (read_link_name(devdir, "subsystem", subsystem, sizeof subsystem))
		put_text(id, "subsystem", "%s", subsystem);
	read_attr(devdir, "type", type, sizeof type);
	if (!strcmp(subsystem, "mmc") || is_mmc_type(type)) {
		probe_mmc(id, devdir, type[0] ? type : "SD");
		return;
	}
	if (!strcmp(subsystem, "scsi"))
		probe_scsi(id, devdir);
	probe_usb(id, devdir, sysfs_root);
}

static void probe_block(struct identity *id, const struct dev *d, unsigned int major,
			unsigned int minor, const char *sysfs_root)
{
	char link[PATH_MAX], node[PATH_MAX], disk[PATH_MAX], buf[ATTR_MAX];
	bool partition;

	put_text_json(id, "kind", "block_device", "block device");
	put_text(id, "device_number", "%u:%u", major, minor);
	int n = snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysfs_root, major, minor);
	if (n < 0 || (size_t)n >= sizeof link || !realpath(link, node)) {
		if (d->size)
			put_bytes(id, "size", d->size, NULL);
		return;
	}
	snprintf(disk, sizeof disk, "%s", node);
	partition = attr_exists(node, "partition");
	if (partition)
		parent_dir(disk);
	put_text(id, "kernel_name", "%s", base_name(node));
	if (partition)
		put_partition(id, node, disk);
	put_sizes(id, d, node, disk, partition);
	put_queue(id, d, disk);
	if (read_attr(disk, "loop/backing_file", buf, sizeof buf))
		put_text(id, "loop_backing_file", "%s", buf);
	probe_device_dir(id, disk, sysfs_root);
}

/* ------------------------------------------------------------- red flags */

static void note_capacity(struct identity *id)
{
	uint64_t csd = fact_num(id, "csd_capacity"), size = whole_disk_size(id);

	if (csd && size && csd != size)
		add_note(id, "CSD capacity %" PRIu64 " bytes differs from the device size %" PRIu64
			 " bytes: a red flag (fake capacity or misreporting card)", csd, size);
}

static void note_alignment(struct identity *id)
{
	const struct fact *start = find_fact(id, "partition_start");
	uint64_t erase = id->preferred_erase_size;
	char a[FMT_BUF];

	if (start && erase && start->num % erase)
		add_note(id, "partition starts at %" PRIu64 " bytes, not a multiple of the "
			 "preferred erase size %s", start->num, fmt_size(a, erase));
}

static void note_usb(struct identity *id)
{
	if (find_fact(id, "usb_id") && !find_fact(id, "card_type"))
		add_note(id, "USB device: for a card in a reader, the card's CID/CSD registers are "
			 "not visible (a built-in SD slot, mmcblkN, shows them)");
}

static void add_notes(struct identity *id)
{
	note_capacity(id);
	note_alignment(id);
	note_usb(id);
}

/* ----------------------------------------------------------------- probe */

static struct identity *identity_new(const struct dev *d)
{
	struct identity *id = calloc(1, sizeof *id);

	if (id)
		put_text(id, "device", "%s", d->path ? d->path : "?");
	return id;
}

static void put_basic_sizes(struct identity *id, const struct dev *d)
{
	put_bytes(id, "size", d->size, NULL);
	if (d->lbs)
		put_uint(id, "logical_block_size", d->lbs, NULL);
	if (d->pbs)
		put_uint(id, "physical_block_size", d->pbs, NULL);
}

struct identity *identity_probe_devnum(const struct dev *d, unsigned int major,
				       unsigned int minor, const char *sysfs_root)
{
	struct identity *id = identity_new(d);

	if (!id)
		return NULL;
	probe_block(id, d, major, minor, sysfs_root ? sysfs_root : "/sys");
	add_notes(id);
	return id;
}

struct identity *identity_probe(const struct dev *d, const char *sysfs_root)
{
	struct identity *id;
	struct stat st;
	int r;

	if (dev_simulated(d)) {
		id = identity_new(d);
		if (id) {
			put_text_json(id, "kind", "simulated_card", "simulated card");
			put_basic_sizes(id, d);
		}
		return id;
	}
	r = d->fd >= 0 ? fstat(d->fd, &st) : (d->path ? stat(d->path, &st) : -1);
	if (r == 0 && S_ISBLK(st.st_mode))
		return identity_probe_devnum(d, major(st.st_rdev), minor(st.st_rdev), sysfs_root);
	id = identity_new(d);
	if (!id)
		return NULL;
	if (r == 0 && S_ISREG(st.st_mode)) {
		put_text_json(id, "kind", "regular_file", "regular file");
		struct dev copy = *d;
		if (!copy.size)
			copy.size = (uint64_t)st.st_size;
		put_basic_sizes(id, &copy);
	} else {
		put_basic_sizes(id, d);
	}
	return id;
}

void identity_free(struct identity *id)
{
	free(id);
}

/* ---------------------------------------------------------------- output */

static void label_of(const char *key, char *out, size_t len)
{
	size_t i;

	for (i = 0; key[i] && i + 1 < len; i++)
		out[i] = key[i] == '_' ? ' ' : key[i];
	out[i] = '\0';
}

void identity_print(FILE *f, const struct identity *id)
{
	char label[64];
	int width = (int)strlen("note");

	if (!id)
		return;
	for (int i = 0; i < id->nfacts; i++)
		if ((int)strlen(id->facts[i].key) > width)
			width = (int)strlen(id->facts[i].key);
	for (int i = 0; i < id->nfacts; i++) {
		label_of(id->facts[i].key, label, sizeof label);
		strcat(label, ":");
		fprintf(f, "%-*s %s\n", width + 1, label, id->facts[i].text);
	}
	for (int i = 0; i < id->nnotes; i++)
		fprintf(f, "%-*s %s\n", width + 1, "note:", id->notes[i]);
}

void identity_json(struct jw *w, const char *key, const struct identity *id)
{
	if (!id) {
		jw_null(w, key);
		return;
	}
	jw_object_begin(w, key);
	for (int i = 0; i < id->nfacts; i++) {
		const struct fact *f = &id->facts[i];
		switch (f->kind) {
		case FACT_UINT: {
			char name[64];

			/* JSON names carry their unit: "size_bytes" */
			snprintf(name, sizeof name, "%s%s", f->key, f->bytes ? "_bytes" : "");
			jw_uint(w, name, f->num);
			break;
		}
		case FACT_BOOL:
			jw_bool(w, f->key, f->num != 0);
			break;
		case FACT_TEXT:
			jw_string(w, f->key, f->json[0] ? f->json : f->text);
			break;
		}
	}
	jw_array_begin(w, "notes");
	for (int i = 0; i < id->nnotes; i++)
		jw_string(w, NULL, id->notes[i]);
	jw_array_end(w);
	jw_object_end(w);
}

const char *identity_get(const struct identity *id, const char *key)
{
	const struct fact *f = id ? find_fact(id, key) : NULL;
	return f ? f->text : NULL;
}

int identity_note_count(const struct identity *id)
{
	return id ? id->nnotes : 0;
}

const char *identity_note(const struct identity *id, int i)
{
	return id && i >= 0 && i < id->nnotes ? id->notes[i] : NULL;
}

unsigned long long identity_preferred_erase_size(const struct identity *id)
{
	return id ? id->preferred_erase_size : 0;
}
