/*
 * --preserve: the spans a test overwrites are saved first (to memory or a
 * --backup file) and written back and verified at the end, at exit, or on
 * a second signal; and --restore's writing back of a backup file.
 */
#include "safety/preserve.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/backup.h"
#include "safety/lock.h"
#include "lib/msg.h"
#include "safety/signals.h"
#include "lib/units.h"

#define PRESERVE_MEMORY_MAX (256ull << 20)
#define CHUNK BACKUP_CHUNK

/* What a restore needs, all reachable from a signal handler. */
static struct preserved {
	int fd;			/* dup of the device's descriptor; -1 if it has none (sim:, no data) */
	struct backup_header meta;	/* the device, the spans; in file mode where data is */
	void **data;		/* memory mode: one aligned copy per span */
	int backup_fd;		/* file mode: -1 otherwise */
	char backup_path[PATH_MAX];
	void *chunk, *check;	/* aligned staging and read-back buffers */
} pv = { .fd = -1, .backup_fd = -1 };

static volatile sig_atomic_t pv_armed;
static volatile sig_atomic_t saving;		/* the --backup file is being written */
static volatile sig_atomic_t restoring;		/* preserve_restore() is writing back */
static volatile sig_atomic_t exit_after_restore;	/* a signal came meanwhile: its number */
static bool backup_removed;
static uint64_t restored_bytes, verified_bytes;	/* device I/O not yet given to dev_count() */
static char kept_file[PATH_MAX];	/* after a failed restore: what --restore takes */
static struct sigaction pv_old_sigpipe;	/* SIGPIPE is ignored while data is at stake */

static bool preserve_fatal_signal(int sig);

bool preserve_active(void)
{
	return pv_armed;
}

/* Where a restore stopped. */
struct restore_failure {
	uint64_t off, len;
	int err;		/* errno, or 0 when the data read back differs */
	bool backup;		/* reading the backup file failed */
	bool flush;		/* written back and verified, but the flush to the medium failed */
};

/* positive errno, as the restore bookkeeping keeps it */
static int full_io(int fd, void *buf, size_t len, uint64_t off, bool write)
{
	return -dev_fd_transfer(fd, buf, len, off, write);
}

static uint64_t backup_data_pos(int span, uint64_t pos)
{
	uint64_t at = pv.meta.data_offset;

	for (int i = 0; i < span; i++)
		at += pv.meta.spans[i].len;
	return at + pos;
}

/* The device's bytes at off read into pv.check: whether they are src's. */
static bool device_holds(const char *src, size_t c, uint64_t off, int *e)
{
	*e = full_io(pv.fd, pv.check, c, off, false);
	if (*e)
		return false;
	verified_bytes += c;
	return memcmp(src, pv.check, c) == 0;
}

/* One chunk of span i back to the device, read back and compared: 0 or -1 with f set. */
static int restore_chunk(int i, uint64_t pos, size_t c, struct restore_failure *f)
{
	uint64_t off = pv.meta.spans[i].off + pos;
	const char *src;
	int e, read_e;

	if (pv.backup_fd >= 0) {
		e = full_io(pv.backup_fd, pv.chunk, c, backup_data_pos(i, pos), false);
		if (e) {
			*f = (struct restore_failure){ off, c, e, true, false };
			return -1;
		}
		src = pv.chunk;
	} else {
		src = (const char *)pv.data[i] + pos;
	}
	e = full_io(pv.fd, (void *)src, c, off, true);
	if (!e)
		restored_bytes += c;
	/*
	 * A write that failed may have had nothing to do: a sparse image on a
	 * full disk cannot allocate the hole the test never managed to fill.
	 */
	if (device_holds(src, c, off, &read_e))
		return 0;
	*f = (struct restore_failure){ off, c, e ? e : read_e, false, false };
	return -1;
}

