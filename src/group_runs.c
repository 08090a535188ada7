/* Device groups: the calls over runs of equal elements (unique, run-length
 * encode, reduce by key) and the histogram. Each device runs the
 * single-device call on its slice. A run that crosses from one slice into
 * the next belongs to the device where it starts: the next device's first
 * run is dropped (its outputs go to temporary buffers, from which the
 * rest is copied to the caller's), and its count or aggregate is combined
 * on the host into the starting device's last run. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "group.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

enum runs_kind { RUNS_UNIQUE, RUNS_ENCODE, RUNS_BY_KEY };

struct runs {
	enum runs_kind kind;
	clwarp_type key_type, value_type;      /* encode: the counts, cl_uint */
	clwarp_op op;
	const cl_mem *keys, *values;
	const cl_mem *keys_out, *values_out;   /* unique: no values */
	size_t ksize, vsize;
	/* Per device: its slice's first and last key, whether its first run
	 * continues the previous slice's last, the temporaries then, the
	 * call's number of runs, the first and last run's value, and the
	 * value a merged last run gets. */
	union algo_value first[CLWARP_GROUP_MAX_DEVICES], last[CLWARP_GROUP_MAX_DEVICES];
	bool skip[CLWARP_GROUP_MAX_DEVICES], merged[CLWARP_GROUP_MAX_DEVICES];
	cl_mem tmp_keys[CLWARP_GROUP_MAX_DEVICES], tmp_values[CLWARP_GROUP_MAX_DEVICES];
	cl_uint runs[CLWARP_GROUP_MAX_DEVICES];
	union algo_value head[CLWARP_GROUP_MAX_DEVICES], tail[CLWARP_GROUP_MAX_DEVICES];
};

/* Two keys as the kernels compare them: floats by ==, others by bits. */
static bool
keys_equal(clwarp_type type, const union algo_value *a, const union algo_value *b)
{
	if (type == CLWARP_TYPE_FLOAT)
		return a->f == b->f;
	if (type == CLWARP_TYPE_DOUBLE)
		return a->d == b->d;
	return memcmp(a, b, algo_type_size(type)) == 0;
}

static clwarp_status
ends_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct runs *r = step->ctx;
	clwarp_status status;

	status = group_read_after(step->group, i, r->keys[i], 0, r->ksize, &r->first[i], event);
	if (status == CLWARP_OK)
		status = group_read_after(step->group, i, r->keys[i], (n - 1) * r->ksize, r->ksize,
					  &r->last[i], event);
	return status;
}

/* Which slices' first runs continue the slice before (the last non-empty
 * one): their outputs go to temporaries first. */
static clwarp_status
find_crossings(clwarp_group *g, const char *fn, const size_t *offsets, struct runs *r)
{
	struct group_step step = { .group = g, .fn = fn, .what = "reading a slice's ends",
				   .offsets = offsets, .ctx = r, .run = ends_run };
	size_t prev = SIZE_MAX;
	clwarp_status status = g->count > 1 ? group_step(&step) : CLWARP_OK;

	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		size_t n = offsets[i + 1] - offsets[i];
		cl_int err = CL_SUCCESS;

		if (n == 0)
			continue;
		r->skip[i] = prev != SIZE_MAX && keys_equal(r->key_type, &r->last[prev], &r->first[i]);
		prev = i;
		if (!r->skip[i])
			continue;
		r->tmp_keys[i] = clCreateBuffer(g->engines[i]->context, CL_MEM_READ_WRITE,
						n * r->ksize, NULL, &err);
		if (err == CL_SUCCESS && r->kind != RUNS_UNIQUE)
			r->tmp_values[i] = clCreateBuffer(g->engines[i]->context, CL_MEM_READ_WRITE,
							  n * r->vsize, NULL, &err);
		if (err != CL_SUCCESS) {
			set_cl_error(err, "clCreateBuffer (a temporary for a run from the slice before)");
			status = group_device_error(g, i, err == CL_OUT_OF_HOST_MEMORY ?
							   CLWARP_ERROR_OUT_OF_MEMORY :
							   CLWARP_ERROR_TOO_LARGE);
		}
	}
	return status;
}

