/* Device-wide algorithms against host references: every operation, type and size class. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
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

/* In tiny runs, every third entry of a list of lengths, the first and last kept. */
#define TINY_SKIP(i, list) (tiny && (i) % 3 != 0 && (i) + 1 != sizeof(list) / sizeof((list)[0]))

/* In tiny runs, the selection patterns "none" and "all" (0, 1) and
 * "half" (2) only from one tile up, where tiles differ; "about 30 %" (3)
 * everywhere. */
#define TINY_SKIP_PATTERN(pattern, n, tile) (tiny && (pattern) != 3 && (n) <= (tile))

/* Elements per tile (default_tuning in src/algo_variants.c): scan 128 work-items x 8 vectors of 16
 * bytes, compaction and partition (select) 256 x 6. */
static size_t
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
static size_t
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
static uint64_t
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

static long double
get_f(clwarp_type t, const void *b, size_t i)
{
	return t == CLWARP_TYPE_FLOAT ? ((const float *)b)[i] : ((const double *)b)[i];
}

static void
set_i(clwarp_type t, void *b, size_t i, uint64_t v)
{
	switch (t) {
	case CLWARP_TYPE_INT: ((int32_t *)b)[i] = (int32_t)(uint32_t)v; break;
	case CLWARP_TYPE_UINT: ((uint32_t *)b)[i] = (uint32_t)v; break;
	default: ((uint64_t *)b)[i] = v; break;
	}
}

static void
set_f(clwarp_type t, void *b, size_t i, long double v)
{
	if (t == CLWARP_TYPE_FLOAT)
		((float *)b)[i] = (float)v;
	else
		((double *)b)[i] = (double)v;
}

static uint64_t
norm_i(clwarp_type t, uint64_t v)
{
	switch (t) {
	case CLWARP_TYPE_INT: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	case CLWARP_TYPE_UINT: return (uint32_t)v;
	default: return v;
	}
}

static uint64_t
combine_i(clwarp_type t, clwarp_op op, uint64_t a, uint64_t b)
{
	bool less = is_signed(t) ? (int64_t)a < (int64_t)b : a < b;

	switch (op) {
	case CLWARP_OP_ADD: return norm_i(t, a + b);
	case CLWARP_OP_MIN: return less ? a : b;
	default: return less ? b : a;
	}
}

static uint64_t
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

static long double
combine_f(clwarp_op op, long double a, long double b)
{
	switch (op) {
	case CLWARP_OP_ADD: return a + b;
	case CLWARP_OP_MIN: return fminl(a, b);
	default: return fmaxl(a, b);
	}
}

static long double
identity_f(clwarp_op op)
{
	return op == CLWARP_OP_ADD ? 0.0L : op == CLWARP_OP_MIN ? INFINITY : -INFINITY;
}

static uint64_t rng_state = 88172645463325252ull;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Test data with negatives; integers in a range where add does not overflow
 * (except `wrap`: full-range values, so sums wrap around). */
static void *
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
static void
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

/* ------------------------------------------------------------ reduce and scan */

static void
check_reduce(clwarp_engine *e, clwarp_type t, clwarp_op op, size_t n, bool wrap)
{
	size_t size = clwarp_type_size(t);
	void *data = make_data(t, n, wrap);
	cl_mem in = device_copy(e, data, n * size), res = device_copy(e, NULL, 0);
	uint64_t ri = identity_i(t, op);
	long double rf = identity_f(op);
	char what[64];
	void *got;

	for (size_t i = 0; i < n; i++) {
		if (is_float(t))
			rf = combine_f(op, rf, get_f(t, data, i));
		else
			ri = combine_i(t, op, ri, get_i(t, data, i));
	}
	ck_assert_clwarp_ok(clwarp_reduce(e, t, op, in, n, res, NULL));
	got = device_read(e, res, size);
	snprintf(what, sizeof(what), "reduce %s", op_names[op]);
	expect_equal(t, got, 0, ri, rf, what, n);
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(res);
}

static void
check_scan(clwarp_engine *e, clwarp_type t, clwarp_op op, int inclusive, size_t n, bool in_place)
{
	size_t size = clwarp_type_size(t);
	void *data = make_data(t, n, false);
	cl_mem in = device_copy(e, data, n * size);
	cl_mem out = in_place ? in : device_copy(e, NULL, n * size);
	uint64_t ri = identity_i(t, op);
	long double rf = identity_f(op);
	char what[64];
	void *got;

	ck_assert_clwarp_ok(clwarp_scan(e, t, op, inclusive, in, out, n, NULL));
	got = device_read(e, out, n * size);
	snprintf(what, sizeof(what), "%s scan %s%s", inclusive ? "inclusive" : "exclusive",
		 op_names[op], in_place ? " in place" : "");
	for (size_t i = 0; i < n; i++) {
		uint64_t xi = get_i(t, data, i);
		long double xf = is_float(t) ? get_f(t, data, i) : 0;

		if (inclusive) {
			ri = combine_i(t, op, ri, xi);
			rf = combine_f(op, rf, xf);
		}
		expect_equal(t, got, i, ri, rf, what, n);
		if (!inclusive) {
			ri = combine_i(t, op, ri, xi);
			rf = combine_f(op, rf, xf);
		}
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	if (!in_place)
		clReleaseMemObject(out);
}

static const clwarp_type all_types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_UINT, CLWARP_TYPE_LONG,
					 CLWARP_TYPE_ULONG, CLWARP_TYPE_FLOAT, CLWARP_TYPE_DOUBLE };

