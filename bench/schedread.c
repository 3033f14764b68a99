/*
 * For bench/sched.sh: does the scheduling flashbench asks for change the
 * times it measures? Reads LEN bytes with O_DIRECT COUNT times, at offsets
 * stepping through the device (as -a's reads do, never the same block twice
 * in a row), timing each pread as flashbench does, under one setting:
 *
 *   POLICY  other   the default scheduler (no request)
 *           fifo10  SCHED_FIFO priority 10 (the original's)
 *           fifo99  SCHED_FIFO priority 99 (the highest)
 *   PIN     0 or 1  pinned to the CPU it started on (sched_setaffinity)
 *
 * usage: schedread DEVICE LEN COUNT POLICY PIN
 * prints: median_ns M p90_ns P p99_ns Q mean_ns A
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int set_policy(const char *policy, int pin)
{
	if (pin) {
		cpu_set_t set;
		int cpu = sched_getcpu();
		CPU_ZERO(&set);
		CPU_SET(cpu >= 0 && cpu < CPU_SETSIZE ? cpu : 0, &set);
		if (sched_setaffinity(0, sizeof set, &set) < 0)
			return -1;
	}
	if (strcmp(policy, "other") == 0)
		return 0;
	struct sched_param sp = { .sched_priority = strcmp(policy, "fifo10") == 0 ? 10 : 99 };
	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: schedread DEVICE LEN COUNT other|fifo10|fifo99 0|1\n");
		return 2;
	}
	size_t len = strtoull(argv[2], NULL, 0);
	long count = strtol(argv[3], NULL, 0);
	int fd = open(argv[1], O_RDONLY | O_DIRECT);
	uint64_t size = 0;
	void *buf;
	int64_t *t = calloc((size_t)count, sizeof *t);

	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 || !t || count < 1 ||
	    posix_memalign(&buf, 4096, len) || size < 64 * len) {
		fprintf(stderr, "schedread: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (set_policy(argv[4], atoi(argv[5])) < 0) {
		fprintf(stderr, "schedread: %s: %s\n", argv[4], strerror(errno));
		return 1;
	}
	uint64_t slots = size / len / 2, step = slots / 7 | 1;
	for (long i = 0; i < count; i++) {
		off_t off = (off_t)((uint64_t)i * step % slots * 2 * len);
		int64_t t0 = now_ns();
		ssize_t n = pread(fd, buf, len, off);
		t[i] = now_ns() - t0;
		if (n != (ssize_t)len) {
			fprintf(stderr, "schedread: read at %lld: %s\n", (long long)off,
				n < 0 ? strerror(errno) : "short");
			return 1;
		}
	}
	double sum = 0;
	for (long i = 0; i < count; i++)
		sum += (double)t[i];
	qsort(t, (size_t)count, sizeof *t, cmp_i64);
	printf("median_ns %" PRId64 " p90_ns %" PRId64 " p99_ns %" PRId64 " mean_ns %.0f\n",
	       t[count / 2], t[count * 9 / 10], t[count * 99 / 100], sum / (double)count);
	return 0;
}
