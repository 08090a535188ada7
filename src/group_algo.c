/* Device groups: the device-wide algorithms over data split across devices.
 * Each device runs the single-device kernels on its slice; what crosses
 * devices (reduce totals, scan carries, compaction counts) is one element
 * per device, combined on the host in device order. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "group.h"

#include <math.h>
#include <string.h>

#include "algo.h"
#include "error.h"
#include "util.h"

/* One element per device that the calls write and read back: reduce
 * totals and compaction counts (16 bytes: any clwarp_type or a cl_uint). */
static clwarp_status
scratch(clwarp_group *g, size_t i, cl_mem *out)
{
	cl_int err;

	if (!g->scratch[i]) {
		g->scratch[i] = clCreateBuffer(g->engines[i]->context, CL_MEM_READ_WRITE, 16, NULL, &err);
		if (err != CL_SUCCESS) {
			g->scratch[i] = NULL;
			return set_cl_error(err, "clCreateBuffer");
		}
	}
	*out = g->scratch[i];
	return CLWARP_OK;
}

/* acc = acc OP v in the element type, as the kernels compute it: integers
 * wrap around, floats follow fmin/fmax. */
static void
combine(clwarp_type type, clwarp_op op, union algo_value *acc, const union algo_value *v)
{
#define COMBINE(F, UT, MINF, MAXF) \
	acc->F = op == CLWARP_OP_ADD ? UT : op == CLWARP_OP_MIN ? MINF : MAXF
#define LESSER(F) (v->F < acc->F ? v->F : acc->F)
#define GREATER(F) (v->F > acc->F ? v->F : acc->F)
	switch (type) {
	case CLWARP_TYPE_INT:
		COMBINE(i, (cl_int)((cl_uint)acc->i + (cl_uint)v->i), LESSER(i), GREATER(i));
		break;
	case CLWARP_TYPE_UINT:
		COMBINE(u, acc->u + v->u, LESSER(u), GREATER(u));
		break;
	case CLWARP_TYPE_LONG:
		COMBINE(l, (cl_long)((cl_ulong)acc->l + (cl_ulong)v->l), LESSER(l), GREATER(l));
		break;
	case CLWARP_TYPE_ULONG:
		COMBINE(ul, acc->ul + v->ul, LESSER(ul), GREATER(ul));
		break;
	case CLWARP_TYPE_FLOAT:
		COMBINE(f, acc->f + v->f, fminf(acc->f, v->f), fmaxf(acc->f, v->f));
		break;
	case CLWARP_TYPE_DOUBLE:
		COMBINE(d, acc->d + v->d, fmin(acc->d, v->d), fmax(acc->d, v->d));
		break;
	/* Refused by algo_check_wide_type before anything is combined. */
	case CLWARP_TYPE_CHAR:
	case CLWARP_TYPE_UCHAR:
	case CLWARP_TYPE_SHORT:
	case CLWARP_TYPE_USHORT:
		break;
	}
#undef COMBINE
#undef LESSER
#undef GREATER
}

/* What every call checks: the group, the buffers array, the offsets. */
static clwarp_status
check_call(const clwarp_group *g, const char *fn, const cl_mem *in, const cl_mem *out,
	   const size_t *offsets, const char *what)
{
	if (!g)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL group", fn);
	if (!in || (out == NULL && what))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL buffer array", fn);
	return group_check_offsets(g, fn, offsets, what ? what : "offsets");
}

/* Each non-empty slice's total: `reduce` on device i into its scratch
 * element, read back into totals[i] (all devices at once). Devices
 * [0, last) only. */
