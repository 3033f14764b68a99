/* --open-au, --find-fat and -p: write and read rates per block size. */
#include "measure/measure.h"
#include "measure/measure_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/progress.h"

/* ------------------------------------------------- --open-au, --find-fat */

static void rate_cell(struct rate_row *row, int col, const struct vm_result *res)
{
	if (res->kind != VR_RATE) {
		row->failed[col] = true;
		return;
	}
	row->rate[col] = res->rate;
	row->ns[col] = res->ns;
	row->bytes[col] = res->bytes;
}

/* The first row's block size: the erase size, or a smaller one --auto asks for. */
static uint64_t first_row(const struct params *p)
{
	uint64_t b = p->erasesize;
	while (p->first_blocksize && b / 2 >= p->first_blocksize && b % 2 == 0)
		b /= 2;
	return b;
}

static int count_rows(const struct params *p)
{
	int n = 0;
	for (uint64_t s = first_row(p); s >= p->blocksize; s /= 2)
		n++;
	return n;
}

static enum vm_opcode chunk_order(const struct params *p)
{
	return p->random ? VM_OFF_RAND : VM_OFF_LIN;
}

/*
 * One erase block's worth in chunks of bs (in order, or LFSR order with
 * --random: the original's order), each chunk position written in `ways`
 * erase blocks, way_stride apart, visited in the original's order (a too
 * small erase-size guess then never puts two "erase blocks" in one real
 * one): the throughput of the whole row. The data is the original's 0x5a.
 */
static struct vm_op *rate_program(struct vm_program *prog, const struct params *p, uint64_t bs,
				  int64_t ways, uint64_t way_stride)
{
	struct vm_op *write = vm_op(prog, VM_WRITE_5A, 0, 0, NULL);
	struct vm_op *across = vm_op(prog, VM_OFF_RAND, (int64_t)way_stride, ways, write);
	struct vm_op *chunks = vm_op(prog, chunk_order(p), 0, -(int64_t)p->erasesize, across);
	return vm_op(prog, VM_LEN_FIXED, (int64_t)bs, 0, vm_op(prog, VM_BPS, 0, 0, chunks));
}

static int alloc_rate_result(struct rate_result *r, const struct params *p, uint64_t offset,
			     long long nr)
{
	memset(r, 0, sizeof *r);
	r->erasesize = p->erasesize;
	r->blocksize = p->blocksize;
	r->offset = offset;
	r->nr = nr;
	r->random = p->random;
	r->rows = calloc((size_t)count_rows(p), sizeof *r->rows);
	return r->rows ? 0 : -1;
}

static bool row_has_failure(const struct rate_row *row)
{
	for (int c = 0; c < row->ncols; c++)
		if (row->failed[c])
			return true;
	return false;
}

static bool keep_going(const struct params *p, const struct rate_row *row)
{
	return !p->keep_going || p->keep_going(row, p->keep_going_arg);
}

/*
 * For each block size: cols runs of `ways`-erase-block programs, col_stride
 * apart, their erase blocks r->spacing erase sizes apart.
 */
static int measure_rates(struct dev *d, const struct params *p, struct rate_result *r,
			 const char *test, int cols, int64_t ways, uint64_t base, uint64_t col_stride)
{
	struct measurement m;
	struct vm_op *ops[64];
	int n = 0;

	measure_begin(&m, d);
	for (uint64_t bs = first_row(p); bs >= p->blocksize && n < 64; bs /= 2)
		ops[n++] = rate_program(m.prog, p, bs, ways, r->spacing * p->erasesize);
	if (measure_start(&m, p, ops[0], 0) < 0)
		return measure_finish(&m, &r->st);
	char step[32];
	snprintf(step, sizeof step, "N=%lld", (long long)cols * ways);
	progress_start(test, step, (uint64_t)n * p->erasesize * (uint64_t)cols * (uint64_t)ways);
	for (int i = 0; i < n && !measure_stopped(&m); i++) {
		struct rate_row *row = &r->rows[r->nrows++];
		row->blocksize = first_row(p) >> i;
		row->ncols = cols;
		for (int col = 0; col < cols; col++)
			rate_cell(row, col, vm_run(&m.c, m.prog, ops[i], base + (uint64_t)col * col_stride));
		if (!(row_has_failure(row) && measure_stopped(&m) && m.c.interrupted))
			measure_row_done(p);
		if (!keep_going(p, row))
			break;
	}
	if (measure_stopped(&m) && m.c.interrupted && r->nrows && row_has_failure(&r->rows[r->nrows - 1]))
		r->nrows--;	/* cut short, not failed: leave it out */
	return measure_finish(&m, &r->st);
}

