/* Histogram and run-length encode throughput: clwarp_histogram and
 * clwarp_run_length_encode per size. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: hist-rle-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N]
 *                       [--reps R] [--only OP] [--tsv FILE]
 *
 * Cases (bench/bench-util.h makes the data; cub-hist-rle-bench.cu runs the
 * same on CUB): histograms of uint samples uniform in [0, 2^24) with 256,
 * 1024 and 4096 bins (bin widths powers of two), of uint samples in
 * [0, 10^6) with 256 bins (a width that is not a whole number), of float
 * samples in [0, 1) with 256 bins; run-length encoding of uint keys in
 * runs of 1, 4 and 64 on average. Each call is timed with OpenCL
 * profiling from a marker enqueued just before it to the end of its last
 * command (the engine's queue has CLWARP_ENGINE_PROFILING), as sort-bench
 * does; medians. Every result is checked against the host once per size.
 * TSV rows: device backend op type n median_ms gbps, GB/s of samples or
 * keys read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clwarp/algorithms.h>

#include "bench-util.h"

static _Noreturn void
die(const char *what, clwarp_status s)
{
	fprintf(stderr, "hist-rle-bench: %s: %s (%s)\n", what, clwarp_status_to_str(s),
		clwarp_last_error());
	exit(1);
}

static cl_ulong
stamp(cl_event ev, cl_profiling_info what)
{
	cl_ulong t = 0;

	clGetEventProfilingInfo(ev, what, sizeof(t), &t, NULL);
	return t;
}

struct buffers {
	cl_mem in, out, counts, num;
};

static clwarp_status
call(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, size_t n,
     cl_event *last)
{
	if (c->kind == BENCH_RLE)
		return clwarp_run_length_encode(e, CLWARP_TYPE_UINT, b->in, n, b->out, b->counts,
						b->num, last);
	if (c->range) {
		uint32_t lo = 0, hi = c->range;

		return clwarp_histogram(e, CLWARP_TYPE_UINT, b->in, n, c->param, &lo, &hi, b->counts,
					last);
	}
	float lo = 0.0f, hi = 1.0f;

	return clwarp_histogram(e, CLWARP_TYPE_FLOAT, b->in, n, c->param, &lo, &hi, b->counts, last);
}

static double
timed_call(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, size_t n)
{
	cl_command_queue q = clwarp_engine_queue(e);
	cl_event mark = NULL, last = NULL;
	clwarp_status s;
	double ms;

	clFinish(q);
	clEnqueueMarkerWithWaitList(q, 0, NULL, &mark);
	clFlush(q);
	s = call(e, c, b, n, &last);
	if (s != CLWARP_OK)
		die(c->op, s);
	clFinish(q);
	ms = (double)(stamp(last, CL_PROFILING_COMMAND_END) - stamp(mark, CL_PROFILING_COMMAND_END)) * 1e-6;
	clReleaseEvent(mark);
	clReleaseEvent(last);
	return ms;
}

/* The result against the host: every count of the histogram, every run of
 * the encoding. */
static void
check(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, const void *data,
      size_t n)
{
	size_t slots = c->kind == BENCH_HIST ? c->param : n;
	uint32_t *want = calloc(slots, 4), *got = malloc(slots * 4), runs = 0, got_runs = 0;
	const uint32_t *u = data;
	const float *f = data;

	if (!want || !got) {
		fprintf(stderr, "hist-rle-bench: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		if (c->kind == BENCH_RLE) {
			runs += i == 0 || u[i] != u[i - 1];
			want[runs - 1]++;
		} else if (c->range) {
			want[(uint64_t)u[i] * c->param / c->range]++;
		} else {
			want[(uint32_t)(f[i] * (float)c->param)]++;   /* exact: f is k / 2^24 */
		}
	}
	if (c->kind == BENCH_RLE) {
		clwarp_buffer_read(e, b->num, 0, 4, &got_runs);
		slots = runs;
	}
	if (got_runs != runs || clwarp_buffer_read(e, b->counts, 0, slots * 4, got) != CLWARP_OK ||
	    memcmp(got, want, slots * 4) != 0) {
		fprintf(stderr, "hist-rle-bench: %s %s n=%zu: wrong result\n", c->op, c->type, n);
		exit(1);
	}
	free(want);
	free(got);
}

