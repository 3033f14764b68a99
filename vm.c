#include "vm.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


volatile sig_atomic_t vm_stop_requested;

/* A stop request also cuts a pause short (dev_idle): dev.c, below vm, cannot include vm.h. */
__attribute__((constructor)) static void vm_share_stop_flag(void)
{
	dev_stop_flag = &vm_stop_requested;
}

/* ---- arena: ops and results of one program live and die together ---- */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct vm_program {
	struct chunk *chunks;
};

static void *arena_alloc(struct vm_program *p, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct chunk *c = p->chunks;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		c = malloc(sizeof *c + cap);
		if (!c)
			abort();	/* out of memory before any result exists */
		c->next = p->chunks;
		c->used = 0;
		c->cap = cap;
		p->chunks = c;
	}
	void *r = (char *)c->data + c->used;
	c->used += n;
	memset(r, 0, n);
	return r;
}

struct vm_program *vm_new_program(void)
{
	struct vm_program *p = calloc(1, sizeof *p);
	if (!p)
		abort();
	return p;
}

void vm_free_program(struct vm_program *p)
{
	if (!p)
		return;
	while (p->chunks) {
		struct chunk *c = p->chunks;
		p->chunks = c->next;
		free(c);
	}
	free(p);
}

struct vm_op *vm_op(struct vm_program *p, enum vm_opcode code, int64_t a, int64_t b,
		    struct vm_op *kid)
{
	struct vm_op *op = arena_alloc(p, sizeof *op);
	op->code = code;
	op->a = a;
	op->b = b;
	if (kid) {
		op->kids = arena_alloc(p, sizeof *op->kids);
		op->kids[0] = kid;
		op->nkids = 1;
	}
	return op;
}

struct vm_op *vm_seq(struct vm_program *p, int n, struct vm_op **kids)
{
	struct vm_op *op = vm_op(p, VM_SEQ, 0, 0, NULL);
	op->kids = arena_alloc(p, sizeof *op->kids * (size_t)n);
	memcpy(op->kids, kids, sizeof *kids * (size_t)n);
	op->nkids = n;
	return op;
}

struct vm_op *vm_out(struct vm_program *p, const char *label, struct vm_op *kid)
{
	struct vm_op *op = vm_op(p, VM_OUT, 0, 0, kid);
	op->name = label;
	return op;
}

/* ---- the original's LFSR and the orders built on it ---- */

/*
 * The middle exponents of the feedback polynomial x^bits + ... + 1 per
 * width: the usual table of maximal-length polynomials, which the
 * original's recorded orders follow for 8 to 14 bits (doc/original-io.md).
 * Exponent e taps bit bits - e of the register; x^0 taps bit 0.
 */
static const int8_t lfsr_exponents[VM_LFSR_MAX_BITS + 1][3] = {
	[2] = { 1 }, [3] = { 2 }, [4] = { 3 }, [5] = { 3 }, [6] = { 5 }, [7] = { 6 },
	[8] = { 6, 5, 4 }, [9] = { 5 }, [10] = { 7 }, [11] = { 9 }, [12] = { 11, 10, 4 },
	[13] = { 12, 11, 8 }, [14] = { 13, 12, 2 }, [15] = { 14 }, [16] = { 14, 13, 11 },
	[17] = { 14 }, [18] = { 11 }, [19] = { 18, 17, 14 }, [20] = { 17 }, [21] = { 19 },
	[22] = { 21 }, [23] = { 18 }, [24] = { 23, 22, 17 }, [25] = { 22 }, [26] = { 6, 2, 1 },
	[27] = { 5, 2, 1 }, [28] = { 25 }, [29] = { 27 }, [30] = { 6, 4, 1 }, [31] = { 28 },
	[32] = { 22, 2, 1 },
};

static unsigned int clamp_bits(unsigned int bits)
{
	return bits < VM_LFSR_MIN_BITS ? VM_LFSR_MIN_BITS :
	       bits > VM_LFSR_MAX_BITS ? VM_LFSR_MAX_BITS : bits;
}

