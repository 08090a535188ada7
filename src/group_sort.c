/* Device groups: a stable sample sort across devices. Each device sorts its
 * slice with the single-device radix sort; splitters drawn from samples of
 * the sorted slices cut every slice into one piece per device; the pieces
 * go to their devices (through host memory the group keeps: OpenCL has no
 * copy between contexts), in source order; each device sorts what it received. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "group.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "error.h"
#include "util.h"

/* Samples per device: the buckets' sizes are right to about one in
 * SAMPLES of a slice. */
#define SAMPLES 1024u

struct sort_job {
	clwarp_group *g;
	const char *fn;
	clwarp_type key_type;
	int value_type;            /* -1: keys only */
	size_t ksize, vsize;
	unsigned flags, begin, end;
	const cl_mem *keys, *values;
	const size_t *offsets;
	cl_mem *out_keys, *out_values;
	size_t *out_offsets;
};

struct sample {
	uint64_t rank;
	double weight;             /* elements it stands for */
};

/*
 * A key's place in the sort's order as a number: the order bits of
 * kernels/algorithms/sort.cl (sort_order_bits: the sign bit flipped for
 * signed integers, IEEE total order for floats, all bits flipped for
 * descending, NaN all ones both ways unless CLWARP_SORT_TOTAL_ORDER), cut
 * to the bit range. Two keys sort
 * in the order of their ranks; equal ranks keep their input order.
 */
static uint64_t
key_rank(const struct sort_job *j, const void *key)
{
	unsigned bits = (unsigned)(8 * j->ksize);
	uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1, top = 1ull << (bits - 1), b;
	uint64_t width = j->end - j->begin, mask = width == 64 ? ~0ull : (1ull << width) - 1;

	if (j->ksize == 8) {
		memcpy(&b, key, 8);
	} else if (j->ksize == 4) {
		uint32_t w;

		memcpy(&w, key, 4);
		b = w;
	} else if (j->ksize == 2) {
		uint16_t h;

		memcpy(&h, key, 2);
		b = h;
	} else {
		b = *(const uint8_t *)key;
	}
	if (algo_types[j->key_type].is_float) {
		unsigned mant = j->ksize == 8 ? 52 : 23;
		uint64_t exp_mask = (all >> 1) & ~((1ull << mant) - 1);

		if (!(j->flags & CLWARP_SORT_TOTAL_ORDER) && (b & exp_mask) == exp_mask &&
		    (b & ((1ull << mant) - 1)))
			return (all >> j->begin) & mask;   /* NaN: last either way */
		b ^= (b & top) ? all : top;
	} else if (algo_types[j->key_type].is_signed) {
		b ^= top;
	}
	if (j->flags & CLWARP_SORT_DESCENDING)
		b = ~b & all;
	return (b >> j->begin) & mask;
}

static int
compare_samples(const void *a, const void *b)
{
	uint64_t x = ((const struct sample *)a)->rank, y = ((const struct sample *)b)->rank;

	return x < y ? -1 : x > y;
}

static size_t
slice(const struct sort_job *j, size_t i)
{
	return j->offsets[i + 1] - j->offsets[i];
}