int
main(int argc, char **argv)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	const char *tsv_path = NULL, *only = NULL;
	int min_log2 = 16, max_log2 = 28, reps = 20;
	FILE *tsv = NULL;
	unsigned warp = 0;
	clwarp_backend backend;
	clwarp_status s;

	clwarp_engine_options_init(&o);
	o.flags |= CLWARP_ENGINE_PROFILING;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "usage: hist-rle-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N] [--reps R] [--only OP] [--tsv FILE]\n");
			return 2;
		}
		i++;
		if (!strcmp(a, "--device"))
			o.device = v;
		else if (!strcmp(a, "--backend") && clwarp_backend_from_name(v, &o.backend) != CLWARP_OK)
			die("--backend", CLWARP_ERROR_INVALID_ARGUMENT);
		else if (!strcmp(a, "--min-log2"))
			min_log2 = atoi(v);
		else if (!strcmp(a, "--max-log2"))
			max_log2 = atoi(v);
		else if (!strcmp(a, "--reps"))
			reps = atoi(v) > 0 ? atoi(v) : 1;
		else if (!strcmp(a, "--only"))
			only = v;
		else if (!strcmp(a, "--tsv"))
			tsv_path = v;
	}
	s = clwarp_engine_new(&o, &e);
	if (s != CLWARP_OK)
		die("creating the engine", s);
	s = clwarp_engine_backend(e, &backend, &warp);
	if (s != CLWARP_OK)
		die("the warp backend", s);
	const clwarp_device_info *info = clwarp_engine_device_info(e);
	/* Keys, unique keys and counts: 12 bytes an element. */
	while (max_log2 > min_log2 && ((uint64_t)12 << max_log2) > info->global_mem_size / 2)
		max_log2--;
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}
	printf("device: %s (%s), backend %s, warp %u\n", info->name, info->driver_version,
	       clwarp_backend_name(backend), warp);
	printf("%-11s %-6s %5s %12s %10s\n", "op", "type", "log2", "median ms", "GB/s");
	for (size_t ci = 0; ci < BENCH_HR_CASES; ci++) {
		const struct bench_hr_case *c = &bench_hr_cases[ci];

		if (only && strcmp(only, c->op) != 0)
			continue;
		for (int l = min_log2; l <= max_log2; l += 2) {
			size_t n = (size_t)1 << l;
			uint32_t *h = malloc(n * 4);
			double *t = malloc(sizeof(double) * (size_t)reps), ms;
			int r = n > ((size_t)1 << 24) ? (reps + 1) / 2 : reps;
			struct buffers b = { 0 };

			if (!h || !t) {
				fprintf(stderr, "hist-rle-bench: out of memory\n");
				return 1;
			}
			if (c->kind == BENCH_RLE)
				bench_rle_keys(h, n, c->param, 42 + (uint64_t)l);
			else if (c->range)
				bench_hist_uint(h, n, c->range, 42 + (uint64_t)l);
			else
				bench_hist_float((float *)h, n, 42 + (uint64_t)l);
			/* Run-length encoding: n unique keys and counts at most. */
			size_t slots = c->kind == BENCH_RLE ? n : c->param;

			if ((s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * 4, h, &b.in)) != CLWARP_OK ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, slots * 4, NULL, &b.counts)) ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, slots * 4, NULL, &b.out)) ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, 4, NULL, &b.num)))
				die("buffers", s);
			timed_call(e, c, &b, n);   /* build, allocate, warm up */
			check(e, c, &b, h, n);
			for (int i = 0; i < r; i++)
				t[i] = timed_call(e, c, &b, n);
			ms = bench_median(t, r);
			printf("%-11s %-6s %5d %12.4f %10.1f\n", c->op, c->type, l, ms,
			       (double)n * 4 / ms * 1e-6);
			fflush(stdout);
			if (tsv)
				fprintf(tsv, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.3f\n", info->name,
					clwarp_backend_name(backend), c->op, c->type, n, ms,
					(double)n * 4 / ms * 1e-6);
			clReleaseMemObject(b.in);
			clReleaseMemObject(b.out);
			clReleaseMemObject(b.counts);
			clReleaseMemObject(b.num);
			free(h);
			free(t);
		}
	}
	if (tsv)
		fclose(tsv);
	clwarp_engine_free(e);
	return 0;
}
