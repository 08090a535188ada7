/* Histogram and runs throughput: clwarp_histogram, clwarp_run_length_encode,
 * clwarp_reduce_by_key and clwarp_unique per size. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: hist-rle-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N]
 *                       [--reps R] [--only OP] [--no-check 0|1] [--batch K] [--tsv FILE]
 *                       [--no-profiling] [--label TEXT]
 *
 * Cases (bench/bench-util.h makes the data; cub-hist-rle-bench.cu runs the
 * same on CUB): histograms of uint samples uniform in [0, 2^24) with 256,
 * 1024 and 4096 bins (bin widths powers of two), of uint samples in
 * [0, 10^6) with 256 bins (a width that is not a whole number), of float
 * samples in [0, 1) with 256 bins, uniform and in ascending order
 * (hist256sorted); run-length encoding of uint keys in
 * runs of 1, 4 and 64 on average, reduce by key of the same keys with uint
 * values (sums), unique of keys in runs of 4. Each call is timed with OpenCL
 * profiling from a marker enqueued just before it to the end of its last
 * command (the engine's queue has CLWARP_ENGINE_PROFILING), as sort-bench
 * does; medians. Every result is checked against the host once per size
 * (--no-check 1 skips that, for diagnostic builds).
 * Two more figures per size, as bench/algorithms-bench gives them: the
 * host wall time of one blocking call (event NULL, median of R), and
 * back to back, the wall time per call of K calls queued (--batch K,
 * default 32; fewer where they would take over a second) and one
 * clFinish, median of 5 rounds.
 * --no-profiling makes the engine without CLWARP_ENGINE_PROFILING, as
 * users make engines (on NVIDIA's driver profiling costs an algorithm call
 * 5-8 us back to back: docs/design/host.md); there is then no event
 * time, and the median column is the blocking call's (timing "wall").
 * --label TEXT writes the backend as NAME[TEXT] (algorithms-bench's).
 * --only takes a comma-separated list of cases. TSV rows: device backend
 * op type n median_ms gbps wall_ms timing batch_ms (algorithms-bench's
 * columns; GB/s of samples or keys read, timing "event" or "wall").
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <clwarp/algorithms.h>

#include "bench-util.h"

static _Noreturn void
die(const char *what, clwarp_status s)
{
	fprintf(stderr, "hist-rle-bench: %s: %s (%s)\n", what, clwarp_status_name(s),
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
	cl_mem in, vals, out, counts, num;
};

static clwarp_status
call(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, size_t n,
     cl_event *last)
{
	if (c->kind == BENCH_RLE)
		return clwarp_run_length_encode(e, CLWARP_TYPE_UINT, b->in, b->out, b->counts,
						b->num, n, last);
	if (c->kind == BENCH_RBK)
		return clwarp_reduce_by_key(e, CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, b->in, b->vals,
					    b->out, b->counts, b->num, n, CLWARP_OP_ADD, last);
	if (c->kind == BENCH_UNIQUE)
		return clwarp_unique(e, CLWARP_TYPE_UINT, b->in, b->out, b->num, n, last);
	if (c->range) {
		uint32_t lo = 0, hi = c->range;

		return clwarp_histogram(e, CLWARP_TYPE_UINT, b->in, b->counts, n, c->param, &lo,
					&hi, last);
	}
	float lo = 0.0f, hi = 1.0f;

	return clwarp_histogram(e, CLWARP_TYPE_FLOAT, b->in, b->counts, n, c->param, &lo, &hi, last);
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

/* Back-to-back rounds of K calls per size (bench/algorithms-bench's). */
#define BATCH_ROUNDS 5

/* One blocking call (event NULL: it returns once done), host wall time. */
static double
blocking_call(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, size_t n)
{
	double t0 = bench_now_s();
	clwarp_status s = call(e, c, b, n, NULL);

	if (s != CLWARP_OK)
		die(c->op, s);
	return (bench_now_s() - t0) * 1e3;
}

/* K calls queued back to back, each event released at once, one
 * clFinish: host wall time per call. */
static double
batch_calls(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, size_t n,
	    int k)
{
	double t0 = bench_now_s();

	for (int i = 0; i < k; i++) {
		cl_event ev = NULL;
		clwarp_status s = call(e, c, b, n, &ev);

		if (s != CLWARP_OK)
			die(c->op, s);
		clReleaseEvent(ev);
	}
	clFinish(clwarp_engine_queue(e));
	return (bench_now_s() - t0) * 1e3 / k;
}

