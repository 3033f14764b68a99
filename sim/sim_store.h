/*
 * Data of simulated cards, and the fakes and caches that lie about it.
 * Sparse: only the 4KiB pages written to are kept, so memory is
 * O(sectors written).
 * Off unless a test asks for data (sim_data_enable); timing needs none.
 */
#ifndef FB_SIM_STORE_H
#define FB_SIM_STORE_H

#include <stddef.h>
#include <stdint.h>

enum sim_fake { SIM_FAKE_WRAP, SIM_FAKE_DROP };

/* What the spec says about the card's honesty (part of struct sim_config). */
struct sim_data_config {
	uint64_t real_size;	/* 0: genuine; else the bytes really stored */
	enum sim_fake fake;	/* what happens at or beyond real_size */
	uint64_t cache;		/* bytes of recent writes served back on reads; 0: none */
};

struct sim_store;

/*
 * Handles real-size=, fake= and cache=. 1 when key is one of them (0 set,
 * or -1 with a one-line message in err); 0 when key is not theirs.
 */
int sim_data_param(struct sim_data_config *c, const char *key, const char *val,
		   char *err, size_t errlen);
/* After parsing: 0, or -1 with a message (real-size beyond the card, ...). */
int sim_data_check(const struct sim_data_config *c, uint64_t size, char *err, size_t errlen);

struct sim_store *sim_store_create(const struct sim_data_config *c);
void sim_store_destroy(struct sim_store *st);
/* Whole 512-byte sectors; the caller checked the range. */
void sim_store_write(struct sim_store *st, uint64_t off, const void *buf, uint64_t len);
void sim_store_read(struct sim_store *st, uint64_t off, void *buf, uint64_t len);
/* Sectors written and kept (backing store + cache), for memory checks. */
uint64_t sim_store_sectors(const struct sim_store *st);

#endif