/* Sort each device's slice in place (keys[i] and values[i]), all at once. */
static clwarp_status
sort_slices(const struct sort_job *j, const cl_mem *keys, const cl_mem *values,
	    const size_t *counts, const bool *skip)
{
	cl_event done[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	clwarp_status status = CLWARP_OK;

	for (size_t i = 0; i < j->g->count && status == CLWARP_OK; i++) {
		if (counts[i] == 0 || skip[i])
			continue;
		status = algo_sort(j->fn, j->g->engines[i], j->key_type, keys[i], j->value_type,
				   values ? values[i] : NULL, counts[i], j->flags, &done[i]);
		if (status == CLWARP_OK)
			clFlush(j->g->engines[i]->queue);
		else
			status = group_device_error(j->g, i, status);
	}
	clwarp_status waited = group_wait(j->g, done, "sorting a slice");

	return status != CLWARP_OK ? status : waited;
}

/* Up to SAMPLES evenly spaced keys of each sorted slice, one strided read
 * per device; *stride receives each device's spacing. */
static clwarp_status
draw_samples(const struct sort_job *j, struct sample *samples, size_t *count, size_t *stride,
	     unsigned char *raw)
{
	cl_event reads[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	size_t first[CLWARP_GROUP_MAX_DEVICES], taken[CLWARP_GROUP_MAX_DEVICES];
	clwarp_status status = CLWARP_OK;

	*count = 0;
	for (size_t i = 0; i < j->g->count && status == CLWARP_OK; i++) {
		size_t m = slice(j, i);
		unsigned char *at = raw + *count * j->ksize;
		cl_int err;

		stride[i] = m > SAMPLES ? m / SAMPLES : 1;
		taken[i] = m > SAMPLES ? SAMPLES : m;
		first[i] = *count;
		*count += taken[i];
		if (m == 0)
			continue;
		size_t buffer_origin[3] = { stride[i] / 2 * j->ksize, 0, 0 }, host_origin[3] = { 0, 0, 0 };
		size_t region[3] = { j->ksize, taken[i], 1 };

		err = clEnqueueReadBufferRect(j->g->engines[i]->queue, j->keys[i], CL_FALSE, buffer_origin,
					      host_origin, region, stride[i] * j->ksize, 0, j->ksize, 0,
					      at, 0, NULL, &reads[i]);
		if (err != CL_SUCCESS) {
			reads[i] = NULL;
			set_cl_error(err, "clEnqueueReadBufferRect (the sort's samples)");
			status = group_device_error(j->g, i, CLWARP_ERROR_OPENCL);
		} else {
			clFlush(j->g->engines[i]->queue);
		}
	}
	clwarp_status waited = group_wait(j->g, reads, "reading the sort's samples");

	if (status != CLWARP_OK || waited != CLWARP_OK)
		return status != CLWARP_OK ? status : waited;
	for (size_t i = 0; i < j->g->count; i++)
		for (size_t k = 0; k < taken[i]; k++)
			samples[first[i] + k] = (struct sample){
				.rank = key_rank(j, raw + (first[i] + k) * j->ksize),
				.weight = (double)slice(j, i) / (double)taken[i],
			};
	return CLWARP_OK;
}

/* The first position in device i's sorted slice whose rank is >= split,
 * by binary search over single-key reads within [lo, hi). */
static clwarp_status
lower_bound(const struct sort_job *j, size_t i, uint64_t split, size_t lo, size_t hi, size_t *out)
{
	unsigned char key[8];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		cl_event read[CLWARP_GROUP_MAX_DEVICES] = { 0 };
		cl_int err = clEnqueueReadBuffer(j->g->engines[i]->queue, j->keys[i], CL_FALSE,
						 mid * j->ksize, j->ksize, key, 0, NULL, &read[i]);
		clwarp_status status;

		if (err != CL_SUCCESS)
			return group_device_error(j->g, i, set_cl_error(err, "reading a key (the sort's split)"));
		clFlush(j->g->engines[i]->queue);
		/* Waited for like every other command: within the time limit. */
		status = group_wait(j->g, read, "reading a key (the sort's split)");
		if (status != CLWARP_OK)
			return status;
		if (key_rank(j, key) < split)
			lo = mid + 1;
		else
			hi = mid;
	}
	*out = lo;
	return CLWARP_OK;
}

/* The exchange moves each piece in about 8 chunks of 4 KiB to 32 MiB, so
 * that a chunk's write to its device overlaps the next chunk's read. */
#define CHUNK_MIN ((size_t)4 << 10)
#define CHUNK_MAX ((size_t)32 << 20)

struct chunk {
	size_t from, to;           /* devices */
	size_t src, dst, bytes;    /* byte offsets in from's and to's buffers */
	size_t at;                 /* byte offset in the staging memory */
	cl_event read;
};

/* Every chunk that crosses devices, in the order of the staging memory:
 * for each source device i and bucket b != i, piece (i, b) in chunks. The
 * count when `chunks` is NULL. */
static size_t
plan_chunks(const struct sort_job *j, size_t (*cut)[CLWARP_GROUP_MAX_DEVICES + 1], size_t size,
	    struct chunk *chunks)
{
	size_t count = j->g->count, made = 0, at = 0;

	for (size_t i = 0; i < count; i++) {
		for (size_t b = 0; b < count; b++) {
			size_t n = cut[i][b + 1] - cut[i][b], dst = 0;

			if (n == 0 || b == i)
				continue;
			for (size_t k = 0; k < i; k++)
				dst += cut[k][b + 1] - cut[k][b];
			size_t piece = n * size, step = piece / 8;

			step = step < CHUNK_MIN ? CHUNK_MIN : step > CHUNK_MAX ? CHUNK_MAX : step;
			for (size_t done = 0; done < piece; done += step, made++) {
				size_t bytes = piece - done < step ? piece - done : step;

				if (chunks)
					chunks[made] = (struct chunk){ .from = i, .to = b,
								       .src = cut[i][b] * size + done,
								       .dst = dst * size + done, .bytes = bytes,
								       .at = at, .read = NULL };
				at += bytes;
			}
		}
	}
	return made;
}

/* Move piece (i, b) of every slice to bucket b's buffers: on the same
 * device by a copy, across devices through `staging`. Every read is
 * enqueued at once; each chunk's write follows as soon as its read is
 * done (an event of one context cannot hold back another context's
 * queue), so reading and writing overlap. */
static clwarp_status
exchange(const struct sort_job *j, size_t (*cut)[CLWARP_GROUP_MAX_DEVICES + 1],
	 unsigned char *staging)
{
	size_t count = j->g->count;
	clwarp_status status = CLWARP_OK;

	for (int values = 0; values <= (j->value_type >= 0) && status == CLWARP_OK; values++) {
		size_t size = values ? j->vsize : j->ksize;
		const cl_mem *from = values ? j->values : j->keys;
		cl_mem *to = values ? j->out_values : j->out_keys;
		cl_event done[CLWARP_GROUP_MAX_DEVICES] = { 0 };
		size_t nchunks = plan_chunks(j, cut, size, NULL), c;
		struct chunk *chunks = calloc(nchunks + 1, sizeof(*chunks));

		if (!chunks)
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "%s: out of memory", j->fn);
		plan_chunks(j, cut, size, chunks);
		/* The piece each device keeps, and every read. */
		for (size_t i = 0; i < count && status == CLWARP_OK; i++) {
			size_t n = cut[i][i + 1] - cut[i][i], dst = 0;
			cl_int err;

			for (size_t k = 0; k < i; k++)
				dst += cut[k][i + 1] - cut[k][i];
			if (n == 0)
				continue;
			err = clEnqueueCopyBuffer(j->g->engines[i]->queue, from[i], to[i], cut[i][i] * size,
						  dst * size, n * size, 0, NULL, NULL);
			if (err != CL_SUCCESS)
				status = group_device_error(j->g, i, set_cl_error(err, "moving the sort's pieces"));
		}
		for (c = 0; c < nchunks && status == CLWARP_OK; c++) {
			struct chunk *k = &chunks[c];
			cl_int err = clEnqueueReadBuffer(j->g->engines[k->from]->queue, from[k->from], CL_FALSE,
							 k->src, k->bytes, staging + k->at, 0, NULL, &k->read);

			if (err != CL_SUCCESS) {
				k->read = NULL;
				status = group_device_error(j->g, k->from,
							    set_cl_error(err, "moving the sort's pieces"));
			}
		}
		for (size_t i = 0; i < count; i++)
			clFlush(j->g->engines[i]->queue);
		/* Each write after its read; a failed read still has its event
		 * waited for and released below. */
		for (c = 0; c < nchunks && chunks[c].read; c++) {
			struct chunk *k = &chunks[c];
			cl_event wait[CLWARP_GROUP_MAX_DEVICES] = { 0 };
			clwarp_status waited;
			cl_int err;

			wait[k->from] = k->read;
			k->read = NULL;
			waited = group_wait(j->g, wait, "reading the sort's pieces");
			if (status == CLWARP_OK)
				status = waited;
			if (status != CLWARP_OK)
				continue;
			err = clEnqueueWriteBuffer(j->g->engines[k->to]->queue, to[k->to], CL_FALSE, k->dst,
						   k->bytes, staging + k->at, 0, NULL, NULL);
			if (err != CL_SUCCESS)
				status = group_device_error(j->g, k->to,
							    set_cl_error(err, "moving the sort's pieces"));
			else
				clFlush(j->g->engines[k->to]->queue);
		}
		free(chunks);
		for (size_t b = 0; b < count; b++) {
			if (clEnqueueMarkerWithWaitList(j->g->engines[b]->queue, 0, NULL, &done[b]) != CL_SUCCESS)
				done[b] = NULL;
			clFlush(j->g->engines[b]->queue);
		}
		clwarp_status waited = group_wait(j->g, done, "writing the sort's pieces");

		if (status == CLWARP_OK)
			status = waited;
	}
	return status;
}

