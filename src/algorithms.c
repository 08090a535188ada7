/* Device-wide algorithms: reduce, scan, compaction, batched rows (kernels/algorithms/). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "error.h"
#include "kernels_embedded.h"
#include "program.h"
#include "util.h"

/*
 * Tuning (defaults below; CLWARP_ALGO_TUNING overrides them for
 * benchmarks, see tuning_parse). Work-group sizes are cut down to what the
 * device allows. A scan tile is scan_wg work-items x scan_vectors vectors
 * of 16 bytes, a compaction tile select_wg x select_vectors; the
 * reduction runs reduce_groups work-groups of `wg` per compute unit, each
 * work-item taking at least REDUCE_MIN_ITEMS elements with reduce_unroll
 * vector loads in flight; rows of at most W whole vectors get a segment of
 * a warp each, ROWS_SEG_STEPS steps of rows per work-group (see
 * rows_call), other rows up to ROWS_WARP_MAX elements one warp each,
 * longer ones a work-group of `wg`.
 */
struct algo_tuning {
	unsigned wg;
	unsigned scan_wg;
	unsigned scan_vectors;
	unsigned select_wg;
	unsigned select_vectors;
	unsigned reduce_groups;
	unsigned reduce_unroll;
	unsigned packed_lookback;  /* 0: keep look-back state and value apart for every type */
};

/*
 * Measured on an H100 with bench/tune-gpu.sh (docs/performance.md,
 * "Tuning"): scan tiles of 128 x 8 beat 256 x 4 (the same 4096 floats) by
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
};

#define REDUCE_MIN_ITEMS 16u
#define ROWS_WARP_MAX 256u
#define ROWS_SEG_STEPS 4u
/* Kernels per variant at most (rows: per warp, per work-group, per segment). */
#define ALGO_KERNELS 3
/* Look-back states are (epoch << 2) | state in 32 bits. */
#define EPOCH_LIMIT (1u << 30)

enum algo_kind {
	ALGO_REDUCE,
	ALGO_SCAN,
	ALGO_COMPACT,
	ALGO_PARTITION,
	ALGO_ROWS_REDUCE,
	ALGO_ROWS_SCAN,
	ALGO_SOFTMAX,
};

struct algo_variant {
	enum algo_kind kind;
	clwarp_type type;
	clwarp_op op;
	int inclusive;
	char *predicate;
	size_t wg;             /* the work-group size its kernels are built for */
	unsigned vectors;      /* ITEMS_K: 16-byte vectors per work-item in a tile */
	clwarp_kernel *kernels[ALGO_KERNELS];
	struct algo_variant *next;
};

/* engine->algorithms; everything here is guarded by engine->algorithms_lock. */
struct algorithms {
	struct algo_variant *variants;
	cl_mem counter;        /* one uint, 0 between launches */
	cl_mem partials;       /* one value per reduce work-group */
	size_t partials_bytes;
	cl_mem tile_words;     /* look-back: one 64-bit state (+ value) word per tile */
	size_t tile_words_bytes;
	cl_mem tile_slots;     /* look-back: two value slots per tile (split protocol) */
	size_t tile_slots_bytes;
	cl_uint epoch;
	cl_uint compute_units;
	struct algo_tuning tuning;
	size_t wg;             /* tuning.wg as the device allows (tuning's other work-group
				  sizes are already cut down to what it allows) */
	bool out_of_order;
};

struct type_desc {
	const char *name;
	size_t size;
	const char *min_identity;  /* the identity of min: the largest value */
	const char *max_identity;
	bool is_float;
};

static const struct type_desc types[] = {
	[CLWARP_TYPE_INT] = { "int", 4, "INT_MAX", "INT_MIN", false },
	[CLWARP_TYPE_UINT] = { "uint", 4, "UINT_MAX", "0u", false },
	[CLWARP_TYPE_LONG] = { "long", 8, "LONG_MAX", "LONG_MIN", false },
	[CLWARP_TYPE_ULONG] = { "ulong", 8, "ULONG_MAX", "0ul", false },
	[CLWARP_TYPE_FLOAT] = { "float", 4, "INFINITY", "-INFINITY", true },
	[CLWARP_TYPE_DOUBLE] = { "double", 8, "(double)INFINITY", "-(double)INFINITY", true },
};

static const char *const op_names[] = { "add", "min", "max" };

