/* Device access and timing: block devices, regular files and sim: cards. */
#ifndef FB_DEV_H
#define FB_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;

enum dev_flags {
	DEV_WRITE = 1 << 0,	/* O_RDWR|O_SYNC instead of O_RDONLY */
	DEV_EXCL  = 1 << 1,	/* O_EXCL on block devices: kernel refuses if mounted/held */
};

enum pattern { PAT_ZERO, PAT_ONES, PAT_5A, PAT_RANDOM };

struct dev {
	const char *path;
	int fd;			/* -1 for sim: devices */
	struct sim *sim;	/* non-NULL for sim: devices */
	uint64_t size;		/* bytes */
	unsigned int lbs;	/* logical block size: every offset/length a multiple */
	unsigned int pbs;	/* physical block size (informational) */
	bool blockdev;
	bool writable;
	/* accounting, for reports and benchmarks */
	uint64_t bytes_read, bytes_written, bytes_discarded;
	int64_t device_ns;	/* sum of all timed I/O */
};

/*
 * Opens path ("sim:..." for a simulated card) with O_DIRECT. Returns 0,
 * or -errno with a message (without the program name) in err.
 * -EINVAL with a message means a bad sim: specification (a usage error).
 */
int dev_open(struct dev *d, const char *path, unsigned int flags, char *err, size_t errlen);
void dev_close(struct dev *d);

/*
 * Timed I/O of len bytes at off. The clock (CLOCK_MONOTONIC, or the sim's
 * virtual clock) is read right before the first and right after the last
 * syscall; short transfers are continued and EINTR retried inside.
 * Returns 0 and stores the time in *ns, or -errno (nothing stored).
 * Ranges outside [0, size) or misaligned to lbs return -EINVAL untouched.
 */
int dev_read(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns);
int dev_write(struct dev *d, const void *buf, uint64_t len, uint64_t off, int64_t *ns);
int dev_discard(struct dev *d, uint64_t off, uint64_t len, int64_t *ns);

/*
 * pread/pwrite all of len bytes at off: short transfers continued, EINTR
 * retried, end of file is -EIO. 0 or -errno. Async-signal-safe.
 */
int fd_transfer(int fd, void *buf, uint64_t len, uint64_t off, bool write);

/* Untimed helpers (used by --preserve / --restore). */
int dev_pread_all(struct dev *d, void *buf, uint64_t len, uint64_t off);
int dev_pwrite_all(struct dev *d, const void *buf, uint64_t len, uint64_t off);

/* Aligned buffer for O_DIRECT; NULL on failure. Free with free(). */
void *dev_alloc_buffer(size_t len);
void fill_pattern(void *buf, size_t len, enum pattern p, uint64_t seed);

/* Best effort SCHED_FIFO + CPU pinning; returns a note when not permitted, else NULL. */
const char *dev_set_realtime(void);

#endif
