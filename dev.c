/*
 * The device layer's front: checks every request against the device and
 * keeps the accounting; the backend chosen at dev_open() does the I/O.
 */
#include "dev.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BUFFER_ALIGN 4096
/*
 * Buffers of this size and more are aligned to it and asked for in huge
 * pages (transparent huge pages, "madvise" mode): filling a 32MiB buffer
 * page by page took 8192 page faults, 0.1s of CPU on a virtual machine,
 * most of the cost of an -O run on a simulated card (and of the tests).
 * All before any timed I/O; where the kernel has no huge pages the advice
 * is ignored.
 */
#define HUGE_BUFFER (2u << 20)

bool dev_path_is_sim(const char *path)
{
	return strncmp(path, "sim:", 4) == 0;
}

int dev_open(struct dev *d, const char *path, unsigned int flags, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	d->path = path;
	d->fd = -1;
	d->writable = flags & DEV_WRITE;
	err[0] = '\0';

	if (dev_path_is_sim(path))
		return dev_sim_open(d, path, err, errlen);
	return dev_file_open(d, path, flags, err, errlen);
}

void dev_attach(struct dev *d, const char *path, const struct dev_ops *ops, void *priv,
		uint64_t size, unsigned int lbs, bool writable)
{
	memset(d, 0, sizeof *d);
	d->path = path;
	d->ops = ops;
	d->priv = priv;
	d->fd = -1;
	d->size = size;
	d->lbs = d->pbs = lbs;
	d->writable = writable;
}

int dev_finish(struct dev *d, char *err, size_t n)
{
	return d->ops && d->ops->finish ? d->ops->finish(d, err, n) : 0;
}

int dev_set_nosync(struct dev *d, bool on)
{
	if (!on) {
		if (d->nosync) {
			close(d->fd);
			d->fd = d->sync_fd;
			d->nosync = false;
		}
		return 0;
	}
	if (d->nosync || d->fd < 0 || !d->writable)
		return 0;
	int fl = fcntl(d->fd, F_GETFL);
	if (fl < 0)
		return -errno;
	if (!(fl & O_DSYNC))	/* (O_SYNC includes it) opened without: nothing to leave out */
		return 0;
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", d->fd);
	/* the same file (a block device is not opened O_EXCL again: this process holds it) */
	int flags = (fl & (O_ACCMODE | O_DIRECT | O_NOATIME)) | O_CLOEXEC;
	int fd = open(path, flags);
	if (fd < 0 && errno == EPERM && (flags & O_NOATIME))
		fd = open(path, flags & ~O_NOATIME);
	if (fd < 0)
		return -errno;
	d->sync_fd = d->fd;
	d->fd = fd;
	d->nosync = true;
	return 0;
}

void dev_close(struct dev *d)
{
	dev_set_nosync(d, false);	/* the backend closes the descriptor it opened */
	if (d->ops && d->ops->close)
		d->ops->close(d);
	d->ops = NULL;
}

static bool range_ok(const struct dev *d, uint64_t len, uint64_t off)
{
	return len && off <= d->size && len <= d->size - off &&
	       off % d->lbs == 0 && len % d->lbs == 0;
}

/* A read across the end (dev_read_wrap): inside the device, at most its size long. */
static bool wrap_ok(const struct dev *d, uint64_t len, uint64_t off)
{
	return len && off < d->size && len <= d->size && off % d->lbs == 0 && len % d->lbs == 0 &&
	       d->ops->read_wrap;
}

static int timed_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			  bool wrap, int64_t *ns)
{
	int64_t t;
	int r;

	if (wrap && !range_ok(d, len, off)) {
		if (write || !wrap_ok(d, len, off))
			return -EINVAL;
		r = d->ops->read_wrap(d, buf, len, off, &t);
	} else {
		if (!range_ok(d, len, off))
			return -EINVAL;
		r = d->ops->transfer(d, buf, len, off, write, &t);
	}
	if (r < 0)
		return r;
	*ns = t;
	d->device_ns += t;
	dev_count(d, IO_MEASURE, write ? 0 : len, write ? len : 0);
	return 0;
}

volatile sig_atomic_t *dev_stop_flag;

static bool stop_requested(void)
{
	return dev_stop_flag && *dev_stop_flag;
}

/* A sleep to a deadline: a signal that asks for no stop does not shorten it. */
static int sleep_ns(uint64_t ns)
{
	struct timespec end;
	int r;

	if (stop_requested())	/* no pause on the way out */
		return -EINTR;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)(ns / 1000000000u);
	end.tv_nsec += (long)(ns % 1000000000u);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL)) == EINTR &&
	       !stop_requested())
		;	/* a signal that asks for no stop: sleep on to the same deadline */
	return -r;
}

int dev_idle(struct dev *d, uint64_t ns)
{
	int r = d->ops && d->ops->idle ? d->ops->idle(d, ns) : sleep_ns(ns);

	if (r == 0)
		d->idle_ns += (int64_t)ns;
	return r;
}

void dev_count(struct dev *d, enum io_purpose p, uint64_t read, uint64_t written)
{
	d->bytes_read += read;
	d->bytes_written += written;
	d->traffic.read[p] += read;
	d->traffic.written[p] += written;
}

int dev_read(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	return timed_transfer(d, buf, len, off, false, false, ns);
}