CLWARP_EXPORT size_t
clwarp_type_size(clwarp_type type)
{
	return (unsigned)type < ARRAY_LENGTH(types) ? types[type].size : 0;
}

/* ------------------------------------------------------------ argument checks */

static clwarp_status
check_engine_type(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op)
{
	if (!engine)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL engine", fn);
	if ((unsigned)type >= ARRAY_LENGTH(types))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown element type %d", fn,
				 (int)type);
	if ((unsigned)op >= ARRAY_LENGTH(op_names))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown operation %d", fn, (int)op);
	if (type == CLWARP_TYPE_DOUBLE && !engine->info.has_fp64)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: double needs cl_khr_fp64, which %s does not support", fn,
				 engine->info.name);
	return CLWARP_OK;
}

/* `count` elements of `size` bytes, or TOO_LARGE. */
static clwarp_status
checked_bytes(const char *fn, size_t count, size_t size, size_t *bytes)
{
	if (size && count > SIZE_MAX / size)
		return set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu elements of %zu bytes overflow",
				 fn, count, size);
	*bytes = count * size;
	return CLWARP_OK;
}

/* A buffer of the engine's context holding at least `need` bytes. */
static clwarp_status
check_buffer(const char *fn, clwarp_engine *engine, cl_mem buffer, const char *what, size_t need)
{
	size_t size = 0;
	cl_context context = NULL;
	cl_int err;

	if (!buffer)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: buffer `%s` is NULL", fn, what);
	err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof(size), &size, NULL);
	if (err == CL_SUCCESS)
		err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof(context), &context, NULL);
	if (err != CL_SUCCESS)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: `%s` is not a valid buffer (%s)",
				 fn, what, clwarp_cl_error_to_str(err));
	if (context != engine->context)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: buffer `%s` belongs to another OpenCL context", fn, what);
	if (size < need)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: buffer `%s` holds %zu bytes; the call needs %zu", fn, what, size,
				 need);
	return CLWARP_OK;
}

/*
 * The predicate becomes `return (PREDICATE) ? 1 : 0;` in a function of x:
 * one expression, so no statement separators, braces, comments,
 * preprocessor lines, strings or unbalanced brackets.
 */
static clwarp_status
check_predicate(const char *fn, const char *predicate)
{
	int depth[2] = { 0, 0 };
	bool blank = true;

	if (!predicate)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL predicate", fn);
	if (strlen(predicate) > 4096)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: predicate longer than 4096 bytes",
				 fn);
	for (const char *p = predicate; *p; p++) {
		char c = *p;

		if (c == ';' || c == '{' || c == '}' || c == '#' || c == '"' || c == '\'' ||
		    c == '\\' || c == '\n' || c == '\r' || (c == '/' && (p[1] == '/' || p[1] == '*')))
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "%s: predicate \"%s\" must be one OpenCL C expression in x: '%c' is not allowed",
					 fn, predicate, c == '\n' || c == '\r' ? ' ' : c);
		if (c == '(' || c == '[')
			depth[c == '[']++;
		if (c == ')' || c == ']') {
			if (--depth[c == ']'] < 0)
				return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
						 "%s: predicate \"%s\" has an unmatched '%c'", fn,
						 predicate, c);
		}
		if (c != ' ' && c != '\t')
			blank = false;
	}
	if (depth[0] || depth[1])
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: predicate \"%s\" has an unclosed '%c'", fn, predicate,
				 depth[0] ? '(' : '[');
	if (blank)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: empty predicate", fn);
	return CLWARP_OK;
}

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
					 "CLWARP_ALGO_TUNING=\"%s\": expected key=value[,key=value...] with keys wg, scan_wg, scan_vectors, select_wg, select_vectors, reduce_groups, reduce_unroll, packed_lookback",
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