uint32_t vm_lfsr_step(uint32_t v, unsigned int bits)
{
	bits = clamp_bits(bits);
	uint32_t fb = v;	/* x^0 */

	for (int i = 0; i < 3 && lfsr_exponents[bits][i]; i++)
		fb ^= v >> (bits - (unsigned int)lfsr_exponents[bits][i]);
	return (uint32_t)(((uint64_t)v >> 1) | (uint64_t)(fb & 1) << (bits - 1));
}

uint32_t vm_lfsr_seed(unsigned int bits)
{
	bits = clamp_bits(bits);
	return (uint32_t)(0xace1u & ((1ull << bits) - 1));
}

/* How many bits hold n: 1 for 1, 8 for 128..255, 9 for 256 */
static unsigned int bits_of(uint64_t n)
{
	unsigned int b = 0;

	while (b < 64 && n >> b)
		b++;
	return b;
}

void vm_order_init(struct vm_order *o, uint64_t n)
{
	unsigned int b = bits_of(n);

	o->n = n;
	o->done = 0;
	o->bits = clamp_bits(b < 8 ? 8 : b);
	o->v = vm_lfsr_seed(o->bits);
	o->zero_first = false;
}

void vm_scatter_order_init(struct vm_order *o, uint64_t n)
{
	o->n = n;
	o->done = 0;
	o->bits = clamp_bits(n > 1 ? bits_of(n - 1) : 1);
	o->v = vm_lfsr_seed(o->bits);
	o->zero_first = true;
}

/* The next LFSR value below n; 0 when it has none left to give. */
static uint64_t next_below(struct vm_order *o)
{
	uint64_t period = (1ull << o->bits) - 1;

	for (uint64_t i = 0; i < period; i++) {
		o->v = vm_lfsr_step(o->v, o->bits);
		if (o->v < o->n)
			return o->v;
	}
	return 0;	/* n is 1 or 2^bits is below n: no such value */
}

uint64_t vm_order_next(struct vm_order *o)
{
	uint64_t i = o->done++;

	if (o->n <= 1)
		return 0;
	if (o->zero_first)
		return i % o->n == 0 ? 0 : next_below(o);
	return i % o->n == o->n - 1 ? 0 : next_below(o);
}

/* ---- running ---- */

/* Folding state of a reduction: samples are folded as they come, never listed. */
struct fold {
	enum vm_opcode how;
	int n;
	int64_t ns;
	uint64_t bytes;
	double rate_sum;
	int nrates;
	struct vm_result best;	/* MIN/MAX */
	bool failed;
	int err;
};

struct run {
	struct vm_ctx *c;
	struct vm_program *p;
};

static struct vm_result failed_result(int err)
{
	return (struct vm_result){ .kind = VR_FAILED, .err = err };
}

static void fold_add(struct fold *f, const struct vm_result *r)
{
	switch (r->kind) {
	case VR_NONE:
		return;
	case VR_LIST:
		for (int i = 0; i < r->nitems; i++)
			fold_add(f, &r->items[i]);
		return;
	case VR_FAILED:
		if (!f->failed)
			f->err = r->err;
		f->failed = true;
		return;
	case VR_RATE:
		f->rate_sum += r->rate;
		f->nrates++;
		break;
	case VR_SAMPLE:
	case VR_VALUE:
		f->ns += r->ns;
		f->bytes += r->bytes;
		break;
	}
	bool better = f->n == 0 ||
		      (f->how == VM_MIN && (r->kind == VR_RATE ? r->rate < f->best.rate : r->ns < f->best.ns)) ||
		      (f->how == VM_MAX && (r->kind == VR_RATE ? r->rate > f->best.rate : r->ns > f->best.ns));
	if (better)
		f->best = *r;
	f->n++;
}

/*
 * Bytes per second in whole bytes, cut as the original's integer division
 * cut them: its text shows them so (777B/s for 777.6, and the K/s, M/s
 * figures rounded from the cut value). Exact while bytes * 1e9 fits in 64
 * bits, as for any row of a real run.
 */
