/*
 * --auto --destructive's hook for --class (checks/class.c): when a claim is
 * known (the card's SD Status, or --claim), the class check runs after the
 * capacity check and the write phase, inside the real size and within what
 * --max-write leaves; its verdict joins the report's first lines.
 */
#include <stdlib.h>
#include <string.h>

#include "auto/auto_state.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "vm.h"

/* What --max-write (or the write plan's budget) leaves; 0 where there is no limit. */
static uint64_t bytes_left(const struct autostate *s)
{
	return s->max_write > s->d->bytes_written ? s->max_write - s->d->bytes_written : 0;
}

/*
 * The class check's room. The write plan buys it its least volume, one
 * pass over the area (room 1): a claim met at a rate a write cache may
 * carry is then low confidence, with the line that writes far enough.
 * Only a --max-write the user gave lets its passes go on into what the
 * write phase left (issue 26: the default budget is not spent on passes).
 */
static uint64_t class_room(const struct autostate *s, bool planning)
{
	uint64_t left = bytes_left(s);
	return planning || !s->o->max_write || !left ? 1 : left;
}

static struct class_opts class_options(const struct autostate *s, bool planning)
{
	struct class_opts co = { .claim = s->o->claim, .sysfs_root = "/sys" };
	/* the erase size the run found, as --erasesize would give it */
	if (s->erase.bytes && s->erase.conf >= CONF_LOW && s->erase.bytes % s->d->lbs == 0) {
		co.erasesize = s->erase.bytes;
		co.erase_source = "--auto's alignment estimate";
	}
	co.room = class_room(s, planning);
	return co;
}

/* What the class check would write, its restore included (no I/O); 0: no claim to check. */
uint64_t auto_class_planned(struct autostate *s)
{
	struct class_opts co = class_options(s, true);
	struct class_result *r = calloc(1, sizeof *r);
	char err[1024];
	uint64_t bytes = 0;
	if (r && class_prepare(s->d, &co, r, err, sizeof err) == 0 && r->nclaims)
		bytes = r->plan.total_bytes;
	free(r);
	return bytes;
}

void auto_run_class(struct autostate *s)
{
	struct class_opts co = class_options(s, false);
	struct class_result *r = calloc(1, sizeof *r);
	char err[1024] = "", line[1024], a[FMT_BUF];
	uint64_t left = bytes_left(s);

	if (!r)
		return;
	if (class_prepare(s->d, &co, r, err, sizeof err) < 0 || !r->nclaims) {
		if (err[0])
			warnx_fb("--auto: class check not run: %s", err);
		free(r);
		return;
	}
	if (s->max_write && r->plan.total_bytes > left) {
		warnx_fb("--auto: class check not run: it writes up to %s, --max-write leaves %s",
			 fmt_size(line, r->plan.total_bytes), fmt_size(a, left));
		free(r);
		return;
	}
	class_plan_line(line, sizeof line, s->d, r);
	warnx_fb("%s", line);
	/*
	 * The class step writes as --class does: without O_SYNC, each write
	 * done when the card acknowledges it, one flush after the restore
	 * (safety/preserve.c, also on a signal: doc/speed-classes.md); the rest of --auto keeps the original's O_SYNC.
	 */
	int nosync = dev_set_nosync(s->d, true);
	if (nosync < 0) {
		warnx_fb("--auto: class check not run: %s: reopening it without O_SYNC: %s", s->d->path,
			 strerror(-nosync));
		free(r);
		return;
	}
	int ran = class_run(s->d, &co, r, err, sizeof err);
	dev_set_nosync(s->d, false);
	if (ran < 0) {
		if (err[0])
			warnx_fb("--auto: class check: %s", err);
		if (!r->restored)
			warnx_fb("--auto: class check: %s", r->restore_error);
		if (r->interrupted || vm_stop_requested) {
			s->status = 130;
			s->stop = true;
		} else if (r->failed || !r->restored) {
			s->status = 1;
		}
	}
	s->cls = r;
}
