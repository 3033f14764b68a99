/*
 * Which device may be written, and where outputs may go: the running
 * system's root, mounts, holders, swap, loop devices' backing files.
 */
#include "safety/safety_target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev.h"
#include "safety/backup.h"
#include "safety/lock.h"

const struct safety_sources safety_system_sources = {
	.mountinfo = "/proc/self/mountinfo",
	.sysblock = "/sys/class/block",
	.swaps = "/proc/swaps",
};

#define REFUSAL "; not writing to it"

/* -------------------------------------------------------------------- sysfs */

/* The target device and, for a whole disk, its partitions. */
struct member {
	char name[NAME_MAX + 1];	/* "sdb1" */
	char dir[PATH_MAX];		/* its sysfs directory */
	unsigned int major, minor;
};

struct family {
	struct member *m;	/* m[0] is the target */
	int n, cap;
	bool have_parent;	/* the target is a partition of this disk */
	struct member parent;
};

static int read_dev_numbers(const char *dir, unsigned int *major, unsigned int *minor)
{
	char path[PATH_MAX + 8];
	FILE *f;
	int ok;

	snprintf(path, sizeof path, "%s/dev", dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fscanf(f, "%u:%u", major, minor) == 2;
	fclose(f);
	return ok ? 0 : -1;
}

static bool is_partition_dir(const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof path, "%s/partition", dir);
	return access(path, F_OK) == 0;
}

static bool fill_member(struct member *m, const char *parent_dir, const char *name)
{
	if (strlen(name) >= sizeof m->name ||
	    (size_t)snprintf(m->dir, sizeof m->dir, "%s/%s", parent_dir, name) >= sizeof m->dir)
		return false;
	strcpy(m->name, name);
	return read_dev_numbers(m->dir, &m->major, &m->minor) == 0;
}

static int add_member(struct family *fam, const struct member *m)
{
	if (fam->n == fam->cap) {
		int cap = fam->cap ? fam->cap * 2 : 8;
		struct member *p = realloc(fam->m, (size_t)cap * sizeof *p);
		if (!p)
			return -1;
		fam->m = p;
		fam->cap = cap;
	}
	fam->m[fam->n++] = *m;
	return 0;
}

/*
 * Calls fn for each partition subdirectory of disk_dir until it returns true.
 * Partitions are the subdirectories that have a "partition" file.
 */
static bool each_partition(const char *disk_dir, bool (*fn)(const struct member *, void *),
			   void *arg)
{
	DIR *d = opendir(disk_dir);
	struct dirent *e;
	struct member *m = malloc(sizeof *m);
	bool stop = false;

	if (!d || !m) {
		if (d)
			closedir(d);
		free(m);
		return false;
	}
	while (!stop && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (fill_member(m, disk_dir, e->d_name) && is_partition_dir(m->dir))
			stop = fn(m, arg);
	}
	closedir(d);
	free(m);
	return stop;
}

struct partition_match {
	unsigned int major, minor;
	struct member *found;
};

static bool partition_matches(const struct member *m, void *arg)
{
	struct partition_match *pm = arg;

	if (m->major == pm->major && m->minor == pm->minor) {
		*pm->found = *m;
		return true;
	}
	return false;
}

static bool collect_partition(const struct member *m, void *arg)
{
	return add_member(arg, m) < 0;
}

/*
 * Finds major:minor among the disks of sysblock (top-level entries without
 * a "partition" file) and their partitions. Fills fam; false if absent.
 */
static bool find_family(const char *sysblock, unsigned int major, unsigned int minor,
			struct family *fam)
{
	DIR *d = opendir(sysblock);
	struct dirent *e;
	struct member *disk = malloc(sizeof *disk), *part = malloc(sizeof *part);
	bool found = false;

	if (!d || !disk || !part)
		goto out;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !fill_member(disk, sysblock, e->d_name) ||
		    is_partition_dir(disk->dir))
			continue;
		if (disk->major == major && disk->minor == minor) {
			found = add_member(fam, disk) == 0;
			each_partition(disk->dir, collect_partition, fam);
			continue;
		}
		struct partition_match pm = { major, minor, part };
		if (each_partition(disk->dir, partition_matches, &pm)) {
			found = add_member(fam, part) == 0;
			fam->have_parent = true;
			fam->parent = *disk;
		}
	}
