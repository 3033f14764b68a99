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

/*
 * Work planned, for the ETA: bytes to move in I/Os of io_bytes (0: of the
 * sizes moved so far), read or written, in max_ns of time at most (0: no
 * cap, e.g. a phase that stops after 4 s). key: 0, or 1..PROGRESS_KEYS for
 * work the caller knows to go at a rate of its own (open-AU runs that hold,
 * runs that collapse): measured and planned apart from the rest. pause_ns:
 * a pause the caller knows comes before it (the card left idle), planned
 * at its length rather than as the average pause between measurements.
 */
#define PROGRESS_KEYS 6
/* Work of this key, until measured, goes at ten times key 1's time (runs that collapse). */
#define PROGRESS_KEY_SLOW 2
struct progress_work {
	uint64_t bytes;
	uint32_t io_bytes;
	bool write;
	int64_t max_ns;
	int key;
	int64_t pause_ns;
};
/* progress_start() of a measurement the plan describes (total: w->bytes). */
void progress_start_work(const char *test, const char *step, const struct progress_work *w);
/*
 * A measurement that does not tick (I/O by another path: saving, restoring):
 * the line names it, and its time left is the planned time minus the time
 * it has taken.
 */
void progress_start_quiet(const char *test, const char *step, const struct progress_work *w);
/*
 * The work still to come after the current measurement, a measurement per
 * item, replacing what was stated before. With a plan the ETA is the whole
 * run's (or test's): the current measurement's time left at its own rate,
 * then each item at the rates measured so far for I/O of its kind (reads or
 * writes, small or large I/Os), then the pauses between measurements as
 * long as they have been on average.
 */
void progress_plan(const struct progress_work *items, int n);
/* In a run: the work of the steps after the current one (progress_plan(): the current step's). */
void progress_run_plan(const struct progress_work *items, int n);
/*
 * In a run: the current step's work from now on, what is under way
 * included: the bytes moved after it was stated are done of its items, in
 * their order (until restated). Instead of the current measurement and
 * progress_plan(), for a step whose measurements do not state their own.
 */
void progress_step_plan(const struct progress_work *items, int n);
/*
 * In a run: fn(arg) before each measurement starts, to restate the plan; it
 * returns the key of the measurement starting (its rates are measured apart;
 * 0: none). NULL: no such call.
 */
void progress_on_start(int (*fn)(void *arg), void *arg);
/*
 * Work of key, until measured, goes at the rate of key like (or of the key
 * that one is like, until one was measured), factor times its time; by
 * default every key is like key 1, PROGRESS_KEY_SLOW at ten times its time;
 * like -1: like no key, at the rates of its kind of I/O.
 * For the current run (or test); progress_run_end() forgets it.
 */
void progress_key_like(int key, int like, double factor);
/* The time per byte measured so far for work of key, in ns; 0 when none was measured. */
double progress_key_ns_per_byte(int key);
/*
 * The keyed measurements since the last call (or the run's start) turned
 * out to be work of this key (an open-AU run planned to hold that
 * collapsed): their rates move to it. Key 0: they stay where they are.
 */
void progress_rekey_last(int key);
/* The time left as the line shows it, in ns; -1 when not known (no line, nothing measured yet). */
int64_t progress_eta_ns(void);
/* Tests: the clock the line and the estimates read (NULL: CLOCK_MONOTONIC). */
void progress_set_clock(int64_t (*now)(void));
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
 * time left (from the plan, progress_plan(); without one, from the steps'
 * usual shares); the tests it runs meanwhile (progress_start/tick/done) fill
 * in the step's progress.
 */
struct progress_step {
	const char *name;	/* "FAT area" */
	double weight;		/* its usual share of the run's time */
	int runs;		/* measurements it usually takes (progress_start calls) */
};
void progress_run_begin(const struct progress_step *steps, int nsteps);
void progress_run_step(int step);	/* 0-based */
/* A step that will not run (or did not, the current one) after all: "step N of M" counts only the others. */
void progress_run_skip(int step);
void progress_run_end(void);	/* clears the line */

#endif
