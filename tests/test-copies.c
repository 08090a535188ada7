/* Copies between host and device: pinned host memory (clwarp_host_buffer_new)
 * and the asynchronous reads and writes, every byte checked. */
/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include <pthread.h>
#include <stdint.h>

/* A buffer size that is a multiple of nothing useful. */
#define ODD_BYTES 1000003u

/* Byte i of pattern `seed`: never constant over a run, differs between seeds. */
static unsigned char
pattern(size_t i, unsigned seed)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;

	return (unsigned char)(x >> 13 ^ x >> 24 ^ seed);
}

static void
fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = pattern(i, seed);
}

/* The first byte where p differs from pattern `seed` starting at `from`, or n. */
static size_t
first_mismatch(const unsigned char *p, size_t n, unsigned seed, size_t from)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != pattern(from + i, seed))
			return i;
	return n;
}

static bool
on_pocl(clwarp_engine *e)
{
	return strncmp(clwarp_engine_device_info(e)->platform_name, "Portable Computing Language", 27) == 0;
}

/* Host memory of two kinds: the C library's and the engine's pinned. */
static unsigned char *
host_new(clwarp_engine *e, bool pinned, size_t bytes)
{
	void *p = NULL;

	if (!pinned)
		p = malloc(bytes);
	else
		ck_assert_clwarp_ok(clwarp_host_buffer_new(e, bytes, &p));
	ck_assert_ptr_nonnull(p);
	return p;
}

static void
host_del(clwarp_engine *e, bool pinned, unsigned char *p)
{
	if (pinned)
		ck_assert_clwarp_ok(clwarp_host_buffer_free(e, p));
	else
		free(p);
}

START_TEST(test_host_alloc)
{
	clwarp_engine *e = test_engine(NULL), *other = test_engine(NULL);
	static const size_t sizes[] = { 1, 3, 4095, 4097, (1u << 20) + 7 };
	void *p[5], *q = NULL;
	int pinned = -1;

	for (size_t k = 0; k < 5; k++) {
		ck_assert_clwarp_ok(clwarp_host_buffer_new(e, sizes[k], &p[k]));
		ck_assert_ptr_nonnull(p[k]);
		ck_assert_uint_eq((uintptr_t)p[k] % 64, 0);
		fill(p[k], sizes[k], (unsigned)k);
		ck_assert_clwarp_ok(clwarp_host_buffer_pinned(e, p[k], &pinned));
		/* PoCL's devices use host memory anyway: the documented fallback. */
		if (on_pocl(e))
			ck_assert_int_eq(pinned, 0);
		ck_assert_clwarp_ok(clwarp_host_buffer_pinned(e, (char *)p[k] + sizes[k] - 1, &pinned));
	}
	for (size_t k = 0; k < 5; k++)
		ck_assert_uint_eq(first_mismatch(p[k], sizes[k], (unsigned)k, 0), sizes[k]);

	/* Not ours: the other engine's, one past the end, the middle, freed already. */
	ck_assert_clwarp_ok(clwarp_host_buffer_new(other, 64, &q));
	ck_assert_error(clwarp_host_buffer_free(e, q), CLWARP_ERROR_INVALID_ARGUMENT, "did not give this engine");
	ck_assert_error(clwarp_host_buffer_pinned(e, (char *)p[1] + 3, &pinned), CLWARP_ERROR_INVALID_ARGUMENT,
			"is not from clwarp_host_buffer_new");
	ck_assert_error(clwarp_host_buffer_free(e, (char *)p[4] + 5), CLWARP_ERROR_INVALID_ARGUMENT,
			"5 bytes into a block of 1048583 bytes");
	ck_assert_clwarp_ok(clwarp_host_buffer_free(e, NULL));
	for (size_t k = 0; k < 5; k++)
		ck_assert_clwarp_ok(clwarp_host_buffer_free(e, p[k]));
	ck_assert_error(clwarp_host_buffer_free(e, p[0]), CLWARP_ERROR_INVALID_ARGUMENT, "freed already");
	ck_assert_clwarp_ok(clwarp_host_buffer_free(other, q));
	clwarp_engine_free(other);
	clwarp_engine_free(e);
}
END_TEST

/* The ranges every copy test goes through: odd offsets and sizes, the
 * first and last byte, the whole buffer, and nothing at both ends. */
