/* Device-wide algorithms: the engine's algorithm state (its tuning from
 * src/algo_tuning.c, temporary buffers) and the variants' programs and
 * kernels. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "kernels_embedded.h"
#include "kernel.h"
#include "program.h"
#include "sha256.h"
#include "util.h"

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

/* Small enough for one work-group: the kinds with a *_small kernel (or,
 * for reduce, a one-work-group launch), up to small_n * 4 bytes, or
 * small_select_n * 4 for the selections, whose one work-group falls
 * behind the look-back path sooner (docs/design/host.md). */
static bool
small_fits(const struct algorithms *a, enum algo_kind kind, clwarp_type type, size_t n)
{
	size_t size = algo_types[type].size;  /* the callers checked the type */
	size_t limit;

	if (kind == ALGO_REDUCE || kind == ALGO_SCAN)
		limit = a->tuning.small_n;
	else if (kind == ALGO_COMPACT || kind == ALGO_PARTITION || kind == ALGO_UNIQUE)
		limit = a->tuning.small_select_n;
	else
		return false;
	return size && limit && n <= limit * 4 / size;
}

/* Reduce by key on nv from by_key_regs_n elements: its kernels built with
 * by_key_regs registers, so that more work-groups share an SM where the
 * launch has enough of them (algo_tuning_regs). */
static bool
large_fits(const struct algorithms *a, const struct backend_config *config, enum algo_kind kind,
	   int value_type, size_t n)
{
	return kind == ALGO_RUNS && value_type >= 0 && config->backend == CLWARP_BACKEND_NV &&
	       a->tuning.by_key_regs && a->tuning.by_key_regs_n && n >= a->tuning.by_key_regs_n;
}

clwarp_status
algo_state_get(clwarp_engine *engine, const struct backend_config *config,
	       struct algorithms **out)
{
	struct algorithms *a = engine->algorithms;
	cl_uint zero[16] = { 0 };
	struct algo_tuning tuning;
	size_t wg = 0, scan_wg = 0, select_wg = 0, runs_wg = 0, histogram_wg = 0, small_wg = 0;
	bool nv = config->backend == CLWARP_BACKEND_NV;
	clwarp_status status;
	cl_int err;

	if (a) {
		*out = a;
		return CLWARP_OK;
	}
	status = algo_tuning_load(engine, nv, &tuning);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.wg, &wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.scan_wg, &scan_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.select_wg, &select_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.runs_wg, &runs_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.histogram_wg, &histogram_wg);
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
	a->tuning.histogram_wg = (unsigned)histogram_wg;
	a->tuning.small_wg = (unsigned)small_wg;
	a->wg = wg;
	err = clGetDeviceInfo(engine->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(a->compute_units),
			      &a->compute_units, NULL);
	if (err != CL_SUCCESS || a->compute_units == 0)
		a->compute_units = 1;
	a->out_of_order = !engine->queue_in_order;
	/* On a CPU device, work-groups run on worker threads that the OS may
	 * take off their cores; a tile that waits for another then spins on
	 * the core the other one needs (docs/design/cpu-sort.md). Oclgrind reports every device type, CPU included. */
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
		strbuf_puts(out, "#define CLWARP_ALGO_WARP_ALONE 1\n");
	if (!tuning->packed_lookback)
		strbuf_puts(out, "#define CLWARP_ALGO_SPLIT_LOOKBACK 1\n");
	if (v->small)
		strbuf_puts(out, "#define ALGO_SMALL 1\n");

	if (config->backend == CLWARP_BACKEND_NV) {
		unsigned wait, poll, nap_groups;

		algo_tuning_naps(tuning, v->kind, &wait, &poll, &nap_groups);
		if (wait)
			strbuf_printf(out, "#define ALGO_LOOKBACK_WAIT %u\n", wait);
		if (poll)
			strbuf_printf(out, "#define ALGO_LOOKBACK_POLL %u\n", poll);
		if ((wait || poll) && nap_groups)
			strbuf_printf(out, "#define ALGO_NAP_GROUPS %u\n", nap_groups);
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

/*
 * Kernel i of v runs at most max_wg work-items per work-group by the
 * driver's CL_KERNEL_WORK_GROUP_SIZE. NVIDIA's OpenCL answers 256 for
 * every kernel, yet runs wider work-groups right
 * (contrib/driver-bugs/nvidia-work-group-query/): on an NVIDIA device
 * (CL_DEVICE_WARP_SIZE_NV), whatever the backend, a sort wider than the
 * answer, within the device's maximum, is kept, its width to be verified
 * before use (v->query_wg; algo_sort.c). Elsewhere such a kernel is
 * refused (*narrow).
 */
static clwarp_status
variant_check_width(const char *fn, const clwarp_engine *engine, const struct algorithms *a,
		    struct algo_variant *v, const char *name, size_t max_wg, bool *narrow)
{
	if (max_wg >= v->wg)
		return CLWARP_OK;
	if (engine->info.nv_warp_size && v->kind == ALGO_SORT && !a->sort_wide_refused &&
	    v->wg <= engine->info.max_work_group_size) {
		if (!v->query_wg || max_wg < v->query_wg)
			v->query_wg = max_wg;
		return CLWARP_OK;
	}
	*narrow = true;
	return set_error(CLWARP_ERROR_TOO_LARGE,
			 "%s: kernel %s runs at most %zu work-items per work-group on %s; it needs %zu",
			 fn, name, max_wg, engine->info.name, v->wg);
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
	char options[40] = "";
	unsigned regs = config->backend == CLWARP_BACKEND_NV ? algo_tuning_regs(&a->tuning, v) : 0;
	if (regs)
		snprintf(options, sizeof(options), "-cl-nv-maxrregcount=%u", regs);
	{
		struct sha256 h;

		sha256_init(&h);
		sha256_update_str(&h, text.data);
		sha256_update_str(&h, options);
		sha256_final(&h, v->build_key);
	}
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
					     NULL) == CL_SUCCESS)
			status = variant_check_width(fn, engine, a, v, names[i], max_wg, narrow);
		if (status != CLWARP_OK)
			return status;
	}
	return CLWARP_OK;
}

