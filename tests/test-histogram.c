/* Histogram against a host reference: every sample type, integer edge
 * values and every way the bin is computed, float ranges with NaN, zeros,
 * infinities and denormals, the int bounds of 1- and 2-byte samples
 * (wider than the type, outside it), bins counted in local and in global
 * memory, size classes, and the argument checks. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <float.h>
#include <limits.h>

#include "test-histogram.h"

/* ------------------------------------------------------------ tests */

/* Every range and bin count of the type, at a few tiles. */
START_TEST(test_histogram_ranges)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	clwarp_type t = type_at(e, _i);
	struct range ranges[24];
	size_t bins[24], count = ranges_for(t, ranges, bins);
	size_t n = quick ? tile_of(t) + 7 : 3 * tile_of(t) + 5;

	for (size_t k = 0; k < count; k++) {
		check_histogram(e, t, n, bins[k], ranges[k], PATTERN_WIDE, 1 + k);
		if (!quick || k % 2)
			check_histogram(e, t, n, bins[k], ranges[k], PATTERN_EDGES, 100 + k);
	}
	clwarp_engine_free(e);
}
END_TEST

/* Sizes 0, 1, around the warp, a non-power of two, around a tile, several
 * tiles, large; 256 bins (local memory) and 5000 (global). */
START_TEST(test_histogram_sizes)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	clwarp_type t = type_at(e, _i);
	size_t w = warp_of(e), tile = tile_of(t);
	size_t sizes[] = { 0, 1, w > 1 ? w - 1 : 2, w + 1, 1000, tile - 1, tile + 1, 3 * tile + 5,
			   (1u << 20) + 3 };
	struct range r = is_float(t) ? float_range(t, -1.0, 1.0) : int_range(t, -5000, 5000);

	if (!is_float(t) && !is_signed(t))
		r = int_range(t, 1000, 11000);
	if (clwarp_type_size(t) == 1)
		r = is_signed(t) ? int_range(t, -100, 100) : int_range(t, 10, 250);
	for (size_t s = 0; s < (quick ? 8 : 9); s++) {
		if (quick && s % 2)
			continue;
		check_histogram(e, t, sizes[s], 256, r, PATTERN_WIDE, 10 + s);
		if (s % 3 == 1)
			check_histogram(e, t, sizes[s], 5000, r, PATTERN_EDGES, 20 + s);
	}
	clwarp_engine_free(e);
}
END_TEST

/* Constant and sorted samples: whole warps on one bin (one atomic per
 * warp), also in a partial last tile. */
START_TEST(test_histogram_patterns)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_UCHAR,
					     CLWARP_TYPE_SHORT };

	for (size_t i = 0; i < 4; i++) {
		clwarp_type t = types[i];
		struct range r = is_float(t) ? float_range(t, 0.0, 10.0) : int_range(t, -10, 30);

		if (t == CLWARP_TYPE_UCHAR)
			r = int_range(t, 0, 256);
		size_t n = quick ? tile_of(t) + 77 : 5 * tile_of(t) + 77;

		check_histogram(e, t, n, 40, r, PATTERN_CONSTANT, 3);
		check_histogram(e, t, n, 40, r, PATTERN_SORTED, 4);
		check_histogram(e, t, n, 5000, r, PATTERN_CONSTANT, 5);
		check_histogram(e, t, n, 5000, r, PATTERN_SORTED, 6);
	}
	clwarp_engine_free(e);
}
END_TEST

/* Every value of the type `reps` times over int bounds: counts[b] for
 * each bin. */
static uint32_t *
every_value(clwarp_engine *e, clwarp_type t, size_t reps, cl_int lower, cl_int upper, size_t bins)
{
	size_t size = clwarp_type_size(t), values = (size_t)1 << (8 * size), n = values * reps;
	uint8_t *samples = malloc(n * size);
	uint32_t *got;
	cl_mem in, counts;

	ck_assert(samples);
	for (size_t i = 0; i < n; i++)   /* 0, 1, ..., as bits: negative ones for char and short */
		set_bits(samples, size, i, (uint64_t)((i * 7919) % values));
	in = device_copy(e, samples, n * size);
	counts = device_copy(e, NULL, bins * 4);
	ck_assert_clwarp_ok(clwarp_histogram(e, t, in, counts, n, bins, &lower, &upper, NULL));
	got = device_read(e, counts, bins * 4);
	free(samples);
	clReleaseMemObject(in);
	clReleaseMemObject(counts);
	return got;
}