/* The splitters: splitter b is the first sample at which the weight of
 * the samples so far reaches the buckets' share (by the group's weights). */
static void
choose_splitters(const struct sort_job *j, struct sample *samples, size_t nsamples,
		 uint64_t *split)
{
	size_t count = j->g->count, n = j->offsets[count];
	double total = 0, want = 0, seen = 0;
	size_t s = 0;

	qsort(samples, nsamples, sizeof(*samples), compare_samples);
	for (size_t b = 0; b < count; b++)
		total += j->g->weights[b];
	for (size_t b = 0; b + 1 < count; b++) {
		want += (double)n * j->g->weights[b] / total;
		while (s < nsamples && seen + samples[s].weight <= want)
			seen += samples[s++].weight;
		split[b] = s < nsamples ? samples[s].rank : UINT64_MAX;
	}
}

/* Each slice's cut points: a binary search per splitter, from the
 * previous cut. */
static clwarp_status
cut_slices(struct sort_job *j, const size_t *counts, const uint64_t *split,
	   size_t (*cut)[CLWARP_GROUP_MAX_DEVICES + 1])
{
	size_t count = j->g->count;
	clwarp_status status = CLWARP_OK;

	for (size_t i = 0; i < count && status == CLWARP_OK; i++) {
		size_t m = counts[i];

		cut[i][0] = 0;
		cut[i][count] = m;
		for (size_t b = 0; b + 1 < count && status == CLWARP_OK; b++) {
			size_t lo = cut[i][b], hi = m;

			status = lower_bound(j, i, split[b], lo, hi, &cut[i][b + 1]);
		}
	}
	return status;
}

