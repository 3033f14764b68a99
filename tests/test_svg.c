/* --plot SVG: well-formed XML (python3's xml.etree) carrying every data point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "pyeval.h"

#include "measure/measure.h"
#include "report/report.h"

#define SVG "{http://www.w3.org/2000/svg}"
/* python: list of (data-x, data-y) of series number N */
#define POINTS(n) "[(c.get(\"data-x\"), c.get(\"data-y\")) for c in " \
		  "d.findall(\"" SVG "g[@class=\\\"series\\\"]\")[" #n "].iter(\"" SVG "circle\")]"

static struct mem m;

static int render(const struct report *rep)
{
	int rc = svg_report(mem_open(&m), rep);

	mem_close(&m);
	return rc;
}

static const char *eval(const char *expr)
{
	return py_eval(PY_XML, m.buf, m.len, expr);
}

static const char *all_text = "\" \".join(\"\".join(e.itertext()) for e in d.iter(\"" SVG "text\"))";

static void test_align(void)
{
	struct align_row rows[] = {
		{ 8388608, 1030000, 1120000, 1030000, 95600, 8, false },
		{ 6291456, 1000000, 1100000, 1000000, 100000, 8, false },
		{ 4194304, 1000000, 1090000, 1000000, 90000, 8, false },
		{ 2097152, 0, 0, 0, 0, 8, true },
		{ 1048576, 999000, 1000000, 1000000, -11000, 8, false },
		{ 524288, 999000, 1000000, 1000000, 300, 8, false },
		{ 131072, 999000, 1000000, 1000000, 400, 8, false },
		{ 32768, 999000, 1000000, 1000000, 500, 8, false },
	};
	/* enough good rows around the failed one for the analysis to name the step */
	struct align_result r = { .blocksize = 16384, .count = 8, .nrows = 8, .rows = rows };
	/* the verdict is computed before rendering; the chart marks what it is given */
	struct report_verdict v = { .erase = { .bytes = 4 << 20, .conf = CONF_HIGH } };
	struct report rep = { .device = "/dev/sd<c>&\"x\"\x01\xff", .test = "align", .align = &r,
			      .verdict = &v };

	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval("d.tag"), SVG "svg");
	/* failed row: no point; 2^n boundaries are the line, smallest first; 3*2^n apart */
	CHECK_STR(eval(POINTS(0)), "[('32768', '500'), ('131072', '400'), ('524288', '300'), "
				   "('1048576', '-11000'), ('4194304', '90000'), "
				   "('8388608', '95600')]");
	CHECK_STR(eval(POINTS(1)), "[('6291456', '100000')]");
	CHECK_STR(eval("len(d.findall(\"" SVG "g[@class=\\\"series\\\"]\")[1].findall(\"" SVG "polyline\"))"), "0");
	/* the device name survives escaping, the invalid bytes do not break the document */
	CHECK_STR(eval("\"/dev/sd<c>&\\\"x\\\"?\\ufffd\" in d.find(\"" SVG "title\").text"), "True");
	/* axes are labelled with units; a label at every power of two from 32KiB to 8MiB */
	CHECK_STR(eval("all(u in " "(" "\" \".join(\"\".join(e.itertext()) for e in d.iter(\"" SVG
		       "text\"))) for u in (\"MiB\", \"\xc2\xb5s\", \"boundary\", \"diff\", \"32KiB\", "
		       "\"64KiB\", \"128KiB\", \"256KiB\", \"512KiB\", \"1MiB\", \"2MiB\", \"4MiB\", \"8MiB\"))"), "True");
	/* the detected erase block size is marked and named */
	CHECK_STR(eval("[\"\".join(g.itertext()) for g in d.findall(\"" SVG "g[@class=\\\"mark\\\"]\")]"),
		  "['erase block 4MiB']");
	/* log scale: 1 MiB -> 4 MiB is twice as far as 4 MiB -> 8 MiB */
	CHECK_STR(eval("(lambda x: round((x[\"4194304\"] - x[\"1048576\"]) / (x[\"8388608\"] - x[\"4194304\"]), 1))"
		       "({e.get(\"data-x\"): float(e.get(\"cx\")) for e in d.iter(\"" SVG "circle\") "
		       "if e.get(\"data-x\")})"), "2.0");
	/* the footer names device, test and date */
	CHECK_STR(eval("(lambda t: \"align\" in t and \"/dev/sd<c>\" in t and \"T\" in t)"
		       "(\"\".join(d.find(\"" SVG "text[@class=\\\"footer\\\"]\").itertext()))"), "True");
	free(m.buf);
}