/* 1- and 2-byte samples with int bounds, checked by hand: every uchar value
 * over [0, 256) (255 in the last bin), in 1 and 3 bins, every char over
 * [-128, 128), every ushort over [0, 65536) in 65536 bins (global
 * memory) and 4096 (local), bounds wider than the type and outside it;
 * then the reference at the other patterns. */
START_TEST(test_histogram_int_bounds)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t reps = quick ? 3 : 37;
	uint32_t *got;

	got = every_value(e, CLWARP_TYPE_UCHAR, reps, 0, 256, 256);
	for (size_t b = 0; b < 256; b++)
		ck_assert_msg(got[b] == reps, "uchar [0, 256): bin %zu holds %u, expected %zu", b,
			      got[b], reps);
	free(got);
	got = every_value(e, CLWARP_TYPE_UCHAR, reps, 0, 256, 1);
	ck_assert_uint_eq(got[0], 256 * reps);
	free(got);
	/* floor(x * 3 / 256): 0-85, 86-170, 171-255 */
	got = every_value(e, CLWARP_TYPE_UCHAR, reps, 0, 256, 3);
	ck_assert_uint_eq(got[0], 86 * reps);
	ck_assert_uint_eq(got[1], 85 * reps);
	ck_assert_uint_eq(got[2], 85 * reps);
	free(got);
	/* char: -128 in bin 0, 127 in bin 255 */
	got = every_value(e, CLWARP_TYPE_CHAR, reps, -128, 128, 256);
	for (size_t b = 0; b < 256; b++)
		ck_assert_msg(got[b] == reps, "char [-128, 128): bin %zu holds %u, expected %zu", b,
			      got[b], reps);
	free(got);
	/* [-1000, 1000) in 8 bins of 250: uchar 0-249 in bin 4, 250-255 in 5 */
	got = every_value(e, CLWARP_TYPE_UCHAR, reps, -1000, 1000, 8);
	for (size_t b = 0; b < 8; b++)
		ck_assert_uint_eq(got[b], b == 4 ? 250 * reps : b == 5 ? 6 * reps : 0);
	free(got);
	got = every_value(e, CLWARP_TYPE_SHORT, 1, -40000, 40000, 2);
	ck_assert_uint_eq(got[0], 32768);
	ck_assert_uint_eq(got[1], 32768);
	free(got);
	got = every_value(e, CLWARP_TYPE_USHORT, 1, 0, 65536, 65536);
	for (size_t b = 0; b < 65536; b++)
		if (got[b] != 1)
			ck_abort_msg("ushort [0, 65536): bin %zu holds %u, expected 1", b, got[b]);
	free(got);
	got = every_value(e, CLWARP_TYPE_USHORT, 1, 0, 65536, 4096);
	for (size_t b = 0; b < 4096; b++)
		if (got[b] != 16)
			ck_abort_msg("ushort [0, 65536), 4096 bins: bin %zu holds %u, expected 16", b, got[b]);
	free(got);
	/* Outside the type's values: nothing counted. */
	{
		static const struct {
			clwarp_type t;
			cl_int lower, upper;
		} outside[] = {
			{ CLWARP_TYPE_UCHAR, 256, 1000 },     { CLWARP_TYPE_UCHAR, -1000, 0 },
			{ CLWARP_TYPE_CHAR, 128, 129 },       { CLWARP_TYPE_CHAR, INT32_MIN, -128 },
			{ CLWARP_TYPE_SHORT, 32768, INT32_MAX }, { CLWARP_TYPE_USHORT, 65536, 70000 },
			{ CLWARP_TYPE_USHORT, -5, 0 },
		};

		for (size_t k = 0; k < sizeof(outside) / sizeof(outside[0]); k++) {
			got = every_value(e, outside[k].t, 1, outside[k].lower, outside[k].upper, 3);
			ck_assert_msg(got[0] + got[1] + got[2] == 0, "%s [%d, %d): counted %u %u %u",
				      type_names[outside[k].t], (int)outside[k].lower,
				      (int)outside[k].upper, got[0], got[1], got[2]);
			free(got);
		}
	}
	/* The reference, at the patterns and in both memories. */
	{
		size_t n = quick ? tile_of(CLWARP_TYPE_UCHAR) + 77 : 5 * tile_of(CLWARP_TYPE_UCHAR) + 77;

		check_histogram(e, CLWARP_TYPE_UCHAR, n, 256, int_range(CLWARP_TYPE_UCHAR, 0, 256),
				PATTERN_EDGES, 1);
		check_histogram(e, CLWARP_TYPE_UCHAR, n, 3, int_range(CLWARP_TYPE_UCHAR, 0, 256),
				PATTERN_SORTED, 2);
		check_histogram(e, CLWARP_TYPE_UCHAR, n, 1, int_range(CLWARP_TYPE_UCHAR, 0, 256),
				PATTERN_CONSTANT, 3);
		check_histogram(e, CLWARP_TYPE_CHAR, n, 256, int_range(CLWARP_TYPE_CHAR, -128, 128),
				PATTERN_SORTED, 4);
		check_histogram(e, CLWARP_TYPE_UCHAR, n, 7, int_range(CLWARP_TYPE_UCHAR, -1000, 1000),
				PATTERN_EDGES, 5);
		check_histogram(e, CLWARP_TYPE_UCHAR, n, 2000, int_range(CLWARP_TYPE_UCHAR, -1000, 1000),
				PATTERN_WIDE, 6);
		check_histogram(e, CLWARP_TYPE_USHORT, n, 4096, int_range(CLWARP_TYPE_USHORT, 0, 65536),
				PATTERN_WIDE, 7);
		check_histogram(e, CLWARP_TYPE_USHORT, n, 65536, int_range(CLWARP_TYPE_USHORT, 0, 65536),
				PATTERN_EDGES, 8);
		check_histogram(e, CLWARP_TYPE_USHORT, n, 4096, int_range(CLWARP_TYPE_USHORT, 0, 65536),
				PATTERN_SORTED, 9);
		check_histogram(e, CLWARP_TYPE_SHORT, n, 100, int_range(CLWARP_TYPE_SHORT, 40000, 50000),
				PATTERN_EDGES, 10);
	}
	clwarp_engine_free(e);
}
END_TEST

