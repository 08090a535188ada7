/* Device groups: the device-wide algorithms over data split across devices,
 * and the per-slice step every group algorithm runs its devices through.
 * Each device runs the single-device kernels on its slice; what crosses
 * devices (reduce totals, scan carries, compaction counts, histogram
 * counts) is combined on the host in device order. The runs calls
 * (unique, run-length encode, reduce by key) are in src/group_runs.c. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "group.h"

#include <math.h>
#include <string.h>

#include "algo.h"
#include "error.h"
#include "util.h"

clwarp_status
group_scratch(clwarp_group *g, size_t i, cl_mem *out)
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

void
group_combine(clwarp_type type, clwarp_op op, union algo_value *acc, const union algo_value *v)
{
#define COMBINE(F, UT, MINF, MAXF) \
	acc->F = op == CLWARP_OP_ADD ? UT : op == CLWARP_OP_MIN ? MINF : MAXF
#define LESSER(F) (v->F < acc->F ? v->F : acc->F)
#define GREATER(F) (v->F > acc->F ? v->F : acc->F)
#define WRAP(F, T, UT) (T)(UT)((UT)acc->F + (UT)v->F)
	switch (type) {
	case CLWARP_TYPE_INT:
		COMBINE(i, WRAP(i, cl_int, cl_uint), LESSER(i), GREATER(i));
		break;
	case CLWARP_TYPE_UINT:
		COMBINE(u, acc->u + v->u, LESSER(u), GREATER(u));
		break;
	case CLWARP_TYPE_LONG:
		COMBINE(l, WRAP(l, cl_long, cl_ulong), LESSER(l), GREATER(l));
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
	case CLWARP_TYPE_CHAR:
		COMBINE(c, WRAP(c, cl_char, cl_uchar), LESSER(c), GREATER(c));
		break;
	case CLWARP_TYPE_UCHAR:
		COMBINE(uc, WRAP(uc, cl_uchar, cl_uchar), LESSER(uc), GREATER(uc));
		break;
	case CLWARP_TYPE_SHORT:
		COMBINE(s, WRAP(s, cl_short, cl_ushort), LESSER(s), GREATER(s));
		break;
	case CLWARP_TYPE_USHORT:
		COMBINE(us, WRAP(us, cl_ushort, cl_ushort), LESSER(us), GREATER(us));
		break;
	}
#undef COMBINE
#undef LESSER
#undef GREATER
#undef WRAP
}

clwarp_status
group_check_call(const clwarp_group *g, const char *fn, const cl_mem *in, const cl_mem *out,
		 const size_t *offsets, const char *what)
{
	if (!g)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL group", fn);
	if (!in || !out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL buffer array", fn);
	return group_check_offsets(g, fn, offsets, what);
}

/* ------------------------------------------------------------ the per-slice step */

enum move { MOVE_READ, MOVE_WRITE, MOVE_COPY };

/* One transfer on device i's queue after *event (released; NULL: none),
 * without blocking; *event becomes the transfer's. */
static clwarp_status
move_after(clwarp_group *g, size_t i, enum move kind, cl_mem buffer, size_t offset, size_t bytes,
	   void *host, cl_mem to, size_t to_offset, cl_event *event)
{
	cl_command_queue q = g->engines[i]->queue;
	cl_event after = *event, done = NULL;
	cl_uint waits = after ? 1 : 0;
	cl_int err;

	if (kind == MOVE_READ)
		err = clEnqueueReadBuffer(q, buffer, CL_FALSE, offset, bytes, host, waits,
					  waits ? &after : NULL, &done);
	else if (kind == MOVE_WRITE)
		err = clEnqueueWriteBuffer(q, buffer, CL_FALSE, offset, bytes, host, waits,
					   waits ? &after : NULL, &done);
	else
		err = clEnqueueCopyBuffer(q, buffer, to, offset, to_offset, bytes, waits,
					  waits ? &after : NULL, &done);
	if (err != CL_SUCCESS)
		return set_cl_error(err, kind == MOVE_READ ? "clEnqueueReadBuffer" :
					 kind == MOVE_WRITE ? "clEnqueueWriteBuffer" :
							      "clEnqueueCopyBuffer");
	if (after)
		clReleaseEvent(after);
	*event = done;
	return CLWARP_OK;
}