/*
 * What was written back through a descriptor without O_SYNC (--class, and
 * --auto's class step: doc/speed-classes.md) may still sit in the device's
 * write cache: flushed (fdatasync) before anyone says it is restored or the
 * process exits, on every path (the end of a run, a signal, exit). With
 * O_SYNC each write was flushed already. 0 or errno. Async-signal-safe.
 */
static int flush_restored(void)
{
	int fl = fcntl(pv.fd, F_GETFL);

	if (fl >= 0 && (fl & O_DSYNC))	/* (O_SYNC includes it) */
		return 0;
	return fdatasync(pv.fd) < 0 ? errno : 0;
}

/*
 * Writes every span back and reads it back to compare; past a failure it
 * goes on (a dying card may still take the rest) and reports the first;
 * then flushes what it wrote (flush_restored). A backup file is checked
 * whole first: a damaged one writes nothing. Async-signal-safe.
 */
static int restore_spans(struct restore_failure *first)
{
	struct restore_failure f;
	int r = 0;

	if (pv.fd < 0)
		return 0;	/* a sim: card stores no data */
	if (pv.backup_fd >= 0 && (r = backup_verify_data(pv.backup_fd, &pv.meta, pv.chunk)) != 0) {
		*first = (struct restore_failure){ 0, 0, r, true, false };
		return -1;
	}
	for (int i = 0; i < pv.meta.nspans; i++) {
		for (uint64_t pos = 0; pos < pv.meta.spans[i].len; pos += CHUNK) {
			uint64_t left = pv.meta.spans[i].len - pos;
			size_t c = left < CHUNK ? (size_t)left : CHUNK;
			if (restore_chunk(i, pos, c, &f) < 0 && r == 0) {
				*first = f;
				r = -1;
			}
		}
	}
	int e = flush_restored();
	if (e && r == 0) {
		*first = (struct restore_failure){ 0, 0, e, false, true };
		r = -1;
	}
	return r;
}

/*
 * "bytes A to B, C to D" of the spans a test overwrote, for saying what
 * state the device is in; spans that touch read as one range.
 */
static void describe_spans(char *buf, size_t n)
{
	size_t l = 0;
	int shown = 0, ranges = 0;

	buf[0] = '\0';
	for (int i = 0; i < pv.meta.nspans; i++) {
		uint64_t first = pv.meta.spans[i].off, end = first + pv.meta.spans[i].len;
		while (i + 1 < pv.meta.nspans && pv.meta.spans[i + 1].off == end)
			end += pv.meta.spans[++i].len;
		ranges++;
		if (shown < 4 && l < n) {
			l += (size_t)snprintf(buf + l, n - l, "%s%" PRIu64 " to %" PRIu64,
					      shown ? ", " : "bytes ", first, end - 1);
			shown++;
		}
	}
	if (ranges > shown && l < n)
		snprintf(buf + l, n - l, " and %d more ranges", ranges - shown);
}

static void describe_restore_failure(const struct restore_failure *f, char *err, size_t n)
{
	char where[256];

	describe_spans(where, sizeof where);
	if (f->backup && f->err == EBADMSG)
		snprintf(err, n, "%s: the backup is damaged (checksum or length mismatch), so nothing "
			 "was written back: %s still holds the test's data in %s; --restore refuses "
			 "this backup too", pv.backup_path, pv.meta.device, where);
	else if (f->backup)
		snprintf(err, n, "%s: reading the backup: %s; nothing was written back: %s still "
			 "holds the test's data in %s", pv.backup_path, strerror(f->err), pv.meta.device,
			 where);
	else if (f->flush)
		snprintf(err, n, "%s: flushing the restored data to the medium: %s", pv.meta.device,
			 strerror(f->err));
	else if (f->err)
		snprintf(err, n, "%s: restoring %" PRIu64 " bytes at offset %" PRIu64 ": %s",
			 pv.meta.device, f->len, f->off, strerror(f->err));
	else
		snprintf(err, n, "%s: restoring %" PRIu64 " bytes at offset %" PRIu64
			 ": the data read back differs", pv.meta.device, f->len, f->off);
}

