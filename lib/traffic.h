/*
 * What the bytes a run moves on a device are for: plain data, counted by
 * the device layer (dev.h), shown by the renderers (report/report_traffic.c).
 */
#ifndef FB_TRAFFIC_H
#define FB_TRAFFIC_H

#include <stdint.h>

enum io_purpose {
	IO_MEASURE,	/* the test's own reads and writes */
	IO_SAVE,	/* reading what a test will overwrite (--preserve, --capacity) */
	IO_RESTORE,	/* writing it back */
	IO_VERIFY,	/* reading it back to compare */
	IO_PURPOSES
};

struct io_traffic {
	uint64_t read[IO_PURPOSES], written[IO_PURPOSES];
};

#endif