static bool
type_supported(clwarp_engine *e, clwarp_type t)
{
	return t != CLWARP_TYPE_DOUBLE || clwarp_engine_device_info(e)->has_fp64;
}

START_TEST(test_reduce)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 6; ti++) {
		clwarp_type t = all_types[ti];

		/* Tiny: int, ulong, float and double (each kind and size). */
		if (!type_supported(e, t) || (tiny && (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_LONG)))
			continue;
		count = sizes_for(e, t, false, sizes);
		for (size_t s = 0; s < count; s++) {
			check_reduce(e, t, CLWARP_OP_ADD, sizes[s], false);
			if (t == CLWARP_TYPE_INT || t == CLWARP_TYPE_FLOAT || t == CLWARP_TYPE_ULONG) {
				check_reduce(e, t, CLWARP_OP_MIN, sizes[s], false);
				check_reduce(e, t, CLWARP_OP_MAX, sizes[s], false);
			}
		}
		/* Integer sums wrap around like the type. */
		if (!is_float(t))
			check_reduce(e, t, CLWARP_OP_ADD, 3 * tile_of(e, t, false) + 7, true);
	}
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_scan)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 6; ti++) {
		clwarp_type t = all_types[ti];

		/* Tiny: int, long, float and double (each kind and size). */
		if (!type_supported(e, t) || (tiny && (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_ULONG)))
			continue;
		count = sizes_for(e, t, false, sizes);
		for (size_t s = 0; s < count; s++) {
			check_scan(e, t, CLWARP_OP_ADD, 1, sizes[s], false);
			if (t == CLWARP_TYPE_INT || t == CLWARP_TYPE_FLOAT)
				check_scan(e, t, CLWARP_OP_ADD, 0, sizes[s], false);
			if (t == CLWARP_TYPE_INT)
				check_scan(e, t, CLWARP_OP_MIN, 1, sizes[s], false);
			if (t == CLWARP_TYPE_FLOAT)
				check_scan(e, t, CLWARP_OP_MAX, 0, sizes[s], false);
			if (t == CLWARP_TYPE_LONG)
				check_scan(e, t, CLWARP_OP_MAX, 1, sizes[s], false);
		}
		check_scan(e, t, CLWARP_OP_ADD, 1, 2 * tile_of(e, t, false) + 9, true);
	}
	clwarp_engine_free(e);
}
END_TEST

/* Repeated calls reuse the look-back state: epochs, counters, growing buffers. */
START_TEST(test_repeated_calls)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t tile = tile_of(e, CLWARP_TYPE_INT, false);

	for (int round = 0; round < 3; round++) {
		check_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 5 * tile + 1, false);
		check_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, tile / 2, false);
		check_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 9 * tile + 3, false);
		check_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 17, false);
	}
	clwarp_engine_free(e);
}
END_TEST

/* General float data: |got - exact| <= (64 + n / 256) * eps * sum |x| (docs/algorithms.md). */
START_TEST(test_float_accuracy)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t n = quick ? 5000 : 300007;
	float *x = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float)), sum = 0;
	double exact = 0, abs_sum = 0, bound_k = 64.0 + (double)n / 256.0;
	cl_mem in, out, res;

	for (size_t i = 0; i < n; i++)
		x[i] = (float)((double)(rng() % 2000001) / 1000000.0 - 1.0) * (i % 7 == 0 ? 100.0f : 1.0f);
	in = device_copy(e, x, n * sizeof(float));
	out = device_copy(e, NULL, n * sizeof(float));
	res = device_copy(e, NULL, 0);
	ck_assert_clwarp_ok(clwarp_reduce(e, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, in, n, res, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, res, 0, sizeof(float), &sum));
	ck_assert_clwarp_ok(clwarp_scan(e, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 1, in, out, n, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, n * sizeof(float), got));
	for (size_t i = 0; i < n; i++) {
		exact += x[i];
		abs_sum += fabs(x[i]);
		ck_assert_msg(fabs(got[i] - exact) <= bound_k * FLT_EPSILON * abs_sum,
			      "scan element %zu: %.9g, exact %.9g", i, got[i], exact);
	}
	ck_assert_msg(fabs(sum - exact) <= bound_k * FLT_EPSILON * abs_sum, "sum %.9g, exact %.9g",
		      sum, exact);
	free(x);
	free(got);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(res);
	clwarp_engine_free(e);
}
END_TEST

/* ------------------------------------------------------------ compaction */

/* Data for "x > 0": 0 none selected, 1 all, 2 alternating, 3 about 30 %. */
static void *
select_data(clwarp_type t, size_t n, int pattern)
{
	void *b = make_data(t, n, false);

	for (size_t i = 0; i < n; i++) {
		int sel = pattern == 0 ? 0 : pattern == 1 ? 1 : pattern == 2 ? (int)(i % 2) : rng() % 10 < 3;
		int mag = 1 + (int)(i % 1000);

		if (is_float(t))
			set_f(t, b, i, sel ? mag / 8.0L : -(mag / 8.0L));
		else if (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_ULONG)
			set_i(t, b, i, sel ? (uint64_t)mag : 0);
		else
			set_i(t, b, i, sel ? (uint64_t)mag : (uint64_t)(int64_t)-mag);
	}
	return b;
}

static bool
positive(clwarp_type t, const void *b, size_t i)
{
	if (is_float(t))
		return get_f(t, b, i) > 0;
	return is_signed(t) ? (int64_t)get_i(t, b, i) > 0 : get_i(t, b, i) > 0;
}

/* The call check_select makes, and where the host reference puts the r-th
 * rejected element (in input order) of n with `total` selected:
 * clwarp_partition at total + r, clwarp_partition_reversed at n - 1 - r
 * (CUB's DevicePartition::If), clwarp_compact nowhere. */
