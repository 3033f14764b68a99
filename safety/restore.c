/* flashbench --restore FILE DEV: a backup written back, after checking it fits. */
#include "safety/restore.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/backup.h"
#include "dev.h"
#include "lib/msg.h"
#include "safety/lock.h"
#include "safety/preserve.h"
#include "safety/safety_target.h"

/* The same file or device node: both resolve to the same path (else the same string). */
static bool same_device_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (realpath(a, ra) && realpath(b, rb))
		return strcmp(ra, rb) == 0;
	return strcmp(a, b) == 0;
}

static int restore_checks(const char *file, const char *device, const struct dev *d,
			  const struct backup_header *h, bool force)
{
	char identity[600];

	if (d->size != h->size) {
		warnx_fb("--restore: %s has %" PRIu64 " bytes but %s was taken "
			"from %s with %" PRIu64 " bytes; not restoring",
			device, d->size, file, h->device, h->size);
		return 2;
	}
	dev_identity(d, identity, sizeof identity);
	if (!force && strcmp(identity, h->identity) != 0) {
		warnx_fb("--restore: %s is \"%s\" but %s was taken from \"%s\" "
			"(%s); not restoring (--force: restore anyway)", device,
			identity[0] ? identity : "unidentified", file,
			h->identity[0] ? h->identity : "unidentified", h->device);
		return 2;
	}
	if (!force && !same_device_path(device, h->device)) {
		warnx_fb("--restore: %s was taken from %s, not %s; not restoring "
			"(--force: restore anyway)", file, h->device, device);
		return 2;
	}
	for (int i = 0; i < h->nspans; i++) {
		const struct span *s = &h->spans[i];
		if (!s->len || s->off > d->size || s->len > d->size - s->off ||
		    s->off % d->lbs || s->len % d->lbs) {
			warnx_fb("--restore: %s: span %" PRIu64 "+%" PRIu64
				" does not fit %s; not restoring", file, s->off, s->len, device);
			return 2;
		}
	}
	return 0;
}

static int open_restore_target(const char *device, struct dev *d)
{
	char err[PATH_MAX * 2 + 256];
	int r;

	if (safety_check_write_target(device, err, sizeof err) < 0) {
		warnx_fb("--restore: %s", err);
		return 1;
	}
	if (safety_lock_device(device, true, err, sizeof err) < 0) {
		warnx_fb("--restore: %s", err);
		return 1;
	}
	r = dev_open(d, device, DEV_WRITE | DEV_EXCL, err, sizeof err);
	if (r == -EBUSY)
		safety_explain_busy(device, err, sizeof err);
	if (r < 0) {
		warnx_fb("--restore: %s", err);
		return r == -EINVAL ? 2 : 1;
	}
	if (d->fd >= 0 && !safety_lock_covers(d->fd)) {
		warnx_fb("--restore: %s: changed while it was being opened; not restoring", device);
		return 1;
	}
	return 0;
}

/* Before anything is written: the backup is one --restore may take (force: also old or used ones). */
static int check_backup_kind(const char *file, const struct backup_header *h, bool force)
{
	if (h->restored && !force) {
		warnx_fb("--restore: %s was restored already: restoring it again would undo everything "
			 "written to %s since; not restoring (--force: restore anyway)", file, h->device);
		return 2;
	}
	if (h->version < 2 && !force) {
		warnx_fb("--restore: %s was written by an older flashbench, whose checksum does not "
			 "cover the span table: a damaged header would go unnoticed; not restoring "
			 "(--force: restore anyway)", file);
		return 2;
	}
	return 0;
}

/* Not a backup: perhaps one a run left while saving, before it wrote anything. */
static int not_a_backup(const char *file, int bad_line)
{
	char device[PATH_MAX];

	if (backup_examine(file, device, sizeof device) == BACKUP_BEING_WRITTEN) {
		bool gone = unlink(file) == 0;
		warnx_fb("--restore: %s: a partial backup, left by a run stopped while it saved the "
			 "data, before it wrote to the device: nothing to restore%s", file,
			 gone ? "; removed it" : "");
		return -1;
	}
	warnx_fb("--restore: %s: not a flashbench backup, or one whose header is damaged (line %d): "
		 "nothing restored, and the file is kept as it is (if it is the --backup of a "
		 "stopped run, the saved data may still be in it: do not delete it)", file, bad_line);
	return 2;
}

