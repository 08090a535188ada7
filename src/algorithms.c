/* Device-wide algorithms: reduce, scan, compaction and unique, batched rows
 * (kernels/algorithms/); the argument checks that every call shares. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "util.h"

CLWARP_EXPORT size_t
clwarp_type_size(clwarp_type type)
{
	return algo_type_size(type);
}

size_t
algo_type_size(clwarp_type type)
{
	return (unsigned)type < ARRAY_LENGTH(algo_types) ? algo_types[type].size : 0;
}

/* ------------------------------------------------------------ argument checks */

clwarp_status
algo_check_engine_type(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op)
{
	if (!engine)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL engine", fn);
	if ((unsigned)type >= ARRAY_LENGTH(algo_types))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown element type %d", fn,
				 (int)type);
	if ((unsigned)op >= ARRAY_LENGTH(algo_op_names))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown operation %d", fn, (int)op);
	if (type == CLWARP_TYPE_DOUBLE && !engine->info.has_fp64)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: double needs cl_khr_fp64, which %s does not support", fn,
				 engine->info.name);
	return CLWARP_OK;
}

/*
 * The calls that combine elements with the warp layer's operations
 * (reduce, scan, segmented reduce and scan, and their device-group
 * versions) take 4- and 8-byte types only: their kernels' vector tiles and
 * look-back values are made for those. The 1- and 2-byte types get one
 * clear refusal instead.
 */
clwarp_status
algo_check_wide_type(const char *fn, clwarp_type type)
{
	if ((unsigned)type < ARRAY_LENGTH(algo_types) && algo_types[type].size < 4)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: %s elements are not supported; 1- and 2-byte types work with the sorts, histogram, compact, partition, unique, run-length encode and reduce by key (widen the data to int or uint for this call)",
				 fn, algo_types[type].name);
	return CLWARP_OK;
}

/* A call that combines elements with the warp layer's operations: the
 * engine, the type and op, and a 4- or 8-byte type. */
clwarp_status
algo_check_wide_call(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op)
{
	clwarp_status status = algo_check_engine_type(fn, engine, type, op);

	return status == CLWARP_OK ? algo_check_wide_type(fn, type) : status;
}

/* `count` elements of `size` bytes, or TOO_LARGE. */
clwarp_status
algo_checked_bytes(const char *fn, size_t count, size_t size, size_t *bytes)
{
	if (size && count > SIZE_MAX / size)
		return set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu elements of %zu bytes overflow",
				 fn, count, size);
	*bytes = count * size;
	return CLWARP_OK;
}

/* A buffer of the engine's context holding at least `need` bytes. */
clwarp_status
algo_check_buffer(const char *fn, clwarp_engine *engine, cl_mem buffer, const char *what, size_t need)
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
				 fn, what, cl_error_name(err));
	if (context != engine->context)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: buffer `%s` belongs to another OpenCL context", fn, what);
	if (size < need)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: buffer `%s` holds %zu bytes; the call needs %zu", fn, what, size,
				 need);
	return CLWARP_OK;
}

/* The buffers of a call: the first `inputs` are only read and may be one
 * buffer; every other (written) one must be a buffer of its own. */
clwarp_status
algo_check_distinct(const char *fn, const cl_mem *buffers, const char *const *names,
		    unsigned count, unsigned inputs)
{
	for (unsigned i = inputs; i < count; i++) {
		for (unsigned j = 0; j < count; j++) {
			if (j != i && buffers[j] == buffers[i])
				return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
						 "%s: `%s` and `%s` must be different buffers (the call writes `%s`)",
						 fn, names[j < i ? j : i], names[j < i ? i : j],
						 names[i]);
		}
	}
	return CLWARP_OK;
}

/*
 * The buffers of a call, each checked by algo_check_buffer() where it has
 * bytes to hold; then, among those, the ones after the first `inputs` (the
 * written ones) must be buffers of their own (algo_check_distinct()).
 */
