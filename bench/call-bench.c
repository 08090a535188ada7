/* Benchmark: the host time of every clwarp_* algorithm call beyond its
 * device commands (the target: at most 2 us above its launches;
 * docs/design/host.md).
 *
 * This program defines the OpenCL entry points that queue device work
 * (clEnqueueNDRangeKernel, clEnqueueFillBuffer, clEnqueueCopyBuffer) and
 * the waits (clFinish, clWaitForEvents), times each and forwards it to the
 * ICD loader's (dlsym(RTLD_NEXT)). libclwarp's calls resolve to these, so
 * for each algorithm call the bench knows its wall time and how much of it
 * the driver spent queueing and waiting. It times clSetKernelArg, and
 * clGetMemObjectInfo and clReleaseEvent (the argument checks' and the
 * event's driver calls) the same way. The wall time comes from a second
 * pass over the same calls in which the forwarders time nothing; "beyond"
 * is that wall time less the driver's queueing and waits: the host time
 * of the call beyond its commands (argument checks, program lookup,
 * temporaries, argument setting, event handling).
 *
 *   call-bench [-n N] [-c CALLS] [-r ROUNDS] [-o TEXT]   (defaults 1024, 500, 5)
 *
 * -o runs only the calls whose name contains TEXT.
 *
 * Each call runs 2 x CALLS times per round with an event (released at
 * once), the queue drained between passes; figures are medians over all
 * calls of all rounds. A blocking form (no event) of each call runs too: its waits
 * are left out the same way. The device is CLWARP_DEVICE's. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-util.h"
#include "clwarp/algorithms.h"
#include "clwarp/clwarp.h"

/* What the driver did inside the current call. */
static struct {
	double queue_us, wait_us, set_arg_us, other_us;
	unsigned commands;
} inside;

/* The forwarders time only while this is set: the wall time of a call is
 * taken in a pass of its own with it clear, so that their clock reads do
 * not count as the library's. */
static int timing;

static void *
next_symbol(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "call-bench: no %s after this program: %s\n", name, dlerror());
		exit(1);
	}
	return p;
}

/* Forwarders: each looks its target up once. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
		       const size_t *global, const size_t *local, cl_uint waits,
		       const cl_event *wait_list, cl_event *event)
{
	static cl_int(CL_API_CALL * next)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
					  const size_t *, const size_t *, cl_uint,
					  const cl_event *, cl_event *);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clEnqueueNDRangeKernel");
	err = next(q, k, dim, offset, global, local, waits, wait_list, event);
	if (timing)
		inside.queue_us += bench_now_us() - t0;
	inside.commands++;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern, size_t pattern_size,
		    size_t offset, size_t size, cl_uint waits, const cl_event *wait_list,
		    cl_event *event)
{
	static cl_int(CL_API_CALL * next)(cl_command_queue, cl_mem, const void *, size_t, size_t,
					  size_t, cl_uint, const cl_event *, cl_event *);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clEnqueueFillBuffer");
	err = next(q, buffer, pattern, pattern_size, offset, size, waits, wait_list, event);
	if (timing)
		inside.queue_us += bench_now_us() - t0;
	inside.commands++;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
		    size_t dst_offset, size_t size, cl_uint waits, const cl_event *wait_list,
		    cl_event *event)
{
	static cl_int(CL_API_CALL * next)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t,
					  cl_uint, const cl_event *, cl_event *);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clEnqueueCopyBuffer");
	err = next(q, src, dst, src_offset, dst_offset, size, waits, wait_list, event);
	if (timing)
		inside.queue_us += bench_now_us() - t0;
	inside.commands++;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clFinish(cl_command_queue q)
{
	static cl_int(CL_API_CALL * next)(cl_command_queue);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clFinish");
	err = next(q);
	if (timing)
		inside.wait_us += bench_now_us() - t0;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clWaitForEvents(cl_uint count, const cl_event *events)
{
	static cl_int(CL_API_CALL * next)(cl_uint, const cl_event *);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clWaitForEvents");
	err = next(count, events);
	if (timing)
		inside.wait_us += bench_now_us() - t0;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
	static cl_int(CL_API_CALL * next)(cl_kernel, cl_uint, size_t, const void *);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clSetKernelArg");
	err = next(k, index, size, value);
	if (timing)
		inside.set_arg_us += bench_now_us() - t0;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetMemObjectInfo(cl_mem mem, cl_mem_info name, size_t size, void *value, size_t *size_ret)
{
	static cl_int(CL_API_CALL * next)(cl_mem, cl_mem_info, size_t, void *, size_t *);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clGetMemObjectInfo");
	err = next(mem, name, size, value, size_ret);
	if (timing)
		inside.other_us += bench_now_us() - t0;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseEvent(cl_event event)
{
	static cl_int(CL_API_CALL * next)(cl_event);
	double t0 = timing ? bench_now_us() : 0;
	cl_int err;

	if (!next)
		*(void **)&next = next_symbol("clReleaseEvent");
	err = next(event);
	if (timing)
		inside.other_us += bench_now_us() - t0;
	return err;
}

/* ---- the calls ------------------------------------------------------- */