static const struct range {
	size_t offset, bytes;
} ranges[] = {
	{ 0, 0 }, { ODD_BYTES, 0 }, { 0, 1 }, { ODD_BYTES - 1, 1 }, { 1, ODD_BYTES - 1 },
	{ 7, 4093 }, { 12345, 54321 }, { 0, ODD_BYTES }, { 3, 65536 }, { ODD_BYTES - 4097, 4097 },
};

/* Write then read each range, blocking or asynchronous, from malloc'd or
 * pinned memory; the whole buffer is checked after each write, and the
 * bytes around each read's destination are checked untouched. */
static void
copy_ranges(bool pinned, bool async)
{
	clwarp_engine *e = test_engine(NULL);
	unsigned char *src = host_new(e, pinned, ODD_BYTES), *dst = host_new(e, pinned, ODD_BYTES + 2);
	unsigned char *all = malloc(ODD_BYTES);
	cl_mem buf = NULL;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, ODD_BYTES, NULL, &buf));
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		size_t off = ranges[r].offset, n = ranges[r].bytes;
		unsigned seed = 100 + (unsigned)r;
		cl_event ev = NULL;
		size_t past;

		fill(all, ODD_BYTES, 1);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, 0, ODD_BYTES, all));
		fill(src, n, seed);
		if (async) {
			ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, off, n, src, 0, NULL, &ev));
			ck_assert_ptr_nonnull(ev);
			ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
			clReleaseEvent(ev);
		} else {
			ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, off, n, src));
		}
		memset(all, 0, ODD_BYTES);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, ODD_BYTES, all));
		ck_assert_msg(first_mismatch(all, off, 1, 0) == off, "range %zu: bytes before it changed", r);
		ck_assert_msg(first_mismatch(all + off, n, seed, 0) == n, "range %zu: byte %zu not written", r,
			      first_mismatch(all + off, n, seed, 0));
		ck_assert_msg(first_mismatch(all + off + n, ODD_BYTES - off - n, 1, off + n) ==
				      ODD_BYTES - off - n,
			      "range %zu: bytes after it changed", r);

		/* Read it back between two guard bytes. */
		memset(dst, 0xa5, ODD_BYTES + 2);
		if (async) {
			ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, off, n, dst + 1, 0, NULL, &ev));
			ck_assert_ptr_nonnull(ev);
			ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
			clReleaseEvent(ev);
		} else {
			ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, off, n, dst + 1));
		}
		ck_assert_msg(first_mismatch(dst + 1, n, seed, 0) == n, "range %zu: byte %zu read wrong", r,
			      first_mismatch(dst + 1, n, seed, 0));
		ck_assert_int_eq(dst[0], 0xa5);
		past = n + 1;
		while (past < ODD_BYTES + 2 && dst[past] == 0xa5)
			past++;
		ck_assert_msg(past == ODD_BYTES + 2, "range %zu: read wrote byte %zu past its end", r, past - 1);
	}
	/* 0 bytes need no host memory at all. */
	ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 5, 0, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 5, 0, NULL, 0, NULL, NULL));
	clReleaseMemObject(buf);
	host_del(e, pinned, src);
	host_del(e, pinned, dst);
	free(all);
	clwarp_engine_free(e);
}

START_TEST(test_ranges_malloc_blocking) { copy_ranges(false, false); }
END_TEST
START_TEST(test_ranges_malloc_async) { copy_ranges(false, true); }
END_TEST
START_TEST(test_ranges_pinned_blocking) { copy_ranges(true, false); }
END_TEST
START_TEST(test_ranges_pinned_async) { copy_ranges(true, true); }
END_TEST

/* A copy of 0 bytes with an event: a marker that waits for its wait list. */
START_TEST(test_zero_bytes_event)
{
	clwarp_engine *e = test_engine(NULL);
	cl_mem buf = NULL;
	cl_event user, ev = NULL, ev2 = NULL;
	cl_int st, err;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, 16, NULL, &buf));
	user = clCreateUserEvent(clwarp_engine_context(e), &err);
	ck_assert_int_eq(err, CL_SUCCESS);
	ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, 16, 0, NULL, 1, &user, &ev));
	ck_assert_ptr_nonnull(ev);
	ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 0, 0, NULL, 0, NULL, &ev2));
	ck_assert_ptr_nonnull(ev2);
	/* Submitted, so that a driver that ignored the wait list would run
	 * the marker now. Not on Oclgrind: it runs the queue in the flushing
	 * thread, which would wait there for the user event this thread sets. */
	if (!test_on_oclgrind(e))
		clFlush(clwarp_engine_queue(e));
	ck_assert_int_eq(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL),
			 CL_SUCCESS);
	ck_assert_int_ne(st, CL_COMPLETE);
	clSetUserEventStatus(user, CL_COMPLETE);
	ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
	ck_assert_int_eq(clWaitForEvents(1, &ev2), CL_SUCCESS);
	clReleaseEvent(ev);
	clReleaseEvent(ev2);
	clReleaseEvent(user);
	clReleaseMemObject(buf);
	clwarp_engine_free(e);
}
END_TEST

