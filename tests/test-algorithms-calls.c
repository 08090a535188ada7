/* What every algorithm call shares: events, calls from several threads,
 * and the errors of bad arguments. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <pthread.h>

#include "test-algorithms.h"

START_TEST(test_event)
{
	clwarp_engine *e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	int x[100], sum = 0;
	cl_mem in, res = device_copy(e, NULL, 0);
	cl_event ev = NULL;

	for (int i = 0; i < 100; i++)
		x[i] = i - 20;
	in = device_copy(e, x, sizeof(x));
	ck_assert_clwarp_ok(clwarp_reduce(e, CLWARP_TYPE_INT, in, res, 100, CLWARP_OP_ADD, &ev));
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
	clReleaseEvent(ev);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, res, 0, sizeof(sum), &sum));
	ck_assert_int_eq(sum, 4950 - 2000);
	/* Nothing to do still gives an event. */
	ev = NULL;
	ck_assert_clwarp_ok(clwarp_scan(e, CLWARP_TYPE_INT, in, in, 0, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, &ev));
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
		j->ok = clwarp_reduce(j->engine, CLWARP_TYPE_INT, in, res, n, CLWARP_OP_ADD, NULL) == CLWARP_OK &&
			clwarp_buffer_read(j->engine, res, 0, sizeof(int), &sum) == CLWARP_OK &&
			clwarp_scan(j->engine, CLWARP_TYPE_INT, in, out, n, CLWARP_OP_ADD,
					CLWARP_SCAN_INCLUSIVE, NULL) == CLWARP_OK &&
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
	pthread_t threads[4];
	struct job jobs[4];

	/* Oclgrind 21.10 runs one kernel at a time and is not thread-safe: calls
	 * from several host threads abort it (Context::notifyKernelBegin asserts
	 * m_kernelInvocation == NULL) or, with --uninitialized, crash it in
	 * MemoryPool::alloc under clCreateBuffer. Nothing of ours to check there. */
	if (test_on_oclgrind(e)) {
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
	ck_assert_error(clwarp_reduce(NULL, CLWARP_TYPE_INT, in, out, 64, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	ck_assert_error(clwarp_reduce(e, (clwarp_type)42, in, out, 64, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, in, out, 64, (clwarp_op)7, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown operation");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, NULL, out, 64, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`in` is NULL");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, in, NULL, 64, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`result` is NULL");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_INT, in, out, 65, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 260");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_LONG, in, small, 4, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `result` holds");
	ck_assert_error(clwarp_scan(e, CLWARP_TYPE_INT, in, small, 64, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `out` holds 4 bytes");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, out, NULL, 64, "x > 0", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`count` is NULL");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, in, small, 64, "x > 0", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "different buffers");
	ck_assert_error(clwarp_segmented_scan(e, CLWARP_TYPE_INT, in, out, 4, 17, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 272");
	ck_assert_error(clwarp_softmax_rows(e, in, small, 2, 32, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `out`");

	/* 1- and 2-byte types: refused by the calls that combine elements,
	 * before any buffer is looked at; sized right elsewhere. */
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_CHAR), 1);
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_UCHAR), 1);
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_SHORT), 2);
	ck_assert_uint_eq(clwarp_type_size(CLWARP_TYPE_USHORT), 2);
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_UCHAR, in, out, 64, CLWARP_OP_ADD, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_reduce: uchar elements are not supported");
	ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_CHAR, NULL, NULL, 0, CLWARP_OP_MAX, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_reduce: char elements are not supported");
	ck_assert_error(clwarp_scan(e, CLWARP_TYPE_SHORT, in, out, 64, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_scan: short elements are not supported");
	ck_assert_error(clwarp_scan(e, CLWARP_TYPE_USHORT, in, in, 0, CLWARP_OP_MIN, 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_scan: ushort elements are not supported");
	ck_assert_error(clwarp_segmented_reduce(e, CLWARP_TYPE_CHAR, in, out, 4, 16, CLWARP_OP_MIN,
			NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_segmented_reduce: char elements are not supported");
	ck_assert_error(clwarp_segmented_scan(e, CLWARP_TYPE_UCHAR, in, out, 4, 16, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_segmented_scan: uchar elements are not supported");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_SHORT, in, out, small, 129, "x > 0", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 258");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_CHAR, in, out, small, 64,
					 "x > no_such_name", 0, NULL),
			CLWARP_ERROR_BUILD, "predicate \"x > no_such_name\" does not compile for char");

	/* Predicates: one expression, checked before any build. */
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, out, small, 64, "x > 0; }", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "';' is not allowed");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, out, small, 64, "(x > 0", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unclosed '('");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, out, small, 64, "x > 0)", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unmatched ')'");
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, out, small, 64, "x > 0\n", NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "is not allowed");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, 64, " ", 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "empty predicate");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, 64, NULL, 0, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL predicate");
	/* With CLWARP_PARTITION_REVERSED, clwarp_partition checks the same. */
	ck_assert_error(clwarp_partition(NULL, CLWARP_TYPE_INT, in, out, small, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	ck_assert_error(clwarp_partition(e, (clwarp_type)42, in, out, small, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "unknown element type");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, 64, NULL,
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_partition: NULL predicate");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, 64, "x > 0; }",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "';' is not allowed");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, NULL, out, small, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_partition: buffer `in` is NULL");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, 65, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 260");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_LONG, in, out, small, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `in` holds 256 bytes; the call needs 512");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, small, out, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "buffer `out` holds 4 bytes");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, NULL, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "`count` is NULL");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, in, small, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT,
			"clwarp_partition: `in` and `out` must be different buffers");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, out, 64, "x > 0",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_INVALID_ARGUMENT, "different buffers");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, (size_t)1 << 32,
			"x > 0", CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_TOO_LARGE, "n must be below 2^32");
	ck_assert_error(clwarp_partition(e, CLWARP_TYPE_INT, in, out, small, 64, "x > nothing_here",
			CLWARP_PARTITION_REVERSED, NULL),
			CLWARP_ERROR_BUILD,
			"clwarp_partition: predicate \"x > nothing_here\" does not compile");
	/* Well-formed but not OpenCL C: a build error that names the predicate. */
	ck_assert_error(clwarp_compact(e, CLWARP_TYPE_INT, in, out, small, 64, "x > no_such_name",
			NULL),
			CLWARP_ERROR_BUILD, "predicate \"x > no_such_name\" does not compile");

	if (!clwarp_engine_device_info(e)->has_fp64)
		ck_assert_error(clwarp_reduce(e, CLWARP_TYPE_DOUBLE, in, out, 4, CLWARP_OP_ADD,
				NULL),
				CLWARP_ERROR_INVALID_ARGUMENT, "double needs cl_khr_fp64");
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(small);
	clwarp_engine_free(e);
}
END_TEST

void
add_error_and_event_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_errors);
	ADD_ALGORITHMS_TEST(tc, test_event);
}

void
add_thread_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_threads);
}