struct data {
	clwarp_engine *e;
	size_t n, rows, row_length;
	cl_mem floats, uints, keys, values, out, out2, small;
};

typedef clwarp_status (*call_fn)(const struct data *d, cl_event *event);

static clwarp_status
do_reduce(const struct data *d, cl_event *ev)
{
	return clwarp_reduce(d->e, CLWARP_TYPE_FLOAT, d->floats, d->small, d->n, CLWARP_OP_ADD, ev);
}

static clwarp_status
do_scan(const struct data *d, cl_event *ev)
{
	return clwarp_scan(d->e, CLWARP_TYPE_FLOAT, d->floats, d->out, d->n, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, ev);
}

static clwarp_status
do_compact(const struct data *d, cl_event *ev)
{
	return clwarp_compact(d->e, CLWARP_TYPE_FLOAT, d->floats, d->out, d->small, d->n, "x > 0",
			      ev);
}

static clwarp_status
do_partition(const struct data *d, cl_event *ev)
{
	return clwarp_partition(d->e, CLWARP_TYPE_FLOAT, d->floats, d->out, d->small, d->n, "x > 0",
				0, ev);
}

static clwarp_status
do_unique(const struct data *d, cl_event *ev)
{
	return clwarp_unique(d->e, CLWARP_TYPE_UINT, d->uints, d->out, d->small, d->n, ev);
}

static clwarp_status
do_rle(const struct data *d, cl_event *ev)
{
	return clwarp_run_length_encode(d->e, CLWARP_TYPE_UINT, d->uints, d->out, d->out2, d->small,
					d->n, ev);
}

static clwarp_status
do_reduce_by_key(const struct data *d, cl_event *ev)
{
	return clwarp_reduce_by_key(d->e, CLWARP_TYPE_UINT, CLWARP_TYPE_FLOAT, d->uints, d->floats,
				    d->out, d->out2, d->small, d->n, CLWARP_OP_ADD, ev);
}

static clwarp_status
do_histogram(const struct data *d, cl_event *ev)
{
	const cl_uint lower = 0, upper = 256;

	return clwarp_histogram(d->e, CLWARP_TYPE_UINT, d->uints, d->out2, d->n, 256, &lower,
				&upper, ev);
}

static clwarp_status
do_segmented_reduce(const struct data *d, cl_event *ev)
{
	return clwarp_segmented_reduce(d->e, CLWARP_TYPE_FLOAT, d->floats, d->out, d->rows,
				       d->row_length, CLWARP_OP_ADD, ev);
}

static clwarp_status
do_segmented_scan(const struct data *d, cl_event *ev)
{
	return clwarp_segmented_scan(d->e, CLWARP_TYPE_FLOAT, d->floats, d->out, d->rows,
				     d->row_length, CLWARP_OP_ADD, CLWARP_SCAN_INCLUSIVE, ev);
}

static clwarp_status
do_softmax(const struct data *d, cl_event *ev)
{
	return clwarp_softmax_rows(d->e, d->floats, d->out, d->rows, d->row_length, ev);
}

