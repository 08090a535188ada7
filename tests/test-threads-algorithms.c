/* Thread stress: the algorithm calls of each thread's round (reduce, scan,
 * sort, compaction, run-length encode, reduce by key, histogram,
 * segmented reduce) and asynchronous copies through host memory from the
 * engine, on the thread's own buffers and the engine the case gives it
 * (shared by every thread in test_threads_one_engine), every value
 * checked against the host. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdint.h>

#include "threads-testutil.h"

static int
cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Reduce, scan and sort of a few hundred elements. */
static bool
reduce_scan_sort(struct worker *t, struct round *r)
{
	clwarp_op op = (clwarp_op)((t->id + r->number) % 3);
	int inclusive = (t->id + r->number) % 2, got = 0, want, acc = 0;
	bool descending = t->id % 2;
	size_t n = r->n - 1 - (size_t)(7 * t->id + r->number) % 200;
	unsigned seed = 1000u * (unsigned)t->id + (unsigned)r->number;

	CALL(t, clwarp_reduce(t->engine, CLWARP_TYPE_INT, r->bin, r->bres, n, op, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bres, 0, sizeof(got), &got));
	want = r->in[0];
	for (size_t i = 1; i < n; i++)
		want = op == CLWARP_OP_ADD ? want + r->in[i]
		       : op == CLWARP_OP_MIN ? (r->in[i] < want ? r->in[i] : want)
					     : (r->in[i] > want ? r->in[i] : want);
	CHECK(t, got == want, "round %d: reduce (op %d) of %zu = %d, want %d", r->number, (int)op,
	      n, got, want);

	CALL(t, clwarp_scan(t->engine, CLWARP_TYPE_INT, r->bin, r->bout, n, CLWARP_OP_ADD,
			    inclusive ? CLWARP_SCAN_INCLUSIVE : 0, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, n * sizeof(int), r->out));
	for (size_t i = 0; i < n; i++) {
		r->want[i] = inclusive ? acc + r->in[i] : acc;
		acc += r->in[i];
	}
	if (!threads_same(t, r, inclusive ? "inclusive scan" : "exclusive scan", n))
		return false;

	/* Pseudo-random uints, a third of them small; sorted on the host as unsigned. */
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		r->want[i] = (int)(seed >> (i % 3 ? 0 : 20));
	}
	CALL(t, clwarp_buffer_write(t->engine, r->bout, 0, n * sizeof(int), r->want));
	CALL(t, clwarp_sort_keys(t->engine, CLWARP_TYPE_UINT, r->bout, n,
				 descending ? CLWARP_SORT_DESCENDING : 0, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, n * sizeof(int), r->out));
	qsort(r->want, n, sizeof(int), cmp_unsigned);
	for (size_t i = 0; descending && i < n / 2; i++) {
		int x = r->want[i];

		r->want[i] = r->want[n - 1 - i];
		r->want[n - 1 - i] = x;
	}
	t->n[ALGORITHMS] += 3;
	t->n[TRANSFERS] += 4;
	return threads_same(t, r, descending ? "descending sort" : "ascending sort", n);
}

/* Keys in runs of 3 + id equal values: what run-length encode and reduce
 * by key see. */
static int
run_key(const struct worker *t, size_t i)
{
	return (int)(i / (3 + (size_t)t->id)) % 5;
}

/* Compaction ("x > 7"), run-length encode and reduce by key (add) of the
 * round's values under run_key's keys. */
static bool
selections(struct worker *t, struct round *r, cl_mem keys, cl_mem counts)
{
	size_t n = r->n, k = 0, runs = 0;
	cl_uint got = 0, *c = (cl_uint *)r->want;

	CALL(t, clwarp_compact(t->engine, CLWARP_TYPE_INT, r->bin, r->bout, r->bres, n, "x > 7",
			NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bres, 0, sizeof(got), &got));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, got * sizeof(int), r->out));
	for (size_t i = 0; i < n; i++)
		if (r->in[i] > 7)
			CHECK(t, k < got && r->out[k++] == r->in[i], "round %d: compact[%zu] = %d, want %d",
			      r->number, k - 1, k - 1 < got ? r->out[k - 1] : -1, r->in[i]);
	CHECK(t, k == got, "round %d: compact selected %u, want %zu", r->number, got, k);

	for (size_t i = 0; i < n; i++)
		r->want[i] = run_key(t, i);
	CALL(t, clwarp_buffer_write(t->engine, keys, 0, n * sizeof(int), r->want));
	CALL(t, clwarp_run_length_encode(t->engine, CLWARP_TYPE_INT, keys, r->bout, counts, r->bres,
					 n, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bres, 0, sizeof(got), &got));
	CALL(t, clwarp_buffer_read(t->engine, counts, 0, got * sizeof(cl_uint), r->out));
	for (size_t i = 0; i < n; i++)
		if (i == 0 || run_key(t, i) != run_key(t, i - 1))
			c[runs++] = 0;
		else
			c[runs - 1]++;
	CHECK(t, got == runs, "round %d: %u runs, want %zu", r->number, got, runs);
	for (size_t j = 0; j < runs; j++)
		CHECK(t, (cl_uint)r->out[j] == c[j] + 1, "round %d: run %zu has %d, want %u", r->number, j,
		      r->out[j], c[j] + 1);

	CALL(t, clwarp_reduce_by_key(t->engine, CLWARP_TYPE_INT, CLWARP_TYPE_INT, keys, r->bin,
				     r->bout, counts, r->bres, n, CLWARP_OP_ADD, NULL));
	CALL(t, clwarp_buffer_read(t->engine, counts, 0, runs * sizeof(int), r->out));
	runs = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || run_key(t, i) != run_key(t, i - 1))
			r->want[runs++] = r->in[i];
		else
			r->want[runs - 1] += r->in[i];
	t->n[ALGORITHMS] += 3;
	t->n[TRANSFERS] += 7;
	return threads_same(t, r, "reduce by key", runs);
}

