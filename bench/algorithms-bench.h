/* What the files of algorithms-bench share: the cases measured, results,
 * options, one engine's state, and the functions one file gives the others. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_ALGORITHMS_BENCH_H
#define CLWARP_ALGORITHMS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clwarp/algorithms.h"
#include "clwarp/clwarp.h"

#define LOG2_FLOOR 10
#define LOG2_CEIL 28
#define LOG2_SLOTS (LOG2_CEIL + 1)
#define MAX_BACKENDS 4

enum kind {
	KIND_REDUCE,
	KIND_SCAN,
	KIND_COMPACT,
	KIND_PARTITION,
	KIND_PARTITION_REVERSED,  /* CLWARP_PARTITION_REVERSED: CUB's order */
	KIND_SEGREDUCE,
	KIND_SOFTMAX,
	KIND_SEGSCAN,
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
	{"segscan", "segmented_scan_inclusive_add_r32", KIND_SEGSCAN, CLWARP_TYPE_FLOAT,
	 CLWARP_OP_ADD, 1, 32, "n*4 read + n*4 written", NULL, 0},
	{"segscan", "segmented_scan_inclusive_add_r256", KIND_SEGSCAN, CLWARP_TYPE_FLOAT,
	 CLWARP_OP_ADD, 1, 256, "n*4 read + n*4 written", NULL, 0},
	{"segscan", "segmented_scan_inclusive_add_r1024", KIND_SEGSCAN, CLWARP_TYPE_FLOAT,
	 CLWARP_OP_ADD, 1, 1024, "n*4 read + n*4 written", NULL, 0},
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* How a result was timed: see the comment at the top of algorithms-bench.c. */
enum timing {
	TIMING_WALL,  /* host clock around `call; clFinish` (or around a host loop) */
	TIMING_EVENT, /* OpenCL profiling: marker end -> end of the call's last command */
};

static inline const char *
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
	double wall_ms;     /* median host wall time of one blocking call (= ms for host loops) */
	enum timing timing;
	double batch_ms;    /* back-to-back: K calls queued, one clFinish, time / K (0: none) */
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
	int batch;       /* K, the calls queued back to back per batch */
	const char *label; /* appended to the TSV's backend names, "[label]" */
	int profiling;   /* the engine's queue with profiling (events timed); 0: wall time only */
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

/* How one run of what is timed is made: RUN_EVENT returns at once with
 * the event of its last command in *last; RUN_BLOCK is the blocking
 * public call (event NULL: it waits); RUN_QUEUE returns at once and
 * keeps no event (an algorithm call's event is released at once; the
 * copy kernel goes through clwarp_kernel_enqueue). */
enum run_mode { RUN_EVENT, RUN_BLOCK, RUN_QUEUE };
typedef clwarp_status (*enqueue_fn)(struct bench *b, const void *ctx, enum run_mode mode,
				    cl_event *last);

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

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

/* algorithms-bench-util.c */
extern const char *progname;
PRINTF_LIKE(1, 2) void die(const char *fmt, ...);
void die_status(clwarp_status s, const char *what);
void *xmalloc(size_t bytes);
double now_s(void);
double median(double *v, int count);
const char *type_name(clwarp_type t);
void make_data(size_t n, float **f, int32_t **i);
double bytes_moved(const struct bench_case *c, size_t n, size_t selected);

/* algorithms-bench-check.c */
PRINTF_LIKE(4, 5) void wrong(const struct bench *b, const struct bench_case *c, size_t n,
                             const char *fmt, ...);
void read_back(struct bench *b, cl_mem buf, size_t bytes, void *dst);
int check(struct bench *b, const struct bench_case *c, size_t n);

/* algorithms-bench-device.c */
int reps_for(const struct options *opt, size_t n, double one_s);
void progress(const char *backend, const char *op, const char *type, size_t n, struct result r);
struct result measure(struct bench *b, const struct bench_case *c, size_t n);
void measure_copy(struct bench *b, int min_log2, int max_log2, struct result *copy);

/* algorithms-bench-host.c */
struct result measure_host(const struct options *opt, const struct bench_case *c, size_t n,
                          const float *xf, const int32_t *xi, void *out);

/* algorithms-bench-output.c */
void tsv_row(FILE *f, const char *device, const char *backend, const char *op, const char *type,
             size_t n, struct result r);
void print_gbps(struct result r, int mark);
const char *timing_legend(int any_event, int any_wall, int *mark);
void print_table(const struct table_data *t, size_t ci, int min_log2, int max_log2);

#endif
