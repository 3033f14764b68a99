#include "safety.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "progress.h"
#include "vm.h"

const struct safety_sources safety_system_sources = {
	.mountinfo = "/proc/self/mountinfo",
	.sysblock = "/sys/class/block",
	.swaps = "/proc/swaps",
};

#define REFUSAL "; not writing to it"

/* Truncating copy (snprintf "%s" would do, but gcc warns about the truncation). */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t l = strnlen(src, n - 1);

	memcpy(dst, src, l);
	dst[l] = '\0';
}

/* ---------------------------------------------------------------- mountinfo */

/* Decodes the \ooo escapes the kernel puts in mountinfo paths. */
static void unescape_mount_path(const char *in, size_t len, char *out, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < n; i++) {
		if (in[i] == '\\' && i + 3 < len &&
		    in[i + 1] >= '0' && in[i + 1] <= '3' && in[i + 2] >= '0' && in[i + 2] <= '7' &&
		    in[i + 3] >= '0' && in[i + 3] <= '7') {
			out[o++] = (char)((in[i + 1] - '0') * 64 + (in[i + 2] - '0') * 8 + (in[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = in[i];
		}
	}
	out[o] = '\0';
}

/* Next space-separated field of *p: its start and length; false at the end. */
static bool next_field(const char **p, const char **start, size_t *len)
{
	const char *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '\n')
		return false;
	*start = s;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n')
		s++;
	*len = (size_t)(s - *start);
	*p = s;
	return true;
}

/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS" */
int mountinfo_parse_line(const char *line, struct mount_entry *m)
{
	const char *p = line, *f;
	size_t len;
	char num[32];

	memset(m, 0, sizeof *m);
	if (!next_field(&p, &f, &len) || !next_field(&p, &f, &len))	/* ID, PARENT */
		return -1;
	if (!next_field(&p, &f, &len) || len >= sizeof num)
		return -1;
	memcpy(num, f, len);
	num[len] = '\0';
	char *end;
	errno = 0;
	unsigned long maj = strtoul(num, &end, 10);
	if (end == num || *end != ':' || errno)
		return -1;
	char *mstart = end + 1;
	unsigned long min = strtoul(mstart, &end, 10);
	if (end == mstart || *end != '\0' || errno || maj > UINT_MAX || min > UINT_MAX)
		return -1;
	m->major = (unsigned int)maj;
	m->minor = (unsigned int)min;
	if (!next_field(&p, &f, &len))	/* ROOT */
		return -1;
	if (!next_field(&p, &f, &len))	/* MOUNTPOINT */
		return -1;
	unescape_mount_path(f, len, m->mountpoint, sizeof m->mountpoint);
	for (;;) {			/* OPTIONS, optional fields, up to "-" */
		if (!next_field(&p, &f, &len))
			return -1;
		if (len == 1 && *f == '-')
			break;
	}
	if (!next_field(&p, &f, &len))	/* FSTYPE */
		return -1;
	if (next_field(&p, &f, &len))
		unescape_mount_path(f, len, m->source, sizeof m->source);
	return 0;
}

/* Calls fn(entry, arg) for each mountinfo line until it returns true; false if none did. */
static bool each_mount(const char *mountinfo, bool (*fn)(const struct mount_entry *, void *),
		       void *arg)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	struct mount_entry *m = malloc(sizeof *m);

	if (!f || !m) {
		if (f)
			fclose(f);
		free(m);
		return false;
	}
	while (!found && getline(&line, &cap, f) > 0)
		if (mountinfo_parse_line(line, m) == 0 && fn(m, arg))
			found = true;
	free(line);
	free(m);
	fclose(f);
	return found;
}

struct root_search {
	bool found;
	unsigned int major, minor;
	char source[256];
};

static bool note_root_mount(const struct mount_entry *m, void *arg)
{
	struct root_search *r = arg;

	if (strcmp(m->mountpoint, "/") == 0) {
		r->found = true;
		r->major = m->major;
		r->minor = m->minor;
		snprintf(r->source, sizeof r->source, "%s", m->source);
	}
	return false;	/* keep going: the last "/" is the visible one */
}

int safety_root_device(const char *mountinfo, unsigned int *major, unsigned int *minor)
{
	struct root_search r = { 0 };

	each_mount(mountinfo, note_root_mount, &r);
	if (!r.found)
		return -1;
	if (r.major == 0) {
		struct stat st;
		if (strncmp(r.source, "/dev/", 5) != 0 || stat(r.source, &st) < 0 ||
		    !S_ISBLK(st.st_mode))
			return -1;
		r.major = major(st.st_rdev);
		r.minor = minor(st.st_rdev);
	}
	*major = r.major;
	*minor = r.minor;
	return 0;
}

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
 * use over the same file: writing the one corrupts the other.
 */
