/* Device-wide radix sort: clwarp_sort_keys and clwarp_sort_pairs
 * (kernels/algorithms/sort.cl). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clwarp/algorithms.h"
#include "error.h"
#include "log.h"
#include "sha256.h"
#include "util.h"

#define SORT_RADIX 256u
#define SORT_FLAG_BIT_RANGE 0x2u
#define SORT_KNOWN_FLAGS \
	(CLWARP_SORT_DESCENDING | SORT_FLAG_BIT_RANGE | CLWARP_SORT_TOTAL_ORDER | 0xffff00u)
/* The passes' mode bits beside descending (kernels/algorithms/sort.cl). */
#define SORT_MODE_IN_RAW 0x2u
#define SORT_MODE_OUT_RAW 0x4u

clwarp_status
algo_sort_bit_range(const char *fn, unsigned flags, unsigned key_bits, unsigned *begin,
	       unsigned *end)
{
	if (flags & ~SORT_KNOWN_FLAGS)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: unknown flags 0x%x (CLWARP_SORT_DESCENDING, CLWARP_SORT_TOTAL_ORDER and CLWARP_SORT_BITS(begin, end) are known)",
				 fn, flags & ~SORT_KNOWN_FLAGS);
	if (!(flags & SORT_FLAG_BIT_RANGE)) {
		if (flags & 0xffff00u)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "%s: flags 0x%x: give a bit range with CLWARP_SORT_BITS(begin, end)",
					 fn, flags);
		*begin = 0;
		*end = key_bits;
		return CLWARP_OK;
	}
	*begin = (flags >> 8) & 0xffu;
	*end = (flags >> 16) & 0xffu;
	if (*begin >= *end || *end > key_bits)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s: bit range [%u, %u) is not within the key's %u bits (begin < end <= %u)",
				 fn, *begin, *end, key_bits, key_bits);
	return CLWARP_OK;
}

/* One sort's buffers and sizes, checked (sort_check), then planned. */
struct sort_plan {
	cl_mem keys, values;
	int value_type;          /* -1: keys only */
	size_t n, key_bytes, value_bytes;
	unsigned begin, end;     /* the bit range */
	cl_uint descending;
	size_t wg, tiles;
	unsigned passes;
};

/* The arguments of algo_sort, into @p sp. */
static clwarp_status
sort_check(const char *fn, clwarp_engine *engine, clwarp_type key_type, unsigned flags,
	   struct sort_plan *sp)
{
	size_t ksize, vsize;
	clwarp_status status;

	/* Values only move, as bits: a double value needs no cl_khr_fp64. */
	status = algo_check_engine_type(fn, engine, key_type, CLWARP_OP_ADD);
	if (status != CLWARP_OK)
		return status;
	ksize = algo_types[key_type].size;
	status = algo_sort_bit_range(fn, flags, (unsigned)(8 * ksize), &sp->begin, &sp->end);
	if (status != CLWARP_OK)
		return status;
	if (sp->n > UINT32_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "%s: n = %zu; positions are 32-bit, so n must be below 2^32", fn, sp->n);
	status = algo_checked_bytes(fn, sp->n, ksize, &sp->key_bytes);
	if (status == CLWARP_OK && sp->n > 0)
		status = algo_check_buffer(fn, engine, sp->keys, "keys", sp->key_bytes);
	if (status == CLWARP_OK && sp->value_type >= 0) {
		vsize = algo_types[sp->value_type].size;
		status = algo_checked_bytes(fn, sp->n, vsize, &sp->value_bytes);
		if (status == CLWARP_OK && sp->n > 0)
			status = algo_check_buffer(fn, engine, sp->values, "values", sp->value_bytes);
		if (status == CLWARP_OK && sp->n > 0 && sp->keys == sp->values)
			status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					   "%s: `keys` and `values` must be two different buffers", fn);
	}
	return status;
}

/* Pass @p p of the sort: 8 bits of the key, from keys to the engine's
 * buffer or back. */
