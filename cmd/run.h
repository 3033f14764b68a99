/* Running one test: from the measurement to the verdicts the renderers show. */
#ifndef FB_RUN_H
#define FB_RUN_H

#include "measure/measure.h"
#include "cmd/options.h"
#include "report/report.h"

/* The analysis of the run rep holds (-a, --find-fat, --open-au), before rendering. */
void run_report_verdict_compute(const struct report *rep, struct report_verdict *v);

/* The device of o: opened, checked, its test(s) run and reported. Returns the exit status. */
int run_device(struct options *o);
/* Would o's action write to the device? */
bool run_action_writes(const struct options *o);
/* Refuses (usage error) outputs that are the device under test or rest on it. */
void run_check_outputs(const struct options *o);
/* atexit: output that never reached stdout (a full disk) fails the run. */
void run_check_stdout_at_exit(void);

#endif
