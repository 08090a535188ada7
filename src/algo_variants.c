/* Device-wide algorithms: the engine's algorithm state (tuning, temporary
 * buffers) and the variants' programs and kernels. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "kernels_embedded.h"
#include "kernel.h"
#include "program.h"
#include "util.h"

/*
 * Measured on an H100 with bench/tune-gpu.sh (docs/performance.md and
 * bench/results/h100-tune-*.txt): scan tiles of 128 x 8 beat 256 x 4 (the same 4096 floats) by
 * 1.11-1.15x at n >= 2^22; compaction tiles of 256 x 6 beat 128 x 8 by
 * 1.04-1.10x there, and cost scans 2-7 %.
 */
static const struct algo_tuning default_tuning = {
	.wg = 256,
	.scan_wg = 128,
	.scan_vectors = 8,
	.select_wg = 256,
	.select_vectors = 6,
	.reduce_groups = 4,
	.reduce_unroll = 4,
	.packed_lookback = 1,
	.sort_items = 0,
	.runs_wg = 0,
	.runs_vectors = 0,
	.histogram_bins = 4096,
	/* Compaction: CUB's delays for DeviceSelect::If on sm_90 (1150 ns, 76 ns)
	 * made it 1.14-1.27x as fast at 2^25-2^28 floats on the H100 (one
	 * outlier of eight points, 0.87); partition lost up to 4 % with them
	 * (one point 12 %) and gained 1.09-1.11x with CUB's generic ones (450, 350)
	 * (docs/performance-select.md). */
	.select_wait = 1150,
	.select_poll = 76,
	.partition_wait = 450,
	.partition_poll = 350,
	/* Run-length encode and reduce by key: compaction's delays, in
	 * launches of RUNS_NAP_GROUPS work-groups or more. On an H100 they
	 * made reduce by key 1.00-1.15x and run-length encode up to 1.14x as
	 * fast at 2^24-2^28 and cost 5-20 % at 2^22, 512 tiles
	 * (docs/performance-hist-rle.md, "Run-length encode and reduce by
	 * key: the naps on"). The wrong NVIDIA build they once gave is worked
	 * around in runs.cl (docs/lookback-naps.md). */
	.runs_wait = 1150,
	.runs_poll = 76,
	/* Scan: CUB's delays for float sums on sm_90 (1140 ns, 688 ns) made
	 * float and int scans 1.08-1.17x as fast at 2^22-2^28 in one H100
	 * job, 1.01-1.19x at 2^24-2^28 in another; unique: the first nap
	 * alone, 1.16-1.25x at 2^26-2^28 (docs/performance.md, "Look-back
	 * naps for scan and unique"). */
	.scan_wait = 1140,
	.scan_poll = 688,
	.unique_wait = 1150,
	.unique_poll = 0,
	.sort_lookback = SORT_LOOKBACK_AUTO,
	.sort_pairs_items = 0,
	.sort_wide_items = 0,
	.sort_regs = 0,
	.small_n = SMALL_AUTO,
	.small_wg = SMALL_AUTO,
	.small_vectors = SMALL_AUTO,
};

/* ------------------------------------------------------------ engine state */

/*
 * CLWARP_ALGO_TUNING="key=value,..." with the keys of struct algo_tuning:
 * for trying other tile and grid shapes in benchmarks (docs/algorithms.md)
 * without rebuilding the library.
 */
