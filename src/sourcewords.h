/* The words of a program that decide what the engine adds to it. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SOURCEWORDS_H
#define CLWARP_SOURCEWORDS_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The hidden parameter appended to each kernel (source.h, source_rewrite). */
#define SOURCE_SCRATCH_PARAM "local ulong *__clwarp_scratch"

/*
 * The extension types of kernels/warp/types.cl. A program gets a type's
 * warp functions only where its source names the type (char, uchar4,
 * float3, ...): parsing all of them would add about half a second to each
 * build on PoCL. Type k of element e is bit SOURCE_TYPE_BIT(e, k): k 1 .. 5
 * its vectors of SOURCE_VECTOR_WIDTHS (bits 0 .. 54), k 0 the scalar, which
 * is an extension type only for the first SOURCE_SMALL_COUNT elements (bits
 * 55 .. 59; the other scalars are core types and have no bit).
 */
#define SOURCE_ELEMENT_TYPES(X) \
	X(char) X(uchar) X(short) X(ushort) X(half) \
	X(int) X(uint) X(long) X(ulong) X(float) X(double)
#define SOURCE_ELEMENT_COUNT 11
#define SOURCE_SMALL_COUNT 5
#define SOURCE_VECTOR_WIDTHS { 2, 3, 4, 8, 16 }
#define SOURCE_TYPE_BIT(e, k) \
	((k) > 0 ? UINT64_C(1) << ((e) * 5 + (k) - 1) \
	 : (e) < SOURCE_SMALL_COUNT ? UINT64_C(1) << (55 + (e)) : UINT64_C(0))

static inline bool
is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static inline bool
is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The source_result.types_named bits (source.h) of one identifier: an
 * element type or a vector of it. */
uint64_t source_type_bits(const char *name, size_t len);

/* Is it __syncthreads_count, _and or _or, which need the hidden scratch on
 * khr and intel (source.h, scratch_for_block_sync)? */
bool source_is_block_sync(const char *name, size_t len);

/* Is it one of <clwarp/cuda.h>'s warp-level calls (__shfl_sync, __ballot,
 * __reduce_add_sync, ...)? A kernel that makes them keeps the warp
 * contract, as one that names warp_* does (source.h, uses_warp). */
bool source_is_cuda_warp_call(const char *name, size_t len);

/* Is it a scalar type that a C++ functional cast names, `int(x)`? */
bool source_is_cast_type(const char *name, size_t len);

/* source_type_bits of every identifier in [p, end), and whether one is a
 * block vote (*block_sync set, never cleared): directive lines and -D
 * values name them too (#define VEC float4, -DT=int4, #define COUNT
 * __syncthreads_count). */
uint64_t source_words_in(const char *p, const char *end, bool *block_sync);

/* Is the parameter list's text p (to its end) only blanks, or `void`? */
bool source_params_are_empty(const char *p);

#endif
