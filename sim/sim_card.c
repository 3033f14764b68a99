/*
 * A simulated card as the host sees it through --class: its SD Status
 * register (the claimed marks, as on a real SD card) and the overlap a
 * command queue gives to requests in flight. Above the card model
 * (sim/sim.c), which times every request; sim/sim_claims.c parses the
 * claims and the link that sim.c uses.
 */
#include "sim/sim_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

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
	/* a card that hides its geometry names no AU size either */
	const uint64_t au = cfg->today.hidden ? 0 : cfg->erasesize;

	if (strcmp(name, "ssr") != 0 || (!sd_claims_any(&c->marks) && !c->queue) || n < 129)
		return false;
	put_bits(reg, 511, 510, 2);	/* DAT_BUS_WIDTH: 4 bits */
	put_bits(reg, 447, 440, speed_class_code(c->marks.speed));
	put_bits(reg, 431, 428, au_code(au));
	put_bits(reg, 399, 396, c->marks.uhs);
	if (c->marks.uhs)
		put_bits(reg, 395, 392, au_code(au));
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
