/* algorithms-bench's device runs: each call timed on the device's timeline
 * (see algorithms-bench.c), the repetitions, and the copy kernel. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms-bench.h"

/* Back-to-back batches per result: the median is reported. */
#define BATCH_ROUNDS 5

static void
load_input(struct bench *b, clwarp_type t)
{
	const void *src = t == CLWARP_TYPE_INT ? (const void *)b->host_i : (const void *)b->host_f;
	clwarp_status s;

	if (b->loaded == (int)t)
		return;
	s = clwarp_buffer_write(b->engine, b->in, 0, b->max_n * 4, src);
	if (s != CLWARP_OK)
		die_status(s, "writing the input");
	b->loaded = (int)t;
}

/* What one repetition of a (case, n) enqueues. */
struct case_run {
	const struct bench_case *c;
	size_t n;
};

/* The call: blocking with last NULL, else returning at once with the event of its last command. */
static clwarp_status
call_case(struct bench *b, const void *ctx, cl_event *last)
{
	const struct bench_case *c = ((const struct case_run *)ctx)->c;
	size_t n = ((const struct case_run *)ctx)->n;

	switch (c->kind) {
	case KIND_REDUCE:
		return clwarp_reduce(b->engine, c->type, b->in, b->small, n, c->combine, last);
	case KIND_SCAN:
		return clwarp_scan(b->engine, c->type, b->in, b->out, n, c->combine,
				c->inclusive ? CLWARP_SCAN_INCLUSIVE : 0, last);
	case KIND_COMPACT:
		return clwarp_compact(b->engine, c->type, b->in, b->out, b->small, n, c->pred, last);
	case KIND_PARTITION:
		return clwarp_partition(b->engine, c->type, b->in, b->out, b->small, n, c->pred, 0,
				last);
	case KIND_PARTITION_REVERSED:
		return clwarp_partition(b->engine, c->type, b->in, b->out, b->small, n, c->pred,
		                                 CLWARP_PARTITION_REVERSED, last);
	case KIND_SEGREDUCE:
		return clwarp_segmented_reduce(b->engine, c->type, b->in, b->out, n / c->row,
		                               c->row, c->combine, last);
	case KIND_SOFTMAX:
		return clwarp_softmax_rows(b->engine, b->in, b->out, n / c->row, c->row, last);
	case KIND_SEGSCAN:
		return clwarp_segmented_scan(b->engine, c->type, b->in, b->out, n / c->row, c->row,
		                             c->combine, c->inclusive ? CLWARP_SCAN_INCLUSIVE : 0, last);
	}
	return CLWARP_ERROR_INVALID_ARGUMENT;
}

/* The public call, as `mode` says. */
static clwarp_status
enqueue_case(struct bench *b, const void *ctx, enum run_mode mode, cl_event *event)
{
	cl_event ev = NULL;
	cl_event *last = mode == RUN_BLOCK ? NULL : mode == RUN_EVENT ? event : &ev;
	clwarp_status s = call_case(b, ctx, last);

	if (ev)
		clReleaseEvent(ev);
	return s;
}

/* A profiling timestamp of an event, 0 where the driver gives none. */
static cl_ulong
stamp(cl_event ev, cl_profiling_info what)
{
	cl_ulong t = 0;

	if (clGetEventProfilingInfo(ev, what, sizeof(t), &t, NULL) != CL_SUCCESS)
		return 0;
	return t;
}

/*
 * One repetition: [marker; clFlush;] t0; enqueue; clFinish; t1. The event
 * time runs from the marker's end to the end of the last command; out->bad
 * says why it cannot be used, if so. The wall time is t1 - t0, the old
 * measure of `call; clFinish`.
 */
static clwarp_status
timed_run(struct bench *b, enqueue_fn fn, const void *ctx, struct sample *out)
{
	cl_event mark = NULL, last = NULL;
	double t_mark, t0, t1, host_s;
	clwarp_status s;
	cl_int err;

	out->event_s = 0;
	out->bad = b->profiling ? NULL : "the queue has no profiling";
	t_mark = now_s();
	if (b->profiling) {
		err = clEnqueueMarkerWithWaitList(b->queue, 0, NULL, &mark);
		if (err != CL_SUCCESS)
			die("clEnqueueMarkerWithWaitList: %s", clwarp_cl_error_name(err));
		/* Submit it now, as cudaEventRecord does: it completes on the idle queue. */
		err = clFlush(b->queue);
		if (err != CL_SUCCESS)
			die("clFlush: %s", clwarp_cl_error_name(err));
	}
	t0 = now_s();
	s = fn(b, ctx, RUN_EVENT, &last);
	err = clFinish(b->queue);
	t1 = now_s();
	if (err != CL_SUCCESS)
		die("clFinish: %s", clwarp_cl_error_name(err));
	out->wall_s = t1 - t0;
	host_s = t1 - t_mark;
	if (s == CLWARP_OK && mark) {
		cl_ulong m_end = stamp(mark, CL_PROFILING_COMMAND_END);
		cl_ulong l_start = last ? stamp(last, CL_PROFILING_COMMAND_START) : 0;
		cl_ulong l_end = last ? stamp(last, CL_PROFILING_COMMAND_END) : 0;

		if (!last)
			out->bad = "the call returned no event";
		else if (!m_end)
			out->bad = "the marker's CL_PROFILING_COMMAND_END is 0";
		else if (!l_start || !l_end)
			out->bad = "the last command's CL_PROFILING_COMMAND_START or _END is 0";
		else if (m_end > l_start || l_start > l_end || m_end == l_end)
			out->bad = "not marker end <= last command's start <= its end";
		else if ((out->event_s = (double)(l_end - m_end) * 1e-9) > 1.01 * host_s + 1e-4)
			out->bad = "the event time exceeds the host's time from the marker to clFinish";
	}
	if (mark)
		clReleaseEvent(mark);
	if (last)
		clReleaseEvent(last);
	return s;
}

