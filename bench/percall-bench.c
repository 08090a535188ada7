/* Benchmark: what one algorithm call asks of the OpenCL driver, call by
 * call: the entry points it calls (counted per function), the commands it
 * enqueues, and the host time it spends outside the driver
 * (docs/design/host.md).
 *
 * This program defines the OpenCL entry points that libclwarp may call
 * per algorithm call (below, FORWARD) as counting, timed forwarders to the
 * ICD loader's (dlsym(RTLD_NEXT)); it is linked with export_dynamic, so
 * libclwarp's calls resolve to them. A call's "outside" time is its wall
 * time less the time spent inside those forwarders (their own clock reads
 * count as inside): the host time of libclwarp itself.
 *
 *   percall-bench [-c CALLS] [-r ROUNDS] [-o TEXT]   (defaults 2000, 5)
 *
 * Cases: the copy kernel through clwarp_kernel_enqueue (the floor: one
 * enqueue, arguments set once, no event), the same launch with an event
 * (clwarp_kernel_launch, released at once), and float reduce (add), inclusive scan
 * (add) and compaction (x > 0), each at n = 1024 (one work-group) and
 * n = 2^20 (look-back), in the back-to-back pattern of algorithms-bench:
 * device buffers in and out, the call's event asked for and released at
 * once, no wait; the queue is drained between rounds. Counts are per
 * call, from the last round (every round makes the same calls); times are
 * medians over all calls of all rounds (the three columns are medians
 * each, so wall need not be inside + outside). -o runs only cases whose name
 * contains TEXT. The device is CLWARP_DEVICE's. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clwarp/algorithms.h"
#include "bench-util.h"
#include "clwarp/clwarp.h"

static void *
next_symbol(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "percall-bench: no %s after this program: %s\n", name, dlerror());
		exit(1);
	}
	return p;
}

/* The forwarded entry points; ENQ marks those that queue a command. */
#define ENTRY_POINTS(X)                                                                           \
	X(clSetKernelArg, 0) X(clEnqueueNDRangeKernel, 1) X(clEnqueueFillBuffer, 1)                 \
	X(clEnqueueCopyBuffer, 1) X(clEnqueueWriteBuffer, 1) X(clEnqueueReadBuffer, 1)              \
	X(clEnqueueMarkerWithWaitList, 1) X(clEnqueueBarrierWithWaitList, 1) X(clFlush, 0)          \
	X(clFinish, 0) X(clWaitForEvents, 0) X(clRetainEvent, 0) X(clReleaseEvent, 0)               \
	X(clGetEventInfo, 0) X(clCreateBuffer, 0) X(clReleaseMemObject, 0)                          \
	X(clGetMemObjectInfo, 0) X(clGetDeviceInfo, 0) X(clGetKernelWorkGroupInfo, 0)               \
	X(clGetKernelSubGroupInfo, 0) X(clCreateKernel, 0) X(clReleaseKernel, 0)                    \
	X(clCreateProgramWithSource, 0) X(clBuildProgram, 0)

#define ENUM_ENTRY(name, enq) E_##name,
enum { ENTRY_POINTS(ENUM_ENTRY) N_ENTRIES };
#define NAME_ENTRY(name, enq) #name,
static const char *const entry_names[] = { ENTRY_POINTS(NAME_ENTRY) };
#define ENQ_ENTRY(name, enq) enq,
static const int entry_enqueues[] = { ENTRY_POINTS(ENQ_ENTRY) };

/* What the driver did inside the current algorithm call. */
static struct {
	unsigned count[N_ENTRIES];
	double inside_us;
} cur;

