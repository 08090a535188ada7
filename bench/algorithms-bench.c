/* Benchmark: GB/s of the device-wide algorithms per warp backend, beside a copy kernel and host loops. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms-bench.h"

/*
 * What is measured and how.
 *
 * Each (operation, n) is run once to build its kernels and check the result
 * against a host reference (a wrong answer stops the run, or with
 * --keep-going that operation), once more to learn its cost, then R times;
 * the table shows the median. GB/s counts the bytes the operation must
 * move at the least (see bytes_moved()), in units of 10^9 bytes.
 *
 * Three measures of each call (bench/cub-bench.cu takes the same of CUB):
 *  - event time, below: the GPU timeline of one call (median of R);
 *  - blocking: host wall time (clock_gettime) of one blocking public call,
 *    event NULL, which waits for its result (median of R): what an
 *    application that waits for each call sees (TSV: wall_ms);
 *  - back to back: K calls queued (each hands out an event, released at
 *    once; the copy kernel: clwarp_kernel_enqueue), one clFinish, wall
 *    time / K, the median of 5 such rounds: throughput over many calls
 *    (TSV: batch_ms).
 *
 * One repetition is timed on the device's timeline, as bench/cub-bench.cu
 * times CUB with cudaEvents recorded on the stream around the call: the
 * engine's queue has profiling on (CLWARP_ENGINE_PROFILING); a marker
 * (clEnqueueMarkerWithWaitList) is enqueued and flushed right before the
 * call, as cudaEventRecord submits its event at once, and the call hands
 * back the event of its last command. The time is that command's
 * CL_PROFILING_COMMAND_END minus the marker's. Like the CUDA event time it
 * includes the launch latency of the first kernel (the queue is idle, so
 * the marker completes as soon as it is submitted) and any gaps between
 * the call's kernels, but not the host's wake-up from clFinish. The copy
 * kernel is timed the same way.
 *
 * Each repetition's timestamps are checked (non-zero, marker end <= last
 * command's start <= its end, and no longer than the host saw from the
 * marker to clFinish's return); a result with any repetition that fails
 * the checks, or from a queue without profiling, uses the wall time of
 * `marker; call; clFinish` instead, and the output says so (a '*' in the
 * tables, the TSV's timing column).
 *
 * The input is n values k/256 with k uniform in [-256, 255] (floats) or k
 * itself (ints): about half are > 0, and every partial sum a float
 * reduction or scan of such data can reach in practice is a multiple of
 * 1/256 below 2^16, hence exact, so float results can be checked tightly.
 * bench/cub-bench.cu draws the same numbers.
 */

/* --ops: the operations run by default, and every one. */
static const char *const default_ops = "reduce,scan,compact,segreduce,softmax";
static const char *const all_ops =
	"reduce,minmax,scan,exscan,compact,compact_sparse,partition,partition_reversed,segreduce,softmax,"
	"segscan";

/* ------------------------------------------------------------ command line */

static void
usage(FILE *f)
{
	fprintf(f,
	        "Usage: %s [OPTIONS]\n"
	        "GB/s of libclwarp's device-wide algorithms for each warp backend a device runs,\n"
	        "beside a copy kernel (and plain C loops on CPU devices).\n"
	        "\n"
	        "  -d, --device SPEC    \"P:D\", \"cpu\", \"gpu\" or a name substring (default: the engine's)\n"
	        "  -b, --backends LIST  backends to try, comma-separated (default: auto,local);\n"
	        "                       one the device cannot run is skipped, and so is one that\n"
	        "                       resolves to a backend already measured\n"
	        "      --ops LIST       %s (default),\n"
	        "                       or any of: %s; \"all\" for every one\n"
	        "      --min-log2 N     smallest n = 2^N (default %d)\n"
	        "      --max-log2 N     largest n = 2^N (default: up to 2^%d, while three buffers of\n"
	        "                       n floats fit the device's global memory and max allocation)\n"
	        "  -r, --reps N         timed repetitions per size (default 20; half above 2^24)\n"
	        "      --budget S       at most about S seconds of repetitions per size and measure\n"
	        "                       (default 3)\n"
	        "      --batch K        calls queued back to back per round (default 32; fewer\n"
	        "                       where K would take over the budget)\n"
	        "      --tsv FILE       also write device, backend, op, type, n, median_ms, gbps,\n"
	        "                       wall_ms, timing, batch_ms rows (gbps is from median_ms,\n"
	        "                       timed as `timing` says: event or wall; wall_ms: one\n"
	        "                       blocking call; batch_ms: back to back, per call)\n"
	        "      --label TEXT     write backends as NAME[TEXT] in the TSV (e.g. the\n"
	        "                       CLWARP_ALGO_TUNING of this run)\n"
	        "      --no-profiling   an engine without CLWARP_ENGINE_PROFILING, as users make\n"
	        "                       them: blocking and back to back as before, the median\n"
	        "                       from wall time (timing \"wall\")\n"
	        "      --no-host        skip the host loops on CPU devices\n"
	        "      --keep-going     after a wrong result or a failed call, skip that operation's\n"
	        "                       larger sizes and go on (exit status 1 at the end); by default\n"
	        "                       the run stops there\n"
	        "  -l, --list           list the OpenCL devices and exit\n"
	        "  -h, --help           this text\n",
	        progname, default_ops, all_ops, LOG2_FLOOR, LOG2_CEIL);
}