/* One blocking public call, timed on the host: what an application that
 * waits for each call sees. */
static clwarp_status
blocking_run(struct bench *b, enqueue_fn fn, const void *ctx, double *wall_s)
{
	double t0 = now_s();
	clwarp_status s = fn(b, ctx, RUN_BLOCK, NULL);

	*wall_s = now_s() - t0;
	return s;
}

/* K calls queued back to back, one clFinish: the time per call. */
static clwarp_status
batch_run(struct bench *b, enqueue_fn fn, const void *ctx, int k, double *per_call_s)
{
	clwarp_status s = CLWARP_OK;
	double t0 = now_s();
	cl_int err;

	for (int i = 0; i < k && s == CLWARP_OK; i++)
		s = fn(b, ctx, RUN_QUEUE, NULL);
	err = clFinish(b->queue);
	*per_call_s = (now_s() - t0) / k;
	if (err != CL_SUCCESS)
		die("clFinish: %s", clwarp_cl_error_name(err));
	return s;
}

/* The repetitions for one size: R, half above 2^24, and no more than the time budget allows. */
int
reps_for(const struct options *opt, size_t n, double one_s)
{
	int r = opt->reps;

	if (n > (size_t)1 << 24)
		r = r / 2 > 0 ? r / 2 : 1;
	if (one_s > 0 && (double)r * one_s > opt->budget_s) {
		int fit = (int)(opt->budget_s / one_s);
		r = fit < 3 ? 3 : fit;
		if (r > opt->reps)
			r = opt->reps;
	}
	return r;
}

void
progress(const char *backend, const char *op, const char *type, size_t n, struct result r)
{
	fprintf(stderr,
	        "  %-6s %-28s %-5s 2^%-2d %10.4f ms %-5s (blocking %10.4f ms, back-to-back %10.4f ms)"
	        " %9.2f GB/s\n",
	        backend, op, type, (int)log2((double)n), r.ms, timing_name(r.timing), r.wall_ms,
	        r.batch_ms, r.gbps);
}

/*
 * Time fn at size n into *res, which moves `bytes`: R repetitions (after
 * one to learn their cost) of each measure. The event time (ms, gbps)
 * where every repetition's timestamps are sane, else the wall time of
 * `call; clFinish` from just before the marker; the blocking call's host
 * wall time (wall_ms); back to back, BATCH_ROUNDS rounds of K calls
 * (fewer calls where K would take over the budget), the median round's
 * time per call (batch_ms).
 */
static void
time_reps(struct bench *b, enqueue_fn fn, const void *ctx, const char *what, size_t n,
          double bytes, struct result *res)
{
	struct sample t;
	const char *bad = NULL;
	double *marked, *event, *block, per[BATCH_ROUNDS];
	clwarp_status s;
	int reps, k = b->opt->batch;

	s = timed_run(b, fn, ctx, &t);
	if (s != CLWARP_OK)
		die_status(s, "a timed run");
	reps = reps_for(b->opt, n, t.wall_s);
	marked = xmalloc(3 * (size_t)reps * sizeof(*marked));
	event = marked + reps;
	block = event + reps;
	for (int r = 0; r < reps; r++) {
		s = timed_run(b, fn, ctx, &t);
		if (s != CLWARP_OK)
			die_status(s, "a timed run");
		marked[r] = t.wall_s;
		event[r] = t.event_s;
		if (t.bad && !bad)
			bad = t.bad;
	}
	for (int r = 0; r < reps; r++) {
		s = blocking_run(b, fn, ctx, &block[r]);
		if (s != CLWARP_OK)
			die_status(s, "a blocking run");
	}
	res->wall_ms = median(block, reps) * 1e3;
	if (t.wall_s > 0 && (double)k * BATCH_ROUNDS * t.wall_s > b->opt->budget_s)
		k = (int)(b->opt->budget_s / (BATCH_ROUNDS * t.wall_s));
	if (k < 2)
		k = 2;
	for (int r = 0; r < BATCH_ROUNDS; r++) {
		s = batch_run(b, fn, ctx, k, &per[r]);
		if (s != CLWARP_OK)
			die_status(s, "a back-to-back run");
	}
	res->batch_ms = median(per, BATCH_ROUNDS) * 1e3;
	if (bad) {
		res->timing = TIMING_WALL;
		res->ms = median(marked, reps) * 1e3;
		if (b->profiling && !b->stamps_warned) {
			fprintf(stderr,
			        "%s: backend %s, %s, n = %zu: profiling timestamps unusable (%s); that result "
			        "uses the wall time, marked '*' (the TSV's timing column says for each row)\n",
			        progname, b->backend, what, n, bad);
			b->stamps_warned = 1;
		}
	} else {
		res->timing = TIMING_EVENT;
		res->ms = median(event, reps) * 1e3;
	}
	res->gbps = bytes / (res->ms * 1e-3) / 1e9;
	free(marked);
}

