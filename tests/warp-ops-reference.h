/* The host reference of tests/test-warp-ops.c: every field of the ops
 * kernel (tests/warp-ops.cl) computed from the inputs, bit for bit, and the
 * inputs' generator. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARP_OPS_REFERENCE_H
#define CLWARP_WARP_OPS_REFERENCE_H

#include "warp-reference.h"

enum fop { F_ADD, F_MIN, F_MAX, F_MUL, F_AND, F_OR, F_XOR, F_AFFINE };

/* --------------------------------------------------------- reference */

/* An exact value of a float type as its bits. */
static uint64_t
float_bits(const struct conf_type *t, double v)
{
	if (t->size == 2)
		return float_to_half((float)v);
	return t->size == 4 ? f_bits((float)v) : d_bits(v);
}

static uint64_t
affine(uint64_t a, uint64_t b)
{
	uint32_t ma = (uint32_t)a, ca = (uint32_t)(a >> 32), mb = (uint32_t)b, cb = (uint32_t)(b >> 32);

	return ((uint64_t)(uint32_t)(ca * mb + cb) << 32) | (uint32_t)(ma * mb);
}

static uint64_t
op_mul(const struct conf_type *t, uint64_t a, uint64_t b)
{
	if (t->kind != K_FLOAT)
		return (a * b) & mask_of(t);
	if (t->size == 2)
		return float_to_half(half_to_float(a) * half_to_float(b));
	if (t->size == 4)
		return f_bits(bits_f(a) * bits_f(b));
	return d_bits(bits_d(a) * bits_d(b));
}

static uint64_t
apply(const struct conf_type *t, enum fop op, uint64_t a, uint64_t b)
{
	switch (op) {
	case F_ADD: return op_add(t, a, b);
	case F_MIN: return op_min(t, a, b);
	case F_MAX: return op_max(t, a, b);
	case F_MUL: return op_mul(t, a, b);
	case F_AND: return a & b;
	case F_OR: return a | b;
	case F_XOR: return a ^ b;
	case F_AFFINE: return affine(a, b);
	}
	return 0;
}

static uint64_t
identity(const struct conf_type *t, enum fop op)
{
	switch (op) {
	case F_MIN: return min_identity(t);
	case F_MAX: return max_identity(t);
	case F_MUL: return t->kind == K_FLOAT ? float_bits(t, 1.0) : 1;
	case F_AND: return mask_of(t);
	case F_AFFINE: return 1;
	default: return 0;
	}
}

/* OP over x[first .. end-1] in index order; the identity when empty. */
static uint64_t
fold(const struct conf_type *t, enum fop op, const uint64_t *x, size_t first, size_t end)
{
	uint64_t acc;

	if (end <= first)
		return identity(t, op);
	acc = x[first];
	for (size_t j = first + 1; j < end; j++)
		acc = apply(t, op, acc, x[j]);
	return acc;
}

struct inputs {
	uint64_t *s, *a, *m, *p, *q;
	uint64_t *qkey;  /* q's identity for match: equal keys <=> equal values (every component) */
	int32_t *pr;
	uint32_t *args;
	uint32_t bsrc;
};

/* Where slot i sits: its lane, the first slot of its segment, its segment lane. */
struct place {
	size_t i, seg_base;
	uint64_t lane, seg_lane;
	unsigned w; /* logical width, at most W */
};

static struct place
place_of(size_t i, size_t group_items, unsigned warp, unsigned width)
{
	struct place pl;

	pl.i = i;
	pl.w = width < warp ? width : warp;
	pl.lane = (i % group_items) % warp;
	pl.seg_lane = pl.lane & (pl.w - 1);
	pl.seg_base = i - pl.seg_lane;
	return pl;
}

static const enum fop col_ops[4] = { F_ADD, F_MIN, F_MAX, F_MUL };
static const enum fop bit_ops[3] = { F_AND, F_OR, F_XOR };