PRINTF_LIKE(1, 2) static void
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(2);
}

static int
parse_int(const char *s, int lo, int hi, const char *opt)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		bad_usage("bad value for %s", opt);
	return (int)v;
}

/* Is `name` one of the comma-separated words of `list`? */
static int
in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == len && strncmp(p, name, len) == 0)
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static int
list_devices(void)
{
	clwarp_device_info *list;
	size_t count;
	clwarp_status s = clwarp_device_list_new(&list, &count);

	if (s != CLWARP_OK)
		die_status(s, "listing devices");
	for (size_t i = 0; i < count; i++)
		printf("%u:%u  %s  (%s; %s)\n", list[i].platform_index, list[i].device_index,
		       list[i].name, list[i].platform_name, list[i].device_version);
	clwarp_device_list_free(list, count);
	return 0;
}

/* Largest log2(n) such that three buffers of n floats fit the device, and the host arrays fit RAM. */
static int
memory_log2(const clwarp_device_info *info)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double host = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
	int l = LOG2_CEIL;

	for (; l > LOG2_FLOOR; l--) {
		double bytes = 4.0 * (double)((size_t)1 << l);

		if (bytes > (double)info->max_alloc_size || 3 * bytes > (double)info->global_mem_size)
			continue;
		/* Host: two inputs, one read-back array, one host-loop output; a CPU device's buffers too. */
		if (host > 0 && (info->type & CL_DEVICE_TYPE_CPU ? 7 : 4) * bytes > 0.75 * host)
			continue;
		break;
	}
	return l;
}

/* A backend's name in the TSV: NAME, or NAME[label]. */
static const char *
labelled(const char *name, const char *label)
{
	static char buf[96];

	if (!label)
		return name;
	snprintf(buf, sizeof(buf), "%s[%s]", name, label);
	return buf;
}

