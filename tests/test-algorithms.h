/* What the files of test-algorithms share: the test levels, the size
 * classes, typed host values and random data, and the checks that more
 * than one file runs. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_ALGORITHMS_H
#define CLWARP_TEST_ALGORITHMS_H

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "algo-testutil.h"

/*
 * Float data are multiples of 1/8 in [-1, 1]: every partial sum of up to
 * 2^21 of them is exact in float, so sums in any order must match the
 * host exactly (a lost or doubled element cannot hide in a tolerance).
 * test_float_accuracy checks general data against the documented bound.
 * CLWARP_TEST_QUICK=1 keeps only small sizes (the sanitizers); =2 also fewer
 * types and operations in the row tests (Oclgrind).
 */

/* CLWARP_TEST_QUICK=2 (Oclgrind, about 100x slower): the quick sizes less
 * those that take no kernel path of their own (W - 1, W, 1000), fewer
 * types (one of each kind and size where a kernel differs by it) and
 * patterns, and the row tests on one 4-byte and one 8-byte type, one
 * operation each: every kernel path and segment width still runs. */
static bool tiny;

/* algo-testutil.h's `quick` is static, so each file of test-algorithms has
 * its own copy, and its own `tiny`: main() and every add_*_tests function
 * read both before anything uses them. */
static inline void
read_test_levels(void)
{
	test_read_quick();
	tiny = quick && test_quick_env() && strcmp(test_quick_env(), "2") == 0;
}

/* Quick runs (both levels) of the tests that repeat their checks per type
 * on top of the per-type tests (reduce, scan, compact, ...): one 4-byte
 * integer and one 8-byte float type, each a build of every kernel the test
 * takes. Full runs take every type. */
static inline bool
quick_skips_type(clwarp_type t)
{
	return quick && t != CLWARP_TYPE_INT && t != CLWARP_TYPE_DOUBLE;
}

/* In tiny runs, every third entry of a list of lengths, the first and last kept. */
#define TINY_SKIP(i, list) (tiny && (i) % 3 != 0 && (i) + 1 != sizeof(list) / sizeof((list)[0]))

/* In tiny runs, the selection patterns "none" and "all" (0, 1) and
 * "half" (2) only from one tile up, where tiles differ; "about 30 %" (3)
 * everywhere. */
#define TINY_SKIP_PATTERN(pattern, n, tile) (tiny && (pattern) != 3 && (n) <= (tile))

/* Elements per tile (default_tuning in src/algo_variants.c): scan 128 work-items x 8 vectors of 16
 * bytes, compaction and partition (select) 256 x 6. */
static inline size_t
tile_of(clwarp_engine *e, clwarp_type t, bool select)
{
	size_t wg = select ? 256 : 128;

	size_t size = clwarp_type_size(t), vectors = select ? 6 : 8;

	while (wg > clwarp_engine_device_info(e)->max_work_group_size)
		wg /= 2;
	/* 1- and 2-byte elements: proportionally fewer vectors (src/algo_kinds.c). */
	if (size < 4)
		vectors = vectors * size / 4 ? vectors * size / 4 : 1;
	return wg * vectors * (16 / size);
}

/* The size classes: 0, 1, around the warp, around a tile, several tiles, large. */
static inline size_t
sizes_for(clwarp_engine *e, clwarp_type t, bool select, size_t *out)
{
	size_t w = warp_of(e), tile = tile_of(e, t, select), k = 0;

	out[k++] = 0;
	out[k++] = 1;
	if (w > 2 && !tiny)
		out[k++] = w - 1;
	if (!tiny)
		out[k++] = w;
	out[k++] = w + 1;
	if (!tiny)
		out[k++] = 1000;
	out[k++] = tile + 1;
	out[k++] = 3 * tile + 5;
	if (!quick) {
		out[k++] = 37 * tile + 123;   /* dozens of work-groups looking back in parallel */
		/* Hundreds: for a 4-byte integer and an 8-byte float type (the
		 * others' tiles and look-back are the same code at a size one
		 * of these has). */
		if (t == CLWARP_TYPE_INT || t == CLWARP_TYPE_DOUBLE)
			out[k++] = (1u << 20) + 3;
	}
	return k;
}