enum select_mode { SELECT_COMPACT, SELECT_PARTITION, SELECT_REVERSED };

static const char *const select_names[] = { "compact", "partition", "partition_reversed" };

static size_t
rejected_at(enum select_mode mode, size_t n, size_t total, size_t r)
{
	return mode == SELECT_REVERSED ? n - 1 - r : total + r;
}

/* With `event`, the call returns at once and the check waits on its event. */
static void
check_select_ev(clwarp_engine *e, clwarp_type t, enum select_mode mode, size_t n, int pattern,
		bool event)
{
	size_t size = clwarp_type_size(t), k = 0, r = 0, total = 0;
	void *data = select_data(t, n, pattern);
	cl_mem in = device_copy(e, data, n * size), out = device_copy(e, NULL, n * size);
	cl_mem count = device_copy(e, NULL, 0);
	cl_uint got_count = 12345;
	cl_event ev = NULL;
	unsigned char *got;
	const char *pred = is_float(t) ? "x > 0.0f" : "x > 0";
	char what[96];

	if (t == CLWARP_TYPE_DOUBLE)
		pred = "x > 0.0";
	if (mode == SELECT_REVERSED)
		ck_assert_clwarp_ok(clwarp_partition_reversed(e, t, pred, in, n, out, count,
							      event ? &ev : NULL));
	else if (mode == SELECT_PARTITION)
		ck_assert_clwarp_ok(clwarp_partition(e, t, pred, in, n, out, count, event ? &ev : NULL));
	else
		ck_assert_clwarp_ok(clwarp_compact(e, t, pred, in, n, out, count, event ? &ev : NULL));
	if (event) {
		ck_assert_ptr_nonnull(ev);
		ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
		clReleaseEvent(ev);
	}
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(cl_uint), &got_count));
	got = device_read(e, out, n * size);
	for (size_t i = 0; i < n; i++)
		total += positive(t, data, i);
	ck_assert_msg(got_count == total, "%s %s n = %zu pattern %d: count %u, expected %zu",
		      select_names[mode], type_names[t], n, pattern, got_count, total);
	snprintf(what, sizeof(what), "%s pattern %d", select_names[mode], pattern);
	for (size_t i = 0; i < n; i++) {
		bool sel = positive(t, data, i);

		if (!sel && mode == SELECT_COMPACT)
			continue;
		expect_equal(t, got, sel ? k : rejected_at(mode, n, total, r), get_i(t, data, i),
			     is_float(t) ? get_f(t, data, i) : 0, what, n);
		if (sel)
			k++;
		else
			r++;
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
}

static void
check_select(clwarp_engine *e, clwarp_type t, enum select_mode mode, size_t n, int pattern)
{
	check_select_ev(e, t, mode, n, pattern, false);
}

START_TEST(test_compact)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_LONG };
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 3; ti++) {
		size_t tile = tile_of(e, types[ti], true);

		if (tiny && types[ti] == CLWARP_TYPE_FLOAT)
			continue;
		count = sizes_for(e, types[ti], true, sizes);
		for (size_t s = 0; s < count; s++) {
			for (int pattern = 0; pattern < 4; pattern++) {
				if ((types[ti] != CLWARP_TYPE_INT && pattern < 2 && sizes[s] > 10000) ||
				    TINY_SKIP_PATTERN(pattern, sizes[s], tile))
					continue;
				check_select(e, types[ti], SELECT_COMPACT, sizes[s], pattern);
			}
		}
	}
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_partition)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_DOUBLE };
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 2; ti++) {
		if (!type_supported(e, types[ti]))
			continue;
		count = sizes_for(e, types[ti], true, sizes);
		for (size_t s = 0; s < count; s++)
			for (int pattern = 0; pattern < 4; pattern++)
				if (!TINY_SKIP_PATTERN(pattern, sizes[s], tile_of(e, types[ti], true)))
					check_select(e, types[ti], SELECT_PARTITION, sizes[s], pattern);
	}
	clwarp_engine_free(e);
}
END_TEST

/*
 * clwarp_partition_reversed against CUB's order, for every type: the sizes
 * of the other tests and one tile, one tile less one; none, all, half and
 * about 30 % selected (none and all on the large sizes for int only, as
 * in test_compact). clwarp_partition runs on the same variant in between,
 * so the two calls share a build in either order; one call returns an
 * event.
 */
START_TEST(test_partition_reversed)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t sizes[18], count;

	for (clwarp_type t = CLWARP_TYPE_INT; t <= CLWARP_TYPE_DOUBLE; t++) {
		size_t tile = tile_of(e, t, true);

		/* Tiny: int and double (4 and 8 bytes). */
		if (!type_supported(e, t) || (tiny && t != CLWARP_TYPE_INT && t != CLWARP_TYPE_DOUBLE))
			continue;
		count = sizes_for(e, t, true, sizes);
		sizes[count++] = tile - 1;
		sizes[count++] = tile;
		for (size_t s = 0; s < count; s++) {
			for (int pattern = 0; pattern < 4; pattern++) {
				if ((t != CLWARP_TYPE_INT && pattern < 2 && sizes[s] > 10000) ||
				    TINY_SKIP_PATTERN(pattern, sizes[s], tile))
					continue;
				check_select(e, t, SELECT_REVERSED, sizes[s], pattern);
				if (pattern == 3 && s % 3 == 1)
					check_select(e, t, SELECT_PARTITION, sizes[s], pattern);
			}
		}
		check_select_ev(e, t, SELECT_REVERSED, 3 * tile + 5, 3, true);
	}
	clwarp_engine_free(e);
}
END_TEST