static clwarp_status
tuning_parse(const char *text, struct algo_tuning *t)
{
	static const struct {
		const char *key;
		size_t offset;
		unsigned lo, hi;
		bool power_of_two;
	} keys[] = {
		{ "wg", offsetof(struct algo_tuning, wg), 1, 1024, true },
		{ "scan_wg", offsetof(struct algo_tuning, scan_wg), 1, 1024, true },
		/* A tile lives in registers: 32 elements per work-item at most. */
		{ "scan_vectors", offsetof(struct algo_tuning, scan_vectors), 1, 8, false },
		{ "select_wg", offsetof(struct algo_tuning, select_wg), 1, 1024, true },
		/* clwarp_select also keeps one bit per element in a uint. */
		{ "select_vectors", offsetof(struct algo_tuning, select_vectors), 1, 8, false },
		{ "reduce_groups", offsetof(struct algo_tuning, reduce_groups), 1, 64, false },
		{ "reduce_unroll", offsetof(struct algo_tuning, reduce_unroll), 1, 16, false },
		{ "packed_lookback", offsetof(struct algo_tuning, packed_lookback), 0, 1, false },
		/* A sort tile also lives in registers. */
		{ "sort_items", offsetof(struct algo_tuning, sort_items), 2, 32, false },
		/* Run heads are one bit each in a uint: 32 elements per work-item. */
		{ "runs_wg", offsetof(struct algo_tuning, runs_wg), 1, 1024, true },
		{ "runs_vectors", offsetof(struct algo_tuning, runs_vectors), 1, 8, false },
		/* 0: every histogram counts with global atomics. */
		{ "histogram_bins", offsetof(struct algo_tuning, histogram_bins), 0, 65536, false },
		/* Nanoseconds asleep in the look-back (nv). */
		{ "select_wait", offsetof(struct algo_tuning, select_wait), 0, 100000, false },
		{ "select_poll", offsetof(struct algo_tuning, select_poll), 0, 100000, false },
		{ "partition_wait", offsetof(struct algo_tuning, partition_wait), 0, 100000, false },
		{ "partition_poll", offsetof(struct algo_tuning, partition_poll), 0, 100000, false },
		{ "runs_wait", offsetof(struct algo_tuning, runs_wait), 0, 100000, false },
		{ "runs_poll", offsetof(struct algo_tuning, runs_poll), 0, 100000, false },
		{ "scan_wait", offsetof(struct algo_tuning, scan_wait), 0, 100000, false },
		{ "scan_poll", offsetof(struct algo_tuning, scan_poll), 0, 100000, false },
		{ "unique_wait", offsetof(struct algo_tuning, unique_wait), 0, 100000, false },
		{ "unique_poll", offsetof(struct algo_tuning, unique_poll), 0, 100000, false },
		/* 0: wait-free sort passes, 1: look-back (Onesweep), 2: by device type. */
		{ "sort_lookback", offsetof(struct algo_tuning, sort_lookback), 0, 2, false },
		{ "sort_pairs_items", offsetof(struct algo_tuning, sort_pairs_items), 2, 32, false },
		{ "sort_wide_items", offsetof(struct algo_tuning, sort_wide_items), 2, 32, false },
		/* Registers per work-item of the sort kernels on nv (0: no cap). */
		{ "sort_regs", offsetof(struct algo_tuning, sort_regs), 0, 255, false },
		/* The one-work-group path: 4-byte elements at most (0: never). */
		{ "small_n", offsetof(struct algo_tuning, small_n), 0, 1u << 28, false },
		{ "small_wg", offsetof(struct algo_tuning, small_wg), 1, 1024, true },
		{ "small_vectors", offsetof(struct algo_tuning, small_vectors), 1, 8, false },
	};
	const char *p = text;

	*t = default_tuning;
	while (*p) {
		size_t len = strcspn(p, "=,");
		size_t k = 0;
		unsigned long value;
		char *end;

		while (k < ARRAY_LENGTH(keys) &&
		       !(strlen(keys[k].key) == len && strncmp(keys[k].key, p, len) == 0))
			k++;
		if (k == ARRAY_LENGTH(keys) || p[len] != '=')
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_ALGO_TUNING=\"%s\": expected key=value[,key=value...] with keys wg, scan_wg, scan_vectors, select_wg, select_vectors, reduce_groups, reduce_unroll, packed_lookback, sort_items, runs_wg, runs_vectors, histogram_bins, select_wait, select_poll, partition_wait, partition_poll, runs_wait, runs_poll, scan_wait, scan_poll, unique_wait, unique_poll, sort_lookback, sort_pairs_items, sort_wide_items, sort_regs, small_n, small_wg, small_vectors",
					 text);
		p += len + 1;
		errno = 0;
		value = strtoul(p, &end, 10);
		if (end == p || errno || (*end && *end != ',') || value < keys[k].lo ||
		    value > keys[k].hi || (keys[k].power_of_two && (value & (value - 1))))
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_ALGO_TUNING: %s must be %s from %u to %u", keys[k].key,
					 keys[k].power_of_two ? "a power of two" : "a whole number",
					 keys[k].lo, keys[k].hi);
		*(unsigned *)((char *)t + keys[k].offset) = (unsigned)value;
		p = *end ? end + 1 : end;
	}
	return CLWARP_OK;
}

