/* The --backup file's format: writing its header, reading and checking it. */
#include "safety/backup.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"	/* dev_fd_transfer() */

/* Truncating copy (snprintf "%s" would do, but gcc warns about the truncation). */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t l = strnlen(src, n - 1);

	memcpy(dst, src, l);
	dst[l] = '\0';
}


/* FNV-1a, 64 bit: detects a damaged backup, nothing more is asked of it. */
uint64_t backup_checksum_update(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

int backup_format_header(char *buf, size_t n, const struct backup_header *h)
{
	size_t l = 0;
	char dev_line[PATH_MAX];

	copy_str(dev_line, sizeof dev_line, h->device);
	dev_line[strcspn(dev_line, "\n")] = '\0';
	l += (size_t)snprintf(buf + l, n - l,
			      BACKUP_MAGIC "\ndevice %s\nsize %" PRIu64 "\nlbs %u\nidentity %s\n"
			      "data-offset %" PRIu64 "\nspans %d\n",
			      dev_line, h->size, h->lbs, h->identity, h->data_offset, h->nspans);
	for (int i = 0; i < h->nspans && l < n; i++)
		l += (size_t)snprintf(buf + l, n - l, "span %" PRIu64 " %" PRIu64 "\n",
				      h->spans[i].off, h->spans[i].len);
	if (l < n)
		l += (size_t)snprintf(buf + l, n - l, "checksum fnv1a64 %016" PRIx64 "\nend\n",
				      h->checksum);
	return l < n ? (int)l : -1;
}

/* Where the header's checksum part starts: after the first line. */
static const char *after_first_line(const char *text)
{
	const char *nl = strchr(text, '\n');

	return nl ? nl + 1 : text + strlen(text);
}

uint64_t backup_header_sum(const char *text)
{
	const char *from = after_first_line(text), *to = strstr(from, "checksum ");

	while (to && to != from && to[-1] != '\n')
		to = strstr(to + 1, "checksum ");
	return backup_checksum_update(CHECKSUM_INIT, from, to ? (size_t)(to - from) : strlen(from));
}

/*
 * The restored mark is written over the start of the first line: whatever
 * follows it there (a damaged line was longer) it stays a restored backup.
 */
static void parse_magic(const char *line, struct backup_header *h)
{
	if (strcmp(line, BACKUP_MAGIC) == 0)
		h->version = 2;
	else if (strncmp(line, BACKUP_RESTORED, strlen(BACKUP_RESTORED)) == 0)
		h->version = 2, h->restored = true;
	else if (strcmp(line, BACKUP_MAGIC_V1) == 0)
		h->version = 1;
	else
		h->version = 2, h->first_line_damaged = true;
}

int backup_parse_header(FILE *f, struct backup_header *h, int *bad_line)
{
	char line[PATH_MAX + 64];
	int lineno = 0, seen = 0;
	bool ended = false, summed = false;
	uint64_t sum = CHECKSUM_INIT;

	while (!ended && fgets(line, sizeof line, f)) {
		size_t raw = strlen(line);
		if (lineno > 0 && strncmp(line, "checksum ", 9) == 0)
			summed = true;
		if (lineno > 0 && !summed)
			sum = backup_checksum_update(sum, line, raw);
		if (raw && line[raw - 1] != '\n' && !feof(f))
			return *bad_line = lineno + 1, -1;	/* longer than any line we write */
		lineno++;
		*bad_line = lineno;
		line[strcspn(line, "\n")] = '\0';
		unsigned long long a, b;
		int k;
		if (lineno == 1) {
			parse_magic(line, h);
		} else if (strncmp(line, "device ", 7) == 0) {
			copy_str(h->device, sizeof h->device, line + 7);
		} else if (strncmp(line, "identity ", 9) == 0 || strcmp(line, "identity") == 0) {
			copy_str(h->identity, sizeof h->identity, line[8] ? line + 9 : "");
		} else if (sscanf(line, "size %llu%n", &a, &k) == 1 && !line[k]) {
			h->size = a;
		} else if (sscanf(line, "lbs %llu%n", &a, &k) == 1 && !line[k] && a && a <= 65536) {
			h->lbs = (unsigned int)a;
		} else if (sscanf(line, "data-offset %llu%n", &a, &k) == 1 && !line[k]) {
			h->data_offset = a;
		} else if (sscanf(line, "spans %llu%n", &a, &k) == 1 && !line[k] && a <= 1u << 20 &&
			   !h->spans) {
			h->spans = calloc(a ? a : 1, sizeof *h->spans);
			if (!h->spans)
				return -1;
			seen = (int)a;
		} else if (sscanf(line, "span %llu %llu%n", &a, &b, &k) == 2 && !line[k] &&
			   h->nspans < seen) {
			h->spans[h->nspans].off = a;
			h->spans[h->nspans].len = b;
			h->nspans++;
		} else if (sscanf(line, "checksum fnv1a64 %llx%n", &a, &k) == 1 && !line[k]) {
			h->checksum = a;
		} else if (strcmp(line, "end") == 0 && summed) {
			ended = true;
		} else {
			return -1;
		}
	}
	*bad_line = lineno + 1;
	h->header_sum = sum;
	return ended && h->spans && h->nspans == seen && h->size && h->lbs && h->data_offset ? 0
											     : -1;
}

/* Reads all span data once: a truncated or altered backup is refused before any write. */
int backup_verify_data(int fd, const struct backup_header *h, void *buf)
{
	uint64_t sum = h->version >= 2 ? h->header_sum : CHECKSUM_INIT, at = h->data_offset;

	for (int i = 0; i < h->nspans; i++) {
		for (uint64_t pos = 0; pos < h->spans[i].len; pos += BACKUP_CHUNK) {
			uint64_t left = h->spans[i].len - pos;
			size_t c = left < BACKUP_CHUNK ? (size_t)left : BACKUP_CHUNK;
			int e = -dev_fd_transfer(fd, buf, c, at, false);
			if (e)
				return e == EIO ? EBADMSG : e;	/* EIO here: the file ends early */
			sum = backup_checksum_update(sum, buf, c);
			at += c;
		}
	}
	return sum == h->checksum ? 0 : EBADMSG;
}

/*
 * A backup still being written: its first line says so, and nothing
 * follows in the header's place (the header is written over it last, so
 * anything there means a header, perhaps a damaged one: not this).
 */
static bool being_written(FILE *f)
{
	char head[BACKUP_HEADER_MIN];
	size_t got;

	rewind(f);
	got = fread(head, 1, sizeof head, f);
	if (got < sizeof BACKUP_PARTIAL || memcmp(head, BACKUP_PARTIAL "\n", sizeof BACKUP_PARTIAL))
		return false;
	for (size_t i = sizeof BACKUP_PARTIAL; i < got; i++)
		if (head[i])
			return false;
	return true;
}

enum backup_state backup_examine(const char *file, char *device, size_t n)
{
	struct stat st;
	enum backup_state state = BACKUP_BAD;

	device[0] = '\0';
	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return BACKUP_BAD;	/* a FIFO or a tty could block the read */
	struct backup_header *h = calloc(1, sizeof *h);
	FILE *f = fopen(file, "re");
	void *buf = malloc(BACKUP_CHUNK);
	int bad_line;

	if (h && f && buf && backup_parse_header(f, h, &bad_line) == 0) {
		copy_str(device, n, h->device);
		if (backup_verify_data(fileno(f), h, buf) == 0)
			state = h->version < 2 ? BACKUP_OLD
				: h->restored ? BACKUP_WAS_RESTORED : BACKUP_GOOD;
	} else if (f && being_written(f)) {
		state = BACKUP_BEING_WRITTEN;
	}
	if (f)
		fclose(f);
	if (h)
		free(h->spans);
	free(h);
	free(buf);
	return state;
}

int backup_mark_restored(int fd)
{
	static const char mark[] = BACKUP_RESTORED;
	int e = -dev_fd_transfer(fd, (void *)mark, sizeof mark - 1, 0, true);

	_Static_assert(sizeof BACKUP_RESTORED == sizeof BACKUP_MAGIC, "marked in place");
	if (!e && fsync(fd) < 0)
		e = errno;
	return -e;
}

int backup_retire(const char *file, int fd)
{
	int own = -1, r, why;

	if (unlink(file) == 0)
		return 1;
	why = errno;
	if (fd < 0)
		fd = own = open(file, O_WRONLY | O_CLOEXEC);
	r = fd >= 0 && backup_mark_restored(fd) == 0 ? 0 : -1;
	if (own >= 0)
		close(own);
	errno = why;	/* why it is not removed */
	return r;
}
