/* What the algorithm tests (test-algorithms.c, test-sort.c, test-runs.c,
 * test-histogram.c) share: typed elements as bits, random numbers,
 * engines and buffers. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_ALGO_TESTUTIL_H
#define CLWARP_ALGO_TESTUTIL_H

#include <math.h>
#include <stdint.h>

#include "clwarp/algorithms.h"
#include "testutil.h"

/* CLWARP_TEST_QUICK=1: small sizes and fewer cases (Oclgrind, sanitizers). */
static bool quick;

static const char *const type_names[] = { "int",    "uint",  "long",  "ulong", "float",
					   "double", "char",  "uchar", "short", "ushort" };

/* Every clwarp_type; the 1- and 2-byte ones from CLWARP_TYPE_CHAR on. */
#define TYPE_COUNT (CLWARP_TYPE_USHORT + 1)

static inline void
test_read_quick(void)
{
	const char *q = test_quick_env();

	quick = q && *q && strcmp(q, "0") != 0;
}

static inline uint64_t
next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline bool
is_float(clwarp_type t)
{
	return t == CLWARP_TYPE_FLOAT || t == CLWARP_TYPE_DOUBLE;
}

static inline bool
is_signed(clwarp_type t)
{
	return t == CLWARP_TYPE_INT || t == CLWARP_TYPE_LONG || t == CLWARP_TYPE_CHAR ||
	       t == CLWARP_TYPE_SHORT;
}

/* A 1- or 2-byte type. */
static inline bool
is_narrow(clwarp_type t)
{
	return t >= CLWARP_TYPE_CHAR && t <= CLWARP_TYPE_USHORT;
}

/* The bits of an element of `size` bytes: all ones in the low 8 * size bits. */
static inline uint64_t
size_mask(size_t size)
{
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static inline bool
has_fp64(clwarp_engine *e)
{
	return clwarp_engine_device_info(e)->has_fp64 != 0;
}

/* Element i of a host array of `size`-byte elements, as bits. */
static inline uint64_t
get_bits(const void *b, size_t size, size_t i)
{
	switch (size) {
	case 1: return ((const uint8_t *)b)[i];
	case 2: return ((const uint16_t *)b)[i];
	case 4: return ((const uint32_t *)b)[i];
	default: return ((const uint64_t *)b)[i];
	}
}

static inline void
set_bits(void *b, size_t size, size_t i, uint64_t v)
{
	switch (size) {
	case 1: ((uint8_t *)b)[i] = (uint8_t)v; break;
	case 2: ((uint16_t *)b)[i] = (uint16_t)v; break;
	case 4: ((uint32_t *)b)[i] = (uint32_t)v; break;
	default: ((uint64_t *)b)[i] = v; break;
	}
}

/* Float and double bits as their value. */
static inline double
bits_to_double(clwarp_type t, uint64_t bits)
{
	if (t == CLWARP_TYPE_FLOAT) {
		uint32_t b = (uint32_t)bits;
		float f;

		memcpy(&f, &b, 4);
		return f;
	}
	double d;

	memcpy(&d, &bits, 8);
	return d;
}

static inline uint64_t
double_to_bits(clwarp_type t, double x)
{
	if (t == CLWARP_TYPE_FLOAT) {
		float f = (float)x;
		uint32_t b;

		memcpy(&b, &f, 4);
		return b;
	}
	uint64_t b;

	memcpy(&b, &x, 8);
	return b;
}

/* Integer bits sign-extended (signed types) or zero-extended to 64. */
static inline int64_t
bits_to_signed(clwarp_type t, uint64_t bits)
{
	switch (t) {
	case CLWARP_TYPE_INT: return (int32_t)(uint32_t)bits;
	case CLWARP_TYPE_CHAR: return (int8_t)(uint8_t)bits;
	case CLWARP_TYPE_SHORT: return (int16_t)(uint16_t)bits;
	case CLWARP_TYPE_UCHAR: return (uint8_t)bits;
	case CLWARP_TYPE_USHORT: return (uint16_t)bits;
	default: return (int64_t)bits;
	}
}

static inline unsigned
warp_of(clwarp_engine *e)
{
	unsigned w = 0;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, NULL, &w));
	return w;
}

/* An engine with the tests' disk cache (CLWARP_CACHE_DIR): each variant is
 * built once per run, not once per test process. backend AUTO and warp 0:
 * the defaults. */
static inline clwarp_engine *
algo_engine(clwarp_backend backend, unsigned warp_size)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	clwarp_engine_options_init(&o);
	o.backend = backend;
	o.warp_size = warp_size;
	ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_OK, "engine: %s", clwarp_last_error());
	return e;
}

/*
 * A buffer holding `data`, or, with data NULL, the byte 0xA5 everywhere: an
 * element the call should write but does not then shows as a wrong value.
 * Never an uninitialized buffer: Oclgrind 21.10 loses track of what kernels
 * wrote into a buffer created where a released, smaller one was (it then
 * reports the partition's reversal step reading "uninitialized" values);
 * memory the host initialized is tracked correctly.
 */
static inline cl_mem
device_copy(clwarp_engine *e, const void *data, size_t bytes)
{
	size_t size = bytes ? bytes : 8;
	void *fill = NULL;
	cl_mem m = NULL;

	if (!data || !bytes) {
		fill = malloc(size);
		ck_assert_ptr_nonnull(fill);
		memset(fill, 0xA5, size);
		data = fill;
	}
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, size, data, &m));
	free(fill);
	return m;
}

static inline void *
device_read(clwarp_engine *e, cl_mem m, size_t bytes)
{
	void *out = malloc(bytes ? bytes : 8);

	ck_assert_ptr_nonnull(out);
	if (bytes)
		ck_assert_clwarp_ok(clwarp_buffer_read(e, m, 0, bytes, out));
	return out;
}

#define FILL_BITS(size) (0xA5A5A5A5A5A5A5A5ull & size_mask(size))

#endif
