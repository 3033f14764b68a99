/*
 * --auto's probes (issue 26): the open-AU and FAT-area measurements of
 * --auto write a few chunks into each erase block instead of every chunk
 * of whole blocks (the original's --open-au and --find-fat, which stay as
 * they are). A collapse shows in the time per write (about one block copy
 * each), and that shows after a few rounds over the blocks, so the bytes
 * no longer grow with the erase size.
 *
 * Row k writes `rounds` chunks into every block, continuing where the row
 * before it ended (the first row at at[j]): in order, or (random) at the
 * positions of its region of `rounds` chunks in the original's
 * pseudo-random order. Each position visits the blocks in the original's
 * order of n places (as --open-au visits its erase blocks), or (columns)
 * one block after the other, every position of the row in one block first
 * (as --find-fat writes its columns): then the row has one rate per block.
 */
#include "measure/measure.h"
#include "measure/measure_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/progress.h"

/* The order of a row's positions (its lead's first): in order, or the original's pseudo-random one. */
static void row_positions(const struct probe_row *row, uint64_t *pos)
{
	struct vm_order o;
	int n = row->rounds + row->lead;
	if (!row->random) {
		for (int i = 0; i < n; i++)
			pos[i] = (uint64_t)i;
		return;
	}
	vm_order_init(&o, (uint64_t)n);
	for (int i = 0; i < n; i++)
		pos[i] = vm_order_next(&o);
}

/* Writes of a block at n positions, each a fixed offset. */
static struct vm_op *writes_at(struct vm_program *prog, uint64_t chunk, const uint64_t *pos, int n,
			       uint64_t start)
{
	struct vm_op *kids[2 * PROBE_MAX_ROUNDS];
	for (int i = 0; i < n; i++)
		kids[i] = vm_op(prog, VM_OFF_FIXED, (int64_t)(start + pos[i] * chunk), 0,
				vm_op(prog, VM_WRITE_5A, 0, 0, NULL));
	return vm_seq(prog, n, kids);
}

/* One block's column of a row: its lead not timed, then the timed writes' rate. */
static struct vm_op *column(struct vm_program *prog, const struct probe_row *row, const uint64_t *pos,
			    uint64_t start)
{
	struct vm_op *timed = vm_op(prog, VM_LEN_FIXED, (int64_t)row->chunk, 0,
				    vm_op(prog, VM_BPS, 0, 0, writes_at(prog, row->chunk, pos + row->lead,
									 row->rounds, start)));
	if (!row->lead)
		return timed;
	struct vm_op *both[2] = {
		vm_op(prog, VM_LEN_FIXED, (int64_t)row->chunk, 0,
		      vm_op(prog, VM_DROP, 0, 0, writes_at(prog, row->chunk, pos, row->lead, start))),
		timed };
	return vm_seq(prog, 2, both);
}

/*
 * One row as rate programs: a single one over every block, position by
 * position (the blocks in the original's order each time), or one per
 * block (columns). start[j]: where the row starts in block j.
 */
static int row_programs(struct vm_program *prog, const struct probe_spec *ps,
			const struct probe_row *row, const uint64_t *start, struct vm_op **out)
{
	uint64_t pos[2 * PROBE_MAX_ROUNDS];
	struct vm_order o;
	row_positions(row, pos);
	if (ps->columns) {
		for (int j = 0; j < ps->n; j++)
			out[j] = column(prog, row, pos, start[j]);
		return ps->n;
	}
	struct vm_op **kids = calloc((size_t)row->rounds * (size_t)ps->n, sizeof(*kids));
	if (!kids)
		return -1;
	int k = 0;
	for (int i = 0; i < row->rounds; i++) {
		vm_order_init(&o, (uint64_t)ps->n);
		for (int b = 0; b < ps->n; b++) {
			uint64_t j = vm_order_next(&o);
			kids[k++] = vm_op(prog, VM_OFF_FIXED, (int64_t)(start[j] + pos[i] * row->chunk), 0,
					  vm_op(prog, VM_WRITE_5A, 0, 0, NULL));
		}
	}
	out[0] = vm_op(prog, VM_LEN_FIXED, (int64_t)row->chunk, 0,
		       vm_op(prog, VM_BPS, 0, 0, vm_seq(prog, k, kids)));
	free(kids);
	return 1;
}

