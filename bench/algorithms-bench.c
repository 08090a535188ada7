/* Benchmark: GB/s of the device-wide algorithms per warp backend, beside a copy kernel and host loops. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clwarp/algorithms.h"
#include "clwarp/clwarp.h"

/*
 * What is measured and how.
 *
 * Each (operation, n) is run once to build its kernels and check the result
 * against a host reference (a wrong answer stops the run, or with
 * --keep-going that operation), once more to learn its cost, then R times;
 * the table shows the median. GB/s counts the bytes the operation must
 * move at the least (see bytes_moved()), in units of 10^9 bytes.
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
 * the checks, or from a queue without profiling, uses the wall time
 * instead, and the output says so (a '*' in the tables, the TSV's timing
 * column). The host wall time of `call; clFinish(queue)` is kept for every
 * result (wall_ms in the TSV): it adds the host's enqueue and wake-up
 * costs that an application waiting on each call also pays.
 *
 * The input is n values k/256 with k uniform in [-256, 255] (floats) or k
 * itself (ints): about half are > 0, and every partial sum a float
 * reduction or scan of such data can reach in practice is a multiple of
 * 1/256 below 2^16, hence exact, so float results can be checked tightly.
 * bench/cub-bench.cu draws the same numbers.
 */

#define LOG2_FLOOR 10
#define LOG2_CEIL 28
#define LOG2_SLOTS (LOG2_CEIL + 1)
#define MAX_BACKENDS 4
#define DATA_SEED 0x2545F4914F6CDD1Dull

enum kind {
	KIND_REDUCE,
	KIND_SCAN,
	KIND_COMPACT,
	KIND_PARTITION,
	KIND_PARTITION_REVERSED,  /* clwarp_partition_reversed: CUB's order */
	KIND_SEGREDUCE,
	KIND_SOFTMAX,
};

struct bench_case {
	const char *group;  /* name for --ops */
	const char *op;     /* name in the tables and the TSV */
	enum kind kind;
	clwarp_type type;
	clwarp_op combine;
	int inclusive;
	size_t row;         /* row length of batched cases, else 0 */
	const char *bytes;  /* the GB/s convention, for the table header */
	const char *pred;   /* compaction and partition: the predicate, "x > above" */
	float above;        /* the host's copy of it */
};

