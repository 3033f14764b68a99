/* Device access and timing: block devices, regular files and sim: cards. */
#ifndef FB_DEV_H
#define FB_DEV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/traffic.h"

struct sim;
struct dev;

enum dev_flags {
	DEV_WRITE = 1 << 0,	/* O_RDWR|O_SYNC instead of O_RDONLY (dev_set_nosync: without, for a while) */
	DEV_EXCL  = 1 << 1,	/* O_EXCL on block devices: kernel refuses if mounted/held */
	/*
	 * With DEV_WRITE: O_DIRECT without O_SYNC, each write done when the
	 * device acknowledges it, no cache flush after it (--class:
	 * doc/speed-classes.md); the restore (safety/preserve.c) flushes
	 * what it writes back.
	 */
	DEV_NOSYNC = 1 << 2,
};

enum pattern { PAT_ZERO, PAT_ONES, PAT_5A, PAT_RANDOM };

/* One request of a queued run (dev_transfer_queued). */
struct dev_req {
	uint64_t off;
	uint32_t len;
	bool write;
};

/*
 * A backend: how one kind of device does its I/O. dev.c checks ranges and
 * permissions and keeps the accounting; a backend is only called with a
 * range inside the device, in whole logical blocks, and is writable where
 * it writes. Each lives in one file: backends/dev_file.c (block devices, regular
 * files), backends/dev_sim.c (sim: cards); a test can plug in its own.
 */
struct dev_ops {
	const char *kind;	/* "block_device", "regular_file", "simulated", ... */
	bool simulated;		/* no hardware behind it: no identity to probe */
	/*
	 * Timed transfer: the backend reads its clock right around the I/O
	 * (nothing else in between) and stores the time in *ns. 0 or -errno.
	 */
	int (*transfer)(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			int64_t *ns);
	/*
	 * Optional, timed as transfer: a read of len bytes at off that crosses
	 * the end of the device and continues at offset 0 (off < size,
	 * len <= size). NULL: such reads fail with -EINVAL.
	 */
	int (*read_wrap)(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns);
	int (*discard)(struct dev *d, uint64_t off, uint64_t len, int64_t *ns);
	/* Optional: the host leaves the device alone for ns (dev_idle). NULL: a sleep. */
	int (*idle)(struct dev *d, uint64_t ns);
	/*
	 * Optional: the n requests with up to depth of them in flight, request i
	 * in buf + (i % depth) * slot (concurrent reads may share a slot: the
	 * data is not looked at). The clock is read before the first submission
	 * and after the last completion, with only the submitting and reaping
	 * syscalls between. *used: the depth the device path kept in flight.
	 * 0, or -errno with *failed the index of a failed request (-1: none);
	 * -EOPNOTSUPP before any I/O: no queue here, dev.c issues them in turn.
	 */
	int (*transfer_queued)(struct dev *d, void *buf, size_t slot, const struct dev_req *r,
			       int n, int depth, int64_t *ns, int *used, int *failed);
	/* Optional: a register the card shows as sysfs would ("ssr"); false: none. */
	bool (*card_register)(const struct dev *d, const char *name, char *out, size_t n);
	/* Untimed, not counted: saving and restoring the user's data. */
	int (*copy)(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write);
	/*
	 * Whether the device keeps what is written (a sim: card keeps data only
	 * while keep_data is on); NULL: always.
	 */
	bool (*stores_data)(const struct dev *d);
	int (*keep_data)(struct dev *d, bool on);	/* NULL: nothing to switch */
	/* Something that tells this device from another of the same size; "" if nothing. */
	void (*identity)(const struct dev *d, char *out, size_t n);
	/* The name a backup records: an absolute path where there is one. */
	void (*canonical_name)(const struct dev *d, char *out, size_t n);
	/*
	 * Optional: what the backend writes beside the device (a sim: card's
	 * record= and trace= files) flushed: 0, or -1 with a message.
	 */
	int (*finish)(struct dev *d, char *err, size_t n);
	void (*close)(struct dev *d);
};

struct dev {
	const char *path;
	const struct dev_ops *ops;
	int fd;			/* -1 for sim: devices */
	struct sim *sim;	/* the sim: backend's card (callers: ask dev_simulated()) */
	void *priv;		/* any other backend's state */
	uint64_t size;		/* bytes */
	unsigned int lbs;	/* logical block size: every offset/length a multiple */
	unsigned int pbs;	/* physical block size (informational) */
	bool blockdev;
	bool writable;
	bool nosync;		/* dev_set_nosync(): fd is a second descriptor, without O_SYNC */
	int sync_fd;		/* then: the descriptor opened with O_SYNC, kept for after */
	/*
	 * Accounting, for reports and benchmarks: every byte read or written,
	 * whatever for (what the device's own counters count), and split by
	 * purpose: the timed I/O is IO_MEASURE, dev_pread_all() IO_SAVE,
	 * dev_pwrite_all() IO_RESTORE, dev_count() whatever it is told.
	 */
	uint64_t bytes_read, bytes_written, bytes_discarded;
	struct io_traffic traffic;
	int64_t device_ns;	/* sum of all timed I/O */
	int64_t idle_ns;	/* sum of the pauses dev_idle made */
};

/* "sim:..." names a simulated card (backends/dev_sim.c), not a file. */
bool dev_path_is_sim(const char *path);

