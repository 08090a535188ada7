/* Rows against host references: segmented reduce and scan over rows of
 * every length class, softmax, and every algorithm on the local backend at
 * forced widths. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "test-algorithms.h"

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
		ck_assert_clwarp_ok(clwarp_segmented_scan(e, t, in, out, rows, len, op,
				inclusive ? CLWARP_SCAN_INCLUSIVE : 0, NULL));
	else
		ck_assert_clwarp_ok(clwarp_segmented_reduce(e, t, in, out, rows, len, op, NULL));
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

void
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

		if (!type_supported(e, t) || quick_skips_type(t))
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
	ck_assert_clwarp_ok(clwarp_softmax_rows(e, in, out, rows, len, NULL));
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

void
add_row_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_segmented);
	/* Before test_segmented_short: the order balances Oclgrind's two
	 * CLWARP_TEST_SHARD halves (.ci/run). */
	ADD_ALGORITHMS_TEST(tc, test_softmax);
	ADD_ALGORITHMS_TEST(tc, test_segmented_short);
	if (algorithms_test_wanted("test_local_widths"))
		test_add_loop_halved(tc, test_local_widths, 2, 0);   /* quick: W = 8 */
}