/* `want` work-items, halved until the device takes them; not below a warp. */
static clwarp_status
fit_work_group(const clwarp_engine *engine, const struct backend_config *config, size_t want,
	       size_t *wg)
{
	while (want > engine->info.max_work_group_size)
		want /= 2;
	if (want < config->warp_size)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "the algorithms' work-groups (%zu work-items on %s) are narrower than its warps (%u)",
				 want, engine->info.name, config->warp_size);
	*wg = want;
	return CLWARP_OK;
}

/*
 * The one-work-group path for small n, by device kind where the tuning
 * leaves it open. GPUs: work-groups as wide as the device takes (1024 on
 * NVIDIA), so that one of them has many loads in flight, and 2 vectors
 * per work-item (a tile of 8192 4-byte elements; twice that in registers
 * with the next tile's loads); up to 2^14 elements, where on the H100 a
 * one-launch copy of n elements takes 13-16 us and the look-back calls
 * took 2.5-6 us more (docs/performance-host.md, "Small n"); not yet
 * measured on a GPU: bench/run-user-gpu.sh times both paths at each size.
 * CPUs: one work-group of the usual width, which takes one core, up to
 * 2^12: on PoCL 3.1 here (2 shared cores) its blocking scans took up to
 * 1.7x the look-back path's time from 2^11 to 2^14, while its reduce
 * took 0.6x at 2^13-2^14 (docs/performance-host.md).
 */
static void
small_defaults(const clwarp_engine *engine, struct algo_tuning *t)
{
	bool cpu = (engine->info.type & CL_DEVICE_TYPE_CPU) != 0;

	if (t->small_n == SMALL_AUTO)
		t->small_n = cpu ? 1u << 12 : 1u << 14;
	if (t->small_wg == SMALL_AUTO)
		t->small_wg = cpu ? t->wg : 1024;
	if (t->small_vectors == SMALL_AUTO)
		t->small_vectors = cpu ? 4 : 2;
}

/* Small enough for one work-group: the kinds with a *_small kernel (or,
 * for reduce, a one-work-group launch), up to small_n * 4 bytes. */
bool
algo_small_fits(const struct algorithms *a, enum algo_kind kind, clwarp_type type, size_t n)
{
	size_t size = algo_types[type].size;  /* the callers checked the type */

	if (kind != ALGO_REDUCE && kind != ALGO_SCAN && kind != ALGO_COMPACT &&
	    kind != ALGO_PARTITION && kind != ALGO_UNIQUE)
		return false;
	return size && a->tuning.small_n && n <= (size_t)a->tuning.small_n * 4 / size;
}

clwarp_status
algo_state_get(clwarp_engine *engine, const struct backend_config *config,
	       struct algorithms **out)
{
	struct algorithms *a = engine->algorithms;
	cl_uint zero[16] = { 0 };
	struct algo_tuning tuning = default_tuning;
	const char *tuning_text = getenv("CLWARP_ALGO_TUNING");
	size_t wg = 0, scan_wg = 0, select_wg = 0, runs_wg = 0, small_wg = 0;
	bool nv = config->backend == CLWARP_BACKEND_NV;
	clwarp_status status = CLWARP_OK;
	cl_int err;