/* The result against the host: every count of the histogram; every run's
 * key and length (run-length encode), key and sum (reduce by key) or key
 * (unique). */
static void
check(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b, const void *data,
      size_t n)
{
	bool runs_kind = c->kind != BENCH_HIST;
	size_t slots = runs_kind ? n : c->param;
	uint32_t *want = calloc(slots, 4), *got = malloc(slots * 4), runs = 0, got_runs = 0;
	uint32_t *want_keys = runs_kind ? malloc(slots * 4) : NULL;
	const uint32_t *u = data;
	const float *f = data;
	bool ok = true;

	if (!want || !got || (runs_kind && !want_keys)) {
		fprintf(stderr, "hist-rle-bench: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		if (runs_kind) {
			if (i == 0 || u[i] != u[i - 1])
				want_keys[runs++] = u[i];
			want[runs - 1] += c->kind == BENCH_RBK ? bench_rbk_value(i) : 1u;
		} else if (c->range) {
			want[(uint64_t)u[i] * c->param / c->range]++;
		} else {
			want[(uint32_t)(f[i] * (float)c->param)]++;   /* exact: f is k / 2^24 */
		}
	}
	if (runs_kind) {
		clwarp_buffer_read(e, b->num, 0, 4, &got_runs);
		slots = runs;
		ok = got_runs == runs && clwarp_buffer_read(e, b->out, 0, slots * 4, got) == CLWARP_OK &&
		     memcmp(got, want_keys, slots * 4) == 0;
	}
	if (c->kind != BENCH_UNIQUE)
		ok = ok && clwarp_buffer_read(e, b->counts, 0, slots * 4, got) == CLWARP_OK &&
		     memcmp(got, want, slots * 4) == 0;
	if (!ok) {
		fprintf(stderr, "hist-rle-bench: %s %s n=%zu: wrong result\n", c->op, c->type, n);
		exit(1);
	}
	free(want);
	free(want_keys);
	free(got);
}