/* Each bucket's size (and whether its one piece is sorted already), the
 * output offsets and buffers, and *staged: the keys that change device. */
static clwarp_status
plan_buckets(struct sort_job *j, size_t (*cut)[CLWARP_GROUP_MAX_DEVICES + 1], size_t *bucket,
	     bool *sorted, size_t *staged)
{
	size_t count = j->g->count;
	size_t bytes[CLWARP_GROUP_MAX_DEVICES];
	clwarp_status status;

	j->out_offsets[0] = 0;
	for (size_t b = 0; b < count; b++) {
		size_t pieces = 0;

		bucket[b] = 0;
		for (size_t i = 0; i < count; i++) {
			size_t piece = cut[i][b + 1] - cut[i][b];

			bucket[b] += piece;
			pieces += piece > 0;
			if (i != b)
				*staged += piece;
		}
		/* One piece is sorted already. */
		sorted[b] = pieces <= 1;
		j->out_offsets[b + 1] = j->out_offsets[b] + bucket[b];
	}
	for (size_t b = 0; b < count; b++)
		bytes[b] = bucket[b] * j->ksize;
	status = group_buffers_new(j->g, CL_MEM_READ_WRITE, bytes, j->out_keys);
	for (size_t b = 0; b < count && j->value_type >= 0; b++)
		bytes[b] = bucket[b] * j->vsize;
	if (status == CLWARP_OK && j->value_type >= 0)
		status = group_buffers_new(j->g, CL_MEM_READ_WRITE, bytes, j->out_values);
	return status;
}

