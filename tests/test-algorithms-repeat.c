/* Back-to-back calls that reuse the engine's kernels: n, type, operation
 * and buffers changing from call to call, on two engines from two threads,
 * every element against a host reference. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "test-algorithms.h"

/*
 * A kernel of the engine keeps the arguments of its last launch, and a
 * call sets only those that changed (algo_call_launch's memo): a stale n,
 * carry, tile count or temporary buffer would show here as a wrong
 * element. The sizes cross the small path's threshold and grow the
 * engine's temporaries (partials, look-back words) in random order, so
 * that a buffer is replaced between launches of a kernel that held the
 * old one. Each step queues two calls of one kind back to back (the
 * first one's event released at once, as a caller that only queues
 * does) with different n into different outputs, then checks both.
 */

enum op { OP_REDUCE_ADD, OP_REDUCE_MAX, OP_SCAN_INCL, OP_SCAN_EXCL, OP_COMPACT, OP_COUNT };

/* Quick runs take the first two: a 4- and an 8-byte type. */
static const clwarp_type repeat_types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_LONG, CLWARP_TYPE_FLOAT };
static const size_t repeat_sizes[] = { 0, 1, 37, 1000, 4096, 4097, 20000, 100000, 300001 };
#define MAX_N 300001
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ENGINES 2
#define THREADS 2

struct repeat_thread {
	clwarp_engine **engines;
	uint64_t rng;
	int steps;
	char failure[512];
};

/* Host data: small integers, or multiples of 1/8 in [-1, 1] (exact sums). */
static double
element(const void *b, clwarp_type t, size_t i)
{
	uint64_t bits = get_bits(b, clwarp_type_size(t), i);

	return is_float(t) ? bits_to_double(t, bits) : (double)bits_to_signed(t, bits);
}

/* Compare call `which` (n elements of `in`) with the host; 0 or a message in r->failure. */
static int
check(struct repeat_thread *r, clwarp_engine *e, clwarp_type t, enum op op, const void *in,
      size_t n, cl_mem out, cl_mem count, const char *where)
{
	size_t size = clwarp_type_size(t), m = 0, len = op == OP_REDUCE_ADD || op == OP_REDUCE_MAX ? 1 : n;
	unsigned char *got = malloc(len * size + 8);
	cl_uint got_count = 0;
	double acc = op == OP_REDUCE_MAX ? -1e300 : 0;
	int bad = 0;

	if (!got)
		return snprintf(r->failure, sizeof(r->failure), "out of memory"), 1;
	if ((len && clwarp_buffer_read(e, out, 0, len * size, got) != CLWARP_OK) ||
	    (op == OP_COMPACT && clwarp_buffer_read(e, count, 0, 4, &got_count) != CLWARP_OK)) {
		snprintf(r->failure, sizeof(r->failure), "%s: read: %s", where, clwarp_last_error());
		free(got);
		return 1;
	}
	for (size_t i = 0; i < n && !bad; i++) {
		double x = element(in, t, i);

		if (op == OP_SCAN_EXCL)
			bad = element(got, t, i) != acc;
		if (op == OP_REDUCE_MAX)
			acc = x > acc ? x : acc;
		else if (op != OP_COMPACT)
			acc += x;
		if (op == OP_SCAN_INCL)
			bad = element(got, t, i) != acc;
		if (op == OP_COMPACT && x > 0)
			bad = m >= n || element(got, t, m++) != x;
		if (bad)
			snprintf(r->failure, sizeof(r->failure), "%s: element %zu is %g", where, i,
				 element(got, t, i));
	}
	if (!bad && op == OP_COMPACT && got_count != m)
		bad = snprintf(r->failure, sizeof(r->failure), "%s: count %u, expected %zu", where,
			       got_count, m) > 0;
	if (!bad && (op == OP_REDUCE_ADD || op == OP_REDUCE_MAX)) {
		double want = n ? acc : op == OP_REDUCE_ADD ? 0 : element(got, t, 0);

		if (element(got, t, 0) != want)
			bad = snprintf(r->failure, sizeof(r->failure), "%s: result %g, expected %g",
				       where, element(got, t, 0), want) > 0;
	}
	free(got);
	return bad;
}

static clwarp_status
call(clwarp_engine *e, clwarp_type t, enum op op, cl_mem in, size_t n, cl_mem out, cl_mem count,
     cl_event *ev)
{
	const char *pred = t == CLWARP_TYPE_FLOAT ? "x > 0.0f" : "x > 0";

	switch (op) {
	case OP_REDUCE_ADD:
		return clwarp_reduce(e, t, in, out, n, CLWARP_OP_ADD, ev);
	case OP_REDUCE_MAX:
		return clwarp_reduce(e, t, in, out, n, CLWARP_OP_MAX, ev);
	case OP_SCAN_INCL:
	case OP_SCAN_EXCL:
		return clwarp_scan(e, t, in, out, n, CLWARP_OP_ADD,
				(op == OP_SCAN_INCL) ? CLWARP_SCAN_INCLUSIVE : 0, ev);
	default:
		return clwarp_compact(e, t, in, out, count, n, pred, ev);
	}
}

