/* Host-device copy bandwidth by size: the driver's own copies from
 * malloc'd memory and from a mapped CL_MEM_ALLOC_HOST_PTR buffer, against
 * libclwarp's from clwarp_host_buffer_new memory and from malloc'd memory
 * (staged through the engine's pinned chunks, src/staging.c). */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: copy-bench [--max SIZE | --sizes LIST] [--reps R] [--device SPEC] [--tsv FILE] [--profiling]
 *
 * Sizes 4 KiB, 16 KiB, ... up to SIZE (default 1G; K, M and G suffixes),
 * or the sizes of LIST (comma-separated, e.g. 16M,24M,32M), capped by the
 * device's largest allocation. For each size and direction,
 * the median over R runs (default 5) of the wall time of blocking copies
 * (small sizes repeated within a run to reach about 4 MiB), for
 *   pageable:      clEnqueueWrite/ReadBuffer (blocking) with malloc'd memory;
 *   raw-pinned:    the same with the mapped pointer of a CL_MEM_ALLOC_HOST_PTR
 *                  buffer of the engine's context;
 *   clwarp-pinned: clwarp_buffer_write/read with clwarp_host_buffer_new memory;
 *   staged:        clwarp_buffer_write/read with the malloc'd memory.
 * GB/s = bytes / time (10^9 bytes). Ratios: staged/raw-pinned,
 * staged/pageable, clwarp-pinned/raw-pinned. --tsv FILE also writes one
 * line "dir<TAB>bytes<TAB>path<TAB>GB/s" per measurement, the format of
 * bench/copy-bench-cuda.cu (bench/run-copy-gpu.sh joins them).
 * --profiling makes the engine's queue a profiling one: with
 * CLWARP_LOG_LEVEL=debug each staged copy then logs its timeline piece by
 * piece, DMA times included (src/staging_trace.c).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "clwarp/clwarp.h"

#define MAX_REPS 101
#define MAX_SIZES 32

static void
usage(FILE *f)
{
	fprintf(f, "Usage: copy-bench [--max SIZE | --sizes LIST] [--reps R] [--device SPEC] [--tsv FILE] [--profiling]\n"
		   "  --max SIZE     largest copy (default 1G; K, M, G suffixes); sizes 4K, 16K, ... up to it\n"
		   "  --sizes LIST   these sizes instead, comma-separated (e.g. 16M,24M,32M; at most 32)\n"
		   "  --reps R       runs per size, the median is shown (default 5, at most 101)\n"
		   "  --device SPEC  \"P:D\", \"cpu\", \"gpu\" or a name substring\n"
		   "  --tsv FILE     also write dir, bytes, path, GB/s lines to FILE\n"
		   "  --profiling    a profiling queue (staged copies' DMA times at log level debug)\n"
		   "  -h, --help     this text\n");
}

static int
bad_usage(const char *why)
{
	fprintf(stderr, "copy-bench: %s\n", why);
	usage(stderr);
	return 2;
}


static void
die(const char *what)
{
	fprintf(stderr, "copy-bench: %s: %s\n", what, clwarp_last_error());
	exit(1);
}

enum path { PAGEABLE, RAW, HOST, STAGED, PATHS };

static const char *const path_names[PATHS] = { "pageable", "raw-pinned", "clwarp-pinned", "staged" };

/* Blocking copies of `bytes` between `host` and `buf`, `inner` times;
 * returns the seconds they took. */
static double
copy_time(clwarp_engine *e, enum path p, int write, cl_mem buf, void *host, size_t bytes, int inner)
{
	cl_command_queue q = clwarp_engine_queue(e);
	double t0 = bench_now_s();

	for (int i = 0; i < inner; i++) {
		if (p == RAW || p == PAGEABLE) {
			cl_int err = write ? clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL)
					   : clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL);

			if (err != CL_SUCCESS) {
				fprintf(stderr, "copy-bench: raw copy: %s\n", clwarp_cl_error_name(err));
				exit(1);
			}
		} else if ((write ? clwarp_buffer_write(e, buf, 0, bytes, host)
				  : clwarp_buffer_read(e, buf, 0, bytes, host)) != CLWARP_OK) {
			die(write ? "clwarp_buffer_write" : "clwarp_buffer_read");
		}
	}
	return bench_now_s() - t0;
}

