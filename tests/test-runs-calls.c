/* Unique, run-length encode and reduce by key, part of test-runs: the
 * argument checks, and calls in a row with events. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "algo-testutil.h"
#include "test-runs.h"

/* Calls in a row with events, then one wait: the temporaries are shared. */
START_TEST(test_runs_events)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	size_t n = quick ? 5000 : 300000;
	uint32_t *keys = malloc(n * 4), counts[3] = { 0 }, *got = malloc(n * 4);
	cl_mem in, out[3], num[3], lengths = device_copy(e, NULL, n * 4);
	cl_event ev[3];

	ck_assert(keys && got);
	for (size_t i = 0; i < n; i++)
		keys[i] = (uint32_t)(i / 3);
	in = device_copy(e, keys, n * 4);
	for (int k = 0; k < 3; k++) {
		out[k] = device_copy(e, NULL, n * 4);
		num[k] = device_copy(e, NULL, 4);
	}
	ck_assert_clwarp_ok(clwarp_unique(e, CLWARP_TYPE_UINT, in, out[0], num[0], n, &ev[0]));
	ck_assert_clwarp_ok(clwarp_run_length_encode(e, CLWARP_TYPE_UINT, in, out[1], lengths,
						     num[1], n, &ev[1]));
	ck_assert_clwarp_ok(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, in, in,
						 out[2], lengths, num[2], n, CLWARP_OP_MAX, &ev[2]));
	ck_assert_int_eq(clWaitForEvents(3, ev), CL_SUCCESS);
	for (int k = 0; k < 3; k++) {
		ck_assert_clwarp_ok(clwarp_buffer_read(e, num[k], 0, 4, &counts[k]));
		ck_assert_uint_eq(counts[k], (n + 2) / 3);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, out[k], 0, counts[k] * 4, got));
		for (uint32_t r = 0; r < counts[k]; r++) {
			if (got[r] != r)
				ck_abort_msg("call %d: key %u is %u", k, r, got[r]);
		}
		clReleaseEvent(ev[k]);
		clReleaseMemObject(out[k]);
		clReleaseMemObject(num[k]);
	}
	/* The max of each run's keys is its key. */
	ck_assert_clwarp_ok(clwarp_buffer_read(e, lengths, 0, counts[2] * 4, got));
	for (uint32_t r = 0; r < counts[2]; r++) {
		if (got[r] != r)
			ck_abort_msg("reduce_by_key max: aggregate %u is %u", r, got[r]);
	}
	free(keys);
	free(got);
	clReleaseMemObject(in);
	clReleaseMemObject(lengths);
	clwarp_engine_free(e);
}
END_TEST

START_TEST(test_runs_errors)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	cl_mem a = device_copy(e, NULL, 400), b = device_copy(e, NULL, 400);
	cl_mem c = device_copy(e, NULL, 400), d = device_copy(e, NULL, 400);
	cl_mem small = device_copy(e, NULL, 4), tiny = NULL;
	cl_uint runs = 99;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 2, NULL, &tiny));
	ck_assert_error(clwarp_unique(NULL, CLWARP_TYPE_UINT, a, b, small, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	ck_assert_error(clwarp_unique(e, (clwarp_type)10, a, b, small, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type 10");
	ck_assert_error(clwarp_unique(e, CLWARP_TYPE_SHORT, a, b, small, 201, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 400 bytes; the call needs 402");
	ck_assert_error(clwarp_unique(e, CLWARP_TYPE_UINT, NULL, b, small, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_unique: buffer `in` is NULL");
	ck_assert_error(clwarp_unique(e, CLWARP_TYPE_ULONG, a, b, small, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 400 bytes; the call needs 800");
	ck_assert_error(clwarp_unique(e, CLWARP_TYPE_UINT, a, b, tiny, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `num_selected` holds 2 bytes");
	ck_assert_error(clwarp_unique(e, CLWARP_TYPE_UINT, a, a, small, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"`in` and `out` must be different buffers (the call writes `out`)");
	ck_assert_error(clwarp_unique(e, CLWARP_TYPE_UINT, a, b, small, (size_t)1 << 32, NULL),
			CLWARP_ERROR_TOO_LARGE, "n must be below 2^32");

	ck_assert_error(clwarp_run_length_encode(e, CLWARP_TYPE_INT, a, b, c, NULL, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `num_runs` is NULL");
	ck_assert_error(clwarp_run_length_encode(e, CLWARP_TYPE_INT, a, b, small, c, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `counts_out` holds 4 bytes");
	ck_assert_error(clwarp_run_length_encode(e, CLWARP_TYPE_INT, a, b, b, c, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`unique_out` and `counts_out` must be different buffers");
	ck_assert_error(clwarp_run_length_encode(e, CLWARP_TYPE_INT, a, b, c, a, 100, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`in` and `num_runs` must be different buffers");
	ck_assert_error(clwarp_run_length_encode(e, CLWARP_TYPE_INT, a, b, c, d, (size_t)1 << 32,
						 NULL),
			CLWARP_ERROR_TOO_LARGE, "clwarp_run_length_encode: n = 4294967296");

	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, (clwarp_type)-1, a, b, c, d,
					     small, 100, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown value type -1");
	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, a, b, c, d,
					     small, 100, (clwarp_op)3, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown operation 3");
	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, (clwarp_type)10, a, b, c, d,
					     small, 100, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown value type 10");
	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UCHAR, CLWARP_TYPE_USHORT, a, b, c, d,
					     small, 201, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `values_in` holds 400 bytes; the call needs 402");
	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_DOUBLE, a, b, c, d,
					     small, 100, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			has_fp64(e) ? "buffer `values_in` holds 400 bytes; the call needs 800"
				    : "double needs cl_khr_fp64");
	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, a, b, c, b,
					     small, 100, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"`values_in` and `aggregates_out` must be different buffers (the call writes `aggregates_out`)");
	ck_assert_error(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, a, b, c, tiny,
					     small, 100, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `aggregates_out` holds 2 bytes");
	if (!has_fp64(e))
		ck_assert_error(clwarp_unique(e, CLWARP_TYPE_DOUBLE, a, b, small, 10, NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "double needs cl_khr_fp64");

	/* n == 0 needs only the count; after the errors the engine still works. */
	ck_assert_clwarp_ok(clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_LONG, NULL, NULL,
						 NULL, NULL, small, 0, CLWARP_OP_ADD, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, small, 0, 4, &runs));
	ck_assert_uint_eq(runs, 0);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseMemObject(c);
	clReleaseMemObject(d);
	clReleaseMemObject(small);
	clReleaseMemObject(tiny);
	clwarp_engine_free(e);
}
END_TEST

void
runs_add_error_tests(TCase *tc, bool (*wanted)(const char *name))
{
	test_read_quick();
	if (wanted("test_runs_errors"))
		tcase_add_test(tc, test_runs_errors);
}

void
runs_add_event_tests(TCase *tc, bool (*wanted)(const char *name))
{
	test_read_quick();
	if (wanted("test_runs_events"))
		tcase_add_test(tc, test_runs_events);
}
