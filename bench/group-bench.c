/* Benchmark: device groups against one device in the same run (reduce, scan, compaction, sort, copies). */
/* SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clwarp/clwarp.h"

/*
 * For each n, the data is made once on the host, written to device 0 whole
 * (the one-device case) and scattered to the group in even slices (the
 * group case: data already split across the devices). Each call is timed
 * by wall clock from the call to its return (the group calls wait for
 * every device; the one-device call is given no event, so it waits too),
 * median of --reps runs after one warm-up run that also builds the
 * kernels. Results are checked: the group's against the one device's
 * (integers exactly, float sums within n * eps * sum |x|). The sorts sort
 * in place, so their input is written again before each run (not timed).
 * Also timed: the copies a call on host data pays on top, host to devices
 * (write whole to device 0 / scatter to the slices) and back (read / gather).
 *
 * -N IFACE (Linux): also the network bytes per call, received plus sent on
 * IFACE (from /proc/net/dev, this process's network namespace) around each
 * timed call: with PoCL-R, what the call costs on the wire, protocol included.
 */

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
die(const char *what, clwarp_status s)
{
	fprintf(stderr, "group-bench: %s: %s (%s)\n", what, clwarp_status_name(s), clwarp_last_error());
	exit(1);
}

#define CHECK(what, expr) do { clwarp_status s_ = (expr); if (s_ != CLWARP_OK) die(what, s_); } while (0)

/* The sort last: its timed runs leave the inputs sorted. */
enum op { OP_REDUCE, OP_SCAN, OP_COMPACT, OP_COPY_IN, OP_COPY_OUT, OP_SORT, OPS };
static const char *const op_names[OPS] = { "reduce f32 add", "scan u32 incl", "compact f32 x>0",
					   "write/scatter", "read/gather", "sort u32 keys" };

struct setup {
	clwarp_group *g;
	clwarp_engine *one;
	size_t n, offsets[CLWARP_GROUP_MAX_DEVICES + 1], out_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem whole_in, whole_out, whole_count;
	cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES];
	/* Made by each group sort or scatter, released after it (not timed). */
	cl_mem made[CLWARP_GROUP_MAX_DEVICES];
	size_t made_offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	const float *host;
	void *back;   /* n elements: what read and gather copy into */
	float reduce_one, reduce_group;
	cl_uint count_one;
};

/* Bytes received plus sent on `iface` so far; 0 if it is not there. */
static double
net_bytes(const char *iface)
{
	FILE *f = iface ? fopen("/proc/net/dev", "r") : NULL;
	char line[512];
	double total = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *name = line;
		unsigned long long v[9];

		if (!colon)
			continue;
		*colon = '\0';
		while (*name == ' ')
			name++;
		/* rx: bytes packets errs drop fifo frame compressed multicast; tx: bytes */
		if (strcmp(name, iface) == 0 &&
		    sscanf(colon + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 9)
			total = (double)v[0] + (double)v[8];
	}
	fclose(f);
	return total;
}

/* The sorts sort their input in place: put it back before each run. */
static void
prepare(struct setup *s, enum op op, int group)
{
	if (op != OP_SORT)
		return;
	if (!group) {
		CHECK("write", clwarp_buffer_write(s->one, s->whole_in, 0, s->n * 4, s->host));
		return;
	}
	for (size_t i = 0; i < clwarp_group_size(s->g); i++)
		if (s->offsets[i + 1] > s->offsets[i])
			CHECK("write", clwarp_buffer_write(clwarp_group_engine(s->g, i), s->in[i], 0,
							   (s->offsets[i + 1] - s->offsets[i]) * 4,
							   s->host + s->offsets[i]));
}

/* What a group call made: released after each run, outside the time. */
static void
finish(struct setup *s)
{
	clwarp_group_buffers_free(s->g, s->made);
	memset(s->made, 0, sizeof(s->made));
}