/* ------------------------------------------------------------ typed host values */

static const char *const op_names[] = { "add", "min", "max" };

/* Integers as sign- or zero-extended 64-bit patterns (floats as their bits);
 * floats as long double in get_f(). */
static inline uint64_t
get_i(clwarp_type t, const void *b, size_t i)
{
	switch (t) {
	case CLWARP_TYPE_INT: return (uint64_t)(int64_t)((const int32_t *)b)[i];
	case CLWARP_TYPE_UINT:
	case CLWARP_TYPE_FLOAT: return ((const uint32_t *)b)[i];
	case CLWARP_TYPE_LONG: return (uint64_t)((const int64_t *)b)[i];
	default: return ((const uint64_t *)b)[i];
	}
}

static inline long double
get_f(clwarp_type t, const void *b, size_t i)
{
	return t == CLWARP_TYPE_FLOAT ? ((const float *)b)[i] : ((const double *)b)[i];
}

static inline void
set_i(clwarp_type t, void *b, size_t i, uint64_t v)
{
	switch (t) {
	case CLWARP_TYPE_INT: ((int32_t *)b)[i] = (int32_t)(uint32_t)v; break;
	case CLWARP_TYPE_UINT: ((uint32_t *)b)[i] = (uint32_t)v; break;
	default: ((uint64_t *)b)[i] = v; break;
	}
}

static inline void
set_f(clwarp_type t, void *b, size_t i, long double v)
{
	if (t == CLWARP_TYPE_FLOAT)
		((float *)b)[i] = (float)v;
	else
		((double *)b)[i] = (double)v;
}

static inline uint64_t
norm_i(clwarp_type t, uint64_t v)
{
	switch (t) {
	case CLWARP_TYPE_INT: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	case CLWARP_TYPE_UINT: return (uint32_t)v;
	default: return v;
	}
}

static inline uint64_t
combine_i(clwarp_type t, clwarp_op op, uint64_t a, uint64_t b)
{
	bool less = is_signed(t) ? (int64_t)a < (int64_t)b : a < b;

	switch (op) {
	case CLWARP_OP_ADD: return norm_i(t, a + b);
	case CLWARP_OP_MIN: return less ? a : b;
	default: return less ? b : a;
	}
}

static inline uint64_t
identity_i(clwarp_type t, clwarp_op op)
{
	if (op == CLWARP_OP_ADD)
		return 0;
	switch (t) {
	case CLWARP_TYPE_INT: return op == CLWARP_OP_MIN ? INT32_MAX : (uint64_t)(int64_t)INT32_MIN;
	case CLWARP_TYPE_UINT: return op == CLWARP_OP_MIN ? UINT32_MAX : 0;
	case CLWARP_TYPE_LONG: return op == CLWARP_OP_MIN ? INT64_MAX : (uint64_t)INT64_MIN;
	default: return op == CLWARP_OP_MIN ? UINT64_MAX : 0;
	}
}

static inline long double
combine_f(clwarp_op op, long double a, long double b)
{
	switch (op) {
	case CLWARP_OP_ADD: return a + b;
	case CLWARP_OP_MIN: return fminl(a, b);
	default: return fmaxl(a, b);
	}
}

static inline long double
identity_f(clwarp_op op)
{
	return op == CLWARP_OP_ADD ? 0.0L : op == CLWARP_OP_MIN ? INFINITY : -INFINITY;
}

/* One state for the whole executable (test-algorithms.c): with CK_FORK=no
 * (valgrind) the tests draw one sequence, test after test. */
extern uint64_t rng_state;

static inline uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Test data with negatives; integers in a range where add does not overflow
 * (except `wrap`: full-range values, so sums wrap around). */