static clwarp_status
slice_totals(clwarp_group *g, const char *fn, clwarp_type type, clwarp_op op, const cl_mem *in,
	     const size_t *offsets, size_t last, union algo_value *totals)
{
	cl_event reads[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	size_t size = algo_type_size(type);
	clwarp_status status = CLWARP_OK;

	for (size_t i = 0; i < last && status == CLWARP_OK; i++) {
		size_t n = offsets[i + 1] - offsets[i];
		cl_event done = NULL;
		cl_mem result = NULL;

		if (n == 0)
			continue;
		status = scratch(g, i, &result);
		if (status == CLWARP_OK)
			status = algo_reduce(fn, g->engines[i], type, op, in[i], n, result, &done);
		if (status == CLWARP_OK) {
			cl_int err = clEnqueueReadBuffer(g->engines[i]->queue, result, CL_FALSE, 0, size,
							 &totals[i], 1, &done, &reads[i]);
			clReleaseEvent(done);
			if (err != CL_SUCCESS) {
				reads[i] = NULL;
				status = set_cl_error(err, "reading a slice's total");
			} else {
				clFlush(g->engines[i]->queue);
			}
		}
		if (status != CLWARP_OK)
			status = group_device_error(g, i, status);
	}
	clwarp_status waited = group_wait(g, reads, "reducing a slice");

	return status != CLWARP_OK ? status : waited;
}

CLWARP_EXPORT clwarp_status
clwarp_group_reduce(clwarp_group *g, clwarp_type type, clwarp_op op, const cl_mem *in,
		    const size_t *offsets, void *result)
{
	static const char fn[] = "clwarp_group_reduce";
	union algo_value totals[CLWARP_GROUP_MAX_DEVICES], acc;
	bool any = false;
	clwarp_status status;

	clear_error();
	status = check_call(g, fn, in, NULL, offsets, NULL);
	if (status == CLWARP_OK && !result)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL result", fn);
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], type, op);
	if (status == CLWARP_OK)
		status = algo_check_wide_type(fn, type);
	if (status == CLWARP_OK)
		status = slice_totals(g, fn, type, op, in, offsets, g->count, totals);
	if (status != CLWARP_OK)
		return status;
	memset(&acc, 0, sizeof(acc));
	for (size_t i = 0; i < g->count; i++) {
		if (offsets[i + 1] == offsets[i])
			continue;
		if (any)
			combine(type, op, &acc, &totals[i]);
		else
			acc = totals[i];
		any = true;
	}
	if (!any)
		algo_identity(type, op, &acc);  /* n = 0, as clwarp_reduce writes it */
	memcpy(result, &acc, algo_type_size(type));
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_group_scan(clwarp_group *g, clwarp_type type, clwarp_op op, int inclusive,
		  const cl_mem *in, const cl_mem *out, const size_t *offsets)
{
	static const char fn[] = "clwarp_group_scan";
	union algo_value totals[CLWARP_GROUP_MAX_DEVICES], carry;
	cl_event scans[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	bool have_carry = false;
	clwarp_status status;

	clear_error();
	status = check_call(g, fn, in, out, offsets, "offsets");
	if (status == CLWARP_OK && !out)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL out", fn);
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], type, op);
	if (status == CLWARP_OK)
		status = algo_check_wide_type(fn, type);
	if (status != CLWARP_OK)
		return status;
	/* The last device's total is nobody's carry. The totals are read
	 * before any scan is enqueued: `out` may be `in`. */
	status = slice_totals(g, fn, type, op, in, offsets, g->count - 1, totals);
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		size_t n = offsets[i + 1] - offsets[i];

		if (n == 0)
			continue;
		status = algo_scan(fn, g->engines[i], type, op, inclusive, in[i], out[i], n,
				   have_carry ? &carry : NULL, &scans[i]);
		if (status != CLWARP_OK) {
			status = group_device_error(g, i, status);
			break;
		}
		clFlush(g->engines[i]->queue);
		if (i + 1 < g->count) {
			if (have_carry)
				combine(type, op, &carry, &totals[i]);
			else
				carry = totals[i];
			have_carry = true;
		}
	}
	clwarp_status waited = group_wait(g, scans, "scanning a slice");

	return status != CLWARP_OK ? status : waited;
}

