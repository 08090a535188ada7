/* Reduce and scan against host references: every operation, type and size
 * class, repeated calls, float accuracy, and other tile shapes
 * (CLWARP_ALGO_TUNING). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "test-algorithms.h"

void
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
	ck_assert_clwarp_ok(clwarp_reduce(e, t, in, res, n, op, NULL));
	got = device_read(e, res, size);
	snprintf(what, sizeof(what), "reduce %s", op_names[op]);
	expect_equal(t, got, 0, ri, rf, what, n);
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(res);
}

void
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

	ck_assert_clwarp_ok(clwarp_scan(e, t, in, out, n, op, inclusive ? CLWARP_SCAN_INCLUSIVE : 0,
			NULL));
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

START_TEST(test_reduce)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 6; ti++) {
		clwarp_type t = all_types[ti];

		/* Quick runs: int, ulong, float and double (each kind and size). */
		if (!type_supported(e, t) || (quick && (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_LONG)))
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

/* Reduce's even share (kernels/algorithms/reduce.cl): whole tiles split
 * unevenly between the work-groups, work-groups with no tile, vectors after
 * the last whole tile and elements after the last whole vector. */
static void
check_reduce_shares(clwarp_type t, clwarp_op op, bool few_tiles)
{
	clwarp_engine *e;
	cl_uint cus = 0;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING",
				few_tiles ? "wg=64,reduce_groups=8,reduce_unroll=8,small_n=0"
					  : "wg=64,reduce_groups=1,reduce_unroll=2,small_n=0",
				1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	ck_assert_int_eq(clGetDeviceInfo(clwarp_engine_device(e), CL_DEVICE_MAX_COMPUTE_UNITS,
					 sizeof(cus), &cus, NULL), CL_SUCCESS);
	if (warp_of(e) <= 32 && type_supported(e, t)) {
		size_t vec = 16 / clwarp_type_size(t);
		size_t tile = 64 * (few_tiles ? 8 : 2) * vec;
		/* Groups: the compute units x reduce_groups, at most one per
		 * 64 x 16 elements (src/algorithms.c). few_tiles: 3 tiles for 7
		 * groups; else 5 or 6 tiles for each of `cus` groups. */
		size_t tiles = few_tiles ? 3 : 5 * (size_t)cus + 3;

		check_reduce(e, t, op, tiles * tile + 5 * vec + 3, false);
	}
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}

START_TEST(test_reduce_shares)
{
	check_reduce_shares(CLWARP_TYPE_INT, CLWARP_OP_ADD, false);
	check_reduce_shares(CLWARP_TYPE_FLOAT, CLWARP_OP_MAX, false);
	check_reduce_shares(CLWARP_TYPE_LONG, CLWARP_OP_MIN, false);
	check_reduce_shares(CLWARP_TYPE_DOUBLE, CLWARP_OP_ADD, false);
	check_reduce_shares(CLWARP_TYPE_UINT, CLWARP_OP_ADD, true);
	check_reduce_shares(CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, true);
}
END_TEST

START_TEST(test_scan)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t sizes[16], count;

	for (size_t ti = 0; ti < 6; ti++) {
		clwarp_type t = all_types[ti];

		/* Quick runs: int, long, float and double (each kind and size). */
		if (!type_supported(e, t) || (quick && (t == CLWARP_TYPE_UINT || t == CLWARP_TYPE_ULONG)))
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
	ck_assert_clwarp_ok(clwarp_reduce(e, CLWARP_TYPE_FLOAT, in, res, n, CLWARP_OP_ADD, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, res, 0, sizeof(float), &sum));
	ck_assert_clwarp_ok(clwarp_scan(e, CLWARP_TYPE_FLOAT, in, out, n, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, NULL));
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

/* An engine made with CLWARP_ENGINE_NO_ENVIRONMENT ignores a bad
 * CLWARP_ALGO_TUNING too: its reduce runs, and right. */
static void
check_tuning_ignored(void)
{
	static const int in[5] = { 3, 1, 4, 1, 5 };
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	cl_mem buf, res;
	int *sum;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING", "scan_wg=100", 1), 0);
	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_ENVIRONMENT | CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	buf = device_copy(e, in, sizeof(in));
	res = device_copy(e, NULL, sizeof(int));
	ck_assert_clwarp_ok(clwarp_reduce(e, CLWARP_TYPE_INT, buf, res, 5, CLWARP_OP_ADD, NULL));
	sum = device_read(e, res, sizeof(int));
	ck_assert_int_eq(*sum, 14);
	free(sum);
	clReleaseMemObject(buf);
	clReleaseMemObject(res);
	clwarp_engine_free(e);
}

/*
 * CLWARP_ALGO_TUNING: each bad value is named; another shape gives the same
 * results (narrow work-groups, an odd vector count, the split look-back
 * for 4-byte values too, and on nv compaction without its register cap). Check forks each test, so the variable
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
		{ "select_regs=256", "select_regs must be a whole number from 0 to 255" },
		{ "sort_pairs_regs=256", "sort_pairs_regs must be a whole number from 0 to 255" },
		{ "sort_wide_pairs_regs=256", "sort_wide_pairs_regs must be a whole number from 0 to 255" },
		{ "unique_vectors=9", "unique_vectors must be a whole number from 1 to 8" },
		{ "histogram_vectors=9", "histogram_vectors must be a whole number from 1 to 8" },
		{ "histogram_wg=96", "histogram_wg must be a power of two from 1 to 1024" },
		{ "by_key_regs_n=2147483649", "by_key_regs_n must be a whole number from 0 to 2147483648" },
		{ "small_n=268435457", "small_n must be a whole number from 0 to 268435456" },
		{ "small_select_n=-1", "small_select_n must be a whole number from 0 to 268435456" },
		{ "small_wg=100", "small_wg must be a power of two from 1 to 1024" },
		{ "small_vectors=0", "small_vectors must be a whole number from 1 to 8" },
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
		ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, buf, buf, 4, CLWARP_OP_ADD, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, bad[i].why);
		clReleaseMemObject(buf);
		clwarp_engine_free(e);
	}
	check_tuning_ignored();

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING",
				"wg=64,scan_wg=64,scan_vectors=3,select_wg=32,select_vectors=5,reduce_groups=2,reduce_unroll=3,packed_lookback=0,select_regs=0",
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

void
add_reduce_scan_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_reduce);
	ADD_ALGORITHMS_TEST(tc, test_reduce_shares);
	ADD_ALGORITHMS_TEST(tc, test_scan);
	ADD_ALGORITHMS_TEST(tc, test_repeated_calls);
	ADD_ALGORITHMS_TEST(tc, test_tuning);
	ADD_ALGORITHMS_TEST(tc, test_float_accuracy);
}