clwarp_status
algo_check_buffers(const char *fn, clwarp_engine *engine, const struct algo_need *need,
		   unsigned count, unsigned inputs)
{
	cl_mem mems[ALGO_MAX_NEEDS];
	const char *names[ALGO_MAX_NEEDS];
	unsigned used = 0, read = 0;
	clwarp_status status;

	for (unsigned i = 0; i < count && i < ALGO_MAX_NEEDS; i++) {
		if (!need[i].bytes)
			continue;
		status = algo_check_buffer(fn, engine, need[i].mem, need[i].name, need[i].bytes);
		if (status != CLWARP_OK)
			return status;
		read += i < inputs;
		mems[used] = need[i].mem;
		names[used++] = need[i].name;
	}
	return algo_check_distinct(fn, mems, names, used, read);
}

/* The calls that count into a cl_uint: n below 2^32. */
clwarp_status
algo_check_count_n(const char *fn, size_t n)
{
	if (n > UINT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "%s: n = %zu; the count is a cl_uint, so n must be below 2^32", fn, n);
	return CLWARP_OK;
}

/* A call's `flags`: bits outside `known` give one message naming the known
 * flags (`names`). */
clwarp_status
algo_check_flags(const char *fn, unsigned flags, unsigned known, const char *names)
{
	if (flags & ~known)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: unknown flags 0x%x (only %s is known)", fn, flags & ~known,
				 names);
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

/* ------------------------------------------------------------ public calls */

clwarp_status
algo_reduce(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op, cl_mem in,
	    size_t n, cl_mem result, cl_event *event)
{
	struct algo_call c;
	size_t bytes = 0, size, groups, per_group;
	clwarp_status status;

	status = algo_check_wide_call(fn, engine, type, op);
	if (status != CLWARP_OK)
		return status;
	size = algo_types[type].size;
	status = algo_checked_bytes(fn, n, size, &bytes);
	if (status == CLWARP_OK) {
		const struct algo_need need[] = { { in, "in", bytes }, { result, "result", size } };

		status = algo_check_buffers(fn, engine, need, 2, 2);
	}
	if (status != CLWARP_OK)
		return status;
	status = algo_call_begin(&c, fn, engine, ALGO_REDUCE, type, op, 0, NULL, -1, n, event);
	if (status == CLWARP_OK) {
		size_t most = (size_t)c.a->compute_units * c.a->tuning.reduce_groups;

		per_group = c.v->wg * REDUCE_MIN_ITEMS;
		groups = n / per_group + (n % per_group != 0);
		if (groups > most)
			groups = most;
		/* Small n: one work-group, which writes the result itself. */
		if (groups == 0 || c.v->small)
			groups = 1;
		status = algo_temp_reserve(engine, &c.a->partials, &c.a->partials_bytes, groups * size);
	}
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 0, groups * c.v->wg, "blbtt", n ? in : result, (cl_ulong)n,
				     result, c.a->partials, c.a->counter);
	return algo_call_end(&c, status, event);
}

void
algo_identity(clwarp_type type, clwarp_op op, union algo_value *v)
{
	memset(v, 0, sizeof(*v));
	switch (type) {
	case CLWARP_TYPE_INT:
		v->i = op == CLWARP_OP_MIN ? INT32_MAX : op == CLWARP_OP_MAX ? INT32_MIN : 0;
		break;
	case CLWARP_TYPE_UINT:
		v->u = op == CLWARP_OP_MIN ? UINT32_MAX : 0;
		break;
	case CLWARP_TYPE_LONG:
		v->l = op == CLWARP_OP_MIN ? INT64_MAX : op == CLWARP_OP_MAX ? INT64_MIN : 0;
		break;
	case CLWARP_TYPE_ULONG:
		v->ul = op == CLWARP_OP_MIN ? UINT64_MAX : 0;
		break;
	case CLWARP_TYPE_FLOAT:
		v->f = op == CLWARP_OP_MIN ? INFINITY : op == CLWARP_OP_MAX ? -INFINITY : 0.0f;
		break;
	case CLWARP_TYPE_DOUBLE:
		v->d = op == CLWARP_OP_MIN ? INFINITY : op == CLWARP_OP_MAX ? -INFINITY : 0.0;
		break;
	case CLWARP_TYPE_CHAR:
		v->c = op == CLWARP_OP_MIN ? INT8_MAX : op == CLWARP_OP_MAX ? INT8_MIN : 0;
		break;
	case CLWARP_TYPE_UCHAR:
		v->uc = op == CLWARP_OP_MIN ? UINT8_MAX : 0;
		break;
	case CLWARP_TYPE_SHORT:
		v->s = op == CLWARP_OP_MIN ? INT16_MAX : op == CLWARP_OP_MAX ? INT16_MIN : 0;
		break;
	case CLWARP_TYPE_USHORT:
		v->us = op == CLWARP_OP_MIN ? UINT16_MAX : 0;
		break;
	}
}

