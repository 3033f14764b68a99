/*
 * --capacity: does the card store what it advertises? Writes
 * self-identifying sectors at a few chosen offsets (saved before and
 * restored after, like --preserve), reads them back past the card's write
 * cache, and finds where data wraps to a lower offset, is lost, or fails.
 */
#ifndef FB_CAPACITY_H
#define FB_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "lib/json.h"
#include "lib/traffic.h"

enum cap_verdict { CAP_GENUINE, CAP_COUNTERFEIT, CAP_DAMAGED, CAP_UNKNOWN };
enum cap_mode { CAP_MODE_NONE, CAP_MODE_WRAP, CAP_MODE_LOST, CAP_MODE_ERROR };

struct capacity_result {
	enum cap_verdict verdict;	/* CAP_UNKNOWN when interrupted or unrestored */
	enum cap_mode mode;
	uint64_t advertised;
	uint64_t addressable;		/* advertised in whole logical blocks: all I/O can reach */
	uint64_t real_lo, real_hi;	/* real size in [lo, hi]; exact when equal */
	uint64_t unit;			/* label size: the precision of the answer */
	uint64_t cache_flush;		/* writes before read-back: caches up to this are defeated */
	uint64_t error_off;		/* CAP_MODE_ERROR: first failed I/O */
	int error_errno;
	bool error_write;
	uint64_t bytes_written, bytes_read;	/* every byte, saving and restoring included */
	struct io_traffic traffic;	/* the same, by purpose */
	uint64_t ios;			/* the check's own I/Os */
	int64_t device_ns;		/* time in I/O (the model's time on sim:) */
	int rounds;
	bool interrupted;
	bool restored;			/* every saved sector written back and verified */
	bool simulated;			/* a sim: card: its data lives only during the check */
	char restore_error[1024];	/* why not, when not */
	char rescue_file[1024];		/* then: the file --restore takes, "" if none */
	/* no verdict because the check could not run or finish (CAP_UNKNOWN) */
	char error[1024];		/* why: the data could not be saved, say; "" if it ran */
	int host_errno;			/* a write failed for the host (ENOSPC...): no verdict */
	/* --max-write: */
	uint64_t needed;		/* bytes the first round writes, restore included */
	bool not_run_max_write;		/* the first round did not fit: nothing written */
	bool cut_by_max_write;		/* the search stopped short: real size is a range */
};

/*
 * Runs the check on d (opened for writing). backup_path: NULL keeps the
 * overwritten sectors in memory. verbose: where to name what each round
 * overwrites (-v), or NULL. max_write: the most it may write, restoring
 * included (0: no limit): a first round that does not fit writes nothing,
 * a search round that does not fit ends the search with a range. Returns 0
 * when it came to a verdict, -1 otherwise (interrupted, not run, or a
 * save/restore failed: see r and err; r->error says why there is none).
 */
int capacity_run(struct dev *d, const char *backup_path, FILE *verbose, uint64_t max_write,
		 struct capacity_result *r, char *err, size_t n);

/* The exit status the verdict calls for: 0 genuine, 1 otherwise. */
int capacity_exit_status(const struct capacity_result *r);
const char *capacity_verdict_name(enum cap_verdict v);

/* "counterfeit: advertises 64GiB, stores 7.5GiB (wraps to offset 0 beyond)" */
void capacity_summary(char *buf, size_t n, const struct capacity_result *r);
/*
 * --auto's headline: a fake's summary and that the tests stayed inside its
 * real size, or the "capacity" line of a genuine card; "capacity not
 * checked: why" when the check could not run; nothing when interrupted.
 */
void capacity_headline(FILE *f, const struct capacity_result *r);
/* Summary line, then the details. */
void capacity_text(FILE *f, const struct capacity_result *r);
/* The result as one object member (for --auto and the --capacity document). */
void capacity_json(struct jw *w, const char *key, const struct capacity_result *r);
/* The whole --json document of --capacity. */
void capacity_json_report(FILE *f, const struct dev *d, const char *device,
			  const struct capacity_result *r);

#endif
