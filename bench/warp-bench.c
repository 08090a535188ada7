/* warp-bench: Gop/s of chains of dependent warp operations, one kernel per family (libclwarp side). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "clwarp/clwarp.h"
#include "warp-bench-ref.h"

/*
 * What is measured and how (bench/warp-bench.cu does the same in CUDA).
 *
 * bench/warp-bench.cl has one kernel per family of warp functions; each
 * work-item runs `iters` (default 256) dependent steps of one warp
 * operation plus one or two ALU operations, then stores its value, so with
 * n = 2^24 work-items the shuffle/vote unit is the bottleneck. The steps
 * are listed in bench/warp-bench-ref.h, which also holds the host
 * reference that both sides check against.
 *
 * The program is built once through the engine (device from
 * CLWARP_DEVICE, backend from CLWARP_BACKEND, as the engine reads them).
 * Each family is launched on n work-items in work-groups of 256: 3 warm-up
 * runs, then 11 timed runs; the row gives their median, min and max and
 * Gop/s = n * iters / median (warp operations per second, 10^9). A run is
 * timed as algorithms-bench times its calls, the counterpart of
 * cudaEvents around the launch: the engine's queue has profiling on, a
 * marker is enqueued and flushed just before the launch, and the time is
 * the kernel's CL_PROFILING_COMMAND_END minus the marker's; where those
 * stamps are unusable the row uses the host wall time of launch+clFinish
 * and stderr says so.
 *
 * Checks: the output of the first warm-up run and of the last timed run is
 * compared, bit for bit, with the reference for the first 4 warps and the
 * last warp; a family with any difference prints the mismatches and no
 * row, and the program exits 1 after the others. A build error (a warp
 * function missing, say) prints the build log and exits 1.
 *
 * stdout: TSV "family backend n iters median_ms min_ms max_ms Gop/s", a
 * header first. stderr: the device, the backend, progress.
 */

#define WARMUP 3
#define TIMED 11
#define LOCAL_SIZE 256
#define CHECK_WARPS 4

static const char *progname = "warp-bench";

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