static const struct bench_case cases[] = {
	{"reduce", "reduce_add", KIND_REDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 0, "n*4 read", NULL, 0},
	{"reduce", "reduce_add", KIND_REDUCE, CLWARP_TYPE_INT, CLWARP_OP_ADD, 0, 0, "n*4 read", NULL, 0},
	{"minmax", "reduce_min", KIND_REDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_MIN, 0, 0, "n*4 read", NULL, 0},
	{"minmax", "reduce_max", KIND_REDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_MAX, 0, 0, "n*4 read", NULL, 0},
	{"scan", "scan_inclusive_add", KIND_SCAN, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 1, 0,
	 "2n*4 read+write", NULL, 0},
	{"scan", "scan_inclusive_add", KIND_SCAN, CLWARP_TYPE_INT, CLWARP_OP_ADD, 1, 0,
	 "2n*4 read+write", NULL, 0},
	{"exscan", "scan_exclusive_add", KIND_SCAN, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 0,
	 "2n*4 read+write", NULL, 0},
	{"exscan", "scan_exclusive_add", KIND_SCAN, CLWARP_TYPE_INT, CLWARP_OP_ADD, 0, 0,
	 "2n*4 read+write", NULL, 0},
	{"compact", "compact_gt0", KIND_COMPACT, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 0,
	 "n*4 read + selected*4 written, predicate x > 0, ~50% selected", "x > 0", 0.0f},
	/* k >= 231 of k in [-256, 255]: 25 of 512 values, 4.9 %. */
	{"compact_sparse", "compact_gt0.9", KIND_COMPACT, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 0,
	 "n*4 read + selected*4 written, predicate x > 0.9f, ~5% selected", "x > 0.9f", 0.9f},
	{"partition", "partition_gt0", KIND_PARTITION, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 0,
	 "2n*4 read+write, predicate x > 0, ~50% selected", "x > 0", 0.0f},
	{"partition", "partition_gt0.9", KIND_PARTITION, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 0,
	 "2n*4 read+write, predicate x > 0.9f, ~5% selected", "x > 0.9f", 0.9f},
	/* The rejected elements reversed, as cub::DevicePartition::If leaves them:
	 * cub-bench's partition_gt0 / partition_gt0.9 are the same operation. */
	{"partition_reversed", "partition_reversed_gt0", KIND_PARTITION_REVERSED, CLWARP_TYPE_FLOAT,
	 CLWARP_OP_ADD, 0, 0, "2n*4 read+write, predicate x > 0, ~50% selected", "x > 0", 0.0f},
	{"partition_reversed", "partition_reversed_gt0.9", KIND_PARTITION_REVERSED, CLWARP_TYPE_FLOAT,
	 CLWARP_OP_ADD, 0, 0, "2n*4 read+write, predicate x > 0.9f, ~5% selected", "x > 0.9f", 0.9f},
	{"segreduce", "segmented_reduce_add_r32", KIND_SEGREDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0,
	 32, "n*4 read + rows*4 written", NULL, 0},
	{"segreduce", "segmented_reduce_add_r64", KIND_SEGREDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0,
	 64, "n*4 read + rows*4 written", NULL, 0},
	{"segreduce", "segmented_reduce_add_r128", KIND_SEGREDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD,
	 0, 128, "n*4 read + rows*4 written", NULL, 0},
	{"segreduce", "segmented_reduce_add_r256", KIND_SEGREDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD,
	 0, 256, "n*4 read + rows*4 written", NULL, 0},
	{"segreduce", "segmented_reduce_add_r1024", KIND_SEGREDUCE, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD,
	 0, 1024, "n*4 read + rows*4 written", NULL, 0},
	{"softmax", "softmax_r256", KIND_SOFTMAX, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0, 256,
	 "2n*4 read+write", NULL, 0},
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static const char *const default_ops = "reduce,scan,compact,segreduce,softmax";
static const char *const all_ops =
	"reduce,minmax,scan,exscan,compact,compact_sparse,partition,partition_reversed,segreduce,softmax";

/* How a result was timed: see the comment at the top. */
enum timing {
	TIMING_WALL,  /* host clock around `call; clFinish` (or around a host loop) */
	TIMING_EVENT, /* OpenCL profiling: marker end -> end of the call's last command */
};

static const char *
timing_name(enum timing t)
{
	return t == TIMING_EVENT ? "event" : "wall";
}

/* One measurement; ms is MS_NOT_RUN or MS_FAILED where there is none. */
#define MS_NOT_RUN (-1.0)
#define MS_FAILED (-2.0)
struct result {
	double ms;          /* median time that gbps is computed from, by `timing` */
	double gbps;
	double wall_ms;     /* median wall time of `call; clFinish` (= ms for host loops) */
	enum timing timing;
};

struct options {
	const char *device;
	const char *backends;
	const char *ops;
	const char *tsv;
	int min_log2;
	int max_log2;    /* 0: as memory allows */
	int reps;
	double budget_s; /* cap on the timed repetitions of one (op, n) */
	int host;        /* host loops on CPU devices */
	int keep_going;  /* after a wrong result or a failed call, go on with the next operation */
};

/* Everything one engine (one backend) needs. */
struct bench {
	const struct options *opt;
	clwarp_engine *engine;
	cl_command_queue queue;
	const char *backend;   /* the resolved name, e.g. "nv" */
	cl_mem in, out, small; /* n elements, n elements, a few words */
	int loaded;            /* the clwarp_type in `in`, -1 for none */
	size_t max_n;
	const float *host_f;   /* max_n inputs of each type */
	const int32_t *host_i;
	void *got;             /* max_n elements read back for checks */
	size_t selected;       /* count of the last checked compaction */
	int profiling;         /* the queue has CL_QUEUE_PROFILING_ENABLE */
	int stamps_warned;     /* an unusable timestamp was reported once */
};

/* One timed repetition. */
struct sample {
	double wall_s;         /* host: call + clFinish */
	double event_s;        /* device: marker end -> end of the last command, if !bad */
	const char *bad;       /* why the timestamps cannot be used, or NULL */
};

/* Enqueues one run of what is timed and hands back the event of its last command. */
typedef clwarp_status (*enqueue_fn)(struct bench *b, const void *ctx, cl_event *last);

static const char *progname = "algorithms-bench";

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

	die("%s: %s%s%s", what, clwarp_status_to_str(s), *msg ? ": " : "", msg);
}

