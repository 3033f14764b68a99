/*
 * Internals shared by the simulator's files (sim/sim.c, sim/sim_presets.c); the
 * API is sim/sim.h.
 */
#ifndef FB_SIM_INTERNAL_H
#define FB_SIM_INTERNAL_H

#include <stddef.h>

#include "sim/sim.h"

#define US 1000.0
#define MS 1000000.0
#define MBPS 1000000.0	/* bytes per second */

/* What accesses cost; ns, or bytes per second. */
struct sim_timing {
	double read_lat, read_bps;
	double page_cross, eb_cross;	/* extra for a read crossing such a boundary */
	double write_lat, write_bps;	/* per command; page programming speed */
	double map_pages;		/* per write into a block-mapped erase block, in page programs */
	double erase, open;		/* erasing an old copy; allocating a fresh block */
	double copy_bps;		/* internal copy during garbage collection */
	double discard_lat;
};

struct preset {
	const char *name;
	const char *what;
	struct sim_config cfg;
	struct sim_timing t;
};

/* sim/sim_presets.c: used when the spec names no preset; a preset by name, or NULL. */
extern const struct preset sim_generic_preset;
const struct preset *sim_find_preset(const char *name, size_t len);

/* sim/sim.c, for sim/sim_claims.c: the card's costs; the clock wound back by ns (queued I/O). */
const struct sim_timing *sim_timing(const struct sim *s);
void sim_clock_credit(struct sim *s, int64_t ns);

#endif