/*
 * Compaction and partition of 1- and 2-byte elements (16 and 8 to a
 * vector): random elements of the whole type with a predicate that takes
 * about half (signed: negatives compare as negatives), none or all of
 * them; every output element compared, and for compaction the elements
 * past the count left alone.
 */
static void
check_select_narrow(clwarp_engine *e, clwarp_type t, bool partition, size_t n, int pattern)
{
	size_t size = clwarp_type_size(t), k = 0, r = 0, total = 0;
	uint8_t *data = malloc(n * size + 8), *got;
	const char *pred = is_signed(t) ? "x < -3" : "x >= 100";
	int64_t limit = is_signed(t) ? -3 : 100;
	cl_mem in, out = device_copy(e, NULL, n * size), count = device_copy(e, NULL, 0);
	cl_uint got_count = 12345;
	uint64_t state = 77 + (uint64_t)pattern;

	ck_assert_ptr_nonnull(data);
	for (size_t i = 0; i < n; i++)
		set_bits(data, size, i, pattern == 0 ? next_random(&state) : pattern == 1 ? 5 : (uint64_t)-100);
	in = device_copy(e, data, n * size);
	if (partition)
		ck_assert_clwarp_ok(clwarp_partition(e, t, pred, in, n, out, count, NULL));
	else
		ck_assert_clwarp_ok(clwarp_compact(e, t, pred, in, n, out, count, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(cl_uint), &got_count));
	got = device_read(e, out, n * size);
#define SELECTED(i) (is_signed(t) ? bits_to_signed(t, get_bits(data, size, i)) < limit \
				   : (int64_t)get_bits(data, size, i) >= limit)
	for (size_t i = 0; i < n; i++)
		total += SELECTED(i);
	ck_assert_msg(got_count == total, "%s %s n = %zu pattern %d: count %u, expected %zu",
		      partition ? "partition" : "compact", type_names[t], n, pattern, got_count, total);
	for (size_t i = 0; i < n; i++) {
		bool sel = SELECTED(i);
		size_t at = sel ? k++ : total + r++;

		if (!sel && !partition)
			continue;
		if (get_bits(got, size, at) != get_bits(data, size, i))
			ck_abort_msg("%s %s n = %zu pattern %d: element %zu is 0x%llx, expected 0x%llx (input %zu)",
				     partition ? "partition" : "compact", type_names[t], n, pattern, at,
				     (unsigned long long)get_bits(got, size, at),
				     (unsigned long long)get_bits(data, size, i), i);
	}
#undef SELECTED
	for (size_t i = total; i < n && !partition; i++) {
		if (get_bits(got, size, i) != FILL_BITS(size))
			ck_abort_msg("compact %s n = %zu: element %zu past the count was written", type_names[t],
				     n, i);
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
}

START_TEST(test_select_narrow)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_CHAR, CLWARP_TYPE_UCHAR, CLWARP_TYPE_SHORT,
					     CLWARP_TYPE_USHORT };
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 4; ti++) {
		/* Tiny: char and ushort (each size, signed and not). */
		if (tiny && ti % 3 != 0)
			continue;
		count = sizes_for(e, types[ti], true, sizes);
		for (size_t s = 0; s < count; s++) {
			for (int pattern = 0; pattern < 3; pattern++) {
				if (pattern > 0 && s % 3 != 1)
					continue;
				check_select_narrow(e, types[ti], (s + ti) % 2 == 0, sizes[s], pattern);
				if (!quick && pattern == 0)
					check_select_narrow(e, types[ti], (s + ti) % 2 != 0, sizes[s], 0);
			}
		}
	}
	clwarp_engine_free(e);
}
END_TEST

/* Other predicates: one that is not simply "x > 0", and built-in calls. */
START_TEST(test_predicates)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t n = quick ? 3000 : 100003, k = 0;
	int *x = malloc(n * sizeof(int)), *got = malloc(n * sizeof(int));
	float f[5] = { -0.75f, 0.25f, 0.5f, -0.25f, 2.0f }, fgot[5];
	cl_uint c = 0;
	cl_mem in, out, count = device_copy(e, NULL, 0);

	for (size_t i = 0; i < n; i++)
		x[i] = (int)(rng() % 1000) - 300;
	in = device_copy(e, x, n * sizeof(int));
	out = device_copy(e, NULL, n * sizeof(int));
	ck_assert_clwarp_ok(clwarp_compact(e, CLWARP_TYPE_INT, "(x % 10 == 3) || abs(x) < 5", in, n,
					   out, count, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(c), &c));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, c * sizeof(int), got));
	for (size_t i = 0; i < n; i++) {
		if (x[i] % 10 == 3 || abs(x[i]) < 5) {
			ck_assert_uint_lt(k, c);
			ck_assert_int_eq(got[k], x[i]);
			k++;
		}
	}
	ck_assert_uint_eq(k, c);
	clReleaseMemObject(in);
	clReleaseMemObject(out);

	in = device_copy(e, f, sizeof(f));
	out = device_copy(e, NULL, sizeof(f));
	ck_assert_clwarp_ok(clwarp_partition(e, CLWARP_TYPE_FLOAT, "fabs(x) < 0.5f", in, 5, out, count,
					     NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, sizeof(c), &c));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, sizeof(fgot), fgot));
	ck_assert_uint_eq(c, 2);
	ck_assert(fgot[0] == 0.25f && fgot[1] == -0.25f && fgot[2] == -0.75f && fgot[3] == 0.5f &&
		  fgot[4] == 2.0f);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
	free(x);
	free(got);
	clwarp_engine_free(e);
}
END_TEST

