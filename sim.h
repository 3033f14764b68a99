/* Simulated flash cards ("sim:" devices) on a virtual clock. See README. */
#ifndef FB_SIM_H
#define FB_SIM_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/*
 * spec is the text after "sim:": a preset name and/or key=value pairs,
 * comma-separated ("sdhc-good,noise=5"). Returns NULL and a one-line
 * message naming the parameter and value in err on bad input.
 */
struct sim *sim_create(const char *spec, char *err, size_t errlen);
void sim_destroy(struct sim *s);

uint64_t sim_size(const struct sim *s);
unsigned int sim_block_size(const struct sim *s);	/* logical block size, 512 */

/* Modelled cost in *ns; 0 or -errno (e.g. -EIO from fail-at=). */
int sim_read(struct sim *s, uint64_t off, uint64_t len, int64_t *ns);
int sim_write(struct sim *s, uint64_t off, uint64_t len, int64_t *ns);
int sim_discard(struct sim *s, uint64_t off, uint64_t len, int64_t *ns);

/* Text for --help / the man page: parameters and presets, one per line. */
const char *sim_help(void);

#endif