int
main(int argc, char **argv)
{
	enum { OPT_OPS = 256, OPT_MIN, OPT_MAX, OPT_TSV, OPT_BUDGET, OPT_NO_HOST, OPT_KEEP_GOING,
	       OPT_BATCH, OPT_LABEL, OPT_NO_PROFILING };
	static const struct option longopts[] = {
		{"device", required_argument, NULL, 'd'},
		{"backends", required_argument, NULL, 'b'},
		{"ops", required_argument, NULL, OPT_OPS},
		{"min-log2", required_argument, NULL, OPT_MIN},
		{"max-log2", required_argument, NULL, OPT_MAX},
		{"reps", required_argument, NULL, 'r'},
		{"budget", required_argument, NULL, OPT_BUDGET},
		{"tsv", required_argument, NULL, OPT_TSV},
		{"no-host", no_argument, NULL, OPT_NO_HOST},
		{"keep-going", no_argument, NULL, OPT_KEEP_GOING},
		{"batch", required_argument, NULL, OPT_BATCH},
		{"label", required_argument, NULL, OPT_LABEL},
		{"no-profiling", no_argument, NULL, OPT_NO_PROFILING},
		{"list", no_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct options opt = {NULL, "auto,local", NULL, NULL, LOG2_FLOOR, 0, 20, 3.0, 1, 0, 32, NULL, 1};
	static struct result res[MAX_BACKENDS][N_CASES][LOG2_SLOTS], host[N_CASES][LOG2_SLOTS],
		copy[LOG2_SLOTS];
	struct table_data td = {0};
	const char *bnames[MAX_BACKENDS];
	clwarp_backend bwant[MAX_BACKENDS], bgot[MAX_BACKENDS];
	int nwant = 0, max_log2 = 0, is_cpu = 0, failures = 0;
	char device_name[256] = "?";
	float *host_f = NULL;
	int32_t *host_i = NULL;
	void *got = NULL;
	FILE *tsv = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "d:b:r:lh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			opt.device = optarg;
			break;
		case 'b':
			opt.backends = optarg;
			break;
		case OPT_OPS:
			opt.ops = optarg;
			break;
		case OPT_MIN:
			opt.min_log2 = parse_int(optarg, LOG2_FLOOR, LOG2_CEIL, "--min-log2");
			break;
		case OPT_MAX:
			opt.max_log2 = parse_int(optarg, LOG2_FLOOR, LOG2_CEIL, "--max-log2");
			break;
		case 'r':
			opt.reps = parse_int(optarg, 1, 100000, "--reps");
			break;
		case OPT_BUDGET:
			opt.budget_s = parse_int(optarg, 1, 100000, "--budget");
			break;
		case OPT_TSV:
			opt.tsv = optarg;
			break;
		case OPT_NO_HOST:
			opt.host = 0;
			break;
		case OPT_KEEP_GOING:
			opt.keep_going = 1;
			break;
		case OPT_BATCH:
			opt.batch = parse_int(optarg, 2, 100000, "--batch");
			break;
		case OPT_LABEL:
			opt.label = optarg;
			break;
		case OPT_NO_PROFILING:
			opt.profiling = 0;
			break;
		case 'l':
			return list_devices();
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
	if (!opt.ops || strcmp(opt.ops, "all") == 0)
		opt.ops = opt.ops ? all_ops : default_ops;
	for (const char *p = opt.ops; *p;) {
		char word[32];
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		snprintf(word, sizeof(word), "%.*s", (int)(l < 31 ? l : 31), p);
		if (!in_list(all_ops, word))
			bad_usage("unknown operation '%s' in --ops", word);
		if (!e)
			break;
		p = e + 1;
	}
	for (const char *p = opt.backends; *p && nwant < MAX_BACKENDS;) {
		char word[32];
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		snprintf(word, sizeof(word), "%.*s", (int)(l < 31 ? l : 31), p);
		if (clwarp_backend_from_name(word, &bwant[nwant]) != CLWARP_OK)
			bad_usage("unknown backend '%s' in --backends", word);
		nwant++;
		if (!e)
			break;
		p = e + 1;
	}
	if (opt.max_log2 && opt.max_log2 < opt.min_log2)
		bad_usage("--max-log2 is below --min-log2");
	if (opt.tsv) {
		tsv = fopen(opt.tsv, "w");
		if (!tsv)
			die("cannot write %s: %s", opt.tsv, strerror(errno));
		fprintf(tsv, "device\tbackend\top\ttype\tn\tmedian_ms\tgbps\twall_ms\ttiming\tbatch_ms\n");
	}
	for (int l = 0; l < LOG2_SLOTS; l++) {
		copy[l].ms = MS_NOT_RUN;
		for (size_t c = 0; c < N_CASES; c++) {
			host[c][l].ms = MS_NOT_RUN;
			for (int b = 0; b < MAX_BACKENDS; b++)
				res[b][c][l].ms = MS_NOT_RUN;
		}
	}

	for (int w = 0; w < nwant; w++) {
		clwarp_engine_options eo;
		struct bench b = {0};
		clwarp_status s;
		cl_command_queue_properties qprops = 0;
		unsigned warp = 0;
		int dup = 0;

		clwarp_engine_options_init(&eo);
		eo.device = opt.device;
		eo.backend = bwant[w];
		if (opt.profiling)
			eo.flags |= CLWARP_ENGINE_PROFILING;
		s = clwarp_engine_new(&eo, &b.engine);
		if (s == CLWARP_OK)
			s = clwarp_engine_backend(b.engine, &bgot[td.nb], &warp);
		if (s == CLWARP_ERROR_BACKEND_UNAVAILABLE) {
			fprintf(stderr, "%s: backend %s is not available on this device; skipped\n",
			        progname, clwarp_backend_name(bwant[w]));
			clwarp_engine_free(b.engine);
			continue;
		}
		if (s != CLWARP_OK)
			die_status(s, "creating the engine");
		for (int k = 0; k < td.nb; k++)
			dup |= bgot[k] == bgot[td.nb];
		if (dup) {
			fprintf(stderr, "%s: backend %s resolves to %s, already measured; skipped\n",
			        progname, clwarp_backend_name(bwant[w]), clwarp_backend_name(bgot[td.nb]));
			clwarp_engine_free(b.engine);
			continue;
		}
		bnames[td.nb] = clwarp_backend_name(bgot[td.nb]);
		b.queue = clwarp_engine_queue(b.engine);
		if (clGetCommandQueueInfo(b.queue, CL_QUEUE_PROPERTIES, sizeof(qprops), &qprops, NULL) ==
		    CL_SUCCESS)
			b.profiling = (qprops & CL_QUEUE_PROFILING_ENABLE) != 0;

		const clwarp_device_info *info = clwarp_engine_device_info(b.engine);
		if (td.nb == 0) {
			/* Sizes, host data and the copy bandwidth: once, with the first engine. */
			snprintf(device_name, sizeof(device_name), "%s", info->name);
			for (char *p = device_name; *p; p++)
				if (*p == '\t' || *p == '\n')
					*p = ' ';
			is_cpu = (info->type & CL_DEVICE_TYPE_CPU) != 0;
			max_log2 = memory_log2(info);
			if (opt.max_log2 && opt.max_log2 < max_log2)
				max_log2 = opt.max_log2;
			if (max_log2 < opt.min_log2)
				die("the device cannot hold three buffers of 2^%d floats", opt.min_log2);
			printf("device: %s (%s, %s, driver %s)\n", info->name, info->platform_name,
			       info->device_version, info->driver_version);
			printf("memory: %.1f GiB global, %.1f GiB max allocation; n = 2^%d .. 2^%d\n",
			       (double)info->global_mem_size / (1 << 30),
			       (double)info->max_alloc_size / (1 << 30), opt.min_log2, max_log2);
			if (b.profiling)
				printf("timing: EVENT time, as cub-bench's cudaEvents: OpenCL profiling from the\n"
				       "        end of a marker enqueued and flushed just before the call to the\n"
				       "        end of the call's last command (includes the first launch's latency\n"
				       "        and gaps between kernels; not the host's clFinish wake-up). Where a\n"
				       "        driver's timestamps fail the checks (0, out of order, longer than the\n"
				       "        host saw), that result uses WALL time and is marked '*'.\n");
			else
				printf("timing: WALL time of `call; clFinish(queue)` on the host: the queue has\n"
				       "        no profiling, so no event time (unlike cub-bench's cudaEvents).\n");
			printf("        Median of %d repetitions (%d above 2^24, fewer where one takes over\n"
			       "        %.0f s / reps) after a checked warm-up call. Also, per call:\n"
			       "        BLOCKING = host wall time (clock_gettime) of one blocking public call\n"
			       "        (event NULL: it waits), median of as many; BACK-TO-BACK = %d calls\n"
			       "        queued, one clFinish, wall time / %d, median of 5 rounds.\n",
			       opt.reps, opt.reps / 2 > 0 ? opt.reps / 2 : 1, opt.budget_s, opt.batch,
			       opt.batch);
			printf("GB/s:   minimum bytes the operation must move / time, 1 GB = 1e9 bytes;\n"
			       "        copy = float4 copy kernel, read + write bytes%s.\n",
			       is_cpu && opt.host ? "; host = plain C loop on the host (clock_gettime)" : "");
			fflush(stdout);
			make_data((size_t)1 << max_log2, &host_f, &host_i);
			got = xmalloc(((size_t)4) << max_log2);
		}
		printf("backend: %s (warp width %u)\n", bnames[td.nb], warp);
		fflush(stdout);

		b.opt = &opt;
		b.backend = bnames[td.nb];
		b.loaded = -1;
		b.max_n = (size_t)1 << max_log2;
		b.host_f = host_f;
		b.host_i = host_i;
		b.got = got;
		s = clwarp_buffer_new(b.engine, CL_MEM_READ_WRITE, b.max_n * 4, NULL, &b.in);
		if (s == CLWARP_OK)
			s = clwarp_buffer_new(b.engine, CL_MEM_READ_WRITE, b.max_n * 4, NULL, &b.out);
		if (s == CLWARP_OK)
			s = clwarp_buffer_new(b.engine, CL_MEM_READ_WRITE, 64, NULL, &b.small);
		if (s != CLWARP_OK)
			die_status(s, "allocating the device buffers");

		if (td.nb == 0)
			measure_copy(&b, opt.min_log2, max_log2, copy);
		for (size_t c = 0; c < N_CASES; c++) {
			if (!in_list(opt.ops, cases[c].group))
				continue;
			for (int l = opt.min_log2; l <= max_log2; l++) {
				res[td.nb][c][l] = measure(&b, &cases[c], (size_t)1 << l);
				tsv_row(tsv, device_name, labelled(b.backend, opt.label), cases[c].op,
				        type_name(cases[c].type), (size_t)1 << l, res[td.nb][c][l]);
				if (res[td.nb][c][l].ms == MS_FAILED) {
					failures++;
					break;
				}
			}
		}
		if (td.nb == 0)
			for (int l = opt.min_log2; l <= max_log2; l++)
				tsv_row(tsv, device_name, labelled("opencl", opt.label), "copy", "float",
				        (size_t)1 << l, copy[l]);
		if (tsv)
			fflush(tsv);
		clReleaseMemObject(b.in);
		clReleaseMemObject(b.out);
		clReleaseMemObject(b.small);
		clwarp_engine_free(b.engine);
		td.nb++;
	}
	if (td.nb == 0)
		die("no backend could run on this device");

	if (is_cpu && opt.host) {
		void *out = xmalloc(((size_t)4) << max_log2);

		for (size_t c = 0; c < N_CASES; c++) {
			if (!in_list(opt.ops, cases[c].group))
				continue;
			for (int l = opt.min_log2; l <= max_log2; l++) {
				host[c][l] = measure_host(&opt, &cases[c], (size_t)1 << l, host_f, host_i, out);
				tsv_row(tsv, device_name, "host", cases[c].op, type_name(cases[c].type),
				        (size_t)1 << l, host[c][l]);
			}
		}
		free(out);
	}

	/* The ratio column: the first non-local backend over local ("what the native path buys"). */
	td.ratio_num = td.ratio_den = -1;
	for (int k = 0; k < td.nb; k++) {
		td.names[k] = bnames[k];
		if (bgot[k] == CLWARP_BACKEND_LOCAL && td.ratio_den < 0)
			td.ratio_den = k;
		else if (bgot[k] != CLWARP_BACKEND_LOCAL && td.ratio_num < 0)
			td.ratio_num = k;
	}
	if (td.ratio_num < 0 || td.ratio_den < 0)
		td.ratio_num = td.ratio_den = -1;
	td.res = res;
	td.host = host;
	td.copy = copy;
	td.show_host = is_cpu && opt.host;
	for (size_t c = 0; c < N_CASES; c++)
		if (in_list(opt.ops, cases[c].group))
			print_table(&td, c, opt.min_log2, max_log2);
	{
		int any_event = 0, any_wall = 0, mark;

		for (int l = opt.min_log2; l <= max_log2; l++) {
			any_event |= copy[l].ms >= 0 && copy[l].timing == TIMING_EVENT;
			any_wall |= copy[l].ms >= 0 && copy[l].timing == TIMING_WALL;
		}
		printf("\ncopy float4 (device bandwidth)  [GB/s = 2n*4 read+write / %s]\n",
		       timing_legend(any_event, any_wall, &mark));
		printf("%10s %9s %12s %12s %14s %7s\n", "n", "copy", "median ms", "blocking ms",
		       "back2back ms", "timing");
		for (int l = opt.min_log2; l <= max_log2; l++) {
			printf("%10zu", (size_t)1 << l);
			print_gbps(copy[l], mark);
			printf(" %12.4f %12.4f %14.4f %7s\n", copy[l].ms, copy[l].wall_ms, copy[l].batch_ms,
			       timing_name(copy[l].timing));
		}
	}

	if (tsv && fclose(tsv) != 0)
		die("writing %s failed", opt.tsv);
	free(host_f);
	free(host_i);
	free(got);
	if (failures) {
		fprintf(stderr, "%s: %d operation(s) FAILED (wrong result or failed call); see above\n",
		        progname, failures);
		printf("\n%d operation(s) FAILED: no GB/s is reported for them.\n", failures);
		return 1;
	}
	return 0;
}