static clwarp_status
group_sort(struct sort_job *j)
{
	size_t count = j->g->count, nsamples = 0;
	size_t stride[CLWARP_GROUP_MAX_DEVICES], counts[CLWARP_GROUP_MAX_DEVICES];
	size_t bucket[CLWARP_GROUP_MAX_DEVICES], staged = 0;
	size_t (*cut)[CLWARP_GROUP_MAX_DEVICES + 1] = NULL;
	uint64_t split[CLWARP_GROUP_MAX_DEVICES];
	bool skip[CLWARP_GROUP_MAX_DEVICES] = { 0 }, sorted[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	struct sample *samples = NULL;
	unsigned char *raw = NULL, *staging = NULL;
	clwarp_status status;

	for (size_t i = 0; i < count; i++)
		counts[i] = slice(j, i);
	status = sort_slices(j, j->keys, j->values, counts, skip);
	samples = calloc(count * SAMPLES + 1, sizeof(*samples));
	raw = malloc(count * SAMPLES * j->ksize + 1);
	cut = calloc(count, sizeof(*cut));
	if (status == CLWARP_OK && (!samples || !raw || !cut))
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	if (status == CLWARP_OK)
		status = draw_samples(j, samples, &nsamples, stride, raw);
	if (status == CLWARP_OK) {
		choose_splitters(j, samples, nsamples, split);
		status = cut_slices(j, counts, split, cut);
	}
	if (status == CLWARP_OK)
		status = plan_buckets(j, cut, bucket, sorted, &staged);
	if (status == CLWARP_OK) {
		staging = group_staging(j->g, staged * (j->ksize > j->vsize ? j->ksize : j->vsize) + 1);
		if (!staging)
			status = set_error(CLWARP_ERROR_OUT_OF_MEMORY,
					   "%s: out of host memory for %zu keys moving between devices", j->fn,
					   staged);
	}
	if (status == CLWARP_OK)
		status = exchange(j, cut, staging);
	if (status == CLWARP_OK)
		status = sort_slices(j, j->out_keys, j->value_type >= 0 ? j->out_values : NULL, bucket,
				     sorted);
	if (status != CLWARP_OK) {
		group_release_buffers(j->g, j->out_keys);
		if (j->value_type >= 0)
			group_release_buffers(j->g, j->out_values);
	}
	free(samples);
	free(raw);
	free(cut);
	return status;
}

static clwarp_status
sort_call(struct sort_job *j)
{
	clwarp_group *g = j->g;
	clwarp_status status;

	if (!g)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL group", j->fn);
	if (!j->keys || !j->out_keys || !j->out_offsets ||
	    (j->value_type >= 0 && (!j->values || !j->out_values)))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL buffer array or out_offsets",
				 j->fn);
	for (size_t i = 0; i < g->count; i++) {
		j->out_keys[i] = NULL;
		if (j->value_type >= 0)
			j->out_values[i] = NULL;
	}
	status = group_check_offsets(g, j->fn, j->offsets, "offsets");
	if (status == CLWARP_OK)
		status = algo_check_engine_type(j->fn, g->engines[0], j->key_type, CLWARP_OP_ADD);
	if (status == CLWARP_OK && j->value_type >= ALGO_TYPE_COUNT)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown value type %d", j->fn,
				   j->value_type);
	if (status != CLWARP_OK)
		return status;
	j->ksize = algo_type_size(j->key_type);
	j->vsize = j->value_type >= 0 ? algo_type_size((clwarp_type)j->value_type) : 0;
	status = algo_sort_bit_range(j->fn, j->flags, (unsigned)(8 * j->ksize), &j->begin, &j->end);
	if (status != CLWARP_OK)
		return status;
	return group_sort(j);
}

CLWARP_EXPORT clwarp_status
clwarp_group_sort_keys(clwarp_group *g, clwarp_type type, const cl_mem *keys, cl_mem *out_keys,
		       size_t *out_offsets, const size_t *offsets, unsigned flags)
{
	struct sort_job j = { .g = g, .fn = "clwarp_group_sort_keys", .key_type = type,
			      .value_type = -1, .flags = flags, .keys = keys, .offsets = offsets,
			      .out_keys = out_keys, .out_offsets = out_offsets };

	clear_error();
	return sort_call(&j);
}

CLWARP_EXPORT clwarp_status
clwarp_group_sort_pairs(clwarp_group *g, clwarp_type key_type, clwarp_type value_type,
			const cl_mem *keys, const cl_mem *values, cl_mem *out_keys, cl_mem *out_values,
			size_t *out_offsets, const size_t *offsets, unsigned flags)
{
	struct sort_job j = { .g = g, .fn = "clwarp_group_sort_pairs", .key_type = key_type,
			      .value_type = (int)value_type, .flags = flags, .keys = keys,
			      .values = values, .offsets = offsets, .out_keys = out_keys,
			      .out_values = out_values, .out_offsets = out_offsets };

	clear_error();
	if ((unsigned)value_type >= ALGO_TYPE_COUNT)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: unknown value type %d", j.fn,
				 (int)value_type);
	return sort_call(&j);
}
