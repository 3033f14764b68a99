/*
 * The original flashbench's pseudo-random orders (doc/original-io.md),
 * checked against the rule as the doc states it, computed here on its own:
 * a Fibonacci LFSR of `bits` bits whose feedback polynomial is written out
 * as in the doc, started from 0xace1 cut to `bits`;
 * - --open-au's erase blocks, -r's chunks, -p's random columns (n places):
 *   max(8, bits of n) bits, values >= n skipped, n - 1 values, then 0;
 * - -s over 2^order places: 0, then the register of `order` bits, its whole
 *   period (ending with the seed).
 * A few sequences are also stated literally, as issue 21 quotes them.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"
#include "vm.h"

/* The polynomials of doc/original-io.md, by width. */
static const char *const polynomial[] = {
	[2] = "x^2+x+1", [3] = "x^3+x^2+1", [4] = "x^4+x^3+1", [5] = "x^5+x^3+1",
	[6] = "x^6+x^5+1", [7] = "x^7+x^6+1", [8] = "x^8+x^6+x^5+x^4+1", [9] = "x^9+x^5+1",
	[10] = "x^10+x^7+1", [11] = "x^11+x^9+1", [12] = "x^12+x^11+x^10+x^4+1",
	[13] = "x^13+x^12+x^11+x^8+1", [14] = "x^14+x^13+x^12+x^2+1", [15] = "x^15+x^14+1",
	[16] = "x^16+x^14+x^13+x^11+1", [17] = "x^17+x^14+1", [18] = "x^18+x^11+1",
	[19] = "x^19+x^18+x^17+x^14+1", [20] = "x^20+x^17+1", [21] = "x^21+x^19+1",
	[22] = "x^22+x^21+1", [23] = "x^23+x^18+1", [24] = "x^24+x^23+x^22+x^17+1",
};

/* Register bits tapped by the polynomial: x^e taps bit (bits - e) (x^bits: none, 1: bit 0). */
static uint32_t taps_of(unsigned int bits)
{
	const char *p = polynomial[bits];
	uint32_t taps = 0;

	while (*p) {
		if (*p == 'x') {
			unsigned int e = 1;
			if (p[1] == '^')
				e = (unsigned int)strtoul(p + 2, NULL, 10);
			if (e < bits)
				taps |= 1u << (bits - e);
		} else if (*p == '1' && (p[1] == '\0') && p[-1] == '+') {
			taps |= 1u;
		}
		p++;
	}
	return taps;
}

/* One step, bit by bit: the XOR of the tapped bits enters at the top. */
static uint32_t ref_step(uint32_t v, unsigned int bits)
{
	static uint32_t taps_by_width[32];	/* the polynomial read once per width */
	if (!taps_by_width[bits])
		taps_by_width[bits] = taps_of(bits);
	uint32_t taps = taps_by_width[bits], fb = 0;

	for (unsigned int i = 0; i < bits; i++)
		if (taps >> i & 1)
			fb ^= v >> i & 1;
	return v >> 1 | fb << (bits - 1);
}

static uint32_t ref_seed(unsigned int bits)
{
	return 0xace1u & ((1u << bits) - 1);
}

/* The original's order of n places, from the rule. */
static void ref_order(uint64_t n, uint64_t *out)
{
	unsigned int bits = 8;
	uint32_t v;
	uint64_t k = 0;

	while ((1ull << bits) <= n)
		bits++;
	v = ref_seed(bits);
	while (n > 0 && k < n - 1) {
		v = ref_step(v, bits);
		if (v < n)
			out[k++] = v;
	}
	if (n > 0)
		out[k] = 0;
}

/* The original's -s order over 2^order places, from the rule. */
static void ref_scatter(unsigned int order, uint64_t *out)
{
	uint32_t v = ref_seed(order);

	out[0] = 0;
	for (uint64_t k = 1; k < 1ull << order; k++)
		out[k] = v = ref_step(v, order);
}

static bool is_permutation(const uint64_t *x, uint64_t n)
{
	unsigned char *seen = calloc(n ? n : 1, 1);
	bool ok = seen != NULL;

	for (uint64_t i = 0; ok && i < n; i++) {
		ok = x[i] < n && !seen[x[i]];
		if (ok)
			seen[x[i]] = 1;
	}
	free(seen);
	return ok;
}

