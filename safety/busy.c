/*
 * Why a device is busy (open() failed with EBUSY under O_EXCL): a mount in
 * another mount namespace, or a process holding it open exclusively. The
 * kernel does not say which of the processes that have it open holds it
 * exclusively, so with several they are all named.
 */
#include "safety/safety_target.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define REFUSAL "; not writing to it"
#define MAX_OPENERS 4
#define MAX_NAMESPACES 64

/* The device and, for a whole disk, its partitions: what a mount of any of them holds. */
struct devnums {
	dev_t d[64];
	int n;
};

static void family_numbers(dev_t rdev, struct devnums *nums)
{
	char dir[64], path[PATH_MAX];
	DIR *d;
	struct dirent *e;

	nums->d[0] = rdev;
	nums->n = 1;
	snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d)) && nums->n < 64) {
		unsigned int ma, mi;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/partition", dir, e->d_name);
		if (access(path, F_OK) < 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/dev", dir, e->d_name);
		FILE *f = fopen(path, "re");
		if (f && fscanf(f, "%u:%u", &ma, &mi) == 2)
			nums->d[nums->n++] = makedev(ma, mi);
		if (f)
			fclose(f);
	}
	closedir(d);
}

struct ns_mount {
	const struct devnums *nums;
	char mountpoint[4096];
};

static bool mounts_one(const struct mount_entry *m, void *arg)
{
	struct ns_mount *nm = arg;

	for (int i = 0; i < nm->nums->n; i++)
		if (major(nm->nums->d[i]) == m->major && minor(nm->nums->d[i]) == m->minor) {
			snprintf(nm->mountpoint, sizeof nm->mountpoint, "%s", m->mountpoint);
			return true;
		}
	return false;
}

static void process_comm(const char *pid, char *comm, size_t n)
{
	char path[NAME_MAX + 16];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%s/comm", pid);
	comm[0] = '\0';
	if ((f = fopen(path, "re"))) {
		if (fgets(comm, (int)n, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	if (!comm[0])
		snprintf(comm, n, "?");
}

/* A mount of the device in a mount namespace other than ours: where, and a process in it. */
static bool find_foreign_mount(const struct devnums *nums, char *msg, size_t n)
{
	char own[64] = "", seen[MAX_NAMESPACES][64];
	int nseen = 0;
	ssize_t l = readlink("/proc/self/ns/mnt", own, sizeof own - 1);
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool found = false;

	if (l > 0)
		own[l] = '\0';
	while (d && !found && (e = readdir(d))) {
		char link[NAME_MAX + 16], ns[64], path[NAME_MAX + 24];
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(link, sizeof link, "/proc/%s/ns/mnt", e->d_name);
		l = readlink(link, ns, sizeof ns - 1);
		if (l <= 0)
			continue;
		ns[l] = '\0';
		bool known = strcmp(ns, own) == 0;
		for (int i = 0; i < nseen && !known; i++)
			known = strcmp(ns, seen[i]) == 0;
		if (known)
			continue;
		if (nseen < MAX_NAMESPACES)
			snprintf(seen[nseen++], sizeof seen[0], "%s", ns);
		struct ns_mount nm = { .nums = nums };
		snprintf(path, sizeof path, "/proc/%s/mountinfo", e->d_name);
		if (mountinfo_each(path, mounts_one, &nm)) {
			char comm[64];
			process_comm(e->d_name, comm, sizeof comm);
			found = snprintf(msg, n, "mounted on %s in another mount namespace (that of "
					 "process %s (%s))", nm.mountpoint, e->d_name, comm) > 0;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* Whether process pid has the block device rdev open. */
static bool process_has_open(const char *pid, dev_t rdev)
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
	return found;
}

/* The other processes with rdev open, "process 12 (a), process 34 (b)"; how many there are. */
static int find_openers(dev_t rdev, char *who, size_t n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int count = 0;
	size_t l = 0;

	who[0] = '\0';
	while (d && (e = readdir(d))) {
		char comm[64];
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == (int)getpid() ||
		    !process_has_open(e->d_name, rdev))
			continue;
		if (++count <= MAX_OPENERS && l < n) {
			process_comm(e->d_name, comm, sizeof comm);
			l += (size_t)snprintf(who + l, n - l, "%sprocess %s (%s)", count > 1 ? ", " : "",
					      e->d_name, comm);
		}
	}
	if (count > MAX_OPENERS && l < n)
		snprintf(who + l, n - l, " and %d more", count - MAX_OPENERS);
	if (d)
		closedir(d);
	return count;
}

void safety_explain_busy(const char *path, char *msg, size_t n)
{
	char who[PATH_MAX + 256];
	struct stat st;
	struct devnums nums;

	if (safety_check_write_target(path, msg, n) < 0)
		return;
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(msg, n, "%s is busy: something else has it open exclusively" REFUSAL, path);
		return;
	}
	family_numbers(st.st_rdev, &nums);
	if (find_foreign_mount(&nums, who, sizeof who)) {
		snprintf(msg, n, "%s is busy: %s" REFUSAL, path, who);
		return;
	}
	int openers = find_openers(st.st_rdev, who, sizeof who);
	if (openers == 1)
		snprintf(msg, n, "%s is busy: %s has it open exclusively" REFUSAL, path, who);
	else if (openers > 1)	/* the kernel does not say which one holds it */
		snprintf(msg, n, "%s is busy: one of the processes that have it open holds it "
			 "exclusively: %s" REFUSAL, path, who);
	else
		snprintf(msg, n, "%s is busy: something else has it open exclusively "
			 "(a kernel driver, or a mount this process cannot see)" REFUSAL, path);
}
