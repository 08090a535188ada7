/* warp-bench: the family table and the host reference, shared by warp-bench.c (C11) and warp-bench.cu (C++). */
/* SPDX-License-Identifier: MIT */
#ifndef WARP_BENCH_REF_H
#define WARP_BENCH_REF_H

/*
 * Every family runs the same chain on every work-item: v starts from
 * wb_hash(global id), then `iters` steps (a multiple of 16, written as 16
 * unrolled steps k = 0..15 per loop trip, i = trip * 16 + k) each do ONE
 * warp operation on v plus one or two cheap ALU operations, then v is
 * stored. The warp operand of step k (shuffle offset, mask, bit position)
 * is a compile-time constant of k, as in hand-written CUDA. The steps, as
 * bench/warp-bench.cl and bench/warp-bench.cu write them (lane = warp lane,
 * lf = (float)lane, K = WB_K, wrap(x) = x - 1024 floor(x / 1024)):
 *
 *   shfl_idx        v = shuffle(v, lane + 2k + 1) + lc + i
 *   shfl_xor        v = shuffle_xor(v, k + 1) + lc + i
 *   shfl_down       v = shuffle_down(v, k + 1) + lc + i
 *   shfl_up         v = shuffle_up(v, k + 1) + lc + i
 *   shfl_xor_w8     v = shuffle_xor(v, k % 7 + 1, width 8) + lc + i
 *   shfl_down_w16   v = shuffle_down(v, k % 15 + 1, width 16) + lc + i
 *   reduce_add_int  v = (int)(((uint)reduce_add(v) ^ lc) + i)
 *   reduce_add_float  v = wrap(reduce_add(v) + lf + k)
 *   reduce_max_float  v = wrap(reduce_max(v) + lf + k)
 *   reduce_add_w8   v = (reduce_add(v, width 8) ^ lc) + i                 (uint)
 *   reduce_xor      v = (reduce_xor(v) ^ lc) + i                          (uint)
 *   reduce_mul_float  p = reduce_mul(v); v = v * p * g(lane, k), and lane 0
 *                   also takes p's sign bit: bits(v) ^= bits(p) & lane0sign
 *   scan_add_float  v = wrap(scan_inclusive_add(v) + k)
 *   scan_add_int_exclusive  v = (int)(((uint)scan_exclusive_add(v) ^ lc) + i)
 *   scan_add_w16    v = wrap(scan_inclusive_add(v, width 16) + k)         (float)
 *   ballot          v = (v ^ (uint)ballot((v >> (k + 8)) & 1)) * K + i
 *   all_any         even k: a = all(((v >> (k + 8)) & 15) != 0),
 *                   odd k:  a = any(((v >> (k + 4)) & 63) == 0);  v = (v + a) * K + i
 *   match_any       v = (v + (uint)match_any((v >> (k + 8)) & 7)) * K + i
 *   match_all       v = (v + match_all(((v >> (k + 8)) & 15) != 0 ? 1 : 0)) * K + i
 *   sort            v = (sort(v) ^ lc) + i                                (uint, ascending)
 *
 * with lc = lane * WB_L, a per-lane constant, so that the value of a lane
 * depends on the path its data took (a shuffle chain of pure permutations
 * plus uniform constants would give the same result for many wrong masks).
 *
 * Floats stay exact whatever order a backend adds in: the add/max/scan
 * chains hold integers below 2^16 (wrap keeps v in [0, 1024)), and the mul
 * chain holds +-2^e with |e| <= 2 whose warp product is +-1: v starts at 2
 * on the lower half of the warp and 1/2 on the upper (so a reduction over
 * the wrong lanes gives 2^16, not 1), g alternates 2 and 1/2 over the
 * lanes and over k, and lane 0's sign flip carries the product's sign from
 * step to step (without it the sign would cancel over an even number of
 * steps). So every backend, and CUDA, must
 * match the reference bit for bit.
 */

#include <math.h>
#include <stdint.h>
#include <string.h>

#define WB_K 2654435761u
#define WB_L 0x27D4EB2Fu
#define WB_MAX_W 64

enum wb_family {
	WB_SHFL_IDX, WB_SHFL_XOR, WB_SHFL_DOWN, WB_SHFL_UP, WB_SHFL_XOR_W8, WB_SHFL_DOWN_W16,
	WB_REDUCE_ADD_INT, WB_REDUCE_ADD_FLOAT, WB_REDUCE_MAX_FLOAT, WB_REDUCE_ADD_W8,
	WB_REDUCE_XOR, WB_REDUCE_MUL_FLOAT,
	WB_SCAN_ADD_FLOAT, WB_SCAN_ADD_INT_EXCLUSIVE, WB_SCAN_ADD_W16,
	WB_BALLOT, WB_ALL_ANY, WB_MATCH_ANY, WB_MATCH_ALL, WB_SORT,
	WB_N_FAMILIES
};