clwarp_status
group_read_after(clwarp_group *g, size_t i, cl_mem buffer, size_t offset, size_t bytes,
		 void *host, cl_event *event)
{
	return move_after(g, i, MOVE_READ, buffer, offset, bytes, host, NULL, 0, event);
}

clwarp_status
group_write_after(clwarp_group *g, size_t i, cl_mem buffer, size_t offset, size_t bytes,
		  const void *host, cl_event *event)
{
	return move_after(g, i, MOVE_WRITE, buffer, offset, bytes, (void *)host, NULL, 0, event);
}

clwarp_status
group_copy_after(clwarp_group *g, size_t i, cl_mem from, size_t from_offset, cl_mem to,
		 size_t to_offset, size_t bytes, cl_event *event)
{
	return move_after(g, i, MOVE_COPY, from, from_offset, bytes, NULL, to, to_offset, event);
}

clwarp_status
group_step(struct group_step *step)
{
	cl_event events[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	clwarp_group *g = step->group;
	size_t last = step->last ? step->last : g->count;
	clwarp_status status = CLWARP_OK;

	for (size_t i = 0; i < last && status == CLWARP_OK; i++) {
		size_t n = step->offsets[i + 1] - step->offsets[i];

		if (n == 0 && !step->empty)
			continue;
		status = step->run(step, i, n, &events[i]);
		if (status == CLWARP_OK)
			clFlush(g->engines[i]->queue);
		else
			status = group_device_error(g, i, status);
	}
	clwarp_status waited = group_wait(g, events, step->what);

	return status != CLWARP_OK ? status : waited;
}

/* ------------------------------------------------------------ reduce and scan */

struct totals {
	clwarp_type type;
	clwarp_op op;
	const cl_mem *in;
	union algo_value values[CLWARP_GROUP_MAX_DEVICES];
};

static clwarp_status
total_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct totals *t = step->ctx;
	cl_mem result = NULL;
	clwarp_status status = group_scratch(step->group, i, &result);

	if (status == CLWARP_OK)
		status = algo_reduce(step->fn, step->group->engines[i], t->type, t->op, t->in[i], n,
				     result, event);
	if (status == CLWARP_OK)
		status = group_read_after(step->group, i, result, 0, algo_type_size(t->type),
					  &t->values[i], event);
	return status;
}

/* Each non-empty slice's total into t->values[i], devices [0, last). */
static clwarp_status
slice_totals(clwarp_group *g, const char *fn, const size_t *offsets, size_t last,
	     struct totals *t)
{
	struct group_step step = { .group = g, .fn = fn, .what = "reducing a slice",
				   .offsets = offsets, .last = last, .ctx = t, .run = total_run };

	if (last == 0)
		return CLWARP_OK;
	return group_step(&step);
}

CLWARP_EXPORT clwarp_status
clwarp_group_reduce(clwarp_group *g, clwarp_type type, const cl_mem *in, void *result,
		    const size_t *offsets, clwarp_op op)
{
	static const char fn[] = "clwarp_group_reduce";
	struct totals t = { .type = type, .op = op, .in = in };
	union algo_value acc;
	bool any = false;
	clwarp_status status;

	clear_error();
	status = group_check_call(g, fn, in, in, offsets, "offsets");
	if (status == CLWARP_OK && !result)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL result", fn);
	if (status == CLWARP_OK)
		status = algo_check_wide_call(fn, g->engines[0], type, op);
	if (status == CLWARP_OK)
		status = slice_totals(g, fn, offsets, g->count, &t);
	if (status != CLWARP_OK)
		return status;
	memset(&acc, 0, sizeof(acc));
	for (size_t i = 0; i < g->count; i++) {
		if (offsets[i + 1] == offsets[i])
			continue;
		if (any)
			group_combine(type, op, &acc, &t.values[i]);
		else
			acc = t.values[i];
		any = true;
	}
	if (!any)
		algo_identity(type, op, &acc);  /* n = 0, as clwarp_reduce writes it */
	memcpy(result, &acc, algo_type_size(type));
	return CLWARP_OK;
}