static void test_rates(void)
{
	struct rate_row rows[3];
	struct rate_result r = { .erasesize = 6 << 20, .blocksize = 1536 << 10, .offset = 0, .nr = 3,
				 .nrows = 3, .rows = rows };
	struct report rep = { .device = "sim:tlc", .test = "find-fat", .rates = &r };

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 3; i++) {
		rows[i].blocksize = (6u << 20) >> i;
		rows[i].ncols = 3;
		for (int c = 0; c < 3; c++)
			rows[i].rate[c] = 1e6 * (c + 1) + 1000 * i;
	}
	rows[2].failed[1] = true;
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval("len(d.findall(\"" SVG "g[@class=\\\"series\\\"]\"))"), "3");
	CHECK_STR(eval(POINTS(0)), "[('1572864', '1002000'), ('3145728', '1001000'), ('6291456', '1000000')]");
	CHECK_STR(eval(POINTS(1)), "[('3145728', '2001000'), ('6291456', '2000000')]");
	CHECK_STR(eval(POINTS(2)), "[('1572864', '3002000'), ('3145728', '3001000'), ('6291456', '3000000')]");
	/* tick labels at the measured sizes, rates with their unit */
	CHECK_STR(eval("[u in (\"\".join(\"\".join(e.itertext()) for e in d.iter(\"" SVG "text\"))) "
		       "for u in (\"1.5MiB\", \"3MiB\", \"6MiB\", \"M/s\", \"block 2 at\")]"),
		  "[True, True, True, True, True]");
	CHECK(strstr(m.buf, "find-fat") != NULL);
	free(m.buf);

	/* --open-au: one column, one line */
	rep.test = "open-au";
	for (int i = 0; i < 3; i++)
		rows[i].ncols = 1;
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval("len(d.findall(\"" SVG "g[@class=\\\"series\\\"]\"))"), "1");
	CHECK_STR(eval("len(list(d.iter(\"" SVG "polyline\")))"), "1");
	CHECK_STR(eval("\"open-au-nr=3\" in " "\"\".join(d.itertext())"), "True");
	free(m.buf);
}

/* Series that coincide share one legend entry that says so; the others have their own look. */
static void test_groups(void)
{
	struct rate_row rows[3];
	struct rate_result r = { .erasesize = 4 << 20, .blocksize = 1 << 20, .nr = 4, .nrows = 3,
				 .rows = rows };
	struct report rep = { .device = "f", .test = "find-fat", .rates = &r };
	struct program_row prows[] = { { "write zeros linear", 4096, 1e6, false },
				       { "write ones random", 4096, 1.001e6, false },
				       { "read linear", 4096, 5e6, false } };
	struct program_result pr = { .nrows = 3, .rows = prows };
	const char *entries = "[(e.get('data-members'), ' '.join(''.join(t.itertext()) for t in "
			      "e.iter('" SVG "text'))) for e in d.iter('" SVG "g') if e.get('class') == 'entry']";

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 3; i++) {
		rows[i].blocksize = (4u << 20) >> i;
		rows[i].ncols = 4;
		for (int c = 0; c < 4; c++)
			rows[i].rate[c] = (c == 0 ? 8e6 : 2e6) * (1 + 0.001 * c) / (i + 1);
	}
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval(entries), "[('0', 'block 0 at 0B'), ('1 2 3', 'blocks 1\u20133: the same rate')]");
	/* one look for the members of an entry, another for the rest */
	CHECK_STR(eval("len({g.find('" SVG "polyline').get('stroke') for g in d.findall('" SVG
		       "g[@class=\"series\"]')})"), "2");
	free(m.buf);

	rep = (struct report){ .device = "f", .test = "program", .program = &pr };
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval(entries), "[('0 1', 'write zeros/ones linear/random: the same rate'), "
				 "('2', 'read linear')]");
	free(m.buf);
}

static void test_scatter(void)
{
	enum { N = 512 };
	struct scatter_point pts[N];
	struct scatter_result r = { .blocksize = 16384, .span_bytes = 16384 * N, .npoints = N,
				    .points = pts };
	struct report rep = { .device = "f", .test = "scatter", .scatter = &r };

	for (int i = 0; i < N; i++)
		pts[i] = (struct scatter_point){ (uint64_t)i * 16384, 14000 + (i % 64) * 100, false };
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval("len(list(d.iter(\"" SVG "circle\")))"), "512");
	CHECK_STR(eval(POINTS(0) "[511]"), "('8372224', '20300')");
	CHECK_STR(eval("[u in (\"\".join(\"\".join(e.itertext()) for e in d.iter(\"" SVG "text\"))) "
		       "for u in (\"MiB\", \"\xc2\xb5s\", \"offset\")]"), "[True, True, True]");
	free(m.buf);
}

static void test_others(void)
{
	struct interval_row irows[] = { { 512, 11100, 22100, 88900, 46134400.0, false, false },
					{ 1024, 12100, 23100, 89900, 46134400.0, false, false } };
	struct interval_result iv = { .nrows = 2, .rows = irows };
	struct program_row prows[] = { { "read", 4096, 3.78e6, false }, { "write zeros", 4096, 1e6, false },
				       { "read", 8192, 5e6, false }, { "write zeros", 8192, NAN, true } };
	struct program_result pr = { .nrows = 4, .rows = prows };
	struct align_result empty = { .blocksize = 4096 };
	struct report rep = { .device = "f", .test = "interval", .interval = &iv };

	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval(POINTS(1)), "[('512', '22100'), ('1024', '23100')]");
	free(m.buf);

	rep = (struct report){ .device = "f", .test = "program", .program = &pr };
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval("[g.get(\"data-name\") for g in d.findall(\"" SVG "g[@class=\\\"series\\\"]\")]"),
		  "['read', 'write zeros']");
	CHECK_STR(eval(POINTS(1)), "[('4096', '1000000')]");
	free(m.buf);

	/* no rows at all: still a well-formed chart that says so */
	rep = (struct report){ .device = "f", .test = "align", .align = &empty };
	CHECK_EQ(render(&rep), 0);
	CHECK_STR(eval("\"no data\" in \"\".join(d.itertext())"), "True");
	free(m.buf);

	rep = (struct report){ .device = "f", .test = "align" };
	CHECK_EQ(render(&rep), -1);
	free(m.buf);
	(void)all_text;
}

int main(void)
{
	py_require();
	test_align();
	test_rates();
	test_groups();
	test_scatter();
	test_others();
	return unit_summary();
}
