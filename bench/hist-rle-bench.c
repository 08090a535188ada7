/* Histogram and runs throughput: clwarp_histogram, clwarp_run_length_encode,
 * clwarp_reduce_by_key and clwarp_unique per size. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: hist-rle-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N]
 *                       [--reps R] [--only OP] [--no-check 0|1] [--batch K] [--tsv FILE]
 *                       [--no-profiling] [--label TEXT] [--host]
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
 * (--no-check 1 skips that, for diagnostic builds, but not with --host).
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
 * --host adds, beside each device figure, the same call as a plain
 * single-threaded C loop on the host (median wall time of R, after one
 * untimed call), the CPU baseline; its result is checked against the
 * device's, and its rows have backend "host" and timing "wall", as
 * algorithms-bench's host rows.
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

/* The same call as a plain single-threaded C loop on the host (--host,
 * the CPU's own figure beside the device's, as algorithms-bench's host
 * loops; and the reference the device's result is checked against). Fills
 * keys (the runs' keys) and counts (bin counts, run lengths or sums);
 * returns the number of runs (0 for a histogram). */
static uint32_t
host_call(const struct bench_hr_case *c, const void *data, const uint32_t *vals, size_t n,
	  uint32_t *keys, uint32_t *counts)
{
	const uint32_t *u = data;
	const float *f = data;
	uint32_t runs = 0;

	if (c->kind == BENCH_HIST) {
		memset(counts, 0, (size_t)c->param * 4);
		if (c->range) {
			for (size_t i = 0; i < n; i++)
				if (u[i] < c->range)
					counts[(uint64_t)u[i] * c->param / c->range]++;
		} else {
			for (size_t i = 0; i < n; i++)   /* exact: f is k / 2^24 */
				if (f[i] >= 0.0f && f[i] < 1.0f)
					counts[(uint32_t)(f[i] * (float)c->param)]++;
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || u[i] != u[i - 1]) {
			keys[runs++] = u[i];
			if (c->kind == BENCH_UNIQUE)
				continue;
			counts[runs - 1] = 0;
		}
		if (c->kind == BENCH_RLE)
			counts[runs - 1]++;
		else if (c->kind == BENCH_RBK)
			counts[runs - 1] += vals[i];
	}
	return runs;
}

/* Keeps the compiler from dropping a host loop whose result is unused. */
static volatile uint32_t host_sink;

/* The host loop's wall time, median of r (one untimed call first, to warm
 * the caches and pages); *runs and the arrays hold its result. */
static double
time_host(const struct bench_hr_case *c, const void *data, const uint32_t *vals, size_t n, int r,
	  uint32_t *keys, uint32_t *counts, uint32_t *runs, double *t)
{
	*runs = host_call(c, data, vals, n, keys, counts);
	for (int i = 0; i < r; i++) {
		double t0 = bench_now_s();

		*runs = host_call(c, data, vals, n, keys, counts);
		t[i] = (bench_now_s() - t0) * 1e3;
		host_sink += *runs + (c->kind == BENCH_UNIQUE ? keys[0] : counts[0]);
	}
	return bench_median(t, r);
}

/* The device's result against the host's (want_keys, want, runs from
 * host_call): every count of the histogram; every run's key and length
 * (run-length encode), key and sum (reduce by key) or key (unique). */
static void
check(clwarp_engine *e, const struct bench_hr_case *c, const struct buffers *b,
      const uint32_t *want_keys, const uint32_t *want, uint32_t runs, size_t n)
{
	size_t slots = c->kind != BENCH_HIST ? runs : c->param;
	uint32_t *got = malloc((slots ? slots : 1) * 4), got_runs = 0;
	bool ok = true;

	if (!got) {
		fprintf(stderr, "hist-rle-bench: out of memory\n");
		exit(1);
	}
	if (c->kind != BENCH_HIST) {
		clwarp_buffer_read(e, b->num, 0, 4, &got_runs);
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
	free(got);
}

/* What every size's run needs from main. */
struct run {
	clwarp_engine *e;
	const clwarp_device_info *info;
	const char *backend_name;
	FILE *tsv;
	int reps, no_check, batch;
	bool profiling, host;
};

/* The input of one case and size: samples or keys in h, values in hv
 * (reduce by key), both on the device in b. */
static void
make_input(const struct run *x, const struct bench_hr_case *c, int l, uint32_t *h, uint32_t *hv,
	   struct buffers *b)
{
	size_t n = (size_t)1 << l;
	/* Runs: n unique keys and counts (or sums) at most. */
	size_t slots = c->kind != BENCH_HIST ? n : c->param;
	clwarp_status s;

	if (c->kind != BENCH_HIST)
		bench_rle_keys(h, n, c->param, 42 + (uint64_t)l);
	else if (c->range)
		bench_hist_uint(h, n, c->range, 42 + (uint64_t)l);
	else
		bench_hist_float((float *)h, n, c->sorted, 42 + (uint64_t)l);
	if ((s = clwarp_buffer_new(x->e, CL_MEM_READ_WRITE, n * 4, h, &b->in)) != CLWARP_OK ||
	    (s = clwarp_buffer_new(x->e, CL_MEM_READ_WRITE, slots * 4, NULL, &b->counts)) ||
	    (s = clwarp_buffer_new(x->e, CL_MEM_READ_WRITE, slots * 4, NULL, &b->out)) ||
	    (s = clwarp_buffer_new(x->e, CL_MEM_READ_WRITE, 4, NULL, &b->num)))
		die("buffers", s);
	if (c->kind == BENCH_RBK) {
		for (size_t i = 0; i < n; i++)
			hv[i] = bench_rbk_value(i);
		if ((s = clwarp_buffer_new(x->e, CL_MEM_READ_WRITE, n * 4, hv, &b->vals)) != CLWARP_OK)
			die("buffers", s);
	}
}

static void *
xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p) {
		fprintf(stderr, "hist-rle-bench: out of memory\n");
		exit(1);
	}
	return p;
}