static clwarp_status
call_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct runs *r = step->ctx;
	clwarp_engine *e = step->group->engines[i];
	cl_mem keys_out = r->skip[i] ? r->tmp_keys[i] : r->keys_out[i], count = NULL;
	cl_mem values_out = r->skip[i] ? r->tmp_values[i] : r->values_out ? r->values_out[i] : NULL;
	clwarp_status status = group_scratch(step->group, i, &count);

	if (status != CLWARP_OK)
		return status;
	if (r->kind == RUNS_UNIQUE)
		status = algo_select_call(step->fn, ALGO_UNIQUE, e, r->key_type, NULL, r->keys[i], n,
					  keys_out, count, "num_selected", event);
	else if (r->kind == RUNS_ENCODE)
		status = clwarp_run_length_encode(e, r->key_type, r->keys[i], keys_out, values_out,
						  count, n, event);
	else
		status = clwarp_reduce_by_key(e, r->key_type, r->value_type, r->keys[i],
					      r->values[i], keys_out, values_out, count, n, r->op,
					      event);
	if (status == CLWARP_OK)
		status = group_read_after(step->group, i, count, 0, sizeof(cl_uint), &r->runs[i],
					  event);
	return status;
}

/* Slice i's first run's value where it continues the slice before, and
 * its last run's where the slice after continues it. */
static clwarp_status
edges_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct runs *r = step->ctx;
	const size_t *offsets = step->offsets;
	size_t next = i + 1;
	clwarp_status status = CLWARP_OK;

	(void)n;
	while (next < step->group->count && offsets[next + 1] == offsets[next])
		next++;
	if (r->skip[i])
		status = group_read_after(step->group, i, r->tmp_values[i], 0, r->vsize, &r->head[i],
					  event);
	if (status == CLWARP_OK && next < step->group->count && r->skip[next])
		status = group_read_after(step->group, i,
					  r->skip[i] ? r->tmp_values[i] : r->values_out[i],
					  (r->runs[i] - 1) * r->vsize, r->vsize, &r->tail[i], event);
	return status;
}

/* Combine each crossing run's parts into the device where it starts. */
static void
merge_crossings(const clwarp_group *g, const size_t *offsets, struct runs *r)
{
	size_t owner = SIZE_MAX;

	for (size_t i = 0; i < g->count; i++) {
		if (offsets[i + 1] == offsets[i])
			continue;
		if (r->skip[i]) {
			group_combine(r->value_type, r->op, &r->tail[owner], &r->head[i]);
			r->merged[owner] = true;
		}
		if (!r->skip[i] || r->runs[i] > 1)
			owner = i;
	}
}

/* The parts after a crossing run, from the temporaries to the caller's
 * buffers, and the merged runs' values. */
static clwarp_status
fix_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct runs *r = step->ctx;
	size_t runs = r->runs[i] - r->skip[i];
	clwarp_status status = CLWARP_OK;

	(void)n;
	if (r->skip[i] && runs > 0) {
		status = group_copy_after(step->group, i, r->tmp_keys[i], r->ksize, r->keys_out[i], 0,
					  runs * r->ksize, event);
		if (status == CLWARP_OK && r->kind != RUNS_UNIQUE)
			status = group_copy_after(step->group, i, r->tmp_values[i], r->vsize,
						  r->values_out[i], 0, runs * r->vsize, event);
	}
	if (status == CLWARP_OK && r->merged[i])
		status = group_write_after(step->group, i, r->values_out[i], (runs - 1) * r->vsize,
					   r->vsize, &r->tail[i], event);
	return status;
}

