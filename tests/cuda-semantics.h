/* The table of tests/test-cuda.c and tests/cuda-semantics.cu (what each
 * <clwarp/cuda.h> intrinsic is called with), and the host model of CUDA's
 * rules that the test holds the device's results and CUDA's own to. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_CUDA_SEMANTICS_H
#define CLWARP_TEST_CUDA_SEMANTICS_H

#include <stdint.h>

/* One block of 64 threads: two warps at W = 32. */
#define CS_N 64

/* Lane l's shuffle operand is a + b * l (srcLane, delta or laneMask):
 * in range, at and past the width, at and past 32, negative, per lane. */
static const struct cs_arg {
	int a, b;
} cs_args[] = {
	{ 0, 0 }, { 1, 0 }, { 3, 0 }, { 5, 0 }, { 7, 0 }, { 8, 0 }, { 9, 0 }, { 15, 0 },
	{ 16, 0 }, { 17, 0 }, { 31, 0 }, { 32, 0 }, { 33, 0 }, { -1, 0 }, { 0, 1 }, { 1, 1 },
	{ 5, 3 }, { 31, -1 },
};
#define CS_ARGS ((int)(sizeof(cs_args) / sizeof(cs_args[0])))

/* The width argument; 0: the form without one. */
static const int cs_widths[] = { 0, 1, 2, 4, 8, 16, 32 };
#define CS_WIDTHS ((int)(sizeof(cs_widths) / sizeof(cs_widths[0])))

enum cs_shfl { CS_IDX, CS_UP, CS_DOWN, CS_XOR, CS_SHFL_OPS };
static const char *const cs_shfl_names[CS_SHFL_OPS] = { "idx", "up", "down", "xor" };

/* The value thread i shuffles: it names its source. */
static inline int cs_value(int i) { return 1000 + i; }

/* Vote patterns: predicate, a signed value for match and add/min/max,
 * and bits for and/or/xor, of thread i under pattern k. */
#define CS_PATTERNS 7
static inline int
cs_pred(int k, int i)
{
	switch (k) {
	case 0: return 1;
	case 1: return 0;
	case 2: return i & 1;
	case 3: return i < 5 ? 7 : 0;
	case 4: return i == 17 || i == 40;
	case 5: return (i * 7) % 5 == 0;
	default: return i < 32 ? -1 : 0;
	}
}

static inline int cs_x(int k, int i) { return k == 6 ? 4 : (i * (k + 3)) % (k + 2) - 1; }

static inline unsigned cs_u(int k, int i) { return 0xf00u | (unsigned)((i * 37 * (k + 1)) % 256); }

/* The fields of the votes kernel, in order; is_bool: CUDA promises only
 * zero or non-zero, so only that is compared. */
enum { CS_VOTE_FIELDS = 21 };
static const struct cs_field {
	const char *name;
	int is_bool;
} cs_vote_fields[CS_VOTE_FIELDS] = {
	{ "ballot", 0 }, { "any", 1 }, { "all", 1 }, { "uni", 1 }, { "activemask", 0 },
	{ "match_any", 0 }, { "match_all", 0 }, { "match_all_pred", 1 }, { "reduce_add", 0 },
	{ "reduce_min", 0 }, { "reduce_max", 0 }, { "reduce_and", 0 }, { "reduce_or", 0 },
	{ "reduce_xor", 0 }, { "syncthreads_count", 0 }, { "syncthreads_and", 1 },
	{ "syncthreads_or", 1 }, { "warpSize", 0 }, { "old_ballot", 0 }, { "old_any", 1 },
	{ "old_all", 1 },
};
/* The fields CUDA 9+ has on sm_70+ (tests/cuda-semantics.cu prints them). */
#define CS_CUDA_VOTE_FIELDS 18

/* ---- The model: CUDA's rules (PTX shfl.sync, the Programming Guide) for
 * a warp of W lanes; W = 32 is CUDA's. The source lane of thread i, or i
 * itself where CUDA gives the own value. */
static inline int
cs_shfl_source(enum cs_shfl op, int W, int i, int arg, int width)
{
	int lane = i % W, base = i - lane;
	int w = width == 0 || width > W ? W : width;
	int first = lane & ~(w - 1), end = first + w;
	/* PTX keeps the low 5 bits of the operand; a W-lane warp log2(W). */
	int b = (int)((unsigned)arg & (unsigned)(W - 1));
	int j;

	switch (op) {
	case CS_IDX: return base + first + (b & (w - 1));
	case CS_UP: j = lane - b; return j >= first ? base + j : i;
	case CS_DOWN: j = lane + b; return j < end ? base + j : i;
	default: j = lane ^ b; return j < end ? base + j : i;
	}
}

static inline int cs_shfl_model(enum cs_shfl op, int W, int i, int arg, int width)
{
	return cs_value(cs_shfl_source(op, W, i, arg, width));
}

/* Field f of the votes kernel for thread i under pattern k. */
static inline int64_t
cs_vote_model(int f, int W, int k, int i)
{
	int base = i - i % W, n_true = 0, all_x = 1, block = 0;
	uint64_t ballot = 0, same = 0, full = W >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << W) - 1);
	int64_t add = 0, mn = cs_x(k, base), mx = cs_x(k, base);
	unsigned a = ~0u, o = 0u, x = 0u;

	for (int l = 0; l < W; l++) {
		int p = cs_pred(k, base + l) != 0, v = cs_x(k, base + l);
		unsigned u = cs_u(k, base + l);

		ballot |= (uint64_t)p << l;
		same |= (uint64_t)(v == cs_x(k, i)) << l;
		n_true += p;
		all_x &= v == cs_x(k, base);
		add += v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		a &= u;
		o |= u;
		x ^= u;
	}
	for (int t = 0; t < CS_N; t++)
		block += cs_pred(k, t) != 0;
	switch (f) {
	case 0: case 18: return (int64_t)ballot;
	case 1: case 19: return n_true > 0;
	case 2: case 20: return n_true == W;
	case 3: return n_true == 0 || n_true == W;
	case 4: return (int64_t)full;
	case 5: return (int64_t)same;
	case 6: return all_x ? (int64_t)full : 0;
	case 7: return all_x;
	case 8: return (int32_t)add;
	case 9: return mn;
	case 10: return mx;
	case 11: return a;
	case 12: return o;
	case 13: return x;
	case 14: return block;
	case 15: return block == CS_N;
	case 16: return block > 0;
	default: return W;
	}
}

#endif