/*
 * After a verified restore the backup file has done its job; left behind it
 * would be offered again, and restoring it later would roll back whatever
 * was written since: removed, or where that fails marked restored.
 * Async-signal-safe.
 */
static void remove_backup(void)
{
	if (pv.backup_fd >= 0 && pv.backup_path[0] && backup_retire(pv.backup_path, pv.backup_fd) > 0)
		backup_removed = true;
}

bool preserve_backup_removed(void)
{
	return backup_removed;
}

const char *preserve_kept_file(void)
{
	return kept_file[0] ? kept_file : NULL;
}

void preserve_account(struct dev *d)
{
	dev_count(d, IO_RESTORE, 0, restored_bytes);
	dev_count(d, IO_VERIFY, verified_bytes, 0);
	restored_bytes = verified_bytes = 0;
}

static void release_preserved(void)
{
	if (pv_armed)
		sigaction(SIGPIPE, &pv_old_sigpipe, NULL);
	pv_armed = 0;
	saving = 0;
	if (pv.fd >= 0)
		close(pv.fd);
	if (pv.backup_fd >= 0)
		close(pv.backup_fd);
	for (int i = 0; pv.data && i < pv.meta.nspans; i++)
		free(pv.data[i]);
	free(pv.data);
	free(pv.meta.spans);
	free(pv.chunk);
	free(pv.check);
	memset(&pv, 0, sizeof pv);
	pv.fd = pv.backup_fd = -1;
}

static int fsync_parent_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, r;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) ? (int)(slash - path) : 1, path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

/* The saved bytes of span i at pos: read from d, or from memory when d is NULL. */
static int span_data(struct dev *d, int i, uint64_t pos, size_t c, const void **data,
		     char *err, size_t n)
{
	if (!d) {
		*data = (const char *)pv.data[i] + pos;
		return 0;
	}
	int r = dev_pread_all(d, pv.chunk, c, pv.meta.spans[i].off + pos);
	if (r < 0) {
		snprintf(err, n, "%s: reading %zu bytes at offset %" PRIu64 ": %s", d->path, c,
			 pv.meta.spans[i].off + pos, strerror(-r));
		return -1;
	}
	*data = pv.chunk;
	return 0;
}

/*
 * Writes the spans (from the device d, or from memory when d is NULL) to the
 * open backup fd, the header last, and fsyncs file and directory.
 */
static int write_backup(struct dev *d, int fd, const char *path, char *err, size_t n)
{
	size_t hcap = 4096 + PATH_MAX + sizeof pv.meta.identity + (size_t)pv.meta.nspans * 48;
	char *header = malloc(hcap);
	uint64_t sum, at;
	int hlen, e;

	if (!header) {
		snprintf(err, n, "--backup=%s: out of memory", path);
		return -1;
	}
	pv.meta.data_offset = pv.meta.checksum = 0;
	hlen = backup_format_header(header, hcap, &pv.meta);
	if (hlen < 0) {
		snprintf(err, n, "--backup=%s: header too long", path);
		free(header);
		return -1;
	}
	pv.meta.data_offset = ((uint64_t)hlen + 64 + 4095) / 4096 * 4096;	/* room for the digits */
	at = pv.meta.data_offset;
	/* until the header is complete, the file says it is not a backup yet */
	e = full_io(fd, BACKUP_PARTIAL "\n", sizeof BACKUP_PARTIAL, 0, true);
	if (e)
		goto write_failed;
	hlen = backup_format_header(header, hcap, &pv.meta);	/* with its data_offset */
	pv.meta.header_sum = sum = backup_header_sum(header);
	pv.meta.version = 2;
	for (int i = 0; i < pv.meta.nspans; i++) {
		for (uint64_t pos = 0; pos < pv.meta.spans[i].len; pos += CHUNK) {
			uint64_t left = pv.meta.spans[i].len - pos;
			size_t c = left < CHUNK ? (size_t)left : CHUNK;
			const void *data;
			if (span_data(d, i, pos, c, &data, err, n) < 0) {
				free(header);
				return -1;
			}
			sum = backup_checksum_update(sum, data, c);
			e = full_io(fd, (void *)data, c, at, true);
			if (e)
				goto write_failed;
			at += c;
		}
	}
	pv.meta.checksum = sum;
	hlen = backup_format_header(header, hcap, &pv.meta);
	e = hlen < 0 ? EOVERFLOW : full_io(fd, header, (size_t)hlen, 0, true);
	if (!e && (fsync(fd) < 0 || fsync_parent_dir(path) < 0))
		e = errno;
	if (e)
		goto write_failed;
	free(header);
	return 0;
write_failed:
	snprintf(err, n, "--backup=%s: %s", path, strerror(e));
	free(header);
	return -1;
}