static clwarp_status
state_get(clwarp_engine *engine, const struct backend_config *config, struct algorithms **out)
{
	struct algorithms *a = engine->algorithms;
	cl_uint zero[16] = { 0 };
	struct algo_tuning tuning = default_tuning;
	const char *tuning_text = getenv("CLWARP_ALGO_TUNING");
	size_t wg = 0, scan_wg = 0, select_wg = 0;
	clwarp_status status = CLWARP_OK;
	cl_int err;

	if (a) {
		*out = a;
		return CLWARP_OK;
	}
	if (tuning_text)
		status = tuning_parse(tuning_text, &tuning);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.wg, &wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.scan_wg, &scan_wg);
	if (status == CLWARP_OK)
		status = fit_work_group(engine, config, tuning.select_wg, &select_wg);
	if (status != CLWARP_OK)
		return status;
	a = calloc(1, sizeof(*a));
	if (!a)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	a->tuning = tuning;
	a->tuning.scan_wg = (unsigned)scan_wg;
	a->tuning.select_wg = (unsigned)select_wg;
	a->wg = wg;
	err = clGetDeviceInfo(engine->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(a->compute_units),
			      &a->compute_units, NULL);
	if (err != CL_SUCCESS || a->compute_units == 0)
		a->compute_units = 1;
	a->out_of_order = !engine->queue_in_order;
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
static clwarp_status
temp_reserve(clwarp_engine *engine, cl_mem *buf, size_t *have, size_t need)
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
	/* Kernels still queued keep the old one alive until they finish. */
	if (*buf)
		clReleaseMemObject(*buf);
	*buf = mem;
	*have = size;
	return CLWARP_OK;
}

static void
variant_free(struct algo_variant *v)
{
	for (size_t i = 0; i < ARRAY_LENGTH(v->kernels); i++)
		clwarp_kernel_free(v->kernels[i]);
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
};

/* The program text of a variant: its defines, common.cl, then the kernels' file. */
static void
variant_source(const struct algo_variant *v, const struct backend_config *config,
	       const struct algo_tuning *tuning, struct strbuf *out)
{
	const struct type_desc *t = &types[v->type];
	unsigned vec = (unsigned)(16 / t->size);
	const char *op = op_names[v->op];
	const char *file, *body;

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

	switch (v->kind) {
	case ALGO_REDUCE:
		file = "reduce";
		body = clwarp_kernel_algorithms_reduce;
		break;
	case ALGO_SCAN:
	case ALGO_COMPACT:
	case ALGO_PARTITION:
		file = "scan";
		body = clwarp_kernel_algorithms_scan;
		if (v->kind == ALGO_SCAN)
			strbuf_printf(out, "#define INCLUSIVE %d\n", v->inclusive ? 1 : 0);
		else
			strbuf_printf(out, "#define PRED_KIND %d\n", v->kind == ALGO_COMPACT ? 1 : 2);
		break;
	default:
		file = "rows";
		body = clwarp_kernel_algorithms_rows;
		strbuf_printf(out, "#define ROWS_KIND %d\n#define INCLUSIVE %d\n#define SEG_STEPS %u\n",
			      v->kind == ALGO_ROWS_REDUCE ? 1 : v->kind == ALGO_ROWS_SCAN ? 2 : 3,
			      v->inclusive ? 1 : 0, ROWS_SEG_STEPS);
		break;
	}
	strbuf_puts(out, "#line 1 \"clwarp/algorithms/common.cl\"\n");
	strbuf_puts(out, clwarp_kernel_algorithms_common);
	if (v->predicate) {
		strbuf_puts(out, "\n#line 1 \"predicate\"\nCLWARP_INLINE int clwarp_pred(T x) { return (");
		strbuf_puts(out, v->predicate);
		strbuf_puts(out, ") ? 1 : 0; }\n");
	}
	strbuf_printf(out, "\n#line 1 \"clwarp/algorithms/%s.cl\"\n", file);
	strbuf_puts(out, body);
}