/* 0: h and *fd hold a backup whose header and data check out; -1: nothing to restore. */
static int read_backup(const char *file, struct backup_header *h, int *fd, bool force)
{
	struct stat st;
	int bad_line = 0, e;

	if (stat(file, &st) == 0 && !S_ISREG(st.st_mode)) {	/* a FIFO would block, a pipe no pread */
		warnx_fb("--restore: %s: not a regular file", file);
		return 2;
	}
	FILE *f = fopen(file, "re");
	if (!f) {
		warnx_fb("--restore: %s: %s", file, strerror(errno));
		return 2;
	}
	/* a run still saving to it or restoring from it keeps it: not read, not removed */
	char err[PATH_MAX + 3 * 256 + 64];
	if (safety_lock_file(fileno(f), file, err, sizeof err) < 0) {
		fclose(f);
		warnx_fb("--restore: %s (its own device is restored by that run); not restoring",
			 err);
		return 1;
	}
	if (backup_parse_header(f, h, &bad_line) < 0) {
		fclose(f);
		return not_a_backup(file, bad_line);
	}
	*fd = dup(fileno(f));
	fclose(f);
	if (*fd < 0) {
		warnx_fb("--restore: %s: %s", file, strerror(errno));
		return 1;
	}
	void *buf = malloc(BACKUP_CHUNK);
	e = buf ? backup_verify_data(*fd, h, buf) : ENOMEM;
	free(buf);
	if (e) {
		warnx_fb("--restore: %s: %s", file,
			e == EBADMSG ? "damaged (its header or data do not match the checksum); "
				       "not restoring" : strerror(e));
		return e == EBADMSG ? 2 : 1;
	}
	if (h->first_line_damaged)	/* the one line the checksum leaves out */
		warnx_fb("--restore: %s: its first line is damaged (it no longer says what the file "
			 "is), but its header and data check out: a backup, restoring it", file);
	return check_backup_kind(file, h, force);
}

/* Restored and verified: the backup is never offered again (restoring it later would undo what came since). */
static void retire(const char *file)
{
	int r = backup_retire(file, -1);

	if (r > 0)
		warnx_fb("--restore: %s: restored and verified, so removed", file);
	else if (r == 0)
		warnx_fb("--restore: %s: restored and verified; could not remove it (%s), so marked "
			 "it restored: --restore refuses it from now on", file, strerror(errno));
	else
		warnx_fb("--restore: %s: restored and verified, but could neither remove it nor "
			 "mark it restored (%s): remove it yourself, restoring it again would undo "
			 "everything written since", file, strerror(errno));
}

int restore_command(const char *backup_path, const char *device)
{
	return restore_command_opts(backup_path, device, false);
}

int restore_command_opts(const char *backup_path, const char *device, bool force)
{
	struct backup_header *h = calloc(1, sizeof *h);
	struct dev d = { .fd = -1 };
	int backup_fd = -1, rc;
	uint64_t total = 0;

	if (!h) {
		warnx_fb("--restore: out of memory");
		return 1;
	}
	rc = read_backup(backup_path, h, &backup_fd, force);
	if (rc < 0) {	/* nothing to do */
		rc = 0;
		goto out;
	}
	if (!rc)
		rc = open_restore_target(device, &d);
	if (!rc)
		rc = restore_checks(backup_path, device, &d, h, force);
	if (rc || preserve_active()) {
		if (!rc)
			rc = 1;
		goto out;
	}
	for (int i = 0; i < h->nspans; i++)
		total += h->spans[i].len;
	char err[PATH_MAX * 2 + 256];
	rc = preserve_write_back(device, d.fd, backup_path, backup_fd, h, err, sizeof err);
	backup_fd = -1;		/* closed by preserve_write_back() */
	if (rc < 0) {
		warnx_fb("--restore: %s", err);
		rc = 1;
	} else {
		printf("restored %" PRIu64 " bytes in %d span%s to %s, verified\n", total,
		       h->nspans, h->nspans == 1 ? "" : "s", device);
		retire(backup_path);
	}
out:
	if (backup_fd >= 0)
		close(backup_fd);
	char ferr[PATH_MAX + 128];
	if (dev_finish(&d, ferr, sizeof ferr) < 0) {	/* a sim: card's record= that is not whole */
		warnx_fb("--restore: %s", ferr);
		if (!rc)
			rc = 1;
	}
	dev_close(&d);
	free(h->spans);
	free(h);
	return rc;
}