/* The carry that changes nothing: the identity, but -0.0 for float sums
 * (-0.0 + x is x for every x; +0.0 + -0.0 is +0.0). */
static void
neutral_carry(clwarp_type type, clwarp_op op, union algo_value *v)
{
	algo_identity(type, op, v);
	if (op == CLWARP_OP_ADD && type == CLWARP_TYPE_FLOAT)
		v->f = -0.0f;
	else if (op == CLWARP_OP_ADD && type == CLWARP_TYPE_DOUBLE)
		v->d = -0.0;
}

clwarp_status
algo_scan(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op, int inclusive,
	  cl_mem in, cl_mem out, size_t n, const union algo_value *carry, cl_event *event)
{
	struct algo_call c;
	size_t bytes = 0, size, tile, tiles = 0;
	cl_uint epoch = 0;
	union algo_value neutral;
	clwarp_status status;

	status = algo_check_wide_call(fn, engine, type, op);
	if (status != CLWARP_OK)
		return status;
	size = algo_types[type].size;
	status = algo_checked_bytes(fn, n, size, &bytes);
	if (status == CLWARP_OK) {
		/* out may be in: a scan in place. */
		const struct algo_need need[] = { { in, "in", bytes }, { out, "out", bytes } };

		status = algo_check_buffers(fn, engine, need, 2, 2);
	}
	if (status != CLWARP_OK)
		return status;
	status = algo_call_begin(&c, fn, engine, ALGO_SCAN, type, op, inclusive, NULL, -1, n, event);
	if (status == CLWARP_OK && n == 0)
		return algo_call_end(&c, algo_call_marker(&c), event);
	if (status == CLWARP_OK && !carry) {
		neutral_carry(type, op, &neutral);
		carry = &neutral;
	}
	if (status == CLWARP_OK && c.v->small) {
		status = algo_call_launch(&c, 0, c.v->wg, "bblv", in, out, (cl_ulong)n,
				     (const void *)carry);
		return algo_call_end(&c, status, event);
	}
	if (status == CLWARP_OK) {
		tile = c.v->wg * c.v->vectors * (16 / size);
		tiles = n / tile + (n % tile != 0);
		status = algo_lookback_prepare(&c, tiles, size, &epoch);
	}
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 0, tiles * c.v->wg, "bbluutttv", in, out, (cl_ulong)n,
				     (cl_uint)tiles, epoch, c.a->counter, c.a->tile_words,
				     c.a->tile_slots, (const void *)carry);
	return algo_call_end(&c, status, event);
}

/* Compaction, partition and unique (kind ALGO_UNIQUE: no predicate, the
 * heads of runs of equal keys are selected). The select kernel leaves a
 * partition's rejected elements reversed at the end of `out`; `in_order`
 * puts them back in input order with clwarp_reverse_tail (clwarp_partition),
 * otherwise they stay as CUB leaves them (CLWARP_PARTITION_REVERSED). Both
 * partitions use the one variant, so they share their build. */
