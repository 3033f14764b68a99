/* The marks on an SD card's label, and lists of them (doc/speed-classes.md). */
#include "lib/sd_claims.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char mark_letter[SD_MARK_KINDS] = { 'C', 'U', 'V', 'A' };
static const char *const kind_name[SD_MARK_KINDS] = {
	"speed class", "UHS speed grade", "video speed class", "application performance class",
};
/* The values each kind has (SD Physical Layer spec; doc/speed-classes.md), 0-terminated. */
static const unsigned int valid[SD_MARK_KINDS][6] = {
	{ 2, 4, 6, 10, 0 }, { 1, 3, 0 }, { 6, 10, 30, 60, 90, 0 }, { 1, 2, 0 },
};

static bool valid_value(enum sd_mark_kind k, unsigned int v)
{
	for (const unsigned int *p = valid[k]; *p; p++)
		if (*p == v)
			return true;
	return false;
}

bool sd_mark_parse(const char *s, size_t len, enum sd_mark_kind *kind, unsigned int *value)
{
	unsigned int v = 0;

	if (len < 2 || len > 3 || s[1] == '0')
		return false;
	for (size_t i = 1; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	for (int k = 0; k < SD_MARK_KINDS; k++)
		if (toupper((unsigned char)s[0]) == mark_letter[k] && valid_value(k, v)) {
			*kind = k;
			*value = v;
			return true;
		}
	return false;
}

static unsigned int *slot(struct sd_claims *c, enum sd_mark_kind k)
{
	switch (k) {
	case SD_MARK_SPEED: return &c->speed;
	case SD_MARK_UHS: return &c->uhs;
	case SD_MARK_VIDEO: return &c->video;
	default: return &c->app;
	}
}

unsigned int sd_claims_get(const struct sd_claims *c, enum sd_mark_kind k)
{
	return *slot((struct sd_claims *)c, k);
}

const char *sd_mark_name(enum sd_mark_kind k, unsigned int value, char *buf, size_t n)
{
	snprintf(buf, n, "%c%u", mark_letter[k], value);
	return buf;
}

int sd_claims_parse(const char *list, struct sd_claims *out, char *err, size_t n)
{
	struct sd_claims c = { 0 };
	const char *s = list, *end;
	char a[16];

	if (!*list) {
		snprintf(err, n, "'': no mark given (e.g. C10,U3,V30,A2)");
		return -1;
	}
	for (;; s = end + 1) {
		enum sd_mark_kind k;
		unsigned int v;

		end = s + strcspn(s, ",+");
		if (end == s) {
			snprintf(err, n, "%s: an empty item", list);
			return -1;
		}
		if (!sd_mark_parse(s, (size_t)(end - s), &k, &v)) {
			snprintf(err, n, "%.*s: not a mark (C2 C4 C6 C10, U1 U3, V6 V10 V30 V60 V90, "
				 "A1 A2)", (int)(end - s) > 16 ? 16 : (int)(end - s), s);
			return -1;
		}
		unsigned int *p = slot(&c, k);
		if (*p == v) {
			snprintf(err, n, "%.*s: given twice", (int)(end - s), s);
			return -1;
		}
		if (*p) {
			snprintf(err, n, "%.*s: a second %s (already %s)", (int)(end - s), s,
				 kind_name[k], sd_mark_name(k, *p, a, sizeof a));
			return -1;
		}
		*p = v;
		if (!*end)
			break;
	}
	*out = c;
	return 0;
}

const char *sd_claims_format(const struct sd_claims *c, char *buf, size_t n)
{
	char a[16];
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < SD_MARK_KINDS; k++) {
		unsigned int v = sd_claims_get(c, k);
		if (v && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "," : "",
						sd_mark_name(k, v, a, sizeof a));
	}
	return buf;
}

bool sd_claims_any(const struct sd_claims *c)
{
	return c->speed || c->uhs || c->video || c->app;
}