/* A few small histograms that take every kernel path: cheap enough for
 * Oclgrind. */
START_TEST(test_histogram_small)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	cl_event ev = NULL;
	cl_mem buf = device_copy(e, NULL, 64);
	uint32_t lo = 0, hi = 10, got[16];

	check_histogram(e, CLWARP_TYPE_UINT, tile_of(CLWARP_TYPE_UINT) + 3, 7,
			int_range(CLWARP_TYPE_UINT, 0, 1000), PATTERN_EDGES, 1);
	check_histogram(e, CLWARP_TYPE_FLOAT, 300, 10, float_range(CLWARP_TYPE_FLOAT, -1.0, 1.0),
			PATTERN_EDGES, 2);
	check_histogram(e, CLWARP_TYPE_LONG, 2 * tile_of(CLWARP_TYPE_LONG) + 1, 7,
			full_range(CLWARP_TYPE_LONG), PATTERN_WIDE, 3);
	check_histogram(e, CLWARP_TYPE_INT, 100, 5000, int_range(CLWARP_TYPE_INT, -7, 9000),
			PATTERN_SORTED, 4);
	check_histogram(e, CLWARP_TYPE_INT, 0, 3, int_range(CLWARP_TYPE_INT, -7, 9), PATTERN_WIDE, 5);
	/* 1- and 2-byte samples: vectors of 16 and 8, partial tiles element
	 * by element, negative bounds, bins in local and in global memory. */
	check_histogram(e, CLWARP_TYPE_UCHAR, tile_of(CLWARP_TYPE_UCHAR) + 3, 256,
			full_range(CLWARP_TYPE_UCHAR), PATTERN_WIDE, 6);
	check_histogram(e, CLWARP_TYPE_CHAR, 2 * tile_of(CLWARP_TYPE_CHAR) + 1, 7,
			int_range(CLWARP_TYPE_CHAR, -100, 50), PATTERN_EDGES, 7);
	check_histogram(e, CLWARP_TYPE_SHORT, 301, 5000, int_range(CLWARP_TYPE_SHORT, -3000, -1000),
			PATTERN_EDGES, 8);
	check_histogram(e, CLWARP_TYPE_USHORT, tile_of(CLWARP_TYPE_USHORT) - 1, 16,
			int_range(CLWARP_TYPE_USHORT, 100, 228), PATTERN_SORTED, 9);
	/* Their int bounds: every uchar value, 255 in the last bin; wider
	 * than the type, 2^32 - 1 values; outside the type. */
	check_histogram(e, CLWARP_TYPE_UCHAR, 301, 256, int_range(CLWARP_TYPE_UCHAR, 0, 256),
			PATTERN_EDGES, 10);
	check_histogram(e, CLWARP_TYPE_UCHAR, 301, 3, int_range(CLWARP_TYPE_UCHAR, -1000, 1000),
			PATTERN_WIDE, 11);
	check_histogram(e, CLWARP_TYPE_SHORT, 301, 7, int_range(CLWARP_TYPE_SHORT, INT32_MIN, INT32_MAX),
			PATTERN_WIDE, 12);
	check_histogram(e, CLWARP_TYPE_USHORT, 301, 5000, int_range(CLWARP_TYPE_USHORT, 0, 65536),
			PATTERN_EDGES, 13);
	check_histogram(e, CLWARP_TYPE_CHAR, 301, 10, int_range(CLWARP_TYPE_CHAR, 128, 1000),
			PATTERN_EDGES, 14);
	/* With an event, twice: the counts are overwritten, not added to. */
	for (int k = 0; k < 2; k++) {
		cl_mem in = device_copy(e, (uint32_t[4]){ 1, 1, 3, 12 }, 16);

		ck_assert_clwarp_ok(clwarp_histogram(e, CLWARP_TYPE_UINT, in, buf, 4, 10, &lo, &hi,
				&ev));
		ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
		clReleaseEvent(ev);
		clReleaseMemObject(in);
	}
	ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, 64, got));
	ck_assert_uint_eq(got[1], 2);
	ck_assert_uint_eq(got[3], 1);
	ck_assert_uint_eq(got[0] + got[2] + got[4] + got[9], 0);
	ck_assert_uint_eq(got[10], 0xA5A5A5A5u);   /* past the bins: untouched */
	clReleaseMemObject(buf);
	clwarp_engine_free(e);
}
END_TEST

