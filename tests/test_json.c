/* JSON writer and the JSON report: python3 must parse every document. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "pyeval.h"

#include "lib/json.h"
#include "measure/measure.h"
#include "report/report.h"

static const char *json_of(void (*build)(struct jw *w), struct mem *m)
{
	struct jw w;

	jw_init(&w, mem_open(m));
	build(&w);
	jw_finish(&w);
	return mem_close(m);
}

static const char *eval(struct mem *m, const char *expr)
{
	return py_eval(PY_JSON, m->buf, m->len, expr);
}

static void build_scalars(struct jw *w)
{
	jw_object_begin(w, NULL);
	jw_int(w, "neg", -9139);
	jw_uint(w, "big", UINT64_MAX);
	jw_double(w, "rate", 13200000.5);
	jw_double(w, "nan", NAN);
	jw_double(w, "inf", INFINITY);
	jw_double(w, "minf", -INFINITY);
	jw_bool(w, "yes", true);
	jw_bool(w, "no", false);
	jw_null(w, "nothing");
	jw_string(w, "nullstr", NULL);
	jw_object_end(w);
}

static void test_scalars(void)
{
	struct mem m;

	json_of(build_scalars, &m);
	CHECK_STR(eval(&m, "d[\"neg\"]"), "-9139");
	CHECK_STR(eval(&m, "d[\"big\"]"), "18446744073709551615");
	CHECK_STR(eval(&m, "d[\"rate\"]"), "13200000.5");
	CHECK_STR(eval(&m, "[d[k] for k in (\"nan\", \"inf\", \"minf\", \"nothing\", \"nullstr\")]"),
		  "[None, None, None, None, None]");
	CHECK_STR(eval(&m, "(d[\"yes\"], d[\"no\"])"), "(True, False)");
	CHECK(strstr(m.buf, "NaN") == NULL && strstr(m.buf, "Infinity") == NULL);
	free(m.buf);
}

/* Every byte value 1..255 in a string, as a device name might carry. */
static char all_bytes[256];