	if (a) {
		*out = a;
		return CLWARP_OK;
	}
	if (tuning_text)
		status = tuning_parse(tuning_text, &tuning);
	/* Run-length encode and reduce by key on nv: tiles of 256 x 8 vectors
	 * took 0.73-0.89x the time of 128 x 4 on the H100 (2^24-2^28 uint
	 * keys, runs of 1, 4 and 64; docs/performance-hist-rle.md): fewer, larger
	 * tiles, so fewer look-back steps per key. */
	if (!tuning.runs_wg)
		tuning.runs_wg = nv ? 256 : tuning.scan_wg;
	if (!tuning.runs_vectors)
		tuning.runs_vectors = nv ? 8 : 4;
	/* Pairs on nv: tiles of 256 x 20 took 0.89x the time of 256 x 16 on
	 * the H100 (2^28 uint pairs; keys alone: 0.97-1.03x, so they keep 16);
	 * 256 x 24 then 0.94x that of 256 x 20, and 8-byte keys alone 256 x 10
	 * (sort_wide_items 20) 0.89x that of 256 x 8 (2^28 ulong keys; both
	 * with 32-bit look-back words, bench/results/h100-sort-3). */
	if (!tuning.sort_pairs_items)
		tuning.sort_pairs_items = nv ? 24 : tuning.sort_items ? tuning.sort_items : 16;
	if (!tuning.sort_wide_items)
		tuning.sort_wide_items = nv ? 20 : tuning.sort_items ? tuning.sort_items : 16;
	small_defaults(engine, &tuning);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.wg, &wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.scan_wg, &scan_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.select_wg, &select_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.runs_wg, &runs_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.small_wg, &small_wg);
	if (status != CLWARP_OK)
		return status;
	a = calloc(1, sizeof(*a));
	if (!a)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	a->tuning = tuning;
	a->tuning.scan_wg = (unsigned)scan_wg;
	a->tuning.select_wg = (unsigned)select_wg;
	a->tuning.runs_wg = (unsigned)runs_wg;
	a->tuning.small_wg = (unsigned)small_wg;
	a->wg = wg;
	err = clGetDeviceInfo(engine->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(a->compute_units),
			      &a->compute_units, NULL);
	if (err != CL_SUCCESS || a->compute_units == 0)
		a->compute_units = 1;
	a->out_of_order = !engine->queue_in_order;
	/* On a CPU device, work-groups run on worker threads that the OS may
	 * take off their cores; a tile that waits for another then spins on
	 * the core the other one needs (docs/performance-sort-cpu.md). Oclgrind reports every device type, CPU included. */
	a->sort_wait_free = tuning.sort_lookback == SORT_LOOKBACK_AUTO
				    ? (engine->info.type & CL_DEVICE_TYPE_CPU) != 0
				    : tuning.sort_lookback == SORT_LOOKBACK_NEVER;
	a->counter = clCreateBuffer(engine->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				    sizeof(zero), zero, &err);
	if (err != CL_SUCCESS) {
		free(a);
		return set_cl_error(err, "creating the algorithms' counter");
	}
	engine->algorithms = a;
	*out = a;
	return CLWARP_OK;
}

/*
 * Make *buf at least `need` bytes. A new buffer starts zeroed, every one,
 * not only the look-back status words: values between work-groups move
 * through atomics (atomic_xchg publishes them), and an atomic on a word no
 * one has written reads it. The protocols never use that old value, but
 * Oclgrind --uninitialized counts it as uninitialized data and then reports
 * every partial and tile total that travels through the word. The zeros
 * come from the host (CL_MEM_COPY_HOST_PTR): Oclgrind 21.10 does not count
 * clEnqueueFillBuffer as initialising memory.
 */