/*
 * A restore from memory failed (a dying card, say): keep the saved bytes in
 * a backup file so `--restore` can try again later. Appends to err.
 */
static void rescue_to_file(char *err, size_t n)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX], why[512];
	int fd;

	snprintf(path, sizeof path, "%s/flashbench-rescue-XXXXXX", dir && *dir ? dir : "/var/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		fmt_append(err, n, "; could not keep the saved data in %s: %s", path,
			 strerror(errno));
		return;
	}
	if (write_backup(NULL, fd, path, why, sizeof why) < 0) {
		fmt_append(err, n, "; could not keep the saved data: %s", why);
		unlink(path);
	} else {
		fmt_append(err, n, "; the saved data is in %s: flashbench --restore %s %s",
			 path, path, pv.meta.device);
		snprintf(kept_file, sizeof kept_file, "%s", path);
	}
	close(fd);
}

int preserve_restore(char *err, size_t n)
{
	struct restore_failure f = { 0 };
	int r = 0;

	if (!pv_armed)
		return 0;
	/* a signal meanwhile lets this one attempt finish, then exits (preserve_fatal_signal) */
	restoring = 1;
	kept_file[0] = '\0';
	if (restore_spans(&f) < 0) {
		describe_restore_failure(&f, err, n);
		if (pv.backup_fd >= 0 && !f.backup) {	/* the backup checked out: --restore takes it */
			fmt_append(err, n, "; the backup stays in %s: flashbench --restore %s %s",
				 pv.backup_path, pv.backup_path, pv.meta.device);
			snprintf(kept_file, sizeof kept_file, "%s", pv.backup_path);
		} else if (pv.data) {
			rescue_to_file(err, n);
		}
		r = -1;
	} else {
		remove_backup();
	}
	restoring = 0;
	if (exit_after_restore) {
		if (r == 0)
			warnx_fb("%s: restored and verified: as before the test",
				pv.meta.device);
		else
			warnx_fb("%s", err);
		_exit(128 + exit_after_restore);
	}
	release_preserved();
	return r;
}

/* Should the program end without calling preserve_restore(), restore anyway. */
static void restore_at_exit(void)
{
	char err[PATH_MAX * 3 + 256];

	if (pv_armed && preserve_restore(err, sizeof err) < 0)
		warnx_fb("%s", err);
}

/*
 * A device that keeps no data (a sim: card) has nothing to save, but what
 * does not read could not be saved from a card: it fails the same way.
 */
static int check_readable(struct dev *d, char *err, size_t n)
{
	for (int i = 0; i < pv.meta.nspans; i++) {
		for (uint64_t pos = 0; pos < pv.meta.spans[i].len; pos += CHUNK) {
			uint64_t left = pv.meta.spans[i].len - pos;
			const void *data;
			if (span_data(d, i, pos, left < CHUNK ? (size_t)left : CHUNK, &data, err, n) < 0)
				return -1;
		}
	}
	return 0;
}