/* One case at one size: the device's figures, and with --host the host
 * loop's (a row whose backend is "host", timing "wall", as
 * algorithms-bench writes its host rows). */
static void
run_size(const struct run *x, const struct bench_hr_case *c, int l)
{
	size_t n = (size_t)1 << l, slots = c->kind != BENCH_HIST ? n : c->param;
	uint32_t *h = xmalloc(n * 4), *hv = c->kind == BENCH_RBK ? xmalloc(n * 4) : NULL;
	uint32_t *keys = xmalloc(slots * 4), *counts = xmalloc(slots * 4), runs = 0;
	int r = n > ((size_t)1 << 24) ? (x->reps + 1) / 2 : x->reps;
	double *t = xmalloc(sizeof(double) * (size_t)r), ms = 0, wall_ms, batch_ms, host_ms = 0;
	double per[BATCH_ROUNDS];
	struct buffers b = { 0 };

	make_input(x, c, l, h, hv, &b);
	blocking_call(x->e, c, &b, n);   /* build, allocate, warm up */
	if (x->host)
		host_ms = time_host(c, h, hv, n, r, keys, counts, &runs, t);
	else if (!x->no_check)
		runs = host_call(c, h, hv, n, keys, counts);
	if (x->host || !x->no_check)
		check(x->e, c, &b, keys, counts, runs, n);
	if (x->profiling) {
		for (int i = 0; i < r; i++)
			t[i] = timed_call(x->e, c, &b, n);
		ms = bench_median(t, r);
	}
	for (int i = 0; i < r; i++)
		t[i] = blocking_call(x->e, c, &b, n);
	wall_ms = bench_median(t, r);
	if (!x->profiling)
		ms = wall_ms;
	/* At most about a second of back-to-back calls a size. */
	int k = wall_ms * x->batch * BATCH_ROUNDS > 1000.0 ? (int)(1000.0 / (wall_ms * BATCH_ROUNDS))
							    : x->batch;

	for (int i = 0; i < BATCH_ROUNDS; i++)
		per[i] = batch_calls(x->e, c, &b, n, k > 2 ? k : 2);
	batch_ms = bench_median(per, BATCH_ROUNDS);
	printf("%-11s %-6s %5d %12.4f %10.1f %12.4f %12.4f", c->op, c->type, l, ms,
	       (double)n * 4 / ms * 1e-6, wall_ms, batch_ms);
	if (x->host)
		printf(" %12.4f", host_ms);
	printf("\n");
	fflush(stdout);
	if (x->tsv) {
		fprintf(x->tsv, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.3f\t%.6f\t%s\t%.6f\n", x->info->name,
			x->backend_name, c->op, c->type, n, ms, (double)n * 4 / ms * 1e-6, wall_ms,
			x->profiling ? "event" : "wall", batch_ms);
		if (x->host)
			fprintf(x->tsv, "%s\thost\t%s\t%s\t%zu\t%.6f\t%.4f\t%.6f\twall\t%.6f\n",
				x->info->name, c->op, c->type, n, host_ms, (double)n * 4 / host_ms * 1e-6,
				host_ms, 0.0);
		fflush(x->tsv);
	}
	clReleaseMemObject(b.in);
	clReleaseMemObject(b.out);
	clReleaseMemObject(b.counts);
	clReleaseMemObject(b.num);
	if (b.vals)
		clReleaseMemObject(b.vals);
	free(h);
	free(hv);
	free(keys);
	free(counts);
	free(t);
}

int
main(int argc, char **argv)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	const char *tsv_path = NULL, *only = NULL, *label = NULL;
	bool profiling = true, host = false;
	char backend_name[64];
	int min_log2 = 16, max_log2 = 28, reps = 20, no_check = 0, batch = 32;
	FILE *tsv = NULL;
	unsigned warp = 0;
	clwarp_backend backend;
	clwarp_status s;

	clwarp_engine_options_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-profiling") || !strcmp(a, "--host")) {
			profiling = profiling && strcmp(a, "--no-profiling");
			host = host || !strcmp(a, "--host");
			continue;
		}
		if (!v) {
			fprintf(stderr, "usage: hist-rle-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N] [--reps R] [--only OP] [--no-check 0|1] [--batch K] [--tsv FILE] [--no-profiling] [--label TEXT] [--host]\n");
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
	printf("%-11s %-6s %5s %12s %10s %12s %12s%s\n", "op", "type", "log2", "median ms", "GB/s",
	       "blocking ms", "b2b ms", host ? "      host ms" : "");
	struct run x = { e, info, backend_name, tsv, reps, no_check, batch, profiling, host };

	for (size_t ci = 0; ci < BENCH_HR_CASES; ci++) {
		const struct bench_hr_case *c = &bench_hr_cases[ci];

		if (only && !bench_in_list(only, c->op))
			continue;
		for (int l = min_log2; l <= max_log2; l += 2)
			run_size(&x, c, l);
	}
	if (tsv)
		fclose(tsv);
	clwarp_engine_free(e);
	return 0;
}