static clwarp_status
runs_slices(clwarp_group *g, const char *fn, struct runs *r, size_t *out_offsets,
	    const size_t *offsets)
{
	struct group_step step = { .group = g, .fn = fn, .what = "runs of a slice",
				   .offsets = offsets, .ctx = r, .run = call_run };
	bool any = false;
	clwarp_status status = find_crossings(g, fn, offsets, r);

	if (status == CLWARP_OK)
		status = group_step(&step);
	for (size_t i = 0; i < g->count; i++)
		any |= r->skip[i];
	if (status == CLWARP_OK && any && r->kind != RUNS_UNIQUE) {
		step.what = "reading a crossing run";
		step.run = edges_run;
		status = group_step(&step);
		if (status == CLWARP_OK)
			merge_crossings(g, offsets, r);
	}
	if (status == CLWARP_OK && any) {
		step.what = "moving the runs after a crossing run";
		step.run = fix_run;
		status = group_step(&step);
	}
	group_release_buffers(g, r->tmp_keys);
	group_release_buffers(g, r->tmp_values);
	if (status != CLWARP_OK)
		return status;
	out_offsets[0] = 0;
	for (size_t i = 0; i < g->count; i++)
		out_offsets[i + 1] = out_offsets[i] +
				     (offsets[i + 1] > offsets[i] ? r->runs[i] - r->skip[i] : 0);
	return CLWARP_OK;
}

/* The checks the three runs calls share, then the call. */
static clwarp_status
runs_call(clwarp_group *g, const char *fn, struct runs *r, size_t *out_offsets,
	  const size_t *offsets)
{
	clwarp_status status;

	clear_error();
	status = group_check_call(g, fn, r->keys, r->keys_out, offsets, "offsets");
	if (status == CLWARP_OK && (!out_offsets || (r->kind != RUNS_UNIQUE && !r->values_out) ||
				    (r->kind == RUNS_BY_KEY && !r->values)))
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL buffer array or out_offsets",
				   fn);
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], r->key_type, r->op);
	if (status == CLWARP_OK && (unsigned)r->value_type >= ALGO_TYPE_COUNT)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown value type %d", fn,
				   (int)r->value_type);
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], r->value_type, r->op);
	/* Counts are cl_uints: a run of the whole array must fit. */
	if (status == CLWARP_OK && r->kind == RUNS_ENCODE && offsets[g->count] > UINT32_MAX)
		status = set_error(CLWARP_ERROR_TOO_LARGE, "%s: n = %zu; at most 2^32 - 1", fn,
				   offsets[g->count]);
	if (status != CLWARP_OK)
		return status;
	for (size_t i = 0; i < g->count; i++)
		r->tmp_keys[i] = r->tmp_values[i] = NULL;
	r->ksize = algo_type_size(r->key_type);
	r->vsize = algo_type_size(r->value_type);
	return runs_slices(g, fn, r, out_offsets, offsets);
}

CLWARP_EXPORT clwarp_status
clwarp_group_unique(clwarp_group *g, clwarp_type type, const cl_mem *in, const cl_mem *out,
		    size_t *out_offsets, const size_t *offsets)
{
	struct runs r = { .kind = RUNS_UNIQUE, .key_type = type, .value_type = CLWARP_TYPE_UINT,
			  .op = CLWARP_OP_ADD, .keys = in, .keys_out = out };

	return runs_call(g, "clwarp_group_unique", &r, out_offsets, offsets);
}

CLWARP_EXPORT clwarp_status
clwarp_group_run_length_encode(clwarp_group *g, clwarp_type type, const cl_mem *in,
			       const cl_mem *unique_out, const cl_mem *counts_out,
			       size_t *out_offsets, const size_t *offsets)
{
	struct runs r = { .kind = RUNS_ENCODE, .key_type = type, .value_type = CLWARP_TYPE_UINT,
			  .op = CLWARP_OP_ADD, .keys = in, .keys_out = unique_out,
			  .values_out = counts_out };

	return runs_call(g, "clwarp_group_run_length_encode", &r, out_offsets, offsets);
}

