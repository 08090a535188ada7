/* The host reference of unique, run-length encode and reduce by key
 * (tests/test-runs.c, tests/test-lookback-stress.c): runs of keys equal
 * by C's ==, their values folded in order. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUNS_REFERENCE_H
#define CLWARP_RUNS_REFERENCE_H

#include "algo-testutil.h"

/*
 * A run starts where a key differs from the one before by C's == on its
 * value (so -0.0 == +0.0 and NaN != NaN). Float sums are compared by
 * bits: the tests use multiples of 1/8 whose every partial sum is exact,
 * so any order of adding gives the reference's bits; min and max compare
 * as numbers (fmin(-0.0, +0.0) may be either zero) or both NaN.
 */
static inline bool
same_key(clwarp_type t, uint64_t a, uint64_t b)
{
	return is_float(t) ? bits_to_double(t, a) == bits_to_double(t, b) : a == b;
}

/* a op b on bits of type t; for floats fmin/fmax, which skip a NaN. */
static inline uint64_t
combine(clwarp_type t, clwarp_op op, uint64_t a, uint64_t b)
{
	size_t size = clwarp_type_size(t);
	uint64_t mask = size_mask(size);

	if (is_float(t)) {
		double x = bits_to_double(t, a), y = bits_to_double(t, b);

		return double_to_bits(t, op == CLWARP_OP_ADD ? x + y : op == CLWARP_OP_MIN ? fmin(x, y) : fmax(x, y));
	}
	if (op == CLWARP_OP_ADD)
		return (a + b) & mask;
	bool less = is_signed(t) ? bits_to_signed(t, a) < bits_to_signed(t, b) : a < b;

	return (op == CLWARP_OP_MIN) == less ? a : b;
}

/* Aggregates as the tests compare them: bits for sums, else numbers. */
static inline bool
same_value(clwarp_type t, clwarp_op op, uint64_t got, uint64_t want)
{
	if (!is_float(t) || op == CLWARP_OP_ADD)
		return got == want;
	double g = bits_to_double(t, got), w = bits_to_double(t, want);

	return g == w || (isnan(g) && isnan(w));
}

/*
 * The runs of n keys (kt) with their values (vt, op); values NULL: every
 * value is 1 (uint), as run-length encode counts. ref_keys and ref_values
 * (n uint64_t each) get each run's first key and aggregate as bits.
 * @return the number of runs.
 */
static inline size_t
runs_reference(clwarp_type kt, const void *keys, clwarp_type vt, clwarp_op op, const void *values,
	       size_t n, uint64_t *ref_keys, uint64_t *ref_values)
{
	size_t ks = clwarp_type_size(kt), vs = clwarp_type_size(vt), runs = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t k = get_bits(keys, ks, i);
		uint64_t v = values ? get_bits(values, vs, i) : 1;

		if (i == 0 || !same_key(kt, get_bits(keys, ks, i - 1), k)) {
			ref_keys[runs] = k;
			ref_values[runs++] = v;
		} else {
			ref_values[runs - 1] = combine(vt, op, ref_values[runs - 1], v);
		}
	}
	return runs;
}

#endif
