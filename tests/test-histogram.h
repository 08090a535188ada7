/* What the files of test-histogram share: sample patterns, ranges, and the
 * check of one histogram against the host reference
 * (test-histogram-reference.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_HISTOGRAM_H
#define CLWARP_TEST_HISTOGRAM_H

#include "algo-testutil.h"

enum pattern {
	PATTERN_WIDE,      /* anywhere in the type (integers) or around the range (floats) */
	PATTERN_EDGES,     /* the bounds, their neighbours, bin edges, the type's extremes, NaN */
	PATTERN_CONSTANT,  /* one value in range: whole warps count one bin */
	PATTERN_SORTED,    /* ascending through the range */
};

/* The bounds as the call takes them: bits of one element of the type, or
 * for 1- and 2-byte samples a cl_int, held here as an int64_t's bits. */
struct range {
	uint64_t lower, upper;
};

/* One histogram, every bin compared with the reference. */
void check_histogram(clwarp_engine *e, clwarp_type t, size_t n, size_t bins, struct range r,
		     enum pattern p, uint64_t seed);

/* The range of bits of an integer type (int bounds for 1- and 2-byte
 * types) or of float values. */
struct range int_range(clwarp_type t, int64_t lower, int64_t upper);
struct range float_range(clwarp_type t, double lower, double upper);

/* The type's whole range but its largest value, [MIN, MAX); every value,
 * [MIN, MAX + 1), for 1- and 2-byte types (int bounds). */
struct range full_range(clwarp_type t);

/* Ranges per type that take every way of computing the bin, each with
 * bins 1, a few, 256 and 5000 (over the local-memory histogram's 4096). */
size_t ranges_for(clwarp_type t, struct range *out, size_t *bins);

/* 256 work-items x 4 vectors of 4-byte elements (as many elements for 1-
 * and 2-byte ones: src/algo_kinds.c, tile_vectors), x 2 of 8-byte ones. */
size_t tile_of(clwarp_type t);

/* Type i, but float where double is not supported. */
clwarp_type type_at(clwarp_engine *e, int i);

#endif
