/* Staged copies among kernels and threads, part of test-staging: copies on
 * the queue that runs the kernels, several threads at once, the engine
 * freed with copies and kernels queued. */
/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include <pthread.h>
#include <stdint.h>

#include "test-staging.h"

static const char step_source[] =
	"kernel void advance(global uint *a, uint k) { size_t i = get_global_id(0); a[i] = a[i] * 3u + k; }\n";

#define RACE_N ((1u << 16) + 3u)

static clwarp_kernel *
advance_kernel(clwarp_engine *e, clwarp_program **p, cl_mem buf)
{
	clwarp_kernel *k = NULL;

	if (!*p)
		ck_assert_clwarp_ok(clwarp_program_build_source(e, step_source, "advance", NULL, p, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(*p, "advance", &k));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, buf));
	return k;
}

/* Queue a launch of `k` with `add`, without waiting (the event is dropped). */
static void
advance(clwarp_kernel *k, uint32_t add)
{
	size_t global = RACE_N;
	cl_event ev = NULL;

	ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 1, sizeof(add), &add));
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, 1, &global, NULL, &ev));
	clReleaseEvent(ev);
}

static void
check_words(const uint32_t *got, const uint32_t *want, const char *what)
{
	for (uint32_t i = 0; i < RACE_N; i++)
		ck_assert_msg(got[i] == want[i], "%s: element %u is %u, expected %u", what, i, got[i], want[i]);
}

/* Staged copies on the queue that runs the kernels, never waited for in
 * between: a staged read sees every kernel queued before it, a staged
 * write lands after them. */
START_TEST(test_race_same_queue)
{
	clwarp_engine *e = staging_engine(knobs[0]);
	clwarp_program *p = NULL;
	cl_mem a = NULL, b = NULL;
	clwarp_kernel *ka, *kb;
	uint32_t *in = malloc(RACE_N * 4), *mb = malloc(RACE_N * 4), *out = malloc(RACE_N * 4);
	uint32_t *ma = malloc(RACE_N * 4);

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, RACE_N * 4, NULL, &a));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, RACE_N * 4, NULL, &b));
	ka = advance_kernel(e, &p, a);
	kb = advance_kernel(e, &p, b);
	for (uint32_t i = 0; i < RACE_N; i++)
		mb[i] = i ^ 0x5a5a5a5au;
	ck_assert_clwarp_ok(clwarp_buffer_write(e, b, 0, RACE_N * 4, mb));
	for (uint32_t round = 0; round < 4; round++) {
		for (uint32_t i = 0; i < RACE_N; i++)
			in[i] = i * 7u + round * 1000003u;
		advance(ka, 99);  /* overwritten by the write below, once it has run */
		advance(kb, round);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, a, 0, RACE_N * 4, in));
		advance(ka, round + 1);
		advance(kb, round + 7);
		for (uint32_t i = 0; i < RACE_N; i++) {
			ma[i] = in[i] * 3u + round + 1;
			mb[i] = (mb[i] * 3u + round) * 3u + round + 7;
		}
		ck_assert_clwarp_ok(clwarp_buffer_read(e, a, 0, RACE_N * 4, out));
		check_words(out, ma, "buffer a");
		advance(kb, 1);
		for (uint32_t i = 0; i < RACE_N; i++)
			mb[i] = mb[i] * 3u + 1;
		/* An odd part of b, at an odd word. */
		memset(out, 0, RACE_N * 4);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, b, 4 * 333, (RACE_N - 333) * 4, out + 333));
		memcpy(out, mb, 333 * 4);
		check_words(out, mb, "buffer b");
	}
	clwarp_kernel_free(ka);
	clwarp_kernel_free(kb);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	free(in);
	free(ma);
	free(mb);
	free(out);
	clwarp_engine_free(e);
}
END_TEST

/* Threads at once: two copying through one engine's chunks (so they
 * lease against each other), one launching kernels on that engine's queue,
 * one with an engine of its own (another queue) launching kernels and
 * copying. */
struct job {
	clwarp_engine *e;
	clwarp_kernel *k;     /* kernel threads: advance on buf */
	cl_mem buf;
	unsigned seed;
	char failure[256];
};

static void *
copier(void *arg)
{
	struct job *j = arg;
	unsigned char *src = malloc(N_BYTES), *dst = malloc(N_BYTES);

	for (unsigned it = 0; it < 12 && !j->failure[0]; it++) {
		size_t off = (it * 977u) % 1000, n = N_BYTES - off - it * 13u;

		fill(src, n, j->seed * 100 + it);
		memset(dst, 0, n);
		if (clwarp_buffer_write(j->e, j->buf, off, n, src) != CLWARP_OK ||
		    clwarp_buffer_read(j->e, j->buf, off, n, dst) != CLWARP_OK)
			snprintf(j->failure, sizeof(j->failure), "iteration %u: %s", it, clwarp_last_error());
		else if (first_diff(dst, src, n) != n)
			snprintf(j->failure, sizeof(j->failure), "iteration %u: byte %zu wrong", it,
				 first_diff(dst, src, n));
	}
	free(src);
	free(dst);
	return NULL;
}

