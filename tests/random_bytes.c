/*
 * random_bytes SIZE: SIZE bytes of pseudo-random data on standard output,
 * for the tests' images (tests/lib.sh, random_image): every run and every
 * 8 bytes of it different (splitmix64 from a seed read from /dev/urandom).
 * /dev/urandom itself costs 4ms of CPU a MiB here, and the tests fill some
 * 3GiB; this some 0.2ms. SIZE: bytes, or a number with K, M or G (KiB, MiB,
 * GiB, as head -c takes them). Exit 2 on a SIZE it does not take.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static uint64_t buf[1 << 14];	/* 128KiB */
	uint64_t size, x = 0;
	char *end;
	FILE *u;

	if (argc != 2 || argv[1][0] < '0' || argv[1][0] > '9')
		return 2;
	size = strtoull(argv[1], &end, 10);
	if (*end && end[1])
		return 2;
	switch (*end) {
	case 0: break;
	case 'K': size <<= 10; break;
	case 'M': size <<= 20; break;
	case 'G': size <<= 30; break;
	default: return 2;
	}
	u = fopen("/dev/urandom", "rb");
	if (!u || fread(&x, sizeof x, 1, u) != 1)
		return 1;
	fclose(u);
	while (size) {
		size_t n = size < sizeof buf ? (size_t)size : sizeof buf, done = 0;
		for (size_t i = 0; i < (n + 7) / 8; i++) {
			uint64_t z = (x += 0x9e3779b97f4a7c15ull);
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			buf[i] = z ^ (z >> 31);
		}
		while (done < n) {
			ssize_t w = write(1, (char *)buf + done, n - done);
			if (w <= 0)
				return 1;
			done += (size_t)w;
		}
		size -= n;
	}
	return 0;
}