int dev_read_wrap(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	return timed_transfer(d, buf, len, off, false, true, ns);
}

int dev_write(struct dev *d, const void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	if (!d->writable)
		return -EBADF;
	return timed_transfer(d, (void *)buf, len, off, true, false, ns);
}

int dev_discard(struct dev *d, uint64_t off, uint64_t len, int64_t *ns)
{
	int64_t t;

	if (!d->writable)
		return -EBADF;
	if (!range_ok(d, len, off))
		return -EINVAL;
	int r = d->ops->discard ? d->ops->discard(d, off, len, &t) : -EOPNOTSUPP;
	if (r < 0)
		return r;
	*ns = t;
	d->device_ns += t;
	d->bytes_discarded += len;
	return 0;
}

/* One at a time, each timed as dev_read/dev_write: a device path without a queue. */
static int transfer_in_turn(struct dev *d, void *buf, size_t slot, const struct dev_req *r, int n,
			    int depth, int64_t *ns, int *failed)
{
	int64_t total = 0;

	for (int i = 0; i < n; i++) {
		int64_t t;
		int e = timed_transfer(d, (char *)buf + (size_t)(i % depth) * slot, r[i].len, r[i].off,
				       r[i].write, false, &t);
		if (e < 0) {
			*failed = i;
			return e;
		}
		total += t;
	}
	*ns = total;
	return 0;
}

int dev_transfer_queued(struct dev *d, void *buf, size_t slot, const struct dev_req *r, int n,
			int depth, int64_t *ns, int *used, int *failed)
{
	int64_t t;

	*failed = -1;
	*used = 1;
	if (n <= 0 || depth < 1)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		if (r[i].write && !d->writable)
			return -EBADF;
		if (!range_ok(d, r[i].len, r[i].off) || r[i].len > slot)
			return -EINVAL;
	}
	int e = depth > 1 && d->ops->transfer_queued ?
		d->ops->transfer_queued(d, buf, slot, r, n, depth, &t, used, failed) : -EOPNOTSUPP;
	if (e == -EOPNOTSUPP) {
		*used = 1;
		return transfer_in_turn(d, buf, slot, r, n, depth, ns, failed);
	}
	if (e < 0)
		return e;
	*ns = t;
	d->device_ns += t;
	for (int i = 0; i < n; i++)
		dev_count(d, IO_MEASURE, r[i].write ? 0 : r[i].len, r[i].write ? r[i].len : 0);
	return 0;
}

int dev_pread_all(struct dev *d, void *buf, uint64_t len, uint64_t off)
{
	if (!range_ok(d, len, off))
		return -EINVAL;
	int r = d->ops->copy(d, buf, len, off, false);
	if (r == 0)
		dev_count(d, IO_SAVE, len, 0);
	return r;
}

int dev_pwrite_all(struct dev *d, const void *buf, uint64_t len, uint64_t off)
{
	if (!d->writable)
		return -EBADF;
	if (!range_ok(d, len, off))
		return -EINVAL;
	int r = d->ops->copy(d, (void *)buf, len, off, true);
	if (r == 0)
		dev_count(d, IO_RESTORE, 0, len);
	return r;
}

const char *dev_kind(const struct dev *d)
{
	return d->ops && d->ops->kind ? d->ops->kind : "unknown";
}

bool dev_simulated(const struct dev *d)
{
	return d->ops && d->ops->simulated;
}

bool dev_stores_data(const struct dev *d)
{
	return !d->ops || !d->ops->stores_data || d->ops->stores_data(d);
}

int dev_keep_data(struct dev *d, bool on)
{
	return d->ops && d->ops->keep_data ? d->ops->keep_data(d, on) : 0;
}

void dev_identity(const struct dev *d, char *out, size_t n)
{
	out[0] = '\0';
	if (d->ops && d->ops->identity)
		d->ops->identity(d, out, n);
}

void dev_canonical_name(const struct dev *d, char *out, size_t n)
{
	if (d->ops && d->ops->canonical_name)
		d->ops->canonical_name(d, out, n);
	else
		snprintf(out, n, "%s", d->path);
}

bool dev_card_register(const struct dev *d, const char *name, char *out, size_t n)
{
	if (n)
		out[0] = '\0';
	return d->ops && d->ops->card_register && d->ops->card_register(d, name, out, n);
}

void *dev_alloc_buffer(size_t len)
{
	void *p;

	if (len >= HUGE_BUFFER) {
		if (posix_memalign(&p, HUGE_BUFFER, len))
			return NULL;
		madvise(p, len, MADV_HUGEPAGE);
		return p;
	}
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

void dev_fill_pattern(void *buf, size_t len, enum pattern p, uint64_t seed)
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

/*
 * The original's SCHED_FIFO priority 10, no CPU pinning: bench/sched.sh
 * measured neither priority 99 nor pinning to change the read times (pinning
 * made a loop device's slow reads slower), while SCHED_FIFO itself keeps
 * busy CPUs from adding milliseconds (README, "Performance").
 */
#define REALTIME_PRIORITY 10

const char *dev_set_realtime(void)
{
	struct sched_param sp = { .sched_priority = REALTIME_PRIORITY };
	static char note[128];

	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
		snprintf(note, sizeof note, "real-time priority not available (%s), timing may be noisier",
			 strerror(errno));
		return note;
	}
	return NULL;
}