static double whole_rate(uint64_t bytes, int64_t ns)
{
	if (bytes <= UINT64_MAX / 1000000000u)
		return (double)(bytes * 1000000000u / (uint64_t)ns);
	return floor((double)bytes * 1e9 / (double)ns);
}

static struct vm_result fold_result(const struct fold *f)
{
	struct vm_result r = { .kind = VR_SAMPLE };

	if (f->failed)
		return failed_result(f->err);
	if (f->n == 0)
		return failed_result(ENODATA);
	switch (f->how) {
	case VM_MIN:
	case VM_MAX:
		return f->best;
	case VM_AVG:
		if (f->nrates)	/* whole rates, their mean cut as the original's */
			return (struct vm_result){ .kind = VR_RATE, .rate = floor(f->rate_sum / f->nrates) };
		r.ns = f->ns / f->n;
		r.bytes = f->bytes / (uint64_t)f->n;
		return r;
	case VM_BPS:
		if (f->ns <= 0)
			return failed_result(ERANGE);
		r.kind = VR_RATE;
		r.rate = whole_rate(f->bytes, f->ns);
		r.ns = f->ns;
		r.bytes = f->bytes;
		return r;
	default:	/* VM_TOTAL */
		if (f->nrates)
			return (struct vm_result){ .kind = VR_RATE, .rate = f->rate_sum };
		r.ns = f->ns;
		r.bytes = f->bytes;
		return r;
	}
}

static struct vm_result eval(struct run *r, const struct vm_op *op, uint64_t off, uint64_t len,
			     struct fold *acc);

/* Hands a result to the enclosing reduction, if any. */
static struct vm_result deliver(struct vm_result res, struct fold *acc)
{
	if (acc) {
		fold_add(acc, &res);
		return (struct vm_result){ .kind = VR_NONE };
	}
	return res;
}

static bool should_stop(struct vm_ctx *c)
{
	if (vm_stop_requested) {
		c->stopped = c->interrupted = true;
	}
	return c->stopped;
}

static void note_failure(struct vm_ctx *c, enum vm_opcode code, uint64_t off, uint64_t len, int err,
			 bool is_write)
{
	if (c->nfailures++ == 0)
		c->first_failure = (struct vm_failure){ .off = off, .len = len, .err = err, .op = code };
	if ((is_write ? c->on_write_error : c->on_read_error) == VM_ERR_STOP)
		c->stopped = true;
}

static enum pattern pattern_of(enum vm_opcode code)
{
	switch (code) {
	case VM_WRITE_ONES: return PAT_ONES;
	case VM_WRITE_5A: return PAT_5A;
	case VM_WRITE_RANDOM: return PAT_RANDOM;
	default: return PAT_ZERO;
	}
}

static void prepare_pattern(struct vm_ctx *c, enum pattern p)
{
	if (c->filled_pattern == (int)p)
		return;
	dev_fill_pattern(c->buf, c->max_len, p, c->seed);
	c->filled_pattern = (int)p;
}

static struct vm_result do_io(struct run *r, enum vm_opcode code, uint64_t off, uint64_t len)
{
	struct vm_ctx *c = r->c;
	int64_t ns = 0;
	int err;
	bool is_write = code != VM_READ;

	if (should_stop(c))
		return failed_result(EINTR);
	if (code != VM_DISCARD && len > c->max_len)
		return failed_result(EOVERFLOW);
	if (c->wrap && c->dev->size)
		off %= c->dev->size;
	if (code == VM_READ) {
		err = c->wrap ? dev_read_wrap(c->dev, c->buf, len, off, &ns)
			      : dev_read(c->dev, c->buf, len, off, &ns);
	} else if (code == VM_DISCARD) {
		err = dev_discard(c->dev, off, len, &ns);
	} else {
		prepare_pattern(c, pattern_of(code));
		err = dev_write(c->dev, c->buf, len, off, &ns);
	}
	if (err) {
		note_failure(c, code, off, len, -err, is_write);
		return failed_result(-err);
	}
	if (c->io_done)
		c->io_done(len, code != VM_READ && code != VM_DISCARD, c->io_done_arg);
	return (struct vm_result){ .kind = VR_SAMPLE, .ns = ns, .bytes = len, .off = off };
}

