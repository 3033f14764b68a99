/* The sim: backend: a simulated card (sim/sim.c) behind struct dev. */
#include "dev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"

/* A sim: card keeps data only while sim_data_enable()d; else buffers stay as they are. */
static void data_copy(struct sim *s, void *buf, uint64_t len, uint64_t off, bool write)
{
	struct sim_store *st = sim_data(s);
	if (st && write)
		sim_store_write(st, off, buf, len);
	else if (st)
		sim_store_read(st, off, buf, len);
}

/*
 * realtime=PCT: the access also lasts PCT% of its modelled time on the wall
 * clock, after it was timed (owed time is slept off in steps of 1 ms or more).
 */
static void pace(const struct dev *d, int r, int64_t ns)
{
	static int64_t owed;
	unsigned int pct = sim_config(d->sim)->realtime_pct;

	if (!pct || r != 0)
		return;
	owed += ns * pct / 100;
	if (owed < 1000000)
		return;
	struct timespec ts = { owed / 1000000000, owed % 1000000000 };
	owed = 0;
	nanosleep(&ts, NULL);
}

/* The card's virtual clock times it: no wall clock involved. */
static int sim_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			int64_t *ns)
{
	int r = write ? sim_write(d->sim, off, len, ns) : sim_read(d->sim, off, len, ns);
	if (r == 0)
		data_copy(d->sim, buf, len, off, write);
	pace(d, r, r == 0 ? *ns : 0);
	return r;
}

/* Queued requests: the card's queue model (sim/sim_claims.c) times the whole run. */
static int sim_transfer_queued(struct dev *d, void *buf, size_t slot, const struct dev_req *r,
			       int n, int depth, int64_t *ns, int *used, int *failed)
{
	struct sim_req *q = n > 0 ? calloc((size_t)n, sizeof *q) : NULL;

	if (!q)
		return -EOPNOTSUPP;
	for (int i = 0; i < n; i++)
		q[i] = (struct sim_req){ r[i].off, r[i].len, r[i].write };
	int e = sim_queued(d->sim, q, n, depth, ns, used, failed);
	free(q);
	for (int i = 0; e == 0 && i < n; i++)
		data_copy(d->sim, (char *)buf + (size_t)(i % depth) * slot, r[i].len, r[i].off,
			  r[i].write);
	return e;
}

static bool sim_register(const struct dev *d, const char *name, char *out, size_t n)
{
	return sim_card_register(d->sim, name, out, n);
}

/* A read across the end: the card's two accesses, the tail from offset 0, on one clock. */
static int sim_read_wrap(struct dev *d, void *buf, uint64_t len, uint64_t off, int64_t *ns)
{
	uint64_t head = d->size - off;
	int64_t t1 = 0, t2 = 0;
	int r = sim_transfer(d, buf, head, off, false, &t1);

	if (r == 0)
		r = sim_transfer(d, (char *)buf + head, len - head, 0, false, &t2);
	*ns = t1 + t2;
	return r;
}

static int sim_discard_range(struct dev *d, uint64_t off, uint64_t len, int64_t *ns)
{
	int r = sim_discard(d->sim, off, len, ns);

	pace(d, r, r == 0 ? *ns : 0);
	return r;
}

/* The card's clock moves on and the card does its idle work; realtime= paces it too. */
static int sim_idle_op(struct dev *d, uint64_t ns)
{
	sim_idle(d->sim, (int64_t)ns);
	pace(d, 0, (int64_t)ns);
	return 0;
}

/* Untimed, but a card's failing sector fails whoever reads it: saving the user's data too. */
static int sim_copy(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write)
{
	uint64_t bad = sim_config(d->sim)->fail_at;

	if (bad != SIM_NO_FAIL && bad >= off && bad - off < len)
		return -EIO;
	if (!write)
		memset(buf, 0, len);	/* unless its data is kept */
	data_copy(d->sim, buf, len, off, write);
	return 0;
}

/* It stores no data unless asked to (--capacity): nothing to preserve. */
static bool sim_stores_data(const struct dev *d)
{
	(void)d;
	return false;
}

static int sim_keep_data(struct dev *d, bool on)
{
	return sim_data_enable(d->sim, on);
}

/* The specification names the card: that is all there is to tell it by. */
static void sim_name(const struct dev *d, char *out, size_t n)
{
	snprintf(out, n, "%s", d->path);
}

static void sim_close(struct dev *d)
{
	sim_destroy(d->sim);
	d->sim = NULL;
}

const struct dev_ops dev_sim_ops = {
	.kind = "simulated",
	.simulated = true,
	.transfer = sim_transfer,
	.read_wrap = sim_read_wrap,
	.discard = sim_discard_range,
	.idle = sim_idle_op,
	.transfer_queued = sim_transfer_queued,
	.card_register = sim_register,
	.copy = sim_copy,
	.stores_data = sim_stores_data,
	.keep_data = sim_keep_data,
	.identity = sim_name,
	.canonical_name = sim_name,
	.close = sim_close,
};

int dev_sim_open(struct dev *d, const char *path, char *err, size_t errlen)
{
	d->sim = sim_create(path + 4, err, errlen);
	if (!d->sim)
		return -EINVAL;
	d->ops = &dev_sim_ops;
	d->size = sim_size(d->sim);
	d->lbs = d->pbs = sim_block_size(d->sim);
	return 0;
}