/* The VM's order of n places equals the rule's, and visits every place once. */
static void check_order(uint64_t n, bool scatter, unsigned int order)
{
	uint64_t *want = calloc(n, sizeof *want), *got = calloc(n, sizeof *got);
	struct vm_order o;

	if (!want || !got)
		abort();
	if (scatter) {
		ref_scatter(order, want);
		vm_scatter_order_init(&o, n);
	} else {
		ref_order(n, want);
		vm_order_init(&o, n);
	}
	for (uint64_t i = 0; i < n; i++)
		got[i] = vm_order_next(&o);
	uint64_t first = n;
	for (uint64_t i = 0; i < n && first == n; i++)
		if (got[i] != want[i])
			first = i;
	if (first < n) {
		unit_failed++;
		printf("FAIL %s: %s n=%" PRIu64 ": place %" PRIu64 " is %" PRIu64 ", the rule gives %"
		       PRIu64 "\n", __FILE__, scatter ? "scatter order" : "order", n, first,
		       got[first], want[first]);
	} else {
		unit_passed++;
	}
	CHECK(is_permutation(got, n));
	free(want);
	free(got);
}

static void test_every_width_has_a_full_period_from_its_seed(void)
{
	for (unsigned int bits = 2; bits <= 24; bits++) {
		uint32_t seed = vm_lfsr_seed(bits), v = seed;
		uint64_t period = 0;
		do {
			uint32_t next = vm_lfsr_step(v, bits);
			if (next != ref_step(v, bits)) {
				unit_failed++;
				printf("FAIL %s: %u bits: step of %#x is %#x, %s gives %#x\n", __FILE__, bits,
				       v, next, polynomial[bits], ref_step(v, bits));
				break;
			}
			v = next;
			period++;
		} while (v != seed && period < 1ull << bits);
		CHECK_EQ(seed, ref_seed(bits));
		CHECK_EQ(period, (1ull << bits) - 1);
	}
}

static void test_open_au_erase_blocks_follow_the_rule_for_1_to_16(void)
{
	for (uint64_t n = 1; n <= 16; n++)
		check_order(n, false, 0);
}

static void test_chunks_follow_the_rule_for_2_to_64(void)
{
	for (uint64_t n = 2; n <= 64; n++)
		check_order(n, false, 0);
	/* -p's columns and small blocks: the wider registers too */
	for (uint64_t n = 128; n <= 1u << 14; n *= 2)
		check_order(n, false, 0);
	check_order(200, false, 0);
	check_order(1000, false, 0);
}

static void test_scatter_follows_the_rule_for_orders_4_to_12(void)
{
	for (unsigned int order = 4; order <= 12; order++)
		check_order(1ull << order, true, order);
}

static void expect_order(uint64_t n, const uint64_t *want)
{
	struct vm_order o;

	vm_order_init(&o, n);
	for (uint64_t i = 0; i < n; i++)
		CHECK_EQ(vm_order_next(&o), want[i]);
}

/* As issue 21 quotes the original: N=3 visits 2 1 0; -O -r with 4 chunks writes 2,1,3,0. */
static void test_the_quoted_sequences_come_out(void)
{
	static const uint64_t three[] = { 2, 1, 0 }, four[] = { 2, 1, 3, 0 };
	static const uint64_t eight[] = { 6, 5, 2, 1, 7, 3, 4, 0 };

	expect_order(3, three);
	expect_order(4, four);
	expect_order(8, eight);
	struct vm_order o;
	vm_order_init(&o, 1);
	CHECK_EQ(vm_order_next(&o), 0);
}

/* Smaller sets are the larger set's order with the places that do not exist left out. */
static void test_a_smaller_order_is_the_larger_one_filtered(void)
{
	uint64_t big[128], small[64];

	ref_order(128, big);
	for (uint64_t n = 2; n <= 64; n++) {
		uint64_t k = 0;
		for (uint64_t i = 0; i < 128; i++)
			if (big[i] < n)
				small[k++] = big[i];
		struct vm_order o;
		vm_order_init(&o, n);
		bool same = k == n;
		for (uint64_t i = 0; i < n && same; i++)
			same = vm_order_next(&o) == small[i];
		CHECK(same);
	}
}

int main(void)
{
	test_every_width_has_a_full_period_from_its_seed();
	test_open_au_erase_blocks_follow_the_rule_for_1_to_16();
	test_chunks_follow_the_rule_for_2_to_64();
	test_scatter_follows_the_rule_for_orders_4_to_12();
	test_the_quoted_sequences_come_out();
	test_a_smaller_order_is_the_larger_one_filtered();
	return unit_summary();
}
