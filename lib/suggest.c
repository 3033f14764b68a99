/* "did you mean": optimal string alignment distance over short names. */
#include "lib/suggest.h"

#include <stdbool.h>
#include <string.h>

#define MAX_NAME 64

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t suggest_distance(const char *a, size_t len, const char *b)
{
	size_t lb = strlen(b);
	size_t d[MAX_NAME + 1][MAX_NAME + 1];

	if (len > MAX_NAME || lb > MAX_NAME)
		return (size_t)-1;
	for (size_t i = 0; i <= len; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= len; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[len][lb];
}

const char *suggest_closest(const char *word, size_t len, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	bool tie = false;

	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(word, len, names[i]);
		if (d < best_d) {
			best = names[i], best_d = d, tie = false;
		} else if (d == best_d && strcmp(best, names[i]) != 0) {
			tie = true;
		}
	}
	if (!best || tie || best_d == 0 || best_d > 2 || 2 * best_d >= len)
		return NULL;
	return best;
}