static int check_shared_backing(const struct safety_sources *src, const char *name,
				const struct family *fam, char *err, size_t n)
{
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
	return check_loop_backing(src, name, &lm, err, n);
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
	if (each_mount(src->mountinfo, family_mount, ms)) {
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
	/* nor onto what backs another loop device: a filesystem on it, say */
	struct loop_match lm = { .file = out };
	return check_loop_backing(&safety_system_sources, what, &lm, err, n);
}

/* Whether process pid has the block device rdev open; its command into comm. */
static bool process_has_open(const char *pid, dev_t rdev, char *comm, size_t n)
{
	char dir[NAME_MAX + 16], path[2 * NAME_MAX + 32];
	DIR *d;
	struct dirent *e;
	bool found = false;

	snprintf(dir, sizeof dir, "/proc/%s/fd", pid);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		found = stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
	}
	closedir(d);
	if (found) {
		snprintf(path, sizeof path, "/proc/%s/comm", pid);
		FILE *f = fopen(path, "re");
		comm[0] = '\0';
		if (f) {
			if (fgets(comm, (int)n, f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
	}
	return found;
}

/* The first other process with the device open: its pid and command; false if none seen. */
static bool find_opener(const char *path, char *who, size_t n)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char comm[64];
	bool found = false;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode) || !(d = opendir("/proc")))
		return false;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == (int)getpid())
			continue;
		if (process_has_open(e->d_name, st.st_rdev, comm, sizeof comm)) {
			snprintf(who, n, "process %s (%s)", e->d_name, comm[0] ? comm : "?");
			found = true;
		}
	}
	closedir(d);
	return found;
}

void safety_explain_busy(const char *path, char *msg, size_t n)
{
	char who[NAME_MAX + 96];

	if (safety_check_write_target(path, msg, n) < 0)
		return;
	if (find_opener(path, who, sizeof who))
		snprintf(msg, n, "%s is busy: %s has it open exclusively" REFUSAL, path, who);
	else
		snprintf(msg, n, "%s is busy: something else has it open exclusively "
			 "(a mount in another namespace, or another program)" REFUSAL, path);
}

/* ---------------------------------------------------------------- --preserve */

#define PRESERVE_MEMORY_MAX (256ull << 20)
#define CHUNK (1u << 20)
#define BACKUP_MAGIC "flashbench-backup 1"

/* What a restore needs, all reachable from a signal handler. */
static struct preserved {
	int fd;			/* dup of the device's descriptor; -1 for sim: (no data) */
	char device[PATH_MAX];
	struct span *spans;
	int nspans;
	void **data;		/* memory mode: one aligned copy per span */
	int backup_fd;		/* file mode: -1 otherwise */
	char backup_path[PATH_MAX];
	uint64_t data_offset;	/* where span data starts in the backup */
	uint64_t checksum;	/* of the span data in the backup, checked before restoring */
	void *chunk, *check;	/* aligned staging and read-back buffers */
	uint64_t size;		/* of the device, for a backup's header */
	unsigned int lbs;
	char identity[600];
} pv = { .fd = -1, .backup_fd = -1 };

static volatile sig_atomic_t pv_armed;
static volatile sig_atomic_t restoring;		/* preserve_restore() is writing back */
static volatile sig_atomic_t exit_after_restore;	/* a signal came meanwhile: its number */
static bool backup_removed;
static struct sigaction pv_old_sigpipe;	/* SIGPIPE is ignored while data is at stake */

bool preserve_active(void)
{
	return pv_armed;
}

/* Where a restore stopped. */
struct restore_failure {
	uint64_t off, len;
	int err;		/* errno, or 0 when the data read back differs */
	bool backup;		/* reading the backup file failed */
};

/* positive errno, as the restore bookkeeping keeps it */
static int full_io(int fd, void *buf, size_t len, uint64_t off, bool write)
{
	return -fd_transfer(fd, buf, len, off, write);
}

static uint64_t backup_data_pos(int span, uint64_t pos)
{
	uint64_t at = pv.data_offset;

	for (int i = 0; i < span; i++)
		at += pv.spans[i].len;
	return at + pos;
}

/* One chunk of span i back to the device, read back and compared: 0 or -1 with f set. */
static int restore_chunk(int i, uint64_t pos, size_t c, struct restore_failure *f)
{
	uint64_t off = pv.spans[i].off + pos;
	const char *src;
	int e;

	if (pv.backup_fd >= 0) {
		e = full_io(pv.backup_fd, pv.chunk, c, backup_data_pos(i, pos), false);
		if (e) {
			*f = (struct restore_failure){ off, c, e, true };
			return -1;
		}
		src = pv.chunk;
	} else {
		src = (const char *)pv.data[i] + pos;
	}
	e = full_io(pv.fd, (void *)src, c, off, true);
	if (!e)
		e = full_io(pv.fd, pv.check, c, off, false);
	if (e || memcmp(src, pv.check, c) != 0) {
		*f = (struct restore_failure){ off, c, e, false };
		return -1;
	}
	return 0;
}