CLWARP_EXPORT clwarp_status
clwarp_group_reduce_by_key(clwarp_group *g, clwarp_type key_type, clwarp_type value_type,
			   const cl_mem *keys_in, const cl_mem *values_in,
			   const cl_mem *unique_keys_out, const cl_mem *aggregates_out,
			   size_t *out_offsets, const size_t *offsets, clwarp_op op)
{
	struct runs r = { .kind = RUNS_BY_KEY, .key_type = key_type, .value_type = value_type,
			  .op = op, .keys = keys_in, .values = values_in,
			  .keys_out = unique_keys_out, .values_out = aggregates_out };

	return runs_call(g, "clwarp_group_reduce_by_key", &r, out_offsets, offsets);
}

/* ------------------------------------------------------------ histogram */

struct histogram {
	clwarp_type type;
	const cl_mem *in;
	size_t bins;
	const void *lower, *upper;
	cl_mem counts[CLWARP_GROUP_MAX_DEVICES];   /* each device's, temporary */
	cl_uint *host;                             /* device i's counts: host + i * bins */
};

static clwarp_status
histogram_run(struct group_step *step, size_t i, size_t n, cl_event *event)
{
	struct histogram *h = step->ctx;
	clwarp_status status;

	/* Device 0 runs even on an empty slice: its call checks the bins and
	 * bounds where every slice is empty. */
	if (n == 0 && i > 0)
		return CLWARP_OK;
	status = clwarp_histogram(step->group->engines[i], h->type, h->in[i], h->counts[i], n,
				  h->bins, h->lower, h->upper, event);
	if (status == CLWARP_OK)
		status = group_read_after(step->group, i, h->counts[i], 0, h->bins * sizeof(cl_uint),
					  h->host + i * h->bins, event);
	return status;
}

static clwarp_status
histogram_check(const clwarp_group *g, const char *fn, const struct histogram *h,
		const cl_uint *counts, const size_t *offsets)
{
	clwarp_status status = group_check_call(g, fn, h->in, h->in, offsets, "offsets");

	if (status == CLWARP_OK && !counts)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL counts", fn);
	if (status == CLWARP_OK)
		status = algo_check_engine_type(fn, g->engines[0], h->type, CLWARP_OP_ADD);
	if (status == CLWARP_OK && h->bins == 0)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: bins must be at least 1", fn);
	if (status == CLWARP_OK && h->bins > (SIZE_MAX / sizeof(cl_uint)) / g->count)
		status = set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu bins are too many", fn, h->bins);
	/* The sums are cl_uints, as one device's. */
	if (status == CLWARP_OK && offsets[g->count] > UINT32_MAX)
		status = set_error(CLWARP_ERROR_TOO_LARGE, "%s: n = %zu; at most 2^32 - 1", fn,
				   offsets[g->count]);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_histogram(clwarp_group *g, clwarp_type type, const cl_mem *in, cl_uint *counts,
		       const size_t *offsets, size_t bins, const void *lower, const void *upper)
{
	static const char fn[] = "clwarp_group_histogram";
	struct histogram h = { .type = type, .in = in, .bins = bins, .lower = lower, .upper = upper };
	struct group_step step = { .group = g, .fn = fn, .what = "counting a slice",
				   .offsets = offsets, .empty = true, .ctx = &h, .run = histogram_run };
	size_t bytes[CLWARP_GROUP_MAX_DEVICES];
	clwarp_status status;

	clear_error();
	status = histogram_check(g, fn, &h, counts, offsets);
	if (status != CLWARP_OK)
		return status;
	for (size_t i = 0; i < g->count; i++)
		bytes[i] = i == 0 || offsets[i + 1] > offsets[i] ? bins * sizeof(cl_uint) : 0;
	h.host = malloc(g->count * bins * sizeof(cl_uint));
	if (!h.host)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bins", fn,
				 bins);
	status = group_buffers_new(g, CL_MEM_READ_WRITE, bytes, h.counts);
	if (status == CLWARP_OK)
		status = group_step(&step);
	if (status == CLWARP_OK) {
		memcpy(counts, h.host, bins * sizeof(cl_uint));
		for (size_t i = 1; i < g->count; i++)
			for (size_t b = 0; b < bins && offsets[i + 1] > offsets[i]; b++)
				counts[b] += h.host[i * bins + b];
	}
	group_release_buffers(g, h.counts);
	free(h.host);
	return status;
}