/*
 * Build, check and time one (op, n). ms is MS_NOT_RUN when the size does not
 * apply (rows longer than n, or CLWARP_ERROR_TOO_LARGE), MS_FAILED after a
 * wrong result or a failed call, which ends the run unless --keep-going.
 */
struct result
measure(struct bench *b, const struct bench_case *c, size_t n)
{
	struct result res = {MS_NOT_RUN, 0, 0, TIMING_WALL, 0};
	struct case_run run = {c, n};
	struct sample first;
	clwarp_status s;

	if (c->row && n < c->row)
		return res;
	load_input(b, c->type);
	s = timed_run(b, enqueue_case, &run, &first); /* builds the kernels */
	if (s == CLWARP_ERROR_TOO_LARGE)
		return res;
	if (s != CLWARP_OK) {
		const char *msg = clwarp_last_error();

		fprintf(stderr, "%s: backend %s, %s %s, n = %zu: %s%s%s\n", progname, b->backend, c->op,
		        type_name(c->type), n, clwarp_status_name(s), *msg ? ": " : "", msg);
		res.ms = MS_FAILED;
	} else if (check(b, c, n) != 0) {
		fprintf(stderr, "%s: a benchmark of a wrong answer is worthless%s\n", progname,
		        b->opt->keep_going ? "; going on with the next operation" : "; stopping");
		res.ms = MS_FAILED;
	}
	if (res.ms == MS_FAILED) {
		if (!b->opt->keep_going)
			exit(1);
		return res;
	}
	time_reps(b, enqueue_case, &run, c->op, n, bytes_moved(c, n, b->selected), &res);
	progress(b->backend, c->op, type_name(c->type), n, res);
	return res;
}

static const char *copy_source =
	"kernel void bench_copy4(global const float4 *in, global float4 *out)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	out[i] = in[i];\n"
	"}\n";

/* One launch of the copy kernel. */
struct copy_run {
	clwarp_kernel *k;
	size_t global, local;
};

static clwarp_status
enqueue_copy(struct bench *b, const void *ctx, enum run_mode mode, cl_event *last)
{
	const struct copy_run *run = ctx;

	(void)b;
	if (mode == RUN_QUEUE)
		return clwarp_kernel_enqueue(run->k, 1, &run->global, &run->local);
	return clwarp_kernel_launch(run->k, 1, &run->global, &run->local,
				    mode == RUN_EVENT ? last : NULL);
}

/* The device's own bandwidth: a float4 copy over n floats, read + write bytes. */
void
measure_copy(struct bench *b, int min_log2, int max_log2, struct result *copy)
{
	const clwarp_device_info *info = clwarp_engine_device_info(b->engine);
	clwarp_program *prog;
	struct copy_run run;
	clwarp_status s;
	size_t local = info->max_work_group_size < 256 ? info->max_work_group_size : 256;

	s = clwarp_program_build_source(b->engine, copy_source, "bench-copy.cl", NULL, &prog, NULL);
	if (s != CLWARP_OK)
		die_status(s, "building the copy kernel");
	s = clwarp_kernel_new(prog, "bench_copy4", &run.k);
	if (s != CLWARP_OK)
		die_status(s, "the copy kernel");
	if (clwarp_kernel_set_arg_buffer(run.k, 0, b->in) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(run.k, 1, b->out) != CLWARP_OK)
		die_status(CLWARP_ERROR_OPENCL, "setting the copy kernel's arguments");
	load_input(b, CLWARP_TYPE_FLOAT);
	for (int l = min_log2; l <= max_log2; l++) {
		size_t n = (size_t)1 << l;

		run.global = n / 4;
		run.local = local;
		while (run.global % run.local)
			run.local /= 2;
		s = clwarp_kernel_launch(run.k, 1, &run.global, &run.local, NULL);
		if (s != CLWARP_OK)
			die_status(s, "the copy kernel");
		read_back(b, b->out, n * 4, b->got);
		if (memcmp(b->got, b->host_f, n * 4) != 0)
			die("WRONG RESULT: the copy kernel did not copy (n = %zu)", n);
		time_reps(b, enqueue_copy, &run, "copy", n, 8.0 * (double)n, &copy[l]);
		progress("copy", "copy", "float", n, copy[l]);
	}
	clwarp_kernel_free(run.k);
}