PRINTF_LIKE(1, 2) static void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
die_status(clwarp_status s, const char *what)
{
	const char *msg = clwarp_last_error();

	die("%s: %s%s%s", what, clwarp_status_name(s), *msg ? ": " : "", msg);
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

struct bench {
	clwarp_engine *engine;
	cl_command_queue queue;
	clwarp_program *program;
	const char *backend;
	unsigned warp;      /* W */
	size_t n;
	unsigned iters;
	cl_mem out;
	int profiling;      /* the queue has CL_QUEUE_PROFILING_ENABLE */
	int wall_warned;
};

/*
 * One run: [marker; clFlush;] launch; clFinish. Returns milliseconds: the
 * event time, or the wall time where the stamps are unusable (*wall = 1).
 */
static double
run_once(struct bench *b, clwarp_kernel *k, int *wall, const char **why)
{
	size_t global = b->n, local = LOCAL_SIZE;
	cl_event mark = NULL, ev = NULL;
	double t_mark, t0, t1, ms = 0;
	clwarp_status s;
	cl_int err;

	*wall = 1;
	*why = "the queue has no profiling";
	t_mark = bench_now_s();
	if (b->profiling) {
		err = clEnqueueMarkerWithWaitList(b->queue, 0, NULL, &mark);
		if (err == CL_SUCCESS)
			err = clFlush(b->queue); /* submit it now, as cudaEventRecord does */
		if (err != CL_SUCCESS)
			die("enqueueing the marker: %s", clwarp_cl_error_name(err));
	}
	t0 = bench_now_s();
	s = clwarp_kernel_launch(k, 1, &global, &local, &ev);
	if (s != CLWARP_OK)
		die_status(s, "launching the kernel");
	err = clFinish(b->queue);
	t1 = bench_now_s();
	if (err != CL_SUCCESS)
		die("clFinish: %s", clwarp_cl_error_name(err));
	if (mark && ev) {
		cl_ulong m_end = stamp(mark, CL_PROFILING_COMMAND_END);
		cl_ulong k_start = stamp(ev, CL_PROFILING_COMMAND_START);
		cl_ulong k_end = stamp(ev, CL_PROFILING_COMMAND_END);

		if (!m_end || !k_start || !k_end)
			*why = "a profiling timestamp is 0";
		else if (m_end > k_start || k_start > k_end || m_end == k_end)
			*why = "not marker end <= kernel start <= kernel end";
		else if ((ms = (double)(k_end - m_end) * 1e-6) > 1.01e3 * (t1 - t_mark) + 0.1)
			*why = "the event time exceeds the host's time from the marker to clFinish";
		else
			*wall = 0;
	}
	if (mark)
		clReleaseEvent(mark);
	if (ev)
		clReleaseEvent(ev);
	return *wall ? (t1 - t0) * 1e3 : ms;
}

static float
bits_to_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Compare one warp's output with the reference; prints and counts mismatches. */
static int
check_warp(const struct bench *b, int family, size_t gid0, const uint32_t *got, const char *when)
{
	uint32_t want[WB_MAX_W];
	int bad = 0;

	wb_reference(family, b->warp, b->iters, (uint32_t)gid0, want);
	for (unsigned l = 0; l < b->warp; l++) {
		if (got[l] == want[l])
			continue;
		if (bad++ < 4) {
			if (wb_families[family].is_float)
				fprintf(stderr, "%s: MISMATCH %s (backend %s, %s): work-item %zu (lane %u): got %.9g (0x%08x), expected %.9g (0x%08x)\n",
				        progname, wb_families[family].name, b->backend, when, gid0 + l, l,
				        (double)bits_to_float(got[l]), got[l], (double)bits_to_float(want[l]),
				        want[l]);
			else
				fprintf(stderr, "%s: MISMATCH %s (backend %s, %s): work-item %zu (lane %u): got %u (0x%08x), expected %u (0x%08x)\n",
				        progname, wb_families[family].name, b->backend, when, gid0 + l, l,
				        got[l], got[l], want[l], want[l]);
		}
	}
	return bad;
}

/* The first CHECK_WARPS warps and the last one against the reference; 0 if all match. */
static int
check(struct bench *b, int family, const char *when)
{
	size_t count = (size_t)CHECK_WARPS * b->warp, last = b->n - b->warp;
	uint32_t got[CHECK_WARPS * WB_MAX_W];
	clwarp_status s;
	int bad = 0;

	if (count > b->n)
		count = b->n;
	s = clwarp_buffer_read(b->engine, b->out, 0, count * 4, got);
	if (s != CLWARP_OK)
		die_status(s, "reading the result");
	for (size_t w = 0; w < count; w += b->warp)
		bad += check_warp(b, family, w, got + w, when);
	if (last >= count) {
		s = clwarp_buffer_read(b->engine, b->out, last * 4, (size_t)b->warp * 4, got);
		if (s != CLWARP_OK)
			die_status(s, "reading the result");
		bad += check_warp(b, family, last, got, when);
	}
	if (bad)
		fprintf(stderr, "%s: %s: %d wrong values (%s); no time printed\n", progname,
		        wb_families[family].name, bad, when);
	return bad;
}

/* Warm up, check, time, check again, print the row. 0 if the results were right. */
static int
bench_family(struct bench *b, int family)
{
	char name[64];
	clwarp_kernel *k;
	clwarp_status s;
	double ms[TIMED], sorted[TIMED], median;
	const char *why = NULL;
	int wall, any_wall = 0;
	cl_uint iters = b->iters;
	uint32_t poison[CHECK_WARPS * WB_MAX_W];

	snprintf(name, sizeof(name), "wb_%s", wb_families[family].name);
	s = clwarp_kernel_new(b->program, name, &k);
	if (s != CLWARP_OK)
		die_status(s, name);
	s = clwarp_kernel_set_arg_buffer(k, 0, b->out);
	if (s == CLWARP_OK)
		s = clwarp_kernel_set_arg_scalar(k, 1, sizeof(iters), &iters);
	if (s != CLWARP_OK)
		die_status(s, "setting the kernel's arguments");
	/* A kernel that writes nothing must not pass on the previous family's output. */
	memset(poison, 0xA5, sizeof(poison));
	s = clwarp_buffer_write(b->engine, b->out, 0,
	                        (b->n < CHECK_WARPS * b->warp ? b->n : (size_t)CHECK_WARPS * b->warp) * 4,
	                        poison);
	if (s != CLWARP_OK)
		die_status(s, "clearing the output");

	for (int r = 0; r < WARMUP; r++) {
		run_once(b, k, &wall, &why);
		if (r == 0 && check(b, family, "first run")) {
			clwarp_kernel_free(k);
			return 1;
		}
	}
	for (int r = 0; r < TIMED; r++) {
		const char *w_why;
		ms[r] = run_once(b, k, &wall, &w_why);
		if (wall && !any_wall) {
			any_wall = 1;
			why = w_why;
		}
	}
	clwarp_kernel_free(k);
	if (check(b, family, "last timed run"))
		return 1;
	if (any_wall && !b->wall_warned) {
		fprintf(stderr, "%s: profiling timestamps unusable (%s): rows use the host WALL time of launch+clFinish\n",
		        progname, why);
		b->wall_warned = 1;
	}
	memcpy(sorted, ms, sizeof(ms));
	qsort(sorted, TIMED, sizeof(*sorted), bench_by_double);
	median = sorted[TIMED / 2];
	printf("%s\t%s\t%zu\t%u\t%.4f\t%.4f\t%.4f\t%.2f\n", wb_families[family].name, b->backend,
	       b->n, b->iters, median, sorted[0], sorted[TIMED - 1],
	       (double)b->n * b->iters / (median * 1e-3) / 1e9);
	fflush(stdout);
	return 0;
}

static void
usage(FILE *f)
{
	fprintf(f,
	        "usage: %s [-n LOG2] [-i ITERS] [-f FAMILY] [-k FILE.cl]\n"
	        "  -n LOG2    2^LOG2 work-items (default 24; 8..30), work-groups of %d\n"
	        "  -i ITERS   dependent warp operations per work-item (default 256, a multiple of 16)\n"
	        "  -f FAMILY  only this family (default all):\n   ",
	        progname, LOCAL_SIZE);
	for (int f2 = 0; f2 < WB_N_FAMILIES; f2++)
		fprintf(f, " %s", wb_families[f2].name);
	fprintf(f, "\n  -k FILE    the kernels (default $CLWARP_SOURCE_ROOT/bench/warp-bench.cl, else\n"
	           "             %s)\n"
	           "Device and backend: CLWARP_DEVICE, CLWARP_BACKEND (read by the engine).\n"
	           "stdout: TSV family backend n iters median_ms min_ms max_ms Gop/s\n",
	        WARP_BENCH_CL);
}

static long
parse_long(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end)
		die("%s: not a number: '%s'", what, s);
	return v;
}

