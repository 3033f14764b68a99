/*
 * A synthetic clock for comparing flashbench with the recorded original
 * (tests/data/original/README.md): LD_PRELOAD it, and every clock the
 * program reads (clock_gettime of any clock id, gettimeofday) stands still
 * except inside a pread/pwrite of more than 0 bytes on a block device, which
 * moves it on by the model's time for that transfer. So the printed times
 * are a function of the transfers alone, the same for any program that
 * does the same transfers.
 *
 *   FAKECLOCK_MODEL=A,B,E,X  each transfer: A + length * B / 1000 ns, plus
 *                            X ns if it crosses a multiple of E bytes (E 0: never)
 *   FAKECLOCK_NS=V1,V2,...   the k-th transfer (from 0) also takes the k-th
 *                            value, the list repeating; V:R is V R times
 *   FAKECLOCK_LOG=FILE       per write of more than 0 bytes to a block device,
 *                            one line: the first 8 bytes in hex, ':', the
 *                            CRC-32 (zlib's) of the whole buffer
 *   FAKECLOCK_IO=FILE        per call on a block device, in order, one line of
 *                            tab-separated fields: R or W (R0 or W0 for 0
 *                            bytes), offset, length, result (bytes, or
 *                            -1:ENAME), for W the line FAKECLOCK_LOG gets,
 *                            else "-"; any other read or write call (read,
 *                            write, readv, preadv, ...): its name, "-", "-",
 *                            result, "-" (the I/O strace would show, without
 *                            stopping the program at each call)
 *
 * The clock starts at 1000 s. The test's own; no code of the recording tool.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_EXTRA 4096

static uint64_t now_ns = 1000ull * 1000000000ull;
static uint64_t model_a, model_b, model_e, model_x;
static uint64_t extra[MAX_EXTRA];
static size_t nextra, transfers;
static int log_fd = -1;
static int ready;

static void parse_model(const char *s)
{
	uint64_t *v[4] = { &model_a, &model_b, &model_e, &model_x };

	for (int i = 0; i < 4 && s && *s; i++) {
		char *end;
		*v[i] = strtoull(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
	}
}

static void parse_extra(const char *s)
{
	while (s && *s && nextra < MAX_EXTRA) {
		char *end;
		uint64_t val = strtoull(s, &end, 10), times = 1;
		if (*end == ':')
			times = strtoull(end + 1, &end, 10);
		for (uint64_t i = 0; i < times && nextra < MAX_EXTRA; i++)
			extra[nextra++] = val;
		s = *end == ',' ? end + 1 : end;
		if (end == s && *s != ',' && *s)
			break;
	}
}

static int io_fd = -1;

static void setup(void)
{
	if (ready)
		return;
	ready = 1;
	parse_model(getenv("FAKECLOCK_MODEL"));
	parse_extra(getenv("FAKECLOCK_NS"));
	const char *log = getenv("FAKECLOCK_LOG");
	if (log && *log)
		log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	const char *io = getenv("FAKECLOCK_IO");
	if (io && *io)
		io_fd = open(io, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

/* Per fd: 0 not known yet, 1 a block device, 2 not one; forgotten on close(). */
#define MAX_FDS 1024
static unsigned char fd_kind[MAX_FDS];

static int is_block_device(int fd)
{
	struct stat st;

	if (fd >= 0 && fd < MAX_FDS && fd_kind[fd])
		return fd_kind[fd] == 1;
	int blk = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
	if (fd >= 0 && fd < MAX_FDS)
		fd_kind[fd] = blk ? 1 : 2;
	return blk;
}

/* zlib's CRC-32, eight bytes at a time from eight tables (a byte at a
 * time it was 40% of the CPU of the original-compare test, a bit at a
 * time more than the rest of its run); the tables are built when the
 * library loads, before any thread can hash. crc_table[k][b]: the CRC of
 * byte b followed by k zero bytes, so that eight bytes fold in at once. */
static uint32_t crc_table[8][256];