CLWARP_EXPORT clwarp_status
clwarp_group_compact(clwarp_group *g, clwarp_type type, const char *predicate, const cl_mem *in,
		     const size_t *offsets, const cl_mem *out, size_t *out_offsets)
{
	static const char fn[] = "clwarp_group_compact";
	cl_event reads[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	cl_uint counts[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	clwarp_status status;

	clear_error();
	status = check_call(g, fn, in, out, offsets, "offsets");
	if (status == CLWARP_OK && (!out || !out_offsets))
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL out or out_offsets", fn);
	/* Also where every slice is empty. */
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], type, CLWARP_OP_ADD);
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		size_t n = offsets[i + 1] - offsets[i];
		cl_event done = NULL;
		cl_mem count = NULL;

		if (n == 0)
			continue;
		status = scratch(g, i, &count);
		if (status == CLWARP_OK)
			status = algo_select_call(fn, ALGO_COMPACT, g->engines[i], type, predicate,
						  in[i], n, out[i], count, "count", &done);
		if (status == CLWARP_OK) {
			cl_int err = clEnqueueReadBuffer(g->engines[i]->queue, count, CL_FALSE, 0,
							 sizeof(cl_uint), &counts[i], 1, &done, &reads[i]);
			clReleaseEvent(done);
			if (err != CL_SUCCESS) {
				reads[i] = NULL;
				status = set_cl_error(err, "reading a slice's count");
			} else {
				clFlush(g->engines[i]->queue);
			}
		}
		if (status != CLWARP_OK)
			status = group_device_error(g, i, status);
	}
	clwarp_status waited = group_wait(g, reads, "compacting a slice");

	if (status != CLWARP_OK || waited != CLWARP_OK)
		return status != CLWARP_OK ? status : waited;
	out_offsets[0] = 0;
	for (size_t i = 0; i < g->count; i++)
		out_offsets[i + 1] = out_offsets[i] + counts[i];
	return CLWARP_OK;
}

/* The row calls: each device's rows on their own; nothing crosses devices. */
static clwarp_status
rows(clwarp_group *g, const char *fn, enum algo_kind kind, clwarp_type type, clwarp_op op,
     int inclusive, const cl_mem *in, const size_t *row_offsets, size_t row_length,
     const cl_mem *out)
{
	cl_event done[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	clwarp_status status;

	clear_error();
	status = check_call(g, fn, in, out, row_offsets, "row_offsets");
	if (status == CLWARP_OK && !out)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL out", fn);
	/* Also where every slice is empty. */
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], type, op);
	if (status == CLWARP_OK)
		status = algo_check_wide_type(fn, type);
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		size_t n = row_offsets[i + 1] - row_offsets[i];

		if (n == 0)
			continue;
		status = algo_rows(fn, kind, g->engines[i], type, op, inclusive, in[i], n, row_length,
				   out[i], &done[i]);
		if (status == CLWARP_OK)
			clFlush(g->engines[i]->queue);
		else
			status = group_device_error(g, i, status);
	}
	clwarp_status waited = group_wait(g, done, "rows of a slice");

	return status != CLWARP_OK ? status : waited;
}

CLWARP_EXPORT clwarp_status
clwarp_group_segmented_reduce(clwarp_group *g, clwarp_type type, clwarp_op op, const cl_mem *in,
			      const size_t *row_offsets, size_t row_length, const cl_mem *out)
{
	return rows(g, "clwarp_group_segmented_reduce", ALGO_ROWS_REDUCE, type, op, 0, in,
		    row_offsets, row_length, out);
}

CLWARP_EXPORT clwarp_status
clwarp_group_segmented_scan(clwarp_group *g, clwarp_type type, clwarp_op op, int inclusive,
			    const cl_mem *in, const size_t *row_offsets, size_t row_length,
			    const cl_mem *out)
{
	return rows(g, "clwarp_group_segmented_scan", ALGO_ROWS_SCAN, type, op, inclusive, in,
		    row_offsets, row_length, out);
}

CLWARP_EXPORT clwarp_status
clwarp_group_softmax_rows(clwarp_group *g, const cl_mem *in, const size_t *row_offsets,
			  size_t row_length, const cl_mem *out)
{
	return rows(g, "clwarp_group_softmax_rows", ALGO_SOFTMAX, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD, 0,
		    in, row_offsets, row_length, out);
}