static const uint64_t *
col_input(const struct inputs *in, unsigned k)
{
	return k == 0 ? in->a : k == 3 ? in->p : in->m;
}

static uint64_t
t_expected(const struct conf_type *t, unsigned f, const struct place *pl, unsigned warp,
	   const struct inputs *in)
{
	size_t i = pl->i, sb = pl->seg_base, se = pl->seg_base + pl->w;
	uint64_t d;

	switch (f) {
	case 0:
		return in->s[sb + (in->args[i * 4] & (pl->w - 1))];
	case 1:
		d = in->args[i * 4 + 1];
		return d < pl->w - pl->seg_lane ? in->s[i + d] : in->s[i];
	case 2:
		d = in->args[i * 4 + 2];
		return d <= pl->seg_lane ? in->s[i - d] : in->s[i];
	case 3:
		d = in->args[i * 4 + 3];
		return d < pl->w ? in->s[i - pl->lane + (pl->lane ^ d)] : in->s[i];
	case 4:
		return in->s[sb + (in->bsrc & (pl->w - 1))];
	case 17:
		return fold(t, F_MUL, in->p, i - pl->lane, i - pl->lane + warp);
	case 18:
		return fold(t, F_MUL, in->p, i - pl->lane, i);
	case 28:
		return fold(t, F_XOR, in->s, i - pl->lane, i - pl->lane + warp);
	case 29: return fold(t, F_AFFINE, in->s, sb, se);
	case 30: return fold(t, F_AFFINE, in->s, sb, i + 1);
	case 31: return fold(t, F_AFFINE, in->s, sb, i);
	case 32: return fold(t, F_AFFINE, in->s, i - pl->lane, i + 1);
	case 33: return in->s[i - pl->lane + (in->bsrc & (warp - 1))];
	}
	if (f >= 5 && f < 17) {
		unsigned k = (f - 5) % 4, kind = (f - 5) / 4; /* 0 reduce, 1 inclusive, 2 exclusive */
		size_t end = kind == 0 ? se : kind == 1 ? i + 1 : i;
		return fold(t, col_ops[k], col_input(in, k), sb, end);
	}
	if (f >= 19 && f < 28) {
		unsigned k = (f - 19) % 3, kind = (f - 19) / 3;
		size_t end = kind == 0 ? se : kind == 1 ? i + 1 : i;
		return fold(t, bit_ops[k], in->s, sb, end);
	}
	return 0;
}

static uint64_t
bits_expected(const struct conf_type *t, unsigned f, const struct place *seg,
	      const struct place *whole, const struct inputs *in)
{
	const struct place *pl = f >= 6 ? whole : seg;
	uint64_t mask = 0, all = 1;
	uint64_t mine = in->qkey[pl->i];

	for (unsigned j = 0; j < pl->w; j++) {
		size_t k = pl->seg_base + j;
		switch (f) {
		case 0:
		case 6:
			mask |= (uint64_t)(in->qkey[k] == mine) << j;
			break;
		case 1:
		case 7:
			all &= in->qkey[k] == in->qkey[pl->seg_base];
			break;
		default:
			mask |= (uint64_t)(in->pr[k] != 0) << j;
			break;
		}
	}
	switch (f) {
	case 0: case 6: case 2: return mask;
	case 1: case 7: return all;
	case 3: return mask == (pl->w == 64 ? ~0ull : (1ull << pl->w) - 1);
	case 4: return mask != 0;
	default: return mask == 0; /* 5, 8 */
	}
}

/* ---------------------------------------------------------- inputs */