clwarp_status
algo_temp_reserve(clwarp_engine *engine, cl_mem *buf, size_t *have, size_t need)
{
	size_t size = 4096;
	void *zeros;
	cl_mem mem;
	cl_int err;

	if (*buf && *have >= need)
		return CLWARP_OK;
	while (size < need)
		size *= 2;
	if (size > engine->info.max_alloc_size)
		size = need;
	zeros = calloc(1, size);
	if (!zeros)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	mem = clCreateBuffer(engine->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, zeros,
			     &err);
	free(zeros);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "creating a temporary buffer");
	/* Kernels still queued keep the old one alive until they finish. Its
	 * handle may come back as a later buffer: no argument memo may match it. */
	if (*buf) {
		clReleaseMemObject(*buf);
		engine->algorithms->temps_gen++;
	}
	*buf = mem;
	*have = size;
	return CLWARP_OK;
}

static void
variant_free(struct algo_variant *v)
{
	for (size_t i = 0; i < ARRAY_LENGTH(v->kernels); i++)
		kernel_free(v->kernels[i]);
	free(v->predicate);
	free(v);
}

void
algorithms_free(clwarp_engine *engine)
{
	struct algorithms *a = engine->algorithms;

	if (!a)
		return;
	while (a->variants) {
		struct algo_variant *next = a->variants->next;

		variant_free(a->variants);
		a->variants = next;
	}
	if (a->counter)
		clReleaseMemObject(a->counter);
	if (a->partials)
		clReleaseMemObject(a->partials);
	if (a->tile_words)
		clReleaseMemObject(a->tile_words);
	if (a->tile_slots)
		clReleaseMemObject(a->tile_slots);
	if (a->sort_bins)
		clReleaseMemObject(a->sort_bins);
	if (a->sort_keys)
		clReleaseMemObject(a->sort_keys);
	if (a->sort_values)
		clReleaseMemObject(a->sort_values);
	if (a->sort_counts)
		clReleaseMemObject(a->sort_counts);
	free(a);
	engine->algorithms = NULL;
}

/* ------------------------------------------------------------ kernel builds */

/* A variant's kernels: call_launch's `which` indexes these (and v->kernels). */
static const char *const kernel_names[][ALGO_KERNELS] = {
	[ALGO_REDUCE] = { "clwarp_reduce", NULL },
	[ALGO_SCAN] = { "clwarp_scan", NULL },
	[ALGO_COMPACT] = { "clwarp_select", NULL },
	[ALGO_PARTITION] = { "clwarp_select", "clwarp_reverse_tail" },
	[ALGO_ROWS_REDUCE] = { "clwarp_rows_reduce_warp", "clwarp_rows_reduce_group",
			       "clwarp_rows_reduce_seg" },
	[ALGO_ROWS_SCAN] = { "clwarp_rows_scan_warp", "clwarp_rows_scan_group",
			     "clwarp_rows_scan_seg" },
	[ALGO_SOFTMAX] = { "clwarp_softmax_warp", "clwarp_softmax_group", "clwarp_softmax_seg" },
	[ALGO_SORT] = { "clwarp_sort_histogram", "clwarp_sort_offsets", "clwarp_sort_pass" },
	[ALGO_UNIQUE] = { "clwarp_select", NULL },
	[ALGO_RUNS] = { "clwarp_runs", NULL },
	[ALGO_HISTOGRAM] = { "clwarp_histogram_clear", "clwarp_histogram_shared",
			     "clwarp_histogram_global" },
};

/* The one-work-group kernels of small variants (ALGO_SMALL); reduce's is
 * the one kernel, launched as one work-group. */