/* ------------------------------------------------------------ rows */

/*
 * Every kernel of rows.cl: rows of at most W whole 16-byte vectors (the
 * segment kernels; at width 32: 4 .. 128 for 4-byte types, 2 .. 64 for
 * 8-byte ones; 100 = 25 vectors fills 25 lanes of a 32-lane segment),
 * other rows up to 256 (one warp per row), longer ones (one work-group
 * per row).
 */
static const size_t row_lengths[] = { 1,  2,  4,  6,   8,   12,  16,   20,  31,
				      32, 33, 64, 100, 128, 256, 257, 1024, 1025 };

static void
check_rows_in(clwarp_engine *e, clwarp_type t, clwarp_op op, int scan, int inclusive, size_t rows,
	      size_t len, bool in_place)
{
	size_t size = clwarp_type_size(t), outn = scan ? rows * len : rows;
	void *data = make_data(t, rows * len, false);
	cl_mem in = device_copy(e, data, rows * len * size);
	cl_mem out = in_place ? in : device_copy(e, NULL, outn * size);
	char what[112];
	void *got;

	if (scan)
		ck_assert_clwarp_ok(clwarp_segmented_scan(e, t, op, inclusive, in, rows, len, out, NULL));
	else
		ck_assert_clwarp_ok(clwarp_segmented_reduce(e, t, op, in, rows, len, out, NULL));
	got = device_read(e, out, outn * size);
	snprintf(what, sizeof(what), "segmented %s %s%s, %zu rows of %zu",
		 scan ? (inclusive ? "inclusive scan" : "exclusive scan") : "reduce", op_names[op],
		 in_place ? " in place" : "", rows, len);
	for (size_t r = 0; r < rows; r++) {
		uint64_t ri = identity_i(t, op);
		long double rf = identity_f(op);

		for (size_t j = 0; j < len; j++) {
			size_t i = r * len + j;

			if (scan && !inclusive)
				expect_equal(t, got, i, ri, rf, what, len);
			ri = combine_i(t, op, ri, get_i(t, data, i));
			rf = combine_f(op, rf, is_float(t) ? get_f(t, data, i) : 0);
			if (scan && inclusive)
				expect_equal(t, got, i, ri, rf, what, len);
		}
		if (!scan)
			expect_equal(t, got, r, ri, rf, what, len);
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	if (!in_place)
		clReleaseMemObject(out);
}

static void
check_rows(clwarp_engine *e, clwarp_type t, clwarp_op op, int scan, int inclusive, size_t rows,
	   size_t len)
{
	check_rows_in(e, t, op, scan, inclusive, rows, len, false);
}

START_TEST(test_segmented)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t rows = quick ? 3 : 37;

	for (size_t l = 0; l < sizeof(row_lengths) / sizeof(row_lengths[0]); l++) {
		size_t len = row_lengths[l];

		check_rows(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 0, 0, rows, len);
		if (!tiny)
			check_rows(e, CLWARP_TYPE_FLOAT, CLWARP_OP_MAX, 0, 0, rows, len);
		check_rows(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 1, rows, len);
		if (!tiny)
			check_rows(e, CLWARP_TYPE_FLOAT, CLWARP_OP_MIN, 1, 0, rows, len);
		if (type_supported(e, CLWARP_TYPE_DOUBLE))
			check_rows(e, CLWARP_TYPE_DOUBLE, CLWARP_OP_ADD, 1, 1, 2, len);
	}
	check_rows(e, CLWARP_TYPE_ULONG, CLWARP_OP_ADD, 0, 0, 1, 5000);
	clwarp_engine_free(e);
}
END_TEST

/*
 * Short rows of whole 16-byte vectors, the segment kernels (rows.cl,
 * *_seg): a row is a segment of seg = 1 .. W lanes, one vector each, and a
 * work-group takes 4 steps of 256 / seg rows. Every type and operation;
 * row counts that end in a partial step (37: also a partial work-group
 * after a full one where seg = 32; the others, not in quick runs, several
 * work-groups with a partial last one for every seg).
 */
static const size_t short_lengths[] = { 2, 4, 6, 8, 12, 16, 20, 32, 64, 128 };

START_TEST(test_segmented_short)
{
	static const clwarp_type types_[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_LONG,
					      CLWARP_TYPE_DOUBLE };
	static const size_t row_counts[] = { 37, 1, 5, 261, 1029, 4099 };
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t counts = quick ? 1 : sizeof(row_counts) / sizeof(row_counts[0]);

	for (size_t ti = 0; ti < sizeof(types_) / sizeof(types_[0]); ti++) {
		clwarp_type t = types_[ti];

		if (!type_supported(e, t) || (tiny && t != CLWARP_TYPE_INT && t != CLWARP_TYPE_LONG))
			continue;
		for (size_t l = 0; l < sizeof(short_lengths) / sizeof(short_lengths[0]); l++) {
			size_t len = short_lengths[l];

			for (size_t r = 0; r < counts; r++) {
				size_t rows = row_counts[r];

				for (int op = CLWARP_OP_ADD; op <= (tiny ? CLWARP_OP_ADD : CLWARP_OP_MAX); op++)
					check_rows(e, t, (clwarp_op)op, 0, 0, rows, len);
				/* Two scan variants a type (each is a build). */
				check_rows(e, t, CLWARP_OP_ADD, 1, 1, rows, len);
				check_rows(e, t, ti % 2 ? CLWARP_OP_MAX : CLWARP_OP_MIN, 1, 0, rows, len);
			}
		}
	}
	/* out = in: every lane reads its vector before it writes it. */
	check_rows_in(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 1, 37, 32, true);
	check_rows_in(e, CLWARP_TYPE_FLOAT, CLWARP_OP_MAX, 1, 0, 261, 12, true);
	clwarp_engine_free(e);
}
END_TEST