static void probe_cell(struct rate_row *row, int col, const struct vm_result *res)
{
	if (res->kind == VR_LIST && res->nitems)	/* a column with a lead: its timed part */
		res = &res->items[res->nitems - 1];
	if (res->kind != VR_RATE) {
		row->failed[col] = true;
		return;
	}
	row->rate[col] = res->rate;
	row->ns[col] = res->ns;
	row->bytes[col] = res->bytes;
}

uint64_t measure_probe_bytes(const struct probe_spec *ps)
{
	uint64_t per_block = 0;
	for (int k = 0; k < ps->nrows; k++)
		per_block += (uint64_t)(ps->rows[k].rounds + ps->rows[k].lead) * ps->rows[k].chunk;
	return per_block * (uint64_t)ps->n;
}

int measure_probe(struct dev *d, const struct probe_spec *ps, struct rate_result *r)
{
	struct measurement m;
	uint64_t start[PROBE_MAX_BLOCKS], largest = 0;

	memset(r, 0, sizeof(*r));
	r->erasesize = ps->erasesize;
	r->nr = ps->n;
	r->offset = ps->n ? ps->at[0] : 0;
	r->find_fat = ps->columns;
	r->rows = calloc((size_t)(ps->nrows ? ps->nrows : 1), sizeof(*r->rows));
	if (!r->rows || ps->n < 1 || ps->n > PROBE_MAX_BLOCKS || (ps->columns && ps->n > RATE_MAX_COLS))
		return -1;
	for (int k = 0; k < ps->nrows; k++) {
		if (ps->rows[k].rounds < 1 || ps->rows[k].rounds > PROBE_MAX_ROUNDS || ps->rows[k].lead < 0 ||
		    ps->rows[k].lead > PROBE_MAX_ROUNDS || (ps->rows[k].lead && !ps->columns))
			return -1;
		if (ps->rows[k].chunk > largest)
			largest = ps->rows[k].chunk;
		r->blocksize = ps->rows[k].chunk;
	}
	for (int j = 0; j < ps->n; j++)
		start[j] = ps->at[j];
	measure_begin(&m, d);
	struct params p;
	params_defaults(&p);
	p.on_write_error = ps->on_write_error;
	if (measure_start(&m, &p, NULL, largest ? largest : d->lbs) < 0)
		return measure_finish(&m, &r->st);
	char step[32];
	snprintf(step, sizeof step, "N=%d", ps->n);
	progress_start(ps->columns ? "find-fat" : "open-au", step, measure_probe_bytes(ps));
	for (int k = 0; k < ps->nrows && !measure_stopped(&m); k++) {
		const struct probe_row *pr = &ps->rows[k];
		struct vm_op *ops[RATE_MAX_COLS];
		int nops = row_programs(m.prog, ps, pr, start, ops);
		if (nops < 0)
			break;
		struct rate_row *row = &r->rows[r->nrows++];
		row->blocksize = pr->chunk;
		row->ncols = nops;
		for (int c = 0; c < nops; c++)
			probe_cell(row, c, vm_run(&m.c, m.prog, ops[c], 0));
		for (int j = 0; j < ps->n; j++)
			start[j] += (uint64_t)(pr->rounds + pr->lead) * pr->chunk;
		if (ps->keep_going && !ps->keep_going(row, ps->keep_going_arg))
			break;
	}
	if (measure_stopped(&m) && m.c.interrupted && r->nrows) {
		const struct rate_row *last = &r->rows[r->nrows - 1];
		for (int c = 0; c < last->ncols; c++)
			if (last->failed[c]) {
				r->nrows--;	/* cut short, not failed: leave it out */
				break;
			}
	}
	return measure_finish(&m, &r->st);
}