static void *
xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		die("out of host memory (%zu bytes)", bytes);
	return p;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int count)
{
	qsort(v, (size_t)count, sizeof(*v), cmp_double);
	return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

static const char *
type_name(clwarp_type t)
{
	return t == CLWARP_TYPE_INT ? "int" : "float";
}

/* ------------------------------------------------------------------ data */

static uint64_t
rng_next(uint64_t *s)
{
	/* xorshift64*: the same stream as bench/cub-bench.cu. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

static void
make_data(size_t n, float **f, int32_t **i)
{
	uint64_t s = DATA_SEED;

	*f = xmalloc(n * sizeof(float));
	*i = xmalloc(n * sizeof(int32_t));
	for (size_t j = 0; j < n; j++) {
		int32_t k = (int32_t)(rng_next(&s) >> 55) - 256; /* 9 bits: [-256, 255] */
		(*i)[j] = k;
		(*f)[j] = (float)k / 256.0f;
	}
}

/* The bytes an operation must move at the least, per the table headers. */
static double
bytes_moved(const struct bench_case *c, size_t n, size_t selected)
{
	double e = 4.0;

	switch (c->kind) {
	case KIND_REDUCE:
		return e * (double)n;
	case KIND_SCAN:
	case KIND_SOFTMAX:
	case KIND_PARTITION:
	case KIND_PARTITION_REVERSED:
		return 2.0 * e * (double)n;
	case KIND_COMPACT:
		return e * ((double)n + (double)selected);
	case KIND_SEGREDUCE:
		return e * ((double)n + (double)(n / c->row));
	}
	return 0;
}

/* ------------------------------------------------------------ the checks */

PRINTF_LIKE(4, 5) static void
wrong(const struct bench *b, const struct bench_case *c, size_t n, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: WRONG RESULT from backend %s, %s %s, n = %zu: ", progname, b->backend,
	        c->op, type_name(c->type), n);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
read_back(struct bench *b, cl_mem buf, size_t bytes, void *dst)
{
	clwarp_status s = clwarp_buffer_read(b->engine, buf, 0, bytes, dst);

	if (s != CLWARP_OK)
		die_status(s, "reading a result back");
}

/*
 * Float tolerances. With this data the sums are exact in practice; the
 * slack allows the rounding an honest float reduction could still do
 * (partial sums beyond 2^16) while a lost or doubled element, which moves
 * a sum by up to 1, is still caught in almost every case.
 */
static double
sum_tolerance(double sum, double abs_sum)
{
	return 0.05 + 1e-5 * fabs(sum) + 1e-8 * abs_sum;
}

static int
check_reduce(struct bench *b, const struct bench_case *c, size_t n)
{
	if (c->type == CLWARP_TYPE_INT) {
		uint32_t want = 0;
		int32_t got;

		read_back(b, b->small, sizeof(got), &got);
		for (size_t j = 0; j < n; j++) /* wraps like the device's int */
			want += (uint32_t)b->host_i[j];
		if ((uint32_t)got != want) {
			wrong(b, c, n, "got %" PRId32 ", expected %" PRId32, got, (int32_t)want);
			return -1;
		}
	} else if (c->combine == CLWARP_OP_ADD) {
		double want = 0, abs_sum = 0;
		float got;

		read_back(b, b->small, sizeof(got), &got);
		for (size_t j = 0; j < n; j++) {
			want += b->host_f[j];
			abs_sum += fabs(b->host_f[j]);
		}
		if (!(fabs(got - want) <= sum_tolerance(want, abs_sum))) {
			wrong(b, c, n, "got %.9g, expected %.9g", got, want);
			return -1;
		}
	} else {
		float want = c->combine == CLWARP_OP_MIN ? INFINITY : -INFINITY, got;

		read_back(b, b->small, sizeof(got), &got);
		for (size_t j = 0; j < n; j++)
			want = c->combine == CLWARP_OP_MIN ? fminf(want, b->host_f[j])
			                                   : fmaxf(want, b->host_f[j]);
		if (got != want) {
			wrong(b, c, n, "got %.9g, expected %.9g", got, want);
			return -1;
		}
	}
	return 0;
}

