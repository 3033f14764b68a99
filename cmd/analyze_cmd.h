/* flashbench --analyze: verdicts from saved output. */
#ifndef FB_ANALYZE_CMD_H
#define FB_ANALYZE_CMD_H

#include <stdbool.h>
#include <stdio.h>

/* flashbench --analyze FILE ("-" = stdin): verdicts from saved output. Returns exit status. */
int analyze_cmd_file(const char *path, bool json, FILE *out);

#endif