int measure_open_au(struct dev *d, const struct params *p, struct rate_result *r)
{
	uint64_t off = open_au_offset(p);

	if (alloc_rate_result(r, p, off, p->open_au_nr) < 0)
		return -1;
	r->spacing = open_au_spacing(d, p);
	return measure_rates(d, p, r, "open-au", 1, p->open_au_nr, off, 0);
}

int measure_find_fat(struct dev *d, const struct params *p, struct rate_result *r)
{
	if (alloc_rate_result(r, p, 0, p->fat_nr) < 0)
		return -1;
	r->spacing = 1;
	r->find_fat = true;
	return measure_rates(d, p, r, "find-fat", (int)p->fat_nr, 1, 0, p->erasesize);
}

void rate_result_free(struct rate_result *r)
{
	free(r->rows);
	r->rows = NULL;
}

/* ---------------------------------------------------------------- -p */

struct program_step {
	enum vm_opcode io;
	bool random;
};

/* The original's columns, in its order. */
static const struct program_step program_steps[PROGRAM_COLUMNS] = {
	{ VM_WRITE_ZERO, false }, { VM_WRITE_ONES, false }, { VM_WRITE_5A, false }, { VM_READ, false },
	{ VM_WRITE_ZERO, true }, { VM_WRITE_ONES, true }, { VM_WRITE_5A, true }, { VM_READ, true },
};
const char *const program_labels[PROGRAM_COLUMNS] = {
	"write zeros linear", "write ones linear", "write 0x5a linear", "read linear",
	"write zeros random", "write ones random", "write 0x5a random", "read random",
};

/*
 * The whole region in chunks of bs, in order or in the original's order:
 * as the original, the mean of the chunks' rates (each chunk's bytes over
 * its time), not the bytes over the total time.
 */
static struct vm_op *program_step_op(struct vm_program *prog, const struct program_step *st,
				     uint64_t bs)
{
	struct vm_op *io = vm_op(prog, VM_BPS, 0, 0, vm_op(prog, st->io, 0, 0, NULL));
	struct vm_op *chunks = vm_op(prog, st->random ? VM_OFF_RAND : VM_OFF_LIN, 0,
				     -(int64_t)PROGRAM_REGION, io);
	return vm_op(prog, VM_LEN_FIXED, (int64_t)bs, 0, vm_op(prog, VM_AVG, 0, 0, chunks));
}

int measure_program(struct dev *d, const struct params *p, struct program_result *r)
{
	int nsizes = 0;
	struct measurement m;

	for (uint64_t bs = PROGRAM_LARGEST; bs >= program_smallest(d); bs /= 2)
		nsizes++;
	memset(r, 0, sizeof *r);
	r->rows = calloc((size_t)(nsizes * PROGRAM_COLUMNS), sizeof *r->rows);
	struct vm_op **ops = calloc((size_t)(nsizes * PROGRAM_COLUMNS), sizeof *ops);
	if (!r->rows || !ops) {
		free(ops);
		return -1;
	}
	measure_begin(&m, d);
	int n = 0;
	for (uint64_t bs = PROGRAM_LARGEST; bs >= program_smallest(d); bs /= 2)
		for (int s = 0; s < PROGRAM_COLUMNS; s++, n++) {
			r->rows[n].label = program_labels[s];
			r->rows[n].blocksize = bs;
			ops[n] = program_step_op(m.prog, &program_steps[s], bs);
		}
	if (measure_start(&m, p, ops[0], 0) < 0) {
		free(ops);
		return measure_finish(&m, &r->st);
	}
	uint64_t bytes = 0;
	for (uint64_t bs = PROGRAM_LARGEST; bs >= program_smallest(d); bs /= 2)
		bytes += PROGRAM_REGION * PROGRAM_COLUMNS;
	progress_start("program", NULL, bytes);
	for (int i = 0; i < n && !measure_stopped(&m); i++) {
		struct program_row *row = &r->rows[r->nrows++];
		const struct vm_result *res = vm_run(&m.c, m.prog, ops[i], program_offset(p));
		row->failed = res->kind != VR_RATE;
		row->rate = row->failed ? 0 : res->rate;
		if (r->nrows % PROGRAM_COLUMNS == 0 && !(measure_stopped(&m) && m.c.interrupted))
			measure_row_done(p);
	}
	if (measure_stopped(&m) && m.c.interrupted)
		r->nrows -= r->nrows % PROGRAM_COLUMNS;	/* whole rows only */
	free(ops);
	return measure_finish(&m, &r->st);
}

void program_result_free(struct program_result *r)
{
	free(r->rows);
	r->rows = NULL;
}