static inline void *
make_data(clwarp_type t, size_t n, bool wrap)
{
	size_t size = clwarp_type_size(t);
	void *b = malloc(n * size + 8);

	for (size_t i = 0; i < n; i++) {
		if (is_float(t))
			set_f(t, b, i, (long double)((int)(rng() % 17) - 8) / 8.0L);
		else if (wrap)
			set_i(t, b, i, rng());
		else if (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_ULONG)
			set_i(t, b, i, rng() % 2001);
		else if (t == CLWARP_TYPE_INT)
			set_i(t, b, i, (uint64_t)(int64_t)((int)(rng() % 2001) - 1000));
		else
			set_i(t, b, i, (uint64_t)((int64_t)(rng() % 2000000001) - 1000000000));
	}
	return b;
}

/* Element i of got equals the reference value (exactly: see the top). */
static inline void
expect_equal(clwarp_type t, const void *got, size_t i, uint64_t ref_i, long double ref_f,
	     const char *what, size_t n)
{
	if (is_float(t)) {
		long double g = get_f(t, got, i);
		long double r = t == CLWARP_TYPE_FLOAT ? (long double)(float)ref_f : (long double)(double)ref_f;

		ck_assert_msg(g == r || (isnan(g) && isnan(r)), "%s (%s, n = %zu): element %zu is %Lg, expected %Lg",
			      what, type_names[t], n, i, g, r);
	} else {
		uint64_t g = get_i(t, got, i);

		ck_assert_msg(g == ref_i, "%s (%s, n = %zu): element %zu is %lld, expected %lld", what,
			      type_names[t], n, i, (long long)g, (long long)ref_i);
	}
}

static inline bool
type_supported(clwarp_engine *e, clwarp_type t)
{
	return t != CLWARP_TYPE_DOUBLE || clwarp_engine_device_info(e)->has_fp64;
}

/* ------------------------------------------------------------ checks more than one file runs */

/* test-algorithms-reduce-scan.c */
void check_reduce(clwarp_engine *e, clwarp_type t, clwarp_op op, size_t n, bool wrap);
void check_scan(clwarp_engine *e, clwarp_type t, clwarp_op op, int inclusive, size_t n, bool in_place);

/* The call check_select makes, and where the host reference puts the r-th
 * rejected element (in input order) of n with `total` selected:
 * clwarp_partition at total + r, with CLWARP_PARTITION_REVERSED at n - 1 - r
 * (CUB's DevicePartition::If), clwarp_compact nowhere. */
enum select_mode { SELECT_COMPACT, SELECT_PARTITION, SELECT_REVERSED };

/* test-algorithms-select.c */
void check_select(clwarp_engine *e, clwarp_type t, enum select_mode mode, size_t n, int pattern);

/* test-algorithms-rows.c */
void check_rows(clwarp_engine *e, clwarp_type t, clwarp_op op, int scan, int inclusive, size_t rows,
		size_t len);

/* ------------------------------------------------------------ the tests */

/* testutil.h's test_wanted() counts each test's place in main()'s list in
 * a static, one per file: every file asks main's (test-algorithms.c), so
 * that the places, and so the CLWARP_TEST_SHARD halves, run on across the
 * files as in one list. */
bool algorithms_test_wanted(const char *name);

#define ADD_ALGORITHMS_TEST(tc, t)              \
	do {                                    \
		if (algorithms_test_wanted(#t)) \
			tcase_add_test(tc, t);  \
	} while (0)

/* Each adds its file's tests to tc, in main()'s order (test-algorithms.c). */
void add_error_and_event_tests(TCase *tc);   /* test-algorithms-calls.c */
void add_reduce_scan_tests(TCase *tc);       /* test-algorithms-reduce-scan.c */
void add_select_tests(TCase *tc);            /* test-algorithms-select.c */
void add_row_tests(TCase *tc);               /* test-algorithms-rows.c */
void add_thread_tests(TCase *tc);            /* test-algorithms-calls.c */
void add_narrow_select_tests(TCase *tc);     /* test-algorithms-select.c */
void add_small_tests(TCase *tc);             /* test-algorithms-small.c */
void add_repeat_tests(TCase *tc);            /* test-algorithms-repeat.c */

#endif