/* The local backend at a narrow and a wide warp. */
START_TEST(test_histogram_local_widths)
{
	static const unsigned widths[] = { 8, 64 };
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_LOCAL, widths[_i]);

	check_histogram(e, CLWARP_TYPE_INT, 3 * tile_of(CLWARP_TYPE_INT) + 5, 100,
			int_range(CLWARP_TYPE_INT, -1000, 1001), PATTERN_EDGES, 1);
	check_histogram(e, CLWARP_TYPE_INT, tile_of(CLWARP_TYPE_INT) + 77, 5000,
			int_range(CLWARP_TYPE_INT, -10, 30), PATTERN_CONSTANT, 2);
	check_histogram(e, CLWARP_TYPE_INT, tile_of(CLWARP_TYPE_INT) - 1, 40,
			int_range(CLWARP_TYPE_INT, -10, 30), PATTERN_SORTED, 3);
	check_histogram(e, CLWARP_TYPE_CHAR, 2 * tile_of(CLWARP_TYPE_CHAR) + 5, 16,
			int_range(CLWARP_TYPE_CHAR, -100, 28), PATTERN_EDGES, 4);
	clwarp_engine_free(e);
}
END_TEST

/*
 * Another tile and grid shape (CLWARP_ALGO_TUNING's histogram keys): work-
 * groups of 64 with 3 vectors each and 2 per compute unit, so that a tile
 * is not a power of two and every work-group strides over many tiles.
 * The engine reads the variable at its first algorithm call, so it stays
 * set until the end (Check forks each test).
 */
START_TEST(test_histogram_shape)
{
	static const clwarp_type types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, CLWARP_TYPE_SHORT };
	clwarp_engine *e;

	ck_assert_int_eq(setenv("CLWARP_ALGO_TUNING",
				"histogram_wg=64,histogram_vectors=3,histogram_groups=2", 1), 0);
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	if (warp_of(e) <= 64) {
		for (size_t i = 0; i < 3; i++) {
			clwarp_type t = types[i];
			size_t size = clwarp_type_size(t), tile = 64 * 3 * (16 / (size < 4 ? 4 : size));
			struct range r = is_float(t) ? float_range(t, -1.0, 1.0) : int_range(t, -300, 700);

			check_histogram(e, t, 37 * tile + 11, 256, r, PATTERN_WIDE, 30 + i);
			check_histogram(e, t, 9 * tile - 1, 40, r, PATTERN_SORTED, 40 + i);
		}
	}
	clwarp_engine_free(e);
	unsetenv("CLWARP_ALGO_TUNING");
}
END_TEST