/* A histogram of the values (10 bins over [-50, 51)) and the max of each
 * row of 8. */
static bool
counts_and_rows(struct worker *t, struct round *r, cl_mem counts)
{
	cl_int lo = -50, hi = 51;
	size_t rows = r->n / 8;

	CALL(t, clwarp_histogram(t->engine, CLWARP_TYPE_INT, r->bin, counts, r->n, 10, &lo, &hi,
			NULL));
	CALL(t, clwarp_buffer_read(t->engine, counts, 0, 10 * sizeof(cl_uint), r->out));
	memset(r->want, 0, 10 * sizeof(int));
	for (size_t i = 0; i < r->n; i++)
		r->want[(r->in[i] + 50) * 10 / 101]++;
	if (!threads_same(t, r, "histogram", 10))
		return false;
	CALL(t, clwarp_segmented_reduce(t->engine, CLWARP_TYPE_INT, r->bin, r->bout, rows, 8,
					CLWARP_OP_MAX, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, rows * sizeof(int), r->out));
	for (size_t row = 0; row < rows; row++) {
		r->want[row] = r->in[row * 8];
		for (size_t j = 1; j < 8; j++)
			if (r->in[row * 8 + j] > r->want[row])
				r->want[row] = r->in[row * 8 + j];
	}
	t->n[ALGORITHMS] += 2;
	t->n[TRANSFERS] += 2;
	return threads_same(t, r, "segmented max", rows);
}

/* Host memory from the engine: the round's values written from it to
 * r->bout and read back into it, both asynchronously (the read waits for
 * the write), checked, and freed again. */
static bool
host_memory(struct worker *t, struct round *r)
{
	size_t bytes = r->n * sizeof(int);
	cl_event wrote = NULL, read = NULL;
	char *p = NULL;
	int pinned = -1;
	bool ok;

	CALL(t, clwarp_host_buffer_new(t->engine, 2 * bytes, (void **)&p));
	memcpy(p, r->in, bytes);
	memset(p + bytes, 0, bytes);
	ok = clwarp_buffer_write_async(t->engine, r->bout, 0, bytes, p, 0, NULL, &wrote) == CLWARP_OK &&
	     clwarp_buffer_read_async(t->engine, r->bout, 0, bytes, p + bytes, 1, &wrote, &read) ==
		     CLWARP_OK &&
	     clWaitForEvents(1, &read) == CL_SUCCESS &&
	     clwarp_host_buffer_pinned(t->engine, p, &pinned) == CLWARP_OK &&
	     memcmp(p + bytes, r->in, bytes) == 0 && (pinned == 0 || pinned == 1);
	if (wrote)
		clReleaseEvent(wrote);
	if (read)
		clReleaseEvent(read);
	else
		clFinish(clwarp_engine_queue(t->engine));  /* nothing may still use p */
	CALL(t, clwarp_host_buffer_free(t->engine, p));
	CHECK(t, ok, "round %d: host memory: asynchronous copies or pinned query failed (%d): %s",
	      r->number, pinned, clwarp_last_error());
	t->n[TRANSFERS] += 2;
	return true;
}

bool
threads_algorithms(struct worker *t, struct round *r)
{
	cl_mem keys = NULL, counts = NULL;
	bool ok = reduce_scan_sort(t, r);

	if (ok)
		ok = host_memory(t, r);
	if (ok && (clwarp_buffer_new(t->engine, CL_MEM_READ_WRITE, r->n * sizeof(int), NULL, &keys) !=
		   CLWARP_OK ||
		   clwarp_buffer_new(t->engine, CL_MEM_READ_WRITE, r->n * sizeof(int), NULL, &counts) !=
		   CLWARP_OK))
		ok = threads_give_up(t, "round %d: buffers: %s", r->number, clwarp_last_error());
	/* The sort above left r->bin as it was: only r->bout was sorted. */
	ok = ok && selections(t, r, keys, counts) && counts_and_rows(t, r, counts);
	if (keys)
		clReleaseMemObject(keys);
	if (counts)
		clReleaseMemObject(counts);
	return ok;
}
