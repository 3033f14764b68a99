/* Progress on stderr, only when stderr is a terminal; silent otherwise. */
#ifndef FB_PROGRESS_H
#define FB_PROGRESS_H

#include <stdint.h>

/* total: I/Os the step will issue (0 if unknown). */
void progress_start(const char *test, const char *step, uint64_t total);
/* Called by the VM after each I/O, outside the timed region: must be cheap. */
void progress_tick(uint64_t bytes_written);
void progress_done(void);
/*
 * Erases the progress line, if one is on the screen, so that a message can
 * be printed; the next refresh draws it again. Async-signal-safe.
 */
void progress_clear(void);
/* Draws the line again after progress_clear(), if one was on the screen. */
void progress_redraw(void);

#endif