static int
check_scan(struct bench *b, const struct bench_case *c, size_t n)
{
	read_back(b, b->out, n * 4, b->got);
	if (c->type == CLWARP_TYPE_INT) {
		const int32_t *got = b->got;
		uint32_t run = 0;

		for (size_t j = 0; j < n; j++) {
			uint32_t before = run;

			run += (uint32_t)b->host_i[j];
			if ((uint32_t)got[j] != (c->inclusive ? run : before)) {
				wrong(b, c, n, "element %zu is %" PRId32 ", expected %" PRId32, j, got[j],
				      (int32_t)(c->inclusive ? run : before));
				return -1;
			}
		}
	} else {
		const float *got = b->got;
		double run = 0, abs_run = 0;

		for (size_t j = 0; j < n; j++) {
			double before = run;

			run += b->host_f[j];
			abs_run += fabs(b->host_f[j]);
			double want = c->inclusive ? run : before;
			if (!(fabs(got[j] - want) <= sum_tolerance(want, abs_run))) {
				wrong(b, c, n, "element %zu is %.9g, expected %.9g", j, got[j], want);
				return -1;
			}
		}
	}
	return 0;
}

/* Compaction: the selected elements in order; partition: then the rejected ones, in order too;
 * reversed partition: the rejected ones from the end backwards (rejected element r at n - 1 - r). */
static int
check_select(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	cl_uint count;
	size_t m = 0, r = 0;

	read_back(b, b->small, sizeof(count), &count);
	for (size_t j = 0; j < n; j++)
		m += b->host_f[j] > c->above;
	if (count != m) {
		wrong(b, c, n, "count %u, expected %zu", (unsigned)count, m);
		return -1;
	}
	read_back(b, b->out, (c->kind == KIND_COMPACT ? m : n) * 4, b->got);
	m = 0;
	for (size_t j = 0; j < n; j++) {
		if (b->host_f[j] > c->above) {
			if (got[m] != b->host_f[j]) {
				wrong(b, c, n, "selected element %zu is %.9g, expected %.9g (input %zu)", m,
				      got[m], b->host_f[j], j);
				return -1;
			}
			m++;
		} else if (c->kind != KIND_COMPACT) {
			size_t at = c->kind == KIND_PARTITION ? count + r : n - 1 - r;

			if (got[at] != b->host_f[j]) {
				wrong(b, c, n, "rejected element %zu is %.9g, expected %.9g (input %zu)", r,
				      got[at], b->host_f[j], j);
				return -1;
			}
			r++;
		}
	}
	b->selected = m;
	return 0;
}

static int
check_segreduce(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	size_t rows = n / c->row;

	read_back(b, b->out, rows * 4, b->got);
	for (size_t r = 0; r < rows; r++) {
		double want = 0, abs_sum = 0;

		for (size_t j = r * c->row; j < (r + 1) * c->row; j++) {
			want += b->host_f[j];
			abs_sum += fabs(b->host_f[j]);
		}
		if (!(fabs(got[r] - want) <= 1e-3 + 1e-6 * abs_sum)) {
			wrong(b, c, n, "row %zu sums to %.9g, expected %.9g", r, got[r], want);
			return -1;
		}
	}
	return 0;
}