/* The kernels of a variant, built once per engine (and cached like user programs). */
static clwarp_status
variant_get(const char *fn, clwarp_engine *engine, struct algorithms *a,
	    const struct backend_config *config, enum algo_kind kind, clwarp_type type,
	    clwarp_op op, int inclusive, const char *predicate, struct algo_variant **out)
{
	struct algo_variant *v;
	struct strbuf text = { 0 };
	clwarp_program *program = NULL;
	char name[64];
	clwarp_status status;

	inclusive = inclusive ? 1 : 0;
	for (v = a->variants; v; v = v->next) {
		if (v->kind == kind && v->type == type && v->op == op && v->inclusive == inclusive &&
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
	if (kind == ALGO_SCAN) {
		v->wg = a->tuning.scan_wg;
		v->vectors = a->tuning.scan_vectors;
	} else if (kind == ALGO_COMPACT || kind == ALGO_PARTITION) {
		v->wg = a->tuning.select_wg;
		v->vectors = a->tuning.select_vectors;
	} else {
		v->wg = a->wg;
		v->vectors = 1;  /* unused */
	}
	variant_source(v, config, &a->tuning, &text);
	if (text.failed) {
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		goto fail;
	}
	snprintf(name, sizeof(name), "clwarp/algorithms/%s.cl",
		 kind == ALGO_REDUCE ? "reduce" : kind <= ALGO_PARTITION ? "scan" : "rows");
	status = program_build(engine, text.data, name, ".", NULL, config, &program, NULL);
	if (status != CLWARP_OK) {
		char *why = xstrdup(clwarp_last_error());

		if (predicate)
			set_error(status, "%s: predicate \"%s\" does not compile for %s: %s", fn,
				  predicate, types[type].name, why ? why : "");
		else
			set_error(status, "%s: building its kernels: %s", fn, why ? why : "");
		free(why);
		goto fail;
	}
	for (size_t i = 0; i < ARRAY_LENGTH(v->kernels) && kernel_names[kind][i]; i++) {
		size_t max_wg = 0;

		status = clwarp_program_kernel(program, kernel_names[kind][i], &v->kernels[i]);
		if (status != CLWARP_OK)
			goto fail;
		if (clGetKernelWorkGroupInfo(clwarp_kernel_cl(v->kernels[i]), engine->device,
					     CL_KERNEL_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg,
					     NULL) == CL_SUCCESS &&
		    max_wg < v->wg) {
			status = set_error(CLWARP_ERROR_TOO_LARGE,
					   "%s: kernel %s runs at most %zu work-items per work-group on %s; it needs %zu",
					   fn, kernel_names[kind][i], max_wg, engine->info.name, v->wg);
			goto fail;
		}
	}
	strbuf_free(&text);
	v->next = a->variants;
	a->variants = v;
	*out = v;
	return CLWARP_OK;
fail:
	strbuf_free(&text);
	variant_free(v);
	return status;
}

/* ------------------------------------------------------------ launches */

/*
 * One call: resolve the backend, then under the lock build or find the
 * kernels, size the temporaries, set arguments and enqueue. The lock makes
 * the shared temporaries and kernel objects safe across threads; the
 * engine's in-order queue runs the calls one after another.
 */
struct call {
	const char *fn;
	clwarp_engine *engine;
	const struct backend_config *config;
	struct algorithms *a;
	struct algo_variant *v;
	bool events;          /* launch with events: the caller wants one, or the queue is out of order */
	cl_event last;
	bool locked;
};

static clwarp_status
call_begin(struct call *c, const char *fn, clwarp_engine *engine, enum algo_kind kind,
	   clwarp_type type, clwarp_op op, int inclusive, const char *predicate, const cl_event *event)
{
	clwarp_status status;

	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->engine = engine;
	/* A blocking call on an in-order queue waits with clFinish: no events. */
	c->events = event || !engine->queue_in_order;
	status = backend_resolve(engine, &c->config);
	if (status != CLWARP_OK)
		return status;
	pthread_mutex_lock(&engine->algorithms_lock);
	c->locked = true;
	status = state_get(engine, c->config, &c->a);
	if (status == CLWARP_OK)
		status = variant_get(fn, engine, c->a, c->config, kind, type, op, inclusive, predicate,
				     &c->v);
	return status;
}

/* Arguments: 'b' cl_mem, 'l' cl_ulong, 'u' cl_uint. */
static clwarp_status
call_launch(struct call *c, unsigned which, size_t global, const char *sig, ...)
{
	clwarp_kernel *k = c->v->kernels[which];
	size_t local = c->v->wg;
	va_list ap;
	clwarp_status status = CLWARP_OK;
	cl_int err;

	va_start(ap, sig);
	for (unsigned i = 0; sig[i] && status == CLWARP_OK; i++) {
		if (sig[i] == 'b') {
			status = clwarp_kernel_set_arg_buffer(k, i, va_arg(ap, cl_mem));
		} else if (sig[i] == 'l') {
			cl_ulong x = va_arg(ap, cl_ulong);

			status = clwarp_kernel_set_arg_scalar(k, i, sizeof(x), &x);
		} else {
			cl_uint x = va_arg(ap, cl_uint);

			status = clwarp_kernel_set_arg_scalar(k, i, sizeof(x), &x);
		}
	}
	va_end(ap);
	if (status != CLWARP_OK)
		return status;
	if (c->a->out_of_order) {
		err = clEnqueueBarrierWithWaitList(c->engine->queue, 0, NULL, NULL);
		if (err != CL_SUCCESS)
			return set_cl_error(err, "clEnqueueBarrierWithWaitList");
	}
	global = (global + local - 1) / local * local;
	if (!c->events)
		return clwarp_kernel_enqueue(k, 1, &global, &local);
	if (c->last) {
		clReleaseEvent(c->last);
		c->last = NULL;
	}
	return clwarp_kernel_launch(k, 1, &global, &local, &c->last);
}

/* Nothing to compute: an event all the same, where one is wanted. */
static clwarp_status
call_marker(struct call *c)
{
	cl_int err;

	if (!c->events)
		return CLWARP_OK;
	err = clEnqueueMarkerWithWaitList(c->engine->queue, 0, NULL, &c->last);
	return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, "clEnqueueMarkerWithWaitList");
}

/* Unlock, then hand out the last event or wait for it. */
static clwarp_status
call_end(struct call *c, clwarp_status status, cl_event *event)
{
	cl_int err;

	if (c->locked)
		pthread_mutex_unlock(&c->engine->algorithms_lock);
	if (status != CLWARP_OK) {
		if (c->last)
			clReleaseEvent(c->last);
		return status;
	}
	if (!c->events) {
		/* In order: everything this call queued is done when the queue is. */
		err = clFinish(c->engine->queue);
		return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, c->fn);
	}
	if (!c->last)
		return CLWARP_OK;
	if (event) {
		*event = c->last;
		return CLWARP_OK;
	}
	err = clWaitForEvents(1, &c->last);
	clReleaseEvent(c->last);
	if (err != CL_SUCCESS)
		return set_cl_error(err, c->fn);
	return CLWARP_OK;
}

