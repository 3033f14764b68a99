#include "dev.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

#define BUFFER_ALIGN 4096

static int open_sim(struct dev *d, const char *path, char *err, size_t errlen)
{
	d->sim = sim_create(path + 4, err, errlen);
	if (!d->sim)
		return -EINVAL;
	d->size = sim_size(d->sim);
	d->lbs = d->pbs = sim_block_size(d->sim);
	return 0;
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

int dev_open(struct dev *d, const char *path, unsigned int flags, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	d->path = path;
	d->fd = -1;
	d->writable = flags & DEV_WRITE;
	err[0] = '\0';

	if (strncmp(path, "sim:", 4) == 0)
		return open_sim(d, path, err, errlen);

	int oflags = O_DIRECT | O_CLOEXEC;
	oflags |= (flags & DEV_WRITE) ? O_RDWR | O_SYNC : O_RDONLY;
	struct stat st;
	if (stat(path, &st) == 0) {
		if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
			not_a_disk(path, st.st_mode, err, errlen);
			return -ENODEV;
		}
		if ((flags & DEV_EXCL) && S_ISBLK(st.st_mode))
			oflags |= O_EXCL;
	}
	/* O_NONBLOCK: a FIFO or a tty must not hang open(); dropped once it is a disk or file */
	d->fd = open(path, oflags | O_NONBLOCK);
	if (d->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	int r = probe_geometry(d, err, errlen);
	if (r == 0 && fcntl(d->fd, F_SETFL, oflags & ~(O_CLOEXEC | O_EXCL)) < 0)
		r = -errno;
	if (r < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
		dev_close(d);
		return r;
	}
	return 0;
}

void dev_close(struct dev *d)
{
	if (d->sim)
		sim_destroy(d->sim);
	if (d->fd >= 0)
		close(d->fd);
	d->sim = NULL;
	d->fd = -1;
}

/* A sim: card keeps data only while sim_data_enable()d; else buffers stay as they are. */
static void sim_data_copy(struct sim *s, void *buf, uint64_t len, uint64_t off, bool write)
{
	struct sim_store *st = sim_data(s);
	if (st && write)
		sim_store_write(st, off, buf, len);
	else if (st)
		sim_store_read(st, off, buf, len);
}

static bool range_ok(const struct dev *d, uint64_t len, uint64_t off)
{
	return len && off <= d->size && len <= d->size - off &&
	       off % d->lbs == 0 && len % d->lbs == 0;
}

static inline int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int fd_transfer(int fd, void *buf, uint64_t len, uint64_t off, bool write)
{
	char *p = buf;

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
	}
	return 0;
}

static int timed_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			  int64_t *ns)
{
	int r;
	int64_t t;

	if (!range_ok(d, len, off))
		return -EINVAL;
	if (d->sim) {
		r = write ? sim_write(d->sim, off, len, &t) : sim_read(d->sim, off, len, &t);
		if (r == 0)
			sim_data_copy(d->sim, buf, len, off, write);
	} else {
		int64_t t0 = now_ns();
		r = fd_transfer(d->fd, buf, len, off, write);
		t = now_ns() - t0;
	}
	if (r < 0)
		return r;
	*ns = t;
	d->device_ns += t;
	if (write)
		d->bytes_written += len;
	else
		d->bytes_read += len;
	return 0;
}

int dev_read(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	return timed_transfer(d, buf, len, off, false, ns);
}

int dev_write(struct dev *d, const void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	if (!d->writable)
		return -EBADF;
	return timed_transfer(d, (void *)buf, len, off, true, ns);
}

static int discard_range(struct dev *d, uint64_t off, uint64_t len)
{
	if (d->blockdev) {
		uint64_t range[2] = { off, len };
		return ioctl(d->fd, BLKDISCARD, range) < 0 ? -errno : 0;
	}
	if (fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0)
		return -errno;
	return 0;
}

int dev_discard(struct dev *d, uint64_t off, uint64_t len, int64_t *ns)
{
	int r;
	int64_t t;

	if (!d->writable)
		return -EBADF;
	if (!range_ok(d, len, off))
		return -EINVAL;
	if (d->sim) {
		r = sim_discard(d->sim, off, len, &t);
	} else {
		int64_t t0 = now_ns();
		r = discard_range(d, off, len);
		t = now_ns() - t0;
	}
	if (r < 0)
		return r;
	*ns = t;
	d->device_ns += t;
	d->bytes_discarded += len;
	return 0;
}

int dev_pread_all(struct dev *d, void *buf, uint64_t len, uint64_t off)
{
	if (!range_ok(d, len, off))
		return -EINVAL;
	if (d->sim) {
		memset(buf, 0, len);	/* unless its data is kept */
		sim_data_copy(d->sim, buf, len, off, false);
		return 0;
	}
	return fd_transfer(d->fd, buf, len, off, false);
}

int dev_pwrite_all(struct dev *d, const void *buf, uint64_t len, uint64_t off)
{
	if (!d->writable)
		return -EBADF;
	if (!range_ok(d, len, off))
		return -EINVAL;
	if (d->sim) {
		sim_data_copy(d->sim, (void *)buf, len, off, true);
		return 0;
	}
	return fd_transfer(d->fd, (void *)buf, len, off, true);
}

void *dev_alloc_buffer(size_t len)
{
	void *p;

	if (posix_memalign(&p, BUFFER_ALIGN, len ? len : BUFFER_ALIGN))
		return NULL;
	return p;
}

/* xorshift64*: cheap, seeded, good enough to defeat compression/dedup in controllers */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

void fill_pattern(void *buf, size_t len, enum pattern p, uint64_t seed)
{
	switch (p) {
	case PAT_ZERO:
		memset(buf, 0x00, len);
		break;
	case PAT_ONES:
		memset(buf, 0xff, len);
		break;
	case PAT_5A:
		memset(buf, 0x5a, len);
		break;
	case PAT_RANDOM: {
		uint64_t s = seed | 1, *w = buf;
		for (size_t i = 0; i < len / 8; i++)
			w[i] = next_random(&s);
		break;
	}
	}
}

const char *dev_set_realtime(void)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };
	static char note[128];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((unsigned int)sched_getcpu() < CPU_SETSIZE ? sched_getcpu() : 0, &set);
	sched_setaffinity(0, sizeof set, &set);
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
		snprintf(note, sizeof note, "real-time priority not available (%s), timing may be noisier",
			 strerror(errno));
		return note;
	}
	return NULL;
}
