/* The host reference of tests/test-warp-sort.c: the order it checks the
 * warp sorts against (stable, floats' NaNs last and -0.0 before +0.0), and
 * the keys of its input patterns. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARP_SORT_REFERENCE_H
#define CLWARP_WARP_SORT_REFERENCE_H

#include <stdlib.h>
#include <string.h>

#include "warp-reference.h"

/* Input patterns, one per warp: random bits, all equal, sorted, reverse
 * sorted, few distinct values, special values. */
#define PATTERNS 6

/* --------------------------------------------------------- reference */

static inline int
sign_of(const struct conf_type *t, uint64_t b)
{
	return (b & sign_bit(t)) != 0;
}

/* <0, 0, >0: a before, level with, after b in ascending order. Floats: every
 * NaN after everything else and level with the other NaNs, -0.0 before
 * +0.0, otherwise the numbers' order. */
static inline int
key_cmp(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (t->kind == K_FLOAT) {
		int na = is_nan(t, a), nb = is_nan(t, b);
		double x, y;

		if (na || nb)
			return na - nb;
		/* half widens exactly to float (its bits are not a double's) */
		x = t->size == 2 ? (double)half_to_float(a) : t->size == 4 ? (double)bits_f(a) : bits_d(a);
		y = t->size == 2 ? (double)half_to_float(b) : t->size == 4 ? (double)bits_f(b) : bits_d(b);
		if (x != y)
			return x < y ? -1 : 1;
		return sign_of(t, b) - sign_of(t, a); /* -0.0 first; 0 for equal non-zeros */
	}
	return less(t, a, b) ? -1 : less(t, b, a) ? 1 : 0;
}

/* idx[0..w-1] := the stable order of x[0..w-1], ascending or descending. */
static inline void
stable_order(const struct conf_type *t, const uint64_t *x, unsigned w, int descending, unsigned *idx)
{
	for (unsigned i = 0; i < w; i++) {
		unsigned j = i;

		while (j > 0) {
			int c = key_cmp(t, x[idx[j - 1]], x[i]);
			if (descending ? c < 0 : c > 0) {
				idx[j] = idx[j - 1];
				j--;
			} else {
				break;
			}
		}
		idx[j] = i;
	}
}

/* ---------------------------------------------------------- inputs */

static inline uint64_t
special(const struct conf_type *t, uint64_t r)
{
	static const uint64_t f32[] = { 0x7fc00000ull, 0x7f800001ull, 0xffc00123ull, 0xff800001ull,
					0x7f800000ull, 0xff800000ull, 0x80000000ull, 0x00000000ull,
					0x00000001ull, 0x80000001ull, 0x3f800000ull, 0xbf800000ull,
					0x7f7fffffull, 0xff7fffffull, 0x7fffffffull, 0xffffffffull };
	static const uint64_t f64[] = { 0x7ff8000000000000ull, 0x7ff0000000000001ull,
					0xfff8000000000123ull, 0xfff0000000000001ull,
					0x7ff0000000000000ull, 0xfff0000000000000ull,
					0x8000000000000000ull, 0x0000000000000000ull,
					0x0000000000000001ull, 0x8000000000000001ull,
					0x3ff0000000000000ull, 0xbff0000000000000ull,
					0x7fefffffffffffffull, 0xffefffffffffffffull,
					0x7fffffffffffffffull, 0xffffffffffffffffull };
	static const uint64_t f16[] = { 0x7e00ull, 0x7c01ull, 0xfe23ull, 0xfc01ull, 0x7c00ull, 0xfc00ull,
					0x8000ull, 0x0000ull, 0x0001ull, 0x8001ull, 0x3c00ull, 0xbc00ull,
					0x7bffull, 0xfbffull, 0x7fffull, 0xffffull };
	unsigned k = (unsigned)(r % 16);

	if (t->kind == K_FLOAT)
		return t->size == 2 ? f16[k] : t->size == 4 ? f32[k] : f64[k];
	switch (k % 5) {
	case 0: return max_identity(t); /* INT_MIN, 0 */
	case 1: return min_identity(t); /* INT_MAX, UINT_MAX */
	case 2: return 0;
	case 3: return mask_of(t); /* -1 */
	default: return 1;
	}
}

static inline void
gen_keys(const struct conf_type *t, uint64_t *keys, size_t n, unsigned warp)
{
	unsigned *idx = calloc(warp, sizeof(unsigned));
	uint64_t *tmp = calloc(warp, 8);

	for (size_t base = 0; base < n; base += warp) {
		unsigned pattern = (unsigned)(base / warp) % PATTERNS;
		uint64_t one = rng() & mask_of(t), few[3];

		for (unsigned k = 0; k < 3; k++)
			few[k] = k == 2 && t->kind == K_FLOAT ? special(t, rng()) : rng() & mask_of(t);
		for (unsigned l = 0; l < warp; l++) {
			uint64_t r = rng();
			switch (pattern) {
			case 1: keys[base + l] = one; break;
			case 4: keys[base + l] = few[r % 3]; break;
			case 5: keys[base + l] = special(t, r); break;
			default: /* random, and the source of sorted and reverse */
				keys[base + l] = l % 5 == 2 ? special(t, r >> 8) : r & mask_of(t);
				break;
			}
		}
		if (pattern == 2 || pattern == 3) {
			stable_order(t, keys + base, warp, pattern == 3, idx);
			for (unsigned l = 0; l < warp; l++)
				tmp[l] = keys[base + idx[l]];
			memcpy(keys + base, tmp, warp * 8);
		}
	}
	free(idx);
	free(tmp);
}

#endif
