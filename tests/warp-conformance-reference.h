/* The host reference of tests/test-warp.c: the inputs of one type launch
 * and the expected value of every field of the conformance kernel
 * (tests/warp-conformance.cl) for the warp width the engine reports. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARP_CONFORMANCE_REFERENCE_H
#define CLWARP_WARP_CONFORMANCE_REFERENCE_H

#include <inttypes.h>
#include <stdio.h>

#include "warp-reference.h"

/* Inputs for one type launch: shuffle sources with every odd bit pattern
 * (signalling NaNs included), add inputs whose sums are exact (any order)
 * unless `lane_order`, min/max inputs with the extremes, infinities and
 * quiet NaNs of both signs, and one warp of only NaNs. Never a zero in
 * min/max (fmin's choice between -0.0 and +0.0 is free) and no signalling
 * NaN: OpenCL leaves those to the device, and Oclgrind's double fmin turns
 * fmin(sNaN, x) into a quiet NaN instead of x. */
static inline void
gen_inputs(const struct conf_type *t, size_t n, unsigned w, int lane_order, uint64_t *s,
	   uint64_t *a, uint64_t *m)
{
	uint64_t mask = mask_of(t);

	for (size_t i = 0; i < n; i++) {
		uint64_t r = rng();

		/* s: moved bit for bit */
		if (t->kind == K_FLOAT && i % 7 == 3)
			s[i] = nan_bits(t, r, 0);
		else if (t->kind == K_FLOAT && i % 7 == 5)
			s[i] = nan_bits(t, r, 1);
		else if (i % 11 == 0)
			s[i] = t->size == 4 ? 0x80000000ull : 0x8000000000000000ull; /* -0.0, INT_MIN */
		else if (i % 13 == 6)
			s[i] = mask; /* -1, UINT_MAX */
		else if (t->kind == K_FLOAT && i % 17 == 9)
			s[i] = t->size == 4 ? 0x00000001ull : 0x1ull; /* smallest denormal */
		else
			s[i] = r & mask;

		/* a: add input */
		r = rng();
		switch (t->kind) {
		case K_SINT:
			/* |a| < 2^24 (int) or 2^50 (long): 64 lanes never overflow */
			a[i] = t->size == 4 ? (uint64_t)(int64_t)((int64_t)(r % 33554433u) - 16777216) & mask
					    : (uint64_t)((int64_t)(r % 2251799813685249ull) - 1125899906842624ll);
			break;
		case K_UINT:
			a[i] = r & mask; /* sums wrap */
			break;
		case K_FLOAT:
			if (lane_order)
				a[i] = t->size == 4 ? f_bits((float)(int32_t)(uint32_t)r * 1e-6f)
						    : d_bits((double)(int64_t)r * 1e-15);
			else /* multiples of 0.5 small enough that every partial sum is exact */
				a[i] = t->size == 4 ? f_bits((float)((int32_t)(r % 65537u) - 32768) * 0.5f)
						    : d_bits((double)((int64_t)(r % 2199023255553ull) - 1099511627776ll) * 0.5);
			break;
		}

		/* m: min/max input */
		r = rng();
		if (t->kind != K_FLOAT) {
			if (i % 13 == 1)
				m[i] = max_identity(t); /* the smallest value */
			else if (i % 13 == 2)
				m[i] = min_identity(t); /* the largest value */
			else
				m[i] = r & mask;
		} else if (i % 29 == 1) {
			m[i] = min_identity(t); /* +inf */
		} else if (i % 31 == 2) {
			m[i] = max_identity(t); /* -inf */
		} else if (i % 29 == 2 || i % 31 == 3 || i % 37 == 5) {
			m[i] = nan_bits(t, r, i % 2 ? 2 : 0);
		} else {
			int64_t k = (int64_t)(r % 200001u) - 100000;
			if (k == 0)
				k = 1;
			m[i] = t->size == 4 ? f_bits((float)k * 0.25f) : d_bits((double)k * 0.25);
		}
	}
	/* warp 1 (when there is one) is all NaN: min/max and their scans give NaN */
	if (t->kind == K_FLOAT && n >= 2 * (size_t)w)
		for (size_t i = w; i < 2 * (size_t)w; i++)
			m[i] = nan_bits(t, rng(), i % 2 ? 2 : 0);
}

#define FIXED_FIELDS 15
#define NU 8
#define NF (FIXED_FIELDS + 5 * NU)

