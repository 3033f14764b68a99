/*
 * What a simulated card claims on its label and what stands between it and
 * the host (sim/sim_claims.c): claims= (shown through a simulated SD
 * Status), link= (a reader's ceiling), queue= (command queueing and a
 * cache, which A2 cards need). For flashbench --class (checks/class.c).
 */
#ifndef FB_SIM_CLAIMS_H
#define FB_SIM_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/sd_claims.h"

struct sim;

struct sim_claims_config {
	struct sd_claims marks;	/* claims=C10,U1,A1 (or the preset's) */
	double link_bps;	/* link=SIZE/s: no transfer is faster; 0 = none */
	unsigned int queue;	/* queue=N: the card queues N commands and has a cache; 0 none */
};

/* 1 when key is not one of these, else 0 or -1 (a message naming key and value in err). */
int sim_claims_param(struct sim_claims_config *c, const char *key, const char *val,
		     char *err, size_t errlen);
/* The claims a preset's card carries (doc/real-cards.tsv); none for NULL or a card without. */
void sim_claims_preset(struct sim_claims_config *c, const char *preset);
/*
 * Where the spec item starting at s ends: at the next ',', except that
 * "claims=C10,U1,A1" runs on over the marks that follow it.
 */
const char *sim_spec_item_end(const char *s);
/* The time of a transfer of len bytes, no less than the link allows. */
double sim_link_floor(const struct sim_claims_config *c, uint64_t len, double ns);

/* "ssr": the SD Status (128 hex digits) the claims make; false when the card shows none. */
bool sim_card_register(const struct sim *s, const char *name, char *out, size_t n);

struct sim_req {
	uint64_t off, len;
	bool write;
};
/*
 * n requests with up to depth in flight: each is modelled as sim_read or
 * sim_write models it, and a card with queue= overlaps their command
 * latencies (up to its queue depth) and gathers small writes in its cache
 * into whole pages. The whole run's time in *ns, the depth the card
 * queued in *used. 0 or -errno (*failed: the request's index).
 */
int sim_queued(struct sim *s, const struct sim_req *r, int n, int depth, int64_t *ns, int *used,
	       int *failed);

#endif
