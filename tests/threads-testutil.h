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

#endif