__attribute__((constructor)) static void build_crc_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t t = i;
		for (int k = 0; k < 8; k++)
			t = t >> 1 ^ (0xedb88320u & -(t & 1));
		crc_table[0][i] = t;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 8; k++)
			crc_table[k][i] = crc_table[k - 1][i] >> 8 ^ crc_table[0][crc_table[k - 1][i] & 0xff];
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (; n >= 8; n -= 8, p += 8) {
		uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		c = crc_table[7][lo & 0xff] ^ crc_table[6][lo >> 8 & 0xff] ^ crc_table[5][lo >> 16 & 0xff] ^
		    crc_table[4][lo >> 24] ^ crc_table[3][hi & 0xff] ^ crc_table[2][hi >> 8 & 0xff] ^
		    crc_table[1][hi >> 16 & 0xff] ^ crc_table[0][hi >> 24];
	}
	while (n--)
		c = crc_table[0][(c ^ *p++) & 0xff] ^ c >> 8;
	return ~c;
}

/* The logs are buffered (a write per entry would double a traced run's time) and flushed at exit. */
struct log {
	int *fd;
	size_t used;
	char buf[1 << 20];
};
static struct log wlog = { &log_fd, 0, "" }, iolog = { &io_fd, 0, "" };

typedef ssize_t (*write_fn)(int, const void *, size_t);
#define REAL(name, type) \
	static type real_##name; \
	if (!real_##name) \
		real_##name = (type)dlsym(RTLD_NEXT, #name)

static void log_flush(struct log *l)
{
	size_t done = 0;
	REAL(write, write_fn);

	while (*l->fd >= 0 && done < l->used) {
		ssize_t n = real_write(*l->fd, l->buf + done, l->used - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	l->used = 0;
}

static void logs_flush(void)
{
	log_flush(&wlog);
	log_flush(&iolog);
}

__attribute__((destructor)) static void log_close(void)
{
	logs_flush();
}

static void log_add(struct log *l, const char *line, size_t n)
{
	if (*l->fd < 0)
		return;
	if (l->used + n > sizeof l->buf)
		log_flush(l);
	memcpy(l->buf + l->used, line, n);
	l->used += n;
}

/* "first 8 bytes in hex:CRC-32", as FAKECLOCK_LOG has it (no newline) */
static int write_hash(char *line, size_t size, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int n = 0;

	for (size_t i = 0; i < 8 && i < len; i++)
		n += snprintf(line + n, size - (size_t)n, "%02x", p[i]);
	n += snprintf(line + n, size - (size_t)n, ":%08x", crc32_of(p, len));
	return n;
}

static void log_write(const void *buf, size_t len)
{
	char line[64];
	int n;

	if (log_fd < 0)
		return;
	n = write_hash(line, sizeof line - 1, buf, len);
	line[n++] = '\n';
	log_add(&wlog, line, (size_t)n);
}

/* One FAKECLOCK_IO line; off < 0: a call without an offset and length. */
static void io_row(const char *op, long long off, long long len, long long ret, int err,
		   const void *wbuf)
{
	char line[160], result[48], hash[64] = "-";
	int n;

	if (io_fd < 0)
		return;
	if (ret < 0)
		snprintf(result, sizeof result, "%lld:%s", ret, strerrorname_np(err) ? strerrorname_np(err) : "E?");
	else
		snprintf(result, sizeof result, "%lld", ret);
	if (wbuf && len > 0)
		write_hash(hash, sizeof hash, wbuf, (size_t)len);
	if (off < 0)
		n = snprintf(line, sizeof line, "%s\t-\t-\t%s\t-\n", op, result);
	else
		n = snprintf(line, sizeof line, "%s%s\t%lld\t%lld\t%s\t%s\n", op, len ? "" : "0", off, len,
			     result, hash);
	log_add(&iolog, line, (size_t)n);
}

/* The model's time for one transfer; the clock moves on by it. */
static void advance(size_t len, off_t off)
{
	uint64_t t = model_a + (uint64_t)len * model_b / 1000;
	uint64_t start = (uint64_t)off, end = start + len;

	if (model_e && start / model_e != (end - 1) / model_e)
		t += model_x;
	if (nextra)
		t += extra[transfers % nextra];
	transfers++;
	now_ns += t;
}

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

static ssize_t timed_read(pread_fn f, int fd, void *buf, size_t len, off_t off)
{
	setup();
	int blk = is_block_device(fd);
	if (len > 0 && blk)
		advance(len, off);
	ssize_t r = f(fd, buf, len, off);
	if (blk)
		io_row("R", (long long)off, (long long)len, r, errno, NULL);
	return r;
}

static ssize_t timed_write(pwrite_fn f, int fd, const void *buf, size_t len, off_t off)
{
	setup();
	int blk = is_block_device(fd);
	if (len > 0 && blk) {
		advance(len, off);
		log_write(buf, len);
	}
	ssize_t r = f(fd, buf, len, off);
	if (blk)
		io_row("W", (long long)off, (long long)len, r, errno, buf);
	return r;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	REAL(pread, pread_fn);
	return timed_read(real_pread, fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	REAL(pread64, pread_fn);
	return timed_read(real_pread64, fd, buf, len, off);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	REAL(pwrite, pwrite_fn);
	return timed_write(real_pwrite, fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	REAL(pwrite64, pwrite_fn);
	return timed_write(real_pwrite64, fd, buf, len, off);
}

/* Any other read or write call on a block device: a line of its own (a difference by itself). */
static void other_call(const char *name, int fd, long long r)
{
	int e = errno;
	setup();
	if (is_block_device(fd))
		io_row(name, -1, 0, r, e, NULL);
	errno = e;
}

#define OTHER_IO(name, ret, params, args) \
	ret name params \
	{ \
		typedef ret (*name##_fn) params; \
		REAL(name, name##_fn); \
		ret r = real_##name args; \
		other_call(#name, fd, (long long)r); \
		return r; \
	}

OTHER_IO(read, ssize_t, (int fd, void *b, size_t n), (fd, b, n))
OTHER_IO(write, ssize_t, (int fd, const void *b, size_t n), (fd, b, n))
OTHER_IO(readv, ssize_t, (int fd, const struct iovec *v, int n), (fd, v, n))
OTHER_IO(writev, ssize_t, (int fd, const struct iovec *v, int n), (fd, v, n))
OTHER_IO(preadv, ssize_t, (int fd, const struct iovec *v, int n, off_t o), (fd, v, n, o))
OTHER_IO(pwritev, ssize_t, (int fd, const struct iovec *v, int n, off_t o), (fd, v, n, o))
OTHER_IO(preadv2, ssize_t, (int fd, const struct iovec *v, int n, off_t o, int f), (fd, v, n, o, f))
OTHER_IO(pwritev2, ssize_t, (int fd, const struct iovec *v, int n, off_t o, int f), (fd, v, n, o, f))

/* _exit() runs no destructor: the logs are written first. */
void _exit(int status)
{
	typedef void (*exit_fn)(int);
	logs_flush();
	REAL(_exit, exit_fn);
	real__exit(status);
	for (;;)
		;
}

void _Exit(int status)
{
	_exit(status);
}

int close(int fd)
{
	typedef int (*close_fn)(int);
	REAL(close, close_fn);
	if (fd >= 0 && fd < MAX_FDS)
		fd_kind[fd] = 0;
	return real_close(fd);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	(void)id;
	setup();
	ts->tv_sec = (time_t)(now_ns / 1000000000ull);
	ts->tv_nsec = (long)(now_ns % 1000000000ull);
	return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	(void)tz;
	setup();
	tv->tv_sec = (time_t)(now_ns / 1000000000ull);
	tv->tv_usec = (suseconds_t)(now_ns % 1000000000ull / 1000);
	return 0;
}