struct scan {
	struct totals t;
	const cl_mem *out;
	int inclusive;
	union algo_value carry;
	bool have_carry;
};

static clwarp_status
scan_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct scan *s = step->ctx;
	clwarp_status status;

	status = algo_scan(step->fn, step->group->engines[i], s->t.type, s->t.op, s->inclusive,
			   s->t.in[i], s->out[i], n, s->have_carry ? &s->carry : NULL, event);
	/* The last device's total is nobody's carry. */
	if (status == CLWARP_OK && i + 1 < step->group->count) {
		if (s->have_carry)
			group_combine(s->t.type, s->t.op, &s->carry, &s->t.values[i]);
		else
			s->carry = s->t.values[i];
		s->have_carry = true;
	}
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_scan(clwarp_group *g, clwarp_type type, const cl_mem *in, const cl_mem *out,
		  const size_t *offsets, clwarp_op op, unsigned flags)
{
	static const char fn[] = "clwarp_group_scan";
	struct scan s = { .t = { .type = type, .op = op, .in = in }, .out = out,
			  .inclusive = (flags & CLWARP_SCAN_INCLUSIVE) != 0 };
	struct group_step step = { .group = g, .fn = fn, .what = "scanning a slice",
				   .offsets = offsets, .ctx = &s, .run = scan_run };
	clwarp_status status;

	clear_error();
	status = group_check_call(g, fn, in, out, offsets, "offsets");
	if (status == CLWARP_OK)
		status = algo_check_flags(fn, flags, CLWARP_SCAN_INCLUSIVE, "CLWARP_SCAN_INCLUSIVE");
	if (status == CLWARP_OK)
		status = algo_check_wide_call(fn, g->engines[0], type, op);
	/* The totals are read before any scan is enqueued: `out` may be `in`. */
	if (status == CLWARP_OK)
		status = slice_totals(g, fn, offsets, g->count - 1, &s.t);
	if (status == CLWARP_OK)
		status = group_step(&step);
	return status;
}

/* ------------------------------------------------------------ compaction and partition */

struct select {
	enum algo_kind kind;
	bool reversed;
	clwarp_type type;
	const char *predicate;
	const cl_mem *in, *out;
	cl_uint counts[CLWARP_GROUP_MAX_DEVICES];
};

static clwarp_status
select_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct select *s = step->ctx;
	clwarp_engine *e = step->group->engines[i];
	cl_mem count = NULL;
	clwarp_status status = group_scratch(step->group, i, &count);

	if (status == CLWARP_OK && s->reversed)
		status = clwarp_partition(e, s->type, s->in[i], s->out[i], count, n, s->predicate,
						   CLWARP_PARTITION_REVERSED, event);
	else if (status == CLWARP_OK)
		status = algo_select_call(step->fn, s->kind, e, s->type, s->predicate, s->in[i], n,
					  s->out[i], count, "count", event);
	if (status == CLWARP_OK)
		status = group_read_after(step->group, i, count, 0, sizeof(cl_uint), &s->counts[i],
					  event);
	return status;
}

static clwarp_status
select_slices(clwarp_group *g, const char *fn, struct select *s, size_t *out_offsets,
	      const size_t *offsets, unsigned flags, unsigned known_flags)
{
	struct group_step step = { .group = g, .fn = fn, .what = "compacting a slice",
				   .offsets = offsets, .ctx = s, .run = select_run };
	clwarp_status status;

	clear_error();
	status = group_check_call(g, fn, s->in, s->out, offsets, "offsets");
	if (status == CLWARP_OK && !out_offsets)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL out_offsets", fn);
	if (status == CLWARP_OK && (flags & ~known_flags))
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", fn,
				   flags & ~known_flags);
	/* Also where every slice is empty. */
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], s->type, CLWARP_OP_ADD);
	if (status == CLWARP_OK)
		status = group_step(&step);
	if (status != CLWARP_OK)
		return status;
	out_offsets[0] = 0;
	for (size_t i = 0; i < g->count; i++)
		out_offsets[i + 1] = out_offsets[i] + s->counts[i];
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_group_compact(clwarp_group *g, clwarp_type type, const cl_mem *in, const cl_mem *out,
		     size_t *out_offsets, const size_t *offsets, const char *predicate)
{
	struct select s = { .kind = ALGO_COMPACT, .type = type, .predicate = predicate, .in = in,
			    .out = out };

	return select_slices(g, "clwarp_group_compact", &s, out_offsets, offsets, 0, 0);
}