static clwarp_status
sort_pass(struct algo_call *c, const struct sort_plan *sp, unsigned p)
{
	struct algorithms *a = c->a;
	cl_mem from = p % 2 ? a->sort_keys : sp->keys, to = p % 2 ? sp->keys : a->sort_keys;
	cl_mem vfrom = from, vto = to;
	unsigned shift = sp->begin + 8 * p;
	unsigned bits = sp->end - shift < 8 ? sp->end - shift : 8;
	size_t wg = sp->wg, tiles = sp->tiles;
	cl_ulong n = (cl_ulong)sp->n;
	cl_uint epoch = 0;
	/* Total-order floats: words between the first load and the last
	 * store (sort.cl). Other keys ignore these bits. */
	cl_uint mode = sp->descending | (p == 0 ? SORT_MODE_IN_RAW : 0) |
		       (p + 1 == sp->passes ? SORT_MODE_OUT_RAW : 0);
	clwarp_status status;

	if (sp->value_type >= 0) {
		vfrom = p % 2 ? a->sort_values : sp->values;
		vto = p % 2 ? sp->values : a->sort_values;
	}
	if (a->sort_wait_free) {
		/* Count, scan the counts, scatter: no waits (sort.cl). */
		status = algo_call_launch(c, 3, tiles * wg, "bluuut", from, n,
					  mode, shift, (1u << bits) - 1u, a->sort_counts);
		if (status == CLWARP_OK)
			status = algo_call_launch(c, 4, wg, "tutu", a->sort_counts, (cl_uint)tiles,
						  a->sort_bins, p);
		if (status == CLWARP_OK)
			status = algo_call_launch(c, 2, tiles * wg, "bbbbluuuuuutt", from, to,
						  vfrom, vto, n, (cl_uint)tiles, epoch,
						  mode, shift, (1u << bits) - 1u, p,
						  a->sort_bins, a->sort_counts);
		return status;
	}
	status = algo_lookback_prepare(c, tiles * SORT_RADIX, sizeof(cl_uint), &epoch);
	if (status == CLWARP_OK)
		status = algo_call_launch(c, 2, tiles * wg, "bbbbluuuuuutttt", from, to, vfrom,
					  vto, n, (cl_uint)tiles, epoch, mode,
					  shift, (1u << bits) - 1u, p, a->sort_bins,
					  a->counter, a->tile_words, a->tile_slots);
	return status;
}

/* The sort's launches for c's variant: the histogram, the offsets, a
 * pass per digit and, after an odd number of passes, the copy back. */
static clwarp_status
sort_launches(struct algo_call *c, struct sort_plan *sp)
{
	struct algorithms *a = c->a;
	size_t wg = sp->wg = c->v->wg, n = sp->n;
	size_t tile = wg * c->v->vectors, groups;
	clwarp_status status;

	sp->tiles = n / tile + (n % tile != 0);
	sp->passes = (sp->end - sp->begin + 7) / 8;
	groups = (n + wg * 16 - 1) / (wg * 16);
	if (groups > (size_t)a->compute_units * 4)
		groups = (size_t)a->compute_units * 4;
	/* Counts then offsets, for the most passes a key can need (8). */
	status = algo_temp_reserve(c->engine, &a->sort_bins, &a->sort_bins_bytes,
				   2 * 8 * SORT_RADIX * sizeof(cl_uint));
	if (status == CLWARP_OK)
		status = algo_temp_reserve(c->engine, &a->sort_keys, &a->sort_keys_bytes,
					   sp->key_bytes);
	if (status == CLWARP_OK && sp->value_type >= 0)
		status = algo_temp_reserve(c->engine, &a->sort_values, &a->sort_values_bytes,
					   sp->value_bytes);
	/* Wait-free passes: a count per tile and digit (at most 2^32 / 512
	 * tiles, so the product fits a size_t). */
	if (status == CLWARP_OK && a->sort_wait_free)
		status = algo_temp_reserve(c->engine, &a->sort_counts, &a->sort_counts_bytes,
					   sp->tiles * SORT_RADIX * sizeof(cl_uint));
	if (status == CLWARP_OK)
		status = algo_call_launch(c, 0, groups * wg, "bluuut", sp->keys, (cl_ulong)n,
					  sp->descending, sp->begin, sp->end, a->sort_bins);
	if (status == CLWARP_OK)
		status = algo_call_launch(c, 1, sp->passes * wg, "t", a->sort_bins);
	for (unsigned p = 0; p < sp->passes && status == CLWARP_OK; p++)
		status = sort_pass(c, sp, p);
	/* An odd number of passes ends in the engine's buffer. */
	if (status == CLWARP_OK && sp->passes % 2)
		status = algo_call_copy(c, a->sort_keys, sp->keys, sp->key_bytes);
	if (status == CLWARP_OK && sp->passes % 2 && sp->value_type >= 0)
		status = algo_call_copy(c, a->sort_values, sp->values, sp->value_bytes);
	return status;
}

/* -------------------------------------- wider than the driver's query (nv) */

/* The width check sorts this many tiles, the last one partial, so that
 * the look-back crosses work-groups and the padding is used; a wait
 * longer than WIDE_CHECK_MS is taken for a hang, and the width fails. */
#define WIDE_CHECK_TILES 6
#define WIDE_CHECK_MS 10000.0

/* A verdict is cached on disk under the device, its driver, the
 * variant's program and build options, and the width. */