/* Number of iterations of an offset generator under the current length. */
static int64_t lin_count(const struct vm_op *op, uint64_t len)
{
	if (op->b >= 0)
		return op->b;
	return len ? (int64_t)((uint64_t)-op->b / len) : 0;
}

static uint64_t lin_stride(const struct vm_op *op, uint64_t len)
{
	return op->a ? (uint64_t)op->a : len;
}

static struct vm_result *new_list(struct run *r, int64_t n)
{
	return arena_alloc(r->p, sizeof(struct vm_result) * (size_t)(n > 0 ? n : 1));
}

static struct vm_result make_list(struct vm_result *items, int64_t n)
{
	return (struct vm_result){ .kind = VR_LIST, .items = items, .nitems = (int)n };
}

/* Where iteration i of a generator runs its child. */
typedef void step_fn(const struct vm_op *op, int64_t i, void *state, uint64_t *off, uint64_t *len);

/* Runs the child once per iteration: a list of its results, or folded into acc. */
static struct vm_result iterate(struct run *r, const struct vm_op *op, int64_t n, step_fn *step,
				void *state, uint64_t off, uint64_t len, struct fold *acc)
{
	struct vm_result *items = acc ? NULL : new_list(r, n);
	const struct vm_op *kid = op->nkids ? op->kids[0] : NULL;

	for (int64_t i = 0; i < n; i++) {
		if (should_stop(r->c)) {
			struct vm_result f = failed_result(EINTR);
			if (acc) {
				fold_add(acc, &f);
				break;
			}
			for (; i < n; i++)
				items[i] = f;
			break;
		}
		uint64_t o = off, l = len;
		step(op, i, state, &o, &l);
		struct vm_result res = kid ? eval(r, kid, o, l, acc) : (struct vm_result){ 0 };
		if (!acc)
			items[i] = res;
	}
	return acc ? (struct vm_result){ .kind = VR_NONE } : make_list(items, n);
}

static void lin_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)s;
	*off += lin_stride(op, *len) * (uint64_t)i;
}

static void rand_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)i;
	*off += lin_stride(op, *len) * vm_order_next(s);
}

static void repeat_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)op; (void)i; (void)s; (void)off; (void)len;
}

static void length_step(const struct vm_op *op, int64_t i, void *s, uint64_t *off, uint64_t *len)
{
	(void)op; (void)off;
	*len = ((const uint64_t *)s)[i];
}

static struct vm_result eval_pow2(struct run *r, const struct vm_op *op, uint64_t off,
				  struct fold *acc)
{
	uint64_t lens[64];
	int n = 0;
	uint64_t from = (uint64_t)op->a, to = (uint64_t)op->b;

	if (op->code == VM_LEN_POW2_UP)
		for (uint64_t l = from; l && l <= to && n < 64; l *= 2)
			lens[n++] = l;
	else
		for (uint64_t l = from; l && l >= to && n < 64; l /= 2)
			lens[n++] = l;
	return iterate(r, op, n, length_step, lens, off, 0, acc);
}

static struct vm_result eval_seq(struct run *r, const struct vm_op *op, uint64_t off, uint64_t len,
				 struct fold *acc)
{
	struct vm_result *items = acc ? NULL : new_list(r, op->nkids);

	for (int i = 0; i < op->nkids; i++) {
		struct vm_result res = eval(r, op->kids[i], off, len, acc);
		if (!acc)
			items[i] = res;
	}
	return acc ? (struct vm_result){ .kind = VR_NONE } : make_list(items, op->nkids);
}

static struct vm_result eval_reduction(struct run *r, const struct vm_op *op, uint64_t off,
				       uint64_t len, struct fold *acc)
{
	struct fold f = { .how = op->code == VM_BPS ? VM_BPS : op->code };

	if (op->nkids)
		eval(r, op->kids[0], off, len, &f);
	return deliver(fold_result(&f), acc);
}