static void build_strings(struct jw *w)
{
	jw_object_begin(w, NULL);
	jw_string(w, "all", all_bytes);
	jw_string(w, "quote\"key\\", "a\"b\\c/d");
	jw_string(w, "utf8", "872\xc2\xb5s \xe2\x82\xac \xf0\x9f\x92\xbe");
	jw_string(w, "bad", "a\xff" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82");
	jw_string(w, "ctl", "\x01\x1f\x7f\n\t");
	jw_object_end(w);
}

static void test_strings(void)
{
	struct mem m;

	for (int i = 1; i < 256; i++)
		all_bytes[i - 1] = (char)i;
	json_of(build_strings, &m);
	CHECK_STR(eval(&m, "len(d[\"all\"])"), "255");
	CHECK_STR(eval(&m, "[ord(c) for c in d[\"all\"][:127]] == list(range(1, 128))"), "True");
	/* 0x80..0xff alone are not UTF-8: each becomes U+FFFD */
	CHECK_STR(eval(&m, "set(d[\"all\"][127:]) == {chr(0xfffd)}"), "True");
	CHECK_STR(eval(&m, "d[\"quote\\\"key\\\\\"]"), "a\"b\\c/d");
	CHECK_STR(eval(&m, "d[\"utf8\"].encode()"), "b'872\\xc2\\xb5s \\xe2\\x82\\xac \\xf0\\x9f\\x92\\xbe'");
	CHECK_STR(eval(&m, "d[\"bad\"] == \"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd\""),
		  "True");
	CHECK_STR(eval(&m, "[ord(c) for c in d[\"ctl\"]]"), "[1, 31, 127, 10, 9]");
	/* the document itself is plain ASCII apart from valid UTF-8 */
	CHECK(strchr(m.buf, '\x7f') == NULL && strchr(m.buf, '\x01') == NULL);
	free(m.buf);
}

static void build_nesting(struct jw *w)
{
	jw_object_begin(w, NULL);
	jw_array_begin(w, "empty_array");
	jw_array_end(w);
	jw_object_begin(w, "empty_object");
	jw_object_end(w);
	jw_array_begin(w, "rows");
	for (int i = 0; i < 3; i++) {
		jw_object_begin(w, NULL);
		jw_int(w, "i", i);
		jw_array_begin(w, "sq");
		jw_int(w, NULL, i * i);
		jw_object_begin(w, NULL);
		jw_object_end(w);
		jw_array_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
	/* deeper than the writer tracks: still a valid document */
	for (int i = 0; i < JW_MAX_DEPTH + 5; i++)
		jw_array_begin(w, i == 0 ? "deep" : NULL);
	jw_int(w, NULL, 1);
	for (int i = 0; i < JW_MAX_DEPTH + 5; i++)
		jw_array_end(w);
	jw_int(w, "after", 7);
	jw_array_begin(w, "left_open");
	jw_int(w, NULL, 1);
	/* jw_finish closes what is still open */
}

static void test_nesting(void)
{
	struct mem m;

	json_of(build_nesting, &m);
	CHECK_STR(eval(&m, "(d[\"empty_array\"], d[\"empty_object\"])"), "([], {})");
	CHECK_STR(eval(&m, "[r[\"sq\"][0] for r in d[\"rows\"]]"), "[0, 1, 4]");
	CHECK_STR(eval(&m, "d[\"after\"], d[\"left_open\"]"), "(7, [1])");
	CHECK_STR(eval(&m, "type(d[\"deep\"]).__name__"), "list");
	/* a row of a table is one line */
	CHECK(strstr(m.buf, "{\"i\": 1, \"sq\": [1, {}]}") != NULL);
	CHECK(m.len > 0 && m.buf[m.len - 1] == '\n');
	free(m.buf);
}

/* ---- the report ---- */

static struct params params(void)
{
	struct params p;

	memset(&p, 0, sizeof(p));
	p.blocksize = 16384;
	p.erasesize = 4 << 20;
	p.count = 8;
	p.open_au_nr = 2;
	p.fat_nr = 6;
	p.scatter_order = 9;
	p.scatter_span = 1;
	p.on_read_error = VM_ERR_CONTINUE;
	p.on_write_error = VM_ERR_STOP;
	return p;
}

static void test_report_align(void)
{
	struct align_row rows[] = {
		{ 8388608, 1030000, 1120000, 1030000, 95600, 8, false },
		{ 6291456, 1000000, 1100000, 1000000, 100000, 8, false },
		{ 4194304, 0, 0, 0, 0, 8, true },
	};
	struct align_result r = { .blocksize = 16384, .count = 8, .nrows = 3, .rows = rows };
	struct params p = params();
	struct dev_facts d = { .path = "/dev/odd\"name\n\xff", .kind = "block_device",
			       .size = 1 << 30, .lbs = 512, .pbs = 4096 };
	struct report_verdict v = { .erase = { .bytes = 4 << 20, .conf = CONF_HIGH } };
	struct report rep = { .device = d.path, .dev = &d, .params = &p, .test = "align", .align = &r,
			      .verdict = &v };
	struct mem m;

	r.st.partial = true;
	r.st.interrupted = false;
	r.st.nfailures = 1;
	r.st.first_failure = (struct vm_failure){ 4194304 - 16384, 16384, 5, VM_READ };
	r.st.device_ns = 123456789;
	json_report(mem_open(&m), &rep);
	mem_close(&m);
	CHECK_STR(eval(&m, "d[\"test\"]"), "align");
	CHECK_STR(eval(&m, "d[\"device\"][\"name\"] == \"/dev/odd\\\"name\\n\\ufffd\""), "True");
	CHECK_STR(eval(&m, "d[\"device\"][\"size_bytes\"], d[\"device\"][\"logical_block_size_bytes\"]"),
		  "(1073741824, 512)");
	CHECK_STR(eval(&m, "d[\"parameters\"][\"blocksize_bytes\"], d[\"parameters\"][\"count\"]"),
		  "(16384, 8)");
	CHECK_STR(eval(&m, "[r[\"align_bytes\"] for r in d[\"align\"][\"rows\"]]"),
		  "[8388608, 6291456, 4194304]");
	CHECK_STR(eval(&m, "d[\"align\"][\"rows\"][0][\"diff_ns\"], d[\"align\"][\"rows\"][0][\"on_ns\"]"),
		  "(95600, 1120000)");
	CHECK_STR(eval(&m, "d[\"align\"][\"rows\"][2][\"failed\"], d[\"align\"][\"rows\"][2][\"diff_ns\"]"),
		  "(True, None)");
	CHECK_STR(eval(&m, "d[\"status\"][\"state\"], d[\"status\"][\"failed_io_count\"]"), "('failed', 1)");
	CHECK_STR(eval(&m, "d[\"status\"][\"error\"][\"offset_bytes\"]"), "4177920");
	CHECK_STR(eval(&m, "d[\"status\"][\"error\"][\"message\"]"),
		  "read failed at offset 4177920 (16384 bytes): Input/output error");
	CHECK_STR(eval(&m, "d[\"status\"][\"error\"][\"operation\"], d[\"status\"][\"error\"][\"errno\"]"),
		  "('read', 5)");
	CHECK_STR(eval(&m, "d[\"status\"][\"device_time_ns\"]"), "123456789");
	CHECK_STR(eval(&m, "\"verdict\" in d"), "False");	/* partial: no verdict */
	free(m.buf);
}

static void test_report_rates(void)
{
	struct rate_row rows[2];
	struct rate_result r = { .erasesize = 4 << 20, .blocksize = 2 << 20, .offset = 0, .nr = 3,
				 .nrows = 2, .rows = rows };
	struct params p = params();
	struct report_verdict v = { .fat = { .conf = CONF_NONE } };	/* computed before rendering */
	struct report rep = { .device = "sim:sdhc", .params = &p, .test = "find-fat", .rates = &r,
			      .verdict = &v };
	struct mem m;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 2; i++) {
		rows[i].blocksize = (4u << 20) >> i;
		rows[i].ncols = 3;
		for (int c = 0; c < 3; c++) {
			rows[i].rate[c] = 1e6 * (c + 1) + i;
			rows[i].ns[c] = 1000 + c;
			rows[i].bytes[c] = 4 << 20;
		}
	}
	rows[1].failed[2] = true;
	r.st.bytes_written = 3 * 2 * (4 << 20);
	json_report(mem_open(&m), &rep);
	mem_close(&m);
	CHECK_STR(eval(&m, "d[\"test\"], d[\"device\"][\"name\"]"), "('find_fat', 'sim:sdhc')");
	CHECK_STR(eval(&m, "[r[\"blocksize_bytes\"] for r in d[\"find_fat\"][\"rows\"]]"),
		  "[4194304, 2097152]");
	CHECK_STR(eval(&m, "d[\"find_fat\"][\"rows\"][0][\"rate_bytes_per_s\"]"),
		  "[1000000, 2000000, 3000000]");
	CHECK_STR(eval(&m, "d[\"find_fat\"][\"rows\"][1][\"rate_bytes_per_s\"]"), "[1000001, 2000001, None]");
	CHECK_STR(eval(&m, "d[\"find_fat\"][\"rows\"][1][\"time_ns\"][1], "
		       "d[\"find_fat\"][\"rows\"][1][\"written_bytes\"][0]"),
		  "(1001, 4194304)");
	CHECK_STR(eval(&m, "d[\"find_fat\"][\"erasesize_bytes\"], d[\"find_fat\"][\"nr\"]"), "(4194304, 3)");
	CHECK_STR(eval(&m, "d[\"status\"][\"written_bytes\"], d[\"status\"][\"state\"]"), "(25165824, 'complete')");
	CHECK_STR(eval(&m, "d[\"status\"][\"error\"]"), "None");
	CHECK_STR(eval(&m, "sorted(d[\"verdict\"][\"fat_area\"])"),
		  "['confidence', 'erase_blocks', 'evidence', 'size_bytes']");
	free(m.buf);
}

static void test_report_others(void)
{
	struct scatter_point pts[] = { { 0, 14953, false }, { 16384, 14694, false }, { 32768, 0, true } };
	struct scatter_result s = { .blocksize = 16384, .span_bytes = 49152, .npoints = 3, .points = pts };
	struct interval_row irows[] = { { 512, 11100, 22100, 88900, 46134400.0, false, false } };
	struct interval_result iv = { .nrows = 1, .rows = irows, .fit_rate = 5143310000.0,
				      .fit_access_ns = 5370 };
	struct program_row prows[] = { { "write zeros linear", 4096, 3.78e6, false },
				       { "read", 4096, NAN, true } };
	struct program_result pr = { .nrows = 2, .rows = prows };
	struct report rep = { .device = "f", .test = "scatter", .scatter = &s };
	struct mem m;

	json_report(mem_open(&m), &rep);
	mem_close(&m);
	CHECK_STR(eval(&m, "[(p[\"offset_bytes\"], p[\"min_ns\"]) for p in d[\"scatter\"][\"points\"]]"),
		  "[(0, 14953), (16384, 14694), (32768, None)]");
	free(m.buf);

	rep = (struct report){ .device = "f", .test = "interval", .interval = &iv };
	json_report(mem_open(&m), &rep);
	mem_close(&m);
	CHECK_STR(eval(&m, "d[\"interval\"][\"rows\"][0][\"avg_ns\"], d[\"interval\"][\"fit\"][\"access_ns\"]"),
		  "(22100, 5370)");
	CHECK_STR(eval(&m, "d[\"interval\"][\"fit\"][\"rate_bytes_per_s\"]"), "5143310000");
	free(m.buf);

	rep = (struct report){ .device = "f", .test = "program", .program = &pr };
	json_report(mem_open(&m), &rep);
	mem_close(&m);
	CHECK_STR(eval(&m, "[(r[\"label\"], r[\"rate_bytes_per_s\"]) for r in d[\"program\"][\"rows\"]]"),
		  "[('write zeros linear', 3780000), ('read', None)]");
	free(m.buf);
}

int main(void)
{
	py_require();
	test_scalars();
	test_strings();
	test_nesting();
	test_report_align();
	test_report_rates();
	test_report_others();
	return unit_summary();
}