static uint64_t checksum_update(uint64_t h, const void *buf, size_t len);
#define CHECKSUM_INIT 0xcbf29ce484222325ull

/* The backup's span data as it was written: 0, EBADMSG, or the errno of reading it. */
static int backup_intact(void)
{
	uint64_t sum = CHECKSUM_INIT, at = pv.data_offset;

	for (int i = 0; i < pv.nspans; i++) {
		for (uint64_t pos = 0; pos < pv.spans[i].len; pos += CHUNK) {
			uint64_t left = pv.spans[i].len - pos;
			size_t c = left < CHUNK ? (size_t)left : CHUNK;
			int e = full_io(pv.backup_fd, pv.chunk, c, at, false);
			if (e)
				return e == EIO ? EBADMSG : e;	/* EIO here: the file ends early */
			sum = checksum_update(sum, pv.chunk, c);
			at += c;
		}
	}
	return sum == pv.checksum ? 0 : EBADMSG;
}

/*
 * Writes every span back and reads it back to compare; past a failure it
 * goes on (a dying card may still take the rest) and reports the first.
 * A backup file is checked whole first: a damaged one writes nothing.
 * Async-signal-safe.
 */
static int restore_spans(struct restore_failure *first)
{
	struct restore_failure f;
	int r = 0;

	if (pv.fd < 0)
		return 0;	/* a sim: card stores no data */
	if (pv.backup_fd >= 0 && (r = backup_intact()) != 0) {
		*first = (struct restore_failure){ 0, 0, r, true };
		return -1;
	}
	for (int i = 0; i < pv.nspans; i++) {
		for (uint64_t pos = 0; pos < pv.spans[i].len; pos += CHUNK) {
			uint64_t left = pv.spans[i].len - pos;
			size_t c = left < CHUNK ? (size_t)left : CHUNK;
			if (restore_chunk(i, pos, c, &f) < 0 && r == 0) {
				*first = f;
				r = -1;
			}
		}
	}
	return r;
}

/*
 * "bytes A to B, C to D" of the spans a test overwrote, for saying what
 * state the device is in; spans that touch read as one range.
 */
static void describe_spans(char *buf, size_t n)
{
	size_t l = 0;
	int shown = 0, ranges = 0;

	buf[0] = '\0';
	for (int i = 0; i < pv.nspans; i++) {
		uint64_t first = pv.spans[i].off, end = first + pv.spans[i].len;
		while (i + 1 < pv.nspans && pv.spans[i + 1].off == end)
			end += pv.spans[++i].len;
		ranges++;
		if (shown < 4 && l < n) {
			l += (size_t)snprintf(buf + l, n - l, "%s%" PRIu64 " to %" PRIu64,
					      shown ? ", " : "bytes ", first, end - 1);
			shown++;
		}
	}
	if (ranges > shown && l < n)
		snprintf(buf + l, n - l, " and %d more ranges", ranges - shown);
}

static void describe_restore_failure(const struct restore_failure *f, char *err, size_t n)
{
	char where[256];

	describe_spans(where, sizeof where);
	if (f->backup && f->err == EBADMSG)
		snprintf(err, n, "%s: the backup is damaged (checksum or length mismatch), so nothing "
			 "was written back: %s still holds the test's data in %s; --restore refuses "
			 "this backup too", pv.backup_path, pv.device, where);
	else if (f->backup)
		snprintf(err, n, "%s: reading the backup: %s; nothing was written back: %s still "
			 "holds the test's data in %s", pv.backup_path, strerror(f->err), pv.device,
			 where);
	else if (f->err)
		snprintf(err, n, "%s: restoring %" PRIu64 " bytes at offset %" PRIu64 ": %s",
			 pv.device, f->len, f->off, strerror(f->err));
	else
		snprintf(err, n, "%s: restoring %" PRIu64 " bytes at offset %" PRIu64
			 ": the data read back differs", pv.device, f->len, f->off);
}

/*
 * After a verified restore the backup file has done its job; left behind it
 * would make the same command fail next time (O_EXCL). Async-signal-safe.
 */
static void remove_backup(void)
{
	if (pv.backup_fd >= 0 && pv.backup_path[0] && unlink(pv.backup_path) == 0)
		backup_removed = true;
}

bool preserve_backup_removed(void)
{
	return backup_removed;
}

