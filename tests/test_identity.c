/* identity: register decoding, fake sysfs trees, files, sim: stand-ins, a loop device. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "identity/identity.h"
#include "lib/json.h"
#include "unit.h"

/* ------------------------------------------------------------ helpers */

static char root[64];

static void make_dirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

static void make_parent(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof buf, "%s", path);
	*strrchr(buf, '/') = '\0';
	make_dirs(buf);
}

/* root/rel gets content plus the newline sysfs adds */
static void put(const char *rel, const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	make_parent(path);
	f = fopen(path, "w");
	if (!f) {
		printf("cannot create %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fprintf(f, "%s\n", content);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	make_parent(path);
	if (symlink(target, path) != 0) {
		printf("cannot link %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void new_root(void)
{
	snprintf(root, sizeof root, "/tmp/fb-identity.XXXXXX");
	if (!mkdtemp(root)) {
		printf("mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
}

static void drop_root(void)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static struct dev stand_in(const char *path)
{
	struct dev d;

	memset(&d, 0, sizeof d);
	d.path = path;
	d.fd = -1;
	return d;
}

static bool has_note(const struct identity *id, const char *needle)
{
	for (int i = 0; i < identity_note_count(id); i++)
		if (strstr(identity_note(id, i), needle))
			return true;
	return false;
}

#define CHECK_ABSENT(id, key) CHECK(identity_get(id, key) == NULL)

/* ------------------------------------------------------------ SD CID */

struct sd_cid_case {
	const char *hex;
	unsigned int mid, oid;
	const char *name;	/* 5 bytes, may hold NULs */
	unsigned int hw, fw;
	uint32_t serial;
	unsigned int year, month;
};

static void test_sd_cids(void)
{
	static const struct sd_cid_case cases[] = {
		/* seeds 000 and 002 */
		{ "02544d5341303447061111058e00aaf1", 0x02, 0x544d, "SA04G", 0, 6, 0x1111058e, 2010, 10 },
		{ "035344535530344780a0a0dbc100bbc9", 0x03, 0x5344, "SU04G", 8, 0, 0xa0a0dbc1, 2011, 11 },
		{ "1b534d30303030301010a306a500bb51", 0x1b, 0x534d, "00000", 1, 0, 0x10a306a5, 2011, 11 },
		{ "2750485344303447300119bad200ba7d", 0x27, 0x5048, "SD04G", 3, 0, 0x0119bad2, 2011, 10 },
		{ "4134325344344742300000011200ba39", 0x41, 0x3432, "SD4GB", 3, 0, 0x00000112, 2011, 10 },
		{ "1b534d3030303030102b38208800b700", 0x1b, 0x534d, "00000", 1, 0, 0x2b382088, 2011, 7 },
		/* doc/sd-mmc-registers.md, SD CID examples */
		{ "02544d5341303447113533890900d371", 0x02, 0x544d, "SA04G", 1, 1, 0x35338909, 2013, 3 },
		{ "035054534c31364730da0a5d93010101", 0x03, 0x5054, "SL16G", 3, 0, 0xda0a5d93, 2016, 1 },
		{ "03534453553034478022ed3d8100db00", 0x03, 0x5344, "SU04G", 8, 0, 0x22ed3d81, 2013, 11 },
		{ "2750485344384742307c7ddc2100e100", 0x27, 0x5048, "SD8GB", 3, 0, 0x7c7ddc21, 2014, 1 },
		{ "824a544e4361726410d5017cb400da00", 0x82, 0x4a54, "NCard", 1, 0, 0xd5017cb4, 2013, 10 },
		{ "123456534400000000000006cb00e200", 0x12, 0x3456, "SD\0\0\0", 0, 0, 0x000006cb, 2014, 2 },
		{ "744a455553442020104583ea9b00e608", 0x74, 0x4a45, "USD  ", 1, 0, 0x4583ea9b, 2014, 6 },
		{ "1b534d3030303030106b1c53e200f701", 0x1b, 0x534d, "00000", 1, 0, 0x6b1c53e2, 2015, 7 },
		{ "413432534438474220a070df2800e200", 0x41, 0x3432, "SD8GB", 2, 0, 0xa070df28, 2014, 2 },
		{ "0000003030303030ff000016ca00e200", 0x00, 0x0000, "00000", 15, 15, 0x000016ca, 2014, 2 },
		{ "0383684e4361726410e000035d00e200", 0x03, 0x8368, "NCard", 1, 0, 0xe000035d, 2014, 2 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct sd_cid_case *k = &cases[i];
		struct card_cid c;
		CHECK_EQ(sd_cid_decode(k->hex, false, &c), 0);
		CHECK_EQ(c.mid, k->mid);
		CHECK_EQ(c.oid, k->oid);
		CHECK_EQ(c.cbx, -1);
		CHECK(c.name_len == 5 && memcmp(c.name, k->name, 5) == 0);
		CHECK(c.hwrev == k->hw && c.fwrev == k->fw);
		CHECK_EQ(c.serial, k->serial);
		CHECK(c.year == k->year && c.month == k->month);
		if (c.serial != k->serial || c.year != k->year || c.month != k->month)
			printf("  case %s\n", k->hex);
	}
}

static void test_mmc_cid(void)
{
	struct card_cid c;

	/* seed 003: Micron MTFC2GMVEA eMMC; sysfs said oemid 0x014e, 07/2012, serial 0x1158f146 */
	CHECK(sd_cid_decode("fe014e4d4d433032473a1158f1467f35", true, &c) == 0);
	CHECK_EQ(c.mid, 0xfe);
	CHECK_EQ(c.cbx, 1);
	CHECK_EQ(c.oid, 0x4e);
	CHECK_EQ(c.name_len, 6);
	CHECK_STR(c.name, "MMC02G");
	CHECK(c.hwrev == 3 && c.fwrev == 10);
	CHECK_EQ(c.serial, 0x1158f146);
	CHECK(c.year == 2012 && c.month == 7);
}

static void test_malformed_registers(void)
{
	struct card_cid c;
	struct card_csd d;
	struct sd_scr s;
	struct sd_ssr r;

	CHECK(sd_cid_decode("", false, &c) == -1);
	CHECK(sd_cid_decode("02544d53413034470611", false, &c) == -1);	/* short */
	CHECK(sd_cid_decode("02544d5341303447061111058e00aaf1ff", false, &c) == -1);	/* long */
	CHECK(sd_cid_decode("02544d5341303447061111058e00aazz", false, &c) == -1);
	CHECK(sd_cid_decode(NULL, false, &c) == -1);
	CHECK(sd_cid_decode("  02544D5341303447061111058E00AAF1\n", false, &c) == 0 && c.mid == 2);
	CHECK(sd_csd_decode("400e0032", false, &d) == -1);
	CHECK(sd_scr_decode("02358000010000", &s) == -1);
	CHECK(sd_ssr_decode("0000", &r) == -1);
}

/* ------------------------------------------------------------ CSD */

static void test_sd_csd_v2(void)
{
	static const struct { const char *hex; uint32_t c_size; uint64_t bytes; } cases[] = {
		{ "400e00325b5900001d177f800a40008d", 7447, 3904897024ull },	/* Kingston SA04G */
		{ "400e00325b59000073a77f800a400001", 29607, 15523119104ull },	/* SanDisk SL16G */
		{ "400e00325b590000775d7f800a400001", 30557, 16021192704ull },	/* Samsung 16 GB */
		{ "400e00325b5900003b377f800a404000", 15159, 7948206080ull },	/* SanDisk SL08G */
		{ "400e00325b5900001d8a7f800a4040b9", 7562, 3965190144ull },	/* seed 000 SU04G */
		{ "400e00325b5900001d6f7f800a4000a1", 7535, 3951034368ull },	/* seed 002 SA04G = its sdc size */
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct card_csd c;
		CHECK_EQ(sd_csd_decode(cases[i].hex, false, &c), 0);
		CHECK_EQ(c.structure, 1);
		CHECK_EQ(c.tran_speed, 0x32);
		CHECK_EQ(c.ccc, 0x5b5);
		CHECK(c.read_bl_len == 9 && c.write_bl_len == 9);
		CHECK_EQ(c.c_size, cases[i].c_size);
		CHECK_EQ(c.capacity, cases[i].bytes);
		CHECK(c.erase_blk_en && c.sector_size == 0x7f);
		CHECK_EQ(c.erase_unit, 0);
		CHECK(!c.perm_write_protect && !c.tmp_write_protect);
	}
}

static void test_sd_csd_v1(void)
{
	struct card_csd c;

	/*
	 * Built from the SD spec layout: READ_BL_LEN 10, C_SIZE 0xf0f,
	 * C_SIZE_MULT 7, ERASE_BLK_EN 0, SECTOR_SIZE 31, WRITE_BL_LEN 10, TMP_WP.
	 * Capacity (0xf0f+1) * 2^9 * 2^10 = 2021654528; erase sector 32 * 1024.
	 */
	CHECK(sd_csd_decode("005e00325f5a83c3f6db8f9f8a801075", false, &c) == 0);
	CHECK_EQ(c.structure, 0);
	CHECK_EQ(c.read_bl_len, 10);
	CHECK_EQ(c.c_size, 0xf0f);
	CHECK_EQ(c.c_size_mult, 7);
	CHECK_EQ(c.capacity, 2021654528ull);
	CHECK(!c.erase_blk_en);
	CHECK_EQ(c.sector_size, 31);
	CHECK_EQ(c.write_bl_len, 10);
	CHECK_EQ(c.erase_unit, 32768);
	CHECK(c.tmp_write_protect && !c.perm_write_protect);
}

static void test_mmc_csd(void)
{
	struct card_csd c;

	/* seed 003: sysfs erase_size 524288 */
	CHECK(sd_csd_decode("d04f01320f5a1393ffffffe38a4000e7", true, &c) == 0);
	CHECK_EQ(c.structure, 3);
	CHECK_EQ(c.spec_vers, 4);
	CHECK_EQ(c.tran_speed, 0x32);
	CHECK_EQ(c.ccc, 0x0f5);
	CHECK_EQ(c.read_bl_len, 10);
	CHECK_EQ(c.c_size, 0xe4f);
	CHECK_EQ(c.c_size_mult, 7);
	CHECK_EQ(c.capacity, 1920991232ull);	/* fdisk in the post: 1920991232 bytes */
	CHECK(c.erase_grp_size == 31 && c.erase_grp_mult == 31);
	CHECK_EQ(c.write_bl_len, 9);
	CHECK_EQ(c.erase_unit, 524288);
}

/* ------------------------------------------------------------ SCR, SSR */

static void test_scr(void)
{
	struct sd_scr s;

	CHECK(sd_scr_decode("0235800001000000", &s) == 0);	/* Kingston SA04G */
	CHECK(s.structure == 0 && s.sd_spec == 2 && s.spec3 == 1 && s.spec4 == 0 && s.specx == 0);
	CHECK(s.security == 3 && s.bus_widths == 5 && s.cmd_support == 0);
	CHECK_EQ(s.data_stat_after_erase, 0);
	CHECK_STR(sd_scr_spec_version(&s), "3.0x");

	CHECK(sd_scr_decode("0235800201000000", &s) == 0);	/* SanDisk SL16G: CMD23 */
	CHECK_EQ(s.cmd_support, 2);
	CHECK(sd_scr_decode("0235800300000000", &s) == 0);	/* seed 000 SU04G */
	CHECK_EQ(s.cmd_support, 3);
	CHECK(sd_scr_decode("0225000000000000", &s) == 0);
	CHECK_STR(sd_scr_spec_version(&s), "2.00");
	CHECK_EQ(s.security, 2);
	CHECK(sd_scr_decode("01b5000000000000", &s) == 0);
	CHECK_STR(sd_scr_spec_version(&s), "1.10");
	CHECK_EQ(s.data_stat_after_erase, 1);
	CHECK(sd_scr_decode("0245840000000000", &s) == 0);	/* SPEC4 */
	CHECK_STR(sd_scr_spec_version(&s), "4.xx");
	CHECK(sd_scr_decode("0245808000000000", &s) == 0);	/* SPECX 2, bits 41:38 */
	CHECK_EQ(s.specx, 2);
	CHECK_STR(sd_scr_spec_version(&s), "6.xx");
}

static void test_ssr(void)
{
	/*
	 * Bytes 8 (speed class 4 = C10), 10 (AU code 9 = 4 MB), 11-12 (erase
	 * size 16), 13 (timeout 5, offset 1), 14 (U1, UHS AU code 9),
	 * 15 (V30), 21 (A1); everything else 0.
	 */
	static const char hex[] =
		"0000000000000000" "040090001015191e" "0000000000010000" "0000000000000000"
		"0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000";
	struct sd_ssr s;

	CHECK_EQ(strlen(hex), 128);
	CHECK_EQ(sd_ssr_decode(hex, &s), 0);
	CHECK_EQ(s.speed_class, 4);
	CHECK_EQ(s.au_size, 4194304);
	CHECK_EQ(s.erase_size, 16);
	CHECK(s.erase_timeout == 5 && s.erase_offset == 1);
	CHECK_EQ(s.uhs_speed_grade, 1);
	CHECK_EQ(s.uhs_au_size, 4194304);
	CHECK_EQ(s.video_speed_class, 30);
	CHECK_EQ(s.app_perf_class, 1);
}

static void test_vendors(void)
{
	const char *remark;

	CHECK_STR(sd_mid_vendor(0x03, false, &remark), "SanDisk");
	CHECK(remark && strstr(remark, "counterfeit"));
	CHECK_STR(sd_mid_vendor(0x02, false, &remark), "Toshiba");
	CHECK_STR(sd_mid_vendor(0x02, true, &remark), "SanDisk/Kingston");
	CHECK_STR(sd_mid_vendor(0x41, false, &remark), "Kingston");
	CHECK(remark == NULL);
	CHECK_STR(sd_mid_vendor(0x27, false, &remark), "Phison");
	CHECK(remark && strstr(remark, "shared"));
	CHECK_STR(sd_mid_vendor(0xfe, true, &remark), "Micron");
	CHECK_STR(sd_mid_vendor(0x45, true, NULL), "SanDisk (Western Digital)");
	CHECK_STR(sd_mid_vendor(0x45, false, NULL), "Team Group");
	CHECK(sd_mid_vendor(0x77, false, &remark) == NULL && remark == NULL);
}

/* ------------------------------------------------------------ fake trees */

#define SD_DEV "devices/platform/omap_hsmmc.0/mmc_host/mmc0/mmc0:e624"

/* An SD card slot: mmcblk0 with one partition starting at `start` sectors. */
static void make_sd_tree(const char *cid, const char *csd, const char *disk_sectors,
			 const char *start)
{
	put(SD_DEV "/type", "SD");
	if (cid)
		put(SD_DEV "/cid", cid);
	if (csd)
		put(SD_DEV "/csd", csd);
	link_to(SD_DEV "/driver", "../../../../../../bus/mmc/drivers/mmcblk");
	link_to(SD_DEV "/subsystem", "../../../../../../bus/mmc");
	put(SD_DEV "/block/mmcblk0/size", disk_sectors);
	put(SD_DEV "/block/mmcblk0/removable", "0");
	put(SD_DEV "/block/mmcblk0/ro", "0");
	put(SD_DEV "/block/mmcblk0/queue/logical_block_size", "512");
	put(SD_DEV "/block/mmcblk0/queue/physical_block_size", "512");
	put(SD_DEV "/block/mmcblk0/queue/rotational", "0");
	link_to(SD_DEV "/block/mmcblk0/device", "../../../mmc0:e624");
	put(SD_DEV "/block/mmcblk0/mmcblk0p1/partition", "1");
	put(SD_DEV "/block/mmcblk0/mmcblk0p1/start", start);
	put(SD_DEV "/block/mmcblk0/mmcblk0p1/size", "7736320");
	link_to("dev/block/179:0", "../../" SD_DEV "/block/mmcblk0");
	link_to("dev/block/179:1", "../../" SD_DEV "/block/mmcblk0/mmcblk0p1");
}

/* Seed 000: SanDisk SU04G in a BeagleBoard-xM slot. */
static void test_sd_tree(void)
{
	struct dev d = stand_in("/dev/mmcblk0p1");
	struct identity *id;

	new_root();
	make_sd_tree("035344535530344780a0a0dbc100bbc9", "400e00325b5900001d8a7f800a4040b9",
		     "7744512", "8192");
	put(SD_DEV "/scr", "0235800300000000");
	put(SD_DEV "/date", "11/2011");
	put(SD_DEV "/erase_size", "512");
	put(SD_DEV "/preferred_erase_size", "4194304");
	put(SD_DEV "/block/mmcblk0/queue/discard_granularity", "4194304");

	id = identity_probe_devnum(&d, 179, 1, root);
	CHECK(id != NULL);
	CHECK_STR(identity_get(id, "device"), "/dev/mmcblk0p1");
	CHECK_STR(identity_get(id, "kind"), "block device");
	CHECK_STR(identity_get(id, "device_number"), "179:1");
	CHECK_STR(identity_get(id, "kernel_name"), "mmcblk0p1");
	CHECK_STR(identity_get(id, "disk"), "mmcblk0");
	CHECK_STR(identity_get(id, "partition"), "1");
	CHECK_STR(identity_get(id, "partition_start"), "4194304 (4MiB)");
	CHECK_STR(identity_get(id, "size"), "3960995840 (3.689GiB)");
	CHECK_STR(identity_get(id, "disk_size"), "3965190144 (3.693GiB)");
	CHECK_STR(identity_get(id, "logical_block_size"), "512");
	CHECK_STR(identity_get(id, "physical_block_size"), "512");
	CHECK_STR(identity_get(id, "rotational"), "no");
	CHECK_STR(identity_get(id, "removable"), "no");
	CHECK_STR(identity_get(id, "read_only"), "no");
	CHECK_STR(identity_get(id, "discard_granularity"), "4194304 (4MiB)");
	CHECK_STR(identity_get(id, "driver"), "mmcblk");
	CHECK_STR(identity_get(id, "subsystem"), "mmc");
	CHECK_STR(identity_get(id, "card_type"), "SD");
	CHECK_STR(identity_get(id, "manufacturer_id"), "0x03");
	CHECK_STR(identity_get(id, "manufacturer"), "SanDisk (also claimed by counterfeits)");
	CHECK_STR(identity_get(id, "oem_id"), "0x5344 \"SD\"");
	CHECK_STR(identity_get(id, "product"), "SU04G");
	CHECK_STR(identity_get(id, "revision"), "8.0");
	CHECK_STR(identity_get(id, "serial"), "0xa0a0dbc1");
	CHECK_STR(identity_get(id, "manufactured"), "2011-11");
	CHECK_STR(identity_get(id, "cid"), "035344535530344780a0a0dbc100bbc9");
	CHECK_STR(identity_get(id, "csd"), "400e00325b5900001d8a7f800a4040b9");
	CHECK_STR(identity_get(id, "csd_version"), "2.0 (SDHC)");
	CHECK_STR(identity_get(id, "csd_capacity"), "3965190144 (3.693GiB)");
	CHECK_STR(identity_get(id, "tran_speed"), "0x32 (25 MHz)");
	CHECK_STR(identity_get(id, "command_classes"), "0x5b5");
	CHECK_STR(identity_get(id, "scr"), "0235800300000000");
	CHECK_STR(identity_get(id, "sd_spec"), "3.0x");
	CHECK_STR(identity_get(id, "bus_widths"), "1, 4 bit");
	CHECK_STR(identity_get(id, "security"), "SDHC (CPRM 2.00)");
	CHECK_STR(identity_get(id, "optional_commands"), "CMD20, CMD23");
	CHECK_STR(identity_get(id, "erased_data"), "zeros");
	CHECK_STR(identity_get(id, "erase_size"), "512 (fixed for SDHC/SDXC: not the erase block)");
	CHECK_STR(identity_get(id, "preferred_erase_size"), "4194304 (4MiB)");
	CHECK_EQ(identity_preferred_erase_size(id), 4194304);
	CHECK_ABSENT(id, "device_type");	/* MMC only */
	CHECK_ABSENT(id, "csd_erase_unit");	/* fixed on SDHC */
	CHECK_ABSENT(id, "write_protect");
	CHECK_ABSENT(id, "usb_id");
	CHECK_ABSENT(id, "vendor");
	CHECK_ABSENT(id, "loop_backing_file");
	CHECK_EQ(identity_note_count(id), 0);
	for (int i = 0; i < identity_note_count(id); i++)
		printf("  unexpected note: %s\n", identity_note(id, i));
	identity_free(id);

	/* the whole disk: no partition facts */
	id = identity_probe_devnum(&d, 179, 0, root);
	CHECK_STR(identity_get(id, "kernel_name"), "mmcblk0");
	CHECK_ABSENT(id, "disk");
	CHECK_ABSENT(id, "partition_start");
	CHECK_ABSENT(id, "disk_size");
	CHECK_STR(identity_get(id, "size"), "3965190144 (3.693GiB)");
	identity_free(id);
	drop_root();
}

/* SanDisk MID on a non-ASCII OEM ID, a capacity the CSD does not back, a misaligned partition. */
static void test_suspicious_sd_tree(void)
{
	struct dev d = stand_in("/dev/mmcblk0p1");
	struct identity *id;

	new_root();
	make_sd_tree("0383684e4361726410e000035d00e200", "400e00325b5900001d8a7f800a4040b9",
		     "125042688", "63");
	put(SD_DEV "/preferred_erase_size", "4194304");
	id = identity_probe_devnum(&d, 179, 1, root);
	CHECK_STR(identity_get(id, "oem_id"), "0x8368 (not ASCII)");
	CHECK_STR(identity_get(id, "product"), "NCard");
	CHECK_STR(identity_get(id, "manufactured"), "2014-02");
	CHECK(has_note(id, "SanDisk manufacturer ID 0x03 with a non-ASCII OEM ID 0x8368"));
	CHECK(has_note(id, "CSD capacity 3965190144 bytes differs from the device size 64021856256"));
	CHECK(has_note(id, "partition starts at 32256 bytes, not a multiple of the preferred "
			   "erase size 4MiB"));
	CHECK_EQ(identity_note_count(id), 3);
	identity_free(id);
	drop_root();

	/* no-name: zero IDs, NULs in the name */
	new_root();
	make_sd_tree("0000000000000000ff000000000e200", NULL, "7744512", "8192");	/* malformed */
	put(SD_DEV "/name", "SD");
	id = identity_probe_devnum(&d, 179, 1, root);
	CHECK_STR(identity_get(id, "product"), "SD");	/* from the kernel's attribute */
	CHECK_ABSENT(id, "manufacturer_id");
	identity_free(id);
	drop_root();

	new_root();
	make_sd_tree("0000005344000000ff0000000000e201", NULL, "7744512", "8192");
	id = identity_probe_devnum(&d, 179, 1, root);
	CHECK_STR(identity_get(id, "manufacturer"), "none (unassigned) (seen on no-name cards)");
	CHECK_STR(identity_get(id, "product"), "\"SD\\0\\0\\0\"");
	CHECK(has_note(id, "manufacturer and OEM IDs are zero"));
	CHECK(has_note(id, "serial number is zero"));
	CHECK(has_note(id, "product name holds non-printable bytes"));
	identity_free(id);
	drop_root();
}

static void test_absent_files(void)
{
	struct dev d = stand_in("/dev/mmcblk0");
	struct identity *id;

	/* only a CID: nothing else is made up */
	new_root();
	make_sd_tree("02544d5341303447061111058e00aaf1", NULL, "7716864", "8192");
	id = identity_probe_devnum(&d, 179, 0, root);
	CHECK_STR(identity_get(id, "product"), "SA04G");
	CHECK_STR(identity_get(id, "revision"), "0.6");
	CHECK_STR(identity_get(id, "manufactured"), "2010-10");
	CHECK_STR(identity_get(id, "manufacturer"),
		  "Toshiba (also Kingston and Viking cards built by Toshiba)");
	CHECK_ABSENT(id, "csd");
	CHECK_ABSENT(id, "csd_version");
	CHECK_ABSENT(id, "csd_capacity");
	CHECK_ABSENT(id, "scr");
	CHECK_ABSENT(id, "sd_spec");
	CHECK_ABSENT(id, "erase_size");
	CHECK_ABSENT(id, "preferred_erase_size");
	CHECK_ABSENT(id, "discard_granularity");
	CHECK_EQ(identity_preferred_erase_size(id), 0);
	CHECK_EQ(identity_note_count(id), 0);
	identity_free(id);
	drop_root();

	/* kernel attributes only, no registers */
	new_root();
	make_sd_tree(NULL, NULL, "7716864", "8192");
	put(SD_DEV "/manfid", "0x000002");
	put(SD_DEV "/oemid", "0x544d");
	put(SD_DEV "/name", "SA04G");
	put(SD_DEV "/serial", "0x1111058e");
	put(SD_DEV "/date", "10/2010");
	id = identity_probe_devnum(&d, 179, 0, root);
	CHECK_STR(identity_get(id, "manufacturer_id"), "0x02");
	CHECK_STR(identity_get(id, "oem_id"), "0x544d");
	CHECK_STR(identity_get(id, "product"), "SA04G");
	CHECK_STR(identity_get(id, "serial"), "0x1111058e");
	CHECK_STR(identity_get(id, "manufactured"), "10/2010");
	CHECK_ABSENT(id, "revision");
	CHECK_ABSENT(id, "cid");
	identity_free(id);

	/* a device number sysfs does not know */
	id = identity_probe_devnum(&d, 8, 99, root);
	CHECK_STR(identity_get(id, "device_number"), "8:99");
	CHECK_ABSENT(id, "size");
	CHECK_ABSENT(id, "kernel_name");
	CHECK_ABSENT(id, "driver");
	identity_free(id);
	drop_root();

	/* a virtual disk (no device link) with a missing queue directory */
	new_root();
	put("devices/virtual/block/zram0/size", "2048");
	link_to("dev/block/253:0", "../../devices/virtual/block/zram0");
	id = identity_probe_devnum(&d, 253, 0, root);
	CHECK_STR(identity_get(id, "size"), "1048576 (1MiB)");
	CHECK_ABSENT(id, "logical_block_size");
	CHECK_ABSENT(id, "rotational");
	CHECK_ABSENT(id, "driver");
	CHECK_ABSENT(id, "card_type");
	identity_free(id);
	drop_root();
}

#define EMMC_DEV "devices/platform/mmc1/mmc_host/mmc1/mmc1:0001"

static void make_emmc_tree(const char *cid, const char *date)
{
	put(EMMC_DEV "/type", "MMC");
	put(EMMC_DEV "/cid", cid);
	put(EMMC_DEV "/csd", "d04f01320f5a1393ffffffe38a4000e7");
	put(EMMC_DEV "/date", date);
	put(EMMC_DEV "/erase_size", "524288");
	put(EMMC_DEV "/preferred_erase_size", "4194304");
	put(EMMC_DEV "/fwrev", "0x0");
	put(EMMC_DEV "/life_time", "0x01 0x02");
	put(EMMC_DEV "/pre_eol_info", "0x01");
	link_to(EMMC_DEV "/driver", "../../../../../bus/mmc/drivers/mmcblk");
	link_to(EMMC_DEV "/subsystem", "../../../../../bus/mmc");
	put(EMMC_DEV "/block/mmcblk1/size", "3751936");
	put(EMMC_DEV "/block/mmcblk1/removable", "0");
	link_to(EMMC_DEV "/block/mmcblk1/device", "../../../mmc1:0001");
	link_to("dev/block/179:8", "../../" EMMC_DEV "/block/mmcblk1");
}

/* Seed 003: Micron MTFC2GMVEA eMMC on a BeagleBone. */
static void test_emmc_tree(void)
{
	struct dev d = stand_in("/dev/mmcblk1");
	struct identity *id;

	d.size = 1920991232;
	d.lbs = 512;
	d.pbs = 512;
	new_root();
	make_emmc_tree("fe014e4d4d433032473a1158f1467f35", "07/2012");
	id = identity_probe_devnum(&d, 179, 8, root);
	CHECK_STR(identity_get(id, "size"), "1920991232 (1.789GiB)");
	CHECK_STR(identity_get(id, "logical_block_size"), "512");
	CHECK_STR(identity_get(id, "card_type"), "MMC");
	CHECK_STR(identity_get(id, "manufacturer_id"), "0xfe");
	CHECK_STR(identity_get(id, "manufacturer"), "Micron (ex-Numonyx)");
	CHECK_STR(identity_get(id, "oem_id"), "0x4e \"N\"");
	CHECK_STR(identity_get(id, "device_type"), "BGA (embedded)");
	CHECK_STR(identity_get(id, "product"), "MMC02G");
	CHECK_STR(identity_get(id, "revision"), "3.10");
	CHECK_STR(identity_get(id, "serial"), "0x1158f146");
	CHECK_STR(identity_get(id, "manufactured"), "2012-07");
	CHECK_STR(identity_get(id, "csd_version"), "3 (version in EXT_CSD)");
	CHECK_STR(identity_get(id, "mmc_spec"), "4.x");
	CHECK_STR(identity_get(id, "tran_speed"), "0x32 (25 MHz)");
	CHECK_STR(identity_get(id, "command_classes"), "0x0f5");
	CHECK_STR(identity_get(id, "csd_erase_unit"), "524288 (512KiB)");
	CHECK_STR(identity_get(id, "erase_size"), "524288 (512KiB)");
	CHECK_STR(identity_get(id, "preferred_erase_size"), "4194304 (4MiB)");
	CHECK_STR(identity_get(id, "pre_eol_info"), "normal");
	CHECK_STR(identity_get(id, "life_time"), "type A 0-10% used, type B 10-20% used");
	CHECK_EQ(identity_preferred_erase_size(id), 4194304);
	CHECK_STR(identity_get(id, "csd_capacity"), "1920991232 (1.789GiB)");
	CHECK_ABSENT(id, "scr");
	CHECK_ABSENT(id, "sd_spec");
	CHECK_ABSENT(id, "firmware");		/* "0x0" is the old nibble */
	CHECK_EQ(identity_note_count(id), 0);
	identity_free(id);
	drop_root();

	/* eMMC 4.41+: a year code of 4 means 2017 when the kernel says so */
	new_root();
	make_emmc_tree("fe014e4d4d433032473a1158f1467435", "07/2017");
	id = identity_probe_devnum(&d, 179, 8, root);
	CHECK_STR(identity_get(id, "manufactured"), "2017-07");
	identity_free(id);
	drop_root();
	new_root();
	make_emmc_tree("fe014e4d4d433032473a1158f1467435", "07/2005");	/* not a +16 */
	id = identity_probe_devnum(&d, 179, 8, root);
	CHECK_STR(identity_get(id, "manufactured"), "2001-07");
	identity_free(id);
	drop_root();
}

#define USB_DEV "devices/pci0000:00/0000:00:14.0/usb1/1-2"
#define USB_SCSI USB_DEV "/1-2:1.0/host6/target6:0:0/6:0:0:0"

/* Seed 002's second half: a card in a Transcend-like USB reader, /dev/sdc. */
static void test_usb_tree(void)
{
	struct dev d = stand_in("/dev/sdc");
	struct identity *id;

	new_root();
	put(USB_DEV "/idVendor", "8564");
	put(USB_DEV "/idProduct", "4000");
	put(USB_DEV "/manufacturer", "Transcend");
	put(USB_DEV "/product", "USB2.0 Card Reader");
	put(USB_DEV "/serial", "000000000039");
	put(USB_DEV "/speed", "480");
	put(USB_DEV "/1-2:1.0/bInterfaceClass", "08");
	link_to(USB_DEV "/1-2:1.0/driver", "../../../../../../bus/usb/drivers/usb-storage");
	put(USB_SCSI "/vendor", "TS-RDF5 ");
	put(USB_SCSI "/model", "SD  Transcend    ");
	put(USB_SCSI "/rev", "TS37");
	link_to(USB_SCSI "/driver", "../../../../../../../../../bus/scsi/drivers/sd");
	link_to(USB_SCSI "/subsystem", "../../../../../../../../../bus/scsi");
	put(USB_SCSI "/block/sdc/size", "7716864");
	put(USB_SCSI "/block/sdc/removable", "1");
	put(USB_SCSI "/block/sdc/queue/rotational", "1");
	put(USB_SCSI "/block/sdc/queue/logical_block_size", "512");
	put(USB_SCSI "/block/sdc/queue/physical_block_size", "512");
	link_to(USB_SCSI "/block/sdc/device", "../../../6:0:0:0");
	link_to("dev/block/8:32", "../../" USB_SCSI "/block/sdc");

	id = identity_probe_devnum(&d, 8, 32, root);
	CHECK_STR(identity_get(id, "kernel_name"), "sdc");
	CHECK_STR(identity_get(id, "size"), "3951034368 (3.68GiB)");
	CHECK_STR(identity_get(id, "removable"), "yes");
	CHECK_STR(identity_get(id, "rotational"), "yes");
	CHECK_STR(identity_get(id, "driver"), "sd");
	CHECK_STR(identity_get(id, "subsystem"), "scsi");
	CHECK_STR(identity_get(id, "vendor"), "TS-RDF5");
	CHECK_STR(identity_get(id, "model"), "SD  Transcend");
	CHECK_STR(identity_get(id, "revision"), "TS37");
	CHECK_STR(identity_get(id, "usb_id"), "8564:4000");
	CHECK_STR(identity_get(id, "usb_manufacturer"), "Transcend");
	CHECK_STR(identity_get(id, "usb_product"), "USB2.0 Card Reader");
	CHECK_STR(identity_get(id, "usb_serial"), "000000000039");
	CHECK_STR(identity_get(id, "usb_speed"), "480 Mbit/s");
	CHECK_STR(identity_get(id, "usb_driver"), "usb-storage");
	CHECK_ABSENT(id, "card_type");
	CHECK_ABSENT(id, "cid");
	CHECK_ABSENT(id, "preferred_erase_size");
	CHECK_EQ(identity_preferred_erase_size(id), 0);
	CHECK_EQ(identity_note_count(id), 1);
	CHECK(has_note(id, "CID/CSD registers are not visible"));
	identity_free(id);
	drop_root();
}

/* ------------------------------------------------------------ output */

/* static: the stream keeps their addresses until fclose */
static char *captured;
static size_t captured_len;

static char *capture_print(const struct identity *id)
{
	FILE *f = open_memstream(&captured, &captured_len);

	identity_print(f, id);
	fclose(f);
	return captured;
}

static char *capture_json(const struct identity *id)
{
	FILE *f = open_memstream(&captured, &captured_len);
	struct jw w;

	jw_init(&w, f);
	identity_json(&w, NULL, id);
	jw_finish(&w);
	fclose(f);
	return captured;
}

/* Every value starts in the same column, which it returns. */
static int check_aligned(const char *text)
{
	int column = -1;
	bool aligned = true;

	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		const char *colon = strchr(line, ':');
		const char *value = colon + 1;
		while (*value == ' ')
			value++;
		if (column < 0)
			column = (int)(value - line);
		aligned = aligned && (int)(value - line) == column && value[-1] == ' ';
		if (!strchr(line, '\n'))
			break;
	}
	CHECK(aligned);
	return column;
}

/* The line "label: value" as "value" (static buffer), or "" */
static const char *line_value(const char *text, const char *label, int nth)
{
	static char value[256];
	size_t n = strlen(label);

	for (const char *line = text; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (strncmp(line, label, n) == 0 && line[n] == ':' && nth-- == 0) {
			const char *v = line + n + 1, *end;
			while (*v == ' ')
				v++;
			end = strchr(v, '\n');
			snprintf(value, sizeof value, "%.*s", (int)(end ? end - v : (long)strlen(v)), v);
			return value;
		}
	}
	return "";
}

static void test_output(void)
{
	struct dev d = stand_in("/dev/mmcblk0p1");
	struct identity *id;
	char *text;

	new_root();
	make_sd_tree("0383684e4361726410e000035d00e200", "400e00325b5900001d8a7f800a4040b9",
		     "125042688", "63");
	put(SD_DEV "/preferred_erase_size", "4194304");
	id = identity_probe_devnum(&d, 179, 1, root);

	text = capture_print(id);
	CHECK(check_aligned(text) == (int)strlen("preferred erase size: "));
	CHECK(strncmp(text, "device: ", 8) == 0);
	CHECK_STR(line_value(text, "device", 0), "/dev/mmcblk0p1");
	CHECK_STR(line_value(text, "product", 0), "NCard");
	CHECK_STR(line_value(text, "preferred erase size", 0), "4194304 (4MiB)");
	CHECK_STR(line_value(text, "oem id", 0), "0x8368 (not ASCII)");
	CHECK(strncmp(line_value(text, "note", 0), "SanDisk manufacturer ID 0x03", 28) == 0);
	CHECK(strncmp(line_value(text, "note", 2), "partition starts at", 19) == 0);
	CHECK(strstr(strstr(text, "\nnote:"), "\nproduct:") == NULL);	/* notes last */
	free(text);

	text = capture_json(id);
	CHECK(strstr(text, "\"product\": \"NCard\"") != NULL);
	CHECK(strstr(text, "\"oem_id\": \"0x8368\"") != NULL);
	CHECK(strstr(text, "\"csd_capacity_bytes\": 3965190144") != NULL);
	CHECK(strstr(text, "\"removable\": false") != NULL);
	CHECK(strstr(text, "\"preferred_erase_size_bytes\": 4194304") != NULL);
	CHECK(strstr(text, "\"notes\": [") != NULL);
	CHECK(strstr(text, "counterfeit card?\"") != NULL);
	free(text);
	identity_free(id);
	drop_root();

	/* names with NULs, spaces and quotes stay valid JSON */
	new_root();
	make_sd_tree("744a455553442020104583ea9b00e608", NULL, "7716864", "8192");
	id = identity_probe_devnum(&d, 179, 1, root);
	CHECK_STR(identity_get(id, "product"), "\"USD  \"");
	text = capture_json(id);
	CHECK(strstr(text, "\"product\": \"USD  \"") != NULL);
	free(text);
	identity_free(id);
	drop_root();
}

/* ------------------------------------------------------------ files, sim, loop */

static void test_regular_file(void)
{
	char path[] = "/tmp/fb-identity-file.XXXXXX";
	int fd = mkstemp(path);
	struct dev d = stand_in(path);
	struct identity *id;

	CHECK(fd >= 0 && ftruncate(fd, 3 << 20) == 0);
	d.fd = fd;
	d.lbs = 512;
	d.pbs = 4096;
	id = identity_probe(&d, "/sys");
	CHECK_STR(identity_get(id, "kind"), "regular file");
	CHECK_STR(identity_get(id, "size"), "3145728 (3MiB)");
	CHECK_STR(identity_get(id, "logical_block_size"), "512");
	CHECK_STR(identity_get(id, "physical_block_size"), "4096");
	CHECK_ABSENT(id, "device_number");
	CHECK_ABSENT(id, "rotational");
	CHECK_EQ(identity_note_count(id), 0);
	identity_free(id);
	close(fd);
	unlink(path);
}

static void test_sim(void)
{
	struct dev d = stand_in("sim:sdhc-good");
	struct identity *id;

	d.ops = &dev_sim_ops;	/* identity only asks it whether it is simulated */
	d.size = 8ull << 30;
	d.lbs = d.pbs = 512;
	id = identity_probe(&d, "/nonexistent");
	CHECK_STR(identity_get(id, "device"), "sim:sdhc-good");
	CHECK_STR(identity_get(id, "kind"), "simulated card");
	CHECK_STR(identity_get(id, "size"), "8589934592 (8GiB)");
	CHECK_STR(identity_get(id, "logical_block_size"), "512");
	CHECK_ABSENT(id, "card_type");
	identity_free(id);
}

/* A loop device over our own file, when root; never any other device. */
static void test_loop_device(void)
{
	char file[] = "/tmp/fb-identity-loop.XXXXXX";
	char loop[64] = "", cmd[256], real[PATH_MAX];
	struct identity *id;
	FILE *p;
	int fd;

	if (geteuid() != 0 || system("command -v losetup >/dev/null 2>&1") != 0)
		return;		/* skipped: counted neither way */
	fd = mkstemp(file);
	if (fd < 0 || ftruncate(fd, 8 << 20) != 0)
		return;
	close(fd);
	snprintf(cmd, sizeof cmd, "losetup -f --show %s 2>/dev/null", file);
	p = popen(cmd, "r");
	if (p && fgets(loop, sizeof loop, p))
		loop[strcspn(loop, "\n")] = '\0';
	if (p)
		pclose(p);
	if (strncmp(loop, "/dev/loop", 9) == 0) {
		struct dev d = stand_in(loop);	/* stat only: nothing is opened or read */
		id = identity_probe(&d, "/sys");
		CHECK_STR(identity_get(id, "kind"), "block device");
		CHECK_STR(identity_get(id, "kernel_name"), loop + 5);
		CHECK_STR(identity_get(id, "size"), "8388608 (8MiB)");
		CHECK_STR(identity_get(id, "logical_block_size"), "512");
		CHECK_STR(identity_get(id, "loop_backing_file"), realpath(file, real));
		CHECK_ABSENT(id, "driver");
		identity_free(id);
		snprintf(cmd, sizeof cmd, "losetup -d %s", loop);
		CHECK_EQ(system(cmd), 0);
	}
	unlink(file);
}

int main(void)
{
	test_sd_cids();
	test_mmc_cid();
	test_malformed_registers();
	test_sd_csd_v2();
	test_sd_csd_v1();
	test_mmc_csd();
	test_scr();
	test_ssr();
	test_vendors();
	test_sd_tree();
	test_suspicious_sd_tree();
	test_absent_files();
	test_emmc_tree();
	test_usb_tree();
	test_output();
	test_regular_file();
	test_sim();
	test_loop_device();
	return unit_summary();
}