static int
check_softmax(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	size_t rows = n / c->row;

	read_back(b, b->out, n * 4, b->got);
	for (size_t r = 0; r < rows; r++) {
		const float *x = b->host_f + r * c->row;
		double mx = -INFINITY, sum = 0;

		for (size_t j = 0; j < c->row; j++)
			mx = fmax(mx, x[j]);
		for (size_t j = 0; j < c->row; j++)
			sum += exp(x[j] - mx);
		for (size_t j = 0; j < c->row; j++) {
			double want = exp(x[j] - mx) / sum, g = got[r * c->row + j];

			if (!(fabs(g - want) <= 1e-7 + 1e-4 * want)) {
				wrong(b, c, n, "row %zu element %zu is %.9g, expected %.9g", r, j, g, want);
				return -1;
			}
		}
	}
	return 0;
}

static int
check(struct bench *b, const struct bench_case *c, size_t n)
{
	switch (c->kind) {
	case KIND_REDUCE:
		return check_reduce(b, c, n);
	case KIND_SCAN:
		return check_scan(b, c, n);
	case KIND_COMPACT:
	case KIND_PARTITION:
	case KIND_PARTITION_REVERSED:
		return check_select(b, c, n);
	case KIND_SEGREDUCE:
		return check_segreduce(b, c, n);
	case KIND_SOFTMAX:
		return check_softmax(b, c, n);
	}
	return -1;
}

/* ------------------------------------------------------- device runs */

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

/* The call, returning at once with the event of its last command. */
static clwarp_status
enqueue_case(struct bench *b, const void *ctx, cl_event *last)
{
	const struct bench_case *c = ((const struct case_run *)ctx)->c;
	size_t n = ((const struct case_run *)ctx)->n;

	switch (c->kind) {
	case KIND_REDUCE:
		return clwarp_reduce(b->engine, c->type, c->combine, b->in, n, b->small, last);
	case KIND_SCAN:
		return clwarp_scan(b->engine, c->type, c->combine, c->inclusive, b->in, b->out, n, last);
	case KIND_COMPACT:
		return clwarp_compact(b->engine, c->type, c->pred, b->in, n, b->out, b->small, last);
	case KIND_PARTITION:
		return clwarp_partition(b->engine, c->type, c->pred, b->in, n, b->out, b->small, last);
	case KIND_PARTITION_REVERSED:
		return clwarp_partition_reversed(b->engine, c->type, c->pred, b->in, n, b->out, b->small,
		                                 last);
	case KIND_SEGREDUCE:
		return clwarp_segmented_reduce(b->engine, c->type, c->combine, b->in, n / c->row, c->row,
		                               b->out, last);
	case KIND_SOFTMAX:
		return clwarp_softmax_rows(b->engine, b->in, n / c->row, c->row, b->out, last);
	}
	return CLWARP_ERROR_INVALID_ARGUMENT;
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
			die("clEnqueueMarkerWithWaitList: %s", clwarp_cl_error_to_str(err));
		/* Submit it now, as cudaEventRecord does: it completes on the idle queue. */
		err = clFlush(b->queue);
		if (err != CL_SUCCESS)
			die("clFlush: %s", clwarp_cl_error_to_str(err));
	}
	t0 = now_s();
	s = fn(b, ctx, &last);
	err = clFinish(b->queue);
	t1 = now_s();
	if (err != CL_SUCCESS)
		die("clFinish: %s", clwarp_cl_error_to_str(err));
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

/* The repetitions for one size: R, half above 2^24, and no more than the time budget allows. */
static int
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

static void
progress(const char *backend, const char *op, const char *type, size_t n, struct result r)
{
	fprintf(stderr, "  %-6s %-28s %-5s 2^%-2d %10.4f ms %-5s (wall %10.4f ms) %9.2f GB/s\n",
	        backend, op, type, (int)log2((double)n), r.ms, timing_name(r.timing), r.wall_ms,
	        r.gbps);
}

/*
 * Time R repetitions (after one to learn their cost) of fn into *res, which
 * moves `bytes`: the event time where every repetition's timestamps are
 * sane, else the wall time.
 */
