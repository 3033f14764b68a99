/*
 * The lock a run holds on what it tests: BSD flock on the whole-disk node
 * (systemd's block-device locking convention), on the files and devices a
 * loop or dm/md device rests on, and on a regular image file; the holder
 * of a lock that is taken, from /proc/locks.
 */
#include "safety/lock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"

#define MAX_LOCKS 16
#define MAX_DEPTH 8		/* loops over loops, dm over loops: a few levels */
#define MAX_HOLDERS 3		/* named in the message */
#define RETRY_NS 50000000L	/* between tries while udev probes */
#define UDEV_TRIES 60		/* 3 s: a probe takes a fraction of that */
#define UNSEEN_TRIES 4		/* a holder that does not show: perhaps just released */

/* What is locked: its path, and what it is to the device under test (for messages). */
struct lock_item {
	bool stand_in;		/* a lock file of ours, created if need be (no path reaches the file) */
	char path[PATH_MAX];
	char role[2 * PATH_MAX + 64];	/* "the backing file of /dev/loop1"; "" for the device itself */
};

struct lock_set {
	struct lock_item it[MAX_LOCKS];
	int n;
};

static int held[MAX_LOCKS];	/* never closed: the locks last as long as the process */
static int nheld;
static struct stat target;	/* what the path named when it was locked */
static bool have_target;

