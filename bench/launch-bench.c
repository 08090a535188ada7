/* Benchmark: host cost per kernel launch, libclwarp against raw OpenCL on the
 * same cl_kernel, in three forms: queued without an event, queued with an
 * event (released at once), and blocking. Each row is the median over
 * ROUNDS rounds of BATCH launches (the batch's wall time, its last clFinish
 * included, divided by BATCH); the forms take turns within every round, so
 * both sides of a ratio see the same machine state.
 *   launch-bench [BATCH [ROUNDS]]     (default 2000 and 9)
 * Last, a whole clwarp_reduce of 1024 floats (with an event, and blocking)
 * against the raw launch of the empty kernel in the same form.
 * The device is CLWARP_DEVICE's, as for every engine. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clwarp/clwarp.h"

/* A warp kernel that does almost nothing: the launch path's checks apply
 * (a warp function is used) and the device time stays small. */
static const char *source = "kernel void empty(global int *out)\n"
			    "{ if (warp_reduce_add(1) == 0) out[0] = 1; }\n";

enum form {
	RAW_ASYNC, LIB_ASYNC, RAW_EVENT, LIB_EVENT, RAW_BLOCKING, LIB_BLOCKING,
	REDUCE_EVENT, REDUCE_BLOCKING, FORMS
};

static const char *const form_names[FORMS] = {
	"raw clEnqueueNDRangeKernel, no event", "clwarp_kernel_enqueue",
	"raw enqueue + event release",          "clwarp_kernel_launch + event release",
	"raw enqueue + clFinish",               "clwarp_kernel_launch (blocking)",
	"clwarp_reduce, 1024 floats, event",    "clwarp_reduce, 1024 floats, blocking",
};

struct bench {
	clwarp_engine *e;
	cl_mem floats, sum;
	clwarp_kernel *k;
	cl_kernel raw;
	cl_command_queue q;
	size_t global, local;
};

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int
one_launch(const struct bench *b, enum form f)
{
	cl_event ev = NULL;

	switch (f) {
	case RAW_ASYNC:
		return clEnqueueNDRangeKernel(b->q, b->raw, 1, NULL, &b->global, &b->local, 0, NULL, NULL);
	case LIB_ASYNC:
		return clwarp_kernel_enqueue(b->k, 1, &b->global, &b->local);
	case RAW_EVENT:
		if (clEnqueueNDRangeKernel(b->q, b->raw, 1, NULL, &b->global, &b->local, 0, NULL, &ev))
			return 1;
		return clReleaseEvent(ev);
	case LIB_EVENT:
		if (clwarp_kernel_launch(b->k, 1, &b->global, &b->local, &ev))
			return 1;
		return clReleaseEvent(ev);
	case RAW_BLOCKING:
		if (clEnqueueNDRangeKernel(b->q, b->raw, 1, NULL, &b->global, &b->local, 0, NULL, NULL))
			return 1;
		return clFinish(b->q);
	case LIB_BLOCKING:
		return clwarp_kernel_launch(b->k, 1, &b->global, &b->local, NULL);
	case REDUCE_EVENT:
		if (clwarp_reduce(b->e, CLWARP_TYPE_FLOAT, b->floats, b->sum, 1024, CLWARP_OP_ADD,
				&ev))
			return 1;
		return clReleaseEvent(ev);
	case REDUCE_BLOCKING:
		return clwarp_reduce(b->e, CLWARP_TYPE_FLOAT, b->floats, b->sum, 1024,
				CLWARP_OP_ADD, NULL);
	default:
		return 1;
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	int batch = argc > 1 ? atoi(argv[1]) : 2000, rounds = argc > 2 ? atoi(argv[2]) : 9;
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_program *p = NULL;
	struct bench b = { .global = 64, .local = 64 };
	cl_mem out = NULL;
	double *us[FORMS], median[FORMS];
	clwarp_backend backend;
	unsigned warp;

	if (batch < 1 || rounds < 1) {
		fprintf(stderr, "usage: launch-bench [BATCH [ROUNDS]] (both at least 1)\n");
		return 2;
	}
	clwarp_engine_options_init(&o);
	if (clwarp_engine_new(&o, &e) != CLWARP_OK || clwarp_engine_backend(e, &backend, &warp) != CLWARP_OK ||
	    clwarp_program_build_source(e, source, "empty.cl", NULL, &p, NULL) != CLWARP_OK ||
	    clwarp_kernel_new(p, "empty", &b.k) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, sizeof(int), NULL, &out) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(b.k, 0, out) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_READ_WRITE, 1024 * sizeof(float), NULL, &b.floats) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_READ_WRITE, sizeof(float), NULL, &b.sum) != CLWARP_OK ||
	    clwarp_reduce(e, CLWARP_TYPE_FLOAT, b.floats, b.sum, 1024, CLWARP_OP_ADD, NULL) != CLWARP_OK ||
	    /* the first launch sets the hidden scratch argument the raw calls reuse */
	    clwarp_kernel_launch(b.k, 1, &b.global, &b.local, NULL) != CLWARP_OK) {
		fprintf(stderr, "launch-bench: %s\n", clwarp_last_error());
		return 1;
	}
	b.e = e;
	b.raw = clwarp_kernel_cl(b.k);
	b.q = clwarp_engine_queue(e);
	for (int f = 0; f < FORMS; f++)
		us[f] = calloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		for (int f = 0; f < FORMS; f++) {
			double t0 = now_us();

			for (int i = 0; i < batch; i++) {
				if (one_launch(&b, (enum form)f) != 0) {
					fprintf(stderr, "launch-bench: %s failed: %s\n", form_names[f],
						clwarp_last_error());
					return 1;
				}
			}
			clFinish(b.q);
			us[f][r] = (now_us() - t0) / batch;
		}
	}
	for (int f = 0; f < FORMS; f++) {
		qsort(us[f], (size_t)rounds, sizeof(double), cmp_double);
		median[f] = us[f][rounds / 2];
	}
	printf("device: %s (%s), backend %s, warp size %u\n", clwarp_engine_device_info(e)->name,
	       clwarp_engine_device_info(e)->platform_name, clwarp_backend_name(backend), warp);
	printf("%d rounds of %d launches of an empty warp kernel (global %zu, local %zu); medians\n\n",
	       rounds, batch, b.global, b.local);
	printf("%-40s %12s %12s\n", "form", "us/launch", "lib/raw");
	for (int f = 0; f < REDUCE_EVENT; f++) {
		if (f % 2 == 0)
			printf("%-40s %12.3f\n", form_names[f], median[f]);
		else
			printf("%-40s %12.3f %12.3f\n", form_names[f], median[f], median[f] / median[f - 1]);
	}
	/* A whole algorithm call against one raw launch of the empty kernel:
	 * the call's host work plus its kernel's run above the launch floor. */
	printf("\n%-40s %12s %12s\n", "algorithm call", "us/call", "vs raw");
	printf("%-40s %12.3f %12.3f\n", form_names[REDUCE_EVENT], median[REDUCE_EVENT],
	       median[REDUCE_EVENT] / median[RAW_EVENT]);
	printf("%-40s %12.3f %12.3f\n", form_names[REDUCE_BLOCKING], median[REDUCE_BLOCKING],
	       median[REDUCE_BLOCKING] / median[RAW_BLOCKING]);
	for (int f = 0; f < FORMS; f++)
		free(us[f]);
	clReleaseMemObject(out);
	clReleaseMemObject(b.floats);
	clReleaseMemObject(b.sum);
	clwarp_kernel_free(b.k);
	clwarp_engine_free(e);
	return 0;
}