static void
gen(const struct conf_type *t, size_t n, unsigned warp, struct inputs *in)
{
	uint64_t mask = mask_of(t);
	int is_float = t->kind == K_FLOAT;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = rng();
		unsigned lane = (unsigned)(i % warp), warp_index = (unsigned)(i / warp);

		/* s: any bits (signalling NaNs, -0.0 and denormals for floats) */
		if (is_float && i % 7 == 3)
			in->s[i] = nan_bits(t, r, 1);
		else if (i % 11 == 0)
			in->s[i] = sign_bit(t);
		else
			in->s[i] = r & mask;
		if (t->size == 8 && t->kind == K_UINT && i % 5 == 0) /* affine maps: some with m = 1 */
			in->s[i] = (in->s[i] & ~0xffffffffull) | 1;

		/* a: sums exact in any order */
		r = rng();
		if (is_float && t->size == 2) /* |sums| <= 1024 in steps of 0.5 */
			in->a[i] = float_bits(t, (double)((int)(r % 65u) - 32) * 0.5);
		else if (is_float)
			in->a[i] = float_bits(t, (double)((int64_t)(r % 65537u) - 32768) * 0.5);
		else
			in->a[i] = (uint64_t)((int64_t)(r % 2000001u) - 1000000) & mask;

		/* m: min/max inputs, never a zero; infinities and quiet NaNs for floats */
		r = rng();
		if (is_float && i % 29 == 1)
			in->m[i] = min_identity(t);
		else if (is_float && (i % 13 == 2 || warp_index == 3))
			in->m[i] = nan_bits(t, r, i % 2 ? 2 : 0);
		else if (is_float) {
			int64_t k = t->size == 2 ? (int64_t)(r % 2001u) - 1000 : (int64_t)(r % 200001u) - 100000;
			if (k == 0)
				k = 1;
			in->m[i] = float_bits(t, (double)k * 0.25);
		} else if (i % 13 == 1)
			in->m[i] = max_identity(t);
		else
			in->m[i] = r & mask;

		/* p: products exact in any order and in range: +-1, +-2, 3, (0.5) */
		{
			int64_t v = (r >> 20) % 2 ? 1 : -1;
			if (lane % 16 == 1 || lane % 16 == 9)
				v *= 2;
			else if (lane % 16 == 5)
				v *= 3;
			if (is_float && lane % 16 == 13)
				in->p[i] = float_bits(t, 0.5);
			else if (is_float)
				in->p[i] = float_bits(t, (double)v);
			else
				in->p[i] = (uint64_t)v & mask;
		}

		/* q: few distinct values; warp 1 is uniform (match_all), floats
		 * mix -0.0, +0.0 and one NaN */
		r = rng();
		if (warp_index == 1) {
			in->q[i] = is_float ? nan_bits(t, 5, 0) : 7;
		} else {
			static const uint64_t f16[4] = { 0x8000ull, 0, 0x3c00ull, 0x7e05ull };
			static const uint64_t f32[4] = { 0x80000000ull, 0, 0x3f800000ull, 0x7fc00005ull };
			static const uint64_t f64[4] = { 0x8000000000000000ull, 0, 0x3ff0000000000000ull,
							 0x7ff8000000000005ull };
			unsigned k = (unsigned)(r % 4);
			in->q[i] = !is_float ? ((uint64_t)k - 1) & mask
				  : t->size == 2 ? f16[k] : t->size == 4 ? f32[k] : f64[k];
		}

		/* predicates: warp 1 all true, warp 2 all false, else random */
		in->pr[i] = warp_index == 1 ? 3 : warp_index == 2 ? 0 : (int32_t)(rng() % 3 == 0) * -5;

		in->args[i * 4 + 0] = (uint32_t)(rng() % (3 * warp + 1));
		in->args[i * 4 + 1] = i % 17 == 0 ? 0xffffffffu : (uint32_t)(rng() % (warp + 3));
		in->args[i * 4 + 2] = i % 19 == 0 ? 0x80000001u : (uint32_t)(rng() % (warp + 3));
		in->args[i * 4 + 3] = i % 23 == 0 ? 0xfffffffeu : (uint32_t)(rng() % (2 * warp + 1));
	}
}

#endif
