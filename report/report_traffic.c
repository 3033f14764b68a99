/*
 * What a run moved on the device, by purpose (measure, save, restore,
 * verify), and how putting the user's data back went: text and JSON.
 */
#include "report/report.h"

#include <stdio.h>

#include "lib/units.h"

static const char *const purpose_key[IO_PURPOSES] = { "measure", "save", "restore", "verify" };

uint64_t report_traffic_total(const struct io_traffic *t, bool written)
{
	uint64_t sum = 0;

	for (int p = 0; p < IO_PURPOSES; p++)
		sum += written ? t->written[p] : t->read[p];
	return sum;
}

const char *text_traffic(char *buf, size_t n, const struct io_traffic *t, bool written,
			 const char *const what[IO_PURPOSES])
{
	size_t l = 0;
	char s[FMT_BUF];

	buf[0] = '\0';
	for (int p = 0; p < IO_PURPOSES && l < n; p++) {
		uint64_t b = written ? t->written[p] : t->read[p];
		if (b)
			l += (size_t)snprintf(buf + l, n - l, "%s%s %s", l ? ", " : "", fmt_size(s, b),
					      what[p]);
	}
	return buf;
}

void json_traffic(struct jw *w, const char *key, const struct io_traffic *t)
{
	jw_object_begin(w, key);
	for (int p = 0; p < IO_PURPOSES; p++) {
		jw_object_begin(w, purpose_key[p]);
		jw_uint(w, "read_bytes", t->read[p]);
		jw_uint(w, "written_bytes", t->written[p]);
		jw_object_end(w);
	}
	jw_object_end(w);
}

void json_restore(struct jw *w, const char *key, const struct restore_report *r)
{
	jw_object_begin(w, key);
	jw_bool(w, "data_restored", r->restored);
	jw_bool(w, "device_holds_test_data", !r->restored);
	if (r->error)
		jw_string(w, "error", r->error);
	else
		jw_null(w, "error");
	if (r->kept_file) {
		char cmd[4096];

		jw_string(w, "backup_file", r->kept_file);
		snprintf(cmd, sizeof cmd, "flashbench --restore %s %s", r->kept_file,
			 r->device ? r->device : "DEVICE");
		jw_string(w, "restore_command", cmd);
	} else {
		jw_null(w, "backup_file");
	}
	jw_object_end(w);
}