static void
run_one(struct setup *s, enum op op)
{
	cl_mem count = s->whole_count;

	switch (op) {
	case OP_REDUCE:
		CHECK("clwarp_reduce", clwarp_reduce(s->one, CLWARP_TYPE_FLOAT, s->whole_in,
						    s->whole_out, s->n, CLWARP_OP_ADD, NULL));
		break;
	case OP_SCAN:
		CHECK("clwarp_scan", clwarp_scan(s->one, CLWARP_TYPE_UINT, s->whole_in,
						 s->whole_out, s->n, CLWARP_OP_ADD,
						 CLWARP_SCAN_INCLUSIVE, NULL));
		break;
	case OP_COMPACT:
		CHECK("clwarp_compact", clwarp_compact(s->one, CLWARP_TYPE_FLOAT, s->whole_in,
						       s->whole_out, count, s->n, "x > 0", NULL));
		break;
	case OP_SORT:
		CHECK("clwarp_sort_keys", clwarp_sort_keys(s->one, CLWARP_TYPE_UINT, s->whole_in, s->n, 0, NULL));
		break;
	case OP_COPY_IN:
		CHECK("write", clwarp_buffer_write(s->one, s->whole_in, 0, s->n * 4, s->host));
		break;
	default:
		CHECK("read", clwarp_buffer_read(s->one, s->whole_in, 0, s->n * 4, s->back));
		break;
	}
}

static void
run_group(struct setup *s, enum op op)
{
	switch (op) {
	case OP_REDUCE:
		CHECK("clwarp_group_reduce", clwarp_group_reduce(s->g, CLWARP_TYPE_FLOAT, s->in,
								 &s->reduce_group, s->offsets,
								 CLWARP_OP_ADD));
		break;
	case OP_SCAN:
		CHECK("clwarp_group_scan", clwarp_group_scan(s->g, CLWARP_TYPE_UINT, s->in, s->out,
							     s->offsets, CLWARP_OP_ADD,
							     CLWARP_SCAN_INCLUSIVE));
		break;
	case OP_COMPACT:
		CHECK("clwarp_group_compact", clwarp_group_compact(s->g, CLWARP_TYPE_FLOAT, s->in,
								   s->out, s->out_offsets,
								   s->offsets, "x > 0"));
		break;
	case OP_SORT:
		CHECK("clwarp_group_sort_keys", clwarp_group_sort_keys(s->g, CLWARP_TYPE_UINT, s->in,
									s->made, s->made_offsets,
									s->offsets, 0));
		break;
	case OP_COPY_IN:
		CHECK("clwarp_group_scatter", clwarp_group_scatter(s->g, s->host, s->made,
				s->offsets, 4));
		break;
	default:
		CHECK("clwarp_group_gather", clwarp_group_gather(s->g, s->in, s->back, s->offsets,
				4));
		break;
	}
}