START_TEST(test_histogram_errors)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	cl_mem in = device_copy(e, NULL, 400), counts = device_copy(e, NULL, 40);
	int32_t lo = 0, hi = 10, lo2 = 10;
	float flo = 0, fhi = 1, fnan = NAN, finf = INFINITY, fmax = FLT_MAX, fmin = -FLT_MAX;
	double dlo = 0, dhi = 1;

	ck_assert_error(clwarp_histogram(NULL, CLWARP_TYPE_INT, in, counts, 100, 10, &lo, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	ck_assert_error(clwarp_histogram(e, (clwarp_type)10, in, counts, 100, 10, &lo, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type 10");
	/* 1- and 2-byte bounds are cl_ints and compare as ints: 300 is not
	 * below 200 (as uchars, 44 would be), INT32_MAX not below INT32_MIN;
	 * [0, 256) and [-1000, 1000) are fine for uchar. */
	{
		cl_int c_lo = 100, c_hi = -100, uc_lo = 300, uc_hi = 200, s_lo = -5, s_hi = -5;
		cl_int s_ok = 5, i_max = INT32_MAX, i_min = INT32_MIN, zero = 0, u256 = 256;
		cl_int m1000 = -1000, p1000 = 1000;

		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_CHAR, in, counts, 100, 10, &c_lo,
				&c_hi, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "lower must be below upper (cl_ints 100 and -100)");
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_UCHAR, in, counts, 100, 10, &uc_lo,
						 &uc_hi, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "lower must be below upper (cl_ints 300 and 200)");
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_SHORT, in, counts, 100, 10, &s_lo,
						 &s_hi, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "lower must be below upper");
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_USHORT, in, counts, 100, 10, &i_max,
						 &i_min, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "lower must be below upper");
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_USHORT, in, counts, 100, 10, NULL,
						 &s_hi, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "must point at one cl_int each");
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_CHAR, in, counts, 100, 10, &s_lo,
						 NULL, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT,
				"clwarp_histogram: `lower` and `upper` must point at one cl_int each");
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_SHORT, in, counts, 201, 10, &s_lo,
				&s_ok, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 400 bytes; the call needs 402");
		ck_assert_clwarp_ok(clwarp_histogram(e, CLWARP_TYPE_UCHAR, in, counts, 400, 10,
						     &zero, &u256, NULL));
		ck_assert_clwarp_ok(clwarp_histogram(e, CLWARP_TYPE_UCHAR, in, counts, 400, 10,
						     &m1000, &p1000, NULL));
		ck_assert_clwarp_ok(clwarp_histogram(e, CLWARP_TYPE_SHORT, in, counts, 200, 10,
						     &i_min, &i_max, NULL));
	}
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, 100, 0, &lo, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_histogram: bins must be at least 1");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, 100, (size_t)1 << 32, &lo,
					 &hi, NULL),
			CLWARP_ERROR_TOO_LARGE, "4294967296 bins");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, 100, 10, NULL, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`lower` and `upper` must point at one int each");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, 100, 10, &lo2, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "lower must be below upper");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_FLOAT, in, counts, 100, 10, &fhi, &flo,
			NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "lower and upper must be finite with lower < upper");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_FLOAT, in, counts, 100, 10, &fnan, &fhi,
			NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "must be finite");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_FLOAT, in, counts, 100, 10, &flo, &finf,
			NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "must be finite");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_FLOAT, in, counts, 100, 10, &fmin, &fmax,
			NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "upper - lower and bins / (upper - lower) finite in float");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, 101, 10, &lo, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 400 bytes; the call needs 404");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, 100, 11, &lo, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `counts` holds 40 bytes; the call needs 44");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, in, 100, 10, &lo, &hi, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`in` and `counts` must be different buffers");
	ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_INT, in, counts, (size_t)1 << 32, 10, &lo,
					 &hi, NULL),
			CLWARP_ERROR_TOO_LARGE, "n must be below 2^32");
	if (!has_fp64(e))
		ck_assert_error(clwarp_histogram(e, CLWARP_TYPE_DOUBLE, in, counts, 10, 10, &dlo,
						 &dhi, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "double needs cl_khr_fp64");
	/* n == 0 needs no samples and clears the counts. */
	ck_assert_clwarp_ok(clwarp_histogram(e, CLWARP_TYPE_INT, NULL, counts, 0, 10, &lo, &hi,
			NULL));
	clReleaseMemObject(in);
	clReleaseMemObject(counts);
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("histogram", &tc);

	test_read_quick();
	tcase_set_timeout(tc, quick ? 3000 : 600);
	ADD_TEST(tc, test_histogram_errors);
	ADD_TEST(tc, test_histogram_small);
	/* Quick: the ranges on the even types (signed and float), the sizes
	 * on the odd ones (unsigned and double). */
	if (test_wanted("test_histogram_ranges"))
		test_add_loop_halved(tc, test_histogram_ranges, TYPE_COUNT, 0);
	if (test_wanted("test_histogram_sizes"))
		test_add_loop_halved(tc, test_histogram_sizes, TYPE_COUNT, 1);
	ADD_TEST(tc, test_histogram_patterns);
	ADD_TEST(tc, test_histogram_int_bounds);
	ADD_TEST(tc, test_histogram_shape);
	if (test_wanted("test_histogram_local_widths"))
		test_add_loop_halved(tc, test_histogram_local_widths, 2, 1);   /* quick: W = 64 */
	return test_main(s);
}
