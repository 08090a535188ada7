/* What the thread stress cases share: one thread's rounds, the folders they use, the report. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_THREADS_TESTUTIL_H
#define CLWARP_THREADS_TESTUTIL_H

#include <pthread.h>
#include <stdbool.h>

#include "testutil.h"

#define MAX_THREADS 32

enum { BUILDS, COMPILED, DISK, MEMORY, LOOKUPS, LAUNCHES, TRANSFERS, ALGORITHMS, QUERIES, ERRORS,
       ENGINES, COUNTS };

/*
 * One thread (tests/test-threads.c, worker_main). With `engine` set, the
 * thread works on that engine, shared with the others. With `own_engine`,
 * it makes engines of its own: in round 0 and then every third round
 * (staggered by thread), freeing the one before, and frees the last one
 * at the end. With `context` set it makes them with
 * clwarp_engine_new_from_cl() on that context, `device` and `queue` (NULL:
 * the engine makes its own), else with clwarp_engine_new(&options); either
 * way they must be on `device`.
 */
struct worker {
	int id, rounds;
	clwarp_engine *engine;
	bool own_engine;
	clwarp_engine_options options;
	cl_context context;
	cl_device_id device;
	cl_command_queue queue;
	pthread_barrier_t *barrier;
	const char *dir;         /* the include folder */
	clwarp_backend backend;  /* what this thread was told */
	unsigned warp;
	unsigned long n[COUNTS];
	bool ok;
	char why[1024];
};

/*
 * A case's folders: the include folder `inc` with common.h, shared.cl and
 * one tN.cl per thread, and a fresh disk cache folder `cache` where a
 * first engine left two programs. `engine` is an engine on the default
 * device with that cache; NULL when the device is Oclgrind (the case then
 * skips itself).
 */
struct threads_case {
	int threads, rounds;
	char *dir, *cache, inc[2048];
	bool inc_shared;            /* inc is the fixed folder of every run (CLWARP_TEST_TMPDIR) */
	clwarp_engine *engine;
};

void threads_case_setup(struct threads_case *c);
void threads_case_teardown(struct threads_case *c);
/* Start c->threads threads on `workers` (filled in by the caller), join them and
 * fail the test with the first failure of any thread. */
void threads_case_run(struct threads_case *c, struct worker *workers);
/* Every thread saw the backend and warp width `backend`/`warp`; print the case's figures. */
void threads_case_report(const struct threads_case *c, const char *what, const struct worker *workers,
			 clwarp_backend backend, unsigned warp);

void threads_engines_add(TCase *tc);

/* One round of one thread: its data and objects, released by round_free(). */
struct round {
	int number;
	size_t n;
	int *in, *out, *want;
	cl_mem bin, bout, bres;
	clwarp_program *shared, *own, *file, *own_file;
	clwarp_kernel *scale, *wsum, *own_k, *fk, *fk_own;
};

/* No ck_assert in the threads (Check's no-fork mode longjmps): a thread
 * records its first failure and stops; the main thread reports it.
 * threads_give_up records it (if it is the first) and returns false. */
bool threads_give_up(struct worker *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define CALL(t, expr)                                                                     \
	do {                                                                              \
		clwarp_status s_ = (expr);                                                \
		if (s_ != CLWARP_OK)                                                      \
			return threads_give_up((t), "line %d: %s: %s (%s)", __LINE__, #expr, \
					       clwarp_status_name(s_), clwarp_last_error()); \
	} while (0)
#define CHECK(t, cond, ...)                                                               \
	do {                                                                              \
		if (!(cond))                                                              \
			return threads_give_up((t), __VA_ARGS__);                         \
	} while (0)

/* r->out against r->want, element by element. */
bool threads_same(struct worker *t, const struct round *r, const char *what, size_t n);

/* tests/test-threads-algorithms.c: the round's algorithm calls on the
 * thread's engine, and host memory from it, every value checked. */
bool threads_algorithms(struct worker *t, struct round *r);

#endif