int
main(int argc, char **argv)
{
	enum { OPT_MAX = 256, OPT_SIZES, OPT_REPS, OPT_DEVICE, OPT_TSV, OPT_PROFILING };
	static const struct option options[] = {
		{ "max", required_argument, NULL, OPT_MAX },
		{ "sizes", required_argument, NULL, OPT_SIZES },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "tsv", required_argument, NULL, OPT_TSV },
		{ "profiling", no_argument, NULL, OPT_PROFILING },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t max = (size_t)1 << 30, sizes[MAX_SIZES];
	unsigned nsizes = 0;
	int reps = 5, c, pinned = 0;
	clwarp_engine_options eo;
	clwarp_engine *e = NULL;
	void *host[PATHS] = { NULL };
	unsigned char *check;
	const char *tsv_path = NULL, *knobs = getenv("CLWARP_STAGING");
	FILE *tsv = NULL;
	cl_mem raw_mem = NULL;
	cl_int err;

	clwarp_engine_options_init(&eo);
	eo.flags = CLWARP_ENGINE_NO_DISK_CACHE;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case OPT_MAX:
			if (bench_parse_size(optarg, &max) != 0)
				return bad_usage("--max takes a size of at least 4K, e.g. 64M");
			break;
		case OPT_SIZES:
			max = 0;
			for (char *item = strtok(optarg, ","); item; item = strtok(NULL, ",")) {
				if (nsizes == MAX_SIZES || bench_parse_size(item, &sizes[nsizes]) != 0)
					return bad_usage("--sizes takes up to 32 sizes of at least 4K, e.g. 16M,24M,32M");
				if (sizes[nsizes] > max)
					max = sizes[nsizes];
				nsizes++;
			}
			if (!nsizes)
				return bad_usage("--sizes takes up to 32 sizes of at least 4K, e.g. 16M,24M,32M");
			break;
		case OPT_REPS:
			reps = atoi(optarg);
			if (reps < 1 || reps > MAX_REPS)
				return bad_usage("--reps takes 1 to 101");
			break;
		case OPT_DEVICE:
			eo.device = optarg;
			break;
		case OPT_TSV:
			tsv_path = optarg;
			break;
		case OPT_PROFILING:
			eo.flags |= CLWARP_ENGINE_PROFILING;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument");
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}

	if (clwarp_engine_new(&eo, &e) != CLWARP_OK)
		die("engine");
	if (max > clwarp_engine_device_info(e)->max_alloc_size)
		max = (size_t)clwarp_engine_device_info(e)->max_alloc_size;
	/* Without --sizes: 4K, 16K, ... up to max. */
	if (!nsizes)
		for (size_t bytes = 4096; bytes <= max && nsizes < MAX_SIZES; bytes *= 4)
			sizes[nsizes++] = bytes;

	/* The pageable and the staged path copy the same malloc'd memory. */
	host[PAGEABLE] = host[STAGED] = malloc(max);
	check = malloc(max);
	if (!host[PAGEABLE] || !check)
		die("malloc");
	if (clwarp_host_buffer_new(e, max, &host[HOST]) != CLWARP_OK)
		die("clwarp_host_buffer_new");
	if (clwarp_host_buffer_pinned(e, host[HOST], &pinned) != CLWARP_OK)
		die("clwarp_host_buffer_pinned");
	raw_mem = clCreateBuffer(clwarp_engine_context(e), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, max,
				 NULL, &err);
	if (err == CL_SUCCESS)
		host[RAW] = clEnqueueMapBuffer(clwarp_engine_queue(e), raw_mem, CL_TRUE,
					       CL_MAP_READ | CL_MAP_WRITE, 0, max, 0, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "copy-bench: mapped CL_MEM_ALLOC_HOST_PTR buffer: %s\n",
			clwarp_cl_error_name(err));
		return 1;
	}
	/* Touch every page first: no first-use faults inside the timings. */
	for (int p = PAGEABLE; p < STAGED; p++)
		memset(host[p], p + 1, max);

	printf("# copy-bench: %s (%s); clwarp_host_buffer_new memory is %s; CLWARP_STAGING=%s; median of %d runs\n",
	       clwarp_engine_device_info(e)->name, clwarp_engine_device_info(e)->platform_name,
	       pinned ? "pinned" : "ordinary (the documented fallback)", knobs ? knobs : "(default)", reps);
	printf("# GB/s; staged/raw = staged / raw-pinned, staged/pgbl = staged / pageable,\n"
	       "# cw/raw = clwarp-pinned / raw-pinned\n");
	printf("%-5s %11s %9s %9s %9s %9s %10s %11s %7s\n", "dir", "bytes", "pageable", "raw-pin",
	       "clwarp-pin", "staged", "staged/raw", "staged/pgbl", "cw/raw");
	for (unsigned si = 0; si < nsizes; si++) {
		size_t bytes = sizes[si];
		cl_mem buf = NULL;

		if (bytes > max)
			continue;
		int inner = bytes >= ((size_t)4 << 20) ? 1 : (int)(((size_t)4 << 20) / bytes);

		if (clwarp_buffer_new(e, CL_MEM_READ_WRITE, bytes, NULL, &buf) != CLWARP_OK)
			die("clwarp_buffer_new");
		for (int write = 1; write >= 0; write--) {
			double gbs[PATHS], t[MAX_REPS];

			for (int p = 0; p < PATHS; p++) {
				copy_time(e, (enum path)p, write, buf, host[p], bytes, 1); /* warm-up */
				for (int r = 0; r < reps; r++)
					t[r] = copy_time(e, (enum path)p, write, buf, host[p], bytes, inner);
				gbs[p] = (double)bytes * inner / bench_median(t, reps) / 1e9;
				if (tsv)
					fprintf(tsv, "%s\t%zu\t%s\t%.4f\n", write ? "write" : "read", bytes,
						path_names[p], gbs[p]);
			}
			printf("%-5s %11zu %9.2f %9.2f %9.2f %9.2f %10.2f %11.2f %7.2f\n",
			       write ? "write" : "read", bytes, gbs[PAGEABLE], gbs[RAW], gbs[HOST], gbs[STAGED],
			       gbs[STAGED] / gbs[RAW], gbs[STAGED] / gbs[PAGEABLE], gbs[HOST] / gbs[RAW]);
			fflush(stdout);
		}
		/* Every byte arrives: a pattern written and read back through the
		 * public calls (staged from the threshold up) into other memory. */
		for (size_t i = 0; i < bytes / 8; i++)
			((uint64_t *)host[STAGED])[i] = i * 0x9E3779B97F4A7C15ull + bytes;
		memset(check, 0, bytes);
		if (clwarp_buffer_write(e, buf, 0, bytes, host[STAGED]) != CLWARP_OK ||
		    clwarp_buffer_read(e, buf, 0, bytes, check) != CLWARP_OK)
			die("checked copy");
		if (memcmp(check, host[STAGED], bytes) != 0) {
			fprintf(stderr, "copy-bench: %zu bytes written and read back differ\n", bytes);
			return 1;
		}
		clReleaseMemObject(buf);
	}
	clEnqueueUnmapMemObject(clwarp_engine_queue(e), raw_mem, host[RAW], 0, NULL, NULL);
	clFinish(clwarp_engine_queue(e));
	clReleaseMemObject(raw_mem);
	free(host[PAGEABLE]);
	free(check);
	clwarp_host_buffer_free(e, host[HOST]);
	clwarp_engine_free(e);
	if (tsv && fclose(tsv) != 0) {
		perror(tsv_path);
		return 1;
	}
	return 0;
}