static int save_to_memory(struct dev *d, char *err, size_t n)
{
	if (!dev_stores_data(d))
		return check_readable(d, err, n);	/* nothing to keep */
	pv.data = calloc((size_t)pv.meta.nspans, sizeof *pv.data);
	if (!pv.data && pv.meta.nspans) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (int i = 0; i < pv.meta.nspans; i++) {
		int r;
		pv.data[i] = dev_alloc_buffer(pv.meta.spans[i].len);
		if (!pv.data[i]) {
			snprintf(err, n, "out of memory for %" PRIu64 " bytes",
				 pv.meta.spans[i].len);
			return -1;
		}
		r = dev_pread_all(d, pv.data[i], pv.meta.spans[i].len, pv.meta.spans[i].off);
		if (r < 0) {
			snprintf(err, n, "%s: reading %" PRIu64 " bytes at offset %" PRIu64
				 ": %s", d->path, pv.meta.spans[i].len, pv.meta.spans[i].off, strerror(-r));
			return -1;
		}
	}
	return 0;
}

static int check_spans(const struct dev *d, const struct span *spans, int nspans,
		       uint64_t *total, char *err, size_t n)
{
	*total = 0;
	for (int i = 0; i < nspans; i++) {
		const struct span *s = &spans[i];
		if (!s->len || s->off > d->size || s->len > d->size - s->off ||
		    s->off % d->lbs || s->len % d->lbs) {
			snprintf(err, n, "span %" PRIu64 "+%" PRIu64
				 " is not inside %s in whole blocks", s->off, s->len, d->path);
			return -1;
		}
		*total += s->len;
	}
	return 0;
}

/* Why --backup=FILE could not be created; for an existing file, advice that works. */
static void explain_backup_open(const char *path, int e, char *err, size_t n)
{
	char from[PATH_MAX];

	if (e != EEXIST) {
		snprintf(err, n, "--backup=%s: %s", path, strerror(e));
		return;
	}
	switch (backup_examine(path, from, sizeof from)) {
	case BACKUP_GOOD:
		snprintf(err, n, "--backup=%s: exists, a backup of %s from an earlier run: put it "
			 "back with flashbench --restore %s %s, or remove it", path, from, path, from);
		break;
	case BACKUP_WAS_RESTORED:
		snprintf(err, n, "--backup=%s: exists, a backup of %s that was restored already "
			 "(restoring it again would undo everything written since): remove it, or "
			 "choose another name", path, from);
		break;
	case BACKUP_OLD:
		snprintf(err, n, "--backup=%s: exists, a backup of %s by an older flashbench, whose "
			 "checksum does not cover its span table: check it, then flashbench --restore "
			 "--force %s %s, or remove it", path, from, path, from);
		break;
	default:
		snprintf(err, n, "--backup=%s: exists, and is no backup --restore would take: "
			 "choose another name", path);
		break;
	}
}

/*
 * A --backup file found being written: another run still saving to it
 * (its lock is taken) keeps it; one left by a run killed while saving,
 * before it wrote anything to the device, holds nothing anybody needs: it
 * goes, and the user is told. 0: removed; -1: err says why not.
 */
static int remove_stale_partial(const char *path, const char *what, char *err, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0) {
		explain_backup_open(path, EEXIST, err, n);
		return -1;
	}
	if (safety_lock_file(fd, what, err, n) < 0) {	/* its run is still saving */
		fmt_append(err, n, ": choose another name");
		close(fd);
		return -1;
	}
	int r = unlink(path);
	close(fd);
	if (r < 0) {
		explain_backup_open(path, EEXIST, err, n);
		return -1;
	}
	warnx_fb("--backup=%s: removed the partial backup a stopped run left (it had "
		 "written nothing to the device)", path);
	return 0;
}

/*
 * Creates the --backup file, locked (flock) for as long as the run lasts:
 * another run sees it is in use and neither removes nor overwrites it.
 */
