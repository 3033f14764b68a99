/*
 * The marks printed on an SD card's label (C10, U3, V30, A2): what they are
 * called and how a list of them is parsed. Shared by --claim (checks/) and
 * the simulator's claims= (sim/). What each mark promises: doc/speed-classes.md.
 */
#ifndef FB_SD_CLAIMS_H
#define FB_SD_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

/* At most one mark of each kind; 0 = none. */
struct sd_claims {
	unsigned int speed;	/* speed class: 2, 4, 6, 10 (C2 ... C10) */
	unsigned int uhs;	/* UHS speed grade: 1, 3 (U1, U3) */
	unsigned int video;	/* video speed class: 6, 10, 30, 60, 90 (V6 ... V90) */
	unsigned int app;	/* application performance class: 1, 2 (A1, A2) */
};

enum sd_mark_kind { SD_MARK_SPEED, SD_MARK_UHS, SD_MARK_VIDEO, SD_MARK_APP, SD_MARK_KINDS };

/*
 * "C10,U3,V30,A2" (items split at ',' or '+', letters in either case).
 * 0, or -1 with a message naming the bad item in err ("X7: not a mark ...",
 * "C4: a second speed class (already C10)"); out is then unchanged.
 */
int sd_claims_parse(const char *list, struct sd_claims *out, char *err, size_t n);
/* "C10,U1,A1" ("" for none). */
const char *sd_claims_format(const struct sd_claims *c, char *buf, size_t n);
bool sd_claims_any(const struct sd_claims *c);
/* The value of one kind (0: none), and its mark's name ("U3") into buf. */
unsigned int sd_claims_get(const struct sd_claims *c, enum sd_mark_kind k);
const char *sd_mark_name(enum sd_mark_kind k, unsigned int value, char *buf, size_t n);
/* Is s (len bytes) one mark? Then its kind and value. */
bool sd_mark_parse(const char *s, size_t len, enum sd_mark_kind *kind, unsigned int *value);

#endif
