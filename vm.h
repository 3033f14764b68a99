/*
 * The timed-I/O virtual machine. A measurement is a tree of operations:
 * generators set the offset/length context and run their children,
 * primitives do one timed I/O, reductions fold their children's results.
 * Running a tree returns a result tree (data, never text); printing and
 * analysis consume it afterwards, so nothing but the I/O is timed.
 */
#ifndef FB_VM_H
#define FB_VM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "dev.h"
#include "results/results.h"

struct vm_op {
	enum vm_opcode code;
	int64_t a, b;
	const char *name;	/* label for VM_OUT, optional elsewhere */
	struct vm_op **kids;
	int nkids;
};

enum vm_kind { VR_NONE, VR_SAMPLE, VR_RATE, VR_VALUE, VR_LIST, VR_FAILED };

/* A result: a sample (time of an I/O of some bytes), a rate, a value, or a list. */
struct vm_result {
	enum vm_kind kind;
	int64_t ns;		/* VR_SAMPLE: time */
	uint64_t bytes;		/* VR_SAMPLE: bytes moved; VR_VALUE: the value */
	double rate;		/* VR_RATE: bytes per second */
	uint64_t off;		/* VR_SAMPLE: offset of the (first) I/O */
	int err;		/* VR_FAILED: errno of the first failed I/O */
	const char *label;	/* set by VM_OUT */
	struct vm_result *items;	/* VR_LIST */
	int nitems;
};

/* Arena-backed program builder: every op lives until vm_free_program(). */
struct vm_program;
struct vm_program *vm_new_program(void);
void vm_free_program(struct vm_program *p);
struct vm_op *vm_op(struct vm_program *p, enum vm_opcode code, int64_t a, int64_t b,
		    struct vm_op *kid);
/* VM_SEQ of n children */
struct vm_op *vm_seq(struct vm_program *p, int n, struct vm_op **kids);
struct vm_op *vm_out(struct vm_program *p, const char *label, struct vm_op *kid);

struct vm_ctx {
	struct dev *dev;
	void *buf;		/* holds max_len bytes, allocated once */
	uint64_t max_len;
	enum vm_on_error on_read_error, on_write_error;
	uint64_t seed;		/* for VM_WRITE_RANDOM fill */
	/*
	 * Offsets are taken modulo the device size and a read that crosses the
	 * end continues at offset 0, as the original's -a. (Writes do not
	 * wrap: a write past the end fails with EINVAL.)
	 */
	bool wrap;
	int filled_pattern;	/* enum pattern now in buf, -1 for none */
	/*
	 * Optional: called after each successful timed I/O (outside the timed
	 * region) with its length and whether it wrote, e.g. for a progress bar.
	 */
	void (*io_done)(uint64_t bytes, bool written, void *arg);
	void *io_done_arg;
	/* filled in by the run */
	int nfailures;
	struct vm_failure first_failure;
	bool stopped;		/* by an error (STOP) or an interrupt */
	bool interrupted;
};

/* Set by signal handlers: the VM finishes the current I/O and stops. */
extern volatile sig_atomic_t vm_stop_requested;

/*
 * Largest I/O the program issues starting from offset/length 0; used to
 * size the buffer before the run.
 */
uint64_t vm_max_length(const struct vm_op *op);

/* Pattern buffers are filled here, outside timed regions. */
int vm_ctx_init(struct vm_ctx *c, struct dev *d, uint64_t max_len);
void vm_ctx_free(struct vm_ctx *c);

/*
 * Runs op at base offset off. The returned tree is owned by the program's
 * arena. Failed I/Os become VR_FAILED leaves (never a time); reductions
 * over failed leaves are VR_FAILED too.
 */
struct vm_result *vm_run(struct vm_ctx *c, struct vm_program *p, const struct vm_op *op,
			 uint64_t off);

/*
 * The original flashbench's pseudo-random orders (doc/original-io.md).
 * Its LFSR is a Fibonacci register of `bits` bits: shift right, the XOR of
 * the tap bits enters at the top; the taps are the maximal-length
 * polynomials of the usual table (x^8 + x^6 + x^5 + x^4 + 1 for 8 bits,
 * x^9 + x^5 + 1 for 9, ...), and it starts from 0xace1 cut to `bits`.
 */
#define VM_LFSR_MIN_BITS 2
#define VM_LFSR_MAX_BITS 32
uint32_t vm_lfsr_step(uint32_t v, unsigned int bits);
uint32_t vm_lfsr_seed(unsigned int bits);

/*
 * A visiting order of the places 0..n-1 (n < 2^32), one place per
 * vm_order_next(), n of them, each once:
 * - vm_order_init: the original's --open-au erase blocks, -r's chunks and
 *   -p's random columns (VM_OFF_RAND): the register of max(8, bits of n)
 *   bits from its seed, values of n or more skipped, n - 1 values, then 0;
 * - vm_scatter_order_init: the original's -s places (VM_OFF_SCATTER): 0,
 *   then the register of just enough bits for n from its seed on, values
 *   of n or more skipped, ending with the seed itself when n is 2^bits.
 */
struct vm_order {
	uint64_t n, done;
	uint32_t v;
	unsigned int bits;
	bool zero_first;
};
void vm_order_init(struct vm_order *o, uint64_t n);
void vm_scatter_order_init(struct vm_order *o, uint64_t n);
uint64_t vm_order_next(struct vm_order *o);

#endif