/* The group's result against the one device's. */
static void
check(struct setup *s, enum op op, const float *host)
{
	size_t count = clwarp_group_size(s->g), n = s->n;

	if (op == OP_REDUCE) {
		double abs_sum = 0;

		for (size_t i = 0; i < n; i++)
			abs_sum += fabs(host[i]);
		CHECK("read", clwarp_buffer_read(s->one, s->whole_out, 0, sizeof(float), &s->reduce_one));
		if (fabs((double)s->reduce_one - s->reduce_group) > (double)n * 1.2e-7 * abs_sum + 1e-30) {
			fprintf(stderr, "group-bench: reduce n=%zu: group %.9g, one device %.9g\n", n,
				(double)s->reduce_group, (double)s->reduce_one);
			exit(1);
		}
		return;
	}
	if (op == OP_COPY_OUT) {
		/* Both copied into s->back: the last (the group's) must be the data. */
		if (memcmp(s->back, host, n * 4) != 0) {
			fprintf(stderr, "group-bench: gather n=%zu: not the data scattered\n", n);
			exit(1);
		}
		return;
	}
	/* Scans, compactions, sorts and scatters: the group's output gathered,
	 * element by element, against device 0's. */
	size_t elems = op == OP_COMPACT ? s->out_offsets[count] : n;
	const cl_mem *parts = op == OP_SCAN || op == OP_COMPACT ? s->out : s->made;
	const size_t *offsets = op == OP_SCAN || op == OP_COPY_IN ? s->offsets :
				op == OP_COMPACT ? s->out_offsets : s->made_offsets;
	cl_mem whole = op == OP_SCAN || op == OP_COMPACT ? s->whole_out : s->whole_in;
	cl_uint *a = malloc(n * sizeof(cl_uint) + 4), *b = malloc(n * sizeof(cl_uint) + 4);

	if (!a || !b) {
		fprintf(stderr, "group-bench: out of host memory\n");
		exit(1);
	}
	if (op == OP_COMPACT) {
		CHECK("read", clwarp_buffer_read(s->one, s->whole_count, 0, sizeof(cl_uint), &s->count_one));
		if (s->count_one != elems) {
			fprintf(stderr, "group-bench: compact n=%zu: group kept %zu, one device %u\n", n, elems,
				s->count_one);
			exit(1);
		}
	}
	CHECK("read", clwarp_buffer_read(s->one, whole, 0, elems * sizeof(cl_uint), a));
	CHECK("gather", clwarp_group_gather(s->g, parts, b, offsets, sizeof(cl_uint)));
	if (memcmp(a, b, elems * sizeof(cl_uint)) != 0) {
		fprintf(stderr, "group-bench: %s n=%zu: the group's result differs from one device's\n",
			op_names[op], n);
		exit(1);
	}
	free(a);
	free(b);
}

/* Median ms per call of `reps` timed runs (each prepared first), and the
 * mean network bytes per call on `iface` (NULL: none). */
static double
time_op(struct setup *s, enum op op, int group, int reps, double *times, const char *iface,
	double *bytes)
{
	double total = 0;

	for (int r = 0; r < reps; r++) {
		prepare(s, op, group);
		double b0 = net_bytes(iface), t0 = now_ms();

		if (group)
			run_group(s, op);
		else
			run_one(s, op);
		times[r] = now_ms() - t0;
		total += net_bytes(iface) - b0;
		if (group)
			finish(s);
	}
	*bytes = total / reps;
	return median(times, reps);
}