static const char *const fixed_names[FIXED_FIELDS] = {
	"warp_shuffle(s, per-lane src)", "warp_shuffle_down(s, per-lane delta)",
	"warp_shuffle_up(s, per-lane delta)", "warp_shuffle_xor(s, per-lane mask)",
	"warp_reduce_add(a)", "warp_reduce_min(m)", "warp_reduce_max(m)",
	"warp_scan_inclusive_add(a)", "warp_scan_inclusive_min(m)", "warp_scan_inclusive_max(m)",
	"warp_scan_exclusive_add(a)", "warp_scan_exclusive_min(m)", "warp_scan_exclusive_max(m)",
	"helper: warp_reduce_add(a)", "helper(helper): warp_shuffle(s, lane + 1)",
};

static const char *const uniform_names[5] = {
	"warp_shuffle_down", "warp_shuffle_up", "warp_shuffle_xor", "warp_shuffle", "warp_broadcast",
};

static inline void
field_name(unsigned f, const uint32_t *uni, char *buf, size_t size)
{
	if (f < FIXED_FIELDS)
		snprintf(buf, size, "%s", fixed_names[f]);
	else
		snprintf(buf, size, "%s(s, %" PRIu32 ")", uniform_names[(f - FIXED_FIELDS) % 5],
			 uni[(f - FIXED_FIELDS) / 5]);
}

static inline int
is_minmax_field(unsigned f)
{
	return f == 5 || f == 6 || f == 8 || f == 9 || f == 11 || f == 12;
}

/* shuffle semantics shared by per-lane and uniform operands */
static inline uint64_t
ref_shuffle(unsigned op, uint64_t d, uint64_t i, uint64_t lane, uint64_t base, unsigned w,
	    const uint64_t *s)
{
	switch (op) {
	case 0: return lane + d < w ? s[i + d] : s[i];                    /* down */
	case 1: return lane >= d ? s[i - d] : s[i];                       /* up */
	case 2: return (lane ^ d) < w ? s[base + (lane ^ d)] : s[i];      /* xor */
	default: return s[base + d % w];                                  /* shuffle, broadcast */
	}
}

/* The reference for field f of slot i; lt = work-group size. */
static inline uint64_t
type_expected(const struct conf_type *t, unsigned f, size_t i, size_t lt, unsigned w,
	      const uint64_t *s, const uint64_t *a, const uint64_t *m, const uint32_t *args,
	      const uint32_t *uni)
{
	uint64_t lane = (i % lt) % w, base = i - lane;
	uint64_t acc;

	if (f >= FIXED_FIELDS)
		return ref_shuffle((f - FIXED_FIELDS) % 5, uni[(f - FIXED_FIELDS) / 5], i, lane, base,
				   w, s);
	switch (f) {
	case 0: return ref_shuffle(3, args[i * 4 + 0], i, lane, base, w, s);
	case 1: return ref_shuffle(0, args[i * 4 + 1], i, lane, base, w, s);
	case 2: return ref_shuffle(1, args[i * 4 + 2], i, lane, base, w, s);
	case 3: return ref_shuffle(2, args[i * 4 + 3], i, lane, base, w, s);
	case 4:
	case 13: /* lane order; the inputs make it exact unless the backend promises that order */
		acc = a[base];
		for (unsigned j = 1; j < w; j++)
			acc = op_add(t, acc, a[base + j]);
		return acc;
	case 5:
	case 6:
		acc = m[base];
		for (unsigned j = 1; j < w; j++)
			acc = f == 5 ? op_min(t, acc, m[base + j]) : op_max(t, acc, m[base + j]);
		return acc;
	case 7:
	case 10:
		if (f == 10 && lane == 0)
			return 0;
		acc = a[base];
		for (uint64_t j = 1; j < (f == 7 ? lane + 1 : lane); j++)
			acc = op_add(t, acc, a[base + j]);
		return acc;
	case 8:
	case 9:
	case 11:
	case 12: {
		int is_min = f == 8 || f == 11;
		uint64_t end = f <= 9 ? lane + 1 : lane;

		if (end == 0)
			return is_min ? min_identity(t) : max_identity(t);
		acc = m[base];
		for (uint64_t j = 1; j < end; j++)
			acc = is_min ? op_min(t, acc, m[base + j]) : op_max(t, acc, m[base + j]);
		return acc;
	}
	case 14: return s[base + (lane + 1) % w];
	}
	return 0;
}

#endif
