/*
 * --capacity against fakes the simulator does not model, through a backend
 * of the test's own: one that stores every sector but garbles its last
 * byte beyond the real size (the label's head survives, its body does not),
 * and a genuine one. A label counts only when all of it reads back.
 */
#include <stdlib.h>
#include <string.h>

#include "checks/capacity.h"
#include "dev.h"
#include "unit.h"

#define SECTOR 512
#define SLOTS (1 << 17)

/* A sparse card: written sectors in an open-addressed table; the rest reads as zeros. */
struct card {
	uint64_t real;		/* sectors at or beyond it keep all but their last byte */
	uint64_t key[SLOTS];	/* sector + 1; 0: free */
	unsigned char *data[SLOTS];
};

static unsigned char **slot(struct card *c, uint64_t s, bool add)
{
	for (uint64_t h = (s * 0x9e3779b97f4a7c15ull) >> 47;; h = (h + 1) % SLOTS) {
		if (c->key[h] == s + 1)
			return &c->data[h];
		if (!c->key[h]) {
			if (!add)
				return NULL;
			c->key[h] = s + 1;
			c->data[h] = calloc(1, SECTOR);
			return &c->data[h];
		}
	}
}

static int card_copy(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write)
{
	struct card *c = d->priv;
	unsigned char *p = buf;

	for (uint64_t s = off / SECTOR; s < (off + len) / SECTOR; s++, p += SECTOR) {
		unsigned char **q = slot(c, s, write);
		if (write) {
			memcpy(*q, p, SECTOR);
			if (s * SECTOR >= c->real)
				(*q)[SECTOR - 1] ^= 0xff;
		} else if (q) {
			memcpy(p, *q, SECTOR);
		} else {
			memset(p, 0, SECTOR);
		}
	}
	return 0;
}

static int card_transfer(struct dev *d, void *buf, uint64_t len, uint64_t off, bool write,
			 int64_t *ns)
{
	*ns = 1000 + (int64_t)len;
	return card_copy(d, buf, len, off, write);
}

static void card_close(struct dev *d)
{
	struct card *c = d->priv;

	for (int i = 0; i < SLOTS; i++)
		free(c->data[i]);
	free(c);
}

static const struct dev_ops card_ops = {
	.kind = "test_card", .simulated = true,
	.transfer = card_transfer, .copy = card_copy, .close = card_close,
};

static void check_card(uint64_t size, uint64_t real)
{
	struct dev d;
	struct capacity_result r;
	char err[512] = "";
	struct card *c = calloc(1, sizeof *c);

	c->real = real;
	dev_attach(&d, "test-card", &card_ops, c, size, SECTOR, true);
	CHECK_EQ(capacity_run(&d, NULL, NULL, 0, &r, err, sizeof err), 0);
	if (real >= size) {
		CHECK_EQ(r.verdict, CAP_GENUINE);
	} else {
		CHECK_EQ(r.verdict, CAP_COUNTERFEIT);
		CHECK_LE(r.real_hi, real);
		CHECK_GE(r.real_lo, real / 2);
	}
	if (err[0])
		printf("capacity_run: %s\n", err);
	dev_close(&d);
}

int main(void)
{
	check_card(1ull << 30, 1ull << 30);
	check_card(1ull << 30, 256ull << 20);
	check_card(4ull << 30, 1ull << 30);
	return unit_summary();
}
