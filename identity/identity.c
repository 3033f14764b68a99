/*
 * Device identity from sysfs: block queue facts, SCSI strings and the USB
 * device above a reader, and the red flags among them. The fact list is
 * identity/facts.c; the SD/MMC registers (CID, CSD, SCR, SD Status) are
 * decoded in identity/sd_registers.c.
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


static bool attr_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return sysfs_path_join(path, sizeof path, dir, name) && access(path, F_OK) == 0;
}

/* Last component of the symlink dir/name ("mmcblk" for device/driver). */
static bool read_link_name(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	if (!sysfs_path_join(path, sizeof path, dir, name))
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

	if (sysfs_attr(dir, name, buf, sizeof buf))
		fact_text(id, key, "%s", buf);
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

	if (!sysfs_path_join(path, sizeof path, sysfs_root, "devices") || !realpath(path, top))
		return;
	snprintf(dir, sizeof dir, "%s", devdir);
	while (strncmp(dir, top, strlen(top)) == 0 && strlen(dir) > strlen(top)) {
		if (!fact_find(id, "usb_driver") && attr_exists(dir, "bInterfaceClass") &&
		    read_link_name(dir, "driver", buf, sizeof buf))
			fact_text(id, "usb_driver", "%s", buf);
		if (sysfs_attr(dir, "idVendor", vendor, sizeof vendor) &&
		    sysfs_attr(dir, "idProduct", product, sizeof product)) {
			fact_text(id, "usb_id", "%s:%s", vendor, product);
			put_attr_text(id, "usb_manufacturer", dir, "manufacturer");
			put_attr_text(id, "usb_product", dir, "product");
			put_attr_text(id, "usb_serial", dir, "serial");
			if (sysfs_attr(dir, "speed", buf, sizeof buf))
				fact_text(id, "usb_speed", "%s Mbit/s", buf);
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

	if (!sysfs_path_join(q, sizeof q, disk, "queue"))
		return;
	if (d->lbs)
		fact_uint(id, "logical_block_size", d->lbs, NULL);
	else if (sysfs_attr_u64(q, "logical_block_size", &v))
		fact_uint(id, "logical_block_size", v, NULL);
	if (d->pbs)
		fact_uint(id, "physical_block_size", d->pbs, NULL);
	else if (sysfs_attr_u64(q, "physical_block_size", &v))
		fact_uint(id, "physical_block_size", v, NULL);
	if (sysfs_attr_u64(q, "rotational", &v))
		fact_bool(id, "rotational", v != 0);
	if (sysfs_attr_u64(disk, "removable", &v))
		fact_bool(id, "removable", v != 0);
	if (sysfs_attr_u64(disk, "ro", &v))
		fact_bool(id, "read_only", v != 0);
	if (sysfs_attr_u64(q, "discard_granularity", &v))
		fact_bytes(id, "discard_granularity", v, v ? NULL : "(no discard)");
}

static void put_partition(struct identity *id, const char *node, const char *disk)
{
	uint64_t v;

	fact_text(id, "disk", "%s", base_name(disk));
	if (sysfs_attr_u64(node, "partition", &v))
		fact_uint(id, "partition", v, NULL);
	if (sysfs_attr_u64(node, "start", &v))
		fact_bytes(id, "partition_start", v * 512, NULL);
}

static void put_sizes(struct identity *id, const struct dev *d, const char *node,
		      const char *disk, bool partition)
{
	uint64_t sectors;

	if (d->size)
		fact_bytes(id, "size", d->size, NULL);
	else if (sysfs_attr_u64(node, "size", &sectors))
		fact_bytes(id, "size", sectors * 512, NULL);
	if (partition && sysfs_attr_u64(disk, "size", &sectors))
		fact_bytes(id, "disk_size", sectors * 512, NULL);
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

	if (!sysfs_path_join(link, sizeof link, disk, "device") || !realpath(link, devdir))
		return;		/* virtual: loop, zram, device-mapper */
	if (read_link_name(devdir, "driver", buf, sizeof buf))
		fact_text(id, "driver", "%s", buf);
	if (read_link_name(devdir, "subsystem", subsystem, sizeof subsystem))
		fact_text(id, "subsystem", "%s", subsystem);
	sysfs_attr(devdir, "type", type, sizeof type);
	if (!strcmp(subsystem, "mmc") || sd_is_mmc_type(type)) {
		sd_probe_mmc(id, devdir, type[0] ? type : "SD");
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

	fact_text_json(id, "kind", "block_device", "block device");
	fact_text(id, "device_number", "%u:%u", major, minor);
	int n = snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysfs_root, major, minor);
	if (n < 0 || (size_t)n >= sizeof link || !realpath(link, node)) {
		if (d->size)
			fact_bytes(id, "size", d->size, NULL);
		return;
	}
	snprintf(disk, sizeof disk, "%s", node);
	partition = attr_exists(node, "partition");
	if (partition)
		parent_dir(disk);
	fact_text(id, "kernel_name", "%s", base_name(node));
	if (partition)
		put_partition(id, node, disk);
	put_sizes(id, d, node, disk, partition);
	put_queue(id, d, disk);
	if (sysfs_attr(disk, "loop/backing_file", buf, sizeof buf))
		fact_text(id, "loop_backing_file", "%s", buf);
	probe_device_dir(id, disk, sysfs_root);
}

/* ------------------------------------------------------------- red flags */

static void note_capacity(struct identity *id)
{
	uint64_t csd = fact_num(id, "csd_capacity"), size = whole_disk_size(id);

	if (csd && size && csd != size)
		fact_note(id, "CSD capacity %" PRIu64 " bytes differs from the device size %" PRIu64
			 " bytes: a red flag (fake capacity or misreporting card)", csd, size);
}

static void note_alignment(struct identity *id)
{
	const struct fact *start = fact_find(id, "partition_start");
	uint64_t erase = id->preferred_erase_size;
	char a[FMT_BUF];

	if (start && erase && start->num % erase)
		fact_note(id, "partition starts at %" PRIu64 " bytes, not a multiple of the "
			 "preferred erase size %s", start->num, fmt_size(a, erase));
}

static void note_usb(struct identity *id)
{
	if (fact_find(id, "usb_id") && !fact_find(id, "card_type"))
		fact_note(id, "USB device: for a card in a reader, the card's CID/CSD registers are "
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
		fact_text(id, "device", "%s", d->path ? d->path : "?");
	return id;
}

static void put_basic_sizes(struct identity *id, const struct dev *d)
{
	fact_bytes(id, "size", d->size, NULL);
	if (d->lbs)
		fact_uint(id, "logical_block_size", d->lbs, NULL);
	if (d->pbs)
		fact_uint(id, "physical_block_size", d->pbs, NULL);
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
			fact_text_json(id, "kind", "simulated_card", "simulated card");
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
		fact_text_json(id, "kind", "regular_file", "regular file");
		struct dev copy = *d;
		if (!copy.size)
			copy.size = (uint64_t)st.st_size;
		put_basic_sizes(id, &copy);
	} else {
		put_basic_sizes(id, d);
	}
	return id;
}

/* ------------------------------------------------------------ SD Status */

/* The card directory (…/mmc0:0001) behind block device major:minor, if it is an SD card. */
static bool sd_card_dir(unsigned int major, unsigned int minor, const char *sysfs_root,
			char *devdir)
{
	char link[PATH_MAX], node[PATH_MAX], subsystem[64] = "", type[64] = "";
	int n = snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysfs_root, major, minor);

	if (n < 0 || (size_t)n >= sizeof link || !realpath(link, node))
		return false;
	if (attr_exists(node, "partition"))
		parent_dir(node);
	if (!sysfs_path_join(link, sizeof link, node, "device") || !realpath(link, devdir))
		return false;
	read_link_name(devdir, "subsystem", subsystem, sizeof subsystem);
	sysfs_attr(devdir, "type", type, sizeof type);
	if (strcmp(subsystem, "mmc") != 0 && !sd_is_mmc_type(type))
		return false;
	return strcmp(type, "MMC") != 0;	/* eMMC has no SD Status */
}

bool identity_card_ssr(const struct dev *d, const char *sysfs_root, char *hex, size_t n)
{
	char devdir[PATH_MAX];
	struct stat st;

	if (dev_simulated(d))
		return dev_card_register(d, "ssr", hex, n);
	if (d->fd < 0 || fstat(d->fd, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	return sd_card_dir(major(st.st_rdev), minor(st.st_rdev), sysfs_root ? sysfs_root : "/sys",
			   devdir) && sysfs_attr(devdir, "ssr", hex, n);
}