static void
check_softmax(clwarp_engine *e, size_t rows, size_t len, bool in_place)
{
	size_t n = rows * len;
	float *x = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
	cl_mem in, out;

	for (size_t i = 0; i < n; i++)
		x[i] = (float)((double)(rng() % 20001) / 1000.0 - 10.0);
	in = device_copy(e, x, n * sizeof(float));
	out = in_place ? in : device_copy(e, NULL, n * sizeof(float));
	ck_assert_clwarp_ok(clwarp_softmax_rows(e, in, rows, len, out, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, out, 0, n * sizeof(float), got));
	for (size_t r = 0; r < rows; r++) {
		double m = -INFINITY, s = 0;

		for (size_t j = 0; j < len; j++)
			m = fmax(m, x[r * len + j]);
		for (size_t j = 0; j < len; j++)
			s += exp((double)x[r * len + j] - m);
		for (size_t j = 0; j < len; j++) {
			double want = exp((double)x[r * len + j] - m) / s;
			double g = got[r * len + j];

			ck_assert_msg(fabs(g - want) <= 1e-5 * want + 1e-30,
				      "softmax %zu x %zu: [%zu][%zu] = %.9g, expected %.9g", rows, len, r,
				      j, g, want);
		}
	}
	free(x);
	free(got);
	clReleaseMemObject(in);
	if (!in_place)
		clReleaseMemObject(out);
}

START_TEST(test_softmax)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);

	for (size_t l = 0; l < sizeof(row_lengths) / sizeof(row_lengths[0]); l++)
		check_softmax(e, quick ? 3 : 19, row_lengths[l], false);
	/* The segment kernel with partial steps and work-groups (see test_segmented_short). */
	for (size_t l = 0; l < sizeof(short_lengths) / sizeof(short_lengths[0]); l++) {
		check_softmax(e, 37, short_lengths[l], false);
		if (!quick)
			check_softmax(e, 1029, short_lengths[l], false);
	}
	check_softmax(e, 5, 300, true);
	check_softmax(e, 9, 64, true);
	check_softmax(e, 37, 20, true);
	clwarp_engine_free(e);
}
END_TEST

/* ------------------------------------------------------------ forced local widths */

/* The local backend at width 8 and 64: warp calls are work-group barriers there. */
START_TEST(test_local_widths)
{
	static const unsigned widths[] = { 8, 64 };
	unsigned width = widths[_i];
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_LOCAL, width);
	size_t tile = tile_of(e, CLWARP_TYPE_INT, false), stile = tile_of(e, CLWARP_TYPE_INT, true);
	size_t sizes[] = { 0, 1, width - 1, width + 1, tile + 1, stile + 1, 3 * stile + 5, 11 * tile + 3 };

	ck_assert_uint_eq(warp_of(e), width);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]) - (quick ? 1 : 0); s++) {
		if (tiny && (s == 2 || s == 5))   /* W - 1 and one select tile + 1 */
			continue;
		check_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, sizes[s], false);
		check_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 0, sizes[s], false);
		check_select(e, CLWARP_TYPE_INT, SELECT_PARTITION, sizes[s], 3);
		check_select(e, CLWARP_TYPE_INT, SELECT_REVERSED, sizes[s], 3);
	}
	for (size_t l = 0; l < sizeof(row_lengths) / sizeof(row_lengths[0]); l++) {
		if (TINY_SKIP(l, row_lengths))
			continue;
		check_rows(e, CLWARP_TYPE_INT, CLWARP_OP_MAX, 0, 0, 11, row_lengths[l]);
		check_rows(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 1, 11, row_lengths[l]);
		check_softmax(e, 3, row_lengths[l], false);
	}
	/* Segments up to W lanes: 8-byte types, and several work-groups. */
	for (size_t l = 0; l < sizeof(short_lengths) / sizeof(short_lengths[0]); l++) {
		if (TINY_SKIP(l, short_lengths))
			continue;
		check_rows(e, CLWARP_TYPE_LONG, CLWARP_OP_MIN, 0, 0, quick ? 37 : 261, short_lengths[l]);
		check_rows(e, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 1, 0, quick ? 37 : 261, short_lengths[l]);
		if (type_supported(e, CLWARP_TYPE_DOUBLE))
			check_rows(e, CLWARP_TYPE_DOUBLE, CLWARP_OP_MAX, 1, 1, 37, short_lengths[l]);
	}
	clwarp_engine_free(e);
}
END_TEST

/* ------------------------------------------------------------ events, threads, errors */

START_TEST(test_event)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	int x[100], sum = 0;
	cl_mem in, res = device_copy(e, NULL, 0);
	cl_event ev = NULL;

	for (int i = 0; i < 100; i++)
		x[i] = i - 20;
	in = device_copy(e, x, sizeof(x));
	ck_assert_clwarp_ok(clwarp_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, 100, res, &ev));
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
	clReleaseEvent(ev);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, res, 0, sizeof(sum), &sum));
	ck_assert_int_eq(sum, 4950 - 2000);
	/* Nothing to do still gives an event. */
	ev = NULL;
	ck_assert_clwarp_ok(clwarp_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, in, in, 0, &ev));
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
	clReleaseEvent(ev);
	clReleaseMemObject(in);
	clReleaseMemObject(res);
	clwarp_engine_free(e);
}
END_TEST