out:
	if (d)
		closedir(d);
	free(disk);
	free(part);
	return found;
}

/* The first entry of dir/holders into holder; false when it holds nothing. */
static bool first_holder(const char *dir, char *holder, size_t n)
{
	char path[PATH_MAX + 16];
	DIR *d;
	struct dirent *e;
	bool found = false;

	snprintf(path, sizeof path, "%s/holders", dir);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(holder, n, "%s", e->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/* Whether something stacked on dir (dm, md, ...), at any depth, is the device major:minor. */
static bool holders_reach(const char *sysblock, const char *dir, unsigned int major,
			  unsigned int minor, int depth)
{
	char path[PATH_MAX + 16];
	DIR *d;
	struct dirent *e;
	bool found = false;

	if (depth > 8)
		return false;
	snprintf(path, sizeof path, "%s/holders", dir);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		struct member h;
		if (e->d_name[0] == '.' || !fill_member(&h, sysblock, e->d_name))
			continue;
		found = (h.major == major && h.minor == minor) ||
			holders_reach(sysblock, h.dir, major, minor, depth + 1);
	}
	closedir(d);
	return found;
}

/* ------------------------------------------------------------------- checks */

struct mount_search {
	const struct family *fam;
	int which;		/* index of the mounted member */
	char mountpoint[4096];
};

static bool family_mount(const struct mount_entry *m, void *arg)
{
	struct mount_search *s = arg;

	for (int i = 0; i < s->fam->n; i++) {
		if (s->fam->m[i].major == m->major && s->fam->m[i].minor == m->minor) {
			s->which = i;
			snprintf(s->mountpoint, sizeof s->mountpoint, "%s", m->mountpoint);
			return true;
		}
	}
	return false;
}

/* The swap entry of /proc/swaps that is a member; -1 if none. */
static int family_swap(const char *swaps, const struct family *fam)
{
	FILE *f = fopen(swaps, "re");
	char line[4096 + 64];
	int which = -1;

	if (!f)
		return -1;
	while (which < 0 && fgets(line, sizeof line, f)) {
		char *sp = strpbrk(line, " \t");
		if (line[0] != '/' || !sp)
			continue;	/* the header line */
		*sp = '\0';
		const char *base = strrchr(line, '/') + 1;
		for (int i = 0; i < fam->n; i++)
			if (strcmp(fam->m[i].name, base) == 0)
				which = i;
	}
	fclose(f);
	return which;
}

/* "/dev/sdb" for the target itself, "/dev/sdb: its partition sdb1" for another member. */
static void describe_member(char *buf, size_t n, const char *name, const struct family *fam,
			    int i)
{
	if (i == 0)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "%s: its partition %s", name, fam->m[i].name);
}

static int check_root(const struct safety_sources *src, const char *name,
		      const struct family *fam, char *err, size_t n)
{
	unsigned int rmaj, rmin;
	char who[PATH_MAX + 64];

	if (safety_root_device(src->mountinfo, &rmaj, &rmin) < 0)
		return 0;
	for (int i = 0; i < fam->n; i++) {
		describe_member(who, sizeof who, name, fam, i);
		if (fam->m[i].major == rmaj && fam->m[i].minor == rmin) {
			snprintf(err, n, "%s holds the running system's root filesystem" REFUSAL, who);
			return -1;
		}
		if (fam->m[i].dir[0] && holders_reach(src->sysblock, fam->m[i].dir, rmaj, rmin, 0)) {
			snprintf(err, n, "%s holds the running system's root filesystem "
				 "(through a device stacked on it)" REFUSAL, who);
			return -1;
		}
	}
	if (fam->have_parent && fam->parent.major == rmaj && fam->parent.minor == rmin) {
		snprintf(err, n, "%s is part of %s, which holds the running system's root filesystem"
			 REFUSAL, name, fam->parent.name);
		return -1;
	}
	return 0;
}

