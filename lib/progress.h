/* Progress on stderr, only when stderr is a terminal; silent otherwise. */
#ifndef FB_PROGRESS_H
#define FB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * total_bytes: bytes the step will read and write (0 if unknown); percent
 * and ETA follow bytes, not I/O counts, so rows of small blocks do not
 * stall the percentage. step: e.g. "N=3" (NULL for none).
 */
void progress_start(const char *test, const char *step, uint64_t total_bytes);
/* Called by the VM after each I/O, outside the timed region: must be cheap. */
void progress_tick(uint64_t bytes, bool written);
void progress_done(void);
/*
 * Erases the progress line, if one is on the screen, so that a message can
 * be printed; the next refresh draws it again. Async-signal-safe.
 */
void progress_clear(void);
/* Draws the line again after progress_clear(), if one was on the screen. */
void progress_redraw(void);

/*
 * A run of several steps (--auto): one line from its first second to
 * progress_run_end(), "step 3 of 5, FAT area: ...", with the whole run's
 * time left; the tests it runs meanwhile (progress_start/tick/done) fill in
 * the step's progress.
 */
struct progress_step {
	const char *name;	/* "FAT area" */
	double weight;		/* its usual share of the run's time */
	int runs;		/* measurements it usually takes (progress_start calls) */
};
void progress_run_begin(const struct progress_step *steps, int nsteps);
void progress_run_step(int step);	/* 0-based */
void progress_run_end(void);	/* clears the line */

#endif