static void release_preserved(void)
{
	if (pv_armed)
		sigaction(SIGPIPE, &pv_old_sigpipe, NULL);
	pv_armed = 0;
	if (pv.fd >= 0)
		close(pv.fd);
	if (pv.backup_fd >= 0)
		close(pv.backup_fd);
	for (int i = 0; pv.data && i < pv.nspans; i++)
		free(pv.data[i]);
	free(pv.data);
	free(pv.spans);
	free(pv.chunk);
	free(pv.check);
	memset(&pv, 0, sizeof pv);
	pv.fd = pv.backup_fd = -1;
}

/* FNV-1a, 64 bit: detects a damaged backup, nothing more is asked of it. */
static uint64_t checksum_update(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static int format_header(char *buf, size_t n, uint64_t data_offset, uint64_t checksum)
{
	size_t l = 0;
	char dev_line[PATH_MAX];

	copy_str(dev_line, sizeof dev_line, pv.device);
	dev_line[strcspn(dev_line, "\n")] = '\0';
	l += (size_t)snprintf(buf + l, n - l,
			      BACKUP_MAGIC "\ndevice %s\nsize %" PRIu64 "\nlbs %u\nidentity %s\n"
			      "data-offset %" PRIu64 "\nspans %d\n",
			      dev_line, pv.size, pv.lbs, pv.identity, data_offset, pv.nspans);
	for (int i = 0; i < pv.nspans && l < n; i++)
		l += (size_t)snprintf(buf + l, n - l, "span %" PRIu64 " %" PRIu64 "\n",
				      pv.spans[i].off, pv.spans[i].len);
	if (l < n)
		l += (size_t)snprintf(buf + l, n - l, "checksum fnv1a64 %016" PRIx64 "\nend\n",
				      checksum);
	return l < n ? (int)l : -1;
}

static int fsync_parent_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, r;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) ? (int)(slash - path) : 1, path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

/* The saved bytes of span i at pos: read from d, or from memory when d is NULL. */
static int span_data(struct dev *d, int i, uint64_t pos, size_t c, const void **data,
		     char *err, size_t n)
{
	if (!d) {
		*data = (const char *)pv.data[i] + pos;
		return 0;
	}
	int r = dev_pread_all(d, pv.chunk, c, pv.spans[i].off + pos);
	if (r < 0) {
		snprintf(err, n, "%s: reading %zu bytes at offset %" PRIu64 ": %s", d->path, c,
			 pv.spans[i].off + pos, strerror(-r));
		return -1;
	}
	*data = pv.chunk;
	return 0;
}

/*
 * Writes the spans (from the device d, or from memory when d is NULL) to the
 * open backup fd, the header last, and fsyncs file and directory.
 */
static int write_backup(struct dev *d, int fd, const char *path, char *err, size_t n)
{
	size_t hcap = 4096 + PATH_MAX + sizeof pv.identity + (size_t)pv.nspans * 48;
	char *header = malloc(hcap);
	uint64_t sum = CHECKSUM_INIT, at;
	int hlen, e;

	if (!header) {
		snprintf(err, n, "--backup=%s: out of memory", path);
		return -1;
	}
	hlen = format_header(header, hcap, 0, 0);
	if (hlen < 0) {
		snprintf(err, n, "--backup=%s: header too long", path);
		free(header);
		return -1;
	}
	pv.data_offset = ((uint64_t)hlen + 64 + 4095) / 4096 * 4096;	/* room for the digits */
	at = pv.data_offset;
	for (int i = 0; i < pv.nspans; i++) {
		for (uint64_t pos = 0; pos < pv.spans[i].len; pos += CHUNK) {
			uint64_t left = pv.spans[i].len - pos;
			size_t c = left < CHUNK ? (size_t)left : CHUNK;
			const void *data;
			if (span_data(d, i, pos, c, &data, err, n) < 0) {
				free(header);
				return -1;
			}
			sum = checksum_update(sum, data, c);
			e = full_io(fd, (void *)data, c, at, true);
			if (e)
				goto write_failed;
			at += c;
		}
	}
	pv.checksum = sum;
	hlen = format_header(header, hcap, pv.data_offset, sum);
	e = hlen < 0 ? EOVERFLOW : full_io(fd, header, (size_t)hlen, 0, true);
	if (!e && (fsync(fd) < 0 || fsync_parent_dir(path) < 0))
		e = errno;
	if (e)
		goto write_failed;
	free(header);
	return 0;
write_failed:
	snprintf(err, n, "--backup=%s: %s", path, strerror(e));
	free(header);
	return -1;
}

/*
 * A restore from memory failed (a dying card, say): keep the saved bytes in
 * a backup file so `--restore` can try again later. Appends to err.
 */
