/* The backend for block devices and regular files: O_DIRECT, pread/pwrite. */
#include "dev.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"

static void file_close(struct dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

static void not_a_disk(const char *path, mode_t mode, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: not a block device or regular file (%s)", path,
		 S_ISFIFO(mode) ? "a FIFO" : S_ISDIR(mode) ? "a directory" :
		 S_ISCHR(mode) ? "a character device" : S_ISSOCK(mode) ? "a socket" :
		 "another kind of file");
}

static int probe_geometry(struct dev *d, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(d->fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		int lbs = 0;
		unsigned int pbs = 0;
		d->blockdev = true;
		d->ops = &dev_block_ops;
		if (ioctl(d->fd, BLKGETSIZE64, &d->size) < 0)
			return -errno;
		if (ioctl(d->fd, BLKSSZGET, &lbs) < 0 || lbs <= 0)
			lbs = 512;
		if (ioctl(d->fd, BLKPBSZGET, &pbs) < 0 || !pbs)
			pbs = (unsigned int)lbs;
		d->lbs = (unsigned int)lbs;
		d->pbs = pbs;
	} else if (S_ISREG(st.st_mode)) {
		d->size = (uint64_t)st.st_size;
		d->lbs = 512;
		d->pbs = st.st_blksize > 0 ? (unsigned int)st.st_blksize : 512;
	} else {
		not_a_disk(d->path, st.st_mode, err, errlen);
		return -ENODEV;
	}
	return 0;
}

int dev_file_open(struct dev *d, const char *path, unsigned int flags, char *err, size_t errlen)
{
	int oflags = O_DIRECT | O_CLOEXEC;
	oflags |= (flags & DEV_WRITE) ? O_RDWR | (flags & DEV_NOSYNC ? 0 : O_SYNC) : O_RDONLY;
	struct stat st;
	if (stat(path, &st) == 0) {
		if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
			not_a_disk(path, st.st_mode, err, errlen);
			return -ENODEV;
		}
		if ((flags & DEV_EXCL) && S_ISBLK(st.st_mode))
			oflags |= O_EXCL;
	}
	/*
	 * O_NONBLOCK: a FIFO or a tty must not hang open(); dropped once it is
	 * a disk or file. O_NOATIME as the original, where we may (owner or root).
	 */
	d->fd = open(path, oflags | O_NONBLOCK | O_NOATIME);
	if (d->fd < 0 && errno == EPERM)
		d->fd = open(path, oflags | O_NONBLOCK);
	if (d->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	d->ops = &dev_file_ops;
	int r = probe_geometry(d, err, errlen);
	int fl = fcntl(d->fd, F_GETFL);
	if (r == 0 && (fl < 0 || fcntl(d->fd, F_SETFL, (oflags & ~(O_CLOEXEC | O_EXCL)) | (fl & O_NOATIME)) < 0))
		r = -errno;
	if (r < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
		file_close(d);
		d->ops = NULL;
		return r;
	}
	return 0;
}

static inline int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * pread/pwrite all of len bytes at off, continuing short transfers; with
 * wrap_at (the device size), the part past it from offset 0 on: one call
 * of the whole length (the kernel returns the part up to the end), then
 * the rest, as the original read across the end. wrap_at 0: no wrapping.
 */
static int transfer_all(int fd, char *p, uint64_t len, uint64_t off, bool write, uint64_t wrap_at)
{
	while (len) {
		ssize_t n = write ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;	/* unexpected end of device */
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
		if (wrap_at && off >= wrap_at)
			off = 0;
	}
	return 0;
}

int dev_fd_transfer(int fd, void *buf, uint64_t len, uint64_t off, bool write)
{
	return transfer_all(fd, buf, len, off, write, 0);
}

/* The timing bracket: the clock is read right around the syscalls, nothing else inside. */
static int file_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			 int64_t *ns)
{
	int64_t t0 = now_ns();
	int r = dev_fd_transfer(d->fd, buf, len, off, write);
	*ns = now_ns() - t0;
	return r;
}

static int file_read_wrap(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	int64_t t0 = now_ns();
	int r = transfer_all(d->fd, buf, len, off, false, d->size);
	*ns = now_ns() - t0;
	return r;
}

static int discard_range(const struct dev *d, uint64_t off, uint64_t len)
{
	if (d->blockdev) {
		uint64_t range[2] = { off, len };
		return ioctl(d->fd, BLKDISCARD, range) < 0 ? -errno : 0;
	}
	if (fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0)
		return -errno;
	return 0;
}

static int file_discard(struct dev *d, uint64_t off, uint64_t len, int64_t *ns)
{
	int64_t t0 = now_ns();
	int r = discard_range(d, off, len);
	*ns = now_ns() - t0;
	return r;
}

static int file_copy(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write)
{
	return dev_fd_transfer(d->fd, buf, len, off, write);
}

/* Something that tells this device from another of the same size; "" if nothing. */
static void file_identity(const struct dev *d, char *out, size_t n)
{
	static const char *const attrs[] = {
		"device/cid", "device/serial", "device/wwid", "loop/backing_file",
		"../device/cid", "../device/serial", "../device/wwid", "../loop/backing_file",
	};
	struct stat st;
	char dir[64], path[PATH_MAX];

	out[0] = '\0';
	if (fstat(d->fd, &st) < 0)
		return;
	if (S_ISREG(st.st_mode)) {	/* another file of the same size is another device */
		snprintf(out, n, "file:%u:%u:%llu", major(st.st_dev), minor(st.st_dev),
			 (unsigned long long)st.st_ino);
		return;
	}
	if (!S_ISBLK(st.st_mode))
		return;
	snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, attrs[i]);
		FILE *f = fopen(path, "re");
		char line[512];
		if (!f)
			continue;
		if (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, n, "%s:%s", strrchr(attrs[i], '/') + 1, line);
		}
		fclose(f);
		if (out[0])
			break;
	}
	/* a partition: which one matters as much as the disk */
	snprintf(path, sizeof path, "%s/start", dir);
	FILE *f = fopen(path, "re");
	unsigned long long start;
	if (f) {
		if (fscanf(f, "%llu", &start) == 1)
			fmt_append(out, n, " start:%llu", start);
		fclose(f);
	}
}

/* absolute, so that --restore can compare it from any directory */
static void file_canonical_name(const struct dev *d, char *out, size_t n)
{
	char path[PATH_MAX];

	snprintf(out, n, "%s", realpath(d->path, path) ? path : d->path);
}

#define FILE_OPS(name) \
	.kind = name, \
	.transfer = file_transfer, \
	.read_wrap = file_read_wrap, \
	.discard = file_discard, \
	.transfer_queued = dev_file_queued, \
	.copy = file_copy, \
	.identity = file_identity, \
	.canonical_name = file_canonical_name, \
	.close = file_close

const struct dev_ops dev_block_ops = { FILE_OPS("block_device") };
const struct dev_ops dev_file_ops = { FILE_OPS("regular_file") };
