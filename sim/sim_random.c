/*
 * The simulator's seeded random numbers (splitmix64): every phenomenon
 * draws from the card's own generator, so a seed= replays a card exactly.
 */
#include "sim/sim_internal.h"

uint64_t sim_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double sim_uniform01(struct sim *s)
{
	return (double)(sim_splitmix(&s->rng) >> 11) / (double)(1ull << 53);
}