struct job {
	clwarp_engine *engine;
	int id;
	int ok;
};

static void *
job_main(void *arg)
{
	struct job *j = arg;
	size_t n = 9000 + (size_t)j->id * 1000;
	int *x = malloc(n * sizeof(int)), *y = malloc(n * sizeof(int));
	int sum = 0, want = 0;
	cl_mem in = NULL, out = NULL, res = NULL;

	for (size_t i = 0; i < n; i++)
		x[i] = (int)(i % 13) - 6 + j->id;
	j->ok = clwarp_buffer_new(j->engine, CL_MEM_READ_WRITE, n * sizeof(int), x, &in) == CLWARP_OK &&
		clwarp_buffer_new(j->engine, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &out) == CLWARP_OK &&
		clwarp_buffer_new(j->engine, CL_MEM_READ_WRITE, sizeof(int), NULL, &res) == CLWARP_OK;
	for (int round = 0; j->ok && round < 5; round++) {
		j->ok = clwarp_reduce(j->engine, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, n, res, NULL) == CLWARP_OK &&
			clwarp_buffer_read(j->engine, res, 0, sizeof(int), &sum) == CLWARP_OK &&
			clwarp_scan(j->engine, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, in, out, n, NULL) == CLWARP_OK &&
			clwarp_buffer_read(j->engine, out, 0, n * sizeof(int), y) == CLWARP_OK;
		want = 0;
		for (size_t i = 0; j->ok && i < n; i++) {
			want += x[i];
			j->ok = y[i] == want;
		}
		j->ok = j->ok && sum == want;
	}
	if (in)
		clReleaseMemObject(in);
	if (out)
		clReleaseMemObject(out);
	if (res)
		clReleaseMemObject(res);
	free(x);
	free(y);
	return NULL;
}

START_TEST(test_threads)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	const clwarp_device_info *info = clwarp_engine_device_info(e);
	pthread_t threads[4];
	struct job jobs[4];

	/* Oclgrind 21.10 runs one kernel at a time and is not thread-safe: calls
	 * from several host threads abort it (Context::notifyKernelBegin asserts
	 * m_kernelInvocation == NULL) or, with --uninitialized, crash it in
	 * MemoryPool::alloc under clCreateBuffer. Nothing of ours to check there. */
	if (strstr(info->platform_name, "Oclgrind") || strstr(info->name, "Oclgrind")) {
		clwarp_engine_free(e);
		return;
	}
	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct job){ e, i, 0 };
		ck_assert_int_eq(pthread_create(&threads[i], NULL, job_main, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(threads[i], NULL);
		ck_assert_msg(jobs[i].ok, "thread %d got a wrong result", i);
	}
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_errors)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	int x[64] = { 0 };
	cl_mem in = device_copy(e, x, sizeof(x)), out = device_copy(e, x, sizeof(x));
	cl_mem small = NULL;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 4, NULL, &small));
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_DOUBLE), 8);
	ck_assert_uint_eq(clwarp_type_size((clwarp_type)42), 0);
	ck_assert_error(clwarp_reduce(NULL, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, 64, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	ck_assert_error(clwarp_reduce(e, (clwarp_type)42, CLWARP_OP_ADD, in, 64, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, (clwarp_op)7, in, 64, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown operation");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, NULL, 64, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`in` is NULL");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, 64, NULL, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`result` is NULL");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, in, 65, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 260");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_LONG, CLWARP_OP_ADD, in, 4, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `result` holds");
	ck_assert_error(clwarp_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, in, small, 64, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `out` holds 4 bytes");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "x > 0", in, 64, out, NULL, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`count` is NULL");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "x > 0", in, 64, in, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "different buffers");
	ck_assert_error(clwarp_segmented_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, in, 4, 17, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 272");
	ck_assert_error(clwarp_softmax_rows(e, in, 2, 32, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `out`");

	/* 1- and 2-byte types: refused by the calls that combine elements,
	 * before any buffer is looked at; sized right elsewhere. */
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_CHAR), 1);
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_UCHAR), 1);
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_SHORT), 2);
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_USHORT), 2);
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_UCHAR, CLWARP_OP_ADD, in, 64, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_reduce: uchar elements are not supported");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_CHAR, CLWARP_OP_MAX, NULL, 0, NULL, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_reduce: char elements are not supported");
	ck_assert_error(clwarp_scan(e, CLWARP_TYPE_SHORT, CLWARP_OP_ADD, 1, in, out, 64, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_scan: short elements are not supported");
	ck_assert_error(clwarp_scan(e, CLWARP_TYPE_USHORT, CLWARP_OP_MIN, 0, in, in, 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_scan: ushort elements are not supported");
	ck_assert_error(clwarp_segmented_reduce(e, CLWARP_TYPE_CHAR, CLWARP_OP_MIN, in, 4, 16, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_segmented_reduce: char elements are not supported");
	ck_assert_error(clwarp_segmented_scan(e, CLWARP_TYPE_UCHAR, CLWARP_OP_ADD, 1, in, 4, 16, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_segmented_scan: uchar elements are not supported");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_SHORT, "x > 0", in, 129, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 258");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_CHAR, "x > no_such_name", in, 64, out, small,
					 NULL),
			CLWARP_ERROR_BUILD, "predicate \"x > no_such_name\" does not compile for char");

	/* Predicates: one expression, checked before any build. */
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "x > 0; }", in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "';' is not allowed");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "(x > 0", in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unclosed '('");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "x > 0)", in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unmatched ')'");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "x > 0\n", in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "is not allowed");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, " ", in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "empty predicate");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, NULL, in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL predicate");
	/* clwarp_partition_reversed checks what clwarp_partition checks, in its own name. */
	ck_assert_error(clwarp_partition_reversed(NULL, CLWARP_TYPE_INT, "x > 0", in, 64, out, small,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	ck_assert_error(clwarp_partition_reversed(e, (clwarp_type)42, "x > 0", in, 64, out, small,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, NULL, in, 64, out, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_partition_reversed: NULL predicate");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0; }", in, 64, out, small,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "';' is not allowed");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", NULL, 64, out, small,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_partition_reversed: buffer `in` is NULL");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", in, 65, out, small,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 260");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_LONG, "x > 0", in, 64, out, small,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 512");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", in, 64, small, out,
						  NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `out` holds 4 bytes");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", in, 64, out, NULL, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`count` is NULL");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", in, 64, in, small, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_partition_reversed: `in` and `out` must be different buffers");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", in, 64, out, out, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "different buffers");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > 0", in, (size_t)1 << 32,
						  out, small, NULL),
			CLWARP_ERROR_TOO_LARGE, "n must be below 2^32");
	ck_assert_error(clwarp_partition_reversed(e, CLWARP_TYPE_INT, "x > nothing_here", in, 64, out,
						  small, NULL),
			CLWARP_ERROR_BUILD,
			"clwarp_partition_reversed: predicate \"x > nothing_here\" does not compile");
	/* Well-formed but not OpenCL C: a build error that names the predicate. */
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, "x > no_such_name", in, 64, out, small, NULL),
			CLWARP_ERROR_BUILD, "predicate \"x > no_such_name\" does not compile");

	if (!clwarp_engine_device_info(e)->has_fp64)
		ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_DOUBLE, CLWARP_OP_ADD, in, 4, out, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "double needs cl_khr_fp64");
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(small);
	clwarp_engine_free(e);
}
END_TEST