static const char step_source[] =
	"kernel void advance(global uint *a, uint k) { size_t i = get_global_id(0); a[i] = a[i] * 3u + k; }\n";

/* An odd count of uints: no work-group size divides it (local NULL). */
#define RACE_N ((1u << 18) + 3u)
#define RACE_ROUNDS 6

/* write async -> kernel -> read async, several rounds queued before any
 * wait, each round on its own host memory: the kernel must see each
 * round's data, and each read the kernel's result, on every element. */
static void
race_kernel(bool pinned)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	cl_mem buf = NULL;
	uint32_t *in[RACE_ROUNDS], *out[RACE_ROUNDS];
	cl_event w[RACE_ROUNDS], run[RACE_ROUNDS], r[RACE_ROUNDS];
	size_t global = RACE_N;

	ck_assert_clwarp_ok(clwarp_program_build_source(e, step_source, "advance", NULL, &p, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "advance", &k));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, RACE_N * 4, NULL, &buf));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, buf));
	for (unsigned round = 0; round < RACE_ROUNDS; round++) {
		in[round] = (uint32_t *)host_new(e, pinned, RACE_N * 4);
		out[round] = (uint32_t *)host_new(e, pinned, RACE_N * 4);
		for (uint32_t i = 0; i < RACE_N; i++) {
			in[round][i] = i * 7u + round * 1000003u;
			out[round][i] = 0xdeadbeefu;
		}
	}
	for (unsigned round = 0; round < RACE_ROUNDS; round++) {
		uint32_t add = round + 11;

		/* Every other round says its order by events as well as by the queue. */
		ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 0, RACE_N * 4, in[round],
							      round % 2, round % 2 ? &r[round - 1] : NULL,
							      &w[round]));
		ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 1, sizeof(add), &add));
		ck_assert_clwarp_ok(clwarp_kernel_launch(k, 1, &global, NULL, &run[round]));
		ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, 0, RACE_N * 4, out[round],
							     round % 2, round % 2 ? &run[round] : NULL,
							     &r[round]));
	}
	ck_assert_int_eq(clWaitForEvents(RACE_ROUNDS, r), CL_SUCCESS);
	for (unsigned round = 0; round < RACE_ROUNDS; round++) {
		for (uint32_t i = 0; i < RACE_N; i++)
			ck_assert_msg(out[round][i] == in[round][i] * 3u + round + 11,
				      "round %u element %u: %u, expected %u", round, i, out[round][i],
				      in[round][i] * 3u + round + 11);
		clReleaseEvent(w[round]);
		clReleaseEvent(run[round]);
		clReleaseEvent(r[round]);
		host_del(e, pinned, (unsigned char *)in[round]);
		host_del(e, pinned, (unsigned char *)out[round]);
	}
	clReleaseMemObject(buf);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
}

START_TEST(test_race_kernel_malloc) { race_kernel(false); }
END_TEST
START_TEST(test_race_kernel_pinned) { race_kernel(true); }
END_TEST

/* Threads, each with an engine of its own on the same device, copying
 * at once; and threads allocating and freeing pinned blocks of one shared
 * engine. */
struct thread_job {
	clwarp_engine *shared;
	unsigned seed;
	char failure[256];
};