/* sysfs "ro": a write-protected card or `losetup -r` (opening for writing may still succeed) */
static bool is_read_only(const struct member *m)
{
	char path[PATH_MAX + 8];
	FILE *f;
	int ro = 0;

	if (!m->dir[0])
		return false;
	snprintf(path, sizeof path, "%s/ro", m->dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fscanf(f, "%d", &ro) != 1)
		ro = 0;
	fclose(f);
	return ro == 1;
}

/* ------------------------------------------------------- loop backing files */

/*
 * The kernel lists no holder for a file or device under a loop device, so a
 * write to it corrupts whatever is on the loop device (a mounted filesystem,
 * say): every attached loop's backing file is compared by device and inode.
 */
struct loop_match {
	const struct stat *file;	/* a regular file target, or NULL */
	const struct family *fam;	/* a block device target and its family, or NULL */
	const char *shared;		/* the target's own backing file: skip the target, */
	unsigned int self_major, self_minor;	/* and only loops in use matter */
	/* found: */
	char name[NAME_MAX + 1];
	unsigned int major, minor;
	bool in_use;
	char why[PATH_MAX + 256];	/* what uses it */
};

static int loop_depth;	/* loops over loops: checked a few levels deep, never in a cycle */

/* Whether the loop device found is mounted, held, ...: the reason into lm->why. */
static void note_loop_use(const struct safety_sources *src, struct loop_match *lm)
{
	char loopdev[NAME_MAX + 8];

	snprintf(loopdev, sizeof loopdev, "/dev/%s", lm->name);
	loop_depth++;
	lm->in_use = safety_check_device(src, loopdev, lm->major, lm->minor, lm->why,
					 sizeof lm->why) < 0;
	loop_depth--;
}

static bool backing_matches(const struct loop_match *lm, const struct stat *b)
{
	if (lm->file)
		return S_ISREG(b->st_mode) && b->st_dev == lm->file->st_dev &&
		       b->st_ino == lm->file->st_ino;
	if (!S_ISBLK(b->st_mode))
		return false;
	for (int i = 0; i < lm->fam->n; i++)
		if (major(b->st_rdev) == lm->fam->m[i].major && minor(b->st_rdev) == lm->fam->m[i].minor)
			return true;
	return lm->fam->have_parent && major(b->st_rdev) == lm->fam->parent.major &&
	       minor(b->st_rdev) == lm->fam->parent.minor;
}

/* The first attached loop device of sysblock whose backing file is the target. */
static bool find_loop_over(const struct safety_sources *src, struct loop_match *lm)
{
	const char *sysblock = src->sysblock;
	DIR *d = opendir(sysblock);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char path[PATH_MAX + 64], back[PATH_MAX];
		struct stat b;
		FILE *f;
		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/loop/backing_file", sysblock, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;	/* not attached */
		bool ok = fgets(back, sizeof back, f) != NULL;
		fclose(f);
		back[strcspn(back, "\n")] = '\0';
		if (!ok || stat(back, &b) < 0 || !backing_matches(lm, &b))
			continue;
		snprintf(path, sizeof path, "%s/%s", sysblock, e->d_name);
		if (read_dev_numbers(path, &lm->major, &lm->minor) < 0 ||
		    (lm->shared && lm->major == lm->self_major && lm->minor == lm->self_minor))
			continue;
		snprintf(lm->name, sizeof lm->name, "%s", e->d_name);
		note_loop_use(src, lm);
		found = lm->in_use || !lm->shared;
	}
	closedir(d);
	return found;
}

/* -1 with a message naming the loop device (and its mount) when who backs one. */
static int check_loop_backing(const struct safety_sources *src, const char *who,
			      struct loop_match *lm, char *err, size_t n)
{
	char loopdev[NAME_MAX + 8];

	if (loop_depth > 4 || !find_loop_over(src, lm))
		return 0;
	snprintf(loopdev, sizeof loopdev, "/dev/%s", lm->name);
	if (lm->shared)
		snprintf(err, n, "%s shares its backing file %s with the loop device %s: %s", who,
			 lm->shared, loopdev, lm->why);
	else if (lm->in_use)
		snprintf(err, n, "%s backs the loop device %s: %s", who, loopdev, lm->why);
	else
		snprintf(err, n, "%s backs the loop device %s (losetup -d %s detaches it)" REFUSAL,
			 who, loopdev, loopdev);
	return -1;
}