static clwarp_status
select_call(const char *fn, enum algo_kind kind, bool in_order, clwarp_engine *engine,
	    clwarp_type type, const char *predicate, cl_mem in, size_t n, cl_mem out, cl_mem count,
	    const char *count_name, cl_event *event)
{
	struct algo_call c;
	size_t bytes = 0, size, tile, tiles = 0;
	cl_uint epoch = 0;
	clwarp_status status;

	status = algo_check_engine_type(fn, engine, type, CLWARP_OP_ADD);
	if (status == CLWARP_OK && kind != ALGO_UNIQUE)
		status = check_predicate(fn, predicate);
	if (status == CLWARP_OK)
		status = algo_check_count_n(fn, n);
	if (status != CLWARP_OK)
		return status;
	size = algo_types[type].size;
	status = algo_checked_bytes(fn, n, size, &bytes);
	if (status == CLWARP_OK) {
		const struct algo_need need[] = { { in, "in", bytes },
						  { out, "out", bytes },
						  { count, count_name, sizeof(cl_uint) } };

		status = algo_check_buffers(fn, engine, need, 3, 1);
	}
	if (status != CLWARP_OK)
		return status;
	status = algo_call_begin(&c, fn, engine, kind, type, CLWARP_OP_ADD, 0, predicate, -1, n, event);
	/* Small n: one work-group and one launch, partition in order too. */
	if (status == CLWARP_OK && c.v->small) {
		status = algo_call_launch(&c, 0, c.v->wg, "bbblu", n ? in : count, n ? out : count, count,
				     (cl_ulong)n, (cl_uint)(kind == ALGO_PARTITION && in_order));
		return algo_call_end(&c, status, event);
	}
	if (status == CLWARP_OK) {
		tile = c.v->wg * c.v->vectors * (16 / size);
		tiles = n ? n / tile + (n % tile != 0) : 1;
		status = algo_lookback_prepare(&c, tiles, sizeof(cl_uint), &epoch);
	}
	/* With n == 0 one tile still runs, to write the count: `in` and `out`
	 * are never read or written then, any buffer will do. */
	if (status == CLWARP_OK)
		status = algo_call_launch(&c, 0, tiles * c.v->wg, "bbbluuttt", n ? in : count,
				     n ? out : count, count, (cl_ulong)n, (cl_uint)tiles, epoch,
				     c.a->counter, c.a->tile_words, c.a->tile_slots);
	if (status == CLWARP_OK && kind == ALGO_PARTITION && in_order && n > 1)
		status = algo_call_launch(&c, 1, n / 2, "bbl", out, count, (cl_ulong)n);
	return algo_call_end(&c, status, event);
}

clwarp_status
algo_select_call(const char *fn, enum algo_kind kind, clwarp_engine *engine, clwarp_type type,
		 const char *predicate, cl_mem in, size_t n, cl_mem out, cl_mem count,
		 const char *count_name, cl_event *event)
{
	return select_call(fn, kind, true, engine, type, predicate, in, n, out, count, count_name,
			   event);
}

CLWARP_EXPORT clwarp_status
clwarp_compact(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem out, cl_mem count,
	       size_t n, const char *predicate, cl_event *event)
{
	clear_error();
	return algo_select_call("clwarp_compact", ALGO_COMPACT, engine, type, predicate, in, n, out,
				count, "count", event);
}

CLWARP_EXPORT clwarp_status
clwarp_partition(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem out, cl_mem count,
		 size_t n, const char *predicate, unsigned flags, cl_event *event)
{
	static const char fn[] = "clwarp_partition";
	clwarp_status status;

	clear_error();
	status = algo_check_flags(fn, flags, CLWARP_PARTITION_REVERSED, "CLWARP_PARTITION_REVERSED");
	if (status != CLWARP_OK)
		return status;
	return select_call(fn, ALGO_PARTITION, !(flags & CLWARP_PARTITION_REVERSED), engine, type,
			   predicate, in, n, out, count, "count", event);
}

CLWARP_EXPORT clwarp_status
clwarp_unique(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem out, cl_mem num_selected,
	      size_t n, cl_event *event)
{
	clear_error();
	return algo_select_call("clwarp_unique", ALGO_UNIQUE, engine, type, NULL, in, n, out,
				num_selected, "num_selected", event);
}

/*
 * Batched rows. Rows of len elements, len a multiple of VEC (elements per
 * 16-byte vector) and at most W vectors: a segment of seg lanes per row,
 * seg the power of two >= len / VEC, one vector per lane, so a work-group
 * takes wg / seg rows per step and ROWS_SEG_STEPS steps (rows.cl, *_seg).
 * Other rows up to ROWS_WARP_MAX elements: one warp per row; longer rows:
 * one work-group per row.
 */