static void
wide_key(const clwarp_engine *e, const struct algo_variant *v, uint8_t key[32])
{
	struct sha256 h;
	char text[32];

	sha256_init(&h);
	sha256_update_str(&h, "clwarp sort width verdict 1 " CLWARP_VERSION);
	sha256_update_str(&h, e->info.platform_name);
	sha256_update_str(&h, e->info.platform_version);
	sha256_update_str(&h, e->info.name);
	sha256_update_str(&h, e->info.driver_version);
	sha256_update_str(&h, e->info.device_version);
	sha256_update(&h, v->build_key, sizeof(v->build_key));
	snprintf(text, sizeof(text), "%zu", v->wg);
	sha256_update_str(&h, text);
	sha256_final(&h, key);
}

/* One key of the check: its bits, its unsigned order (sort.cl's
 * sort_order_bits, NaNs left out), its place in the input. */
struct wide_item {
	uint64_t order;
	uint32_t bits, at;
};

static int
wide_cmp(const void *x, const void *y)
{
	const struct wide_item *p = x, *q = y;

	if (p->order != q->order)
		return p->order < q->order ? -1 : 1;
	return p->at < q->at ? -1 : p->at > q->at;
}

/* n keys of `t` (4 bytes or less) into `host` and, sorted, `keys`. */
static void
wide_keys(const struct type_desc *t, void *host, struct wide_item *keys, size_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	uint32_t top = 1u << (8 * t->size - 1), mask = top | (top - 1);

	for (size_t i = 0; i < n; i++) {
		uint32_t b;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b = (uint32_t)(x >> 29) & mask;
		if (t->is_float && (b & 0x7f800000u) == 0x7f800000u)
			b &= ~0x00800000u;      /* no infinities or NaNs */
		if (t->size == 1)
			((uint8_t *)host)[i] = (uint8_t)b;
		else if (t->size == 2)
			((uint16_t *)host)[i] = (uint16_t)b;
		else
			((uint32_t *)host)[i] = b;
		keys[i].bits = b;
		keys[i].at = (uint32_t)i;
		keys[i].order = t->is_float ? (b & top ? ~b & mask : b | top) : t->is_signed ? b ^ top : b;
	}
	qsort(keys, n, sizeof(*keys), wide_cmp);
}

/* Wait for ev at most WIDE_CHECK_MS: 0 done, 1 too long, -1 failed. */
static int
wide_wait(cl_event ev)
{
	double start = now_ms();
	struct timespec nap = { 0, 100000 };

	for (;;) {
		cl_int st = CL_QUEUED;

		if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL) !=
			    CL_SUCCESS || st < 0)
			return -1;
		if (st == CL_COMPLETE)
			return 0;
		if (now_ms() - start > WIDE_CHECK_MS)
			return 1;
		nanosleep(&nap, NULL);
	}
}

/* Sort `host`'s n keys with c's variant, in a call of its own (no events,
 * no lock), and read them back; false, with `why`, where that fails. */
static bool
wide_sort(const struct algo_call *c, void *host, size_t n, char *why, size_t why_size)
{
	struct algo_call k = { .fn = c->fn, .engine = c->engine, .config = c->config, .a = c->a,
			       .v = c->v };
	size_t size = algo_types[c->v->type].size;
	struct sort_plan sp = { .value_type = -1, .n = n, .key_bytes = n * size,
				.end = (unsigned)(8 * size) };
	cl_command_queue q = c->engine->queue;
	cl_event done = NULL;
	cl_int err;
	int waited = -1;

	sp.keys = clCreateBuffer(c->engine->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				 n * size, host, &err);
	if (err != CL_SUCCESS) {
		snprintf(why, why_size, "its keys could not be made (%d)", (int)err);
		return false;
	}
	if (sort_launches(&k, &sp) != CLWARP_OK) {
		snprintf(why, why_size, "%s", error_message());
		clear_error();
	} else if ((err = clEnqueueMarkerWithWaitList(q, 0, NULL, &done)) != CL_SUCCESS ||
		   (err = clFlush(q)) != CL_SUCCESS) {
		snprintf(why, why_size, "queueing it failed (%d)", (int)err);
	} else if ((waited = wide_wait(done)) != 0) {
		snprintf(why, why_size, waited > 0 ? "it did not finish within %.0f s"
						   : "it failed on the device", WIDE_CHECK_MS / 1e3);
	} else if ((err = clEnqueueReadBuffer(q, sp.keys, CL_TRUE, 0, n * size, host, 0, NULL,
					      NULL)) != CL_SUCCESS) {
		snprintf(why, why_size, "reading its keys failed (%d)", (int)err);
		waited = -1;
	}
	if (done)
		clReleaseEvent(done);
	clReleaseMemObject(sp.keys);
	return waited == 0;
}

/* Sort WIDE_CHECK_TILES tiles of keys with c's variant and check every
 * one against the host's stable sort. */