static void add_item(struct lock_set *s, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* fmt: the role, "" for the device under test itself */
static void add_item(struct lock_set *s, const char *path, const char *fmt, ...)
{
	va_list ap;

	if (s->n >= MAX_LOCKS)
		return;
	struct lock_item *it = &s->it[s->n++];
	snprintf(it->path, sizeof it->path, "%s", path);
	va_start(ap, fmt);
	vsnprintf(it->role, sizeof it->role, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------- what to lock */

static bool read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(buf, (int)n, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static bool dev_numbers(const char *sysdir, unsigned int *ma, unsigned int *mi)
{
	char path[PATH_MAX + 8], line[64];

	snprintf(path, sizeof path, "%s/dev", sysdir);
	return read_line(path, line, sizeof line) && sscanf(line, "%u:%u", ma, mi) == 2;
}

/* The device node of the disk in sysdir: /dev/DEVNAME from its uevent, if it is that device. */
static bool disk_node(const char *sysdir, char *node, size_t n)
{
	char path[PATH_MAX + 16], line[NAME_MAX + 16];
	unsigned int ma, mi;
	struct stat st;
	FILE *f;
	bool found = false;

	snprintf(path, sizeof path, "%s/uevent", sysdir);
	if (!dev_numbers(sysdir, &ma, &mi) || !(f = fopen(path, "re")))
		return false;
	while (!found && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "DEVNAME=", 8) != 0)
			continue;
		snprintf(node, n, "/dev/%s", line + 8);
		found = stat(node, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == ma &&
			minor(st.st_rdev) == mi;
	}
	fclose(f);
	return found;
}

static void collect_block(struct lock_set *s, unsigned int ma, unsigned int mi, const char *name,
			  const char *under, int depth);

/*
 * A loop device whose backing file no path reaches any more (deleted, or
 * replaced by another file of that name) is still one storage with every
 * other loop device over that file: they meet on a lock file named for its
 * device and inode (LOOP_GET_STATUS64), in /run/lock (else /tmp).
 */
enum backing { BACKING_GONE, BACKING_AT_PATH, BACKING_STAND_IN };

static enum backing backing_reached(const char *disk, const char *back, struct stat *st,
				    char *stand_in, size_t n)
{
	struct loop_info64 info;
	int fd = open(disk, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	bool got = fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &info) == 0;

	if (fd >= 0)
		close(fd);
	bool found = stat(back, st) == 0;
	if (!got)	/* the kernel says nothing more: the path it is, if any */
		return found ? BACKING_AT_PATH : BACKING_GONE;
	if (found && (S_ISBLK(st->st_mode) ? st->st_rdev == (dev_t)info.lo_rdevice
			  : st->st_dev == (dev_t)info.lo_device && st->st_ino == (ino_t)info.lo_inode))
		return BACKING_AT_PATH;
	snprintf(stand_in, n, "%s/flashbench.loop-backing.%llx.%llu.lock",
		 access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp",
		 (unsigned long long)info.lo_device, (unsigned long long)info.lo_inode);
	return BACKING_STAND_IN;
}

/* A loop device's backing file, or the disk under it: locked too. */
static void collect_backing(struct lock_set *s, const char *sysdir, const char *disk, int depth)
{
	char path[PATH_MAX + 32], back[PATH_MAX], stand_in[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof path, "%s/loop/backing_file", sysdir);
	if (!read_line(path, back, sizeof back))
		return;		/* not a loop device */
	enum backing b = backing_reached(disk, back, &st, stand_in, sizeof stand_in);
	if (b == BACKING_GONE)
		return;
	if (b == BACKING_STAND_IN) {
		int before = s->n;
		add_item(s, stand_in, "the lock file for the backing file of %s (%s)", disk, back);
		if (s->n > before)
			s->it[before].stand_in = true;
		return;
	}
	if (S_ISREG(st.st_mode))
		add_item(s, back, "the backing file of %s", disk);
	else if (S_ISBLK(st.st_mode)) {
		char under[PATH_MAX + 32];
		snprintf(under, sizeof under, "the backing device of %s", disk);
		collect_block(s, major(st.st_rdev), minor(st.st_rdev), back, under, depth + 1);
	}
}

/* The devices a dm or md device is made of ("slaves"): writing it writes them. */
static void collect_slaves(struct lock_set *s, const char *sysdir, const char *disk, int depth)
{
	char path[PATH_MAX + 16], slave[PATH_MAX + NAME_MAX + 24], under[PATH_MAX + 32];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof path, "%s/slaves", sysdir);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		unsigned int ma, mi;
		if (e->d_name[0] == '.')
			continue;
		snprintf(slave, sizeof slave, "%s/%s", path, e->d_name);
		snprintf(under, sizeof under, "a device under %s", disk);
		if (dev_numbers(slave, &ma, &mi))
			collect_block(s, ma, mi, e->d_name, under, depth + 1);
	}
	closedir(d);
}

/*
 * The whole disk of block device ma:mi (named name; under: what it is to
 * the device under test, NULL for that device itself), and what it rests
 * on. Without a node for the disk (no sysfs, no /dev entry) the device.
 */
static void collect_block(struct lock_set *s, unsigned int ma, unsigned int mi, const char *name,
			  const char *under, int depth)
{
	char link[64], dir[PATH_MAX], node[NAME_MAX + 16], part_file[PATH_MAX + 16];

	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", ma, mi);
	if (depth > MAX_DEPTH || !realpath(link, dir)) {
		add_item(s, name, "%s", under ? under : "");
		return;
	}
	snprintf(part_file, sizeof part_file, "%s/partition", dir);
	bool partition = access(part_file, F_OK) == 0;
	if (partition)
		*strrchr(dir, '/') = '\0';	/* the disk's directory holds its partitions' */
	if (!disk_node(dir, node, sizeof node)) {
		snprintf(node, sizeof node, "%s", name);
		partition = false;	/* no node of the disk: the partition's own */
	}
	if (partition)
		add_item(s, node, "the disk %s is on%s%s", name, under ? ", " : "", under ? under : "");
	else
		add_item(s, node, "%s", under ? under : "");
	collect_backing(s, dir, node, depth);
	collect_slaves(s, dir, node, depth);
}

/* ------------------------------------------------------------- holders */

struct holders {
	int n;			/* locks on the file other than ours */
	bool all_udev;		/* and each of them udev's */
	bool writer;		/* one of them is exclusive */
	char who[3 * 256];	/* "process 12 (flashbench -a /dev/loop0)" ... */
};

/* The command line of pid, one line: arguments joined by spaces, control bytes as '?'. */
static void process_line(int pid, char *out, size_t n)
{
	char path[64], buf[256];
	size_t len = 0;

	snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t r = read(fd, buf, sizeof buf - 1);
		len = r > 0 ? (size_t)r : 0;
		close(fd);
	}
	while (len && buf[len - 1] == '\0')
		len--;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
		else if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	buf[len] = '\0';
	if (!len) {	/* a kernel thread, or gone: its name */
		snprintf(path, sizeof path, "/proc/%d/comm", pid);
		if (!read_line(path, buf, sizeof buf))
			snprintf(buf, sizeof buf, "?");
	}
	snprintf(out, n, "%s", buf);
}

static bool is_udev(int pid)
{
	char path[64], comm[64];

	snprintf(path, sizeof path, "/proc/%d/comm", pid);
	return read_line(path, comm, sizeof comm) &&
	       (strcmp(comm, "systemd-udevd") == 0 || strcmp(comm, "(udev-worker)") == 0 ||
		strcmp(comm, "udevadm") == 0);
}

/* The BSD locks on st's file that are not ours, from /proc/locks. */
static void find_holders(const struct stat *st, struct holders *h)
{
	char line[256];
	FILE *f = fopen("/proc/locks", "re");
	size_t l = 0;

	memset(h, 0, sizeof *h);
	h->all_udev = true;
	while (f && fgets(line, sizeof line, f)) {
		char type[16], mode[16];
		unsigned int ma, mi;
		unsigned long ino;
		int pid;
		if (strstr(line, "->") ||	/* a waiter, not a holder */
		    sscanf(line, "%*d: %15s %*s %15s %d %x:%x:%lu", type, mode, &pid, &ma, &mi,
			   &ino) != 6 ||
		    strcmp(type, "FLOCK") != 0 || ma != major(st->st_dev) || mi != minor(st->st_dev) ||
		    ino != (unsigned long)st->st_ino || pid == (int)getpid())
			continue;
		h->n++;
		h->writer |= strcmp(mode, "WRITE") == 0;
		h->all_udev &= pid > 0 && is_udev(pid);
		if (h->n <= MAX_HOLDERS && l < sizeof h->who) {
			char cmd[256];
			if (pid > 0)
				process_line(pid, cmd, sizeof cmd);
			l += (size_t)snprintf(h->who + l, sizeof h->who - l, pid > 0 ?
					      "%sprocess %d (%s)" : "%sa process of another pid "
					      "namespace", h->n > 1 ? ", " : "", pid, cmd);
		}
	}
	if (f)
		fclose(f);
	if (!h->n)
		h->all_udev = false;
}