int
main(int argc, char **argv)
{
	struct bench b = {0};
	clwarp_engine_options eo;
	clwarp_build_info info = {0};
	clwarp_backend backend;
	clwarp_status s;
	cl_command_queue_properties qprops = 0;
	const char *family_name = NULL, *path = NULL, *root;
	char path_buf[4096], build_opts[128] = "";
	long log2n = 24, iters = 256;
	int only = -1, c, failed = 0;

	while ((c = getopt(argc, argv, "n:i:f:k:h")) != -1) {
		switch (c) {
		case 'n': log2n = parse_long(optarg, "-n"); break;
		case 'i': iters = parse_long(optarg, "-i"); break;
		case 'f': family_name = optarg; break;
		case 'k': path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (log2n < 8 || log2n > 30)
		die("-n %ld: LOG2 must be 8..30", log2n);
	if (iters < 16 || iters % 16 || iters > 1 << 20)
		die("-i %ld: ITERS must be a positive multiple of 16 (up to 2^20)", iters);
	if (family_name) {
		for (int f = 0; f < WB_N_FAMILIES; f++)
			if (!strcmp(family_name, wb_families[f].name))
				only = f;
		if (only < 0) {
			fprintf(stderr, "%s: unknown family '%s'\n", progname, family_name);
			usage(stderr);
			return 2;
		}
		snprintf(build_opts, sizeof(build_opts), "-DWB_ONLY -DWB_ONLY_%s", family_name);
	}
	if (!path) {
		root = getenv("CLWARP_SOURCE_ROOT");
		if (root && *root) {
			snprintf(path_buf, sizeof(path_buf), "%s/bench/warp-bench.cl", root);
			path = path_buf;
		} else {
			path = WARP_BENCH_CL;
		}
	}
	b.n = (size_t)1 << log2n;
	b.iters = (unsigned)iters;

	clwarp_engine_options_init(&eo);
	eo.flags |= CLWARP_ENGINE_PROFILING;
	s = clwarp_engine_new(&eo, &b.engine);
	if (s != CLWARP_OK)
		die_status(s, "creating the engine");
	s = clwarp_engine_backend(b.engine, &backend, &b.warp);
	if (s != CLWARP_OK)
		die_status(s, "choosing the warp backend");
	b.backend = clwarp_backend_name(backend);
	if (b.warp < 2 || b.warp > WB_MAX_W)
		die("warp size %u: the reference needs 2..%d", b.warp, WB_MAX_W);
	b.queue = clwarp_engine_queue(b.engine);
	if (clGetCommandQueueInfo(b.queue, CL_QUEUE_PROPERTIES, sizeof(qprops), &qprops, NULL) ==
	    CL_SUCCESS)
		b.profiling = (qprops & CL_QUEUE_PROFILING_ENABLE) != 0;

	const clwarp_device_info *dev = clwarp_engine_device_info(b.engine);
	fprintf(stderr, "%s: device %s (%s, driver %s), backend %s, warp size %u\n", progname,
	        dev->name, dev->platform_name, dev->driver_version, b.backend, b.warp);
	fprintf(stderr, "%s: n = 2^%ld, local size %d, %u steps, %d warm-up + %d timed runs, %s time\n",
	        progname, log2n, LOCAL_SIZE, b.iters, WARMUP, TIMED,
	        b.profiling ? "event (marker -> kernel end)" : "WALL");

	s = clwarp_program_build_file(b.engine, path, build_opts[0] ? build_opts : NULL, &b.program,
	                              &info);
	if (s != CLWARP_OK) {
		fprintf(stderr, "%s: building %s failed: %s: %s\n%s\n", progname, path,
		        clwarp_status_name(s), clwarp_last_error(), info.log ? info.log : "(no build log)");
		clwarp_build_info_free(&info);
		clwarp_engine_free(b.engine);
		return 1;
	}
	fprintf(stderr, "%s: built %s (%s, %.0f ms)\n", progname, path,
	        clwarp_build_source_name(info.source), info.milliseconds);
	clwarp_build_info_free(&info);

	s = clwarp_buffer_new(b.engine, CL_MEM_READ_WRITE, b.n * 4, NULL, &b.out);
	if (s != CLWARP_OK)
		die_status(s, "allocating the output");

	printf("family\tbackend\tn\titers\tmedian_ms\tmin_ms\tmax_ms\tGop/s\n");
	fflush(stdout);
	for (int f = 0; f < WB_N_FAMILIES; f++)
		if (only < 0 || f == only)
			failed += bench_family(&b, f);

	clReleaseMemObject(b.out);
	clwarp_engine_free(b.engine);
	if (failed)
		fprintf(stderr, "%s: %d famil%s gave WRONG results\n", progname, failed,
		        failed == 1 ? "y" : "ies");
	return failed ? 1 : 0;
}
