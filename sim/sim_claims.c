/*
 * A simulated card's label and its path to the host, for --class: the
 * marks it claims (shown, as on a real SD card, through its SD Status
 * register), a link ceiling (a USB reader or a slow slot) and command
 * queueing with a cache (what A2 cards need to reach their figures).
 * The timing itself stays the card model's (sim/sim.c): a random 4 KiB
 * write into an open erase block costs a page program, one that forces a
 * copy costs the copy; this file only adds the link's floor and the
 * overlap a command queue gives.
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
static int parse_rate(const char *val, double *bps)
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
		if (parse_rate(val, &c->link_bps) < 0) {
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

/* ------------------------------------------------------------ SD Status */

/* Bits [hi:lo] of the 512-bit register, most significant byte first. */
static void put_bits(uint8_t *reg, unsigned int hi, unsigned int lo, unsigned int v)
{
	for (unsigned int i = lo; i <= hi; i++, v >>= 1)
		if (v & 1)
			reg[63 - i / 8] |= (uint8_t)(1u << (i % 8));
}

/* The AU_SIZE code of an erase size (doc/sd-mmc-registers.md); 0 when it has none. */
static unsigned int au_code(uint64_t bytes)
{
	static const unsigned int big_mib[] = { 8, 12, 16, 24, 32, 64 };

	for (unsigned int c = 1; c <= 9; c++)
		if (bytes == (16384ull << (c - 1)))
			return c;
	for (unsigned int i = 0; i < 6; i++)
		if (bytes == (uint64_t)big_mib[i] << 20)
			return 10 + i;
	return 0;
}

static unsigned int speed_class_code(unsigned int speed)
{
	return speed == 2 ? 1 : speed == 4 ? 2 : speed == 6 ? 3 : speed == 10 ? 4 : 0;
}

bool sim_card_register(const struct sim *s, const char *name, char *out, size_t n)
{
	const struct sim_config *cfg = sim_config(s);
	const struct sim_claims_config *c = &cfg->claims;
	uint8_t reg[64] = { 0 };

	if (strcmp(name, "ssr") != 0 || (!sd_claims_any(&c->marks) && !c->queue) || n < 129)
		return false;
	put_bits(reg, 511, 510, 2);	/* DAT_BUS_WIDTH: 4 bits */
	put_bits(reg, 447, 440, speed_class_code(c->marks.speed));
	put_bits(reg, 431, 428, au_code(cfg->erasesize));
	put_bits(reg, 399, 396, c->marks.uhs);
	if (c->marks.uhs)
		put_bits(reg, 395, 392, au_code(cfg->erasesize));
	put_bits(reg, 391, 384, c->marks.video);
	put_bits(reg, 339, 336, c->marks.app);
	if (c->queue) {
		put_bits(reg, 335, 331, c->queue - 1);	/* command queue depth - 1 */
		put_bits(reg, 330, 330, 1);		/* cache */
	}
	for (int i = 0; i < 64; i++)
		snprintf(out + 2 * i, 3, "%02x", reg[i]);
	return true;
}

/* ------------------------------------------------------------ queued I/O */

/*
 * What a queue and a cache save on one request the card modelled at cost:
 * with q commands queued, their latencies overlap (each pays 1/q); the
 * cache gathers writes smaller than a page into whole pages, so such a
 * write pays its share of a page program and of the mapping work.
 */
static double queue_saving(const struct sim *s, const struct sim_req *r, unsigned int q,
			   double cost)
{
	const struct sim_timing *t = sim_timing(s);
	const struct sim_config *cfg = sim_config(s);
	double save = (1.0 - 1.0 / q) * (r->write ? t->write_lat : t->read_lat);

	if (r->write && r->len < cfg->pagesize && r->off / cfg->pagesize ==
	    (r->off + r->len - 1) / cfg->pagesize) {
		double page_ns = (double)cfg->pagesize * 1e9 / t->write_bps;
		save += (1.0 - (double)r->len / (double)cfg->pagesize) * (1.0 + t->map_pages) * page_ns;
	}
	return save < cost - 1 ? save : cost - 1;
}

int sim_queued(struct sim *s, const struct sim_req *r, int n, int depth, int64_t *ns, int *used,
	       int *failed)
{
	const struct sim_claims_config *c = &sim_config(s)->claims;
	unsigned int q = c->queue >= 2 ? (unsigned int)depth < c->queue ? (unsigned int)depth
									 : c->queue : 1;
	double total = 0, saved = 0;
	uint64_t bytes = 0;

	*failed = -1;
	for (int i = 0; i < n; i++) {
		int64_t t;
		int e = r[i].write ? sim_write(s, r[i].off, r[i].len, &t) :
				     sim_read(s, r[i].off, r[i].len, &t);
		if (e < 0) {
			*failed = i;
			return e;
		}
		total += (double)t;
		bytes += r[i].len;
		if (q > 1)
			saved += queue_saving(s, &r[i], q, (double)t);
	}
	double run = sim_link_floor(c, bytes, total - saved);
	sim_clock_credit(s, (int64_t)(total - run));
	*ns = (int64_t)(run + 0.5);
	*used = (int)q;
	return 0;
}
