/* Unit tests for lib/suggest.h: the option a typo meant. */
#include "unit.h"
#include "lib/suggest.h"

static const char *const options[] = { "align", "auto", "blocksize", "erasesize", "json",
				       "destructive", "open-au", "open-au-nr", "offset",
				       "out", "analyze", "capacity", "count" };
#define N (sizeof options / sizeof *options)

static const char *closest(const char *w)
{
	return suggest_closest(w, strlen(w), options, N);
}

static void test_distance_counts_each_kind_of_edit_once(void)
{
	CHECK_EQ(suggest_distance("blocksize", 9, "blocksize"), 0u);
	CHECK_EQ(suggest_distance("block-size", 10, "blocksize"), 1u);	/* insertion */
	CHECK_EQ(suggest_distance("jsn", 3, "json"), 1u);			/* deletion */
	CHECK_EQ(suggest_distance("jsob", 4, "json"), 1u);			/* substitution */
	CHECK_EQ(suggest_distance("atuo", 4, "auto"), 1u);			/* neighbours swapped */
	CHECK_EQ(suggest_distance("json=x", 4, "json"), 0u);		/* only len bytes count */
	CHECK_EQ(suggest_distance("", 0, "out"), 3u);
}

static void test_typos_find_the_option_meant(void)
{
	CHECK_STR(closest("block-size"), "blocksize");
	CHECK_STR(closest("erase-size"), "erasesize");
	CHECK_STR(closest("atuo"), "auto");
	CHECK_STR(closest("jsno"), "json");
	CHECK_STR(closest("destrutcive"), "destructive");
	CHECK_STR(closest("capactiy"), "capacity");
	CHECK_STR(closest("analyse"), "analyze");
}

static void test_no_guess_for_far_short_exact_or_tied_words(void)
{
	CHECK(closest("frobnicate") == NULL);
	CHECK(closest("x") == NULL);		/* one letter: anything is 1 edit away */
	CHECK(closest("auto") == NULL);		/* nothing to correct */
	CHECK(closest("ou") == NULL);		/* "out" and "auto"? too short to tell */
	CHECK(closest("open-au-n") == NULL || strcmp(closest("open-au-n"), "open-au-nr") == 0);
	static const char *const tied[] = { "abcd", "abce" };
	CHECK(suggest_closest("abcx", 4, tied, 2) == NULL);
}

int main(void)
{
	test_distance_counts_each_kind_of_edit_once();
	test_typos_find_the_option_meant();
	test_no_guess_for_far_short_exact_or_tied_words();
	return unit_summary();
}