static int create_backup(const char *path, char *err, size_t n)
{
	char from[PATH_MAX], what[PATH_MAX + 16];
	struct stat mine, named;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	snprintf(what, sizeof what, "--backup=%s", path);
	if (fd < 0 && errno == EEXIST &&
	    backup_examine(path, from, sizeof from) == BACKUP_BEING_WRITTEN) {
		if (remove_stale_partial(path, what, err, n) < 0)
			return -1;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		explain_backup_open(path, errno, err, n);
		return -1;
	}
	/* locked, and still the file the path names (not removed between the open and the lock) */
	if (safety_lock_file(fd, what, err, n) < 0) {
		close(fd);
		return -1;
	}
	if (fstat(fd, &mine) < 0 || stat(path, &named) < 0 || mine.st_dev != named.st_dev ||
	    mine.st_ino != named.st_ino) {
		snprintf(err, n, "--backup=%s: removed by another process while it was being "
			 "created; not testing", path);
		close(fd);
		return -1;
	}
	return fd;
}

int preserve_save(struct dev *d, const struct span *spans, int nspans, const char *backup_path,
		  char *err, size_t n)
{
	static bool exit_hook;
	uint64_t total;

	if (pv_armed) {
		snprintf(err, n, "already holding saved data");
		return -1;
	}
	safety_on_fatal_signal(preserve_fatal_signal);
	kept_file[0] = '\0';
	if (nspans < 0 || check_spans(d, spans, nspans, &total, err, n) < 0)
		return -1;
	if (!backup_path && total > PRESERVE_MEMORY_MAX) {
		snprintf(err, n, "the test overwrites %" PRIu64 " bytes, more than is "
			 "kept in memory; add --backup=FILE", total);
		return -1;
	}
	dev_canonical_name(d, pv.meta.device, sizeof pv.meta.device);
	pv.meta.size = d->size;
	pv.meta.lbs = d->lbs;
	dev_identity(d, pv.meta.identity, sizeof pv.meta.identity);
	pv.meta.nspans = nspans;
	pv.meta.spans = malloc((size_t)(nspans ? nspans : 1) * sizeof *spans);
	pv.chunk = dev_alloc_buffer(CHUNK);
	pv.check = dev_alloc_buffer(CHUNK);
	if (!pv.meta.spans || !pv.chunk || !pv.check) {
		snprintf(err, n, "out of memory");
		goto fail;
	}
	memcpy(pv.meta.spans, spans, (size_t)nspans * sizeof *spans);
	if (d->fd >= 0 && (pv.fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		snprintf(err, n, "%s: %s", d->path, strerror(errno));
		goto fail;
	}
	if (backup_path) {
		snprintf(pv.backup_path, sizeof pv.backup_path, "%s", backup_path);
		pv.backup_fd = create_backup(backup_path, err, n);
		if (pv.backup_fd < 0)
			goto fail;
		saving = 1;
		if (write_backup(d, pv.backup_fd, backup_path, err, n) < 0) {
			if (unlink(backup_path) == 0)
				fmt_append(err, n, " (the partial backup is removed; nothing was written "
					"to %s)", d->path);
			goto fail;
		}
	} else if (save_to_memory(d, err, n) < 0) {
		goto fail;
	}
	if (!exit_hook)
		exit_hook = atexit(restore_at_exit) == 0;
	/* printing results into a closed pipe must not kill us before the restore */
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	sigaction(SIGPIPE, &ignore, &pv_old_sigpipe);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* everything above before the flag */
	pv_armed = 1;
	saving = 0;
	return 0;
fail:
	release_preserved();
	return -1;
}


/* The second signal: one restore attempt, then what state the device is in. */
static void restore_and_say(void)
{
	struct restore_failure f;

	pv_armed = 0;
	safety_signal_say("flashbench: restoring the preserved data\n");
	int r = restore_spans(&f);
	safety_signal_say("flashbench: ");
	safety_signal_say(pv.meta.device);
	if (r == 0) {
		remove_backup();
		safety_signal_say(": restored and verified: as before the test\n");
	} else if (f.backup) {
		safety_signal_say(": nothing written back, it still holds the test's data: the backup ");
		safety_signal_say(pv.backup_path);
		safety_signal_say(f.err == EBADMSG ? " is damaged\n" : " cannot be read\n");
	} else if (f.flush) {
		safety_signal_say(": restoring FAILED: written back and verified, but flushing it to the "
		    "medium failed");
		if (pv.backup_fd >= 0) {
			safety_signal_say("; the backup is intact: flashbench --restore ");
			safety_signal_say(pv.backup_path);
			safety_signal_say(" ");
			safety_signal_say(pv.meta.device);
		}
		safety_signal_say("\n");
	} else if (pv.backup_fd >= 0) {
		safety_signal_say(": restoring FAILED, it holds test data where that failed; the backup is "
		    "intact: flashbench --restore ");
		safety_signal_say(pv.backup_path);
		safety_signal_say(" ");
		safety_signal_say(pv.meta.device);
		safety_signal_say("\n");
	} else {
		safety_signal_say(": restoring FAILED, it holds test data where that failed\n");
	}
}

/* Stopped while the --backup file was being written: nothing written to the device yet. */
static void remove_partial_backup(void)
{
	saving = 0;
	if (unlink(pv.backup_path) != 0)
		return;
	safety_signal_say("flashbench: removed the partial backup ");
	safety_signal_say(pv.backup_path);
	safety_signal_say(": nothing was written to ");
	safety_signal_say(pv.meta.device);
	safety_signal_say("\n");
}

/* Registered with safety/signals.c: a second stop signal, or a program error. */
static bool preserve_fatal_signal(int sig)
{
	static volatile sig_atomic_t in_handler_restore, told_still_restoring;

	if (in_handler_restore || exit_after_restore) {
		/* cutting a restore short would leave the device half old, half test data */
		if (!told_still_restoring)
			safety_signal_say("flashbench: still restoring the preserved data; exiting when it is done\n");
		told_still_restoring = 1;
		return false;
	}
	if (restoring) {	/* the one restore attempt is already under way */
		exit_after_restore = sig;
		safety_signal_say("flashbench: exiting once the restore under way is done\n");
		return false;
	}
	if (pv_armed) {
		in_handler_restore = 1;
		restore_and_say();
	} else if (saving) {
		remove_partial_backup();
	}
	return true;
}

int preserve_write_back(const char *device, int dev_fd, const char *backup_path, int backup_fd,
			struct backup_header *h, char *err, size_t n)
{
	struct restore_failure f = { 0 };
	int r = 0;

	snprintf(pv.meta.device, sizeof pv.meta.device, "%s", device);
	snprintf(pv.backup_path, sizeof pv.backup_path, "%s", backup_path);
	pv.meta.spans = h->spans;
	pv.meta.nspans = h->nspans;
	h->spans = NULL;
	pv.meta.data_offset = h->data_offset;
	pv.meta.checksum = h->checksum;
	pv.meta.header_sum = h->header_sum;
	pv.meta.version = h->version;
	pv.backup_fd = backup_fd;
	pv.fd = dev_fd >= 0 ? fcntl(dev_fd, F_DUPFD_CLOEXEC, 0) : -1;
	pv.chunk = dev_alloc_buffer(CHUNK);
	pv.check = dev_alloc_buffer(CHUNK);
	if ((dev_fd >= 0 && pv.fd < 0) || !pv.chunk || !pv.check) {
		snprintf(err, n, "%s", strerror(errno ? errno : ENOMEM));
		r = -1;
	} else if (restore_spans(&f) < 0) {
		describe_restore_failure(&f, err, n);
		r = -1;
	}
	release_preserved();
	return r;
}