/* Kernel names are "wb_" + name. is_float: the output holds floats. */
static const struct wb_family_info {
	const char *name;
	int is_float;
} wb_families[WB_N_FAMILIES] = {
	{"shfl_idx", 0}, {"shfl_xor", 0}, {"shfl_down", 0}, {"shfl_up", 0},
	{"shfl_xor_w8", 0}, {"shfl_down_w16", 0},
	{"reduce_add_int", 0}, {"reduce_add_float", 1}, {"reduce_max_float", 1},
	{"reduce_add_w8", 0}, {"reduce_xor", 0}, {"reduce_mul_float", 1},
	{"scan_add_float", 1}, {"scan_add_int_exclusive", 0}, {"scan_add_w16", 1},
	{"ballot", 0}, {"all_any", 0}, {"match_any", 0}, {"match_all", 0}, {"sort", 0},
};

static uint32_t
wb_hash(uint32_t g)
{
	g *= 0x9E3779B1u;
	g ^= g >> 16;
	g *= 0x85EBCA6Bu;
	g ^= g >> 13;
	return g;
}

static float
wb_wrap(float x)
{
	return x - 1024.0f * floorf(x * 0.0009765625f);
}

/* The reduce_mul factor: magnitude 2 or 1/2 alternating over lanes and k, a sign. */
static float
wb_mul_factor(uint32_t lane, uint32_t k)
{
	return (((lane + k) & 1u) ? 2.0f : 0.5f) * ((((lane >> 1) + k) & 1u) ? -1.0f : 1.0f);
}

static float
wb_mul_init(uint32_t lane, uint32_t W, uint32_t h)
{
	return (lane < W / 2u ? 2.0f : 0.5f) * ((h & 256u) ? -1.0f : 1.0f);
}

static uint32_t
wb_f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float
wb_u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Lane l of a warp of W reads lane src, or keeps its own value (src < 0). */
static void
wb_gather_u(uint32_t *v, unsigned W, const int *src)
{
	uint32_t t[WB_MAX_W];

	for (unsigned l = 0; l < W; l++)
		t[l] = src[l] < 0 ? v[l] : v[src[l]];
	memcpy(v, t, W * sizeof(*v));
}

/* The source lane of a shuffle in a segment of `width` lanes (docs/warp-api.md). */
static int
wb_src(int mode, unsigned l, unsigned arg, unsigned width)
{
	unsigned s = l & ~(width - 1u);

	switch (mode) {
	case 0: return (int)(s + arg % width);                        /* idx */
	case 1: return arg < width ? (int)(l ^ arg) : -1;             /* xor */
	case 2: return l + arg < s + width ? (int)(l + arg) : -1;     /* down */
	default: return arg <= l - s ? (int)(l - arg) : -1;           /* up */
	}
}

/*
 * The outputs (as bits) of the W lanes of the warp whose lane 0 has global
 * id gid0, for `iters` steps on a warp of W lanes (W a power of two, 2..64).
 */