static void *
copier(void *arg)
{
	struct thread_job *j = arg;
	clwarp_engine *e = NULL;
	clwarp_engine_options o;
	unsigned char *src = NULL, *dst = NULL;
	cl_mem buf = NULL;
	const size_t n = 300007;

	clwarp_engine_options_init(&o);
	o.flags = CLWARP_ENGINE_NO_DISK_CACHE;
	if (clwarp_engine_new(&o, &e) != CLWARP_OK ||
	    clwarp_host_buffer_new(e, n, (void **)&src) != CLWARP_OK ||
	    clwarp_host_buffer_new(e, n, (void **)&dst) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_READ_WRITE, n, NULL, &buf) != CLWARP_OK) {
		snprintf(j->failure, sizeof(j->failure), "setup: %s", clwarp_last_error());
		goto out;
	}
	for (unsigned it = 0; it < 20 && !j->failure[0]; it++) {
		unsigned seed = j->seed * 1000 + it;
		size_t off = (it * 977u) % 1000, len = n - off - it * 13u;
		cl_event w = NULL, r = NULL;

		fill(src, len, seed);
		memset(dst, 0, n);
		if (clwarp_buffer_write_async(e, buf, off, len, src, 0, NULL, &w) != CLWARP_OK ||
		    clwarp_buffer_read_async(e, buf, off, len, dst, 1, &w, &r) != CLWARP_OK ||
		    clWaitForEvents(1, &r) != CL_SUCCESS)
			snprintf(j->failure, sizeof(j->failure), "iteration %u: %s", it, clwarp_last_error());
		else if (first_mismatch(dst, len, seed, 0) != len)
			snprintf(j->failure, sizeof(j->failure), "iteration %u: byte %zu wrong", it,
				 first_mismatch(dst, len, seed, 0));
		if (w)
			clReleaseEvent(w);
		if (r)
			clReleaseEvent(r);
	}
out:
	if (buf)
		clReleaseMemObject(buf);
	/* src and dst go with the engine. */
	clwarp_engine_free(e);
	return NULL;
}

static void *
allocator(void *arg)
{
	struct thread_job *j = arg;
	void *blocks[16] = { 0 };

	for (unsigned it = 0; it < 200 && !j->failure[0]; it++) {
		unsigned slot = (it * 7 + j->seed) % 16;
		int pinned;

		if (blocks[slot]) {
			if (((unsigned char *)blocks[slot])[0] != (unsigned char)slot ||
			    clwarp_host_buffer_pinned(j->shared, blocks[slot], &pinned) != CLWARP_OK ||
			    clwarp_host_buffer_free(j->shared, blocks[slot]) != CLWARP_OK)
				snprintf(j->failure, sizeof(j->failure), "free: %s", clwarp_last_error());
			blocks[slot] = NULL;
		} else if (clwarp_host_buffer_new(j->shared, 1 + it * 31u, &blocks[slot]) != CLWARP_OK) {
			snprintf(j->failure, sizeof(j->failure), "alloc: %s", clwarp_last_error());
		} else {
			memset(blocks[slot], (int)slot, 1 + it * 31u);
		}
	}
	for (unsigned s = 0; s < 16; s++)
		if (blocks[s] && clwarp_host_buffer_free(j->shared, blocks[s]) != CLWARP_OK)
			snprintf(j->failure, sizeof(j->failure), "free: %s", clwarp_last_error());
	return NULL;
}

START_TEST(test_threads)
{
	clwarp_engine *shared = test_engine(NULL);
	pthread_t t[4];
	struct thread_job jobs[4];

	for (unsigned i = 0; i < 4; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].shared = shared;
		jobs[i].seed = i + 1;
		ck_assert_int_eq(pthread_create(&t[i], NULL, i < 2 ? copier : allocator, &jobs[i]), 0);
	}
	for (unsigned i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		ck_assert_msg(!jobs[i].failure[0], "thread %u: %s", i, jobs[i].failure);
	}
	clwarp_engine_free(shared);
}
END_TEST

/* clwarp_engine_free with copies in flight: into the application's memory
 * they complete on their own, into the engine's pinned blocks the engine
 * waits for them. */