static void *
repeat_run(void *arg)
{
	struct repeat_thread *r = arg;
	cl_mem in[ENGINES] = { 0 }, out[ENGINES][2] = { { 0 } }, count[ENGINES][2] = { { 0 } };
	unsigned char *host = malloc(MAX_N * 8);
	int failed = !host;

	for (int j = 0; j < ENGINES && !failed; j++) {
		failed = clwarp_buffer_new(r->engines[j], CL_MEM_READ_WRITE, MAX_N * 8, NULL, &in[j]) ||
			 clwarp_buffer_new(r->engines[j], CL_MEM_READ_WRITE, MAX_N * 8, NULL, &out[j][0]) ||
			 clwarp_buffer_new(r->engines[j], CL_MEM_READ_WRITE, MAX_N * 8, NULL, &out[j][1]) ||
			 clwarp_buffer_new(r->engines[j], CL_MEM_READ_WRITE, 8, NULL, &count[j][0]) ||
			 clwarp_buffer_new(r->engines[j], CL_MEM_READ_WRITE, 8, NULL, &count[j][1]);
		if (failed)
			snprintf(r->failure, sizeof(r->failure), "buffers: %s", clwarp_last_error());
	}
	for (int s = 0; s < r->steps && !failed; s++) {
		int j = (int)(next_random(&r->rng) % ENGINES);
		clwarp_type t = repeat_types[next_random(&r->rng) % (quick ? 2 : ARRAY_SIZE(repeat_types))];
		enum op op = (enum op)(next_random(&r->rng) % OP_COUNT);
		size_t n[2], size = clwarp_type_size(t), most;
		cl_event ev[2] = { NULL, NULL };
		char where[160];

		n[0] = repeat_sizes[next_random(&r->rng) % ARRAY_SIZE(repeat_sizes)];
		n[1] = repeat_sizes[next_random(&r->rng) % ARRAY_SIZE(repeat_sizes)];
		most = n[0] > n[1] ? n[0] : n[1];
		for (size_t i = 0; i < most; i++) {
			int k = (int)(next_random(&r->rng) % 17) - 8;

			set_bits(host, size, i,
				 is_float(t) ? double_to_bits(t, k / 8.0) : (uint64_t)(int64_t)k);
		}
		failed = most && clwarp_buffer_write(r->engines[j], in[j], 0, most * size, host);
		for (int c = 0; c < 2 && !failed; c++)
			failed = call(r->engines[j], t, op, in[j], n[c], out[j][c], count[j][c],
				      &ev[c]) != CLWARP_OK;
		if (ev[0]) {
			clReleaseEvent(ev[0]);
			ev[0] = NULL;
		}
		if (failed)
			snprintf(r->failure, sizeof(r->failure), "step %d: %s", s, clwarp_last_error());
		if (ev[1]) {
			clWaitForEvents(1, &ev[1]);
			clReleaseEvent(ev[1]);
		}
		for (int c = 0; c < 2 && !failed; c++) {
			snprintf(where, sizeof(where), "step %d, engine %d, type %d, op %d, n = %zu (call %d)",
				 s, j, (int)t, (int)op, n[c], c);
			failed = check(r, r->engines[j], t, op, host, n[c], out[j][c], count[j][c], where);
		}
	}
	for (int j = 0; j < ENGINES; j++) {
		clReleaseMemObject(in[j]);
		for (int c = 0; c < 2; c++) {
			clReleaseMemObject(out[j][c]);
			clReleaseMemObject(count[j][c]);
		}
	}
	free(host);
	return NULL;
}

START_TEST(test_kernel_reuse)
{
	clwarp_engine *engines[ENGINES];
	struct repeat_thread r[THREADS];
	pthread_t threads[THREADS];
	bool serial;

	for (int j = 0; j < ENGINES; j++)
		engines[j] = algo_engine(CLWARP_BACKEND_AUTO, 0);
	/* Oclgrind 21.10 is not thread-safe (host threads launching at once
	 * crash it): there the threads' steps run one thread after the other,
	 * still on both engines, so the remembered arguments are checked too. */
	serial = test_on_oclgrind(engines[0]);
	for (int i = 0; i < THREADS; i++) {
		r[i] = (struct repeat_thread){ .engines = engines, .rng = 0x9E3779B97F4A7C15ull * (i + 1),
					       .steps = tiny ? 12 : 60 };
		if (serial)
			repeat_run(&r[i]);
		else
			ck_assert_int_eq(pthread_create(&threads[i], NULL, repeat_run, &r[i]), 0);
	}
	for (int i = 0; i < THREADS && !serial; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < THREADS; i++)
		ck_assert_msg(r[i].failure[0] == '\0', "thread %d: %s", i, r[i].failure);
	for (int j = 0; j < ENGINES; j++)
		clwarp_engine_free(engines[j]);
}
END_TEST

void
add_repeat_tests(TCase *tc)
{
	read_test_levels();
	ADD_ALGORITHMS_TEST(tc, test_kernel_reuse);
}
