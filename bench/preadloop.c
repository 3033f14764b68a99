/*
 * The baseline for bench/overhead.sh: the least a timing tool can do.
 * Reads LEN bytes with O_DIRECT at each offset listed in OFFSETS (one per
 * line, in order), reading the clock right before and after each pread, as
 * flashbench does. The same best-effort SCHED_FIFO priority 10 as the tool.
 *
 * usage: preadloop DEVICE LEN OFFSETS
 * prints: reads N timed_ns T wall_ns W
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
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t *read_offsets(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1024;
	uint64_t *v = malloc(cap * sizeof *v);
	unsigned long long x;

	*n = 0;
	if (!f || !v)
		return NULL;
	while (fscanf(f, "%llu", &x) == 1) {
		if (*n == cap) {
			cap *= 2;
			uint64_t *nv = realloc(v, cap * sizeof *v);
			if (!nv)
				return NULL;
			v = nv;
		}
		v[(*n)++] = x;
	}
	fclose(f);
	return v;
}

static void set_realtime(void)
{
	struct sched_param sp = { .sched_priority = 10 };

	sched_setscheduler(0, SCHED_FIFO, &sp);	/* best effort, as the tool */
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: preadloop DEVICE LEN OFFSETS\n");
		return 2;
	}
	size_t len = strtoull(argv[2], NULL, 0), n;
	uint64_t *offs = read_offsets(argv[3], &n);
	int fd = open(argv[1], O_RDONLY | O_DIRECT);
	void *buf;

	if (!offs || fd < 0 || posix_memalign(&buf, 4096, len)) {
		fprintf(stderr, "preadloop: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	set_realtime();
	int64_t timed = 0, w0 = now_ns();
	for (size_t i = 0; i < n; i++) {
		int64_t t0 = now_ns();
		ssize_t r = pread(fd, buf, len, (off_t)offs[i]);
		int64_t t1 = now_ns();
		if (r != (ssize_t)len) {
			fprintf(stderr, "preadloop: %s: offset %" PRIu64 ": %s\n", argv[1], offs[i],
				r < 0 ? strerror(errno) : "short read");
			return 1;
		}
		timed += t1 - t0;
	}
	int64_t wall = now_ns() - w0;
	printf("reads %zu timed_ns %" PRId64 " wall_ns %" PRId64 "\n", n, timed, wall);
	return 0;
}