#define FORWARD(ret, name, params, args)                                                          \
	CL_API_ENTRY ret CL_API_CALL name params                                                  \
	{                                                                                         \
		static ret(CL_API_CALL * next) params;                                             \
		double t0 = bench_now_us();                                                              \
		ret result_;                                                                       \
                                                                                                  \
		if (!next)                                                                         \
			*(void **)&next = next_symbol(#name);                                      \
		result_ = next args;                                                                     \
		cur.count[E_##name]++;                                                             \
		cur.inside_us += bench_now_us() - t0;                                                    \
		return result_;                                                                    \
	}

FORWARD(cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
FORWARD(cl_int, clEnqueueNDRangeKernel,
	(cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g,
	 const size_t *l, cl_uint nw, const cl_event *w, cl_event *e),
	(q, k, d, o, g, l, nw, w, e))
FORWARD(cl_int, clEnqueueFillBuffer,
	(cl_command_queue q, cl_mem b, const void *p, size_t ps, size_t o, size_t s, cl_uint nw,
	 const cl_event *w, cl_event *e),
	(q, b, p, ps, o, s, nw, w, e))
FORWARD(cl_int, clEnqueueCopyBuffer,
	(cl_command_queue q, cl_mem a, cl_mem b, size_t ao, size_t bo, size_t s, cl_uint nw,
	 const cl_event *w, cl_event *e),
	(q, a, b, ao, bo, s, nw, w, e))
FORWARD(cl_int, clEnqueueWriteBuffer,
	(cl_command_queue q, cl_mem b, cl_bool bl, size_t o, size_t s, const void *p, cl_uint nw,
	 const cl_event *w, cl_event *e),
	(q, b, bl, o, s, p, nw, w, e))
FORWARD(cl_int, clEnqueueReadBuffer,
	(cl_command_queue q, cl_mem b, cl_bool bl, size_t o, size_t s, void *p, cl_uint nw,
	 const cl_event *w, cl_event *e),
	(q, b, bl, o, s, p, nw, w, e))
FORWARD(cl_int, clEnqueueMarkerWithWaitList,
	(cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *e), (q, nw, w, e))
FORWARD(cl_int, clEnqueueBarrierWithWaitList,
	(cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *e), (q, nw, w, e))
FORWARD(cl_int, clFlush, (cl_command_queue q), (q))
FORWARD(cl_int, clFinish, (cl_command_queue q), (q))
FORWARD(cl_int, clWaitForEvents, (cl_uint n, const cl_event *e), (n, e))
FORWARD(cl_int, clRetainEvent, (cl_event e), (e))
FORWARD(cl_int, clReleaseEvent, (cl_event e), (e))
FORWARD(cl_int, clGetEventInfo, (cl_event e, cl_event_info i, size_t s, void *v, size_t *r),
	(e, i, s, v, r))
FORWARD(cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *err),
	(c, f, s, h, err))
FORWARD(cl_int, clReleaseMemObject, (cl_mem m), (m))
FORWARD(cl_int, clGetMemObjectInfo, (cl_mem m, cl_mem_info i, size_t s, void *v, size_t *r),
	(m, i, s, v, r))
FORWARD(cl_int, clGetDeviceInfo, (cl_device_id d, cl_device_info i, size_t s, void *v, size_t *r),
	(d, i, s, v, r))
FORWARD(cl_int, clGetKernelWorkGroupInfo,
	(cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t s, void *v, size_t *r),
	(k, d, i, s, v, r))
/* Declared by <CL/cl.h> only for OpenCL 2.1 targets. */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id, cl_uint, size_t,
							 const void *, size_t, void *, size_t *);
FORWARD(cl_int, clGetKernelSubGroupInfo,
	(cl_kernel k, cl_device_id d, cl_uint i, size_t is, const void *iv,
	 size_t s, void *v, size_t *r),
	(k, d, i, is, iv, s, v, r))
FORWARD(cl_kernel, clCreateKernel, (cl_program p, const char *n, cl_int *err), (p, n, err))
FORWARD(cl_int, clReleaseKernel, (cl_kernel k), (k))
FORWARD(cl_program, clCreateProgramWithSource,
	(cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *err), (c, n, s, l, err))
FORWARD(cl_int, clBuildProgram,
	(cl_program p, cl_uint n, const cl_device_id *d, const char *o,
	 void(CL_CALLBACK *cb)(cl_program, void *), void *u),
	(p, n, d, o, cb, u))

struct data {
	clwarp_engine *e;
	size_t n;
	cl_mem in, out, count;
	clwarp_kernel *copy;
};

static clwarp_status
do_copy(const struct data *d, cl_event *ev)
{
	size_t global = d->n / 4, local = 64;

	(void)ev;  /* as algorithms-bench's copy floor: no event */
	return clwarp_kernel_enqueue(d->copy, 1, &global, &local);
}

/* The floor with the event an algorithm call hands out (released at once):
 * what the event itself costs the driver. */
static clwarp_status
do_copy_event(const struct data *d, cl_event *ev)
{
	size_t global = d->n / 4, local = 64;

	return clwarp_kernel_launch(d->copy, 1, &global, &local, ev);
}

static clwarp_status
do_reduce(const struct data *d, cl_event *ev)
{
	return clwarp_reduce(d->e, CLWARP_TYPE_FLOAT, d->in, d->count, d->n, CLWARP_OP_ADD, ev);
}

static clwarp_status
do_scan(const struct data *d, cl_event *ev)
{
	return clwarp_scan(d->e, CLWARP_TYPE_FLOAT, d->in, d->out, d->n, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, ev);
}

static clwarp_status
do_compact(const struct data *d, cl_event *ev)
{
	return clwarp_compact(d->e, CLWARP_TYPE_FLOAT, d->in, d->out, d->count, d->n, "x > 0", ev);
}

static const struct {
	const char *name;
	clwarp_status (*fn)(const struct data *d, cl_event *ev);
} cases[] = {
	{ "copy kernel (clwarp_kernel_enqueue)", do_copy },
	{ "copy kernel with event", do_copy_event },
	{ "clwarp_reduce float add", do_reduce },
	{ "clwarp_scan float add inclusive", do_scan },
	{ "clwarp_compact float x > 0", do_compact },
};

static const char *const copy_source =
	"kernel void bench_copy4(global const float4 *in, global float4 *out)\n"
	"{ size_t i = get_global_id(0); out[i] = in[i]; }\n";

static int
measure(const struct data *d, size_t c, int per_round, int rounds)
{
	size_t total = (size_t)per_round * (size_t)rounds, i = 0;
	double *wall = malloc(total * sizeof(double)), *outside = malloc(total * sizeof(double));
	double *inside = malloc(total * sizeof(double));
	unsigned counts[N_ENTRIES] = { 0 };
	int ok = wall && outside && inside;

	/* a first call builds the program: not counted */
	ok = ok && cases[c].fn(d, NULL) == CLWARP_OK;
	for (int r = 0; ok && r < rounds; r++) {
		for (int k = 0; ok && k < per_round; k++, i++) {
			cl_event ev = NULL;
			double t0;

			memset(&cur, 0, sizeof(cur));
			t0 = bench_now_us();
			ok = cases[c].fn(d, &ev) == CLWARP_OK;
			if (ev)
				clReleaseEvent(ev);
			wall[i] = bench_now_us() - t0;
			inside[i] = cur.inside_us;
			outside[i] = wall[i] - cur.inside_us;
			memcpy(counts, cur.count, sizeof(counts));
		}
		clFinish(clwarp_engine_queue(d->e));
	}
	if (ok) {
		unsigned commands = 0;

		qsort(wall, total, sizeof(double), bench_by_double);
		qsort(outside, total, sizeof(double), bench_by_double);
		qsort(inside, total, sizeof(double), bench_by_double);
		/* the copy floor's event is none: the bench's own release is not the call's */
		for (int e = 0; e < N_ENTRIES; e++)
			commands += entry_enqueues[e] ? counts[e] : 0;
		printf("%-36s %8zu %4u %7.2f %7.2f %7.2f  ", cases[c].name, d->n, commands,
		       wall[total / 2], inside[total / 2], outside[total / 2]);
		for (int e = 0; e < N_ENTRIES; e++)
			if (counts[e])
				printf(" %s x%u", entry_names[e], counts[e]);
		printf("\n");
	}
	free(wall);
	free(inside);
	free(outside);
	return ok ? 0 : -1;
}

int
main(int argc, char **argv)
{
	static const size_t sizes[] = { 1024, (size_t)1 << 20 };
	int per_round = 2000, rounds = 5, opt;
	const char *only = NULL;
	clwarp_engine_options o;
	clwarp_program *prog = NULL;
	struct data d = { 0 };
	float *host;

	while ((opt = getopt(argc, argv, "c:r:o:")) != -1) {
		long v = opt == 'o' ? 1 : strtol(optarg, NULL, 10);

		if (opt == 'o')
			only = optarg;
		else if (v < 1 || (opt != 'c' && opt != 'r')) {
			fprintf(stderr, "usage: percall-bench [-c CALLS] [-r ROUNDS] [-o TEXT]\n");
			return 2;
		} else if (opt == 'c')
			per_round = (int)v;
		else
			rounds = (int)v;
	}
	if (optind < argc) {
		fprintf(stderr, "usage: percall-bench [-c CALLS] [-r ROUNDS] [-o TEXT]\n");
		return 2;
	}
	clwarp_engine_options_init(&o);
	host = malloc(sizes[1] * sizeof(float));
	for (size_t i = 0; host && i < sizes[1]; i++)
		host[i] = (float)((int)(i * 2654435761u % 2001u) - 1000) / 100.0f;
	if (!host || clwarp_engine_new(&o, &d.e) != CLWARP_OK ||
	    clwarp_buffer_new(d.e, CL_MEM_READ_WRITE, sizes[1] * 4, host, &d.in) != CLWARP_OK ||
	    clwarp_buffer_new(d.e, CL_MEM_READ_WRITE, sizes[1] * 4, NULL, &d.out) != CLWARP_OK ||
	    clwarp_buffer_new(d.e, CL_MEM_READ_WRITE, 16, NULL, &d.count) != CLWARP_OK ||
	    clwarp_program_build_source(d.e, copy_source, "percall-copy.cl", NULL, &prog, NULL) !=
		    CLWARP_OK ||
	    clwarp_kernel_new(prog, "bench_copy4", &d.copy) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(d.copy, 0, d.in) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(d.copy, 1, d.out) != CLWARP_OK) {
		fprintf(stderr, "percall-bench: %s\n", clwarp_last_error());
		return 1;
	}
	free(host);
	printf("device: %s (%s); %d rounds of %d calls; event asked for and released at once\n",
	       clwarp_engine_device_info(d.e)->name, clwarp_engine_device_info(d.e)->platform_name,
	       rounds, per_round);
	printf("medians, us per call: wall, inside the driver (the forwarders), outside = wall - inside\n");
	printf("(the calls counted include the caller's clReleaseEvent of the call's event)\n\n");
	printf("%-36s %8s %4s %7s %7s %7s  OpenCL calls per call\n", "call", "n", "cmds", "wall",
	       "inside", "outside");
	for (size_t s = 0; s < 2; s++) {
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			d.n = sizes[s];
			if (only && !strstr(cases[c].name, only))
				continue;
			if (measure(&d, c, per_round, rounds) != 0) {
				fprintf(stderr, "percall-bench: %s: %s\n", cases[c].name,
					clwarp_last_error());
				return 1;
			}
		}
	}
	clwarp_kernel_free(d.copy);
	clReleaseMemObject(d.in);
	clReleaseMemObject(d.out);
	clReleaseMemObject(d.count);
	clwarp_engine_free(d.e);
	return 0;
}