START_TEST(test_free_engine_in_flight)
{
	clwarp_engine *e = test_engine(NULL);
	const size_t n = 8u << 20;
	unsigned char *src = malloc(n), *dst = malloc(n), *psrc = NULL, *pdst = NULL;
	cl_mem buf = NULL;
	cl_event ev[4];
	cl_int st;

	ck_assert_clwarp_ok(clwarp_host_buffer_new(e, n, (void **)&psrc));
	ck_assert_clwarp_ok(clwarp_host_buffer_new(e, n, (void **)&pdst));
	fill(src, n, 5);
	fill(psrc, n, 6);
	memset(dst, 0, n);
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, n, NULL, &buf));
	ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 0, n, src, 0, NULL, &ev[0]));
	ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, 0, n, dst, 1, &ev[0], &ev[1]));
	ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 0, n, psrc, 0, NULL, &ev[2]));
	ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, 0, n, pdst, 0, NULL, &ev[3]));
	clwarp_engine_free(e);
	/* The engine held pinned blocks, so it waited for its queue. */
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_int_eq(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL),
				 CL_SUCCESS);
		ck_assert_int_eq(st, CL_COMPLETE);
	}
	ck_assert_uint_eq(first_mismatch(dst, n, 5, 0), n);
	for (unsigned i = 0; i < 4; i++)
		clReleaseEvent(ev[i]);

	/* An engine without blocks does not wait: the copies finish later. */
	e = test_engine(NULL);
	memset(dst, 0, n);
	fill(src, n, 7);
	clReleaseMemObject(buf);
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, n, NULL, &buf));
	ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 0, n, src, 0, NULL, &ev[0]));
	ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, 0, n, dst, 1, &ev[0], &ev[1]));
	clwarp_engine_free(e);
	ck_assert_int_eq(clWaitForEvents(2, ev), CL_SUCCESS);
	ck_assert_uint_eq(first_mismatch(dst, n, 7, 0), n);
	clReleaseEvent(ev[0]);
	clReleaseEvent(ev[1]);
	clReleaseMemObject(buf);
	free(src);
	free(dst);
}
END_TEST

/* Running out: blocks of the device's largest allocation (untouched, so
 * cheap where they are ordinary memory) until the engine refuses with a
 * message; after freeing them all, allocation works again. */
START_TEST(test_running_out)
{
	clwarp_engine *e = test_engine(NULL);
	size_t block = (size_t)clwarp_engine_device_info(e)->max_alloc_size;
	void **blocks = calloc(4096, sizeof(void *));
	size_t count = 0;
	clwarp_status s = CLWARP_OK;
	void *again = NULL;

	int pinned = 0;
	size_t tried = 0;

	if (block > ((size_t)4 << 30))
		block = (size_t)4 << 30;
	/* Pinned for real (a GPU), the limit is half the host's memory, 64 GiB
	 * on the GPU machine, which other processes of the GPU check need: try
	 * 16 GiB there, and say so (the fallback path runs out everywhere else). */
	ck_assert_clwarp_ok(clwarp_host_buffer_new(e, 4096, &again));
	ck_assert_clwarp_ok(clwarp_host_buffer_pinned(e, again, &pinned));
	ck_assert_clwarp_ok(clwarp_host_buffer_free(e, again));
	again = NULL;
	while (count < 4096) {
		if (pinned && tried + block > ((size_t)16 << 30)) {
			fprintf(stderr, "running out: pinned blocks of %zu bytes, %zu of them (%zu bytes) without running out; "
					"not run further on a device that pins for real\n", block, count, tried);
			for (size_t i = 0; i < count; i++)
				ck_assert_clwarp_ok(clwarp_host_buffer_free(e, blocks[i]));
			free(blocks);
			clwarp_engine_free(e);
			return;
		}
		tried += block;
		s = clwarp_host_buffer_new(e, block, &blocks[count]);
		if (s != CLWARP_OK)
			break;
		count++;
	}
	ck_assert_msg(s == CLWARP_ERROR_OUT_OF_MEMORY, "after %zu blocks of %zu bytes: %s (%s)", count,
		      block, clwarp_status_name(s), clwarp_last_error());
	ck_assert_msg(strstr(clwarp_last_error(), "half the host's memory") ||
			      strstr(clwarp_last_error(), "out of host memory"),
		      "message: %s", clwarp_last_error());
	ck_assert_ptr_null(blocks[count]);
	for (size_t i = 0; i < count; i++)
		ck_assert_clwarp_ok(clwarp_host_buffer_free(e, blocks[i]));
	ck_assert_clwarp_ok(clwarp_host_buffer_new(e, block, &again));
	((unsigned char *)again)[block - 1] = 1;
	ck_assert_clwarp_ok(clwarp_host_buffer_free(e, again));
	free(blocks);
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("copies", &tc);

	ADD_TEST(tc, test_host_alloc);
	ADD_TEST(tc, test_ranges_malloc_blocking);
	ADD_TEST(tc, test_ranges_malloc_async);
	ADD_TEST(tc, test_ranges_pinned_blocking);
	ADD_TEST(tc, test_ranges_pinned_async);
	ADD_TEST(tc, test_zero_bytes_event);
	ADD_TEST(tc, test_race_kernel_malloc);
	ADD_TEST(tc, test_race_kernel_pinned);
	ADD_TEST(tc, test_threads);
	ADD_TEST(tc, test_free_engine_in_flight);
	ADD_TEST(tc, test_running_out);
	return test_main(s);
}