static void
variant_drop_kernels(struct algo_variant *v)
{
	for (size_t i = 0; i < ARRAY_LENGTH(v->kernels); i++) {
		kernel_free(v->kernels[i]);
		v->kernels[i] = NULL;
	}
	memset(v->memo, 0, sizeof(v->memo));
}

clwarp_status
algo_variant_rebuild(const char *fn, clwarp_engine *engine, struct algorithms *a,
		     const struct backend_config *config, struct algo_variant *v)
{
	clwarp_status status;
	bool narrow;

	variant_drop_kernels(v);
	v->query_wg = 0;
	status = algo_kind_shape(engine, a, config, v);
	if (status == CLWARP_OK)
		status = variant_build(fn, engine, a, config, v, &narrow);
	if (status != CLWARP_OK) {
		/* Not kept without its kernels: the next call builds it afresh. */
		struct algo_variant **at = &a->variants;

		while (*at && *at != v)
			at = &(*at)->next;
		if (*at)
			*at = v->next;
		variant_free(v);
	}
	return status;
}

/* The kernels of a variant for a call on n elements, built once per
 * engine (and cached like user programs). A small variant whose kernel
 * runs fewer work-items than small_wg is built again for half as many. */
clwarp_status
algo_variant_get(const char *fn, clwarp_engine *engine, struct algorithms *a,
	    const struct backend_config *config, enum algo_kind kind, clwarp_type type,
	    clwarp_op op, int inclusive, const char *predicate, int value_type, size_t n,
	    struct algo_variant **out)
{
	bool small = small_fits(a, kind, type, n);
	bool large = !small && large_fits(a, config, kind, value_type, n);
	struct algo_variant *v;
	clwarp_status status;
	bool narrow;

	inclusive = inclusive ? 1 : 0;
	for (v = a->variants; v; v = v->next) {
		if (v->kind == kind && v->type == type && v->op == op && v->inclusive == inclusive &&
		    v->value_type == value_type && v->small == small && v->large == large &&
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
	v->large = large;
	status = algo_kind_shape(engine, a, config, v);
	while (status == CLWARP_OK) {
		status = variant_build(fn, engine, a, config, v, &narrow);
		if (status == CLWARP_OK || !small || !narrow || v->wg / 2 < config->warp_size)
			break;
		variant_drop_kernels(v);
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
