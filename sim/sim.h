/* Simulated flash cards ("sim:" devices) on a virtual clock. See README. */
#ifndef FB_SIM_H
#define FB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim_claims.h"
#include "sim/sim_store.h"

struct sim;

#define SIM_NO_FAIL UINT64_MAX	/* sim_config.fail_at when fail-at= is not given */

/* What real cards show beyond the basic model (doc/card-facts.md); all off by default. */
struct sim_real {
	uint64_t multiplane;	/* reads crossing a multiple of this cost one level more */
	uint64_t group;		/* allocation group: reads crossing it cost more again */
	uint64_t map_unit;	/* random-mode writes below it rewrite a whole unit */
	unsigned int spikes;	/* percent of reads 300..800us slower (USB readers) */
	unsigned int stretch;	/* percent of accesses 1.5..4x slower (a busy host) */
	unsigned int drift;	/* +-percent slow drift of every cost over the run */
	unsigned int jitter_us;	/* mean absolute host delay added to every I/O, us */
	unsigned int burst;	/* percent of the time the host is busy, in bursts */
};

/*
 * The write path of cards as they are made today (doc/flash-card-model.md
 * §10, doc/card-facts.md "Cards as they are made today"); all off by default.
 */
struct sim_today {
	uint64_t slc_cache;	/* pseudo-SLC cache: bytes written at the cached rate after idle */
	double slc_fold_bps;	/* folded back while idle, bytes/s; 0: the native rate */
	unsigned int native_pct;	/* rate past the cache, % of the cached rate (default 33) */
	uint64_t buffer;	/* controller RAM write buffer, bytes */
	unsigned int idle_gc_ms;	/* idle this long: postponed collections run, open blocks close */
	bool hidden;		/* geometry=hidden: no boundary costs, every block page-mapped */
};

/* The state a card comes in (doc/card-facts.md, "Card state"). */
enum sim_state {
	SIM_STATE_CLEAN,	/* every block written, nothing open, nothing pending */
	SIM_STATE_NEW,		/* out of the box: every block erased */
	SIM_STATE_USED,		/* a filesystem's scattered writes: blocks left open */
	SIM_STATE_AFTER_RUN,	/* right after an --open-au run that collapsed */
	SIM_STATE_DISCARDED,	/* discarded as a whole (erased only if discard erases) */
};

/* The card a spec describes (after presets and overrides are applied). */
struct sim_config {
	const char *preset;	/* preset name, or NULL */
	uint64_t size;		/* bytes */
	uint64_t erasesize;	/* erase block (allocation unit) bytes; 2^n or 3*2^n */
	uint64_t pagesize;	/* effective page (write unit) bytes */
	unsigned int open_au;	/* erase blocks open for linear writing */
	unsigned int random_au;	/* of those, how many may be written out of order */
	unsigned int fat_aus;	/* leading erase blocks that are page-mapped */
	unsigned int noise_pct;	/* +-percent of seeded jitter on every cost */
	uint64_t seed;
	uint64_t fail_at;	/* byte offset whose I/O fails with EIO, or SIM_NO_FAIL */
	struct sim_data_config data;	/* real-size=, fake=, cache= (sim/sim_store.c) */
	struct sim_claims_config claims;	/* claims=, link=, queue= (sim/sim_claims.c) */
	struct sim_real real;
	unsigned int realtime_pct;	/* each access also lasts this % of its cost in real time */
	enum sim_state state;	/* state=: how the card comes in */
	bool discard_keeps;	/* discard=keep: a discard drops the mapping, erases nothing */
	bool no_ftl;		/* ftl=none: every block page-mapped (a RAM disk) */
	unsigned int gc_defer;	/* gc-defer=N: erase blocks' worth of collection postponed */
	struct sim_today today;	/* slc-cache=, slc-fold=, native=, buffer=, idle-gc=, geometry= */
};

/*
 * spec is the text after "sim:": a preset name and/or key=value pairs,
 * comma-separated ("sdhc-good,noise=5"); the preset applies first, the
 * pairs override it. Returns NULL and a one-line message naming the
 * parameter and value in err on bad input.
 */
struct sim *sim_create(const char *spec, char *err, size_t errlen);
void sim_destroy(struct sim *s);

uint64_t sim_size(const struct sim *s);
unsigned int sim_block_size(const struct sim *s);	/* logical block size, 512 */
const struct sim_config *sim_config(const struct sim *s);
/* Virtual clock: the sum of every modelled cost so far, ns. */
int64_t sim_now(const struct sim *s);

/*
 * Modelled cost in *ns; 0 or -errno: -EIO from fail-at=, -EINVAL for a
 * range outside the card or not a multiple of 512 bytes.
 */
int sim_read(struct sim *s, uint64_t off, uint64_t len, int64_t *ns);
int sim_write(struct sim *s, uint64_t off, uint64_t len, int64_t *ns);
int sim_discard(struct sim *s, uint64_t off, uint64_t len, int64_t *ns);
/*
 * The host leaves the card alone for ns: the clock advances and the card
 * does its idle work (drains its RAM buffer, runs postponed collections
 * and closes open blocks after idle-gc=, folds its SLC cache back).
 */
void sim_idle(struct sim *s, int64_t ns);

/*
 * The card's data, kept only while enabled (--capacity needs it, timing
 * tests do not): sim_data() is NULL otherwise. Disabling frees it.
 * 0, or -ENOMEM.
 */
int sim_data_enable(struct sim *s, bool on);
struct sim_store *sim_data(struct sim *s);

/* Text for --help / the man page: parameters and presets, one per line. */
const char *sim_help(void);
/* Preset names, NULL-terminated (for completion). */
const char *const *sim_preset_names(void);

#endif