/* The backends dev_open() chooses from (it clears d, then calls one); for tests, to stand in. */
extern const struct dev_ops dev_block_ops, dev_file_ops, dev_sim_ops;
int dev_file_open(struct dev *d, const char *path, unsigned int flags, char *err, size_t errlen);
int dev_sim_open(struct dev *d, const char *path, char *err, size_t errlen);

/* Sets up d for a backend of the caller's own (priv: its state); no I/O. */
void dev_attach(struct dev *d, const char *path, const struct dev_ops *ops, void *priv,
		uint64_t size, unsigned int lbs, bool writable);

/*
 * Opens path ("sim:..." for a simulated card) with O_DIRECT. Returns 0,
 * or -errno with a message (without the program name) in err.
 * -EINVAL with a message means a bad sim: specification (a usage error).
 */
int dev_open(struct dev *d, const char *path, unsigned int flags, char *err, size_t errlen);
void dev_close(struct dev *d);
/*
 * on: the device's I/O goes on by a second descriptor of the same file,
 * opened through /proc/self/fd without O_SYNC (as DEV_NOSYNC opens it: each
 * write done when the device acknowledges it; --auto's class step times
 * writes as --class does); off: back to the descriptor opened with O_SYNC,
 * the second one closed (a restore through it flushes it first:
 * safety/preserve.c). Nothing to do where there is no such descriptor
 * (sim: cards, read-only, opened without O_SYNC). 0 or -errno (on: the
 * device unchanged).
 */
int dev_set_nosync(struct dev *d, bool on);
/* Before dev_close: the backend's own output files complete (struct dev_ops.finish). 0 or -1. */
int dev_finish(struct dev *d, char *err, size_t n);

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
 * The host leaves the device alone for ns nanoseconds, never inside a
 * timed region: before a write test, so that the card's buffer, cache and
 * postponed collections are in a known state. Files and block devices
 * sleep (clock_nanosleep on CLOCK_MONOTONIC to a deadline, restarted after
 * a signal unless *dev_stop_flag is set, and not begun when it is); a sim:
 * card's virtual clock
 * advances and the card does its idle work (sim_idle). Adds the pause to
 * d->idle_ns. 0, or -EINTR when a stop was requested (the pause cut short).
 */
int dev_idle(struct dev *d, uint64_t ns);
/* The flag a stop request sets (vm.c points it at vm_stop_requested); NULL: no stops. */
extern volatile sig_atomic_t *dev_stop_flag;
/*
 * Timed queued I/O (struct dev_ops.transfer_queued): n requests, up to depth
 * in flight; the total time in *ns, the depth really used in *used (1 where
 * the backend has no queue: the requests then go one at a time, each timed
 * as dev_read/dev_write). Every request is checked as dev_read/dev_write
 * checks it before any I/O. 0, or -errno with the failed request's index in
 * *failed (-1 when no single request is to blame).
 */
int dev_transfer_queued(struct dev *d, void *buf, size_t slot, const struct dev_req *r, int n,
			int depth, int64_t *ns, int *used, int *failed);
/* The backend for files and block devices: Linux native AIO through raw syscalls. */
int dev_file_queued(struct dev *d, void *buf, size_t slot, const struct dev_req *r, int n,
		    int depth, int64_t *ns, int *used, int *failed);
/*
 * As dev_read, but the part of the read past the end of the device comes
 * from offset 0 on, in the same timed interval: the original's reads at
 * places taken modulo the device size (-a). off < size, len <= size.
 */
int dev_read_wrap(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns);

/*
 * pread/pwrite all of len bytes at off: short transfers continued, EINTR
 * retried, end of file is -EIO. 0 or -errno. Async-signal-safe.
 */
int dev_fd_transfer(int fd, void *buf, uint64_t len, uint64_t off, bool write);

/* Untimed helpers (used by --preserve / --restore): saving and restoring. */
int dev_pread_all(struct dev *d, void *buf, uint64_t len, uint64_t off);
int dev_pwrite_all(struct dev *d, const void *buf, uint64_t len, uint64_t off);
/* I/O to d done around it (through a dup of its descriptor): counted as purpose p. */
void dev_count(struct dev *d, enum io_purpose p, uint64_t read, uint64_t written);

/* Questions for the backend. */
const char *dev_kind(const struct dev *d);	/* as struct dev_ops.kind */
bool dev_simulated(const struct dev *d);
bool dev_stores_data(const struct dev *d);	/* false: nothing written is kept */
int dev_keep_data(struct dev *d, bool on);	/* 0, or -errno */
void dev_identity(const struct dev *d, char *out, size_t n);
void dev_canonical_name(const struct dev *d, char *out, size_t n);
/* A register a simulated card shows as sysfs would ("ssr"); false: none (real cards: sysfs). */
bool dev_card_register(const struct dev *d, const char *name, char *out, size_t n);

/* Aligned buffer for O_DIRECT; NULL on failure. Free with free(). */
void *dev_alloc_buffer(size_t len);
void dev_fill_pattern(void *buf, size_t len, enum pattern p, uint64_t seed);

/* Best effort SCHED_FIFO priority 10 (the original's); returns a note when not permitted, else NULL. */
const char *dev_set_realtime(void);

#endif