/*
 * A loop device target (or a partition of one) and another loop device in
 * use over the same file: writing the one corrupts the other. Every loop
 * device over the file is looked at here, each for its own use only: asking
 * the others about their sharing would go round in circles.
 */
static int check_shared_backing(const struct safety_sources *src, const char *name,
				const struct family *fam, char *err, size_t n)
{
	static int sharing;	/* checking a loop device found sharing the target's file */
	const struct member *disk = fam->have_parent ? &fam->parent : &fam->m[0];
	char path[PATH_MAX + 32], back[PATH_MAX];
	struct stat st;
	FILE *f;

	if (!disk->dir[0])
		return 0;
	snprintf(path, sizeof path, "%s/loop/backing_file", disk->dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	bool ok = fgets(back, sizeof back, f) != NULL;
	fclose(f);
	back[strcspn(back, "\n")] = '\0';
	if (!ok || stat(back, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	struct loop_match lm = { .file = &st, .shared = back, .self_major = disk->major,
				 .self_minor = disk->minor };
	if (sharing)
		return 0;
	sharing++;
	int r = check_loop_backing(src, name, &lm, err, n);
	sharing--;
	return r;
}

static int check_use(const struct safety_sources *src, const char *name,
		     const struct family *fam, char *err, size_t n)
{
	char who[PATH_MAX + 64], holder[NAME_MAX + 1];
	struct mount_search *ms = calloc(1, sizeof *ms);
	int i;

	if (!ms) {
		snprintf(err, n, "%s: out of memory", name);
		return -1;
	}
	ms->fam = fam;
	if (mountinfo_each(src->mountinfo, family_mount, ms)) {
		describe_member(who, sizeof who, name, fam, ms->which);
		snprintf(err, n, "%s is mounted on %s" REFUSAL, who, ms->mountpoint);
		free(ms);
		return -1;
	}
	free(ms);
	i = family_swap(src->swaps, fam);
	if (i >= 0) {
		describe_member(who, sizeof who, name, fam, i);
		snprintf(err, n, "%s is in use as swap" REFUSAL, who);
		return -1;
	}
	for (i = 0; i < fam->n; i++) {
		if (fam->m[i].dir[0] && first_holder(fam->m[i].dir, holder, sizeof holder)) {
			describe_member(who, sizeof who, name, fam, i);
			snprintf(err, n, "%s is held by %s (device mapper, RAID or another driver)"
				 REFUSAL, who, holder);
			return -1;
		}
	}
	struct loop_match lm = { .fam = fam };
	if (check_loop_backing(src, name, &lm, err, n) < 0)
		return -1;
	return check_shared_backing(src, name, fam, err, n);
}

int safety_check_device(const struct safety_sources *src, const char *name,
			unsigned int major, unsigned int minor, char *err, size_t n)
{
	struct family fam = { 0 };
	int r;

	if (!find_family(src->sysblock, major, minor, &fam)) {
		/* no sysfs entry: still check the device itself */
		struct member self = { .major = major, .minor = minor };
		snprintf(self.name, sizeof self.name, "%s", name);
		if (add_member(&fam, &self) < 0) {
			snprintf(err, n, "%s: out of memory", name);
			return -1;
		}
	}
	r = check_root(src, name, &fam, err, n);
	if (r == 0)
		r = check_use(src, name, &fam, err, n);
	if (r == 0 && is_read_only(&fam.m[0])) {
		snprintf(err, n, "%s is read-only (write-protected)" REFUSAL, name);
		r = -1;
	}
	free(fam.m);
	return r;
}

int safety_check_write_target(const char *path, char *err, size_t n)
{
	struct stat st;

	if (dev_path_is_sim(path))
		return 0;
	if (stat(path, &st) < 0)
		return 0;	/* open() reports it */
	if (S_ISREG(st.st_mode)) {
		struct loop_match lm = { .file = &st };
		return check_loop_backing(&safety_system_sources, path, &lm, err, n);
	}
	if (!S_ISBLK(st.st_mode))
		return 0;
	return safety_check_device(&safety_system_sources, path, major(st.st_rdev),
				   minor(st.st_rdev), err, n);
}

/*
 * Whether the block device major:minor rests on the regular file f: through
 * its whole disk (for a partition), a loop device's backing file, or the
 * devices under it (dm, md: sysfs "slaves"), a few levels deep.
 */
static bool rests_on_file(unsigned int major, unsigned int minor, const struct stat *f, int depth)
{
	char link[64], dir[PATH_MAX], path[PATH_MAX + 64], back[PATH_MAX];
	struct stat b;
	bool found = false;

	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major, minor);
	if (depth > 8 || !realpath(link, dir))
		return false;
	if (is_partition_dir(dir)) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			return false;
		*slash = '\0';		/* the whole disk */
	}
	snprintf(path, sizeof path, "%s/loop/backing_file", dir);
	FILE *bf = fopen(path, "re");
	if (bf) {
		if (fgets(back, sizeof back, bf)) {
			back[strcspn(back, "\n")] = '\0';
			if (stat(back, &b) == 0)
				found = S_ISREG(b.st_mode) ? b.st_dev == f->st_dev && b.st_ino == f->st_ino
				      : S_ISBLK(b.st_mode) && rests_on_file(major(b.st_rdev),
									    minor(b.st_rdev), f, depth + 1);
		}
		fclose(bf);
	}
	snprintf(path, sizeof path, "%s/slaves", dir);
	DIR *d = found ? NULL : opendir(path);
	struct dirent *e;
	while (d && !found && (e = readdir(d))) {
		unsigned int ma, mi;
		if (e->d_name[0] == '.')
			continue;
		char slave[PATH_MAX + NAME_MAX + 16];
		snprintf(slave, sizeof slave, "%s/slaves/%s", dir, e->d_name);
		found = read_dev_numbers(slave, &ma, &mi) == 0 && rests_on_file(ma, mi, f, depth + 1);
	}
	if (d)
		closedir(d);
	return found;
}

int safety_check_output(const char *what, const struct stat *out, const char *device,
			char *err, size_t n)
{
	struct stat dev;

	if (S_ISBLK(out->st_mode)) {
		snprintf(err, n, "%s is a block device: results are never written to one" REFUSAL,
			 what);
		return -1;
	}
	if (!S_ISREG(out->st_mode))
		return 0;
	if (device && !dev_path_is_sim(device) && stat(device, &dev) == 0) {
		if (S_ISREG(dev.st_mode) && dev.st_dev == out->st_dev && dev.st_ino == out->st_ino) {
			snprintf(err, n, "%s is %s, the device under test" REFUSAL, what, device);
			return -1;
		}
		if (S_ISBLK(dev.st_mode) &&
		    rests_on_file(major(dev.st_rdev), minor(dev.st_rdev), out, 0)) {
			snprintf(err, n, "%s backs %s, the device under test" REFUSAL, what, device);
			return -1;
		}
	}
	/* nor onto a file another run holds: the image it tests, its --backup */
	char who[3 * 256];
	if (safety_lock_holders(out, who, sizeof who) > 0) {
		snprintf(err, n, "%s is locked by %s (a run's image or backup)" REFUSAL, what, who);
		return -1;
	}
	/* nor onto what backs another loop device: a filesystem on it, say */
	struct loop_match lm = { .file = out };
	return check_loop_backing(&safety_system_sources, what, &lm, err, n);
}

int safety_check_not_backup(const char *what, const char *path, char *err, size_t n)
{
	char from[PATH_MAX];
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	switch (backup_examine(path, from, sizeof from)) {
	case BACKUP_GOOD:
	case BACKUP_OLD:
		snprintf(err, n, "%s is a backup of %s, perhaps the only copy of its data "
			 "(flashbench --restore %s %s puts it back)" REFUSAL, what, from, path, from);
		return -1;
	case BACKUP_BEING_WRITTEN:
		snprintf(err, n, "%s is the backup a run is writing, or left when it was stopped"
			 REFUSAL, what);
		return -1;
	default:
		return 0;
	}
}