int
main(int argc, char **argv)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	const char *tsv_path = NULL, *only = NULL, *label = NULL;
	bool profiling = true;
	char backend_name[64];
	int min_log2 = 16, max_log2 = 28, reps = 20, no_check = 0, batch = 32;
	FILE *tsv = NULL;
	unsigned warp = 0;
	clwarp_backend backend;
	clwarp_status s;

	clwarp_engine_options_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-profiling")) {
			profiling = false;
			continue;
		}
		if (!v) {
			fprintf(stderr, "usage: hist-rle-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N] [--reps R] [--only OP] [--no-check 0|1] [--batch K] [--tsv FILE] [--no-profiling] [--label TEXT]\n");
			return 2;
		}
		i++;
		if (!strcmp(a, "--device"))
			o.device = v;
		else if (!strcmp(a, "--backend") && clwarp_backend_from_name(v, &o.backend) != CLWARP_OK)
			die("--backend", CLWARP_ERROR_INVALID_ARGUMENT);
		else if (bench_sweep_option(a, v, &min_log2, &max_log2, &reps, &tsv_path))
			continue;
		else if (!strcmp(a, "--only"))
			only = v;
		else if (!strcmp(a, "--no-check"))
			no_check = atoi(v);
		else if (!strcmp(a, "--batch"))
			batch = atoi(v) > 1 ? atoi(v) : 2;
		else if (!strcmp(a, "--label"))
			label = v;
	}
	if (profiling)
		o.flags |= CLWARP_ENGINE_PROFILING;
	s = clwarp_engine_new(&o, &e);
	if (s != CLWARP_OK)
		die("creating the engine", s);
	s = clwarp_engine_backend(e, &backend, &warp);
	if (s != CLWARP_OK)
		die("the warp backend", s);
	const clwarp_device_info *info = clwarp_engine_device_info(e);
	/* Keys, values, unique keys and counts: 16 bytes an element. */
	while (max_log2 > min_log2 && ((uint64_t)16 << max_log2) > info->global_mem_size / 2)
		max_log2--;
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}
	if (label)
		snprintf(backend_name, sizeof(backend_name), "%s[%s]", clwarp_backend_name(backend), label);
	else
		snprintf(backend_name, sizeof(backend_name), "%s", clwarp_backend_name(backend));
	printf("device: %s (%s), backend %s, warp %u%s\n", info->name, info->driver_version,
	       clwarp_backend_name(backend), warp,
	       profiling ? "" : "; no profiling: the median column is the blocking call's");
	printf("%-11s %-6s %5s %12s %10s %12s %12s\n", "op", "type", "log2", "median ms", "GB/s",
	       "blocking ms", "b2b ms");
	for (size_t ci = 0; ci < BENCH_HR_CASES; ci++) {
		const struct bench_hr_case *c = &bench_hr_cases[ci];

		if (only && !bench_in_list(only, c->op))
			continue;
		for (int l = min_log2; l <= max_log2; l += 2) {
			size_t n = (size_t)1 << l;
			uint32_t *h = malloc(n * 4);
			double *t = malloc(sizeof(double) * (size_t)reps), ms = 0, wall_ms, batch_ms;
			double per[BATCH_ROUNDS];
			int r = n > ((size_t)1 << 24) ? (reps + 1) / 2 : reps;
			struct buffers b = { 0 };

			if (!h || !t) {
				fprintf(stderr, "hist-rle-bench: out of memory\n");
				return 1;
			}
			if (c->kind != BENCH_HIST)
				bench_rle_keys(h, n, c->param, 42 + (uint64_t)l);
			else if (c->range)
				bench_hist_uint(h, n, c->range, 42 + (uint64_t)l);
			else
				bench_hist_float((float *)h, n, c->sorted, 42 + (uint64_t)l);
			/* Runs: n unique keys and counts (or sums) at most. */
			size_t slots = c->kind != BENCH_HIST ? n : c->param;

			if ((s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * 4, h, &b.in)) != CLWARP_OK ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, slots * 4, NULL, &b.counts)) ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, slots * 4, NULL, &b.out)) ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, 4, NULL, &b.num)))
				die("buffers", s);
			if (c->kind == BENCH_RBK) {
				uint32_t *hv = malloc(n * 4);

				if (!hv) {
					fprintf(stderr, "hist-rle-bench: out of memory\n");
					return 1;
				}
				for (size_t i = 0; i < n; i++)
					hv[i] = bench_rbk_value(i);
				if ((s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * 4, hv, &b.vals)) != CLWARP_OK)
					die("buffers", s);
				free(hv);
			}
			blocking_call(e, c, &b, n);   /* build, allocate, warm up */
			if (!no_check)
				check(e, c, &b, h, n);
			if (profiling) {
				for (int i = 0; i < r; i++)
					t[i] = timed_call(e, c, &b, n);
				ms = bench_median(t, r);
			}
			for (int i = 0; i < r; i++)
				t[i] = blocking_call(e, c, &b, n);
			wall_ms = bench_median(t, r);
			if (!profiling)
				ms = wall_ms;
			/* At most about a second of back-to-back calls a size. */
			int k = wall_ms * batch * BATCH_ROUNDS > 1000.0 ? (int)(1000.0 / (wall_ms * BATCH_ROUNDS)) : batch;

			for (int i = 0; i < BATCH_ROUNDS; i++)
				per[i] = batch_calls(e, c, &b, n, k > 2 ? k : 2);
			batch_ms = bench_median(per, BATCH_ROUNDS);
			printf("%-11s %-6s %5d %12.4f %10.1f %12.4f %12.4f\n", c->op, c->type, l, ms,
			       (double)n * 4 / ms * 1e-6, wall_ms, batch_ms);
			fflush(stdout);
			if (tsv)
				fprintf(tsv, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.3f\t%.6f\t%s\t%.6f\n",
					info->name, backend_name, c->op, c->type, n, ms,
					(double)n * 4 / ms * 1e-6, wall_ms, profiling ? "event" : "wall",
					batch_ms);
			clReleaseMemObject(b.in);
			clReleaseMemObject(b.out);
			clReleaseMemObject(b.counts);
			clReleaseMemObject(b.num);
			if (b.vals)
				clReleaseMemObject(b.vals);
			free(h);
			free(t);
		}
	}
	if (tsv)
		fclose(tsv);
	clwarp_engine_free(e);
	return 0;
}