static const char *const small_kernel_names[][ALGO_KERNELS] = {
	[ALGO_REDUCE] = { "clwarp_reduce", NULL },
	[ALGO_SCAN] = { "clwarp_scan_small", NULL },
	[ALGO_COMPACT] = { "clwarp_select_small", NULL },
	[ALGO_PARTITION] = { "clwarp_select_small", NULL },
	[ALGO_UNIQUE] = { "clwarp_select_small", NULL },
};

/* The sort's kernels with wait-free passes (SORT_WAIT_FREE in sort.cl). */
static const char *const sort_wait_free_kernels[ALGO_KERNELS] = {
	"clwarp_sort_histogram", "clwarp_sort_offsets", "clwarp_sort_pass", "clwarp_sort_count",
	"clwarp_sort_scan_counts"
};

/* The file of kernels/algorithms/ that holds a variant's kernels. */
static const char *const kernel_files[] = {
	[ALGO_REDUCE] = "reduce",
	[ALGO_SCAN] = "scan",
	[ALGO_COMPACT] = "scan",
	[ALGO_PARTITION] = "scan",
	[ALGO_ROWS_REDUCE] = "rows",
	[ALGO_ROWS_SCAN] = "rows",
	[ALGO_SOFTMAX] = "rows",
	[ALGO_SORT] = "sort",
	[ALGO_UNIQUE] = "scan",
	[ALGO_RUNS] = "runs",
	[ALGO_HISTOGRAM] = "histogram",
};

/* The text of that file (kernels/embed.py). */
static const char *const kernel_bodies[] = {
	[ALGO_REDUCE] = clwarp_kernel_algorithms_reduce,
	[ALGO_SCAN] = clwarp_kernel_algorithms_scan,
	[ALGO_COMPACT] = clwarp_kernel_algorithms_scan,
	[ALGO_PARTITION] = clwarp_kernel_algorithms_scan,
	[ALGO_ROWS_REDUCE] = clwarp_kernel_algorithms_rows,
	[ALGO_ROWS_SCAN] = clwarp_kernel_algorithms_rows,
	[ALGO_SOFTMAX] = clwarp_kernel_algorithms_rows,
	[ALGO_SORT] = clwarp_kernel_algorithms_sort,
	[ALGO_UNIQUE] = clwarp_kernel_algorithms_scan,
	[ALGO_RUNS] = clwarp_kernel_algorithms_runs,
	[ALGO_HISTOGRAM] = clwarp_kernel_algorithms_histogram,
};

/* The program text of a variant: its defines, common.cl, then the kernels' file. */
/* Runs nap from this many tiles (n >= 2^24 for 4-byte keys at nv's
 * tile of 8192); the other kinds from 500 (common.cl, ALGO_NAP_GROUPS). */
#define RUNS_NAP_GROUPS 2048

/* The look-back naps of a kind on nv, in ns (0: none): before the first
 * poll, and after each poll that finds a predecessor not ready. */
static void
lookback_naps(const struct algo_tuning *t, enum algo_kind kind, unsigned *wait, unsigned *poll)
{
	switch (kind) {
	case ALGO_SCAN:
		*wait = t->scan_wait, *poll = t->scan_poll;
		break;
	case ALGO_COMPACT:
		*wait = t->select_wait, *poll = t->select_poll;
		break;
	case ALGO_PARTITION:
		*wait = t->partition_wait, *poll = t->partition_poll;
		break;
	case ALGO_UNIQUE:
		*wait = t->unique_wait, *poll = t->unique_poll;
		break;
	case ALGO_RUNS:
		*wait = t->runs_wait, *poll = t->runs_poll;
		break;
	default:
		*wait = *poll = 0;
	}
}