clwarp_status
algo_rows(const char *fn, enum algo_kind kind, clwarp_engine *engine, clwarp_type type,
	  clwarp_op op, int inclusive, cl_mem in, size_t rows, size_t row_length, cl_mem out,
	  cl_event *event)
{
	struct algo_call c;
	size_t elements = 0, in_bytes = 0, out_bytes = 0, size;
	clwarp_status status;

	status = algo_check_wide_call(fn, engine, type, op);
	if (status != CLWARP_OK)
		return status;
	if (row_length > INT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE, "%s: rows of %zu elements are too long", fn,
				 row_length);
	size = algo_types[type].size;
	status = algo_checked_bytes(fn, rows, row_length, &elements);
	if (status == CLWARP_OK)
		status = algo_checked_bytes(fn, elements, size, &in_bytes);
	if (status == CLWARP_OK)
		status = algo_checked_bytes(fn, kind == ALGO_ROWS_REDUCE ? rows : elements, size, &out_bytes);
	if (status == CLWARP_OK) {
		/* in and out may be one buffer. */
		const struct algo_need need[] = { { in, "in", in_bytes }, { out, "out", out_bytes } };

		status = algo_check_buffers(fn, engine, need, 2, 2);
	}
	if (status != CLWARP_OK)
		return status;
	status = algo_call_begin(&c, fn, engine, kind, type, op, inclusive, NULL, -1, elements, event);
	if (status == CLWARP_OK && out_bytes == 0)
		return algo_call_end(&c, algo_call_marker(&c), event);
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
			status = algo_call_launch(&c, 2, groups * c.a->wg, "bbluu", in, out, (cl_ulong)rows,
					     (cl_uint)row_length, (cl_uint)seg);
		else
			status = algo_call_launch(&c, per_warp ? 0 : 1, groups * c.a->wg, "bblu",
					     in_bytes ? in : out, out, (cl_ulong)rows,
					     (cl_uint)row_length);
	}
	return algo_call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_segmented_reduce(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem out,
			size_t rows, size_t row_length, clwarp_op op, cl_event *event)
{
	clear_error();
	return algo_rows("clwarp_segmented_reduce", ALGO_ROWS_REDUCE, engine, type, op, 0, in, rows,
			 row_length, out, event);
}

CLWARP_EXPORT clwarp_status
clwarp_segmented_scan(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem out, size_t rows,
		      size_t row_length, clwarp_op op, unsigned flags, cl_event *event)
{
	static const char fn[] = "clwarp_segmented_scan";
	clwarp_status status;

	clear_error();
	status = algo_check_flags(fn, flags, CLWARP_SCAN_INCLUSIVE, "CLWARP_SCAN_INCLUSIVE");
	if (status != CLWARP_OK)
		return status;
	return algo_rows(fn, ALGO_ROWS_SCAN, engine, type, op, !!(flags & CLWARP_SCAN_INCLUSIVE), in,
			 rows, row_length, out, event);
}

CLWARP_EXPORT clwarp_status
clwarp_softmax_rows(clwarp_engine *engine, cl_mem in, cl_mem out, size_t rows, size_t row_length,
		    cl_event *event)
{
	clear_error();
	return algo_rows("clwarp_softmax_rows", ALGO_SOFTMAX, engine, CLWARP_TYPE_FLOAT,
			 CLWARP_OP_ADD, 0, in, rows, row_length, out, event);
}

CLWARP_EXPORT clwarp_status
clwarp_reduce(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem result, size_t n,
	      clwarp_op op, cl_event *event)
{
	clear_error();
	return algo_reduce("clwarp_reduce", engine, type, op, in, n, result, event);
}

CLWARP_EXPORT clwarp_status
clwarp_scan(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem out, size_t n, clwarp_op op,
	    unsigned flags, cl_event *event)
{
	static const char fn[] = "clwarp_scan";
	clwarp_status status;

	clear_error();
	status = algo_check_flags(fn, flags, CLWARP_SCAN_INCLUSIVE, "CLWARP_SCAN_INCLUSIVE");
	if (status != CLWARP_OK)
		return status;
	return algo_scan(fn, engine, type, op, !!(flags & CLWARP_SCAN_INCLUSIVE), in, out, n, NULL,
			 event);
}
