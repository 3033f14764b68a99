/* safety/safety_target.c, safety/mounts.c: parsing on fixtures; safety/preserve.c, safety/backup.c, safety/restore.c, safety/signals.c. */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safety/backup.h"
#include "dev.h"
#include "measure/measure.h"
#include "safety/safety.h"
#include "vm.h"

static char root[PATH_MAX];

static void put_file(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], dir[PATH_MAX * 2];
	char *slash;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(dir, sizeof dir, "%s", path);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void put_dir(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	mkdir(path, 0755);
}

static char *fixture(const char *rel)
{
	static char paths[4][PATH_MAX * 2];
	static int next;
	char *p = paths[next++ % 4];

	snprintf(p, PATH_MAX * 2, "%s/%s", root, rel);
	return p;
}

/*
 * A machine with: vda (the root disk), sda (sda1; sda2 under dm-0), sdb
 * with a free sdb1, sdc with sdc1 as swap, loop3 mounted, loop4 with a
 * mounted partition loop4p1.
 */
static void make_sysblock(void)
{
	put_file("block/vda/dev", "254:0\n");
	put_dir("block/vda/holders");
	put_file("block/sda/dev", "8:0\n");
	put_dir("block/sda/holders");
	put_file("block/sda/sda1/dev", "8:1\n");
	put_file("block/sda/sda1/partition", "1\n");
	put_dir("block/sda/sda1/holders");
	put_file("block/sda/sda2/dev", "8:2\n");
	put_file("block/sda/sda2/partition", "2\n");
	put_file("block/sda/sda2/holders/dm-0", "");
	put_file("block/sda/queue/logical_block_size", "512\n");	/* not a partition */
	put_file("block/dm-0/dev", "253:0\n");
	put_dir("block/dm-0/holders");
	put_file("block/sdb/dev", "8:16\n");
	put_file("block/sdb/sdb1/dev", "8:17\n");
	put_file("block/sdb/sdb1/partition", "1\n");
	put_file("block/sdc/dev", "8:32\n");
	put_file("block/sdd/dev", "8:48\n");
	put_file("block/sdd/ro", "1\n");
	put_file("block/sdb/ro", "0\n");
	put_file("block/sdc/sdc1/dev", "8:33\n");
	put_file("block/sdc/sdc1/partition", "1\n");
	put_file("block/loop3/dev", "7:3\n");
	put_dir("block/loop3/holders");
	put_file("block/loop4/dev", "7:4\n");
	put_file("block/loop4/loop4p1/dev", "259:0\n");
	put_file("block/loop4/loop4p1/partition", "1\n");
	put_file("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
			  "/dev/sdc1                               partition\t1048572\t\t0\t\t-2\n");
	put_file("mountinfo.vda",
		 "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		 "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		 "80 27 7:3 / /mnt/with\\040space rw,relatime shared:40 master:2 - ext4 /dev/loop3 rw\n"
		 "81 27 259:0 / /media/card rw - vfat /dev/loop4p1 rw\n"
		 "82 27 9:9 / /srv rw - xfs /dev/md9 rw\n");
	put_file("mountinfo.sda1",
		 "27 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
		 "28 27 0:21 / /proc rw,relatime - proc proc rw\n");
	put_file("mountinfo.dm", "27 1 253:0 / / rw - ext4 /dev/mapper/vg-root rw\n");
	put_file("mountinfo.sda", "27 1 8:0 / / rw - ext4 /dev/sda rw\n");
	put_file("mountinfo.twice",
		 "27 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		 "90 27 254:0 / / rw - ext4 /dev/vda rw\n");
	put_file("mountinfo.none", "22 27 0:21 / /proc rw,relatime - proc proc rw\n");
}

static void test_mountinfo_line(void)
{
	struct mount_entry m;

	CHECK(mountinfo_parse_line("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root "
				   "rw,errors=continue\n", &m) == 0);
	CHECK(m.major == 98 && m.minor == 0);
	CHECK_STR(m.mountpoint, "/mnt2");
	CHECK_STR(m.source, "/dev/root");
	CHECK(mountinfo_parse_line("80 27 7:3 / /mnt/a\\040b\\011c rw - ext4 /dev/loop3 rw", &m) == 0);
	CHECK_STR(m.mountpoint, "/mnt/a b\tc");
	CHECK(mountinfo_parse_line("80 27 7:3 / /x\\\\y rw - ext4 /dev/loop3 rw", &m) == 0);
	CHECK_STR(m.mountpoint, "/x\\\\y");
	CHECK(mountinfo_parse_line("80 27 7:3 / /x\\04 rw - ext4 s rw", &m) == 0);
	CHECK_STR(m.mountpoint, "/x\\04");
	CHECK(mountinfo_parse_line("", &m) == -1);
	CHECK(mountinfo_parse_line("garbage\n", &m) == -1);
	CHECK(mountinfo_parse_line("1 2 x:y / / rw - ext4 /dev/a rw", &m) == -1);
	CHECK(mountinfo_parse_line("1 2 8: / / rw - ext4 /dev/a rw", &m) == -1);
	CHECK(mountinfo_parse_line("1 2 8:1 / / rw ext4 /dev/a rw", &m) == -1);	/* no "-" */
	CHECK(mountinfo_parse_line("1 2 8:1 / / rw -", &m) == -1);		/* no fstype */
	CHECK(mountinfo_parse_line("1 2 99999999999:1 / / rw - e s o", &m) == -1);
}

static void test_root_device(void)
{
	unsigned int maj = 1, min = 1;

	CHECK(safety_root_device(fixture("mountinfo.vda"), &maj, &min) == 0);
	CHECK(maj == 254 && min == 0);
	CHECK(safety_root_device(fixture("mountinfo.twice"), &maj, &min) == 0);
	CHECK(maj == 254 && min == 0);	/* the later "/" mount hides the first */
	CHECK(safety_root_device(fixture("mountinfo.sda1"), &maj, &min) == 0);
	CHECK(maj == 8 && min == 1);
	CHECK(safety_root_device(fixture("mountinfo.none"), &maj, &min) == -1);
	CHECK(safety_root_device(fixture("no-such-file"), &maj, &min) == -1);
}

/* safety_check_device with the fixture machine, "/" per mountinfo_name */
static int check(const char *mountinfo_name, const char *name, unsigned int maj,
		 unsigned int min, char *err, size_t n)
{
	struct safety_sources src = {
		.mountinfo = fixture(mountinfo_name),
		.sysblock = fixture("block"),
		.swaps = fixture("swaps"),
	};

	err[0] = '\0';
	return safety_check_device(&src, name, maj, min, err, n);
}

static void test_refusals(void)
{
	char err[8192];

	CHECK(check("mountinfo.vda", "/dev/vda", 254, 0, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/vda holds the running system's root filesystem; not writing to it");

	CHECK(check("mountinfo.sda1", "/dev/sda", 8, 0, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sda: its partition sda1 holds the running system's root filesystem; "
		       "not writing to it");
	CHECK(check("mountinfo.sda1", "/dev/sda1", 8, 1, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sda1 holds the running system's root filesystem; not writing to it");

	CHECK(check("mountinfo.dm", "/dev/sda", 8, 0, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sda: its partition sda2 holds the running system's root filesystem "
		       "(through a device stacked on it); not writing to it");

	CHECK(check("mountinfo.sda", "/dev/sda2", 8, 2, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sda2 is part of sda, which holds the running system's root "
		       "filesystem; not writing to it");

	CHECK(check("mountinfo.vda", "/dev/loop3", 7, 3, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/loop3 is mounted on /mnt/with space; not writing to it");

	CHECK(check("mountinfo.vda", "/dev/loop4", 7, 4, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/loop4: its partition loop4p1 is mounted on /media/card; "
		       "not writing to it");
	CHECK(check("mountinfo.vda", "/dev/loop4p1", 259, 0, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/loop4p1 is mounted on /media/card; not writing to it");

	CHECK(check("mountinfo.vda", "/dev/sda", 8, 0, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sda: its partition sda2 is held by dm-0 (device mapper, RAID or "
		       "another driver); not writing to it");

	CHECK(check("mountinfo.vda", "/dev/sdc", 8, 32, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sdc: its partition sdc1 is in use as swap; not writing to it");

	CHECK(check("mountinfo.vda", "/dev/sdd", 8, 48, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/sdd is read-only (write-protected); not writing to it");

	/* not in sysfs at all: the device itself is still looked up in mountinfo */
	CHECK(check("mountinfo.vda", "/dev/md9", 9, 9, err, sizeof err) == -1);
	CHECK_STR(err, "/dev/md9 is mounted on /srv; not writing to it");
}

static void test_allowed(void)
{
	char err[8192];

	CHECK(check("mountinfo.vda", "/dev/sdb", 8, 16, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK(check("mountinfo.vda", "/dev/sdb1", 8, 17, err, sizeof err) == 0);
	CHECK(check("mountinfo.vda", "/dev/sda1", 8, 1, err, sizeof err) == 0);
	CHECK(check("mountinfo.vda", "/dev/dm-0", 253, 0, err, sizeof err) == 0);
	CHECK(check("mountinfo.vda", "/dev/x", 60, 60, err, sizeof err) == 0);
	CHECK(check("no-such-file", "/dev/sdb", 8, 16, err, sizeof err) == 0);

	CHECK(safety_check_write_target("sim:size=1G", err, sizeof err) == 0);
	CHECK(safety_check_write_target(fixture("swaps"), err, sizeof err) == 0);
	CHECK(safety_check_write_target(fixture("no-such-file"), err, sizeof err) == 0);
}

/* ----------------------------------------------------------- --preserve */

#define IMG_SIZE (4u << 20)

static void fill_image(const char *path, unsigned char seed)
{
	FILE *f = fopen(path, "w");
	for (unsigned int i = 0; i < IMG_SIZE; i++)
		fputc((int)((i * 31u + seed) ^ (i >> 9)) & 0xff, f);
	fclose(f);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	unsigned char *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(*len ? *len : 1);
	if (fread(buf, 1, *len, f) != *len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static bool same_file(const char *a, const char *b)
{
	size_t la, lb;
	unsigned char *x = slurp(a, &la), *y = slurp(b, &lb);
	bool same = x && y && la == lb && memcmp(x, y, la) == 0;

	free(x);
	free(y);
	return same;
}

static void copy_file(const char *from, const char *to)
{
	size_t len;
	unsigned char *buf = slurp(from, &len);
	FILE *f = fopen(to, "w");

	fwrite(buf, 1, len, f);
	fclose(f);
	free(buf);
}

static void scribble(struct dev *d, const struct span *spans, int n)
{
	for (int i = 0; i < n; i++) {
		void *buf = dev_alloc_buffer(spans[i].len);
		dev_fill_pattern(buf, spans[i].len, PAT_RANDOM, 7);
		CHECK_EQ(dev_pwrite_all(d, buf, spans[i].len, spans[i].off), 0);
		free(buf);
	}
}

static const struct span test_spans[] = {
	{ 1 << 20, 1 << 20 }, { 3u << 20, 64 << 10 }, { 4096, 512 },
};
#define NSPANS ((int)(sizeof test_spans / sizeof test_spans[0]))

static int quietly(int (*fn)(const char *, const char *), const char *a, const char *b)
{
	int saved_out = dup(1), saved_err = dup(2), null = open("/dev/null", O_WRONLY), r;

	fflush(stdout);
	dup2(null, 1);
	dup2(null, 2);
	r = fn(a, b);
	fflush(stdout);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	close(null);
	return r;
}

/* Opens img for writing; a failure is a failed check (the checks after it cannot run). */
static bool open_image(struct dev *d, const char *img, char *err, size_t n)
{
	if (dev_open(d, img, DEV_WRITE, err, n) == 0)
		return true;
	unit_failed++;
	printf("FAIL %s: cannot open %s: %s\n", __FILE__, img, err);
	return false;
}

static void test_preserve_in_memory(void)
{
	char *img = fixture("mem.img"), *orig = fixture("mem.orig");
	char err[8192];
	struct dev d;

	fill_image(img, 1);
	copy_file(img, orig);
	if (!open_image(&d, img, err, sizeof err))
		return;
	CHECK(!preserve_active());
	CHECK(preserve_save(&d, test_spans, NSPANS, NULL, err, sizeof err) == 0);
	CHECK(preserve_active());
	CHECK(preserve_save(&d, test_spans, NSPANS, NULL, err, sizeof err) == -1);
	scribble(&d, test_spans, NSPANS);
	CHECK(!same_file(img, orig));
	struct dev before = d;
	CHECK_EQ(preserve_restore(err, sizeof err), 0);
	CHECK(!preserve_active());
	CHECK(same_file(img, orig));
	CHECK_EQ(preserve_restore(err, sizeof err), 0);	/* nothing left: a no-op */
	/* every byte counted, by purpose: saved, written back, read back */
	uint64_t spanned = 0;
	for (int i = 0; i < NSPANS; i++)
		spanned += test_spans[i].len;
	CHECK_EQ(d.traffic.read[IO_SAVE], spanned);
	preserve_account(&d);
	CHECK_EQ(d.traffic.written[IO_RESTORE] - before.traffic.written[IO_RESTORE], spanned);
	CHECK_EQ(d.traffic.read[IO_VERIFY] - before.traffic.read[IO_VERIFY], spanned);
	CHECK_EQ(d.bytes_written - before.bytes_written, spanned);
	CHECK_EQ(d.bytes_read - before.bytes_read, spanned);

	struct span outside = { IMG_SIZE - 512, 1024 }, odd = { 100, 512 };
	CHECK(preserve_save(&d, &outside, 1, NULL, err, sizeof err) == -1);
	CHECK(strstr(err, "not inside") != NULL);
	CHECK(preserve_save(&d, &odd, 1, NULL, err, sizeof err) == -1);
	CHECK(!preserve_active());
	dev_close(&d);
}

static void test_preserve_needs_backup_for_large_spans(void)
{
	char *img = fixture("big.img");
	char err[8192];
	struct dev d;
	struct span big = { 0, 300u << 20 };

	CHECK(truncate(img, 0) == 0 || errno == ENOENT);
	FILE *f = fopen(img, "w");
	fclose(f);
	CHECK_EQ(truncate(img, 300 << 20), 0);
	if (!open_image(&d, img, err, sizeof err))
		return;
	CHECK(preserve_save(&d, &big, 1, NULL, err, sizeof err) == -1);
	CHECK(strstr(err, "--backup=FILE") != NULL);
	CHECK(!preserve_active());
	dev_close(&d);
	unlink(img);
}

static void test_preserve_to_backup_file(void)
{
	char *img = fixture("bk.img"), *orig = fixture("bk.orig"), *bk = fixture("bk.backup");
	char err[8192], smaller[PATH_MAX * 2], bad[PATH_MAX * 2];
	struct dev d;

	fill_image(img, 2);
	copy_file(img, orig);
	if (!open_image(&d, img, err, sizeof err))
		return;
	CHECK_EQ(preserve_save(&d, test_spans, NSPANS, bk, err, sizeof err), 0);
	size_t len;
	unsigned char *b = slurp(bk, &len);
	CHECK(b && len > 4096 && memcmp(b, "flashbench-backup 2\ndevice ", 27) == 0);
	CHECK(b && strstr((char *)b, "\nspan 1048576 1048576\nspan 3145728 65536\nspan 4096 512\n"));
	CHECK(b && strstr((char *)b, "\nsize 4194304\n"));
	free(b);
	char kept[PATH_MAX * 2];
	snprintf(kept, sizeof kept, "%s/kept.backup", root);
	copy_file(bk, kept);
	scribble(&d, test_spans, NSPANS);
	CHECK_EQ(preserve_restore(err, sizeof err), 0);
	CHECK(same_file(img, orig));
	/* restored and verified: the backup has done its job and is gone */
	CHECK(preserve_backup_removed());
	CHECK(access(bk, F_OK) < 0 && errno == ENOENT);

	/* an existing backup is never overwritten */
	copy_file(kept, bk);
	CHECK_EQ(preserve_save(&d, test_spans, NSPANS, bk, err, sizeof err), -1);
	CHECK(strstr(err, "exists, a backup of ") != NULL);
	CHECK(strstr(err, "put it back with flashbench --restore ") != NULL);
	CHECK(!preserve_active());

	/* the process "died": --restore finishes the job, and the backup goes */
	scribble(&d, test_spans, NSPANS);
	dev_close(&d);
	CHECK(!same_file(img, orig));
	CHECK_EQ(quietly(restore_command, bk, img), 0);
	CHECK(same_file(img, orig));
	CHECK(access(bk, F_OK) < 0 && errno == ENOENT);
	copy_file(kept, bk);

	/* refused: other size, damaged backup, not a backup; nothing written */
	snprintf(smaller, sizeof smaller, "%s/small.img", root);
	fill_image(smaller, 3);
	CHECK_EQ(truncate(smaller, IMG_SIZE / 2), 0);
	CHECK_EQ(quietly(restore_command, bk, smaller), 2);
	/* another file of the same size: another identity (device, inode) */
	char other[PATH_MAX * 2], other_orig[PATH_MAX * 2];
	snprintf(other, sizeof other, "%s/other.img", root);
	snprintf(other_orig, sizeof other_orig, "%s/other.orig", root);
	fill_image(other, 4);
	copy_file(other, other_orig);
	CHECK_EQ(quietly(restore_command, bk, other), 2);
	CHECK(same_file(other, other_orig));
	snprintf(bad, sizeof bad, "%s/damaged.backup", root);
	b = slurp(bk, &len);
	b[len - 100] ^= 1;
	FILE *f = fopen(bad, "w");
	fwrite(b, 1, len, f);
	fclose(f);
	CHECK_EQ(quietly(restore_command, bad, img), 2);
	f = fopen(bad, "w");
	fwrite(b, 1, len - 600, f);	/* truncated */
	fclose(f);
	CHECK_EQ(quietly(restore_command, bad, img), 2);
	free(b);
	CHECK_EQ(quietly(restore_command, orig, img), 2);
	CHECK(quietly(restore_command, fixture("no-such-file"), img) == 2);
	CHECK(same_file(img, orig));
}

/*
 * The backup file is damaged (altered, then truncated) while the test runs:
 * the restore checks it first, writes nothing back, says the device still
 * holds the test's data, and does not advise a --restore that would refuse it.
 */
static void test_damaged_backup_is_not_restored(void)
{
	char *img = fixture("dmg.img"), *bk = fixture("dmg.backup"), *after = fixture("dmg.after");
	char err[8192];
	struct dev d;

	for (int trunc = 0; trunc < 2; trunc++) {
		unlink(bk);
		fill_image(img, 8);
		if (!open_image(&d, img, err, sizeof err))
			return;
		CHECK(preserve_save(&d, test_spans, NSPANS, bk, err, sizeof err) == 0);
		scribble(&d, test_spans, NSPANS);
		copy_file(img, after);
		size_t len;
		unsigned char *b = slurp(bk, &len);
		FILE *f = fopen(bk, "r+");
		if (trunc) {
			CHECK(f && ftruncate(fileno(f), (off_t)(len - 1000)) == 0);
		} else {
			b[len - 100] ^= 1;
			CHECK(f && fseek(f, 0, SEEK_SET) == 0 && fwrite(b, 1, len, f) == len);
		}
		if (f)
			fclose(f);
		free(b);
		CHECK(preserve_restore(err, sizeof err) == -1);
		CHECK(strstr(err, "damaged") != NULL);
		CHECK(strstr(err, "nothing was written back") != NULL);
		CHECK(strstr(err, "still holds the test's data in bytes 1048576 to 2097151") != NULL);
		CHECK(strstr(err, "flashbench --restore") == NULL);
		CHECK(same_file(img, after));			/* not one byte written back */
		CHECK(access(bk, F_OK) == 0);			/* and the evidence kept */
		CHECK(quietly(restore_command, bk, img) == 2);	/* which --restore refuses, as said */
		CHECK(!preserve_active());
		dev_close(&d);
	}
}

/* In a child: save, overwrite, then two SIGINTs; the second restores and exits 130. */
static void test_second_signal_restores(void)
{
	char *img = fixture("sig.img"), *orig = fixture("sig.orig");
	char err[8192];
	struct dev d;
	int status;

	fill_image(img, 4);
	copy_file(img, orig);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		if (dev_open(&d, img, DEV_WRITE, err, sizeof err) < 0)
			_exit(2);	/* cannot open: the parent's check fails */
		if (preserve_save(&d, test_spans, NSPANS, NULL, err, sizeof err) < 0)
			_exit(3);
		safety_install_signals();
		scribble(&d, test_spans, NSPANS);
		raise(SIGINT);
		if (!vm_stop_requested || safety_exit_status_for_signal() != 130 ||
		    !preserve_active())
			_exit(4);
		raise(SIGINT);
		_exit(5);	/* not reached */
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 130);
	CHECK(same_file(img, orig));
}

/* ------------------------------------------- spans cover every write */

enum write_test { WT_OPEN_AU, WT_FIND_FAT, WT_PROGRAM };

/* Writes and discards recorded by the sim that fall outside spans; -1 if none were recorded. */
static int writes_outside(const char *record, const struct span *spans, int n)
{
	FILE *f = fopen(record, "r");
	char kind;
	unsigned long long off, len;
	int outside = 0, seen = 0;

	if (!f)
		return -1;
	while (fscanf(f, " %c %llu %llu", &kind, &off, &len) == 3) {
		bool inside = false;
		for (int i = 0; i < n; i++)
			inside |= off >= spans[i].off && off + len <= spans[i].off + spans[i].len;
		outside += !inside;
		seen++;
	}
	fclose(f);
	return seen ? outside : -1;
}

/* What preserve_save is given (the *_spans) must contain everything the test writes. */
static void check_spans_cover_writes(enum write_test t, struct params *p, const char *what)
{
	char spec[PATH_MAX * 2 + 64], err[512];
	char *record = fixture("record");
	struct span spans[8];
	struct dev d;
	int n, r = -1;

	unlink(record);
	snprintf(spec, sizeof spec, "sim:size=256M,erasesize=4M,record=%s", record);
	if (dev_open(&d, spec, DEV_WRITE, err, sizeof err) < 0) {
		printf("FAIL %s: %s\n", what, err);
		unit_failed++;
		return;
	}
	if (t == WT_OPEN_AU) {
		struct rate_result res;
		n = open_au_spans(&d, p, spans, 8);
		if (open_au_check(&d, p, err, sizeof err) == 0)
			r = measure_open_au(&d, p, &res);
		rate_result_free(&res);
	} else if (t == WT_FIND_FAT) {
		struct rate_result res;
		n = find_fat_spans(&d, p, spans, 8);
		if (find_fat_check(&d, p, err, sizeof err) == 0)
			r = measure_find_fat(&d, p, &res);
		rate_result_free(&res);
	} else {
		struct program_result res;
		n = program_spans(&d, p, spans, 8);
		if (program_check(&d, p, err, sizeof err) == 0)
			r = measure_program(&d, p, &res);
		program_result_free(&res);
	}
	dev_close(&d);	/* flushes the record */
	int outside = writes_outside(record, spans, n);
	if (r != 0 || n < 1 || outside != 0) {
		printf("FAIL %s: measured %d, %d spans, %d writes outside them\n", what, r, n, outside);
		unit_failed++;
	} else {
		unit_passed++;
	}
}

static void test_spans_cover_writes(void)
{
	struct params p;

	params_defaults(&p);
	check_spans_cover_writes(WT_OPEN_AU, &p, "-O");
	p.random = true;
	p.open_au_nr = 3;
	check_spans_cover_writes(WT_OPEN_AU, &p, "-O -r --open-au-nr=3");
	params_defaults(&p);
	p.erasesize = 3 << 20;
	p.offset_set = true;
	p.offset = 30 << 20;
	check_spans_cover_writes(WT_OPEN_AU, &p, "-O -e 3M --offset=30M");
	params_defaults(&p);
	check_spans_cover_writes(WT_FIND_FAT, &p, "-f");
	p.erasesize = 1 << 20;
	p.fat_nr = 3;
	check_spans_cover_writes(WT_FIND_FAT, &p, "-f -e 1M --fat-nr=3");
	params_defaults(&p);
	check_spans_cover_writes(WT_PROGRAM, &p, "-p");
	p.offset_set = true;
	p.offset = 8 << 20;
	p.erasesize = 1 << 20;
	check_spans_cover_writes(WT_PROGRAM, &p, "-p -e 1M --offset=8M");
}

/* A child that saves, overwrites and then exits (or takes SIGHUP) without restoring. */
static void test_exit_and_hangup_paths(void)
{
	char *img = fixture("exit.img"), *orig = fixture("exit.orig");
	char err[8192];
	struct dev d;
	int status;

	fill_image(img, 5);
	copy_file(img, orig);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		if (dev_open(&d, img, DEV_WRITE, err, sizeof err) < 0)
			_exit(2);	/* cannot open: the parent's check fails */
		if (preserve_save(&d, test_spans, NSPANS, NULL, err, sizeof err) < 0)
			_exit(3);
		safety_install_signals();
		scribble(&d, test_spans, NSPANS);
		dev_close(&d);
		raise(SIGHUP);	/* the first signal only asks to stop */
		exit(vm_stop_requested && safety_exit_status_for_signal() == 129 ? 42 : 4);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	CHECK(same_file(img, orig));	/* put back at exit, after dev_close even */
}

/*
 * A restore that fails (writes past RLIMIT_FSIZE fail with EFBIG, as a dying
 * card would with EIO) leaves the saved bytes in a rescue backup, from
 * which --restore finishes the job.
 */
static void test_failed_restore_keeps_a_rescue_file(void)
{
	char *img = fixture("rescue.img"), *orig = fixture("rescue.orig");
	char err[8192], rescue[PATH_MAX];
	struct dev d;
	int status, pipefd[2];

	fill_image(img, 6);
	copy_file(img, orig);
	if (pipe(pipefd) < 0) {
		CHECK(!"pipe() failed");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit lim;
		close(pipefd[0]);
		setenv("TMPDIR", root, 1);
		signal(SIGXFSZ, SIG_IGN);
		if (dev_open(&d, img, DEV_WRITE, err, sizeof err) < 0)
			_exit(2);	/* cannot open: the parent's check fails */
		if (preserve_save(&d, test_spans, NSPANS, NULL, err, sizeof err) < 0)
			_exit(3);
		scribble(&d, test_spans, NSPANS);
		getrlimit(RLIMIT_FSIZE, &lim);
		lim.rlim_cur = 5u << 19;	/* 2.5 MiB: the span at 3 MiB cannot be written */
		setrlimit(RLIMIT_FSIZE, &lim);
		if (preserve_restore(err, sizeof err) != -1)
			_exit(4);
		if (write(pipefd[1], err, strlen(err)) < 0)
			_exit(5);
		_exit(0);
	}
	close(pipefd[1]);
	ssize_t len = read(pipefd[0], err, sizeof err - 1);
	close(pipefd[0]);
	err[len > 0 ? len : 0] = '\0';
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(strstr(err, ": restoring 65536 bytes at offset 3145728: File too large; "
			  "the saved data is in ") != NULL);
	const char *at = strstr(err, "flashbench --restore ");
	CHECK(at && sscanf(at, "flashbench --restore %4095s", rescue) == 1);
	if (!at)
		return;
	CHECK(!same_file(img, orig));
	CHECK_EQ(quietly(restore_command, rescue, img), 0);
	CHECK(same_file(img, orig));
}

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("note: could not remove %s\n", root);
}

/* safety/backup.c: the header it writes is the header it reads; a broken one is refused. */
static void test_backup_header_round_trip(void)
{
	static struct backup_header h, back;
	struct span spans[2] = { { 4096, 8192 }, { 1 << 20, 512 } };
	char text[4096], shortbuf[64], path[PATH_MAX + 16];
	int bad_line = 0, len;

	snprintf(h.device, sizeof h.device, "/dev/loop7");
	snprintf(h.identity, sizeof h.identity, "loop:backing_file /tmp/x start:2048");
	h.size = 64 << 20;
	h.lbs = 512;
	h.data_offset = 4096;
	h.checksum = 0x0123456789abcdefull;
	h.spans = spans;
	h.nspans = 2;
	len = backup_format_header(text, sizeof text, &h);
	CHECK_GT(len, 0);
	CHECK_EQ(backup_format_header(shortbuf, sizeof shortbuf, &h), -1);	/* too short a buffer */
	snprintf(path, sizeof path, "%s/header", root);
	FILE *f = fopen(path, "w+");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	rewind(f);
	CHECK_EQ(backup_parse_header(f, &back, &bad_line), 0);
	CHECK_STR(back.device, h.device);
	CHECK_STR(back.identity, h.identity);
	CHECK_EQ(back.size, h.size);
	CHECK_EQ(back.lbs, h.lbs);
	CHECK_EQ(back.data_offset, h.data_offset);
	CHECK_EQ(back.checksum, h.checksum);
	CHECK_EQ(back.nspans, 2);
	CHECK_EQ(back.spans ? back.spans[1].off : 0, 1u << 20);
	CHECK_EQ(back.spans ? back.spans[1].len : 0, 512u);
	free(back.spans);
	memset(&back, 0, sizeof back);
	/* one span less than announced: not a backup --restore takes */
	rewind(f);
	CHECK_EQ(ftruncate(fileno(f), 0), 0);
	fputs("flashbench-backup 1\ndevice /dev/loop7\nsize 512\nlbs 512\ndata-offset 4096\n"
	      "spans 2\nspan 0 512\nchecksum fnv1a64 0\nend\n", f);
	rewind(f);
	CHECK_EQ(backup_parse_header(f, &back, &bad_line), -1);
	free(back.spans);
	fclose(f);
	unlink(path);
}

static int restore_forced(const char *backup, const char *device)
{
	return restore_command_opts(backup, device, true);
}

/* A backup marked restored, or of format 1, goes back only with --force; a partial one never. */
static void test_restored_and_old_backups_need_force(void)
{
	char *img = fixture("mark.img"), *orig = fixture("mark.orig"), *bk = fixture("mark.backup");
	char err[8192], copy[PATH_MAX * 2];
	struct dev d;

	fill_image(img, 6);
	copy_file(img, orig);
	if (!open_image(&d, img, err, sizeof err))
		return;
	CHECK_EQ(preserve_save(&d, test_spans, NSPANS, bk, err, sizeof err), 0);
	snprintf(copy, sizeof copy, "%s/mark.copy", root);
	copy_file(bk, copy);
	scribble(&d, test_spans, NSPANS);
	CHECK_EQ(preserve_restore(err, sizeof err), 0);
	dev_close(&d);

	int fd = open(copy, O_RDWR);
	CHECK_EQ(backup_mark_restored(fd), 0);
	close(fd);
	char from[PATH_MAX];
	CHECK_EQ(backup_examine(copy, from, sizeof from), BACKUP_WAS_RESTORED);
	CHECK_STR(from, img);
	CHECK_EQ(quietly(restore_command, copy, img), 2);
	CHECK(access(copy, F_OK) == 0);	/* refused: left as it was */
	CHECK_EQ(quietly(restore_forced, copy, img), 0);
	CHECK(same_file(img, orig));

	/* format 1: the checksum leaves the header out */
	FILE *f = fopen(copy, "w");
	fputs(BACKUP_MAGIC_V1 "\ndevice /x\nsize 512\nlbs 512\ndata-offset 4096\nspans 1\n"
	      "span 0 512\nchecksum fnv1a64 0\nend\n", f);
	fclose(f);
	CHECK_EQ(backup_examine(copy, from, sizeof from), BACKUP_BAD);	/* its data is missing */
	f = fopen(copy, "w");
	fputs(BACKUP_PARTIAL "\n", f);
	fclose(f);
	CHECK_EQ(backup_examine(copy, from, sizeof from), BACKUP_BEING_WRITTEN);
	CHECK_EQ(quietly(restore_command, copy, img), 0);	/* nothing to restore; removed */
	CHECK(access(copy, F_OK) < 0);
}

/*
 * An intact backup of format 1 (its checksum covers the span data only, from
 * CHECKSUM_INIT) goes back with --force, byte for byte, and without --force
 * is refused and leaves the device as it is (the same device and identity:
 * the format is the only reason).
 */
static void test_intact_old_backup_restores_with_force(void)
{
	char *img = fixture("old.img"), *orig = fixture("old.orig"), *bk = fixture("old.backup");
	char *v1 = fixture("old.v1"), *dirty = fixture("old.dirty");
	char err[8192], from[PATH_MAX], head[4096];
	struct dev d;
	size_t len;

	unlink(bk);
	fill_image(img, 9);
	copy_file(img, orig);
	if (!open_image(&d, img, err, sizeof err))
		return;
	CHECK_EQ(preserve_save(&d, test_spans, NSPANS, bk, err, sizeof err), 0);
	unsigned char *b = slurp(bk, &len);
	scribble(&d, test_spans, NSPANS);
	CHECK_EQ(preserve_restore(err, sizeof err), 0);	/* this run's own restore, done */
	scribble(&d, test_spans, NSPANS);	/* and the card written again */
	dev_close(&d);
	copy_file(img, dirty);
	CHECK(b && len > 4096);
	if (!b || len <= 4096)
		return;
	/* the same data at the same offset, under a format-1 header (its identity the same) */
	uint64_t sum = backup_checksum_update(CHECKSUM_INIT, b + 4096, len - 4096);
	char identity[512] = "";
	const char *id = strstr((char *)b, "\nidentity ");
	CHECK(id != NULL);
	if (id)
		snprintf(identity, sizeof identity, "%.*s", (int)strcspn(id + 1, "\n") + 1, id + 1);
	int n = snprintf(head, sizeof head, BACKUP_MAGIC_V1 "\ndevice %s\nsize 4194304\nlbs 512\n%s"
			 "data-offset 4096\nspans %d\n", img, identity, NSPANS);
	for (int i = 0; i < NSPANS; i++)
		n += snprintf(head + n, sizeof head - (size_t)n, "span %llu %llu\n",
			      (unsigned long long)test_spans[i].off, (unsigned long long)test_spans[i].len);
	snprintf(head + n, sizeof head - (size_t)n, "checksum fnv1a64 %016llx\nend\n",
		 (unsigned long long)sum);
	memset(b, 0, 4096);
	memcpy(b, head, strlen(head));
	FILE *f = fopen(v1, "w");
	CHECK(f && fwrite(b, 1, len, f) == len);
	if (f)
		fclose(f);
	free(b);

	CHECK_EQ(backup_examine(v1, from, sizeof from), BACKUP_OLD);
	CHECK_STR(from, img);
	CHECK_EQ(quietly(restore_command, v1, img), 2);	/* refused: the header is not covered */
	CHECK(same_file(img, dirty));
	CHECK_EQ(quietly(restore_forced, v1, img), 0);
	CHECK(same_file(img, orig));
}

/* Every catchable signal whose default ends the process is answered. */
static void test_every_fatal_signal_is_caught(void)
{
	static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
				     SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGIO, SIGSTKFLT,
				     SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS };
	struct sigaction old[sizeof fatal / sizeof fatal[0]], now;

	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaction(fatal[i], NULL, &old[i]);
	safety_install_signals();
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		sigaction(fatal[i], NULL, &now);
		CHECK(now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN);
	}
	sigaction(SIGRTMIN + 1, NULL, &now);
	CHECK(now.sa_handler != SIG_DFL);
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaction(fatal[i], &old[i], NULL);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof root, "%s/test_safety.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror(root);
		return 1;
	}
	make_sysblock();
	test_mountinfo_line();
	test_root_device();
	test_refusals();
	test_allowed();
	test_preserve_in_memory();
	test_preserve_needs_backup_for_large_spans();
	test_preserve_to_backup_file();
	test_damaged_backup_is_not_restored();
	test_second_signal_restores();
	test_exit_and_hangup_paths();
	test_failed_restore_keeps_a_rescue_file();
	test_spans_cover_writes();
	test_backup_header_round_trip();
	test_restored_and_old_backups_need_force();
	test_intact_old_backup_restores_with_force();
	test_every_fatal_signal_is_caught();
	remove_tree();
	return unit_summary();
}
