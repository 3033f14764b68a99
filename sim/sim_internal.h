/*
 * Internals shared by the simulator's files (sim/sim.c: parameters and the
 * card model; sim/sim_presets.c; sim/sim_host.c: the host's timing noise;
 * sim/sim_state.c: the states cards come in); the API is sim/sim.h.
 */
#ifndef FB_SIM_INTERNAL_H
#define FB_SIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
	double bus_bps;			/* the host link a RAM buffer fills at; 0: read_bps */
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

#define MAX_OPEN_AU 128u

struct open_block {
	uint64_t eb;		/* erase block index */
	uint64_t lo, wp;	/* linear: [lo, wp) written since opened (offsets in the block) */
	uint64_t written;	/* bytes in the new copy (random mode: bytes written) */
	uint64_t last_use;
	bool random;
	bool fresh;		/* was erased: garbage collection copies nothing */
};

struct eb_state {
	uint8_t slot;		/* open slot + 1, 0 when not open */
	uint8_t erased;
};

/* The host's state between accesses (sim/sim_host.c). */
struct sim_host {
	int64_t burst_end;	/* virtual time a busy spell ends; 0: none yet */
	int64_t next_burst;	/* virtual time the next one starts */
	double burst_factor;
};

struct sim {
	struct sim_config cfg;
	struct sim_timing t;
	uint64_t neb;
	struct eb_state *eb;
	struct open_block open[MAX_OPEN_AU];
	bool in_use[MAX_OPEN_AU];
	unsigned int nrandom;
	uint64_t use_clock;
	int64_t now;
	uint64_t rng;
	FILE *record;
	struct sim_store *data;	/* NULL unless sim_data_enable() */
	FILE *trace;
	double gc_pending;	/* postponed collection work, ns (gc-defer=) */
	struct sim_host host;
	/* the write path of today's cards (sim/sim_today.c) */
	double prog_bps;	/* page programs past the SLC cache: write_bps, or its native= share */
	double slc_used;	/* bytes in the SLC cache not folded back yet */
	double buf_bytes;	/* bytes in the RAM buffer */
	double buf_work;	/* the card's work behind them, ns */
	int64_t buf_clock;	/* virtual time the buffer was last drained to */
};

/* sim/sim_random.c: the seeded generator; a uniform number in [0, 1) from the card's own. */
uint64_t sim_splitmix(uint64_t *x);
double sim_uniform01(struct sim *s);

/*
 * sim/sim_host.c: what the host adds to a modelled cost (noise=, jitter=,
 * burst=, stretch=, drift=); advances the clock, returns the charged cost.
 */
int64_t sim_host_charge(struct sim *s, double ns);

/*
 * sim/sim.c: a card as its spec says, clean (sim_create in sim/sim_state.c
 * builds it, then puts it in the state its spec asks for: state=).
 */
struct sim *sim_build(const char *spec, char *err, size_t errlen);
/* sim/sim.c, for the states: opens block eb for linear writing at lo (no cost kept). */
unsigned int sim_open_block(struct sim *s, uint64_t eb, uint64_t lo);
/* A full erase block's collection: copy all of it, erase the old copy; ns. */
double sim_block_collection(const struct sim *s);

/*
 * sim/sim_today.c: the write path of today's cards. sim_today_param is 1
 * when key is not one of its keys, else 0 or -1 (a message naming it);
 * sim_today_setup derives the rates once the spec is read. sim_slc_take
 * puts up to len bytes in the SLC cache, as far as it has room: the bytes
 * it took; sim_slc_fold folds the cache back for ns of idle time.
 * sim_buffer_take is what the host waits for a write of len bytes whose
 * work the card does behind its RAM buffer; sim_buffer_idle advances the
 * clock by ns of idle time, the buffer draining: the time that took.
 */
int sim_today_param(struct sim_today *t, const char *key, const char *val, char *err,
		    size_t errlen);
int sim_today_check(const struct sim_config *c, char *err, size_t errlen);
void sim_today_setup(struct sim *s);
uint64_t sim_slc_take(struct sim *s, uint64_t len);
void sim_slc_fold(struct sim *s, double ns);
double sim_buffer_take(struct sim *s, uint64_t len, double work);
double sim_buffer_idle(struct sim *s, int64_t ns);
/* sim/sim_claims.c: "20M/s" as bytes per second; 0 or -1. */
int sim_parse_rate(const char *val, double *bps);

/* sim/sim.c, for sim/sim_claims.c: the card's costs; the clock wound back by ns (queued I/O). */
const struct sim_timing *sim_timing(const struct sim *s);
void sim_clock_credit(struct sim *s, int64_t ns);

#endif
