/*
 * Queued I/O for block devices and regular files (opened O_DIRECT): Linux
 * native AIO through raw syscalls (libc only, no libaio), so that several
 * requests are in flight at once, as --class measures A2 cards.
 */
#include "dev.h"

#include <errno.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long aio_setup(unsigned int nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long aio_destroy(aio_context_t ctx)
{
	return syscall(SYS_io_destroy, ctx);
}

static long aio_submit(aio_context_t ctx, long nr, struct iocb **cbs)
{
	return syscall(SYS_io_submit, ctx, nr, cbs);
}

static long aio_reap(aio_context_t ctx, long min, long max, struct io_event *ev)
{
	return syscall(SYS_io_getevents, ctx, min, max, ev, NULL);
}

static inline int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct aio_run {
	aio_context_t ctx;
	struct iocb *cb;
	struct iocb **ptr;
	struct io_event *ev;
	int n, depth;
	int submitted, done;
	int err, failed;
};

/* Every request prepared before the clock starts: inside it, only syscalls. */
static void prepare(struct aio_run *a, int fd, void *buf, size_t slot, const struct dev_req *r)
{
	for (int i = 0; i < a->n; i++) {
		a->cb[i] = (struct iocb){
			.aio_data = (uint64_t)i,
			.aio_lio_opcode = r[i].write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD,
			.aio_fildes = (uint32_t)fd,
			.aio_buf = (uint64_t)(uintptr_t)((char *)buf + (size_t)(i % a->depth) * slot),
			.aio_nbytes = r[i].len,
			.aio_offset = (int64_t)r[i].off,
		};
		a->ptr[i] = &a->cb[i];
	}
}

/* Tops the queue up to depth requests in flight. */
static void submit_more(struct aio_run *a)
{
	while (!a->err && a->submitted < a->n && a->submitted - a->done < a->depth) {
		long want = a->depth - (a->submitted - a->done);
		if (want > a->n - a->submitted)
			want = a->n - a->submitted;
		long k = aio_submit(a->ctx, want, a->ptr + a->submitted);
		if (k < 0 && (errno == EINTR || errno == EAGAIN) && a->submitted > a->done)
			return;	/* reap first, then try again */
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			a->err = k < 0 ? -errno : -EIO;
			a->failed = a->submitted;
			return;
		}
		a->submitted += (int)k;
	}
}

/* Waits for at least one completion; a short or failed one ends the run. */
static void reap(struct aio_run *a)
{
	long got = aio_reap(a->ctx, 1, a->depth, a->ev);

	if (got < 0) {
		if (errno != EINTR) {
			a->err = -errno;
			a->submitted = a->done;	/* nothing more to wait for we can trust */
		}
		return;
	}
	for (long i = 0; i < got; i++) {
		int k = (int)a->ev[i].data;
		if (a->ev[i].res != (int64_t)a->cb[k].aio_nbytes && !a->err) {
			a->err = a->ev[i].res < 0 ? (int)a->ev[i].res : -EIO;
			a->failed = k;
		}
	}
	a->done += (int)got;
}

int dev_file_queued(struct dev *d, void *buf, size_t slot, const struct dev_req *r, int n,
		    int depth, int64_t *ns, int *used, int *failed)
{
	struct aio_run a = { .n = n, .depth = depth < n ? depth : n, .failed = -1 };

	a.cb = calloc((size_t)n, sizeof *a.cb);
	a.ptr = calloc((size_t)n, sizeof *a.ptr);
	a.ev = calloc((size_t)a.depth, sizeof *a.ev);
	if (!a.cb || !a.ptr || !a.ev || aio_setup((unsigned int)a.depth, &a.ctx) < 0) {
		free(a.cb);
		free(a.ptr);
		free(a.ev);
		return -EOPNOTSUPP;	/* no AIO here (or no memory): one at a time instead */
	}
	prepare(&a, d->fd, buf, slot, r);

	int64_t t0 = now_ns();
	for (submit_more(&a); a.done < a.submitted; submit_more(&a))
		reap(&a);
	*ns = now_ns() - t0;

	aio_destroy(a.ctx);
	free(a.cb);
	free(a.ptr);
	free(a.ev);
	*used = a.depth;
	*failed = a.failed;
	return a.err;
}