static void refusal(const char *name, const struct lock_item *it, const struct holders *h,
		    bool exclusive, char *err, size_t n)
{
	const char *why = !exclusive ? "another run is writing to the same storage, and this "
				       "test would time its I/O too; not reading it"
			  : h->n && !h->writer ? "another run is reading it, and would time these "
						 "writes too; not writing to it"
			  : "another run is writing to the same storage; not writing to it";

	const char *who = h->n ? h->who : "a process that cannot be seen from here";

	if (it->role[0])
		snprintf(err, n, "%s: %s, %s, is locked by %s: %s", name, it->path, it->role, who, why);
	else if (strcmp(it->path, name) != 0)	/* the node a link leads to */
		snprintf(err, n, "%s: %s is locked by %s: %s", name, it->path, who, why);
	else
		snprintf(err, n, "%s is locked by %s: %s", name, who, why);
}

/* ---------------------------------------------------------------- locking */

static bool already_held(const struct stat *st)
{
	struct stat o;

	for (int i = 0; i < nheld; i++)
		if (fstat(held[i], &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
			return true;
	return false;
}

/* 0: locked, or nothing to lock here; -1: taken by another (err says by whom). */
static int lock_one(const char *name, const struct lock_item *it, bool exclusive, char *err,
		    size_t n)
{
	struct stat st;
	struct holders h;
	int fd = it->stand_in ? open(it->path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644)
			      : open(it->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return 0;	/* no medium, no permission: nobody else locks it through us */
	if (fstat(fd, &st) < 0 || already_held(&st) || nheld >= MAX_LOCKS) {
		close(fd);
		return 0;
	}
	for (int tries = 0;; tries++) {
		if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) {
			held[nheld++] = fd;
			return 0;
		}
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			close(fd);
			return 0;	/* a file system without flock: nothing to honour */
		}
		find_holders(&st, &h);
		if ((h.all_udev && tries < UDEV_TRIES) || (!h.n && tries < UNSEEN_TRIES)) {
			struct timespec ts = { 0, RETRY_NS };
			nanosleep(&ts, NULL);
			continue;
		}
		refusal(name, it, &h, exclusive, err, n);
		close(fd);
		return -1;
	}
}

int safety_lock_device(const char *path, bool exclusive, char *err, size_t n)
{
	struct lock_set *s;
	struct stat st;
	int r = 0;

	if (dev_path_is_sim(path) || stat(path, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return 0;	/* nothing to lock: open() says what it is */
	if (!(s = calloc(1, sizeof *s))) {
		snprintf(err, n, "%s: out of memory", path);
		return -1;
	}
	if (S_ISREG(st.st_mode))
		add_item(s, path, "%s", "");
	else
		collect_block(s, major(st.st_rdev), minor(st.st_rdev), path, NULL, 0);
	for (int i = 0; i < s->n && r == 0; i++)
		r = lock_one(path, &s->it[i], exclusive, err, n);
	free(s);
	target = st;
	have_target = r == 0;
	return r;
}

bool safety_lock_covers(int fd)
{
	struct stat st;

	if (!have_target)
		return true;
	if (fstat(fd, &st) < 0 || (st.st_mode & S_IFMT) != (target.st_mode & S_IFMT))
		return false;
	return S_ISBLK(st.st_mode) ? st.st_rdev == target.st_rdev
				   : st.st_dev == target.st_dev && st.st_ino == target.st_ino;
}

/* ---------------------------------------------------------------- files a run writes */

int safety_lock_holders(const struct stat *st, char *who, size_t n)
{
	struct holders h;

	find_holders(st, &h);
	snprintf(who, n, "%s", h.n ? h.who : "");
	return h.n;
}

int safety_lock_file(int fd, const char *what, char *err, size_t n)
{
	struct stat st;
	char who[sizeof ((struct holders *)0)->who];

	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK || fstat(fd, &st) < 0)
			return 0;	/* a file system without flock: nothing to honour */
		if (!safety_lock_holders(&st, who, sizeof who))
			snprintf(who, sizeof who, "a process that cannot be seen from here");
		snprintf(err, n, "%s is locked by %s, a run still going", what, who);
		return -1;
	}
	return 0;
}
