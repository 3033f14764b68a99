/*
 * A simulated card's label and its path to the host, for --class: the
 * marks it claims (shown, as on a real SD card, through its SD Status
 * register), a link ceiling (a USB reader or a slow slot) and command
 * queueing with a cache (what A2 cards need to reach their figures).
 * The timing itself stays the card model's (sim/sim.c): a random 4 KiB
 * write into an open erase block costs a page program, one that forces a
 * copy costs the copy; this file parses the claims and adds the link's
 * floor. The SD Status register and the queue's overlap, which use the
 * card model, are sim/sim_card.c.
 */
#include "sim/sim_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

#define MAX_QUEUE 32	/* the SD command queue's largest depth */

/*
 * The presets' labels, from the published cards they stand for
 * (doc/real-cards.tsv, doc/speed-classes.md "The simulated cards").
 */
static const struct {
	const char *preset, *claims;
	unsigned int queue;
} preset_claims[] = {
	/* no-name 8 GB microSD labelled like the cheap cards sold as "Class 10 U1 V10" */
	{ "microsd-cheap", "C10,U1,V10", 0 },
	/* a good 32 GB SDHC: the Class 10 UHS-I cards of the table (PQI, Lexar) */
	{ "sdhc-good", "C10,U1", 0 },
	/* SanDisk Ultra 64GB microSDXC Class 10 UHS-I; the later ones print A1 */
	{ "sdxc-tlc", "C10,U1,A1", 0 },
	/* Kingston's 4GB Class 4 microSDHC (CID name SA04G) */
	{ "sa04g", "C4", 0 },
	/* Kingston SDC10/4GB */
	{ "sdc10", "C10", 0 },
	/* SanDisk's 4GB Class 4 microSDHC (CID name SU04G) */
	{ "su04g", "C4", 0 },
	/* issue 11's 32 GB SDHC */
	{ "multiplane-32g", "C10", 0 },
	/* Raspberry Pi's 128GB A2 microSD: C10 U3 V30 A2, command queue and cache */
	{ "rpi-a2", "C10,U3,V30,A2", 8 },
	/* cards as they are made today (sim/sim_presets.c); USB sticks and eMMC have no SD Status */
	{ "a2-64g", "C10,U3,V30,A2", 8 },
	{ "tlc-32g", "C10,U1,V10", 0 },
	{ "sdxc-128g", "C10,U3,V30,A1", 0 },
	{ "sdxc-64g", "C10,U1,A1", 0 },
	{ "nogeo-128g", "C10,U3,V30,A1", 0 },
};

void sim_claims_preset(struct sim_claims_config *c, const char *preset)
{
	char err[128];

	memset(c, 0, sizeof *c);
	for (size_t i = 0; preset && i < sizeof preset_claims / sizeof preset_claims[0]; i++)
		if (!strcmp(preset_claims[i].preset, preset)) {
			sd_claims_parse(preset_claims[i].claims, &c->marks, err, sizeof err);
			c->queue = preset_claims[i].queue;
		}
}

const char *sim_spec_item_end(const char *s)
{
	const char *end = strchrnul(s, ',');
	enum sd_mark_kind k;
	unsigned int v;

	if (strncmp(s, "claims=", 7) != 0)
		return end;
	while (*end == ',') {
		const char *next = strchrnul(end + 1, ',');
		if (!sd_mark_parse(end + 1, (size_t)(next - end - 1), &k, &v))
			break;
		end = next;
	}
	return end;
}

/* "20M/s", "1.5G/s": a size per second (binary suffixes, as every size here). */
int sim_parse_rate(const char *val, double *bps)
{
	size_t len = strlen(val);
	char num[64];
	uint64_t b;

	if (len < 3 || len >= sizeof num || strcmp(val + len - 2, "/s") != 0)
		return -1;
	memcpy(num, val, len - 2);
	num[len - 2] = '\0';
	if (parse_size(num, &b) < 0 || b == 0)
		return -1;
	*bps = (double)b;
	return 0;
}

int sim_claims_param(struct sim_claims_config *c, const char *key, const char *val,
		     char *err, size_t errlen)
{
	char why[160];
	long long q;

	if (!strcmp(key, "claims")) {
		if (!strcmp(val, "none")) {
			memset(&c->marks, 0, sizeof c->marks);
			return 0;
		}
		if (sd_claims_parse(val, &c->marks, why, sizeof why) < 0) {
			snprintf(err, errlen, "sim: claims=%s: %s", val, why);
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "link")) {
		if (sim_parse_rate(val, &c->link_bps) < 0) {
			snprintf(err, errlen, "sim: link=%s: not a rate (a size per second, e.g. 20M/s)",
				 val);
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "queue")) {
		if (parse_number(val, 0, MAX_QUEUE, &q) < 0 || q == 1) {
			snprintf(err, errlen, "sim: queue=%s: a command queue depth from 2 to %d, "
				 "or 0 for none", val, MAX_QUEUE);
			return -1;
		}
		c->queue = (unsigned int)q;
		return 0;
	}
	return 1;
}

double sim_link_floor(const struct sim_claims_config *c, uint64_t len, double ns)
{
	double link = c->link_bps ? (double)len * 1e9 / c->link_bps : 0;
	return ns > link ? ns : link;
}