static void
time_reps(struct bench *b, enqueue_fn fn, const void *ctx, const char *what, size_t n,
          double bytes, struct result *res)
{
	struct sample t;
	const char *bad = NULL;
	double *wall, *event;
	clwarp_status s;
	int reps;

	s = timed_run(b, fn, ctx, &t);
	if (s != CLWARP_OK)
		die_status(s, "a timed run");
	reps = reps_for(b->opt, n, t.wall_s);
	wall = xmalloc(2 * (size_t)reps * sizeof(*wall));
	event = wall + reps;
	for (int r = 0; r < reps; r++) {
		s = timed_run(b, fn, ctx, &t);
		if (s != CLWARP_OK)
			die_status(s, "a timed run");
		wall[r] = t.wall_s;
		event[r] = t.event_s;
		if (t.bad && !bad)
			bad = t.bad;
	}
	res->wall_ms = median(wall, reps) * 1e3;
	if (bad) {
		res->timing = TIMING_WALL;
		res->ms = res->wall_ms;
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
	free(wall);
}

/*
 * Build, check and time one (op, n). ms is MS_NOT_RUN when the size does not
 * apply (rows longer than n, or CLWARP_ERROR_TOO_LARGE), MS_FAILED after a
 * wrong result or a failed call, which ends the run unless --keep-going.
 */
static struct result
measure(struct bench *b, const struct bench_case *c, size_t n)
{
	struct result res = {MS_NOT_RUN, 0, 0, TIMING_WALL};
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
		        type_name(c->type), n, clwarp_status_to_str(s), *msg ? ": " : "", msg);
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
enqueue_copy(struct bench *b, const void *ctx, cl_event *last)
{
	const struct copy_run *run = ctx;

	(void)b;
	return clwarp_kernel_launch(run->k, 1, &run->global, &run->local, last);
}

/* The device's own bandwidth: a float4 copy over n floats, read + write bytes. */
static void
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
	s = clwarp_program_kernel(prog, "bench_copy4", &run.k);
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

/* ------------------------------------------------------------ host loops */

/* Keeps the compiler from dropping a host loop whose result is unused. */
static volatile double host_sink;

static void
host_once(const struct bench_case *c, size_t n, const float *xf, const int32_t *xi, void *out,
          size_t *selected)
{
	float *of = out;
	int32_t *oi = out;

	switch (c->kind) {
	case KIND_REDUCE:
		if (c->type == CLWARP_TYPE_INT) {
			uint32_t s = 0;
			for (size_t j = 0; j < n; j++)
				s += (uint32_t)xi[j];
			host_sink = s;
		} else if (c->combine == CLWARP_OP_ADD) {
			float s = 0;
			for (size_t j = 0; j < n; j++)
				s += xf[j];
			host_sink = s;
		} else {
			float s = c->combine == CLWARP_OP_MIN ? INFINITY : -INFINITY;
			for (size_t j = 0; j < n; j++)
				s = c->combine == CLWARP_OP_MIN ? fminf(s, xf[j]) : fmaxf(s, xf[j]);
			host_sink = s;
		}
		break;
	case KIND_SCAN:
		if (c->type == CLWARP_TYPE_INT) {
			uint32_t s = 0;
			for (size_t j = 0; j < n; j++) {
				uint32_t v = (uint32_t)xi[j];
				oi[j] = (int32_t)(c->inclusive ? (s += v) : s);
				if (!c->inclusive)
					s += v;
			}
		} else {
			float s = 0;
			for (size_t j = 0; j < n; j++) {
				float v = xf[j];
				of[j] = c->inclusive ? (s += v) : s;
				if (!c->inclusive)
					s += v;
			}
		}
		host_sink = of[n - 1];
		break;
	case KIND_COMPACT:
	case KIND_PARTITION:
	case KIND_PARTITION_REVERSED: {
		size_t m = 0, r = n;
		for (size_t j = 0; j < n; j++) {
			if (xf[j] > c->above)
				of[m++] = xf[j];
			else if (c->kind != KIND_COMPACT)
				of[--r] = xf[j];  /* reversed, as CUB's DevicePartition::If leaves them */
		}
		*selected = m;
		host_sink = (double)m;
		break;
	}
	case KIND_SEGREDUCE:
		for (size_t r = 0; r < n / c->row; r++) {
			const float *x = xf + r * c->row;
			float s = 0;
			for (size_t j = 0; j < c->row; j++)
				s += x[j];
			of[r] = s;
		}
		host_sink = of[0];
		break;
	case KIND_SOFTMAX:
		for (size_t r = 0; r < n / c->row; r++) {
			const float *x = xf + r * c->row;
			float *y = of + r * c->row, mx = -INFINITY, s = 0;
			for (size_t j = 0; j < c->row; j++)
				mx = fmaxf(mx, x[j]);
			for (size_t j = 0; j < c->row; j++)
				s += y[j] = expf(x[j] - mx);
			for (size_t j = 0; j < c->row; j++)
				y[j] /= s;
		}
		host_sink = of[0];
		break;
	}
}

static struct result
measure_host(const struct options *opt, const struct bench_case *c, size_t n, const float *xf,
             const int32_t *xi, void *out)
{
	struct result res = {MS_NOT_RUN, 0, 0, TIMING_WALL};
	size_t selected = 0;
	double t0, one, *times;
	int reps;

	if (c->row && n < c->row)
		return res;
	host_once(c, n, xf, xi, out, &selected); /* warm the caches and pages */
	t0 = now_s();
	host_once(c, n, xf, xi, out, &selected);
	one = now_s() - t0;
	reps = reps_for(opt, n, one);
	times = xmalloc((size_t)reps * sizeof(*times));
	for (int r = 0; r < reps; r++) {
		t0 = now_s();
		host_once(c, n, xf, xi, out, &selected);
		times[r] = now_s() - t0;
	}
	res.ms = res.wall_ms = median(times, reps) * 1e3;
	res.gbps = bytes_moved(c, n, selected) / (res.ms * 1e-3) / 1e9;
	free(times);
	progress("host", c->op, type_name(c->type), n, res);
	return res;
}

/* ---------------------------------------------------------------- output */

static void
tsv_row(FILE *f, const char *device, const char *backend, const char *op, const char *type,
        size_t n, struct result r)
{
	if (!f || r.ms < 0)
		return;
	fprintf(f, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.4f\t%.6f\t%s\n", device, backend, op, type, n,
	        r.ms, r.gbps, r.wall_ms, timing_name(r.timing));
	fflush(f); /* a run cut short keeps every row it measured */
}

/* Pointers into results[backend][case][log2], host[case][log2] and copy[log2]. */
struct table_data {
	int nb;
	const char *names[MAX_BACKENDS];
	struct result (*res)[N_CASES][LOG2_SLOTS];
	struct result (*host)[LOG2_SLOTS];
	const struct result *copy;
	int ratio_num, ratio_den; /* backend indexes for the ratio column, -1: none */
	int show_host;
};

/* A GB/s cell; a wall-timed one gets a '*' where `mark` (its table mixes methods). */
static void
print_gbps(struct result r, int mark)
{
	if (r.ms < 0)
		printf(" %9s", r.ms == MS_FAILED ? "FAILED" : "-");
	else if (mark && r.timing == TIMING_WALL)
		printf(" %8.2f*", r.gbps);
	else
		printf(" %9.2f", r.gbps);
}

/* How the device results shown were timed, for a table header; *mark: mixed, so star the wall ones. */
static const char *
timing_legend(int any_event, int any_wall, int *mark)
{
	*mark = any_event && any_wall;
	if (!any_wall)
		return "median event time, marker before the call -> end of its last command";
	if (!any_event)
		return "median WALL time of call+clFinish (no usable profiling timestamps)";
	return "median event time; * = WALL time of call+clFinish, timestamps unusable";
}

static void
print_table(const struct table_data *t, size_t ci, int min_log2, int max_log2)
{
	const struct bench_case *c = &cases[ci];
	const char *legend;
	char ratio[32];
	int any_event = 0, any_wall = 0, mark;

	for (int l = min_log2; l <= max_log2; l++) {
		for (int b = 0; b <= t->nb; b++) {
			struct result r = b < t->nb ? t->res[b][ci][l] : t->copy[l];

			if (r.ms >= 0) {
				any_event |= r.timing == TIMING_EVENT;
				any_wall |= r.timing == TIMING_WALL;
			}
		}
	}
	legend = timing_legend(any_event, any_wall, &mark);
	printf("\n%s %s  [GB/s = (%s) / %s]\n", c->op, type_name(c->type), c->bytes, legend);
	printf("%10s", "n");
	for (int b = 0; b < t->nb; b++)
		printf(" %9s", t->names[b]);
	if (t->ratio_num >= 0) {
		snprintf(ratio, sizeof(ratio), "%s/%s", t->names[t->ratio_num], t->names[t->ratio_den]);
		printf(" %9s", ratio);
	}
	printf(" %9s", "copy");
	if (t->show_host)
		printf(" %9s", "host");
	printf("\n");
	for (int l = min_log2; l <= max_log2; l++) {
		int any = 0;

		for (int b = 0; b < t->nb; b++)
			any |= t->res[b][ci][l].ms != MS_NOT_RUN;
		if (!any)
			continue;
		printf("%10zu", (size_t)1 << l);
		for (int b = 0; b < t->nb; b++)
			print_gbps(t->res[b][ci][l], mark);
		if (t->ratio_num >= 0) {
			struct result p = t->res[t->ratio_num][ci][l], q = t->res[t->ratio_den][ci][l];
			struct result pq = {p.gbps / q.gbps, p.gbps / q.gbps, 0,
			                    p.timing == TIMING_EVENT && q.timing == TIMING_EVENT
			                            ? TIMING_EVENT
			                            : TIMING_WALL};

			if (p.ms < 0 || q.ms < 0)
				pq.ms = MS_NOT_RUN;
			print_gbps(pq, mark);
		}
		print_gbps(t->copy[l], mark);
		if (t->show_host)
			print_gbps(t->host[ci][l], 0);
		printf("\n");
	}
}

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
	        "      --budget S       at most about S seconds of repetitions per size (default 3)\n"
	        "      --tsv FILE       also write device, backend, op, type, n, median_ms, gbps,\n"
	        "                       wall_ms, timing rows (gbps is from median_ms, timed as\n"
	        "                       `timing` says: event or wall; wall_ms: call+clFinish)\n"
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
	clwarp_status s = clwarp_device_list(&list, &count);

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

int
main(int argc, char **argv)
{
	enum { OPT_OPS = 256, OPT_MIN, OPT_MAX, OPT_TSV, OPT_BUDGET, OPT_NO_HOST, OPT_KEEP_GOING };
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
		{"list", no_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct options opt = {NULL, "auto,local", NULL, NULL, LOG2_FLOOR, 0, 20, 3.0, 1, 0};
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
		fprintf(tsv, "device\tbackend\top\ttype\tn\tmedian_ms\tgbps\twall_ms\ttiming\n");
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
			       "        %.0f s / reps) after a checked warm-up call; the wall time of\n"
			       "        `call; clFinish` is also measured (--tsv: wall_ms).\n",
			       opt.reps, opt.reps / 2 > 0 ? opt.reps / 2 : 1, opt.budget_s);
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
				tsv_row(tsv, device_name, b.backend, cases[c].op, type_name(cases[c].type),
				        (size_t)1 << l, res[td.nb][c][l]);
				if (res[td.nb][c][l].ms == MS_FAILED) {
					failures++;
					break;
				}
			}
		}
		if (td.nb == 0)
			for (int l = opt.min_log2; l <= max_log2; l++)
				tsv_row(tsv, device_name, "opencl", "copy", "float", (size_t)1 << l, copy[l]);
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
		printf("%10s %9s %12s %12s %7s\n", "n", "copy", "median ms", "wall ms", "timing");
		for (int l = opt.min_log2; l <= max_log2; l++) {
			printf("%10zu", (size_t)1 << l);
			print_gbps(copy[l], mark);
			printf(" %12.4f %12.4f %7s\n", copy[l].ms, copy[l].wall_ms, timing_name(copy[l].timing));
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