static void *
launcher(void *arg)
{
	struct job *j = arg;
	uint32_t *model = malloc(RACE_N * 4), *out = malloc(RACE_N * 4);
	size_t global = RACE_N;

	for (uint32_t i = 0; i < RACE_N; i++)
		model[i] = i + j->seed;
	if (clwarp_buffer_write(j->e, j->buf, 0, RACE_N * 4, model) != CLWARP_OK)
		snprintf(j->failure, sizeof(j->failure), "write: %s", clwarp_last_error());
	for (uint32_t round = 0; round < 8 && !j->failure[0]; round++) {
		for (uint32_t l = 0; l < 4 && !j->failure[0]; l++) {
			uint32_t add = round * 4 + l;

			if (clwarp_kernel_set_arg_scalar(j->k, 1, sizeof(add), &add) != CLWARP_OK ||
			    clwarp_kernel_enqueue(j->k, 1, &global, NULL) != CLWARP_OK)
				snprintf(j->failure, sizeof(j->failure), "launch: %s", clwarp_last_error());
			for (uint32_t i = 0; i < RACE_N; i++)
				model[i] = model[i] * 3u + add;
		}
		if (!j->failure[0] && clwarp_buffer_read(j->e, j->buf, 0, RACE_N * 4, out) != CLWARP_OK)
			snprintf(j->failure, sizeof(j->failure), "read: %s", clwarp_last_error());
		for (uint32_t i = 0; i < RACE_N && !j->failure[0]; i++)
			if (out[i] != model[i])
				snprintf(j->failure, sizeof(j->failure), "round %u element %u: %u, expected %u",
					 round, i, out[i], model[i]);
	}
	free(model);
	free(out);
	return NULL;
}

START_TEST(test_race_threads)
{
	clwarp_engine *shared = staging_engine(knobs[_i]), *own = staging_engine(knobs[_i]);
	clwarp_program *ps = NULL, *po = NULL;
	struct job jobs[5];
	pthread_t t[5];
	unsigned before = atomic_load(&staged_copies);

	if (on_oclgrind()) {
		fprintf(stderr, "test_race_threads: not run on Oclgrind (host threads flushing at once crash it)\n");
		clwarp_engine_free(shared);
		clwarp_engine_free(own);
		return;
	}
	memset(jobs, 0, sizeof(jobs));
	for (unsigned i = 0; i < 5; i++) {
		jobs[i].e = i < 3 ? shared : own;
		jobs[i].seed = i + 1;
		ck_assert_clwarp_ok(clwarp_buffer_new(jobs[i].e, CL_MEM_READ_WRITE, N_BYTES, NULL, &jobs[i].buf));
	}
	jobs[2].k = advance_kernel(shared, &ps, jobs[2].buf);
	jobs[3].k = advance_kernel(own, &po, jobs[3].buf);
	for (unsigned i = 0; i < 5; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, jobs[i].k ? launcher : copier, &jobs[i]), 0);
	for (unsigned i = 0; i < 5; i++) {
		pthread_join(t[i], NULL);
		ck_assert_msg(!jobs[i].failure[0], "%s, thread %u: %s", knobs[_i], i, jobs[i].failure);
	}
	ck_assert_uint_gt(atomic_load(&staged_copies) - before, 0);
	for (unsigned i = 0; i < 5; i++) {
		clwarp_kernel_free(jobs[i].k);
		clReleaseMemObject(jobs[i].buf);
	}
	clwarp_engine_free(shared);
	clwarp_engine_free(own);
}
END_TEST

/* clwarp_engine_free right after staged copies, with asynchronous copies
 * and kernels still queued: everything queued completes, the chunks go. */
START_TEST(test_free_in_flight)
{
	clwarp_engine *e = staging_engine(knobs[0]);
	clwarp_program *p = NULL;
	clwarp_kernel *k;
	cl_mem buf = NULL;
	uint32_t *in = malloc(RACE_N * 4), *out = malloc(RACE_N * 4), *want = malloc(RACE_N * 4);
	cl_event ev[2];

	for (uint32_t i = 0; i < RACE_N; i++) {
		in[i] = i * 2654435761u;
		want[i] = in[i] * 3u + 5;
		out[i] = 0;
	}
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, RACE_N * 4, NULL, &buf));
	k = advance_kernel(e, &p, buf);
	ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, 0, RACE_N * 4, in));
	advance(k, 5);
	ck_assert_clwarp_ok(clwarp_buffer_read_async(e, buf, 0, RACE_N * 4, out, 0, NULL, &ev[0]));
	ck_assert_clwarp_ok(clwarp_buffer_write_async(e, buf, 0, 4, in, 1, &ev[0], &ev[1]));
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
	ck_assert_int_eq(clWaitForEvents(2, ev), CL_SUCCESS);
	check_words(out, want, "read after the engine was freed");
	clReleaseEvent(ev[0]);
	clReleaseEvent(ev[1]);
	clReleaseMemObject(buf);
	free(in);
	free(out);
	free(want);
}
END_TEST

void
staging_add_race_tests(TCase *tc, bool (*wanted)(const char *name), int knob_count)
{
	if (wanted("test_race_same_queue"))
		tcase_add_test(tc, test_race_same_queue);
	if (wanted("test_race_threads"))
		tcase_add_loop_test(tc, test_race_threads, 0, knob_count);
	if (wanted("test_free_in_flight"))
		tcase_add_test(tc, test_free_in_flight);
}