static clwarp_status
do_sort_keys(const struct data *d, cl_event *ev)
{
	return clwarp_sort_keys(d->e, CLWARP_TYPE_UINT, d->keys, d->n, 0, ev);
}

static clwarp_status
do_sort_pairs(const struct data *d, cl_event *ev)
{
	return clwarp_sort_pairs(d->e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, d->keys, d->values, d->n,
				 0, ev);
}

static const struct {
	const char *name;
	call_fn fn;
} calls[] = {
	{ "clwarp_reduce (float add)", do_reduce },
	{ "clwarp_scan (float add, inclusive)", do_scan },
	{ "clwarp_compact (x > 0)", do_compact },
	{ "clwarp_partition (x > 0)", do_partition },
	{ "clwarp_unique (uint)", do_unique },
	{ "clwarp_run_length_encode (uint)", do_rle },
	{ "clwarp_reduce_by_key (uint, float add)", do_reduce_by_key },
	{ "clwarp_histogram (uint, 256 bins)", do_histogram },
	{ "clwarp_segmented_reduce (float add)", do_segmented_reduce },
	{ "clwarp_segmented_scan (float add)", do_segmented_scan },
	{ "clwarp_softmax_rows", do_softmax },
	{ "clwarp_sort_keys (uint)", do_sort_keys },
	{ "clwarp_sort_pairs (uint, uint)", do_sort_pairs },
};
#define CALLS (sizeof(calls) / sizeof(calls[0]))

/* Figures of one call in one form, medians over every call made. */
struct figures {
	double wall, queue, wait, set_arg, other, beyond;
	unsigned commands;
};

static int
measure(const struct data *d, call_fn fn, int with_event, int per_round, int rounds,
	struct figures *f)
{
	size_t count = (size_t)per_round * (size_t)rounds, i = 0, j = 0;
	double *wall = malloc(count * sizeof(double)), *queue = malloc(count * sizeof(double));
	double *wait = malloc(count * sizeof(double)), *set_arg = malloc(count * sizeof(double));
	double *other = malloc(count * sizeof(double));
	int ok = wall && queue && wait && set_arg && other;

	/* Each round: the calls once with the driver calls timed, once with
	 * only the wall time taken. */
	for (int r = 0; ok && r < rounds; r++) {
		timing = 1;
		for (int c = 0; ok && c < per_round; c++, i++) {
			cl_event ev = NULL;

			memset(&inside, 0, sizeof(inside));
			ok = fn(d, with_event ? &ev : NULL) == CLWARP_OK;
			if (ev)
				clReleaseEvent(ev);
			queue[i] = inside.queue_us;
			wait[i] = inside.wait_us;
			set_arg[i] = inside.set_arg_us;
			other[i] = inside.other_us;
			f->commands = inside.commands;
		}
		timing = 0;
		clFinish(clwarp_engine_queue(d->e));
		for (int c = 0; ok && c < per_round; c++, j++) {
			cl_event ev = NULL;
			double t0 = bench_now_us();

			ok = fn(d, with_event ? &ev : NULL) == CLWARP_OK;
			wall[j] = bench_now_us() - t0;
			if (ev)
				clReleaseEvent(ev);
		}
		clFinish(clwarp_engine_queue(d->e));
	}
	if (ok) {
		f->wall = bench_median(wall, (int)count);
		f->queue = bench_median(queue, (int)count);
		f->wait = bench_median(wait, (int)count);
		f->set_arg = bench_median(set_arg, (int)count);
		f->other = bench_median(other, (int)count);
		f->beyond = f->wall - f->queue - f->wait;
	}
	free(wall);
	free(queue);
	free(wait);
	free(set_arg);
	free(other);
	return ok ? 0 : -1;
}