int
main(int argc, char **argv)
{
	const char *devices = NULL, *iface = NULL;
	int min_log2 = 20, max_log2 = 24, sort_max_log2 = 31, reps = 7, c, copies_only = 0;
	struct setup s = { 0 };

	while ((c = getopt(argc, argv, "d:m:M:s:r:N:ch")) != -1) {
		switch (c) {
		case 'd': devices = optarg; break;
		case 'm': min_log2 = atoi(optarg); break;
		case 'M': max_log2 = atoi(optarg); break;
		case 's': sort_max_log2 = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'N': iface = optarg; break;
		case 'c': copies_only = 1; break;   /* bench/run-copy-gpu.sh: no kernel builds */
		default:
			fprintf(stderr, "usage: group-bench [-d DEVICES] [-m MIN_LOG2] [-M MAX_LOG2] [-s SORT_MAX_LOG2]\n"
					"                   [-r REPS] [-N IFACE] [-c]\n"
					"  -c: only write/scatter and read/gather\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (min_log2 < 10 || max_log2 > 31 || min_log2 > max_log2 || reps < 1 || reps > 101) {
		fprintf(stderr, "group-bench: sizes 2^10..2^31 and 1..101 repetitions\n");
		return 2;
	}
	CHECK("clwarp_group_new", clwarp_group_new(devices, NULL, &s.g));
	s.one = clwarp_group_engine(s.g, 0);
	size_t count = clwarp_group_size(s.g);

	printf("# group-bench: %zu devices:", count);
	for (size_t i = 0; i < count; i++) {
		const clwarp_device_info *info = clwarp_engine_device_info(clwarp_group_engine(s.g, i));

		printf(" %u:%u %s (%s)%s", info->platform_index, info->device_index, info->name,
		       info->driver_version, i + 1 < count ? "," : "");
	}
	printf("\n# one = device 0 alone, data whole on it; group = every device, data already split evenly;\n"
	       "# wall ms per call, median of %d; speed-up = one / group. write/scatter = host to device 0\n"
	       "# whole / to the group's slices; read/gather = back.%s\n", reps,
	       iface ? " one B, group B: bytes on the network per call (received + sent)." : "");
	printf("%-16s %6s %10s %10s %8s", "op", "n", "one ms", "group ms", "speedup");
	if (iface)
		printf(" %12s %12s", "one B", "group B");
	printf("\n");
	for (int lg = min_log2; lg <= max_log2; lg += 2) {
		size_t n = (size_t)1 << lg;
		float *host = malloc(n * sizeof(float));
		double *times = malloc((size_t)reps * sizeof(double));
		uint64_t state = 0x2545F4914F6CDD1Dull;

		s.back = malloc(n * sizeof(float));
		if (!host || !times || !s.back) {
			fprintf(stderr, "group-bench: out of host memory at n = 2^%d\n", lg);
			return 1;
		}
		/* k/256, k in [-256, 255]: float sums exact at these sizes; the
		 * same bits serve as uints for the scan and the sort. */
		for (size_t i = 0; i < n; i++) {
			state ^= state << 13, state ^= state >> 7, state ^= state << 17;
			host[i] = (float)((int)(state % 512) - 256) / 256.0f;
		}
		s.n = n;
		s.host = host;
		CHECK("clwarp_group_split", clwarp_group_split(s.g, n, 1024, s.offsets));
		CHECK("buffer", clwarp_buffer_new(s.one, CL_MEM_READ_WRITE, n * 4, NULL, &s.whole_in));
		CHECK("buffer", clwarp_buffer_new(s.one, CL_MEM_READ_WRITE, n * 4, NULL, &s.whole_out));
		CHECK("buffer", clwarp_buffer_new(s.one, CL_MEM_READ_WRITE, 4, NULL, &s.whole_count));
		CHECK("write", clwarp_buffer_write(s.one, s.whole_in, 0, n * 4, host));
		CHECK("scatter", clwarp_group_scatter(s.g, host, s.in, s.offsets, 4));
		CHECK("scatter", clwarp_group_scatter(s.g, host, s.out, s.offsets, 4));
		for (int op = 0; op < OPS; op++) {
			double one_ms, group_ms, one_bytes, group_bytes;

			if (op == OP_SORT && lg > sort_max_log2)
				continue;   /* -s: the slowest call, on a CPU by far */
			if (copies_only && op != OP_COPY_IN && op != OP_COPY_OUT)
				continue;
			/* The warm-up (kernels built), then the group's result
			 * against device 0's. */
			prepare(&s, (enum op)op, 0);
			run_one(&s, (enum op)op);
			prepare(&s, (enum op)op, 1);
			run_group(&s, (enum op)op);
			check(&s, (enum op)op, host);
			finish(&s);
			one_ms = time_op(&s, (enum op)op, 0, reps, times, iface, &one_bytes);
			group_ms = time_op(&s, (enum op)op, 1, reps, times, iface, &group_bytes);
			printf("%-16s %4s%-2d %10.3f %10.3f %8.2f", op_names[op], "2^", lg, one_ms, group_ms,
			       one_ms / group_ms);
			if (iface)
				printf(" %12.0f %12.0f", one_bytes, group_bytes);
			printf("\n");
			fflush(stdout);
		}
		clReleaseMemObject(s.whole_in);
		clReleaseMemObject(s.whole_out);
		clReleaseMemObject(s.whole_count);
		clwarp_group_buffers_free(s.g, s.in);
		clwarp_group_buffers_free(s.g, s.out);
		free(host);
		free(s.back);
		free(times);
	}
	clwarp_group_free(s.g);
	return 0;
}