static struct vm_result eval(struct run *r, const struct vm_op *op, uint64_t off, uint64_t len,
			     struct fold *acc)
{
	const struct vm_op *kid = op->nkids ? op->kids[0] : NULL;

	switch (op->code) {
	case VM_READ:
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RANDOM:
	case VM_DISCARD:
		return deliver(do_io(r, op->code, off, len), acc);
	case VM_LENGTH:
		return deliver((struct vm_result){ .kind = VR_VALUE, .bytes = len }, acc);
	case VM_OFFSET:
		return deliver((struct vm_result){ .kind = VR_VALUE, .bytes = off }, acc);
	case VM_OFF_FIXED:
		return kid ? eval(r, kid, off + (uint64_t)op->a, len, acc) : (struct vm_result){ 0 };
	case VM_OFF_LIN:
		return iterate(r, op, lin_count(op, len), lin_step, NULL, off, len, acc);
	case VM_OFF_RAND:
	case VM_OFF_SCATTER: {
		struct vm_order o;
		int64_t n = lin_count(op, len);
		if (op->code == VM_OFF_RAND)
			vm_order_init(&o, (uint64_t)n);
		else
			vm_scatter_order_init(&o, (uint64_t)n);
		return iterate(r, op, n, rand_step, &o, off, len, acc);
	}
	case VM_LEN_FIXED:
		return kid ? eval(r, kid, off, (uint64_t)op->a, acc) : (struct vm_result){ 0 };
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		return eval_pow2(r, op, off, acc);
	case VM_REPEAT:
		return iterate(r, op, op->a, repeat_step, NULL, off, len, acc);
	case VM_SEQ:
		return eval_seq(r, op, off, len, acc);
	case VM_MIN:
	case VM_MAX:
	case VM_AVG:
	case VM_TOTAL:
	case VM_BPS:
		return eval_reduction(r, op, off, len, acc);
	case VM_DROP: {
		struct fold sink = { .how = VM_TOTAL };
		if (kid)
			eval(r, kid, off, len, &sink);
		return (struct vm_result){ .kind = VR_NONE };
	}
	case VM_OUT: {
		struct vm_result res = kid ? eval(r, kid, off, len, NULL) : (struct vm_result){ 0 };
		res.label = op->name;
		return deliver(res, acc);
	}
	}
	return (struct vm_result){ .kind = VR_NONE };
}

struct vm_result *vm_run(struct vm_ctx *c, struct vm_program *p, const struct vm_op *op,
			 uint64_t off)
{
	struct run r = { .c = c, .p = p };
	struct vm_result *res = arena_alloc(p, sizeof *res);

	*res = eval(&r, op, off, 0, NULL);
	return res;
}

uint64_t vm_max_length(const struct vm_op *op)
{
	uint64_t m = 0;

	if (op->code == VM_LEN_FIXED)
		m = (uint64_t)op->a;
	else if (op->code == VM_LEN_POW2_UP || op->code == VM_LEN_POW2_DOWN)
		m = (uint64_t)(op->a > op->b ? op->a : op->b);
	for (int i = 0; i < op->nkids; i++) {
		uint64_t k = vm_max_length(op->kids[i]);
		if (k > m)
			m = k;
	}
	return m;
}

int vm_ctx_init(struct vm_ctx *c, struct dev *d, uint64_t max_len)
{
	memset(c, 0, sizeof *c);
	c->dev = d;
	c->max_len = max_len;
	c->filled_pattern = -1;
	c->on_read_error = VM_ERR_CONTINUE;
	c->on_write_error = VM_ERR_STOP;
	c->seed = 0x5eed;
	c->buf = dev_alloc_buffer(max_len);
	return c->buf ? 0 : -ENOMEM;
}

void vm_ctx_free(struct vm_ctx *c)
{
	free(c->buf);
	c->buf = NULL;
}