static bool
wide_check(const struct algo_call *c, char *why, size_t why_size)
{
	const struct type_desc *t = &algo_types[c->v->type];
	size_t tile = c->v->wg * c->v->vectors, n = WIDE_CHECK_TILES * tile - tile / 3;
	void *host = malloc(n * t->size);
	struct wide_item *keys = malloc(n * sizeof(*keys));
	size_t wrong = 0, first = 0;
	bool ok = false;

	if (!host || !keys) {
		snprintf(why, why_size, "out of memory");
	} else {
		wide_keys(t, host, keys, n);
		ok = wide_sort(c, host, n, why, why_size);
	}
	for (size_t i = 0; ok && i < n; i++) {
		uint32_t b = t->size == 1 ? ((uint8_t *)host)[i]
			   : t->size == 2 ? ((uint16_t *)host)[i] : ((uint32_t *)host)[i];

		if (b != keys[i].bits && !wrong++)
			first = i;
	}
	if (ok && wrong) {
		snprintf(why, why_size, "%zu of %zu keys out of place, the first at %zu", wrong, n, first);
		ok = false;
	}
	free(host);
	free(keys);
	return ok;
}

/*
 * c's variant runs wider work-groups than the driver's query allows
 * (v->query_wg, src/algo_variants.c): a cached verdict, or the check.
 * Where the width fails, the engine's sorts take the narrow shape from
 * then on, and v is built again in it.
 */
static clwarp_status
sort_wide_settle(struct algo_call *c)
{
	struct algo_variant *v = c->v;
	clwarp_engine *e = c->engine;
	uint8_t key[32];
	void *payload = NULL;
	size_t size = 0;
	char why[256] = "";
	bool ok;

	wide_key(e, v, key);
	if (diskcache_load(&e->disk, key, "probe", &payload, &size)) {
		const char *p = payload;

		ok = size >= 1 && p[0] == '1';
		snprintf(why, sizeof(why), "%.*s", !ok && size > 1 ? (int)(size - 1) : 0,
			 !ok && size > 1 ? p + 1 : "");
		free(payload);
	} else {
		struct strbuf text = { 0 };

		ok = wide_check(c, why, sizeof(why));
		strbuf_printf(&text, "%s%s", ok ? "1" : "0", ok ? "" : why);
		if (!text.failed)
			diskcache_store(&e->disk, key, "probe", text.data, text.len);
		strbuf_free(&text);
	}
	log_info(&e->logger, "sort: %zu work-items per work-group, where the driver says %zu: %s%s%s",
		 v->wg, v->query_wg, ok ? "checked, right" : "refused: ", ok ? "" : why,
		 ok ? "" : "; sorts keep the driver's width");
	if (ok) {
		v->query_wg = 0;
		return CLWARP_OK;
	}
	c->a->sort_wide_refused = true;
	return algo_variant_rebuild(c->fn, e, c->a, c->config, v);
}

clwarp_status
algo_sort(const char *fn, clwarp_engine *engine, clwarp_type key_type, cl_mem keys,
	  int value_type, cl_mem values, size_t n, unsigned flags, cl_event *event)
{
	struct algo_call c;
	struct sort_plan sp = {
		.keys = keys, .values = values, .value_type = value_type, .n = n,
		.descending = flags & CLWARP_SORT_DESCENDING,
	};
	bool total_order;
	clwarp_status status;

	status = sort_check(fn, engine, key_type, flags, &sp);
	if (status != CLWARP_OK)
		return status;

	/* Integer keys' order is total already: one variant serves both. */
	total_order = (flags & CLWARP_SORT_TOTAL_ORDER) && algo_types[key_type].is_float;
	status = algo_call_begin(&c, fn, engine, ALGO_SORT, key_type, CLWARP_OP_ADD, total_order,
				 NULL, value_type, n, event);
	if (status == CLWARP_OK && n <= 1)
		return algo_call_end(&c, algo_call_marker(&c), event);
	if (status != CLWARP_OK)
		return algo_call_end(&c, status, event);

	if (c.v->query_wg)
		status = sort_wide_settle(&c);
	if (status == CLWARP_OK)
		status = sort_launches(&c, &sp);
	return algo_call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_sort_keys(clwarp_engine *engine, clwarp_type type, cl_mem keys, size_t n, unsigned flags,
		 cl_event *event)
{
	clear_error();
	return algo_sort("clwarp_sort_keys", engine, type, keys, -1, NULL, n, flags, event);
}

CLWARP_EXPORT clwarp_status
clwarp_sort_pairs(clwarp_engine *engine, clwarp_type key_type, clwarp_type value_type, cl_mem keys,
		  cl_mem values, size_t n, unsigned flags, cl_event *event)
{
	clear_error();
	if ((unsigned)value_type >= ALGO_TYPE_COUNT)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_sort_pairs: unknown value type %d", (int)value_type);
	return algo_sort("clwarp_sort_pairs", engine, key_type, keys, (int)value_type, values, n,
			 flags, event);
}