static int
make_data(struct data *d)
{
	size_t n = d->n;
	float *f = malloc(n * sizeof(float));
	cl_uint *u = malloc(n * sizeof(cl_uint));
	int ok = f && u;

	for (size_t i = 0; ok && i < n; i++) {
		f[i] = (float)((int)(i * 2654435761u % 2001u) - 1000) / 100.0f;
		u[i] = (cl_uint)(i / 4 % 256);  /* runs of 4, within 256 bins */
	}
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE, n * sizeof(float),
				     f, &d->floats) == CLWARP_OK;
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE,
				     n * sizeof(cl_uint), u, &d->uints) == CLWARP_OK;
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE,
				     n * sizeof(cl_uint), u, &d->keys) == CLWARP_OK;
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE,
				     n * sizeof(cl_uint), u, &d->values) == CLWARP_OK;
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &d->out) ==
			   CLWARP_OK;
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &d->out2) ==
			   CLWARP_OK;
	ok = ok && clwarp_buffer_new(d->e, CL_MEM_READ_WRITE, 16, NULL, &d->small) == CLWARP_OK;
	free(f);
	free(u);
	return ok ? 0 : -1;
}

static void
release(cl_mem m)
{
	if (m)
		clReleaseMemObject(m);
}

int
main(int argc, char **argv)
{
	struct data d = { .n = 1024 };
	int per_round = 500, rounds = 5, opt;
	const char *only = NULL;
	clwarp_engine_options o;
	clwarp_backend backend;
	unsigned warp;

	while ((opt = getopt(argc, argv, "n:c:r:o:")) != -1) {
		long v = strtol(optarg, NULL, 10);

		if (opt == 'o') {
			only = optarg;
			continue;
		}
		if (v < 1) {
			fprintf(stderr, "call-bench: -%c needs a number of at least 1\n", opt);
			return 2;
		}
		if (opt == 'n')
			d.n = (size_t)v;
		else if (opt == 'c')
			per_round = (int)v;
		else if (opt == 'r')
			rounds = (int)v;
		else
			return 2;
	}
	if (optind < argc || d.n < 16) {
		fprintf(stderr, "usage: call-bench [-n N (at least 16)] [-c CALLS] [-r ROUNDS] [-o TEXT]\n");
		return 2;
	}
	d.row_length = 16;
	d.rows = d.n / d.row_length;
	clwarp_engine_options_init(&o);
	if (clwarp_engine_new(&o, &d.e) != CLWARP_OK ||
	    clwarp_engine_backend(d.e, &backend, &warp) != CLWARP_OK || make_data(&d) != 0) {
		fprintf(stderr, "call-bench: %s\n", clwarp_last_error());
		return 1;
	}
	printf("device: %s (%s), backend %s, warp size %u\n", clwarp_engine_device_info(d.e)->name,
	       clwarp_engine_device_info(d.e)->platform_name, clwarp_backend_name(backend), warp);
	printf("n = %zu (rows: %zu x %zu); %d rounds of %d calls per form; medians, us per call\n",
	       d.n, d.rows, d.row_length, rounds, per_round);
	printf("beyond = wall - queueing - waits: the host time beyond the commands (set_arg,\n"
	       "other driver calls: mem info and event release, and the library's own code)\n\n");
	printf("%-40s %-8s %4s %9s %9s %9s %9s %9s %9s\n", "call", "form", "cmds", "wall",
	       "queueing", "waits", "set_arg", "other", "beyond");
	for (size_t c = 0; c < CALLS; c++) {
		if (only && !strstr(calls[c].name, only))
			continue;
		for (int with_event = 1; with_event >= 0; with_event--) {
			struct figures f = { 0 };

			/* a first call builds the program: not timed */
			if (calls[c].fn(&d, NULL) != CLWARP_OK ||
			    measure(&d, calls[c].fn, with_event, per_round, rounds, &f) != 0) {
				fprintf(stderr, "call-bench: %s: %s\n", calls[c].name, clwarp_last_error());
				return 1;
			}
			printf("%-40s %-8s %4u %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n", calls[c].name,
			       with_event ? "event" : "blocking", f.commands, f.wall, f.queue, f.wait,
			       f.set_arg, f.other, f.beyond);
		}
	}
	release(d.floats);
	release(d.uints);
	release(d.keys);
	release(d.values);
	release(d.out);
	release(d.out2);
	release(d.small);
	clwarp_engine_free(d.e);
	return 0;
}