/* A fresh epoch for the look-back status words, and room for `tiles` tiles. */
static clwarp_status
lookback_prepare(struct call *c, size_t tiles, size_t value_size, cl_uint *epoch)
{
	struct algorithms *a = c->a;
	clwarp_status status;

	if (tiles >= INT_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu tiles are too many", c->fn, tiles);
	status = temp_reserve(c->engine, &a->tile_words, &a->tile_words_bytes,
			      tiles * sizeof(cl_ulong));
	if (status == CLWARP_OK)
		status = temp_reserve(c->engine, &a->tile_slots, &a->tile_slots_bytes,
				      2 * tiles * value_size);
	if (status != CLWARP_OK)
		return status;
	if (++a->epoch >= EPOCH_LIMIT) {
		cl_uint zero = 0;
		cl_int err = clEnqueueFillBuffer(c->engine->queue, a->tile_words, &zero,
						 sizeof(zero), 0, a->tile_words_bytes, 0, NULL,
						 NULL);

		if (err != CL_SUCCESS)
			return set_cl_error(err, "clEnqueueFillBuffer");
		a->epoch = 1;
	}
	*epoch = a->epoch;
	return CLWARP_OK;
}

/* ------------------------------------------------------------ public calls */

CLWARP_EXPORT clwarp_status
clwarp_reduce(clwarp_engine *engine, clwarp_type type, clwarp_op op, cl_mem in, size_t n,
	      cl_mem result, cl_event *event)
{
	static const char fn[] = "clwarp_reduce";
	struct call c;
	size_t bytes = 0, size, groups, per_group;
	clwarp_status status;

	clear_error();
	status = check_engine_type(fn, engine, type, op);
	if (status != CLWARP_OK)
		return status;
	size = types[type].size;
	status = checked_bytes(fn, n, size, &bytes);
	if (status == CLWARP_OK && n > 0)
		status = check_buffer(fn, engine, in, "in", bytes);
	if (status == CLWARP_OK)
		status = check_buffer(fn, engine, result, "result", size);
	if (status != CLWARP_OK)
		return status;
	status = call_begin(&c, fn, engine, ALGO_REDUCE, type, op, 0, NULL, event);
	if (status == CLWARP_OK) {
		size_t most = (size_t)c.a->compute_units * c.a->tuning.reduce_groups;

		per_group = c.a->wg * REDUCE_MIN_ITEMS;
		groups = n / per_group + (n % per_group != 0);
		if (groups > most)
			groups = most;
		if (groups == 0)
			groups = 1;
		status = temp_reserve(engine, &c.a->partials, &c.a->partials_bytes, groups * size);
	}
	if (status == CLWARP_OK)
		status = call_launch(&c, 0, groups * c.a->wg, "blbbb", n ? in : result, (cl_ulong)n,
				     result, c.a->partials, c.a->counter);
	return call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_scan(clwarp_engine *engine, clwarp_type type, clwarp_op op, int inclusive, cl_mem in,
	    cl_mem out, size_t n, cl_event *event)
{
	static const char fn[] = "clwarp_scan";
	struct call c;
	size_t bytes = 0, size, tile, tiles = 0;
	cl_uint epoch = 0;
	clwarp_status status;

	clear_error();
	status = check_engine_type(fn, engine, type, op);
	if (status != CLWARP_OK)
		return status;
	size = types[type].size;
	status = checked_bytes(fn, n, size, &bytes);
	if (status == CLWARP_OK && n > 0)
		status = check_buffer(fn, engine, in, "in", bytes);
	if (status == CLWARP_OK && n > 0)
		status = check_buffer(fn, engine, out, "out", bytes);
	if (status != CLWARP_OK)
		return status;
	status = call_begin(&c, fn, engine, ALGO_SCAN, type, op, inclusive, NULL, event);
	if (status == CLWARP_OK && n == 0)
		return call_end(&c, call_marker(&c), event);
	if (status == CLWARP_OK) {
		tile = c.v->wg * c.v->vectors * (16 / size);
		tiles = n / tile + (n % tile != 0);
		status = lookback_prepare(&c, tiles, size, &epoch);
	}
	if (status == CLWARP_OK)
		status = call_launch(&c, 0, tiles * c.v->wg, "bbluubbb", in, out, (cl_ulong)n,
				     (cl_uint)tiles, epoch, c.a->counter, c.a->tile_words,
				     c.a->tile_slots);
	return call_end(&c, status, event);
}

static clwarp_status
select_call(const char *fn, enum algo_kind kind, clwarp_engine *engine, clwarp_type type,
	    const char *predicate, cl_mem in, size_t n, cl_mem out, cl_mem count, cl_event *event)
{
	struct call c;
	size_t bytes = 0, size, tile, tiles = 0;
	cl_uint epoch = 0;
	clwarp_status status;

	clear_error();
	status = check_engine_type(fn, engine, type, CLWARP_OP_ADD);
	if (status == CLWARP_OK)
		status = check_predicate(fn, predicate);
	if (status != CLWARP_OK)
		return status;
	if (n > UINT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "%s: n = %zu; the count is a cl_uint, so n must be below 2^32", fn, n);
	size = types[type].size;
	status = checked_bytes(fn, n, size, &bytes);
	if (status == CLWARP_OK && n > 0)
		status = check_buffer(fn, engine, in, "in", bytes);
	if (status == CLWARP_OK && n > 0)
		status = check_buffer(fn, engine, out, "out", bytes);
	if (status == CLWARP_OK)
		status = check_buffer(fn, engine, count, "count", sizeof(cl_uint));
	if (status == CLWARP_OK && n > 0 && (in == out || in == count || out == count))
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				   "%s: `in`, `out` and `count` must be three different buffers", fn);
	if (status != CLWARP_OK)
		return status;
	status = call_begin(&c, fn, engine, kind, type, CLWARP_OP_ADD, 0, predicate, event);
	if (status == CLWARP_OK) {
		tile = c.v->wg * c.v->vectors * (16 / size);
		tiles = n ? n / tile + (n % tile != 0) : 1;
		status = lookback_prepare(&c, tiles, sizeof(cl_uint), &epoch);
	}
	/* With n == 0 one tile still runs, to write the count: `in` and `out`
	 * are never read or written then, any buffer will do. */
	if (status == CLWARP_OK)
		status = call_launch(&c, 0, tiles * c.v->wg, "bbbluubbb", n ? in : count,
				     n ? out : count, count, (cl_ulong)n, (cl_uint)tiles, epoch,
				     c.a->counter, c.a->tile_words, c.a->tile_slots);
	if (status == CLWARP_OK && kind == ALGO_PARTITION && n > 1)
		status = call_launch(&c, 1, n / 2, "bbl", out, count, (cl_ulong)n);
	return call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_compact(clwarp_engine *engine, clwarp_type type, const char *predicate, cl_mem in,
	       size_t n, cl_mem out, cl_mem count, cl_event *event)
{
	return select_call("clwarp_compact", ALGO_COMPACT, engine, type, predicate, in, n, out,
			   count, event);
}

CLWARP_EXPORT clwarp_status
clwarp_partition(clwarp_engine *engine, clwarp_type type, const char *predicate, cl_mem in,
		 size_t n, cl_mem out, cl_mem count, cl_event *event)
{
	return select_call("clwarp_partition", ALGO_PARTITION, engine, type, predicate, in, n, out,
			   count, event);
}

/*
 * Batched rows. Rows of len elements, len a multiple of VEC (elements per
 * 16-byte vector) and at most W vectors: a segment of seg lanes per row,
 * seg the power of two >= len / VEC, one vector per lane, so a work-group
 * takes wg / seg rows per step and ROWS_SEG_STEPS steps (rows.cl, *_seg).
 * Other rows up to ROWS_WARP_MAX elements: one warp per row; longer rows:
 * one work-group per row.
 */
static clwarp_status
rows_call(const char *fn, enum algo_kind kind, clwarp_engine *engine, clwarp_type type,
	  clwarp_op op, int inclusive, cl_mem in, size_t rows, size_t row_length, cl_mem out,
	  cl_event *event)
{
	struct call c;
	size_t elements = 0, in_bytes = 0, out_bytes = 0, size;
	clwarp_status status;

	clear_error();
	status = check_engine_type(fn, engine, type, op);
	if (status != CLWARP_OK)
		return status;
	if (row_length > INT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE, "%s: rows of %zu elements are too long", fn,
				 row_length);
	size = types[type].size;
	status = checked_bytes(fn, rows, row_length, &elements);
	if (status == CLWARP_OK)
		status = checked_bytes(fn, elements, size, &in_bytes);
	if (status == CLWARP_OK)
		status = checked_bytes(fn, kind == ALGO_ROWS_REDUCE ? rows : elements, size, &out_bytes);
	if (status == CLWARP_OK && in_bytes > 0)
		status = check_buffer(fn, engine, in, "in", in_bytes);
	if (status == CLWARP_OK && out_bytes > 0)
		status = check_buffer(fn, engine, out, "out", out_bytes);
	if (status != CLWARP_OK)
		return status;
	status = call_begin(&c, fn, engine, kind, type, op, inclusive, NULL, event);
	if (status == CLWARP_OK && out_bytes == 0)
		return call_end(&c, call_marker(&c), event);
	if (status == CLWARP_OK) {
		size_t warps = c.a->wg / c.config->warp_size, vec = 16 / size, seg = 1;
		bool per_seg = row_length > 0 && row_length % vec == 0 &&
			       row_length / vec <= c.config->warp_size;
		bool per_warp = row_length <= ROWS_WARP_MAX;
		size_t per_group, groups;

		while (seg < row_length / vec)
			seg *= 2;
		per_group = per_seg ? ROWS_SEG_STEPS * (c.a->wg / seg) : per_warp ? warps : 1;
		groups = rows / per_group + (rows % per_group != 0);
		/* A row of 0 elements still has a reduction: `in` is never read. */
		if (per_seg)
			status = call_launch(&c, 2, groups * c.a->wg, "bbluu", in, out, (cl_ulong)rows,
					     (cl_uint)row_length, (cl_uint)seg);
		else
			status = call_launch(&c, per_warp ? 0 : 1, groups * c.a->wg, "bblu",
					     in_bytes ? in : out, out, (cl_ulong)rows,
					     (cl_uint)row_length);
	}
	return call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_segmented_reduce(clwarp_engine *engine, clwarp_type type, clwarp_op op, cl_mem in,
			size_t rows, size_t row_length, cl_mem out, cl_event *event)
{
	return rows_call("clwarp_segmented_reduce", ALGO_ROWS_REDUCE, engine, type, op, 0, in, rows,
			 row_length, out, event);
}

CLWARP_EXPORT clwarp_status
clwarp_segmented_scan(clwarp_engine *engine, clwarp_type type, clwarp_op op, int inclusive,
		      cl_mem in, size_t rows, size_t row_length, cl_mem out, cl_event *event)
{
	return rows_call("clwarp_segmented_scan", ALGO_ROWS_SCAN, engine, type, op, inclusive, in,
			 rows, row_length, out, event);
}

CLWARP_EXPORT clwarp_status
clwarp_softmax_rows(clwarp_engine *engine, cl_mem in, size_t rows, size_t row_length, cl_mem out,
		    cl_event *event)
{
	return rows_call("clwarp_softmax_rows", ALGO_SOFTMAX, engine, CLWARP_TYPE_FLOAT,
			 CLWARP_OP_ADD, 0, in, rows, row_length, out, event);
}