static void rescue_to_file(char *err, size_t n)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX], why[512];
	size_t l = strlen(err);
	int fd;

	snprintf(path, sizeof path, "%s/flashbench-rescue-XXXXXX", dir && *dir ? dir : "/var/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err + l, n - l, "; could not keep the saved data in %s: %s", path,
			 strerror(errno));
		return;
	}
	if (write_backup(NULL, fd, path, why, sizeof why) < 0) {
		snprintf(err + l, n - l, "; could not keep the saved data: %s", why);
		unlink(path);
	} else {
		snprintf(err + l, n - l, "; the saved data is in %s: flashbench --restore %s %s",
			 path, path, pv.device);
	}
	close(fd);
}

int preserve_restore(char *err, size_t n)
{
	struct restore_failure f = { 0 };
	int r = 0;

	if (!pv_armed)
		return 0;
	/* a signal meanwhile lets this one attempt finish, then exits (on_stop_signal) */
	restoring = 1;
	if (restore_spans(&f) < 0) {
		describe_restore_failure(&f, err, n);
		if (pv.backup_fd >= 0 && !f.backup) {	/* the backup checked out: --restore takes it */
			size_t l = strlen(err);
			snprintf(err + l, n - l, "; the backup stays in %s: flashbench --restore %s %s",
				 pv.backup_path, pv.backup_path, pv.device);
		} else if (pv.data) {
			rescue_to_file(err, n);
		}
		r = -1;
	} else {
		remove_backup();
	}
	restoring = 0;
	if (exit_after_restore) {
		if (r == 0)
			fprintf(stderr, "flashbench: %s: restored and verified: as before the test\n",
				pv.device);
		else
			fprintf(stderr, "flashbench: %s\n", err);
		_exit(128 + exit_after_restore);
	}
	release_preserved();
	return r;
}

/* Should the program end without calling preserve_restore(), restore anyway. */
static void restore_at_exit(void)
{
	char err[PATH_MAX * 3 + 256];

	if (pv_armed && preserve_restore(err, sizeof err) < 0)
		fprintf(stderr, "flashbench: %s\n", err);
}

static int save_to_memory(struct dev *d, char *err, size_t n)
{
	if (!dev_stores_data(d))
		return 0;	/* nothing to keep */
	pv.data = calloc((size_t)pv.nspans, sizeof *pv.data);
	if (!pv.data && pv.nspans) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (int i = 0; i < pv.nspans; i++) {
		int r;
		pv.data[i] = dev_alloc_buffer(pv.spans[i].len);
		if (!pv.data[i]) {
			snprintf(err, n, "out of memory for %" PRIu64 " bytes",
				 pv.spans[i].len);
			return -1;
		}
		r = dev_pread_all(d, pv.data[i], pv.spans[i].len, pv.spans[i].off);
		if (r < 0) {
			snprintf(err, n, "%s: reading %" PRIu64 " bytes at offset %" PRIu64
				 ": %s", d->path, pv.spans[i].len, pv.spans[i].off, strerror(-r));
			return -1;
		}
	}
	return 0;
}

static int check_spans(const struct dev *d, const struct span *spans, int nspans,
		       uint64_t *total, char *err, size_t n)
{
	*total = 0;
	for (int i = 0; i < nspans; i++) {
		const struct span *s = &spans[i];
		if (!s->len || s->off > d->size || s->len > d->size - s->off ||
		    s->off % d->lbs || s->len % d->lbs) {
			snprintf(err, n, "span %" PRIu64 "+%" PRIu64
				 " is not inside %s in whole blocks", s->off, s->len, d->path);
			return -1;
		}
		*total += s->len;
	}
	return 0;
}

static bool backup_restorable(const char *file, char *device, size_t n);

/* Why --backup=FILE could not be created; for an existing file, advice that works. */
static void explain_backup_open(const char *path, int e, char *err, size_t n)
{
	char from[PATH_MAX];

	if (e != EEXIST)
		snprintf(err, n, "--backup=%s: %s", path, strerror(e));
	else if (backup_restorable(path, from, sizeof from))
		snprintf(err, n, "--backup=%s: exists, a backup of %s from an earlier run: put it "
			 "back with flashbench --restore %s %s, or remove it", path, from, path, from);
	else
		snprintf(err, n, "--backup=%s: exists, and is no backup --restore would take: "
			 "choose another name", path);
}