static void
variant_source(const struct algo_variant *v, const struct backend_config *config,
	       const struct algo_tuning *tuning, struct strbuf *out)
{
	const struct type_desc *t = &algo_types[v->type];
	unsigned vec = algo_kind_vec(v);
	const char *op = algo_op_names[v->op];
	const char *file;

	strbuf_printf(out, "#define T %s\n#define T_VEC %s%u\n#define VEC %u\n", t->name, t->name,
		      vec, vec);
	switch (v->op) {
	case CLWARP_OP_ADD:
		strbuf_puts(out, "#define ID ((T)0)\n#define OP(a, b) ((a) + (b))\n");
		break;
	case CLWARP_OP_MIN:
	case CLWARP_OP_MAX:
		strbuf_printf(out, "#define ID ((T)(%s))\n#define OP(a, b) %s%s((a), (b))\n",
			      v->op == CLWARP_OP_MIN ? t->min_identity : t->max_identity,
			      t->is_float ? "f" : "", op);
		break;
	}
	strbuf_printf(out, "#define WARP_REDUCE(v) warp_reduce_%s(v)\n"
			   "#define WARP_SCAN_EXCL(v) warp_scan_exclusive_%s(v)\n"
			   "#define WG %zu\n#define ITEMS_K %u\n#define REDUCE_UNROLL %u\n",
		      op, op, v->wg, v->vectors, tuning->reduce_unroll);
	if (config->backend == CLWARP_BACKEND_NV)
		strbuf_puts(out, "#define CLWARP_ALGO_WARP_LOOKBACK 1\n");
	if (!tuning->packed_lookback)
		strbuf_puts(out, "#define CLWARP_ALGO_SPLIT_LOOKBACK 1\n");
	if (v->small)
		strbuf_puts(out, "#define ALGO_SMALL 1\n");

	if (config->backend == CLWARP_BACKEND_NV) {
		unsigned wait, poll;

		lookback_naps(tuning, v->kind, &wait, &poll);
		if (wait)
			strbuf_printf(out, "#define ALGO_LOOKBACK_WAIT %u\n", wait);
		if (poll)
			strbuf_printf(out, "#define ALGO_LOOKBACK_POLL %u\n", poll);
		if ((wait || poll) && v->kind == ALGO_RUNS)
			strbuf_printf(out, "#define ALGO_NAP_GROUPS %u\n", RUNS_NAP_GROUPS);
	}
	algo_kind_defines(v, out);
	file = kernel_files[v->kind];
	strbuf_puts(out, "#line 1 \"clwarp/algorithms/common.cl\"\n");
	strbuf_puts(out, clwarp_kernel_algorithms_common);
	if (v->predicate) {
		strbuf_puts(out, "\n#line 1 \"predicate\"\nCLWARP_INLINE int clwarp_pred(T x) { return (");
		strbuf_puts(out, v->predicate);
		strbuf_puts(out, ") ? 1 : 0; }\n");
	}
	strbuf_printf(out, "\n#line 1 \"clwarp/algorithms/%s.cl\"\n", file);
	strbuf_puts(out, kernel_bodies[v->kind]);
}