/*
 * CLWARP_ALGO_TUNING: each bad value is named; another shape gives the same
 * results (narrow work-groups, an odd vector count, and the split
 * look-back for 4-byte values too). Check forks each test, so the variable
 * stays in this test's process.
 */
START_TEST(test_tuning)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "scan_wg=100", "scan_wg must be a power of two from 1 to 1024" },
		{ "scan_vectors=9", "scan_vectors must be a whole number from 1 to 8" },
		{ "reduce_groups=0", "reduce_groups must be a whole number from 1 to 64" },
		{ "select_wait=100001", "select_wait must be a whole number from 0 to 100000" },
		{ "wg=", "wg must be a power of two" },
		{ "wg=64x", "wg must be a power of two" },
		{ "tile=4", "expected key=value" },
		{ "wg", "expected key=value" },
	};
	clwarp_engine *e;
	cl_mem buf;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", bad[i].text, 1), 0);
		e = algo_engine(CLWARP_BACKEND_AUTO, 0);
		buf = device_copy(e, NULL, 64);
		ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, buf, 4, buf, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, bad[i].why);
		clReleaseMemObject(buf);
		clwarp_engine_free(e);
	}

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING",
				"wg=64,scan_wg=64,scan_vectors=3,select_wg=32,select_vectors=5,reduce_groups=2,reduce_unroll=3,packed_lookback=0",
				1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	if (warp_of(e) <= 32) {
		size_t tile = 64 * 3 * 4, stile = 32 * 5 * 4;  /* 4-byte elements */

		check_scan(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 7 * tile + 5, false);
		check_scan(e, CLWARP_TYPE_FLOAT, CLWARP_OP_MAX, 0, 3 * tile - 1, false);
		check_select(e, CLWARP_TYPE_INT, SELECT_COMPACT, 9 * stile + 3, 2);
		check_select(e, CLWARP_TYPE_UINT, SELECT_PARTITION, 4 * stile + 1, 3);
		check_select(e, CLWARP_TYPE_UINT, SELECT_REVERSED, 4 * stile + 1, 3);
		check_reduce(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 64 * 16 * 5 + 7, false);
		check_rows(e, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 1, 5, 300);
	}
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("algorithms", &tc);

	test_read_quick();
	tiny = quick && getenv("CLWARP_TEST_QUICK") && strcmp(getenv("CLWARP_TEST_QUICK"), "2") == 0;
	tcase_set_timeout(tc, quick ? 3000 : 300);
	ADD_TEST(tc, test_errors);
	ADD_TEST(tc, test_event);
	ADD_TEST(tc, test_reduce);
	ADD_TEST(tc, test_scan);
	ADD_TEST(tc, test_repeated_calls);
	ADD_TEST(tc, test_tuning);
	ADD_TEST(tc, test_float_accuracy);
	ADD_TEST(tc, test_compact);
	ADD_TEST(tc, test_partition);
	ADD_TEST(tc, test_partition_reversed);
	ADD_TEST(tc, test_predicates);
	ADD_TEST(tc, test_segmented);
	/* Before test_segmented_short: the order balances Oclgrind's two
	 * CLWARP_TEST_SHARD halves (.ci/run). */
	ADD_TEST(tc, test_softmax);
	ADD_TEST(tc, test_segmented_short);
	if (test_wanted("test_local_widths"))
		tcase_add_loop_test(tc, test_local_widths, 0, 2);
	ADD_TEST(tc, test_threads);
	/* Last, so that the tests before keep their CLWARP_TEST_SHARD halves. */
	ADD_TEST(tc, test_select_narrow);
	return test_main(s);
}