int preserve_save(struct dev *d, const struct span *spans, int nspans, const char *backup_path,
		  char *err, size_t n)
{
	static bool exit_hook;
	uint64_t total;

	if (pv_armed) {
		snprintf(err, n, "already holding saved data");
		return -1;
	}
	if (nspans < 0 || check_spans(d, spans, nspans, &total, err, n) < 0)
		return -1;
	if (!backup_path && total > PRESERVE_MEMORY_MAX) {
		snprintf(err, n, "the test overwrites %" PRIu64 " bytes, more than is "
			 "kept in memory; add --backup=FILE", total);
		return -1;
	}
	dev_canonical_name(d, pv.device, sizeof pv.device);
	pv.size = d->size;
	pv.lbs = d->lbs;
	dev_identity(d, pv.identity, sizeof pv.identity);
	pv.nspans = nspans;
	pv.spans = malloc((size_t)(nspans ? nspans : 1) * sizeof *spans);
	pv.chunk = dev_alloc_buffer(CHUNK);
	pv.check = dev_alloc_buffer(CHUNK);
	if (!pv.spans || !pv.chunk || !pv.check) {
		snprintf(err, n, "out of memory");
		goto fail;
	}
	memcpy(pv.spans, spans, (size_t)nspans * sizeof *spans);
	if (d->fd >= 0 && (pv.fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		snprintf(err, n, "%s: %s", d->path, strerror(errno));
		goto fail;
	}
	if (backup_path) {
		snprintf(pv.backup_path, sizeof pv.backup_path, "%s", backup_path);
		pv.backup_fd = open(backup_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (pv.backup_fd < 0) {
			explain_backup_open(backup_path, errno, err, n);
			goto fail;
		}
		if (write_backup(d, pv.backup_fd, backup_path, err, n) < 0) {
			unlink(backup_path);
			goto fail;
		}
	} else if (save_to_memory(d, err, n) < 0) {
		goto fail;
	}
	if (!exit_hook)
		exit_hook = atexit(restore_at_exit) == 0;
	/* printing results into a closed pipe must not kill us before the restore */
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	sigaction(SIGPIPE, &ignore, &pv_old_sigpipe);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* everything above before the flag */
	pv_armed = 1;
	return 0;
fail:
	release_preserved();
	return -1;
}

/* ------------------------------------------------------------------ signals */

static volatile sig_atomic_t first_signal;

static void say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

/* The second signal: one restore attempt, then what state the device is in. */
static void restore_and_say(void)
{
	struct restore_failure f;

	pv_armed = 0;
	say("flashbench: restoring the preserved data\n");
	int r = restore_spans(&f);
	say("flashbench: ");
	say(pv.device);
	if (r == 0) {
		remove_backup();
		say(": restored and verified: as before the test\n");
	} else if (f.backup) {
		say(": nothing written back, it still holds the test's data: the backup ");
		say(pv.backup_path);
		say(f.err == EBADMSG ? " is damaged\n" : " cannot be read\n");
	} else if (pv.backup_fd >= 0) {
		say(": restoring FAILED, it holds test data where that failed; the backup is "
		    "intact: flashbench --restore ");
		say(pv.backup_path);
		say(" ");
		say(pv.device);
		say("\n");
	} else {
		say(": restoring FAILED, it holds test data where that failed\n");
	}
}

static void on_stop_signal(int sig)
{
	static volatile sig_atomic_t in_handler_restore, told_still_restoring;
	int saved_errno = errno;	/* the interrupted code may be about to read it */

	if (!first_signal) {
		first_signal = sig;
		vm_stop_requested = 1;
		progress_clear();
		say("flashbench: stopping after the current I/O (again to abort at once)\n");
		errno = saved_errno;
		return;
	}
	if (in_handler_restore || exit_after_restore) {
		/* cutting a restore short would leave the device half old, half test data */
		if (!told_still_restoring)
			say("flashbench: still restoring the preserved data; exiting when it is done\n");
		told_still_restoring = 1;
		errno = saved_errno;
		return;
	}
	if (restoring) {	/* the one restore attempt is already under way */
		exit_after_restore = sig;
		say("flashbench: exiting once the restore under way is done\n");
		errno = saved_errno;
		return;
	}
	if (pv_armed) {
		in_handler_restore = 1;
		restore_and_say();
	}
	_exit(128 + sig);
}

void safety_install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	/* not blocked in the handler: a third signal during its restore gets an answer */
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

int safety_exit_status_for_signal(void)
{
	return first_signal ? 128 + first_signal : 0;
}

/* ---------------------------------------------------------------- --restore */

struct backup_header {
	char device[PATH_MAX];
	char identity[600];
	uint64_t size, data_offset, checksum;
	unsigned int lbs;
	struct span *spans;
	int nspans;
};

/* Reads "key value" lines up to "end"; 0, or -1 with the first bad line's number. */
static int parse_backup_header(FILE *f, struct backup_header *h, int *bad_line)
{
	char line[PATH_MAX + 64];
	int lineno = 0, seen = 0;
	bool ended = false;

	while (!ended && fgets(line, sizeof line, f)) {
		lineno++;
		*bad_line = lineno;
		line[strcspn(line, "\n")] = '\0';
		unsigned long long a, b;
		int k;
		if (lineno == 1) {
			if (strcmp(line, BACKUP_MAGIC) != 0)
				return -1;
		} else if (strncmp(line, "device ", 7) == 0) {
			copy_str(h->device, sizeof h->device, line + 7);
		} else if (strncmp(line, "identity ", 9) == 0 || strcmp(line, "identity") == 0) {
			copy_str(h->identity, sizeof h->identity, line[8] ? line + 9 : "");
		} else if (sscanf(line, "size %llu%n", &a, &k) == 1 && !line[k]) {
			h->size = a;
		} else if (sscanf(line, "lbs %llu%n", &a, &k) == 1 && !line[k] && a && a <= 65536) {
			h->lbs = (unsigned int)a;
		} else if (sscanf(line, "data-offset %llu%n", &a, &k) == 1 && !line[k]) {
			h->data_offset = a;
		} else if (sscanf(line, "spans %llu%n", &a, &k) == 1 && !line[k] && a <= 1u << 20 &&
			   !h->spans) {
			h->spans = calloc(a ? a : 1, sizeof *h->spans);
			if (!h->spans)
				return -1;
			seen = (int)a;
		} else if (sscanf(line, "span %llu %llu%n", &a, &b, &k) == 2 && !line[k] &&
			   h->nspans < seen) {
			h->spans[h->nspans].off = a;
			h->spans[h->nspans].len = b;
			h->nspans++;
		} else if (sscanf(line, "checksum fnv1a64 %llx%n", &a, &k) == 1 && !line[k]) {
			h->checksum = a;
		} else if (strcmp(line, "end") == 0) {
			ended = true;
		} else {
			return -1;
		}
	}
	*bad_line = lineno + 1;
	return ended && h->spans && h->nspans == seen && h->size && h->lbs && h->data_offset ? 0
											     : -1;
}

/* Reads all span data once: a truncated or altered backup is refused before any write. */
static int verify_backup_data(int fd, const struct backup_header *h, void *buf)
{
	uint64_t sum = CHECKSUM_INIT, at = h->data_offset;

	for (int i = 0; i < h->nspans; i++) {
		for (uint64_t pos = 0; pos < h->spans[i].len; pos += CHUNK) {
			uint64_t left = h->spans[i].len - pos;
			size_t c = left < CHUNK ? (size_t)left : CHUNK;
			int e = full_io(fd, buf, c, at, false);
			if (e)
				return e == EIO ? EBADMSG : e;	/* EIO here: the file ends early */
			sum = checksum_update(sum, buf, c);
			at += c;
		}
	}
	return sum == h->checksum ? 0 : EBADMSG;
}

/* The same file or device node: both resolve to the same path (else the same string). */
static bool same_device_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (realpath(a, ra) && realpath(b, rb))
		return strcmp(ra, rb) == 0;
	return strcmp(a, b) == 0;
}

/* Whether --restore would take file (header and checksum good); the device it names. */
static bool backup_restorable(const char *file, char *device, size_t n)
{
	struct stat st;

	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return false;	/* a FIFO or a tty could block the read */
	struct backup_header *h = calloc(1, sizeof *h);
	FILE *f = fopen(file, "re");
	void *buf = malloc(CHUNK);
	int bad_line;
	bool ok = h && f && buf && parse_backup_header(f, h, &bad_line) == 0 &&
		  verify_backup_data(fileno(f), h, buf) == 0;

	if (ok)
		copy_str(device, n, h->device);
	if (f)
		fclose(f);
	if (h)
		free(h->spans);
	free(h);
	free(buf);
	return ok;
}

static int restore_checks(const char *file, const char *device, const struct dev *d,
			  const struct backup_header *h, bool force)
{
	char identity[600];

	if (d->size != h->size) {
		fprintf(stderr, "flashbench: --restore: %s has %" PRIu64 " bytes but %s was taken "
			"from %s with %" PRIu64 " bytes; not restoring\n",
			device, d->size, file, h->device, h->size);
		return 2;
	}
	dev_identity(d, identity, sizeof identity);
	if (!force && strcmp(identity, h->identity) != 0) {
		fprintf(stderr, "flashbench: --restore: %s is \"%s\" but %s was taken from \"%s\" "
			"(%s); not restoring (--force: restore anyway)\n", device,
			identity[0] ? identity : "unidentified", file,
			h->identity[0] ? h->identity : "unidentified", h->device);
		return 2;
	}
	if (!force && !same_device_path(device, h->device)) {
		fprintf(stderr, "flashbench: --restore: %s was taken from %s, not %s; not restoring "
			"(--force: restore anyway)\n", file, h->device, device);
		return 2;
	}
	for (int i = 0; i < h->nspans; i++) {
		const struct span *s = &h->spans[i];
		if (!s->len || s->off > d->size || s->len > d->size - s->off ||
		    s->off % d->lbs || s->len % d->lbs) {
			fprintf(stderr, "flashbench: --restore: %s: span %" PRIu64 "+%" PRIu64
				" does not fit %s; not restoring\n", file, s->off, s->len, device);
			return 2;
		}
	}
	return 0;
}

static int open_restore_target(const char *device, struct dev *d)
{
	char err[PATH_MAX * 2 + 256];
	int r;

	if (safety_check_write_target(device, err, sizeof err) < 0) {
		fprintf(stderr, "flashbench: --restore: %s\n", err);
		return 1;
	}
	r = dev_open(d, device, DEV_WRITE | DEV_EXCL, err, sizeof err);
	if (r == -EBUSY)
		safety_explain_busy(device, err, sizeof err);
	if (r < 0) {
		fprintf(stderr, "flashbench: --restore: %s\n", err);
		return r == -EINVAL ? 2 : 1;
	}
	return 0;
}

static int read_backup(const char *file, struct backup_header *h, int *fd)
{
	struct stat st;
	int bad_line = 0, e;

	if (stat(file, &st) == 0 && !S_ISREG(st.st_mode)) {	/* a FIFO would block, a pipe no pread */
		fprintf(stderr, "flashbench: --restore: %s: not a regular file\n", file);
		return 2;
	}
	FILE *f = fopen(file, "re");
	if (!f) {
		fprintf(stderr, "flashbench: --restore: %s: %s\n", file, strerror(errno));
		return 2;
	}
	if (parse_backup_header(f, h, &bad_line) < 0) {
		fprintf(stderr, "flashbench: --restore: %s: not a flashbench backup (line %d)\n",
			file, bad_line);
		fclose(f);
		return 2;
	}
	*fd = dup(fileno(f));
	fclose(f);
	if (*fd < 0) {
		fprintf(stderr, "flashbench: --restore: %s: %s\n", file, strerror(errno));
		return 1;
	}
	void *buf = malloc(CHUNK);
	e = buf ? verify_backup_data(*fd, h, buf) : ENOMEM;
	free(buf);
	if (e) {
		fprintf(stderr, "flashbench: --restore: %s: %s\n", file,
			e == EBADMSG ? "damaged (checksum or length mismatch); not restoring"
				     : strerror(e));
		return e == EBADMSG ? 2 : 1;
	}
	return 0;
}

int restore_command(const char *backup_path, const char *device)
{
	return restore_command_opts(backup_path, device, false);
}

int restore_command_opts(const char *backup_path, const char *device, bool force)
{
	struct backup_header *h = calloc(1, sizeof *h);
	struct dev d = { .fd = -1 };
	struct restore_failure f = { 0 };
	int backup_fd = -1, rc;
	uint64_t total = 0;

	if (!h) {
		fprintf(stderr, "flashbench: --restore: out of memory\n");
		return 1;
	}
	rc = read_backup(backup_path, h, &backup_fd);
	if (!rc)
		rc = open_restore_target(device, &d);
	if (!rc)
		rc = restore_checks(backup_path, device, &d, h, force);
	if (rc || pv_armed) {
		if (!rc)
			rc = 1;
		goto out;
	}
	snprintf(pv.device, sizeof pv.device, "%s", device);
	snprintf(pv.backup_path, sizeof pv.backup_path, "%s", backup_path);
	pv.spans = h->spans;
	pv.nspans = h->nspans;
	h->spans = NULL;
	pv.data_offset = h->data_offset;
	pv.checksum = h->checksum;
	pv.backup_fd = backup_fd;
	backup_fd = -1;
	pv.fd = d.fd >= 0 ? fcntl(d.fd, F_DUPFD_CLOEXEC, 0) : -1;
	pv.chunk = dev_alloc_buffer(CHUNK);
	pv.check = dev_alloc_buffer(CHUNK);
	if ((d.fd >= 0 && pv.fd < 0) || !pv.chunk || !pv.check) {
		fprintf(stderr, "flashbench: --restore: %s\n", strerror(errno ? errno : ENOMEM));
		rc = 1;
	} else if (restore_spans(&f) < 0) {
		char err[PATH_MAX * 2 + 256];
		describe_restore_failure(&f, err, sizeof err);
		fprintf(stderr, "flashbench: --restore: %s\n", err);
		rc = 1;
	} else {
		for (int i = 0; i < pv.nspans; i++)
			total += pv.spans[i].len;
		printf("restored %" PRIu64 " bytes in %d span%s to %s, verified\n", total,
		       pv.nspans, pv.nspans == 1 ? "" : "s", device);
	}
	release_preserved();
out:
	if (backup_fd >= 0)
		close(backup_fd);
	dev_close(&d);
	free(h->spans);
	free(h);
	return rc;
}