/* Build v's program and kernels; *narrow: a kernel runs fewer than v->wg work-items. */
static clwarp_status
variant_build(const char *fn, clwarp_engine *engine, struct algorithms *a,
	      const struct backend_config *config, struct algo_variant *v, bool *narrow)
{
	const char *const *names = v->small ? small_kernel_names[v->kind] : kernel_names[v->kind];
	struct strbuf text = { 0 };
	clwarp_program *program = NULL;
	char name[64];
	clwarp_status status;

	*narrow = false;
	if (v->sort_wait_free)
		names = sort_wait_free_kernels;
	variant_source(v, config, &a->tuning, &text);
	if (text.failed) {
		strbuf_free(&text);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	snprintf(name, sizeof(name), "clwarp/algorithms/%s.cl", kernel_files[v->kind]);
	/* A register cap lets more sort work-groups share an SM (nv only:
	 * NVIDIA's cl_nv_compiler_options). 4-byte keys alone default to 64
	 * (room for 4 work-groups of 256 an SM), with larger tiles
	 * (algo_kinds.c, sort_shape); pairs lost 1.4-1.6x with it
	 * (docs/performance-sort.md, session 12). A small variant's one
	 * work-group must fit an SM's 65536 registers. */
	char options[40] = "";
	unsigned regs = a->tuning.sort_regs;
	if (!regs && algo_types[v->type].size == 4 && v->value_type < 0)
		regs = 64;
	if (v->kind == ALGO_SORT && config->backend == CLWARP_BACKEND_NV && regs)
		snprintf(options, sizeof(options), "-cl-nv-maxrregcount=%u", regs);
	if (v->small && config->backend == CLWARP_BACKEND_NV && v->wg >= 512)
		snprintf(options, sizeof(options), "-cl-nv-maxrregcount=%zu", 65536 / v->wg);
	status = program_build(engine, text.data, name, ".", options[0] ? options : NULL, config,
			       &program, NULL);
	strbuf_free(&text);
	if (status != CLWARP_OK) {
		char *why = xstrdup(error_message());

		if (v->predicate)
			set_error(status, "%s: predicate \"%s\" does not compile for %s: %s", fn,
				  v->predicate, algo_types[v->type].name, why ? why : "");
		else
			set_error(status, "%s: building its kernels: %s", fn, why ? why : "");
		free(why);
		return status;
	}
	for (size_t i = 0; i < ARRAY_LENGTH(v->kernels) && names[i]; i++) {
		size_t max_wg = 0;

		status = kernel_new(program, names[i], &v->kernels[i]);
		if (status != CLWARP_OK)
			return status;
		if (clGetKernelWorkGroupInfo(kernel_cl(v->kernels[i]), engine->device,
					     CL_KERNEL_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg,
					     NULL) == CL_SUCCESS &&
		    max_wg < v->wg) {
			*narrow = true;
			return set_error(CLWARP_ERROR_TOO_LARGE,
					 "%s: kernel %s runs at most %zu work-items per work-group on %s; it needs %zu",
					 fn, names[i], max_wg, engine->info.name, v->wg);
		}
	}
	return CLWARP_OK;
}

/* The kernels of a variant, built once per engine (and cached like user
 * programs). A small variant whose kernel runs fewer work-items than
 * small_wg is built again for half as many. */
clwarp_status
algo_variant_get(const char *fn, clwarp_engine *engine, struct algorithms *a,
	    const struct backend_config *config, enum algo_kind kind, clwarp_type type,
	    clwarp_op op, int inclusive, const char *predicate, int value_type, bool small,
	    struct algo_variant **out)
{
	struct algo_variant *v;
	clwarp_status status;
	bool narrow;

	inclusive = inclusive ? 1 : 0;
	for (v = a->variants; v; v = v->next) {
		if (v->kind == kind && v->type == type && v->op == op && v->inclusive == inclusive &&
		    v->value_type == value_type && v->small == small &&
		    (v->predicate ? streq(v->predicate, predicate) : !predicate)) {
			*out = v;
			return CLWARP_OK;
		}
	}
	v = calloc(1, sizeof(*v));
	if (!v || (predicate && !(v->predicate = strdup(predicate)))) {
		free(v);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	v->kind = kind;
	v->type = type;
	v->op = op;
	v->inclusive = inclusive;
	v->value_type = value_type;
	v->small = small;
	status = algo_kind_shape(engine, a, config, v);
	while (status == CLWARP_OK) {
		status = variant_build(fn, engine, a, config, v, &narrow);
		if (status == CLWARP_OK || !small || !narrow || v->wg / 2 < config->warp_size)
			break;
		for (size_t i = 0; i < ARRAY_LENGTH(v->kernels); i++) {
			kernel_free(v->kernels[i]);
			v->kernels[i] = NULL;
		}
		v->wg /= 2;
		clear_error();
		status = CLWARP_OK;
	}
	if (status != CLWARP_OK) {
		variant_free(v);
		return status;
	}
	v->next = a->variants;
	a->variants = v;
	*out = v;
	return CLWARP_OK;
}