static void
wb_reference(int family, unsigned W, unsigned iters, uint32_t gid0, uint32_t *out)
{
	uint32_t u[WB_MAX_W], uw[WB_MAX_W];
	float f[WB_MAX_W];
	int src[WB_MAX_W];
	const int fl = wb_families[family].is_float;

	for (unsigned l = 0; l < W; l++) {
		uint32_t h = wb_hash(gid0 + l);
		u[l] = h;
		f[l] = family == WB_REDUCE_MUL_FLOAT ? wb_mul_init(l, W, h) : (float)(h & 1023u);
	}
	for (unsigned i = 0; i < iters; i++) {
		unsigned k = i & 15u, w = W;
		uint32_t su = 0, b = 0;
		float sf = 0;

		switch (family) {
		case WB_SHFL_IDX: case WB_SHFL_XOR: case WB_SHFL_DOWN: case WB_SHFL_UP:
		case WB_SHFL_XOR_W8: case WB_SHFL_DOWN_W16:
			for (unsigned l = 0; l < W; l++) {
				switch (family) {
				case WB_SHFL_IDX: src[l] = wb_src(0, l, l + 2u * k + 1u, W); break;
				case WB_SHFL_XOR: src[l] = wb_src(1, l, k + 1u, W); break;
				case WB_SHFL_DOWN: src[l] = wb_src(2, l, k + 1u, W); break;
				case WB_SHFL_UP: src[l] = wb_src(3, l, k + 1u, W); break;
				case WB_SHFL_XOR_W8: src[l] = wb_src(1, l, k % 7u + 1u, W < 8 ? W : 8); break;
				default: src[l] = wb_src(2, l, k % 15u + 1u, W < 16 ? W : 16); break;
				}
			}
			wb_gather_u(u, W, src);
			for (unsigned l = 0; l < W; l++)
				u[l] += l * WB_L + i;
			break;
		case WB_REDUCE_ADD_INT: case WB_REDUCE_XOR: case WB_REDUCE_ADD_W8:
			w = family == WB_REDUCE_ADD_W8 ? (W < 8 ? W : 8) : W;
			for (unsigned s = 0; s < W; s += w) {
				su = 0;
				for (unsigned l = s; l < s + w; l++)
					su = family == WB_REDUCE_XOR ? su ^ u[l] : su + u[l];
				for (unsigned l = s; l < s + w; l++)
					uw[l] = (su ^ (l * WB_L)) + i;
			}
			memcpy(u, uw, W * sizeof(*u));
			break;
		case WB_REDUCE_ADD_FLOAT: case WB_REDUCE_MAX_FLOAT:
			sf = f[0];
			for (unsigned l = 1; l < W; l++)
				sf = family == WB_REDUCE_ADD_FLOAT ? sf + f[l] : fmaxf(sf, f[l]);
			for (unsigned l = 0; l < W; l++)
				f[l] = wb_wrap(sf + (float)l + (float)k);
			break;
		case WB_REDUCE_MUL_FLOAT:
			sf = 1.0f;
			for (unsigned l = 0; l < W; l++)
				sf *= f[l];
			for (unsigned l = 0; l < W; l++)
				f[l] = wb_u2f(wb_f2u(f[l] * sf * wb_mul_factor(l, k)) ^
				              (l == 0u ? wb_f2u(sf) & 0x80000000u : 0u));
			break;
		case WB_SCAN_ADD_FLOAT: case WB_SCAN_ADD_W16:
			w = family == WB_SCAN_ADD_W16 ? (W < 16 ? W : 16) : W;
			for (unsigned l = 0; l < W; l++) {
				sf = (l & (w - 1u)) ? sf + f[l] : f[l];
				f[l] = sf; /* lane l's input is no longer needed by lanes > l */
			}
			for (unsigned l = 0; l < W; l++)
				f[l] = wb_wrap(f[l] + (float)k);
			break;
		case WB_SCAN_ADD_INT_EXCLUSIVE:
			for (unsigned l = 0; l < W; l++) {
				uw[l] = (su ^ (l * WB_L)) + i;
				su += u[l];
			}
			memcpy(u, uw, W * sizeof(*u));
			break;
		case WB_BALLOT:
			for (unsigned l = 0; l < W && l < 32; l++)
				b |= ((u[l] >> (k + 8u)) & 1u) << l;
			for (unsigned l = 0; l < W; l++)
				u[l] = (u[l] ^ b) * WB_K + i;
			break;
		case WB_ALL_ANY:
			b = (k & 1u) ? 0u : 1u;
			for (unsigned l = 0; l < W; l++) {
				if (k & 1u)
					b |= ((u[l] >> (k + 4u)) & 63u) == 0u;
				else
					b &= ((u[l] >> (k + 8u)) & 15u) != 0u;
			}
			for (unsigned l = 0; l < W; l++)
				u[l] = (u[l] + b) * WB_K + i;
			break;
		case WB_MATCH_ANY:
			for (unsigned l = 0; l < W; l++) {
				uint32_t m = 0;
				for (unsigned j = 0; j < W && j < 32; j++)
					m |= (uint32_t)(((u[j] >> (k + 8u)) & 7u) == ((u[l] >> (k + 8u)) & 7u)) << j;
				uw[l] = (u[l] + m) * WB_K + i;
			}
			memcpy(u, uw, W * sizeof(*u));
			break;
		case WB_SORT: /* insertion sort: lane l gets the l-th smallest */
			for (unsigned l = 0; l < W; l++) {
				uint32_t x = u[l];
				unsigned j = l;
				for (; j > 0 && uw[j - 1] > x; j--)
					uw[j] = uw[j - 1];
				uw[j] = x;
			}
			for (unsigned l = 0; l < W; l++)
				u[l] = (uw[l] ^ (l * WB_L)) + i;
			break;
		case WB_MATCH_ALL:
			b = 1;
			for (unsigned l = 1; l < W; l++)
				b &= (((u[l] >> (k + 8u)) & 15u) != 0u) == (((u[0] >> (k + 8u)) & 15u) != 0u);
			for (unsigned l = 0; l < W; l++)
				u[l] = (u[l] + b) * WB_K + i;
			break;
		default:
			break;
		}
	}
	for (unsigned l = 0; l < W; l++)
		out[l] = fl ? wb_f2u(f[l]) : u[l];
}

#endif /* WARP_BENCH_REF_H */