CLWARP_EXPORT clwarp_status
clwarp_group_partition(clwarp_group *g, clwarp_type type, const cl_mem *in, const cl_mem *out,
		       size_t *out_offsets, const size_t *offsets, const char *predicate,
		       unsigned flags)
{
	struct select s = { .kind = ALGO_PARTITION, .type = type, .predicate = predicate, .in = in,
			    .out = out, .reversed = (flags & CLWARP_PARTITION_REVERSED) != 0 };

	return select_slices(g, "clwarp_group_partition", &s, out_offsets, offsets, flags,
			     CLWARP_PARTITION_REVERSED);
}

/* ------------------------------------------------------------ rows */

/* The row calls: each device's rows on their own; nothing crosses devices. */
struct rows {
	enum algo_kind kind;
	clwarp_type type;
	clwarp_op op;
	int inclusive;
	const cl_mem *in, *out;
	size_t row_length;
};

static clwarp_status
rows_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct rows *r = step->ctx;

	return algo_rows(step->fn, r->kind, step->group->engines[i], r->type, r->op, r->inclusive,
			 r->in[i], n, r->row_length, r->out[i], event);
}

static clwarp_status
rows(clwarp_group *g, const char *fn, struct rows *r, const size_t *row_offsets, unsigned flags)
{
	struct group_step step = { .group = g, .fn = fn, .what = "rows of a slice",
				   .offsets = row_offsets, .ctx = r, .run = rows_run };
	clwarp_status status;

	clear_error();
	status = group_check_call(g, fn, r->in, r->out, row_offsets, "row_offsets");
	if (status == CLWARP_OK)
		status = algo_check_flags(fn, flags, CLWARP_SCAN_INCLUSIVE, "CLWARP_SCAN_INCLUSIVE");
	/* Also where every slice is empty. */
	if (status == CLWARP_OK)
		status = algo_check_wide_call(fn, g->engines[0], r->type, r->op);
	if (status == CLWARP_OK)
		status = group_step(&step);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_segmented_reduce(clwarp_group *g, clwarp_type type, const cl_mem *in,
			      const cl_mem *out, const size_t *row_offsets, size_t row_length,
			      clwarp_op op)
{
	struct rows r = { .kind = ALGO_ROWS_REDUCE, .type = type, .op = op, .in = in, .out = out,
			  .row_length = row_length };

	return rows(g, "clwarp_group_segmented_reduce", &r, row_offsets, 0);
}

CLWARP_EXPORT clwarp_status
clwarp_group_segmented_scan(clwarp_group *g, clwarp_type type, const cl_mem *in,
			    const cl_mem *out, const size_t *row_offsets, size_t row_length,
			    clwarp_op op, unsigned flags)
{
	struct rows r = { .kind = ALGO_ROWS_SCAN, .type = type, .op = op, .in = in, .out = out,
			  .inclusive = (flags & CLWARP_SCAN_INCLUSIVE) != 0, .row_length = row_length };

	return rows(g, "clwarp_group_segmented_scan", &r, row_offsets, flags);
}

CLWARP_EXPORT clwarp_status
clwarp_group_softmax_rows(clwarp_group *g, const cl_mem *in, const cl_mem *out,
			  const size_t *row_offsets, size_t row_length)
{
	struct rows r = { .kind = ALGO_SOFTMAX, .type = CLWARP_TYPE_FLOAT, .op = CLWARP_OP_ADD,
			  .in = in, .out = out, .row_length = row_length };

	return rows(g, "clwarp_group_softmax_rows", &r, row_offsets, 0);
}
